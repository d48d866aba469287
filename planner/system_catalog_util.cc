// The OIDs the pg_catalog emulation derives for Kova's objects, relation
// lookup by OID, the text helpers of its functions, and the session's
// roles and databases (for pg_roles and pg_database).
#include <cctype>

#include "planner/ddl.h"
#include "planner/index_expr.h"
#include "planner/reloptions.h"
#include "planner/session_impl.h"
#include "planner/system_catalog.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner {

namespace system_catalog {

namespace {

uint32_t HashOid(std::string_view name) {
  uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  // Above the OIDs PostgreSQL and the catalog hand out in practice.
  return 1000000000u + h % 1000000000u;
}

}  // namespace

uint32_t RoleOid(std::string_view name) {
  if (name == "postgres") return kBootstrapSuperuser;
  if (name == "pg_database_owner") return kPgDatabaseOwner;
  return HashOid(name);
}

uint32_t DatabaseOid(std::string_view name) {
  if (name == "template1") return 1;
  if (name == "template0") return 4;
  if (name == "postgres") return 5;
  return HashOid(name);
}

uint32_t NamespaceOid(const catalog::Catalog& cat, std::string_view schema) {
  if (schema == "public") return kPublicNamespace;
  if (schema == "pg_catalog") return kPgCatalogNamespace;
  const catalog::Schema* s = cat.FindSchema(schema);
  return s ? s->oid : 0;
}

uint32_t ConstraintOid(uint32_t table_oid, size_t index) {
  // 2048 slots an object, from 2^30 up: its constraints (enum labels, a
  // view's rule) from 0, its column defaults from 1024 (AttrdefOid).
  // Distinct for the first 524288 OIDs a database hands out.
  uint64_t slot =
      (static_cast<uint64_t>(table_oid) - catalog::kFirstOid) * 2048 +
      index % 2048;
  return (1u << 30) + static_cast<uint32_t>(slot % (1u << 30));
}

bool FindRelation(const catalog::Catalog& cat, uint32_t oid, RelationRef* out) {
  for (const auto& [key, t] : cat.tables()) {
    if (t.oid == oid) {
      *out = {'r', t.schema, t.name, &t};
      return true;
    }
    for (const auto& x : t.indexes)
      if (x.oid == oid) {
        *out = {'i', t.schema, x.name, &t, &x};
        return true;
      }
  }
  for (const auto& [key, v] : cat.views())
    if (v.oid == oid) {
      *out = {'v', v.schema, v.name};
      out->view = &v;
      return true;
    }
  for (const auto& [key, q] : cat.sequences())
    if (q.oid == oid) {
      *out = {'S', q.schema, q.name};
      out->sequence = &q;
      return true;
    }
  return false;
}

std::string IndexMethod(const catalog::Index& x) {
  return x.method.empty() ? "btree" : x.method;
}

bool IndexNullsNotDistinct(const catalog::Table& t, const catalog::Index& x) {
  if (x.nulls_not_distinct) return true;
  for (const auto& c : t.constraints)
    if (!x.constraint.empty() && c.name == x.constraint && c.kind == 'u')
      return c.nulls_not_distinct;
  return false;
}

std::string IndexColumnDefinition(const catalog::Table& t,
                                  const catalog::Index& x, size_t column,
                                  bool pretty) {
  if (column >= x.columns.size()) return "";
  if (x.expression(column).empty()) return QuoteIdentifier(x.columns[column]);
  return IndexColumnText(t, x.expression(column), pretty);
}

std::string IndexDefinition(const catalog::Table& t, const catalog::Index& x,
                            bool pretty) {
  std::string cols;
  for (size_t i = 0; i < x.columns.size(); i++) {
    cols += (i ? ", " : "") + IndexColumnDefinition(t, x, i, pretty);
    int16_t option = i < x.options.size() ? x.options[i] : 0;
    if (option & catalog::kIndexDesc)
      cols += option & catalog::kIndexNullsFirst ? " DESC" : " DESC NULLS LAST";
    else if (option & catalog::kIndexNullsFirst)
      cols += " NULLS FIRST";
  }
  bool unique = x.unique;
  for (const auto& c : t.constraints)
    if (c.name == x.constraint && c.kind == 'p') unique = true;
  return std::string("CREATE ") + (unique ? "UNIQUE " : "") + "INDEX " +
         QuoteIdentifier(x.name) + " ON " +
         (pretty && t.schema == "public" ? QuoteIdentifier(t.name)
                                         : QuoteQualified(t.schema, t.name)) +
         " USING " + IndexMethod(x) + " (" + cols + ")" +
         (IndexNullsNotDistinct(t, x) ? " NULLS NOT DISTINCT" : "") +
         RelOptionsClause(x.reloptions) +
         (x.predicate.empty() ? ""
                              : " WHERE " + IndexPredicateText(t, x, pretty));
}

std::string IndexPredicateText(const catalog::Table& t, const catalog::Index& x,
                               bool pretty) {
  // Default display settings, as the rest of the definition.
  static const types::TypeContext kDisplay;
  std::string text =
      CheckExpressionText(t, x.predicate, pretty, kDisplay, {"public"});
  return text.empty() ? "(" + x.predicate + ")" : text;
}

namespace {

// The SQL-standard value functions, which the stored text (libpg_query's
// deparse) writes in lower case and PostgreSQL shows in upper case:
// CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_USER, USER, ...
std::string UpperValueFunctions(const std::string& e) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"current_timestamp", "CURRENT_TIMESTAMP"},
      {"current_date", "CURRENT_DATE"},
      {"current_time", "CURRENT_TIME"},
      {"localtimestamp", "LOCALTIMESTAMP"},
      {"localtime", "LOCALTIME"},
      {"current_user", "CURRENT_USER"},
      {"current_role", "CURRENT_ROLE"},
      {"session_user", "SESSION_USER"},
      {"current_catalog", "CURRENT_CATALOG"},
      {"user", "USER"},
  };
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < e.size();) {
    char c = e[i];
    if (quote) {
      out += c;
      if (c == quote) quote = 0;
      i++;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      i++;
      continue;
    }
    if (word(c) && (i == 0 || !word(e[i - 1]))) {
      size_t end = i;
      while (end < e.size() && word(e[end])) end++;
      std::string token = e.substr(i, end - i);
      const char* upper = nullptr;
      for (const auto& [lower, up] : kNames)
        if (token == lower) upper = up;
      // Not a column or function of that name (".user", "user(").
      bool qualified = i > 0 && e[i - 1] == '.';
      out += upper && !qualified ? upper : token;
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

}  // namespace

std::string DefaultExpression(const catalog::Column& column) {
  if (column.default_expr.find('_') != std::string::npos ||
      column.default_expr.find("user") != std::string::npos ||
      column.default_expr.find("local") != std::string::npos) {
    std::string upper = UpperValueFunctions(column.default_expr);
    if (upper != column.default_expr) return upper;
  }
  const std::string& e = column.default_expr;
  // A string literal: PostgreSQL shows the constant with its type.
  if (e.size() >= 2 && e.front() == '\'' && e.back() == '\'') {
    bool single = true;
    for (size_t i = 1; i + 1 < e.size(); i++) {
      if (e[i] != '\'') continue;
      if (e[i + 1] == '\'' && i + 2 < e.size()) {
        i++;
        continue;
      }
      single = false;
    }
    if (single) {
      uint32_t type = column.type;
      std::string name =
          type == oid::kBpchar ? "bpchar" : types::FormatTypeName(type, -1);
      return e + "::" + name;
    }
  }
  return e;
}

// Identifier parts of a relation name as regclassin reads them
// (varlena.c's SplitIdentifierString with '.'): blanks around each part
// are skipped, double quotes keep case ("" is a quote), the rest is folded
// to lower case; an empty unquoted part, an unclosed quote or anything
// else between parts is a syntax error. Parts are truncated to 63 bytes.
bool SplitName(const std::string& text, std::vector<std::string>* parts) {
  auto space = [&](size_t i) {
    return i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
            text[i] == '\r' || text[i] == '\f' || text[i] == '\v');
  };
  size_t i = 0;
  while (space(i)) i++;
  if (i == text.size()) return false;  // no name at all
  for (;;) {
    std::string cur;
    if (text[i] == '"') {
      for (i++;; i++) {
        if (i >= text.size()) return false;  // mismatched quotes
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            cur += '"';
            i++;
            continue;
          }
          i++;
          break;
        }
        cur += text[i];
      }
    } else {
      size_t begin = i;
      while (i < text.size() && text[i] != '.' && !space(i)) {
        char c = text[i++];
        cur += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      }
      if (i == begin) return false;  // an empty unquoted name
    }
    if (cur.size() > 63) {
      // At a character boundary, as truncate_identifier cuts.
      size_t n = 63;
      while (n > 0 && (static_cast<unsigned char>(cur[n]) & 0xc0) == 0x80) n--;
      cur.resize(n);
    }
    parts->push_back(cur);
    while (space(i)) i++;
    if (i == text.size()) return true;
    if (text[i] != '.') return false;
    i++;
    while (space(i)) i++;
    if (i == text.size()) return false;  // "rt." names nothing after the dot
  }
}

