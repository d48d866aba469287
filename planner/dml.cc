// INSERT, UPDATE and DELETE: analysis into a DmlPlan and the row pipeline
// (defaults, autoincrement fields, NOT NULL and CHECK constraints, unique
// violations as PostgreSQL reports them, ON CONFLICT, RETURNING).
#include "planner/dml.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "planner/expr_internal.h"
#include "planner/index_expr.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner {
using expr_detail::IsInteger;
using expr_detail::IsNumber;
using expr_detail::IsSystemColumnName;
using expr_detail::IsText;
using expr_detail::StartLocation;
using expr_detail::TypeName;

namespace {

// The AND-ed terms of a condition, each as sql::DeparseExpr writes it.
void AndedTerms(const PgQuery__Node* n,
                std::vector<const PgQuery__Node*>* terms) {
  if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
      n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
    for (size_t i = 0; i < n->bool_expr->n_args; i++)
      AndedTerms(n->bool_expr->args[i], terms);
    return;
  }
  terms->push_back(n);
}

// `expr op constant` with op one of < <= = >= > (flipped when the constant
// is on the left): the pieces PostgreSQL's btree proofs compare.
struct Comparison {
  std::string expr, op;
  double value = 0;
};
bool AsComparison(const PgQuery__Node* n, Comparison* c) {
  if (n->node_case != PG_QUERY__NODE__NODE_A_EXPR) return false;
  const PgQuery__AExpr* a = n->a_expr;
  if (a->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || a->n_name != 1 ||
      !a->lexpr || !a->rexpr ||
      a->name[0]->node_case != PG_QUERY__NODE__NODE_STRING)
    return false;
  std::string op = a->name[0]->string->sval;
  auto constant = [](const PgQuery__Node* k, double* v) {
    if (k->node_case != PG_QUERY__NODE__NODE_A_CONST) return false;
    if (k->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
      *v = k->a_const->ival->ival;
      return true;
    }
    if (k->a_const->val_case == PG_QUERY__A__CONST__VAL_FVAL) {
      *v = std::strtod(k->a_const->fval->fval, nullptr);
      return true;
    }
    return false;
  };
  static const std::pair<const char*, const char*> kFlip[] = {
      {"<", ">"}, {"<=", ">="}, {"=", "="}, {">=", "<="}, {">", "<"}};
  for (const auto& [from, to] : kFlip) {
    if (op != from) continue;
    if (constant(a->rexpr, &c->value)) {
      c->expr = sql::DeparseExpr(a->lexpr);
      c->op = from;
      return true;
    }
    if (constant(a->lexpr, &c->value)) {
      c->expr = sql::DeparseExpr(a->rexpr);
      c->op = to;
      return true;
    }
  }
  return false;
}

// Whether `known` (x op1 c1) makes `needed` (x op2 c2) true.
bool ComparisonImplies(const Comparison& known, const Comparison& needed) {
  if (known.expr != needed.expr) return false;
  const double k = known.value, n = needed.value;
  const std::string &a = known.op, &b = needed.op;
  if (b == ">")
    return (a == ">" && k >= n) || ((a == ">=" || a == "=") && k > n);
  if (b == ">=") return (a == ">" || a == ">=" || a == "=") && k >= n;
  if (b == "<")
    return (a == "<" && k <= n) || ((a == "<=" || a == "=") && k < n);
  if (b == "<=") return (a == "<" || a == "<=" || a == "=") && k <= n;
  return a == "=" && b == "=" && k == n;
}

// Whether a partial index's condition (its stored text) holds wherever the
// `where` terms do: each of its AND-ed terms is one of them, or follows
// from one by comparing the same expression with constants (PostgreSQL's
// predicate_implied_by proves more).
bool PredicateImplied(const std::string& predicate,
                      const std::vector<const PgQuery__Node*>& where) {
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse("SELECT " + predicate, &tree, &syntax) ||
      tree->size() != 1)
    return false;
  std::vector<const PgQuery__Node*> needed;
  AndedTerms(
      tree->statement(0).stmt->select_stmt->target_list[0]->res_target->val,
      &needed);
  for (const PgQuery__Node* term : needed) {
    std::string text = sql::DeparseExpr(term);
    Comparison want;
    bool comparison = AsComparison(term, &want);
    bool found = false;
    for (const PgQuery__Node* w : where) {
      Comparison have;
      found = sql::DeparseExpr(w) == text ||
              (comparison && AsComparison(w, &have) &&
               ComparisonImplies(have, want));
      if (found) break;
    }
    if (!found) return false;
  }
  return true;
}

// Columns of the target row (and EXCLUDED) as row parameters.
class RowScope : public ExprScope {
 public:
  RowScope(const catalog::Table& table, std::string alias, bool excluded)
      : table_(table), alias_(std::move(alias)), excluded_(excluded) {}

  bool ResolveColumn(const PgQuery__ColumnRef* ref, std::unique_ptr<Expr>* out,
                     PgError* error) override {
    std::vector<std::string> f;
    for (size_t i = 0; i < ref->n_fields; i++) {
      const PgQuery__Node* n = ref->fields[i];
      f.push_back(n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                              : "*");
    }
    std::string column = f.back();
    std::string qualifier = f.size() >= 2 ? f[f.size() - 2] : "";
    bool excluded = false;
    // RETURNING xmax: 0 for a row inserted or updated, the transaction's
    // id for a row ON CONFLICT DO UPDATE changed or DELETE removed, as
    // PostgreSQL's row versions show (dml_run.cc sets which).
    if (column == "xmax" && table_.ColumnIndex(column) < 0 &&
        std::string(context_) == "RETURNING" &&
        (qualifier.empty() || qualifier == alias_)) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kFunction;
      e->name = "kova_returning_xmax";
      e->type = oid::kXid;
      e->location = ref->location;
      *out = std::move(e);
      return true;
    }
    // Other FROM items of UPDATE ... FROM / DELETE ... USING: their values
    // come from the scan, as extra columns.
    bool other_item = (!qualifier.empty() && qualifier != alias_ &&
                       !(excluded_ && qualifier == "excluded")) ||
                      (qualifier.empty() && table_.ColumnIndex(column) < 0);
    if (other_item && from_ && column != "*") {
      std::unique_ptr<Expr> e;
      if (!from_->ResolveColumn(ref, &e, error)) return false;
      std::string sql = from_->Emit(*e);
      size_t k = 0;
      while (k < extra_sql_->size() && (*extra_sql_)[k] != sql) k++;
      if (k == extra_sql_->size()) {
        extra_sql_->push_back(sql);
        extra_types_->push_back(e->type);
      }
      auto p = std::make_unique<Expr>();
      p->kind = Expr::Kind::kParam;
      p->param = -1 - static_cast<int>(2 * table_.columns.size() + k);
      p->type = e->type;
      p->typmod = e->typmod;
      p->location = ref->location;
      *out = std::move(p);
      return true;
    }
    if (!qualifier.empty()) {
      if (excluded_ && qualifier == "excluded") {
        excluded = true;
      } else if (qualifier != alias_) {
        // errorMissingRTE: the table under its alias, or EXCLUDED outside
        // ON CONFLICT DO UPDATE's SET and WHERE, exist but are out of reach.
        bool renamed = qualifier == table_.name;
        bool hidden_excluded = excluded_hidden_ && qualifier == "excluded";
        if (renamed || hidden_excluded) {
          *error = Err("42P01",
                       "invalid reference to FROM-clause entry for table \"" +
                           qualifier + "\"",
                       ref->location);
          error->hint =
              renamed ? "Perhaps you meant to reference the table alias \"" +
                            alias_ + "\"."
                      : "There is an entry for table \"excluded\", but it "
                        "cannot be referenced from this part of the query.";
          return false;
        }
        *error =
            Err("42P01",
                "missing FROM-clause entry for table \"" + qualifier + "\"",
                ref->location);
        return false;
      }
    }
    int index = table_.ColumnIndex(column);
    if (index < 0 && !excluded && column == "tableoid") {
      *out = expr_detail::Const(oid::kOid, std::to_string(table_.oid),
                                ref->location);
      return true;
    }
    if (index < 0 && !excluded && IsSystemColumnName(column)) {
      *error =
          Err("0A000", "system column \"" + column + "\" is not supported here",
              ref->location);
      return false;
    }
    if (column == "*" || index < 0) {
      if (column == "*") {
        *error = Err("0A000", "a row value (*) is not supported here",
                     ref->location);
      } else if (!qualifier.empty()) {
        *error = Err("42703",
                     "column " + qualifier + "." + column + " does not exist",
                     ref->location);
      } else {
        *error = Err("42703", "column \"" + column + "\" does not exist",
                     ref->location);
      }
      return false;
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kParam;
    int slot = index + (excluded ? static_cast<int>(table_.columns.size()) : 0);
    e->param = -1 - slot;
    e->typmod = table_.columns[index].typmod;
    e->type = user_types::BaseType(table_.columns[index].type, &e->typmod);
    if (e->type != table_.columns[index].type)
      e->domain = table_.columns[index].type;
    e->location = ref->location;
    *out = std::move(e);
    return true;
  }
  bool AggregatesAllowed(const char** context) override {
    *context = context_;
    return false;
  }
  bool AnalyzeSubLink(const PgQuery__SubLink* link, std::unique_ptr<Expr>*,
                      PgError* error) override {
    *error =
        Err("0A000", "subqueries are not supported here yet", link->location);
    return false;
  }
  const char* context_ = "RETURNING";
  // RETURNING of INSERT ... ON CONFLICT DO UPDATE: EXCLUDED exists there.
  bool excluded_hidden_ = false;
  // UPDATE/DELETE: the scan's compiler, and the extra columns it computes.
  QueryCompiler* from_ = nullptr;
  std::vector<std::string>* extra_sql_ = nullptr;
  std::vector<uint32_t>* extra_types_ = nullptr;

