// PostgreSQL 15's type system for the types Kova supports: metadata, text
// input/output, binary send/receive and casts. The numeric, date/time, time
// zone and JSON machinery lives in planner/types_*.cc.
//
// Conventions:
//  - Type modifiers are PostgreSQL's atttypmod values: n + 4 for char(n) and
//    varchar(n), ((p << 16) | s) + 4 for numeric(p,s), p for time(p) and
//    timestamp(p), INTERVAL_TYPMOD(precision, fields) for interval.
//  - InputText and BinaryToText apply a modifier as an assignment does
//    (INSERT: 22001 for a varchar(3) given "abcd"); Cast applies it as an
//    explicit cast does (::varchar(3) truncates to "abc").
//  - A canonical value is only meaningful under the TypeContext it was made
//    with (timestamptz text is in that TimeZone and DateStyle, floats follow
//    extra_float_digits); TextToBinary and Cast must get the same context.
//  - Array values are handled by planner/types_array.cc.

#include "planner/types.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "planner/types_array.h"
#include "planner/types_datetime.h"
#include "planner/types_ids.h"
#include "planner/types_json.h"
#include "planner/types_numeric.h"
#include "planner/types_util.h"
#include "planner/user_types.h"

namespace kova::planner::types {

namespace {

using util::Fail;

// Array type OIDs.
constexpr uint32_t kBoolArray = 1000;
constexpr uint32_t kByteaArray = 1001;
constexpr uint32_t kNameArray = 1003;
constexpr uint32_t kInt2Array = 1005;
constexpr uint32_t kInt4Array = 1007;
constexpr uint32_t kTextArray = 1009;
constexpr uint32_t kBpcharArray = 1014;
constexpr uint32_t kVarcharArray = 1015;
constexpr uint32_t kInt8Array = 1016;
constexpr uint32_t kFloat4Array = 1021;
constexpr uint32_t kFloat8Array = 1022;
constexpr uint32_t kOidArray = 1028;
constexpr uint32_t kTimestampArray = 1115;
constexpr uint32_t kDateArray = 1182;
constexpr uint32_t kTimeArray = 1183;
constexpr uint32_t kTimestamptzArray = 1185;
constexpr uint32_t kIntervalArray = 1187;
constexpr uint32_t kJsonArray = 199;
constexpr uint32_t kNumericArray = 1231;
constexpr uint32_t kUuidArray = 2951;
constexpr uint32_t kJsonbArray = 3807;
constexpr uint32_t kInt2Vector = 22;

// Sorted by OID for binary search.
constexpr TypeInfo kTypes[] = {
    {oid::kBool, "bool", 1, 'B', kBoolArray, 0},
    {oid::kBytea, "bytea", -1, 'U', kByteaArray, 0},
    {oid::kName, "name", 64, 'S', kNameArray, 0},
    {oid::kInt8, "int8", 8, 'N', kInt8Array, 0},
    {oid::kInt2, "int2", 2, 'N', kInt2Array, 0},
    // int2vector (pg_index.indkey): an int2 array counted from 0, shown as
    // "1 2" (types_array.cc).
    {kInt2Vector, "int2vector", -1, 'A', 0, oid::kInt2},
    {oid::kInt4, "int4", 4, 'N', kInt4Array, 0},
    {oid::kText, "text", -1, 'S', kTextArray, 0},
    {oid::kOid, "oid", 4, 'N', kOidArray, 0},
    // Row and transaction identifiers (system columns, txid functions).
    {oid::kTid, "tid", 6, 'U', 0, 0},
    {oid::kXid, "xid", 4, 'U', 0, 0},
    {oid::kCid, "cid", 4, 'U', 0, 0},
    {oid::kJson, "json", -1, 'U', kJsonArray, 0},
    {kJsonArray, "_json", -1, 'A', 0, oid::kJson},
    {oid::kFloat4, "float4", 4, 'N', kFloat4Array, 0},
    {oid::kFloat8, "float8", 8, 'N', kFloat8Array, 0},
    {oid::kUnknown, "unknown", -2, 'X', 0, 0},
    {kBoolArray, "_bool", -1, 'A', 0, oid::kBool},
    {kByteaArray, "_bytea", -1, 'A', 0, oid::kBytea},
    {kNameArray, "_name", -1, 'A', 0, oid::kName},
    {kInt2Array, "_int2", -1, 'A', 0, oid::kInt2},
    {kInt4Array, "_int4", -1, 'A', 0, oid::kInt4},
    {kTextArray, "_text", -1, 'A', 0, oid::kText},
    {kBpcharArray, "_bpchar", -1, 'A', 0, oid::kBpchar},
    {kVarcharArray, "_varchar", -1, 'A', 0, oid::kVarchar},
    {kInt8Array, "_int8", -1, 'A', 0, oid::kInt8},
    {kFloat4Array, "_float4", -1, 'A', 0, oid::kFloat4},
    {kFloat8Array, "_float8", -1, 'A', 0, oid::kFloat8},
    {kOidArray, "_oid", -1, 'A', 0, oid::kOid},
    {oid::kBpchar, "bpchar", -1, 'S', kBpcharArray, 0},
    {oid::kVarchar, "varchar", -1, 'S', kVarcharArray, 0},
    {oid::kDate, "date", 4, 'D', kDateArray, 0},
    {oid::kTime, "time", 8, 'D', kTimeArray, 0},
    {oid::kTimestamp, "timestamp", 8, 'D', kTimestampArray, 0},
    {kTimestampArray, "_timestamp", -1, 'A', 0, oid::kTimestamp},
    {kDateArray, "_date", -1, 'A', 0, oid::kDate},
    {kTimeArray, "_time", -1, 'A', 0, oid::kTime},
    {oid::kTimestamptz, "timestamptz", 8, 'D', kTimestamptzArray, 0},
    {kTimestamptzArray, "_timestamptz", -1, 'A', 0, oid::kTimestamptz},
    {oid::kInterval, "interval", 16, 'T', kIntervalArray, 0},
    {kIntervalArray, "_interval", -1, 'A', 0, oid::kInterval},
    {kNumericArray, "_numeric", -1, 'A', 0, oid::kNumeric},
    {oid::kNumeric, "numeric", -1, 'N', kNumericArray, 0},
    // regtype: the type's name (the analyser resolves literals and keeps
    // the OID beside them, see RegtypeConst).
    {2206, "regtype", 4, 'N', 0, 0},
    {oid::kRecord, "record", -1, 'P', 0, 0},
    {oid::kVoid, "void", 4, 'P', 0, 0},
    {oid::kUuid, "uuid", 16, 'U', kUuidArray, 0},
    {kUuidArray, "_uuid", -1, 'A', 0, oid::kUuid},
    {oid::kJsonb, "jsonb", -1, 'U', kJsonbArray, 0},
    {kJsonbArray, "_jsonb", -1, 'A', 0, oid::kJsonb},
    {oid::kXid8, "xid8", 8, 'U', 0, 0},
};

constexpr bool TypesSorted() {
  for (size_t i = 1; i < sizeof(kTypes) / sizeof(kTypes[0]); ++i) {
    if (kTypes[i - 1].oid >= kTypes[i].oid) return false;
  }
  return true;
}
static_assert(TypesSorted(), "kTypes must be sorted by OID");

struct NameEntry {
  const char* name;
  uint32_t oid;
};

// Every spelling PostgreSQL's grammar and catalog accept for these types.
constexpr NameEntry kNames[] = {
    {"bool", oid::kBool},
    {"boolean", oid::kBool},
    {"bytea", oid::kBytea},
    {"name", oid::kName},
    {"int8", oid::kInt8},
    {"bigint", oid::kInt8},
    {"int2", oid::kInt2},
    {"int2vector", kInt2Vector},
    {"smallint", oid::kInt2},
    {"int4", oid::kInt4},
    {"int", oid::kInt4},
    {"integer", oid::kInt4},
    {"text", oid::kText},
    {"oid", oid::kOid},
    {"tid", oid::kTid},
    {"xid", oid::kXid},
    {"cid", oid::kCid},
    {"xid8", oid::kXid8},
    {"json", oid::kJson},
    {"float4", oid::kFloat4},
    {"real", oid::kFloat4},
    {"float8", oid::kFloat8},
    {"double precision", oid::kFloat8},
    {"float", oid::kFloat8},
    {"unknown", oid::kUnknown},
    {"bpchar", oid::kBpchar},
    {"char", oid::kBpchar},
    {"character", oid::kBpchar},
    {"nchar", oid::kBpchar},
    {"national character", oid::kBpchar},
    {"national char", oid::kBpchar},
    {"varchar", oid::kVarchar},
    {"character varying", oid::kVarchar},
    {"char varying", oid::kVarchar},
    {"national character varying", oid::kVarchar},
    {"national char varying", oid::kVarchar},
    {"nchar varying", oid::kVarchar},
    {"date", oid::kDate},
    {"time", oid::kTime},
    {"time without time zone", oid::kTime},
    {"timestamp", oid::kTimestamp},
    {"timestamp without time zone", oid::kTimestamp},
    {"timestamptz", oid::kTimestamptz},
    {"timestamp with time zone", oid::kTimestamptz},
    {"interval", oid::kInterval},
    {"numeric", oid::kNumeric},
    {"decimal", oid::kNumeric},
    {"dec", oid::kNumeric},
    {"uuid", oid::kUuid},
    {"void", oid::kVoid},
    {"jsonb", oid::kJsonb},
};

bool IsStringCategory(uint32_t type) {
  return type == oid::kText || type == oid::kVarchar || type == oid::kBpchar ||
         type == oid::kName;
}

bool IsArrayOid(uint32_t type) { return ArrayElementType(type) != 0; }

bool UnknownType(uint32_t type, PgError* error) {
  if (IsArrayOid(type)) {
    return Fail(error, "0A000",
                "array values of type " + FormatTypeName(type, -1) +
                    " are not supported yet");
  }
  return Fail(error, "42704",
              "type with OID " + std::to_string(type) + " does not exist");
}

// --- bool ---

// pg_strncasecmp(rest, word, n) == 0, rest running to the end of input.
bool CaseEqualN(std::string_view rest, std::string_view word, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    char a = i < rest.size() ? util::ToLower(rest[i]) : '\0';
    char b = i < word.size() ? word[i] : '\0';
    if (a != b) return false;
    if (a == '\0') return true;
  }
  return true;
}

bool ParseBool(std::string_view in, bool* out) {
  size_t start = 0;
  while (start < in.size() && util::IsSpace(in[start])) ++start;
  size_t len = in.size() - start;
  while (len > 0 && util::IsSpace(in[start + len - 1])) --len;
  std::string_view rest = in.substr(start);
  if (len == 0) return false;
  switch (rest[0]) {
    case 't':
    case 'T':
      if (CaseEqualN(rest, "true", len)) return *out = true, true;
      break;
    case 'f':
    case 'F':
      if (CaseEqualN(rest, "false", len)) return *out = false, true;
      break;
    case 'y':
    case 'Y':
      if (CaseEqualN(rest, "yes", len)) return *out = true, true;
      break;
    case 'n':
    case 'N':
      if (CaseEqualN(rest, "no", len)) return *out = false, true;
      break;
    case 'o':
    case 'O':
      if (CaseEqualN(rest, "on", len > 2 ? len : 2)) return *out = true, true;
      if (CaseEqualN(rest, "off", len > 2 ? len : 2)) {
        return *out = false, true;
      }
      break;
    case '1':
      if (len == 1) return *out = true, true;
      break;
    case '0':
      if (len == 1) return *out = false, true;
      break;
    default:
      break;
  }
  return false;
}

// --- oid ---

bool ParseOid(std::string_view in, uint32_t* out, PgError* error) {
  std::string s(in);
  if (s.empty()) return util::InvalidSyntax(error, "oid", in);
  errno = 0;
  char* end;
  unsigned long cvt = std::strtoul(s.c_str(), &end, 10);
  if (errno && errno != ERANGE && errno != EINVAL) {
    return util::InvalidSyntax(error, "oid", in);
  }
  if (end == s.c_str()) return util::InvalidSyntax(error, "oid", in);
  if (errno == ERANGE) {
    return Fail(error, "22003",
                "value \"" + s + "\" is out of range for type oid");
  }
  while (*end && util::IsSpace(*end)) ++end;
  if (*end) return util::InvalidSyntax(error, "oid", in);
  uint32_t result = static_cast<uint32_t>(cvt);
  if (cvt != static_cast<unsigned long>(result) &&
      cvt != static_cast<unsigned long>(static_cast<int>(result))) {
    return Fail(error, "22003",
                "value \"" + s + "\" is out of range for type oid");
  }
  *out = result;
  return true;
}

// --- bytea ---

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ByteaIn(std::string_view in, std::string* bytes, PgError* error) {
  bytes->clear();
  if (in.size() >= 2 && in[0] == '\\' && in[1] == 'x') {
    size_t s = 2;
    bytes->reserve((in.size() - 2) / 2);
    while (s < in.size()) {
      char c = in[s];
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        ++s;
        continue;
      }
      auto bad_digit = [&](size_t pos) {
        size_t l = util::Utf8CharLen(static_cast<unsigned char>(in[pos]));
        return Fail(error, "22023",
                    "invalid hexadecimal digit: \"" +
                        std::string(in.substr(pos, l)) + "\"");
      };
      int v1 = HexValue(c);
      if (v1 < 0) return bad_digit(s);
      ++s;
      if (s >= in.size()) {
        return Fail(error, "22023",
                    "invalid hexadecimal data: odd number of digits");
      }
      int v2 = HexValue(in[s]);
      if (v2 < 0) return bad_digit(s);
      ++s;
      bytes->push_back(static_cast<char>((v1 << 4) | v2));
    }
    return true;
  }
  size_t i = 0;
  const size_t n = in.size();
  auto at = [&](size_t k) -> char { return k < n ? in[k] : '\0'; };
  while (i < n) {
    if (in[i] != '\\') {
      bytes->push_back(in[i++]);
    } else if (at(i + 1) >= '0' && at(i + 1) <= '3' && at(i + 2) >= '0' &&
               at(i + 2) <= '7' && at(i + 3) >= '0' && at(i + 3) <= '7') {
      int v = ((at(i + 1) - '0') << 6) | ((at(i + 2) - '0') << 3) |
              (at(i + 3) - '0');
      bytes->push_back(static_cast<char>(v));
      i += 4;
    } else if (at(i + 1) == '\\') {
      bytes->push_back('\\');
      i += 2;
    } else {
      return Fail(error, "22P02", "invalid input syntax for type bytea");
    }
  }
  return true;
}

