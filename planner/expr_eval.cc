// Expression evaluation over canonical text values.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "planner/decimal.h"
#include "planner/domains.h"
#include "planner/expr.h"
#include "planner/expr_internal.h"
#include "planner/svalue.h"
#include "planner/types_array.h"
#include "planner/types_ids.h"
#include "planner/user_types.h"

namespace kova::planner {
using namespace expr_detail;  // NOLINT: the helpers of this component

// ---- evaluation ---------------------------------------------------------

// Three-way comparison of two non-null values of comparable types.
bool expr_detail::CompareValues(uint32_t lt, uint32_t rt, const std::string& lv,
                                const std::string& rv,
                                const types::TypeContext& ctx, int* out,
                                PgError* error) {
  if (types::ArrayElementType(lt))
    return CompareArrays(lt, lv, rv, ctx, out, error);
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
      double a = ToDoubleOf(lt, *l), b = ToDoubleOf(rt, *r);
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
  } else if (Category(lt) == 'D' || lt == oid::kInterval) {
    return CompareDateTime(lt, rt, *l, *r, ctx, out, error);
  } else if (lt == rt && user_types::IsEnum(lt)) {
    c = user_types::CompareEnum(lt, *l, *r);
  } else if (lt == oid::kTid || lt == oid::kXid || lt == oid::kXid8 ||
             lt == oid::kCid) {
    // Unsigned numbers (a tid as its encoding); xid = int4 compares the
    // two as 32-bit unsigned values, as xideqint4 does.
    auto number = [&](uint32_t type, const std::string& text, uint64_t* v) {
      if (type != oid::kTid) {
        *v = std::strtoull(text.c_str(), nullptr, 10);
        if (type == oid::kInt4 || type == oid::kXid || type == oid::kCid)
          *v = static_cast<uint32_t>(std::strtoll(text.c_str(), nullptr, 10));
        return true;
      }
      int64_t encoded;
      if (!types::ids::TidIn(text, &encoded, error)) return false;
      *v = static_cast<uint64_t>(encoded);
      return true;
    };
    uint64_t a, b;
    if (!number(lt, *l, &a) || !number(rt, *r, &b)) return false;
    c = a < b ? -1 : a > b;
  } else if (lt == oid::kBpchar && rt == oid::kBpchar) {
    // Trailing blanks are insignificant.
    std::string a = *l, b = *r;
    a.erase(a.find_last_not_of(' ') + 1);
    b.erase(b.find_last_not_of(' ') + 1);
    int cmp = a.compare(b);
    c = cmp < 0 ? -1 : cmp > 0;
  } else {
    int cmp = l->compare(*r);
    c = cmp < 0 ? -1 : cmp > 0;
  }
  *out = c;
  return true;
}

bool SameTypeSettings(const types::TypeContext& a,
                      const types::TypeContext& b) {
  return a.timezone == b.timezone && a.datestyle == b.datestyle &&
         a.intervalstyle == b.intervalstyle &&
         a.extra_float_digits == b.extra_float_digits;
}

bool Rewrite(uint32_t type, const std::string& text,
             const types::TypeContext& from, const types::TypeContext& to,
             Value* out, PgError* error) {
  SValue value;
  return ToSValue(type, text, from, &value, error) &&
         FromSValue(type, value, to, out, error);
}

