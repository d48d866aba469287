// Checkpoints on a thread of their own.
//
// SQLite's default is that the commit which takes the WAL past 1000 pages
// copies the WAL back into the database file and syncs both, inside that
// commit's call: every few hundred single-row inserts one client waits for
// a checkpoint. Here a commit only notes the WAL's size (the WAL hook); each
// time the WAL has grown by kCheckpointFrames it wakes the checkpointer,
// which checkpoints on its own connection, as PostgreSQL's checkpointer does.
//
// The WAL starts over from its beginning only when a writer begins while
// every frame is back in the database file; under a steady stream of commits
// that never happens by itself, and the WAL would grow without end. So the
// checkpointer copies in passes beside the writers, each copying what was
// committed during the one before, then in a last one that holds the
// store's writer lock (new writers queue) and copies what is left, so the
// next writer restarts the WAL.
// A commit that finds the WAL far past the mark (the checkpointer cannot get
// the writer lock, or cannot keep up) checkpoints itself.
#include <chrono>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

// SQLite's default autocheckpoint mark.
constexpr int kCheckpointFrames = 1000;
// The last pass runs under the writer lock once a pass beside the writers
// copied at most this many frames, or after kUnlockedPasses passes.
constexpr int kFramesForLockedPass = 64;
constexpr int kUnlockedPasses = 4;
// How long the last pass waits for the writer lock (new writers hold back
// meanwhile) before leaving the restart to the next checkpoint.
constexpr std::chrono::milliseconds kLockedPassWait{20};
// Past this, the committing session checkpoints itself.
constexpr int kInlineCheckpointFrames = 64 * kCheckpointFrames;

}  // namespace

Checkpointer::Checkpointer(sqlite3* db, std::timed_mutex* writer_lock)
    : db_(db), writer_lock_(writer_lock) {
  thread_ = std::thread([this] { Run(); });
}

Checkpointer::~Checkpointer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  sqlite3_close_v2(db_);
}

void Checkpointer::Request(int frames) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (frames < frames_at_request_) restarts_++;
    // A restarted WAL is short again; otherwise wait for it to grow by
    // another kCheckpointFrames since the last checkpoint began.
    if (frames >= frames_at_request_ &&
        frames - frames_at_request_ < kCheckpointFrames)
      return;
    frames_at_request_ = frames;
    if (requested_) return;
    requested_ = true;
  }
  cv_.notify_one();
}

uint64_t Checkpointer::checkpoints() {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

uint64_t Checkpointer::restarts() {
  std::lock_guard<std::mutex> lock(mu_);
  return restarts_;
}

void Checkpointer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return requested_ || stop_; });
    if (stop_) return;
    requested_ = false;
    lock.unlock();
    CheckpointReads uncached;
    // A failure (an I/O error) leaves the WAL as it is: the next request
    // tries again, and every committed frame is still in the WAL.
    // Unlocked passes until what commits add meanwhile is small, so that
    // the locked pass (which syncs again) keeps writers waiting briefly.
    int rc = SQLITE_OK, copied_before = -1;
    for (int pass = 0; pass < kUnlockedPasses && rc == SQLITE_OK; pass++) {
      int log = 0, copied = 0;
      rc = sqlite3_wal_checkpoint_v2(db_, "main", SQLITE_CHECKPOINT_PASSIVE,
                                     &log, &copied);
      // This pass copied what was committed during the one before it.
      bool few =
          copied_before >= 0 && copied - copied_before <= kFramesForLockedPass;
      copied_before = copied;
      if (few) break;
    }
    // A long transaction keeps the lock: then the WAL restarts later.
    if (rc == SQLITE_OK) {
      wants_lock_.store(true, std::memory_order_release);
      bool locked = writer_lock_->try_lock_for(kLockedPassWait);
      {
        std::lock_guard<std::mutex> gate(gate_mu_);
        wants_lock_.store(false, std::memory_order_release);
      }
      gate_cv_.notify_all();
      if (locked) {
        sqlite3_wal_checkpoint_v2(db_, "main", SQLITE_CHECKPOINT_PASSIVE,
                                  nullptr, nullptr);
        writer_lock_->unlock();
      }
    }
    lock.lock();
    done_++;
  }
}

void Checkpointer::WaitForLockedPass() {
  std::unique_lock<std::mutex> gate(gate_mu_);
  gate_cv_.wait_for(gate, kLockedPassWait, [this] {
    return !wants_lock_.load(std::memory_order_acquire);
  });
}

int Checkpointer::WalHook(void* arg, sqlite3* db, const char* name,
                          int frames) {
  if (frames < kCheckpointFrames) return SQLITE_OK;
  auto* checkpointer = static_cast<Checkpointer*>(arg);
  if (frames >= kInlineCheckpointFrames) {
    checkpointer->inline_checkpoints_++;
    CheckpointReads uncached;
    sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                              nullptr);
  } else {
    checkpointer->Request(frames);
  }
  return SQLITE_OK;
}

}  // namespace kova::docstore
