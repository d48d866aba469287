#include "planner/settings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "planner/types_tz.h"

namespace kova::planner {
namespace {

enum class Kind {
  kString,
  kBool,
  kInt,
  kEnum,
  kTimeZone,
  kDateStyle,
  kIntervalStyle,
  kEncoding,
  kMemory,
  kDuration
};

struct Def {
  const char* name;  // canonical spelling
  const char* default_value;
  Kind kind;
  bool reported;
  bool read_only;
  const char* choices;  // kEnum: comma-separated; kInt: "min,max"
  const char* description;
};

// The parameters Kova knows, with PostgreSQL 15's defaults. Reported ones
// (GUC_REPORT) are sent as ParameterStatus.
const Def kDefs[] = {
    {"application_name", "", Kind::kString, true, false, nullptr,
     "Sets the application name to be reported in statistics and logs."},
    {"bytea_output", "hex", Kind::kEnum, false, false, "hex",
     "Sets the output format for bytea."},
    {"check_function_bodies", "on", Kind::kBool, false, false, nullptr,
     "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."},
    {"client_encoding", "UTF8", Kind::kEncoding, true, false, nullptr,
     "Sets the client's character set encoding."},
    {"client_min_messages", "notice", Kind::kEnum, false, false,
     "debug5,debug4,debug3,debug2,debug1,log,notice,warning,error",
     "Sets the message levels that are sent to the client."},
    {"DateStyle", "ISO, MDY", Kind::kDateStyle, true, false, nullptr,
     "Sets the display format for date and time values."},
    {"default_table_access_method", "heap", Kind::kEnum, false, false, "heap",
     "Sets the default table access method for new tables."},
    {"default_tablespace", "", Kind::kString, false, false, nullptr,
     "Sets the default tablespace to create tables and indexes in."},
    {"default_transaction_isolation", "read committed", Kind::kEnum, false,
     false, "serializable,repeatable read,read committed,read uncommitted",
     "Sets the transaction isolation level of each new transaction."},
    {"default_transaction_read_only", "off", Kind::kBool, true, false, nullptr,
     "Sets the default read-only status of new transactions."},
    {"enable_bitmapscan", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of bitmap-scan plans."},
    {"enable_hashagg", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of hashed aggregation plans."},
    {"enable_hashjoin", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of hash join plans."},
    {"enable_indexonlyscan", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of index-only-scan plans."},
    {"enable_indexscan", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of index-scan plans."},
    {"enable_material", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of materialization."},
    {"enable_mergejoin", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of merge join plans."},
    {"enable_nestloop", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of nested-loop join plans."},
    {"enable_seqscan", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of sequential-scan plans."},
    {"enable_sort", "on", Kind::kBool, false, false, nullptr,
     "Enables the planner's use of explicit sort steps."},
    {"escape_string_warning", "on", Kind::kBool, false, false, nullptr,
     "Warn about backslash escapes in ordinary string literals."},
    {"extra_float_digits", "1", Kind::kInt, false, false, "-15,3",
     "Sets the number of digits displayed for floating-point values."},
    {"idle_in_transaction_session_timeout", "0", Kind::kDuration, false, false,
     nullptr,
     "Sets the maximum allowed idle time between queries, when in a "
     "transaction."},
    {"in_hot_standby", "off", Kind::kBool, true, true, nullptr,
     "Shows whether hot standby is currently active."},
    {"integer_datetimes", "on", Kind::kBool, true, true, nullptr,
     "Shows whether datetimes are integer based."},
    {"IntervalStyle", "postgres", Kind::kIntervalStyle, true, false, nullptr,
     "Sets the display format for interval values."},
    {"is_superuser", "on", Kind::kBool, true, true, nullptr,
     "Shows whether the current user is a superuser."},
    {"lc_collate", "C.UTF-8", Kind::kString, false, true, nullptr,
     "Shows the collation order locale."},
    {"lc_ctype", "C.UTF-8", Kind::kString, false, true, nullptr,
     "Shows the character classification and case conversion locale."},
    {"lc_messages", "C.UTF-8", Kind::kString, false, false, nullptr,
     "Sets the language in which messages are displayed."},
    {"lc_monetary", "C.UTF-8", Kind::kString, false, false, nullptr,
     "Sets the locale for formatting monetary amounts."},
    {"lc_numeric", "C.UTF-8", Kind::kString, false, false, nullptr,
     "Sets the locale for formatting numbers."},
    {"lc_time", "C.UTF-8", Kind::kString, false, false, nullptr,
     "Sets the locale for formatting date and time values."},
    {"lock_timeout", "0", Kind::kDuration, false, false, nullptr,
     "Sets the maximum allowed duration of any wait for a lock."},
    {"maintenance_work_mem", "64MB", Kind::kMemory, false, false,
     "1024,2147483647",
     "Sets the maximum memory to be used for maintenance operations."},
    {"max_connections", "100", Kind::kInt, false, true, "1,262143",
     "Sets the maximum number of concurrent connections."},
    {"max_parallel_workers_per_gather", "2", Kind::kInt, false, false, "0,1024",
     "Sets the maximum number of parallel processes per executor node."},
    {"max_identifier_length", "63", Kind::kInt, false, true, "63,63",
     "Shows the maximum identifier length."},
    {"password_encryption", "scram-sha-256", Kind::kEnum, false, false,
     "md5,scram-sha-256", "Chooses the algorithm for encrypting passwords."},
    {"row_security", "on", Kind::kBool, false, false, nullptr,
     "Enable row security."},
    {"search_path", "\"$user\", public", Kind::kString, false, false, nullptr,
     "Sets the schema search order for names that are not schema-qualified."},
    {"server_encoding", "UTF8", Kind::kString, true, true, nullptr,
     "Shows the server (database) character set encoding."},
    {"server_version", "", Kind::kString, true, true, nullptr,
     "Shows the server version."},
    {"server_version_num", "", Kind::kString, false, true, nullptr,
     "Shows the server version as an integer."},
    {"session_authorization", "", Kind::kString, true, true, nullptr,
     "Sets the session user name."},
    {"standard_conforming_strings", "on", Kind::kBool, true, false, nullptr,
     "Causes '...' strings to treat backslashes literally."},
    {"statement_timeout", "0", Kind::kDuration, false, false, nullptr,
     "Sets the maximum allowed duration of any statement."},
    {"synchronize_seqscans", "on", Kind::kBool, false, false, nullptr,
     "Enable synchronized sequential scans."},
    {"synchronous_commit", "on", Kind::kEnum, false, false,
     "on,off,local,remote_write,remote_apply",
     "Sets the current transaction's synchronization level."},
    {"TimeZone", "Etc/UTC", Kind::kTimeZone, true, false, nullptr,
     "Sets the time zone for displaying and interpreting time stamps."},
    {"transaction_isolation", "read committed", Kind::kEnum, false, false,
     "serializable,repeatable read,read committed,read uncommitted",
     "Sets the current transaction's isolation level."},
    {"transaction_read_only", "off", Kind::kBool, false, false, nullptr,
     "Sets the current transaction's read-only status."},
    {"work_mem", "4MB", Kind::kMemory, false, false, "64,2147483647",
     "Sets the maximum memory to be used for query workspaces."},
    {"xmloption", "content", Kind::kEnum, false, false, "content,document",
     "Sets whether XML data in implicit parsing and serialization operations "
     "is to be considered as documents or content fragments."},
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(c));
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) b++;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) e--;
  return std::string(s.substr(b, e - b));
}

const Def* FindDef(std::string_view name) {
  std::string key = Lower(name);
  for (const Def& d : kDefs)
    if (Lower(d.name) == key) return &d;
  return nullptr;
}

PgError Err(const char* sqlstate, std::string message,
            std::string detail = "") {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.detail = std::move(detail);
  return e;
}

PgError InvalidValue(const Def& def, std::string_view value) {
  return Err("22023", std::string("invalid value for parameter \"") + def.name +
                          "\": \"" + std::string(value) + "\"");
}

bool ParseBool(std::string_view v, bool* out) {
  std::string s = Lower(Trim(v));
  if (s == "on" || s == "true" || s == "yes" || s == "1" || s == "t" ||
      s == "y") {
    *out = true;
  } else if (s == "off" || s == "false" || s == "no" || s == "0" || s == "f" ||
             s == "n" || s == "of") {
    *out = false;
  } else {
    return false;
  }
  return true;
}

// A memory setting in kB, as PostgreSQL's parse_int reads it (a number,
// fractional or not, and a case-sensitive unit B, kB, MB, GB or TB, kB by
// default, rounded) and SHOW prints it (the largest unit that divides it).
bool NormaliseMemory(const Def& def, const std::string& value, std::string* out,
                     PgError* error) {
  auto invalid = [&](const char* hint) {
    *error = Err("22023", std::string("invalid value for parameter \"") +
                              def.name + "\": \"" + value + "\"");
    if (hint) error->hint = hint;
    return false;
  };
  const char* start = value.c_str();
  while (std::isspace(static_cast<unsigned char>(*start))) start++;
  if (!*start) return invalid(nullptr);
  char* end = nullptr;
  errno = 0;
  double number = static_cast<double>(std::strtol(start, &end, 0));
  if (end == start) return invalid(nullptr);
  if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE) {
    number = std::strtod(start, &end);
    if (end == start || errno == ERANGE) return invalid(nullptr);
  }
  while (std::isspace(static_cast<unsigned char>(*end))) end++;
  static const std::pair<const char*, double> kUnits[] = {
      {"TB", 1024.0 * 1024 * 1024},
      {"GB", 1024.0 * 1024},
      {"MB", 1024},
      {"kB", 1},
      {"B", 1.0 / 1024}};
  if (*end) {
    std::string unit = end;
    while (!unit.empty() &&
           std::isspace(static_cast<unsigned char>(unit.back())))
      unit.pop_back();
    bool known = false;
    for (const auto& [name, factor] : kUnits)
      if (unit == name) {
        number *= factor;
        known = true;
      }
    if (!known)
      return invalid(
          "Valid units for this parameter are \"B\", \"kB\", \"MB\", "
          "\"GB\", and \"TB\".");
  }
  number = std::rint(number);
  if (number > 2147483647.0 || number < -2147483648.0)
    return invalid("Value exceeds integer range.");
  int64_t kb = static_cast<int64_t>(number);
  int64_t min = 0, max = 2147483647;
  if (def.choices) std::sscanf(def.choices, "%ld,%ld", &min, &max);
  if (kb < min || kb > max) {
    *error = Err("22023", std::to_string(kb) +
                              " kB is outside the valid range for parameter "
                              "\"" +
                              def.name + "\" (" + std::to_string(min) + " .. " +
                              std::to_string(max) + ")");
    return false;
  }
  std::string unit = "kB";
  int64_t shown = kb;
  for (const auto& [name, factor] : kUnits) {
    if (factor < 1) continue;
    int64_t f = static_cast<int64_t>(factor);
    if (kb != 0 && kb % f == 0) {
      shown = kb / f;
      unit = name;
      break;
    }
  }
  *out = std::to_string(shown) + unit;
  return true;
}

}  // namespace

Settings::Settings(const std::string& server_version, const std::string& user,
                   bool superuser) {
  for (const Def& d : kDefs) {
    std::string value = d.default_value;
    std::string name = d.name;
    if (name == "server_version") value = server_version;
    if (name == "server_version_num") {
      // "15.18" -> 150018
      int major = std::atoi(server_version.c_str());
      size_t dot = server_version.find('.');
      int minor = dot == std::string::npos
                      ? 0
                      : std::atoi(server_version.c_str() + dot + 1);
      value = std::to_string(major * 10000 + minor);
    }
    if (name == "session_authorization") value = user;
    if (name == "is_superuser") value = superuser ? "on" : "off";
    std::string key = Lower(name);
    values_[key].session = value;
    defaults_[key] = value;
  }
  for (const auto& [name, value] : Reported()) last_reported_[name] = value;
  Changed();
}

std::string Settings::CanonicalName(std::string_view name) const {
  const Def* def = FindDef(name);
  if (def) return def->name;
  if (name.find('.') != std::string_view::npos) return Lower(name);
  return "";
}

bool Settings::Normalise(const std::string& key, std::string_view raw,
                         std::string* out, PgError* error) const {
  const Def* def = FindDef(key);
  if (!def) {  // a custom "prefix.name" placeholder: any string
    *out = std::string(raw);
    return true;
  }
  std::string value(raw);
  switch (def->kind) {
    case Kind::kString:
      *out = value;
      return true;
    case Kind::kMemory:
      return NormaliseMemory(*def, value, out, error);
    case Kind::kDuration: {
      // A number with an optional unit (ms default); SHOW prints it back
      // the way PostgreSQL does for the common cases.
      std::string v = Trim(value);
      char* end = nullptr;
      double n = std::strtod(v.c_str(), &end);
      std::string unit = Lower(Trim(end ? end : ""));
      if (end == v.c_str()) {
        *error = Err("22023", std::string("invalid value for parameter \"") +
                                  key + "\": \"" + value + "\"");
        return false;
      }
      double ms = n;
      if (unit == "s")
        ms = n * 1000;
      else if (unit == "min")
        ms = n * 60000;
      else if (unit == "h")
        ms = n * 3600000;
      else if (unit == "d")
        ms = n * 86400000;
      else if (unit == "us")
        ms = n / 1000;
      else if (!unit.empty() && unit != "ms") {
        PgError e = Err("22023", std::string("invalid value for parameter \"") +
                                     key + "\": \"" + value + "\"");
        e.hint =
            "Valid units for this parameter are \"us\", \"ms\", \"s\", "
            "\"min\", \"h\", and \"d\".";
        *error = e;
        return false;
      }
      if (ms < 0 || ms > 2147483647) {
        *error = Err("22023", std::to_string(static_cast<long long>(ms)) +
                                  " ms is outside the valid range for "
                                  "parameter \"" +
                                  key + "\" (0 .. 2147483647)");
        return false;
      }
      long long m = static_cast<long long>(ms);
      if (m == 0)
        *out = "0";
      else if (m % 86400000 == 0)
        *out = std::to_string(m / 86400000) + "d";
      else if (m % 3600000 == 0)
        *out = std::to_string(m / 3600000) + "h";
      else if (m % 60000 == 0)
        *out = std::to_string(m / 60000) + "min";
      else if (m % 1000 == 0)
        *out = std::to_string(m / 1000) + "s";
      else
        *out = std::to_string(m) + "ms";
      return true;
    }
    case Kind::kBool: {
      bool b;
      if (!ParseBool(value, &b)) {
        *error = Err("22023", std::string("parameter \"") + key +
                                  "\" requires a Boolean value");
        return false;
      }
      *out = b ? "on" : "off";
      return true;
    }
    case Kind::kInt: {
      std::string v = Trim(value);
      char* end = nullptr;
      // Integers given with a fraction are rounded, as PostgreSQL does.
      double d = std::strtod(v.c_str(), &end);
      long n = static_cast<long>(std::nearbyint(d));  // half to even, as rint
      if (v.empty() || *end != '\0') {
        *error = Err("22023", std::string("invalid value for parameter \"") +
                                  key + "\": \"" + value + "\"");
        return false;
      }
      std::string range = def->choices;
      long lo = std::atol(range.c_str());
      long hi = std::atol(range.c_str() + range.find(',') + 1);
      if (n < lo || n > hi) {
        *error = Err("22023", std::to_string(n) +
                                  " is outside the valid range for parameter "
                                  "\"" +
                                  key + "\" (" + std::to_string(lo) + " .. " +
                                  std::to_string(hi) + ")");
        return false;
      }
      *out = std::to_string(n);
      return true;
    }
    case Kind::kEnum: {
      std::string v = Lower(Trim(value));
      if (v == "debug" && key == "client_min_messages") v = "debug2";
      std::string choices = def->choices;
      size_t start = 0;
      while (start <= choices.size()) {
        size_t comma = choices.find(',', start);
        std::string c = choices.substr(start, comma - start);
        if (c == v) {
          *out = c;
          return true;
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      PgError e = Err("22023", "invalid value for parameter \"" + key +
                                   "\": \"" + std::string(value) + "\"");
      std::string avail;
      for (char ch : choices)
        avail += ch == ',' ? std::string(", ") : std::string(1, ch);
      e.hint = "Available values: " + avail + ".";
      *error = e;
      return false;
    }
    case Kind::kEncoding: {
      std::string v = Lower(Trim(value));
      if (v == "utf8" || v == "utf-8" || v == "unicode") {
        *out = "UTF8";
        return true;
      }
      static const char* kKnown[] = {
          "latin1",    "latin2",     "latin9", "win1252", "win1251",
          "sql_ascii", "euc_jp",     "sjis",   "gbk",     "big5",
          "koi8r",     "iso_8859_5", "win866"};
      for (const char* known : kKnown) {
        if (v == known) {
          *error = Err("0A000", "client_encoding \"" + std::string(value) +
                                    "\" is not supported: Kova speaks UTF8 "
                                    "only");
          return false;
        }
      }
      *error = InvalidValue(*def, value);
      return false;
    }
    case Kind::kDateStyle: {
      // check_datestyle: a list of a style and/or an order; what is not
      // given keeps its current value ("German" alone implies DMY).
      std::string current = Get("DateStyle");
      size_t comma = current.find(',');
      std::string style = current.substr(0, comma);
      std::string order =
          comma == std::string::npos ? "MDY" : Trim(current.substr(comma + 1));
      bool have_style = false, have_order = false;
      std::string v = Lower(value);
      size_t start = 0;
      while (start <= v.size()) {
        size_t end = v.find_first_of(", ", start);
        std::string part = Trim(v.substr(start, end - start));
        if (!part.empty()) {
          std::string new_style, new_order;
          if (part == "iso")
            new_style = "ISO";
          else if (part == "sql")
            new_style = "SQL";
          else if (part == "postgres")
            new_style = "Postgres";
          else if (part == "german") {
            new_style = "German";
            if (!have_order) order = "DMY";
          } else if (part == "ymd")
            new_order = "YMD";
          else if (part == "dmy" || part == "euro" || part == "european")
            new_order = "DMY";
          else if (part == "mdy" || part == "us" || part == "noneuro" ||
                   part == "noneuropean")
            new_order = "MDY";
          else if (part == "default") {
            new_style = "ISO";
            new_order = "MDY";
          } else {
            *error = InvalidValue(*def, value);
            error->detail = "Unrecognized key word: \"" + part + "\".";
            return false;
          }
          if (!new_style.empty()) {
            if (have_style && new_style != style) {
              *error = InvalidValue(*def, value);
              error->detail = "Conflicting \"datestyle\" specifications.";
              return false;
            }
            style = new_style;
            have_style = true;
          }
          if (!new_order.empty()) {
            if (have_order && new_order != order) {
              *error = InvalidValue(*def, value);
              error->detail = "Conflicting \"datestyle\" specifications.";
              return false;
            }
            order = new_order;
            have_order = true;
          }
        }
        if (end == std::string::npos) break;
        start = end + 1;
      }
      *out = style + ", " + order;
      return true;
    }
    case Kind::kIntervalStyle: {
      std::string v = Lower(Trim(value));
      if (v == "postgres" || v == "postgres_verbose" || v == "sql_standard" ||
          v == "iso_8601") {
        *out = v;
        return true;
      }
      PgError e = Err("22023", "invalid value for parameter \"" + key +
                                   "\": \"" + std::string(value) + "\"");
      e.hint =
          "Available values: postgres, postgres_verbose, sql_standard, "
          "iso_8601.";
      *error = e;
      return false;
    }
    case Kind::kTimeZone: {
      std::string canonical, message, detail;
      if (!types::tz::CheckTimeZoneSetting(value, &canonical, &message,
                                           &detail)) {
        *error =
            message.empty() ? InvalidValue(*def, value) : Err("22023", message);
        error->detail = detail;
        return false;
      }
      *out = canonical;
      return true;
    }
  }
  *out = value;
  return true;
}

// A parameter SET and RESET may change: known (or a custom "a.b" one) and
// not read-only.
static bool CheckSettable(std::string_view name, const std::string& key,
                          PgError* error) {
  const Def* def = FindDef(name);
  if (!def && key.find('.') == std::string::npos) {
    *error = Err("42704", "unrecognized configuration parameter \"" +
                              std::string(name) + "\"");
    return false;
  }
  if (def && def->read_only) {
    *error = Err("55P02",
                 std::string("parameter \"") + key + "\" cannot be changed");
    return false;
  }
  return true;
}

bool Settings::Set(std::string_view name, std::string_view value, bool is_local,
                   PgError* error) {
  std::string key = Lower(name);
  if (!CheckSettable(name, key, error)) return false;
  std::string normalised;
  if (!Normalise(key, value, &normalised, error)) return false;
  BeforeChange();
  Value& v = values_[key];
  if (is_local) {
    v.local = normalised;
    v.has_local = true;
  } else {
    v.session = normalised;
    v.has_local = false;
  }
  Changed();
  return true;
}

bool Settings::SetStartup(std::string_view name, std::string_view value,
                          PgError* error) {
  if (!Set(name, value, false, error)) return false;
  std::string key = Lower(name);
  defaults_[key] = values_[key].session;
  return true;
}

bool Settings::Reset(std::string_view name, PgError* error) {
  std::string key = Lower(name);
  if (!CheckSettable(name, key, error)) return false;
  auto it = defaults_.find(key);
  BeforeChange();
  Value& v = values_[key];
  v.session = it == defaults_.end() ? "" : it->second;
  v.has_local = false;
  Changed();
  return true;
}

void Settings::ResetAll() {
  BeforeChange();
  for (auto& [key, v] : values_) {
    const Def* def = FindDef(key);
    if (def && def->read_only) continue;
    auto it = defaults_.find(key);
    v.session = it == defaults_.end() ? "" : it->second;
    v.has_local = false;
  }
  Changed();
}

bool Settings::Show(std::string_view name, std::string* value,
                    PgError* error) const {
  std::string key = Lower(name);
  auto it = values_.find(key);
  if (it == values_.end()) {
    *error = Err("42704", "unrecognized configuration parameter \"" +
                              std::string(name) + "\"");
    return false;
  }
  *value = it->second.effective();
  return true;
}

std::string Settings::Get(std::string_view name) const {
  auto it = values_.find(Lower(name));
  return it == values_.end() ? "" : it->second.effective();
}

std::vector<std::vector<std::string>> Settings::ShowAll() const {
  std::vector<std::vector<std::string>> rows;
  for (const Def& d : kDefs)
    rows.push_back({d.name, Get(d.name), d.description});
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return Lower(a[0]) < Lower(b[0]);
  });
  return rows;
}

void Settings::BeforeChange() {
  if (in_txn_ && !txn_snapshot_taken_) {
    txn_start_ = values_;
    txn_snapshot_taken_ = true;
  }
}

void Settings::OnBegin() {
  in_txn_ = true;
  txn_snapshot_taken_ = false;
  savepoints_.clear();
}

void Settings::OnCommit() {
  bool changed = txn_snapshot_taken_;
  in_txn_ = false;
  txn_snapshot_taken_ = false;
  savepoints_.clear();
  if (!changed) return;  // nothing was SET in this transaction
  for (auto& [key, v] : values_) v.has_local = false;
  txn_start_.clear();
  Changed();
}

void Settings::OnRollback() {
  bool changed = txn_snapshot_taken_;
  if (changed) values_ = txn_start_;
  in_txn_ = false;
  txn_snapshot_taken_ = false;
  savepoints_.clear();
  if (!changed) return;
  for (auto& [key, v] : values_) v.has_local = false;
  txn_start_.clear();
  Changed();
}

void Settings::OnSavepoint(const std::string& name) {
  BeforeChange();  // a rollback to it must be able to reach the start too
  savepoints_.emplace_back(name, values_);
}

void Settings::OnRollbackToSavepoint(const std::string& name) {
  for (size_t i = savepoints_.size(); i-- > 0;) {
    if (savepoints_[i].first == name) {
      values_ = savepoints_[i].second;
      savepoints_.resize(i + 1);  // the savepoint itself stays
      Changed();
      return;
    }
  }
}

void Settings::OnReleaseSavepoint(const std::string& name) {
  for (size_t i = savepoints_.size(); i-- > 0;) {
    if (savepoints_[i].first == name) {
      savepoints_.resize(i);
      return;
    }
  }
}

std::vector<std::pair<std::string, std::string>> Settings::Reported() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Def& d : kDefs)
    if (d.reported) out.emplace_back(d.name, Get(d.name));
  return out;
}

std::vector<std::pair<std::string, std::string>> Settings::TakeChanges() {
  std::vector<std::pair<std::string, std::string>> changes;
  if (!dirty_) return changes;
  dirty_ = false;
  for (auto& [name, value] : Reported()) {
    auto& last = last_reported_[name];
    if (last != value) {
      last = value;
      changes.emplace_back(name, value);
    }
  }
  return changes;
}

void Settings::Changed() {
  dirty_ = true;
  generation_++;
  type_context_.timezone = Get("TimeZone");
  type_context_.datestyle = Get("DateStyle");
  type_context_.intervalstyle = Get("IntervalStyle");
  type_context_.extra_float_digits =
      std::atoi(Get("extra_float_digits").c_str());
}

}  // namespace kova::planner
