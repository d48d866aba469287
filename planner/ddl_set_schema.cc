// ALTER TABLE / VIEW / SEQUENCE ... SET SCHEMA, and the moves of relations
// it shares with ALTER ... RENAME. A table is a docstore collection named
// after its schema and name, so moving it renames the collection (its
// counter rows, and so their last, go along); its owned sequences move with
// it, as in PostgreSQL. Everything that names a moved relation by text
// (foreign keys, OWNED BY, nextval defaults, view queries, grants) is
// rewritten, since Kova keeps names where PostgreSQL keeps OIDs.
#include <pg_query.h>

#include <map>
#include <string>
#include <vector>

#include "planner/ddl_alter_internal.h"
#include "planner/session_util.h"
#include "planner/system_catalog.h"
#include "planner/system_catalog_internal.h"

namespace kova::planner {

using namespace alter_detail;  // NOLINT: the helpers of ALTER TABLE

namespace {

// PostgreSQL's isAnyTempNamespace, for the names Kova gives them.
bool IsTempSchema(const std::string& schema) {
  return schema == "pg_temp" || schema.rfind("pg_temp_", 0) == 0;
}

// The sequence name inside a stored default's nextval('...'), as written
// (quotes doubled); empty when there is none. *begin: where it starts.
std::string NextvalLiteral(const std::string& default_expr, size_t* begin) {
  size_t open = default_expr.find("nextval('");
  if (open == std::string::npos) return "";
  size_t start = open + 9;
  size_t end = start;
  while (end < default_expr.size()) {
    if (default_expr[end] == '\'' && end + 1 < default_expr.size() &&
        default_expr[end + 1] == '\'') {
      end += 2;
      continue;
    }
    if (default_expr[end] == '\'') break;
    end++;
  }
  if (end >= default_expr.size()) return "";
  *begin = start;
  return default_expr.substr(start, end - start);
}

// Whether a default's nextval literal names `seq`, read as \d reads it:
// a name without schema is looked up in the table's schema, then public.
bool LiteralNamesSequence(const std::string& literal,
                          const catalog::Catalog& cat,
                          const catalog::Table& table,
                          const catalog::Sequence& seq) {
  std::string unquoted;
  for (size_t i = 0; i < literal.size(); i++) {
    unquoted += literal[i];
    if (literal[i] == '\'' && i + 1 < literal.size() && literal[i + 1] == '\'')
      i++;
  }
  std::vector<std::string> parts;
  if (!system_catalog::SplitName(unquoted, &parts) || parts.empty() ||
      parts.size() > 2)
    return false;
  if (parts.back() != seq.name) return false;
  if (parts.size() == 2) return parts[0] == seq.schema;
  if (seq.schema == table.schema) return true;
  return seq.schema == "public" && !cat.FindSequence(table.schema, seq.name);
}

// A view's query with relation `schema.name` moved to `new_schema.new_name`.
// A reference that names the schema is moved when it names `schema`. One
// that does not is moved when the view reads the relation from `schema`
// and nothing of that name from another schema (for public, unless it
// only reads another schema's), and no WITH item has that name. It stays
// unqualified when the relation lands in public and is qualified
// elsewhere, since Kova looks a view's names up when the view runs.
std::string MoveQueryRelation(const catalog::View& view,
                              const std::string& schema,
                              const std::string& name,
                              const std::string& new_schema,
                              const std::string& new_name) {
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse(view.query, &tree, &syntax) || tree->size() != 1)
    return view.query;
  PgQuery__Node* root = tree->statement(0).stmt;
  bool read_here = false, read_elsewhere = false;
  for (const auto& use : view.uses) {
    if (use.name != name) continue;
    (use.schema == schema ? read_here : read_elsewhere) = true;
  }
  bool hidden_by_cte = false;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(root), [&](PgQuery__Node* n) {
        if (n->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR &&
            name == n->common_table_expr->ctename)
          hidden_by_cte = true;
      });
  bool unqualified_is_it;
  if (hidden_by_cte)
    unqualified_is_it = false;
  else if (read_here)
    unqualified_is_it = !read_elsewhere || schema == "public";
  else  // uses that do not say: Kova's old convention, public
    unqualified_is_it = schema == "public" && !read_elsewhere;
  struct Saved {
    PgQuery__RangeVar* rv;
    char* schemaname;
    char* relname;
  };
  std::vector<Saved> saved;
  std::string schema_text = new_schema, name_text = new_name;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(root), [&](PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) return;
        PgQuery__RangeVar* rv = n->range_var;
        if (name != rv->relname) return;
        bool qualified = rv->schemaname && *rv->schemaname;
        if (qualified ? schema != rv->schemaname : !unqualified_is_it) return;
        saved.push_back({rv, rv->schemaname, rv->relname});
        rv->relname = name_text.data();
        if (qualified || new_schema != "public")
          rv->schemaname = schema_text.data();
      });
  if (saved.empty()) return view.query;
  std::string out = DeparseSelect(root);
  for (const auto& s : saved) {
    s.rv->schemaname = s.schemaname;
    s.rv->relname = s.relname;
  }
  return out.empty() ? view.query : out;
}

}  // namespace

