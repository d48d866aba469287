// Public interface of the document store: a data directory of databases and
// collections of BSON documents kept in one SQLite file, with autoincrement
// counters as editable rows of admin.counters.
#pragma once

#include <bson/bson.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;

namespace kova::docstore {

// Error kinds at the storage boundary. Each maps to a MongoDB-style code for
// the document command API (and, later, to a SQLSTATE in the planner).
enum class Code {
  kOk = 0,
  kBadValue,       // malformed argument, unknown operator, bad name
  kTypeMismatch,   // a value of the wrong BSON type
  kFailedToParse,  // invalid JSON
  kNamespaceNotFound,
  kNamespaceExists,
  kIndexNotFound,
  kDuplicateKey,
  kImmutableField,    // an update tried to change _id
  kPathNotViable,     // an update path runs through a non-document
  kCounterExhausted,  // a counter reached its bound and does not cycle
  kOverflow,
  kIllegalOperation,
  kCommandNotFound,
  kLocked,    // another process owns the data directory
  kBusy,      // a lock could not be had within the timeout
  kConflict,  // a transaction's snapshot is older than a commit
  kIOError,
  kCorruption,
  kInternal,
};

class Status {
 public:
  Status() = default;
  static Status OK() { return Status(); }
  static Status Error(Code code, std::string message) {
    return Status(code, std::move(message));
  }
  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  int mongo_code() const;         // e.g. 11000 for kDuplicateKey
  const char* code_name() const;  // e.g. "DuplicateKey"
  std::string ToString() const;

 private:
  Status(Code code, std::string message)
      : code_(code), message_(std::move(message)) {}
  Code code_ = Code::kOk;
  std::string message_;

 public:
  // kDuplicateKey: the index that refused the key: of the unique indexes
  // the key collides in, the first created, as PostgreSQL checks them.
  std::string index_name;
  // kDuplicateKey: every unique index the key collides in, first created
  // first (ON CONFLICT looks for its arbiter among them).
  std::vector<std::string> conflicting_indexes;
  // A failed insert: the autoincrement values it took (field, value); they
  // are used up, as PostgreSQL's nextval in a failed INSERT.
  std::vector<std::pair<std::string, int64_t>> assigned;
};

enum class JsonMode { kRelaxed, kCanonical };

// An owned BSON document (move and copy).
class Document {
 public:
  Document();
  explicit Document(bson_t* adopt);  // takes ownership of a heap bson_t
  Document(const uint8_t* data, size_t len);
  Document(const Document& other);
  Document(Document&& other) noexcept;
  Document& operator=(Document other) noexcept;
  ~Document();

  static Status FromJson(std::string_view json, Document* out);
  std::string ToJson(JsonMode mode = JsonMode::kRelaxed) const;
  const bson_t* bson() const { return doc_; }
  bson_t* mutable_bson() { return doc_; }

