#include "planner/types_tz.h"

#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace kova::planner::types::tz {

namespace {

constexpr const char* kZoneDir = "/usr/share/zoneinfo";
constexpr int64_t kSecsPerDay = 86400;

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Days from 1970-01-01 to y-m-d (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t YearOf(int64_t t) {
  int64_t days =
      t >= 0 ? t / kSecsPerDay : -((-t + kSecsPerDay - 1) / kSecsPerDay);
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return yoe + era * 400 + (m <= 2);
}

const int kMonthDays[2][12] = {
    {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
    {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}};

// Seconds from the start of `year` (UTC) of a rule's local transition,
// given the UTC offset (seconds east) in effect before it.
int64_t TransitionTime(int64_t year, const RuleDate& r, int32_t utoff) {
  int leap = IsLeap(year) ? 1 : 0;
  int64_t day = 0;
  switch (r.kind) {
    case 'J':
      day = r.day - 1;
      if (leap && r.day >= 60) ++day;
      break;
    case 'D':
      day = r.day;
      break;
    default: {
      // Mm.w.d: day d of week w of month m (w == 5 means last).
      int64_t first = DaysFromCivil(year, r.month, 1);
      int dow_first = static_cast<int>(((first % 7) + 7 + 4) %
                                       7);  // 1970-01-01 was Thursday
      int d = r.day - dow_first;
      if (d < 0) d += 7;
      for (int i = 1; i < r.week; ++i) {
        if (d + 7 >= kMonthDays[leap][r.month - 1]) break;
        d += 7;
      }
      day = first - DaysFromCivil(year, 1, 1) + d;
      break;
    }
  }
  return DaysFromCivil(year, 1, 1) * kSecsPerDay + day * kSecsPerDay + r.time -
         utoff;
}

// --- POSIX TZ string parsing (tzparse) ---

const char* GetName(const char* p) {
  while (*p != '\0' && !(*p >= '0' && *p <= '9') && *p != ',' && *p != '-' &&
         *p != '+') {
    ++p;
  }
  return p;
}

const char* GetNum(const char* p, int* out, int min, int max) {
  if (!(*p >= '0' && *p <= '9')) return nullptr;
  int num = 0;
  while (*p >= '0' && *p <= '9') {
    num = num * 10 + (*p - '0');
    if (num > max) return nullptr;
    ++p;
  }
  if (num < min) return nullptr;
  *out = num;
  return p;
}

const char* GetSecs(const char* p, int32_t* secs) {
  int num;
  p = GetNum(p, &num, 0, 24 * 7 - 1);
  if (p == nullptr) return nullptr;
  *secs = num * 3600;
  if (*p == ':') {
    p = GetNum(p + 1, &num, 0, 59);
    if (p == nullptr) return nullptr;
    *secs += num * 60;
    if (*p == ':') {
      p = GetNum(p + 1, &num, 0, 60);
      if (p == nullptr) return nullptr;
      *secs += num;
    }
  }
  return p;
}

// POSIX sign: positive means west of Greenwich.
const char* GetOffset(const char* p, int32_t* offset) {
  bool neg = false;
  if (*p == '-') {
    neg = true;
    ++p;
  } else if (*p == '+') {
    ++p;
  }
  p = GetSecs(p, offset);
  if (p == nullptr) return nullptr;
  if (neg) *offset = -*offset;
  return p;
}

const char* GetRule(const char* p, RuleDate* r) {
  if (*p == 'J') {
    r->kind = 'J';
    p = GetNum(p + 1, &r->day, 1, 365);
  } else if (*p == 'M') {
    r->kind = 'M';
    p = GetNum(p + 1, &r->month, 1, 12);
    if (p == nullptr || *p++ != '.') return nullptr;
    p = GetNum(p, &r->week, 1, 5);
    if (p == nullptr || *p++ != '.') return nullptr;
    p = GetNum(p, &r->day, 0, 6);
  } else if (*p >= '0' && *p <= '9') {
    r->kind = 'D';
    p = GetNum(p, &r->day, 0, 365);
  } else {
    return nullptr;
  }
  if (p == nullptr) return nullptr;
  if (*p == '/') {
    p = GetOffset(p + 1, &r->time);
  } else {
    r->time = 2 * 3600;
  }
  return p;
}

bool ParsePosix(const std::string& spec, PosixRule* rule) {
  const char* p = spec.c_str();
  const char* name;
  size_t len;
  if (*p == '<') {
    name = ++p;
    while (*p != '\0' && *p != '>') ++p;
    if (*p != '>') return false;
    len = p - name;
    ++p;
  } else {
    name = p;
    p = GetName(p);
    len = p - name;
  }
  if (*p == '\0') return false;
  int32_t std_offset;
  p = GetOffset(p, &std_offset);
  if (p == nullptr) return false;
  rule->std_type.abbr.assign(name, len);
  rule->std_type.utoff = -std_offset;
  rule->std_type.isdst = false;
  rule->has_dst = false;
  if (*p == '\0') return true;
  if (*p == '<') {
    name = ++p;
    while (*p != '\0' && *p != '>') ++p;
    if (*p != '>') return false;
    len = p - name;
    ++p;
  } else {
    name = p;
    p = GetName(p);
    len = p - name;
  }
  if (len == 0) return false;
  int32_t dst_offset;
  if (*p != '\0' && *p != ',' && *p != ';') {
    p = GetOffset(p, &dst_offset);
    if (p == nullptr) return false;
  } else {
    dst_offset = std_offset - 3600;
  }
  static const char kDefaultRule[] = ",M3.2.0,M11.1.0";
  if (*p == '\0') p = kDefaultRule;
  if (*p != ',' && *p != ';') return false;
  ++p;
  p = GetRule(p, &rule->start);
  if (p == nullptr || *p++ != ',') return false;
  p = GetRule(p, &rule->end);
  if (p == nullptr || *p != '\0') return false;
  rule->dst_type.abbr.assign(name, len);
  rule->dst_type.utoff = -dst_offset;
  rule->dst_type.isdst = true;
  rule->has_dst = true;
  return true;
}

int32_t ReadI32(const unsigned char* p) {
  return static_cast<int32_t>((uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) |
                              (uint32_t{p[2]} << 8) | uint32_t{p[3]});
}

int64_t ReadI64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return static_cast<int64_t>(v);
}

}  // namespace

Zone* Zone::FromPosix(std::string_view spec) {
  auto zone = std::make_unique<Zone>();
  if (!ParsePosix(std::string(spec), &zone->rule_)) return nullptr;
  zone->has_rule_ = true;
  zone->ttis_.push_back(zone->rule_.std_type);
  return zone.release();
}

Zone* Zone::FromTzif(const std::string& data) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t size = data.size();
  if (size < 44 || std::memcmp(p, "TZif", 4) != 0) return nullptr;
  auto counts = [&](size_t off, int32_t c[6]) {
    for (int i = 0; i < 6; ++i) c[i] = ReadI32(p + off + 20 + 4 * i);
  };
  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  int32_t c[6];
  counts(0, c);
  size_t v1_len = static_cast<size_t>(c[3]) * 5 +
                  static_cast<size_t>(c[4]) * 6 + c[5] +
                  static_cast<size_t>(c[2]) * 8 + c[1] + c[0];
  size_t off = 44;
  int time_size = 4;
  if (p[4] >= '2') {
    off = 44 + v1_len;
    if (size < off + 44 || std::memcmp(p + off, "TZif", 4) != 0) return nullptr;
    counts(off, c);
    off += 44;
    time_size = 8;
  }
  int32_t leapcnt = c[2], timecnt = c[3], typecnt = c[4], charcnt = c[5];
  size_t need = static_cast<size_t>(timecnt) * (time_size + 1) +
                static_cast<size_t>(typecnt) * 6 + charcnt +
                static_cast<size_t>(leapcnt) * (time_size + 4) + c[1] + c[0];
  if (typecnt <= 0 || size < off + need) return nullptr;
  auto zone = std::make_unique<Zone>();
  zone->leap_seconds_ = leapcnt > 0;
  const unsigned char* times = p + off;
  const unsigned char* idx = times + static_cast<size_t>(timecnt) * time_size;
  const unsigned char* tt = idx + timecnt;
  const unsigned char* chars = tt + static_cast<size_t>(typecnt) * 6;
  for (int32_t i = 0; i < typecnt; ++i) {
    TType t;
    t.utoff = ReadI32(tt + 6 * i);
    t.isdst = tt[6 * i + 4] != 0;
    int ai = tt[6 * i + 5];
    if (ai < charcnt) {
      const char* a = reinterpret_cast<const char*>(chars + ai);
      t.abbr.assign(a, strnlen(a, charcnt - ai));
    }
    zone->ttis_.push_back(std::move(t));
  }
  for (int32_t i = 0; i < timecnt; ++i) {
    int64_t at =
        time_size == 4 ? ReadI32(times + 4 * i) : ReadI64(times + 8 * i);
    uint8_t type = idx[i];
    if (type >= typecnt) return nullptr;
    if (!zone->ats_.empty() && at <= zone->ats_.back()) {
      if (at < zone->ats_.back()) return nullptr;
      zone->ats_.pop_back();
      zone->types_.pop_back();
    }
    zone->ats_.push_back(at);
    zone->types_.push_back(type);
  }
  if (time_size == 8) {
    size_t foot = off + need;
    if (foot < size && p[foot] == '\n') {
      size_t end = data.find('\n', foot + 1);
      if (end != std::string::npos && end > foot + 1) {
        PosixRule rule;
        if (ParsePosix(data.substr(foot + 1, end - foot - 1), &rule)) {
          zone->rule_ = std::move(rule);
          zone->has_rule_ = true;
        }
      }
    }
  }
  return zone.release();
}

