// Evaluation of array expressions and functions over canonical array text.
#include <algorithm>
#include <limits>

#include "planner/expr.h"
#include "planner/expr_internal.h"
#include "planner/types_array.h"

namespace kova::planner {
using namespace expr_detail;  // NOLINT: the helpers of this component

using types::ArrayElementType;
using types::ArrayValue;
using types::FormatArray;

namespace {

bool Parse(uint32_t type, const std::string& text,
           const types::TypeContext& ctx, ArrayValue* out, PgError* error) {
  return types::ParseArray(text, ArrayElementType(type), -1, ctx, false, out,
                           error);
}

bool Incompatible(PgError* error, std::string detail) {
  *error = Err("2202E", "cannot concatenate incompatible arrays");
  error->detail = std::move(detail);
  return false;
}

// IS NOT DISTINCT FROM between elements.
bool SameElement(uint32_t element, const Value& a, const Value& b,
                 const types::TypeContext& ctx, bool* same, PgError* error) {
  if (!a || !b) {
    *same = !a && !b;
    return true;
  }
  int c;
  if (!CompareValues(element, element, *a, *b, ctx, &c, error)) return false;
  *same = c == 0;
  return true;
}

void OneDim(ArrayValue* v, int32_t lbound) {
  if (v->items.empty()) {
    v->dims.clear();
    v->lbounds.clear();
    return;
  }
  v->dims = {static_cast<int32_t>(v->items.size())};
  v->lbounds = {lbound};
}

bool Concatenate(const ArrayValue& a, const ArrayValue& b, ArrayValue* out,
                 PgError* error) {
  if (a.items.empty()) {
    *out = b;
    return true;
  }
  if (b.items.empty()) {
    *out = a;
    return true;
  }
  size_t na = a.dims.size(), nb = b.dims.size();
  if (na == nb) {
    for (size_t i = 1; i < na; i++)
      if (a.dims[i] != b.dims[i] || a.lbounds[i] != b.lbounds[i])
        return Incompatible(error,
                            "Arrays with differing element dimensions are not "
                            "compatible for concatenation.");
    *out = a;
    out->dims[0] += b.dims[0];
  } else if (na == nb + 1 || nb == na + 1) {
    const ArrayValue& big = na > nb ? a : b;
    const ArrayValue& small = na > nb ? b : a;
    for (size_t i = 0; i < small.dims.size(); i++)
      if (small.dims[i] != big.dims[i + 1] ||
          small.lbounds[i] != big.lbounds[i + 1])
        return Incompatible(error,
                            "Arrays with differing dimensions are not "
                            "compatible for concatenation.");
    *out = big;  // its bounds, one more element in the outer dimension
    out->dims[0] += 1;
  } else {
    return Incompatible(error, "Arrays of " + std::to_string(na) + " and " +
                                   std::to_string(nb) +
                                   " dimensions are not compatible for "
                                   "concatenation.");
  }
  out->items = a.items;
  out->items.insert(out->items.end(), b.items.begin(), b.items.end());
  return true;
}

// array_contain_compare: every (matchall) or some non-null element of `a`
// equals an element of `b`.
bool ContainCompare(uint32_t element, const ArrayValue& a, const ArrayValue& b,
                    bool matchall, const types::TypeContext& ctx, bool* result,
                    PgError* error) {
  *result = matchall;
  for (const auto& x : a.items) {
    if (!x) {
      if (matchall) {
        *result = false;
        return true;
      }
      continue;
    }
    bool found = false;
    for (const auto& y : b.items) {
      if (!y) continue;
      int c;
      if (!CompareValues(element, element, *x, *y, ctx, &c, error))
        return false;
      if (c == 0) {
        found = true;
        break;
      }
    }
    if (found && !matchall) {
      *result = true;
      return true;
    }
    if (!found && matchall) {
      *result = false;
      return true;
    }
  }
  return true;
}

bool Subscript(const Expr& e, const std::vector<Value>& args,
               const types::TypeContext& ctx, Value* out, PgError* error) {
  *out = std::nullopt;
  if (!args[0]) return true;
  const std::string& flags = *e.value;
  bool slice = e.type == e.args[0]->type;
  ArrayValue v;
  if (!Parse(e.args[0]->type, *args[0], ctx, &v, error)) return false;
  size_t nsub = flags.size();
  size_t ndim = v.dims.size();
  std::vector<int64_t> lower(nsub), upper(nsub);
  for (size_t i = 0; i < nsub; i++) {
    const Value& lo = args[1 + 2 * i];
    const Value& up = args[2 + 2 * i];
    char f = flags[i];
    bool has_lo = f == 's' || f == 'l', has_up = f != 'l' && f != 'n';
    if ((has_lo && !lo) || (has_up && !up)) return true;  // NULL subscript
    int64_t dim_lb = i < ndim ? v.lbounds[i] : 1;
    int64_t dim_ub = i < ndim ? dim_lb + v.dims[i] - 1 : 0;
    if (f == 'i') {
      lower[i] = slice ? 1 : 0;
    } else if (has_lo) {
      ToInt64(*lo, &lower[i]);
    } else {
      lower[i] = dim_lb;
    }
    if (has_up)
      ToInt64(*up, &upper[i]);
    else
      upper[i] = dim_ub;
  }
  if (!slice) {
    if (nsub != ndim || ndim == 0) return true;
    int64_t offset = 0;
    for (size_t i = 0; i < ndim; i++) {
      int64_t k = upper[i] - v.lbounds[i];
      if (k < 0 || k >= v.dims[i]) return true;
      offset = offset * v.dims[i] + k;
    }
    *out = v.items[offset];
    return true;
  }
  ArrayValue r;
  if (ndim == 0 || nsub > ndim) {
    *out = "{}";
    return true;
  }
  std::vector<int64_t> lo(ndim), hi(ndim);
  for (size_t i = 0; i < ndim; i++) {
    int64_t lb = v.lbounds[i], ub = lb + v.dims[i] - 1;
    lo[i] = i < nsub ? std::max(lower[i], lb) : lb;
    hi[i] = i < nsub ? std::min(upper[i], ub) : ub;
    if (lo[i] > hi[i]) {
      *out = "{}";
      return true;
    }
    r.dims.push_back(static_cast<int32_t>(hi[i] - lo[i] + 1));
    r.lbounds.push_back(1);
  }
  // Walk the slice in row-major order.
  std::vector<int64_t> idx(lo);
  while (true) {
    int64_t offset = 0;
    for (size_t i = 0; i < ndim; i++)
      offset = offset * v.dims[i] + (idx[i] - v.lbounds[i]);
    r.items.push_back(v.items[offset]);
    size_t d = ndim;
    while (d > 0) {
      d--;
      if (++idx[d] <= hi[d]) break;
      idx[d] = lo[d];
      if (d == 0) {
        *out = FormatArray(r);
        return true;
      }
    }
  }
}

bool Construct(const Expr& e, const std::vector<Value>& args,
               const types::TypeContext& ctx, Value* out, PgError* error) {
  ArrayValue r;
  if (!e.value) {
    r.items = args;
    OneDim(&r, 1);
    *out = FormatArray(r);
    return true;
  }
  // Sub-arrays: all of the same dimensions; NULL or empty ones only when
  // all are.
  bool have_empty = false;
  bool first = true;
  ArrayValue shape;
  for (size_t i = 0; i < args.size(); i++) {
    ArrayValue sub;
    if (args[i] && !Parse(e.args[i]->type, *args[i], ctx, &sub, error))
      return false;
    if (!args[i] || sub.items.empty()) {
      have_empty = true;
      continue;
    }
    if (first) {
      shape = sub;
      first = false;
    } else if (sub.dims != shape.dims || sub.lbounds != shape.lbounds) {
      *error = Err("2202E",
                   "multidimensional arrays must have array expressions with "
                   "matching dimensions");
      return false;
    }
    r.items.insert(r.items.end(), sub.items.begin(), sub.items.end());
  }
  if (first) {
    *out = "{}";
    return true;
  }
  if (have_empty) {
    *error = Err("2202E",
                 "multidimensional arrays must have array expressions with "
                 "matching dimensions");
    return false;
  }
  if (shape.dims.size() + 1 > static_cast<size_t>(types::kMaxArrayDims)) {
    *error = Err("54000", "number of array dimensions (" +
                              std::to_string(shape.dims.size() + 1) +
                              ") exceeds the maximum allowed (6)");
    return false;
  }
  r.dims = shape.dims;
  r.dims.insert(r.dims.begin(), static_cast<int32_t>(args.size()));
  r.lbounds = shape.lbounds;
  r.lbounds.insert(r.lbounds.begin(), 1);
  *out = FormatArray(r);
  return true;
}

bool ScalarArrayOp(const Expr& e, const std::vector<Value>& args,
                   SessionHooks* hooks, Value* out, PgError* error) {
  bool any = e.name == "any";
  *out = std::nullopt;
  if (!args[1]) return true;
  ArrayValue v;
  if (!Parse(e.args[1]->type, *args[1], hooks->type_context(), &v, error))
    return false;
  if (v.items.empty()) {
    *out = any ? "f" : "t";
    return true;
  }
  bool saw_null = false;
  for (const auto& item : v.items) {
    Value r;
    if (!Evaluate(*e.element_op, {args[0], item}, hooks, &r, error))
      return false;
    if (!r) {
      saw_null = true;
    } else if ((*r == "t") == any) {
      *out = any ? "t" : "f";
      return true;
    }
  }
  if (!saw_null) *out = any ? "f" : "t";
  return true;
}

// An array about to be built with `items` elements and these bounds: the
// limits of PostgreSQL (MaxArraySize, int4 bounds) before any allocation.
bool CheckNewArray(int64_t items, int64_t lb, int64_t ub, PgError* error) {
  if (items > 134217727) {
    *error = Err("54000", "array size exceeds the maximum allowed (134217727)");
    return false;
  }
  if (lb < std::numeric_limits<int32_t>::min() ||
      ub >= std::numeric_limits<int32_t>::max()) {
    *error =
        Err("54000", "array lower bound is too large: " + std::to_string(lb));
    return false;
  }
  return true;
}

// array_set_element: a[i][j] = value (SET a[i] = x), extending a
// one-dimensional array with NULLs as needed.
bool AssignElement(const Expr& e, const std::vector<Value>& args,
                   const types::TypeContext& ctx, Value* out, PgError* error) {
  size_t nsub = args.size() - 2;
  ArrayValue v;
  if (args[0] && !Parse(e.args[0]->type, *args[0], ctx, &v, error))
    return false;
  std::vector<int64_t> idx(nsub);
  for (size_t i = 0; i < nsub; i++) {
    if (!args[1 + i]) {
      *error = Err("22004", "array subscript in assignment must not be null");
      return false;
    }
    ToInt64(*args[1 + i], &idx[i]);
  }
  const Value& value = args.back();
  if (v.items.empty()) {
    for (int64_t i : idx)
      if (!CheckNewArray(1, i, i, error)) return false;
    v.dims.assign(nsub, 1);
    v.lbounds.clear();
    for (int64_t i : idx) v.lbounds.push_back(static_cast<int32_t>(i));
    v.items = {value};
    *out = FormatArray(v);
    return true;
  }
  if (nsub != v.dims.size()) {
    *error = Err("2202E", "wrong number of array subscripts");
    return false;
  }
  if (nsub == 1) {
    int64_t lb = v.lbounds[0], ub = lb + v.dims[0] - 1;
    int64_t new_lb = std::min(lb, idx[0]), new_ub = std::max(ub, idx[0]);
    if (!CheckNewArray(new_ub - new_lb + 1, new_lb, new_ub, error))
      return false;
    if (idx[0] < lb) {
      v.items.insert(v.items.begin(), lb - idx[0], std::nullopt);
      v.lbounds[0] = static_cast<int32_t>(idx[0]);
      lb = idx[0];
    } else if (idx[0] > ub) {
      v.items.resize(v.items.size() + (idx[0] - ub), std::nullopt);
    }
    v.dims[0] = static_cast<int32_t>(v.items.size());
    v.items[idx[0] - lb] = value;
    *out = FormatArray(v);
    return true;
  }
  int64_t offset = 0;
  for (size_t i = 0; i < nsub; i++) {
    int64_t k = idx[i] - v.lbounds[i];
    if (k < 0 || k >= v.dims[i]) {
      *error = Err("2202E", "array subscript out of range");
      return false;
    }
    offset = offset * v.dims[i] + k;
  }
  v.items[offset] = value;
  *out = FormatArray(v);
  return true;
}

// array_set_slice: a[l:u] = source (SET a[1:2] = ...). One-dimensional
// arrays extend (gaps become NULL); in several dimensions the slice must be
// within the array.
bool AssignSlice(const Expr& e, const std::vector<Value>& args,
                 const types::TypeContext& ctx, Value* out, PgError* error) {
  const std::string& flags = *e.value;
  size_t nsub = flags.size();
  const Value& source = args.back();
  if (!source) {  // a NULL source changes nothing
    *out = args[0];
    return true;
  }
  ArrayValue v, src;
  if ((args[0] && !Parse(e.args[0]->type, *args[0], ctx, &v, error)) ||
      !Parse(e.args[0]->type, *source, ctx, &src, error))
    return false;
  std::vector<int64_t> lo(nsub), hi(nsub);
  for (size_t i = 0; i < nsub; i++) {
    const Value& l = args[1 + 2 * i];
    const Value& u = args[2 + 2 * i];
    char f = flags[i];
    bool has_lo = f == 's' || f == 'l', has_up = f != 'l' && f != 'n';
    if ((has_lo && !l) || (has_up && !u)) {
      *error = Err("22004", "array subscript in assignment must not be null");
      return false;
    }
    if (v.items.empty() && (!has_up || (f != 'i' && !has_lo))) {
      *error =
          Err("2202E", "array slice subscript must provide both boundaries");
      error->detail =
          "When assigning to a slice of an empty array value, slice "
          "boundaries must be fully specified.";
      return false;
    }
    int64_t lb = i < v.dims.size() ? v.lbounds[i] : 1;
    int64_t ub = i < v.dims.size() ? lb + v.dims[i] - 1 : 0;
    lo[i] = f == 'i' ? 1 : has_lo ? 0 : lb;
    if (has_lo) ToInt64(*l, &lo[i]);
    hi[i] = ub;
    if (has_up) ToInt64(*u, &hi[i]);
    if (lo[i] > hi[i]) {
      *error = Err("2202E", "upper bound cannot be less than lower bound");
      return false;
    }
  }
  size_t needed = 1;
  for (size_t i = 0; i < nsub; i++) {
    if (!CheckNewArray(hi[i] - lo[i] + 1, lo[i], hi[i], error)) return false;
    needed *= hi[i] - lo[i] + 1;
    if (!CheckNewArray(static_cast<int64_t>(needed), lo[i], hi[i], error))
      return false;
  }
  if (v.items.empty()) {
    if (src.items.size() < needed) {
      *error = Err("2202E", "source array too small");
      return false;
    }
    ArrayValue r;
    for (size_t i = 0; i < nsub; i++) {
      r.dims.push_back(static_cast<int32_t>(hi[i] - lo[i] + 1));
      r.lbounds.push_back(static_cast<int32_t>(lo[i]));
    }
    r.items.assign(src.items.begin(), src.items.begin() + needed);
    *out = FormatArray(r);
    return true;
  }
  if (v.dims.size() == 1 && nsub == 1) {
    int64_t lb = v.lbounds[0], ub = lb + v.dims[0] - 1;
    if (src.items.size() < needed) {
      *error = Err("2202E", "source array too small");
      return false;
    }
    int64_t new_lb = std::min(lb, lo[0]), new_ub = std::max(ub, hi[0]);
    if (!CheckNewArray(new_ub - new_lb + 1, new_lb, new_ub, error))
      return false;
    std::vector<Value> items(new_ub - new_lb + 1);
    for (int64_t k = lb; k <= ub; k++) items[k - new_lb] = v.items[k - lb];
    for (int64_t k = lo[0]; k <= hi[0]; k++)
      items[k - new_lb] = src.items[k - lo[0]];
    v.items = std::move(items);
    v.dims = {static_cast<int32_t>(v.items.size())};
    v.lbounds = {static_cast<int32_t>(new_lb)};
    *out = FormatArray(v);
    return true;
  }
  if (nsub > v.dims.size()) {
    *error = Err("2202E", "wrong number of array subscripts");
    return false;
  }
  // Several dimensions: the slice (full range in unnamed dimensions) must
  // lie within the array; its elements take the source's in order.
  size_t ndim = v.dims.size();
  lo.resize(ndim);
  hi.resize(ndim);
  needed = 1;
  for (size_t i = 0; i < ndim; i++) {
    int64_t lb = v.lbounds[i], ub = lb + v.dims[i] - 1;
    if (i >= nsub) lo[i] = lb, hi[i] = ub;
    if (lo[i] < lb || hi[i] > ub) {
      *error = Err("2202E", "array subscript out of range");
      return false;
    }
    needed *= hi[i] - lo[i] + 1;
  }
  if (src.items.size() < needed) {
    *error = Err("2202E", "source array too small");
    return false;
  }
  std::vector<int64_t> idx(lo);
  for (size_t n = 0; n < needed; n++) {
    int64_t offset = 0;
    for (size_t i = 0; i < ndim; i++)
      offset = offset * v.dims[i] + (idx[i] - v.lbounds[i]);
    v.items[offset] = src.items[n];
    for (size_t d = ndim; d-- > 0;) {
      if (++idx[d] <= hi[d]) break;
      idx[d] = lo[d];
    }
  }
  *out = FormatArray(v);
  return true;
}

}  // namespace

bool expr_detail::CompareArrays(uint32_t type, const std::string& l,
                                const std::string& r,
                                const types::TypeContext& ctx, int* out,
                                PgError* error) {
  uint32_t element = ArrayElementType(type);
  ArrayValue a, b;
  if (!Parse(type, l, ctx, &a, error) || !Parse(type, r, ctx, &b, error))
    return false;
  size_t n = std::min(a.items.size(), b.items.size());
  for (size_t i = 0; i < n; i++) {
    const Value& x = a.items[i];
    const Value& y = b.items[i];
    if (!x || !y) {
      if (!x && !y) continue;
      *out = !x ? 1 : -1;  // NULL sorts after everything
      return true;
    }
    int c;
    if (!CompareValues(element, element, *x, *y, ctx, &c, error)) return false;
    if (c != 0) {
      *out = c;
      return true;
    }
  }
  auto three = [](int64_t x, int64_t y) { return x < y ? -1 : x > y ? 1 : 0; };
  int c = three(a.items.size(), b.items.size());
  if (!c) c = three(a.dims.size(), b.dims.size());
  for (size_t i = 0; !c && i < a.dims.size(); i++)
    c = three(a.dims[i], b.dims[i]);
  for (size_t i = 0; !c && i < a.dims.size(); i++)
    c = three(a.lbounds[i], b.lbounds[i]);
  *out = c;
  return true;
}

bool expr_detail::EvalArrayFunction(const Expr& e,
                                    const std::vector<Value>& args,
                                    SessionHooks* hooks, bool* handled,
                                    Value* out, PgError* error) {
  const std::string& n = e.name;
  const types::TypeContext& ctx = hooks->type_context();
  *handled = true;
  *out = std::nullopt;
  if (n == "array") return Construct(e, args, ctx, out, error);
  if (n == "subscript") return Subscript(e, args, ctx, out, error);
  if (n == "array_assign") return AssignElement(e, args, ctx, out, error);
  if (n == "array_assign_slice") return AssignSlice(e, args, ctx, out, error);
  if (n == "any" || n == "all")
    return ScalarArrayOp(e, args, hooks, out, error);
  auto parse = [&](size_t i, ArrayValue* v) {
    return Parse(e.args[i]->type, *args[i], ctx, v, error);
  };
  auto dimension_arg = [&](const ArrayValue& v, int64_t* d) {
    if (!args[1]) return false;
    ToInt64(*args[1], d);
    return *d >= 1 && *d <= static_cast<int64_t>(v.dims.size());
  };
  if (n == "array_length" || n == "array_lower" || n == "array_upper") {
    if (!args[0]) return true;
    ArrayValue v;
    int64_t d;
    if (!parse(0, &v)) return false;
    if (!dimension_arg(v, &d)) return true;
    int64_t lb = v.lbounds[d - 1], len = v.dims[d - 1];
    *out = std::to_string(n == "array_length"  ? len
                          : n == "array_lower" ? lb
                                               : lb + len - 1);
    return true;
  }
  if (n == "array_ndims" || n == "array_dims" || n == "cardinality") {
    if (!args[0]) return true;
    ArrayValue v;
    if (!parse(0, &v)) return false;
    if (n == "cardinality") {
      *out = std::to_string(v.items.size());
    } else if (!v.dims.empty()) {
      if (n == "array_ndims") {
        *out = std::to_string(v.dims.size());
      } else {
        std::string s;
        for (size_t i = 0; i < v.dims.size(); i++)
          s += "[" + std::to_string(v.lbounds[i]) + ":" +
               std::to_string(int64_t{v.lbounds[i]} + v.dims[i] - 1) + "]";
        *out = s;
      }
    }
    return true;
  }
  if (n == "array_cat") {
    if (!args[0] || !args[1]) {
      *out = args[0] ? args[0] : args[1];
      return true;
    }
    ArrayValue a, b, r;
    if (!parse(0, &a) || !parse(1, &b) || !Concatenate(a, b, &r, error))
      return false;
    *out = FormatArray(r);
    return true;
  }
  if (n == "array_append" || n == "array_prepend") {
    bool append = n == "array_append";
    size_t ai = append ? 0 : 1;
    ArrayValue v;
    if (args[ai] && !parse(ai, &v)) return false;
    if (v.dims.size() > 1) {
      *error = Err("2202E", "argument must be empty or one-dimensional array");
      return false;
    }
    int32_t lb = v.dims.empty() ? 1 : v.lbounds[0];
    if (!v.dims.empty() &&
        ((!append && lb == std::numeric_limits<int32_t>::min()) ||
         (append &&
          int64_t{lb} + v.dims[0] >= std::numeric_limits<int32_t>::max()))) {
      *error = Err("22003", "integer out of range");
      return false;
    }
    const Value& item = args[append ? 1 : 0];
    if (append)
      v.items.push_back(item);
    else
      v.items.insert(v.items.begin(), item);
    OneDim(&v, lb);
    *out = FormatArray(v);
    return true;
  }
  uint32_t element = e.args.empty() ? 0 : ArrayElementType(e.args[0]->type);
  if (n == "array_remove" || n == "array_replace") {
    if (!args[0]) return true;
    ArrayValue v;
    if (!parse(0, &v)) return false;
    if (n == "array_remove" && v.dims.size() > 1) {
      *error = Err("0A000",
                   "removing elements from multidimensional arrays is not "
                   "supported");
      return false;
    }
    std::vector<Value> kept;
    for (auto& item : v.items) {
      bool same;
      if (!SameElement(element, item, args[1], ctx, &same, error)) return false;
      if (n == "array_replace") {
        kept.push_back(same ? args[2] : item);
      } else if (!same) {
        kept.push_back(item);
      }
    }
    if (n == "array_remove") {
      int32_t lb = v.dims.empty() ? 1 : v.lbounds[0];
      v.items = std::move(kept);
      OneDim(&v, lb);
    } else {
      v.items = std::move(kept);
    }
    *out = FormatArray(v);
    return true;
  }
  if (n == "array_position" || n == "array_positions") {
    if (!args[0]) return true;
    ArrayValue v;
    if (!parse(0, &v)) return false;
    if (v.dims.size() > 1) {
      *error = Err("0A000",
                   "searching for elements in multidimensional arrays is not "
                   "supported");
      return false;
    }
    int64_t lb = v.dims.empty() ? 1 : v.lbounds[0];
    int64_t start = lb;
    if (args.size() > 2) {
      if (!args[2]) {
        *error = Err("22004", "initial position must not be null");
        return false;
      }
      ToInt64(*args[2], &start);
    }
    ArrayValue found;
    for (size_t i = 0; i < v.items.size(); i++) {
      int64_t pos = lb + static_cast<int64_t>(i);
      if (pos < start) continue;
      bool same;
      if (!SameElement(element, v.items[i], args[1], ctx, &same, error))
        return false;
      if (!same) continue;
      if (n == "array_position") {
        *out = std::to_string(pos);
        return true;
      }
      found.items.push_back(std::to_string(pos));
    }
    if (n == "array_positions") {
      OneDim(&found, 1);
      *out = FormatArray(found);
    }
    return true;
  }
  if (n == "arraycontains" || n == "arraycontained" || n == "arrayoverlap") {
    if (!args[0] || !args[1]) return true;
    ArrayValue a, b;
    if (!parse(0, &a) || !parse(1, &b)) return false;
    bool r;
    bool ok = n == "arraycontains"
                  ? ContainCompare(element, b, a, true, ctx, &r, error)
              : n == "arraycontained"
                  ? ContainCompare(element, a, b, true, ctx, &r, error)
                  : ContainCompare(element, a, b, false, ctx, &r, error);
    if (!ok) return false;
    *out = r ? "t" : "f";
    return true;
  }
  if (n == "array_to_string") {
    if (!args[0] || !args[1]) return true;
    ArrayValue v;
    if (!parse(0, &v)) return false;
    bool null_string = args.size() > 2 && args[2];
    std::string s;
    bool first = true;
    for (const auto& item : v.items) {
      if (!item && !null_string) continue;
      if (!first) s += *args[1];
      first = false;
      s += item ? *item : *args[2];
    }
    *out = s;
    return true;
  }
  if (n == "current_schemas") {
    if (!args[0]) return true;
    // The existing schemas of search_path, with the implicit ones (the
    // temporary schema, pg_catalog) first when asked for.
    bool implicit = *args[0] == "t";
    std::vector<std::string> path = hooks->SchemaSearchPath(implicit);
    ArrayValue v;
    size_t i = 0;
    if (implicit && !path.empty() && path[0].rfind("pg_temp_", 0) == 0)
      v.items.emplace_back(path[i++]);
    if (implicit) v.items.emplace_back("pg_catalog");
    for (; i < path.size(); i++) v.items.emplace_back(path[i]);
    OneDim(&v, 1);
    *out = FormatArray(v);
    return true;
  }
  if (n == "array_to_json") {
    if (!args[0]) return true;
    bool pretty = args.size() > 1 && args[1] && *args[1] == "t";
    std::string j;
    if (!ArrayToJson(e.args[0]->type, *args[0], pretty, ctx, &j, error))
      return false;
    *out = j;
    return true;
  }
  if (n == "string_to_array") {
    if (!args[0]) return true;
    const std::string& s = *args[0];
    ArrayValue v;
    std::vector<std::string> parts;
    if (!s.empty()) {
      if (!args[1]) {
        // Each character is an element.
        for (size_t i = 0; i < s.size();) {
          size_t len = 1;
          unsigned char c = static_cast<unsigned char>(s[i]);
          if (c >= 0xF0)
            len = 4;
          else if (c >= 0xE0)
            len = 3;
          else if (c >= 0xC0)
            len = 2;
          parts.push_back(s.substr(i, len));
          i += len;
        }
      } else if (args[1]->empty()) {
        parts.push_back(s);
      } else {
        const std::string& d = *args[1];
        size_t start = 0, pos;
        while ((pos = s.find(d, start)) != std::string::npos) {
          parts.push_back(s.substr(start, pos - start));
          start = pos + d.size();
        }
        parts.push_back(s.substr(start));
      }
    }
    for (auto& p : parts) {
      if (args.size() > 2 && args[2] && p == *args[2])
        v.items.emplace_back();
      else
        v.items.emplace_back(std::move(p));
    }
    OneDim(&v, 1);
    *out = FormatArray(v);
    return true;
  }
  *handled = false;
  return true;
}

}  // namespace kova::planner
