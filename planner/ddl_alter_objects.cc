// CREATE [OR REPLACE] VIEW, COMMENT ON and ALTER ... RENAME (relations,
// columns and constraints). A renamed table is a renamed docstore
// collection: its counter rows follow (their _id names the collection);
// relations move by the steps SET SCHEMA uses too (ddl_set_schema.cc).
#include <pg_query.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "planner/ddl_alter_internal.h"
#include "planner/session_util.h"

namespace kova::planner {

using namespace alter_detail;  // NOLINT: the helpers of ALTER TABLE

namespace {

// The names of a qualified-name list ("schema.name" or "name").
std::vector<std::string> NameList(const PgQuery__Node* n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n->node_case == PG_QUERY__NODE__NODE_LIST) {
    for (size_t i = 0; i < n->list->n_items; i++)
      out.push_back(Str(n->list->items[i]));
  } else {
    out.push_back(Str(n));
  }
  return out;
}

}  // namespace

std::string DeparseSelect(const PgQuery__Node* select) {
  PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT;
  raw.stmt = const_cast<PgQuery__Node*>(select);
  PgQuery__RawStmt* stmts[] = {&raw};
  PgQuery__ParseResult result = PG_QUERY__PARSE_RESULT__INIT;
  result.version = PG_VERSION_NUM;
  result.n_stmts = 1;
  result.stmts = stmts;
  size_t len = pg_query__parse_result__get_packed_size(&result);
  std::string buffer(len, '\0');
  pg_query__parse_result__pack(&result,
                               reinterpret_cast<uint8_t*>(buffer.data()));
  PgQueryProtobuf proto;
  proto.len = len;
  proto.data = buffer.data();
  PgQueryDeparseResult d = pg_query_deparse_protobuf(proto);
  std::string out;
  if (!d.error && d.query) out = d.query;
  pg_query_free_deparse_result(d);
  return out;
}

// ---- CREATE VIEW ------------------------------------------------------------

ExecuteResult SessionImpl::RunCreateView(const PgQuery__ViewStmt* stmt,
                                         const Plan& plan) {
  (void)plan;
  AlterRunner runner(this, nullptr);
  return runner.CreateView(stmt);
}

