#include "planner/types_datetime.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "planner/types_tz.h"
#include "planner/types_util.h"

namespace kova::planner::types::dt {

// True when key is in the core date token table (not a zone abbreviation).
bool IsCoreDateToken(const char* key);

namespace {

using util::Fail;
using util::IsAlnum;
using util::IsAlpha;
using util::IsDigit;
using util::IsPunct;
using util::IsSpace;
using util::ToLower;

// --- Constants mirroring PostgreSQL's datetime.h / timestamp.h ---

constexpr int64_t kSecsPerDay = 86400;
constexpr int64_t kUsecsPerHour = 3600 * kUsecsPerSec;
constexpr int64_t kUsecsPerMinute = 60 * kUsecsPerSec;
constexpr int kMonthsPerYear = 12;
constexpr int kDaysPerMonth = 30;
constexpr int kMaxTzDispHour = 15;
constexpr int kJulianMinYear = -4713;
constexpr int kJulianMinMonth = 11;
constexpr int kJulianMaxYear = 5874898;
constexpr int kJulianMaxMonth = 6;
constexpr int kDateEndJulian = 2147483494;
constexpr int kTimestampEndJulian = 109203528;
constexpr int64_t kMinTimestamp = -211813488000000000LL;
constexpr int64_t kEndTimestamp = 9223371331200000000LL;
constexpr int kMaxDateFields = 25;
constexpr int kMaxDateLen = 128;
constexpr int kTokMaxLen = 10;

// Field types (bit numbers in the field masks).
enum {
  RESERV = 0,
  MONTH = 1,
  YEAR = 2,
  DAY = 3,
  JULIAN = 4,
  TZ = 5,
  DTZ = 6,
  DYNTZ = 7,
  IGNORE_DTF = 8,
  AMPM = 9,
  HOUR = 10,
  MINUTE = 11,
  SECOND = 12,
  MILLISECOND = 13,
  MICROSECOND = 14,
  DOY = 15,
  DOW = 16,
  UNITS = 17,
  ADBC = 18,
  AGO = 19,
  ISOTIME = 23,
  WEEK = 24,
  DECADE = 25,
  CENTURY = 26,
  MILLENNIUM = 27,
  DTZMOD = 28,
  UNKNOWN_FIELD = 31,
};

constexpr int Mask(int t) { return 1 << t; }
constexpr int kDateMask = Mask(YEAR) | Mask(MONTH) | Mask(DAY);
constexpr int kTimeMask = Mask(HOUR) | Mask(MINUTE) | Mask(SECOND) |
                          Mask(MILLISECOND) | Mask(MICROSECOND);
constexpr int kAllSecsMask =
    Mask(SECOND) | Mask(MILLISECOND) | Mask(MICROSECOND);

// Token (field) types and token values.
enum {
  DTK_NUMBER = 0,
  DTK_STRING = 1,
  DTK_DATE = 2,
  DTK_TIME = 3,
  DTK_TZ = 4,
  DTK_SPECIAL = 6,
  DTK_EARLY = 9,
  DTK_LATE = 10,
  DTK_EPOCH = 11,
  DTK_NOW = 12,
  DTK_YESTERDAY = 13,
  DTK_TODAY = 14,
  DTK_TOMORROW = 15,
  DTK_ZULU = 16,
  DTK_DELTA = 17,
  DTK_SECOND = 18,
  DTK_MINUTE = 19,
  DTK_HOUR = 20,
  DTK_DAY = 21,
  DTK_WEEK = 22,
  DTK_MONTH = 23,
  DTK_QUARTER = 24,
  DTK_YEAR = 25,
  DTK_DECADE = 26,
  DTK_CENTURY = 27,
  DTK_MILLENNIUM = 28,
  DTK_MILLISEC = 29,
  DTK_MICROSEC = 30,
  DTK_JULIAN = 31,
  DTK_DOW = 32,
  DTK_DOY = 33,
  DTK_TZ_HOUR = 34,
  DTK_TZ_MINUTE = 35,
  DTK_ISOYEAR = 36,
  DTK_ISODOW = 37,
};

enum { AM = 0, PM = 1, HR24 = 2 };
enum { AD = 0, BC = 1 };

// Error codes of the decoders.
enum {
  DTERR_BAD_FORMAT = -1,
  DTERR_FIELD_OVERFLOW = -2,
  DTERR_MD_FIELD_OVERFLOW = -3,
  DTERR_INTERVAL_OVERFLOW = -4,
  DTERR_TZDISP_OVERFLOW = -5,
  DTERR_BAD_TIMEZONE = -6,
  DTERR_UNSUPPORTED = -7,
};

enum DateStyle { kStylePostgres, kStyleIso, kStyleSql, kStyleGerman };
enum DateOrder { kOrderYmd, kOrderDmy, kOrderMdy };
enum IntervalStyle {
  kIntPostgres,
  kIntPostgresVerbose,
  kIntSqlStandard,
  kIntIso8601
};

struct Styles {
  DateStyle style = kStyleIso;
  DateOrder order = kOrderMdy;
  IntervalStyle interval = kIntPostgres;
};

Styles ParseStyles(const TypeContext& context) {
  Styles s;
  bool have_order = false;
  const std::string& ds = context.datestyle;
  size_t i = 0;
  while (i < ds.size()) {
    while (i < ds.size() && !IsAlnum(ds[i])) ++i;
    size_t j = i;
    while (j < ds.size() && IsAlnum(ds[j])) ++j;
    std::string tok;
    for (size_t k = i; k < j; ++k) tok.push_back(util::ToUpper(ds[k]));
    i = j;
    if (tok.empty()) continue;
    if (tok == "ISO") {
      s.style = kStyleIso;
    } else if (tok == "SQL") {
      s.style = kStyleSql;
    } else if (tok.compare(0, 8, "POSTGRES") == 0) {
      s.style = kStylePostgres;
    } else if (tok == "GERMAN") {
      s.style = kStyleGerman;
      if (!have_order) s.order = kOrderDmy;
    } else if (tok == "YMD") {
      s.order = kOrderYmd;
      have_order = true;
    } else if (tok == "DMY" || tok.compare(0, 4, "EURO") == 0) {
      s.order = kOrderDmy;
      have_order = true;
    } else if (tok == "MDY" || tok == "US" ||
               tok.compare(0, 7, "NONEURO") == 0) {
      s.order = kOrderMdy;
      have_order = true;
    }
  }
  std::string is;
  for (char c : context.intervalstyle) is.push_back(ToLower(c));
  if (is == "postgres_verbose") {
    s.interval = kIntPostgresVerbose;
  } else if (is == "sql_standard") {
    s.interval = kIntSqlStandard;
  } else if (is == "iso_8601") {
    s.interval = kIntIso8601;
  }
  return s;
}

// The styles of the last context seen on this thread (settings rarely
// change, values are converted by the million).
Styles GetStyles(const TypeContext& context) {
  thread_local std::string last_datestyle = "ISO, MDY";
  thread_local std::string last_intervalstyle = "postgres";
  thread_local Styles last;
  if (context.datestyle != last_datestyle ||
      context.intervalstyle != last_intervalstyle) {
    last = ParseStyles(context);
    last_datestyle = context.datestyle;
    last_intervalstyle = context.intervalstyle;
  }
  return last;
}

}  // namespace

// --- Calendar helpers ---

// PostgreSQL is built with -fwrapv; Wrap() reproduces its int overflow.
inline int Wrap(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

int Date2J(int year, int month, int day) {
  if (month > 2) {
    month += 1;
    year = Wrap(int64_t{year} + 4800);
  } else {
    month += 13;
    year = Wrap(int64_t{year} + 4799);
  }
  int century = year / 100;
  int julian = Wrap(int64_t{year} * 365 - 32167);
  julian = Wrap(int64_t{julian} + year / 4 - century + century / 4);
  julian = Wrap(int64_t{julian} + Wrap(int64_t{7834} * month) / 256 + day);
  return julian;
}

void J2Date(int jd, int* year, int* month, int* day) {
  unsigned int julian = jd;
  unsigned int quad;
  unsigned int extra;
  int y;
  julian += 32044;
  quad = julian / 146097;
  extra = (julian - quad * 146097) * 4 + 3;
  julian += 60 + quad * 3 + extra / 146097;
  quad = julian / 1461;
  julian -= quad * 1461;
  y = julian * 4 / 1461;
  julian = ((y != 0) ? ((julian + 305) % 365) : ((julian + 306) % 366)) + 123;
  y += quad * 4;
  *year = y - 4800;
  quad = julian * 2141 / 65536;
  *day = julian - 7834 * quad / 256;
  *month = (quad + 10) % kMonthsPerYear + 1;
}

int J2Day(int date) {
  date += 1;
  date %= 7;
  if (date < 0) date += 7;
  return date;
}

bool IsLeap(int y) {
  return ((y % 4) == 0) && (((y % 100) != 0) || ((y % 400) == 0));
}

const int kDayTab[2][13] = {
    {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0},
    {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0}};

const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
const char* const kDays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                             "Thursday", "Friday", "Saturday"};

bool IsValidJulian(int y, int m, int d) {
  (void)d;
  return (y > kJulianMinYear ||
          (y == kJulianMinYear && m >= kJulianMinMonth)) &&
         (y < kJulianMaxYear || (y == kJulianMaxYear && m < kJulianMaxMonth));
}

bool IsValidDate(int64_t d) {
  return d >= -kPostgresEpochJdate &&
         d < static_cast<int64_t>(kDateEndJulian) - kPostgresEpochJdate;
}

bool IsValidTimestamp(int64_t t) {
  return t >= kMinTimestamp && t < kEndTimestamp;
}

// --- Time zone helpers ---

// DetermineTimeZoneOffsetInternal: returns the offset in PostgreSQL's
// convention (seconds WEST of UTC) for local time *tm in zone.
int DetermineTimeZoneOffset(Tm* tm, const tz::Zone* zone, int64_t* tp) {
  int64_t mytime, prevtime, boundary, beforetime, aftertime;
  int64_t before_gmtoff, after_gmtoff;
  int before_isdst, after_isdst;
  if (!IsValidJulian(tm->year, tm->mon, tm->mday)) goto overflow;
  {
    int64_t date = Date2J(tm->year, tm->mon, tm->mday) -
                   static_cast<int64_t>(kUnixEpochJdate);
    int64_t day = date * kSecsPerDay;
    int64_t sec =
        tm->sec + (tm->min + static_cast<int64_t>(tm->hour) * 60) * 60;
    mytime = day + sec;
  }
  prevtime = mytime - kSecsPerDay;
  {
    int res = zone->NextBoundary(prevtime, &before_gmtoff, &before_isdst,
                                 &boundary, &after_gmtoff, &after_isdst);
    if (res == 0) {
      tm->isdst = before_isdst;
      if (tp) *tp = mytime - before_gmtoff;
      return -static_cast<int>(before_gmtoff);
    }
  }
  beforetime = mytime - before_gmtoff;
  aftertime = mytime - after_gmtoff;
  if (beforetime < boundary && aftertime < boundary) {
    tm->isdst = before_isdst;
    if (tp) *tp = beforetime;
    return -static_cast<int>(before_gmtoff);
  }
  if (beforetime > boundary && aftertime >= boundary) {
    tm->isdst = after_isdst;
    if (tp) *tp = aftertime;
    return -static_cast<int>(after_gmtoff);
  }
  if (beforetime > aftertime) {
    tm->isdst = before_isdst;
    if (tp) *tp = beforetime;
    return -static_cast<int>(before_gmtoff);
  }
  tm->isdst = after_isdst;
  if (tp) *tp = aftertime;
  return -static_cast<int>(after_gmtoff);
overflow:
  tm->isdst = 0;
  if (tp) *tp = 0;
  return 0;
}

namespace {

int DetermineTimeZoneAbbrevOffset(Tm* tm, const char* abbr,
                                  const tz::Zone* zone) {
  int64_t t;
  int zone_offset = DetermineTimeZoneOffset(tm, zone, &t);
  std::string upper;
  for (const char* p = abbr; *p; ++p) upper.push_back(util::ToUpper(*p));
  int64_t gmtoff;
  int isdst;
  if (zone->InterpretAbbrev(upper, t, &gmtoff, &isdst)) {
    tm->isdst = isdst;
    return -static_cast<int>(gmtoff);
  }
  return zone_offset;
}

// --- Tokenizer ---

struct Fields {
  static constexpr int kBufLen = kMaxDateLen + kMaxDateFields;
  char buf[kBufLen];
  char* field[kMaxDateFields];
  int ftype[kMaxDateFields];
  int nf = 0;
};

int ParseDateTime(std::string_view str, Fields* f) {
  const size_t n = str.size();
  size_t cp = 0;
  auto at = [&](size_t i) -> char { return i < n ? str[i] : '\0'; };
  char* bufp = f->buf;
  const char* bufend = f->buf + Fields::kBufLen;
  int nf = 0;
#define KOVA_APPEND(c)                               \
  do {                                               \
    if (bufp + 1 >= bufend) return DTERR_BAD_FORMAT; \
    *bufp++ = (c);                                   \
  } while (0)
  while (cp < n) {
    if (IsSpace(str[cp])) {
      ++cp;
      continue;
    }
    if (nf >= kMaxDateFields) return DTERR_BAD_FORMAT;
    f->field[nf] = bufp;
    char c = str[cp];
    if (IsDigit(c)) {
      KOVA_APPEND(str[cp++]);
      while (IsDigit(at(cp))) KOVA_APPEND(str[cp++]);
      if (at(cp) == ':') {
        f->ftype[nf] = DTK_TIME;
        KOVA_APPEND(str[cp++]);
        while (IsDigit(at(cp)) || at(cp) == ':' || at(cp) == '.') {
          KOVA_APPEND(str[cp++]);
        }
      } else if (at(cp) == '-' || at(cp) == '/' || at(cp) == '.') {
        char delim = str[cp];
        KOVA_APPEND(str[cp++]);
        if (IsDigit(at(cp))) {
          f->ftype[nf] = (delim == '.') ? DTK_NUMBER : DTK_DATE;
          while (IsDigit(at(cp))) KOVA_APPEND(str[cp++]);
          if (at(cp) == delim) {
            f->ftype[nf] = DTK_DATE;
            KOVA_APPEND(str[cp++]);
            while (IsDigit(at(cp)) || at(cp) == delim) KOVA_APPEND(str[cp++]);
          }
        } else {
          f->ftype[nf] = DTK_DATE;
          while (IsAlnum(at(cp)) || at(cp) == delim) {
            KOVA_APPEND(ToLower(str[cp++]));
          }
        }
      } else {
        f->ftype[nf] = DTK_NUMBER;
      }
    } else if (c == '.') {
      KOVA_APPEND(str[cp++]);
      while (IsDigit(at(cp))) KOVA_APPEND(str[cp++]);
      f->ftype[nf] = DTK_NUMBER;
    } else if (IsAlpha(c)) {
      f->ftype[nf] = DTK_STRING;
      KOVA_APPEND(ToLower(str[cp++]));
      while (IsAlpha(at(cp))) KOVA_APPEND(ToLower(str[cp++]));
      bool is_date = false;
      char nc = at(cp);
      if (nc == '-' || nc == '/' || nc == '.') {
        is_date = true;
      } else if (nc == '+' || IsDigit(nc)) {
        *bufp = '\0';
        if (!IsCoreDateToken(f->field[nf])) is_date = true;
      }
      if (is_date) {
        f->ftype[nf] = DTK_DATE;
        do {
          KOVA_APPEND(ToLower(str[cp++]));
        } while (at(cp) == '+' || at(cp) == '-' || at(cp) == '/' ||
                 at(cp) == '_' || at(cp) == '.' || at(cp) == ':' ||
                 IsAlnum(at(cp)));
      }
    } else if (c == '+' || c == '-') {
      KOVA_APPEND(str[cp++]);
      while (IsSpace(at(cp))) ++cp;
      if (IsDigit(at(cp))) {
        f->ftype[nf] = DTK_TZ;
        KOVA_APPEND(str[cp++]);
        while (IsDigit(at(cp)) || at(cp) == ':' || at(cp) == '.' ||
               at(cp) == '-') {
          KOVA_APPEND(str[cp++]);
        }
      } else if (IsAlpha(at(cp))) {
        f->ftype[nf] = DTK_SPECIAL;
        KOVA_APPEND(ToLower(str[cp++]));
        while (IsAlpha(at(cp))) KOVA_APPEND(ToLower(str[cp++]));
      } else {
        return DTERR_BAD_FORMAT;
      }
    } else if (IsPunct(c)) {
      ++cp;
      continue;
    } else {
      return DTERR_BAD_FORMAT;
    }
    *bufp++ = '\0';
    ++nf;
  }
#undef KOVA_APPEND
  f->nf = nf;
  return 0;
}

}  // namespace

// --- Keyword tables ---

namespace {

struct DateToken {
  const char* token;
  int type;
  int value;
};

const DateToken kDateTokens[] = {
    {"-infinity", RESERV, DTK_EARLY},
    {"ad", ADBC, AD},
    {"allballs", RESERV, DTK_ZULU},
    {"am", AMPM, AM},
    {"apr", MONTH, 4},
    {"april", MONTH, 4},
    {"at", IGNORE_DTF, 0},
    {"aug", MONTH, 8},
    {"august", MONTH, 8},
    {"bc", ADBC, BC},
    {"d", UNITS, DTK_DAY},
    {"dec", MONTH, 12},
    {"december", MONTH, 12},
    {"dow", UNITS, DTK_DOW},
    {"doy", UNITS, DTK_DOY},
    {"dst", DTZMOD, 3600},
    {"epoch", RESERV, DTK_EPOCH},
    {"feb", MONTH, 2},
    {"february", MONTH, 2},
    {"fri", DOW, 5},
    {"friday", DOW, 5},
    {"h", UNITS, DTK_HOUR},
    {"infinity", RESERV, DTK_LATE},
    {"isodow", UNITS, DTK_ISODOW},
    {"isoyear", UNITS, DTK_ISOYEAR},
    {"j", UNITS, DTK_JULIAN},
    {"jan", MONTH, 1},
    {"january", MONTH, 1},
    {"jd", UNITS, DTK_JULIAN},
    {"jul", MONTH, 7},
    {"julian", UNITS, DTK_JULIAN},
    {"july", MONTH, 7},
    {"jun", MONTH, 6},
    {"june", MONTH, 6},
    {"m", UNITS, DTK_MONTH},
    {"mar", MONTH, 3},
    {"march", MONTH, 3},
    {"may", MONTH, 5},
    {"mm", UNITS, DTK_MINUTE},
    {"mon", DOW, 1},
    {"monday", DOW, 1},
    {"nov", MONTH, 11},
    {"november", MONTH, 11},
    {"now", RESERV, DTK_NOW},
    {"oct", MONTH, 10},
    {"october", MONTH, 10},
    {"on", IGNORE_DTF, 0},
    {"pm", AMPM, PM},
    {"s", UNITS, DTK_SECOND},
    {"sat", DOW, 6},
    {"saturday", DOW, 6},
    {"sep", MONTH, 9},
    {"sept", MONTH, 9},
    {"september", MONTH, 9},
    {"sun", DOW, 0},
    {"sunday", DOW, 0},
    {"t", ISOTIME, DTK_TIME},
    {"thu", DOW, 4},
    {"thur", DOW, 4},
    {"thurs", DOW, 4},
    {"thursday", DOW, 4},
    {"today", RESERV, DTK_TODAY},
    {"tomorrow", RESERV, DTK_TOMORROW},
    {"tue", DOW, 2},
    {"tues", DOW, 2},
    {"tuesday", DOW, 2},
    {"wed", DOW, 3},
    {"wednesday", DOW, 3},
    {"weds", DOW, 3},
    {"y", UNITS, DTK_YEAR},
    {"yesterday", RESERV, DTK_YESTERDAY},
};

const DateToken kDeltaTokens[] = {
    {"@", IGNORE_DTF, 0},
    {"ago", AGO, 0},
    {"c", UNITS, DTK_CENTURY},
    {"cent", UNITS, DTK_CENTURY},
    {"centuries", UNITS, DTK_CENTURY},
    {"century", UNITS, DTK_CENTURY},
    {"d", UNITS, DTK_DAY},
    {"day", UNITS, DTK_DAY},
    {"days", UNITS, DTK_DAY},
    {"dec", UNITS, DTK_DECADE},
    {"decade", UNITS, DTK_DECADE},
    {"decades", UNITS, DTK_DECADE},
    {"decs", UNITS, DTK_DECADE},
    {"h", UNITS, DTK_HOUR},
    {"hour", UNITS, DTK_HOUR},
    {"hours", UNITS, DTK_HOUR},
    {"hr", UNITS, DTK_HOUR},
    {"hrs", UNITS, DTK_HOUR},
    {"m", UNITS, DTK_MINUTE},
    {"microsecon", UNITS, DTK_MICROSEC},
    {"mil", UNITS, DTK_MILLENNIUM},
    {"millennia", UNITS, DTK_MILLENNIUM},
    {"millennium", UNITS, DTK_MILLENNIUM},
    {"millisecon", UNITS, DTK_MILLISEC},
    {"mils", UNITS, DTK_MILLENNIUM},
    {"min", UNITS, DTK_MINUTE},
    {"mins", UNITS, DTK_MINUTE},
    {"minute", UNITS, DTK_MINUTE},
    {"minutes", UNITS, DTK_MINUTE},
    {"mon", UNITS, DTK_MONTH},
    {"mons", UNITS, DTK_MONTH},
    {"month", UNITS, DTK_MONTH},
    {"months", UNITS, DTK_MONTH},
    {"ms", UNITS, DTK_MILLISEC},
    {"msec", UNITS, DTK_MILLISEC},
    {"msecond", UNITS, DTK_MILLISEC},
    {"mseconds", UNITS, DTK_MILLISEC},
    {"msecs", UNITS, DTK_MILLISEC},
    {"qtr", UNITS, DTK_QUARTER},
    {"quarter", UNITS, DTK_QUARTER},
    {"s", UNITS, DTK_SECOND},
    {"sec", UNITS, DTK_SECOND},
    {"second", UNITS, DTK_SECOND},
    {"seconds", UNITS, DTK_SECOND},
    {"secs", UNITS, DTK_SECOND},
    {"timezone", UNITS, DTK_TZ},
    {"timezone_h", UNITS, DTK_TZ_HOUR},
    {"timezone_m", UNITS, DTK_TZ_MINUTE},
    {"us", UNITS, DTK_MICROSEC},
    {"usec", UNITS, DTK_MICROSEC},
    {"usecond", UNITS, DTK_MICROSEC},
    {"useconds", UNITS, DTK_MICROSEC},
    {"usecs", UNITS, DTK_MICROSEC},
    {"w", UNITS, DTK_WEEK},
    {"week", UNITS, DTK_WEEK},
    {"weeks", UNITS, DTK_WEEK},
    {"y", UNITS, DTK_YEAR},
    {"year", UNITS, DTK_YEAR},
    {"years", UNITS, DTK_YEAR},
    {"yr", UNITS, DTK_YEAR},
    {"yrs", UNITS, DTK_YEAR},
};

// strncmp(key, token, TOKMAXLEN) == 0.
bool TokenMatch(const char* key, const char* token) {
  return std::strncmp(key, token, kTokMaxLen) == 0;
}

template <size_t N>
const DateToken* Search(const char* key, const DateToken (&table)[N]) {
  for (const DateToken& t : table) {
    if (t.token[0] == key[0] && TokenMatch(key, t.token)) return &t;
  }
  return nullptr;
}

bool DecodeSpecialIsKeyword(const char* lowtoken) {
  return Search(lowtoken, kDateTokens) != nullptr;
}

int DecodeSpecial(const char* lowtoken, int* val) {
  const DateToken* tp = Search(lowtoken, kDateTokens);
  if (tp == nullptr) {
    *val = 0;
    return UNKNOWN_FIELD;
  }
  *val = tp->value;
  return tp->type;
}

int DecodeUnits(const char* lowtoken, int* val) {
  const DateToken* tp = Search(lowtoken, kDeltaTokens);
  if (tp == nullptr) {
    *val = 0;
    return UNKNOWN_FIELD;
  }
  *val = tp->value;
  return tp->type;
}

// DecodeTimezoneAbbrev against the Default abbreviation set.
int DecodeTimezoneAbbrev(const char* lowtoken, int* offset,
                         const tz::Zone** zone, int* dterr,
                         std::string* bad_zone) {
  *dterr = 0;
  *zone = nullptr;
  *offset = 0;
  if (std::strlen(lowtoken) > static_cast<size_t>(kTokMaxLen)) {
    // Abbreviations are short; a truncated match cannot happen.
    return UNKNOWN_FIELD;
  }
  const tz::Abbrev* a = tz::FindAbbrev(lowtoken);
  if (a == nullptr) return UNKNOWN_FIELD;
  if (a->kind == 'Z') {
    *zone = tz::FindZone(a->zone_name);
    if (*zone == nullptr) {
      *dterr = DTERR_BAD_TIMEZONE;
      *bad_zone = a->zone_name;
    }
    return DYNTZ;
  }
  *offset = a->offset;
  return a->kind == 'D' ? DTZ : TZ;
}

}  // namespace

bool IsCoreDateToken(const char* key) {
  return Search(key, kDateTokens) != nullptr;
}

namespace {

// strtol restricted to int, like PostgreSQL's strtoint.
int StrToInt(const char* s, char** end) {
  errno = 0;
  long v = std::strtol(s, end, 10);
  if (v > INT_MAX || v < INT_MIN) {
    errno = ERANGE;
  }
  return static_cast<int>(v);
}

int ParseFractionalSecond(char* cp, int* fsec) {
  // PostgreSQL 15: strtod must consume the whole rest; "." alone is allowed
  // since PostgreSQL 15 as well.
  double frac;
  if (cp[1] == '\0') {
    frac = 0;
  } else {
    errno = 0;
    char* end;
    frac = std::strtod(cp, &end);
    if (*end != '\0' || errno != 0) return DTERR_BAD_FORMAT;
  }
  *fsec = static_cast<int>(std::rint(frac * 1000000));
  return 0;
}

int ParseFraction(char* cp, double* frac) {
  if (cp[1] == '\0') {
    *frac = 0;
  } else {
    errno = 0;
    char* end;
    *frac = std::strtod(cp, &end);
    if (*end != '\0' || errno != 0) return DTERR_BAD_FORMAT;
  }
  return 0;
}

bool TimeOverflows(int hour, int min, int sec, int fsec) {
  if (hour < 0 || hour > 24 || min < 0 || min >= 60 || sec < 0 || sec > 60 ||
      fsec < 0 || fsec > kUsecsPerSec) {
    return true;
  }
  if ((((static_cast<int64_t>(hour) * 60 + min) * 60 + sec) * kUsecsPerSec) +
          fsec >
      kUsecsPerDay) {
    return true;
  }
  return false;
}

int DecodeNumberField(int len, char* str, int fmask, int* tmask, Tm* tm,
                      int* fsec, bool* is2digits) {
  char* cp = std::strchr(str, '.');
  if (cp != nullptr) {
    if (cp[1] == '\0') {
      *fsec = 0;
    } else {
      errno = 0;
      double frac = std::strtod(cp, nullptr);
      if (errno != 0) return DTERR_BAD_FORMAT;
      *fsec = static_cast<int>(std::rint(frac * 1000000));
    }
    *cp = '\0';
    len = static_cast<int>(std::strlen(str));
  } else if ((fmask & kDateMask) != kDateMask) {
    if (len >= 6) {
      *tmask = kDateMask;
      tm->mday = std::atoi(str + (len - 2));
      *(str + (len - 2)) = '\0';
      tm->mon = std::atoi(str + (len - 4));
      *(str + (len - 4)) = '\0';
      tm->year = std::atoi(str);
      if ((len - 4) == 2) *is2digits = true;
      return DTK_DATE;
    }
  }
  if ((fmask & kTimeMask) != kTimeMask) {
    if (len == 6) {
      *tmask = kTimeMask;
      tm->sec = std::atoi(str + 4);
      *(str + 4) = '\0';
      tm->min = std::atoi(str + 2);
      *(str + 2) = '\0';
      tm->hour = std::atoi(str);
      return DTK_TIME;
    } else if (len == 4) {
      *tmask = kTimeMask;
      tm->sec = 0;
      tm->min = std::atoi(str + 2);
      *(str + 2) = '\0';
      tm->hour = std::atoi(str);
      return DTK_TIME;
    }
  }
  return DTERR_BAD_FORMAT;
}

int DecodeNumber(int flen, char* str, bool have_text_month, int fmask,
                 int* tmask, Tm* tm, int* fsec, bool* is2digits,
                 DateOrder order) {
  *tmask = 0;
  char* cp;
  int val = StrToInt(str, &cp);
  if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
  if (cp == str) return DTERR_BAD_FORMAT;
  if (*cp == '.') {
    if (cp - str > 2) {
      int dterr = DecodeNumberField(flen, str, (fmask | kDateMask), tmask, tm,
                                    fsec, is2digits);
      if (dterr < 0) return dterr;
      return 0;
    }
    int dterr = ParseFractionalSecond(cp, fsec);
    if (dterr) return dterr;
  } else if (*cp != '\0') {
    return DTERR_BAD_FORMAT;
  }
  if (flen == 3 && (fmask & kDateMask) == Mask(YEAR) && val >= 1 &&
      val <= 366) {
    *tmask = (Mask(DOY) | Mask(MONTH) | Mask(DAY));
    tm->yday = val;
    return 0;
  }
  switch (fmask & kDateMask) {
    case 0:
      if (flen >= 3 || order == kOrderYmd) {
        *tmask = Mask(YEAR);
        tm->year = val;
      } else if (order == kOrderDmy) {
        *tmask = Mask(DAY);
        tm->mday = val;
      } else {
        *tmask = Mask(MONTH);
        tm->mon = val;
      }
      break;
    case Mask(YEAR):
      *tmask = Mask(MONTH);
      tm->mon = val;
      break;
    case Mask(MONTH):
      if (have_text_month) {
        if (flen >= 3 || order == kOrderYmd) {
          *tmask = Mask(YEAR);
          tm->year = val;
        } else {
          *tmask = Mask(DAY);
          tm->mday = val;
        }
      } else {
        *tmask = Mask(DAY);
        tm->mday = val;
      }
      break;
    case Mask(YEAR) | Mask(MONTH):
      if (have_text_month) {
        if (flen >= 3 && *is2digits) {
          *tmask = Mask(DAY);
          tm->mday = tm->year;
          tm->year = val;
          *is2digits = false;
        } else {
          *tmask = Mask(DAY);
          tm->mday = val;
        }
      } else {
        *tmask = Mask(DAY);
        tm->mday = val;
      }
      break;
    case Mask(DAY):
      *tmask = Mask(MONTH);
      tm->mon = val;
      break;
    case Mask(MONTH) | Mask(DAY):
      *tmask = Mask(YEAR);
      tm->year = val;
      break;
    case Mask(YEAR) | Mask(MONTH) | Mask(DAY): {
      int dterr =
          DecodeNumberField(flen, str, fmask, tmask, tm, fsec, is2digits);
      if (dterr < 0) return dterr;
      return 0;
    }
    default:
      return DTERR_BAD_FORMAT;
  }
  if (*tmask == Mask(YEAR)) *is2digits = (flen <= 2);
  return 0;
}

int DecodeDate(char* str, int fmask, int* tmask, bool* is2digits, Tm* tm,
               DateOrder order) {
  int fsec;
  int nf = 0;
  bool have_text_month = false;
  int dmask = 0;
  char* field[kMaxDateFields];
  *tmask = 0;
  while (*str != '\0' && nf < kMaxDateFields) {
    while (*str != '\0' && !IsAlnum(*str)) ++str;
    if (*str == '\0') return DTERR_BAD_FORMAT;
    field[nf] = str;
    if (IsDigit(*str)) {
      while (IsDigit(*str)) ++str;
    } else if (IsAlpha(*str)) {
      while (IsAlpha(*str)) ++str;
    }
    if (*str != '\0') *str++ = '\0';
    ++nf;
  }
  for (int i = 0; i < nf; ++i) {
    if (IsAlpha(*field[i])) {
      int val;
      int type = DecodeSpecial(field[i], &val);
      if (type == IGNORE_DTF) continue;
      dmask = Mask(type);
      switch (type) {
        case MONTH:
          tm->mon = val;
          have_text_month = true;
          break;
        default:
          return DTERR_BAD_FORMAT;
      }
      if (fmask & dmask) return DTERR_BAD_FORMAT;
      fmask |= dmask;
      *tmask |= dmask;
      field[i] = nullptr;
    }
  }
  for (int i = 0; i < nf; ++i) {
    if (field[i] == nullptr) continue;
    int len = static_cast<int>(std::strlen(field[i]));
    if (len <= 0) return DTERR_BAD_FORMAT;
    int dterr = DecodeNumber(len, field[i], have_text_month, fmask, &dmask, tm,
                             &fsec, is2digits, order);
    if (dterr) return dterr;
    if (fmask & dmask) return DTERR_BAD_FORMAT;
    fmask |= dmask;
    *tmask |= dmask;
  }
  if ((fmask & ~(Mask(DOY) | Mask(TZ))) != kDateMask) return DTERR_BAD_FORMAT;
  return 0;
}

int ValidateDate(int fmask, bool isjulian, bool is2digits, bool bc, Tm* tm) {
  if (fmask & Mask(YEAR)) {
    if (isjulian) {
      // tm->year is already right
    } else if (bc) {
      if (tm->year <= 0) return DTERR_FIELD_OVERFLOW;
      tm->year = -(tm->year - 1);
    } else if (is2digits) {
      if (tm->year < 0) return DTERR_FIELD_OVERFLOW;
      if (tm->year < 70) {
        tm->year += 2000;
      } else if (tm->year < 100) {
        tm->year += 1900;
      }
    } else {
      if (tm->year <= 0) return DTERR_FIELD_OVERFLOW;
    }
  }
  if (fmask & Mask(DOY)) {
    J2Date(Wrap(int64_t{Date2J(tm->year, 1, 1)} + tm->yday - 1), &tm->year,
           &tm->mon, &tm->mday);
  }
  if (fmask & Mask(MONTH)) {
    if (tm->mon < 1 || tm->mon > kMonthsPerYear) return DTERR_MD_FIELD_OVERFLOW;
  }
  if (fmask & Mask(DAY)) {
    if (tm->mday < 1 || tm->mday > 31) return DTERR_MD_FIELD_OVERFLOW;
  }
  if ((fmask & kDateMask) == kDateMask) {
    if (tm->mday > kDayTab[IsLeap(tm->year)][tm->mon - 1]) {
      return DTERR_FIELD_OVERFLOW;
    }
  }
  return 0;
}

struct Itm {
  int64_t hour;
  int min;
  int sec;
  int usec;
};

constexpr int kIntervalFullRange = 0x7FFF;
constexpr int kIntervalFullPrecision = 0xFFFF;

int DecodeTimeCommon(char* str, int range, int* tmask, Itm* itm) {
  char* cp;
  int fsec = 0;
  *tmask = kTimeMask;
  errno = 0;
  itm->hour = std::strtoll(str, &cp, 10);
  if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
  if (*cp != ':') return DTERR_BAD_FORMAT;
  itm->min = StrToInt(cp + 1, &cp);
  if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
  if (*cp == '\0') {
    itm->sec = 0;
    if (range == (Mask(MINUTE) | Mask(SECOND))) {
      if (itm->hour > INT_MAX || itm->hour < INT_MIN)
        return DTERR_FIELD_OVERFLOW;
      itm->sec = itm->min;
      itm->min = static_cast<int>(itm->hour);
      itm->hour = 0;
    }
  } else if (*cp == '.') {
    int dterr = ParseFractionalSecond(cp, &fsec);
    if (dterr) return dterr;
    if (itm->hour > INT_MAX || itm->hour < INT_MIN) return DTERR_FIELD_OVERFLOW;
    itm->sec = itm->min;
    itm->min = static_cast<int>(itm->hour);
    itm->hour = 0;
  } else if (*cp == ':') {
    itm->sec = StrToInt(cp + 1, &cp);
    if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
    if (*cp == '.') {
      int dterr = ParseFractionalSecond(cp, &fsec);
      if (dterr) return dterr;
    } else if (*cp != '\0') {
      return DTERR_BAD_FORMAT;
    }
  } else {
    return DTERR_BAD_FORMAT;
  }
  if (itm->hour < 0 || itm->min < 0 || itm->min > 59 || itm->sec < 0 ||
      itm->sec > 60 || fsec < 0 || fsec > kUsecsPerSec) {
    return DTERR_FIELD_OVERFLOW;
  }
  itm->usec = fsec;
  return 0;
}

int DecodeTime(char* str, int range, int* tmask, Tm* tm, int* fsec) {
  Itm itm;
  int dterr = DecodeTimeCommon(str, range, tmask, &itm);
  if (dterr) return dterr;
  if (itm.hour > INT_MAX) return DTERR_FIELD_OVERFLOW;
  tm->hour = static_cast<int>(itm.hour);
  tm->min = itm.min;
  tm->sec = itm.sec;
  *fsec = itm.usec;
  return 0;
}

int DecodeTimezone(const char* str, int* tzp) {
  int hr, min, sec = 0;
  char* cp;
  if (*str != '+' && *str != '-') return DTERR_BAD_FORMAT;
  hr = StrToInt(str + 1, &cp);
  if (errno == ERANGE) return DTERR_TZDISP_OVERFLOW;
  if (*cp == ':') {
    min = StrToInt(cp + 1, &cp);
    if (errno == ERANGE) return DTERR_TZDISP_OVERFLOW;
    if (*cp == ':') {
      sec = StrToInt(cp + 1, &cp);
      if (errno == ERANGE) return DTERR_TZDISP_OVERFLOW;
    }
  } else if (*cp == '\0' && std::strlen(str) > 3) {
    min = hr % 100;
    hr = hr / 100;
  } else {
    min = 0;
  }
  if (hr < 0 || hr > kMaxTzDispHour) return DTERR_TZDISP_OVERFLOW;
  if (min < 0 || min >= 60) return DTERR_TZDISP_OVERFLOW;
  if (sec < 0 || sec >= 60) return DTERR_TZDISP_OVERFLOW;
  int tz = (hr * 60 + min) * 60 + sec;
  if (*str == '-') tz = -tz;
  *tzp = -tz;
  if (*cp != '\0') return DTERR_BAD_FORMAT;
  return 0;
}

}  // namespace

void Dt2Time(int64_t jd, int* hour, int* min, int* sec, int* fsec) {
  int64_t time = jd;
  *hour = static_cast<int>(time / kUsecsPerHour);
  time -= static_cast<int64_t>(*hour) * kUsecsPerHour;
  *min = static_cast<int>(time / kUsecsPerMinute);
  time -= static_cast<int64_t>(*min) * kUsecsPerMinute;
  *sec = static_cast<int>(time / kUsecsPerSec);
  *fsec = static_cast<int>(time - static_cast<int64_t>(*sec) * kUsecsPerSec);
}

namespace {

struct DecodeResult {
  int dtype = DTK_DATE;
  int tz = 0;            // seconds west of UTC
  std::string bad_zone;  // for DTERR_BAD_TIMEZONE
  int unsupported = 0;   // DTK_NOW etc. for DTERR_UNSUPPORTED
  // In: the transaction's start (TypeContext::now_us) and the session's
  // zone, for 'now', 'today', 'tomorrow' and 'yesterday'.
  int64_t now_us = 0;
  const tz::Zone* now_zone = nullptr;
};

// The transaction's start as a local time of the session's zone.
bool NowTm(const DecodeResult& r, Tm* tm, int* fsec, int* tz) {
  if (r.now_us == 0) return false;
  // Unix epoch -> PostgreSQL's (2000-01-01).
  int64_t pg = r.now_us - 946684800LL * 1000000;
  return Timestamp2Tm(pg, r.now_zone, tz, tm, fsec) == 0;
}

// A fast path for the plain ISO 8601 forms ("2024-01-05", "2024-01-05
// 10:20:30.123456", "...+05:30", "... BC") that DecodeDateTime reads the
// same way under every DateStyle. Returns false for anything else (or
// anything out of range), leaving the general parser to decide.
bool FastParseIso(std::string_view s, bool date_only, Tm* tm, int* fsec,
                  bool* has_tz, int* tz) {
  size_t n = s.size();
  size_t i = 0;
  auto digits = [&](size_t count, int* out) {
    if (i + count > n) return false;
    int v = 0;
    for (size_t k = 0; k < count; ++k) {
      char c = s[i + k];
      if (!IsDigit(c)) return false;
      v = v * 10 + (c - '0');
    }
    *out = v;
    i += count;
    return true;
  };
  size_t ystart = i;
  int year = 0;
  while (i < n && IsDigit(s[i]) && i - ystart < 7)
    year = year * 10 + (s[i++] - '0');
  if (i - ystart < 4 || i >= n || s[i] != '-' || year == 0) return false;
  ++i;
  int mon, mday;
  if (!digits(2, &mon) || i >= n || s[i] != '-') return false;
  ++i;
  if (!digits(2, &mday)) return false;
  if (mon < 1 || mon > 12 || mday < 1 ||
      mday > kDayTab[IsLeap(year) ? 1 : 0][mon - 1]) {
    return false;
  }
  int hour = 0, min = 0, sec = 0, frac = 0;
  *has_tz = false;
  *tz = 0;
  if (i < n && (s[i] == ' ' || s[i] == 'T') && i + 1 < n && IsDigit(s[i + 1])) {
    if (date_only) return false;
    ++i;
    if (!digits(2, &hour) || i >= n || s[i] != ':') return false;
    ++i;
    if (!digits(2, &min)) return false;
    if (i < n && s[i] == ':') {
      ++i;
      if (!digits(2, &sec)) return false;
      if (i < n && s[i] == '.') {
        ++i;
        size_t fstart = i;
        while (i < n && IsDigit(s[i])) {
          if (i - fstart >= 6) return false;
          frac = frac * 10 + (s[i++] - '0');
        }
        if (i == fstart) return false;
        for (size_t k = i - fstart; k < 6; ++k) frac *= 10;
      }
    }
    if (hour > 23 || min > 59 || sec > 59) return false;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      bool neg = s[i] == '-';
      ++i;
      int th, tmin = 0, tsec = 0;
      if (!digits(2, &th)) return false;
      if (i < n && s[i] == ':') {
        ++i;
        if (!digits(2, &tmin)) return false;
        if (i < n && s[i] == ':') {
          ++i;
          if (!digits(2, &tsec)) return false;
        }
      }
      if (th > kMaxTzDispHour || tmin > 59 || tsec > 59) return false;
      int secs = (th * 60 + tmin) * 60 + tsec;
      *has_tz = true;
      *tz = neg ? secs : -secs;
    }
  }
  if (i + 3 == n && s.compare(i, 3, " BC") == 0) {
    year = -(year - 1);
    i = n;
  }
  if (i != n) return false;
  tm->year = year;
  tm->mon = mon;
  tm->mday = mday;
  tm->hour = hour;
  tm->min = min;
  tm->sec = sec;
  tm->isdst = -1;
  *fsec = frac;
  return true;
}

// An abbreviation (lower case) the zone prints, other than the words the
// date parser knows ("bc" etc. are never zone abbreviations in tzdata).
bool IsSessionAbbrev(const tz::Zone* zone, const char* lower) {
  if (!IsAlpha(lower[0]) || DecodeSpecialIsKeyword(lower)) return false;
  std::string upper;
  for (const char* p = lower; *p; ++p) upper.push_back(util::ToUpper(*p));
  return zone->HasAbbrev(upper);
}

// DecodeDateTime. need_tz: compute the offset for the session zone when no
// zone is given (only timestamptz needs it).
int DecodeDateTime(Fields* f, Tm* tm, int* fsec, DecodeResult* r,
                   const tz::Zone* session_zone, bool need_tz, DateOrder order,
                   const tz::Zone* canonical_zone = nullptr) {
  int fmask = 0, tmask = 0, type;
  int ptype = 0;
  int val;
  int dterr;
  int mer = HR24;
  bool have_text_month = false;
  bool isjulian = false;
  bool is2digits = false;
  bool bc = false;
  const tz::Zone* named_tz = nullptr;
  const tz::Zone* abbrev_tz = nullptr;
  const char* abbrev = nullptr;
  char** field = f->field;
  int* ftype = f->ftype;
  int nf = f->nf;

  r->dtype = DTK_DATE;
  tm->hour = 0;
  tm->min = 0;
  tm->sec = 0;
  *fsec = 0;
  tm->isdst = -1;
  r->tz = 0;

  for (int i = 0; i < nf; ++i) {
    switch (ftype[i]) {
      case DTK_DATE:
        if (ptype == DTK_JULIAN) {
          char* cp;
          int jday = StrToInt(field[i], &cp);
          if (errno == ERANGE || jday < 0) return DTERR_FIELD_OVERFLOW;
          J2Date(jday, &tm->year, &tm->mon, &tm->mday);
          isjulian = true;
          dterr = DecodeTimezone(cp, &r->tz);
          if (dterr) return dterr;
          tmask = kDateMask | kTimeMask | Mask(TZ);
          ptype = 0;
          break;
        } else if (ptype != 0 || ((fmask & (Mask(MONTH) | Mask(DAY))) ==
                                  (Mask(MONTH) | Mask(DAY)))) {
          if (IsDigit(*field[i]) || ptype != 0) {
            char* cp;
            if (ptype != 0) {
              if (ptype != DTK_TIME) return DTERR_BAD_FORMAT;
              ptype = 0;
            }
            if ((fmask & kTimeMask) == kTimeMask) return DTERR_BAD_FORMAT;
            if ((cp = std::strchr(field[i], '-')) == nullptr) {
              return DTERR_BAD_FORMAT;
            }
            dterr = DecodeTimezone(cp, &r->tz);
            if (dterr) return dterr;
            *cp = '\0';
            dterr = DecodeNumberField(static_cast<int>(std::strlen(field[i])),
                                      field[i], fmask, &tmask, tm, fsec,
                                      &is2digits);
            if (dterr < 0) return dterr;
            tmask |= Mask(TZ);
          } else {
            named_tz = tz::FindZone(field[i]);
            if (named_tz == nullptr) {
              r->bad_zone = field[i];
              return DTERR_BAD_TIMEZONE;
            }
            tmask = Mask(TZ);
          }
        } else {
          dterr = DecodeDate(field[i], fmask, &tmask, &is2digits, tm, order);
          if (dterr) return dterr;
        }
        break;

      case DTK_TIME:
        if (ptype != 0) {
          if (ptype != DTK_TIME) return DTERR_BAD_FORMAT;
          ptype = 0;
        }
        dterr = DecodeTime(field[i], kIntervalFullRange, &tmask, tm, fsec);
        if (dterr) return dterr;
        if (TimeOverflows(tm->hour, tm->min, tm->sec, *fsec)) {
          return DTERR_FIELD_OVERFLOW;
        }
        break;

      case DTK_TZ: {
        int tzv;
        dterr = DecodeTimezone(field[i], &tzv);
        if (dterr) return dterr;
        r->tz = tzv;
        tmask = Mask(TZ);
        break;
      }

      case DTK_NUMBER:
        if (ptype != 0) {
          char* cp;
          int value = StrToInt(field[i], &cp);
          if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
          if (*cp != '.' && *cp != '\0') return DTERR_BAD_FORMAT;
          switch (ptype) {
            case DTK_JULIAN:
              if (value < 0) return DTERR_FIELD_OVERFLOW;
              tmask = kDateMask;
              J2Date(value, &tm->year, &tm->mon, &tm->mday);
              isjulian = true;
              if (*cp == '.') {
                double time;
                dterr = ParseFraction(cp, &time);
                if (dterr) return dterr;
                time *= kUsecsPerDay;
                Dt2Time(static_cast<int64_t>(time), &tm->hour, &tm->min,
                        &tm->sec, fsec);
                tmask |= kTimeMask;
              }
              break;
            case DTK_TIME:
              dterr = DecodeNumberField(static_cast<int>(std::strlen(field[i])),
                                        field[i], (fmask | kDateMask), &tmask,
                                        tm, fsec, &is2digits);
              if (dterr < 0) return dterr;
              if (tmask != kTimeMask) return DTERR_BAD_FORMAT;
              break;
            default:
              return DTERR_BAD_FORMAT;
          }
          ptype = 0;
          r->dtype = DTK_DATE;
        } else {
          int flen = static_cast<int>(std::strlen(field[i]));
          char* cp = std::strchr(field[i], '.');
          if (cp != nullptr && !(fmask & kDateMask)) {
            dterr = DecodeDate(field[i], fmask, &tmask, &is2digits, tm, order);
            if (dterr) return dterr;
          } else if (cp != nullptr &&
                     flen - static_cast<int>(std::strlen(cp)) > 2) {
            dterr = DecodeNumberField(flen, field[i], fmask, &tmask, tm, fsec,
                                      &is2digits);
            if (dterr < 0) return dterr;
          } else if (flen >= 6 &&
                     (!(fmask & kDateMask) || !(fmask & kTimeMask))) {
            dterr = DecodeNumberField(flen, field[i], fmask, &tmask, tm, fsec,
                                      &is2digits);
            if (dterr < 0) return dterr;
          } else {
            dterr = DecodeNumber(flen, field[i], have_text_month, fmask, &tmask,
                                 tm, fsec, &is2digits, order);
            if (dterr) return dterr;
          }
        }
        break;

      case DTK_STRING:
      case DTK_SPECIAL: {
        const tz::Zone* valtz = nullptr;
        int abbrev_err = 0;
        if (canonical_zone != nullptr &&
            IsSessionAbbrev(canonical_zone, field[i])) {
          type = DYNTZ;
          valtz = canonical_zone;
        } else {
          type = DecodeTimezoneAbbrev(field[i], &val, &valtz, &abbrev_err,
                                      &r->bad_zone);
        }
        if (abbrev_err) return abbrev_err;
        if (type == UNKNOWN_FIELD) type = DecodeSpecial(field[i], &val);
        if (type == IGNORE_DTF) continue;
        tmask = Mask(type);
        switch (type) {
          case RESERV:
            switch (val) {
              case DTK_NOW: {
                int now_fsec, now_tz;
                if (!NowTm(*r, tm, &now_fsec, &now_tz)) {
                  r->unsupported = val;
                  return DTERR_UNSUPPORTED;
                }
                tmask = kDateMask | kTimeMask | Mask(TZ);
                r->dtype = DTK_DATE;
                *fsec = now_fsec;
                r->tz = now_tz;
                break;
              }
              case DTK_YESTERDAY:
              case DTK_TODAY:
              case DTK_TOMORROW: {
                Tm now;
                int now_fsec, now_tz;
                if (!NowTm(*r, &now, &now_fsec, &now_tz)) {
                  r->unsupported = val;
                  return DTERR_UNSUPPORTED;
                }
                int days = val == DTK_YESTERDAY  ? -1
                           : val == DTK_TOMORROW ? 1
                                                 : 0;
                J2Date(Date2J(now.year, now.mon, now.mday) + days, &tm->year,
                       &tm->mon, &tm->mday);
                tmask = kDateMask;
                r->dtype = DTK_DATE;
                break;
              }
              case DTK_ZULU:
                tmask = (kTimeMask | Mask(TZ));
                r->dtype = DTK_DATE;
                tm->hour = 0;
                tm->min = 0;
                tm->sec = 0;
                r->tz = 0;
                break;
              default:
                r->dtype = val;
            }
            break;
          case MONTH:
            if ((fmask & Mask(MONTH)) && !have_text_month &&
                !(fmask & Mask(DAY)) && tm->mon >= 1 && tm->mon <= 31) {
              tm->mday = tm->mon;
              tmask = Mask(DAY);
            }
            have_text_month = true;
            tm->mon = val;
            break;
          case DTZMOD:
            tmask |= Mask(DTZ);
            tm->isdst = 1;
            r->tz -= val;
            break;
          case DTZ:
            tmask |= Mask(TZ);
            tm->isdst = 1;
            r->tz = -val;
            break;
          case TZ:
            tm->isdst = 0;
            r->tz = -val;
            break;
          case DYNTZ:
            tmask |= Mask(TZ);
            abbrev_tz = valtz;
            abbrev = field[i];
            break;
          case AMPM:
            mer = val;
            break;
          case ADBC:
            bc = (val == BC);
            break;
          case DOW:
            tm->wday = val;
            break;
          case UNITS:
            tmask = 0;
            if (ptype != 0) return DTERR_BAD_FORMAT;
            ptype = val;
            break;
          case ISOTIME:
            tmask = 0;
            if ((fmask & kDateMask) != kDateMask) return DTERR_BAD_FORMAT;
            if (ptype != 0) return DTERR_BAD_FORMAT;
            ptype = val;
            break;
          case UNKNOWN_FIELD:
            named_tz = tz::FindZone(field[i]);
            if (named_tz == nullptr) return DTERR_BAD_FORMAT;
            tmask = Mask(TZ);
            break;
          default:
            return DTERR_BAD_FORMAT;
        }
        break;
      }

      default:
        return DTERR_BAD_FORMAT;
    }
    if (tmask & fmask) return DTERR_BAD_FORMAT;
    fmask |= tmask;
  }

  if (ptype != 0) return DTERR_BAD_FORMAT;

  if (r->dtype == DTK_DATE) {
    dterr = ValidateDate(fmask, isjulian, is2digits, bc, tm);
    if (dterr) return dterr;
    if (mer != HR24 && tm->hour > 12) return DTERR_FIELD_OVERFLOW;
    if (mer == AM && tm->hour == 12) {
      tm->hour = 0;
    } else if (mer == PM && tm->hour != 12) {
      tm->hour += 12;
    }
    if ((fmask & kDateMask) != kDateMask) {
      if ((fmask & kTimeMask) == kTimeMask) return 1;
      return DTERR_BAD_FORMAT;
    }
    if (named_tz != nullptr) {
      if (fmask & Mask(DTZMOD)) return DTERR_BAD_FORMAT;
      if (need_tz) r->tz = DetermineTimeZoneOffset(tm, named_tz, nullptr);
    }
    if (abbrev_tz != nullptr) {
      if (fmask & Mask(DTZMOD)) return DTERR_BAD_FORMAT;
      if (need_tz) r->tz = DetermineTimeZoneAbbrevOffset(tm, abbrev, abbrev_tz);
    }
    if (!(fmask & Mask(TZ))) {
      if (fmask & Mask(DTZMOD)) return DTERR_BAD_FORMAT;
      if (need_tz) r->tz = DetermineTimeZoneOffset(tm, session_zone, nullptr);
    }
  }
  return 0;
}

// DecodeTimeOnly, for the time type (the zone is parsed but not needed).
int DecodeTimeOnly(Fields* f, Tm* tm, int* fsec, DecodeResult* r,
                   DateOrder order) {
  int fmask = 0, tmask = 0, type;
  int ptype = 0;
  int val;
  int dterr;
  bool isjulian = false;
  bool is2digits = false;
  bool bc = false;
  int mer = HR24;
  const tz::Zone* named_tz = nullptr;
  const tz::Zone* abbrev_tz = nullptr;
  char** field = f->field;
  int* ftype = f->ftype;
  int nf = f->nf;

  r->dtype = DTK_TIME;
  tm->hour = 0;
  tm->min = 0;
  tm->sec = 0;
  *fsec = 0;
  tm->isdst = -1;
  r->tz = 0;

  for (int i = 0; i < nf; ++i) {
    switch (ftype[i]) {
      case DTK_DATE:
        if (i == 0 && nf >= 2 &&
            (ftype[nf - 1] == DTK_DATE || ftype[1] == DTK_TIME)) {
          dterr = DecodeDate(field[i], fmask, &tmask, &is2digits, tm, order);
          if (dterr) return dterr;
        } else {
          if (IsDigit(*field[i])) {
            char* cp;
            if ((fmask & kTimeMask) == kTimeMask) return DTERR_BAD_FORMAT;
            if ((cp = std::strchr(field[i], '-')) == nullptr) {
              return DTERR_BAD_FORMAT;
            }
            dterr = DecodeTimezone(cp, &r->tz);
            if (dterr) return dterr;
            *cp = '\0';
            dterr = DecodeNumberField(static_cast<int>(std::strlen(field[i])),
                                      field[i], (fmask | kDateMask), &tmask, tm,
                                      fsec, &is2digits);
            if (dterr < 0) return dterr;
            ftype[i] = dterr;
            tmask |= Mask(TZ);
          } else {
            named_tz = tz::FindZone(field[i]);
            if (named_tz == nullptr) {
              r->bad_zone = field[i];
              return DTERR_BAD_TIMEZONE;
            }
            ftype[i] = DTK_TZ;
            tmask = Mask(TZ);
          }
        }
        break;

      case DTK_TIME:
        if (ptype != 0) {
          if (ptype != DTK_TIME) return DTERR_BAD_FORMAT;
          ptype = 0;
        }
        dterr = DecodeTime(field[i], kIntervalFullRange, &tmask, tm, fsec);
        if (dterr) return dterr;
        break;

      case DTK_TZ: {
        int tzv;
        dterr = DecodeTimezone(field[i], &tzv);
        if (dterr) return dterr;
        r->tz = tzv;
        tmask = Mask(TZ);
        break;
      }

      case DTK_NUMBER:
        if (ptype != 0) {
          char* cp;
          int value = StrToInt(field[i], &cp);
          if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
          if (*cp != '.' && *cp != '\0') return DTERR_BAD_FORMAT;
          switch (ptype) {
            case DTK_JULIAN:
              if (value < 0) return DTERR_FIELD_OVERFLOW;
              tmask = kDateMask;
              J2Date(value, &tm->year, &tm->mon, &tm->mday);
              isjulian = true;
              if (*cp == '.') {
                double time;
                dterr = ParseFraction(cp, &time);
                if (dterr) return dterr;
                time *= kUsecsPerDay;
                Dt2Time(static_cast<int64_t>(time), &tm->hour, &tm->min,
                        &tm->sec, fsec);
                tmask |= kTimeMask;
              }
              break;
            case DTK_TIME:
              dterr = DecodeNumberField(static_cast<int>(std::strlen(field[i])),
                                        field[i], (fmask | kDateMask), &tmask,
                                        tm, fsec, &is2digits);
              if (dterr < 0) return dterr;
              ftype[i] = dterr;
              if (tmask != kTimeMask) return DTERR_BAD_FORMAT;
              break;
            default:
              return DTERR_BAD_FORMAT;
          }
          ptype = 0;
          r->dtype = DTK_DATE;
        } else {
          int flen = static_cast<int>(std::strlen(field[i]));
          char* cp = std::strchr(field[i], '.');
          if (cp != nullptr) {
            if (i == 0 && nf >= 2 && ftype[nf - 1] == DTK_DATE) {
              dterr =
                  DecodeDate(field[i], fmask, &tmask, &is2digits, tm, order);
              if (dterr) return dterr;
            } else if (flen - static_cast<int>(std::strlen(cp)) > 2) {
              dterr = DecodeNumberField(flen, field[i], (fmask | kDateMask),
                                        &tmask, tm, fsec, &is2digits);
              if (dterr < 0) return dterr;
              ftype[i] = dterr;
            } else {
              return DTERR_BAD_FORMAT;
            }
          } else if (flen > 4) {
            dterr = DecodeNumberField(flen, field[i], (fmask | kDateMask),
                                      &tmask, tm, fsec, &is2digits);
            if (dterr < 0) return dterr;
            ftype[i] = dterr;
          } else {
            dterr = DecodeNumber(flen, field[i], false, (fmask | kDateMask),
                                 &tmask, tm, fsec, &is2digits, order);
            if (dterr) return dterr;
          }
        }
        break;

      case DTK_STRING:
      case DTK_SPECIAL: {
        const tz::Zone* valtz = nullptr;
        int abbrev_err = 0;
        type = DecodeTimezoneAbbrev(field[i], &val, &valtz, &abbrev_err,
                                    &r->bad_zone);
        if (abbrev_err) return abbrev_err;
        if (type == UNKNOWN_FIELD) type = DecodeSpecial(field[i], &val);
        if (type == IGNORE_DTF) continue;
        tmask = Mask(type);
        switch (type) {
          case RESERV:
            switch (val) {
              case DTK_NOW: {
                Tm now;
                int now_fsec, now_tz;
                if (!NowTm(*r, &now, &now_fsec, &now_tz)) {
                  r->unsupported = val;
                  return DTERR_UNSUPPORTED;
                }
                tmask = kTimeMask | Mask(TZ);
                r->dtype = DTK_TIME;
                tm->hour = now.hour;
                tm->min = now.min;
                tm->sec = now.sec;
                *fsec = now_fsec;
                r->tz = now_tz;
                break;
              }
              case DTK_ZULU:
                tmask = (kTimeMask | Mask(TZ));
                r->dtype = DTK_TIME;
                tm->hour = 0;
                tm->min = 0;
                tm->sec = 0;
                tm->isdst = 0;
                break;
              default:
                return DTERR_BAD_FORMAT;
            }
            break;
          case DTZMOD:
            tmask |= Mask(DTZ);
            tm->isdst = 1;
            r->tz -= val;
            break;
          case DTZ:
            tmask |= Mask(TZ);
            tm->isdst = 1;
            r->tz = -val;
            ftype[i] = DTK_TZ;
            break;
          case TZ:
            tm->isdst = 0;
            r->tz = -val;
            ftype[i] = DTK_TZ;
            break;
          case DYNTZ:
            tmask |= Mask(TZ);
            abbrev_tz = valtz;
            ftype[i] = DTK_TZ;
            break;
          case AMPM:
            mer = val;
            break;
          case ADBC:
            bc = (val == BC);
            break;
          case UNITS:
            tmask = 0;
            if (ptype != 0) return DTERR_BAD_FORMAT;
            ptype = val;
            break;
          case ISOTIME:
            tmask = 0;
            if (ptype != 0) return DTERR_BAD_FORMAT;
            ptype = val;
            break;
          case UNKNOWN_FIELD:
            named_tz = tz::FindZone(field[i]);
            if (named_tz == nullptr) return DTERR_BAD_FORMAT;
            tmask = Mask(TZ);
            break;
          default:
            return DTERR_BAD_FORMAT;
        }
        break;
      }

      default:
        return DTERR_BAD_FORMAT;
    }
    if (tmask & fmask) return DTERR_BAD_FORMAT;
    fmask |= tmask;
  }

  if (ptype != 0) return DTERR_BAD_FORMAT;
  dterr = ValidateDate(fmask, isjulian, is2digits, bc, tm);
  if (dterr) return dterr;
  if (mer != HR24 && tm->hour > 12) return DTERR_FIELD_OVERFLOW;
  if (mer == AM && tm->hour == 12) {
    tm->hour = 0;
  } else if (mer == PM && tm->hour != 12) {
    tm->hour += 12;
  }
  if (TimeOverflows(tm->hour, tm->min, tm->sec, *fsec)) {
    return DTERR_FIELD_OVERFLOW;
  }
  if ((fmask & kTimeMask) != kTimeMask) return DTERR_BAD_FORMAT;
  if (named_tz != nullptr) {
    if (fmask & Mask(DTZMOD)) return DTERR_BAD_FORMAT;
    // A zone with DST needs a date to resolve the offset.
    int32_t gmtoff;
    if (!named_tz->FixedOffset(&gmtoff) && (fmask & kDateMask) != kDateMask) {
      return DTERR_BAD_FORMAT;
    }
  }
  if (abbrev_tz != nullptr) {
    if (fmask & Mask(DTZMOD)) return DTERR_BAD_FORMAT;
    if ((fmask & kDateMask) != 0 && (fmask & kDateMask) != kDateMask) {
      return DTERR_BAD_FORMAT;
    }
  }
  if (!(fmask & Mask(TZ))) {
    if (fmask & Mask(DTZMOD)) return DTERR_BAD_FORMAT;
    if ((fmask & kDateMask) != 0 && (fmask & kDateMask) != kDateMask) {
      return DTERR_BAD_FORMAT;
    }
  }
  return 0;
}

bool ReportDateTimeError(int dterr, const DecodeResult& r, std::string_view str,
                         const char* datatype, PgError* error) {
  std::string s(str);
  switch (dterr) {
    case DTERR_FIELD_OVERFLOW:
      return Fail(error, "22008",
                  "date/time field value out of range: \"" + s + "\"");
    case DTERR_MD_FIELD_OVERFLOW:
      return Fail(error, "22008",
                  "date/time field value out of range: \"" + s + "\"", "",
                  "Perhaps you need a different \"datestyle\" setting.");
    case DTERR_INTERVAL_OVERFLOW:
      return Fail(error, "22015",
                  "interval field value out of range: \"" + s + "\"");
    case DTERR_TZDISP_OVERFLOW:
      return Fail(error, "22009",
                  "time zone displacement out of range: \"" + s + "\"");
    case DTERR_BAD_TIMEZONE:
      return Fail(error, "22023",
                  "time zone \"" + r.bad_zone + "\" not recognized");
    case DTERR_UNSUPPORTED: {
      const char* word = r.unsupported == DTK_NOW        ? "now"
                         : r.unsupported == DTK_TODAY    ? "today"
                         : r.unsupported == DTK_TOMORROW ? "tomorrow"
                                                         : "yesterday";
      return Fail(
          error, "0A000",
          std::string("date/time input \"") + word + "\" is not supported yet",
          "The special value is relative to the transaction start "
          "time; use now(), current_date or current_timestamp.");
    }
    case DTERR_BAD_FORMAT:
    default:
      return Fail(error, "22007",
                  std::string("invalid input syntax for type ") + datatype +
                      ": \"" + s + "\"");
  }
}

}  // namespace

