#include "planner/drop_cascade.h"

#include <algorithm>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

using Kind = DependentObject::Kind;

// PostgreSQL lists at most this many dependents to the client
// (MAX_REPORTED_DEPS in dependency.c).
constexpr size_t kMaxReportedDependents = 100;

// Array types and auto dependencies go unmentioned.
bool Reported(const DependentObject& o) {
  return o.kind != Kind::kArrayType && !o.silent;
}

bool IsMember(Kind kind) {
  return kind == Kind::kColumn || kind == Kind::kDefault ||
         kind == Kind::kConstraint;
}

DependentObject Relation(Kind kind, const std::string& schema,
                         const std::string& name, uint32_t oid) {
  DependentObject o;
  o.kind = kind;
  o.schema = schema;
  o.name = name;
  o.oid = oid;
  return o;
}

DependentObject Member(Kind kind, const catalog::Table& table,
                       const std::string& member, int64_t rank) {
  DependentObject o = Relation(kind, table.schema, table.name, table.oid);
  o.member = member;
  o.rank = rank;
  return o;
}

// Columns are visited by attribute number ascending (PostgreSQL sorts a
// table's sub-objects by subId), constraints newest first (by their own
// OIDs, which follow creation).
DependentObject ColumnOf(Kind kind, const catalog::Table& table, size_t index) {
  return Member(kind, table, table.columns[index].name,
                -static_cast<int64_t>(index));
}

DependentObject ConstraintOf(const catalog::Table& table, size_t index) {
  return Member(Kind::kConstraint, table, table.constraints[index].name,
                static_cast<int64_t>(index));
}

// The views whose query reads table, view or column `o` (as recorded in
// their uses when they were made).
void AddViewsReading(const catalog::Catalog& catalog, const DependentObject& o,
                     std::vector<DependentObject>* out) {
  for (const auto& [k, v] : catalog.views())
    for (const auto& use : v.uses) {
      if (use.schema != o.schema || use.name != o.name) continue;
      if (o.kind == Kind::kColumn &&
          std::find(use.columns.begin(), use.columns.end(), o.member) ==
              use.columns.end())
        continue;
      if (o.kind == Kind::kConstraint &&
          std::find(use.constraints.begin(), use.constraints.end(), o.member) ==
              use.constraints.end())
        continue;
      out->push_back(Relation(Kind::kView, v.schema, v.name, v.oid));
      break;
    }
}

}  // namespace

bool DependentObject::IsMemberOf(const DependentObject& whole) const {
  return IsMember(kind) && whole.kind == Kind::kTable &&
         whole.schema == schema && whole.name == name;
}

std::string DependentObject::Key() const {
  return std::to_string(static_cast<int>(kind)) + "|" + schema + "|" + name +
         "|" + member;
}

DropClosure::DropClosure(std::shared_ptr<const catalog::Catalog> catalog,
                         std::function<bool(const std::string&)> visible)
    : catalog_(catalog), visible_(std::move(visible)) {}

DependentObject DropClosure::SchemaObject(const catalog::Schema& schema) {
  DependentObject o = Relation(Kind::kSchema, "", schema.name, schema.oid);
  return o;
}

DependentObject DropClosure::TypeObject(const catalog::UserType& type) {
  return Relation(Kind::kType, type.schema, type.name, type.oid);
}

