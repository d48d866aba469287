// The data directory: lock, SQLite file, schema bootstrap, sessions.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

constexpr int kFormatVersion = 1;

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS kova_meta(key TEXT PRIMARY KEY, value INTEGER);
CREATE TABLE IF NOT EXISTS kova_databases(name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS kova_collections(
  ns TEXT PRIMARY KEY, db TEXT NOT NULL, name TEXT NOT NULL,
  tbl TEXT NOT NULL, autoinc BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS kova_indexes(
  ns TEXT NOT NULL, name TEXT NOT NULL, keys BLOB NOT NULL,
  is_unique INTEGER NOT NULL, sqlite_name TEXT NOT NULL,
  nulls_distinct INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(ns, name));
CREATE TABLE IF NOT EXISTS kova_counter_reserve(
  id TEXT PRIMARY KEY, from_value INTEGER NOT NULL, upto INTEGER NOT NULL,
  asc INTEGER NOT NULL, boot TEXT NOT NULL);
INSERT OR IGNORE INTO kova_meta VALUES('catalog_version', 1);
)sql";

std::string DataFile(const std::string& dir) { return dir + "/kova.db"; }

// `checkpointer`: where commits that grow the WAL ask for a checkpoint
// (null: SQLite's own automatic checkpoint in the committing session).
Status OpenConnection(const std::string& dir, const StoreOptions& options,
                      Checkpointer* checkpointer, sqlite3** out) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      DataFile(dir).c_str(), &db,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
      KovaVfsName());
  if (rc != SQLITE_OK) {
    Status s = Status::Error(Code::kIOError,
                             "cannot open data file in \"" + dir +
                                 "\": " + (db ? sqlite3_errmsg(db) : "?"));
    sqlite3_close(db);
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, options.busy_timeout_ms);
  RegisterFunctions(db);
  // NORMAL: a commit does not sync the WAL; durable commits sync it
  // themselves (durability.cc), after releasing the write lock.
  // No mmap_size: reading pages in place saved a point query 7% of its
  // instructions, but a read transaction that finds the database changed
  // unmaps the file (pager_reset), and with many sessions in one process
  // those munmaps cost more than the copies (8 clients of nextval: 36k ->
  // 13k tps).
  std::string pragmas =
      "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;"
      "PRAGMA foreign_keys=OFF;";
  char* err = nullptr;
  rc = sqlite3_exec(db, pragmas.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    Status s = Status::Error(
        rc == SQLITE_NOTADB ? Code::kCorruption : Code::kIOError,
        "cannot open data file in \"" + dir + "\": " + (err ? err : "?"));
    sqlite3_free(err);
    sqlite3_close(db);
    return s;
  }
  if (checkpointer) sqlite3_wal_hook(db, Checkpointer::WalHook, checkpointer);
  *out = db;
  return Status::OK();
}

}  // namespace

Store::Store(std::string dir, StoreOptions options, int lock_fd)
    : dir_(std::move(dir)),
      options_(options),
      lock_fd_(lock_fd),
      durability_(std::make_unique<Durability>(DataFile(dir_) + "-wal")) {}

Store::~Store() {
  // The last connection to close checkpoints.
  CheckpointReads uncached;
  checkpointer_.reset();
  durability_->renew_session().reset();
  // A clean close: the counters are exact, their reservations can go.
  if (durability_->any_reserved()) {
    std::unique_ptr<Session> session;
    if (NewSession(&session).ok()) session->impl_->ClearReservations();
  }
  if (lock_fd_ >= 0) close(lock_fd_);  // releases the flock
}

