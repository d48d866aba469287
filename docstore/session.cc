// Documents: insert (with _id and autoincrement values), find, update,
// delete; and the public Session methods.
#include <pthread.h>
#include <sys/random.h>

#include <atomic>
#include <cstring>
#include <ctime>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

// The per-process part of ObjectIds: 5 random bytes and a counter with a
// random start, drawn again in a forked child so that parent and child
// never make the same id.
struct OidSource {
  uint8_t random[5];
  std::atomic<uint32_t> counter;
};

void Seed(OidSource* source) {
  uint8_t bytes[8];
  if (getrandom(bytes, sizeof(bytes), 0) != sizeof(bytes)) {
    uint64_t mix =
        static_cast<uint64_t>(time(nullptr)) * 0x9E3779B97F4A7C15ull ^
        reinterpret_cast<uintptr_t>(source);
    memcpy(bytes, &mix, sizeof(bytes));
  }
  memcpy(source->random, bytes, 5);
  source->counter.store(bytes[5] | bytes[6] << 8 | bytes[7] << 16);
}

OidSource& Oids() {
  static OidSource* source = [] {
    auto* s = new OidSource;
    Seed(s);
    pthread_atfork(nullptr, nullptr, [] { Seed(&Oids()); });
    return s;
  }();
  return *source;
}

}  // namespace

// As MongoDB makes them: 4-byte time, 5 random bytes, 3-byte counter, big
// endian. libbson's default context asks the kernel for the process id on
// every id (to notice a fork); the fork handler above does that job.
void NewObjectId(bson_oid_t* oid) {
  OidSource& source = Oids();
  uint32_t seconds = static_cast<uint32_t>(time(nullptr));
  uint32_t count = source.counter.fetch_add(1, std::memory_order_relaxed);
  oid->bytes[0] = static_cast<uint8_t>(seconds >> 24);
  oid->bytes[1] = static_cast<uint8_t>(seconds >> 16);
  oid->bytes[2] = static_cast<uint8_t>(seconds >> 8);
  oid->bytes[3] = static_cast<uint8_t>(seconds);
  memcpy(oid->bytes + 4, source.random, 5);
  oid->bytes[9] = static_cast<uint8_t>(count >> 16);
  oid->bytes[10] = static_cast<uint8_t>(count >> 8);
  oid->bytes[11] = static_cast<uint8_t>(count);
}

namespace {

Status CheckIdType(const bson_iter_t* id) {
  switch (bson_iter_type(id)) {
    case BSON_TYPE_ARRAY:
    case BSON_TYPE_REGEX:
    case BSON_TYPE_UNDEFINED:
      return Status::Error(Code::kBadValue,
                           "_id cannot be an array, a regex or undefined");
    default:
      return Status::OK();
  }
}

}  // namespace

