// Bulk load: many documents into one collection with multi-row INSERT
// statements, no savepoint per document, and counter rows written once per
// call.
//
// One SQLite statement per document costs more than the B-tree work it
// does (a statement journal, three cursors opened and sought from the root,
// the statement's end): a statement of 64 rows keeps its cursors on the
// last page, where a sorted load appends. A statement that fails on a
// constraint leaves nothing behind (SQLite's statement journal), and its
// rows go again one by one to find the failing document.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

// Rows per multi-row statement; fewer go in power-of-two pieces, so that a
// collection needs at most 7 prepared INSERTs.
constexpr size_t kRowsPerStatement = 64;
constexpr size_t kStatementSizes = 7;  // 64, 32, ..., 1

// An autoincrement field of the collection, numbered locally between the
// first value the counter code hands out and the end of the call.
struct LocalCounter {
  const std::string* field = nullptr;
  std::string id;
  bool valid = false;  // `row` and `last` are current
  bool dirty = false;  // `last` moved past what the row holds
  bool handed = false;
  // The row is missing or has no `last`: a sent value moves nothing (the
  // next omitted value recreates the row from the stored values).
  bool inert = false;
  CounterRow row;
  int64_t last = 0;
};

// The local state of one counter at some document, to go back to when the
// documents after it turn out not to be stored.
struct CounterMark {
  bool valid, dirty, handed, inert;
  int64_t last;
};

// ObjectIds from a context of the loading thread: the default context
// checks the process id on every id (a system call per document).
bson_context_t* OidContext() {
  struct Holder {
    bson_context_t* context = bson_context_new(BSON_CONTEXT_NONE);
    ~Holder() { bson_context_destroy(context); }
  };
  thread_local Holder holder;
  return holder.context;
}

// Writeback of the WAL while a durable bulk load grows it. SQLite spills a
// large transaction's pages into the WAL long before its commit, and the
// kernel leaves them dirty (its own writeback starts at 10% of memory or
// after 30 s), so the commit's fdatasync wrote all of them. Starting their
// writeback every kWritebackBytes of loaded documents, as PostgreSQL's WAL
// writer flushes ahead of its commits, leaves that fdatasync the rest. A
// thread of its own issues it, so a busy disk never holds up the load. It
// is only a hint to the kernel: durability still rests on the fdatasync.
constexpr size_t kWritebackBytes = 8 << 20;

class WalWriteback {
 public:
  // The process's one instance, never destroyed (its thread is detached).
  static WalWriteback* Get() {
    static WalWriteback* instance = new WalWriteback();
    return instance;
  }
  void Request(std::string wal_path) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      path_ = std::move(wal_path);
      requested_ = true;
    }
    cv_.notify_one();
  }

 private:
  WalWriteback() {
    std::thread([this] { Run(); }).detach();
  }
  void Run() {
    int fd = -1;
    std::string open_path;
    for (;;) {
      std::string path;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return requested_; });
        requested_ = false;
        path = path_;
      }
      // SQLite deletes the WAL when its last connection closes: a file of
      // that name may be a new one.
      struct stat st;
      if (fd >= 0 &&
          (path != open_path || fstat(fd, &st) != 0 || st.st_nlink == 0)) {
        close(fd);
        fd = -1;
      }
      if (fd < 0) {
        fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        open_path = path;
      }
      // Whole file: its clean pages cost nothing, and a restarted WAL
      // writes from its beginning again.
      sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::string path_;
  bool requested_ = false;
};

// Counts the bytes a durable load stores and asks for writeback every
// kWritebackBytes.
void NoteDurableLoad(sqlite3* db, const bson_t* const* docs, size_t count) {
  thread_local size_t loaded = 0;
  for (size_t i = 0; i < count; i++) loaded += docs[i]->len;
  if (loaded < kWritebackBytes) return;
  loaded = 0;
  const char* file = sqlite3_db_filename(db, "main");
  if (file && *file) WalWriteback::Get()->Request(std::string(file) + "-wal");
}

