// to_char, to_date and to_timestamp(text, text), the common patterns of
// PostgreSQL's formatting.c: for date/time YYYY YYY YY Y IYYY MM DD D ID DDD
// IDDD HH HH12 HH24 MI SS MS US SSSS AM PM A.M. P.M. Mon Month Dy Day (in
// their upper/lower/capitalised forms), W WW IW Q CC J TZ OF, FM and TH/th,
// "quoted text" and backslash escapes; for numbers 9 0 . D , G S MI PL SG
// FM. Not supported: EEEE, RN, V, localized (TM) names.
#include <cmath>
#include <cstring>

#include "planner/expr_internal.h"
#include "planner/types_datetime.h"
#include "planner/types_numeric.h"
#include "planner/types_tz.h"

namespace kova::planner::expr_detail {

using types::dt::Interval;
using types::dt::Tm;

namespace {

const char* const kMonths[] = {"January",   "February", "March",    "April",
                               "May",       "June",     "July",     "August",
                               "September", "October",  "November", "December"};
const char* const kDays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                             "Thursday", "Friday", "Saturday"};

std::string Case(const std::string& s, int mode) {  // 0 upper 1 cap 2 lower
  std::string r = s;
  for (size_t i = 0; i < r.size(); i++) {
    bool up = mode == 0 || (mode == 1 && i == 0);
    r[i] = static_cast<char>(up ? std::toupper(r[i]) : std::tolower(r[i]));
  }
  return r;
}

std::string Ordinal(int64_t n, bool upper) {
  int64_t last = std::llabs(n) % 100;
  const char* s = "th";
  if (last < 11 || last > 13) {
    if (last % 10 == 1) s = "st";
    if (last % 10 == 2) s = "nd";
    if (last % 10 == 3) s = "rd";
  }
  return upper ? Case(s, 0) : s;
}

struct Broken {
  Tm tm;
  int fsec = 0;
  int tzoff = 0;  // seconds west
  const char* tzname = nullptr;
  bool is_interval = false;
  int64_t total_hours = 0;
};

int IsoYear(int y, int m, int d) {
  int dayn = types::dt::Date2J(y, m, d);
  int day4 = types::dt::Date2J(y, 1, 4);
  int day0 = types::dt::J2Day(day4 - 1);
  if (dayn < day4 - day0) {
    day4 = types::dt::Date2J(y - 1, 1, 4);
    day0 = types::dt::J2Day(day4 - 1);
    y--;
  }
  int result = (dayn - (day4 - day0)) / 7 + 1;
  if (result >= 52) {
    day4 = types::dt::Date2J(y + 1, 1, 4);
    day0 = types::dt::J2Day(day4 - 1);
    if (dayn >= day4 - day0) y++;
  }
  return y;
}

int IsoWeek(int y, int m, int d) {
  int dayn = types::dt::Date2J(y, m, d);
  int iy = IsoYear(y, m, d);
  int day4 = types::dt::Date2J(iy, 1, 4);
  int day0 = types::dt::J2Day(day4 - 1);
  return (dayn - (day4 - day0)) / 7 + 1;
}

bool StartsWith(const std::string& f, size_t i, const char* kw) {
  return f.compare(i, std::strlen(kw), kw) == 0;
}

std::string Pad(int64_t v, int width, bool fm) {
  std::string s = std::to_string(std::llabs(v));
  if (!fm && static_cast<int>(s.size()) < width)
    s.insert(0, width - s.size(), '0');
  return (v < 0 ? "-" : "") + s;
}

std::string DateTimeToChar(const Broken& b, const std::string& f) {
  const Tm& tm = b.tm;
  std::string out;
  int year_bc = tm.year > 0 ? tm.year : -(tm.year - 1);
  for (size_t i = 0; i < f.size();) {
    bool fm = false;
    if (StartsWith(f, i, "FM") || StartsWith(f, i, "fm")) {
      fm = true;
      i += 2;
    }
    if (i >= f.size()) break;
    std::string piece;
    int64_t number = 0;
    bool numeric = false;
    size_t len = 0;
    auto kw = [&](const char* k) {
      size_t l = std::strlen(k);
      bool match = StartsWith(f, i, k);
      // Numeric fields match in any case (dd, hh24, yyyy, ...).
      static const char* const kAnyCase[] = {
          "HH24", "HH12", "HH", "MI", "SSSSS", "SSSS", "SS", "MS", "US",
          "YYYY", "YYY",  "YY", "Y",  "IYYY",  "IDDD", "IW", "ID", "MM",
          "DDD",  "DD",   "D",  "WW", "W",     "Q",    "CC", "J"};
      if (!match)
        for (const char* a : kAnyCase)
          if (std::strcmp(a, k) == 0 && f.size() - i >= l) {
            match = true;
            for (size_t q = 0; q < l && match; q++)
              match =
                  f[i + q] == std::tolower(static_cast<unsigned char>(k[q]));
          }
      if (match) len = l;
      return match;
    };
    int hour12 = tm.hour % 12 == 0 ? 12 : tm.hour % 12;
    int dow = types::dt::J2Day(types::dt::Date2J(tm.year, tm.mon, tm.mday));
    if (kw("HH24")) {
      number = b.is_interval ? b.total_hours : tm.hour;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("HH12") || kw("HH")) {
      number = hour12;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("MI")) {
      number = tm.min;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("SSSSS") || kw("SSSS")) {
      number = tm.hour * 3600 + tm.min * 60 + tm.sec;
      piece = std::to_string(number);
      numeric = true;
    } else if (kw("SS")) {
      number = tm.sec;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("MS")) {
      number = b.fsec / 1000;
      piece = Pad(number, 3, fm);
      numeric = true;
    } else if (kw("US")) {
      number = b.fsec;
      piece = Pad(number, 6, fm);
      numeric = true;
    } else if (kw("A.M.") || kw("P.M.")) {
      piece = tm.hour >= 12 ? "P.M." : "A.M.";
    } else if (kw("a.m.") || kw("p.m.")) {
      piece = tm.hour >= 12 ? "p.m." : "a.m.";
    } else if (kw("AM") || kw("PM")) {
      piece = tm.hour >= 12 ? "PM" : "AM";
    } else if (kw("am") || kw("pm")) {
      piece = tm.hour >= 12 ? "pm" : "am";
    } else if (kw("B.C.") || kw("A.D.")) {
      piece = tm.year <= 0 ? "B.C." : "A.D.";
    } else if (kw("BC") || kw("AD")) {
      piece = tm.year <= 0 ? "BC" : "AD";
    } else if (kw("bc") || kw("ad")) {
      piece = tm.year <= 0 ? "bc" : "ad";
    } else if (kw("Y,YYY")) {
      piece =
          std::to_string(year_bc / 1000) + "," + Pad(year_bc % 1000, 3, false);
    } else if (kw("YYYY") || kw("yyyy")) {
      number = b.is_interval ? tm.year : year_bc;
      piece = Pad(number, 4, fm);
      numeric = true;
    } else if (kw("YYY") || kw("yyy")) {
      number = year_bc % 1000;
      piece = Pad(number, 3, fm);
      numeric = true;
    } else if (kw("YY") || kw("yy")) {
      number = year_bc % 100;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("Y") || kw("y")) {
      number = year_bc % 10;
      piece = Pad(number, 1, fm);
      numeric = true;
    } else if (kw("IYYY")) {
      number = IsoYear(tm.year, tm.mon, tm.mday);
      piece = Pad(number, 4, fm);
      numeric = true;
    } else if (kw("IDDD")) {
      int iy = IsoYear(tm.year, tm.mon, tm.mday);
      int day4 = types::dt::Date2J(iy, 1, 4);
      int day0 = types::dt::J2Day(day4 - 1);
      number = types::dt::Date2J(tm.year, tm.mon, tm.mday) - (day4 - day0 - 1);
      if (types::dt::J2Day(day4 - 1) == 0) number = number;
      piece = Pad(number, 3, fm);
      numeric = true;
    } else if (kw("IW")) {
      number = IsoWeek(tm.year, tm.mon, tm.mday);
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("ID")) {
      number = dow == 0 ? 7 : dow;
      piece = std::to_string(number);
      numeric = true;
    } else if (kw("MONTH") || kw("Month") || kw("month")) {
      int mode = f[i + 1] == 'O' ? 0 : f[i] == 'M' ? 1 : 2;
      piece = Case(kMonths[tm.mon - 1], mode);
      if (!fm) piece.resize(9, ' ');
    } else if (kw("MON") || kw("Mon") || kw("mon")) {
      int mode = f[i + 1] == 'O' ? 0 : f[i] == 'M' ? 1 : 2;
      piece = Case(std::string(kMonths[tm.mon - 1]).substr(0, 3), mode);
    } else if (kw("MM")) {
      number = tm.mon;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("DAY") || kw("Day") || kw("day")) {
      int mode = f[i + 1] == 'A' ? 0 : f[i] == 'D' ? 1 : 2;
      piece = Case(kDays[dow], mode);
      if (!fm) piece.resize(9, ' ');
    } else if (kw("DY") || kw("Dy") || kw("dy")) {
      int mode = f[i + 1] == 'Y' ? 0 : f[i] == 'D' ? 1 : 2;
      piece = Case(std::string(kDays[dow]).substr(0, 3), mode);
    } else if (kw("DDD")) {
      number = types::dt::Date2J(tm.year, tm.mon, tm.mday) -
               types::dt::Date2J(tm.year, 1, 1) + 1;
      piece = Pad(number, 3, fm);
      numeric = true;
    } else if (kw("DD")) {
      number = tm.mday;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("D")) {
      number = dow + 1;
      piece = std::to_string(number);
      numeric = true;
    } else if (kw("WW")) {
      number = (types::dt::Date2J(tm.year, tm.mon, tm.mday) -
                types::dt::Date2J(tm.year, 1, 1)) /
                   7 +
               1;
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("W")) {
      number = (tm.mday - 1) / 7 + 1;
      piece = std::to_string(number);
      numeric = true;
    } else if (kw("Q")) {
      number = (tm.mon - 1) / 3 + 1;
      piece = std::to_string(number);
      numeric = true;
    } else if (kw("CC")) {
      number =
          tm.year > 0 ? (tm.year + 99) / 100 : -((99 - (tm.year - 1)) / 100);
      piece = Pad(number, 2, fm);
      numeric = true;
    } else if (kw("J")) {
      number = types::dt::Date2J(tm.year, tm.mon, tm.mday);
      piece = std::to_string(number);
      numeric = true;
    } else if (kw("TZ") || kw("tz")) {
      piece = b.tzname ? b.tzname : "";
      if (f[i] == 't') piece = Case(piece, 2);
    } else if (kw("OF")) {
      int east = -b.tzoff;
      piece = (east < 0 ? "-" : "+") + Pad(std::abs(east) / 3600, 2, false);
      if (std::abs(east) % 3600)
        piece += ":" + Pad(std::abs(east) % 3600 / 60, 2, false);
    } else if (f[i] == '"') {
      size_t j = i + 1;
      while (j < f.size() && f[j] != '"') {
        if (f[j] == '\\' && j + 1 < f.size()) j++;
        piece += f[j++];
      }
      len = j - i + 1;
    } else if (f[i] == '\\' && i + 1 < f.size()) {
      piece = f[i + 1];
      len = 2;
    } else {
      piece = f[i];
      len = 1;
    }
    i += len;
    if (numeric && i + 1 < f.size() + 1) {
      if (StartsWith(f, i, "TH")) {
        piece += Ordinal(number, true);
        i += 2;
      } else if (StartsWith(f, i, "th")) {
        piece += Ordinal(number, false);
        i += 2;
      }
    }
    out += piece;
  }
  return out;
}

// Number formatting.
bool NumberToChar(const std::string& value, const std::string& f,
                  std::string* out, PgError* error) {
  bool fm = false, has_sign = false, sign_mi = false, sign_pl = false,
       sign_sg = false, sign_s_front = false, sign_s_back = false;
  int int_digits = 0, frac_digits = 0, zero_from = -1;
  bool seen_point = false;
  // PR at the end: a negative value in angle brackets, where its sign
  // would float, and '>' after it (blanks for others).
  bool angle = false;
  std::string f2;  // the pattern without FM
  for (size_t i = 0; i < f.size(); i++) {
    if (StartsWith(f, i, "FM") || StartsWith(f, i, "fm")) {
      fm = true;
      i++;
      continue;
    }
    if (i + 2 == f.size() &&
        (StartsWith(f, i, "PR") || StartsWith(f, i, "pr"))) {
      angle = true;
      break;
    }
    if (StartsWith(f, i, "EEEE") || StartsWith(f, i, "RN") ||
        StartsWith(f, i, "rn") || f[i] == 'V' || f[i] == 'v') {
      *error = Err("0A000", "to_char pattern \"" + f.substr(i, 2) +
                                "\" is not supported yet");
      return false;
    }
    char c = f[i];
    if (c == '9' || c == '0') {
      if (seen_point) {
        frac_digits++;
      } else {
        if (c == '0' && zero_from < 0) zero_from = int_digits;
        int_digits++;
      }
    } else if (c == '.' || c == 'D') {
      seen_point = true;
    }
    if (StartsWith(f, i, "MI")) sign_mi = has_sign = true;
    if (StartsWith(f, i, "PL")) sign_pl = has_sign = true;
    if (StartsWith(f, i, "SG")) sign_sg = has_sign = true;
    if (c == 'S' && !StartsWith(f, i, "SG") && (i == 0 || f[i - 1] != 'S')) {
      has_sign = true;
      if (int_digits == 0 && !seen_point)
        sign_s_front = true;
      else
        sign_s_back = true;
    }
    f2 += c;
  }
  // Round the value to the fraction digits.
  types::num::Numeric n;
  PgError ignored;
  bool finite = types::num::Parse(value, &n, &ignored) &&
                n.kind == types::num::Numeric::kFinite;
  bool negative = false;
  std::string int_part, frac_part;
  if (finite) {
    types::num::Round(&n, frac_digits);
    negative = n.negative && !n.IsZero();
    n.negative = false;
    std::string s = types::num::ToString(n);
    size_t dot = s.find('.');
    int_part = dot == std::string::npos ? s : s.substr(0, dot);
    frac_part = dot == std::string::npos ? "" : s.substr(dot + 1);
    frac_part.resize(frac_digits, '0');
    if (int_part == "0") int_part = "";
  }
  bool overflow = !finite || static_cast<int>(int_part.size()) > int_digits;
  // Digits to print for each integer position.
  std::string digits(int_digits, ' ');
  if (!overflow) {
    int start = int_digits - static_cast<int>(int_part.size());
    for (int k = 0; k < int_digits; k++) {
      if (k >= start)
        digits[k] = int_part[k - start];
      else if (zero_from >= 0 && k >= zero_from)
        digits[k] = '0';
    }
    // A zero integer part in 9 positions (PostgreSQL's IS_PREDEC_SPACE):
    // printed as "0" when no fraction follows (999 -> "   0"); before a
    // fraction a blank (9.99 -> "  .50"), except that fill mode keeps a
    // lone "0." when every fraction digit goes (FM9.99 -> "0.").
    if (int_part.empty() && int_digits > 0 && zero_from < 0 &&
        (frac_digits == 0 ||
         (fm && frac_part.find_first_not_of('0') == std::string::npos)))
      digits[int_digits - 1] = '0';
  }
  std::string result;
  int ipos = 0, fpos = 0;
  bool point = false, printed_digit = false;
  bool sign_done = false;
  auto sign_char = [&]() -> std::string { return negative ? "-" : "+"; };
  if (!has_sign) {
    // A sign slot before the first printed digit.
  }
  bool float_sign = !has_sign || sign_s_front;
  auto float_char = [&]() -> std::string {
    if (sign_s_front) return sign_char();
    return negative ? (angle ? "<" : "-") : (fm ? "" : " ");
  };
  for (size_t i = 0; i < f2.size(); i++) {
    char c = f2[i];
    if (c == '9' || c == '0') {
      if (!point) {
        char d = overflow ? '#' : digits[ipos];
        if (float_sign && !sign_done && d != ' ') {
          result += float_char();
          sign_done = true;
        }
        if (d != ' ') printed_digit = true;
        result += d == ' ' ? (fm ? "" : " ") : std::string(1, d);
        ipos++;
      } else {
        result += overflow ? '#' : frac_part[fpos];
        fpos++;
      }
    } else if (c == '.' || c == 'D') {
      if (float_sign && !sign_done) {
        result += float_char();
        sign_done = true;
      }
      point = true;
      result += '.';
    } else if (c == ',' || c == 'G') {
      result += printed_digit ? "," : (fm ? "" : " ");
    } else if (c == 'S' && !(i + 1 < f2.size() && f2[i + 1] == 'G')) {
      if (!sign_s_front) result += sign_char();
    } else if (c == 'M' && i + 1 < f2.size() && f2[i + 1] == 'I') {
      result += negative ? "-" : (fm ? "" : " ");
      i++;
    } else if ((c == 'T' || c == 't') && i + 1 < f2.size() &&
               (f2[i + 1] == 'H' || f2[i + 1] == 'h')) {
      if (!negative && finite && !overflow) {
        int64_t iv = 0;
        ToInt64(int_part.empty()
                    ? "0"
                    : int_part.substr(int_part.size() > 3 ? int_part.size() - 3
                                                          : 0),
                &iv);
        result += Ordinal(iv, c == 'T');
      }
      i++;
    } else if (c == 'P' && i + 1 < f2.size() && f2[i + 1] == 'L') {
      result += negative ? "" : "+";
      if (negative && !fm) result += " ";
      i++;
    } else if (c == 'S' && i + 1 < f2.size() && f2[i + 1] == 'G') {
      result += sign_char();
      i++;
    } else {
      result += c;
    }
  }
  if (float_sign && !sign_done) result.insert(0, float_char());
  (void)sign_mi;
  (void)sign_pl;
  (void)sign_sg;
  (void)sign_s_front;
  (void)sign_s_back;
  if (fm) {
    // Fill mode: trailing zeros of 9-positions after the point go.
    size_t dot = result.find('.');
    if (dot != std::string::npos && !overflow) {
      size_t pat_dot = f2.find_first_of(".D");
      size_t k = result.size();
      size_t p = f2.size();
      while (k > dot + 1 && p > pat_dot + 1 && result[k - 1] == '0' &&
             f2[p - 1] == '9') {
        k--;
        p--;
      }
      result.erase(k, std::string::npos);
    }
  }
  if (angle) result += negative ? ">" : (fm ? "" : " ");
  *out = result;
  return true;
}

// Parses text under a format into a timestamp (to_timestamp/to_date).
bool ParseWithFormat(const std::string& s, const std::string& f, Tm* tm,
                     int* fsec, bool* has_tz, int* tz_west, PgError* error) {
  tm->year = 1;
  tm->mon = 1;
  tm->mday = 1;
  tm->hour = tm->min = tm->sec = 0;
  *fsec = 0;
  *has_tz = false;
  bool pm = false, has_ampm = false, bc = false;
  size_t si = 0;
  auto read_int = [&](int max_digits, int64_t* v) {
    while (si < s.size() && s[si] == ' ') si++;
    bool neg = false;
    if (si < s.size() && (s[si] == '-' || s[si] == '+')) neg = s[si++] == '-';
    size_t start = si;
    int64_t r = 0;
    while (si < s.size() && std::isdigit(static_cast<unsigned char>(s[si])) &&
           static_cast<int>(si - start) < max_digits)
      r = r * 10 + (s[si++] - '0');
    if (si == start) return false;
    *v = neg ? -r : r;
    return true;
  };
  auto bad = [&](const std::string& field) {
    *error = Err("22007", "invalid value \"" + s.substr(si, 2) + "\" for \"" +
                              field + "\"");
    error->detail = "Value must be an integer.";
    return false;
  };
  for (size_t i = 0; i < f.size();) {
    if (StartsWith(f, i, "FM") || StartsWith(f, i, "fm")) {
      i += 2;
      continue;
    }
    std::string up;
    for (size_t k = i; k < f.size() && k < i + 5; k++)
      up += static_cast<char>(std::toupper(f[k]));
    auto kw = [&](const char* k) {
      return up.compare(0, std::strlen(k), k) == 0;
    };
    int64_t v;
    if (kw("YYYY")) {
      if (!read_int(9, &v)) return bad("YYYY");
      tm->year = static_cast<int>(v);
      i += 4;
    } else if (kw("YY")) {
      if (!read_int(2, &v)) return bad("YY");
      tm->year = static_cast<int>(v < 70 ? 2000 + v : 1900 + v);
      i += 2;
    } else if (kw("MONTH") || kw("MON")) {
      bool full = kw("MONTH");
      while (si < s.size() && s[si] == ' ') si++;
      int found = -1;
      for (int m = 0; m < 12 && found < 0; m++) {
        std::string name = full ? kMonths[m] : std::string(kMonths[m], 3);
        if (s.size() - si >= name.size() &&
            Lower(s.substr(si, name.size())) == Lower(name)) {
          found = m;
          si += name.size();
        }
      }
      if (found < 0) {
        *error =
            Err("22007", "invalid value \"" + s.substr(si, 3) + "\" for \"" +
                             f.substr(i, full ? 5 : 3) + "\"");
        error->detail =
            "The given value did not match any of the allowed "
            "values for this field.";
        return false;
      }
      tm->mon = found + 1;
      i += full ? 5 : 3;
    } else if (kw("MM")) {
      if (!read_int(2, &v)) return bad("MM");
      tm->mon = static_cast<int>(v);
      i += 2;
    } else if (kw("DDD")) {
      if (!read_int(3, &v)) return bad("DDD");
      i += 3;
    } else if (kw("DD")) {
      if (!read_int(2, &v)) return bad("DD");
      tm->mday = static_cast<int>(v);
      i += 2;
    } else if (kw("HH24")) {
      if (!read_int(2, &v)) return bad("HH24");
      tm->hour = static_cast<int>(v);
      i += 4;
    } else if (kw("HH12") || kw("HH")) {
      if (!read_int(2, &v)) return bad(kw("HH12") ? "HH12" : "HH");
      tm->hour = static_cast<int>(v);
      i += kw("HH12") ? 4 : 2;
    } else if (kw("MI")) {
      if (!read_int(2, &v)) return bad("MI");
      tm->min = static_cast<int>(v);
      i += 2;
    } else if (kw("SS")) {
      if (!read_int(2, &v)) return bad("SS");
      tm->sec = static_cast<int>(v);
      i += 2;
    } else if (kw("MS") || kw("US")) {
      bool ms = kw("MS");
      size_t start = si;
      if (!read_int(ms ? 3 : 6, &v)) return bad(ms ? "MS" : "US");
      int digits = static_cast<int>(si - start);
      for (int k = digits; k < (ms ? 3 : 6); k++) v *= 10;
      *fsec += static_cast<int>(ms ? v * 1000 : v);
      i += 2;
    } else if (kw("AM") || kw("PM") || kw("A.M.") || kw("P.M.")) {
      bool dotted = up[1] == '.';
      while (si < s.size() && s[si] == ' ') si++;
      std::string word = Lower(s.substr(si, dotted ? 4 : 2));
      has_ampm = true;
      pm = word[0] == 'p';
      si += dotted ? 4 : 2;
      i += dotted ? 4 : 2;
    } else if (kw("BC") || kw("AD")) {
      while (si < s.size() && s[si] == ' ') si++;
      bc = Lower(s.substr(si, 2)) == "bc";
      si += 2;
      i += 2;
    } else if (kw("DAY") || kw("DY")) {
      while (si < s.size() && std::isalpha(static_cast<unsigned char>(s[si])))
        si++;
      i += kw("DAY") ? 3 : 2;
    } else if (kw("TZH") || kw("OF") || kw("TZ")) {
      *error = Err("0A000", "formatting field \"" + f.substr(i, 2) +
                                "\" is only supported in to_char");
      return false;
    } else if (f[i] == '"') {
      size_t j = i + 1;
      while (j < f.size() && f[j] != '"') {
        j++;
        if (si < s.size()) si++;
      }
      i = j + 1;
    } else if (f[i] == ' ') {
      while (si < s.size() && s[si] == ' ') si++;
      i++;
    } else {
      // A separator in the format skips one input character.
      if (si < s.size() && !std::isalnum(static_cast<unsigned char>(s[si])))
        si++;
      i++;
    }
  }
  (void)tz_west;
  if (has_ampm) {
    if (tm->hour < 1 || tm->hour > 12) {
      *error = Err("22008", "hour \"" + std::to_string(tm->hour) +
                                "\" is invalid for the 12-hour clock");
      error->hint = "Use the 24-hour clock, or give an hour between 1 and 12.";
      return false;
    }
    if (pm && tm->hour < 12) tm->hour += 12;
    if (!pm && tm->hour == 12) tm->hour = 0;
  }
  if (bc) tm->year = -(tm->year - 1);
  return true;
}

bool ValidateTm(const Tm& tm, const std::string& s, PgError* error) {
  if (tm.mon < 1 || tm.mon > 12 || tm.mday < 1 ||
      tm.mday > types::dt::kDayTab[types::dt::IsLeap(tm.year)][tm.mon - 1] ||
      tm.hour < 0 || tm.hour > 24 || tm.min < 0 || tm.min > 59 || tm.sec < 0 ||
      tm.sec > 60) {
    *error = Err("22008", "date/time field value out of range: \"" + s + "\"");
    return false;
  }
  return true;
}

}  // namespace