 private:
  const catalog::Table& table_;
  std::string alias_;
  bool excluded_;
};

// Where an expression starts in the statement text (-1 unknown).
int NodeLocation(const PgQuery__Node* n) {
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
      return n->a_const->location;
    case PG_QUERY__NODE__NODE_COLUMN_REF:
      return n->column_ref->location;
    case PG_QUERY__NODE__NODE_PARAM_REF:
      return n->param_ref->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return n->func_call->location;
    case PG_QUERY__NODE__NODE_TYPE_CAST: {
      int inner = n->type_cast->arg ? NodeLocation(n->type_cast->arg) : -1;
      return inner >= 0 ? inner : n->type_cast->location;
    }
    case PG_QUERY__NODE__NODE_A_EXPR: {
      int inner = n->a_expr->lexpr ? NodeLocation(n->a_expr->lexpr) : -1;
      return inner >= 0 ? inner : n->a_expr->location;
    }
    case PG_QUERY__NODE__NODE_SET_TO_DEFAULT:
      return n->set_to_default->location;
    case PG_QUERY__NODE__NODE_ROW_EXPR:
      return n->row_expr->location;
    case PG_QUERY__NODE__NODE_SUB_LINK:
      return n->sub_link->location;
    case PG_QUERY__NODE__NODE_RES_TARGET:
      return n->res_target->location;
    default:
      return -1;
  }
}

bool CoerceForColumn(Analyzer* analyzer, std::unique_ptr<Expr>* e,
                     const catalog::Column& col, PgError* error);

// SET a[i][j] = x or a[i:j] = array: subscripts (fields are not
// supported).
bool ArrayAssignable(const PgQuery__ResTarget* t) {
  for (size_t i = 0; i < t->n_indirection; i++) {
    const PgQuery__Node* n = t->indirection[i];
    if (n->node_case != PG_QUERY__NODE__NODE_A_INDICES) return false;
  }
  return true;
}

// The new value of the column for SET a[i][j] = value: array_assign(a, i,
// j, value), evaluated as PostgreSQL's array_set_element.
bool AssignArrayElement(QueryCompiler* compiler, const PgQuery__ResTarget* t,
                        const catalog::Column& col, std::unique_ptr<Expr> value,
                        std::unique_ptr<Expr>* out, PgError* error) {
  uint32_t element = types::ArrayElementType(col.type);
  if (!element) {
    *error = Err("42804",
                 "cannot subscript type " + TypeName(col.type) +
                     " because it does not support subscripting",
                 t->location);
    return false;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = "array_assign";
  e->type = col.type;
  e->typmod = col.typmod;
  e->location = t->location;
  auto column = std::make_unique<Expr>();
  column->kind = Expr::Kind::kColumn;
  column->type = col.type;
  column->typmod = col.typmod;
  for (const auto& entry : compiler->entries())
    if (entry.sql_alias == "t_target")
      for (const auto& c : entry.columns)
        if (c.name == col.name) column->name = c.sql;
  e->args.push_back(std::move(column));
  // A slice anywhere makes every subscript a slice (a[i] is a[1:i]); the
  // flags say which bounds were written, as for reading a slice.
  bool slice = false;
  for (size_t i = 0; i < t->n_indirection; i++)
    slice |= t->indirection[i]->a_indices->is_slice;
  std::string flags;
  for (size_t i = 0; i < t->n_indirection; i++) {
    const PgQuery__AIndices* ai = t->indirection[i]->a_indices;
    std::vector<const PgQuery__Node*> bounds = {ai->uidx};
    if (slice) {
      bounds = {ai->is_slice ? ai->lidx : nullptr, ai->uidx};
      flags += !ai->is_slice          ? 'i'
               : ai->lidx && ai->uidx ? 's'
               : ai->lidx             ? 'l'
               : ai->uidx             ? 'u'
                                      : 'n';
    }
    for (const PgQuery__Node* bound : bounds) {
      std::unique_ptr<Expr> idx;
      if (!bound) {
        auto null = std::make_unique<Expr>();
        null->kind = Expr::Kind::kConst;
        null->type = oid::kInt4;
        e->args.push_back(std::move(null));
        continue;
      }
      if (!compiler->AnalyzeExpr(bound, &idx, error) ||
          !compiler->analyzer()->Coerce(&idx, oid::kInt4, -1, error))
        return false;
      if (!IsNumber(idx->type)) {
        *error = Err("42804", "array subscript must have type integer",
                     idx->location);
        return false;
      }
      if (idx->type != oid::kInt4) {
        auto cast = std::make_unique<Expr>();
        cast->kind = Expr::Kind::kCast;
        cast->type = oid::kInt4;
        cast->args.push_back(std::move(idx));
        idx = std::move(cast);
      }
      e->args.push_back(std::move(idx));
    }
  }
  if (slice) {
    e->name = "array_assign_slice";
    e->value = flags;
    element = col.type;  // the source is an array
  }
  catalog::Column as_element = col;
  as_element.type = element;
  if (!CoerceForColumn(compiler->analyzer(), &value, as_element, error))
    return false;
  if (value->type != element) {
    auto cast = std::make_unique<Expr>();
    cast->kind = Expr::Kind::kCast;
    cast->type = element;
    cast->typmod = col.typmod;
    cast->args.push_back(std::move(value));
    value = std::move(cast);
  }
  e->args.push_back(std::move(value));
  *out = std::move(e);
  return true;
}

// Where an expression starts, as PostgreSQL's exprLocation places a cast:
// at its operand when that is written first.
// Coerces an analysed value for assignment to a column (unknowns take the
// column's type; other types must have an assignment cast).
bool CoerceForColumn(Analyzer* analyzer, std::unique_ptr<Expr>* e,
                     const catalog::Column& col, PgError* error) {
  if ((*e)->type == oid::kUnknown) {
    // The literal becomes the column's type here; its length or precision
    // is checked when the value is assigned (AssignValue), without a
    // position, as PostgreSQL's length coercion.
    // A domain's base type (its constraints and typmod apply when the value
    // is assigned).
    return analyzer->Coerce(e, user_types::BaseType(col.type), -1, error);
  }
  if (!Assignable((*e)->type, col.type)) {
    PgError err = Err("42804",
                      "column \"" + col.name + "\" is of type " +
                          types::FormatTypeName(col.type, -1) +
                          " but expression is of type " + TypeName((*e)->type),
                      StartLocation(**e));
    err.hint = "You will need to rewrite or cast the expression.";
    *error = err;
    return false;
  }
  return true;
}

std::string ParseExprText(const std::string& text,
                          std::unique_ptr<sql::ParseTree>* tree,
                          const PgQuery__Node** node) {
  sql::SyntaxError syntax;
  *node = nullptr;
  if (!sql::ParseTree::Parse("SELECT " + text, tree, &syntax) ||
      (*tree)->size() != 1)
    return syntax.message;
  const PgQuery__SelectStmt* s = (*tree)->statement(0).stmt->select_stmt;
  *node = s->target_list[0]->res_target->val;
  return "";
}

std::string RowText(const std::vector<Value>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); i++) {
    if (i) out += ", ";
    out += values[i] ? *values[i] : "null";
  }
  return out + ")";
}

}  // namespace

