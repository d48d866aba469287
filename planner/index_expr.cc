// Expression index keys: analysis, PostgreSQL's checks and display, and
// kova_index_key, the SQLite function the docstore's index is built on.

#include "planner/index_expr.h"

#include <bson/bson.h>
#include <pg_query/pg_query.pb-c.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/expr_internal.h"
#include "planner/svalue.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {

using expr_detail::Err;

namespace {

std::string Str(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                          : "";
}

struct ColumnInfo {
  std::string name;
  uint32_t type;
  int32_t typmod;
};

// Column references of an index expression become parameters: in a fixed
// order (a compiled program's list) or in the order first named.
class IndexColumnsScope : public ExprScope {
 public:
  IndexColumnsScope(std::vector<ColumnInfo> available, bool fixed,
                    IndexExpression* out, bool index_rules = true)
      : available_(std::move(available)),
        fixed_(fixed),
        out_(out),
        index_rules_(index_rules) {}

  bool ResolveColumn(const PgQuery__ColumnRef* ref, std::unique_ptr<Expr>* out,
                     PgError* error) override {
    std::string column = Str(ref->fields[ref->n_fields - 1]);
    if (ref->n_fields > 1 || ref->fields[ref->n_fields - 1]->node_case !=
                                 PG_QUERY__NODE__NODE_STRING) {
      *error = Err("0A000",
                   "index expressions over qualified columns or whole rows "
                   "are not supported yet",
                   ref->location);
      return false;
    }
    const ColumnInfo* found = nullptr;
    int position = -1;
    for (size_t i = 0; i < available_.size(); i++)
      if (available_[i].name == column) {
        found = &available_[i];
        position = static_cast<int>(i);
      }
    if (!found) {
      *error = Err("42703", "column \"" + column + "\" does not exist",
                   ref->location);
      return false;
    }
    int32_t typmod = found->typmod;
    uint32_t base = user_types::BaseType(found->type, &typmod);
    if (user_types::IsUserOid(base) && index_rules_) {
      *error = Err("0A000",
                   "index expressions over column \"" + column + "\" of type " +
                       user_types::FormatName(base) + " are not supported yet",
                   ref->location);
      return false;
    }
    int param = position;
    if (!fixed_) {
      param = -1;
      for (size_t i = 0; i < out_->names.size(); i++)
        if (out_->names[i] == column) param = static_cast<int>(i);
      if (param < 0) {
        param = static_cast<int>(out_->names.size());
        out_->names.push_back(column);
        out_->types.push_back(base);
        out_->typmods.push_back(typmod);
      }
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kParam;
    e->param = param;
    e->type = base;
    e->typmod = typmod;
    if (base != found->type) e->domain = found->type;
    e->location = ref->location;
    *out = std::move(e);
    return true;
  }
  bool AggregatesAllowed(const char** context) override {
    *context = "index expressions";
    return false;
  }
  bool AnalyzeSubLink(const PgQuery__SubLink* link, std::unique_ptr<Expr>*,
                      PgError* error) override {
    *error =
        Err("0A000", "cannot use subquery in index expression", link->location);
    return false;
  }
  bool AnalyzeWindowCall(const PgQuery__FuncCall* f, const std::string&,
                         std::unique_ptr<Expr>*, PgError* error) override {
    *error =
        Err("42P20", "window functions are not allowed in index expressions",
            f->location);
    return false;
  }

 private:
  std::vector<ColumnInfo> available_;
  bool fixed_;
  IndexExpression* out_;
  bool index_rules_;  // refuse what kova_index_key cannot evaluate
};

bool IsTimestamptz(const Expr& e) { return e.type == oid::kTimestamptz; }

// Whether PostgreSQL marks what `e` calls IMMUTABLE (pg_proc.provolatile
// of the functions, operators and casts Kova implements).
bool Immutable(const Expr& e) {
  for (const auto& a : e.args)
    if (a && !Immutable(*a)) return false;
  if (e.element_op && !Immutable(*e.element_op)) return false;
  switch (e.kind) {
    case Expr::Kind::kSubquery:
    case Expr::Kind::kAggregate:
    case Expr::Kind::kWindow:
      return false;
    case Expr::Kind::kCast:
      return e.args.empty() || !SettingDependentCast(e.args[0]->type, e.type);
    case Expr::Kind::kOperator:
      // timestamptz +/- interval and comparisons across timestamptz and
      // date/timestamp read TimeZone.
      if (e.args.size() == 2 &&
          IsTimestamptz(*e.args[0]) != IsTimestamptz(*e.args[1]) &&
          (e.name == "+" || e.name == "-" || e.name == "<" || e.name == "<=" ||
           e.name == "=" || e.name == "<>" || e.name == ">" || e.name == ">="))
        return false;
      return true;
    case Expr::Kind::kFunction: {
      const std::string& n = e.name;
      auto arg_type = [&](size_t i) {
        return i < e.args.size() ? e.args[i]->type : 0u;
      };
      if (n == "age") return e.args.size() == 2;
      if (n == "date_part" || n == "extract" || n == "date_trunc")
        return arg_type(1) != oid::kTimestamptz;
      if (n == "quote_literal" || n == "quote_nullable")
        return arg_type(0) == oid::kText;
      if (n == "to_timestamp") return e.args.size() == 1;
      if (n == "length") return e.args.size() == 1;
      if (n == "timezone") return arg_type(1) != 1266;  // timetz
      static const char* const kMutable[] = {
          "array_to_json",
          "array_to_string",
          "clock_timestamp",
          "col_description",
          "concat",
          "concat_ws",
          "current_database",
          "current_schema",
          "current_schemas",
          "current_setting",
          "current_user",
          "currval",
          "format",
          "format_type",
          "gen_random_uuid",
          "json_build_array",
          "json_build_object",
          "jsonb_build_array",
          "jsonb_build_object",
          "lastval",
          "localtime",
          "localtimestamp",
          "current_date",
          "current_time",
          "current_timestamp",
          "make_timestamptz",
          "nextval",
          "now",
          "obj_description",
          "random",
          "session_user",
          "set_config",
          "setseed",
          "setval",
          "statement_timestamp",
          "timeofday",
          "to_char",
          "to_date",
          "to_json",
          "to_jsonb",
          "to_number",
          "to_regclass",
          "to_regtype",
          "transaction_timestamp",
          "user",
          "version",
          "pg_backend_pid",
          "txid_current",
          "txid_current_if_assigned",
          "pg_sleep",
          "pg_notify",
          "pg_cancel_backend",
          "pg_terminate_backend",
      };
      for (const char* m : kMutable)
        if (n == m) return false;
      // Catalog lookups and session state are never immutable.
      if (n.rfind("pg_", 0) == 0 || n.rfind("kova.", 0) == 0) return false;
      return true;
    }
    default:
      return true;
  }
}

std::vector<ColumnInfo> TableColumns(const catalog::Table& table) {
  std::vector<ColumnInfo> out;
  for (const auto& c : table.columns) out.push_back({c.name, c.type, c.typmod});
  return out;
}

bool Analyze(SessionHooks* hooks, std::vector<ColumnInfo> columns, bool fixed,
             const PgQuery__Node* node, IndexExpression* out, PgError* error,
             bool index_rules = true) {
  IndexColumnsScope scope(std::move(columns), fixed, out, index_rules);
  Analyzer analyzer(hooks, nullptr);
  analyzer.set_scope(&scope);
  if (!analyzer.Analyze(node, &out->expr, error)) return false;
  if (!index_rules) return true;
  if (out->expr->type == oid::kUnknown &&
      !analyzer.Coerce(&out->expr, oid::kText, -1, error))
    return false;
  if (!Immutable(*out->expr)) {
    *error = Err("42P17",
                 "functions in index expression must be marked "
                 "IMMUTABLE");
    return false;
  }
  if (user_types::IsUserOid(out->expr->type) || out->expr->domain) {
    *error = Err("0A000", "index expressions of type " +
                              user_types::FormatName(out->expr->domain
                                                         ? out->expr->domain
                                                         : out->expr->type) +
                              " are not supported yet");
    return false;
  }
  return true;
}

// ---- the program kova_index_key evaluates ---------------------------------
// "1;<n>;" then per parameter "<len>:<name>,<type>,<typmod>;", then the
// expression's text. Stored in the SQLite schema: the format is fixed.

std::string EncodeProgram(const IndexExpression& e, const std::string& text) {
  std::string p = "1;" + std::to_string(e.names.size()) + ";";
  for (size_t i = 0; i < e.names.size(); i++)
    p += std::to_string(e.names[i].size()) + ":" + e.names[i] + "," +
         std::to_string(e.types[i]) + "," + std::to_string(e.typmods[i]) + ";";
  return p + text;
}

bool ReadNumber(std::string_view* s, char end, int64_t* out) {
  size_t at = s->find(end);
  if (at == std::string_view::npos || at == 0) return false;
  try {
    *out = std::stoll(std::string(s->substr(0, at)));
  } catch (...) {
    return false;
  }
  s->remove_prefix(at + 1);
  return true;
}

bool DecodeProgram(std::string_view p, std::vector<ColumnInfo>* columns,
                   std::string* text) {
  int64_t version, n;
  if (!ReadNumber(&p, ';', &version) || version != 1 ||
      !ReadNumber(&p, ';', &n) || n < 0)
    return false;
  for (int64_t i = 0; i < n; i++) {
    int64_t len, type, typmod;
    if (!ReadNumber(&p, ':', &len) || len < 0 ||
        p.size() < static_cast<size_t>(len) + 1)
      return false;
    std::string name(p.substr(0, len));
    p.remove_prefix(len);
    if (p.empty() || p[0] != ',') return false;
    p.remove_prefix(1);
    if (!ReadNumber(&p, ',', &type) || !ReadNumber(&p, ';', &typmod))
      return false;
    columns->push_back(
        {name, static_cast<uint32_t>(type), static_cast<int32_t>(typmod)});
  }
  *text = std::string(p);
  return true;
}

// What expression evaluation needs from a session, outside any: fixed
// settings (an immutable expression does not read them) and no session
// state.
class DetachedHooks : public SessionHooks {
 public:
  const types::TypeContext& type_context() override { return context_; }
  std::string CurrentUser() override { return ""; }
  std::string CurrentDatabase() override { return ""; }
  std::string ServerVersion() override { return ""; }
  int BackendPid() override { return 0; }
  int64_t TransactionStartMicros() override { return 0; }
  int64_t StatementStartMicros() override { return 0; }
  bool GetSetting(const std::string& name, bool, Value*,
                  PgError* error) override {
    *error = Err("0A000", "setting \"" + name + "\" read in an index key");
    return false;
  }
  bool SetSetting(const std::string& name, const Value&, bool, std::string*,
                  PgError* error) override {
    *error = Err("0A000", "setting \"" + name + "\" changed in an index key");
    return false;
  }
  bool Sleep(double, PgError* error) override {
    *error = Err("0A000", "pg_sleep in an index key");
    return false;
  }
  bool CallSessionFunction(const std::string& name, const std::vector<Value>&,
                           Value*, PgError* error) override {
    *error = Err("0A000", "function " + name + " in an index key");
    return false;
  }

