// Rows of pg_timezone_names: every zone file PostgreSQL would list (the
// system's zoneinfo tree, leap-second zones left out, as
// pg_tzenumerate_next does), with the local time type in effect now.
#include <dirent.h>
#include <sys/stat.h>

#include <cctype>
#include <chrono>
#include <mutex>

#include "planner/system_catalog_internal.h"
#include "planner/types_tz.h"

namespace kova::planner::system_catalog {

namespace {

constexpr const char* kZoneDir = "/usr/share/zoneinfo";

void WalkZones(const std::string& dir, const std::string& prefix,
               std::vector<const types::tz::Zone*>* out) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') names.push_back(e->d_name);
  closedir(d);
  for (const auto& name : names) {
    std::string path = dir + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      WalkZones(path, prefix + name + "/", out);
      continue;
    }
    // A file that is no zone (zone.tab, leapseconds, ...) does not load.
    const types::tz::Zone* zone = types::tz::FindZone(prefix + name);
    if (!zone || zone->has_leap_seconds() || zone->name() != prefix + name)
      continue;
    out->push_back(zone);
  }
}

const std::vector<const types::tz::Zone*>& Zones() {
  static std::once_flag once;
  static std::vector<const types::tz::Zone*>* zones;
  std::call_once(once, [] {
    zones = new std::vector<const types::tz::Zone*>;
    WalkZones(kZoneDir, "", zones);
  });
  return *zones;
}

// An interval of whole seconds as IntervalStyle postgres prints it.
std::string OffsetText(int32_t seconds) {
  std::string out = seconds < 0 ? "-" : "";
  int32_t a = seconds < 0 ? -seconds : seconds;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%02d", a / 3600, a / 60 % 60,
                a % 60);
  return out + buf;
}

}  // namespace

void TimezoneNameRows(const Source&, std::vector<Row>* rows) {
  int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  for (const types::tz::Zone* zone : Zones()) {
    const types::tz::TType& t = zone->TypeAt(now);
    rows->push_back({Text(zone->name()), Text(t.abbr),
                     Text(OffsetText(t.utoff)), Bool(t.isdst)});
  }
}

// pg_timezone_abbrevs: PostgreSQL's Default abbreviation set; an
// abbreviation whose meaning follows a zone takes that zone's now.
void TimezoneAbbrevRows(const Source&, std::vector<Row>* rows) {
  int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  for (const types::tz::Abbrev* a = types::tz::AbbrevsBegin();
       a != types::tz::AbbrevsEnd(); ++a) {
    std::string upper;
    for (const char* p = a->key; *p; p++)
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
    int64_t offset = a->offset;
    bool dst = a->kind == 'D';
    if (a->kind == 'Z') {
      const types::tz::Zone* zone = types::tz::FindZone(a->zone_name);
      if (!zone) continue;
      int64_t gmtoff;
      int isdst;
      if (zone->InterpretAbbrev(upper, now, &gmtoff, &isdst)) {
        offset = gmtoff;
        dst = isdst != 0;
      } else {
        const types::tz::TType& t = zone->TypeAt(now);
        offset = t.utoff;
        dst = t.isdst;
      }
    }
    rows->push_back({Text(upper),
                     Text(OffsetText(static_cast<int32_t>(offset))),
                     Bool(dst)});
  }
}

}  // namespace kova::planner::system_catalog
