// CREATE TABLE, TRUNCATE, CREATE INDEX and CREATE SCHEMA: catalog
// documents plus docstore collections, unique indexes and autoincrement
// fields (serial and identity columns become counters, DESIGN.md 3).
#include <algorithm>
#include <cstring>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/dml.h"
#include "planner/expr_internal.h"
#include "planner/index_expr.h"
#include "planner/reloptions.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner {

bool ColumnConstraintDeferral(PgQuery__Node* const* constraints, size_t n,
                              DeferralMap* out, PgError* error) {
  const PgQuery__Constraint* last = nullptr;  // the key it applies to
  Deferral* current = nullptr;
  bool saw_deferrability = false, saw_initially = false;
  auto misplaced = [&](const PgQuery__Constraint* con, const char* clause) {
    *error = Err("42601", std::string("misplaced ") + clause + " clause",
                 con->location);
    return false;
  };
  for (size_t k = 0; k < n; k++) {
    const PgQuery__Constraint* con = constraints[k]->constraint;
    switch (con->contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE: {
        bool deferrable =
            con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE;
        if (!current)
          return misplaced(con, deferrable ? "DEFERRABLE" : "NOT DEFERRABLE");
        if (saw_deferrability) {
          *error = Err("42601",
                       "multiple DEFERRABLE/NOT DEFERRABLE clauses not allowed",
                       con->location);
          return false;
        }
        saw_deferrability = true;
        current->deferrable = deferrable;
        if (!deferrable && saw_initially && current->initially_deferred) {
          *error = Err("42601",
                       "constraint declared INITIALLY DEFERRED must be "
                       "DEFERRABLE",
                       con->location);
          return false;
        }
        break;
      }
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE: {
        bool deferred =
            con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED;
        if (!current)
          return misplaced(
              con, deferred ? "INITIALLY DEFERRED" : "INITIALLY IMMEDIATE");
        if (saw_initially) {
          *error = Err("42601",
                       "multiple INITIALLY IMMEDIATE/DEFERRED clauses not "
                       "allowed",
                       con->location);
          return false;
        }
        saw_initially = true;
        current->initially_deferred = deferred;
        // INITIALLY DEFERRED alone implies DEFERRABLE.
        if (deferred && !saw_deferrability) {
          current->deferrable = true;
        } else if (deferred && !current->deferrable) {
          *error = Err("42601",
                       "constraint declared INITIALLY DEFERRED must be "
                       "DEFERRABLE",
                       con->location);
          return false;
        }
        break;
      }
      default: {
        bool keyed = con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
                     con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE ||
                     con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION ||
                     con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN;
        last = keyed ? con : nullptr;
        current = nullptr;
        if (last) {
          out->emplace_back(last,
                            Deferral{last->deferrable, last->initdeferred});
          current = &out->back().second;
        }
        saw_deferrability = saw_initially = false;
        break;
      }
    }
  }
  return true;
}

Deferral DeferralOf(const PgQuery__Constraint* con,
                    const DeferralMap& column_attrs) {
  for (const auto& [c, d] : column_attrs)
    if (c == con) return d;
  return Deferral{con->deferrable, con->initdeferred};
}