 private:
  types::TypeContext context_;
};

struct CompiledKey {
  std::unique_ptr<sql::ParseTree> tree;
  IndexExpression e;
  std::vector<ColumnInfo> columns;
};

// Per connection (its user data): programs compiled once.
struct KeyCache {
  DetachedHooks hooks;
  std::unordered_map<std::string, std::unique_ptr<CompiledKey>> programs;
};

// Errors reach the statement that wrote the row as "kova:SQLSTATE: message"
// (StorageError reads the SQLSTATE back).
void KeyError(sqlite3_context* ctx, const PgError& error) {
  std::string m = "kova:" + error.sqlstate + ": " + error.message;
  sqlite3_result_error(ctx, m.c_str(), static_cast<int>(m.size()));
}

}  // namespace

bool IsImmutableExpr(const Expr& e) { return Immutable(e); }

bool IndexKeyError(std::string_view message, PgError* out) {
  size_t at = message.find("kova:");
  if (at == std::string_view::npos || message.size() < at + 12 ||
      message.substr(at + 10, 2) != ": ")
    return false;
  *out = Err(std::string(message.substr(at + 5, 5)).c_str(),
             std::string(message.substr(at + 12)));
  return true;
}

namespace {

const CompiledKey* Compile(KeyCache* cache, const std::string& program,
                           PgError* error) {
  auto it = cache->programs.find(program);
  if (it != cache->programs.end()) return it->second.get();
  auto key = std::make_unique<CompiledKey>();
  std::string text;
  if (!DecodeProgram(program, &key->columns, &text)) {
    *error = Err("XX000", "unreadable index expression program");
    return nullptr;
  }
  const PgQuery__Node* node;
  std::string syntax = alter_detail::ParseExpression(text, &key->tree, &node);
  if (!node) {
    *error = Err("XX000", "unreadable index expression: " + syntax);
    return nullptr;
  }
  if (!Analyze(&cache->hooks, key->columns, true, node, &key->e, error))
    return nullptr;
  for (const auto& c : key->columns) {
    key->e.names.push_back(c.name);
    key->e.types.push_back(c.type);
    key->e.typmods.push_back(c.typmod);
  }
  return (cache->programs[program] = std::move(key)).get();
}

void IndexKeyFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* cache = static_cast<KeyCache*>(sqlite3_user_data(ctx));
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB ||
      sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
    sqlite3_result_null(ctx);
    return;
  }
  std::string program(
      reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
      sqlite3_value_bytes(argv[1]));
  PgError error;
  const CompiledKey* key = Compile(cache, program, &error);
  if (!key) return KeyError(ctx, error);
  bson_t doc;
  if (!bson_init_static(
          &doc, static_cast<const uint8_t*>(sqlite3_value_blob(argv[0])),
          sqlite3_value_bytes(argv[0]))) {
    sqlite3_result_null(ctx);
    return;
  }
  const types::TypeContext& context = cache->hooks.type_context();
  std::vector<Value> params(key->columns.size());
  for (size_t i = 0; i < key->columns.size(); i++) {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, &doc, key->columns[i].name.c_str()) ||
        BSON_ITER_HOLDS_NULL(&it))
      continue;
    if (!FromSValue(key->e.types[i], SValueFromBson(&it, key->e.types[i]),
                    context, &params[i], &error))
      return KeyError(ctx, error);
  }
  Value out;
  if (!Evaluate(*key->e.expr, params, &cache->hooks, &out, &error))
    return KeyError(ctx, error);
  SValue sv;
  if (!ToSValue(key->e.expr->type, out, context, &sv, &error))
    return KeyError(ctx, error);
  ResultSValue(ctx, sv);
}

