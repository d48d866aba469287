// stddev, variance and their _samp / _pop forms as SQLite aggregates (and
// window functions), computed as PostgreSQL computes them so that the
// printed digits agree:
// - integers and numerics: exact sums of x and x*x, then
//   (N * sum(x*x) - sum(x)^2) / (N * (N - 1)) (or N * N) at the division's
//   scale, and the square root of that rounded quotient at the same scale
//   (numeric_stddev_internal);
// - reals and doubles: Youngs-Cramer's running sums in double precision
//   (float8_accum), recomputed from the frame's values when a window frame
//   drops one, as PostgreSQL recomputes (it has no inverse for them).
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>

#include "planner/decimal.h"
#include "planner/expr_internal.h"
#include "planner/query.h"

namespace kova::planner {

using expr_detail::Err;

namespace {

enum Mode { kVarSamp, kVarPop, kStddevSamp, kStddevPop };

bool Sample(Mode m) { return m == kVarSamp || m == kStddevSamp; }
bool Stddev(Mode m) { return m == kStddevSamp || m == kStddevPop; }

Mode ModeOf(sqlite3_context* ctx);

SqlRuntime* RuntimeOf(sqlite3_context* ctx);

void FailWith(sqlite3_context* ctx, const char* sqlstate,
              const std::string& message) {
  RuntimeOf(ctx)->SetError(Err(sqlstate, message));
  sqlite3_result_error(ctx, "kova: statement failed", -1);
}

template <typename T>
T* StateOf(sqlite3_context* ctx, bool create) {
  auto** slot =
      static_cast<T**>(sqlite3_aggregate_context(ctx, create ? sizeof(T*) : 0));
  if (!slot) return nullptr;
  if (!*slot && create) *slot = new T();
  return *slot;
}

template <typename T>
std::unique_ptr<T> TakeState(sqlite3_context* ctx) {
  auto** slot = static_cast<T**>(sqlite3_aggregate_context(ctx, 0));
  if (!slot) return nullptr;
  std::unique_ptr<T> owned(*slot);
  *slot = nullptr;
  return owned;
}

// ---- integers and numerics --------------------------------------------------

struct ExactMoments {
  int64_t n = 0;
  int64_t nans = 0;  // NaN and infinities: the result is NaN
  Decimal sum, sum_squares;
  std::map<int, int64_t> scales;  // display scales of the values in
};

void ExactAdd(sqlite3_context* ctx, sqlite3_value* value, bool remove) {
  int type = sqlite3_value_type(value);
  if (type == SQLITE_NULL) return;
  ExactMoments* m = StateOf<ExactMoments>(ctx, true);
  if (!m) return;
  int64_t step = remove ? -1 : 1;
  m->n += step;
  std::string text =
      type == SQLITE_INTEGER
          ? std::to_string(sqlite3_value_int64(value))
          : reinterpret_cast<const char*>(sqlite3_value_text(value));
  Decimal x;
  if (!Decimal::Parse(text, &x)) {  // NaN, Infinity, -Infinity
    m->nans += step;
    return;
  }
  if ((m->scales[x.scale] += step) == 0) m->scales.erase(x.scale);
  m->sum = AddDecimal(m->sum, x, remove);
  m->sum_squares = AddDecimal(m->sum_squares, MulDecimal(x, x), remove);
}

// Exactly `scale` digits after the point: the digits dropped are zeros.
Decimal AtScale(Decimal d, int scale) {
  if (d.scale <= scale) return d.WithScale(scale);
  size_t drop = static_cast<size_t>(d.scale - scale);
  d.digits =
      d.digits.size() > drop ? d.digits.substr(0, d.digits.size() - drop) : "0";
  d.scale = scale;
  if (d.digits == "0") d.negative = false;
  return d;
}

void ExactResult(sqlite3_context* ctx, const ExactMoments* m) {
  Mode mode = ModeOf(ctx);
  if (!m || m->n <= 0) {
    sqlite3_result_null(ctx);
    return;
  }
  if (m->nans > 0) {
    sqlite3_result_text(ctx, "NaN", 3, SQLITE_STATIC);
    return;
  }
  if (Sample(mode) && m->n <= 1) {
    sqlite3_result_null(ctx);
    return;
  }
  int scale = m->scales.empty() ? 0 : m->scales.rbegin()->first;
  Decimal n;
  Decimal::Parse(std::to_string(m->n), &n);
  Decimal sum = AtScale(m->sum, scale);
  Decimal sum_squares = AtScale(m->sum_squares, 2 * scale);
  Decimal numerator = AtScale(
      AddDecimal(MulDecimal(n, sum_squares), MulDecimal(sum, sum), true),
      2 * scale);
  std::string result;
  if (numerator.negative || numerator.digits == "0") {
    result = "0";
  } else {
    Decimal n_less = n;
    if (Sample(mode)) {
      Decimal one;
      Decimal::Parse("1", &one);
      n_less = AddDecimal(n, one, true);
    }
    Decimal variance = DivDecimal(numerator, MulDecimal(n, n_less));
    result = Stddev(mode) ? SqrtDecimal(variance, variance.scale).ToString()
                          : variance.ToString();
  }
  sqlite3_result_text(ctx, result.data(), static_cast<int>(result.size()),
                      SQLITE_TRANSIENT);
}

void ExactStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ExactAdd(ctx, argv[0], false);
}
void ExactInverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ExactAdd(ctx, argv[0], true);
}
void ExactValue(sqlite3_context* ctx) {
  ExactResult(ctx, StateOf<ExactMoments>(ctx, false));
}
void ExactFinal(sqlite3_context* ctx) {
  std::unique_ptr<ExactMoments> m = TakeState<ExactMoments>(ctx);
  ExactResult(ctx, m.get());
}

