// CREATE DOMAIN and ALTER DOMAIN. A domain's values are stored as its base
// type; its constraints are checked wherever a value becomes the domain
// (casts, column assignment, COPY: domains.cc).
#include "planner/ddl_types_internal.h"
#include "planner/domains.h"
#include "planner/expr_internal.h"
#include "planner/session_util.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {

namespace {

// PostgreSQL's DDL on domains reports errors without a cursor position.
PgError NoPosition(PgError e) {
  e.position = 0;
  return e;
}

bool HasCheck(const catalog::UserType& t, const std::string& name) {
  for (const auto& c : t.checks)
    if (c.name == name) return true;
  return false;
}

}  // namespace

bool TypeRunner::DomainDefault(const PgQuery__Node* expr,
                               const catalog::UserType& t, std::string* text,
                               PgError* error) {
  Analyzer analyzer(s_, nullptr);
  std::unique_ptr<Expr> e;
  int32_t typmod = t.base_typmod;
  uint32_t base = user_types::BaseType(t.base_type, &typmod);
  if (!analyzer.Analyze(expr, &e, error)) return false;
  if (e->type == oid::kUnknown) {
    if (!analyzer.Coerce(&e, base, typmod, error)) return false;
  } else if (e->type != base && !expr_detail::ImplicitCast(e->type, base)) {
    PgError err = Err("42804", "column \"" + t.name + "\" is of type " +
                                   types::FormatTypeName(t.base_type, -1) +
                                   " but default expression is of type " +
                                   types::FormatTypeName(e->type, -1));
    err.hint = "You will need to rewrite or cast the expression.";
    *error = err;
    return false;
  }
  *text = sql::DeparseExpr(expr);
  return true;
}

bool TypeRunner::DomainCheckText(const PgQuery__Constraint* con,
                                 const catalog::UserType& t,
                                 catalog::DomainCheck* out, PgError* error) {
  std::unique_ptr<Expr> e;
  if (!AnalyzeDomainCheck(con->raw_expr, t.base_type, s_, &e, error))
    return false;
  out->expr = sql::DeparseExpr(con->raw_expr);
  out->name = con->conname ? con->conname : "";
  if (out->name.empty()) {
    // PostgreSQL's ChooseConstraintName: name_check, name_check1, ...
    std::string base = t.name + "_check";
    out->name = base;
    for (int i = 1; HasCheck(t, out->name); i++)
      out->name = base + std::to_string(i);
  } else if (HasCheck(t, out->name)) {
    *error = Err("42710", "constraint \"" + out->name + "\" for domain \"" +
                              t.name + "\" already exists");
    return false;
  }
  return true;
}

bool TypeRunner::ValidateColumns(const catalog::UserType& t,
                                 const catalog::DomainCheck* check,
                                 bool not_null, PgError* error) {
  std::vector<std::pair<const catalog::Table*, size_t>> columns;
  ForEachColumn(t.oid, [&](const catalog::Table& table, size_t i) {
    columns.emplace_back(&table, i);
  });
  for (const auto& [table, i] : columns) {
    std::vector<Value> values;
    if (!ColumnValues(*table, i, &values, error)) return false;
    const std::string& column = table->columns[i].name;
    for (const Value& v : values) {
      if (not_null && !v) {
        *error = Err("23502", "column \"" + column + "\" of table \"" +
                                  table->name + "\" contains null values");
        return false;
      }
      bool holds = true;
      if (check && !EvalDomainCheck(t, *check, v, s_, &holds, error))
        return false;
      if (!holds) {
        *error =
            Err("23514", "column \"" + column + "\" of table \"" + table->name +
                             "\" contains values that violate the new "
                             "constraint");
        return false;
      }
    }
  }
  return true;
}

