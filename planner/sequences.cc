// Sequences: CREATE/ALTER SEQUENCE and nextval, currval, lastval, setval,
// pg_get_serial_sequence, each a row of admin.counters (DESIGN.md 3).
#include <cstring>
#include <limits>

#include "planner/ddl.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

int64_t TypeMax(uint32_t type) {
  return type == oid::kInt2   ? INT16_MAX
         : type == oid::kInt4 ? INT32_MAX
                              : INT64_MAX;
}
int64_t TypeMin(uint32_t type) {
  return type == oid::kInt2   ? INT16_MIN
         : type == oid::kInt4 ? INT32_MIN
                              : INT64_MIN;
}

bool NumberArg(const PgQuery__DefElem* d, int64_t* out, PgError* error) {
  const PgQuery__Node* a = d->arg;
  if (a && a->node_case == PG_QUERY__NODE__NODE_INTEGER) {
    *out = a->integer->ival;
    return true;
  }
  if (a && a->node_case == PG_QUERY__NODE__NODE_FLOAT) {
    std::string s = a->float_->fval;
    char* end;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (*end || errno) {
      *error =
          Err("22003", "value \"" + s + "\" is out of range for type bigint");
      return false;
    }
    *out = v;
    return true;
  }
  *error = Err("42601", std::string(d->defname) + " requires a numeric value",
               d->location);
  return false;
}

}  // namespace

std::string QuoteIdentifier(const std::string& name) {
  return expr_detail::QuoteIdent(name);
}

std::string QuoteQualified(const std::string& schema, const std::string& name) {
  return QuoteIdentifier(schema) + "." + QuoteIdentifier(name);
}

bool ParseSeqOptions(PgQuery__Node* const* options, size_t n, SeqOptions* out,
                     PgError* error) {
  for (size_t i = 0; i < n; i++) {
    const PgQuery__DefElem* d = options[i]->def_elem;
    std::string name = d->defname;
    auto redundant = [&] {
      *error = Err("42601", "conflicting or redundant options", d->location);
      return false;
    };
    if (name == "as") {
      if (out->type) return redundant();
      uint32_t type;
      int32_t typmod;
      if (!ResolveTypeName(d->arg->type_name, &type, &typmod, error))
        return false;
      if (type != oid::kInt2 && type != oid::kInt4 && type != oid::kInt8) {
        *error =
            Err("22023", "sequence type must be smallint, integer, or bigint");
        return false;
      }
      out->type = type;
    } else if (name == "increment") {
      if (out->increment) return redundant();
      int64_t v;
      if (!NumberArg(d, &v, error)) return false;
      out->increment = v;
    } else if (name == "start") {
      if (out->start) return redundant();
      int64_t v;
      if (!NumberArg(d, &v, error)) return false;
      out->start = v;
    } else if (name == "restart") {
      if (out->restart) return redundant();
      out->restart = true;
      if (d->arg) {
        int64_t v;
        if (!NumberArg(d, &v, error)) return false;
        out->restart_value = v;
      }
    } else if (name == "minvalue" || name == "maxvalue") {
      auto& slot = name == "minvalue" ? out->min : out->max;
      if (slot) return redundant();
      if (!d->arg) {
        slot = std::optional<int64_t>();
      } else {
        int64_t v;
        if (!NumberArg(d, &v, error)) return false;
        slot = std::optional<int64_t>(v);
      }
    } else if (name == "cache") {
      if (out->cache) return redundant();
      int64_t v;
      if (!NumberArg(d, &v, error)) return false;
      out->cache = v;
    } else if (name == "cycle") {
      if (out->cycle) return redundant();
      out->cycle = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN
                       ? d->arg->boolean->boolval
                       : true;
    } else if (name == "owned_by") {
      if (out->owned_by) return redundant();
      const PgQuery__List* list = d->arg->list;
      out->owned_by = sql::JoinNames(list->items, list->n_items);
    } else if (name == "sequence_name") {
      const PgQuery__List* list = d->arg->list;
      out->sequence_name = sql::JoinNames(list->items, list->n_items);
    } else {
      *error =
          Err("42601", "option \"" + name + "\" not recognized", d->location);
      return false;
    }
  }
  return true;
}

