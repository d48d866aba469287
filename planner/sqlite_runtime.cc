// The SQLite side of translated statements: kova_eval (expressions SQLite
// cannot compute, evaluated by the planner's evaluator), integer arithmetic
// with PostgreSQL's overflow and division errors, LIMIT checks, scalar
// subqueries, the numeric and interval collations, and exact sum/avg.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>

#include "planner/aggregate_order.h"
#include "planner/decimal.h"
#include "planner/expr_internal.h"
#include "planner/index_expr.h"
#include "planner/query.h"
#include "planner/types_array.h"
#include "planner/types_datetime.h"
#include "planner/user_types.h"

namespace kova::planner {
using namespace expr_detail;

namespace {

SqlRuntime* RuntimeOf(sqlite3_context* ctx) {
  return static_cast<SqlRuntime*>(sqlite3_user_data(ctx));
}

void Fail(sqlite3_context* ctx, const char* sqlstate, std::string message) {
  RuntimeOf(ctx)->SetError(Err(sqlstate, std::move(message)));
  sqlite3_result_error(ctx, "kova: statement failed", -1);
}

const char* RangeMessage(int bits) {
  return bits == 16   ? "smallint out of range"
         : bits == 32 ? "integer out of range"
                      : "bigint out of range";
}

bool InRange(int64_t v, int bits) {
  if (bits == 16) return v >= INT16_MIN && v <= INT16_MAX;
  if (bits == 32) return v >= INT32_MIN && v <= INT32_MAX;
  return true;
}

void IntOp(sqlite3_context* ctx, sqlite3_value** argv, char op) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  int64_t a = sqlite3_value_int64(argv[0]);
  int64_t b = sqlite3_value_int64(argv[1]);
  int bits = sqlite3_value_int(argv[2]);
  int64_t r = 0;
  bool overflow = false;
  switch (op) {
    case '+':
      overflow = __builtin_add_overflow(a, b, &r);
      break;
    case '-':
      overflow = __builtin_sub_overflow(a, b, &r);
      break;
    case '*':
      overflow = __builtin_mul_overflow(a, b, &r);
      break;
    case '/':
    case '%':
      if (b == 0) {
        Fail(ctx, "22012", "division by zero");
        return;
      }
      if (b == -1) {
        // INT_MIN / -1 overflows; INT_MIN % -1 is 0.
        if (op == '%') {
          r = 0;
        } else {
          overflow = __builtin_sub_overflow(int64_t{0}, a, &r);
        }
      } else {
        r = op == '/' ? a / b : a % b;
      }
      break;
  }
  if (overflow || !InRange(r, bits)) {
    Fail(ctx, "22003", RangeMessage(bits));
    return;
  }
  sqlite3_result_int64(ctx, r);
}

void IAdd(sqlite3_context* c, int, sqlite3_value** v) { IntOp(c, v, '+'); }
void ISub(sqlite3_context* c, int, sqlite3_value** v) { IntOp(c, v, '-'); }
void IMul(sqlite3_context* c, int, sqlite3_value** v) { IntOp(c, v, '*'); }
void IDiv(sqlite3_context* c, int, sqlite3_value** v) { IntOp(c, v, '/'); }
void IMod(sqlite3_context* c, int, sqlite3_value** v) { IntOp(c, v, '%'); }

void INeg(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  int64_t a = sqlite3_value_int64(argv[0]);
  int bits = sqlite3_value_int(argv[1]);
  int64_t r;
  if (__builtin_sub_overflow(int64_t{0}, a, &r) || !InRange(r, bits)) {
    Fail(ctx, "22003", RangeMessage(bits));
    return;
  }
  sqlite3_result_int64(ctx, r);
}

// kova_limit(value, kind): kind 0 LIMIT, 1 OFFSET, 2 the count of FETCH
// FIRST ... WITH TIES. NULL -> no limit / 0 (a NULL constant as the WITH
// TIES count is refused before, as PostgreSQL's analysis does);
// negative -> error.
void Limit(sqlite3_context* ctx, int, sqlite3_value** argv) {
  int kind = sqlite3_value_int(argv[1]);
  bool offset = kind == 1;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_int64(ctx, offset ? 0 : -1);
    return;
  }
  int64_t v = sqlite3_value_int64(argv[0]);
  if (v < 0) {
    Fail(ctx, offset ? "2201X" : "2201W",
         offset ? "OFFSET must not be negative" : "LIMIT must not be negative");
    return;
  }
  sqlite3_result_int64(ctx, v);
}