std::vector<DependentObject> DropClosure::Dependents(
    const DependentObject& o) const {
  std::vector<DependentObject> out;
  switch (o.kind) {
    case Kind::kSchema:
      for (const auto& [k, t] : catalog_->types())
        if (t.schema == o.name) out.push_back(TypeObject(t));
      for (const auto& [k, t] : catalog_->tables())
        if (t.schema == o.name)
          out.push_back(Relation(Kind::kTable, t.schema, t.name, t.oid));
      for (const auto& [k, v] : catalog_->views())
        if (v.schema == o.name)
          out.push_back(Relation(Kind::kView, v.schema, v.name, v.oid));
      // A sequence owned by a table of the schema goes with its table.
      for (const auto& [k, q] : catalog_->sequences())
        if (q.schema == o.name &&
            q.owned_table.compare(0, o.name.size() + 1, o.name + ".") != 0)
          out.push_back(Relation(Kind::kSequence, q.schema, q.name, q.oid));
      break;
    case Kind::kType:
    case Kind::kArrayType: {
      // A type's array type depends on it internally (never reported);
      // what uses the array type depends on that.
      if (o.kind == Kind::kType)
        if (const catalog::UserType* self = catalog_->FindTypeByOid(o.oid);
            self && self->array_oid) {
          DependentObject array =
              Relation(Kind::kArrayType, o.schema, o.name, self->array_oid);
          out.push_back(array);
        }
      for (const auto& [k, t] : catalog_->types())
        if (t.kind == 'd' && t.base_type == o.oid) out.push_back(TypeObject(t));
      for (const auto& [k, t] : catalog_->tables())
        for (size_t i = 0; i < t.columns.size(); i++)
          if (t.columns[i].type == o.oid)
            out.push_back(ColumnOf(Kind::kColumn, t, i));
      // Kova records no view dependencies on types: a view whose output has
      // the type stands for one that uses it.
      for (const auto& [k, v] : catalog_->views())
        for (const auto& c : v.columns)
          if (c.type == o.oid) {
            out.push_back(Relation(Kind::kView, v.schema, v.name, v.oid));
            break;
          }
      break;
    }
    case Kind::kTable:
    case Kind::kColumn: {
      std::string self = o.schema + "." + o.name;
      // Its sequences (OWNED BY) go with it; other tables' defaults that
      // draw from them depend on them.
      for (const auto& [k, q] : catalog_->sequences()) {
        if (q.owned_table != self) continue;
        if (o.kind == Kind::kColumn && q.owned_column != o.member) continue;
        DependentObject owned =
            Relation(Kind::kSequence, q.schema, q.name, q.oid);
        owned.silent = true;
        out.push_back(owned);
      }
      for (const auto& [k, t] : catalog_->tables())
        for (size_t i = 0; i < t.constraints.size(); i++) {
          const catalog::Constraint& c = t.constraints[i];
          if (c.kind != 'f' || c.ref_table != self) continue;
          if (o.kind == Kind::kColumn &&
              std::find(c.ref_columns.begin(), c.ref_columns.end(), o.member) ==
                  c.ref_columns.end())
            continue;
          out.push_back(ConstraintOf(t, i));
        }
      // Generated columns computed from the column.
      if (o.kind == Kind::kColumn) {
        if (const catalog::Table* t = catalog_->FindTable(o.schema, o.name))
          for (size_t i = 0; i < t->columns.size(); i++) {
            const catalog::Column& c = t->columns[i];
            if (c.generated_expr.empty() || c.name == o.member) continue;
            std::vector<std::string> refs = ExpressionColumns(c.generated_expr);
            if (std::find(refs.begin(), refs.end(), o.member) == refs.end())
              continue;
            // Reported in column order, as PostgreSQL lists them.
            DependentObject dependent = ColumnOf(Kind::kColumn, *t, i);
            dependent.rank = static_cast<int64_t>(i);
            out.push_back(dependent);
          }
      }
      AddViewsReading(*catalog_, o, &out);
      break;
    }
    case Kind::kSequence: {
      std::string self = o.schema + "." + o.name;
      for (const auto& [k, t] : catalog_->tables())
        for (size_t i = 0; i < t.columns.size(); i++)
          if (ddl_detail::ColumnUsesSequence(t, t.columns[i], o.schema, o.name))
            out.push_back(ColumnOf(Kind::kDefault, t, i));
      break;
    }
    case Kind::kView:
    case Kind::kConstraint:  // a primary key that a view groups by
      AddViewsReading(*catalog_, o, &out);
      break;
    case Kind::kDefault:
      break;
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.oid != b.oid) return a.oid > b.oid;
    return a.rank > b.rank;
  });
  return out;
}

void DropClosure::Exclude(const std::string& schema, const std::string& name) {
  excluded_.insert(schema + "." + name);
}

