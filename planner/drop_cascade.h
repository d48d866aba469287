// The objects a DROP reaches through dependencies (DROP SCHEMA, DROP
// TYPE/DOMAIN), found, reported and ordered for deletion as PostgreSQL's
// findDependentObjects and reportDependentObjects do. Kova keeps no
// pg_depend: the dependencies are derived from the catalog. Internal.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/planner.h"

namespace kova::planner {

struct DependentObject {
  enum class Kind {
    kSchema,
    kType,
    kArrayType,  // the array type of type `schema.name` (goes with it)
    kTable,
    kView,
    kSequence,
    kColumn,      // a column of table `schema.name`
    kDefault,     // the default of a column (a nextval of a sequence)
    kConstraint,  // a constraint (foreign key) of table `schema.name`
  };
  Kind kind = Kind::kTable;
  std::string schema, name;  // the object, or the table of a member
  std::string member;        // the column or constraint
  // The visiting order: PostgreSQL visits dependents by OID descending.
  // Members share their table's OID here; `rank` orders them the way
  // their own catalog order would (higher first).
  uint32_t oid = 0;
  int64_t rank = 0;
  // Goes with what it depends on without being reported (PostgreSQL's
  // auto dependency: a sequence OWNED BY a column of the dropped table);
  // what depends on it is reported.
  bool silent = false;

  bool IsMemberOf(const DependentObject& whole) const;
  std::string Key() const;
};

class DropClosure {
 public:
  // `visible(schema)`: names in that schema print unqualified (it is on
  // the search path).
  DropClosure(std::shared_ptr<const catalog::Catalog> catalog,
              std::function<bool(const std::string&)> visible);

  static DependentObject SchemaObject(const catalog::Schema& schema);
  static DependentObject TypeObject(const catalog::UserType& type);

  // Adds `root` and everything that depends on it.
  void Add(const DependentObject& root);
  // The relation `schema.name` (a table or view) is dropped by the same
  // statement: not a dependent, and what depends on it is reached from it.
  void Exclude(const std::string& schema, const std::string& name);

  // The dependents (not the roots), in PostgreSQL's report order.
  bool has_dependents() const { return reported_count_ > 0; }
  // 2BP01 "cannot drop ROOT because other objects depend on it".
  PgError RestrictError(const DependentObject& root) const;
  // The NOTICE of a CASCADE: its message and detail.
  void CascadeNotice(std::string* message, std::string* detail) const;
  // Every object to delete, dependents before what they depend on.
  const std::vector<DependentObject>& deletion_order() const {
    return deletion_order_;
  }

  std::string Describe(const DependentObject& o) const;

 private:
  std::vector<DependentObject> Dependents(const DependentObject& o) const;
  bool Present(const DependentObject& o) const;
  void Visit(const DependentObject& o, const DependentObject* from);
  std::string Qualified(const std::string& schema,
                        const std::string& name) const;

  // Kept alive: the drop reloads the session's catalog.
  std::shared_ptr<const catalog::Catalog> catalog_;
  std::function<bool(const std::string&)> visible_;
  std::set<std::string> targets_;
  std::set<std::string> excluded_;  // "schema.name" (Exclude)
  struct Reached {
    DependentObject object;
    DependentObject from;
    bool is_root = false;
  };
  // Post-order (dependents first), as findDependentObjects builds it; the
  // report walks it backwards.
  std::vector<Reached> reached_;
  std::vector<DependentObject> deletion_order_;
  size_t reported_count_ = 0;
};

}  // namespace kova::planner