// kova_single(value), an aggregate: the value of a scalar subquery's one
// row (NULL for none), or 21000 at a second row.
struct SingleState {
  sqlite3_value* value;
  bool seen;
};

void SingleStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* state = static_cast<SingleState*>(
      sqlite3_aggregate_context(ctx, sizeof(SingleState)));
  if (!state) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (state->seen) {
    Fail(ctx, "21000",
         "more than one row returned by a subquery used as an expression");
    return;
  }
  state->seen = true;
  state->value = sqlite3_value_dup(argv[0]);
}

void SingleFinal(sqlite3_context* ctx) {
  auto* state = static_cast<SingleState*>(sqlite3_aggregate_context(ctx, 0));
  if (!state || !state->value) {
    sqlite3_result_null(ctx);
    return;
  }
  sqlite3_result_value(ctx, state->value);
  sqlite3_value_free(state->value);
}

void Eval(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  SqlRuntime* runtime = RuntimeOf(ctx);
  SValue out;
  if (!runtime->EvalFallback(sqlite3_value_int(argv[0]), argc - 1, argv + 1,
                             &out)) {
    sqlite3_result_error(ctx, "kova: statement failed", -1);
    return;
  }
  ResultSValue(ctx, out);
}

// Numeric order: NaN sorts after everything, as PostgreSQL.
int CompareNumericText(std::string_view a, std::string_view b) {
  auto rank = [](std::string_view s) {
    if (s == "NaN") return 3;
    if (s == "Infinity") return 2;
    if (s == "-Infinity") return -2;
    return 0;
  };
  int ra = rank(a), rb = rank(b);
  if (ra || rb) return ra < rb ? -1 : ra > rb ? 1 : 0;
  Decimal x, y;
  if (!Decimal::Parse(std::string(a), &x) ||
      !Decimal::Parse(std::string(b), &y))
    return a.compare(b);
  return CompareDecimal(x, y);
}

int NumericCollation(void*, int la, const void* a, int lb, const void* b) {
  return CompareNumericText(std::string_view(static_cast<const char*>(a), la),
                            std::string_view(static_cast<const char*>(b), lb));
}

__int128 IntervalSpan(std::string_view text) {
  types::dt::Interval iv;
  PgError ignored;
  static const types::TypeContext context;
  if (!types::dt::IntervalIn(text, -1, context, &iv, &ignored)) return 0;
  // interval_cmp: months count 30 days, days 24 hours.
  return static_cast<__int128>(iv.time) +
         (static_cast<__int128>(iv.month) * 30 + iv.day) * 86400000000LL;
}

int IntervalCollation(void*, int la, const void* a, int lb, const void* b) {
  __int128 x = IntervalSpan(std::string_view(static_cast<const char*>(a), la));
  __int128 y = IntervalSpan(std::string_view(static_cast<const char*>(b), lb));
  return x < y ? -1 : x > y ? 1 : 0;
}

// sum / avg kept exact: integers in 128 bits, numerics as decimals.
struct ExactSum {
  bool any = false;
  bool is_decimal = false;
  int64_t nans = 0;  // NaN values in (a window's frame may drop them)
  __int128 i = 0;
  Decimal d;
  int64_t count = 0;
};

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : v;
  std::string s;
  while (u) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) s.push_back('-');
  return std::string(s.rbegin(), s.rend());
}

