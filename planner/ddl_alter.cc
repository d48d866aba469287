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
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/types_array.h"
#include "planner/user_types.h"

namespace kova::planner {

using expr_detail::IsInteger;
using expr_detail::IsNumber;
using expr_detail::IsText;

namespace {

std::string Str(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                          : "";
}

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

// PostgreSQL's assignment casts between the types Kova stores.
bool AssignableType(uint32_t from, uint32_t to) {
  if (from == to || from == oid::kUnknown) return true;
  // Arrays: when their elements are.
  uint32_t from_element = types::ArrayElementType(from);
  uint32_t to_element = types::ArrayElementType(to);
  if (from_element && to_element)
    return AssignableType(from_element, to_element);
  if (IsNumber(from) && IsNumber(to)) return true;
  if (IsText(to)) return true;
  if (IsText(from) && IsText(to)) return true;
  auto datetime = [](uint32_t t) {
    return t == oid::kDate || t == oid::kTimestamp || t == oid::kTimestamptz;
  };
  if (datetime(from) && datetime(to)) return true;
  if ((from == oid::kJson && to == oid::kJsonb) ||
      (from == oid::kJsonb && to == oid::kJson))
    return true;
  if (from == oid::kInterval && to == oid::kTime) return true;
  if ((from == oid::kTimestamp || from == oid::kTimestamptz) &&
      to == oid::kTime)
    return true;
  return false;
}

// Whether a foreign key can compare the two column types.
bool ComparableTypes(uint32_t a, uint32_t b) {
  if (a == b) return true;
  if (IsNumber(a) && IsNumber(b)) return true;
  if (IsText(a) && IsText(b)) return true;
  return false;
}

int64_t TypeMax(uint32_t type) {
  return type == oid::kInt2   ? INT16_MAX
         : type == oid::kInt4 ? INT32_MAX
                              : INT64_MAX;
}

std::string TypeName(uint32_t type, int32_t typmod = -1) {
  return types::FormatTypeName(type, typmod);
}

// Row values as PostgreSQL prints them in a key detail.
std::string KeyText(const std::vector<std::string>& columns,
                    const std::vector<Value>& values) {
  std::string cols, vals;
  for (size_t i = 0; i < columns.size(); i++) {
    if (i) {
      cols += ", ";
      vals += ", ";
    }
    cols += columns[i];
    vals += values[i] ? *values[i] : "null";
  }
  return "(" + cols + ")=(" + vals + ")";
}

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

// Columns of one row as parameters 0..n-1 (CHECK, USING, validation).
class RowColumnsScope : public ExprScope {
 public:
  RowColumnsScope(const catalog::Table& table, const char* context)
      : table_(table), context_(context) {}
  bool ResolveColumn(const PgQuery__ColumnRef* ref, std::unique_ptr<Expr>* out,
                     PgError* error) override {
    std::vector<std::string> f;
    for (size_t i = 0; i < ref->n_fields; i++) f.push_back(Str(ref->fields[i]));
    std::string column = f.back();
    std::string qualifier = f.size() >= 2 ? f[f.size() - 2] : "";
    if (!qualifier.empty() && qualifier != table_.name) {
      *error = Err("42P01",
                   "missing FROM-clause entry for table \"" + qualifier + "\"",
                   ref->location);
      return false;
    }
    int index = table_.ColumnIndex(column);
    if (index < 0) {
      *error =
          Err("42703",
              qualifier.empty()
                  ? "column \"" + column + "\" does not exist"
                  : "column " + qualifier + "." + column + " does not exist",
              ref->location);
      return false;
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kParam;
    e->param = index;
    e->type = table_.columns[index].type;
    e->typmod = table_.columns[index].typmod;
    e->location = ref->location;
    *out = std::move(e);
    return true;
  }
  bool AggregatesAllowed(const char** context) override {
    *context = context_;
    return false;
  }
  bool AnalyzeSubLink(const PgQuery__SubLink* link, std::unique_ptr<Expr>*,
                      PgError* error) override {
    *error = Err("0A000", std::string("cannot use subquery in ") + context_,
                 link->location);
    return false;
  }

 private:
  const catalog::Table& table_;
  const char* context_;
};

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

// ---- AlterRunner: shared steps -------------------------------------------

void AlterRunner::Notice(const char* sqlstate, const std::string& message) {
  session_->Notice(sink_, "NOTICE", sqlstate, message);
}

bool AlterRunner::Store(const docstore::Status& s, PgError* error) {
  if (s.ok()) return true;
  *error = session_->TableError(s);
  return false;
}

bool AlterRunner::Reload(PgError* error) {
  if (!session_->LoadCatalog(error)) return false;
  const catalog::Table* t = cat().FindTable(table_.schema, table_.name);
  if (t) table_ = *t;
  return true;
}

bool AlterRunner::SaveTable(const catalog::Table& table, PgError* error) {
  if (!Store(catalog::Catalog::PutTable(storage(), db(), table), error))
    return false;
  return Reload(error);
}

bool AlterRunner::SaveTable(PgError* error) {
  catalog::Table copy = table_;
  return SaveTable(copy, error);
}

bool AlterRunner::ReadRows(const catalog::Table& table,
                           std::vector<StoredRow>* rows, PgError* error,
                           std::optional<int64_t> only_rid) {
  std::string sqlite_table;
  if (!Store(storage()->CollectionTable(db(), table.collection, &sqlite_table),
             error))
    return false;
  sqlite3* conn = storage()->connection();
  sqlite3_stmt* stmt = nullptr;
  std::string sql =
      "SELECT rid, doc FROM " + sqlite_table +
      (only_rid ? " WHERE rid = " + std::to_string(*only_rid) : std::string()) +
      " ORDER BY rid";
  if (sqlite3_prepare_v2(conn, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    *error = Err("XX000", sqlite3_errmsg(conn));
    return false;
  }
  const types::TypeContext& context = session_->settings_.type_context();
  int rc;
  bool ok = true;
  while (ok && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    StoredRow row;
    row.rid = sqlite3_column_int64(stmt, 0);
    row.doc.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 1)),
                   sqlite3_column_bytes(stmt, 1));
    row.values.assign(table.columns.size(), std::nullopt);
    bson_t doc;
    if (bson_init_static(&doc, reinterpret_cast<const uint8_t*>(row.doc.data()),
                         row.doc.size())) {
      bson_iter_t it;
      bson_iter_init(&it, &doc);
      while (ok && bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        if (std::strcmp(key, "_id") == 0) continue;
        int index = table.ColumnIndex(key);
        if (index < 0) continue;
        ok = FromSValue(table.columns[index].type,
                        SValueFromBson(&it, table.columns[index].type), context,
                        &row.values[index], error);
      }
    }
    rows->push_back(std::move(row));
  }
  if (ok && rc != SQLITE_DONE) {
    *error = Err("XX000", sqlite3_errmsg(conn));
    ok = false;
  }
  sqlite3_finalize(stmt);
  return ok;
}

bool AlterRunner::WriteDocument(const catalog::Table& table, int64_t rid,
                                const bson_t* doc, PgError* error) {
  return Store(storage()->ReplaceDocument(db(), table.collection, rid, doc),
               error);
}

bool AlterRunner::AnalyzeRowExpression(const catalog::Table& table,
                                       const PgQuery__Node* node,
                                       const char* context,
                                       std::unique_ptr<Expr>* out,
                                       PgError* error) {
  RowColumnsScope scope(table, context);
  Analyzer analyzer(session_, nullptr);
  analyzer.set_scope(&scope);
  return analyzer.Analyze(node, out, error);
}

std::string AlterRunner::ChooseName(const std::string& name1,
                                    const std::string& name2,
                                    const std::string& label,
                                    const std::vector<std::string>& taken) {
  for (int pass = 0;; pass++) {
    std::string suffix = label + (pass ? std::to_string(pass) : "");
    std::string a = name1, b = name2;
    size_t overhead = suffix.size() + 1 + (b.empty() ? 0 : 1);
    while (a.size() + b.size() + overhead > 63) {
      if (a.size() > b.size())
        a.pop_back();
      else
        b.pop_back();
    }
    std::string candidate = a + (b.empty() ? "" : "_" + b) + "_" + suffix;
    bool used = cat().RelationExists(table_.schema, candidate) ||
                std::find(taken.begin(), taken.end(), candidate) != taken.end();
    for (const auto& c : table_.constraints) used |= c.name == candidate;
    if (!used) return candidate;
  }
}

bool AlterRunner::RoleExists(const std::string& name) {
  RoleRecord role;
  return EngineFindRole(session_->engine_, name, &role);
}

bool AlterRunner::CreateColumnSequence(catalog::Column* col, const SeqDef& def,
                                       const std::string& schema,
                                       const std::string& name,
                                       PgError* error) {
  if (cat().RelationExists(schema, name)) {
    *error = Err("42P07", "relation \"" + name + "\" already exists");
    return false;
  }
  col->counter =
      catalog::Catalog::ColumnCounterId(db(), table_.collection, col->name);
  if (!Store(storage()->AddAutoincrement(db(), table_.collection, col->name,
                                         CounterSpecOf(def)),
             error))
    return false;
  catalog::Sequence seq;
  seq.schema = schema;
  seq.name = name;
  seq.counter = col->counter;
  seq.type = def.type;
  seq.cache = def.cache;
  seq.owned_table = table_.schema + "." + table_.name;
  seq.owned_column = col->name;
  seq.owner = table_.owner;
  col->sequence = schema + "." + name;
  if (!Store(catalog::Catalog::AllocateOid(storage(), db(), &seq.oid), error))
    return false;
  return Store(catalog::Catalog::PutSequence(storage(), db(), seq), error);
}

bool AlterRunner::LinkSequence(catalog::Column* col,
                               const catalog::Sequence& found, PgError* error) {
  catalog::Sequence seq = found;
  std::string standalone =
      catalog::Catalog::SequenceCounterId(db(), seq.schema, seq.name);
  std::string column_id =
      catalog::Catalog::ColumnCounterId(db(), table_.collection, col->name);
  if (seq.counter != standalone && seq.counter != column_id) {
    // One counter row numbers one field: a second column fed by the same
    // sequence draws from it with nextval, as in PostgreSQL, without being
    // an autoincrement field itself.
    col->default_expr = NextvalText(seq);
    return true;
  }
  if (seq.counter != column_id &&
      !Store(
          storage()->RenameCounter(seq.counter, column_id,
                                   db() + "." + table_.collection, col->name),
          error))
    return false;
  if (!Store(storage()->AddAutoincrement(db(), table_.collection, col->name, {},
                                         /*keep_counter_row=*/true),
             error))
    return false;
  seq.counter = column_id;
  col->counter = column_id;
  col->sequence = seq.schema + "." + seq.name;
  col->default_expr = NextvalText(seq);
  return Store(catalog::Catalog::PutSequence(storage(), db(), seq), error);
}

bool AlterRunner::UnlinkCounter(catalog::Column* col, bool drop_counter,
                                PgError* error) {
  if (col->counter.empty()) return true;
  if (!Store(storage()->RemoveAutoincrement(db(), table_.collection, col->name),
             error))
    return false;
  const catalog::Sequence* seq = nullptr;
  if (!col->sequence.empty()) {
    size_t dot = col->sequence.find('.');
    seq = cat().FindSequence(col->sequence.substr(0, dot),
                             col->sequence.substr(dot + 1));
  }
  if (drop_counter || !seq) {
    if (!Store(storage()->DeleteCounter(col->counter), error)) return false;
  } else {
    // The sequence lives on by itself: its row takes back its own _id.
    catalog::Sequence copy = *seq;
    copy.counter =
        catalog::Catalog::SequenceCounterId(db(), copy.schema, copy.name);
    if (!Store(storage()->RenameCounter(col->counter, copy.counter, "", ""),
               error))
      return false;
    if (!Store(catalog::Catalog::PutSequence(storage(), db(), copy), error))
      return false;
  }
  col->counter.clear();
  return true;
}

bool AlterRunner::DropRedundantFieldIndexes(PgError* error) {
  std::vector<docstore::IndexSpec> specs;
  if (!Store(storage()->ListIndexes(db(), table_.collection, &specs), error))
    return false;
  for (const auto& col : table_.columns) {
    std::vector<std::string> extra;
    bool covered = false;
    for (const auto& x : table_.indexes)
      covered |= x.columns.size() == 1 && x.columns[0] == col.name;
    for (const auto& spec : specs) {
      if (spec.name == "_id_" || spec.keys.size() != 1 ||
          spec.keys[0].first != col.name)
        continue;
      bool in_catalog = false;
      for (const auto& x : table_.indexes) in_catalog |= x.name == spec.name;
      if (!in_catalog) extra.push_back(spec.name);
    }
    if (extra.empty()) continue;
    // The index an autoincrement field was given stays while no other
    // index covers the field (DESIGN.md 3 rule 1).
    if (!col.counter.empty() && !covered) continue;
    if (!col.counter.empty() && !Store(storage()->RemoveAutoincrement(
                                           db(), table_.collection, col.name),
                                       error))
      return false;
    for (const auto& name : extra)
      if (!Store(storage()->DropIndex(db(), table_.collection, name), error))
        return false;
    if (!col.counter.empty() &&
        !Store(storage()->AddAutoincrement(db(), table_.collection, col.name,
                                           {}, /*keep_counter_row=*/true),
               error))
      return false;
  }
  return true;
}

bool AlterRunner::BuildUniqueIndex(const catalog::Constraint& c,
                                   PgError* error) {
  docstore::IndexSpec spec;
  spec.name = c.name;
  for (const auto& col : c.columns) spec.keys.emplace_back(col, 1);
  spec.unique = true;
  spec.nulls_distinct = !c.nulls_not_distinct;
  // An autoincrement field's own unique index (DESIGN.md 3 rule 1) on just
  // this column becomes the constraint's index: building a second one over
  // every row, only for the first to give way to it (as a dump's ADD
  // PRIMARY KEY after its data did), costs a full index build.
  bool adopted = false;
  const catalog::Column* column =
      c.columns.size() == 1 ? table_.FindColumn(c.columns[0]) : nullptr;
  if (column && !column->counter.empty()) {
    std::vector<docstore::IndexSpec> specs;
    if (!Store(storage()->ListIndexes(db(), table_.collection, &specs), error))
      return false;
    for (const auto& existing : specs) {
      bool in_catalog = false;
      for (const auto& x : table_.indexes)
        in_catalog |= x.name == existing.name;
      if (in_catalog || existing.keys != spec.keys || !existing.unique)
        continue;
      if (!Store(storage()->AdoptIndex(db(), table_.collection, existing.name,
                                       spec, &adopted),
                 error))
        return false;
      if (adopted) break;
    }
  }
  docstore::Status s =
      adopted ? docstore::Status::OK()
              : storage()->CreateIndex(db(), table_.collection, spec);
  if (s.ok()) {
    catalog::Index x;
    x.name = c.name;
    x.unique = true;
    x.columns = c.columns;
    x.constraint = c.name;
    if (!Store(catalog::Catalog::AllocateOid(storage(), db(), &x.oid), error))
      return false;
    table_.indexes.push_back(x);
    return true;
  }
  if (s.code() != docstore::Code::kDuplicateKey) return Store(s, error);
  *error = Err("23505", "could not create unique index \"" + c.name + "\"");
  // The first key stored twice, as PostgreSQL's index build reports it.
  std::vector<StoredRow> rows;
  PgError ignored;
  if (ReadRows(table_, &rows, &ignored)) {
    std::set<std::vector<Value>> seen;
    for (const auto& row : rows) {
      std::vector<Value> key;
      bool has_null = false;
      for (const auto& col : c.columns) {
        key.push_back(row.values[table_.ColumnIndex(col)]);
        has_null |= !key.back();
      }
      if (has_null && !c.nulls_not_distinct) continue;
      if (!seen.insert(key).second) {
        error->detail = "Key " + KeyText(c.columns, key) + " is duplicated.";
        break;
      }
    }
  }
  return false;
}

bool AlterRunner::ValidateCheck(const catalog::Constraint& c, PgError* error) {
  std::unique_ptr<sql::ParseTree> tree;
  const PgQuery__Node* node;
  ParseExpression(c.check_expr, &tree, &node);
  if (!node) {
    *error = Err("XX000", "unreadable check constraint \"" + c.name + "\"");
    return false;
  }
  std::unique_ptr<Expr> e;
  if (!AnalyzeRowExpression(table_, node, "check constraints", &e, error))
    return false;
  if (e->type == oid::kUnknown) {
    Analyzer analyzer(session_, nullptr);
    if (!analyzer.Coerce(&e, oid::kBool, -1, error)) return false;
  }
  if (e->type != oid::kBool) {
    *error = Err("42804", "argument of CHECK must be type boolean, not type " +
                              TypeName(e->type));
    return false;
  }
  std::vector<StoredRow> rows;
  if (!ReadRows(table_, &rows, error)) return false;
  for (const auto& row : rows) {
    Value v;
    if (!Evaluate(*e, row.values, session_, &v, error)) return false;
    if (v && *v == "f") {
      *error =
          Err("23514", "check constraint \"" + c.name + "\" of relation \"" +
                           table_.name + "\" is violated by some row");
      return false;
    }
  }
  return true;
}

bool AlterRunner::FindUnreferencedRow(const catalog::Constraint& c,
                                      const catalog::Table& target,
                                      bool* usable, std::optional<int64_t>* rid,
                                      PgError* error) {
  const catalog::Table& source = table_;
  *usable = false;
  if (c.columns.empty() || c.columns.size() != c.ref_columns.size())
    return true;
  std::string where, match;
  for (size_t i = 0; i < c.columns.size(); i++) {
    const catalog::Column* col = source.FindColumn(c.columns[i]);
    const catalog::Column* ref = target.FindColumn(c.ref_columns[i]);
    if (!col || !ref) return true;
    // Types of the same kind whose SQL form is the plain index key, so that
    // the probe uses the target's index; other pairs go through the decoded
    // comparison.
    uint32_t type = user_types::BaseType(col->type);
    static constexpr uint32_t kIndexKeyTypes[] = {
        oid::kInt2, oid::kInt4,      oid::kInt8,
        oid::kText, oid::kVarchar,   oid::kUuid,
        oid::kDate, oid::kTimestamp, oid::kTimestamptz};
    if (col->type != ref->type ||
        std::find(std::begin(kIndexKeyTypes), std::end(kIndexKeyTypes), type) ==
            std::end(kIndexKeyTypes))
      return true;
    std::string key = ColumnSql("s", c.columns[i], col->type);
    where += " AND " + key + " IS NOT NULL";
    match += std::string(i ? " AND " : "") +
             ColumnSql("k", c.ref_columns[i], ref->type) + " = " + key;
  }
  std::string source_table, target_table;
  if (!Store(storage()->CollectionTable(db(), source.collection, &source_table),
             error) ||
      !Store(storage()->CollectionTable(db(), target.collection, &target_table),
             error))
    return false;
  // Probes all over the target's index: with the default cache its pages
  // are read again and again.
  if (!Store(storage()->UseLargeCache(), error)) return false;
  std::string sql = "SELECT s.rid FROM " + source_table + " AS s WHERE 1" +
                    where + " AND NOT EXISTS (SELECT 1 FROM " + target_table +
                    " AS k WHERE " + match + ") ORDER BY s.rid LIMIT 1";
  sqlite3* conn = storage()->connection();
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(conn, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    *error = Err("XX000", sqlite3_errmsg(conn));
    return false;
  }
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) *rid = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    *error = Err("XX000", sqlite3_errmsg(conn));
    return false;
  }
  *usable = true;
  return true;
}

