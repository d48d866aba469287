// Catalog objects as BSON documents in "pg_catalog.objects".
#include "catalog/catalog.h"

#include <cstring>

namespace kova::catalog {
namespace {

void PutString(bson_t* doc, const char* key, const std::string& value) {
  bson_append_utf8(doc, key, -1, value.data(), static_cast<int>(value.size()));
}

void PutStrings(bson_t* doc, const char* key,
                const std::vector<std::string>& values) {
  bson_t array;
  bson_append_array_begin(doc, key, -1, &array);
  for (size_t i = 0; i < values.size(); i++) {
    std::string k = std::to_string(i);
    PutString(&array, k.c_str(), values[i]);
  }
  bson_append_array_end(doc, &array);
}

std::string GetString(const bson_iter_t* it) {
  if (!BSON_ITER_HOLDS_UTF8(it)) return {};
  uint32_t n;
  const char* s = bson_iter_utf8(it, &n);
  return std::string(s, n);
}

int64_t GetInt(const bson_iter_t* it) {
  if (BSON_ITER_HOLDS_INT32(it)) return bson_iter_int32(it);
  if (BSON_ITER_HOLDS_INT64(it)) return bson_iter_int64(it);
  if (BSON_ITER_HOLDS_DOUBLE(it))
    return static_cast<int64_t>(bson_iter_double(it));
  return 0;
}

std::vector<std::string> GetStrings(const bson_iter_t* it) {
  std::vector<std::string> out;
  bson_iter_t child;
  if (!BSON_ITER_HOLDS_ARRAY(it) || !bson_iter_recurse(it, &child)) return out;
  while (bson_iter_next(&child)) out.push_back(GetString(&child));
  return out;
}

// Calls fn(key, iter) for each element of a subdocument or array.
template <typename Fn>
void ForEach(const bson_iter_t* it, Fn&& fn) {
  bson_iter_t child;
  if (!bson_iter_recurse(it, &child)) return;
  while (bson_iter_next(&child)) fn(bson_iter_key(&child), &child);
}

void Begin(bson_t* doc, const std::string& kind, const std::string& schema,
           const std::string& name, uint32_t oid) {
  PutString(doc, "_id", kind + ":" + schema + "." + name);
  PutString(doc, "kind", kind);
  PutString(doc, "schema", schema);
  PutString(doc, "name", name);
  bson_append_int64(doc, "oid", -1, oid);
}

Status Replace(docstore::Session* session, std::string_view db,
               const bson_t* doc) {
  bson_iter_t it;
  bson_iter_init_find(&it, doc, "_id");
  bson_t filter = BSON_INITIALIZER;
  bson_append_iter(&filter, "_id", 3, &it);
  int64_t deleted;
  Status s = session->Delete(db, kObjectsCollection, &filter, 1, &deleted);
  bson_destroy(&filter);
  if (s.ok()) s = session->Insert(db, kObjectsCollection, doc);
  if (s.ok()) s = session->BumpCatalogVersion();
  return s;
}

void ReadTable(const bson_t* doc, Table* t) {
  bson_iter_t it;
  bson_iter_init(&it, doc);
  while (bson_iter_next(&it)) {
    const char* key = bson_iter_key(&it);
    if (!strcmp(key, "oid"))
      t->oid = static_cast<uint32_t>(GetInt(&it));
    else if (!strcmp(key, "schema"))
      t->schema = GetString(&it);
    else if (!strcmp(key, "name"))
      t->name = GetString(&it);
    else if (!strcmp(key, "collection"))
      t->collection = GetString(&it);
    else if (!strcmp(key, "owner"))
      t->owner = GetString(&it);
    else if (!strcmp(key, "comment"))
      t->comment = GetString(&it);
    else if (!strcmp(key, "reloptions"))
      t->reloptions = GetStrings(&it);
    else if (!strcmp(key, "fk_triggers_disabled"))
      t->fk_triggers_disabled = bson_iter_as_bool(&it);
    else if (!strcmp(key, "unlogged"))
      t->unlogged = bson_iter_as_bool(&it);
    else if (!strcmp(key, "replica_identity")) {
      std::string s = GetString(&it);
      t->replica_identity = s.empty() ? 'd' : s[0];
    } else if (!strcmp(key, "column_comments")) {
      ForEach(&it, [&](const char* k, bson_iter_t* v) {
        t->column_comments[k] = GetString(v);
      });
    } else if (!strcmp(key, "columns")) {
      ForEach(&it, [&](const char*, bson_iter_t* v) {
        Column c;
        ForEach(v, [&](const char* k, bson_iter_t* f) {
          if (!strcmp(k, "name"))
            c.name = GetString(f);
          else if (!strcmp(k, "type"))
            c.type = static_cast<uint32_t>(GetInt(f));
          else if (!strcmp(k, "typmod"))
            c.typmod = static_cast<int32_t>(GetInt(f));
          else if (!strcmp(k, "not_null"))
            c.not_null = bson_iter_as_bool(f);
          else if (!strcmp(k, "default"))
            c.default_expr = GetString(f);
          else if (!strcmp(k, "generated"))
            c.generated_expr = GetString(f);
          else if (!strcmp(k, "identity")) {
            std::string s = GetString(f);
            c.identity = s.empty() ? 0 : s[0];
          } else if (!strcmp(k, "counter"))
            c.counter = GetString(f);
          else if (!strcmp(k, "sequence"))
            c.sequence = GetString(f);
          else if (!strcmp(k, "stat_target"))
            c.stat_target = static_cast<int>(GetInt(f));
          else if (!strcmp(k, "storage")) {
            std::string s = GetString(f);
            c.storage = s.empty() ? 0 : s[0];
          } else if (!strcmp(k, "compression")) {
            std::string s = GetString(f);
            c.compression = s.empty() ? 0 : s[0];
          } else if (!strcmp(k, "attoptions"))
            c.attoptions = GetStrings(f);
        });
        t->columns.push_back(std::move(c));
      });
    } else if (!strcmp(key, "constraints")) {
      ForEach(&it, [&](const char*, bson_iter_t* v) {
        Constraint c;
        ForEach(v, [&](const char* k, bson_iter_t* f) {
          if (!strcmp(k, "name"))
            c.name = GetString(f);
          else if (!strcmp(k, "kind")) {
            std::string s = GetString(f);
            c.kind = s.empty() ? 0 : s[0];
          } else if (!strcmp(k, "columns"))
            c.columns = GetStrings(f);
          else if (!strcmp(k, "check"))
            c.check_expr = GetString(f);
          else if (!strcmp(k, "ref_table"))
            c.ref_table = GetString(f);
          else if (!strcmp(k, "ref_columns"))
            c.ref_columns = GetStrings(f);
          else if (!strcmp(k, "on_delete")) {
            std::string s = GetString(f);
            c.on_delete = s.empty() ? 'a' : s[0];
          } else if (!strcmp(k, "on_update")) {
            std::string s = GetString(f);
            c.on_update = s.empty() ? 'a' : s[0];
          } else if (!strcmp(k, "nulls_not_distinct")) {
            c.nulls_not_distinct = bson_iter_as_bool(f);
          } else if (!strcmp(k, "deferrable")) {
            c.deferrable = bson_iter_as_bool(f);
          } else if (!strcmp(k, "initially_deferred")) {
            c.initially_deferred = bson_iter_as_bool(f);
          }
        });
        t->constraints.push_back(std::move(c));
      });
    } else if (!strcmp(key, "indexes")) {
      ForEach(&it, [&](const char*, bson_iter_t* v) {
        Index x;
        ForEach(v, [&](const char* k, bson_iter_t* f) {
          if (!strcmp(k, "name"))
            x.name = GetString(f);
          else if (!strcmp(k, "oid"))
            x.oid = static_cast<uint32_t>(GetInt(f));
          else if (!strcmp(k, "unique"))
            x.unique = bson_iter_as_bool(f);
          else if (!strcmp(k, "columns"))
            x.columns = GetStrings(f);
          else if (!strcmp(k, "options"))
            ForEach(f, [&](const char*, bson_iter_t* o) {
              x.options.push_back(static_cast<int16_t>(GetInt(o)));
            });
          else if (!strcmp(k, "comment"))
            x.comment = GetString(f);
          else if (!strcmp(k, "constraint"))
            x.constraint = GetString(f);
          else if (!strcmp(k, "nulls_not_distinct"))
            x.nulls_not_distinct = bson_iter_as_bool(f);
          else if (!strcmp(k, "method"))
            x.method = GetString(f);
          else if (!strcmp(k, "expressions"))
            x.expressions = GetStrings(f);
          else if (!strcmp(k, "predicate"))
            x.predicate = GetString(f);
          else if (!strcmp(k, "reloptions"))
            x.reloptions = GetStrings(f);
          else if (!strcmp(k, "stat_targets"))
            ForEach(f, [&](const char*, bson_iter_t* o) {
              x.stat_targets.push_back(static_cast<int>(GetInt(o)));
            });
          else if (!strcmp(k, "replica_identity"))
            x.replica_identity = bson_iter_as_bool(f);
          else if (!strcmp(k, "clustered"))
            x.clustered = bson_iter_as_bool(f);
        });
        t->indexes.push_back(std::move(x));
      });
    }
  }
}

void ReadType(const bson_t* doc, UserType* t) {
  bson_iter_t it;
  bson_iter_init(&it, doc);
  while (bson_iter_next(&it)) {
    const char* key = bson_iter_key(&it);
    if (!strcmp(key, "oid")) {
      t->oid = static_cast<uint32_t>(GetInt(&it));
    } else if (!strcmp(key, "array_oid")) {
      t->array_oid = static_cast<uint32_t>(GetInt(&it));
    } else if (!strcmp(key, "schema")) {
      t->schema = GetString(&it);
    } else if (!strcmp(key, "name")) {
      t->name = GetString(&it);
    } else if (!strcmp(key, "type_kind")) {
      std::string k = GetString(&it);
      t->kind = k.empty() ? 'e' : k[0];
    } else if (!strcmp(key, "owner")) {
      t->owner = GetString(&it);
    } else if (!strcmp(key, "comment")) {
      t->comment = GetString(&it);
    } else if (!strcmp(key, "base_type")) {
      t->base_type = static_cast<uint32_t>(GetInt(&it));
    } else if (!strcmp(key, "base_typmod")) {
      t->base_typmod = static_cast<int32_t>(GetInt(&it));
    } else if (!strcmp(key, "default")) {
      t->default_expr = GetString(&it);
    } else if (!strcmp(key, "not_null")) {
      t->not_null = bson_iter_as_bool(&it);
    } else if (!strcmp(key, "labels")) {
      ForEach(&it, [&](const char*, bson_iter_t* v) {
        EnumLabel l;
        ForEach(v, [&](const char* k, bson_iter_t* f) {
          if (!strcmp(k, "label"))
            l.label = GetString(f);
          else if (!strcmp(k, "sort") && BSON_ITER_HOLDS_DOUBLE(f))
            l.sort_order = bson_iter_double(f);
        });
        t->labels.push_back(std::move(l));
      });
    } else if (!strcmp(key, "checks")) {
      ForEach(&it, [&](const char*, bson_iter_t* v) {
        DomainCheck c;
        ForEach(v, [&](const char* k, bson_iter_t* f) {
          if (!strcmp(k, "name"))
            c.name = GetString(f);
          else if (!strcmp(k, "expr"))
            c.expr = GetString(f);
        });
        t->checks.push_back(std::move(c));
      });
    }
  }
}

}  // namespace

const EnumLabel* UserType::FindLabel(std::string_view label) const {
  for (const auto& l : labels)
    if (l.label == label) return &l;
  return nullptr;
}

const Column* Table::FindColumn(std::string_view column) const {
  for (const auto& c : columns)
    if (c.name == column) return &c;
  return nullptr;
}

int Table::ColumnIndex(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); i++)
    if (columns[i].name == column) return static_cast<int>(i);
  return -1;
}