// Adds (or, as a window's frame moves past it, removes) one value.
void SumAdd(sqlite3_context* ctx, sqlite3_value* value, bool remove) {
  auto** slot = static_cast<ExactSum**>(
      sqlite3_aggregate_context(ctx, sizeof(ExactSum*)));
  if (!slot) return;
  if (!*slot) *slot = new ExactSum();
  ExactSum* acc = *slot;
  int type = sqlite3_value_type(value);
  if (type == SQLITE_NULL) return;
  acc->any = true;
  acc->count += remove ? -1 : 1;
  if (type == SQLITE_INTEGER && !acc->is_decimal) {
    int64_t v = sqlite3_value_int64(value);
    acc->i += remove ? -static_cast<__int128>(v) : v;
    return;
  }
  std::string text =
      type == SQLITE_INTEGER
          ? std::to_string(sqlite3_value_int64(value))
          : reinterpret_cast<const char*>(sqlite3_value_text(value));
  if (text == "NaN") {
    acc->nans += remove ? -1 : 1;
    return;
  }
  Decimal v;
  if (!Decimal::Parse(text, &v)) {
    Fail(ctx, "0A000",
         "sum of numeric value \"" + text + "\" is not supported yet");
    return;
  }
  if (!acc->is_decimal) {
    Decimal::Parse(Int128ToString(acc->i), &acc->d);
    acc->is_decimal = true;
  }
  acc->d = AddDecimal(acc->d, v, remove);
}

void SumStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  SumAdd(ctx, argv[0], false);
}

void SumInverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  SumAdd(ctx, argv[0], true);
}

// The result so far (a window's value) or at the end (then freed).
void ResultExact(sqlite3_context* ctx, bool average, bool finish) {
  auto** slot = static_cast<ExactSum**>(sqlite3_aggregate_context(ctx, 0));
  ExactSum* acc = slot ? *slot : nullptr;
  std::unique_ptr<ExactSum> owned(finish ? acc : nullptr);
  if (finish && slot) *slot = nullptr;
  // A frame whose values all left holds none (count 0): NULL, as empty.
  if (!acc || !acc->any || acc->count == 0) {
    sqlite3_result_null(ctx);
    return;
  }
  std::string result;
  if (acc->nans > 0) {
    result = "NaN";
  } else {
    Decimal sum;
    if (acc->is_decimal)
      sum = acc->d;
    else
      Decimal::Parse(Int128ToString(acc->i), &sum);
    if (average) {
      Decimal count;
      Decimal::Parse(std::to_string(acc->count), &count);
      sum = DivDecimal(sum, count);
    }
    result = sum.ToString();
  }
  sqlite3_result_text(ctx, result.data(), static_cast<int>(result.size()),
                      SQLITE_TRANSIENT);
}

void FinishExact(sqlite3_context* ctx, bool average) {
  ResultExact(ctx, average, true);
}

void SumValue(sqlite3_context* ctx) { ResultExact(ctx, false, false); }
void AvgValue(sqlite3_context* ctx) { ResultExact(ctx, true, false); }

void SumFinal(sqlite3_context* ctx) { FinishExact(ctx, false); }

// kova_ordered_string_agg(flags, value, sep, key...): string_agg with ORDER
// BY (flags as AggregateOrder reads them).
struct OrderedAgg {
  std::string flags;
  struct Row {
    std::vector<SValue> keys;
    std::string value, sep;
  };
  std::vector<Row> rows;
};

void OrderedStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto** slot = static_cast<OrderedAgg**>(
      sqlite3_aggregate_context(ctx, sizeof(OrderedAgg*)));
  if (!slot) return;
  if (!*slot) {
    *slot = new OrderedAgg();
    (*slot)->flags = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  }
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  OrderedAgg::Row row;
  row.value.assign(reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
                   sqlite3_value_bytes(argv[1]));
  if (sqlite3_value_type(argv[2]) != SQLITE_NULL)
    row.sep.assign(reinterpret_cast<const char*>(sqlite3_value_text(argv[2])),
                   sqlite3_value_bytes(argv[2]));
  for (int i = 3; i < argc; i++) row.keys.push_back(ReadSValue(argv[i]));
  (*slot)->rows.push_back(std::move(row));
}