bool AlterRunner::ValidateForeignKey(const catalog::Constraint& c,
                                     const catalog::Table& target,
                                     PgError* error) {
  std::vector<StoredRow> referenced, rows;
  const catalog::Table& source = table_;
  // One anti-join over the target's key index instead of decoding both
  // tables; only the first unreferenced row (if any) is decoded, for the
  // message.
  bool usable;
  std::optional<int64_t> missing;
  if (!FindUnreferencedRow(c, target, &usable, &missing, error)) return false;
  auto violation = [&](const std::vector<Value>& shown) {
    *error = Err("23503", "insert or update on table \"" + source.name +
                              "\" violates foreign key constraint \"" + c.name +
                              "\"");
    error->detail = "Key " + KeyText(c.columns, shown) +
                    " is not present in table \"" + target.name + "\".";
    return false;
  };
  if (usable) {
    if (!missing) return true;
    if (!ReadRows(source, &rows, error, missing)) return false;
    std::vector<Value> shown;
    for (const auto& col : c.columns)
      shown.push_back(rows.empty() ? Value()
                                   : rows[0].values[source.ColumnIndex(col)]);
    return violation(shown);
  }
  if (!ReadRows(target, &referenced, error)) return false;
  if (!ReadRows(source, &rows, error)) return false;
  std::set<std::vector<std::string>> keys;
  for (const auto& row : referenced) {
    std::vector<std::string> key;
    bool has_null = false;
    for (const auto& col : c.ref_columns) {
      const Value& v = row.values[target.ColumnIndex(col)];
      has_null |= !v;
      key.push_back(v.value_or(""));
    }
    if (!has_null) keys.insert(key);
  }
  for (const auto& row : rows) {
    std::vector<std::string> key;
    std::vector<Value> shown;
    bool has_null = false;
    for (const auto& col : c.columns) {
      const Value& v = row.values[source.ColumnIndex(col)];
      has_null |= !v;
      key.push_back(v.value_or(""));
      shown.push_back(v);
    }
    // MATCH SIMPLE: a key with a null references nothing.
    if (has_null || keys.count(key)) continue;
    return violation(shown);
  }
  return true;
}