 private:
  bson_t* doc_;
};

// Options of an autoincrement counter; the defaults are those of a
// PostgreSQL sequence AS bigint with INCREMENT 1.
struct CounterSpec {
  int64_t increment = 1;
  std::optional<int64_t> start;      // default: min for ascending, max else
  std::optional<int64_t> min_value;  // default: 1 or INT64_MIN
  std::optional<int64_t> max_value;  // default: INT64_MAX or -1
  bool cycle = false;
};

struct IndexSpec {
  std::string name;  // derived from keys when empty: "a_1_b_-1"
  std::vector<std::pair<std::string, int>> keys;  // field path, 1 or -1
  bool unique = false;
  // A unique index refuses a second null/missing key by default, as
  // MongoDB; with nulls_distinct (PostgreSQL's default for UNIQUE) any
  // number of rows may hold null.
  bool nulls_distinct = false;
  // Per key, empty or an SQL expression over the row's `doc` column that
  // SQLite indexes instead of the field's key (a SQL expression index; its
  // key name is then a label starting with '$'). Empty: no expression keys.
  // The functions it calls must be registered on every connection that
  // writes the collection.
  std::vector<std::string> expressions;
  const std::string& expression(size_t i) const {
    static const std::string kNone;
    return i < expressions.size() ? expressions[i] : kNone;
  }
  // A partial index: an SQL condition over `doc`; the index holds (and a
  // unique one compares) only the documents for which it is true. Empty:
  // every document.
  std::string where;
};

struct CollectionOptions {
  std::vector<std::pair<std::string, CounterSpec>> autoincrement;
};

struct CollectionInfo {
  std::string name;
  std::vector<std::string> autoincrement;
};

struct FindOptions {
  const bson_t* sort = nullptr;        // {field: 1|-1, ...}
  const bson_t* projection = nullptr;  // {field: 1, ...} or {field: 0, ...}
  int64_t limit = 0;                   // 0 = no limit
  int64_t skip = 0;
};

struct UpdateResult {
  int64_t matched = 0;
  int64_t modified = 0;
};

struct StoreOptions {
  bool create_if_missing = true;
  // true: each commit is on disk before it returns (durable); false: a
  // commit survives a process crash but not a power loss. The default of
  // every session (Session::SetDurableCommits changes one).
  bool synchronous_full = true;
  // How long a writer waits for another writer's transaction to end.
  int busy_timeout_ms = 30000;
};

class Session;
class Checkpointer;
class Durability;

// A data directory opened by this process. Holds an exclusive lock on the
// directory for its lifetime so that a second process gets kLocked.
class Store {
 public:
  static Status Open(const std::string& dir, const StoreOptions& options,
                     std::unique_ptr<Store>* store);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Each session has its own SQLite connection; use one session per thread.
  Status NewSession(std::unique_ptr<Session>* session);
  const std::string& dir() const { return dir_; }
  const StoreOptions& options() const { return options_; }
  // Writers of this process queue here before SQLite's write lock: a
  // blocking wait wakes at once, where SQLite's busy handler polls with
  // growing sleeps and can starve a writer under steady load.
  std::timed_mutex& writer_lock() { return writer_; }
  // Group commit and counter reservations (internal).
  Durability& durability() { return *durability_; }
  // The checkpoint thread (internal; null while the store opens).
  Checkpointer* checkpointer() { return checkpointer_.get(); }
  // Catalog changes of this process, begun and ended (internal; see
  // SessionImpl::CatalogVersion). Every catalog write is made by this
  // process: the lock file keeps any other out of the directory.
  std::atomic<uint64_t>& catalog_generation() { return catalog_generation_; }

 private:
  Store(std::string dir, StoreOptions options, int lock_fd);
  std::string dir_;
  StoreOptions options_;
  int lock_fd_;
  std::timed_mutex writer_;
  std::atomic<uint64_t> catalog_generation_{0};
  std::unique_ptr<Durability> durability_;
  // Runs checkpoints off the committing sessions; started once the store is
  // open, stopped first when it closes.
  std::unique_ptr<Checkpointer> checkpointer_;
};

class SessionImpl;

class Session {
 public:
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Transactions. Outside an explicit transaction every call commits on its
  // own. A counter value handed out is never handed out again, even when the
  // transaction that took it rolls back (as PostgreSQL's nextval).
  Status Begin();
  Status Commit();
  Status Rollback();
  Status Savepoint(std::string_view name);
  Status ReleaseSavepoint(std::string_view name);
  Status RollbackToSavepoint(std::string_view name);
  bool in_transaction() const;

  // Collections and indexes. Collection names may contain dots; database
  // names may not.
  Status CreateCollection(std::string_view db, std::string_view name,
                          const CollectionOptions& options);
  Status DropCollection(std::string_view db, std::string_view name,
                        int* indexes_was = nullptr);
  // Makes an existing field autoincrement: writes the counter row and adds a
  // unique index unless an index already covers exactly that field.
  // keep_counter_row: an existing counter row with that field's id is kept
  // as it is (a sequence that a column takes as its default).
  Status AddAutoincrement(std::string_view db, std::string_view collection,
                          std::string_view field, const CounterSpec& spec,
                          bool keep_counter_row = false);
  // Makes an autoincrement field ordinary again (the counter row stays).
  Status RemoveAutoincrement(std::string_view db, std::string_view collection,
                             std::string_view field);
  Status CreateIndex(std::string_view db, std::string_view collection,
                     const IndexSpec& spec, bool* created = nullptr);
  Status DropIndex(std::string_view db, std::string_view collection,
                   std::string_view name);
  Status ListCollections(std::string_view db, std::vector<CollectionInfo>* out);

