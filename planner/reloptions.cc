// Storage parameters: PostgreSQL 15's table (heap), B-tree, hash and column
// options with their types and bounds, and the parsing rules of its
// reloptions.c (parse_bool, parse_int, parse_real), so that what PostgreSQL
// accepts is accepted and kept as written, and what it refuses is refused
// with the same message.
#include "planner/reloptions.h"

#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/session_util.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner {
namespace {

enum class OptionType { kBool, kInt, kReal, kIndexCleanup };

struct OptionSpec {
  const char* name;
  OptionType type;
  double min, max;
};

constexpr double kIntMax = 2147483647;

// Heap tables (PostgreSQL's heap and autovacuum options).
constexpr OptionSpec kTableOptions[] = {
    {"fillfactor", OptionType::kInt, 10, 100},
    {"toast_tuple_target", OptionType::kInt, 128, 8160},
    {"parallel_workers", OptionType::kInt, 0, 1024},
    {"autovacuum_enabled", OptionType::kBool, 0, 0},
    {"autovacuum_vacuum_threshold", OptionType::kInt, 0, kIntMax},
    {"autovacuum_vacuum_insert_threshold", OptionType::kInt, -1, kIntMax},
    {"autovacuum_analyze_threshold", OptionType::kInt, 0, kIntMax},
    {"autovacuum_vacuum_cost_limit", OptionType::kInt, 1, 10000},
    {"autovacuum_freeze_min_age", OptionType::kInt, 0, 1000000000},
    {"autovacuum_multixact_freeze_min_age", OptionType::kInt, 0, 1000000000},
    {"autovacuum_freeze_max_age", OptionType::kInt, 100000, 2000000000},
    {"autovacuum_multixact_freeze_max_age", OptionType::kInt, 10000,
     2000000000},
    {"autovacuum_freeze_table_age", OptionType::kInt, 0, 2000000000},
    {"autovacuum_multixact_freeze_table_age", OptionType::kInt, 0, 2000000000},
    {"log_autovacuum_min_duration", OptionType::kInt, -1, kIntMax},
    {"autovacuum_vacuum_cost_delay", OptionType::kReal, 0, 100},
    {"autovacuum_vacuum_scale_factor", OptionType::kReal, 0, 100},
    {"autovacuum_vacuum_insert_scale_factor", OptionType::kReal, 0, 100},
    {"autovacuum_analyze_scale_factor", OptionType::kReal, 0, 100},
    {"user_catalog_table", OptionType::kBool, 0, 0},
    {"vacuum_index_cleanup", OptionType::kIndexCleanup, 0, 0},
    {"vacuum_truncate", OptionType::kBool, 0, 0},
};

constexpr OptionSpec kBtreeOptions[] = {
    {"fillfactor", OptionType::kInt, 10, 100},
    {"deduplicate_items", OptionType::kBool, 0, 0},
};

constexpr OptionSpec kHashOptions[] = {
    {"fillfactor", OptionType::kInt, 10, 100},
};

constexpr OptionSpec kColumnOptions[] = {
    {"n_distinct", OptionType::kReal, -1, std::numeric_limits<double>::max()},
    {"n_distinct_inherited", OptionType::kReal, -1,
     std::numeric_limits<double>::max()},
};

template <size_t N>
const OptionSpec* FindIn(const OptionSpec (&specs)[N], const std::string& n) {
  for (const auto& s : specs)
    if (n == s.name) return &s;
  return nullptr;
}

const OptionSpec* FindOption(RelOptionTarget target, const std::string& name) {
  switch (target) {
    case RelOptionTarget::kTable:
      return FindIn(kTableOptions, name);
    case RelOptionTarget::kBtreeIndex:
      return FindIn(kBtreeOptions, name);
    case RelOptionTarget::kHashIndex:
      return FindIn(kHashOptions, name);
    case RelOptionTarget::kColumn:
      return FindIn(kColumnOptions, name);
  }
  return nullptr;
}

bool EqualsIgnoringCase(const std::string& a, const char* b) {
  return strcasecmp(a.c_str(), b) == 0;
}

// parse_bool: true/false/yes/no by any unambiguous prefix, on/off, 1/0.
bool ParseBool(const std::string& v, bool* out) {
  auto prefix_of = [&](const char* word, size_t min_len) {
    return v.size() >= min_len && v.size() <= strlen(word) &&
           strncasecmp(v.c_str(), word, v.size()) == 0;
  };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || prefix_of("on", 2) ||
      v == "1") {
    *out = true;
    return true;
  }
  if (prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) ||
      v == "0") {
    *out = false;
    return true;
  }
  return false;
}