bool Zone::HasAbbrev(std::string_view upper_abbr) const {
  for (const TType& t : ttis_) {
    if (t.abbr == upper_abbr) return true;
  }
  return has_rule_ && (rule_.std_type.abbr == upper_abbr ||
                       (rule_.has_dst && rule_.dst_type.abbr == upper_abbr));
}

bool Zone::FixedOffset(int32_t* gmtoff) const {
  for (const TType& t : ttis_) {
    if (t.utoff != ttis_[0].utoff) return false;
  }
  if (has_rule_) {
    if (rule_.std_type.utoff != ttis_[0].utoff) return false;
    if (rule_.has_dst && rule_.dst_type.utoff != ttis_[0].utoff) return false;
  }
  *gmtoff = ttis_[0].utoff;
  return true;
}

const TType& Zone::RuleTypeAt(int64_t t) const {
  if (!rule_.has_dst) return rule_.std_type;
  int64_t year = YearOf(t);
  int64_t start = TransitionTime(year, rule_.start, rule_.std_type.utoff);
  int64_t end = TransitionTime(year, rule_.end, rule_.dst_type.utoff);
  bool dst;
  if (start < end) {
    dst = t >= start && t < end;
  } else {
    dst = !(t >= end && t < start);
  }
  return dst ? rule_.dst_type : rule_.std_type;
}

