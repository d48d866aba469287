// Statements over tables: analysis of SELECT (FROM, joins, WHERE, GROUP BY,
// HAVING, ORDER BY, LIMIT, DISTINCT, set operations, subqueries) into one
// SQLite statement over the collection tables, and the runtime that runs
// compiled statements with PostgreSQL's semantics (sqlite_runtime.cc).
// Internal to the planner.
#pragma once

#include <sqlite3.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/expr.h"
#include "planner/svalue.h"
#include "planner/system_catalog.h"

namespace kova::planner {

// A value a compiled statement binds: a constant, or parameter $n+1
// converted to its SQLite form at execution.
struct SqlBind {
  bool is_param = false;
  int param = 0;
  uint32_t type = 0;
  SValue value;
  // Where in the statement's text the literal this value comes from
  // starts, when it comes from that one literal alone (-1 otherwise): a
  // cached translation of the same text with other literals rebinds it.
  int literal_location = -1;
};

// Expressions SQLite cannot compute itself run through kova_eval(id,
// args...): `node` is the expression with its arguments replaced by
// parameters 0..n-1 of types `arg_types`.
struct Fallback {
  std::shared_ptr<Expr> node;
  std::vector<uint32_t> arg_types;
};

// One compiled SQLite statement.
// A one-row aggregate over one collection table whose aggregates combine
// from parts (count, sum of int2/int4, min/max of integer forms): two
// threads can each run `sql` over ranges of the table's rows and add up
// what they find, as PostgreSQL's parallel aggregate does
// (parallel_aggregate.cc).
struct PartialAggregate {
  std::string from;  // the FROM item: the table and its alias
  std::string rid;   // the alias's row id column, "t0.rid"
  // The statement over the rows whose rid is in [?lo_slot, ?lo_slot + 1].
  std::string sql;
  int lo_slot = 0;
  // Per output column: '+' adds (count, sum), '<' min, '>' max.
  std::string combine;
  // Set once a helper could not prepare `sql` (a function only the
  // session's runtime has): the statement then always runs whole.
  bool unsupported = false;
};

struct Compiled {
  std::string sql;
  std::vector<SqlBind> binds;
  std::vector<Fallback> fallbacks;
  std::vector<ColumnDesc> columns;  // output columns
  // The output columns that are untyped literals (shown as text): a set
  // operation resolves them to the other side's type, as PostgreSQL does.
  std::vector<bool> unknown_columns;
  // Equal constants, parameters and fallback calls share one slot, so an
  // expression emits the same SQL every time (GROUP BY matching needs it).
  std::map<std::string, int> bind_slots;
  std::map<std::string, int> fallback_slots;
  // A prepared statement kept while the plan lives (same connection).
  sqlite3_stmt* stmt = nullptr;
  // Reads roles or databases, which the catalog version does not cover:
  // never kept for reuse.
  bool no_cache = false;
  // A one-row aggregate that parallel_aggregate.cc can split; null if not.
  std::shared_ptr<PartialAggregate> partial;
  ~Compiled();
};

// A relation visible in FROM.
struct RangeEntry {
  std::string alias;      // the name SQL uses: table name or alias
  std::string relname;    // the relation's own name (for hints)
  std::string sql_alias;  // "t0", "t1", ...
  uint32_t table_oid = 0;
  struct Col {
    std::string name;
    uint32_t type;
    int32_t typmod;
    std::string sql;  // how the statement reads it
    int16_t attnum;
    uint32_t domain = 0;     // the column's domain (`type` is its base), or 0
    uint32_t table_oid = 0;  // its table, in a join's entry (else the entry's)
  };
  std::vector<Col> columns;
  bool has_doc = false;  // a collection table (has _id and doc)
  // A collection table's SQLite table as FROM names it (MaterializeJoinKeys).
  std::string from_sql;
  // A table inside a join that merges columns (USING, NATURAL) or has an
  // alias: the join's own entry answers unqualified names and `*` for it.
  bool hidden = false;
  // False inside an aliased join, whose alias hides the inner names.
  bool qualifiable = true;
  // A function in FROM that returns one non-composite value per row: its
  // whole-row reference is that value, not a record.
  bool scalar = false;
};

// A WITH RECURSIVE query being compiled: how its recursive term reads the
// rows of the previous step (query_recursive.cc).
struct RecursiveCte {
  enum class State { kNotUnion, kNonRecursiveTerm, kRecursiveTerm };
  State state = State::kNotUnion;
  std::string table;                     // the SQLite name of its working table
  std::vector<RangeEntry::Col> columns;  // read as table.c0, c1, ...
  int references = 0;
  const class QueryCompiler* term_scope = nullptr;  // the recursive term's
};

// GROUP BY with grouping sets (ROLLUP, CUBE, GROUPING SETS) or a query
// using GROUPING(): each set runs as its own grouped SELECT, the sets are
// combined with UNION ALL, and the statement reads that union's columns
// (grouping_sets.cc).
struct GroupingSetsPlan {
  // The distinct grouping expressions, as their SQL.
  std::vector<std::string> exprs;
  // The expanded sets, as indexes into `exprs`.
  std::vector<std::vector<int>> sets;
  // Select-list entries without columns that GROUP BY names (by position,
  // name or expression): they read as NULL where not grouped, while equal
  // constants elsewhere keep their values, as in PostgreSQL.
  std::vector<const Expr*> constant_targets;
  // More than 4096 sets: refused once the statement has been analysed, as
  // PostgreSQL does; the error's position (-1: none).
  bool too_many = false;
  int too_many_location = -1;
  // Found while the statement's output is emitted: the aggregates and
  // GROUPING() calls it reads (each GROUPING as its arguments' indexes).
  std::vector<std::string> aggregates;
  std::vector<std::vector<int>> grouping_calls;
  std::string alias;  // the union's name in FROM
  // Expressions are emitted as reads of the union's columns.
  bool substituting = false;
};

class SqlRuntime;

// Where an expression starts, for errors: a constant's, column reference's,
// function call's, cast's or operator's own location (-1 for others).
int ExprNodeLocation(const PgQuery__Node* node);
// The leftmost location under an expression, as PostgreSQL's exprLocation
// reports it (an operator expression starts at its left operand).
int LeftmostParseLocation(const PgQuery__Node* node);
// Where a select-list entry's value is written, for errors. An operator's
// own location is its operator's; PostgreSQL points at the entry instead.
int TargetValueLocation(const PgQuery__ResTarget* target);
// A sort key's direction as SQLite takes it (" DESC NULLS FIRST"), with
// PostgreSQL's default: NULLs last ascending and first descending.
std::string SortDirectionSql(const PgQuery__SortBy* sort);

// Whether a SELECT's list, HAVING, ORDER BY, DISTINCT ON, WINDOW clause or
// VALUES lists call GROUPING() (their subqueries aside): such a query is
// compiled to SQLite, as one with grouping sets (grouping_sets.cc).
bool UsesGroupingFunc(const PgQuery__SelectStmt* s);

// An aggregate run as a window function (sum(x) OVER ...), as opposed to a
// window function over an aggregate of the query (lag(sum(x)) OVER ...).
bool IsWindowAggregateCall(const Expr& e);

// Registers the SQLite functions of query_array.cc (kova_array_rows,
// kova_array_elem, kova_subscripts) on a connection.
int RegisterArrayFunctions(sqlite3* db, SqlRuntime* runtime);
// kova_row_pack / kova_row_get: the rows of LATERAL subqueries
// (lateral_rows.cc).
int RegisterLateralFunctions(sqlite3* db);
// kova_series(start, stop, step): integer generate_series (series_vtab.cc).
int RegisterSeriesModule(sqlite3* db, SqlRuntime* runtime);
// Registers kova_json_agg (json_agg.cc) on a connection.
int RegisterJsonAggregates(sqlite3* db, SqlRuntime* runtime);
// stddev / variance and their _samp / _pop forms (variance.cc): the SQLite
// function of one, for integer and numeric or (floats) real arguments.
int RegisterVarianceAggregates(sqlite3* db, SqlRuntime* runtime);
// kova_bit_and / _or / _xor and kova_<corr, covar_*, regr_*> (regression.cc).
int RegisterRegressionAggregates(sqlite3* db);
const char* VarianceFunctionName(const std::string& aggregate, bool floats);
// percentile_cont, percentile_disc and mode (ordered_set.cc):
// kova_ordered_set and kova_percentile_check.
int RegisterOrderedSetAggregates(sqlite3* db, SqlRuntime* runtime);

// The PartialAggregate of a one-row aggregate SELECT over one collection
// table (targets and their SQL, FROM item, the table's SQL alias, WHERE and
// select list as compiled, number of bind slots); null when some target
// does not combine from parts (parallel_aggregate.cc).
std::shared_ptr<PartialAggregate> PlanPartialAggregate(
    const std::vector<std::unique_ptr<Expr>>& targets,
    const std::vector<std::string>& target_sql, const std::string& from,
    const std::string& alias, const std::string& where,
    const std::string& select, size_t binds);

// What the compiler needs from the session.
struct CompileContext {
  SessionHooks* hooks = nullptr;
  std::shared_ptr<const catalog::Catalog> catalog;
  std::string db;
  std::vector<uint32_t>* param_types = nullptr;  // null: simple query
  // The docstore table of a collection (quoted), for FROM.
  std::function<bool(const std::string& collection, std::string* table,
                     PgError* error)>
      collection_table;
  std::vector<std::string> search_path = {"public"};
  std::string temp_schema;  // what "pg_temp" names
  // Roles and databases, for pg_roles and pg_database (system_relations.cc).
  std::function<void(std::vector<ClusterRole>*, std::vector<ClusterDatabase>*)>
      cluster;
  // When set, the primary keys (table OID, constraint name) that ungrouped
  // columns relied on (CREATE VIEW records them as dependencies).
  std::set<std::pair<uint32_t, std::string>>* grouping_keys = nullptr;
};

class QueryCompiler : public ExprScope {
 public:
  explicit QueryCompiler(CompileContext* context,
                         QueryCompiler* parent = nullptr,
                         Compiled* shared = nullptr);

