// Rows of the pg_catalog relations that describe relations, columns,
// constraints and dependencies, from the in-memory catalog.
#include <algorithm>
#include <set>

#include "planner/index_expr.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner::system_catalog {

namespace {

// pg_type.typalign for a type of this length.
char Alignment(int length) {
  switch (length) {
    case 1:
      return 'c';
    case 2:
      return 's';
    case 8:
      return 'd';
    default:
      return 'i';
  }
}

}  // namespace

uint32_t AttrdefOid(const catalog::Table& t, size_t column) {
  return ConstraintOid(t.oid, 1024 + column);
}

const catalog::Sequence* DefaultSequence(const catalog::Catalog& cat,
                                         const catalog::Table& t,
                                         const catalog::Column& c) {
  size_t open = c.default_expr.find("nextval('");
  if (open == std::string::npos) return nullptr;
  size_t dot = c.sequence.find('.');
  if (dot != std::string::npos)
    return cat.FindSequence(c.sequence.substr(0, dot),
                            c.sequence.substr(dot + 1));
  // A column drawing from another column's sequence: the name written,
  // looked up in the table's schema, then public.
  size_t start = open + 9, end = c.default_expr.find('\'', start);
  if (end == std::string::npos) return nullptr;
  std::string written = c.default_expr.substr(start, end - start);
  dot = written.find('.');
  if (dot != std::string::npos)
    return cat.FindSequence(written.substr(0, dot), written.substr(dot + 1));
  if (const catalog::Sequence* q = cat.FindSequence(t.schema, written))
    return q;
  return cat.FindSequence("public", written);
}

std::vector<std::vector<std::string>> SplitLines(const std::string& lines) {
  std::vector<std::vector<std::string>> out;
  size_t start = 0;
  while (start < lines.size()) {
    size_t end = lines.find('\n', start);
    if (end == std::string::npos) end = lines.size();
    std::vector<std::string> f;
    size_t p = start;
    while (p <= end) {
      size_t tab = lines.find('\t', p);
      if (tab == std::string::npos || tab > end) tab = end;
      f.push_back(lines.substr(p, tab - p));
      p = tab + 1;
    }
    start = end + 1;
    out.push_back(std::move(f));
  }
  return out;
}

void ParseGrants(const std::string& lines, std::map<std::string, Grants>* out) {
  // kind \t schema \t name \t grantee \t priv \t priv ...
  for (const auto& f : SplitLines(lines)) {
    if (f.size() < 4) continue;
    (*out)[f[0] + ":" + f[1] + "." + f[2]].push_back(
        {f[3], std::vector<std::string>(f.begin() + 4, f.end())});
  }
}

namespace {

std::string AclRole(const std::string& role) {
  return role == "PUBLIC" ? "" : QuoteAclRole(role);
}

}  // namespace

std::string AclText(const Source& s, const std::string& key,
                    const std::string& owner, const char* owner_privs,
                    const std::string& default_acl) {
  auto it = s.grants.find(key);
  if (it == s.grants.end())
    return default_acl.empty() ? kNull : Text("{" + default_acl + "}");
  // A grant as the owner makes it (a superuser's GRANT is recorded with
  // the owner as grantor, as PostgreSQL does).
  std::string grantor = AclRole(owner.empty() ? "postgres" : owner);
  std::string acl = default_acl.empty()
                        ? grantor + "=" + owner_privs + "/" + grantor
                        : default_acl;
  for (const auto& [grantee, privs] : it->second) {
    // Each letter followed by "*" when its grant option is held too.
    std::string letters;
    for (const auto& p : privs) {
      if (p.size() != 1) continue;
      letters += p;
      if (std::find(privs.begin(), privs.end(), p + "*") != privs.end())
        letters += '*';
    }
    if (letters.empty() || AclRole(grantee) == grantor) continue;
    acl += "," + AclRole(grantee) + "=" + letters + "/" + grantor;
  }
  return Text("{" + acl + "}");
}