// ---- display: PostgreSQL's ruleutils over the analysed tree -------------

struct Deparser {
  const IndexExpression& e;
  bool pretty;
  bool ok = true;
  bool in_lists = false;  // the text had IN lists (see ArrayComparison)
  // The session's settings, for constants whose text depends on them
  // (analysis wrote them under the default settings).
  const types::TypeContext* display = nullptr;
  // The session's schemas, for user type names (null: unqualified).
  const std::vector<std::string>* search_path = nullptr;

  static bool StringType(uint32_t t) {
    return t == oid::kVarchar || t == oid::kBpchar;
  }
  static bool SimpleBinary(const Expr& x, const char** op) {
    if (x.kind != Expr::Kind::kOperator || x.args.size() != 2) return false;
    *op = x.name.c_str();
    return true;
  }
  // isSimpleNode: whether `x` under `parent` needs no parentheses (pretty).
  static bool Simple(const Expr& x, const Expr* parent) {
    switch (x.kind) {
      case Expr::Kind::kParam:
      case Expr::Kind::kConst:
      case Expr::Kind::kFunction:
      case Expr::Kind::kCoalesce:
      case Expr::Kind::kMinMax:
      case Expr::Kind::kNullIf:
      case Expr::Kind::kCase:
        return true;
      case Expr::Kind::kCast:
        return !x.args.empty() && Simple(*x.args[0], &x);
      case Expr::Kind::kOperator:
      case Expr::Kind::kIsNull:
      case Expr::Kind::kIsNotNull:
      case Expr::Kind::kBoolTest:
      case Expr::Kind::kDistinct: {
        const char* op;
        const char* parent_op;
        if (x.kind == Expr::Kind::kOperator && parent &&
            parent->kind == Expr::Kind::kOperator) {
          if (!SimpleBinary(x, &op) || !SimpleBinary(*parent, &parent_op) ||
              strlen(op) != 1 || strlen(parent_op) != 1)
            return false;
          bool lo = strchr("+-", *op), hi = strchr("*/%", *op);
          bool plo = strchr("+-", *parent_op), phi = strchr("*/%", *parent_op);
          if (!(lo || hi) || !(plo || phi)) return false;
          if (hi && plo) return true;
          if (lo && phi) return false;
          return parent->args[0].get() == &x;
        }
        if (!parent) return false;
        switch (parent->kind) {
          case Expr::Kind::kFunction:
          case Expr::Kind::kAnd:
          case Expr::Kind::kOr:
          case Expr::Kind::kNot:
          case Expr::Kind::kCoalesce:
          case Expr::Kind::kNullIf:
          case Expr::Kind::kCase:
            return true;
          default:
            return false;
        }
      }
      case Expr::Kind::kAnd:
      case Expr::Kind::kOr:
      case Expr::Kind::kNot:
        if (!parent) return false;
        switch (parent->kind) {
          case Expr::Kind::kAnd:
          case Expr::Kind::kOr:
            return x.kind != Expr::Kind::kOr || parent->kind == Expr::Kind::kOr;
          case Expr::Kind::kFunction:
          case Expr::Kind::kCoalesce:
          case Expr::Kind::kNullIf:
          case Expr::Kind::kCase:
            return true;
          default:
            return false;
        }
      default:
        return false;
    }
  }