void ByteaOut(std::string_view bytes, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + 2 + bytes.size() * 2);
  out->append("\\x");
  for (char c : bytes) {
    auto b = static_cast<unsigned char>(c);
    out->push_back(kHex[b >> 4]);
    out->push_back(kHex[b & 15]);
  }
}

// --- uuid ---

bool UuidIn(std::string_view in, unsigned char data[16], PgError* error) {
  size_t p = 0;
  const size_t n = in.size();
  bool braces = false;
  if (n > 0 && in[0] == '{') {
    ++p;
    braces = true;
  }
  for (int i = 0; i < 16; ++i) {
    if (p + 1 >= n) return util::InvalidSyntax(error, "uuid", in);
    int hi = HexValue(in[p]);
    int lo = HexValue(in[p + 1]);
    if (hi < 0 || lo < 0) return util::InvalidSyntax(error, "uuid", in);
    data[i] = static_cast<unsigned char>((hi << 4) | lo);
    p += 2;
    if (p < n && in[p] == '-' && (i % 2) == 1 && i < 15) ++p;
  }
  if (braces) {
    if (p >= n || in[p] != '}') return util::InvalidSyntax(error, "uuid", in);
    ++p;
  }
  if (p != n) return util::InvalidSyntax(error, "uuid", in);
  return true;
}

