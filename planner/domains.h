// Domain constraints at run time: NOT NULL and CHECK (VALUE ...) of a
// domain and of the domains it is based on. Internal to the planner.
#pragma once

#include <memory>

#include "catalog/catalog.h"
#include "planner/expr.h"

namespace kova::planner {

// Analyses a domain CHECK expression: VALUE is parameter 0, of type `base`.
bool AnalyzeDomainCheck(const PgQuery__Node* node, uint32_t base,
                        SessionHooks* hooks, std::unique_ptr<Expr>* out,
                        PgError* error);

// Fails with PostgreSQL's 23502 / 23514 when `value` breaks a constraint
// of domain `type` (any other type passes).
bool CheckDomainValue(uint32_t type, const Value& value, SessionHooks* hooks,
                      PgError* error);

// One CHECK of a domain over a value (true when it holds or is null).
bool EvalDomainCheck(const catalog::UserType& domain,
                     const catalog::DomainCheck& check, const Value& value,
                     SessionHooks* hooks, bool* holds, PgError* error);

// The function name an analysed cast to a domain is wrapped in: args are
// the value (of the base type) and the domain oid as an int4 constant.
inline constexpr const char* kDomainCheckFunction = "kova_domain_check";

}  // namespace kova::planner
