// The ordered-set aggregates percentile_cont, percentile_disc and mode, as
// PostgreSQL 15's orderedsetaggs.c computes them:
// - percentile_cont(fraction) WITHIN GROUP (ORDER BY x): x double precision
//   (numbers are cast to it) or interval; the rows at floor and ceil of
//   fraction * (N - 1) (0-based, in the sort order), interpolated as
//   lo + (hi - lo) * (fraction * (N - 1) - floor(...));
// - percentile_disc(fraction) WITHIN GROUP (ORDER BY x): any sortable x;
//   the row ceil(fraction * N) (1-based, at least 1);
// - mode() WITHIN GROUP (ORDER BY x): the value with the most rows, the
//   first in the sort order among equally frequent ones.
// The percentiles also take an array of fractions and return an array of
// the same shape (NULL fractions give NULL elements). NULL inputs are
// skipped; no rows give NULL. A fraction outside [0, 1] (or NaN) fails with
// 22003, for a scalar fraction even when the group has no rows.
//
// In SQLite: kova_ordered_set(kind, type, flags, fraction, value) collects
// the values and sorts them at the end (AggregateOrder); the scalar
// fraction is checked once more outside the aggregate by
// kova_percentile_check(fraction, result), as the group's fraction is
// evaluated even when no row reached the aggregate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "planner/aggregate_order.h"
#include "planner/query.h"
#include "planner/types.h"
#include "planner/types_array.h"

