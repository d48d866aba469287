// Analysis of array expressions: ARRAY[...] constructors, subscripts and
// slices, x op ANY/ALL (array), and the polymorphic array functions and
// operators (PostgreSQL's anycompatible resolution).
#include <algorithm>

#include "planner/expr.h"
#include "planner/expr_internal.h"
#include "planner/types_array.h"
#include "sql/sql.h"

namespace kova::planner {
using namespace expr_detail;  // NOLINT: the helpers of this component

namespace {

using types::ArrayElementType;
using types::ArrayTypeOf;

std::unique_ptr<Expr> Cast(std::unique_ptr<Expr> arg, uint32_t type) {
  auto cast = std::make_unique<Expr>();
  cast->kind = Expr::Kind::kCast;
  cast->type = type;
  cast->location = arg->location;
  cast->args.push_back(std::move(arg));
  return cast;
}

std::unique_ptr<Expr> Function(const std::string& name, uint32_t type,
                               int location) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = name;
  e->type = type;
  e->location = location;
  return e;
}

PgError NoOperator(const std::string& op, uint32_t l, uint32_t r,
                   int location) {
  PgError err = Err(
      "42883",
      "operator does not exist: " + TypeName(l) + " " + op + " " + TypeName(r),
      location);
  err.hint =
      "No operator matches the given name and argument types. You might "
      "need to add explicit type casts.";
  return err;
}

// Signatures of the array functions: 'a' the array, 'e' its element, 'i'
// integer, 't' text, 'b' boolean. Results: the same letters, 'I' int4[],
// 'T' text[], 'j' json, 'N' name[].
struct ArrayFunctionDef {
  const char* name;
  const char* args;
  char result;
};

constexpr ArrayFunctionDef kArrayFunctions[] = {
    {"array_length", "ai", 'i'},    {"array_lower", "ai", 'i'},
    {"array_upper", "ai", 'i'},     {"array_ndims", "a", 'i'},
    {"array_dims", "a", 't'},       {"cardinality", "a", 'i'},
    {"array_append", "ae", 'a'},    {"array_prepend", "ea", 'a'},
    {"array_cat", "aa", 'a'},       {"array_remove", "ae", 'a'},
    {"array_replace", "aee", 'a'},  {"array_position", "ae", 'i'},
    {"array_position", "aei", 'i'}, {"array_positions", "ae", 'I'},
    {"array_to_string", "at", 't'}, {"array_to_string", "att", 't'},
    {"string_to_array", "tt", 'T'}, {"string_to_array", "ttt", 'T'},
    {"current_schemas", "b", 'N'},  {"array_to_json", "a", 'j'},
    {"array_to_json", "ab", 'j'},
};

}  // namespace

