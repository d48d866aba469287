// The relations of pg_catalog that clients read (psql's \d family, ORMs),
// rendered at compile time from the in-memory catalog as a SQLite VALUES
// subquery with typed columns. A plan is kept only under the catalog
// version it was made with, so the rows cannot go stale; plans over roles
// and databases (not part of a database's catalog) are not kept at all.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "planner/expr_internal.h"
#include "planner/query.h"
#include "planner/svalue.h"
#include "planner/system_catalog.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner {
using namespace expr_detail;

namespace system_catalog {
namespace {

// "char" and the vector/node-tree types are read as text, regproc as text
// and aclitem[] as text[]: psql and ORMs only print or compare them.
constexpr uint32_t B = oid::kBool;
constexpr uint32_t I2 = oid::kInt2;
constexpr uint32_t I4 = oid::kInt4;
constexpr uint32_t I8 = oid::kInt8;
constexpr uint32_t F4 = oid::kFloat4;
constexpr uint32_t O = oid::kOid;
constexpr uint32_t N = oid::kName;
constexpr uint32_t T = oid::kText;
constexpr uint32_t TA = 1009;   // text[]
constexpr uint32_t I2A = 1005;  // int2[]
constexpr uint32_t TZ = oid::kTimestamptz;

struct Col {
  const char* name;
  uint32_t type;
};

using Row = std::vector<std::string>;  // SQLite literals

std::string Int(int64_t v) { return std::to_string(v); }
std::string Bool(bool v) { return v ? "1" : "0"; }
std::string Text(std::string_view s) { return SqlQuoteLiteral(s); }
const std::string kNull = "NULL";

struct Source {
  const catalog::Catalog* cat;
  const std::vector<ClusterRole>* roles;
  const std::vector<ClusterDatabase>* databases;
  std::string temp_schema;
};

uint32_t OwnerOid(const std::string& owner) {
  return RoleOid(owner.empty() ? "postgres" : owner);
}

std::string IntVector(const std::vector<int>& v, bool array) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) {
    if (i) s += array ? "," : " ";
    s += std::to_string(v[i]);
  }
  return Text(array ? "{" + s + "}" : s);
}

std::vector<int> AttNums(const catalog::Table& t,
                         const std::vector<std::string>& columns) {
  std::vector<int> out;
  for (const auto& c : columns) out.push_back(t.ColumnIndex(c) + 1);
  return out;
}

uint32_t Collation(uint32_t type) {
  type = user_types::BaseType(type);
  uint32_t element = types::ArrayElementType(type);
  if (element) type = element;
  return IsText(type) ? 100 : 0;
}

char Persistence(const Source& s, const std::string& schema) {
  return !s.temp_schema.empty() && schema == s.temp_schema ? 't' : 'p';
}

void ClassRows(const Source& s, std::vector<Row>* rows) {
  const auto& cat = *s.cat;
  // PostgreSQL enforces foreign keys with triggers on both tables, and psql
  // shows foreign keys only for tables with relhastriggers.
  std::set<std::string> fk_tables;
  for (const auto& [key, t] : cat.tables())
    for (const auto& c : t.constraints)
      if (c.kind == 'f') {
        fk_tables.insert(t.schema + "." + t.name);
        fk_tables.insert(c.ref_table.find('.') == std::string::npos
                             ? "public." + c.ref_table
                             : c.ref_table);
      }
  bool has_triggers = false;
  auto add = [&](uint32_t oid, const std::string& name,
                 const std::string& schema, const std::string& owner, char kind,
                 uint32_t am, int natts, int checks, bool has_index) {
    rows->push_back({Int(oid),
                     Text(name),
                     Int(NamespaceOid(cat, schema)),
                     Int(0),
                     Int(0),
                     Int(OwnerOid(owner)),
                     Int(am),
                     Int(oid),
                     Int(0),
                     Int(0),
                     "-1",
                     Int(0),
                     Int(0),
                     Bool(has_index),
                     Bool(false),
                     Text(std::string(1, Persistence(s, schema))),
                     Text(std::string(1, kind)),
                     Int(natts),
                     Int(checks),
                     Bool(false),
                     Bool(has_triggers),
                     Bool(false),
                     Bool(false),
                     Bool(false),
                     Bool(true),
                     Text(kind == 'r' ? "d" : "n"),
                     Bool(false),
                     Int(0),
                     kNull,
                     kNull,
                     kNull});
  };
  for (const auto& [key, t] : cat.tables()) {
    int checks = 0;
    for (const auto& c : t.constraints) checks += c.kind == 'c';
    has_triggers = fk_tables.count(t.schema + "." + t.name) > 0;
    add(t.oid, t.name, t.schema, t.owner, 'r', kHeapAm,
        static_cast<int>(t.columns.size()), checks, !t.indexes.empty());
    has_triggers = false;
    for (const auto& x : t.indexes)
      add(x.oid, x.name, t.schema, t.owner, 'i', kBtreeAm,
          static_cast<int>(x.columns.size()), 0, false);
  }
  for (const auto& [key, v] : cat.views())
    add(v.oid, v.name, v.schema, v.owner, 'v', 0,
        static_cast<int>(v.columns.size()), 0, false);
  for (const auto& [key, q] : cat.sequences())
    add(q.oid, q.name, q.schema, q.owner, 'S', 0, 3, 0, false);
}

