#include "planner/decimal.h"

#include <algorithm>
#include <string>
#include <vector>

namespace kova::planner {

bool Decimal::Parse(const std::string& text, Decimal* out) {
  Decimal d;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+'))
    d.negative = text[i++] == '-';
  std::string digits;
  bool point = false;
  for (; i < text.size(); i++) {
    char c = text[i];
    if (c == '.' && !point) {
      point = true;
    } else if (c >= '0' && c <= '9') {
      digits.push_back(c);
      if (point) d.scale++;
    } else {
      return false;  // NaN, exponents: not handled here
    }
  }
  size_t nz = digits.find_first_not_of('0');
  d.digits = nz == std::string::npos ? "0" : digits.substr(nz);
  if (d.digits == "0") d.negative = false;
  *out = d;
  return true;
}

std::string Decimal::ToString() const {
  std::string s = digits;
  if (static_cast<int>(s.size()) <= scale)
    s.insert(0, scale - s.size() + 1, '0');
  if (scale > 0) s.insert(s.size() - scale, ".");
  return (negative && digits != "0" ? "-" : "") + s;
}

Decimal Decimal::WithScale(int new_scale) const {
  Decimal d = *this;
  if (new_scale > scale && d.digits != "0")
    d.digits.append(new_scale - scale, '0');
  d.scale = new_scale;
  return d;
}

static int CompareMagnitude(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

static std::string AddMagnitudes(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (size_t i = 0; i < std::max(a.size(), b.size()) || carry; i++) {
    int x = carry;
    if (i < a.size()) x += a[a.size() - 1 - i] - '0';
    if (i < b.size()) x += b[b.size() - 1 - i] - '0';
    out.push_back(static_cast<char>('0' + x % 10));
    carry = x / 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

static std::string SubMagnitudes(const std::string& a,
                                 const std::string& b) {  // a>=b
  std::string out;
  int borrow = 0;
  for (size_t i = 0; i < a.size(); i++) {
    int x = a[a.size() - 1 - i] - '0' - borrow;
    if (i < b.size()) x -= b[b.size() - 1 - i] - '0';
    borrow = x < 0;
    if (x < 0) x += 10;
    out.push_back(static_cast<char>('0' + x));
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  std::reverse(out.begin(), out.end());
  return out;
}

static std::string Strip(std::string s) {
  size_t nz = s.find_first_not_of('0');
  return nz == std::string::npos ? "0" : s.substr(nz);
}

Decimal AddDecimal(Decimal a, Decimal b, bool subtract) {
  if (subtract) b.negative = !b.negative && b.digits != "0";
  int scale = std::max(a.scale, b.scale);
  a = a.WithScale(scale);
  b = b.WithScale(scale);
  Decimal r;
  r.scale = scale;
  if (a.negative == b.negative) {
    r.digits = Strip(AddMagnitudes(a.digits, b.digits));
    r.negative = a.negative;
  } else if (CompareMagnitude(a.digits, b.digits) >= 0) {
    r.digits = Strip(SubMagnitudes(a.digits, b.digits));
    r.negative = a.negative;
  } else {
    r.digits = Strip(SubMagnitudes(b.digits, a.digits));
    r.negative = b.negative;
  }
  if (r.digits == "0") r.negative = false;
  return r;
}

Decimal MulDecimal(const Decimal& a, const Decimal& b) {
  std::vector<int> acc(a.digits.size() + b.digits.size(), 0);
  for (size_t i = 0; i < a.digits.size(); i++)
    for (size_t j = 0; j < b.digits.size(); j++)
      acc[i + j + 1] += (a.digits[i] - '0') * (b.digits[j] - '0');
  for (size_t k = acc.size(); k-- > 1;) {
    acc[k - 1] += acc[k] / 10;
    acc[k] %= 10;
  }
  std::string s;
  for (int d : acc) s.push_back(static_cast<char>('0' + d));
  Decimal r;
  r.digits = Strip(s);
  r.scale = a.scale + b.scale;
  r.negative = (a.negative != b.negative) && r.digits != "0";
  return r;
}

// The NBASE (10000) view PostgreSQL's select_div_scale uses: the weight of
// the first non-zero base-10000 digit and that digit.
static void FirstBaseDigit(const Decimal& d, int* weight, int* first) {
  std::string intpart = d.digits.size() > static_cast<size_t>(d.scale)
                            ? d.digits.substr(0, d.digits.size() - d.scale)
                            : "";
  std::string frac =
      d.digits.size() > static_cast<size_t>(d.scale)
          ? d.digits.substr(d.digits.size() - d.scale)
          : std::string(d.scale - d.digits.size(), '0') + d.digits;
  while (intpart.size() % 4) intpart.insert(0, "0");
  while (frac.size() % 4) frac.push_back('0');
  std::string all = intpart + frac;
  int int_groups = static_cast<int>(intpart.size() / 4);
  *weight = 0;
  *first = 0;
  for (size_t g = 0; g * 4 < all.size(); g++) {
    int v = std::stoi(all.substr(g * 4, 4));
    if (v != 0) {
      *weight = int_groups - 1 - static_cast<int>(g);
      *first = v;
      return;
    }
  }
}

// Integer division of magnitudes: the quotient, the remainder in `rem`.
static std::string DivMagnitudes(const std::string& num, const std::string& den,
                                 std::string* rem_out) {
  std::string quotient, rem = "0";
  for (char digit : num) {
    rem = Strip(rem + digit);
    int q = 0;
    while (CompareMagnitude(rem, den) >= 0) {
      rem = Strip(SubMagnitudes(rem, den));
      q++;
    }
    quotient.push_back(static_cast<char>('0' + q));
  }
  if (rem_out) *rem_out = rem;
  return Strip(quotient);
}

// a / b rounded half away from zero at PostgreSQL's result scale.
Decimal DivDecimal(const Decimal& a, const Decimal& b) {
  int w1, f1, w2, f2;
  FirstBaseDigit(a, &w1, &f1);
  FirstBaseDigit(b, &w2, &f2);
  int qweight = w1 - w2;
  if (f1 <= f2) qweight--;
  int rscale = 16 - qweight * 4;  // NUMERIC_MIN_SIG_DIGITS, DEC_DIGITS
  rscale = std::max({rscale, a.scale, b.scale, 0});
  rscale = std::min(rscale, 1000);
  // Integer division of a * 10^(rscale + 1 + b.scale - a.scale) by b's
  // digits gives the quotient with one extra digit for rounding.
  int shift = rscale + 1 + b.scale - a.scale;
  std::string num = a.digits, den = b.digits;
  if (shift >= 0) {
    if (num != "0") num.append(shift, '0');
  } else {
    den.append(-shift, '0');
  }
  std::string quotient = DivMagnitudes(num, den, nullptr);
  // Round the extra digit away from zero.
  bool up = quotient.back() >= '5';
  quotient.pop_back();
  if (quotient.empty()) quotient = "0";
  if (up) quotient = AddMagnitudes(quotient, "1");
  Decimal r;
  r.digits = Strip(quotient);
  r.scale = rscale;
  r.negative = (a.negative != b.negative) && r.digits != "0";
  return r;
}

Decimal SqrtDecimal(const Decimal& x, int rscale) {
  // m = floor(x * 10^(2 * (rscale + 1))): its integer square root is
  // sqrt(x) truncated one digit past rscale, and rounding that digit
  // rounds sqrt(x) itself (truncation never crosses a rounding boundary).
  std::string m = x.digits;
  int shift = 2 * (rscale + 1) - x.scale;
  if (shift >= 0) {
    if (m != "0") m.append(shift, '0');
  } else {
    m = -shift >= static_cast<int>(m.size()) ? "0"
                                             : m.substr(0, m.size() + shift);
  }
  Decimal r;
  r.scale = rscale;
  if (m == "0") return r;
  // Newton's iteration from above: y = (y + m / y) / 2 decreases to
  // floor(sqrt(m)).
  std::string y = "1" + std::string((m.size() + 1) / 2, '0');
  while (true) {
    std::string next = DivMagnitudes(
        AddMagnitudes(y, DivMagnitudes(m, y, nullptr)), "2", nullptr);
    if (CompareMagnitude(next, y) >= 0) break;
    y = next;
  }
  bool up = y.back() >= '5';
  y.pop_back();
  if (y.empty()) y = "0";
  if (up) y = AddMagnitudes(y, "1");
  r.digits = Strip(y);
  return r;
}

int CompareDecimal(Decimal a, Decimal b) {
  int scale = std::max(a.scale, b.scale);
  a = a.WithScale(scale);
  b = b.WithScale(scale);
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int m = CompareMagnitude(a.digits, b.digits);
  return a.negative ? -m : m;
}

}  // namespace kova::planner