bool AlterRunner::RenameStorageIndex(const std::string& collection,
                                     const std::string& from,
                                     const std::string& to, PgError* error) {
  std::vector<docstore::IndexSpec> specs;
  if (!Store(storage()->ListIndexes(db(), collection, &specs), error))
    return false;
  for (const auto& spec : specs) {
    if (spec.name != from) continue;
    docstore::IndexSpec renamed = spec;
    renamed.name = to;
    docstore::Status s = storage()->DropIndex(db(), collection, from);
    if (s.code() == docstore::Code::kIllegalOperation &&
        spec.keys.size() == 1) {
      // The only unique index of an autoincrement field: the field gives
      // its counter up while the index is rebuilt under the new name.
      const std::string& field = spec.keys[0].first;
      s = storage()->RemoveAutoincrement(db(), collection, field);
      if (s.ok()) s = storage()->DropIndex(db(), collection, from);
      if (s.ok()) s = storage()->CreateIndex(db(), collection, renamed);
      if (s.ok())
        s = storage()->AddAutoincrement(db(), collection, field, {},
                                        /*keep_counter_row=*/true);
      return Store(s, error);
    }
    if (!Store(s, error)) return false;
    return Store(storage()->CreateIndex(db(), collection, renamed), error);
  }
  return true;
}