bool ApplySeqOptions(const SeqOptions& o, bool is_new, SeqDef* def,
                     PgError* error) {
  uint32_t old_type = def->type;
  if (o.type) def->type = *o.type;
  if (o.increment) {
    if (*o.increment == 0) {
      *error = Err("22023", "INCREMENT must not be zero");
      return false;
    }
    def->increment = *o.increment;
  }
  bool asc = def->increment > 0;
  // MAXVALUE / MINVALUE: explicit, NO (default), or kept; a changed type
  // moves a bound that was the old type's limit.
  if (o.max && *o.max) {
    def->max = **o.max;
  } else if ((o.max && !*o.max) || is_new ||
             (o.type && def->max == TypeMax(old_type))) {
    def->max = asc ? TypeMax(def->type) : -1;
  }
  if (o.min && *o.min) {
    def->min = **o.min;
  } else if ((o.min && !*o.min) || is_new ||
             (o.type && def->min == TypeMin(old_type))) {
    def->min = asc ? 1 : TypeMin(def->type);
  }
  std::string tname = def->type == oid::kInt2   ? "smallint"
                      : def->type == oid::kInt4 ? "integer"
                                                : "bigint";
  if (def->max < TypeMin(def->type) || def->max > TypeMax(def->type)) {
    *error =
        Err("22023", "MAXVALUE (" + std::to_string(def->max) +
                         ") is out of range for sequence data type " + tname);
    return false;
  }
  if (def->min < TypeMin(def->type) || def->min > TypeMax(def->type)) {
    *error =
        Err("22023", "MINVALUE (" + std::to_string(def->min) +
                         ") is out of range for sequence data type " + tname);
    return false;
  }
  if (def->min >= def->max) {
    *error = Err("22023", "MINVALUE (" + std::to_string(def->min) +
                              ") must be less than MAXVALUE (" +
                              std::to_string(def->max) + ")");
    return false;
  }
  if (o.start) {
    def->start = *o.start;
  } else if (is_new) {
    def->start = asc ? def->min : def->max;
  }
  if (def->start < def->min) {
    *error = Err("22023", "START value (" + std::to_string(def->start) +
                              ") cannot be less than MINVALUE (" +
                              std::to_string(def->min) + ")");
    return false;
  }
  if (def->start > def->max) {
    *error = Err("22023", "START value (" + std::to_string(def->start) +
                              ") cannot be greater than MAXVALUE (" +
                              std::to_string(def->max) + ")");
    return false;
  }
  if (o.restart && o.restart_value) {
    if (*o.restart_value < def->min) {
      *error =
          Err("22023", "RESTART value (" + std::to_string(*o.restart_value) +
                           ") cannot be less than MINVALUE (" +
                           std::to_string(def->min) + ")");
      return false;
    }
    if (*o.restart_value > def->max) {
      *error =
          Err("22023", "RESTART value (" + std::to_string(*o.restart_value) +
                           ") cannot be greater than MAXVALUE (" +
                           std::to_string(def->max) + ")");
      return false;
    }
  }
  if (o.cache) {
    if (*o.cache <= 0) {
      *error = Err("22023", "CACHE (" + std::to_string(*o.cache) +
                                ") must be greater than zero");
      return false;
    }
    def->cache = *o.cache;
  }
  if (o.cycle) def->cycle = *o.cycle;
  return true;
}

docstore::CounterSpec CounterSpecOf(const SeqDef& def) {
  docstore::CounterSpec spec;
  spec.increment = def.increment;
  spec.start = def.start;
  spec.min_value = def.min;
  spec.max_value = def.max;
  spec.cycle = def.cycle;
  return spec;
}

SeqDef SeqDefOf(const docstore::Session::CounterInfo& info, uint32_t type) {
  SeqDef def;
  def.type = type;
  def.increment = info.increment;
  def.start = info.start;
  def.min = info.min;
  def.max = info.max;
  def.cycle = info.cycle;
  return def;
}

// ---- statements ---------------------------------------------------------