void NamespaceRows(const Source& s, std::vector<Row>* rows) {
  rows->push_back({Int(kPgToastNamespace), Text("pg_toast"),
                   Int(kBootstrapSuperuser), kNull});
  for (const auto& [name, sc] : s.cat->schemas()) {
    if (name == "admin") continue;  // Kova's counters, not a catalog schema
    // PostgreSQL 15 gives public to pg_database_owner.
    uint32_t owner =
        name == "public" && (sc.owner.empty() || sc.owner == "postgres")
            ? kPgDatabaseOwner
            : OwnerOid(sc.owner);
    rows->push_back(
        {Int(NamespaceOid(*s.cat, name)), Text(name), Int(owner), kNull});
  }
}

void AmRows(const Source&, std::vector<Row>* rows) {
  const std::pair<int, const char*> ams[] = {
      {2, "heap"},   {403, "btree"},   {405, "hash"}, {783, "gist"},
      {2742, "gin"}, {4000, "spgist"}, {3580, "brin"}};
  for (const auto& [oid, name] : ams)
    rows->push_back(
        {Int(oid), Text(name),
         Text(std::string(name) + (oid == 2 ? "_tableam_handler" : "handler")),
         Text(oid == 2 ? "t" : "i")});
}

void DatabaseRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& d : *s.databases)
    rows->push_back({Int(DatabaseOid(d.name)), Text(d.name),
                     Int(OwnerOid(d.owner)), Int(6), Text("c"), Bool(false),
                     Bool(true), Int(d.connection_limit), Int(1663),
                     Text("C.UTF-8"), Text("C.UTF-8"), kNull, kNull, kNull});
}

void RoleRows(const Source& s, std::vector<Row>* rows, bool authid) {
  auto add = [&](const std::string& name, bool super, bool login,
                 bool bootstrap) {
    Row r = {Int(RoleOid(name)),
             Text(name),
             Bool(super),
             Bool(true),
             Bool(bootstrap),
             Bool(bootstrap),
             Bool(login),
             Bool(bootstrap),
             Bool(bootstrap),
             Int(-1),
             authid ? kNull : Text("********"),
             kNull};
    if (!authid) r.push_back(kNull);  // rolconfig
    rows->push_back(std::move(r));
  };
  add("pg_database_owner", false, false, false);
  for (const auto& r : *s.roles)
    add(r.name, r.superuser, r.login, r.name == "postgres");
}

void IndexRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& [key, t] : s.cat->tables()) {
    for (const auto& x : t.indexes) {
      const catalog::Constraint* con = nullptr;
      for (const auto& c : t.constraints)
        if (c.name == x.constraint) con = &c;
      bool primary = con && con->kind == 'p';
      int n = static_cast<int>(x.columns.size());
      rows->push_back({Int(x.oid), Int(t.oid), Int(n), Int(n),
                       Bool(x.unique || primary),
                       Bool(con && con->nulls_not_distinct), Bool(primary),
                       Bool(false), Bool(true), Bool(false), Bool(true),
                       Bool(false), Bool(true), Bool(true), Bool(false),
                       IntVector(AttNums(t, x.columns), false), kNull, kNull});
    }
  }
}

void DescriptionRows(const Source& s, std::vector<Row>* rows) {
  auto add = [&](uint32_t oid, uint32_t classoid, int sub,
                 const std::string& text) {
    if (!text.empty())
      rows->push_back({Int(oid), Int(classoid), Int(sub), Text(text)});
  };
  const auto& cat = *s.cat;
  for (const auto& [key, t] : cat.tables()) {
    add(t.oid, kPgClassOid, 0, t.comment);
    for (const auto& [col, text] : t.column_comments)
      add(t.oid, kPgClassOid, t.ColumnIndex(col) + 1, text);
    for (const auto& x : t.indexes) add(x.oid, kPgClassOid, 0, x.comment);
  }
  for (const auto& [key, v] : cat.views())
    add(v.oid, kPgClassOid, 0, v.comment);
  for (const auto& [key, q] : cat.sequences())
    add(q.oid, kPgClassOid, 0, q.comment);
  for (const auto& [name, sc] : cat.schemas())
    add(NamespaceOid(cat, name), kPgNamespaceOid, 0, sc.comment);
  for (const auto& [key, ty] : cat.types())
    add(ty.oid, kPgTypeOid, 0, ty.comment);
}

void AttributeRows(const Source& s, std::vector<Row>* rows) {
  auto add = [&](uint32_t rel, const std::string& name, uint32_t type,
                 int32_t typmod, int num, bool not_null, bool has_def,
                 char identity) {
    const types::TypeInfo* info = types::LookupType(type);
    rows->push_back({Int(rel),
                     Text(name),
                     Int(type),
                     Int(-1),
                     Int(info ? info->length : -1),
                     Int(num),
                     Int(types::ArrayElementType(type) ? 1 : 0),
                     Int(typmod),
                     Bool(info && info->length > 0 && info->length <= 8),
                     Text(info && info->length > 0 ? "p" : "x"),
                     Text(""),
                     Bool(not_null),
                     Bool(has_def),
                     Bool(false),
                     Text(identity ? std::string(1, identity) : ""),
                     Text(""),
                     Bool(false),
                     Bool(true),
                     Int(0),
                     Int(Collation(type)),
                     kNull,
                     kNull});
  };
  for (const auto& [key, t] : s.cat->tables()) {
    for (size_t i = 0; i < t.columns.size(); i++) {
      const auto& c = t.columns[i];
      add(t.oid, c.name, c.type, c.typmod, static_cast<int>(i + 1), c.not_null,
          !c.default_expr.empty() && !c.identity, c.identity);
    }
    for (const auto& x : t.indexes)
      for (size_t i = 0; i < x.columns.size(); i++) {
        const catalog::Column* c = t.FindColumn(x.columns[i]);
        if (c)
          add(x.oid, c->name, c->type, c->typmod, static_cast<int>(i + 1),
              false, false, 0);
      }
  }
  for (const auto& [key, v] : s.cat->views())
    for (size_t i = 0; i < v.columns.size(); i++)
      add(v.oid, v.columns[i].name, v.columns[i].type, v.columns[i].typmod,
          static_cast<int>(i + 1), false, false, 0);
}

void AttrdefRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& [key, t] : s.cat->tables())
    for (size_t i = 0; i < t.columns.size(); i++) {
      const auto& c = t.columns[i];
      if (c.default_expr.empty() || c.identity) continue;
      rows->push_back({Int(ConstraintOid(t.oid, 60 + i)), Int(t.oid),
                       Int(static_cast<int>(i + 1)),
                       Text(DefaultExpression(c))});
    }
}

void ConstraintRows(const Source& s, std::vector<Row>* rows) {
  const auto& cat = *s.cat;
  for (const auto& [key, t] : cat.tables()) {
    for (size_t i = 0; i < t.constraints.size(); i++) {
      const auto& c = t.constraints[i];
      uint32_t index = 0;
      for (const auto& x : t.indexes)
        if (!x.constraint.empty() && x.constraint == c.name) index = x.oid;
      uint32_t ref = 0;
      std::vector<int> ref_keys;
      if (c.kind == 'f') {
        std::string rs = c.ref_table, rn = c.ref_table;
        size_t dot = rs.find('.');
        if (dot != std::string::npos) {
          rs = c.ref_table.substr(0, dot);
          rn = c.ref_table.substr(dot + 1);
        } else {
          rs = "public";
        }
        if (const catalog::Table* r = cat.FindTable(rs, rn)) {
          ref = r->oid;
          ref_keys = AttNums(*r, c.ref_columns);
          for (const auto& x : r->indexes)
            if (x.columns == c.ref_columns && !x.constraint.empty())
              index = x.oid;
        }
      }
      rows->push_back(
          {Int(ConstraintOid(t.oid, i)),
           Text(c.name),
           Int(NamespaceOid(cat, t.schema)),
           Text(std::string(1, c.kind)),
           Bool(false),
           Bool(false),
           Bool(true),
           Int(t.oid),
           Int(0),
           Int(index),
           Int(0),
           Int(ref),
           Text(c.kind == 'f' ? std::string(1, c.on_update) : " "),
           Text(c.kind == 'f' ? std::string(1, c.on_delete) : " "),
           Text(c.kind == 'f' ? "s" : " "),
           Bool(true),
           Int(0),
           Bool(false),
           c.columns.empty() ? kNull : IntVector(AttNums(t, c.columns), true),
           c.kind == 'f' ? IntVector(ref_keys, true) : kNull});
    }
  }
}

void SequenceRows(const Source& s, std::vector<Row>* rows) {
  // Start, bounds and increment live in the counter row (read at run
  // time, see AddSystemRelation); the rest is here.
  for (const auto& [key, q] : s.cat->sequences())
    rows->push_back({Int(q.oid), Int(q.type), Int(q.cache), Text(q.counter)});
}

void DependRows(const Source& s, std::vector<Row>* rows) {
  // A sequence owned by a column: 'a' for serial / OWNED BY, 'i' for
  // identity (what \d of a sequence shows as "Owned by").
  const auto& cat = *s.cat;
  for (const auto& [key, q] : cat.sequences()) {
    if (q.owned_table.empty()) continue;
    std::string ts = q.owned_table, tn;
    size_t dot = ts.find('.');
    if (dot == std::string::npos) continue;
    tn = ts.substr(dot + 1);
    ts = ts.substr(0, dot);
    const catalog::Table* t = cat.FindTable(ts, tn);
    if (!t) continue;
    const catalog::Column* c = t->FindColumn(q.owned_column);
    bool identity = c && c->identity;
    rows->push_back({Int(kPgClassOid), Int(q.oid), Int(0), Int(kPgClassOid),
                     Int(t->oid), Int(t->ColumnIndex(q.owned_column) + 1),
                     Text(identity ? "i" : "a")});
  }
}

void TypeRows(const Source& s, std::vector<Row>* rows) {
  static const uint32_t kBuiltins[] = {
      oid::kBool,        oid::kBytea,    oid::kName,    oid::kInt8,
      oid::kInt2,        oid::kInt4,     oid::kText,    oid::kOid,
      oid::kJson,        oid::kFloat4,   oid::kFloat8,  oid::kBpchar,
      oid::kVarchar,     oid::kDate,     oid::kTime,    oid::kTimestamp,
      oid::kTimestamptz, oid::kInterval, oid::kNumeric, oid::kUuid,
      oid::kJsonb};
  auto add = [&](uint32_t oid, const std::string& name, uint32_t nsp,
                 uint32_t owner, int len, char type, char category,
                 uint32_t element, uint32_t array, uint32_t base,
                 int32_t typmod, bool not_null) {
    rows->push_back({Int(oid), Text(name), Int(nsp), Int(owner), Int(len),
                     Bool(len > 0 && len <= 8), Text(std::string(1, type)),
                     Text(std::string(1, category)), Bool(true), Text(","),
                     Int(0), Int(element), Int(array), Bool(not_null),
                     Int(base), Int(typmod), Int(0),
                     Int(Collation(base ? base : oid))});
  };
  for (uint32_t t : kBuiltins) {
    const types::TypeInfo* info = types::LookupType(t);
    if (!info) continue;
    add(t, info->name, kPgCatalogNamespace, kBootstrapSuperuser, info->length,
        'b', info->category, 0, info->array_oid, 0, -1, false);
    if (const types::TypeInfo* a = types::LookupType(info->array_oid))
      add(a->oid, a->name, kPgCatalogNamespace, kBootstrapSuperuser, -1, 'b',
          'A', t, 0, 0, -1, false);
  }
  for (const auto& [key, ty] : s.cat->types()) {
    uint32_t nsp = NamespaceOid(*s.cat, ty.schema);
    bool domain = ty.kind == 'd';
    add(ty.oid, ty.name, nsp, OwnerOid(ty.owner), domain ? -1 : 4,
        domain ? 'd' : 'e', domain ? 'U' : 'E', 0, ty.array_oid,
        domain ? ty.base_type : 0, domain ? ty.base_typmod : -1,
        domain && ty.not_null);
    if (ty.array_oid)
      add(ty.array_oid, "_" + ty.name, nsp, OwnerOid(ty.owner), -1, 'b', 'A',
          ty.oid, 0, 0, -1, false);
  }
}

