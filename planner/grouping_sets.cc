// GROUP BY GROUPING SETS, ROLLUP and CUBE, and GROUPING(): the sets are
// expanded as PostgreSQL expands them, each set runs as its own grouped
// SELECT (the grouping expressions outside the set read as NULL), and the
// statement reads the UNION ALL of those SELECTs as its rows. HAVING,
// window functions, DISTINCT, ORDER BY and LIMIT then apply to that union,
// as they apply to the grouped rows in PostgreSQL. A subquery's reference
// to the query's columns is marked, and becomes the column itself in the
// sets' SELECTs and the grouped value in the statement around them.
#include <algorithm>
#include <functional>
#include <map>

#include "planner/expr_internal.h"
#include "planner/query.h"

namespace kova::planner {
using namespace expr_detail;

namespace {

// PostgreSQL's limits.
constexpr size_t kMaxGroupingSets = 4096;
constexpr size_t kMaxCubeElements = 12;
constexpr size_t kMaxGroupingArgs = 31;
// SQLite allows 500 terms in one compound SELECT: longer unions are nested.
constexpr size_t kUnionTermsPerLevel = 400;

using SetList = std::vector<std::vector<int>>;

// Whether a parse tree holds a node that `match` takes; inside subqueries
// too when `into_subqueries`.
bool AnyNode(const ProtobufCMessage* msg, bool into_subqueries,
             const std::function<bool(const ProtobufCMessage*)>& match) {
  const ProtobufCMessageDescriptor* d = msg->descriptor;
  if (match(msg)) return true;
  if (d == &pg_query__sub_link__descriptor && !into_subqueries) return false;
  const char* base = reinterpret_cast<const char*>(msg);
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor* f = &d->fields[i];
    if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *reinterpret_cast<const size_t*>(base + f->quantifier_offset);
      const ProtobufCMessage* const* items =
          *reinterpret_cast<const ProtobufCMessage* const* const*>(base +
                                                                   f->offset);
      for (size_t k = 0; k < n; k++)
        if (items[k] && AnyNode(items[k], into_subqueries, match)) return true;
      continue;
    }
    if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
        *reinterpret_cast<const uint32_t*>(base + f->quantifier_offset) !=
            f->id)
      continue;
    const ProtobufCMessage* sub =
        *reinterpret_cast<const ProtobufCMessage* const*>(base + f->offset);
    if (sub && AnyNode(sub, into_subqueries, match)) return true;
  }
  return false;
}

// A subquery's GROUPING belongs to the subquery.
bool ContainsGroupingFunc(const PgQuery__Node* node) {
  return node &&
         AnyNode(reinterpret_cast<const ProtobufCMessage*>(node), false,
                 [](const ProtobufCMessage* m) {
                   return m->descriptor == &pg_query__grouping_func__descriptor;
                 });
}

bool ContainsSubLink(const PgQuery__Node* node) {
  return AnyNode(reinterpret_cast<const ProtobufCMessage*>(node), false,
                 [](const ProtobufCMessage* m) {
                   return m->descriptor == &pg_query__sub_link__descriptor;
                 });
}

// Whether a SELECT calls a function whose every call may give another
// value or change something: each set's SELECT would call it again.
bool CallsVolatileFunction(const PgQuery__SelectStmt* s) {
  static const char* const kVolatile[] = {
      "random",          "setseed",   "nextval",         "setval",   "lastval",
      "clock_timestamp", "timeofday", "gen_random_uuid", "pg_sleep", "command"};
  return AnyNode(reinterpret_cast<const ProtobufCMessage*>(s), true,
                 [](const ProtobufCMessage* m) {
                   if (m->descriptor != &pg_query__func_call__descriptor)
                     return false;
                   auto* f = reinterpret_cast<const PgQuery__FuncCall*>(m);
                   const PgQuery__Node* last = f->funcname[f->n_funcname - 1];
                   if (last->node_case != PG_QUERY__NODE__NODE_STRING)
                     return false;
                   for (const char* name : kVolatile)
                     if (std::string_view(last->string->sval) == name)
                       return true;
                   return false;
                 });
}

bool HasSubquery(const Expr& e) {
  if (e.kind == Expr::Kind::kSubquery) return true;
  for (const auto& a : e.args)
    if (HasSubquery(*a)) return true;
  return false;
}

// (a, b) in a grouping set: a list of expressions, not a row value.
bool IsParenthesizedList(const PgQuery__Node* n) {
  return n->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
         n->row_expr->row_format ==
             PG_QUERY__COERCION_FORM__COERCE_IMPLICIT_CAST;
}

