#include "planner/types_util.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace kova::planner::types::util {

bool Fail(PgError* error, const char* sqlstate, std::string message,
          std::string detail, std::string hint) {
  if (error != nullptr) {
    error->severity = "ERROR";
    error->sqlstate = sqlstate;
    error->message = std::move(message);
    error->detail = std::move(detail);
    error->hint = std::move(hint);
    error->position = 0;
  }
  return false;
}

bool InvalidSyntax(PgError* error, std::string_view type_name,
                   std::string_view input) {
  std::string message = "invalid input syntax for type ";
  message.append(type_name);
  message.append(": \"");
  message.append(input);
  message.push_back('"');
  return Fail(error, "22P02", std::move(message));
}

bool PrefixCaseEqual(std::string_view s, std::string_view word) {
  if (s.size() < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (ToLower(s[i]) != ToLower(word[i])) return false;
  }
  return true;
}

int Utf8CharLen(unsigned char c) {
  if ((c & 0x80) == 0) return 1;
  if ((c & 0xe0) == 0xc0) return 2;
  if ((c & 0xf0) == 0xe0) return 3;
  if ((c & 0xf8) == 0xf0) return 4;
  return 1;
}

namespace {

bool Utf8Legal(const unsigned char* s, int length) {
  unsigned char a;
  switch (length) {
    default:
      return false;
    case 4:
      a = s[3];
      if (a < 0x80 || a > 0xBF) return false;
      [[fallthrough]];
    case 3:
      a = s[2];
      if (a < 0x80 || a > 0xBF) return false;
      [[fallthrough]];
    case 2:
      a = s[1];
      switch (*s) {
        case 0xE0:
          if (a < 0xA0 || a > 0xBF) return false;
          break;
        case 0xED:
          if (a < 0x80 || a > 0x9F) return false;
          break;
        case 0xF0:
          if (a < 0x90 || a > 0xBF) return false;
          break;
        case 0xF4:
          if (a < 0x80 || a > 0x8F) return false;
          break;
        default:
          if (a < 0x80 || a > 0xBF) return false;
          break;
      }
      [[fallthrough]];
    case 1:
      a = *s;
      if (a >= 0x80 && a < 0xC2) return false;
      if (a > 0xF4) return false;
      break;
  }
  return true;
}

}  // namespace

bool ValidateUtf8(std::string_view s, PgError* error) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    // Fast path for ASCII runs.
    if (p[i] >= 0x01 && p[i] < 0x80) {
      ++i;
      continue;
    }
    int l = p[i] == 0 ? 1 : Utf8CharLen(p[i]);
    bool ok =
        p[i] != 0 && n - i >= static_cast<size_t>(l) && Utf8Legal(p + i, l);
    if (!ok) {
      size_t limit = std::min<size_t>(l, n - i);
      limit = std::min<size_t>(limit, 8);
      std::string bytes;
      char buf[8];
      for (size_t j = 0; j < limit; ++j) {
        std::snprintf(buf, sizeof(buf), "0x%02x", p[i + j]);
        if (j > 0) bytes.push_back(' ');
        bytes.append(buf);
      }
      return Fail(error, "22021",
                  "invalid byte sequence for encoding \"UTF8\": " + bytes);
    }
    i += l;
  }
  return true;
}