void CollationRows(const Source&, std::vector<Row>* rows) {
  rows->push_back({Int(100), Text("default"), Int(kPgCatalogNamespace),
                   Int(kBootstrapSuperuser), Text("d"), Bool(true), Int(-1),
                   kNull, kNull});
  rows->push_back({Int(950), Text("C"), Int(kPgCatalogNamespace),
                   Int(kBootstrapSuperuser), Text("c"), Bool(true), Int(-1),
                   Text("C"), Text("C")});
  rows->push_back({Int(951), Text("POSIX"), Int(kPgCatalogNamespace),
                   Int(kBootstrapSuperuser), Text("c"), Bool(true), Int(-1),
                   Text("POSIX"), Text("POSIX")});
}

void TablespaceRows(const Source&, std::vector<Row>* rows) {
  rows->push_back(
      {Int(1663), Text("pg_default"), Int(kBootstrapSuperuser), kNull, kNull});
  rows->push_back(
      {Int(1664), Text("pg_global"), Int(kBootstrapSuperuser), kNull, kNull});
}

// information_schema.tables: the tables and views of the database.
void InfoTableRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  auto add = [&](const std::string& schema, const std::string& name,
                 const char* type, bool insertable) {
    rows->push_back({Text(db), Text(schema), Text(name), Text(type), kNull,
                     kNull, kNull, kNull, kNull,
                     Text(insertable ? "YES" : "NO"), Text("NO"), kNull});
  };
  for (const auto& [key, t] : s.cat->tables())
    add(t.schema, t.name,
        Persistence(s, t.schema) == 't' ? "LOCAL TEMPORARY" : "BASE TABLE",
        true);
  // Kova's views are read-only.
  for (const auto& [key, v] : s.cat->views())
    add(v.schema, v.name, "VIEW", false);
}

