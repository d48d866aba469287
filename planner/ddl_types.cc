// CREATE TYPE ... AS ENUM, ALTER TYPE, CREATE/ALTER DOMAIN, DROP TYPE/DOMAIN,
// and COMMENT / RENAME / OWNER TO / SET SCHEMA on them. Types are catalog
// documents (kind "type"); enum values are stored in documents as their
// label, so renaming a label rewrites the columns that hold it.
#include <algorithm>
#include <cmath>

#include "planner/ddl_types_internal.h"
#include "planner/domains.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {

namespace {

bool IsTypeObject(PgQuery__ObjectType t) {
  return t == PG_QUERY__OBJECT_TYPE__OBJECT_TYPE ||
         t == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
}

}  // namespace

bool SessionImpl::IsTypeStatement(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT:
      return true;
    case PG_QUERY__NODE__NODE_DROP_STMT:
      return IsTypeObject(node->drop_stmt->remove_type);
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
      return IsTypeObject(node->comment_stmt->objtype);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return IsTypeObject(node->rename_stmt->rename_type) ||
             node->rename_stmt->rename_type ==
                 PG_QUERY__OBJECT_TYPE__OBJECT_DOMCONSTRAINT;
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
      return IsTypeObject(node->alter_owner_stmt->object_type);
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
      return IsTypeObject(node->alter_object_schema_stmt->object_type);
    default:
      return false;
  }
}

ExecuteResult SessionImpl::RunTypeStatement(const PgQuery__Node* node,
                                            ResultSink* sink) {
  TypeRunner runner(this, sink);
  return runner.Run(node);
}

const catalog::Catalog* SessionImpl::TypeCatalog(bool refresh) {
  if (refresh || !catalog_) {
    PgError ignored;
    if (!LoadCatalog(&ignored)) return catalog_.get();
  }
  return catalog_.get();
}

ExecuteResult TypeRunner::Run(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
      return CreateEnum(node->create_enum_stmt);
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
      return AlterEnum(node->alter_enum_stmt);
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
      return CreateDomain(node->create_domain_stmt);
    case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT:
      return AlterDomain(node->alter_domain_stmt);
    case PG_QUERY__NODE__NODE_DROP_STMT:
      return Drop(node->drop_stmt);
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
      return Comment(node->comment_stmt);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return Rename(node->rename_stmt);
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
      return Owner(node->alter_owner_stmt);
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
      return SetSchema(node->alter_object_schema_stmt);
    default:
      return Fail(Err("XX000", "not a type statement"));
  }
}

bool TypeRunner::Begin(const char* what, PgError* error) {
  if (!s_->CheckWritable(what, error)) return false;
  if (!s_->LoadCatalog(error)) return false;
  docstore::Status st = s_->EnsureWriteTransaction();
  if (!st.ok()) {
    *error = s_->TableError(st);
    return false;
  }
  return true;
}

void TypeRunner::Notice(const char* sqlstate, const std::string& message,
                        const std::string& detail) {
  if (!sink_ || s_->suppress_notices_) return;
  PgError n;
  n.severity = "NOTICE";
  n.sqlstate = sqlstate;
  n.message = message;
  n.detail = detail;
  sink_->Notice(n);
}

bool TypeRunner::Save(const catalog::UserType& t, PgError* error) {
  docstore::Status st = catalog::Catalog::PutType(s_->storage_.get(), db(), t);
  if (st.ok()) return s_->LoadCatalog(error);
  *error = s_->TableError(st);
  return false;
}

bool TypeRunner::Lookup(const std::vector<std::string>& names, char kind,
                        catalog::UserType* out, PgError* error) {
  std::string schema = names.size() >= 2 ? names[names.size() - 2] : "";
  const catalog::UserType* t = nullptr;
  if (!names.empty() && names.size() >= 2) {
    t = cat().FindType(schema, names.back());
  } else if (!names.empty()) {
    for (const auto& s : s_->SearchPathSchemas(true))
      if ((t = cat().FindType(s, names.back()))) break;
  }
  if (!t) {
    if (names.size() >= 2 && !cat().FindSchema(schema)) {
      *error = Err("3F000", "schema \"" + schema + "\" does not exist");
      return false;
    }
    *error = Err("42704", "type \"" + Joined(names) + "\" does not exist");
    return false;
  }
  if (kind && t->kind != kind) {
    *error = Err("42809", kind == 'e' ? user_types::FormatName(t->oid) +
                                            " is not an enum"
                                      : "\"" + user_types::FormatName(t->oid) +
                                            "\" is not a domain");
    return false;
  }
  *out = *t;
  return true;
}