  // Databases exist once created here or once a collection is made in one.
  Status CreateDatabase(std::string_view db);  // kNamespaceExists if there
  // Drops every collection of the database and its counters.
  Status DropDatabase(std::string_view db);  // kNamespaceNotFound if absent
  Status ListDatabases(std::vector<std::string>* out);
  Status ListIndexes(std::string_view db, std::string_view collection,
                     std::vector<IndexSpec>* out);
  // Bytes of storage (SQLite pages, from its dbstat table): a collection's
  // documents, and each of its indexes by name (index_bytes holds every
  // index's pages, including the store's own _id index).
  struct StorageSize {
    int64_t table_bytes = 0;
    int64_t index_bytes = 0;
    std::map<std::string, int64_t> by_index;
  };
  Status CollectionSize(std::string_view db, std::string_view collection,
                        StorageSize* out);
  // Every collection of the database, indexes included.
  Status DatabaseSize(std::string_view db, int64_t* bytes);
  // The data files (database and WAL) as they are on disk.
  Status FileSize(int64_t* bytes);

  // Documents. Insert creates the collection when it does not exist.
  // `stored`, when given, receives the document as stored (with _id and
  // autoincrement values).
  Status Insert(std::string_view db, std::string_view collection,
                const bson_t* doc, Document* stored = nullptr);
  Status Find(std::string_view db, std::string_view collection,
              const bson_t* filter, const FindOptions& options,
              std::vector<Document>* out);
  Status Update(std::string_view db, std::string_view collection,
                const bson_t* query, const bson_t* update, bool multi,
                UpdateResult* result);
  Status Delete(std::string_view db, std::string_view collection,
                const bson_t* query, int64_t limit, int64_t* deleted);
  // The SQLite query plan a Find with this filter and sort would use.
  Status ExplainFind(std::string_view db, std::string_view collection,
                     const bson_t* filter, const bson_t* sort,
                     std::string* plan);

  // The document command API: one MongoDB-shaped command in, one reply out.
  // The reply always has `ok`; on error also `errmsg`, `code`, `codeName`.
  Document RunCommand(std::string_view db, const bson_t* command);
  std::string RunCommandJson(std::string_view db, std::string_view json,
                             JsonMode mode = JsonMode::kRelaxed);

  // ---- Services for the SQL layer (sql_services.cc) ----

  // Begins a transaction that writes: takes the write lock at once (a
  // deferred transaction that reads first can meet kConflict later).
  Status BeginWrite();
  // Parallel reads. Another session of the same store, for a helper thread.
  Status NewReader(std::unique_ptr<Session>* reader);
  // Begins a transaction and takes its read snapshot at once.
  Status BeginSnapshot();
  // Whether this session and `other` are both in a read transaction over
  // the same snapshot of the store (the same committed state), so that
  // rows one reads and rows the other reads belong to one state.
  bool SharesSnapshotWith(Session& other);
  // full: a commit is on disk before it returns (synchronous_commit on);
  // otherwise it survives a process crash but may be lost in a power
  // failure (off). Never risks corruption (SQLite WAL).
  Status SetDurableCommits(bool full);
  // Changes whenever a collection, index or autoincrement field changes,
  // and when BumpCatalogVersion is called (the SQL catalog's own changes).
  Status CatalogVersion(int64_t* version);
  // Whether the committed catalog is known to be at `version` now without
  // reading it: no catalog change has begun since this session read that
  // version. For a statement that reads no table, so needs no snapshot.
  bool CatalogStillAt(int64_t version) const;
  Status BumpCatalogVersion();
  // The quoted SQLite table of a collection (kNamespaceNotFound if absent)
  // and its autoincrement fields.
  Status CollectionTable(std::string_view db, std::string_view collection,
                         std::string* table,
                         std::vector<std::string>* autoincrement = nullptr);
  // Replaces / deletes the document stored in row `rid` of the table. A
  // replaced autoincrement field set beyond its counter moves the counter.
  Status ReplaceDocument(std::string_view db, std::string_view collection,
                         int64_t rid, const bson_t* doc);
  Status DeleteDocument(std::string_view db, std::string_view collection,
                        int64_t rid);

