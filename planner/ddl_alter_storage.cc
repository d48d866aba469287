// ALTER TABLE / ALTER INDEX subcommands that tune PostgreSQL's physical
// storage: SET / RESET (storage parameters), ALTER COLUMN SET STATISTICS,
// SET STORAGE, SET / RESET (n_distinct ...), REPLICA IDENTITY and CLUSTER ON.
// Documents in SQLite have no heap pages, planner statistics, TOAST or
// logical replication, so these change no behaviour in Kova; they are
// validated as PostgreSQL validates them and recorded in the catalog, where
// pg_class, pg_attribute, pg_index, psql's \d+ and pg_dump read them back.
// Also ENABLE / DISABLE TRIGGER, which does change behaviour: the foreign
// key checks and actions are the only triggers a Kova table has.
#include <strings.h>

#include "planner/ddl_alter_internal.h"
#include "planner/reloptions.h"
#include "planner/session_util.h"
#include "planner/system_catalog_internal.h"
#include "planner/user_types.h"

namespace kova::planner {
namespace {

// The DefElem list of SET (...) / RESET (...).
void DefList(const PgQuery__AlterTableCmd* cmd, PgQuery__Node* const** defs,
             size_t* n) {
  *defs = nullptr;
  *n = 0;
  if (cmd->def && cmd->def->node_case == PG_QUERY__NODE__NODE_LIST) {
    *defs = cmd->def->list->items;
    *n = cmd->def->list->n_items;
  }
}

bool IsReset(const PgQuery__AlterTableCmd* cmd) {
  return cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions ||
         cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetOptions;
}

// SET STATISTICS n: PostgreSQL's bounds (-1 is the default, above 10000 is
// lowered with a warning).
bool StatisticsTarget(const PgQuery__AlterTableCmd* cmd, int* target,
                      bool* lowered, PgError* error) {
  *lowered = false;
  *target = cmd->def && cmd->def->node_case == PG_QUERY__NODE__NODE_INTEGER
                ? cmd->def->integer->ival
                : -1;
  if (*target < -1) {
    *error = Err("22023", "statistics target " + std::to_string(*target) +
                              " is too low");
    return false;
  }
  if (*target > 10000) {
    *target = 10000;
    *lowered = true;
  }
  return true;
}

RelOptionTarget IndexTarget(const catalog::Index& x) {
  return x.method == "hash" ? RelOptionTarget::kHashIndex
                            : RelOptionTarget::kBtreeIndex;
}

}  // namespace

namespace alter_detail {

char TablePersistence(const catalog::Table& t) {
  if (t.schema.rfind("pg_temp", 0) == 0) return 't';
  return t.unlogged ? 'u' : 'p';
}

catalog::Index* FindIndexOf(catalog::Table* table, const catalog::Catalog& cat,
                            const std::string& name, PgError* error) {
  for (auto& x : table->indexes)
    if (x.name == name && !system_catalog::IsCounterIndex(*table, x)) return &x;
  const catalog::Index* elsewhere = nullptr;
  if (cat.FindIndexTable(table->schema, name, &elsewhere))
    *error = Err("42809", "\"" + name + "\" is not an index for table \"" +
                              table->name + "\"");
  else
    *error = Err("42704", "index \"" + name + "\" for table \"" + table->name +
                              "\" does not exist");
  return nullptr;
}

bool CheckClusterIndex(const catalog::Index& x, PgError* error) {
  if (!x.method.empty() && x.method != "btree") {
    *error = Err("0A000", "cannot cluster on index \"" + x.name +
                              "\" because access method does not support "
                              "clustering");
    return false;
  }
  if (!x.predicate.empty()) {
    *error = Err("0A000", "cannot cluster on partial index \"" + x.name + "\"");
    return false;
  }
  return true;
}

bool CheckForeignKeyPersistence(const catalog::Table& from,
                                const catalog::Table& to, PgError* error) {
  char mine = TablePersistence(from), theirs = TablePersistence(to);
  const char* message = nullptr;
  if (mine == 'p' && theirs != 'p')
    message =
        "constraints on permanent tables may reference only permanent "
        "tables";
  else if (mine == 'u' && theirs == 't')
    message =
        "constraints on unlogged tables may reference only permanent "
        "or unlogged tables";
  else if (mine == 't' && theirs != 't')
    message =
        "constraints on temporary tables may reference only temporary "
        "tables";
  if (!message) return true;
  *error = Err("42P16", message);
  return false;
}

}  // namespace alter_detail

bool AlterRunner::SetPersistence(const PgQuery__AlterTableCmd* cmd,
                                 PgError* error) {
  bool to_logged = cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetLogged;
  if (alter_detail::TablePersistence(table_) == 't') {
    *error =
        Err("42P16", std::string("cannot change logged status of table \"") +
                         table_.name + "\" because it is temporary");
    return false;
  }
  // PostgreSQL's checks: a table turning logged must reference only logged
  // tables; one turning unlogged must not be referenced by logged ones.
  std::string self = table_.schema + "." + table_.name;
  for (const auto& [key, t] : cat().tables()) {
    for (const auto& c : t.constraints) {
      if (c.kind != 'f') continue;
      bool mine = t.schema == table_.schema && t.name == table_.name;
      const catalog::Table* other = nullptr;
      if (to_logged && mine && c.ref_table != self) {
        size_t dot = c.ref_table.find('.');
        other = cat().FindTable(c.ref_table.substr(0, dot),
                                c.ref_table.substr(dot + 1));
        if (other && alter_detail::TablePersistence(*other) == 'p')
          other = nullptr;
      } else if (!to_logged && !mine && c.ref_table == self) {
        other = alter_detail::TablePersistence(t) == 'p' ? &t : nullptr;
      }
      if (!other) continue;
      *error = Err("42P16", "could not change table \"" + table_.name +
                                "\" to " + (to_logged ? "logged" : "unlogged") +
                                " because it references " +
                                (to_logged ? "unlogged" : "logged") +
                                " table \"" + other->name + "\"");
      return false;
    }
  }
  table_.unlogged = !to_logged;
  return true;
}

bool AlterRunner::SetTableSpaceOrMethod(const PgQuery__AlterTableCmd* cmd,
                                        PgError* error) {
  std::string name = cmd->name ? cmd->name : "";
  if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetTableSpace) {
    // One tablespace, pg_default, holds every table: moving there is
    // where the table already is.
    if (name == "pg_default") return true;
    *error = name == "pg_global"
                 ? Err("22023",
                       "only shared relations can be placed in pg_global "
                       "tablespace")
                 : Err("42704", "tablespace \"" + name + "\" does not exist");
    return false;
  }
  // SET ACCESS METHOD: heap, the only table access method, is the table's.
  if (name == "heap") return true;
  for (const char* index_am :
       {"btree", "hash", "gist", "gin", "spgist", "brin"})
    if (name == index_am) {
      *error =
          Err("42809", "access method \"" + name + "\" is not of type TABLE");
      return false;
    }
  *error = Err("42704", "access method \"" + name + "\" does not exist");
  return false;
}

