// INSERT, UPDATE and DELETE on simple views, as PostgreSQL's automatically
// updatable views: a view over one table whose select list names columns
// of it, renamed or not (or is *), with at most a WHERE. The statement is
// rewritten onto the table: the view's WHERE joins an UPDATE's or DELETE's own,
// an INSERT without a column list lists the view's columns, RETURNING * returns
// the view's columns. Columns the view does not show are not the statement's
// (42703, as PostgreSQL). Other views stay refused with 0A000.

#include <algorithm>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "planner/ddl_alter_internal.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

std::string Str(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                          : "";
}

// The view's table, WHERE and column names when it is simple.
struct SimpleView {
  const PgQuery__RangeVar* base = nullptr;
  const PgQuery__Node* where = nullptr;
  std::vector<std::string> columns;       // empty: *
  std::vector<std::string> base_columns;  // the table's column of each
};

bool IsSimple(const PgQuery__SelectStmt* s, SimpleView* out) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE || s->with_clause ||
      s->n_distinct_clause || s->n_group_clause || s->having_clause ||
      s->n_window_clause || s->limit_count || s->limit_offset ||
      s->n_values_lists || s->n_locking_clause || s->into_clause ||
      s->n_from_clause != 1 ||
      s->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
    return false;
  out->base = s->from_clause[0]->range_var;
  out->where = s->where_clause;
  for (size_t i = 0; i < s->n_target_list; i++) {
    const PgQuery__ResTarget* t = s->target_list[i]->res_target;
    if (!t->val || t->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
      return false;
    const PgQuery__ColumnRef* ref = t->val->column_ref;
    const PgQuery__Node* last = ref->fields[ref->n_fields - 1];
    if (last->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      if (s->n_target_list != 1 || ref->n_fields != 1) return false;
      return true;  // *
    }
    std::string name = Str(last);
    out->base_columns.push_back(name);
    out->columns.push_back(t->name && *t->name ? t->name : name);
  }
  // The WHERE names the table's columns unqualified (the statement's own
  // qualifiers name the view).
  bool plain = true;
  if (s->where_clause)
    VisitParseNodes(reinterpret_cast<ProtobufCMessage*>(
                        const_cast<PgQuery__Node*>(s->where_clause)),
                    [&](PgQuery__Node* n) {
                      if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
                          n->column_ref->n_fields != 1)
                        plain = false;
                      if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
                        plain = false;
                    });
  return plain;
}

// Column references of `node` outside its subqueries.
void OwnColumnRefs(const PgQuery__Node* node,
                   std::vector<const PgQuery__ColumnRef*>* out) {
  if (!node) return;
  std::set<const PgQuery__ColumnRef*> inside;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_SUB_LINK) return;
        VisitParseNodes(reinterpret_cast<ProtobufCMessage*>(n),
                        [&](PgQuery__Node* m) {
                          if (m->node_case == PG_QUERY__NODE__NODE_COLUMN_REF)
                            inside.insert(m->column_ref);
                        });
      });
  if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
    out->push_back(node->column_ref);
    return;
  }
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
            !inside.count(n->column_ref))
          out->push_back(n->column_ref);
      });
}