void UuidOut(const unsigned char data[16], std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out->push_back('-');
    out->push_back(kHex[data[i] >> 4]);
    out->push_back(kHex[data[i] & 15]);
  }
}

// --- character types ---

std::string CharTypeName(uint32_t type, int32_t maxlen) {
  return std::string(type == oid::kVarchar ? "character varying("
                                           : "character(") +
         std::to_string(maxlen) + ")";
}

// MaxAttrSize: the largest n of char(n) / varchar(n).
constexpr int32_t kMaxCharLength = 10 * 1024 * 1024;

// varchar_input / bpchar_input (implicit-coercion semantics: characters
// beyond n must be spaces) or, explicit, silent truncation. bpchar pads.
bool CharCoerce(uint32_t type, int32_t typmod, bool explicit_cast,
                std::string_view in, std::string* out, PgError* error) {
  if (typmod < 4) {
    out->assign(in);
    return true;
  }
  if (typmod - 4 > kMaxCharLength) {
    // PostgreSQL rejects such a modifier when the type is named.
    return Fail(error, "22023",
                std::string("length for type ") +
                    (type == oid::kVarchar ? "varchar" : "char") +
                    " cannot exceed " + std::to_string(kMaxCharLength));
  }
  size_t maxlen = static_cast<size_t>(typmod - 4);
  size_t len = in.size();
  if (type == oid::kVarchar) {
    if (len > maxlen) {
      size_t clip = util::Utf8ClipChars(in, maxlen);
      if (!explicit_cast) {
        for (size_t j = clip; j < len; ++j) {
          if (in[j] != ' ') {
            return Fail(error, "22001",
                        "value too long for type " +
                            CharTypeName(type, static_cast<int32_t>(maxlen)));
          }
        }
      }
      len = clip;
    }
    out->assign(in.substr(0, len));
    return true;
  }
  size_t charlen = util::Utf8Length(in);
  if (charlen > maxlen) {
    size_t clip = util::Utf8ClipChars(in, maxlen);
    if (!explicit_cast) {
      for (size_t j = clip; j < len; ++j) {
        if (in[j] != ' ') {
          return Fail(error, "22001",
                      "value too long for type " +
                          CharTypeName(type, static_cast<int32_t>(maxlen)));
        }
      }
    }
    out->assign(in.substr(0, clip));
    return true;
  }
  out->assign(in);
  out->append(maxlen - charlen, ' ');
  return true;
}

std::string_view RTrimSpaces(std::string_view s) {
  size_t len = s.size();
  while (len > 0 && s[len - 1] == ' ') --len;
  return s.substr(0, len);
}

void NameIn(std::string_view in, std::string* out) {
  size_t len = in.size();
  if (len >= 64) len = util::Utf8ClipBytes(in, 63);
  out->assign(in.substr(0, len));
}

// --- helpers for parsing canonical values ---

bool CanonicalInt(std::string_view s, int64_t* v) {
  return util::ParseInt(s, 64, v, nullptr);
}

void AppendFloatByType(uint32_t type, double v, const TypeContext& context,
                       std::string* out) {
  if (type == oid::kFloat4) {
    util::AppendFloat4(out, static_cast<float>(v), context.extra_float_digits);
  } else {
    util::AppendFloat8(out, v, context.extra_float_digits);
  }
}

// Parses a canonical float. With extra_float_digits <= 0 the canonical
// text is rounded and may lie just beyond the largest finite value
// ("1.79769313486232e+308"); that reads back as the largest finite value.
bool CanonicalFloat(uint32_t type, std::string_view s, double* v,
                    PgError* error) {
  PgError local;
  if (type == oid::kFloat4) {
    float f;
    if (util::ParseFloat4(s, &f, &local)) {
      *v = f;
      return true;
    }
    if (local.sqlstate == "22003" && !s.empty() && s[0] != '0') {
      bool neg = s[0] == '-';
      double huge = std::strtod(std::string(s).c_str(), nullptr);
      if (std::fabs(huge) > 1) {
        *v = neg ? -FLT_MAX : FLT_MAX;
        return true;
      }
    }
  } else {
    if (util::ParseFloat8(s, v, &local)) return true;
    if (local.sqlstate == "22003" && !s.empty()) {
      std::string copy(s);
      errno = 0;
      double huge = std::strtod(copy.c_str(), nullptr);
      if (std::isinf(huge)) {
        *v = huge < 0 ? -DBL_MAX : DBL_MAX;
        return true;
      }
    }
  }
  if (error != nullptr) *error = local;
  return false;
}

}  // namespace

// ---------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------