bool AlterRunner::SetRelOptions(const PgQuery__AlterTableCmd* cmd,
                                PgError* error) {
  PgQuery__Node* const* defs;
  size_t n;
  DefList(cmd, &defs, &n);
  return MergeRelOptions(RelOptionTarget::kTable, defs, n, IsReset(cmd),
                         /*create_table=*/false, &table_.reloptions, error);
}

catalog::Column* AlterRunner::StorageColumn(const PgQuery__AlterTableCmd* cmd,
                                            PgError* error) {
  if (!cmd->name || !*cmd->name) {
    *error = Err("0A000", "cannot refer to non-index column by number");
    return nullptr;
  }
  for (auto& c : table_.columns)
    if (c.name == cmd->name) return &c;
  *error =
      Err("42703", "column \"" + std::string(cmd->name) + "\" of relation \"" +
                       table_.name + "\" does not exist");
  return nullptr;
}

bool AlterRunner::SetColumnStatistics(const PgQuery__AlterTableCmd* cmd,
                                      PgError* error) {
  int target;
  bool lowered;
  if (!StatisticsTarget(cmd, &target, &lowered, error)) return false;
  catalog::Column* column = StorageColumn(cmd, error);
  if (!column) return false;
  if (lowered)
    session_->Notice(sink_, "WARNING", "22023",
                     "lowering statistics target to 10000");
  column->stat_target = target;
  return true;
}