const Constraint* Table::PrimaryKey() const {
  for (const auto& c : constraints)
    if (c.kind == 'p') return &c;
  return nullptr;
}

std::string Catalog::Key(std::string_view schema, std::string_view name) {
  return std::string(schema) + "." + std::string(name);
}

std::string Catalog::CollectionName(std::string_view schema,
                                    std::string_view name) {
  if (schema == "public") return std::string(name);
  return Key(schema, name);
}

std::string Catalog::SequenceCounterId(std::string_view db,
                                       std::string_view schema,
                                       std::string_view name) {
  return std::string(db) + "." + CollectionName(schema, name);
}

std::string Catalog::ColumnCounterId(std::string_view db,
                                     std::string_view collection,
                                     std::string_view column) {
  return std::string(db) + "." + std::string(collection) + "." +
         std::string(column);
}

const Table* Catalog::FindTable(std::string_view schema,
                                std::string_view name) const {
  auto it = tables_.find(Key(schema, name));
  return it == tables_.end() ? nullptr : &it->second;
}

const Sequence* Catalog::FindSequence(std::string_view schema,
                                      std::string_view name) const {
  auto it = sequences_.find(Key(schema, name));
  return it == sequences_.end() ? nullptr : &it->second;
}

const View* Catalog::FindView(std::string_view schema,
                              std::string_view name) const {
  auto it = views_.find(Key(schema, name));
  return it == views_.end() ? nullptr : &it->second;
}

