#include <pg_query.h>

#include "sql/sql.h"

namespace kova::sql {

bool ParseToJson(std::string_view sql, std::string* tree, SyntaxError* error) {
  std::string text(sql);  // libpg_query needs a NUL-terminated string
  PgQueryParseResult result = pg_query_parse(text.c_str());
  bool ok = result.error == nullptr;
  if (ok) {
    *tree = result.parse_tree;
  } else {
    error->message = result.error->message;
    error->position = result.error->cursorpos;
  }
  pg_query_free_parse_result(result);
  return ok;
}

bool SplitStatements(std::string_view script, std::vector<std::string>* out,
                     SyntaxError* error) {
  std::string text(script);
  PgQuerySplitResult result = pg_query_split_with_parser(text.c_str());
  bool ok = result.error == nullptr;
  if (ok) {
    for (int i = 0; i < result.n_stmts; i++) {
      const PgQuerySplitStmt* stmt = result.stmts[i];
      out->push_back(text.substr(stmt->stmt_location, stmt->stmt_len));
    }
  } else {
    error->message = result.error->message;
    error->position = result.error->cursorpos;
  }
  pg_query_free_split_result(result);
  return ok;
}

}  // namespace kova::sql
