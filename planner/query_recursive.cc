// WITH RECURSIVE: a WITH query of the form `non-recursive term UNION [ALL]
// recursive term` compiles to SQLite's own recursive CTE, with PostgreSQL's
// rules: the non-recursive term decides the column types, and the
// recursive term reads the previous step's rows exactly once, directly in
// its FROM.
#include "planner/expr_internal.h"
#include "planner/query.h"

namespace kova::planner {
using namespace expr_detail;

namespace {

// Where a term's column i is written (for errors).
int TargetLocation(const PgQuery__SelectStmt* s, size_t i) {
  while (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE && s->larg) s = s->larg;
  if (i >= s->n_target_list) return -1;
  return TargetValueLocation(s->target_list[i]->res_target);
}

// The first aggregate call in a select list or HAVING (for errors).
int AggregateLocation(const PgQuery__Node* n) {
  if (!n) return -1;
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
      const PgQuery__FuncCall* f = n->func_call;
      std::string name = sql::JoinNames(f->funcname, f->n_funcname);
      if (!f->over && expr_detail::IsAggregateName(name)) return f->location;
      for (size_t i = 0; i < f->n_args; i++) {
        int at = AggregateLocation(f->args[i]);
        if (at >= 0) return at;
      }
      return -1;
    }
    case PG_QUERY__NODE__NODE_A_EXPR: {
      int at = AggregateLocation(n->a_expr->lexpr);
      return at >= 0 ? at : AggregateLocation(n->a_expr->rexpr);
    }
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return AggregateLocation(n->type_cast->arg);
    case PG_QUERY__NODE__NODE_RES_TARGET:
      return AggregateLocation(n->res_target->val);
    default:
      return -1;
  }
}

// The location of a FROM reference to `name` (unqualified) in a FROM item
// and the joins below it, or -1.
int ReferenceLocation(const PgQuery__Node* n, const std::string& name) {
  if (!n) return -1;
  if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
    const PgQuery__RangeVar* rv = n->range_var;
    bool qualified = rv->schemaname && *rv->schemaname;
    return !qualified && name == rv->relname ? rv->location : -1;
  }
  if (n->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR) {
    int at = ReferenceLocation(n->join_expr->larg, name);
    return at >= 0 ? at : ReferenceLocation(n->join_expr->rarg, name);
  }
  return -1;
}

// PostgreSQL's rule for the recursive term's joins: the working table may
// not be on the nullable side of an outer join (checkWellFormedRecursion).
bool CheckOuterJoins(const PgQuery__Node* n, const std::string& name,
                     PgError* error) {
  if (!n || n->node_case != PG_QUERY__NODE__NODE_JOIN_EXPR) return true;
  const PgQuery__JoinExpr* j = n->join_expr;
  int at = -1;
  switch (j->jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
      at = ReferenceLocation(j->rarg, name);
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:
      at = ReferenceLocation(j->larg, name);
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
      at = ReferenceLocation(j->larg, name);
      if (at < 0) at = ReferenceLocation(j->rarg, name);
      break;
    default:
      break;
  }
  if (at >= 0) {
    *error = Err("42P19",
                 "recursive reference to query \"" + name +
                     "\" must not appear within an outer join",
                 at);
    return false;
  }
  return CheckOuterJoins(j->larg, name, error) &&
         CheckOuterJoins(j->rarg, name, error);
}

}  // namespace

