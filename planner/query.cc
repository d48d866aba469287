// SELECT over tables, compiled to one SQLite statement.
#include "planner/query.h"

#include <algorithm>
#include <set>

#include "planner/ddl_alter_internal.h"
#include "planner/expr_internal.h"
#include "planner/stack_depth.h"
#include "planner/types_array.h"
#include "planner/types_ids.h"
#include "planner/user_types.h"

namespace kova::planner {
using namespace expr_detail;

namespace {

// transformLimitClause: a NULL constant as the row count of FETCH FIRST ...
// WITH TIES (a NULL computed at run time means no limit, as for LIMIT).
// A select-list expression PostgreSQL evaluates after ORDER BY and LIMIT
// (make_sort_input_target postpones volatile items that are not sort
// keys), so that nextval() numbers the rows in their output order and
// only the rows returned: one calling a volatile function and reading no
// column, aggregate, window or subquery (those stay where they are).
bool PostponableVolatile(const Expr& e, bool* volatile_call) {
  switch (e.kind) {
    case Expr::Kind::kColumn:
    case Expr::Kind::kAggregate:
    case Expr::Kind::kSubquery:
    case Expr::Kind::kWindow:
      return false;
    case Expr::Kind::kFunction: {
      static const char* const kVolatile[] = {
          "nextval",         "setval",          "random",
          "setseed",         "gen_random_uuid", "timeofday",
          "clock_timestamp", "pg_sleep",        "kova.command"};
      for (const char* v : kVolatile)
        if (e.name == v) *volatile_call = true;
      break;
    }
    default:
      break;
  }
  for (const auto& a : e.args)
    if (a && !PostponableVolatile(*a, volatile_call)) return false;
  return true;
}

bool NullTiesCount(const PgQuery__Node* n, PgError* error) {
  (void)n;  // PostgreSQL reports no position
  *error = Err("2201W",
               "row count cannot be null in FETCH FIRST ... WITH TIES clause");
  return false;
}

std::string RangeVarName(const PgQuery__RangeVar* rv) {
  std::string name = rv->relname;
  if (rv->schemaname && *rv->schemaname)
    name = std::string(rv->schemaname) + "." + name;
  return name;
}

std::string FieldName(const PgQuery__Node* n) {
  if (n->node_case == PG_QUERY__NODE__NODE_STRING) return n->string->sval;
  return "*";
}

// Types SQLite compares in PostgreSQL's order (same SQLite form, and a
// collation where text order is not the value order).
bool NativeComparable(uint32_t a, uint32_t b) {
  if (IsInteger(a) && IsInteger(b)) return true;
  // xid = integer (xideqint4): both plain integers.
  if ((a == oid::kXid && b == oid::kInt4) ||
      (a == oid::kInt4 && b == oid::kXid))
    return true;
  if ((IsInteger(a) || IsFloat(a)) && (IsInteger(b) || IsFloat(b))) return true;
  // char(n) is stored without its trailing blanks, so it compares as
  // PostgreSQL's bpchar does.
  if (IsText(a) && IsText(b)) return true;
  if (a != b) return false;
  switch (a) {
    case oid::kBool:
    case oid::kDate:
    case oid::kTime:
    case oid::kTimestamp:
    case oid::kTimestamptz:
    case oid::kUuid:
    case oid::kBytea:
    case oid::kNumeric:
    case oid::kInterval:
    case oid::kOid:
    case oid::kTid:
    case oid::kXid:
    case oid::kCid:
    case oid::kXid8:
      return true;
    default:
      return user_types::IsEnum(a);  // with the enum's collation
  }
}

int Bits(uint32_t type) {
  return type == oid::kInt2 ? 16 : type == oid::kInt4 ? 32 : 64;
}

// A select-list entry that GROUP BY names holds no aggregate, GROUPING()
// or window function (PostgreSQL's errors).
bool CheckGroupedTarget(const Expr& e, PgError* error) {
  if (e.kind == Expr::Kind::kWindow) {
    *error = Err("42P20", "window functions are not allowed in GROUP BY",
                 e.location);
    return false;
  }
  if (e.kind == Expr::Kind::kAggregate ||
      (e.kind == Expr::Kind::kFunction && e.name == "grouping")) {
    *error = Err("42803", "aggregate functions are not allowed in GROUP BY",
                 e.location);
    return false;
  }
  for (const auto& a : e.args)
    if (!CheckGroupedTarget(*a, error)) return false;
  return true;
}

// FETCH FIRST `limit` ROWS WITH TIES after OFFSET `offset` over `ranked`,
// whose rows carry kova_tie_rank and kova_tie_row (rank() and row_number()
// over the ORDER BY): the rows after the offset up to the limit, and those
// that tie with the last of them (a tie shares its rank, which is never
// above the last row's position). A limit of 0 returns no row even when the
// next row ties with one skipped by the offset.
std::string WithTiesFilter(const std::string& ranked,
                           const std::string& outputs, const std::string& limit,
                           const std::string& offset) {
  // kova_limit gives -1 for a NULL count: no limit, as in PostgreSQL.
  return "SELECT " + outputs + " FROM (" + ranked + ") WHERE kova_tie_row > " +
         offset + " AND (" + limit + " < 0 OR (" + limit +
         " > 0 AND kova_tie_rank <= " + offset + " + " + limit +
         ")) ORDER BY kova_tie_row";
}

}  // namespace

int ExprNodeLocation(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
      return node->a_const->location;
    case PG_QUERY__NODE__NODE_COLUMN_REF:
      return node->column_ref->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return node->func_call->location;
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return node->type_cast->location;
    case PG_QUERY__NODE__NODE_A_EXPR:
      return node->a_expr->location;
    default:
      return -1;
  }
}

int LeftmostParseLocation(const PgQuery__Node* node) {
  int location = -1;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        int at = ExprNodeLocation(n);
        if (at >= 0 && (location < 0 || at < location)) location = at;
      });
  return location;
}

int TargetValueLocation(const PgQuery__ResTarget* target) {
  if (target->val->node_case == PG_QUERY__NODE__NODE_A_EXPR)
    return target->location;
  int at = ExprNodeLocation(target->val);
  return at >= 0 ? at : target->location;
}

std::string SortDirectionSql(const PgQuery__SortBy* sort) {
  bool desc = sort->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
  bool nulls_first = desc;
  if (sort->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST)
    nulls_first = true;
  if (sort->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST)
    nulls_first = false;
  return std::string(desc ? " DESC" : " ASC") +
         (nulls_first ? " NULLS FIRST" : " NULLS LAST");
}

Compiled::~Compiled() {
  if (stmt) sqlite3_finalize(stmt);
}

const catalog::Table& QueryCompiler::CountersTable() {
  static const catalog::Table table = [] {
    catalog::Table t;
    t.oid = 13101;
    t.schema = "admin";
    t.name = "counters";
    t.collection = "counters";
    auto col = [&](const char* name, uint32_t type) {
      catalog::Column c;
      c.name = name;
      c.type = type;
      t.columns.push_back(c);
    };
    col("_id", oid::kText);
    col("collection", oid::kText);
    col("field", oid::kText);
    col("last", oid::kInt8);
    col("start", oid::kInt8);
    col("increment", oid::kInt8);
    col("min", oid::kInt8);
    col("max", oid::kInt8);
    col("cycle", oid::kBool);
    return t;
  }();
  return table;
}

QueryCompiler::QueryCompiler(CompileContext* context, QueryCompiler* parent,
                             Compiled* shared)
    : context_(context),
      parent_(parent),
      out_(shared),
      analyzer_(context->hooks, context->param_types) {
  analyzer_.set_scope(this);
  alias_counter_ = parent ? parent->alias_counter_ : &own_alias_counter_;
}

bool QueryCompiler::InOtherText() const {
  for (const QueryCompiler* scope = this; scope; scope = scope->parent_)
    if (scope->other_text_) return true;
  return false;
}

std::string QueryCompiler::NewAlias() {
  return "t" + std::to_string((*alias_counter_)++);
}

bool QueryCompiler::LookupRelation(CompileContext* context,
                                   const PgQuery__RangeVar* rv,
                                   const catalog::Table** table,
                                   const catalog::View** view, PgError* error) {
  *table = nullptr;
  *view = nullptr;
  std::string schema = rv->schemaname ? rv->schemaname : "";
  if (schema == "pg_temp") schema = context->temp_schema;
  std::string name = rv->relname;
  if (rv->catalogname && *rv->catalogname && context->db != rv->catalogname) {
    *error = Err("0A000",
                 "cross-database references are not implemented: " +
                     std::string(rv->catalogname) + "." + RangeVarName(rv),
                 rv->location);
    return false;
  }
  if (schema == "admin" && name == "counters") {
    *table = &CountersTable();
    return true;
  }
  const catalog::Catalog& cat = *context->catalog;
  std::vector<std::string> schemas;
  if (!schema.empty())
    schemas.push_back(schema);
  else
    schemas = context->search_path;
  for (const auto& s : schemas) {
    if ((*table = cat.FindTable(s, name))) return true;
    if ((*view = cat.FindView(s, name))) return true;
  }
  *error = Err("42P01", "relation \"" + RangeVarName(rv) + "\" does not exist",
               rv->location);
  return false;
}

bool QueryCompiler::AddTable(const catalog::Table& table,
                             const std::string& alias,
                             const std::string& sql_alias, PgError* error) {
  for (const auto& e : entries_) {
    if (e.alias == alias) {
      *error =
          Err("42712", "table name \"" + alias + "\" specified more than once");
      return false;
    }
  }
  RangeEntry entry;
  entry.alias = alias;
  entry.relname = table.name;
  entry.sql_alias = sql_alias;
  entry.table_oid = table.oid;
  entry.has_doc = true;
  bool counters = table.schema == "admin" && table.name == "counters";
  for (size_t i = 0; i < table.columns.size(); i++) {
    const auto& c = table.columns[i];
    // A domain's values are read as its base type (PostgreSQL describes
    // them so too).
    int32_t typmod = c.typmod;
    uint32_t type = user_types::BaseType(c.type, &typmod);
    std::string sql = ColumnSql(sql_alias, c.name, type);
    if (counters && c.name == "_id") sql = sql_alias + ".kid";
    entry.columns.push_back({c.name, type, typmod, sql,
                             static_cast<int16_t>(i + 1),
                             type != c.type ? c.type : 0});
  }
  entries_.push_back(std::move(entry));
  return true;
}

const PgQuery__CommonTableExpr* QueryCompiler::FindCte(const std::string& name,
                                                       QueryCompiler** owner,
                                                       size_t* index) {
  for (QueryCompiler* c = this; c; c = c->parent_) {
    size_t n = std::min(c->ctes_.size(), c->visible_ctes_);
    for (size_t i = 0; i < n; i++) {
      if (name == c->ctes_[i]->ctename) {
        *owner = c;
        *index = i;
        return c->ctes_[i];
      }
    }
  }
  return nullptr;
}

bool QueryCompiler::AddDerived(const PgQuery__SelectStmt* stmt,
                               const std::string& alias,
                               const std::vector<std::string>& column_names,
                               uint32_t table_oid, std::string* sql,
                               PgError* error) {
  QueryCompiler sub(context_, this, out_);
  Compiled inner;
  inner.binds = std::move(out_->binds);
  inner.fallbacks = std::move(out_->fallbacks);
  sub.out_ = &inner;
  bool ok = sub.CompileSelect(stmt, &inner, error);
  out_->binds = std::move(inner.binds);
  out_->fallbacks = std::move(inner.fallbacks);
  if (!ok) return false;
  RangeEntry entry;
  entry.alias = alias;
  entry.sql_alias = NewAlias();
  entry.table_oid = table_oid;
  for (size_t i = 0; i < inner.columns.size(); i++) {
    const auto& c = inner.columns[i];
    std::string name = i < column_names.size() ? column_names[i] : c.name;
    entry.columns.push_back({name, c.type_oid, c.type_modifier,
                             entry.sql_alias + ".c" + std::to_string(i),
                             static_cast<int16_t>(table_oid ? i + 1 : 0)});
  }
  *sql = "(" + inner.sql + ") AS " + entry.sql_alias;
  entries_.push_back(std::move(entry));
  return true;
}