std::string ColumnAclText(const Source& s, const std::string& key,
                          const std::string& owner, const std::string& column) {
  auto it = s.grants.find(key);
  if (it == s.grants.end()) return kNull;
  std::string grantor = AclRole(owner.empty() ? "postgres" : owner), acl;
  for (const auto& [grantee, privs] : it->second) {
    std::string letters;
    for (const auto& p : privs) {
      // "w(a,b)": letter w on columns a and b ("w(a,b)*": its grant option,
      // shown after the letter).
      if (p.size() < 4 || p[1] != '(' || p.back() != ')') continue;
      bool option =
          std::find(privs.begin(), privs.end(), p + "*") != privs.end();
      std::string cols = p.substr(2, p.size() - 3);
      size_t b = 0;
      while (b <= cols.size()) {
        size_t e = cols.find(',', b);
        if (e == std::string::npos) e = cols.size();
        if (cols.substr(b, e - b) == column) {
          letters += p[0];
          if (option) letters += '*';
        }
        b = e + 1;
      }
    }
    if (!letters.empty())
      acl += (acl.empty() ? "" : ",") + AclRole(grantee) + "=" + letters + "/" +
             grantor;
  }
  return acl.empty() ? kNull : Text("{" + acl + "}");
}

bool IsCounterIndex(const catalog::Table& t, const catalog::Index& x) {
  if (!x.unique || !x.constraint.empty() || x.columns.size() != 1) return false;
  const catalog::Column* c = t.FindColumn(x.columns[0]);
  return c && !c->counter.empty() &&
         x.name.rfind(t.name + "_" + c->name + "_key", 0) == 0;
}

int TypeLength(uint32_t type) {
  if (const catalog::UserType* u = user_types::Find(type)) {
    if (u->kind == 'e') return 4;
    if (u->kind == 'd') return TypeLength(u->base_type);
    return -1;
  }
  const types::TypeInfo* info = types::LookupType(type);
  return info ? info->length : -1;
}

char Storage(uint32_t type) {
  if (user_types::BaseType(type) == oid::kNumeric) return 'm';
  return TypeLength(type) > 0 ? 'p' : 'x';
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
                 uint32_t am, int natts, int checks, bool has_index,
                 const std::vector<std::string>& reloptions = {},
                 char replica_identity = 'd', bool unlogged = false) {
    rows->push_back(
        {Int(oid),
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
         Text(std::string(1, unlogged ? 'u' : Persistence(s, schema))),
         Text(std::string(1, kind)),
         Int(natts),
         Int(checks),
         Bool(false),
         Bool(has_triggers),
         Bool(false),
         Bool(false),
         Bool(false),
         Bool(true),
         Text(std::string(1, kind == 'r' ? replica_identity : 'n')),
         Bool(false),
         Int(0),
         kind == 'r' || kind == 'v'
             ? AclText(s, "table:" + schema + "." + name, owner, "arwdDxt")
         : kind == 'S'
             ? AclText(s, "sequence:" + schema + "." + name, owner, "rwU")
             : kNull,
         TextArray(reloptions),
         kNull,
         Int(0),
         Int(0)});
  };
  for (const auto& [key, t] : cat.tables()) {
    int checks = 0;
    for (const auto& c : t.constraints) checks += c.kind == 'c';
    has_triggers = fk_tables.count(t.schema + "." + t.name) > 0;
    bool has_index = false;
    for (const auto& x : t.indexes) has_index |= !IsCounterIndex(t, x);
    add(t.oid, t.name, t.schema, t.owner, 'r', kHeapAm,
        static_cast<int>(t.columns.size()), checks, has_index, t.reloptions,
        t.replica_identity, t.unlogged);
    has_triggers = false;
    for (const auto& x : t.indexes)
      if (!IsCounterIndex(t, x))
        add(x.oid, x.name, t.schema, t.owner, 'i',
            IndexMethod(x) == "hash" ? kHashAm : kBtreeAm,
            static_cast<int>(x.columns.size()), 0, false, x.reloptions, 'd',
            t.unlogged);
  }
  for (const auto& [key, v] : cat.views())
    add(v.oid, v.name, v.schema, v.owner, 'v', 0,
        static_cast<int>(v.columns.size()), 0, false);
  for (const auto& [key, q] : cat.sequences()) {
    // The sequences of an unlogged table are unlogged too (PostgreSQL 15).
    const catalog::Table* owner = nullptr;
    size_t dot = q.owned_table.find('.');
    if (dot != std::string::npos)
      owner = cat.FindTable(q.owned_table.substr(0, dot),
                            q.owned_table.substr(dot + 1));
    add(q.oid, q.name, q.schema, q.owner, 'S', 0, 3, 0, false, {}, 'd',
        owner && owner->unlogged);
  }
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
    // public's privileges as PostgreSQL 15 creates it (its owner's, and
    // USAGE for everyone).
    std::string acl =
        owner == kPgDatabaseOwner
            ? AclText(s, "schema:" + name + "." + name, "pg_database_owner",
                      "UC",
                      "pg_database_owner=UC/pg_database_owner,=U/"
                      "pg_database_owner")
            : AclText(s, "schema:" + name + "." + name, sc.owner, "UC");
    rows->push_back(
        {Int(NamespaceOid(*s.cat, name)), Text(name), Int(owner), acl});
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
                     Text("C.UTF-8"), Text("C.UTF-8"), kNull, kNull, kNull,
                     Int(0), Int(0)});
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