// pg_size_pretty: bytes below 10240, then kB, MB, ... rounding half up
// after each halving step as PostgreSQL's size_pretty does.
std::string SizePretty(int64_t size) {
  static const char* const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  const int64_t limit = 10 * 1024;
  const int64_t limit2 = limit * 2 - 1;
  int64_t abs = size < 0 ? -size : size;
  if (abs < limit) return std::to_string(size) + " bytes";
  size >>= 9;  // half kB
  for (int u = 1;; u++) {
    int64_t a = size < 0 ? -size : size;
    if (a < limit2 || u == 5) {
      int64_t v = (size + (size < 0 ? -1 : 1)) / 2;
      return std::to_string(v) + " " + units[u];
    }
    size >>= 10;
  }
}

// A role name as aclitem text shows it: double-quoted when it holds
// characters other than letters, digits and underscores.
std::string QuoteAclRole(const std::string& role) {
  bool plain = !role.empty();
  for (unsigned char c : role)
    if (!std::isalnum(c) && c != '_') plain = false;
  if (plain) return role;
  std::string out = "\"";
  for (char c : role) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A domain CHECK as PostgreSQL prints it: the keyword VALUE in capitals
// (the stored text has it as the deparser wrote it), string literals and
// quoted identifiers untouched.
std::string DomainCheckText(const std::string& expr) {
  std::string out;
  for (size_t i = 0; i < expr.size();) {
    char c = expr[i];
    if (c == '\'' || c == '"') {
      size_t end = i + 1;
      while (end < expr.size()) {
        if (expr[end] == c && end + 1 < expr.size() && expr[end + 1] == c)
          end += 2;
        else if (expr[end] == c)
          break;
        else
          end++;
      }
      out += expr.substr(i, end + 1 - i);
      i = end + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = i;
      while (end < expr.size() &&
             (std::isalnum(static_cast<unsigned char>(expr[end])) ||
              expr[end] == '_' || expr[end] == '$'))
        end++;
      std::string word = expr.substr(i, end - i);
      out += Lower(word) == "value" ? "VALUE" : word;
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

}  // namespace system_catalog

void SessionImpl::ClusterObjects(std::vector<ClusterRole>* roles,
                                 std::vector<ClusterDatabase>* databases) {
  if (roles) {
    std::vector<docstore::Document> rows;
    bson_t filter = BSON_INITIALIZER;
    if (storage_->Find(docstore::kAdminDb, "roles", &filter, {}, &rows).ok()) {
      for (const auto& d : rows) {
        ClusterRole r;
        bson_iter_t it;
        if (bson_iter_init_find(&it, d.bson(), "_id") &&
            BSON_ITER_HOLDS_UTF8(&it))
          r.name = bson_iter_utf8(&it, nullptr);
        r.login = bson_iter_init_find(&it, d.bson(), "login") &&
                  bson_iter_as_bool(&it);
        r.superuser = bson_iter_init_find(&it, d.bson(), "superuser") &&
                      bson_iter_as_bool(&it);
        if (!r.name.empty()) roles->push_back(std::move(r));
      }
    }
    bson_destroy(&filter);
  }
  if (databases) {
    std::vector<std::string> names;
    if (storage_->ListDatabases(&names).ok()) {
      for (const auto& n : names) {
        if (n == docstore::kAdminDb) continue;
        ClusterDatabase d;
        d.name = n;
        DatabaseRecord record;
        if (ReadDatabaseRecord(storage_.get(), n, &record).ok()) {
          d.owner = record.owner;
          d.connection_limit = record.connection_limit;
        }
        databases->push_back(std::move(d));
      }
    }
  }
}

}  // namespace kova::planner
