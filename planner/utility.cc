// Utility statements of the planner session: transaction control, SET,
// DISCARD, DEALLOCATE, roles and databases (and the dispatch to them).
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {
namespace {

// The text of a SET argument (A_Const or a TIME ZONE interval).
bool SetArgText(const PgQuery__Node* arg, const std::string& name,
                std::string* out, PgError* error) {
  if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const PgQuery__AConst* c = arg->a_const;
    switch (c->val_case) {
      case PG_QUERY__A__CONST__VAL_SVAL:
        *out = c->sval->sval;
        return true;
      case PG_QUERY__A__CONST__VAL_IVAL:
        if (name == "timezone") {
          // SET TIME ZONE 5 -> "<+05>-05" (a POSIX zone, sign inverted)
          int h = c->ival->ival;
          char buf[32];
          std::snprintf(buf, sizeof(buf), "<%c%02d>%c%02d", h < 0 ? '-' : '+',
                        std::abs(h), h < 0 ? '+' : '-', std::abs(h));
          *out = buf;
          return true;
        }
        *out = std::to_string(c->ival->ival);
        return true;
      case PG_QUERY__A__CONST__VAL_FVAL:
        if (name == "timezone") {
          // SET TIME ZONE 4.5 -> "<+04:30>-04:30"
          double hours = std::atof(c->fval->fval);
          int minutes = static_cast<int>(std::lround(std::fabs(hours) * 60));
          char sign = hours < 0 ? '-' : '+', inverse = hours < 0 ? '+' : '-';
          char buf[48];
          if (minutes % 60 == 0) {
            std::snprintf(buf, sizeof(buf), "<%c%02d>%c%02d", sign,
                          minutes / 60, inverse, minutes / 60);
          } else {
            std::snprintf(buf, sizeof(buf), "<%c%02d:%02d>%c%02d:%02d", sign,
                          minutes / 60, minutes % 60, inverse, minutes / 60,
                          minutes % 60);
          }
          *out = buf;
          return true;
        }
        *out = c->fval->fval;
        return true;
      case PG_QUERY__A__CONST__VAL_BOOLVAL:
        *out = c->boolval->boolval ? "on" : "off";
        return true;
      default:
        break;
    }
  }
  if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && name == "timezone" &&
      arg->type_cast->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      arg->type_cast->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
    // SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE
    std::string v = arg->type_cast->arg->a_const->sval->sval;
    bool negative = !v.empty() && v[0] == '-';
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) v = v.substr(1);
    int h = std::atoi(v.c_str());
    size_t colon = v.find(':');
    int m = colon == std::string::npos ? 0 : std::atoi(v.c_str() + colon + 1);
    char buf[48];
    if (m == 0) {
      std::snprintf(buf, sizeof(buf), "<%c%02d>%c%02d", negative ? '-' : '+', h,
                    negative ? '+' : '-', h);
    } else {
      std::snprintf(buf, sizeof(buf), "<%c%02d:%02d>%c%02d:%02d",
                    negative ? '-' : '+', h, m, negative ? '+' : '-', h, m);
    }
    *out = buf;
    return true;
  }
  *error = Err("0A000", "this form of SET is not supported yet");
  return false;
}