Status Store::Open(const std::string& dir, const StoreOptions& options,
                   std::unique_ptr<Store>* store) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    if (!options.create_if_missing) {
      return Status::Error(Code::kIOError,
                           "data directory \"" + dir + "\" does not exist");
    }
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      return Status::Error(Code::kIOError, "cannot create data directory \"" +
                                               dir + "\": " + ec.message());
    }
  } else if (!std::filesystem::is_directory(dir, ec)) {
    return Status::Error(Code::kIOError, "\"" + dir + "\" is not a directory");
  }
  std::string lock_path = dir + "/LOCK";
  int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::Error(
        Code::kIOError,
        "cannot open lock file \"" + lock_path + "\": " + strerror(errno));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    char buf[32] = {0};
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    std::string pid = n > 0 ? std::string(buf, n) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    close(fd);
    return Status::Error(Code::kLocked,
                         "data directory \"" + dir +
                             "\" is in use by another Kova process" +
                             (pid.empty() ? "" : " (pid " + pid + ")"));
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) !=
                                   static_cast<ssize_t>(pid.size())) {
    close(fd);
    return Status::Error(Code::kIOError,
                         "cannot write lock file \"" + lock_path + "\"");
  }
  std::unique_ptr<Store> s(new Store(dir, options, fd));

  // Bootstrap the schema and admin.counters once.
  std::unique_ptr<Session> session;
  Status st = s->NewSession(&session);
  if (!st.ok()) return st;
  SessionImpl* impl = nullptr;
  {
    sqlite3* db = session->connection();
    char* err = nullptr;
    std::string sql = std::string("BEGIN IMMEDIATE;") + kSchema;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      Status e = Status::Error(
          Code::kIOError,
          std::string("cannot initialise data file: ") + (err ? err : "?"));
      sqlite3_free(err);
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return e;
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT value FROM kova_meta WHERE key='format_version'",
                       -1, &stmt, nullptr);
    if (sqlite3_step(stmt) == SQLITE_ROW &&
        sqlite3_column_int(stmt, 0) != kFormatVersion) {
      int found = sqlite3_column_int(stmt, 0);
      sqlite3_finalize(stmt);
      return Status::Error(Code::kCorruption,
                           "data directory \"" + dir + "\" has format " +
                               std::to_string(found) + ", this Kova reads " +
                               std::to_string(kFormatVersion));
    }
    sqlite3_finalize(stmt);
  }
  (void)impl;
  st = session->CreateCollection(kAdminDb, kCountersCollection, {});
  if (!st.ok() && st.code() != Code::kNamespaceExists) return st;
  st = session->impl_->ApplyReservationsAfterCrash();
  if (!st.ok()) return st;
  sqlite3_exec(session->connection(),
               ("INSERT OR IGNORE INTO kova_meta VALUES('format_version', " +
                std::to_string(kFormatVersion) + ")")
                   .c_str(),
               nullptr, nullptr, nullptr);
  session.reset();
  sqlite3* checkpoint_db = nullptr;
  st = OpenConnection(dir, options, nullptr, &checkpoint_db);
  if (!st.ok()) return st;
  s->checkpointer_ = std::make_unique<Checkpointer>(checkpoint_db, &s->writer_);
  *store = std::move(s);
  return Status::OK();
}

Status Store::NewSession(std::unique_ptr<Session>* session) {
  sqlite3* db = nullptr;
  Status s = OpenConnection(dir_, options_, checkpointer_.get(), &db);
  if (!s.ok()) return s;
  RegisterCounterFunctions(db, durability_.get());
  auto impl = std::make_unique<SessionImpl>(this, db);
  RegisterKeyFunction(db, impl->cancel_check());
  impl->set_durable(options_.synchronous_full);
  session->reset(new Session(std::move(impl)));
  return Status::OK();
}

// ---- SessionImpl basics -------------------------------------------------

SessionImpl::~SessionImpl() {
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  if (explicit_txn_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  EndCatalogChangeIfDone();
  ReleaseWriter();
  sqlite3_close_v2(db_);
}

Status SessionImpl::Prepare(const std::string& sql, sqlite3_stmt** stmt) {
  auto it = statements_.find(sql);
  if (it != statements_.end()) {
    *stmt = it->second;
    return Status::OK();
  }
  int rc = sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                              stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db_, rc, "prepare");
  statements_.emplace(sql, *stmt);
  return Status::OK();
}

Status SessionImpl::Exec(const std::string& sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) return SqliteError(db_, rc, sql);
  return Status::OK();
}

void SessionImpl::TrimStatementCache() {
  // Statements built from filters vary without limit; drop them all at a
  // point where no caller holds one (the start of a top-level call).
  if (statements_.size() <= 512 || savepoint_depth_ > 0) return;
  for (auto& [text, stmt] : statements_) sqlite3_finalize(stmt);
  statements_.clear();
}

