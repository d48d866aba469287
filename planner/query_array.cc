// Arrays in statements over tables: unnest and generate_subscripts in FROM
// and in a SELECT list, ARRAY(subquery), and the SQLite functions
// they compile to. Set-returning calls become SQLite's json_each over a
// JSON list of rows, which (unlike a subquery) may refer to the tables
// before it in FROM, as LATERAL does.
#include "planner/expr_internal.h"
#include "planner/query.h"
#include "planner/types_array.h"
#include "sql/sql.h"

namespace kova::planner {
using namespace expr_detail;  // NOLINT: the helpers of this component

namespace {

void JsonString(const std::string& s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      out->append("\\u00");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

SqlRuntime* RuntimeOf(sqlite3_context* ctx) {
  return static_cast<SqlRuntime*>(sqlite3_user_data(ctx));
}

void Fail(sqlite3_context* ctx, const PgError& error) {
  RuntimeOf(ctx)->SetError(error);
  sqlite3_result_error(ctx, "kova: statement failed", -1);
}

std::string ValueText(sqlite3_value* v) {
  return std::string(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                     sqlite3_value_bytes(v));
}

bool ParseStored(uint32_t type, sqlite3_value* v, types::ArrayValue* out,
                 PgError* error) {
  *out = types::ArrayValue{};
  if (sqlite3_value_type(v) == SQLITE_NULL) return true;
  std::string text(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                   sqlite3_value_bytes(v));
  return types::ParseArray(text, types::ArrayElementType(type), -1,
                           ArrayStorageContext(), false, out, error);
}

// The rows of set-returning calls run in lockstep, as a JSON list of lists
// of element texts (the shorter columns padded with nulls).
void ResultRows(
    sqlite3_context* ctx,
    const std::vector<std::vector<std::optional<std::string>>>& cols) {
  size_t rows = 0;
  for (const auto& c : cols) rows = std::max(rows, c.size());
  std::string json = "[";
  for (size_t r = 0; r < rows; r++) {
    json += r ? ",[" : "[";
    for (size_t k = 0; k < cols.size(); k++) {
      if (k) json += ",";
      if (r < cols[k].size() && cols[k][r])
        JsonString(*cols[k][r], &json);
      else
        json += "null";
    }
    json += "]";
  }
  json += "]";
  sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()),
                      SQLITE_TRANSIENT);
}

// The subscripts of dimension `dim` of an array, lowest first unless
// reversed; none when the array has no such dimension.
std::vector<std::optional<std::string>> SubscriptTexts(
    const types::ArrayValue& v, sqlite3_value* dim_arg, bool reverse) {
  std::vector<std::optional<std::string>> out;
  int64_t dim = sqlite3_value_int64(dim_arg);
  if (sqlite3_value_type(dim_arg) == SQLITE_NULL || dim < 1 ||
      dim > static_cast<int64_t>(v.dims.size()))
    return out;
  int64_t lb = v.lbounds[dim - 1], ub = lb + v.dims[dim - 1] - 1;
  for (int64_t i = 0; i <= ub - lb; i++)
    out.push_back(std::to_string(reverse ? ub - i : lb + i));
  return out;
}

bool IsTrue(sqlite3_value* v) {
  return sqlite3_value_type(v) != SQLITE_NULL && sqlite3_value_int64(v) != 0;
}

// kova_array_rows(type1, array1, type2, array2, ...): the rows of
// unnest(array1, array2, ...).
void ArrayRows(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  std::vector<std::vector<std::optional<std::string>>> cols;
  PgError error;
  for (int i = 0; i + 1 < argc; i += 2) {
    uint32_t type = static_cast<uint32_t>(sqlite3_value_int64(argv[i]));
    types::ArrayValue v;
    if (!ParseStored(type, argv[i + 1], &v, &error)) return Fail(ctx, error);
    cols.push_back(std::move(v.items));
  }
  ResultRows(ctx, cols);
}

// kova_srf_rows(is_subscripts1, dim1, reverse1, type1, array1, ...): the
// rows of the set-returning calls of a select list, which PostgreSQL runs
// in lockstep: each is generate_subscripts(array, dim, reverse) or
// unnest(array).
void SelectListRows(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  std::vector<std::vector<std::optional<std::string>>> cols;
  PgError error;
  for (int i = 0; i + 4 < argc; i += 5) {
    if (sqlite3_value_int64(argv[i]) == 3) {
      // A json set-returning function: (3, name, document, 0, 0).
      cols.emplace_back();
      if (sqlite3_value_type(argv[i + 2]) == SQLITE_NULL) continue;
      std::vector<std::vector<std::optional<std::string>>> rows;
      if (!JsonSetRows(ValueText(argv[i + 1]), ValueText(argv[i + 2]), &rows,
                       &error))
        return Fail(ctx, error);
      if (!rows.empty()) cols.back() = std::move(rows[0]);
      continue;
    }
    if (sqlite3_value_int64(argv[i]) == 4) {
      // generate_series(start, stop, step) over timestamps: (4, start,
      // stop, step, type).
      cols.emplace_back();
      if (sqlite3_value_type(argv[i + 1]) == SQLITE_NULL ||
          sqlite3_value_type(argv[i + 2]) == SQLITE_NULL ||
          sqlite3_value_type(argv[i + 3]) == SQLITE_NULL)
        continue;
      std::vector<int64_t> values;
      bool tz = sqlite3_value_int64(argv[i + 4]) == oid::kTimestamptz;
      if (!TimestampSeries(tz, sqlite3_value_int64(argv[i + 1]),
                           sqlite3_value_int64(argv[i + 2]),
                           ValueText(argv[i + 3]), ArrayStorageContext(),
                           RuntimeOf(ctx)->hooks()->type_context(), &values,
                           &error))
        return Fail(ctx, error);
      for (int64_t v : values) cols.back().push_back(std::to_string(v));
      continue;
    }
    if (sqlite3_value_int64(argv[i]) == 2) {
      // generate_series(start, stop, step) over integers.
      cols.emplace_back();
      if (sqlite3_value_type(argv[i + 1]) == SQLITE_NULL ||
          sqlite3_value_type(argv[i + 2]) == SQLITE_NULL ||
          sqlite3_value_type(argv[i + 3]) == SQLITE_NULL)
        continue;
      int64_t v = sqlite3_value_int64(argv[i + 1]);
      int64_t stop = sqlite3_value_int64(argv[i + 2]);
      int64_t step = sqlite3_value_int64(argv[i + 3]);
      if (step == 0)
        return Fail(ctx, Err("22023", "step size cannot equal zero"));
      for (;;) {
        if (step > 0 ? v > stop : v < stop) break;
        cols.back().push_back(std::to_string(v));
        if (__builtin_add_overflow(v, step, &v)) break;
      }
      continue;
    }
    uint32_t type = static_cast<uint32_t>(sqlite3_value_int64(argv[i + 3]));
    types::ArrayValue v;
    if (!ParseStored(type, argv[i + 4], &v, &error)) return Fail(ctx, error);
    if (IsTrue(argv[i]))
      cols.push_back(SubscriptTexts(v, argv[i + 1], IsTrue(argv[i + 2])));
    else
      cols.push_back(std::move(v.items));
  }
  ResultRows(ctx, cols);
}

// kova_json_rows(name, document): the rows of a json set-returning
// function in FROM, as kova_array_rows gives them.
void JsonRows(sqlite3_context* ctx, int, sqlite3_value** argv) {
  std::vector<std::vector<std::optional<std::string>>> cols;
  PgError error;
  if (sqlite3_value_type(argv[1]) != SQLITE_NULL &&
      !JsonSetRows(ValueText(argv[0]), ValueText(argv[1]), &cols, &error))
    return Fail(ctx, error);
  ResultRows(ctx, cols);
}

// kova_array_elem(text, element type): an element's text (storage
// settings) in its SQLite form.
void ArrayElem(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  uint32_t type = static_cast<uint32_t>(sqlite3_value_int64(argv[1]));
  std::string text(reinterpret_cast<const char*>(sqlite3_value_text(argv[0])),
                   sqlite3_value_bytes(argv[0]));
  SValue sv;
  PgError error;
  if (!ToSValue(type, text, ArrayStorageContext(), &sv, &error))
    return Fail(ctx, error);
  ResultSValue(ctx, sv);
}

// kova_subscripts(type, array, dim, reverse): generate_subscripts in FROM
// as a JSON list.
void Subscripts(sqlite3_context* ctx, int, sqlite3_value** argv) {
  uint32_t type = static_cast<uint32_t>(sqlite3_value_int64(argv[0]));
  types::ArrayValue v;
  PgError error;
  if (!ParseStored(type, argv[1], &v, &error)) return Fail(ctx, error);
  std::string json = "[";
  auto subscripts = SubscriptTexts(v, argv[2], IsTrue(argv[3]));
  for (size_t i = 0; i < subscripts.size(); i++)
    json += (i ? "," : "") + *subscripts[i];
  json += "]";
  sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()),
                      SQLITE_TRANSIENT);
}