std::string QuoteIdentifierIfNeeded(const std::string& s) {
  bool plain = !s.empty() &&
               (std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_');
  for (char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '$'))
      plain = false;
  if (plain) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

// The statement's name for "X is not supported yet" messages.
const char* StatementName(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return "INSERT";
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return "UPDATE";
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return "DELETE";
    case PG_QUERY__NODE__NODE_MERGE_STMT:
      return "MERGE";
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      return "CREATE TABLE";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return node->create_table_as_stmt->objtype ==
                     PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW
                 ? "CREATE MATERIALIZED VIEW"
                 : "CREATE TABLE AS";
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return "ALTER TABLE";
    case PG_QUERY__NODE__NODE_DROP_STMT:
      switch (node->drop_stmt->remove_type) {
        case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
          return "DROP TABLE";
        case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
          return "DROP INDEX";
        case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
          return "DROP SEQUENCE";
        case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
          return "DROP VIEW";
        case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
          return "DROP SCHEMA";
        case PG_QUERY__OBJECT_TYPE__OBJECT_TYPE:
          return "DROP TYPE";
        case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
          return "DROP FUNCTION";
        default:
          return "DROP";
      }
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return "TRUNCATE";
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      return "CREATE INDEX";
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
      return "CREATE SEQUENCE";
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
      return "ALTER SEQUENCE";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
      return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      return "CREATE VIEW";
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
      return "COMMENT";
    case PG_QUERY__NODE__NODE_GRANT_STMT:
      return "GRANT/REVOKE";
    case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
      return "GRANT/REVOKE role";
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      return "EXPLAIN";
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
      return "CREATE FUNCTION";
    case PG_QUERY__NODE__NODE_DO_STMT:
      return "DO";
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
      return "PREPARE";
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
      return "EXECUTE";
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
      return "DECLARE CURSOR";
    case PG_QUERY__NODE__NODE_FETCH_STMT:
      return "FETCH/MOVE";
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
      return "CLOSE";
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
      return "LISTEN";
    case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT:
      return "SET CONSTRAINTS";
    case PG_QUERY__NODE__NODE_NOTIFY_STMT:
      return "NOTIFY";
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
      return "UNLISTEN";
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
      return "VACUUM/ANALYZE";
    case PG_QUERY__NODE__NODE_REINDEX_STMT:
      return "REINDEX";
    case PG_QUERY__NODE__NODE_CLUSTER_STMT:
      return "CLUSTER";
    case PG_QUERY__NODE__NODE_LOCK_STMT:
      return "LOCK";
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
      return "CREATE TYPE AS ENUM";
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
      return "CREATE DOMAIN";
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT:
      return "CREATE TYPE";
    case PG_QUERY__NODE__NODE_DEFINE_STMT:
      return "CREATE aggregate/operator/type";
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT:
      return "CREATE EXTENSION";
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT:
      return "CREATE TRIGGER";
    case PG_QUERY__NODE__NODE_RULE_STMT:
      return "CREATE RULE";
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return "ALTER ... RENAME";
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
      return "ALTER ... OWNER TO";
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
      return "ALTER ... SET SCHEMA";
    case PG_QUERY__NODE__NODE_CREATE_POLICY_STMT:
      return "CREATE POLICY";
    case PG_QUERY__NODE__NODE_REFRESH_MAT_VIEW_STMT:
      return "REFRESH MATERIALIZED VIEW";
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
      return "CHECKPOINT";
    case PG_QUERY__NODE__NODE_CALL_STMT:
      return "CALL";
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT:
      return "ALTER DATABASE";
    case PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT:
      return "ALTER ROLE ... SET";
    case PG_QUERY__NODE__NODE_ALTER_DEFAULT_PRIVILEGES_STMT:
      return "ALTER DEFAULT PRIVILEGES";
    case PG_QUERY__NODE__NODE_CREATE_STATS_STMT:
      return "CREATE STATISTICS";
    case PG_QUERY__NODE__NODE_SEC_LABEL_STMT:
      return "SECURITY LABEL";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_SPACE_STMT:
      return "CREATE TABLESPACE";
    case PG_QUERY__NODE__NODE_CREATE_CONVERSION_STMT:
      return "CREATE CONVERSION";
    case PG_QUERY__NODE__NODE_CREATE_CAST_STMT:
      return "CREATE CAST";
    case PG_QUERY__NODE__NODE_CREATE_PUBLICATION_STMT:
      return "CREATE PUBLICATION";
    case PG_QUERY__NODE__NODE_CREATE_SUBSCRIPTION_STMT:
      return "CREATE SUBSCRIPTION";
    case PG_QUERY__NODE__NODE_CREATE_EVENT_TRIG_STMT:
      return "CREATE EVENT TRIGGER";
    case PG_QUERY__NODE__NODE_CREATE_FDW_STMT:
      return "CREATE FOREIGN DATA WRAPPER";
    case PG_QUERY__NODE__NODE_CREATE_FOREIGN_SERVER_STMT:
      return "CREATE SERVER";
    case PG_QUERY__NODE__NODE_CREATE_FOREIGN_TABLE_STMT:
      return "CREATE FOREIGN TABLE";
    case PG_QUERY__NODE__NODE_CREATE_USER_MAPPING_STMT:
      return "CREATE USER MAPPING";
    case PG_QUERY__NODE__NODE_IMPORT_FOREIGN_SCHEMA_STMT:
      return "IMPORT FOREIGN SCHEMA";
    case PG_QUERY__NODE__NODE_CREATE_TRANSFORM_STMT:
      return "CREATE TRANSFORM";
    case PG_QUERY__NODE__NODE_CREATE_AM_STMT:
      return "CREATE ACCESS METHOD";
    case PG_QUERY__NODE__NODE_CREATE_OP_CLASS_STMT:
      return "CREATE OPERATOR CLASS";
    case PG_QUERY__NODE__NODE_CREATE_OP_FAMILY_STMT:
      return "CREATE OPERATOR FAMILY";
    case PG_QUERY__NODE__NODE_ALTER_SYSTEM_STMT:
      return "ALTER SYSTEM";
    case PG_QUERY__NODE__NODE_LOAD_STMT:
      return "LOAD";
    case PG_QUERY__NODE__NODE_CREATE_PLANG_STMT:
      return "CREATE LANGUAGE";
    default: {
      // Any other statement: its parse node's name ("create_stats_stmt").
      const ProtobufCFieldDescriptor* field =
          protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor,
                                                  node->node_case);
      return field ? field->name : "this statement";
    }
  }
}

