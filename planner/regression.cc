// Aggregates over integers' bits (bit_and, bit_or, bit_xor) and over (Y, X)
// pairs of double precision (corr, covar_pop, covar_samp, regr_*), computed
// as PostgreSQL's float8_regr_accum does (Youngs-Cramer), so that results
// agree to the last bit.

#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "planner/query.h"

namespace kova::planner {

namespace {

struct BitState {
  bool any;
  int64_t value;
};

enum BitOp { kAnd, kOr, kXor };

void BitStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  auto* st =
      static_cast<BitState*>(sqlite3_aggregate_context(ctx, sizeof(BitState)));
  if (!st) return sqlite3_result_error_nomem(ctx);
  int64_t v = sqlite3_value_int64(argv[0]);
  auto op =
      static_cast<BitOp>(reinterpret_cast<intptr_t>(sqlite3_user_data(ctx)));
  if (!st->any) {
    st->any = true;
    st->value = v;
  } else if (op == kAnd) {
    st->value &= v;
  } else if (op == kOr) {
    st->value |= v;
  } else {
    st->value ^= v;
  }
}

void BitFinal(sqlite3_context* ctx) {
  auto* st = static_cast<BitState*>(sqlite3_aggregate_context(ctx, 0));
  if (!st || !st->any) return sqlite3_result_null(ctx);
  sqlite3_result_int64(ctx, st->value);
}

// N, Sx, Sxx, Sy, Syy, Sxy of float8_regr_accum.
struct RegrState {
  double n, sx, sxx, sy, syy, sxy;
};

enum RegrKind {
  kCorr,
  kCovarPop,
  kCovarSamp,
  kCount,
  kAvgX,
  kAvgY,
  kSxx,
  kSyy,
  kSxy,
  kSlope,
  kIntercept,
  kR2,
};

void RegrStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  auto* st = static_cast<RegrState*>(
      sqlite3_aggregate_context(ctx, sizeof(RegrState)));
  if (!st) return sqlite3_result_error_nomem(ctx);
  double y = sqlite3_value_double(argv[0]);
  double x = sqlite3_value_double(argv[1]);
  double old_n = st->n;
  st->n += 1.0;
  st->sx += x;
  st->sy += y;
  if (old_n > 0.0) {
    double tmp_x = x * st->n - st->sx;
    double tmp_y = y * st->n - st->sy;
    double scale = 1.0 / (st->n * old_n);
    st->sxx += tmp_x * tmp_x * scale;
    st->syy += tmp_y * tmp_y * scale;
    st->sxy += tmp_x * tmp_y * scale;
    // Sums of squares never become infinite: NaN, as in PostgreSQL.
    if (std::isinf(st->sxx)) st->sxx = NAN;
    if (std::isinf(st->syy)) st->syy = NAN;
    if (std::isinf(st->sxy)) st->sxy = NAN;
  } else {
    if (std::isnan(x) || std::isinf(x)) st->sxx = st->sxy = NAN;
    if (std::isnan(y) || std::isinf(y)) st->syy = st->sxy = NAN;
  }
}

void RegrFinal(sqlite3_context* ctx) {
  auto* st = static_cast<RegrState*>(sqlite3_aggregate_context(ctx, 0));
  auto kind =
      static_cast<RegrKind>(reinterpret_cast<intptr_t>(sqlite3_user_data(ctx)));
  RegrState zero{};
  if (!st) st = &zero;
  if (kind == kCount)
    return sqlite3_result_int64(ctx, static_cast<int64_t>(st->n));
  if (st->n < 1.0 || (kind == kCovarSamp && st->n < 2.0))
    return sqlite3_result_null(ctx);
  double r;
  switch (kind) {
    case kCorr:
      if (st->sxx == 0 || st->syy == 0) return sqlite3_result_null(ctx);
      r = st->sxy / std::sqrt(st->sxx * st->syy);
      break;
    case kCovarPop:
      r = st->sxy / st->n;
      break;
    case kCovarSamp:
      r = st->sxy / (st->n - 1.0);
      break;
    case kAvgX:
      r = st->sx / st->n;
      break;
    case kAvgY:
      r = st->sy / st->n;
      break;
    case kSxx:
      r = st->sxx;
      break;
    case kSyy:
      r = st->syy;
      break;
    case kSxy:
      r = st->sxy;
      break;
    case kSlope:
      if (st->sxx == 0) return sqlite3_result_null(ctx);
      r = st->sxy / st->sxx;
      break;
    case kIntercept:
      if (st->sxx == 0) return sqlite3_result_null(ctx);
      r = (st->sy - st->sx * st->sxy / st->sxx) / st->n;
      break;
    case kR2:
      if (st->sxx == 0) return sqlite3_result_null(ctx);
      if (st->syy == 0) {
        r = 1.0;
        break;
      }
      r = (st->sxy * st->sxy) / (st->sxx * st->syy);
      break;
    default:
      return sqlite3_result_null(ctx);
  }
  sqlite3_result_double(ctx, r);
}

}  // namespace

int RegisterRegressionAggregates(sqlite3* db) {
  const std::pair<const char*, BitOp> bits[] = {
      {"kova_bit_and", kAnd}, {"kova_bit_or", kOr}, {"kova_bit_xor", kXor}};
  int rc = SQLITE_OK;
  for (const auto& [name, op] : bits) {
    if (rc != SQLITE_OK) break;
    rc = sqlite3_create_function(
        db, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
        reinterpret_cast<void*>(static_cast<intptr_t>(op)), nullptr, BitStep,
        BitFinal);
  }
  const std::pair<const char*, RegrKind> regr[] = {
      {"kova_corr", kCorr},
      {"kova_covar_pop", kCovarPop},
      {"kova_covar_samp", kCovarSamp},
      {"kova_regr_count", kCount},
      {"kova_regr_avgx", kAvgX},
      {"kova_regr_avgy", kAvgY},
      {"kova_regr_sxx", kSxx},
      {"kova_regr_syy", kSyy},
      {"kova_regr_sxy", kSxy},
      {"kova_regr_slope", kSlope},
      {"kova_regr_intercept", kIntercept},
      {"kova_regr_r2", kR2}};
  for (const auto& [name, kind] : regr) {
    if (rc != SQLITE_OK) break;
    rc = sqlite3_create_function(
        db, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
        reinterpret_cast<void*>(static_cast<intptr_t>(kind)), nullptr, RegrStep,
        RegrFinal);
  }
  return rc;
}

}  // namespace kova::planner