Status SessionImpl::InsertRaw(const CollectionMeta& meta, const bson_t* doc) {
  sqlite3_stmt* raw;
  Status s = Prepare(meta.insert_sql, &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  bson_iter_t id;
  if (bson_iter_init(&id, doc) && FindKeyExact(&id, "_id")) {
    BindKey(raw, 1, &id);
  }
  sqlite3_bind_blob(raw, 2, bson_get_data(doc), doc->len, SQLITE_STATIC);
  int rc = sqlite3_step(raw);
  if (rc == SQLITE_DONE) return Status::OK();
  if (rc == SQLITE_CONSTRAINT_UNIQUE) return DuplicateKeyError(meta, doc);
  return SqliteError(db_, rc, "insert into " + meta.ns);
}

// SQLite names the index ("UNIQUE constraint failed: index 'i:ns:name'");
// the reply names our index and the key, as MongoDB does.
Status SessionImpl::DuplicateKeyError(const CollectionMeta& meta,
                                      const bson_t* doc, int64_t rid) {
  std::string msg = sqlite3_errmsg(db_);
  const IndexMeta* index = nullptr;
  size_t start = msg.find("index '");
  if (msg.size() > 4 && msg.compare(msg.size() - 4, 4, ".kid") == 0) {
    // SQLite names a column index by its column: the _id index.
    for (const auto& candidate : meta.indexes)
      if (candidate.spec.keys.size() == 1 &&
          candidate.spec.keys[0].first == "_id" && candidate.spec.unique)
        index = &candidate;
  } else if (start != std::string::npos) {
    std::string name = msg.substr(start + 7);
    if (!name.empty() && name.back() == '\'') name.pop_back();
    std::string suffix = kNullsSuffix;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      name.resize(name.size() - suffix.size());
    for (const auto& candidate : meta.indexes)
      if (candidate.sqlite_name == QuoteIdent(name)) index = &candidate;
  }
  // SQLite checks the newest index first; PostgreSQL reports the first
  // created, and ON CONFLICT needs to know whether its arbiter collided.
  std::vector<const IndexMeta*> colliding;
  Status probe = CollidingIndexes(meta, doc, rid, &colliding);
  if (!probe.ok()) return probe;
  if (!colliding.empty()) index = colliding.front();
  if (!index) {
    return Status::Error(
        Code::kDuplicateKey,
        "E11000 duplicate key error collection: " + meta.ns + " (" + msg + ")");
  }
  std::string key = "{ ";
  for (size_t i = 0; i < index->spec.keys.size(); i++) {
    const std::string& field = index->spec.keys[i].first;
    if (i) key += ", ";
    bson_iter_t it;
    key += field + ": " +
           (FindPath(doc, field, &it) ? ValueToJson(&it) : std::string("null"));
  }
  key += " }";
  Status error =
      Status::Error(Code::kDuplicateKey,
                    "E11000 duplicate key error collection: " + meta.ns +
                        " index: " + index->spec.name + " dup key: " + key);
  error.index_name = index->spec.name;
  for (const IndexMeta* x : colliding)
    error.conflicting_indexes.push_back(x->spec.name);
  if (colliding.empty()) error.conflicting_indexes.push_back(index->spec.name);
  return error;
}

Status SessionImpl::CollidingIndexes(const CollectionMeta& meta,
                                     const bson_t* doc, int64_t rid,
                                     std::vector<const IndexMeta*>* out) {
  for (const IndexMeta& x : meta.indexes) {
    if (!x.spec.unique || x.spec.keys.empty()) continue;
    if (x.spec.keys.size() == 1 && x.spec.keys[0].first == "_id") continue;
    // The same key expressions as the index, so SQLite looks them up in it.
    std::string sql = "SELECT 1 FROM " + meta.table + " WHERE rid <> ?2";
    for (size_t i = 0; i < x.spec.keys.size(); i++) {
      const std::string& field = x.spec.keys[i].first;
      // An expression key over the new document: the expression evaluated
      // in a subquery whose `doc` is ?1.
      std::string probe =
          x.spec.expression(i).empty()
              ? "kova_key(?1, " + QuoteLiteral(field) + ")"
              : "(SELECT " + x.spec.expression(i) + " FROM (SELECT ?1 AS doc))";
      sql += " AND " + IndexKeySql(x.spec, i) +
             (x.spec.nulls_distinct ? " = " : " IS ") + probe;
    }
    // A partial index compares only documents its condition holds for:
    // the stored ones and the new one.
    if (!x.spec.where.empty())
      sql += " AND " + x.spec.where + " AND (SELECT " + x.spec.where +
             " FROM (SELECT ?1 AS doc))";
    sqlite3_stmt* raw;
    Status s = Prepare(sql + " LIMIT 1", &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    sqlite3_bind_blob(raw, 1, bson_get_data(doc), doc->len, SQLITE_STATIC);
    sqlite3_bind_int64(raw, 2, rid);
    int rc;
    s = Step(raw, &rc);
    if (!s.ok()) return s;
    if (rc == SQLITE_ROW) out->push_back(&x);
  }
  return Status::OK();
}

Status SessionImpl::InsertLocked(const CollectionMeta& meta, const bson_t* doc,
                                 Document* stored) {
  if (is_counters(meta)) {
    ForgetCounters();
    Status ended = EndAllCounterLeases();
    if (!ended.ok()) return ended;
  }
  bson_iter_t it;
  if (!bson_iter_init(&it, doc)) {
    return Status::Error(Code::kBadValue, "invalid BSON document");
  }
  // Built on the stack: a heap bson_t costs an aligned allocation.
  bson_t out_storage;
  bson_init(&out_storage);
  struct Destroy {
    bson_t* doc;
    ~Destroy() { bson_destroy(doc); }
  } destroy{&out_storage};
  bson_t* out = &out_storage;
  bson_iter_t id;
  if (bson_iter_init_find(&id, doc, "_id")) {
    Status s = CheckIdType(&id);
    if (!s.ok()) return s;
    bson_append_iter(out, "_id", 3, &id);
  } else {
    bson_oid_t oid;
    NewObjectId(&oid);
    bson_append_oid(out, "_id", 3, &oid);
  }
  while (bson_iter_next(&it)) {
    if (bson_iter_key_len(&it) == 3 &&
        memcmp(bson_iter_key(&it), "_id", 3) == 0)
      continue;
    bson_append_iter(out, bson_iter_key(&it),
                     static_cast<int>(bson_iter_key_len(&it)), &it);
  }
  // Autoincrement fields: omitted -> next value; sent -> kept, and the
  // counter follows it after the insert succeeds.
  std::vector<std::pair<const std::string*, int64_t>> sent;
  // (Pointers: copied into the error only when the insert fails.)
  std::vector<std::pair<const std::string*, int64_t>> assigned;
  for (const std::string& field : meta.autoincrement) {
    bson_iter_t fit;
    if (bson_iter_init(&fit, doc) && FindKeyExact(&fit, field)) {
      if (std::optional<int64_t> v = IntegralValue(&fit))
        sent.emplace_back(&field, *v);
      continue;
    }
    int64_t value;
    Status s = NextAutoincrementValue(meta, field, &value);
    if (!s.ok()) return s;
    AppendInteger(out, field, value);
    assigned.emplace_back(&field, value);
  }
  const bson_t* final_doc = out;
  Document normalized;
  if (is_counters(meta)) {
    Status s = ValidateCounterDocument(out, &normalized);
    if (!s.ok()) return s;
    final_doc = normalized.bson();
  }
  Status s = InsertRaw(meta, final_doc);
  if (!s.ok()) {
    for (const auto& [field, value] : assigned)
      s.assigned.emplace_back(*field, value);
    return s;
  }
  for (const auto& [field, value] : sent) {
    s = MoveCounterForSentValue(meta, *field, value);
    if (!s.ok()) return s;
  }
  if (stored) *stored = Document(bson_copy(final_doc));
  return Status::OK();
}

Status SessionImpl::FindLocked(const CollectionMeta& meta, const bson_t* filter,
                               const FindOptions& options,
                               std::vector<Document>* out,
                               std::vector<int64_t>* rowids) {
  WhereClause where;
  Status s = BuildWhere(filter, &where);
  if (!s.ok()) return s;
  std::string order;
  s = BuildOrderBy(options.sort, &order);
  if (!s.ok()) return s;
  if (options.limit < 0 || options.skip < 0) {
    return Status::Error(Code::kBadValue,
                         "limit and skip must not be negative");
  }
  // admin.counters as readers see it: a live lease's last (leases.cc).
  std::string from = is_counters(meta)
                         ? "(SELECT rid, kid, kova_counter_doc(kid, doc) AS "
                           "doc FROM " +
                               meta.table + ")"
                         : meta.table;
  std::string sql =
      "SELECT rid, doc FROM " + from + " WHERE " + where.sql + order;
  if (options.limit > 0 || options.skip > 0) {
    sql += " LIMIT " + std::to_string(options.limit > 0 ? options.limit : -1) +
           " OFFSET " + std::to_string(options.skip);
  }
  sqlite3_stmt* raw;
  s = Prepare(sql, &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  BindWhere(raw, where);
  int rc;
  while ((s = Step(raw, &rc)).ok() && rc == SQLITE_ROW) {
    if (rowids) rowids->push_back(sqlite3_column_int64(raw, 0));
    Document doc(static_cast<const uint8_t*>(sqlite3_column_blob(raw, 1)),
                 sqlite3_column_bytes(raw, 1));
    if (options.projection) {
      Document projected;
      s = ApplyProjection(doc.bson(), options.projection, &projected);
      if (!s.ok()) return s;
      out->push_back(std::move(projected));
    } else {
      out->push_back(std::move(doc));
    }
  }
  return s;
}

Status SessionImpl::UpdateLocked(const CollectionMeta& meta,
                                 const bson_t* query, const bson_t* update,
                                 bool multi, UpdateResult* result) {
  if (is_counters(meta)) {
    ForgetCounters();
    Status ended = EndAllCounterLeases();
    if (!ended.ok()) return ended;
  }
  FindOptions options;
  options.limit = multi ? 0 : 1;
  std::vector<Document> docs;
  std::vector<int64_t> rowids;
  Status s = FindLocked(meta, query, options, &docs, &rowids);
  if (!s.ok()) return s;
  sqlite3_stmt* raw;
  s = Prepare("UPDATE " + meta.table + " SET doc = ?1 WHERE rid = ?2", &raw);
  if (!s.ok()) return s;
  for (size_t i = 0; i < docs.size(); i++) {
    result->matched++;
    Document updated;
    bool changed;
    s = ApplyUpdate(docs[i].bson(), update, &updated, &changed);
    if (!s.ok()) return s;
    if (!changed) continue;
    if (is_counters(meta)) {
      s = ValidateCounterDocument(updated.bson(), &updated);
      if (!s.ok()) return s;
    }
    {
      StmtHandle stmt(raw);
      sqlite3_bind_blob(raw, 1, bson_get_data(updated.bson()),
                        updated.bson()->len, SQLITE_STATIC);
      sqlite3_bind_int64(raw, 2, rowids[i]);
      int rc = sqlite3_step(raw);
      if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return DuplicateKeyError(meta, updated.bson(), rowids[i]);
      if (rc != SQLITE_DONE) return SqliteError(db_, rc, "update " + meta.ns);
    }
    result->modified++;
    // An autoincrement field set beyond the counter moves the counter.
    for (const std::string& field : meta.autoincrement) {
      bson_iter_t it;
      if (!bson_iter_init(&it, updated.bson()) || !FindKeyExact(&it, field))
        continue;
      if (std::optional<int64_t> v = IntegralValue(&it)) {
        s = MoveCounterForSentValue(meta, field, *v);
        if (!s.ok()) return s;
      }
    }
  }
  return Status::OK();
}

Status SessionImpl::DeleteLocked(const CollectionMeta& meta,
                                 const bson_t* query, int64_t limit,
                                 int64_t* deleted) {
  if (is_counters(meta)) {
    ForgetCounters();
    Status ended = EndAllCounterLeases();
    if (!ended.ok()) return ended;
  }
  WhereClause where;
  Status s = BuildWhere(query, &where);
  if (!s.ok()) return s;
  if (limit != 0 && limit != 1) {
    return Status::Error(Code::kBadValue, "delete limit must be 0 or 1");
  }
  std::string sql = "DELETE FROM " + meta.table + " WHERE " +
                    (limit == 1 ? "rid IN (SELECT rid FROM " + meta.table +
                                      " WHERE " + where.sql + " LIMIT 1)"
                                : where.sql);
  sqlite3_stmt* raw;
  s = Prepare(sql, &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  BindWhere(raw, where);
  int rc;
  s = Step(raw, &rc);
  if (s.ok()) *deleted = sqlite3_changes(db_);
  return s;
}

// ---- Session ------------------------------------------------------------

Session::Session(std::unique_ptr<SessionImpl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

Status Session::Begin() { return impl_->Begin(); }
Status Session::Commit() { return impl_->Commit(); }
Status Session::Rollback() { return impl_->Rollback(); }
Status Session::Savepoint(std::string_view name) {
  return impl_->Savepoint(name);
}
Status Session::ReleaseSavepoint(std::string_view name) {
  return impl_->ReleaseSavepoint(name);
}
Status Session::RollbackToSavepoint(std::string_view name) {
  return impl_->RollbackToSavepoint(name);
}
bool Session::in_transaction() const { return impl_->explicit_txn(); }
sqlite3* Session::connection() { return impl_->db(); }

void Session::SetCancelCheck(bool (*check)(void* arg), void* arg) {
  *impl_->cancel_check() = CancelCheck{check, arg};
}

Status Session::CreateCollection(std::string_view db, std::string_view name,
                                 const CollectionOptions& options) {
  return impl_->InWrite([&] {
    return impl_->CreateCollectionLocked(db, name, options, nullptr);
  });
}

Status Session::DropCollection(std::string_view db, std::string_view name,
                               int* indexes_was) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, name, &meta);
    if (!s.ok()) return s;
    if (indexes_was) *indexes_was = static_cast<int>(meta->indexes.size());
    return impl_->DropCollectionLocked(*meta);
  });
}

Status Session::AddAutoincrement(std::string_view db,
                                 std::string_view collection,
                                 std::string_view field,
                                 const CounterSpec& spec,
                                 bool keep_counter_row) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    return impl_->AddAutoincrementLocked(*meta, field, spec, keep_counter_row);
  });
}