bool Assignable(uint32_t from, uint32_t to) {
  if (from == to) return true;
  uint32_t from_element = types::ArrayElementType(from);
  uint32_t to_element = types::ArrayElementType(to);
  if (from_element && to_element) return Assignable(from_element, to_element);
  if (user_types::IsDomain(to))
    return Assignable(from, user_types::BaseType(to));
  if (user_types::IsDomain(from))
    return Assignable(user_types::BaseType(from), to);
  // Enums: to string types by I/O conversion, nothing else.
  if (user_types::IsUserOid(from) || user_types::IsUserOid(to))
    return IsText(to) && to != oid::kUnknown;
  if (IsNumber(from) && IsNumber(to)) return true;
  if (IsText(to)) return true;  // I/O conversion casts to string types
  // From string types to json and jsonb the cast is explicit only.
  if (IsText(from) && (to == oid::kJson || to == oid::kJsonb)) return false;
  auto datetime = [](uint32_t t) {
    return t == oid::kDate || t == oid::kTimestamp || t == oid::kTimestamptz;
  };
  if (datetime(from) && datetime(to)) return true;
  if ((from == oid::kJson && to == oid::kJsonb) ||
      (from == oid::kJsonb && to == oid::kJson))
    return true;
  if (from == oid::kInterval && to == oid::kTime) return true;
  if ((from == oid::kTimestamp || from == oid::kTimestamptz) &&
      to == oid::kTime)
    return true;
  return false;
}

bool AnalyzeRowExpr(SessionHooks* hooks, const catalog::Table& table,
                    const PgQuery__Node* node, const char* context,
                    std::unique_ptr<Expr>* out, PgError* error) {
  if (!AnalyzeRowValueExpr(hooks, table, node, context, out, error))
    return false;
  Analyzer analyzer(hooks, nullptr);
  return analyzer.Coerce(out, oid::kBool, -1, error);
}

bool AnalyzeRowValueExpr(SessionHooks* hooks, const catalog::Table& table,
                         const PgQuery__Node* node, const char* context,
                         std::unique_ptr<Expr>* out, PgError* error) {
  RowScope scope(table, table.name, false);
  scope.context_ = context;
  Analyzer analyzer(hooks, nullptr);
  analyzer.set_scope(&scope);
  return analyzer.Analyze(node, out, error);
}

// The value of an expression of type `from` stored in column `col`:
// PostgreSQL's assignment cast (string types check their length as input
// does, rather than truncating as an explicit cast does).
bool AssignValue(uint32_t from, const catalog::Column& col,
                 const types::TypeContext& context, Value* value,
                 PgError* error) {
  if (!*value) return true;
  // A domain column takes its base type's assignment (constraints are
  // checked with the row).
  int32_t typmod = col.typmod;
  uint32_t to = user_types::BaseType(col.type, &typmod);
  if (from == to && typmod < 0) return true;
  std::string out;
  bool ok;
  // Assignment semantics (22001 rather than truncation), also for the
  // elements of an array.
  if ((IsText(from) && IsText(to)) ||
      (from == to && types::ArrayElementType(from)))
    ok = types::InputText(to, typmod, **value, context, &out, error);
  else
    ok = types::Cast(from, to, typmod, **value, context, &out, error);
  if (!ok) return false;
  *value = std::move(out);
  return true;
}

namespace {

bool ResolveTarget(SessionImpl* session, CompileContext* context,
                   const PgQuery__RangeVar* rv, const catalog::Table** table,
                   PgError* error) {
  const catalog::View* view;
  if (!QueryCompiler::LookupRelation(context, rv, table, &view, error))
    return false;
  if (view) {
    // Simple views were rewritten onto their table (view_dml.cc).
    *error = Err("0A000",
                 "cannot change view \"" + view->name +
                     "\": only views that select plain columns of one "
                     "table, with at most a WHERE of unqualified columns, are "
                     "updatable yet");
    return false;
  }
  (void)session;
  return true;
}

}  // namespace

