#include <sqlite3.h>

// Statements over tables: the catalog snapshot of a session, analysis of
// SELECTs that read tables, and running compiled statements.
#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

PgError SessionImpl::TableError(const docstore::Status& s) {
  switch (s.code()) {
    case docstore::Code::kCounterExhausted:
      return Err("2200H", s.message());
    case docstore::Code::kDuplicateKey:
      return Err("23505", s.message());
    case docstore::Code::kNamespaceNotFound:
      return Err("42P01", s.message());
    case docstore::Code::kNamespaceExists:
      return Err("42P07", s.message());
    case docstore::Code::kBusy:
      return Err("55P03", "could not obtain lock: " + s.message());
    default:
      return StorageError(s);
  }
}

docstore::Status SessionImpl::EnsureWriteTransaction() {
  RefreshReadSnapshot();
  if (storage_->in_transaction()) {
    txn_wrote_ = true;
    return docstore::Status::OK();
  }
  if (!(in_block_ || implicit_ || single_statement_))
    return docstore::Status::OK();
  docstore::Status s = ApplyDurability();
  if (s.ok()) s = storage_->BeginWrite();
  if (s.ok()) {
    txn_wrote_ = true;
    snapshot_statement_ = statement_seq_;
  }
  return s;
}

sqlite3_stmt* SessionImpl::CachedStatement(const std::string& sql,
                                           PgError* error) {
  auto it = statement_cache_.find(sql);
  if (it != statement_cache_.end()) {
    sqlite3_reset(it->second);
    sqlite3_clear_bindings(it->second);
    return it->second;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(storage_->connection(), sql.c_str(), -1, &stmt,
                         nullptr) != SQLITE_OK) {
    *error = Err("XX000", std::string("internal query error: ") +
                              sqlite3_errmsg(storage_->connection()));
    return nullptr;
  }
  statement_cache_[sql] = stmt;
  return stmt;
}

bool SessionImpl::LoadCatalog(PgError* error) {
  docstore::Status s =
      statement_writes_ ? EnsureWriteTransaction() : EnsureStorageTransaction();
  int64_t version = 0;
  if (s.ok()) s = storage_->CatalogVersion(&version);
  if (!s.ok()) {
    *error = TableError(s);
    return false;
  }
  if (catalog_ && version == catalog_version_) return true;
  s = catalog::Catalog::Load(storage_.get(), database_, &catalog_);
  resolved_sequences_.clear();
  if (!s.ok()) {
    catalog_.reset();
    *error = TableError(s);
    return false;
  }
  catalog_version_ = version;
  collection_tables_.clear();
  return true;
}

bool SessionImpl::CollectionTable(const std::string& collection,
                                  std::string* table, PgError* error) {
  auto it = collection_tables_.find(collection);
  if (it != collection_tables_.end()) {
    *table = it->second;
    return true;
  }
  bool admin = collection == "admin.counters";
  docstore::Status s = storage_->CollectionTable(
      admin ? docstore::kAdminDb : database_,
      admin ? docstore::kCountersCollection : collection, table);
  if (!s.ok()) {
    *error = TableError(s);
    return false;
  }
  collection_tables_[collection] = *table;
  return true;
}

CompileContext SessionImpl::LookupContext() {
  CompileContext context;
  context.catalog = catalog_;
  context.db = database_;
  context.search_path = SearchPathSchemas(true);
  context.temp_schema = TempSchemaName();
  return context;
}

CompileContext SessionImpl::MakeCompileContext(Plan* plan) {
  CompileContext context = LookupContext();
  context.hooks = this;
  context.param_types = plan->simple ? nullptr : &plan->param_types;
  context.cluster = [this](std::vector<ClusterRole>* roles,
                           std::vector<ClusterDatabase>* databases) {
    ClusterObjects(roles, databases);
  };
  context.collection_table = [this](const std::string& collection,
                                    std::string* table, PgError* error) {
    return CollectionTable(collection, table, error);
  };
  return context;
}