  // UPDATE ... FROM / DELETE ... USING: collect the join keys of their
  // items' ON and their WHERE while emitting them (`on`), then make the
  // keys no index serves columns SQLite indexes (MaterializeJoinKeys).
  void CollectJoinKeys(bool on) { collect_join_keys_ = on; }
  void IndexJoinKeys(std::string* from, std::string* where) {
    MaterializeJoinKeys(from, where);
  }

  // A SELECT (or VALUES / set operation) into `out` (sql, columns, binds).
  // WITH queries (not data-modifying ones) that the rest of the statement
  // can name: a SELECT's own, or those of an INSERT, UPDATE or DELETE.
  bool AddWithClause(const PgQuery__WithClause* with, PgError* error);
  bool CompileSelect(const PgQuery__SelectStmt* stmt, Compiled* out,
                     PgError* error);

  // For DML: a scope with one table, and expressions over it.
  bool AddTable(const catalog::Table& table, const std::string& alias,
                const std::string& sql_alias, PgError* error);
  bool AddFromItem(const PgQuery__Node* node, std::string* sql, PgError* error);
  bool AnalyzeExpr(const PgQuery__Node* node, std::unique_ptr<Expr>* out,
                   PgError* error);
  Analyzer* analyzer() { return &analyzer_; }
  // SQL for an analysed expression (binds and fallbacks go to `out`).
  std::string Emit(const Expr& e);
  void set_target(Compiled* out) { out_ = out; }
  const std::vector<RangeEntry>& entries() const { return entries_; }