const Schema* Catalog::FindSchema(std::string_view name) const {
  auto it = schemas_.find(std::string(name));
  return it == schemas_.end() ? nullptr : &it->second;
}

const UserType* Catalog::FindType(std::string_view schema,
                                  std::string_view name) const {
  auto it = types_.find(Key(schema, name));
  return it == types_.end() ? nullptr : &it->second;
}

const UserType* Catalog::FindTypeByOid(uint32_t oid) const {
  auto it = types_by_oid_.find(oid);
  return it == types_by_oid_.end() ? nullptr : it->second;
}

const UserType* Catalog::FindTypeByArrayOid(uint32_t array_oid) const {
  auto it = types_by_array_oid_.find(array_oid);
  return it == types_by_array_oid_.end() ? nullptr : it->second;
}

const Table* Catalog::FindIndexTable(std::string_view schema,
                                     std::string_view name,
                                     const Index** index) const {
  for (const auto& [key, table] : tables_) {
    if (table.schema != schema) continue;
    for (const auto& x : table.indexes) {
      if (x.name == name) {
        if (index) *index = &x;
        return &table;
      }
    }
  }
  return nullptr;
}

bool Catalog::RelationExists(std::string_view schema,
                             std::string_view name) const {
  return FindTable(schema, name) || FindSequence(schema, name) ||
         FindView(schema, name) || FindIndexTable(schema, name);
}

