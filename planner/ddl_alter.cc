// ALTER TABLE: each subcommand changes the catalog documents and, where
// PostgreSQL rewrites or checks the table, the stored documents (a new
// column's default, a changed type, NOT NULL and CHECK validation). Columns
// that take a sequence (SET DEFAULT nextval, ADD GENERATED AS IDENTITY)
// become autoincrement fields and the sequence's counter row becomes the
// column's (DESIGN.md 3, rules 5-7).
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "planner/ddl_alter_internal.h"
#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/reloptions.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner {

using namespace alter_detail;  // NOLINT: the helpers of ALTER TABLE

namespace {

int64_t TypeMax(uint32_t type) {
  return type == oid::kInt2   ? INT16_MAX
         : type == oid::kInt4 ? INT32_MAX
                              : INT64_MAX;
}

// A copy of a stored document with field `from` renamed `to`.
bson_t* WithRenamedField(const std::string& bytes, const std::string& from,
                         const std::string& to) {
  bson_t old_doc;
  bson_t* doc = bson_new();
  if (!bson_init_static(&old_doc,
                        reinterpret_cast<const uint8_t*>(bytes.data()),
                        bytes.size()))
    return doc;
  bson_iter_t it;
  bson_iter_init(&it, &old_doc);
  while (bson_iter_next(&it)) {
    const char* key = bson_iter_key(&it);
    if (from == key) {
      bson_append_iter(doc, to.c_str(), -1, &it);
    } else if (to != key) {
      bson_append_iter(doc, key, -1, &it);
    }
  }
  return doc;
}

const char* SubcommandName(PgQuery__AlterTableType type) {
  switch (type) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetStatistics:
      return "ALTER TABLE ... ALTER COLUMN ... SET STATISTICS";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetOptions:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ResetOptions:
      return "ALTER TABLE ... ALTER COLUMN ... SET/RESET (attribute options)";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetStorage:
      return "ALTER TABLE ... ALTER COLUMN ... SET STORAGE";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetCompression:
      return "ALTER TABLE ... ALTER COLUMN ... SET COMPRESSION";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropExpression:
      return "ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterConstraint:
      return "ALTER TABLE ... ALTER CONSTRAINT";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddIndexConstraint:
      return "ALTER TABLE ... ADD CONSTRAINT ... USING INDEX";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ClusterOn:
      return "ALTER TABLE ... CLUSTER ON";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropCluster:
      return "ALTER TABLE ... SET WITHOUT CLUSTER";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetLogged:
      return "ALTER TABLE ... SET LOGGED";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetUnLogged:
      return "ALTER TABLE ... SET UNLOGGED";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropOids:
      return "ALTER TABLE ... SET WITHOUT OIDS";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetAccessMethod:
      return "ALTER TABLE ... SET ACCESS METHOD";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetTableSpace:
      return "ALTER TABLE ... SET TABLESPACE";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ReplaceRelOptions:
      return "ALTER TABLE ... SET/RESET (storage parameters)";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrig:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableAlwaysTrig:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableReplicaTrig:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrig:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigAll:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigAll:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigUser:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigUser:
      return "ALTER TABLE ... ENABLE/DISABLE TRIGGER";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableRule:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableAlwaysRule:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableReplicaRule:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableRule:
      return "ALTER TABLE ... ENABLE/DISABLE RULE";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddInherit:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropInherit:
      return "ALTER TABLE ... INHERIT";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddOf:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropOf:
      return "ALTER TABLE ... OF";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ReplicaIdentity:
      return "ALTER TABLE ... REPLICA IDENTITY";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableRowSecurity:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableRowSecurity:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ForceRowSecurity:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_NoForceRowSecurity:
      return "ALTER TABLE ... ROW LEVEL SECURITY";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_GenericOptions:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnGenericOptions:
      return "ALTER TABLE ... OPTIONS";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AttachPartition:
      return "ALTER TABLE ... ATTACH PARTITION";
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DetachPartition:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DetachPartitionFinalize:
      return "ALTER TABLE ... DETACH PARTITION";
    default:
      return "this ALTER TABLE subcommand";
  }
}

}  // namespace