  // ExprScope
  // The row of the FROM entry `alias` (here or in an enclosing query), as
  // a whole-row reference reads it; false when there is none.
  bool WholeRow(const std::string& alias, int location,
                std::unique_ptr<Expr>* out);
  bool ResolveColumn(const PgQuery__ColumnRef* ref, std::unique_ptr<Expr>* out,
                     PgError* error) override;
  bool AggregatesAllowed(const char** context) override;
  bool AnalyzeSubLink(const PgQuery__SubLink* link, std::unique_ptr<Expr>* out,
                      PgError* error) override;
  bool AnalyzeWindowCall(const PgQuery__FuncCall* f, const std::string& name,
                         std::unique_ptr<Expr>* out, PgError* error) override;

  // Resolves a RangeVar against the catalog: a table, admin.counters or a
  // view. Errors 42P01 as PostgreSQL.
  static bool LookupRelation(CompileContext* context,
                             const PgQuery__RangeVar* rv,
                             const catalog::Table** table,
                             const catalog::View** view, PgError* error);
  // The catalog entry for admin.counters.
  static const catalog::Table& CountersTable();

 private:
  bool OrderAndLimitOutput(const PgQuery__SelectStmt* s,
                           const std::string& what, Compiled* out,
                           PgError* error);
  bool AnalyzeRowInSubquery(const PgQuery__SubLink* link, const Compiled& inner,
                            std::unique_ptr<Expr> e, std::unique_ptr<Expr>* out,
                            PgError* error);
  static std::string OutputName(const PgQuery__Node* val);
  bool AddFunctionItem(const PgQuery__RangeFunction* rf, std::string* sql,
                       PgError* error);
  // unnest(array) and generate_subscripts calls in a SELECT list, joined
  // to `from` as one json_each that runs them in lockstep; each call then
  // reads as a column of it (ReplaceCall).
  bool AddSelectListUnnest(const PgQuery__SelectStmt* s, std::string* from,
                           PgError* error);
  bool ReplaceCall(const PgQuery__FuncCall* f,
                   std::unique_ptr<Expr>* out) override;
  bool AnalyzeGroupingFunc(const PgQuery__GroupingFunc* g,
                           std::unique_ptr<Expr>* out, PgError* error) override;
  // One GROUP BY item that is an expression: its SQL, read as a
  // select-list position, an expression, or an output column name.
  bool GroupItem(const PgQuery__Node* g,
                 const std::vector<std::unique_ptr<Expr>>& targets,
                 const std::vector<std::string>& names, std::string* sql,
                 PgError* error);
  // Grouping sets (grouping_sets.cc): the GROUP BY clause expanded into
  // grouping_ (54011 for a CUBE of more than 12 elements).
  bool PlanGroupingSets(const PgQuery__SelectStmt* s,
                        const std::vector<std::unique_ptr<Expr>>& targets,
                        const std::vector<std::string>& names, PgError* error);
  // PostgreSQL's checks of a grouped query with grouping sets, in its
  // order: GROUPING's arguments, then ungrouped columns, for the select
  // list and ORDER BY and then for HAVING; 54001 for too many sets.
  bool CheckGroupingSets(const std::vector<const Expr*>& list,
                         const Expr* having, PgError* error);
  bool CheckGroupingArgs(const Expr& e, PgError* error);
  // The select-list entry a GROUP BY item (whose SQL is `sql`) stands for.
  const Expr* ReferencedTarget(
      const PgQuery__Node* item, const std::string& sql,
      const std::vector<std::unique_ptr<Expr>>& targets,
      const std::vector<std::string>& names);
  // While grouping_ substitutes: `e` as a read of the union's columns
  // (a grouping expression, an aggregate, a GROUPING call); false when
  // `e` is none of them.
  bool EmitGrouped(const Expr& e, std::string* sql);
  std::string EmitWithoutSubstitution(const Expr& e);
  // A column of this query that a subquery reads: the mark it writes.
  std::string MarkOuterReference(const RangeEntry::Col& column,
                                 const std::string& table, int location);
  // Replaces this query's marks in `sql` by the columns' SQL (`grouped`
  // false) or their grouped values: 42803 for a column not grouped.
  bool ResolveOuterReferences(std::string* sql, bool grouped, PgError* error);
  // The FROM entry of the union of the sets' grouped SELECTs.
  std::string GroupingSetsFrom(const std::string& from,
                               const std::string& where);
  // unnest / generate_subscripts in FROM (query_array.cc).
  bool AddArrayFunctionItem(const PgQuery__RangeFunction* rf,
                            const PgQuery__FuncCall* f, const std::string& name,
                            std::string* sql, PgError* error);
  // The document argument of a json set-returning function (coerced to
  // json or jsonb as the function takes it; 42883 otherwise) and the type
  // of the values it returns.
  bool JsonSetArg(const PgQuery__FuncCall* f, const std::string& name,
                  std::unique_ptr<Expr>* doc, uint32_t* type, PgError* error);
  // json_each, jsonb_array_elements and the others in FROM.
  bool AddJsonFunctionItem(const PgQuery__RangeFunction* rf,
                           const PgQuery__FuncCall* f, const std::string& name,
                           std::string* sql, PgError* error);
  // json(b)_to_record / json(b)_to_recordset ... AS x(column type, ...).
  bool AddJsonRecordItem(const PgQuery__RangeFunction* rf,
                         const PgQuery__FuncCall* f, const std::string& name,
                         std::string* sql, PgError* error);
  // generate_series(start, stop [, step]) over integers: the arguments
  // analysed and coerced to int4 or int8 (`type`); 0A000 for other types.
  // generate_series's FROM entry: its value (and ordinality) columns.
  bool AddSeriesEntry(const PgQuery__RangeFunction* rf, uint32_t type,
                      const std::string& sql_alias,
                      const std::string& value_sql,
                      const std::string& ordinality_sql, PgError* error);
  bool AnalyzeSeriesArgs(const PgQuery__FuncCall* f,
                         std::vector<std::unique_ptr<Expr>>* args,
                         uint32_t* type, PgError* error);
  // generate_series in a SELECT list: its part of kova_srf_rows' arguments
  // and the column `col` that reads it (query_array.cc).
  bool SelectListSeries(const PgQuery__FuncCall* f, size_t k,
                        const std::string& column, std::string* call, Expr* col,
                        PgError* error);
  // generate_subscripts(anyarray, int4 [, bool]): coerces the arguments,
  // 42883 when they do not fit.
  bool CheckSubscriptsArgs(std::vector<std::unique_ptr<Expr>>* args,
                           int location, PgError* error);
  bool AddSequenceRelation(const PgQuery__RangeVar* rv, std::string* sql,
                           PgError* error);
  // JOIN, with USING / NATURAL column merging and aliases (query_join.cc).
  bool AddJoinItem(const PgQuery__JoinExpr* j, std::string* sql,
                   PgError* error);
  // The entries [begin, end) a join's side sees, as (entry, column) pairs.
  std::vector<std::pair<size_t, size_t>> SideColumns(size_t begin,
                                                     size_t end) const;
  // Window functions (query_window.cc): the OVER clause of `f` as SQL,
  // with its keys appended to `keys` (grouping checks see them).
  bool WindowSql(const PgQuery__WindowDef* def, int location, std::string* sql,
                 std::vector<std::unique_ptr<Expr>>* keys, PgError* error);
  bool WindowFrameSql(const PgQuery__WindowDef* def, bool has_order,
                      uint32_t order_type, std::string* sql, PgError* error);
  std::string EmitWindow(const Expr& e);
  // WITH RECURSIVE (query_recursive.cc): a reference to WITH query `cte`
  // of `owner`, as a derived table or, inside its own recursive term, as
  // the working table.
  bool AddRecursiveCteRef(const PgQuery__RangeVar* rv,
                          const PgQuery__CommonTableExpr* cte,
                          QueryCompiler* owner, const std::string& alias,
                          const std::vector<std::string>& names,
                          std::string* sql, PgError* error);
  // pg_catalog.pg_class and friends (system_relations.cc).
  bool AddSystemRelation(const PgQuery__RangeVar* rv, std::string* sql,
                         PgError* error);
  bool AddPartitionAncestorsItem(const PgQuery__RangeFunction* rf,
                                 const PgQuery__FuncCall* f, std::string* sql,
                                 PgError* error);
  bool CompileSimpleSelect(const PgQuery__SelectStmt* stmt, Compiled* out,
                           PgError* error);
  bool CompileValues(const PgQuery__SelectStmt* stmt, Compiled* out,
                     PgError* error);
  bool CompileSetOp(const PgQuery__SelectStmt* stmt, Compiled* out,
                    PgError* error);
  bool ExpandStar(const PgQuery__ColumnRef* ref,
                  std::vector<std::unique_ptr<Expr>>* exprs,
                  std::vector<std::string>* names, PgError* error);
  bool CheckGrouping(const Expr& e, const std::vector<std::string>& groups,
                     PgError* error);
  // Operands of x IN (SELECT ...) and (x, y) IN (SELECT ...) against the
  // subquery's columns of another numeric type: both sides converted to
  // their common type as PostgreSQL's operator choice does (float8 =
  // numeric compares as float8, numeric = int8 as numeric). Updates the
  // operands and `column_types`; the subquery's SQL, wrapped if a column
  // converts.
  std::string ConvertSubqueryColumns(
      const std::string& sql, std::vector<uint32_t>& column_types,
      const std::vector<std::unique_ptr<Expr>*>& operands);
  // A column of a FROM table whose whole primary key is grouped: one value
  // per group (PostgreSQL's functional dependency).
  bool GroupedByPrimaryKey(const Expr& column,
                           const std::vector<std::string>& groups) const;
  // A constant's slot; `literal_location` as SqlBind's (-1: none).
  std::string Bind(uint32_t type, const Value& value, int literal_location);
  // The slot of constant `e` (emitted before) is not its literal's alone:
  // the translation depends on its value (a check made while compiling).
  void KeepLiteralValue(const Expr& e);
  std::string EmitFallback(const Expr& e);
  // An expression an expression index of a FROM table keys on: the index's
  // own key SQL, so that SQLite can use the index (query_index_expr.cc).
  bool EmitIndexedExpression(const Expr& e, std::string* sql);
  std::string EmitOperator(const Expr& e);
  // x = ANY(array) / x <> ALL(array) as SQLite's IN / NOT IN over the
  // array's elements (an index on x can serve it); "" when the comparison
  // is not one SQLite makes itself (query_array.cc).
  std::string EmitArrayMembership(const Expr& e);
  static bool HasAggregate(const Expr& e);
  std::string EmitAggregateCall(const Expr& e,
                                const std::vector<const Expr*>& args);
  // An ordered-set aggregate's call, FILTER included (ordered_set.cc).
  std::string EmitOrderedSetAggregate(const Expr& e);
  std::string NewAlias();
  // WITH: a query name visible here (this scope's WITH, then the enclosing
  // ones); a query sees only the WITH entries before it.
  const PgQuery__CommonTableExpr* FindCte(const std::string& name,
                                          QueryCompiler** owner, size_t* index);
  // A derived table in FROM (subquery, view, WITH query): compiles `stmt`
  // and adds a range entry named `alias` over its output columns.
  bool AddDerived(const PgQuery__SelectStmt* stmt, const std::string& alias,
                  const std::vector<std::string>& column_names,
                  uint32_t table_oid, std::string* sql, PgError* error);

