// Durable commits without holding the write lock through the fsync, and
// nextval without an fsync per call.
//
// Every connection runs with PRAGMA synchronous=NORMAL: a commit appends its
// WAL frames and returns. A durable commit then fdatasyncs the WAL file here,
// after the session has released the write lock, so other writers commit
// meanwhile and one fdatasync covers every commit written before it began:
// group commit, as PostgreSQL's WAL flush does. This is what
// synchronous=FULL does, minus holding the lock: SQLite syncs the WAL itself
// before a checkpoint copies pages out of it, so a frame this code has not
// synced yet is never lost to a checkpoint.
//
// nextval: PostgreSQL logs a sequence 32 values ahead, hands the values in
// between out of shared memory and does not flush a transaction that only
// advanced sequences. Kova keeps the same promise (a value is never handed
// out twice, crash included) with reservations: a row of
// kova_counter_reserve(id, from_value, upto, asc) says how far a counter may
// have been handed out. It is written, with the counter row's last, when a
// nextval passes the last reservation, and the commit that writes it is
// synced before a durable caller gets a value from it. After that commit
// the reservation becomes a lease (leases.cc): the values up to `upto` are
// handed out from memory with no SQLite work and no write lock, and the row
// stays behind until the lease ends (renewal, clean close, or any write of
// a counter row, which first writes the exact last). A clean close writes
// every last and deletes the reservations. Opening a store that still has
// some (a crash of the process or of the machine, or a copy of a running
// store) moves each counter that stands inside its reservation to the end
// of it: the values handed out from memory were never written, so the
// counter skips what is left of the reservation, as PostgreSQL's does.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "docstore/internal.h"