bool QueryCompiler::AddFromItem(const PgQuery__Node* node, std::string* sql,
                                PgError* error) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: {
      const PgQuery__RangeVar* rv = node->range_var;
      QueryCompiler* owner = nullptr;
      size_t index = 0;
      if (!(rv->schemaname && *rv->schemaname)) {
        if (const PgQuery__CommonTableExpr* cte =
                FindCte(rv->relname, &owner, &index)) {
          std::vector<std::string> names;
          for (size_t i = 0; i < cte->n_aliascolnames; i++)
            names.push_back(cte->aliascolnames[i]->string->sval);
          if (rv->alias)
            for (size_t i = 0; i < rv->alias->n_colnames; i++) {
              if (i < names.size())
                names[i] = rv->alias->colnames[i]->string->sval;
              else
                names.push_back(rv->alias->colnames[i]->string->sval);
            }
          std::string alias = rv->alias && rv->alias->aliasname
                                  ? rv->alias->aliasname
                                  : rv->relname;
          if (owner->recursive_with_)
            return AddRecursiveCteRef(rv, cte, owner, alias, names, sql, error);
          // The WITH query sees the entries before it, not itself.
          size_t saved = owner->visible_ctes_;
          owner->visible_ctes_ = index;
          bool ok = AddDerived(cte->ctequery->select_stmt, alias, names, 0, sql,
                               error);
          owner->visible_ctes_ = saved;
          if (ok && cte->n_aliascolnames > entries_.back().columns.size()) {
            *error = Err(
                "42P10",
                "WITH query \"" + std::string(cte->ctename) + "\" has " +
                    std::to_string(entries_.back().columns.size()) +
                    " columns available but " +
                    std::to_string(cte->n_aliascolnames) + " columns specified",
                cte->location);
            return false;
          }
          return ok;
        }
      }
      if (AddSystemRelation(rv, sql, error)) return true;
      if (!error->sqlstate.empty()) return false;
      if (AddSequenceRelation(rv, sql, error)) return true;
      if (!error->sqlstate.empty()) return false;
      const catalog::Table* table;
      const catalog::View* view;
      if (!LookupRelation(context_, rv, &table, &view, error)) {
        // A WITH query named so, but not visible from here.
        for (QueryCompiler* c = this; c && error->sqlstate == "42P01" &&
                                      !(rv->schemaname && *rv->schemaname);
             c = c->parent_) {
          for (const auto* cte : c->ctes_) {
            if (std::string_view(cte->ctename) != rv->relname) continue;
            error->detail = "There is a WITH item named \"" +
                            std::string(rv->relname) +
                            "\", but it cannot be referenced from this part "
                            "of the query.";
            error->hint =
                "Use WITH RECURSIVE, or re-order the WITH items to remove "
                "forward references.";
            return false;
          }
        }
        return false;
      }
      std::string alias = rv->alias && rv->alias->aliasname
                              ? rv->alias->aliasname
                              : rv->relname;
      std::string sql_alias = NewAlias();
      if (view) {
        std::unique_ptr<sql::ParseTree> tree;
        sql::SyntaxError syntax;
        if (!sql::ParseTree::Parse(view->query, &tree, &syntax) ||
            tree->size() != 1) {
          *error = Err("XX000", "view \"" + view->name + "\" is unreadable");
          return false;
        }
        QueryCompiler sub(context_, this, out_);
        sub.other_text_ = true;
        Compiled inner;
        inner.binds = std::move(out_->binds);
        inner.fallbacks = std::move(out_->fallbacks);
        sub.out_ = &inner;
        bool ok = sub.CompileSelect(tree->statement(0).stmt->select_stmt,
                                    &inner, error);
        out_->binds = std::move(inner.binds);
        out_->fallbacks = std::move(inner.fallbacks);
        if (!ok) return false;
        RangeEntry entry;
        entry.alias = alias;
        entry.sql_alias = sql_alias;
        entry.table_oid = view->oid;
        for (size_t i = 0; i < inner.columns.size(); i++) {
          const auto& c = inner.columns[i];
          // The view's own column names (CREATE VIEW v (a, b), RENAME
          // COLUMN) win over the query's.
          std::string name =
              i < view->columns.size() ? view->columns[i].name : c.name;
          entry.columns.push_back({name, c.type_oid, c.type_modifier,
                                   sql_alias + ".c" + std::to_string(i),
                                   static_cast<int16_t>(i + 1)});
        }
        entries_.push_back(std::move(entry));
        *sql = "(" + inner.sql + ") AS " + sql_alias;
        return true;
      }
      std::string tbl;
      if (table->schema == "admin" && table->name == "counters") {
        if (!context_->collection_table("admin.counters", &tbl, error))
          return false;
        // Rows as readers see them: nextval hands values out from an
        // in-memory lease and writes last only now and then
        // (docstore/leases.cc); sequences are not transactional.
        tbl = "(SELECT rid, kid, kova_counter_doc(kid, doc) AS doc FROM " +
              tbl + ")";
      } else if (!context_->collection_table(table->collection, &tbl, error)) {
        return false;
      }
      if (!AddTable(*table, alias, sql_alias, error)) return false;
      if (rv->alias && rv->alias->n_colnames > 0) {
        auto& cols = entries_.back().columns;
        for (size_t i = 0; i < rv->alias->n_colnames && i < cols.size(); i++)
          cols[i].name = rv->alias->colnames[i]->string->sval;
      }
      if (!(table->schema == "admin" && table->name == "counters"))
        entries_.back().from_sql = tbl;
      *sql = tbl + " AS " + sql_alias;
      return true;
    }
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
      const PgQuery__RangeSubselect* rs = node->range_subselect;
      QueryCompiler sub(context_, this, out_);
      sub.not_lateral_ = !rs->lateral;
      Compiled inner;
      inner.binds = std::move(out_->binds);
      inner.fallbacks = std::move(out_->fallbacks);
      sub.out_ = &inner;
      bool ok = sub.CompileSelect(rs->subquery->select_stmt, &inner, error);
      out_->binds = std::move(inner.binds);
      out_->fallbacks = std::move(inner.fallbacks);
      if (!ok) return false;
      RangeEntry entry;
      entry.alias =
          rs->alias && rs->alias->aliasname ? rs->alias->aliasname : "";
      entry.sql_alias = NewAlias();
      for (size_t i = 0; i < inner.columns.size(); i++) {
        const auto& c = inner.columns[i];
        std::string name = c.name;
        if (rs->alias && i < rs->alias->n_colnames)
          name = rs->alias->colnames[i]->string->sval;
        std::string column_sql =
            rs->lateral ? "kova_row_get(" + entry.sql_alias + ".value, " +
                              std::to_string(i) + ")"
                        : entry.sql_alias + ".c" + std::to_string(i);
        entry.columns.push_back(
            {name, c.type_oid, c.type_modifier, column_sql, 0});
      }
      if (rs->lateral) {
        // SQLite's derived tables cannot read the FROM items beside them;
        // a table-valued function over a scalar subquery can (see
        // lateral_rows.cc).
        std::string cells;
        for (size_t i = 0; i < inner.columns.size(); i++)
          cells += (i ? ", c" : "c") + std::to_string(i);
        *sql = "json_each((SELECT json_group_array(kova_row_pack(" + cells +
               ")) FROM (" + inner.sql + "))) AS " + entry.sql_alias;
      } else {
        *sql = "(" + inner.sql + ") AS " + entry.sql_alias;
      }
      entries_.push_back(std::move(entry));
      return true;
    }
    case PG_QUERY__NODE__NODE_JOIN_EXPR:
      return AddJoinItem(node->join_expr, sql, error);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
      return AddFunctionItem(node->range_function, sql, error);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE:
      *error = Err("0A000", "TABLESAMPLE is not supported yet",
                   node->range_table_sample->location);
      return false;
    case PG_QUERY__NODE__NODE_RANGE_TABLE_FUNC:
      *error = Err("0A000", "XMLTABLE is not supported yet",
                   node->range_table_func->location);
      return false;
    default:
      *error = Err("0A000", "this FROM item is not supported yet");
      return false;
  }
}

// SELECT ... FROM a sequence: one row (last_value, log_cnt, is_called)
// read from its counter row. last_value is the last value handed out, or
// the start when none was (is_called false).
bool QueryCompiler::AddSequenceRelation(const PgQuery__RangeVar* rv,
                                        std::string* sql, PgError* error) {
  error->sqlstate.clear();
  std::vector<std::string> schemas;
  if (rv->schemaname && *rv->schemaname)
    schemas.push_back(std::string_view(rv->schemaname) == "pg_temp"
                          ? context_->temp_schema
                          : std::string(rv->schemaname));
  else
    schemas = context_->search_path;
  const catalog::Sequence* seq = nullptr;
  for (const auto& sc : schemas) {
    if (context_->catalog->FindTable(sc, rv->relname) ||
        context_->catalog->FindView(sc, rv->relname))
      return false;
    if ((seq = context_->catalog->FindSequence(sc, rv->relname))) break;
  }
  if (!seq) return false;
  std::string counters;
  if (!context_->collection_table("admin.counters", &counters, error))
    return false;
  std::string alias =
      rv->alias && rv->alias->aliasname ? rv->alias->aliasname : rv->relname;
  std::string sql_alias = NewAlias();
  std::string inner =
      "SELECT kova_get(kova_counter_doc(kid, doc), 'last') AS l, "
      "coalesce(kova_get(doc, 'start'), "
      "CASE WHEN coalesce(kova_get(doc, 'increment'), 1) > 0 THEN "
      "coalesce(kova_get(doc, 'min'), 1) ELSE coalesce(kova_get(doc, 'max'), "
      "-1) END) AS st, coalesce(kova_get(doc, 'increment'), 1) AS inc FROM " +
      counters + " WHERE kid = " + SqlQuoteLiteral(seq->counter);
  std::string called =
      "(l IS NOT NULL AND ((inc > 0 AND l >= st) OR (inc < 0 AND l <= st)))";
  *sql = "(SELECT CASE WHEN " + called +
         " THEN l ELSE st END AS c0, 0 AS c1, " + called + " AS c2 FROM (" +
         inner + ")) AS " + sql_alias;
  RangeEntry entry;
  entry.alias = alias;
  entry.sql_alias = sql_alias;
  entry.table_oid = seq->oid;
  entry.columns.push_back({"last_value", oid::kInt8, -1, sql_alias + ".c0", 1});
  entry.columns.push_back({"log_cnt", oid::kInt8, -1, sql_alias + ".c1", 2});
  entry.columns.push_back({"is_called", oid::kBool, -1, sql_alias + ".c2", 3});
  entries_.push_back(std::move(entry));
  return true;
}

namespace {

// generate_series's column (0) or its WITH ORDINALITY (1) in FROM: named by
// the alias's column list, else the value after the alias.
std::string SeriesColumnName(const PgQuery__RangeFunction* rf, size_t i) {
  if (rf->alias && rf->alias->n_colnames > i)
    return rf->alias->colnames[i]->string->sval;
  if (i == 1) return "ordinality";
  if (rf->alias && rf->alias->aliasname) return rf->alias->aliasname;
  return "generate_series";
}

}  // namespace

// Functions in FROM: generate_series over integers, as the table-valued
// function kova_series (over timestamps, rows built in C++).
bool QueryCompiler::AddFunctionItem(const PgQuery__RangeFunction* rf,
                                    std::string* sql, PgError* error) {
  const PgQuery__Node* call = nullptr;
  if (rf->n_functions == 1 &&
      rf->functions[0]->node_case == PG_QUERY__NODE__NODE_LIST &&
      rf->functions[0]->list->n_items > 0)
    call = rf->functions[0]->list->items[0];
  if (!call || call->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) {
    *error = Err("0A000", "this function in FROM is not supported yet");
    return false;
  }
  const PgQuery__FuncCall* f = call->func_call;
  std::string name = sql::JoinNames(f->funcname, f->n_funcname);
  if (name.rfind("pg_catalog.", 0) == 0) name = name.substr(11);
  if (name == "unnest" || name == "generate_subscripts")
    return AddArrayFunctionItem(rf, f, name, sql, error);
  if (IsJsonSetFunction(name))
    return AddJsonFunctionItem(rf, f, name, sql, error);
  if (name == "json_to_record" || name == "jsonb_to_record" ||
      name == "json_to_recordset" || name == "jsonb_to_recordset")
    return AddJsonRecordItem(rf, f, name, sql, error);
  // pg_options_to_table too (system_relations.cc).
  if (name == "pg_partition_ancestors" || name == "pg_options_to_table")
    return AddPartitionAncestorsItem(rf, f, sql, error);
  // LATERAL changes nothing: a function already sees the items before it.
  if (name != "generate_series" || rf->n_coldeflist > 0 || f->n_args < 2 ||
      f->n_args > 3) {
    *error = Err("0A000",
                 "function " + name + "() in FROM is not supported yet" +
                     (rf->ordinality ? " (WITH ORDINALITY)" : ""),
                 f->location);
    return false;
  }
  std::vector<std::unique_ptr<Expr>> args;
  uint32_t type = oid::kInt4;
  const char* saved = aggregate_context_;
  const char* saved_window = window_context_;
  aggregate_context_ = "functions in FROM";
  window_context_ = "functions in FROM";
  bool analysed = AnalyzeSeriesArgs(f, &args, &type, error);
  aggregate_context_ = saved;
  window_context_ = saved_window;
  if (!analysed) return false;
  if (type == oid::kTimestamp || type == oid::kTimestamptz) {
    // Timestamps step by calendar intervals: the rows come from C++.
    std::string sql_alias = NewAlias();
    *sql = "json_each(kova_srf_rows(4, " + Emit(*args[0]) + ", " +
           Emit(*args[1]) + ", " + Emit(*args[2]) + ", " +
           std::to_string(type) + ")) AS " + sql_alias;
    return AddSeriesEntry(
        rf, type, sql_alias,
        "CAST(json_extract(" + sql_alias + ".value, '$[0]') AS INTEGER)",
        "(" + sql_alias + ".key + 1)", error);
  }
  if (args.size() == 3 && args[2]->kind == Expr::Kind::kConst &&
      args[2]->value && *args[2]->value == "0") {
    *error = Err("22023", "step size cannot equal zero");
    return false;
  }
  // A table-valued function, so that the arguments may name columns of
  // the FROM items before it.
  std::string series = "kova_series(" + Emit(*args[0]) + ", " + Emit(*args[1]);
  if (args.size() == 3) {
    KeepLiteralValue(*args[2]);  // the check above
    series += ", " + Emit(*args[2]);
  }
  std::string sql_alias = NewAlias();
  *sql = series + ") AS " + sql_alias;
  return AddSeriesEntry(rf, type, sql_alias, sql_alias + ".value",
                        sql_alias + ".ordinality", error);
}

bool QueryCompiler::AddSeriesEntry(const PgQuery__RangeFunction* rf,
                                   uint32_t type, const std::string& sql_alias,
                                   const std::string& value_sql,
                                   const std::string& ordinality_sql,
                                   PgError* error) {
  RangeEntry entry;
  entry.alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname
                                                  : "generate_series";
  entry.relname = entry.alias;
  entry.sql_alias = sql_alias;
  entry.columns.push_back({SeriesColumnName(rf, 0), type, -1, value_sql, 0});
  if (rf->ordinality)
    entry.columns.push_back(
        {SeriesColumnName(rf, 1), oid::kInt8, -1, ordinality_sql, 0});
  entries_.push_back(std::move(entry));
  return !emit_failed_ || (*error = emit_error_, false);
}

bool QueryCompiler::AnalyzeSeriesArgs(const PgQuery__FuncCall* f,
                                      std::vector<std::unique_ptr<Expr>>* args,
                                      uint32_t* type, PgError* error) {
  *type = oid::kInt4;
  for (size_t i = 0; i < f->n_args; i++) {
    std::unique_ptr<Expr> e;
    if (!analyzer_.Analyze(f->args[i], &e, error)) return false;
    if (e->type == oid::kInt8) *type = oid::kInt8;
    args->push_back(std::move(e));
  }
  // Over timestamps: (timestamp, timestamp, interval) when both ends are
  // timestamps without time zone (or one is and the other an unknown
  // literal), else with time zone (dates and literals resolve to it, the
  // preferred type of their category).
  auto datetime = [](uint32_t t) {
    return t == oid::kTimestamp || t == oid::kTimestamptz || t == oid::kDate;
  };
  if (args->size() == 3 &&
      ((*args)[2]->type == oid::kInterval || datetime((*args)[0]->type) ||
       datetime((*args)[1]->type))) {
    uint32_t a = (*args)[0]->type, b = (*args)[1]->type;
    bool plain = (a == oid::kTimestamp || a == oid::kUnknown) &&
                 (b == oid::kTimestamp || b == oid::kUnknown) &&
                 (a == oid::kTimestamp || b == oid::kTimestamp);
    *type = plain ? oid::kTimestamp : oid::kTimestamptz;
    for (size_t i = 0; i < 3; i++) {
      auto& e = (*args)[i];
      uint32_t want = i == 2 ? oid::kInterval : *type;
      if (!analyzer_.Coerce(&e, want, -1, error)) return false;
      bool ok = i == 2 ? e->type == oid::kInterval
                       : datetime(e->type) || e->type == want;
      if (!ok) {
        *error = NoFunction("generate_series", *args, f->location);
        return false;
      }
      if (e->type != want) {
        auto cast = std::make_unique<Expr>();
        cast->kind = Expr::Kind::kCast;
        cast->type = want;
        cast->typmod = -1;
        cast->location = e->location;
        cast->args.push_back(std::move(e));
        e = std::move(cast);
      }
    }
    return true;
  }
  for (auto& e : *args) {
    if (!analyzer_.Coerce(&e, *type, -1, error)) return false;
    if (!IsInteger(e->type)) {
      *error = Err(
          "0A000",
          "generate_series over " + TypeName(e->type) + " is not supported yet",
          f->location);
      return false;
    }
  }
  return true;
}

