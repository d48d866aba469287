// information_schema.tables and .columns, from the in-memory catalog; the
// relations of every information_schema view Kova has.
#include "planner/index_expr.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner::system_catalog {

// information_schema.tables: the tables and views of the database.
void InfoTableRows(const Source& s, std::vector<Row>* rows) {
  const std::string db = s.cat->db();
  auto add = [&](const std::string& schema, const std::string& name,
                 const char* type, bool insertable) {
    rows->push_back({Text(db), Text(schema), Text(name), Text(type), kNull,
                     kNull, kNull, kNull, kNull,
                     Text(insertable ? "YES" : "NO"), Text("NO"), kNull});
  };
  for (const auto& [key, t] : s.cat->tables())
    add(t.schema, t.name,
        Persistence(s, t.schema) == 't' ? "LOCAL TEMPORARY" : "BASE TABLE",
        true);
  // Kova's views are read-only.
  for (const auto& [key, v] : s.cat->views())
    add(v.schema, v.name, "VIEW", false);
}

// information_schema.columns (PostgreSQL's view definition, for the types
// Kova has).
void InfoColumnRows(const Source& s, std::vector<Row>* rows,
                    const std::string& counters) {
  const std::string db = s.cat->db();
  auto add = [&](const std::string& schema, const std::string& rel, int pos,
                 const std::string& name, uint32_t declared, int32_t typmod,
                 const catalog::Column* col, bool updatable,
                 const catalog::Table* table = nullptr) {
    // A generated column's expression as PostgreSQL deparses it (default
    // display settings: the view reads no session).
    const bool generated = col && table && !col->generated_expr.empty();
    std::string generation;
    if (generated) {
      static const types::TypeContext kDisplay;
      generation = CheckExpressionText(*table, col->generated_expr, false,
                                       kDisplay, {"public"});
      if (generation.empty()) generation = col->generated_expr;
    }
    int32_t base_typmod = typmod;
    uint32_t type = user_types::BaseType(declared, &base_typmod);
    if (type != declared) typmod = base_typmod;
    const catalog::UserType* domain =
        type != declared ? user_types::Find(declared) : nullptr;
    const catalog::UserType* user = user_types::Find(type);
    const types::TypeInfo* info = types::LookupType(type);
    bool array = types::ArrayElementType(type) != 0;
    std::string data_type = array  ? "ARRAY"
                            : user ? "USER-DEFINED"
                            : type == oid::kBpchar
                                ? "character"
                                : types::FormatTypeName(type, -1);
    std::string char_max = kNull, char_octets = kNull;
    if (type == oid::kVarchar || type == oid::kBpchar || type == oid::kText) {
      if (typmod >= 4 && type != oid::kText) {
        char_max = Int(typmod - 4);
        char_octets = Int((typmod - 4) * 4);
      } else {
        char_octets = Int(1073741824);
      }
    }
    std::string precision = kNull, radix = kNull, scale = kNull;
    switch (type) {
      case oid::kInt2:
        precision = "16", radix = "2", scale = "0";
        break;
      case oid::kInt4:
        precision = "32", radix = "2", scale = "0";
        break;
      case oid::kInt8:
        precision = "64", radix = "2", scale = "0";
        break;
      case oid::kFloat4:
        precision = "24", radix = "2";
        break;
      case oid::kFloat8:
        precision = "53", radix = "2";
        break;
      case oid::kNumeric:
        radix = "10";
        if (typmod >= 4) {
          precision = Int(((typmod - 4) >> 16) & 0xffff);
          scale = Int((typmod - 4) & 0xffff);
        }
        break;
      default:
        break;
    }
    std::string dt_precision = kNull;
    if (type == oid::kDate) dt_precision = "0";
    if (type == oid::kTime || type == oid::kTimestamp ||
        type == oid::kTimestamptz || type == oid::kInterval)
      dt_precision = Int(typmod >= 0 && type != oid::kInterval ? typmod : 6);
    std::string udt_schema = "pg_catalog", udt_name = info ? info->name : "";
    if (user) {
      udt_schema = user->schema;
      udt_name = user->name;
    }
    bool identity = col && col->identity;
    const catalog::Sequence* seq = nullptr;
    if (identity)
      for (const auto& [k, q] : s.cat->sequences())
        if (q.counter == col->counter) seq = &q;
    auto counter = [&](const std::string& field, const std::string& dflt) {
      if (!seq || counters.empty()) return kNull;
      return "(SELECT CAST(coalesce(kova_get(doc, '" + field + "'), " + dflt +
             ") AS TEXT) FROM " + counters +
             " WHERE kid = " + Text(seq->counter) + ")";
    };
    std::string type_max = !seq                      ? "0"
                           : seq->type == oid::kInt2 ? "32767"
                           : seq->type == oid::kInt4 ? "2147483647"
                                                     : "9223372036854775807";
    std::string inc = "coalesce(kova_get(doc, 'increment'), 1)";
    rows->push_back(
        {Text(db),
         Text(schema),
         Text(rel),
         Text(name),
         Int(pos),
         col && !col->default_expr.empty() && !col->identity &&
                 col->generated_expr.empty()
             ? Text(DefaultExpression(*col))
             : kNull,
         Text(col && col->not_null ? "NO" : "YES"),
         Text(data_type),
         char_max,
         char_octets,
         precision,
         radix,
         scale,
         dt_precision,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         kNull,
         domain ? Text(db) : kNull,
         domain ? Text(domain->schema) : kNull,
         domain ? Text(domain->name) : kNull,
         Text(db),
         Text(udt_schema),
         Text(udt_name),
         kNull,
         kNull,
         kNull,
         kNull,
         Text(std::to_string(pos)),
         Text("NO"),
         Text(identity ? "YES" : "NO"),
         identity ? Text(col->identity == 'a' ? "ALWAYS" : "BY DEFAULT")
                  : kNull,
         counter("start", "CASE WHEN " + inc +
                              " > 0 THEN coalesce(kova_get(doc, 'min'), 1) "
                              "ELSE coalesce(kova_get(doc, 'max'), -1) END"),
         counter("increment", "1"),
         counter("max",
                 "CASE WHEN " + inc + " > 0 THEN " + type_max + " ELSE -1 END"),
         counter("min", "CASE WHEN " + inc + " > 0 THEN 1 ELSE -" + type_max +
                            " - 1 END"),
         identity ? "(SELECT CASE WHEN coalesce(kova_get(doc, 'cycle'), 0) "
                    "THEN 'YES' ELSE 'NO' END FROM " +
                        counters + " WHERE kid = " + Text(col->counter) + ")"
                  : Text("NO"),
         Text(generated ? "ALWAYS" : "NEVER"),
         generated ? Text(generation) : kNull,
         Text(updatable ? "YES" : "NO")});
  };
  for (const auto& [key, t] : s.cat->tables())
    for (size_t i = 0; i < t.columns.size(); i++)
      add(t.schema, t.name, static_cast<int>(i + 1), t.columns[i].name,
          t.columns[i].type, t.columns[i].typmod, &t.columns[i], true, &t);
  for (const auto& [key, v] : s.cat->views())
    for (size_t i = 0; i < v.columns.size(); i++)
      add(v.schema, v.name, static_cast<int>(i + 1), v.columns[i].name,
          v.columns[i].type, v.columns[i].typmod, nullptr, false);
}

