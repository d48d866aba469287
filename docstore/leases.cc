// Counter leases: nextval without SQLite work or the write lock, and an
// insert's autoincrement value without a write of the counter row (taken
// under the write lock the insert holds anyway: NextAutoincrementValue in
// durability.cc).
//
// Once the commit that wrote a counter's reservation (durability.cc) has
// returned, the values up to the reservation's end are handed out from
// memory under reserve_mu_, as PostgreSQL hands out a sequence's logged
// values from shared memory. The admin.counters row then lags behind:
//  - readers overlay the lease's last (kova_counter_doc in SQL, and
//    PeekCounterRow), as sequences are not transactional;
//  - every writer of a counter row first ends the lease under SQLite's
//    write lock and writes the exact last into the row in its own
//    transaction (recorded as handed out, so a rollback puts it back), so
//    it reads and edits the true value and a nextval after it starts from
//    what it wrote;
//  - a renewal publishes its lease only if no writer ended leases since it
//    read the row (the epoch), so a lease never outlives an edit.
// A lease is renewed ahead: the call that finds fewer than half a window
// left moves the reservation (not the row) to a window past the lease's
// last value in a commit of its own, and the lease grows once that commit
// is in the WAL file, while the other sessions go on taking values from
// it. Sessions do not queue behind a renewal unless the lease runs out
// before it commits; when they use up half the window meanwhile, the
// window doubles (up to kMaxReservedValues; see internal.h). A session
// that has the lease to itself renews at its last value instead. The row's
// last stays where the lease began, inside the reservation, so a crash
// still moves the counter to the reservation's end (at most a window past
// the last value handed out); the values past the old end are durable
// with the renewal's commit.
#include <algorithm>
#include <cstring>

#include "docstore/internal.h"

namespace kova::docstore {

// ---- Durability: the lease table -------------------------------------------

namespace {

// Fewer than half a window of values is left after `last`.
bool NearEnd(int64_t last, int64_t upto, int64_t increment, int64_t window) {
  __int128 left = static_cast<__int128>(upto) - last;
  return left * (increment > 0 ? 1 : -1) <
         static_cast<__int128>(increment > 0 ? increment : -increment) *
             (window / 2);
}

// Values from `from` to `to` (in the counter's direction).
__int128 ValuesBetween(int64_t from, int64_t to, int64_t increment) {
  return (static_cast<__int128>(to) - from) / increment;
}

}  // namespace

bool Durability::TakeNext(const std::string& id, int64_t* value,
                          uint64_t* ticket, bool* renew_ahead) {
  *renew_ahead = false;
  std::lock_guard<std::mutex> lock(reserve_mu_);
  auto it = reserved_.find(id);
  if (it == reserved_.end() || !it->second.live) return false;
  Reservation& r = it->second;
  int64_t next;
  if (__builtin_add_overflow(r.last, r.increment, &next) ||
      (r.asc ? next > r.upto : next < r.upto)) {
    if (r.renewing) r.starved = true;
    return false;
  }
  r.last = next;
  *value = next;
  *ticket = r.TicketFor(next);
  if (!r.renewing &&
      NearEnd(next, r.upto, r.increment, r.solo ? 2 : r.window)) {
    r.renewing = true;
    r.renew_started_at = next;
    r.starved = false;
    *renew_ahead = true;
  }
  return true;
}

bool Durability::LeaseToRenew(const std::string& id, LeaseView* view) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  auto it = reserved_.find(id);
  if (it == reserved_.end() || !it->second.live) return false;
  const Reservation& r = it->second;
  if (!NearEnd(r.last, r.upto, r.increment, r.solo ? 2 : r.window))
    return false;
  *view = LeaseView{r.from, r.upto, r.last, r.increment, r.window, r.asc};
  return true;
}

void Durability::ExtendLease(const std::string& id, int64_t upto,
                             uint64_t ticket, uint64_t epoch) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  if (epoch != epoch_) return;
  auto it = reserved_.find(id);
  if (it == reserved_.end() || !it->second.live) return;
  Reservation& r = it->second;
  // Values up to the old end keep what covered them (an earlier renewal
  // ahead included); the new ones need this commit.
  r.ticket = std::max(r.ticket, r.ahead_ticket);
  r.ticket_upto = r.upto;
  r.ahead_ticket = ticket;
  r.upto = upto;
  r.renewing = false;
  // Demand: the sessions took a quarter of the window (half of what was
  // left) while this renewal was on its way, or ran out: the next renewal
  // reserves twice as many. Little taken: half as many, down to the start.
  __int128 taken = ValuesBetween(r.renew_started_at, r.last, r.increment);
  if (r.starved || taken * 4 >= r.window) {
    r.window = std::min(r.window * 2, kMaxReservedValues);
  } else if (taken * 16 < r.window && r.window > kReservedValues) {
    r.window /= 2;
  }
  r.solo = taken == 0 && !r.starved;
  r.starved = false;
}