// Shared by INSERT, UPDATE and DELETE analysis: CHECK constraints, column
// defaults and RETURNING, all as row expressions.
namespace {

// RETURNING *: the target table's columns, as parameters of the row.
void AppendReturningColumns(const catalog::Table& table, DmlPlan* dml,
                            std::vector<ColumnDesc>* columns) {
  for (size_t k = 0; k < table.columns.size(); k++) {
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Kind::kParam;
    e->param = -1 - static_cast<int>(k);
    e->type = table.columns[k].type;
    e->typmod = table.columns[k].typmod;
    dml->returning.push_back(e);
    ColumnDesc col;
    col.name = table.columns[k].name;
    col.type_oid = e->type;
    col.type_modifier = e->typmod;
    // A domain column is described as its base type, as PostgreSQL
    // does (an array of a domain is not a domain).
    if (user_types::IsDomain(e->type))
      col.type_oid = user_types::BaseType(e->type, &col.type_modifier);
    const types::TypeInfo* info = types::LookupType(col.type_oid);
    col.type_size = info ? info->length : -1;
    col.table_oid = table.oid;
    col.column_number = static_cast<int16_t>(k + 1);
    columns->push_back(col);
  }
}

// RETURNING item.* of an UPDATE's FROM or a DELETE's USING item: each
// column analyzed as item.column, which the scan computes.
bool ExpandReturningEntry(const RangeEntry& entry, const std::string& name,
                          int location, Analyzer* analyzer, DmlPlan* dml,
                          std::vector<ColumnDesc>* columns, PgError* error) {
  for (const auto& c : entry.columns) {
    PgQuery__String q = PG_QUERY__STRING__INIT, n = PG_QUERY__STRING__INIT;
    q.sval = const_cast<char*>(name.c_str());
    n.sval = const_cast<char*>(c.name.c_str());
    PgQuery__Node qn = PG_QUERY__NODE__INIT, nn = PG_QUERY__NODE__INIT;
    qn.node_case = PG_QUERY__NODE__NODE_STRING;
    qn.string = &q;
    nn.node_case = PG_QUERY__NODE__NODE_STRING;
    nn.string = &n;
    PgQuery__Node* fields[] = {&qn, &nn};
    PgQuery__ColumnRef ref = PG_QUERY__COLUMN_REF__INIT;
    ref.n_fields = 2;
    ref.fields = fields;
    ref.location = location;
    PgQuery__Node node = PG_QUERY__NODE__INIT;
    node.node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
    node.column_ref = &ref;
    std::unique_ptr<Expr> e;
    if (!analyzer->Analyze(&node, &e, error)) return false;
    ColumnDesc col;
    col.name = c.name;
    col.type_oid = e->type;
    col.type_modifier = e->typmod;
    const types::TypeInfo* info = types::LookupType(e->type);
    col.type_size = info ? info->length : -1;
    columns->push_back(col);
    dml->returning.push_back(std::shared_ptr<Expr>(std::move(e)));
  }
  return true;
}

}  // namespace

bool AnalyzeRowParts(SessionHooks* hooks, Plan* plan, DmlPlan* dml,
                     PgQuery__Node* const* returning, size_t n_returning,
                     std::vector<ColumnDesc>* columns, PgError* error,
                     QueryCompiler* from = nullptr) {
  const catalog::Table& table = *dml->table;
  std::vector<uint32_t> none;
  // CHECK constraints and defaults: stored SQL text over the row.
  for (const auto& c : table.constraints) {
    if (c.kind != 'c') continue;
    std::unique_ptr<sql::ParseTree> tree;
    const PgQuery__Node* node;
    std::string failure = ParseExprText(c.check_expr, &tree, &node);
    if (!node) {
      *error = Err("XX000", "unreadable check constraint \"" + c.name + "\"");
      return false;
    }
    RowScope scope(table, table.name, false);
    scope.context_ = "check constraints";
    Analyzer analyzer(hooks, nullptr);
    analyzer.set_scope(&scope);
    std::unique_ptr<Expr> e;
    if (!analyzer.Analyze(node, &e, error)) return false;
    dml->checks.emplace_back(c.name, std::shared_ptr<Expr>(std::move(e)));
  }
  for (size_t i = 0; i < table.columns.size(); i++) {
    const catalog::Column& col = table.columns[i];
    if (col.generated_expr.empty()) continue;
    std::unique_ptr<sql::ParseTree> tree;
    const PgQuery__Node* node;
    ParseExprText(col.generated_expr, &tree, &node);
    std::unique_ptr<Expr> e;
    if (!node) {
      *error = Err("XX000", "unreadable generation expression of column \"" +
                                col.name + "\"");
      return false;
    }
    if (!AnalyzeRowValueExpr(hooks, table, node,
                             "column generation expressions", &e, error))
      return false;
    dml->generated.emplace_back(static_cast<int>(i),
                                std::shared_ptr<Expr>(std::move(e)));
  }
  dml->defaults.assign(table.columns.size(), nullptr);
  for (size_t i = 0; i < table.columns.size(); i++) {
    const auto& col = table.columns[i];
    // A column without a default of its own takes its domain's.
    std::string default_expr = col.default_expr;
    for (uint32_t t = col.type; default_expr.empty() && user_types::IsDomain(t);
         t = user_types::Find(t)->base_type)
      default_expr = user_types::Find(t)->default_expr;
    if (default_expr.empty() || !col.counter.empty()) continue;
    std::unique_ptr<sql::ParseTree> tree;
    const PgQuery__Node* node;
    ParseExprText(default_expr, &tree, &node);
    if (!node) {
      *error =
          Err("XX000", "unreadable default of column \"" + col.name + "\"");
      return false;
    }
    Analyzer analyzer(hooks, nullptr);
    std::unique_ptr<Expr> e;
    if (!analyzer.Analyze(node, &e, error)) return false;
    if (!CoerceForColumn(&analyzer, &e, col, error)) return false;
    dml->defaults[i] = std::shared_ptr<Expr>(std::move(e));
  }
  // RETURNING
  for (size_t i = 0; i < n_returning; i++) {
    const PgQuery__ResTarget* t = returning[i]->res_target;
    const PgQuery__Node* val = t->val;
    RowScope scope(table, dml->alias.empty() ? table.name : dml->alias, false);
    scope.excluded_hidden_ = dml->on_conflict == 2;
    scope.from_ = from;
    scope.extra_sql_ = &dml->returning_extra_sql;
    scope.extra_types_ = &dml->returning_extra_types;
    Analyzer analyzer(hooks, plan->simple ? nullptr : &plan->param_types);
    analyzer.set_scope(&scope);
    const bool star =
        val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        val->column_ref->fields[val->column_ref->n_fields - 1]->node_case ==
            PG_QUERY__NODE__NODE_A_STAR;
    // other.* of a FROM / USING item: its columns, each as other.column.
    const PgQuery__ColumnRef* ref = star ? val->column_ref : nullptr;
    std::string qualifier = ref && ref->n_fields >= 2 &&
                                    ref->fields[ref->n_fields - 2]->node_case ==
                                        PG_QUERY__NODE__NODE_STRING
                                ? ref->fields[ref->n_fields - 2]->string->sval
                                : "";
    const std::string& own = dml->alias.empty() ? table.name : dml->alias;
    if (star && !qualifier.empty() && qualifier != own && from) {
      const RangeEntry* entry = nullptr;
      for (const auto& e : from->entries())
        if (e.alias == qualifier && e.qualifiable) entry = &e;
      if (!entry) {
        const RangeEntry* aliased = nullptr;
        for (const auto& e : from->entries())
          if (e.relname == qualifier && e.qualifiable) aliased = &e;
        *error = Err("42P01",
                     std::string(aliased ? "invalid reference to" : "missing") +
                         " FROM-clause entry for table \"" + qualifier + "\"",
                     ref->location);
        if (aliased)
          error->hint = "Perhaps you meant to reference the table alias \"" +
                        aliased->alias + "\".";
        return false;
      }
      if (!ExpandReturningEntry(*entry, qualifier, ref->location, &analyzer,
                                dml, columns, error))
        return false;
      continue;
    }
    if (star && qualifier.empty() && from) {
      // *: the target's columns, then every FROM / USING item's.
      AppendReturningColumns(table, dml, columns);
      for (const auto& e : from->entries()) {
        if (e.alias == own || e.hidden || !e.qualifiable) continue;
        if (!ExpandReturningEntry(e, e.alias, ref->location, &analyzer, dml,
                                  columns, error))
          return false;
      }
      continue;
    }
    if (star) {
      AppendReturningColumns(table, dml, columns);
      continue;
    }
    std::unique_ptr<Expr> e;
    if (!analyzer.Analyze(val, &e, error)) return false;
    if (!analyzer.Coerce(&e, oid::kText, -1, error)) return false;
    ColumnDesc col;
    col.name = t->name && *t->name ? t->name : Analyzer::ColumnName(val);
    col.type_oid = e->type;
    // An array of a domain is no domain: clients are told its own type.
    if (types::ArrayElementType(e->domain)) col.type_oid = e->domain;
    col.type_modifier = e->typmod;
    const types::TypeInfo* info = types::LookupType(e->type);
    col.type_size = info ? info->length : -1;
    if (e->kind == Expr::Kind::kParam && e->param < 0) {
      col.table_oid = table.oid;
      col.column_number = static_cast<int16_t>(-e->param);
    }
    columns->push_back(col);
    dml->returning.push_back(std::shared_ptr<Expr>(std::move(e)));
  }
  return true;
}

