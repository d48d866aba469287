// ALTER TABLE's column subcommands: ADD / DROP COLUMN, SET / DROP DEFAULT,
// SET / DROP NOT NULL and ALTER COLUMN ... TYPE.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "planner/ddl_alter_internal.h"
#include "planner/reloptions.h"
#include "planner/dml.h"
#include "planner/domains.h"
#include "planner/expr_internal.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner {

using namespace alter_detail;  // NOLINT: the helpers of ALTER TABLE
using ddl_detail::IsSerialName;
using ddl_detail::NextvalTarget;

namespace {

// A copy of a stored document with field `name` set to `value` (in place
// when present, appended otherwise), or removed when `value` is null.
bson_t* WithField(const std::string& bytes, const std::string& name,
                  const std::optional<SValue>& value, uint32_t type) {
  bson_t old_doc;
  bson_t* doc = bson_new();
  if (!bson_init_static(&old_doc,
                        reinterpret_cast<const uint8_t*>(bytes.data()),
                        bytes.size()))
    return doc;
  bool written = false;
  bson_iter_t it;
  bson_iter_init(&it, &old_doc);
  while (bson_iter_next(&it)) {
    if (name == bson_iter_key(&it)) {
      if (value) AppendSValue(doc, name, type, *value);
      written = true;
      continue;
    }
    bson_append_iter(doc, bson_iter_key(&it), -1, &it);
  }
  if (!written && value) AppendSValue(doc, name, type, *value);
  return doc;
}

}  // namespace

// ---- columns ----------------------------------------------------------------

int AlterRunner::ExistingColumn(const std::string& name, PgError* error) {
  int index = table_.ColumnIndex(name);
  if (index < 0)
    *error = Err("42703", "column \"" + name + "\" of relation \"" +
                              table_.name + "\" does not exist");
  return index;
}