Status SessionImpl::ExecCached(const std::string& sql) {
  sqlite3_stmt* raw;
  Status s = Prepare(sql, &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  int rc = sqlite3_step(raw);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return SqliteError(db_, rc, sql);
  return Status::OK();
}

Status SessionImpl::Step(sqlite3_stmt* stmt, int* rc) {
  *rc = sqlite3_step(stmt);
  if (*rc == SQLITE_ROW || *rc == SQLITE_DONE) return Status::OK();
  return SqliteError(db_, *rc, "step");
}

bool SessionImpl::AcquireWriter() {
  if (holds_writer_) return true;
  if (Checkpointer* checkpointer = store_->checkpointer())
    checkpointer->YieldToLockedPass();
  holds_writer_ = store_->writer_lock().try_lock_for(
      std::chrono::milliseconds(store_->options().busy_timeout_ms));
  return holds_writer_;
}

void SessionImpl::ReleaseWriter() {
  if (!holds_writer_) return;
  holds_writer_ = false;
  store_->writer_lock().unlock();
  // The commit's frames were queued under the lock; writing them now lets
  // the next writer work meanwhile. A failed write stops the process.
  WriteOutWal();
}

Status SessionImpl::WriteOutWal() {
  int rc = sqlite3_file_control(db_, "main", kDrainWalOp, nullptr);
  if (rc == SQLITE_OK || rc == SQLITE_NOTFOUND) return Status::OK();
  return SqliteError(db_, rc, "writing the WAL");
}

Status SessionImpl::Begin(bool immediate) {
  EndCatalogChangeIfDone();
  if (explicit_txn_) {
    return Status::Error(Code::kIllegalOperation,
                         "there is already a transaction in progress");
  }
  if (immediate && !AcquireWriter()) {
    return Status::Error(Code::kBusy,
                         "could not obtain a lock on the data within the "
                         "lock timeout (another writer)");
  }
  Status s = ExecCached(immediate ? "BEGIN IMMEDIATE" : "BEGIN");
  if (s.ok()) {
    StartWriteAccounting();
    explicit_txn_ = true;
    catalog_checked_in_txn_ = false;
  } else {
    ReleaseWriter();
  }
  return s;
}

Status SessionImpl::Commit() {
  ForgetCounters();
  if (!explicit_txn_) {
    return Status::Error(Code::kIllegalOperation,
                         "there is no transaction in progress");
  }
  uint64_t sync_ticket;
  Status s = CommitAndNote(&sync_ticket);
  if (!s.ok()) {
    // A failed commit (e.g. disk full) leaves nothing applied.
    Exec("ROLLBACK");
    pending_reservations_.clear();
    explicit_txn_ = false;
    collections_.clear();
    catalog_version_ = -1;
    ReapplyHandedOut();
    EndCatalogChangeIfDone();
    ReleaseWriter();
    return s;
  }
  explicit_txn_ = false;
  handed_out_.clear();
  lease_ends_.clear();
  set_values_.clear();
  renamed_counters_.clear();
  EndCatalogChangeIfDone();
  ReleaseWriter();
  return SyncCommitted(sync_ticket);
}

Status SessionImpl::Rollback() {
  ForgetCounters();
  if (!explicit_txn_) {
    return Status::Error(Code::kIllegalOperation,
                         "there is no transaction in progress");
  }
  Status s = Exec("ROLLBACK");
  pending_reservations_.clear();
  explicit_txn_ = false;
  collections_.clear();
  catalog_version_ = -1;
  Status r = ReapplyHandedOut();
  EndCatalogChangeIfDone();
  ReleaseWriter();
  return s.ok() ? r : s;
}

Status SessionImpl::Savepoint(std::string_view name) {
  if (!explicit_txn_) {
    return Status::Error(Code::kIllegalOperation,
                         "savepoints can only be used in transaction blocks");
  }
  return Exec("SAVEPOINT " + QuoteIdent(name));
}

Status SessionImpl::ReleaseSavepoint(std::string_view name) {
  if (!explicit_txn_) {
    return Status::Error(Code::kIllegalOperation,
                         "savepoints can only be used in transaction blocks");
  }
  return Exec("RELEASE " + QuoteIdent(name));
}

Status SessionImpl::RollbackToSavepoint(std::string_view name) {
  ForgetCounters();
  if (!explicit_txn_) {
    return Status::Error(Code::kIllegalOperation,
                         "savepoints can only be used in transaction blocks");
  }
  Status s = Exec("ROLLBACK TO " + QuoteIdent(name));
  DropPendingReservations();
  collections_.clear();
  catalog_version_ = -1;
  if (!s.ok()) return s;
  return ReapplyHandedOut();
}

bool SessionImpl::is_counters(const CollectionMeta& meta) const {
  return meta.db == kAdminDb && meta.name == kCountersCollection;
}

}  // namespace kova::docstore
