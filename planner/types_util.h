// Internal helpers shared by the planner/types_*.cc files: error
// construction, UTF-8 checks, integer and float text conversion exactly as
// PostgreSQL 15 does them, and big-endian byte helpers.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "planner/planner.h"

namespace kova::planner::types::util {

// Fills *error (when not null) and returns false, so callers can write
// `return Fail(error, "22P02", ...)`.
bool Fail(PgError* error, const char* sqlstate, std::string message,
          std::string detail = {}, std::string hint = {});

// 22P02 invalid input syntax for type <type_name>: "<input>".
bool InvalidSyntax(PgError* error, std::string_view type_name,
                   std::string_view input);

// C-locale ctype predicates (what PostgreSQL's parsers see in a C/UTF-8
// locale: bytes >= 0x80 are never space/digit/alpha/punct).
inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool IsAlnum(char c) { return IsAlpha(c) || IsDigit(c); }
inline bool IsPunct(char c) {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
         (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}
inline char ToLower(char c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }
inline char ToUpper(char c) { return (c >= 'a' && c <= 'z') ? c - 32 : c; }
// pg_strncasecmp(s, word, n) == 0 where s is not NUL-terminated.
bool PrefixCaseEqual(std::string_view s, std::string_view word);

// Checks that s is valid UTF-8 as PostgreSQL's pg_verify_mbstr does (no NUL
// bytes, no surrogates, no overlong forms). 22021 on failure.
bool ValidateUtf8(std::string_view s, PgError* error);
// Number of UTF-8 characters in valid UTF-8 text.
size_t Utf8Length(std::string_view s);
// Byte length of the first `chars` characters (pg_mbcharcliplen).
size_t Utf8ClipChars(std::string_view s, size_t chars);
// Byte length <= max_bytes that ends on a character boundary (pg_mbcliplen).
size_t Utf8ClipBytes(std::string_view s, size_t max_bytes);
// Length of the UTF-8 character starting with byte c (pg_utf_mblen).
int Utf8CharLen(unsigned char c);

// pg_strtoint16/32/64: optional surrounding whitespace and sign, at least one
// digit. type_name is "smallint", "integer" or "bigint".
bool ParseInt(std::string_view s, int bits, int64_t* out, PgError* error);
void AppendInt(std::string* out, int64_t v);
void AppendUint(std::string* out, uint64_t v);
// Appends v zero-padded to at least `width` digits.
void AppendZeroPad(std::string* out, int64_t v, int width);

// float8in / float4in.
bool ParseFloat8(std::string_view s, double* out, PgError* error);
bool ParseFloat4(std::string_view s, float* out, PgError* error);
// float8out / float4out under extra_float_digits.
void AppendFloat8(std::string* out, double v, int extra_float_digits);
void AppendFloat4(std::string* out, float v, int extra_float_digits);

// Big-endian helpers.
inline void PutU16(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v));
}
inline void PutU32(std::string* out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out->push_back(static_cast<char>(v >> s));
}
inline void PutU64(std::string* out, uint64_t v) {
  for (int s = 56; s >= 0; s -= 8) out->push_back(static_cast<char>(v >> s));
}
inline uint16_t GetU16(const char* p) {
  return static_cast<uint16_t>((static_cast<uint8_t>(p[0]) << 8) |
                               static_cast<uint8_t>(p[1]));
}
inline uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
inline uint64_t GetU64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// Binary receive length checks: 08P01 when short, 22P03 when extra bytes.
bool CheckBinaryLength(std::string_view binary, size_t expected,
                       PgError* error);

}  // namespace kova::planner::types::util