bool QueryCompiler::WholeRow(const std::string& alias, int location,
                             std::unique_ptr<Expr>* out) {
  for (QueryCompiler* scope = this; scope; scope = scope->parent_) {
    for (const auto& entry : scope->entries_) {
      if (entry.alias != alias || !entry.qualifiable) continue;
      auto column = [&](const RangeEntry::Col& c) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kColumn;
        e->type = c.type;
        e->typmod = c.typmod;
        e->domain = c.domain;
        e->name = c.sql;
        e->location = location;
        e->table_oid = c.table_oid ? c.table_oid : entry.table_oid;
        e->attnum = c.attnum;
        return e;
      };
      if (entry.scalar && entry.columns.size() == 1) {
        *out = column(entry.columns[0]);
        return true;
      }
      std::vector<std::unique_ptr<Expr>> fields;
      std::vector<std::string> names;
      for (const auto& c : entry.columns) {
        fields.push_back(column(c));
        names.push_back(c.name);
      }
      // A table's row is missing (NULL as a whole) where an outer join
      // found none; other entries' rows are taken as present.
      std::unique_ptr<Expr> presence;
      if (entry.has_doc) {
        presence = std::make_unique<Expr>();
        presence->kind = Expr::Kind::kColumn;
        presence->type = oid::kInt8;
        presence->typmod = -1;
        presence->name = entry.sql_alias + ".rid";
        presence->location = location;
      }
      *out = expr_detail::MakeRow(std::move(fields), names, std::move(presence),
                                  location);
      return true;
    }
  }
  return false;
}

namespace {

// 42P01 for a FROM item that exists but is out of reach from here.
PgError UnreachableEntry(const std::string& qualifier, int location) {
  PgError e = Err(
      "42P01",
      "invalid reference to FROM-clause entry for table \"" + qualifier + "\"",
      location);
  e.hint = "There is an entry for table \"" + qualifier +
           "\", but it cannot be referenced from this part of the query.";
  return e;
}

}  // namespace

bool QueryCompiler::ResolveColumn(const PgQuery__ColumnRef* ref,
                                  std::unique_ptr<Expr>* out, PgError* error) {
  std::vector<std::string> fields;
  for (size_t i = 0; i < ref->n_fields; i++)
    fields.push_back(FieldName(ref->fields[i]));
  std::string column = fields.back();
  std::string qualifier = fields.size() >= 2 ? fields[fields.size() - 2] : "";
  if (column == "*") {
    // t.* inside an expression: the row of t, as t alone.
    if (fields.size() == 2 && WholeRow(qualifier, ref->location, out))
      return true;
    *error =
        Err("0A000", "a row value (*) is not supported here", ref->location);
    return false;
  }
  bool beside = false;  // scope's entries are beside a non-LATERAL subquery
  for (QueryCompiler* scope = this; scope;
       beside = scope->not_lateral_, scope = scope->parent_) {
    if (beside) {
      // A FROM item of the level that holds a non-LATERAL subquery: named
      // there, it is an error rather than a correlation.
      for (const auto& entry : scope->entries_) {
        if (entry.alias.empty() || !entry.qualifiable) continue;
        bool has_column = false;
        for (const auto& c : entry.columns) has_column |= c.name == column;
        if (!qualifier.empty() && entry.alias == qualifier) {
          *error = UnreachableEntry(qualifier, ref->location);
          return false;
        }
        if (qualifier.empty() && has_column) {
          *error = Err("42703", "column \"" + column + "\" does not exist",
                       ref->location);
          error->hint = "There is a column named \"" + column +
                        "\" in table \"" + entry.alias +
                        "\", but it cannot be referenced from this part of "
                        "the query.";
          return false;
        }
      }
      continue;
    }
    const RangeEntry::Col* found = nullptr;
    const RangeEntry* found_entry = nullptr;
    RangeEntry::Col system_col;  // a system column `found` may point to
    bool qualifier_seen = false;
    for (const auto& entry : scope->entries_) {
      if (!qualifier.empty() &&
          (entry.alias != qualifier || !entry.qualifiable))
        continue;
      if (qualifier.empty() && entry.hidden) continue;
      qualifier_seen = true;
      const RangeEntry::Col* hit = nullptr;
      for (const auto& c : entry.columns) {
        if (c.name != column) continue;
        if (hit) {
          *error =
              Err("42702", "column reference \"" + column + "\" is ambiguous",
                  ref->location);
          return false;
        }
        hit = &c;
      }
      if (!hit && entry.has_doc && IsUnkeptSystemColumn(column)) {
        *error =
            Err("0A000", "system column \"" + column + "\" is not supported",
                ref->location);
        return false;
      }
      // The hidden _id, tableoid (the OID of the relation the row comes
      // from) and ctid (from the row's rowid, types_ids.h). A second entry
      // with the same name makes the reference ambiguous below.
      if (!hit && column == "_id" && entry.has_doc) {
        system_col = {"_id", oid::kText, -1,
                      "kova_get(" + entry.sql_alias + ".doc, '_id')", 0};
        hit = &system_col;
      } else if (!hit && column == "tableoid" && entry.table_oid) {
        system_col = {"tableoid", oid::kOid, -1,
                      std::to_string(entry.table_oid), 0};
        hit = &system_col;
      } else if (!hit && column == "ctid" && entry.has_doc) {
        system_col = {"ctid", oid::kTid, -1,
                      types::ids::CtidSql(entry.sql_alias + ".rid"), 0};
        hit = &system_col;
      }
      if (!hit) continue;
      if (found) {
        *error =
            Err("42702", "column reference \"" + column + "\" is ambiguous",
                ref->location);
        return false;
      }
      found = hit;
      found_entry = &entry;
    }
    if (found) {
      if (scope != this) outer_references_++;
      if (scope != this && scope->grouping_query_ && analyzer_.in_aggregate()) {
        // PostgreSQL may take the aggregate for the enclosing query's.
        *error = Err("0A000",
                     "aggregates in a subquery over the columns of a query "
                     "with grouping sets are not supported yet",
                     ref->location);
        return false;
      }
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kColumn;
      e->type = found->type;
      e->typmod = found->typmod;
      e->domain = found->domain;
      e->name = found->sql;
      e->outer = scope != this;
      if (scope != this && scope->grouping_query_)
        e->name = scope->MarkOuterReference(*found, found_entry->alias,
                                            ref->location);
      e->location = ref->location;
      e->table_oid =
          found->table_oid ? found->table_oid : found_entry->table_oid;
      e->attnum = found->attnum;
      *out = std::move(e);
      return true;
    }
    if (!qualifier.empty() && qualifier_seen) {
      *error =
          Err("42703", "column " + qualifier + "." + column + " does not exist",
              ref->location);
      // The one table that has it, as PostgreSQL suggests.
      const RangeEntry* other = nullptr;
      int tables = 0;
      for (const auto& entry : scope->entries_) {
        if (entry.alias.empty() || !entry.qualifiable ||
            entry.alias == qualifier)
          continue;
        for (const auto& c : entry.columns)
          if (c.name == column) other = &entry, tables++;
      }
      if (tables == 1)
        error->hint = "Perhaps you meant to reference the column \"" +
                      other->alias + "." + column + "\".";
      return false;
    }
  }
  if (!qualifier.empty()) {
    for (QueryCompiler* scope = this; scope; scope = scope->parent_) {
      for (const auto& entry : scope->entries_) {
        if (entry.alias == qualifier && !entry.qualifiable) {
          *error = UnreachableEntry(qualifier, ref->location);
          return false;
        }
        if (entry.relname == qualifier && entry.alias != qualifier) {
          *error = Err("42P01",
                       "invalid reference to FROM-clause entry for table \"" +
                           qualifier + "\"",
                       ref->location);
          error->hint = "Perhaps you meant to reference the table alias \"" +
                        entry.alias + "\".";
          return false;
        }
      }
    }
    *error = Err("42P01",
                 "missing FROM-clause entry for table \"" + qualifier + "\"",
                 ref->location);
    return false;
  }
  // A FROM entry's name where a column is expected: its whole row.
  if (fields.size() == 1 && WholeRow(column, ref->location, out)) return true;
  *error =
      Err("42703", "column \"" + column + "\" does not exist", ref->location);
  // A column whose name differs only in case, as PostgreSQL suggests.
  for (const auto& entry : entries_) {
    if (entry.alias.empty() || !entry.qualifiable) continue;
    for (const auto& c : entry.columns) {
      if (c.name.size() != column.size() || c.name == column) continue;
      bool same = true;
      for (size_t i = 0; i < column.size() && same; i++)
        same = std::tolower(static_cast<unsigned char>(c.name[i])) ==
               std::tolower(static_cast<unsigned char>(column[i]));
      if (same) {
        error->hint = "Perhaps you meant to reference the column \"" +
                      entry.alias + "." + c.name + "\".";
        return false;
      }
    }
  }
  return false;
}

bool QueryCompiler::AggregatesAllowed(const char** context) {
  if (aggregate_context_) {
    *context = aggregate_context_;
    return false;
  }
  saw_aggregate_ = true;
  return true;
}

bool QueryCompiler::AnalyzeSubLink(const PgQuery__SubLink* link,
                                   std::unique_ptr<Expr>* out, PgError* error) {
  QueryCompiler sub(context_, this, out_);
  sub.sublink_ = true;
  Compiled inner;
  inner.binds = std::move(out_->binds);
  inner.fallbacks = std::move(out_->fallbacks);
  sub.out_ = &inner;
  bool ok = sub.CompileSelect(link->subselect->select_stmt, &inner, error);
  out_->binds = std::move(inner.binds);
  out_->fallbacks = std::move(inner.fallbacks);
  if (!ok) return false;
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kSubquery;
  e->location = link->location;
  e->subquery_sql = inner.sql;
  switch (link->sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
      e->name = "exists";
      e->type = oid::kBool;
      break;
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
      if (inner.columns.size() != 1) {
        *error = Err("42601", "subquery must return only one column",
                     link->location);
        return false;
      }
      e->name = "scalar";
      e->type = inner.columns[0].type_oid;
      e->typmod = inner.columns[0].type_modifier;
      break;
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: {
      if (inner.columns.size() != 1) {
        *error = Err("42601", "subquery must return only one column",
                     link->location);
        return false;
      }
      uint32_t t = inner.columns[0].type_oid;
      e->type = types::ArrayElementType(t) ? t : types::ArrayTypeOf(t);
      if (!e->type) {
        *error = Err("42704",
                     "could not find array type for data type " + TypeName(t),
                     link->location);
        return false;
      }
      e->name = "array";
      e->param = static_cast<int>(t);
      break;
    }
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
      bool all = link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK;
      if (link->testexpr &&
          link->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
        return AnalyzeRowInSubquery(link, inner, std::move(e), out, error);
      if (inner.columns.size() != 1) {
        *error = Err("42601", "subquery has too many columns", link->location);
        return false;
      }
      std::string op = link->n_oper_name
                           ? sql::JoinNames(link->oper_name, link->n_oper_name)
                           : "=";
      if (op.rfind("pg_catalog.", 0) == 0) op = op.substr(11);
      if (op == "!=") op = "<>";
      if (op != "=" && op != "<>" && op != "<" && op != ">" && op != "<=" &&
          op != ">=") {
        *error = Err("0A000",
                     "op ANY/ALL (subquery) is not supported for operator " +
                         op + " yet",
                     link->location);
        return false;
      }
      std::unique_ptr<Expr> operand;
      if (!analyzer_.Analyze(link->testexpr, &operand, error)) return false;
      uint32_t t = inner.columns[0].type_oid;
      if (operand->type == oid::kUnknown &&
          !analyzer_.Coerce(&operand, t, -1, error))
        return false;
      // An OID in a set of regclass values (names, PostgreSQL has no
      // oid = text): compare names.
      if (operand->type == oid::kOid && IsText(t))
        operand = RegclassNameOf(std::move(operand));
      std::vector<uint32_t> column_types = {t};
      std::vector<std::unique_ptr<Expr>*> operands = {&operand};
      std::string subquery_sql =
          ConvertSubqueryColumns(inner.sql, column_types, operands);
      t = column_types[0];
      e->subquery_sql = subquery_sql;
      if (!NativeComparable(operand->type, t)) {
        PgError err =
            Err("42883",
                "operator does not exist: " + TypeName(operand->type) + " " +
                    op + " " + TypeName(t),
                link->location);
        err.hint =
            "No operator matches the given name and argument types. You "
            "might need to add explicit type casts.";
        *error = err;
        return false;
      }
      if (op == "=" && !all) {
        e->name = "in";
      } else if (op == "<>" && all) {
        e->name = "not in";
      } else {
        // Three-valued: ANY is true if some comparison is true, else null
        // if some is null; ALL is false if some is false, else null if some
        // is null.
        e->name = all ? "all" : "any";
        e->subquery_sql = op;  // the operator; the SQL goes to `subquery`
        e->value = subquery_sql;
      }
      e->type = oid::kBool;
      e->args.push_back(std::move(operand));
      break;
    }
    default:
      *error = Err("0A000", "this kind of subquery is not supported yet",
                   link->location);
      return false;
  }
  *out = std::move(e);
  return true;
}

// (a, b) IN (SELECT x, y ...) and (a, b) NOT IN (...): SQLite's row-value
// IN, whose nulls behave as PostgreSQL's (a row pair with a null and no
// true match makes the result null).
bool QueryCompiler::AnalyzeRowInSubquery(const PgQuery__SubLink* link,
                                         const Compiled& inner,
                                         std::unique_ptr<Expr> e,
                                         std::unique_ptr<Expr>* out,
                                         PgError* error) {
  bool all = link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK;
  std::string op = link->n_oper_name
                       ? sql::JoinNames(link->oper_name, link->n_oper_name)
                       : "=";
  if (op.rfind("pg_catalog.", 0) == 0) op = op.substr(11);
  if (op == "!=") op = "<>";
  if (!(op == "=" && !all) && !(op == "<>" && all)) {
    *error = Err("0A000",
                 "row " + op + (all ? " ALL" : " ANY") +
                     " (subquery) is not supported yet",
                 link->location);
    return false;
  }
  const PgQuery__RowExpr* row = link->testexpr->row_expr;
  if (row->n_args != inner.columns.size()) {
    *error =
        Err("42601",
            row->n_args < inner.columns.size() ? "subquery has too many columns"
                                               : "subquery has too few columns",
            link->location);
    return false;
  }
  std::vector<std::unique_ptr<Expr>> operands(row->n_args);
  std::vector<uint32_t> column_types;
  std::vector<std::unique_ptr<Expr>*> operand_slots;
  for (size_t i = 0; i < row->n_args; i++) {
    std::unique_ptr<Expr>& operand = operands[i];
    if (!analyzer_.Analyze(row->args[i], &operand, error)) return false;
    uint32_t t = inner.columns[i].type_oid;
    if (operand->type == oid::kUnknown &&
        !analyzer_.Coerce(&operand, t, -1, error))
      return false;
    column_types.push_back(t);
    operand_slots.push_back(&operand);
  }
  e->subquery_sql =
      ConvertSubqueryColumns(inner.sql, column_types, operand_slots);
  for (size_t i = 0; i < row->n_args; i++) {
    std::unique_ptr<Expr>& operand = operands[i];
    uint32_t t = column_types[i];
    if (!NativeComparable(operand->type, t)) {
      *error = Err("42883",
                   "operator does not exist: " + TypeName(operand->type) + " " +
                       op + " " + TypeName(t),
                   link->location);
      error->hint =
          "No operator matches the given name and argument types. You might "
          "need to add explicit type casts.";
      return false;
    }
    e->args.push_back(std::move(operand));
  }
  e->name = all ? "row not in" : "row in";
  e->type = oid::kBool;
  *out = std::move(e);
  return true;
}

