// Services the SQL layer needs beyond the document API: write transactions,
// the catalog version, row-level replace/delete by SQLite rowid, and
// counter rows addressed by _id (sequences).
#include <cstring>

#include "docstore/internal.h"

namespace kova::docstore {

// Takes the write lock at once: a deferred transaction whose snapshot is
// older than another writer's commit could never write.
Status Session::BeginWrite() { return impl_->Begin(/*immediate=*/true); }

Status Session::NewReader(std::unique_ptr<Session>* reader) {
  return impl_->store()->NewSession(reader);
}

Status Session::BeginSnapshot() {
  Status s = impl_->Begin(/*immediate=*/false);
  // Any read of the database starts SQLite's read transaction.
  if (s.ok()) s = impl_->Exec("SELECT 1 FROM sqlite_schema LIMIT 1");
  return s;
}

bool Session::SharesSnapshotWith(Session& other) {
  char mine[kReadSnapshotSize], theirs[kReadSnapshotSize];
  return sqlite3_file_control(connection(), "main", kReadSnapshotOp, mine) ==
             SQLITE_OK &&
         sqlite3_file_control(other.connection(), "main", kReadSnapshotOp,
                              theirs) == SQLITE_OK &&
         sqlite3_txn_state(connection(), "main") == SQLITE_TXN_READ &&
         sqlite3_txn_state(other.connection(), "main") == SQLITE_TXN_READ &&
         std::memcmp(mine, theirs, kReadSnapshotSize) == 0;
}

Status Session::SetDurableCommits(bool full) {
  impl_->set_durable(full);
  return Status::OK();
}

Status Session::CatalogVersion(int64_t* version) {
  return impl_->CatalogVersion(version);
}

bool Session::CatalogStillAt(int64_t version) const {
  return impl_->CatalogStillAt(version);
}

Status Session::BumpCatalogVersion() {
  return impl_->InWrite([&] { return impl_->BumpCatalogVersion(); });
}

Status Session::CollectionTable(std::string_view db,
                                std::string_view collection, std::string* table,
                                std::vector<std::string>* autoincrement) {
  return impl_->InRead([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    *table = meta->table;
    if (autoincrement) *autoincrement = meta->autoincrement;
    return Status::OK();
  });
}

Status SessionImpl::ReplaceLocked(const CollectionMeta& meta, int64_t rid,
                                  const bson_t* doc) {
  Document normalized;
  if (is_counters(meta)) {
    ForgetCounters();
    Status s = EndAllCounterLeases();
    if (s.ok()) s = ValidateCounterDocument(doc, &normalized);
    if (!s.ok()) return s;
    doc = normalized.bson();
  }
  sqlite3_stmt* raw;
  Status s =
      Prepare("UPDATE " + meta.table + " SET doc = ?1 WHERE rid = ?2", &raw);
  if (!s.ok()) return s;
  {
    StmtHandle stmt(raw);
    sqlite3_bind_blob(raw, 1, bson_get_data(doc), doc->len, SQLITE_STATIC);
    sqlite3_bind_int64(raw, 2, rid);
    int rc = sqlite3_step(raw);
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
      return DuplicateKeyError(meta, doc, rid);
    if (rc != SQLITE_DONE) return SqliteError(db_, rc, "update " + meta.ns);
  }
  for (const std::string& field : meta.autoincrement) {
    bson_iter_t it;
    if (!bson_iter_init(&it, doc) || !FindKeyExact(&it, field)) continue;
    if (std::optional<int64_t> v = IntegralValue(&it)) {
      s = MoveCounterForSentValue(meta, field, *v);
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

Status Session::ReplaceDocument(std::string_view db,
                                std::string_view collection, int64_t rid,
                                const bson_t* doc) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    return impl_->ReplaceLocked(*meta, rid, doc);
  });
}

Status Session::DeleteDocument(std::string_view db, std::string_view collection,
                               int64_t rid) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    if (impl_->is_counters(*meta)) {
      impl_->ForgetCounters();
      s = impl_->EndAllCounterLeases();
      if (!s.ok()) return s;
    }
    sqlite3_stmt* raw;
    s = impl_->Prepare("DELETE FROM " + meta->table + " WHERE rid = ?1", &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    sqlite3_bind_int64(raw, 1, rid);
    int rc;
    return impl_->Step(raw, &rc);
  });
}

Status Session::RemoveAutoincrement(std::string_view db,
                                    std::string_view collection,
                                    std::string_view field) {
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    CollectionMeta updated = *meta;
    auto& fields = updated.autoincrement;
    for (auto it = fields.begin(); it != fields.end(); ++it) {
      if (*it == field) {
        fields.erase(it);
        s = impl_->WriteCollectionRow(updated);
        if (s.ok()) s = impl_->BumpCatalogVersion();
        return s;
      }
    }
    return Status::OK();
  });
}

