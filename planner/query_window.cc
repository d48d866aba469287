// Window functions: name(...) OVER (PARTITION BY ... ORDER BY ... frame)
// and WINDOW clauses, compiled to SQLite's own window functions with
// PostgreSQL's result types, NULL ordering and errors.
#include <cstdlib>

#include "planner/expr_internal.h"
#include "planner/query.h"

namespace kova::planner {
using namespace expr_detail;

namespace {

// PostgreSQL's frameOptions bits (nodes/parsenodes.h).
constexpr int kNonDefault = 0x1;
constexpr int kRange = 0x2;
constexpr int kRows = 0x4;
constexpr int kGroups = 0x8;
constexpr int kBetween = 0x10;
constexpr int kStartUnboundedPreceding = 0x20;
constexpr int kEndUnboundedFollowing = 0x100;
constexpr int kStartCurrentRow = 0x200;
constexpr int kEndCurrentRow = 0x400;
constexpr int kStartOffsetPreceding = 0x800;
constexpr int kEndOffsetPreceding = 0x1000;
constexpr int kStartOffsetFollowing = 0x2000;
constexpr int kEndOffsetFollowing = 0x4000;
constexpr int kExcludeCurrentRow = 0x8000;
constexpr int kExcludeGroup = 0x10000;
constexpr int kExcludeTies = 0x20000;
constexpr int kStartOffset = kStartOffsetPreceding | kStartOffsetFollowing;
constexpr int kEndOffset = kEndOffsetPreceding | kEndOffsetFollowing;

// Where the OVER clause's text holds key k: EmitWindow writes the key's SQL
// there when the statement is emitted (a query with grouping sets reads
// its keys from the sets' union).
constexpr char kKeyMarkStart = '\x01', kKeyMarkEnd = '\x02';

std::string KeyMark(size_t k) {
  return kKeyMarkStart + std::to_string(k) + kKeyMarkEnd;
}

// Marks window_context_ while a window function's arguments are analysed.
const char kNestedWindow[] = "window function calls";

// The aggregates that also run as window functions (not the json ones).
bool IsWindowAggregate(const std::string& n) {
  return n == "count" || n == "sum" || n == "avg" || n == "min" || n == "max" ||
         n == "bool_and" || n == "bool_or" || n == "every" ||
         n == "string_agg" || n == "array_agg" ||
         expr_detail::IsVarianceAggregate(n);
}

// A window's effective definition, after following references.
struct WindowSpec {
  const PgQuery__WindowDef* partition = nullptr;  // whose PARTITION BY
  const PgQuery__WindowDef* order = nullptr;      // whose ORDER BY
  const PgQuery__WindowDef* frame = nullptr;      // whose frame
};

bool FindWindow(const PgQuery__SelectStmt* s, const std::string& name,
                int location, const PgQuery__WindowDef** out, PgError* error) {
  for (size_t i = 0; s && i < s->n_window_clause; i++) {
    const PgQuery__WindowDef* w = s->window_clause[i]->window_def;
    if (w->name && name == w->name) {
      *out = w;
      return true;
    }
  }
  *error = Err("42704", "window \"" + name + "\" does not exist", location);
  return false;
}

// PostgreSQL's rules for a window defined over another
// (transformWindowDefinitions).
bool ResolveWindow(const PgQuery__SelectStmt* s, const PgQuery__WindowDef* def,
                   int depth, WindowSpec* spec, PgError* error) {
  if (depth > 100) {
    *error = Err("42P20", "window definitions reference each other");
    return false;
  }
  spec->partition = spec->order = spec->frame = def;
  if (!def->refname || !*def->refname) return true;
  const PgQuery__WindowDef* base;
  if (!FindWindow(s, def->refname, def->location, &base, error)) return false;
  WindowSpec ref;
  if (!ResolveWindow(s, base, depth + 1, &ref, error)) return false;
  std::string name = def->refname;
  if (def->n_partition_clause > 0) {
    *error =
        Err("42P20",
            "cannot override PARTITION BY clause of window \"" + name + "\"",
            def->location);
    return false;
  }
  spec->partition = ref.partition;
  if (ref.order->n_order_clause > 0) {
    if (def->n_order_clause > 0) {
      *error = Err("42P20",
                   "cannot override ORDER BY clause of window \"" + name + "\"",
                   def->location);
      return false;
    }
    spec->order = ref.order;
  }
  if (ref.frame->frame_options & kNonDefault) {
    *error =
        Err("42P20",
            "cannot copy window \"" + name + "\" because it has a frame clause",
            def->location);
    // OVER (name ...) can be OVER name instead.
    if (def->name && *def->name) return false;
    error->hint = "Omit the parentheses in this OVER clause.";
    return false;
  }
  return true;
}

}  // namespace

bool QueryCompiler::WindowFrameSql(const PgQuery__WindowDef* def,
                                   bool has_order, uint32_t order_type,
                                   std::string* sql, PgError* error) {
  int o = def->frame_options;
  if (!(o & kNonDefault)) return true;  // SQLite's default is PostgreSQL's
  std::string mode = o & kRows ? "ROWS" : o & kGroups ? "GROUPS" : "RANGE";
  bool offsets = o & (kStartOffset | kEndOffset);
  if ((o & kRange) && offsets) {
    if (!has_order) {
      *error = Err("42P20",
                   "RANGE with offset PRECEDING/FOLLOWING requires exactly "
                   "one ORDER BY column",
                   def->location);
      return false;
    }
    if (!IsInteger(order_type) && !IsFloat(order_type)) {
      *error = Err("0A000",
                   "RANGE with offset over type " + TypeName(order_type) +
                       " is not supported yet",
                   def->location);
      return false;
    }
  }
  if ((o & kGroups) && !has_order) {
    *error =
        Err("42P20", "GROUPS mode requires an ORDER BY clause", def->location);
    return false;
  }
  // Offsets must be constants here: SQLite takes only constants, and the
  // checks PostgreSQL makes at run time are made now.
  auto offset = [&](const PgQuery__Node* n, bool start, std::string* out) {
    std::unique_ptr<Expr> e;
    const char* saved = window_context_;
    window_context_ = "window definitions";
    bool ok = analyzer_.Analyze(n, &e, error);
    window_context_ = saved;
    if (!ok) return false;
    if (e->type == oid::kUnknown &&
        !analyzer_.Coerce(&e, (o & kRange) ? order_type : oid::kInt8, -1,
                          error))
      return false;
    if (e->kind != Expr::Kind::kConst || !IsNumber(e->type)) {
      *error = Err("0A000",
                   "window frame offsets other than numeric constants are not "
                   "supported yet",
                   e->location);
      return false;
    }
    const char* which = start ? "starting" : "ending";
    if (!e->value) {
      *error = Err("22004",
                   std::string("frame ") + which + " offset must not be null");
      return false;
    }
    double v = std::strtod(e->value->c_str(), nullptr);
    if (v < 0) {
      *error = (o & kRange) ? Err("22013",
                                  "invalid preceding or following size in "
                                  "window function")
                            : Err("22013", std::string("frame ") + which +
                                               " offset must not be negative");
      return false;
    }
    if (!(o & kRange) && !IsInteger(e->type)) {
      *error = Err("0A000",
                   "window frame offsets of type " + TypeName(e->type) +
                       " are not supported yet",
                   e->location);
      return false;
    }
    *out = *e->value;
    return true;
  };
  std::string start, end;
  if (o & kStartUnboundedPreceding) {
    start = "UNBOUNDED PRECEDING";
  } else if (o & kStartCurrentRow) {
    start = "CURRENT ROW";
  } else {
    if (!offset(def->start_offset, true, &start)) return false;
    start += o & kStartOffsetPreceding ? " PRECEDING" : " FOLLOWING";
  }
  if (!(o & kBetween) || (o & kEndCurrentRow)) {
    end = "CURRENT ROW";
  } else if (o & kEndUnboundedFollowing) {
    end = "UNBOUNDED FOLLOWING";
  } else {
    if (!offset(def->end_offset, false, &end)) return false;
    end += o & kEndOffsetPreceding ? " PRECEDING" : " FOLLOWING";
  }
  *sql = " " + mode + " BETWEEN " + start + " AND " + end;
  if (o & kExcludeCurrentRow) *sql += " EXCLUDE CURRENT ROW";
  if (o & kExcludeGroup) *sql += " EXCLUDE GROUP";
  if (o & kExcludeTies) *sql += " EXCLUDE TIES";
  return true;
}

bool QueryCompiler::WindowSql(const PgQuery__WindowDef* over, int location,
                              std::string* sql,
                              std::vector<std::unique_ptr<Expr>>* keys,
                              PgError* error) {
  const PgQuery__WindowDef* def = over;
  // OVER name: the WINDOW clause's definition.
  if (over->name && *over->name) {
    if (!FindWindow(select_, over->name, over->location, &def, error))
      return false;
  }
  WindowSpec spec;
  if (!ResolveWindow(select_, def, 0, &spec, error)) return false;
  const char* saved = window_context_;
  window_context_ = "window definitions";
  std::string partition, order;
  uint32_t order_type = 0;
  bool ok = true;
  for (size_t i = 0; ok && i < spec.partition->n_partition_clause; i++) {
    std::unique_ptr<Expr> e;
    ok = analyzer_.Analyze(spec.partition->partition_clause[i], &e, error) &&
         analyzer_.Coerce(&e, oid::kText, -1, error);
    if (!ok) break;
    Emit(*e);  // its constants take their slots in the text's order
    partition += (i ? ", " : " PARTITION BY ") + KeyMark(keys->size());
    keys->push_back(std::move(e));
  }
  for (size_t i = 0; ok && i < spec.order->n_order_clause; i++) {
    const PgQuery__SortBy* sb = spec.order->order_clause[i]->sort_by;
    if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) {
      *error = Err("0A000", "ORDER BY ... USING is not supported yet");
      ok = false;
      break;
    }
    std::unique_ptr<Expr> e;
    ok = analyzer_.Analyze(sb->node, &e, error) &&
         analyzer_.Coerce(&e, oid::kText, -1, error);
    if (!ok) break;
    Emit(*e);
    order += (i ? ", " : " ORDER BY ") + KeyMark(keys->size()) +
             SortDirectionSql(sb);
    order_type = e->type;
    keys->push_back(std::move(e));
  }
  window_context_ = saved;
  if (!ok) return false;
  std::string frame;
  if (!WindowFrameSql(spec.frame, spec.order->n_order_clause == 1,
                      spec.order->n_order_clause == 1 ? order_type : 0, &frame,
                      error))
    return false;
  (void)location;
  std::string body = partition + order + frame;
  *sql = " OVER (" + (body.empty() ? "" : body.substr(1)) + ")";
  return true;
}

