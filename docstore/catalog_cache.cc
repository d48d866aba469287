// Collections and indexes: names, the kova_collections/kova_indexes tables
// and a per-session cache of them, invalidated by a catalog version.
#include <cstring>

#include "docstore/internal.h"

namespace kova::docstore {

std::string Namespace(std::string_view db, std::string_view name) {
  return std::string(db) + "." + std::string(name);
}
std::string CounterId(std::string_view ns, std::string_view field) {
  return std::string(ns) + "." + std::string(field);
}
std::string SqliteSafeName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      out += '^';
      out += static_cast<char>(c - 'A' + 'a');
    } else if (c == '^') {
      out += "^^";
    } else if (c == ':') {
      out += "^;";
    } else if (c == '#') {
      out += "^=";
    } else if (c == '@') {
      out += "^%";
    } else {
      out += c;
    }
  }
  return out;
}

std::string TableName(std::string_view ns) {
  return QuoteIdent("c:" + SqliteSafeName(ns));
}

std::string NullsIndexName(std::string_view sqlite_name) {
  // `sqlite_name` is quoted: the suffix goes inside the closing quote.
  return std::string(sqlite_name.substr(0, sqlite_name.size() - 1)) +
         kNullsSuffix + "\"";
}

Status SessionImpl::FreeSqliteName(const std::string& base,
                                   std::string* quoted) {
  // Data directories from before SqliteSafeName hold names that differ
  // from a new one only in case: SQLite would take them for the same.
  sqlite3_stmt* raw;
  Status s = Prepare(
      "SELECT 1 FROM sqlite_master WHERE name = ?1 COLLATE NOCASE", &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  for (int n = 1;; n++) {
    std::string name = n == 1 ? base : base + "@" + std::to_string(n);
    sqlite3_reset(raw);
    sqlite3_bind_text(raw, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    int rc;
    s = Step(raw, &rc);
    if (!s.ok()) return s;
    if (rc == SQLITE_DONE) {
      *quoted = QuoteIdent(name);
      return Status::OK();
    }
  }
}

std::string KeyExpr(std::string_view path) {
  // _id is immutable, so its key lives in a column of its own (kid): the
  // _id index is then never touched by an update of the document.
  if (path == "_id") return "kid";
  return "kova_key(doc, " + QuoteLiteral(path) + ")";
}

std::string IndexKeySql(const IndexSpec& spec, size_t i) {
  const std::string& expression = spec.expression(i);
  return expression.empty() ? KeyExpr(spec.keys[i].first) : expression;
}

std::string IndexName(const IndexSpec& spec) {
  if (!spec.name.empty()) return spec.name;
  std::string name;
  for (const auto& [field, dir] : spec.keys) {
    if (!name.empty()) name += "_";
    name += field + "_" + std::to_string(dir);
  }
  return name;
}

Status ValidateDbName(std::string_view db) {
  if (db.empty())
    return Status::Error(Code::kBadValue, "database name is empty");
  if (db.size() > 63) {
    return Status::Error(Code::kBadValue, "database name \"" + std::string(db) +
                                              "\" is longer than 63 bytes");
  }
  for (char c : db) {
    if (strchr("/\\. \"$*<>:|?", c) || c == '\0') {
      return Status::Error(Code::kBadValue,
                           "database name \"" + std::string(db) +
                               "\" contains the invalid character '" +
                               std::string(1, c) + "'");
    }
  }
  return Status::OK();
}

Status ValidateCollectionName(std::string_view name) {
  std::string n(name);
  if (name.empty())
    return Status::Error(Code::kBadValue, "collection name is empty");
  if (name.find('\0') != std::string_view::npos || name[0] == '$' ||
      name.front() == '.' || name.back() == '.' ||
      name.find("..") != std::string_view::npos || name.size() > 200) {
    return Status::Error(Code::kBadValue,
                         "invalid collection name \"" + n + "\"");
  }
  return Status::OK();
}

Status ValidateAutoincrementField(std::string_view field) {
  std::string f(field);
  if (field.empty()) {
    return Status::Error(Code::kBadValue, "autoincrement field name is empty");
  }
  if (field.find('.') != std::string_view::npos) {
    return Status::Error(Code::kBadValue,
                         "autoincrement field name \"" + f +
                             "\" must be a single identifier without a dot");
  }
  if (field[0] == '$' || field.find('\0') != std::string_view::npos) {
    return Status::Error(Code::kBadValue,
                         "autoincrement field name \"" + f + "\" is invalid");
  }
  if (field == "_id") {
    return Status::Error(Code::kBadValue,
                         "_id cannot be an autoincrement field: _id stays an "
                         "ObjectId; name another field");
  }
  return Status::OK();
}

Status SessionImpl::RefreshCatalog() {
  if (explicit_txn_ && catalog_checked_in_txn_ && catalog_version_ >= 0)
    return Status::OK();
  catalog_checked_in_txn_ = explicit_txn_;
  int64_t version;
  Status s = CatalogVersion(&version);
  if (!s.ok()) return s;
  if (version != catalog_version_) {
    collections_.clear();
    catalog_version_ = version;
  }
  return Status::OK();
}

// ---- The store's catalog generation ---------------------------------------
//
// A seqlock over kova_meta's catalog version, so that a statement need not
// read kova_meta when no catalog change happened. Every transaction that
// writes a new version counts itself open in the generation before its
// write (so before its COMMIT can make the write visible) and closed once
// the transaction has committed or rolled back; each opening and closing
// also makes the generation a value it never had before.
//
// A session remembers the generation it read a version at, but only when
// the generation was the same, with nothing open, both before the read's
// snapshot began and after: no change was committed in between, so the
// version holds for as long as the generation stays that value. A later
// snapshot of the session that finds the generation still that value,
// loaded after the snapshot began, sees the same version: any commit it
// could see had opened the generation before.
namespace {
constexpr uint64_t kCatalogChangeOpen = 1;  // low 16 bits: open changes
constexpr uint64_t kCatalogGenerationStep = uint64_t{1} << 16;
constexpr uint64_t kOpenCatalogChanges = kCatalogGenerationStep - 1;
}  // namespace

void SessionImpl::BeginCatalogChange() {
  if (catalog_change_open_) return;
  catalog_change_open_ = true;
  store_->catalog_generation().fetch_add(kCatalogGenerationStep +
                                         kCatalogChangeOpen);
}

void SessionImpl::EndCatalogChange() {
  catalog_change_open_ = false;
  store_->catalog_generation().fetch_add(kCatalogGenerationStep -
                                         kCatalogChangeOpen);
}

Status SessionImpl::CatalogVersion(int64_t* version) {
  EndCatalogChangeIfDone();
  std::atomic<uint64_t>& generation = store_->catalog_generation();
  // Outside a transaction each statement has a snapshot of its own, which
  // nothing here could pair with the generation.
  bool in_transaction = !sqlite3_get_autocommit(db_);
  bool fresh_snapshot =
      in_transaction && sqlite3_txn_state(db_, "main") == SQLITE_TXN_NONE;
  uint64_t before = generation.load();
  if (fresh_snapshot) {
    // Begins the snapshot without reading a table: the generation must be
    // loaded after it began.
    sqlite3_stmt* raw;
    Status s = Prepare("PRAGMA schema_version", &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    int rc;
    s = Step(raw, &rc);
    if (!s.ok()) return s;
  }
  uint64_t after = generation.load();
  bool settled = (after & kOpenCatalogChanges) == 0;
  if (in_transaction && settled && after == known_catalog_generation_) {
    *version = known_catalog_version_;
    return Status::OK();
  }
  sqlite3_stmt* raw;
  Status s =
      Prepare("SELECT value FROM kova_meta WHERE key='catalog_version'", &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  int rc;
  s = Step(raw, &rc);
  if (!s.ok()) return s;
  *version = rc == SQLITE_ROW ? sqlite3_column_int64(raw, 0) : 0;
  if (fresh_snapshot && settled && before == after) {
    known_catalog_generation_ = after;
    known_catalog_version_ = *version;
  }
  return Status::OK();
}

bool SessionImpl::CatalogStillAt(int64_t version) const {
  // Unchanged and nothing open: the committed version is the one read then.
  return store_->catalog_generation().load() == known_catalog_generation_ &&
         (known_catalog_generation_ & kOpenCatalogChanges) == 0 &&
         known_catalog_version_ == version;
}

Status SessionImpl::BumpCatalogVersion() {
  BeginCatalogChange();
  // A random new version, not version + 1: a rolled-back change must never
  // share its version with a later committed one, or a session that saw
  // the rolled-back catalog could take it for the committed one.
  Status s = Exec(
      "UPDATE kova_meta SET value = (random() & 9223372036854775807) "
      "WHERE key='catalog_version'");
  EndCatalogChangeIfDone();  // outside a transaction it committed alone
  if (!s.ok()) return s;
  // Everything cached is reloaded on next use; pointers handed out before
  // this call must not be used after it.
  collections_.clear();
  catalog_version_ = -1;
  return RefreshCatalog();
}

Status SessionImpl::LookupCollection(const std::string& ns,
                                     const CollectionMeta** meta) {
  auto it = collections_.find(ns);
  if (it != collections_.end()) {
    *meta = &it->second;
    return Status::OK();
  }
  *meta = nullptr;
  sqlite3_stmt* raw;
  Status s = Prepare(
      "SELECT db, name, tbl, autoinc FROM kova_collections WHERE ns=?1", &raw);
  if (!s.ok()) return s;
  CollectionMeta m;
  {
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, ns.data(), static_cast<int>(ns.size()),
                      SQLITE_TRANSIENT);
    int rc;
    s = Step(raw, &rc);
    if (!s.ok()) return s;
    if (rc != SQLITE_ROW) return Status::OK();
    m.ns = ns;
    m.db = reinterpret_cast<const char*>(sqlite3_column_text(raw, 0));
    m.name = reinterpret_cast<const char*>(sqlite3_column_text(raw, 1));
    m.table = reinterpret_cast<const char*>(sqlite3_column_text(raw, 2));
    m.insert_sql = "INSERT INTO " + m.table + "(kid, doc) VALUES(?1, ?2)";
    bson_t fields;
    if (bson_init_static(
            &fields, static_cast<const uint8_t*>(sqlite3_column_blob(raw, 3)),
            sqlite3_column_bytes(raw, 3))) {
      bson_iter_t it2;
      bson_iter_init(&it2, &fields);
      while (bson_iter_next(&it2))
        if (BSON_ITER_HOLDS_UTF8(&it2))
          m.autoincrement.emplace_back(bson_iter_utf8(&it2, nullptr));
    }
  }
  s = Prepare(
      "SELECT name, keys, is_unique, sqlite_name, nulls_distinct FROM "
      "kova_indexes WHERE "
      "ns=?1 ORDER BY rowid",
      &raw);
  if (!s.ok()) return s;
  {
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, ns.data(), static_cast<int>(ns.size()),
                      SQLITE_TRANSIENT);
    int rc;
    while ((s = Step(raw, &rc)).ok() && rc == SQLITE_ROW) {
      IndexMeta index;
      index.spec.name =
          reinterpret_cast<const char*>(sqlite3_column_text(raw, 0));
      bson_t keys;
      if (bson_init_static(
              &keys, static_cast<const uint8_t*>(sqlite3_column_blob(raw, 1)),
              sqlite3_column_bytes(raw, 1))) {
        bson_iter_t k;
        bson_iter_init(&k, &keys);
        while (bson_iter_next(&k)) {
          // A partial index's condition (no key starts with '$' but
          // expression labels, which carry a position first).
          if (!strcmp(bson_iter_key(&k), kWhereKey)) {
            if (BSON_ITER_HOLDS_UTF8(&k))
              index.spec.where = bson_iter_utf8(&k, nullptr);
            continue;
          }
          // An expression key: {dir: 1|-1, sql: "..."}.
          bson_iter_t part;
          std::string expression;
          int64_t dir = 1;
          if (BSON_ITER_HOLDS_DOCUMENT(&k) && bson_iter_recurse(&k, &part)) {
            while (bson_iter_next(&part)) {
              if (!strcmp(bson_iter_key(&part), "dir"))
                dir = bson_iter_as_int64(&part);
              else if (!strcmp(bson_iter_key(&part), "sql") &&
                       BSON_ITER_HOLDS_UTF8(&part))
                expression = bson_iter_utf8(&part, nullptr);
            }
          } else {
            dir = bson_iter_as_int64(&k);
          }
          if (!expression.empty()) {
            index.spec.expressions.resize(index.spec.keys.size());
            index.spec.expressions.push_back(expression);
          }
          index.spec.keys.emplace_back(bson_iter_key(&k), dir);
        }
      }
      index.spec.unique = sqlite3_column_int(raw, 2) != 0;
      index.sqlite_name =
          reinterpret_cast<const char*>(sqlite3_column_text(raw, 3));
      index.spec.nulls_distinct = sqlite3_column_int(raw, 4) != 0;
      m.indexes.push_back(std::move(index));
    }
    if (!s.ok()) return s;
  }
  auto [pos, inserted] = collections_.emplace(ns, std::move(m));
  *meta = &pos->second;
  return Status::OK();
}

Status SessionImpl::RequireCollection(std::string_view db,
                                      std::string_view name,
                                      const CollectionMeta** meta) {
  Status s = ValidateDbName(db);
  if (!s.ok()) return s;
  std::string ns = Namespace(db, name);
  s = LookupCollection(ns, meta);
  if (!s.ok()) return s;
  if (!*meta) {
    return Status::Error(Code::kNamespaceNotFound,
                         "collection " + ns + " does not exist");
  }
  return Status::OK();
}

Status SessionImpl::WriteCollectionRow(const CollectionMeta& meta) {
  bson_t fields = BSON_INITIALIZER;
  for (size_t i = 0; i < meta.autoincrement.size(); i++) {
    std::string key = std::to_string(i);
    bson_append_utf8(&fields, key.c_str(), -1, meta.autoincrement[i].c_str(),
                     -1);
  }
  sqlite3_stmt* raw;
  Status s = Prepare(
      "INSERT OR REPLACE INTO kova_collections(ns, db, name, tbl, "
      "autoinc) VALUES(?1, ?2, ?3, ?4, ?5)",
      &raw);
  if (s.ok()) {
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, meta.ns.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(raw, 2, meta.db.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(raw, 3, meta.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(raw, 4, meta.table.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_blob(raw, 5, bson_get_data(&fields), fields.len,
                      SQLITE_TRANSIENT);
    int rc;
    s = Step(raw, &rc);
  }
  bson_destroy(&fields);
  return s;
}

Status SessionImpl::CreateCollectionLocked(std::string_view db,
                                           std::string_view name,
                                           const CollectionOptions& options,
                                           const CollectionMeta** meta) {
  Status s = ValidateDbName(db);
  if (s.ok()) s = ValidateCollectionName(name);
  if (!s.ok()) return s;
  // Validate every field before writing anything.
  for (size_t i = 0; i < options.autoincrement.size(); i++) {
    const auto& [field, spec] = options.autoincrement[i];
    s = ValidateAutoincrementField(field);
    if (!s.ok()) return s;
    for (size_t j = 0; j < i; j++) {
      if (options.autoincrement[j].first == field) {
        return Status::Error(Code::kBadValue, "autoincrement field \"" + field +
                                                  "\" is named twice");
      }
    }
    if (spec.increment == 0) {
      return Status::Error(Code::kBadValue,
                           "autoincrement increment must not be zero");
    }
  }
  std::string ns = Namespace(db, name);
  const CollectionMeta* existing;
  s = LookupCollection(ns, &existing);
  if (!s.ok()) return s;
  if (existing) {
    return Status::Error(Code::kNamespaceExists,
                         "collection " + ns + " already exists");
  }
  CollectionMeta m;
  m.ns = ns;
  m.db = db;
  m.name = name;
  s = FreeSqliteName("c:" + SqliteSafeName(ns), &m.table);
  if (s.ok())
    s = Exec("INSERT OR IGNORE INTO kova_databases VALUES(" + QuoteLiteral(db) +
             ")");
  if (s.ok())
    s = Exec("CREATE TABLE " + m.table +
             "(rid INTEGER PRIMARY KEY, kid, doc BLOB NOT NULL)");
  if (s.ok()) s = WriteCollectionRow(m);
  if (s.ok()) s = BumpCatalogVersion();
  if (!s.ok()) return s;
  const CollectionMeta* created;
  s = LookupCollection(ns, &created);
  if (!s.ok()) return s;
  s = CreateIndexLocked(*created, IndexSpec{"_id_", {{"_id", 1}}, true},
                        nullptr);
  for (const auto& [field, spec] : options.autoincrement) {
    if (!s.ok()) break;
    s = LookupCollection(ns, &created);
    if (s.ok()) s = AddAutoincrementLocked(*created, field, spec);
  }
  if (!s.ok()) return s;
  return meta ? LookupCollection(ns, meta) : Status::OK();
}

Status SessionImpl::GetOrCreateCollection(std::string_view db,
                                          std::string_view name,
                                          const CollectionMeta** meta) {
  Status s = ValidateDbName(db);
  if (!s.ok()) return s;
  s = LookupCollection(Namespace(db, name), meta);
  if (!s.ok() || *meta) return s;
  return CreateCollectionLocked(db, name, {}, meta);
}

Status SessionImpl::CreateIndexLocked(const CollectionMeta& meta,
                                      const IndexSpec& spec, bool* created) {
  if (spec.keys.empty()) {
    return Status::Error(Code::kBadValue, "an index needs at least one key");
  }
  if (spec.expressions.size() > spec.keys.size())
    return Status::Error(Code::kBadValue, "more index expressions than keys");
  for (size_t i = 0; i < spec.keys.size(); i++) {
    const auto& [field, dir] = spec.keys[i];
    // Expression keys are labelled "$...", which no field name can be.
    bool expression = !spec.expression(i).empty();
    if (field.empty() || (field[0] == '$') != expression ||
        (dir != 1 && dir != -1)) {
      return Status::Error(Code::kBadValue, "invalid index key {" + field +
                                                ": " + std::to_string(dir) +
                                                "}; use 1 or -1");
    }
  }
  std::string name = IndexName(spec);
  for (const auto& index : meta.indexes) {
    if (index.spec.keys == spec.keys &&
        index.spec.expressions == spec.expressions &&
        index.spec.unique == spec.unique &&
        index.spec.nulls_distinct == spec.nulls_distinct &&
        index.spec.where == spec.where) {
      // Same index again: nothing to do, as MongoDB.
      if (created) *created = false;
      return Status::OK();
    }
    if (index.spec.name == name) {
      return Status::Error(Code::kBadValue, "an index named " + name +
                                                " with other keys "
                                                "already exists on " +
                                                meta.ns);
    }
  }
  // An adopted index (AdoptIndex) keeps the SQLite name of its first name,
  // which a new index of that name must then avoid.
  // (SQLite's index names are global: the namespace is part of them.)
  std::string sqlite_name;
  Status s = FreeSqliteName(
      "i:" + SqliteSafeName(meta.ns) + ":" + SqliteSafeName(name),
      &sqlite_name);
  if (!s.ok()) return s;
  std::string sql = std::string("CREATE ") + (spec.unique ? "UNIQUE " : "") +
                    "INDEX " + sqlite_name + " ON " + meta.table + "(";
  bson_t keys = BSON_INITIALIZER;
  for (size_t i = 0; i < spec.keys.size(); i++) {
    const auto& [field, dir] = spec.keys[i];
    if (i) sql += ", ";
    sql += IndexKeySql(spec, i) + (dir == 1 ? " ASC" : " DESC");
    if (spec.expression(i).empty()) {
      bson_append_int32(&keys, field.c_str(), -1, dir);
    } else {
      bson_t part;
      bson_append_document_begin(&keys, field.c_str(), -1, &part);
      bson_append_int32(&part, "dir", 3, dir);
      bson_append_utf8(&part, "sql", 3, spec.expression(i).c_str(), -1);
      bson_append_document_end(&keys, &part);
    }
  }
  sql += ")";
  if (!spec.where.empty()) {
    sql += " WHERE " + spec.where;
    bson_append_utf8(&keys, kWhereKey, -1, spec.where.c_str(), -1);
  }
  s = UseLargeCache();
  if (s.ok()) s = Exec(sql);
  if (s.ok() && spec.unique && !spec.nulls_distinct) {
    // SQLite's unique indexes let NULLs repeat. Rows with a null or missing
    // key go to a second, partial unique index where null is a value (x''
    // never occurs as a key: BLOB keys always start with a type tag).
    std::string nulls_sql = "CREATE UNIQUE INDEX " +
                            NullsIndexName(sqlite_name) + " ON " + meta.table +
                            "(";
    std::string where;
    for (size_t i = 0; i < spec.keys.size(); i++) {
      std::string key = IndexKeySql(spec, i);
      if (i) {
        nulls_sql += ", ";
        where += " OR ";
      }
      nulls_sql += "ifnull(" + key + ", x'')";
      where += key + " IS NULL";
    }
    if (!spec.where.empty()) where = "(" + where + ") AND " + spec.where;
    s = Exec(nulls_sql + ") WHERE " + where);
  }
  if (!s.ok()) {
    bson_destroy(&keys);
    if (s.message().find("UNIQUE constraint failed") != std::string::npos) {
      return Status::Error(Code::kDuplicateKey, "cannot create unique index " +
                                                    name + " on " + meta.ns +
                                                    ": existing documents hold "
                                                    "duplicate keys");
    }
    return s;
  }
  sqlite3_stmt* raw;
  s = Prepare(
      "INSERT INTO kova_indexes(ns, name, keys, is_unique, sqlite_name, "
      "nulls_distinct) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
      &raw);
  if (s.ok()) {
    StmtHandle stmt(raw);
    sqlite3_bind_text(raw, 1, meta.ns.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(raw, 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_blob(raw, 3, bson_get_data(&keys), keys.len, SQLITE_TRANSIENT);
    sqlite3_bind_int(raw, 4, spec.unique ? 1 : 0);
    sqlite3_bind_text(raw, 5, sqlite_name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(raw, 6, spec.nulls_distinct ? 1 : 0);
    int rc;
    s = Step(raw, &rc);
  }
  bson_destroy(&keys);
  if (s.ok()) s = BumpCatalogVersion();
  if (s.ok() && created) *created = true;
  return s;
}

Status SessionImpl::DropCollectionLocked(const CollectionMeta& meta) {
  ForgetCounters();
  if (is_counters(meta)) {
    return Status::Error(Code::kIllegalOperation,
                         "admin.counters cannot be dropped; delete its rows "
                         "instead");
  }
  std::string ns = meta.ns;
  std::string table = meta.table;
  // Its counter rows are deleted below: their leases end first.
  Status s = EndAllCounterLeases();
  if (s.ok()) s = Exec("DROP TABLE " + table);
  if (s.ok()) s = Exec("DELETE FROM kova_indexes WHERE ns=" + QuoteLiteral(ns));
  if (s.ok())
    s = Exec("DELETE FROM kova_collections WHERE ns=" + QuoteLiteral(ns));
  // The counters belong to the collection and go with it.
  if (s.ok())
    s = Exec("DELETE FROM " +
             TableName(std::string(kAdminDb) + "." + kCountersCollection) +
             " WHERE kova_key(doc, 'collection') = " + QuoteLiteral(ns));
  if (s.ok()) s = BumpCatalogVersion();
  return s;
}

Status SessionImpl::AddAutoincrementLocked(const CollectionMeta& meta,
                                           std::string_view field,
                                           const CounterSpec& spec,
                                           bool keep_counter_row) {
  Status s = ValidateAutoincrementField(field);
  if (!s.ok()) return s;
  if (spec.increment == 0) {
    return Status::Error(Code::kBadValue,
                         "autoincrement increment must not be zero");
  }
  if (is_counters(meta)) {
    return Status::Error(Code::kIllegalOperation,
                         "admin.counters cannot have autoincrement fields");
  }
  for (const auto& f : meta.autoincrement) {
    if (f == field) {
      return Status::Error(Code::kBadValue, "field \"" + std::string(field) +
                                                "\" of " + meta.ns +
                                                " is already autoincrement");
    }
  }
  std::string ns = meta.ns;
  CollectionMeta updated = meta;
  updated.autoincrement.emplace_back(field);
  bool covered = false;
  for (const auto& index : meta.indexes) {
    if (index.spec.keys.size() == 1 && index.spec.keys[0].first == field)
      covered = true;
  }
  // The initial last is one step before the start, so the first value is
  // the start ("0 = nothing handed out" for a counter starting at 1).
  std::string id = CounterId(ns, field);
  s = WriteCollectionRow(updated);
  if (!s.ok()) return s;
  s = BumpCatalogVersion();  // `meta` is stale from here on
  if (!s.ok()) return s;
  if (!covered) {
    const CollectionMeta* current;
    s = LookupCollection(ns, &current);
    if (!s.ok()) return s;
    s = CreateIndexLocked(
        *current,
        IndexSpec{std::string(field) + "_1", {{std::string(field), 1}}, true},
        nullptr);
    if (!s.ok()) return s;
  }
  if (keep_counter_row) {
    CounterRow row;
    s = LoadCounterRow(id, &row);
    if (!s.ok() || row.exists) return s;
  }
  int64_t start =
      spec.start.value_or(spec.increment > 0 ? spec.min_value.value_or(1)
                                             : spec.max_value.value_or(-1));
  bool defaults = spec.increment == 1 && !spec.start && !spec.min_value &&
                  !spec.max_value && !spec.cycle;
  int64_t last;
  if (__builtin_sub_overflow(start, spec.increment, &last)) {
    return Status::Error(Code::kBadValue,
                         "autoincrement start " + std::to_string(start) +
                             " leaves no room for one step before it");
  }
  return WriteCounterRow(id, ns, field, defaults ? nullptr : &spec, last);
}

}  // namespace kova::docstore