bool EvalFormatFunction(const Expr& e, const std::vector<Value>& args,
                        SessionHooks* hooks, bool* handled, Value* out,
                        PgError* error) {
  const auto& ctx = hooks->type_context();
  const std::string& n = e.name;
  *handled = true;
  if (n == "to_number") {
    for (const Value& a : args)
      if (!a) return true;
    const std::string& str = *args[0];
    const std::string& f = *args[1];
    std::string int_part, frac_part;
    bool negative = false, seen_point = false, any_digit = false;
    size_t si = 0;
    for (size_t fi = 0; fi < f.size(); fi++) {
      char c = f[fi];
      if (c == 'F' && fi + 1 < f.size() && f[fi + 1] == 'M') {
        fi++;
        continue;
      }
      if (si >= str.size()) break;
      char in = str[si];
      if (c == '9' || c == '0') {
        if (in >= '0' && in <= '9') {
          (seen_point ? frac_part : int_part) += in;
          any_digit = true;
          si++;
        } else if ((in == '-' || in == '+' || in == '<') && !any_digit) {
          negative = in != '+';
          si++;
          fi--;  // the same position again
        } else {
          si++;
        }
      } else if (c == '.' || c == 'D') {
        if (in == '.') {
          seen_point = true;
          si++;
        }
      } else if (c == ',' || c == 'G') {
        if (in == ',') si++;
      } else if (c == 'S' || c == 'M' || c == 'P') {
        if (in == '-' || in == '<') negative = true;
        if (in == '-' || in == '+' || in == '<' || in == '>') si++;
        if ((c == 'M' || c == 'P') && fi + 1 < f.size()) fi++;
      } else {
        si++;
      }
    }
    int frac_digits = static_cast<int>(frac_part.size());
    frac_part = frac_part.substr(0, frac_digits);
    frac_part.resize(frac_digits, '0');
    size_t nz = int_part.find_first_not_of('0');
    int_part = nz == std::string::npos ? "0" : int_part.substr(nz);
    std::string r = int_part;
    if (frac_digits > 0) r += "." + frac_part;
    bool zero = r.find_first_not_of("0.") == std::string::npos;
    *out = (negative && !zero ? "-" : "") + r;
    *handled = true;
    return true;
  }
  if (!(n == "to_char" || n == "to_date" ||
        (n == "to_timestamp" && args.size() == 2))) {
    *handled = false;
    return true;
  }
  for (const Value& v : args)
    if (!v) return true;
  const std::string& v = *args[0];
  const std::string& f = *args[1];
  if (n == "to_char") {
    uint32_t t = e.args[0]->type;
    if (IsNumber(t)) {
      std::string r;
      if (!NumberToChar(v, f, &r, error)) return false;
      *out = r;
      return true;
    }
    Broken b;
    if (t == oid::kInterval) {
      Interval iv;
      if (!types::dt::IntervalIn(v, -1, ctx, &iv, error)) return false;
      b.is_interval = true;
      b.tm.year = iv.month / 12;
      b.tm.mon = iv.month % 12;
      b.tm.mday = iv.day;
      int64_t time = iv.time;
      b.total_hours = time / (3600 * types::dt::kUsecsPerSec);
      time -= b.total_hours * 3600 * types::dt::kUsecsPerSec;
      b.tm.hour = static_cast<int>(b.total_hours % 24);
      b.tm.min = static_cast<int>(time / (60 * types::dt::kUsecsPerSec));
      time -= int64_t{b.tm.min} * 60 * types::dt::kUsecsPerSec;
      b.tm.sec = static_cast<int>(time / types::dt::kUsecsPerSec);
      b.fsec = static_cast<int>(time % types::dt::kUsecsPerSec);
      // Month/day names of an interval: PostgreSQL uses them as is.
      if (b.tm.mon == 0) b.tm.mon = 12;
      if (b.tm.mday == 0) b.tm.mday = 1;
    } else {
      bool tz = t == oid::kTimestamptz;
      int64_t ts;
      if (!types::dt::TimestampInCanonical(v, tz, ctx, &ts, error))
        return false;
      if (ts == types::dt::kTimestampNoBegin ||
          ts == types::dt::kTimestampNoEnd)
        return true;  // NULL
      if (types::dt::Timestamp2Tm(ts, tz ? types::dt::ZoneOf(ctx) : nullptr,
                                  &b.tzoff, &b.tm, &b.fsec) != 0) {
        *error = Err("22008", "timestamp out of range");
        return false;
      }
      if (tz) b.tzname = b.tm.zone;
    }
    *out = DateTimeToChar(b, f);
    return true;
  }
  Tm tm;
  int fsec, tz_west = 0;
  bool has_tz;
  if (!ParseWithFormat(v, f, &tm, &fsec, &has_tz, &tz_west, error) ||
      !ValidateTm(tm, v, error))
    return false;
  if (n == "to_date") {
    std::string s;
    types::dt::DateOut(types::dt::Date2J(tm.year, tm.mon, tm.mday) -
                           types::dt::kPostgresEpochJdate,
                       ctx, &s);
    *out = s;
    return true;
  }
  int off =
      types::dt::DetermineTimeZoneOffset(&tm, types::dt::ZoneOf(ctx), nullptr);
  int64_t ts;
  if (types::dt::Tm2Timestamp(tm, fsec, &off, &ts) != 0) {
    *error = Err("22008", "timestamp out of range");
    return false;
  }
  std::string s;
  if (!types::dt::TimestampOut(ts, true, ctx, &s, error)) return false;
  *out = s;
  return true;
}

}  // namespace kova::planner::expr_detail