bool AlterRunner::SetColumnStorage(const PgQuery__AlterTableCmd* cmd,
                                   PgError* error) {
  std::string mode = alter_detail::Str(cmd->def);
  char storage = 0;
  const std::pair<const char*, char> kModes[] = {
      {"plain", 'p'}, {"external", 'e'}, {"extended", 'x'}, {"main", 'm'}};
  for (const auto& [name, code] : kModes)
    if (strcasecmp(mode.c_str(), name) == 0) storage = code;
  if (!storage) {
    *error = Err("22023", "invalid storage type \"" + mode + "\"");
    return false;
  }
  catalog::Column* column = StorageColumn(cmd, error);
  if (!column) return false;
  // Only a type PostgreSQL can TOAST takes anything but PLAIN.
  if (storage != 'p' && system_catalog::Storage(column->type) == 'p') {
    *error = Err("0A000", "column data type " +
                              alter_detail::TypeName(column->type) +
                              " can only have storage PLAIN");
    return false;
  }
  column->storage = storage;
  return true;
}

bool AlterRunner::SetColumnCompression(const PgQuery__AlterTableCmd* cmd,
                                       PgError* error) {
  catalog::Column* column = StorageColumn(cmd, error);
  return column && ColumnCompression(alter_detail::Str(cmd->def), column->type,
                                     &column->compression, error);
}

bool AlterRunner::SetColumnOptions(const PgQuery__AlterTableCmd* cmd,
                                   PgError* error) {
  catalog::Column* column = StorageColumn(cmd, error);
  if (!column) return false;
  PgQuery__Node* const* defs;
  size_t n;
  DefList(cmd, &defs, &n);
  return MergeRelOptions(RelOptionTarget::kColumn, defs, n, IsReset(cmd),
                         /*create_table=*/false, &column->attoptions, error);
}

bool AlterRunner::SetReplicaIdentity(const PgQuery__AlterTableCmd* cmd,
                                     PgError* error) {
  if (!cmd->def ||
      cmd->def->node_case != PG_QUERY__NODE__NODE_REPLICA_IDENTITY_STMT) {
    *error = Err("XX000", "REPLICA IDENTITY without its kind");
    return false;
  }
  const PgQuery__ReplicaIdentityStmt* ri = cmd->def->replica_identity_stmt;
  char kind =
      ri->identity_type && *ri->identity_type ? ri->identity_type[0] : 'd';
  catalog::Index* chosen = nullptr;
  if (kind == 'i') {
    std::string name = ri->name ? ri->name : "";
    chosen = alter_detail::FindIndexOf(&table_, cat(), name, error);
    if (!chosen) return false;
    const catalog::Constraint* key = nullptr;
    for (const auto& c : table_.constraints)
      if (!chosen->constraint.empty() && c.name == chosen->constraint) key = &c;
    if (!chosen->unique && !key) {
      *error = Err("42809", "cannot use non-unique index \"" + name +
                                "\" as replica identity");
      return false;
    }
    if (key && key->deferrable) {
      *error = Err("0A000", "cannot use non-immediate index \"" + name +
                                "\" as replica identity");
      return false;
    }
    for (size_t i = 0; i < chosen->columns.size(); i++)
      if (!chosen->expression(i).empty()) {
        *error = Err("0A000", "cannot use expression index \"" + name +
                                  "\" as replica identity");
        return false;
      }
    if (!chosen->predicate.empty()) {
      *error = Err("0A000", "cannot use partial index \"" + name +
                                "\" as replica identity");
      return false;
    }
    for (const auto& col : chosen->columns) {
      const catalog::Column* c = table_.FindColumn(col);
      if (c && !c->not_null) {
        *error = Err("42809", "index \"" + name +
                                  "\" cannot be used as replica identity "
                                  "because column \"" +
                                  col + "\" is nullable");
        return false;
      }
    }
  }
  table_.replica_identity = kind;
  for (auto& x : table_.indexes) x.replica_identity = &x == chosen;
  return true;
}

