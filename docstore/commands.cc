// The document command API: MongoDB-shaped commands and replies.
#include <cstring>
#include <functional>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

void AppendOk(bson_t* reply) { bson_append_double(reply, "ok", 2, 1.0); }

Document ErrorReply(const Status& s) {
  bson_t* reply = bson_new();
  bson_append_double(reply, "ok", 2, 0.0);
  bson_append_utf8(reply, "errmsg", -1, s.message().c_str(), -1);
  bson_append_int32(reply, "code", -1, s.mongo_code());
  bson_append_utf8(reply, "codeName", -1, s.code_name(), -1);
  return Document(reply);
}

// Failures of the machine rather than of one document: they end the whole
// command (and roll it back) instead of becoming a writeError.
bool IsSystemError(const Status& s) {
  switch (s.code()) {
    case Code::kIOError:
    case Code::kCorruption:
    case Code::kBusy:
    case Code::kInternal:
      return true;
    default:
      return false;
  }
}

struct WriteError {
  int index;
  Status status;
};

void AppendWriteErrors(bson_t* reply, const std::vector<WriteError>& errors) {
  if (errors.empty()) return;
  bson_t array;
  bson_append_array_begin(reply, "writeErrors", -1, &array);
  for (size_t i = 0; i < errors.size(); i++) {
    bson_t entry;
    std::string key = std::to_string(i);
    bson_append_document_begin(&array, key.c_str(), -1, &entry);
    bson_append_int32(&entry, "index", -1, errors[i].index);
    bson_append_int32(&entry, "code", -1, errors[i].status.mongo_code());
    bson_append_utf8(&entry, "codeName", -1, errors[i].status.code_name(), -1);
    bson_append_utf8(&entry, "errmsg", -1, errors[i].status.message().c_str(),
                     -1);
    bson_append_document_end(&array, &entry);
  }
  bson_append_array_end(reply, &array);
}

// Typed access to command arguments.
class Args {
 public:
  explicit Args(const bson_t* cmd) : cmd_(cmd) {}

  Status String(const char* name, std::string* out) const {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, cmd_, name) || !BSON_ITER_HOLDS_UTF8(&it)) {
      return Status::Error(Code::kTypeMismatch,
                           std::string("\"") + name + "\" must be a string");
    }
    *out = bson_iter_utf8(&it, nullptr);
    return Status::OK();
  }
  // Optional subdocument; *out stays null when absent.
  Status Doc(const char* name, bson_t* storage, const bson_t** out) const {
    *out = nullptr;
    bson_iter_t it;
    if (!bson_iter_init_find(&it, cmd_, name)) return Status::OK();
    return FromIter(&it, name, storage, out);
  }
  static Status FromIter(const bson_iter_t* it, const char* name,
                         bson_t* storage, const bson_t** out) {
    if (BSON_ITER_HOLDS_NULL(it)) return Status::OK();
    if (!BSON_ITER_HOLDS_DOCUMENT(it)) {
      return Status::Error(Code::kTypeMismatch,
                           std::string("\"") + name + "\" must be a document");
    }
    uint32_t len;
    const uint8_t* data;
    bson_iter_document(it, &len, &data);
    bson_init_static(storage, data, len);
    *out = storage;
    return Status::OK();
  }
  Status Array(const char* name, bson_iter_t* out) const {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, cmd_, name) || !BSON_ITER_HOLDS_ARRAY(&it)) {
      return Status::Error(Code::kTypeMismatch,
                           std::string("\"") + name + "\" must be an array");
    }
    bson_iter_recurse(&it, out);
    return Status::OK();
  }
  Status Int(const char* name, int64_t fallback, int64_t* out) const {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, cmd_, name)) {
      *out = fallback;
      return Status::OK();
    }
    std::optional<int64_t> v = IntegralValue(&it);
    if (!v) {
      return Status::Error(Code::kTypeMismatch,
                           std::string("\"") + name + "\" must be an integer");
    }
    *out = *v;
    return Status::OK();
  }
  bool Bool(const char* name, bool fallback) const {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, cmd_, name)) return fallback;
    return bson_iter_as_bool(&it);
  }

 private:
  const bson_t* cmd_;
};

