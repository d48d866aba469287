// Schema changes that move a collection as a whole: renaming it keeps its
// documents, indexes and counter rows (whose _id names the collection).
#include <cstring>

#include "docstore/internal.h"

namespace kova::docstore {

namespace {

// The counter rows that belong to a collection: their _id and document.
Status CollectionCounterRows(
    SessionImpl* impl, const std::string& ns,
    std::vector<std::pair<std::string, std::string>>* rows) {
  const CollectionMeta* counters;
  Status s = impl->LookupCollection(
      std::string(kAdminDb) + "." + kCountersCollection, &counters);
  if (!s.ok() || !counters) return s;
  sqlite3_stmt* raw;
  s = impl->Prepare("SELECT kid, doc FROM " + counters->table +
                        " WHERE kova_key(doc, 'collection') = ?1",
                    &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  sqlite3_bind_text(raw, 1, ns.c_str(), -1, SQLITE_TRANSIENT);
  int rc;
  while ((s = impl->Step(raw, &rc)).ok() && rc == SQLITE_ROW) {
    if (sqlite3_column_type(raw, 0) != SQLITE_TEXT) continue;
    rows->emplace_back(
        reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)),
        std::string(static_cast<const char*>(sqlite3_column_blob(raw, 1)),
                    sqlite3_column_bytes(raw, 1)));
  }
  return s;
}

}  // namespace

Status Session::RenameCollection(std::string_view db, std::string_view name,
                                 std::string_view new_name) {
  return impl_->InWrite([&] {
    Status s = ValidateCollectionName(new_name);
    if (!s.ok()) return s;
    const CollectionMeta* found;
    s = impl_->RequireCollection(db, name, &found);
    if (!s.ok()) return s;
    if (impl_->is_counters(*found)) {
      return Status::Error(Code::kIllegalOperation,
                           "admin.counters cannot be renamed");
    }
    const CollectionMeta old = *found;
    std::string new_ns = Namespace(db, new_name);
    const CollectionMeta* existing;
    s = impl_->LookupCollection(new_ns, &existing);
    if (!s.ok()) return s;
    if (existing) {
      return Status::Error(Code::kNamespaceExists,
                           "collection " + new_ns + " already exists");
    }
    impl_->ForgetCounters();
    // The counter rows move below, with their exact last.
    s = impl_->EndAllCounterLeases();
    if (!s.ok()) return s;
    // SQLite index names carry the namespace, so the indexes are dropped
    // here and built again under the new name once the table has moved.
    for (const auto& index : old.indexes) {
      s = impl_->Exec("DROP INDEX IF EXISTS " + index.sqlite_name);
      if (s.ok())
        s = impl_->Exec("DROP INDEX IF EXISTS " +
                        NullsIndexName(index.sqlite_name));
      if (!s.ok()) return s;
    }
    CollectionMeta moved;
    moved.ns = new_ns;
    moved.db = old.db;
    moved.name = new_name;
    moved.autoincrement = old.autoincrement;
    s = impl_->FreeSqliteName("c:" + SqliteSafeName(new_ns), &moved.table);
    if (s.ok())
      s = impl_->Exec("ALTER TABLE " + old.table + " RENAME TO " + moved.table);
    if (s.ok())
      s = impl_->Exec("DELETE FROM kova_indexes WHERE ns=" +
                      QuoteLiteral(old.ns));
    if (s.ok())
      s = impl_->Exec("DELETE FROM kova_collections WHERE ns=" +
                      QuoteLiteral(old.ns));
    if (s.ok()) s = impl_->WriteCollectionRow(moved);
    if (s.ok()) s = impl_->BumpCatalogVersion();
    if (!s.ok()) return s;
    for (const auto& index : old.indexes) {
      const CollectionMeta* current;
      s = impl_->LookupCollection(new_ns, &current);
      if (s.ok() && !current)
        s = Status::Error(Code::kInternal, "renamed collection vanished");
      if (s.ok()) s = impl_->CreateIndexLocked(*current, index.spec, nullptr);
      if (!s.ok()) return s;
    }
    // Counter rows: _id "db.collection.field" and collection follow.
    std::vector<std::pair<std::string, std::string>> rows;
    s = CollectionCounterRows(impl_.get(), old.ns, &rows);
    if (!s.ok()) return s;
    const CollectionMeta* counters;
    s = impl_->LookupCollection(
        std::string(kAdminDb) + "." + kCountersCollection, &counters);
    if (!s.ok() || !counters) return s;
    for (const auto& [id, bytes] : rows) {
      bson_t old_doc;
      if (!bson_init_static(&old_doc,
                            reinterpret_cast<const uint8_t*>(bytes.data()),
                            bytes.size()))
        continue;
      std::string field;
      bson_iter_t it;
      if (bson_iter_init_find(&it, &old_doc, "field") &&
          BSON_ITER_HOLDS_UTF8(&it))
        field = bson_iter_utf8(&it, nullptr);
      std::string new_id = field.empty() ? id : CounterId(new_ns, field);
      bson_t* doc = bson_new();
      bson_append_utf8(doc, "_id", 3, new_id.c_str(), -1);
      bson_append_utf8(doc, "collection", -1, new_ns.c_str(), -1);
      bson_iter_init(&it, &old_doc);
      while (bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        if (strcmp(key, "_id") == 0 || strcmp(key, "collection") == 0) continue;
        bson_append_iter(doc, key, -1, &it);
      }
      for (const std::string& kid : {id, new_id}) {
        sqlite3_stmt* raw;
        s = impl_->Prepare("DELETE FROM " + counters->table + " WHERE kid = ?1",
                           &raw);
        if (!s.ok()) break;
        StmtHandle stmt(raw);
        sqlite3_bind_text(raw, 1, kid.c_str(), -1, SQLITE_TRANSIENT);
        int rc;
        s = impl_->Step(raw, &rc);
        if (!s.ok()) break;
      }
      if (s.ok()) s = impl_->InsertRaw(*counters, doc);
      bson_destroy(doc);
      if (!s.ok()) return s;
      impl_->RecordCounterRename(id, new_id);
    }
    return Status::OK();
  });
}

Status Session::AdoptIndex(std::string_view db, std::string_view collection,
                           std::string_view from, const IndexSpec& spec,
                           bool* adopted) {
  *adopted = false;
  return impl_->InWrite([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    if (!s.ok()) return s;
    const IndexMeta* found = nullptr;
    for (const auto& index : meta->indexes) {
      if (index.spec.name == spec.name) return Status::OK();
      if (index.spec.name == from) found = &index;
    }
    // Only the step from "one null at most" to "nulls distinct" is free:
    // the other way round needs the partial index built.
    if (!found || found->spec.name == "_id_" || !found->spec.unique ||
        !spec.unique || found->spec.keys != spec.keys ||
        found->spec.expressions != spec.expressions ||
        found->spec.where != spec.where || found->spec.nulls_distinct ||
        !spec.nulls_distinct)
      return Status::OK();
    std::string ns = meta->ns;
    s = impl_->Exec("DROP INDEX IF EXISTS " +
                    NullsIndexName(found->sqlite_name));
    if (s.ok())
      s = impl_->Exec(
          "UPDATE kova_indexes SET name=" + QuoteLiteral(spec.name) +
          ", nulls_distinct=1 WHERE ns=" + QuoteLiteral(ns) +
          " AND name=" + QuoteLiteral(from));
    if (s.ok()) s = impl_->BumpCatalogVersion();
    if (s.ok()) *adopted = true;
    return s;
  });
}

}  // namespace kova::docstore
