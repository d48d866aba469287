// AggregateOrder: the ORDER BY inside an ordered aggregate's call, for the
// SQLite aggregates that collect their rows and sort them at the end
// (sqlite_runtime.cc, json_agg.cc). Internal to the planner.
#ifndef KOVA_PLANNER_AGGREGATE_ORDER_H_
#define KOVA_PLANNER_AGGREGATE_ORDER_H_

#include <string>
#include <vector>

#include "planner/expr_internal.h"
#include "planner/svalue.h"

namespace kova::planner {

// SQLite's order of stored values: numbers, then text, then blobs.
inline int CompareSValues(const SValue& a, const SValue& b) {
  auto rank = [](const SValue& v) {
    switch (v.kind) {
      case SKind::kInt:
      case SKind::kReal:
        return 1;
      case SKind::kText:
        return 2;
      case SKind::kBlob:
        return 3;
      default:
        return 0;
    }
  };
  int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (ra == 1) {
    double x = a.kind == SKind::kInt ? static_cast<double>(a.i) : a.d;
    double y = b.kind == SKind::kInt ? static_cast<double>(b.i) : b.d;
    if (a.kind == SKind::kInt && b.kind == SKind::kInt)
      return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a.s.compare(b.s) < 0 ? -1 : a.s == b.s ? 0 : 1;
}

// The ORDER BY of an ordered aggregate (string_agg, array_agg), from its
// flags: two letters per key, A/D for the direction and F/L for where nulls
// go, then "|" and each key's type OID followed by ",", so that keys
// compare as their types do (numeric, interval, arrays, enums) rather than
// by their stored form.
class AggregateOrder {
 public:
  explicit AggregateOrder(const std::string& flags) : flags_(flags) {
    size_t bar = flags.find('|');
    for (size_t p = bar == std::string::npos ? flags.size() : bar + 1;
         p < flags.size();) {
      size_t comma = flags.find(',', p);
      if (comma == std::string::npos) break;
      types_.push_back(
          static_cast<uint32_t>(std::stoul(flags.substr(p, comma - p))));
      p = comma + 1;
    }
  }

  // Whether keys `x` sort before keys `y`.
  bool Less(const std::vector<SValue>& x, const std::vector<SValue>& y) const {
    for (size_t k = 0; k < x.size() && k < y.size(); k++) {
      bool desc = flags_.size() > 2 * k && flags_[2 * k] == 'D';
      bool nulls_first = flags_.size() > 2 * k + 1 && flags_[2 * k + 1] == 'F';
      bool xn = x[k].kind == SKind::kNull;
      bool yn = y[k].kind == SKind::kNull;
      if (xn || yn) {
        if (xn == yn) continue;
        return xn == nulls_first;
      }
      int c = Compare(k, x[k], y[k]);
      if (c != 0) return desc ? c > 0 : c < 0;
    }
    return false;
  }

 private:
  int Compare(size_t k, const SValue& a, const SValue& b) const {
    uint32_t type = k < types_.size() ? types_[k] : 0;
    if (type && *CollationOf(type)) {
      const types::TypeContext& storage = ArrayStorageContext();
      Value x, y;
      PgError ignored;
      int c;
      if (FromSValue(type, a, storage, &x, &ignored) &&
          FromSValue(type, b, storage, &y, &ignored) && x && y &&
          expr_detail::CompareValues(type, type, *x, *y, storage, &c, &ignored))
        return c;
    }
    return CompareSValues(a, b);
  }

  std::string flags_;
  std::vector<uint32_t> types_;
};

}  // namespace kova::planner

#endif  // KOVA_PLANNER_AGGREGATE_ORDER_H_
