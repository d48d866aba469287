// The relations of pg_catalog that clients read (psql's \d family, ORMs),
// rendered at compile time from the in-memory catalog as a SQLite VALUES
// subquery with typed columns. A plan is kept only under the catalog
// version it was made with, so the rows cannot go stale; plans over roles
// and databases (not part of a database's catalog) are not kept at all.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "planner/expr_internal.h"
#include "planner/query.h"
#include "planner/svalue.h"
#include "planner/system_catalog.h"
#include "planner/system_catalog_internal.h"
#include "planner/types_array.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {
using namespace expr_detail;

namespace system_catalog {
namespace {

const Relation* Find(std::string_view name) {
  for (const auto& r : Relations())
    if (name == r.name) return &r;
  return nullptr;
}

const Relation* FindInfo(std::string_view name) {
  for (const auto& r : InfoRelations())
    if (name == r.name) return &r;
  return nullptr;
}

}  // namespace

bool IsSystemRelation(std::string_view name) { return Find(name) != nullptr; }

}  // namespace system_catalog

bool QueryCompiler::AddSystemRelation(const PgQuery__RangeVar* rv,
                                      std::string* sql, PgError* error) {
  using namespace system_catalog;
  error->sqlstate.clear();
  std::string_view schema = rv->schemaname ? rv->schemaname : "";
  const Relation* rel = schema == "information_schema" ? FindInfo(rv->relname)
                                                       : Find(rv->relname);
  if (!rel) return false;
  if (schema == "information_schema") {
    // Not in any search path: only ever named with its schema.
  } else if (!schema.empty()) {
    if (schema != "pg_catalog") return false;
  } else {
    // pg_catalog is searched first unless search_path names it later.
    const auto& path = context_->search_path;
    if (std::find(path.begin(), path.end(), "pg_catalog") != path.end()) {
      for (const auto& s : path) {
        if (s == "pg_catalog") break;
        if (context_->catalog->RelationExists(s, rv->relname)) return false;
      }
    }
  }
  Source src;
  src.cat = context_->catalog.get();
  src.temp_schema = context_->temp_schema;
  // Rows that change outside the catalog's version (roles, privileges,
  // settings, sessions, locks, the clock): the plan is not kept.
  auto not_cached = [&] {
    for (QueryCompiler* c = this; c; c = c->parent_)
      if (c->out_) c->out_->no_cache = true;
  };
  std::vector<ClusterRole> roles;
  std::vector<ClusterDatabase> databases;
  if (rel->cluster) {
    if (context_->cluster) context_->cluster(&roles, &databases);
    not_cached();
  }
  src.roles = &roles;
  src.databases = &databases;
  std::vector<Row> rows;
  std::string_view relname = rel->name;
  // The lines of a session function (tab-separated fields).
  auto session_lines = [&](const char* function, Value* lines) {
    not_cached();
    return context_->hooks &&
           context_->hooks->CallSessionFunction(function, {}, lines, error);
  };
  if (relname == "pg_class" || relname == "pg_namespace" ||
      relname == "pg_attribute") {
    // Privileges are recorded outside the catalog's version.
    Value lines;
    if (!session_lines("kova_acl_rows", &lines)) return false;
    if (lines) ParseGrants(*lines, &src.grants);
  }
  if (rel->rows) rel->rows(src, &rows);
  if (relname == "pg_timezone_names" || relname == "pg_timezone_abbrevs")
    not_cached();  // the offsets in effect now
  // pg_settings, pg_stat_activity and pg_locks: the session's current
  // values, the sessions and the advisory locks as they are now.
  struct SessionRows {
    const char* relation;
    const char* function;
    void (*to_rows)(const std::string&, std::vector<Row>*);
  };
  static const SessionRows kSessionRows[] = {
      {"pg_settings", "kova_settings_rows", SettingRows},
      {"pg_stat_activity", "kova_activity_rows", ActivityRows},
      {"pg_locks", "kova_lock_rows", LockRows}};
  for (const SessionRows& r : kSessionRows) {
    if (relname != r.relation) continue;
    Value lines;
    if (!session_lines(r.function, &lines)) return false;
    if (lines) r.to_rows(*lines, &rows);
  }
  if (std::string_view(rel->name) == "columns") {
    std::string counters;
    if (!context_->collection_table("admin.counters", &counters, error))
      return false;
    InfoColumnRows(src, &rows, counters);
  }
  // pg_sequence and pg_sequences: the rows hold the counter's id; the
  // options are read from the counter row below.
  const bool sequence_view = std::string_view(rel->name) == "pg_sequences";
  // information_schema.sequences: catalog, schema, name, type, counter.
  const bool info_sequences = schema == "information_schema" &&
                              std::string_view(rel->name) == "sequences";
  size_t ncols = std::string_view(rel->name) == "pg_sequence" ? 4
                 : sequence_view                              ? 7
                 : info_sequences                             ? 5
                                  : rel->cols.size();
  std::string inner;
  if (rows.empty()) {
    inner = "SELECT ";
    for (size_t i = 0; i < ncols; i++)
      inner += (i ? ", NULL AS c" : "NULL AS c") + std::to_string(i);
    inner += " WHERE 0";
  } else {
    inner = "SELECT ";
    for (size_t i = 0; i < ncols; i++)
      inner += (i ? ", column" : "column") + std::to_string(i + 1) + " AS c" +
               std::to_string(i);
    inner += " FROM (VALUES ";
    for (size_t r = 0; r < rows.size(); r++) {
      inner += r ? ", (" : "(";
      for (size_t i = 0; i < rows[r].size(); i++)
        inner += (i ? ", " : "") + rows[r][i];
      inner += ")";
    }
    inner += ")";
  }
  if (ncols != rel->cols.size()) {
    // The options of the sequence's counter row, with PostgreSQL's
    // defaults for those it leaves out.
    std::string counters;
    if (!context_->collection_table("admin.counters", &counters, error))
      return false;
    std::string type = sequence_view    ? "v.c4"
                       : info_sequences ? "v.c3"
                                        : "v.c1";
    std::string inc = "coalesce(kova_get(k.doc, 'increment'), 1)";
    std::string type_max = "CASE " + type +
                           " WHEN 21 THEN 32767 WHEN 23 THEN 2147483647 ELSE "
                           "9223372036854775807 END";
    std::string type_min = "CASE " + type +
                           " WHEN 21 THEN -32768 WHEN 23 THEN -2147483648 ELSE "
                           "-9223372036854775807 - 1 END";
    std::string min = "coalesce(kova_get(k.doc, 'min'), CASE WHEN " + inc +
                      " > 0 THEN 1 ELSE " + type_min + " END)";
    std::string max = "coalesce(kova_get(k.doc, 'max'), CASE WHEN " + inc +
                      " > 0 THEN " + type_max + " ELSE -1 END)";
    std::string start = "coalesce(kova_get(k.doc, 'start'), CASE WHEN " + inc +
                        " > 0 THEN " + min + " ELSE " + max + " END)";
    std::string cycle = "coalesce(kova_get(k.doc, 'cycle'), 0)";
    std::string from = " FROM (" + inner + ") AS v LEFT JOIN " + counters +
                       " AS k ON k.kid = " +
                       (sequence_view    ? "v.c6"
                        : info_sequences ? "v.c4"
                                         : "v.c3");
    if (info_sequences) {
      // Numbers as text, the type spelled out, as the SQL standard's view.
      inner = "SELECT v.c0 AS c0, v.c1 AS c1, v.c2 AS c2, CASE " + type +
              " WHEN 21 THEN 'smallint' WHEN 23 THEN 'integer' ELSE 'bigint' "
              "END AS c3, CASE " +
              type +
              " WHEN 21 THEN 16 WHEN 23 THEN 32 ELSE 64 END AS c4, 2 AS c5, 0 "
              "AS c6, CAST(" +
              start + " AS TEXT) AS c7, CAST(" + min +
              " AS TEXT) AS c8, CAST(" + max + " AS TEXT) AS c9, CAST(" + inc +
              " AS TEXT) AS c10, CASE WHEN " + cycle +
              " THEN 'YES' ELSE 'NO' END AS c11" + from;
    } else if (!sequence_view) {
      inner = "SELECT v.c0 AS c0, v.c1 AS c1, " + start + " AS c2, " + inc +
              " AS c3, " + max + " AS c4, " + min + " AS c5, v.c2 AS c6, " +
              cycle + " AS c7" + from;
    } else {
      // last_value: NULL until the sequence hands out a value (the
      // counter's last before its start), as SELECT ... FROM seq shows it.
      std::string last = "kova_get(kova_counter_doc(k.kid, k.doc), 'last')";
      std::string called = "(" + last + " IS NOT NULL AND ((" + inc +
                           " > 0 AND " + last + " >= " + start + ") OR (" +
                           inc + " < 0 AND " + last + " <= " + start + ")))";
      inner = "SELECT v.c0 AS c0, v.c1 AS c1, v.c2 AS c2, v.c3 AS c3, " +
              start + " AS c4, " + min + " AS c5, " + max + " AS c6, " + inc +
              " AS c7, " + cycle + " AS c8, v.c5 AS c9, CASE WHEN " + called +
              " THEN " + last + " END AS c10" + from;
    }
  }
  std::string alias =
      rv->alias && rv->alias->aliasname ? rv->alias->aliasname : rv->relname;
  std::string sql_alias = NewAlias();
  RangeEntry entry;
  entry.alias = alias;
  entry.relname = rel->name;
  entry.sql_alias = sql_alias;
  entry.table_oid = rel->oid;
  for (size_t i = 0; i < rel->cols.size(); i++) {
    std::string col = sql_alias + ".c" + std::to_string(i);
    const char* coll = CollationOf(rel->cols[i].type);
    if (*coll) col = "(" + col + " COLLATE " + coll + ")";
    entry.columns.push_back({rel->cols[i].name, rel->cols[i].type, -1, col,
                             static_cast<int16_t>(rel->oid ? i + 1 : 0)});
  }
  if (rv->alias)
    for (size_t i = 0; i < rv->alias->n_colnames && i < entry.columns.size();
         i++)
      entry.columns[i].name = rv->alias->colnames[i]->string->sval;
  *sql = "(" + inner + ") AS " + sql_alias;
  entries_.push_back(std::move(entry));
  return true;
}