bool Durability::LiveLast(const std::string& id, int64_t* last) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  auto it = reserved_.find(id);
  if (it == reserved_.end() || !it->second.live) return false;
  *last = it->second.last;
  return true;
}

bool Durability::LiveCovers(const std::string& id, int64_t value) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  auto it = reserved_.find(id);
  if (it == reserved_.end() || !it->second.live) return false;
  const Reservation& r = it->second;
  return r.asc ? value <= r.last : value >= r.last;
}

void Durability::EndLeases(const std::string* id, std::vector<Ended>* ended) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  epoch_++;
  auto end = [&](const std::string& key, Reservation& r) {
    if (!r.live) return;
    r.live = false;
    ended->push_back({key, r.last, r.TicketFor(r.last)});
  };
  if (id) {
    auto it = reserved_.find(*id);
    if (it != reserved_.end()) end(it->first, it->second);
    return;
  }
  for (auto& [key, r] : reserved_) end(key, r);
}

uint64_t Durability::epoch() {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  return epoch_;
}

// ---- the session's side -----------------------------------------------------

bool SessionImpl::in_write_txn() const {
  return holds_writer_ || sqlite3_txn_state(db_, "main") == SQLITE_TXN_WRITE;
}

namespace {

// Ending a lease must happen under SQLite's write lock, or a renewal could
// read the row and publish between the end and this transaction's write.
// A transaction begun deferred takes the lock with a write that changes
// nothing.
Status TakeWriteLock(SessionImpl* session) {
  if (sqlite3_get_autocommit(session->db()) ||
      sqlite3_txn_state(session->db(), "main") == SQLITE_TXN_WRITE)
    return Status::OK();
  return session->Exec(
      "UPDATE kova_meta SET value = value WHERE key = 'catalog_version'");
}

}  // namespace

bool SessionImpl::TryUpgradeToWrite() {
  if (!store_->writer_lock().try_lock()) return false;
  holds_writer_ = true;
  // Fails (SQLITE_BUSY_SNAPSHOT) when another connection committed since
  // this transaction's snapshot; the transaction stays as it was.
  if (Exec("UPDATE kova_meta SET value = value WHERE key = "
           "'catalog_version'")
          .ok()) {
    deferrable_changes_ += 1;  // changes nothing: no sync of its own
    return true;
  }
  ReleaseWriter();
  return false;
}

Status SessionImpl::WriteEndedLeases(
    const std::vector<Durability::Ended>& ended) {
  for (const auto& e : ended) {
    CounterRow row;
    Status s = LoadCounterRow(e.id, &row, /*end_lease=*/false);
    if (!s.ok()) return s;
    if (!row.exists) continue;
    if (row.last != e.last) {
      s = StoreCounterLast(e.id, row, e.last);
      if (!s.ok()) return s;
      // The value was handed out under the lease's reservation: this write
      // needs no sync beyond that reservation's.
      deferrable_changes_ += 1;
      if (e.ticket > required_ticket_) required_ticket_ = e.ticket;
    }
    // Handed out: a rollback of this transaction must not take it back.
    auto it = lease_ends_.find(e.id);
    bool asc = row.increment > 0;
    if (it == lease_ends_.end()) {
      lease_ends_[e.id] = {row.collection, e.last};
    } else if (asc ? it->second.second < e.last : it->second.second > e.last) {
      it->second.second = e.last;
    }
  }
  return Status::OK();
}

Status SessionImpl::EndCounterLease(const std::string& id) {
  Status s = TakeWriteLock(this);
  if (!s.ok()) return s;
  std::vector<Durability::Ended> ended;
  store_->durability().EndLeases(&id, &ended);
  return WriteEndedLeases(ended);
}

Status SessionImpl::EndAllCounterLeases() {
  Status s = TakeWriteLock(this);
  if (!s.ok()) return s;
  std::vector<Durability::Ended> ended;
  store_->durability().EndLeases(nullptr, &ended);
  return WriteEndedLeases(ended);
}

Status SessionImpl::RenewLeaseAhead(const std::string& id) {
  // Under SQLite's write lock (the caller's write transaction): no writer
  // ends the lease until this transaction has committed and extended it.
  Status s = TakeWriteLock(this);
  if (!s.ok()) return s;
  Durability& durability = store_->durability();
  const uint64_t epoch = durability.epoch();
  Durability::LeaseView lease;
  // Ended, replaced by a fresh one, or already renewed: nothing to do.
  if (!durability.LeaseToRenew(id, &lease)) return Status::OK();
  CounterRow row;
  s = LoadCounterRow(id, &row, /*end_lease=*/false);
  if (!s.ok()) return s;
  // While a lease is live its row keeps the value the lease began with:
  // the start of the reservation written here, so that a crash moves the
  // counter to the reservation's end.
  if (!row.exists || row.cycle || (row.increment > 0) != lease.asc ||
      row.last != lease.from)
    return Status::OK();
  const int64_t bound = lease.asc ? row.max : row.min;
  int64_t upto;
  if (__builtin_mul_overflow(lease.increment, lease.window, &upto) ||
      __builtin_add_overflow(lease.last, upto, &upto))
    upto = bound;
  if (lease.asc ? upto > bound : upto < bound) upto = bound;
  // At the counter's bound already: the lease runs to its end.
  if (lease.asc ? upto <= lease.upto : upto >= lease.upto) return Status::OK();
  s = WriteReservation(id, lease.from, upto, lease.asc);
  if (s.ok()) {
    pending_reservations_.push_back({id, lease.asc, lease.from, upto, 0,
                                     lease.last, lease.increment, epoch,
                                     /*extend=*/true});
  }
  return s;
}