// Whether an expression reads the rows grouped: a column or an aggregate.
bool ReadsRows(const Expr& e) {
  if (e.kind == Expr::Kind::kColumn || e.kind == Expr::Kind::kAggregate)
    return true;
  for (const auto& a : e.args)
    if (ReadsRows(*a)) return true;
  return false;
}

std::string Collated(const std::string& sql, uint32_t type) {
  const char* collation = CollationOf(type);
  return *collation ? "(" + sql + " COLLATE " + collation + ")" : sql;
}

}  // namespace

// The select-list entry a GROUP BY item stands for, as PostgreSQL finds
// it: by position, by output name, else the first entry equal to it.
const Expr* QueryCompiler::ReferencedTarget(
    const PgQuery__Node* item, const std::string& sql,
    const std::vector<std::unique_ptr<Expr>>& targets,
    const std::vector<std::string>& names) {
  if (item->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      item->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
    return targets[item->a_const->ival->ival - 1].get();
  if (item->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
      item->column_ref->n_fields == 1 &&
      item->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
    std::string name = item->column_ref->fields[0]->string->sval;
    for (size_t i = 0; i < targets.size(); i++)
      if (names[i] == name && Emit(*targets[i]) == sql) return targets[i].get();
  }
  for (const auto& t : targets)
    if (Emit(*t) == sql) return t.get();
  return nullptr;
}

bool UsesGroupingFunc(const PgQuery__SelectStmt* s) {
  for (size_t i = 0; i < s->n_target_list; i++)
    if (ContainsGroupingFunc(s->target_list[i])) return true;
  for (size_t i = 0; i < s->n_sort_clause; i++)
    if (ContainsGroupingFunc(s->sort_clause[i])) return true;
  for (size_t i = 0; i < s->n_window_clause; i++)
    if (ContainsGroupingFunc(s->window_clause[i])) return true;
  for (size_t i = 0; i < s->n_distinct_clause; i++)
    if (ContainsGroupingFunc(s->distinct_clause[i])) return true;
  for (size_t i = 0; i < s->n_values_lists; i++)
    if (ContainsGroupingFunc(s->values_lists[i])) return true;
  return ContainsGroupingFunc(s->having_clause);
}

bool ExprScope::AnalyzeGroupingFunc(const PgQuery__GroupingFunc* g,
                                    std::unique_ptr<Expr>* out,
                                    PgError* error) {
  (void)out;
  const char* context = "this context";
  if (!AggregatesAllowed(&context)) {
    *error =
        Err("42803",
            std::string("grouping operations are not allowed in ") + context,
            g->location);
    return false;
  }
  *error = Err("0A000", "GROUPING is not supported here", g->location);
  return false;
}

bool QueryCompiler::AnalyzeGroupingFunc(const PgQuery__GroupingFunc* g,
                                        std::unique_ptr<Expr>* out,
                                        PgError* error) {
  if (g->n_args > kMaxGroupingArgs) {
    *error =
        Err("54023", "GROUPING must have fewer than 32 arguments", g->location);
    return false;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = "grouping";
  e->type = oid::kInt4;
  e->location = g->location;
  const int outer_before = outer_references_;
  for (size_t i = 0; i < g->n_args; i++) {
    std::unique_ptr<Expr> arg;
    if (!analyzer_.Analyze(g->args[i], &arg, error)) return false;
    e->args.push_back(std::move(arg));
  }
  if (analyzer_.in_filter() || aggregate_context_) {
    *error = Err("42803",
                 std::string("grouping operations are not allowed in ") +
                     (analyzer_.in_filter() ? "FILTER" : aggregate_context_),
                 g->location);
    return false;
  }
  if (analyzer_.in_aggregate()) {
    *error =
        Err("42803", "aggregate function calls cannot be nested", g->location);
    return false;
  }
  if (!select_) {
    *error = Err("0A000", "GROUPING is not supported here", g->location);
    return false;
  }
  if (outer_references_ > outer_before) {
    *error = Err("0A000",
                 "GROUPING over the columns of an enclosing query is not "
                 "supported yet",
                 g->location);
    return false;
  }
  *out = std::move(e);
  return true;
}

bool QueryCompiler::PlanGroupingSets(
    const PgQuery__SelectStmt* s,
    const std::vector<std::unique_ptr<Expr>>& targets,
    const std::vector<std::string>& names, PgError* error) {
  if (CallsVolatileFunction(s)) {
    *error = Err("0A000",
                 "volatile functions in a query with grouping sets are not "
                 "supported yet");
    return false;
  }
  grouping_.emplace();
  GroupingSetsPlan& plan = *grouping_;
  plan.alias = NewAlias();
  // First every expression is analysed (their errors come before a count
  // of sets that is too large): each element of a set is its expressions'
  // indexes in plan.exprs.
  std::map<const PgQuery__Node*, std::vector<int>> elements;
  auto add_expr = [&](const PgQuery__Node* n, std::vector<int>* element) {
    std::string sql;
    if (!GroupItem(n, targets, names, &sql, error)) return false;
    const Expr* target = ReferencedTarget(n, sql, targets, names);
    // Each subquery compiles to SQL of its own: an equal one in the select
    // list would not be found grouped.
    if (ContainsSubLink(n) || (target && HasSubquery(*target))) {
      *error = Err("0A000",
                   "subqueries in GROUP BY of a query with grouping sets are "
                   "not supported yet");
      return false;
    }
    if (target && !ReadsRows(*target) &&
        std::find(plan.constant_targets.begin(), plan.constant_targets.end(),
                  target) == plan.constant_targets.end())
      plan.constant_targets.push_back(target);
    auto it = std::find(plan.exprs.begin(), plan.exprs.end(), sql);
    if (it == plan.exprs.end()) it = plan.exprs.insert(plan.exprs.end(), sql);
    element->push_back(static_cast<int>(it - plan.exprs.begin()));
    return true;
  };
  std::function<bool(const PgQuery__Node*)> analyse =
      [&](const PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) {
          std::vector<int>& element = elements[n];
          if (!IsParenthesizedList(n)) return add_expr(n, &element);
          for (size_t i = 0; i < n->row_expr->n_args; i++)
            if (!add_expr(n->row_expr->args[i], &element)) return false;
          return true;
        }
        const PgQuery__GroupingSet* gs = n->grouping_set;
        if (gs->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE &&
            gs->n_content > kMaxCubeElements) {
          *error = Err("54011", "CUBE is limited to 12 elements", gs->location);
          return false;
        }
        for (size_t i = 0; i < gs->n_content; i++)
          if (!analyse(gs->content[i])) return false;
        return true;
      };
  for (size_t i = 0; i < s->n_group_clause; i++)
    if (!analyse(s->group_clause[i])) return false;

  // Then each item of GROUP BY becomes its list of sets; false when there
  // are too many.
  std::function<bool(const PgQuery__Node*, SetList*)> expand =
      [&](const PgQuery__Node* n, SetList* out) {
        if (n->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) {
          out->push_back(elements[n]);
          return true;
        }
        const PgQuery__GroupingSet* gs = n->grouping_set;
        std::vector<const std::vector<int>*> parts;
        if (gs->kind != PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS)
          for (size_t i = 0; i < gs->n_content; i++)
            parts.push_back(&elements[gs->content[i]]);
        auto concat = [&](auto take) {
          std::vector<int> set;
          for (size_t i = 0; i < parts.size(); i++)
            if (take(i))
              set.insert(set.end(), parts[i]->begin(), parts[i]->end());
          out->push_back(std::move(set));
        };
        switch (gs->kind) {
          case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP:
            // (a, b, c), (a, b), (a), ()
            for (size_t k = parts.size() + 1; k-- > 0;)
              concat([&](size_t i) { return i < k; });
            break;
          case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE:
            // Every subset, the whole first.
            for (size_t mask = (size_t{1} << parts.size()); mask-- > 0;)
              concat([&](size_t i) {
                return (mask >> (parts.size() - 1 - i)) & 1;
              });
            break;
          case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS:
            for (size_t i = 0; i < gs->n_content; i++) {
              if (!expand(gs->content[i], out)) return false;
              if (out->size() > kMaxGroupingSets) return false;
            }
            break;
          default:  // (), and a simple set
            concat([](size_t) { return true; });
            break;
        }
        return out->size() <= kMaxGroupingSets;
      };
  std::vector<SetList> items;
  size_t count = 1;
  for (size_t i = 0; i < s->n_group_clause && !plan.too_many; i++) {
    items.emplace_back();
    plan.too_many = !expand(s->group_clause[i], &items.back()) ||
                    (count *= items.back().size()) > kMaxGroupingSets;
  }
  if (plan.too_many) {
    // PostgreSQL points at the clause only when it has no expressions.
    if (plan.exprs.empty() && s->n_group_clause > 0 &&
        s->group_clause[0]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET)
      plan.too_many_location = s->group_clause[0]->grouping_set->location;
    return true;
  }
  // The sets: one of each item's, in every combination.
  plan.sets = {{}};
  for (const SetList& item : items) {
    std::vector<std::vector<int>> product;
    for (const auto& set : plan.sets) {
      for (const auto& part : item) {
        product.push_back(set);
        product.back().insert(product.back().end(), part.begin(), part.end());
      }
    }
    plan.sets = std::move(product);
  }
  for (auto& set : plan.sets) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
  if (s->group_distinct) {
    // GROUP BY DISTINCT: each set once.
    std::vector<std::vector<int>> distinct;
    for (auto& set : plan.sets)
      if (std::find(distinct.begin(), distinct.end(), set) == distinct.end())
        distinct.push_back(std::move(set));
    plan.sets = std::move(distinct);
  }
  return true;
}

bool QueryCompiler::CheckGroupingArgs(const Expr& e, PgError* error) {
  if (e.kind == Expr::Kind::kFunction && e.name == "grouping") {
    for (const auto& arg : e.args) {
      std::string sql = Emit(*arg);
      const auto& exprs = grouping_->exprs;
      if (std::find(exprs.begin(), exprs.end(), sql) == exprs.end()) {
        *error = Err("42803",
                     "arguments to GROUPING must be grouping expressions of "
                     "the associated query level",
                     LeftmostLocation(*arg));
        return false;
      }
    }
    return true;
  }
  for (const auto& a : e.args)
    if (!CheckGroupingArgs(*a, error)) return false;
  return true;
}

bool QueryCompiler::CheckGroupingSets(const std::vector<const Expr*>& list,
                                      const Expr* having, PgError* error) {
  GroupingSetsPlan& plan = *grouping_;
  if (plan.too_many) {
    *error = Err("54001", "too many grouping sets present (maximum 4096)",
                 plan.too_many_location);
    return false;
  }
  // The checks compare expressions as written, not as the union reads them.
  plan.substituting = false;
  bool ok = true;
  for (const Expr* e : list) ok = ok && CheckGroupingArgs(*e, error);
  for (const Expr* e : list) ok = ok && CheckGrouping(*e, plan.exprs, error);
  if (having)
    ok = ok && CheckGroupingArgs(*having, error) &&
         CheckGrouping(*having, plan.exprs, error);
  plan.substituting = true;
  return ok;
}

std::string QueryCompiler::EmitWithoutSubstitution(const Expr& e) {
  bool saved = grouping_->substituting;
  grouping_->substituting = false;
  std::string sql = Emit(e);
  grouping_->substituting = saved;
  return sql;
}

bool QueryCompiler::EmitGrouped(const Expr& e, std::string* sql) {
  GroupingSetsPlan& plan = *grouping_;
  auto index_of = [](auto& list, const auto& item) {
    auto it = std::find(list.begin(), list.end(), item);
    if (it == list.end()) it = list.insert(list.end(), item);
    return std::to_string(it - list.begin());
  };
  if (e.kind == Expr::Kind::kFunction && e.name == "grouping") {
    std::vector<int> args;
    for (const auto& arg : e.args) {
      std::string arg_sql = EmitWithoutSubstitution(*arg);
      auto it = std::find(plan.exprs.begin(), plan.exprs.end(), arg_sql);
      // (An argument that is no grouping expression fails the checks.)
      args.push_back(static_cast<int>(it - plan.exprs.begin()));
    }
    *sql = plan.alias + ".q" + index_of(plan.grouping_calls, args);
    return true;
  }
  if (e.kind == Expr::Kind::kWindow) return false;
  if (e.kind == Expr::Kind::kAggregate && &e != window_aggregate_emitted_) {
    *sql = Collated(plan.alias + ".a" +
                        index_of(plan.aggregates, EmitWithoutSubstitution(e)),
                    e.type);
    return true;
  }
  // Constants are no grouped values, but for a select-list entry GROUP BY
  // names.
  if (!ReadsRows(e) &&
      std::find(plan.constant_targets.begin(), plan.constant_targets.end(),
                &e) == plan.constant_targets.end())
    return false;
  std::string normal = EmitWithoutSubstitution(e);
  auto it = std::find(plan.exprs.begin(), plan.exprs.end(), normal);
  if (it == plan.exprs.end()) return false;
  *sql = Collated(plan.alias + ".g" + std::to_string(it - plan.exprs.begin()),
                  e.type);
  return true;
}

namespace {

// How a subquery writes a column of an enclosing query with grouping sets:
// kMarkStart, the query's tag, '#', the column's number, kMarkEnd.
constexpr char kMarkStart = '\x03', kMarkEnd = '\x04';

}  // namespace

std::string QueryCompiler::MarkOuterReference(const RangeEntry::Col& column,
                                              const std::string& table,
                                              int location) {
  auto& refs = outer_references_from_subqueries_;
  size_t k = 0;
  while (k < refs.size() && refs[k].sql != column.sql) k++;
  if (k == refs.size())
    refs.push_back({column.sql,
                    (table.empty() ? "" : table + ".") + column.name,
                    column.type, location});
  return kMarkStart + outer_reference_tag_ + "#" + std::to_string(k) + kMarkEnd;
}

bool QueryCompiler::ResolveOuterReferences(std::string* sql, bool grouped,
                                           PgError* error) {
  const std::string prefix = kMarkStart + outer_reference_tag_ + "#";
  std::string out;
  size_t from = 0;
  for (size_t at; (at = sql->find(prefix, from)) != std::string::npos;) {
    size_t end = sql->find(kMarkEnd, at);
    const OuterReference& ref = outer_references_from_subqueries_[std::stoul(
        sql->substr(at + prefix.size(), end - at - prefix.size()))];
    out.append(*sql, from, at - from);
    from = end + 1;
    if (!grouped) {
      out += ref.sql;
      continue;
    }
    const auto& exprs = grouping_->exprs;
    auto it = std::find(exprs.begin(), exprs.end(), ref.sql);
    if (it == exprs.end()) {
      *error = Err("42803",
                   "subquery uses ungrouped column \"" + ref.name +
                       "\" from outer query",
                   ref.location);
      return false;
    }
    out += Collated(
        grouping_->alias + ".g" + std::to_string(it - exprs.begin()), ref.type);
  }
  out.append(*sql, from, std::string::npos);
  *sql = std::move(out);
  return true;
}

std::string QueryCompiler::GroupingSetsFrom(const std::string& from,
                                            const std::string& where) {
  const GroupingSetsPlan& plan = *grouping_;
  // Which expressions are grouped was decided by comparing their SQL,
  // constants included: the translation holds only for these values.
  for (SqlBind& bind : out_->binds) bind.literal_location = -1;
  std::vector<std::string> branches;
  for (const auto& set : plan.sets) {
    std::string sql = "SELECT ";
    for (size_t i = 0; i < plan.exprs.size(); i++) {
      bool grouped =
          std::find(set.begin(), set.end(), static_cast<int>(i)) != set.end();
      sql += (grouped ? plan.exprs[i] : "NULL") + " AS g" + std::to_string(i) +
             ", ";
    }
    for (size_t i = 0; i < plan.aggregates.size(); i++)
      sql += plan.aggregates[i] + " AS a" + std::to_string(i) + ", ";
    for (size_t i = 0; i < plan.grouping_calls.size(); i++) {
      // A bit per argument, the last one lowest: set when the argument is
      // not grouped in this set.
      int bits = 0;
      for (int arg : plan.grouping_calls[i])
        bits = bits * 2 +
               (std::find(set.begin(), set.end(), arg) == set.end() ? 1 : 0);
      sql += std::to_string(bits) + " AS q" + std::to_string(i) + ", ";
    }
    // An aggregate makes the empty set's SELECT one row, as a group.
    sql += "count(*) AS kova_rows";
    if (!from.empty()) sql += " FROM " + from;
    if (!where.empty()) sql += " WHERE " + where;
    for (size_t i = 0; i < set.size(); i++)
      sql += (i ? ", " : " GROUP BY ") + plan.exprs[set[i]];
    branches.push_back(std::move(sql));
  }
  // Nested in levels of at most kUnionTermsPerLevel terms.
  while (branches.size() > kUnionTermsPerLevel) {
    std::vector<std::string> level;
    for (size_t i = 0; i < branches.size(); i += kUnionTermsPerLevel) {
      std::string sql;
      for (size_t k = i; k < std::min(branches.size(), i + kUnionTermsPerLevel);
           k++)
        sql += (k > i ? " UNION ALL " : "") + branches[k];
      level.push_back("SELECT * FROM (" + sql + ")");
    }
    branches = std::move(level);
  }
  std::string sql;
  for (size_t i = 0; i < branches.size(); i++)
    sql += (i ? " UNION ALL " : "") + branches[i];
  // The sets' SELECTs read the rows before grouping.
  PgError unused;
  ResolveOuterReferences(&sql, false, &unused);
  return "(" + sql + ") AS " + plan.alias;
}

}  // namespace kova::planner
