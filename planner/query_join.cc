// JOIN in FROM: ON conditions, USING and NATURAL with PostgreSQL's column
// merging, and join aliases.
#include <set>

#include "planner/expr_internal.h"
#include "planner/query.h"

namespace kova::planner {
using namespace expr_detail;

std::vector<std::pair<size_t, size_t>> QueryCompiler::SideColumns(
    size_t begin, size_t end) const {
  std::vector<std::pair<size_t, size_t>> cols;
  for (size_t e = begin; e < end; e++) {
    if (entries_[e].hidden) continue;
    for (size_t c = 0; c < entries_[e].columns.size(); c++)
      cols.emplace_back(e, c);
  }
  return cols;
}

bool QueryCompiler::AddJoinItem(const PgQuery__JoinExpr* j, std::string* sql,
                                PgError* error) {
  size_t left_begin = entries_.size();
  std::string left, right;
  if (!AddFromItem(j->larg, &left, error)) return false;
  size_t right_begin = entries_.size();
  if (!AddFromItem(j->rarg, &right, error)) return false;
  // a JOIN (b JOIN c ON ...) ON ...: SQLite reads the inner join only in
  // parentheses.
  if (j->rarg->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR)
    right = "(" + right + ")";
  size_t right_end = entries_.size();
  const char* kind = "JOIN";
  switch (j->jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
      kind = "LEFT JOIN";
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:
      kind = "RIGHT JOIN";
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
      kind = "FULL JOIN";
      break;
    default:
      break;
  }
  std::string cond;
  // The join's own columns, when it merges or is named: the merged ones
  // first, then the rest of the left side's, then the right side's.
  std::vector<RangeEntry::Col> merged;
  std::set<std::pair<size_t, size_t>> consumed;
  bool merging = j->n_using_clause > 0 || j->is_natural;
  if (merging) {
    auto lcols = SideColumns(left_begin, right_begin);
    auto rcols = SideColumns(right_begin, right_end);
    auto col = [&](const std::pair<size_t, size_t>& p) -> RangeEntry::Col& {
      return entries_[p.first].columns[p.second];
    };
    std::vector<std::string> names;
    if (j->is_natural) {
      for (const auto& l : lcols) {
        bool in_right = false;
        for (const auto& r : rcols) in_right |= col(r).name == col(l).name;
        if (in_right) names.push_back(col(l).name);
      }
    } else {
      for (size_t i = 0; i < j->n_using_clause; i++)
        names.push_back(j->using_clause[i]->string->sval);
    }
    for (size_t i = 0; i < names.size(); i++) {
      const std::string& u = names[i];
      for (size_t k = 0; k < i; k++) {
        if (names[k] == u) {
          *error =
              Err("42701", "column name \"" + u +
                               "\" appears more than once in USING clause");
          return false;
        }
      }
      // The column on each side: exactly one.
      std::pair<size_t, size_t> found[2];
      for (int side = 0; side < 2; side++) {
        const auto& cols = side == 0 ? lcols : rcols;
        const char* which = side == 0 ? "left" : "right";
        int hits = 0;
        for (const auto& p : cols) {
          if (col(p).name != u) continue;
          found[side] = p;
          hits++;
        }
        if (hits == 0) {
          *error = Err("42703", "column \"" + u +
                                    "\" specified in USING clause does not "
                                    "exist in " +
                                    which + " table");
          return false;
        }
        if (hits > 1) {
          *error = Err("42702", "common column name \"" + u +
                                    "\" appears more than once in " + which +
                                    " table");
          return false;
        }
      }
      const RangeEntry::Col l = col(found[0]);
      const RangeEntry::Col r = col(found[1]);
      consumed.insert(found[0]);
      consumed.insert(found[1]);
      // PostgreSQL's select_common_type for JOIN/USING.
      uint32_t type = l.type;
      if (l.type != r.type) {
        if (IsNumber(l.type) && IsNumber(r.type)) {
          type = ArithmeticType(l.type, r.type);
        } else if (IsText(l.type) && IsText(r.type)) {
          type = oid::kText;
        } else {
          *error =
              Err("42804", "JOIN/USING types " + TypeName(l.type) + " and " +
                               TypeName(r.type) + " cannot be matched");
          return false;
        }
      }
      if (type == oid::kJson) {
        PgError err = Err("42883", "operator does not exist: json = json");
        err.hint =
            "No operator matches the given name and argument types. You "
            "might need to add explicit type casts.";
        *error = err;
        return false;
      }
      auto read = [&](const RangeEntry::Col& c) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kColumn;
        e->type = c.type;
        e->typmod = c.typmod;
        e->name = c.sql;
        if (c.type != type) {
          auto cast = std::make_unique<Expr>();
          cast->kind = Expr::Kind::kCast;
          cast->type = type;
          cast->args.push_back(std::move(e));
          e = std::move(cast);
        }
        return e;
      };
      auto eq = std::make_unique<Expr>();
      eq->kind = Expr::Kind::kOperator;
      eq->name = "=";
      eq->type = oid::kBool;
      eq->args.push_back(read(l));
      eq->args.push_back(read(r));
      cond += (cond.empty() ? "" : " AND ") + Emit(*eq);
      RangeEntry::Col m;
      m.name = u;
      m.type = type;
      m.typmod = l.typmod == r.typmod && l.type == r.type ? l.typmod : -1;
      m.attnum = 0;
      std::string ls = Emit(*read(l)), rs = Emit(*read(r));
      // The merged column is one side's; it keeps that side's column
      // identity only when it needs no conversion.
      auto take_side = [&](const RangeEntry::Col& c, size_t entry,
                           std::string sql) {
        m.sql = std::move(sql);
        if (c.type != type) return;
        m.attnum = c.attnum;
        m.domain = c.domain;
        m.table_oid = c.table_oid ? c.table_oid : entries_[entry].table_oid;
      };
      if (j->jointype == PG_QUERY__JOIN_TYPE__JOIN_FULL) {
        m.sql = "COALESCE(" + ls + ", " + rs + ")";
      } else if (j->jointype == PG_QUERY__JOIN_TYPE__JOIN_RIGHT ||
                 (j->jointype != PG_QUERY__JOIN_TYPE__JOIN_LEFT &&
                  l.type != type && r.type == type)) {
        // An inner join takes the side that needs no conversion, as
        // PostgreSQL's buildMergedJoinVar.
        take_side(r, found[1].first, std::move(rs));
      } else {
        take_side(l, found[0].first, std::move(ls));
      }
      merged.push_back(std::move(m));
    }
    if (emit_failed_) {
      *error = emit_error_;
      return false;
    }
  } else if (j->quals) {
    std::unique_ptr<Expr> e;
    const char* saved = aggregate_context_;
    const char* saved_window = window_context_;
    aggregate_context_ = "JOIN conditions";
    window_context_ = "JOIN conditions";
    bool ok = analyzer_.Analyze(j->quals, &e, error) &&
              analyzer_.Coerce(&e, oid::kBool, -1, error);
    aggregate_context_ = saved;
    window_context_ = saved_window;
    if (!ok) return false;
    if (e->type != oid::kBool) {
      *error = Err("42804",
                   "argument of JOIN/ON must be type boolean, not type " +
                       TypeName(e->type),
                   e->location);
      return false;
    }
    cond = Emit(*e);
    if (emit_failed_) {
      *error = emit_error_;
      return false;
    }
  }
  *sql = left + " " + kind + " " + right +
         (cond.empty() ? (std::string(kind) == "JOIN" ? "" : " ON 1")
                       : " ON " + cond);
  if (!merging && !j->alias) return true;
  // The join's entry: what unqualified names and `*` see from now on.
  RangeEntry join;
  join.alias = j->alias && j->alias->aliasname ? j->alias->aliasname : "";
  join.relname = join.alias;
  join.qualifiable = !join.alias.empty();
  join.columns = merged;
  for (const auto& p : SideColumns(left_begin, right_end)) {
    if (consumed.count(p)) continue;
    join.columns.push_back(entries_[p.first].columns[p.second]);
    if (!join.columns.back().table_oid)
      join.columns.back().table_oid = entries_[p.first].table_oid;
  }
  if (j->alias) {
    for (size_t i = 0; i < j->alias->n_colnames && i < join.columns.size(); i++)
      join.columns[i].name = j->alias->colnames[i]->string->sval;
    if (j->alias->n_colnames > join.columns.size()) {
      *error = Err("42P10", "column alias list for \"" + join.alias +
                                "\" has too many entries");
      return false;
    }
  }
  for (size_t e = left_begin; e < right_end; e++) {
    entries_[e].hidden = true;
    // An aliased join hides the names inside it, as PostgreSQL.
    if (j->alias) entries_[e].qualifiable = false;
  }
  entries_.push_back(std::move(join));
  if (j->join_using_alias && j->join_using_alias->aliasname) {
    // JOIN ... USING (...) AS name: name.column reads a merged column.
    RangeEntry using_alias;
    using_alias.alias = j->join_using_alias->aliasname;
    using_alias.relname = using_alias.alias;
    using_alias.columns = merged;
    using_alias.hidden = true;
    entries_.push_back(std::move(using_alias));
  }
  return true;
}

}  // namespace kova::planner