// ---- the moves --------------------------------------------------------------

bool AlterRunner::MoveTable(const std::string& new_schema,
                            const std::string& new_name, PgError* error) {
  const std::string old_schema = table_.schema, old_name = table_.name;
  const std::string old_self = old_schema + "." + old_name;
  const std::string new_self = new_schema + "." + new_name;
  std::string new_collection =
      catalog::Catalog::CollectionName(new_schema, new_name);
  if (!Store(
          storage()->RenameCollection(db(), table_.collection, new_collection),
          error))
    return false;
  if (!Store(catalog::Catalog::Remove(storage(), db(), "table", old_schema,
                                      old_name),
             error))
    return false;
  catalog::Table moved = table_;
  moved.schema = new_schema;
  moved.name = new_name;
  moved.collection = new_collection;
  // The counter rows moved with the collection; their _id names it.
  std::map<std::string, std::string> counters;  // old counter id -> new
  for (auto& col : moved.columns) {
    if (col.counter.empty()) continue;
    std::string id =
        catalog::Catalog::ColumnCounterId(db(), new_collection, col.name);
    counters[col.counter] = id;
    col.counter = id;
  }
  for (auto& c : moved.constraints)
    if (c.kind == 'f' && c.ref_table == old_self) c.ref_table = new_self;
  for (const auto& [k, q] : cat().sequences()) {
    bool changed = false;
    catalog::Sequence copy = q;
    if (counters.count(q.counter)) {
      copy.counter = counters[q.counter];
      changed = true;
    }
    if (q.owned_table == old_self) {
      copy.owned_table = new_self;
      changed = true;
    }
    if (changed &&
        !Store(catalog::Catalog::PutSequence(storage(), db(), copy), error))
      return false;
  }
  for (const auto& [k, t] : cat().tables()) {
    if (t.schema == old_schema && t.name == old_name) continue;
    bool changed = false;
    catalog::Table copy = t;
    for (auto& c : copy.constraints) {
      if (c.kind == 'f' && c.ref_table == old_self) {
        c.ref_table = new_self;
        changed = true;
      }
    }
    if (changed &&
        !Store(catalog::Catalog::PutTable(storage(), db(), copy), error))
      return false;
  }
  if (!MoveViewReaders(old_schema, old_name, new_schema, new_name, error) ||
      !MoveGrants("table", old_schema, old_name, new_schema, new_name, error))
    return false;
  if (!Store(catalog::Catalog::PutTable(storage(), db(), moved), error))
    return false;
  table_ = moved;
  return session_->LoadCatalog(error);
}

bool AlterRunner::MoveSequence(catalog::Sequence seq,
                               const std::string& new_schema,
                               const std::string& new_name, PgError* error) {
  const catalog::Sequence old = seq;
  const std::string old_self = old.schema + "." + old.name;
  seq.schema = new_schema;
  seq.name = new_name;
  // A sequence no column draws from has a counter row named after it.
  std::string standalone =
      catalog::Catalog::SequenceCounterId(db(), old.schema, old.name);
  if (seq.counter == standalone) {
    seq.counter =
        catalog::Catalog::SequenceCounterId(db(), new_schema, new_name);
    if (!Store(storage()->RenameCounter(standalone, seq.counter, "", ""),
               error))
      return false;
  }
  if (!Store(catalog::Catalog::Remove(storage(), db(), "sequence", old.schema,
                                      old.name),
             error) ||
      !Store(catalog::Catalog::PutSequence(storage(), db(), seq), error))
    return false;
  // The columns it feeds, and the defaults naming it, as \d shows them.
  std::string shown = NextvalText(seq);  // nextval('...'::regclass)
  std::string literal = shown.substr(9, shown.size() - 9 - 12);
  for (const auto& [k, t] : cat().tables()) {
    bool changed = false;
    catalog::Table copy = t;
    for (auto& col : copy.columns) {
      if (col.sequence == old_self) {
        col.sequence = new_schema + "." + new_name;
        changed = true;
      }
      size_t begin = 0;
      std::string written = NextvalLiteral(col.default_expr, &begin);
      if (!written.empty() && LiteralNamesSequence(written, cat(), t, old)) {
        col.default_expr.replace(begin, written.size(), literal);
        changed = true;
      }
    }
    if (changed &&
        !Store(catalog::Catalog::PutTable(storage(), db(), copy), error))
      return false;
  }
  if (!MoveGrants("sequence", old.schema, old.name, new_schema, new_name,
                  error))
    return false;
  return session_->LoadCatalog(error);
}