// kova_array_get(doc, field, array type): an array column of a document as
// its text (storage settings); NULL when null or missing.
void ArrayGet(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    sqlite3_result_null(ctx);
    return;
  }
  const auto* data = static_cast<const uint8_t*>(sqlite3_value_blob(argv[0]));
  int len = sqlite3_value_bytes(argv[0]);
  std::string_view field(
      reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
      sqlite3_value_bytes(argv[1]));
  uint32_t type = static_cast<uint32_t>(sqlite3_value_int64(argv[2]));
  bson_t doc;
  bson_iter_t it;
  if (!data || !bson_init_static(&doc, data, len) ||
      !bson_iter_init(&it, &doc)) {
    sqlite3_result_null(ctx);
    return;
  }
  while (bson_iter_next(&it)) {
    if (field != bson_iter_key(&it)) continue;
    std::string text;
    if (ArrayTextFromBson(&it, type, &text))
      sqlite3_result_text(ctx, text.data(), static_cast<int>(text.size()),
                          SQLITE_TRANSIENT);
    else
      sqlite3_result_null(ctx);
    return;
  }
  sqlite3_result_null(ctx);
}

// The range entry of a function in FROM: named by its alias, else the
// function; `names` gets the alias's column names.
RangeEntry FunctionEntry(const PgQuery__RangeFunction* rf,
                         const std::string& name, const std::string& sql_alias,
                         std::vector<std::string>* names) {
  RangeEntry entry;
  entry.alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname : name;
  entry.relname = entry.alias;
  entry.sql_alias = sql_alias;
  if (rf->alias)
    for (size_t i = 0; i < rf->alias->n_colnames; i++)
      names->push_back(rf->alias->colnames[i]->string->sval);
  return entry;
}

}  // namespace