  // Whether this scope or an enclosing one compiles a text other than the
  // statement's (a view's query): its locations are not the statement's.
  bool InOtherText() const;

  CompileContext* context_;
  bool other_text_ = false;
  // A FROM subquery without LATERAL: the FROM items beside it (the
  // parent's entries) are out of its reach; outer levels are not.
  bool not_lateral_ = false;
  std::vector<const PgQuery__CommonTableExpr*> ctes_;
  size_t visible_ctes_ = SIZE_MAX;
  QueryCompiler* parent_;
  Compiled* out_ = nullptr;
  Analyzer analyzer_;
  std::vector<RangeEntry> entries_;
  // Expression index keys of the tables in entries_ (EmitIndexedExpression),
  // gathered on first use; index_keys_entries_ is how many entries it saw.
  std::shared_ptr<void> index_keys_;
  size_t index_keys_entries_ = 0;
  int* alias_counter_;
  int own_alias_counter_ = 0;
  const char* aggregate_context_ = nullptr;  // null: allowed
  // Where window functions are not allowed (null: allowed), for 42P20.
  const char* window_context_ = nullptr;
  // An aggregate analysed as a window function does not group the query.
  bool window_aggregate_ = false;
  const PgQuery__SelectStmt* select_ = nullptr;  // for WINDOW names
  bool sublink_ = false;  // compiles a subquery expression (SubLink)
  // WITH RECURSIVE: every WITH query is visible to all of them.
  bool recursive_with_ = false;
  std::map<const PgQuery__CommonTableExpr*, RecursiveCte> recursive_;
  std::vector<const PgQuery__CommonTableExpr*> recursive_stack_;
  bool saw_aggregate_ = false;
  PgError emit_error_;
  bool emit_failed_ = false;
  std::optional<GroupingSetsPlan> grouping_;
  // The aggregate EmitWindow emits as a window function: it is computed
  // over the grouped rows, not read from the grouping sets' union.
  const Expr* window_aggregate_emitted_ = nullptr;
  // Column references this query resolved in an enclosing query's FROM.
  int outer_references_ = 0;
  // Equalities between columns of two of its tables in ON and WHERE, as
  // their SQL (collected while those are emitted).
  bool collect_join_keys_ = false;
  std::vector<std::pair<std::string, std::string>> join_keys_;
  // SQLite joins with nested loops and can index a join key on the fly
  // only when it is a column: a key of two tables that no index serves
  // (kova_key(t1.doc, 'k') = kova_key(t2.doc, 'k')) makes the later table
  // a materialized subquery with the key as a column, which SQLite then
  // indexes automatically (10k x 10k rows: 10 s -> 20 ms).
  void MaterializeJoinKeys(std::string* from, std::string* where);
  bool ColumnIndexed(const RangeEntry& entry, const std::string& sql) const;
  // The catalog's table of this OID (null: none).
  const catalog::Table* TableOf(uint32_t oid) const;
  // A query with grouping sets: its subqueries read its columns through
  // marks (MarkOuterReference), which become the columns' SQL where rows
  // are read before grouping and the grouped values elsewhere.
  bool grouping_query_ = false;
  struct OuterReference {
    std::string sql;   // the column's SQL
    std::string name;  // as PostgreSQL names it in errors: "t.c"
    uint32_t type;
    int location;
  };
  std::vector<OuterReference> outer_references_from_subqueries_;
  std::string outer_reference_tag_;
  // Select-list set-returning calls and the columns that replace them.
  std::map<const PgQuery__FuncCall*, std::shared_ptr<Expr>> unnest_calls_;
};

// A plain literal of a statement's text: a number, or a string in single
// quotes without prefix or backslash.
struct QueryLiteral {
  size_t start = 0, end = 0;  // its bytes in the text
  char kind = 0;      // 'i' int4, 'l' int8, 'n' numeric, 's' string (as parsed)
  std::string value;  // the number as written, or the string's contents
};

// A statement's text with its plain literals replaced by their kinds: texts
// of the same shape differ only in the values of those literals, so they
// parse alike (query_cache.cc).
struct QueryShape {
  std::string key;
  std::vector<QueryLiteral> literals;
};

// False when the text holds something the scan does not follow, or more
// than one statement (such texts are not cached).
bool ShapeQuery(std::string_view text, QueryShape* shape);

// Runs compiled statements on a session's SQLite connection, with the
// functions, collations and aggregates the translation relies on.
class SqlRuntime {
 public:
  SqlRuntime(SessionHooks* hooks) : hooks_(hooks) {}
  // Registers the functions on the connection (once).
  bool Attach(sqlite3* db, PgError* error);
  // Runs `c` with parameters; on_row gets each row's values (SQLite form).
  bool Run(Compiled* c, const std::vector<Value>& params,
           const std::function<bool(sqlite3_stmt*, PgError*)>& on_row,
           PgError* error);
  // Binds c's constants and parameters to `stmt` (prepared from c.sql or
  // from a statement with the same slots).
  bool BindAll(sqlite3_stmt* stmt, const Compiled& c,
               const std::vector<Value>& params, PgError* error);
  // Converts a result row to canonical text values.
  bool RowValues(sqlite3_stmt* stmt, const std::vector<ColumnDesc>& columns,
                 std::vector<Value>* out, PgError* error);
  // Called by the registered functions.
  bool EvalFallback(int id, int argc, sqlite3_value** argv, SValue* out);
  void SetError(const PgError& error) {
    if (!has_error_) error_ = error;
    has_error_ = true;
  }
  SessionHooks* hooks() { return hooks_; }
  sqlite3* db() { return db_; }

 private:
  SessionHooks* hooks_;
  sqlite3* db_ = nullptr;
  // The statement running now (fallback ids refer to it) and its params.
  Compiled* current_ = nullptr;
  const std::vector<Value>* params_ = nullptr;
  PgError error_;
  bool has_error_ = false;
};

}  // namespace kova::planner