// information_schema.columns (PostgreSQL's view definition, for the types
// Kova has).
void InfoColumnRows(const Source& s, std::vector<Row>* rows,
                    const std::string& counters) {
  const std::string db = s.cat->db();
  auto add = [&](const std::string& schema, const std::string& rel, int pos,
                 const std::string& name, uint32_t declared, int32_t typmod,
                 const catalog::Column* col, bool updatable) {
    int32_t base_typmod = typmod;
    uint32_t type = user_types::BaseType(declared, &base_typmod);
    if (type != declared) typmod = base_typmod;
    const catalog::UserType* domain =
        type != declared ? user_types::Find(declared) : nullptr;
    const catalog::UserType* user = user_types::Find(type);
    const types::TypeInfo* info = types::LookupType(type);
    bool array = types::ArrayElementType(type) != 0;
    std::string data_type = array  ? "ARRAY"
                            : user ? "USER-DEFINED"
                            : type == oid::kBpchar
                                ? "character"
                                : types::FormatTypeName(type, -1);
    std::string char_max = kNull, char_octets = kNull;
    if (type == oid::kVarchar || type == oid::kBpchar || type == oid::kText) {
      if (typmod >= 4 && type != oid::kText) {
        char_max = Int(typmod - 4);
        char_octets = Int((typmod - 4) * 4);
      } else {
        char_octets = Int(1073741824);
      }
    }
    std::string precision = kNull, radix = kNull, scale = kNull;
    switch (type) {
      case oid::kInt2:
        precision = "16", radix = "2", scale = "0";
        break;
      case oid::kInt4:
        precision = "32", radix = "2", scale = "0";
        break;
      case oid::kInt8:
        precision = "64", radix = "2", scale = "0";
        break;
      case oid::kFloat4:
        precision = "24", radix = "2";
        break;
      case oid::kFloat8:
        precision = "53", radix = "2";
        break;
      case oid::kNumeric:
        radix = "10";
        if (typmod >= 4) {
          precision = Int(((typmod - 4) >> 16) & 0xffff);
          scale = Int((typmod - 4) & 0xffff);
        }
        break;
      default:
        break;
    }
    std::string dt_precision = kNull;
    if (type == oid::kDate) dt_precision = "0";
    if (type == oid::kTime || type == oid::kTimestamp ||
        type == oid::kTimestamptz || type == oid::kInterval)
      dt_precision = Int(typmod >= 0 && type != oid::kInterval ? typmod : 6);
    std::string udt_schema = "pg_catalog", udt_name = info ? info->name : "";
    if (user) {
      udt_schema = user->schema;
      udt_name = user->name;
    }
    bool identity = col && col->identity;
    const catalog::Sequence* seq = nullptr;
    if (identity)
      for (const auto& [k, q] : s.cat->sequences())
        if (q.counter == col->counter) seq = &q;
    auto counter = [&](const std::string& field, const std::string& dflt) {
      if (!seq || counters.empty()) return kNull;
      return "(SELECT CAST(coalesce(kova_get(doc, '" + field + "'), " + dflt +
             ") AS TEXT) FROM " + counters +
             " WHERE kid = " + Text(seq->counter) + ")";
    };
    std::string type_max = !seq                      ? "0"
                           : seq->type == oid::kInt2 ? "32767"
                           : seq->type == oid::kInt4 ? "2147483647"
                                                     : "9223372036854775807";
    std::string inc = "coalesce(kova_get(doc, 'increment'), 1)";
    rows->push_back(
        {Text(db),
         Text(schema),
         Text(rel),
         Text(name),
         Int(pos),
         col && !col->default_expr.empty() && !col->identity
             ? Text(DefaultExpression(*col))
             : kNull,
         Text(col && col->not_null ? "NO" : "YES"),
         Text(data_type),
         char_max,
         char_octets,
         precision,
         radix,
         scale,
         dt_precision,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         domain ? Text(db) : kNull,
         domain ? Text(domain->schema) : kNull,
         domain ? Text(domain->name) : kNull,
         Text(db),
         Text(udt_schema),
         Text(udt_name),
         kNull,
         kNull,
         kNull,
         kNull,
         Text(std::to_string(pos)),
         Text("NO"),
         Text(identity ? "YES" : "NO"),
         identity ? Text(col->identity == 'a' ? "ALWAYS" : "BY DEFAULT")
                  : kNull,
         counter("start", "CASE WHEN " + inc +
                              " > 0 THEN coalesce(kova_get(doc, 'min'), 1) "
                              "ELSE coalesce(kova_get(doc, 'max'), -1) END"),
         counter("increment", "1"),
         counter("max",
                 "CASE WHEN " + inc + " > 0 THEN " + type_max + " ELSE -1 END"),
         counter("min", "CASE WHEN " + inc + " > 0 THEN 1 ELSE -" + type_max +
                            " - 1 END"),
         identity ? "(SELECT CASE WHEN coalesce(kova_get(doc, 'cycle'), 0) "
                    "THEN 'YES' ELSE 'NO' END FROM " +
                        counters + " WHERE kid = " + Text(col->counter) + ")"
                  : Text("NO"),
         Text("NEVER"),
         kNull,
         Text(updatable ? "YES" : "NO")});
  };
  for (const auto& [key, t] : s.cat->tables())
    for (size_t i = 0; i < t.columns.size(); i++)
      add(t.schema, t.name, static_cast<int>(i + 1), t.columns[i].name,
          t.columns[i].type, t.columns[i].typmod, &t.columns[i], true);
  for (const auto& [key, v] : s.cat->views())
    for (size_t i = 0; i < v.columns.size(); i++)
      add(v.schema, v.name, static_cast<int>(i + 1), v.columns[i].name,
          v.columns[i].type, v.columns[i].typmod, nullptr, false);
}

struct Relation {
  const char* name;
  uint32_t oid;  // pg_class OID of the catalog (RowDescription), 0: a view
  std::vector<Col> cols;
  std::function<void(const Source&, std::vector<Row>*)> rows;
  bool cluster = false;  // reads roles or databases
};

