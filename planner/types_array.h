// PostgreSQL arrays of the built-in scalar types: text input/output
// (array_in/array_out), binary send/receive, and casts. Internal to the
// planner.
//
// An array value travels, like every value, as its canonical text
// ("{1,2,NULL}", "[0:1]={a,b}"); ArrayValue is its parsed form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/planner.h"
#include "planner/types.h"

namespace kova::planner::types {

struct ArrayValue {
  // No dimensions: the empty array "{}".
  std::vector<int32_t> dims;
  std::vector<int32_t> lbounds;
  // Elements in row-major order, as canonical text of the element type.
  std::vector<std::optional<std::string>> items;
};

// MAXDIM of PostgreSQL.
inline constexpr int kMaxArrayDims = 6;

// The element type of an array type (0 when `type` is not an array).
uint32_t ArrayElementType(uint32_t type);
// The array type over an element type (0 when there is none).
uint32_t ArrayTypeOf(uint32_t element);

// array_in: parses `text` as an array of `element`. With `element_input`
// each element goes through the element type's input (with `typmod`);
// without, the elements are taken as already canonical (values the
// planner made itself).
bool ParseArray(std::string_view text, uint32_t element, int32_t typmod,
                const TypeContext& context, bool element_input, ArrayValue* out,
                PgError* error);
// array_out.
std::string FormatArray(const ArrayValue& value);

// The array cases of InputText, TextToBinary, BinaryToText and Cast.
bool ArrayInput(uint32_t type, int32_t typmod, std::string_view text,
                const TypeContext& context, std::string* canonical,
                PgError* error);
bool ArraySend(uint32_t type, std::string_view canonical,
               const TypeContext& context, std::string* binary, PgError* error);
bool ArrayReceive(uint32_t type, int32_t typmod, std::string_view binary,
                  const TypeContext& context, std::string* canonical,
                  PgError* error);
// Casts where `from` or `to` is an array type: element by element between
// array types, I/O conversion to and from the string types; 42846
// otherwise.
bool ArrayCast(uint32_t from, uint32_t to, int32_t to_typmod,
               std::string_view value, const TypeContext& context,
               std::string* out, PgError* error);

}  // namespace kova::planner::types