using HandedOut = std::map<std::string, std::pair<std::string, int64_t>>;

// Binds a stored document and its key (its first field, `_id`) to the
// parameters `first` (key) and `first + 1` (document) of an insert.
void BindRow(sqlite3_stmt* stmt, int first, const std::string& bytes) {
  bson_t view;
  bson_init_static(&view, reinterpret_cast<const uint8_t*>(bytes.data()),
                   bytes.size());
  bson_iter_t key;
  bson_iter_init(&key, &view);
  bson_iter_next(&key);
  BindKey(stmt, first, &key);
  sqlite3_bind_blob(stmt, first + 1, bytes.data(),
                    static_cast<int>(bytes.size()), SQLITE_STATIC);
}

class BulkLoader {
 public:
  BulkLoader(SessionImpl* session, const CollectionMeta& meta,
             HandedOut* handed_out)
      : session_(session), meta_(meta), handed_out_(handed_out) {
    counters_.resize(meta.autoincrement.size());
    for (size_t k = 0; k < counters_.size(); k++) {
      counters_[k].field = &meta.autoincrement[k];
      counters_[k].id = CounterId(meta.ns, meta.autoincrement[k]);
    }
    bson_init(&out_);
  }
  ~BulkLoader() {
    for (sqlite3_stmt* stmt : statements_)
      if (stmt) sqlite3_clear_bindings(stmt);
    bson_destroy(&out_);
  }

  Status Run(const bson_t* const* docs, size_t count, size_t* inserted) {
    *inserted = 0;
    for (size_t n = 0; n < count; n++) {
      LocateFields(docs[n]);
      // A document that needs the counter code starts a chunk: that code
      // writes admin.counters, which cannot be taken back with the local
      // state when a later document of the chunk fails.
      if (pending_ > 0 &&
          (pending_ == kRowsPerStatement || NeedsCounterCode())) {
        Status s = FlushChunk(inserted);
        if (!s.ok()) return Fail(s);
      }
      Status s = BuildRow(docs[n]);
      if (!s.ok()) {
        // The documents before it are stored, as one by one.
        Status f = FlushChunk(inserted);
        return Fail(f.ok() ? s : f);
      }
    }
    Status s = FlushChunk(inserted);
    if (!s.ok()) return Fail(s);
    return WriteCounters();
  }

 private:
  struct Slot {
    std::string bytes;  // the stored document
    std::vector<CounterMark> marks;
  };
  struct SentField {
    bool present = false;
    bson_iter_t it;
  };

  // One pass over the document's top-level fields for its _id and the
  // autoincrement fields it sends (the first of each name counts).
  void LocateFields(const bson_t* doc) {
    sent_at_.assign(counters_.size(), SentField{});
    has_id_ = false;
    bson_iter_t it;
    if (!bson_iter_init(&it, doc)) return;
    while (bson_iter_next(&it)) {
      const char* key = bson_iter_key(&it);
      uint32_t len = bson_iter_key_len(&it);
      if (len == 3 && memcmp(key, "_id", 3) == 0) {
        if (!has_id_) {
          has_id_ = true;
          id_ = it;
        }
        continue;
      }
      for (size_t k = 0; k < counters_.size(); k++) {
        const std::string& field = *counters_[k].field;
        if (!sent_at_[k].present && field.size() == len &&
            memcmp(field.data(), key, len) == 0) {
          sent_at_[k].present = true;
          sent_at_[k].it = it;
        }
      }
    }
  }

  // Whether an omitted autoincrement field of the located document takes
  // its value from the counter code rather than from the local numbering.
  bool NeedsCounterCode() {
    for (size_t k = 0; k < counters_.size(); k++) {
      const LocalCounter& c = counters_[k];
      if (!sent_at_[k].present && (!c.valid || !NextLocal(c))) return true;
    }
    return false;
  }

