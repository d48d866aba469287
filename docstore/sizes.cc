// Storage sizes for pg_relation_size, pg_database_size and their family:
// the pages SQLite's dbstat table counts for each B-tree of a collection.
#include <sys/stat.h>

#include "docstore/internal.h"

namespace kova::docstore {

namespace {

// A name as SQLite's schema holds it: QuoteIdent undone.
std::string Unquote(const std::string& quoted) {
  if (quoted.size() < 2 || quoted.front() != '"') return quoted;
  std::string out;
  for (size_t i = 1; i + 1 < quoted.size(); i++) {
    out += quoted[i];
    if (quoted[i] == '"') i++;
  }
  return out;
}

// The bytes of every B-tree of `meta`'s table (the table and its indexes).
Status BtreeBytes(SessionImpl* impl, const CollectionMeta& meta,
                  std::map<std::string, int64_t>* out) {
  sqlite3_stmt* raw;
  // aggregate = 1 with name = ...: dbstat walks that one B-tree.
  Status s = impl->Prepare(
      "SELECT m.name, (SELECT sum(pgsize) FROM dbstat('main', 1) d "
      "WHERE d.name = m.name) FROM sqlite_schema m "
      "WHERE m.tbl_name = ?1 AND m.type IN ('table', 'index')",
      &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  std::string table = Unquote(meta.table);
  sqlite3_bind_text(raw, 1, table.data(), static_cast<int>(table.size()),
                    SQLITE_TRANSIENT);
  int rc;
  while ((s = impl->Step(raw, &rc)).ok() && rc == SQLITE_ROW)
    (*out)[reinterpret_cast<const char*>(sqlite3_column_text(raw, 0))] =
        sqlite3_column_int64(raw, 1);
  return s;
}

// A collection's table and indexes, an index's helper B-trees ("...#nulls")
// counted with it.
Status Measure(SessionImpl* impl, const CollectionMeta& meta,
               Session::StorageSize* out) {
  *out = Session::StorageSize{};
  std::map<std::string, int64_t> btrees;
  Status s = BtreeBytes(impl, meta, &btrees);
  if (!s.ok()) return s;
  std::string table = Unquote(meta.table);
  for (const auto& [name, bytes] : btrees) {
    if (name == table) {
      out->table_bytes += bytes;
      continue;
    }
    out->index_bytes += bytes;
    for (const auto& index : meta.indexes) {
      std::string own = Unquote(index.sqlite_name);
      if (name == own || name.rfind(own + "#", 0) == 0)
        out->by_index[index.spec.name] += bytes;
    }
  }
  return Status::OK();
}

}  // namespace

Status Session::CollectionSize(std::string_view db, std::string_view collection,
                               StorageSize* out) {
  return impl_->InRead([&] {
    const CollectionMeta* meta;
    Status s = impl_->RequireCollection(db, collection, &meta);
    return s.ok() ? Measure(impl_.get(), *meta, out) : s;
  });
}

Status Session::DatabaseSize(std::string_view db, int64_t* bytes) {
  // One read transaction: the collections and their pages of one moment.
  return impl_->InRead([&] {
    *bytes = 0;
    std::vector<std::string> names;
    Status s = impl_->CollectionNamespaces(db, &names);
    if (!s.ok()) return s;
    for (const auto& ns : names) {
      const CollectionMeta* meta;
      s = impl_->LookupCollection(ns, &meta);
      if (!s.ok()) return s;
      if (!meta) continue;
      StorageSize size;
      s = Measure(impl_.get(), *meta, &size);
      if (!s.ok()) return s;
      *bytes += size.table_bytes + size.index_bytes;
    }
    return Status::OK();
  });
}

Status Session::FileSize(int64_t* bytes) {
  *bytes = 0;
  const char* file = sqlite3_db_filename(impl_->db(), "main");
  if (!file) return Status::OK();
  for (std::string path : {std::string(file), std::string(file) + "-wal"}) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0) *bytes += st.st_size;
  }
  return Status::OK();
}

}  // namespace kova::docstore