bool QueryCompiler::AnalyzeWindowCall(const PgQuery__FuncCall* f,
                                      const std::string& name,
                                      std::unique_ptr<Expr>* out,
                                      PgError* error) {
  if (analyzer_.in_aggregate()) {
    *error = Err("42803",
                 "aggregate function calls cannot contain window function "
                 "calls",
                 f->location);
    return false;
  }
  if (window_context_ == kNestedWindow) {
    *error =
        Err("42P20", "window function calls cannot be nested", f->location);
    return false;
  }
  if (window_context_ || !select_) {
    *error = Err("42P20",
                 std::string("window functions are not allowed in ") +
                     (window_context_ ? window_context_ : "this context"),
                 f->location);
    return false;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kWindow;
  e->name = name;
  e->location = f->location;
  const char* saved = window_context_;
  window_context_ = kNestedWindow;
  bool aggregate = IsWindowAggregate(name);
  bool ok = true;
  if (aggregate) {
    if (f->agg_distinct) {
      *error = Err("0A000", "DISTINCT is not implemented for window functions",
                   f->location);
      ok = false;
    } else if (f->n_agg_order > 0) {
      *error = Err("0A000",
                   "aggregate ORDER BY is not implemented for window functions",
                   f->location);
      ok = false;
    } else if (name == "array_agg") {
      *error =
          Err("0A000", "array_agg as a window function is not supported yet",
              f->location);
      ok = false;
    } else {
      std::unique_ptr<Expr> agg;
      ok = analyzer_.AnalyzeWindowAggregate(f, name, &agg, error);
      if (ok) {
        e->type = agg->type;
        e->typmod = agg->typmod;
        e->args.push_back(std::move(agg));
      }
    }
  } else {
    if (f->agg_star || f->agg_distinct || f->n_agg_order > 0) {
      // Not an aggregate: what PostgreSQL says of name(*) / DISTINCT.
      *error = Err(
          "42809",
          name + "(*) specified, but " + name + " is not an aggregate function",
          f->location);
      if (!f->agg_star)
        *error = Err(
            "42809",
            "DISTINCT specified, but " + name + " is not an aggregate function",
            f->location);
      window_context_ = saved;
      return false;
    }
    for (size_t i = 0; ok && i < f->n_args; i++) {
      std::unique_ptr<Expr> a;
      ok = analyzer_.Analyze(f->args[i], &a, error);
      if (ok) e->args.push_back(std::move(a));
    }
  }
  window_context_ = saved;
  if (!ok) return false;
  if (!aggregate) {
    auto& args = e->args;
    auto no_function = [&] {
      *error = NoFunction(name, args, f->location);
      return false;
    };
    // An integer argument: unknown literals and smaller integers become
    // int4, as PostgreSQL's function resolution does.
    auto int_arg = [&](size_t i) {
      if (!analyzer_.Coerce(&args[i], oid::kInt4, -1, error)) return false;
      if (args[i]->type != oid::kInt4 && args[i]->type != oid::kInt2)
        return no_function();
      return true;
    };
    auto positive_constant = [&](size_t i, const char* code,
                                 const std::string& what) {
      const Expr& a = *args[i];
      if (a.kind != Expr::Kind::kConst || !a.value) return true;
      KeepLiteralValue(a);  // the check depends on its value
      if (std::stoll(*a.value) > 0) return true;
      *error = Err(code, "argument of " + what + " must be greater than zero");
      return false;
    };
    if (f->agg_filter) {
      *error = Err("0A000",
                   "FILTER is not implemented for non-aggregate window "
                   "functions",
                   f->location);
      return false;
    }
    if (name == "row_number" || name == "rank" || name == "dense_rank" ||
        name == "percent_rank" || name == "cume_dist") {
      if (!args.empty()) return no_function();
      e->type = name == "percent_rank" || name == "cume_dist" ? oid::kFloat8
                                                              : oid::kInt8;
    } else if (name == "ntile") {
      if (args.size() != 1) return no_function();
      if (!int_arg(0)) return false;
      e->type = oid::kInt4;
      // Emitted first: the check keeps the literal's slot.
      Emit(*args[0]);
      if (!positive_constant(0, "22014", "ntile")) return false;
    } else if (name == "lag" || name == "lead") {
      if (args.empty() || args.size() > 3) return no_function();
      if (args[0]->type == oid::kUnknown &&
          !analyzer_.Coerce(&args[0], oid::kText, -1, error))
        return false;
      if (args.size() >= 2 && !int_arg(1)) return false;
      if (args.size() >= 2 && args[1]->kind == Expr::Kind::kConst &&
          args[1]->value) {
        Emit(*args[1]);
        KeepLiteralValue(*args[1]);
        if (std::stoll(*args[1]->value) < 0) {
          *error = Err("0A000",
                       name + " with a negative offset is not supported yet",
                       f->location);
          return false;
        }
      } else if (args.size() >= 2 && args[1]->kind != Expr::Kind::kConst) {
        *error = Err("0A000",
                     name +
                         " with an offset other than a constant is not "
                         "supported yet",
                     f->location);
        return false;
      }
      uint32_t type = args[0]->type;
      if (args.size() == 3) {
        // anycompatible: the value and the default take a common type.
        uint32_t d = args[2]->type;
        if (d == oid::kUnknown) {
          if (!analyzer_.Coerce(&args[2], type, args[0]->typmod, error))
            return false;
        } else if (d != type) {
          if (IsNumber(d) && IsNumber(type))
            type = ArithmeticType(d, type);
          else if (IsText(d) && IsText(type))
            type = oid::kText;
          else
            return no_function();
          for (size_t k : {size_t{0}, size_t{2}}) {
            if (args[k]->type == type) continue;
            auto cast = std::make_unique<Expr>();
            cast->kind = Expr::Kind::kCast;
            cast->type = type;
            cast->location = args[k]->location;
            cast->args.push_back(std::move(args[k]));
            args[k] = std::move(cast);
          }
        }
      }
      e->type = type;
      e->typmod = args[0]->type == type ? args[0]->typmod : -1;
    } else if (name == "first_value" || name == "last_value" ||
               name == "nth_value") {
      if (args.size() != (name == "nth_value" ? 2u : 1u)) return no_function();
      if (args[0]->type == oid::kUnknown &&
          !analyzer_.Coerce(&args[0], oid::kText, -1, error))
        return false;
      if (name == "nth_value") {
        if (!int_arg(1)) return false;
        Emit(*args[1]);
        if (!positive_constant(1, "22016", "nth_value")) return false;
      }
      e->type = args[0]->type;
      e->typmod = args[0]->typmod;
    } else {
      // What PostgreSQL says of a function that is not a window function:
      // analysed as a plain call, it exists (42809) or not (its error).
      PgQuery__FuncCall plain = *f;
      plain.over = nullptr;
      PgQuery__Node node = PG_QUERY__NODE__INIT;
      node.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
      node.func_call = &plain;
      std::unique_ptr<Expr> call;
      if (!analyzer_.Analyze(&node, &call, error)) return false;
      if (call->kind == Expr::Kind::kAggregate) {
        *error =
            Err("0A000", name + " as a window function is not supported yet",
                f->location);
        return false;
      }
      *error = Err("42809",
                   "OVER specified, but " + name +
                       " is not a window function nor an aggregate function",
                   f->location);
      return false;
    }
  }
  e->param = static_cast<int>(e->args.size());
  std::vector<std::unique_ptr<Expr>> keys;
  if (!WindowSql(f->over, f->location, &e->subquery_sql, &keys, error))
    return false;
  for (auto& k : keys) e->args.push_back(std::move(k));
  if (emit_failed_) {
    *error = emit_error_;
    return false;
  }
  *out = std::move(e);
  return true;
}

bool IsWindowAggregateCall(const Expr& e) {
  return e.kind == Expr::Kind::kWindow && e.param == 1 &&
         e.args[0]->kind == Expr::Kind::kAggregate && e.args[0]->name == e.name;
}

std::string QueryCompiler::EmitWindow(const Expr& e) {
  std::string over;
  const std::string& marked = e.subquery_sql;
  for (size_t i = 0; i < marked.size(); i++) {
    if (marked[i] != kKeyMarkStart) {
      over += marked[i];
      continue;
    }
    size_t end = marked.find(kKeyMarkEnd, i);
    size_t k = std::stoul(marked.substr(i + 1, end - i - 1));
    over += Emit(*e.args[e.param + k]);
    i = end;
  }
  if (IsWindowAggregateCall(e)) {
    // The aggregate's SQL with OVER before its result's collation.
    const Expr* saved = window_aggregate_emitted_;
    window_aggregate_emitted_ = e.args[0].get();
    std::string call = Emit(*e.args[0]);
    window_aggregate_emitted_ = saved;
    size_t coll = call.rfind(" COLLATE ");
    if (call[0] == '(' && coll != std::string::npos)
      return call.substr(0, coll) + over + call.substr(coll);
    return call + over;
  }
  // ntile(n) and nth_value(x, n) are NULL where n is (SQLite's refuse a
  // NULL n): SQLite gets 1 there and the CASE gives NULL.
  int nullable_arg = e.name == "ntile" ? 0 : e.name == "nth_value" ? 1 : -1;
  std::string null_arg;
  std::string sql = e.name + "(";
  for (int i = 0; i < e.param; i++) {
    std::string arg = Emit(*e.args[i]);
    if (i == nullable_arg) {
      null_arg = arg;
      arg = "coalesce(" + arg + ", 1)";
    }
    sql += (i ? ", " : "") + arg;
  }
  sql += ")" + over;
  if (!null_arg.empty())
    sql =
        "(CASE WHEN (" + null_arg + ") IS NULL THEN NULL ELSE " + sql + " END)";
  const char* coll = CollationOf(e.type);
  if (*coll) sql = "(" + sql + " COLLATE " + coll + ")";
  return sql;
}

}  // namespace kova::planner