bool AlterRunner::RemoveConstraint(const std::string& name, bool cascade,
                                   const std::string& dependency_what,
                                   PgError* error) {
  const catalog::Constraint* found = nullptr;
  for (const auto& c : table_.constraints)
    if (c.name == name) found = &c;
  if (!found) return true;
  catalog::Constraint c = *found;
  if (c.kind == 'p' || c.kind == 'u') {
    // Foreign keys that reference these columns depend on the index.
    std::vector<std::pair<std::string, std::string>> dependents;
    std::string self = table_.schema + "." + table_.name;
    for (const auto& [k, t] : cat().tables()) {
      for (const auto& fk : t.constraints) {
        if (fk.kind != 'f' || fk.ref_table != self ||
            fk.ref_columns.size() != c.columns.size() ||
            !std::is_permutation(fk.ref_columns.begin(), fk.ref_columns.end(),
                                 c.columns.begin()))
          continue;
        dependents.emplace_back(t.schema + "." + t.name, fk.name);
      }
    }
    if (!dependents.empty() && !cascade) {
      *error =
          Err("2BP01", dependency_what + " because other objects depend on it");
      std::string detail;
      for (const auto& [t, fk] : dependents) {
        if (!detail.empty()) detail += "\n";
        detail += "constraint " + fk + " on table " +
                  t.substr(t.find('.') + 1) + " depends on index " + c.name;
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
          t == self ? table_
                    : *cat().FindTable(t.substr(0, dot), t.substr(dot + 1));
      other.constraints.erase(
          std::remove_if(
              other.constraints.begin(), other.constraints.end(),
              [&](const catalog::Constraint& x) { return x.name == fk; }),
          other.constraints.end());
      if (t == self) {
        table_ = other;
      } else if (!Store(catalog::Catalog::PutTable(storage(), db(), other),
                        error)) {
        return false;
      }
    }
    // The index goes with the constraint. The docstore keeps the only
    // unique index of an autoincrement field, so such a field gives its
    // counter up while the index is dropped and takes it back after (and
    // gets an index of its own again, DESIGN.md 3 rule 1).
    docstore::Status s = storage()->DropIndex(db(), table_.collection, c.name);
    if (s.code() == docstore::Code::kIllegalOperation &&
        c.columns.size() == 1) {
      const catalog::Column* col = table_.FindColumn(c.columns[0]);
      if (col && !col->counter.empty()) {
        s = storage()->RemoveAutoincrement(db(), table_.collection, col->name);
        if (s.ok()) s = storage()->DropIndex(db(), table_.collection, c.name);
        if (s.ok())
          s = storage()->AddAutoincrement(db(), table_.collection, col->name,
                                          {}, /*keep_counter_row=*/true);
      }
    }
    if (s.code() != docstore::Code::kIndexNotFound && !Store(s, error))
      return false;
    table_.indexes.erase(
        std::remove_if(
            table_.indexes.begin(), table_.indexes.end(),
            [&](const catalog::Index& x) { return x.constraint == c.name; }),
        table_.indexes.end());
  }
  table_.constraints.erase(
      std::remove_if(
          table_.constraints.begin(), table_.constraints.end(),
          [&](const catalog::Constraint& x) { return x.name == c.name; }),
      table_.constraints.end());
  return true;
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
    // Sequences, views and indexes: only OWNER TO applies here.
    for (size_t i = 0; i < stmt->n_cmds; i++) {
      const PgQuery__AlterTableCmd* cmd = stmt->cmds[i]->alter_table_cmd;
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

// ---- columns ----------------------------------------------------------------

bool AlterRunner::AddColumn(const PgQuery__AlterTableCmd* cmd, PgError* error) {
  const PgQuery__ColumnDef* cd = cmd->def->column_def;
  std::string cname = cd->colname;
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
  const PgQuery__Node* default_node = nullptr;
  std::string linked;  // DEFAULT nextval('...')
  const PgQuery__Constraint* identity = nullptr;
  std::vector<const PgQuery__Constraint*> constraints;
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
        if (serial || identity || default_node) {
          *error =
              Err("42601", "multiple default values specified for column \"" +
                               cname + "\" of table \"" + table_.name + "\"");
          return false;
        }
        default_node = con->raw_expr;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY:
        if (serial || default_node) {
          *error =
              Err("42601", "both default and identity specified for column \"" +
                               cname + "\" of table \"" + table_.name + "\"");
          return false;
        }
        identity = con;
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED:
        *error = Err("0A000", "generated columns are not supported yet");
        return false;
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
      } else if (!AssignableType(default_expr->type, col.type)) {
        *error =
            Err("42804",
                "column \"" + cname + "\" is of type " + TypeName(col.type) +
                    " but default expression is of type " +
                    TypeName(default_expr->type),
                default_expr->location);
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
      if (!IsInteger(col.type)) {
        *error = Err("22023",
                     "identity column type must be smallint, integer, or "
                     "bigint");
        return false;
      }
      if (!ParseSeqOptions(identity->options, identity->n_options, &options,
                           error))
        return false;
      col.identity = identity->generated_when[0] == 'a' ? 'a' : 'd';
      col.not_null = true;
    }
    seq_def.type = col.type;
    if (!options.type) options.type = col.type;
    if (!ApplySeqOptions(options, true, &seq_def, error)) return false;
    if (options.sequence_name) {
      std::string qualified = *options.sequence_name;
      size_t dot = qualified.rfind('.');
      seq_name =
          dot == std::string::npos ? qualified : qualified.substr(dot + 1);
      if (dot != std::string::npos) seq_schema = qualified.substr(0, dot);
    } else {
      seq_name = ChooseName(table_.name, cname, "seq");
    }
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
    }
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
    if (!AddConstraint(con, index, error)) return false;
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
  table_.indexes.erase(
      std::remove_if(table_.indexes.begin(), table_.indexes.end(),
                     [&](const catalog::Index& x) {
                       return std::find(x.columns.begin(), x.columns.end(),
                                        cname) != x.columns.end();
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
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
  catalog::Column& col = table_.columns[index];
  if (col.identity) {
    *error = Err("42601", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" is an identity column");
    if (!cmd->def)
      error->hint =
          "Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.";
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
  } else if (!AssignableType(e->type, col.type)) {
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
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
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
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
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
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
  const PgQuery__ColumnDef* cd = cmd->def->column_def;
  if (cd->coll_clause) {
    *error = Err("0A000", "COLLATE is not supported yet");
    return false;
  }
  catalog::Column old_col = table_.columns[index];
  catalog::Column new_col = old_col;
  int32_t typmod;
  if (!ResolveTypeName(cd->type_name, &new_col.type, &typmod, error))
    return false;
  new_col.typmod = typmod;
  if (old_col.identity && !IsInteger(new_col.type)) {
    *error = Err("22023",
                 "identity column type must be smallint, integer, or bigint");
    return false;
  }
  std::unique_ptr<Expr> using_expr;
  if (cd->raw_default) {
    if (!AnalyzeRowExpression(table_, cd->raw_default, "transform expressions",
                              &using_expr, error))
      return false;
    if (using_expr->type == oid::kUnknown) {
      Analyzer analyzer(session_, nullptr);
      if (!analyzer.Coerce(&using_expr, new_col.type, new_col.typmod, error))
        return false;
    } else if (!AssignableType(using_expr->type, new_col.type)) {
      *error = Err("42804", "result of USING clause for column \"" + cname +
                                "\" cannot be cast automatically to type " +
                                TypeName(new_col.type));
      error->hint = "You might need to add an explicit cast.";
      return false;
    }
  } else if (!AssignableType(old_col.type, new_col.type)) {
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
        !AssignableType(d->type, new_col.type)) {
      *error = Err("42804", "default for column \"" + cname +
                                "\" cannot be cast automatically to type " +
                                TypeName(new_col.type));
      return false;
    }
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
    if (!AssignValue(from, new_col, context, &v, error)) return false;
    converted.emplace_back(row.rid, v);
  }
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

bool AlterRunner::AddIdentity(const PgQuery__AlterTableCmd* cmd,
                              PgError* error) {
  std::string cname = cmd->name;
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
  catalog::Column& col = table_.columns[index];
  const PgQuery__Constraint* con = cmd->def->constraint;
  if (!IsInteger(col.type)) {
    *error = Err("22023",
                 "identity column type must be smallint, integer, or bigint");
    return false;
  }
  SeqOptions options;
  if (!ParseSeqOptions(con->options, con->n_options, &options, error))
    return false;
  SeqDef def;
  def.type = col.type;
  if (!options.type) options.type = col.type;
  if (!ApplySeqOptions(options, true, &def, error)) return false;
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
  std::string seq_schema = table_.schema, seq_name;
  if (options.sequence_name) {
    std::string qualified = *options.sequence_name;
    size_t dot = qualified.rfind('.');
    seq_name = dot == std::string::npos ? qualified : qualified.substr(dot + 1);
    if (dot != std::string::npos) seq_schema = qualified.substr(0, dot);
  } else {
    seq_name = ChooseName(table_.name, cname, "seq");
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
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
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
  int index = table_.ColumnIndex(cname);
  if (index < 0) {
    *error = Err("42703", "column \"" + cname + "\" of relation \"" +
                              table_.name + "\" does not exist");
    return false;
  }
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

// ---- constraints
// -------------------------------------------------------------

bool AlterRunner::AddConstraint(const PgQuery__Constraint* con, int column,
                                PgError* error) {
  catalog::Constraint c;
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
      if (primary) {
        for (const auto& cname : cols)
          if (!SetNotNull(cname, error)) return false;
      }
      if (!BuildUniqueIndex(c, error)) return false;
      break;
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: {
      c.kind = 'c';
      c.check_expr = sql::DeparseExpr(con->raw_expr);
      c.columns.clear();
      std::vector<std::string> refs = ExpressionColumns(c.check_expr);
      std::string first = column >= 0    ? table_.columns[column].name
                          : refs.empty() ? ""
                                         : refs[0];
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
