// date, time, timestamp, timestamptz and interval as PostgreSQL 15: the
// input parser (ParseDateTime/DecodeDateTime/DecodeTimeOnly/DecodeInterval
// and the ISO 8601 interval forms), output under DateStyle/IntervalStyle,
// type modifiers, and the casts among them.
//
// Internal representations are PostgreSQL's: date = days since 2000-01-01,
// time = microseconds since midnight, timestamp(tz) = microseconds since
// 2000-01-01 00:00:00 (UTC for timestamptz), interval = (time, day, month).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "planner/planner.h"
#include "planner/types.h"

namespace kova::planner::types::tz {
class Zone;
}  // namespace kova::planner::types::tz

namespace kova::planner::types::dt {

constexpr int64_t kUsecsPerSec = 1000000;
constexpr int64_t kUsecsPerDay = 86400 * kUsecsPerSec;
constexpr int32_t kDateNoBegin = INT32_MIN;
constexpr int32_t kDateNoEnd = INT32_MAX;
constexpr int64_t kTimestampNoBegin = INT64_MIN;
constexpr int64_t kTimestampNoEnd = INT64_MAX;

struct Interval {
  int64_t time = 0;  // microseconds
  int32_t day = 0;
  int32_t month = 0;
};

bool DateIn(std::string_view text, const TypeContext& context, int32_t* out,
            PgError* error);
// Reads back text this module printed under `context` (DateOut /
// TimestampOut), also in the SQL, Postgres and German styles whose output
// the ordinary input rules would misread: the field order follows the
// output style, and zone abbreviations of the session zone (LMT, IST, ...)
// are resolved in that zone.
bool DateInCanonical(std::string_view text, const TypeContext& context,
                     int32_t* out, PgError* error);
bool TimestampInCanonical(std::string_view text, bool with_tz,
                          const TypeContext& context, int64_t* out,
                          PgError* error);
void DateOut(int32_t date, const TypeContext& context, std::string* out);

bool TimeIn(std::string_view text, int32_t typmod, const TypeContext& context,
            int64_t* out, PgError* error);
void TimeOut(int64_t time, std::string* out);

// with_tz: timestamptz (the offset is applied; output in the session zone).
bool TimestampIn(std::string_view text, int32_t typmod, bool with_tz,
                 const TypeContext& context, int64_t* out, PgError* error);
bool TimestampOut(int64_t ts, bool with_tz, const TypeContext& context,
                  std::string* out, PgError* error);

bool IntervalIn(std::string_view text, int32_t typmod,
                const TypeContext& context, Interval* out, PgError* error);
void IntervalOut(const Interval& interval, const TypeContext& context,
                 std::string* out);

// Type modifiers (precision rounding; interval fields).
bool AdjustTimestampForTypmod(int64_t* ts, int32_t typmod, PgError* error);
bool AdjustTimeForTypmod(int64_t* time, int32_t typmod, PgError* error);
bool AdjustIntervalForTypmod(Interval* interval, int32_t typmod,
                             PgError* error);

// Binary receive range checks (date_recv, timestamp_recv, time_recv).
bool CheckDateRecv(int32_t date, PgError* error);
bool CheckTimestampRecv(int64_t ts, PgError* error);
bool CheckTimeRecv(int64_t time, PgError* error);

// Casts.
bool DateToTimestamp(int32_t date, int64_t* out, PgError* error);
bool DateToTimestamptz(int32_t date, const TypeContext& context, int64_t* out,
                       PgError* error);
bool TimestampToDate(int64_t ts, int32_t* out, PgError* error);
bool TimestamptzToDate(int64_t ts, const TypeContext& context, int32_t* out,
                       PgError* error);
bool TimestampToTimestamptz(int64_t ts, const TypeContext& context,
                            int64_t* out, PgError* error);
bool TimestamptzToTimestamp(int64_t ts, const TypeContext& context,
                            int64_t* out, PgError* error);
// PostgreSQL returns NULL for an infinite timestamp; these fail with 22008.
bool TimestampToTime(int64_t ts, int64_t* out, PgError* error);
bool TimestamptzToTime(int64_t ts, const TypeContext& context, int64_t* out,
                       PgError* error);
void IntervalToTime(const Interval& interval, int64_t* out);

// FormatTypeName helper: the interval typmod suffix (" day to second(3)").
bool IntervalTypmodSuffix(int32_t typmod, std::string* out);

// ---- Calendar internals (PostgreSQL's datetime.c / timestamp.c helpers),
// for the date/time functions and operators of the expression layer. ----

constexpr int kPostgresEpochJdate = 2451545;
constexpr int kUnixEpochJdate = 2440588;

struct Tm {
  int year = 0;
  int mon = 0;
  int mday = 0;
  int hour = 0;
  int min = 0;
  int sec = 0;
  int isdst = -1;
  int yday = 0;
  int wday = 0;
  int64_t gmtoff = 0;
  const char* zone = nullptr;
};

int Date2J(int year, int month, int day);
void J2Date(int jd, int* year, int* month, int* day);
int J2Day(int date);  // day of the week, 0 = Sunday
bool IsLeap(int y);
bool IsValidJulian(int y, int m, int d);
bool IsValidDate(int64_t d);
bool IsValidTimestamp(int64_t t);
void Dt2Time(int64_t jd, int* hour, int* min, int* sec, int* fsec);
// Offset (seconds WEST of UTC) of local time *tm in zone.
int DetermineTimeZoneOffset(Tm* tm, const tz::Zone* zone, int64_t* tp);
// tm2timestamp; tzp: seconds west of UTC, or nullptr. 0 on success.
int Tm2Timestamp(const Tm& tm, int fsec, const int* tzp, int64_t* result);
// timestamp2tm; zone nullptr: no conversion. 0 on success.
int Timestamp2Tm(int64_t dt, const tz::Zone* zone, int* tzp, Tm* tm, int* fsec);
const tz::Zone* ZoneOf(const TypeContext& context);
extern const int kDayTab[2][13];

}  // namespace kova::planner::types::dt
