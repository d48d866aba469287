// MERGE (PostgreSQL 15): each WHEN clause that changes rows becomes the
// INSERT, UPDATE or DELETE it stands for, made from the statement's own
// parse nodes and planned as such:
//   WHEN MATCHED [AND c] THEN UPDATE SET ...   UPDATE target SET ... FROM
//       source WHERE on AND c AND (each earlier MATCHED condition) IS NOT TRUE
//   WHEN MATCHED [AND c] THEN DELETE           DELETE ... USING source WHERE
//       (the same)
//   WHEN NOT MATCHED [AND c] THEN INSERT ...   INSERT INTO target SELECT
//       values FROM source WHERE NOT EXISTS (SELECT FROM target WHERE on)
//       AND c AND (each earlier NOT MATCHED condition) IS NOT TRUE
// so that every source row takes the first clause whose condition holds.
// All of them read their rows before any is changed (PostgreSQL joins once,
// on the statement's snapshot); a target row that two source rows would
// change is an error, as in PostgreSQL. The changes are made clause by
// clause, not in the join's row order.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "planner/ddl_alter_internal.h"
#include "planner/dml.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

// Owns the parse nodes made for the actions' statements.
class NodeArena {
 public:
  template <class T>
  T* Make(const T& init) {
    auto p = std::make_shared<T>(init);
    keep_.push_back(p);
    return p.get();
  }
  PgQuery__Node** Array(std::vector<PgQuery__Node*> items) {
    auto p = std::make_shared<std::vector<PgQuery__Node*>>(std::move(items));
    keep_.push_back(p);
    return p->data();
  }
  PgQuery__Node* Node(PgQuery__BoolExpr* b) {
    PgQuery__Node n = PG_QUERY__NODE__INIT;
    n.node_case = PG_QUERY__NODE__NODE_BOOL_EXPR;
    n.bool_expr = b;
    return Make(n);
  }
  // AND of the non-null items (null when there is none).
  PgQuery__Node* And(const std::vector<PgQuery__Node*>& items) {
    std::vector<PgQuery__Node*> args;
    for (auto* i : items)
      if (i) args.push_back(i);
    if (args.empty()) return nullptr;
    if (args.size() == 1) return args[0];
    PgQuery__BoolExpr b = PG_QUERY__BOOL_EXPR__INIT;
    b.boolop = PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
    b.n_args = args.size();
    b.args = Array(args);
    b.location = -1;
    return Node(Make(b));
  }
  // `condition IS NOT TRUE`: an earlier clause did not take the row.
  PgQuery__Node* NotTrue(PgQuery__Node* condition) {
    PgQuery__BooleanTest t = PG_QUERY__BOOLEAN_TEST__INIT;
    t.arg = condition;
    t.booltesttype = PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE;
    t.location = -1;
    PgQuery__Node n = PG_QUERY__NODE__INIT;
    n.node_case = PG_QUERY__NODE__NODE_BOOLEAN_TEST;
    n.boolean_test = Make(t);
    return Make(n);
  }
  PgQuery__SelectStmt* Select() {
    PgQuery__SelectStmt s = PG_QUERY__SELECT_STMT__INIT;
    s.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
    s.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
    return Make(s);
  }
  PgQuery__Node* Node(PgQuery__SelectStmt* s) {
    PgQuery__Node n = PG_QUERY__NODE__INIT;
    n.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
    n.select_stmt = s;
    return Make(n);
  }
  // NOT EXISTS (SELECT FROM target WHERE on): no target row matches.
  PgQuery__Node* NoMatch(PgQuery__RangeVar* target, PgQuery__Node* on) {
    PgQuery__SelectStmt* probe = Select();
    PgQuery__Node rv = PG_QUERY__NODE__INIT;
    rv.node_case = PG_QUERY__NODE__NODE_RANGE_VAR;
    rv.range_var = target;
    probe->n_from_clause = 1;
    probe->from_clause = Array({Make(rv)});
    probe->where_clause = on;
    PgQuery__SubLink link = PG_QUERY__SUB_LINK__INIT;
    link.sub_link_type = PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK;
    link.subselect = Node(probe);
    link.location = -1;
    PgQuery__Node ln = PG_QUERY__NODE__INIT;
    ln.node_case = PG_QUERY__NODE__NODE_SUB_LINK;
    ln.sub_link = Make(link);
    PgQuery__BoolExpr b = PG_QUERY__BOOL_EXPR__INIT;
    b.boolop = PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR;
    b.n_args = 1;
    b.args = Array({Make(ln)});
    b.location = -1;
    return Node(Make(b));
  }

 private:
  std::vector<std::shared_ptr<void>> keep_;
};

int MaxParamNumber(const PgQuery__Node* node) {
  int most = 0;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        if (n->node_case == PG_QUERY__NODE__NODE_PARAM_REF)
          most = std::max(most, n->param_ref->number);
      });
  return most;
}

}  // namespace

