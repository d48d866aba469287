// DROP TABLE / SEQUENCE / INDEX / VIEW / SCHEMA, and the deletion of what
// a DROP ... CASCADE reaches (drop_cascade.h finds it).
#include <algorithm>
#include <cstring>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/drop_cascade.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

std::string Str(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                          : "";
}

}  // namespace

ExecuteResult SessionImpl::RunDrop(const PgQuery__DropStmt* stmt,
                                   ResultSink* sink) {
  PgError error;
  if (!CheckWritable("DROP", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  const char* kind_name;
  const char* tag;
  switch (stmt->remove_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      kind_name = "table";
      tag = "DROP TABLE";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      kind_name = "sequence";
      tag = "DROP SEQUENCE";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
      kind_name = "index";
      tag = "DROP INDEX";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
      kind_name = "view";
      tag = "DROP VIEW";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
      kind_name = "schema";
      tag = "DROP SCHEMA";
      break;
    default: {
      static const std::pair<PgQuery__ObjectType, const char*> kNames[] = {
          {PG_QUERY__OBJECT_TYPE__OBJECT_TYPE, "DROP TYPE"},
          {PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN, "DROP DOMAIN"},
          {PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION, "DROP FUNCTION"},
          {PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW, "DROP MATERIALIZED VIEW"},
      };
      std::string what = "DROP of this kind of object";
      for (const auto& [type, text] : kNames)
        if (type == stmt->remove_type) what = text;
      return Fail(Err("0A000", what + " is not supported yet"));
    }
  }
  bool cascade = stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  docstore::Status s = EnsureWriteTransaction();
  if (!s.ok()) return Fail(TableError(s));
  auto object_names = [&](const PgQuery__Node* obj) {
    std::vector<std::string> names;
    if (obj->node_case == PG_QUERY__NODE__NODE_LIST) {
      for (size_t k = 0; k < obj->list->n_items; k++)
        names.push_back(Str(obj->list->items[k]));
    } else {
      names.push_back(Str(obj));
    }
    return names;
  };
  // Tables and views this statement drops: one that depends on another of
  // them is no dependent to report (DROP TABLE parent, child).
  std::set<std::string> listed;
  if (kind_name == "table" || kind_name == "view") {
    for (size_t i = 0; i < stmt->n_objects; i++) {
      std::vector<std::string> names = object_names(stmt->objects[i]);
      std::string schema = LookupSchema(
          names.size() >= 2 ? names[names.size() - 2].c_str() : nullptr,
          names.back());
      bool exists = kind_name == "table"
                        ? catalog_->FindTable(schema, names.back()) != nullptr
                        : catalog_->FindView(schema, names.back()) != nullptr;
      if (exists) listed.insert(schema + "." + names.back());
    }
  }
  for (size_t i = 0; i < stmt->n_objects; i++) {
    const PgQuery__Node* obj = stmt->objects[i];
    std::vector<std::string> names = object_names(obj);
    std::string kind = kind_name;
    if (kind == "schema") {
      if (!DropSchema(names.back(), stmt->missing_ok, cascade, sink, &error))
        return Fail(error);
      continue;
    }
    std::string schema = LookupSchema(
        names.size() >= 2 ? names[names.size() - 2].c_str() : nullptr,
        names.back());
    std::string name = names.back();
    const catalog::Table* table = catalog_->FindTable(schema, name);
    const catalog::Sequence* seq = catalog_->FindSequence(schema, name);
    const catalog::View* view = catalog_->FindView(schema, name);
    const catalog::Index* index = nullptr;
    const catalog::Table* index_table =
        catalog_->FindIndexTable(schema, name, &index);
    bool found = (kind == "table" && table) || (kind == "sequence" && seq) ||
                 (kind == "view" && view) || (kind == "index" && index_table);
    if (!found) {
      bool other = table || seq || view || index_table;
      if (other) {
        std::string actual = table  ? "table"
                             : seq  ? "sequence"
                             : view ? "view"
                                    : "index";
        PgError e =
            Err("42809", "\"" + name + "\" is not a" +
                             std::string(kind == "index" ? "n " : " ") + kind);
        std::string upper = actual;
        for (auto& ch : upper) ch = static_cast<char>(std::toupper(ch));
        e.hint = "Use DROP " + upper + " to remove a" +
                 std::string(actual == "index" ? "n " : " ") + actual + ".";
        return Fail(e);
      }
      if (stmt->missing_ok) {
        Notice(sink, "NOTICE", "00000",
               kind + " \"" + name + "\" does not exist, skipping");
        continue;
      }
      if (names.size() >= 2 && !catalog_->FindSchema(schema))
        return Fail(Err("3F000", "schema \"" + schema + "\" does not exist"));
      return Fail(Err("42P01", kind + " \"" + name + "\" does not exist"));
    }
    if (kind == "table" || kind == "view") {
      // Views that read it (and foreign keys that reference a table)
      // depend on it: reported, and with CASCADE dropped first.
      DependentObject root;
      root.kind = kind == "table" ? DependentObject::Kind::kTable
                                  : DependentObject::Kind::kView;
      root.schema = schema;
      root.name = name;
      root.oid = table ? table->oid : view->oid;
      DropClosure closure = MakeDropClosure();
      for (const auto& other : listed) {
        if (other == schema + "." + name) continue;
        size_t dot = other.find('.');
        closure.Exclude(other.substr(0, dot), other.substr(dot + 1));
      }
      closure.Add(root);
      if (!ReportDrop(closure, root, cascade, sink, &error)) {
        if (listed.size() > 1)
          error.message =
              "cannot drop desired object(s) because other objects depend on "
              "them";
        return Fail(error);
      }
      if (closure.has_dependents()) {
        DropClosure dependents = MakeDropClosure();
        for (const DependentObject& o : closure.deletion_order())
          // Silent ones (owned sequences) go with the root.
          if (o.Key() != root.Key() && !o.silent) dependents.Add(o);
        if (!DropObjects(dependents, &error)) return Fail(error);
        table = catalog_->FindTable(schema, name);
        view = catalog_->FindView(schema, name);
      }
    }
    if (kind == "table") {
      // Foreign keys of other tables that reference this one.
      std::vector<std::pair<std::string, std::string>> dependents;
      for (const auto& [k, t] : catalog_->tables()) {
        if (&t == table) continue;
        if (listed.count(t.schema + "." + t.name)) continue;
        for (const auto& c : t.constraints)
          if (c.kind == 'f' && c.ref_table == schema + "." + name)
            dependents.emplace_back(t.schema + "." + t.name, c.name);
      }
      if (!dependents.empty() && !cascade) {
        PgError e = Err("2BP01", "cannot drop table " + name +
                                     " because other objects depend on it");
        std::string detail;
        for (const auto& [t, c] : dependents) {
          if (!detail.empty()) detail += "\n";
          detail += "constraint " + c + " on table " +
                    t.substr(t.find('.') + 1) + " depends on table " + name;
        }
        e.detail = detail;
        e.hint = "Use DROP ... CASCADE to drop the dependent objects too.";
        return Fail(e);
      }
      for (const auto& [t, c] : dependents) {
        Notice(sink, "NOTICE", "00000",
               "drop cascades to constraint " + c + " on table " +
                   t.substr(t.find('.') + 1));
        size_t dot = t.find('.');
        catalog::Table copy =
            *catalog_->FindTable(t.substr(0, dot), t.substr(dot + 1));
        copy.constraints.erase(
            std::remove_if(
                copy.constraints.begin(), copy.constraints.end(),
                [&](const catalog::Constraint& x) { return x.name == c; }),
            copy.constraints.end());
        s = catalog::Catalog::PutTable(storage_.get(), database_, copy);
        if (!s.ok()) return Fail(TableError(s));
      }
      std::string collection = table->collection;
      // A sequence the table only uses (DEFAULT nextval, not OWNED BY it)
      // survives: its counter row goes back to the sequence's own id.
      for (const auto& col : table->columns) {
        if (col.sequence.empty() || !s.ok()) continue;
        size_t dot = col.sequence.find('.');
        const catalog::Sequence* q = catalog_->FindSequence(
            col.sequence.substr(0, dot), col.sequence.substr(dot + 1));
        if (!q || q->owned_table == schema + "." + name) continue;
        catalog::Sequence linked = *q;
        linked.counter =
            catalog::Catalog::SequenceCounterId(database_, q->schema, q->name);
        s = storage_->RenameCounter(q->counter, linked.counter, "", "");
        if (s.ok())
          s = catalog::Catalog::PutSequence(storage_.get(), database_, linked);
      }
      std::vector<std::pair<std::string, std::string>> owned;
      for (const auto& [k, q] : catalog_->sequences())
        if (q.owned_table == schema + "." + name)
          owned.emplace_back(q.schema, q.name);
      s = storage_->DropCollection(database_, collection);
      if (s.ok() || s.code() == docstore::Code::kNamespaceNotFound)
        s = catalog::Catalog::Remove(storage_.get(), database_, "table", schema,
                                     name);
      for (const auto& [qs, qn] : owned) {
        if (!s.ok()) break;
        const catalog::Sequence* q = catalog_->FindSequence(qs, qn);
        s = storage_->DeleteCounter(q->counter);
        if (s.ok())
          s = catalog::Catalog::Remove(storage_.get(), database_, "sequence",
                                       qs, qn);
      }
    } else if (kind == "sequence") {
      // Columns whose default (or identity) uses the sequence depend on it.
      std::string qualified = schema + "." + name;
      for (const auto& [k, t] : catalog_->tables()) {
        for (const auto& c : t.columns) {
          if (c.identity && c.sequence == qualified) {
            PgError e = Err(
                "2BP01", "cannot drop sequence " + name + " because column " +
                             c.name + " of table " + t.name + " requires it");
            e.hint = "You can drop column " + c.name + " of table " + t.name +
                     " instead.";
            return Fail(e);
          }
        }
      }
      DependentObject root;
      root.kind = DependentObject::Kind::kSequence;
      root.schema = schema;
      root.name = name;
      root.oid = seq->oid;
      DropClosure closure = MakeDropClosure();
      closure.Add(root);
      if (!ReportDrop(closure, root, cascade, sink, &error)) return Fail(error);
      for (const auto& [k, t] : catalog_->tables()) {
        bool uses = false;
        for (const auto& c : t.columns)
          uses |= ddl_detail::ColumnUsesSequence(t, c, schema, name);
        if (!uses) continue;
        // CASCADE: the default goes, and the column stops being
        // autoincrement (if the sequence numbers it, not only feeds its
        // default).
        catalog::Table copy = t;
        for (auto& col : copy.columns) {
          if (!ddl_detail::ColumnUsesSequence(t, col, schema, name)) continue;
          if (col.sequence != qualified) {
            col.default_expr.clear();
            continue;
          }
          s = storage_->RemoveAutoincrement(database_, copy.collection,
                                            col.name);
          col.counter.clear();
          col.sequence.clear();
          col.default_expr.clear();
          if (!s.ok()) break;
        }
        if (s.ok())
          s = catalog::Catalog::PutTable(storage_.get(), database_, copy);
        if (!s.ok()) break;
      }
      if (s.ok()) s = storage_->DeleteCounter(seq->counter);
      if (s.ok())
        s = catalog::Catalog::Remove(storage_.get(), database_, "sequence",
                                     schema, name);
    } else if (kind == "index") {
      if (!index->constraint.empty()) {
        PgError e =
            Err("2BP01", "cannot drop index " + name + " because constraint " +
                             index->constraint + " on table " +
                             index_table->name + " requires it");
        e.hint = "You can drop constraint " + index->constraint + " on table " +
                 index_table->name + " instead.";
        return Fail(e);
      }
      catalog::Table copy = *index_table;
      copy.indexes.erase(
          std::remove_if(
              copy.indexes.begin(), copy.indexes.end(),
              [&](const catalog::Index& x) { return x.name == name; }),
          copy.indexes.end());
      s = storage_->DropIndex(database_, copy.collection, name);
      if (s.ok() || s.code() == docstore::Code::kIndexNotFound)
        s = catalog::Catalog::PutTable(storage_.get(), database_, copy);
    } else if (kind == "view") {
      s = catalog::Catalog::Remove(storage_.get(), database_, "view", schema,
                                   name);
    }
    if (!s.ok()) return Fail(TableError(s));
    if (!LoadCatalog(&error)) return Fail(error);
  }
  return Tag(tag);
}

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
        // Taken off first: the sequence may go with its own table later.
        statement = "ALTER TABLE ONLY " + relation + " ALTER COLUMN " +
                    QuoteIdentifier(o.member) + " DROP DEFAULT";
        break;
      case Kind::kArrayType:
        break;  // kept in its element type's record
      case Kind::kView:
        statement = "DROP VIEW " + relation;
        break;
      case Kind::kTable:
        statement = "DROP TABLE " + relation + " CASCADE";
        break;
      case Kind::kSequence:
        // An owned sequence goes with its table, which drops it.
        if (!o.silent) statement = "DROP SEQUENCE " + relation + " CASCADE";
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