bool Zone::NextRuleTransition(int64_t t, int64_t* when) const {
  if (!rule_.has_dst) return false;
  int64_t year = YearOf(t);
  int64_t best = 0;
  bool found = false;
  for (int64_t y = year - 1; y <= year + 1; ++y) {
    int64_t cand[2] = {TransitionTime(y, rule_.start, rule_.std_type.utoff),
                       TransitionTime(y, rule_.end, rule_.dst_type.utoff)};
    for (int64_t c : cand) {
      if (c > t && (!found || c < best)) {
        best = c;
        found = true;
      }
    }
  }
  *when = best;
  return found;
}

const TType& Zone::TypeAt(int64_t t) const {
  if (ats_.empty()) {
    return has_rule_ ? RuleTypeAt(t) : ttis_[0];
  }
  if (t < ats_[0]) return ttis_[0];
  if (t >= ats_.back()) {
    return has_rule_ ? RuleTypeAt(t) : ttis_[types_.back()];
  }
  size_t i = std::upper_bound(ats_.begin(), ats_.end(), t) - ats_.begin();
  return ttis_[types_[i - 1]];
}

int Zone::NextBoundary(int64_t t, int64_t* before_gmtoff, int* before_isdst,
                       int64_t* boundary, int64_t* after_gmtoff,
                       int* after_isdst) const {
  auto lowest_std = [&]() -> const TType& {
    for (const TType& tt : ttis_) {
      if (!tt.isdst) return tt;
    }
    return ttis_[0];
  };
  if (ats_.empty() || t >= ats_.back()) {
    const TType& before =
        ats_.empty() ? (has_rule_ ? RuleTypeAt(t) : lowest_std()) : TypeAt(t);
    *before_gmtoff = before.utoff;
    *before_isdst = before.isdst;
    int64_t when;
    if (has_rule_ && NextRuleTransition(t, &when)) {
      const TType& after = RuleTypeAt(when);
      *boundary = when;
      *after_gmtoff = after.utoff;
      *after_isdst = after.isdst;
      return 1;
    }
    return 0;
  }
  if (t < ats_[0]) {
    const TType& before = lowest_std();
    *before_gmtoff = before.utoff;
    *before_isdst = before.isdst;
    *boundary = ats_[0];
    const TType& after = ttis_[types_[0]];
    *after_gmtoff = after.utoff;
    *after_isdst = after.isdst;
    return 1;
  }
  size_t i = std::upper_bound(ats_.begin(), ats_.end(), t) - ats_.begin();
  const TType& before = ttis_[types_[i - 1]];
  const TType& after = ttis_[types_[i]];
  *before_gmtoff = before.utoff;
  *before_isdst = before.isdst;
  *boundary = ats_[i];
  *after_gmtoff = after.utoff;
  *after_isdst = after.isdst;
  return 1;
}

