// Internal to the pg_catalog emulation (system_*.cc): how a system
// relation is described and the producers of its rows.
#pragma once

#include <strings.h>

#include <cctype>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "planner/expr_internal.h"
#include "planner/svalue.h"
#include "planner/system_catalog.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner::system_catalog {
using namespace expr_detail;

constexpr uint32_t B = oid::kBool;
constexpr uint32_t I2 = oid::kInt2;
constexpr uint32_t I4 = oid::kInt4;
constexpr uint32_t I8 = oid::kInt8;
constexpr uint32_t F4 = oid::kFloat4;
constexpr uint32_t O = oid::kOid;
constexpr uint32_t N = oid::kName;
constexpr uint32_t T = oid::kText;
constexpr uint32_t TA = 1009;   // text[]
constexpr uint32_t I2A = 1005;  // int2[]
constexpr uint32_t OA = 1028;   // oid[]
constexpr uint32_t I2V = 22;    // int2vector
constexpr uint32_t TZ = oid::kTimestamptz;
constexpr uint32_t kFloat4Array = 1021;  // real[]

struct Col {
  const char* name;
  uint32_t type;
};

using Row = std::vector<std::string>;  // SQLite literals

inline std::string Int(int64_t v) { return std::to_string(v); }
inline std::string Bool(bool v) { return v ? "1" : "0"; }
inline std::string Text(std::string_view s) { return SqlQuoteLiteral(s); }
inline const std::string kNull = "NULL";

// GRANTs recorded on one object: grantee ("PUBLIC" for everyone) and the
// privileges granted, letters ("r") or column forms ("w(a,b)").
using Grants = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct Source {
  const catalog::Catalog* cat;
  const std::vector<ClusterRole>* roles;
  const std::vector<ClusterDatabase>* databases;
  std::string temp_schema;
  // By "kind:schema.name" (kind: table, sequence, schema), from the lines
  // of kova_acl_rows.
  std::map<std::string, Grants> grants;
};

// The tab-separated fields of each line of a session function's rows.
std::vector<std::vector<std::string>> SplitLines(const std::string& lines);
// Source::grants from kova_acl_rows's lines.
void ParseGrants(const std::string& lines, std::map<std::string, Grants>* out);
// An aclitem[] literal: the owner's default privileges (`owner_privs`),
// then each grantee's table-level ones; NULL when nothing was granted.
std::string AclText(const Source& s, const std::string& key,
                    const std::string& owner, const char* owner_privs,
                    const std::string& default_acl = "");
// attacl of a column: its column privileges, NULL when none.
std::string ColumnAclText(const Source& s, const std::string& key,
                          const std::string& owner, const std::string& column);

inline uint32_t OwnerOid(const std::string& owner) {
  return RoleOid(owner.empty() ? "postgres" : owner);
}

inline std::string IntVector(const std::vector<int>& v, bool array) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) {
    if (i) s += array ? "," : " ";
    s += std::to_string(v[i]);
  }
  return Text(array ? "{" + s + "}" : s);
}

// A text[] literal of `items` (NULL when empty), each element quoted as
// PostgreSQL's array output quotes it.
inline std::string TextArray(const std::vector<std::string>& items) {
  if (items.empty()) return kNull;
  std::string s = "{";
  for (size_t i = 0; i < items.size(); i++) {
    const std::string& e = items[i];
    bool quote = e.empty() || strcasecmp(e.c_str(), "NULL") == 0;
    for (char c : e)
      quote |= c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' ||
               std::isspace(static_cast<unsigned char>(c));
    if (i) s += ",";
    if (!quote) {
      s += e;
      continue;
    }
    s += '"';
    for (char c : e) {
      if (c == '"' || c == '\\') s += '\\';
      s += c;
    }
    s += '"';
  }
  return Text(s + "}");
}

inline std::vector<int> AttNums(const catalog::Table& t,
                                const std::vector<std::string>& columns) {
  std::vector<int> out;
  for (const auto& c : columns) out.push_back(t.ColumnIndex(c) + 1);
  return out;
}

inline uint32_t Collation(uint32_t type) {
  type = user_types::BaseType(type);
  uint32_t element = types::ArrayElementType(type);
  if (element) type = element;
  return IsText(type) ? 100 : 0;
}

inline char Persistence(const Source& s, const std::string& schema) {
  return !s.temp_schema.empty() && schema == s.temp_schema ? 't' : 'p';
}

// The unique index Kova adds for an autoincrement field (seed rule 1):
// not an index of PostgreSQL's, so the catalog does not list it (a
// restore makes it again with the field).
bool IsCounterIndex(const catalog::Table& t, const catalog::Index& x);
// pg_get_indexdef(index) and pg_indexes.indexdef: CREATE INDEX with each
// column's DESC / NULLS FIRST / NULLS LAST as PostgreSQL prints them.
// pg_get_indexdef(x) (pretty: pg_get_indexdef(x, 0, true), as psql's \d).
std::string IndexDefinition(const catalog::Table& t, const catalog::Index& x,
                            bool pretty = false);
// A partial index's WHERE condition as PostgreSQL deparses it.
std::string IndexPredicateText(const catalog::Table& t, const catalog::Index& x,
                               bool pretty);