// pg_partition_ancestors(rel) in FROM: Kova has no partitions, so the one
// row is the relation itself (depth 1 WITH ORDINALITY). relid is read as
// its OID, which is what the catalog queries join it with.
bool QueryCompiler::AddPartitionAncestorsItem(const PgQuery__RangeFunction* rf,
                                              const PgQuery__FuncCall* f,
                                              std::string* sql,
                                              PgError* error) {
  std::string fname = sql::JoinNames(f->funcname, f->n_funcname);
  if (fname.rfind("pg_catalog.", 0) == 0) fname = fname.substr(11);
  if (fname == "pg_options_to_table") {
    // pg_options_to_table(text[]): "name=value" items as (option_name,
    // option_value) rows (pg_dump reads options this way).
    std::unique_ptr<Expr> arg;
    if (f->n_args != 1 || rf->n_coldeflist > 0 || rf->ordinality) {
      *error = Err("0A000",
                   "this form of pg_options_to_table() in FROM is not "
                   "supported yet",
                   f->location);
      return false;
    }
    if (!analyzer_.Analyze(f->args[0], &arg, error) ||
        !analyzer_.Coerce(&arg, 1009, -1, error))
      return false;
    if (arg->type != 1009) {
      *error = Err("42883",
                   "function pg_options_to_table(" + TypeName(arg->type) +
                       ") does not exist",
                   f->location);
      return false;
    }
    std::string value = Emit(*arg);
    if (emit_failed_) {
      *error = emit_error_;
      return false;
    }
    RangeEntry entry;
    entry.alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname
                                                    : "pg_options_to_table";
    entry.sql_alias = NewAlias();
    std::string item = "kova_array_elem(json_extract(" + entry.sql_alias +
                       ".value, '$[0]'), 25)";
    std::string eq = "instr(" + item + ", '=')";
    std::vector<std::string> names = {"option_name", "option_value"};
    if (rf->alias)
      for (size_t i = 0; i < rf->alias->n_colnames && i < 2; i++)
        names[i] = rf->alias->colnames[i]->string->sval;
    entry.columns.push_back({names[0], oid::kText, -1,
                             "(CASE WHEN " + eq + " > 0 THEN substr(" + item +
                                 ", 1, " + eq + " - 1) ELSE " + item + " END)",
                             0});
    entry.columns.push_back({names[1], oid::kText, -1,
                             "(CASE WHEN " + eq + " > 0 THEN substr(" + item +
                                 ", " + eq + " + 1) END)",
                             0});
    *sql =
        "json_each(kova_array_rows(1009, " + value + ")) AS " + entry.sql_alias;
    entries_.push_back(std::move(entry));
    return true;
  }
  if (f->n_args != 1 || rf->lateral || rf->n_coldeflist > 0) {
    *error = Err("0A000",
                 "this form of pg_partition_ancestors() in FROM is not "
                 "supported yet",
                 f->location);
    return false;
  }
  std::unique_ptr<Expr> arg;
  if (!analyzer_.Analyze(f->args[0], &arg, error) ||
      !analyzer_.Coerce(&arg, oid::kOid, -1, error))
    return false;
  if (arg->type != oid::kOid) {
    *error = Err("42883",
                 "function pg_partition_ancestors(" + TypeName(arg->type) +
                     ") does not exist",
                 f->location);
    return false;
  }
  std::string value = Emit(*arg);
  if (emit_failed_) {
    *error = emit_error_;
    return false;
  }
  RangeEntry entry;
  entry.alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname
                                                  : "pg_partition_ancestors";
  entry.sql_alias = NewAlias();
  std::vector<std::string> names = {"relid", "ordinality"};
  if (!rf->alias || rf->alias->n_colnames == 0) names[0] = entry.alias;
  if (rf->alias)
    for (size_t i = 0; i < rf->alias->n_colnames && i < 2; i++)
      names[i] = rf->alias->colnames[i]->string->sval;
  entry.columns.push_back({names[0], oid::kOid, -1, "(" + value + ")", 0});
  if (rf->ordinality)
    entry.columns.push_back(
        {names[1], oid::kInt8, -1, entry.sql_alias + ".c0", 0});
  *sql = "(SELECT 1 AS c0) AS " + entry.sql_alias;
  entries_.push_back(std::move(entry));
  return true;
}

}  // namespace kova::planner