bool Zone::InterpretAbbrev(std::string_view upper_abbr, int64_t t,
                           int64_t* gmtoff, int* isdst) const {
  // Transitions (table, then rule-generated ones for a few years past its
  // end) whose type uses the abbreviation; latest before t, else first after.
  std::vector<std::pair<int64_t, const TType*>> seq;
  seq.reserve(ats_.size() + 8);
  for (size_t i = 0; i < ats_.size(); ++i)
    seq.emplace_back(ats_[i], &ttis_[types_[i]]);
  if (has_rule_ && rule_.has_dst) {
    int64_t from = ats_.empty() ? t - 2 * 366 * kSecsPerDay : ats_.back();
    int64_t limit = std::max(t, from) + 2 * 366 * kSecsPerDay;
    int64_t when = from;
    while (NextRuleTransition(when, &when) && when <= limit) {
      seq.emplace_back(when, &RuleTypeAt(when));
    }
  } else if (has_rule_ && ats_.empty()) {
    if (rule_.std_type.abbr == upper_abbr) {
      *gmtoff = rule_.std_type.utoff;
      *isdst = 0;
      return true;
    }
  }
  bool known = false;
  for (const TType& tt : ttis_) known |= tt.abbr == upper_abbr;
  if (has_rule_) {
    known |= rule_.std_type.abbr == upper_abbr;
    known |= rule_.has_dst && rule_.dst_type.abbr == upper_abbr;
  }
  if (!known) return false;
  size_t cutoff = 0;
  while (cutoff < seq.size() && seq[cutoff].first <= t) ++cutoff;
  for (size_t i = cutoff; i-- > 0;) {
    if (seq[i].second->abbr == upper_abbr) {
      *gmtoff = seq[i].second->utoff;
      *isdst = seq[i].second->isdst;
      return true;
    }
  }
  for (size_t i = cutoff; i < seq.size(); ++i) {
    if (seq[i].second->abbr == upper_abbr) {
      *gmtoff = seq[i].second->utoff;
      *isdst = seq[i].second->isdst;
      return true;
    }
  }
  return false;
}