bool OnlySpaceFrom(const char* p) {
  while (*p && isspace(static_cast<unsigned char>(*p))) p++;
  return *p == '\0';
}

// parse_int: C's strtol with any base prefix, or a number with a fraction
// or exponent rounded to the nearest integer; trailing spaces allowed.
bool ParseInt(const std::string& v, double* out) {
  const char* s = v.c_str();
  char* end;
  errno = 0;
  long long n = strtoll(s, &end, 0);
  if (end == s || errno == ERANGE) return false;
  double value = static_cast<double>(n);
  if (*end == '.' || *end == 'e' || *end == 'E') {
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || errno == ERANGE) return false;
    d = std::rint(d);
    if (std::isnan(d)) return false;
    value = d;
  }
  if (value < -2147483648.0 || value > kIntMax) return false;
  if (!OnlySpaceFrom(end)) return false;
  *out = value;
  return true;
}

bool ParseReal(const std::string& v, double* out) {
  const char* s = v.c_str();
  char* end;
  errno = 0;
  double d = strtod(s, &end);
  if (end == s || errno == ERANGE || std::isnan(d)) return false;
  if (!OnlySpaceFrom(end)) return false;
  *out = d;
  return true;
}

bool CheckValue(const OptionSpec& spec, const std::string& value,
                PgError* error) {
  auto invalid = [&](const char* kind) {
    *error = Err("22023", std::string("invalid value for ") + kind +
                              " option \"" + spec.name + "\": " + value);
    return false;
  };
  auto out_of_bounds = [&](const std::string& min, const std::string& max) {
    *error = Err("22023", "value " + value + " out of bounds for option \"" +
                              spec.name + "\"");
    error->detail =
        "Valid values are between \"" + min + "\" and \"" + max + "\".";
    return false;
  };
  switch (spec.type) {
    case OptionType::kBool: {
      bool b;
      return ParseBool(value, &b) || invalid("boolean");
    }
    case OptionType::kInt: {
      double d;
      if (!ParseInt(value, &d)) return invalid("integer");
      if (d < spec.min || d > spec.max)
        return out_of_bounds(std::to_string(static_cast<long long>(spec.min)),
                             std::to_string(static_cast<long long>(spec.max)));
      return true;
    }
    case OptionType::kReal: {
      double d;
      if (!ParseReal(value, &d)) return invalid("floating point");
      if (d < spec.min || d > spec.max) {
        char min[64], max[400];
        snprintf(min, sizeof min, "%f", spec.min);
        snprintf(max, sizeof max, "%f", spec.max);
        return out_of_bounds(min, max);
      }
      return true;
    }
    case OptionType::kIndexCleanup:
      for (const char* ok :
           {"auto", "on", "off", "true", "false", "yes", "no", "1", "0"})
        if (EqualsIgnoringCase(value, ok)) return true;
      *error = Err("22023", std::string("invalid value for enum option \"") +
                                spec.name + "\": " + value);
      error->detail = "Valid values are \"on\", \"off\", and \"auto\".";
      return false;
  }
  return false;
}

// The text of a DefElem's value as PostgreSQL's defGetString gives it;
// "true" when the parameter has no value.
std::string DefValue(const PgQuery__DefElem* d) {
  const PgQuery__Node* arg = d->arg;
  if (!arg) return "true";
  switch (arg->node_case) {
    case PG_QUERY__NODE__NODE_INTEGER:
      return std::to_string(arg->integer->ival);
    case PG_QUERY__NODE__NODE_FLOAT:
      return arg->float_->fval ? arg->float_->fval : "";
    case PG_QUERY__NODE__NODE_STRING:
      return arg->string->sval ? arg->string->sval : "";
    case PG_QUERY__NODE__NODE_BOOLEAN:
      return arg->boolean->boolval ? "true" : "false";
    case PG_QUERY__NODE__NODE_TYPE_NAME: {
      std::string out;
      const PgQuery__TypeName* t = arg->type_name;
      for (size_t i = 0; i < t->n_names; i++) {
        if (t->names[i]->node_case != PG_QUERY__NODE__NODE_STRING) continue;
        if (!out.empty()) out += ".";
        out += t->names[i]->string->sval;
      }
      return out;
    }
    default:
      return "";
  }
}