ExecuteResult SessionImpl::RunUtility(const Plan& plan, ResultSink* sink) {
  const PgQuery__Node* node = plan.node;
  if (IsTypeStatement(node)) return RunTypeStatement(node, sink);
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
      return RunPrepare(plan);
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
      return RunVacuum(node->vacuum_stmt);
    case PG_QUERY__NODE__NODE_REINDEX_STMT:
      return RunReindex(node->reindex_stmt);
    case PG_QUERY__NODE__NODE_CLUSTER_STMT:
      return RunCluster(node->cluster_stmt);
    case PG_QUERY__NODE__NODE_LOCK_STMT: {
      // LOCK TABLE: the mode, then each relation as "schema.name" (empty
      // schema: unqualified); checked by kova_lock_table
      // (system_functions.cc).
      const PgQuery__LockStmt* lock = node->lock_stmt;
      std::vector<Value> args = {std::to_string(lock->mode)};
      for (size_t i = 0; i < lock->n_relations; i++) {
        const PgQuery__RangeVar* r = lock->relations[i]->range_var;
        args.push_back(std::string(r->schemaname ? r->schemaname : "") + "." +
                       r->relname);
      }
      Value ignored;
      PgError error;
      if (!CallSystemFunction("kova_lock_table", args, &ignored, &error))
        return Fail(error);
      return Tag("LOCK TABLE");
    }
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      return RunCreateTable(node->create_stmt, sink);
    case PG_QUERY__NODE__NODE_DROP_STMT:
      return RunDrop(node->drop_stmt, sink);
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
      return RunCreateSequence(node->create_seq_stmt, sink);
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
      return RunAlterSequence(node->alter_seq_stmt, sink);
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      return RunCancellableDdl(
          plan.simple, [&] { return RunCreateIndex(node->index_stmt, sink); });
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
      return RunCreateSchema(node->create_schema_stmt, sink);
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return RunTruncate(node->truncate_stmt, sink);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return RunCancellableDdl(plan.simple, [&] {
        return RunAlterTable(node->alter_table_stmt, sink);
      });
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      return RunCreateView(node->view_stmt, plan);
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
      if (node->comment_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE)
        return RunCommentOnDatabase(node->comment_stmt, sink);
      return RunComment(node->comment_stmt);
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_STMT:
      return RunAlterDatabase(node->alter_database_stmt);
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT:
      return RunAlterDatabaseSet(node->alter_database_set_stmt);
    case PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT:
      return RunAlterRoleSet(node->alter_role_set_stmt);
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
      return RunAlterOwner(node->alter_owner_stmt);
    case PG_QUERY__NODE__NODE_GRANT_STMT:
      return RunGrant(node->grant_stmt);
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
      return RunTransaction(node->transaction_stmt, sink);
    case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT:
      return RunSetConstraints(node->constraints_set_stmt, sink);
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
    case PG_QUERY__NODE__NODE_NOTIFY_STMT:
      return RunListen(node);
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT: {
      const PgQuery__VariableSetStmt* set = node->variable_set_stmt;
      if (set->is_local && !in_block_ && !implicit_) {
        Notice(sink, "WARNING", "25P01",
               "SET LOCAL can only be used in transaction blocks");
        return Tag("SET");
      }
      return RunSet(set, sink);
    }
    case PG_QUERY__NODE__NODE_DISCARD_STMT: {
      auto target = node->discard_stmt->target;
      if (target == PG_QUERY__DISCARD_MODE__DISCARD_ALL) {
        if (in_block_) {
          return Fail(Err("25001",
                          "DISCARD ALL cannot run inside a transaction block"));
        }
        settings_.ResetAll();
        pending_notify_.listens.emplace_back('U', "");  // UNLISTEN *
        sql_prepared_.clear();
        sink->DeallocateAllPrepared();
        return Tag("DISCARD ALL");
      }
      // No plan cache, temporary tables or sequence caches yet: nothing is
      // held that these would discard.
      return Tag(target == PG_QUERY__DISCARD_MODE__DISCARD_PLANS
                     ? "DISCARD PLANS"
                 : target == PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES
                     ? "DISCARD SEQUENCES"
                     : "DISCARD TEMP");
    }
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: {
      const char* name = node->deallocate_stmt->name;
      if (!name || !*name) {
        sql_prepared_.clear();
        sink->DeallocateAllPrepared();
        return Tag("DEALLOCATE ALL");
      }
      if (!sql_prepared_.erase(name) && !sink->DeallocatePrepared(name)) {
        return Fail(Err("26000", "prepared statement \"" + std::string(name) +
                                     "\" does not exist"));
      }
      return Tag("DEALLOCATE");
    }
    case PG_QUERY__NODE__NODE_CREATEDB_STMT: {
      PgError ro;
      if (!CheckWritable("CREATE DATABASE", &ro)) return Fail(ro);
      if (in_block_ || implicit_) {
        return Fail(Err("25001",
                        "CREATE DATABASE cannot run inside a transaction "
                        "block"));
      }
      std::string name = node->createdb_stmt->dbname;
      const PgQuery__CreatedbStmt* cdb = node->createdb_stmt;
      std::vector<std::string> seen;
      std::string owner = user_;
      for (size_t i = 0; i < cdb->n_options; i++) {
        const PgQuery__DefElem* d = cdb->options[i]->def_elem;
        std::string opt = d->defname;
        static const char* kKnown[] = {"owner",
                                       "template",
                                       "encoding",
                                       "locale",
                                       "lc_collate",
                                       "lc_ctype",
                                       "icu_locale",
                                       "locale_provider",
                                       "collation_version",
                                       "connection_limit",
                                       "is_template",
                                       "allow_connections",
                                       "tablespace",
                                       "strategy",
                                       "oid"};
        if (std::find(std::begin(kKnown), std::end(kKnown), opt) ==
            std::end(kKnown)) {
          return Fail(Err("42601", "option \"" + opt + "\" not recognized",
                          d->location));
        }
        if (std::find(seen.begin(), seen.end(), opt) != seen.end()) {
          return Fail(
              Err("42601", "conflicting or redundant options", d->location));
        }
        seen.push_back(opt);
        if (opt == "owner" && d->arg &&
            d->arg->node_case == PG_QUERY__NODE__NODE_STRING) {
          RoleRecord role;
          if (!EngineFindRole(engine_, d->arg->string->sval, &role)) {
            return Fail(Err("42704", "role \"" +
                                         std::string(d->arg->string->sval) +
                                         "\" does not exist"));
          }
          owner = d->arg->string->sval;
        }
        // A new database is always empty here: a copy of another one is not.
        if (opt == "template" && d->arg &&
            d->arg->node_case == PG_QUERY__NODE__NODE_STRING) {
          std::string from = d->arg->string->sval;
          if (from != "template0" && from != "template1")
            return Fail(
                Err("0A000", "CREATE DATABASE ... TEMPLATE " + from +
                                 " is not supported yet (databases are created "
                                 "empty, as from template0)"));
        }
      }
      if (name == docstore::kAdminDb) {
        return Fail(Err("42939",
                        "database name \"admin\" is reserved for "
                        "Kova's admin.counters"));
      }
      PgError e;
      if (!EngineCreateDatabase(engine_, name, &e)) return Fail(e);
      if (!UpdateDatabaseRecord(
              name,
              [&](DatabaseRecord* r) {
                r->owner = owner;
                return true;
              },
              &e))
        return Fail(e);
      return Tag("CREATE DATABASE");
    }
    case PG_QUERY__NODE__NODE_DROPDB_STMT: {
      PgError ro;
      if (!CheckWritable("DROP DATABASE", &ro)) return Fail(ro);
      if (in_block_ || implicit_) {
        return Fail(Err("25001",
                        "DROP DATABASE cannot run inside a transaction block"));
      }
      std::string name = node->dropdb_stmt->dbname;
      if (name == database_) {
        return Fail(Err("55006", "cannot drop the currently open database"));
      }
      if (!engine_->DatabaseExists(name)) {
        if (node->dropdb_stmt->missing_ok) {
          Notice(sink, "NOTICE", "00000",
                 "database \"" + name + "\" does not exist, skipping");
          return Tag("DROP DATABASE");
        }
        return Fail(Err("3D000", "database \"" + name + "\" does not exist"));
      }
      // WITH (FORCE) ends the other sessions of the database first.
      bool force = false;
      for (size_t i = 0; i < node->dropdb_stmt->n_options; i++) {
        const PgQuery__DefElem* d = node->dropdb_stmt->options[i]->def_elem;
        if (std::string_view(d->defname) == "force") {
          force = true;
        } else {
          return Fail(Err("42601",
                          "unrecognized DROP DATABASE option \"" +
                              std::string(d->defname) + "\"",
                          d->location));
        }
      }
      PgError e;
      if (!EngineDropDatabase(engine_, name, force, &e)) return Fail(e);
      return Tag("DROP DATABASE");
    }
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT: {
      PgError ro;
      const char* what =
          node->node_case == PG_QUERY__NODE__NODE_CREATE_ROLE_STMT
              ? "CREATE ROLE"
          : node->node_case == PG_QUERY__NODE__NODE_ALTER_ROLE_STMT
              ? "ALTER ROLE"
              : "DROP ROLE";
      if (!CheckWritable(what, &ro)) return Fail(ro);
      break;
    }
    default:
      break;
  }
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
      return RunCreateRole(node->create_role_stmt);
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
      return RunAlterRole(node->alter_role_stmt);
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
      return RunDropRole(node->drop_role_stmt, sink);
    case PG_QUERY__NODE__NODE_RENAME_STMT: {
      if (node->rename_stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_ROLE)
        return RunRenameObject(node->rename_stmt, sink);
      PgError ro;
      if (!CheckWritable("ALTER ROLE", &ro)) return Fail(ro);
      return RunRenameRole(node->rename_stmt, sink);
    }
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
      if (IsRelationSetSchema(node))
        return RunSetSchema(node->alter_object_schema_stmt, sink);
      return Fail(Err("0A000",
                      "ALTER ... SET SCHEMA of this kind of object is not "
                      "supported yet (tables, views, sequences, types and "
                      "domains are)"));
    case PG_QUERY__NODE__NODE_COPY_STMT:
      return RunCopy(plan, sink);
    case PG_QUERY__NODE__NODE_FETCH_STMT: {  // MOVE
      const PgQuery__FetchStmt* f = node->fetch_stmt;
      auto it = cursors_.find(f->portalname);
      if (it == cursors_.end()) {
        return Fail(Err("34000", "cursor \"" + std::string(f->portalname) +
                                     "\" does not exist"));
      }
      uint64_t moved;
      PgError error;
      if (!CursorFetch(it->second, f, nullptr, &moved, &error))
        return Fail(error);
      return Tag("MOVE " + std::to_string(moved));
    }
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT: {
      const char* name = node->close_portal_stmt->portalname;
      if (!name || !*name) {
        cursors_.clear();
        return Tag("CLOSE CURSOR ALL");
      }
      if (!cursors_.erase(name)) {
        return Fail(Err("34000",
                        "cursor \"" + std::string(name) + "\" does not exist"));
      }
      return Tag("CLOSE CURSOR");
    }
    default:
      return Fail(Err("0A000", NotSupportedMessage(node)));
  }
}

