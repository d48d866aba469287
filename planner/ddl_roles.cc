// CREATE / ALTER / DROP ROLE and ALTER ROLE ... RENAME (roles are kept by
// the engine, across databases).
#include <algorithm>
#include <cstring>

#include "planner/databases.h"
#include "planner/drop_cascade.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

// The objects of a database that `role` owns, by OID (the order they were
// made in), as DROP ROLE lists them ("owner of table t").
std::vector<std::string> OwnedObjects(const catalog::Catalog& cat,
                                      const std::string& role,
                                      const DropClosure& names) {
  using Kind = DependentObject::Kind;
  std::vector<DependentObject> owned;
  auto add = [&](Kind kind, const std::string& schema, const std::string& name,
                 uint32_t oid) {
    DependentObject o;
    o.kind = kind;
    o.schema = schema;
    o.name = name;
    o.oid = oid;
    owned.push_back(o);
  };
  for (const auto& [k, t] : cat.tables())
    if (t.owner == role) add(Kind::kTable, t.schema, t.name, t.oid);
  for (const auto& [k, v] : cat.views())
    if (v.owner == role) add(Kind::kView, v.schema, v.name, v.oid);
  for (const auto& [k, q] : cat.sequences())
    if (q.owner == role) add(Kind::kSequence, q.schema, q.name, q.oid);
  for (const auto& [k, t] : cat.types())
    if (t.owner == role) add(Kind::kType, t.schema, t.name, t.oid);
  for (const auto& [k, s] : cat.schemas())
    if (s.owner == role) add(Kind::kSchema, "", s.name, s.oid);
  std::sort(owned.begin(), owned.end(),
            [](const auto& a, const auto& b) { return a.oid < b.oid; });
  std::vector<std::string> out;
  for (const auto& o : owned) out.push_back("owner of " + names.Describe(o));
  return out;
}

// Role options common to CREATE and ALTER ROLE.
bool ApplyRoleOptions(PgQuery__Node* const* options, size_t n, RoleRecord* role,
                      const Settings& settings, PgError* error) {
  std::vector<std::string> seen;
  for (size_t i = 0; i < n; i++) {
    const PgQuery__DefElem* d = options[i]->def_elem;
    std::string opt = d->defname;
    if (std::find(seen.begin(), seen.end(), opt) != seen.end()) {
      *error = Err("42601", "conflicting or redundant options", d->location);
      return false;
    }
    seen.push_back(opt);
    if (opt == "connectionlimit" && d->arg &&
        d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER &&
        d->arg->integer->ival < -1) {
      *error = Err("22023", "invalid connection limit: " +
                                std::to_string(d->arg->integer->ival));
      return false;
    }
    auto flag = [&] {
      return d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN
                 ? static_cast<bool>(d->arg->boolean->boolval)
             : d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER
                 ? d->arg->integer->ival != 0
                 : true;
    };
    if (opt == "canlogin") {
      role->login = flag();
    } else if (opt == "superuser") {
      role->superuser = flag();
    } else if (opt == "password") {
      if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_STRING) {
        role->password.clear();  // PASSWORD NULL
        continue;
      }
      std::string pw = d->arg->string->sval;
      bool md5_form = pw.size() == 35 && pw.rfind("md5", 0) == 0;
      if (pw.rfind("SCRAM-SHA-256$", 0) == 0 || md5_form) {
        role->password = pw;  // already hashed, as pg_dumpall writes it
      } else if (settings.Get("password_encryption") == "md5") {
        role->password = MakeMd5Password(pw, role->name);
      } else {
        role->password = MakeScramVerifier(pw);
      }
    } else if (opt == "createdb" || opt == "createrole" || opt == "inherit" ||
               opt == "connectionlimit" || opt == "validUntil" ||
               opt == "isreplication" || opt == "bypassrls") {
      // Kova does not enforce these privileges yet; they are accepted so
      // that dumps of roles restore.
    } else {
      *error = Err("0A000", "role option " + opt + " is not supported yet");
      return false;
    }
  }
  return true;
}

}  // namespace

ExecuteResult SessionImpl::RunCreateRole(const PgQuery__CreateRoleStmt* stmt) {
  if (!superuser_) {
    return Fail(Err("42501", "permission denied to create role"));
  }
  RoleRecord role;
  role.name = stmt->role;
  if (role.name.rfind("pg_", 0) == 0) {
    PgError e = Err("42939", "role name \"" + role.name + "\" is reserved");
    e.detail = "Role names starting with \"pg_\" are reserved.";
    return Fail(e);
  }
  role.login = stmt->stmt_type == PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER;
  PgError error;
  if (!ApplyRoleOptions(stmt->options, stmt->n_options, &role, settings_,
                        &error))
    return Fail(error);
  if (!EngineCreateRole(engine_, role, &error)) return Fail(error);
  return Tag("CREATE ROLE");
}