namespace {

bool HasSubLink(const PgQuery__Node* node);

bool AnyHasSubLink(PgQuery__Node* const* nodes, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (nodes[i] && HasSubLink(nodes[i])) return true;
  return false;
}

// Whether an expression tree contains a subquery (which needs tables).
bool HasSubLink(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SUB_LINK:
      return true;
    case PG_QUERY__NODE__NODE_RES_TARGET:
      return node->res_target->val && HasSubLink(node->res_target->val);
    case PG_QUERY__NODE__NODE_A_EXPR:
      return (node->a_expr->lexpr && HasSubLink(node->a_expr->lexpr)) ||
             (node->a_expr->rexpr && HasSubLink(node->a_expr->rexpr));
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
      return AnyHasSubLink(node->bool_expr->args, node->bool_expr->n_args);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return AnyHasSubLink(node->func_call->args, node->func_call->n_args);
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return node->type_cast->arg && HasSubLink(node->type_cast->arg);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
      return AnyHasSubLink(node->coalesce_expr->args,
                           node->coalesce_expr->n_args);
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
      const PgQuery__CaseExpr* c = node->case_expr;
      if (c->arg && HasSubLink(c->arg)) return true;
      if (c->defresult && HasSubLink(c->defresult)) return true;
      for (size_t i = 0; i < c->n_args; i++) {
        const PgQuery__CaseWhen* w = c->args[i]->case_when;
        if (HasSubLink(w->expr) || HasSubLink(w->result)) return true;
      }
      return false;
    }
    case PG_QUERY__NODE__NODE_NULL_TEST:
      return HasSubLink(node->null_test->arg);
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return HasSubLink(node->a_indirection->arg);
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
      return AnyHasSubLink(node->a_array_expr->elements,
                           node->a_array_expr->n_elements);
    case PG_QUERY__NODE__NODE_LIST:
      return AnyHasSubLink(node->list->items, node->list->n_items);
    default:
      return false;
  }
}

// Whether a select-list expression calls unnest, generate_subscripts, an
// aggregate or a window function (outside subqueries): they compile to
// SQLite.
bool HasUnnest(const PgQuery__Node* node) {
  if (!node) return false;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
      const PgQuery__FuncCall* f = node->func_call;
      std::string name = sql::JoinNames(f->funcname, f->n_funcname);
      if (name.rfind("pg_catalog.", 0) == 0) name = name.substr(11);
      if (f->over || name == "unnest" || name == "generate_subscripts" ||
          name == "generate_series" || name == "regexp_matches" ||
          name == "regexp_split_to_table" || name == "string_to_table" ||
          expr_detail::IsJsonSetFunction(name))
        return true;
      // An aggregate: one group of the one row (SELECT count(*) is 1).
      if (f->agg_star || expr_detail::IsAggregateName(name)) return true;
      for (size_t i = 0; i < f->n_args; i++)
        if (HasUnnest(f->args[i])) return true;
      return false;
    }
    case PG_QUERY__NODE__NODE_A_EXPR:
      return HasUnnest(node->a_expr->lexpr) || HasUnnest(node->a_expr->rexpr);
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return HasUnnest(node->type_cast->arg);
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return HasUnnest(node->a_indirection->arg);
    default:
      return false;
  }
}

}  // namespace

bool SessionImpl::IsTableStatement(const PgQuery__Node* node) {
  if (node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return false;
  const PgQuery__SelectStmt* s = node->select_stmt;
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) return true;
  if (s->n_from_clause > 0 || s->with_clause) return true;
  // GROUPING() is compiled with its query (or refused there, in VALUES).
  if (UsesGroupingFunc(s)) return true;
  if (s->n_values_lists > 0) return false;
  // Without FROM too, SQLite applies LIMIT/OFFSET, GROUP BY and HAVING.
  if (s->limit_count || s->limit_offset || s->n_group_clause > 0 ||
      s->having_clause)
    return true;
  // unnest(...) in the select list returns rows: it compiles to SQLite.
  for (size_t i = 0; i < s->n_target_list; i++)
    if (HasUnnest(s->target_list[i]->res_target->val)) return true;
  return AnyHasSubLink(s->target_list, s->n_target_list) ||
         (s->where_clause && HasSubLink(s->where_clause));
}

bool SessionImpl::AnalyzeTableSelect(Plan* plan, PgError* error) {
  if (!LoadCatalog(error)) return false;
  CompileContext context = MakeCompileContext(plan);
  auto compiled = std::make_shared<Compiled>();
  QueryCompiler compiler(&context);
  if (!compiler.CompileSelect(plan->node->select_stmt, compiled.get(), error))
    return false;
  if (!compiler.analyzer()->CheckParams(error)) return false;
  plan->columns = compiled->columns;
  plan->compiled = std::move(compiled);
  NoteAnalysed(plan);
  plan->is_select = true;
  return true;
}

void SessionImpl::NoteAnalysed(Plan* plan) {
  plan->catalog = catalog_;
  plan->catalog_version = catalog_version_;
  plan->search_path = SearchPathSchemas(/*for_lookup=*/true);
  plan->settings_generation = settings_.generation();
}

