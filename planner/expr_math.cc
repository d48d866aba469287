// Mathematical functions of the expression layer (PostgreSQL's float8 and
// numeric variants, with numeric's result scales).
#include <algorithm>
#include <cmath>
#include <random>

#include "planner/decimal.h"
#include "planner/expr_internal.h"
#include "planner/types_numeric.h"

namespace kova::planner::expr_detail {

namespace {

constexpr int kMinSigDigits = 16;
constexpr int kMaxDisplayScale = 1000;

std::mt19937_64& Rng() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

// Magnitudes as digit strings without leading zeros.
int CmpMag(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : c > 0;
}

std::string SubMag(const std::string& a, const std::string& b) {  // a >= b
  std::string out(a.size(), '0');
  int borrow = 0;
  for (size_t i = 0; i < a.size(); i++) {
    int x = a[a.size() - 1 - i] - '0' - borrow;
    if (i < b.size()) x -= b[b.size() - 1 - i] - '0';
    borrow = x < 0;
    if (x < 0) x += 10;
    out[a.size() - 1 - i] = static_cast<char>('0' + x);
  }
  size_t nz = out.find_first_not_of('0');
  return nz == std::string::npos ? "0" : out.substr(nz);
}

// Integer quotient and remainder of magnitudes (b != "0").
void DivMag(const std::string& a, const std::string& b, std::string* q,
            std::string* r) {
  std::string rem = "0", quot;
  for (char c : a) {
    rem = rem == "0" ? std::string(1, c) : rem + c;
    int d = 0;
    while (CmpMag(rem, b) >= 0) {
      rem = SubMag(rem, b);
      d++;
    }
    quot.push_back(static_cast<char>('0' + d));
  }
  size_t nz = quot.find_first_not_of('0');
  *q = nz == std::string::npos ? "0" : quot.substr(nz);
  *r = rem;
}

// trunc(a / b) as an integer Decimal, and a - trunc(a/b)*b.
void DivModDecimal(const Decimal& a, const Decimal& b, Decimal* q,
                   Decimal* rem) {
  int s = std::max(a.scale, b.scale);
  Decimal x = a.WithScale(s), y = b.WithScale(s);
  std::string qm, rm;
  DivMag(x.digits, y.digits, &qm, &rm);
  q->digits = qm;
  q->scale = 0;
  q->negative = (a.negative != b.negative) && qm != "0";
  rem->digits = rm;
  rem->scale = s;
  rem->negative = a.negative && rm != "0";
}

bool ParseNum(const std::string& s, types::num::Numeric* n) {
  PgError ignored;
  return types::num::Parse(s, n, &ignored);
}

// Decimal weight (power of ten of the first significant digit) of the
// base-10000 weight PostgreSQL uses: floor(w10 / 4).
int NbaseWeight(const types::num::Numeric& n) {
  int w = n.weight;
  return w >= 0 ? w / 4 : -((-w + 3) / 4);
}

int ClampScale(int rscale, int dscale) {
  rscale = std::max(rscale, dscale);
  rscale = std::max(rscale, 0);
  return std::min(rscale, kMaxDisplayScale);
}

// Formats v rounded to `scale` digits after the point (numeric text).
std::string FormatScaled(long double v, int scale) {
  char buf[2048];
  std::snprintf(buf, sizeof(buf), "%.*Lf", std::min(scale, 1000), v);
  std::string s = buf;
  // "-0.000" is 0.
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos)
    s = s.substr(1);
  return s;
}

// estimate_ln_dweight.
int EstimateLnDweight(long double x) {
  if (x >= 0.9L && x <= 1.1L) {
    long double d = std::fabs(x - 1);
    if (d == 0) return 0;
    return static_cast<int>(std::floor(std::log10(d)));
  }
  long double ln = std::log(x);
  if (ln == 0) return 0;
  return static_cast<int>(std::log10(std::fabs(ln)));
}

bool NumericLogError(const types::num::Numeric& n, PgError* error) {
  if (n.IsZero()) {
    *error = Err("2201E", "cannot take logarithm of zero");
    return true;
  }
  if (n.negative) {
    *error = Err("2201E", "cannot take logarithm of a negative number");
    return true;
  }
  return false;
}

bool NumericPower(const std::string& base_text, const std::string& exp_text,
                  Value* out, PgError* error) {
  types::num::Numeric base, ex;
  if (!ParseNum(base_text, &base) || !ParseNum(exp_text, &ex)) return false;
  if (base.kind != types::num::Numeric::kFinite ||
      ex.kind != types::num::Numeric::kFinite) {
    *error =
        Err("0A000", "numeric power of NaN or infinity is not supported yet");
    return false;
  }
  long double b = std::strtold(base_text.c_str(), nullptr);
  long double x = std::strtold(exp_text.c_str(), nullptr);
  bool integral =
      ex.IsZero() || static_cast<int>(ex.digits.size()) <= ex.weight + 1;
  if (base.IsZero() && ex.negative) {
    *error = Err("2201F", "zero raised to a negative power is undefined");
    return false;
  }
  if (base.negative && !integral) {
    *error = Err("2201F",
                 "a negative number raised to a non-integer power yields a "
                 "complex result");
    return false;
  }
  int rscale;
  if (integral && std::fabs(x) <= 2147483647.0L) {
    double f = 0;
    if (!base.IsZero()) {
      // base ~= f * 10^p from up to 16 digits, as power_var_int.
      int nw = NbaseWeight(base);
      // The base-10000 digit groups of the value.
      std::string digits = base.digits;
      int lead = base.weight - nw * 4;  // digits before the first group end
      int first_len = lead + 1;
      std::string padded = digits;
      int total = ((static_cast<int>(padded.size()) - first_len + 3) / 4) * 4 +
                  first_len;
      padded.append(total - padded.size(), '0');
      double fv = std::stod(padded.substr(0, first_len));
      int p = nw * 4;
      size_t pos = first_len;
      for (int i = 1; pos < padded.size() && i * 4 < 16; i++, pos += 4) {
        fv = fv * 10000 + std::stod(padded.substr(pos, 4));
        p -= 4;
      }
      f = static_cast<double>(x) * (std::log10(fv) + p);
    }
    if (f > 32768.0 * 4) {
      *error = Err("22003", "value overflows numeric format");
      return false;
    }
    if (f + 1 < -kMaxDisplayScale) {
      *out = "0." + std::string(kMaxDisplayScale, '0');
      return true;
    }
    // PostgreSQL 15 (power_var): at least 16 digits after the point.
    rscale = ClampScale(kMinSigDigits, base.dscale);
    if (!ex.negative) {
      // Exact: repeated multiplication, then rounded to rscale.
      long long n = static_cast<long long>(x);
      Decimal d, r;
      Decimal::Parse(base_text, &d);
      Decimal::Parse("1", &r);
      while (n > 0) {
        if (n & 1) r = MulDecimal(r, d);
        n >>= 1;
        if (n) d = MulDecimal(d, d);
        if (r.digits.size() > 5000 || d.digits.size() > 5000) {
          *error = Err("22003", "value overflows numeric format");
          return false;
        }
      }
      types::num::Numeric res;
      if (!ParseNum(r.ToString(), &res)) return false;
      types::num::Round(&res, rscale);
      *out = types::num::ToString(res);
      return true;
    }
  } else {
    long double ln = std::log(std::fabs(b)) * x;
    long double val = ln * 0.434294481903252L;
    if (val > 3000) {
      *error = Err("22003", "value overflows numeric format");
      return false;
    }
    rscale = kMinSigDigits - static_cast<int>(val);
    rscale = ClampScale(std::max(rscale, base.dscale), ex.dscale);
  }
  *out = FormatScaled(std::pow(b, x), rscale);
  return true;
}

bool Gcd(int64_t a, int64_t b, uint32_t type, int64_t* out, PgError* error) {
  // PostgreSQL works on negative values to avoid overflow.
  if (a == 0 || b == 0) {
    int64_t v = a == 0 ? b : a;
    if (v == std::numeric_limits<int64_t>::min() ||
        (type == oid::kInt4 && v == std::numeric_limits<int32_t>::min())) {
      *error = Err("22003", std::string(IntRangeName(type)) + " out of range");
      return false;
    }
    *out = v < 0 ? -v : v;
    return true;
  }
  int64_t x = a > 0 ? -a : a, y = b > 0 ? -b : b;
  while (y != 0) {
    int64_t t = x % y;
    x = y;
    y = t;
  }
  if (x == std::numeric_limits<int64_t>::min() ||
      (type == oid::kInt4 && x == std::numeric_limits<int32_t>::min())) {
    *error = Err("22003", std::string(IntRangeName(type)) + " out of range");
    return false;
  }
  *out = -x;
  return true;
}

}  // namespace