// kTypes by OID, one array index away: COPY and INSERT look a type up
// several times per value, and the binary search showed in their profiles.
constexpr uint32_t kMaxBuiltinOid = [] {
  uint32_t max = 0;
  for (const TypeInfo& t : kTypes) max = std::max(max, t.oid);
  return max;
}();
constexpr auto kTypeByOid = [] {
  std::array<const TypeInfo*, kMaxBuiltinOid + 1> by_oid{};
  for (const TypeInfo& t : kTypes) by_oid[t.oid] = &t;
  return by_oid;
}();

const TypeInfo* LookupType(uint32_t type_oid) {
  return type_oid <= kMaxBuiltinOid ? kTypeByOid[type_oid] : nullptr;
}

const TypeInfo* LookupTypeByName(std::string_view raw) {
  // Lower-case, drop the modifier "(...)" (kept for float(p)), an
  // array suffix, a pg_catalog. prefix, and collapse whitespace.
  std::string s;
  std::string modifier;
  bool in_paren = false;
  bool is_array = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = util::ToLower(raw[i]);
    if (in_paren) {
      if (c == ')') {
        in_paren = false;
      } else {
        modifier.push_back(c);
      }
      continue;
    }
    if (c == '(') {
      in_paren = true;
      modifier.clear();
      continue;
    }
    if (c == '[') {
      is_array = true;
      size_t close = raw.find(']', i);
      if (close == std::string_view::npos) return nullptr;
      i = close;
      continue;
    }
    if (util::IsSpace(c)) c = ' ';
    if (c == ' ' && (s.empty() || s.back() == ' ')) continue;
    s.push_back(c);
  }
  if (in_paren) return nullptr;
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.size() > 6 && s.compare(s.size() - 6, 6, " array") == 0) {
    is_array = true;
    s.resize(s.size() - 6);
  }
  if (s.compare(0, 11, "pg_catalog.") == 0) s.erase(0, 11);
  // interval YEAR TO MONTH etc.
  if (s.compare(0, 9, "interval ") == 0) {
    static const char* const kFields[] = {"year",
                                          "month",
                                          "day",
                                          "hour",
                                          "minute",
                                          "second",
                                          "year to month",
                                          "day to hour",
                                          "day to minute",
                                          "day to second",
                                          "hour to minute",
                                          "hour to second",
                                          "minute to second"};
    std::string_view rest = std::string_view(s).substr(9);
    bool ok = false;
    for (const char* f : kFields) ok |= rest == f;
    if (!ok) return nullptr;
    s = "interval";
  }
  const TypeInfo* base = nullptr;
  if (s == "float" && !modifier.empty()) {
    int64_t p;
    if (!util::ParseInt(modifier, 32, &p, nullptr)) return nullptr;
    if (p < 1 || p > 53) return nullptr;
    base = LookupType(p <= 24 ? oid::kFloat4 : oid::kFloat8);
  } else {
    for (const NameEntry& e : kNames) {
      if (s == e.name) {
        base = LookupType(e.oid);
        break;
      }
    }
    if (base == nullptr) {
      for (const TypeInfo& t : kTypes) {
        if (s == t.name) {
          base = &t;
          break;
        }
      }
    }
  }
  if (base == nullptr) return nullptr;
  if (is_array) {
    if (base->element_oid != 0) return base;
    return base->array_oid != 0 ? LookupType(base->array_oid) : nullptr;
  }
  return base;
}

std::string FormatTypeName(uint32_t type_oid, int32_t typmod) {
  if (user_types::IsUserOid(type_oid)) return user_types::FormatName(type_oid);
  const TypeInfo* info = LookupType(type_oid);
  if (info == nullptr) return "???";
  if (info->element_oid != 0) {
    return FormatTypeName(info->element_oid, typmod) + "[]";
  }
  switch (type_oid) {
    case oid::kBool:
      return "boolean";
    case oid::kInt8:
      return "bigint";
    case oid::kInt2:
      return "smallint";
    case oid::kInt4:
      return "integer";
    case oid::kFloat4:
      return "real";
    case oid::kFloat8:
      return "double precision";
    case oid::kBpchar:
      if (typmod > 4) return "character(" + std::to_string(typmod - 4) + ")";
      return typmod >= 0 ? "character" : "bpchar";
    case oid::kVarchar:
      if (typmod > 4) {
        return "character varying(" + std::to_string(typmod - 4) + ")";
      }
      return "character varying";
    case oid::kTime:
      if (typmod >= 0) {
        return "time(" + std::to_string(typmod) + ") without time zone";
      }
      return "time without time zone";
    case oid::kTimestamp:
      if (typmod >= 0) {
        return "timestamp(" + std::to_string(typmod) + ") without time zone";
      }
      return "timestamp without time zone";
    case oid::kTimestamptz:
      if (typmod >= 0) {
        return "timestamp(" + std::to_string(typmod) + ") with time zone";
      }
      return "timestamp with time zone";
    case oid::kInterval: {
      std::string s = "interval";
      if (!dt::IntervalTypmodSuffix(typmod, &s)) return "interval";
      return s;
    }
    case oid::kNumeric:
      if (typmod >= 0) {
        int precision = ((typmod - 4) >> 16) & 0xffff;
        int scale = (((typmod - 4) & 0x7ff) ^ 1024) - 1024;
        return "numeric(" + std::to_string(precision) + "," +
               std::to_string(scale) + ")";
      }
      return "numeric";
    default:
      // Types without a typmodout function print the bare modifier.
      if (typmod >= 0) {
        return std::string(info->name) + "(" + std::to_string(typmod) + ")";
      }
      return info->name;
  }
}

// ---------------------------------------------------------------------------
// Text input
// ---------------------------------------------------------------------------