Status SessionImpl::PeekCounterRow(const std::string& id, CounterRow* row) {
  Status s = LoadCounterRow(id, row, /*end_lease=*/false);
  int64_t last;
  if (s.ok() && row->exists && store_->durability().LiveLast(id, &last))
    row->last = last;
  return s;
}

// kova_counter_doc(kid, doc): an admin.counters row as readers see it, with
// the last value of a live lease.
void CounterDocFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* durability = static_cast<Durability*>(sqlite3_user_data(ctx));
  int64_t last;
  if (sqlite3_value_type(argv[0]) == SQLITE_TEXT &&
      sqlite3_value_type(argv[1]) == SQLITE_BLOB) {
    std::string id(reinterpret_cast<const char*>(sqlite3_value_text(argv[0])),
                   sqlite3_value_bytes(argv[0]));
    bson_t doc;
    if (durability->LiveLast(id, &last) &&
        bson_init_static(
            &doc, static_cast<const uint8_t*>(sqlite3_value_blob(argv[1])),
            sqlite3_value_bytes(argv[1]))) {
      bson_t* out = CounterDocWithLast(&doc, last);
      sqlite3_result_blob(ctx, bson_get_data(out), static_cast<int>(out->len),
                          SQLITE_TRANSIENT);
      bson_destroy(out);
      return;
    }
  }
  sqlite3_result_value(ctx, argv[1]);
}

int RegisterCounterFunctions(sqlite3* db, Durability* durability) {
  // Not deterministic: the same row reads differently as values go out.
  return sqlite3_create_function(db, "kova_counter_doc", 2, SQLITE_UTF8,
                                 durability, CounterDocFunction, nullptr,
                                 nullptr);
}

// ---- the API ----------------------------------------------------------------

Status Session::NextCounter(std::string_view id, int64_t* value) {
  std::string key(id);
  Durability& durability = impl_->store()->durability();
  uint64_t ticket;
  bool renew_ahead;
  if (durability.TakeNext(key, value, &ticket, &renew_ahead)) {
    // synchronous_commit on: the reservation must be on disk first.
    Status s = Status::OK();
    if (impl_->durable() && !durability.Synced(ticket))
      s = durability.SyncThrough(ticket,
                                 [this] { return impl_->WriteOutWal(); });
    if (renew_ahead) {
      // A failed renewal changes nothing: the lease runs to its end and the
      // call that finds it used up renews it as before.
      if (!impl_->explicit_txn()) {
        impl_->InWrite([&] { return impl_->RenewLeaseAhead(key); });
      } else if (!impl_->in_write_txn()) {
        // A read transaction: the renewal commits on its own, on the
        // store's renewing session (this snapshot may be too old to write
        // in). A write transaction skips it: it holds the writer lock that
        // session would wait for, and its commit is the user's.
        std::lock_guard<std::mutex> lock(durability.renew_mu());
        std::unique_ptr<Session>& renew = durability.renew_session();
        if (renew || impl_->store()->NewSession(&renew).ok()) {
          renew->impl_->set_durable(impl_->durable());
          renew->impl_->InWrite(
              [&] { return renew->impl_->RenewLeaseAhead(key); });
        }
      }
    }
    return s;
  }
  if (impl_->explicit_txn() && !impl_->in_write_txn()) {
    // A read transaction. When no other writer is at work, it becomes the
    // write transaction that renews (as a write after it would need, and
    // an ON COMMIT action of a temporary table does).
    if (impl_->TryUpgradeToWrite()) {
      return impl_->InWrite(
          [&] { return impl_->NextCounterReserved(key, value); },
          /*atomic=*/false);
    }
    // Otherwise its snapshot may be too old to write in, and the value
    // must not depend on it anyway: renew on the store's session.
    std::lock_guard<std::mutex> lock(durability.renew_mu());
    std::unique_ptr<Session>& renew = durability.renew_session();
    if (!renew) {
      Status s = impl_->store()->NewSession(&renew);
      if (!s.ok()) return s;
    }
    renew->impl_->set_durable(impl_->durable());
    return renew->NextCounter(id, value);
  }
  // Not atomic: the value stays handed out even if something after it in
  // the same statement fails.
  return impl_->InWrite([&] { return impl_->NextCounterReserved(key, value); },
                        /*atomic=*/false);
}

Status Session::SettleCounters() {
  return impl_->InWrite([&] { return impl_->EndAllCounterLeases(); });
}

}  // namespace kova::docstore
