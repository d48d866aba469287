// Values as SQLite holds them while it runs a translated statement, and as
// they are stored in documents. Each PostgreSQL type has one SQLite form
// chosen so that SQLite's comparisons and sorting follow PostgreSQL's:
//   bool -> INTEGER 0/1; int2/int4/int8 -> INTEGER; float4/float8 -> REAL;
//   date -> INTEGER days and time/timestamp/timestamptz -> INTEGER
//   microseconds (PostgreSQL's internal forms, independent of DateStyle and
//   TimeZone); bytea -> BLOB; numeric -> TEXT compared with the kova_numeric
//   collation; interval -> TEXT (postgres style) with kova_interval;
//   arrays -> TEXT (their text under fixed settings, see
//   ArrayStorageContext) with a kova_array_<element> collation;
//   everything else (text types, uuid, json, jsonb) -> TEXT.
// In documents: bool -> BSON bool, INTEGER -> int32 while it fits else
// int64, REAL -> double, TEXT -> string, BLOB -> binary; arrays -> BSON
// arrays of their elements' forms (nested for several dimensions; arrays
// with lower bounds other than 1 stay text).
#pragma once

#include <bson/bson.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planner/expr.h"
#include "planner/planner.h"
#include "planner/types.h"

namespace kova::planner {

enum class SKind { kNull, kInt, kReal, kText, kBlob };

struct SValue {
  SKind kind = SKind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;  // kText / kBlob
};

// The SQLite form of a type (kText for unknown types).
SKind SKindOf(uint32_t type);
// The collation a type's values compare with ("" for SQLite's own).
// Arrays compare with kova_array_<element oid>.
const char* CollationOf(uint32_t type);
// The element types that have array types (one collation each).
const std::vector<uint32_t>& ArrayElementTypes();
// The settings arrays are stored under (their text in SQLite and in
// documents does not depend on the session's TimeZone or DateStyle).
const types::TypeContext& ArrayStorageContext();

// Canonical text (under the session's settings) <-> SQLite form.
bool ToSValue(uint32_t type, const Value& canonical,
              const types::TypeContext& context, SValue* out, PgError* error);
bool FromSValue(uint32_t type, const SValue& value,
                const types::TypeContext& context, Value* out, PgError* error);
// Reads a result column / function argument.
SValue ReadSValue(sqlite3_value* value);
SValue ReadColumn(sqlite3_stmt* stmt, int column);
void BindSValue(sqlite3_stmt* stmt, int index, const SValue& value);
void ResultSValue(sqlite3_context* ctx, const SValue& value);

// Appends a value to a document (type decides bool vs integer).
void AppendSValue(bson_t* doc, std::string_view key, uint32_t type,
                  const SValue& value);
// A document field back in SQLite form (as kova_get returns it).
SValue SValueFromBson(const bson_iter_t* it);
// The same for a column of a known type (arrays are BSON arrays).
SValue SValueFromBson(const bson_iter_t* it, uint32_t type);
// A document's array (BSON array, or text for arrays with lower bounds
// other than 1) as its text under ArrayStorageContext; false when the
// field holds something else.
bool ArrayTextFromBson(const bson_iter_t* it, uint32_t type, std::string* text);

// The SQL expression that reads a column of a row of a collection table
// (`alias` is the table's alias in the statement).
std::string ColumnSql(std::string_view alias, std::string_view column,
                      uint32_t type);

// char(n) values are stored without trailing blanks; output pads them.
void PadBpchar(int32_t typmod, Value* value);
// SQL over a character(n) value of SQLite expression `sql` (stored without
// its trailing blanks) that pads it with blanks to `length` characters.
std::string BpcharPadSql(const std::string& sql, size_t length);

std::string SqlQuoteLiteral(std::string_view text);
std::string SqlQuoteIdent(std::string_view name);

}  // namespace kova::planner