static void FinishRowParams(Plan* plan, DmlPlan* dml) {
  dml->row_base = static_cast<int>(plan->param_types.size());
  for (auto& r : dml->returning) FixRowParams(r.get(), dml->row_base);
  for (auto& c : dml->checks) FixRowParams(c.second.get(), dml->row_base);
  for (auto& g : dml->generated) FixRowParams(g.second.get(), dml->row_base);
  for (auto& s : dml->conflict_set)
    if (s.second) FixRowParams(s.second.get(), dml->row_base);
  if (dml->conflict_where)
    FixRowParams(dml->conflict_where.get(), dml->row_base);
}

bool SessionImpl::PrepareCopyInsert(const catalog::Table* table,
                                    std::shared_ptr<DmlPlan>* out,
                                    PgError* error) {
  auto dml = std::make_shared<DmlPlan>();
  dml->kind = DmlPlan::Kind::kInsert;
  dml->catalog = catalog_;
  dml->table = table;
  dml->counters = table->schema == "admin" && table->name == "counters";
  dml->db = dml->counters ? docstore::kAdminDb : database_;
  dml->collection = table->collection;
  Plan plan;
  plan.simple = true;
  if (!AnalyzeRowParts(this, &plan, dml.get(), nullptr, 0, &plan.columns,
                       error))
    return false;
  FinishRowParams(&plan, dml.get());
  *out = dml;
  return true;
}

