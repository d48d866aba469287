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

bool ParseTree::Parse(std::string_view sql, std::unique_ptr<ParseTree>* tree,
                      SyntaxError* error) {
  std::unique_ptr<ParseTree> t(new ParseTree());
  t->text_.assign(sql);
  PgQueryProtobufParseResult result = pg_query_parse_protobuf(t->text_.c_str());
  if (result.error) {
    error->message = result.error->message;
    error->position = result.error->cursorpos;
    pg_query_free_protobuf_parse_result(result);
    return false;
  }
  t->result_ = pg_query__parse_result__unpack(
      nullptr, result.parse_tree.len,
      reinterpret_cast<const uint8_t*>(result.parse_tree.data));
  pg_query_free_protobuf_parse_result(result);
  if (!t->result_) {
    error->message = "could not decode the parse tree";
    error->position = 0;
    return false;
  }
  *tree = std::move(t);
  return true;
}

ParseTree::~ParseTree() {
  if (result_) pg_query__parse_result__free_unpacked(result_, nullptr);
}

std::string_view ParseTree::statement_text(size_t i) const {
  const PgQuery__RawStmt& raw = statement(i);
  size_t start = static_cast<size_t>(raw.stmt_location);
  // stmt_len 0 means "to the end of the string".
  size_t len = raw.stmt_len == 0 ? text_.size() - start
                                 : static_cast<size_t>(raw.stmt_len);
  std::string_view s(text_);
  return s.substr(start, len);
}

std::string JoinNames(PgQuery__Node* const* names, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; i++) {
    if (names[i]->node_case != PG_QUERY__NODE__NODE_STRING) continue;
    if (!out.empty()) out += ".";
    out += names[i]->string->sval;
  }
  return out;
}

}  // namespace kova::sql

namespace kova::sql {

std::string DeparseExpr(const PgQuery__Node* expr) {
  // Wraps the expression as "SELECT <expr>", deparses, strips "SELECT ".
  PgQuery__ResTarget target = PG_QUERY__RES_TARGET__INIT;
  target.val = const_cast<PgQuery__Node*>(expr);
  PgQuery__Node target_node = PG_QUERY__NODE__INIT;
  target_node.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
  target_node.res_target = &target;
  PgQuery__Node* targets[] = {&target_node};
  PgQuery__SelectStmt select = PG_QUERY__SELECT_STMT__INIT;
  select.n_target_list = 1;
  select.target_list = targets;
  select.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
  select.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
  PgQuery__Node stmt_node = PG_QUERY__NODE__INIT;
  stmt_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
  stmt_node.select_stmt = &select;
  PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT;
  raw.stmt = &stmt_node;
  PgQuery__RawStmt* stmts[] = {&raw};
  PgQuery__ParseResult result = PG_QUERY__PARSE_RESULT__INIT;
  result.version = PG_VERSION_NUM;
  result.n_stmts = 1;
  result.stmts = stmts;
  size_t len = pg_query__parse_result__get_packed_size(&result);
  std::string buffer(len, '\0');
  pg_query__parse_result__pack(&result,
                               reinterpret_cast<uint8_t*>(buffer.data()));
  PgQueryProtobuf proto;
  proto.len = len;
  proto.data = buffer.data();
  PgQueryDeparseResult d = pg_query_deparse_protobuf(proto);
  std::string out;
  if (!d.error && d.query) {
    out = d.query;
    if (out.rfind("SELECT ", 0) == 0) out = out.substr(7);
  }
  pg_query_free_deparse_result(d);
  return out;
}

}  // namespace kova::sql
