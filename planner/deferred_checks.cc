// Deferred foreign key checks and SET CONSTRAINTS.
//
// PostgreSQL queues an after-trigger event per changed row of a deferrable
// constraint in deferred mode and fires it at commit (or at SET CONSTRAINTS
// ... IMMEDIATE). Kova queues the row's key once, and the check reads the
// data as it stands then: a referencing row with the key needs a
// referenced row with it. Rows a savepoint rolled back are gone by then, so
// their keys pass, as their events would have been dropped.
#include <sqlite3.h>

#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/svalue.h"

namespace kova::planner {

std::string SessionImpl::DeferredCheckId(const DeferredCheck& check) {
  std::string id = check.table + '\0' + check.constraint + '\0' +
                   (check.referenced_side ? "r" : "c") +
                   (check.restrict ? "x" : "");
  for (const Value& v : check.key) id += '\0' + v.value_or("");
  return id;
}

bool SessionImpl::ProbeRows(
    const std::string& sql, const std::vector<SValue>& keys,
    const std::function<bool(int64_t, const std::string&)>& on_row,
    PgError* error) {
  sqlite3_stmt* stmt = CachedStatement(sql, error);
  if (!stmt) return false;
  for (size_t i = 0; i < keys.size(); i++)
    BindSValue(stmt, static_cast<int>(i + 1), keys[i]);
  std::vector<std::pair<int64_t, std::string>> rows;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    rows.emplace_back(
        sqlite3_column_int64(stmt, 0),
        std::string(static_cast<const char*>(sqlite3_column_blob(stmt, 1)),
                    sqlite3_column_bytes(stmt, 1)));
  }
  sqlite3_reset(stmt);
  if (rc != SQLITE_DONE) {
    *error = Err("XX000", std::string("internal query error: ") +
                              sqlite3_errmsg(storage_->connection()));
    return false;
  }
  for (const auto& [rid, doc] : rows)
    if (!on_row(rid, doc)) return false;
  return true;
}

bool SessionImpl::KeyQuery(const catalog::Table& t,
                           const std::vector<std::string>& cols,
                           std::string* sql, PgError* error, bool nulls_equal) {
  std::string tbl;
  if (!CollectionTable(t.collection, &tbl, error)) return false;
  *sql = "SELECT rid, doc FROM " + tbl + " AS k WHERE 1";
  for (const auto& c : cols) {
    const catalog::Column* col = t.FindColumn(c);
    *sql += " AND " + ColumnSql("k", c, col ? col->type : oid::kText) +
            (nulls_equal ? " IS ?" : " = ?");
  }
  return true;
}

bool SessionImpl::ForeignKeyDeferred(const catalog::Table& table,
                                     const catalog::Constraint& c) const {
  if (!c.deferrable) return false;
  auto named = constraints_deferred_.find(table.schema + "." + c.name);
  if (named != constraints_deferred_.end()) return named->second;
  if (constraints_all_ != 0) return constraints_all_ == 1;
  return c.initially_deferred;
}

void SessionImpl::EnqueueCheck(DeferredCheck check,
                               std::vector<DeferredCheck>* checks,
                               std::set<std::string>* ids) {
  if (ids->insert(DeferredCheckId(check)).second)
    checks->push_back(std::move(check));
}

void SessionImpl::QueueDeferredCheck(DeferredCheck check) {
  EnqueueCheck(std::move(check), &deferred_checks_, &deferred_keys_);
}

void SessionImpl::ClearDeferredConstraints() {
  deferred_checks_.clear();
  deferred_keys_.clear();
  constraints_all_ = 0;
  constraints_deferred_.clear();
  savepoint_constraint_modes_.clear();
}

std::string KeyValuesText(const std::vector<std::string>& cols,
                          const std::vector<Value>& values) {
  std::string names, vals;
  for (size_t i = 0; i < cols.size(); i++) {
    names += (i ? ", " : "") + cols[i];
    vals += (i ? ", " : "") + (values[i] ? *values[i] : std::string("null"));
  }
  return "(" + names + ")=(" + vals + ")";
}