bool AlterRunner::AddColumn(const PgQuery__AlterTableCmd* cmd, PgError* error) {
  const PgQuery__ColumnDef* cd = cmd->def->column_def;
  std::string cname = cd->colname;
  if (expr_detail::IsSystemColumnName(cname)) {
    *error = SystemColumnNameError(cname);
    return false;
  }
  if (table_.FindColumn(cname)) {
    std::string message = "column \"" + cname + "\" of relation \"" +
                          table_.name + "\" already exists";
    if (cmd->missing_ok) {
      Notice("42701", message + ", skipping");
      return true;
    }
    *error = Err("42701", message);
    return false;
  }
  catalog::Column col;
  col.name = cname;
  std::string tname =
      sql::JoinNames(cd->type_name->names, cd->type_name->n_names);
  uint32_t serial_type;
  bool serial =
      cd->type_name->n_names == 1 && IsSerialName(tname, &serial_type);
  if (serial) {
    col.type = serial_type;
    col.not_null = true;
  } else {
    int32_t typmod;
    if (!ResolveTypeName(cd->type_name, &col.type, &typmod, error))
      return false;
    col.typmod = typmod;
  }
  if (cd->coll_clause) {
    *error = Err("0A000", "COLLATE is not supported yet");
    return false;
  }
  if (cd->compression && *cd->compression &&
      !ColumnCompression(cd->compression, col.type, &col.compression, error))
    return false;
  const PgQuery__Node* default_node = nullptr;
  std::string linked;  // DEFAULT nextval('...')
  const PgQuery__Constraint* identity = nullptr;
  const PgQuery__Constraint* generated = nullptr;
  std::vector<const PgQuery__Constraint*> constraints;
  DeferralMap deferrals;
  if (!ColumnConstraintDeferral(cd->constraints, cd->n_constraints, &deferrals,
                                error))
    return false;
  for (size_t k = 0; k < cd->n_constraints; k++) {
    const PgQuery__Constraint* con = cd->constraints[k]->constraint;
    switch (con->contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
        col.not_null = true;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
        if (!serial) col.not_null = false;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
        if (generated) {
          *error = Err("42601",
                       "both default and generation expression specified for "
                       "column \"" +
                           cname + "\" of table \"" + table_.name + "\"",
                       con->location);
          return false;
        }
        if (serial || identity || default_node) {
          *error =
              Err("42601", "multiple default values specified for column \"" +
                               cname + "\" of table \"" + table_.name + "\"");
          return false;
        }
        default_node = con->raw_expr;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY:
        if (generated) {
          *error = Err("42601",
                       "both identity and generation expression specified "
                       "for column \"" +
                           cname + "\" of table \"" + table_.name + "\"",
                       con->location);
          return false;
        }
        if (serial || default_node) {
          *error =
              Err("42601", "both default and identity specified for column \"" +
                               cname + "\" of table \"" + table_.name + "\"");
          return false;
        }
        identity = con;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED:
        if (!con->generated_when || std::string(con->generated_when) != "a") {
          *error = Err("42601",
                       "for a generated column, GENERATED ALWAYS must be "
                       "specified",
                       con->location);
          return false;
        }
        if (serial || identity || default_node || generated) {
          *error = Err("42601",
                       std::string(generated  ? "multiple generation clauses"
                                   : identity ? "both identity and generation "
                                                "expression"
                                              : "both default and generation "
                                                "expression") +
                           " specified for column \"" + cname +
                           "\" of table \"" + table_.name + "\"",
                       con->location);
          return false;
        }
        generated = con;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION:
        *error = Err("0A000", "exclusion constraints are not supported yet");
        return false;
      case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
      case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
      case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
      case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
        constraints.push_back(con);
        break;
      default:
        break;  // DEFERRABLE and friends: accepted, as in CREATE TABLE
    }
  }
  const types::TypeContext& context = session_->settings_.type_context();
  std::unique_ptr<Expr> default_expr;
  if (default_node) {
    if (NextvalTarget(default_node, &linked) && IsInteger(col.type)) {
      const catalog::Sequence* seq;
      if (!session_->ResolveSequence(linked, &seq, error)) return false;
    } else {
      linked.clear();
      Analyzer analyzer(session_, nullptr);
      // PostgreSQL reports errors in a default without a position.
      if (!analyzer.Analyze(default_node, &default_expr, error) ||
          (default_expr->type == oid::kUnknown &&
           !analyzer.Coerce(&default_expr, col.type, col.typmod, error))) {
        error->position = 0;
        return false;
      }
      if (default_expr->type == oid::kUnknown) {
      } else if (!Assignable(default_expr->type, col.type)) {
        // Without a position, as PostgreSQL's cookDefault.
        *error = Err("42804", "column \"" + cname + "\" is of type " +
                                  TypeName(col.type) +
                                  " but default expression is of type " +
                                  TypeName(default_expr->type));
        error->hint = "You will need to rewrite or cast the expression.";
        return false;
      }
    }
    col.default_expr = sql::DeparseExpr(default_node);
  }
  SeqDef seq_def;
  std::string seq_schema = table_.schema, seq_name;
  if (serial || identity) {
    SeqOptions options;
    if (identity) {
      if (!CheckIdentityType(col.type, error)) return false;
      if (!ParseSeqOptions(identity->options, identity->n_options, &options,
                           error))
        return false;
      col.identity = identity->generated_when[0] == 'a' ? 'a' : 'd';
      col.not_null = true;
    }
    if (!ColumnSequence(col, options, &seq_def, &seq_schema, &seq_name, error))
      return false;
  }
  // A generated column: its expression over the other columns, computed
  // for every existing row below.
  std::unique_ptr<Expr> generation;
  if (generated) {
    table_.columns.push_back(col);
    table_.columns.back().generated_expr = "?";
    std::string text;
    bool ok = AnalyzeGeneratedColumn(
                  session_, table_, static_cast<int>(table_.columns.size() - 1),
                  generated->raw_expr, &text, error) &&
              AnalyzeRowValueExpr(session_, table_, generated->raw_expr,
                                  "column generation expressions", &generation,
                                  error);
    table_.columns.pop_back();
    if (!ok) return false;
    FixRowParams(generation.get(), 0);
    col.generated_expr = text;
  }
  table_.columns.push_back(col);
  if (!SaveTable(error)) return false;
  const catalog::Sequence* linked_seq = nullptr;
  if (!linked.empty() && !session_->ResolveSequence(linked, &linked_seq, error))
    return false;

  // Existing rows get the default (or the next numbers) before the field
  // becomes autoincrement, so that its unique index sees them filled;
  // PostgreSQL evaluates a volatile default once per row.
  std::vector<StoredRow> rows;
  if (!ReadRows(table_, &rows, error)) return false;
  int64_t next = seq_def.start;
  for (const auto& row : rows) {
    Value v;
    if (serial || identity) {
      bool asc = seq_def.increment > 0;
      if (asc ? next > seq_def.max : next < seq_def.min) {
        if (!seq_def.cycle) {
          *error = Err(
              "2200H",
              std::string("nextval: reached ") + (asc ? "maximum" : "minimum") +
                  " value of sequence \"" + seq_name + "\" (" +
                  std::to_string(asc ? seq_def.max : seq_def.min) + ")");
          return false;
        }
        next = asc ? seq_def.min : seq_def.max;
      }
      v = std::to_string(next);
      next += seq_def.increment;
    } else if (linked_seq) {
      if (!session_->NextValue(*linked_seq, &next, error)) return false;
      v = std::to_string(next);
    } else if (default_expr) {
      if (!Evaluate(*default_expr, {}, session_, &v, error)) return false;
      if (!AssignValue(default_expr->type, col, context, &v, error))
        return false;
    } else if (generation) {
      if (!Evaluate(*generation, row.values, session_, &v, error)) return false;
      uint32_t from =
          generation->type == oid::kUnknown ? oid::kText : generation->type;
      if (!AssignValue(from, col, context, &v, error)) return false;
    }
    // A domain's constraints hold for every row's new value.
    if (!CheckDomainValue(col.type, v, session_, error)) return false;
    if (!v) {
      if (col.not_null) {
        *error = Err("23502", "column \"" + cname + "\" of relation \"" +
                                  table_.name + "\" contains null values");
        return false;
      }
      continue;
    }
    SValue sv;
    if (!ToSValue(col.type, v, context, &sv, error)) return false;
    bson_t* doc = WithField(row.doc, cname, sv, col.type);
    bool ok = WriteDocument(table_, row.rid, doc, error);
    bson_destroy(doc);
    if (!ok) return false;
  }
  catalog::Column& added = table_.columns.back();
  if (serial || identity) {
    // The counter starts at START; having handed nothing out it resumes
    // above the numbers just stored (rule 7).
    if (!CreateColumnSequence(&added, seq_def, seq_schema, seq_name, error))
      return false;
    if (serial) {
      catalog::Sequence shown;
      shown.schema = seq_schema;
      shown.name = seq_name;
      added.default_expr = NextvalText(shown);
    }
  } else if (linked_seq) {
    const catalog::Sequence* fresh;
    if (!session_->ResolveSequence(linked, &fresh, error)) return false;
    if (!LinkSequence(&added, *fresh, error)) return false;
  }
  if (!SaveTable(error)) return false;
  int index = table_.ColumnIndex(cname);
  for (const auto* con : constraints)
    if (!AddConstraint(con, index, error, deferrals)) return false;
  return true;
}

