// Advisory locks (pg_advisory_lock and its family): application-defined
// locks on numbers, held by a session until it unlocks them or ends
// (session level), or until its transaction ends (transaction level), as in
// PostgreSQL. Migration tools (Prisma, Rails, Flyway, golang-migrate) take
// one so that only one of several processes migrates a database.
//
// One table per server process: all sessions of this process are all the
// sessions there are. Keys are per database, and the one-bigint and the
// two-int forms name different locks, as PostgreSQL's lock tags do.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {
namespace {

struct LockKey {
  std::string database;
  int64_t key;
  bool pair;  // from (int, int)
  bool operator<(const LockKey& o) const {
    return std::tie(database, key, pair) < std::tie(o.database, o.key, o.pair);
  }
};

// One session's holds on one key: counts per mode and level (a session
// may take the same lock several times; each take needs its unlock).
struct Hold {
  int exclusive_session = 0, shared_session = 0;
  int exclusive_xact = 0, shared_xact = 0;
  bool exclusive() const { return exclusive_session + exclusive_xact > 0; }
  bool any() const { return exclusive() || shared_session + shared_xact > 0; }
};

class LockTable {
 public:
  static LockTable& Get() {
    static LockTable* table = new LockTable();  // lives as long as sessions
    return *table;
  }

  // Whether `owner` could take the lock now.
  bool Grantable(const LockKey& k, const void* owner, bool exclusive) {
    auto it = locks_.find(k);
    if (it == locks_.end()) return true;
    for (const auto& [other, hold] : it->second) {
      if (other == owner) continue;
      if (hold.exclusive() || (exclusive && hold.any())) return false;
    }
    return true;
  }

  // True when `owner`, waiting for `k`, would wait for itself through the
  // sessions holding it (a deadlock).
  bool WouldDeadlock(const LockKey& k, const void* owner, bool exclusive) {
    std::set<const void*> seen;
    std::vector<std::pair<LockKey, bool>> frontier = {{k, exclusive}};
    while (!frontier.empty()) {
      auto [key, excl] = frontier.back();
      frontier.pop_back();
      auto it = locks_.find(key);
      if (it == locks_.end()) continue;
      for (const auto& [holder, hold] : it->second) {
        if (holder == owner) {
          if (key.database != k.database || key.key != k.key ||
              key.pair != k.pair)
            return true;
          continue;
        }
        if (!(hold.exclusive() || (excl && hold.any()))) continue;
        if (!seen.insert(holder).second) continue;
        auto w = waiting_.find(holder);
        if (w != waiting_.end()) frontier.push_back(w->second);
      }
    }
    return false;
  }

  std::mutex mu;
  std::condition_variable released;
  std::map<LockKey, std::map<const void*, Hold>> locks_;
  std::map<const void*, std::pair<LockKey, bool>> waiting_;
};

LockKey KeyOf(const std::string& database, const std::vector<Value>& args) {
  if (args.size() == 2) {
    // Two int4 keys: PostgreSQL keeps them apart from the bigint space.
    int64_t hi = std::stoll(*args[0]), lo = std::stoll(*args[1]);
    return {database,
            static_cast<int64_t>((static_cast<uint64_t>(hi) << 32) |
                                 static_cast<uint32_t>(lo)),
            true};
  }
  return {database, std::stoll(*args[0]), false};
}

}  // namespace

namespace expr_detail {
bool IsAdvisoryLockFunction(const std::string& name) {
  return name.rfind("pg_advisory_", 0) == 0 ||
         name.rfind("pg_try_advisory_", 0) == 0;
}
}  // namespace expr_detail

