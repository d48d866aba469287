// SQL-level PREPARE / EXECUTE, VACUUM and ANALYZE.
#include <sqlite3.h>

#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

bool SessionImpl::AnalyzePrepare(Plan* plan, PgError* error) {
  const PgQuery__PrepareStmt* p = plan->node->prepare_stmt;
  if (sql_prepared_.count(p->name)) {
    *error = Err("42P05", "prepared statement \"" + std::string(p->name) +
                              "\" already exists");
    return false;
  }
  return true;
}

ExecuteResult SessionImpl::RunPrepare(const Plan& plan) {
  const PgQuery__PrepareStmt* p = plan.node->prepare_stmt;
  if (sql_prepared_.count(p->name))
    return Fail(Err("42P05", "prepared statement \"" + std::string(p->name) +
                                 "\" already exists"));
  auto inner = std::make_shared<Plan>();
  inner->tree = plan.tree;
  inner->node = p->query;
  inner->text = plan.text;
  inner->simple = false;
  for (size_t i = 0; i < p->n_argtypes; i++) {
    uint32_t type;
    int32_t typmod;
    PgError error;
    if (!ResolveTypeName(p->argtypes[i]->type_name, &type, &typmod, &error))
      return Fail(error);
    inner->param_types.push_back(type);
  }
  PgError error;
  if (!Analyze(inner, &error)) return Fail(error);
  sql_prepared_[p->name] = inner;
  return Tag("PREPARE");
}

bool SessionImpl::AnalyzeExecute(Plan* plan, PgError* error) {
  const PgQuery__ExecuteStmt* x = plan->node->execute_stmt;
  auto it = sql_prepared_.find(x->name);
  if (it == sql_prepared_.end()) {
    *error = Err("26000", "prepared statement \"" + std::string(x->name) +
                              "\" does not exist");
    return false;
  }
  const Plan& target = *it->second;
  if (x->n_params != target.param_types.size()) {
    *error =
        Err("42601", "wrong number of parameters for prepared statement \"" +
                         std::string(x->name) + "\"");
    error->detail = "Expected " + std::to_string(target.param_types.size()) +
                    " parameters but got " + std::to_string(x->n_params) + ".";
    return false;
  }
  plan->columns = target.columns;
  plan->is_select = false;
  return true;
}

ExecuteResult SessionImpl::RunExecute(PortalImpl* portal, int64_t max_rows,
                                      ResultSink* sink, bool simple) {
  const PgQuery__ExecuteStmt* x = portal->plan->node->execute_stmt;
  auto it = sql_prepared_.find(x->name);
  if (it == sql_prepared_.end())
    return Fail(Err("26000", "prepared statement \"" + std::string(x->name) +
                                 "\" does not exist"));
  std::shared_ptr<Plan> target = it->second;
  if (!portal->started) {
    // The arguments: expressions of the parameters' types.
    std::vector<Value> params;
    Analyzer analyzer(
        this, portal->plan->simple ? nullptr : &portal->plan->param_types);
    for (size_t i = 0; i < x->n_params; i++) {
      std::unique_ptr<Expr> e;
      PgError error;
      uint32_t type = target->param_types[i];
      if (!analyzer.Analyze(x->params[i], &e, &error) ||
          !analyzer.Coerce(&e, type, -1, &error))
        return Fail(error);
      Value v;
      if (!Evaluate(*e, portal->params, this, &v, &error)) return Fail(error);
      if (v && e->type != type) {
        std::string out;
        if (!types::Cast(e->type, type, -1, *v, settings_.type_context(), &out,
                         &error)) {
          PgError err =
              Err("42804", "parameter $" + std::to_string(i + 1) + " of type " +
                               types::FormatTypeName(e->type, -1) +
                               " cannot be coerced to the expected "
                               "type " +
                               types::FormatTypeName(type, -1));
          err.hint = "You will need to rewrite or cast the expression.";
          return Fail(err);
        }
        v = out;
      }
      params.push_back(std::move(v));
    }
    execute_portal_ = std::make_unique<PortalImpl>();
    execute_portal_->plan = target;
    execute_portal_->params = std::move(params);
    execute_portal_->formats = portal->formats;
    if (execute_portal_->formats.size() != target->columns.size())
      execute_portal_->formats.assign(target->columns.size(), Format::kText);
    portal->started = true;
  }
  return Run(execute_portal_.get(), max_rows, sink, simple);
}

const catalog::Table* SessionImpl::TableOnPath(const PgQuery__RangeVar* rv,
                                               bool index, PgError* error) {
  std::vector<std::string> schemas;
  if (rv->schemaname && *rv->schemaname)
    schemas.push_back(rv->schemaname);
  else
    schemas = SearchPathSchemas(/*for_lookup=*/true);
  for (const auto& s : schemas) {
    const catalog::Table* found = index
                                      ? catalog_->FindIndexTable(s, rv->relname)
                                      : catalog_->FindTable(s, rv->relname);
    if (found) return found;
  }
  std::string name = rv->schemaname && *rv->schemaname
                         ? std::string(rv->schemaname) + "." + rv->relname
                         : std::string(rv->relname);
  *error = Err("42P01", "relation \"" + name + "\" does not exist");
  return nullptr;
}

