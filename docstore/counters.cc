// Autoincrement counters: rows of admin.counters, read and written in the
// same SQLite transaction as the documents they number.
//
// A row is {_id: "db.coll.field", collection: "db.coll", field, last} and
// may carry start, increment, min, max, cycle. `last` is the value already
// handed out; the next insert that omits the field stores last + increment.
#include <cmath>
#include <cstring>
#include <limits>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

const std::string& CountersNs() {
  static const std::string ns =
      std::string(kAdminDb) + "." + kCountersCollection;
  return ns;
}

// Reads last and the options in one pass over the row.
void ReadRow(const bson_t* doc, CounterRow* row) {
  std::optional<int64_t> increment, start, min, max;
  bson_iter_t it;
  if (!bson_iter_init(&it, doc)) return;
  while (bson_iter_next(&it)) {
    const char* key = bson_iter_key(&it);
    switch (key[0]) {
      case 'l':
        if (strcmp(key, "last") == 0) row->last = IntegralValue(&it);
        break;
      case 'i':
        if (strcmp(key, "increment") == 0) increment = IntegralValue(&it);
        break;
      case 's':
        if (strcmp(key, "start") == 0) start = IntegralValue(&it);
        break;
      case 'm':
        if (strcmp(key, "min") == 0) min = IntegralValue(&it);
        if (strcmp(key, "max") == 0) max = IntegralValue(&it);
        break;
      case 'c':
        if (strcmp(key, "cycle") == 0) row->cycle = bson_iter_as_bool(&it);
        if (strcmp(key, "collection") == 0 && BSON_ITER_HOLDS_UTF8(&it))
          row->collection = bson_iter_utf8(&it, nullptr);
        break;
      case 'f':
        if (strcmp(key, "field") == 0 && BSON_ITER_HOLDS_UTF8(&it))
          row->field = bson_iter_utf8(&it, nullptr);
        break;
    }
  }
  row->increment = increment.value_or(1);
  if (row->increment == 0) row->increment = 1;
  bool asc = row->increment > 0;
  row->min = min.value_or(asc ? 1 : std::numeric_limits<int64_t>::min());
  row->max = max.value_or(asc ? std::numeric_limits<int64_t>::max() : -1);
  row->start = start.value_or(asc ? row->min : row->max);
}

// A copy of `doc` with `last` replaced (or appended), kept in field order.
bson_t* WithLast(const bson_t* doc, int64_t last) {
  bson_t* out = bson_new();
  bson_iter_t it;
  bson_iter_init(&it, doc);
  bool written = false;
  while (bson_iter_next(&it)) {
    if (strcmp(bson_iter_key(&it), "last") == 0) {
      AppendInteger(out, "last", last);
      written = true;
    } else {
      bson_append_iter(out, nullptr, 0, &it);
    }
  }
  if (!written) AppendInteger(out, "last", last);
  return out;
}

std::string ExhaustedMessage(const std::string& id, bool asc, int64_t bound) {
  return "counter \"" + id + "\" reached its " + (asc ? "maximum" : "minimum") +
         " value (" + std::to_string(bound) + ")";
}

}  // namespace

bson_t* CounterDocWithLast(const bson_t* doc, int64_t last) {
  return WithLast(doc, last);
}