void OrderedFinal(sqlite3_context* ctx) {
  auto** slot = static_cast<OrderedAgg**>(sqlite3_aggregate_context(ctx, 0));
  std::unique_ptr<OrderedAgg> agg(slot ? *slot : nullptr);
  if (!agg || agg->rows.empty()) {
    sqlite3_result_null(ctx);
    return;
  }
  // A leading 'U': DISTINCT values (sorted by themselves, duplicates
  // adjacent).
  bool distinct = !agg->flags.empty() && agg->flags[0] == 'U';
  AggregateOrder order(distinct ? agg->flags.substr(1) : agg->flags);
  std::stable_sort(agg->rows.begin(), agg->rows.end(),
                   [&](const OrderedAgg::Row& x, const OrderedAgg::Row& y) {
                     return order.Less(x.keys, y.keys);
                   });
  std::string out;
  for (size_t i = 0; i < agg->rows.size(); i++) {
    if (distinct && i && agg->rows[i].value == agg->rows[i - 1].value) continue;
    if (i) out += agg->rows[i].sep;
    out += agg->rows[i].value;
  }
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()),
                      SQLITE_TRANSIENT);
}
void AvgFinal(sqlite3_context* ctx) { FinishExact(ctx, true); }

// kova_array_agg(array type, distinct, flags, value, keys...): array_agg
// with ORDER BY keys (flags as AggregateOrder reads them) and DISTINCT.
struct ArrayAgg {
  uint32_t type = 0;
  bool distinct = false;
  std::string flags;
  struct Row {
    SValue value;
    std::vector<SValue> keys;
  };
  std::vector<Row> rows;
};

void ArrayAggStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto** slot = static_cast<ArrayAgg**>(
      sqlite3_aggregate_context(ctx, sizeof(ArrayAgg*)));
  if (!slot) return;
  if (!*slot) {
    *slot = new ArrayAgg();
    (*slot)->type = static_cast<uint32_t>(sqlite3_value_int64(argv[0]));
    (*slot)->distinct = sqlite3_value_int(argv[1]) != 0;
    (*slot)->flags = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
  }
  ArrayAgg::Row row;
  row.value = ReadSValue(argv[3]);
  for (int i = 4; i < argc; i++) row.keys.push_back(ReadSValue(argv[i]));
  (*slot)->rows.push_back(std::move(row));
}

void ArrayAggFinal(sqlite3_context* ctx) {
  auto** slot = static_cast<ArrayAgg**>(sqlite3_aggregate_context(ctx, 0));
  std::unique_ptr<ArrayAgg> agg(slot ? *slot : nullptr);
  if (!agg || agg->rows.empty()) {
    sqlite3_result_null(ctx);
    return;
  }
  const std::string& flags = agg->flags;
  const types::TypeContext& storage = ArrayStorageContext();
  AggregateOrder order(flags);
  std::stable_sort(agg->rows.begin(), agg->rows.end(),
                   [&](const ArrayAgg::Row& x, const ArrayAgg::Row& y) {
                     return order.Less(x.keys, y.keys);
                   });
  // agg->type is the input's type; an array input adds a dimension.
  uint32_t input = agg->type;
  bool of_arrays = types::ArrayElementType(input) != 0;
  types::ArrayValue result;
  std::vector<Value> items;
  PgError error;
  auto fail = [&](const PgError& e) {
    RuntimeOf(ctx)->SetError(e);
    sqlite3_result_error(ctx, "kova: statement failed", -1);
  };
  for (const auto& row : agg->rows) {
    Value v;
    if (!FromSValue(input, row.value, storage, &v, &error)) return fail(error);
    items.push_back(std::move(v));
  }
  if (agg->distinct) {
    // DISTINCT sorts the values (PostgreSQL requires any ORDER BY to be
    // the argument itself), NULLs where that ORDER BY puts them (last by
    // default, first for DESC).
    bool failed = false;
    const bool nulls_first = flags.size() > 1 && flags[1] == 'F';
    std::stable_sort(
        items.begin(), items.end(), [&](const Value& x, const Value& y) {
          if (!x || !y) {
            if (x.has_value() == y.has_value()) return false;
            return nulls_first ? !x.has_value() : x.has_value();
          }
          int c = 0;
          if (!CompareValues(input, input, *x, *y, storage, &c, &error))
            failed = true;
          return flags.size() > 0 && flags[0] == 'D' ? c > 0 : c < 0;
        });
    if (failed) return fail(error);
    std::vector<Value> unique;
    for (auto& v : items) {
      int c = 1;
      if (!unique.empty() && unique.back().has_value() == v.has_value()) {
        c = 0;
        if (v && !CompareValues(input, input, *unique.back(), *v, storage, &c,
                                &error))
          return fail(error);
      }
      if (unique.empty() || c != 0) unique.push_back(std::move(v));
    }
    items = std::move(unique);
  }
  if (!of_arrays) {
    result.items = std::move(items);
    result.dims = {static_cast<int32_t>(result.items.size())};
    result.lbounds = {1};
  } else {
    for (size_t i = 0; i < items.size(); i++) {
      if (!items[i]) return fail(Err("22004", "cannot accumulate null arrays"));
      types::ArrayValue sub;
      if (!types::ParseArray(*items[i], types::ArrayElementType(input), -1,
                             storage, false, &sub, &error))
        return fail(error);
      if (i == 0 && sub.items.empty())
        return fail(Err("2202E", "cannot accumulate empty arrays"));
      if (i == 0) {
        result.dims = sub.dims;
        result.lbounds = sub.lbounds;
      } else if (sub.dims != result.dims || sub.lbounds != result.lbounds) {
        return fail(Err("2202E",
                        "cannot accumulate arrays of different "
                        "dimensionality"));
      }
      result.items.insert(result.items.end(), sub.items.begin(),
                          sub.items.end());
    }
    if (result.dims.size() >= static_cast<size_t>(types::kMaxArrayDims))
      return fail(Err("54000", "number of array dimensions (" +
                                   std::to_string(result.dims.size() + 1) +
                                   ") exceeds the maximum allowed (6)"));
    result.dims.insert(result.dims.begin(), static_cast<int32_t>(items.size()));
    result.lbounds.insert(result.lbounds.begin(), 1);
  }
  std::string text = types::FormatArray(result);
  sqlite3_result_text(ctx, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
}

// kova_array_<element>: arrays in their storage text, in array_cmp order.
int ArrayCollation(void* arg, int la, const void* a, int lb, const void* b) {
  uint32_t type = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(arg));
  std::string x(static_cast<const char*>(a), la);
  std::string y(static_cast<const char*>(b), lb);
  int c;
  PgError ignored;
  if (!CompareArrays(type, x, y, ArrayStorageContext(), &c, &ignored))
    return x.compare(y) < 0 ? -1 : x == y ? 0 : 1;
  return c;
}

}  // namespace