namespace kova::planner {

using expr_detail::Err;

// ---- analysis ---------------------------------------------------------------

bool Analyzer::AnalyzeOrderedSetAggregate(const PgQuery__FuncCall* f,
                                          const std::string& name,
                                          std::unique_ptr<Expr>* out,
                                          PgError* error) {
  using namespace expr_detail;
  const bool ordered_set = IsOrderedSetAggregate(name);
  const char* context = "this context";
  if (ordered_set && f->agg_within_group && !f->over &&
      (!scope_ || !scope_->AggregatesAllowed(&context))) {
    *error =
        Err("42803",
            std::string("aggregate functions are not allowed in ") + context,
            f->location);
    return false;
  }
  if (ordered_set && in_aggregate_) {
    *error =
        Err("42803", "aggregate function calls cannot be nested", f->location);
    return false;
  }
  // The direct arguments, then the WITHIN GROUP keys: PostgreSQL looks the
  // function up by both lists.
  std::vector<std::unique_ptr<Expr>> args;
  std::vector<bool> descending;
  in_aggregate_ = true;
  for (size_t i = 0; i < f->n_args; i++) {
    std::unique_ptr<Expr> arg;
    if (!Analyze(f->args[i], &arg, error)) {
      in_aggregate_ = false;
      return false;
    }
    args.push_back(std::move(arg));
  }
  const size_t direct = args.size();
  for (size_t i = 0; i < f->n_agg_order; i++) {
    const PgQuery__SortBy* sb = f->agg_order[i]->sort_by;
    std::unique_ptr<Expr> key;
    if (!Analyze(sb->node, &key, error)) {
      in_aggregate_ = false;
      return false;
    }
    bool desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) {
      std::string op;
      if (sb->n_use_op > 0 && sb->use_op[sb->n_use_op - 1]->node_case ==
                                  PG_QUERY__NODE__NODE_STRING)
        op = sb->use_op[sb->n_use_op - 1]->string->sval;
      if (op != "<" && op != ">") {
        in_aggregate_ = false;
        *error = Err("0A000",
                     "ORDER BY ... USING " + op +
                         " in WITHIN GROUP is not supported yet",
                     sb->location);
        return false;
      }
      desc = op == ">";
    }
    descending.push_back(desc);
    args.push_back(std::move(key));
  }
  in_aggregate_ = false;
  auto no_function = [&] {
    *error = NoFunction(name, args, f->location);
    return false;
  };
  if (!ordered_set) {
    // WITHIN GROUP on a function that is no ordered-set aggregate.
    if (IsAggregateName(name) && direct == 0 && args.size() == 1 &&
        args[0]->type != oid::kUnknown) {
      *error = Err("42809",
                   name +
                       " is not an ordered-set aggregate, so it cannot have "
                       "WITHIN GROUP",
                   f->location);
      return false;
    }
    return no_function();
  }
  const bool percentile = name != "mode";
  const size_t want = percentile ? 2 : 1;
  if (args.size() != want || (f->agg_within_group && direct != want - 1))
    return no_function();
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kAggregate;
  e->name = name;
  e->location = f->location;
  // The fraction: double precision, or an array of them.
  auto cast_to = [](std::unique_ptr<Expr>* arg, uint32_t type) {
    if ((*arg)->type == type) return;
    auto cast = std::make_unique<Expr>();
    cast->kind = Expr::Kind::kCast;
    cast->type = type;
    cast->location = (*arg)->location;
    cast->args.push_back(std::move(*arg));
    *arg = std::move(cast);
  };
  bool array = false;
  if (percentile) {
    uint32_t t = args[0]->type;
    uint32_t element = types::ArrayElementType(t);
    array = element != 0;
    if (!(array ? IsNumber(element) : IsNumber(t) || t == oid::kUnknown))
      return no_function();
  }
  // The sorted input.
  std::unique_ptr<Expr>& key = args.back();
  uint32_t input = key->type;
  if (name == "percentile_cont") {
    if (input != oid::kInterval && input != oid::kUnknown && !IsNumber(input))
      return no_function();
  } else if (input == oid::kUnknown) {
    *error = Err("42804",
                 "could not determine polymorphic type because input has "
                 "type unknown");
    return false;
  } else if (input == oid::kJson) {
    // PostgreSQL's exprLocation: the leftmost of a cast and its argument.
    int location = key->location;
    for (const Expr* k = key.get();
         k->kind == Expr::Kind::kCast && !k->args.empty();) {
      k = k->args[0].get();
      if (k->location >= 0 && k->location < location) location = k->location;
    }
    *error = Err(
        "42883",
        "could not identify an ordering operator for type " + TypeName(input),
        location);
    error->hint = "Use an explicit ordering operator or modify the query.";
    return false;
  }
  if (!f->agg_within_group) {
    *error = Err("42809",
                 "WITHIN GROUP is required for ordered-set aggregate " + name,
                 f->location);
    return false;
  }
  if (f->over) {
    *error =
        Err("0A000", "OVER is not supported for ordered-set aggregate " + name,
            f->location);
    return false;
  }
  if (percentile) {
    if (!Coerce(&args[0], oid::kFloat8, -1, error)) return false;
    cast_to(&args[0], array ? types::ArrayTypeOf(oid::kFloat8) : oid::kFloat8);
  }
  if (name == "percentile_cont") {
    if (input != oid::kInterval) {
      if (!Coerce(&key, oid::kFloat8, -1, error)) return false;
      cast_to(&key, oid::kFloat8);
    }
    e->type = key->type;
  } else {
    // anyelement: the input's type as it is (varchar stays varchar).
    e->type = input;
    e->typmod = key->typmod;
  }
  if (array) {
    uint32_t result = types::ArrayTypeOf(e->type);
    if (!result || types::ArrayElementType(e->type)) {
      *error = Err("42704", "could not find array type for data type " +
                                TypeName(e->type));
      return false;
    }
    e->type = result;
    if (name == "percentile_cont") e->typmod = -1;
  }
  e->value = std::string(descending[0] ? "DL" : "AL");
  for (auto& arg : args) e->args.push_back(std::move(arg));
  if (f->agg_filter) {
    std::unique_ptr<Expr> cond;
    in_aggregate_ = true;
    in_filter_ = true;
    bool ok = Analyze(f->agg_filter, &cond, error) &&
              Coerce(&cond, oid::kBool, -1, error);
    in_aggregate_ = false;
    in_filter_ = false;
    if (!ok) return false;
    if (cond->type != oid::kBool) {
      *error = Err("42804",
                   "argument of FILTER must be type boolean, not type " +
                       TypeName(cond->type),
                   cond->location);
      return false;
    }
    e->args.push_back(std::move(cond));
    e->has_else = true;
  }
  *out = std::move(e);
  return true;
}

// ---- SQL --------------------------------------------------------------------