// ---- reals and doubles ------------------------------------------------------

struct FloatMoments {
  double n = 0, sum = 0, sum_squares = 0;  // float8_accum's N, Sx, Sxx
  std::deque<double> values;               // the window frame's
  bool stale = false;                      // a value left the frame
};

// float8_accum: false when finite inputs overflow.
bool Accumulate(FloatMoments* m, double x) {
  double n = m->n + 1.0;
  double sum = m->sum + x;
  double sum_squares = m->sum_squares;
  if (m->n > 0.0) {
    double tmp = x * n - sum;
    sum_squares += tmp * tmp / (n * m->n);
    if (std::isinf(sum) || std::isinf(sum_squares)) {
      if (!std::isinf(m->sum) && !std::isinf(x)) return false;
      sum_squares = std::numeric_limits<double>::quiet_NaN();
    }
  } else if (std::isnan(x) || std::isinf(x)) {
    sum_squares = std::numeric_limits<double>::quiet_NaN();
  }
  m->n = n;
  m->sum = sum;
  m->sum_squares = sum_squares;
  return true;
}

double FloatOf(sqlite3_value* value) {
  if (sqlite3_value_type(value) == SQLITE_TEXT) {
    std::string text = reinterpret_cast<const char*>(sqlite3_value_text(value));
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity") return std::numeric_limits<double>::infinity();
    if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return sqlite3_value_double(value);
}

void FloatStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  FloatMoments* m = StateOf<FloatMoments>(ctx, true);
  if (!m) return;
  double x = FloatOf(argv[0]);
  m->values.push_back(x);
  if (!m->stale && !Accumulate(m, x))
    FailWith(ctx, "22003", "value out of range: overflow");
}

void FloatInverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  FloatMoments* m = StateOf<FloatMoments>(ctx, false);
  if (!m || m->values.empty()) return;
  // SQLite drops the frame's rows in the order they came in.
  m->values.pop_front();
  m->stale = true;
}

void FloatResult(sqlite3_context* ctx, FloatMoments* m) {
  Mode mode = ModeOf(ctx);
  if (m && m->stale) {
    FloatMoments fresh;
    for (double x : m->values) {
      if (!Accumulate(&fresh, x)) {
        FailWith(ctx, "22003", "value out of range: overflow");
        return;
      }
    }
    m->n = fresh.n;
    m->sum = fresh.sum;
    m->sum_squares = fresh.sum_squares;
    m->stale = false;
  }
  if (!m || m->n == 0.0 || (Sample(mode) && m->n <= 1.0)) {
    sqlite3_result_null(ctx);
    return;
  }
  double variance = m->sum_squares / (Sample(mode) ? m->n - 1.0 : m->n);
  double result = Stddev(mode) ? std::sqrt(variance) : variance;
  // SQLite turns a NaN into NULL: Kova's NaN double is the text.
  if (std::isnan(result))
    sqlite3_result_text(ctx, "NaN", 3, SQLITE_STATIC);
  else
    sqlite3_result_double(ctx, result);
}

void FloatValue(sqlite3_context* ctx) {
  FloatResult(ctx, StateOf<FloatMoments>(ctx, false));
}
void FloatFinal(sqlite3_context* ctx) {
  std::unique_ptr<FloatMoments> m = TakeState<FloatMoments>(ctx);
  FloatResult(ctx, m.get());
}

// The runtime and the mode ride in the function's user data.
struct VarianceFunction {
  SqlRuntime* runtime;
  Mode mode;
};

Mode ModeOf(sqlite3_context* ctx) {
  return static_cast<VarianceFunction*>(sqlite3_user_data(ctx))->mode;
}

SqlRuntime* RuntimeOf(sqlite3_context* ctx) {
  return static_cast<VarianceFunction*>(sqlite3_user_data(ctx))->runtime;
}

}  // namespace

const char* VarianceFunctionName(const std::string& aggregate, bool floats) {
  static const char* const kNames[2][4] = {
      {"kova_var_samp", "kova_var_pop", "kova_stddev_samp", "kova_stddev_pop"},
      {"kova_fvar_samp", "kova_fvar_pop", "kova_fstddev_samp",
       "kova_fstddev_pop"}};
  Mode mode = aggregate == "var_pop" ? kVarPop
              : aggregate == "stddev" || aggregate == "stddev_samp"
                  ? kStddevSamp
              : aggregate == "stddev_pop" ? kStddevPop
                                          : kVarSamp;
  return kNames[floats ? 1 : 0][mode];
}

int RegisterVarianceAggregates(sqlite3* db, SqlRuntime* runtime) {
  const Mode modes[] = {kVarSamp, kVarPop, kStddevSamp, kStddevPop};
  const char* const plain[] = {"var_samp", "var_pop", "stddev_samp",
                               "stddev_pop"};
  int rc = SQLITE_OK;
  for (int floats = 0; floats < 2 && rc == SQLITE_OK; floats++) {
    for (int i = 0; i < 4 && rc == SQLITE_OK; i++) {
      auto* data = new VarianceFunction{runtime, modes[i]};
      rc = sqlite3_create_window_function(
          db, VarianceFunctionName(plain[i], floats), 1, SQLITE_UTF8, data,
          floats ? FloatStep : ExactStep, floats ? FloatFinal : ExactFinal,
          floats ? FloatValue : ExactValue,
          floats ? FloatInverse : ExactInverse,
          [](void* p) { delete static_cast<VarianceFunction*>(p); });
    }
  }
  return rc;
}

}  // namespace kova::planner
