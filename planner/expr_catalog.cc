// The built-in function and operator signatures the expression layer
// resolves calls against (a subset of pg_proc and pg_operator).
#include "planner/expr_internal.h"

namespace kova::planner::expr_detail {

namespace {

constexpr uint32_t B = oid::kBool;
constexpr uint32_t I2 = oid::kInt2;
constexpr uint32_t I4 = oid::kInt4;
constexpr uint32_t I8 = oid::kInt8;
constexpr uint32_t F4 = oid::kFloat4;
constexpr uint32_t F8 = oid::kFloat8;
constexpr uint32_t N = oid::kNumeric;
constexpr uint32_t T = oid::kText;
constexpr uint32_t BP = oid::kBpchar;
constexpr uint32_t NM = oid::kName;
constexpr uint32_t BY = oid::kBytea;
constexpr uint32_t D = oid::kDate;
constexpr uint32_t TM = oid::kTime;
constexpr uint32_t TS = oid::kTimestamp;
constexpr uint32_t TZ = oid::kTimestamptz;
constexpr uint32_t IV = oid::kInterval;
constexpr uint32_t J = oid::kJson;
constexpr uint32_t JB = oid::kJsonb;
constexpr uint32_t U = oid::kUuid;

}  // namespace

namespace {
std::vector<FunctionDef> BuiltinFunctions();
}  // namespace

const std::vector<FunctionDef>& Functions() {
  static const std::vector<FunctionDef> defs = [] {
    std::vector<FunctionDef> d = BuiltinFunctions();
    // has_table_privilege and its family (privileges.cc).
    for (FunctionDef& f : PrivilegeFunctionDefs()) d.push_back(std::move(f));
    return d;
  }();
  return defs;
}

namespace {

std::vector<FunctionDef> BuiltinFunctions() {
  return {
      {"version", {}, T},
      {"current_database", {}, NM},
      {"current_schema", {}, NM},
      {"current_user", {}, NM},
      {"session_user", {}, NM},
      {"pg_backend_pid", {}, I4},
      {"pg_is_in_recovery", {}, B},
      {"current_setting", {T}, T},
      {"current_setting", {T, B}, T},
      {"set_config", {T, T, B}, T},
      {"pg_sleep", {F8}, oid::kVoid},
      {"now", {}, TZ},
      {"transaction_timestamp", {}, TZ},
      {"statement_timestamp", {}, TZ},
      {"clock_timestamp", {}, TZ},
      {"timeofday", {}, T},
      // Strings.
      {"length", {T}, I4},
      {"length", {BP}, I4},
      {"length", {BY}, I4},
      {"char_length", {T}, I4},
      {"char_length", {BP}, I4},
      {"character_length", {T}, I4},
      {"character_length", {BP}, I4},
      {"octet_length", {T}, I4},
      {"octet_length", {BP}, I4},
      {"octet_length", {BY}, I4},
      {"bit_length", {T}, I4},
      {"bit_length", {BY}, I4},
      {"lower", {T}, T},
      {"upper", {T}, T},
      {"initcap", {T}, T},
      {"substring", {T, I4, I4}, T},
      {"substring", {T, I4}, T},
      {"substring", {T, T}, T},
      {"substring", {T, T, T}, T},
      {"substr", {T, I4, I4}, T},
      {"substr", {T, I4}, T},
      {"position", {T, T}, I4},
      {"strpos", {T, T}, I4},
      {"btrim", {T, T}, T},
      {"btrim", {T}, T},
      {"ltrim", {T, T}, T},
      {"ltrim", {T}, T},
      {"rtrim", {T, T}, T},
      {"rtrim", {T}, T},
      {"replace", {T, T, T}, T},
      {"left", {T, I4}, T},
      {"right", {T, I4}, T},
      {"lpad", {T, I4, T}, T},
      {"lpad", {T, I4}, T},
      {"rpad", {T, I4, T}, T},
      {"rpad", {T, I4}, T},
      {"repeat", {T, I4}, T},
      {"reverse", {T}, T},
      {"split_part", {T, T, I4}, T},
      {"md5", {T}, T},
      {"md5", {BY}, T},
      {"encode", {BY, T}, T},
      {"decode", {T, T}, BY},
      {"sha224", {BY}, BY},
      {"sha256", {BY}, BY},
      {"sha384", {BY}, BY},
      {"sha512", {BY}, BY},
      {"overlay", {T, T, I4, I4}, T},
      {"overlay", {T, T, I4}, T},
      {"ascii", {T}, I4},
      {"chr", {I4}, T},
      {"to_hex", {I4}, T},
      {"to_hex", {I8}, T},
      {"quote_ident", {T}, T},
      {"quote_literal", {T}, T},
      {"quote_nullable", {T}, T},
      {"starts_with", {T, T}, B},
      {"translate", {T, T, T}, T},
      {"regexp_replace", {T, T, T}, T},
      {"regexp_replace", {T, T, T, T}, T},
      {"regexp_like", {T, T}, B},
      {"regexp_like", {T, T, T}, B},
      {"regexp_match", {T, T}, 1009},  // text[]
      {"regexp_match", {T, T, T}, 1009},
      // regexp_matches' rows as JSON (select-list SRF, query_array.cc).
      {"kova_regexp_matches", {T, T}, 114},
      {"kova_regexp_matches", {T, T, T}, 114},
      {"regexp_split_to_array", {T, T}, 1009},
      {"regexp_split_to_array", {T, T, T}, 1009},
      {"regexp_count", {T, T}, I4},
      {"regexp_count", {T, T, I4}, I4},
      {"like_escape", {T, T}, T},
      {"similar_to_escape", {T}, T},
      {"similar_to_escape", {T, T}, T},
      {"gen_random_uuid", {}, U},
      // Math.
      {"abs", {I2}, I2},
      {"abs", {I4}, I4},
      {"abs", {I8}, I8},
      {"abs", {F4}, F4},
      {"abs", {F8}, F8},
      {"abs", {N}, N},
      {"round", {F8}, F8},
      {"round", {N}, N},
      {"round", {N, I4}, N},
      {"trunc", {F8}, F8},
      {"trunc", {N}, N},
      {"trunc", {N, I4}, N},
      {"ceil", {F8}, F8},
      {"ceil", {N}, N},
      {"ceiling", {F8}, F8},
      {"ceiling", {N}, N},
      {"floor", {F8}, F8},
      {"floor", {N}, N},
      {"sign", {F8}, F8},
      {"sign", {N}, N},
      {"mod", {I2, I2}, I2},
      {"mod", {I4, I4}, I4},
      {"mod", {I8, I8}, I8},
      {"mod", {N, N}, N},
      {"div", {N, N}, N},
      {"power", {F8, F8}, F8},
      {"power", {N, N}, N},
      {"pow", {F8, F8}, F8},
      {"pow", {N, N}, N},
      {"sqrt", {F8}, F8},
      {"sqrt", {N}, N},
      {"cbrt", {F8}, F8},
      {"exp", {F8}, F8},
      {"exp", {N}, N},
      {"ln", {F8}, F8},
      {"ln", {N}, N},
      {"log", {F8}, F8},
      {"log", {N}, N},
      {"log", {N, N}, N},
      {"log10", {F8}, F8},
      {"log10", {N}, N},
      {"pi", {}, F8},
      {"random", {}, F8},
      {"setseed", {F8}, oid::kVoid},
      {"degrees", {F8}, F8},
      {"radians", {F8}, F8},
      {"sin", {F8}, F8},
      {"cos", {F8}, F8},
      {"tan", {F8}, F8},
      {"asin", {F8}, F8},
      {"acos", {F8}, F8},
      {"atan", {F8}, F8},
      {"atan2", {F8, F8}, F8},
      {"gcd", {I4, I4}, I4},
      {"gcd", {I8, I8}, I8},
      {"gcd", {N, N}, N},
      {"lcm", {I4, I4}, I4},
      {"lcm", {I8, I8}, I8},
      {"lcm", {N, N}, N},
      {"scale", {N}, I4},
      {"min_scale", {N}, I4},
      {"trim_scale", {N}, N},
      {"factorial", {I8}, N},
      {"width_bucket", {F8, F8, F8, I4}, I4},
      {"width_bucket", {N, N, N, I4}, I4},
      // Date and time.
      {"date_part", {T, TS}, F8},
      {"date_part", {T, TZ}, F8},
      {"date_part", {T, D}, F8},
      {"date_part", {T, TM}, F8},
      {"date_part", {T, IV}, F8},
      {"extract", {T, TS}, N},
      {"extract", {T, TZ}, N},
      {"extract", {T, D}, N},
      {"extract", {T, TM}, N},
      {"extract", {T, IV}, N},
      {"date_trunc", {T, TS}, TS},
      {"date_trunc", {T, TZ}, TZ},
      {"date_trunc", {T, IV}, IV},
      {"date_trunc", {T, TZ, T}, TZ},
      {"age", {TS}, IV},
      {"age", {TZ}, IV},
      {"age", {TS, TS}, IV},
      {"age", {TZ, TZ}, IV},
      {"make_date", {I4, I4, I4}, D},
      {"make_time", {I4, I4, F8}, TM},
      {"make_timestamp", {I4, I4, I4, I4, I4, F8}, TS},
      {"make_timestamptz", {I4, I4, I4, I4, I4, F8}, TZ},
      {"make_timestamptz", {I4, I4, I4, I4, I4, F8, T}, TZ},
      {"make_interval", {}, IV},
      {"make_interval", {I4}, IV},
      {"make_interval", {I4, I4}, IV},
      {"make_interval", {I4, I4, I4}, IV},
      {"make_interval", {I4, I4, I4, I4}, IV},
      {"make_interval", {I4, I4, I4, I4, I4}, IV},
      {"make_interval", {I4, I4, I4, I4, I4, I4}, IV},
      {"make_interval", {I4, I4, I4, I4, I4, I4, F8}, IV},
      {"to_char", {TS, T}, T},
      {"to_char", {TZ, T}, T},
      {"to_char", {IV, T}, T},
      {"to_char", {N, T}, T},
      {"to_char", {I4, T}, T},
      {"to_char", {I8, T}, T},
      {"to_char", {F4, T}, T},
      {"to_char", {F8, T}, T},
      {"to_date", {T, T}, D},
      {"to_timestamp", {F8}, TZ},
      {"to_timestamp", {T, T}, TZ},
      {"to_number", {T, T}, N},
      {"justify_days", {IV}, IV},
      {"justify_hours", {IV}, IV},
      {"justify_interval", {IV}, IV},
      {"isfinite", {D}, B},
      {"isfinite", {TS}, B},
      {"isfinite", {TZ}, B},
      {"isfinite", {IV}, B},
      {"timezone", {T, TS}, TZ},
      {"timezone", {T, TZ}, TS},
      // JSON.
      {"json_typeof", {J}, T},
      {"jsonb_typeof", {JB}, T},
      {"jsonb_pretty", {JB}, T},
      {"json_array_length", {J}, I4},
      {"jsonb_array_length", {JB}, I4},
      {"json_extract_path_text", {J, T}, T},
      {"jsonb_extract_path_text", {JB, T}, T},
      // Session functions (SessionHooks::CallSessionFunction). regclass
      // arguments are taken as text naming the relation.
      {"nextval", {T}, I8},
      {"currval", {T}, I8},
      {"lastval", {}, I8},
      {"setval", {T, I8}, I8},
      {"setval", {T, I8, B}, I8},
      {"pg_get_serial_sequence", {T, T}, T},
      {"kova.command", {T, JB}, JB},
      {"pg_notify", {T, T}, oid::kVoid},
      {"pg_cancel_backend", {I4}, B},
      {"pg_terminate_backend", {I4}, B},
      {"pg_terminate_backend", {I4, I8}, B},
      {"kova_activity_rows", {}, T},
      {"kova_lock_rows", {}, T},
      {"txid_current", {}, I8},
      {"txid_current_if_assigned", {}, I8},
      {"pg_current_xact_id", {}, oid::kXid8},
      {"pg_current_xact_id_if_assigned", {}, oid::kXid8},
      {"xid", {oid::kXid8}, oid::kXid},
      {"jsonb_set", {JB, T, JB}, JB},
      {"jsonb_set", {JB, T, JB, B}, JB},
      {"jsonb_set", {JB, 1009, JB}, JB},
      {"jsonb_set", {JB, 1009, JB, B}, JB},
      {"jsonb_insert", {JB, T, JB}, JB},
      {"jsonb_insert", {JB, T, JB, B}, JB},
      {"jsonb_insert", {JB, 1009, JB}, JB},
      {"jsonb_insert", {JB, 1009, JB, B}, JB},
      {"json_strip_nulls", {J}, J},
      {"jsonb_strip_nulls", {JB}, JB},
      // Advisory locks (advisory_locks.cc): a bigint key or two int keys.
      {"pg_advisory_lock", {I8}, oid::kVoid},
      {"pg_advisory_lock", {I4, I4}, oid::kVoid},
      {"pg_advisory_lock_shared", {I8}, oid::kVoid},
      {"pg_advisory_lock_shared", {I4, I4}, oid::kVoid},
      {"pg_advisory_xact_lock", {I8}, oid::kVoid},
      {"pg_advisory_xact_lock", {I4, I4}, oid::kVoid},
      {"pg_advisory_xact_lock_shared", {I8}, oid::kVoid},
      {"pg_advisory_xact_lock_shared", {I4, I4}, oid::kVoid},
      {"pg_try_advisory_lock", {I8}, B},
      {"pg_try_advisory_lock", {I4, I4}, B},
      {"pg_try_advisory_lock_shared", {I8}, B},
      {"pg_try_advisory_lock_shared", {I4, I4}, B},
      {"pg_try_advisory_xact_lock", {I8}, B},
      {"pg_try_advisory_xact_lock", {I4, I4}, B},
      {"pg_try_advisory_xact_lock_shared", {I8}, B},
      {"pg_try_advisory_xact_lock_shared", {I4, I4}, B},
      {"pg_advisory_unlock", {I8}, B},
      {"pg_advisory_unlock", {I4, I4}, B},
      {"pg_advisory_unlock_shared", {I8}, B},
      {"pg_advisory_unlock_shared", {I4, I4}, B},
      {"pg_advisory_unlock_all", {}, oid::kVoid},
      // pg_catalog functions over the catalog (system_functions.cc).
      {"pg_get_userbyid", {oid::kOid}, NM},
      {"pg_table_is_visible", {oid::kOid}, B},
      {"pg_type_is_visible", {oid::kOid}, B},
      {"pg_function_is_visible", {oid::kOid}, B},
      {"pg_operator_is_visible", {oid::kOid}, B},
      {"pg_opclass_is_visible", {oid::kOid}, B},
      {"pg_opfamily_is_visible", {oid::kOid}, B},
      {"pg_conversion_is_visible", {oid::kOid}, B},
      {"pg_statistics_obj_is_visible", {oid::kOid}, B},
      {"pg_ts_config_is_visible", {oid::kOid}, B},
      {"pg_ts_dict_is_visible", {oid::kOid}, B},
      {"pg_ts_parser_is_visible", {oid::kOid}, B},
      {"pg_ts_template_is_visible", {oid::kOid}, B},
      {"pg_tablespace_location", {oid::kOid}, T},
      {"to_regtype", {T}, kRegtypeOid},
      {"pg_database_size", {NM}, I8},
      {"pg_database_size", {oid::kOid}, I8},
      {"pg_tablespace_size", {NM}, I8},
      {"pg_tablespace_size", {oid::kOid}, I8},
      {"getdatabaseencoding", {}, NM},
      {"pg_collation_is_visible", {oid::kOid}, B},
      {"pg_char_to_encoding", {NM}, I4},
      {"pg_relation_is_publishable", {oid::kOid}, B},
      {"pg_size_pretty", {I8}, T},
      {"pg_size_pretty", {N}, T},
      {"pg_size_bytes", {T}, I8},
      {"pg_table_size", {oid::kOid}, I8},
      {"pg_relation_size", {oid::kOid}, I8},
      {"pg_total_relation_size", {oid::kOid}, I8},
      {"pg_indexes_size", {oid::kOid}, I8},
      {"obj_description", {oid::kOid, NM}, T},
      {"obj_description", {oid::kOid}, T},
      {"shobj_description", {oid::kOid, NM}, T},
      {"col_description", {oid::kOid, I4}, T},
      {"format_type", {oid::kOid, I4}, T},
      {"pg_get_expr", {T, oid::kOid}, T},
      {"pg_get_expr", {T, oid::kOid, B}, T},
      // The relation given as a regclass literal (read as its name).
      {"pg_get_expr", {T, T}, T},
      {"pg_get_indexdef", {oid::kOid}, T},
      {"pg_get_indexdef", {oid::kOid, I4, B}, T},
      {"pg_get_constraintdef", {oid::kOid}, T},
      {"pg_get_constraintdef", {oid::kOid, B}, T},
      {"pg_get_viewdef", {oid::kOid}, T},
      {"pg_get_viewdef", {oid::kOid, B}, T},
      {"pg_encoding_to_char", {I4}, NM},
      // Kova has no partitions: a relation is its only ancestor (its
      // regclass, the name).
      {"pg_partition_ancestors", {oid::kOid}, T},
      // A relation name read as regclassin reads it, or NULL.
      {"to_regclass", {T}, T},
      {"pg_get_statisticsobjdef_columns", {oid::kOid}, T},
      {"pg_get_triggerdef", {oid::kOid}, T},
      {"pg_get_triggerdef", {oid::kOid, B}, T},
      // aclitem[] is read as text[].
      {"acldefault", {T, oid::kOid}, 1009},
      {"acldefault", {BP, oid::kOid}, 1009},
      {"pg_get_function_result", {oid::kOid}, T},
      {"pg_get_function_arguments", {oid::kOid}, T},
      {"pg_get_function_identity_arguments", {oid::kOid}, T},
      {"pg_get_function_sqlbody", {oid::kOid}, T},
  };
}

}  // namespace

const std::vector<FunctionDef>& Operators() {
  static const std::vector<FunctionDef> defs = [] {
    std::vector<FunctionDef> d;
    const uint32_t ints[] = {I2, I4, I8};
    // Arithmetic among integers: the wider type.
    for (uint32_t a : ints) {
      for (uint32_t b : ints) {
        uint32_t r = a == I8 || b == I8 ? I8 : a == I4 || b == I4 ? I4 : I2;
        for (const char* op : {"+", "-", "*", "/"})
          d.push_back({op, {a, b}, r});
        if (a == b) d.push_back({"%", {a, b}, r});
      }
    }
    for (const char* op : {"+", "-", "*", "/"}) {
      d.push_back({op, {F4, F4}, F4});
      d.push_back({op, {F8, F8}, F8});
      d.push_back({op, {F4, F8}, F8});
      d.push_back({op, {F8, F4}, F8});
      d.push_back({op, {N, N}, N});
    }
    for (uint32_t t : ints) {
      for (const char* op : {"&", "|", "#"}) d.push_back({op, {t, t}, t});
      d.push_back({"<<", {t, I4}, t});
      d.push_back({">>", {t, I4}, t});
      d.push_back({"~", {t}, t});
    }
    d.push_back({"%", {N, N}, N});
    d.push_back({"^", {F8, F8}, F8});
    d.push_back({"^", {N, N}, N});
    for (uint32_t t : {I2, I4, I8, F4, F8, N}) {
      d.push_back({"-", {t}, t});
      d.push_back({"+", {t}, t});
      d.push_back({"@", {t}, t});
    }
    d.push_back({"|/", {F8}, F8});
    d.push_back({"||/", {F8}, F8});
    d.push_back({"-", {IV}, IV});
    d.push_back({"+", {IV}, IV});  // not in PostgreSQL; removed below
    d.pop_back();
    // Comparisons.
    std::vector<std::pair<uint32_t, uint32_t>> cmp;
    for (uint32_t a : ints)
      for (uint32_t b : ints) cmp.push_back({a, b});
    cmp.push_back({F4, F4});
    cmp.push_back({F8, F8});
    cmp.push_back({F4, F8});
    cmp.push_back({F8, F4});
    for (uint32_t t :
         {N, T, BP, NM, B, D, TM, TS, TZ, IV, U, BY, JB, oid::kOid})
      cmp.push_back({t, t});
    cmp.push_back({NM, T});
    cmp.push_back({T, NM});
    for (uint32_t a : {D, TS, TZ})
      for (uint32_t b : {D, TS, TZ})
        if (a != b) cmp.push_back({a, b});
    for (const auto& [a, b] : cmp)
      for (const char* op : {"=", "<>", "<", ">", "<=", ">="})
        d.push_back({op, {a, b}, B});
    // tid and xid8 are ordered; xid and cid only compare for equality
    // (xid also with an integer), as in PostgreSQL.
    for (uint32_t t : {oid::kTid, oid::kXid8})
      for (const char* op : {"=", "<>", "<", ">", "<=", ">="})
        d.push_back({op, {t, t}, B});
    for (const char* op : {"=", "<>"}) {
      d.push_back({op, {oid::kXid, oid::kXid}, B});
      d.push_back({op, {oid::kXid, I4}, B});
    }
    d.push_back({"=", {oid::kCid, oid::kCid}, B});
    // Strings.
    d.push_back({"||", {T, T}, T});
    d.push_back({"||", {kAnyNonArray, T}, T});
    d.push_back({"||", {T, kAnyNonArray}, T});
    d.push_back({"||", {BY, BY}, BY});
    d.push_back({"||", {JB, JB}, JB});
    for (const char* op :
         {"~~", "!~~", "~~*", "!~~*", "~", "!~", "~*", "!~*"}) {
      d.push_back({op, {T, T}, B});
      d.push_back({op, {BP, T}, B});
      d.push_back({op, {NM, T}, B});
    }
    d.push_back({"^@", {T, T}, B});
    // Date and time.
    d.push_back({"+", {D, I4}, D});
    d.push_back({"+", {I4, D}, D});
    d.push_back({"-", {D, I4}, D});
    d.push_back({"-", {D, D}, I4});
    d.push_back({"+", {D, IV}, TS});
    d.push_back({"+", {IV, D}, TS});
    d.push_back({"-", {D, IV}, TS});
    d.push_back({"+", {D, TM}, TS});
    d.push_back({"+", {TM, D}, TS});
    for (uint32_t t : {TS, TZ}) {
      d.push_back({"+", {t, IV}, t});
      d.push_back({"+", {IV, t}, t});
      d.push_back({"-", {t, IV}, t});
      d.push_back({"-", {t, t}, IV});
    }
    d.push_back({"+", {TM, IV}, TM});
    d.push_back({"+", {IV, TM}, TM});
    d.push_back({"-", {TM, IV}, TM});
    d.push_back({"-", {TM, TM}, IV});
    d.push_back({"+", {IV, IV}, IV});
    d.push_back({"-", {IV, IV}, IV});
    d.push_back({"*", {IV, F8}, IV});
    d.push_back({"*", {F8, IV}, IV});
    d.push_back({"/", {IV, F8}, IV});
    // JSON.
    d.push_back({"->", {J, T}, J});
    d.push_back({"->", {J, I4}, J});
    d.push_back({"->>", {J, T}, T});
    d.push_back({"->>", {J, I4}, T});
    d.push_back({"->", {JB, T}, JB});
    d.push_back({"->", {JB, I4}, JB});
    d.push_back({"->>", {JB, T}, T});
    d.push_back({"->>", {JB, I4}, T});
    d.push_back({"#>", {J, T}, J});
    d.push_back({"#>>", {J, T}, T});
    d.push_back({"#>", {JB, T}, JB});
    d.push_back({"#>>", {JB, T}, T});
    d.push_back({"@>", {JB, JB}, B});
    d.push_back({"<@", {JB, JB}, B});
    d.push_back({"?", {JB, T}, B});
    d.push_back({"?|", {JB, 1009}, B});
    d.push_back({"?&", {JB, 1009}, B});
    d.push_back({"-", {JB, T}, JB});
    d.push_back({"-", {JB, I4}, JB});
    d.push_back({"#-", {JB, T}, JB});
    d.push_back({"#-", {JB, 1009}, JB});
    return d;
  }();
  return defs;
}

}  // namespace kova::planner::expr_detail
