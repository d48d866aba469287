// Helpers shared by expression analysis and evaluation. Internal.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "planner/expr.h"
#include "planner/types.h"

namespace kova::planner::expr_detail {

inline PgError Err(const char* sqlstate, std::string message,
                   int location = -1) {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.position = location >= 0 ? location + 1 : 0;
  return e;
}

inline std::string TypeName(uint32_t type) {
  return types::FormatTypeName(type, -1);
}

// A call's argument types as PostgreSQL's errors list them ("integer, text").
inline std::string ArgTypeList(const std::vector<std::unique_ptr<Expr>>& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); i++)
    list += (i ? ", " : "") + TypeName(args[i]->type);
  return list;
}

// PostgreSQL's error for a call that no function matches (42883, with its
// hint); `arg_types` is the argument list as the message shows it.
inline PgError NoFunction(const std::string& name, const std::string& arg_types,
                          int location) {
  PgError e =
      Err("42883", "function " + name + "(" + arg_types + ") does not exist",
          location);
  e.hint =
      "No function matches the given name and argument types. You might "
      "need to add explicit type casts.";
  return e;
}
inline PgError NoFunction(const std::string& name,
                          const std::vector<std::unique_ptr<Expr>>& args,
                          int location) {
  return NoFunction(name, ArgTypeList(args), location);
}

inline bool IsInteger(uint32_t t) {
  return t == oid::kInt2 || t == oid::kInt4 || t == oid::kInt8;
}
// json_agg, jsonb_agg, json_object_agg, jsonb_object_agg (json_agg.cc).
inline bool IsJsonAggregate(const std::string& name) {
  return name == "json_agg" || name == "jsonb_agg" ||
         name == "json_object_agg" || name == "jsonb_object_agg";
}
// PostgreSQL 15's quote_ident (expr_string.cc): bare when lower case and
// not a keyword other than an unreserved one, else double-quoted.
std::string QuoteIdent(const std::string& s);
// stddev, variance and their _samp / _pop forms (variance.cc).
inline bool IsVarianceAggregate(const std::string& name) {
  return name == "stddev" || name == "stddev_samp" || name == "stddev_pop" ||
         name == "variance" || name == "var_samp" || name == "var_pop";
}
// bit_and, bit_or, bit_xor over integers (regression.cc).
inline bool IsBitAggregate(const std::string& name) {
  return name == "bit_and" || name == "bit_or" || name == "bit_xor";
}
// corr, covar_pop / covar_samp and the regr_ family, over (Y, X) pairs of
// double precision (regression.cc).
inline bool IsRegressionAggregate(const std::string& name) {
  return name == "corr" || name == "covar_pop" || name == "covar_samp" ||
         name == "regr_count" || name == "regr_avgx" || name == "regr_avgy" ||
         name == "regr_sxx" || name == "regr_syy" || name == "regr_sxy" ||
         name == "regr_slope" || name == "regr_intercept" || name == "regr_r2";
}
// The ordered-set aggregates: percentile_cont, percentile_disc and mode,
// called with WITHIN GROUP (ORDER BY ...) (ordered_set.cc).
inline bool IsOrderedSetAggregate(const std::string& name) {
  return name == "percentile_cont" || name == "percentile_disc" ||
         name == "mode";
}
// The aggregate functions Kova knows, by name (without pg_catalog.).
inline bool IsAggregateName(const std::string& name) {
  return name == "count" || name == "sum" || name == "avg" || name == "min" ||
         name == "max" || name == "bool_and" || name == "bool_or" ||
         name == "every" || name == "string_agg" || name == "array_agg" ||
         IsJsonAggregate(name) || IsVarianceAggregate(name) ||
         IsOrderedSetAggregate(name) || IsBitAggregate(name) ||
         IsRegressionAggregate(name);
}
inline bool IsFloat(uint32_t t) {
  return t == oid::kFloat4 || t == oid::kFloat8;
}
inline bool IsNumber(uint32_t t) {
  return IsInteger(t) || IsFloat(t) || t == oid::kNumeric;
}
inline bool IsText(uint32_t t) {
  return t == oid::kText || t == oid::kVarchar || t == oid::kBpchar ||
         t == oid::kName || t == oid::kUnknown;
}

