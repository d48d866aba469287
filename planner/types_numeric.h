// PostgreSQL's numeric type as a decimal digit string: parsing (numeric_in),
// rounding and type modifiers, output (numeric_out), the base-10000 binary
// format, and conversions to and from integers and floats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "planner/planner.h"

namespace kova::planner::types::num {

struct Numeric {
  enum Kind : uint8_t { kFinite, kNaN, kPosInf, kNegInf };
  Kind kind = kFinite;
  bool negative = false;
  // Significant digits without leading or trailing zeros; empty for zero.
  std::string digits;
  // Power of ten of digits[0] (0 for zero).
  int32_t weight = 0;
  // Display scale: digits printed after the decimal point.
  int32_t dscale = 0;

  bool IsZero() const { return kind == kFinite && digits.empty(); }
};

// numeric_in without the type modifier: leading/trailing whitespace, sign,
// digits with an optional point, exponent, NaN and the infinities.
bool Parse(std::string_view text, Numeric* out, PgError* error);
// numeric_in(text, typmod): Parse + ApplyTypmod + format range check.
bool Input(std::string_view text, int32_t typmod, Numeric* out, PgError* error);
// apply_typmod (round to scale, check precision; 22003 numeric field
// overflow). typmod < 4 is a no-op.
bool ApplyTypmod(Numeric* n, int32_t typmod, PgError* error);
// make_result's check that weight and dscale fit the storage format.
bool CheckFormat(const Numeric& n, PgError* error);
// round_var: half away from zero at `scale` digits after the point; sets
// dscale to max(scale, 0).
void Round(Numeric* n, int scale);
// trunc_var.
void Trunc(Numeric* n, int scale);

void Append(const Numeric& n, std::string* out);
std::string ToString(const Numeric& n);

// numeric_send / numeric_recv.
void ToBinary(const Numeric& n, std::string* out);
bool FromBinary(std::string_view binary, int32_t typmod, Numeric* out,
                PgError* error);

void FromInt64(int64_t v, Numeric* out);
// float8_numeric / float4_numeric: printf("%.*g", digits) then numeric_in.
void FromDouble(double v, int digits, Numeric* out);
// numeric_int2/4/8: rounds, then 22003 "<type> out of range"; NaN and the
// infinities fail with 0A000.
bool ToInt(const Numeric& n, int bits, int64_t* out, PgError* error);

}  // namespace kova::planner::types::num