std::string QueryCompiler::ConvertSubqueryColumns(
    const std::string& sql, std::vector<uint32_t>& column_types,
    const std::vector<std::unique_ptr<Expr>*>& operands) {
  std::string list;
  bool converted = false;
  for (size_t i = 0; i < column_types.size(); i++) {
    std::unique_ptr<Expr>& operand = *operands[i];
    uint32_t t = column_types[i];
    auto column = std::make_unique<Expr>();
    column->kind = Expr::Kind::kColumn;
    column->type = t;
    column->name = "kova_c.c" + std::to_string(i);
    if (!NativeComparable(operand->type, t) && Category(operand->type) == 'N' &&
        Category(t) == 'N') {
      uint32_t bad_a = 0, bad_b = 0;
      uint32_t common =
          SelectCommonType({operand->type, t}, &bad_a, &bad_b, nullptr);
      if (common) {
        ConvertTo(&operand, common);
        if (common != t) {
          ConvertTo(&column, common);
          column_types[i] = common;
          converted = true;
        }
      }
    }
    list += (i ? ", " : "") + Emit(*column) + " AS c" + std::to_string(i);
  }
  if (!converted) return sql;
  return "SELECT " + list + " FROM (" + sql + ") AS kova_c";
}

bool QueryCompiler::AnalyzeExpr(const PgQuery__Node* node,
                                std::unique_ptr<Expr>* out, PgError* error) {
  return analyzer_.Analyze(node, out, error);
}

std::string QueryCompiler::Bind(uint32_t type, const Value& value,
                                int literal_location) {
  std::string key = "c" + std::to_string(type) + ":" + *value;
  auto slot = out_->bind_slots.find(key);
  if (slot != out_->bind_slots.end()) {
    // A slot shared by two sources belongs to neither literal alone.
    SqlBind& shared = out_->binds[slot->second - 1];
    if (shared.literal_location != literal_location)
      shared.literal_location = -1;
    return "?" + std::to_string(slot->second);
  }
  SqlBind b;
  b.type = type;
  b.literal_location = literal_location;
  PgError error;
  if (!ToSValue(type, value, context_->hooks->type_context(), &b.value,
                &error)) {
    if (!emit_failed_) emit_error_ = error;
    emit_failed_ = true;
  }
  out_->binds.push_back(std::move(b));
  out_->bind_slots[key] = static_cast<int>(out_->binds.size());
  return "?" + std::to_string(out_->binds.size());
}

void QueryCompiler::KeepLiteralValue(const Expr& e) {
  if (e.kind != Expr::Kind::kConst || !e.value) return;
  uint32_t type = e.type == oid::kUnknown ? oid::kText : e.type;
  auto slot =
      out_->bind_slots.find("c" + std::to_string(type) + ":" + *e.value);
  if (slot != out_->bind_slots.end())
    out_->binds[slot->second - 1].literal_location = -1;
}

std::string QueryCompiler::EmitFallback(const Expr& e) {
  Fallback fb;
  auto node = std::make_shared<Expr>();
  node->kind = e.kind;
  node->type = e.type;
  node->typmod = e.typmod;
  node->value = e.value;
  node->name = e.name;
  node->has_else = e.has_else;
  node->location = e.location;
  node->element_op = e.element_op;
  std::string sql = "kova_eval(";
  std::vector<std::string> args;
  for (size_t i = 0; i < e.args.size(); i++) {
    const Expr& a = *e.args[i];
    // Nested comparisons inside NULLIF/DISTINCT keep their shape: their
    // operands become the parameters.
    if ((e.kind == Expr::Kind::kNullIf && i == 1) ||
        (e.kind == Expr::Kind::kDistinct)) {
      auto inner = std::make_unique<Expr>();
      inner->kind = a.kind;
      inner->type = a.type;
      inner->name = a.name;
      inner->location = a.location;
      for (const auto& aa : a.args) {
        auto p = std::make_unique<Expr>();
        p->kind = Expr::Kind::kParam;
        p->param = static_cast<int>(fb.arg_types.size());
        p->type = aa->type;
        p->typmod = aa->typmod;
        fb.arg_types.push_back(aa->type);
        args.push_back(Emit(*aa));
        inner->args.push_back(std::move(p));
      }
      node->args.push_back(std::move(inner));
      continue;
    }
    auto p = std::make_unique<Expr>();
    p->kind = Expr::Kind::kParam;
    p->param = static_cast<int>(fb.arg_types.size());
    p->type = a.type;
    p->typmod = a.typmod;
    fb.arg_types.push_back(a.type);
    args.push_back(Emit(a));
    node->args.push_back(std::move(p));
  }
  fb.node = node;
  // The same computation over the same arguments shares one slot.
  std::string key =
      std::to_string(static_cast<int>(e.kind)) + "|" + e.name + "|" +
      std::to_string(e.type) + "|" + std::to_string(e.typmod) + "|" +
      (e.value ? "v" + *e.value : "n") + "|" + (e.has_else ? "e" : "") + "|" +
      std::to_string(e.kind == Expr::Kind::kNullIf ||
                             e.kind == Expr::Kind::kDistinct
                         ? (e.args.size() > 1 ? 1 : 0)
                         : 0);
  for (size_t i = 0; i < e.args.size(); i++)
    key += "|" + e.args[i]->name + "/" + std::to_string(e.args[i]->type);
  for (const auto& a : args) key += "|" + a;
  int id;
  auto slot = out_->fallback_slots.find(key);
  if (slot != out_->fallback_slots.end()) {
    id = slot->second;
  } else {
    out_->fallbacks.push_back(std::move(fb));
    id = static_cast<int>(out_->fallbacks.size() - 1);
    out_->fallback_slots[key] = id;
  }
  sql += std::to_string(id);
  for (const auto& a : args) sql += ", " + a;
  sql += ")";
  const char* coll = CollationOf(e.type);
  // SQLite gives a function's result the collation of an argument with
  // an explicit COLLATE: a result without one of its own is reset.
  bool collated_arg = false;
  for (const auto& a : e.args) collated_arg |= *CollationOf(a->type) != 0;
  if (!*coll && collated_arg) coll = "BINARY";
  if (*coll) sql = "(" + sql + " COLLATE " + coll + ")";
  return sql;
}

std::string QueryCompiler::EmitArrayMembership(const Expr& e) {
  const Expr* cmp = e.element_op.get();
  bool any = e.name == "any";
  if (!cmp || cmp->kind != Expr::Kind::kOperator || cmp->args.size() != 2 ||
      cmp->name != (any ? "=" : "<>"))
    return "";
  const Expr& p0 = *cmp->args[0];
  const Expr& p1 = *cmp->args[1];
  if (p0.kind != Expr::Kind::kParam || p1.kind != Expr::Kind::kParam ||
      p0.param != 0 || p1.param != 1 || !NativeComparable(p0.type, p1.type))
    return "";
  uint32_t array_type = e.args[1]->type;
  uint32_t element = types::ArrayElementType(array_type);
  std::string left = Emit(*e.args[0]);
  const char* coll = CollationOf(element);
  if (*coll) left = "(" + left + " COLLATE " + coll + ")";
  // A NULL array makes the result NULL (json_each would see no elements).
  std::string array = Emit(*e.args[1]);
  return "(CASE WHEN " + array + " IS NULL THEN NULL ELSE (" + left +
         (any ? " IN " : " NOT IN ") +
         "(SELECT kova_array_elem(json_extract(value, '$[0]'), " +
         std::to_string(element) + ") FROM json_each(kova_array_rows(" +
         std::to_string(array_type) + ", " + array + ")))) END)";
}

std::string QueryCompiler::EmitOperator(const Expr& e) {
  const std::string& op = e.name;
  if (e.args.size() == 1) {
    const Expr& a = *e.args[0];
    if (op == "-" && IsInteger(e.type) && a.type == e.type)
      return "kova_ineg(" + Emit(a) + ", " + std::to_string(Bits(e.type)) + ")";
    if (op == "+" && IsNumber(e.type)) return Emit(a);
    return EmitFallback(e);
  }
  const Expr& l = *e.args[0];
  const Expr& r = *e.args[1];
  if (op == "=" || op == "<>" || op == "!=" || op == "<" || op == ">" ||
      op == "<=" || op == ">=") {
    if (op == "=" && collect_join_keys_ && l.kind == Expr::Kind::kColumn &&
        r.kind == Expr::Kind::kColumn && !l.outer && !r.outer &&
        NativeComparable(l.type, r.type))
      join_keys_.emplace_back(Emit(l), Emit(r));
    if (NativeComparable(l.type, r.type))
      return "(" + Emit(l) + " " + (op == "!=" ? "<>" : op) + " " + Emit(r) +
             ")";
    if (l.type == r.type && types::ArrayElementType(l.type))
      // Arrays compare in SQLite with their collation (PostgreSQL's
      // array_cmp), given explicitly: both sides may be bare constants.
      return "(" + Emit(l) + " COLLATE " + CollationOf(l.type) + " " +
             (op == "!=" ? "<>" : op) + " " + Emit(r) + ")";
    return EmitFallback(e);
  }
  if ((op == "+" || op == "-" || op == "*" || op == "/" || op == "%") &&
      IsInteger(e.type) && IsInteger(l.type) && IsInteger(r.type)) {
    const char* fn = op == "+"   ? "kova_iadd"
                     : op == "-" ? "kova_isub"
                     : op == "*" ? "kova_imul"
                     : op == "/" ? "kova_idiv"
                                 : "kova_imod";
    return std::string(fn) + "(" + Emit(l) + ", " + Emit(r) + ", " +
           std::to_string(Bits(e.type)) + ")";
  }
  if (op == "||" && IsText(l.type) && IsText(r.type) &&
      l.type != oid::kBpchar && r.type != oid::kBpchar)
    return "(" + Emit(l) + " || " + Emit(r) + ")";
  return EmitFallback(e);
}