bool AlterRunner::SetTriggersEnabled(const PgQuery__AlterTableCmd* cmd,
                                     PgError* error) {
  switch (cmd->subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigAll:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigAll: {
      bool disable =
          cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigAll;
      // PostgreSQL lets only a superuser switch its system triggers, which
      // a table has when it takes part in a foreign key.
      bool has_foreign_keys = false;
      std::string self = table_.schema + "." + table_.name;
      for (const auto& c : table_.constraints)
        has_foreign_keys |= c.kind == 'f';
      for (const auto& [key, t] : cat().tables())
        for (const auto& c : t.constraints)
          has_foreign_keys |= c.kind == 'f' && c.ref_table == self;
      if (has_foreign_keys && !session_->superuser_) {
        *error = Err("42501",
                     "permission denied: the foreign key triggers of "
                     "table \"" +
                         table_.name + "\" are system triggers");
        return false;
      }
      table_.fk_triggers_disabled = disable;
      return true;
    }
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigUser:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigUser:
      // No user triggers exist (CREATE TRIGGER is not supported): nothing
      // to switch, as in PostgreSQL for a table without any.
      return true;
    default:
      *error = Err("42704",
                   "trigger \"" + std::string(cmd->name ? cmd->name : "") +
                       "\" for table \"" + table_.name + "\" does not exist");
      return false;
  }
}

bool AlterRunner::SetClusterIndex(const PgQuery__AlterTableCmd* cmd,
                                  PgError* error) {
  catalog::Index* chosen = nullptr;
  if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ClusterOn) {
    chosen = alter_detail::FindIndexOf(&table_, cat(),
                                       cmd->name ? cmd->name : "", error);
    if (!chosen || !alter_detail::CheckClusterIndex(*chosen, error))
      return false;
  }
  for (auto& x : table_.indexes) x.clustered = &x == chosen;
  return true;
}

bool AlterRunner::AlterIndexStorage(const catalog::Table& table,
                                    const std::string& index_name,
                                    const PgQuery__AlterTableCmd* cmd,
                                    PgError* error) {
  catalog::Table copy = table;
  catalog::Index* x = nullptr;
  for (auto& candidate : copy.indexes)
    if (candidate.name == index_name) x = &candidate;
  if (!x) {
    *error = Err("42P01", "relation \"" + index_name + "\" does not exist");
    return false;
  }
  switch (cmd->subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions: {
      PgQuery__Node* const* defs;
      size_t n;
      DefList(cmd, &defs, &n);
      if (!MergeRelOptions(IndexTarget(*x), defs, n, IsReset(cmd),
                           /*create_table=*/false, &x->reloptions, error))
        return false;
      break;
    }
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetStatistics: {
      int target;
      bool lowered;
      if (!StatisticsTarget(cmd, &target, &lowered, error)) return false;
      // By number (ALTER COLUMN 2) or by the index column's name.
      int key = -1;
      std::vector<std::string> names = IndexColumnNames(*x);
      if (cmd->name && *cmd->name) {
        for (size_t i = 0; i < names.size(); i++)
          if (names[i] == cmd->name) key = static_cast<int>(i);
        if (key < 0) {
          *error = Err("42703", "column \"" + std::string(cmd->name) +
                                    "\" of relation \"" + index_name +
                                    "\" does not exist");
          return false;
        }
      } else {
        key = cmd->num - 1;
        if (key < 0 || key >= static_cast<int>(x->columns.size())) {
          *error = Err("42703", "column number " + std::to_string(cmd->num) +
                                    " of relation \"" + index_name +
                                    "\" does not exist");
          return false;
        }
      }
      if (x->expression(key).empty()) {
        *error = Err("0A000",
                     "cannot alter statistics on non-expression "
                     "column \"" +
                         names[key] + "\" of index \"" + index_name + "\"");
        error->hint = "Alter statistics on table column instead.";
        return false;
      }
      if (lowered)
        session_->Notice(sink_, "WARNING", "22023",
                         "lowering statistics target to 10000");
      x->stat_targets.resize(x->columns.size(), -1);
      x->stat_targets[key] = target;
      break;
    }
    default:
      *error = Err("0A000",
                   "ALTER INDEX with this subcommand is not "
                   "supported yet");
      return false;
  }
  return Store(catalog::Catalog::PutTable(storage(), db(), copy), error);
}

}  // namespace kova::planner