bool TypeRunner::ColumnValues(const catalog::Table& table, size_t column,
                              std::vector<Value>* out, PgError* error) {
  std::vector<docstore::Document> docs;
  bson_t filter = BSON_INITIALIZER;
  docstore::Status st =
      s_->storage_->Find(db(), table.collection, &filter, {}, &docs);
  bson_destroy(&filter);
  if (!st.ok()) {
    *error = s_->TableError(st);
    return false;
  }
  const catalog::Column& col = table.columns[column];
  for (const auto& d : docs) {
    bson_iter_t it;
    SValue sv;
    if (bson_iter_init_find(&it, d.bson(), col.name.c_str()))
      sv = SValueFromBson(&it);
    Value v;
    if (!FromSValue(col.type, sv, s_->type_context(), &v, error)) return false;
    out->push_back(std::move(v));
  }
  return true;
}

bool TypeRunner::NewTypeSchema(const std::vector<std::string>& names,
                               std::string* schema, PgError* error) {
  if (names.size() >= 2) {
    *schema = names[names.size() - 2];
  } else {
    std::vector<std::string> path = s_->SearchPathSchemas(false);
    if (path.empty()) {
      *error = Err("3F000", "no schema has been selected to create in");
      return false;
    }
    *schema = path.front();
  }
  const std::string& name = names.back();
  if (!cat().FindSchema(*schema)) {
    *error = Err("3F000", "schema \"" + *schema + "\" does not exist");
    return false;
  }
  if (*schema == "pg_catalog" || *schema == "information_schema" ||
      *schema == "admin") {
    *error = Err("42501", "permission denied for schema " + *schema);
    return false;
  }
  // Tables, views and sequences have a row type of the same name.
  if (cat().FindType(*schema, name) || cat().FindTable(*schema, name) ||
      cat().FindView(*schema, name) || cat().FindSequence(*schema, name)) {
    *error = Err("42710", "type \"" + name + "\" already exists");
    return false;
  }
  return true;
}

// ---- enums ------------------------------------------------------------------

ExecuteResult TypeRunner::CreateEnum(const PgQuery__CreateEnumStmt* stmt) {
  PgError error;
  if (!Begin("CREATE TYPE", &error)) return Fail(error);
  std::vector<std::string> names = Names(stmt->type_name, stmt->n_type_name);
  std::string schema;
  if (!NewTypeSchema(names, &schema, &error)) return Fail(error);
  const std::string& name = names.back();
  catalog::UserType t;
  t.schema = schema;
  t.name = name;
  t.kind = 'e';
  t.owner = s_->user_;
  for (size_t i = 0; i < stmt->n_vals; i++) {
    std::string label = stmt->vals[i]->string->sval;
    if (label.empty() || label.size() > 63) {
      PgError e = Err("22P05", "invalid enum label \"" + label + "\"");
      e.detail = "Labels must be 63 bytes or less.";
      return Fail(e);
    }
    if (t.FindLabel(label)) {
      PgError e = Err("23505",
                      "duplicate key value violates unique constraint "
                      "\"pg_enum_typid_label_index\"");
      e.detail = "Key (enumtypid, enumlabel)=(" + std::to_string(t.oid) + ", " +
                 label + ") already exists.";
      return Fail(e);
    }
    t.labels.push_back({label, static_cast<double>(i + 1)});
  }
  // The type, then its array type, as PostgreSQL numbers them.
  docstore::Status st =
      catalog::Catalog::AllocateOid(s_->storage_.get(), db(), &t.oid);
  if (st.ok())
    st = catalog::Catalog::AllocateOid(s_->storage_.get(), db(), &t.array_oid);
  if (!st.ok()) return Fail(s_->TableError(st));
  if (!Save(t, &error)) return Fail(error);
  return Tag("CREATE TYPE");
}

