// Date/time operators and functions of the expression layer: arithmetic
// (timestamp_pl_interval, date_mi, interval_mul, ...), comparisons,
// extract/date_part, date_trunc, age, make_*, justify_*, to_timestamp.
#include <chrono>
#include <cmath>
#include <cstring>

#include "planner/decimal.h"
#include "planner/expr_internal.h"
#include "planner/types_datetime.h"
#include "planner/types_tz.h"

namespace kova::planner::expr_detail {

using types::dt::Interval;
using types::dt::kDateNoBegin;
using types::dt::kDateNoEnd;
using types::dt::kTimestampNoBegin;
using types::dt::kTimestampNoEnd;
using types::dt::kUsecsPerDay;
using types::dt::kUsecsPerSec;
using types::dt::Tm;

namespace {

constexpr int64_t kUsecsPerHour = 3600 * kUsecsPerSec;
constexpr int64_t kUsecsPerMinute = 60 * kUsecsPerSec;

bool Fail(PgError* error, const char* code, std::string message) {
  *error = Err(code, std::move(message));
  return false;
}

bool ParseDate(const std::string& s, const types::TypeContext& ctx,
               int32_t* out, PgError* error) {
  return types::dt::DateInCanonical(s, ctx, out, error);
}
bool ParseTs(const std::string& s, bool tz, const types::TypeContext& ctx,
             int64_t* out, PgError* error) {
  return types::dt::TimestampInCanonical(s, tz, ctx, out, error);
}
bool ParseTime(const std::string& s, const types::TypeContext& ctx,
               int64_t* out, PgError* error) {
  return types::dt::TimeIn(s, -1, ctx, out, error);
}
bool ParseInterval(const std::string& s, const types::TypeContext& ctx,
                   Interval* out, PgError* error) {
  return types::dt::IntervalIn(s, -1, ctx, out, error);
}

std::string DateText(int32_t d, const types::TypeContext& ctx) {
  std::string s;
  types::dt::DateOut(d, ctx, &s);
  return s;
}
bool TsText(int64_t ts, bool tz, const types::TypeContext& ctx, Value* out,
            PgError* error) {
  std::string s;
  if (!types::dt::TimestampOut(ts, tz, ctx, &s, error)) return false;
  *out = s;
  return true;
}
std::string TimeText(int64_t t) {
  std::string s;
  types::dt::TimeOut(t, &s);
  return s;
}
std::string IntervalText(const Interval& iv, const types::TypeContext& ctx) {
  std::string s;
  types::dt::IntervalOut(iv, ctx, &s);
  return s;
}

bool TsFinite(int64_t ts) {
  return ts != kTimestampNoBegin && ts != kTimestampNoEnd;
}

// A value of a date/time type as a timestamp(tz) (date -> midnight).
bool AsTimestamp(uint32_t type, const std::string& v, bool want_tz,
                 const types::TypeContext& ctx, int64_t* out, PgError* error) {
  if (type == oid::kDate) {
    int32_t d;
    if (!ParseDate(v, ctx, &d, error)) return false;
    return want_tz ? types::dt::DateToTimestamptz(d, ctx, out, error)
                   : types::dt::DateToTimestamp(d, out, error);
  }
  if (type == oid::kTimestamp) {
    if (!ParseTs(v, false, ctx, out, error)) return false;
    return want_tz ? types::dt::TimestampToTimestamptz(*out, ctx, out, error)
                   : true;
  }
  if (!ParseTs(v, true, ctx, out, error)) return false;
  return want_tz ? true
                 : types::dt::TimestamptzToTimestamp(*out, ctx, out, error);
}

__int128 IntervalKey(const Interval& iv) {
  return static_cast<__int128>(iv.time) +
         static_cast<__int128>(iv.day) * kUsecsPerDay +
         static_cast<__int128>(iv.month) * 30 * kUsecsPerDay;
}

bool ToTm(int64_t ts, bool tz, const types::TypeContext& ctx, Tm* tm, int* fsec,
          int* tzoff, PgError* error) {
  int dummy = 0;
  if (types::dt::Timestamp2Tm(ts, tz ? types::dt::ZoneOf(ctx) : nullptr,
                              tzoff ? tzoff : &dummy, tm, fsec) != 0)
    return Fail(error, "22008", "timestamp out of range");
  return true;
}

bool FromTm(Tm* tm, int fsec, bool tz, const types::TypeContext& ctx,
            int64_t* out, PgError* error) {
  int off = 0;
  if (tz)
    off =
        types::dt::DetermineTimeZoneOffset(tm, types::dt::ZoneOf(ctx), nullptr);
  if (types::dt::Tm2Timestamp(*tm, fsec, tz ? &off : nullptr, out) != 0)
    return Fail(error, "22008", "timestamp out of range");
  return true;
}

// timestamp_pl_interval / timestamptz_pl_interval.
bool AddInterval(int64_t ts, const Interval& span, bool tz,
                 const types::TypeContext& ctx, int64_t* out, PgError* error) {
  if (!TsFinite(ts)) {
    *out = ts;
    return true;
  }
  if (span.month != 0) {
    Tm tm;
    int fsec;
    if (!ToTm(ts, tz, ctx, &tm, &fsec, nullptr, error)) return false;
    tm.mon += span.month;
    if (tm.mon > 12) {
      tm.year += (tm.mon - 1) / 12;
      tm.mon = ((tm.mon - 1) % 12) + 1;
    } else if (tm.mon < 1) {
      tm.year += tm.mon / 12 - 1;
      tm.mon = tm.mon % 12 + 12;
    }
    int dim = types::dt::kDayTab[types::dt::IsLeap(tm.year)][tm.mon - 1];
    if (tm.mday > dim) tm.mday = dim;
    if (!FromTm(&tm, fsec, tz, ctx, &ts, error)) return false;
  }
  if (span.day != 0) {
    Tm tm;
    int fsec;
    if (!ToTm(ts, tz, ctx, &tm, &fsec, nullptr, error)) return false;
    int julian = types::dt::Date2J(tm.year, tm.mon, tm.mday) + span.day;
    types::dt::J2Date(julian, &tm.year, &tm.mon, &tm.mday);
    if (!FromTm(&tm, fsec, tz, ctx, &ts, error)) return false;
  }
  if (__builtin_add_overflow(ts, span.time, &ts) ||
      !types::dt::IsValidTimestamp(ts))
    return Fail(error, "22008", "timestamp out of range");
  *out = ts;
  return true;
}

bool NegateInterval(Interval* iv, PgError* error) {
  if (iv->time == INT64_MIN || iv->day == INT32_MIN || iv->month == INT32_MIN)
    return Fail(error, "22008", "interval out of range");
  iv->time = -iv->time;
  iv->day = -iv->day;
  iv->month = -iv->month;
  return true;
}

double TsRound(double j) { return std::rint(j * 1000000.0) / 1000000.0; }

bool IntervalMul(const Interval& span, double factor, bool divide,
                 Interval* result, PgError* error) {
  if (divide && factor == 0.0) return Fail(error, "22012", "division by zero");
  double f = divide ? 1.0 / factor : factor;
  auto q = [&](double v) { return divide ? v / factor : v * factor; };
  double rm = q(span.month);
  if (std::isnan(rm) || rm > INT32_MAX || rm < INT32_MIN)
    return Fail(error, "22008", "interval out of range");
  result->month = static_cast<int32_t>(rm);
  double rd = q(span.day);
  if (std::isnan(rd) || rd > INT32_MAX || rd < INT32_MIN)
    return Fail(error, "22008", "interval out of range");
  result->day = static_cast<int32_t>(rd);
  double month_remainder_days = (q(span.month) - result->month) * 30;
  month_remainder_days = TsRound(month_remainder_days);
  double sec_remainder = (q(span.day) - result->day + month_remainder_days -
                          static_cast<int>(month_remainder_days)) *
                         86400;
  sec_remainder = TsRound(sec_remainder);
  if (std::fabs(sec_remainder) >= 86400) {
    result->day += static_cast<int>(sec_remainder / 86400);
    sec_remainder -= static_cast<int>(sec_remainder / 86400) * 86400.0;
  }
  result->day += static_cast<int32_t>(month_remainder_days);
  double rt = std::rint(q(static_cast<double>(span.time)) +
                        sec_remainder * kUsecsPerSec);
  if (std::isnan(rt) || rt < -9.2233720368547758e18 ||
      rt >= 9.2233720368547758e18)
    return Fail(error, "22008", "interval out of range");
  result->time = static_cast<int64_t>(rt);
  (void)f;
  return true;
}

bool AddIntervals(const Interval& a, const Interval& b, bool subtract,
                  Interval* r, PgError* error) {
  bool overflow = subtract
                      ? __builtin_sub_overflow(a.month, b.month, &r->month) ||
                            __builtin_sub_overflow(a.day, b.day, &r->day) ||
                            __builtin_sub_overflow(a.time, b.time, &r->time)
                      : __builtin_add_overflow(a.month, b.month, &r->month) ||
                            __builtin_add_overflow(a.day, b.day, &r->day) ||
                            __builtin_add_overflow(a.time, b.time, &r->time);
  if (overflow) return Fail(error, "22008", "interval out of range");
  return true;
}

void JustifyHours(Interval* r) {
  int64_t wholeday = r->time / kUsecsPerDay;
  r->time -= wholeday * kUsecsPerDay;
  r->day += static_cast<int32_t>(wholeday);
  if (r->day > 0 && r->time < 0) {
    r->time += kUsecsPerDay;
    r->day--;
  } else if (r->day < 0 && r->time > 0) {
    r->time -= kUsecsPerDay;
    r->day++;
  }
}

void JustifyDays(Interval* r) {
  int32_t wholemonth = r->day / 30;
  r->day -= wholemonth * 30;
  r->month += wholemonth;
  if (r->month > 0 && r->day < 0) {
    r->day += 30;
    r->month--;
  } else if (r->month < 0 && r->day > 0) {
    r->day -= 30;
    r->month++;
  }
}

void JustifyInterval(Interval* r) {
  if ((r->day > 0 && r->time > 0) || (r->day < 0 && r->time < 0)) {
    int32_t wholemonth = r->day / 30;
    r->day -= wholemonth * 30;
    r->month += wholemonth;
  }
  int64_t wholeday = r->time / kUsecsPerDay;
  r->time -= wholeday * kUsecsPerDay;
  r->day += static_cast<int32_t>(wholeday);
  int32_t wholemonth = r->day / 30;
  r->day -= wholemonth * 30;
  r->month += wholemonth;
  if (r->month > 0 && (r->day < 0 || (r->day == 0 && r->time < 0))) {
    r->day += 30;
    r->month--;
  } else if (r->month < 0 && (r->day > 0 || (r->day == 0 && r->time > 0))) {
    r->day -= 30;
    r->month++;
  }
  if (r->day > 0 && r->time < 0) {
    r->time += kUsecsPerDay;
    r->day--;
  } else if (r->day < 0 && r->time > 0) {
    r->time -= kUsecsPerDay;
    r->day++;
  }
}

// ISO 8601 week helpers (date2isoweek, date2isoyear, isoweek2j).
int Date2IsoWeek(int year, int mon, int mday) {
  int dayn = types::dt::Date2J(year, mon, mday);
  int day4 = types::dt::Date2J(year, 1, 4);
  int day0 = types::dt::J2Day(day4 - 1);
  if (dayn < day4 - day0) {
    day4 = types::dt::Date2J(year - 1, 1, 4);
    day0 = types::dt::J2Day(day4 - 1);
  }
  int result = (dayn - (day4 - day0)) / 7 + 1;
  if (result >= 52) {
    day4 = types::dt::Date2J(year + 1, 1, 4);
    day0 = types::dt::J2Day(day4 - 1);
    if (dayn >= day4 - day0) result = (dayn - (day4 - day0)) / 7 + 1;
  }
  return result;
}

int Date2IsoYear(int year, int mon, int mday) {
  int dayn = types::dt::Date2J(year, mon, mday);
  int day4 = types::dt::Date2J(year, 1, 4);
  int day0 = types::dt::J2Day(day4 - 1);
  if (dayn < day4 - day0) {
    day4 = types::dt::Date2J(year - 1, 1, 4);
    day0 = types::dt::J2Day(day4 - 1);
    year--;
  }
  int result = (dayn - (day4 - day0)) / 7 + 1;
  if (result >= 52) {
    day4 = types::dt::Date2J(year + 1, 1, 4);
    day0 = types::dt::J2Day(day4 - 1);
    if (dayn >= day4 - day0) year++;
  }
  return year;
}

int IsoWeek2J(int year, int week) {
  int day4 = types::dt::Date2J(year, 1, 4);
  int day0 = types::dt::J2Day(day4 - 1);
  return ((week - 1) * 7) + (day4 - day0);
}

// The canonical unit name of a date_part/date_trunc field, "" if unknown.
std::string Unit(const std::string& raw) {
  std::string f = Lower(raw);
  // PostgreSQL downcases and drops nothing else; plurals and abbreviations
  // from its deltatktbl.
  static const std::pair<const char*, const char*> kUnits[] = {
      {"microsecond", "microseconds"},
      {"microseconds", "microseconds"},
      {"us", "microseconds"},
      {"usec", "microseconds"},
      {"usecs", "microseconds"},
      {"usecond", "microseconds"},
      {"useconds", "microseconds"},
      {"millisecond", "milliseconds"},
      {"milliseconds", "milliseconds"},
      {"ms", "milliseconds"},
      {"msec", "milliseconds"},
      {"msecs", "milliseconds"},
      {"msecond", "milliseconds"},
      {"mseconds", "milliseconds"},
      {"second", "second"},
      {"seconds", "second"},
      {"s", "second"},
      {"sec", "second"},
      {"secs", "second"},
      {"minute", "minute"},
      {"minutes", "minute"},
      {"m", "minute"},
      {"min", "minute"},
      {"mins", "minute"},
      {"hour", "hour"},
      {"hours", "hour"},
      {"h", "hour"},
      {"hr", "hour"},
      {"hrs", "hour"},
      {"day", "day"},
      {"days", "day"},
      {"d", "day"},
      {"week", "week"},
      {"weeks", "week"},
      {"w", "week"},
      {"month", "month"},
      {"months", "month"},
      {"mon", "month"},
      {"mons", "month"},
      {"quarter", "quarter"},
      {"qtr", "quarter"},
      {"year", "year"},
      {"years", "year"},
      {"y", "year"},
      {"yr", "year"},
      {"yrs", "year"},
      {"decade", "decade"},
      {"decades", "decade"},
      {"dec", "decade"},
      {"decs", "decade"},
      {"century", "century"},
      {"centuries", "century"},
      {"c", "century"},
      {"cent", "century"},
      {"millennium", "millennium"},
      {"millennia", "millennium"},
      {"mil", "millennium"},
      {"mils", "millennium"},
      {"millenniums", "millennium"},
      {"epoch", "epoch"},
      {"dow", "dow"},
      {"doy", "doy"},
      {"isodow", "isodow"},
      {"isoyear", "isoyear"},
      {"julian", "julian"},
      {"j", "julian"},
      {"timezone", "timezone"},
      {"timezone_h", "timezone_hour"},
      {"timezone_hour", "timezone_hour"},
      {"timezone_m", "timezone_minute"},
      {"timezone_minute", "timezone_minute"}};
  for (const auto& [k, v] : kUnits)
    if (f == k) return v;
  return "";
}

const char* TypeLabel(uint32_t t) {
  switch (t) {
    case oid::kDate:
      return "date";
    case oid::kTime:
      return "time without time zone";
    case oid::kTimestamp:
      return "timestamp without time zone";
    case oid::kTimestamptz:
      return "timestamp with time zone";
    default:
      return "interval";
  }
}

bool UnitError(const std::string& raw, uint32_t type, bool recognized,
               PgError* error) {
  std::string f = Lower(raw);
  if (recognized)
    *error = Err("0A000", "unit \"" + f + "\" not supported for type " +
                              TypeLabel(type));
  else
    *error = Err("22023", "unit \"" + f + "\" not recognized for type " +
                              TypeLabel(type));
  return false;
}

// value / 10^scale as numeric text.
std::string Scaled(__int128 v, int scale) {
  bool neg = v < 0;
  if (neg) v = -v;
  std::string digits;
  do {
    digits.insert(digits.begin(),
                  static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v > 0);
  if (scale > 0) {
    if (static_cast<int>(digits.size()) <= scale)
      digits.insert(0, scale - digits.size() + 1, '0');
    digits.insert(digits.size() - scale, ".");
  }
  return (neg ? "-" : "") + digits;
}

// The result of extract/date_part: numeric text (scale), or a float8.
bool PartResult(bool numeric, __int128 v, int scale,
                const types::TypeContext& ctx, Value* out, PgError* error) {
  if (numeric) {
    *out = Scaled(v, scale);
    return true;
  }
  double d = static_cast<double>(v);
  for (int i = 0; i < scale; i++) d /= 10;
  return FormatDouble(d, oid::kFloat8, ctx, out, error);
}

bool ExtractTimestamp(const std::string& unit_raw, uint32_t type,
                      const std::string& v, bool numeric,
                      const types::TypeContext& ctx, Value* out,
                      PgError* error) {
  std::string unit = Unit(unit_raw);
  bool tz = type == oid::kTimestamptz;
  int64_t ts;
  if (type == oid::kDate) {
    int32_t d;
    if (!ParseDate(v, ctx, &d, error)) return false;
    if (numeric &&
        (unit == "microseconds" || unit == "milliseconds" || unit == "second" ||
         unit == "minute" || unit == "hour" || unit == "timezone" ||
         unit == "timezone_hour" || unit == "timezone_minute"))
      return UnitError(unit_raw, type, true, error);
    if (unit.empty()) return UnitError(unit_raw, type, false, error);
    if (d == kDateNoBegin || d == kDateNoEnd) return true;
    if (numeric && (unit == "epoch" || unit == "julian")) {
      // Whole numbers for a date.
      int64_t jd = int64_t{d} + types::dt::kPostgresEpochJdate;
      *out =
          std::to_string(unit == "julian" ? jd
                                          : (jd - types::dt::kUnixEpochJdate) *
                                                int64_t{86400});
      return true;
    }
    if (!types::dt::DateToTimestamp(d, &ts, error)) return false;
    type = oid::kTimestamp;
  } else if (!ParseTs(v, tz, ctx, &ts, error)) {
    return false;
  }
  if (unit.empty()) return UnitError(unit_raw, type, false, error);
  if (!TsFinite(ts)) {
    bool inf = unit == "year" || unit == "decade" || unit == "century" ||
               unit == "millennium" || unit == "julian" || unit == "isoyear" ||
               unit == "epoch";
    if (!inf) return true;
    if (numeric) {
      *out = ts == kTimestampNoEnd ? "Infinity" : "-Infinity";
      return true;
    }
    *out = ts == kTimestampNoEnd ? "Infinity" : "-Infinity";
    return true;
  }
  Tm tm;
  int fsec, tzoff = 0;
  if (!ToTm(ts, tz, ctx, &tm, &fsec, &tzoff, error)) return false;
  __int128 r;
  int scale = 0;
  if (unit == "microseconds") {
    r = static_cast<__int128>(tm.sec) * 1000000 + fsec;
  } else if (unit == "milliseconds") {
    r = static_cast<__int128>(tm.sec) * 1000000 + fsec;
    scale = 3;
  } else if (unit == "second") {
    r = static_cast<__int128>(tm.sec) * 1000000 + fsec;
    scale = 6;
  } else if (unit == "minute") {
    r = tm.min;
  } else if (unit == "hour") {
    r = tm.hour;
  } else if (unit == "day") {
    r = tm.mday;
  } else if (unit == "month") {
    r = tm.mon;
  } else if (unit == "quarter") {
    r = (tm.mon - 1) / 3 + 1;
  } else if (unit == "week") {
    r = Date2IsoWeek(tm.year, tm.mon, tm.mday);
  } else if (unit == "year") {
    r = tm.year > 0 ? tm.year : tm.year - 1;
  } else if (unit == "decade") {
    r = tm.year >= 0 ? tm.year / 10 : -((8 - (tm.year - 1)) / 10);
  } else if (unit == "century") {
    r = tm.year > 0 ? (tm.year + 99) / 100 : -((99 - (tm.year - 1)) / 100);
  } else if (unit == "millennium") {
    r = tm.year > 0 ? (tm.year + 999) / 1000 : -((999 - (tm.year - 1)) / 1000);
  } else if (unit == "isoyear") {
    r = Date2IsoYear(tm.year, tm.mon, tm.mday);
    if (r <= 0) r -= 1;
  } else if (unit == "dow" || unit == "isodow") {
    r = types::dt::J2Day(types::dt::Date2J(tm.year, tm.mon, tm.mday));
    if (unit == "isodow" && r == 0) r = 7;
  } else if (unit == "doy") {
    r = types::dt::Date2J(tm.year, tm.mon, tm.mday) -
        types::dt::Date2J(tm.year, 1, 1) + 1;
  } else if (unit == "epoch") {
    // Seconds since 1970-01-01 00:00:00 UTC (nominal for timestamp).
    int64_t epoch = static_cast<int64_t>(types::dt::kUnixEpochJdate -
                                         types::dt::kPostgresEpochJdate) *
                    kUsecsPerDay;
    r = static_cast<__int128>(ts) - epoch;
    scale = 6;
  } else if (unit == "julian") {
    int64_t day_us =
        ((static_cast<int64_t>(tm.hour) * 60 + tm.min) * 60 + tm.sec) *
            kUsecsPerSec +
        fsec;
    int jd = types::dt::Date2J(tm.year, tm.mon, tm.mday);
    if (!numeric) {
      double d = jd + day_us / static_cast<double>(kUsecsPerDay);
      return FormatDouble(d, oid::kFloat8, ctx, out, error);
    }
    Decimal a, b, c;
    Decimal::Parse(std::to_string(day_us), &a);
    Decimal::Parse(std::to_string(kUsecsPerDay), &b);
    Decimal::Parse(std::to_string(jd), &c);
    *out = AddDecimal(c, DivDecimal(a, b), false).ToString();
    return true;
  } else if (tz && (unit == "timezone" || unit == "timezone_hour" ||
                    unit == "timezone_minute")) {
    int east = -tzoff;
    r = unit == "timezone"        ? east
        : unit == "timezone_hour" ? east / 3600
                                  : (east / 60) % 60;
  } else {
    return UnitError(unit_raw, type, true, error);
  }
  return PartResult(numeric, r, scale, ctx, out, error);
}

bool ExtractTime(const std::string& unit_raw, const std::string& v,
                 bool numeric, const types::TypeContext& ctx, Value* out,
                 PgError* error) {
  std::string unit = Unit(unit_raw);
  int64_t t;
  if (!ParseTime(v, ctx, &t, error)) return false;
  if (unit.empty()) return UnitError(unit_raw, oid::kTime, false, error);
  int64_t hour = t / kUsecsPerHour, min = t / kUsecsPerMinute % 60;
  int64_t secus = t % kUsecsPerMinute;
  __int128 r;
  int scale = 0;
  if (unit == "microseconds") {
    r = secus;
  } else if (unit == "milliseconds") {
    r = secus;
    scale = 3;
  } else if (unit == "second") {
    r = secus;
    scale = 6;
  } else if (unit == "minute") {
    r = min;
  } else if (unit == "hour") {
    r = hour;
  } else if (unit == "epoch") {
    r = t;
    scale = 6;
  } else {
    return UnitError(unit_raw, oid::kTime, true, error);
  }
  return PartResult(numeric, r, scale, ctx, out, error);
}

bool ExtractInterval(const std::string& unit_raw, const std::string& v,
                     bool numeric, const types::TypeContext& ctx, Value* out,
                     PgError* error) {
  std::string unit = Unit(unit_raw);
  Interval iv;
  if (!ParseInterval(v, ctx, &iv, error)) return false;
  if (unit.empty()) return UnitError(unit_raw, oid::kInterval, false, error);
  int64_t year = iv.month / 12, mon = iv.month % 12;
  int64_t hour = iv.time / kUsecsPerHour;
  int64_t rest = iv.time - hour * kUsecsPerHour;
  int64_t min = rest / kUsecsPerMinute;
  int64_t secus = rest - min * kUsecsPerMinute;
  __int128 r;
  int scale = 0;
  if (unit == "microseconds") {
    r = secus;
  } else if (unit == "milliseconds") {
    r = secus;
    scale = 3;
  } else if (unit == "second") {
    r = secus;
    scale = 6;
  } else if (unit == "minute") {
    r = min;
  } else if (unit == "hour") {
    r = hour;
  } else if (unit == "day") {
    r = iv.day;
  } else if (unit == "month") {
    r = mon;
  } else if (unit == "quarter") {
    r = mon / 3 + 1;
  } else if (unit == "year") {
    r = year;
  } else if (unit == "decade") {
    r = year / 10;
  } else if (unit == "century") {
    r = year / 100;
  } else if (unit == "millennium") {
    r = year / 1000;
  } else if (unit == "epoch") {
    int64_t secs_from_day_months =
        (static_cast<int64_t>(365.25 * (iv.month / 12)) +
         static_cast<int64_t>(30) * (iv.month % 12) + iv.day) *
        86400;
    r = static_cast<__int128>(secs_from_day_months) * 1000000 + iv.time;
    scale = 6;
  } else {
    return UnitError(unit_raw, oid::kInterval, true, error);
  }
  return PartResult(numeric, r, scale, ctx, out, error);
}

bool TruncTm(const std::string& unit, Tm* tm, int* fsec, bool* redo_tz) {
  *redo_tz = false;
  if (unit == "week") {
    int woy = Date2IsoWeek(tm->year, tm->mon, tm->mday);
    if (woy >= 52 && tm->mon == 1) tm->year--;
    if (woy <= 1 && tm->mon == 12) tm->year++;
    types::dt::J2Date(IsoWeek2J(tm->year, woy), &tm->year, &tm->mon, &tm->mday);
    tm->hour = tm->min = tm->sec = 0;
    *fsec = 0;
    *redo_tz = true;
    return true;
  }
  int level;
  if (unit == "millennium")
    level = 9;
  else if (unit == "century")
    level = 8;
  else if (unit == "decade")
    level = 7;
  else if (unit == "year")
    level = 6;
  else if (unit == "quarter")
    level = 5;
  else if (unit == "month")
    level = 4;
  else if (unit == "day")
    level = 3;
  else if (unit == "hour")
    level = 2;
  else if (unit == "minute")
    level = 1;
  else if (unit == "second")
    level = 0;
  else if (unit == "milliseconds")
    level = -1;
  else if (unit == "microseconds")
    level = -2;
  else
    return false;
  if (level == 9)
    tm->year = tm->year > 0 ? ((tm->year + 999) / 1000) * 1000 - 999
                            : -((999 - (tm->year - 1)) / 1000) * 1000 + 1;
  if (level == 8)
    tm->year = tm->year > 0 ? ((tm->year + 99) / 100) * 100 - 99
                            : -((99 - (tm->year - 1)) / 100) * 100 + 1;
  if (level == 7)
    tm->year =
        tm->year > 0 ? (tm->year / 10) * 10 : -((8 - (tm->year - 1)) / 10) * 10;
  if (level >= 6) tm->mon = 1;
  if (level == 5) tm->mon = (3 * ((tm->mon - 1) / 3)) + 1;
  if (level >= 4) tm->mday = 1;
  if (level >= 3) {
    tm->hour = 0;
    *redo_tz = true;
  }
  if (level >= 2) tm->min = 0;
  if (level >= 1) tm->sec = 0;
  if (level >= 0) *fsec = 0;
  if (level == -1) *fsec = (*fsec / 1000) * 1000;
  return true;
}

bool Age(int64_t dt1, int64_t dt2, bool tz, const types::TypeContext& ctx,
         Value* out, PgError* error) {
  Tm tm1, tm2;
  int fsec1, fsec2;
  if (!ToTm(dt1, tz, ctx, &tm1, &fsec1, nullptr, error) ||
      !ToTm(dt2, tz, ctx, &tm2, &fsec2, nullptr, error))
    return false;
  int64_t fsec = fsec1 - fsec2;
  int64_t sec = tm1.sec - tm2.sec, min = tm1.min - tm2.min,
          hour = tm1.hour - tm2.hour, mday = tm1.mday - tm2.mday,
          mon = tm1.mon - tm2.mon, year = tm1.year - tm2.year;
  bool flip = dt1 < dt2;
  auto negate = [&] {
    fsec = -fsec;
    sec = -sec;
    min = -min;
    hour = -hour;
    mday = -mday;
    mon = -mon;
    year = -year;
  };
  if (flip) negate();
  while (fsec < 0) {
    fsec += kUsecsPerSec;
    sec--;
  }
  while (sec < 0) {
    sec += 60;
    min--;
  }
  while (min < 0) {
    min += 60;
    hour--;
  }
  while (hour < 0) {
    hour += 24;
    mday--;
  }
  while (mday < 0) {
    const Tm& ref = flip ? tm1 : tm2;
    mday += types::dt::kDayTab[types::dt::IsLeap(ref.year)][ref.mon - 1];
    mon--;
  }
  while (mon < 0) {
    mon += 12;
    year--;
  }
  if (flip) negate();
  Interval iv;
  iv.month = static_cast<int32_t>(year * 12 + mon);
  iv.day = static_cast<int32_t>(mday);
  iv.time = ((hour * 60 + min) * 60 + sec) * kUsecsPerSec + fsec;
  *out = IntervalText(iv, ctx);
  return true;
}

std::string FormatG(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

// make_timestamp_internal (without the zone).
bool MakeTimestamp(int64_t year, int64_t month, int64_t day, int64_t hour,
                   int64_t min, double sec, int64_t* out, PgError* error) {
  int y = static_cast<int>(year);
  bool bc = y < 0;
  if (bc) y = -y;
  char buf[128];
  auto date_error = [&] {
    std::snprintf(
        buf, sizeof(buf), "date field value out of range: %d-%02d-%02d",
        static_cast<int>(year), static_cast<int>(month), static_cast<int>(day));
    return Fail(error, "22008", buf);
  };
  if (y == 0 || month < 1 || month > 12 || day < 1 ||
      day > types::dt::kDayTab[types::dt::IsLeap(bc ? -(y - 1) : y)][month - 1])
    return date_error();
  if (bc) y = -(y - 1);
  if (!types::dt::IsValidJulian(y, static_cast<int>(month),
                                static_cast<int>(day))) {
    std::snprintf(buf, sizeof(buf), "date out of range: %d-%02d-%02d",
                  static_cast<int>(year), static_cast<int>(month),
                  static_cast<int>(day));
    return Fail(error, "22008", buf);
  }
  int64_t date =
      types::dt::Date2J(y, static_cast<int>(month), static_cast<int>(day)) -
      types::dt::kPostgresEpochJdate;
  if (hour < 0 || min < 0 || min > 59 || sec < 0 || sec > 60 || hour > 24 ||
      (hour == 24 && (min > 0 || sec > 0)) || std::isnan(sec)) {
    std::snprintf(
        buf, sizeof(buf), "time field value out of range: %d:%02d:%s",
        static_cast<int>(hour), static_cast<int>(min),
        (sec < 10 && sec >= 0 ? "0" + FormatG(sec) : FormatG(sec)).c_str());
    return Fail(error, "22008", buf);
  }
  int64_t time = (hour * 60 + min) * 60 * kUsecsPerSec +
                 static_cast<int64_t>(std::rint(sec * kUsecsPerSec));
  int64_t result;
  if (__builtin_mul_overflow(date, kUsecsPerDay, &result) ||
      __builtin_add_overflow(result, time, &result) ||
      !types::dt::IsValidTimestamp(result)) {
    std::snprintf(
        buf, sizeof(buf), "timestamp out of range: %d-%02d-%02d %d:%02d:%s",
        static_cast<int>(year), static_cast<int>(month), static_cast<int>(day),
        static_cast<int>(hour), static_cast<int>(min), FormatG(sec).c_str());
    return Fail(error, "22008", buf);
  }
  *out = result;
  return true;
}

bool ZoneByName(const std::string& name, const types::tz::Zone** zone,
                PgError* error) {
  *zone = types::tz::FindZone(name);
  if (!*zone)
    return Fail(error, "22023", "time zone \"" + name + "\" not recognized");
  return true;
}

}  // namespace

bool IntervalLerp(const std::string& lo, const std::string& hi, double pct,
                  const types::TypeContext& ctx, std::string* out,
                  PgError* error) {
  Interval a, b, diff, scaled, result;
  if (!ParseInterval(lo, ctx, &a, error) ||
      !ParseInterval(hi, ctx, &b, error) ||
      !AddIntervals(b, a, true, &diff, error) ||
      !IntervalMul(diff, pct, false, &scaled, error) ||
      !AddIntervals(scaled, a, false, &result, error))
    return false;
  *out = IntervalText(result, ctx);
  return true;
}

bool CompareDateTime(uint32_t lt, uint32_t rt, const std::string& l,
                     const std::string& r, const types::TypeContext& ctx,
                     int* out, PgError* error) {
  if (lt == oid::kInterval && rt == oid::kInterval) {
    Interval a, b;
    if (!ParseInterval(l, ctx, &a, error) || !ParseInterval(r, ctx, &b, error))
      return false;
    __int128 x = IntervalKey(a), y = IntervalKey(b);
    *out = x < y ? -1 : x > y;
    return true;
  }
  if (lt == oid::kTime && rt == oid::kTime) {
    int64_t a, b;
    if (!ParseTime(l, ctx, &a, error) || !ParseTime(r, ctx, &b, error))
      return false;
    *out = a < b ? -1 : a > b;
    return true;
  }
  if (lt == oid::kDate && rt == oid::kDate) {
    int32_t a, b;
    if (!ParseDate(l, ctx, &a, error) || !ParseDate(r, ctx, &b, error))
      return false;
    *out = a < b ? -1 : a > b;
    return true;
  }
  bool tz = lt == oid::kTimestamptz || rt == oid::kTimestamptz;
  int64_t a, b;
  if (!AsTimestamp(lt, l, tz, ctx, &a, error) ||
      !AsTimestamp(rt, r, tz, ctx, &b, error))
    return false;
  *out = a < b ? -1 : a > b;
  return true;
}

bool EvalDateTimeOperator(const Expr& e, const Value& l, const Value& r,
                          SessionHooks* hooks, bool* handled, Value* out,
                          PgError* error) {
  const auto& ctx = hooks->type_context();
  const std::string& op = e.name;
  *handled = true;
  if (e.args.size() == 1) {  // -interval
    Interval iv;
    if (!ParseInterval(*r, ctx, &iv, error) || !NegateInterval(&iv, error))
      return false;
    *out = IntervalText(iv, ctx);
    return true;
  }
  uint32_t lt = e.args[0]->type, rt = e.args[1]->type;
  const std::string& a = *l;
  const std::string& b = *r;
  // date +/- integer, date - date.
  if (lt == oid::kDate && rt == oid::kInt4 ||
      (lt == oid::kInt4 && rt == oid::kDate)) {
    int32_t d;
    int64_t n;
    if (!ParseDate(lt == oid::kDate ? a : b, ctx, &d, error)) return false;
    ToInt64(lt == oid::kDate ? b : a, &n);
    if (d == kDateNoBegin || d == kDateNoEnd) {
      *out = lt == oid::kDate ? a : b;
      return true;
    }
    int64_t v = op == "-" ? int64_t{d} - n : int64_t{d} + n;
    if (!types::dt::IsValidDate(v))
      return Fail(error, "22008", "date out of range");
    *out = DateText(static_cast<int32_t>(v), ctx);
    return true;
  }
  if (lt == oid::kDate && rt == oid::kDate) {
    int32_t x, y;
    if (!ParseDate(a, ctx, &x, error) || !ParseDate(b, ctx, &y, error))
      return false;
    if (x == kDateNoBegin || x == kDateNoEnd || y == kDateNoBegin ||
        y == kDateNoEnd)
      return Fail(error, "22008", "cannot subtract infinite dates");
    *out = std::to_string(int64_t{x} - y);
    return true;
  }
  // date + time.
  if ((lt == oid::kDate && rt == oid::kTime) ||
      (lt == oid::kTime && rt == oid::kDate)) {
    int32_t d;
    int64_t t, ts;
    if (!ParseDate(lt == oid::kDate ? a : b, ctx, &d, error) ||
        !ParseTime(lt == oid::kDate ? b : a, ctx, &t, error) ||
        !types::dt::DateToTimestamp(d, &ts, error))
      return false;
    if (TsFinite(ts)) {
      ts += t;
      if (!types::dt::IsValidTimestamp(ts))
        return Fail(error, "22008", "timestamp out of range");
    }
    return TsText(ts, false, ctx, out, error);
  }
  // time +/- interval, time - time.
  if (e.type == oid::kTime) {
    int64_t t;
    Interval iv;
    if (!ParseTime(lt == oid::kTime ? a : b, ctx, &t, error) ||
        !ParseInterval(lt == oid::kTime ? b : a, ctx, &iv, error))
      return false;
    int64_t span = op == "-" ? -iv.time : iv.time;
    int64_t v = (t + span % kUsecsPerDay) % kUsecsPerDay;
    if (v < 0) v += kUsecsPerDay;
    *out = TimeText(v);
    return true;
  }
  if (lt == oid::kTime && rt == oid::kTime) {
    int64_t x, y;
    if (!ParseTime(a, ctx, &x, error) || !ParseTime(b, ctx, &y, error))
      return false;
    Interval iv;
    iv.time = x - y;
    *out = IntervalText(iv, ctx);
    return true;
  }
  // interval +/- interval, * and / by a number.
  if (lt == oid::kInterval && rt == oid::kInterval) {
    Interval x, y, res;
    if (!ParseInterval(a, ctx, &x, error) ||
        !ParseInterval(b, ctx, &y, error) ||
        !AddIntervals(x, y, op == "-", &res, error))
      return false;
    *out = IntervalText(res, ctx);
    return true;
  }
  if (op == "*" || op == "/") {
    Interval x, res;
    bool left_iv = lt == oid::kInterval;
    if (!ParseInterval(left_iv ? a : b, ctx, &x, error)) return false;
    double f = ToDouble(left_iv ? b : a);
    if (!IntervalMul(x, f, op == "/", &res, error)) return false;
    *out = IntervalText(res, ctx);
    return true;
  }
  // timestamp(tz) - timestamp(tz).
  if ((lt == oid::kTimestamp || lt == oid::kTimestamptz) && lt == rt &&
      op == "-") {
    bool tz = lt == oid::kTimestamptz;
    int64_t x, y;
    if (!ParseTs(a, tz, ctx, &x, error) || !ParseTs(b, tz, ctx, &y, error))
      return false;
    if (!TsFinite(x) || !TsFinite(y))
      return Fail(error, "22008", "cannot subtract infinite timestamps");
    Interval iv;
    if (__builtin_sub_overflow(x, y, &iv.time))
      return Fail(error, "22008", "interval out of range");
    JustifyHours(&iv);
    *out = IntervalText(iv, ctx);
    return true;
  }
  // date/timestamp(tz) +/- interval.
  if (rt == oid::kInterval || lt == oid::kInterval) {
    bool left_iv = lt == oid::kInterval;
    uint32_t tt = left_iv ? rt : lt;
    const std::string& tv = left_iv ? b : a;
    bool tz = e.type == oid::kTimestamptz;
    int64_t ts;
    Interval iv;
    if (!AsTimestamp(tt, tv, tz, ctx, &ts, error) ||
        !ParseInterval(left_iv ? a : b, ctx, &iv, error))
      return false;
    if (op == "-" && !NegateInterval(&iv, error)) return false;
    if (!AddInterval(ts, iv, tz, ctx, &ts, error)) return false;
    return TsText(ts, tz, ctx, out, error);
  }
  *handled = false;
  return true;
}

bool EvalDateTimeFunction(const Expr& e, const std::vector<Value>& args,
                          SessionHooks* hooks, bool* handled, Value* out,
                          PgError* error) {
  const auto& ctx = hooks->type_context();
  const std::string& n = e.name;
  *handled = true;
  static const char* const kNames[] = {
      "date_part",     "extract",      "date_trunc",     "age",
      "make_date",     "make_time",    "make_timestamp", "make_timestamptz",
      "make_interval", "justify_days", "justify_hours",  "justify_interval",
      "isfinite",      "to_timestamp", "timezone",       "timeofday"};
  bool known = false;
  for (const char* k : kNames)
    if (n == k) known = true;
  if (!known) {
    *handled = false;
    return true;
  }
  if (n == "timeofday") {
    int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    int64_t ts = micros - static_cast<int64_t>(types::dt::kPostgresEpochJdate -
                                               types::dt::kUnixEpochJdate) *
                              kUsecsPerDay;
    Tm tm;
    int fsec, tzoff;
    if (!ToTm(ts, true, ctx, &tm, &fsec, &tzoff, error)) return false;
    static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed",
                                        "Thu", "Fri", "Sat"};
    static const char* const kMons[] = {"Jan", "Feb", "Mar", "Apr",
                                        "May", "Jun", "Jul", "Aug",
                                        "Sep", "Oct", "Nov", "Dec"};
    char buf[128];
    std::snprintf(
        buf, sizeof(buf), "%s %s %02d %02d:%02d:%02d.%06d %d %s",
        kDays[types::dt::J2Day(types::dt::Date2J(tm.year, tm.mon, tm.mday))],
        kMons[tm.mon - 1], tm.mday, tm.hour, tm.min, tm.sec, fsec, tm.year,
        tm.zone ? tm.zone : "UTC");
    *out = buf;
    return true;
  }
  for (const Value& v : args)
    if (!v) return true;  // strict
  if (n == "date_part" || n == "extract") {
    bool numeric = n == "extract";
    uint32_t t = e.args[1]->type;
    if (t == oid::kTime)
      return ExtractTime(*args[0], *args[1], numeric, ctx, out, error);
    if (t == oid::kInterval)
      return ExtractInterval(*args[0], *args[1], numeric, ctx, out, error);
    if (t == oid::kDate && !numeric) {
      // date_part(text, date) is date_part(text, date::timestamp).
      int32_t d;
      int64_t ts;
      if (!ParseDate(*args[1], ctx, &d, error) ||
          !types::dt::DateToTimestamp(d, &ts, error))
        return false;
      Value tsv;
      if (!TsText(ts, false, ctx, &tsv, error)) return false;
      return ExtractTimestamp(*args[0], oid::kTimestamp, *tsv, false, ctx, out,
                              error);
    }
    return ExtractTimestamp(*args[0], t, *args[1], numeric, ctx, out, error);
  }
  if (n == "date_trunc") {
    uint32_t t = e.args[1]->type;
    std::string unit = Unit(*args[0]);
    if (t == oid::kInterval) {
      Interval iv;
      if (!ParseInterval(*args[1], ctx, &iv, error)) return false;
      if (unit.empty()) return UnitError(*args[0], t, false, error);
      if (unit == "week") {
        *error = Err("0A000", "unit \"" + Lower(*args[0]) +
                                  "\" not supported for type interval");
        error->detail = "Months usually have fractional weeks.";
        return false;
      }
      Tm tm;
      tm.year = iv.month / 12;
      tm.mon = iv.month % 12;
      tm.mday = iv.day;
      int64_t time = iv.time;
      int64_t hour = time / kUsecsPerHour;
      time -= hour * kUsecsPerHour;
      tm.min = static_cast<int>(time / kUsecsPerMinute);
      time -= int64_t{tm.min} * kUsecsPerMinute;
      tm.sec = static_cast<int>(time / kUsecsPerSec);
      int fsec = static_cast<int>(time - int64_t{tm.sec} * kUsecsPerSec);
      int level = unit == "millennium"     ? 9
                  : unit == "century"      ? 8
                  : unit == "decade"       ? 7
                  : unit == "year"         ? 6
                  : unit == "quarter"      ? 5
                  : unit == "month"        ? 4
                  : unit == "day"          ? 3
                  : unit == "hour"         ? 2
                  : unit == "minute"       ? 1
                  : unit == "second"       ? 0
                  : unit == "milliseconds" ? -1
                  : unit == "microseconds" ? -2
                                           : -3;
      if (level == -3) return UnitError(*args[0], t, true, error);
      if (level == 9) tm.year = (tm.year / 1000) * 1000;
      if (level == 8) tm.year = (tm.year / 100) * 100;
      if (level == 7) tm.year = (tm.year / 10) * 10;
      if (level >= 6) tm.mon = 0;
      if (level == 5) tm.mon = 3 * (tm.mon / 3);
      if (level >= 4) tm.mday = 0;
      if (level >= 3) hour = 0;
      if (level >= 2) tm.min = 0;
      if (level >= 1) tm.sec = 0;
      if (level >= 0) fsec = 0;
      if (level == -1) fsec = (fsec / 1000) * 1000;
      Interval r;
      r.month = tm.year * 12 + tm.mon;
      r.day = tm.mday;
      r.time = ((hour * 60 + tm.min) * 60 + tm.sec) * kUsecsPerSec + fsec;
      *out = IntervalText(r, ctx);
      return true;
    }
    bool tz = t == oid::kTimestamptz;
    int64_t ts;
    if (!ParseTs(*args[1], tz, ctx, &ts, error)) return false;
    if (unit.empty()) return UnitError(*args[0], t, false, error);
    if (!TsFinite(ts)) {
      *out = *args[1];
      return true;
    }
    types::TypeContext zone_ctx = ctx;
    if (args.size() > 2) {
      const types::tz::Zone* z;
      if (!ZoneByName(*args[2], &z, error)) return false;
      zone_ctx.timezone = *args[2];
    }
    Tm tm;
    int fsec, tzoff = 0;
    if (!ToTm(ts, tz, zone_ctx, &tm, &fsec, &tzoff, error)) return false;
    bool redo;
    if (!TruncTm(unit, &tm, &fsec, &redo))
      return UnitError(*args[0], t, true, error);
    int64_t r;
    if (tz) {
      if (redo)
        tzoff = types::dt::DetermineTimeZoneOffset(
            &tm, types::dt::ZoneOf(zone_ctx), nullptr);
      if (types::dt::Tm2Timestamp(tm, fsec, &tzoff, &r) != 0)
        return Fail(error, "22008", "timestamp out of range");
    } else if (types::dt::Tm2Timestamp(tm, fsec, nullptr, &r) != 0) {
      return Fail(error, "22008", "timestamp out of range");
    }
    return TsText(r, tz, ctx, out, error);
  }
  if (n == "age") {
    bool tz = e.args[0]->type == oid::kTimestamptz;
    int64_t x, y;
    if (args.size() == 1) {
      // age(x) = age(current_date, x)
      int64_t now = hooks->TransactionStartMicros() -
                    static_cast<int64_t>(types::dt::kPostgresEpochJdate -
                                         types::dt::kUnixEpochJdate) *
                        kUsecsPerDay;
      int32_t today;
      if (!types::dt::TimestamptzToDate(now, ctx, &today, error)) return false;
      if (!(tz ? types::dt::DateToTimestamptz(today, ctx, &x, error)
               : types::dt::DateToTimestamp(today, &x, error)))
        return false;
      if (!ParseTs(*args[0], tz, ctx, &y, error)) return false;
    } else if (!ParseTs(*args[0], tz, ctx, &x, error) ||
               !ParseTs(*args[1], tz, ctx, &y, error)) {
      return false;
    }
    if (!TsFinite(x) || !TsFinite(y))
      return Fail(error, "22008", "cannot calculate age of infinite timestamp");
    return Age(x, y, tz, ctx, out, error);
  }
  if (n == "make_date") {
    int64_t y, m, d, ts;
    ToInt64(*args[0], &y);
    ToInt64(*args[1], &m);
    ToInt64(*args[2], &d);
    if (!MakeTimestamp(y, m, d, 0, 0, 0, &ts, error)) {
      if (error->message.rfind("timestamp out of range", 0) == 0) {
        char buf[96];
        std::snprintf(buf, sizeof(buf), "date out of range: %d-%02d-%02d",
                      static_cast<int>(y), static_cast<int>(m),
                      static_cast<int>(d));
        error->message = buf;
      }
      return false;
    }
    int32_t date;
    if (!types::dt::TimestampToDate(ts, &date, error)) return false;
    *out = DateText(date, ctx);
    return true;
  }
  if (n == "make_time") {
    int64_t h, m;
    ToInt64(*args[0], &h);
    ToInt64(*args[1], &m);
    double sec = ToDouble(*args[2]);
    if (h < 0 || m < 0 || m > 59 || sec < 0 || sec > 60 || h > 24 ||
        (h == 24 && (m > 0 || sec > 0)) || std::isnan(sec)) {
      char buf[128];
      std::snprintf(
          buf, sizeof(buf), "time field value out of range: %d:%02d:%s",
          static_cast<int>(h), static_cast<int>(m),
          (sec < 10 && sec >= 0 ? "0" + FormatG(sec) : FormatG(sec)).c_str());
      return Fail(error, "22008", buf);
    }
    int64_t t = (h * 60 + m) * 60 * kUsecsPerSec +
                static_cast<int64_t>(std::rint(sec * kUsecsPerSec));
    *out = TimeText(t);
    return true;
  }
  if (n == "make_timestamp" || n == "make_timestamptz") {
    int64_t v[5];
    for (int i = 0; i < 5; i++) ToInt64(*args[i], &v[i]);
    int64_t ts;
    if (!MakeTimestamp(v[0], v[1], v[2], v[3], v[4], ToDouble(*args[5]), &ts,
                       error))
      return false;
    if (n == "make_timestamp") return TsText(ts, false, ctx, out, error);
    types::TypeContext zone_ctx = ctx;
    if (args.size() > 6) {
      const types::tz::Zone* z;
      if (!ZoneByName(*args[6], &z, error)) return false;
      zone_ctx.timezone = *args[6];
    }
    if (!types::dt::TimestampToTimestamptz(ts, zone_ctx, &ts, error))
      return false;
    return TsText(ts, true, ctx, out, error);
  }
  if (n == "make_interval") {
    int64_t v[6] = {0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < args.size() && i < 6; i++) ToInt64(*args[i], &v[i]);
    double secs = args.size() > 6 ? ToDouble(*args[6]) : 0;
    if (std::isnan(secs) || std::isinf(secs))
      return Fail(error, "22008", "interval out of range");
    Interval iv;
    int64_t month = v[0] * 12 + v[1], day = v[2] * 7 + v[3];
    double time = (static_cast<double>(v[4]) * 3600 + v[5] * 60.0) * 1e6 +
                  std::rint(secs * 1e6);
    if (month > INT32_MAX || month < INT32_MIN || day > INT32_MAX ||
        day < INT32_MIN || std::fabs(time) >= 9.2233720368547758e18)
      return Fail(error, "22008", "interval out of range");
    iv.month = static_cast<int32_t>(month);
    iv.day = static_cast<int32_t>(day);
    iv.time = (v[4] * 3600 + v[5] * 60) * kUsecsPerSec +
              static_cast<int64_t>(std::rint(secs * 1e6));
    *out = IntervalText(iv, ctx);
    return true;
  }
  if (n == "justify_days" || n == "justify_hours" || n == "justify_interval") {
    Interval iv;
    if (!ParseInterval(*args[0], ctx, &iv, error)) return false;
    if (n == "justify_days")
      JustifyDays(&iv);
    else if (n == "justify_hours")
      JustifyHours(&iv);
    else
      JustifyInterval(&iv);
    *out = IntervalText(iv, ctx);
    return true;
  }
  if (n == "isfinite") {
    uint32_t t = e.args[0]->type;
    bool finite = true;
    if (t == oid::kDate) {
      int32_t d;
      if (!ParseDate(*args[0], ctx, &d, error)) return false;
      finite = d != kDateNoBegin && d != kDateNoEnd;
    } else if (t != oid::kInterval) {
      int64_t ts;
      if (!ParseTs(*args[0], t == oid::kTimestamptz, ctx, &ts, error))
        return false;
      finite = TsFinite(ts);
    }
    *out = finite ? "t" : "f";
    return true;
  }
  if (n == "to_timestamp" && args.size() == 1) {
    double secs = ToDouble(*args[0]);
    if (std::isnan(secs))
      return Fail(error, "22008", "timestamp cannot be NaN");
    if (std::isinf(secs)) {
      *out = secs > 0 ? "infinity" : "-infinity";
      return true;
    }
    double epoch_off = static_cast<double>(types::dt::kPostgresEpochJdate -
                                           types::dt::kUnixEpochJdate) *
                       86400.0;
    double v = (secs - epoch_off) * 1e6;
    if (secs < -210866803200.0 || secs >= 9224318016000.0) {
      return Fail(error, "22008",
                  "timestamp out of range: \"" + FormatG(secs) + "\"");
    }
    return TsText(static_cast<int64_t>(std::rint(v)), true, ctx, out, error);
  }
  if (n == "timezone") {
    // ts AT TIME ZONE zone.
    types::TypeContext zone_ctx = ctx;
    const types::tz::Zone* z;
    std::string zone = *args[0];
    Interval iv;
    PgError ignored;
    if (e.args[0]->type == oid::kInterval) {
      if (!ParseInterval(zone, ctx, &iv, error)) return false;
      zone_ctx.timezone = "<+00>" + std::to_string(-iv.time / kUsecsPerSec);
    } else {
      if (!ZoneByName(zone, &z, error)) return false;
      zone_ctx.timezone = zone;
    }
    if (e.args[1]->type == oid::kTimestamp) {
      int64_t ts;
      if (!ParseTs(*args[1], false, ctx, &ts, error) ||
          !types::dt::TimestampToTimestamptz(ts, zone_ctx, &ts, error))
        return false;
      return TsText(ts, true, ctx, out, error);
    }
    int64_t ts;
    if (!ParseTs(*args[1], true, ctx, &ts, error) ||
        !types::dt::TimestamptzToTimestamp(ts, zone_ctx, &ts, error))
      return false;
    return TsText(ts, false, ctx, out, error);
  }
  *handled = false;
  return true;
}

bool TimestampSeries(bool tz, int64_t start, int64_t stop,
                     const std::string& step_text,
                     const types::TypeContext& step_context,
                     const types::TypeContext& ctx, std::vector<int64_t>* out,
                     PgError* error) {
  Interval step;
  if (!ParseInterval(step_text, step_context, &step, error)) return false;
  __int128 sign = IntervalKey(step);
  if (sign == 0) return Fail(error, "22023", "step size cannot equal zero");
  // Each row computes the next value first, as generate_series_timestamp
  // does (its overflow fails the call).
  int64_t current = start;
  while (sign > 0 ? current <= stop : current >= stop) {
    if (out->size() >= kMaxSeriesRows)
      return Fail(error, "54000",
                  "generate_series would return more than " +
                      std::to_string(kMaxSeriesRows) + " rows");
    out->push_back(current);
    if (!AddInterval(current, step, tz, ctx, &current, error)) return false;
  }
  return true;
}

}  // namespace kova::planner::expr_detail
