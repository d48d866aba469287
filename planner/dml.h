// INSERT, UPDATE and DELETE over tables. Internal to the planner.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/expr.h"
#include "planner/query.h"

namespace kova::planner {

// An expression over the columns of one row (RETURNING, CHECK, ON CONFLICT
// ... SET): column i of the row is parameter `row_base + i`, and of the
// EXCLUDED row `row_base + ncolumns + i`.
struct RowExpr {
  std::shared_ptr<Expr> expr;
};

// UPDATE ... SET (a, b) = (SELECT x, y ...): one scalar sub-select per
// target column, made from the statement's own (its parse nodes stay owned
// by the statement's tree).
struct ColumnSubLink {
  PgQuery__SelectStmt select;
  PgQuery__Node select_node;
  PgQuery__Node* target;
  PgQuery__SubLink sublink;
  PgQuery__Node node;
};

struct DmlPlan {
  enum class Kind { kInsert, kUpdate, kDelete } kind = Kind::kInsert;
  std::vector<std::unique_ptr<ColumnSubLink>> column_sublinks;
  std::shared_ptr<const catalog::Catalog> catalog;  // keeps `table` alive
  const catalog::Table* table = nullptr;
  bool counters = false;  // admin.counters
  std::string db, collection;
  std::string alias;  // the target's alias (INSERT INTO t AS a, UPDATE t u)
  int row_base = 0;   // first row parameter (after the statement's own)

  // INSERT: the target column of each source position; VALUES rows (a null
  // expression is DEFAULT) or a SELECT.
  std::vector<int> insert_columns;
  std::vector<std::vector<std::shared_ptr<Expr>>> rows;
  std::shared_ptr<Compiled> source;
  std::vector<uint32_t> source_types;
  // Per source column: for an untyped literal going into a column whose
  // text depends on the settings, the settings it is read under (those of
  // the analysis, as PostgreSQL reads literals when it parses); else null.
  std::vector<std::shared_ptr<const types::TypeContext>> source_contexts;
  bool overriding_system = false;
  bool overriding_user = false;
  // Defaults of the table's columns (null: none or autoincrement).
  std::vector<std::shared_ptr<Expr>> defaults;
  // ON CONFLICT: 1 DO NOTHING, 2 DO UPDATE.
  int on_conflict = 0;
  std::string conflict_index;  // empty: any unique index
  // ON CONFLICT DO UPDATE SET: column and value (null: SET col = DEFAULT).
  std::vector<std::pair<int, std::shared_ptr<Expr>>> conflict_set;
  std::shared_ptr<Expr> conflict_where;

  // UPDATE / DELETE: SELECT rid, doc[, new values...] FROM ...
  std::shared_ptr<Compiled> scan;
  std::vector<int> set_columns;  // column of each new value in the scan
  std::vector<uint32_t> set_types;
  std::vector<bool> set_default;  // SET col = DEFAULT

  // Generated columns (column, expression over the row), computed before
  // the row's constraints are checked.
  std::vector<std::pair<int, std::shared_ptr<Expr>>> generated;
  // CHECK constraints (name, expression over the row).
  std::vector<std::pair<std::string, std::shared_ptr<Expr>>> checks;
  std::vector<std::shared_ptr<Expr>> returning;
  // RETURNING columns of other FROM items: computed by the scan after the
  // new values (row parameters after the row and EXCLUDED slots).
  std::vector<std::string> returning_extra_sql;
  std::vector<uint32_t> returning_extra_types;
};

// The rows a DmlPlan's statement read before any of them is written
// (SessionImpl::CollectDml): INSERT ... SELECT's values, or UPDATE's and
// DELETE's targets with the scan's other columns (new values, RETURNING
// values of other FROM items).
struct DmlRows {
  std::vector<std::vector<Value>> inserts;
  struct Target {
    int64_t rid;
    std::string doc;
    std::vector<SValue> values;
  };
  std::vector<Target> targets;
};

// MERGE: one INSERT, UPDATE or DELETE plan per WHEN clause that changes
// rows (merge.cc), each made from the statement's own parse nodes.
struct MergePlan {
  struct Action {
    bool matched = false;
    bool changes = false;  // not DO NOTHING
    std::shared_ptr<struct Plan> plan;
  };
  std::vector<Action> actions;
  // The parse nodes made for the actions' statements (they point into the
  // statement's tree, which the plans keep alive).
  std::shared_ptr<void> nodes;
};

// An expression over one row of `table` (CHECK constraints), with
// unknown literals taken as boolean.
bool AnalyzeRowExpr(SessionHooks* hooks, const catalog::Table& table,
                    const PgQuery__Node* node, const char* context,
                    std::unique_ptr<Expr>* out, PgError* error);

// Whether PostgreSQL has an assignment cast (or none is needed) from type
// `from` to `to`: what INSERT, UPDATE and ALTER TABLE's defaults, USING
// and type changes accept without an explicit cast. Untyped literals are
// not asked: they take the column's type before.
bool Assignable(uint32_t from, uint32_t to);
// "(a, b)=(1, null)": a key as constraint violations show it (DETAIL).
std::string KeyValuesText(const std::vector<std::string>& cols,
                          const std::vector<Value>& values);
// Row parameters (negative numbers while analysing) numbered from
// `row_base` on, once the statement's own parameters are known.
void FixRowParams(Expr* e, int row_base);
// An expression over one row of `table` of any type (generated columns).
bool AnalyzeRowValueExpr(SessionHooks* hooks, const catalog::Table& table,
                         const PgQuery__Node* node, const char* context,
                         std::unique_ptr<Expr>* out, PgError* error);
// GENERATED ALWAYS AS (`raw`) STORED of column `column` of `table` (whose
// other generated columns are marked): PostgreSQL's checks, then the
// expression's SQL text for the catalog (generated_columns.cc).
bool AnalyzeGeneratedColumn(SessionHooks* hooks, const catalog::Table& table,
                            int column, const PgQuery__Node* raw,
                            std::string* text, PgError* error);

// The value of an expression of type `from` stored in column `col`:
// PostgreSQL's assignment cast (string types check their length as input
// does, rather than truncating as an explicit cast does).
bool AssignValue(uint32_t from, const catalog::Column& col,
                 const types::TypeContext& context, Value* value,
                 PgError* error);

}  // namespace kova::planner