int RegisterArrayFunctions(sqlite3* db, SqlRuntime* runtime) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
  int rc = sqlite3_create_function(db, "kova_array_rows", -1, flags, runtime,
                                   ArrayRows, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_array_elem", 2, flags, runtime,
                                 ArrayElem, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_srf_rows", -1, flags, runtime,
                                 SelectListRows, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_subscripts", 4, flags, runtime,
                                 Subscripts, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_json_rows", 2, flags, runtime,
                                 JsonRows, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_array_get", 3,
                                 flags | SQLITE_INNOCUOUS, runtime, ArrayGet,
                                 nullptr, nullptr);
  return rc;
}

bool QueryCompiler::CheckSubscriptsArgs(
    std::vector<std::unique_ptr<Expr>>* args, int location, PgError* error) {
  auto& a = *args;
  bool ok =
      a.size() >= 2 && a.size() <= 3 && types::ArrayElementType(a[0]->type);
  if (ok && !analyzer_.Coerce(&a[1], oid::kInt4, -1, error)) return false;
  if (ok && a.size() == 3 && !analyzer_.Coerce(&a[2], oid::kBool, -1, error))
    return false;
  if (ok && IsInteger(a[1]->type) &&
      (a.size() == 2 || a[2]->type == oid::kBool))
    return true;
  *error = NoFunction("generate_subscripts", a, location);
  return false;
}

