// The access privilege inquiry functions (PostgreSQL's acl.c):
// has_table_privilege, has_sequence_privilege, has_schema_privilege,
// has_database_privilege and has_column_privilege, in their forms for the
// current user and for a role given by name or OID, with the object given
// by name or OID.
//
// A role holds a privilege when it is a superuser, owns the object (owners
// keep every privilege and every grant option: Kova records no REVOKE from
// an owner), or when the privilege was granted to it or to PUBLIC (GRANTs
// as dump_objects.cc records them, plus the privileges PUBLIC has by
// default: USAGE on public, pg_catalog and information_schema, SELECT on
// the catalogs, CONNECT and TEMPORARY on databases). Kova does not record
// grant options, so only owners and superusers have them.
#include <set>

#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/system_catalog.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner {

namespace {

constexpr uint32_t T = oid::kText;
constexpr uint32_t NM = oid::kName;
constexpr uint32_t O = oid::kOid;
constexpr uint32_t I2 = oid::kInt2;
constexpr uint32_t B = oid::kBool;

const char* const kObjectFunctions[] = {
    "has_table_privilege", "has_sequence_privilege", "has_schema_privilege",
    "has_database_privilege"};

// A privilege request: letters (aclitem letters) asked for, and those
// asked for WITH GRANT OPTION. The function is true when any is held.
struct Request {
  std::string plain, grant_option;
  bool Empty() const { return plain.empty() && grant_option.empty(); }
};

// convert_any_priv_string: comma-separated names, blanks around each
// ignored, case-insensitive. `names` maps each privilege name to its
// letter (0: a name accepted that grants nothing, as RULE).
bool ParsePrivileges(const std::string& text,
                     const std::vector<std::pair<const char*, char>>& names,
                     Request* out, PgError* error) {
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string chunk = text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    auto blank = [](char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
             c == '\v';
    };
    size_t b = 0, e = chunk.size();
    while (b < e && blank(chunk[b])) b++;
    while (e > b && blank(chunk[e - 1])) e--;
    chunk = chunk.substr(b, e - b);
    std::string upper = chunk;
    for (char& c : upper)
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    bool found = false;
    for (const auto& [name, letter] : names) {
      std::string n = name;
      if (upper == n) {
        if (letter) out->plain += letter;
        found = true;
      } else if (upper == n + " WITH GRANT OPTION") {
        if (letter) out->grant_option += letter;
        found = true;
      }
      if (found) break;
    }
    if (!found) {
      *error = Err("22023", "unrecognized privilege type: \"" + chunk + "\"");
      return false;
    }
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

const std::vector<std::pair<const char*, char>>& TablePrivileges() {
  static const std::vector<std::pair<const char*, char>> v = {
      {"SELECT", 'r'},   {"INSERT", 'a'},     {"UPDATE", 'w'},  {"DELETE", 'd'},
      {"TRUNCATE", 'D'}, {"REFERENCES", 'x'}, {"TRIGGER", 't'}, {"RULE", 0}};
  return v;
}

}  // namespace

namespace expr_detail {

bool IsPrivilegeFunction(const std::string& name) {
  for (const char* f : kObjectFunctions)
    if (name == f) return true;
  return name == "has_column_privilege";
}

std::vector<FunctionDef> PrivilegeFunctionDefs() {
  std::vector<FunctionDef> d;
  for (const char* f : kObjectFunctions) {
    d.push_back({f, {T, T}, B});
    d.push_back({f, {O, T}, B});
    for (uint32_t user : {NM, O}) {
      d.push_back({f, {user, T, T}, B});
      d.push_back({f, {user, O, T}, B});
    }
  }
  const char* c = "has_column_privilege";
  for (uint32_t table : {T, O})
    for (uint32_t column : {T, I2}) {
      d.push_back({c, {table, column, T}, B});
      for (uint32_t user : {NM, O})
        d.push_back({c, {user, table, column, T}, B});
    }
  return d;
}

std::string PrivilegeSignature(const std::vector<std::unique_ptr<Expr>>& args) {
  // One letter an argument: o (an OID), i (a column number), n (a name).
  std::string sig;
  for (const auto& a : args)
    sig += a->type == oid::kOid ? 'o' : a->type == oid::kInt2 ? 'i' : 'n';
  return sig;
}

}  // namespace expr_detail

bool SessionImpl::CallPrivilegeFunction(const std::string& name,
                                        const std::vector<Value>& values,
                                        Value* out, PgError* error) {
  using system_catalog::DatabaseOid;
  using system_catalog::FindRelation;
  using system_catalog::IsSystemRelation;
  using system_catalog::kInformationSchemaNamespace;
  using system_catalog::kPgCatalogNamespace;
  using system_catalog::kPgToastNamespace;
  using system_catalog::NamespaceOid;
  using system_catalog::RelationRef;
  using system_catalog::Relations;
  using system_catalog::RoleOid;
  using system_catalog::SplitName;
  // values[0] is the signature (expr_detail::PrivilegeSignature), then the
  // arguments; none is NULL (the functions are strict).
  const std::string sig = *values[0];
  std::vector<std::string> args;
  for (size_t i = 1; i < values.size(); i++) args.push_back(*values[i]);
  bool column = name == "has_column_privilege";
  bool with_user = args.size() == (column ? 4u : 3u);
  size_t at = with_user ? 1 : 0;  // the object's argument
  *out = std::nullopt;
  if (!LoadCatalog(error)) return false;
  const catalog::Catalog& cat = *catalog_;

  // The role: by name ("public" is PUBLIC), by OID, or the current user.
  std::vector<ClusterRole> roles;
  std::vector<ClusterDatabase> databases;
  ClusterObjects(&roles, &databases);
  std::string role = user_;
  bool is_public = false, superuser = false;
  if (with_user) {
    if (sig[0] == 'o') {
      uint32_t id = static_cast<uint32_t>(std::stoul(args[0]));
      role.clear();
      is_public = id == 0;
      for (const auto& r : roles)
        if (RoleOid(r.name) == id) role = r.name;
    } else if (args[0] == "public") {
      role.clear();
      is_public = true;
    } else {
      role = args[0];
      RoleRecord record;
      if (!EngineFindRole(engine_, role, &record)) {
        *error = Err("42704", "role \"" + role + "\" does not exist");
        return false;
      }
    }
  }
  for (const auto& r : roles)
    if (!role.empty() && r.name == role) superuser = r.superuser;
  auto owns = [&](const std::string& owner) {
    return !role.empty() && role == (owner.empty() ? "postgres" : owner);
  };

  // The object, its owner, its grants' key and what PUBLIC has by default.
  std::string kind = name.substr(4, name.find("_privilege") - 4);
  bool by_oid = sig[at] == 'o';
  std::string owner, key, public_default, db = database_;
  bool system = false;  // a catalog: only superusers modify it
  const catalog::Table* table = nullptr;
  char relkind = 0;
  std::string relname;
  auto parse_privileges = [&](Request* req) {
    static const std::vector<std::pair<const char*, char>> sequence = {
        {"USAGE", 'U'}, {"SELECT", 'r'}, {"UPDATE", 'w'}};
    static const std::vector<std::pair<const char*, char>> schema = {
        {"CREATE", 'C'}, {"USAGE", 'U'}};
    static const std::vector<std::pair<const char*, char>> database = {
        {"CREATE", 'C'}, {"TEMPORARY", 'T'}, {"TEMP", 'T'}, {"CONNECT", 'c'}};
    static const std::vector<std::pair<const char*, char>> columns = {
        {"SELECT", 'r'}, {"INSERT", 'a'}, {"UPDATE", 'w'}, {"REFERENCES", 'x'}};
    const auto& names = column               ? columns
                        : kind == "table"    ? TablePrivileges()
                        : kind == "sequence" ? sequence
                        : kind == "schema"   ? schema
                                             : database;
    return ParsePrivileges(args.back(), names, req, error);
  };
  Request req;
  // With an OID, the privilege names are read first and an OID naming
  // nothing gives NULL; with a name, the object must exist first.
  if (by_oid && !parse_privileges(&req)) return false;
  if (kind == "table" || kind == "sequence" || column) {
    if (by_oid) {
      uint32_t id = static_cast<uint32_t>(std::stoul(args[at]));
      RelationRef rel;
      bool found = false;
      for (const auto& so : Relations())
        if (so.oid && so.oid == id) {
          relkind = 'r';
          relname = so.name;
          system = found = true;
        }
      if (!found && FindRelation(cat, id, &rel)) {
        found = true;
        relkind = rel.kind;
        relname = rel.name;
        if (rel.kind == 'r') table = rel.table;
        owner = rel.kind == 'r'   ? rel.table->owner
                : rel.kind == 'i' ? rel.table->owner
                : rel.kind == 'v' ? rel.view->owner
                                  : rel.sequence->owner;
        key = (rel.kind == 'S' ? "sequence:" : "table:") + rel.schema + "." +
              rel.name;
      }
      if (!found) return true;  // NULL
    } else {
      // The name as regclassin reads it.
      std::vector<std::string> parts;
      if (!SplitName(args[at], &parts)) {
        *error = Err("42602", "invalid name syntax");
        return false;
      }
      if (parts.size() > 3) {
        std::string joined;
        for (size_t i = 0; i < parts.size(); i++)
          joined += (i ? "." : "") + parts[i];
        *error =
            Err("42601",
                "improper relation name (too many dotted names): " + joined);
        return false;
      }
      if (parts.size() == 3) {
        if (parts[0] != database_) {
          *error = Err("0A000",
                       "cross-database references are not implemented: \"" +
                           parts[0] + "." + parts[1] + "." + parts[2] + "\"");
          return false;
        }
        parts.erase(parts.begin());
      }
      std::vector<std::string> path;
      if (parts.size() == 2) {
        const std::string& sc = parts[0];
        if (sc != "pg_catalog" && sc != "information_schema" &&
            sc != "pg_toast" && !cat.FindSchema(sc)) {
          *error = Err("3F000", "schema \"" + sc + "\" does not exist");
          return false;
        }
        path.push_back(sc);
      } else {
        path = SearchPathSchemas(true);
        if (std::find(path.begin(), path.end(), "pg_catalog") == path.end())
          path.insert(path.begin(), "pg_catalog");
      }
      const std::string& rel = parts.back();
      for (const auto& sc : path) {
        if (sc == "pg_catalog" && IsSystemRelation(rel)) {
          relkind = 'r';
          system = true;
        } else if (const catalog::Table* t = cat.FindTable(sc, rel)) {
          relkind = 'r';
          table = t;
          owner = t->owner;
        } else if (const catalog::View* v = cat.FindView(sc, rel)) {
          relkind = 'v';
          owner = v->owner;
        } else if (const catalog::Sequence* q = cat.FindSequence(sc, rel)) {
          relkind = 'S';
          owner = q->owner;
        } else {
          const catalog::Index* x = nullptr;
          const catalog::Table* t = cat.FindIndexTable(sc, rel, &x);
          if (!t || !x) continue;
          relkind = 'i';
          owner = t->owner;
        }
        relname = rel;
        key = (relkind == 'S' ? "sequence:" : "table:") + sc + "." + rel;
        break;
      }
      if (!relkind) {
        *error = Err("42P01", "relation \"" +
                                  (parts.size() == 2 ? parts[0] + "." : "") +
                                  rel + "\" does not exist");
        return false;
      }
    }
    if (kind == "sequence" && relkind != 'S') {
      *error = Err("42809", "\"" + (by_oid ? relname : args[at]) +
                                "\" is not a sequence");
      return false;
    }
    if (system) {
      owner = "postgres";
      public_default = "r";
    }
  } else if (kind == "schema") {
    std::string schema;
    if (by_oid) {
      uint32_t id = static_cast<uint32_t>(std::stoul(args[at]));
      if (id == kPgCatalogNamespace) schema = "pg_catalog";
      if (id == kInformationSchemaNamespace) schema = "information_schema";
      if (id == kPgToastNamespace) schema = "pg_toast";
      for (const auto& [n, sc] : cat.schemas())
        if (n != "admin" && NamespaceOid(cat, n) == id) schema = n;
      if (schema.empty()) return true;  // NULL
    } else {
      schema = args[at];
      if (schema != "pg_catalog" && schema != "information_schema" &&
          schema != "pg_toast" &&
          (schema == "admin" || !cat.FindSchema(schema))) {
        *error = Err("3F000", "schema \"" + schema + "\" does not exist");
        return false;
      }
    }
    const catalog::Schema* sc = cat.FindSchema(schema);
    owner = sc ? sc->owner : "postgres";
    if (schema == "public" && (owner.empty() || owner == "postgres")) {
      // PostgreSQL 15 gives public to pg_database_owner: the database's
      // owner has its privileges, everyone has USAGE.
      owner = "postgres";
      for (const auto& d : databases)
        if (d.name == database_ && !d.owner.empty()) owner = d.owner;
      public_default = "U";
    }
    if (schema == "pg_catalog" || schema == "information_schema")
      public_default = "U";
    key = "schema:" + schema + "." + schema;
  } else {  // database
    std::string dbname;
    if (by_oid) {
      uint32_t id = static_cast<uint32_t>(std::stoul(args[at]));
      for (const auto& d : databases)
        if (DatabaseOid(d.name) == id) dbname = d.name;
      if (dbname.empty()) return true;  // NULL
    } else {
      dbname = args[at];
      if (!engine_->DatabaseExists(dbname)) {
        *error = Err("3D000", "database \"" + dbname + "\" does not exist");
        return false;
      }
    }
    for (const auto& d : databases)
      if (d.name == dbname) owner = d.owner;
    public_default = "Tc";
    key = "database:" + dbname + "." + dbname;
    db = dbname;
  }

  // The column, for has_column_privilege: by name (it must exist) or by
  // number (NULL when there is none).
  std::string column_name;
  if (column) {
    const std::string& c = args[at + 1];
    if (sig[at + 1] == 'i') {
      int n = std::stoi(c);
      if (!table || n < 1 || n > static_cast<int>(table->columns.size()))
        return true;  // NULL
      column_name = table->columns[n - 1].name;
    } else {
      if (!table || !table->FindColumn(c)) {
        *error = Err("42703", "column \"" + c + "\" of relation \"" + relname +
                                  "\" does not exist");
        return false;
      }
      column_name = c;
    }
  }
  if (!by_oid && !parse_privileges(&req)) return false;

  auto answer = [&](bool yes) {
    *out = yes ? "t" : "f";
    return true;
  };
  if (req.Empty()) return answer(false);  // RULE
  if (superuser) return answer(true);
  if (owns(owner)) {
    if (!system) return answer(true);
    // Nobody but a superuser modifies a catalog.
    return answer(req.plain.find('r') != std::string::npos ||
                  req.grant_option.find('r') != std::string::npos);
  }
  // Grants: "r" a privilege, "r*" its grant option, "r(a,b)" and
  // "r(a,b)*" the same on columns.
  std::set<char> held(public_default.begin(), public_default.end());
  std::set<char> held_on_column, grantable, grantable_on_column;
  std::vector<docstore::Document> docs;
  bson_t filter = BSON_INITIALIZER;
  std::string id = "acl:" + key;
  BSON_APPEND_UTF8(&filter, "_id", id.c_str());
  docstore::Status st =
      storage_->Find(db, catalog::kObjectsCollection, &filter, {}, &docs);
  bson_destroy(&filter);
  if (!st.ok()) {
    *error = Err("XX000", "could not read privileges: " + st.message());
    return false;
  }
  bson_iter_t it, entries, list;
  if (!docs.empty() && bson_iter_init_find(&it, docs[0].bson(), "entries") &&
      BSON_ITER_HOLDS_DOCUMENT(&it) && bson_iter_recurse(&it, &entries)) {
    while (bson_iter_next(&entries)) {
      std::string grantee = bson_iter_key(&entries);
      if (grantee != "PUBLIC" && (is_public || grantee != role)) continue;
      if (!BSON_ITER_HOLDS_ARRAY(&entries) ||
          !bson_iter_recurse(&entries, &list))
        continue;
      while (bson_iter_next(&list)) {
        if (!BSON_ITER_HOLDS_UTF8(&list)) continue;
        std::string p = bson_iter_utf8(&list, nullptr);
        bool option = p.size() > 1 && p.back() == '*';
        if (option) p.pop_back();
        if (p.size() == 1) {
          (option ? grantable : held).insert(p[0]);
          continue;
        }
        // "w(a,b)": a column privilege.
        if (column_name.empty() || p.size() < 4 || p[1] != '(' ||
            p.back() != ')')
          continue;
        std::string cols = p.substr(2, p.size() - 3);
        size_t b = 0;
        while (b <= cols.size()) {
          size_t e = cols.find(',', b);
          if (e == std::string::npos) e = cols.size();
          if (cols.substr(b, e - b) == column_name)
            (option ? grantable_on_column : held_on_column).insert(p[0]);
          b = e + 1;
        }
      }
    }
  }
  if (system) {
    // Catalogs: SELECT for everyone, nothing else.
    held.clear();
    held.insert('r');
    grantable.clear();
    grantable_on_column.clear();
  }
  for (char c : req.plain)
    if (held.count(c) || held_on_column.count(c)) return answer(true);
  for (char c : req.grant_option)
    if (grantable.count(c) || grantable_on_column.count(c)) return answer(true);
  return answer(false);
}

}  // namespace kova::planner