ExecuteResult TypeRunner::AlterEnum(const PgQuery__AlterEnumStmt* stmt) {
  PgError error;
  if (!Begin("ALTER TYPE", &error)) return Fail(error);
  catalog::UserType t;
  if (!Lookup(Names(stmt->type_name, stmt->n_type_name), 'e', &t, &error))
    return Fail(error);
  std::string new_val = stmt->new_val ? stmt->new_val : "";
  if (stmt->old_val && *stmt->old_val) {
    // RENAME VALUE: the stored label changes in every column of the type.
    std::string old_val = stmt->old_val;
    catalog::EnumLabel* label = nullptr;
    for (auto& l : t.labels)
      if (l.label == old_val) label = &l;
    if (!label)
      return Fail(
          Err("22023", "\"" + old_val + "\" is not an existing enum label"));
    if (t.FindLabel(new_val))
      return Fail(
          Err("42710", "enum label \"" + new_val + "\" already exists"));
    if (new_val.empty() || new_val.size() > 63) {
      PgError e = Err("22P05", "invalid enum label \"" + new_val + "\"");
      e.detail = "Labels must be 63 bytes or less.";
      return Fail(e);
    }
    label->label = new_val;
    std::vector<std::pair<std::string, std::string>> columns;
    ForEachColumn(t.oid, [&](const catalog::Table& table, size_t i) {
      columns.emplace_back(table.collection, table.columns[i].name);
    });
    for (const auto& [collection, column] : columns) {
      bson_t query = BSON_INITIALIZER, update = BSON_INITIALIZER, set;
      BSON_APPEND_UTF8(&query, column.c_str(), old_val.c_str());
      BSON_APPEND_DOCUMENT_BEGIN(&update, "$set", &set);
      BSON_APPEND_UTF8(&set, column.c_str(), new_val.c_str());
      bson_append_document_end(&update, &set);
      docstore::UpdateResult result;
      docstore::Status st = s_->storage_->Update(db(), collection, &query,
                                                 &update, true, &result);
      bson_destroy(&query);
      bson_destroy(&update);
      if (!st.ok()) return Fail(s_->TableError(st));
    }
    if (!Save(t, &error)) return Fail(error);
    return Tag("ALTER TYPE");
  }
  if (t.FindLabel(new_val)) {
    if (stmt->skip_if_new_val_exists) {
      Notice("42710",
             "enum label \"" + new_val + "\" already exists, skipping");
      return Tag("ALTER TYPE");
    }
    return Fail(Err("42710", "enum label \"" + new_val + "\" already exists"));
  }
  if (new_val.empty() || new_val.size() > 63) {
    PgError e = Err("22P05", "invalid enum label \"" + new_val + "\"");
    e.detail = "Labels must be 63 bytes or less.";
    return Fail(e);
  }
  std::vector<double> orders;
  for (const auto& l : t.labels) orders.push_back(l.sort_order);
  std::sort(orders.begin(), orders.end());
  double order;
  if (stmt->new_val_neighbor && *stmt->new_val_neighbor) {
    const catalog::EnumLabel* n = t.FindLabel(stmt->new_val_neighbor);
    if (!n)
      return Fail(Err("22023", "\"" + std::string(stmt->new_val_neighbor) +
                                   "\" is not an existing enum label"));
    auto at = std::find(orders.begin(), orders.end(), n->sort_order);
    if (stmt->new_val_is_after) {
      order = at + 1 == orders.end() ? *at + 1 : (*at + *(at + 1)) / 2;
    } else {
      order = at == orders.begin() ? *at - 1 : (*(at - 1) + *at) / 2;
    }
    // Halving runs out after some fifty insertions at one place.
    if (order == n->sort_order ||
        std::find(orders.begin(), orders.end(), order) != orders.end())
      return Fail(Err("0A000",
                      "no room left between these enum labels (renumbering "
                      "enum sort orders is not supported yet)"));
  } else {
    order = orders.empty() ? 1 : orders.back() + 1;
  }
  t.labels.push_back({new_val, order});
  if (!Save(t, &error)) return Fail(error);
  return Tag("ALTER TYPE");
}

// ---- DROP, COMMENT, RENAME, OWNER, SET SCHEMA -------------------------------

ExecuteResult TypeRunner::Drop(const PgQuery__DropStmt* stmt) {
  bool domain = stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
  const char* tag = domain ? "DROP DOMAIN" : "DROP TYPE";
  PgError error;
  if (!Begin(tag, &error)) return Fail(error);
  bool cascade = stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  for (size_t i = 0; i < stmt->n_objects; i++) {
    std::vector<std::string> names = ObjectNames(stmt->objects[i]);
    catalog::UserType t;
    if (!Lookup(names, domain ? 'd' : 0, &t, &error)) {
      if (stmt->missing_ok && error.sqlstate == "42704") {
        Notice("00000",
               "type \"" + Joined(names) + "\" does not exist, skipping");
        continue;
      }
      return Fail(error);
    }
    // Columns of the type lose their column, domains over it and views
    // showing it go, as in PostgreSQL.
    DropClosure closure = s_->MakeDropClosure();
    DependentObject root = DropClosure::TypeObject(t);
    closure.Add(root);
    if (!s_->ReportDrop(closure, root, cascade, sink_, &error) ||
        !s_->DropObjects(closure, &error))
      return Fail(error);
  }
  return Tag(tag);
}