bool SessionImpl::ApplyTransactionOptions(PgQuery__Node* const* options,
                                          size_t n, PgError* error) {
  for (size_t i = 0; i < n; i++) {
    if (options[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
    const PgQuery__DefElem* d = options[i]->def_elem;
    std::string opt = d->defname;
    std::string value;
    if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
      const PgQuery__AConst* c = d->arg->a_const;
      if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL) value = c->sval->sval;
      if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL)
        value = c->ival->ival ? "on" : "off";
    }
    if (opt == "transaction_deferrable")
      continue;  // only matters for
                 // SERIALIZABLE READ ONLY
    if (opt != "transaction_isolation" && opt != "transaction_read_only") {
      *error =
          Err("0A000", "transaction option " + opt + " is not supported yet");
      return false;
    }
    if (!settings_.Set(opt, value, /*is_local=*/true, error)) return false;
  }
  return true;
}

bool SessionImpl::CheckWritable(const char* what, PgError* error) {
  if (read_only_generation_ != settings_.generation()) {
    transaction_read_only_ = settings_.Get("transaction_read_only") == "on";
    default_read_only_ = settings_.Get("default_transaction_read_only") == "on";
    read_only_generation_ = settings_.generation();
  }
  if (transaction_read_only_ || (!in_block_ && default_read_only_)) {
    *error = Err("25006", std::string("cannot execute ") + what +
                              " in a read-only transaction");
    return false;
  }
  return true;
}

