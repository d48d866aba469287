// EXPLAIN [ANALYZE]: the plan SQLite chose for the statement's translation,
// as PostgreSQL's text format lays a plan out ("->" per level), its steps
// named in PostgreSQL's terms where they have one (Seq Scan, Index Scan,
// Index Only Scan, Sort, ...) and over the statement's own table and index
// names. Kova keeps no costs or row estimates, so none are shown. ANALYZE
// runs the statement (a data-modifying one changes data, as in PostgreSQL)
// and adds its execution time.

#include <chrono>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "planner/dml.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

struct PlanLine {
  int id, parent;
  std::string detail;
};

// The SQLite names of a translation's FROM items and indexes, in
// PostgreSQL's terms: "t0" -> "orders", "i:db.orders:orders_pkey" ->
// "orders_pkey".
class Names {
 public:
  Names(const std::string& sql, const catalog::Catalog* cat) {
    static const std::regex from("\"c:([^\"]+)\"(?: AS (t\\w+))?");
    for (auto it = std::sregex_iterator(sql.begin(), sql.end(), from);
         it != std::sregex_iterator(); ++it) {
      std::string ns = (*it)[1];
      // Without an alias SQLite names the table itself.
      std::string alias = (*it)[2].matched ? std::string((*it)[2]) : "c:" + ns;
      size_t dot = ns.find('.');
      std::string collection =
          dot == std::string::npos ? ns : ns.substr(dot + 1);
      std::string name = collection;
      if (cat)
        for (const auto& [key, t] : cat->tables())
          if (t.collection == collection) name = t.name;
      aliases_[alias] = name;
      aliases_["c:" + ns] = name;  // SQLite's count(*) path names the table
    }
  }
  std::string Relation(const std::string& alias) const {
    auto it = aliases_.find(alias);
    return it == aliases_.end() ? alias : it->second;
  }
  static std::string Index(std::string sqlite_name) {
    if (sqlite_name.size() > 1 && sqlite_name.front() == '"')
      sqlite_name = sqlite_name.substr(1, sqlite_name.size() - 2);
    size_t colon = sqlite_name.rfind(':');
    return colon == std::string::npos ? sqlite_name
                                      : sqlite_name.substr(colon + 1);
  }

 private:
  std::map<std::string, std::string> aliases_;
};

// One SQLite plan step in PostgreSQL's words.
std::string Describe(const std::string& detail, const Names& names) {
  static const std::regex scan(
      R"(^(SCAN|SEARCH) (\S+)(?: USING (COVERING INDEX|INDEX|INTEGER PRIMARY KEY|PRIMARY KEY)(?: (\S+))?)?.*$)");
  std::smatch m;
  if (std::regex_match(detail, m, scan)) {
    std::string what = m[1], alias = m[2], how = m[3], index = m[4];
    if (alias == "json_each" || alias == "kova_series")
      return "Function Scan on " + alias;
    std::string rel = names.Relation(alias);
    if (how.empty()) return "Seq Scan on " + rel;
    if (how == "INTEGER PRIMARY KEY" || how == "PRIMARY KEY")
      return "Tid Scan on " + rel;
    return std::string(how == "COVERING INDEX" ? "Index Only Scan"
                                               : "Index Scan") +
           " using " + Names::Index(index) + " on " + rel;
  }
  if (detail == "USE TEMP B-TREE FOR ORDER BY" ||
      detail.rfind("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY", 0) == 0 ||
      detail.rfind("USE TEMP B-TREE FOR LAST", 0) == 0)
    return "Sort";
  if (detail == "USE TEMP B-TREE FOR GROUP BY") return "HashAggregate";
  if (detail == "USE TEMP B-TREE FOR DISTINCT") return "Unique";
  if (detail.rfind("CORRELATED SCALAR SUBQUERY", 0) == 0 ||
      detail.rfind("SCALAR SUBQUERY", 0) == 0 ||
      detail.rfind("LIST SUBQUERY", 0) == 0 ||
      detail.rfind("CORRELATED LIST SUBQUERY", 0) == 0)
    return "SubPlan";
  if (detail.rfind("CO-ROUTINE", 0) == 0 || detail.rfind("MATERIALIZE", 0) == 0)
    return "Subquery Scan";
  if (detail == "COMPOUND QUERY") return "Append";
  if (detail.rfind("UNION", 0) == 0 ||
      detail.rfind("LEFT-MOST SUBQUERY", 0) == 0)
    return "Subquery";
  return detail;
}

}  // namespace

