// Expression analysis: parse-tree expressions into typed trees.
#include "planner/expr.h"

#include <algorithm>
#include <functional>

#include "planner/decimal.h"
#include "planner/domains.h"
#include "planner/expr_internal.h"
#include "planner/stack_depth.h"
#include "planner/types_array.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {
using namespace expr_detail;  // NOLINT: the helpers of this component

bool ResolveTypeName(const PgQuery__TypeName* name, uint32_t* type,
                     int32_t* typmod, PgError* error) {
  std::string full = sql::JoinNames(name->names, name->n_names);
  std::string base = full;
  if (base.rfind("pg_catalog.", 0) == 0) base = base.substr(11);
  // regclass values are relation names; the sequence functions take them
  // as text.
  // regproc values are function names (there are none to name but
  // PostgreSQL's, which the catalog does not list).
  if (Lower(base) == "regclass" || Lower(base) == "regproc") base = "text";
  const types::TypeInfo* info = types::LookupTypeByName(Lower(base));
  uint32_t user_type = 0;
  std::vector<std::string> parts;
  for (size_t i = 0; !info && i < name->n_names; i++)
    if (name->names[i]->node_case == PG_QUERY__NODE__NODE_STRING)
      parts.push_back(name->names[i]->string->sval);
  if (!info && user_types::ResolveName(parts, &user_type)) {
    if (name->n_array_bounds > 0) {
      uint32_t array = user_types::ArrayOf(user_type);
      if (!array) {
        // A type stored before arrays of user types had array types.
        *error = Err("42704",
                     "could not find array type for data type " +
                         types::FormatTypeName(user_type, -1),
                     name->location);
        return false;
      }
      user_type = array;
    }
    if (name->n_typmods > 0) {
      *error = Err("42601",
                   "type modifier is not allowed for type \"" +
                       types::FormatTypeName(user_type, -1) + "\"",
                   name->location);
      return false;
    }
    *type = user_type;
    *typmod = -1;
    return true;
  }
  if (!info && parts.size() == 2 && !user_types::SchemaExists(parts[0])) {
    *error = Err("3F000", "schema \"" + parts[0] + "\" does not exist",
                 name->location);
    return false;
  }
  if (!info && Lower(base) == "timetz" &&
      (parts.size() == 1 || Lower(parts[0]) == "pg_catalog")) {
    // A type of PostgreSQL's that Kova does not have.
    *error = Err("0A000", "type time with time zone is not supported yet",
                 name->location);
    return false;
  }
  if (!info) {
    *error =
        Err("42704", "type \"" + full + "\" does not exist", name->location);
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
      case oid::kBpchar: {
        // anychar_typmodin's checks.
        const char* kind = info->oid == oid::kVarchar ? "varchar" : "char";
        if (mods.size() != 1) {
          *error = Err("22023", "invalid type modifier", name->location);
          return false;
        }
        if (mods[0] < 1) {
          *error = Err(
              "22023",
              std::string("length for type ") + kind + " must be at least 1",
              name->location);
          return false;
        }
        if (mods[0] > 10485760) {
          *error = Err("22023",
                       std::string("length for type ") + kind +
                           " cannot exceed 10485760",
                       name->location);
          return false;
        }
        *typmod = static_cast<int32_t>(mods[0] + 4);
        break;
      }
      case oid::kNumeric: {
        // numerictypmodin's checks; the scale (which may be negative, or
        // above the precision) takes the low 11 bits.
        int64_t precision = mods[0], scale = mods.size() > 1 ? mods[1] : 0;
        if (mods.size() > 2) {
          *error =
              Err("22023", "invalid NUMERIC type modifier", name->location);
          return false;
        }
        if (precision < 1 || precision > 1000) {
          *error = Err("22023",
                       "NUMERIC precision " + std::to_string(precision) +
                           " must be between 1 and 1000",
                       name->location);
          return false;
        }
        if (scale < -1000 || scale > 1000) {
          *error = Err("22023",
                       "NUMERIC scale " + std::to_string(scale) +
                           " must be between -1000 and 1000",
                       name->location);
          return false;
        }
        *typmod =
            static_cast<int32_t>(((precision << 16) | (scale & 0x7ff)) + 4);
        break;
      }
      case oid::kTimestamp:
      case oid::kTimestamptz:
      case oid::kTime:
        *typmod = static_cast<int32_t>(mods[0]);
        break;
      case oid::kInterval: {
        // The parser gives the range mask (DAY, HOUR TO MINUTE, ...) and
        // maybe a precision; PostgreSQL's intervaltypmodin packs them.
        constexpr int64_t kFullRange = 0x7FFF, kFullPrecision = 0xFFFF;
        int64_t range = mods[0];
        int64_t precision = mods.size() > 1 ? mods[1] : kFullPrecision;
        if (precision != kFullPrecision && precision > 6)
          precision = 6;  // PostgreSQL warns that it reduced it
        *typmod = range == kFullRange && precision == kFullPrecision
                      ? -1
                      : static_cast<int32_t>(((range & kFullRange) << 16) |
                                             (precision & kFullPrecision));
        break;
      }
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
  // int[], int[3][], integer ARRAY: the array type (the sizes are ignored,
  // as in PostgreSQL); the modifier stays the element's.
  if (name->n_array_bounds > 0 && info->element_oid == 0) {
    if (info->array_oid == 0) {
      *error = Err(
          "42704",
          "could not find array type for data type " + std::string(info->name),
          name->location);
      return false;
    }
    *type = info->array_oid;
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
      // A name from the operand wins unless it is only a type name itself
      // (PostgreSQL's FigureColname strengths).
      const PgQuery__Node* arg = node->type_cast->arg;
      while (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
        arg = arg->type_cast->arg;
      std::string inner = ColumnName(arg);
      if (inner != "?column?") return inner;
      const PgQuery__TypeName* t = node->type_cast->type_name;
      std::string reg = Lower(sql::JoinNames(t->names, t->n_names));
      if (reg.rfind("pg_catalog.", 0) == 0) reg = reg.substr(11);
      if (reg == "regclass" || reg == "regtype" || reg == "regnamespace")
        return reg;  // read as text, named as PostgreSQL names them
      uint32_t type;
      int32_t typmod;
      PgError ignored;
      if (ResolveTypeName(t, &type, &typmod, &ignored)) {
        // mood[] is named after the element type, as int[] is.
        if (uint32_t element = user_types::ArrayElement(type)) type = element;
        if (user_types::IsUserOid(type)) return user_types::Find(type)->name;
        const types::TypeInfo* info = types::LookupType(type);
        // int[] is named after the type name written (int4), not _int4.
        if (info && info->element_oid && t->n_array_bounds > 0)
          info = types::LookupType(info->element_oid);
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
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
      // The ELSE result's name when it has a real one (FigureColname).
      const PgQuery__Node* d = node->case_expr->defresult;
      while (d && d->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
        d = d->type_cast->arg;
      std::string name = d ? ColumnName(d) : "case";
      return name == "?column?" ? "case" : name;
    }
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
      return "array";
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return ColumnName(node->a_indirection->arg);
    case PG_QUERY__NODE__NODE_SUB_LINK:
      if (node->sub_link->sub_link_type ==
          PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK)
        return "array";
      if (node->sub_link->sub_link_type ==
          PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK)
        return "exists";
      if (node->sub_link->sub_link_type ==
              PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
          node->sub_link->subselect->node_case ==
              PG_QUERY__NODE__NODE_SELECT_STMT) {
        // A scalar subquery is named after its output column.
        const PgQuery__SelectStmt* sub = node->sub_link->subselect->select_stmt;
        while (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE && sub->larg)
          sub = sub->larg;
        if (sub->n_target_list > 0) {
          const PgQuery__ResTarget* t = sub->target_list[0]->res_target;
          if (t->name && *t->name) return t->name;
          return ColumnName(t->val);
        }
      }
      return "?column?";
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
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
      return "grouping";
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
      return ColumnName(node->collate_clause->arg);
    case PG_QUERY__NODE__NODE_ROW_EXPR:
      return "row";
    default:
      return "?column?";
  }
}

bool Analyzer::Analyze(const PgQuery__Node* node, std::unique_ptr<Expr>* out,
                       PgError* error) {
  if (StackDepthExceeded()) {
    *error = StackDepthError();
    return false;
  }
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
      return AnalyzeConst(node->a_const, out, error);
    case PG_QUERY__NODE__NODE_PARAM_REF: {
      int n = node->param_ref->number;
      if (n < 1 || n > 65535 || !param_types_) {
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
      if (IsRow(t->arg)) return AnalyzeRowNullTest(t, out, error);
      auto e = std::make_unique<Expr>();
      e->kind = t->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL
                    ? Expr::Kind::kIsNull
                    : Expr::Kind::kIsNotNull;
      e->type = oid::kBool;
      std::unique_ptr<Expr> arg;
      if (!Analyze(t->arg, &arg, error)) return false;
      if (IsRowValue(*arg)) {
        // A row is null when every field is, not null when none is.
        Expr::Kind test = e->kind;
        e->kind = Expr::Kind::kAnd;
        e->location = t->location;
        for (size_t i = RowFirstField(*arg); i < arg->args.size(); i++) {
          auto field = std::make_unique<Expr>();
          field->kind = test;
          field->type = oid::kBool;
          field->location = t->location;
          field->args.push_back(std::move(arg->args[i]));
          e->args.push_back(std::move(field));
        }
        *out = std::move(e);
        return true;
      }
      if (!Coerce(&arg, oid::kText, -1, error)) return false;
      e->args.push_back(std::move(arg));
      *out = std::move(e);
      return true;
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
      auto e = std::make_unique<Expr>();
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
      // The results' common type. PostgreSQL takes a CASE's ELSE first.
      std::vector<size_t> result_args;
      for (size_t i = 0; i < e->args.size(); i++) {
        bool is_else = e->has_else && i == e->args.size() - 1;
        if (is_else) result_args.insert(result_args.begin(), i);
        if (!is_else && (e->kind == Expr::Kind::kCoalesce || i % 2 == 1))
          result_args.push_back(i);
      }
      std::vector<uint32_t> types;
      for (size_t i : result_args) types.push_back(e->args[i]->type);
      uint32_t bad_a = 0, bad_b = 0;
      size_t bad = 0;
      uint32_t common = SelectCommonType(types, &bad_a, &bad_b, &bad);
      if (!common) {
        *error = NoCommonType(
            e->kind == Expr::Kind::kCoalesce ? "COALESCE" : "CASE", bad_a,
            bad_b, StartLocation(*e->args[result_args[bad]]));
        return false;
      }
      for (size_t i : result_args) {
        if (!Coerce(&e->args[i], common, -1, error)) return false;
        ConvertTo(&e->args[i], common);
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
      std::vector<uint32_t> types;
      for (size_t i = 0; i < m->n_args; i++) {
        std::unique_ptr<Expr> arg;
        if (!Analyze(m->args[i], &arg, error)) return false;
        types.push_back(arg->type);
        e->args.push_back(std::move(arg));
      }
      uint32_t bad_a = 0, bad_b = 0;
      size_t bad = 0;
      uint32_t common = SelectCommonType(types, &bad_a, &bad_b, &bad);
      if (!common) {
        *error = NoCommonType(e->name == "greatest" ? "GREATEST" : "LEAST",
                              bad_a, bad_b, StartLocation(*e->args[bad]));
        return false;
      }
      for (auto& arg : e->args) {
        if (!Coerce(&arg, common, -1, error)) return false;
        ConvertTo(&arg, common);
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
      if (scope_) return scope_->ResolveColumn(c, out, error);
      std::string name = ColumnName(node);
      *error =
          Err("42703", "column \"" + name + "\" does not exist", c->location);
      return false;
    }
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: {
      // Only the built-in byte-order collations exist (the C locale), so a
      // COLLATE clause changes nothing.
      const PgQuery__CollateClause* c = node->collate_clause;
      std::string coll = sql::JoinNames(c->collname, c->n_collname);
      std::string base =
          coll.rfind("pg_catalog.", 0) == 0 ? coll.substr(11) : coll;
      if (!Analyze(c->arg, out, error)) return false;
      if (base != "default" && base != "C" && base != "POSIX" &&
          base != "ucs_basic") {
        *error = Err(
            "42704",
            "collation \"" + coll + "\" for encoding \"UTF8\" does not exist",
            c->location);
        return false;
      }
      if (!Coerce(out, oid::kText, -1, error)) return false;
      if (!IsText((*out)->type)) {
        *error = Err(
            "42804",
            "collations are not supported by type " + TypeName((*out)->type),
            c->location);
        return false;
      }
      return true;
    }
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
      return AnalyzeArrayExpr(node->a_array_expr, 0, out, error);
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return AnalyzeIndirection(node->a_indirection, out, error);
    case PG_QUERY__NODE__NODE_SUB_LINK:
      if (scope_) return scope_->AnalyzeSubLink(node->sub_link, out, error);
      *error = Err("0A000", "subqueries are not supported yet",
                   node->sub_link->location);
      return false;
    case PG_QUERY__NODE__NODE_ROW_EXPR:
      return AnalyzeRowConstructor(node->row_expr, out, error);
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
      if (scope_)
        return scope_->AnalyzeGroupingFunc(node->grouping_func, out, error);
      // As for aggregates: no query here to group.
      *error =
          Err("42803", "grouping operations are not allowed in this context",
              node->grouping_func->location);
      return false;
    case PG_QUERY__NODE__NODE_CURRENT_OF_EXPR:
      *error = Err("0A000", "WHERE CURRENT OF is not supported yet");
      return false;
    default: {
      // The parse node's name says what is missing ("xml_expr", ...).
      const ProtobufCFieldDescriptor* field =
          protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor,
                                                  node->node_case);
      *error = Err("0A000", std::string("this kind of expression (") +
                                (field ? field->name : "unknown") +
                                ") is not supported yet");
      return false;
    }
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
  if (e.kind == Expr::Kind::kConst && type == kRegtypeOid && e.value) {
    // A literal compared with a regtype names a type (regtypein).
    uint32_t resolved;
    int32_t ignored;
    if (!ParseTypeString(*e.value, &resolved, &ignored, error)) {
      if (error->position == 0) error->position = e.location + 1;
      return false;
    }
    *expr = RegtypeConst(resolved, e.location);
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
      if (SettingDependentText(type))
        e.value_context =
            std::make_shared<types::TypeContext>(hooks_->type_context());
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
  if (!param_types_) return true;
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
  {
    // regclass / regtype / regnamespace (system_functions.cc).
    std::string reg =
        Lower(sql::JoinNames(c->type_name->names, c->type_name->n_names));
    if (reg.rfind("pg_catalog.", 0) == 0) reg = reg.substr(11);
    if ((reg == "regclass" || reg == "regtype" || reg == "regnamespace") &&
        c->type_name->n_array_bounds == 0) {
      std::unique_ptr<Expr> arg;
      if (c->arg->node_case != PG_QUERY__NODE__NODE_A_CONST) {
        if (!Analyze(c->arg, &arg, error)) return false;
        if (RegCastName(reg, std::move(arg), hooks_, out)) return true;
      }
      if (reg == "regclass") {
        if (!ResolveTypeName(c->type_name, &type, &typmod, error) ||
            !AnalyzeCastTo(c, type, typmod, out, error))
          return false;
        if (!NormalizeRegclassLiteral(hooks_, out->get(), error)) {
          // The error points at the literal, as regclassin's does.
          if (c->arg->node_case == PG_QUERY__NODE__NODE_A_CONST)
            error->position = c->arg->a_const->location + 1;
          return false;
        }
        return true;
      }
      if (reg == "regtype" &&
          c->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
          c->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
        // regtypein when the statement is analysed: the type must exist.
        uint32_t resolved;
        int32_t ignored;
        if (!ParseTypeString(c->arg->a_const->sval->sval, &resolved, &ignored,
                             error)) {
          error->position = c->arg->a_const->location + 1;
          return false;
        }
        *out = RegtypeConst(resolved, c->location);
        return true;
      }
      if (reg == "regnamespace" &&
          c->arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
        // A schema name literal: the schema's OID (shown as the OID, not
        // the name).
        if (!Analyze(c->arg, &arg, error) ||
            !Coerce(&arg, oid::kText, -1, error))
          return false;
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kFunction;
        e->name = "kova_regnamespace_oid";
        e->type = oid::kOid;
        e->location = c->location;
        e->args.push_back(std::move(arg));
        *out = std::move(e);
        return true;
      }
    }
  }
  if (!ResolveTypeName(c->type_name, &type, &typmod, error)) return false;
  if (!user_types::IsDomain(type) &&
      !user_types::IsDomain(types::ArrayElementType(type)))
    return AnalyzeCastTo(c, type, typmod, out, error);
  // A cast to a domain is a cast to its base type whose result must pass
  // the domain's constraints (checked when it is computed).
  int32_t base_typmod = -1;
  uint32_t base = user_types::BaseType(type, &base_typmod);
  std::unique_ptr<Expr> value;
  if (!AnalyzeCastTo(c, base, base_typmod, &value, error)) return false;
  const PgQuery__Node* arg = c->arg;
  if (!user_types::IsDomain(type) &&
      arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL &&
      value->kind == Expr::Kind::kConst) {
    // A literal of an array of a domain is read by the array's input,
    // which checks each element then (the error points at the literal).
    if (!CheckDomainValue(type, value->value, hooks_, error)) {
      error->position = arg->a_const->location + 1;
      return false;
    }
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = kDomainCheckFunction;
  e->type = base;
  e->typmod = base_typmod;
  e->domain = type;
  e->location = c->location;
  e->args.push_back(std::move(value));
  e->args.push_back(Const(oid::kInt4, std::to_string(type), c->location));
  *out = std::move(e);
  return true;
}

namespace {

// Whether two analysed expressions are the same computation (locations
// aside), as PostgreSQL's equal() on transformed expressions.
bool SameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.type != b.type || a.typmod != b.typmod ||
      a.name != b.name || a.value != b.value || a.param != b.param ||
      a.distinct != b.distinct || a.has_else != b.has_else ||
      a.table_oid != b.table_oid || a.attnum != b.attnum ||
      a.args.size() != b.args.size() || a.subquery || b.subquery)
    return false;
  for (size_t i = 0; i < a.args.size(); i++)
    if (!SameExpr(*a.args[i], *b.args[i])) return false;
  return true;
}

// Casts PostgreSQL marks stable, not immutable: they read TimeZone,
// DateStyle or IntervalStyle, so they run when the statement executes and a
// prepared statement sees the settings of each EXECUTE.
}  // namespace

bool SettingDependentText(uint32_t type) {
  if (uint32_t element = types::ArrayElementType(type)) type = element;
  return type == oid::kDate || type == oid::kTimestamp ||
         type == oid::kTimestamptz || type == oid::kInterval ||
         type == oid::kFloat4 || type == oid::kFloat8;
}

bool SettingDependentCast(uint32_t from, uint32_t to) {
  if (from == to) return false;
  auto datetime = [](uint32_t t) {
    return t == oid::kDate || t == oid::kTime || t == oid::kTimestamp ||
           t == oid::kTimestamptz || t == oid::kInterval;
  };
  auto string = [](uint32_t t) {
    return t == oid::kText || t == oid::kVarchar || t == oid::kBpchar ||
           t == oid::kName;
  };
  if (from == oid::kTimestamptz || to == oid::kTimestamptz) return true;
  return (datetime(from) && string(to)) || (string(from) && datetime(to));
}

bool Analyzer::AnalyzeCastTo(const PgQuery__TypeCast* c, uint32_t type,
                             int32_t typmod, std::unique_ptr<Expr>* out,
                             PgError* error) {
  std::unique_ptr<Expr> arg;
  if (c->arg->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR &&
      types::ArrayElementType(type) != 0) {
    // ARRAY[...]::T[]: the elements become T (ARRAY[]::int[] has a type).
    if (!AnalyzeArrayExpr(c->arg->a_array_expr, type, &arg, error))
      return false;
    if (typmod < 0) {
      *out = std::move(arg);
      return true;
    }
  } else if (!Analyze(c->arg, &arg, error)) {
    return false;
  }
  if (type == oid::kOid && arg->type == kRegtypeOid) {
    // regtype to oid: the OID the value was made from.
    if (arg->kind == Expr::Kind::kConst && arg->table_oid) {
      *out = Const(oid::kOid, std::to_string(arg->table_oid), c->location);
      return true;
    }
    if (arg->kind == Expr::Kind::kFunction &&
        arg->name == "kova_regtype_name") {
      std::unique_ptr<Expr> id = std::move(arg->args[0]);
      if (id->type == oid::kOid) {
        *out = std::move(id);
        return true;
      }
      auto cast = std::make_unique<Expr>();  // an integer's OID
      cast->kind = Expr::Kind::kCast;
      cast->type = oid::kOid;
      cast->typmod = -1;
      cast->location = c->location;
      cast->args.push_back(std::move(id));
      *out = std::move(cast);
      return true;
    }
    *error =
        Err("0A000", "this cast of a regtype value to oid is not supported",
            c->location);
    return false;
  }
  bool regclass_arg = IsRegclassValue(*arg);
  if (c->arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
    const PgQuery__TypeName* t = c->arg->type_cast->type_name;
    std::string reg = Lower(sql::JoinNames(t->names, t->n_names));
    regclass_arg |= reg == "regclass" || reg == "pg_catalog.regclass";
  }
  if (type == oid::kOid && regclass_arg) {
    // regclass to oid: the relation's OID (system_functions.cc).
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kFunction;
    e->name = "kova_regclass_oid";
    e->type = oid::kOid;
    e->location = c->location;
    e->args.push_back(std::move(arg));
    *out = std::move(e);
    return true;
  }
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
      arg->value && typmod >= 0 &&
      (type == oid::kNumeric || types::ArrayElementType(type))) {
    // Input first (its errors point at the literal), then the typmod
    // (PostgreSQL's numeric() reports overflow without a position; an
    // explicit cast to varchar(n)[] truncates the elements).
    if (!Coerce(&arg, type, -1, error)) return false;
    std::string rounded;
    if (!types::Cast(type, type, typmod, *arg->value, hooks_->type_context(),
                     &rounded, error))
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
  if (arg->type != oid::kUnknown && arg->type != type &&
      (types::ArrayElementType(type) || types::ArrayElementType(arg->type))) {
    // Casts to or from arrays: only between arrays and the string types.
    auto castable = [](uint32_t t) {
      return IsText(t) || types::ArrayElementType(t) != 0;
    };
    if (!castable(arg->type) || !castable(type)) {
      *error = Err(
          "42846",
          "cannot cast type " + TypeName(arg->type) + " to " + TypeName(type),
          c->location);
      return false;
    }
  }
  if (arg->kind == Expr::Kind::kConst &&
      !SettingDependentCast(user_types::BaseType(arg->type),
                            user_types::BaseType(type))) {
    // Fold constant casts now, so errors carry the cast's position.
    Value folded;
    if (arg->value) {
      std::string result;
      if (!types::Cast(arg->type, type, typmod, *arg->value,
                       hooks_->type_context(), &result, error)) {
        // Only a missing cast is reported at the cast; a failing
        // conversion happens at run time in PostgreSQL (no position).
        if (error->position == 0 && error->sqlstate == "42846")
          error->position = c->location + 1;
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

namespace {

bool IsPseudo(uint32_t t) { return t == kAnyNonArray || t == kAnyElement; }

// Can an argument of type `from` be passed where `to` is declared?
bool Accepts(uint32_t to, uint32_t from) {
  if (IsPseudo(to)) return true;
  return ImplicitCast(from, to);
}

// PostgreSQL's func_select_candidate / oper_select_candidate over the
// candidates of the right name and arity. Returns the candidate, or
// nullptr with *ambiguous set when several remain.
const FunctionDef* SelectCandidate(std::vector<const FunctionDef*> cands,
                                   const std::vector<uint32_t>& types,
                                   bool* ambiguous) {
  *ambiguous = false;
  size_t n = types.size();
  // Exact match.
  for (const FunctionDef* c : cands) {
    bool exact = true;
    for (size_t i = 0; i < n && exact; i++) exact = c->args[i] == types[i];
    if (exact) return c;
  }
  std::vector<const FunctionDef*> ok;
  for (const FunctionDef* c : cands) {
    bool match = true;
    for (size_t i = 0; i < n && match; i++)
      match = Accepts(c->args[i], types[i]);
    if (match) ok.push_back(c);
  }
  if (ok.size() <= 1) return ok.empty() ? nullptr : ok[0];
  auto keep_best = [&](auto score) {
    int best = -1;
    std::vector<const FunctionDef*> kept;
    for (const FunctionDef* c : ok) {
      int s = score(c);
      if (s > best) {
        best = s;
        kept.clear();
      }
      if (s == best) kept.push_back(c);
    }
    ok = kept;
  };
  // Most exact matches.
  keep_best([&](const FunctionDef* c) {
    int s = 0;
    for (size_t i = 0; i < n; i++)
      if (types[i] != oid::kUnknown && c->args[i] == types[i]) s++;
    return s;
  });
  if (ok.size() == 1) return ok[0];
  // Most preferred types where a conversion is needed.
  keep_best([&](const FunctionDef* c) {
    int s = 0;
    for (size_t i = 0; i < n; i++)
      if (types[i] != oid::kUnknown && c->args[i] != types[i] &&
          IsPreferred(c->args[i]))
        s++;
    return s;
  });
  if (ok.size() == 1) return ok[0];
  // Unknown arguments: the string category if any candidate takes it there,
  // else the one category all candidates take; preferred types win. A
  // conflict leaves the candidates as they are (func_select_candidate).
  bool any_unknown = false, resolved = true;
  std::vector<char> slot_cat(n, 0);
  std::vector<bool> slot_preferred(n, false);
  for (size_t i = 0; i < n; i++) {
    if (types[i] != oid::kUnknown) continue;
    any_unknown = true;
    for (const FunctionDef* c : ok) {
      char k = IsPseudo(c->args[i]) ? 'P' : Category(c->args[i]);
      bool pref = !IsPseudo(c->args[i]) && IsPreferred(c->args[i]);
      if (slot_cat[i] == 0) {
        slot_cat[i] = k;
        slot_preferred[i] = pref;
      } else if (k == slot_cat[i]) {
        slot_preferred[i] = slot_preferred[i] || pref;
      } else if (k == 'S') {
        slot_cat[i] = k;
        slot_preferred[i] = pref;
      } else if (slot_cat[i] != 'S') {
        resolved = false;
      }
    }
  }
  if (any_unknown && resolved) {
    std::vector<const FunctionDef*> kept;
    for (const FunctionDef* c : ok) {
      bool keep = true;
      for (size_t i = 0; i < n && keep; i++) {
        if (types[i] != oid::kUnknown) continue;
        uint32_t t = c->args[i];
        char k = IsPseudo(t) ? 'P' : Category(t);
        if (k != slot_cat[i]) keep = false;
        if (slot_preferred[i] && (IsPseudo(t) || !IsPreferred(t))) keep = false;
      }
      if (keep) kept.push_back(c);
    }
    if (!kept.empty()) ok = kept;
  }
  if (ok.size() == 1) return ok[0];
  if (any_unknown && !ok.empty()) {
    // All known arguments of one type: assume the unknowns are that type.
    uint32_t known = 0;
    bool same = true;
    for (uint32_t t : types) {
      if (t == oid::kUnknown) continue;
      if (known && known != t) same = false;
      known = t;
    }
    if (known && same) {
      std::vector<const FunctionDef*> kept;
      for (const FunctionDef* c : ok) {
        bool match = true;
        for (size_t i = 0; i < n && match; i++)
          if (types[i] == oid::kUnknown) match = Accepts(c->args[i], known);
        if (match) kept.push_back(c);
      }
      if (kept.size() == 1) return kept[0];
    }
  }
  *ambiguous = !ok.empty();
  return nullptr;
}

std::unique_ptr<Expr> CastTo(std::unique_ptr<Expr> arg, uint32_t type) {
  auto cast = std::make_unique<Expr>();
  cast->kind = Expr::Kind::kCast;
  cast->type = type;
  cast->location = arg->location;
  cast->args.push_back(std::move(arg));
  return cast;
}

}  // namespace

// Gives the chosen signature's types to the arguments: unknowns are input
// as the declared type, others are cast when they differ.
bool Analyzer::CoerceArgs(const FunctionDef& def,
                          std::vector<std::unique_ptr<Expr>>* args,
                          PgError* error) {
  for (size_t i = 0; i < args->size(); i++) {
    auto& arg = (*args)[i];
    uint32_t want = def.args[i];
    if (IsPseudo(want)) want = arg->type == oid::kUnknown ? oid::kText : 0;
    if (!want) continue;
    if (!Coerce(&arg, want, -1, error)) return false;
    if (arg->type != want) arg = CastTo(std::move(arg), want);
  }
  return true;
}

bool Analyzer::ResolveOperator(const std::string& op,
                               std::unique_ptr<Expr> left,
                               std::unique_ptr<Expr> right, int location,
                               std::unique_ptr<Expr>* out, PgError* error) {
  bool array_op = false;
  if (!AnalyzeArrayOperator(op, &left, &right, location, &array_op, out, error))
    return false;
  if (array_op) return true;
  if (left && right) {
    // An OID compared with a regclass (its name): compare names.
    auto oidish = [](const Expr& e) {
      return e.type == oid::kOid || IsInteger(e.type);
    };
    if (oidish(*left) && IsRegclassValue(*right))
      left = RegclassNameOf(std::move(left));
    else if (oidish(*right) && IsRegclassValue(*left))
      right = RegclassNameOf(std::move(right));
  }
  std::vector<uint32_t> types;
  if (left) types.push_back(left->type);
  types.push_back(right->type);
  std::vector<const FunctionDef*> cands;
  for (const FunctionDef& def : Operators())
    if (op == def.name && def.args.size() == types.size())
      cands.push_back(&def);
  const FunctionDef* chosen = nullptr;
  bool ambiguous = false;
  // A binary operator with one unknown side: first the operator taking
  // the known type on both sides.
  if (left && (types[0] == oid::kUnknown) != (types[1] == oid::kUnknown)) {
    uint32_t known = types[0] == oid::kUnknown ? types[1] : types[0];
    for (const FunctionDef* c : cands)
      if (c->args[0] == known && c->args[1] == known) chosen = c;
  }
  if (!chosen) chosen = SelectCandidate(cands, types, &ambiguous);
  bool comparison = op == "=" || op == "<>" || op == "<" || op == ">" ||
                    op == "<=" || op == ">=";
  if (!chosen && !ambiguous && comparison && left) {
    // Types the tables do not list (catalog types such as "char",
    // regclass, regtype): the same type on both sides (an unknown takes
    // the other side's) compares by value text, as before.
    uint32_t t = types[0] == oid::kUnknown ? types[1] : types[0];
    // xid and cid have only the equality operators listed.
    if (t != oid::kJson && t != oid::kUnknown && t != oid::kXid &&
        t != oid::kCid && (types[0] == t || types[0] == oid::kUnknown) &&
        (types[1] == t || types[1] == oid::kUnknown)) {
      if (!Coerce(&left, t, -1, error) || !Coerce(&right, t, -1, error))
        return false;
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
  }
  if (!chosen) {
    std::string sig = (left ? TypeName(types[0]) + " " : std::string()) + op +
                      " " + TypeName(types.back());
    PgError err;
    if (ambiguous) {
      err = Err("42725", "operator is not unique: " + sig, location);
      err.hint =
          "Could not choose a best candidate operator. You might need to "
          "add explicit type casts.";
    } else {
      err = Err("42883", "operator does not exist: " + sig, location);
      err.hint =
          "No operator matches the given name and argument types. You might "
          "need to add explicit type casts.";
    }
    *error = err;
    return false;
  }
  std::vector<std::unique_ptr<Expr>> args;
  if (left) args.push_back(std::move(left));
  args.push_back(std::move(right));
  if (!CoerceArgs(*chosen, &args, error)) return false;
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kOperator;
  e->name = op;
  e->type = chosen->result;
  e->location = location;
  e->args = std::move(args);
  *out = std::move(e);
  return true;
}

bool Analyzer::AnalyzeOperator(const PgQuery__AExpr* a,
                               std::unique_ptr<Expr>* out, PgError* error) {
  if (a->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP)
    return AnalyzeSpecialOperator(a, out, error);
  std::string op = sql::JoinNames(a->name, a->n_name);
  if (op.rfind("pg_catalog.", 0) == 0) op = op.substr(11);
  if (IsRow(a->lexpr) || IsRow(a->rexpr))
    return CompareNodes(op, a->lexpr, a->rexpr, a->location, out, error);
  std::unique_ptr<Expr> left, right;
  if (a->lexpr && !Analyze(a->lexpr, &left, error)) return false;
  if (!Analyze(a->rexpr, &right, error)) return false;
  return ResolveOperator(op, std::move(left), std::move(right), a->location,
                         out, error);
}

bool Analyzer::Compare(const std::string& op, std::unique_ptr<Expr> left,
                       std::unique_ptr<Expr> right, int location,
                       std::unique_ptr<Expr>* out, PgError* error) {
  return ResolveOperator(op == "!=" ? "<>" : op, std::move(left),
                         std::move(right), location, out, error);
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
        std::unique_ptr<Expr> cmp;
        if (!CompareNodes(op, a->lexpr, list->items[i], a->location, &cmp,
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
      return DistinctNodes(a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT,
                           a->lexpr, a->rexpr, a->location, out, error);
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
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
      return AnalyzeScalarArrayOp(a, out, error);
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: {
      // ESCAPE arrives as like_escape(pattern, escape) (SIMILAR TO: always
      // similar_to_escape(pattern[, escape])), which rewrites the pattern.
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
  if (scope_ && scope_->ReplaceCall(f, out)) return true;
  std::string full = sql::JoinNames(f->funcname, f->n_funcname);
  std::string name = Lower(full);
  if (name.rfind("pg_catalog.", 0) == 0) name = name.substr(11);
  if (f->agg_within_group || IsOrderedSetAggregate(name))
    return AnalyzeOrderedSetAggregate(f, name, out, error);
  if (f->over) {
    if (!scope_) {
      *error =
          Err("42P20", "window functions are not allowed here", f->location);
      return false;
    }
    return scope_->AnalyzeWindowCall(f, name, out, error);
  }
  if (!f->over && IsAggregateName(name))
    return AnalyzeAggregate(f, name, out, error);
  if (f->agg_star || f->n_agg_order > 0 || f->agg_filter || f->over ||
      f->agg_distinct) {
    *error = Err("0A000",
                 "aggregate and window functions are not supported "
                 "yet",
                 f->location);
    return false;
  }
  if (name == "enum_first" || name == "enum_last" || name == "enum_range")
    return AnalyzeEnumFunction(f, name, out, error);
  std::vector<std::unique_ptr<Expr>> args;
  if (name == "make_interval") {
    // Named arguments (years => 1, ...) with PostgreSQL's defaults of 0.
    static const char* const kNames[] = {"years", "months", "weeks", "days",
                                         "hours", "mins",   "secs"};
    std::vector<const PgQuery__Node*> slots(7, nullptr);
    size_t positional = 0;
    bool named = false;
    for (size_t i = 0; i < f->n_args; i++) {
      const PgQuery__Node* a = f->args[i];
      if (a->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
        named = true;
        std::string arg_name = a->named_arg_expr->name;
        size_t k = 0;
        while (k < 7 && arg_name != kNames[k]) k++;
        if (k == 7) {
          *error = NoFunction("make_interval", arg_name + " => unknown",
                              f->location);
          return false;
        }
        slots[k] = a->named_arg_expr->arg;
      } else if (positional < 7) {
        slots[positional++] = a;
      }
    }
    if (named) {
      for (size_t k = 0; k < 7; k++) {
        std::unique_ptr<Expr> arg;
        if (slots[k]) {
          if (!Analyze(slots[k], &arg, error)) return false;
        } else {
          arg = Const(k == 6 ? oid::kFloat8 : oid::kInt4, std::string("0"),
                      f->location);
        }
        args.push_back(std::move(arg));
      }
    }
  }
  if (args.empty()) {
    for (size_t i = 0; i < f->n_args; i++) {
      if (f->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
        *error =
            Err("0A000", "named arguments are not supported yet for " + full,
                f->location);
        return false;
      }
      std::unique_ptr<Expr> arg;
      if (!Analyze(f->args[i], &arg, error)) return false;
      args.push_back(std::move(arg));
    }
  }
  if (f->func_variadic) {
    *error = Err("0A000", "VARIADIC arrays are not supported yet", f->location);
    return false;
  }
  if (name == "pg_typeof" && args.size() == 1) {
    // The regtype of the argument's type, known at analysis: regtype
    // output never shows a type modifier (character varying, not
    // character varying(3)), and calls bpchar "character".
    uint32_t type = args[0]->domain ? args[0]->domain : args[0]->type;
    std::function<bool(const Expr&)> has_aggregate = [&](const Expr& x) {
      if (x.kind == Expr::Kind::kAggregate) return true;
      for (const auto& a : x.args)
        if (has_aggregate(*a)) return true;
      return false;
    };
    if (has_aggregate(*args[0])) {
      // The aggregate must stay in the query (it makes the query group
      // its rows): CASE WHEN agg IS NULL THEN type ELSE type END.
      auto test = std::make_unique<Expr>();
      test->kind = Expr::Kind::kIsNull;
      test->type = oid::kBool;
      test->location = f->location;
      test->args.push_back(std::move(args[0]));
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kCase;
      e->type = kRegtypeOid;
      e->location = f->location;
      e->args.push_back(std::move(test));
      e->args.push_back(RegtypeConst(type, f->location));
      e->args.push_back(RegtypeConst(type, f->location));
      e->has_else = true;
      *out = std::move(e);
      return true;
    }
    *out = RegtypeConst(type, f->location);
    return true;
  }
  if (name == "regexp_matches" || name == "regexp_split_to_table" ||
      name == "unnest" || name == "generate_subscripts" ||
      name == "string_to_table" || name == "generate_series" ||
      name == "json_each" || name == "jsonb_each" ||
      name == "json_array_elements" || name == "jsonb_array_elements" ||
      name == "json_object_keys" || name == "jsonb_object_keys") {
    *error = Err("0A000",
                 "function " + name +
                     " is not supported yet (set-returning functions are "
                     "not supported here)",
                 f->location);
    return false;
  }
  if ((name == "to_json" || name == "to_jsonb" || name == "row_to_json") &&
      args.size() == 1 && IsRowValue(*args[0])) {
    *out = RowToJson(std::move(args[0]), name == "to_jsonb");
    return true;
  }
  if (name == "row_to_json" && !args.empty() && args[0]->type != oid::kRecord) {
    *error = NoFunction(name, args, f->location);
    return false;
  }
  if (name == "row_to_json" || name == "json_populate_record" ||
      name == "jsonb_populate_record" || name == "row") {
    *error = Err("0A000",
                 "function " + name +
                     " is not supported yet (row values are not supported)",
                 f->location);
    return false;
  }
  // Functions over "any": the argument types are kept for evaluation.
  bool variadic_any =
      (name == "concat" && !args.empty()) ||
      (name == "concat_ws" && args.size() >= 2) ||
      (name == "format" && !args.empty()) ||
      ((name == "num_nulls" || name == "num_nonnulls") && !args.empty()) ||
      name == "json_build_object" || name == "jsonb_build_object" ||
      name == "json_build_array" || name == "jsonb_build_array" ||
      ((name == "to_json" || name == "to_jsonb") && args.size() == 1);
  if (variadic_any) {
    if ((name == "json_build_object" || name == "jsonb_build_object") &&
        args.size() % 2 != 0) {
      PgError err =
          Err("22023", "argument list must have even number of elements");
      err.hint = "The arguments of " + name +
                 "() must consist of alternating keys and values.";
      *error = err;
      return false;
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kFunction;
    e->name = name;
    e->type = name == "num_nulls" || name == "num_nonnulls" ? oid::kInt4
              : name == "json_build_object" || name == "json_build_array" ||
                      name == "to_json"
                  ? oid::kJson
              : name == "jsonb_build_object" || name == "jsonb_build_array" ||
                      name == "to_jsonb"
                  ? oid::kJsonb
                  : oid::kText;
    e->location = f->location;
    for (size_t i = 0; i < args.size(); i++) {
      auto& arg = args[i];
      bool text_arg =
          (name == "format" && i == 0) || (name == "concat_ws" && i == 0);
      if (!Coerce(&arg, oid::kText, -1, error)) return false;
      if (text_arg && !IsText(arg->type))
        arg = CastTo(std::move(arg), oid::kText);
      e->args.push_back(std::move(arg));
    }
    *out = std::move(e);
    return true;
  }
  {
    bool array_function = false;
    if (!AnalyzeArrayFunction(name, &args, f->location, &array_function, out,
                              error))
      return false;
    if (array_function) return true;
  }
  if ((name == "quote_literal" || name == "quote_nullable") &&
      args.size() == 1 && args[0]->type != oid::kUnknown &&
      !IsText(args[0]->type))
    args[0] = CastTo(std::move(args[0]), oid::kText);
  // These take a regclass in PostgreSQL: a string literal names the
  // relation (pg_total_relation_size('t')).
  if ((name == "pg_table_size" || name == "pg_relation_size" ||
       name == "pg_total_relation_size" || name == "pg_indexes_size") &&
      args.size() == 1 && args[0]->type == oid::kUnknown &&
      args[0]->kind == Expr::Kind::kConst) {
    args[0]->type = oid::kText;
    if (!NormalizeRegclassLiteral(hooks_, args[0].get(), error)) {
      error->position = args[0]->location + 1;
      return false;
    }
  }
  std::vector<uint32_t> types;
  for (const auto& arg : args) types.push_back(arg->type);
  std::vector<const FunctionDef*> cands;
  for (const FunctionDef& def : Functions())
    if (name == def.name && def.args.size() == args.size())
      cands.push_back(&def);
  bool ambiguous = false;
  const FunctionDef* chosen = SelectCandidate(cands, types, &ambiguous);
  if (!chosen && !ambiguous) {
    // regclass values are names; a function over a relation's OID
    // (pg_get_indexdef('i'::regclass)) takes the OID they name.
    std::vector<uint32_t> as_oid = types;
    bool any = false;
    for (size_t i = 0; i < args.size(); i++)
      if (IsRegclassValue(*args[i])) {
        as_oid[i] = oid::kOid;
        any = true;
      }
    const FunctionDef* by_oid =
        any ? SelectCandidate(cands, as_oid, &ambiguous) : nullptr;
    if (by_oid) {
      for (size_t i = 0; i < args.size(); i++) {
        if (as_oid[i] == types[i]) continue;
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kFunction;
        e->name = "kova_regclass_oid";
        e->type = oid::kOid;
        e->location = args[i]->location;
        e->args.push_back(std::move(args[i]));
        args[i] = std::move(e);
      }
      chosen = by_oid;
    }
    ambiguous = false;
  }
  if (chosen) {
    if (!CoerceArgs(*chosen, &args, error)) return false;
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kFunction;
    e->name = name;
    e->type = chosen->result;
    e->location = f->location;
    if (IsPrivilegeFunction(name))
      e->args.push_back(Const(oid::kText, PrivilegeSignature(args), -1));
    for (auto& arg : args) e->args.push_back(std::move(arg));
    *out = std::move(e);
    return true;
  }
  std::string sig = ArgTypeList(args);
  PgError err;
  if (ambiguous) {
    err = Err("42725", "function " + full + "(" + sig + ") is not unique",
              f->location);
    err.hint =
        "Could not choose a best candidate function. You might need to add "
        "explicit type casts.";
  } else {
    err = NoFunction(full, sig, f->location);
  }
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
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE: {
      // now() cast to the result type (and precision).
      e->name = "now";
      e->type = oid::kTimestamptz;
      uint32_t type =
          f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE
              ? oid::kDate
          : f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME ||
                  f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N
              ? oid::kTime
          : f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP ||
                  f->op ==
                      PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N
              ? oid::kTimestamp
              : oid::kTimestamptz;
      bool with_precision =
          f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N ||
          f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N ||
          f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N;
      if (type != oid::kTimestamptz || with_precision) {
        auto cast = std::make_unique<Expr>();
        cast->kind = Expr::Kind::kCast;
        cast->type = type;
        cast->typmod = with_precision ? f->typmod : -1;
        cast->location = f->location;
        cast->args.push_back(std::move(e));
        *out = std::move(cast);
        return true;
      }
      break;
    }
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
      *error = Err("0A000",
                   "CURRENT_TIME is not supported yet (type time with time "
                   "zone is not supported)",
                   f->location);
      return false;
    default:
      *error = Err("0A000", "this SQL value function is not supported yet",
                   f->location);
      return false;
  }
  *out = std::move(e);
  return true;
}

}  // namespace kova::planner

namespace kova::planner {

bool Analyzer::AnalyzeWindowAggregate(const PgQuery__FuncCall* f,
                                      const std::string& name,
                                      std::unique_ptr<Expr>* out,
                                      PgError* error) {
  window_call_ = true;
  return AnalyzeAggregate(f, name, out, error);
}

bool Analyzer::AnalyzeAggregate(const PgQuery__FuncCall* f,
                                const std::string& name,
                                std::unique_ptr<Expr>* out, PgError* error) {
  using namespace expr_detail;
  const bool window = window_call_;
  window_call_ = false;
  const char* context = "this context";
  if (!window && (!scope_ || !scope_->AggregatesAllowed(&context))) {
    *error =
        Err("42803",
            std::string("aggregate functions are not allowed in ") + context,
            f->location);
    return false;
  }
  if (in_aggregate_ && !window) {
    *error =
        Err("42803", "aggregate function calls cannot be nested", f->location);
    return false;
  }
  if (f->agg_within_group) {
    *error = Err("0A000", "WITHIN GROUP in aggregates is not supported yet",
                 f->location);
    return false;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kAggregate;
  e->name = name;
  e->distinct = f->agg_distinct;
  e->location = f->location;
  // FILTER (WHERE cond): the condition is the last argument (has_else).
  auto add_filter = [&]() {
    if (!f->agg_filter) return true;
    std::unique_ptr<Expr> cond;
    in_aggregate_ = !window;
    in_filter_ = true;
    bool ok = Analyze(f->agg_filter, &cond, error) &&
              Coerce(&cond, oid::kBool, -1, error);
    in_aggregate_ = false;
    in_filter_ = false;
    if (!ok) return false;
    if (cond->type != oid::kBool) {
      *error = Err("42804",
                   "argument of FILTER must be type boolean, not type " +
                       TypeName(cond->type),
                   cond->location);
      return false;
    }
    e->args.push_back(std::move(cond));
    e->has_else = true;
    return true;
  };
  if (f->agg_star) {
    if (name != "count") {
      *error = Err(
          "42809",
          name + "(*) specified, but " + name + " is not an aggregate function",
          f->location);
      return false;
    }
    e->type = oid::kInt8;
    if (!add_filter()) return false;
    *out = std::move(e);
    return true;
  }
  // A window aggregate's arguments may hold the query's aggregates.
  in_aggregate_ = !window;
  for (size_t i = 0; i < f->n_args; i++) {
    std::unique_ptr<Expr> arg;
    if (!Analyze(f->args[i], &arg, error)) {
      in_aggregate_ = false;
      return false;
    }
    e->args.push_back(std::move(arg));
  }
  // ORDER BY inside the call: only string_agg's and array_agg's results
  // depend on it; the keys follow the arguments, with their directions in
  // `value`.
  std::vector<std::unique_ptr<Expr>> order_keys;
  std::string order_flags;
  if (name == "string_agg" || name == "array_agg" || IsJsonAggregate(name)) {
    for (size_t i = 0; i < f->n_agg_order; i++) {
      const PgQuery__SortBy* sb = f->agg_order[i]->sort_by;
      std::unique_ptr<Expr> key;
      if (!Analyze(sb->node, &key, error) ||
          !Coerce(&key, oid::kText, -1, error)) {
        in_aggregate_ = false;
        return false;
      }
      bool desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
      bool nulls_first =
          sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
          (desc &&
           sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST);
      order_flags += desc ? 'D' : 'A';
      order_flags += nulls_first ? 'F' : 'L';
      // DISTINCT sorts the values themselves: a key must be an argument.
      bool argument = false;
      for (const auto& a : e->args) argument = argument || SameExpr(*a, *key);
      if (f->agg_distinct && !argument) {
        in_aggregate_ = false;
        *error = Err("42P10",
                     "in an aggregate with DISTINCT, ORDER BY expressions "
                     "must appear in argument list",
                     LeftmostLocation(*key));
        return false;
      }
      order_keys.push_back(std::move(key));
    }
  }
  in_aggregate_ = false;
  auto no_function = [&] {
    *error = NoFunction(name, e->args, f->location);
    return false;
  };
  size_t want_args = name == "string_agg" || name.ends_with("object_agg") ||
                             IsRegressionAggregate(name)
                         ? 2
                         : 1;
  if (e->args.size() != want_args) return no_function();
  // The regression family takes double precision (numbers convert).
  if (IsRegressionAggregate(name)) {
    for (auto& arg : e->args) {
      if (arg->type != oid::kUnknown && !IsNumber(arg->type))
        return no_function();
      if (!Coerce(&arg, oid::kFloat8, -1, error)) return false;
    }
  }
  // Unknown literals: text for string_agg/min/max/count, as PostgreSQL's
  // preferred type of the string category.
  for (auto& arg : e->args) {
    if (arg->type == oid::kUnknown) {
      if (name == "json_agg" || name == "jsonb_agg") {
        *error = Err("42804",
                     "could not determine polymorphic type because input "
                     "has type unknown");
        return false;
      }
      if (name == "sum" || name == "avg") {
        PgError err =
            Err("42725", "function " + name + "(unknown) is not unique",
                f->location);
        err.hint =
            "Could not choose a best candidate function. You might need to "
            "add explicit type casts.";
        *error = err;
        return false;
      }
      // The variance family's candidates are all numeric: the category's
      // preferred type, double precision, wins.
      if (!Coerce(&arg,
                  name == "bool_and" || name == "bool_or" || name == "every"
                      ? oid::kBool
                  : IsVarianceAggregate(name) ? oid::kFloat8
                                              : oid::kText,
                  -1, error))
        return false;
    }
  }
  // json_agg of rows: of their to_json objects, as PostgreSQL prints them.
  if ((name == "json_agg" || name == "jsonb_agg") && IsRowValue(*e->args[0]))
    e->args[0] = RowToJson(std::move(e->args[0]), name == "jsonb_agg");
  uint32_t t = e->args[0]->type;
  if (name == "count") {
    e->type = oid::kInt8;
  } else if (name == "sum") {
    if (t == oid::kInt2 || t == oid::kInt4)
      e->type = oid::kInt8;
    else if (t == oid::kInt8 || t == oid::kNumeric)
      e->type = oid::kNumeric;
    else if (t == oid::kFloat4 || t == oid::kFloat8 || t == oid::kInterval)
      e->type = t;
    else
      return no_function();
  } else if (name == "avg") {
    if (IsInteger(t) || t == oid::kNumeric)
      e->type = oid::kNumeric;
    else if (IsFloat(t))
      e->type = oid::kFloat8;
    else if (t == oid::kInterval)
      e->type = oid::kInterval;
    else
      return no_function();
  } else if (IsVarianceAggregate(name)) {
    if (IsInteger(t) || t == oid::kNumeric)
      e->type = oid::kNumeric;
    else if (IsFloat(t))
      e->type = oid::kFloat8;
    else
      return no_function();
  } else if (name == "min" || name == "max") {
    if (t == oid::kVarchar || t == oid::kName) t = oid::kText;
    if (t == oid::kJson || t == oid::kJsonb || t == oid::kBool ||
        t == oid::kXid || t == oid::kCid)
      return no_function();
    e->type = t;
    e->typmod = t == e->args[0]->type ? e->args[0]->typmod : -1;
  } else if (name == "string_agg") {
    if (!IsText(t) || !IsText(e->args[1]->type)) return no_function();
    e->type = oid::kText;
  } else if (IsJsonAggregate(name)) {
    e->type = name.rfind("jsonb", 0) == 0 ? oid::kJsonb : oid::kJson;
    e->typmod = -1;
  } else if (name == "array_agg") {
    // Of arrays: one more dimension.
    uint32_t array = types::ArrayElementType(t) ? t : types::ArrayTypeOf(t);
    if (!array) return no_function();
    e->type = array;
    e->typmod = e->args[0]->typmod;
  } else if (IsBitAggregate(name)) {
    if (!IsInteger(t)) return no_function();
    e->type = t;
  } else if (IsRegressionAggregate(name)) {
    e->type = name == "regr_count" ? oid::kInt8 : oid::kFloat8;
  } else {  // bool_and, bool_or, every
    if (t != oid::kBool) return no_function();
    e->type = oid::kBool;
  }
  if (!order_keys.empty()) {
    e->param = static_cast<int>(order_keys.size());
    e->value = order_flags;
    for (auto& key : order_keys) e->args.push_back(std::move(key));
  }
  if (!add_filter()) return false;
  *out = std::move(e);
  return true;
}

}  // namespace kova::planner

namespace kova::planner {

bool Analyzer::AnalyzeEnumFunction(const PgQuery__FuncCall* f,
                                   const std::string& name,
                                   std::unique_ptr<Expr>* out, PgError* error) {
  std::vector<std::unique_ptr<Expr>> args;
  std::string sig;
  for (size_t i = 0; i < f->n_args; i++) {
    std::unique_ptr<Expr> a;
    if (!Analyze(f->args[i], &a, error)) return false;
    sig += (i ? ", " : "") + TypeName(a->type);
    args.push_back(std::move(a));
  }
  bool arity = args.size() == 1 || (name == "enum_range" && args.size() == 2);
  if (arity && args.size() == 2) {
    // anyenum: an untyped argument (NULL) takes the other one's enum type.
    for (size_t i = 0; i < 2; i++)
      if (args[i]->type == oid::kUnknown &&
          user_types::IsEnum(args[1 - i]->type))
        if (!Coerce(&args[i], args[1 - i]->type, -1, error)) return false;
  }
  bool enums = arity;
  for (const auto& a : args) enums = enums && user_types::IsEnum(a->type);
  if (arity && args.size() == 2 && enums && args[0]->type != args[1]->type) {
    // Both must be the same enum.
    enums = false;
  }
  if (!enums) {
    *error = NoFunction(name, sig, f->location);
    return false;
  }
  uint32_t type = args[0]->type;
  if (name == "enum_range") {
    uint32_t array = user_types::ArrayOf(type);
    if (!array) {
      // An enum stored before arrays of user types had array types.
      *error = Err("42704",
                   "could not find array type for data type " + TypeName(type),
                   f->location);
      return false;
    }
    type = array;
  }
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = name;
  e->type = type;
  e->location = f->location;
  e->args = std::move(args);
  *out = std::move(e);
  return true;
}

}  // namespace kova::planner