  std::string TypeLabel(uint32_t type, int32_t typmod) const {
    if (type == oid::kBpchar && typmod < 0) return "bpchar";
    // A user type is qualified unless its schema is on the search path, as
    // format_type does (pg_dump's empty search path qualifies them all).
    if (user_types::IsUserOid(type) && search_path) {
      if (const catalog::UserType* t = user_types::Find(type)) {
        bool visible = std::find(search_path->begin(), search_path->end(),
                                 t->schema) != search_path->end();
        return visible ? QuoteIdentifier(t->name)
                       : QuoteQualified(t->schema, t->name);
      }
    }
    return types::FormatTypeName(type, typmod);
  }
  static std::string Quote(const std::string& v) {
    std::string out;
    bool backslash = v.find('\\') != std::string::npos;
    out += backslash ? "E'" : "'";
    for (char c : v) {
      if (c == '\'' || c == '\\') out.push_back(c);
      out.push_back(c);
    }
    return out + "'";
  }
  static bool IntegerText(const std::string& v) {
    if (v.empty()) return false;
    for (char c : v)
      if (c < '0' || c > '9') return false;
    return v.size() < 10 || (v.size() == 10 && v <= "2147483647");
  }
  // get_const_expr. Kova folds a cast of a literal into the constant, where
  // PostgreSQL keeps the cast of an integer or decimal literal: shown as
  // (2)::numeric, as PostgreSQL shows x * 2 over numeric x.
  std::string Const(const Expr& x) {
    if (!x.value) return "NULL";
    std::string v = *x.value;
    if (display && SettingDependentText(x.type)) {
      Value rewritten;
      PgError ignored;
      if (Rewrite(x.type, v, types::TypeContext{}, *display, &rewritten,
                  &ignored) &&
          rewritten)
        v = *rewritten;
    }
    auto cast_of_literal = [&](const std::string& lit) {
      return (pretty ? lit : "(" + lit + ")") +
             "::" + TypeLabel(x.type, x.typmod);
    };
    switch (x.type) {
      case oid::kBool:
        return v == "t" ? "true" : "false";
      case oid::kUnknown:
        return Quote(v);
      case oid::kInt4:
        return v[0] == '-' ? Quote(v) + "::integer" : v;
      case oid::kInt2:
      case oid::kInt8:
        if (IntegerText(v))
          return x.type == oid::kInt8 ? v : cast_of_literal(v);
        return Quote(v) + "::" + TypeLabel(x.type, -1);
      case oid::kNumeric:
        if (v[0] >= '0' && v[0] <= '9') {
          if (v.find_first_of(".eE") != std::string::npos)
            return x.typmod >= 0 ? v + "::" + TypeLabel(x.type, x.typmod) : v;
          return cast_of_literal(v);
        }
        return Quote(v) + "::numeric";
      case oid::kFloat4:
      case oid::kFloat8:
        if (v[0] >= '0' && v[0] <= '9' &&
            v.find_first_of("ae") == std::string::npos)
          return cast_of_literal(v);
        return Quote(v) + "::" + TypeLabel(x.type, -1);
      default:
        return Quote(v) + "::" + TypeLabel(x.type, x.typmod);
    }
  }
  // An argument of a function or operator: implicit casts shown, so a
  // varchar reaching a text parameter reads (email)::text.
  std::string Arg(const Expr& x, const Expr& parent, bool text_param = true) {
    // A varchar literal beside a varchar: both sides are text to PostgreSQL.
    if (text_param && x.kind == Expr::Kind::kConst && x.value &&
        x.type == oid::kVarchar)
      return Quote(*x.value) + "::text";
    if (text_param && StringType(x.type) && x.kind != Expr::Kind::kConst) {
      std::string inner = Paren(x, nullptr);
      return (pretty ? inner : "(" + inner + ")") + "::text";
    }
    return Paren(x, &parent);
  }
  std::string Paren(const Expr& x, const Expr* parent) {
    std::string s = Text(x, true);
    if (pretty && parent && !Simple(x, parent)) return "(" + s + ")";
    if (pretty && !parent && x.kind != Expr::Kind::kParam &&
        x.kind != Expr::Kind::kConst && x.kind != Expr::Kind::kFunction)
      return "(" + s + ")";
    return s;
  }
  // x IN (a, b) / x NOT IN (a, b), which Kova analyses into ORs of = /
  // ANDs of <>, as PostgreSQL shows them: x = ANY (ARRAY[a, b]).
  bool ArrayComparison(const Expr& x, std::string* out) {
    const char* op = x.kind == Expr::Kind::kOr ? "=" : "<>";
    if (x.args.size() < 2) return false;
    std::string lhs, elems;
    // A varchar operand: PostgreSQL compares as text, the list cast whole
    // (ARRAY['x'::character varying])::text[].
    bool varchar = false;
    for (size_t i = 0; i < x.args.size(); i++) {
      const Expr& c = *x.args[i];
      if (c.kind != Expr::Kind::kOperator || c.name != op || c.args.size() != 2)
        return false;
      const Expr& left_expr = *c.args[0];
      bool left_varchar =
          left_expr.type == oid::kVarchar ||
          (left_expr.kind == Expr::Kind::kCast && !left_expr.args.empty() &&
           left_expr.args[0]->type == oid::kVarchar);
      if (i && left_varchar != varchar) return false;
      varchar = left_varchar;
      bool bpchar =
          left_expr.type == oid::kBpchar && c.args[1]->type == oid::kBpchar;
      std::string left = Arg(left_expr, c, !bpchar);
      if (i && left != lhs) return false;
      lhs = left;
      const Expr& right = *c.args[1];
      if (varchar) {
        if (right.kind != Expr::Kind::kConst || !right.value) return false;
        elems += (i ? ", " : "") + Quote(*right.value) + "::character varying";
      } else {
        elems += (i ? ", " : "") + Text(right, true);
      }
    }
    std::string array = "ARRAY[" + elems + "]";
    if (varchar) array = (pretty ? array : "(" + array + ")") + "::text[]";
    *out = Open() + lhs + " " + op +
           (x.kind == Expr::Kind::kOr ? " ANY" : " ALL") + " (" + array + ")" +
           Close();
    return true;
  }
  std::string Open() { return pretty ? "" : "("; }
  std::string Close() { return pretty ? "" : ")"; }