namespace {

bool InputTextImpl(uint32_t type, int32_t typmod, std::string_view text,
                   const TypeContext& context, std::string* out,
                   PgError* error) {
  switch (type) {
    case oid::kBool: {
      bool b;
      if (!ParseBool(text, &b)) {
        return util::InvalidSyntax(error, "boolean", text);
      }
      out->assign(b ? "t" : "f");
      return true;
    }
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8: {
      int64_t v;
      int bits = type == oid::kInt2 ? 16 : (type == oid::kInt4 ? 32 : 64);
      if (!util::ParseInt(text, bits, &v, error)) return false;
      out->clear();
      util::AppendInt(out, v);
      return true;
    }
    case oid::kOid: {
      uint32_t v;
      if (!ParseOid(text, &v, error)) return false;
      out->clear();
      util::AppendUint(out, v);
      return true;
    }
    case oid::kTid: {
      int64_t v;
      if (!ids::TidIn(text, &v, error)) return false;
      out->clear();
      ids::TidOut(v, out);
      return true;
    }
    case oid::kXid:
    case oid::kCid:
      out->clear();
      util::AppendUint(out, ids::Xid32In(text));
      return true;
    case oid::kXid8:
      out->clear();
      util::AppendUint(out, ids::Xid8In(text));
      return true;
    case oid::kFloat4: {
      float f;
      if (!util::ParseFloat4(text, &f, error)) return false;
      out->clear();
      util::AppendFloat4(out, f, context.extra_float_digits);
      return true;
    }
    case oid::kFloat8: {
      double d;
      if (!util::ParseFloat8(text, &d, error)) return false;
      out->clear();
      util::AppendFloat8(out, d, context.extra_float_digits);
      return true;
    }
    case oid::kNumeric: {
      num::Numeric n;
      if (!num::Input(text, typmod, &n, error)) return false;
      out->clear();
      num::Append(n, out);
      return true;
    }
    case oid::kText:
    case oid::kUnknown:
      out->assign(text);
      return true;
    case oid::kVarchar:
    case oid::kBpchar:
      return CharCoerce(type, typmod, false, text, out, error);
    case oid::kName:
      NameIn(text, out);
      return true;
    case oid::kBytea: {
      std::string bytes;
      if (!ByteaIn(text, &bytes, error)) return false;
      out->clear();
      ByteaOut(bytes, out);
      return true;
    }
    case oid::kUuid: {
      unsigned char data[16];
      if (!UuidIn(text, data, error)) return false;
      out->clear();
      UuidOut(data, out);
      return true;
    }
    case oid::kJson:
      if (!json::Validate(text, error)) return false;
      out->assign(text);
      return true;
    case oid::kJsonb:
      return json::Normalize(text, out, error);
    case oid::kDate: {
      int32_t d;
      if (!dt::DateIn(text, context, &d, error)) return false;
      out->clear();
      dt::DateOut(d, context, out);
      return true;
    }
    case oid::kTime: {
      int64_t t;
      if (!dt::TimeIn(text, typmod, context, &t, error)) return false;
      out->clear();
      dt::TimeOut(t, out);
      return true;
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      bool tz = type == oid::kTimestamptz;
      int64_t ts;
      if (!dt::TimestampIn(text, typmod, tz, context, &ts, error)) return false;
      out->clear();
      return dt::TimestampOut(ts, tz, context, out, error);
    }
    case oid::kInterval: {
      dt::Interval iv;
      if (!dt::IntervalIn(text, typmod, context, &iv, error)) return false;
      out->clear();
      dt::IntervalOut(iv, context, out);
      return true;
    }
    case oid::kVoid:
      out->clear();
      return true;
    case oid::kRecord:
      return Fail(error, "0A000",
                  "input of anonymous composite types is not implemented");
    default:
      if (IsArrayOid(type))
        return ArrayInput(type, typmod, text, context, out, error);
      return UnknownType(type, error);
  }
}

}  // namespace

bool InputText(uint32_t type_oid, int32_t typmod, std::string_view text,
               const TypeContext& context, std::string* canonical,
               PgError* error) {
  if (!util::ValidateUtf8(text, error)) return false;
  std::string out;
  if (user_types::IsUserOid(type_oid))
    return user_types::InputText(type_oid, typmod, text, context, canonical,
                                 error);
  if (!InputTextImpl(type_oid, typmod, text, context, &out, error)) {
    return false;
  }
  *canonical = std::move(out);
  return true;
}

// ---------------------------------------------------------------------------
// Binary
// ---------------------------------------------------------------------------

bool TextToBinary(uint32_t type_oid, std::string_view canonical,
                  const TypeContext& context, std::string* binary,
                  PgError* error) {
  if (user_types::IsUserOid(type_oid))
    return user_types::TextToBinary(type_oid, canonical, context, binary,
                                    error);
  std::string out;
  switch (type_oid) {
    case oid::kBool:
      out.push_back(canonical == "t" ? 1 : 0);
      break;
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8: {
      int64_t v;
      int bits =
          type_oid == oid::kInt2 ? 16 : (type_oid == oid::kInt4 ? 32 : 64);
      if (!util::ParseInt(canonical, bits, &v, error)) return false;
      if (bits == 16) {
        util::PutU16(&out, static_cast<uint16_t>(v));
      } else if (bits == 32) {
        util::PutU32(&out, static_cast<uint32_t>(v));
      } else {
        util::PutU64(&out, static_cast<uint64_t>(v));
      }
      break;
    }
    case oid::kOid: {
      uint32_t v;
      if (!ParseOid(canonical, &v, error)) return false;
      util::PutU32(&out, v);
      break;
    }
    case oid::kTid: {
      int64_t v;
      if (!ids::TidIn(canonical, &v, error)) return false;
      util::PutU32(&out, static_cast<uint32_t>(v >> 16));
      util::PutU16(&out, static_cast<uint16_t>(v & 0xffff));
      break;
    }
    case oid::kXid:
    case oid::kCid:
      util::PutU32(&out, ids::Xid32In(canonical));
      break;
    case oid::kXid8:
      util::PutU64(&out, ids::Xid8In(canonical));
      break;
    case oid::kFloat4: {
      double d;
      if (!CanonicalFloat(oid::kFloat4, canonical, &d, error)) return false;
      float f = static_cast<float>(d);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      util::PutU32(&out, bits);
      break;
    }
    case oid::kFloat8: {
      double d;
      if (!CanonicalFloat(oid::kFloat8, canonical, &d, error)) return false;
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      util::PutU64(&out, bits);
      break;
    }
    case oid::kNumeric: {
      num::Numeric n;
      if (!num::Parse(canonical, &n, error)) return false;
      num::ToBinary(n, &out);
      break;
    }
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar:
    case oid::kName:
    case oid::kUnknown:
    case oid::kJson:
      out.assign(canonical);
      break;
    case oid::kJsonb:
      out.push_back(1);
      out.append(canonical);
      break;
    case oid::kBytea:
      if (!ByteaIn(canonical, &out, error)) return false;
      break;
    case oid::kUuid: {
      unsigned char data[16];
      if (!UuidIn(canonical, data, error)) return false;
      out.assign(reinterpret_cast<const char*>(data), 16);
      break;
    }
    case oid::kDate: {
      int32_t d;
      if (!dt::DateInCanonical(canonical, context, &d, error)) return false;
      util::PutU32(&out, static_cast<uint32_t>(d));
      break;
    }
    case oid::kTime: {
      int64_t t;
      if (!dt::TimeIn(canonical, -1, context, &t, error)) return false;
      util::PutU64(&out, static_cast<uint64_t>(t));
      break;
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      int64_t ts;
      if (!dt::TimestampInCanonical(canonical, type_oid == oid::kTimestamptz,
                                    context, &ts, error)) {
        return false;
      }
      util::PutU64(&out, static_cast<uint64_t>(ts));
      break;
    }
    case oid::kInterval: {
      dt::Interval iv;
      if (!dt::IntervalIn(canonical, -1, context, &iv, error)) return false;
      util::PutU64(&out, static_cast<uint64_t>(iv.time));
      util::PutU32(&out, static_cast<uint32_t>(iv.day));
      util::PutU32(&out, static_cast<uint32_t>(iv.month));
      break;
    }
    case oid::kVoid:
      break;
    case oid::kRecord:
      return Fail(error, "0A000",
                  "binary output of record values is not supported yet");
    default:
      if (IsArrayOid(type_oid))
        return ArraySend(type_oid, canonical, context, binary, error);
      return UnknownType(type_oid, error);
  }
  *binary = std::move(out);
  return true;
}