bool AlterRunner::DropColumn(const PgQuery__AlterTableCmd* cmd,
                             PgError* error) {
  std::string cname = cmd->name;
  const catalog::Column* found = table_.FindColumn(cname);
  if (!found) {
    std::string message = "column \"" + cname + "\" of relation \"" +
                          table_.name + "\" does not exist";
    if (cmd->missing_ok) {
      Notice("00000", message + ", skipping");
      return true;
    }
    *error = Err("42703", message);
    return false;
  }
  bool cascade = cmd->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  {
    // Views that read the column (and foreign keys of other tables that
    // reference it) depend on it: reported, and with CASCADE dropped first.
    bool dropped = false;
    if (!DropMemberDependents(DependentObject::Kind::kColumn, cname, cascade,
                              &dropped, error))
      return false;
    if (dropped) found = table_.FindColumn(cname);
  }
  std::string self = table_.schema + "." + table_.name;
  // Foreign keys of other tables that reference the column.
  std::vector<std::pair<std::string, std::string>> dependents;
  for (const auto& [k, t] : cat().tables()) {
    if (t.schema + "." + t.name == self) continue;
    for (const auto& fk : t.constraints)
      if (fk.kind == 'f' && fk.ref_table == self &&
          std::find(fk.ref_columns.begin(), fk.ref_columns.end(), cname) !=
              fk.ref_columns.end())
        dependents.emplace_back(t.schema + "." + t.name, fk.name);
  }
  if (!dependents.empty() && !cascade) {
    *error =
        Err("2BP01", "cannot drop column " + cname + " of table " +
                         table_.name + " because other objects depend on it");
    std::string detail;
    for (const auto& [t, fk] : dependents) {
      if (!detail.empty()) detail += "\n";
      detail += "constraint " + fk + " on table " + t.substr(t.find('.') + 1) +
                " depends on column " + cname + " of table " + table_.name;
    }
    error->detail = detail;
    error->hint = "Use DROP ... CASCADE to drop the dependent objects too.";
    return false;
  }
  for (const auto& [t, fk] : dependents) {
    Notice("00000", "drop cascades to constraint " + fk + " on table " +
                        t.substr(t.find('.') + 1));
    size_t dot = t.find('.');
    catalog::Table other =
        *cat().FindTable(t.substr(0, dot), t.substr(dot + 1));
    other.constraints.erase(
        std::remove_if(
            other.constraints.begin(), other.constraints.end(),
            [&](const catalog::Constraint& x) { return x.name == fk; }),
        other.constraints.end());
    if (!Store(catalog::Catalog::PutTable(storage(), db(), other), error))
      return false;
  }
  if (!dependents.empty() && !Reload(error)) return false;
  // The column's counter and the sequences it owns go with it.
  catalog::Column col = *found;
  if (!col.counter.empty() &&
      !Store(storage()->RemoveAutoincrement(db(), table_.collection, col.name),
             error))
    return false;
  std::vector<const catalog::Sequence*> owned;
  for (const auto& [k, q] : cat().sequences())
    if (q.owned_table == self && q.owned_column == cname) owned.push_back(&q);
  bool counter_owned = false;
  for (const auto* q : owned) {
    counter_owned |= q->counter == col.counter;
    if (!Store(storage()->DeleteCounter(q->counter), error)) return false;
    if (!Store(catalog::Catalog::Remove(storage(), db(), "sequence", q->schema,
                                        q->name),
               error))
      return false;
  }
  if (!col.counter.empty() && !counter_owned && !col.sequence.empty()) {
    // A sequence of its own that the column only used: it keeps its row.
    size_t dot = col.sequence.find('.');
    const catalog::Sequence* q = cat().FindSequence(
        col.sequence.substr(0, dot), col.sequence.substr(dot + 1));
    if (q) {
      catalog::Sequence copy = *q;
      copy.counter =
          catalog::Catalog::SequenceCounterId(db(), copy.schema, copy.name);
      if (!Store(storage()->RenameCounter(col.counter, copy.counter, "", ""),
                 error) ||
          !Store(catalog::Catalog::PutSequence(storage(), db(), copy), error))
        return false;
    }
  }
  // Constraints and indexes that use the column are dropped with it.
  std::vector<std::string> doomed;
  for (const auto& c : table_.constraints) {
    bool uses =
        std::find(c.columns.begin(), c.columns.end(), cname) != c.columns.end();
    if (c.kind == 'c') {
      std::vector<std::string> refs = ExpressionColumns(c.check_expr);
      uses = std::find(refs.begin(), refs.end(), cname) != refs.end();
    }
    if (uses) doomed.push_back(c.name);
  }
  for (const auto& name : doomed)
    if (!RemoveConstraint(name, true, "", error)) return false;
  std::vector<docstore::IndexSpec> specs;
  if (!Store(storage()->ListIndexes(db(), table_.collection, &specs), error))
    return false;
  for (const auto& spec : specs) {
    bool uses = false;
    for (const auto& [field, dir] : spec.keys) uses |= field == cname;
    if (uses &&
        !Store(storage()->DropIndex(db(), table_.collection, spec.name), error))
      return false;
  }
  // Expression indexes over the column go with it, as in PostgreSQL.
  std::vector<std::string> expression_indexes;
  if (!DropExpressionIndexesUsing(cname, &expression_indexes, error))
    return false;
  table_.indexes.erase(
      std::remove_if(table_.indexes.begin(), table_.indexes.end(),
                     [&](const catalog::Index& x) {
                       return std::find(x.columns.begin(), x.columns.end(),
                                        cname) != x.columns.end() ||
                              std::find(expression_indexes.begin(),
                                        expression_indexes.end(),
                                        x.name) != expression_indexes.end();
                     }),
      table_.indexes.end());
  // The documents lose the field.
  std::vector<StoredRow> rows;
  if (!ReadRows(table_, &rows, error)) return false;
  for (const auto& row : rows) {
    bson_t* doc = WithField(row.doc, cname, std::nullopt, col.type);
    bool ok = WriteDocument(table_, row.rid, doc, error);
    bson_destroy(doc);
    if (!ok) return false;
  }
  table_.columns.erase(table_.columns.begin() + table_.ColumnIndex(cname));
  table_.column_comments.erase(cname);
  return true;
}

