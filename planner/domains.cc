#include "planner/domains.h"

#include <map>

#include "planner/expr_internal.h"
#include "planner/types_array.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {
namespace {

// VALUE in a domain CHECK is the value being checked (parameter 0).
class ValueScope : public ExprScope {
 public:
  explicit ValueScope(uint32_t base) : base_(base) {}
  bool ResolveColumn(const PgQuery__ColumnRef* ref, std::unique_ptr<Expr>* out,
                     PgError* error) override {
    const PgQuery__Node* last = ref->fields[ref->n_fields - 1];
    std::string name = last->node_case == PG_QUERY__NODE__NODE_STRING
                           ? last->string->sval
                           : "*";
    if (ref->n_fields == 1 && name == "value") {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kParam;
      e->param = 0;
      e->type = base_;
      e->location = ref->location;
      *out = std::move(e);
      return true;
    }
    *error = expr_detail::Err("42703", "column \"" + name + "\" does not exist",
                              ref->location);
    return false;
  }
  bool AggregatesAllowed(const char** context) override {
    *context = "check constraints";
    return false;
  }
  bool AnalyzeSubLink(const PgQuery__SubLink* link, std::unique_ptr<Expr>*,
                      PgError* error) override {
    *error = expr_detail::Err(
        "0A000", "cannot use subquery in check constraint", link->location);
    return false;
  }

 private:
  uint32_t base_;
};

// Analysed checks by base type and text, per thread (expressions are
// immutable once analysed).
thread_local std::map<std::string, std::shared_ptr<Expr>> analysed;

}  // namespace

bool AnalyzeDomainCheck(const PgQuery__Node* node, uint32_t base,
                        SessionHooks* hooks, std::unique_ptr<Expr>* out,
                        PgError* error) {
  base = user_types::BaseType(base);
  ValueScope scope(base);
  std::vector<uint32_t> params = {base};
  Analyzer analyzer(hooks, &params);
  analyzer.set_scope(&scope);
  if (!analyzer.Analyze(node, out, error)) return false;
  if ((*out)->type == oid::kUnknown &&
      !analyzer.Coerce(out, oid::kBool, -1, error))
    return false;
  if ((*out)->type != oid::kBool) {
    *error = expr_detail::Err("42804",
                              "argument of CHECK must be type boolean, not "
                              "type " +
                                  types::FormatTypeName((*out)->type, -1));
    return false;
  }
  return true;
}

bool EvalDomainCheck(const catalog::UserType& domain,
                     const catalog::DomainCheck& check, const Value& value,
                     SessionHooks* hooks, bool* holds, PgError* error) {
  *holds = true;
  std::string key = hooks->CurrentDatabase() + ":" +
                    std::to_string(domain.oid) + ":" + check.expr;
  auto it = analysed.find(key);
  if (it == analysed.end()) {
    std::unique_ptr<sql::ParseTree> tree;
    sql::SyntaxError syntax;
    if (!sql::ParseTree::Parse("SELECT " + check.expr, &tree, &syntax) ||
        tree->size() != 1) {
      *error = expr_detail::Err(
          "XX000", "unreadable check constraint \"" + check.name + "\"");
      return false;
    }
    const PgQuery__Node* node =
        tree->statement(0).stmt->select_stmt->target_list[0]->res_target->val;
    std::unique_ptr<Expr> e;
    if (!AnalyzeDomainCheck(node, domain.base_type, hooks, &e, error))
      return false;
    if (analysed.size() > 256) analysed.clear();
    it = analysed.emplace(key, std::shared_ptr<Expr>(std::move(e))).first;
  }
  std::shared_ptr<Expr> expr = it->second;
  Value result;
  if (!Evaluate(*expr, {value}, hooks, &result, error)) return false;
  *holds = !(result && *result == "f");
  return true;
}

namespace {

// The constraints of `type` and the domains under it; errors name the
// domain the value was cast to (`named`), as PostgreSQL's do.
bool CheckLayers(uint32_t type, uint32_t named, const Value& value,
                 SessionHooks* hooks, PgError* error) {
  const catalog::UserType* domain = user_types::Find(type);
  if (!domain || domain->kind != 'd') return true;
  // The constraints of the base domain hold first.
  if (!CheckLayers(domain->base_type, named, value, hooks, error)) return false;
  if (domain->not_null && !value) {
    *error =
        expr_detail::Err("23502", "domain " + user_types::FormatName(named) +
                                      " does not allow null values");
    return false;
  }
  for (const auto& check : domain->checks) {
    bool holds;
    if (!EvalDomainCheck(*domain, check, value, hooks, &holds, error))
      return false;
    if (!holds) {
      *error = expr_detail::Err(
          "23514", "value for domain " + user_types::FormatName(named) +
                       " violates check constraint \"" + check.name + "\"");
      return false;
    }
  }
  return true;
}

}  // namespace

bool CheckDomainValue(uint32_t type, const Value& value, SessionHooks* hooks,
                      PgError* error) {
  // Built-in types, their arrays included, are no domains and hold none.
  if (!user_types::IsUserOid(type)) return true;
  uint32_t element = types::ArrayElementType(type);
  if (!element || !user_types::IsDomain(element))
    return CheckLayers(type, type, value, hooks, error);
  // An array of a domain: each element passes the domain (a null array
  // has no elements to check).
  if (!value) return true;
  types::ArrayValue array;
  if (!types::ParseArray(*value, element, -1, hooks->type_context(), false,
                         &array, error))
    return false;
  for (const Value& item : array.items)
    if (!CheckLayers(element, element, item, hooks, error)) return false;
  return true;
}

}  // namespace kova::planner