int RegisterStorageFunctions(sqlite3* db) {
  int rc = sqlite3_create_collation(db, "kova_numeric", SQLITE_UTF8, nullptr,
                                    NumericCollation);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_collation(db, "kova_interval", SQLITE_UTF8, nullptr,
                                  IntervalCollation);
  for (uint32_t element : ArrayElementTypes()) {
    if (rc != SQLITE_OK) break;
    uint32_t type = types::LookupType(element)->array_oid;
    rc = sqlite3_create_collation(
        db, CollationOf(type), SQLITE_UTF8,
        reinterpret_cast<void*>(static_cast<uintptr_t>(type)), ArrayCollation);
  }
  if (rc == SQLITE_OK) rc = RegisterIndexKeyFunction(db);
  return rc;
}

bool HasStorageFunctions(sqlite3* db) {
  sqlite3_stmt* probe = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT kova_index_key(NULL, NULL)", -1,
                              &probe, nullptr);
  sqlite3_finalize(probe);
  return rc == SQLITE_OK;
}

namespace {
int StorageExtensionEntry(sqlite3* db, const char**,
                          const sqlite3_api_routines*) {
  return RegisterStorageFunctions(db);
}
}  // namespace

void InstallSqliteExtensions() {
  static std::once_flag once;
  std::call_once(once, [] {
    sqlite3_auto_extension(
        reinterpret_cast<void (*)()>(&StorageExtensionEntry));
  });
}