Status Catalog::Load(docstore::Session* session, std::string_view db,
                     std::shared_ptr<const Catalog>* out) {
  auto catalog = std::make_shared<Catalog>();
  catalog->db_ = std::string(db);
  // The schemas every database has.
  catalog->schemas_["public"] = Schema{2200, "public", "postgres", ""};
  catalog->schemas_["pg_catalog"] = Schema{11, "pg_catalog", "postgres", ""};
  catalog->schemas_["information_schema"] =
      Schema{13000, "information_schema", "postgres", ""};
  catalog->schemas_["admin"] = Schema{13100, "admin", "postgres", ""};
  std::vector<docstore::Document> docs;
  bson_t filter = BSON_INITIALIZER;
  Status s = session->Find(db, kObjectsCollection, &filter, {}, &docs);
  if (!s.ok()) return s;
  for (const auto& d : docs) {
    bson_iter_t it;
    std::string kind;
    if (bson_iter_init_find(&it, d.bson(), "kind")) kind = GetString(&it);
    if (kind == "table") {
      Table t;
      ReadTable(d.bson(), &t);
      catalog->tables_[Key(t.schema, t.name)] = std::move(t);
    } else if (kind == "sequence") {
      Sequence q;
      bson_iter_init(&it, d.bson());
      while (bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        if (!strcmp(key, "oid"))
          q.oid = static_cast<uint32_t>(GetInt(&it));
        else if (!strcmp(key, "schema"))
          q.schema = GetString(&it);
        else if (!strcmp(key, "name"))
          q.name = GetString(&it);
        else if (!strcmp(key, "counter"))
          q.counter = GetString(&it);
        else if (!strcmp(key, "type"))
          q.type = static_cast<uint32_t>(GetInt(&it));
        else if (!strcmp(key, "cache"))
          q.cache = GetInt(&it);
        else if (!strcmp(key, "owned_table"))
          q.owned_table = GetString(&it);
        else if (!strcmp(key, "owned_column"))
          q.owned_column = GetString(&it);
        else if (!strcmp(key, "owner"))
          q.owner = GetString(&it);
        else if (!strcmp(key, "comment"))
          q.comment = GetString(&it);
      }
      catalog->sequences_[Key(q.schema, q.name)] = std::move(q);
    } else if (kind == "view") {
      View v;
      bson_iter_init(&it, d.bson());
      while (bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        if (!strcmp(key, "oid"))
          v.oid = static_cast<uint32_t>(GetInt(&it));
        else if (!strcmp(key, "schema"))
          v.schema = GetString(&it);
        else if (!strcmp(key, "name"))
          v.name = GetString(&it);
        else if (!strcmp(key, "query"))
          v.query = GetString(&it);
        else if (!strcmp(key, "owner"))
          v.owner = GetString(&it);
        else if (!strcmp(key, "comment"))
          v.comment = GetString(&it);
        else if (!strcmp(key, "columns")) {
          ForEach(&it, [&](const char*, bson_iter_t* c) {
            ViewColumn col;
            ForEach(c, [&](const char* k, bson_iter_t* f) {
              if (!strcmp(k, "name"))
                col.name = GetString(f);
              else if (!strcmp(k, "type"))
                col.type = static_cast<uint32_t>(GetInt(f));
              else if (!strcmp(k, "typmod"))
                col.typmod = static_cast<int32_t>(GetInt(f));
            });
            v.columns.push_back(std::move(col));
          });
        } else if (!strcmp(key, "uses")) {
          ForEach(&it, [&](const char*, bson_iter_t* u) {
            ViewUse use;
            ForEach(u, [&](const char* k, bson_iter_t* f) {
              if (!strcmp(k, "schema"))
                use.schema = GetString(f);
              else if (!strcmp(k, "name"))
                use.name = GetString(f);
              else if (!strcmp(k, "columns"))
                ForEach(f, [&](const char*, bson_iter_t* c) {
                  use.columns.push_back(GetString(c));
                });
              else if (!strcmp(k, "constraints"))
                ForEach(f, [&](const char*, bson_iter_t* c) {
                  use.constraints.push_back(GetString(c));
                });
            });
            v.uses.push_back(std::move(use));
          });
        }
      }
      catalog->views_[Key(v.schema, v.name)] = std::move(v);
    } else if (kind == "schema") {
      Schema sc;
      bson_iter_init(&it, d.bson());
      while (bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        if (!strcmp(key, "oid"))
          sc.oid = static_cast<uint32_t>(GetInt(&it));
        else if (!strcmp(key, "name"))
          sc.name = GetString(&it);
        else if (!strcmp(key, "owner"))
          sc.owner = GetString(&it);
        else if (!strcmp(key, "comment"))
          sc.comment = GetString(&it);
      }
      catalog->schemas_[sc.name] = std::move(sc);
    } else if (kind == "type") {
      UserType t;
      ReadType(d.bson(), &t);
      catalog->types_[Key(t.schema, t.name)] = std::move(t);
    }
  }
  for (const auto& [key, t] : catalog->types_) {
    catalog->types_by_oid_[t.oid] = &t;
    if (t.array_oid) catalog->types_by_array_oid_[t.array_oid] = &t;
  }
  *out = std::move(catalog);
  return Status::OK();
}