// REINDEX: SQLite rebuilds the indexes of the collections' tables (an
// index's own table for REINDEX INDEX: all of its indexes are rebuilt).
ExecuteResult SessionImpl::RunReindex(const PgQuery__ReindexStmt* stmt) {
  PgError error;
  if (!CheckWritable("REINDEX", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  const bool whole =
      stmt->kind == PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_SYSTEM ||
      stmt->kind == PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_DATABASE;
  bool concurrently = false;
  for (size_t i = 0; i < stmt->n_params; i++) {
    std::string opt = stmt->params[i]->def_elem->defname;
    if (opt == "concurrently") {
      concurrently = true;
    } else if (opt != "verbose" && opt != "tablespace") {
      return Fail(Err("42601", "unrecognized REINDEX option \"" + opt + "\"",
                      stmt->params[i]->def_elem->location));
    }
  }
  if ((whole || concurrently) && (in_block_ || implicit_)) {
    return Fail(Err(
        "25001",
        std::string(concurrently ? "REINDEX CONCURRENTLY"
                    : stmt->kind ==
                            PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_SYSTEM
                        ? "REINDEX SYSTEM"
                        : "REINDEX DATABASE") +
            " cannot run inside a transaction block"));
  }
  std::vector<const catalog::Table*> tables;
  switch (stmt->kind) {
    case PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_TABLE:
    case PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_INDEX: {
      const catalog::Table* found = TableOnPath(
          stmt->relation,
          stmt->kind == PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_INDEX,
          &error);
      if (!found) return Fail(error);
      tables.push_back(found);
      break;
    }
    case PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_SCHEMA: {
      std::string schema = stmt->name ? stmt->name : "";
      if (!catalog_->FindSchema(schema))
        return Fail(Err("3F000", "schema \"" + schema + "\" does not exist"));
      for (const auto& [k, t] : catalog_->tables())
        if (t.schema == schema) tables.push_back(&t);
      break;
    }
    default: {
      std::string name = stmt->name ? stmt->name : "";
      if (!name.empty() && name != database_)
        return Fail(
            Err("0A000", "can only reindex the currently open database"));
      // SYSTEM: the catalogs are documents with their own indexes, which
      // the store keeps; DATABASE rebuilds the tables' indexes.
      if (stmt->kind == PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_DATABASE)
        for (const auto& [k, t] : catalog_->tables()) tables.push_back(&t);
      break;
    }
  }
  docstore::Status s = EnsureWriteTransaction();
  if (!s.ok()) return Fail(TableError(s));
  for (const catalog::Table* t : tables) {
    std::string tbl;
    if (!CollectionTable(
            t->schema == "admin" ? "admin.counters" : t->collection, &tbl,
            &error))
      return Fail(error);
    char* message = nullptr;
    std::string sql = "REINDEX " + tbl;
    if (sqlite3_exec(storage_->connection(), sql.c_str(), nullptr, nullptr,
                     &message) != SQLITE_OK) {
      std::string m = message ? message : "failed";
      sqlite3_free(message);
      return Fail(Err("XX000", "REINDEX failed: " + m));
    }
  }
  return Tag("REINDEX");
}

ExecuteResult SessionImpl::RunVacuum(const PgQuery__VacuumStmt* stmt) {
  const char* what = stmt->is_vacuumcmd ? "VACUUM" : "ANALYZE";
  if (stmt->is_vacuumcmd && (in_block_ || implicit_))
    return Fail(Err(
        "25001", std::string(what) + " cannot run inside a transaction block"));
  for (size_t i = 0; i < stmt->n_options; i++) {
    std::string opt = stmt->options[i]->def_elem->defname;
    static const char* kKnown[] = {
        "verbose",       "analyze",     "freeze",
        "full",          "skip_locked", "disable_page_skipping",
        "index_cleanup", "truncate",    "process_toast",
        "parallel",      "process_main"};
    bool known = false;
    for (const char* k : kKnown) known |= opt == k;
    if (!known)
      return Fail(Err("42601", std::string("unrecognized ") + what +
                                   " option \"" + opt + "\""));
  }
  PgError error;
  if (!LoadCatalog(&error)) return Fail(error);
  // What VACUUM and ANALYZE mean for documents in SQLite: fresh planner
  // statistics for the collections' tables and indexes (SQLite's ANALYZE).
  // Space is reused by SQLite as rows change, so there is nothing to reclaim
  // row by row.
  std::vector<std::string> tables;
  for (size_t i = 0; i < stmt->n_rels; i++) {
    const PgQuery__VacuumRelation* vr = stmt->rels[i]->vacuum_relation;
    CompileContext context = LookupContext();
    const catalog::Table* t;
    const catalog::View* v;
    if (!QueryCompiler::LookupRelation(&context, vr->relation, &t, &v,
                                       &error)) {
      error.position = 0;
      return Fail(error);
    }
    if (v) continue;  // PostgreSQL skips views with a warning
    std::string tbl;
    if (!CollectionTable(
            t->schema == "admin" ? "admin.counters" : t->collection, &tbl,
            &error))
      return Fail(error);
    tables.push_back(tbl);
  }
  if (stmt->n_rels == 0) {
    for (const auto& [k, t] : catalog_->tables()) {
      std::string tbl;
      if (CollectionTable(t.collection, &tbl, &error)) tables.push_back(tbl);
    }
  }
  for (const auto& tbl : tables) {
    char* message = nullptr;
    std::string sql = "ANALYZE " + tbl;
    if (sqlite3_exec(storage_->connection(), sql.c_str(), nullptr, nullptr,
                     &message) != SQLITE_OK) {
      std::string m = message ? message : "failed";
      sqlite3_free(message);
      return Fail(Err("XX000", std::string(what) + " failed: " + m));
    }
  }
  return Tag(what);
}

}  // namespace kova::planner