// Loads the counter row with this _id (row->exists false when absent).
// end_lease: the caller writes the row in this transaction, so it must
// hold the exact last first (leases.cc).
static Status LoadCounter(SessionImpl* session, const std::string& id,
                          CounterRow* row, bool end_lease = true) {
  // A row loaded in this transaction had its lease ended then.
  auto cached = session->counter_cache().find(id);
  if (cached != session->counter_cache().end()) {
    *row = cached->second;
    return Status::OK();
  }
  if (end_lease) {
    Status s = session->EndCounterLease(id);
    if (!s.ok()) return s;
  }
  const CollectionMeta* counters;
  Status s = session->LookupCollection(CountersNs(), &counters);
  if (!s.ok()) return s;
  if (!counters)
    return Status::Error(Code::kInternal, "admin.counters missing");
  sqlite3_stmt* raw;
  static const std::string kSelect =
      "SELECT rid, doc FROM " + TableName(CountersNs()) + " WHERE kid = ?1";
  s = session->Prepare(kSelect, &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  sqlite3_bind_text(raw, 1, id.data(), static_cast<int>(id.size()),
                    SQLITE_STATIC);
  int rc;
  s = session->Step(raw, &rc);
  if (!s.ok()) return s;
  row->exists = rc == SQLITE_ROW;
  if (!row->exists) return Status::OK();
  row->rid = sqlite3_column_int64(raw, 0);
  row->bytes.assign(static_cast<const char*>(sqlite3_column_blob(raw, 1)),
                    sqlite3_column_bytes(raw, 1));
  bson_t doc;
  if (bson_init_static(&doc,
                       reinterpret_cast<const uint8_t*>(row->bytes.data()),
                       row->bytes.size()))
    ReadRow(&doc, row);
  return Status::OK();
}

// Writes last into the row; on success `row` holds the new bytes and the
// row is remembered for the rest of the transaction.
static Status StoreLast(SessionImpl* session, const std::string& id,
                        CounterRow& row, int64_t last) {
  const CollectionMeta* counters;
  Status s = session->LookupCollection(CountersNs(), &counters);
  if (!s.ok()) return s;
  // Overwrite in place when the stored type stays the same (the common
  // case); rebuild the row when last moves from int32 to int64.
  std::string bytes = row.bytes;
  bson_t doc;
  if (!bson_init_static(&doc, reinterpret_cast<const uint8_t*>(bytes.data()),
                        bytes.size()))
    return Status::Error(Code::kCorruption, "unreadable admin.counters row");
  bson_iter_t it;
  bool fits32 = last >= std::numeric_limits<int32_t>::min() &&
                last <= std::numeric_limits<int32_t>::max();
  if (bson_iter_init_find(&it, &doc, "last") &&
      ((fits32 && BSON_ITER_HOLDS_INT32(&it)) ||
       (!fits32 && BSON_ITER_HOLDS_INT64(&it)))) {
    // The iterator points into `bytes`, which this function owns.
    if (fits32)
      bson_iter_overwrite_int32(&it, static_cast<int32_t>(last));
    else
      bson_iter_overwrite_int64(&it, last);
  } else {
    bson_t* rebuilt = WithLast(&doc, last);
    bytes.assign(reinterpret_cast<const char*>(bson_get_data(rebuilt)),
                 rebuilt->len);
    bson_destroy(rebuilt);
  }
  sqlite3_stmt* raw;
  static const std::string kUpdate =
      "UPDATE " + TableName(CountersNs()) + " SET doc = ?1 WHERE rid = ?2";
  s = session->Prepare(kUpdate, &raw);
  if (s.ok()) {
    StmtHandle stmt(raw);
    sqlite3_bind_blob(raw, 1, bytes.data(), static_cast<int>(bytes.size()),
                      SQLITE_STATIC);
    sqlite3_bind_int64(raw, 2, row.rid);
    int rc;
    s = session->Step(raw, &rc);
  }
  if (s.ok()) {
    row.bytes = std::move(bytes);
    row.last = last;
    session->counter_cache()[id] = row;
  }
  return s;
}

// The highest (ascending) or lowest (descending) number stored in the field.
static Status TableExtremeInt(SessionImpl* session, const CollectionMeta& meta,
                              const std::string& field, bool asc,
                              std::optional<int64_t>* out) {
  std::string key = KeyExpr(field);
  sqlite3_stmt* raw;
  // `< ''` keeps numbers only (every TEXT and BLOB key sorts after them);
  // the ORDER BY matches the field's index, so this is one index probe.
  Status s = session->Prepare("SELECT " + key + " FROM " + meta.table +
                                  " WHERE " + key + " < '' ORDER BY " + key +
                                  (asc ? " DESC" : " ASC") + " LIMIT 1",
                              &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  int rc;
  s = session->Step(raw, &rc);
  if (!s.ok() || rc != SQLITE_ROW) return s;
  if (sqlite3_column_type(raw, 0) == SQLITE_INTEGER) {
    *out = sqlite3_column_int64(raw, 0);
    return Status::OK();
  }
  double d = sqlite3_column_double(raw, 0);
  d = asc ? std::floor(d) : std::ceil(d);
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
    return Status::Error(Code::kOverflow,
                         "the extreme value of " + meta.ns + "." + field +
                             " is outside the 64-bit integer range");
  }
  *out = static_cast<int64_t>(d);
  return Status::OK();
}

Status SessionImpl::NextCounterValue(const CollectionMeta& meta,
                                     const std::string& field, int64_t* value) {
  std::string id = CounterId(meta.ns, field);
  CounterRow row;
  Status s = LoadCounter(this, id, &row);
  if (!s.ok()) return s;
  const bool asc = row.increment > 0;
  const int64_t bound = asc ? row.max : row.min;

  std::optional<int64_t> next;
  bool exceeded = false;
  if (row.exists && row.last) {
    int64_t candidate;
    if (__builtin_add_overflow(*row.last, row.increment, &candidate)) {
      exceeded = true;
    } else {
      next = candidate;
    }
  }
  // A new, deleted or reset counter (next value not past the start) resumes
  // from the highest value stored: that value + increment, at least start.
  bool in_cycle = row.cycle && next && *next >= row.min && *next <= row.max;
  if (!exceeded && !in_cycle &&
      (!next || (asc ? *next <= row.start : *next >= row.start))) {
    std::optional<int64_t> extreme;
    s = TableExtremeInt(this, meta, field, asc, &extreme);
    if (!s.ok()) return s;
    if (!extreme) {
      next = row.start;
    } else {
      int64_t after;
      if (__builtin_add_overflow(*extreme, row.increment, &after)) {
        exceeded = true;
      } else {
        next = asc ? std::max(after, row.start) : std::min(after, row.start);
      }
    }
  }
  if (exceeded || (asc ? *next > row.max : *next < row.min)) {
    if (!row.cycle) {
      return Status::Error(Code::kCounterExhausted,
                           ExhaustedMessage(id, asc, bound));
    }
    next = asc ? row.min : row.max;
  }
  if (row.exists) {
    s = StoreLast(this, id, row, *next);
  } else {
    s = WriteCounterRow(id, meta.ns, field, nullptr, *next);
  }
  if (!s.ok()) return s;
  auto& entry = handed_out_[id];
  entry.first = meta.ns;
  entry.second = *next;
  *value = *next;
  return Status::OK();
}

Status SessionImpl::MoveCounterForSentValue(const CollectionMeta& meta,
                                            const std::string& field,
                                            int64_t sent) {
  CounterRow row;
  std::string id = CounterId(meta.ns, field);
  // Not beyond what a live lease handed out (a value it numbered): the
  // counter stays, and so does the lease.
  if (store_->durability().LiveCovers(id, sent)) return Status::OK();
  Status s = LoadCounter(this, id, &row);
  // A missing row is recreated from the stored values on the next insert,
  // which already include this one.
  if (!s.ok() || !row.exists || !row.last) return s;
  bool beyond = row.increment > 0 ? sent > *row.last : sent < *row.last;
  return beyond ? StoreLast(this, id, row, sent) : Status::OK();
}

Status SessionImpl::WriteCounterRow(const std::string& id,
                                    std::string_view collection,
                                    std::string_view field,
                                    const CounterSpec* spec, int64_t last) {
  ForgetCounters();
  Status s = EndCounterLease(id);
  if (!s.ok()) return s;
  const CollectionMeta* counters;
  s = LookupCollection(CountersNs(), &counters);
  if (!s.ok()) return s;
  // One row per _id: a stale row of the same name is replaced.
  sqlite3_stmt* raw;
  s = Prepare("DELETE FROM " + counters->table + " WHERE kid = ?1", &raw);
  if (!s.ok()) return s;
  {
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, id.c_str(), -1, SQLITE_TRANSIENT);
    int rc;
    s = Step(raw, &rc);
    if (!s.ok()) return s;
  }
  bson_t* doc = bson_new();
  bson_append_utf8(doc, "_id", 3, id.c_str(), static_cast<int>(id.size()));
  bson_append_utf8(doc, "collection", -1, collection.data(),
                   static_cast<int>(collection.size()));
  bson_append_utf8(doc, "field", -1, field.data(),
                   static_cast<int>(field.size()));
  AppendInteger(doc, "last", last);
  if (spec) {
    bool asc = spec->increment > 0;
    int64_t min =
        spec->min_value.value_or(asc ? 1 : std::numeric_limits<int64_t>::min());
    int64_t max = spec->max_value.value_or(
        asc ? std::numeric_limits<int64_t>::max() : -1);
    AppendInteger(doc, "start", spec->start.value_or(asc ? min : max));
    AppendInteger(doc, "increment", spec->increment);
    AppendInteger(doc, "min", min);
    AppendInteger(doc, "max", max);
    bson_append_bool(doc, "cycle", -1, spec->cycle);
  }
  s = InsertRaw(*counters, doc);
  bson_destroy(doc);
  return s;
}