size_t Utf8Length(std::string_view s) {
  size_t count = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

size_t Utf8ClipChars(std::string_view s, size_t chars) {
  size_t i = 0;
  size_t count = 0;
  while (i < s.size() && count < chars) {
    i += Utf8CharLen(static_cast<unsigned char>(s[i]));
    ++count;
  }
  return std::min(i, s.size());
}

size_t Utf8ClipBytes(std::string_view s, size_t max_bytes) {
  size_t i = 0;
  while (i < s.size()) {
    size_t l = Utf8CharLen(static_cast<unsigned char>(s[i]));
    if (i + l > max_bytes) break;
    i += l;
  }
  return std::min(i, s.size());
}

bool ParseInt(std::string_view s, int bits, int64_t* out, PgError* error) {
  const char* type_name =
      bits == 16 ? "smallint" : (bits == 32 ? "integer" : "bigint");
  size_t i = 0;
  size_t n = s.size();
  while (i < n && IsSpace(s[i])) ++i;
  bool neg = false;
  if (i < n && s[i] == '-') {
    neg = true;
    ++i;
  } else if (i < n && s[i] == '+') {
    ++i;
  }
  if (i >= n || !IsDigit(s[i])) return InvalidSyntax(error, type_name, s);
  // Accumulate as a negative number, like PostgreSQL, so the minimum fits.
  int64_t min_value = bits == 64 ? std::numeric_limits<int64_t>::min()
                                 : -(int64_t{1} << (bits - 1));
  int64_t tmp = 0;
  bool overflow = false;
  while (i < n && IsDigit(s[i])) {
    int digit = s[i++] - '0';
    int64_t next;
    if (__builtin_mul_overflow(tmp, 10, &next) ||
        __builtin_sub_overflow(next, digit, &next) || next < min_value) {
      overflow = true;
      break;
    }
    tmp = next;
  }
  if (overflow) {
    return Fail(error, "22003",
                "value \"" + std::string(s) + "\" is out of range for type " +
                    type_name);
  }
  while (i < n && IsSpace(s[i])) ++i;
  if (i != n) return InvalidSyntax(error, type_name, s);
  if (!neg) {
    if (tmp == min_value) {
      return Fail(error, "22003",
                  "value \"" + std::string(s) + "\" is out of range for type " +
                      type_name);
    }
    tmp = -tmp;
  }
  *out = tmp;
  return true;
}

void AppendInt(std::string* out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

void AppendUint(std::string* out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

void AppendZeroPad(std::string* out, int64_t v, int width) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v < 0 ? -v : v);
  int len = static_cast<int>(r.ptr - buf);
  if (v < 0) out->push_back('-');
  for (int i = len; i < width; ++i) out->push_back('0');
  out->append(buf, r.ptr);
}

namespace {

// Copies s into a NUL-terminated buffer (stack for short inputs).
class CString {
 public:
  explicit CString(std::string_view s) {
    if (s.size() < sizeof(small_)) {
      std::memcpy(small_, s.data(), s.size());
      small_[s.size()] = '\0';
      p_ = small_;
    } else {
      big_.assign(s);
      p_ = big_.c_str();
    }
  }
  const char* get() const { return p_; }

 private:
  char small_[64];
  std::string big_;
  const char* p_;
};

// Shared by float4in/float8in: the special spellings strtod may not take.
bool ParseSpecialFloat(const char* num, double* val, const char** endptr) {
  static const struct {
    const char* word;
    int len;
    double value;
  } kWords[] = {
      {"NaN", 3, std::numeric_limits<double>::quiet_NaN()},
      {"Infinity", 8, HUGE_VAL},
      {"+Infinity", 9, HUGE_VAL},
      {"-Infinity", 9, -HUGE_VAL},
      {"inf", 3, HUGE_VAL},
      {"+inf", 4, HUGE_VAL},
      {"-inf", 4, -HUGE_VAL},
  };
  std::string_view s(num);
  for (const auto& w : kWords) {
    if (PrefixCaseEqual(s, std::string_view(w.word, w.len))) {
      *val = w.value;
      *endptr = num + w.len;
      return true;
    }
  }
  return false;
}

}  // namespace

bool ParseFloat8(std::string_view s, double* out, PgError* error) {
  CString cs(s);
  const char* num = cs.get();
  while (*num != '\0' && IsSpace(*num)) ++num;
  if (*num == '\0') return InvalidSyntax(error, "double precision", s);
  errno = 0;
  char* end = nullptr;
  double val = std::strtod(num, &end);
  const char* endptr = end;
  if (endptr == num || errno != 0) {
    int save_errno = errno;
    if (ParseSpecialFloat(num, &val, &endptr)) {
      // ok
    } else if (save_errno == ERANGE) {
      if (val == 0.0 || val >= HUGE_VAL || val <= -HUGE_VAL) {
        return Fail(error, "22003",
                    "\"" + std::string(num, endptr - num) +
                        "\" is out of range for type double precision");
      }
    } else {
      return InvalidSyntax(error, "double precision", s);
    }
  }
  while (*endptr != '\0' && IsSpace(*endptr)) ++endptr;
  if (*endptr != '\0') return InvalidSyntax(error, "double precision", s);
  *out = val;
  return true;
}

bool ParseFloat4(std::string_view s, float* out, PgError* error) {
  CString cs(s);
  const char* num = cs.get();
  while (*num != '\0' && IsSpace(*num)) ++num;
  if (*num == '\0') return InvalidSyntax(error, "real", s);
  errno = 0;
  char* end = nullptr;
  float val = std::strtof(num, &end);
  const char* endptr = end;
  if (endptr == num || errno != 0) {
    int save_errno = errno;
    double d;
    if (ParseSpecialFloat(num, &d, &endptr)) {
      val = static_cast<float>(d);
    } else if (save_errno == ERANGE) {
      if (val == 0.0f || val >= HUGE_VALF || val <= -HUGE_VALF) {
        return Fail(error, "22003",
                    "\"" + std::string(s) + "\" is out of range for type real");
      }
    } else {
      return InvalidSyntax(error, "real", s);
    }
  }
  while (*endptr != '\0' && IsSpace(*endptr)) ++endptr;
  if (*endptr != '\0') return InvalidSyntax(error, "real", s);
  *out = val;
  return true;
}

namespace {

// --- Shortest decimal as PostgreSQL's Ryu (acceptBounds = false) ---
//
// std::to_chars implements Ryu with acceptBounds = (mantissa is even), so
// it can print a bound of the rounding interval that PostgreSQL's build
// (STRICTLY_SHORTEST off) never prints: 1e23 -> "1e+23" instead of
// "9.999999999999999e+22". In the few cases where the two can differ we
// rerun Ryu's digit selection on exactly computed vr/vp/vm.

// A small unsigned big integer, little-endian 32-bit limbs.
struct Big {
  uint32_t d[48];
  int n = 0;

  void Set(uint64_t v) {
    n = 0;
    while (v != 0) {
      d[n++] = static_cast<uint32_t>(v);
      v >>= 32;
    }
  }
  void MulSmall(uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      uint64_t t = static_cast<uint64_t>(d[i]) * m + carry;
      d[i] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) d[n++] = static_cast<uint32_t>(carry);
  }
  void MulPow5(int e) {
    while (e >= 13) {
      MulSmall(1220703125u);  // 5^13
      e -= 13;
    }
    uint32_t m = 1;
    while (e-- > 0) m *= 5;
    if (m != 1) MulSmall(m);
  }
  void ShiftLeft(int bits) {
    if (n == 0) return;
    int words = bits / 32;
    int rem = bits % 32;
    uint32_t out[48] = {};
    for (int i = 0; i < n; ++i) {
      uint64_t v = static_cast<uint64_t>(d[i]) << rem;
      out[i + words] |= static_cast<uint32_t>(v);
      out[i + words + 1] |= static_cast<uint32_t>(v >> 32);
    }
    n += words + 1;
    std::memcpy(d, out, sizeof(d));
    while (n > 0 && d[n - 1] == 0) --n;
  }
  long double ToLongDouble() const {
    long double r = 0;
    for (int i = n - 1; i >= 0; --i) r = r * 4294967296.0L + d[i];
    return r;
  }
  // floor(this / 2^s), which must fit 64 bits; *exact when no bits drop.
  uint64_t ShiftRight(int s, bool* exact) const {
    uint64_t r = 0;
    *exact = true;
    for (int i = 0; i < n; ++i) {
      for (int b = 0; b < 32; ++b) {
        if ((d[i] >> b) & 1) {
          int pos = i * 32 + b;
          if (pos < s) {
            *exact = false;
          } else {
            r |= uint64_t{1} << (pos - s);
          }
        }
      }
    }
    return r;
  }
};

int Compare(const Big& a, const Big& b) {
  if (a.n != b.n) return a.n < b.n ? -1 : 1;
  for (int i = a.n - 1; i >= 0; --i) {
    if (a.d[i] != b.d[i]) return a.d[i] < b.d[i] ? -1 : 1;
  }
  return 0;
}

// b * q as a Big.
Big MulU64(const Big& b, uint64_t q) {
  Big lo = b;
  lo.MulSmall(static_cast<uint32_t>(q));
  Big hi = b;
  hi.MulSmall(static_cast<uint32_t>(q >> 32));
  hi.ShiftLeft(32);
  // lo + hi
  Big r;
  uint64_t carry = 0;
  int n = std::max(lo.n, hi.n);
  for (int i = 0; i < n; ++i) {
    uint64_t t = carry;
    if (i < lo.n) t += lo.d[i];
    if (i < hi.n) t += hi.d[i];
    r.d[i] = static_cast<uint32_t>(t);
    carry = t >> 32;
  }
  r.n = n;
  if (carry != 0) r.d[r.n++] = static_cast<uint32_t>(carry);
  while (r.n > 0 && r.d[r.n - 1] == 0) --r.n;
  return r;
}

// floor(a / b) for a quotient below 2^63; *exact when the remainder is 0.
uint64_t DivFloor(const Big& a, const Big& b, bool* exact) {
  long double est = a.ToLongDouble() / b.ToLongDouble();
  uint64_t q = est < 1 ? 0 : static_cast<uint64_t>(est);
  if (q > 2) q -= 2;
  for (;;) {
    Big next = MulU64(b, q + 1);
    if (Compare(next, a) > 0) break;
    ++q;
  }
  Big prod = MulU64(b, q);
  *exact = Compare(prod, a) == 0;
  return q;
}

inline uint32_t Log10Pow2(int32_t e) {
  return (static_cast<uint32_t>(e) * 78913) >> 18;
}
inline uint32_t Log10Pow5(int32_t e) {
  return (static_cast<uint32_t>(e) * 732923) >> 20;
}

bool MultipleOfPow5(uint64_t v, uint32_t p) {
  uint32_t count = 0;
  while (v != 0 && v % 5 == 0) {
    v /= 5;
    ++count;
  }
  return count >= p;
}

// m * 2^e2 / 10^q (e2 >= 0) or m * 5^i / 2^q (e2 < 0), floored.
uint64_t Scaled(uint64_t m, int32_t e2, uint32_t q, bool* exact) {
  Big num;
  num.Set(m);
  if (e2 >= 0) {
    num.ShiftLeft(e2 - static_cast<int32_t>(q));
    Big den;
    den.Set(1);
    den.MulPow5(static_cast<int>(q));
    return DivFloor(num, den, exact);
  }
  int32_t i = -e2 - static_cast<int32_t>(q);
  num.MulPow5(i);
  return num.ShiftRight(static_cast<int>(q), exact);
}

// Ryu's step 4 with acceptBounds = false.
void SelectDigits(uint64_t vr, uint64_t vp, uint64_t vm, bool vr_trailing,
                  int last_removed, int32_t e10, uint64_t* output,
                  int32_t* exponent) {
  int32_t removed = 0;
  int last = last_removed;
  if (vr_trailing) {
    while (vp / 10 > vm / 10) {
      vr_trailing &= last == 0;
      last = static_cast<int>(vr % 10);
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    if (vr_trailing && last == 5 && vr % 2 == 0) last = 4;
    *output = vr + (vr == vm || last >= 5);
  } else {
    while (vp / 10 > vm / 10) {
      last = static_cast<int>(vr % 10);
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    *output = vr + (vr == vm || last >= 5);
  }
  *exponent = e10 + removed;
}

// d2d with acceptBounds = false. Returns false when std::to_chars gives the
// same answer (the fast path may be used).
bool ExclusiveDouble(uint64_t bits, uint64_t* output, int32_t* exponent,
                     bool force) {
  uint64_t mant = bits & ((uint64_t{1} << 52) - 1);
  uint32_t exp = static_cast<uint32_t>((bits >> 52) & 0x7ff);
  int32_t e2;
  uint64_t m2;
  if (exp == 0) {
    e2 = 1 - 1023 - 52 - 2;
    m2 = mant;
  } else {
    e2 = static_cast<int32_t>(exp) - 1023 - 52 - 2;
    m2 = (uint64_t{1} << 52) | mant;
  }
  uint64_t mv = 4 * m2;
  uint32_t mm_shift = (mant != 0 || exp <= 1) ? 1 : 0;
  uint64_t mp = mv + 2;
  uint64_t mm = mv - 1 - mm_shift;
  uint32_t q;
  if (e2 >= 0) {
    q = Log10Pow2(e2) - (e2 > 3);
  } else {
    q = Log10Pow5(-e2) - (-e2 > 1);
  }
  if (!force) {
    if ((m2 & 1) != 0) return false;
    if (e2 >= 0) {
      if (!(q <= 21 && mv % 5 != 0 &&
            (MultipleOfPow5(mm, q) || MultipleOfPow5(mp, q)))) {
        return false;
      }
    } else if (q > 1) {
      return false;
    }
  }
  bool exact;
  uint64_t vr = Scaled(mv, e2, q, &exact);
  uint64_t vp = Scaled(mp, e2, q, &exact);
  uint64_t vm = Scaled(mm, e2, q, &exact);
  bool vr_trailing = false;
  int32_t e10;
  if (e2 >= 0) {
    e10 = static_cast<int32_t>(q);
    if (q <= 21) {
      if (mv % 5 == 0) {
        vr_trailing = MultipleOfPow5(mv, q);
      } else {
        vp -= MultipleOfPow5(mp, q);
      }
    }
  } else {
    e10 = static_cast<int32_t>(q) + e2;
    if (q <= 1) {
      vr_trailing = true;
      --vp;
    } else if (q < 63) {
      vr_trailing = (mv & ((uint64_t{1} << (q - 1)) - 1)) == 0;
    }
  }
  SelectDigits(vr, vp, vm, vr_trailing, 0, e10, output, exponent);
  return true;
}

// f2d with acceptBounds = false.
bool ExclusiveFloat(uint32_t bits, uint64_t* output, int32_t* exponent,
                    bool force) {
  uint32_t mant = bits & ((1u << 23) - 1);
  uint32_t exp = (bits >> 23) & 0xff;
  int32_t e2;
  uint32_t m2;
  if (exp == 0) {
    e2 = 1 - 127 - 23 - 2;
    m2 = mant;
  } else {
    e2 = static_cast<int32_t>(exp) - 127 - 23 - 2;
    m2 = (1u << 23) | mant;
  }
  uint32_t mv = 4 * m2;
  uint32_t mp = 4 * m2 + 2;
  uint32_t mm_shift = (mant != 0 || exp <= 1) ? 1 : 0;
  uint32_t mm = 4 * m2 - 1 - mm_shift;
  uint32_t q = e2 >= 0 ? Log10Pow2(e2) : Log10Pow5(-e2);
  if (!force) {
    if ((m2 & 1) != 0) return false;
    if (e2 >= 0) {
      if (!(q <= 9 && mv % 5 != 0 &&
            (MultipleOfPow5(mm, q) || MultipleOfPow5(mp, q)))) {
        return false;
      }
    } else if (q > 1) {
      return false;
    }
  }
  bool exact;
  uint64_t vr = Scaled(mv, e2, q, &exact);
  uint64_t vp = Scaled(mp, e2, q, &exact);
  uint64_t vm = Scaled(mm, e2, q, &exact);
  int last_removed = 0;
  bool vr_trailing = false;
  int32_t e10;
  if (e2 >= 0) {
    e10 = static_cast<int32_t>(q);
    if (q != 0 && (vp - 1) / 10 <= vm / 10) {
      last_removed = static_cast<int>(Scaled(mv, e2, q - 1, &exact) % 10);
    }
    if (q <= 9) {
      if (mv % 5 == 0) {
        vr_trailing = MultipleOfPow5(mv, q);
      } else {
        vp -= MultipleOfPow5(mp, q);
      }
    }
  } else {
    e10 = static_cast<int32_t>(q) + e2;
    if (q != 0 && (vp - 1) / 10 <= vm / 10) {
      // One digit finer: mv * 5^(i+1) / 2^(q-1).
      Big num;
      num.Set(mv);
      num.MulPow5(-e2 - static_cast<int32_t>(q) + 1);
      last_removed = static_cast<int>(num.ShiftRight(q - 1, &exact) % 10);
    }
    if (q <= 1) {
      vr_trailing = true;
      --vp;
    } else if (q < 31) {
      vr_trailing = (mv & ((1u << (q - 1)) - 1)) == 0;
    }
  }
  SelectDigits(vr, vp, vm, vr_trailing, last_removed, e10, output, exponent);
  return true;
}

// Formats the shortest round-trip digits the way PostgreSQL's Ryu-based
// output does: fixed notation when the decimal exponent is in [-4, limit),
// else d.ddde[+-]XX.
template <typename T>
void AppendShortest(std::string* out, T v, int limit) {
  if (std::isnan(v)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(v)) {
    out->append(v < 0 ? "-Infinity" : "Infinity");
    return;
  }
  if (v == 0) {
    out->append(std::signbit(v) ? "-0" : "0");
    return;
  }
  char digits[32];
  int ndigits = 0;
  int exp = 0;
  bool neg = std::signbit(v);
  uint64_t mantissa;
  int32_t exponent;
  bool slow;
  if constexpr (sizeof(T) == 8) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    slow = ExclusiveDouble(bits, &mantissa, &exponent, false);
  } else {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    slow = ExclusiveFloat(bits, &mantissa, &exponent, false);
  }
  if (slow) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), mantissa);
    ndigits = static_cast<int>(r.ptr - tmp);
    // Drop trailing zeros into the exponent.
    while (ndigits > 1 && tmp[ndigits - 1] == '0') {
      --ndigits;
      ++exponent;
    }
    std::memcpy(digits, tmp, ndigits);
    exp = exponent + ndigits - 1;
  } else {
    char buf[64];
    auto r =
        std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
    // buf: [-]d[.ddd]e[+-]XX
    const char* p = buf;
    if (*p == '-') ++p;
    while (*p != 'e') {
      if (*p != '.') digits[ndigits++] = *p;
      ++p;
    }
    ++p;  // 'e'
    std::from_chars(*p == '+' ? p + 1 : p, r.ptr, exp);
  }
  if (neg) out->push_back('-');
  if (exp >= -4 && exp < limit) {
    if (exp < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exp - 1), '0');
      out->append(digits, ndigits);
    } else if (ndigits <= exp + 1) {
      out->append(digits, ndigits);
      out->append(static_cast<size_t>(exp + 1 - ndigits), '0');
    } else {
      out->append(digits, exp + 1);
      out->push_back('.');
      out->append(digits + exp + 1, ndigits - exp - 1);
    }
  } else {
    out->push_back(digits[0]);
    if (ndigits > 1) {
      out->push_back('.');
      out->append(digits + 1, ndigits - 1);
    }
    out->push_back('e');
    out->push_back(exp < 0 ? '-' : '+');
    int aexp = exp < 0 ? -exp : exp;
    if (aexp < 10) out->push_back('0');
    AppendInt(out, aexp);
  }
}

void AppendPrintf(std::string* out, double v, int precision) {
  if (std::isnan(v)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(v)) {
    out->append(v < 0 ? "-Infinity" : "Infinity");
    return;
  }
  if (precision < 1) precision = 1;
  if (precision > 32) precision = 32;
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
  out->append(buf, n);
}

}  // namespace

void AppendFloat8(std::string* out, double v, int extra_float_digits) {
  if (extra_float_digits > 0) {
    AppendShortest(out, v, 15);
  } else {
    AppendPrintf(out, v, DBL_DIG + extra_float_digits);
  }
}

void AppendFloat4(std::string* out, float v, int extra_float_digits) {
  if (extra_float_digits > 0) {
    AppendShortest(out, v, 6);
  } else {
    AppendPrintf(out, v, FLT_DIG + extra_float_digits);
  }
}

bool CheckBinaryLength(std::string_view binary, size_t expected,
                       PgError* error) {
  if (binary.size() < expected) {
    return Fail(error, "08P01", "insufficient data left in message");
  }
  if (binary.size() > expected) {
    return Fail(error, "22P03", "incorrect binary data format");
  }
  return true;
}

}  // namespace kova::planner::types::util