Status Session::CreateIndex(std::string_view db, std::string_view collection,
                            const IndexSpec& spec, bool* created) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->GetOrCreateCollection(db, collection, &meta);
    if (!s.ok()) return s;
    return impl_->CreateIndexLocked(*meta, spec, created);
  });
}

Status Session::DropIndex(std::string_view db, std::string_view collection,
                          std::string_view name) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    if (name == "_id_") {
      return Status::Error(Code::kIllegalOperation,
                           "cannot drop the _id index");
    }
    for (const auto& index : meta->indexes) {
      if (index.spec.name != name) continue;
      // The unique index of an autoincrement field is what refuses
      // duplicate numbers; it stays while the field is autoincrement.
      for (const auto& field : meta->autoincrement) {
        if (index.spec.keys.size() == 1 && index.spec.keys[0].first == field &&
            index.spec.unique) {
          return Status::Error(Code::kIllegalOperation,
                               "index " + std::string(name) +
                                   " keeps the autoincrement field " + field +
                                   " unique and cannot be dropped");
        }
      }
      std::string ns = meta->ns;
      s = impl_->Exec("DROP INDEX " + index.sqlite_name);
      if (s.ok())
        s = impl_->Exec("DROP INDEX IF EXISTS " +
                        NullsIndexName(index.sqlite_name));
      if (s.ok())
        s = impl_->Exec("DELETE FROM kova_indexes WHERE ns=" +
                        QuoteLiteral(ns) + " AND name=" + QuoteLiteral(name));
      if (s.ok()) s = impl_->BumpCatalogVersion();
      return s;
    }
    return Status::Error(Code::kIndexNotFound, "index not found with name [" +
                                                   std::string(name) + "]");
  });
}