// ---- helpers shared by the ddl_alter*.cc files ----------------------------

namespace alter_detail {

bool ComparableTypes(uint32_t a, uint32_t b) {
  if (a == b) return true;
  if (IsNumber(a) && IsNumber(b)) return true;
  if (IsText(a) && IsText(b)) return true;
  return false;
}

// The default PostgreSQL shows for a column fed by a sequence.
std::string NextvalText(const catalog::Sequence& seq) {
  std::string name = seq.schema == "public"
                         ? QuoteIdentifier(seq.name)
                         : QuoteQualified(seq.schema, seq.name);
  std::string quoted;
  for (char c : name) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return "nextval('" + quoted + "'::regclass)";
}

std::string TypeName(uint32_t type, int32_t typmod) {
  return types::FormatTypeName(type, typmod);
}

std::string ParseExpression(const std::string& text,
                            std::unique_ptr<sql::ParseTree>* tree,
                            const PgQuery__Node** node) {
  sql::SyntaxError syntax;
  *node = nullptr;
  if (!sql::ParseTree::Parse("SELECT " + text, tree, &syntax) ||
      (*tree)->size() != 1)
    return syntax.message;
  const PgQuery__SelectStmt* s = (*tree)->statement(0).stmt->select_stmt;
  *node = s->target_list[0]->res_target->val;
  return "";
}

}  // namespace alter_detail

// ---- helpers shared with ddl_alter_objects.cc ----------------------------

void VisitParseNodes(ProtobufCMessage* msg,
                     const std::function<void(PgQuery__Node*)>& fn) {
  const ProtobufCMessageDescriptor* d = msg->descriptor;
  char* base = reinterpret_cast<char*>(msg);
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor* f = &d->fields[i];
    if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *reinterpret_cast<size_t*>(base + f->quantifier_offset);
      ProtobufCMessage** items =
          *reinterpret_cast<ProtobufCMessage***>(base + f->offset);
      for (size_t k = 0; k < n; k++)
        if (items[k]) VisitParseNodes(items[k], fn);
      continue;
    }
    if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      uint32_t which =
          *reinterpret_cast<uint32_t*>(base + f->quantifier_offset);
      if (which != f->id) continue;
    }
    ProtobufCMessage* sub =
        *reinterpret_cast<ProtobufCMessage**>(base + f->offset);
    if (sub) VisitParseNodes(sub, fn);
  }
  if (d == &pg_query__node__descriptor)
    fn(reinterpret_cast<PgQuery__Node*>(msg));
}

std::string CheckNameColumn(const std::string& expr_text) {
  std::vector<std::string> refs = ExpressionColumns(expr_text);
  for (const auto& r : refs)
    if (r != refs[0]) return "";
  return refs.empty() ? "" : refs[0];
}

std::vector<std::string> ExpressionColumns(const std::string& expr_text) {
  std::unique_ptr<sql::ParseTree> tree;
  const PgQuery__Node* node;
  ParseExpression(expr_text, &tree, &node);
  std::vector<std::string> out;
  if (!node) return out;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return;
        const PgQuery__ColumnRef* ref = n->column_ref;
        std::string name = Str(ref->fields[ref->n_fields - 1]);
        if (!name.empty() &&
            std::find(out.begin(), out.end(), name) == out.end())
          out.push_back(name);
      });
  return out;
}