bool QueryCompiler::AddArrayFunctionItem(const PgQuery__RangeFunction* rf,
                                         const PgQuery__FuncCall* f,
                                         const std::string& name,
                                         std::string* sql, PgError* error) {
  if (rf->n_coldeflist > 0 || f->agg_star || f->n_agg_order > 0 || f->over) {
    *error =
        Err("0A000", "this form of " + name + "() in FROM is not supported yet",
            f->location);
    return false;
  }
  std::vector<std::unique_ptr<Expr>> args;
  const char* saved = aggregate_context_;
  aggregate_context_ = "functions in FROM";
  for (size_t i = 0; i < f->n_args; i++) {
    std::unique_ptr<Expr> e;
    if (!analyzer_.Analyze(f->args[i], &e, error)) {
      aggregate_context_ = saved;
      return false;
    }
    args.push_back(std::move(e));
  }
  aggregate_context_ = saved;
  std::string sql_alias = NewAlias();
  std::vector<std::string> names;
  RangeEntry entry = FunctionEntry(rf, name, sql_alias, &names);
  auto column_name = [&](size_t i, const std::string& fallback) {
    if (i < names.size()) return names[i];
    // A single column takes the alias's name, as PostgreSQL does.
    if (i == 0 && rf->alias && rf->alias->aliasname && names.empty() &&
        fallback != "ordinality")
      return std::string(rf->alias->aliasname);
    return fallback;
  };
  auto no_function = [&] {
    *error = NoFunction(name, args, f->location);
    return false;
  };
  size_t ncols = 0;
  if (name == "unnest") {
    if (args.empty()) return no_function();
    std::string call = "kova_array_rows(";
    for (size_t i = 0; i < args.size(); i++) {
      uint32_t element = types::ArrayElementType(args[i]->type);
      if (!element) {
        if (args[i]->type == oid::kUnknown && args.size() == 1) {
          *error = Err("42725", "function unnest(unknown) is not unique",
                       f->location);
          error->hint =
              "Could not choose a best candidate function. You might need "
              "to add explicit type casts.";
          return false;
        }
        return no_function();
      }
      call += (i ? ", " : "") + std::to_string(args[i]->type) + ", " +
              Emit(*args[i]);
      std::string col = "kova_array_elem(json_extract(" + sql_alias +
                        ".value, '$[" + std::to_string(i) + "]'), " +
                        std::to_string(element) + ")";
      const char* coll = CollationOf(element);
      if (*coll) col = "(" + col + " COLLATE " + coll + ")";
      entry.columns.push_back(
          {column_name(i, "unnest"), element, args[i]->typmod, col, 0});
    }
    ncols = args.size();
    *sql = "json_each(" + call + ")) AS " + sql_alias;
  } else {  // generate_subscripts(array, dim [, reverse])
    if (!CheckSubscriptsArgs(&args, f->location, error)) return false;
    *sql = "json_each(kova_subscripts(" + std::to_string(args[0]->type) + ", " +
           Emit(*args[0]) + ", " + Emit(*args[1]) + ", " +
           (args.size() == 3 ? Emit(*args[2]) : "0") + ")) AS " + sql_alias;
    entry.columns.push_back({column_name(0, "generate_subscripts"), oid::kInt4,
                             -1, sql_alias + ".value", 0});
    ncols = 1;
  }
  if (rf->ordinality)
    entry.columns.push_back({column_name(ncols, "ordinality"), oid::kInt8, -1,
                             "(" + sql_alias + ".key + 1)", 0});
  entries_.push_back(std::move(entry));
  return !emit_failed_ || (*error = emit_error_, false);
}

}  // namespace kova::planner

