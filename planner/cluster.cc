// CLUSTER [table [USING index]]: PostgreSQL rewrites the table in the order
// of the index, which is the order a scan without ORDER BY then returns.
// Kova rewrites the collection's rows in that order (new row ids, as
// PostgreSQL's ctids change), and marks the index as the table's clustered
// one, as CLUSTER ... USING does.
#include <sqlite3.h>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/index_expr.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner {

namespace {

// The index's keys as an ORDER BY over the collection's table (alias k),
// with PostgreSQL's direction and NULL placement.
bool IndexOrderSql(SessionHooks* hooks, const catalog::Table& t,
                   const catalog::Index& x, std::string* sql, PgError* error) {
  sql->clear();
  for (size_t i = 0; i < x.columns.size(); i++) {
    std::string key;
    if (x.expression(i).empty()) {
      const catalog::Column* c = t.FindColumn(x.columns[i]);
      if (!c) {
        *error = Err("XX000", "index \"" + x.name + "\" lost its column");
        return false;
      }
      key = ColumnSql("k", c->name, c->type);
    } else {
      IndexExpression e;
      if (!AnalyzeIndexExpressionText(hooks, t, x.expression(i), &e, error))
        return false;
      key = IndexKeySql(e, x.expression(i), "k.doc");
    }
    int16_t option = i < x.options.size() ? x.options[i] : 0;
    bool desc = option & catalog::kIndexDesc;
    bool nulls_first = option & catalog::kIndexNullsFirst;
    *sql += (i ? ", " : "") + key + (desc ? " DESC" : " ASC") +
            (nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return true;
}

}  // namespace

bool SessionImpl::ClusterTable(const catalog::Table& table,
                               const std::string& index_name, PgError* error) {
  catalog::Table copy = table;
  catalog::Index* index =
      alter_detail::FindIndexOf(&copy, *catalog_, index_name, error);
  if (!index || !alter_detail::CheckClusterIndex(*index, error)) return false;
  std::string order;
  if (!IndexOrderSql(this, copy, *index, &order, error)) return false;
  std::string tbl;
  if (!CollectionTable(copy.collection, &tbl, error)) return false;
  // Rows leave in index order and come back with ascending row ids; the
  // documents (and so every key) are unchanged.
  std::string sql =
      "CREATE TEMP TABLE kova_cluster AS SELECT kid, doc FROM " + tbl +
      " AS k ORDER BY " + order + ", k.rid; DELETE FROM " + tbl +
      "; INSERT INTO " + tbl +
      " (kid, doc) SELECT kid, doc FROM temp.kova_cluster ORDER BY rowid;"
      " DROP TABLE temp.kova_cluster;";
  char* message = nullptr;
  if (sqlite3_exec(storage_->connection(), sql.c_str(), nullptr, nullptr,
                   &message) != SQLITE_OK) {
    std::string m = message ? message : "failed";
    sqlite3_free(message);
    sqlite3_exec(storage_->connection(),
                 "DROP TABLE IF EXISTS temp.kova_cluster", nullptr, nullptr,
                 nullptr);
    *error = Err("XX000", "CLUSTER failed: " + m);
    return false;
  }
  for (auto& x : copy.indexes) x.clustered = &x == index;
  docstore::Status s =
      catalog::Catalog::PutTable(storage_.get(), database_, copy);
  if (!s.ok()) {
    *error = TableError(s);
    return false;
  }
  return true;
}

ExecuteResult SessionImpl::RunCluster(const PgQuery__ClusterStmt* stmt) {
  PgError error;
  if (!CheckWritable("CLUSTER", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  for (size_t i = 0; i < stmt->n_params; i++) {
    std::string opt = stmt->params[i]->def_elem->defname;
    if (opt != "verbose")
      return Fail(Err("42601", "unrecognized CLUSTER option \"" + opt + "\"",
                      stmt->params[i]->def_elem->location));
  }
  // (table, index) pairs to rewrite.
  std::vector<std::pair<catalog::Table, std::string>> work;
  if (!stmt->relation) {
    if (in_block_ || implicit_)
      return Fail(
          Err("25001", "CLUSTER cannot run inside a transaction block"));
    for (const auto& [k, t] : catalog_->tables())
      for (const auto& x : t.indexes)
        if (x.clustered) work.emplace_back(t, x.name);
  } else {
    const catalog::Table* found =
        TableOnPath(stmt->relation, /*index=*/false, &error);
    if (!found) return Fail(error);
    std::string index = stmt->indexname ? stmt->indexname : "";
    if (index.empty()) {
      for (const auto& x : found->indexes)
        if (x.clustered) index = x.name;
      if (index.empty())
        return Fail(
            Err("42704", "there is no previously clustered index for table \"" +
                             found->name + "\""));
    }
    work.emplace_back(*found, index);
  }
  docstore::Status s = EnsureWriteTransaction();
  if (!s.ok()) return Fail(TableError(s));
  for (const auto& [table, index] : work)
    if (!ClusterTable(table, index, &error)) return Fail(error);
  return Tag("CLUSTER");
}

}  // namespace kova::planner
