// Expressions that expression indexes key on, compiled to the index's own
// key SQL so that SQLite can look them up in the index (WHERE lower(email)
// = $1 over CREATE INDEX ... (lower(email))).

#include <memory>
#include <string>
#include <vector>

#include "planner/index_expr.h"
#include "planner/query.h"

namespace kova::planner {

namespace {

struct IndexKey {
  size_t entry;  // in the compiler's entries_
  IndexExpression e;
  std::string text;
  std::vector<std::string> column_sql;  // per parameter: the entry's column
};

struct IndexKeys {
  std::vector<IndexKey> keys;
};

// Whether the query's expression computes the index key: the same tree,
// with the entry's columns where the key has its parameters.
bool SameKey(const Expr& q, const Expr& k, const IndexKey& key,
             uint32_t table_oid) {
  if (k.kind == Expr::Kind::kParam)
    return q.kind == Expr::Kind::kColumn && q.table_oid == table_oid &&
           k.param >= 0 &&
           static_cast<size_t>(k.param) < key.column_sql.size() &&
           q.name == key.column_sql[k.param] && q.type == k.type &&
           q.typmod == k.typmod;
  if (q.kind != k.kind || q.name != k.name || q.type != k.type ||
      q.typmod != k.typmod || q.value != k.value || q.has_else != k.has_else ||
      q.distinct != k.distinct || q.args.size() != k.args.size() ||
      q.element_op || k.element_op || q.subquery || k.subquery)
    return false;
  for (size_t i = 0; i < q.args.size(); i++)
    if (!SameKey(*q.args[i], *k.args[i], key, table_oid)) return false;
  return true;
}

}  // namespace

bool QueryCompiler::EmitIndexedExpression(const Expr& e, std::string* sql) {
  switch (e.kind) {
    case Expr::Kind::kFunction:
    case Expr::Kind::kOperator:
    case Expr::Kind::kCast:
    case Expr::Kind::kCoalesce:
      break;
    default:
      return false;
  }
  if (!context_->catalog) return false;
  if (!index_keys_ || index_keys_entries_ != entries_.size()) {
    auto keys = std::make_shared<IndexKeys>();
    for (size_t n = 0; n < entries_.size(); n++) {
      const RangeEntry& r = entries_[n];
      if (!r.has_doc || !r.table_oid) continue;
      const catalog::Table* table = TableOf(r.table_oid);
      if (!table) continue;
      for (const auto& x : table->indexes) {
        for (const auto& text : x.expressions) {
          if (text.empty()) continue;
          IndexKey key;
          key.entry = n;
          key.text = text;
          PgError ignored;
          if (!AnalyzeIndexExpressionText(context_->hooks, *table, text, &key.e,
                                          &ignored))
            continue;
          bool all = true;
          for (const auto& column : key.e.names) {
            const RangeEntry::Col* col = nullptr;
            for (const auto& c : r.columns)
              if (c.name == column) col = &c;
            if (col)
              key.column_sql.push_back(col->sql);
            else
              all = false;
          }
          if (all) keys->keys.push_back(std::move(key));
        }
      }
    }
    index_keys_ = keys;
    index_keys_entries_ = entries_.size();
  }
  for (const auto& key : static_cast<IndexKeys*>(index_keys_.get())->keys) {
    const RangeEntry& r = entries_[key.entry];
    if (SameKey(e, *key.e.expr, key, r.table_oid)) {
      *sql = IndexKeySql(key.e, key.text, r.sql_alias + ".doc");
      return true;
    }
  }
  return false;
}

}  // namespace kova::planner