bool SessionImpl::SameSearchPath(Plan* plan) {
  // Settings rarely change between executions: compare the lookup lists
  // only when some setting did.
  if (plan->settings_generation == settings_.generation()) return true;
  if (SearchPathSchemas(/*for_lookup=*/true) != plan->search_path) return false;
  plan->settings_generation = settings_.generation();
  return true;
}

bool SessionImpl::RefreshPlan(Plan* plan, PgError* error) {
  if (plan->catalog_version < 0) return true;
  if (!LoadCatalog(error)) return false;
  // As PostgreSQL, a plan is analysed again when the catalog changed or
  // when search_path now finds other relations. A plan that rendered rows
  // the catalog version does not cover (roles, databases, privileges,
  // settings: Compiled::no_cache) is analysed again every time, so that a
  // prepared statement sees CREATE ROLE or GRANT made after it.
  auto renders_volatile_rows = [](const Compiled* c) {
    return c && c->no_cache;
  };
  bool volatile_rows =
      renders_volatile_rows(plan->compiled.get()) ||
      (plan->dml && (renders_volatile_rows(plan->dml->source.get()) ||
                     renders_volatile_rows(plan->dml->scan.get())));
  if (!plan->reanalyse && !volatile_rows &&
      plan->catalog_version == catalog_version_ && SameSearchPath(plan))
    return true;
  // Analyse again against the new catalog, as PostgreSQL replans; the
  // result columns must stay those the client was told about. Until an
  // analysis succeeds with them, every execution tries again (the
  // relation may come back).
  // A failed analysis keeps the earlier translation: execution dispatches
  // on its kind, and comes back here (reanalyse) before running it.
  struct Earlier {
    Plan* plan;
    std::vector<ColumnDesc> columns;
    std::shared_ptr<Compiled> compiled;
    std::shared_ptr<DmlPlan> dml;
    std::shared_ptr<MergePlan> merge;
    ~Earlier() {
      plan->columns = std::move(columns);
      if (!plan->compiled && !plan->dml && !plan->merge) {
        plan->compiled = std::move(compiled);
        plan->dml = std::move(dml);
        plan->merge = std::move(merge);
      }
    }
  } earlier{plan, plan->columns, std::move(plan->compiled),
            std::move(plan->dml), std::move(plan->merge)};
  const std::vector<ColumnDesc>& before = earlier.columns;
  plan->reanalyse = true;
  plan->columns.clear();
  plan->compiled.reset();
  plan->dml.reset();
  plan->merge.reset();
  if (plan->reparse_on_refresh) {
    std::shared_ptr<sql::ParseTree> tree;
    if (!ParseCached(plan->text, &tree, error)) return false;
    plan->tree = tree;
    plan->node = tree->statement(0).stmt;
    plan->reparse_on_refresh = false;
  }
  auto shared = std::shared_ptr<Plan>(plan, [](Plan*) {});
  if (!Analyze(shared, error)) return false;
  if (plan->columns.size() != before.size()) {
    *error = Err("0A000", "cached plan must not change result type");
    return false;
  }
  for (size_t i = 0; i < before.size(); i++) {
    if (before[i].type_oid != plan->columns[i].type_oid) {
      *error = Err("0A000", "cached plan must not change result type");
      return false;
    }
  }
  plan->reanalyse = false;
  return true;
}

bool SessionImpl::RunCompiledSelect(PortalImpl* portal, PgError* error) {
  Plan& plan = *portal->plan;
  if (!RefreshPlan(&plan, error)) return false;
  docstore::Status s = EnsureStorageTransaction();
  if (!s.ok()) {
    *error = TableError(s);
    return false;
  }
  if (!runtime_.Attach(storage_->connection(), error)) return false;
  if (plan.compiled->partial && !plan.compiled->partial->unsupported) {
    bool done = false;
    if (!RunPartialAggregate(portal, &done, error)) return false;
    if (done) return true;
  }
  std::vector<Value> values;
  std::vector<Datum> encoded;
  return runtime_.Run(
      plan.compiled.get(), portal->params,
      [&](sqlite3_stmt* stmt, PgError* e) {
        if (!runtime_.RowValues(stmt, plan.columns, &values, e)) return false;
        if (!EncodeRow(values, plan.columns, portal->formats, &encoded, e))
          return false;
        portal->rows.push_back(std::move(encoded));
        return true;
      },
      error);
}

}  // namespace kova::planner