bool EvalMathFunction(const Expr& e, const std::vector<Value>& args,
                      SessionHooks* hooks, bool* handled, Value* out,
                      PgError* error) {
  const std::string& n = e.name;
  const auto& ctx = hooks->type_context();
  *handled = true;
  if (n == "pi") return FormatDouble(M_PI, oid::kFloat8, ctx, out, error);
  if (n == "random") {
    uint64_t bits = Rng()() >> 11;
    return FormatDouble(static_cast<double>(bits) * 0x1.0p-53, oid::kFloat8,
                        ctx, out, error);
  }
  if (n == "setseed") {
    if (!args[0]) return true;
    double seed = ToDouble(*args[0]);
    if (seed < -1 || seed > 1 || std::isnan(seed)) {
      *error = Err("22023", "setseed parameter " + *args[0] +
                                " is out of allowed range [-1,1]");
      return false;
    }
    Rng().seed(static_cast<uint64_t>(seed * 9007199254740992.0));
    *out = "";
    return true;
  }
  static const char* const kNames[] = {
      "abs",        "round",     "trunc",       "ceil",  "ceiling", "floor",
      "sign",       "mod",       "div",         "power", "pow",     "sqrt",
      "cbrt",       "exp",       "ln",          "log",   "log10",   "degrees",
      "radians",    "sin",       "cos",         "tan",   "asin",    "acos",
      "atan",       "atan2",     "gcd",         "lcm",   "scale",   "min_scale",
      "trim_scale", "factorial", "width_bucket"};
  bool known = false;
  for (const char* k : kNames)
    if (n == k) known = true;
  if (!known) {
    *handled = false;
    return true;
  }
  for (const Value& v : args)
    if (!v) return true;  // strict
  uint32_t t = e.args.empty() ? e.type : e.args[0]->type;
  if (e.args.empty() && !args.empty()) t = e.type;  // operator calls
  const std::string& a0 = *args[0];

  // Integer forms.
  if (IsInteger(t) && (n == "abs" || n == "mod" || n == "gcd" || n == "lcm")) {
    int64_t a, b = 0;
    ToInt64(a0, &a);
    if (args.size() > 1) ToInt64(*args[1], &b);
    if (n == "abs") {
      if (a < 0 && !NegateInt(a, e.type, &a, error)) return false;
      *out = std::to_string(a);
    } else if (n == "mod") {
      if (b == 0) {
        *error = Err("22012", "division by zero");
        return false;
      }
      *out = std::to_string(b == -1 ? 0 : a % b);
    } else {
      int64_t g;
      if (!Gcd(a, b, t, &g, error)) return false;
      if (n == "gcd") {
        *out = std::to_string(g);
      } else {
        if (a == 0 || b == 0) {
          *out = "0";
          return true;
        }
        int64_t r;
        if (__builtin_mul_overflow(a / g, b, &r) ||
            !CheckIntRange(r, t, error)) {
          *error = Err("22003", std::string(IntRangeName(t)) + " out of range");
          return false;
        }
        *out = std::to_string(r < 0 ? -r : r);
      }
    }
    return true;
  }
  if (n == "factorial") {
    int64_t v;
    ToInt64(a0, &v);
    if (v < 0) {
      *error = Err("2201E", "factorial of a negative number is undefined");
      return false;
    }
    if (v > 32177) {
      *error = Err("22003", "value overflows numeric format");
      return false;
    }
    Decimal r;
    Decimal::Parse("1", &r);
    for (int64_t k = 2; k <= v; k++) {
      Decimal d;
      Decimal::Parse(std::to_string(k), &d);
      r = MulDecimal(r, d);
    }
    *out = r.ToString();
    return true;
  }
  if (n == "width_bucket") {
    int64_t count;
    ToInt64(*args[3], &count);
    if (count <= 0) {
      *error = Err("2201G", "count must be greater than zero");
      return false;
    }
    long double op = std::strtold(a0.c_str(), nullptr),
                lo = std::strtold(args[1]->c_str(), nullptr),
                hi = std::strtold(args[2]->c_str(), nullptr);
    if (std::isnan(op) || std::isnan(lo) || std::isnan(hi)) {
      *error =
          Err("2201G", "operand, lower bound, and upper bound cannot be NaN");
      return false;
    }
    if (std::isinf(lo) || std::isinf(hi)) {
      *error = Err("2201G", "lower and upper bounds must be finite");
      return false;
    }
    if (lo == hi) {
      *error = Err("2201G", "lower bound cannot equal upper bound");
      return false;
    }
    int64_t r;
    if (lo < hi) {
      if (op < lo)
        r = 0;
      else if (op >= hi)
        r = count + 1;
      else
        r = static_cast<int64_t>(std::floor((op - lo) / (hi - lo) * count)) + 1;
    } else {
      if (op > lo)
        r = 0;
      else if (op <= hi)
        r = count + 1;
      else
        r = static_cast<int64_t>(std::floor((lo - op) / (lo - hi) * count)) + 1;
    }
    if (r > std::numeric_limits<int32_t>::max()) {
      *error = Err("22003", "integer out of range");
      return false;
    }
    *out = std::to_string(r);
    return true;
  }

  if (e.type == oid::kNumeric || t == oid::kNumeric) {
    types::num::Numeric x;
    if (!ParseNum(a0, &x)) return false;
    bool finite = x.kind == types::num::Numeric::kFinite;
    if (n == "scale" || n == "min_scale") {
      if (!finite) return true;  // NULL
      if (n == "scale") {
        *out = std::to_string(x.dscale);
      } else {
        int ms = x.IsZero()
                     ? 0
                     : std::max<int>(
                           0, static_cast<int>(x.digits.size()) - 1 - x.weight);
        *out = std::to_string(ms);
      }
      return true;
    }
    if (!finite && n != "abs" && n != "sign" && n != "ceil" && n != "ceiling" &&
        n != "floor" && n != "round" && n != "trunc") {
      *error = Err("0A000",
                   "numeric " + n + " of NaN or infinity is not supported yet");
      return false;
    }
    if (n == "abs") {
      x.negative = false;
      *out = types::num::ToString(x);
    } else if (n == "round" || n == "trunc") {
      if (!finite) {
        *out = a0;
        return true;
      }
      int64_t scale = 0;
      if (args.size() > 1) ToInt64(*args[1], &scale);
      scale = std::clamp<int64_t>(scale, -2000, 2000);
      if (n == "round")
        types::num::Round(&x, static_cast<int>(scale));
      else
        types::num::Trunc(&x, static_cast<int>(scale));
      *out = types::num::ToString(x);
    } else if (n == "ceil" || n == "ceiling" || n == "floor") {
      if (!finite) {
        *out = a0;
        return true;
      }
      Decimal d;
      Decimal::Parse(a0, &d);
      std::string frac =
          d.scale > 0 && static_cast<int>(d.digits.size()) > 0
              ? d.digits.substr(std::max<int>(
                    0, static_cast<int>(d.digits.size()) - d.scale))
              : "";
      bool exact = frac.find_first_not_of('0') == std::string::npos;
      Decimal t0;
      t0.negative = d.negative;
      t0.digits = static_cast<int>(d.digits.size()) > d.scale
                      ? d.digits.substr(0, d.digits.size() - d.scale)
                      : "0";
      if (t0.digits == "0") t0.negative = false;
      if (!exact) {
        Decimal one;
        Decimal::Parse("1", &one);
        if (n == "floor" && d.negative) t0 = AddDecimal(t0, one, true);
        if (n != "floor" && !d.negative) t0 = AddDecimal(t0, one, false);
      }
      *out = t0.ToString();
    } else if (n == "sign") {
      *out = x.kind == types::num::Numeric::kNaN ? "NaN"
             : x.IsZero()                        ? "0"
             : x.negative                        ? "-1"
                                                 : "1";
    } else if (n == "mod" || n == "div") {
      Decimal a, b;
      Decimal::Parse(a0, &a);
      if (!Decimal::Parse(*args[1], &b)) {
        *error = Err("0A000", "numeric " + n +
                                  " of NaN or infinity is not supported yet");
        return false;
      }
      if (b.digits == "0") {
        *error = Err("22012", "division by zero");
        return false;
      }
      Decimal q, r;
      DivModDecimal(a, b, &q, &r);
      *out = n == "div" ? q.ToString() : r.ToString();
    } else if (n == "power" || n == "pow") {
      return NumericPower(a0, *args[1], out, error);
    } else if (n == "sqrt") {
      if (x.negative && !x.IsZero()) {
        *error = Err("2201F", "cannot take square root of a negative number");
        return false;
      }
      int sweight = (NbaseWeight(x) + 1) * 4 / 2 - 1;
      int rscale = ClampScale(kMinSigDigits - sweight, x.dscale);
      Decimal d;
      if (Decimal::Parse(a0, &d))
        *out = SqrtDecimal(d, rscale).ToString();
      else
        *out =
            FormatScaled(std::sqrt(std::strtold(a0.c_str(), nullptr)), rscale);
    } else if (n == "exp") {
      long double v = std::strtold(a0.c_str(), nullptr);
      long double w = std::clamp(v * 0.434294481903252L, -1000.0L, 1000.0L);
      if (v * 0.434294481903252L > 1000 * 3) {
        *error = Err("22003", "value overflows numeric format");
        return false;
      }
      int rscale = ClampScale(kMinSigDigits - static_cast<int>(w), x.dscale);
      *out = FormatScaled(std::exp(v), rscale);
    } else if (n == "ln" || n == "log" || n == "log10") {
      long double base = 10, v;
      int base_dscale = 0;
      const std::string* num_text = &a0;
      if (args.size() > 1) {
        types::num::Numeric b = x;
        if (NumericLogError(b, error)) return false;
        base = std::strtold(a0.c_str(), nullptr);
        base_dscale = b.dscale;
        num_text = &*args[1];
        if (!ParseNum(*num_text, &x)) return false;
        if (base == 1) {
          *error = Err("22012", "division by zero");
          return false;
        }
      }
      if (NumericLogError(x, error)) {
        if (n == "log" && args.size() == 1)
          error->context = "SQL function \"log\" statement 1";
        return false;
      }
      v = std::strtold(num_text->c_str(), nullptr);
      int rscale;
      long double r;
      if (n == "ln") {
        rscale = ClampScale(kMinSigDigits - EstimateLnDweight(v), x.dscale);
        r = std::log(v);
      } else {
        int dw = EstimateLnDweight(v) - EstimateLnDweight(base);
        rscale =
            ClampScale(std::max(kMinSigDigits - dw, base_dscale), x.dscale);
        r = std::log(v) / std::log(base);
      }
      *out = FormatScaled(r, rscale);
    } else if (n == "gcd" || n == "lcm") {
      Decimal a, b;
      if (!Decimal::Parse(a0, &a) || !Decimal::Parse(*args[1], &b)) {
        *error = Err("0A000", "numeric " + n + " of NaN is not supported yet");
        return false;
      }
      int s = std::max(a.scale, b.scale);
      Decimal x1 = a.WithScale(s), y1 = b.WithScale(s);
      std::string p = x1.digits, q = y1.digits;
      while (q != "0") {
        std::string quo, rem;
        DivMag(p, q, &quo, &rem);
        p = q;
        q = rem;
      }
      Decimal g;
      g.digits = p;
      g.scale = s;
      if (n == "gcd") {
        *out = g.ToString();
      } else if (x1.digits == "0" || y1.digits == "0") {
        *out = Decimal().WithScale(s).ToString();
      } else {
        std::string quo, rem;
        DivMag(x1.digits, p, &quo, &rem);
        Decimal qd;
        qd.digits = quo;
        Decimal l = MulDecimal(qd, y1);
        l.negative = false;
        *out = l.ToString();
      }
    } else if (n == "trim_scale") {
      if (finite && !x.IsZero())
        x.dscale =
            std::max<int>(0, static_cast<int>(x.digits.size()) - 1 - x.weight);
      else if (finite)
        x.dscale = 0;
      *out = types::num::ToString(x);
    } else {
      *handled = false;
    }
    return true;
  }

  // float8 (and float4 abs).
  double v = ToDouble(a0);
  double r;
  if (n == "abs") {
    r = std::fabs(v);
  } else if (n == "round") {
    r = std::rint(v);
  } else if (n == "trunc") {
    r = std::trunc(v);
  } else if (n == "ceil" || n == "ceiling") {
    r = std::ceil(v);
  } else if (n == "floor") {
    r = std::floor(v);
  } else if (n == "sign") {
    r = v > 0 ? 1 : v < 0 ? -1 : 0;
  } else if (n == "sqrt") {
    if (v < 0) {
      *error = Err("2201F", "cannot take square root of a negative number");
      return false;
    }
    r = std::sqrt(v);
  } else if (n == "cbrt") {
    r = std::cbrt(v);
  } else if (n == "exp") {
    r = std::exp(v);
    if (std::isinf(r) && !std::isinf(v)) {
      *error = Err("22003", "value out of range: overflow");
      return false;
    }
    if (r == 0 && !std::isinf(v)) {
      *error = Err("22003", "value out of range: underflow");
      return false;
    }
  } else if (n == "ln" || n == "log" || n == "log10") {
    if (v == 0) {
      *error = Err("2201E", "cannot take logarithm of zero");
      return false;
    }
    if (v < 0) {
      *error = Err("2201E", "cannot take logarithm of a negative number");
      return false;
    }
    r = n == "ln" ? std::log(v) : std::log10(v);
  } else if (n == "power" || n == "pow") {
    double b = ToDouble(*args[1]);
    if (v == 0 && b < 0) {
      *error = Err("2201F", "zero raised to a negative power is undefined");
      return false;
    }
    if (v < 0 && b != std::floor(b)) {
      *error = Err("2201F",
                   "a negative number raised to a non-integer power yields "
                   "a complex result");
      return false;
    }
    r = std::pow(v, b);
    if (std::isinf(r) && !std::isinf(v) && !std::isinf(b)) {
      *error = Err("22003", "value out of range: overflow");
      return false;
    }
  } else if (n == "degrees") {
    r = v * (180.0 / M_PI);
  } else if (n == "radians") {
    r = v * (M_PI / 180.0);
  } else if (n == "sin" || n == "cos" || n == "tan") {
    if (std::isinf(v)) {
      *error = Err("22003", "input is out of range");
      return false;
    }
    r = n == "sin" ? std::sin(v) : n == "cos" ? std::cos(v) : std::tan(v);
  } else if (n == "asin" || n == "acos") {
    if (v < -1 || v > 1) {
      *error = Err("22003", "input is out of range");
      return false;
    }
    r = n == "asin" ? std::asin(v) : std::acos(v);
  } else if (n == "atan") {
    r = std::atan(v);
  } else if (n == "atan2") {
    r = std::atan2(v, ToDouble(*args[1]));
  } else {
    *handled = false;
    return true;
  }
  return FormatDouble(r, e.type, ctx, out, error);
}

}  // namespace kova::planner::expr_detail