  // last + increment while it stays within the bounds; the counter code
  // handles everything else (cycling, exhaustion). Not up to the start:
  // the counter code resumes from the highest stored value (rule 7).
  static std::optional<int64_t> NextLocal(const LocalCounter& c) {
    int64_t next;
    if (!__builtin_add_overflow(c.last, c.row.increment, &next) &&
        next >= c.row.min && next <= c.row.max &&
        (c.row.increment > 0 ? next > c.row.start : next < c.row.start))
      return next;
    return std::nullopt;
  }

  // The stored form of `doc` (its _id first, then its fields, then the
  // omitted autoincrement values) into the next slot of the chunk, with the
  // counters' state before its sent values count in the chunk's marks.
  Status BuildRow(const bson_t* doc) {
    bson_reinit(&out_);
    bson_iter_t it;
    if (!bson_iter_init(&it, doc))
      return Status::Error(Code::kBadValue, "invalid BSON document");
    if (has_id_) {
      switch (bson_iter_type(&id_)) {
        case BSON_TYPE_ARRAY:
        case BSON_TYPE_REGEX:
        case BSON_TYPE_UNDEFINED:
          return Status::Error(Code::kBadValue,
                               "_id cannot be an array, a regex or undefined");
        default:
          break;
      }
      bson_append_iter(&out_, "_id", 3, &id_);
      while (bson_iter_next(&it)) {
        if (bson_iter_key_len(&it) == 3 &&
            memcmp(bson_iter_key(&it), "_id", 3) == 0)
          continue;
        bson_append_iter(&out_, bson_iter_key(&it),
                         static_cast<int>(bson_iter_key_len(&it)), &it);
      }
    } else {
      bson_oid_t oid;
      bson_oid_init(&oid, OidContext());
      bson_append_oid(&out_, "_id", 3, &oid);
      // The common case (COPY): the fields follow _id unchanged, in one copy.
      bson_concat(&out_, doc);
    }
    sent_.clear();
    for (size_t k = 0; k < counters_.size(); k++) {
      LocalCounter& c = counters_[k];
      if (sent_at_[k].present) {
        if (std::optional<int64_t> v = IntegralValue(&sent_at_[k].it))
          sent_.emplace_back(&c, *v);
        continue;
      }
      int64_t value = 0;
      std::optional<int64_t> next;
      if (c.valid) next = NextLocal(c);
      if (next) {
        value = *next;
        c.last = value;
        c.dirty = true;
        c.handed = true;
      } else {
        Status s = TakeFromCounterCode(c, &value);
        if (!s.ok()) return s;
      }
      AppendInteger(&out_, *c.field, value);
    }
    // The document's slot: its bytes and where the counters stood.
    if (slots_.size() <= pending_) slots_.emplace_back();
    Slot& slot = slots_[pending_];
    slot.bytes.assign(reinterpret_cast<const char*>(bson_get_data(&out_)),
                      out_.len);
    slot.marks.resize(counters_.size());
    for (size_t k = 0; k < counters_.size(); k++) {
      const LocalCounter& c = counters_[k];
      slot.marks[k] = {c.valid, c.dirty, c.handed, c.inert, c.last};
    }
    pending_++;
    // A sent value beyond the counter moves it (rule 3), as if the document
    // were stored; undone with the marks when it is not.
    return MoveForSentValues();
  }

  // The next value from the counter code (which writes admin.counters),
  // after writing back what was numbered locally.
  Status TakeFromCounterCode(LocalCounter& c, int64_t* value) {
    if (c.valid) {
      Status w = c.dirty ? session_->StoreCounterLast(c.id, c.row, c.last)
                         : Status::OK();
      NoteHandedOut(c);
      c.valid = c.dirty = c.handed = false;
      if (!w.ok()) return w;
    }
    c.inert = false;
    Status s = session_->NextCounterValue(meta_, *c.field, value);
    if (!s.ok()) return s;
    s = session_->LoadCounterRow(c.id, &c.row);
    if (!s.ok()) return s;
    c.valid = c.row.exists && c.row.last && *c.row.last == *value;
    c.last = *value;
    return Status::OK();
  }