Status SessionImpl::CollectionNamespaces(std::string_view db,
                                         std::vector<std::string>* out) {
  sqlite3_stmt* raw;
  Status s = Prepare(
      "SELECT ns FROM kova_collections WHERE db=?1 ORDER BY name", &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  sqlite3_bind_text(raw, 1, db.data(), static_cast<int>(db.size()),
                    SQLITE_TRANSIENT);
  int rc;
  while ((s = Step(raw, &rc)).ok() && rc == SQLITE_ROW)
    out->emplace_back(
        reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
  return s;
}

Status Session::ListCollections(std::string_view db,
                                std::vector<CollectionInfo>* out) {
  return impl_->InRead([&] {
    out->clear();  // the list replaces what the vector held
    Status s = ValidateDbName(db);
    if (!s.ok()) return s;
    std::vector<std::string> names;
    s = impl_->CollectionNamespaces(db, &names);
    if (!s.ok()) return s;
    for (const auto& ns : names) {
      const CollectionMeta* meta;
      s = impl_->LookupCollection(ns, &meta);
      if (!s.ok()) return s;
      if (meta) out->push_back(CollectionInfo{meta->name, meta->autoincrement});
    }
    return Status::OK();
  });
}

Status Session::CreateDatabase(std::string_view db) {
  return impl_->InWrite([&] {
    Status s = ValidateDbName(db);
    if (!s.ok()) return s;
    sqlite3_stmt* raw;
    s = impl_->Prepare("INSERT OR IGNORE INTO kova_databases VALUES(?1)", &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, db.data(), static_cast<int>(db.size()),
                      SQLITE_TRANSIENT);
    int rc;
    s = impl_->Step(raw, &rc);
    if (s.ok() && sqlite3_changes(impl_->db()) == 0) {
      return Status::Error(Code::kNamespaceExists,
                           "database " + std::string(db) + " already exists");
    }
    return s;
  });
}

Status Session::DropDatabase(std::string_view db) {
  return impl_->InWrite([&] {
    Status s = ValidateDbName(db);
    if (!s.ok()) return s;
    if (db == kAdminDb) {
      return Status::Error(Code::kIllegalOperation,
                           "the admin database cannot be dropped");
    }
    std::vector<std::string> names;
    sqlite3_stmt* raw;
    s = impl_->Prepare("SELECT ns FROM kova_collections WHERE db=?1", &raw);
    if (!s.ok()) return s;
    {
      StmtHandle stmt(raw);
      sqlite3_bind_text(raw, 1, db.data(), static_cast<int>(db.size()),
                        SQLITE_TRANSIENT);
      int rc;
      while ((s = impl_->Step(raw, &rc)).ok() && rc == SQLITE_ROW)
        names.emplace_back(
            reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
      if (!s.ok()) return s;
    }
    for (const auto& ns : names) {
      const CollectionMeta* meta;
      s = impl_->LookupCollection(ns, &meta);
      if (s.ok() && meta) s = impl_->DropCollectionLocked(*meta);
      if (!s.ok()) return s;
    }
    s = impl_->Prepare("DELETE FROM kova_databases WHERE name=?1", &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, db.data(), static_cast<int>(db.size()),
                      SQLITE_TRANSIENT);
    int rc;
    s = impl_->Step(raw, &rc);
    if (s.ok() && sqlite3_changes(impl_->db()) == 0 && names.empty()) {
      return Status::Error(Code::kNamespaceNotFound,
                           "database " + std::string(db) + " does not exist");
    }
    return s;
  });
}

Status Session::ListDatabases(std::vector<std::string>* out) {
  return impl_->InRead([&] {
    out->clear();  // the list replaces what the vector held
    sqlite3_stmt* raw;
    Status s = impl_->Prepare(
        "SELECT name FROM kova_databases UNION SELECT db FROM "
        "kova_collections ORDER BY 1",
        &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    int rc;
    while ((s = impl_->Step(raw, &rc)).ok() && rc == SQLITE_ROW)
      out->emplace_back(
          reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
    return s;
  });
}

Status Session::ListIndexes(std::string_view db, std::string_view collection,
                            std::vector<IndexSpec>* out) {
  return impl_->InRead([&] {
    out->clear();  // the list replaces what the vector held
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    for (const auto& index : meta->indexes) out->push_back(index.spec);
    return Status::OK();
  });
}

Status Session::Insert(std::string_view db, std::string_view collection,
                       const bson_t* doc, Document* stored) {
  // Inside a transaction an insert into an existing collection needs no
  // savepoint: its only partial effect on failure is the counter value it
  // consumed, which must stay consumed. Creating the collection must not
  // outlive a failed insert, so that case keeps the savepoint.
  bool exists = false;
  if (impl_->explicit_txn()) {
    const CollectionMeta* meta = nullptr;
    exists = ValidateDbName(db).ok() && impl_->RefreshCatalog().ok() &&
             impl_->LookupCollection(Namespace(db, collection), &meta).ok() &&
             meta != nullptr;
  }
  return impl_->InWrite(
      [&] {
        const CollectionMeta* meta;
        Status s = impl_->GetOrCreateCollection(db, collection, &meta);
        if (!s.ok()) return s;
        return impl_->InsertLocked(*meta, doc, stored);
      },
      /*atomic=*/!exists);
}

Status Session::Find(std::string_view db, std::string_view collection,
                     const bson_t* filter, const FindOptions& options,
                     std::vector<Document>* out) {
  return impl_->InRead([&] {
    Status s = ValidateDbName(db);
    if (!s.ok()) return s;
    const CollectionMeta* meta;
    s = impl_->LookupCollection(Namespace(db, collection), &meta);
    if (!s.ok()) return s;
    if (!meta) {
      // As MongoDB: a missing collection finds nothing, but the filter is
      // still checked.
      WhereClause where;
      return BuildWhere(filter, &where);
    }
    return impl_->FindLocked(*meta, filter, options, out, nullptr);
  });
}

Status Session::Update(std::string_view db, std::string_view collection,
                       const bson_t* query, const bson_t* update, bool multi,
                       UpdateResult* result) {
  *result = UpdateResult{};
  return impl_->InWrite([&] {
    Status s = ValidateDbName(db);
    if (!s.ok()) return s;
    const CollectionMeta* meta;
    s = impl_->LookupCollection(Namespace(db, collection), &meta);
    if (!s.ok() || !meta) return s;
    return impl_->UpdateLocked(*meta, query, update, multi, result);
  });
}

Status Session::Delete(std::string_view db, std::string_view collection,
                       const bson_t* query, int64_t limit, int64_t* deleted) {
  *deleted = 0;
  return impl_->InWrite([&] {
    Status s = ValidateDbName(db);
    if (!s.ok()) return s;
    const CollectionMeta* meta;
    s = impl_->LookupCollection(Namespace(db, collection), &meta);
    if (!s.ok() || !meta) return s;
    return impl_->DeleteLocked(*meta, query, limit, deleted);
  });
}

Status Session::ExplainFind(std::string_view db, std::string_view collection,
                            const bson_t* filter, const bson_t* sort,
                            std::string* plan) {
  return impl_->InRead([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    WhereClause where;
    s = BuildWhere(filter, &where);
    std::string order;
    if (s.ok()) s = BuildOrderBy(sort, &order);
    if (!s.ok()) return s;
    std::string sql = "EXPLAIN QUERY PLAN SELECT rid, doc FROM " + meta->table +
                      " WHERE " + where.sql + order;
    sqlite3_stmt* raw;
    if (sqlite3_prepare_v2(impl_->db(), sql.c_str(), -1, &raw, nullptr) !=
        SQLITE_OK)
      return SqliteError(impl_->db(), SQLITE_ERROR, "explain");
    BindWhere(raw, where);
    plan->clear();
    while (sqlite3_step(raw) == SQLITE_ROW) {
      if (!plan->empty()) *plan += "\n";
      *plan += reinterpret_cast<const char*>(sqlite3_column_text(raw, 3));
    }
    sqlite3_finalize(raw);
    return Status::OK();
  });
}

}  // namespace kova::docstore