bool BinaryToText(uint32_t type_oid, int32_t typmod, std::string_view binary,
                  const TypeContext& context, std::string* canonical,
                  PgError* error) {
  using util::CheckBinaryLength;
  if (user_types::IsUserOid(type_oid))
    return user_types::BinaryToText(type_oid, typmod, binary, context,
                                    canonical, error);
  std::string out;
  const char* p = binary.data();
  switch (type_oid) {
    case oid::kBool:
      if (binary.empty()) {
        return Fail(error, "08P01", "no data left in message");
      }
      if (!CheckBinaryLength(binary, 1, error)) return false;
      out = p[0] != 0 ? "t" : "f";
      break;
    case oid::kInt2:
      if (!CheckBinaryLength(binary, 2, error)) return false;
      util::AppendInt(&out, static_cast<int16_t>(util::GetU16(p)));
      break;
    case oid::kInt4:
      if (!CheckBinaryLength(binary, 4, error)) return false;
      util::AppendInt(&out, static_cast<int32_t>(util::GetU32(p)));
      break;
    case oid::kInt8:
      if (!CheckBinaryLength(binary, 8, error)) return false;
      util::AppendInt(&out, static_cast<int64_t>(util::GetU64(p)));
      break;
    case oid::kOid:
    case oid::kXid:
    case oid::kCid:
      if (!CheckBinaryLength(binary, 4, error)) return false;
      util::AppendUint(&out, util::GetU32(p));
      break;
    case oid::kXid8:
      if (!CheckBinaryLength(binary, 8, error)) return false;
      util::AppendUint(&out, util::GetU64(p));
      break;
    case oid::kTid:
      if (!CheckBinaryLength(binary, 6, error)) return false;
      ids::TidOut(ids::EncodeTid(util::GetU32(p), util::GetU16(p + 4)), &out);
      break;
    case oid::kFloat4: {
      if (!CheckBinaryLength(binary, 4, error)) return false;
      uint32_t bits = util::GetU32(p);
      float f;
      std::memcpy(&f, &bits, 4);
      util::AppendFloat4(&out, f, context.extra_float_digits);
      break;
    }
    case oid::kFloat8: {
      if (!CheckBinaryLength(binary, 8, error)) return false;
      uint64_t bits = util::GetU64(p);
      double d;
      std::memcpy(&d, &bits, 8);
      util::AppendFloat8(&out, d, context.extra_float_digits);
      break;
    }
    case oid::kNumeric: {
      num::Numeric n;
      if (!num::FromBinary(binary, typmod, &n, error)) return false;
      num::Append(n, &out);
      break;
    }
    case oid::kText:
    case oid::kUnknown:
      if (!util::ValidateUtf8(binary, error)) return false;
      out.assign(binary);
      break;
    case oid::kVarchar:
    case oid::kBpchar:
      if (!util::ValidateUtf8(binary, error)) return false;
      if (!CharCoerce(type_oid, typmod, false, binary, &out, error)) {
        return false;
      }
      break;
    case oid::kName:
      if (!util::ValidateUtf8(binary, error)) return false;
      if (binary.size() >= 64) {
        return Fail(error, "42622", "identifier too long",
                    "Identifier must be less than 64 characters.");
      }
      out.assign(binary);
      break;
    case oid::kJson:
      if (!util::ValidateUtf8(binary, error)) return false;
      if (!json::Validate(binary, error)) return false;
      out.assign(binary);
      break;
    case oid::kJsonb: {
      if (binary.empty()) {
        return Fail(error, "08P01", "insufficient data left in message");
      }
      int version = static_cast<unsigned char>(binary[0]);
      if (version != 1) {
        return Fail(
            error, "XX000",
            "unsupported jsonb version number " + std::to_string(version));
      }
      std::string_view text = binary.substr(1);
      if (!util::ValidateUtf8(text, error)) return false;
      if (!json::Normalize(text, &out, error)) return false;
      break;
    }
    case oid::kBytea:
      ByteaOut(binary, &out);
      break;
    case oid::kUuid:
      if (!CheckBinaryLength(binary, 16, error)) return false;
      UuidOut(reinterpret_cast<const unsigned char*>(p), &out);
      break;
    case oid::kDate: {
      if (!CheckBinaryLength(binary, 4, error)) return false;
      int32_t d = static_cast<int32_t>(util::GetU32(p));
      if (!dt::CheckDateRecv(d, error)) return false;
      dt::DateOut(d, context, &out);
      break;
    }
    case oid::kTime: {
      if (!CheckBinaryLength(binary, 8, error)) return false;
      int64_t t = static_cast<int64_t>(util::GetU64(p));
      if (!dt::CheckTimeRecv(t, error)) return false;
      dt::AdjustTimeForTypmod(&t, typmod, error);
      dt::TimeOut(t, &out);
      break;
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      if (!CheckBinaryLength(binary, 8, error)) return false;
      int64_t ts = static_cast<int64_t>(util::GetU64(p));
      if (!dt::CheckTimestampRecv(ts, error)) return false;
      if (!dt::AdjustTimestampForTypmod(&ts, typmod, error)) return false;
      if (!dt::TimestampOut(ts, type_oid == oid::kTimestamptz, context, &out,
                            error)) {
        return false;
      }
      break;
    }
    case oid::kInterval: {
      if (!CheckBinaryLength(binary, 16, error)) return false;
      dt::Interval iv;
      iv.time = static_cast<int64_t>(util::GetU64(p));
      iv.day = static_cast<int32_t>(util::GetU32(p + 8));
      iv.month = static_cast<int32_t>(util::GetU32(p + 12));
      if (!dt::AdjustIntervalForTypmod(&iv, typmod, error)) return false;
      dt::IntervalOut(iv, context, &out);
      break;
    }
    case oid::kVoid:
      if (!CheckBinaryLength(binary, 0, error)) return false;
      break;
    case oid::kRecord:
      return Fail(error, "0A000",
                  "binary input of record values is not supported yet");
    default:
      if (IsArrayOid(type_oid))
        return ArrayReceive(type_oid, typmod, binary, context, canonical,
                            error);
      return UnknownType(type_oid, error);
  }
  *canonical = std::move(out);
  return true;
}

// ---------------------------------------------------------------------------
// Casts
// ---------------------------------------------------------------------------