// pg_user: the roles that can log in, as pg_shadow shows them without the
// password.
void UserRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& r : *s.roles) {
    if (!r.login) continue;
    bool bootstrap = r.name == "postgres";
    rows->push_back({Text(r.name), Int(RoleOid(r.name)), Bool(bootstrap),
                     Bool(r.superuser), Bool(bootstrap), Bool(bootstrap),
                     Text("********"), kNull, kNull});
  }
}

// pg_index.indexprs: Kova keeps no node trees; the expressions' text (what
// pg_get_expr shows for it), NULL for an index of columns only.
std::string IndexExpressionsText(const catalog::Table& t,
                                 const catalog::Index& x) {
  std::string text;
  for (size_t i = 0; i < x.columns.size(); i++)
    if (!x.expression(i).empty())
      text += (text.empty() ? "" : ", ") +
              IndexColumnText(t, x.expression(i), /*pretty=*/false);
  return text.empty() ? kNull : Text(text);
}

void IndexRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& [key, t] : s.cat->tables()) {
    for (const auto& x : t.indexes) {
      if (IsCounterIndex(t, x)) continue;
      const catalog::Constraint* con = nullptr;
      for (const auto& c : t.constraints)
        if (c.name == x.constraint) con = &c;
      bool primary = con && con->kind == 'p';
      int n = static_cast<int>(x.columns.size());
      std::vector<int> collations;
      for (const auto& c : x.columns) {
        const catalog::Column* col = t.FindColumn(c);
        collations.push_back(col ? static_cast<int>(Collation(col->type)) : 0);
      }
      std::vector<int> options(x.columns.size(), 0);
      for (size_t i = 0; i < x.options.size() && i < options.size(); i++)
        options[i] = x.options[i];
      rows->push_back(
          {Int(x.oid),
           Int(t.oid),
           Int(n),
           Int(n),
           Bool(x.unique || primary),
           Bool(IndexNullsNotDistinct(t, x)),
           Bool(primary),
           Bool(false),
           Bool(!(con && con->deferrable)),
           Bool(x.clustered),
           Bool(true),
           Bool(false),
           Bool(true),
           Bool(true),
           Bool(x.replica_identity),
           IntVector(AttNums(t, x.columns), false),
           IndexExpressionsText(t, x),
           x.predicate.empty() ? kNull : Text(x.predicate),
           IntVector(options, false),
           IntVector(collations, false),
           IntVector(std::vector<int>(x.columns.size(), 0), false)});
    }
  }
}

void IndexesViewRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& [key, t] : s.cat->tables())
    for (const auto& x : t.indexes)
      if (!IsCounterIndex(t, x))
        rows->push_back({Text(t.schema), Text(t.name), Text(x.name), kNull,
                         Text(IndexDefinition(t, x))});
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
    add(NamespaceOid(cat, name), kPgNamespaceOid, 0,
        // initdb's comment on public, unless one was set.
        name == "public" && sc.comment.empty() ? "standard public schema"
                                               : sc.comment);
  for (const auto& [key, ty] : cat.types())
    add(ty.oid, kPgTypeOid, 0, ty.comment);
}

