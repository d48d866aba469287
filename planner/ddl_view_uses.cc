// What a view's query reads (catalog::View::uses), for the dependency
// checks of DROP TABLE / VIEW / COLUMN and ALTER COLUMN TYPE. PostgreSQL
// records these in pg_depend when it stores the view's rule; Kova derives
// them from the parse tree: every relation named in FROM, and the columns
// of it that the query names (qualified by the relation's name or alias,
// or unqualified and present in it), all of them for `*` or a whole-row
// reference.
#include <algorithm>
#include <set>

#include "planner/ddl_alter_internal.h"

namespace kova::planner {

namespace {

struct ReadRelation {
  catalog::ViewUse use;
  std::string alias;  // the name the query refers to it by
  std::vector<std::string> all_columns;
};

void AddColumn(ReadRelation* r, const std::string& column) {
  auto& cols = r->use.columns;
  if (std::find(cols.begin(), cols.end(), column) == cols.end())
    cols.push_back(column);
}

std::string StringOf(const PgQuery__Node* n) {
  return n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : "";
}

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<catalog::ViewUse> ViewUses(
    const PgQuery__Node* query, const catalog::Catalog& cat,
    const std::function<std::string(const char*, const std::string&)>&
        lookup_schema) {
  auto* root =
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(query));
  std::set<std::string> cte_names;
  VisitParseNodes(root, [&](PgQuery__Node* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR &&
        n->common_table_expr->ctename)
      cte_names.insert(n->common_table_expr->ctename);
  });
  std::vector<ReadRelation> relations;
  VisitParseNodes(root, [&](PgQuery__Node* n) {
    if (n->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) return;
    const PgQuery__RangeVar* rv = n->range_var;
    std::string name = rv->relname ? rv->relname : "";
    bool qualified = rv->schemaname && *rv->schemaname;
    if (!qualified && cte_names.count(name)) return;
    std::string schema = lookup_schema(rv->schemaname, name);
    ReadRelation r;
    r.use.schema = schema;
    r.use.name = name;
    r.alias = rv->alias && rv->alias->aliasname ? rv->alias->aliasname : name;
    if (const catalog::Table* t = cat.FindTable(schema, name)) {
      for (const auto& c : t->columns) r.all_columns.push_back(c.name);
    } else if (const catalog::View* v = cat.FindView(schema, name)) {
      for (const auto& c : v->columns) r.all_columns.push_back(c.name);
    } else {
      return;
    }
    relations.push_back(std::move(r));
  });
  auto everything = [](ReadRelation* r) {
    for (const auto& c : r->all_columns) AddColumn(r, c);
  };
  VisitParseNodes(root, [&](PgQuery__Node* n) {
    std::vector<std::string> fields;
    bool star = false;
    if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
      const PgQuery__ColumnRef* c = n->column_ref;
      for (size_t i = 0; i < c->n_fields; i++) {
        if (c->fields[i]->node_case == PG_QUERY__NODE__NODE_A_STAR)
          star = true;
        else if (c->fields[i]->node_case == PG_QUERY__NODE__NODE_STRING)
          fields.push_back(c->fields[i]->string->sval);
      }
    } else if (n->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR) {
      // JOIN ... USING (a): both sides' a.
      const PgQuery__JoinExpr* j = n->join_expr;
      for (size_t i = 0; i < j->n_using_clause; i++)
        for (auto& r : relations)
          if (Has(r.all_columns, StringOf(j->using_clause[i])))
            AddColumn(&r, StringOf(j->using_clause[i]));
      // NATURAL JOIN: the columns both sides share (all of them, to be safe).
      if (j->is_natural)
        for (auto& r : relations) everything(&r);
      return;
    } else {
      return;
    }
    if (star && fields.empty()) {
      for (auto& r : relations) everything(&r);
      return;
    }
    if (fields.empty()) return;
    const std::string& last = fields.back();
    for (auto& r : relations) {
      if (star) {
        if (last == r.alias) everything(&r);
        continue;
      }
      if (fields.size() >= 2) {
        // t.col (or schema.t.col, or t.col.field of a composite).
        const std::string& q = fields[fields.size() - 2];
        if (q == r.alias && Has(r.all_columns, last)) AddColumn(&r, last);
        if (fields[0] == r.alias && Has(r.all_columns, fields[1]))
          AddColumn(&r, fields[1]);
        continue;
      }
      if (Has(r.all_columns, last))
        AddColumn(&r, last);
      else if (last == r.alias)
        everything(&r);  // a whole-row reference
    }
  });
  // One use per relation, columns in the relation's order.
  std::vector<catalog::ViewUse> uses;
  for (auto& r : relations) {
    auto same = [&](const catalog::ViewUse& u) {
      return u.schema == r.use.schema && u.name == r.use.name;
    };
    auto it = std::find_if(uses.begin(), uses.end(), same);
    if (it == uses.end()) {
      uses.push_back({r.use.schema, r.use.name, {}});
      it = uses.end() - 1;
    }
    for (const auto& c : r.use.columns)
      if (!Has(it->columns, c)) it->columns.push_back(c);
  }
  for (auto& u : uses) {
    std::vector<std::string> all;
    if (const catalog::Table* t = cat.FindTable(u.schema, u.name))
      for (const auto& c : t->columns) all.push_back(c.name);
    else if (const catalog::View* v = cat.FindView(u.schema, u.name))
      for (const auto& c : v->columns) all.push_back(c.name);
    std::vector<std::string> ordered;
    for (const auto& c : all)
      if (Has(u.columns, c)) ordered.push_back(c);
    u.columns = std::move(ordered);
  }
  return uses;
}

