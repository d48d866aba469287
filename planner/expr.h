// Scalar expressions: analysis of parse-tree expressions into a typed tree
// (PostgreSQL's type rules: literal types, unknown-literal coercion,
// operator and function resolution, casts, parameter type inference), and
// evaluation of that tree over canonical text values.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/planner.h"
#include "planner/types.h"

namespace kova::planner {

namespace expr_detail {
struct FunctionDef;
}

// A value: nullopt is SQL NULL, otherwise the canonical text of its type.
using Value = std::optional<std::string>;

struct Expr {
  enum class Kind {
    kConst,     // value
    kParam,     // $param (0-based)
    kCast,      // args[0] cast to type
    kOperator,  // name over args (1 or 2)
    kFunction,  // builtin name over args
    kAnd,
    kOr,
    kNot,
    kIsNull,     // args[0] IS NULL
    kIsNotNull,  // args[0] IS NOT NULL
    kCase,       // args: when1, then1, ..., [else]; has_else
    kCoalesce,
    kDistinct,  // args[0] = a comparison "<>" of two operands; name
                // "not" for IS NOT DISTINCT FROM
    kNullIf,    // args: a, (a = b)
    kMinMax,    // name "greatest" / "least"
    kBoolTest,  // name: "true", "not true", "false", ..., "unknown"
    // Only in statements over tables (compiled to SQLite SQL, query.cc):
    kColumn,     // a column of a row: `name` is its SQL expression
    kAggregate,  // name over args (none for count(*)); `distinct`
    kSubquery,   // name: "exists", "scalar", "in" (args[0] the operand)
    // name OVER (...): args are the call's `param` arguments (an
    // aggregate's: the kAggregate) then the window's keys; subquery_sql
    // is the OVER clause.
    kWindow,
  };
  Kind kind = Kind::kConst;
  uint32_t type = oid::kUnknown;
  int32_t typmod = -1;
  // A value of a domain (a cast to it, a column of it) has the domain's
  // base type as `type` and the domain here, for pg_typeof; else 0.
  uint32_t domain = 0;
  Value value;
  int param = -1;
  std::string name;
  bool has_else = false;
  bool distinct = false;  // kAggregate
  // kColumn of a table: pg_attribute's attrelid and attnum, for
  // RowDescription.
  uint32_t table_oid = 0;
  int16_t attnum = 0;
  // kColumn: an enclosing query's column, a constant in this query.
  bool outer = false;
  int location = -1;
  // kFunction "any"/"all" (x op ANY/ALL (array)): the comparison of
  // parameter 0 (x) with parameter 1 (an element).
  std::shared_ptr<const Expr> element_op;
  // kSubquery: the compiled SELECT (a query::Compiled, owned here).
  std::shared_ptr<void> subquery;
  std::string subquery_sql;
  // kConst of a type whose text depends on the settings (DateStyle,
  // TimeZone, IntervalStyle, extra_float_digits): the settings `value` was
  // written under. A prepared statement may run under others; evaluation
  // then writes the same value under the current ones, as PostgreSQL's
  // constants are values, printed when output.
  std::shared_ptr<const types::TypeContext> value_context;
  std::vector<std::unique_ptr<Expr>> args;
};

// Whether a type's text depends on the settings (see value_context).
bool SettingDependentText(uint32_t type);
// Whether a cast reads TimeZone, DateStyle or IntervalStyle (PostgreSQL
// marks it stable, not immutable).
bool SettingDependentCast(uint32_t from, uint32_t to);
// Whether two sets of settings write values the same way.
bool SameTypeSettings(const types::TypeContext& a, const types::TypeContext& b);
// `text`, a value of `type` written under `from`, written under `to`.
bool Rewrite(uint32_t type, const std::string& text,
             const types::TypeContext& from, const types::TypeContext& to,
             Value* out, PgError* error);

// What functions need from the session.
class SessionHooks {
 public:
  virtual ~SessionHooks() = default;
  virtual const types::TypeContext& type_context() = 0;
  virtual std::string CurrentUser() = 0;
  virtual std::string CurrentDatabase() = 0;
  virtual std::string ServerVersion() = 0;
  virtual int BackendPid() = 0;
  // Microseconds since the Unix epoch at transaction / statement start.
  virtual int64_t TransactionStartMicros() = 0;
  virtual int64_t StatementStartMicros() = 0;
  virtual bool GetSetting(const std::string& name, bool missing_ok,
                          Value* value, PgError* error) = 0;
  // value nullopt: back to the default (set_config(name, NULL, ...)).
  virtual bool SetSetting(const std::string& name, const Value& value,
                          bool is_local, std::string* result,
                          PgError* error) = 0;
  // Sleeps, returning false with 57014 when cancelled.
  virtual bool Sleep(double seconds, PgError* error) = 0;
  // Functions over session and storage state: nextval, currval, lastval,
  // setval, pg_get_serial_sequence, kova.command.
  virtual bool CallSessionFunction(const std::string& name,
                                   const std::vector<Value>& args, Value* out,
                                   PgError* error) = 0;
  // The existing schemas of search_path; for_lookup adds the session's
  // temporary schema where it is searched (current_schema(s)).
  virtual std::vector<std::string> SchemaSearchPath(bool for_lookup) {
    return {"public"};
  }
  // About how many rows the SQLite table of a collection holds (its
  // largest row id, read from the B-tree's end); -1 when unknown.
  virtual int64_t EstimateRows(const std::string& sqlite_table) { return -1; }
};

// Names visible to an expression: the FROM clause of a statement over
// tables (query.cc). Without a scope, a column reference is 42703.
class ExprScope {
 public:
  virtual ~ExprScope() = default;
  virtual bool ResolveColumn(const PgQuery__ColumnRef* ref,
                             std::unique_ptr<Expr>* out, PgError* error) = 0;
  // Where aggregates may appear (a SELECT list, HAVING, ORDER BY).
  virtual bool AggregatesAllowed(const char** context) = 0;
  virtual bool AnalyzeSubLink(const PgQuery__SubLink* link,
                              std::unique_ptr<Expr>* out, PgError* error) = 0;
  // name(...) OVER (...), `name` lower case without pg_catalog.
  virtual bool AnalyzeWindowCall(const PgQuery__FuncCall* f,
                                 const std::string& name,
                                 std::unique_ptr<Expr>* out, PgError* error) {
    (void)name;
    (void)out;
    *error = PgError{};
    error->sqlstate = "42P20";
    error->message = "window functions are not allowed here";
    error->position = f->location >= 0 ? f->location + 1 : 0;
    return false;
  }
  // GROUPING(args): only a query with GROUP BY takes it; elsewhere it is
  // refused as PostgreSQL refuses it where aggregates are.
  virtual bool AnalyzeGroupingFunc(const PgQuery__GroupingFunc* g,
                                   std::unique_ptr<Expr>* out, PgError* error);
  // A call the scope computes itself (select-list unnest): true with *out.
  virtual bool ReplaceCall(const PgQuery__FuncCall* f,
                           std::unique_ptr<Expr>* out) {
    (void)f;
    (void)out;
    return false;
  }
};

class Analyzer {
 public:
  // `param_types` holds the types known for $1..$n (0 = unknown) and is
  // extended and filled as parameters are seen and resolved.
  // `param_types` null: the statement has no parameters (a simple query),
  // so $n is an error, as in PostgreSQL.
  Analyzer(SessionHooks* hooks, std::vector<uint32_t>* param_types)
      : hooks_(hooks), param_types_(param_types) {}

