// The SQL front end: PostgreSQL's own grammar through libpg_query.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kova::sql {

// A parse failure as PostgreSQL reports it: message and 1-based cursor
// position into the statement text (0 when unknown).
struct SyntaxError {
  std::string message;
  int position = 0;
  // 42601, or 54001 when the statement nests too deeply to be handled.
  std::string sqlstate = "42601";
};

// Parses SQL text into libpg_query's JSON parse tree.
// Returns false and fills *error on a syntax error.
bool ParseToJson(std::string_view sql, std::string* tree, SyntaxError* error);

// Splits a script into its statements with the real grammar (so that
// semicolons inside strings, dollar quotes and comments do not split).
// Each piece is the statement's text without the trailing semicolon.
bool SplitStatements(std::string_view script, std::vector<std::string>* out,
                     SyntaxError* error);

// A parsed script as libpg_query's protobuf tree (typed C structs, one
// RawStmt per statement with its location and length in the text).
class ParseTree {
 public:
  // Parses `sql`; false and *error on a syntax error, or (54001) when its
  // expressions nest deeper than kMaxNesting messages: the parser, the
  // protobuf decoder and everything that walks the tree recurse once or
  // twice per level.
  static constexpr size_t kMaxNesting = 6000;
  static bool Parse(std::string_view sql, std::unique_ptr<ParseTree>* tree,
                    SyntaxError* error);
  ~ParseTree();
  ParseTree(const ParseTree&) = delete;
  ParseTree& operator=(const ParseTree&) = delete;

  size_t size() const { return result_->n_stmts; }
  const PgQuery__RawStmt& statement(size_t i) const {
    return *result_->stmts[i];
  }
  const std::string& text() const { return text_; }
  // The text of statement i (without its trailing semicolon).
  std::string_view statement_text(size_t i) const;

 private:
  ParseTree() = default;
  std::string text_;
  PgQuery__ParseResult* result_ = nullptr;
};

// Names of a node list of String nodes joined with '.', e.g. a qualified
// function or type name ("pg_catalog.int4").
std::string JoinNames(PgQuery__Node* const* names, size_t n);

// An expression as SQL text (libpg_query's deparser), e.g. for CHECK
// constraints and column defaults kept in the catalog. Empty on failure.
std::string DeparseExpr(const PgQuery__Node* expr);

// An expression as SQL text (libpg_query's deparser), e.g. for CHECK
// constraints and column defaults kept in the catalog. Empty on failure.
std::string DeparseExpr(const PgQuery__Node* expr);

}  // namespace kova::sql