// "id" or ["id", "ticket"] -> field names.
Status AutoincrementFields(const bson_t* cmd, CollectionOptions* options) {
  bson_iter_t it;
  if (!bson_iter_init_find(&it, cmd, "autoincrement")) return Status::OK();
  if (BSON_ITER_HOLDS_UTF8(&it)) {
    options->autoincrement.emplace_back(bson_iter_utf8(&it, nullptr),
                                        CounterSpec{});
    return Status::OK();
  }
  if (!BSON_ITER_HOLDS_ARRAY(&it)) {
    return Status::Error(Code::kTypeMismatch,
                         "autoincrement must be a field name or a list of "
                         "field names");
  }
  bson_iter_t names;
  bson_iter_recurse(&it, &names);
  while (bson_iter_next(&names)) {
    if (!BSON_ITER_HOLDS_UTF8(&names)) {
      return Status::Error(Code::kTypeMismatch,
                           "autoincrement must be a field name or a list of "
                           "field names");
    }
    options->autoincrement.emplace_back(bson_iter_utf8(&names, nullptr),
                                        CounterSpec{});
  }
  if (options->autoincrement.empty()) {
    return Status::Error(Code::kBadValue,
                         "autoincrement must name at least one field");
  }
  return Status::OK();
}

void AppendCursor(bson_t* reply, const std::string& ns,
                  const std::vector<Document>& docs) {
  bson_t cursor, batch;
  bson_append_document_begin(reply, "cursor", -1, &cursor);
  bson_append_array_begin(&cursor, "firstBatch", -1, &batch);
  for (size_t i = 0; i < docs.size(); i++) {
    std::string key = std::to_string(i);
    bson_append_document(&batch, key.c_str(), -1, docs[i].bson());
  }
  bson_append_array_end(&cursor, &batch);
  bson_append_int64(&cursor, "id", 2, 0);
  bson_append_utf8(&cursor, "ns", 2, ns.c_str(), -1);
  bson_append_document_end(reply, &cursor);
}

Document IndexDocument(const IndexSpec& spec) {
  bson_t* doc = bson_new();
  bson_append_int32(doc, "v", 1, 2);
  bson_t key;
  bson_append_document_begin(doc, "key", 3, &key);
  for (const auto& [field, dir] : spec.keys)
    bson_append_int32(&key, field.c_str(), -1, dir);
  bson_append_document_end(doc, &key);
  bson_append_utf8(doc, "name", 4, spec.name.c_str(), -1);
  if (spec.unique) bson_append_bool(doc, "unique", 6, true);
  return Document(doc);
}

}  // namespace