std::string QueryCompiler::Emit(const Expr& e) {
  if (grouping_ && grouping_->substituting) {
    std::string sql;
    if (EmitGrouped(e, &sql)) return sql;
  }
  {
    std::string sql;
    if (EmitIndexedExpression(e, &sql)) return sql;
  }
  switch (e.kind) {
    case Expr::Kind::kConst:
      if (!e.value) return "NULL";
      // A value typed by a typmod (varchar(3) 'abcd') is not the
      // literal's text alone.
      return Bind(e.type == oid::kUnknown ? oid::kText : e.type, e.value,
                  e.typmod == -1 && !InOtherText() ? e.location : -1);
    case Expr::Kind::kParam: {
      std::string key =
          "p" + std::to_string(e.param) + ":" + std::to_string(e.type);
      auto slot = out_->bind_slots.find(key);
      int index;
      if (slot != out_->bind_slots.end()) {
        index = slot->second;
      } else {
        SqlBind b;
        b.is_param = true;
        b.param = e.param;
        b.type = e.type;
        out_->binds.push_back(std::move(b));
        index = static_cast<int>(out_->binds.size());
        out_->bind_slots[key] = index;
      }
      std::string sql = "?" + std::to_string(index);
      const char* coll = CollationOf(e.type);
      if (*coll) sql = "(" + sql + " COLLATE " + coll + ")";
      return sql;
    }
    case Expr::Kind::kColumn:
      return e.name;
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr: {
      std::string sql = "(";
      for (size_t i = 0; i < e.args.size(); i++) {
        if (i) sql += e.kind == Expr::Kind::kAnd ? " AND " : " OR ";
        sql += Emit(*e.args[i]);
      }
      return sql + ")";
    }
    case Expr::Kind::kNot:
      return "(NOT " + Emit(*e.args[0]) + ")";
    case Expr::Kind::kIsNull:
      return "(" + Emit(*e.args[0]) + " IS NULL)";
    case Expr::Kind::kIsNotNull:
      return "(" + Emit(*e.args[0]) + " IS NOT NULL)";
    case Expr::Kind::kBoolTest: {
      std::string a = Emit(*e.args[0]);
      if (e.name == "true") return "(" + a + " IS TRUE)";
      if (e.name == "not true") return "(" + a + " IS NOT TRUE)";
      if (e.name == "false") return "(" + a + " IS FALSE)";
      if (e.name == "not false") return "(" + a + " IS NOT FALSE)";
      if (e.name == "unknown") return "(" + a + " IS NULL)";
      return "(" + a + " IS NOT NULL)";
    }
    case Expr::Kind::kCase: {
      // Lazy, as PostgreSQL: a branch not taken is never computed.
      std::string sql = "CASE";
      size_t pairs = (e.args.size() - (e.has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; i++)
        sql += " WHEN " + Emit(*e.args[2 * i]) + " THEN " +
               Emit(*e.args[2 * i + 1]);
      if (e.has_else) sql += " ELSE " + Emit(*e.args.back());
      return sql + " END";
    }
    case Expr::Kind::kCoalesce: {
      if (e.args.size() == 1) return Emit(*e.args[0]);
      std::string sql = "COALESCE(";
      for (size_t i = 0; i < e.args.size(); i++) {
        if (i) sql += ", ";
        sql += Emit(*e.args[i]);
      }
      return sql + ")";
    }
    case Expr::Kind::kNullIf: {
      const Expr& cmp = *e.args[1];
      if (cmp.kind == Expr::Kind::kOperator && cmp.args.size() == 2 &&
          NativeComparable(cmp.args[0]->type, cmp.args[1]->type))
        return "CASE WHEN " + Emit(cmp) + " THEN NULL ELSE " +
               Emit(*e.args[0]) + " END";
      return EmitFallback(e);
    }
    case Expr::Kind::kDistinct: {
      const Expr& cmp = *e.args[0];
      if (cmp.args.size() == 2 &&
          NativeComparable(cmp.args[0]->type, cmp.args[1]->type))
        return "(" + Emit(*cmp.args[0]) +
               (e.name == "not" ? " IS " : " IS NOT ") + Emit(*cmp.args[1]) +
               ")";
      return EmitFallback(e);
    }
    case Expr::Kind::kOperator:
      return EmitOperator(e);
    case Expr::Kind::kCast: {
      const Expr& a = *e.args[0];
      if (e.typmod < 0 && a.type == e.type) return Emit(a);
      if (e.typmod < 0 && IsInteger(a.type) && IsInteger(e.type) &&
          Bits(e.type) >= Bits(a.type))
        return Emit(a);
      if (e.typmod < 0 && IsInteger(a.type) && e.type == oid::kFloat8)
        return "CAST(" + Emit(a) + " AS REAL)";
      if (e.typmod < 0 && IsText(a.type) && IsText(e.type) &&
          e.type != oid::kBpchar && a.type != oid::kBpchar)
        return Emit(a);
      return EmitFallback(e);
    }
    case Expr::Kind::kAggregate: {
      if (IsOrderedSetAggregate(e.name)) return EmitOrderedSetAggregate(e);
      // FILTER (WHERE cond) is the last argument; SQLite has FILTER too.
      std::vector<const Expr*> args;
      size_t n = e.args.size() - (e.has_else ? 1 : 0);
      for (size_t i = 0; i < n; i++) args.push_back(e.args[i].get());
      std::string call = EmitAggregateCall(e, args);
      if (!e.has_else) return call;
      std::string filter = " FILTER (WHERE " + Emit(*e.args.back()) + ")";
      size_t coll = call.rfind(" COLLATE ");
      if (call[0] == '(' && coll != std::string::npos)
        return call.substr(0, coll) + filter + call.substr(coll);
      return call + filter;
    }
    case Expr::Kind::kSubquery: {
      if (e.name == "exists") return "EXISTS (" + e.subquery_sql + ")";
      if (e.name == "array")  // ARRAY(subquery): '{}' when no rows
        return "(COALESCE((SELECT kova_array_agg(" + std::to_string(e.param) +
               ", 0, '', kova_q.c0) FROM (" + e.subquery_sql +
               ") AS kova_q), '{}') COLLATE " + CollationOf(e.type) + ")";
      if (e.name == "in")
        return "(" + Emit(*e.args[0]) + " IN (" + e.subquery_sql + "))";
      if (e.name == "not in")
        return "(" + Emit(*e.args[0]) + " NOT IN (" + e.subquery_sql + "))";
      if (e.name == "row in" || e.name == "row not in") {
        std::string row;
        for (const auto& a : e.args)
          row += (row.empty() ? "" : ", ") + Emit(*a);
        return "((" + row + ")" + (e.name == "row in" ? " IN (" : " NOT IN (") +
               e.subquery_sql + "))";
      }
      if (e.name == "any" || e.name == "all") {
        std::string x = Emit(*e.args[0]);
        const std::string& op = e.subquery_sql;
        std::string from = " FROM (" + *e.value + ") AS kova_q WHERE ";
        std::string cmp = "(" + x + " " + op + " kova_q.c0)";
        if (e.name == "any")
          return "(CASE WHEN EXISTS (SELECT 1" + from + cmp +
                 ") THEN 1 WHEN EXISTS (SELECT 1" + from + cmp +
                 " IS NULL) THEN NULL ELSE 0 END)";
        return "(CASE WHEN EXISTS (SELECT 1" + from + "NOT " + cmp +
               ") THEN 0 WHEN EXISTS (SELECT 1" + from + cmp +
               " IS NULL) THEN NULL ELSE 1 END)";
      }
      // A scalar subquery returning more than one row is an error:
      // kova_single fails at its second row. The subquery's SQL appears
      // once, so that nested subqueries grow the SQL linearly.
      return "(SELECT kova_single(kova_s.c0) FROM (" + e.subquery_sql +
             ") AS kova_s)";
    }
    case Expr::Kind::kFunction:
      // GROUPING() is read from the grouping sets' union (EmitGrouped);
      // elsewhere its SQL only serves comparisons.
      if (e.name == "grouping") return "NULL";
      if (e.name == "any" || e.name == "all") {
        std::string sql = EmitArrayMembership(e);
        if (!sql.empty()) return sql;
      }
      return EmitFallback(e);
    case Expr::Kind::kMinMax:
      return EmitFallback(e);
    case Expr::Kind::kWindow:
      return EmitWindow(e);
  }
  return EmitFallback(e);
}

namespace {

// The ORDER BY of an ordered aggregate whose keys are args[first...]:
// directions and null placement, then the keys' types (AggregateOrder in
// sqlite_runtime.cc reads them).
std::string OrderFlags(const Expr& e, const std::vector<const Expr*>& args,
                       size_t first) {
  std::string flags = (e.value ? *e.value : "") + "|";
  for (size_t i = first; i < args.size(); i++)
    flags += std::to_string(args[i]->type) + ",";
  return flags;
}

}  // namespace

std::string QueryCompiler::EmitAggregateCall(
    const Expr& e, const std::vector<const Expr*>& args) {
  if (args.empty()) return "count(*)";
  std::string d = e.distinct ? "DISTINCT " : "";
  std::string a = Emit(*args[0]);
  uint32_t t = args[0]->type;
  if (e.name == "count") return "count(" + d + a + ")";
  if (e.name == "sum") {
    if (t == oid::kInt2 || t == oid::kInt4 || IsFloat(t))
      return "sum(" + d + a + ")";
    return "(kova_sum(" + d + a + ") COLLATE kova_numeric)";
  }
  if (e.name == "avg") {
    if (IsFloat(t)) return "avg(" + d + a + ")";
    if (t == oid::kInterval) {
      if (!emit_failed_)
        emit_error_ =
            Err("0A000", "avg(interval) is not supported yet", e.location);
      emit_failed_ = true;
      return "NULL";
    }
    return "(kova_avg(" + d + a + ") COLLATE kova_numeric)";
  }
  if (IsVarianceAggregate(e.name)) {
    std::string call = std::string(VarianceFunctionName(e.name, IsFloat(t))) +
                       "(" + d + a + ")";
    return IsFloat(t) ? call : "(" + call + " COLLATE kova_numeric)";
  }
  if (e.name == "min" || e.name == "max") {
    std::string sql = e.name + "(" + d + a + ")";
    const char* coll = CollationOf(e.type);
    if (*coll) sql = "(" + sql + " COLLATE " + coll + ")";
    return sql;
  }
  if (IsBitAggregate(e.name)) return "kova_" + e.name + "(" + d + a + ")";
  if (IsRegressionAggregate(e.name))
    return "kova_" + e.name + "(" + d + a + ", " + Emit(*args[1]) + ")";
  if (e.name == "bool_and" || e.name == "every") return "min(" + d + a + ")";
  if (e.name == "bool_or") return "max(" + d + a + ")";
  if (e.name == "string_agg" && e.param > 0 && e.value) {
    // string_agg(x, sep ORDER BY keys): SQLite's aggregates take no
    // ORDER BY, so the rows are collected and sorted at the end. With
    // DISTINCT the keys are the value itself (checked by the analysis):
    // equal values end up side by side, and "U" keeps one of each.
    std::string sql =
        "kova_ordered_string_agg(" +
        SqlQuoteLiteral((e.distinct ? "U" : "") + OrderFlags(e, args, 2)) +
        ", " + a + ", " + Emit(*args[1]);
    for (size_t i = 2; i < args.size(); i++) sql += ", " + Emit(*args[i]);
    return sql + ")";
  }
  // string_agg(DISTINCT x, sep): SQLite's group_concat takes DISTINCT with
  // one argument only; PostgreSQL's sorts the values (flags "U": unique).
  if (e.name == "string_agg" && e.distinct)
    return "kova_ordered_string_agg('UAL', " + a + ", " + Emit(*args[1]) +
           ", " + a + ")";
  if (e.name == "string_agg")
    return "group_concat(" + d + a + ", " + Emit(*args[1]) + ")";
  if (IsJsonAggregate(e.name)) {
    // kova_json_agg(name, type, second type, distinct, order flags, value,
    // second value, keys...); DISTINCT without ORDER BY sorts by the value,
    // as PostgreSQL's sorted distinct aggregation does.
    bool object = e.name.ends_with("object_agg");
    size_t values = object ? 2 : 1;
    std::string flags = OrderFlags(e, args, values);
    std::string keys;
    for (size_t i = values; i < args.size(); i++) keys += ", " + Emit(*args[i]);
    if (e.distinct && args.size() == values) {
      flags = "AL|" + std::to_string(t) + ",";
      keys = ", " + a;
    }
    // Rows arrive as their to_json objects; PostgreSQL sets composite
    // values (and arrays) apart with a line break.
    std::string name = e.name;
    if (!object && args[0]->kind == Expr::Kind::kFunction &&
        args[0]->name.rfind("kova_row_json", 0) == 0)
      name += ":composite";
    return "kova_json_agg(" + SqlQuoteLiteral(name) + ", " + std::to_string(t) +
           ", " + (object ? std::to_string(args[1]->type) : "0") + ", " +
           (e.distinct ? "1" : "0") + ", " + SqlQuoteLiteral(flags) + ", " + a +
           ", " + (object ? Emit(*args[1]) : "NULL") + keys + ")";
  }
  if (e.name == "array_agg") {
    // kova_array_agg(input type, distinct, order flags, value, keys...):
    // rows are collected, sorted by the keys and built into the array.
    std::string sql = "(kova_array_agg(" + std::to_string(t) + ", " +
                      (e.distinct ? "1" : "0") + ", " +
                      SqlQuoteLiteral(OrderFlags(e, args, 1)) + ", " + a;
    for (size_t i = 1; i < args.size(); i++) sql += ", " + Emit(*args[i]);
    return sql + ") COLLATE " + CollationOf(e.type) + ")";
  }
  return "NULL";
}

bool QueryCompiler::HasAggregate(const Expr& e) {
  if (e.kind == Expr::Kind::kAggregate) return true;
  for (const auto& a : e.args)
    if (HasAggregate(*a)) return true;
  return false;
}

bool QueryCompiler::ExpandStar(const PgQuery__ColumnRef* ref,
                               std::vector<std::unique_ptr<Expr>>* exprs,
                               std::vector<std::string>* names,
                               PgError* error) {
  std::string qualifier =
      ref->n_fields >= 2 ? FieldName(ref->fields[ref->n_fields - 2]) : "";
  bool any = false;
  for (const auto& entry : entries_) {
    if (!qualifier.empty() && (entry.alias != qualifier || !entry.qualifiable))
      continue;
    if (qualifier.empty() && entry.hidden) continue;
    any = true;
    for (const auto& c : entry.columns) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kColumn;
      e->type = c.type;
      e->typmod = c.typmod;
      e->name = c.sql;
      e->location = ref->location;
      e->table_oid = c.table_oid ? c.table_oid : entry.table_oid;
      e->attnum = c.attnum;
      exprs->push_back(std::move(e));
      names->push_back(c.name);
    }
  }
  if (!any) {
    if (qualifier.empty()) {
      *error = Err("42601", "SELECT * with no tables specified is not valid",
                   ref->location);
    } else {
      *error = Err("42P01",
                   "missing FROM-clause entry for table \"" + qualifier + "\"",
                   ref->location);
    }
    return false;
  }
  return true;
}

bool QueryCompiler::CheckGrouping(const Expr& e,
                                  const std::vector<std::string>& groups,
                                  PgError* error) {
  if (e.kind == Expr::Kind::kAggregate && IsOrderedSetAggregate(e.name) &&
      e.name != "mode") {
    // The fraction is evaluated once per group.
    if (!CheckGrouping(*e.args[0], groups, error)) {
      if (error->detail.empty())
        error->detail =
            "Direct arguments of an ordered-set aggregate must use only "
            "grouped columns.";
      return false;
    }
    return true;
  }
  if (e.kind == Expr::Kind::kAggregate || e.kind == Expr::Kind::kSubquery ||
      e.kind == Expr::Kind::kConst || e.kind == Expr::Kind::kParam)
    return true;
  // Its arguments are checked apart (CheckGroupingArgs).
  if (e.kind == Expr::Kind::kFunction && e.name == "grouping") return true;
  if (e.kind == Expr::Kind::kWindow) {
    // A window aggregate runs over the grouped rows: its arguments are
    // grouped expressions too.
    for (size_t i = 0; i < e.args.size(); i++) {
      const Expr& a = *e.args[i];
      if (i == 0 && IsWindowAggregateCall(e)) {
        for (const auto& aa : a.args)
          if (!CheckGrouping(*aa, groups, error)) return false;
      } else if (!CheckGrouping(a, groups, error)) {
        return false;
      }
    }
    return true;
  }
  // An expression the statement groups by, as a whole.
  std::string sql = Emit(e);
  for (const auto& g : groups)
    if (g == sql) return true;
  if (e.kind == Expr::Kind::kColumn) {
    if (e.outer || GroupedByPrimaryKey(e, groups)) return true;
    // The column's name as written, for the message.
    std::string name = e.name;
    for (const auto& entry : entries_)
      for (const auto& c : entry.columns)
        if (c.sql == e.name)
          name = (entry.alias.empty() ? "" : entry.alias + ".") + c.name;
    *error = Err("42803",
                 "column \"" + name +
                     "\" must appear in the GROUP BY clause or be used in an "
                     "aggregate function",
                 e.location);
    return false;
  }
  for (const auto& a : e.args)
    if (!CheckGrouping(*a, groups, error)) return false;
  return true;
}

bool QueryCompiler::GroupedByPrimaryKey(
    const Expr& column, const std::vector<std::string>& groups) const {
  if (!context_->catalog) return false;
  for (const auto& entry : entries_) {
    // Tables only: not views, subqueries or a join's merged columns.
    if (!entry.has_doc || !entry.table_oid) continue;
    bool owns = false;
    for (const auto& c : entry.columns) owns = owns || c.sql == column.name;
    if (!owns) continue;
    const catalog::Table* table = TableOf(entry.table_oid);
    if (!table) return false;
    // A deferrable key may be broken inside a transaction (PostgreSQL
    // does not count it either).
    const catalog::Constraint* pk = table->PrimaryKey();
    if (!pk || pk->deferrable) return false;
    for (const auto& key_column : pk->columns) {
      bool grouped = false;
      for (const auto& c : entry.columns) {
        if (c.name != key_column) continue;
        for (const auto& g : groups) grouped = grouped || g == c.sql;
      }
      if (!grouped) return false;
    }
    if (context_->grouping_keys)
      context_->grouping_keys->emplace(table->oid, pk->name);
    return true;
  }
  return false;
}

const catalog::Table* QueryCompiler::TableOf(uint32_t oid) const {
  if (!context_->catalog) return nullptr;
  for (const auto& [key, t] : context_->catalog->tables())
    if (t.oid == oid) return &t;
  return nullptr;
}

bool QueryCompiler::ColumnIndexed(const RangeEntry& entry,
                                  const std::string& sql) const {
  const catalog::Table* table = TableOf(entry.table_oid);
  if (!table) return true;  // unknown: leave it to SQLite
  std::string name;
  for (const auto& c : entry.columns)
    if (c.sql == sql) name = c.name;
  const catalog::Column* column = table->FindColumn(name);
  if (!column) return true;
  if (!column->counter.empty()) return true;  // its unique index
  for (const auto& x : table->indexes)
    if (x.predicate.empty() && !x.columns.empty() && x.columns[0] == name &&
        x.expression(0).empty())
      return true;
  for (const auto& c : table->constraints)
    if ((c.kind == 'p' || c.kind == 'u') && !c.columns.empty() &&
        c.columns[0] == name)
      return true;
  return false;
}