bool AlterRunner::MoveView(catalog::View view, const std::string& new_schema,
                           const std::string& new_name, PgError* error) {
  const std::string schema = view.schema, name = view.name;
  view.schema = new_schema;
  view.name = new_name;
  if (!Store(catalog::Catalog::Remove(storage(), db(), "view", schema, name),
             error) ||
      !Store(catalog::Catalog::PutView(storage(), db(), view), error) ||
      !MoveViewReaders(schema, name, new_schema, new_name, error) ||
      !MoveGrants("table", schema, name, new_schema, new_name, error))
    return false;
  return session_->LoadCatalog(error);
}

bool AlterRunner::MoveViewReaders(const std::string& schema,
                                  const std::string& name,
                                  const std::string& new_schema,
                                  const std::string& new_name, PgError* error) {
  for (const auto& [k, v] : cat().views()) {
    // The catalog read before the move still lists a moved view itself.
    if (v.schema == schema && v.name == name) continue;
    catalog::View copy = v;
    bool uses = MoveViewUse(&copy, schema, name, new_schema, new_name);
    copy.query = MoveQueryRelation(v, schema, name, new_schema, new_name);
    if (copy.query == v.query && !uses) continue;
    if (!Store(catalog::Catalog::PutView(storage(), db(), copy), error))
      return false;
  }
  return true;
}

bool AlterRunner::MoveGrants(const std::string& kind, const std::string& schema,
                             const std::string& name,
                             const std::string& new_schema,
                             const std::string& new_name, PgError* error) {
  // One document per object: "acl:<kind>:<schema>.<name>" (dump_objects.cc).
  std::string id = "acl:" + kind + ":" + schema + "." + name;
  bson_t filter = BSON_INITIALIZER;
  BSON_APPEND_UTF8(&filter, "_id", id.c_str());
  std::vector<docstore::Document> docs;
  docstore::Status s =
      storage()->Find(db(), catalog::kObjectsCollection, &filter, {}, &docs);
  int64_t deleted = 0;
  if (s.ok() && !docs.empty())
    s = storage()->Delete(db(), catalog::kObjectsCollection, &filter, 1,
                          &deleted);
  bson_destroy(&filter);
  if (!Store(s, error)) return false;
  if (docs.empty()) return true;
  std::string new_id = "acl:" + kind + ":" + new_schema + "." + new_name;
  bson_t doc = BSON_INITIALIZER;
  BSON_APPEND_UTF8(&doc, "_id", new_id.c_str());
  bson_iter_t it;
  if (bson_iter_init(&it, docs[0].bson())) {
    while (bson_iter_next(&it)) {
      std::string key = bson_iter_key(&it);
      if (key == "_id") continue;
      if (key == "schema")
        BSON_APPEND_UTF8(&doc, "schema", new_schema.c_str());
      else if (key == "name")
        BSON_APPEND_UTF8(&doc, "name", new_name.c_str());
      else
        bson_append_iter(&doc, key.c_str(), -1, &it);
    }
  }
  s = storage()->Insert(db(), catalog::kObjectsCollection, &doc);
  bson_destroy(&doc);
  return Store(s, error);
}

// ---- ALTER ... SET SCHEMA ---------------------------------------------------

bool SessionImpl::IsRelationSetSchema(const PgQuery__Node* node) {
  if (node->node_case != PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT)
    return false;
  switch (node->alter_object_schema_stmt->object_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW:
    case PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_TABLE:
      return node->alter_object_schema_stmt->relation != nullptr;
    default:
      return false;
  }
}

ExecuteResult SessionImpl::RunSetSchema(
    const PgQuery__AlterObjectSchemaStmt* stmt, ResultSink* sink) {
  AlterRunner runner(this, sink);
  return runner.SetSchema(stmt);
}