ExecuteResult SessionImpl::RunDeclare(const Plan& plan,
                                      const std::vector<Value>& params) {
  const PgQuery__DeclareCursorStmt* d = plan.node->declare_cursor_stmt;
  constexpr int kCursorOptHold = 0x0020;  // parsenodes.h CURSOR_OPT_HOLD
  constexpr int kCursorOptScroll = 0x0002;
  bool hold = (d->options & kCursorOptHold) != 0;
  if (!hold && !in_block_) {
    return Fail(
        Err("25P01", "DECLARE CURSOR can only be used in transaction blocks"));
  }
  if (cursors_.count(d->portalname)) {
    return Fail(Err("42P03", "cursor \"" + std::string(d->portalname) +
                                 "\" already exists"));
  }
  PortalImpl portal;
  portal.plan = plan.cursor_query;
  portal.params = params;
  portal.formats.assign(plan.cursor_query->columns.size(), Format::kText);
  PgError error;
  if (!ComputeSelectRows(&portal, &error)) return Fail(error);
  Cursor& c = cursors_[d->portalname];
  c.plan = plan.cursor_query;
  c.rows = std::move(portal.rows);
  c.hold = hold;
  // PerformCursorOpen: neither SCROLL nor NO SCROLL scrolls when the plan
  // can run backward.
  constexpr int kCursorOptNoScroll = 0x0004;
  c.scroll = (d->options & kCursorOptScroll) ||
             (!(d->options & kCursorOptNoScroll) &&
              CursorScrollsByDefault(d->query->select_stmt));
  return Tag("DECLARE CURSOR");
}