void QueryCompiler::MaterializeJoinKeys(std::string* from, std::string* where) {
  if (join_keys_.empty()) return;
  // The entry (index) whose column `sql` reads (-1: none of this query's).
  auto entry_of = [&](const std::string& sql) -> int {
    for (size_t i = 0; i < entries_.size(); i++)
      for (const auto& c : entries_[i].columns)
        if (c.sql == sql) return static_cast<int>(i);
    return -1;
  };
  // A table this query may replace by a subquery.
  auto table = [&](int i) {
    const RangeEntry& e = entries_[i];
    return e.has_doc && !e.from_sql.empty() && e.sql_alias != "t_target";
  };
  // The key's call without its collation: what the subquery projects.
  auto core_of = [](const std::string& sql) -> std::string {
    std::string core = sql;
    size_t coll = core.find(" COLLATE ");
    if (core[0] == '(' && coll != std::string::npos)
      core = core.substr(1, coll - 1);
    if (core.rfind("kova_key(", 0) != 0 && core.rfind("kova_get(", 0) != 0)
      return "";
    return core;
  };
  std::map<int, std::vector<std::string>> keys;  // entry -> key calls
  for (const auto& [left, right] : join_keys_) {
    int a = entry_of(left), b = entry_of(right);
    if (a < 0 || b < 0 || a == b) continue;
    // An index on either side serves the join (a subquery's or function's
    // column: SQLite indexes it itself once it materializes it).
    bool a_table = table(a), b_table = table(b);
    if ((a_table && ColumnIndexed(entries_[a], left)) ||
        (b_table && ColumnIndexed(entries_[b], right)) ||
        (!a_table && !b_table))
      continue;
    // Of two tables the smaller is indexed (the other is read once), the
    // later one when their sizes are not known or an outer join fixes the
    // order (the later is then the side the join probes).
    int pick = a_table ? a : b;
    const bool outer_join = from->find(" LEFT JOIN ") != std::string::npos ||
                            from->find(" RIGHT JOIN ") != std::string::npos ||
                            from->find(" FULL JOIN ") != std::string::npos;
    if (a_table && b_table && outer_join) {
      pick = std::max(a, b);
    } else if (a_table && b_table) {
      int64_t rows_a = context_->hooks
                           ? context_->hooks->EstimateRows(entries_[a].from_sql)
                           : -1;
      int64_t rows_b = context_->hooks
                           ? context_->hooks->EstimateRows(entries_[b].from_sql)
                           : -1;
      pick = rows_a >= 0 && rows_b >= 0 && rows_a != rows_b
                 ? (rows_a < rows_b ? a : b)
                 : std::max(a, b);
    }
    const std::string& key = pick == a ? left : right;
    std::string core = core_of(key);
    if (core.empty()) continue;
    auto& list = keys[pick];
    if (std::find(list.begin(), list.end(), core) == list.end())
      list.push_back(core);
  }
  for (const auto& [index, list] : keys) {
    const RangeEntry& e = entries_[index];
    std::string item = e.from_sql + " AS " + e.sql_alias;
    if (from->find(item) == std::string::npos) continue;
    std::string doc = e.sql_alias + ".doc";
    std::string select = "SELECT rid, doc";
    for (size_t k = 0; k < list.size(); k++) {
      std::string inner = list[k];
      inner.replace(inner.find(doc), doc.size(), "doc");
      select += ", " + inner + " AS kova_k" + std::to_string(k);
    }
    // LIMIT -1 keeps SQLite from flattening the subquery into the join.
    std::string subquery =
        "(" + select + " FROM " + e.from_sql + " LIMIT -1) AS " + e.sql_alias;
    for (size_t at = from->find(item); at != std::string::npos;
         at = from->find(item, at + subquery.size()))
      from->replace(at, item.size(), subquery);
    for (size_t k = 0; k < list.size(); k++) {
      std::string column = e.sql_alias + ".kova_k" + std::to_string(k);
      for (std::string* text : {from, where}) {
        for (size_t p = text->find(list[k]); p != std::string::npos;
             p = text->find(list[k], p + column.size()))
          text->replace(p, list[k].size(), column);
      }
    }
  }
}

// PostgreSQL's FigureColname, with a scalar subquery named after its
// first output column.
std::string QueryCompiler::OutputName(const PgQuery__Node* val) {
  if (val->node_case == PG_QUERY__NODE__NODE_SUB_LINK &&
      val->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
      val->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
    const PgQuery__SelectStmt* sub = val->sub_link->subselect->select_stmt;
    while (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE && sub->larg)
      sub = sub->larg;
    if (sub->n_target_list > 0) {
      const PgQuery__ResTarget* t = sub->target_list[0]->res_target;
      if (t->name && *t->name) return t->name;
      return OutputName(t->val);
    }
  }
  return Analyzer::ColumnName(val);
}

bool QueryCompiler::AddWithClause(const PgQuery__WithClause* w,
                                  PgError* error) {
  Compiled* out = out_;
  // In WITH RECURSIVE every WITH query sees all of them (itself too).
  recursive_with_ = w->recursive;
  for (size_t i = 0; i < w->n_ctes; i++) {
    const PgQuery__CommonTableExpr* cte = w->ctes[i]->common_table_expr;
    for (const auto* other : ctes_) {
      if (std::string_view(other->ctename) == cte->ctename) {
        *error = Err("42712",
                     "WITH query name \"" + std::string(cte->ctename) +
                         "\" specified more than once",
                     cte->location);
        return false;
      }
    }
    if (cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
      // At the top level a statement's data-modifying WITH queries run
      // before the rest (with_dml.cc); the compiler meets only nested ones.
      *error = Err("0A000",
                   "WITH clause containing a data-modifying statement must be "
                   "at the top level",
                   cte->location);
      return false;
    }
    ctes_.push_back(cte);
  }
  // PostgreSQL analyses every WITH query, referenced or not: their errors
  // are the statement's. A scratch compile checks each one.
  for (size_t i = 0; i < ctes_.size(); i++) {
    QueryCompiler check(context_, this, nullptr);
    Compiled scratch;
    if (recursive_with_) {
      check.out_ = &scratch;
      std::string sql;
      if (!check.AddRecursiveCteRef(nullptr, ctes_[i], this, ctes_[i]->ctename,
                                    {}, &sql, error))
        return false;
      continue;
    }
    size_t saved = visible_ctes_;
    visible_ctes_ = i;
    bool ok =
        check.CompileSelect(ctes_[i]->ctequery->select_stmt, &scratch, error);
    visible_ctes_ = saved;
    if (!ok) return false;
  }
  out_ = out;
  return true;
}

bool QueryCompiler::CompileSelect(const PgQuery__SelectStmt* s, Compiled* out,
                                  PgError* error) {
  if (StackDepthExceeded()) {
    *error = StackDepthError();
    return false;
  }
  out_ = out;
  if (s->with_clause && !AddWithClause(s->with_clause, error)) return false;
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
    return CompileSetOp(s, out, error);
  if (s->n_values_lists > 0) return CompileValues(s, out, error);
  return CompileSimpleSelect(s, out, error);
}

bool QueryCompiler::CompileValues(const PgQuery__SelectStmt* s, Compiled* out,
                                  PgError* error) {
  std::vector<std::vector<std::unique_ptr<Expr>>> rows;
  size_t ncols = 0;
  for (size_t r = 0; r < s->n_values_lists; r++) {
    const PgQuery__List* list = s->values_lists[r]->list;
    if (r == 0) ncols = list->n_items;
    if (list->n_items != ncols) {
      *error = Err("42601", "VALUES lists must all be the same length");
      return false;
    }
    std::vector<std::unique_ptr<Expr>> row;
    for (size_t c = 0; c < list->n_items; c++) {
      std::unique_ptr<Expr> e;
      aggregate_context_ = "VALUES";
      bool ok = analyzer_.Analyze(list->items[c], &e, error);
      aggregate_context_ = nullptr;
      if (!ok) return false;
      row.push_back(std::move(e));
    }
    rows.push_back(std::move(row));
  }
  out->columns.clear();
  for (size_t c = 0; c < ncols; c++) {
    std::vector<uint32_t> types;
    for (auto& row : rows) types.push_back(row[c]->type);
    uint32_t bad_a = 0, bad_b = 0;
    size_t bad = 0;
    uint32_t common = SelectCommonType(types, &bad_a, &bad_b, &bad);
    if (!common) {
      *error =
          NoCommonType("VALUES", bad_a, bad_b, StartLocation(*rows[bad][c]));
      return false;
    }
    for (auto& row : rows) {
      if (!analyzer_.Coerce(&row[c], common, -1, error)) return false;
      ConvertTo(&row[c], common);
    }
    ColumnDesc col;
    col.name = "column" + std::to_string(c + 1);
    col.type_oid = common;
    const types::TypeInfo* info = types::LookupType(common);
    col.type_size = info ? info->length : -1;
    out->columns.push_back(col);
  }
  std::string sql;
  for (size_t r = 0; r < rows.size(); r++) {
    sql += r ? " UNION ALL SELECT " : "SELECT ";
    for (size_t c = 0; c < ncols; c++) {
      if (c) sql += ", ";
      sql += Emit(*rows[r][c]) + " AS c" + std::to_string(c);
    }
  }
  if (emit_failed_) {
    *error = emit_error_;
    return false;
  }
  out->sql = sql;
  if (s->n_sort_clause > 0 || s->limit_count || s->limit_offset)
    return OrderAndLimitOutput(s, "VALUES", out, error) &&
           (!emit_failed_ || (*error = emit_error_, false));
  return true;
}

namespace {

// FOR UPDATE / SHARE anywhere in a set operation: PostgreSQL's 0A000,
// the leaves' first (transformSetOperationTree), then the whole one's.
bool CheckSetOpLocking(const PgQuery__SelectStmt* s, PgError* error) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE &&
      (!CheckSetOpLocking(s->larg, error) ||
       !CheckSetOpLocking(s->rarg, error)))
    return false;
  if (s->n_locking_clause == 0) return true;
  const char* strength = "FOR UPDATE";
  switch (s->locking_clause[0]->locking_clause->strength) {
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE:
      strength = "FOR KEY SHARE";
      break;
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE:
      strength = "FOR SHARE";
      break;
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE:
      strength = "FOR NO KEY UPDATE";
      break;
    default:
      break;
  }
  *error = Err("0A000", std::string(strength) +
                            " is not allowed with UNION/INTERSECT/EXCEPT");
  return false;
}

// The SELECTs a set operation combines, left to right (PostgreSQL names
// them "*SELECT* 1", "*SELECT* 2", ...).
void SetOpLeaves(const PgQuery__SelectStmt* s,
                 std::vector<const PgQuery__SelectStmt*>* leaves) {
  if (s->op == PG_QUERY__SET_OPERATION__SETOP_NONE) {
    leaves->push_back(s);
    return;
  }
  SetOpLeaves(s->larg, leaves);
  SetOpLeaves(s->rarg, leaves);
}

// The name a select-list item gives its column, when the statement alone
// says it (an alias, a column's name); empty otherwise.
std::string TargetName(const PgQuery__ResTarget* t) {
  if (t->name && *t->name) return t->name;
  if (t->val && t->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
    const PgQuery__ColumnRef* c = t->val->column_ref;
    const PgQuery__Node* last = c->fields[c->n_fields - 1];
    if (last->node_case == PG_QUERY__NODE__NODE_STRING)
      return last->string->sval;
  }
  return "";
}

}  // namespace

bool QueryCompiler::CompileSetOp(const PgQuery__SelectStmt* s, Compiled* out,
                                 PgError* error) {
  if (!CheckSetOpLocking(s, error)) return false;
  const char* op = "UNION";
  if (s->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT) op = "INTERSECT";
  if (s->op == PG_QUERY__SET_OPERATION__SETOP_EXCEPT) op = "EXCEPT";

  Compiled left, right;
  auto compile_side = [&](const PgQuery__SelectStmt* side, Compiled* c) {
    QueryCompiler sub(context_, this, out_);
    c->binds = std::move(out->binds);
    c->fallbacks = std::move(out->fallbacks);
    sub.out_ = c;
    bool ok = sub.CompileSelect(side, c, error);
    out->binds = std::move(c->binds);
    out->fallbacks = std::move(c->fallbacks);
    return ok;
  };
  if (!compile_side(s->larg, &left) || !compile_side(s->rarg, &right))
    return false;
  // Errors point at the right query's target list, as PostgreSQL.
  auto right_location = [&](size_t i) {
    const PgQuery__SelectStmt* r = s->rarg;
    if (r->op != PG_QUERY__SET_OPERATION__SETOP_NONE || i >= r->n_target_list)
      return -1;
    return TargetValueLocation(r->target_list[i]->res_target);
  };
  if (left.columns.size() != right.columns.size()) {
    *error = Err("42601",
                 "each " + std::string(op) +
                     " query must have the same number of columns",
                 right_location(0));
    return false;
  }
  // Each column's common type (select_common_type; an untyped literal
  // takes the other side's), and its typmod when both sides share it.
  out->columns = left.columns;
  out->unknown_columns.clear();
  std::vector<uint32_t> common(left.columns.size());
  auto side_type = [](const Compiled& side, size_t i) {
    return i < side.unknown_columns.size() && side.unknown_columns[i]
               ? oid::kUnknown
               : side.columns[i].type_oid;
  };
  // A regclass column (a relation name) with an oid column: the OIDs of
  // the relations named (regclass is binary coercible to oid in
  // PostgreSQL; pg_dump unites 'pg_opfamily'::regclass with
  // pg_depend.classid).
  std::vector<const Compiled*> regclass_side(left.columns.size(), nullptr);
  for (size_t i = 0; i < left.columns.size(); i++) {
    if (left.columns[i].type_oid == oid::kOid && IsRegclassTarget(s->rarg, i) &&
        right.columns[i].type_oid == oid::kText)
      regclass_side[i] = &right;
    if (right.columns[i].type_oid == oid::kOid &&
        IsRegclassTarget(s->larg, i) && left.columns[i].type_oid == oid::kText)
      regclass_side[i] = &left;
  }
  for (size_t i = 0; i < left.columns.size(); i++) {
    uint32_t bad_a = 0, bad_b = 0;
    common[i] =
        regclass_side[i]
            ? oid::kOid
            : SelectCommonType({side_type(left, i), side_type(right, i)},
                               &bad_a, &bad_b);
    if (!common[i]) {
      *error = NoCommonType(op, bad_a, bad_b, right_location(i));
      return false;
    }
    // An untyped literal is read as the common type now, so that a bad
    // one fails at its position, as in PostgreSQL.
    for (const auto& [stmt, side] :
         {std::pair{s->larg, &left}, std::pair{s->rarg, &right}}) {
      if (side_type(*side, i) != oid::kUnknown || common[i] == oid::kText ||
          stmt->op != PG_QUERY__SET_OPERATION__SETOP_NONE ||
          stmt->n_target_list != side->columns.size())
        continue;
      const PgQuery__Node* val = stmt->target_list[i]->res_target->val;
      if (val->node_case != PG_QUERY__NODE__NODE_A_CONST) continue;
      std::unique_ptr<Expr> literal;
      if (!analyzer_.Analyze(val, &literal, error) ||
          !analyzer_.Coerce(&literal, common[i], -1, error))
        return false;
    }
    ColumnDesc& col = out->columns[i];
    if (col.type_oid != common[i] || right.columns[i].type_oid != common[i] ||
        col.type_modifier != right.columns[i].type_modifier)
      col.type_modifier = -1;
    col.type_oid = common[i];
    const types::TypeInfo* info = types::LookupType(common[i]);
    col.type_size = info ? info->length : -1;
    col.table_oid = 0;
    col.column_number = 0;
  }
  // A side whose column has another type is read through a cast. Both
  // sides name the column type's collation: SQLite compares with the one
  // of its first SELECT, which may be either.
  auto converted = [&](const Compiled& side) {
    std::string select;
    bool wrap = false;
    for (size_t i = 0; i < side.columns.size(); i++) {
      std::string name = "c" + std::to_string(i);
      std::string sql = name;
      if (common[i] == oid::kBpchar && out->columns[i].type_modifier < 0 &&
          (side.columns[i].type_oid == oid::kBpchar ||
           side.columns[i].type_oid == oid::kText ||
           side.columns[i].type_oid == oid::kVarchar)) {
        select += std::string(i ? ", " : "") +
                  BpcharSetOpColumn(side.columns[i], name);
        wrap = true;
        continue;
      }
      if (regclass_side[i] == &side) {
        auto column = std::make_unique<Expr>();
        column->kind = Expr::Kind::kColumn;
        column->type = side.columns[i].type_oid;
        column->name = name;
        auto to_oid = std::make_unique<Expr>();
        to_oid->kind = Expr::Kind::kFunction;
        to_oid->name = "kova_regclass_oid";
        to_oid->type = oid::kOid;
        to_oid->args.push_back(std::move(column));
        select += std::string(i ? ", " : "") + Emit(*to_oid) + " AS " + name;
        wrap = true;
        continue;
      }
      if (side.columns[i].type_oid != common[i]) {
        auto column = std::make_unique<Expr>();
        column->kind = Expr::Kind::kColumn;
        column->type = side.columns[i].type_oid;
        column->name = name;
        ConvertTo(&column, common[i]);
        sql = Emit(*column);
        wrap = true;
      }
      if (*CollationOf(common[i])) {
        sql = "(" + sql + ") COLLATE " + CollationOf(common[i]);
        wrap = true;
      }
      select += (i ? ", " : "") + sql + " AS " + name;
    }
    return wrap ? "SELECT " + select + " FROM (" + side.sql + ")" : side.sql;
  };
  left.sql = converted(left);
  right.sql = converted(right);
  if (emit_failed_) {
    *error = emit_error_;
    return false;
  }
  if (s->all && s->op != PG_QUERY__SET_OPERATION__SETOP_UNION) {
    // INTERSECT ALL / EXCEPT ALL: number the duplicates, so that the n-th
    // copy of a row meets only the n-th copy on the other side.
    std::string cols, partition;
    for (size_t i = 0; i < out->columns.size(); i++) {
      cols += (i ? ", " : "") + std::string("c") + std::to_string(i);
    }
    partition = cols.empty() ? "1" : cols;
    auto numbered = [&](const std::string& side) {
      return "SELECT " + cols + ", row_number() OVER (PARTITION BY " +
             partition + ") AS kova_n FROM (" + side + ")";
    };
    out->sql = "SELECT " + cols + " FROM (" + numbered(left.sql) + " " + op +
               " " + numbered(right.sql) + ")";
  } else if (!s->all && s->op == PG_QUERY__SET_OPERATION__SETOP_UNION) {
    // Of two equal rows (1 and 1.0 as numeric) PostgreSQL shows the first
    // one read; SQLite's UNION keeps the last, so the right side goes first.
    out->sql = "SELECT * FROM (" + right.sql + ") UNION SELECT * FROM (" +
               left.sql + ")";
  } else {
    out->sql = "SELECT * FROM (" + left.sql + ") " + op +
               (s->all ? " ALL " : " ") + "SELECT * FROM (" + right.sql + ")";
  }
  if (!OrderAndLimitOutput(s, "a set operation", out, error)) return false;
  return !emit_failed_ || (*error = emit_error_, false);
}