// PostgreSQL's AlterTableNamespace, its checks in its order.
ExecuteResult AlterRunner::SetSchema(
    const PgQuery__AlterObjectSchemaStmt* stmt) {
  std::string tag, kind;
  switch (stmt->object_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      tag = "ALTER TABLE";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
      tag = "ALTER VIEW";
      kind = "view";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      tag = "ALTER SEQUENCE";
      kind = "sequence";
      break;
    // Kova has neither: PostgreSQL's answers when there is none to move.
    case PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW:
      tag = "ALTER MATERIALIZED VIEW";
      kind = "materialized view";
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_TABLE:
      tag = "ALTER FOREIGN TABLE";
      kind = "foreign table";
      break;
    default:
      return Fail(Err("XX000", "not a SET SCHEMA of a relation"));
  }
  PgError error;
  if (!session_->CheckWritable(tag.c_str(), &error)) return Fail(error);
  if (!session_->LoadCatalog(&error)) return Fail(error);
  if (!Store(session_->EnsureWriteTransaction(), &error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->relation;
  bool qualified = rv->schemaname && *rv->schemaname;
  std::string schema = session_->LookupSchema(rv->schemaname, rv->relname);
  std::string name = rv->relname;
  if (schema == "admin")
    return Fail(Err("0A000",
                    "moving admin collections to another schema is "
                    "not supported"));
  if (schema == "information_schema")
    return Fail(Err("0A000",
                    "moving the relations of information_schema is "
                    "not supported"));
  const catalog::Table* table = cat().FindTable(schema, name);
  const catalog::Sequence* seq = cat().FindSequence(schema, name);
  const catalog::View* view = cat().FindView(schema, name);
  const catalog::Table* index_table = cat().FindIndexTable(schema, name);
  if (!table && !seq && !view && !index_table) {
    if ((!qualified || schema == "pg_catalog") &&
        system_catalog::IsSystemRelation(name))
      return Fail(Err(
          "42501", "permission denied: \"" + name + "\" is a system catalog"));
    if (stmt->missing_ok) {
      Notice("00000", "relation \"" + name + "\" does not exist, skipping");
      return Tag(tag);
    }
    if (qualified && !cat().FindSchema(schema))
      return Fail(Err("3F000", "schema \"" + schema + "\" does not exist"));
    return Fail(Err("42P01", "relation \"" +
                                 (qualified ? std::string(rv->schemaname) + "."
                                            : std::string()) +
                                 name + "\" does not exist"));
  }
  if (!kind.empty() && !(kind == "sequence" && seq) &&
      !(kind == "view" && view))
    return Fail(Err("42809", "\"" + name + "\" is not a " + kind));
  if (!table && !seq && !view) {
    PgError e = Err("42809", "cannot change schema of index \"" + name + "\"");
    e.hint = "Change the schema of the table instead.";
    return Fail(e);
  }
  if (seq && !seq->owned_table.empty()) {
    PgError e =
        Err("0A000", "cannot move an owned sequence into another schema");
    std::string owner = seq->owned_table.substr(seq->owned_table.find('.') + 1);
    e.detail =
        "Sequence \"" + name + "\" is linked to table \"" + owner + "\".";
    return Fail(e);
  }
  std::string new_schema = stmt->newschema;
  if (new_schema == "pg_toast")
    return Fail(
        Err("0A000", "cannot move objects into or out of TOAST schema"));
  if (new_schema == "pg_catalog" || new_schema == "information_schema" ||
      new_schema == "admin")
    return Fail(Err("0A000", "moving relations into schema \"" + new_schema +
                                 "\" is not supported"));
  if (new_schema != "pg_temp" && !cat().FindSchema(new_schema))
    return Fail(Err("3F000", "schema \"" + new_schema + "\" does not exist"));
  if (IsTempSchema(new_schema) || IsTempSchema(schema))
    return Fail(
        Err("0A000", "cannot move objects into or out of temporary schemas"));
  if (new_schema == schema) return Tag(tag);

  // Names taken in the new schema, in the order PostgreSQL moves things:
  // the relation, its row type, its indexes, its sequences.
  auto taken = [&](const std::string& relation) {
    return Err("42P07", "relation \"" + relation +
                            "\" already exists in schema \"" + new_schema +
                            "\"");
  };
  if (cat().RelationExists(new_schema, name)) return Fail(taken(name));
  if (!seq && cat().FindType(new_schema, name))
    return Fail(Err("42710", "type \"" + name +
                                 "\" already exists in schema \"" + new_schema +
                                 "\""));
  std::vector<catalog::Sequence> owned;
  if (table) {
    for (const auto& x : table->indexes)
      if (cat().RelationExists(new_schema, x.name)) return Fail(taken(x.name));
    for (const auto& [k, q] : cat().sequences())
      if (q.owned_table == schema + "." + name && q.schema != new_schema)
        owned.push_back(q);
    for (const auto& q : owned)
      if (cat().RelationExists(new_schema, q.name)) return Fail(taken(q.name));
  }

  if (table) {
    table_ = *table;
    if (!MoveTable(new_schema, name, &error)) return Fail(error);
    // As the table's move left them (OWNED BY and counter updated).
    for (const auto& q : owned) {
      const catalog::Sequence* now = cat().FindSequence(q.schema, q.name);
      if (!now)
        return Fail(Err("XX000", "owned sequence \"" + q.name +
                                     "\" vanished during the move"));
      if (!MoveSequence(catalog::Sequence(*now), new_schema, q.name, &error))
        return Fail(error);
    }
  } else if (view) {
    if (!MoveView(catalog::View(*view), new_schema, name, &error))
      return Fail(error);
  } else {
    if (!MoveSequence(catalog::Sequence(*seq), new_schema, name, &error))
      return Fail(error);
  }
  return Tag(tag);
}

}  // namespace kova::planner
