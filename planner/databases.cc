// ALTER DATABASE (OWNER TO, CONNECTION LIMIT, SET/RESET), ALTER ROLE ... IN
// DATABASE ... SET/RESET and COMMENT ON DATABASE, as pg_dump -C emits them,
// over the record of databases.h.
#include "planner/databases.h"

#include <cctype>
#include <optional>

#include "catalog/catalog.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

constexpr const char* kRecordId = "database";

std::string LowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

std::string Utf8(const bson_iter_t* it) {
  return BSON_ITER_HOLDS_UTF8(it) ? bson_iter_utf8(it, nullptr) : "";
}

}  // namespace

docstore::Status ReadDatabaseRecord(docstore::Session* session,
                                    std::string_view db, DatabaseRecord* out) {
  *out = DatabaseRecord();
  bson_t filter = BSON_INITIALIZER;
  BSON_APPEND_UTF8(&filter, "_id", kRecordId);
  std::vector<docstore::Document> docs;
  docstore::Status s =
      session->Find(db, catalog::kObjectsCollection, &filter, {}, &docs);
  bson_destroy(&filter);
  if (s.code() == docstore::Code::kNamespaceNotFound) return {};
  if (!s.ok() || docs.empty()) return s;
  bson_iter_t it;
  if (!bson_iter_init(&it, docs[0].bson())) return s;
  while (bson_iter_next(&it)) {
    std::string key = bson_iter_key(&it);
    if (key == "owner") {
      out->owner = Utf8(&it);
    } else if (key == "comment") {
      out->comment = Utf8(&it);
    } else if (key == "connection_limit") {
      out->connection_limit = bson_iter_as_int64(&it);
    } else if (key == "settings" && BSON_ITER_HOLDS_DOCUMENT(&it)) {
      // {role: [[name, value], ...]}
      bson_iter_t roles, list, pair;
      bson_iter_recurse(&it, &roles);
      while (bson_iter_next(&roles)) {
        auto& settings = out->settings[bson_iter_key(&roles)];
        if (!BSON_ITER_HOLDS_ARRAY(&roles)) continue;
        bson_iter_recurse(&roles, &list);
        while (bson_iter_next(&list)) {
          if (!BSON_ITER_HOLDS_ARRAY(&list)) continue;
          bson_iter_recurse(&list, &pair);
          std::string name, value;
          if (bson_iter_next(&pair)) name = Utf8(&pair);
          if (bson_iter_next(&pair)) value = Utf8(&pair);
          settings.emplace_back(name, value);
        }
      }
    }
  }
  return s;
}

docstore::Status WriteDatabaseRecord(docstore::Session* session,
                                     std::string_view db,
                                     const DatabaseRecord& record) {
  bson_t filter = BSON_INITIALIZER;
  BSON_APPEND_UTF8(&filter, "_id", kRecordId);
  int64_t deleted = 0;
  docstore::Status s =
      session->Delete(db, catalog::kObjectsCollection, &filter, 1, &deleted);
  bson_destroy(&filter);
  if (!s.ok() && s.code() != docstore::Code::kNamespaceNotFound) return s;
  bson_t doc = BSON_INITIALIZER, roles;
  BSON_APPEND_UTF8(&doc, "_id", kRecordId);
  BSON_APPEND_UTF8(&doc, "kind", "database");
  BSON_APPEND_UTF8(&doc, "owner", record.owner.c_str());
  BSON_APPEND_UTF8(&doc, "comment", record.comment.c_str());
  BSON_APPEND_INT64(&doc, "connection_limit", record.connection_limit);
  BSON_APPEND_DOCUMENT_BEGIN(&doc, "settings", &roles);
  for (const auto& [role, settings] : record.settings) {
    if (settings.empty()) continue;
    bson_t list;
    bson_append_array_begin(&roles, role.c_str(), -1, &list);
    for (size_t i = 0; i < settings.size(); i++) {
      bson_t pair;
      std::string key = std::to_string(i);
      bson_append_array_begin(&list, key.c_str(), -1, &pair);
      BSON_APPEND_UTF8(&pair, "0", settings[i].first.c_str());
      BSON_APPEND_UTF8(&pair, "1", settings[i].second.c_str());
      bson_append_array_end(&list, &pair);
    }
    bson_append_array_end(&roles, &list);
  }
  bson_append_document_end(&doc, &roles);
  s = session->Insert(db, catalog::kObjectsCollection, &doc);
  bson_destroy(&doc);
  return s;
}