  // Counter rows by _id, for sequences.
  struct CounterInfo {
    bool exists = false;
    std::string collection, field;  // empty for a sequence of its own
    std::optional<int64_t> last;
    int64_t increment = 1, start = 1, min = 1, max = INT64_MAX;
    bool cycle = false;
  };
  Status ReadCounter(std::string_view id, CounterInfo* info);
  // Creates or replaces the row, with every option written out.
  Status WriteCounter(std::string_view id, std::string_view collection,
                      std::string_view field, const CounterSpec& spec,
                      int64_t last);
  // The next value (rule 7 applies to a row tied to a collection field);
  // never handed out twice, whatever happens to the transaction.
  // Values come from a process-wide in-memory lease on a durable
  // reservation when one is live (no SQLite work, no write lock).
  Status NextCounter(std::string_view id, int64_t* value);
  // Writes the exact last of every leased counter into its row and ends the
  // leases, in the current write transaction: for statements that read
  // admin.counters rows in order to write them.
  Status SettleCounters();
  Status SetCounterLast(std::string_view id, int64_t last);
  Status DeleteCounter(std::string_view id);
  // Gives a row a new _id (and collection and field).
  Status RenameCounter(std::string_view id, std::string_view new_id,
                       std::string_view collection, std::string_view field);

  // ---- Schema changes (alter.cc) ----

  // Renames a collection in its database: documents, indexes and the
  // counter rows of its fields (their _id and collection) move with it.
  // kNamespaceExists when the new name is taken.
  Status RenameCollection(std::string_view db, std::string_view name,
                          std::string_view new_name);
  // Gives the unique index `from` the name of `spec` without building it
  // again, when `spec` asks for the same keys, unique, with nulls distinct
  // (the partial index that made `from` refuse a second null is dropped).
  // *adopted is false, and nothing changes, when `from` does not fit or
  // the name is taken.
  Status AdoptIndex(std::string_view db, std::string_view collection,
                    std::string_view from, const IndexSpec& spec,
                    bool* adopted);

  // ---- Bulk load (bulk.cc) ----

  // Inserts documents into an existing collection, in order, inside the
  // current write transaction (BeginWrite first), each as Insert would: an
  // _id when absent, the next value for each omitted autoincrement field,
  // and a sent value moving its counter. One prepared statement serves every
  // document, no savepoint is taken per document, and each counter row is
  // written once per call. Stops at the first document that fails:
  // *inserted counts those stored before it (they stay; the caller's
  // rollback undoes them). Counter values handed out stay handed out.
  Status InsertMany(std::string_view db, std::string_view collection,
                    const bson_t* const* docs, size_t count, size_t* inserted);
  // Gives the connection a page cache for work over whole tables (64 MB
  // instead of SQLite's 2 MB; InsertMany and index builds take it too).
  Status UseLargeCache();
  // While set, kova_key (what index builds evaluate per document) calls
  // check(arg) first and fails the SQLite statement with an ordinary error
  // when it returns true. A cancel ends a long index build that way: an
  // ordinary error undoes only the statement, where sqlite3_interrupt of a
  // writing statement rolls back the whole transaction and its savepoints.
  // nullptr clears it.
  void SetCancelCheck(bool (*check)(void* arg), void* arg);

  // The session's SQLite connection, for layers that run SQL over
  // collections (the planner). Functions kova_key(doc, path) is registered.
  sqlite3* connection();

 private:
  friend class Store;
  explicit Session(std::unique_ptr<SessionImpl> impl);
  std::unique_ptr<SessionImpl> impl_;
};

// Names used by the counter rules.
inline constexpr const char* kAdminDb = "admin";
inline constexpr const char* kCountersCollection = "counters";

}  // namespace kova::docstore