void AttributeRows(const Source& s, std::vector<Row>* rows) {
  auto add = [&](uint32_t rel, const std::string& name, uint32_t type,
                 int32_t typmod, int num, bool not_null, bool has_def,
                 char identity, const std::string& acl = kNull,
                 bool generated = false,
                 const catalog::Column* column = nullptr,
                 int stat_target = -1) {
    const types::TypeInfo* info = types::LookupType(type);
    char storage = column && column->storage ? column->storage : Storage(type);
    if (column) stat_target = column->stat_target;
    rows->push_back({Int(rel),
                     Text(name),
                     Int(type),
                     Int(stat_target),
                     Int(TypeLength(type)),
                     Int(num),
                     Int(types::ArrayElementType(type) ? 1 : 0),
                     Int(typmod),
                     Bool(info && info->length > 0 && info->length <= 8),
                     Text(std::string(1, storage)),
                     Text(column && column->compression
                              ? std::string(1, column->compression)
                              : ""),
                     Bool(not_null),
                     Bool(has_def),
                     Bool(false),
                     Text(identity ? std::string(1, identity) : ""),
                     Text(generated ? "s" : ""),
                     Bool(false),
                     Bool(true),
                     Int(0),
                     Int(Collation(type)),
                     acl,
                     column ? TextArray(column->attoptions) : kNull,
                     Text(std::string(1, Alignment(TypeLength(type)))),
                     kNull,
                     kNull});
  };
  for (const auto& [key, t] : s.cat->tables()) {
    for (size_t i = 0; i < t.columns.size(); i++) {
      const auto& c = t.columns[i];
      add(t.oid, c.name, c.type, c.typmod, static_cast<int>(i + 1), c.not_null,
          (!c.default_expr.empty() && !c.identity) || !c.generated_expr.empty(),
          c.identity,
          ColumnAclText(s, "table:" + t.schema + "." + t.name, t.owner, c.name),
          !c.generated_expr.empty(), &c);
    }
    for (const auto& x : t.indexes) {
      if (IsCounterIndex(t, x)) continue;
      std::vector<std::string> names;
      if (!x.expressions.empty()) names = IndexColumnNames(x);
      for (size_t i = 0; i < x.columns.size(); i++) {
        const catalog::Column* c = t.FindColumn(x.columns[i]);
        uint32_t type;
        int32_t typmod;
        if (c)
          add(x.oid, c->name, c->type, c->typmod, static_cast<int>(i + 1),
              false, false, 0);
        else if (!x.expression(i).empty() &&
                 IndexExpressionType(t, x.expression(i), &type, &typmod))
          add(x.oid, names[i], type, typmod, static_cast<int>(i + 1), false,
              false, 0, kNull, false, nullptr,
              i < x.stat_targets.size() ? x.stat_targets[i] : -1);
      }
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
      // A generation expression is kept as written: pg_get_expr shows it
      // as PostgreSQL deparses it, under the session's settings.
      if (!c.generated_expr.empty()) {
        rows->push_back({Int(AttrdefOid(t, i)), Int(t.oid),
                         Int(static_cast<int>(i + 1)), Text(c.generated_expr)});
        continue;
      }
      if (c.default_expr.empty() || c.identity) continue;
      rows->push_back({Int(AttrdefOid(t, i)), Int(t.oid),
                       Int(static_cast<int>(i + 1)),
                       Text(DefaultExpression(c))});
    }
}

void DomainConstraintRows(const Source& s, std::vector<Row>* rows);

void ConstraintRows(const Source& s, std::vector<Row>* rows) {
  DomainConstraintRows(s, rows);
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
           Bool(c.deferrable),
           Bool(c.initially_deferred),
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

void DomainConstraintRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& [key, ty] : s.cat->types()) {
    if (ty.kind != 'd') continue;
    for (size_t i = 0; i < ty.checks.size(); i++)
      rows->push_back({Int(ConstraintOid(ty.oid, i)),
                       Text(ty.checks[i].name),
                       Int(NamespaceOid(*s.cat, ty.schema)),
                       Text("c"),
                       Bool(false),
                       Bool(false),
                       Bool(true),
                       Int(0),
                       Int(ty.oid),
                       Int(0),
                       Int(0),
                       Int(0),
                       Text(" "),
                       Text(" "),
                       Text(" "),
                       Bool(true),
                       Int(0),
                       Bool(false),
                       kNull,
                       kNull});
  }
}

void SequenceRows(const Source& s, std::vector<Row>* rows) {
  // Start, bounds and increment live in the counter row (read at run
  // time, see AddSystemRelation); the rest is here.
  for (const auto& [key, q] : s.cat->sequences())
    rows->push_back({Int(q.oid), Int(q.type), Int(q.cache), Text(q.counter)});
}

