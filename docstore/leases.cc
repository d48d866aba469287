// Counter leases: nextval without SQLite work or the write lock.
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
#include <cstring>

#include "docstore/internal.h"

namespace kova::docstore {

// ---- Durability: the lease table -------------------------------------------

bool Durability::TakeNext(const std::string& id, int64_t* value,
                          uint64_t* ticket) {
  std::lock_guard<std::mutex> lock(reserve_mu_);
  auto it = reserved_.find(id);
  if (it == reserved_.end() || !it->second.live) return false;
  Reservation& r = it->second;
  int64_t next;
  if (__builtin_add_overflow(r.last, r.increment, &next)) return false;
  if (r.asc ? next > r.upto : next < r.upto) return false;
  r.last = next;
  *value = next;
  *ticket = r.ticket;
  return true;
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
    ended->push_back({key, r.last, r.ticket});
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
  if (durability.TakeNext(key, value, &ticket)) {
    // synchronous_commit on: the reservation must be on disk first.
    if (!impl_->durable() || durability.Synced(ticket)) return Status::OK();
    return durability.SyncThrough(ticket,
                                  [this] { return impl_->WriteOutWal(); });
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
