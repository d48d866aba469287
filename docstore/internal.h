// Internal declarations shared by the docstore's source files.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "docstore/docstore.h"

namespace kova::docstore {

// ---- keys.cc: field access and index keys -------------------------------

// Index keys: every field value maps to one SQLite value so that SQLite's
// ordering and equality follow BSON's: numbers as INTEGER/REAL (1 == 1.0),
// strings as TEXT, null/missing as NULL, everything else as a BLOB whose
// first byte orders the BSON type brackets as MongoDB does.
enum class KeyBracket { kNull, kNumber, kString, kOther };

// Registers kova_key(doc, path) on a connection: the key of the field at a
// dotted path of a BSON document, deterministic so that expression indexes
// can be built on it.
int RegisterFunctions(sqlite3* db);
// A session's Session::SetCancelCheck.
struct CancelCheck {
  bool (*check)(void* arg) = nullptr;
  void* arg = nullptr;
};
// kova_key again, now consulting `cancel` (owned by the session).
int RegisterKeyFunction(sqlite3* db, const CancelCheck* cancel);
class Durability;
// kova_counter_doc(kid, doc) (leases.cc).
int RegisterCounterFunctions(sqlite3* db, Durability* durability);
// A copy of an admin.counters row with `last` replaced (counters.cc).
bson_t* CounterDocWithLast(const bson_t* doc, int64_t last);
// Advances `it` to the top-level field named exactly `key`.
bool FindKeyExact(bson_iter_t* it, std::string_view key);
// Finds the element at a dotted path ("a.b.0"); false when absent.
bool FindPath(const bson_t* doc, std::string_view path, bson_iter_t* out);
// Binds the key of a value to a statement parameter.
void BindKey(sqlite3_stmt* stmt, int index, const bson_iter_t* value);
KeyBracket BracketOf(const bson_iter_t* value);
// The value as an integer when it is an int32, int64 or integral double.
std::optional<int64_t> IntegralValue(const bson_iter_t* value);
// Appends an integer as int32 while it fits and int64 after.
void AppendInteger(bson_t* doc, std::string_view key, int64_t value);
// A value written as relaxed Extended JSON, for messages.
std::string ValueToJson(const bson_iter_t* value);

// A new ObjectId (session.cc).
void NewObjectId(bson_oid_t* oid);

// ---- vfs.cc -----------------------------------------------------------------

// Registers the "kova" VFS once and returns its name (see vfs.cc).
const char* KovaVfsName();
// How many WAL files the kova VFS has deleted in this process (SQLite
// deletes a WAL when its last connection closes). A change tells a holder of
// a WAL file descriptor that the file may have been replaced, without the
// fstat that would make the next write change the file's timestamps (see
// Durability::SyncWalFile).
uint64_t WalDeletions();
// sqlite3_file_control op on a connection's "main" file: writes the WAL's
// queue of committed frames into the file (see vfs.cc).
constexpr int kDrainWalOp = 0x4b6f7661;
// sqlite3_file_control op on "main": copies the WAL-index header the
// connection's read transaction started from (kReadSnapshotSize bytes) into
// arg; SQLITE_NOTFOUND when it holds no read lock (vfs.cc).
constexpr int kReadSnapshotOp = 0x4b6f7662;
constexpr int kReadSnapshotSize = 48;
// While one lives on a thread, that thread's reads of WAL frames the shared
// page cache lacks are not added to it: a checkpoint reads each frame once,
// to copy it into the database file, and caching what it read cost a fresh
// heap page per frame (a quarter of a dump restore's CPU, most of it page
// faults, in perf).
class CheckpointReads {
 public:
  CheckpointReads();
  ~CheckpointReads();
  CheckpointReads(const CheckpointReads&) = delete;
  CheckpointReads& operator=(const CheckpointReads&) = delete;