ExecuteResult SessionImpl::RunAlterRole(const PgQuery__AlterRoleStmt* stmt) {
  std::string name =
      stmt->role && stmt->role->rolename ? stmt->role->rolename : user_;
  RoleRecord role;
  if (!EngineFindRole(engine_, name, &role)) {
    return Fail(Err("42704", "role \"" + name + "\" does not exist"));
  }
  if (!superuser_ && name != user_) {
    return Fail(Err("42501", "permission denied"));
  }
  PgError error;
  if (!ApplyRoleOptions(stmt->options, stmt->n_options, &role, settings_,
                        &error))
    return Fail(error);
  if (!EngineUpdateRole(engine_, role, &error)) return Fail(error);
  return Tag("ALTER ROLE");
}

// ALTER ROLE old RENAME TO new, with RenameRole's checks in its order.
ExecuteResult SessionImpl::RunRenameRole(const PgQuery__RenameStmt* stmt,
                                         ResultSink* sink) {
  std::string old_name = stmt->subname;
  std::string new_name = stmt->newname;
  RoleRecord role;
  if (!EngineFindRole(engine_, old_name, &role)) {
    return Fail(Err("42704", "role \"" + old_name + "\" does not exist"));
  }
  if (old_name == user_) {
    return Fail(Err("0A000", "session user cannot be renamed"));
  }
  if (new_name.rfind("pg_", 0) == 0) {
    PgError e = Err("42939", "role name \"" + new_name + "\" is reserved");
    e.detail = "Role names starting with \"pg_\" are reserved.";
    return Fail(e);
  }
  RoleRecord existing;
  if (EngineFindRole(engine_, new_name, &existing)) {
    return Fail(Err("42710", "role \"" + new_name + "\" already exists"));
  }
  if (!superuser_)
    return Fail(Err("42501", "permission denied to rename role"));
  // An md5 hash includes the role name: it cannot survive a rename.
  if (role.password.rfind("md5", 0) == 0) {
    role.password.clear();
    Notice(sink, "NOTICE", "00000",
           "MD5 password cleared because of role rename");
  }
  PgError error;
  role.name = new_name;
  if (!EngineCreateRole(engine_, role, &error) ||
      !EngineDropRole(engine_, old_name, &error))
    return Fail(error);
  return Tag("ALTER ROLE");
}

ExecuteResult SessionImpl::RunDropRole(const PgQuery__DropRoleStmt* stmt,
                                       ResultSink* sink) {
  if (!superuser_) return Fail(Err("42501", "permission denied to drop role"));
  // All or nothing: check every name before dropping any.
  std::vector<std::string> to_drop;
  for (size_t i = 0; i < stmt->n_roles; i++) {
    const PgQuery__RoleSpec* spec = stmt->roles[i]->role_spec;
    if (spec->roletype != PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING) {
      return Fail(
          Err("42601", "cannot use special role specifier in DROP ROLE"));
    }
    std::string name = spec->rolename;
    RoleRecord role;
    if (!EngineFindRole(engine_, name, &role)) {
      if (stmt->missing_ok) {
        Notice(sink, "NOTICE", "00000",
               "role \"" + name + "\" does not exist, skipping");
        continue;
      }
      return Fail(Err("42704", "role \"" + name + "\" does not exist"));
    }
    if (name == user_) {
      return Fail(Err("55006", "current user cannot be dropped"));
    }
    // What the role owns stops it, as PostgreSQL's shared dependencies
    // do: this database's objects, the databases it owns, then a count for
    // each other database.
    PgError error;
    if (!LoadCatalog(&error)) return Fail(error);
    std::vector<std::string> lines =
        OwnedObjects(*catalog_, name, MakeDropClosure());
    std::vector<std::string> databases, elsewhere;
    docstore::Status s = storage_->ListDatabases(&databases);
    for (const auto& db : databases) {
      if (!s.ok()) break;
      if (db == docstore::kAdminDb) continue;
      DatabaseRecord record;
      s = ReadDatabaseRecord(storage_.get(), db, &record);
      if (s.ok() && record.owner == name)
        lines.push_back("owner of database " + db);
      if (!s.ok() || db == database_) continue;
      std::shared_ptr<const catalog::Catalog> other;
      s = catalog::Catalog::Load(storage_.get(), db, &other);
      size_t n =
          s.ok() ? OwnedObjects(*other, name, MakeDropClosure()).size() : 0;
      if (n)
        elsewhere.push_back(std::to_string(n) + " object" +
                            (n == 1 ? "" : "s") + " in database " + db);
    }
    if (!s.ok()) return Fail(TableError(s));
    lines.insert(lines.end(), elsewhere.begin(), elsewhere.end());
    if (!lines.empty()) {
      PgError e = Err("2BP01", "role \"" + name +
                                   "\" cannot be dropped because some "
                                   "objects depend on it");
      for (const auto& line : lines)
        e.detail += (e.detail.empty() ? "" : "\n") + line;
      return Fail(e);
    }
    to_drop.push_back(name);
  }
  for (const auto& name : to_drop) {
    PgError error;
    if (!EngineDropRole(engine_, name, &error)) return Fail(error);
  }
  return Tag("DROP ROLE");
}

}  // namespace kova::planner