Status SessionImpl::ValidateCounterDocument(const bson_t* doc,
                                            Document* normalized) {
  bson_iter_t it;
  if (!bson_iter_init_find(&it, doc, "_id") || !BSON_ITER_HOLDS_UTF8(&it)) {
    return Status::Error(Code::kBadValue,
                         "an admin.counters row needs a string _id "
                         "(database.collection.field)");
  }
  bson_t* out = bson_new();
  bson_iter_init(&it, doc);
  while (bson_iter_next(&it)) {
    const char* key = bson_iter_key(&it);
    bool numeric = strcmp(key, "last") == 0 || strcmp(key, "start") == 0 ||
                   strcmp(key, "increment") == 0 || strcmp(key, "min") == 0 ||
                   strcmp(key, "max") == 0;
    if (!numeric) {
      bson_append_iter(out, nullptr, 0, &it);
      continue;
    }
    std::optional<int64_t> v = IntegralValue(&it);
    if (!v || (strcmp(key, "increment") == 0 && *v == 0)) {
      bson_destroy(out);
      return Status::Error(
          Code::kBadValue,
          std::string("admin.counters field \"") + key + "\" must be " +
              (strcmp(key, "increment") == 0 ? "a nonzero integer"
                                             : "an integer") +
              ", not " + ValueToJson(&it));
    }
    // Integers are kept as int32 while they fit, int64 after.
    AppendInteger(out, key, *v);
  }
  *normalized = Document(out);
  return Status::OK();
}