namespace {

bool EvalOperator(const Expr& e, const Value& l, const Value& r,
                  SessionHooks* hooks, Value* out, PgError* error) {
  const std::string& op = e.name;
  const auto& ctx = hooks->type_context();
  uint32_t lt = e.args[0]->type;
  uint32_t rt = e.args.size() > 1 ? e.args[1]->type : 0;
  if (e.args.size() == 1) {  // prefix - or +
    if (!r) return true;
    if (e.type == oid::kInterval) {
      bool handled = false;
      return EvalDateTimeOperator(e, l, r, hooks, &handled, out, error);
    }
    if (op == "~") {
      int64_t v;
      ToInt64(*r, &v);
      *out = std::to_string(~v);
      return true;
    }
    if (op == "||/")
      return FormatDouble(std::cbrt(ToDouble(*r)), oid::kFloat8, ctx, out,
                          error);
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
          if (!NegateInt(v, e.type, &v, error)) return false;
          *out = std::to_string(v);
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
      if (!NegateInt(v, e.type, &v, error)) return false;
      *out = std::to_string(v);
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
  bool handled_json = false;
  if (op == "||" && lt == oid::kBytea && rt == oid::kBytea) {
    *out = *l + r->substr(std::min<size_t>(2, r->size()));
    return true;
  }
  if (op == "||" && lt == oid::kJsonb && rt == oid::kJsonb)
    return EvalJsonFunction(e, {l, r}, hooks, &handled_json, out, error);
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
  {
    bool handled = false;
    if (Category(lt) == 'D' || Category(lt) == 'T' || Category(rt) == 'D' ||
        Category(rt) == 'T') {
      if (!(op == "=" || op == "<>" || op == "<" || op == ">" || op == "<=" ||
            op == ">=")) {
        bool ok = EvalDateTimeOperator(e, l, r, hooks, &handled, out, error);
        if (handled) return ok;
      }
    }
    if (lt == oid::kJson || lt == oid::kJsonb) {
      bool ok = EvalJsonFunction(e, {l, r}, hooks, &handled, out, error);
      if (handled) return ok;
    }
  }
  if (op == "^" && e.type == oid::kNumeric) {
    Expr call;
    call.name = "power";
    call.type = oid::kNumeric;
    bool handled = false;
    return EvalMathFunction(call, {l, r}, hooks, &handled, out, error);
  }
  if (op == "^@") {
    *out = l->compare(0, r->size(), *r) == 0 ? "t" : "f";
    return true;
  }
  if (op == "~" || op == "!~" || op == "~*" || op == "!~*") {
    bool match;
    if (!RegexMatch(*l, *r, op.find('*') != std::string::npos, &match, error))
      return false;
    *out = match != (op[0] == '!') ? "t" : "f";
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
    std::string subject = *l;
    bool match;
    if (!LikeMatch(subject, *r, "\\", insensitive, &match, error)) return false;
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
  if (op == "&" || op == "|" || op == "#" || op == "<<" || op == ">>") {
    int64_t a, b;
    ToInt64(*l, &a);
    ToInt64(*r, &b);
    int bits = e.type == oid::kInt2 ? 16 : e.type == oid::kInt4 ? 32 : 64;
    int64_t v;
    if (op == "&") {
      v = a & b;
    } else if (op == "|") {
      v = a | b;
    } else if (op == "#") {
      v = a ^ b;
    } else {
      // C shift semantics on the type's width, as PostgreSQL's int4shl.
      int s = static_cast<int>(b & (bits - 1));
      if (bits == 64) {
        v = op == "<<" ? static_cast<int64_t>(static_cast<uint64_t>(a) << s)
                       : a >> s;
      } else if (bits == 32) {
        int32_t x = static_cast<int32_t>(a);
        v = op == "<<" ? static_cast<int32_t>(static_cast<uint32_t>(x) << s)
                       : x >> s;
      } else {
        int32_t x = static_cast<int16_t>(a);
        v = op == "<<" ? static_cast<int16_t>(static_cast<uint32_t>(x) << s)
                       : static_cast<int16_t>(x >> s);
      }
    }
    *out = std::to_string(v);
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
    double a = ToDoubleOf(lt, *l), b = ToDoubleOf(rt, *r), v;
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
    // real arithmetic is float arithmetic (float4pl and the others).
    if (t == oid::kFloat4) v = static_cast<float>(v);
    if (std::isinf(v) && !std::isinf(a) && !std::isinf(b)) {
      *error = Err("22003", "value out of range: overflow");
      return false;
    }
    if (v == 0 && (op == "*" || op == "/") && a != 0 &&
        (op == "/" ? !std::isinf(b) : b != 0)) {
      *error = Err("22003", "value out of range: underflow");
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
  if (op == "%") {
    Expr call;
    call.name = "mod";
    call.type = oid::kNumeric;
    bool handled = false;
    return EvalMathFunction(call, {l, r}, hooks, &handled, out, error);
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
    // The first schema of search_path that exists (NULL when none does).
    std::vector<std::string> path = hooks->SchemaSearchPath(false);
    if (!path.empty()) *out = path.front();
  } else if (n == "current_user" || n == "session_user") {
    *out = hooks->CurrentUser();
  } else if (n == "xid") {  // xid(xid8): its low 32 bits
    if (args[0])
      *out = std::to_string(
          static_cast<uint32_t>(std::strtoull(args[0]->c_str(), nullptr, 10)));
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
  } else {
    bool handled = false;
    bool ok = EvalStringFunction(e, args, hooks, &handled, out, error);
    if (!handled) ok = EvalMathFunction(e, args, hooks, &handled, out, error);
    if (!handled)
      ok = EvalDateTimeFunction(e, args, hooks, &handled, out, error);
    if (!handled) ok = EvalJsonFunction(e, args, hooks, &handled, out, error);
    if (!handled) ok = EvalFormatFunction(e, args, hooks, &handled, out, error);
    if (!handled) ok = EvalArrayFunction(e, args, hooks, &handled, out, error);
    if (!handled) ok = EvalBytesFunction(e, args, hooks, &handled, out, error);
    if (!handled) ok = EvalRowFunction(e, args, hooks, &handled, out, error);
    if (!handled) {
      *error = Err("0A000", "function " + n + " is not supported yet");
      return false;
    }
    return ok;
  }
  return true;
}

}  // namespace

bool Evaluate(const Expr& e, const std::vector<Value>& params,
              SessionHooks* hooks, Value* out, PgError* error) {
  switch (e.kind) {
    case Expr::Kind::kConst:
      if (e.value_context && e.value &&
          !SameTypeSettings(*e.value_context, hooks->type_context()))
        return Rewrite(e.type, *e.value, *e.value_context,
                       hooks->type_context(), out, error);
      *out = e.value;
      return true;
    case Expr::Kind::kParam:
      *out = e.param < static_cast<int>(params.size()) ? params[e.param]
                                                       : std::nullopt;
      if (*out && e.type == oid::kBpchar && e.typmod > 4) {
        // char(n) values may arrive without their padding (stored
        // trimmed): the canonical text has it.
        size_t chars = 0;
        for (unsigned char ch : **out)
          if ((ch & 0xc0) != 0x80) chars++;
        size_t want = static_cast<size_t>(e.typmod - 4);
        if (chars < want) (*out)->append(want - chars, ' ');
      }
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
      if (IsSessionFunction(e.name)) {
        if (hooks->CallSessionFunction(e.name, args, out, error)) return true;
        // A relation named by a literal is resolved when PostgreSQL parses
        // it ('s'::regclass): errors point at the literal.
        if (error->position == 0 && !e.args.empty() &&
            (e.args[0]->kind == Expr::Kind::kConst ||
             e.args[0]->kind == Expr::Kind::kCast) &&
            e.args[0]->location >= 0 && e.name != "pg_get_serial_sequence" &&
            e.name != "to_regclass" &&
            (error->sqlstate == "42P01" || error->sqlstate == "3F000" ||
             error->sqlstate == "42602"))
          error->position = e.args[0]->location + 1;
        return false;
      }
      if (e.name == kDomainCheckFunction) {
        // A cast to a domain: the value (of the base type) passes its
        // constraints or fails.
        uint32_t domain = static_cast<uint32_t>(std::stoul(*args[1]));
        if (!CheckDomainValue(domain, args[0], hooks, error)) return false;
        *out = args[0];
        return true;
      }
      if (e.name == "enum_first" || e.name == "enum_last") {
        const catalog::UserType* t = user_types::Find(e.type);
        const catalog::EnumLabel* best = nullptr;
        static const std::vector<catalog::EnumLabel> kNoLabels;
        for (const auto& l : t ? t->labels : kNoLabels)
          if (!best ||
              (e.name == "enum_first" ? l.sort_order < best->sort_order
                                      : l.sort_order > best->sort_order))
            best = &l;
        if (!best) {
          *error = Err("55000", "enum " + user_types::FormatName(e.type) +
                                    " contains no values");
          return false;
        }
        *out = best->label;
        return true;
      }
      if (e.name == "enum_range") {
        // The labels in sort order, from args[0] (or the first) up to
        // args[1] (or the last); empty when they are the wrong way round.
        uint32_t type = types::ArrayElementType(e.type);
        const catalog::UserType* t = user_types::Find(type);
        std::vector<const catalog::EnumLabel*> labels;
        if (t)
          for (const auto& l : t->labels) labels.push_back(&l);
        std::sort(labels.begin(), labels.end(), [](auto* a, auto* b) {
          return a->sort_order < b->sort_order;
        });
        bool bounded = args.size() == 2;
        const catalog::EnumLabel* lower =
            bounded && args[0] ? t->FindLabel(*args[0]) : nullptr;
        const catalog::EnumLabel* upper =
            bounded && args[1] ? t->FindLabel(*args[1]) : nullptr;
        types::ArrayValue range;
        for (const auto* l : labels) {
          if (lower && l->sort_order < lower->sort_order) continue;
          if (upper && l->sort_order > upper->sort_order) break;
          range.items.push_back(l->label);
        }
        if (!range.items.empty()) {
          range.dims = {static_cast<int32_t>(range.items.size())};
          range.lbounds = {1};
        }
        *out = types::FormatArray(range);
        return true;
      }
      return EvalFunction(e, args, hooks, out, error);
    }
    case Expr::Kind::kColumn:
    case Expr::Kind::kAggregate:
    case Expr::Kind::kSubquery:
      *error = Err("XX000", "a table expression was evaluated outside SQLite");
      return false;
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
        Value eq;
        if (!EvalOperator(cmp, l, r, hooks, &eq, error)) return false;
        distinct = !(eq && *eq == "t");
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