ExecuteResult TypeRunner::Comment(const PgQuery__CommentStmt* stmt) {
  PgError error;
  if (!Begin("COMMENT", &error)) return Fail(error);
  catalog::UserType t;
  bool domain = stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
  if (!Lookup(ObjectNames(stmt->object), domain ? 'd' : 0, &t, &error))
    return Fail(error);
  t.comment = stmt->comment ? stmt->comment : "";
  if (!Save(t, &error)) return Fail(error);
  return Tag("COMMENT");
}

ExecuteResult TypeRunner::Rename(const PgQuery__RenameStmt* stmt) {
  bool constraint =
      stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMCONSTRAINT;
  bool domain =
      constraint || stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
  const char* tag = domain ? "ALTER DOMAIN" : "ALTER TYPE";
  PgError error;
  if (!Begin(tag, &error)) return Fail(error);
  catalog::UserType t;
  if (!Lookup(ObjectNames(stmt->object), domain ? 'd' : 0, &t, &error))
    return Fail(error);
  std::string new_name = stmt->newname;
  if (constraint) {
    std::string old = stmt->subname ? stmt->subname : "";
    catalog::DomainCheck* found = nullptr;
    for (auto& c : t.checks) {
      if (c.name == old) found = &c;
      if (c.name == new_name)
        return Fail(Err("42710", "constraint \"" + new_name + "\" for domain " +
                                     t.name + " already exists"));
    }
    if (!found)
      return Fail(Err("42704", "constraint \"" + old + "\" for domain " +
                                   user_types::FormatName(t.oid) +
                                   " does not exist"));
    found->name = new_name;
    if (!Save(t, &error)) return Fail(error);
    return Tag(tag);
  }
  if (cat().FindType(t.schema, new_name) ||
      cat().FindTable(t.schema, new_name) ||
      cat().FindView(t.schema, new_name) ||
      cat().FindSequence(t.schema, new_name))
    return Fail(Err("42710", "type \"" + new_name + "\" already exists"));
  docstore::Status st = catalog::Catalog::Remove(s_->storage_.get(), db(),
                                                 "type", t.schema, t.name);
  if (!st.ok()) return Fail(s_->TableError(st));
  t.name = new_name;
  if (!Save(t, &error)) return Fail(error);
  return Tag(tag);
}

ExecuteResult TypeRunner::Owner(const PgQuery__AlterOwnerStmt* stmt) {
  bool domain = stmt->object_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
  const char* tag = domain ? "ALTER DOMAIN" : "ALTER TYPE";
  PgError error;
  if (!Begin(tag, &error)) return Fail(error);
  catalog::UserType t;
  if (!Lookup(ObjectNames(stmt->object), domain ? 'd' : 0, &t, &error))
    return Fail(error);
  const PgQuery__RoleSpec* role = stmt->newowner;
  std::string owner = role->rolename ? role->rolename : "";
  if (role->roletype != PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING)
    owner = s_->user_;
  RoleRecord record;
  if (!EngineFindRole(s_->engine_, owner, &record))
    return Fail(Err("42704", "role \"" + owner + "\" does not exist"));
  t.owner = owner;
  if (!Save(t, &error)) return Fail(error);
  return Tag(tag);
}

ExecuteResult TypeRunner::SetSchema(
    const PgQuery__AlterObjectSchemaStmt* stmt) {
  bool domain = stmt->object_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
  const char* tag = domain ? "ALTER DOMAIN" : "ALTER TYPE";
  PgError error;
  if (!Begin(tag, &error)) return Fail(error);
  catalog::UserType t;
  if (!Lookup(ObjectNames(stmt->object), domain ? 'd' : 0, &t, &error))
    return Fail(error);
  std::string schema = stmt->newschema;
  if (!cat().FindSchema(schema))
    return Fail(Err("3F000", "schema \"" + schema + "\" does not exist"));
  if (schema == t.schema) return Tag(tag);
  if (cat().FindType(schema, t.name))
    return Fail(Err(
        "42710",
        "type \"" + t.name + "\" already exists in schema \"" + schema + "\""));
  docstore::Status st = catalog::Catalog::Remove(s_->storage_.get(), db(),
                                                 "type", t.schema, t.name);
  if (!st.ok()) return Fail(s_->TableError(st));
  t.schema = schema;
  if (!Save(t, &error)) return Fail(error);
  return Tag(tag);
}

}  // namespace kova::planner
