// information_schema views of schemas and constraints (schemata,
// table_constraints, key_column_usage, referential_constraints,
// constraint_column_usage, check_constraints), as PostgreSQL 15 defines
// them over its catalogs, from the in-memory catalog. NOT NULL columns
// appear as CHECK constraints named <schema oid>_<table oid>_<attnum>_not_null,
// as PostgreSQL lists them.
#include <algorithm>

#include "planner/ddl_alter_internal.h"
#include "planner/index_expr.h"
#include "planner/system_catalog.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner::system_catalog {

namespace {

std::string YesNo(bool v) { return Text(v ? "YES" : "NO"); }

std::string NotNullName(const catalog::Catalog& cat, const catalog::Table& t,
                        size_t index) {
  return std::to_string(NamespaceOid(cat, t.schema)) + "_" +
         std::to_string(t.oid) + "_" + std::to_string(index + 1) + "_not_null";
}

// The referenced table's key a foreign key points at: its primary key or
// unique constraint over the referenced columns.
const catalog::Constraint* ReferencedKey(const catalog::Catalog& cat,
                                         const catalog::Constraint& fk,
                                         const catalog::Table** table) {
  size_t dot = fk.ref_table.find('.');
  *table =
      cat.FindTable(fk.ref_table.substr(0, dot), fk.ref_table.substr(dot + 1));
  if (!*table) return nullptr;
  for (const auto& c : (*table)->constraints)
    if ((c.kind == 'p' || c.kind == 'u') &&
        c.columns.size() == fk.ref_columns.size() &&
        std::is_permutation(c.columns.begin(), c.columns.end(),
                            fk.ref_columns.begin()))
      return &c;
  return nullptr;
}

}  // namespace

const char* ForeignKeyActionName(char action) {
  switch (action) {
    case 'r':
      return "RESTRICT";
    case 'c':
      return "CASCADE";
    case 'n':
      return "SET NULL";
    case 'd':
      return "SET DEFAULT";
    default:
      return "NO ACTION";
  }
}

void InfoSchemataRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  auto add = [&](const std::string& name, const std::string& owner) {
    rows->push_back(
        {Text(db), Text(name), Text(owner), kNull, kNull, kNull, kNull});
  };
  add("pg_toast", "postgres");
  for (const auto& [name, sc] : s.cat->schemas()) {
    if (name == "admin") continue;
    // PostgreSQL 15 gives public to pg_database_owner.
    std::string owner = sc.owner.empty() ? "postgres" : sc.owner;
    if (name == "public" && owner == "postgres") owner = "pg_database_owner";
    add(name, owner);
  }
}

void InfoTableConstraintRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  for (const auto& [key, t] : s.cat->tables()) {
    auto add = [&](const std::string& name, const char* type, bool deferrable,
                   bool deferred, const std::string& nulls) {
      rows->push_back({Text(db), Text(t.schema), Text(name), Text(db),
                       Text(t.schema), Text(t.name), Text(type),
                       YesNo(deferrable), YesNo(deferred), Text("YES"), nulls});
    };
    for (const auto& c : t.constraints) {
      const char* type = c.kind == 'p'   ? "PRIMARY KEY"
                         : c.kind == 'u' ? "UNIQUE"
                         : c.kind == 'f' ? "FOREIGN KEY"
                                         : "CHECK";
      add(c.name, type, c.deferrable, c.initially_deferred,
          c.kind == 'u' ? YesNo(!c.nulls_not_distinct) : kNull);
    }
    for (size_t i = 0; i < t.columns.size(); i++)
      if (t.columns[i].not_null)
        add(NotNullName(*s.cat, t, i), "CHECK", false, false, kNull);
  }
}

void InfoKeyColumnUsageRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  for (const auto& [key, t] : s.cat->tables()) {
    for (const auto& c : t.constraints) {
      if (c.kind != 'p' && c.kind != 'u' && c.kind != 'f') continue;
      const catalog::Table* ref = nullptr;
      const catalog::Constraint* unique =
          c.kind == 'f' ? ReferencedKey(*s.cat, c, &ref) : nullptr;
      for (size_t i = 0; i < c.columns.size(); i++) {
        std::string position = kNull;
        if (unique && i < c.ref_columns.size()) {
          auto at = std::find(unique->columns.begin(), unique->columns.end(),
                              c.ref_columns[i]);
          position = Int(at - unique->columns.begin() + 1);
        }
        rows->push_back({Text(db), Text(t.schema), Text(c.name), Text(db),
                         Text(t.schema), Text(t.name), Text(c.columns[i]),
                         Int(static_cast<int64_t>(i + 1)), position});
      }
    }
  }
}

void InfoReferentialConstraintRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  for (const auto& [key, t] : s.cat->tables()) {
    for (const auto& c : t.constraints) {
      if (c.kind != 'f') continue;
      const catalog::Table* ref = nullptr;
      const catalog::Constraint* unique = ReferencedKey(*s.cat, c, &ref);
      rows->push_back({Text(db), Text(t.schema), Text(c.name),
                       unique ? Text(db) : kNull,
                       unique ? Text(ref->schema) : kNull,
                       unique ? Text(unique->name) : kNull, Text("NONE"),
                       Text(ForeignKeyActionName(c.on_update)),
                       Text(ForeignKeyActionName(c.on_delete))});
    }
  }
}

void InfoConstraintColumnUsageRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  for (const auto& [key, t] : s.cat->tables()) {
    for (const auto& c : t.constraints) {
      auto add = [&](const std::string& schema, const std::string& table,
                     const std::string& column) {
        rows->push_back({Text(db), Text(schema), Text(table), Text(column),
                         Text(db), Text(t.schema), Text(c.name)});
      };
      if (c.kind == 'f') {
        size_t dot = c.ref_table.find('.');
        for (const auto& col : c.ref_columns)
          add(c.ref_table.substr(0, dot), c.ref_table.substr(dot + 1), col);
      } else if (c.kind == 'c') {
        for (const auto& col : ExpressionColumns(c.check_expr))
          if (t.FindColumn(col)) add(t.schema, t.name, col);
      } else {
        for (const auto& col : c.columns) add(t.schema, t.name, col);
      }
    }
  }
}

void InfoCheckConstraintRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  // Default display settings: the view reads no session.
  static const types::TypeContext kDisplay;
  for (const auto& [key, t] : s.cat->tables()) {
    for (const auto& c : t.constraints) {
      if (c.kind != 'c') continue;
      std::string text =
          CheckExpressionText(t, c.check_expr, false, kDisplay, {"public"});
      if (text.empty()) text = "(" + c.check_expr + ")";
      rows->push_back(
          {Text(db), Text(t.schema), Text(c.name), Text("(" + text + ")")});
    }
    for (size_t i = 0; i < t.columns.size(); i++)
      if (t.columns[i].not_null)
        rows->push_back({Text(db), Text(t.schema),
                         Text(NotNullName(*s.cat, t, i)),
                         Text(t.columns[i].name + " IS NOT NULL")});
  }
}

void InfoSequenceRows(const Source& s, std::vector<Row>* rows) {
  // Start, bounds, increment and cycle live in the counter row (read at
  // run time, see AddSystemRelation).
  const std::string db = s.cat->db();
  for (const auto& [key, q] : s.cat->sequences()) {
    if (q.schema.rfind("pg_temp", 0) == 0 && q.schema != s.temp_schema)
      continue;
    // An identity column's sequence is internal to it: not listed.
    if (!q.owned_table.empty()) {
      size_t dot = q.owned_table.find('.');
      const catalog::Table* t =
          dot == std::string::npos
              ? nullptr
              : s.cat->FindTable(q.owned_table.substr(0, dot),
                                 q.owned_table.substr(dot + 1));
      const catalog::Column* c = t ? t->FindColumn(q.owned_column) : nullptr;
      if (c && c->identity) continue;
    }
    rows->push_back(
        {Text(db), Text(q.schema), Text(q.name), Int(q.type), Text(q.counter)});
  }
}

}  // namespace kova::planner::system_catalog
