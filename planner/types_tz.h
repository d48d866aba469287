// Time zones for the date/time types: IANA TZif files read from
// /usr/share/zoneinfo (case-insensitive names, as PostgreSQL's pg_tzset),
// POSIX TZ strings ("<+00>-00", "EST5EDT,M3.2.0,M11.1.0", "UTC+3"), and
// fixed offsets. Zones are loaded once, cached for the process lifetime and
// immutable, so they can be shared by all sessions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kova::planner::types::tz {

// A local time type: UTC offset in seconds east of Greenwich.
struct TType {
  int32_t utoff = 0;
  bool isdst = false;
  std::string abbr;
};

// A POSIX TZ rule date: Jn (kind 'J'), n (kind 'D') or Mm.w.d (kind 'M').
struct RuleDate {
  char kind = 'M';
  int day = 0;
  int week = 0;
  int month = 0;
  int32_t time = 7200;  // seconds after local midnight
};

struct PosixRule {
  TType std_type;
  TType dst_type;
  bool has_dst = false;
  RuleDate start;
  RuleDate end;
};

class Zone {
 public:
  // pg_localtime: the local time type in effect at UTC time t (seconds since
  // 1970-01-01 00:00:00 UTC).
  const TType& TypeAt(int64_t t) const;

  // pg_next_dst_boundary: 0 when no boundary follows t (only the "before"
  // values are set), 1 otherwise.
  int NextBoundary(int64_t t, int64_t* before_gmtoff, int* before_isdst,
                   int64_t* boundary, int64_t* after_gmtoff,
                   int* after_isdst) const;

  // pg_interpret_timezone_abbrev: the meaning of an upper-case abbreviation
  // in this zone nearest to t.
  bool InterpretAbbrev(std::string_view upper_abbr, int64_t t, int64_t* gmtoff,
                       int* isdst) const;

  // True when some local time type of the zone uses the (upper-case)
  // abbreviation.
  bool HasAbbrev(std::string_view upper_abbr) const;

  // pg_get_timezone_offset: true (and the offset) when every local time
  // type of the zone has the same UTC offset.
  bool FixedOffset(int32_t* gmtoff) const;

  // The name PostgreSQL shows for the zone (SHOW TimeZone): the file's name
  // as spelled on disk ("Europe/Paris" for "europe/paris"), or the
  // upper-cased POSIX string ("ABC5").
  const std::string& name() const { return name_; }
  bool has_leap_seconds() const { return leap_seconds_; }

  // Loading.
  static Zone* FromTzif(const std::string& data);
  static Zone* FromPosix(std::string_view spec);

 private:
  const TType& RuleTypeAt(int64_t t) const;
  // Next rule transition strictly after t; false if the rule has no DST.
  bool NextRuleTransition(int64_t t, int64_t* when) const;

  std::vector<int64_t> ats_;
  std::vector<uint8_t> types_;
  std::vector<TType> ttis_;
  bool has_rule_ = false;
  PosixRule rule_;
  std::string name_;
  bool leap_seconds_ = false;

  friend const Zone* LoadZoneForCache(const std::string& upper);
};

// pg_tzset: a zone by name (TZif file, else POSIX TZ string), nullptr when
// neither. "GMT" is always the fixed UTC zone named GMT.
const Zone* FindZone(std::string_view name);

// pg_tzset_offset: a fixed zone `gmtoff` seconds east of UTC.
const Zone* FixedZone(int32_t gmtoff);

// The zone for a TimeZone setting: a number of hours east of UTC ("+02",
// "-3.5") as SET TIME ZONE accepts, else FindZone. Unknown names fall back
// to UTC. Uses a per-thread cache of the last setting.
const Zone* SessionZone(std::string_view setting);

// check_timezone for SET TIME ZONE / SET timezone: a number of hours east
// of UTC ("2", "-3.5", "+02"), a zone file name (case-insensitive) or a
// POSIX TZ string. On success *canonical is what SHOW TimeZone prints
// afterwards ("<+02>-02", "Europe/Paris", "ABC5"); on failure *message is
// empty for the plain 22023 "invalid value for parameter" error, else
// PostgreSQL's specific message, and *detail its detail.
bool CheckTimeZoneSetting(std::string_view value, std::string* canonical,
                          std::string* message, std::string* detail);

// A zone abbreviation from PostgreSQL's "Default" timezone_abbreviations set
// (lower-case key). kind: 'T' fixed standard (TZ), 'D' fixed daylight (DTZ),
// 'Z' dynamic (DYNTZ, offset taken from zone_name).
struct Abbrev {
  const char* key;
  char kind;
  int32_t offset;
  const char* zone_name;
};
const Abbrev* FindAbbrev(std::string_view lower_key);
// The whole set, in key order.
const Abbrev* AbbrevsBegin();
const Abbrev* AbbrevsEnd();

}  // namespace kova::planner::types::tz