  std::string Text(const Expr& x, bool showimplicit) {
    (void)showimplicit;
    switch (x.kind) {
      case Expr::Kind::kParam:
        if (x.param < 0 || x.param >= static_cast<int>(e.names.size())) break;
        return QuoteIdentifier(e.names[x.param]);
      case Expr::Kind::kConst:
        return Const(x);
      case Expr::Kind::kCast: {
        if (x.args.empty()) break;
        const Expr& a = *x.args[0];
        std::string label = TypeLabel(x.type, x.typmod);
        if (a.kind == Expr::Kind::kConst && a.type == oid::kUnknown && a.value)
          return Quote(*a.value) + "::" + label;
        return Open() + Paren(a, &x) + Close() + "::" + label;
      }
      case Expr::Kind::kOperator: {
        if (x.args.size() == 2) {
          bool comparison = x.name == "=" || x.name == "<>" || x.name == "<" ||
                            x.name == "<=" || x.name == ">" || x.name == ">=";
          // char(n) compares as bpchar: no cast to text.
          bool bpchar = comparison && x.args[0]->type == oid::kBpchar &&
                        x.args[1]->type == oid::kBpchar;
          std::string op = x.name;
          return Open() + Arg(*x.args[0], x, !bpchar) + " " + op + " " +
                 Arg(*x.args[1], x, !bpchar) + Close();
        }
        if (x.args.size() == 1)
          return Open() + x.name + " " + Arg(*x.args[0], x) + Close();
        break;
      }
      case Expr::Kind::kFunction: {
        if (x.name.empty() || x.name.rfind("kova", 0) == 0 ||
            x.name.find('.') != std::string::npos)
          break;
        bool keeps_bpchar = x.name == "length" || x.name == "char_length" ||
                            x.name == "octet_length" ||
                            x.name == "character_length";
        std::string s = QuoteIdentifier(x.name) + "(";
        for (size_t i = 0; i < x.args.size(); i++) {
          bool text_param = !(keeps_bpchar && x.args[i]->type == oid::kBpchar);
          s += (i ? ", " : "") + ArgInCall(*x.args[i], text_param);
        }
        return s + ")";
      }
      case Expr::Kind::kCoalesce: {
        std::string s = "COALESCE(";
        for (size_t i = 0; i < x.args.size(); i++)
          s += (i ? ", " : "") + Text(*x.args[i], true);
        return s + ")";
      }
      case Expr::Kind::kAnd:
      case Expr::Kind::kOr: {
        std::string any;
        if (in_lists && ArrayComparison(x, &any)) return any;
        if (x.args.size() == 1) return Text(*x.args[0], showimplicit);
        std::string s = Open();
        for (size_t i = 0; i < x.args.size(); i++)
          s += (i ? (x.kind == Expr::Kind::kAnd ? " AND " : " OR ") : "") +
               Paren(*x.args[i], &x);
        return s + Close();
      }
      case Expr::Kind::kNot:
        if (x.args.size() != 1) break;
        return Open() + "NOT " + Paren(*x.args[0], &x) + Close();
      case Expr::Kind::kIsNull:
      case Expr::Kind::kIsNotNull:
        if (x.args.size() != 1) break;
        return Open() + Paren(*x.args[0], &x) +
               (x.kind == Expr::Kind::kIsNull ? " IS NULL" : " IS NOT NULL") +
               Close();
      case Expr::Kind::kBoolTest: {
        if (x.args.size() != 1) break;
        std::string test = x.name;
        for (auto& c : test) c = static_cast<char>(toupper(c));
        return Open() + Paren(*x.args[0], &x) + " IS " + test + Close();
      }
      default:
        break;
    }
    ok = false;
    return "";
  }
  // Function arguments: no parentheses of their own needed (pretty), casts
  // to text shown.
  std::string ArgInCall(const Expr& x, bool text_param) {
    if (text_param && StringType(x.type) && x.kind != Expr::Kind::kConst) {
      std::string inner = Text(x, true);
      if (pretty && x.kind != Expr::Kind::kParam &&
          x.kind != Expr::Kind::kFunction)
        inner = "(" + inner + ")";
      return (pretty ? inner : "(" + inner + ")") + "::text";
    }
    return Text(x, true);
  }
};