bool Analyzer::AnalyzeArrayExpr(const PgQuery__AArrayExpr* a, uint32_t target,
                                std::unique_ptr<Expr>* out, PgError* error) {
  std::vector<std::unique_ptr<Expr>> elems;
  bool nested = false;
  for (size_t i = 0; i < a->n_elements; i++) {
    const PgQuery__Node* n = a->elements[i];
    std::unique_ptr<Expr> e;
    if (n->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
      nested = true;
      if (!AnalyzeArrayExpr(n->a_array_expr, target, &e, error)) return false;
    } else if (!Analyze(n, &e, error)) {
      return false;
    }
    if (ArrayElementType(e->type)) nested = true;
    elems.push_back(std::move(e));
  }
  if (elems.empty()) {
    if (!target) {
      *error =
          Err("42P18", "cannot determine type of empty array", a->location);
      error->hint =
          "Explicitly cast to the desired type, for example "
          "ARRAY[]::integer[].";
      return false;
    }
    *out = Const(target, std::string("{}"), a->location);
    return true;
  }
  uint32_t element;  // what each item becomes
  if (target) {
    element = nested ? target : ArrayElementType(target);
  } else {
    std::vector<uint32_t> types;
    for (const auto& e : elems) types.push_back(e->type);
    uint32_t x = 0, y = 0;
    element = SelectCommonType(types, &x, &y);
    if (!element) {
      // The position of the first element of the type that does not fit.
      int where = a->location;
      for (const auto& e : elems)
        if (e->type == y) {
          where = e->location;
          break;
        }
      *error = Err("42804",
                   "ARRAY types " + TypeName(x) + " and " + TypeName(y) +
                       " cannot be matched",
                   where);
      return false;
    }
    if (element == oid::kUnknown) element = oid::kText;
  }
  uint32_t array_type = nested ? element : ArrayTypeOf(element);
  if (!array_type || (nested && !ArrayElementType(element))) {
    *error = Err("42704",
                 "could not find array type for data type " + TypeName(element),
                 a->location);
    return false;
  }
  auto e = Function("array", array_type, a->location);
  if (nested) e->value = "nested";
  for (auto& item : elems) {
    if (!Coerce(&item, element, -1, error)) return false;
    if (item->type != element) {
      if (!ImplicitCastOrArray(item->type, element) && !target) {
        *error = Err("42804",
                     "ARRAY could not convert type " + TypeName(item->type) +
                         " to " + TypeName(element),
                     item->location);
        return false;
      }
      item = Cast(std::move(item), element);
    }
    e->args.push_back(std::move(item));
  }
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeIndirection(const PgQuery__AIndirection* ind,
                                  std::unique_ptr<Expr>* out, PgError* error) {
  std::unique_ptr<Expr> arg;
  if (!Analyze(ind->arg, &arg, error)) return false;
  bool slice = false;
  for (size_t i = 0; i < ind->n_indirection; i++) {
    const PgQuery__Node* n = ind->indirection[i];
    if (n->node_case != PG_QUERY__NODE__NODE_A_INDICES) {
      *error =
          Err("0A000", "field selection is not supported yet", arg->location);
      return false;
    }
    slice |= n->a_indices->is_slice;
  }
  if (!Coerce(&arg, oid::kText, -1, error)) return false;
  uint32_t element = ArrayElementType(arg->type);
  if (arg->type == oid::kName && !slice && ind->n_indirection == 1) {
    // name[i]: its byte i, counted from 0 (name is a fixed-length array of
    // "char"), as pg_dump's typname[0] = '_' reads it.
    std::unique_ptr<Expr> index, position;
    const PgQuery__AIndices* at = ind->indirection[0]->a_indices;
    if (!Analyze(at->uidx, &index, error) ||
        !Coerce(&index, oid::kInt4, -1, error) ||
        !ResolveOperator("+", std::move(index),
                         Const(oid::kInt4, "1", arg->location), arg->location,
                         &position, error))
      return false;
    auto e = Function("substr", oid::kText, arg->location);
    e->args.push_back(std::move(arg));
    e->args.push_back(std::move(position));
    e->args.push_back(Const(oid::kInt4, "1", e->location));
    *out = std::move(e);
    return true;
  }
  if (!element) {
    *error = Err("42804",
                 "cannot subscript type " + TypeName(arg->type) +
                     " because it does not support subscripting",
                 arg->location);
    return false;
  }
  if (ind->n_indirection > static_cast<size_t>(types::kMaxArrayDims)) {
    *error = Err("54000", "number of array dimensions (" +
                              std::to_string(ind->n_indirection) +
                              ") exceeds the maximum allowed (6)");
    return false;
  }
  auto e = Function("subscript", slice ? arg->type : element, arg->location);
  e->typmod = arg->typmod;
  std::string flags;
  auto index = [&](const PgQuery__Node* n, std::unique_ptr<Expr>* idx) {
    if (!n) {
      *idx = Const(oid::kInt4, std::nullopt, -1);
      return true;
    }
    if (!Analyze(n, idx, error) || !Coerce(idx, oid::kInt4, -1, error))
      return false;
    uint32_t t = (*idx)->type;
    if (t == oid::kInt4) return true;
    if (!IsNumber(t)) {
      *error = Err("42804", "array subscript must have type integer",
                   (*idx)->location);
      return false;
    }
    *idx = Cast(std::move(*idx), oid::kInt4);
    return true;
  };
  e->args.push_back(std::move(arg));
  for (size_t i = 0; i < ind->n_indirection; i++) {
    const PgQuery__AIndices* ai = ind->indirection[i]->a_indices;
    std::unique_ptr<Expr> lower, upper;
    if (!index(ai->is_slice ? ai->lidx : nullptr, &lower) ||
        !index(ai->uidx, &upper))
      return false;
    // i: a single subscript (1:n in a slice); otherwise which slice bounds
    // were written (l, u, s both, n neither).
    flags += !ai->is_slice          ? 'i'
             : ai->lidx && ai->uidx ? 's'
             : ai->lidx             ? 'l'
             : ai->uidx             ? 'u'
                                    : 'n';
    e->args.push_back(std::move(lower));
    e->args.push_back(std::move(upper));
  }
  e->value = flags;
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeScalarArrayOp(const PgQuery__AExpr* a,
                                    std::unique_ptr<Expr>* out,
                                    PgError* error) {
  bool all = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL;
  std::string op = sql::JoinNames(a->name, a->n_name);
  if (op.rfind("pg_catalog.", 0) == 0) op = op.substr(11);
  if (op == "!=") op = "<>";
  std::unique_ptr<Expr> left, right;
  if (!Analyze(a->lexpr, &left, error) || !Analyze(a->rexpr, &right, error))
    return false;
  if (right->type == oid::kUnknown) {
    if (left->type == oid::kUnknown && !Coerce(&left, oid::kText, -1, error))
      return false;
    uint32_t array_type = ArrayTypeOf(left->type);
    if (array_type && !Coerce(&right, array_type, -1, error)) return false;
  }
  if ((left->type == oid::kOid || IsInteger(left->type)) &&
      right->kind == Expr::Kind::kFunction && right->name == "array" &&
      !right->args.empty() &&
      std::all_of(right->args.begin(), right->args.end(),
                  [](const auto& x) { return IsRegclassValue(*x); })) {
    // An OID in an array of regclass values (names): compare names, as
    // an OID compared with one regclass value does.
    left = RegclassNameOf(std::move(left));
  }
  uint32_t element = ArrayElementType(right->type);
  if (!element) {
    *error = Err("42809", "op ANY/ALL (array) requires array on right side",
                 a->location);
    return false;
  }
  if (!Coerce(&left, element, -1, error)) return false;
  auto param = [](int n, uint32_t type, int32_t typmod) {
    auto p = std::make_unique<Expr>();
    p->kind = Expr::Kind::kParam;
    p->param = n;
    p->type = type;
    p->typmod = typmod;
    return p;
  };
  std::unique_ptr<Expr> cmp;
  if (!ResolveOperator(op, param(0, left->type, left->typmod),
                       param(1, element, right->typmod), a->location, &cmp,
                       error))
    return false;
  if (cmp->type != oid::kBool) {
    *error = Err("42809",
                 "op ANY/ALL (array) requires operator to yield "
                 "boolean",
                 a->location);
    return false;
  }
  auto e = Function(all ? "all" : "any", oid::kBool, a->location);
  e->element_op = std::shared_ptr<const Expr>(std::move(cmp));
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeArrayFunction(const std::string& name,
                                    std::vector<std::unique_ptr<Expr>>* args,
                                    int location, bool* handled,
                                    std::unique_ptr<Expr>* out,
                                    PgError* error) {
  *handled = false;
  const ArrayFunctionDef* def = nullptr;
  bool known = false;
  for (const ArrayFunctionDef& d : kArrayFunctions) {
    if (name != d.name) continue;
    known = true;
    if (std::string(d.args).size() == args->size()) def = &d;
  }
  if (!known) return true;
  *handled = true;
  if (!def) {
    *error = NoFunction(name, *args, location);
    return false;
  }
  // The element type: common to the array arguments' elements and the
  // element arguments.
  std::vector<uint32_t> elems;
  bool polymorphic = false, any_known = false;
  for (size_t i = 0; i < args->size(); i++) {
    char k = def->args[i];
    uint32_t t = (*args)[i]->type;
    if (k != 'a' && k != 'e') continue;
    polymorphic = true;
    if (t == oid::kUnknown) continue;
    any_known = true;
    if (k == 'a') {
      uint32_t el = ArrayElementType(t);
      if (!el) {
        *error = NoFunction(name, *args, location);
        return false;
      }
      elems.push_back(el);
    } else {
      if (ArrayElementType(t)) {
        *error = NoFunction(name, *args, location);
        return false;
      }
      elems.push_back(t);
    }
  }
  uint32_t element = 0;
  if (polymorphic) {
    if (!any_known) {
      *error = Err("42804",
                   "could not determine polymorphic type because input has "
                   "type unknown");
      return false;
    }
    uint32_t x = 0, y = 0;
    element = SelectCommonType(elems, &x, &y);
    if (!element) {
      *error = NoFunction(name, *args, location);
      return false;
    }
  }
  uint32_t array_type = element ? ArrayTypeOf(element) : 0;
  for (size_t i = 0; i < args->size(); i++) {
    auto& arg = (*args)[i];
    char k = def->args[i];
    uint32_t want = k == 'a'   ? array_type
                    : k == 'e' ? element
                    : k == 'i' ? oid::kInt4
                    : k == 'b' ? oid::kBool
                               : oid::kText;
    if (!Coerce(&arg, want, -1, error)) return false;
    if (arg->type == want) continue;
    bool ok = k == 'i'   ? IsInteger(arg->type)
              : k == 't' ? IsText(arg->type)
              : k == 'b' ? false
                         : ImplicitCastOrArray(arg->type, want);
    if (!ok) {
      *error = NoFunction(name, *args, location);
      return false;
    }
    arg = Cast(std::move(arg), want);
  }
  uint32_t result = def->result == 'a'   ? array_type
                    : def->result == 'e' ? element
                    : def->result == 'i' ? oid::kInt4
                    : def->result == 't' ? oid::kText
                    : def->result == 'I' ? ArrayTypeOf(oid::kInt4)
                    : def->result == 'T' ? ArrayTypeOf(oid::kText)
                    : def->result == 'j' ? oid::kJson
                    : def->result == 'N' ? ArrayTypeOf(oid::kName)
                                         : oid::kBool;
  auto e = Function(name, result, location);
  e->args = std::move(*args);
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeArrayOperator(const std::string& op,
                                    std::unique_ptr<Expr>* left,
                                    std::unique_ptr<Expr>* right, int location,
                                    bool* handled, std::unique_ptr<Expr>* out,
                                    PgError* error) {
  *handled = false;
  if (!*left) return true;
  uint32_t lt = (*left)->type, rt = (*right)->type;
  uint32_t le = ArrayElementType(lt), re = ArrayElementType(rt);
  if (!le && !re) return true;
  bool compare = op == "=" || op == "<>" || op == "<" || op == ">" ||
                 op == "<=" || op == ">=";
  bool contain = op == "@>" || op == "<@" || op == "&&";
  if (!compare && !contain && op != "||") return true;
  *handled = true;
  // An unknown side takes the array type of the other.
  if (lt == oid::kUnknown || rt == oid::kUnknown) {
    uint32_t t = lt == oid::kUnknown ? rt : lt;
    if (!Coerce(lt == oid::kUnknown ? left : right, t, -1, error)) return false;
    lt = rt = t;
    le = re = ArrayElementType(t);
  }
  if (compare) {
    if (lt != rt) {
      *error = NoOperator(op, lt, rt, location);
      return false;
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kOperator;
    e->name = op;
    e->type = oid::kBool;
    e->location = location;
    e->args.push_back(std::move(*left));
    e->args.push_back(std::move(*right));
    *out = std::move(e);
    return true;
  }
  // ||, @>, <@, &&: anycompatible over the elements.
  if (contain && (!le || !re)) {
    *error = NoOperator(op, lt, rt, location);
    return false;
  }
  uint32_t x = 0, y = 0;
  uint32_t element = SelectCommonType({le ? le : lt, re ? re : rt}, &x, &y);
  uint32_t array_type = element ? ArrayTypeOf(element) : 0;
  if (!array_type) {
    *error = NoOperator(op, lt, rt, location);
    return false;
  }
  auto fit = [&](std::unique_ptr<Expr>* e, uint32_t want) {
    if ((*e)->type != want) *e = Cast(std::move(*e), want);
  };
  fit(left, le ? array_type : element);
  fit(right, re ? array_type : element);
  std::string name = op == "@>"   ? "arraycontains"
                     : op == "<@" ? "arraycontained"
                     : op == "&&" ? "arrayoverlap"
                     : le && re   ? "array_cat"
                     : le         ? "array_append"
                                  : "array_prepend";
  auto e = Function(name, contain ? oid::kBool : array_type, location);
  e->args.push_back(std::move(*left));
  e->args.push_back(std::move(*right));
  *out = std::move(e);
  return true;
}

}  // namespace kova::planner
