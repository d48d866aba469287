#include "planner/types_numeric.h"

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "planner/types_util.h"

namespace kova::planner::types::num {

using util::Fail;
using util::IsDigit;
using util::IsSpace;

namespace {

constexpr int kDscaleMax = 0x3FFF;
constexpr int kWeightMax = 32767;
constexpr int kWeightMin = -32768;

// floor(a / 4) for the base-10000 group of decimal exponent a.
inline int32_t GroupOf(int32_t exponent) {
  return exponent >= 0 ? exponent / 4 : -((-exponent + 3) / 4);
}

void StripTrailingZeros(Numeric* n) {
  size_t len = n->digits.size();
  while (len > 0 && n->digits[len - 1] == '0') --len;
  n->digits.resize(len);
  if (len == 0) {
    n->weight = 0;
    n->negative = false;
  }
}

// Removes leading zeros (adjusting the weight) and trailing zeros.
void Normalize(Numeric* n) {
  size_t lead = 0;
  while (lead < n->digits.size() && n->digits[lead] == '0') ++lead;
  if (lead > 0) {
    n->digits.erase(0, lead);
    n->weight -= static_cast<int32_t>(lead);
  }
  StripTrailingZeros(n);
}

}  // namespace

bool Parse(std::string_view str, Numeric* out, PgError* error) {
  out->kind = Numeric::kFinite;
  out->negative = false;
  out->digits.clear();
  out->weight = 0;
  out->dscale = 0;
  size_t n = str.size();
  size_t i = 0;
  while (i < n && IsSpace(str[i])) ++i;
  std::string_view rest = str.substr(i);
  static const struct {
    const char* word;
    Numeric::Kind kind;
  } kSpecials[] = {
      {"NaN", Numeric::kNaN},          {"Infinity", Numeric::kPosInf},
      {"+Infinity", Numeric::kPosInf}, {"-Infinity", Numeric::kNegInf},
      {"inf", Numeric::kPosInf},       {"+inf", Numeric::kPosInf},
      {"-inf", Numeric::kNegInf},
  };
  for (const auto& sp : kSpecials) {
    if (util::PrefixCaseEqual(rest, sp.word)) {
      i += std::strlen(sp.word);
      while (i < n && IsSpace(str[i])) ++i;
      if (i != n) return util::InvalidSyntax(error, "numeric", str);
      out->kind = sp.kind;
      return true;
    }
  }
  // set_var_from_str
  if (i < n && (str[i] == '+' || str[i] == '-')) {
    out->negative = str[i] == '-';
    ++i;
  }
  bool have_dp = false;
  if (i < n && str[i] == '.') {
    have_dp = true;
    ++i;
  }
  if (i >= n || !IsDigit(str[i])) {
    return util::InvalidSyntax(error, "numeric", str);
  }
  int64_t dweight = -1;
  int64_t dscale = 0;
  out->digits.reserve(n - i);
  while (i < n) {
    char c = str[i];
    if (IsDigit(c)) {
      out->digits.push_back(c);
      if (!have_dp) {
        ++dweight;
      } else {
        ++dscale;
      }
      ++i;
    } else if (c == '.') {
      if (have_dp) return util::InvalidSyntax(error, "numeric", str);
      have_dp = true;
      ++i;
    } else {
      break;
    }
  }
  if (i < n && (str[i] == 'e' || str[i] == 'E')) {
    ++i;
    // strtol: optional whitespace, optional sign, digits.
    size_t j = i;
    while (j < n && IsSpace(str[j])) ++j;
    bool eneg = false;
    if (j < n && (str[j] == '+' || str[j] == '-')) {
      eneg = str[j] == '-';
      ++j;
    }
    if (j >= n || !IsDigit(str[j])) {
      return util::InvalidSyntax(error, "numeric", str);
    }
    int64_t exponent = 0;
    bool huge = false;
    while (j < n && IsDigit(str[j])) {
      if (exponent < (int64_t{1} << 40)) {
        exponent = exponent * 10 + (str[j] - '0');
      } else {
        huge = true;
      }
      ++j;
    }
    if (eneg) exponent = -exponent;
    i = j;
    if (huge || exponent >= INT_MAX / 2 || exponent <= -(INT_MAX / 2)) {
      return Fail(error, "22003", "value overflows numeric format");
    }
    dweight += exponent;
    dscale -= exponent;
    if (dscale < 0) dscale = 0;
  }
  while (i < n && IsSpace(str[i])) ++i;
  if (i != n) return util::InvalidSyntax(error, "numeric", str);
  if (dweight > INT_MAX / 2 || dweight < -(INT_MAX / 2) ||
      dscale > INT_MAX / 2) {
    return Fail(error, "22003", "value overflows numeric format");
  }
  out->weight = static_cast<int32_t>(dweight);
  out->dscale = static_cast<int32_t>(dscale);
  Normalize(out);
  return true;
}

bool CheckFormat(const Numeric& n, PgError* error) {
  if (n.kind != Numeric::kFinite) return true;
  if (n.dscale > kDscaleMax) {
    return Fail(error, "22003", "value overflows numeric format");
  }
  if (!n.digits.empty()) {
    int32_t w = GroupOf(n.weight);
    if (w > kWeightMax || w < kWeightMin) {
      return Fail(error, "22003", "value overflows numeric format");
    }
  }
  return true;
}

bool Input(std::string_view text, int32_t typmod, Numeric* out,
           PgError* error) {
  if (!Parse(text, out, error)) return false;
  if (!ApplyTypmod(out, typmod, error)) return false;
  return CheckFormat(*out, error);
}

void Round(Numeric* n, int scale) {
  if (n->kind != Numeric::kFinite) return;
  n->dscale = scale < 0 ? 0 : scale;
  if (n->digits.empty()) return;
  int64_t keep = static_cast<int64_t>(n->weight) + scale + 1;
  if (keep >= static_cast<int64_t>(n->digits.size())) return;
  if (keep < 0) {
    n->digits.clear();
    StripTrailingZeros(n);
    return;
  }
  bool round_up = n->digits[keep] >= '5';
  n->digits.resize(keep);
  if (round_up) {
    int64_t k = keep - 1;
    while (k >= 0 && n->digits[k] == '9') {
      n->digits[k] = '0';
      --k;
    }
    if (k >= 0) {
      ++n->digits[k];
    } else {
      n->digits.insert(n->digits.begin(), '1');
      ++n->weight;
    }
  }
  StripTrailingZeros(n);
}

void Trunc(Numeric* n, int scale) {
  if (n->kind != Numeric::kFinite) return;
  n->dscale = scale;
  if (n->digits.empty()) return;
  int64_t keep = static_cast<int64_t>(n->weight) + scale + 1;
  if (keep >= static_cast<int64_t>(n->digits.size())) return;
  if (keep <= 0) {
    n->digits.clear();
  } else {
    n->digits.resize(keep);
  }
  StripTrailingZeros(n);
}

bool ApplyTypmod(Numeric* n, int32_t typmod, PgError* error) {
  if (typmod < 4) return true;
  int precision = ((typmod - 4) >> 16) & 0xffff;
  int scale = (((typmod - 4) & 0x7ff) ^ 1024) - 1024;
  if (n->kind == Numeric::kNaN) return true;
  if (n->kind != Numeric::kFinite) {
    return Fail(error, "22003", "numeric field overflow",
                "A field with precision " + std::to_string(precision) +
                    ", scale " + std::to_string(scale) +
                    " cannot hold an infinite value.");
  }
  int maxdigits = precision - scale;
  Round(n, scale);
  if (!n->digits.empty() && static_cast<int64_t>(n->weight) + 1 > maxdigits) {
    std::string limit =
        maxdigits != 0 ? "10^" + std::to_string(maxdigits) : "1";
    return Fail(error, "22003", "numeric field overflow",
                "A field with precision " + std::to_string(precision) +
                    ", scale " + std::to_string(scale) +
                    " must round to an absolute value less than " + limit +
                    ".");
  }
  return true;
}

void Append(const Numeric& n, std::string* out) {
  switch (n.kind) {
    case Numeric::kNaN:
      out->append("NaN");
      return;
    case Numeric::kPosInf:
      out->append("Infinity");
      return;
    case Numeric::kNegInf:
      out->append("-Infinity");
      return;
    case Numeric::kFinite:
      break;
  }
  if (n.negative && !n.digits.empty()) out->push_back('-');
  const int64_t nd = static_cast<int64_t>(n.digits.size());
  auto digit_at = [&](int64_t exponent) -> char {
    int64_t idx = static_cast<int64_t>(n.weight) - exponent;
    return (idx >= 0 && idx < nd) ? n.digits[idx] : '0';
  };
  if (n.digits.empty() || n.weight < 0) {
    out->push_back('0');
  } else {
    for (int64_t e = n.weight; e >= 0; --e) out->push_back(digit_at(e));
  }
  if (n.dscale > 0) {
    out->push_back('.');
    for (int64_t e = -1; e >= -static_cast<int64_t>(n.dscale); --e) {
      out->push_back(digit_at(e));
    }
  }
}

std::string ToString(const Numeric& n) {
  std::string s;
  Append(n, &s);
  return s;
}

void ToBinary(const Numeric& n, std::string* out) {
  using util::PutU16;
  if (n.kind != Numeric::kFinite) {
    PutU16(out, 0);
    PutU16(out, 0);
    PutU16(out, n.kind == Numeric::kNaN
                    ? 0xC000
                    : (n.kind == Numeric::kPosInf ? 0xD000 : 0xF000));
    PutU16(out, n.kind == Numeric::kNaN ? 0 : 0x20);
    return;
  }
  if (n.digits.empty()) {
    PutU16(out, 0);
    PutU16(out, 0);
    PutU16(out, 0);
    PutU16(out, static_cast<uint16_t>(n.dscale));
    return;
  }
  int32_t first_group = GroupOf(n.weight);
  int32_t last_exponent = n.weight - static_cast<int32_t>(n.digits.size()) + 1;
  int32_t last_group = GroupOf(last_exponent);
  int32_t ndigits = first_group - last_group + 1;
  PutU16(out, static_cast<uint16_t>(ndigits));
  PutU16(out, static_cast<uint16_t>(static_cast<int16_t>(first_group)));
  PutU16(out, n.negative ? 0x4000 : 0x0000);
  PutU16(out, static_cast<uint16_t>(n.dscale));
  const int64_t nd = static_cast<int64_t>(n.digits.size());
  for (int32_t g = first_group; g >= last_group; --g) {
    int v = 0;
    for (int e = g * 4 + 3; e >= g * 4; --e) {
      int64_t idx = static_cast<int64_t>(n.weight) - e;
      int d = (idx >= 0 && idx < nd) ? n.digits[idx] - '0' : 0;
      v = v * 10 + d;
    }
    PutU16(out, static_cast<uint16_t>(v));
  }
}

bool FromBinary(std::string_view b, int32_t typmod, Numeric* out,
                PgError* error) {
  if (b.size() < 8) {
    return Fail(error, "08P01", "insufficient data left in message");
  }
  uint16_t len = util::GetU16(b.data());
  int16_t weight = static_cast<int16_t>(util::GetU16(b.data() + 2));
  uint16_t sign = util::GetU16(b.data() + 4);
  uint16_t dscale = util::GetU16(b.data() + 6);
  if (!(sign == 0x0000 || sign == 0x4000 || sign == 0xC000 || sign == 0xD000 ||
        sign == 0xF000)) {
    return Fail(error, "22P03", "invalid sign in external \"numeric\" value");
  }
  if ((dscale & kDscaleMax) != dscale) {
    return Fail(error, "22P03", "invalid scale in external \"numeric\" value");
  }
  size_t need = 8 + 2 * static_cast<size_t>(len);
  if (b.size() < need) {
    return Fail(error, "08P01", "insufficient data left in message");
  }
  out->digits.clear();
  out->digits.reserve(len * 4);
  for (size_t k = 0; k < len; ++k) {
    int16_t d = static_cast<int16_t>(util::GetU16(b.data() + 8 + 2 * k));
    if (d < 0 || d >= 10000) {
      return Fail(error, "22P03",
                  "invalid digit in external \"numeric\" value");
    }
    char buf[4] = {static_cast<char>('0' + d / 1000),
                   static_cast<char>('0' + d / 100 % 10),
                   static_cast<char>('0' + d / 10 % 10),
                   static_cast<char>('0' + d % 10)};
    out->digits.append(buf, 4);
  }
  if (b.size() > need) {
    return Fail(error, "22P03", "incorrect binary data format");
  }
  out->negative = false;
  if (sign == 0xC000 || sign == 0xD000 || sign == 0xF000) {
    out->kind = sign == 0xC000
                    ? Numeric::kNaN
                    : (sign == 0xD000 ? Numeric::kPosInf : Numeric::kNegInf);
    out->digits.clear();
    out->weight = 0;
    out->dscale = 0;
    return ApplyTypmod(out, typmod, error);
  }
  out->kind = Numeric::kFinite;
  out->negative = sign == 0x4000;
  out->weight = static_cast<int32_t>(weight) * 4 + 3;
  out->dscale = dscale;
  Normalize(out);
  Trunc(out, dscale);
  if (!ApplyTypmod(out, typmod, error)) return false;
  return CheckFormat(*out, error);
}

void FromInt64(int64_t v, Numeric* out) {
  out->kind = Numeric::kFinite;
  out->negative = v < 0;
  out->dscale = 0;
  uint64_t u =
      v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  out->digits.clear();
  util::AppendUint(&out->digits, u);
  out->weight = static_cast<int32_t>(out->digits.size()) - 1;
  StripTrailingZeros(out);
}

void FromDouble(double v, int digits, Numeric* out) {
  if (std::isnan(v)) {
    *out = Numeric();
    out->kind = Numeric::kNaN;
    return;
  }
  if (std::isinf(v)) {
    *out = Numeric();
    out->kind = v < 0 ? Numeric::kNegInf : Numeric::kPosInf;
    return;
  }
  char buf[64];
  int len = std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
  Parse(std::string_view(buf, len), out, nullptr);
}

bool ToInt(const Numeric& n, int bits, int64_t* out, PgError* error) {
  const char* type_name =
      bits == 16 ? "smallint" : (bits == 32 ? "integer" : "bigint");
  if (n.kind == Numeric::kNaN) {
    return Fail(error, "0A000",
                std::string("cannot convert NaN to ") + type_name);
  }
  if (n.kind != Numeric::kFinite) {
    return Fail(error, "0A000",
                std::string("cannot convert infinity to ") + type_name);
  }
  Numeric r = n;
  Round(&r, 0);
  auto range_error = [&]() {
    return Fail(error, "22003", std::string(type_name) + " out of range");
  };
  if (r.digits.empty()) {
    *out = 0;
    return true;
  }
  if (r.weight > 18) return range_error();
  // Accumulate negatively so INT64_MIN fits.
  int64_t acc = 0;
  for (int32_t e = r.weight; e >= 0; --e) {
    int64_t idx = static_cast<int64_t>(r.weight) - e;
    int d =
        idx < static_cast<int64_t>(r.digits.size()) ? r.digits[idx] - '0' : 0;
    if (__builtin_mul_overflow(acc, 10, &acc) ||
        __builtin_sub_overflow(acc, d, &acc)) {
      return range_error();
    }
  }
  if (!r.negative) {
    if (acc == INT64_MIN) return range_error();
    acc = -acc;
  }
  if (bits < 64) {
    int64_t lo = -(int64_t{1} << (bits - 1));
    int64_t hi = (int64_t{1} << (bits - 1)) - 1;
    if (acc < lo || acc > hi) return range_error();
  }
  *out = acc;
  return true;
}

}  // namespace kova::planner::types::num
