// Statements pg_dump emits around the objects Kova stores, and the names of
// the objects Kova cannot create (for their 0A000 errors):
// - ALTER SCHEMA ... OWNER TO (other ALTER ... OWNER TO forms are in
//   ALTER TABLE), COMMENT ON SCHEMA;
// - GRANT / REVOKE on tables, views, sequences, schemas and databases (in the
//   database's own catalog collection). They are checked
//   as PostgreSQL checks them (objects, roles, privilege kinds) and recorded
//   in the database's catalog collection, one document per object
//   ("acl:<kind>:<schema>.<name>": grantee -> privileges). Kova does not
//   check object privileges yet (nor ownership): a grant gives nothing a
//   role did not already have, and a revoke is recorded, not enforced.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {
namespace {

std::string StringOf(const PgQuery__Node* n) {
  if (n && n->node_case == PG_QUERY__NODE__NODE_STRING) return n->string->sval;
  return "";
}

std::string JoinNames(PgQuery__Node* const* items, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; i++) {
    if (i) out += ".";
    out += StringOf(items[i]);
  }
  return out;
}

std::string RangeVarName(const PgQuery__RangeVar* r) {
  if (!r) return "";
  std::string out;
  if (r->schemaname && *r->schemaname) out = std::string(r->schemaname) + ".";
  return out + (r->relname ? r->relname : "");
}

// The name of an object given as a parse node (a name list, a String, a
// RangeVar, a function signature or a type name).
std::string ObjectNodeName(const PgQuery__Node* n) {
  if (!n) return "";
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_STRING:
      return n->string->sval;
    case PG_QUERY__NODE__NODE_LIST:
      return JoinNames(n->list->items, n->list->n_items);
    case PG_QUERY__NODE__NODE_RANGE_VAR:
      return RangeVarName(n->range_var);
    case PG_QUERY__NODE__NODE_OBJECT_WITH_ARGS:
      return JoinNames(n->object_with_args->objname,
                       n->object_with_args->n_objname) +
             "()";
    case PG_QUERY__NODE__NODE_TYPE_NAME:
      return JoinNames(n->type_name->names, n->type_name->n_names);
    default:
      return "";
  }
}

const char* ObjectKindName(PgQuery__ObjectType t) {
  switch (t) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
      return "function";
    case PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE:
      return "procedure";
    case PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE:
      return "routine";
    case PG_QUERY__OBJECT_TYPE__OBJECT_AGGREGATE:
      return "aggregate";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TRIGGER:
      return "trigger";
    case PG_QUERY__OBJECT_TYPE__OBJECT_EXTENSION:
      return "extension";
    case PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW:
      return "materialized view";
    case PG_QUERY__OBJECT_TYPE__OBJECT_RULE:
      return "rule";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TYPE:
      return "type";
    case PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN:
      return "domain";
    case PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE:
      return "database";
    case PG_QUERY__OBJECT_TYPE__OBJECT_LANGUAGE:
      return "language";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_TABLE:
      return "foreign table";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FDW:
      return "foreign-data wrapper";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_SERVER:
      return "server";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSCONFIGURATION:
      return "text search configuration";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSDICTIONARY:
      return "text search dictionary";
    case PG_QUERY__OBJECT_TYPE__OBJECT_POLICY:
      return "policy";
    case PG_QUERY__OBJECT_TYPE__OBJECT_PUBLICATION:
      return "publication";
    case PG_QUERY__OBJECT_TYPE__OBJECT_SUBSCRIPTION:
      return "subscription";
    case PG_QUERY__OBJECT_TYPE__OBJECT_EVENT_TRIGGER:
      return "event trigger";
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLLATION:
      return "collation";
    case PG_QUERY__OBJECT_TYPE__OBJECT_OPERATOR:
      return "operator";
    case PG_QUERY__OBJECT_TYPE__OBJECT_CONVERSION:
      return "conversion";
    case PG_QUERY__OBJECT_TYPE__OBJECT_LARGEOBJECT:
      return "large object";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLESPACE:
      return "tablespace";
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
      return "schema";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      return "table";
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      return "sequence";
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
      return "view";
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
      return "index";
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN:
      return "column";
    default:
      return "object";
  }
}