bool SessionImpl::AnalyzeInsert(Plan* plan, PgError* error) {
  const PgQuery__InsertStmt* ins = plan->node->insert_stmt;
  if (!LoadCatalog(error)) return false;
  CompileContext context = MakeCompileContext(plan);
  auto dml = std::make_shared<DmlPlan>();
  dml->kind = DmlPlan::Kind::kInsert;
  dml->catalog = catalog_;
  if (!ResolveTarget(this, &context, ins->relation, &dml->table, error))
    return false;
  const catalog::Table& table = *dml->table;
  dml->counters = table.schema == "admin" && table.name == "counters";
  dml->db = dml->counters ? docstore::kAdminDb : database_;
  dml->collection = table.collection;
  if (ins->relation->alias && ins->relation->alias->aliasname)
    dml->alias = ins->relation->alias->aliasname;
  dml->overriding_system =
      ins->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE;
  dml->overriding_user =
      ins->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE;
  // Target columns.
  if (ins->n_cols == 0) {
    for (size_t i = 0; i < table.columns.size(); i++)
      dml->insert_columns.push_back(static_cast<int>(i));
  } else {
    for (size_t i = 0; i < ins->n_cols; i++) {
      const PgQuery__ResTarget* t = ins->cols[i]->res_target;
      int index = table.ColumnIndex(t->name);
      if (index < 0) {
        *error = Err("42703",
                     "column \"" + std::string(t->name) + "\" of relation \"" +
                         table.name + "\" does not exist",
                     t->location);
        return false;
      }
      if (t->n_indirection > 0) {
        *error = Err("0A000",
                     "assignment to a field or array element of a "
                     "column is not supported yet",
                     t->location);
        return false;
      }
      for (int prev : dml->insert_columns) {
        if (prev == index) {
          *error = Err("42701",
                       "column \"" + std::string(t->name) +
                           "\" specified more than once",
                       t->location);
          return false;
        }
      }
      dml->insert_columns.push_back(index);
    }
  }
  // Source rows.
  const PgQuery__SelectStmt* src =
      ins->select_stmt ? ins->select_stmt->select_stmt : nullptr;
  Analyzer analyzer(this, plan->simple ? nullptr : &plan->param_types);
  auto check_identity = [&](int col, int location) {
    const catalog::Column& c = table.columns[col];
    if (!c.generated_expr.empty()) {
      *error = Err("428C9", "cannot insert a non-DEFAULT value into column \"" +
                                c.name + "\"");
      error->detail = "Column \"" + c.name + "\" is a generated column.";
      return false;
    }
    if (c.identity == 'a' && !dml->overriding_system && !dml->overriding_user) {
      PgError err =
          Err("428C9", "cannot insert a non-DEFAULT value into column \"" +
                           c.name + "\"");
      (void)location;  // PostgreSQL reports this error without a position
      err.detail = "Column \"" + c.name +
                   "\" is an identity column defined as GENERATED ALWAYS.";
      err.hint = "Use OVERRIDING SYSTEM VALUE to override.";
      *error = err;
      return false;
    }
    return true;
  };
  if (dml->overriding_system) {
    for (int col : dml->insert_columns) {
      if (table.columns[col].identity == 'd') {
        PgError err =
            Err("42P10", "column \"" + table.columns[col].name +
                             "\" is not an identity column defined as "
                             "GENERATED ALWAYS");
        (void)err;
      }
    }
  }
  // With a WITH clause even VALUES goes through the query compiler, where
  // its subqueries can name the WITH queries.
  bool values_form = src && src->n_values_lists > 0 &&
                     src->n_sort_clause == 0 && !src->limit_count &&
                     !ins->with_clause;
  if (!src) {
    // DEFAULT VALUES
    dml->insert_columns.clear();
    dml->rows.push_back({});
  } else if (values_form) {
    size_t width = src->values_lists[0]->list->n_items;
    for (size_t r = 1; r < src->n_values_lists; r++) {
      const PgQuery__List* list = src->values_lists[r]->list;
      if (list->n_items != width) {
        *error = Err("42601", "VALUES lists must all be the same length",
                     list->n_items ? NodeLocation(list->items[0]) : -1);
        return false;
      }
    }
    // Without a column list the leading columns take the values and the
    // rest their defaults.
    if (ins->n_cols == 0 && width < dml->insert_columns.size())
      dml->insert_columns.resize(width);
    for (size_t r = 0; r < src->n_values_lists; r++) {
      const PgQuery__List* list = src->values_lists[r]->list;
      if (list->n_items > dml->insert_columns.size()) {
        *error = Err("42601", "INSERT has more expressions than target columns",
                     NodeLocation(list->items[dml->insert_columns.size()]));
        return false;
      }
      if (list->n_items < dml->insert_columns.size()) {
        *error = Err("42601", "INSERT has more target columns than expressions",
                     ins->cols[list->n_items]->res_target->location);
        return false;
      }
      std::vector<std::shared_ptr<Expr>> row;
      for (size_t c = 0; c < list->n_items; c++) {
        const PgQuery__Node* item = list->items[c];
        int col = dml->insert_columns[c];
        if (item->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
          row.push_back(nullptr);
          continue;
        }
        std::unique_ptr<Expr> e;
        if (!analyzer.Analyze(item, &e, error)) return false;
        if (!CoerceForColumn(&analyzer, &e, table.columns[col], error))
          return false;
        if (!check_identity(col, e->location)) return false;
        row.push_back(std::shared_ptr<Expr>(std::move(e)));
      }
      dml->rows.push_back(std::move(row));
    }
  } else {
    // A bare $n in the SELECT list takes its column's type, as PostgreSQL
    // infers it from the INSERT's target (as in VALUES: CoerceForColumn).
    if (!plan->simple && src->op == PG_QUERY__SET_OPERATION__SETOP_NONE) {
      for (size_t c = 0;
           c < src->n_target_list && c < dml->insert_columns.size(); c++) {
        const PgQuery__Node* v = src->target_list[c]->res_target->val;
        if (v->node_case != PG_QUERY__NODE__NODE_PARAM_REF) continue;
        int n = v->param_ref->number;
        if (n < 1 || n > 65535) continue;
        if (plan->param_types.size() < static_cast<size_t>(n))
          plan->param_types.resize(n, 0);
        if (plan->param_types[n - 1] == 0)
          plan->param_types[n - 1] =
              user_types::BaseType(table.columns[dml->insert_columns[c]].type);
      }
    }
    auto compiled = std::make_shared<Compiled>();
    QueryCompiler compiler(&context);
    if (ins->with_clause && !compiler.AddWithClause(ins->with_clause, error))
      return false;
    if (!compiler.CompileSelect(src, compiled.get(), error)) return false;
    if (compiled->columns.size() > dml->insert_columns.size()) {
      int location = -1;
      if (src->n_target_list > dml->insert_columns.size())
        location = NodeLocation(
            src->target_list[dml->insert_columns.size()]->res_target->val);
      *error = Err("42601", "INSERT has more expressions than target columns",
                   location);
      return false;
    }
    if (compiled->columns.size() < dml->insert_columns.size()) {
      if (ins->n_cols == 0) {
        dml->insert_columns.resize(compiled->columns.size());
      } else {
        *error = Err("42601", "INSERT has more target columns than expressions",
                     ins->cols[compiled->columns.size()]->res_target->location);
        return false;
      }
    }
    for (size_t c = 0; c < compiled->columns.size(); c++) {
      const catalog::Column& col = table.columns[dml->insert_columns[c]];
      uint32_t t = compiled->columns[c].type_oid;
      // An untyped literal in the SELECT list takes the column's type.
      bool literal = c < src->n_target_list &&
                     src->target_list[c]->res_target->val->node_case ==
                         PG_QUERY__NODE__NODE_A_CONST;
      if (!Assignable(t, col.type) && !literal) {
        int location = c < src->n_target_list
                           ? NodeLocation(src->target_list[c]->res_target->val)
                           : -1;
        PgError err = Err("42804",
                          "column \"" + col.name + "\" is of type " +
                              types::FormatTypeName(col.type, -1) +
                              " but expression is of type " + TypeName(t),
                          location);
        err.hint = "You will need to rewrite or cast the expression.";
        *error = err;
        return false;
      }
      if (!check_identity(dml->insert_columns[c], -1)) return false;
      dml->source_types.push_back(t);
      dml->source_contexts.push_back(
          literal && SettingDependentText(col.type)
              ? std::make_shared<types::TypeContext>(settings_.type_context())
              : nullptr);
    }
    dml->source = compiled;
  }
  // ON CONFLICT
  if (ins->on_conflict_clause) {
    const PgQuery__OnConflictClause* oc = ins->on_conflict_clause;
    dml->on_conflict =
        oc->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE ? 2 : 1;
    if (oc->infer) {
      if (oc->infer->conname && *oc->infer->conname) {
        dml->conflict_index = oc->infer->conname;
        bool found = false;
        for (const auto& x : table.indexes)
          found = found || (x.name == dml->conflict_index && x.unique);
        if (!found) {
          *error = Err("42704", "constraint \"" + dml->conflict_index +
                                    "\" for table \"" + table.name +
                                    "\" does not exist");
          return false;
        }
      } else {
        // Keys as "c:<column>" or "e:<expression as pg_get_indexdef>".
        std::vector<std::string> cols;
        for (size_t i = 0; i < oc->infer->n_index_elems; i++) {
          const PgQuery__IndexElem* ie = oc->infer->index_elems[i]->index_elem;
          std::string column = ie->name ? ie->name : "";
          if (column.empty()) {
            IndexExpression key;
            if (!AnalyzeIndexExpression(this, table, ie->expr, &key, &column,
                                        error))
              return false;
            if (column.empty()) {
              std::string text = sql::DeparseExpr(ie->expr);
              cols.push_back("e:" + IndexColumnText(key, text, false));
              continue;
            }
          }
          if (table.ColumnIndex(column) < 0) {
            *error = Err("42703", "column \"" + column + "\" does not exist",
                         oc->infer->location);
            return false;
          }
          cols.push_back("c:" + column);
        }
        // The target is a set: (key, key) names the index on (key).
        std::sort(cols.begin(), cols.end());
        cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
        // A partial index serves a conflict target whose WHERE implies its
        // condition (PredicateImplied).
        std::vector<const PgQuery__Node*> infer_terms;
        if (oc->infer->where_clause)
          AndedTerms(oc->infer->where_clause, &infer_terms);
        for (const auto& x : table.indexes) {
          if (!x.unique) continue;
          if (!x.predicate.empty() &&
              !PredicateImplied(x.predicate, infer_terms))
            continue;
          std::vector<std::string> keys;
          for (size_t i = 0; i < x.columns.size(); i++)
            keys.push_back(
                x.expression(i).empty()
                    ? "c:" + x.columns[i]
                    : "e:" + IndexColumnText(table, x.expression(i), false));
          std::sort(keys.begin(), keys.end());
          keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
          if (keys == cols) dml->conflict_index = x.name;
        }
        if (dml->conflict_index.empty()) {
          *error = Err("42P10",
                       "there is no unique or exclusion constraint matching "
                       "the ON CONFLICT specification");
          return false;
        }
      }
    } else if (dml->on_conflict == 2) {
      PgError err = Err("42601",
                        "ON CONFLICT DO UPDATE requires inference "
                        "specification or constraint name",
                        oc->location);
      err.hint = "For example, ON CONFLICT (column_name).";
      *error = err;
      return false;
    }
    // A DEFERRABLE key's index admits duplicates until the check at the
    // end: it cannot decide a conflict (its arbiter, or any key without a
    // target).
    for (const auto& c : table.constraints) {
      if ((c.kind != 'p' && c.kind != 'u') || !c.deferrable) continue;
      if (!dml->conflict_index.empty() && dml->conflict_index != c.name)
        continue;
      *error = Err("55000",
                   "ON CONFLICT does not support deferrable unique "
                   "constraints/exclusion constraints as arbiters");
      return false;
    }
    std::vector<int> conflict_columns;
    for (size_t i = 0; i < oc->n_target_list; i++) {
      const PgQuery__ResTarget* t = oc->target_list[i]->res_target;
      int index = table.ColumnIndex(t->name);
      if (index < 0) {
        *error = Err("42703",
                     "column \"" + std::string(t->name) + "\" of relation \"" +
                         table.name + "\" does not exist",
                     t->location);
        return false;
      }
      if (std::find(conflict_columns.begin(), conflict_columns.end(), index) !=
          conflict_columns.end()) {
        *error = Err("42601", "multiple assignments to same column \"" +
                                  std::string(t->name) + "\"");
        return false;
      }
      conflict_columns.push_back(index);
      // SET (a, b) = (x, y): this target takes item colno of the row.
      const PgQuery__Node* val = t->val;
      if (val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF) {
        const PgQuery__MultiAssignRef* m = val->multi_assign_ref;
        if (m->source->node_case != PG_QUERY__NODE__NODE_ROW_EXPR) {
          *error = Err("0A000",
                       "ON CONFLICT DO UPDATE SET (...) = (SELECT ...) is not "
                       "supported yet",
                       t->location);
          return false;
        }
        const PgQuery__RowExpr* row = m->source->row_expr;
        if (static_cast<size_t>(m->ncolumns) != row->n_args) {
          *error =
              Err("42601", "number of columns does not match number of values",
                  row->location);
          return false;
        }
        val = row->args[m->colno - 1];
      }
      const catalog::Column& target = table.columns[index];
      bool to_default = val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT;
      // A generated column is computed again with the row.
      if (!target.generated_expr.empty() && to_default) continue;
      if (!target.generated_expr.empty() ||
          (target.identity == 'a' && !to_default)) {
        *error = Err("428C9", "column \"" + target.name +
                                  "\" can only be updated to DEFAULT");
        error->detail = "Column \"" + target.name + "\" is " +
                        (target.identity == 'a'
                             ? "an identity column defined as GENERATED ALWAYS."
                             : "a generated column.");
        return false;
      }
      if (to_default) {  // the column's default, as the row is updated
        dml->conflict_set.emplace_back(index, nullptr);
        continue;
      }
      RowScope scope(table, dml->alias.empty() ? table.name : dml->alias, true);
      scope.context_ = "UPDATE";
      Analyzer a(this, plan->simple ? nullptr : &plan->param_types);
      a.set_scope(&scope);
      std::unique_ptr<Expr> e;
      if (!a.Analyze(val, &e, error)) return false;
      if (!CoerceForColumn(&a, &e, table.columns[index], error)) return false;
      dml->conflict_set.emplace_back(index,
                                     std::shared_ptr<Expr>(std::move(e)));
    }
    if (oc->where_clause) {
      RowScope scope(table, dml->alias.empty() ? table.name : dml->alias, true);
      scope.context_ = "WHERE";
      Analyzer a(this, plan->simple ? nullptr : &plan->param_types);
      a.set_scope(&scope);
      std::unique_ptr<Expr> e;
      if (!a.Analyze(oc->where_clause, &e, error) ||
          !a.Coerce(&e, oid::kBool, -1, error))
        return false;
      dml->conflict_where = std::shared_ptr<Expr>(std::move(e));
    }
  }
  plan->columns.clear();
  if (!AnalyzeRowParts(this, plan, dml.get(), ins->returning_list,
                       ins->n_returning_list, &plan->columns, error))
    return false;
  if (!analyzer.CheckParams(error)) return false;
  FinishRowParams(plan, dml.get());
  plan->dml = dml;
  NoteAnalysed(plan);
  return true;
}