ExecuteResult AlterRunner::CreateView(const PgQuery__ViewStmt* stmt) {
  PgError error;
  if (!session_->CheckWritable("CREATE VIEW", &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->view;
  if (stmt->n_options > 0)
    return Fail(Err("0A000", "view options (WITH ...) are not supported yet"));
  if (stmt->with_check_option != PG_QUERY__VIEW_CHECK_OPTION__NO_CHECK_OPTION &&
      stmt->with_check_option !=
          PG_QUERY__VIEW_CHECK_OPTION__VIEW_CHECK_OPTION_UNDEFINED)
    return Fail(Err("0A000", "WITH CHECK OPTION is not supported yet"));
  std::string schema;
  if (!session_->CreationSchema(rv, &schema, &error)) return Fail(error);
  std::string name = rv->relname;
  if (schema == "admin" || schema == "pg_catalog" ||
      schema == "information_schema")
    return Fail(Err("42501", "permission denied to create \"" + schema + "." +
                                 name + "\""));
  if (!cat().FindSchema(schema))
    return Fail(
        Err("3F000", "schema \"" + schema + "\" does not exist", rv->location));
  const catalog::View* existing = cat().FindView(schema, name);
  if (!existing && cat().RelationExists(schema, name)) {
    if (stmt->replace)
      return Fail(Err("42809", "\"" + name + "\" is not a view"));
    return Fail(Err("42P07", "relation \"" + name + "\" already exists"));
  }
  if (existing && !stmt->replace)
    return Fail(Err("42P07", "relation \"" + name + "\" already exists"));

  // Compile once: checks the query and gives the output columns.
  Plan scratch;
  scratch.simple = true;
  CompileContext context = session_->MakeCompileContext(&scratch);
  std::set<std::pair<uint32_t, std::string>> grouping_keys;
  context.grouping_keys = &grouping_keys;
  Compiled compiled;
  QueryCompiler compiler(&context);
  if (!compiler.CompileSelect(stmt->query->select_stmt, &compiled, &error))
    return Fail(error);
  if (stmt->n_aliases > compiled.columns.size())
    return Fail(
        Err("42601", "CREATE VIEW specifies more column names than columns"));
  catalog::View view;
  view.schema = schema;
  view.name = name;
  view.owner = session_->user_;
  for (size_t i = 0; i < compiled.columns.size(); i++) {
    catalog::ViewColumn col;
    col.name =
        i < stmt->n_aliases ? Str(stmt->aliases[i]) : compiled.columns[i].name;
    col.type = compiled.columns[i].type_oid;
    col.typmod = compiled.columns[i].type_modifier;
    // PostgreSQL 15 resolves an unknown-typed output column as text.
    if (col.type == oid::kUnknown) col.type = oid::kText;
    for (const auto& other : view.columns) {
      if (other.name == col.name)
        return Fail(Err(
            "42701", "column \"" + col.name + "\" specified more than once"));
    }
    view.columns.push_back(col);
  }
  if (existing) {
    // CREATE OR REPLACE keeps the old columns, in order, with their types;
    // it may only add columns at the end.
    if (view.columns.size() < existing->columns.size())
      return Fail(Err("42P16", "cannot drop columns from view"));
    for (size_t i = 0; i < existing->columns.size(); i++) {
      const auto& was = existing->columns[i];
      const auto& now = view.columns[i];
      if (was.name != now.name) {
        PgError e = Err("42P16", "cannot change name of view column \"" +
                                     was.name + "\" to \"" + now.name + "\"");
        e.hint =
            "Use ALTER VIEW ... RENAME COLUMN ... to change name of view "
            "column instead.";
        return Fail(e);
      }
      if (was.type != now.type || was.typmod != now.typmod)
        return Fail(Err(
            "42P16", "cannot change data type of view column \"" + was.name +
                         "\" from " +
                         types::FormatTypeName(was.type, was.typmod) + " to " +
                         types::FormatTypeName(now.type, now.typmod)));
    }
    view.oid = existing->oid;
    view.owner = existing->owner;
    view.comment = existing->comment;
  }
  view.uses = ViewUses(stmt->query, cat(),
                       [&](const char* schemaname, const std::string& name) {
                         return session_->LookupSchema(schemaname, name);
                       });
  for (const auto& [table_oid, key] : grouping_keys) {
    for (auto& use : view.uses) {
      const catalog::Table* t = cat().FindTable(use.schema, use.name);
      if (t && t->oid == table_oid &&
          std::find(use.constraints.begin(), use.constraints.end(), key) ==
              use.constraints.end())
        use.constraints.push_back(key);
    }
  }
  view.query = DeparseSelect(stmt->query);
  if (view.query.empty())
    return Fail(Err("XX000", "could not deparse the view's query"));
  docstore::Status s = session_->EnsureWriteTransaction();
  if (s.ok() && !existing)
    s = catalog::Catalog::AllocateOid(storage(), db(), &view.oid);
  if (s.ok()) s = catalog::Catalog::PutView(storage(), db(), view);
  if (!Store(s, &error)) return Fail(error);
  return Tag("CREATE VIEW");
}

// ---- COMMENT ON ------------------------------------------------------------

ExecuteResult SessionImpl::RunComment(const PgQuery__CommentStmt* stmt) {
  AlterRunner runner(this, nullptr);
  return runner.Comment(stmt);
}

ExecuteResult AlterRunner::Comment(const PgQuery__CommentStmt* stmt) {
  PgError error;
  if (!session_->CheckWritable("COMMENT", &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  std::string kind;
  switch (stmt->objtype) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      kind = "table";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN:
      kind = "column";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      kind = "sequence";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
      kind = "view";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
      kind = "index";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
      return session_->RunCommentOnSchema(stmt);
    default: {
      PgQuery__Node node = PG_QUERY__NODE__INIT;
      node.node_case = PG_QUERY__NODE__NODE_COMMENT_STMT;
      node.comment_stmt = const_cast<PgQuery__CommentStmt*>(stmt);
      return Fail(Err("0A000",
                      "COMMENT ON this kind of object is not supported yet "
                      "(tables, columns, sequences, views, indexes and "
                      "schemas are): " +
                          UnsupportedObjectName(&node)));
    }
  }
  std::vector<std::string> names = NameList(stmt->object);
  std::string column;
  if (kind == "column") {
    if (names.size() < 2)
      return Fail(Err("42601", "column name must be qualified"));
    column = names.back();
    names.pop_back();
  }
  std::string schema = session_->LookupSchema(
      names.size() >= 2 ? names[names.size() - 2].c_str() : nullptr,
      names.back());
  std::string name = names.back();
  std::string comment = stmt->comment ? stmt->comment : "";
  const catalog::Table* table = cat().FindTable(schema, name);
  const catalog::Sequence* seq = cat().FindSequence(schema, name);
  const catalog::View* view = cat().FindView(schema, name);
  const catalog::Index* index = nullptr;
  const catalog::Table* index_table =
      cat().FindIndexTable(schema, name, &index);
  if (!table && !seq && !view && !index_table) {
    if (names.size() >= 2 && !cat().FindSchema(schema))
      return Fail(Err("3F000", "schema \"" + schema + "\" does not exist"));
    return Fail(Err("42P01", "relation \"" + name + "\" does not exist"));
  }
  docstore::Status s = session_->EnsureWriteTransaction();
  if (!Store(s, &error)) return Fail(error);
  if (kind == "column") {
    if (view)
      return Fail(
          Err("0A000", "COMMENT ON COLUMN of a view is not supported yet"));
    if (!table)
      return Fail(
          Err("42809", "cannot set comment on relation \"" + name + "\""));
    if (!table->FindColumn(column))
      return Fail(Err("42703", "column \"" + column + "\" of relation \"" +
                                   name + "\" does not exist"));
    catalog::Table copy = *table;
    if (comment.empty())
      copy.column_comments.erase(column);
    else
      copy.column_comments[column] = comment;
    s = catalog::Catalog::PutTable(storage(), db(), copy);
  } else if (kind == "table" && table) {
    catalog::Table copy = *table;
    copy.comment = comment;
    s = catalog::Catalog::PutTable(storage(), db(), copy);
  } else if (kind == "sequence" && seq) {
    catalog::Sequence copy = *seq;
    copy.comment = comment;
    s = catalog::Catalog::PutSequence(storage(), db(), copy);
  } else if (kind == "view" && view) {
    catalog::View copy = *view;
    copy.comment = comment;
    s = catalog::Catalog::PutView(storage(), db(), copy);
  } else if (kind == "index" && index_table) {
    catalog::Table copy = *index_table;
    for (auto& x : copy.indexes)
      if (x.name == name) x.comment = comment;
    s = catalog::Catalog::PutTable(storage(), db(), copy);
  } else {
    return Fail(Err("42809", "\"" + name + "\" is not a" +
                                 (kind == "index" ? "n " : " ") + kind));
  }
  if (!Store(s, &error)) return Fail(error);
  return Tag("COMMENT");
}

// ---- ALTER ... RENAME
// ---------------------------------------------------------

ExecuteResult SessionImpl::RunRenameObject(const PgQuery__RenameStmt* stmt,
                                           ResultSink* sink) {
  AlterRunner runner(this, sink);
  return runner.Rename(stmt);
}

ExecuteResult AlterRunner::Rename(const PgQuery__RenameStmt* stmt) {
  switch (stmt->rename_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
      return RenameRelation(stmt);
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN:
      return RenameColumn(stmt);
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT:
      return RenameConstraint(stmt);
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
      return Fail(Err("0A000", "ALTER SCHEMA ... RENAME is not supported yet"));
    case PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE:
      return Fail(
          Err("0A000", "ALTER DATABASE ... RENAME is not supported yet"));
    default:
      return Fail(Err("0A000",
                      "ALTER ... RENAME of this kind of object is not "
                      "supported yet"));
  }
}

ExecuteResult AlterRunner::RenameRelation(const PgQuery__RenameStmt* stmt) {
  PgError error;
  std::string kind =
      stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE      ? "table"
      : stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE ? "sequence"
      : stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW     ? "view"
                                                                    : "index";
  std::string upper = kind;
  for (auto& ch : upper) ch = static_cast<char>(std::toupper(ch));
  std::string tag = "ALTER " + upper;
  if (!session_->CheckWritable(tag.c_str(), &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  if (!Store(session_->EnsureWriteTransaction(), &error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->relation;
  std::string schema = session_->LookupSchema(rv->schemaname, rv->relname);
  std::string name = rv->relname;
  std::string new_name = stmt->newname;
  if (schema == "admin")
    return Fail(Err("0A000", "renaming admin collections is not supported"));
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
  if ((kind == "sequence" && !seq) || (kind == "view" && !view) ||
      (kind == "index" && !index_table))
    return Fail(Err("42809", "\"" + name + "\" is not a" +
                                 (kind == "index" ? "n " : " ") + kind));
  if (cat().RelationExists(schema, new_name))
    return Fail(Err("42P07", "relation \"" + new_name + "\" already exists"));
  docstore::Status s;
  if (table) {
    table_ = *table;
    if (!MoveTable(schema, new_name, &error)) return Fail(error);
  } else if (seq) {
    if (!MoveSequence(catalog::Sequence(*seq), schema, new_name, &error))
      return Fail(error);
  } else if (view) {
    if (!MoveView(catalog::View(*view), schema, new_name, &error))
      return Fail(error);
  } else {
    table_ = *index_table;
    if (!RenameStorageIndex(table_.collection, name, new_name, &error))
      return Fail(error);
    for (auto& x : table_.indexes) {
      if (x.name != name) continue;
      x.name = new_name;
      // A constraint's index carries the constraint's name.
      if (!x.constraint.empty()) {
        for (auto& c : table_.constraints)
          if (c.name == x.constraint) c.name = new_name;
        x.constraint = new_name;
      }
    }
    s = catalog::Catalog::PutTable(storage(), db(), table_);
  }
  if (!Store(s, &error)) return Fail(error);
  return Tag(tag);
}

ExecuteResult AlterRunner::RenameColumn(const PgQuery__RenameStmt* stmt) {
  PgError error;
  bool of_view = stmt->relation_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW;
  std::string tag = of_view ? "ALTER VIEW" : "ALTER TABLE";
  if (!session_->CheckWritable(tag.c_str(), &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  if (!Store(session_->EnsureWriteTransaction(), &error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->relation;
  std::string schema = session_->LookupSchema(rv->schemaname, rv->relname);
  std::string name = rv->relname;
  std::string from = stmt->subname, to = stmt->newname;
  const catalog::Table* table = cat().FindTable(schema, name);
  const catalog::View* view = cat().FindView(schema, name);
  if (!table && !view) {
    if (stmt->missing_ok) {
      Notice("00000", "relation \"" + name + "\" does not exist, skipping");
      return Tag(tag);
    }
    if (cat().RelationExists(schema, name))
      return Fail(Err("42809", "\"" + name +
                                   "\" is not a table, view, "
                                   "materialized view, composite "
                                   "type, index, or foreign table"));
    return Fail(Err("42P01", "relation \"" + name + "\" does not exist"));
  }
  if (of_view && !view) {
    PgError e = Err("42809", "\"" + name + "\" is not a view");
    e.hint = "Use ALTER TABLE instead.";
    return Fail(e);
  }
  if (view) {
    catalog::View copy = *view;
    int index = -1;
    for (size_t i = 0; i < copy.columns.size(); i++) {
      if (copy.columns[i].name == from) index = static_cast<int>(i);
      if (copy.columns[i].name == to)
        return Fail(Err("42701", "column \"" + to + "\" of relation \"" + name +
                                     "\" already exists"));
    }
    if (index < 0)
      return Fail(Err("42703", "column \"" + from + "\" does not exist"));
    copy.columns[index].name = to;
    if (!Store(catalog::Catalog::PutView(storage(), db(), copy), &error))
      return Fail(error);
    for (const auto& [k, v] : cat().views()) {
      catalog::View reader = v;
      if (RenameViewUseColumn(&reader, schema, name, from, to) &&
          !Store(catalog::Catalog::PutView(storage(), db(), reader), &error))
        return Fail(error);
    }
    return Tag(tag);
  }
  table_ = *table;
  int index = table_.ColumnIndex(from);
  if (index < 0)
    return Fail(Err("42703", "column \"" + from + "\" does not exist"));
  if (expr_detail::IsSystemColumnName(to))
    return Fail(SystemColumnNameError(to));
  if (table_.FindColumn(to))
    return Fail(Err("42701", "column \"" + to + "\" of relation \"" + name +
                                 "\" already exists"));
  catalog::Column& col = table_.columns[index];
  std::string old_counter = col.counter;
  // 1. The field stops being autoincrement while it moves.
  if (!old_counter.empty() &&
      !Store(storage()->RemoveAutoincrement(db(), table_.collection, from),
             &error))
    return Fail(error);
  // 2. Indexes on the field are rebuilt over the new name, after the
  // documents move (an index over a missing field would see nulls).
  std::vector<docstore::IndexSpec> specs, rebuild;
  if (!Store(storage()->ListIndexes(db(), table_.collection, &specs), &error))
    return Fail(error);
  for (const auto& spec : specs) {
    bool uses = false;
    for (const auto& [field, dir] : spec.keys) uses |= field == from;
    if (!uses) continue;
    if (!Store(storage()->DropIndex(db(), table_.collection, spec.name),
               &error))
      return Fail(error);
    bool in_catalog = false;
    for (const auto& x : table_.indexes) in_catalog |= x.name == spec.name;
    // The index the docstore gave an autoincrement field comes back by
    // itself when the field is declared again.
    if (!in_catalog && !old_counter.empty()) continue;
    docstore::IndexSpec moved = spec;
    for (auto& [field, dir] : moved.keys)
      if (field == from) field = to;
    rebuild.push_back(moved);
  }
  // Expression indexes over the column are built again under its new name.
  std::vector<std::string> expression_indexes;
  if (!DropExpressionIndexesUsing(from, &expression_indexes, &error))
    return Fail(error);
  std::vector<StoredRow> rows;
  if (!ReadRows(table_, &rows, &error)) return Fail(error);
  for (const auto& row : rows) {
    bson_t old_doc;
    if (!bson_init_static(&old_doc,
                          reinterpret_cast<const uint8_t*>(row.doc.data()),
                          row.doc.size()))
      continue;
    bson_t* doc = bson_new();
    bson_iter_t it;
    bson_iter_init(&it, &old_doc);
    while (bson_iter_next(&it)) {
      const char* key = bson_iter_key(&it);
      if (from == key)
        bson_append_iter(doc, to.c_str(), -1, &it);
      else if (to != key)
        bson_append_iter(doc, key, -1, &it);
    }
    bool ok = WriteDocument(table_, row.rid, doc, &error);
    bson_destroy(doc);
    if (!ok) return Fail(error);
  }
  for (const auto& spec : rebuild)
    if (!Store(storage()->CreateIndex(db(), table_.collection, spec), &error))
      return Fail(error);
  // Views that read the column keep knowing it, by its new name.
  for (const auto& [k, v] : cat().views()) {
    catalog::View reader = v;
    reader.query = RenameQueryColumn(v, cat(), schema, name, from, to);
    bool uses = RenameViewUseColumn(&reader, schema, name, from, to);
    if ((uses || reader.query != v.query) &&
        !Store(catalog::Catalog::PutView(storage(), db(), reader), &error))
      return Fail(error);
  }
  // 3. The counter row follows the field (its _id names it).
  std::string self = schema + "." + name;
  if (!old_counter.empty()) {
    std::string id =
        catalog::Catalog::ColumnCounterId(db(), table_.collection, to);
    if (!Store(storage()->RenameCounter(old_counter, id,
                                        db() + "." + table_.collection, to),
               &error) ||
        !Store(storage()->AddAutoincrement(db(), table_.collection, to, {},
                                           /*keep_counter_row=*/true),
               &error))
      return Fail(error);
    col.counter = id;
    for (const auto& [k, q] : cat().sequences()) {
      if (q.counter != old_counter) continue;
      catalog::Sequence copy = q;
      copy.counter = id;
      if (!Store(catalog::Catalog::PutSequence(storage(), db(), copy), &error))
        return Fail(error);
    }
  }
  for (const auto& [k, q] : cat().sequences()) {
    if (q.owned_table != self || q.owned_column != from) continue;
    catalog::Sequence copy = q;
    if (copy.counter == old_counter) copy.counter = col.counter;
    copy.owned_column = to;
    if (!Store(catalog::Catalog::PutSequence(storage(), db(), copy), &error))
      return Fail(error);
  }
  // 4. Everything in the catalog that names the column.
  col.name = to;
  for (auto& other : table_.columns)
    if (!other.generated_expr.empty())
      other.generated_expr =
          RenameExpressionColumn(other.generated_expr, from, to);
  for (auto& c : table_.constraints) {
    for (auto& x : c.columns)
      if (x == from) x = to;
    if (c.kind == 'c')
      c.check_expr = RenameExpressionColumn(c.check_expr, from, to);
    if (c.kind == 'f' && c.ref_table == self)
      for (auto& x : c.ref_columns)
        if (x == from) x = to;
  }
  for (auto& x : table_.indexes) {
    for (auto& c : x.columns)
      if (c == from) c = to;
    for (auto& text : x.expressions)
      if (!text.empty()) text = RenameExpressionColumn(text, from, to);
    if (!x.predicate.empty())
      x.predicate = RenameExpressionColumn(x.predicate, from, to);
  }
  if (!CreateExpressionIndexes(expression_indexes, &error)) return Fail(error);
  auto comment = table_.column_comments.find(from);
  if (comment != table_.column_comments.end()) {
    table_.column_comments[to] = comment->second;
    table_.column_comments.erase(from);
  }
  for (const auto& [k, t] : cat().tables()) {
    if (t.schema + "." + t.name == self) continue;
    bool changed = false;
    catalog::Table copy = t;
    for (auto& c : copy.constraints) {
      if (c.kind != 'f' || c.ref_table != self) continue;
      for (auto& x : c.ref_columns) {
        if (x == from) {
          x = to;
          changed = true;
        }
      }
    }
    if (changed &&
        !Store(catalog::Catalog::PutTable(storage(), db(), copy), &error))
      return Fail(error);
  }
  if (!SaveTable(&error)) return Fail(error);
  if (!DropRedundantFieldIndexes(&error)) return Fail(error);
  return Tag(tag);
}

ExecuteResult AlterRunner::RenameConstraint(const PgQuery__RenameStmt* stmt) {
  PgError error;
  if (!session_->CheckWritable("ALTER TABLE", &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  if (!Store(session_->EnsureWriteTransaction(), &error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->relation;
  std::string schema = session_->LookupSchema(rv->schemaname, rv->relname);
  std::string name = rv->relname;
  std::string from = stmt->subname, to = stmt->newname;
  const catalog::Table* table = cat().FindTable(schema, name);
  if (!table) {
    if (stmt->missing_ok) {
      Notice("00000", "relation \"" + name + "\" does not exist, skipping");
      return Tag("ALTER TABLE");
    }
    return Fail(Err("42P01", "relation \"" + name + "\" does not exist"));
  }
  table_ = *table;
  catalog::Constraint* c = nullptr;
  for (auto& x : table_.constraints)
    if (x.name == from) c = &x;
  if (!c)
    return Fail(Err("42704", "constraint \"" + from + "\" for table \"" + name +
                                 "\" does not exist"));
  if ((c->kind == 'p' || c->kind == 'u') && cat().RelationExists(schema, to))
    return Fail(Err("42P07", "relation \"" + to + "\" already exists"));
  for (const auto& x : table_.constraints)
    if (x.name == to)
      return Fail(Err("42710", "constraint \"" + to + "\" for relation \"" +
                                   name + "\" already exists"));
  if (c->kind == 'p' || c->kind == 'u') {
    if (!RenameStorageIndex(table_.collection, from, to, &error))
      return Fail(error);
    for (auto& x : table_.indexes) {
      if (x.constraint != from) continue;
      x.constraint = to;
      x.name = to;
    }
  }
  c->name = to;
  if (!SaveTable(&error)) return Fail(error);
  return Tag("ALTER TABLE");
}

}  // namespace kova::planner