// Privilege letters of PostgreSQL's aclitem, in its order.
const char* kPrivilegeOrder = "arwdDxtXUCTc";

char PrivilegeLetter(const std::string& name) {
  static const std::map<std::string, char> kLetters = {
      {"insert", 'a'},  {"select", 'r'},    {"update", 'w'},
      {"delete", 'd'},  {"truncate", 'D'},  {"references", 'x'},
      {"trigger", 't'}, {"execute", 'X'},   {"usage", 'U'},
      {"create", 'C'},  {"temporary", 'T'}, {"temp", 'T'},
      {"connect", 'c'}};
  auto it = kLetters.find(name);
  return it == kLetters.end() ? 0 : it->second;
}

}  // namespace

std::string UnsupportedObjectName(const PgQuery__Node* node) {
  std::string kind, name;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT: {
      const auto* f = node->create_function_stmt;
      kind = f->is_procedure ? "procedure" : "function";
      name = JoinNames(f->funcname, f->n_funcname) + "()";
      break;
    }
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT:
      kind = "trigger";
      name = std::string(node->create_trig_stmt->trigname) + " on " +
             RangeVarName(node->create_trig_stmt->relation);
      break;
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT:
      kind = "extension";
      name = node->create_extension_stmt->extname;
      break;
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT: {
      const auto* c = node->create_table_as_stmt;
      kind = c->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW
                 ? "materialized view"
                 : "table";
      if (c->into) name = RangeVarName(c->into->rel);
      break;
    }
    case PG_QUERY__NODE__NODE_REFRESH_MAT_VIEW_STMT:
      kind = "materialized view";
      name = RangeVarName(node->refresh_mat_view_stmt->relation);
      break;
    case PG_QUERY__NODE__NODE_RULE_STMT:
      kind = "rule";
      name = std::string(node->rule_stmt->rulename) + " on " +
             RangeVarName(node->rule_stmt->relation);
      break;
    case PG_QUERY__NODE__NODE_DEFINE_STMT:
      kind = ObjectKindName(node->define_stmt->kind);
      name =
          JoinNames(node->define_stmt->defnames, node->define_stmt->n_defnames);
      break;
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT:
      kind = "type";
      name = RangeVarName(node->composite_type_stmt->typevar);
      break;
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
      kind = "type";
      name = JoinNames(node->create_enum_stmt->type_name,
                       node->create_enum_stmt->n_type_name);
      break;
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
      kind = "domain";
      name = JoinNames(node->create_domain_stmt->domainname,
                       node->create_domain_stmt->n_domainname);
      break;
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT: {
      const auto* a = node->alter_owner_stmt;
      kind = ObjectKindName(a->object_type);
      name =
          a->relation ? RangeVarName(a->relation) : ObjectNodeName(a->object);
      break;
    }
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
      kind = ObjectKindName(node->comment_stmt->objtype);
      name = ObjectNodeName(node->comment_stmt->object);
      break;
    case PG_QUERY__NODE__NODE_ALTER_FUNCTION_STMT:
      kind = ObjectKindName(node->alter_function_stmt->objtype);
      if (node->alter_function_stmt->func)
        name = JoinNames(node->alter_function_stmt->func->objname,
                         node->alter_function_stmt->func->n_objname) +
               "()";
      break;
    case PG_QUERY__NODE__NODE_CREATE_POLICY_STMT:
      kind = "policy";
      name = std::string(node->create_policy_stmt->policy_name) + " on " +
             RangeVarName(node->create_policy_stmt->table);
      break;
    case PG_QUERY__NODE__NODE_CREATE_EVENT_TRIG_STMT:
      kind = "event trigger";
      name = node->create_event_trig_stmt->trigname;
      break;
    case PG_QUERY__NODE__NODE_CREATE_FOREIGN_TABLE_STMT:
      kind = "foreign table";
      if (node->create_foreign_table_stmt->base_stmt)
        name =
            RangeVarName(node->create_foreign_table_stmt->base_stmt->relation);
      break;
    default:
      return "";
  }
  if (name.empty()) return kind;
  return kind + " " + name;
}

