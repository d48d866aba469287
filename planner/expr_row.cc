// Row constructors in comparisons: (a, b) = (1, 2), (a, b) < (x, y) (keyset
// pagination), (a, b) IN ((1, 2), (3, 4)), ROW(a, b) IS [NOT] NULL and
// IS [NOT] DISTINCT FROM, expanded into comparisons of the fields with
// PostgreSQL's rules for rows:
// - = is true when every pair is equal, false when one pair differs, else
//   null (an AND of the pairs' =); <> is the OR of the pairs' <>;
// - <, <=, >, >= are decided by the first pair that is unequal or null
//   (a1 < b1 OR (a1 = b1 AND (a2 < b2 OR ...)), the last pair with the
//   operator itself);
// - ROW(...) IS NULL holds when every field is null, IS NOT NULL when no
//   field is (so both can be false).
#include "planner/expr.h"
#include "planner/expr_internal.h"
#include "planner/types_json.h"

namespace kova::planner {

using namespace expr_detail;

namespace {

std::unique_ptr<Expr> Combine(Expr::Kind kind,
                              std::vector<std::unique_ptr<Expr>> parts,
                              int location) {
  if (parts.size() == 1) return std::move(parts[0]);
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = oid::kBool;
  e->location = location;
  e->args = std::move(parts);
  return e;
}

}  // namespace

const PgQuery__Node* Analyzer::RowOfSubquery(const PgQuery__SubLink* link,
                                             size_t columns, int location,
                                             PgError* error) {
  const PgQuery__SelectStmt* s =
      link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
          ? link->subselect->select_stmt
          : nullptr;
  bool plain = s && s->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
               s->n_values_lists == 0;
  for (size_t i = 0; plain && i < s->n_target_list; i++) {
    const PgQuery__Node* v = s->target_list[i]->res_target->val;
    plain =
        v && !(v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
               v->column_ref->n_fields > 0 &&
               v->column_ref->fields[v->column_ref->n_fields - 1]->node_case ==
                   PG_QUERY__NODE__NODE_A_STAR);
  }
  if (!plain) {
    *error = Err("0A000",
                 "comparing a row with this kind of subquery (a set "
                 "operation, VALUES or *) is not supported yet",
                 location);
    return nullptr;
  }
  if (s->n_target_list != columns) {
    *error = Err("42601",
                 s->n_target_list > columns ? "subquery has too many columns"
                                            : "subquery has too few columns",
                 location);
    return nullptr;
  }
  // One scalar subquery per column: the same query (its one row) read
  // once per field, each checking for a second row.
  auto keep = [&](auto value) {
    auto p = std::make_shared<decltype(value)>(value);
    made_nodes_.push_back(p);
    return p.get();
  };
  auto args = std::make_shared<std::vector<PgQuery__Node*>>();
  made_nodes_.push_back(args);
  for (size_t i = 0; i < columns; i++) {
    PgQuery__SelectStmt one = *s;
    auto target =
        std::make_shared<std::vector<PgQuery__Node*>>(1, s->target_list[i]);
    made_nodes_.push_back(target);
    one.n_target_list = 1;
    one.target_list = target->data();
    PgQuery__Node select_node = PG_QUERY__NODE__INIT;
    select_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
    select_node.select_stmt = keep(one);
    PgQuery__SubLink sub = *link;
    sub.subselect = keep(select_node);
    PgQuery__Node sub_node = PG_QUERY__NODE__INIT;
    sub_node.node_case = PG_QUERY__NODE__NODE_SUB_LINK;
    sub_node.sub_link = keep(sub);
    args->push_back(keep(sub_node));
  }
  PgQuery__RowExpr row = PG_QUERY__ROW_EXPR__INIT;
  row.n_args = args->size();
  row.args = args->data();
  row.location = link->location;
  PgQuery__Node row_node = PG_QUERY__NODE__INIT;
  row_node.node_case = PG_QUERY__NODE__NODE_ROW_EXPR;
  row_node.row_expr = keep(row);
  return keep(row_node);
}

bool Analyzer::IsRow(const PgQuery__Node* node) {
  return node && node->node_case == PG_QUERY__NODE__NODE_ROW_EXPR;
}

bool Analyzer::CompareNodes(const std::string& op, const PgQuery__Node* left,
                            const PgQuery__Node* right, int location,
                            std::unique_ptr<Expr>* out, PgError* error) {
  if (!IsRow(left) && !IsRow(right)) {
    std::unique_ptr<Expr> l, r;
    if (!Analyze(left, &l, error) || !Analyze(right, &r, error)) return false;
    return Compare(op, std::move(l), std::move(r), location, out, error);
  }
  // A row against a subquery of several columns (PostgreSQL's
  // ROWCOMPARE_SUBLINK, row on the left only): compared with the
  // subquery's one row (null for none, 21000 for more).
  if (IsRow(left) && right &&
      right->node_case == PG_QUERY__NODE__NODE_SUB_LINK &&
      right->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK) {
    const PgQuery__Node* split =
        RowOfSubquery(right->sub_link, left->row_expr->n_args, location, error);
    if (!split) return false;
    return CompareNodes(op, left, split, location, out, error);
  }
  if (!IsRow(left) || !IsRow(right)) {
    // A row against a scalar: PostgreSQL finds no record operator.
    std::unique_ptr<Expr> scalar;
    if (!Analyze(IsRow(left) ? right : left, &scalar, error)) return false;
    std::string other = TypeName(scalar->type);
    *error = Err("42883",
                 "operator does not exist: " +
                     (IsRow(left) ? "record " + op + " " + other
                                  : other + " " + op + " record"),
                 location);
    error->hint =
        "No operator matches the given name and argument types. You might "
        "need to add explicit type casts.";
    return false;
  }
  const PgQuery__RowExpr* l = left->row_expr;
  const PgQuery__RowExpr* r = right->row_expr;
  if (l->n_args != r->n_args) {
    *error =
        Err("42601", "unequal number of entries in row expressions", location);
    return false;
  }
  std::string o = op == "!=" ? "<>" : op;
  if (l->n_args == 0) {
    *error =
        Err("0A000", "comparing empty rows is not supported yet", location);
    return false;
  }
  auto pair = [&](const std::string& pair_op, size_t i,
                  std::unique_ptr<Expr>* cmp) {
    return CompareNodes(pair_op, l->args[i], r->args[i], location, cmp, error);
  };
  if (o != "=" && o != "<>" && o != "<" && o != "<=" && o != ">" && o != ">=") {
    // PostgreSQL applies the operator to the first pair and then refuses
    // a result that is not boolean.
    std::unique_ptr<Expr> first;
    if (!pair(o, 0, &first)) return false;
    if (first->type != oid::kBool) {
      *error = Err("42804",
                   "row comparison operator must yield type boolean, not "
                   "type " +
                       TypeName(first->type),
                   location);
      return false;
    }
    *error = Err("0A000", "operator " + op + " on rows is not supported yet",
                 location);
    return false;
  }
  if (o == "=" || o == "<>") {
    std::vector<std::unique_ptr<Expr>> parts;
    for (size_t i = 0; i < l->n_args; i++) {
      std::unique_ptr<Expr> cmp;
      if (!pair(o, i, &cmp)) return false;
      parts.push_back(std::move(cmp));
    }
    *out = Combine(o == "=" ? Expr::Kind::kAnd : Expr::Kind::kOr,
                   std::move(parts), location);
    return true;
  }
  // From the last pair back: term = a_i strict b_i OR (a_i = b_i AND term).
  std::string strict = o.substr(0, 1);
  std::unique_ptr<Expr> term;
  for (size_t i = l->n_args; i-- > 0;) {
    std::unique_ptr<Expr> cmp;
    if (!pair(term ? strict : o, i, &cmp)) return false;
    if (!term) {
      term = std::move(cmp);
      continue;
    }
    std::unique_ptr<Expr> equal;
    if (!pair("=", i, &equal)) return false;
    std::vector<std::unique_ptr<Expr>> rest;
    rest.push_back(std::move(equal));
    rest.push_back(std::move(term));
    std::vector<std::unique_ptr<Expr>> either;
    either.push_back(std::move(cmp));
    either.push_back(Combine(Expr::Kind::kAnd, std::move(rest), location));
    term = Combine(Expr::Kind::kOr, std::move(either), location);
  }
  *out = std::move(term);
  return true;
}

bool Analyzer::AnalyzeRowNullTest(const PgQuery__NullTest* t,
                                  std::unique_ptr<Expr>* out, PgError* error) {
  const PgQuery__RowExpr* row = t->arg->row_expr;
  bool is_null = t->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL;
  std::vector<std::unique_ptr<Expr>> parts;
  for (size_t i = 0; i < row->n_args; i++) {
    std::unique_ptr<Expr> field;
    if (IsRow(row->args[i])) {
      *error = Err("0A000", "IS NULL of nested rows is not supported yet",
                   t->location);
      return false;
    }
    if (!Analyze(row->args[i], &field, error)) return false;
    if (!Coerce(&field, oid::kText, -1, error)) return false;
    auto e = std::make_unique<Expr>();
    e->kind = is_null ? Expr::Kind::kIsNull : Expr::Kind::kIsNotNull;
    e->type = oid::kBool;
    e->location = t->location;
    e->args.push_back(std::move(field));
    parts.push_back(std::move(e));
  }
  if (parts.empty()) {
    *error = Err("0A000", "IS NULL of an empty row is not supported yet",
                 t->location);
    return false;
  }
  *out = Combine(Expr::Kind::kAnd, std::move(parts), t->location);
  return true;
}

bool Analyzer::DistinctNodes(bool distinct, const PgQuery__Node* left,
                             const PgQuery__Node* right, int location,
                             std::unique_ptr<Expr>* out, PgError* error) {
  if (IsRow(left) && IsRow(right)) {
    const PgQuery__RowExpr* l = left->row_expr;
    const PgQuery__RowExpr* r = right->row_expr;
    if (l->n_args != r->n_args) {
      *error = Err("42601", "unequal number of entries in row expressions",
                   location);
      return false;
    }
    std::vector<std::unique_ptr<Expr>> parts;
    for (size_t i = 0; i < l->n_args; i++) {
      std::unique_ptr<Expr> part;
      if (!DistinctNodes(distinct, l->args[i], r->args[i], location, &part,
                         error))
        return false;
      parts.push_back(std::move(part));
    }
    *out = Combine(distinct ? Expr::Kind::kOr : Expr::Kind::kAnd,
                   std::move(parts), location);
    return true;
  }
  std::unique_ptr<Expr> cmp;
  // PostgreSQL resolves the = operator (its errors name it).
  if (!CompareNodes("=", left, right, location, &cmp, error)) return false;
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kDistinct;
  e->name = distinct ? "" : "not";
  e->type = oid::kBool;
  e->location = location;
  e->args.push_back(std::move(cmp));
  *out = std::move(e);
  return true;
}

}  // namespace kova::planner