bool SqlRuntime::Attach(sqlite3* db, PgError* error) {
  if (db_ == db) return true;
  db_ = db;
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
  struct Fn {
    const char* name;
    int args;
    void (*fn)(sqlite3_context*, int, sqlite3_value**);
    int flags;
  };
  const Fn fns[] = {
      {"kova_eval", -1, Eval, SQLITE_UTF8}, {"kova_iadd", 3, IAdd, flags},
      {"kova_isub", 3, ISub, flags},        {"kova_imul", 3, IMul, flags},
      {"kova_idiv", 3, IDiv, flags},        {"kova_imod", 3, IMod, flags},
      {"kova_ineg", 2, INeg, flags},        {"kova_limit", 2, Limit, flags},
  };
  int rc = SQLITE_OK;
  for (const Fn& f : fns) {
    rc = sqlite3_create_function(db, f.name, f.args, f.flags, this, f.fn,
                                 nullptr, nullptr);
    if (rc != SQLITE_OK) break;
  }
  if (rc == SQLITE_OK)
    rc = sqlite3_create_window_function(db, "kova_sum", 1, SQLITE_UTF8, this,
                                        SumStep, SumFinal, SumValue, SumInverse,
                                        nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_window_function(db, "kova_avg", 1, SQLITE_UTF8, this,
                                        SumStep, AvgFinal, AvgValue, SumInverse,
                                        nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_single", 1, SQLITE_UTF8, this,
                                 nullptr, SingleStep, SingleFinal);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_ordered_string_agg", -1, SQLITE_UTF8,
                                 this, nullptr, OrderedStep, OrderedFinal);
  if (rc == SQLITE_OK) rc = RegisterArrayFunctions(db, this);
  if (rc == SQLITE_OK) rc = RegisterSeriesModule(db, this);
  if (rc == SQLITE_OK) rc = RegisterLateralFunctions(db);
  if (rc == SQLITE_OK) rc = RegisterJsonAggregates(db, this);
  if (rc == SQLITE_OK) rc = RegisterVarianceAggregates(db, this);
  if (rc == SQLITE_OK) rc = RegisterRegressionAggregates(db);
  if (rc == SQLITE_OK) rc = RegisterOrderedSetAggregates(db, this);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_array_agg", -1, SQLITE_UTF8, this,
                                 nullptr, ArrayAggStep, ArrayAggFinal);
  // Collations and kova_index_key are on every connection already when
  // the process installed them as an auto extension (InstallSqliteExtensions).
  if (rc == SQLITE_OK && !HasStorageFunctions(db))
    rc = RegisterStorageFunctions(db);
  if (rc == SQLITE_OK) rc = user_types::RegisterCollations(db);
  if (rc != SQLITE_OK) {
    *error = Err("XX000", std::string("cannot register SQL functions: ") +
                              sqlite3_errmsg(db));
    db_ = nullptr;
    return false;
  }
  return true;
}

bool SqlRuntime::EvalFallback(int id, int argc, sqlite3_value** argv,
                              SValue* out) {
  if (!current_ || id < 0 ||
      id >= static_cast<int>(current_->fallbacks.size())) {
    SetError(Err("XX000", "kova_eval called outside its statement"));
    return false;
  }
  const Fallback& fb = current_->fallbacks[id];
  const types::TypeContext& context = hooks_->type_context();
  std::vector<Value> args(argc);
  PgError error;
  for (int i = 0; i < argc; i++) {
    if (!FromSValue(fb.arg_types[i], ReadSValue(argv[i]), context, &args[i],
                    &error)) {
      SetError(error);
      return false;
    }
  }
  Value result;
  if (!Evaluate(*fb.node, args, hooks_, &result, &error) ||
      !ToSValue(fb.node->type, result, context, out, &error)) {
    SetError(error);
    return false;
  }
  return true;
}

bool SqlRuntime::BindAll(sqlite3_stmt* stmt, const Compiled& c,
                         const std::vector<Value>& params, PgError* error) {
  const types::TypeContext& context = hooks_->type_context();
  for (size_t i = 0; i < c.binds.size(); i++) {
    const SqlBind& b = c.binds[i];
    if (!b.is_param) {
      BindSValue(stmt, static_cast<int>(i + 1), b.value);
      continue;
    }
    Value v =
        b.param < static_cast<int>(params.size()) ? params[b.param] : Value();
    SValue sv;
    if (!ToSValue(b.type == oid::kUnknown ? oid::kText : b.type, v, context,
                  &sv, error))
      return false;
    BindSValue(stmt, static_cast<int>(i + 1), sv);
  }
  return true;
}