bool AlterRunner::ColumnDefault(const PgQuery__AlterTableCmd* cmd,
                                PgError* error) {
  std::string cname = cmd->name;
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  catalog::Column& col = table_.columns[index];
  if (col.identity) {
    *error = Err("42601", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" is an identity column");
    if (!cmd->def)
      error->hint =
          "Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.";
    return false;
  }
  if (!col.generated_expr.empty()) {
    *error = Err("42809", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" is a generated column");
    if (!cmd->def)
      error->hint =
          "Use ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION instead.";
    return false;
  }
  if (!cmd->def) {
    // DROP DEFAULT: the field stops numbering itself.
    if (!UnlinkCounter(&col, false, error)) return false;
    col.default_expr.clear();
    return true;
  }
  std::string target;
  if (NextvalTarget(cmd->def, &target) && IsInteger(col.type)) {
    const catalog::Sequence* seq;
    if (!session_->ResolveSequence(target, &seq, error)) return false;
    if (!col.counter.empty() && col.sequence == seq->schema + "." + seq->name)
      return true;  // already fed by it
    if (!UnlinkCounter(&col, false, error)) return false;
    // UnlinkCounter may have rewritten the sequence: read it again.
    if (!SaveTable(error)) return false;
    const catalog::Sequence* fresh;
    if (!session_->ResolveSequence(target, &fresh, error)) return false;
    catalog::Column& again = table_.columns[index];
    return LinkSequence(&again, *fresh, error);
  }
  Analyzer analyzer(session_, nullptr);
  std::unique_ptr<Expr> e;
  // PostgreSQL reports errors in a default without a position.
  if (!analyzer.Analyze(cmd->def, &e, error) ||
      (e->type == oid::kUnknown &&
       !analyzer.Coerce(&e, col.type, col.typmod, error))) {
    error->position = 0;
    return false;
  }
  if (e->type == oid::kUnknown) {
  } else if (!Assignable(e->type, col.type)) {
    *error = Err("42804",
                 "column \"" + cname + "\" is of type " + TypeName(col.type) +
                     " but default expression is of type " + TypeName(e->type));
    error->hint = "You will need to rewrite or cast the expression.";
    return false;
  }
  if (!UnlinkCounter(&col, false, error)) return false;
  col.default_expr = sql::DeparseExpr(cmd->def);
  return true;
}

