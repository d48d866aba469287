// json and jsonb text handling as PostgreSQL 15: json_in's validation (the
// text is kept as is) and jsonb_in + jsonb_out (normalised text).
#pragma once

#include <string>
#include <string_view>

#include "planner/planner.h"

namespace kova::planner::types::json {

// json_in: 22P02 "invalid input syntax for type json" with PostgreSQL's
// detail ("Token "x" is invalid.", ...).
bool Validate(std::string_view text, PgError* error);

// jsonb_in followed by jsonb_out: keys sorted by (length, bytes), duplicate
// keys keep the last value, numbers printed as numeric_out does, strings
// re-escaped, ", " and ": " separators.
bool Normalize(std::string_view text, std::string* out, PgError* error);

// The top-level kind of a canonical jsonb text, for the jsonb -> scalar
// casts.
enum class Kind { kNull, kString, kNumeric, kBool, kArray, kObject };
Kind TopLevelKind(std::string_view canonical);

}  // namespace kova::planner::types::json