Status Catalog::PutTable(docstore::Session* session, std::string_view db,
                         const Table& t) {
  bson_t doc = BSON_INITIALIZER;
  Begin(&doc, "table", t.schema, t.name, t.oid);
  PutString(&doc, "collection", t.collection);
  PutString(&doc, "owner", t.owner);
  if (!t.comment.empty()) PutString(&doc, "comment", t.comment);
  if (!t.reloptions.empty()) PutStrings(&doc, "reloptions", t.reloptions);
  if (t.unlogged) bson_append_bool(&doc, "unlogged", -1, true);
  if (t.fk_triggers_disabled)
    bson_append_bool(&doc, "fk_triggers_disabled", -1, true);
  if (t.replica_identity != 'd')
    PutString(&doc, "replica_identity", std::string(1, t.replica_identity));
  if (!t.column_comments.empty()) {
    bson_t cc;
    bson_append_document_begin(&doc, "column_comments", -1, &cc);
    for (const auto& [k, v] : t.column_comments) PutString(&cc, k.c_str(), v);
    bson_append_document_end(&doc, &cc);
  }
  bson_t cols;
  bson_append_array_begin(&doc, "columns", -1, &cols);
  for (size_t i = 0; i < t.columns.size(); i++) {
    const Column& c = t.columns[i];
    std::string k = std::to_string(i);
    bson_t col;
    bson_append_document_begin(&cols, k.c_str(), -1, &col);
    PutString(&col, "name", c.name);
    bson_append_int64(&col, "type", -1, c.type);
    bson_append_int32(&col, "typmod", -1, c.typmod);
    bson_append_bool(&col, "not_null", -1, c.not_null);
    if (!c.default_expr.empty()) PutString(&col, "default", c.default_expr);
    if (!c.generated_expr.empty())
      PutString(&col, "generated", c.generated_expr);
    if (c.identity) PutString(&col, "identity", std::string(1, c.identity));
    if (!c.counter.empty()) PutString(&col, "counter", c.counter);
    if (!c.sequence.empty()) PutString(&col, "sequence", c.sequence);
    if (c.stat_target != -1)
      bson_append_int32(&col, "stat_target", -1, c.stat_target);
    if (c.storage) PutString(&col, "storage", std::string(1, c.storage));
    if (c.compression)
      PutString(&col, "compression", std::string(1, c.compression));
    if (!c.attoptions.empty()) PutStrings(&col, "attoptions", c.attoptions);
    bson_append_document_end(&cols, &col);
  }
  bson_append_array_end(&doc, &cols);
  bson_t cons;
  bson_append_array_begin(&doc, "constraints", -1, &cons);
  for (size_t i = 0; i < t.constraints.size(); i++) {
    const Constraint& c = t.constraints[i];
    std::string k = std::to_string(i);
    bson_t con;
    bson_append_document_begin(&cons, k.c_str(), -1, &con);
    PutString(&con, "name", c.name);
    PutString(&con, "kind", std::string(1, c.kind));
    PutStrings(&con, "columns", c.columns);
    if (!c.check_expr.empty()) PutString(&con, "check", c.check_expr);
    if (c.kind == 'f') {
      PutString(&con, "ref_table", c.ref_table);
      PutStrings(&con, "ref_columns", c.ref_columns);
      PutString(&con, "on_delete", std::string(1, c.on_delete));
      PutString(&con, "on_update", std::string(1, c.on_update));
    }
    if (c.nulls_not_distinct)
      bson_append_bool(&con, "nulls_not_distinct", -1, true);
    if (c.deferrable) bson_append_bool(&con, "deferrable", -1, true);
    if (c.initially_deferred)
      bson_append_bool(&con, "initially_deferred", -1, true);
    bson_append_document_end(&cons, &con);
  }
  bson_append_array_end(&doc, &cons);
  bson_t idx;
  bson_append_array_begin(&doc, "indexes", -1, &idx);
  for (size_t i = 0; i < t.indexes.size(); i++) {
    const Index& x = t.indexes[i];
    std::string k = std::to_string(i);
    bson_t one;
    bson_append_document_begin(&idx, k.c_str(), -1, &one);
    PutString(&one, "name", x.name);
    bson_append_int64(&one, "oid", -1, x.oid);
    bson_append_bool(&one, "unique", -1, x.unique);
    PutStrings(&one, "columns", x.columns);
    if (!x.options.empty()) {
      bson_t options;
      bson_append_array_begin(&one, "options", -1, &options);
      for (size_t o = 0; o < x.options.size(); o++)
        bson_append_int32(&options, std::to_string(o).c_str(), -1,
                          x.options[o]);
      bson_append_array_end(&one, &options);
    }
    if (!x.constraint.empty()) PutString(&one, "constraint", x.constraint);
    if (!x.comment.empty()) PutString(&one, "comment", x.comment);
    if (x.nulls_not_distinct)
      bson_append_bool(&one, "nulls_not_distinct", -1, true);
    if (!x.method.empty()) PutString(&one, "method", x.method);
    if (!x.expressions.empty()) PutStrings(&one, "expressions", x.expressions);
    if (!x.predicate.empty()) PutString(&one, "predicate", x.predicate);
    if (!x.reloptions.empty()) PutStrings(&one, "reloptions", x.reloptions);
    if (!x.stat_targets.empty()) {
      bson_t targets;
      bson_append_array_begin(&one, "stat_targets", -1, &targets);
      for (size_t o = 0; o < x.stat_targets.size(); o++)
        bson_append_int32(&targets, std::to_string(o).c_str(), -1,
                          x.stat_targets[o]);
      bson_append_array_end(&one, &targets);
    }
    if (x.replica_identity)
      bson_append_bool(&one, "replica_identity", -1, true);
    if (x.clustered) bson_append_bool(&one, "clustered", -1, true);
    bson_append_document_end(&idx, &one);
  }
  bson_append_array_end(&doc, &idx);
  Status s = Replace(session, db, &doc);
  bson_destroy(&doc);
  return s;
}