std::vector<std::pair<std::string, std::string>> SessionDefaults(
    const DatabaseRecord& record, const std::string& role) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& key : {std::string(), role}) {
    auto it = record.settings.find(key);
    if (it != record.settings.end())
      out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return out;
}

bool SessionImpl::UpdateDatabaseRecord(
    const std::string& db, const std::function<bool(DatabaseRecord*)>& change,
    PgError* error) {
  if (!engine_->DatabaseExists(db)) {
    *error = Err("3D000", "database \"" + db + "\" does not exist");
    return false;
  }
  DatabaseRecord record;
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok()) s = ReadDatabaseRecord(storage_.get(), db, &record);
  if (s.ok() && !change(&record)) return false;
  if (s.ok()) s = WriteDatabaseRecord(storage_.get(), db, record);
  if (!s.ok()) {
    *error = TableError(s);
    return false;
  }
  return true;
}

ExecuteResult SessionImpl::RunAlterDatabaseOwner(const std::string& db,
                                                 const std::string& owner) {
  PgError error;
  if (!CheckWritable("ALTER DATABASE", &error)) return Fail(error);
  if (!engine_->DatabaseExists(db))
    return Fail(Err("3D000", "database \"" + db + "\" does not exist"));
  RoleRecord role;
  if (!EngineFindRole(engine_, owner, &role))
    return Fail(Err("42704", "role \"" + owner + "\" does not exist"));
  if (!UpdateDatabaseRecord(
          db,
          [&](DatabaseRecord* r) {
            r->owner = owner;
            return true;
          },
          &error))
    return Fail(error);
  return Tag("ALTER DATABASE");
}

ExecuteResult SessionImpl::RunCommentOnDatabase(
    const PgQuery__CommentStmt* stmt, ResultSink* sink) {
  PgError error;
  if (!CheckWritable("COMMENT", &error)) return Fail(error);
  std::string db =
      stmt->object && stmt->object->node_case == PG_QUERY__NODE__NODE_STRING
          ? stmt->object->string->sval
          : "";
  // PostgreSQL only warns: pg_dump's COMMENT ON DATABASE must not stop a
  // restore into a database of another name.
  if (!engine_->DatabaseExists(db)) {
    Notice(sink, "WARNING", "3D000", "database \"" + db + "\" does not exist");
    return Tag("COMMENT");
  }
  if (!UpdateDatabaseRecord(
          db,
          [&](DatabaseRecord* r) {
            r->comment = stmt->comment ? stmt->comment : "";
            return true;
          },
          &error))
    return Fail(error);
  return Tag("COMMENT");
}

ExecuteResult SessionImpl::RunAlterDatabase(
    const PgQuery__AlterDatabaseStmt* stmt) {
  PgError error;
  if (!CheckWritable("ALTER DATABASE", &error)) return Fail(error);
  std::string db = stmt->dbname ? stmt->dbname : "";
  std::optional<int64_t> limit;
  for (size_t i = 0; i < stmt->n_options; i++) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    std::string opt = d->defname;
    const PgQuery__Node* arg = d->arg;
    bool is_int = arg && arg->node_case == PG_QUERY__NODE__NODE_INTEGER;
    // Booleans come as words (ALLOW_CONNECTIONS true) or numbers.
    std::string word = LowerCase(
        arg && arg->node_case == PG_QUERY__NODE__NODE_STRING ? arg->string->sval
        : is_int ? std::to_string(arg->integer->ival)
                 : "");
    bool is_true = word == "true" || word == "on" || word == "1";
    bool is_false = word == "false" || word == "off" || word == "0";
    if (opt == "connection_limit" && is_int) {
      limit = arg->integer->ival;
      if (*limit < -1)
        return Fail(Err("22023",
                        "invalid connection limit: " + std::to_string(*limit)));
      continue;
    }
    // The defaults are what Kova has; other values are not supported.
    if ((opt == "allow_connections" && is_true) ||
        (opt == "is_template" && is_false))
      continue;
    return Fail(Err("0A000", "ALTER DATABASE ... " + opt +
                                 " is not supported yet: database " + db));
  }
  if (!UpdateDatabaseRecord(
          db,
          [&](DatabaseRecord* r) {
            if (limit) r->connection_limit = *limit;
            return true;
          },
          &error))
    return Fail(error);
  return Tag("ALTER DATABASE");
}

