// The pg_catalog functions over the catalog that psql and ORMs call
// (pg_get_userbyid, pg_table_is_visible, format_type, pg_get_indexdef, ...),
// evaluated by the session (they read its catalog and roles).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <unordered_set>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/expr_internal.h"
#include "planner/index_expr.h"
#include "planner/session_impl.h"
#include "planner/system_catalog.h"
#include "planner/system_catalog_internal.h"
#include "planner/types.h"

namespace kova::planner {
using namespace expr_detail;

namespace {

// PostgreSQL's encodings by number (pg_wchar.h's pg_enc).
const char* const kEncodingNames[] = {
    "SQL_ASCII",    "EUC_JP",        "EUC_CN",        "EUC_KR",     "EUC_TW",
    "EUC_JIS_2004", "UTF8",          "MULE_INTERNAL", "LATIN1",     "LATIN2",
    "LATIN3",       "LATIN4",        "LATIN5",        "LATIN6",     "LATIN7",
    "LATIN8",       "LATIN9",        "LATIN10",       "WIN1256",    "WIN1258",
    "WIN866",       "WIN874",        "KOI8R",         "WIN1251",    "WIN1252",
    "ISO_8859_5",   "ISO_8859_6",    "ISO_8859_7",    "ISO_8859_8", "WIN1250",
    "WIN1253",      "WIN1254",       "WIN1255",       "WIN1257",    "KOI8U",
    "SJIS",         "BIG5",          "GBK",           "UHC",        "GB18030",
    "JOHAB",        "SHIFT_JIS_2004"};

const char* const kSystemFunctions[] = {"pg_get_userbyid",
                                        "pg_table_is_visible",
                                        "pg_type_is_visible",
                                        "pg_function_is_visible",
                                        "pg_operator_is_visible",
                                        "pg_opclass_is_visible",
                                        "pg_opfamily_is_visible",
                                        "pg_conversion_is_visible",
                                        "pg_statistics_obj_is_visible",
                                        "pg_ts_config_is_visible",
                                        "pg_ts_dict_is_visible",
                                        "pg_ts_parser_is_visible",
                                        "pg_ts_template_is_visible",
                                        "pg_tablespace_location",
                                        "getdatabaseencoding",
                                        "pg_collation_is_visible",
                                        "pg_char_to_encoding",
                                        "pg_database_size",
                                        "pg_tablespace_size",
                                        "pg_size_pretty",
                                        "pg_size_bytes",
                                        "pg_table_size",
                                        "pg_relation_size",
                                        "pg_total_relation_size",
                                        "pg_indexes_size",
                                        "obj_description",
                                        "col_description",
                                        "shobj_description",
                                        "format_type",
                                        "pg_get_expr",
                                        "pg_get_indexdef",
                                        "pg_get_constraintdef",
                                        "pg_encoding_to_char",
                                        "pg_get_viewdef",
                                        "pg_relation_is_publishable",
                                        "pg_partition_ancestors",
                                        "pg_get_statisticsobjdef_columns",
                                        "pg_get_triggerdef",
                                        "kova_regclass_name",
                                        "kova_regclass_canon",
                                        "kova_regtype_name",
                                        "kova_regnamespace_name",
                                        "kova_regclass_oid",
                                        "to_regclass",
                                        "to_regtype",
                                        "kova_regnamespace_oid",
                                        "kova_lock_table",
                                        "kova_settings_rows",
                                        "kova_acl_rows",
                                        "acldefault",
                                        "pg_get_function_result",
                                        "pg_get_function_arguments",
                                        "pg_get_function_identity_arguments",
                                        "pg_get_function_sqlbody"};

// The parts of a relation name as regclassin reads it
// (stringToQualifiedNameList, then makeRangeVarFromNameList and
// RangeVarGetRelidExtended's check of the database name): [schema.]name,
// a leading database part only when it names the current database.
bool RegclassParts(const std::string& text, const std::string& database,
                   std::vector<std::string>* parts, PgError* error) {
  using system_catalog::SplitName;
  if (!SplitName(text, parts)) {
    *error = Err("42602", "invalid name syntax");
    return false;
  }
  if (parts->size() > 3) {
    std::string joined;
    for (size_t i = 0; i < parts->size(); i++)
      joined += (i ? "." : "") + (*parts)[i];
    *error = Err("42601",
                 "improper relation name (too many dotted names): " + joined);
    return false;
  }
  if (parts->size() == 3) {
    if ((*parts)[0] != database) {
      *error =
          Err("0A000", "cross-database references are not implemented: \"" +
                           (*parts)[0] + "." + (*parts)[1] + "." + (*parts)[2] +
                           "\"");
      return false;
    }
    parts->erase(parts->begin());
  }
  return true;
}

}  // namespace

namespace expr_detail {

bool RegCastName(const std::string& kind, std::unique_ptr<Expr> arg,
                 SessionHooks* hooks, std::unique_ptr<Expr>* out) {
  (void)hooks;
  if (arg->type != oid::kOid && !IsInteger(arg->type)) return false;
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = "kova_" + kind + "_name";
  e->type = kind == "regtype" ? kRegtypeOid : oid::kText;
  e->location = arg->location;
  e->args.push_back(std::move(arg));
  *out = std::move(e);
  return true;
}

bool ParseTypeString(std::string_view text, uint32_t* type, int32_t* typmod,
                     PgError* error) {
  // As PostgreSQL's parseTypeString: the text must be a type name alone.
  std::string sql = "SELECT CAST(NULL AS " + std::string(text) + ")";
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  const PgQuery__Node* target = nullptr;
  if (!sql::ParseTree::Parse(sql, &tree, &syntax)) {
    *error = Err("42601", syntax.message);
    error->context = "invalid type name \"" + std::string(text) + "\"";
    return false;
  }
  if (tree->size() == 1) {
    const PgQuery__Node* stmt = tree->statement(0).stmt;
    if (stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
        stmt->select_stmt->n_target_list == 1 &&
        !stmt->select_stmt->n_from_clause)
      target = stmt->select_stmt->target_list[0]->res_target->val;
  }
  if (!target || target->node_case != PG_QUERY__NODE__NODE_TYPE_CAST ||
      target->type_cast->arg->node_case != PG_QUERY__NODE__NODE_A_CONST) {
    *error = Err("22P02", "invalid type name \"" + std::string(text) + "\"");
    return false;
  }
  return ResolveTypeName(target->type_cast->type_name, type, typmod, error);
}

std::unique_ptr<Expr> RegtypeConst(uint32_t type, int location) {
  // The value is regtypeout's text, which never shows a type modifier
  // (character varying, not character varying(3)) and calls bpchar
  // "character"; the OID rides along for ::oid.
  uint32_t element = types::ArrayElementType(type);
  std::string name = types::FormatTypeName(type, -1);
  if ((element ? element : type) == oid::kBpchar)
    name = element ? "character[]" : "character";
  auto e = Const(kRegtypeOid, name, location);
  e->table_oid = type;
  return e;
}

bool NormalizeRegclassLiteral(SessionHooks* hooks, Expr* e, PgError* error) {
  if (e->kind != Expr::Kind::kConst || !e->value) return true;
  e->name = "regclass";
  // regclassin reads the literal when the statement is analysed: the
  // relation must exist then, and the value is its name as regclassout
  // prints it (catalogs too: 'pg_class'::regclass shows pg_class; compared
  // with an oid column, the oid side becomes a name).
  if (!hooks) return true;
  Value canon;
  if (!hooks->CallSessionFunction("kova_regclass_canon", {e->value}, &canon,
                                  error))
    return false;
  if (canon) e->value = canon;
  return true;
}

bool IsRegclassValue(const Expr& e) {
  return (e.kind == Expr::Kind::kConst && e.name == "regclass") ||
         (e.kind == Expr::Kind::kFunction &&
          (e.name == "kova_regclass_name" || e.name == "to_regclass" ||
           e.name == "pg_partition_ancestors"));
}

std::unique_ptr<Expr> RegclassNameOf(std::unique_ptr<Expr> oid_expr) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->name = "kova_regclass_name";
  e->type = oid::kText;
  e->location = oid_expr->location;
  e->args.push_back(std::move(oid_expr));
  return e;
}

bool IsSystemFunction(const std::string& name) {
  // Asked on every function call a statement evaluates (nextval too): a
  // hash lookup instead of a scan of the whole list.
  static const std::unordered_set<std::string_view> names(
      std::begin(kSystemFunctions), std::end(kSystemFunctions));
  return names.count(name) != 0;
}
}  // namespace expr_detail