inline std::unique_ptr<Expr> Const(uint32_t type, Value value, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kConst;
  e->type = type;
  e->value = std::move(value);
  e->location = location;
  return e;
}

// ---- helpers over canonical values --------------------------------------

inline bool ToInt64(const std::string& s, int64_t* out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

inline double ToDouble(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return std::numeric_limits<double>::infinity();
  if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::strtod(s.c_str(), nullptr);
}

// A number of type `type` as a double: a real widens from its float (its
// text is the shortest that reads back as that float, "1.1" for
// 1.10000002384185791), as PostgreSQL's float4-to-float8 promotion does.
inline double ToDoubleOf(uint32_t type, const std::string& s) {
  double d = ToDouble(s);
  return type == oid::kFloat4 ? static_cast<double>(static_cast<float>(d)) : d;
}

inline bool FormatDouble(double d, uint32_t type, const types::TypeContext& ctx,
                         Value* out, PgError* error) {
  char buf[64];
  if (std::isnan(d)) {
    *out = "NaN";
    return true;
  }
  if (std::isinf(d)) {
    *out = d > 0 ? "Infinity" : "-Infinity";
    return true;
  }
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  std::string canonical;
  if (!types::InputText(type, -1, buf, ctx, &canonical, error)) return false;
  *out = canonical;
  return true;
}

inline const char* IntRangeName(uint32_t type) {
  return type == oid::kInt2   ? "smallint"
         : type == oid::kInt4 ? "integer"
                              : "bigint";
}

inline bool CheckIntRange(int64_t v, uint32_t type, PgError* error) {
  int64_t lo = type == oid::kInt2   ? std::numeric_limits<int16_t>::min()
               : type == oid::kInt4 ? std::numeric_limits<int32_t>::min()
                                    : std::numeric_limits<int64_t>::min();
  int64_t hi = type == oid::kInt2   ? std::numeric_limits<int16_t>::max()
               : type == oid::kInt4 ? std::numeric_limits<int32_t>::max()
                                    : std::numeric_limits<int64_t>::max();
  if (v < lo || v > hi) {
    *error = Err("22003", std::string(IntRangeName(type)) + " out of range");
    return false;
  }
  return true;
}

// -v, or 22003 when it is out of the type's range (-INT64_MIN included).
inline bool NegateInt(int64_t v, uint32_t type, int64_t* out, PgError* error) {
  if (v == std::numeric_limits<int64_t>::min()) {
    *error = Err("22003", std::string(IntRangeName(type)) + " out of range");
    return false;
  }
  *out = -v;
  return CheckIntRange(-v, type, error);
}

// The result type of arithmetic between two number types.
inline uint32_t ArithmeticType(uint32_t a, uint32_t b) {
  if (a == oid::kFloat8 || b == oid::kFloat8) return oid::kFloat8;
  if (IsFloat(a) || IsFloat(b)) {
    return (a == oid::kFloat4 && b == oid::kFloat4) ? oid::kFloat4
                                                    : oid::kFloat8;
  }
  if (a == oid::kNumeric || b == oid::kNumeric) return oid::kNumeric;
  if (a == oid::kInt8 || b == oid::kInt8) return oid::kInt8;
  if (a == oid::kInt4 || b == oid::kInt4) return oid::kInt4;
  return oid::kInt2;
}

struct FunctionDef {
  const char* name;
  std::vector<uint32_t> args;
  uint32_t result;
};

// pg_type.typcategory of the types the expression layer knows.
inline char Category(uint32_t t) {
  if (IsNumber(t) || t == oid::kOid) return 'N';
  if (IsText(t) && t != oid::kUnknown) return 'S';
  if (t == oid::kBool) return 'B';
  if (t == oid::kDate || t == oid::kTime || t == oid::kTimestamp ||
      t == oid::kTimestamptz)
    return 'D';
  if (t == oid::kInterval) return 'T';
  if (t == oid::kUnknown) return 'X';
  return 'U';
}
inline bool IsPreferred(uint32_t t) {
  return t == oid::kFloat8 || t == oid::kText || t == oid::kBool ||
         t == oid::kTimestamptz || t == oid::kInterval || t == oid::kOid;
}

// An implicit cast (pg_cast castcontext 'i' or binary coercible) from
// `from` to `to`.
inline bool ImplicitCast(uint32_t from, uint32_t to) {
  if (from == to || from == oid::kUnknown) return true;
  switch (from) {
    case oid::kInt2:
      return to == oid::kInt4 || to == oid::kInt8 || to == oid::kNumeric ||
             IsFloat(to) || to == oid::kOid;
    case oid::kInt4:
      return to == oid::kInt8 || to == oid::kNumeric || IsFloat(to) ||
             to == oid::kOid;
    case oid::kInt8:
      return to == oid::kNumeric || IsFloat(to) || to == oid::kOid;
    case oid::kNumeric:
      return IsFloat(to);
    case oid::kFloat4:
      return to == oid::kFloat8;
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar:
    case oid::kName:
      return to == oid::kText || to == oid::kVarchar || to == oid::kBpchar ||
             to == oid::kName;
    case oid::kDate:
      return to == oid::kTimestamp || to == oid::kTimestamptz;
    case oid::kTimestamp:
      return to == oid::kTimestamptz;
    case oid::kTime:
      return to == oid::kInterval;
    default:
      return false;
  }
}

// typcategory with arrays ('A') told apart.
char TypeCategory(uint32_t t);
// An implicit cast, arrays included (element to element).
bool ImplicitCastOrArray(uint32_t from, uint32_t to);

// PostgreSQL's select_common_type: the type a UNION's, a CASE's, a
// VALUES column's ... inputs resolve to, taken in the order given (unknown
// literals skipped; all unknown: text). 0 when two of them cannot be
// matched: *bad_a and *bad_b are the two types, *bad_index (if given) the
// input that did not match.
uint32_t SelectCommonType(const std::vector<uint32_t>& types, uint32_t* bad_a,
                          uint32_t* bad_b, size_t* bad_index = nullptr);
// Where an expression starts in the statement (a cast's operand comes
// before the cast), as PostgreSQL's exprLocation; -1 if unknown.
int StartLocation(const Expr& e);
// The leftmost known location in an expression's tree (an operator's left
// operand, say); -1 if none.
int LeftmostLocation(const Expr& e);
// PostgreSQL's error for it: "<what> types A and B cannot be matched".
PgError NoCommonType(const std::string& what, uint32_t a, uint32_t b,
                     int location);
// *e, of a known type, cast to `type` (unchanged when it has it). Unknown
// literals are Coerce'd instead, which reads them as the type.
void ConvertTo(std::unique_ptr<Expr>* e, uint32_t type);

// Pseudo-types in the tables below.
inline constexpr uint32_t kAnyNonArray = 2776;  // anynonarray
inline constexpr uint32_t kAnyElement = 2283;   // anyelement

// Built-in functions (by lower-case name, without pg_catalog.).
const std::vector<FunctionDef>& Functions();
// Built-in operators: name in FunctionDef::name; one arg = prefix.
const std::vector<FunctionDef>& Operators();

// Implementation of the functions of expr_eval.cc, split by area. Each
// returns true when it knows `e.name` (setting *handled), evaluating into
// *out or failing with *error.
bool EvalStringFunction(const Expr& e, const std::vector<Value>& args,
                        SessionHooks* hooks, bool* handled, Value* out,
                        PgError* error);
bool EvalMathFunction(const Expr& e, const std::vector<Value>& args,
                      SessionHooks* hooks, bool* handled, Value* out,
                      PgError* error);
bool EvalDateTimeFunction(const Expr& e, const std::vector<Value>& args,
                          SessionHooks* hooks, bool* handled, Value* out,
                          PgError* error);
bool EvalFormatFunction(const Expr& e, const std::vector<Value>& args,
                        SessionHooks* hooks, bool* handled, Value* out,
                        PgError* error);
bool EvalJsonFunction(const Expr& e, const std::vector<Value>& args,
                      SessionHooks* hooks, bool* handled, Value* out,
                      PgError* error);
// Lower-case hex of bytes, two digits each (expr_bytes.cc).
std::string HexDigits(std::string_view bytes);
// A bytea's canonical text ("\x" and hex) as its bytes; other text as is.
std::string ByteaBytes(const std::string& canonical);
bool EvalBytesFunction(const Expr& e, const std::vector<Value>& args,
                       SessionHooks* hooks, bool* handled, Value* out,
                       PgError* error);
bool EvalArrayFunction(const Expr& e, const std::vector<Value>& args,
                       SessionHooks* hooks, bool* handled, Value* out,
                       PgError* error);
// The set-returning json functions: json[b]_array_elements[_text],
// json[b]_object_keys, json[b]_each[_text].
bool IsJsonSetFunction(const std::string& name);
// Their rows for the document `doc`, as columns of texts (NULL: SQL NULL):
// one column (value or key), or two for *_each (key, value).
bool JsonSetRows(const std::string& name, const std::string& doc,
                 std::vector<std::vector<std::optional<std::string>>>* cols,
                 PgError* error);
// Row values (expr_row.cc): "row" (a ROW constructor or a whole-row
// reference, type record) and kova_row_json / kova_row_jsonb (to_json of
// one). `value` is '1' when the first argument is not a field but the
// row's presence (NULL: a row an outer join did not find, which is NULL as
// a whole), else '0', then the field names separated by kRowNameSeparator.
inline constexpr char kRowNameSeparator = '\x1f';
std::unique_ptr<Expr> MakeRow(std::vector<std::unique_ptr<Expr>> fields,
                              const std::vector<std::string>& names,
                              std::unique_ptr<Expr> presence, int location);
inline bool IsRowValue(const Expr& e) {
  return e.kind == Expr::Kind::kFunction && e.name == "row";
}
// The index of a row value's first field (after its presence, if any).
inline size_t RowFirstField(const Expr& e) {
  return e.value && !e.value->empty() && (*e.value)[0] == '1' ? 1 : 0;
}
// to_json (jsonb: to_jsonb) of a row value: its fields as an object.
std::unique_ptr<Expr> RowToJson(std::unique_ptr<Expr> row, bool jsonb);
bool EvalRowFunction(const Expr& e, const std::vector<Value>& args,
                     SessionHooks* hooks, bool* handled, Value* out,
                     PgError* error);
// generate_series over timestamps (tz: with time zone, in ctx's zone) as
// stored values (microseconds); the step is an interval's text, read under
// step_context. At most kMaxSeriesRows rows: Kova builds them in memory.
inline constexpr size_t kMaxSeriesRows = 100000000;
bool TimestampSeries(bool tz, int64_t start, int64_t stop,
                     const std::string& step_text,
                     const types::TypeContext& step_context,
                     const types::TypeContext& ctx, std::vector<int64_t>* out,
                     PgError* error);
// to_json of a value of `type` (NULL is "null"), under `ctx`.
bool ValueToJson(uint32_t type, const Value& v, const types::TypeContext& ctx,
                 std::string* out, PgError* error);
// array_to_json (also to_json of an array).
bool ArrayToJson(uint32_t type, const std::string& value, bool pretty,
                 const types::TypeContext& ctx, std::string* out,
                 PgError* error);
// Three-way comparison of two non-null values of comparable types (arrays
// included), as PostgreSQL's btree comparison functions order them.
bool CompareValues(uint32_t lt, uint32_t rt, const std::string& l,
                   const std::string& r, const types::TypeContext& ctx,
                   int* out, PgError* error);
// array_cmp: element by element (NULL after everything), then the number
// of elements, dimensions and lower bounds.
bool CompareArrays(uint32_t type, const std::string& l, const std::string& r,
                   const types::TypeContext& ctx, int* out, PgError* error);
// Date/time operators (+, -, *, / over date/time/interval operands).
bool EvalDateTimeOperator(const Expr& e, const Value& l, const Value& r,
                          SessionHooks* hooks, bool* handled, Value* out,
                          PgError* error);
// PostgreSQL's interval_lerp (percentile_cont): lo + (hi - lo) * pct, with
// interval_mi, interval_mul and interval_pl; canonical texts under `ctx`.
bool IntervalLerp(const std::string& lo, const std::string& hi, double pct,
                  const types::TypeContext& ctx, std::string* out,
                  PgError* error);
// Three-way comparison of date/time/interval values of the same or
// comparable types; false with *error on bad input.
bool CompareDateTime(uint32_t lt, uint32_t rt, const std::string& l,
                     const std::string& r, const types::TypeContext& ctx,
                     int* out, PgError* error);
// LIKE on UTF-8 text with an escape character (empty: none).
bool LikeMatch(const std::string& s, const std::string& p,
               const std::string& escape, bool insensitive, bool* match,
               PgError* error);
// POSIX regular expression match (~, ~*): the ECMAScript engine of
// std::regex; differences from PostgreSQL's ARE engine are documented in
// expr_string.cc.
bool RegexMatch(const std::string& s, const std::string& pattern,
                bool insensitive, bool* match, PgError* error);
// SIMILAR TO pattern -> regular expression (PostgreSQL's
// similar_to_escape).
bool SimilarToRegex(const std::string& pattern, const Value& escape,
                    std::string* regex, PgError* error);

bool IsAdvisoryLockFunction(const std::string& name);
// pg_catalog functions over the catalog (system_functions.cc).
bool IsSystemFunction(const std::string& name);

// regclass, regtype and regnamespace values are their text output (a
// relation's name, schema-qualified when not visible). A cast of an OID
// to one of them becomes the name (kova_regclass_name ...); a literal cast
// to regclass is normalised when the relation exists (so '16400' and
// 'public.orders' compare equal to the name). `kind`: "regclass",
// "regtype" or "regnamespace". (system_functions.cc)
// PostgreSQL's system columns, which no table column may be named after;
// of them, those Kova's documents do not keep (the inserting and deleting
// transaction and command of each row version).
inline bool IsSystemColumnName(const std::string& name) {
  return name == "tableoid" || name == "ctid" || name == "xmin" ||
         name == "xmax" || name == "cmin" || name == "cmax";
}
inline bool IsUnkeptSystemColumn(const std::string& name) {
  return name == "xmin" || name == "xmax" || name == "cmin" || name == "cmax";
}

// regtype values are the type's name as regtypeout prints it.
inline constexpr uint32_t kRegtypeOid = 2206;
// regtypein: a type name alone ("integer[]", "public.mood"), resolved.
bool ParseTypeString(std::string_view text, uint32_t* type, int32_t* typmod,
                     PgError* error);
// A regtype constant of `type` (its Expr's table_oid holds the OID).
std::unique_ptr<Expr> RegtypeConst(uint32_t type, int location);
bool RegCastName(const std::string& kind, std::unique_ptr<Expr> arg,
                 SessionHooks* hooks, std::unique_ptr<Expr>* out);
bool NormalizeRegclassLiteral(SessionHooks* hooks, Expr* e, PgError* error);
// Whether the i-th column of a SELECT (not itself a set operation) is a
// cast to regclass (common_type.cc).
bool IsRegclassTarget(const PgQuery__SelectStmt* s, size_t i);
// A column of a UNION/INTERSECT/EXCEPT side whose result is bpchar
// without a length (char(n) of other lengths, text or varchar on the other
// side): `name` as the result reads it (common_type.cc).
std::string BpcharSetOpColumn(const ColumnDesc& column,
                              const std::string& name);
// An OID compared with a regclass value: the OID side becomes its name.
bool IsRegclassValue(const Expr& e);
std::unique_ptr<Expr> RegclassNameOf(std::unique_ptr<Expr> oid_expr);

// has_table_privilege and its family (privileges.cc): their signatures,
// and the letters of argument kinds a call passes first (o: an OID, i: a
// column number, n: a name).
bool IsPrivilegeFunction(const std::string& name);
std::vector<FunctionDef> PrivilegeFunctionDefs();
std::string PrivilegeSignature(const std::vector<std::unique_ptr<Expr>>& args);

inline bool IsSessionFunction(const std::string& name) {
  return name == "nextval" || name == "currval" || name == "lastval" ||
         name == "setval" || name == "pg_get_serial_sequence" ||
         name == "kova.command" || name == "pg_notify" ||
         name == "pg_cancel_backend" || name == "pg_terminate_backend" ||
         name == "kova_activity_rows" || name == "txid_current" ||
         name == "txid_current_if_assigned" || name == "pg_current_xact_id" ||
         name == "pg_current_xact_id_if_assigned" ||
         name == "kova_returning_xmax" || name == "kova_lock_rows" ||
         IsAdvisoryLockFunction(name) || IsSystemFunction(name) ||
         IsPrivilegeFunction(name);
}

inline std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

inline std::string TimestampFromMicros(int64_t micros) {
  time_t secs = static_cast<time_t>(micros / 1000000);
  int64_t frac = micros % 1000000;
  struct tm tm;
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<long long>(frac));
  return buf;
}

}  // namespace kova::planner::expr_detail