bool AlterRunner::SetNotNull(const std::string& cname, PgError* error) {
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  if (table_.columns[index].not_null) return true;
  std::vector<StoredRow> rows;
  if (!ReadRows(table_, &rows, error)) return false;
  for (const auto& row : rows) {
    if (!row.values[index]) {
      *error = Err("23502", "column \"" + cname + "\" of relation \"" +
                                table_.name + "\" contains null values");
      return false;
    }
  }
  table_.columns[index].not_null = true;
  return true;
}

bool AlterRunner::DropNotNull(const std::string& cname, PgError* error) {
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  if (table_.columns[index].identity) {
    *error = Err("42601", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" is an identity column");
    return false;
  }
  const catalog::Constraint* pk = table_.PrimaryKey();
  if (pk && std::find(pk->columns.begin(), pk->columns.end(), cname) !=
                pk->columns.end()) {
    *error = Err("42P16", "column \"" + cname + "\" is in a primary key");
    return false;
  }
  table_.columns[index].not_null = false;
  return true;
}

bool AlterRunner::AlterColumnType(const PgQuery__AlterTableCmd* cmd,
                                  PgError* error) {
  std::string cname = cmd->name;
  int index = ExistingColumn(cname, error);
  if (index < 0) return false;
  const PgQuery__ColumnDef* cd = cmd->def->column_def;
  if (cd->coll_clause) {
    *error = Err("0A000", "COLLATE is not supported yet");
    return false;
  }
  for (const auto& other : table_.columns) {
    if (other.generated_expr.empty() || other.name == cname) continue;
    std::vector<std::string> refs = ExpressionColumns(other.generated_expr);
    if (std::find(refs.begin(), refs.end(), cname) != refs.end()) {
      *error = Err("0A000",
                   "cannot alter type of a column used by a generated column");
      error->detail = "Column \"" + cname +
                      "\" is used by generated column \"" + other.name + "\".";
      return false;
    }
  }
  catalog::Column old_col = table_.columns[index];
  catalog::Column new_col = old_col;
  int32_t typmod;
  if (!ResolveTypeName(cd->type_name, &new_col.type, &typmod, error))
    return false;
  new_col.typmod = typmod;
  // The new type's own storage and the default compression, as PostgreSQL
  // resets them.
  new_col.storage = 0;
  new_col.compression = 0;
  if (old_col.identity && !CheckIdentityType(new_col.type, error)) return false;
  std::unique_ptr<Expr> using_expr;
  if (cd->raw_default) {
    if (!AnalyzeRowExpression(table_, cd->raw_default, "transform expressions",
                              &using_expr, error))
      return false;
    if (using_expr->type == oid::kUnknown) {
      Analyzer analyzer(session_, nullptr);
      if (!analyzer.Coerce(&using_expr, new_col.type, new_col.typmod, error))
        return false;
    } else if (!Assignable(using_expr->type, new_col.type)) {
      *error = Err("42804", "result of USING clause for column \"" + cname +
                                "\" cannot be cast automatically to type " +
                                TypeName(new_col.type));
      error->hint = "You might need to add an explicit cast.";
      return false;
    }
  } else if (!Assignable(old_col.type, new_col.type)) {
    *error = Err("42804", "column \"" + cname +
                              "\" cannot be cast automatically to type " +
                              TypeName(new_col.type));
    error->hint = "You might need to specify \"USING " +
                  QuoteIdentifier(cname) +
                  "::" + TypeName(new_col.type, new_col.typmod) + "\".";
    return false;
  }
  if (!old_col.counter.empty() && !IsInteger(new_col.type)) {
    *error =
        Err("0A000", "changing the type of column \"" + cname +
                         "\" to a non-integer type while a sequence numbers it "
                         "is not supported");
    return false;
  }
  if (!old_col.default_expr.empty() && old_col.counter.empty()) {
    std::unique_ptr<sql::ParseTree> tree;
    const PgQuery__Node* node;
    ParseExpression(old_col.default_expr, &tree, &node);
    Analyzer analyzer(session_, nullptr);
    std::unique_ptr<Expr> d;
    if (node && analyzer.Analyze(node, &d, error) && d->type != oid::kUnknown &&
        !Assignable(d->type, new_col.type)) {
      *error = Err("42804", "default for column \"" + cname +
                                "\" cannot be cast automatically to type " +
                                TypeName(new_col.type));
      return false;
    }
  }
  // Foreign keys on the column, from either side, must still compare.
  const std::string self = table_.schema + "." + table_.name;
  for (const auto& [k, t] : cat().tables()) {
    for (const auto& c : t.constraints) {
      if (c.kind != 'f') continue;
      bool here = t.schema == table_.schema && t.name == table_.name;
      for (size_t i = 0; i < c.columns.size(); i++) {
        bool referencing = here && c.columns[i] == cname;
        bool referenced = c.ref_table == self && c.ref_columns[i] == cname;
        if (!referencing && !referenced) continue;
        size_t pdot = c.ref_table.find('.');
        const catalog::Table* parent =
            referenced ? &table_
                       : cat().FindTable(c.ref_table.substr(0, pdot),
                                         c.ref_table.substr(pdot + 1));
        const catalog::Column* fk_col = t.FindColumn(c.columns[i]);
        const catalog::Column* pk_col =
            parent ? parent->FindColumn(c.ref_columns[i]) : nullptr;
        if (!fk_col || !pk_col) continue;
        uint32_t a = referencing ? new_col.type : fk_col->type;
        uint32_t b = referenced ? new_col.type : pk_col->type;
        if (ComparableTypes(a, b)) continue;
        *error = Err("42804", "foreign key constraint \"" + c.name +
                                  "\" cannot be implemented");
        error->detail = "Key columns \"" + c.columns[i] + "\" and \"" +
                        c.ref_columns[i] +
                        "\" are of incompatible types: " + TypeName(a) +
                        " and " + TypeName(b) + ".";
        return false;
      }
    }
  }
  // A view reading the column keeps its type (PostgreSQL would have to
  // rebuild the view's rule); the first one made is named.
  const catalog::View* reader = nullptr;
  for (const auto& [k, v] : cat().views())
    for (const auto& use : v.uses)
      if (use.schema == table_.schema && use.name == table_.name &&
          std::find(use.columns.begin(), use.columns.end(), cname) !=
              use.columns.end() &&
          (!reader || v.oid < reader->oid))
        reader = &v;
  if (reader) {
    DependentObject view;
    view.kind = DependentObject::Kind::kView;
    view.schema = reader->schema;
    view.name = reader->name;
    *error =
        Err("0A000", "cannot alter type of a column used by a view or rule");
    error->detail = "rule _RETURN on " +
                    session_->MakeDropClosure().Describe(view) +
                    " depends on column \"" + cname + "\"";
    return false;
  }
  // Convert every stored value.
  const types::TypeContext& context = session_->settings_.type_context();
  std::vector<StoredRow> rows;
  if (!ReadRows(table_, &rows, error)) return false;
  uint32_t from = using_expr ? using_expr->type : old_col.type;
  std::vector<std::pair<int64_t, Value>> converted;
  for (const auto& row : rows) {
    Value v = row.values[index];
    if (using_expr && !Evaluate(*using_expr, row.values, session_, &v, error))
      return false;
    if (!AssignValue(from, new_col, context, &v, error) ||
        !CheckDomainValue(new_col.type, v, session_, error))
      return false;
    converted.emplace_back(row.rid, v);
  }
  // Expression indexes over the column are analysed again for its new type
  // (PostgreSQL rebuilds them; an expression the type no longer takes fails).
  std::vector<std::string> expression_indexes;
  if (!DropExpressionIndexesUsing(cname, &expression_indexes, error))
    return false;
  for (size_t i = 0; i < rows.size(); i++) {
    const Value& v = converted[i].second;
    std::optional<SValue> sv;
    if (v) {
      SValue s;
      if (!ToSValue(new_col.type, v, context, &s, error)) return false;
      sv = s;
    }
    bson_t* doc = WithField(rows[i].doc, cname, sv, new_col.type);
    bool ok = WriteDocument(table_, rows[i].rid, doc, error);
    bson_destroy(doc);
    if (!ok) return false;
  }
  table_.columns[index] = new_col;
  if (!CreateExpressionIndexes(expression_indexes, error)) return false;
  // An identity sequence takes the column's type (a serial's keeps its own).
  if (old_col.identity && !old_col.sequence.empty() &&
      old_col.type != new_col.type) {
    size_t dot = old_col.sequence.find('.');
    const catalog::Sequence* q = cat().FindSequence(
        old_col.sequence.substr(0, dot), old_col.sequence.substr(dot + 1));
    if (q) {
      catalog::Sequence seq = *q;
      docstore::Session::CounterInfo info;
      if (!Store(storage()->ReadCounter(seq.counter, &info), error))
        return false;
      SeqDef def = SeqDefOf(info, seq.type);
      def.cache = seq.cache;
      SeqOptions options;
      options.type = new_col.type;
      if (!ApplySeqOptions(options, false, &def, error)) return false;
      if (!Store(
              storage()->WriteCounter(
                  seq.counter, info.collection, info.field, CounterSpecOf(def),
                  info.last.value_or(def.start - def.increment)),
              error))
        return false;
      seq.type = def.type;
      if (!Store(catalog::Catalog::PutSequence(storage(), db(), seq), error))
        return false;
    }
  }
  // CHECK constraints must still hold (and still make sense).
  for (const auto& c : table_.constraints)
    if (c.kind == 'c' && !ValidateCheck(c, error)) return false;
  return true;
}

bool AlterRunner::DropExpression(const PgQuery__AlterTableCmd* cmd,
                                 PgError* error) {
  int index = ExistingColumn(cmd->name, error);
  if (index < 0) return false;
  catalog::Column& col = table_.columns[index];
  if (col.generated_expr.empty()) {
    std::string message = "column \"" + col.name + "\" of relation \"" +
                          table_.name + "\" is not a stored generated column";
    if (cmd->missing_ok) {
      Notice("00000", message + ", skipping");
      return true;
    }
    *error = Err("42704", message);
    return false;
  }
  // The stored values stay; the column is an ordinary one from now on.
  col.generated_expr.clear();
  return true;
}

}  // namespace kova::planner