void SequencesViewRows(const Source& s, std::vector<Row>* rows) {
  // Another session's temporary sequences are left out, as in PostgreSQL.
  for (const auto& [key, q] : s.cat->sequences()) {
    if (q.schema.rfind("pg_temp", 0) == 0 && q.schema != s.temp_schema)
      continue;
    rows->push_back({Text(q.schema), Text(q.name), Text(q.owner),
                     Text(types::FormatTypeName(q.type, -1)), Int(q.type),
                     Int(q.cache), Text(q.counter)});
  }
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
  // A domain depends on its base type, a column on its type (when they
  // are user types).
  for (const auto& [key, ty] : cat.types())
    if (ty.kind == 'd' && user_types::Find(ty.base_type))
      rows->push_back({Int(kPgTypeOid), Int(ty.oid), Int(0), Int(kPgTypeOid),
                       Int(ty.base_type), Int(0), Text("n")});
  for (const auto& [key, t] : cat.tables())
    for (size_t i = 0; i < t.columns.size(); i++) {
      uint32_t type = t.columns[i].type;
      if (uint32_t element = types::ArrayElementType(type)) type = element;
      if (user_types::Find(type))
        rows->push_back({Int(kPgClassOid), Int(t.oid),
                         Int(static_cast<int>(i + 1)), Int(kPgTypeOid),
                         Int(type), Int(0), Text("n")});
    }
  // A column default depends on its column and on the sequence it draws
  // from, so that pg_dump sets it once the sequence exists.
  constexpr uint32_t kPgAttrdefOid = 2604;
  for (const auto& [key, t] : cat.tables())
    for (size_t i = 0; i < t.columns.size(); i++) {
      const auto& c = t.columns[i];
      if ((c.default_expr.empty() || c.identity) && c.generated_expr.empty())
        continue;
      std::string def = Int(AttrdefOid(t, i));
      rows->push_back({Int(kPgAttrdefOid), def, Int(0), Int(kPgClassOid),
                       Int(t.oid), Int(static_cast<int>(i + 1)), Text("a")});
      if (const catalog::Sequence* q = DefaultSequence(cat, t, c))
        rows->push_back({Int(kPgAttrdefOid), def, Int(0), Int(kPgClassOid),
                         Int(q->oid), Int(0), Text("n")});
    }
  // A view's rule depends on the columns (relations) its query reads, so
  // that pg_dump creates the view after them.
  constexpr uint32_t kPgRewriteOid = 2618;
  for (const auto& [key, v] : cat.views()) {
    uint32_t rule = ViewRuleOid(v);
    rows->push_back({Int(kPgRewriteOid), Int(rule), Int(0), Int(kPgClassOid),
                     Int(v.oid), Int(0), Text("i")});
    std::set<std::pair<uint32_t, int>> seen;
    for (const auto& use : v.uses) {
      uint32_t ref = 0;
      const catalog::Table* t = cat.FindTable(use.schema, use.name);
      const catalog::View* rv =
          t ? nullptr : cat.FindView(use.schema, use.name);
      if (t) ref = t->oid;
      if (rv) ref = rv->oid;
      if (!ref || ref == v.oid) continue;
      std::vector<int> attnums;
      for (const auto& c : use.columns) {
        int n = -1;
        if (t) n = t->ColumnIndex(c);
        if (rv)
          for (size_t k = 0; k < rv->columns.size(); k++)
            if (rv->columns[k].name == c) n = static_cast<int>(k);
        if (n >= 0) attnums.push_back(n + 1);
      }
      if (attnums.empty()) attnums.push_back(0);
      for (int n : attnums)
        if (seen.insert({ref, n}).second)
          rows->push_back({Int(kPgRewriteOid), Int(rule), Int(0),
                           Int(kPgClassOid), Int(ref), Int(n), Text("n")});
    }
  }
}

uint32_t ViewRuleOid(const catalog::View& v) { return ConstraintOid(v.oid, 0); }

void RewriteRows(const Source& s, std::vector<Row>* rows) {
  for (const auto& [key, v] : s.cat->views())
    rows->push_back({Int(ViewRuleOid(v)), Text("_RETURN"), Int(v.oid),
                     Text("1"), Text("O"), Bool(true)});
}

}  // namespace kova::planner::system_catalog