Status Catalog::PutSequence(docstore::Session* session, std::string_view db,
                            const Sequence& q) {
  bson_t doc = BSON_INITIALIZER;
  Begin(&doc, "sequence", q.schema, q.name, q.oid);
  PutString(&doc, "counter", q.counter);
  bson_append_int64(&doc, "type", -1, q.type);
  bson_append_int64(&doc, "cache", -1, q.cache);
  PutString(&doc, "owned_table", q.owned_table);
  PutString(&doc, "owned_column", q.owned_column);
  PutString(&doc, "owner", q.owner);
  if (!q.comment.empty()) PutString(&doc, "comment", q.comment);
  Status s = Replace(session, db, &doc);
  bson_destroy(&doc);
  return s;
}

Status Catalog::PutView(docstore::Session* session, std::string_view db,
                        const View& v) {
  bson_t doc = BSON_INITIALIZER;
  Begin(&doc, "view", v.schema, v.name, v.oid);
  PutString(&doc, "query", v.query);
  PutString(&doc, "owner", v.owner);
  if (!v.comment.empty()) PutString(&doc, "comment", v.comment);
  bson_t cols;
  bson_append_array_begin(&doc, "columns", -1, &cols);
  for (size_t i = 0; i < v.columns.size(); i++) {
    std::string k = std::to_string(i);
    bson_t col;
    bson_append_document_begin(&cols, k.c_str(), -1, &col);
    PutString(&col, "name", v.columns[i].name);
    bson_append_int64(&col, "type", -1, v.columns[i].type);
    bson_append_int32(&col, "typmod", -1, v.columns[i].typmod);
    bson_append_document_end(&cols, &col);
  }
  bson_append_array_end(&doc, &cols);
  bson_t uses;
  bson_append_array_begin(&doc, "uses", -1, &uses);
  for (size_t i = 0; i < v.uses.size(); i++) {
    std::string k = std::to_string(i);
    bson_t use;
    bson_append_document_begin(&uses, k.c_str(), -1, &use);
    PutString(&use, "schema", v.uses[i].schema);
    PutString(&use, "name", v.uses[i].name);
    PutStrings(&use, "columns", v.uses[i].columns);
    if (!v.uses[i].constraints.empty())
      PutStrings(&use, "constraints", v.uses[i].constraints);
    bson_append_document_end(&uses, &use);
  }
  bson_append_array_end(&doc, &uses);
  Status s = Replace(session, db, &doc);
  bson_destroy(&doc);
  return s;
}