bool LooksLikeFunction(const Expr& x) {
  return (x.kind == Expr::Kind::kFunction && !x.name.empty()) ||
         x.kind == Expr::Kind::kCoalesce || x.kind == Expr::Kind::kNullIf ||
         x.kind == Expr::Kind::kMinMax;
}

}  // namespace

bool AnalyzeIndexExpression(SessionHooks* hooks, const catalog::Table& table,
                            const PgQuery__Node* node, IndexExpression* out,
                            std::string* column, PgError* error) {
  column->clear();
  if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
    const PgQuery__ColumnRef* ref = node->column_ref;
    if (ref->n_fields == 1 &&
        ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
      *column = Str(ref->fields[0]);
      if (!table.FindColumn(*column)) {
        *error = Err("42703", "column \"" + *column + "\" does not exist",
                     ref->location);
        return false;
      }
      return true;
    }
  }
  return Analyze(hooks, TableColumns(table), false, node, out, error);
}

namespace {

// A stored expression's text analysed over `table`'s columns.
bool AnalyzeText(SessionHooks* hooks, const catalog::Table& table,
                 const std::string& text, IndexExpression* out, PgError* error,
                 bool index_rules) {
  std::unique_ptr<sql::ParseTree> tree;
  const PgQuery__Node* node;
  std::string syntax = alter_detail::ParseExpression(text, &tree, &node);
  if (!node) {
    *error = Err("XX000", "unreadable index expression: " + syntax);
    return false;
  }
  return Analyze(hooks, TableColumns(table), false, node, out, error,
                 index_rules);
}

}  // namespace