// With `db` empty (ALTER ROLE ... SET without IN DATABASE) the defaults are
// the role's in every database, kept in its role record.
bool SessionImpl::ChangeSettingDefaults(const std::string& db,
                                        const std::string& role,
                                        const PgQuery__VariableSetStmt* set,
                                        PgError* error) {
  std::string name = set->name ? set->name : "";
  std::string value;
  bool reset = false;
  switch (set->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
      if (!SetStatementValue(set, &value, error)) return false;
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_CURRENT:
      if (!settings_.Show(name, &value, error)) return false;
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      reset = true;
      break;
    default:
      *error = Err("0A000", "this form of SET is not supported here");
      return false;
  }
  bool all = set->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL;
  if (!all) {
    // Checked as a SET would check it, in a session of its own.
    Settings scratch(server_version_, user_, superuser_);
    if (reset ? !scratch.Reset(name, error)
              : !scratch.Set(name, value, false, error))
      return false;
    std::string canonical = scratch.CanonicalName(name);
    if (!canonical.empty()) name = canonical;
  }
  auto change = [&](std::vector<std::pair<std::string, std::string>>* list) {
    if (all) {
      list->clear();
      return;
    }
    std::erase_if(*list, [&](const auto& entry) {
      return LowerCase(entry.first) == LowerCase(name);
    });
    if (!reset) list->emplace_back(name, value);
  };
  if (db.empty()) {
    // ALTER ROLE ... SET without IN DATABASE: kept with the role.
    RoleRecord record;
    if (!EngineFindRole(engine_, role, &record)) {
      *error = Err("42704", "role \"" + role + "\" does not exist");
      return false;
    }
    change(&record.settings);
    return EngineUpdateRole(engine_, record, error);
  }
  return UpdateDatabaseRecord(
      db,
      [&](DatabaseRecord* r) {
        change(&r->settings[role]);
        return true;
      },
      error);
}

ExecuteResult SessionImpl::RunAlterDatabaseSet(
    const PgQuery__AlterDatabaseSetStmt* stmt) {
  PgError error;
  if (!CheckWritable("ALTER DATABASE", &error)) return Fail(error);
  if (!ChangeSettingDefaults(stmt->dbname ? stmt->dbname : "", "",
                             stmt->setstmt, &error))
    return Fail(error);
  return Tag("ALTER DATABASE");
}

ExecuteResult SessionImpl::RunAlterRoleSet(
    const PgQuery__AlterRoleSetStmt* stmt) {
  PgError error;
  if (!CheckWritable("ALTER ROLE", &error)) return Fail(error);
  std::string role;  // "": ALTER ROLE ALL
  if (const PgQuery__RoleSpec* r = stmt->role) {
    role =
        r->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING && r->rolename
            ? r->rolename
            : user_;
    RoleRecord record;
    if (!EngineFindRole(engine_, role, &record))
      return Fail(Err("42704", "role \"" + role + "\" does not exist"));
  }
  std::string db = stmt->database ? stmt->database : "";
  if (db.empty() && role.empty())
    return Fail(Err("0A000",
                    "ALTER ROLE ALL ... SET is only supported with IN "
                    "DATABASE yet (setting defaults of every role in every "
                    "database are not kept)"));
  if (!ChangeSettingDefaults(db, role, stmt->setstmt, &error))
    return Fail(error);
  return Tag("ALTER ROLE");
}

}  // namespace kova::planner