std::string QueryCompiler::EmitOrderedSetAggregate(const Expr& e) {
  const bool percentile = e.name != "mode";
  const Expr& key = *e.args[percentile ? 1 : 0];
  const bool array =
      percentile && types::ArrayElementType(e.args[0]->type) != 0;
  std::string fraction = percentile ? Emit(*e.args[0]) : "NULL";
  std::string kind = e.name == "percentile_cont"   ? "cont"
                     : e.name == "percentile_disc" ? "disc"
                                                   : "mode";
  if (array) kind += "[]";
  std::string flags =
      (e.value ? *e.value : "AL") + "|" + std::to_string(key.type) + ",";
  std::string sql = "kova_ordered_set('" + kind + "', " +
                    std::to_string(key.type) + ", " + SqlQuoteLiteral(flags) +
                    ", " + fraction + ", " + Emit(key) + ")";
  if (e.has_else) sql += " FILTER (WHERE " + Emit(*e.args.back()) + ")";
  if (percentile && !array)
    sql = "kova_percentile_check(" + fraction + ", " + sql + ")";
  const char* coll = CollationOf(e.type);
  if (*coll) sql = "(" + sql + " COLLATE " + coll + ")";
  return sql;
}

// ---- run time ---------------------------------------------------------------

namespace {

SqlRuntime* RuntimeOf(sqlite3_context* ctx) {
  return static_cast<SqlRuntime*>(sqlite3_user_data(ctx));
}

void Fail(sqlite3_context* ctx, const PgError& error) {
  RuntimeOf(ctx)->SetError(error);
  sqlite3_result_error(ctx, "kova: statement failed", -1);
}

double DoubleOf(const SValue& v) {
  switch (v.kind) {
    case SKind::kInt:
      return static_cast<double>(v.i);
    case SKind::kReal:
      return v.d;
    case SKind::kText:
      return expr_detail::ToDouble(v.s);
    default:
      return 0;
  }
}

SValue DoubleSValue(double d) {
  SValue v;
  if (std::isnan(d)) {
    v.kind = SKind::kText;
    v.s = "NaN";
  } else {
    v.kind = SKind::kReal;
    v.d = d;
  }
  return v;
}

// PostgreSQL's "%g" (its snprintf spells NaN and the infinities out).
std::string FormatG(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", d);
  return buf;
}

bool CheckFraction(double p, PgError* error) {
  if (p < 0 || p > 1 || std::isnan(p)) {
    *error = Err("22003",
                 "percentile value " + FormatG(p) + " is not between 0 and 1");
    return false;
  }
  return true;
}

struct OrderedSet {
  std::string kind;
  uint32_t type = 0;
  std::string flags;
  SValue fraction;
  bool have_fraction = false;
  std::vector<SValue> values;
};

void OrderedSetStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto** slot = static_cast<OrderedSet**>(
      sqlite3_aggregate_context(ctx, sizeof(OrderedSet*)));
  if (!slot) return;
  if (!*slot) {
    *slot = new OrderedSet();
    (*slot)->kind = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    (*slot)->type = static_cast<uint32_t>(sqlite3_value_int64(argv[1]));
    (*slot)->flags = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
  }
  OrderedSet* agg = *slot;
  if (!agg->have_fraction) {
    agg->fraction = ReadSValue(argv[3]);
    agg->have_fraction = true;
  }
  if (sqlite3_value_type(argv[4]) == SQLITE_NULL) return;
  agg->values.push_back(ReadSValue(argv[4]));
}

// The value at `pct` of the sorted values: for percentile_cont
// interpolated between the rows around it, else the row itself.
bool Percentile(const OrderedSet& agg, bool continuous, double pct, SValue* out,
                PgError* error) {
  const std::vector<SValue>& v = agg.values;
  const int64_t n = static_cast<int64_t>(v.size());
  if (!continuous) {
    int64_t row = static_cast<int64_t>(std::ceil(pct * n));
    row = std::clamp<int64_t>(row, 1, n);
    *out = v[row - 1];
    return true;
  }
  double position = pct * static_cast<double>(n - 1);
  int64_t first = static_cast<int64_t>(std::floor(position));
  int64_t second = static_cast<int64_t>(std::ceil(position));
  first = std::clamp<int64_t>(first, 0, n - 1);
  second = std::clamp<int64_t>(second, 0, n - 1);
  if (first == second) {
    *out = v[first];
    return true;
  }
  double proportion = position - static_cast<double>(first);
  if (agg.type != oid::kInterval) {
    double lo = DoubleOf(v[first]);
    double hi = DoubleOf(v[second]);
    *out = DoubleSValue(lo + proportion * (hi - lo));
    return true;
  }
  const types::TypeContext& storage = ArrayStorageContext();
  Value lo, hi;
  std::string result;
  return FromSValue(oid::kInterval, v[first], storage, &lo, error) &&
         FromSValue(oid::kInterval, v[second], storage, &hi, error) && lo &&
         hi &&
         expr_detail::IntervalLerp(*lo, *hi, proportion, storage, &result,
                                   error) &&
         ToSValue(oid::kInterval, result, storage, out, error);
}