void SessionImpl::QueueStatementCheck(DeferredCheck check) {
  EnqueueCheck(std::move(check), &statement_checks_, &statement_keys_);
}

void SessionImpl::ClearStatementChecks() {
  statement_checks_.clear();
  statement_keys_.clear();
}

bool SessionImpl::CheckStatementConstraints(PgError* error) {
  std::vector<DeferredCheck> checks;
  checks.swap(statement_checks_);
  statement_keys_.clear();
  if (checks.empty()) return true;
  if (!LoadCatalog(error)) return false;
  for (const DeferredCheck& check : checks)
    if (!VerifyQueuedCheck(check, error)) return false;
  return true;
}

bool SessionImpl::VerifyQueuedCheck(const DeferredCheck& check,
                                    PgError* error) {
  const types::TypeContext& context = settings_.type_context();
  size_t dot = check.table.find('.');
  // A table or constraint dropped since has nothing left to check.
  const catalog::Table* child = catalog_->FindTable(
      check.table.substr(0, dot), check.table.substr(dot + 1));
  if (!child) return true;
  const catalog::Constraint* c = nullptr;
  for (const auto& k : child->constraints) {
    if (k.name != check.constraint) continue;
    if (k.kind == 'p' || k.kind == 'u')
      return VerifyUniqueKey(*child, k, check, error);
    if (k.kind == 'f') c = &k;
  }
  if (!c) return true;
  size_t pdot = c->ref_table.find('.');
  const catalog::Table* parent = catalog_->FindTable(
      c->ref_table.substr(0, pdot), c->ref_table.substr(pdot + 1));
  if (!parent) return true;
  // The key in each side's column types.
  std::vector<SValue> child_keys, parent_keys;
  for (size_t i = 0; i < check.key.size(); i++) {
    const catalog::Column* cc = child->FindColumn(c->columns[i]);
    const catalog::Column* pc = parent->FindColumn(c->ref_columns[i]);
    if (!cc || !pc) {
      *error = Err("XX000", "foreign key \"" + c->name + "\" lost a column");
      return false;
    }
    Value as_child = check.key[i], as_parent = check.key[i];
    bool ok = check.referenced_side
                  ? AssignValue(pc->type, *cc, context, &as_child, error)
                  : AssignValue(cc->type, *pc, context, &as_parent, error);
    SValue sc, sp;
    if (!ok || !ToSValue(cc->type, as_child, context, &sc, error) ||
        !ToSValue(pc->type, as_parent, context, &sp, error))
      return false;
    child_keys.push_back(sc);
    parent_keys.push_back(sp);
  }
  std::string sql;
  bool referenced = false, present = false;
  auto found = [](bool* flag) {
    return [flag](int64_t, const std::string&) {
      *flag = true;
      return true;
    };
  };
  if (!KeyQuery(*child, c->columns, &sql, error) ||
      !ProbeRows(sql + " LIMIT 1", child_keys, found(&referenced), error))
    return false;
  if (!referenced) return true;
  if (!check.restrict) {
    if (!KeyQuery(*parent, c->ref_columns, &sql, error) ||
        !ProbeRows(sql + " LIMIT 1", parent_keys, found(&present), error))
      return false;
    if (present) return true;
  }
  if (check.referenced_side) {
    *error = Err("23503", "update or delete on table \"" + parent->name +
                              "\" violates foreign key constraint \"" +
                              c->name + "\" on table \"" + child->name + "\"");
    error->detail = "Key " + KeyValuesText(c->ref_columns, check.key) +
                    " is still referenced from table \"" + child->name + "\".";
  } else {
    *error = Err("23503", "insert or update on table \"" + child->name +
                              "\" violates foreign key constraint \"" +
                              c->name + "\"");
    error->detail = "Key " + KeyValuesText(c->columns, check.key) +
                    " is not present in table \"" + parent->name + "\".";
  }
  return false;
}