namespace {

// An integer constant naming a select-list position (GROUP BY 1, ORDER BY
// 2): *index is the 0-based column, or -1 when `n` is no such constant.
// Past the list it is PostgreSQL's 42P10, naming `clause`.
bool ListPosition(const PgQuery__Node* n, size_t count,
                  const std::string& clause, int* index, PgError* error) {
  *index = -1;
  if (n->node_case != PG_QUERY__NODE__NODE_A_CONST ||
      n->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL)
    return true;
  int k = n->a_const->ival->ival;
  if (k < 1 || k > static_cast<int>(count)) {
    *error = Err(
        "42P10",
        clause + " position " + std::to_string(k) + " is not in select list",
        n->a_const->location);
    return false;
  }
  *index = k - 1;
  return true;
}

}  // namespace

// ORDER BY and LIMIT / OFFSET over the output columns of a set operation
// or VALUES (by name or position).
bool QueryCompiler::OrderAndLimitOutput(const PgQuery__SelectStmt* s,
                                        const std::string& what, Compiled* out,
                                        PgError* error) {
  std::string order;
  for (size_t i = 0; i < s->n_sort_clause; i++) {
    const PgQuery__SortBy* sb = s->sort_clause[i]->sort_by;
    int index;
    int location = ExprNodeLocation(sb->node);
    if (!ListPosition(sb->node, out->columns.size(), "ORDER BY", &index, error))
      return false;
    if (index < 0 && sb->node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        sb->node->column_ref->n_fields == 1) {
      std::string name = FieldName(sb->node->column_ref->fields[0]);
      for (size_t k = 0; k < out->columns.size(); k++)
        if (out->columns[k].name == name) index = static_cast<int>(k);
      if (index < 0) {
        *error =
            Err("42703", "column \"" + name + "\" does not exist", location);
        // errorMissingColumn: the combined SELECTs' columns exist but are
        // out of reach here.
        if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
          std::vector<const PgQuery__SelectStmt*> leaves;
          SetOpLeaves(s, &leaves);
          for (size_t l = 0; l < leaves.size() && error->hint.empty(); l++)
            for (size_t t = 0; t < leaves[l]->n_target_list; t++)
              if (TargetName(leaves[l]->target_list[t]->res_target) == name) {
                error->hint = "There is a column named \"" + name +
                              "\" in table \"*SELECT* " +
                              std::to_string(l + 1) +
                              "\", but it cannot be referenced from this part "
                              "of the query.";
                break;
              }
        }
        return false;
      }
    }
    if (index < 0 && sb->node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        sb->node->column_ref->n_fields == 2 &&
        s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
      // A set operation's ORDER BY sees no table: t.x names a missing one.
      std::string table = FieldName(sb->node->column_ref->fields[0]);
      *error =
          Err("42P01", "missing FROM-clause entry for table \"" + table + "\"",
              location);
      return false;
    }
    if (index < 0) {
      *error = Err("0A000",
                   "ORDER BY on " + what +
                       " supports output column names and positions only yet",
                   location);
      return false;
    }
    order += std::string(order.empty() ? " ORDER BY " : ", ") + "c" +
             std::to_string(index) + SortDirectionSql(sb);
  }
  const bool with_ties =
      s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES;
  if (!with_ties) {
    out->sql = "SELECT * FROM (" + out->sql + ")" + order;
  } else {
    std::string window = order.substr(std::string(" ORDER BY ").size());
    out->sql = "SELECT *, rank() OVER (ORDER BY " + window +
               ") AS kova_tie_rank, row_number() OVER (ORDER BY " + window +
               ") AS kova_tie_row FROM (" + out->sql + ")";
  }
  if (s->limit_count || s->limit_offset) {
    std::string limit = "-1", offset = "0";
    for (int k = 0; k < 2; k++) {
      const PgQuery__Node* n = k == 0 ? s->limit_count : s->limit_offset;
      if (!n) continue;
      if (k == 0 && with_ties && n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
          n->a_const->isnull)
        return NullTiesCount(n, error);
      std::unique_ptr<Expr> e;
      if (!analyzer_.Analyze(n, &e, error) ||
          !analyzer_.Coerce(&e, oid::kInt8, -1, error))
        return false;
      (k == 0 ? limit : offset) = "kova_limit(" + Emit(*e) + ", " +
                                  (k == 1      ? "1"
                                   : with_ties ? "2"
                                               : "0") +
                                  ")";
    }
    if (with_ties) {
      std::string outputs;
      for (size_t i = 0; i < out->columns.size(); i++)
        outputs += (i ? ", " : "") + std::string("c") + std::to_string(i);
      out->sql = WithTiesFilter(out->sql, outputs, limit, offset);
    } else {
      out->sql += " LIMIT " + limit + " OFFSET " + offset;
    }
  }
  return true;
}

bool QueryCompiler::GroupItem(const PgQuery__Node* g,
                              const std::vector<std::unique_ptr<Expr>>& targets,
                              const std::vector<std::string>& names,
                              std::string* sql, PgError* error) {
  int position;
  if (!ListPosition(g, targets.size(), "GROUP BY", &position, error))
    return false;
  if (position >= 0) {
    if (!CheckGroupedTarget(*targets[position], error)) return false;
    *sql = Emit(*targets[position]);
    return true;
  }
  std::unique_ptr<Expr> e;
  aggregate_context_ = "GROUP BY";
  window_context_ = "GROUP BY";
  bool ok = analyzer_.Analyze(g, &e, error);
  aggregate_context_ = nullptr;
  window_context_ = nullptr;
  if (ok) {
    *sql = Emit(*e);
    return true;
  }
  // An output column name.
  if (g->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
      g->column_ref->n_fields == 1 && error->sqlstate == "42703") {
    std::string name = FieldName(g->column_ref->fields[0]);
    for (size_t k = 0; k < names.size(); k++) {
      if (names[k] == name) {
        if (!CheckGroupedTarget(*targets[k], error)) return false;
        *sql = Emit(*targets[k]);
        return true;
      }
    }
  }
  return false;
}

