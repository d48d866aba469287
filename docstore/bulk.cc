// Bulk load: many documents into one collection with one prepared INSERT,
// no savepoint per document, and counter rows written once per call.
#include <cstring>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

// An autoincrement field of the collection, numbered locally between the
// first value the counter code hands out and the end of the call.
struct LocalCounter {
  const std::string* field = nullptr;
  std::string id;
  bool valid = false;  // `row` and `last` are current
  bool dirty = false;  // `last` moved past what the row holds
  bool handed = false;
  // The row is missing or has no `last`: a sent value moves nothing (the
  // next omitted value recreates the row from the stored values).
  bool inert = false;
  CounterRow row;
  int64_t last = 0;
};

// ObjectIds from a context of the loading thread: the default context
// checks the process id on every id (a system call per document).
bson_context_t* OidContext() {
  struct Holder {
    bson_context_t* context = bson_context_new(BSON_CONTEXT_NONE);
    ~Holder() { bson_context_destroy(context); }
  };
  thread_local Holder holder;
  return holder.context;
}

}  // namespace

Status SessionImpl::InsertManyLocked(const CollectionMeta& meta,
                                     const bson_t* const* docs, size_t count,
                                     size_t* inserted) {
  *inserted = 0;
  if (is_counters(meta)) {
    return Status::Error(Code::kIllegalOperation,
                         "admin.counters takes documents one at a time");
  }
  sqlite3_stmt* raw;
  Status s = Prepare(meta.insert_sql, &raw);
  if (!s.ok()) return s;
  std::vector<LocalCounter> counters(meta.autoincrement.size());
  for (size_t k = 0; k < counters.size(); k++) {
    counters[k].field = &meta.autoincrement[k];
    counters[k].id = CounterId(meta.ns, meta.autoincrement[k]);
  }
  // Writes the locally numbered counters back (once per call).
  auto flush = [&]() {
    Status result;
    for (LocalCounter& c : counters) {
      if (!c.valid) continue;
      if (c.dirty) {
        Status w = StoreCounterLast(c.id, c.row, c.last);
        if (!w.ok() && result.ok()) result = w;
      }
      if (c.handed) {
        auto& entry = handed_out_[c.id];
        entry.first = meta.ns;
        entry.second = c.last;
      }
      c.valid = c.dirty = c.handed = false;
    }
    return result;
  };
  auto fail = [&](Status error) {
    Status f = flush();
    (void)f;
    return error;
  };

  bson_t out;
  bson_init(&out);
  struct Destroy {
    bson_t* doc;
    ~Destroy() { bson_destroy(doc); }
  } destroy{&out};
  std::vector<std::pair<LocalCounter*, int64_t>> sent;
  bson_context_t* oid_context = OidContext();
  for (size_t n = 0; n < count; n++) {
    const bson_t* doc = docs[n];
    bson_reinit(&out);
    bson_iter_t it;
    if (!bson_iter_init(&it, doc)) {
      return fail(Status::Error(Code::kBadValue, "invalid BSON document"));
    }
    bson_iter_t id;
    bool has_id = bson_iter_init_find(&id, doc, "_id");
    if (has_id) {
      switch (bson_iter_type(&id)) {
        case BSON_TYPE_ARRAY:
        case BSON_TYPE_REGEX:
        case BSON_TYPE_UNDEFINED:
          return fail(Status::Error(
              Code::kBadValue, "_id cannot be an array, a regex or undefined"));
        default:
          break;
      }
      bson_append_iter(&out, "_id", 3, &id);
    } else {
      bson_oid_t oid;
      bson_oid_init(&oid, oid_context);
      bson_append_oid(&out, "_id", 3, &oid);
    }
    if (!has_id) {
      // The common case (COPY): the fields follow _id unchanged, in one copy.
      bson_concat(&out, doc);
    } else {
      while (bson_iter_next(&it)) {
        if (bson_iter_key_len(&it) == 3 &&
            memcmp(bson_iter_key(&it), "_id", 3) == 0)
          continue;
        bson_append_iter(&out, bson_iter_key(&it),
                         static_cast<int>(bson_iter_key_len(&it)), &it);
      }
    }
    sent.clear();
    for (LocalCounter& c : counters) {
      bson_iter_t fit;
      if (bson_iter_init(&fit, doc) && FindKeyExact(&fit, *c.field)) {
        if (std::optional<int64_t> v = IntegralValue(&fit))
          sent.emplace_back(&c, *v);
        continue;
      }
      int64_t value = 0;
      bool local = false;
      if (c.valid) {
        // last + increment while it stays within the bounds; the counter
        // code handles everything else (cycling, exhaustion).
        // Not up to the start: the counter code resumes from the highest
        // stored value (rule 7).
        int64_t next;
        if (!__builtin_add_overflow(c.last, c.row.increment, &next) &&
            next >= c.row.min && next <= c.row.max &&
            (c.row.increment > 0 ? next > c.row.start : next < c.row.start)) {
          value = next;
          local = true;
        }
      }
      if (!local) {
        if (c.valid) {
          Status w =
              c.dirty ? StoreCounterLast(c.id, c.row, c.last) : Status::OK();
          if (c.handed) {
            auto& entry = handed_out_[c.id];
            entry.first = meta.ns;
            entry.second = c.last;
          }
          c.valid = c.dirty = c.handed = false;
          if (!w.ok()) return fail(w);
        }
        c.inert = false;
        s = NextCounterValue(meta, *c.field, &value);
        if (!s.ok()) return fail(s);
        s = LoadCounterRow(c.id, &c.row);
        if (!s.ok()) return fail(s);
        c.valid = c.row.exists && c.row.last && *c.row.last == value;
        c.last = value;
      } else {
        c.last = value;
        c.dirty = true;
        c.handed = true;
      }
      AppendInteger(&out, *c.field, value);
    }
    bson_iter_t key;
    bson_iter_init(&key, &out);
    bson_iter_next(&key);
    BindKey(raw, 1, &key);
    sqlite3_bind_blob(raw, 2, bson_get_data(&out), out.len, SQLITE_STATIC);
    int rc = sqlite3_step(raw);
    if (rc != SQLITE_DONE) {
      Status error = rc == SQLITE_CONSTRAINT_UNIQUE
                         ? DuplicateKeyError(meta, &out)
                         : SqliteError(db_, rc, "insert into " + meta.ns);
      sqlite3_reset(raw);
      sqlite3_clear_bindings(raw);
      return fail(error);
    }
    sqlite3_reset(raw);
    // A sent value beyond the counter moves it (rule 3): tracked locally
    // and written once per call, not once per document.
    for (const auto& [c, v] : sent) {
      if (!c->valid && !c->inert) {
        s = LoadCounterRow(c->id, &c->row);
        if (!s.ok()) return fail(s);
        if (c->row.exists && c->row.last) {
          c->valid = true;
          c->last = *c->row.last;
        } else {
          c->inert = true;
        }
      }
      if (!c->valid) continue;
      if (c->row.increment > 0 ? v > c->last : v < c->last) {
        c->last = v;
        c->dirty = true;
      }
    }
    ++*inserted;
  }
  sqlite3_clear_bindings(raw);
  return flush();
}

Status Session::InsertMany(std::string_view db, std::string_view collection,
                           const bson_t* const* docs, size_t count,
                           size_t* inserted) {
  *inserted = 0;
  if (!impl_->explicit_txn()) {
    return Status::Error(Code::kIllegalOperation,
                         "InsertMany needs a write transaction");
  }
  Status s = ValidateDbName(db);
  if (s.ok()) s = impl_->UseLargeCache();
  if (s.ok()) s = impl_->RefreshCatalog();
  const CollectionMeta* meta = nullptr;
  if (s.ok()) s = impl_->LookupCollection(Namespace(db, collection), &meta);
  if (!s.ok()) return s;
  if (!meta) {
    return Status::Error(
        Code::kNamespaceNotFound,
        "collection " + Namespace(db, collection) + " does not exist");
  }
  return impl_->InsertManyLocked(*meta, docs, count, inserted);
}

Status Session::UseLargeCache() { return impl_->UseLargeCache(); }

}  // namespace kova::docstore