bool DropClosure::Present(const DependentObject& o) const {
  if (targets_.count(o.Key())) return true;
  if ((o.kind == Kind::kTable || o.kind == Kind::kView || IsMember(o.kind)) &&
      excluded_.count(o.schema + "." + o.name))
    return true;
  if (!IsMember(o.kind)) return false;
  DependentObject table = Relation(Kind::kTable, o.schema, o.name, o.oid);
  if (targets_.count(table.Key())) return true;
  DependentObject column = o;
  column.kind = Kind::kColumn;
  if (o.kind == Kind::kDefault) return targets_.count(column.Key()) > 0;
  if (o.kind == Kind::kConstraint) {
    // A constraint goes with any of its own columns.
    const catalog::Table* t = catalog_->FindTable(o.schema, o.name);
    if (!t) return false;
    for (const auto& c : t->constraints) {
      if (c.name != o.member) continue;
      for (const auto& col : c.columns) {
        column.member = col;
        if (targets_.count(column.Key())) return true;
      }
    }
  }
  return false;
}

void DropClosure::Visit(const DependentObject& o, const DependentObject* from) {
  if (Present(o)) return;
  targets_.insert(o.Key());
  for (const auto& d : Dependents(o)) Visit(d, &o);
  reached_.push_back({o, from ? *from : o, from == nullptr});
  deletion_order_.push_back(o);
  if (from && Reported(o)) reported_count_++;
}

void DropClosure::Add(const DependentObject& root) { Visit(root, nullptr); }

std::string DropClosure::Qualified(const std::string& schema,
                                   const std::string& name) const {
  if (visible_(schema)) return QuoteIdentifier(name);
  return QuoteQualified(schema, name);
}

std::string DropClosure::Describe(const DependentObject& o) const {
  std::string relation = Qualified(o.schema, o.name);
  switch (o.kind) {
    case Kind::kSchema:
      return "schema " + o.name;
    case Kind::kType:
      return "type " + relation;
    case Kind::kArrayType:
      return "type " + relation + "[]";
    case Kind::kTable:
      return "table " + relation;
    case Kind::kView:
      return "view " + relation;
    case Kind::kSequence:
      return "sequence " + relation;
    case Kind::kColumn:
      return "column " + o.member + " of table " + relation;
    case Kind::kDefault:
      return "default value for column " + o.member + " of table " + relation;
    case Kind::kConstraint:
      return "constraint " + o.member + " on table " + relation;
  }
  return relation;
}

PgError DropClosure::RestrictError(const DependentObject& root) const {
  PgError e = Err("2BP01", "cannot drop " + Describe(root) +
                               " because other objects depend on it");
  size_t listed = 0;
  for (auto it = reached_.rbegin(); it != reached_.rend(); ++it) {
    if (it->is_root || !Reported(it->object)) continue;
    if (listed++ == kMaxReportedDependents) continue;
    e.detail += (e.detail.empty() ? "" : "\n") + Describe(it->object) +
                " depends on " + Describe(it->from);
  }
  if (listed > kMaxReportedDependents)
    e.detail += "\nand " + std::to_string(listed - kMaxReportedDependents) +
                " other object" +
                (listed - kMaxReportedDependents == 1 ? "" : "s") +
                " (see server log for list)";
  e.hint = "Use DROP ... CASCADE to drop the dependent objects too.";
  return e;
}

void DropClosure::CascadeNotice(std::string* message,
                                std::string* detail) const {
  detail->clear();
  std::vector<std::string> lines;
  for (auto it = reached_.rbegin(); it != reached_.rend(); ++it)
    if (!it->is_root && Reported(it->object))
      lines.push_back("drop cascades to " + Describe(it->object));
  if (lines.size() == 1) {
    *message = lines[0];
    return;
  }
  *message =
      "drop cascades to " + std::to_string(lines.size()) + " other objects";
  for (size_t i = 0; i < lines.size() && i < kMaxReportedDependents; i++)
    *detail += (i ? "\n" : "") + lines[i];
  if (lines.size() > kMaxReportedDependents) {
    size_t more = lines.size() - kMaxReportedDependents;
    *detail += "\nand " + std::to_string(more) + " other object" +
               (more == 1 ? "" : "s") + " (see server log for list)";
  }
}

}  // namespace kova::planner