ExecuteResult TypeRunner::CreateDomain(const PgQuery__CreateDomainStmt* stmt) {
  PgError error;
  if (!Begin("CREATE DOMAIN", &error)) return Fail(error);
  std::vector<std::string> names = Names(stmt->domainname, stmt->n_domainname);
  std::string schema;
  if (!NewTypeSchema(names, &schema, &error)) return Fail(error);
  const std::string& name = names.back();
  if (stmt->coll_clause)
    return Fail(Err("0A000", "COLLATE is not supported yet"));
  catalog::UserType t;
  t.schema = schema;
  t.name = name;
  t.kind = 'd';
  t.owner = s_->user_;
  if (!ResolveTypeName(stmt->type_name, &t.base_type, &t.base_typmod, &error))
    return Fail(NoPosition(error));
  bool saw_null = false, saw_not_null = false, saw_default = false;
  for (size_t i = 0; i < stmt->n_constraints; i++) {
    const PgQuery__Constraint* con = stmt->constraints[i]->constraint;
    switch (con->contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
        if (saw_null)
          return Fail(Err("42601", "conflicting NULL/NOT NULL constraints"));
        saw_not_null = true;
        t.not_null = true;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
        if (saw_not_null)
          return Fail(Err("42601", "conflicting NULL/NOT NULL constraints"));
        saw_null = true;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
        if (saw_default)
          return Fail(Err("42601", "multiple default expressions"));
        saw_default = true;
        if (!DomainDefault(con->raw_expr, t, &t.default_expr, &error))
          return Fail(NoPosition(error));
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: {
        catalog::DomainCheck check;
        if (!DomainCheckText(con, t, &check, &error))
          return Fail(NoPosition(error));
        t.checks.push_back(std::move(check));
        break;
      }
      case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
        return Fail(
            Err("42601", "unique constraints not possible for domains"));
      case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
        return Fail(
            Err("42601", "primary key constraints not possible for domains"));
      case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION:
        return Fail(
            Err("42601", "exclusion constraints not possible for domains"));
      case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
        return Fail(
            Err("42601", "foreign key constraints not possible for domains"));
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE:
        return Fail(Err("0A000",
                        "specifying constraint deferrability not supported "
                        "for domains"));
      default:
        return Fail(Err("42601", "unrecognized constraint subtype"));
    }
  }
  // The type, then its array type, as PostgreSQL numbers them.
  docstore::Status st =
      catalog::Catalog::AllocateOid(s_->storage_.get(), db(), &t.oid);
  if (st.ok())
    st = catalog::Catalog::AllocateOid(s_->storage_.get(), db(), &t.array_oid);
  if (!st.ok()) return Fail(s_->TableError(st));
  if (!Save(t, &error)) return Fail(error);
  return Tag("CREATE DOMAIN");
}

ExecuteResult TypeRunner::AlterDomain(const PgQuery__AlterDomainStmt* stmt) {
  PgError error;
  if (!Begin("ALTER DOMAIN", &error)) return Fail(error);
  catalog::UserType t;
  if (!Lookup(Names(stmt->type_name, stmt->n_type_name), 'd', &t, &error))
    return Fail(error);
  char subtype = stmt->subtype && *stmt->subtype ? stmt->subtype[0] : 0;
  switch (subtype) {
    case 'T':  // SET / DROP DEFAULT
      t.default_expr.clear();
      if (stmt->def && !DomainDefault(stmt->def, t, &t.default_expr, &error))
        return Fail(error);
      break;
    case 'N':  // DROP NOT NULL
      t.not_null = false;
      break;
    case 'O':  // SET NOT NULL
      if (!t.not_null && !ValidateColumns(t, nullptr, true, &error))
        return Fail(error);
      t.not_null = true;
      break;
    case 'C': {  // ADD CONSTRAINT
      const PgQuery__Constraint* con =
          stmt->def && stmt->def->node_case == PG_QUERY__NODE__NODE_CONSTRAINT
              ? stmt->def->constraint
              : nullptr;
      if (!con || con->contype != PG_QUERY__CONSTR_TYPE__CONSTR_CHECK) {
        if (con && con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL) {
          if (!t.not_null && !ValidateColumns(t, nullptr, true, &error))
            return Fail(error);
          t.not_null = true;
          break;
        }
        return Fail(Err("0A000",
                        "ALTER DOMAIN ADD CONSTRAINT supports CHECK and NOT "
                        "NULL constraints only"));
      }
      catalog::DomainCheck check;
      if (!DomainCheckText(con, t, &check, &error)) return Fail(error);
      if (!con->skip_validation && !ValidateColumns(t, &check, false, &error))
        return Fail(error);
      t.checks.push_back(std::move(check));
      break;
    }
    case 'X': {  // DROP CONSTRAINT
      std::string name = stmt->name ? stmt->name : "";
      auto it = std::find_if(t.checks.begin(), t.checks.end(),
                             [&](const auto& c) { return c.name == name; });
      if (it == t.checks.end()) {
        std::string message = "constraint \"" + name + "\" of domain \"" +
                              t.name + "\" does not exist";
        if (stmt->missing_ok) {
          Notice("00000", message + ", skipping");
          return Tag("ALTER DOMAIN");
        }
        return Fail(Err("42704", message));
      }
      t.checks.erase(it);
      break;
    }
    case 'V': {  // VALIDATE CONSTRAINT: every constraint is valid already
      std::string name = stmt->name ? stmt->name : "";
      if (!HasCheck(t, name))
        return Fail(Err("42704", "constraint \"" + name + "\" of domain \"" +
                                     t.name + "\" does not exist"));
      return Tag("ALTER DOMAIN");
    }
    default:
      return Fail(Err("0A000", "this form of ALTER DOMAIN is not supported"));
  }
  if (!Save(t, &error)) return Fail(error);
  return Tag("ALTER DOMAIN");
}

}  // namespace kova::planner