Status Session::ReadCounter(std::string_view id, CounterInfo* info) {
  return impl_->InRead([&] {
    CounterRow row;
    // A writer (setval, ALTER SEQUENCE) reads the exact row and keeps
    // nextval off it until it commits; a reader sees the lease's value.
    Status s = impl_->in_write_txn()
                   ? impl_->LoadCounterRow(std::string(id), &row)
                   : impl_->PeekCounterRow(std::string(id), &row);
    if (!s.ok()) return s;
    info->exists = row.exists;
    info->collection = row.collection;
    info->field = row.field;
    info->last = row.last;
    info->increment = row.increment;
    info->start = row.start;
    info->min = row.min;
    info->max = row.max;
    info->cycle = row.cycle;
    return Status::OK();
  });
}

Status Session::WriteCounter(std::string_view id, std::string_view collection,
                             std::string_view field, const CounterSpec& spec,
                             int64_t last) {
  return impl_->InWrite([&] {
    return impl_->WriteCounterRow(std::string(id), collection, field, &spec,
                                  last);
  });
}

Status Session::SetCounterLast(std::string_view id, int64_t last) {
  return impl_->InWrite([&] {
    CounterRow row;
    std::string key(id);
    Status s = impl_->LoadCounterRow(key, &row);
    if (!s.ok()) return s;
    if (!row.exists) {
      return Status::Error(Code::kNamespaceNotFound,
                           "counter \"" + key + "\" does not exist");
    }
    s = impl_->StoreCounterLast(key, row, last);
    if (s.ok()) impl_->RecordSetValue(key, last);
    return s;
  });
}

Status Session::DeleteCounter(std::string_view id) {
  return impl_->InWrite([&] {
    impl_->ForgetCounters();
    Status s = impl_->EndCounterLease(std::string(id));
    if (!s.ok()) return s;
    const CollectionMeta* counters;
    s = impl_->LookupCollection(
        std::string(kAdminDb) + "." + kCountersCollection, &counters);
    if (!s.ok() || !counters) return s;
    sqlite3_stmt* raw;
    s = impl_->Prepare("DELETE FROM " + counters->table + " WHERE kid = ?1",
                       &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, id.data(), static_cast<int>(id.size()),
                      SQLITE_TRANSIENT);
    int rc;
    return impl_->Step(raw, &rc);
  });
}

Status Session::RenameCounter(std::string_view id, std::string_view new_id,
                              std::string_view collection,
                              std::string_view field) {
  return impl_->InWrite([&] {
    impl_->ForgetCounters();
    const CollectionMeta* counters;
    Status s = impl_->LookupCollection(
        std::string(kAdminDb) + "." + kCountersCollection, &counters);
    if (!s.ok() || !counters) return s;
    CounterRow row;
    s = impl_->EndCounterLease(std::string(new_id));
    if (s.ok()) s = impl_->LoadCounterRow(std::string(id), &row);
    if (!s.ok()) return s;
    if (!row.exists) {
      return Status::Error(
          Code::kNamespaceNotFound,
          "counter \"" + std::string(id) + "\" does not exist");
    }
    bson_t old_doc;
    bson_init_static(&old_doc,
                     reinterpret_cast<const uint8_t*>(row.bytes.data()),
                     row.bytes.size());
    bson_t* doc = bson_new();
    bson_append_utf8(doc, "_id", 3, new_id.data(),
                     static_cast<int>(new_id.size()));
    bson_append_utf8(doc, "collection", -1, collection.data(),
                     static_cast<int>(collection.size()));
    bson_append_utf8(doc, "field", -1, field.data(),
                     static_cast<int>(field.size()));
    bson_iter_t it;
    bson_iter_init(&it, &old_doc);
    while (bson_iter_next(&it)) {
      const char* key = bson_iter_key(&it);
      if (strcmp(key, "_id") == 0 || strcmp(key, "collection") == 0 ||
          strcmp(key, "field") == 0)
        continue;
      bson_append_iter(doc, key, -1, &it);
    }
    sqlite3_stmt* raw;
    s = impl_->Prepare("DELETE FROM " + counters->table + " WHERE kid = ?1",
                       &raw);
    if (s.ok()) {
      StmtHandle stmt(raw);
      std::string key(id);
      sqlite3_bind_text(raw, 1, key.c_str(), -1, SQLITE_TRANSIENT);
      int rc;
      s = impl_->Step(raw, &rc);
    }
    if (s.ok()) {
      // A stale row under the new name gives way.
      s = impl_->Prepare("DELETE FROM " + counters->table + " WHERE kid = ?1",
                         &raw);
      if (s.ok()) {
        StmtHandle stmt(raw);
        std::string key(new_id);
        sqlite3_bind_text(raw, 1, key.c_str(), -1, SQLITE_TRANSIENT);
        int rc;
        s = impl_->Step(raw, &rc);
      }
    }
    if (s.ok()) s = impl_->InsertRaw(*counters, doc);
    bson_destroy(doc);
    if (s.ok())
      impl_->RecordCounterRename(std::string(id), std::string(new_id));
    return s;
  });
}

}  // namespace kova::docstore