namespace {

bool NoCast(uint32_t from, uint32_t to, PgError* error) {
  return Fail(error, "42846",
              "cannot cast type " + FormatTypeName(from, -1) + " to " +
                  FormatTypeName(to, -1));
}

int IntBits(uint32_t type) {
  switch (type) {
    case oid::kInt2:
      return 16;
    case oid::kInt4:
      return 32;
    case oid::kInt8:
      return 64;
    default:
      return 0;
  }
}

const char* IntTypeName(int bits) {
  return bits == 16 ? "smallint" : (bits == 32 ? "integer" : "bigint");
}

bool IsFloat(uint32_t type) {
  return type == oid::kFloat4 || type == oid::kFloat8;
}

// The explicit length/precision coercion of a value already of type `type`
// (varchar(n), bpchar(n), numeric(p,s), time(p), timestamp(p), interval).
bool CoerceTypmod(uint32_t type, int32_t typmod, std::string_view value,
                  const TypeContext& context, std::string* out,
                  PgError* error) {
  if (typmod < 0) {
    out->assign(value);
    return true;
  }
  switch (type) {
    case oid::kVarchar:
    case oid::kBpchar:
      return CharCoerce(type, typmod, true, value, out, error);
    case oid::kNumeric: {
      num::Numeric n;
      if (!num::Parse(value, &n, error)) return false;
      if (!num::ApplyTypmod(&n, typmod, error)) return false;
      if (!num::CheckFormat(n, error)) return false;
      out->clear();
      num::Append(n, out);
      return true;
    }
    case oid::kTime: {
      int64_t t;
      if (!dt::TimeIn(value, typmod, context, &t, error)) return false;
      out->clear();
      dt::TimeOut(t, out);
      return true;
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      bool tz = type == oid::kTimestamptz;
      int64_t ts;
      if (!dt::TimestampInCanonical(value, tz, context, &ts, error) ||
          !dt::AdjustTimestampForTypmod(&ts, typmod, error)) {
        return false;
      }
      out->clear();
      return dt::TimestampOut(ts, tz, context, out, error);
    }
    case oid::kInterval: {
      dt::Interval iv;
      if (!dt::IntervalIn(value, typmod, context, &iv, error)) return false;
      out->clear();
      dt::IntervalOut(iv, context, out);
      return true;
    }
    default:
      out->assign(value);
      return true;
  }
}

// Writes a finite double as an integer type (dtoi2/4/8, ftoi2/4/8: rint,
// then range check).
bool FloatToInt(double v, uint32_t from, int bits, std::string* out,
                PgError* error) {
  double r = std::rint(v);
  bool ok;
  if (from == oid::kFloat4) {
    float fr = std::rint(static_cast<float>(v));
    r = fr;
  }
  if (bits == 16) {
    ok = !std::isnan(r) && r >= -32768.0 && r < 32768.0;
  } else if (bits == 32) {
    ok = !std::isnan(r) && r >= -2147483648.0 && r < 2147483648.0;
  } else {
    ok = !std::isnan(r) && r >= -9223372036854775808.0 &&
         r < 9223372036854775808.0;
  }
  if (!ok) {
    return Fail(error, "22003",
                std::string(IntTypeName(bits)) + " out of range");
  }
  out->clear();
  util::AppendInt(out, static_cast<int64_t>(r));
  return true;
}

bool JsonbScalarCast(std::string_view value, uint32_t to,
                     const TypeContext& context, std::string* out,
                     PgError* error) {
  json::Kind kind = json::TopLevelKind(value);
  const char* target = to == oid::kBool      ? "boolean"
                       : to == oid::kNumeric ? "numeric"
                       : to == oid::kInt2    ? "smallint"
                       : to == oid::kInt4    ? "integer"
                       : to == oid::kInt8    ? "bigint"
                       : to == oid::kFloat4  ? "real"
                                             : "double precision";
  bool want_bool = to == oid::kBool;
  bool ok =
      want_bool ? kind == json::Kind::kBool : kind == json::Kind::kNumeric;
  if (!ok) {
    const char* what = "null";
    switch (kind) {
      case json::Kind::kNull:
        what = "null";
        break;
      case json::Kind::kString:
        what = "string";
        break;
      case json::Kind::kNumeric:
        what = "numeric";
        break;
      case json::Kind::kBool:
        what = "boolean";
        break;
      case json::Kind::kArray:
        what = "array";
        break;
      case json::Kind::kObject:
        what = "object";
        break;
    }
    return Fail(
        error, "22023",
        std::string("cannot cast jsonb ") + what + " to type " + target);
  }
  if (want_bool) {
    out->assign(value == "true" ? "t" : "f");
    return true;
  }
  return Cast(oid::kNumeric, to, -1, value, context, out, error);
}

}  // namespace