 private:
  bool was_;
};

// ---- sqlite helpers ---------------------------------------------------------

std::string QuoteIdent(std::string_view name);
std::string QuoteLiteral(std::string_view text);
Status SqliteError(sqlite3* db, int rc, std::string_view context);

// Resets a cached statement when it goes out of scope.
class StmtHandle {
 public:
  explicit StmtHandle(sqlite3_stmt* stmt = nullptr) : stmt_(stmt) {}
  ~StmtHandle() {
    if (stmt_) {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  StmtHandle(const StmtHandle&) = delete;
  StmtHandle& operator=(const StmtHandle&) = delete;
  sqlite3_stmt* get() const { return stmt_; }

 private:
  sqlite3_stmt* stmt_;
};

// ---- filter.cc: query documents to SQL ---------------------------------

// A WHERE clause over `doc` with its parameters (iterators into the filter,
// valid while the filter document lives).
struct WhereClause {
  std::string sql;  // "1" when the filter is empty
  std::vector<bson_iter_t> params;
};
Status BuildWhere(const bson_t* filter, WhereClause* out);
Status BuildOrderBy(const bson_t* sort, std::string* out);
void BindWhere(sqlite3_stmt* stmt, const WhereClause& where, int first = 1);
Status ApplyProjection(const bson_t* doc, const bson_t* projection,
                       Document* out);

// ---- node.cc: mutable documents for updates -----------------------------

Status ApplyUpdate(const bson_t* doc, const bson_t* update, Document* out,
                   bool* changed);

// ---- catalog ------------------------------------------------------------

// The entry of an index's stored keys that holds a partial index's
// condition (IndexSpec::where).
inline constexpr const char* kWhereKey = "$where";

struct IndexMeta {
  IndexSpec spec;
  std::string sqlite_name;
};

struct CollectionMeta {
  std::string ns;  // "db.collection"
  std::string db;
  std::string name;
  std::string table;       // quoted SQLite table name
  std::string insert_sql;  // INSERT of (kid, doc), built once
  std::vector<std::string> autoincrement;
  std::vector<IndexMeta> indexes;
};

std::string Namespace(std::string_view db, std::string_view name);
std::string CounterId(std::string_view ns, std::string_view field);
// SQLite compares table and index names without regard to ASCII case, where
// PostgreSQL's quoted identifiers are case-sensitive ("RT" and rt are two
// tables): upper-case letters are written as ^ and the lower-case letter,
// and the characters the naming scheme uses as separators (: # @ ^) are
// escaped too. Names without any of them stay as they are.
std::string SqliteSafeName(std::string_view name);
std::string TableName(std::string_view ns);
std::string IndexName(const IndexSpec& spec);
// The SQL expression of a field's key, the same in indexes and queries.
std::string KeyExpr(std::string_view path);
// The SQL of an index's key i: its expression, or the field's KeyExpr.
std::string IndexKeySql(const IndexSpec& spec, size_t i);
// The partial unique index that makes null one value (see CreateIndexLocked).
inline constexpr const char* kNullsSuffix = "#nulls";
// Named after the (quoted) SQLite name of the index it completes.
std::string NullsIndexName(std::string_view sqlite_name);
Status ValidateDbName(std::string_view db);
Status ValidateCollectionName(std::string_view name);
Status ValidateAutoincrementField(std::string_view field);

// ---- counters -----------------------------------------------------------

// A parsed admin.counters row.
struct CounterRow {
  bool exists = false;
  int64_t rid = 0;
  std::optional<int64_t> last;  // absent or not an integer: start over
  int64_t increment = 1;
  int64_t start = 1;
  int64_t min = 1;
  int64_t max = std::numeric_limits<int64_t>::max();
  bool cycle = false;
  std::string collection, field;
  std::string bytes;  // the row's BSON, patched in place when last moves
};

// ---- checkpointer.cc: checkpoints off the committing session ---------------

class Checkpointer {
 public:
  // Takes ownership of `db`, a connection of its own, and starts the thread;
  // `writer_lock` is the store's queue of writers.
  Checkpointer(sqlite3* db, std::timed_mutex* writer_lock);
  ~Checkpointer();  // stops the thread and closes the connection
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // A commit left `frames` frames in the WAL: asks for a checkpoint when it
  // grew enough since the last one (coalesced with one already asked for).
  void Request(int frames);
  // Checkpoints run so far, and how often a commit found the WAL started
  // over since the one before (tests).
  uint64_t checkpoints();
  uint64_t restarts();
  // Checkpoints a committing session ran itself, the WAL far too long.
  uint64_t inline_checkpoints() { return inline_checkpoints_.load(); }
  // The WAL hook of every session connection opened once the store has a
  // checkpointer (`arg`); the bootstrap session keeps SQLite's own.
  static int WalHook(void* arg, sqlite3* db, const char* name, int frames);
  // A writer about to take the writer lock waits here while the last pass
  // of a checkpoint asks for it: the mutex lets a session that unlocks and
  // locks again in a loop take it first every time, and the WAL would never
  // restart.
  void YieldToLockedPass() {
    if (wants_lock_.load(std::memory_order_acquire)) WaitForLockedPass();
  }

 private:
  void Run();
  void WaitForLockedPass();
  sqlite3* db_;
  std::timed_mutex* writer_lock_;
  std::atomic<bool> wants_lock_{false};
  std::mutex gate_mu_;
  std::condition_variable gate_cv_;
  std::mutex mu_;
  std::condition_variable cv_;
  int frames_at_request_ = 0;
  bool requested_ = false;
  bool stop_ = false;
  uint64_t done_ = 0;
  uint64_t restarts_ = 0;
  std::atomic<uint64_t> inline_checkpoints_{0};
  std::thread thread_;
};

// ---- durability.cc: group commit and counter reservations ------------------

// How many values a reservation covers, as PostgreSQL's SEQ_LOG_VALS. A live
// lease is renewed ahead (leases.cc) once fewer than half of its window are
// left, to a window past its last value, so a crash skips at most a window.
// The window starts here and doubles, up to kMaxReservedValues, while the
// sessions use up half of it before a renewal has committed (a sync at
// synchronous_commit on), so that they do not wait for renewals.
inline constexpr int64_t kReservedValues = 32;
inline constexpr int64_t kMaxReservedValues = 512;

// One per store. Commits are numbered as they return; a durable commit waits
// until a WAL sync that began after it has finished.
class Durability {
 public:
  explicit Durability(std::string wal_path);
  ~Durability();
  Durability(const Durability&) = delete;
  Durability& operator=(const Durability&) = delete;

  // The number of a commit that has just returned.
  uint64_t NoteCommit();
  // Returns once every commit numbered up to `ticket` is on disk.
  // `write_out` puts the WAL's queued frames into the file (vfs.cc); the
  // leader of a sync calls it after it knows which commits it covers.
  Status SyncThrough(uint64_t ticket, const std::function<Status()>& write_out);

  // True once every commit numbered up to `ticket` is on disk.
  bool Synced(uint64_t ticket) const { return synced_seen_ >= ticket; }

  // Counter reservations (see durability.cc): the commit ticket that made
  // `value` safe to hand out without a sync of its own, 0 if none did.
  // *upto: the end of that reservation.
  uint64_t CoveringTicket(const std::string& id, bool asc, int64_t value,
                          int64_t* upto);
  // After the commit with `ticket` wrote (or relied on) the reservation
  // from..upto: records it and, when `epoch` is still current (no counter
  // row was written since the renewal read it), makes it a live lease
  // whose last value handed out is `last`.
  void Publish(const std::string& id, bool asc, int64_t from, int64_t upto,
               uint64_t ticket, int64_t last, int64_t increment,
               uint64_t epoch);
  bool any_reserved();

  // Leases (leases.cc). TakeNext hands out the next value of a live lease
  // (false: none, or used up); *ticket is the commit that made it durable.
  // *renew_ahead: fewer than half a reservation is left and no renewal has
  // been started for this lease; the caller is to start one (RenewAhead).
  bool TakeNext(const std::string& id, int64_t* value, uint64_t* ticket,
                bool* renew_ahead);
  // The live lease of `id` while fewer than half a reservation is left
  // (false otherwise): what a renewal ahead extends.
  struct LeaseView {
    int64_t from, upto, last, increment, window;
    bool asc;
  };
  bool LeaseToRenew(const std::string& id, LeaseView* view);
  // After the commit with `ticket` moved the reservation of a live lease to
  // end at `upto`: the lease hands values out up to there, when `epoch` is
  // still current (nothing ended leases since the renewal read it).
  void ExtendLease(const std::string& id, int64_t upto, uint64_t ticket,
                   uint64_t epoch);
  // The last value handed out under a live lease of `id`.
  bool LiveLast(const std::string& id, int64_t* last);
  // A live lease of `id` has handed out `value` or beyond it.
  bool LiveCovers(const std::string& id, int64_t value);
  // Ends the live lease of `id` (every lease when `id` is null), returning
  // what each had handed out; advances the epoch either way. Call with
  // SQLite's write lock held, before reading the rows to write them.
  struct Ended {
    std::string id;
    int64_t last;
    uint64_t ticket;
  };
  void EndLeases(const std::string* id, std::vector<Ended>* ended);
  uint64_t epoch();
  // The session that renews leases for callers inside a read transaction
  // (its own connection, its own write transactions).
  std::mutex& renew_mu() { return renew_mu_; }
  std::unique_ptr<Session>& renew_session() { return renew_session_; }
  // This boot of the machine (empty when unknown), kept with reservations
  // for diagnosis.
  const std::string& boot_id() const { return boot_id_; }
  // WAL syncs done so far (tests show group commit with it).
  uint64_t syncs();

 private:
  Status SyncWalFile();

  struct Reservation {
    int64_t from, upto;  // in the counter's direction
    bool asc;
    uint64_t ticket;  // the commit that covers values up to ticket_upto
    // A live lease: values after `last` up to `upto` are handed out from
    // here, and the counter row's last may be behind `last`.
    bool live = false;
    int64_t last = 0, increment = 1;
    // A renewal ahead moved `upto` past ticket_upto with the commit
    // ahead_ticket; renewing: one has been started for this lease.
    int64_t ticket_upto = 0;
    uint64_t ahead_ticket = 0;
    bool renewing = false;
    // Values the next renewal ahead reserves; `last` when the running
    // renewal started; starved: the lease ran out before it committed;
    // solo: nothing was taken while the last one ran, so the next starts
    // only at the lease's last value (renewing earlier would not spare
    // anyone a wait, and would commit, and sync, twice as often).
    int64_t window = kReservedValues;
    int64_t renew_started_at = 0;
    bool starved = false;
    bool solo = false;
    uint64_t TicketFor(int64_t value) const {
      return (asc ? value > ticket_upto : value < ticket_upto) ? ahead_ticket
                                                               : ticket;
    }
  };
  const std::string wal_path_;
  std::string boot_id_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t written_ = 0;                  // commits noted
  uint64_t synced_ = 0;                   // commits known to be on disk
  std::atomic<uint64_t> synced_seen_{0};  // synced_, read without mu_
  bool syncing_ = false;
  uint64_t syncs_ = 0;
  int fd_ = -1;
  uint64_t fd_deletions_ = 0;  // WalDeletions() when fd_ was opened
  std::mutex reserve_mu_;
  std::unordered_map<std::string, Reservation> reserved_;
  uint64_t epoch_ = 0;  // counter rows written for another reason
  std::mutex renew_mu_;
  std::unique_ptr<Session> renew_session_;
};

// ---- the session --------------------------------------------------------

class SessionImpl {
 public:
  SessionImpl(Store* store, sqlite3* db) : store_(store), db_(db) {}
  ~SessionImpl();

  Status Prepare(const std::string& sql, sqlite3_stmt** stmt);
  Status Exec(const std::string& sql);
  // For the few fixed statements run on every call (BEGIN, COMMIT,
  // SAVEPOINT ...): prepared once and reused.
  Status ExecCached(const std::string& sql);
  // Loads, index builds and whole-table validations touch far more pages
  // than SQLite's default cache (2 MB) holds: with it they re-read index
  // pages through pread, spill dirty ones, and sort in temporary files. A
  // 64 MB cache, kept by the connection, grows only as it is used.
  Status UseLargeCache() { return ExecCached("PRAGMA cache_size=-65536"); }
  CancelCheck* cancel_check() { return &cancel_check_; }
  void TrimStatementCache();
  Status Step(sqlite3_stmt* stmt, int* rc);  // rc SQLITE_ROW or SQLITE_DONE

  // Runs fn inside the current transaction, or in a new write transaction
  // that commits when fn succeeds and rolls back when it fails.
  // `atomic` false skips the statement savepoint inside a transaction, for
  // calls whose only partial effect on failure is wanted (a counter value
  // consumed by a failed insert).
  template <typename Fn>
  Status InWrite(Fn&& fn, bool atomic = true);
  template <typename Fn>
  Status InRead(Fn&& fn);

  // Transactions.
  Status Begin(bool immediate = false);
  Status Commit();
  Status Rollback();
  Status Savepoint(std::string_view name);
  Status ReleaseSavepoint(std::string_view name);
  Status RollbackToSavepoint(std::string_view name);
  bool explicit_txn() const { return explicit_txn_; }

  // Catalog (catalog_cache.cc).
  Status RefreshCatalog();
  // The catalog version this transaction's snapshot sees (kova_meta), read
  // from SQLite only when a catalog change may have happened since this
  // session last read it.
  Status CatalogVersion(int64_t* version);
  bool CatalogStillAt(int64_t version) const;
  // Ends this session's mark on the store's catalog generation once its
  // transaction that changed the catalog has committed or rolled back.
  void EndCatalogChangeIfDone() {
    if (catalog_change_open_ && sqlite3_get_autocommit(db_)) EndCatalogChange();
  }
  // nullptr in *meta when absent.
  Status LookupCollection(const std::string& ns, const CollectionMeta** meta);
  // The namespaces ("db.collection") of the database's collections, by
  // collection name; inside a transaction of the caller's.
  Status CollectionNamespaces(std::string_view db,
                              std::vector<std::string>* out);
  // `base`, or base@2, base@3...: the first name no SQLite table or index
  // holds yet, quoted.
  Status FreeSqliteName(const std::string& base, std::string* quoted);
  Status CreateCollectionLocked(std::string_view db, std::string_view name,
                                const CollectionOptions& options,
                                const CollectionMeta** meta);
  Status GetOrCreateCollection(std::string_view db, std::string_view name,
                               const CollectionMeta** meta);
  Status RequireCollection(std::string_view db, std::string_view name,
                           const CollectionMeta** meta);
  Status CreateIndexLocked(const CollectionMeta& meta, const IndexSpec& spec,
                           bool* created);
  Status DropCollectionLocked(const CollectionMeta& meta);
  Status AddAutoincrementLocked(const CollectionMeta& meta,
                                std::string_view field, const CounterSpec& spec,
                                bool keep_counter_row = false);
  Status BumpCatalogVersion();
  Status WriteCollectionRow(const CollectionMeta& meta);

  // Counters (counters.cc).
  Status NextCounterValue(const CollectionMeta& meta, const std::string& field,
                          int64_t* value);
  Status MoveCounterForSentValue(const CollectionMeta& meta,
                                 const std::string& field, int64_t sent);
  Status WriteCounterRow(const std::string& id, std::string_view collection,
                         std::string_view field, const CounterSpec* spec,
                         int64_t last);
  Status ValidateCounterDocument(const bson_t* doc, Document* normalized);
  Status ReapplyHandedOut();
  // A counter row by _id; NextCounterById hands out its next value.
  // end_lease: the caller is about to write the row (see leases.cc).
  Status LoadCounterRow(const std::string& id, CounterRow* row,
                        bool end_lease = true);
  Status NextCounterById(const std::string& id, int64_t* value);
  Status StoreCounterLast(const std::string& id, CounterRow& row, int64_t last);
  // Counter rows this session wrote in the current transaction. Valid only
  // while the session holds the write lock, so cleared whenever a
  // transaction or savepoint ends and whenever admin.counters is written
  // other than by the counter code itself.
  std::unordered_map<std::string, CounterRow>& counter_cache() {
    return counter_cache_;
  }
  void ForgetCounters() { counter_cache_.clear(); }

  // Documents (session.cc).
  Status InsertLocked(const CollectionMeta& meta, const bson_t* doc,
                      Document* stored);
  Status InsertRaw(const CollectionMeta& meta, const bson_t* doc);
  Status ReplaceLocked(const CollectionMeta& meta, int64_t rid,
                       const bson_t* doc);
  // `rid`: the row the document replaces (0 for an insert).
  Status DuplicateKeyError(const CollectionMeta& meta, const bson_t* doc,
                           int64_t rid = 0);
  // The unique indexes of `meta` in which `doc` collides with a row other
  // than `rid`, in creation order (the _id index left out).
  Status CollidingIndexes(const CollectionMeta& meta, const bson_t* doc,
                          int64_t rid, std::vector<const IndexMeta*>* out);
  Status FindLocked(const CollectionMeta& meta, const bson_t* filter,
                    const FindOptions& options, std::vector<Document>* out,
                    std::vector<int64_t>* rowids);
  Status UpdateLocked(const CollectionMeta& meta, const bson_t* query,
                      const bson_t* update, bool multi, UpdateResult* result);
  Status DeleteLocked(const CollectionMeta& meta, const bson_t* query,
                      int64_t limit, int64_t* deleted);

  // Bulk load (bulk.cc).
  Status InsertManyLocked(const CollectionMeta& meta, const bson_t* const* docs,
                          size_t count, size_t* inserted);

  Store* store() { return store_; }
  // The process-wide writer queue (Store::writer_lock), held from a write
  // transaction's BEGIN to its end.
  bool AcquireWriter();
  void ReleaseWriter();
  // Writes the WAL frames queued by commits into the WAL file (vfs.cc).
  Status WriteOutWal();
  bool holds_writer() const { return holds_writer_; }
  sqlite3* db() { return db_; }
  bool is_counters(const CollectionMeta& meta) const;

  // Durability (durability.cc). durable: commits of this session are on
  // disk before they return (synchronous_commit on).
  void set_durable(bool durable) { durable_ = durable; }
  // At the start of a write transaction: what it changes decides whether
  // its commit needs a sync.
  void StartWriteAccounting();
  void DropPendingReservations();
  // COMMIT; *sync_ticket receives what SyncCommitted must wait for (0:
  // nothing), to be called after the write lock is released.
  Status CommitAndNote(uint64_t* sync_ticket);
  Status SyncCommitted(uint64_t ticket);
  // nextval: NextCounterById, reserving values ahead so that the commit of
  // a transaction that only advanced counters need not sync.
  Status NextCounterReserved(const std::string& id, int64_t* value);
  // An insert's autoincrement value: from the counter's live lease when
  // there is one (no counter row write, so the commit carries one page
  // less), else NextCounterValue, reserving values ahead as nextval does.
  Status NextAutoincrementValue(const CollectionMeta& meta,
                                const std::string& field, int64_t* value);
  // Moves the reservation of the live lease of `id` to kReservedValues past
  // its last value, in this write transaction; the lease follows at commit.
  Status RenewLeaseAhead(const std::string& id);
  // Records, in this write transaction, that values of `id` from `from` to
  // `upto` may be handed out without a write each.
  // After an advance of `id` to `value` that began with `changes_before`
  // SQLite changes: its reservation (the lease that follows at commit).
  Status ReserveAfterAdvance(const std::string& id, int64_t value,
                             int64_t changes_before);
  Status WriteReservation(const std::string& id, int64_t from, int64_t upto,
                          bool asc);
  Status ApplyReservationsAfterCrash();
  Status ClearReservations();
  bool durable() const { return durable_; }
  // A write transaction is open on this connection (SQLite's write lock).
  bool in_write_txn() const;
  // In a read transaction: takes the write lock (the process queue's
  // without waiting, then SQLite's) if the snapshot allows; false if not.
  bool TryUpgradeToWrite();
  // Leases (leases.cc): end the live lease of `id` (every lease for
  // EndAllCounterLeases) and write its exact last into the row, so that
  // this transaction reads and writes the true value.
  Status EndCounterLease(const std::string& id);
  Status EndAllCounterLeases();
  // The row as readers see it: last from a live lease when there is one.
  Status PeekCounterRow(const std::string& id, CounterRow* row);
  Status WriteEndedLeases(const std::vector<Durability::Ended>& ended);

 private:
  Store* store_;
  sqlite3* db_;
  CancelCheck cancel_check_;
  bool holds_writer_ = false;
  std::unordered_map<std::string, sqlite3_stmt*> statements_;
  int64_t catalog_version_ = -1;
  // Inside an explicit transaction the snapshot is fixed: the catalog is
  // read once (our own DDL refreshes it itself).
  bool catalog_checked_in_txn_ = false;
  // This session's transaction changes the catalog: the store's generation
  // counts it open until the transaction ends.
  bool catalog_change_open_ = false;
  void BeginCatalogChange();
  void EndCatalogChange();
  // The store's catalog generation at which kova_meta's version was last
  // read by this session, and that version (CatalogVersion).
  uint64_t known_catalog_generation_ = ~uint64_t{0};
  int64_t known_catalog_version_ = 0;
  std::map<std::string, CollectionMeta> collections_;
  bool explicit_txn_ = false;
  int savepoint_depth_ = 0;  // of the implicit ones used by InWrite
  // Counter values handed out by the current transaction (counter id ->
  // furthest value). Re-applied after a rollback so they are never reused.
  std::map<std::string, std::pair<std::string, int64_t>> handed_out_;
  // The same for the last values of leases this transaction ended
  // (leases.cc): kept apart, as a later value of the transaction (a
  // restarted counter) may be lower.
  std::map<std::string, std::pair<std::string, int64_t>> lease_ends_;
  // Values set by setval in the current transaction (counter id -> last),
  // re-applied after a rollback as they were: setval is not transactional.
  std::map<std::string, int64_t> set_values_;
  // Counter rows the current transaction renamed (new id -> id before: a
  // moved collection or sequence). After a rollback the row is back under
  // its old id, and a value handed out under the new one goes there.
  std::map<std::string, std::string> renamed_counters_;

 public:
  void RecordCounterRename(const std::string& id, const std::string& new_id) {
    if (explicit_txn_ && id != new_id) renamed_counters_[new_id] = id;
  }
  void RecordSetValue(const std::string& id, int64_t last) {
    handed_out_.erase(id);
    lease_ends_.erase(id);
    set_values_[id] = last;
  }

 private:
  std::unordered_map<std::string, CounterRow> counter_cache_;

  // Durability accounting of the current write transaction.
  struct PendingReservation {
    std::string id;
    bool asc;
    int64_t from, upto;
    uint64_t ticket;  // 0: written by this transaction
    int64_t last, increment;
    uint64_t epoch;
    bool extend = false;  // a renewal ahead of a live lease (upto only)
  };
  bool durable_ = true;
  int64_t changes_at_begin_ = 0;
  int64_t deferrable_changes_ = 0;  // nextval advances within reservations
  uint64_t required_ticket_ = 0;    // the commits those reservations need
  bool force_sync_ = false;
  std::vector<PendingReservation> pending_reservations_;
};

template <typename Fn>
Status SessionImpl::InWrite(Fn&& fn, bool atomic) {
  TrimStatementCache();
  EndCatalogChangeIfDone();
  if (explicit_txn_ && !atomic) {
    Status s = RefreshCatalog();
    return s.ok() ? fn() : s;
  }
  if (explicit_txn_) {
    // A failing call inside a transaction leaves no partial effect.
    std::string sp = "kova_stmt_" + std::to_string(savepoint_depth_++);
    Status s = ExecCached("SAVEPOINT " + sp);
    if (s.ok()) s = RefreshCatalog();
    if (s.ok()) s = fn();
    if (s.ok()) {
      s = ExecCached("RELEASE " + sp);
    } else {
      ForgetCounters();
      ExecCached("ROLLBACK TO " + sp);
      ExecCached("RELEASE " + sp);
      DropPendingReservations();
      collections_.clear();
      catalog_version_ = -1;
      Status r = ReapplyHandedOut();
      (void)r;
    }
    savepoint_depth_--;
    return s;
  }
  if (!AcquireWriter()) {
    return Status::Error(Code::kBusy,
                         "could not obtain a lock on the data within the "
                         "lock timeout (another writer)");
  }
  struct Release {
    SessionImpl* s;
    ~Release() {
      s->EndCatalogChangeIfDone();
      s->ReleaseWriter();
    }
  } release{this};
  Status s = ExecCached("BEGIN IMMEDIATE");
  if (!s.ok()) return s;
  StartWriteAccounting();
  s = RefreshCatalog();
  if (s.ok()) s = fn();
  if (s.ok()) {
    uint64_t sync_ticket;
    s = CommitAndNote(&sync_ticket);
    if (s.ok()) {
      handed_out_.clear();
      lease_ends_.clear();
      set_values_.clear();
      ForgetCounters();
      EndCatalogChangeIfDone();
      ReleaseWriter();
      return SyncCommitted(sync_ticket);
    }
  }
  ForgetCounters();
  ExecCached("ROLLBACK");
  pending_reservations_.clear();
  collections_.clear();
  catalog_version_ = -1;
  Status r = ReapplyHandedOut();
  (void)r;
  return s;
}

template <typename Fn>
Status SessionImpl::InRead(Fn&& fn) {
  TrimStatementCache();
  if (explicit_txn_) {
    Status s = RefreshCatalog();
    return s.ok() ? fn() : s;
  }
  Status s = ExecCached("BEGIN");
  if (!s.ok()) return s;
  s = RefreshCatalog();
  if (s.ok()) s = fn();
  ExecCached(s.ok() ? "COMMIT" : "ROLLBACK");
  return s;
}

}  // namespace kova::docstore