bool SessionImpl::CallSystemFunction(const std::string& name,
                                     const std::vector<Value>& args, Value* out,
                                     PgError* error) {
  using namespace system_catalog;
  *out = std::nullopt;
  // format_type is not strict (a NULL typmod means none); the rest are.
  if (name == "format_type") {
    if (!args[0]) return true;
    uint32_t type = static_cast<uint32_t>(std::stoul(*args[0]));
    int32_t typmod = args[1] ? std::stoi(*args[1]) : -1;
    if (type == 0) {
      *out = "-";
      return true;
    }
    uint32_t element = user_types::ArrayElement(type);
    if (!element) element = types::ArrayElementType(type);
    if (!types::LookupType(type) && !user_types::Find(type) && !element) {
      *out = "???";
      return true;
    }
    *out = types::FormatTypeName(type, typmod);
    // A user type outside the search path is shown with its schema.
    const catalog::UserType* user = user_types::Find(element ? element : type);
    if (user && LoadCatalog(error)) {
      bool visible = false;
      for (const auto& sp : SearchPathSchemas(true))
        if (catalog_->FindType(sp, user->name)) {
          visible = sp == user->schema;
          break;
        }
      if (!visible)
        *out = QuoteQualified(user->schema, user->name) + (element ? "[]" : "");
    }
    return true;
  }
  for (const auto& a : args)
    if (!a) return true;
  if (!LoadCatalog(error)) return false;
  const catalog::Catalog& cat = *catalog_;
  // An OID argument; 0 (no object) for one that is not a number, such as
  // a regclass pg_dump passes by name.
  auto oid_arg = [&](size_t i) -> uint32_t {
    if (i >= args.size() || !args[i]) return 0;
    const char* text = args[i]->c_str();
    char* end = nullptr;
    unsigned long long v = std::strtoull(text, &end, 10);
    if (end == text || *end != '\0' || v > 0xffffffffULL) return 0;
    return static_cast<uint32_t>(v);
  };
  if (name == "kova_settings_rows") {
    // pg_settings, one line a setting: name, value, description.
    std::string text;
    for (const auto& row : settings_.ShowAll())
      text += row[0] + '\t' + row[1] + '\t' + row[2] + '\n';
    *out = text;
    return true;
  }
  if (name == "kova_acl_rows") {
    // The GRANTs recorded in this database (dump_objects.cc), one line a
    // grantee: kind, schema, name, grantee, privileges (tab-separated).
    std::vector<docstore::Document> docs;
    bson_t filter = BSON_INITIALIZER;
    BSON_APPEND_UTF8(&filter, "kind", "acl");
    docstore::Status st = storage_->Find(database_, catalog::kObjectsCollection,
                                         &filter, {}, &docs);
    bson_destroy(&filter);
    if (!st.ok()) {
      *error = Err("XX000", "could not read privileges: " + st.message());
      return false;
    }
    auto field = [](const bson_t* doc, const char* key) {
      bson_iter_t it;
      return bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_UTF8(&it)
                 ? std::string(bson_iter_utf8(&it, nullptr))
                 : std::string();
    };
    std::string text;
    for (const auto& d : docs) {
      std::string head = field(d.bson(), "object_kind") + '\t' +
                         field(d.bson(), "schema") + '\t' +
                         field(d.bson(), "name");
      bson_iter_t it, entries, list;
      if (!bson_iter_init_find(&it, d.bson(), "entries") ||
          !BSON_ITER_HOLDS_DOCUMENT(&it) || !bson_iter_recurse(&it, &entries))
        continue;
      while (bson_iter_next(&entries)) {
        text += head + '\t' + bson_iter_key(&entries);
        if (BSON_ITER_HOLDS_ARRAY(&entries) &&
            bson_iter_recurse(&entries, &list))
          while (bson_iter_next(&list))
            if (BSON_ITER_HOLDS_UTF8(&list))
              text += '\t' + std::string(bson_iter_utf8(&list, nullptr));
        text += '\n';
      }
    }
    *out = text;
    return true;
  }
  if (name == "acldefault") {
    // The privileges an object has before any GRANT or REVOKE (acl.c's
    // acldefault): `kind` is the object type letter pg_dump passes.
    Value owner_name;
    if (!CallSystemFunction("pg_get_userbyid", {args[1]}, &owner_name, error))
      return false;
    std::string owner = QuoteAclRole(*owner_name);
    const std::string& kind = *args[0];
    auto item = [&](const std::string& grantee, const char* privs) {
      return grantee + "=" + privs + "/" + owner;
    };
    std::string acl;
    if (kind == "r")
      acl = item(owner, "arwdDxt");
    else if (kind == "s")
      acl = item(owner, "rwU");
    else if (kind == "d")
      acl = item("", "Tc") + "," + item(owner, "CTc");
    else if (kind == "f")
      acl = item("", "X") + "," + item(owner, "X");
    else if (kind == "l" || kind == "T")
      acl = item("", "U") + "," + item(owner, "U");
    else if (kind == "L")
      acl = item(owner, "rw");
    else if (kind == "n")
      acl = item(owner, "UC");
    else if (kind == "t")
      acl = item(owner, "C");
    else if (kind == "F" || kind == "S")
      acl = item(owner, "U");
    else if (kind != "c") {
      *error = Err("22023", "unrecognized object type abbreviation: " + kind);
      return false;
    }
    *out = "{" + acl + "}";
    return true;
  }
  if (name == "pg_get_function_result" || name == "pg_get_function_arguments" ||
      name == "pg_get_function_identity_arguments" ||
      name == "pg_get_function_sqlbody") {
    // Kova has no functions of its own to describe (pg_proc lists none).
    return true;
  }
  if (name == "kova_lock_table") {
    // LOCK TABLE. Readers never wait in Kova and a transaction's snapshot
    // already keeps what it reads, so ACCESS SHARE (what pg_dump takes)
    // is granted at once. Stronger modes take the database's write lock
    // for the rest of the transaction: every other writer waits, which
    // covers what each mode keeps out of the table (more than ROW SHARE
    // needs, and readers still read the last commit where ACCESS
    // EXCLUSIVE would make them wait).
    if (!in_block_) {
      *error =
          Err("25P01", "LOCK TABLE can only be used in transaction blocks");
      return false;
    }
    constexpr int kAccessShareLock = 1;  // lockdefs.h
    for (size_t i = 1; i < args.size(); i++) {
      const std::string& qualified = *args[i];
      size_t dot = qualified.find('.');
      std::string schema = qualified.substr(0, dot);
      std::string rel = qualified.substr(dot + 1);
      bool found = false;
      if (!schema.empty()) {
        found =
            cat.RelationExists(schema, rel) && !cat.FindIndexTable(schema, rel);
      } else {
        for (const auto& sp : SearchPathSchemas(true))
          if (cat.RelationExists(sp, rel) && !cat.FindIndexTable(sp, rel)) {
            found = true;
            break;
          }
      }
      if (!found) {
        *error =
            Err("42P01", "relation \"" + (schema.empty() ? rel : qualified) +
                             "\" does not exist");
        return false;
      }
    }
    const int mode = std::stoi(*args[0]);
    constexpr int kRowExclusiveLock = 3;
    if (mode > kRowExclusiveLock && !CheckWritable("LOCK TABLE", error))
      return false;
    if (mode != kAccessShareLock) {
      docstore::Status s = EnsureWriteTransaction();
      if (!s.ok()) {
        *error = TableError(s);
        return false;
      }
    }
    return true;
  }
  if (name == "pg_size_pretty") {
    // numeric too: its integral part (sizes are whole bytes).
    std::string text = *args[0];
    size_t dot = text.find('.');
    if (dot != std::string::npos) text.resize(dot);
    int64_t v = 0;
    if (!ToInt64(text, &v)) {
      *error = Err("22003", "bigint out of range");
      return false;
    }
    *out = SizePretty(v);
    return true;
  }
  if (name == "pg_size_bytes") {
    // "<number> [bytes|kB|MB|GB|TB|PB]", units of 1024, case-insensitive
    // (PostgreSQL 15: no "B").
    const std::string& text = *args[0];
    size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      i++;
    size_t start = i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) i++;
    while (
        i < text.size() &&
        (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      i++;
    std::string number = text.substr(start, i - start);
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      i++;
    std::string unit = text.substr(i);
    while (!unit.empty() &&
           std::isspace(static_cast<unsigned char>(unit.back())))
      unit.pop_back();
    std::string lower;
    for (char c : unit) lower += static_cast<char>(std::tolower(c));
    int shift = -1;
    if (lower.empty() || lower == "bytes")
      shift = 0;
    else if (lower == "kb")
      shift = 10;
    else if (lower == "mb")
      shift = 20;
    else if (lower == "gb")
      shift = 30;
    else if (lower == "tb")
      shift = 40;
    else if (lower == "pb")
      shift = 50;
    bool digits = number.find_first_of("0123456789") != std::string::npos;
    if (!digits) {
      *error = Err("22023", "invalid size: \"" + text + "\"");
      return false;
    }
    if (shift < 0) {
      *error = Err("22023", "invalid size: \"" + text + "\"");
      error->detail = "Invalid size unit: \"" + unit + "\".";
      error->hint =
          "Valid units are \"bytes\", \"kB\", \"MB\", \"GB\", \"TB\", "
          "and \"PB\".";
      return false;
    }
    long double value = std::strtold(number.c_str(), nullptr);
    value *= static_cast<long double>(int64_t{1} << shift);
    if (value >= 9.2233720368547758e18L || value < -9.2233720368547758e18L) {
      *error = Err("22003", "bigint out of range");
      return false;
    }
    *out = std::to_string(static_cast<int64_t>(std::llroundl(value)));
    return true;
  }
  if (name == "pg_encoding_to_char") {
    int id = std::atoi(args[0]->c_str());
    *out = id >= 0 && id < static_cast<int>(std::size(kEncodingNames))
               ? kEncodingNames[id]
               : "";
    return true;
  }
  if (name == "pg_char_to_encoding") {
    // pg_valid_server_encoding's names, any case; -1 for another.
    std::string wanted;
    for (char c : *args[0])
      wanted += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (wanted == "UNICODE") wanted = "UTF8";
    int found = -1;
    for (size_t i = 0; i < std::size(kEncodingNames); i++)
      if (wanted == kEncodingNames[i]) found = static_cast<int>(i);
    *out = std::to_string(found);
    return true;
  }
  if (name == "pg_get_userbyid") {
    uint32_t id = oid_arg(0);
    if (id == kBootstrapSuperuser) {
      *out = "postgres";
      return true;
    }
    if (id == kPgDatabaseOwner) {
      *out = "pg_database_owner";
      return true;
    }
    std::vector<ClusterRole> roles;
    ClusterObjects(&roles, nullptr);
    for (const auto& r : roles)
      if (RoleOid(r.name) == id) {
        *out = r.name;
        return true;
      }
    *out = "unknown (OID=" + *args[0] + ")";
    return true;
  }
  // Objects Kova has none of (their catalogs have no rows): PostgreSQL's
  // answer for an OID it does not know, NULL.
  if (name == "pg_operator_is_visible" || name == "pg_opclass_is_visible" ||
      name == "pg_opfamily_is_visible" || name == "pg_conversion_is_visible" ||
      name == "pg_statistics_obj_is_visible" || name.rfind("pg_ts_", 0) == 0) {
    *out = std::nullopt;
    return true;
  }
  if (name == "pg_database_size") {
    // By name, or by OID (the argument's text either way: digits that are
    // a database's OID name it).
    std::vector<ClusterDatabase> dbs;
    ClusterObjects(nullptr, &dbs);
    std::string db;
    bool digits = !args[0]->empty() &&
                  args[0]->find_first_not_of("0123456789") == std::string::npos;
    for (const auto& d : dbs)
      if (d.name == *args[0] ||
          (digits && std::to_string(DatabaseOid(d.name)) == *args[0]))
        db = d.name;
    if (db.empty()) {
      if (digits) return true;  // an OID no database has: NULL
      *error = Err("3D000", "database \"" + *args[0] + "\" does not exist");
      return false;
    }
    int64_t bytes = 0;
    docstore::Status st = storage_->DatabaseSize(db, &bytes);
    if (!st.ok()) {
      *error = TableError(st);
      return false;
    }
    *out = std::to_string(bytes);
    return true;
  }
  if (name == "pg_tablespace_size") {
    // pg_default holds every database: the data files; pg_global nothing
    // Kova keeps apart.
    std::string spc = *args[0];
    if (spc == "1663" || spc == "pg_default") {
      int64_t bytes = 0;
      storage_->FileSize(&bytes);
      *out = std::to_string(bytes);
    } else if (spc == "1664" || spc == "pg_global") {
      *out = "0";
    } else if (!spc.empty() &&
               std::isdigit(static_cast<unsigned char>(spc[0]))) {
      *error = Err("42704", "tablespace with OID " + spc + " does not exist");
      return false;
    } else {
      *error = Err("42704", "tablespace \"" + spc + "\" does not exist");
      return false;
    }
    return true;
  }
  if (name == "pg_collation_is_visible") {
    // Kova's collations (default, C, POSIX) are pg_catalog's: visible.
    uint32_t id = oid_arg(0);
    if (id == 100 || id == 950 || id == 951) *out = "t";
    return true;
  }
  if (name == "getdatabaseencoding") {
    *out = "UTF8";
    return true;
  }
  if (name == "pg_tablespace_location") {
    // pg_default and pg_global live in the data directory: ''. (0 is the
    // database's tablespace, pg_default.)
    uint32_t id = oid_arg(0);
    if (id == 0 || id == 1663 || id == 1664) *out = "";
    return true;
  }
  if (name == "pg_function_is_visible" ||
      name == "pg_relation_is_publishable") {
    *out = "f";
    return true;
  }
  if (name == "pg_type_is_visible") {
    uint32_t id = oid_arg(0);
    const catalog::UserType* t = cat.FindTypeByOid(id);
    if (!t) {
      *out = types::LookupType(id) ? "t" : "f";
      return true;
    }
    bool visible = false;
    for (const auto& s : SearchPathSchemas(true)) {
      if (cat.FindType(s, t->name)) {
        visible = s == t->schema;
        break;
      }
    }
    *out = visible ? "t" : "f";
    return true;
  }
  if (name == "obj_description" || name == "shobj_description") {
    uint32_t id = oid_arg(0);
    std::string klass = args.size() > 1 ? *args[1] : "pg_class";
    if (klass == "pg_namespace") {
      for (const auto& [n, sc] : cat.schemas())
        if (NamespaceOid(cat, n) == id && !sc.comment.empty())
          *out = sc.comment;
      return true;
    }
    if (klass == "pg_type") {
      if (const catalog::UserType* t = cat.FindTypeByOid(id))
        if (!t->comment.empty()) *out = t->comment;
      return true;
    }
    RelationRef rel;
    if (klass != "pg_class" || !FindRelation(cat, id, &rel)) return true;
    const std::string& c = rel.index   ? rel.index->comment
                           : rel.table ? rel.table->comment
                           : rel.view  ? rel.view->comment
                                       : rel.sequence->comment;
    if (!c.empty()) *out = c;
    return true;
  }
  if (name == "col_description") {
    RelationRef rel;
    if (!FindRelation(cat, oid_arg(0), &rel) || rel.kind != 'r') return true;
    int n = std::stoi(*args[1]);
    if (n < 1 || n > static_cast<int>(rel.table->columns.size())) return true;
    auto it = rel.table->column_comments.find(rel.table->columns[n - 1].name);
    if (it != rel.table->column_comments.end()) *out = it->second;
    return true;
  }
  auto visible_name = [&](const std::string& schema, const std::string& rel) {
    std::vector<std::string> path = SearchPathSchemas(true);
    // pg_catalog comes first unless the path places it.
    if (std::find(path.begin(), path.end(), "pg_catalog") == path.end())
      path.insert(path.begin(), "pg_catalog");
    for (const auto& s : path) {
      if (cat.RelationExists(s, rel) ||
          (s == "pg_catalog" && IsSystemRelation(rel)))
        return s == schema ? QuoteIdentifier(rel) : QuoteQualified(schema, rel);
    }
    return QuoteQualified(schema, rel);
  };
  if (name == "pg_get_expr") {
    // pg_attrdef.adbin holds the expression's text. A typed literal shows
    // its value as the type prints it now ('01-01-2020'::date under
    // DateStyle Postgres, MDY), as PostgreSQL's stored constant does.
    const std::string& e = *args[0];
    *out = e;
    size_t nextval = e.find("nextval('");
    size_t quote =
        nextval == std::string::npos ? nextval : e.find('\'', nextval + 9);
    size_t close = quote == std::string::npos ? quote : e.find(')', quote);
    RelationRef table;
    // A generation expression, deparsed as PostgreSQL shows it.
    if (args.size() > 1 && FindRelation(cat, oid_arg(1), &table) &&
        table.kind == 'r') {
      // A partial index's condition (pg_index.indpred).
      for (const auto& x : table.table->indexes) {
        if (x.predicate.empty() || x.predicate != e) continue;
        bool pretty = args.size() > 2 && args[2] && *args[2] == "t";
        *out = IndexPredicateText(*table.table, x, pretty);
        return true;
      }
      for (const auto& c : table.table->columns) {
        if (c.generated_expr.empty() || c.generated_expr != e) continue;
        bool pretty = args.size() > 2 && args[2] && *args[2] == "t";
        std::string text = CheckExpressionText(
            *table.table, e, pretty, type_context(), SchemaSearchPath(false));
        if (!text.empty()) *out = text;
        return true;
      }
    }
    if (close != std::string::npos && args.size() > 1 &&
        FindRelation(cat, oid_arg(1), &table) && table.kind == 'r') {
      // The sequence as the search path finds it now (pg_dump runs with
      // an empty one: schema-qualified), as a regclass literal.
      for (const auto& c : table.table->columns) {
        if (c.default_expr != e) continue;
        const catalog::Sequence* q = DefaultSequence(cat, *table.table, c);
        if (!q) break;
        std::string shown = visible_name(q->schema, q->name), quoted;
        for (char ch : shown) quoted += ch == '\'' ? "''" : std::string(1, ch);
        *out =
            e.substr(0, nextval + 9) + quoted + "'::regclass" + e.substr(close);
        return true;
      }
    }
    size_t cast = e.rfind("'::");
    if (e.size() > 4 && e[0] == '\'' && cast != std::string::npos && cast > 0) {
      std::string literal, canonical;
      for (size_t i = 1; i < cast; i++) {
        if (e[i] == '\'' && i + 1 < cast && e[i + 1] == '\'')
          i++;
        else if (e[i] == '\'')
          return true;
        literal += e[i];
      }
      const types::TypeInfo* info = types::LookupTypeByName(e.substr(cast + 3));
      PgError ignored;
      if (info && types::InputText(info->oid, -1, literal, type_context(),
                                   &canonical, &ignored))
        *out = SqlQuoteLiteral(canonical) + e.substr(cast + 1);
    }
    return true;
  }

  if (name == "kova_regnamespace_name") {
    uint32_t id = oid_arg(0);
    for (const auto& [n, sc] : cat.schemas())
      if (n != "admin" && NamespaceOid(cat, n) == id) {
        *out = QuoteIdentifier(n);
        return true;
      }
    *out = *args[0];
    return true;
  }
  if (name == "kova_regnamespace_oid") {
    std::vector<std::string> parts;
    if (!SplitName(*args[0], &parts) || parts.size() != 1) {
      *error = Err("42602", "invalid name syntax");
      return false;
    }
    uint32_t id = parts[0] == "pg_catalog" ? kPgCatalogNamespace
                  : parts[0] == "pg_toast" ? kPgToastNamespace
                  : parts[0] == "information_schema"
                      ? kInformationSchemaNamespace
                  : parts[0] == "admin" ? 0
                                        : NamespaceOid(cat, parts[0]);
    if (!id) {
      *error = Err("3F000", "schema \"" + parts[0] + "\" does not exist");
      return false;
    }
    *out = std::to_string(id);
    return true;
  }
  if (name == "kova_regtype_name") {
    uint32_t id = oid_arg(0);
    *out = id == 0 ? "-"
           : (types::LookupType(id) || user_types::Find(id))
               ? types::FormatTypeName(id, -1)
               : *args[0];
    return true;
  }
  if (name == "kova_regclass_canon") {
    const std::string& text = *args[0];
    if (text == "-") {  // InvalidOid
      *out = text;
      return true;
    }
    if (!text.empty() &&
        text.find_first_not_of("0123456789") == std::string::npos) {
      // An OID, as oidin reads it.
      uint64_t value = 0;
      for (char c : text) {
        value = value * 10 + static_cast<uint64_t>(c - '0');
        if (value > 0xFFFFFFFFu) {
          *error = Err("22003",
                       "value \"" + text + "\" is out of range for type oid");
          return false;
        }
      }
      RelationRef rel;
      uint32_t id = static_cast<uint32_t>(value);
      if (id == 0) {
        *out = "-";
        return true;
      }
      for (const auto& so : Relations())
        if (so.oid && so.oid == id) {
          *out = so.name;
          return true;
        }
      *out = FindRelation(cat, id, &rel) ? visible_name(rel.schema, rel.name)
                                         : text;
      return true;
    }
    std::vector<std::string> parts;
    if (!RegclassParts(text, database_, &parts, error)) return false;
    std::string rel = parts.back();
    std::vector<std::string> schemas;
    if (parts.size() == 2) {
      const std::string& sc = parts[0];
      std::string temp = TempSchemaName();
      if (sc != "pg_catalog" && sc != "information_schema" &&
          sc != "pg_toast" && sc != "admin" && !cat.FindSchema(sc) &&
          !(sc == "pg_temp" && !temp.empty())) {
        *error = Err("3F000", "schema \"" + sc + "\" does not exist");
        return false;
      }
      schemas.push_back(sc == "pg_temp" ? temp : sc);
    } else {
      schemas = SearchPathSchemas(true);
    }
    bool pg_catalog_listed = std::find(schemas.begin(), schemas.end(),
                                       "pg_catalog") != schemas.end();
    if (!pg_catalog_listed && IsSystemRelation(rel) && parts.size() == 1) {
      *out = rel;
      return true;
    }
    for (const auto& s : schemas) {
      if (s == "pg_catalog" && IsSystemRelation(rel)) {
        *out = visible_name(s, rel);
        return true;
      }
      if (cat.RelationExists(s, rel)) {
        *out = visible_name(s, rel);
        return true;
      }
    }
    *error =
        Err("42P01", "relation \"" + (parts.size() == 2 ? parts[0] + "." : "") +
                         rel + "\" does not exist");
    return false;
  }
  if (name == "to_regtype") {
    // regtypein without the error of a type that does not exist.
    uint32_t type;
    int32_t ignored;
    PgError e;
    if (!ParseTypeString(*args[0], &type, &ignored, &e)) {
      if (e.sqlstate == "42704") return true;  // NULL
      *error = e;
      return false;
    }
    *out = RegtypeConst(type, -1)->value;
    return true;
  }
  if (name == "to_regclass") {
    // regclassin without the errors of a relation or schema that does not
    // exist (a name it cannot read is still an error). PostgreSQL 15 reads
    // no OIDs here: digits are a relation's name.
    std::vector<Value> name_args = args;
    if ((!args[0]->empty() &&
         args[0]->find_first_not_of("0123456789") == std::string::npos) ||
        *args[0] == "-")
      name_args[0] = "\"" + *args[0] + "\"";
    if (!CallSystemFunction("kova_regclass_canon", name_args, out, error)) {
      if (error->sqlstate != "42P01" && error->sqlstate != "3F000")
        return false;
      *error = PgError();
      *out = std::nullopt;
    }
    return true;
  }
  if (name == "kova_regclass_oid") {
    // regclass to oid: the OID of the relation the text names.
    const std::string& text = *args[0];
    if (text == "-") {
      *out = "0";
      return true;
    }
    if (!text.empty() &&
        text.find_first_not_of("0123456789") == std::string::npos) {
      *out = text;
      return true;
    }
    Value canon;
    if (!CallSystemFunction("kova_regclass_canon", args, &canon, error))
      return false;
    std::vector<std::string> parts;
    if (!SplitName(*canon, &parts)) parts = {*canon};
    std::string rel = parts.back();
    for (const auto& so : Relations())
      if (parts.size() == 1 && rel == so.name && so.oid) {
        *out = std::to_string(so.oid);
        return true;
      }
    std::vector<std::string> schemas;
    if (parts.size() == 2)
      schemas.push_back(parts[0]);
    else
      schemas = SearchPathSchemas(true);
    for (const auto& sc : schemas) {
      uint32_t id = 0;
      if (const catalog::Table* t = cat.FindTable(sc, rel)) id = t->oid;
      if (const catalog::View* v = cat.FindView(sc, rel)) id = v->oid;
      if (const catalog::Sequence* q = cat.FindSequence(sc, rel)) id = q->oid;
      const catalog::Index* x = nullptr;
      if (cat.FindIndexTable(sc, rel, &x) && x) id = x->oid;
      if (id) {
        *out = std::to_string(id);
        return true;
      }
    }
    *error = Err("42P01", "relation \"" + text + "\" does not exist");
    return false;
  }
  if (name == "kova_regclass_name" || name == "pg_partition_ancestors") {
    uint32_t id = oid_arg(0);
    if (id == 0 && name == "kova_regclass_name") {  // InvalidOid
      *out = "-";
      return true;
    }
    for (const auto& so : Relations())
      if (so.oid && so.oid == id) {
        *out = so.name;
        return true;
      }
    RelationRef rel;
    *out = FindRelation(cat, id, &rel) ? visible_name(rel.schema, rel.name)
                                       : *args[0];
    return true;
  }
  if (name == "pg_get_constraintdef") {
    uint32_t id = oid_arg(0);
    for (const auto& [key, ty] : cat.types())
      for (size_t i = 0; i < ty.checks.size(); i++)
        if (ty.kind == 'd' && ConstraintOid(ty.oid, i) == id) {
          *out = "CHECK (" + DomainCheckText(ty.checks[i].expr) + ")";
          return true;
        }
    for (const auto& [key, t] : cat.tables()) {
      for (size_t i = 0; i < t.constraints.size(); i++) {
        if (ConstraintOid(t.oid, i) != id) continue;
        const catalog::Constraint& c = t.constraints[i];
        auto list = [](const std::vector<std::string>& cols) {
          std::string s;
          for (size_t k = 0; k < cols.size(); k++)
            s += (k ? ", " : "") + QuoteIdentifier(cols[k]);
          return s;
        };
        switch (c.kind) {
          case 'p':
            *out = "PRIMARY KEY (" + list(c.columns) + ")";
            break;
          case 'u':
            *out = std::string("UNIQUE ") +
                   (c.nulls_not_distinct ? "NULLS NOT DISTINCT " : "") + "(" +
                   list(c.columns) + ")";
            break;
          case 'c': {
            bool pretty = args.size() > 1 && args[1] && *args[1] == "t";
            std::string text =
                CheckExpressionText(t, c.check_expr, pretty, type_context(),
                                    SchemaSearchPath(false));
            *out = "CHECK (" + (text.empty() ? c.check_expr : text) + ")";
            break;
          }
          case 'f': {
            std::string rs = "public", rn = c.ref_table;
            size_t dot = c.ref_table.find('.');
            if (dot != std::string::npos) {
              rs = c.ref_table.substr(0, dot);
              rn = c.ref_table.substr(dot + 1);
            }
            // NO ACTION, the default, is not written.
            auto action = [](char a) -> std::string {
              return a == 'a' ? "" : ForeignKeyActionName(a);
            };
            std::string def = "FOREIGN KEY (" + list(c.columns) +
                              ") REFERENCES " + visible_name(rs, rn) + "(" +
                              list(c.ref_columns) + ")";
            if (!action(c.on_update).empty())
              def += " ON UPDATE " + action(c.on_update);
            if (!action(c.on_delete).empty())
              def += " ON DELETE " + action(c.on_delete);
            *out = def;
            break;
          }
          default:
            break;
        }
        if (c.deferrable) *out = **out + " DEFERRABLE";
        if (c.initially_deferred) *out = **out + " INITIALLY DEFERRED";
        return true;
      }
    }
    return true;
  }
  // A view's query with the relations it reads named as the search path
  // finds them now (schema-qualified under pg_dump's empty path).
  auto ViewQuery = [&](const catalog::View& v) {
    std::unique_ptr<sql::ParseTree> tree;
    sql::SyntaxError syntax;
    if (!sql::ParseTree::Parse(v.query, &tree, &syntax) || tree->size() != 1)
      return v.query;
    PgQuery__Node* root = tree->statement(0).stmt;
    std::vector<std::pair<PgQuery__RangeVar*, char*>> changed;
    std::vector<std::unique_ptr<std::string>> names;
    VisitParseNodes(
        reinterpret_cast<ProtobufCMessage*>(root), [&](PgQuery__Node* n) {
          if (n->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) return;
          PgQuery__RangeVar* rv = n->range_var;
          if (rv->schemaname && *rv->schemaname) return;
          for (const auto& use : v.uses) {
            if (use.name != rv->relname) continue;
            if (visible_name(use.schema, use.name) == QuoteIdentifier(use.name))
              return;
            names.push_back(std::make_unique<std::string>(use.schema));
            changed.emplace_back(rv, rv->schemaname);
            rv->schemaname = names.back()->data();
            return;
          }
        });
    if (changed.empty()) return v.query;
    std::string text = DeparseSelect(root);
    for (auto& [rv, original] : changed) rv->schemaname = original;
    return text.empty() ? v.query : text;
  };
  RelationRef rel;
  bool found = FindRelation(cat, oid_arg(0), &rel);
  if (name == "pg_get_viewdef") {
    // The query as Kova keeps it (PostgreSQL prints its own deparse).
    if (found && rel.kind == 'v') *out = " " + ViewQuery(*rel.view) + ";";
    return true;
  }
  if (name == "pg_table_is_visible") {
    if (!found) {
      *out = "f";
      return true;
    }
    bool visible = false;
    if (!system_catalog::IsSystemRelation(rel.name)) {
      for (const auto& s : SearchPathSchemas(true)) {
        if (cat.RelationExists(s, rel.name)) {
          visible = s == rel.schema;
          break;
        }
      }
    }
    *out = visible ? "t" : "f";
    return true;
  }
  if (name == "pg_table_size" || name == "pg_relation_size" ||
      name == "pg_total_relation_size" || name == "pg_indexes_size") {
    // The pages the store holds: a table's documents, its indexes; an index
    // alone. A sequence is one page, as PostgreSQL's; a view none.
    if (!found) return true;
    if (rel.kind == 'v' || rel.kind == 'S') {
      *out = rel.kind == 'S' && name != "pg_indexes_size" ? "8192" : "0";
      return true;
    }
    docstore::Session::StorageSize size;
    docstore::Status st =
        storage_->CollectionSize(database_, rel.table->collection, &size);
    if (!st.ok()) {
      *error = TableError(st);
      return false;
    }
    int64_t bytes = 0;
    if (rel.kind == 'i') {
      auto it = size.by_index.find(rel.index->name);
      bytes = name == "pg_indexes_size" || it == size.by_index.end()
                  ? 0
                  : it->second;
    } else if (name == "pg_indexes_size") {
      bytes = size.index_bytes;
    } else {
      bytes = size.table_bytes;
      if (name == "pg_total_relation_size") bytes += size.index_bytes;
    }
    *out = std::to_string(bytes);
    return true;
  }
  if (name == "pg_get_indexdef") {
    if (!found || rel.kind != 'i') return true;
    const catalog::Index& x = *rel.index;
    int column = args.size() > 1 && args[1] ? std::stoi(*args[1]) : 0;
    bool pretty = args.size() > 2 && args[2] && *args[2] == "t";
    if (column > 0) {
      *out = system_catalog::IndexColumnDefinition(
          *rel.table, x, static_cast<size_t>(column - 1), pretty);
      return true;
    }
    *out = system_catalog::IndexDefinition(*rel.table, x, pretty);
    return true;
  }
  *error = Err("0A000", "function " + name + " is not supported yet");
  return false;
}

}  // namespace kova::planner
