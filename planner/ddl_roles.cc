// CREATE / ALTER / DROP ROLE and ALTER ROLE ... RENAME (roles are kept by
// the engine, across databases).
#include <algorithm>
#include <cstring>

#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

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
    to_drop.push_back(name);
  }
  for (const auto& name : to_drop) {
    PgError error;
    if (!EngineDropRole(engine_, name, &error)) return Fail(error);
  }
  return Tag("DROP ROLE");
}

}  // namespace kova::planner
