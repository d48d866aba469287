// The SQL front end: PostgreSQL's own grammar through libpg_query.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kova::sql {

// A parse failure as PostgreSQL reports it: message and 1-based cursor
// position into the statement text (0 when unknown).
struct SyntaxError {
  std::string message;
  int position = 0;
};

// Parses SQL text into libpg_query's JSON parse tree.
// Returns false and fills *error on a syntax error.
bool ParseToJson(std::string_view sql, std::string* tree, SyntaxError* error);

// Splits a script into its statements with the real grammar (so that
// semicolons inside strings, dollar quotes and comments do not split).
// Each piece is the statement's text without the trailing semicolon.
bool SplitStatements(std::string_view script, std::vector<std::string>* out,
                     SyntaxError* error);

}  // namespace kova::sql