std::string OptionName(const std::string& entry) {
  return entry.substr(0, entry.find('='));
}

}  // namespace

bool MergeRelOptions(RelOptionTarget target, PgQuery__Node* const* defs,
                     size_t n_defs, bool reset, bool create_table,
                     std::vector<std::string>* options, PgError* error) {
  std::vector<std::string> named;  // the parameters the list names
  std::vector<std::string> added;
  for (size_t i = 0; i < n_defs; i++) {
    if (defs[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
    const PgQuery__DefElem* d = defs[i]->def_elem;
    std::string name = d->defname ? d->defname : "";
    if (d->defnamespace && *d->defnamespace) {
      std::string space = d->defnamespace;
      if (target != RelOptionTarget::kTable || space != "toast") {
        *error =
            Err("22023", "unrecognized parameter namespace \"" + space + "\"");
        return false;
      }
      *error = Err("0A000",
                   "storage parameters of a table's TOAST table (toast." +
                       name + ") are not supported: documents have no TOAST");
      return false;
    }
    if (reset && d->arg) {
      *error = Err("42601", "RESET must not include values for parameters");
      return false;
    }
    if (create_table && target == RelOptionTarget::kTable && name == "oids") {
      bool with_oids;
      if (ParseBool(DefValue(d), &with_oids) && with_oids) {
        *error = Err("0A000", "tables declared WITH OIDS are not supported");
        return false;
      }
      continue;
    }
    named.push_back(name);
    if (!reset) added.push_back(name + "=" + DefValue(d));
  }
  std::vector<std::string> merged;
  for (const auto& entry : *options) {
    std::string name = OptionName(entry);
    if (std::find(named.begin(), named.end(), name) == named.end())
      merged.push_back(entry);
  }
  merged.insert(merged.end(), added.begin(), added.end());
  // Validate the whole result, in order, as PostgreSQL's parseRelOptions.
  std::vector<std::string> seen;
  for (const auto& entry : merged) {
    std::string name = OptionName(entry);
    const OptionSpec* spec = FindOption(target, name);
    if (!spec) {
      *error = Err("22023", "unrecognized parameter \"" + name + "\"");
      return false;
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      *error =
          Err("22023", "parameter \"" + name + "\" specified more than once");
      return false;
    }
    seen.push_back(name);
    size_t eq = entry.find('=');
    if (!CheckValue(*spec, eq == std::string::npos ? "" : entry.substr(eq + 1),
                    error))
      return false;
  }
  *options = std::move(merged);
  return true;
}

bool ColumnCompression(const std::string& method, uint32_t type, char* out,
                       PgError* error) {
  // Only types PostgreSQL can TOAST take a compression method.
  if (system_catalog::Storage(type) == 'p') {
    *error = Err("0A000", "column data type " + alter_detail::TypeName(type) +
                              " does not support compression");
    return false;
  }
  if (method == "default") {
    *out = 0;
  } else if (method == "pglz") {
    *out = 'p';
  } else if (method == "lz4") {
    *out = 'l';
  } else {
    *error = Err("22023", "invalid compression method \"" + method + "\"");
    return false;
  }
  return true;
}

std::string RelOptionsClause(const std::vector<std::string>& options) {
  if (options.empty()) return "";
  std::string out = " WITH (";
  for (size_t i = 0; i < options.size(); i++) {
    const std::string& entry = options[i];
    size_t eq = entry.find('=');
    std::string name = entry.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : entry.substr(eq + 1);
    if (i) out += ", ";
    out += QuoteIdentifier(name) + "=";
    if (QuoteIdentifier(value) == value) {
      out += value;
    } else {
      out += "'";
      for (char c : value) {
        if (c == '\'') out += c;
        out += c;
      }
      out += "'";
    }
  }
  return out + ")";
}

}  // namespace kova::planner