// Why PostgreSQL itself refuses to change a view through its query (the
// DETAIL of its 55000), or "" when it would not (view_query_is_auto_updatable).
std::string NotUpdatableReason(const PgQuery__SelectStmt* s) {
  if (s->n_distinct_clause)
    return "Views containing DISTINCT are not automatically updatable.";
  if (s->n_group_clause)
    return "Views containing GROUP BY are not automatically updatable.";
  if (s->having_clause)
    return "Views containing HAVING are not automatically updatable.";
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
    return "Views containing UNION, INTERSECT, or EXCEPT are not "
           "automatically updatable.";
  if (s->with_clause)
    return "Views containing WITH are not automatically updatable.";
  if (s->limit_count || s->limit_offset)
    return "Views containing LIMIT or OFFSET are not automatically "
           "updatable.";
  bool aggregate = false, window = false;
  for (size_t i = 0; i < s->n_target_list; i++) {
    const PgQuery__ResTarget* t = s->target_list[i]->res_target;
    if (!t->val) continue;
    VisitParseNodes(
        reinterpret_cast<ProtobufCMessage*>(t->val), [&](PgQuery__Node* n) {
          if (n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return;
          const PgQuery__FuncCall* f = n->func_call;
          std::string name = sql::JoinNames(f->funcname, f->n_funcname);
          if (name.rfind("pg_catalog.", 0) == 0) name = name.substr(11);
          if (f->over)
            window = true;
          else if (f->agg_star || expr_detail::IsAggregateName(name))
            aggregate = true;
        });
    if (t->val->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
      const PgQuery__FuncCall* f = t->val->func_call;
      if (f->over)
        window = true;
      else if (f->agg_star || expr_detail::IsAggregateName(
                                  sql::JoinNames(f->funcname, f->n_funcname)))
        aggregate = true;
    }
  }
  if (aggregate)
    return "Views that return aggregate functions are not automatically "
           "updatable.";
  if (window)
    return "Views that return window functions are not automatically "
           "updatable.";
  if (s->n_values_lists || s->n_from_clause != 1 ||
      (s->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR))
    return "Views that do not select from a single table or view are not "
           "automatically updatable.";
  return "";
}

}  // namespace