const std::vector<Relation>& Relations() {
  static const std::vector<Relation> rels = {
      {"pg_class",
       1259,
       {{"oid", O},
        {"relname", N},
        {"relnamespace", O},
        {"reltype", O},
        {"reloftype", O},
        {"relowner", O},
        {"relam", O},
        {"relfilenode", O},
        {"reltablespace", O},
        {"relpages", I4},
        {"reltuples", F4},
        {"relallvisible", I4},
        {"reltoastrelid", O},
        {"relhasindex", B},
        {"relisshared", B},
        {"relpersistence", T},
        {"relkind", T},
        {"relnatts", I2},
        {"relchecks", I2},
        {"relhasrules", B},
        {"relhastriggers", B},
        {"relhassubclass", B},
        {"relrowsecurity", B},
        {"relforcerowsecurity", B},
        {"relispopulated", B},
        {"relreplident", T},
        {"relispartition", B},
        {"relrewrite", O},
        {"relacl", TA},
        {"reloptions", TA},
        {"relpartbound", T}},
       ClassRows},
      {"pg_namespace",
       2615,
       {{"oid", O}, {"nspname", N}, {"nspowner", O}, {"nspacl", TA}},
       NamespaceRows},
      {"pg_am",
       2601,
       {{"oid", O}, {"amname", N}, {"amhandler", T}, {"amtype", T}},
       AmRows},
      {"pg_database",
       1262,
       {{"oid", O},
        {"datname", N},
        {"datdba", O},
        {"encoding", I4},
        {"datlocprovider", T},
        {"datistemplate", B},
        {"datallowconn", B},
        {"datconnlimit", I4},
        {"dattablespace", O},
        {"datcollate", T},
        {"datctype", T},
        {"daticulocale", T},
        {"datcollversion", T},
        {"datacl", TA}},
       DatabaseRows,
       true},
      {"pg_roles",
       0,
       {{"oid", O},
        {"rolname", N},
        {"rolsuper", B},
        {"rolinherit", B},
        {"rolcreaterole", B},
        {"rolcreatedb", B},
        {"rolcanlogin", B},
        {"rolreplication", B},
        {"rolbypassrls", B},
        {"rolconnlimit", I4},
        {"rolpassword", T},
        {"rolvaliduntil", TZ},
        {"rolconfig", TA}},
       [](const Source& s, std::vector<Row>* r) { RoleRows(s, r, false); },
       true},
      {"pg_authid",
       1260,
       {{"oid", O},
        {"rolname", N},
        {"rolsuper", B},
        {"rolinherit", B},
        {"rolcreaterole", B},
        {"rolcreatedb", B},
        {"rolcanlogin", B},
        {"rolreplication", B},
        {"rolbypassrls", B},
        {"rolconnlimit", I4},
        {"rolpassword", T},
        {"rolvaliduntil", TZ}},
       [](const Source& s, std::vector<Row>* r) { RoleRows(s, r, true); },
       true},
      {"pg_auth_members",
       1261,
       {{"roleid", O}, {"member", O}, {"grantor", O}, {"admin_option", B}},
       nullptr},
      {"pg_index",
       2610,
       {{"indexrelid", O},
        {"indrelid", O},
        {"indnatts", I2},
        {"indnkeyatts", I2},
        {"indisunique", B},
        {"indnullsnotdistinct", B},
        {"indisprimary", B},
        {"indisexclusion", B},
        {"indimmediate", B},
        {"indisclustered", B},
        {"indisvalid", B},
        {"indcheckxmin", B},
        {"indisready", B},
        {"indislive", B},
        {"indisreplident", B},
        {"indkey", T},
        {"indexprs", T},
        {"indpred", T}},
       IndexRows},
      {"pg_description",
       2609,
       {{"objoid", O}, {"classoid", O}, {"objsubid", I4}, {"description", T}},
       DescriptionRows},
      {"pg_attribute",
       1249,
       {{"attrelid", O},       {"attname", N},        {"atttypid", O},
        {"attstattarget", I4}, {"attlen", I2},        {"attnum", I2},
        {"attndims", I4},      {"atttypmod", I4},     {"attbyval", B},
        {"attstorage", T},     {"attcompression", T}, {"attnotnull", B},
        {"atthasdef", B},      {"atthasmissing", B},  {"attidentity", T},
        {"attgenerated", T},   {"attisdropped", B},   {"attislocal", B},
        {"attinhcount", I4},   {"attcollation", O},   {"attacl", TA},
        {"attoptions", TA}},
       AttributeRows},
      {"pg_attrdef",
       2604,
       {{"oid", O}, {"adrelid", O}, {"adnum", I2}, {"adbin", T}},
       AttrdefRows},
      {"pg_constraint",
       2606,
       {{"oid", O},          {"conname", N},       {"connamespace", O},
        {"contype", T},      {"condeferrable", B}, {"condeferred", B},
        {"convalidated", B}, {"conrelid", O},      {"contypid", O},
        {"conindid", O},     {"conparentid", O},   {"confrelid", O},
        {"confupdtype", T},  {"confdeltype", T},   {"confmatchtype", T},
        {"conislocal", B},   {"coninhcount", I4},  {"connoinherit", B},
        {"conkey", I2A},     {"confkey", I2A}},
       ConstraintRows},
      {"pg_sequence",
       2224,
       {{"seqrelid", O},
        {"seqtypid", O},
        {"seqstart", I8},
        {"seqincrement", I8},
        {"seqmax", I8},
        {"seqmin", I8},
        {"seqcache", I8},
        {"seqcycle", B}},
       SequenceRows},
      {"pg_depend",
       2608,
       {{"classid", O},
        {"objid", O},
        {"objsubid", I4},
        {"refclassid", O},
        {"refobjid", O},
        {"refobjsubid", I4},
        {"deptype", T}},
       DependRows},
      {"pg_type",
       1247,
       {{"oid", O},
        {"typname", N},
        {"typnamespace", O},
        {"typowner", O},
        {"typlen", I2},
        {"typbyval", B},
        {"typtype", T},
        {"typcategory", T},
        {"typisdefined", B},
        {"typdelim", T},
        {"typrelid", O},
        {"typelem", O},
        {"typarray", O},
        {"typnotnull", B},
        {"typbasetype", O},
        {"typtypmod", I4},
        {"typndims", I4},
        {"typcollation", O}},
       TypeRows},
      {"pg_collation",
       3456,
       {{"oid", O},
        {"collname", N},
        {"collnamespace", O},
        {"collowner", O},
        {"collprovider", T},
        {"collisdeterministic", B},
        {"collencoding", I4},
        {"collcollate", T},
        {"collctype", T}},
       CollationRows},
      {"pg_tablespace",
       1213,
       {{"oid", O},
        {"spcname", N},
        {"spcowner", O},
        {"spcacl", TA},
        {"spcoptions", TA}},
       TablespaceRows},
      // Relations Kova has no rows for (no inheritance, triggers, policies,
      // extended statistics or publications).
      {"pg_inherits",
       2611,
       {{"inhrelid", O},
        {"inhparent", O},
        {"inhseqno", I4},
        {"inhdetachpending", B}},
       nullptr},
      {"pg_trigger",
       2620,
       {{"oid", O},
        {"tgrelid", O},
        {"tgparentid", O},
        {"tgname", N},
        {"tgfoid", O},
        {"tgtype", I2},
        {"tgenabled", T},
        {"tgisinternal", B},
        {"tgconstrrelid", O},
        {"tgconstrindid", O},
        {"tgconstraint", O},
        {"tgdeferrable", B},
        {"tginitdeferred", B},
        {"tgnargs", I2}},
       nullptr},
      {"pg_policy",
       3256,
       {{"oid", O},
        {"polname", N},
        {"polrelid", O},
        {"polcmd", T},
        {"polpermissive", B},
        {"polroles", 1028},
        {"polqual", T},
        {"polwithcheck", T}},
       nullptr},
      {"pg_rewrite",
       2618,
       {{"oid", O},
        {"rulename", N},
        {"ev_class", O},
        {"ev_type", T},
        {"ev_enabled", T},
        {"is_instead", B}},
       nullptr},
      {"pg_statistic_ext",
       3381,
       {{"oid", O},
        {"stxrelid", O},
        {"stxname", N},
        {"stxnamespace", O},
        {"stxowner", O},
        {"stxstattarget", I4},
        {"stxkeys", T},
        {"stxkind", TA}},
       nullptr},
      {"pg_publication",
       6104,
       {{"oid", O},
        {"pubname", N},
        {"pubowner", O},
        {"puballtables", B},
        {"pubinsert", B},
        {"pubupdate", B},
        {"pubdelete", B},
        {"pubtruncate", B},
        {"pubviaroot", B}},
       nullptr},
      {"pg_publication_rel",
       6106,
       {{"oid", O},
        {"prpubid", O},
        {"prrelid", O},
        {"prqual", T},
        {"prattrs", I2A}},
       nullptr},
      {"pg_publication_namespace",
       6237,
       {{"oid", O}, {"pnpubid", O}, {"pnnspid", O}},
       nullptr},
      {"pg_extension",
       3079,
       {{"oid", O},
        {"extname", N},
        {"extowner", O},
        {"extnamespace", O},
        {"extrelocatable", B},
        {"extversion", T}},
       nullptr},
  };
  return rels;
}