bool SessionImpl::VerifyUniqueKey(const catalog::Table& table,
                                  const catalog::Constraint& c,
                                  const DeferredCheck& check, PgError* error) {
  const types::TypeContext& context = settings_.type_context();
  std::string sql;
  if (!KeyQuery(table, c.columns, &sql, error, c.nulls_not_distinct))
    return false;
  std::vector<SValue> keys;
  for (size_t i = 0; i < c.columns.size(); i++) {
    const catalog::Column* col = table.FindColumn(c.columns[i]);
    if (!col) return true;  // the column went: so did the constraint
    SValue sv;
    if (!ToSValue(col->type, check.key[i], context, &sv, error)) return false;
    keys.push_back(sv);
  }
  int rows = 0;
  if (!ProbeRows(
          sql + " LIMIT 2", keys,
          [&rows](int64_t, const std::string&) {
            rows++;
            return true;
          },
          error))
    return false;
  if (rows < 2) return true;
  *error = Err("23505", "duplicate key value violates unique constraint \"" +
                            c.name + "\"");
  error->detail =
      "Key " + KeyValuesText(c.columns, check.key) + " already exists.";
  return false;
}

bool SessionImpl::CheckDeferredConstraints(
    PgError* error, const std::vector<std::string>* only) {
  if (deferred_checks_.empty()) return true;
  if (!LoadCatalog(error)) return false;
  std::vector<DeferredCheck> later;
  std::vector<DeferredCheck> checks;
  checks.swap(deferred_checks_);
  deferred_keys_.clear();
  bool ok = true;
  for (DeferredCheck& check : checks) {
    std::string schema = check.table.substr(0, check.table.find('.'));
    if (only && std::find(only->begin(), only->end(),
                          schema + "." + check.constraint) == only->end()) {
      later.push_back(std::move(check));
      continue;
    }
    if (ok) ok = VerifyQueuedCheck(check, error);
  }
  if (ok) {
    for (DeferredCheck& check : later) QueueDeferredCheck(std::move(check));
  }
  return ok;
}

ExecuteResult SessionImpl::RunSetConstraints(
    const PgQuery__ConstraintsSetStmt* stmt, ResultSink* sink) {
  if (!in_block_) {
    // The transaction of the statement alone ends with it: nothing to set.
    Notice(sink, "WARNING", "25P01",
           "SET CONSTRAINTS can only be used in transaction blocks");
  }
  PgError error;
  if (!LoadCatalog(&error)) return Fail(error);
  std::vector<std::string> named;  // "schema.name"
  if (stmt->n_constraints == 0) {
    constraints_all_ = stmt->deferred ? 1 : 2;
    constraints_deferred_.clear();
  } else {
    for (size_t i = 0; i < stmt->n_constraints; i++) {
      const PgQuery__RangeVar* rv = stmt->constraints[i]->range_var;
      std::string name = rv->relname;
      std::vector<std::string> schemas;
      if (rv->schemaname && *rv->schemaname)
        schemas.push_back(rv->schemaname);
      else
        schemas = SchemaSearchPath(true);
      // The first schema of the path with a constraint of that name; every
      // constraint of that name there.
      bool found = false;
      for (const auto& schema : schemas) {
        for (const auto& [key, t] : catalog_->tables()) {
          if (t.schema != schema) continue;
          for (const auto& c : t.constraints) {
            if (c.name != name) continue;
            found = true;
            if (!c.deferrable)
              return Fail(Err("42809",
                              "constraint \"" + name + "\" is not deferrable"));
          }
        }
        if (found) {
          named.push_back(schema + "." + name);
          break;
        }
      }
      if (!found)
        return Fail(Err("42704", "constraint \"" + name + "\" does not exist"));
    }
    for (const auto& n : named) constraints_deferred_[n] = stmt->deferred;
  }
  // Made immediate: what is queued for those constraints is checked now.
  if (!stmt->deferred) {
    bool ok = stmt->n_constraints == 0
                  ? CheckDeferredConstraints(&error)
                  : CheckDeferredConstraints(&error, &named);
    if (!ok) return Fail(error);
  }
  return Tag("SET CONSTRAINTS");
}

}  // namespace kova::planner