bool QueryCompiler::AddRecursiveCteRef(const PgQuery__RangeVar* rv,
                                       const PgQuery__CommonTableExpr* cte,
                                       QueryCompiler* owner,
                                       const std::string& alias,
                                       const std::vector<std::string>& names,
                                       std::string* sql, PgError* error) {
  const std::string name = cte->ctename;
  const int ref_location = rv ? rv->location : cte->location;
  // The FROM entry over the query's columns c0, c1, ...; `from` is the SQL
  // that gives them (the previous step's rows, or the whole query).
  auto add_entry = [&](const RecursiveCte& r, const std::string& from) {
    RangeEntry entry;
    entry.alias = alias;
    entry.relname = name;
    entry.sql_alias = NewAlias();
    for (size_t i = 0; i < r.columns.size(); i++) {
      RangeEntry::Col c = r.columns[i];
      if (i < names.size()) c.name = names[i];
      c.sql = entry.sql_alias + ".c" + std::to_string(i);
      entry.columns.push_back(c);
    }
    *sql = from + " AS " + entry.sql_alias;
    entries_.push_back(std::move(entry));
    return true;
  };
  auto running = owner->recursive_.find(cte);
  if (running != owner->recursive_.end()) {
    // A reference from inside its own definition.
    RecursiveCte& r = running->second;
    if (owner->recursive_stack_.back() != cte) {
      *error =
          Err("0A000", "mutual recursion between WITH items is not implemented",
              cte->location);
      return false;
    }
    switch (r.state) {
      case RecursiveCte::State::kNotUnion:
        *error = Err("42P19",
                     "recursive query \"" + name +
                         "\" does not have the form non-recursive-term UNION "
                         "[ALL] recursive-term",
                     cte->location);
        return false;
      case RecursiveCte::State::kNonRecursiveTerm:
        *error = Err("42P19",
                     "recursive reference to query \"" + name +
                         "\" must not appear within its non-recursive term",
                     ref_location);
        return false;
      case RecursiveCte::State::kRecursiveTerm:
        break;
    }
    if (this != r.term_scope) {
      bool sublink = false;
      for (const QueryCompiler* c = this; c && c != r.term_scope;
           c = c->parent_)
        sublink |= c->sublink_;
      *error = sublink ? Err("42P19",
                             "recursive reference to query \"" + name +
                                 "\" must not appear within a subquery",
                             ref_location)
                       : Err("0A000",
                             "a recursive reference to query \"" + name +
                                 "\" inside a subquery in FROM is not "
                                 "supported yet",
                             ref_location);
      return false;
    }
    if (++r.references > 1) {
      *error = Err("42P19",
                   "recursive reference to query \"" + name +
                       "\" must not appear more than once",
                   ref_location);
      return false;
    }
    return add_entry(r, r.table);
  }
  if (cte->search_clause || cte->cycle_clause) {
    *error = Err("0A000", "SEARCH and CYCLE clauses are not supported yet",
                 cte->location);
    return false;
  }
  const PgQuery__SelectStmt* q = cte->ctequery->select_stmt;
  owner->recursive_stack_.push_back(cte);
  RecursiveCte& r = owner->recursive_[cte];
  // The entry lives while its definition compiles.
  struct Done {
    QueryCompiler* owner;
    const PgQuery__CommonTableExpr* cte;
    ~Done() {
      owner->recursive_.erase(cte);
      owner->recursive_stack_.pop_back();
    }
  } done{owner, cte};
  auto count_check = [&]() {
    if (cte->n_aliascolnames > entries_.back().columns.size()) {
      *error =
          Err("42P10",
              "WITH query \"" + name + "\" has " +
                  std::to_string(entries_.back().columns.size()) +
                  " columns available but " +
                  std::to_string(cte->n_aliascolnames) + " columns specified",
              cte->location);
      return false;
    }
    return true;
  };
  if (q->op != PG_QUERY__SET_OPERATION__SETOP_UNION || !q->larg || !q->rarg) {
    r.state = RecursiveCte::State::kNotUnion;
    return AddDerived(q, alias, names, 0, sql, error) && count_check();
  }
  // The non-recursive term.
  r.state = RecursiveCte::State::kNonRecursiveTerm;
  auto compile = [&](QueryCompiler* sub, const PgQuery__SelectStmt* stmt,
                     Compiled* c) {
    c->binds = std::move(out_->binds);
    c->fallbacks = std::move(out_->fallbacks);
    sub->out_ = c;
    bool ok = sub->CompileSelect(stmt, c, error);
    out_->binds = std::move(c->binds);
    out_->fallbacks = std::move(c->fallbacks);
    return ok;
  };
  Compiled left;
  QueryCompiler left_scope(context_, this, out_);
  if (!compile(&left_scope, q->larg, &left)) return false;
  if (cte->n_aliascolnames > left.columns.size()) {
    *error = Err(
        "42P10",
        "WITH query \"" + name + "\" has " +
            std::to_string(left.columns.size()) + " columns available but " +
            std::to_string(cte->n_aliascolnames) + " columns specified",
        cte->location);
    return false;
  }
  r.table = "kova_" + NewAlias();
  for (size_t i = 0; i < left.columns.size(); i++) {
    const ColumnDesc& c = left.columns[i];
    std::string col_name =
        i < cte->n_aliascolnames ? cte->aliascolnames[i]->string->sval : c.name;
    r.columns.push_back({col_name, c.type_oid, c.type_modifier, "", 0});
  }
  // The recursive term, reading the working table.
  for (size_t i = 0; i < q->rarg->n_from_clause; i++)
    if (!CheckOuterJoins(q->rarg->from_clause[i], name, error)) return false;
  if (q->n_locking_clause > 0 || q->rarg->n_locking_clause > 0) {
    *error =
        Err("0A000", "FOR UPDATE/SHARE in a recursive query is not implemented",
            -1);
    return false;
  }
  r.state = RecursiveCte::State::kRecursiveTerm;
  Compiled right;
  QueryCompiler right_scope(context_, this, out_);
  r.term_scope = &right_scope;
  if (!compile(&right_scope, q->rarg, &right)) return false;
  if (r.references == 0) {
    // No reference to itself: an ordinary WITH query.
    r.state = RecursiveCte::State::kNotUnion;
    return AddDerived(q, alias, names, 0, sql, error) && count_check();
  }
  if (q->n_sort_clause > 0) {
    *error = Err("0A000", "ORDER BY in a recursive query is not implemented",
                 ExprNodeLocation(q->sort_clause[0]->sort_by->node));
    return false;
  }
  if (q->limit_offset || q->limit_count) {
    const PgQuery__Node* n = q->limit_offset ? q->limit_offset : q->limit_count;
    *error = Err("0A000",
                 std::string(q->limit_offset ? "OFFSET" : "LIMIT") +
                     " in a recursive query is not implemented",
                 ExprNodeLocation(n));
    return false;
  }
  const PgQuery__SelectStmt* rt = q->rarg;
  if (rt->op != PG_QUERY__SET_OPERATION__SETOP_NONE || rt->n_values_lists > 0 ||
      rt->n_distinct_clause > 0 || rt->n_sort_clause > 0 || rt->limit_count ||
      rt->limit_offset || rt->with_clause) {
    *error = Err("0A000",
                 "this form of recursive term is not supported yet (DISTINCT, "
                 "ORDER BY, LIMIT or WITH in it)",
                 cte->location);
    return false;
  }
  if (right_scope.saw_aggregate_ || rt->n_group_clause > 0 ||
      rt->having_clause) {
    int at = -1;
    for (size_t i = 0; at < 0 && i < rt->n_target_list; i++)
      at = AggregateLocation(rt->target_list[i]);
    if (at < 0) at = AggregateLocation(rt->having_clause);
    *error = Err("42P19",
                 "aggregate functions are not allowed in a recursive query's "
                 "recursive term",
                 at);
    return false;
  }
  if (left.columns.size() != right.columns.size()) {
    *error =
        Err("42601", "each UNION query must have the same number of columns",
            TargetLocation(rt, 0));
    return false;
  }
  // The non-recursive term's types are the query's: the recursive term
  // must fit them (PostgreSQL's check in checkWellFormedRecursion).
  for (size_t i = 0; i < left.columns.size(); i++) {
    uint32_t lt = left.columns[i].type_oid, rt_type = right.columns[i].type_oid;
    int32_t lm = left.columns[i].type_modifier;
    uint32_t common = lt;
    if (lt != rt_type) {
      if (IsNumber(lt) && IsNumber(rt_type)) {
        common = ArithmeticType(lt, rt_type);
      } else if (IsText(lt) && IsText(rt_type)) {
        // String types convert implicitly both ways: PostgreSQL's
        // select_common_type keeps the first.
        common = lt;
      } else {
        *error = Err("42804",
                     "UNION types " + TypeName(lt) + " and " +
                         TypeName(rt_type) + " cannot be matched",
                     TargetLocation(rt, i));
        return false;
      }
    }
    int32_t common_mod =
        common == lt && lt == rt_type && lm == right.columns[i].type_modifier
            ? lm
            : -1;
    if (common != lt || common_mod != lm) {
      PgError err = Err(
          "42804",
          "recursive query \"" + name + "\" column " + std::to_string(i + 1) +
              " has type " + types::FormatTypeName(lt, lm) +
              " in non-recursive term but type " +
              types::FormatTypeName(common, common_mod) + " overall",
          TargetLocation(q->larg, i));
      err.hint =
          "Cast the output of the non-recursive term to the correct type.";
      *error = err;
      return false;
    }
    // Values of the recursive term join the non-recursive term's column
    // unconverted: only where SQLite holds both types alike.
    bool alike = lt == rt_type || (IsInteger(lt) && IsInteger(rt_type)) ||
                 (IsFloat(lt) && (IsInteger(rt_type) || IsFloat(rt_type))) ||
                 (IsText(lt) && IsText(rt_type) && lt != oid::kBpchar &&
                  rt_type != oid::kBpchar);
    if (!alike) {
      *error = Err("0A000",
                   "a recursive term of type " + TypeName(rt_type) +
                       " for a column of type " + TypeName(lt) +
                       " is not supported yet",
                   -1);
      return false;
    }
  }
  std::string cols;
  for (size_t i = 0; i < left.columns.size(); i++)
    cols += (i ? ", c" : "c") + std::to_string(i);
  return add_entry(r, "(WITH RECURSIVE " + r.table + "(" + cols +
                          ") AS (SELECT * FROM (" + left.sql + ") UNION" +
                          (q->all ? " ALL " : " ") + right.sql + ") SELECT " +
                          cols + " FROM " + r.table + ")");
}

}  // namespace kova::planner
