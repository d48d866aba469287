// CREATE TABLE ... (LIKE source [INCLUDING | EXCLUDING ...]): what the new
// table copies from its source, as PostgreSQL's transformTableLikeClause
// decides it. Column names, types and NOT NULL always; defaults, identity,
// CHECK constraints, generation expressions, indexes and comments only when
// included. Foreign keys are never copied. INCLUDING STORAGE and COMPRESSION
// copy each column's settings; STATISTICS (extended statistics) has nothing
// to copy in Kova, so including it changes nothing.
#include <cctype>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/query.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/system_catalog_internal.h"
#include "sql/sql.h"

namespace kova::planner {

namespace {

// PostgreSQL's CREATE_TABLE_LIKE_* bits of TableLikeClause.options.
constexpr uint32_t kLikeComments = 1u << 0;
constexpr uint32_t kLikeConstraints = 1u << 2;
constexpr uint32_t kLikeDefaults = 1u << 3;
constexpr uint32_t kLikeGenerated = 1u << 4;
constexpr uint32_t kLikeIdentity = 1u << 5;
constexpr uint32_t kLikeIndexes = 1u << 6;
constexpr uint32_t kLikeStorage = 1u << 8;
constexpr uint32_t kLikeCompression = 1u << 1;

}  // namespace

namespace ddl_detail {

bool DefaultSequence(const std::string& default_expr, std::string* name) {
  if (default_expr.rfind("nextval(", 0) != 0) return false;
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse("SELECT " + default_expr, &tree, &syntax) ||
      tree->size() != 1)
    return false;
  const PgQuery__Node* stmt = tree->statement(0).stmt;
  if (stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT ||
      stmt->select_stmt->n_target_list != 1)
    return false;
  return NextvalTarget(stmt->select_stmt->target_list[0]->res_target->val,
                       name);
}

bool ColumnUsesSequence(const catalog::Table& table, const catalog::Column& c,
                        const std::string& schema, const std::string& name) {
  if (c.sequence == schema + "." + name) return true;
  std::string target;
  if (c.default_expr.empty() || !DefaultSequence(c.default_expr, &target))
    return false;
  // The regclass text: identifiers folded to lower case unless quoted.
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (char ch : target) {
    if (ch == '"') {
      quoted = !quoted;
    } else if (ch == '.' && !quoted) {
      parts.emplace_back();
    } else {
      parts.back() += quoted ? ch : static_cast<char>(std::tolower(ch));
    }
  }
  if (parts.size() == 2) return parts[0] == schema && parts[1] == name;
  // Unqualified: the sequence beside the table, or in public.
  return parts.size() == 1 && parts[0] == name &&
         (schema == table.schema || schema == "public");
}

}  // namespace ddl_detail

bool SessionImpl::ExpandTableLike(const PgQuery__TableLikeClause* like,
                                  TableLikeCopy* copy, PgError* error) {
  CompileContext context = LookupContext();
  const catalog::Table* table = nullptr;
  const catalog::View* view = nullptr;
  if (!QueryCompiler::LookupRelation(&context, like->relation, &table, &view,
                                     error)) {
    // A sequence is a relation too, but not one LIKE can copy.
    const PgQuery__RangeVar* rv = like->relation;
    std::string text = QuoteIdentifier(rv->relname);
    if (rv->schemaname && *rv->schemaname)
      text = QuoteIdentifier(rv->schemaname) + "." + text;
    const catalog::Sequence* seq;
    PgError ignored;
    if (error->sqlstate == "42P01" && ResolveSequence(text, &seq, &ignored)) {
      int position = error->position;
      *error = Err("42809", "relation \"" + std::string(rv->relname) +
                                "\" is invalid in LIKE clause");
      error->position = position;
      error->detail = "This operation is not supported for sequences.";
    }
    return false;
  }
  uint32_t options = like->options;
  if (view) {
    // A view has columns and, at most, a comment on itself: only the
    // columns are copied.
    for (const auto& c : view->columns) {
      TableLikeCopy::Column col;
      col.column.name = c.name;
      col.column.type = c.type;
      col.column.typmod = c.typmod;
      copy->columns.push_back(std::move(col));
    }
    return true;
  }
  for (const catalog::Column& c : table->columns) {
    TableLikeCopy::Column col;
    col.column.name = c.name;
    col.column.type = c.type;
    col.column.typmod = c.typmod;
    col.column.not_null = c.not_null;
    if (options & kLikeStorage) col.column.storage = c.storage;
    if (options & kLikeCompression) col.column.compression = c.compression;
    if (c.identity && (options & kLikeIdentity)) {
      // A new sequence with the source sequence's options (not its
      // position: it starts afresh, as PostgreSQL's does).
      size_t dot = c.sequence.find('.');
      const catalog::Sequence* seq =
          dot == std::string::npos
              ? nullptr
              : catalog_->FindSequence(c.sequence.substr(0, dot),
                                       c.sequence.substr(dot + 1));
      if (!seq) {
        *error = Err("XX000", "identity sequence of column \"" + c.name +
                                  "\" is missing");
        return false;
      }
      docstore::Session::CounterInfo info;
      docstore::Status s = storage_->ReadCounter(seq->counter, &info);
      if (!s.ok()) {
        *error = TableError(s);
        return false;
      }
      SeqDef def = SeqDefOf(info, seq->type);
      def.cache = seq->cache;
      col.identity = def;
      col.column.identity = c.identity;
    } else if (!c.generated_expr.empty()) {
      // Without INCLUDING GENERATED, an ordinary column.
      if (options & kLikeGenerated)
        col.column.generated_expr = c.generated_expr;
    } else if (!c.identity && !c.default_expr.empty() &&
               (options & kLikeDefaults)) {
      col.column.default_expr = c.default_expr;
      ddl_detail::DefaultSequence(c.default_expr, &col.default_sequence);
    }
    if (options & kLikeComments) {
      auto it = table->column_comments.find(c.name);
      if (it != table->column_comments.end()) col.comment = it->second;
    }
    copy->columns.push_back(std::move(col));
  }
  if (options & kLikeConstraints) {
    for (const auto& c : table->constraints)
      if (c.kind == 'c') copy->checks.push_back(c);
  }
  if (options & kLikeIndexes) {
    for (const auto& x : table->indexes) {
      if (system_catalog::IsCounterIndex(*table, x)) continue;
      std::string comment = options & kLikeComments ? x.comment : "";
      const catalog::Constraint* owner = nullptr;
      for (const auto& c : table->constraints)
        if (!x.constraint.empty() && c.name == x.constraint) owner = &c;
      if (owner && (owner->kind == 'p' || owner->kind == 'u')) {
        TableLikeCopy::Key key{*owner, comment, x.reloptions};
        key.constraint.name.clear();
        copy->keys.push_back(std::move(key));
        continue;
      }
      catalog::Index index = x;
      index.name.clear();
      index.oid = 0;
      index.constraint.clear();
      index.comment = comment;
      index.replica_identity = false;
      index.stat_targets.clear();
      copy->indexes.push_back(std::move(index));
    }
  }
  return true;
}

}  // namespace kova::planner