namespace {

// Resolves a zone name to a file path, matching each path component
// case-insensitively as PostgreSQL does.
bool ResolvePath(const std::string& name, std::string* path) {
  if (name.empty() || name[0] == '/' || name.size() > 255) return false;
  std::string current = kZoneDir;
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    std::string comp = name.substr(
        start, slash == std::string::npos ? std::string::npos : slash - start);
    if (comp.empty() || comp == "." || comp == "..") return false;
    for (char ch : comp) {
      bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
                ch == '+' || ch == '.';
      if (!ok) return false;
    }
    std::string candidate = current + "/" + comp;
    struct stat st;
    if (::stat(candidate.c_str(), &st) != 0) {
      DIR* dir = ::opendir(current.c_str());
      if (dir == nullptr) return false;
      bool found = false;
      while (struct dirent* ent = ::readdir(dir)) {
        if (strcasecmp(ent->d_name, comp.c_str()) == 0) {
          candidate = current + "/" + ent->d_name;
          found = true;
          break;
        }
      }
      ::closedir(dir);
      if (!found) return false;
    }
    current = candidate;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  struct stat st;
  if (::stat(current.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  *path = current;
  return true;
}

// Zones stay cached (and their pointers valid) for the process lifetime.
// Input text can name arbitrary POSIX zones ("abc5"), so the cache is
// bounded; beyond the bound a zone lives in a small per-thread ring, valid
// for the rest of the conversion that asked for it.
constexpr size_t kMaxCachedZones = 10000;

struct Cache {
  std::mutex mu;
  std::unordered_map<std::string, const Zone*> zones;
  std::unordered_set<std::string> missing;
};

Cache& GetCache() {
  static Cache* cache = new Cache();
  return *cache;
}

}  // namespace

const Zone* LoadZoneForCache(const std::string& upper) {
  if (upper == "GMT") {
    Zone* z = Zone::FromPosix("GMT0");
    z->name_ = "GMT";
    return z;
  }
  std::string path;
  if (ResolvePath(upper, &path)) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    if (Zone* z = Zone::FromTzif(buf.str())) {
      z->name_ = path.substr(std::strlen(kZoneDir) + 1);
      return z;
    }
  }
  if (!upper.empty() && upper[0] == ':') return nullptr;
  Zone* z = Zone::FromPosix(upper);
  if (z != nullptr) z->name_ = upper;
  return z;
}

namespace {

const Zone* FindZoneImpl(std::string_view name, bool* cached) {
  *cached = true;
  if (name.size() > 255) return nullptr;
  std::string upper(name);
  for (char& ch : upper) {
    if (ch >= 'a' && ch <= 'z') ch -= 32;
  }
  Cache& cache = GetCache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.zones.find(upper);
    if (it != cache.zones.end()) return it->second;
    if (cache.missing.count(upper) != 0) return nullptr;
  }
  const Zone* zone = LoadZoneForCache(upper);
  std::lock_guard<std::mutex> lock(cache.mu);
  if (zone == nullptr) {
    if (cache.missing.size() < kMaxCachedZones) cache.missing.insert(upper);
    return nullptr;
  }
  auto it = cache.zones.find(upper);
  if (it != cache.zones.end()) {
    delete zone;
    return it->second;
  }
  if (cache.zones.size() >= kMaxCachedZones) {
    thread_local std::unique_ptr<const Zone> ring[8];
    thread_local int next = 0;
    ring[next].reset(zone);
    next = (next + 1) % 8;
    *cached = false;
    return zone;
  }
  cache.zones.emplace(upper, zone);
  return zone;
}

}  // namespace

const Zone* FindZone(std::string_view name) {
  bool cached;
  return FindZoneImpl(name, &cached);
}

namespace {

const Zone* FixedZoneImpl(int32_t gmtoff, bool* cached) {
  // pg_tzset_offset builds "<+hh[:mm[:ss]]>-hh[:mm[:ss]]".
  int32_t abs = gmtoff < 0 ? -gmtoff : gmtoff;
  char offset[32];
  int n = std::snprintf(offset, sizeof(offset), "%02d", abs / 3600);
  abs %= 3600;
  if (abs != 0) {
    n += std::snprintf(offset + n, sizeof(offset) - n, ":%02d", abs / 60);
    abs %= 60;
    if (abs != 0) std::snprintf(offset + n, sizeof(offset) - n, ":%02d", abs);
  }
  char name[80];
  if (gmtoff < 0) {
    std::snprintf(name, sizeof(name), "<-%s>+%s", offset, offset);
  } else {
    std::snprintf(name, sizeof(name), "<+%s>-%s", offset, offset);
  }
  return FindZoneImpl(name, cached);
}

}  // namespace

const Zone* FixedZone(int32_t gmtoff) {
  bool cached;
  return FixedZoneImpl(gmtoff, &cached);
}

const Zone* SessionZone(std::string_view setting) {
  thread_local std::string last_setting;
  thread_local const Zone* last_zone = nullptr;
  thread_local std::unique_ptr<Zone> owned;  // a copy of an uncached zone
  if (last_zone != nullptr && setting == last_setting) return last_zone;
  const Zone* zone = nullptr;
  bool cached = true;
  std::string s(setting);
  char* end = nullptr;
  errno = 0;
  double hours = std::strtod(s.c_str(), &end);
  if (!s.empty() && end != s.c_str() && *end == '\0' && errno == 0 &&
      hours > -168 && hours < 168) {
    zone = FixedZoneImpl(static_cast<int32_t>(hours * 3600), &cached);
  } else {
    zone = FindZoneImpl(setting, &cached);
  }
  if (zone == nullptr) {
    cached = true;
    zone = FindZone("UTC");
  }
  if (zone == nullptr) zone = FixedZone(0);
  if (!cached) {
    owned = std::make_unique<Zone>(*zone);
    zone = owned.get();
  }
  last_setting = s;
  last_zone = zone;
  return zone;
}