bool SessionImpl::AnalyzeUpdate(Plan* plan, PgError* error) {
  const PgQuery__UpdateStmt* up = plan->node->update_stmt;
  if (!LoadCatalog(error)) return false;
  CompileContext context = MakeCompileContext(plan);
  auto dml = std::make_shared<DmlPlan>();
  dml->kind = DmlPlan::Kind::kUpdate;
  dml->catalog = catalog_;
  if (!ResolveTarget(this, &context, up->relation, &dml->table, error))
    return false;
  const catalog::Table& table = *dml->table;
  dml->counters = table.schema == "admin" && table.name == "counters";
  dml->db = dml->counters ? docstore::kAdminDb : database_;
  dml->collection = table.collection;
  auto scan = std::make_shared<Compiled>();
  QueryCompiler compiler(&context);
  compiler.set_target(scan.get());
  std::string tbl;
  if (!CollectionTable(dml->counters ? "admin.counters" : table.collection,
                       &tbl, error))
    return false;
  std::string alias = up->relation->alias && up->relation->alias->aliasname
                          ? up->relation->alias->aliasname
                          : table.name;
  dml->alias = alias;
  if (up->with_clause && !compiler.AddWithClause(up->with_clause, error))
    return false;
  if (!compiler.AddTable(table, alias, "t_target", error)) return false;
  std::string from = tbl + " AS t_target";
  compiler.CollectJoinKeys(true);
  for (size_t i = 0; i < up->n_from_clause; i++) {
    std::string item;
    if (!compiler.AddFromItem(up->from_clause[i], &item, error)) return false;
    from += ", " + item;
  }
  compiler.CollectJoinKeys(false);
  std::string select = "SELECT t_target.rid, t_target.doc";
  for (size_t i = 0; i < up->n_target_list; i++) {
    const PgQuery__ResTarget* t = up->target_list[i]->res_target;
    int index = table.ColumnIndex(t->name);
    if (index < 0) {
      *error = Err("42703",
                   "column \"" + std::string(t->name) + "\" of relation \"" +
                       table.name + "\" does not exist",
                   t->location);
      return false;
    }
    if (t->n_indirection > 0 && !ArrayAssignable(t)) {
      *error = Err("0A000",
                   "assignment to a field or array slice of a "
                   "column is not supported yet",
                   t->location);
      return false;
    }
    for (int prev : dml->set_columns) {
      if (prev == index) {
        *error = Err("42601", "multiple assignments to same column \"" +
                                  std::string(t->name) + "\"");
        return false;
      }
    }
    const catalog::Column& col = table.columns[index];
    const PgQuery__Node* val = t->val;
    if (val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF) {
      // SET (a, b) = (x, y): this target takes item colno of the row.
      const PgQuery__MultiAssignRef* m = val->multi_assign_ref;
      const PgQuery__Node* source = m->source;
      if (source->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
        const PgQuery__RowExpr* row = source->row_expr;
        if (static_cast<size_t>(m->ncolumns) != row->n_args) {
          *error =
              Err("42601", "number of columns does not match number of values",
                  row->location);
          return false;
        }
        val = row->args[m->colno - 1];
      } else if (source->node_case == PG_QUERY__NODE__NODE_SUB_LINK &&
                 source->sub_link->sub_link_type ==
                     PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
                 source->sub_link->subselect->node_case ==
                     PG_QUERY__NODE__NODE_SELECT_STMT) {
        // Column colno of the sub-select's row: a scalar sub-select of that
        // one output column (PostgreSQL runs the sub-select once; for the
        // deterministic queries this allows the result is the same).
        const PgQuery__SubLink* link = source->sub_link;
        const PgQuery__SelectStmt* sel = link->subselect->select_stmt;
        bool plain = sel->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
                     sel->n_values_lists == 0;
        for (size_t k = 0; plain && k < sel->n_target_list; k++) {
          const PgQuery__Node* v = sel->target_list[k]->res_target->val;
          if (v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
              v->column_ref->n_fields > 0 &&
              v->column_ref->fields[v->column_ref->n_fields - 1]->node_case ==
                  PG_QUERY__NODE__NODE_A_STAR)
            plain = false;
        }
        if (!plain) {
          *error = Err("0A000",
                       "UPDATE ... SET (...) = (SELECT ...) with *, VALUES or "
                       "a set operation is not supported yet",
                       link->location);
          return false;
        }
        if (static_cast<size_t>(m->ncolumns) != sel->n_target_list) {
          *error =
              Err("42601", "number of columns does not match number of values",
                  link->location);
          return false;
        }
        auto c = std::make_unique<ColumnSubLink>();
        c->select = *sel;
        c->target = sel->target_list[m->colno - 1];
        c->select.target_list = &c->target;
        c->select.n_target_list = 1;
        c->select_node = PG_QUERY__NODE__INIT;
        c->select_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
        c->select_node.select_stmt = &c->select;
        c->sublink = *link;
        c->sublink.subselect = &c->select_node;
        c->node = PG_QUERY__NODE__INIT;
        c->node.node_case = PG_QUERY__NODE__NODE_SUB_LINK;
        c->node.sub_link = &c->sublink;
        val = &c->node;
        dml->column_sublinks.push_back(std::move(c));
      } else {
        *error = Err("42601",
                     "source for a multiple-column UPDATE item must be a "
                     "sub-SELECT or ROW() expression",
                     NodeLocation(source));
        return false;
      }
    }
    if (val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
      dml->set_columns.push_back(index);
      dml->set_types.push_back(col.type);
      dml->set_default.push_back(true);
      select += ", NULL";
      continue;
    }
    if (!col.generated_expr.empty()) {
      *error = Err("428C9", "column \"" + col.name +
                                "\" can only be updated to DEFAULT");
      error->detail = "Column \"" + col.name + "\" is a generated column.";
      return false;
    }
    if (col.identity == 'a') {
      PgError err = Err("428C9", "column \"" + col.name +
                                     "\" can only be updated to DEFAULT");
      err.detail = "Column \"" + col.name +
                   "\" is an identity column defined as GENERATED ALWAYS.";
      *error = err;
      return false;
    }
    std::unique_ptr<Expr> e;
    if (!compiler.AnalyzeExpr(val, &e, error)) return false;
    if (t->n_indirection > 0 &&
        !AssignArrayElement(&compiler, t, col, std::move(e), &e, error))
      return false;
    if (!CoerceForColumn(compiler.analyzer(), &e, col, error)) return false;
    dml->set_columns.push_back(index);
    dml->set_types.push_back(e->type);
    dml->set_default.push_back(false);
    select += ", " + compiler.Emit(*e);
  }
  std::string where;
  if (up->where_clause) {
    std::unique_ptr<Expr> e;
    if (!compiler.AnalyzeExpr(up->where_clause, &e, error) ||
        !compiler.analyzer()->Coerce(&e, oid::kBool, -1, error))
      return false;
    if (e->type != oid::kBool) {
      *error = Err("42804",
                   "argument of WHERE must be type boolean, not type " +
                       TypeName(e->type),
                   e->location);
      return false;
    }
    compiler.CollectJoinKeys(true);
    where = " WHERE " + compiler.Emit(*e);
    compiler.CollectJoinKeys(false);
  }
  compiler.IndexJoinKeys(&from, &where);
  scan->sql = select + " FROM " + from + where;
  dml->scan = scan;
  plan->columns.clear();
  if (!AnalyzeRowParts(this, plan, dml.get(), up->returning_list,
                       up->n_returning_list, &plan->columns, error, &compiler))
    return false;
  std::string extras;
  for (const auto& extra : dml->returning_extra_sql) extras += ", " + extra;
  scan->sql.insert(select.size(), extras);
  if (!compiler.analyzer()->CheckParams(error)) return false;
  FinishRowParams(plan, dml.get());
  plan->dml = dml;
  NoteAnalysed(plan);
  return true;
}

