// PostgreSQL data types: metadata, input/output in text form, and the
// binary send/receive formats. Internal to the planner.
//
// A value travels through the planner as its canonical text: exactly what
// PostgreSQL's output function prints for it under the session's settings
// (e.g. int4 " 042" -> "42", bool "yes" -> "t", timestamptz in the session's
// TimeZone, bytea as "\x..." hex). Binary formats are PostgreSQL's
// typsend/typreceive formats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "planner/planner.h"

namespace kova::planner::types {

struct TypeInfo {
  uint32_t oid;
  const char* name;      // pg_type.typname: "int4", "varchar", "timestamptz"
  int16_t length;        // pg_type.typlen (-1 variable)
  char category;         // pg_type.typcategory: 'N' numeric, 'S' string, ...
  uint32_t array_oid;    // pg_type.typarray (0 if none)
  uint32_t element_oid;  // for array types, the element type; else 0
};

// Metadata of a built-in type, nullptr when unknown.
const TypeInfo* LookupType(uint32_t oid);
// By any name PostgreSQL accepts in a cast or column definition ("integer",
// "int", "int4", "character varying", "double precision", "timestamp with
// time zone", "bool", ...); lower case, nullptr when unknown.
const TypeInfo* LookupTypeByName(std::string_view name);
// format_type()-style name: "integer", "character varying(10)", "numeric".
std::string FormatTypeName(uint32_t oid, int32_t typmod);

// Session settings the formats depend on.
struct TypeContext {
  std::string timezone = "Etc/UTC";  // TimeZone
  int extra_float_digits = 1;        // 1..3: shortest exact; <= 0: %.*g
  std::string datestyle = "ISO, MDY";
  std::string intervalstyle = "postgres";
  // The transaction's start (Unix microseconds), what the inputs 'now',
  // 'today', 'tomorrow' and 'yesterday' read; 0: they are refused (0A000).
  int64_t now_us = 0;
};

// Text input -> canonical text output (PostgreSQL's typinput followed by
// typoutput), applying the type modifier (varchar(n) length check,
// numeric(p,s) rounding, char(n) padding, timestamp(p) precision).
// Errors as PostgreSQL: 22P02 invalid input syntax for type integer: "x",
// 22003 value "..." is out of range for type integer, 22001 value too long
// for type character varying(3), 22008 date/time field value out of range...
bool InputText(uint32_t type_oid, int32_t typmod, std::string_view text,
               const TypeContext& context, std::string* canonical,
               PgError* error);

// Canonical text -> binary send format.
bool TextToBinary(uint32_t type_oid, std::string_view canonical,
                  const TypeContext& context, std::string* binary,
                  PgError* error);

// Binary receive format -> canonical text (08P01 / 22P03 on bad input).
bool BinaryToText(uint32_t type_oid, int32_t typmod, std::string_view binary,
                  const TypeContext& context, std::string* canonical,
                  PgError* error);

// Casts a canonical value of one type to another with PostgreSQL's cast
// rules (int4 -> text, text -> int4 via input, numeric -> int4 rounding,
// float8 -> numeric, bool -> int4, timestamptz -> date in the TimeZone, ...).
// 42846 "cannot cast type X to Y" when no cast exists.
bool Cast(uint32_t from_oid, uint32_t to_oid, int32_t to_typmod,
          std::string_view value, const TypeContext& context, std::string* out,
          PgError* error);

}  // namespace kova::planner::types