  bool Analyze(const PgQuery__Node* node, std::unique_ptr<Expr>* out,
               PgError* error);
  // Gives an unknown-typed expression (literal or parameter) a type, as
  // PostgreSQL resolves unknowns in a SELECT list (to text).
  bool Coerce(std::unique_ptr<Expr>* expr, uint32_t type, int32_t typmod,
              PgError* error);
  // Checks that every parameter got a type (42P18 otherwise).
  bool CheckParams(PgError* error);

  // PostgreSQL's name for an output column without an alias.
  static std::string ColumnName(const PgQuery__Node* node);
  // An aggregate call analysed as a window function's: neither nested
  // in nor grouping the query's aggregates.
  bool AnalyzeWindowAggregate(const PgQuery__FuncCall* f,
                              const std::string& name,
                              std::unique_ptr<Expr>* out, PgError* error);
  bool in_aggregate() const { return in_aggregate_; }
  // Analysing an aggregate's FILTER condition.
  bool in_filter() const { return in_filter_; }

  void set_scope(ExprScope* scope) { scope_ = scope; }
  ExprScope* scope() const { return scope_; }
  std::vector<uint32_t>* param_types() const { return param_types_; }

 private:
  bool AnalyzeConst(const PgQuery__AConst* c, std::unique_ptr<Expr>* out,
                    PgError* error);
  bool AnalyzeOperator(const PgQuery__AExpr* a, std::unique_ptr<Expr>* out,
                       PgError* error);
  bool AnalyzeFunction(const PgQuery__FuncCall* f, std::unique_ptr<Expr>* out,
                       PgError* error);
  bool AnalyzeCast(const PgQuery__TypeCast* c, std::unique_ptr<Expr>* out,
                   PgError* error);
  // Enums and domains (user types): a cast to a resolved (non-domain) type,
  // and enum_first / enum_last / enum_range.
  bool AnalyzeCastTo(const PgQuery__TypeCast* c, uint32_t type, int32_t typmod,
                     std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeEnumFunction(const PgQuery__FuncCall* f, const std::string& name,
                           std::unique_ptr<Expr>* out, PgError* error);
  // A comparison (=, <>, <, ...) of two analysed operands, with unknowns
  // coerced to the other side's type.
  bool Compare(const std::string& op, std::unique_ptr<Expr> left,
               std::unique_ptr<Expr> right, int location,
               std::unique_ptr<Expr>* out, PgError* error);
  bool ResolveOperator(const std::string& op, std::unique_ptr<Expr> left,
                       std::unique_ptr<Expr> right, int location,
                       std::unique_ptr<Expr>* out, PgError* error);
  bool CoerceArgs(const expr_detail::FunctionDef& def,
                  std::vector<std::unique_ptr<Expr>>* args, PgError* error);
  // Row constructors in comparisons, IS NULL and IS DISTINCT FROM
  // (expr_row.cc); CompareNodes and DistinctNodes take any operands.
  static bool IsRow(const PgQuery__Node* node);
  bool CompareNodes(const std::string& op, const PgQuery__Node* left,
                    const PgQuery__Node* right, int location,
                    std::unique_ptr<Expr>* out, PgError* error);
  bool DistinctNodes(bool distinct, const PgQuery__Node* left,
                     const PgQuery__Node* right, int location,
                     std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeRowConstructor(const PgQuery__RowExpr* r,
                             std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeRowNullTest(const PgQuery__NullTest* t,
                          std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeSpecialOperator(const PgQuery__AExpr* a,
                              std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeSqlValueFunction(const PgQuery__SQLValueFunction* f,
                               std::unique_ptr<Expr>* out, PgError* error);

  bool AnalyzeAggregate(const PgQuery__FuncCall* f, const std::string& name,
                        std::unique_ptr<Expr>* out, PgError* error);
  // percentile_cont, percentile_disc, mode, and any call with WITHIN GROUP
  // (ordered_set.cc): the fraction is args[0] (not for mode), the sorted
  // value follows, its direction ("AL" or "DL") in `value`.
  bool AnalyzeOrderedSetAggregate(const PgQuery__FuncCall* f,
                                  const std::string& name,
                                  std::unique_ptr<Expr>* out, PgError* error);

  // Arrays (expr_array.cc). `target`: the array type a cast gives an
  // ARRAY[...] constructor (0 if none).
  bool AnalyzeArrayExpr(const PgQuery__AArrayExpr* a, uint32_t target,
                        std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeIndirection(const PgQuery__AIndirection* ind,
                          std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeScalarArrayOp(const PgQuery__AExpr* a, std::unique_ptr<Expr>* out,
                            PgError* error);
  // Functions and operators over arrays: *handled stays false when `name`
  // is not one of them (or no operand is an array, for operators).
  bool AnalyzeArrayFunction(const std::string& name,
                            std::vector<std::unique_ptr<Expr>>* args,
                            int location, bool* handled,
                            std::unique_ptr<Expr>* out, PgError* error);
  bool AnalyzeArrayOperator(const std::string& op, std::unique_ptr<Expr>* left,
                            std::unique_ptr<Expr>* right, int location,
                            bool* handled, std::unique_ptr<Expr>* out,
                            PgError* error);

  SessionHooks* hooks_;
  std::vector<uint32_t>* param_types_;
  ExprScope* scope_ = nullptr;
  bool in_aggregate_ = false;
  bool in_filter_ = false;
  bool window_call_ = false;  // AnalyzeAggregate for a window function
  // Parse nodes made during analysis (RowOfSubquery), kept while it runs.
  std::vector<std::shared_ptr<void>> made_nodes_;
  // (a, b) op (SELECT x, y ...): a row of one scalar subquery per column,
  // made from the statement's (null when the subquery cannot be split).
  const PgQuery__Node* RowOfSubquery(const PgQuery__SubLink* link,
                                     size_t columns, int location,
                                     PgError* error);
};

// Resolves a TypeName node into an OID and typmod (42704 when unknown).
bool ResolveTypeName(const PgQuery__TypeName* name, uint32_t* type,
                     int32_t* typmod, PgError* error);

bool Evaluate(const Expr& expr, const std::vector<Value>& params,
              SessionHooks* hooks, Value* out, PgError* error);

}  // namespace kova::planner
