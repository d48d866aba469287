// json_agg, jsonb_agg, json_object_agg and jsonb_object_agg as SQLite
// aggregates. The rows are collected and, at the end, sorted by the call's
// ORDER BY keys, converted with to_json's rules (under the session's
// settings) and joined as PostgreSQL's json.c and jsonb.c print them:
// "[1, 2]" and "{ "k" : 1 }" for json, normalized jsonb for jsonb.
#include <algorithm>
#include <memory>

#include "planner/aggregate_order.h"
#include "planner/query.h"
#include "planner/types.h"
#include "planner/types_array.h"

namespace kova::planner {

using expr_detail::Err;

namespace {

// kova_json_agg(name, value type, key type, distinct, flags, value, key,
// order keys...): the key is NULL and its type 0 for json_agg/jsonb_agg;
// for the object aggregates `value` is the field name and `key` the value.
struct JsonAgg {
  std::string name;
  uint32_t value_type = 0;
  uint32_t second_type = 0;
  bool distinct = false;
  std::string flags;
  struct Row {
    SValue value, second;
    std::vector<SValue> keys;
  };
  std::vector<Row> rows;
};

SqlRuntime* AggRuntime(sqlite3_context* ctx) {
  return static_cast<SqlRuntime*>(sqlite3_user_data(ctx));
}

void FailAgg(sqlite3_context* ctx, const PgError& error) {
  AggRuntime(ctx)->SetError(error);
  sqlite3_result_error(ctx, "kova: statement failed", -1);
}

void JsonAggStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto** slot =
      static_cast<JsonAgg**>(sqlite3_aggregate_context(ctx, sizeof(JsonAgg*)));
  if (!slot) return;
  if (!*slot) {
    *slot = new JsonAgg();
    (*slot)->name = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    (*slot)->value_type = static_cast<uint32_t>(sqlite3_value_int64(argv[1]));
    (*slot)->second_type = static_cast<uint32_t>(sqlite3_value_int64(argv[2]));
    (*slot)->distinct = sqlite3_value_int(argv[3]) != 0;
    (*slot)->flags = reinterpret_cast<const char*>(sqlite3_value_text(argv[4]));
  }
  JsonAgg::Row row;
  row.value = ReadSValue(argv[5]);
  row.second = ReadSValue(argv[6]);
  for (int i = 7; i < argc; i++) row.keys.push_back(ReadSValue(argv[i]));
  if ((*slot)->second_type && row.value.kind == SKind::kNull) {
    // PostgreSQL fails at the row, whatever the rows after it hold.
    delete *slot;
    *slot = nullptr;
    return FailAgg(ctx, Err("22023", "field name must not be null"));
  }
  (*slot)->rows.push_back(std::move(row));
}

void JsonAggFinal(sqlite3_context* ctx) {
  auto** slot = static_cast<JsonAgg**>(sqlite3_aggregate_context(ctx, 0));
  std::unique_ptr<JsonAgg> agg(slot ? *slot : nullptr);
  if (!agg || agg->rows.empty()) {
    sqlite3_result_null(ctx);
    return;
  }
  AggregateOrder order(agg->flags);
  std::stable_sort(agg->rows.begin(), agg->rows.end(),
                   [&](const JsonAgg::Row& x, const JsonAgg::Row& y) {
                     return order.Less(x.keys, y.keys);
                   });
  const types::TypeContext& storage = ArrayStorageContext();
  const types::TypeContext& session = AggRuntime(ctx)->hooks()->type_context();
  const bool object = agg->second_type != 0;
  const bool jsonb = agg->name.rfind("jsonb", 0) == 0;
  PgError error;
  // Each value's JSON text.
  auto json_of = [&](uint32_t type, const SValue& v, std::string* out) {
    Value text;
    return FromSValue(type, v, storage, &text, &error) &&
           expr_detail::ValueToJson(type, text, session, out, &error);
  };
  // json_agg puts a line break before each structured value (a row or an
  // array) after the first: ", \n ".
  const bool structured =
      !object && (agg->name.ends_with(":composite") ||
                  types::ArrayElementType(agg->value_type) != 0);
  std::vector<bool> is_null;
  std::vector<std::string> items;
  for (const auto& row : agg->rows) {
    is_null.push_back(row.value.kind == SKind::kNull);
    std::string value;
    if (!object) {
      if (!json_of(agg->value_type, row.value, &value))
        return FailAgg(ctx, error);
      items.push_back(std::move(value));
      continue;
    }
    // The field name: the key's text, as a JSON string.
    Value name;
    std::string name_text;
    if (!FromSValue(agg->value_type, row.value, storage, &name, &error) ||
        !types::Cast(agg->value_type, oid::kText, -1, *name, session,
                     &name_text, &error) ||
        !json_of(agg->second_type, row.second, &value))
      return FailAgg(ctx, error);
    std::string field;
    if (!expr_detail::ValueToJson(oid::kText, name_text, session, &field,
                                  &error))
      return FailAgg(ctx, error);
    items.push_back(field + " : " + value);
  }
  if (agg->distinct) {
    // DISTINCT compares the JSON texts; PostgreSQL requires any ORDER BY
    // to be the argument itself, so the sorted order stays.
    std::vector<std::string> unique;
    std::vector<bool> unique_null;
    for (size_t i = 0; i < items.size(); i++)
      if (std::find(unique.begin(), unique.end(), items[i]) == unique.end()) {
        unique.push_back(std::move(items[i]));
        unique_null.push_back(is_null[i]);
      }
    items = std::move(unique);
    is_null = std::move(unique_null);
  }
  std::string out = object ? "{ " : "[";
  for (size_t i = 0; i < items.size(); i++) {
    if (i) out += ", ";
    if (i && structured && !jsonb && !is_null[i]) out += "\n ";
    out += items[i];
  }
  out += object ? " }" : "]";
  if (jsonb) {
    // jsonb's own form: keys sorted and unique (the last one wins), its
    // spacing.
    std::string canonical;
    if (!types::InputText(oid::kJsonb, -1, out, session, &canonical, &error))
      return FailAgg(ctx, error);
    out = std::move(canonical);
  }
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()),
                      SQLITE_TRANSIENT);
}

}  // namespace

int RegisterJsonAggregates(sqlite3* db, SqlRuntime* runtime) {
  return sqlite3_create_function(db, "kova_json_agg", -1, SQLITE_UTF8, runtime,
                                 nullptr, JsonAggStep, JsonAggFinal);
}

}  // namespace kova::planner
