#include "planner/expr.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "sql/sql.h"

namespace kova::planner {
namespace {

PgError Err(const char* sqlstate, std::string message, int location = -1) {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.position = location >= 0 ? location + 1 : 0;
  return e;
}

std::string TypeName(uint32_t type) { return types::FormatTypeName(type, -1); }

bool IsInteger(uint32_t t) {
  return t == oid::kInt2 || t == oid::kInt4 || t == oid::kInt8;
}
bool IsFloat(uint32_t t) { return t == oid::kFloat4 || t == oid::kFloat8; }
bool IsNumber(uint32_t t) {
  return IsInteger(t) || IsFloat(t) || t == oid::kNumeric;
}
bool IsText(uint32_t t) {
  return t == oid::kText || t == oid::kVarchar || t == oid::kBpchar ||
         t == oid::kName || t == oid::kUnknown;
}

std::unique_ptr<Expr> Const(uint32_t type, Value value, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kConst;
  e->type = type;
  e->value = std::move(value);
  e->location = location;
  return e;
}

// ---- numeric: exact decimal arithmetic on canonical text -----------------

struct Decimal {
  bool negative = false;
  std::string digits = "0";  // magnitude without the point, no leading zeros
  int scale = 0;             // digits after the point

  static bool Parse(const std::string& text, Decimal* out) {
    Decimal d;
    size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
      d.negative = text[i++] == '-';
    std::string digits;
    bool point = false;
    for (; i < text.size(); i++) {
      char c = text[i];
      if (c == '.' && !point) {
        point = true;
      } else if (c >= '0' && c <= '9') {
        digits.push_back(c);
        if (point) d.scale++;
      } else {
        return false;  // NaN, exponents: not handled here
      }
    }
    size_t nz = digits.find_first_not_of('0');
    d.digits = nz == std::string::npos ? "0" : digits.substr(nz);
    if (d.digits == "0") d.negative = false;
    *out = d;
    return true;
  }
  std::string ToString() const {
    std::string s = digits;
    if (static_cast<int>(s.size()) <= scale)
      s.insert(0, scale - s.size() + 1, '0');
    if (scale > 0) s.insert(s.size() - scale, ".");
    return (negative && digits != "0" ? "-" : "") + s;
  }
  Decimal WithScale(int new_scale) const {  // only grows the scale
    Decimal d = *this;
    if (new_scale > scale && d.digits != "0")
      d.digits.append(new_scale - scale, '0');
    d.scale = new_scale;
    return d;
  }
};

int CompareMagnitude(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

std::string AddMagnitudes(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (size_t i = 0; i < std::max(a.size(), b.size()) || carry; i++) {
    int x = carry;
    if (i < a.size()) x += a[a.size() - 1 - i] - '0';
    if (i < b.size()) x += b[b.size() - 1 - i] - '0';
    out.push_back(static_cast<char>('0' + x % 10));
    carry = x / 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::string SubMagnitudes(const std::string& a, const std::string& b) {  // a>=b
  std::string out;
  int borrow = 0;
  for (size_t i = 0; i < a.size(); i++) {
    int x = a[a.size() - 1 - i] - '0' - borrow;
    if (i < b.size()) x -= b[b.size() - 1 - i] - '0';
    borrow = x < 0;
    if (x < 0) x += 10;
    out.push_back(static_cast<char>('0' + x));
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  std::reverse(out.begin(), out.end());
  return out;
}

std::string Strip(std::string s) {
  size_t nz = s.find_first_not_of('0');
  return nz == std::string::npos ? "0" : s.substr(nz);
}

Decimal AddDecimal(Decimal a, Decimal b, bool subtract) {
  if (subtract) b.negative = !b.negative && b.digits != "0";
  int scale = std::max(a.scale, b.scale);
  a = a.WithScale(scale);
  b = b.WithScale(scale);
  Decimal r;
  r.scale = scale;
  if (a.negative == b.negative) {
    r.digits = Strip(AddMagnitudes(a.digits, b.digits));
    r.negative = a.negative;
  } else if (CompareMagnitude(a.digits, b.digits) >= 0) {
    r.digits = Strip(SubMagnitudes(a.digits, b.digits));
    r.negative = a.negative;
  } else {
    r.digits = Strip(SubMagnitudes(b.digits, a.digits));
    r.negative = b.negative;
  }
  if (r.digits == "0") r.negative = false;
  return r;
}

Decimal MulDecimal(const Decimal& a, const Decimal& b) {
  std::vector<int> acc(a.digits.size() + b.digits.size(), 0);
  for (size_t i = 0; i < a.digits.size(); i++)
    for (size_t j = 0; j < b.digits.size(); j++)
      acc[i + j + 1] += (a.digits[i] - '0') * (b.digits[j] - '0');
  for (size_t k = acc.size(); k-- > 1;) {
    acc[k - 1] += acc[k] / 10;
    acc[k] %= 10;
  }
  std::string s;
  for (int d : acc) s.push_back(static_cast<char>('0' + d));
  Decimal r;
  r.digits = Strip(s);
  r.scale = a.scale + b.scale;
  r.negative = (a.negative != b.negative) && r.digits != "0";
  return r;
}

// The NBASE (10000) view PostgreSQL's select_div_scale uses: the weight of
// the first non-zero base-10000 digit and that digit.
void FirstBaseDigit(const Decimal& d, int* weight, int* first) {
  std::string intpart = d.digits.size() > static_cast<size_t>(d.scale)
                            ? d.digits.substr(0, d.digits.size() - d.scale)
                            : "";
  std::string frac =
      d.digits.size() > static_cast<size_t>(d.scale)
          ? d.digits.substr(d.digits.size() - d.scale)
          : std::string(d.scale - d.digits.size(), '0') + d.digits;
  while (intpart.size() % 4) intpart.insert(0, "0");
  while (frac.size() % 4) frac.push_back('0');
  std::string all = intpart + frac;
  int int_groups = static_cast<int>(intpart.size() / 4);
  *weight = 0;
  *first = 0;
  for (size_t g = 0; g * 4 < all.size(); g++) {
    int v = std::stoi(all.substr(g * 4, 4));
    if (v != 0) {
      *weight = int_groups - 1 - static_cast<int>(g);
      *first = v;
      return;
    }
  }
}

// a / b rounded half away from zero at PostgreSQL's result scale.
Decimal DivDecimal(const Decimal& a, const Decimal& b) {
  int w1, f1, w2, f2;
  FirstBaseDigit(a, &w1, &f1);
  FirstBaseDigit(b, &w2, &f2);
  int qweight = w1 - w2;
  if (f1 <= f2) qweight--;
  int rscale = 16 - qweight * 4;  // NUMERIC_MIN_SIG_DIGITS, DEC_DIGITS
  rscale = std::max({rscale, a.scale, b.scale, 0});
  rscale = std::min(rscale, 1000);
  // Integer division of a * 10^(rscale + 1 + b.scale - a.scale) by b's
  // digits gives the quotient with one extra digit for rounding.
  int shift = rscale + 1 + b.scale - a.scale;
  std::string num = a.digits, den = b.digits;
  if (shift >= 0) {
    if (num != "0") num.append(shift, '0');
  } else {
    den.append(-shift, '0');
  }
  std::string quotient, rem = "0";
  for (char digit : num) {
    rem = Strip(rem + digit);
    int q = 0;
    while (CompareMagnitude(rem, den) >= 0) {
      rem = Strip(SubMagnitudes(rem, den));
      q++;
    }
    quotient.push_back(static_cast<char>('0' + q));
  }
  quotient = Strip(quotient);
  // Round the extra digit away from zero.
  bool up = quotient.back() >= '5';
  quotient.pop_back();
  if (quotient.empty()) quotient = "0";
  if (up) quotient = AddMagnitudes(quotient, "1");
  Decimal r;
  r.digits = Strip(quotient);
  r.scale = rscale;
  r.negative = (a.negative != b.negative) && r.digits != "0";
  return r;
}

int CompareDecimal(Decimal a, Decimal b) {
  int scale = std::max(a.scale, b.scale);
  a = a.WithScale(scale);
  b = b.WithScale(scale);
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int m = CompareMagnitude(a.digits, b.digits);
  return a.negative ? -m : m;
}

// ---- helpers over canonical values --------------------------------------

bool ToInt64(const std::string& s, int64_t* out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

double ToDouble(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return std::numeric_limits<double>::infinity();
  if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::strtod(s.c_str(), nullptr);
}

bool FormatDouble(double d, uint32_t type, const types::TypeContext& ctx,
                  Value* out, PgError* error) {
  char buf[64];
  if (std::isnan(d)) {
    *out = "NaN";
    return true;
  }
  if (std::isinf(d)) {
    *out = d > 0 ? "Infinity" : "-Infinity";
    return true;
  }
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  std::string canonical;
  if (!types::InputText(type, -1, buf, ctx, &canonical, error)) return false;
  *out = canonical;
  return true;
}

const char* IntRangeName(uint32_t type) {
  return type == oid::kInt2   ? "smallint"
         : type == oid::kInt4 ? "integer"
                              : "bigint";
}

bool CheckIntRange(int64_t v, uint32_t type, PgError* error) {
  int64_t lo = type == oid::kInt2   ? std::numeric_limits<int16_t>::min()
               : type == oid::kInt4 ? std::numeric_limits<int32_t>::min()
                                    : std::numeric_limits<int64_t>::min();
  int64_t hi = type == oid::kInt2   ? std::numeric_limits<int16_t>::max()
               : type == oid::kInt4 ? std::numeric_limits<int32_t>::max()
                                    : std::numeric_limits<int64_t>::max();
  if (v < lo || v > hi) {
    *error = Err("22003", std::string(IntRangeName(type)) + " out of range");
    return false;
  }
  return true;
}

// The result type of arithmetic between two number types.
uint32_t ArithmeticType(uint32_t a, uint32_t b) {
  if (a == oid::kFloat8 || b == oid::kFloat8) return oid::kFloat8;
  if (IsFloat(a) || IsFloat(b)) {
    return (a == oid::kFloat4 && b == oid::kFloat4) ? oid::kFloat4
                                                    : oid::kFloat8;
  }
  if (a == oid::kNumeric || b == oid::kNumeric) return oid::kNumeric;
  if (a == oid::kInt8 || b == oid::kInt8) return oid::kInt8;
  if (a == oid::kInt4 || b == oid::kInt4) return oid::kInt4;
  return oid::kInt2;
}

struct FunctionDef {
  const char* name;
  std::vector<uint32_t> args;
  uint32_t result;
};

// Built-in functions (by lower-case name, without pg_catalog.).
const std::vector<FunctionDef>& Functions() {
  static const std::vector<FunctionDef> defs = {
      {"version", {}, oid::kText},
      {"current_database", {}, oid::kName},
      {"current_schema", {}, oid::kName},
      {"current_user", {}, oid::kName},
      {"session_user", {}, oid::kName},
      {"pg_backend_pid", {}, oid::kInt4},
      {"pg_is_in_recovery", {}, oid::kBool},
      {"current_setting", {oid::kText}, oid::kText},
      {"current_setting", {oid::kText, oid::kBool}, oid::kText},
      {"set_config", {oid::kText, oid::kText, oid::kBool}, oid::kText},
      {"pg_sleep", {oid::kFloat8}, oid::kVoid},
      {"now", {}, oid::kTimestamptz},
      {"transaction_timestamp", {}, oid::kTimestamptz},
      {"statement_timestamp", {}, oid::kTimestamptz},
      {"clock_timestamp", {}, oid::kTimestamptz},
      {"length", {oid::kText}, oid::kInt4},
      {"chr", {oid::kInt4}, oid::kText},
      {"split_part", {oid::kText, oid::kText, oid::kInt4}, oid::kText},
      {"char_length", {oid::kText}, oid::kInt4},
      {"lower", {oid::kText}, oid::kText},
      {"upper", {oid::kText}, oid::kText},
      {"abs", {oid::kInt4}, oid::kInt4},
      {"abs", {oid::kInt8}, oid::kInt8},
      {"abs", {oid::kFloat8}, oid::kFloat8},
  };
  return defs;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

std::string TimestampFromMicros(int64_t micros) {
  time_t secs = static_cast<time_t>(micros / 1000000);
  int64_t frac = micros % 1000000;
  struct tm tm;
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<long long>(frac));
  return buf;
}

}  // namespace

bool ResolveTypeName(const PgQuery__TypeName* name, uint32_t* type,
                     int32_t* typmod, PgError* error) {
  std::string full = sql::JoinNames(name->names, name->n_names);
  std::string base = full;
  if (base.rfind("pg_catalog.", 0) == 0) base = base.substr(11);
  const types::TypeInfo* info = types::LookupTypeByName(Lower(base));
  if (!info) {
    *error =
        Err("42704", "type \"" + full + "\" does not exist", name->location);
    return false;
  }
  if (name->n_array_bounds > 0) {
    *error = Err("0A000", "array types are not supported yet", name->location);
    return false;
  }
  *type = info->oid;
  *typmod = -1;
  std::vector<int64_t> mods;
  for (size_t i = 0; i < name->n_typmods; i++) {
    const PgQuery__Node* m = name->typmods[i];
    if (m->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        m->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
      mods.push_back(m->a_const->ival->ival);
    } else {
      *error = Err("22023", "type modifiers must be simple constants",
                   name->location);
      return false;
    }
  }
  if (!mods.empty()) {
    switch (info->oid) {
      case oid::kVarchar:
      case oid::kBpchar:
        *typmod = static_cast<int32_t>(mods[0] + 4);
        break;
      case oid::kNumeric:
        *typmod = static_cast<int32_t>(
            ((mods[0] << 16) | (mods.size() > 1 ? mods[1] : 0)) + 4);
        break;
      case oid::kTimestamp:
      case oid::kTimestamptz:
      case oid::kTime:
      case oid::kInterval:
        *typmod = static_cast<int32_t>(mods[0]);
        break;
      default:
        *error = Err("42601",
                     "type modifier is not allowed for type \"" +
                         std::string(info->name) + "\"",
                     name->location);
        return false;
    }
  } else if (info->oid == oid::kBpchar && Lower(base) != "bpchar") {
    *typmod = 1 + 4;  // "char" / "character" means char(1)
  }
  return true;
}

std::string Analyzer::ColumnName(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
      const PgQuery__ColumnRef* c = node->column_ref;
      for (size_t i = c->n_fields; i-- > 0;) {
        if (c->fields[i]->node_case == PG_QUERY__NODE__NODE_STRING)
          return c->fields[i]->string->sval;
      }
      return "?column?";
    }
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
      const PgQuery__FuncCall* f = node->func_call;
      const PgQuery__Node* last = f->funcname[f->n_funcname - 1];
      return last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval
                                                            : "?column?";
    }
    case PG_QUERY__NODE__NODE_TYPE_CAST: {
      std::string inner = ColumnName(node->type_cast->arg);
      if (inner != "?column?") return inner;
      const PgQuery__TypeName* t = node->type_cast->type_name;
      uint32_t type;
      int32_t typmod;
      PgError ignored;
      if (ResolveTypeName(t, &type, &typmod, &ignored)) {
        const types::TypeInfo* info = types::LookupType(type);
        if (info) return info->name;
      }
      const PgQuery__Node* last = t->names[t->n_names - 1];
      return last->string->sval;
    }
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      switch (node->sqlvalue_function->op) {
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
          return "current_date";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
          return "current_time";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
          return "current_timestamp";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
          return "localtime";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
          return "localtimestamp";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
          return "current_role";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
          return "current_user";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
          return "user";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
          return "session_user";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG:
          return "current_catalog";
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA:
          return "current_schema";
        default:
          return "?column?";
      }
    case PG_QUERY__NODE__NODE_CASE_EXPR:
      return "case";
    case PG_QUERY__NODE__NODE_A_EXPR:
      return node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF
                 ? "nullif"
                 : "?column?";
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
      return node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST
                 ? "greatest"
                 : "least";
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
      return "coalesce";
    default:
      return "?column?";
  }
}

bool Analyzer::Analyze(const PgQuery__Node* node, std::unique_ptr<Expr>* out,
                       PgError* error) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
      return AnalyzeConst(node->a_const, out, error);
    case PG_QUERY__NODE__NODE_PARAM_REF: {
      int n = node->param_ref->number;
      if (n < 1 || n > 65535) {
        *error = Err("42P02", "there is no parameter $" + std::to_string(n),
                     node->param_ref->location);
        return false;
      }
      if (param_types_->size() < static_cast<size_t>(n))
        param_types_->resize(n, 0);
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kParam;
      e->param = n - 1;
      uint32_t t = (*param_types_)[n - 1];
      e->type = t == 0 ? oid::kUnknown : t;
      e->location = node->param_ref->location;
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return AnalyzeCast(node->type_cast, out, error);
    case PG_QUERY__NODE__NODE_A_EXPR:
      return AnalyzeOperator(node->a_expr, out, error);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return AnalyzeFunction(node->func_call, out, error);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      return AnalyzeSqlValueFunction(node->sqlvalue_function, out, error);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: {
      const PgQuery__BoolExpr* b = node->bool_expr;
      auto e = std::make_unique<Expr>();
      e->kind =
          b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? Expr::Kind::kAnd
          : b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? Expr::Kind::kOr
                                                           : Expr::Kind::kNot;
      e->type = oid::kBool;
      e->location = b->location;
      for (size_t i = 0; i < b->n_args; i++) {
        std::unique_ptr<Expr> arg;
        if (!Analyze(b->args[i], &arg, error)) return false;
        if (!Coerce(&arg, oid::kBool, -1, error)) return false;
        if (arg->type != oid::kBool) {
          *error =
              Err("42804",
                  std::string("argument of ") +
                      (e->kind == Expr::Kind::kAnd  ? "AND"
                       : e->kind == Expr::Kind::kOr ? "OR"
                                                    : "NOT") +
                      " must be type boolean, not type " + TypeName(arg->type),
                  arg->location);
          return false;
        }
        e->args.push_back(std::move(arg));
      }
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_NULL_TEST: {
      const PgQuery__NullTest* t = node->null_test;
      auto e = std::make_unique<Expr>();
      e->kind = t->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL
                    ? Expr::Kind::kIsNull
                    : Expr::Kind::kIsNotNull;
      e->type = oid::kBool;
      std::unique_ptr<Expr> arg;
      if (!Analyze(t->arg, &arg, error)) return false;
      if (!Coerce(&arg, oid::kText, -1, error)) return false;
      e->args.push_back(std::move(arg));
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
      auto e = std::make_unique<Expr>();
      std::vector<std::unique_ptr<Expr>> results;
      if (node->node_case == PG_QUERY__NODE__NODE_COALESCE_EXPR) {
        e->kind = Expr::Kind::kCoalesce;
        const PgQuery__CoalesceExpr* c = node->coalesce_expr;
        e->location = c->location;
        for (size_t i = 0; i < c->n_args; i++) {
          std::unique_ptr<Expr> arg;
          if (!Analyze(c->args[i], &arg, error)) return false;
          e->args.push_back(std::move(arg));
        }
      } else {
        const PgQuery__CaseExpr* c = node->case_expr;
        e->kind = Expr::Kind::kCase;
        e->location = c->location;
        for (size_t i = 0; i < c->n_args; i++) {
          const PgQuery__CaseWhen* w = c->args[i]->case_when;
          std::unique_ptr<Expr> cond, result;
          if (c->arg) {
            // CASE x WHEN v THEN ...: each WHEN is x = v.
            std::unique_ptr<Expr> x, v;
            if (!Analyze(c->arg, &x, error) || !Analyze(w->expr, &v, error) ||
                !Compare("=", std::move(x), std::move(v), w->location, &cond,
                         error))
              return false;
          } else if (!Analyze(w->expr, &cond, error)) {
            return false;
          }
          if (!Coerce(&cond, oid::kBool, -1, error)) return false;
          if (!Analyze(w->result, &result, error)) return false;
          e->args.push_back(std::move(cond));
          e->args.push_back(std::move(result));
        }
        if (c->defresult) {
          std::unique_ptr<Expr> def;
          if (!Analyze(c->defresult, &def, error)) return false;
          e->args.push_back(std::move(def));
          e->has_else = true;
        }
      }
      // The common type: the first non-unknown result type, else text.
      uint32_t common = oid::kUnknown;
      for (size_t i = 0; i < e->args.size(); i++) {
        bool is_result = e->kind == Expr::Kind::kCoalesce || i % 2 == 1 ||
                         (e->has_else && i == e->args.size() - 1);
        if (!is_result) continue;
        uint32_t t = e->args[i]->type;
        if (t == oid::kUnknown) continue;
        if (common == oid::kUnknown)
          common = t;
        else if (IsNumber(common) && IsNumber(t))
          common = ArithmeticType(common, t);
      }
      if (common == oid::kUnknown) common = oid::kText;
      for (size_t i = 0; i < e->args.size(); i++) {
        bool is_result = e->kind == Expr::Kind::kCoalesce || i % 2 == 1 ||
                         (e->has_else && i == e->args.size() - 1);
        if (is_result && !Coerce(&e->args[i], common, -1, error)) return false;
      }
      e->type = common;
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: {
      const PgQuery__MinMaxExpr* m = node->min_max_expr;
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kMinMax;
      e->name =
          m->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
      e->location = m->location;
      uint32_t common = oid::kUnknown;
      for (size_t i = 0; i < m->n_args; i++) {
        std::unique_ptr<Expr> arg;
        if (!Analyze(m->args[i], &arg, error)) return false;
        uint32_t t = arg->type;
        if (t != oid::kUnknown) {
          if (common == oid::kUnknown)
            common = t;
          else if (IsNumber(common) && IsNumber(t))
            common = ArithmeticType(common, t);
          else if (!(IsText(common) && IsText(t)) && common != t) {
            *error = Err("42804",
                         e->name == "greatest"
                             ? "GREATEST types " + TypeName(common) + " and " +
                                   TypeName(t) + " cannot be matched"
                             : "LEAST types " + TypeName(common) + " and " +
                                   TypeName(t) + " cannot be matched",
                         arg->location);
            return false;
          }
        }
        e->args.push_back(std::move(arg));
      }
      if (common == oid::kUnknown) common = oid::kText;
      for (auto& arg : e->args) {
        if (!Coerce(&arg, common, -1, error)) return false;
        if (arg->type != common) {
          auto cast = std::make_unique<Expr>();
          cast->kind = Expr::Kind::kCast;
          cast->type = common;
          cast->args.push_back(std::move(arg));
          arg = std::move(cast);
        }
      }
      e->type = common;
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: {
      const PgQuery__BooleanTest* b = node->boolean_test;
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kBoolTest;
      e->type = oid::kBool;
      e->location = b->location;
      switch (b->booltesttype) {
        case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE:
          e->name = "true";
          break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE:
          e->name = "not true";
          break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE:
          e->name = "false";
          break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE:
          e->name = "not false";
          break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN:
          e->name = "unknown";
          break;
        default:
          e->name = "not unknown";
          break;
      }
      std::unique_ptr<Expr> arg;
      if (!Analyze(b->arg, &arg, error)) return false;
      if (!Coerce(&arg, oid::kBool, -1, error)) return false;
      if (arg->type != oid::kBool) {
        *error =
            Err("42804",
                "argument of IS " +
                    std::string(e->name.rfind("not", 0) == 0
                                    ? "NOT " + e->name.substr(4)
                                    : e->name) +
                    " must be type boolean, not type " + TypeName(arg->type),
                arg->location);
        for (char& ch : error->message) (void)ch;
        return false;
      }
      e->args.push_back(std::move(arg));
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
      const PgQuery__ColumnRef* c = node->column_ref;
      std::string name = ColumnName(node);
      *error =
          Err("42703", "column \"" + name + "\" does not exist", c->location);
      return false;
    }
    case PG_QUERY__NODE__NODE_SUB_LINK:
      *error = Err("0A000", "subqueries are not supported yet",
                   node->sub_link->location);
      return false;
    default:
      *error = Err("0A000", "this kind of expression is not supported yet");
      return false;
  }
}

bool Analyzer::AnalyzeConst(const PgQuery__AConst* c,
                            std::unique_ptr<Expr>* out, PgError* error) {
  if (c->isnull) {
    *out = Const(oid::kUnknown, std::nullopt, c->location);
    return true;
  }
  switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
      *out = Const(oid::kInt4, std::to_string(c->ival->ival), c->location);
      return true;
    case PG_QUERY__A__CONST__VAL_FVAL: {
      // A number too large for int4 without a point is int8 if it fits,
      // else numeric (as PostgreSQL's make_const).
      std::string text = c->fval->fval;
      int64_t v;
      if (text.find_first_of(".eE") == std::string::npos && ToInt64(text, &v)) {
        // As make_const: int4 when it fits (e.g. -2147483648 after the
        // grammar folds the minus into the literal), else int8.
        bool fits = v >= std::numeric_limits<int32_t>::min() &&
                    v <= std::numeric_limits<int32_t>::max();
        *out = Const(fits ? oid::kInt4 : oid::kInt8, text, c->location);
        return true;
      }
      std::string canonical;
      if (!types::InputText(oid::kNumeric, -1, text, hooks_->type_context(),
                            &canonical, error)) {
        error->position = c->location + 1;
        return false;
      }
      *out = Const(oid::kNumeric, canonical, c->location);
      return true;
    }
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
      *out = Const(oid::kBool, c->boolval->boolval ? "t" : "f", c->location);
      return true;
    case PG_QUERY__A__CONST__VAL_SVAL:
      *out = Const(oid::kUnknown, std::string(c->sval->sval), c->location);
      return true;
    default:
      *error = Err("0A000", "bit string constants are not supported yet",
                   c->location);
      return false;
  }
}

bool Analyzer::Coerce(std::unique_ptr<Expr>* expr, uint32_t type,
                      int32_t typmod, PgError* error) {
  Expr& e = **expr;
  if (e.type != oid::kUnknown) return true;
  if (e.kind == Expr::Kind::kParam) {
    e.type = type;
    if ((*param_types_)[e.param] == 0) (*param_types_)[e.param] = type;
    return true;
  }
  if (e.kind == Expr::Kind::kConst) {
    if (e.value) {
      std::string canonical;
      if (!types::InputText(type, typmod, *e.value, hooks_->type_context(),
                            &canonical, error)) {
        if (error->position == 0) error->position = e.location + 1;
        return false;
      }
      e.value = canonical;
    }
    e.type = type;
    e.typmod = typmod;
    return true;
  }
  // Any other unknown expression: cast at run time.
  auto cast = std::make_unique<Expr>();
  cast->kind = Expr::Kind::kCast;
  cast->type = type;
  cast->typmod = typmod;
  cast->location = e.location;
  cast->args.push_back(std::move(*expr));
  *expr = std::move(cast);
  return true;
}

bool Analyzer::CheckParams(PgError* error) {
  for (size_t i = 0; i < param_types_->size(); i++) {
    if ((*param_types_)[i] == 0 || (*param_types_)[i] == oid::kUnknown) {
      // An unused or untyped parameter: PostgreSQL treats it as text only
      // when it is never referenced; a referenced one must get a type.
      (*param_types_)[i] = oid::kText;
    }
  }
  (void)error;
  return true;
}

bool Analyzer::AnalyzeCast(const PgQuery__TypeCast* c,
                           std::unique_ptr<Expr>* out, PgError* error) {
  uint32_t type;
  int32_t typmod;
  if (!ResolveTypeName(c->type_name, &type, &typmod, error)) return false;
  std::unique_ptr<Expr> arg;
  if (!Analyze(c->arg, &arg, error)) return false;
  if (arg->type == oid::kUnknown && arg->kind == Expr::Kind::kConst &&
      arg->value && typmod >= 4 &&
      (type == oid::kVarchar || type == oid::kBpchar)) {
    // An explicit cast truncates to the length (an assignment would fail).
    if (!Coerce(&arg, type, -1, error)) return false;
    size_t limit = static_cast<size_t>(typmod - 4), chars = 0, i = 0;
    std::string& v = *arg->value;
    while (i < v.size() && chars < limit) {
      i++;
      while (i < v.size() && (static_cast<unsigned char>(v[i]) & 0xc0) == 0x80)
        i++;
      chars++;
    }
    v.resize(i);
    if (type == oid::kBpchar) v.append(limit - chars, ' ');
    arg->typmod = typmod;
    arg->location = c->location;
    *out = std::move(arg);
    return true;
  }
  if (arg->type == oid::kUnknown && arg->kind == Expr::Kind::kConst &&
      arg->value && typmod >= 0 && type == oid::kNumeric) {
    // Input first (its errors point at the literal), then the typmod
    // (PostgreSQL's numeric() reports overflow without a position).
    if (!Coerce(&arg, type, -1, error)) return false;
    std::string rounded;
    if (!types::Cast(oid::kNumeric, oid::kNumeric, typmod, *arg->value,
                     hooks_->type_context(), &rounded, error))
      return false;
    arg->value = rounded;
    arg->typmod = typmod;
    arg->location = c->location;
    *out = std::move(arg);
    return true;
  }
  if (arg->type == oid::kUnknown &&
      (arg->kind == Expr::Kind::kConst || arg->kind == Expr::Kind::kParam)) {
    if (!Coerce(&arg, type, typmod, error)) return false;
    if (arg->kind == Expr::Kind::kConst) arg->location = c->location;
    *out = std::move(arg);
    return true;
  }
  if (arg->kind == Expr::Kind::kConst) {
    // Fold constant casts now, so errors carry the cast's position.
    Value folded;
    if (arg->value) {
      std::string result;
      if (!types::Cast(arg->type, type, typmod, *arg->value,
                       hooks_->type_context(), &result, error)) {
        if (error->position == 0) error->position = c->location + 1;
        return false;
      }
      folded = result;
    }
    *out = Const(type, folded, c->location);
    (*out)->typmod = typmod;
    return true;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kCast;
  e->type = type;
  e->typmod = typmod;
  e->location = c->location;
  e->args.push_back(std::move(arg));
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeOperator(const PgQuery__AExpr* a,
                               std::unique_ptr<Expr>* out, PgError* error) {
  if (a->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP)
    return AnalyzeSpecialOperator(a, out, error);
  std::string op = sql::JoinNames(a->name, a->n_name);
  if (op.rfind("pg_catalog.", 0) == 0) op = op.substr(11);
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kOperator;
  e->name = op;
  e->location = a->location;
  std::unique_ptr<Expr> left, right;
  if (a->lexpr && !Analyze(a->lexpr, &left, error)) return false;
  if (!Analyze(a->rexpr, &right, error)) return false;

  auto no_operator = [&](uint32_t lt, uint32_t rt) {
    PgError err = Err("42883",
                      "operator does not exist: " +
                          (left ? TypeName(lt) + " " : std::string()) + op +
                          " " + TypeName(rt),
                      a->location);
    err.hint =
        "No operator matches the given name and argument types. You might "
        "need to add explicit type casts.";
    return err;
  };

  if (!left) {  // prefix operator
    if (op == "|/" || op == "@") {
      if (right->type == oid::kUnknown &&
          !Coerce(&right, oid::kFloat8, -1, error))
        return false;
      if (!IsNumber(right->type) ||
          (op == "|/" && right->type == oid::kNumeric)) {
        *error = no_operator(0, right->type);
        return false;
      }
      e->type = op == "|/" ? oid::kFloat8 : right->type;
      e->args.push_back(std::move(right));
      *out = std::move(e);
      return true;
    }
    if (op != "-" && op != "+") {
      *error = no_operator(0, right->type);
      return false;
    }
    if (right->type == oid::kUnknown &&
        !Coerce(&right, oid::kNumeric, -1, error))
      return false;
    if (!IsNumber(right->type)) {
      *error = no_operator(0, right->type);
      return false;
    }
    e->type = right->type;
    e->args.push_back(std::move(right));
    *out = std::move(e);
    return true;
  }

  // Unknown operands take the other side's type; both unknown -> text.
  uint32_t lt = left->type, rt = right->type;
  if (lt == oid::kUnknown && rt == oid::kUnknown) {
    if (op == "||" || op == "=" || op == "<>" || op == "!=" || op == "<" ||
        op == ">" || op == "<=" || op == ">=" ||
        op.find("~~") != std::string::npos) {
      if (!Coerce(&left, oid::kText, -1, error) ||
          !Coerce(&right, oid::kText, -1, error))
        return false;
    } else {
      PgError err =
          Err("42725", "operator is not unique: unknown " + op + " unknown",
              a->location);
      err.hint =
          "Could not choose a best candidate operator. You might need "
          "to add explicit type casts.";
      *error = err;
      return false;
    }
  } else if (lt == oid::kUnknown) {
    bool text_op = op == "||" || op.find("~~") != std::string::npos;
    if (!Coerce(&left, text_op ? oid::kText : rt, -1, error)) return false;
  } else if (rt == oid::kUnknown) {
    bool text_op = op == "||" || op.find("~~") != std::string::npos;
    if (!Coerce(&right, text_op ? oid::kText : lt, -1, error)) return false;
  }
  lt = left->type;
  rt = right->type;

  if (op == "||") {
    if (!IsText(lt) && !IsText(rt)) {
      *error = no_operator(lt, rt);
      return false;
    }
    e->type = oid::kText;
  } else if (op == "^") {
    if (!IsNumber(lt) || !IsNumber(rt)) {
      *error = no_operator(lt, rt);
      return false;
    }
    if (lt == oid::kNumeric || rt == oid::kNumeric) {
      *error = Err("0A000", "numeric ^ is not supported yet", a->location);
      return false;
    }
    e->type = oid::kFloat8;
  } else if (op == "~~" || op == "!~~" || op == "~~*" || op == "!~~*") {
    if (!IsText(lt) || !IsText(rt)) {
      *error = no_operator(lt, rt);
      return false;
    }
    e->type = oid::kBool;
  } else if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
    if (!IsNumber(lt) || !IsNumber(rt) ||
        (op == "%" && (IsFloat(lt) || IsFloat(rt)))) {
      *error = no_operator(lt, rt);
      return false;
    }
    e->type = ArithmeticType(lt, rt);
  } else if (op == "=" || op == "<>" || op == "!=" || op == "<" || op == ">" ||
             op == "<=" || op == ">=") {
    bool comparable = (IsNumber(lt) && IsNumber(rt)) ||
                      (IsText(lt) && IsText(rt)) || lt == rt;
    if (!comparable) {
      *error = no_operator(lt, rt);
      return false;
    }
    if (lt == rt && !IsNumber(lt) && !IsText(lt) && lt != oid::kBool &&
        lt != oid::kDate && lt != oid::kUuid && lt != oid::kTimestamp &&
        lt != oid::kTimestamptz && lt != oid::kTime) {
      *error =
          Err("0A000",
              "comparison of type " + TypeName(lt) + " is not supported yet",
              a->location);
      return false;
    }
    e->type = oid::kBool;
  } else {
    *error = no_operator(lt, rt);
    return false;
  }
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  *out = std::move(e);
  return true;
}

bool Analyzer::Compare(const std::string& op, std::unique_ptr<Expr> left,
                       std::unique_ptr<Expr> right, int location,
                       std::unique_ptr<Expr>* out, PgError* error) {
  if (left->type == oid::kUnknown && right->type == oid::kUnknown) {
    if (!Coerce(&left, oid::kText, -1, error) ||
        !Coerce(&right, oid::kText, -1, error))
      return false;
  } else if (left->type == oid::kUnknown) {
    if (!Coerce(&left, right->type, -1, error)) return false;
  } else if (right->type == oid::kUnknown) {
    if (!Coerce(&right, left->type, -1, error)) return false;
  }
  uint32_t lt = left->type, rt = right->type;
  bool comparable =
      (IsNumber(lt) && IsNumber(rt)) || (IsText(lt) && IsText(rt)) || lt == rt;
  if (!comparable) {
    PgError err = Err("42883",
                      "operator does not exist: " + TypeName(lt) + " " + op +
                          " " + TypeName(rt),
                      location);
    err.hint =
        "No operator matches the given name and argument types. You might "
        "need to add explicit type casts.";
    *error = err;
    return false;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kOperator;
  e->name = op;
  e->type = oid::kBool;
  e->location = location;
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeSpecialOperator(const PgQuery__AExpr* a,
                                      std::unique_ptr<Expr>* out,
                                      PgError* error) {
  auto analyze = [&](const PgQuery__Node* n, std::unique_ptr<Expr>* e) {
    return Analyze(n, e, error);
  };
  auto combine = [&](Expr::Kind kind,
                     std::vector<std::unique_ptr<Expr>> parts) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->type = oid::kBool;
    e->location = a->location;
    e->args = std::move(parts);
    return e;
  };
  switch (a->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
      // x IN (a, b) is x = a OR x = b; NOT IN is x <> a AND x <> b.
      std::string op = sql::JoinNames(a->name, a->n_name);
      if (a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST) {
        *error =
            Err("0A000", "IN (subquery) is not supported yet", a->location);
        return false;
      }
      const PgQuery__List* list = a->rexpr->list;
      std::vector<std::unique_ptr<Expr>> parts;
      for (size_t i = 0; i < list->n_items; i++) {
        std::unique_ptr<Expr> left, right, cmp;
        if (!analyze(a->lexpr, &left) || !analyze(list->items[i], &right))
          return false;
        if (!Compare(op, std::move(left), std::move(right), a->location, &cmp,
                     error))
          return false;
        parts.push_back(std::move(cmp));
      }
      *out = combine(op == "=" ? Expr::Kind::kOr : Expr::Kind::kAnd,
                     std::move(parts));
      return true;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: {
      bool negate = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
      const PgQuery__List* list = a->rexpr->list;
      std::vector<std::unique_ptr<Expr>> parts;
      for (int i = 0; i < 2; i++) {
        std::unique_ptr<Expr> x, bound, cmp;
        if (!analyze(a->lexpr, &x) || !analyze(list->items[i], &bound))
          return false;
        const char* op = negate ? (i == 0 ? "<" : ">") : (i == 0 ? ">=" : "<=");
        if (!Compare(op, std::move(x), std::move(bound), a->location, &cmp,
                     error))
          return false;
        parts.push_back(std::move(cmp));
      }
      *out = combine(negate ? Expr::Kind::kOr : Expr::Kind::kAnd,
                     std::move(parts));
      return true;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: {
      // Either order of the bounds: (x >= a AND x <= b) OR (x >= b AND x <= a)
      bool negate = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
      const PgQuery__List* list = a->rexpr->list;
      std::vector<std::unique_ptr<Expr>> sides;
      for (int order = 0; order < 2; order++) {
        std::vector<std::unique_ptr<Expr>> parts;
        for (int i = 0; i < 2; i++) {
          std::unique_ptr<Expr> x, bound, cmp;
          if (!analyze(a->lexpr, &x) ||
              !analyze(list->items[order == 0 ? i : 1 - i], &bound))
            return false;
          const char* op =
              negate ? (i == 0 ? "<" : ">") : (i == 0 ? ">=" : "<=");
          if (!Compare(op, std::move(x), std::move(bound), a->location, &cmp,
                       error))
            return false;
          parts.push_back(std::move(cmp));
        }
        sides.push_back(combine(negate ? Expr::Kind::kOr : Expr::Kind::kAnd,
                                std::move(parts)));
      }
      *out = combine(negate ? Expr::Kind::kAnd : Expr::Kind::kOr,
                     std::move(sides));
      return true;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
      std::unique_ptr<Expr> left, right, cmp;
      if (!analyze(a->lexpr, &left) || !analyze(a->rexpr, &right) ||
          !Compare("<>", std::move(left), std::move(right), a->location, &cmp,
                   error))
        return false;
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kDistinct;
      e->name = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT ? "" : "not";
      e->type = oid::kBool;
      e->location = a->location;
      e->args.push_back(std::move(cmp));
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
      std::unique_ptr<Expr> value, left, right, cmp;
      if (!analyze(a->lexpr, &left) || !analyze(a->rexpr, &right) ||
          !Compare("=", std::move(left), std::move(right), a->location, &cmp,
                   error))
        return false;
      if (!analyze(a->lexpr, &value)) return false;
      if (!Coerce(&value, cmp->args[0]->type, -1, error)) return false;
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kNullIf;
      e->type = value->type;
      e->location = a->location;
      e->args.push_back(std::move(value));
      e->args.push_back(std::move(cmp));
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: {
      if (a->rexpr->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
        *error =
            Err("0A000", "LIKE ... ESCAPE is not supported yet", a->location);
        return false;
      }
      PgQuery__AExpr copy = *a;
      copy.kind = PG_QUERY__A__EXPR__KIND__AEXPR_OP;
      return AnalyzeOperator(&copy, out, error);
    }
    default:
      *error = Err("0A000",
                   "SIMILAR TO, ANY, ALL and BETWEEN SYMMETRIC are not "
                   "supported yet",
                   a->location);
      return false;
  }
}

bool Analyzer::AnalyzeFunction(const PgQuery__FuncCall* f,
                               std::unique_ptr<Expr>* out, PgError* error) {
  std::string full = sql::JoinNames(f->funcname, f->n_funcname);
  std::string name = Lower(full);
  if (name.rfind("pg_catalog.", 0) == 0) name = name.substr(11);
  if (f->agg_star || f->n_agg_order > 0 || f->agg_filter || f->over ||
      f->agg_distinct) {
    *error = Err("0A000",
                 "aggregate and window functions are not supported "
                 "yet",
                 f->location);
    return false;
  }
  std::vector<std::unique_ptr<Expr>> args;
  for (size_t i = 0; i < f->n_args; i++) {
    std::unique_ptr<Expr> arg;
    if (!Analyze(f->args[i], &arg, error)) return false;
    args.push_back(std::move(arg));
  }
  if (name == "pg_typeof" && args.size() == 1) {
    // The regtype of the argument's type, known at analysis.
    *out = Const(2206, types::FormatTypeName(args[0]->type, args[0]->typmod),
                 f->location);
    return true;
  }
  if ((name == "concat" && !args.empty()) ||
      (name == "concat_ws" && args.size() >= 2)) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kFunction;
    e->name = name;
    e->type = oid::kText;
    e->location = f->location;
    for (auto& arg : args) {
      if (!Coerce(&arg, oid::kText, -1, error)) return false;
      e->args.push_back(std::move(arg));
    }
    *out = std::move(e);
    return true;
  }
  // Candidates in three passes, as PostgreSQL's func_select_candidate
  // roughly: exact types; unknowns taking the category's preferred type
  // (text, float8, bool); then implicit numeric widening.
  const FunctionDef* chosen = nullptr;
  for (int pass = 0; pass < 3 && !chosen; pass++) {
    for (const FunctionDef& def : Functions()) {
      if (name != def.name || def.args.size() != args.size()) continue;
      bool match = true;
      for (size_t i = 0; i < args.size() && match; i++) {
        uint32_t t = args[i]->type, want = def.args[i];
        if (t == want || (IsText(t) && IsText(want) && t != oid::kUnknown)) {
          continue;
        }
        if (t == oid::kUnknown) {
          match = pass >= 1 && (pass == 2 || want == oid::kText ||
                                want == oid::kFloat8 || want == oid::kBool);
          continue;
        }
        match = pass == 2 && IsNumber(t) && IsNumber(want) &&
                ArithmeticType(t, want) == want;
      }
      if (match) {
        chosen = &def;
        break;
      }
    }
  }
  for (const FunctionDef& def : Functions()) {
    if (&def != chosen) continue;
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kFunction;
    e->name = name;
    e->type = def.result;
    e->location = f->location;
    for (size_t i = 0; i < args.size(); i++) {
      if (!Coerce(&args[i], def.args[i], -1, error)) return false;
      if (args[i]->type != def.args[i]) {
        auto cast = std::make_unique<Expr>();
        cast->kind = Expr::Kind::kCast;
        cast->type = def.args[i];
        cast->location = args[i]->location;
        cast->args.push_back(std::move(args[i]));
        args[i] = std::move(cast);
      }
      e->args.push_back(std::move(args[i]));
    }
    *out = std::move(e);
    return true;
  }
  std::string sig;
  for (size_t i = 0; i < args.size(); i++) {
    if (i) sig += ", ";
    sig += TypeName(args[i]->type);
  }
  PgError err =
      Err("42883", "function " + full + "(" + sig + ") does not exist",
          f->location);
  err.hint =
      "No function matches the given name and argument types. You "
      "might need to add explicit type casts.";
  *error = err;
  return false;
}

bool Analyzer::AnalyzeSqlValueFunction(const PgQuery__SQLValueFunction* f,
                                       std::unique_ptr<Expr>* out,
                                       PgError* error) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->location = f->location;
  switch (f->op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
      e->name = "current_user";
      e->type = oid::kName;
      break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
      e->name = "session_user";
      e->type = oid::kName;
      break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG:
      e->name = "current_database";
      e->type = oid::kName;
      break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA:
      e->name = "current_schema";
      e->type = oid::kName;
      break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
      e->name = "now";
      e->type = oid::kTimestamptz;
      break;
    default:
      *error = Err("0A000", "this SQL value function is not supported yet",
                   f->location);
      return false;
  }
  *out = std::move(e);
  return true;
}

// ---- evaluation ---------------------------------------------------------

namespace {

// LIKE with % and _ and backslash as the escape character, on bytes (the
// C collation; multibyte characters match _ byte by byte only when the
// pattern has none, which the UTF-8 check below handles).
bool LikeMatch(const std::string& s, const std::string& p, size_t si = 0,
               size_t pi = 0) {
  while (pi < p.size()) {
    char c = p[pi];
    if (c == '%') {
      while (pi < p.size() && p[pi] == '%') pi++;
      if (pi == p.size()) return true;
      for (size_t k = si; k <= s.size(); k++) {
        if (LikeMatch(s, p, k, pi)) return true;
      }
      return false;
    }
    if (si >= s.size()) return false;
    if (c == '_') {
      // One character: skip a whole UTF-8 sequence.
      si++;
      while (si < s.size() &&
             (static_cast<unsigned char>(s[si]) & 0xc0) == 0x80)
        si++;
      pi++;
      continue;
    }
    if (c == '\\' && pi + 1 < p.size()) {
      pi++;
      c = p[pi];
    }
    if (s[si] != c) return false;
    si++;
    pi++;
  }
  return si == s.size();
}

// Three-way comparison of two non-null values of comparable types.
bool CompareValues(uint32_t lt, uint32_t rt, const std::string& lv,
                   const std::string& rv, const types::TypeContext& ctx,
                   int* out, PgError* error) {
  const std::string* l = &lv;
  const std::string* r = &rv;
  int c;
  if (IsNumber(lt) && IsNumber(rt)) {
    uint32_t t = ArithmeticType(lt, rt);
    if (IsInteger(t)) {
      int64_t a, b;
      ToInt64(*l, &a);
      ToInt64(*r, &b);
      c = a < b ? -1 : a > b;
    } else if (IsFloat(t)) {
      double a = ToDouble(*l), b = ToDouble(*r);
      // PostgreSQL orders NaN above everything and equal to itself.
      if (std::isnan(a) || std::isnan(b))
        c = std::isnan(a) && std::isnan(b) ? 0 : std::isnan(a) ? 1 : -1;
      else
        c = a < b ? -1 : a > b;
    } else {
      Decimal a, b;
      if (!Decimal::Parse(*l, &a) || !Decimal::Parse(*r, &b)) {
        bool an = *l == "NaN", bn = *r == "NaN";
        c = an && bn ? 0 : an ? 1 : -1;
      } else {
        c = CompareDecimal(a, b);
      }
    }
  } else if (lt == rt && (lt == oid::kDate || lt == oid::kTime ||
                          lt == oid::kTimestamp || lt == oid::kTimestamptz)) {
    // Their binary forms are signed integers (days or microseconds).
    std::string a, b;
    if (!types::TextToBinary(lt, *l, ctx, &a, error) ||
        !types::TextToBinary(lt, *r, ctx, &b, error))
      return false;
    auto decode = [](const std::string& bytes) {
      int64_t v = 0;
      for (unsigned char ch : bytes) v = (v << 8) | ch;
      if (bytes.size() == 4) v = static_cast<int32_t>(v);
      return v;
    };
    int64_t x = decode(a), y = decode(b);
    c = x < y ? -1 : x > y;
  } else {
    int cmp = l->compare(*r);
    c = cmp < 0 ? -1 : cmp > 0;
  }
  *out = c;
  return true;
}

bool EvalOperator(const Expr& e, const Value& l, const Value& r,
                  SessionHooks* hooks, Value* out, PgError* error) {
  const std::string& op = e.name;
  const auto& ctx = hooks->type_context();
  uint32_t lt = e.args[0]->type;
  uint32_t rt = e.args.size() > 1 ? e.args[1]->type : 0;
  if (e.args.size() == 1) {  // prefix - or +
    if (!r) return true;
    if (op == "+") {
      *out = r;
      return true;
    }
    if (op == "|/") {
      double v = ToDouble(*r);
      if (v < 0) {
        *error = Err("2201F", "cannot take square root of a negative number");
        return false;
      }
      return FormatDouble(std::sqrt(v), oid::kFloat8, ctx, out, error);
    }
    if (op == "@") {
      if (!r->empty() && (*r)[0] == '-') {
        if (IsInteger(e.type)) {
          int64_t v;
          ToInt64(*r, &v);
          if (v == std::numeric_limits<int64_t>::min() ||
              !CheckIntRange(-v, e.type, error))
            return false;
          *out = std::to_string(-v);
        } else {
          *out = r->substr(1);
        }
      } else {
        *out = r;
      }
      return true;
    }
    if (IsInteger(e.type)) {
      int64_t v;
      ToInt64(*r, &v);
      if (v == std::numeric_limits<int64_t>::min() ||
          !CheckIntRange(-v, e.type, error))
        return false;
      *out = std::to_string(-v);
      return true;
    }
    if (IsFloat(e.type))
      return FormatDouble(-ToDouble(*r), e.type, ctx, out, error);
    Decimal d;
    if (!Decimal::Parse(*r, &d)) {
      *out = r;  // NaN
      return true;
    }
    d.negative = !d.negative && d.digits != "0";
    *out = d.ToString();
    return true;
  }
  if (!l || !r) return true;  // strict operators: NULL in, NULL out
  if (op == "||") {
    // Each side as text: char(n) loses its padding, other types go through
    // their cast to text (bool -> "true").
    auto as_text = [&](uint32_t t, const std::string& v, std::string* s) {
      if (t == oid::kBpchar) {
        size_t end = v.find_last_not_of(' ');
        *s = end == std::string::npos ? "" : v.substr(0, end + 1);
        return true;
      }
      if (IsText(t)) {
        *s = v;
        return true;
      }
      return types::Cast(t, oid::kText, -1, v, ctx, s, error);
    };
    std::string a, b;
    if (!as_text(lt, *l, &a) || !as_text(rt, *r, &b)) return false;
    *out = a + b;
    return true;
  }
  if (op == "^") {
    double a = ToDouble(*l), b = ToDouble(*r);
    if (a == 0 && b < 0) {
      *error = Err("2201F", "zero raised to a negative power is undefined");
      return false;
    }
    if (a < 0 && b != std::floor(b)) {
      *error = Err("2201F",
                   "a negative number raised to a non-integer power yields "
                   "a complex result");
      return false;
    }
    return FormatDouble(std::pow(a, b), oid::kFloat8, ctx, out, error);
  }
  if (op.find("~~") != std::string::npos) {
    bool insensitive = op.find('*') != std::string::npos;
    bool negate = op[0] == '!';
    auto fold = [&](const std::string& s) {
      if (!insensitive) return s;
      std::string t = s;
      for (char& ch : t) ch = static_cast<char>(std::tolower(ch));
      return t;
    };
    bool match = LikeMatch(fold(*l), fold(*r));
    *out = match != negate ? "t" : "f";
    return true;
  }
  bool compare = op == "=" || op == "<>" || op == "!=" || op == "<" ||
                 op == ">" || op == "<=" || op == ">=";
  if (compare) {
    int c;
    if (!CompareValues(lt, rt, *l, *r, ctx, &c, error)) return false;
    bool result = op == "="    ? c == 0
                  : op == "<"  ? c < 0
                  : op == ">"  ? c > 0
                  : op == "<=" ? c <= 0
                  : op == ">=" ? c >= 0
                               : c != 0;
    *out = result ? "t" : "f";
    return true;
  }
  // Arithmetic.
  uint32_t t = e.type;
  if (IsInteger(t)) {
    int64_t a, b, v;
    ToInt64(*l, &a);
    ToInt64(*r, &b);
    bool overflow = false;
    if (op == "+")
      overflow = __builtin_add_overflow(a, b, &v);
    else if (op == "-")
      overflow = __builtin_sub_overflow(a, b, &v);
    else if (op == "*")
      overflow = __builtin_mul_overflow(a, b, &v);
    else {
      if (b == 0) {
        *error = Err("22012", "division by zero");
        return false;
      }
      if (a == std::numeric_limits<int64_t>::min() && b == -1) {
        if (op == "%") {
          v = 0;
        } else {
          overflow = true;
        }
      } else {
        v = op == "/" ? a / b : a % b;
      }
    }
    if (overflow || !CheckIntRange(v, t, error)) {
      *error = Err("22003", std::string(IntRangeName(t)) + " out of range");
      return false;
    }
    *out = std::to_string(v);
    return true;
  }
  if (IsFloat(t)) {
    double a = ToDouble(*l), b = ToDouble(*r), v;
    if (op == "+")
      v = a + b;
    else if (op == "-")
      v = a - b;
    else if (op == "*")
      v = a * b;
    else {
      if (b == 0) {
        *error = Err("22012", "division by zero");
        return false;
      }
      v = a / b;
    }
    if (std::isinf(v) && !std::isinf(a) && !std::isinf(b)) {
      *error = Err("22003", "value out of range: overflow");
      return false;
    }
    return FormatDouble(v, t, ctx, out, error);
  }
  // numeric
  Decimal a, b;
  if (!Decimal::Parse(*l, &a) || !Decimal::Parse(*r, &b)) {
    *out = "NaN";
    return true;
  }
  if (op == "+" || op == "-") {
    *out = AddDecimal(a, b, op == "-").ToString();
    return true;
  }
  if (op == "*") {
    *out = MulDecimal(a, b).ToString();
    return true;
  }
  if (b.digits == "0") {
    *error = Err("22012", "division by zero");
    return false;
  }
  if (op == "/") {
    *out = DivDecimal(a, b).ToString();
    return true;
  }
  *error =
      Err("0A000", "numeric " + std::string(op == "/" ? "division" : "modulo") +
                       " is not supported yet");
  return false;
}

bool EvalFunction(const Expr& e, const std::vector<Value>& args,
                  SessionHooks* hooks, Value* out, PgError* error) {
  const std::string& n = e.name;
  if (n == "version") {
    *out = "PostgreSQL " + hooks->ServerVersion() +
           " (Kova) on x86_64-pc-linux-gnu, compiled by gcc, 64-bit";
  } else if (n == "current_database") {
    *out = hooks->CurrentDatabase();
  } else if (n == "current_schema") {
    // The first schema of search_path that exists; only public exists yet.
    Value path;
    PgError ignored;
    hooks->GetSetting("search_path", true, &path, &ignored);
    if (path && path->find("public") != std::string::npos) *out = "public";
  } else if (n == "current_user" || n == "session_user") {
    *out = hooks->CurrentUser();
  } else if (n == "pg_backend_pid") {
    *out = std::to_string(hooks->BackendPid());
  } else if (n == "pg_is_in_recovery") {
    *out = "f";
  } else if (n == "current_setting") {
    if (!args[0]) return true;
    bool missing_ok = args.size() > 1 && args[1] && *args[1] == "t";
    return hooks->GetSetting(*args[0], missing_ok, out, error);
  } else if (n == "set_config") {
    if (!args[0]) {
      *error = Err("22004", "SET requires parameter name");
      return false;
    }
    std::string result;
    if (!hooks->SetSetting(*args[0], args[1], args[2] && *args[2] == "t",
                           &result, error))
      return false;
    *out = result;
  } else if (n == "pg_sleep") {
    if (!args[0]) return true;
    if (!hooks->Sleep(ToDouble(*args[0]), error)) return false;
    *out = "";
  } else if (n == "now" || n == "transaction_timestamp" ||
             n == "statement_timestamp" || n == "clock_timestamp") {
    int64_t micros =
        n == "statement_timestamp" ? hooks->StatementStartMicros()
        : n == "clock_timestamp"
            ? std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count()
            : hooks->TransactionStartMicros();
    std::string canonical;
    if (!types::InputText(oid::kTimestamptz, -1, TimestampFromMicros(micros),
                          hooks->type_context(), &canonical, error))
      return false;
    *out = canonical;
  } else if (n == "chr") {
    if (!args[0]) return true;
    int64_t cp;
    ToInt64(*args[0], &cp);
    if (cp == 0) {
      *error = Err("54000", "null character not permitted");
      return false;
    }
    if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      *error = Err("54000", "requested character too large for encoding: " +
                                std::to_string(cp));
      return false;
    }
    std::string s;
    uint32_t c = static_cast<uint32_t>(cp);
    if (c < 0x80) {
      s.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      s.push_back(static_cast<char>(0xC0 | (c >> 6)));
      s.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      s.push_back(static_cast<char>(0xE0 | (c >> 12)));
      s.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      s.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      s.push_back(static_cast<char>(0xF0 | (c >> 18)));
      s.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      s.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      s.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
    *out = s;
  } else if (n == "split_part") {
    if (!args[0] || !args[1] || !args[2]) return true;
    int64_t field;
    ToInt64(*args[2], &field);
    if (field == 0) {
      *error = Err("22023", "field position must not be zero");
      return false;
    }
    std::vector<std::string> parts;
    const std::string& s = *args[0];
    const std::string& d = *args[1];
    if (d.empty()) {
      parts.push_back(s);
    } else {
      size_t start = 0, pos;
      while ((pos = s.find(d, start)) != std::string::npos) {
        parts.push_back(s.substr(start, pos - start));
        start = pos + d.size();
      }
      parts.push_back(s.substr(start));
    }
    int64_t count = static_cast<int64_t>(parts.size());
    int64_t index = field > 0 ? field - 1 : count + field;
    *out = index >= 0 && index < count ? parts[index] : "";
  } else if (n == "concat" || n == "concat_ws") {
    size_t first = n == "concat" ? 0 : 1;
    if (n == "concat_ws" && !args[0]) return true;  // NULL separator
    std::string result;
    bool any = false;
    for (size_t i = first; i < args.size(); i++) {
      if (!args[i]) continue;
      if (any && n == "concat_ws") result += *args[0];
      result += *args[i];
      any = true;
    }
    *out = result;
  } else if (n == "length" || n == "char_length") {
    if (!args[0]) return true;
    size_t count = 0;  // characters, not bytes
    for (unsigned char c : *args[0])
      if ((c & 0xc0) != 0x80) count++;
    *out = std::to_string(count);
  } else if (n == "lower" || n == "upper") {
    if (!args[0]) return true;
    std::string s = *args[0];
    for (char& c : s)  // ASCII only, as the C collation
      c = static_cast<char>(n == "lower" ? std::tolower(c) : std::toupper(c));
    *out = s;
  } else if (n == "abs") {
    if (!args[0]) return true;
    if (IsInteger(e.type)) {
      int64_t v;
      ToInt64(*args[0], &v);
      if (v == std::numeric_limits<int64_t>::min() ||
          !CheckIntRange(v < 0 ? -v : v, e.type, error))
        return false;
      *out = std::to_string(v < 0 ? -v : v);
    } else {
      return FormatDouble(std::fabs(ToDouble(*args[0])), e.type,
                          hooks->type_context(), out, error);
    }
  } else {
    *error = Err("0A000", "function " + n + " is not supported yet");
    return false;
  }
  return true;
}

}  // namespace

bool Evaluate(const Expr& e, const std::vector<Value>& params,
              SessionHooks* hooks, Value* out, PgError* error) {
  switch (e.kind) {
    case Expr::Kind::kConst:
      *out = e.value;
      return true;
    case Expr::Kind::kParam:
      *out = e.param < static_cast<int>(params.size()) ? params[e.param]
                                                       : std::nullopt;
      return true;
    case Expr::Kind::kCast: {
      Value v;
      if (!Evaluate(*e.args[0], params, hooks, &v, error)) return false;
      if (!v) {
        *out = std::nullopt;
        return true;
      }
      std::string result;
      bool ok = e.args[0]->type == oid::kUnknown
                    ? types::InputText(e.type, e.typmod, *v,
                                       hooks->type_context(), &result, error)
                    : types::Cast(e.args[0]->type, e.type, e.typmod, *v,
                                  hooks->type_context(), &result, error);
      if (!ok) return false;
      *out = result;
      return true;
    }
    case Expr::Kind::kOperator: {
      Value l, r;
      if (e.args.size() == 2) {
        if (!Evaluate(*e.args[0], params, hooks, &l, error) ||
            !Evaluate(*e.args[1], params, hooks, &r, error))
          return false;
      } else if (!Evaluate(*e.args[0], params, hooks, &r, error)) {
        return false;
      }
      *out = std::nullopt;
      return EvalOperator(e, l, r, hooks, out, error);
    }
    case Expr::Kind::kFunction: {
      std::vector<Value> args;
      for (const auto& a : e.args) {
        Value v;
        if (!Evaluate(*a, params, hooks, &v, error)) return false;
        args.push_back(std::move(v));
      }
      *out = std::nullopt;
      return EvalFunction(e, args, hooks, out, error);
    }
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr: {
      // Three-valued logic.
      bool is_and = e.kind == Expr::Kind::kAnd;
      bool saw_null = false;
      for (const auto& a : e.args) {
        Value v;
        if (!Evaluate(*a, params, hooks, &v, error)) return false;
        if (!v) {
          saw_null = true;
        } else if ((*v == "t") != is_and) {
          *out = is_and ? "f" : "t";
          return true;
        }
      }
      *out = saw_null ? Value() : Value(is_and ? "t" : "f");
      return true;
    }
    case Expr::Kind::kNot: {
      Value v;
      if (!Evaluate(*e.args[0], params, hooks, &v, error)) return false;
      *out = v ? Value(*v == "t" ? "f" : "t") : Value();
      return true;
    }
    case Expr::Kind::kIsNull:
    case Expr::Kind::kIsNotNull: {
      Value v;
      if (!Evaluate(*e.args[0], params, hooks, &v, error)) return false;
      bool is_null = !v.has_value();
      *out = (is_null == (e.kind == Expr::Kind::kIsNull)) ? "t" : "f";
      return true;
    }
    case Expr::Kind::kCoalesce:
      for (const auto& a : e.args) {
        Value v;
        if (!Evaluate(*a, params, hooks, &v, error)) return false;
        if (v) {
          *out = v;
          return true;
        }
      }
      *out = std::nullopt;
      return true;
    case Expr::Kind::kDistinct: {
      const Expr& cmp = *e.args[0];
      Value l, r;
      if (!Evaluate(*cmp.args[0], params, hooks, &l, error) ||
          !Evaluate(*cmp.args[1], params, hooks, &r, error))
        return false;
      bool distinct;
      if (!l || !r) {
        distinct = l.has_value() != r.has_value();
      } else {
        Value ne;
        if (!EvalOperator(cmp, l, r, hooks, &ne, error)) return false;
        distinct = ne && *ne == "t";
      }
      if (e.name == "not") distinct = !distinct;
      *out = distinct ? "t" : "f";
      return true;
    }
    case Expr::Kind::kNullIf: {
      Value v, equal;
      if (!Evaluate(*e.args[0], params, hooks, &v, error) ||
          !Evaluate(*e.args[1], params, hooks, &equal, error))
        return false;
      *out = equal && *equal == "t" ? Value() : v;
      return true;
    }
    case Expr::Kind::kMinMax: {
      Value best;
      for (const auto& a : e.args) {
        Value v;
        if (!Evaluate(*a, params, hooks, &v, error)) return false;
        if (!v) continue;  // NULLs are ignored
        if (!best) {
          best = v;
          continue;
        }
        int c;
        if (!CompareValues(e.type, e.type, *v, *best, hooks->type_context(), &c,
                           error))
          return false;
        if (e.name == "greatest" ? c > 0 : c < 0) best = v;
      }
      *out = best;
      return true;
    }
    case Expr::Kind::kBoolTest: {
      Value v;
      if (!Evaluate(*e.args[0], params, hooks, &v, error)) return false;
      bool r;
      if (e.name == "true")
        r = v && *v == "t";
      else if (e.name == "not true")
        r = !(v && *v == "t");
      else if (e.name == "false")
        r = v && *v == "f";
      else if (e.name == "not false")
        r = !(v && *v == "f");
      else if (e.name == "unknown")
        r = !v;
      else
        r = v.has_value();
      *out = r ? "t" : "f";
      return true;
    }
    case Expr::Kind::kCase: {
      size_t pairs = (e.args.size() - (e.has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; i++) {
        Value cond;
        if (!Evaluate(*e.args[2 * i], params, hooks, &cond, error))
          return false;
        if (cond && *cond == "t")
          return Evaluate(*e.args[2 * i + 1], params, hooks, out, error);
      }
      if (e.has_else)
        return Evaluate(*e.args.back(), params, hooks, out, error);
      *out = std::nullopt;
      return true;
    }
  }
  return false;
}

}  // namespace kova::planner