const std::vector<Relation>& InfoRelations() {
  static const std::vector<Relation> rels = {
      {"tables",
       0,
       {{"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"table_type", T},
        {"self_referencing_column_name", N},
        {"reference_generation", T},
        {"user_defined_type_catalog", N},
        {"user_defined_type_schema", N},
        {"user_defined_type_name", N},
        {"is_insertable_into", T},
        {"is_typed", T},
        {"commit_action", T}},
       InfoTableRows},
      {"columns",
       0,
       {{"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"column_name", N},
        {"ordinal_position", I4},
        {"column_default", T},
        {"is_nullable", T},
        {"data_type", T},
        {"character_maximum_length", I4},
        {"character_octet_length", I4},
        {"numeric_precision", I4},
        {"numeric_precision_radix", I4},
        {"numeric_scale", I4},
        {"datetime_precision", I4},
        {"interval_type", T},
        {"interval_precision", I4},
        {"character_set_catalog", N},
        {"character_set_schema", N},
        {"character_set_name", N},
        {"collation_catalog", N},
        {"collation_schema", N},
        {"collation_name", N},
        {"domain_catalog", N},
        {"domain_schema", N},
        {"domain_name", N},
        {"udt_catalog", N},
        {"udt_schema", N},
        {"udt_name", N},
        {"scope_catalog", N},
        {"scope_schema", N},
        {"scope_name", N},
        {"maximum_cardinality", I4},
        {"dtd_identifier", N},
        {"is_self_referencing", T},
        {"is_identity", T},
        {"identity_generation", T},
        {"identity_start", T},
        {"identity_increment", T},
        {"identity_maximum", T},
        {"identity_minimum", T},
        {"identity_cycle", T},
        {"is_generated", T},
        {"generation_expression", T},
        {"is_updatable", T}},
       nullptr},
  };
  return rels;
}

const Relation* Find(std::string_view name) {
  for (const auto& r : Relations())
    if (name == r.name) return &r;
  return nullptr;
}

const Relation* FindInfo(std::string_view name) {
  for (const auto& r : InfoRelations())
    if (name == r.name) return &r;
  return nullptr;
}

}  // namespace

bool IsSystemRelation(std::string_view name) { return Find(name) != nullptr; }

}  // namespace system_catalog