ExecuteResult SessionImpl::RunTransaction(const PgQuery__TransactionStmt* t,
                                          ResultSink* sink) {
  bool end = t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
             t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK;
  if (end && t->chain) {
    const char* what =
        t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT
            ? "COMMIT AND CHAIN"
            : "ROLLBACK AND CHAIN";
    if (!in_block_) {
      return Fail(Err("25P01", std::string(what) +
                                   " can only be used in transaction blocks"));
    }
    // The new transaction keeps the characteristics of the old one.
    std::string isolation = settings_.Get("transaction_isolation");
    std::string read_only = settings_.Get("transaction_read_only");
    PgQuery__TransactionStmt plain = *t;
    plain.chain = false;
    ExecuteResult r = RunTransaction(&plain, sink);
    if (!r.ok) return r;
    txn_start_ = NowMicros();
    settings_.OnBegin();
    txn_serial_++;
    in_block_ = true;
    PgError error;
    if (!settings_.Set("transaction_isolation", isolation, true, &error) ||
        !settings_.Set("transaction_read_only", read_only, true, &error))
      return Fail(error);
    return r;
  }
  switch (t->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: {
      std::string tag =
          t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN
              ? "BEGIN"
              : "START TRANSACTION";
      if (in_block_) {
        Notice(sink, "WARNING", "25001",
               "there is already a transaction in progress");
        return Tag(tag);
      }
      if (implicit_) {  // BEGIN inside a multi-statement query
        implicit_ = false;
      } else {
        txn_start_ = NowMicros();
        settings_.OnBegin();
        txn_serial_++;
      }
      in_block_ = true;
      failed_ = false;
      savepoints_.clear();
      PgError error;
      if (!ApplyTransactionOptions(t->options, t->n_options, &error))
        return Fail(error);
      return Tag(tag);
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT: {
      if (!in_block_) {
        // An implicit block (several statements in one query) is not a
        // transaction block: PostgreSQL warns, and commits it.
        Notice(sink, "WARNING", "25P01", "there is no transaction in progress");
        if (implicit_) EndImplicit(/*commit=*/true);
        return Tag("COMMIT");
      }
      bool was_failed = failed_;
      in_block_ = implicit_ = failed_ = false;
      DropTransactionCursors();
      savepoints_.clear();
      ReleaseAdvisoryLocks(/*session_level=*/false);
      if (was_failed) {
        if (storage_->in_transaction()) storage_->Rollback();
        settings_.OnRollback();
        TransactionEnded(false);
        return Tag("ROLLBACK");
      }
      // Deferred constraints are checked as the block commits; a violation
      // fails the COMMIT and rolls the block back.
      PgError deferred;
      if (!CheckDeferredConstraints(&deferred)) {
        if (storage_->in_transaction()) storage_->Rollback();
        settings_.OnRollback();
        TransactionEnded(false);
        return Fail(deferred);
      }
      docstore::Status s =
          storage_->in_transaction() ? CommitStorage() : docstore::Status::OK();
      if (!s.ok()) {
        settings_.OnRollback();
        TransactionEnded(false);
        return Fail(StorageError(s));
      }
      settings_.OnCommit();
      TransactionEnded(true);
      return Tag("COMMIT");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK: {
      if (!in_block_) {
        Notice(sink, "WARNING", "25P01", "there is no transaction in progress");
        if (implicit_) EndImplicit(/*commit=*/false);
        return Tag("ROLLBACK");
      }
      in_block_ = implicit_ = failed_ = false;
      DropTransactionCursors();
      savepoints_.clear();
      ReleaseAdvisoryLocks(/*session_level=*/false);
      if (storage_->in_transaction()) storage_->Rollback();
      settings_.OnRollback();
      TransactionEnded(false);
      return Tag("ROLLBACK");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT: {
      if (!in_block_) {
        return Fail(
            Err("25P01", "SAVEPOINT can only be used in transaction blocks"));
      }
      std::string name = t->savepoint_name;
      // The storage transaction starts with the first statement that needs
      // it; a savepoint does.
      docstore::Status s = EnsureStorageTransaction();
      if (s.ok()) s = storage_->Savepoint(name);
      if (!s.ok()) return Fail(StorageError(s));
      savepoints_.push_back(name);
      savepoint_constraint_modes_.resize(savepoints_.size() - 1);
      savepoint_constraint_modes_.push_back(
          {constraints_all_, constraints_deferred_});
      settings_.OnSavepoint(name);
      NotifySavepoint(name, 'S');
      return Tag("SAVEPOINT");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO: {
      bool release =
          t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE;
      std::string name = t->savepoint_name;
      if (!in_block_) {
        return Fail(
            Err("25P01", std::string(release ? "RELEASE SAVEPOINT"
                                             : "ROLLBACK TO SAVEPOINT") +
                             " can only be used in transaction "
                             "blocks"));
      }
      auto it = std::find(savepoints_.rbegin(), savepoints_.rend(), name);
      if (it == savepoints_.rend()) {
        return Fail(Err("3B001", "savepoint \"" + name + "\" does not exist"));
      }
      size_t index = savepoints_.size() - 1 - (it - savepoints_.rbegin());
      if (release) {
        docstore::Status s = storage_->ReleaseSavepoint(name);
        if (!s.ok()) return Fail(StorageError(s));
        savepoints_.resize(index);
        if (savepoint_constraint_modes_.size() > index)
          savepoint_constraint_modes_.resize(index);
        settings_.OnReleaseSavepoint(name);
        NotifySavepoint(name, 'X');
        return Tag("RELEASE");
      }
      docstore::Status s = storage_->RollbackToSavepoint(name);
      if (!s.ok()) return Fail(StorageError(s));
      savepoints_.resize(index + 1);
      // SET CONSTRAINTS since the savepoint is undone, as in PostgreSQL.
      if (savepoint_constraint_modes_.size() > index) {
        constraints_all_ = savepoint_constraint_modes_[index].all;
        constraints_deferred_ = savepoint_constraint_modes_[index].deferred;
        savepoint_constraint_modes_.resize(index + 1);
      }
      settings_.OnRollbackToSavepoint(name);
      NotifySavepoint(name, 'R');
      failed_ = false;
      return Tag("ROLLBACK");
    }
    default:
      return Fail(Err("0A000", "two-phase commit is not supported"));
  }
}

bool SetStatementValue(const PgQuery__VariableSetStmt* set, std::string* value,
                       PgError* error) {
  std::string name = set->name ? set->name : "";
  value->clear();
  for (size_t i = 0; i < set->n_args; i++) {
    std::string part;
    if (!SetArgText(set->args[i], name, &part, error)) return false;
    if (i) *value += ", ";
    *value += name == "search_path" ? QuoteIdentifierIfNeeded(part) : part;
  }
  return true;
}

ExecuteResult SessionImpl::RunSet(const PgQuery__VariableSetStmt* set,
                                  ResultSink* sink) {
  std::string name = set->name ? set->name : "";
  PgError error;
  if (name == "session_authorization" || name == "role") {
    // Switching to another role is not built; staying the session's own
    // user is (pg_dump --disable-triggers writes SET SESSION AUTHORIZATION
    // DEFAULT, pg_restore --role its role).
    std::string value;
    if (set->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE &&
        !SetStatementValue(set, &value, &error))
      return Fail(error);
    bool stays = set->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ||
                 value == user_ || (name == "role" && value == "none");
    if (stays)
      return Tag(set->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET"
                                                                     : "SET");
    RoleRecord role;
    if (!EngineFindRole(engine_, value, &role))
      return Fail(Err("42704", "role \"" + value + "\" does not exist"));
    return Fail(Err("0A000", name == "role"
                                 ? "SET ROLE to another role is not supported "
                                   "yet"
                                 : "SET SESSION AUTHORIZATION to another role "
                                   "is not supported yet"));
  }
  switch (set->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE: {
      std::string value;
      if (!SetStatementValue(set, &value, &error)) return Fail(error);
      if (name == "timezone") name = "TimeZone";
      // pg_dump 17 starts its dumps with SET transaction_timeout = 0, a
      // setting PostgreSQL 15 does not have (it would fail with 42704).
      // Accepted on purpose so that newer dumps restore: 0 disables the
      // timeout, which is what Kova does anyway; another value is refused.
      if (name == "transaction_timeout" && !set->is_local) {
        if (value == "0") return Tag("SET");
        return Fail(Err("0A000", "transaction_timeout is not supported yet"));
      }
      if (!settings_.Set(name, value, set->is_local, &error))
        return Fail(error);
      return Tag("SET");
    }
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
      if (name == "timezone") name = "TimeZone";
      if (!settings_.Reset(name, &error)) return Fail(error);
      return Tag(set->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET"
                                                                     : "SET");
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      settings_.ResetAll();
      return Tag("RESET");
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_CURRENT:
      return Tag("SET");  // SET x FROM CURRENT keeps the current value
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI: {
      // SET TRANSACTION / SET SESSION CHARACTERISTICS AS TRANSACTION ...
      bool session = name == "SESSION CHARACTERISTICS";
      if (!session && !in_block_) {
        Notice(sink, "WARNING", "25P01",
               "SET TRANSACTION can only be used in transaction blocks");
        return Tag("SET");
      }
      for (size_t i = 0; i < set->n_args; i++) {
        const PgQuery__Node* arg = set->args[i];
        if (arg->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
        const PgQuery__DefElem* d = arg->def_elem;
        std::string opt = d->defname;
        std::string value;
        if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
          const PgQuery__AConst* c = d->arg->a_const;
          if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL)
            value = c->sval->sval;
          if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL)
            value = c->ival->ival ? "on" : "off";
        }
        std::string setting = opt == "transaction_isolation"
                                  ? (session ? "default_transaction_isolation"
                                             : "transaction_isolation")
                              : opt == "transaction_read_only"
                                  ? (session ? "default_transaction_read_only"
                                             : "transaction_read_only")
                                  : "";
        if (setting.empty()) {
          return Fail(
              Err("0A000", "SET TRANSACTION " + opt + " is not supported yet"));
        }

        if (!settings_.Set(setting, value, !session, &error))
          return Fail(error);
      }
      return Tag("SET");
    }
    default:
      return Fail(Err("0A000", "this form of SET is not supported yet"));
  }
}

}  // namespace kova::planner