// tm2timestamp. tzp: seconds west of UTC, or nullptr.
int Tm2Timestamp(const Tm& tm, int fsec, const int* tzp, int64_t* result) {
  if (!IsValidJulian(tm.year, tm.mon, tm.mday)) {
    *result = 0;
    return -1;
  }
  int64_t date = Date2J(tm.year, tm.mon, tm.mday) -
                 static_cast<int64_t>(kPostgresEpochJdate);
  int64_t time =
      ((((static_cast<int64_t>(tm.hour) * 60) + tm.min) * 60) + tm.sec) *
          kUsecsPerSec +
      fsec;
  int64_t r;
  if (__builtin_mul_overflow(date, kUsecsPerDay, &r) ||
      __builtin_add_overflow(r, time, &r)) {
    return -1;
  }
  if ((r < 0 && date > 0) || (r > 0 && date < -1)) return -1;
  if (tzp != nullptr) {
    if (__builtin_add_overflow(r, static_cast<int64_t>(*tzp) * kUsecsPerSec,
                               &r)) {
      return -1;
    }
  }
  if (!IsValidTimestamp(r)) return -1;
  *result = r;
  return 0;
}

// timestamp2tm. zone == nullptr: no conversion (timestamp without time
// zone); else local time in zone, *tzp = seconds west.
int Timestamp2Tm(int64_t dt, const tz::Zone* zone, int* tzp, Tm* tm,
                 int* fsec) {
  int64_t time = dt;
  int64_t date = time / kUsecsPerDay;
  time -= date * kUsecsPerDay;
  if (time < 0) {
    time += kUsecsPerDay;
    date -= 1;
  }
  date += kPostgresEpochJdate;
  if (date < 0 || date > INT_MAX) return -1;
  J2Date(static_cast<int>(date), &tm->year, &tm->mon, &tm->mday);
  Dt2Time(time, &tm->hour, &tm->min, &tm->sec, fsec);
  if (zone == nullptr) {
    tm->isdst = -1;
    tm->gmtoff = 0;
    tm->zone = nullptr;
    return 0;
  }
  int64_t utime =
      (dt - *fsec) / kUsecsPerSec +
      static_cast<int64_t>(kPostgresEpochJdate - kUnixEpochJdate) * kSecsPerDay;
  const tz::TType& tt = zone->TypeAt(utime);
  int64_t local = utime + tt.utoff;
  // Break the local seconds down (pg_localtime).
  int64_t ldays = local / kSecsPerDay;
  int64_t lsecs = local - ldays * kSecsPerDay;
  if (lsecs < 0) {
    lsecs += kSecsPerDay;
    ldays -= 1;
  }
  J2Date(static_cast<int>(ldays + kUnixEpochJdate), &tm->year, &tm->mon,
         &tm->mday);
  tm->hour = static_cast<int>(lsecs / 3600);
  tm->min = static_cast<int>(lsecs / 60 % 60);
  tm->sec = static_cast<int>(lsecs % 60);
  tm->isdst = tt.isdst ? 1 : 0;
  tm->gmtoff = tt.utoff;
  tm->zone = tt.abbr.c_str();
  *tzp = -tt.utoff;
  return 0;
}

