// DROP SCHEMA, and the deletion of what a DROP ... CASCADE reaches
// (drop_cascade.h finds it).
#include <algorithm>

#include "planner/ddl.h"
#include "planner/drop_cascade.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

DropClosure SessionImpl::MakeDropClosure() {
  std::vector<std::string> path = SearchPathSchemas(true);
  return DropClosure(catalog_, [path](const std::string& schema) {
    return std::find(path.begin(), path.end(), schema) != path.end();
  });
}

bool SessionImpl::ReportDrop(const DropClosure& closure,
                             const DependentObject& root, bool cascade,
                             ResultSink* sink, PgError* error) {
  if (!closure.has_dependents()) return true;
  if (!cascade) {
    *error = closure.RestrictError(root);
    return false;
  }
  std::string message, detail;
  closure.CascadeNotice(&message, &detail);
  Notice(sink, "NOTICE", "00000", message, detail);
  return true;
}

bool SessionImpl::DropObjects(const DropClosure& closure, PgError* error) {
  using Kind = DependentObject::Kind;
  for (const DependentObject& o : closure.deletion_order()) {
    std::string relation = QuoteQualified(o.schema, o.name);
    std::string statement;
    docstore::Status s;
    switch (o.kind) {
      case Kind::kColumn:
        statement = "ALTER TABLE ONLY " + relation + " DROP COLUMN " +
                    QuoteIdentifier(o.member) + " CASCADE";
        break;
      case Kind::kConstraint:
        statement = "ALTER TABLE ONLY " + relation + " DROP CONSTRAINT " +
                    QuoteIdentifier(o.member);
        break;
      case Kind::kDefault:
        break;  // DROP SEQUENCE ... CASCADE takes the default off
      case Kind::kView:
        statement = "DROP VIEW " + relation;
        break;
      case Kind::kTable:
        statement = "DROP TABLE " + relation + " CASCADE";
        break;
      case Kind::kSequence:
        statement = "DROP SEQUENCE " + relation + " CASCADE";
        break;
      case Kind::kType:
        s = catalog::Catalog::Remove(storage_.get(), database_, "type",
                                     o.schema, o.name);
        break;
      case Kind::kSchema:
        s = catalog::Catalog::Remove(storage_.get(), database_, "schema",
                                     o.name, o.name);
        break;
    }
    if (!s.ok()) {
      *error = TableError(s);
      return false;
    }
    if (!statement.empty()) {
      ExecuteResult r = RunInternal(statement);
      if (!r.ok) {
        *error = r.error;
        return false;
      }
    }
    if (!LoadCatalog(error)) return false;
  }
  return true;
}

bool SessionImpl::DropSchema(const std::string& name, bool missing_ok,
                             bool cascade, ResultSink* sink, PgError* error) {
  const catalog::Schema* schema = catalog_->FindSchema(name);
  if (!schema && missing_ok) {
    Notice(sink, "NOTICE", "00000",
           "schema \"" + name + "\" does not exist, skipping");
    return true;
  }
  if (!schema) {
    *error = Err("3F000", "schema \"" + name + "\" does not exist");
    return false;
  }
  if (name == "pg_catalog" || name == "information_schema" || name == "admin") {
    *error = Err("2BP01", "cannot drop schema " + name +
                              " because it is required by the database system");
    return false;
  }
  DropClosure closure = MakeDropClosure();
  DependentObject root = DropClosure::SchemaObject(*schema);
  closure.Add(root);
  if (!ReportDrop(closure, root, cascade, sink, error)) return false;
  return DropObjects(closure, error);
}

}  // namespace kova::planner