namespace kova::planner {

namespace {

// The set-returning functions a select list may call (PostgreSQL runs
// them in lockstep): unnest(array) and generate_subscripts.
bool IsSelectListSrf(const PgQuery__FuncCall* f) {
  std::string name = sql::JoinNames(f->funcname, f->n_funcname);
  if (name.rfind("pg_catalog.", 0) == 0) name = name.substr(11);
  return (name == "unnest" || name == "generate_subscripts" ||
          name == "generate_series" || name == "regexp_matches" ||
          name == "regexp_split_to_table" || name == "string_to_table" ||
          (IsJsonSetFunction(name) && !name.ends_with("each") &&
           !name.ends_with("each_text"))) &&
         !f->over;
}

// The set-returning calls of a select-list expression, outside subqueries.
void CollectSrfCalls(const PgQuery__Node* node,
                     std::vector<const PgQuery__FuncCall*>* out) {
  if (!node) return;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      if (IsSelectListSrf(node->func_call)) {
        out->push_back(node->func_call);
        return;
      }
      for (size_t i = 0; i < node->func_call->n_args; i++)
        CollectSrfCalls(node->func_call->args[i], out);
      return;
    case PG_QUERY__NODE__NODE_A_EXPR:
      CollectSrfCalls(node->a_expr->lexpr, out);
      CollectSrfCalls(node->a_expr->rexpr, out);
      return;
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      CollectSrfCalls(node->type_cast->arg, out);
      return;
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      CollectSrfCalls(node->a_indirection->arg, out);
      return;
    default:
      return;
  }
}

}  // namespace

bool QueryCompiler::ReplaceCall(const PgQuery__FuncCall* f,
                                std::unique_ptr<Expr>* out) {
  auto it = unnest_calls_.find(f);
  if (it == unnest_calls_.end()) return false;
  auto e = std::make_unique<Expr>();
  e->kind = it->second->kind;
  e->type = it->second->type;
  e->typmod = it->second->typmod;
  e->name = it->second->name;
  e->location = f->location;
  *out = std::move(e);
  return true;
}

bool QueryCompiler::JsonSetArg(const PgQuery__FuncCall* f,
                               const std::string& name,
                               std::unique_ptr<Expr>* doc, uint32_t* type,
                               PgError* error) {
  std::vector<std::unique_ptr<Expr>> args;
  for (size_t i = 0; i < f->n_args; i++) {
    args.emplace_back();
    if (!analyzer_.Analyze(f->args[i], &args.back(), error)) return false;
  }
  const uint32_t input = name.rfind("jsonb", 0) == 0 ? oid::kJsonb : oid::kJson;
  if (args.size() == 1 && args[0]->type == oid::kUnknown &&
      !analyzer_.Coerce(&args[0], input, -1, error))
    return false;
  if (args.size() != 1 || args[0]->type != input) {
    *error = NoFunction(name, args, f->location);
    return false;
  }
  *type = name.ends_with("_text") || name.ends_with("object_keys") ? oid::kText
                                                                   : input;
  *doc = std::move(args[0]);
  return true;
}

