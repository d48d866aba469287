// Shared by ddl_types.cc and ddl_domains.cc: the helper that runs the
// statements on enums and domains. Internal to the planner.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/session_impl.h"

namespace kova::planner {

inline std::vector<std::string> Names(PgQuery__Node* const* nodes, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; i++)
    if (nodes[i]->node_case == PG_QUERY__NODE__NODE_STRING)
      out.push_back(nodes[i]->string->sval);
  return out;
}

// The names of an object node: a List of Strings, a TypeName or a String.
inline std::vector<std::string> ObjectNames(const PgQuery__Node* n) {
  if (!n) return {};
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_LIST:
      return Names(n->list->items, n->list->n_items);
    case PG_QUERY__NODE__NODE_TYPE_NAME:
      return Names(n->type_name->names, n->type_name->n_names);
    case PG_QUERY__NODE__NODE_STRING:
      return {n->string->sval};
    default:
      return {};
  }
}

inline std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ".") + n;
  return out;
}

class TypeRunner {
 public:
  TypeRunner(SessionImpl* session, ResultSink* sink)
      : s_(session), sink_(sink) {}

  ExecuteResult Run(const PgQuery__Node* node);

 private:
  ExecuteResult CreateEnum(const PgQuery__CreateEnumStmt* stmt);
  ExecuteResult AlterEnum(const PgQuery__AlterEnumStmt* stmt);
  ExecuteResult CreateDomain(const PgQuery__CreateDomainStmt* stmt);
  ExecuteResult AlterDomain(const PgQuery__AlterDomainStmt* stmt);
  ExecuteResult Drop(const PgQuery__DropStmt* stmt);
  ExecuteResult Comment(const PgQuery__CommentStmt* stmt);
  ExecuteResult Rename(const PgQuery__RenameStmt* stmt);
  ExecuteResult Owner(const PgQuery__AlterOwnerStmt* stmt);
  ExecuteResult SetSchema(const PgQuery__AlterObjectSchemaStmt* stmt);

  // Looks a type up by its (qualified) name; 42704 when absent, 42809
  // when `kind` is given and the type is of another kind.
  // CREATE TYPE/DOMAIN: the schema of a new type named `names` (search_path
  // when unqualified), refused when the schema is missing or reserved or the
  // name is taken.
  bool NewTypeSchema(const std::vector<std::string>& names, std::string* schema,
                     PgError* error);
  bool Lookup(const std::vector<std::string>& names, char kind,
              catalog::UserType* out, PgError* error);
  bool Save(const catalog::UserType& t, PgError* error);
  // Calls fn(table, column index) for every column of type `oid`.
  template <typename Fn>
  void ForEachColumn(uint32_t oid, Fn&& fn) {
    for (const auto& [k, t] : cat().tables())
      for (size_t i = 0; i < t.columns.size(); i++)
        if (t.columns[i].type == oid) fn(t, i);
  }
  // The stored values of a column (canonical text of its base type).
  bool ColumnValues(const catalog::Table& table, size_t column,
                    std::vector<Value>* out, PgError* error);
  bool Begin(const char* what, PgError* error);
  void Notice(const char* sqlstate, const std::string& message,
              const std::string& detail = "");
  // A domain's DEFAULT / CHECK parsed and checked against its base type.
  bool DomainDefault(const PgQuery__Node* expr, const catalog::UserType& t,
                     std::string* text, PgError* error);
  bool DomainCheckText(const PgQuery__Constraint* con,
                       const catalog::UserType& t, catalog::DomainCheck* out,
                       PgError* error);
  // Checks the stored values of every column of domain `t` (ADD
  // CONSTRAINT, SET NOT NULL).
  bool ValidateColumns(const catalog::UserType& t,
                       const catalog::DomainCheck* check, bool not_null,
                       PgError* error);
  const catalog::Catalog& cat() { return *s_->catalog_; }
  const std::string& db() { return s_->database_; }

  SessionImpl* s_;
  ResultSink* sink_;
};

}  // namespace kova::planner
