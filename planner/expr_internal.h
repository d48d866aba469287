// Helpers shared by expression analysis and evaluation. Internal.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "planner/expr.h"
#include "planner/types.h"

namespace kova::planner::expr_detail {

inline PgError Err(const char* sqlstate, std::string message,
                   int location = -1) {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.position = location >= 0 ? location + 1 : 0;
  return e;
}

inline std::string TypeName(uint32_t type) {
  return types::FormatTypeName(type, -1);
}

inline bool IsInteger(uint32_t t) {
  return t == oid::kInt2 || t == oid::kInt4 || t == oid::kInt8;
}
inline bool IsFloat(uint32_t t) {
  return t == oid::kFloat4 || t == oid::kFloat8;
}
inline bool IsNumber(uint32_t t) {
  return IsInteger(t) || IsFloat(t) || t == oid::kNumeric;
}
inline bool IsText(uint32_t t) {
  return t == oid::kText || t == oid::kVarchar || t == oid::kBpchar ||
         t == oid::kName || t == oid::kUnknown;
}

inline std::unique_ptr<Expr> Const(uint32_t type, Value value, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kConst;
  e->type = type;
  e->value = std::move(value);
  e->location = location;
  return e;
}

// ---- helpers over canonical values --------------------------------------

inline bool ToInt64(const std::string& s, int64_t* out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

inline double ToDouble(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return std::numeric_limits<double>::infinity();
  if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::strtod(s.c_str(), nullptr);
}

inline bool FormatDouble(double d, uint32_t type, const types::TypeContext& ctx,
                         Value* out, PgError* error) {
  char buf[64];
  if (std::isnan(d)) {
    *out = "NaN";
    return true;
  }
  if (std::isinf(d)) {
    *out = d > 0 ? "Infinity" : "-Infinity";
    return true;
  }
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  std::string canonical;
  if (!types::InputText(type, -1, buf, ctx, &canonical, error)) return false;
  *out = canonical;
  return true;
}

inline const char* IntRangeName(uint32_t type) {
  return type == oid::kInt2   ? "smallint"
         : type == oid::kInt4 ? "integer"
                              : "bigint";
}

inline bool CheckIntRange(int64_t v, uint32_t type, PgError* error) {
  int64_t lo = type == oid::kInt2   ? std::numeric_limits<int16_t>::min()
               : type == oid::kInt4 ? std::numeric_limits<int32_t>::min()
                                    : std::numeric_limits<int64_t>::min();
  int64_t hi = type == oid::kInt2   ? std::numeric_limits<int16_t>::max()
               : type == oid::kInt4 ? std::numeric_limits<int32_t>::max()
                                    : std::numeric_limits<int64_t>::max();
  if (v < lo || v > hi) {
    *error = Err("22003", std::string(IntRangeName(type)) + " out of range");
    return false;
  }
  return true;
}

// The result type of arithmetic between two number types.
inline uint32_t ArithmeticType(uint32_t a, uint32_t b) {
  if (a == oid::kFloat8 || b == oid::kFloat8) return oid::kFloat8;
  if (IsFloat(a) || IsFloat(b)) {
    return (a == oid::kFloat4 && b == oid::kFloat4) ? oid::kFloat4
                                                    : oid::kFloat8;
  }
  if (a == oid::kNumeric || b == oid::kNumeric) return oid::kNumeric;
  if (a == oid::kInt8 || b == oid::kInt8) return oid::kInt8;
  if (a == oid::kInt4 || b == oid::kInt4) return oid::kInt4;
  return oid::kInt2;
}

struct FunctionDef {
  const char* name;
  std::vector<uint32_t> args;
  uint32_t result;
};

// Built-in functions (by lower-case name, without pg_catalog.).
inline const std::vector<FunctionDef>& Functions() {
  static const std::vector<FunctionDef> defs = {
      {"version", {}, oid::kText},
      {"current_database", {}, oid::kName},
      {"current_schema", {}, oid::kName},
      {"current_user", {}, oid::kName},
      {"session_user", {}, oid::kName},
      {"pg_backend_pid", {}, oid::kInt4},
      {"pg_is_in_recovery", {}, oid::kBool},
      {"current_setting", {oid::kText}, oid::kText},
      {"current_setting", {oid::kText, oid::kBool}, oid::kText},
      {"set_config", {oid::kText, oid::kText, oid::kBool}, oid::kText},
      {"pg_sleep", {oid::kFloat8}, oid::kVoid},
      {"now", {}, oid::kTimestamptz},
      {"transaction_timestamp", {}, oid::kTimestamptz},
      {"statement_timestamp", {}, oid::kTimestamptz},
      {"clock_timestamp", {}, oid::kTimestamptz},
      {"length", {oid::kText}, oid::kInt4},
      {"chr", {oid::kInt4}, oid::kText},
      {"split_part", {oid::kText, oid::kText, oid::kInt4}, oid::kText},
      {"char_length", {oid::kText}, oid::kInt4},
      {"lower", {oid::kText}, oid::kText},
      {"upper", {oid::kText}, oid::kText},
      {"abs", {oid::kInt4}, oid::kInt4},
      {"abs", {oid::kInt8}, oid::kInt8},
      {"abs", {oid::kFloat8}, oid::kFloat8},
      // Session functions (SessionHooks::CallSessionFunction). regclass
      // arguments are taken as text naming the relation.
      {"nextval", {oid::kText}, oid::kInt8},
      {"currval", {oid::kText}, oid::kInt8},
      {"lastval", {}, oid::kInt8},
      {"setval", {oid::kText, oid::kInt8}, oid::kInt8},
      {"setval", {oid::kText, oid::kInt8, oid::kBool}, oid::kInt8},
      {"pg_get_serial_sequence", {oid::kText, oid::kText}, oid::kText},
      {"kova.command", {oid::kText, oid::kJsonb}, oid::kJsonb},
  };
  return defs;
}

inline bool IsSessionFunction(const std::string& name) {
  return name == "nextval" || name == "currval" || name == "lastval" ||
         name == "setval" || name == "pg_get_serial_sequence" ||
         name == "kova.command";
}

inline std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

inline std::string TimestampFromMicros(int64_t micros) {
  time_t secs = static_cast<time_t>(micros / 1000000);
  int64_t frac = micros % 1000000;
  struct tm tm;
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<long long>(frac));
  return buf;
}

}  // namespace kova::planner::expr_detail