bool CheckTimeZoneSetting(std::string_view value, std::string* canonical,
                          std::string* message, std::string* detail) {
  message->clear();
  detail->clear();
  std::string s(value);
  char* end = nullptr;
  errno = 0;
  double hours = std::strtod(s.c_str(), &end);
  if (!s.empty() && end != s.c_str() && *end == '\0') {
    // Hours east of UTC; pg_tzset_offset fails beyond 167 hours.
    if (!(hours > -168 && hours < 168)) {
      *detail = "UTC timezone offset is out of range.";
      return false;
    }
    bool cached;
    const Zone* zone =
        FixedZoneImpl(static_cast<int32_t>(hours * 3600), &cached);
    if (zone == nullptr) {
      *detail = "UTC timezone offset is out of range.";
      return false;
    }
    *canonical = zone->name();
    return true;
  }
  bool cached;
  const Zone* zone = FindZoneImpl(value, &cached);
  if (zone == nullptr) return false;
  if (zone->has_leap_seconds()) {
    *message = "time zone \"" + s + "\" appears to use leap seconds";
    *detail = "PostgreSQL does not support leap seconds.";
    return false;
  }
  *canonical = zone->name();
  return true;
}

namespace {

// PostgreSQL 15's share/timezonesets/Default.
const Abbrev kAbbrevs[] = {
    {"acdt", 'D', 37800, nullptr},
    {"acsst", 'D', 37800, nullptr},
    {"acst", 'T', 34200, nullptr},
    {"act", 'T', -18000, nullptr},
    {"acwst", 'T', 31500, nullptr},
    {"adt", 'D', -10800, nullptr},
    {"aedt", 'D', 39600, nullptr},
    {"aesst", 'D', 39600, nullptr},
    {"aest", 'T', 36000, nullptr},
    {"aft", 'T', 16200, nullptr},
    {"akdt", 'D', -28800, nullptr},
    {"akst", 'T', -32400, nullptr},
    {"almst", 'D', 25200, nullptr},
    {"almt", 'T', 21600, nullptr},
    {"amst", 'Z', 0, "Asia/Yerevan"},
    {"amt", 'T', -14400, nullptr},
    {"anast", 'Z', 0, "Asia/Anadyr"},
    {"anat", 'Z', 0, "Asia/Anadyr"},
    {"arst", 'Z', 0, "America/Argentina/Buenos_Aires"},
    {"art", 'Z', 0, "America/Argentina/Buenos_Aires"},
    {"ast", 'T', -14400, nullptr},
    {"awsst", 'D', 32400, nullptr},
    {"awst", 'T', 28800, nullptr},
    {"azost", 'D', 0, nullptr},
    {"azot", 'T', -3600, nullptr},
    {"azst", 'Z', 0, "Asia/Baku"},
    {"azt", 'Z', 0, "Asia/Baku"},
    {"bdst", 'D', 7200, nullptr},
    {"bdt", 'T', 21600, nullptr},
    {"bnt", 'T', 28800, nullptr},
    {"bort", 'T', 28800, nullptr},
    {"bot", 'T', -14400, nullptr},
    {"bra", 'T', -10800, nullptr},
    {"brst", 'D', -7200, nullptr},
    {"brt", 'T', -10800, nullptr},
    {"bst", 'D', 3600, nullptr},
    {"btt", 'T', 21600, nullptr},
    {"cadt", 'D', 37800, nullptr},
    {"cast", 'T', 34200, nullptr},
    {"cct", 'T', 28800, nullptr},
    {"cdt", 'D', -18000, nullptr},
    {"cest", 'D', 7200, nullptr},
    {"cet", 'T', 3600, nullptr},
    {"cetdst", 'D', 7200, nullptr},
    {"chadt", 'D', 49500, nullptr},
    {"chast", 'T', 45900, nullptr},
    {"chut", 'T', 36000, nullptr},
    {"ckt", 'Z', 0, "Pacific/Rarotonga"},
    {"clst", 'D', -10800, nullptr},
    {"clt", 'Z', 0, "America/Santiago"},
    {"cot", 'T', -18000, nullptr},
    {"cst", 'T', -21600, nullptr},
    {"cxt", 'T', 25200, nullptr},
    {"davt", 'Z', 0, "Antarctica/Davis"},
    {"ddut", 'T', 36000, nullptr},
    {"easst", 'Z', 0, "Pacific/Easter"},
    {"east", 'Z', 0, "Pacific/Easter"},
    {"eat", 'T', 10800, nullptr},
    {"edt", 'D', -14400, nullptr},
    {"eest", 'D', 10800, nullptr},
    {"eet", 'T', 7200, nullptr},
    {"eetdst", 'D', 10800, nullptr},
    {"egst", 'D', 0, nullptr},
    {"egt", 'T', -3600, nullptr},
    {"est", 'T', -18000, nullptr},
    {"fet", 'T', 10800, nullptr},
    {"fjst", 'D', 46800, nullptr},
    {"fjt", 'T', 43200, nullptr},
    {"fkst", 'Z', 0, "Atlantic/Stanley"},
    {"fkt", 'Z', 0, "Atlantic/Stanley"},
    {"fnst", 'D', -3600, nullptr},
    {"fnt", 'T', -7200, nullptr},
    {"galt", 'T', -21600, nullptr},
    {"gamt", 'T', -32400, nullptr},
    {"gest", 'Z', 0, "Asia/Tbilisi"},
    {"get", 'Z', 0, "Asia/Tbilisi"},
    {"gft", 'T', -10800, nullptr},
    {"gilt", 'T', 43200, nullptr},
    {"gmt", 'T', 0, nullptr},
    {"gyt", 'Z', 0, "America/Guyana"},
    {"hkt", 'T', 28800, nullptr},
    {"hst", 'T', -36000, nullptr},
    {"ict", 'T', 25200, nullptr},
    {"idt", 'D', 10800, nullptr},
    {"iot", 'Z', 0, "Indian/Chagos"},
    {"irkst", 'Z', 0, "Asia/Irkutsk"},
    {"irkt", 'Z', 0, "Asia/Irkutsk"},
    {"irt", 'T', 12600, nullptr},
    {"ist", 'T', 7200, nullptr},
    {"jayt", 'T', 32400, nullptr},
    {"jst", 'T', 32400, nullptr},
    {"kdt", 'D', 36000, nullptr},
    {"kgst", 'D', 21600, nullptr},
    {"kgt", 'Z', 0, "Asia/Bishkek"},
    {"kost", 'Z', 0, "Pacific/Kosrae"},
    {"krast", 'Z', 0, "Asia/Krasnoyarsk"},
    {"krat", 'Z', 0, "Asia/Krasnoyarsk"},
    {"kst", 'T', 32400, nullptr},
    {"lhdt", 'Z', 0, "Australia/Lord_Howe"},
    {"lhst", 'T', 37800, nullptr},
    {"ligt", 'T', 36000, nullptr},
    {"lint", 'Z', 0, "Pacific/Kiritimati"},
    {"lkt", 'Z', 0, "Asia/Colombo"},
    {"magst", 'Z', 0, "Asia/Magadan"},
    {"magt", 'Z', 0, "Asia/Magadan"},
    {"mart", 'T', -34200, nullptr},
    {"mawt", 'Z', 0, "Antarctica/Mawson"},
    {"mdt", 'D', -21600, nullptr},
    {"mest", 'D', 7200, nullptr},
    {"mesz", 'D', 7200, nullptr},
    {"met", 'T', 3600, nullptr},
    {"metdst", 'D', 7200, nullptr},
    {"mez", 'T', 3600, nullptr},
    {"mht", 'T', 43200, nullptr},
    {"mmt", 'T', 23400, nullptr},
    {"mpt", 'T', 36000, nullptr},
    {"msd", 'D', 14400, nullptr},
    {"msk", 'Z', 0, "Europe/Moscow"},
    {"mst", 'T', -25200, nullptr},
    {"must", 'D', 18000, nullptr},
    {"mut", 'T', 14400, nullptr},
    {"mvt", 'T', 18000, nullptr},
    {"myt", 'T', 28800, nullptr},
    {"ndt", 'D', -9000, nullptr},
    {"nft", 'T', -12600, nullptr},
    {"novst", 'Z', 0, "Asia/Novosibirsk"},
    {"novt", 'Z', 0, "Asia/Novosibirsk"},
    {"npt", 'T', 20700, nullptr},
    {"nst", 'T', -12600, nullptr},
    {"nut", 'Z', 0, "Pacific/Niue"},
    {"nzdt", 'D', 46800, nullptr},
    {"nzst", 'T', 43200, nullptr},
    {"nzt", 'T', 43200, nullptr},
    {"omsst", 'Z', 0, "Asia/Omsk"},
    {"omst", 'Z', 0, "Asia/Omsk"},
    {"pdt", 'D', -25200, nullptr},
    {"pet", 'T', -18000, nullptr},
    {"petst", 'Z', 0, "Asia/Kamchatka"},
    {"pett", 'Z', 0, "Asia/Kamchatka"},
    {"pgt", 'T', 36000, nullptr},
    {"pht", 'T', 28800, nullptr},
    {"pkst", 'D', 21600, nullptr},
    {"pkt", 'T', 18000, nullptr},
    {"pmdt", 'D', -7200, nullptr},
    {"pmst", 'T', -10800, nullptr},
    {"pont", 'T', 39600, nullptr},
    {"pst", 'T', -28800, nullptr},
    {"pwt", 'T', 32400, nullptr},
    {"pyst", 'D', -10800, nullptr},
    {"pyt", 'Z', 0, "America/Asuncion"},
    {"ret", 'T', 14400, nullptr},
    {"sadt", 'D', 37800, nullptr},
    {"sast", 'T', 7200, nullptr},
    {"sct", 'T', 14400, nullptr},
    {"sgt", 'Z', 0, "Asia/Singapore"},
    {"taht", 'T', -36000, nullptr},
    {"tft", 'T', 18000, nullptr},
    {"tjt", 'T', 18000, nullptr},
    {"tkt", 'Z', 0, "Pacific/Fakaofo"},
    {"tmt", 'Z', 0, "Asia/Ashgabat"},
    {"tot", 'T', 46800, nullptr},
    {"trut", 'T', 36000, nullptr},
    {"tvt", 'T', 43200, nullptr},
    {"uct", 'T', 0, nullptr},
    {"ulast", 'D', 32400, nullptr},
    {"ulat", 'Z', 0, "Asia/Ulaanbaatar"},
    {"ut", 'T', 0, nullptr},
    {"utc", 'T', 0, nullptr},
    {"uyst", 'D', -7200, nullptr},
    {"uyt", 'T', -10800, nullptr},
    {"uzst", 'D', 21600, nullptr},
    {"uzt", 'T', 18000, nullptr},
    {"vet", 'Z', 0, "America/Caracas"},
    {"vlast", 'Z', 0, "Asia/Vladivostok"},
    {"vlat", 'Z', 0, "Asia/Vladivostok"},
    {"volt", 'Z', 0, "Europe/Volgograd"},
    {"vut", 'T', 39600, nullptr},
    {"wadt", 'D', 28800, nullptr},
    {"wakt", 'T', 43200, nullptr},
    {"wast", 'T', 25200, nullptr},
    {"wat", 'T', 3600, nullptr},
    {"wdt", 'D', 32400, nullptr},
    {"wet", 'T', 0, nullptr},
    {"wetdst", 'D', 3600, nullptr},
    {"wft", 'T', 43200, nullptr},
    {"wgst", 'D', -7200, nullptr},
    {"wgt", 'T', -10800, nullptr},
    {"xjt", 'T', 21600, nullptr},
    {"yakst", 'Z', 0, "Asia/Yakutsk"},
    {"yakt", 'Z', 0, "Asia/Yakutsk"},
    {"yapt", 'T', 36000, nullptr},
    {"yekst", 'D', 21600, nullptr},
    {"yekt", 'Z', 0, "Asia/Yekaterinburg"},
    {"z", 'T', 0, nullptr},
    {"zulu", 'T', 0, nullptr},
};

}  // namespace

const Abbrev* AbbrevsBegin() { return std::begin(kAbbrevs); }
const Abbrev* AbbrevsEnd() { return std::end(kAbbrevs); }

const Abbrev* FindAbbrev(std::string_view lower_key) {
  for (const Abbrev& a : kAbbrevs) {
    if (lower_key == a.key) return &a;
  }
  return nullptr;
}

}  // namespace kova::planner::types::tz