Status Catalog::PutSchema(docstore::Session* session, std::string_view db,
                          const Schema& sc) {
  bson_t doc = BSON_INITIALIZER;
  Begin(&doc, "schema", sc.name, sc.name, sc.oid);
  PutString(&doc, "owner", sc.owner);
  if (!sc.comment.empty()) PutString(&doc, "comment", sc.comment);
  Status s = Replace(session, db, &doc);
  bson_destroy(&doc);
  return s;
}

Status Catalog::PutType(docstore::Session* session, std::string_view db,
                        const UserType& t) {
  bson_t doc = BSON_INITIALIZER;
  Begin(&doc, "type", t.schema, t.name, t.oid);
  if (t.array_oid) bson_append_int64(&doc, "array_oid", -1, t.array_oid);
  PutString(&doc, "type_kind", std::string(1, t.kind));
  PutString(&doc, "owner", t.owner);
  if (!t.comment.empty()) PutString(&doc, "comment", t.comment);
  if (t.kind == 'e') {
    bson_t labels;
    bson_append_array_begin(&doc, "labels", -1, &labels);
    for (size_t i = 0; i < t.labels.size(); i++) {
      std::string k = std::to_string(i);
      bson_t one;
      bson_append_document_begin(&labels, k.c_str(), -1, &one);
      PutString(&one, "label", t.labels[i].label);
      bson_append_double(&one, "sort", -1, t.labels[i].sort_order);
      bson_append_document_end(&labels, &one);
    }
    bson_append_array_end(&doc, &labels);
  } else {
    bson_append_int64(&doc, "base_type", -1, t.base_type);
    bson_append_int32(&doc, "base_typmod", -1, t.base_typmod);
    if (!t.default_expr.empty()) PutString(&doc, "default", t.default_expr);
    bson_append_bool(&doc, "not_null", -1, t.not_null);
    bson_t checks;
    bson_append_array_begin(&doc, "checks", -1, &checks);
    for (size_t i = 0; i < t.checks.size(); i++) {
      std::string k = std::to_string(i);
      bson_t one;
      bson_append_document_begin(&checks, k.c_str(), -1, &one);
      PutString(&one, "name", t.checks[i].name);
      PutString(&one, "expr", t.checks[i].expr);
      bson_append_document_end(&checks, &one);
    }
    bson_append_array_end(&doc, &checks);
  }
  Status s = Replace(session, db, &doc);
  bson_destroy(&doc);
  return s;
}