bool SessionImpl::ExplainRows(const Plan& plan,
                              const std::vector<Value>& params,
                              std::vector<std::string>* lines, PgError* error) {
  const PgQuery__ExplainStmt* x = plan.node->explain_stmt;
  bool analyze = false;
  for (size_t i = 0; i < x->n_options; i++) {
    const PgQuery__DefElem* d = x->options[i]->def_elem;
    std::string name = d->defname;
    std::string value;
    if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING)
      value = d->arg->string->sval;
    if (name == "analyze")
      analyze = !d->arg || (value != "false" && value != "off" && value != "0");
  }
  const Plan& inner = *plan.cursor_query;
  if (!runtime_.Attach(storage_->connection(), error)) return false;
  std::string sql;
  std::string top;
  if (inner.compiled) {
    sql = inner.compiled->sql;
  } else if (inner.dml) {
    const DmlPlan& dml = *inner.dml;
    const char* verb = dml.kind == DmlPlan::Kind::kInsert   ? "Insert on "
                       : dml.kind == DmlPlan::Kind::kUpdate ? "Update on "
                                                            : "Delete on ";
    top = verb + (dml.table ? dml.table->name : dml.collection);
    if (dml.scan)
      sql = dml.scan->sql;
    else if (dml.source)
      sql = dml.source->sql;
  }
  std::vector<PlanLine> steps;
  if (!sql.empty()) {
    sqlite3_stmt* stmt = nullptr;
    std::string text = "EXPLAIN QUERY PLAN " + sql;
    if (sqlite3_prepare_v2(storage_->connection(), text.c_str(), -1, &stmt,
                           nullptr) != SQLITE_OK) {
      *error = Err("XX000", std::string("cannot explain: ") +
                                sqlite3_errmsg(storage_->connection()));
      sqlite3_finalize(stmt);
      return false;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW)
      steps.push_back(
          {sqlite3_column_int(stmt, 0), sqlite3_column_int(stmt, 1),
           reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3))});
    sqlite3_finalize(stmt);
  }
  Names names(sql, catalog_.get());
  // A tree as PostgreSQL draws it: SQLite lists a statement's sorts and its
  // joined scans side by side; here the sorts (and grouping) sit above the
  // scans, and several scans are the children of a Nested Loop (SQLite's
  // only join).
  struct Node {
    std::string text;
    std::vector<int> children;  // indexes into nodes
  };
  std::vector<Node> nodes;
  std::map<int, int> by_id;  // SQLite id -> node
  std::vector<int> wrappers, scans;
  for (const auto& s : steps) {
    int n = static_cast<int>(nodes.size());
    nodes.push_back({Describe(s.detail, names), {}});
    by_id[s.id] = n;
    auto parent = by_id.find(s.parent);
    if (s.parent && parent != by_id.end()) {
      nodes[parent->second].children.push_back(n);
    } else if (nodes[n].text == "Sort" || nodes[n].text == "HashAggregate" ||
               nodes[n].text == "Unique") {
      wrappers.push_back(n);
    } else {
      scans.push_back(n);
    }
  }
  int root = -1;
  if (scans.size() > 1) {
    root = static_cast<int>(nodes.size());
    nodes.push_back({"Nested Loop", scans});
  } else if (scans.size() == 1) {
    root = scans[0];
  }
  for (int w : wrappers) {  // the last one listed is the outermost
    if (root >= 0) nodes[w].children.insert(nodes[w].children.begin(), root);
    root = w;
  }
  if (!top.empty()) {
    int t = static_cast<int>(nodes.size());
    nodes.push_back({top, {}});
    if (root >= 0) nodes[t].children.push_back(root);
    root = t;
  }
  if (root < 0) {
    root = static_cast<int>(nodes.size());
    nodes.push_back({"Result", {}});
  }
  std::function<void(int, int)> draw = [&](int n, int level) {
    lines->push_back(level == 0 ? nodes[n].text
                                : std::string(6 * level - 4, ' ') + "->  " +
                                      nodes[n].text);
    for (int c : nodes[n].children) draw(c, level + 1);
  };
  draw(root, 0);
  if (analyze) {
    auto started = std::chrono::steady_clock::now();
    PortalImpl run;
    run.plan = plan.cursor_query;
    run.params = params;
    run.formats.assign(inner.columns.size(), Format::kText);
    if (inner.dml) {
      if (!RunDml(&run, error)) return false;
    } else if (!ComputeSelectRows(&run, error)) {
      return false;
    }
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - started)
                    .count();
    char buf[64];
    snprintf(buf, sizeof buf, "Execution Time: %.3f ms", ms);
    lines->push_back(buf);
  }
  return true;
}

}  // namespace kova::planner
