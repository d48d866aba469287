// Generated columns (GENERATED ALWAYS AS (expr) STORED): the checks
// PostgreSQL makes of the expression when a column is declared. The value
// is computed with every row written (dml_run.cc) and stored like any
// other field.
#include "planner/ddl_alter_internal.h"
#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/index_expr.h"
#include "planner/session_util.h"

namespace kova::planner {

bool AnalyzeGeneratedColumn(SessionHooks* hooks, const catalog::Table& table,
                            int column, const PgQuery__Node* raw,
                            std::string* text, PgError* error) {
  const catalog::Column& col = table.columns[column];
  // What the parse tree shows: subqueries, and other generated columns
  // (computed in no particular order, so they cannot feed one another).
  bool failed = false;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(raw)),
      [&](PgQuery__Node* n) {
        if (failed) return;
        if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
          *error = Err("0A000",
                       "cannot use subquery in column generation expression",
                       n->sub_link->location);
          failed = true;
        } else if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
          const PgQuery__ColumnRef* ref = n->column_ref;
          const PgQuery__Node* last = ref->fields[ref->n_fields - 1];
          if (last->node_case != PG_QUERY__NODE__NODE_STRING) return;
          const catalog::Column* other = table.FindColumn(last->string->sval);
          if (other && !other->generated_expr.empty()) {
            *error = Err("42P17",
                         "cannot use generated column \"" + other->name +
                             "\" in column generation expression",
                         ref->location);
            error->detail =
                "A generated column cannot reference another generated "
                "column.";
            failed = true;
          }
        }
      });
  if (failed) return false;
  std::unique_ptr<Expr> e;
  if (!AnalyzeRowValueExpr(hooks, table, raw, "column generation expressions",
                           &e, error))
    return false;
  if (!IsImmutableExpr(*e)) {
    *error = Err("42P17", "generation expression is not immutable");
    return false;
  }
  if (e->type != oid::kUnknown && !Assignable(e->type, col.type)) {
    // PostgreSQL's cookDefault words it so, without a position.
    *error = Err("42804", "column \"" + col.name + "\" is of type " +
                              types::FormatTypeName(col.type, col.typmod) +
                              " but default expression is of type " +
                              types::FormatTypeName(e->type, -1));
    error->hint = "You will need to rewrite or cast the expression.";
    return false;
  }
  *text = sql::DeparseExpr(raw);
  return true;
}

}  // namespace kova::planner
