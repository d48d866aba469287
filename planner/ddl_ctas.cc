// CREATE TABLE ... AS and SELECT ... INTO: a new table whose columns are the
// query's output columns, then the query's rows through the INSERT pipeline
// (the same path as INSERT INTO ... SELECT, so constraints, storage and
// counters behave the same).
#include <cstring>

#include "planner/ddl.h"
#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/types.h"

namespace kova::planner {

// What CREATE TABLE AS needs at run time. The synthesized parse nodes point
// into the statement's parse tree, which the plan keeps alive.
struct CtasPlan {
  const PgQuery__IntoClause* into = nullptr;
  PgQuery__SelectStmt query_copy;  // SELECT INTO: the query without INTO
  PgQuery__Node query_node;
  const PgQuery__Node* query = nullptr;
  std::shared_ptr<Plan> source;  // the analysed query (its output columns)
  bool if_not_exists = false;
  bool select_into = false;
};

bool SessionImpl::AnalyzeCreateTableAs(Plan* plan, PgError* error) {
  auto ctas = std::make_shared<CtasPlan>();
  const PgQuery__Node* node = plan->node;
  if (node->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
    // SELECT ... INTO t: PostgreSQL turns it into CREATE TABLE t AS SELECT.
    ctas->select_into = true;
    ctas->into = node->select_stmt->into_clause;
    ctas->query_copy = *node->select_stmt;
    ctas->query_copy.into_clause = nullptr;
    ctas->query_node = PG_QUERY__NODE__INIT;
    ctas->query_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
    ctas->query_node.select_stmt = &ctas->query_copy;
    ctas->query = &ctas->query_node;
  } else {
    const PgQuery__CreateTableAsStmt* c = node->create_table_as_stmt;
    if (c->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW) {
      *error = Err("0A000", NotSupportedMessage(node));
      return false;
    }
    ctas->into = c->into;
    ctas->query = c->query;
    ctas->if_not_exists = c->if_not_exists;
  }
  const PgQuery__IntoClause* into = ctas->into;
  if (ctas->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
    *error = Err("0A000", "CREATE TABLE AS EXECUTE is not supported yet");
    return false;
  }
  auto source = std::make_shared<Plan>();
  source->tree = plan->tree;
  source->node = ctas->query;
  source->param_types = plan->param_types;
  source->simple = plan->simple;
  if (IsTableStatement(ctas->query)) {
    if (!AnalyzeTableSelect(source.get(), error)) return false;
  } else if (!AnalyzeSelect(source.get(), error)) {
    return false;
  }
  if (into->n_col_names > source->columns.size()) {
    *error = Err("42601", "too many column names were specified");
    return false;
  }
  plan->param_types = source->param_types;
  ctas->source = std::move(source);
  plan->ctas = std::move(ctas);
  plan->writes = true;
  statement_writes_ = true;
  return true;
}

ExecuteResult SessionImpl::RunCreateTableAs(PortalImpl* portal,
                                            ResultSink* sink) {
  const CtasPlan& ctas = *portal->plan->ctas;
  const PgQuery__IntoClause* into = ctas.into;
  const PgQuery__RangeVar* rv = into->rel;
  // The table, as a CREATE TABLE statement run through the usual path (its
  // checks, names and storage parameters).
  bool temp = rv->relpersistence && std::strcmp(rv->relpersistence, "t") == 0;
  std::string create = temp ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ";
  if (rv->schemaname && *rv->schemaname)
    create += QuoteIdentifier(rv->schemaname) + ".";
  create += QuoteIdentifier(rv->relname) + " (";
  const auto& columns = ctas.source->columns;
  for (size_t i = 0; i < columns.size(); i++) {
    std::string name = i < into->n_col_names
                           ? std::string(into->col_names[i]->string->sval)
                           : columns[i].name;
    uint32_t type = columns[i].type_oid;
    // An untyped literal becomes text, as PostgreSQL 10+ resolves it.
    if (type == oid::kUnknown) type = oid::kText;
    if (i) create += ", ";
    create += QuoteIdentifier(name) + " " +
              types::FormatTypeName(type, columns[i].type_modifier);
  }
  create += ")";
  switch (into->on_commit) {
    case PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DROP:
      create += " ON COMMIT DROP";
      break;
    case PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DELETE_ROWS:
      create += " ON COMMIT DELETE ROWS";
      break;
    case PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_PRESERVE_ROWS:
      create += " ON COMMIT PRESERVE ROWS";
      break;
    default:
      break;
  }
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse(create, &tree, &syntax) || tree->size() != 1)
    return Fail(Err("XX000", "CREATE TABLE AS: cannot build \"" + create +
                                 "\": " + syntax.message));
  PgQuery__CreateStmt* stmt = tree->statement(0).stmt->create_stmt;
  // Storage parameters (WITH (...)) and the table's location come from the
  // statement as written.
  stmt->n_options = into->n_options;
  stmt->options = into->options;
  // PostgreSQL reports CREATE TABLE AS errors about the new relation
  // without a position.
  stmt->relation->location = -1;
  if (ctas.if_not_exists) {
    PgError error;
    if (!LoadCatalog(&error)) return Fail(error);
    std::string schema;
    if (!CreationSchema(rv, &schema, &error)) return Fail(error);
    if (catalog_->RelationExists(schema, rv->relname)) {
      Notice(sink, "NOTICE", "42P07",
             "relation \"" + std::string(rv->relname) +
                 "\" already exists, skipping");
      return Tag("CREATE TABLE AS");
    }
  }
  ExecuteResult created = RunCreateTable(stmt, sink);
  stmt->n_options = 0;
  stmt->options = nullptr;
  if (!created.ok) return created;
  if (into->skip_data) return Tag("CREATE TABLE AS");

  // The rows: INSERT INTO rel SELECT ..., analysed against the new catalog.
  PgQuery__InsertStmt insert = PG_QUERY__INSERT_STMT__INIT;
  insert.relation = const_cast<PgQuery__RangeVar*>(rv);
  insert.select_stmt = const_cast<PgQuery__Node*>(ctas.query);
  insert.override = PG_QUERY__OVERRIDING_KIND__OVERRIDING_NOT_SET;
  PgQuery__Node insert_node = PG_QUERY__NODE__INIT;
  insert_node.node_case = PG_QUERY__NODE__NODE_INSERT_STMT;
  insert_node.insert_stmt = &insert;
  auto plan = std::make_shared<Plan>();
  plan->tree = portal->plan->tree;
  plan->node = &insert_node;
  plan->param_types = portal->plan->param_types;
  plan->simple = portal->plan->simple;
  plan->writes = true;
  PgError error;
  if (!AnalyzeInsert(plan.get(), &error)) return Fail(error);
  PortalImpl rows;
  rows.plan = plan;
  rows.params = portal->params;
  if (!RunDml(&rows, &error)) return Fail(error);
  if (!rows.final_result.ok) return rows.final_result;
  // "INSERT 0 n" -> "SELECT n", the tag PostgreSQL gives CREATE TABLE AS.
  const std::string& tag = rows.final_result.command_tag;
  return Tag("SELECT " + tag.substr(tag.rfind(' ') + 1));
}

}  // namespace kova::planner
