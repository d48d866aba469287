// PostgreSQL's resolution of the common type of several inputs
// (parse_coerce.c's select_common_type), shared by UNION/INTERSECT/EXCEPT,
// VALUES, CASE, COALESCE, GREATEST/LEAST, JOIN USING and the polymorphic
// array functions, so that all of them agree with PostgreSQL and each other.
#include "planner/expr.h"
#include "planner/expr_internal.h"
#include "planner/svalue.h"
#include "planner/types_array.h"
#include "sql/sql.h"

namespace kova::planner::expr_detail {

char TypeCategory(uint32_t t) {
  return types::ArrayElementType(t) ? 'A' : Category(t);
}

bool ImplicitCastOrArray(uint32_t from, uint32_t to) {
  uint32_t fe = types::ArrayElementType(from), te = types::ArrayElementType(to);
  if (fe && te) return ImplicitCast(fe, te);
  if (fe || te) return from == to;
  return ImplicitCast(from, to);
}

uint32_t SelectCommonType(const std::vector<uint32_t>& types, uint32_t* bad_a,
                          uint32_t* bad_b, size_t* bad_index) {
  // The first known type is the candidate; a later one of the same
  // category replaces it when the candidate is not the category's
  // preferred type and converts to it implicitly but not back.
  uint32_t p = 0;
  for (size_t i = 0; i < types.size(); i++) {
    uint32_t t = types[i];
    if (t == oid::kUnknown) continue;
    if (!p) {
      p = t;
      continue;
    }
    if (t == p) continue;
    char category = TypeCategory(p);
    if (category != TypeCategory(t) ||
        (category == 'A' && !ImplicitCastOrArray(p, t) &&
         !ImplicitCastOrArray(t, p)) ||
        (category == 'U' && p != t)) {
      *bad_a = p;
      *bad_b = t;
      if (bad_index) *bad_index = i;
      return 0;
    }
    if (!IsPreferred(p) && ImplicitCastOrArray(p, t) &&
        !ImplicitCastOrArray(t, p))
      p = t;
  }
  return p ? p : oid::kText;
}

PgError NoCommonType(const std::string& what, uint32_t a, uint32_t b,
                     int location) {
  return Err("42804",
             what + " types " + TypeName(a) + " and " + TypeName(b) +
                 " cannot be matched",
             location);
}

int LeftmostLocation(const Expr& e) {
  int at = e.location;
  for (const auto& a : e.args) {
    int inner = LeftmostLocation(*a);
    if (inner >= 0 && (at < 0 || inner < at)) at = inner;
  }
  return at;
}

int StartLocation(const Expr& e) {
  if (e.kind != Expr::Kind::kCast || e.args.empty()) return e.location;
  int operand = StartLocation(*e.args[0]);
  return operand >= 0 && (e.location < 0 || operand < e.location) ? operand
                                                                  : e.location;
}

void ConvertTo(std::unique_ptr<Expr>* e, uint32_t type) {
  if ((*e)->type == type) return;
  auto cast = std::make_unique<Expr>();
  cast->kind = Expr::Kind::kCast;
  cast->type = type;
  cast->location = (*e)->location;
  cast->args.push_back(std::move(*e));
  *e = std::move(cast);
}

// Whether the i-th column of a SELECT (not itself a set operation) is a
// cast to regclass.
bool IsRegclassTarget(const PgQuery__SelectStmt* s, size_t i) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE || i >= s->n_target_list)
    return false;
  const PgQuery__Node* val = s->target_list[i]->res_target->val;
  if (!val || val->node_case != PG_QUERY__NODE__NODE_TYPE_CAST) return false;
  const PgQuery__TypeName* t = val->type_cast->type_name;
  std::string reg = Lower(sql::JoinNames(t->names, t->n_names));
  return reg == "regclass" || reg == "pg_catalog.regclass";
}

std::string BpcharSetOpColumn(const ColumnDesc& column,
                              const std::string& name) {
  // character(n) of different lengths, or with text or varchar: the result
  // has no length to pad to at output, so a char(n) side is padded here;
  // text and varchar become bpchar unchanged (binary coercible, blanks
  // kept). Trailing blanks do not count when rows are compared, as in
  // bpchar's comparison.
  std::string sql = name;
  if (column.type_oid == oid::kBpchar && column.type_modifier >= 5)
    sql = BpcharPadSql(name, static_cast<size_t>(column.type_modifier - 4));
  return "(" + sql + ") COLLATE RTRIM AS " + name;
}

}  // namespace kova::planner::expr_detail