bool SessionImpl::AnalyzeDelete(Plan* plan, PgError* error) {
  const PgQuery__DeleteStmt* del = plan->node->delete_stmt;
  if (!LoadCatalog(error)) return false;
  CompileContext context = MakeCompileContext(plan);
  auto dml = std::make_shared<DmlPlan>();
  dml->kind = DmlPlan::Kind::kDelete;
  dml->catalog = catalog_;
  if (!ResolveTarget(this, &context, del->relation, &dml->table, error))
    return false;
  const catalog::Table& table = *dml->table;
  dml->counters = table.schema == "admin" && table.name == "counters";
  dml->db = dml->counters ? docstore::kAdminDb : database_;
  dml->collection = table.collection;
  auto scan = std::make_shared<Compiled>();
  QueryCompiler compiler(&context);
  compiler.set_target(scan.get());
  std::string tbl;
  if (!CollectionTable(dml->counters ? "admin.counters" : table.collection,
                       &tbl, error))
    return false;
  std::string alias = del->relation->alias && del->relation->alias->aliasname
                          ? del->relation->alias->aliasname
                          : table.name;
  dml->alias = alias;
  if (del->with_clause && !compiler.AddWithClause(del->with_clause, error))
    return false;
  if (!compiler.AddTable(table, alias, "t_target", error)) return false;
  std::string from = tbl + " AS t_target";
  compiler.CollectJoinKeys(true);
  for (size_t i = 0; i < del->n_using_clause; i++) {
    std::string item;
    if (!compiler.AddFromItem(del->using_clause[i], &item, error)) return false;
    from += ", " + item;
  }
  compiler.CollectJoinKeys(false);
  std::string where;
  if (del->where_clause) {
    std::unique_ptr<Expr> e;
    if (!compiler.AnalyzeExpr(del->where_clause, &e, error) ||
        !compiler.analyzer()->Coerce(&e, oid::kBool, -1, error))
      return false;
    if (e->type != oid::kBool) {
      *error = Err("42804",
                   "argument of WHERE must be type boolean, not type " +
                       TypeName(e->type),
                   e->location);
      return false;
    }
    compiler.CollectJoinKeys(true);
    where = " WHERE " + compiler.Emit(*e);
    compiler.CollectJoinKeys(false);
  }
  compiler.IndexJoinKeys(&from, &where);
  scan->sql = "SELECT DISTINCT t_target.rid, t_target.doc FROM " + from + where;
  if (del->n_using_clause == 0)
    scan->sql = "SELECT t_target.rid, t_target.doc FROM " + from + where;
  dml->scan = scan;
  plan->columns.clear();
  if (!AnalyzeRowParts(this, plan, dml.get(), del->returning_list,
                       del->n_returning_list, &plan->columns, error, &compiler))
    return false;
  std::string extras;
  for (const auto& extra : dml->returning_extra_sql) extras += ", " + extra;
  scan->sql.insert(scan->sql.find("t_target.doc") + 12, extras);
  if (!compiler.analyzer()->CheckParams(error)) return false;
  FinishRowParams(plan, dml.get());
  plan->dml = dml;
  NoteAnalysed(plan);
  return true;
}

// Row parameters get their final numbers once the statement's own
// parameters are all known.
void FixRowParams(Expr* e, int row_base) {
  if (e->kind == Expr::Kind::kParam && e->param < 0)
    e->param = row_base + (-e->param - 1);
  for (auto& a : e->args) FixRowParams(a.get(), row_base);
}

}  // namespace kova::planner
