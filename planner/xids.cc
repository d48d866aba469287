#include "planner/xids.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "planner/expr_internal.h"
#include "planner/session_impl.h"

namespace kova::planner {

namespace {
// PostgreSQL's FirstNormalTransactionId: lower ids are reserved.
constexpr uint64_t kFirstXid = 3;
// Ids reserved per write of the file.
constexpr uint64_t kReserveStep = 4096;
}  // namespace

XidAllocator::XidAllocator(std::string path) : path_(std::move(path)) {}

bool XidAllocator::Reserve(uint64_t upto, std::string* error) {
  if (!path_.empty()) {
    std::string text = std::to_string(upto) + "\n";
    int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    bool ok = fd >= 0 &&
              pwrite(fd, text.data(), text.size(), 0) ==
                  static_cast<ssize_t>(text.size()) &&
              ftruncate(fd, static_cast<off_t>(text.size())) == 0 &&
              fdatasync(fd) == 0;
    int saved = errno;
    if (fd >= 0) close(fd);
    if (!ok) {
      *error = "could not write file \"" + path_ + "\": " + strerror(saved);
      return false;
    }
  }
  reserved_ = upto;
  return true;
}

bool XidAllocator::Next(uint64_t* xid, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!loaded_) {
    next_ = kFirstXid;
    if (!path_.empty()) {
      // Whatever the last run reserved may have been handed out.
      int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        char buf[32] = {0};
        ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
        close(fd);
        if (n > 0) {
          uint64_t stored = std::strtoull(buf, nullptr, 10);
          if (stored > next_) next_ = stored;
        }
      }
    }
    loaded_ = true;
  }
  if (next_ >= reserved_ && !Reserve(next_ + kReserveStep, error)) return false;
  *xid = next_++;
  return true;
}

// ---- the session's transaction id ----------------------------------------

uint64_t SessionImpl::XidTransactionKey() const {
  // A block (or implicit block) is one transaction; otherwise each
  // statement is its own.
  return (in_block_ || implicit_) ? txn_serial_ * 2 + 1 : statement_seq_ * 2;
}

bool SessionImpl::TransactionXid(bool assign, uint64_t* xid, PgError* error) {
  uint64_t key = XidTransactionKey();
  if (xid_key_ != key) {
    xid_key_ = key;
    xid_ = 0;
  }
  // A transaction that has written has an id in PostgreSQL.
  if (!xid_ && !assign && storage_->in_transaction() &&
      sqlite3_txn_state(storage_->connection(), nullptr) == SQLITE_TXN_WRITE)
    assign = true;
  if (!xid_ && assign) {
    std::string message;
    if (!EngineXids(engine_)->Next(&xid_, &message)) {
      *error = expr_detail::Err("58030", message);
      return false;
    }
  }
  *xid = xid_;
  return true;
}

bool SessionImpl::CallXidFunction(const std::string& name,
                                  const std::vector<Value>& args, Value* out,
                                  PgError* error) {
  if (name == "kova_returning_xmax" && !returning_xmax_) {
    *out = "0";
    return true;
  }
  bool if_assigned = name == "txid_current_if_assigned" ||
                     name == "pg_current_xact_id_if_assigned";
  uint64_t xid;
  if (!TransactionXid(!if_assigned, &xid, error)) return false;
  if (!xid)
    *out = std::nullopt;
  else
    *out = std::to_string(xid);
  return true;
}

}  // namespace kova::planner
