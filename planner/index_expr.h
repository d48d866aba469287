// Index keys that are expressions (CREATE INDEX ON t (lower(email))): their
// analysis over the table's columns, PostgreSQL's rules for them (IMMUTABLE
// functions only, no aggregates or subqueries), the text pg_get_indexdef
// shows, and the SQL the docstore indexes: kova_index_key(doc, program),
// a deterministic SQLite function that evaluates the expression over the
// stored document. Internal to the planner.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "docstore/docstore.h"
#include "planner/expr.h"

struct PgQuery__Node;
struct sqlite3;

namespace kova::planner {

// An index expression analysed over a table: its columns are parameters
// 0..n-1, in the order the expression first names them.
struct IndexExpression {
  std::unique_ptr<Expr> expr;
  std::vector<std::string> names;  // column per parameter
  std::vector<uint32_t> types;     // domains as their base types
  std::vector<int32_t> typmods;
};

// Analyses an index element's expression over `table`. A bare column
// (CREATE INDEX ON t ((a))) sets *column to its name and leaves `out`
// empty: PostgreSQL makes that a plain column key.
bool AnalyzeIndexExpression(SessionHooks* hooks, const catalog::Table& table,
                            const PgQuery__Node* node, IndexExpression* out,
                            std::string* column, PgError* error);
// The same from the expression's stored text (catalog::Index::expressions).
bool AnalyzeIndexExpressionText(SessionHooks* hooks,
                                const catalog::Table& table,
                                const std::string& text, IndexExpression* out,
                                PgError* error);

// The SQL over the row's `doc` column that the docstore indexes for it
// (`doc`: how a query reads that column, "t0.doc").
std::string IndexKeySql(const IndexExpression& e, const std::string& text,
                        const std::string& doc = "doc");

// PostgreSQL's text for an index column: pg_get_indexdef's (pretty false)
// or psql's \d and the DETAIL of a unique violation (pretty true). `text`
// (the stored expression) is shown where Kova cannot rebuild PostgreSQL's
// form.
std::string IndexColumnText(const IndexExpression& e, const std::string& text,
                            bool pretty);
// The same from a table's index: analyses the stored text first.
std::string IndexColumnText(const catalog::Table& table,
                            const std::string& text, bool pretty);

// PostgreSQL's text of a CHECK constraint's expression over `table`, as
// pg_get_constraintdef shows it inside CHECK (...); "" where Kova cannot
// rebuild it (the stored text is shown then).
std::string CheckExpressionText(const catalog::Table& table,
                                const std::string& text, bool pretty,
                                const types::TypeContext& context,
                                const std::vector<std::string>& search_path);

// The name PostgreSQL derives an expression's index column name from: the
// function's name for a call, else "expr".
std::string IndexExpressionName(const PgQuery__Node* node);
// A partial index's condition `e` (boolean, analysed from `text`) as the
// store's SQL over `doc` (docstore::IndexSpec::where).
std::string IndexPredicateSql(const IndexExpression& e,
                              const std::string& text);
// Whether everything `e` calls is IMMUTABLE in PostgreSQL.
bool IsImmutableExpr(const Expr& e);

// The key value of a table row (values in table column order).
bool EvaluateIndexExpression(const IndexExpression& e,
                             const catalog::Table& table,
                             const std::vector<Value>& row, SessionHooks* hooks,
                             Value* out, PgError* error);

// An index key's error as it reaches SQLite's caller inside a message
// ("kova:SQLSTATE: message", index_expr.cc): false when `message` holds
// none.
bool IndexKeyError(std::string_view message, PgError* out);

// Registers kova_index_key on a connection (sqlite_runtime.cc registers it
// with the collations its keys may use: RegisterStorageFunctions).
int RegisterIndexKeyFunction(sqlite3* db);
int RegisterStorageFunctions(sqlite3* db);
bool HasStorageFunctions(sqlite3* db);

// The docstore index of a catalog index with expression keys (analysed
// over `table` as it is now: after a column's rename or type change).
bool StorageIndexSpec(SessionHooks* hooks, const catalog::Table& table,
                      const catalog::Index& x, docstore::IndexSpec* spec,
                      PgError* error);
// The docstore key label of expression key i ("$<i>:<text>").
std::string ExpressionKeyLabel(size_t i, const IndexExpression& e,
                               const std::string& text);
// The result type of a stored expression over `table` (false when it no
// longer analyses).
bool IndexExpressionType(const catalog::Table& table, const std::string& text,
                         uint32_t* type, int32_t* typmod);
// pg_attribute names of an index's columns: column keys their column's
// name, expression keys IndexExpressionName made unique ("expr", "expr1").
std::vector<std::string> IndexColumnNames(const catalog::Index& x);
// IndexExpressionName of a stored expression text.
std::string IndexExpressionNameOfText(const std::string& text);

// Whether the stored expression text names `column`.
bool IndexExpressionUses(const std::string& text, const std::string& column);

}  // namespace kova::planner