// ---- ALTER ... OWNER TO -----------------------------------------------------

ExecuteResult SessionImpl::RunAlterOwner(const PgQuery__AlterOwnerStmt* stmt) {
  PgError error;
  if (stmt->object_type == PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE) {
    std::string owner = stmt->newowner && stmt->newowner->rolename
                            ? stmt->newowner->rolename
                            : user_;
    return RunAlterDatabaseOwner(StringOf(stmt->object), owner);
  }
  if (stmt->object_type != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA) {
    // Objects Kova does not keep (functions, types, databases, ...).
    std::string kind = ObjectKindName(stmt->object_type);
    std::string upper = kind;
    for (char& c : upper) c = static_cast<char>(std::toupper(c));
    std::string name = stmt->relation ? RangeVarName(stmt->relation)
                                      : ObjectNodeName(stmt->object);
    return Fail(Err("0A000", "ALTER " + upper +
                                 " ... OWNER TO is not supported yet: " + kind +
                                 " " + name));
  }
  if (!CheckWritable("ALTER SCHEMA", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  std::string name = StringOf(stmt->object);
  const catalog::Schema* sc = catalog_->FindSchema(name);
  if (!sc) return Fail(Err("3F000", "schema \"" + name + "\" does not exist"));
  std::string owner = stmt->newowner && stmt->newowner->rolename
                          ? stmt->newowner->rolename
                          : user_;
  RoleRecord role;
  if (!EngineFindRole(engine_, owner, &role))
    return Fail(Err("42704", "role \"" + owner + "\" does not exist"));
  catalog::Schema copy = *sc;
  copy.owner = owner;
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok()) s = catalog::Catalog::PutSchema(storage_.get(), database_, copy);
  if (!s.ok()) return Fail(TableError(s));
  return Tag("ALTER SCHEMA");
}

ExecuteResult SessionImpl::RunCommentOnSchema(
    const PgQuery__CommentStmt* stmt) {
  std::string name = StringOf(stmt->object);
  const catalog::Schema* sc = catalog_->FindSchema(name);
  if (!sc) return Fail(Err("3F000", "schema \"" + name + "\" does not exist"));
  catalog::Schema copy = *sc;
  copy.comment = stmt->comment ? stmt->comment : "";
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok()) s = catalog::Catalog::PutSchema(storage_.get(), database_, copy);
  if (!s.ok()) return Fail(TableError(s));
  return Tag("COMMENT");
}

// ---- GRANT / REVOKE
// -----------------------------------------------------------