  Status MoveForSentValues() {
    for (const auto& [c, v] : sent_) {
      if (!c->valid && !c->inert) {
        Status s = session_->LoadCounterRow(c->id, &c->row);
        if (!s.ok()) return s;
        if (c->row.exists && c->row.last) {
          c->valid = true;
          c->last = *c->row.last;
        } else {
          c->inert = true;
        }
      }
      if (!c->valid) continue;
      if (c->row.increment > 0 ? v > c->last : v < c->last) {
        c->last = v;
        c->dirty = true;
      }
    }
    return Status::OK();
  }

  void NoteHandedOut(const LocalCounter& c) {
    if (!c.handed) return;
    auto& entry = (*handed_out_)[c.id];
    entry.first = meta_.ns;
    entry.second = c.last;
  }

  // The counters as they stood when the chunk's document `index` was built
  // (its omitted values taken, its sent values not yet counted).
  void RewindTo(size_t index) {
    const Slot& slot = slots_[index];
    for (size_t k = 0; k < counters_.size(); k++) {
      LocalCounter& c = counters_[k];
      const CounterMark& m = slot.marks[k];
      c.valid = m.valid;
      c.dirty = m.dirty;
      c.handed = m.handed;
      c.inert = m.inert;
      c.last = m.last;
    }
  }