const std::vector<Relation>& InfoRelations() {
  static const std::vector<Relation> rels = {
      {"tables",
       0,
       {{"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"table_type", T},
        {"self_referencing_column_name", N},
        {"reference_generation", T},
        {"user_defined_type_catalog", N},
        {"user_defined_type_schema", N},
        {"user_defined_type_name", N},
        {"is_insertable_into", T},
        {"is_typed", T},
        {"commit_action", T}},
       InfoTableRows},
      {"columns",
       0,
       {{"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"column_name", N},
        {"ordinal_position", I4},
        {"column_default", T},
        {"is_nullable", T},
        {"data_type", T},
        {"character_maximum_length", I4},
        {"character_octet_length", I4},
        {"numeric_precision", I4},
        {"numeric_precision_radix", I4},
        {"numeric_scale", I4},
        {"datetime_precision", I4},
        {"interval_type", T},
        {"interval_precision", I4},
        {"character_set_catalog", N},
        {"character_set_schema", N},
        {"character_set_name", N},
        {"collation_catalog", N},
        {"collation_schema", N},
        {"collation_name", N},
        {"domain_catalog", N},
        {"domain_schema", N},
        {"domain_name", N},
        {"udt_catalog", N},
        {"udt_schema", N},
        {"udt_name", N},
        {"scope_catalog", N},
        {"scope_schema", N},
        {"scope_name", N},
        {"maximum_cardinality", I4},
        {"dtd_identifier", N},
        {"is_self_referencing", T},
        {"is_identity", T},
        {"identity_generation", T},
        {"identity_start", T},
        {"identity_increment", T},
        {"identity_maximum", T},
        {"identity_minimum", T},
        {"identity_cycle", T},
        {"is_generated", T},
        {"generation_expression", T},
        {"is_updatable", T}},
       nullptr},
      {"schemata",
       0,
       {{"catalog_name", N},
        {"schema_name", N},
        {"schema_owner", N},
        {"default_character_set_catalog", N},
        {"default_character_set_schema", N},
        {"default_character_set_name", N},
        {"sql_path", T}},
       InfoSchemataRows},
      {"table_constraints",
       0,
       {{"constraint_catalog", N},
        {"constraint_schema", N},
        {"constraint_name", N},
        {"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"constraint_type", T},
        {"is_deferrable", T},
        {"initially_deferred", T},
        {"enforced", T},
        {"nulls_distinct", T}},
       InfoTableConstraintRows},
      {"key_column_usage",
       0,
       {{"constraint_catalog", N},
        {"constraint_schema", N},
        {"constraint_name", N},
        {"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"column_name", N},
        {"ordinal_position", I4},
        {"position_in_unique_constraint", I4}},
       InfoKeyColumnUsageRows},
      {"referential_constraints",
       0,
       {{"constraint_catalog", N},
        {"constraint_schema", N},
        {"constraint_name", N},
        {"unique_constraint_catalog", N},
        {"unique_constraint_schema", N},
        {"unique_constraint_name", N},
        {"match_option", T},
        {"update_rule", T},
        {"delete_rule", T}},
       InfoReferentialConstraintRows},
      {"constraint_column_usage",
       0,
       {{"table_catalog", N},
        {"table_schema", N},
        {"table_name", N},
        {"column_name", N},
        {"constraint_catalog", N},
        {"constraint_schema", N},
        {"constraint_name", N}},
       InfoConstraintColumnUsageRows},
      {"check_constraints",
       0,
       {{"constraint_catalog", N},
        {"constraint_schema", N},
        {"constraint_name", N},
        {"check_clause", T}},
       InfoCheckConstraintRows},
      {"sequences",
       0,
       {{"sequence_catalog", N},
        {"sequence_schema", N},
        {"sequence_name", N},
        {"data_type", T},
        {"numeric_precision", I4},
        {"numeric_precision_radix", I4},
        {"numeric_scale", I4},
        {"start_value", T},
        {"minimum_value", T},
        {"maximum_value", T},
        {"increment", T},
        {"cycle_option", T}},
       InfoSequenceRows},
  };
  return rels;
}

}  // namespace kova::planner::system_catalog