bool QueryCompiler::CompileSimpleSelect(const PgQuery__SelectStmt* s,
                                        Compiled* out, PgError* error) {
  if (s->into_clause) {
    *error = Err("0A000", "SELECT INTO is not supported yet");
    return false;
  }
  select_ = s;
  grouping_query_ = UsesGroupingFunc(s);
  for (size_t i = 0; i < s->n_group_clause; i++)
    grouping_query_ |=
        s->group_clause[i]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET;
  if (grouping_query_) outer_reference_tag_ = NewAlias();
  // WINDOW names are each defined once.
  for (size_t i = 0; i < s->n_window_clause; i++) {
    const PgQuery__WindowDef* w = s->window_clause[i]->window_def;
    for (size_t k = 0; k < i; k++) {
      if (std::string_view(s->window_clause[k]->window_def->name) == w->name) {
        *error =
            Err("42P20",
                "window \"" + std::string(w->name) + "\" is already defined",
                w->location);
        return false;
      }
    }
  }
  // FROM
  std::string from;
  collect_join_keys_ = true;
  for (size_t i = 0; i < s->n_from_clause; i++) {
    std::string item;
    if (!AddFromItem(s->from_clause[i], &item, error)) return false;
    from += (i ? ", " : "") + item;
  }
  collect_join_keys_ = false;
  // unnest(array) in the select list: its rows come from a json_each
  // joined after FROM (several calls run in lockstep); analysis reads the
  // calls as that join's columns (ReplaceCall).
  if (!AddSelectListUnnest(s, &from, error)) return false;
  // Targets
  std::vector<std::unique_ptr<Expr>> targets;
  std::vector<std::string> names;
  // Targets that were untyped literals before they were read as text.
  std::vector<bool> unknown_targets;
  for (size_t i = 0; i < s->n_target_list; i++) {
    const PgQuery__ResTarget* t = s->target_list[i]->res_target;
    const PgQuery__Node* val = t->val;
    if (val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
      const PgQuery__ColumnRef* c = val->column_ref;
      if (c->fields[c->n_fields - 1]->node_case ==
          PG_QUERY__NODE__NODE_A_STAR) {
        if (!ExpandStar(c, &targets, &names, error)) return false;
        continue;
      }
    }
    std::unique_ptr<Expr> e;
    if (!analyzer_.Analyze(val, &e, error)) return false;
    unknown_targets.resize(targets.size());
    unknown_targets.push_back(e->type == oid::kUnknown &&
                              e->kind == Expr::Kind::kConst);
    if (!analyzer_.Coerce(&e, oid::kText, -1, error)) return false;
    targets.push_back(std::move(e));
    names.push_back(t->name && *t->name ? t->name : OutputName(val));
  }
  bool has_aggregates = saw_aggregate_;
  // WHERE
  std::string where;
  if (s->where_clause) {
    std::unique_ptr<Expr> e;
    aggregate_context_ = "WHERE";
    window_context_ = "WHERE";
    bool ok = analyzer_.Analyze(s->where_clause, &e, error) &&
              analyzer_.Coerce(&e, oid::kBool, -1, error);
    aggregate_context_ = nullptr;
    window_context_ = nullptr;
    if (!ok) return false;
    if (e->type != oid::kBool) {
      *error = Err("42804",
                   "argument of WHERE must be type boolean, not type " +
                       TypeName(e->type),
                   e->location);
      return false;
    }
    collect_join_keys_ = true;
    where = Emit(*e);
    collect_join_keys_ = false;
  }
  MaterializeJoinKeys(&from, &where);
  // GROUP BY
  std::vector<std::string> groups;
  const bool grouping_sets = grouping_query_;
  if (grouping_sets) {
    if (!unnest_calls_.empty()) {
      *error = Err("0A000",
                   "set-returning functions in the select list of a query "
                   "with grouping sets are not supported yet");
      return false;
    }
    if (!PlanGroupingSets(s, targets, names, error)) return false;
    groups = grouping_->exprs;
    grouping_->substituting = true;
  }
  for (size_t i = 0; !grouping_sets && i < s->n_group_clause; i++) {
    const PgQuery__Node* g = s->group_clause[i];
    // GROUP BY (a, b) groups by a and b.
    std::vector<const PgQuery__Node*> items = {g};
    if (g->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
        g->row_expr->row_format ==
            PG_QUERY__COERCION_FORM__COERCE_IMPLICIT_CAST)
      items.assign(g->row_expr->args, g->row_expr->args + g->row_expr->n_args);
    for (const PgQuery__Node* item : items) {
      std::string sql;
      if (!GroupItem(item, targets, names, &sql, error)) return false;
      groups.push_back(sql);
    }
  }
  // HAVING
  std::string having;
  std::unique_ptr<Expr> having_expr;
  if (s->having_clause) {
    window_context_ = "HAVING";
    bool ok = analyzer_.Analyze(s->having_clause, &having_expr, error) &&
              analyzer_.Coerce(&having_expr, oid::kBool, -1, error);
    window_context_ = nullptr;
    if (!ok) return false;
    having = Emit(*having_expr);
  }
  has_aggregates = saw_aggregate_;
  bool grouped = has_aggregates || !groups.empty() || having_expr;
  // ORDER BY
  std::string order;
  std::vector<std::unique_ptr<Expr>> order_exprs;
  std::vector<std::pair<std::string, std::string>> order_items;
  const bool distinct_on =
      s->n_distinct_clause > 0 && s->distinct_clause[0] != nullptr &&
      s->distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET;
  // An ORDER BY key over an enclosing query's columns (SQLite resolves a
  // subquery's ORDER BY against its own FROM only).
  bool order_reads_outer = false;
  for (size_t i = 0; i < s->n_sort_clause; i++) {
    const PgQuery__SortBy* sb = s->sort_clause[i]->sort_by;
    if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) {
      *error = Err("0A000", "ORDER BY ... USING is not supported yet");
      return false;
    }
    std::string key;
    const PgQuery__Node* n = sb->node;
    int position;
    if (!ListPosition(n, targets.size(), "ORDER BY", &position, error))
      return false;
    if (position >= 0) {
      key = "c" + std::to_string(position);
    } else if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
               n->column_ref->n_fields == 1) {
      std::string name = FieldName(n->column_ref->fields[0]);
      int match = -1;
      for (size_t k = 0; k < names.size(); k++) {
        if (names[k] == name) {
          if (match >= 0 && Emit(*targets[k]) != Emit(*targets[match])) {
            *error = Err("42702", "ORDER BY \"" + name + "\" is ambiguous",
                         n->column_ref->location);
            return false;
          }
          match = static_cast<int>(k);
        }
      }
      if (match >= 0) key = "c" + std::to_string(match);
    }
    if (key.empty()) {
      std::unique_ptr<Expr> e;
      const int outer_before = outer_references_;
      if (!analyzer_.Analyze(n, &e, error) ||
          !analyzer_.Coerce(&e, oid::kText, -1, error))
        return false;
      order_reads_outer |= outer_references_ > outer_before;
      if (s->n_distinct_clause > 0 && !distinct_on) {
        std::string sql = Emit(*e);
        bool listed = false;
        for (const auto& t : targets) listed = listed || Emit(*t) == sql;
        if (!listed) {
          *error = Err("42P10",
                       "for SELECT DISTINCT, ORDER BY expressions must "
                       "appear in select list",
                       e->location);
          return false;
        }
      }
      key = Emit(*e);
      order_exprs.push_back(std::move(e));
    }
    std::string direction = SortDirectionSql(sb);
    order += std::string(order.empty() ? " ORDER BY " : ", ") + key + direction;
    // The key as an expression (DISTINCT ON orders inside a window).
    std::string expr_sql = key;
    if (key.size() > 1 && key[0] == 'c' &&
        key.find_first_not_of("0123456789", 1) == std::string::npos)
      expr_sql = Emit(*targets[std::stoi(key.substr(1))]);
    order_items.emplace_back(expr_sql, direction);
  }
  grouped = grouped || saw_aggregate_;
  if (grouping_) {
    std::vector<const Expr*> list;
    for (const auto& t : targets) list.push_back(t.get());
    for (const auto& o : order_exprs) list.push_back(o.get());
    if (!CheckGroupingSets(list, having_expr.get(), error)) return false;
  } else if (grouped) {
    for (const auto& t : targets) {
      if (CheckGrouping(*t, groups, error)) continue;
      // A set-returning call of the list runs in FROM, before grouping:
      // its column is no grouped value (PostgreSQL expands it after).
      if (!unnest_calls_.empty())
        *error = Err("0A000",
                     "set-returning functions in a SELECT list with "
                     "aggregates are not supported yet",
                     error->position > 0 ? error->position - 1 : -1);
      return false;
    }
    if (having_expr && !CheckGrouping(*having_expr, groups, error))
      return false;
    for (const auto& o : order_exprs)
      if (!CheckGrouping(*o, groups, error)) return false;
  }
  // Output columns.
  out->columns.clear();
  out->unknown_columns.clear();
  std::string select;
  std::vector<std::string> target_sql;
  std::vector<bool> postponed;  // evaluated after the sort (see below)
  for (size_t i = 0; i < targets.size(); i++) {
    const Expr& t = *targets[i];
    ColumnDesc col;
    col.name = names[i];
    col.type_oid = t.type == oid::kUnknown ? oid::kText : t.type;
    out->unknown_columns.push_back(i < unknown_targets.size() &&
                                   unknown_targets[i]);
    // An array of a domain is no domain: clients are told its own type.
    if (types::ArrayElementType(t.domain)) col.type_oid = t.domain;
    const types::TypeInfo* info = types::LookupType(col.type_oid);
    col.type_size = info ? info->length : -1;
    col.type_modifier = t.typmod;
    if (t.kind == Expr::Kind::kColumn && t.attnum > 0) {
      col.table_oid = t.table_oid;
      col.column_number = t.attnum;
    }
    out->columns.push_back(col);
    target_sql.push_back(Emit(t));
    bool volatile_call = false;
    bool postpone =
        !order_items.empty() && !distinct_on && s->n_distinct_clause == 0 &&
        !grouped && !grouping_ && unnest_calls_.empty() &&
        !(s->limit_offset &&
          s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES) &&
        PostponableVolatile(t, &volatile_call) && volatile_call;
    for (const auto& item : order_items)
      if (item.first == target_sql.back()) postpone = false;
    postponed.push_back(postpone);
    select += (i ? ", " : "") +
              (postpone ? std::string("NULL") : target_sql.back()) + " AS c" +
              std::to_string(i);
  }
  if (targets.empty()) select = "NULL AS c_none";
  const bool any_postponed =
      std::find(postponed.begin(), postponed.end(), true) != postponed.end();
  std::string postponed_offset;  // OFFSET applied after postponed items
  // The output columns as a wrapping SELECT lists them.
  std::string outputs;
  for (size_t i = 0; i < targets.size(); i++)
    outputs += (i ? ", " : "") + std::string("c") + std::to_string(i);
  if (targets.empty()) outputs = "c_none";
  const bool with_ties =
      s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES;
  // Keys over outer columns become hidden output columns that ORDER BY
  // names, and a wrapping SELECT drops them again (sorting once more by
  // the same keys, as the wrapper need not keep the order).
  std::string hidden_order;
  if (order_reads_outer && !distinct_on && !with_ties) {
    order.clear();
    for (size_t i = 0; i < order_items.size(); i++) {
      std::string key;
      for (size_t k = 0; k < target_sql.size() && key.empty(); k++)
        if (target_sql[k] == order_items[i].first)
          key = "c" + std::to_string(k);
      if (key.empty()) {
        key = "kova_o" + std::to_string(i);
        select += ", " + order_items[i].first + " AS " + key;
      }
      order +=
          std::string(i ? ", " : " ORDER BY ") + key + order_items[i].second;
    }
    hidden_order = order;
  }
  std::string sql = "SELECT ";
  std::string distinct_on_keys;
  std::vector<std::string> don_keys;
  if (distinct_on) {
    // DISTINCT ON (keys): the first row of each group of keys in ORDER BY
    // order, numbered by a window over the ungrouped statement.
    for (size_t i = 0; i < s->n_distinct_clause; i++) {
      const PgQuery__Node* n = s->distinct_clause[i];
      std::string key;
      int position;
      if (!ListPosition(n, targets.size(), "SELECT DISTINCT ON", &position,
                        error))
        return false;
      if (position >= 0) {
        key = Emit(*targets[position]);
      } else {
        std::unique_ptr<Expr> e;
        if (!analyzer_.Analyze(n, &e, error) ||
            !analyzer_.Coerce(&e, oid::kText, -1, error))
          return false;
        key = Emit(*e);
      }
      distinct_on_keys += (i ? ", " : "") + key;
      don_keys.push_back(key);
    }
    // PostgreSQL's rule (transformDistinctOnClause): the DISTINCT ON
    // expressions must be the leading ORDER BY items, in any order.
    auto mismatch = [](const PgQuery__Node* at) {
      return Err("42P10",
                 "SELECT DISTINCT ON expressions must match initial ORDER BY "
                 "expressions",
                 LeftmostParseLocation(at));
    };
    bool skipped = false;
    std::set<std::string> matched;
    for (const auto& item : order_items) {
      bool listed = std::find(don_keys.begin(), don_keys.end(), item.first) !=
                    don_keys.end();
      if (!listed) {
        skipped = true;
      } else if (skipped) {
        *error = mismatch(s->distinct_clause[0]);
        return false;
      } else {
        matched.insert(item.first);
      }
    }
    for (size_t i = 0; i < don_keys.size() && skipped; i++) {
      if (matched.count(don_keys[i])) continue;
      *error = mismatch(s->distinct_clause[i]);
      return false;
    }
  } else if (s->n_distinct_clause > 0) {
    sql += "DISTINCT ";
  }
  sql += select;
  if (grouping_) {
    // The sets' union is the FROM; HAVING filters its rows.
    from = GroupingSetsFrom(from, where);
    where = having;
    having.clear();
  }
  if (!from.empty()) sql += " FROM " + from;
  if (!where.empty()) sql += " WHERE " + where;
  if (!groups.empty() && !grouping_) {
    sql += " GROUP BY ";
    for (size_t i = 0; i < groups.size(); i++)
      sql += (i ? ", " : "") + groups[i];
  }
  if (!having.empty()) sql += " HAVING " + having;
  // HAVING without GROUP BY and without an aggregate in the list: SQLite
  // takes the query for a plain one and refuses HAVING; a hidden count(*)
  // makes it the one-group aggregate it is.
  bool list_aggregates = false;
  for (const auto& t : targets) list_aggregates |= HasAggregate(*t);
  if (!having.empty() && groups.empty() && !list_aggregates && !distinct_on) {
    sql.insert(7 + select.size(), ", count(*) AS kova_agg");
    sql = "SELECT " + outputs + " FROM (" + sql + ")";
    order.clear();  // one row at most
  }
  if (distinct_on) {
    std::string window = "row_number() OVER (PARTITION BY " + distinct_on_keys;
    std::string outer_order;
    for (size_t i = 0; i < order_items.size(); i++) {
      window += std::string(i ? ", " : " ORDER BY ") + order_items[i].first +
                order_items[i].second;
      outer_order += std::string(i ? ", " : " ORDER BY ") + "o" +
                     std::to_string(i) + order_items[i].second;
    }
    window += ") AS kova_rn";
    std::string extra = ", " + window;
    for (size_t i = 0; i < order_items.size(); i++)
      extra += ", " + order_items[i].first + " AS o" + std::to_string(i);
    std::string inner = sql;
    inner.insert(7 + select.size(), extra);  // after "SELECT " + select
    sql = "SELECT " + outputs + " FROM (" + inner + ") WHERE kova_rn = 1" +
          outer_order;
    order.clear();
  }
  if (!with_ties) sql += order;
  if (s->limit_count || s->limit_offset) {
    std::string limit = "-1", offset = "0";
    // LIMIT / OFFSET over an enclosing query's columns: SQLite evaluates
    // them apart from the outer row, so the rows are numbered instead and
    // a wrapping SELECT keeps those in range.
    bool limit_reads_outer = false;
    for (int k = 0; k < 2; k++) {
      const PgQuery__Node* n = k == 0 ? s->limit_count : s->limit_offset;
      if (!n) continue;
      if (k == 0 && n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
          n->a_const->isnull) {
        if (with_ties) return NullTiesCount(n, error);
        continue;  // LIMIT ALL / LIMIT NULL
      }
      std::unique_ptr<Expr> e;
      aggregate_context_ = k == 0 ? "LIMIT" : "OFFSET";
      window_context_ = aggregate_context_;
      const int outer_before = outer_references_;
      bool ok = analyzer_.Analyze(n, &e, error) &&
                analyzer_.Coerce(&e, oid::kInt8, -1, error);
      limit_reads_outer |= outer_references_ > outer_before;
      aggregate_context_ = nullptr;
      window_context_ = nullptr;
      if (!ok) return false;
      std::string v = Emit(*e);
      (k == 0 ? limit : offset) = "kova_limit(" + v + ", " +
                                  (k == 1      ? "1"
                                   : with_ties ? "2"
                                               : "0") +
                                  ")";
    }
    const std::string head = "SELECT " + select;
    if (limit_reads_outer && !with_ties) {
      if (s->n_distinct_clause > 0 || sql.compare(0, head.size(), head) != 0) {
        *error = Err("0A000",
                     "a reference to an outer query's column in LIMIT or "
                     "OFFSET of a DISTINCT or HAVING subquery is not "
                     "supported yet");
        return false;
      }
      std::string window;
      for (size_t i = 0; i < order_items.size(); i++)
        window += std::string(i ? ", " : " ORDER BY ") + order_items[i].first +
                  order_items[i].second;
      sql.insert(head.size(),
                 ", row_number() OVER (" + window + ") AS kova_rn");
      sql = "SELECT " + outputs + " FROM (" + sql + ") WHERE kova_rn > " +
            offset + " AND (" + limit + " < 0 OR kova_rn <= " + offset + " + " +
            limit + ") ORDER BY kova_rn";
      hidden_order.clear();  // the numbering keeps the order
    } else if (!with_ties) {
      if (any_postponed && s->limit_offset) {
        // PostgreSQL's Limit pulls the skipped rows through the
        // projection too: postponed items run for them (see below).
        sql += " LIMIT CASE WHEN " + limit + " < 0 THEN -1 ELSE " + offset +
               " + " + limit + " END";
        postponed_offset = offset;
      } else {
        sql += " LIMIT " + limit + " OFFSET " + offset;
      }
    } else {
      // Keys that are output columns rank the finished rows (DISTINCT and
      // grouping included); others rank inside the statement's own list.
      std::string window;
      bool all_outputs = true;
      for (size_t i = 0; i < order_items.size(); i++) {
        int found = -1;
        for (size_t k = 0; k < targets.size() && found < 0; k++)
          if (target_sql[k] == order_items[i].first)
            found = static_cast<int>(k);
        all_outputs = all_outputs && found >= 0;
        window +=
            std::string(i ? ", " : "") +
            (found >= 0 ? "c" + std::to_string(found) : order_items[i].first) +
            order_items[i].second;
      }
      const std::string head = "SELECT " + select;
      if (!all_outputs && (distinct_on || s->n_distinct_clause > 0 ||
                           sql.compare(0, head.size(), head) != 0)) {
        *error = Err("0A000",
                     "FETCH FIRST ... WITH TIES ordered by an expression that "
                     "is not in the select list is not supported yet here");
        return false;
      }
      std::string ranks = "rank() OVER (ORDER BY " + window +
                          ") AS kova_tie_rank, row_number() OVER (ORDER BY " +
                          window + ") AS kova_tie_row";
      if (all_outputs)
        sql = "SELECT *, " + ranks + " FROM (" + sql + ")";
      else
        sql.insert(head.size(), ", " + ranks);
      sql = WithTiesFilter(sql, outputs, limit, offset);
    }
  }
  if (!hidden_order.empty() && !order.empty()) {
    sql = "SELECT " + outputs + " FROM (" + sql + ")" + hidden_order;
  }
  // Postponed volatile items: computed over the sorted, limited rows, which
  // SQLite's co-routine for the FROM subquery hands over in their order;
  // rows OFFSET skips are numbered and dropped after.
  if (any_postponed) {
    std::string list;
    for (size_t i = 0; i < targets.size(); i++)
      list += (i ? ", " : "") +
              (postponed[i] ? target_sql[i] + " AS c" + std::to_string(i)
                            : "c" + std::to_string(i));
    if (postponed_offset.empty()) {
      sql = "SELECT " + list + " FROM (" + sql + ")";
    } else {
      sql = "SELECT " + outputs + " FROM (SELECT " + list +
            ", row_number() OVER () AS kova_rn FROM (" + sql +
            ")) WHERE kova_rn > " + postponed_offset + " ORDER BY kova_rn";
    }
  }
  if (emit_failed_) {
    *error = emit_error_;
    return false;
  }
  // Subqueries of the output read the grouped values.
  if (grouping_ && !ResolveOuterReferences(&sql, true, error)) return false;
  out->sql = sql;
  // A statement's own one-row aggregate over one table may run in parallel.
  out->partial.reset();
  if (!parent_ && !sublink_ && !s->with_clause && s->n_from_clause == 1 &&
      entries_.size() == 1 && entries_[0].has_doc && groups.empty() &&
      !having_expr && !grouping_ && s->n_distinct_clause == 0 &&
      !s->limit_count && !s->limit_offset && s->n_locking_clause == 0 &&
      s->n_window_clause == 0 && unnest_calls_.empty() && !targets.empty() &&
      out->fallbacks.empty())
    out->partial =
        PlanPartialAggregate(targets, target_sql, from, entries_[0].sql_alias,
                             where, select, out->binds.size());
  return true;
}

}  // namespace kova::planner