namespace ddl_detail {

bool IsSerialName(const std::string& name, uint32_t* type) {
  if (name == "serial" || name == "serial4")
    *type = oid::kInt4;
  else if (name == "bigserial" || name == "serial8")
    *type = oid::kInt8;
  else if (name == "smallserial" || name == "serial2")
    *type = oid::kInt2;
  else
    return false;
  return true;
}

// nextval('name') or nextval('name'::regclass): the sequence name.
bool NextvalTarget(const PgQuery__Node* n, std::string* name) {
  if (!n || n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return false;
  const PgQuery__FuncCall* f = n->func_call;
  std::string fname = sql::JoinNames(f->funcname, f->n_funcname);
  if (fname != "nextval" && fname != "pg_catalog.nextval") return false;
  if (f->n_args != 1) return false;
  const PgQuery__Node* a = f->args[0];
  if (a->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) a = a->type_cast->arg;
  if (a->node_case != PG_QUERY__NODE__NODE_A_CONST ||
      a->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
    return false;
  *name = a->a_const->sval->sval;
  return true;
}

std::string RelationNameCandidate(const std::string& name1,
                                  const std::string& name2,
                                  const std::string& label, int pass) {
  std::string suffix = label + (pass ? std::to_string(pass) : "");
  std::string a = name1, b = name2;
  size_t overhead = suffix.size() + 1 + (b.empty() ? 0 : 1);
  while (a.size() + b.size() + overhead > 63) {
    if (a.size() > b.size())
      a.pop_back();
    else
      b.pop_back();
  }
  return a + (b.empty() ? "" : "_" + b) + "_" + suffix;
}

}  // namespace ddl_detail

using ddl_detail::IsSerialName;
using ddl_detail::NextvalTarget;
using ddl_detail::RelationNameCandidate;

namespace {

std::string Str(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                          : "";
}

// PostgreSQL's ChooseRelationName: name1_name2_label, made unique with a
// number; parts are truncated so the result fits in 63 bytes.
std::string ChooseName(const catalog::Catalog& cat, const std::string& schema,
                       const std::string& name1, const std::string& name2,
                       const std::string& label,
                       const std::vector<std::string>& taken) {
  for (int pass = 0;; pass++) {
    std::string candidate = RelationNameCandidate(name1, name2, label, pass);
    if (!cat.RelationExists(schema, candidate) &&
        std::find(taken.begin(), taken.end(), candidate) == taken.end())
      return candidate;
  }
}

char FkAction(const char* a) { return a && *a ? a[0] : 'a'; }

}  // namespace

ExecuteResult SessionImpl::RunCreateTable(const PgQuery__CreateStmt* stmt,
                                          ResultSink* sink) {
  PgError error;
  if (!CheckWritable("CREATE TABLE", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->relation;
  bool temp = rv->relpersistence && std::strcmp(rv->relpersistence, "t") == 0;
  bool unlogged =
      rv->relpersistence && std::strcmp(rv->relpersistence, "u") == 0;
  char on_commit = 0;
  if (stmt->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DROP)
    on_commit = 'd';
  else if (stmt->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DELETE_ROWS)
    on_commit = 'r';
  if ((on_commit ||
       stmt->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_PRESERVE_ROWS) &&
      !temp)
    return Fail(Err("42P16", "ON COMMIT can only be used on temporary tables"));
  if (stmt->n_inh_relations > 0 || stmt->partbound || stmt->partspec ||
      stmt->of_typename)
    return Fail(Err("0A000",
                    "table inheritance, partitions and typed tables are not "
                    "supported yet",
                    rv->location));
  // Storage parameters: validated and kept (pg_class.reloptions).
  std::vector<std::string> reloptions;
  if (!MergeRelOptions(RelOptionTarget::kTable, stmt->options, stmt->n_options,
                       /*reset=*/false, /*create_table=*/true, &reloptions,
                       &error))
    return Fail(error);
  std::string schema;
  if (!CreationSchema(rv, &schema, &error)) return Fail(error);
  std::string name = rv->relname;
  if (schema == "admin" || schema == "pg_catalog" ||
      schema == "information_schema")
    return Fail(Err("42501", "permission denied to create \"" + schema + "." +
                                 name + "\""));
  if (!catalog_->FindSchema(schema))
    return Fail(
        Err("3F000", "schema \"" + schema + "\" does not exist", rv->location));
  if (catalog_->RelationExists(schema, name)) {
    if (stmt->if_not_exists) {
      Notice(sink, "NOTICE", "42P07",
             "relation \"" + name + "\" already exists, skipping");
      return Tag("CREATE TABLE");
    }
    return Fail(Err("42P07", "relation \"" + name + "\" already exists"));
  }
  catalog::Table table;
  table.schema = schema;
  table.name = name;
  table.reloptions = std::move(reloptions);
  table.unlogged = unlogged;
  table.collection = catalog::Catalog::CollectionName(schema, name);
  table.owner = user_;
  std::vector<std::string> taken;  // constraint/relation names chosen
  struct Counter {
    int column;
    SeqDef def;
    std::string sequence_name;  // new sequence to create ("" = linked)
    std::string linked;         // existing sequence (DEFAULT nextval)
  };
  std::vector<Counter> counters;
  std::vector<const PgQuery__Constraint*> table_constraints;
  std::vector<std::pair<int, const PgQuery__Constraint*>> column_constraints;
  DeferralMap deferrals;  // DEFERRABLE etc. of column constraints
  // GENERATED ALWAYS AS (...) STORED columns and their clauses.
  std::vector<std::pair<int, const PgQuery__Constraint*>> generated;
  TableLikeCopy like;  // what LIKE clauses copy beyond their columns

  for (size_t i = 0; i < stmt->n_table_elts; i++) {
    const PgQuery__Node* elt = stmt->table_elts[i];
    if (elt->node_case == PG_QUERY__NODE__NODE_CONSTRAINT) {
      if (elt->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION)
        return Fail(
            Err("0A000", "exclusion constraints are not supported yet"));
      table_constraints.push_back(elt->constraint);
      continue;
    }
    if (elt->node_case == PG_QUERY__NODE__NODE_TABLE_LIKE_CLAUSE) {
      TableLikeCopy source;
      if (!ExpandTableLike(elt->table_like_clause, &source, &error))
        return Fail(error);
      for (auto& c : source.columns) {
        if (table.FindColumn(c.column.name))
          return Fail(Err("42701", "column \"" + c.column.name +
                                       "\" specified more than once"));
        int index = static_cast<int>(table.columns.size());
        if (c.identity) {
          Counter counter;
          counter.column = index;
          counter.def = *c.identity;
          counter.sequence_name =
              ChooseName(*catalog_, schema, name, c.column.name, "seq", taken);
          taken.push_back(counter.sequence_name);
          counters.push_back(counter);
        } else if (!c.default_sequence.empty()) {
          Counter counter;
          counter.column = index;
          counter.linked = c.default_sequence;
          counters.push_back(counter);
        }
        if (!c.comment.empty())
          table.column_comments[c.column.name] = c.comment;
        table.columns.push_back(std::move(c.column));
      }
      for (auto& c : source.checks) like.checks.push_back(std::move(c));
      for (auto& k : source.keys) like.keys.push_back(std::move(k));
      for (auto& x : source.indexes) like.indexes.push_back(std::move(x));
      continue;
    }
    if (elt->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
      return Fail(Err("0A000", "this CREATE TABLE element is not supported"));
    const PgQuery__ColumnDef* cd = elt->column_def;
    if (expr_detail::IsSystemColumnName(cd->colname))
      return Fail(SystemColumnNameError(cd->colname));
    if (table.FindColumn(cd->colname))
      return Fail(Err("42701", "column \"" + std::string(cd->colname) +
                                   "\" specified more than once"));
    catalog::Column col;
    col.name = cd->colname;
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
      if (!ResolveTypeName(cd->type_name, &col.type, &typmod, &error))
        return Fail(error);
      col.typmod = typmod;
    }
    if (cd->coll_clause)
      return Fail(Err("0A000", "COLLATE is not supported yet"));
    if (cd->compression && *cd->compression &&
        !ColumnCompression(cd->compression, col.type, &col.compression, &error))
      return Fail(error);
    int index = static_cast<int>(table.columns.size());
    bool saw_null = false, saw_not_null = false;
    if (serial) {
      Counter c;
      c.column = index;
      c.def.type = col.type;
      SeqOptions none;
      ApplySeqOptions(none, true, &c.def, &error);
      c.sequence_name =
          ChooseName(*catalog_, schema, name, col.name, "seq", taken);
      taken.push_back(c.sequence_name);
      col.default_expr =
          "nextval('" + QuoteIdentifier(c.sequence_name) + "'::regclass)";
      counters.push_back(c);
    }
    if (!ColumnConstraintDeferral(cd->constraints, cd->n_constraints,
                                  &deferrals, &error))
      return Fail(error);
    for (size_t k = 0; k < cd->n_constraints; k++) {
      const PgQuery__Constraint* con = cd->constraints[k]->constraint;
      switch (con->contype) {
        case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
        case PG_QUERY__CONSTR_TYPE__CONSTR_NULL: {
          bool not_null = con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL;
          if ((not_null && saw_null) || (!not_null && saw_not_null) ||
              (!not_null && col.identity))
            return Fail(Err("42601",
                            "conflicting NULL/NOT NULL declarations for "
                            "column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          (not_null ? saw_not_null : saw_null) = true;
          if (not_null) col.not_null = true;
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT: {
          if (!col.generated_expr.empty())
            return Fail(Err("42601",
                            "both default and generation expression "
                            "specified for column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          if (col.identity)
            return Fail(Err("42601",
                            "both default and identity specified for column "
                            "\"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          if (serial || !col.default_expr.empty())
            return Fail(Err("42601",
                            "multiple default values specified for column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          std::string seq;
          if (NextvalTarget(con->raw_expr, &seq)) {
            Counter c;
            c.column = index;
            c.linked = seq;
            counters.push_back(c);
          } else {
            // Checked now, as PostgreSQL does at CREATE TABLE: the value
            // must be assignable to the column.
            Analyzer analyzer(this, nullptr);
            std::unique_ptr<Expr> e;
            if (!analyzer.Analyze(con->raw_expr, &e, &error))
              return Fail(error);
            if (e->type == oid::kUnknown &&
                !analyzer.Coerce(&e, col.type, col.typmod, &error))
              return Fail(error);
          }
          col.default_expr = sql::DeparseExpr(con->raw_expr);
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY: {
          if (!col.generated_expr.empty())
            return Fail(Err("42601",
                            "both identity and generation expression "
                            "specified for column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          if (col.identity)
            return Fail(Err("42601",
                            "multiple identity specifications for column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          if (saw_null)
            return Fail(Err("42601",
                            "conflicting NULL/NOT NULL declarations for "
                            "column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          if (serial || !col.default_expr.empty())
            return Fail(Err("42601",
                            "both default and identity specified for column "
                            "\"" +
                                col.name + "\" of table \"" + name + "\"",
                            serial ? -1 : con->location));
          if (col.type != oid::kInt2 && col.type != oid::kInt4 &&
              col.type != oid::kInt8)
            return Fail(Err("22023",
                            "identity column type must be smallint, "
                            "integer, or bigint"));
          col.identity = con->generated_when[0] == 'a' ? 'a' : 'd';
          col.not_null = true;
          SeqOptions options;
          if (!ParseSeqOptions(con->options, con->n_options, &options, &error))
            return Fail(error);
          Counter c;
          c.column = index;
          c.def.type = col.type;
          if (!options.type) options.type = col.type;
          if (!ApplySeqOptions(options, true, &c.def, &error))
            return Fail(error);
          c.sequence_name =
              options.sequence_name
                  ? *options.sequence_name
                  : ChooseName(*catalog_, schema, name, col.name, "seq", taken);
          if (c.sequence_name.find('.') != std::string::npos)
            c.sequence_name =
                c.sequence_name.substr(c.sequence_name.rfind('.') + 1);
          taken.push_back(c.sequence_name);
          counters.push_back(c);
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED: {
          auto conflict = [&](const char* what) {
            return Fail(Err("42601",
                            std::string(what) + " specified for column \"" +
                                col.name + "\" of table \"" + name + "\"",
                            con->location));
          };
          if (!col.generated_expr.empty())
            return conflict("multiple generation clauses");
          if (!con->generated_when || std::string(con->generated_when) != "a")
            return Fail(Err("42601",
                            "for a generated column, GENERATED ALWAYS must be "
                            "specified",
                            con->location));
          if (col.identity)
            return conflict("both identity and generation expression");
          if (serial || !col.default_expr.empty())
            return conflict("both default and generation expression");
          // Analysed once every column is known (it may name later ones).
          col.generated_expr = "?";
          generated.emplace_back(index, con);
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
        case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
        case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
        case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
          column_constraints.emplace_back(index, con);
          break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION:
          return Fail(
              Err("0A000", "exclusion constraints are not supported yet"));
        default:
          break;  // DEFERRABLE and friends: accepted
      }
    }
    table.columns.push_back(std::move(col));
  }
  for (const auto& [index, con] : generated) {
    std::string text;
    if (!AnalyzeGeneratedColumn(this, table, index, con->raw_expr, &text,
                                &error))
      return Fail(error);
    table.columns[index].generated_expr = text;
  }
  for (const auto* con : table_constraints)
    column_constraints.emplace_back(-1, con);
  // A constraint joins the table under a name not yet taken; a key brings
  // its unique index.
  auto add_constraint = [&](catalog::Constraint c, const std::string& comment,
                            PgError* error,
                            std::vector<std::string> reloptions = {}) {
    for (const auto& existing : table.constraints) {
      if (existing.name == c.name) {
        *error = Err("42710", "constraint \"" + c.name + "\" for relation \"" +
                                  name + "\" already exists");
        return false;
      }
    }
    taken.push_back(c.name);
    if (c.kind == 'p' || c.kind == 'u') {
      if (catalog_->RelationExists(schema, c.name)) {
        *error = Err("42P07", "relation \"" + c.name + "\" already exists");
        return false;
      }
      catalog::Index x;
      x.name = c.name;
      x.unique = true;
      x.columns = c.columns;
      x.constraint = c.name;
      x.comment = comment;
      x.reloptions = std::move(reloptions);
      table.indexes.push_back(x);
    }
    table.constraints.push_back(std::move(c));
    return true;
  };

  // Constraints, in the order PostgreSQL names them.
  for (const auto& [column, con] : column_constraints) {
    catalog::Constraint c;
    Deferral deferral = DeferralOf(con, deferrals);
    c.deferrable = deferral.deferrable;
    c.initially_deferred = deferral.initially_deferred;
    std::vector<std::string> cols;
    if (column >= 0) {
      cols.push_back(table.columns[column].name);
    } else {
      for (size_t k = 0; k < con->n_keys; k++)
        cols.push_back(Str(con->keys[k]));
      for (size_t k = 0; k < con->n_fk_attrs; k++)
        cols.push_back(Str(con->fk_attrs[k]));
    }
    for (const auto& cname : cols) {
      if (!table.FindColumn(cname))
        return Fail(Err("42703",
                        "column \"" + cname + "\" named in key does not exist",
                        con->location));
    }
    std::string joined;
    for (const auto& cname : cols)
      joined += (joined.empty() ? "" : "_") + cname;
    c.columns = cols;
    switch (con->contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
        if (table.PrimaryKey())
          return Fail(Err("42P16",
                          "multiple primary keys for table \"" + name +
                              "\" are not allowed",
                          con->location));
        c.kind = 'p';
        c.name = con->conname && *con->conname
                     ? con->conname
                     : ChooseName(*catalog_, schema, name, "", "pkey", taken);
        for (const auto& cname : cols) {
          for (auto& col : table.columns)
            if (col.name == cname) col.not_null = true;
        }
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
        c.kind = 'u';
        c.nulls_not_distinct = con->nulls_not_distinct;
        c.name =
            con->conname && *con->conname
                ? con->conname
                : ChooseName(*catalog_, schema, name, joined, "key", taken);
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: {
        c.kind = 'c';
        {
          // Checked now, as PostgreSQL: the columns exist and it is boolean.
          std::unique_ptr<Expr> e;
          if (!AnalyzeRowExpr(this, table, con->raw_expr, "check constraints",
                              &e, &error))
            return Fail(error);
          if (e->type != oid::kBool)
            return Fail(
                Err("42804",
                    "argument of CHECK must be type boolean, not type " +
                        types::FormatTypeName(e->type, -1),
                    e->location));
        }
        c.check_expr = sql::DeparseExpr(con->raw_expr);
        std::string first = CheckNameColumn(c.check_expr);
        c.name =
            con->conname && *con->conname
                ? con->conname
                : ChooseName(*catalog_, schema, name, first, "check", taken);
        c.columns.clear();
        break;
      }
      case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN: {
        c.kind = 'f';
        const catalog::Table* ref = nullptr;
        const PgQuery__RangeVar* pk = con->pktable;
        std::string ref_schema =
            pk->schemaname && *pk->schemaname
                ? pk->schemaname
                : (name == pk->relname ? schema
                                       : LookupSchema(nullptr, pk->relname));
        bool self = ref_schema == schema && name == pk->relname;
        if (!self) ref = catalog_->FindTable(ref_schema, pk->relname);
        if (!self && !ref)
          return Fail(Err("42P01", "relation \"" + std::string(pk->relname) +
                                       "\" does not exist"));
        const catalog::Table& target = self ? table : *ref;
        if (!self &&
            !alter_detail::CheckForeignKeyPersistence(table, target, &error))
          return Fail(error);
        std::vector<std::string> ref_cols;
        for (size_t k = 0; k < con->n_pk_attrs; k++)
          ref_cols.push_back(Str(con->pk_attrs[k]));
        if (ref_cols.empty()) {
          const catalog::Constraint* pkey = target.PrimaryKey();
          if (!pkey)
            return Fail(
                Err("42830", "there is no primary key for referenced table \"" +
                                 target.name + "\""));
          ref_cols = pkey->columns;
        }
        if (ref_cols.size() != cols.size())
          return Fail(Err("42830",
                          "number of referencing and referenced columns for "
                          "foreign key disagree"));
        bool unique = false;
        for (const auto& x : target.constraints) {
          if ((x.kind == 'p' || x.kind == 'u') &&
              x.columns.size() == ref_cols.size() &&
              std::is_permutation(x.columns.begin(), x.columns.end(),
                                  ref_cols.begin()))
            unique = true;
        }
        if (!unique)
          return Fail(Err("42830",
                          "there is no unique constraint matching given keys "
                          "for referenced table \"" +
                              target.name + "\""));
        c.ref_table = target.schema + "." + target.name;
        c.ref_columns = ref_cols;
        c.on_delete = FkAction(con->fk_del_action);
        c.on_update = FkAction(con->fk_upd_action);
        c.name =
            con->conname && *con->conname
                ? con->conname
                : ChooseName(*catalog_, schema, name, joined, "fkey", taken);
        break;
      }
      default:
        continue;
    }
    std::vector<std::string> reloptions;
    if ((c.kind == 'p' || c.kind == 'u') &&
        !MergeRelOptions(RelOptionTarget::kBtreeIndex, con->options,
                         con->n_options, /*reset=*/false,
                         /*create_table=*/false, &reloptions, &error))
      return Fail(error);
    if (!add_constraint(std::move(c), "", &error, std::move(reloptions)))
      return Fail(error);
  }
  // From LIKE: CHECK constraints keep their names; keys get new ones, as
  // the table's own do, after them.
  for (auto& c : like.checks)
    if (!add_constraint(std::move(c), "", &error)) return Fail(error);
  for (auto& [c, comment, reloptions] : like.keys) {
    std::string joined;
    for (const auto& cname : c.columns)
      joined += (joined.empty() ? "" : "_") + cname;
    if (c.kind == 'p') {
      if (table.PrimaryKey())
        return Fail(Err("42P16", "multiple primary keys for table \"" + name +
                                     "\" are not allowed"));
      c.name = ChooseName(*catalog_, schema, name, "", "pkey", taken);
      for (auto& col : table.columns)
        if (std::find(c.columns.begin(), c.columns.end(), col.name) !=
            c.columns.end())
          col.not_null = true;
    } else {
      c.name = ChooseName(*catalog_, schema, name, joined, "key", taken);
    }
    if (!add_constraint(std::move(c), comment, &error, std::move(reloptions)))
      return Fail(error);
  }

  // Storage: the collection, unique indexes, then autoincrement fields (a
  // key index already covers a serial primary key).
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok())
    s = catalog::Catalog::AllocateOid(storage_.get(), database_, &table.oid);
  if (s.ok()) s = storage_->CreateCollection(database_, table.collection, {});
  for (auto& x : table.indexes) {
    if (!s.ok()) break;
    s = catalog::Catalog::AllocateOid(storage_.get(), database_, &x.oid);
    docstore::IndexSpec spec;
    spec.name = x.name;
    for (const auto& c : x.columns) spec.keys.emplace_back(c, 1);
    spec.unique = true;
    spec.nulls_distinct = true;
    for (const auto& c : table.constraints) {
      if (c.name != x.name) continue;
      if (c.nulls_not_distinct) spec.nulls_distinct = false;
      // A DEFERRABLE key is checked when its statement or transaction
      // ends (deferred_checks.cc), not by the index.
      if (c.deferrable) spec.unique = false;
    }
    if (s.ok()) s = storage_->CreateIndex(database_, table.collection, spec);
  }
  std::vector<catalog::Sequence> sequences;
  for (const Counter& c : counters) {
    if (!s.ok()) break;
    catalog::Column& col = table.columns[c.column];
    if (!c.linked.empty()) {
      // A sequence that already numbers another column is shared: this
      // column draws from it with nextval (its default), as in PostgreSQL,
      // without becoming an autoincrement field (one counter row numbers
      // one field).
      const catalog::Sequence* seq;
      if (!ResolveSequence(c.linked, &seq, &error)) return Fail(error);
      if (seq->counter != catalog::Catalog::SequenceCounterId(
                              database_, seq->schema, seq->name))
        continue;
    }
    col.counter = catalog::Catalog::ColumnCounterId(database_, table.collection,
                                                    col.name);
    // The unique index the counter needs (seed rule 1), named as
    // PostgreSQL names a UNIQUE constraint on the column, unless a key
    // index already covers exactly this column.
    bool covered = false;
    for (const auto& x : table.indexes) {
      bool deferrable = false;
      for (const auto& k : table.constraints)
        deferrable |= k.name == x.name && k.deferrable;
      covered |=
          x.columns.size() == 1 && x.columns[0] == col.name && !deferrable;
    }
    if (!covered) {
      catalog::Index x;
      x.name = ChooseName(*catalog_, schema, name, col.name, "key", taken);
      taken.push_back(x.name);
      x.unique = true;
      x.columns = {col.name};
      s = catalog::Catalog::AllocateOid(storage_.get(), database_, &x.oid);
      docstore::IndexSpec spec;
      spec.name = x.name;
      spec.keys.emplace_back(col.name, 1);
      spec.unique = true;
      spec.nulls_distinct = true;
      if (s.ok()) s = storage_->CreateIndex(database_, table.collection, spec);
      table.indexes.push_back(x);
      if (!s.ok()) break;
    }
    if (!c.linked.empty()) {
      const catalog::Sequence* seq;
      if (!ResolveSequence(c.linked, &seq, &error)) return Fail(error);
      catalog::Sequence linked = *seq;
      s = storage_->RenameCounter(linked.counter, col.counter,
                                  database_ + "." + table.collection, col.name);
      if (s.ok())
        s = storage_->AddAutoincrement(database_, table.collection, col.name,
                                       {}, /*keep_counter_row=*/true);
      linked.counter = col.counter;
      col.sequence = linked.schema + "." + linked.name;
      sequences.push_back(linked);
      continue;
    }
    s = storage_->AddAutoincrement(database_, table.collection, col.name,
                                   CounterSpecOf(c.def));
    catalog::Sequence seq;
    seq.schema = schema;
    seq.name = c.sequence_name;
    seq.counter = col.counter;
    seq.type = c.def.type;
    seq.cache = c.def.cache;
    seq.owned_table = schema + "." + name;
    seq.owned_column = col.name;
    seq.owner = user_;
    col.sequence = schema + "." + seq.name;
    if (s.ok())
      s = catalog::Catalog::AllocateOid(storage_.get(), database_, &seq.oid);
    sequences.push_back(seq);
  }
  if (s.ok()) s = catalog::Catalog::PutTable(storage_.get(), database_, table);
  for (const auto& seq : sequences) {
    if (!s.ok()) break;
    s = catalog::Catalog::PutSequence(storage_.get(), database_, seq);
  }
  if (!s.ok()) return Fail(TableError(s));
  MarkFreshTable(schema + "." + name);
  // Indexes copied by LIKE that back no constraint: built as CREATE INDEX
  // builds them, under PostgreSQL's names for them (table_columns_idx).
  for (catalog::Index& x : like.indexes) {
    std::string joined;
    for (size_t i = 0; i < x.columns.size(); i++)
      joined += (joined.empty() ? "" : "_") +
                (x.expression(i).empty()
                     ? x.columns[i]
                     : IndexExpressionNameOfText(x.expression(i)));
    x.name = ChooseName(*catalog_, schema, name, joined, "idx", taken);
    taken.push_back(x.name);
    catalog::Table target;
    target.schema = schema;
    target.name = name;
    ExecuteResult r = RunInternal(system_catalog::IndexDefinition(target, x));
    if (r.ok && !x.comment.empty())
      r = RunInternal("COMMENT ON INDEX " + QuoteQualified(schema, x.name) +
                      " IS " + SqlQuoteLiteral(x.comment));
    if (!r.ok) return r;
  }
  if (on_commit) {
    if (!LoadCatalog(&error)) return Fail(error);
    if (const catalog::Table* t = catalog_->FindTable(schema, name))
      RegisterOnCommit(*t, on_commit);
  }
  return Tag("CREATE TABLE");
}

ExecuteResult SessionImpl::RunTruncate(const PgQuery__TruncateStmt* stmt,
                                       ResultSink* sink) {
  PgError error;
  if (!CheckWritable("TRUNCATE", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  docstore::Status s = EnsureWriteTransaction();
  if (!s.ok()) return Fail(TableError(s));
  std::vector<const catalog::Table*> tables;
  for (size_t i = 0; i < stmt->n_relations; i++) {
    const PgQuery__RangeVar* rv = stmt->relations[i]->range_var;
    CompileContext context = LookupContext();
    const catalog::Table* t;
    const catalog::View* v;
    if (!QueryCompiler::LookupRelation(&context, rv, &t, &v, &error)) {
      error.position = 0;  // PostgreSQL gives TRUNCATE's error no position
      return Fail(error);
    }
    if (v) return Fail(Err("42809", "\"" + v->name + "\" is not a table"));
    tables.push_back(t);
  }
  bool cascade = stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  // By index: CASCADE appends the referencing tables, whose own
  // referencing tables follow in turn.
  for (size_t i = 0; i < tables.size(); i++) {
    const catalog::Table* t = tables[i];
    for (const auto& [k, other] : catalog_->tables()) {
      for (const auto& c : other.constraints) {
        if (c.kind != 'f' || c.ref_table != t->schema + "." + t->name) continue;
        bool listed = false;
        for (const auto* x : tables) listed |= x == &other;
        if (!listed && !cascade) {
          PgError e = Err("0A000",
                          "cannot truncate a table referenced in a foreign "
                          "key constraint");
          e.detail =
              "Table \"" + other.name + "\" references \"" + t->name + "\".";
          e.hint = "Truncate table \"" + other.name +
                   "\" at the same time, or use TRUNCATE ... CASCADE.";
          return Fail(e);
        }
        if (!listed) {
          Notice(sink, "NOTICE", "00000",
                 "truncate cascades to table \"" + other.name + "\"");
          tables.push_back(&other);
        }
      }
    }
  }
  for (const catalog::Table* t : tables) {
    bool counters = t->schema == "admin" && t->name == "counters";
    bson_t filter = BSON_INITIALIZER;
    int64_t deleted;
    s = storage_->Delete(counters ? docstore::kAdminDb : database_,
                         t->collection, &filter, 0, &deleted);
    bson_destroy(&filter);
    if (!s.ok()) return Fail(TableError(s));
    if (stmt->restart_seqs) {
      for (const auto& col : t->columns) {
        if (col.counter.empty()) continue;
        docstore::Session::CounterInfo info;
        s = storage_->ReadCounter(col.counter, &info);
        if (s.ok() && info.exists)
          s = storage_->SetCounterLast(col.counter,
                                       info.start - info.increment);
        if (!s.ok()) return Fail(TableError(s));
      }
    }
  }
  for (const catalog::Table* t : tables)
    MarkFreshTable(t->schema + "." + t->name);
  return Tag("TRUNCATE TABLE");
}

bool SessionImpl::IndexPredicate(const catalog::Table& table,
                                 const PgQuery__Node* node, std::string* text,
                                 PgError* error) {
  IndexExpression e;
  std::string column;
  uint32_t type;
  int location = ExprNodeLocation(node);
  if (!AnalyzeIndexExpression(this, table, node, &e, &column, error)) {
    // The rules of index expressions, worded for a predicate as PostgreSQL
    // does ("functions in index predicate must be marked IMMUTABLE").
    for (auto [from, to] : {std::pair<const char*, const char*>{
                                "index expressions", "index predicates"},
                            {"index expression", "index predicate"}}) {
      size_t at = error->message.find(from);
      if (at != std::string::npos) {
        error->message.replace(at, std::strlen(from), to);
        break;
      }
    }
    return false;
  }
  if (!column.empty()) {
    type = table.FindColumn(column)->type;
  } else {
    type = e.expr->type;
    location = LeftmostParseLocation(node);
  }
  if (type != oid::kBool) {
    *error = Err("42804",
                 "argument of WHERE must be type boolean, not type " +
                     types::FormatTypeName(type, -1),
                 location);
    return false;
  }
  *text = sql::DeparseExpr(node);
  return true;
}

ExecuteResult SessionImpl::RunCreateIndex(const PgQuery__IndexStmt* stmt,
                                          ResultSink* sink) {
  PgError error;
  if (!CheckWritable("CREATE INDEX", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  CompileContext context = LookupContext();
  const catalog::Table* found;
  const catalog::View* view;
  if (!QueryCompiler::LookupRelation(&context, stmt->relation, &found, &view,
                                     &error)) {
    error.position = 0;  // as PostgreSQL's CREATE INDEX
    return Fail(error);
  }
  if (view || (found->schema == "admin"))
    return Fail(Err("42809", "cannot create index on relation \"" +
                                 std::string(stmt->relation->relname) + "\""));
  // The index named in messages about what Kova cannot build yet.
  const std::string what =
      std::string(": index ") +
      (stmt->idxname && *stmt->idxname ? QuoteIdentifier(stmt->idxname) + " "
                                       : std::string()) +
      "on " + found->schema + "." + found->name;
  std::string method;
  if (!CheckIndexMethod(stmt, what, &method, &error)) return Fail(error);
  catalog::Table table = *found;
  catalog::Index x;
  if (stmt->where_clause &&
      !IndexPredicate(table, stmt->where_clause, &x.predicate, &error))
    return Fail(error);
  x.unique = stmt->unique;
  x.nulls_not_distinct = stmt->nulls_not_distinct;
  if (method == "hash") x.method = method;
  if (!MergeRelOptions(method == "hash" ? RelOptionTarget::kHashIndex
                                        : RelOptionTarget::kBtreeIndex,
                       stmt->options, stmt->n_options, /*reset=*/false,
                       /*create_table=*/false, &x.reloptions, &error))
    return Fail(error);
  docstore::IndexSpec spec;
  // Per key: its analysed expression (empty for a column key).
  std::vector<IndexExpression> key_exprs(stmt->n_index_params);
  std::vector<std::string> name_parts;
  for (size_t i = 0; i < stmt->n_index_params; i++) {
    const PgQuery__IndexElem* ie = stmt->index_params[i]->index_elem;
    bool desc = ie->ordering == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    std::string column = ie->name ? ie->name : "";
    if (column.empty()) {
      if (!AnalyzeIndexExpression(this, table, ie->expr, &key_exprs[i], &column,
                                  &error))
        return Fail(error);
    } else if (!table.FindColumn(column)) {
      return Fail(Err("42703", "column \"" + column + "\" does not exist"));
    }
    std::string part = column;
    if (column.empty()) {
      // An expression key: the docstore indexes kova_index_key over the
      // document; its key is labelled "$<n>:<text>" (no field starts so).
      std::string text = sql::DeparseExpr(ie->expr);
      x.expressions.resize(i);
      x.expressions.push_back(text);
      spec.expressions.resize(i);
      spec.expressions.push_back(IndexKeySql(key_exprs[i], text));
      spec.keys.emplace_back(ExpressionKeyLabel(i, key_exprs[i], text),
                             desc ? -1 : 1);
      part = IndexExpressionName(ie->expr);
    } else {
      spec.keys.emplace_back(column, desc ? -1 : 1);
    }
    x.columns.push_back(column);
    // Index column names are unique: "expr", "expr1", ... (PostgreSQL's
    // ChooseIndexColumnNames).
    std::string unique_part = part;
    for (int n = 1; std::find(name_parts.begin(), name_parts.end(),
                              unique_part) != name_parts.end();
         n++)
      unique_part = part + std::to_string(n);
    name_parts.push_back(unique_part);
    // NULLS FIRST is the default of DESC, as in PostgreSQL.
    bool nulls_first =
        ie->nulls_ordering == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
        (desc &&
         ie->nulls_ordering != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST);
    x.options.push_back(
        static_cast<int16_t>((desc ? catalog::kIndexDesc : 0) |
                             (nulls_first ? catalog::kIndexNullsFirst : 0)));
  }
  if (!x.expressions.empty()) x.expressions.resize(x.columns.size());
  // All ASC NULLS LAST: nothing to keep.
  if (std::all_of(x.options.begin(), x.options.end(),
                  [](int16_t o) { return o == 0; }))
    x.options.clear();
  std::string joined;
  for (const auto& c : name_parts) joined += (joined.empty() ? "" : "_") + c;
  x.name =
      stmt->idxname && *stmt->idxname
          ? stmt->idxname
          : ChooseName(*catalog_, table.schema, table.name, joined, "idx", {});
  if (catalog_->RelationExists(table.schema, x.name)) {
    if (stmt->if_not_exists) {
      Notice(sink, "NOTICE", "42P07",
             "relation \"" + x.name + "\" already exists, skipping");
      return Tag("CREATE INDEX");
    }
    return Fail(Err("42P07", "relation \"" + x.name + "\" already exists"));
  }
  spec.name = x.name;
  spec.unique = x.unique;
  spec.nulls_distinct = !stmt->nulls_not_distinct;
  if (!x.predicate.empty()) {
    IndexExpression predicate;
    if (!AnalyzeIndexExpressionText(this, table, x.predicate, &predicate,
                                    &error))
      return Fail(error);
    spec.where = IndexPredicateSql(predicate, x.predicate);
  }
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok())
    s = catalog::Catalog::AllocateOid(storage_.get(), database_, &x.oid);
  if (s.ok()) s = storage_->CreateIndex(database_, table.collection, spec);
  if (!s.ok()) {
    if (s.code() == docstore::Code::kDuplicateKey) {
      PgError e =
          Err("23505", "could not create unique index \"" + x.name + "\"");
      e.detail = "Key is duplicated.";
      // The first duplicated key, as PostgreSQL reports it.
      std::string tbl, cols, group;
      if (CollectionTable(table.collection, &tbl, &error)) {
        for (size_t i = 0; i < x.columns.size(); i++) {
          const catalog::Column* c = table.FindColumn(x.columns[i]);
          group += (i ? ", " : "") + (c ? ColumnSql("k", x.columns[i], c->type)
                                        : spec.expressions[i]);
        }
        std::string sql = "SELECT " + group + " FROM " + tbl + " AS k" +
                          (spec.where.empty() ? "" : " WHERE " + spec.where) +
                          " GROUP BY " + group + " HAVING count(*) > 1 LIMIT 1";
        sqlite3_stmt* q = CachedStatement(sql, &error);
        if (q && sqlite3_step(q) == SQLITE_ROW) {
          std::string names, values;
          for (size_t i = 0; i < x.columns.size(); i++) {
            const catalog::Column* c = table.FindColumn(x.columns[i]);
            Value v;
            PgError ignored;
            FromSValue(c ? c->type : key_exprs[i].expr->type,
                       ReadColumn(q, static_cast<int>(i)),
                       settings_.type_context(), &v, &ignored);
            names += (i ? ", " : "") +
                     (c ? x.columns[i]
                        : IndexColumnText(key_exprs[i], x.expressions[i],
                                          /*pretty=*/true));
            values += (i ? ", " : "") + (v ? *v : std::string("null"));
          }
          e.detail = "Key (" + names + ")=(" + values + ") is duplicated.";
        }
        if (q) sqlite3_reset(q);
      }
      return Fail(e);
    }
    return Fail(TableError(s));
  }
  table.indexes.push_back(x);
  s = catalog::Catalog::PutTable(storage_.get(), database_, table);
  if (!s.ok()) return Fail(TableError(s));
  return Tag("CREATE INDEX");
}

ExecuteResult SessionImpl::RunCreateSchema(
    const PgQuery__CreateSchemaStmt* stmt, ResultSink* sink) {
  PgError error;
  if (!CheckWritable("CREATE SCHEMA", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  std::string name = stmt->schemaname && *stmt->schemaname
                         ? stmt->schemaname
                         : (stmt->authrole ? stmt->authrole->rolename : "");
  if (stmt->n_schema_elts > 0)
    return Fail(
        Err("0A000", "CREATE SCHEMA with elements is not supported yet"));
  if (catalog_->FindSchema(name)) {
    if (stmt->if_not_exists) {
      Notice(sink, "NOTICE", "42P06",
             "schema \"" + name + "\" already exists, skipping");
      return Tag("CREATE SCHEMA");
    }
    return Fail(Err("42P06", "schema \"" + name + "\" already exists"));
  }
  if (name.rfind("pg_", 0) == 0) {
    PgError e = Err("42939", "unacceptable schema name \"" + name + "\"");
    e.detail = "The prefix \"pg_\" is reserved for system schemas.";
    return Fail(e);
  }
  catalog::Schema sc;
  sc.name = name;
  sc.owner = stmt->authrole && stmt->authrole->rolename
                 ? stmt->authrole->rolename
                 : user_;
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok())
    s = catalog::Catalog::AllocateOid(storage_.get(), database_, &sc.oid);
  if (s.ok()) s = catalog::Catalog::PutSchema(storage_.get(), database_, sc);
  if (!s.ok()) return Fail(TableError(s));
  return Tag("CREATE SCHEMA");
}

PgError SystemColumnNameError(const std::string& name) {
  return Err("42701", "column name \"" + name +
                          "\" conflicts with a system column name");
}

}  // namespace kova::planner