Status SessionImpl::ReapplyHandedOut() {
  if (handed_out_.empty() && set_values_.empty() && lease_ends_.empty()) {
    if (!explicit_txn_) renamed_counters_.clear();
    return Status::OK();
  }
  bool own_txn = !explicit_txn_;
  if (own_txn) {
    Status s = Exec("BEGIN IMMEDIATE");
    if (!s.ok()) return s;
    StartWriteAccounting();
  }
  Status s = RefreshCatalog();
  // The row of counter `id`, under the id it had before a rename the
  // rollback undid when it has gone (*row_id: the id it was found under).
  auto load_row = [&](const std::string& id, std::string* row_id,
                      CounterRow* row) {
    *row_id = id;
    Status st = LoadCounter(this, id, row);
    for (size_t hops = 0; st.ok() && !row->exists && hops < 16; hops++) {
      auto renamed = renamed_counters_.find(*row_id);
      if (renamed == renamed_counters_.end()) break;
      *row_id = renamed->second;
      st = LoadCounter(this, *row_id, row);
    }
    return st;
  };
  for (const auto& [id, value] : set_values_) {
    if (!s.ok()) break;
    CounterRow row;
    std::string row_id;
    s = load_row(id, &row_id, &row);
    if (s.ok() && row.exists && row.last != value)
      s = StoreLast(this, row_id, row, value);
  }
  // Values of ended leases first: what the transaction handed out after
  // them (possibly lower, from a restart) is applied only if beyond.
  std::vector<const decltype(handed_out_)::value_type*> entries;
  for (const auto& e : lease_ends_) entries.push_back(&e);
  for (const auto& e : handed_out_) entries.push_back(&e);
  for (const auto* e : entries) {
    const std::string& id = e->first;
    const auto& entry = e->second;
    if (!s.ok()) break;
    const auto& [ns, value] = entry;
    CounterRow row;
    std::string row_id;
    s = load_row(id, &row_id, &row);
    if (!s.ok()) break;
    if (row.exists) {
      bool behind = !row.last ||
                    (row.increment > 0 ? *row.last < value : *row.last > value);
      if (behind) s = StoreLast(this, row_id, row, value);
      continue;
    }
    // The row is gone after the rollback: recreate it if the collection
    // still has this autoincrement field.
    const CollectionMeta* meta;
    s = LookupCollection(ns, &meta);
    if (!s.ok() || !meta) continue;
    std::string field = id.substr(ns.size() + 1);
    for (const auto& f : meta->autoincrement)
      if (f == field) s = WriteCounterRow(id, ns, field, nullptr, value);
  }
  if (own_txn) {
    ForgetCounters();
    uint64_t sync_ticket = 0;
    if (s.ok()) s = CommitAndNote(&sync_ticket);
    if (!s.ok()) {
      Exec("ROLLBACK");
      pending_reservations_.clear();
    } else {
      handed_out_.clear();
      lease_ends_.clear();
      set_values_.clear();
      renamed_counters_.clear();
      // Still under the write lock: this rare path may sync while holding it.
      s = SyncCommitted(sync_ticket);
    }
    EndCatalogChangeIfDone();
  }
  return s;
}