namespace kova::planner {

using namespace expr_detail;

namespace expr_detail {

std::unique_ptr<Expr> MakeRow(std::vector<std::unique_ptr<Expr>> fields,
                              const std::vector<std::string>& names,
                              std::unique_ptr<Expr> presence, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = "row";
  e->type = oid::kRecord;
  e->location = location;
  std::string joined = presence ? "1" : "0";
  for (size_t i = 0; i < names.size(); i++) {
    if (i) joined += kRowNameSeparator;
    joined += names[i];
  }
  e->value = joined;
  if (presence) e->args.push_back(std::move(presence));
  for (auto& f : fields) e->args.push_back(std::move(f));
  return e;
}

std::unique_ptr<Expr> RowToJson(std::unique_ptr<Expr> row, bool jsonb) {
  row->name = jsonb ? "kova_row_jsonb" : "kova_row_json";
  row->type = jsonb ? oid::kJsonb : oid::kJson;
  return row;
}

namespace {

std::vector<std::string> RowNames(const Expr& e) {
  std::vector<std::string> names;
  const std::string& joined = e.value ? *e.value : std::string();
  size_t start = 1;
  while (true) {
    size_t end = joined.find(kRowNameSeparator, start);
    names.push_back(joined.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return names;
}

// record_out's quoting: a field that is empty or holds a quote, backslash,
// parenthesis, comma or white space is quoted, doubling quotes and
// backslashes.
void AppendRecordField(const std::string& value, std::string* out) {
  bool quote = value.empty();
  for (char ch : value)
    if (ch == '"' || ch == '\\' || ch == '(' || ch == ')' || ch == ',' ||
        ch == ' ' || (ch >= '\t' && ch <= '\r'))
      quote = true;
  if (quote) out->push_back('"');
  for (char ch : value) {
    if (ch == '"' || ch == '\\') out->push_back(ch);
    out->push_back(ch);
  }
  if (quote) out->push_back('"');
}

// json.c's escape_json: quotes, backslashes and control characters.
void AppendJsonKey(const std::string& key, std::string* out) {
  std::string j;
  PgError ignored;
  ValueToJson(oid::kText, key, types::TypeContext(), &j, &ignored);
  out->append(j);
}

}  // namespace

bool EvalRowFunction(const Expr& e, const std::vector<Value>& args,
                     SessionHooks* hooks, bool* handled, Value* out,
                     PgError* error) {
  const std::string& n = e.name;
  *handled = n == "row" || n == "kova_row_json" || n == "kova_row_jsonb";
  if (!*handled) return true;
  size_t first = RowFirstField(e);
  if (first && !args[0]) return true;  // no row: NULL
  if (n == "row") {
    std::string text = "(";
    for (size_t i = first; i < args.size(); i++) {
      if (i > first) text += ',';
      if (args[i]) AppendRecordField(*args[i], &text);
    }
    *out = text + ")";
    return true;
  }
  std::vector<std::string> names = RowNames(e);
  std::string j = "{";
  for (size_t i = first; i < args.size(); i++) {
    if (i > first) j += ',';
    AppendJsonKey(i - first < names.size() ? names[i - first] : "", &j);
    j += ':';
    std::string v;
    if (!ValueToJson(e.args[i]->type, args[i], hooks->type_context(), &v,
                     error))
      return false;
    j += v;
  }
  j += '}';
  if (n == "kova_row_jsonb")
    return types::json::Normalize(j, &*(*out = ""), error);
  *out = j;
  return true;
}

}  // namespace expr_detail

bool Analyzer::AnalyzeRowConstructor(const PgQuery__RowExpr* r,
                                     std::unique_ptr<Expr>* out,
                                     PgError* error) {
  std::vector<std::unique_ptr<Expr>> fields;
  std::vector<std::string> names;
  for (size_t i = 0; i < r->n_args; i++) {
    std::unique_ptr<Expr> field;
    if (!Analyze(r->args[i], &field, error)) return false;
    if (field->type == oid::kRecord) {
      *error =
          Err("0A000", "nested row values are not supported yet", r->location);
      return false;
    }
    if (!Coerce(&field, oid::kText, -1, error)) return false;
    fields.push_back(std::move(field));
    names.push_back("f" + std::to_string(i + 1));
  }
  *out = MakeRow(std::move(fields), names, nullptr, r->location);
  return true;
}

}  // namespace kova::planner