// pg_get_indexdef(x, column, pretty): one key's text (column 1-based).
std::string IndexColumnDefinition(const catalog::Table& t,
                                  const catalog::Index& x, size_t column,
                                  bool pretty);
// An index's access method ("btree", "hash") and whether its NULLs are
// not distinct (CREATE UNIQUE INDEX ... NULLS NOT DISTINCT, or its UNIQUE
// NULLS NOT DISTINCT constraint).
std::string IndexMethod(const catalog::Index& x);
bool IndexNullsNotDistinct(const catalog::Table& t, const catalog::Index& x);
// The sequence a column default's nextval('...') draws from, or null.
const catalog::Sequence* DefaultSequence(const catalog::Catalog& cat,
                                         const catalog::Table& t,
                                         const catalog::Column& c);
// The OID of a column's pg_attrdef row.
uint32_t AttrdefOid(const catalog::Table& t, size_t column);
// pg_type.typlen and typstorage of a type (user types included).
int TypeLength(uint32_t type);
char Storage(uint32_t type);

// Identifier parts of a relation name as regclassin reads them (false
// for a syntax error).
bool SplitName(const std::string& text, std::vector<std::string>* parts);
// pg_size_pretty.
std::string SizePretty(int64_t size);
// A role name as aclitem text shows it.
std::string QuoteAclRole(const std::string& role);
// A domain CHECK as PostgreSQL prints it (VALUE in capitals).
std::string DomainCheckText(const std::string& expr);

struct Relation {
  const char* name;
  uint32_t oid;  // pg_class OID of the catalog (RowDescription), 0: a view
  std::vector<Col> cols;
  std::function<void(const Source&, std::vector<Row>*)> rows;
  bool cluster = false;  // reads roles or databases
};

// The relations of pg_catalog (system_relation_defs.cc) and of
// information_schema (system_info_schema.cc).
const std::vector<Relation>& Relations();
const std::vector<Relation>& InfoRelations();

// Row producers (system_rows.cc, system_type_rows.cc,
// system_info_schema.cc).
void ClassRows(const Source& s, std::vector<Row>* rows);
// pg_stat_activity from kova_activity_rows's lines (activity.cc).
void ActivityRows(const std::string& lines, std::vector<Row>* rows);
// pg_locks from the lines of kova_lock_rows (advisory locks).
void LockRows(const std::string& lines, std::vector<Row>* rows);
void NamespaceRows(const Source& s, std::vector<Row>* rows);
void AmRows(const Source& s, std::vector<Row>* rows);
void DatabaseRows(const Source& s, std::vector<Row>* rows);
void RoleRows(const Source& s, std::vector<Row>* rows, bool authid);
void UserRows(const Source& s, std::vector<Row>* rows);
void IndexRows(const Source& s, std::vector<Row>* rows);
void IndexesViewRows(const Source& s, std::vector<Row>* rows);  // pg_indexes
void DescriptionRows(const Source& s, std::vector<Row>* rows);
void AttributeRows(const Source& s, std::vector<Row>* rows);
void AttrdefRows(const Source& s, std::vector<Row>* rows);
void ConstraintRows(const Source& s, std::vector<Row>* rows);
void SequenceRows(const Source& s, std::vector<Row>* rows);
// pg_sequences: schema, name, owner, type name, type OID, cache, counter.
void SequencesViewRows(const Source& s, std::vector<Row>* rows);
void DependRows(const Source& s, std::vector<Row>* rows);
void RewriteRows(const Source& s, std::vector<Row>* rows);
// The OID of the rule that makes a view (PostgreSQL's _RETURN rule).
uint32_t ViewRuleOid(const catalog::View& v);
void TypeRows(const Source& s, std::vector<Row>* rows);
void EnumRows(const Source& s, std::vector<Row>* rows);
void CollationRows(const Source& s, std::vector<Row>* rows);
void TablespaceRows(const Source& s, std::vector<Row>* rows);
void TimezoneNameRows(const Source& s, std::vector<Row>* rows);
void TimezoneAbbrevRows(const Source& s, std::vector<Row>* rows);
void LanguageRows(const Source& s, std::vector<Row>* rows);
// pg_settings from the lines of kova_settings_rows (name, value,
// description).
void SettingRows(const std::string& lines, std::vector<Row>* rows);
void InfoTableRows(const Source& s, std::vector<Row>* rows);
// system_info_constraints.cc
// pg_constraint's confupdtype / confdeltype spelled out ("NO ACTION", ...).
const char* ForeignKeyActionName(char action);
void InfoSchemataRows(const Source& s, std::vector<Row>* rows);
void InfoTableConstraintRows(const Source& s, std::vector<Row>* rows);
void InfoKeyColumnUsageRows(const Source& s, std::vector<Row>* rows);
void InfoReferentialConstraintRows(const Source& s, std::vector<Row>* rows);
void InfoConstraintColumnUsageRows(const Source& s, std::vector<Row>* rows);
void InfoCheckConstraintRows(const Source& s, std::vector<Row>* rows);
void InfoSequenceRows(const Source& s, std::vector<Row>* rows);
void InfoColumnRows(const Source& s, std::vector<Row>* rows,
                    const std::string& counters);

}  // namespace kova::planner::system_catalog