bool QueryCompiler::AddJsonFunctionItem(const PgQuery__RangeFunction* rf,
                                        const PgQuery__FuncCall* f,
                                        const std::string& name,
                                        std::string* sql, PgError* error) {
  if (rf->ordinality || rf->n_coldeflist > 0) {
    *error =
        Err("0A000", "this form of " + name + "() in FROM is not supported yet",
            f->location);
    return false;
  }
  std::unique_ptr<Expr> doc;
  uint32_t type;
  const char* saved = aggregate_context_;
  aggregate_context_ = "functions in FROM";
  bool ok = JsonSetArg(f, name, &doc, &type, error);
  aggregate_context_ = saved;
  if (!ok) return false;
  std::string sql_alias = NewAlias();
  std::vector<std::string> names;
  RangeEntry entry = FunctionEntry(rf, name, sql_alias, &names);
  auto cell = [&](int i) {
    return "json_extract(" + sql_alias + ".value, '$[" + std::to_string(i) +
           "]')";
  };
  if (name.ends_with("each") || name.ends_with("each_text")) {
    entry.columns.push_back(
        {names.size() > 0 ? names[0] : "key", oid::kText, -1, cell(0), 0});
    entry.columns.push_back(
        {names.size() > 1 ? names[1] : "value", type, -1, cell(1), 0});
  } else {
    // One column: named by the column alias, else "value" (the elements
    // functions' OUT parameter), else the table alias or the function's
    // name (object_keys, which has no OUT parameter).
    bool keys = name.ends_with("object_keys");
    std::string column = !names.empty() ? names[0]
                         : !keys        ? "value"
                         : rf->alias && rf->alias->aliasname
                             ? std::string(rf->alias->aliasname)
                             : name;
    entry.columns.push_back({column, type, -1, cell(0), 0});
    entry.scalar = true;
  }
  *sql = "json_each(kova_json_rows(" + SqlQuoteLiteral(name) + ", " +
         Emit(*doc) + ")) AS " + sql_alias;
  entries_.push_back(std::move(entry));
  return !emit_failed_ || (*error = emit_error_, false);
}

bool QueryCompiler::AddJsonRecordItem(const PgQuery__RangeFunction* rf,
                                      const PgQuery__FuncCall* f,
                                      const std::string& name, std::string* sql,
                                      PgError* error) {
  if (rf->n_coldeflist == 0) {
    *error = Err("42601",
                 "a column definition list is required for functions "
                 "returning \"record\"",
                 f->location);
    return false;
  }
  if (rf->ordinality) {
    *error =
        Err("0A000", name + "() WITH ORDINALITY in FROM is not supported yet",
            f->location);
    return false;
  }
  const uint32_t input = name.rfind("jsonb", 0) == 0 ? oid::kJsonb : oid::kJson;
  std::vector<std::unique_ptr<Expr>> args;
  const char* saved = aggregate_context_;
  aggregate_context_ = "functions in FROM";
  for (size_t i = 0; i < f->n_args; i++) {
    args.emplace_back();
    if (!analyzer_.Analyze(f->args[i], &args.back(), error)) {
      aggregate_context_ = saved;
      return false;
    }
  }
  aggregate_context_ = saved;
  if (args.size() == 1 && args[0]->type == oid::kUnknown &&
      !analyzer_.Coerce(&args[0], input, -1, error))
    return false;
  if (args.size() != 1 || args[0]->type != input) {
    *error = NoFunction(name, args, f->location);
    return false;
  }
  std::string sql_alias = NewAlias();
  std::vector<std::string> ignored;
  RangeEntry entry = FunctionEntry(rf, name, sql_alias, &ignored);
  // Each object's member of a column's name, converted as PostgreSQL's
  // populate_record does: a string's text, any other value's JSON text (a
  // json or jsonb column takes the JSON text of strings too).
  std::string value = sql_alias + ".value";
  for (size_t i = 0; i < rf->n_coldeflist; i++) {
    const PgQuery__ColumnDef* cd = rf->coldeflist[i]->column_def;
    uint32_t type;
    int32_t typmod;
    if (!ResolveTypeName(cd->type_name, &type, &typmod, error)) return false;
    std::string path = "'$.\"";
    for (char c : std::string(cd->colname)) {
      if (c == '"' || c == '\\') path += '\\';
      if (c == '\'') path += '\'';
      path += c;
    }
    path += "\"'";
    bool json = type == oid::kJson || type == oid::kJsonb;
    std::string text =
        "(CASE json_type(" + value + ", " + path + ") WHEN 'null' THEN NULL" +
        (json ? std::string()
              : " WHEN 'text' THEN json_extract(" + value + ", " + path + ")") +
        " ELSE (" + value + " -> " + path + ") END)";
    auto column = std::make_unique<Expr>();
    column->kind = Expr::Kind::kColumn;
    column->type = oid::kText;
    column->name = text;
    std::string column_sql = text;
    if (type != oid::kText || typmod >= 0) {
      auto cast = std::make_unique<Expr>();
      cast->kind = Expr::Kind::kCast;
      cast->type = type;
      cast->typmod = typmod;
      cast->location = f->location;
      cast->args.push_back(std::move(column));
      column_sql = Emit(*cast);
    }
    entry.columns.push_back({cd->colname, type, typmod, column_sql, 0});
  }
  bool set = name.ends_with("recordset");
  // One record: its object as the one element of an array, so that the
  // argument may read the FROM items before it, as for the recordset.
  *sql =
      set ? "json_each(" + Emit(*args[0]) + ") AS " + sql_alias
          : "json_each('[' || " + Emit(*args[0]) + " || ']') AS " + sql_alias;
  entries_.push_back(std::move(entry));
  return !emit_failed_ || (*error = emit_error_, false);
}