bool SessionImpl::RewriteViewDml(Plan* plan, PgError* error) {
  const PgQuery__Node* node = plan->node;
  const PgQuery__RangeVar* rv = nullptr;
  const PgQuery__WithClause* with = nullptr;
  const char* verb = "";
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      rv = node->insert_stmt->relation;
      with = node->insert_stmt->with_clause;
      verb = "insert into";
      break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      rv = node->update_stmt->relation;
      with = node->update_stmt->with_clause;
      verb = "update";
      break;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      rv = node->delete_stmt->relation;
      with = node->delete_stmt->with_clause;
      verb = "delete from";
      break;
    default:
      return true;
  }
  if (!rv) return true;
  if (!LoadCatalog(error)) return false;
  CompileContext context = LookupContext();
  const catalog::Table* table = nullptr;
  const catalog::View* view = nullptr;
  PgError lookup;
  if (!QueryCompiler::LookupRelation(&context, rv, &table, &view, &lookup) ||
      !view)
    return true;  // the statement's own analysis reports it
  std::unique_ptr<sql::ParseTree> def;
  sql::SyntaxError syntax;
  SimpleView simple;
  if (!sql::ParseTree::Parse(view->query, &def, &syntax) || def->size() != 1 ||
      def->statement(0).stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    return true;
  const PgQuery__SelectStmt* query = def->statement(0).stmt->select_stmt;
  std::string reason = NotUpdatableReason(query);
  if (!reason.empty()) {
    static const char* const kAction[][2] = {{"inserting into", "INSERT"},
                                             {"updating", "UPDATE"},
                                             {"deleting from", "DELETE"}};
    int k = node->node_case == PG_QUERY__NODE__NODE_INSERT_STMT   ? 0
            : node->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ? 1
                                                                  : 2;
    *error = Err("55000", "cannot " + std::string(verb) + " view \"" +
                              view->name + "\"");
    error->detail = reason;
    error->hint = std::string("To enable ") + kAction[k][0] +
                  " the view, provide an INSTEAD OF " + kAction[k][1] +
                  " trigger or an unconditional ON " + kAction[k][1] +
                  " DO INSTEAD rule.";
    return false;
  }
  // Updatable to PostgreSQL, but beyond what Kova rewrites (renamed or
  // computed columns, a view over a view, a qualified WHERE): refused by
  // the statement's own analysis, with 0A000.
  if (!IsSimple(query, &simple)) return true;
  // The view's table (a table, not another view).
  const catalog::Table* base = nullptr;
  const catalog::View* base_view = nullptr;
  PgError ignored;
  if (!QueryCompiler::LookupRelation(&context, simple.base, &base, &base_view,
                                     &ignored) ||
      !base)
    return true;
  if (with) {
    *error = Err("0A000", std::string(verb) +
                              " a view with a WITH clause is "
                              "not supported yet");
    return false;
  }
  std::vector<std::string> columns = simple.columns;
  std::vector<std::string> base_columns = simple.base_columns;
  if (columns.empty())
    for (const auto& c : view->columns) {
      columns.push_back(c.name);
      base_columns.push_back(c.name);
    }
  auto shown = [&](const std::string& c) {
    return std::find(columns.begin(), columns.end(), c) != columns.end();
  };
  // The table's column a view column shows.
  auto base_of = [&](const std::string& c) -> const std::string& {
    for (size_t i = 0; i < columns.size(); i++)
      if (columns[i] == c) return base_columns[i];
    return c;
  };
  // Column references renamed in place for the deparse, then restored
  // (the parse tree owns its strings).
  std::vector<std::pair<PgQuery__String*, char*>> renamed;
  struct Restore {
    std::vector<std::pair<PgQuery__String*, char*>>* list;
    ~Restore() {
      for (auto& [str, old] : *list) str->sval = old;
    }
  } restore{&renamed};
  std::string alias =
      rv->alias && rv->alias->aliasname ? rv->alias->aliasname : view->name;
  auto not_shown = [&](const std::string& c, int location) {
    *error = Err("42703",
                 "column \"" + c + "\" of relation \"" + view->name +
                     "\" does not exist",
                 location);
    return false;
  };
  // Column references the statement makes of the view's row.
  auto check_refs = [&](const PgQuery__Node* n) {
    std::vector<const PgQuery__ColumnRef*> refs;
    OwnColumnRefs(n, &refs);
    for (const PgQuery__ColumnRef* ref : refs) {
      const PgQuery__Node* last = ref->fields[ref->n_fields - 1];
      if (last->node_case != PG_QUERY__NODE__NODE_STRING) continue;
      std::string qualifier =
          ref->n_fields >= 2 ? Str(ref->fields[ref->n_fields - 2]) : "";
      if (!qualifier.empty() && qualifier != alias) continue;
      std::string c = Str(last);
      if (!shown(c) && base->FindColumn(c)) {
        *error = Err("42703",
                     qualifier.empty()
                         ? "column \"" + c + "\" does not exist"
                         : "column " + qualifier + "." + c + " does not exist",
                     ref->location);
        return false;
      }
      const std::string& b = base_of(c);
      if (shown(c) && b != c) {
        renamed.emplace_back(last->string, last->string->sval);
        last->string->sval = const_cast<char*>(b.c_str());
      }
    }
    return true;
  };
  PgQuery__RangeVar target = *rv;
  target.schemaname = const_cast<char*>(base->schema.c_str());
  target.relname = const_cast<char*>(base->name.c_str());
  PgQuery__Alias target_alias = PG_QUERY__ALIAS__INIT;
  target_alias.aliasname = const_cast<char*>(alias.c_str());
  target.alias = &target_alias;
  // RETURNING *: the view's columns.
  std::vector<PgQuery__String> names(columns.size());
  std::vector<PgQuery__Node> name_nodes(columns.size());
  std::vector<PgQuery__Node*> name_ptrs(columns.size());
  std::vector<PgQuery__ColumnRef> col_refs(columns.size());
  std::vector<PgQuery__Node> col_ref_nodes(columns.size());
  std::vector<PgQuery__ResTarget> col_targets(columns.size());
  std::vector<PgQuery__Node> col_target_nodes(columns.size());
  std::vector<PgQuery__Node*> col_target_ptrs(columns.size());
  std::vector<PgQuery__Node*> name_lists(columns.size());
  for (size_t i = 0; i < columns.size(); i++) {
    names[i] = PG_QUERY__STRING__INIT;
    names[i].sval = const_cast<char*>(base_columns[i].c_str());
    name_nodes[i] = PG_QUERY__NODE__INIT;
    name_nodes[i].node_case = PG_QUERY__NODE__NODE_STRING;
    name_nodes[i].string = &names[i];
    name_ptrs[i] = &name_nodes[i];
    col_refs[i] = PG_QUERY__COLUMN_REF__INIT;
    col_refs[i].n_fields = 1;
    col_refs[i].fields = &name_ptrs[i];
    col_ref_nodes[i] = PG_QUERY__NODE__INIT;
    col_ref_nodes[i].node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
    col_ref_nodes[i].column_ref = &col_refs[i];
    col_targets[i] = PG_QUERY__RES_TARGET__INIT;
    if (columns[i] != base_columns[i])
      col_targets[i].name = const_cast<char*>(columns[i].c_str());
    col_target_nodes[i] = PG_QUERY__NODE__INIT;
    col_target_nodes[i].node_case = PG_QUERY__NODE__NODE_RES_TARGET;
    col_target_nodes[i].res_target = &col_targets[i];
    col_target_ptrs[i] = &col_target_nodes[i];
  }
  // RETURNING targets that name a renamed column, with their output name
  // (deque: stable addresses).
  std::deque<std::string> kept_names;
  std::deque<PgQuery__ResTarget> renamed_targets;
  std::deque<PgQuery__Node> renamed_target_nodes;
  // INSERT's column list (names) or RETURNING's targets (values).
  auto returning_targets = [&](PgQuery__Node** list, size_t n,
                               std::vector<PgQuery__Node*>* out) {
    for (size_t i = 0; i < n; i++) {
      const PgQuery__ResTarget* t = list[i]->res_target;
      bool star = t->val &&
                  t->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
                  t->val->column_ref->fields[t->val->column_ref->n_fields - 1]
                          ->node_case == PG_QUERY__NODE__NODE_A_STAR;
      if (!star) {
        bool bare = t->val &&
                    t->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
                    (!t->name || !*t->name);
        std::string shown_name =
            bare ? Str(t->val->column_ref
                           ->fields[t->val->column_ref->n_fields - 1])
                 : "";
        if (!check_refs(t->val)) return false;
        if (bare && shown(shown_name) && base_of(shown_name) != shown_name) {
          // The output column keeps the view's name.
          kept_names.push_back(shown_name);
          renamed_targets.push_back(*t);
          renamed_targets.back().name =
              const_cast<char*>(kept_names.back().c_str());
          renamed_target_nodes.push_back(*list[i]);
          renamed_target_nodes.back().res_target = &renamed_targets.back();
          out->push_back(&renamed_target_nodes.back());
          continue;
        }
        out->push_back(list[i]);
        continue;
      }
      for (size_t c = 0; c < columns.size(); c++) {
        col_targets[c].val = &col_ref_nodes[c];
        out->push_back(col_target_ptrs[c]);
      }
    }
    return true;
  };
  std::vector<PgQuery__Node*> returning;
  PgQuery__Node stmt = *node;
  PgQuery__InsertStmt ins;
  PgQuery__UpdateStmt up;
  PgQuery__DeleteStmt del;
  PgQuery__BoolExpr both = PG_QUERY__BOOL_EXPR__INIT;
  PgQuery__Node both_node = PG_QUERY__NODE__INIT;
  PgQuery__Node* both_args[2];
  // The view's WHERE ANDed to the statement's.
  auto with_view_where = [&](PgQuery__Node* own) -> PgQuery__Node* {
    if (!simple.where) return own;
    if (!own) return const_cast<PgQuery__Node*>(simple.where);
    both.boolop = PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
    both_args[0] = own;
    both_args[1] = const_cast<PgQuery__Node*>(simple.where);
    both.n_args = 2;
    both.args = both_args;
    both.location = -1;
    both_node.node_case = PG_QUERY__NODE__NODE_BOOL_EXPR;
    both_node.bool_expr = &both;
    return &both_node;
  };
  std::vector<PgQuery__ResTarget> insert_cols(columns.size());
  std::vector<PgQuery__Node> insert_col_nodes(columns.size());
  std::vector<PgQuery__Node*> insert_col_ptrs(columns.size());
  // Column lists with the table's names (alive until the deparse).
  std::deque<PgQuery__ResTarget> named_cols, set_targets;
  std::deque<PgQuery__Node> named_col_nodes, set_nodes;
  std::vector<PgQuery__Node*> named_col_ptrs, set_ptrs;
  if (node->node_case == PG_QUERY__NODE__NODE_INSERT_STMT) {
    ins = *node->insert_stmt;
    ins.relation = &target;
    if (ins.on_conflict_clause) {
      *error = Err("0A000",
                   "INSERT ... ON CONFLICT into a view is not supported yet");
      return false;
    }
    for (size_t i = 0; i < ins.n_cols; i++) {
      const PgQuery__ResTarget* c = ins.cols[i]->res_target;
      if (!shown(c->name)) return not_shown(c->name, c->location);
      named_cols.push_back(*c);
      named_cols.back().name = const_cast<char*>(base_of(c->name).c_str());
      named_col_nodes.push_back(*ins.cols[i]);
      named_col_nodes.back().res_target = &named_cols.back();
      named_col_ptrs.push_back(&named_col_nodes.back());
    }
    if (ins.n_cols) ins.cols = named_col_ptrs.data();
    if (ins.n_cols == 0) {
      for (size_t i = 0; i < columns.size(); i++) {
        insert_cols[i] = PG_QUERY__RES_TARGET__INIT;
        insert_cols[i].name = const_cast<char*>(base_columns[i].c_str());
        insert_cols[i].location = -1;
        insert_col_nodes[i] = PG_QUERY__NODE__INIT;
        insert_col_nodes[i].node_case = PG_QUERY__NODE__NODE_RES_TARGET;
        insert_col_nodes[i].res_target = &insert_cols[i];
        insert_col_ptrs[i] = &insert_col_nodes[i];
      }
      ins.n_cols = columns.size();
      ins.cols = insert_col_ptrs.data();
    }
    if (!returning_targets(ins.returning_list, ins.n_returning_list,
                           &returning))
      return false;
    ins.n_returning_list = returning.size();
    ins.returning_list = returning.data();
    stmt.insert_stmt = &ins;
  } else if (node->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT) {
    up = *node->update_stmt;
    if (up.n_from_clause) {
      *error = Err("0A000", "UPDATE ... FROM on a view is not supported yet");
      return false;
    }
    up.relation = &target;
    for (size_t i = 0; i < up.n_target_list; i++) {
      const PgQuery__ResTarget* t = up.target_list[i]->res_target;
      if (!shown(t->name)) return not_shown(t->name, t->location);
      if (!check_refs(t->val)) return false;
      set_targets.push_back(*t);
      set_targets.back().name = const_cast<char*>(base_of(t->name).c_str());
      set_nodes.push_back(*up.target_list[i]);
      set_nodes.back().res_target = &set_targets.back();
      set_ptrs.push_back(&set_nodes.back());
    }
    up.target_list = set_ptrs.data();
    if (!check_refs(up.where_clause)) return false;
    up.where_clause = with_view_where(up.where_clause);
    if (!returning_targets(up.returning_list, up.n_returning_list, &returning))
      return false;
    up.n_returning_list = returning.size();
    up.returning_list = returning.data();
    stmt.update_stmt = &up;
  } else {
    del = *node->delete_stmt;
    if (del.n_using_clause) {
      *error = Err("0A000", "DELETE ... USING on a view is not supported yet");
      return false;
    }
    del.relation = &target;
    if (!check_refs(del.where_clause)) return false;
    del.where_clause = with_view_where(del.where_clause);
    if (!returning_targets(del.returning_list, del.n_returning_list,
                           &returning))
      return false;
    del.n_returning_list = returning.size();
    del.returning_list = returning.data();
    stmt.delete_stmt = &del;
  }
  // (DeparseSelect deparses any statement node.)
  std::string text = DeparseSelect(&stmt);
  std::unique_ptr<sql::ParseTree> tree;
  if (text.empty() || !sql::ParseTree::Parse(text, &tree, &syntax) ||
      tree->size() != 1) {
    *error = Err("XX000",
                 "cannot rewrite the statement on view \"" + view->name + "\"");
    return false;
  }
  plan->tree = std::shared_ptr<sql::ParseTree>(std::move(tree));
  plan->node = plan->tree->statement(0).stmt;
  plan->text = text;
  return true;
}

}  // namespace kova::planner