bool Cast(uint32_t from, uint32_t to, int32_t to_typmod, std::string_view value,
          const TypeContext& context, std::string* out, PgError* error) {
  if (user_types::IsUserOid(from) || user_types::IsUserOid(to))
    return user_types::Cast(from, to, to_typmod, value, context, out, error);
  std::string result;
  auto finish = [&](std::string_view v) {
    return CoerceTypmod(to, to_typmod, v, context, out, error);
  };
  if (IsArrayOid(from) || IsArrayOid(to))
    return ArrayCast(from, to, to_typmod, value, context, out, error);
  if (from == oid::kUnknown) {
    // A literal: the target's input function, then the length coercion.
    if (!InputText(to, -1, value, context, &result, error)) return false;
    return finish(result);
  }
  if (from == to) return finish(value);
  if (from == oid::kXid8 && to == oid::kXid) {  // xid(xid8): the low bits
    util::AppendUint(&result, static_cast<uint32_t>(ids::Xid8In(value)));
    return finish(result);
  }

  const int from_bits = IntBits(from);
  const int to_bits = IntBits(to);

  // Integer <-> integer / numeric / float / oid / bool.
  if (from_bits != 0) {
    int64_t v;
    if (!CanonicalInt(value, &v)) {
      return util::InvalidSyntax(error, IntTypeName(from_bits), value);
    }
    if (to_bits != 0) {
      if ((to_bits == 16 && (v < -32768 || v > 32767)) ||
          (to_bits == 32 && (v < INT32_MIN || v > INT32_MAX))) {
        return Fail(error, "22003",
                    std::string(IntTypeName(to_bits)) + " out of range");
      }
      util::AppendInt(&result, v);
      return finish(result);
    }
    switch (to) {
      case oid::kNumeric: {
        num::Numeric n;
        num::FromInt64(v, &n);
        num::Append(n, &result);
        return finish(result);
      }
      case oid::kFloat4:
        util::AppendFloat4(&result, static_cast<float>(v),
                           context.extra_float_digits);
        return finish(result);
      case oid::kFloat8:
        util::AppendFloat8(&result, static_cast<double>(v),
                           context.extra_float_digits);
        return finish(result);
      case oid::kOid:
        if (from_bits == 64 && (v < 0 || v > UINT32_MAX)) {
          return Fail(error, "22003", "OID out of range");
        }
        util::AppendUint(&result, static_cast<uint32_t>(v));
        return finish(result);
      case oid::kBool:
        if (from_bits != 32) break;
        result = v != 0 ? "t" : "f";
        return finish(result);
      default:
        break;
    }
  }

  if (from == oid::kOid) {
    int64_t v;
    if (!CanonicalInt(value, &v))
      return util::InvalidSyntax(error, "oid", value);
    if (to == oid::kInt4) {
      util::AppendInt(&result, static_cast<int32_t>(static_cast<uint32_t>(v)));
      return finish(result);
    }
    if (to == oid::kInt8) {
      util::AppendInt(&result, v);
      return finish(result);
    }
  }

  if (from == oid::kBool && to == oid::kInt4) {
    result = value == "t" ? "1" : "0";
    return finish(result);
  }

  // Floats.
  if (IsFloat(from)) {
    double d;
    if (!CanonicalFloat(from, value, &d, error)) return false;
    if (to_bits != 0) {
      if (!FloatToInt(d, from, to_bits, &result, error)) return false;
      return finish(result);
    }
    if (to == oid::kFloat8) {
      util::AppendFloat8(&result, d, context.extra_float_digits);
      return finish(result);
    }
    if (to == oid::kFloat4) {
      float f = static_cast<float>(d);
      if (std::isinf(f) && !std::isinf(d)) {
        return Fail(error, "22003", "value out of range: overflow");
      }
      if (f == 0.0f && d != 0.0) {
        return Fail(error, "22003", "value out of range: underflow");
      }
      util::AppendFloat4(&result, f, context.extra_float_digits);
      return finish(result);
    }
    if (to == oid::kNumeric) {
      num::Numeric n;
      num::FromDouble(d, from == oid::kFloat4 ? 6 : 15, &n);
      if (!num::CheckFormat(n, error)) return false;
      num::Append(n, &result);
      return finish(result);
    }
  }

  // Numeric.
  if (from == oid::kNumeric) {
    if (to_bits != 0) {
      num::Numeric n;
      if (!num::Parse(value, &n, error)) return false;
      int64_t v;
      if (!num::ToInt(n, to_bits, &v, error)) return false;
      util::AppendInt(&result, v);
      return finish(result);
    }
    if (IsFloat(to)) {
      // numeric_float8/4: float input of numeric_out's text.
      double d;
      if (to == oid::kFloat4) {
        float f;
        if (!util::ParseFloat4(value, &f, error)) return false;
        d = f;
      } else {
        if (!util::ParseFloat8(value, &d, error)) return false;
      }
      AppendFloatByType(to, d, context, &result);
      return finish(result);
    }
  }

  // Date/time.
  switch (from) {
    case oid::kDate: {
      if (to != oid::kTimestamp && to != oid::kTimestamptz) break;
      int32_t d;
      if (!dt::DateInCanonical(value, context, &d, error)) return false;
      int64_t ts;
      if (to == oid::kTimestamp) {
        if (!dt::DateToTimestamp(d, &ts, error)) return false;
      } else {
        if (!dt::DateToTimestamptz(d, context, &ts, error)) return false;
      }
      if (!dt::TimestampOut(ts, to == oid::kTimestamptz, context, &result,
                            error)) {
        return false;
      }
      return finish(result);
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      if (to != oid::kDate && to != oid::kTime && to != oid::kTimestamp &&
          to != oid::kTimestamptz) {
        break;
      }
      bool from_tz = from == oid::kTimestamptz;
      int64_t ts;
      if (!dt::TimestampInCanonical(value, from_tz, context, &ts, error)) {
        return false;
      }
      if (to == oid::kDate) {
        int32_t d;
        bool ok = from_tz ? dt::TimestamptzToDate(ts, context, &d, error)
                          : dt::TimestampToDate(ts, &d, error);
        if (!ok) return false;
        dt::DateOut(d, context, &result);
        return finish(result);
      }
      if (to == oid::kTime) {
        int64_t t;
        bool ok = from_tz ? dt::TimestamptzToTime(ts, context, &t, error)
                          : dt::TimestampToTime(ts, &t, error);
        if (!ok) return false;
        dt::TimeOut(t, &result);
        return finish(result);
      }
      int64_t converted;
      bool ok =
          from_tz ? dt::TimestamptzToTimestamp(ts, context, &converted, error)
                  : dt::TimestampToTimestamptz(ts, context, &converted, error);
      if (!ok) return false;
      if (!dt::TimestampOut(converted, !from_tz, context, &result, error)) {
        return false;
      }
      return finish(result);
    }
    case oid::kTime:
      if (to == oid::kInterval) {
        int64_t t;
        if (!dt::TimeIn(value, -1, context, &t, error)) return false;
        dt::Interval iv;
        iv.time = t;
        dt::IntervalOut(iv, context, &result);
        return finish(result);
      }
      break;
    case oid::kInterval:
      if (to == oid::kTime) {
        dt::Interval iv;
        if (!dt::IntervalIn(value, -1, context, &iv, error)) return false;
        int64_t t;
        dt::IntervalToTime(iv, &t);
        dt::TimeOut(t, &result);
        return finish(result);
      }
      break;
    default:
      break;
  }

  // json <-> jsonb, jsonb -> scalars.
  if (from == oid::kJson && to == oid::kJsonb) {
    if (!json::Normalize(value, &result, error)) return false;
    return finish(result);
  }
  if (from == oid::kJsonb) {
    if (to == oid::kJson) {
      if (!json::Validate(value, error)) return false;
      return finish(value);
    }
    if (to == oid::kBool || to == oid::kNumeric || to_bits != 0 ||
        IsFloat(to)) {
      if (!JsonbScalarCast(value, to, context, &result, error)) return false;
      return finish(result);
    }
  }

  // Among the string types.
  if (IsStringCategory(from) && IsStringCategory(to)) {
    std::string_view v = value;
    if (from == oid::kBpchar) v = RTrimSpaces(v);
    if (to == oid::kName) {
      NameIn(v, &result);
      return finish(result);
    }
    return finish(v);
  }

  // bool -> text/varchar/bpchar: "true"/"false".
  if (from == oid::kBool &&
      (to == oid::kText || to == oid::kVarchar || to == oid::kBpchar)) {
    return finish(value == "t" ? "true" : "false");
  }

  // I/O conversion casts: anything to a string type (its output text) and
  // a string type to anything (the target's input function).
  if (IsStringCategory(to)) {
    if (LookupType(from) == nullptr || IsArrayOid(from)) {
      return UnknownType(from, error);
    }
    if (to == oid::kName) {
      NameIn(value, &result);
      return finish(result);
    }
    return finish(value);
  }
  if (IsStringCategory(from)) {
    if (!InputText(to, -1, value, context, &result, error)) return false;
    return finish(result);
  }

  if (LookupType(from) == nullptr || LookupType(to) == nullptr) {
    return UnknownType(LookupType(from) == nullptr ? from : to, error);
  }
  return NoCast(from, to, error);
}

}  // namespace kova::planner::types