Status SessionImpl::LoadCounterRow(const std::string& id, CounterRow* row,
                                   bool end_lease) {
  return LoadCounter(this, id, row, end_lease);
}

Status SessionImpl::StoreCounterLast(const std::string& id, CounterRow& row,
                                     int64_t last) {
  return StoreLast(this, id, row, last);
}

Status SessionImpl::NextCounterById(const std::string& id, int64_t* value) {
  CounterRow row;
  Status s = LoadCounter(this, id, &row);
  if (!s.ok()) return s;
  if (!row.exists) {
    return Status::Error(Code::kNamespaceNotFound,
                         "counter \"" + id + "\" does not exist");
  }
  if (!row.collection.empty() && !row.field.empty() &&
      CounterId(row.collection, row.field) == id) {
    const CollectionMeta* meta;
    s = LookupCollection(row.collection, &meta);
    if (!s.ok()) return s;
    if (meta) {
      for (const auto& f : meta->autoincrement)
        if (f == row.field) return NextCounterValue(*meta, f, value);
    }
  }
  // A counter of its own: last + increment, start when nothing was handed
  // out (or the row was reset below its start).
  const bool asc = row.increment > 0;
  std::optional<int64_t> next;
  bool exceeded = false;
  if (row.last) {
    int64_t candidate;
    if (__builtin_add_overflow(*row.last, row.increment, &candidate))
      exceeded = true;
    else
      next = candidate;
  }
  bool in_cycle = row.cycle && next && *next >= row.min && *next <= row.max;
  if (!exceeded && !in_cycle &&
      (!next || (asc ? *next < row.start : *next > row.start)))
    next = row.start;
  if (exceeded || (asc ? *next > row.max : *next < row.min)) {
    if (!row.cycle) {
      return Status::Error(Code::kCounterExhausted,
                           ExhaustedMessage(id, asc, asc ? row.max : row.min));
    }
    next = asc ? row.min : row.max;
  }
  s = StoreLast(this, id, row, *next);
  if (!s.ok()) return s;
  auto& entry = handed_out_[id];
  entry.first = row.collection;
  entry.second = *next;
  *value = *next;
  return Status::OK();
}

}  // namespace kova::docstore
