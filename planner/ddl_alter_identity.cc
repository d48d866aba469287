// ALTER TABLE's identity subcommands: ADD GENERATED ... AS IDENTITY, SET
// GENERATED / sequence options, DROP IDENTITY (the column's counter row is
// its sequence's, DESIGN.md 3).
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "planner/ddl_alter_internal.h"
#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner {

using namespace alter_detail;  // NOLINT: the helpers of ALTER TABLE

namespace alter_detail {

bool CheckIdentityType(uint32_t type, PgError* error) {
  if (IsInteger(type)) return true;
  *error =
      Err("22023", "identity column type must be smallint, integer, or bigint");
  return false;
}

}  // namespace alter_detail

bool AlterRunner::ColumnSequence(const catalog::Column& col, SeqOptions options,
                                 SeqDef* def, std::string* schema,
                                 std::string* name, PgError* error) {
  def->type = col.type;
  if (!options.type) options.type = col.type;
  if (!ApplySeqOptions(options, true, def, error)) return false;
  *schema = table_.schema;
  if (!options.sequence_name) {
    *name = ChooseName(table_.name, col.name, "seq");
    return true;
  }
  const std::string& qualified = *options.sequence_name;
  size_t dot = qualified.rfind('.');
  *name = dot == std::string::npos ? qualified : qualified.substr(dot + 1);
  if (dot != std::string::npos) *schema = qualified.substr(0, dot);
  return true;
}

bool AlterRunner::AddIdentity(const PgQuery__AlterTableCmd* cmd,
                              PgError* error) {
  std::string cname = cmd->name;
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  catalog::Column& col = table_.columns[index];
  const PgQuery__Constraint* con = cmd->def->constraint;
  if (!CheckIdentityType(col.type, error)) return false;
  SeqOptions options;
  if (!ParseSeqOptions(con->options, con->n_options, &options, error))
    return false;
  SeqDef def;
  std::string seq_schema, seq_name;
  if (!ColumnSequence(col, options, &def, &seq_schema, &seq_name, error))
    return false;
  std::string prefix =
      "column \"" + cname + "\" of relation \"" + table_.name + "\" ";
  if (!col.not_null) {
    *error = Err("55000", prefix +
                              "must be declared NOT NULL before identity "
                              "can be added");
    return false;
  }
  if (col.identity) {
    *error = Err("55000", prefix + "is already an identity column");
    return false;
  }
  if (!col.default_expr.empty()) {
    *error = Err("55000", prefix + "already has a default value");
    return false;
  }
  // Stored values stay; the counter starts at START and, having handed out
  // nothing yet, resumes above the highest stored value (rule 7).
  if (!CreateColumnSequence(&col, def, seq_schema, seq_name, error))
    return false;
  col.identity = con->generated_when[0] == 'a' ? 'a' : 'd';
  return true;
}

bool AlterRunner::SetIdentity(const PgQuery__AlterTableCmd* cmd,
                              PgError* error) {
  std::string cname = cmd->name;
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  catalog::Column& col = table_.columns[index];
  if (!col.identity) {
    *error = Err("55000", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" is not an identity column");
    return false;
  }
  std::vector<PgQuery__Node*> seq_options;
  const PgQuery__List* list =
      cmd->def && cmd->def->node_case == PG_QUERY__NODE__NODE_LIST
          ? cmd->def->list
          : nullptr;
  char generated = 0;
  for (size_t i = 0; list && i < list->n_items; i++) {
    const PgQuery__DefElem* d = list->items[i]->def_elem;
    if (std::strcmp(d->defname, "generated") == 0) {
      if (generated) {
        *error = Err("42601", "conflicting or redundant options", d->location);
        return false;
      }
      int v = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER
                  ? d->arg->integer->ival
                  : 'a';
      generated = v == 'd' ? 'd' : 'a';
    } else {
      seq_options.push_back(list->items[i]);
    }
  }
  if (!seq_options.empty()) {
    SeqOptions options;
    if (!ParseSeqOptions(seq_options.data(), seq_options.size(), &options,
                         error))
      return false;
    size_t dot = col.sequence.find('.');
    const catalog::Sequence* q = cat().FindSequence(
        col.sequence.substr(0, dot), col.sequence.substr(dot + 1));
    if (!q) {
      *error = Err("XX000",
                   "identity sequence of column \"" + cname + "\" is missing");
      return false;
    }
    catalog::Sequence seq = *q;
    docstore::Session::CounterInfo info;
    if (!Store(storage()->ReadCounter(seq.counter, &info), error)) return false;
    SeqDef def = SeqDefOf(info, seq.type);
    def.cache = seq.cache;
    if (!ApplySeqOptions(options, false, &def, error)) return false;
    std::optional<int64_t> last = info.last;
    if (options.restart) {
      int64_t at = options.restart_value ? *options.restart_value : def.start;
      last = at - def.increment;
    }
    if (!Store(storage()->WriteCounter(
                   seq.counter, info.collection, info.field, CounterSpecOf(def),
                   last.value_or(def.start - def.increment)),
               error))
      return false;
    seq.type = def.type;
    seq.cache = def.cache;
    if (!Store(catalog::Catalog::PutSequence(storage(), db(), seq), error))
      return false;
  }
  if (generated) col.identity = generated;
  return true;
}

bool AlterRunner::DropIdentity(const PgQuery__AlterTableCmd* cmd,
                               PgError* error) {
  std::string cname = cmd->name;
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  catalog::Column& col = table_.columns[index];
  if (!col.identity) {
    std::string message = "column \"" + cname + "\" of relation \"" +
                          table_.name + "\" is not an identity column";
    if (cmd->missing_ok) {
      Notice("00000", message + ", skipping");
      return true;
    }
    *error = Err("55000", message);
    return false;
  }
  std::string sequence = col.sequence;
  if (!UnlinkCounter(&col, /*drop_counter=*/true, error)) return false;
  if (!sequence.empty()) {
    size_t dot = sequence.find('.');
    if (!Store(catalog::Catalog::Remove(storage(), db(), "sequence",
                                        sequence.substr(0, dot),
                                        sequence.substr(dot + 1)),
               error))
      return false;
  }
  col.identity = 0;
  col.sequence.clear();
  col.default_expr.clear();
  return true;
}

}  // namespace kova::planner