Status Catalog::Remove(docstore::Session* session, std::string_view db,
                       std::string_view kind, std::string_view schema,
                       std::string_view name) {
  std::string id =
      std::string(kind) + ":" + std::string(schema) + "." + std::string(name);
  bson_t filter = BSON_INITIALIZER;
  PutString(&filter, "_id", id);
  int64_t deleted;
  Status s = session->Delete(db, kObjectsCollection, &filter, 1, &deleted);
  bson_destroy(&filter);
  if (s.ok()) s = session->BumpCatalogVersion();
  return s;
}

Status Catalog::AllocateOid(docstore::Session* session, std::string_view db,
                            uint32_t* oid) {
  // The document {_id: "oid", next} hands out object identifiers, in the
  // caller's (writing) transaction.
  bson_t filter = BSON_INITIALIZER;
  PutString(&filter, "_id", "oid");
  std::vector<docstore::Document> docs;
  Status s = session->Find(db, kObjectsCollection, &filter, {}, &docs);
  int64_t next = kFirstOid;
  bson_iter_t it;
  if (s.ok() && !docs.empty() &&
      bson_iter_init_find(&it, docs[0].bson(), "next"))
    next = GetInt(&it);
  int64_t deleted;
  if (s.ok()) s = session->Delete(db, kObjectsCollection, &filter, 1, &deleted);
  bson_t doc = BSON_INITIALIZER;
  PutString(&doc, "_id", "oid");
  bson_append_int64(&doc, "next", -1, next + 1);
  if (s.ok()) s = session->Insert(db, kObjectsCollection, &doc);
  bson_destroy(&doc);
  bson_destroy(&filter);
  if (s.ok()) *oid = static_cast<uint32_t>(next);
  return s;
}

}  // namespace kova::catalog