bool QueryCompiler::SelectListSeries(const PgQuery__FuncCall* f, size_t k,
                                     const std::string& column,
                                     std::string* call, Expr* col,
                                     PgError* error) {
  if (f->n_args < 2 || f->n_args > 3) {
    std::vector<std::unique_ptr<Expr>> args;
    for (size_t i = 0; i < f->n_args; i++) {
      args.emplace_back();
      if (!analyzer_.Analyze(f->args[i], &args.back(), error)) return false;
    }
    *error = NoFunction("generate_series", args, f->location);
    return false;
  }
  std::vector<std::unique_ptr<Expr>> args;
  uint32_t type;
  if (!AnalyzeSeriesArgs(f, &args, &type, error)) return false;
  bool timestamps = type == oid::kTimestamp || type == oid::kTimestamptz;
  *call += std::string(k ? ", " : "") + (timestamps ? "4, " : "2, ") +
           Emit(*args[0]) + ", " + Emit(*args[1]) + ", " +
           (args.size() == 3 ? Emit(*args[2]) : "1") + ", " +
           std::to_string(type);
  col->type = type;
  col->typmod = -1;
  col->name = "CAST(" + column + " AS INTEGER)";
  return true;
}

bool QueryCompiler::AddSelectListUnnest(const PgQuery__SelectStmt* s,
                                        std::string* from, PgError* error) {
  std::vector<const PgQuery__FuncCall*> calls;
  for (size_t i = 0; i < s->n_target_list; i++)
    CollectSrfCalls(s->target_list[i]->res_target->val, &calls);
  if (calls.empty()) return true;
  if (s->n_group_clause > 0 || s->having_clause) {
    *error = Err("0A000",
                 "set-returning functions in a SELECT list with GROUP BY or "
                 "HAVING are not supported yet");
    return false;
  }
  std::string sql_alias = NewAlias();
  std::string call = "kova_srf_rows(";
  for (size_t k = 0; k < calls.size(); k++) {
    const PgQuery__FuncCall* f = calls[k];
    std::string column =
        "json_extract(" + sql_alias + ".value, '$[" + std::to_string(k) + "]')";
    auto col = std::make_shared<Expr>();
    col->kind = Expr::Kind::kColumn;
    std::string fname = sql::JoinNames(f->funcname, f->n_funcname);
    if (fname.rfind("pg_catalog.", 0) == 0) fname = fname.substr(11);
    // regexp_matches / regexp_split_to_table / string_to_table: the rows
    // of a scalar call over the same arguments (a JSON array of text[]; a
    // text[]).
    std::unique_ptr<Expr> renamed;
    if (fname == "regexp_matches" || fname == "regexp_split_to_table" ||
        fname == "string_to_table") {
      PgQuery__String name = PG_QUERY__STRING__INIT;
      name.sval = const_cast<char*>(
          fname == "regexp_matches"    ? "kova_regexp_matches"
          : fname == "string_to_table" ? "string_to_array"
                                       : "regexp_split_to_array");
      PgQuery__Node name_node = PG_QUERY__NODE__INIT;
      name_node.node_case = PG_QUERY__NODE__NODE_STRING;
      name_node.string = &name;
      PgQuery__Node* names[] = {&name_node};
      PgQuery__FuncCall call_copy = *f;
      call_copy.funcname = names;
      call_copy.n_funcname = 1;
      PgQuery__Node node = PG_QUERY__NODE__INIT;
      node.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
      node.func_call = &call_copy;
      if (!analyzer_.Analyze(&node, &renamed, error)) {
        // Errors name the function the query called.
        size_t at = error->message.find(name.sval);
        if (at != std::string::npos)
          error->message.replace(at, strlen(name.sval), fname);
        return false;
      }
    }
    if (fname == "regexp_matches") {
      call += std::string(k ? ", " : "") + "3, 'json_array_elements_text', " +
              Emit(*renamed) + ", 0, 0";
      col->type = 1009;  // text[]
      col->typmod = -1;
      col->name = "(" + column + " COLLATE " + CollationOf(1009) + ")";
      unnest_calls_[f] = col;
      continue;
    }
    if (IsJsonSetFunction(fname)) {
      std::unique_ptr<Expr> doc;
      uint32_t type;
      if (!JsonSetArg(f, fname, &doc, &type, error)) return false;
      call += std::string(k ? ", " : "") + "3, " + SqlQuoteLiteral(fname) +
              ", " + Emit(*doc) + ", 0, 0";
      col->type = type;
      col->typmod = -1;
      col->name = column;
      unnest_calls_[f] = col;
      continue;
    }
    if (std::string_view(sql::JoinNames(f->funcname, f->n_funcname))
            .ends_with("generate_series")) {
      if (!SelectListSeries(f, k, column, &call, col.get(), error))
        return false;
      unnest_calls_[f] = col;
      continue;
    }
    if (std::string_view(sql::JoinNames(f->funcname, f->n_funcname))
            .ends_with("generate_subscripts")) {
      std::vector<std::unique_ptr<Expr>> args;
      for (size_t i = 0; i < f->n_args; i++) {
        args.emplace_back();
        if (!analyzer_.Analyze(f->args[i], &args.back(), error)) return false;
      }
      if (!CheckSubscriptsArgs(&args, f->location, error)) return false;
      call += (k ? ", 1, " : "1, ") + Emit(*args[1]) + ", " +
              (args.size() == 3 ? Emit(*args[2]) : "0") + ", " +
              std::to_string(args[0]->type) + ", " + Emit(*args[0]);
      col->type = oid::kInt4;
      col->typmod = -1;
      col->name = "CAST(" + column + " AS INTEGER)";
      unnest_calls_[f] = col;
      continue;
    }
    std::unique_ptr<Expr> arg = std::move(renamed);
    if (!arg && f->n_args == 1 && !analyzer_.Analyze(f->args[0], &arg, error))
      return false;
    uint32_t element = arg ? types::ArrayElementType(arg->type) : 0;
    if (!element) {
      std::string sig = arg ? TypeName(arg->type) : "";
      if (f->n_args > 1) sig = "...";
      PgError err = NoFunction("unnest", sig, f->location);
      if (arg && arg->type == oid::kUnknown) {
        err =
            Err("42725", "function unnest(unknown) is not unique", f->location);
        err.hint =
            "Could not choose a best candidate function. You might need to "
            "add explicit type casts.";
      }
      *error = err;
      return false;
    }
    call += (k ? ", " : "") + std::string("0, NULL, 0, ") +
            std::to_string(arg->type) + ", " + Emit(*arg);
    col->type = element;
    col->typmod = arg->typmod;
    col->name =
        "kova_array_elem(" + column + ", " + std::to_string(element) + ")";
    const char* coll = CollationOf(element);
    if (*coll) col->name = "(" + col->name + " COLLATE " + coll + ")";
    unnest_calls_[f] = col;
  }
  *from += (from->empty() ? "" : ", ") + std::string("json_each(") + call +
           ")) AS " + sql_alias;
  return !emit_failed_ || (*error = emit_error_, false);
}

}  // namespace kova::planner