  // Stores the chunk's documents; on failure *inserted counts the documents
  // stored before the failing one and the counters are rewound to it.
  Status FlushChunk(size_t* inserted) {
    size_t done = 0;
    while (done < pending_) {
      size_t level = 0;
      size_t rows = kRowsPerStatement;
      while (rows > pending_ - done) {
        rows /= 2;
        level++;
      }
      sqlite3_stmt* stmt;
      Status s = StatementFor(level, rows, &stmt);
      if (!s.ok()) {
        RewindTo(done);
        *inserted += done;
        pending_ = 0;
        return s;
      }
      for (size_t r = 0; r < rows; r++) {
        BindRow(stmt, static_cast<int>(2 * r + 1), slots_[done + r].bytes);
      }
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) sqlite3_reset(stmt);
      if (rc != SQLITE_DONE) {
        size_t failed = done;
        Status error;
        if ((rc & 0xff) == SQLITE_CONSTRAINT && rows > 1) {
          // Nothing of the statement stayed: one by one to find the document.
          sqlite3_reset(stmt);
          error = InsertOneByOne(done, rows, &failed);
        } else {
          error = ErrorOf(rc, slots_[done]);
          sqlite3_reset(stmt);
        }
        if (!error.ok()) {
          RewindTo(failed);
          *inserted += failed;
          pending_ = 0;
          return error;
        }
      }
      done += rows;
    }
    *inserted += pending_;
    pending_ = 0;
    return Status::OK();
  }

  // The slots [first, first + rows) with the one-row statement; *failed is
  // the slot that failed.
  Status InsertOneByOne(size_t first, size_t rows, size_t* failed) {
    sqlite3_stmt* stmt;
    Status s = StatementFor(kStatementSizes - 1, 1, &stmt);
    if (!s.ok()) {
      *failed = first;
      return s;
    }
    for (size_t r = first; r < first + rows; r++) {
      BindRow(stmt, 1, slots_[r].bytes);
      int rc = sqlite3_step(stmt);
      if (rc != SQLITE_DONE) {
        *failed = r;
        Status error = ErrorOf(rc, slots_[r]);
        sqlite3_reset(stmt);
        return error;
      }
      sqlite3_reset(stmt);
    }
    return Status::OK();
  }

  Status ErrorOf(int rc, const Slot& slot) {
    if (rc == SQLITE_CONSTRAINT_UNIQUE) {
      bson_t view;
      bson_init_static(&view,
                       reinterpret_cast<const uint8_t*>(slot.bytes.data()),
                       slot.bytes.size());
      return session_->DuplicateKeyError(meta_, &view);
    }
    return SqliteError(session_->db(), rc, "insert into " + meta_.ns);
  }

  // The INSERT of `rows` documents (rows = kRowsPerStatement >> level).
  Status StatementFor(size_t level, size_t rows, sqlite3_stmt** stmt) {
    if (statements_[level]) {
      *stmt = statements_[level];
      return Status::OK();
    }
    std::string sql;
    if (rows == 1) {
      sql = meta_.insert_sql;
    } else {
      sql = "INSERT INTO " + meta_.table + "(kid, doc) VALUES";
      for (size_t r = 0; r < rows; r++) {
        if (r) sql += ",";
        sql += "(?" + std::to_string(2 * r + 1) + ",?" +
               std::to_string(2 * r + 2) + ")";
      }
    }
    Status s = session_->Prepare(sql, stmt);
    if (s.ok()) statements_[level] = *stmt;
    return s;
  }

  // Writes the locally numbered counters back (once per call).
  Status WriteCounters() {
    Status result;
    for (LocalCounter& c : counters_) {
      if (!c.valid) continue;
      if (c.dirty) {
        Status w = session_->StoreCounterLast(c.id, c.row, c.last);
        if (!w.ok() && result.ok()) result = w;
      }
      NoteHandedOut(c);
      c.valid = c.dirty = c.handed = false;
    }
    return result;
  }

  Status Fail(Status error) {
    Status w = WriteCounters();
    (void)w;
    return error;
  }

  SessionImpl* session_;
  const CollectionMeta& meta_;
  HandedOut* handed_out_;
  std::vector<LocalCounter> counters_;
  // The current document's _id and sent autoincrement fields.
  bool has_id_ = false;
  bson_iter_t id_;
  std::vector<SentField> sent_at_;
  std::vector<std::pair<LocalCounter*, int64_t>> sent_;
  bson_t out_;
  std::vector<Slot> slots_;
  size_t pending_ = 0;  // documents built and not yet stored
  std::array<sqlite3_stmt*, kStatementSizes> statements_{};
};

}  // namespace

Status SessionImpl::InsertManyLocked(const CollectionMeta& meta,
                                     const bson_t* const* docs, size_t count,
                                     size_t* inserted) {
  *inserted = 0;
  if (is_counters(meta)) {
    return Status::Error(Code::kIllegalOperation,
                         "admin.counters takes documents one at a time");
  }
  BulkLoader loader(this, meta, &handed_out_);
  Status s = loader.Run(docs, count, inserted);
  if (durable_) NoteDurableLoad(db_, docs, *inserted);
  return s;
}

Status Session::InsertMany(std::string_view db, std::string_view collection,
                           const bson_t* const* docs, size_t count,
                           size_t* inserted) {
  *inserted = 0;
  if (!impl_->explicit_txn()) {
    return Status::Error(Code::kIllegalOperation,
                         "InsertMany needs a write transaction");
  }
  Status s = ValidateDbName(db);
  if (s.ok()) s = impl_->UseLargeCache();
  if (s.ok()) s = impl_->RefreshCatalog();
  const CollectionMeta* meta = nullptr;
  if (s.ok()) s = impl_->LookupCollection(Namespace(db, collection), &meta);
  if (!s.ok()) return s;
  if (!meta) {
    return Status::Error(
        Code::kNamespaceNotFound,
        "collection " + Namespace(db, collection) + " does not exist");
  }
  return impl_->InsertManyLocked(*meta, docs, count, inserted);
}

Status Session::UseLargeCache() { return impl_->UseLargeCache(); }

}  // namespace kova::docstore