bool SqlRuntime::Run(Compiled* c, const std::vector<Value>& params,
                     const std::function<bool(sqlite3_stmt*, PgError*)>& on_row,
                     PgError* error) {
  if (!c->stmt) {
    int rc =
        sqlite3_prepare_v2(db_, c->sql.c_str(), static_cast<int>(c->sql.size()),
                           &c->stmt, nullptr);
    if (rc != SQLITE_OK) {
      const char* message = sqlite3_errmsg(db_);
      // SQLite's own limits on the SQL a statement becomes (its parser's
      // stack, expression depth, compound SELECT terms): a program limit.
      if (std::strstr(message, "parser stack overflow") ||
          std::strstr(message, "Expression tree is too large") ||
          std::strstr(message, "too many terms in compound SELECT")) {
        *error = Err("54001", "statement is too complex");
        error->detail =
            std::string("The storage engine refused it: ") + message + ".";
        error->hint = "Nest fewer subqueries or expressions.";
      } else if (std::strstr(message, "misuse of aggregate")) {
        // An aggregate whose rows belong to an outer query, or one inside
        // an expression Kova turns into a subquery (x = ANY(array_agg(y))).
        *error = Err("0A000",
                     "this use of an aggregate function (over an outer "
                     "query's rows, or inside = ANY) is not supported yet");
      } else if (std::strncmp(message, "no such column: t", 17) == 0 &&
                 std::strstr(message, ".doc")) {
        // An outer query's column in a subquery clause that SQLite
        // evaluates apart from the outer row (LIMIT, OFFSET, some ORDER BY
        // and GROUP BY forms).
        *error = Err("0A000",
                     "a reference to an outer query's column in this clause "
                     "of a subquery is not supported yet");
      } else {
        *error = Err("XX000", std::string("internal query error: ") + message +
                                  " in: " + c->sql);
      }
      c->stmt = nullptr;
      return false;
    }
  }
  sqlite3_stmt* stmt = c->stmt;
  // Statements nest (a function that runs SQL while a statement steps).
  Compiled* saved = current_;
  const std::vector<Value>* saved_params = params_;
  struct Restore {
    SqlRuntime* r;
    Compiled* c;
    const std::vector<Value>* p;
    sqlite3_stmt* s;
    ~Restore() {
      r->current_ = c;
      r->params_ = p;
      sqlite3_reset(s);
    }
  } restore{this, saved, saved_params, stmt};
  sqlite3_reset(stmt);
  if (!BindAll(stmt, *c, params, error)) return false;
  current_ = c;
  params_ = &params;
  has_error_ = false;
  while (true) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      if (!on_row(stmt, error)) return false;
      continue;
    }
    if (rc == SQLITE_DONE) return true;
    if (has_error_) {
      *error = error_;
      has_error_ = false;
      return false;
    }
    if (rc == SQLITE_INTERRUPT) {
      *error = Err("57014", "canceling statement due to user request");
    } else if (rc == SQLITE_BUSY) {
      *error =
          Err("40001", "could not serialize access due to concurrent update");
    } else if (std::strstr(sqlite3_errmsg(db_), "integer overflow")) {
      *error = Err("22003", "bigint out of range");
    } else if (std::strstr(sqlite3_errmsg(db_),
                           "argument of ntile must be a positive integer")) {
      *error = Err("22014", "argument of ntile must be greater than zero");
    } else if (std::strstr(sqlite3_errmsg(db_),
                           "argument to nth_value must be a positive")) {
      *error = Err("22016", "argument of nth_value must be greater than zero");
    } else if (IndexKeyError(sqlite3_errmsg(db_), error)) {
      // An expression index key's error, raised inside the statement.
    } else {
      *error = Err("XX000",
                   std::string("internal query error: ") + sqlite3_errmsg(db_));
    }
    return false;
  }
}

bool SqlRuntime::RowValues(sqlite3_stmt* stmt,
                           const std::vector<ColumnDesc>& columns,
                           std::vector<Value>* out, PgError* error) {
  out->resize(columns.size());
  const types::TypeContext& context = hooks_->type_context();
  for (size_t i = 0; i < columns.size(); i++) {
    if (!FromSValue(columns[i].type_oid, ReadColumn(stmt, static_cast<int>(i)),
                    context, &(*out)[i], error))
      return false;
    if (columns[i].type_oid == oid::kBpchar)
      PadBpchar(columns[i].type_modifier, &(*out)[i]);
  }
  return true;
}

}  // namespace kova::planner
