// Exact decimal arithmetic on numeric values in their canonical text form
// (PostgreSQL's numeric +, -, *, / with its result scales). Internal.
#pragma once

#include <string>

namespace kova::planner {

struct Decimal {
  bool negative = false;
  std::string digits = "0";  // magnitude without the point, no leading zeros
  int scale = 0;             // digits after the point

  // false for NaN, infinities and exponents (not handled here)
  static bool Parse(const std::string& text, Decimal* out);
  std::string ToString() const;
  Decimal WithScale(int new_scale) const;  // only grows the scale
};

Decimal AddDecimal(Decimal a, Decimal b, bool subtract);
Decimal MulDecimal(const Decimal& a, const Decimal& b);
// a / b (b != 0) rounded half away from zero at PostgreSQL's select_div_scale.
Decimal DivDecimal(const Decimal& a, const Decimal& b);
int CompareDecimal(Decimal a, Decimal b);
// sqrt(x) (x >= 0) rounded half up at `rscale` digits after the point.
Decimal SqrtDecimal(const Decimal& x, int rscale);

}  // namespace kova::planner