bool SessionImpl::AnalyzeMerge(Plan* plan, PgError* error) {
  const PgQuery__MergeStmt* m = plan->node->merge_stmt;
  if (!LoadCatalog(error)) return false;
  if (m->with_clause && m->with_clause->recursive) {
    *error =
        Err("0A000", "WITH RECURSIVE is not supported for MERGE statement");
    return false;
  }
  // The target: a table (PostgreSQL 15 merges into no view).
  std::string schema =
      LookupSchema(m->relation->schemaname, m->relation->relname);
  if (!catalog_->FindTable(schema, m->relation->relname) &&
      catalog_->FindView(schema, m->relation->relname)) {
    *error = Err("42809", "cannot execute MERGE on relation \"" +
                              std::string(m->relation->relname) + "\"");
    error->detail = "This operation is not supported for views.";
    return false;
  }
  // The target's name and the source's may not be the same.
  std::string target_name = m->relation->alias && m->relation->alias->aliasname
                                ? m->relation->alias->aliasname
                                : m->relation->relname;
  std::string source_name;
  const PgQuery__Node* src = m->source_relation;
  if (src->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
    source_name = src->range_var->alias && src->range_var->alias->aliasname
                      ? src->range_var->alias->aliasname
                      : src->range_var->relname;
  else if (src->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT &&
           src->range_subselect->alias)
    source_name = src->range_subselect->alias->aliasname;
  if (source_name == target_name) {
    *error =
        Err("42712", "name \"" + target_name + "\" specified more than once");
    error->detail =
        "The name is used both as MERGE target table and data source.";
    return false;
  }
  bool terminal[2] = {false, false};
  for (size_t i = 0; i < m->n_merge_when_clauses; i++) {
    const PgQuery__MergeWhenClause* w =
        m->merge_when_clauses[i]->merge_when_clause;
    int kind = w->matched ? 0 : 1;
    if (terminal[kind]) {
      *error = Err("42601",
                   "unreachable WHEN clause specified after unconditional "
                   "WHEN clause");
      return false;
    }
    if (!w->condition) terminal[kind] = true;
  }

  auto arena = std::make_shared<NodeArena>();
  auto merge = std::make_shared<MergePlan>();
  merge->nodes = arena;
  // Every action's statement numbers its row parameters after all of the
  // MERGE's own.
  size_t params = static_cast<size_t>(MaxParamNumber(plan->node));
  if (plan->param_types.size() < params) plan->param_types.resize(params, 0);
  std::vector<PgQuery__Node*> earlier[2];  // conditions, matched / not
  PgQuery__Node* source = m->source_relation;
  for (size_t i = 0; i < m->n_merge_when_clauses; i++) {
    const PgQuery__MergeWhenClause* w =
        m->merge_when_clauses[i]->merge_when_clause;
    int kind = w->matched ? 0 : 1;
    std::vector<PgQuery__Node*> where;
    if (w->matched) where.push_back(m->join_condition);
    where.push_back(w->condition);
    for (auto* c : earlier[kind]) where.push_back(arena->NotTrue(c));
    if (w->condition) earlier[kind].push_back(w->condition);
    MergePlan::Action action;
    action.matched = w->matched;
    action.changes = w->command_type != PG_QUERY__CMD_TYPE__CMD_NOTHING;
    if (!action.changes) {
      merge->actions.push_back(action);
      continue;
    }
    PgQuery__Node stmt = PG_QUERY__NODE__INIT;
    switch (w->command_type) {
      case PG_QUERY__CMD_TYPE__CMD_UPDATE: {
        PgQuery__UpdateStmt u = PG_QUERY__UPDATE_STMT__INIT;
        u.relation = m->relation;
        u.n_target_list = w->n_target_list;
        u.target_list = w->target_list;
        u.n_from_clause = 1;
        u.from_clause = arena->Array({source});
        u.where_clause = arena->And(where);
        u.with_clause = m->with_clause;
        stmt.node_case = PG_QUERY__NODE__NODE_UPDATE_STMT;
        stmt.update_stmt = arena->Make(u);
        break;
      }
      case PG_QUERY__CMD_TYPE__CMD_DELETE: {
        PgQuery__DeleteStmt d = PG_QUERY__DELETE_STMT__INIT;
        d.relation = m->relation;
        d.n_using_clause = 1;
        d.using_clause = arena->Array({source});
        d.where_clause = arena->And(where);
        d.with_clause = m->with_clause;
        stmt.node_case = PG_QUERY__NODE__NODE_DELETE_STMT;
        stmt.delete_stmt = arena->Make(d);
        break;
      }
      case PG_QUERY__CMD_TYPE__CMD_INSERT: {
        // INSERT (cols) VALUES (...) / DEFAULT VALUES; a DEFAULT item
        // leaves its column to its default, as an omitted one.
        std::vector<PgQuery__Node*> cols, values;
        for (size_t k = 0; k < w->n_values; k++) {
          if (w->values[k]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
            continue;
          PgQuery__ResTarget t = PG_QUERY__RES_TARGET__INIT;
          t.val = w->values[k];
          t.location = -1;
          PgQuery__Node tn = PG_QUERY__NODE__INIT;
          tn.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
          tn.res_target = arena->Make(t);
          values.push_back(arena->Make(tn));
          if (k < w->n_target_list) cols.push_back(w->target_list[k]);
        }
        if (w->n_target_list > 0 && w->n_target_list != w->n_values) {
          *error = Err("42601",
                       w->n_target_list > w->n_values
                           ? "INSERT has more target columns than expressions"
                           : "INSERT has more expressions than target columns");
          return false;
        }
        PgQuery__SelectStmt* select = arena->Select();
        select->n_target_list = values.size();
        select->target_list = arena->Array(values);
        select->n_from_clause = 1;
        select->from_clause = arena->Array({source});
        where.insert(where.begin(),
                     arena->NoMatch(m->relation, m->join_condition));
        select->where_clause = arena->And(where);
        PgQuery__InsertStmt ins = PG_QUERY__INSERT_STMT__INIT;
        ins.relation = m->relation;
        // No column list and no values (DEFAULT VALUES, or all DEFAULT):
        // the first column, from its default.
        ins.n_cols = cols.size();
        ins.cols = arena->Array(cols);
        ins.select_stmt = arena->Node(select);
        ins.with_clause = m->with_clause;
        ins.override = w->override;
        stmt.node_case = PG_QUERY__NODE__NODE_INSERT_STMT;
        stmt.insert_stmt = arena->Make(ins);
        break;
      }
      default:
        *error = Err("0A000", "this MERGE action is not supported");
        return false;
    }
    auto sub = std::make_shared<Plan>();
    sub->tree = plan->tree;
    sub->node = arena->Make(stmt);
    sub->text = plan->text;
    sub->simple = plan->simple;
    sub->param_types = plan->param_types;
    sub->writes = true;
    bool ok = stmt.node_case == PG_QUERY__NODE__NODE_UPDATE_STMT
                  ? AnalyzeUpdate(sub.get(), error)
              : stmt.node_case == PG_QUERY__NODE__NODE_DELETE_STMT
                  ? AnalyzeDelete(sub.get(), error)
                  : AnalyzeInsert(sub.get(), error);
    if (!ok) {
      // NOT MATCHED reads no target row: PostgreSQL's words for naming it.
      std::string target = m->relation->alias && m->relation->alias->aliasname
                               ? m->relation->alias->aliasname
                               : m->relation->relname;
      if (!w->matched && error->sqlstate == "42P01" &&
          error->message ==
              "missing FROM-clause entry for table \"" + target + "\"") {
        error->message = "invalid reference to FROM-clause entry for table \"" +
                         target + "\"";
        error->hint = "There is an entry for table \"" + target +
                      "\", but it cannot be referenced from this part of the "
                      "query.";
      }
      return false;
    }
    plan->param_types = sub->param_types;
    action.plan = sub;
    merge->actions.push_back(action);
  }
  // A parameter typed by a later action: the earlier ones take it too.
  for (auto& a : merge->actions)
    if (a.plan) a.plan->param_types = plan->param_types;
  NoteAnalysed(plan);
  plan->merge = merge;
  return true;
}

bool SessionImpl::RunMerge(PortalImpl* portal, PgError* error) {
  const MergePlan& merge = *portal->plan->merge;
  bool counters = false;
  for (const auto& a : merge.actions)
    counters = counters || (a.plan && a.plan->dml->counters);
  if (!StartDml(portal, "MERGE", counters, error)) return false;
  struct EndWrite {
    SessionImpl* s;
    ~EndWrite() { s->EndWriteStatement(); }
  } end_write{this};
  // Every action reads its rows before any changes one.
  std::vector<DmlRows> rows(merge.actions.size());
  std::unordered_map<int64_t, int> changed;
  for (size_t i = 0; i < merge.actions.size(); i++) {
    const MergePlan::Action& a = merge.actions[i];
    if (!a.plan) continue;
    if (!CollectDml(portal, *a.plan->dml, /*merge=*/true, &rows[i], error))
      return false;
    for (const auto& t : rows[i].targets) {
      if (++changed[t.rid] > 1) {
        *error = Err("21000", "MERGE command cannot affect row a second time");
        error->hint =
            "Ensure that not more than one source row matches any one target "
            "row.";
        return false;
      }
    }
  }
  int64_t count = 0;
  for (size_t i = 0; i < merge.actions.size(); i++) {
    const MergePlan::Action& a = merge.actions[i];
    if (a.plan && !ApplyDml(portal, *a.plan->dml, rows[i], &count, error))
      return false;
  }
  portal->final_result = Tag("MERGE " + std::to_string(count));
  return true;
}

}  // namespace kova::planner