void OrderedSetFinal(sqlite3_context* ctx) {
  auto** slot = static_cast<OrderedSet**>(sqlite3_aggregate_context(ctx, 0));
  std::unique_ptr<OrderedSet> agg(slot ? *slot : nullptr);
  if (slot) *slot = nullptr;
  if (!agg || agg->values.empty()) {
    sqlite3_result_null(ctx);
    return;
  }
  const bool array = agg->kind.ends_with("[]");
  const bool continuous = agg->kind.starts_with("cont");
  PgError error;
  // A scalar fraction: checked before the rows are looked at.
  double pct = 0;
  if (!array && agg->kind != "mode") {
    if (agg->fraction.kind == SKind::kNull) {
      sqlite3_result_null(ctx);
      return;
    }
    pct = DoubleOf(agg->fraction);
    if (!CheckFraction(pct, &error)) return Fail(ctx, error);
  }
  AggregateOrder order(agg->flags);
  std::stable_sort(
      agg->values.begin(), agg->values.end(),
      [&](const SValue& x, const SValue& y) { return order.Less({x}, {y}); });
  if (agg->kind == "mode") {
    // The first value of the longest run of equal values.
    size_t best = 0, best_count = 0;
    for (size_t i = 0; i < agg->values.size();) {
      size_t j = i + 1;
      while (j < agg->values.size() &&
             !order.Less({agg->values[i]}, {agg->values[j]}) &&
             !order.Less({agg->values[j]}, {agg->values[i]}))
        j++;
      if (j - i > best_count) {
        best = i;
        best_count = j - i;
      }
      i = j;
    }
    ResultSValue(ctx, agg->values[best]);
    return;
  }
  if (!array) {
    SValue result;
    if (!Percentile(*agg, continuous, pct, &result, &error))
      return Fail(ctx, error);
    ResultSValue(ctx, result);
    return;
  }
  // An array of fractions: an array of the same shape.
  if (agg->fraction.kind == SKind::kNull) {
    sqlite3_result_null(ctx);
    return;
  }
  const types::TypeContext& storage = ArrayStorageContext();
  types::ArrayValue fractions;
  if (!types::ParseArray(agg->fraction.s, oid::kFloat8, -1, storage, false,
                         &fractions, &error))
    return Fail(ctx, error);
  for (const auto& item : fractions.items)
    if (item && !CheckFraction(expr_detail::ToDouble(*item), &error))
      return Fail(ctx, error);
  uint32_t element = continuous && agg->type != oid::kInterval
                         ? static_cast<uint32_t>(oid::kFloat8)
                         : agg->type;
  types::ArrayValue result;
  result.dims = fractions.dims;
  result.lbounds = fractions.lbounds;
  for (const auto& item : fractions.items) {
    if (!item) {
      result.items.emplace_back();
      continue;
    }
    SValue v;
    Value text;
    if (!Percentile(*agg, continuous, expr_detail::ToDouble(*item), &v,
                    &error) ||
        !FromSValue(element, v, storage, &text, &error))
      return Fail(ctx, error);
    result.items.push_back(text);
  }
  std::string text = types::FormatArray(result);
  sqlite3_result_text(ctx, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
}

// kova_percentile_check(fraction, result): the result, once the scalar
// fraction is known to be NULL (then NULL) or between 0 and 1.
void PercentileCheck(sqlite3_context* ctx, int, sqlite3_value** argv) {
  SValue fraction = ReadSValue(argv[0]);
  if (fraction.kind == SKind::kNull) {
    sqlite3_result_null(ctx);
    return;
  }
  PgError error;
  if (!CheckFraction(DoubleOf(fraction), &error)) return Fail(ctx, error);
  sqlite3_result_value(ctx, argv[1]);
}

}  // namespace

int RegisterOrderedSetAggregates(sqlite3* db, SqlRuntime* runtime) {
  int rc =
      sqlite3_create_function(db, "kova_ordered_set", 5, SQLITE_UTF8, runtime,
                              nullptr, OrderedSetStep, OrderedSetFinal);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_percentile_check", 2, SQLITE_UTF8,
                                 runtime, PercentileCheck, nullptr, nullptr);
  return rc;
}

}  // namespace kova::planner