namespace kova::docstore {

Durability::Durability(std::string wal_path) : wal_path_(std::move(wal_path)) {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::getline(in, boot_id_);
}

Durability::~Durability() {
  if (fd_ >= 0) close(fd_);
}

uint64_t Durability::NoteCommit() {
  std::lock_guard<std::mutex> lock(mu_);
  return ++written_;
}

Status Durability::SyncThrough(uint64_t ticket,
                               const std::function<Status()>& write_out) {
  std::unique_lock<std::mutex> lock(mu_);
  while (synced_ < ticket) {
    if (syncing_) {
      cv_.wait(lock);
      continue;
    }
    // Lead a sync: it covers every commit noted before it starts.
    syncing_ = true;
    uint64_t target = written_;
    lock.unlock();
    Status s = write_out();
    if (s.ok()) s = SyncWalFile();
    lock.lock();
    syncing_ = false;
    syncs_++;
    if (s.ok() && target > synced_) {
      synced_ = target;
      synced_seen_.store(target, std::memory_order_release);
    }
    cv_.notify_all();
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// Only the leader of a sync runs this, so fd_ needs no lock.
Status Durability::SyncWalFile() {
  // SQLite deletes the WAL when its last connection closes, after a
  // checkpoint that synced everything in it: a new one may have replaced it.
  // Asked of the VFS rather than with fstat: on Linux a file whose
  // timestamps were read gets fine-grained ones at its next write, so an
  // fstat before every sync made each commit's write change the WAL's
  // inode, and every fdatasync write the inode as well (on ext4, a third
  // disk request per commit and about 25% more commit latency).
  if (fd_ >= 0 && WalDeletions() != fd_deletions_) {
    close(fd_);
    fd_ = -1;
  }
  if (fd_ < 0) {
    fd_deletions_ = WalDeletions();
    fd_ = open(wal_path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      return Status::Error(Code::kIOError,
                           "could not open file \"" + wal_path_ +
                               "\" to sync it: " + strerror(errno));
    }
  }
  if (fdatasync(fd_) != 0) {
    return Status::Error(
        Code::kIOError,
        "could not fdatasync file \"" + wal_path_ + "\": " + strerror(errno));
  }
  return Status::OK();
}

uint64_t Durability::CoveringTicket(const std::string& id, bool asc,
                                    int64_t value, int64_t* upto) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  auto it = reserved_.find(id);
  if (it == reserved_.end() || it->second.asc != asc) return 0;
  const Reservation& r = it->second;
  bool inside = asc ? r.from <= value && value <= r.upto
                    : r.upto <= value && value <= r.from;
  *upto = r.upto;
  return inside ? r.TicketFor(value) : 0;
}

void Durability::Publish(const std::string& id, bool asc, int64_t from,
                         int64_t upto, uint64_t ticket, int64_t last,
                         int64_t increment, uint64_t epoch) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  // A counter row written since the renewal read it (by a writer that took
  // SQLite's lock between that commit and now) may have moved the counter:
  // the entry written since is newer than this one.
  if (epoch != epoch_) return;
  // The window a demand has grown carries over to the new lease.
  // (doubled when the old lease ran out while a renewal was on its way).
  auto old = reserved_.find(id);
  int64_t window = kReservedValues;
  if (old != reserved_.end()) {
    window = old->second.window;
    if (old->second.starved) window = std::min(window * 2, kMaxReservedValues);
  }
  Reservation& r = reserved_[id];
  r = Reservation{from, upto, asc, ticket, true, last, increment, upto, ticket};
  r.window = window;
}

uint64_t Durability::syncs() {
  std::lock_guard<std::mutex> lock(mu_);
  return syncs_;
}

bool Durability::any_reserved() {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  return !reserved_.empty();
}

// ---- the session's side -------------------------------------------------

void SessionImpl::StartWriteAccounting() {
  changes_at_begin_ = sqlite3_total_changes64(db_);
  deferrable_changes_ = 0;
  required_ticket_ = 0;
  force_sync_ = false;
  pending_reservations_.clear();
}

void SessionImpl::DropPendingReservations() {
  // The rows may have been rolled back with a savepoint; whatever the
  // transaction still hands out is written again as ordinary changes.
  pending_reservations_.clear();
  force_sync_ = true;
}

Status SessionImpl::CommitAndNote(uint64_t* sync_ticket) {
  *sync_ticket = 0;
  int64_t changes = sqlite3_total_changes64(db_) - changes_at_begin_;
  // A write transaction that changed no row may still have changed the
  // schema (SQLite counts rows only).
  bool wrote =
      changes > 0 || sqlite3_txn_state(db_, nullptr) == SQLITE_TXN_WRITE;
  bool wrote_reservation = false;
  for (const auto& r : pending_reservations_)
    if (r.ticket == 0) wrote_reservation = true;
  bool own_changes = force_sync_ || changes == 0 || wrote_reservation ||
                     changes != deferrable_changes_;
  Status s = ExecCached("COMMIT");
  if (!s.ok() || !wrote) return s;
  // Only a commit that wrote takes a number: a read has nothing to sync.
  Durability& durability = store_->durability();
  uint64_t ticket = durability.NoteCommit();
  // Values of a new lease go out from memory at once: its reservation
  // must be in the WAL file first (commits queue their frames, vfs.cc), so
  // that a killed process cannot lose it (if it cannot be written, the
  // values are not handed out from memory).
  if (wrote_reservation && !WriteOutWal().ok()) pending_reservations_.clear();
  for (const auto& r : pending_reservations_) {
    if (r.extend) {
      durability.ExtendLease(r.id, r.upto, ticket, r.epoch);
      continue;
    }
    durability.Publish(r.id, r.asc, r.from, r.upto,
                       r.ticket ? r.ticket : ticket, r.last, r.increment,
                       r.epoch);
  }
  pending_reservations_.clear();
  if (durable_) *sync_ticket = own_changes ? ticket : required_ticket_;
  return s;
}

Status SessionImpl::SyncCommitted(uint64_t ticket) {
  if (ticket == 0) return Status::OK();
  return store_->durability().SyncThrough(ticket,
                                          [this] { return WriteOutWal(); });
}

Status SessionImpl::NextCounterReserved(const std::string& id, int64_t* value) {
  // The row must hold the exact last before the next value is computed.
  Status s = EndCounterLease(id);
  if (!s.ok()) return s;
  int64_t before = sqlite3_total_changes64(db_);
  s = NextCounterById(id, value);
  if (!s.ok()) return s;
  return ReserveAfterAdvance(id, *value, before);
}

Status SessionImpl::NextAutoincrementValue(const CollectionMeta& meta,
                                           const std::string& field,
                                           int64_t* value) {
  std::string id = CounterId(meta.ns, field);
  Durability& durability = store_->durability();
  uint64_t ticket;
  bool renew_ahead;
  // Under the writer lock, like every writer of a counter row, so no edit
  // of the row can come between the lease and this insert.
  if (durability.TakeNext(id, value, &ticket, &renew_ahead)) {
    // The insert's own commit is synced (when durable) and comes after the
    // reservation's, so one sync covers both; a transaction whose only
    // other change is deferrable still waits for the reservation.
    if (ticket > required_ticket_) required_ticket_ = ticket;
    // In this transaction, as the lease is renewed under the write lock.
    // A failed or rolled back renewal leaves the lease to run to its end;
    // the insert that finds it used up reserves again below.
    return renew_ahead ? RenewLeaseAhead(id) : Status::OK();
  }
  Status s = EndCounterLease(id);
  if (!s.ok()) return s;
  int64_t before = sqlite3_total_changes64(db_);
  s = NextCounterValue(meta, field, value);
  if (!s.ok()) return s;
  return ReserveAfterAdvance(id, *value, before);
}

Status SessionImpl::ReserveAfterAdvance(const std::string& id, int64_t value,
                                        int64_t changes_before) {
  auto cached = counter_cache_.find(id);
  // Only a plain advance of an existing, non-cycling row can be covered:
  // a recreated row or a wrap-around is synced with its commit.
  if (cached == counter_cache_.end() || cached->second.cycle ||
      sqlite3_total_changes64(db_) - changes_before != 1)
    return Status::OK();
  const CounterRow& row = cached->second;
  const bool asc = row.increment > 0;
  Durability& durability = store_->durability();
  // Read under SQLite's write lock: every writer of a counter row ends the
  // leases (advancing it) under that lock too.
  const uint64_t epoch = durability.epoch();
  int64_t upto;
  uint64_t ticket = durability.CoveringTicket(id, asc, value, &upto);
  deferrable_changes_ += 1;
  if (ticket != 0) {
    if (ticket > required_ticket_) required_ticket_ = ticket;
    // The rest of that reservation becomes the lease, within the row's
    // bounds (they may have changed since it was written).
    if (asc ? upto > row.max : upto < row.min) upto = asc ? row.max : row.min;
    pending_reservations_.push_back(
        {id, asc, value, upto, ticket, value, row.increment, epoch});
    return Status::OK();
  }
  if (__builtin_mul_overflow(row.increment, kReservedValues - 1, &upto) ||
      __builtin_add_overflow(value, upto, &upto)) {
    upto = asc ? row.max : row.min;
  }
  if (asc ? upto > row.max : upto < row.min) upto = asc ? row.max : row.min;
  Status s = WriteReservation(id, value, upto, asc);
  if (s.ok()) {
    pending_reservations_.push_back(
        {id, asc, value, upto, 0, value, row.increment, epoch});
  }
  return s;
}

Status SessionImpl::WriteReservation(const std::string& id, int64_t from,
                                     int64_t upto, bool asc) {
  sqlite3_stmt* raw;
  Status s = Prepare(
      "INSERT OR REPLACE INTO kova_counter_reserve"
      "(id, from_value, upto, asc, boot) VALUES(?1, ?2, ?3, ?4, ?5)",
      &raw);
  if (!s.ok()) return s;
  StmtHandle stmt(raw);
  const std::string& boot = store_->durability().boot_id();
  sqlite3_bind_text(raw, 1, id.data(), static_cast<int>(id.size()),
                    SQLITE_STATIC);
  sqlite3_bind_int64(raw, 2, from);
  sqlite3_bind_int64(raw, 3, upto);
  sqlite3_bind_int(raw, 4, asc ? 1 : 0);
  sqlite3_bind_text(raw, 5, boot.data(), static_cast<int>(boot.size()),
                    SQLITE_STATIC);
  int rc;
  return Step(raw, &rc);
}

// ---- opening and closing --------------------------------------------------

// Reservations left in the file mean the last process did not close the
// store: values up to each reservation may have been handed out from a
// lease without being written (and, after a crash of the machine, the
// commits recording them lost), whatever the boot id says.
Status SessionImpl::ApplyReservationsAfterCrash() {
  struct Left {
    std::string id;
    int64_t from, upto;
    bool asc;
  };
  std::vector<Left> left;
  bool any = false;
  {
    sqlite3_stmt* raw;
    Status s = Prepare(
        "SELECT id, from_value, upto, asc FROM kova_counter_reserve", &raw);
    if (!s.ok()) return s;
    StmtHandle stmt(raw);
    int rc;
    while ((s = Step(raw, &rc)).ok() && rc == SQLITE_ROW) {
      any = true;
      left.push_back(
          {reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)),
           sqlite3_column_int64(raw, 1), sqlite3_column_int64(raw, 2),
           sqlite3_column_int(raw, 3) != 0});
    }
    if (!s.ok()) return s;
  }
  if (!any) return Status::OK();
  return InWrite([&] {
    for (const Left& l : left) {
      CounterRow row;
      Status s = LoadCounterRow(l.id, &row);
      if (!s.ok()) return s;
      if (!row.exists || row.cycle || (row.increment > 0) != l.asc) continue;
      // Inside the reservation: the counter was advancing through it. A
      // value outside was set afterwards (setval, an edit, a sent value),
      // and stays.
      bool inside =
          row.last && (l.asc ? l.from <= *row.last && *row.last < l.upto
                             : l.upto < *row.last && *row.last <= l.from);
      if (inside) {
        s = StoreCounterLast(l.id, row, l.upto);
        if (!s.ok()) return s;
      }
    }
    return Exec("DELETE FROM kova_counter_reserve");
  });
}

Status SessionImpl::ClearReservations() {
  return InWrite([&] {
    force_sync_ = true;
    // The leases' values go into the rows: a clean close keeps them exact.
    Status s = EndAllCounterLeases();
    return s.ok() ? Exec("DELETE FROM kova_counter_reserve") : s;
  });
}

}  // namespace kova::docstore