bool AnalyzeIndexExpressionText(SessionHooks* hooks,
                                const catalog::Table& table,
                                const std::string& text, IndexExpression* out,
                                PgError* error) {
  return AnalyzeText(hooks, table, text, out, error, /*index_rules=*/true);
}

std::string IndexKeySql(const IndexExpression& e, const std::string& text,
                        const std::string& doc) {
  std::string sql = "kova_index_key(" + doc + ", " +
                    SqlQuoteLiteral(EncodeProgram(e, text)) + ")";
  const char* collation = CollationOf(e.expr->type);
  if (*collation) sql += " COLLATE " + std::string(collation);
  return sql;
}

std::string IndexColumnText(const IndexExpression& e, const std::string& text,
                            bool pretty) {
  Deparser d{e, pretty};
  std::string s = d.Text(*e.expr, false);
  if (!d.ok) return "(" + text + ")";
  return LooksLikeFunction(*e.expr) ? s : "(" + s + ")";
}

std::string IndexColumnText(const catalog::Table& table,
                            const std::string& text, bool pretty) {
  IndexExpression e;
  PgError ignored;
  DetachedHooks hooks;
  if (!AnalyzeIndexExpressionText(&hooks, table, text, &e, &ignored))
    return "(" + text + ")";
  return IndexColumnText(e, text, pretty);
}

std::string CheckExpressionText(const catalog::Table& table,
                                const std::string& text, bool pretty,
                                const types::TypeContext& context,
                                const std::vector<std::string>& search_path) {
  DetachedHooks hooks;
  IndexExpression e;
  PgError ignored;
  if (!AnalyzeText(&hooks, table, text, &e, &ignored, /*index_rules=*/false))
    return "";
  Deparser d{e, pretty};
  d.in_lists = text.find(" IN (") != std::string::npos;
  d.display = &context;
  d.search_path = &search_path;
  std::string s = d.Text(*e.expr, false);
  return d.ok ? s : "";
}