bool SessionImpl::CallAdvisoryLockFunction(const std::string& name,
                                           const std::vector<Value>& args,
                                           Value* out, PgError* error) {
  LockTable& table = LockTable::Get();
  const void* owner = this;
  if (name == "pg_advisory_unlock_all") {
    ReleaseAdvisoryLocks(/*session_level=*/true);
    *out = "";
    return true;
  }
  const bool try_only = name.rfind("pg_try_", 0) == 0;
  const bool unlock = name.rfind("pg_advisory_unlock", 0) == 0;
  const bool shared =
      name.size() > 7 && name.compare(name.size() - 7, 7, "_shared") == 0;
  const bool xact = name.find("_xact_") != std::string::npos;
  LockKey key = KeyOf(database_, args);
  if (unlock) {
    std::lock_guard<std::mutex> lock(table.mu);
    auto it = table.locks_.find(key);
    Hold* hold = nullptr;
    if (it != table.locks_.end()) {
      auto h = it->second.find(owner);
      if (h != it->second.end()) hold = &h->second;
    }
    int* count =
        hold ? (shared ? &hold->shared_session : &hold->exclusive_session)
             : nullptr;
    if (!count || *count == 0) {
      Notice(running_sink_, "WARNING", "01000",
             std::string("you don't own a lock of type ") +
                 (shared ? "ShareLock" : "ExclusiveLock"));
      *out = "f";
      return true;
    }
    --*count;
    if (!hold->any()) {
      it->second.erase(owner);
      if (it->second.empty()) table.locks_.erase(it);
    }
    table.released.notify_all();
    *out = "t";
    return true;
  }
  std::unique_lock<std::mutex> lock(table.mu);
  const bool exclusive = !shared;
  if (!table.Grantable(key, owner, exclusive)) {
    if (try_only) {
      *out = "f";
      return true;
    }
    // Wait, in short slices so that a cancel, statement_timeout or
    // lock_timeout ends the wait; after deadlock_timeout (1 s) look for a
    // cycle once, as PostgreSQL does.
    const int64_t started = NowMicros();
    const int64_t statement_ms = StatementTimeoutMs();
    const int64_t lock_ms = SettingMs("lock_timeout");
    bool checked_deadlock = false;
    table.waiting_[owner] = {key, exclusive};
    while (!table.Grantable(key, owner, exclusive)) {
      table.released.wait_for(lock, std::chrono::milliseconds(10));
      int64_t waited_ms = (NowMicros() - started) / 1000;
      const char* fail = nullptr;
      const char* state = "57014";
      if (cancel_.load()) {
        fail = "canceling statement due to user request";
      } else if (statement_ms > 0 &&
                 (NowMicros() - statement_start_) / 1000 >= statement_ms) {
        fail = "canceling statement due to statement timeout";
      } else if (lock_ms > 0 && waited_ms >= lock_ms) {
        fail = "canceling statement due to lock timeout";
        state = "55P03";
      } else if (!checked_deadlock && waited_ms >= 1000) {
        checked_deadlock = true;
        if (table.WouldDeadlock(key, owner, exclusive)) {
          fail = "deadlock detected";
          state = "40P01";
        }
      }
      if (fail) {
        table.waiting_.erase(owner);
        *error = Err(state, fail);
        return false;
      }
    }
    table.waiting_.erase(owner);
  }
  Hold& hold = table.locks_[key][owner];
  if (xact) {
    (shared ? hold.shared_xact : hold.exclusive_xact)++;
    holds_xact_advisory_ = true;
  } else {
    (shared ? hold.shared_session : hold.exclusive_session)++;
  }
  holds_advisory_ = true;
  *out = try_only ? "t" : "";
  return true;
}

// pg_locks: one line per held mode and per waiter, tab-separated:
// database, classid, objid, objsubid (PostgreSQL's advisory lock tag: a
// bigint's high and low halves with 1, or the two ints with 2), pid,
// mode, granted.
std::string SessionImpl::AdvisoryLockLines() {
  LockTable& table = LockTable::Get();
  std::lock_guard<std::mutex> lock(table.mu);
  std::string out;
  auto line = [&](const LockKey& k, const void* owner, bool exclusive,
                  bool granted) {
    uint64_t key = static_cast<uint64_t>(k.key);
    out += k.database + '\t' + std::to_string(key >> 32) + '\t' +
           std::to_string(key & 0xffffffffu) + '\t' + (k.pair ? "2" : "1") +
           '\t' + std::to_string(static_cast<const SessionImpl*>(owner)->pid_) +
           '\t' + (exclusive ? "ExclusiveLock" : "ShareLock") + '\t' +
           (granted ? "t" : "f") + '\n';
  };
  for (const auto& [key, holders] : table.locks_) {
    for (const auto& [owner, hold] : holders) {
      if (hold.exclusive()) line(key, owner, true, true);
      if (hold.shared_session + hold.shared_xact > 0)
        line(key, owner, false, true);
    }
  }
  for (const auto& [owner, wait] : table.waiting_)
    line(wait.first, owner, wait.second, false);
  return out;
}

void SessionImpl::ReleaseAdvisoryLocks(bool session_level) {
  if (!holds_advisory_ || (!session_level && !holds_xact_advisory_)) return;
  LockTable& table = LockTable::Get();
  std::lock_guard<std::mutex> lock(table.mu);
  for (auto it = table.locks_.begin(); it != table.locks_.end();) {
    auto h = it->second.find(this);
    if (h != it->second.end()) {
      Hold& hold = h->second;
      hold.exclusive_xact = hold.shared_xact = 0;
      if (session_level) hold.exclusive_session = hold.shared_session = 0;
      if (!hold.any()) it->second.erase(h);
    }
    it = it->second.empty() ? table.locks_.erase(it) : std::next(it);
  }
  holds_xact_advisory_ = false;
  if (session_level) holds_advisory_ = false;
  table.released.notify_all();
}

}  // namespace kova::planner
