#include <pg_query.h>
#include <pthread.h>

#include <algorithm>

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

namespace {

// Text up to this size is parsed on the caller's stack: a nesting level
// takes at least two characters ("1+1+...", "- - 1"), so its tree is at
// most about kInlineParseBytes messages deep, which libpg_query and the
// protobuf decoder (some 2 KB of stack a level) handle on a connection
// thread's stack. Longer text is parsed on a thread whose stack grows with
// it, and its depth is checked there.
constexpr size_t kInlineParseBytes = 4096;
constexpr size_t kParseStackBase = 64 << 20;
constexpr size_t kParseStackPerByte = 2048;
constexpr size_t kParseStackMax = size_t{1} << 30;

// How deep messages nest below `root` (itself 1), without recursion; stops
// counting past `limit`.
size_t MessageDepth(const ProtobufCMessage* root, size_t limit) {
  struct Item {
    const ProtobufCMessage* message;
    size_t depth;
  };
  std::vector<Item> pending{{root, 1}};
  size_t deepest = 0;
  while (!pending.empty()) {
    Item item = pending.back();
    pending.pop_back();
    deepest = std::max(deepest, item.depth);
    if (deepest > limit) break;
    const ProtobufCMessageDescriptor* d = item.message->descriptor;
    const char* base = reinterpret_cast<const char*>(item.message);
    for (unsigned i = 0; i < d->n_fields; i++) {
      const ProtobufCFieldDescriptor& f = d->fields[i];
      if (f.type != PROTOBUF_C_TYPE_MESSAGE) continue;
      if (f.label == PROTOBUF_C_LABEL_REPEATED) {
        size_t n = *reinterpret_cast<const size_t*>(base + f.quantifier_offset);
        auto* items =
            *reinterpret_cast<ProtobufCMessage* const* const*>(base + f.offset);
        for (size_t j = 0; j < n; j++)
          if (items[j]) pending.push_back({items[j], item.depth + 1});
        continue;
      }
      // A member of a oneof (Node's): only the one set is there.
      if ((f.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
          *reinterpret_cast<const uint32_t*>(base + f.quantifier_offset) !=
              f.id)
        continue;
      auto* sub = *reinterpret_cast<ProtobufCMessage* const*>(base + f.offset);
      if (sub) pending.push_back({sub, item.depth + 1});
    }
  }
  return deepest;
}

struct ParseJob {
  const char* text;
  PgQuery__ParseResult* result = nullptr;
  SyntaxError error;
  bool check_depth = false;
};

void RunParse(ParseJob* job) {
  PgQueryProtobufParseResult parsed = pg_query_parse_protobuf(job->text);
  if (parsed.error) {
    job->error.message = parsed.error->message;
    job->error.position = parsed.error->cursorpos;
    pg_query_free_protobuf_parse_result(parsed);
    return;
  }
  job->result = pg_query__parse_result__unpack(
      nullptr, parsed.parse_tree.len,
      reinterpret_cast<const uint8_t*>(parsed.parse_tree.data));
  pg_query_free_protobuf_parse_result(parsed);
  if (!job->result) {
    job->error.message = "could not decode the parse tree";
    return;
  }
  if (job->check_depth &&
      MessageDepth(&job->result->base, ParseTree::kMaxNesting) >
          ParseTree::kMaxNesting) {
    // Freed here, on the stack that can hold its recursion.
    pg_query__parse_result__free_unpacked(job->result, nullptr);
    job->result = nullptr;
    job->error.sqlstate = "54001";
    job->error.message = "stack depth limit exceeded";
  }
}

void* RunParseThread(void* arg) {
  RunParse(static_cast<ParseJob*>(arg));
  return nullptr;
}

}  // namespace

bool ParseTree::Parse(std::string_view sql, std::unique_ptr<ParseTree>* tree,
                      SyntaxError* error) {
  std::unique_ptr<ParseTree> t(new ParseTree());
  t->text_.assign(sql);
  ParseJob job;
  job.text = t->text_.c_str();
  if (sql.size() <= kInlineParseBytes) {
    RunParse(&job);
  } else {
    job.check_depth = true;
    size_t stack = std::min(kParseStackMax,
                            kParseStackBase + kParseStackPerByte * sql.size());
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack);
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, RunParseThread, &job);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      error->sqlstate = "53200";
      error->message = "out of memory";
      return false;
    }
    pthread_join(thread, nullptr);
  }
  if (!job.result) {
    *error = job.error;
    return false;
  }
  t->result_ = job.result;
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