ExecuteResult SessionImpl::RunGrant(const PgQuery__GrantStmt* stmt) {
  const char* verb = stmt->is_grant ? "GRANT" : "REVOKE";
  PgError error;
  std::string kind;   // table, sequence, schema
  std::string valid;  // privilege letters the kind has
  switch (stmt->objtype) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      kind = "table";
      valid = "arwdDxt";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      kind = "sequence";
      valid = "rwU";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
      kind = "schema";
      valid = "UC";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE:
      kind = "database";
      valid = "CTc";
      break;
    default: {
      std::string name =
          stmt->n_objects ? ObjectNodeName(stmt->objects[0]) : std::string();
      std::string k = ObjectKindName(stmt->objtype);
      return Fail(Err("0A000", std::string(verb) + " on a " + k +
                                   " is not supported yet: " + k + " " + name));
    }
  }
  if (stmt->targtype != PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_OBJECT) {
    return Fail(Err("0A000", std::string(verb) +
                                 " ... ON ALL ... IN SCHEMA is not supported "
                                 "yet"));
  }
  if (!CheckWritable(verb, &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);

  // The privileges: letters, "*" for ALL; column lists kept as text.
  std::set<std::string> privs;
  for (size_t i = 0; i < stmt->n_privileges; i++) {
    const PgQuery__AccessPriv* p = stmt->privileges[i]->access_priv;
    std::string pname = p->priv_name ? p->priv_name : "";
    char letter = PrivilegeLetter(pname);
    if (!letter) {
      return Fail(
          Err("42601", "unrecognized privilege type \"" + pname + "\""));
    }
    std::string upper = pname;
    for (char& c : upper) c = static_cast<char>(std::toupper(c));
    if (valid.find(letter) == std::string::npos) {
      return Fail(
          Err("0LP01", "invalid privilege type " + upper + " for " + kind));
    }
    std::string entry(1, letter);
    if (p->n_cols) {
      entry += "(";
      for (size_t c = 0; c < p->n_cols; c++)
        entry += (c ? "," : "") + StringOf(p->cols[c]);
      entry += ")";
    }
    privs.insert(entry);
  }
  if (stmt->n_privileges == 0)  // ALL [PRIVILEGES]
    for (char c : valid) privs.insert(std::string(1, c));

  // The grantees: roles that exist, or PUBLIC.
  std::vector<std::string> grantees;
  for (size_t i = 0; i < stmt->n_grantees; i++) {
    const PgQuery__RoleSpec* r = stmt->grantees[i]->role_spec;
    if (r->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC) {
      grantees.push_back("PUBLIC");  // a reserved role name
      continue;
    }
    std::string name = r->rolename ? r->rolename : user_;
    RoleRecord role;
    if (!EngineFindRole(engine_, name, &role))
      return Fail(Err("42704", "role \"" + name + "\" does not exist"));
    grantees.push_back(name);
  }

  // The objects, each resolved as PostgreSQL resolves them.
  struct Target {
    std::string kind, schema, name;
  };
  std::vector<Target> targets;
  for (size_t i = 0; i < stmt->n_objects; i++) {
    const PgQuery__Node* o = stmt->objects[i];
    if (kind == "database") {
      // Recorded in the database's own catalog.
      std::string name = StringOf(o);
      if (!engine_->DatabaseExists(name))
        return Fail(Err("3D000", "database \"" + name + "\" does not exist"));
      targets.push_back({"database", name, name});
      continue;
    }
    if (kind == "schema") {
      std::string name = StringOf(o);
      if (!catalog_->FindSchema(name))
        return Fail(Err("3F000", "schema \"" + name + "\" does not exist"));
      targets.push_back({"schema", name, name});
      continue;
    }
    const PgQuery__RangeVar* r = o->range_var;
    // An unqualified name is found through the search_path.
    std::string schema = LookupSchema(r->schemaname, r->relname);
    std::string name = r->relname;
    if (!catalog_->FindSchema(schema))
      return Fail(Err("3F000", "schema \"" + schema + "\" does not exist"));
    bool is_seq = catalog_->FindSequence(schema, name) != nullptr;
    bool is_rel =
        catalog_->FindTable(schema, name) || catalog_->FindView(schema, name);
    if (kind == "sequence" && !is_seq) {
      if (is_rel)
        return Fail(Err("42809", "\"" + name + "\" is not a sequence"));
      return Fail(Err(
          "42P01", "relation \"" +
                       (r->schemaname && *r->schemaname ? schema + "." : "") +
                       name + "\" does not exist"));
    }
    if (kind == "table" && !is_seq && !is_rel)
      return Fail(Err(
          "42P01", "relation \"" +
                       (r->schemaname && *r->schemaname ? schema + "." : "") +
                       name + "\" does not exist"));
    targets.push_back({is_seq ? "sequence" : "table", schema, name});
  }

  docstore::Status s = EnsureWriteTransaction();
  for (const Target& t : targets) {
    if (!s.ok()) break;
    std::string id = "acl:" + t.kind + ":" + t.schema + "." + t.name;
    const std::string& db = t.kind == "database" ? t.name : database_;
    bson_t filter = BSON_INITIALIZER;
    BSON_APPEND_UTF8(&filter, "_id", id.c_str());
    std::vector<docstore::Document> docs;
    s = storage_->Find(db, catalog::kObjectsCollection, &filter, {}, &docs);
    // grantee -> privileges held (letters, column forms).
    std::map<std::string, std::set<std::string>> acl;
    bson_iter_t it, entries;
    if (s.ok() && !docs.empty() &&
        bson_iter_init_find(&it, docs[0].bson(), "entries") &&
        BSON_ITER_HOLDS_DOCUMENT(&it) && bson_iter_recurse(&it, &entries)) {
      while (bson_iter_next(&entries)) {
        bson_iter_t list;
        auto& held = acl[bson_iter_key(&entries)];
        if (BSON_ITER_HOLDS_ARRAY(&entries) &&
            bson_iter_recurse(&entries, &list))
          while (bson_iter_next(&list))
            if (BSON_ITER_HOLDS_UTF8(&list))
              held.insert(bson_iter_utf8(&list, nullptr));
      }
    }
    // "p*" records the grant option of p: GRANT ... WITH GRANT OPTION adds
    // both, REVOKE GRANT OPTION FOR removes only the option, REVOKE both.
    for (const std::string& g : grantees) {
      auto& held = acl[g];
      for (const std::string& p : privs) {
        if (stmt->is_grant) {
          held.insert(p);
          if (stmt->grant_option) held.insert(p + "*");
        } else {
          held.erase(p + "*");
          if (!stmt->grant_option) held.erase(p);
        }
      }
      if (held.empty()) acl.erase(g);
    }
    int64_t deleted = 0;
    if (s.ok())
      s = storage_->Delete(db, catalog::kObjectsCollection, &filter, 1,
                           &deleted);
    bson_destroy(&filter);
    if (!s.ok()) break;
    bson_t doc = BSON_INITIALIZER, map;
    BSON_APPEND_UTF8(&doc, "_id", id.c_str());
    BSON_APPEND_UTF8(&doc, "kind", "acl");
    BSON_APPEND_UTF8(&doc, "object_kind", t.kind.c_str());
    BSON_APPEND_UTF8(&doc, "schema", t.schema.c_str());
    BSON_APPEND_UTF8(&doc, "name", t.name.c_str());
    BSON_APPEND_UTF8(&doc, "grantor", user_.c_str());
    BSON_APPEND_DOCUMENT_BEGIN(&doc, "entries", &map);
    for (const auto& [grantee, held] : acl) {
      // Letters in aclitem order, then column privileges.
      std::vector<std::string> sorted(held.begin(), held.end());
      std::sort(
          sorted.begin(), sorted.end(),
          [](const std::string& a, const std::string& b) {
            size_t ia = std::strchr(kPrivilegeOrder, a[0]) - kPrivilegeOrder;
            size_t ib = std::strchr(kPrivilegeOrder, b[0]) - kPrivilegeOrder;
            if (a.size() != b.size() && (a.size() == 1 || b.size() == 1))
              return a.size() < b.size();
            return ia != ib ? ia < ib : a < b;
          });
      bson_t arr;
      bson_append_array_begin(&map, grantee.c_str(), -1, &arr);
      for (size_t i = 0; i < sorted.size(); i++) {
        std::string key = std::to_string(i);
        bson_append_utf8(&arr, key.c_str(), -1, sorted[i].c_str(), -1);
      }
      bson_append_array_end(&map, &arr);
    }
    bson_append_document_end(&doc, &map);
    s = storage_->Insert(db, catalog::kObjectsCollection, &doc);
    bson_destroy(&doc);
  }
  if (!s.ok()) return Fail(TableError(s));
  return Tag(verb);
}

}  // namespace kova::planner