std::string RenameExpressionColumn(const std::string& expr_text,
                                   const std::string& from,
                                   const std::string& to) {
  std::unique_ptr<sql::ParseTree> tree;
  const PgQuery__Node* node;
  ParseExpression(expr_text, &tree, &node);
  if (!node) return expr_text;
  // The tree owns its strings: point at ours while deparsing, then put the
  // originals back before the tree frees them.
  std::vector<std::pair<PgQuery__String*, char*>> swapped;
  std::string replacement = to;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(node)),
      [&](PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return;
        PgQuery__Node* last =
            n->column_ref->fields[n->column_ref->n_fields - 1];
        if (last->node_case != PG_QUERY__NODE__NODE_STRING ||
            from != last->string->sval)
          return;
        swapped.emplace_back(last->string, last->string->sval);
        last->string->sval = replacement.data();
      });
  std::string out = sql::DeparseExpr(node);
  for (auto& [s, original] : swapped) s->sval = original;
  return out.empty() ? expr_text : out;
}

// ---- statements -----------------------------------------------------------

ExecuteResult SessionImpl::RunAlterTable(const PgQuery__AlterTableStmt* stmt,
                                         ResultSink* sink) {
  AlterRunner runner(this, sink);
  return runner.AlterTable(stmt);
}

ExecuteResult AlterRunner::AlterTable(const PgQuery__AlterTableStmt* stmt) {
  PgError error;
  std::string tag = "ALTER TABLE";
  std::string kind = "table";
  switch (stmt->objtype) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      tag = "ALTER SEQUENCE";
      kind = "sequence";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
      tag = "ALTER VIEW";
      kind = "view";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
      tag = "ALTER INDEX";
      kind = "index";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW:
      return Fail(Err("0A000", "materialized views are not supported yet"));
    default:
      break;
  }
  if (!session_->CheckWritable(tag.c_str(), &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  if (!Store(session_->EnsureWriteTransaction(), &error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->relation;
  std::string schema = session_->LookupSchema(rv->schemaname, rv->relname);
  std::string name = rv->relname;
  if (schema == "admin")
    return Fail(Err("0A000", tag + " of \"" + schema + "." + name +
                                 "\" is not supported: admin collections "
                                 "are changed through their documents"));
  const catalog::Table* table = cat().FindTable(schema, name);
  const catalog::Sequence* seq = cat().FindSequence(schema, name);
  const catalog::View* view = cat().FindView(schema, name);
  const catalog::Index* index = nullptr;
  const catalog::Table* index_table =
      cat().FindIndexTable(schema, name, &index);
  if (!table && !seq && !view && !index_table) {
    if (stmt->missing_ok) {
      Notice("00000", "relation \"" + name + "\" does not exist, skipping");
      return Tag(tag);
    }
    if (rv->schemaname && *rv->schemaname && !cat().FindSchema(schema))
      return Fail(Err("3F000", "schema \"" + schema + "\" does not exist",
                      rv->location));
    return Fail(Err("42P01", "relation \"" + name + "\" does not exist"));
  }
  // ALTER SEQUENCE / VIEW / INDEX name their kind; ALTER TABLE takes any.
  bool kind_matches = kind == "table" || (kind == "sequence" && seq) ||
                      (kind == "view" && view) || (kind == "index" && index);
  if (!kind_matches) {
    PgError e = Err("42809", "\"" + name + "\" is not a" +
                                 (kind == "index" ? "n " : " ") + kind);
    if (table) e.hint = "Use ALTER TABLE instead.";
    return Fail(e);
  }
  if (!table) {
    // Sequences, views and indexes: OWNER TO, and an index's storage
    // parameters and expression statistics.
    for (size_t i = 0; i < stmt->n_cmds; i++) {
      const PgQuery__AlterTableCmd* cmd = stmt->cmds[i]->alter_table_cmd;
      bool index_storage =
          cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions ||
          cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions ||
          cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetStatistics;
      if (index_storage && index_table) {
        // Each subcommand sees the last one's result.
        if (!session_->LoadCatalog(&error)) return Fail(error);
        const catalog::Table* current =
            cat().FindIndexTable(schema, name, &index);
        if (!current || !AlterIndexStorage(*current, name, cmd, &error))
          return Fail(error);
        if (!session_->LoadCatalog(&error)) return Fail(error);
        continue;
      }
      if (view &&
          (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions ||
           cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions)) {
        // A view's own options change what it does: not built yet.
        const PgQuery__Node* list = cmd->def;
        for (size_t k = 0;
             list && list->node_case == PG_QUERY__NODE__NODE_LIST &&
             k < list->list->n_items;
             k++) {
          const PgQuery__DefElem* d = list->list->items[k]->def_elem;
          std::string option = d && d->defname ? d->defname : "";
          if (option != "check_option" && option != "security_barrier" &&
              option != "security_invoker")
            return Fail(
                Err("22023", "unrecognized parameter \"" + option + "\""));
        }
        return Fail(Err("0A000",
                        "view options (check_option, security_barrier, "
                        "security_invoker) are not supported yet"));
      }
      if (seq &&
          (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions ||
           cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions)) {
        PgError e = Err(
            "42809",
            std::string("ALTER action ") +
                (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions
                     ? "SET"
                     : "RESET") +
                " cannot be performed on relation \"" + name + "\"");
        e.detail = "This operation is not supported for sequences.";
        return Fail(e);
      }
      if (cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner)
        return Fail(Err("0A000", tag + " of a " +
                                     (seq    ? "sequence"
                                      : view ? "view"
                                             : "index") +
                                     " with this subcommand is not "
                                     "supported yet"));
      std::string owner =
          cmd->newowner->rolename ? cmd->newowner->rolename : "";
      if (cmd->newowner->roletype != PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING)
        owner = session_->user_;
      if (!RoleExists(owner))
        return Fail(Err("42704", "role \"" + owner + "\" does not exist"));
      docstore::Status s;
      if (seq) {
        catalog::Sequence copy = *seq;
        copy.owner = owner;
        s = catalog::Catalog::PutSequence(storage(), db(), copy);
      } else if (view) {
        catalog::View copy = *view;
        copy.owner = owner;
        s = catalog::Catalog::PutView(storage(), db(), copy);
      }
      // An index belongs to its table's owner: nothing to record.
      if (!Store(s, &error)) return Fail(error);
    }
    return Tag(tag);
  }
  table_ = *table;
  for (size_t i = 0; i < stmt->n_cmds; i++) {
    const PgQuery__AlterTableCmd* cmd = stmt->cmds[i]->alter_table_cmd;
    bool ok;
    switch (cmd->subtype) {
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumnRecurse:
        ok = AddColumn(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumnRecurse:
        ok = DropColumn(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault:
        ok = ColumnDefault(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull:
        ok = SetNotNull(cmd->name, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull:
        ok = DropNotNull(cmd->name, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType:
        ok = AlterColumnType(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropExpression:
        ok = DropExpression(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddIdentity:
        ok = AddIdentity(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetIdentity:
        ok = SetIdentity(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropIdentity:
        ok = DropIdentity(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraintRecurse:
        ok = AddConstraint(cmd->def->constraint, -1, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraintRecurse:
        ok = DropConstraint(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterConstraint: {
        // [NOT] DEFERRABLE / INITIALLY ...: foreign keys only, as in
        // PostgreSQL 15.
        const PgQuery__Constraint* def = cmd->def->constraint;
        catalog::Constraint* c = nullptr;
        for (auto& x : table_.constraints)
          if (x.name == def->conname) c = &x;
        if (!c) {
          error = Err("42704", "constraint \"" + std::string(def->conname) +
                                   "\" of relation \"" + table_.name +
                                   "\" does not exist");
          ok = false;
        } else if (c->kind != 'f') {
          error = Err("42809", "constraint \"" + c->name + "\" of relation \"" +
                                   table_.name +
                                   "\" is not a foreign key constraint");
          ok = false;
        } else {
          c->deferrable = def->deferrable;
          c->initially_deferred = def->initdeferred;
        }
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ValidateConstraint:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ValidateConstraintRecurse: {
        const catalog::Constraint* c = nullptr;
        for (const auto& x : table_.constraints)
          if (x.name == cmd->name) c = &x;
        if (!c) {
          error = Err("42704", "constraint \"" + std::string(cmd->name) +
                                   "\" of relation \"" + table_.name +
                                   "\" does not exist");
          ok = false;
        } else if (c->kind == 'c') {
          ok = ValidateCheck(*c, &error);
        } else if (c->kind == 'f') {
          size_t dot = c->ref_table.find('.');
          const catalog::Table* target = cat().FindTable(
              c->ref_table.substr(0, dot), c->ref_table.substr(dot + 1));
          ok = !target || ValidateForeignKey(*c, *target, &error);
        } else {
          error = Err("42809", "constraint \"" + c->name + "\" of relation \"" +
                                   table_.name +
                                   "\" is not a foreign key or check "
                                   "constraint");
          ok = false;
        }
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner:
        ok = ChangeOwner(cmd->newowner, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions:
        ok = SetRelOptions(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetStatistics:
        ok = SetColumnStatistics(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetStorage:
        ok = SetColumnStorage(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetCompression:
        ok = SetColumnCompression(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetOptions:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ResetOptions:
        ok = SetColumnOptions(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ReplicaIdentity:
        ok = SetReplicaIdentity(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrig:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableAlwaysTrig:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableReplicaTrig:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrig:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigAll:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigAll:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigUser:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigUser:
        ok = SetTriggersEnabled(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetLogged:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetUnLogged:
        ok = SetPersistence(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetTableSpace:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetAccessMethod:
        ok = SetTableSpaceOrMethod(cmd, &error);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ClusterOn:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropCluster:
        ok = SetClusterIndex(cmd, &error);
        break;
      default:
        error = Err("0A000", std::string(SubcommandName(cmd->subtype)) +
                                 " is not supported yet");
        ok = false;
        break;
    }
    if (ok) ok = SaveTable(&error);
    if (!ok) return Fail(error);
  }
  if (!DropRedundantFieldIndexes(&error)) return Fail(error);
  return Tag(tag);
}
// ---- constraints
// -------------------------------------------------------------

bool AlterRunner::AddConstraint(const PgQuery__Constraint* con, int column,
                                PgError* error,
                                const DeferralMap& column_attrs) {
  catalog::Constraint c;
  Deferral deferral = DeferralOf(con, column_attrs);
  c.deferrable = deferral.deferrable;
  c.initially_deferred = deferral.initially_deferred;
  std::vector<std::string> cols;
  if (column >= 0) {
    cols.push_back(table_.columns[column].name);
  } else {
    for (size_t k = 0; k < con->n_keys; k++) cols.push_back(Str(con->keys[k]));
    for (size_t k = 0; k < con->n_fk_attrs; k++)
      cols.push_back(Str(con->fk_attrs[k]));
  }
  std::string joined;
  for (const auto& cname : cols) joined += (joined.empty() ? "" : "_") + cname;
  std::string given = con->conname && *con->conname ? con->conname : "";
  c.columns = cols;
  switch (con->contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE: {
      bool primary = con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
      if (con->indexname && *con->indexname) {
        *error = Err("0A000",
                     "ALTER TABLE ... ADD CONSTRAINT ... USING INDEX is not "
                     "supported yet");
        return false;
      }
      if (con->n_including > 0 || con->where_clause) {
        *error = Err("0A000",
                     "INCLUDE and WHERE in a constraint are not supported yet");
        return false;
      }
      if (primary && table_.PrimaryKey()) {
        *error = Err("42P16", "multiple primary keys for table \"" +
                                  table_.name + "\" are not allowed");
        return false;
      }
      for (const auto& cname : cols) {
        if (!table_.FindColumn(cname)) {
          *error = Err(
              "42703",
              primary ? "column \"" + cname + "\" of relation \"" +
                            table_.name + "\" does not exist"
                      : "column \"" + cname + "\" named in key does not exist",
              con->location);
          return false;
        }
      }
      c.kind = primary ? 'p' : 'u';
      c.nulls_not_distinct = con->nulls_not_distinct;
      c.name = !given.empty() ? given
               : primary      ? ChooseName(table_.name, "", "pkey")
                              : ChooseName(table_.name, joined, "key");
      if (cat().RelationExists(table_.schema, c.name)) {
        *error = Err("42P07", "relation \"" + c.name + "\" already exists");
        return false;
      }
      for (const auto& existing : table_.constraints) {
        if (existing.name == c.name) {
          *error =
              Err("42710", "constraint \"" + c.name + "\" for relation \"" +
                               table_.name + "\" already exists");
          return false;
        }
      }
      std::vector<std::string> reloptions;
      if (!MergeRelOptions(RelOptionTarget::kBtreeIndex, con->options,
                           con->n_options, /*reset=*/false,
                           /*create_table=*/false, &reloptions, error))
        return false;
      if (primary) {
        for (const auto& cname : cols)
          if (!SetNotNull(cname, error)) return false;
      }
      if (!BuildUniqueIndex(c, error)) return false;
      table_.indexes.back().reloptions = std::move(reloptions);
      break;
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: {
      c.kind = 'c';
      c.check_expr = sql::DeparseExpr(con->raw_expr);
      c.columns.clear();
      std::string first = CheckNameColumn(c.check_expr);
      c.name = !given.empty() ? given : ChooseName(table_.name, first, "check");
      for (const auto& existing : table_.constraints) {
        if (existing.name == c.name) {
          *error =
              Err("42710", "constraint \"" + c.name + "\" for relation \"" +
                               table_.name + "\" already exists");
          return false;
        }
      }
      // NOT VALID: existing rows are not checked, as in PostgreSQL.
      if (con->skip_validation) {
        std::unique_ptr<Expr> e;
        if (!AnalyzeRowExpression(table_, con->raw_expr, "check constraints",
                                  &e, error))
          return false;
      } else if (!ValidateCheck(c, error)) {
        return false;
      }
      break;
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN: {
      c.kind = 'f';
      for (const auto& cname : cols) {
        if (!table_.FindColumn(cname)) {
          *error = Err("42703", "column \"" + cname +
                                    "\" referenced in foreign key "
                                    "constraint does not exist");
          return false;
        }
      }
      const PgQuery__RangeVar* pk = con->pktable;
      std::string ref_schema =
          pk->schemaname && *pk->schemaname ? pk->schemaname
          : table_.name == pk->relname
              ? table_.schema
              : session_->LookupSchema(nullptr, pk->relname);
      bool self = ref_schema == table_.schema && table_.name == pk->relname;
      const catalog::Table* ref =
          self ? &table_ : cat().FindTable(ref_schema, pk->relname);
      if (!ref) {
        *error =
            Err("42P01",
                "relation \"" + std::string(pk->relname) + "\" does not exist",
                pk->location);
        return false;
      }
      const catalog::Table target = *ref;
      if (!self && !CheckForeignKeyPersistence(table_, target, error))
        return false;
      std::vector<std::string> ref_cols;
      for (size_t k = 0; k < con->n_pk_attrs; k++)
        ref_cols.push_back(Str(con->pk_attrs[k]));
      if (ref_cols.empty()) {
        const catalog::Constraint* pkey = target.PrimaryKey();
        if (!pkey) {
          *error =
              Err("42830", "there is no primary key for referenced table \"" +
                               target.name + "\"");
          return false;
        }
        ref_cols = pkey->columns;
      }
      for (const auto& rc : ref_cols) {
        if (!target.FindColumn(rc)) {
          *error = Err("42703", "column \"" + rc +
                                    "\" referenced in foreign key constraint "
                                    "does not exist");
          return false;
        }
      }
      if (ref_cols.size() != cols.size()) {
        *error = Err("42830",
                     "number of referencing and referenced columns for "
                     "foreign key disagree");
        return false;
      }
      bool unique = false;
      for (const auto& x : target.constraints) {
        if ((x.kind == 'p' || x.kind == 'u') &&
            x.columns.size() == ref_cols.size() &&
            std::is_permutation(x.columns.begin(), x.columns.end(),
                                ref_cols.begin()))
          unique = true;
      }
      if (!unique) {
        *error = Err("42830",
                     "there is no unique constraint matching given keys for "
                     "referenced table \"" +
                         target.name + "\"");
        return false;
      }
      c.name = !given.empty() ? given : ChooseName(table_.name, joined, "fkey");
      for (const auto& existing : table_.constraints) {
        if (existing.name == c.name) {
          *error =
              Err("42710", "constraint \"" + c.name + "\" for relation \"" +
                               table_.name + "\" already exists");
          return false;
        }
      }
      for (size_t k = 0; k < cols.size(); k++) {
        uint32_t a = table_.FindColumn(cols[k])->type;
        uint32_t b = target.FindColumn(ref_cols[k])->type;
        if (!ComparableTypes(a, b)) {
          *error = Err("42804", "foreign key constraint \"" + c.name +
                                    "\" cannot be implemented");
          error->detail = "Key columns \"" + cols[k] + "\" and \"" +
                          ref_cols[k] +
                          "\" are of incompatible types: " + TypeName(a) +
                          " and " + TypeName(b) + ".";
          return false;
        }
      }
      c.ref_table = target.schema + "." + target.name;
      c.ref_columns = ref_cols;
      c.on_delete = con->fk_del_action && *con->fk_del_action
                        ? con->fk_del_action[0]
                        : 'a';
      c.on_update = con->fk_upd_action && *con->fk_upd_action
                        ? con->fk_upd_action[0]
                        : 'a';
      if (!con->skip_validation && !ValidateForeignKey(c, target, error))
        return false;
      break;
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION:
      *error = Err("0A000", "exclusion constraints are not supported yet");
      return false;
    default:
      *error = Err("0A000", "this kind of constraint is not supported yet");
      return false;
  }
  table_.constraints.push_back(std::move(c));
  return true;
}

bool AlterRunner::DropConstraint(const PgQuery__AlterTableCmd* cmd,
                                 PgError* error) {
  std::string name = cmd->name;
  bool found = false;
  for (const auto& c : table_.constraints) found |= c.name == name;
  if (!found) {
    std::string message = "constraint \"" + name + "\" of relation \"" +
                          table_.name + "\" does not exist";
    if (cmd->missing_ok) {
      Notice("00000", message + ", skipping");
      return true;
    }
    *error = Err("42704", message);
    return false;
  }
  return RemoveConstraint(
      name, cmd->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE,
      "cannot drop constraint " + name + " on table " + table_.name, error);
}

bool AlterRunner::ChangeOwner(const PgQuery__RoleSpec* role, PgError* error) {
  std::string owner = role->rolename ? role->rolename : "";
  if (role->roletype != PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING)
    owner = session_->user_;
  if (!RoleExists(owner)) {
    *error = Err("42704", "role \"" + owner + "\" does not exist");
    return false;
  }
  table_.owner = owner;
  // Sequences the table owns change owner with it.
  std::string self = table_.schema + "." + table_.name;
  for (const auto& [k, q] : cat().sequences()) {
    if (q.owned_table != self) continue;
    catalog::Sequence copy = q;
    copy.owner = owner;
    if (!Store(catalog::Catalog::PutSequence(storage(), db(), copy), error))
      return false;
  }
  return true;
}

}  // namespace kova::planner