bool MoveViewUse(catalog::View* view, const std::string& schema,
                 const std::string& name, const std::string& new_schema,
                 const std::string& new_name) {
  bool changed = false;
  for (auto& use : view->uses) {
    if (use.schema != schema || use.name != name) continue;
    use.schema = new_schema;
    use.name = new_name;
    changed = true;
  }
  return changed;
}

bool RenameViewUseColumn(catalog::View* view, const std::string& schema,
                         const std::string& name, const std::string& column,
                         const std::string& new_column) {
  bool changed = false;
  for (auto& use : view->uses) {
    if (use.schema != schema || use.name != name) continue;
    for (auto& c : use.columns) {
      if (c != column) continue;
      c = new_column;
      changed = true;
    }
  }
  return changed;
}

}  // namespace kova::planner

namespace kova::planner {

std::string RenameQueryColumn(const catalog::View& view,
                              const catalog::Catalog& cat,
                              const std::string& schema,
                              const std::string& name, const std::string& from,
                              const std::string& to) {
  bool reads_it = false;
  for (const auto& use : view.uses)
    reads_it |= use.schema == schema && use.name == name;
  if (!reads_it) return view.query;
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse(view.query, &tree, &syntax) || tree->size() != 1)
    return view.query;
  PgQuery__Node* root = tree->statement(0).stmt;
  // The names the query refers to the table by, and whether another
  // relation it reads has a column of that name (then an unqualified
  // reference may be that one's, and is left alone).
  std::set<std::string> qualifiers;
  bool other_has_column = false;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(root), [&](PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) return;
        const PgQuery__RangeVar* rv = n->range_var;
        std::string rs =
            rv->schemaname && *rv->schemaname ? rv->schemaname : "";
        bool it = name == rv->relname && (rs.empty() || rs == schema);
        if (it) {
          qualifiers.insert(rv->alias && rv->alias->aliasname
                                ? rv->alias->aliasname
                                : rv->relname);
          return;
        }
        const catalog::Table* other =
            cat.FindTable(rs.empty() ? "public" : rs, rv->relname);
        if (other && other->FindColumn(from)) other_has_column = true;
      });
  if (qualifiers.empty()) return view.query;
  std::vector<std::pair<PgQuery__String*, char*>> renamed;
  std::vector<PgQuery__ResTarget*> named;
  std::set<const PgQuery__Node*> renamed_refs;
  std::string to_text = to, from_text = from;
  VisitParseNodes(reinterpret_cast<ProtobufCMessage*>(root),
                  [&](PgQuery__Node* n) {
                    if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
                      PgQuery__ColumnRef* ref = n->column_ref;
                      if (ref->n_fields == 0 || ref->n_fields > 2) return;
                      PgQuery__Node* last = ref->fields[ref->n_fields - 1];
                      if (last->node_case != PG_QUERY__NODE__NODE_STRING ||
                          from != last->string->sval)
                        return;
                      if (ref->n_fields == 2) {
                        const PgQuery__Node* q = ref->fields[0];
                        if (q->node_case != PG_QUERY__NODE__NODE_STRING ||
                            !qualifiers.count(q->string->sval))
                          return;
                      } else if (other_has_column) {
                        return;
                      }
                      renamed.emplace_back(last->string, last->string->sval);
                      last->string->sval = to_text.data();
                      renamed_refs.insert(n);
                      return;
                    }
                    // A renamed column that named an output column keeps that
                    // name, as a view's columns keep theirs in PostgreSQL.
                    if (n->node_case == PG_QUERY__NODE__NODE_RES_TARGET) {
                      PgQuery__ResTarget* rt = n->res_target;
                      if ((!rt->name || !*rt->name) && rt->val &&
                          renamed_refs.count(rt->val)) {
                        named.push_back(rt);
                        rt->name = from_text.data();
                      }
                    }
                  });
  if (renamed.empty()) return view.query;
  std::string out = DeparseSelect(root);
  for (auto& [s, original] : renamed) s->sval = original;
  for (PgQuery__ResTarget* rt : named) rt->name = nullptr;
  return out.empty() ? view.query : out;
}

}  // namespace kova::planner