std::string IndexExpressionName(const PgQuery__Node* node) {
  std::string name = Analyzer::ColumnName(node);
  return name == "?column?" ? "expr" : name;
}

bool EvaluateIndexExpression(const IndexExpression& e,
                             const catalog::Table& table,
                             const std::vector<Value>& row, SessionHooks* hooks,
                             Value* out, PgError* error) {
  std::vector<Value> params;
  for (const auto& name : e.names) {
    int c = table.ColumnIndex(name);
    params.push_back(c >= 0 && c < static_cast<int>(row.size()) ? row[c]
                                                                : Value());
  }
  return Evaluate(*e.expr, params, hooks, out, error);
}

std::string ExpressionKeyLabel(size_t i, const IndexExpression& e,
                               const std::string& text) {
  return "$" + std::to_string(i) + ":" +
         IndexColumnText(e, text, /*pretty=*/true);
}

bool StorageIndexSpec(SessionHooks* hooks, const catalog::Table& table,
                      const catalog::Index& x, docstore::IndexSpec* spec,
                      PgError* error) {
  spec->name = x.name;
  spec->unique = x.unique;
  spec->nulls_distinct = !x.nulls_not_distinct;
  spec->keys.clear();
  spec->expressions.clear();
  for (size_t i = 0; i < x.columns.size(); i++) {
    int16_t option = i < x.options.size() ? x.options[i] : 0;
    int dir = option & catalog::kIndexDesc ? -1 : 1;
    if (x.expression(i).empty()) {
      spec->keys.emplace_back(x.columns[i], dir);
      continue;
    }
    IndexExpression e;
    if (!AnalyzeIndexExpressionText(hooks, table, x.expression(i), &e, error))
      return false;
    spec->expressions.resize(i);
    spec->expressions.push_back(IndexKeySql(e, x.expression(i)));
    spec->keys.emplace_back(ExpressionKeyLabel(i, e, x.expression(i)), dir);
  }
  spec->where.clear();
  if (!x.predicate.empty()) {
    IndexExpression e;
    if (!AnalyzeIndexExpressionText(hooks, table, x.predicate, &e, error))
      return false;
    spec->where = IndexPredicateSql(e, x.predicate);
  }
  return true;
}

std::string IndexPredicateSql(const IndexExpression& e,
                              const std::string& text) {
  // kova_index_key gives a boolean as 1 or 0: the rows where it is true.
  return "(" + IndexKeySql(e, text) + " = 1)";
}

bool IndexExpressionType(const catalog::Table& table, const std::string& text,
                         uint32_t* type, int32_t* typmod) {
  IndexExpression e;
  PgError ignored;
  DetachedHooks hooks;
  if (!AnalyzeIndexExpressionText(&hooks, table, text, &e, &ignored))
    return false;
  *type = e.expr->type;
  *typmod = e.expr->typmod;
  return true;
}

std::vector<std::string> IndexColumnNames(const catalog::Index& x) {
  std::vector<std::string> names;
  for (size_t i = 0; i < x.columns.size(); i++) {
    std::string name = x.expression(i).empty()
                           ? x.columns[i]
                           : IndexExpressionNameOfText(x.expression(i));
    std::string unique = name;
    for (int n = 1;
         std::find(names.begin(), names.end(), unique) != names.end(); n++)
      unique = name + std::to_string(n);
    names.push_back(unique);
  }
  return names;
}

std::string IndexExpressionNameOfText(const std::string& text) {
  std::unique_ptr<sql::ParseTree> tree;
  const PgQuery__Node* node;
  alter_detail::ParseExpression(text, &tree, &node);
  return node ? IndexExpressionName(node) : "expr";
}

bool IndexExpressionUses(const std::string& text, const std::string& column) {
  std::unique_ptr<sql::ParseTree> tree;
  const PgQuery__Node* node;
  alter_detail::ParseExpression(text, &tree, &node);
  if (!node) return false;
  bool uses = false;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return;
        const PgQuery__ColumnRef* ref = n->column_ref;
        if (ref->n_fields > 0 && Str(ref->fields[ref->n_fields - 1]) == column)
          uses = true;
      });
  return uses;
}

int RegisterIndexKeyFunction(sqlite3* db) {
  return sqlite3_create_function_v2(
      db, "kova_index_key", 2,
      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, new KeyCache,
      IndexKeyFunction, nullptr, nullptr,
      [](void* p) { delete static_cast<KeyCache*>(p); });
}

}  // namespace kova::planner