const tz::Zone* ZoneOf(const TypeContext& context) {
  return tz::SessionZone(context.timezone);
}

namespace {

// --- Output helpers ---

void AppendSeconds(std::string* out, int sec, int fsec, int precision,
                   bool fillzeros) {
  if (fillzeros) {
    util::AppendZeroPad(out, std::abs(sec), 2);
  } else {
    util::AppendInt(out, std::abs(sec));
  }
  if (fsec == 0) return;
  // The fraction without trailing zeros; a value that does not fit the
  // precision is printed whole, as PostgreSQL does.
  int value = std::abs(fsec);
  out->push_back('.');
  char digits[16];
  for (int p = precision - 1; p >= 0; --p) {
    digits[p] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  if (value != 0) {
    util::AppendInt(out, std::abs(fsec));
    return;
  }
  int len = precision;
  while (len > 0 && digits[len - 1] == '0') --len;
  out->append(digits, len);
}

void AppendYear(std::string* out, int year) {
  util::AppendZeroPad(out, year > 0 ? year : -(year - 1), 4);
}

void EncodeTimezone(std::string* out, int tz, bool xsd) {
  int sec = std::abs(tz);
  int min = sec / 60;
  sec -= min * 60;
  int hour = min / 60;
  min -= hour * 60;
  out->push_back(tz <= 0 ? '+' : '-');
  util::AppendZeroPad(out, hour, 2);
  if (sec != 0) {
    out->push_back(':');
    util::AppendZeroPad(out, min, 2);
    out->push_back(':');
    util::AppendZeroPad(out, sec, 2);
  } else if (min != 0 || xsd) {
    out->push_back(':');
    util::AppendZeroPad(out, min, 2);
  }
}

void EncodeDateOnly(const Tm& tm, const Styles& st, std::string* out) {
  switch (st.style) {
    case kStyleIso:
      AppendYear(out, tm.year);
      out->push_back('-');
      util::AppendZeroPad(out, tm.mon, 2);
      out->push_back('-');
      util::AppendZeroPad(out, tm.mday, 2);
      break;
    case kStyleSql:
      if (st.order == kOrderDmy) {
        util::AppendZeroPad(out, tm.mday, 2);
        out->push_back('/');
        util::AppendZeroPad(out, tm.mon, 2);
      } else {
        util::AppendZeroPad(out, tm.mon, 2);
        out->push_back('/');
        util::AppendZeroPad(out, tm.mday, 2);
      }
      out->push_back('/');
      AppendYear(out, tm.year);
      break;
    case kStyleGerman:
      util::AppendZeroPad(out, tm.mday, 2);
      out->push_back('.');
      util::AppendZeroPad(out, tm.mon, 2);
      out->push_back('.');
      AppendYear(out, tm.year);
      break;
    case kStylePostgres:
      if (st.order == kOrderDmy) {
        util::AppendZeroPad(out, tm.mday, 2);
        out->push_back('-');
        util::AppendZeroPad(out, tm.mon, 2);
      } else {
        util::AppendZeroPad(out, tm.mon, 2);
        out->push_back('-');
        util::AppendZeroPad(out, tm.mday, 2);
      }
      out->push_back('-');
      AppendYear(out, tm.year);
      break;
  }
  if (tm.year <= 0) out->append(" BC");
}

void AppendHms(std::string* out, const Tm& tm, int fsec) {
  util::AppendZeroPad(out, tm.hour, 2);
  out->push_back(':');
  util::AppendZeroPad(out, tm.min, 2);
  out->push_back(':');
  AppendSeconds(out, tm.sec, fsec, 6, true);
}

void AppendTzName(std::string* out, const char* tzn) {
  out->push_back(' ');
  out->append(tzn, strnlen(tzn, 10));
}

void EncodeDateTime(Tm* tm, int fsec, bool print_tz, int tz, const char* tzn,
                    const Styles& st, std::string* out) {
  if (tm->isdst < 0) print_tz = false;
  switch (st.style) {
    case kStyleIso:
      AppendYear(out, tm->year);
      out->push_back('-');
      util::AppendZeroPad(out, tm->mon, 2);
      out->push_back('-');
      util::AppendZeroPad(out, tm->mday, 2);
      out->push_back(' ');
      AppendHms(out, *tm, fsec);
      if (print_tz) EncodeTimezone(out, tz, false);
      break;
    case kStyleSql:
      if (st.order == kOrderDmy) {
        util::AppendZeroPad(out, tm->mday, 2);
        out->push_back('/');
        util::AppendZeroPad(out, tm->mon, 2);
      } else {
        util::AppendZeroPad(out, tm->mon, 2);
        out->push_back('/');
        util::AppendZeroPad(out, tm->mday, 2);
      }
      out->push_back('/');
      AppendYear(out, tm->year);
      out->push_back(' ');
      AppendHms(out, *tm, fsec);
      if (print_tz) {
        if (tzn) {
          AppendTzName(out, tzn);
        } else {
          EncodeTimezone(out, tz, false);
        }
      }
      break;
    case kStyleGerman:
      util::AppendZeroPad(out, tm->mday, 2);
      out->push_back('.');
      util::AppendZeroPad(out, tm->mon, 2);
      out->push_back('.');
      AppendYear(out, tm->year);
      out->push_back(' ');
      AppendHms(out, *tm, fsec);
      if (print_tz) {
        if (tzn) {
          AppendTzName(out, tzn);
        } else {
          EncodeTimezone(out, tz, false);
        }
      }
      break;
    case kStylePostgres: {
      int day = Date2J(tm->year, tm->mon, tm->mday);
      tm->wday = J2Day(day);
      out->append(kDays[tm->wday], 3);
      out->push_back(' ');
      if (st.order == kOrderDmy) {
        util::AppendZeroPad(out, tm->mday, 2);
        out->push_back(' ');
        out->append(kMonths[tm->mon - 1], 3);
      } else {
        out->append(kMonths[tm->mon - 1], 3);
        out->push_back(' ');
        util::AppendZeroPad(out, tm->mday, 2);
      }
      out->push_back(' ');
      AppendHms(out, *tm, fsec);
      out->push_back(' ');
      AppendYear(out, tm->year);
      if (print_tz) {
        if (tzn) {
          AppendTzName(out, tzn);
        } else {
          out->push_back(' ');
          EncodeTimezone(out, tz, false);
        }
      }
      break;
    }
  }
  if (tm->year <= 0) out->append(" BC");
}

}  // namespace

// --- date ---

namespace {

// The field order to read back what EncodeDateOnly/EncodeDateTime printed.
DateOrder CanonicalOrder(const Styles& st) {
  switch (st.style) {
    case kStyleIso:
      return st.order;
    case kStyleGerman:
      return kOrderDmy;
    default:
      return st.order == kOrderDmy ? kOrderDmy : kOrderMdy;
  }
}

bool DateInImpl(std::string_view text, const TypeContext& context,
                bool canonical, int32_t* out, PgError* error) {
  {
    Tm tm;
    int fsec, tz;
    bool has_tz;
    if (FastParseIso(text, true, &tm, &fsec, &has_tz, &tz) &&
        IsValidJulian(tm.year, tm.mon, tm.mday)) {
      int64_t date = Date2J(tm.year, tm.mon, tm.mday) -
                     static_cast<int64_t>(kPostgresEpochJdate);
      if (IsValidDate(date)) {
        *out = static_cast<int32_t>(date);
        return true;
      }
    }
  }
  Styles st = GetStyles(context);
  Fields f;
  Tm tm;
  int fsec;
  DecodeResult r;
  r.now_us = context.now_us;
  r.now_zone = ZoneOf(context);
  int dterr = ParseDateTime(text, &f);
  if (dterr == 0) {
    dterr = DecodeDateTime(&f, &tm, &fsec, &r, nullptr, false,
                           canonical ? CanonicalOrder(st) : st.order);
  }
  if (dterr != 0) return ReportDateTimeError(dterr, r, text, "date", error);
  switch (r.dtype) {
    case DTK_DATE:
      break;
    case DTK_EPOCH:
      tm.year = 1970;
      tm.mon = 1;
      tm.mday = 1;
      break;
    case DTK_LATE:
      *out = kDateNoEnd;
      return true;
    case DTK_EARLY:
      *out = kDateNoBegin;
      return true;
    default:
      return ReportDateTimeError(DTERR_BAD_FORMAT, r, text, "date", error);
  }
  if (!IsValidJulian(tm.year, tm.mon, tm.mday)) {
    return Fail(error, "22008",
                "date out of range: \"" + std::string(text) + "\"");
  }
  int64_t date = Date2J(tm.year, tm.mon, tm.mday) -
                 static_cast<int64_t>(kPostgresEpochJdate);
  if (!IsValidDate(date)) {
    return Fail(error, "22008",
                "date out of range: \"" + std::string(text) + "\"");
  }
  *out = static_cast<int32_t>(date);
  return true;
}

}  // namespace

bool DateIn(std::string_view text, const TypeContext& context, int32_t* out,
            PgError* error) {
  return DateInImpl(text, context, false, out, error);
}

bool DateInCanonical(std::string_view text, const TypeContext& context,
                     int32_t* out, PgError* error) {
  return DateInImpl(text, context, true, out, error);
}

void DateOut(int32_t date, const TypeContext& context, std::string* out) {
  if (date == kDateNoBegin) {
    out->append("-infinity");
    return;
  }
  if (date == kDateNoEnd) {
    out->append("infinity");
    return;
  }
  Tm tm;
  J2Date(date + kPostgresEpochJdate, &tm.year, &tm.mon, &tm.mday);
  EncodeDateOnly(tm, GetStyles(context), out);
}

bool CheckDateRecv(int32_t date, PgError* error) {
  if (date == kDateNoBegin || date == kDateNoEnd) return true;
  if (!IsValidDate(date)) return Fail(error, "22008", "date out of range");
  return true;
}

// --- time ---

namespace {

const int64_t kScales[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};
const int64_t kOffsets[7] = {500000, 50000, 5000, 500, 50, 5, 0};

}  // namespace

bool AdjustTimeForTypmod(int64_t* time, int32_t typmod, PgError* error) {
  if (typmod >= 0 && typmod <= 6) {
    *time = ((*time + kOffsets[typmod]) / kScales[typmod]) * kScales[typmod];
  }
  return true;
}

bool TimeIn(std::string_view text, int32_t typmod, const TypeContext& context,
            int64_t* out, PgError* error) {
  Styles st = GetStyles(context);
  Fields f;
  Tm tm;
  int fsec;
  DecodeResult r;
  r.now_us = context.now_us;
  r.now_zone = ZoneOf(context);
  int dterr = ParseDateTime(text, &f);
  if (dterr == 0) dterr = DecodeTimeOnly(&f, &tm, &fsec, &r, st.order);
  if (dterr != 0) return ReportDateTimeError(dterr, r, text, "time", error);
  int64_t result =
      ((((static_cast<int64_t>(tm.hour) * 60 + tm.min) * 60) + tm.sec) *
       kUsecsPerSec) +
      fsec;
  AdjustTimeForTypmod(&result, typmod, error);
  *out = result;
  return true;
}

void TimeOut(int64_t time, std::string* out) {
  Tm tm;
  int fsec;
  Dt2Time(time, &tm.hour, &tm.min, &tm.sec, &fsec);
  AppendHms(out, tm, fsec);
}

bool CheckTimeRecv(int64_t time, PgError* error) {
  if (time < 0 || time > kUsecsPerDay) {
    return Fail(error, "22008", "time out of range");
  }
  return true;
}

// --- timestamp / timestamptz ---

bool AdjustTimestampForTypmod(int64_t* ts, int32_t typmod, PgError* error) {
  if (*ts == kTimestampNoBegin || *ts == kTimestampNoEnd) return true;
  if (typmod != -1 && typmod != 6) {
    if (typmod < 0 || typmod > 6) {
      return Fail(error, "22023",
                  "timestamp(" + std::to_string(typmod) +
                      ") precision must be between 0 and 6");
    }
    if (*ts >= 0) {
      *ts = ((*ts + kOffsets[typmod]) / kScales[typmod]) * kScales[typmod];
    } else {
      *ts =
          -((((-*ts) + kOffsets[typmod]) / kScales[typmod]) * kScales[typmod]);
    }
  }
  return true;
}

namespace {

bool TimestampInImpl(std::string_view text, int32_t typmod, bool with_tz,
                     const TypeContext& context, bool canonical, int64_t* out,
                     PgError* error) {
  const char* type_name = with_tz ? "timestamp with time zone" : "timestamp";
  const tz::Zone* zone = with_tz ? ZoneOf(context) : nullptr;
  {
    Tm tm;
    int fsec, tz;
    bool has_tz;
    if (FastParseIso(text, false, &tm, &fsec, &has_tz, &tz)) {
      if (with_tz && !has_tz) tz = DetermineTimeZoneOffset(&tm, zone, nullptr);
      int64_t result;
      if (Tm2Timestamp(tm, fsec, with_tz ? &tz : nullptr, &result) == 0 &&
          AdjustTimestampForTypmod(&result, typmod, error)) {
        *out = result;
        return true;
      }
    }
  }
  Styles st = GetStyles(context);
  Fields f;
  Tm tm;
  int fsec;
  DecodeResult r;
  r.now_us = context.now_us;
  r.now_zone = ZoneOf(context);
  int dterr = ParseDateTime(text, &f);
  if (dterr == 0) {
    dterr = DecodeDateTime(&f, &tm, &fsec, &r, zone, with_tz,
                           canonical ? CanonicalOrder(st) : st.order,
                           canonical && st.style != kStyleIso ? zone : nullptr);
  }
  if (dterr != 0) return ReportDateTimeError(dterr, r, text, type_name, error);
  int64_t result;
  switch (r.dtype) {
    case DTK_DATE:
      if (Tm2Timestamp(tm, fsec, with_tz ? &r.tz : nullptr, &result) != 0) {
        return Fail(error, "22008",
                    "timestamp out of range: \"" + std::string(text) + "\"");
      }
      break;
    case DTK_EPOCH:
      result = -static_cast<int64_t>(kPostgresEpochJdate - kUnixEpochJdate) *
               kUsecsPerDay;
      break;
    case DTK_LATE:
      result = kTimestampNoEnd;
      break;
    case DTK_EARLY:
      result = kTimestampNoBegin;
      break;
    default:
      return ReportDateTimeError(DTERR_BAD_FORMAT, r, text, type_name, error);
  }
  if (!AdjustTimestampForTypmod(&result, typmod, error)) return false;
  *out = result;
  return true;
}

}  // namespace

bool TimestampIn(std::string_view text, int32_t typmod, bool with_tz,
                 const TypeContext& context, int64_t* out, PgError* error) {
  return TimestampInImpl(text, typmod, with_tz, context, false, out, error);
}

bool TimestampInCanonical(std::string_view text, bool with_tz,
                          const TypeContext& context, int64_t* out,
                          PgError* error) {
  return TimestampInImpl(text, -1, with_tz, context, true, out, error);
}

bool TimestampOut(int64_t ts, bool with_tz, const TypeContext& context,
                  std::string* out, PgError* error) {
  if (ts == kTimestampNoBegin) {
    out->append("-infinity");
    return true;
  }
  if (ts == kTimestampNoEnd) {
    out->append("infinity");
    return true;
  }
  Tm tm;
  int fsec;
  int tz = 0;
  if (Timestamp2Tm(ts, with_tz ? ZoneOf(context) : nullptr, &tz, &tm, &fsec) !=
      0) {
    return Fail(error, "22008", "timestamp out of range");
  }
  EncodeDateTime(&tm, fsec, with_tz, tz, with_tz ? tm.zone : nullptr,
                 GetStyles(context), out);
  return true;
}

bool CheckTimestampRecv(int64_t ts, PgError* error) {
  if (ts == kTimestampNoBegin || ts == kTimestampNoEnd) return true;
  Tm tm;
  int fsec;
  int tz;
  if (Timestamp2Tm(ts, nullptr, &tz, &tm, &fsec) != 0 ||
      !IsValidTimestamp(ts)) {
    return Fail(error, "22008", "timestamp out of range");
  }
  return true;
}

// --- interval ---

namespace {

struct ItmIn {
  int64_t usec = 0;
  int mday = 0;
  int mon = 0;
  int year = 0;
};

bool AdjustFractMicroseconds(double frac, int64_t scale, ItmIn* itm) {
  if (frac == 0) return true;
  frac *= scale;
  int64_t usec = static_cast<int64_t>(frac);
  frac -= usec;
  if (frac > 0.5) {
    usec++;
  } else if (frac < -0.5) {
    usec--;
  }
  return !__builtin_add_overflow(itm->usec, usec, &itm->usec);
}

bool AdjustFractDays(double frac, int scale, ItmIn* itm) {
  if (frac == 0) return true;
  frac *= scale;
  int extra_days = static_cast<int>(frac);
  if (__builtin_add_overflow(itm->mday, extra_days, &itm->mday)) return false;
  frac -= extra_days;
  return AdjustFractMicroseconds(frac, kUsecsPerDay, itm);
}

bool AdjustFractYears(double frac, int scale, ItmIn* itm) {
  int extra_months = static_cast<int>(std::rint(frac * scale * kMonthsPerYear));
  return !__builtin_add_overflow(itm->mon, extra_months, &itm->mon);
}

bool MultiplyAdd(int64_t val, int64_t multiplier, int64_t* sum) {
  int64_t product;
  return !__builtin_mul_overflow(val, multiplier, &product) &&
         !__builtin_add_overflow(*sum, product, sum);
}

bool AdjustMicroseconds(int64_t val, double fval, int64_t scale, ItmIn* itm) {
  if (!MultiplyAdd(val, scale, &itm->usec)) return false;
  return AdjustFractMicroseconds(fval, scale, itm);
}

bool AdjustDays(int64_t val, int scale, ItmIn* itm) {
  if (val < INT_MIN || val > INT_MAX) return false;
  int days;
  return !__builtin_mul_overflow(static_cast<int>(val), scale, &days) &&
         !__builtin_add_overflow(itm->mday, days, &itm->mday);
}

bool AdjustMonths(int64_t val, ItmIn* itm) {
  if (val < INT_MIN || val > INT_MAX) return false;
  return !__builtin_add_overflow(itm->mon, static_cast<int>(val), &itm->mon);
}

bool AdjustYears(int64_t val, int scale, ItmIn* itm) {
  if (val < INT_MIN || val > INT_MAX) return false;
  int years;
  return !__builtin_mul_overflow(static_cast<int>(val), scale, &years) &&
         !__builtin_add_overflow(itm->year, years, &itm->year);
}

int DecodeTimeForInterval(char* str, int range, int* tmask, ItmIn* itm_in) {
  Itm itm;
  int dterr = DecodeTimeCommon(str, range, tmask, &itm);
  if (dterr) return dterr;
  itm_in->usec = itm.usec;
  if (!MultiplyAdd(itm.hour, kUsecsPerHour, &itm_in->usec) ||
      !MultiplyAdd(itm.min, kUsecsPerMinute, &itm_in->usec) ||
      !MultiplyAdd(itm.sec, kUsecsPerSec, &itm_in->usec)) {
    return DTERR_FIELD_OVERFLOW;
  }
  return 0;
}

int DecodeInterval(Fields* f, int range, IntervalStyle style, ItmIn* itm_in) {
  bool force_negative = false;
  bool is_before = false;
  char* cp;
  int fmask = 0, tmask, type, uval;
  int dterr;
  int64_t val;
  double fval;
  char** field = f->field;
  int* ftype = f->ftype;
  int nf = f->nf;
  type = IGNORE_DTF;
  *itm_in = ItmIn();

  if (style == kIntSqlStandard && nf > 0 && *field[0] == '-') {
    force_negative = true;
    for (int i = 1; i < nf; ++i) {
      if (*field[i] == '-' || *field[i] == '+') {
        force_negative = false;
        break;
      }
    }
  }

  for (int i = nf - 1; i >= 0; --i) {
    switch (ftype[i]) {
      case DTK_TIME:
        dterr = DecodeTimeForInterval(field[i], range, &tmask, itm_in);
        if (dterr) return dterr;
        if (force_negative && itm_in->usec > 0) itm_in->usec = -itm_in->usec;
        type = DTK_DAY;
        break;

      case DTK_TZ:
        if (std::strchr(field[i] + 1, ':') != nullptr &&
            DecodeTimeForInterval(field[i] + 1, range, &tmask, itm_in) == 0) {
          if (*field[i] == '-') {
            if (itm_in->usec == INT64_MIN) return DTERR_FIELD_OVERFLOW;
            itm_in->usec = -itm_in->usec;
          }
          if (force_negative && itm_in->usec > 0) itm_in->usec = -itm_in->usec;
          type = DTK_DAY;
          break;
        }
        [[fallthrough]];
      case DTK_DATE:
      case DTK_NUMBER:
        if (type == IGNORE_DTF) {
          switch (range) {
            case Mask(YEAR):
              type = DTK_YEAR;
              break;
            case Mask(MONTH):
            case Mask(YEAR) | Mask(MONTH):
              type = DTK_MONTH;
              break;
            case Mask(DAY):
              type = DTK_DAY;
              break;
            case Mask(HOUR):
            case Mask(DAY) | Mask(HOUR):
              type = DTK_HOUR;
              break;
            case Mask(MINUTE):
            case Mask(HOUR) | Mask(MINUTE):
            case Mask(DAY) | Mask(HOUR) | Mask(MINUTE):
              type = DTK_MINUTE;
              break;
            case Mask(SECOND):
            case Mask(MINUTE) | Mask(SECOND):
            case Mask(HOUR) | Mask(MINUTE) | Mask(SECOND):
            case Mask(DAY) | Mask(HOUR) | Mask(MINUTE) | Mask(SECOND):
              type = DTK_SECOND;
              break;
            default:
              type = DTK_SECOND;
              break;
          }
        }
        errno = 0;
        val = std::strtoll(field[i], &cp, 10);
        if (errno == ERANGE) return DTERR_FIELD_OVERFLOW;
        if (*cp == '-') {
          int val2 = StrToInt(cp + 1, &cp);
          if (errno == ERANGE || val2 < 0 || val2 >= kMonthsPerYear) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (*cp != '\0') return DTERR_BAD_FORMAT;
          type = DTK_MONTH;
          if (*field[i] == '-') val2 = -val2;
          if (__builtin_mul_overflow(val, kMonthsPerYear, &val)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (__builtin_add_overflow(val, val2, &val)) {
            return DTERR_FIELD_OVERFLOW;
          }
          fval = 0;
        } else if (*cp == '.') {
          dterr = ParseFraction(cp, &fval);
          if (dterr) return dterr;
          if (*field[i] == '-') fval = -fval;
        } else if (*cp == '\0') {
          fval = 0;
        } else {
          return DTERR_BAD_FORMAT;
        }
        tmask = 0;
        if (force_negative) {
          if (val > 0) val = -val;
          if (fval > 0) fval = -fval;
        }
        switch (type) {
          case DTK_MICROSEC:
            if (!AdjustMicroseconds(val, fval, 1, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(MICROSECOND);
            break;
          case DTK_MILLISEC:
            if (!AdjustMicroseconds(val, fval, 1000, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(MILLISECOND);
            break;
          case DTK_SECOND:
            if (!AdjustMicroseconds(val, fval, kUsecsPerSec, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = fval == 0 ? Mask(SECOND) : kAllSecsMask;
            break;
          case DTK_MINUTE:
            if (!AdjustMicroseconds(val, fval, kUsecsPerMinute, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(MINUTE);
            break;
          case DTK_HOUR:
            if (!AdjustMicroseconds(val, fval, kUsecsPerHour, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(HOUR);
            type = DTK_DAY;
            break;
          case DTK_DAY:
            if (!AdjustDays(val, 1, itm_in) ||
                !AdjustFractMicroseconds(fval, kUsecsPerDay, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(DAY);
            break;
          case DTK_WEEK:
            if (!AdjustDays(val, 7, itm_in) ||
                !AdjustFractDays(fval, 7, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(WEEK);
            break;
          case DTK_MONTH:
            if (!AdjustMonths(val, itm_in) ||
                !AdjustFractDays(fval, kDaysPerMonth, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(MONTH);
            break;
          case DTK_YEAR:
            if (!AdjustYears(val, 1, itm_in) ||
                !AdjustFractYears(fval, 1, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(YEAR);
            break;
          case DTK_DECADE:
            if (!AdjustYears(val, 10, itm_in) ||
                !AdjustFractYears(fval, 10, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(DECADE);
            break;
          case DTK_CENTURY:
            if (!AdjustYears(val, 100, itm_in) ||
                !AdjustFractYears(fval, 100, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(CENTURY);
            break;
          case DTK_MILLENNIUM:
            if (!AdjustYears(val, 1000, itm_in) ||
                !AdjustFractYears(fval, 1000, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            tmask = Mask(MILLENNIUM);
            break;
          default:
            return DTERR_BAD_FORMAT;
        }
        break;

      case DTK_STRING:
      case DTK_SPECIAL:
        type = DecodeUnits(field[i], &uval);
        if (type == IGNORE_DTF) continue;
        tmask = 0;
        switch (type) {
          case UNITS:
            type = uval;
            break;
          case AGO:
            is_before = true;
            type = uval;
            break;
          default:
            return DTERR_BAD_FORMAT;
        }
        break;

      default:
        return DTERR_BAD_FORMAT;
    }
    if (tmask & fmask) return DTERR_BAD_FORMAT;
    fmask |= tmask;
  }

  if (fmask == 0) return DTERR_BAD_FORMAT;

  if (is_before) {
    if (itm_in->usec == INT64_MIN || itm_in->mday == INT_MIN ||
        itm_in->mon == INT_MIN || itm_in->year == INT_MIN) {
      return DTERR_FIELD_OVERFLOW;
    }
    itm_in->usec = -itm_in->usec;
    itm_in->mday = -itm_in->mday;
    itm_in->mon = -itm_in->mon;
    itm_in->year = -itm_in->year;
  }
  return 0;
}

int ParseISO8601Number(char* str, char** endptr, int64_t* ipart,
                       double* fpart) {
  if (!(IsDigit(*str) || *str == '-' || *str == '.')) return DTERR_BAD_FORMAT;
  errno = 0;
  double val = std::strtod(str, endptr);
  if (*endptr == str || errno != 0) return DTERR_BAD_FORMAT;
  if (std::isnan(val) || val < -1.0e15 || val > 1.0e15) {
    return DTERR_FIELD_OVERFLOW;
  }
  if (val >= 0) {
    *ipart = static_cast<int64_t>(std::floor(val));
  } else {
    *ipart = static_cast<int64_t>(-std::floor(-val));
  }
  *fpart = val - *ipart;
  return 0;
}

int ISO8601IntegerWidth(const char* fieldstart) {
  if (*fieldstart == '-') fieldstart++;
  return static_cast<int>(std::strspn(fieldstart, "0123456789"));
}

int DecodeISO8601Interval(char* str, ItmIn* itm_in) {
  bool datepart = true;
  bool havefield = false;
  *itm_in = ItmIn();
  if (std::strlen(str) < 2 || str[0] != 'P') return DTERR_BAD_FORMAT;
  str++;
  while (*str) {
    char* fieldstart;
    int64_t val;
    double fval;
    char unit;
    int dterr;
    if (*str == 'T') {
      datepart = false;
      havefield = false;
      str++;
      continue;
    }
    fieldstart = str;
    dterr = ParseISO8601Number(str, &str, &val, &fval);
    if (dterr) return dterr;
    unit = *str++;
    if (datepart) {
      switch (unit) {
        case 'Y':
          if (!AdjustYears(val, 1, itm_in) ||
              !AdjustFractYears(fval, 1, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case 'M':
          if (!AdjustMonths(val, itm_in) ||
              !AdjustFractDays(fval, kDaysPerMonth, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case 'W':
          if (!AdjustDays(val, 7, itm_in) ||
              !AdjustFractDays(fval, 7, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case 'D':
          if (!AdjustDays(val, 1, itm_in) ||
              !AdjustFractMicroseconds(fval, kUsecsPerDay, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case 'T':
        case '\0':
          if (ISO8601IntegerWidth(fieldstart) == 8 && !havefield) {
            if (!AdjustYears(val / 10000, 1, itm_in) ||
                !AdjustMonths((val / 100) % 100, itm_in) ||
                !AdjustDays(val % 100, 1, itm_in) ||
                !AdjustFractMicroseconds(fval, kUsecsPerDay, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            if (unit == '\0') return 0;
            datepart = false;
            havefield = false;
            continue;
          }
          [[fallthrough]];
        case '-':
          if (havefield) return DTERR_BAD_FORMAT;
          if (!AdjustYears(val, 1, itm_in) ||
              !AdjustFractYears(fval, 1, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (unit == '\0') return 0;
          if (unit == 'T') {
            datepart = false;
            havefield = false;
            continue;
          }
          dterr = ParseISO8601Number(str, &str, &val, &fval);
          if (dterr) return dterr;
          if (!AdjustMonths(val, itm_in) ||
              !AdjustFractDays(fval, kDaysPerMonth, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (*str == '\0') return 0;
          if (*str == 'T') {
            datepart = false;
            havefield = false;
            continue;
          }
          if (*str != '-') return DTERR_BAD_FORMAT;
          str++;
          dterr = ParseISO8601Number(str, &str, &val, &fval);
          if (dterr) return dterr;
          if (!AdjustDays(val, 1, itm_in) ||
              !AdjustFractMicroseconds(fval, kUsecsPerDay, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (*str == '\0') return 0;
          if (*str == 'T') {
            datepart = false;
            havefield = false;
            continue;
          }
          return DTERR_BAD_FORMAT;
        default:
          return DTERR_BAD_FORMAT;
      }
    } else {
      switch (unit) {
        case 'H':
          if (!AdjustMicroseconds(val, fval, kUsecsPerHour, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case 'M':
          if (!AdjustMicroseconds(val, fval, kUsecsPerMinute, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case 'S':
          if (!AdjustMicroseconds(val, fval, kUsecsPerSec, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          break;
        case '\0':
          if (ISO8601IntegerWidth(fieldstart) == 6 && !havefield) {
            if (!AdjustMicroseconds(val / 10000, 0, kUsecsPerHour, itm_in) ||
                !AdjustMicroseconds((val / 100) % 100, 0, kUsecsPerMinute,
                                    itm_in) ||
                !AdjustMicroseconds(val % 100, 0, kUsecsPerSec, itm_in) ||
                !AdjustFractMicroseconds(fval, 1, itm_in)) {
              return DTERR_FIELD_OVERFLOW;
            }
            return 0;
          }
          [[fallthrough]];
        case ':':
          if (havefield) return DTERR_BAD_FORMAT;
          if (!AdjustMicroseconds(val, fval, kUsecsPerHour, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (unit == '\0') return 0;
          dterr = ParseISO8601Number(str, &str, &val, &fval);
          if (dterr) return dterr;
          if (!AdjustMicroseconds(val, fval, kUsecsPerMinute, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (*str == '\0') return 0;
          if (*str != ':') return DTERR_BAD_FORMAT;
          str++;
          dterr = ParseISO8601Number(str, &str, &val, &fval);
          if (dterr) return dterr;
          if (!AdjustMicroseconds(val, fval, kUsecsPerSec, itm_in)) {
            return DTERR_FIELD_OVERFLOW;
          }
          if (*str == '\0') return 0;
          return DTERR_BAD_FORMAT;
        default:
          return DTERR_BAD_FORMAT;
      }
    }
    havefield = true;
  }
  return 0;
}

int IntervalRange(int32_t typmod) { return (typmod >> 16) & 0x7FFF; }
int IntervalPrecision(int32_t typmod) { return typmod & 0xFFFF; }

void AddPostgresIntPart(std::string* out, int64_t value, const char* units,
                        bool* is_zero, bool* is_before) {
  if (value == 0) return;
  if (!*is_zero) out->push_back(' ');
  if (*is_before && value > 0) out->push_back('+');
  util::AppendInt(out, value);
  out->push_back(' ');
  out->append(units);
  if (value != 1) out->push_back('s');
  *is_before = (value < 0);
  *is_zero = false;
}

void AddVerboseIntPart(std::string* out, int64_t value, const char* units,
                       bool* is_zero, bool* is_before) {
  if (value == 0) return;
  if (*is_zero) {
    *is_before = (value < 0);
    value = value < 0 ? -value : value;
  } else if (*is_before) {
    value = -value;
  }
  out->push_back(' ');
  util::AppendInt(out, value);
  out->push_back(' ');
  out->append(units);
  if (value != 1) out->push_back('s');
  *is_zero = false;
}

void AddIso8601IntPart(std::string* out, int64_t value, char units) {
  if (value == 0) return;
  util::AppendInt(out, value);
  out->push_back(units);
}

}  // namespace

bool AdjustIntervalForTypmod(Interval* interval, int32_t typmod,
                             PgError* error) {
  if (typmod < 0) return true;
  int range = IntervalRange(typmod);
  int precision = IntervalPrecision(typmod);
  if (range == kIntervalFullRange) {
    // nothing
  } else if (range == Mask(YEAR)) {
    interval->month = (interval->month / kMonthsPerYear) * kMonthsPerYear;
    interval->day = 0;
    interval->time = 0;
  } else if (range == Mask(MONTH) || range == (Mask(YEAR) | Mask(MONTH))) {
    interval->day = 0;
    interval->time = 0;
  } else if (range == Mask(DAY)) {
    interval->time = 0;
  } else if (range == Mask(HOUR) || range == (Mask(DAY) | Mask(HOUR))) {
    interval->time = (interval->time / kUsecsPerHour) * kUsecsPerHour;
  } else if (range == Mask(MINUTE) ||
             range == (Mask(DAY) | Mask(HOUR) | Mask(MINUTE)) ||
             range == (Mask(HOUR) | Mask(MINUTE))) {
    interval->time = (interval->time / kUsecsPerMinute) * kUsecsPerMinute;
  } else if (range == Mask(SECOND) ||
             range == (Mask(DAY) | Mask(HOUR) | Mask(MINUTE) | Mask(SECOND)) ||
             range == (Mask(HOUR) | Mask(MINUTE) | Mask(SECOND)) ||
             range == (Mask(MINUTE) | Mask(SECOND))) {
    // fractional-second rounding below
  } else {
    return Fail(error, "XX000",
                "unrecognized interval typmod: " + std::to_string(typmod));
  }
  if (precision != kIntervalFullPrecision) {
    if (precision < 0 || precision > 6) {
      return Fail(error, "22023",
                  "interval(" + std::to_string(precision) +
                      ") precision must be between 0 and 6");
    }
    if (interval->time >= 0) {
      interval->time =
          ((interval->time + kOffsets[precision]) / kScales[precision]) *
          kScales[precision];
    } else {
      interval->time =
          -(((-interval->time + kOffsets[precision]) / kScales[precision]) *
            kScales[precision]);
    }
  }
  return true;
}

bool IntervalIn(std::string_view text, int32_t typmod,
                const TypeContext& context, Interval* out, PgError* error) {
  Styles st = GetStyles(context);
  int range = typmod >= 0 ? IntervalRange(typmod) : kIntervalFullRange;
  Fields f;
  ItmIn itm;
  DecodeResult r;
  int dterr = ParseDateTime(text, &f);
  if (dterr == 0) dterr = DecodeInterval(&f, range, st.interval, &itm);
  if (dterr == DTERR_BAD_FORMAT) {
    std::string copy(text);
    dterr = DecodeISO8601Interval(copy.data(), &itm);
  }
  if (dterr != 0) {
    if (dterr == DTERR_FIELD_OVERFLOW) dterr = DTERR_INTERVAL_OVERFLOW;
    return ReportDateTimeError(dterr, r, text, "interval", error);
  }
  Interval result;
  int64_t months;
  if (__builtin_mul_overflow(static_cast<int64_t>(itm.year), kMonthsPerYear,
                             &months) ||
      __builtin_add_overflow(months, itm.mon, &months) || months > INT_MAX ||
      months < INT_MIN) {
    return Fail(error, "22008", "interval out of range");
  }
  result.month = static_cast<int32_t>(months);
  result.day = itm.mday;
  result.time = itm.usec;
  if (!AdjustIntervalForTypmod(&result, typmod, error)) return false;
  *out = result;
  return true;
}

void IntervalOut(const Interval& span, const TypeContext& context,
                 std::string* out) {
  Styles st = GetStyles(context);
  int year = span.month / kMonthsPerYear;
  int mon = span.month % kMonthsPerYear;
  int64_t mday = span.day;
  int64_t time = span.time;
  int64_t hour = time / kUsecsPerHour;
  time -= hour * kUsecsPerHour;
  int min = static_cast<int>(time / kUsecsPerMinute);
  time -= static_cast<int64_t>(min) * kUsecsPerMinute;
  int sec = static_cast<int>(time / kUsecsPerSec);
  int fsec = static_cast<int>(time - static_cast<int64_t>(sec) * kUsecsPerSec);
  bool is_before = false;
  bool is_zero = true;
  auto abs64 = [](int64_t v) { return v < 0 ? -v : v; };
  switch (st.interval) {
    case kIntSqlStandard: {
      bool has_negative = year < 0 || mon < 0 || mday < 0 || hour < 0 ||
                          min < 0 || sec < 0 || fsec < 0;
      bool has_positive = year > 0 || mon > 0 || mday > 0 || hour > 0 ||
                          min > 0 || sec > 0 || fsec > 0;
      bool has_year_month = year != 0 || mon != 0;
      bool has_day_time =
          mday != 0 || hour != 0 || min != 0 || sec != 0 || fsec != 0;
      bool has_day = mday != 0;
      bool sql_standard_value =
          !(has_negative && has_positive) && !(has_year_month && has_day_time);
      if (has_negative && sql_standard_value) {
        out->push_back('-');
        year = -year;
        mon = -mon;
        mday = -mday;
        hour = -hour;
        min = -min;
        sec = -sec;
        fsec = -fsec;
      }
      if (!has_negative && !has_positive) {
        out->push_back('0');
      } else if (!sql_standard_value) {
        char year_sign = (year < 0 || mon < 0) ? '-' : '+';
        char day_sign = (mday < 0) ? '-' : '+';
        char sec_sign =
            (hour < 0 || min < 0 || sec < 0 || fsec < 0) ? '-' : '+';
        out->push_back(year_sign);
        util::AppendInt(out, std::abs(year));
        out->push_back('-');
        util::AppendInt(out, std::abs(mon));
        out->push_back(' ');
        out->push_back(day_sign);
        util::AppendInt(out, abs64(mday));
        out->push_back(' ');
        out->push_back(sec_sign);
        util::AppendInt(out, abs64(hour));
        out->push_back(':');
        util::AppendZeroPad(out, std::abs(min), 2);
        out->push_back(':');
        AppendSeconds(out, sec, fsec, 6, true);
      } else if (has_year_month) {
        util::AppendInt(out, year);
        out->push_back('-');
        util::AppendInt(out, mon);
      } else if (has_day) {
        util::AppendInt(out, mday);
        out->push_back(' ');
        util::AppendInt(out, hour);
        out->push_back(':');
        util::AppendZeroPad(out, min, 2);
        out->push_back(':');
        AppendSeconds(out, sec, fsec, 6, true);
      } else {
        util::AppendInt(out, hour);
        out->push_back(':');
        util::AppendZeroPad(out, min, 2);
        out->push_back(':');
        AppendSeconds(out, sec, fsec, 6, true);
      }
      break;
    }
    case kIntIso8601:
      if (year == 0 && mon == 0 && mday == 0 && hour == 0 && min == 0 &&
          sec == 0 && fsec == 0) {
        out->append("PT0S");
        break;
      }
      out->push_back('P');
      AddIso8601IntPart(out, year, 'Y');
      AddIso8601IntPart(out, mon, 'M');
      AddIso8601IntPart(out, mday, 'D');
      if (hour != 0 || min != 0 || sec != 0 || fsec != 0) out->push_back('T');
      AddIso8601IntPart(out, hour, 'H');
      AddIso8601IntPart(out, min, 'M');
      if (sec != 0 || fsec != 0) {
        if (sec < 0 || fsec < 0) out->push_back('-');
        AppendSeconds(out, sec, fsec, 6, false);
        out->push_back('S');
      }
      break;
    case kIntPostgres:
      AddPostgresIntPart(out, year, "year", &is_zero, &is_before);
      AddPostgresIntPart(out, mon, "mon", &is_zero, &is_before);
      AddPostgresIntPart(out, mday, "day", &is_zero, &is_before);
      if (is_zero || hour != 0 || min != 0 || sec != 0 || fsec != 0) {
        bool minus = (hour < 0 || min < 0 || sec < 0 || fsec < 0);
        if (!is_zero) out->push_back(' ');
        if (minus) {
          out->push_back('-');
        } else if (is_before) {
          out->push_back('+');
        }
        util::AppendZeroPad(out, abs64(hour), 2);
        out->push_back(':');
        util::AppendZeroPad(out, std::abs(min), 2);
        out->push_back(':');
        AppendSeconds(out, sec, fsec, 6, true);
      }
      break;
    case kIntPostgresVerbose:
      out->push_back('@');
      AddVerboseIntPart(out, year, "year", &is_zero, &is_before);
      AddVerboseIntPart(out, mon, "mon", &is_zero, &is_before);
      AddVerboseIntPart(out, mday, "day", &is_zero, &is_before);
      AddVerboseIntPart(out, hour, "hour", &is_zero, &is_before);
      AddVerboseIntPart(out, min, "min", &is_zero, &is_before);
      if (sec != 0 || fsec != 0) {
        out->push_back(' ');
        if (sec < 0 || (sec == 0 && fsec < 0)) {
          if (is_zero) {
            is_before = true;
          } else if (!is_before) {
            out->push_back('-');
          }
        } else if (is_before) {
          out->push_back('-');
        }
        AppendSeconds(out, sec, fsec, 6, false);
        out->append(" sec");
        if (std::abs(sec) != 1 || fsec != 0) out->push_back('s');
        is_zero = false;
      }
      if (is_zero) out->append(" 0");
      if (is_before) out->append(" ago");
      break;
  }
}

bool IntervalTypmodSuffix(int32_t typmod, std::string* out) {
  if (typmod < 0) return true;
  int fields = IntervalRange(typmod);
  int precision = IntervalPrecision(typmod);
  const char* fieldstr;
  switch (fields) {
    case Mask(YEAR):
      fieldstr = " year";
      break;
    case Mask(MONTH):
      fieldstr = " month";
      break;
    case Mask(DAY):
      fieldstr = " day";
      break;
    case Mask(HOUR):
      fieldstr = " hour";
      break;
    case Mask(MINUTE):
      fieldstr = " minute";
      break;
    case Mask(SECOND):
      fieldstr = " second";
      break;
    case Mask(YEAR) | Mask(MONTH):
      fieldstr = " year to month";
      break;
    case Mask(DAY) | Mask(HOUR):
      fieldstr = " day to hour";
      break;
    case Mask(DAY) | Mask(HOUR) | Mask(MINUTE):
      fieldstr = " day to minute";
      break;
    case Mask(DAY) | Mask(HOUR) | Mask(MINUTE) | Mask(SECOND):
      fieldstr = " day to second";
      break;
    case Mask(HOUR) | Mask(MINUTE):
      fieldstr = " hour to minute";
      break;
    case Mask(HOUR) | Mask(MINUTE) | Mask(SECOND):
      fieldstr = " hour to second";
      break;
    case Mask(MINUTE) | Mask(SECOND):
      fieldstr = " minute to second";
      break;
    case kIntervalFullRange:
      fieldstr = "";
      break;
    default:
      return false;
  }
  out->append(fieldstr);
  if (precision != kIntervalFullPrecision) {
    out->push_back('(');
    util::AppendInt(out, precision);
    out->push_back(')');
  }
  return true;
}

// --- casts ---

bool DateToTimestamp(int32_t date, int64_t* out, PgError* error) {
  if (date == kDateNoBegin) {
    *out = kTimestampNoBegin;
  } else if (date == kDateNoEnd) {
    *out = kTimestampNoEnd;
  } else {
    if (date >= (kTimestampEndJulian - kPostgresEpochJdate)) {
      return Fail(error, "22008", "date out of range for timestamp");
    }
    *out = static_cast<int64_t>(date) * kUsecsPerDay;
  }
  return true;
}

bool DateToTimestamptz(int32_t date, const TypeContext& context, int64_t* out,
                       PgError* error) {
  if (date == kDateNoBegin) {
    *out = kTimestampNoBegin;
    return true;
  }
  if (date == kDateNoEnd) {
    *out = kTimestampNoEnd;
    return true;
  }
  if (date >= (kTimestampEndJulian - kPostgresEpochJdate)) {
    return Fail(error, "22008", "date out of range for timestamp");
  }
  Tm tm;
  J2Date(date + kPostgresEpochJdate, &tm.year, &tm.mon, &tm.mday);
  tm.hour = 0;
  tm.min = 0;
  tm.sec = 0;
  int tz = DetermineTimeZoneOffset(&tm, ZoneOf(context), nullptr);
  int64_t result = static_cast<int64_t>(date) * kUsecsPerDay +
                   static_cast<int64_t>(tz) * kUsecsPerSec;
  if (!IsValidTimestamp(result)) {
    return Fail(error, "22008", "date out of range for timestamp");
  }
  *out = result;
  return true;
}

bool TimestampToDate(int64_t ts, int32_t* out, PgError* error) {
  if (ts == kTimestampNoBegin) {
    *out = kDateNoBegin;
    return true;
  }
  if (ts == kTimestampNoEnd) {
    *out = kDateNoEnd;
    return true;
  }
  Tm tm;
  int fsec, tz;
  if (Timestamp2Tm(ts, nullptr, &tz, &tm, &fsec) != 0) {
    return Fail(error, "22008", "timestamp out of range");
  }
  *out = Date2J(tm.year, tm.mon, tm.mday) - kPostgresEpochJdate;
  return true;
}

bool TimestamptzToDate(int64_t ts, const TypeContext& context, int32_t* out,
                       PgError* error) {
  if (ts == kTimestampNoBegin) {
    *out = kDateNoBegin;
    return true;
  }
  if (ts == kTimestampNoEnd) {
    *out = kDateNoEnd;
    return true;
  }
  Tm tm;
  int fsec, tz;
  if (Timestamp2Tm(ts, ZoneOf(context), &tz, &tm, &fsec) != 0) {
    return Fail(error, "22008", "timestamp out of range");
  }
  *out = Date2J(tm.year, tm.mon, tm.mday) - kPostgresEpochJdate;
  return true;
}

bool TimestampToTimestamptz(int64_t ts, const TypeContext& context,
                            int64_t* out, PgError* error) {
  if (ts == kTimestampNoBegin || ts == kTimestampNoEnd) {
    *out = ts;
    return true;
  }
  Tm tm;
  int fsec, tzv;
  if (Timestamp2Tm(ts, nullptr, &tzv, &tm, &fsec) == 0) {
    int tz = DetermineTimeZoneOffset(&tm, ZoneOf(context), nullptr);
    int64_t result = ts + static_cast<int64_t>(tz) * kUsecsPerSec;
    if (IsValidTimestamp(result)) {
      *out = result;
      return true;
    }
  }
  return Fail(error, "22008", "timestamp out of range");
}

bool TimestamptzToTimestamp(int64_t ts, const TypeContext& context,
                            int64_t* out, PgError* error) {
  if (ts == kTimestampNoBegin || ts == kTimestampNoEnd) {
    *out = ts;
    return true;
  }
  Tm tm;
  int fsec, tz;
  if (Timestamp2Tm(ts, ZoneOf(context), &tz, &tm, &fsec) != 0 ||
      Tm2Timestamp(tm, fsec, nullptr, out) != 0) {
    return Fail(error, "22008", "timestamp out of range");
  }
  return true;
}

bool TimestampToTime(int64_t ts, int64_t* out, PgError* error) {
  if (ts == kTimestampNoBegin || ts == kTimestampNoEnd) {
    return Fail(error, "22008", "timestamp out of range");
  }
  Tm tm;
  int fsec, tz;
  if (Timestamp2Tm(ts, nullptr, &tz, &tm, &fsec) != 0) {
    return Fail(error, "22008", "timestamp out of range");
  }
  *out = ((((static_cast<int64_t>(tm.hour) * 60 + tm.min) * 60) + tm.sec) *
          kUsecsPerSec) +
         fsec;
  return true;
}

bool TimestamptzToTime(int64_t ts, const TypeContext& context, int64_t* out,
                       PgError* error) {
  if (ts == kTimestampNoBegin || ts == kTimestampNoEnd) {
    return Fail(error, "22008", "timestamp out of range");
  }
  Tm tm;
  int fsec, tz;
  if (Timestamp2Tm(ts, ZoneOf(context), &tz, &tm, &fsec) != 0) {
    return Fail(error, "22008", "timestamp out of range");
  }
  *out = ((((static_cast<int64_t>(tm.hour) * 60 + tm.min) * 60) + tm.sec) *
          kUsecsPerSec) +
         fsec;
  return true;
}

void IntervalToTime(const Interval& span, int64_t* out) {
  int64_t result = span.time;
  if (result >= kUsecsPerDay) {
    int64_t days = result / kUsecsPerDay;
    result -= days * kUsecsPerDay;
  } else if (result < 0) {
    int64_t days = (-result + kUsecsPerDay - 1) / kUsecsPerDay;
    result += days * kUsecsPerDay;
  }
  *out = result;
}

}  // namespace kova::planner::types::dt