Document Session::RunCommand(std::string_view db_view, const bson_t* command) {
  std::string db(db_view);
  bson_iter_t first;
  if (!bson_iter_init(&first, command) || !bson_iter_next(&first)) {
    return ErrorReply(Status::Error(Code::kBadValue, "empty command"));
  }
  std::string name = bson_iter_key(&first);
  Args args(command);
  bson_t* reply = bson_new();
  Status s;
  std::string coll;
  auto need_collection = [&] { return args.String(name.c_str(), &coll); };

  if (name == "ping") {
    // nothing to do
  } else if (name == "create") {
    CollectionOptions options;
    s = need_collection();
    if (s.ok()) s = AutoincrementFields(command, &options);
    if (s.ok()) s = CreateCollection(db, coll, options);
  } else if (name == "collMod") {
    CollectionOptions options;
    s = need_collection();
    if (s.ok()) s = AutoincrementFields(command, &options);
    for (const auto& [field, spec] : options.autoincrement) {
      if (!s.ok()) break;
      s = AddAutoincrement(db, coll, field, spec);
    }
  } else if (name == "insert") {
    s = need_collection();
    bson_iter_t docs;
    if (s.ok()) s = args.Array("documents", &docs);
    bool ordered = args.Bool("ordered", true);
    int64_t inserted = 0;
    std::vector<WriteError> errors;
    if (s.ok()) {
      s = impl_->InWrite([&] {
        const CollectionMeta* meta;
        Status st = impl_->GetOrCreateCollection(db, coll, &meta);
        if (!st.ok()) return st;
        std::string ns = meta->ns;
        int index = 0;
        while (bson_iter_next(&docs)) {
          bson_t storage;
          const bson_t* doc;
          Status ds = Args::FromIter(&docs, "documents", &storage, &doc);
          if (ds.ok() && !doc) {
            ds = Status::Error(Code::kTypeMismatch,
                               "documents must be documents, not null");
          }
          if (ds.ok()) {
            // Re-looked-up each time: a counter recreation never changes
            // the catalog, but stay safe against future changes.
            st = impl_->LookupCollection(ns, &meta);
            if (!st.ok()) return st;
            ds = impl_->InsertLocked(*meta, doc, nullptr);
          }
          if (ds.ok()) {
            inserted++;
          } else {
            if (IsSystemError(ds)) return ds;
            errors.push_back({index, ds});
            if (ordered) break;
          }
          index++;
        }
        return Status::OK();
      });
    }
    if (s.ok()) {
      bson_append_int32(reply, "n", 1, static_cast<int32_t>(inserted));
      AppendWriteErrors(reply, errors);
    }
  } else if (name == "find") {
    s = need_collection();
    bson_t fs, ss, ps;
    const bson_t *filter = nullptr, *sort = nullptr, *projection = nullptr;
    FindOptions options;
    if (s.ok()) s = args.Doc("filter", &fs, &filter);
    if (s.ok()) s = args.Doc("sort", &ss, &sort);
    if (s.ok()) s = args.Doc("projection", &ps, &projection);
    if (s.ok()) s = args.Int("limit", 0, &options.limit);
    if (s.ok()) s = args.Int("skip", 0, &options.skip);
    if (options.limit < 0) options.limit = -options.limit;  // as MongoDB
    options.sort = sort;
    options.projection = projection;
    std::vector<Document> docs;
    if (s.ok()) s = Find(db, coll, filter, options, &docs);
    if (s.ok()) AppendCursor(reply, Namespace(db, coll), docs);
  } else if (name == "update") {
    s = need_collection();
    bson_iter_t updates;
    if (s.ok()) s = args.Array("updates", &updates);
    bool ordered = args.Bool("ordered", true);
    int64_t matched = 0, modified = 0;
    std::vector<WriteError> errors;
    int index = 0;
    while (s.ok() && bson_iter_next(&updates)) {
      bson_t us, qs, uss;
      const bson_t *spec, *q = nullptr, *u = nullptr;
      Status us_status = Args::FromIter(&updates, "updates", &us, &spec);
      if (us_status.ok() && spec) {
        Args spec_args(spec);
        us_status = spec_args.Doc("q", &qs, &q);
        if (us_status.ok()) us_status = spec_args.Doc("u", &uss, &u);
        if (us_status.ok() && (!q || !u)) {
          us_status = Status::Error(Code::kBadValue,
                                    "each update needs \"q\" and \"u\"");
        }
        if (us_status.ok() && spec_args.Bool("upsert", false)) {
          us_status = Status::Error(Code::kBadValue,
                                    "upsert is not supported by Kova yet");
        }
        if (us_status.ok()) {
          UpdateResult result;
          us_status =
              Update(db, coll, q, u, spec_args.Bool("multi", false), &result);
          matched += result.matched;
          modified += result.modified;
          if (!us_status.ok())
            matched -= result.matched, modified -= result.modified;
        }
      } else if (us_status.ok()) {
        us_status = Status::Error(Code::kBadValue, "updates must be documents");
      }
      if (!us_status.ok()) {
        if (IsSystemError(us_status)) {
          s = us_status;
          break;
        }
        errors.push_back({index, us_status});
        if (ordered) break;
      }
      index++;
    }
    if (s.ok()) {
      bson_append_int32(reply, "n", 1, static_cast<int32_t>(matched));
      bson_append_int32(reply, "nModified", -1, static_cast<int32_t>(modified));
      AppendWriteErrors(reply, errors);
    }
  } else if (name == "delete") {
    s = need_collection();
    bson_iter_t deletes;
    if (s.ok()) s = args.Array("deletes", &deletes);
    bool ordered = args.Bool("ordered", true);
    int64_t total = 0;
    std::vector<WriteError> errors;
    int index = 0;
    while (s.ok() && bson_iter_next(&deletes)) {
      bson_t ds, qs;
      const bson_t *spec, *q = nullptr;
      Status d_status = Args::FromIter(&deletes, "deletes", &ds, &spec);
      int64_t limit = 0;
      if (d_status.ok() && spec) {
        Args spec_args(spec);
        d_status = spec_args.Doc("q", &qs, &q);
        if (d_status.ok() && !q)
          d_status = Status::Error(Code::kBadValue, "each delete needs \"q\"");
        if (d_status.ok()) d_status = spec_args.Int("limit", 0, &limit);
        int64_t deleted = 0;
        if (d_status.ok()) d_status = Delete(db, coll, q, limit, &deleted);
        if (d_status.ok()) total += deleted;
      } else if (d_status.ok()) {
        d_status = Status::Error(Code::kBadValue, "deletes must be documents");
      }
      if (!d_status.ok()) {
        if (IsSystemError(d_status)) {
          s = d_status;
          break;
        }
        errors.push_back({index, d_status});
        if (ordered) break;
      }
      index++;
    }
    if (s.ok()) {
      bson_append_int32(reply, "n", 1, static_cast<int32_t>(total));
      AppendWriteErrors(reply, errors);
    }
  } else if (name == "drop") {
    s = need_collection();
    int indexes_was = 0;
    if (s.ok()) s = DropCollection(db, coll, &indexes_was);
    if (s.ok()) {
      bson_append_int32(reply, "nIndexesWas", -1, indexes_was);
      bson_append_utf8(reply, "ns", 2, Namespace(db, coll).c_str(), -1);
    }
  } else if (name == "createIndexes") {
    s = need_collection();
    bson_iter_t indexes;
    if (s.ok()) s = args.Array("indexes", &indexes);
    std::vector<IndexSpec> specs;
    while (s.ok() && bson_iter_next(&indexes)) {
      bson_t storage, ks;
      const bson_t *doc, *keys = nullptr;
      s = Args::FromIter(&indexes, "indexes", &storage, &doc);
      if (s.ok() && doc) s = Args(doc).Doc("key", &ks, &keys);
      if (s.ok() && (!doc || !keys)) {
        s = Status::Error(Code::kBadValue, "each index needs a \"key\"");
      }
      if (!s.ok()) break;
      IndexSpec spec;
      bson_iter_t it;
      if (bson_iter_init_find(&it, doc, "name") && BSON_ITER_HOLDS_UTF8(&it))
        spec.name = bson_iter_utf8(&it, nullptr);
      spec.unique = Args(doc).Bool("unique", false);
      bson_iter_init(&it, keys);
      while (bson_iter_next(&it)) {
        std::optional<int64_t> dir = IntegralValue(&it);
        spec.keys.emplace_back(bson_iter_key(&it), dir.value_or(0));
      }
      specs.push_back(std::move(spec));
    }
    int before = 0, after = 0;
    bool created_collection = false;
    if (s.ok()) {
      s = impl_->InWrite([&] {
        const CollectionMeta* meta;
        Status st = impl_->LookupCollection(Namespace(db, coll), &meta);
        if (!st.ok()) return st;
        created_collection = meta == nullptr;
        st = impl_->GetOrCreateCollection(db, coll, &meta);
        if (!st.ok()) return st;
        before = static_cast<int>(meta->indexes.size());
        std::string ns = meta->ns;
        for (const auto& spec : specs) {
          st = impl_->LookupCollection(ns, &meta);
          if (st.ok()) st = impl_->CreateIndexLocked(*meta, spec, nullptr);
          if (!st.ok()) return st;
        }
        st = impl_->LookupCollection(ns, &meta);
        if (st.ok()) after = static_cast<int>(meta->indexes.size());
        return st;
      });
    }
    if (s.ok()) {
      bson_append_bool(reply, "createdCollectionAutomatically", -1,
                       created_collection);
      bson_append_int32(reply, "numIndexesBefore", -1, before);
      bson_append_int32(reply, "numIndexesAfter", -1, after);
    }
  } else if (name == "dropIndexes") {
    s = need_collection();
    std::string index;
    if (s.ok()) s = args.String("index", &index);
    if (s.ok()) s = DropIndex(db, coll, index);
  } else if (name == "listCollections") {
    std::vector<CollectionInfo> infos;
    s = ListCollections(db, &infos);
    std::vector<Document> docs;
    for (const auto& info : infos) {
      bson_t* doc = bson_new();
      bson_append_utf8(doc, "name", 4, info.name.c_str(), -1);
      bson_append_utf8(doc, "type", 4, "collection", -1);
      bson_t options;
      bson_append_document_begin(doc, "options", -1, &options);
      if (!info.autoincrement.empty()) {
        bson_t fields;
        bson_append_array_begin(&options, "autoincrement", -1, &fields);
        for (size_t i = 0; i < info.autoincrement.size(); i++) {
          std::string key = std::to_string(i);
          bson_append_utf8(&fields, key.c_str(), -1,
                           info.autoincrement[i].c_str(), -1);
        }
        bson_append_array_end(&options, &fields);
      }
      bson_append_document_end(doc, &options);
      docs.emplace_back(doc);
    }
    if (s.ok()) AppendCursor(reply, db + ".$cmd.listCollections", docs);
  } else if (name == "listIndexes") {
    s = need_collection();
    std::vector<IndexSpec> specs;
    if (s.ok()) s = ListIndexes(db, coll, &specs);
    std::vector<Document> docs;
    for (const auto& spec : specs) docs.push_back(IndexDocument(spec));
    if (s.ok()) AppendCursor(reply, Namespace(db, coll), docs);
  } else {
    s = Status::Error(Code::kCommandNotFound,
                      "no such command: '" + name +
                          "' (supported: create, collMod, insert, find, "
                          "update, delete, drop, createIndexes, dropIndexes, "
                          "listCollections, listIndexes, ping)");
  }

  if (!s.ok()) {
    bson_destroy(reply);
    return ErrorReply(s);
  }
  AppendOk(reply);
  return Document(reply);
}

std::string Session::RunCommandJson(std::string_view db, std::string_view json,
                                    JsonMode mode) {
  Document command;
  Status s = Document::FromJson(json, &command);
  if (!s.ok()) return ErrorReply(s).ToJson(mode);
  return RunCommand(db, command.bson()).ToJson(mode);
}

}  // namespace kova::docstore