ExecuteResult SessionImpl::RunCreateSequence(const PgQuery__CreateSeqStmt* stmt,
                                             ResultSink* sink) {
  PgError error;
  if (!CheckWritable("CREATE SEQUENCE", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->sequence;
  std::string schema;
  if (!CreationSchema(rv, &schema, &error)) return Fail(error);
  std::string name = rv->relname;
  if (!catalog_->FindSchema(schema))
    return Fail(
        Err("3F000", "schema \"" + schema + "\" does not exist", rv->location));
  if (catalog_->RelationExists(schema, name)) {
    if (stmt->if_not_exists) {
      Notice(sink, "NOTICE", "42P07",
             "relation \"" + name + "\" already exists, skipping");
      return Tag("CREATE SEQUENCE");
    }
    return Fail(Err("42P07", "relation \"" + name + "\" already exists"));
  }
  SeqOptions options;
  if (!ParseSeqOptions(stmt->options, stmt->n_options, &options, &error))
    return Fail(error);
  SeqDef def;
  def.type = oid::kInt8;
  if (!ApplySeqOptions(options, true, &def, &error)) return Fail(error);
  docstore::Status s = EnsureWriteTransaction();
  catalog::Sequence seq;
  seq.schema = schema;
  seq.name = name;
  seq.type = def.type;
  seq.cache = def.cache;
  seq.owner = user_;
  seq.counter = catalog::Catalog::SequenceCounterId(database_, schema, name);
  if (s.ok())
    s = catalog::Catalog::AllocateOid(storage_.get(), database_, &seq.oid);
  int64_t last = def.start - def.increment;
  if (s.ok())
    s = storage_->WriteCounter(seq.counter, "", "", CounterSpecOf(def), last);
  if (s.ok()) s = catalog::Catalog::PutSequence(storage_.get(), database_, seq);
  if (!s.ok()) return Fail(TableError(s));
  if (options.owned_by && *options.owned_by != "none") {
    // OWNED BY table.column: recorded; the column's default links it.
    std::string target = *options.owned_by;
    size_t dot = target.rfind('.');
    if (dot == std::string::npos)
      return Fail(Err("42P16", "invalid OWNED BY option"));
    std::string tname = target.substr(0, dot);
    std::string tschema;
    if (tname.find('.') != std::string::npos) {
      tschema = tname.substr(0, tname.find('.'));
      tname = tname.substr(tname.find('.') + 1);
    } else {
      tschema = LookupSchema(nullptr, tname);
    }
    const catalog::Table* t = catalog_->FindTable(tschema, tname);
    if (!t)
      return Fail(Err("42P01", "relation \"" + tname + "\" does not exist"));
    if (!t->FindColumn(target.substr(dot + 1)))
      return Fail(Err("42703", "column \"" + target.substr(dot + 1) +
                                   "\" of relation \"" + tname +
                                   "\" does not exist"));
    seq.owned_table = tschema + "." + tname;
    seq.owned_column = target.substr(dot + 1);
    s = catalog::Catalog::PutSequence(storage_.get(), database_, seq);
    if (!s.ok()) return Fail(TableError(s));
  }
  return Tag("CREATE SEQUENCE");
}

ExecuteResult SessionImpl::RunAlterSequence(const PgQuery__AlterSeqStmt* stmt,
                                            ResultSink* sink) {
  PgError error;
  if (!CheckWritable("ALTER SEQUENCE", &error)) return Fail(error);
  if (!LoadCatalog(&error)) return Fail(error);
  const PgQuery__RangeVar* rv = stmt->sequence;
  std::string schema = LookupSchema(rv->schemaname, rv->relname);
  const catalog::Sequence* found = catalog_->FindSequence(schema, rv->relname);
  if (!found) {
    if (stmt->missing_ok) {
      Notice(sink, "NOTICE", "00000",
             "relation \"" + std::string(rv->relname) +
                 "\" does not exist, skipping");
      return Tag("ALTER SEQUENCE");
    }
    return Fail(Err("42P01", "relation \"" + std::string(rv->relname) +
                                 "\" does not exist"));
  }
  catalog::Sequence seq = *found;
  SeqOptions options;
  if (!ParseSeqOptions(stmt->options, stmt->n_options, &options, &error))
    return Fail(error);
  docstore::Status s = EnsureWriteTransaction();
  docstore::Session::CounterInfo info;
  if (s.ok()) s = storage_->ReadCounter(seq.counter, &info);
  if (!s.ok()) return Fail(TableError(s));
  SeqDef def = SeqDefOf(info, seq.type);
  def.cache = seq.cache;
  if (!ApplySeqOptions(options, false, &def, &error)) return Fail(error);
  std::optional<int64_t> last = info.last;
  if (options.restart) {
    int64_t at = options.restart_value ? *options.restart_value : def.start;
    last = at - def.increment;
  }
  s = storage_->WriteCounter(seq.counter, info.collection, info.field,
                             CounterSpecOf(def),
                             last.value_or(def.start - def.increment));
  seq.type = def.type;
  seq.cache = def.cache;
  if (options.owned_by) {
    if (*options.owned_by == "none") {
      seq.owned_table.clear();
      seq.owned_column.clear();
    } else {
      std::string target = *options.owned_by;
      size_t dot = target.rfind('.');
      std::string tname = target.substr(0, dot);
      std::string tschema;
      if (tname.find('.') != std::string::npos) {
        tschema = tname.substr(0, tname.find('.'));
        tname = tname.substr(tname.find('.') + 1);
      } else {
        tschema = LookupSchema(nullptr, tname);
      }
      if (!catalog_->FindTable(tschema, tname))
        return Fail(Err("42P01", "relation \"" + tname + "\" does not exist"));
      seq.owned_table = tschema + "." + tname;
      seq.owned_column = target.substr(dot + 1);
    }
  }
  if (s.ok()) s = catalog::Catalog::PutSequence(storage_.get(), database_, seq);
  if (!s.ok()) return Fail(TableError(s));
  return Tag("ALTER SEQUENCE");
}

// ---- functions ----------------------------------------------------------

bool SessionImpl::SnapshotPerStatement() {
  if (snapshot_rule_generation_ == settings_.generation())
    return snapshot_per_statement_;
  snapshot_per_statement_ = true;
  for (const char* setting :
       {"transaction_isolation", "default_transaction_isolation"}) {
    std::string isolation = settings_.Get(setting);
    if (isolation != "read committed" && isolation != "read uncommitted")
      snapshot_per_statement_ = false;
  }
  snapshot_rule_generation_ = settings_.generation();
  return snapshot_per_statement_;
}

bool SessionImpl::ResolveSequence(const std::string& text,
                                  const catalog::Sequence** seq,
                                  PgError* error) {
  // nextval and currval read no table: outside a storage transaction, and
  // with no catalog change begun since catalog_ was read, they need none.
  // Not where the first statement fixes the snapshot of the transaction
  // (REPEATABLE READ, SERIALIZABLE): it must begin it.
  bool current = catalog_ && !storage_->in_transaction() &&
                 storage_->CatalogStillAt(catalog_version_) &&
                 SnapshotPerStatement();
  if (!current && !LoadCatalog(error)) return false;
  auto known = resolved_sequences_.find(text);
  if (known != resolved_sequences_.end() &&
      known->second.settings_generation == settings_.generation() &&
      known->second.temp_schema_checked == temp_schema_checked_) {
    *seq = known->second.sequence;
    return true;
  }
  // A regclass literal: identifiers, quoted or folded to lower case.
  std::vector<std::string> parts;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cur += '"';
        i++;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  parts.push_back(cur);
  for (const auto& part : parts) {
    if (part.empty() || parts.size() > 3) {
      *error = Err("42602", "invalid name syntax");
      return false;
    }
  }
  std::string schema = LookupSchema(
      parts.size() >= 2 ? parts[parts.size() - 2].c_str() : nullptr,
      parts.back());
  std::string name = parts.back();
  if (parts.size() >= 2 && !catalog_->FindSchema(schema)) {
    *error = Err("3F000", "schema \"" + schema + "\" does not exist");
    return false;
  }
  *seq = catalog_->FindSequence(schema, name);
  if (*seq) {
    if (resolved_sequences_.size() >= 256) resolved_sequences_.clear();
    resolved_sequences_[text] = {*seq, settings_.generation(),
                                 temp_schema_checked_};
    return true;
  }
  if (catalog_->RelationExists(schema, name)) {
    *error = Err("42809", "\"" + name + "\" is not a sequence");
    return false;
  }
  *error = Err("42P01", "relation \"" + text + "\" does not exist");
  return false;
}

bool SessionImpl::NextValue(const catalog::Sequence& seq, int64_t* value,
                            PgError* error) {
  // No write transaction: the value usually comes from the counter's
  // in-memory lease, and a renewal commits on its own (as PostgreSQL's
  // nextval is not transactional); only the durability setting matters.
  docstore::Status s = ApplyDurability();
  if (s.ok()) s = storage_->NextCounter(seq.counter, value);
  if (!s.ok()) {
    if (s.code() == docstore::Code::kCounterExhausted) {
      docstore::Session::CounterInfo info;
      storage_->ReadCounter(seq.counter, &info);
      bool asc = info.increment > 0;
      *error =
          Err("2200H", std::string("nextval: reached ") +
                           (asc ? "maximum" : "minimum") +
                           " value of sequence \"" + seq.name + "\" (" +
                           std::to_string(asc ? info.max : info.min) + ")");
      return false;
    }
    *error = TableError(s);
    return false;
  }
  currvals_[seq.counter] = *value;
  lastval_ = *value;
  return true;
}

bool SessionImpl::CallSessionFunction(const std::string& name,
                                      const std::vector<Value>& args,
                                      Value* out, PgError* error) {
  if (expr_detail::IsSystemFunction(name))
    return CallSystemFunction(name, args, out, error);
  if (name == "pg_cancel_backend" || name == "pg_terminate_backend" ||
      name == "kova_activity_rows")
    return CallActivityFunction(name, args, out, error);
  if (name == "kova_lock_rows") {
    *out = AdvisoryLockLines();
    return true;
  }
  if (name == "txid_current" || name == "txid_current_if_assigned" ||
      name == "kova_returning_xmax" || name == "pg_current_xact_id" ||
      name == "pg_current_xact_id_if_assigned")
    return CallXidFunction(name, args, out, error);
  if (name == "pg_notify") {  // not strict: a NULL payload is empty
    if (!QueueNotify(args[0] ? *args[0] : "", args[1] ? *args[1] : "", error))
      return false;
    *out = "";
    return true;
  }
  for (const auto& a : args) {
    if (!a && name != "kova.command") {
      *out = std::nullopt;  // strict functions
      return true;
    }
  }
  if (expr_detail::IsAdvisoryLockFunction(name))
    return CallAdvisoryLockFunction(name, args, out, error);
  if (expr_detail::IsPrivilegeFunction(name))
    return CallPrivilegeFunction(name, args, out, error);
  if (name == "lastval") {
    if (!lastval_) {
      *error = Err("55000", "lastval is not yet defined in this session");
      return false;
    }
    *out = std::to_string(*lastval_);
    return true;
  }
  if (name == "pg_get_serial_sequence") {
    if (!LoadCatalog(error)) return false;
    std::string t = *args[0];
    std::string schema;
    if (t.find('.') != std::string::npos) {
      schema = t.substr(0, t.find('.'));
      t = t.substr(t.find('.') + 1);
    } else {
      schema = LookupSchema(nullptr, t);
    }
    const catalog::Table* table = catalog_->FindTable(schema, t);
    if (!table) {
      *error = Err("42P01", "relation \"" + *args[0] + "\" does not exist");
      return false;
    }
    const catalog::Column* col = table->FindColumn(*args[1]);
    if (!col) {
      *error = Err("42703", "column \"" + *args[1] + "\" of relation \"" + t +
                                "\" does not exist");
      return false;
    }
    if (col->sequence.empty()) {
      *out = std::nullopt;
      return true;
    }
    size_t dot = col->sequence.find('.');
    *out = QuoteQualified(col->sequence.substr(0, dot),
                          col->sequence.substr(dot + 1));
    return true;
  }
  if (name == "kova.command") {
    if (!args[0] || !args[1]) {
      *out = std::nullopt;
      return true;
    }
    docstore::Status s = EnsureWriteTransaction();
    if (!s.ok()) {
      *error = TableError(s);
      return false;
    }
    std::string reply = storage_->RunCommandJson(*args[0], *args[1]);
    std::string canonical;
    if (!types::InputText(oid::kJsonb, -1, reply, settings_.type_context(),
                          &canonical, error))
      return false;
    *out = canonical;
    // The command may have changed collections or counters.
    catalog_version_ = -1;
    collection_tables_.clear();
    return true;
  }
  const catalog::Sequence* seq;
  if (!ResolveSequence(*args[0], &seq, error)) return false;
  if (name == "nextval") {
    int64_t v;
    if (!NextValue(*seq, &v, error)) return false;
    *out = std::to_string(v);
    return true;
  }
  if (name == "currval") {
    auto it = currvals_.find(seq->counter);
    if (it == currvals_.end()) {
      *error = Err("55000", "currval of sequence \"" + seq->name +
                                "\" is not yet defined in this session");
      return false;
    }
    *out = std::to_string(it->second);
    return true;
  }
  if (name == "setval") {
    int64_t n = std::stoll(*args[1]);
    bool is_called = args.size() < 3 || *args[2] == "t";
    docstore::Status s = EnsureWriteTransaction();
    docstore::Session::CounterInfo info;
    if (s.ok()) s = storage_->ReadCounter(seq->counter, &info);
    if (!s.ok()) {
      *error = TableError(s);
      return false;
    }
    if (n < info.min || n > info.max) {
      *error = Err("22003", "setval: value " + std::to_string(n) +
                                " is out of bounds for sequence \"" +
                                seq->name + "\" (" + std::to_string(info.min) +
                                ".." + std::to_string(info.max) + ")");
      return false;
    }
    // setval(s, n, true): last = n; setval(s, n, false): the next value is n.
    int64_t last = is_called ? n : n - info.increment;
    s = storage_->SetCounterLast(seq->counter, last);
    if (!s.ok()) {
      *error = TableError(s);
      return false;
    }
    if (is_called) {
      currvals_[seq->counter] = n;
      lastval_ = n;
    }
    *out = std::to_string(n);
    return true;
  }
  *error = Err("42883", "function " + name + " does not exist");
  return false;
}

}  // namespace kova::planner