bool QueryCompiler::AddSystemRelation(const PgQuery__RangeVar* rv,
                                      std::string* sql, PgError* error) {
  using namespace system_catalog;
  error->sqlstate.clear();
  std::string_view schema = rv->schemaname ? rv->schemaname : "";
  const Relation* rel = schema == "information_schema" ? FindInfo(rv->relname)
                                                       : Find(rv->relname);
  if (!rel) return false;
  if (schema == "information_schema") {
    // Not in any search path: only ever named with its schema.
  } else if (!schema.empty()) {
    if (schema != "pg_catalog") return false;
  } else {
    // pg_catalog is searched first unless search_path names it later.
    const auto& path = context_->search_path;
    if (std::find(path.begin(), path.end(), "pg_catalog") != path.end()) {
      for (const auto& s : path) {
        if (s == "pg_catalog") break;
        if (context_->catalog->RelationExists(s, rv->relname)) return false;
      }
    }
  }
  Source src;
  src.cat = context_->catalog.get();
  src.temp_schema = context_->temp_schema;
  std::vector<ClusterRole> roles;
  std::vector<ClusterDatabase> databases;
  if (rel->cluster) {
    if (context_->cluster) context_->cluster(&roles, &databases);
    for (QueryCompiler* c = this; c; c = c->parent_)
      if (c->out_) c->out_->no_cache = true;
  }
  src.roles = &roles;
  src.databases = &databases;
  std::vector<Row> rows;
  if (rel->rows) rel->rows(src, &rows);
  if (std::string_view(rel->name) == "columns") {
    std::string counters;
    if (!context_->collection_table("admin.counters", &counters, error))
      return false;
    InfoColumnRows(src, &rows, counters);
  }
  size_t ncols =
      std::string_view(rel->name) == "pg_sequence" ? 4 : rel->cols.size();
  std::string inner;
  if (rows.empty()) {
    inner = "SELECT ";
    for (size_t i = 0; i < ncols; i++)
      inner += (i ? ", NULL AS c" : "NULL AS c") + std::to_string(i);
    inner += " WHERE 0";
  } else {
    inner = "SELECT ";
    for (size_t i = 0; i < ncols; i++)
      inner += (i ? ", column" : "column") + std::to_string(i + 1) + " AS c" +
               std::to_string(i);
    inner += " FROM (VALUES ";
    for (size_t r = 0; r < rows.size(); r++) {
      inner += r ? ", (" : "(";
      for (size_t i = 0; i < rows[r].size(); i++)
        inner += (i ? ", " : "") + rows[r][i];
      inner += ")";
    }
    inner += ")";
  }
  if (ncols != rel->cols.size()) {
    // pg_sequence: the options of the sequence's counter row, with
    // PostgreSQL's defaults for those it leaves out.
    std::string counters;
    if (!context_->collection_table("admin.counters", &counters, error))
      return false;
    std::string inc = "coalesce(kova_get(k.doc, 'increment'), 1)";
    std::string type_max =
        "CASE v.c1 WHEN 21 THEN 32767 WHEN 23 THEN 2147483647 ELSE "
        "9223372036854775807 END";
    std::string type_min =
        "CASE v.c1 WHEN 21 THEN -32768 WHEN 23 THEN -2147483648 ELSE "
        "-9223372036854775807 - 1 END";
    std::string min = "coalesce(kova_get(k.doc, 'min'), CASE WHEN " + inc +
                      " > 0 THEN 1 ELSE " + type_min + " END)";
    std::string max = "coalesce(kova_get(k.doc, 'max'), CASE WHEN " + inc +
                      " > 0 THEN " + type_max + " ELSE -1 END)";
    inner =
        "SELECT v.c0 AS c0, v.c1 AS c1, coalesce(kova_get(k.doc, "
        "'start'), CASE WHEN " +
        inc + " > 0 THEN " + min + " ELSE " + max + " END) AS c2, " + inc +
        " AS c3, " + max + " AS c4, " + min +
        " AS c5, v.c2 AS c6, coalesce(kova_get(k.doc, 'cycle'), 0) AS "
        "c7 FROM (" +
        inner + ") AS v LEFT JOIN " + counters + " AS k ON k.kid = v.c3";
  }
  std::string alias =
      rv->alias && rv->alias->aliasname ? rv->alias->aliasname : rv->relname;
  std::string sql_alias = NewAlias();
  RangeEntry entry;
  entry.alias = alias;
  entry.relname = rel->name;
  entry.sql_alias = sql_alias;
  entry.table_oid = rel->oid;
  for (size_t i = 0; i < rel->cols.size(); i++) {
    std::string col = sql_alias + ".c" + std::to_string(i);
    const char* coll = CollationOf(rel->cols[i].type);
    if (*coll) col = "(" + col + " COLLATE " + coll + ")";
    entry.columns.push_back({rel->cols[i].name, rel->cols[i].type, -1, col,
                             static_cast<int16_t>(rel->oid ? i + 1 : 0)});
  }
  if (rv->alias)
    for (size_t i = 0; i < rv->alias->n_colnames && i < entry.columns.size();
         i++)
      entry.columns[i].name = rv->alias->colnames[i]->string->sval;
  *sql = "(" + inner + ") AS " + sql_alias;
  entries_.push_back(std::move(entry));
  return true;
}

// pg_partition_ancestors(rel) in FROM: Kova has no partitions, so the one
// row is the relation itself (depth 1 WITH ORDINALITY). relid is read as
// its OID, which is what the catalog queries join it with.
bool QueryCompiler::AddPartitionAncestorsItem(const PgQuery__RangeFunction* rf,
                                              const PgQuery__FuncCall* f,
                                              std::string* sql,
                                              PgError* error) {
  if (f->n_args != 1 || rf->lateral || rf->n_coldeflist > 0) {
    *error = Err("0A000",
                 "this form of pg_partition_ancestors() in FROM is not "
                 "supported yet",
                 f->location);
    return false;
  }
  std::unique_ptr<Expr> arg;
  if (!analyzer_.Analyze(f->args[0], &arg, error) ||
      !analyzer_.Coerce(&arg, oid::kOid, -1, error))
    return false;
  if (arg->type != oid::kOid) {
    *error = Err("42883",
                 "function pg_partition_ancestors(" + TypeName(arg->type) +
                     ") does not exist",
                 f->location);
    return false;
  }
  std::string value = Emit(*arg);
  if (emit_failed_) {
    *error = emit_error_;
    return false;
  }
  RangeEntry entry;
  entry.alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname
                                                  : "pg_partition_ancestors";
  entry.sql_alias = NewAlias();
  std::vector<std::string> names = {"relid", "ordinality"};
  if (!rf->alias || rf->alias->n_colnames == 0) names[0] = entry.alias;
  if (rf->alias)
    for (size_t i = 0; i < rf->alias->n_colnames && i < 2; i++)
      names[i] = rf->alias->colnames[i]->string->sval;
  entry.columns.push_back({names[0], oid::kOid, -1, "(" + value + ")", 0});
  if (rf->ordinality)
    entry.columns.push_back(
        {names[1], oid::kInt8, -1, entry.sql_alias + ".c0", 0});
  *sql = "(SELECT 1 AS c0) AS " + entry.sql_alias;
  entries_.push_back(std::move(entry));
  return true;
}

}  // namespace kova::planner
