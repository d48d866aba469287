// The "kova" SQLite VFS: the default unix VFS with three changes that cut the
// system calls of every commit, safe because one process owns a data
// directory (the flock on DIR/LOCK):
//
// 1. The WAL index ("shared memory") lives in this process's heap and its
//    locks are plain in-process state. The unix VFS keeps it in a -shm file
//    and takes an fcntl lock for each of the six or so lock changes of a
//    transaction, which only matters when other processes share the file.
//    A fresh index is zeroed, so SQLite rebuilds it from the WAL file at the
//    first open after a restart or a crash, as it does for a new -shm file.
// 2. Pages read from the database file, and pages written to or read from
//    the WAL, are kept in caches shared by all connections (see PageCache),
//    so a connection whose own cache SQLite dropped because another one
//    committed reads them again without a system call.
// 3. Writes to a WAL file are gathered into runs of consecutive frames and
//    written with one pwrite per run instead of two per frame (header and
//    page). A commit does not write them itself: before SQLite publishes
//    the frames in the WAL index (xShmBarrier) their pages go into the
//    shared cache and the run joins the WAL's queue, and the queue is
//    written in order once the committing session has let the next writer
//    in (kDrainWalOp), by a durable commit's sync before its fdatasync, and
//    before anything reads past the cache, syncs, sizes or truncates the
//    WAL. So no reader and no checkpoint ever finds a frame that is neither
//    cached nor in the file, and the writer queue does not wait on the
//    pwrite. A failed queued write stops the process (see ShmBarrier).
// 4. A checkpoint copies the WAL into the database file one page at a time,
//    a pread and a pwrite per page (66,000 system calls for a 1M-row
//    restore). Between SQLite's SQLITE_FCNTL_CKPT_START and CKPT_DONE (see
//    CheckpointIo) the WAL is read ahead in runs of frames and the copied
//    pages are gathered into runs of consecutive pages, written out at
//    CKPT_DONE at the latest: before SQLite publishes the checkpoint's end
//    (nBackfill), after which readers take those pages from the file.
//    Until then no connection reads them from the file: each one's snapshot
//    holds them in the WAL.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

constexpr const char* kVfsName = "kova";
// A run of WAL frames is written once it reaches this size, in calls of
// at most kWalWriteChunk bytes.
constexpr size_t kWalBufferLimit = 1 << 20;
constexpr size_t kWalWriteChunk = 1 << 16;
// A run starts with room for this many bytes (eight 4 KiB frames).
constexpr size_t kWalRunReserve = 8 * (4096 + 24);
// Past this many queued bytes (a large transaction spilling its pages) the
// WAL queue is written at once rather than after the commit.
constexpr size_t kWalQueueLimit = 4 << 20;
// Database pages kept in the shared page cache (128 MiB of 4 KiB pages).
constexpr size_t kCachedPages = 32768;
// A checkpoint reads the WAL ahead by up to this many frames (the window
// halves while read-ahead goes unused, and grows back), and writes the
// pages it copied once they make this many bytes.
constexpr int kMaxReadAheadFrames = 64;
constexpr size_t kCheckpointWriteLimit = 1 << 20;

struct ShmConnection;

// The WAL index of one database file, shared by its connections.
struct ShmNode {
  std::mutex mu;
  std::vector<std::unique_ptr<char[]>> regions;
  int region_size = 0;
  std::vector<ShmConnection*> connections;
};

struct ShmConnection {
  ShmNode* node = nullptr;
  uint16_t shared_mask = 0;
  uint16_t exclusive_mask = 0;
  // The WAL-index header as it stood when this connection took a read lock
  // (slots 3..7): SQLite checks, once the lock is held, that the header is
  // still the one its read transaction began from, and retries otherwise,
  // so a read transaction that began holds exactly this header. Two
  // connections with the same header read the same snapshot.
  bool has_read_header = false;
  char read_header[kReadSnapshotSize];
};

// SQLite's WAL lock slots: write, checkpoint, recover, then the readers'.
constexpr uint16_t kReadLockMask = 0xf8;

std::mutex nodes_mu;
std::unordered_map<std::string, std::unique_ptr<ShmNode>> nodes;

sqlite3_vfs* base_vfs = nullptr;

// Pages of one database file read by any of its connections, shared by
// all of them (SQLite's own cache is per connection and is dropped each time
// another connection commits). Only this process writes the file, and every
// write passes through here, so the cache stays exact.
struct PageCache {
  static constexpr int kPageSize = 4096;
  static constexpr int kShards = 64;  // readers on many threads rarely meet
  struct Shard {
    std::mutex mu;
    std::unordered_map<sqlite3_int64, std::unique_ptr<char[]>> pages;
    uint64_t writes = 0;  // bumped by every write: a racing read is not kept
  };
  Shard shards[kShards];
  bool wal = false;  // a WAL file: pages sit in frames (see FrameData)
  int users = 0;     // guarded by caches_mu
  // WAL files: runs of frames committed but not yet in the file, oldest
  // first. write_mu orders the writers of the queue: a run taken from it is
  // in the file before the next drain starts.
  struct Run {
    sqlite3_int64 offset;
    std::string data;
  };
  std::mutex queue_mu;
  std::vector<Run> queue;
  size_t queued_bytes = 0;
  std::mutex write_mu;
  // Main database files: the file's size, or -1 when unknown. SQLite asks
  // for it at the start of every read transaction while the WAL holds no
  // frame (after a restart, say), a system call each time; only this
  // process changes the file, through Write, Truncate and FileControl here.
  std::mutex size_mu;
  sqlite3_int64 size = -1;
  uint64_t size_changes = 0;  // bumped by every change: a racing fstat is
                              // not kept
  Shard& For(sqlite3_int64 offset) {
    return shards[(offset / kPageSize) % kShards];
  }
};

std::mutex caches_mu;
std::unordered_map<std::string, std::unique_ptr<PageCache>> caches;

PageCache* AcquireCache(const std::string& path, bool wal) {
  std::lock_guard<std::mutex> lock(caches_mu);
  std::unique_ptr<PageCache>& cache = caches[path];
  if (!cache) {
    cache = std::make_unique<PageCache>();
    cache->wal = wal;
  }
  cache->users++;
  return cache.get();
}

// WAL files: a 32-byte header, then frames of a 24-byte header and a page.
// The cache keeps the page of a frame under the offset where it starts.
constexpr sqlite3_int64 kWalHeader = 32, kFrameHeader = 24;
constexpr sqlite3_int64 kFrameSize = kFrameHeader + PageCache::kPageSize;
bool FrameData(sqlite3_int64 offset) {
  return offset >= kWalHeader + kFrameHeader &&
         (offset - kWalHeader - kFrameHeader) % kFrameSize == 0;
}

void ReleaseCache(const std::string& path) {
  std::lock_guard<std::mutex> lock(caches_mu);
  auto it = caches.find(path);
  if (it != caches.end() && --it->second->users == 0) caches.erase(it);
}

// Set by CheckpointReads: WAL frames read on this thread stay out of the
// cache.
thread_local bool checkpoint_reads = false;

bool CacheableRead(const PageCache* cache, int amount, sqlite3_int64 offset) {
  if (amount != PageCache::kPageSize) return false;
  return cache->wal ? FrameData(offset) : offset % PageCache::kPageSize == 0;
}

// After `data` was written to a WAL file at `offset`: the pages of the
// frames it holds whole are cached as written (the next transaction of
// another connection reads them back), any other cached page it touches
// is dropped. A run of kWalBufferLimit bytes or more is a bulk write (a
// large commit or a cache spill): its pages only refresh copies already
// cached. Copying each new one took a fresh heap page per frame (17% of a
// 1M-row COPY's time in perf, mostly page faults), and mostly only the
// checkpoint reads them back; a read that misses the cache writes the
// queued runs out first and reads the file.
void AfterWalWrite(PageCache* cache, const char* data, sqlite3_int64 offset,
                   sqlite3_int64 size) {
  const bool bulk = size >= static_cast<sqlite3_int64>(kWalBufferLimit);
  sqlite3_int64 end = offset + size;
  sqlite3_int64 k =
      std::max<sqlite3_int64>(0, (offset - kWalHeader) / kFrameSize - 1);
  for (;; k++) {
    sqlite3_int64 page = kWalHeader + k * kFrameSize + kFrameHeader;
    if (page >= end) break;
    if (page + PageCache::kPageSize <= offset) continue;
    PageCache::Shard& shard = cache->For(page);
    bool whole = page >= offset && page + PageCache::kPageSize <= end;
    std::unique_ptr<char[]> copy;
    if (whole && !bulk) {
      // Not value-initialised: every byte is copied over at once.
      copy.reset(new char[PageCache::kPageSize]);
      memcpy(copy.get(), data + (page - offset), PageCache::kPageSize);
    }
    std::lock_guard<std::mutex> lock(shard.mu);
    shard.writes++;
    auto found = shard.pages.find(page);
    if (!whole) {
      if (found != shard.pages.end()) shard.pages.erase(found);
      continue;
    }
    if (bulk) {
      if (found != shard.pages.end())
        memcpy(found->second.get(), data + (page - offset),
               PageCache::kPageSize);
      continue;
    }
    auto [it, added] = shard.pages.try_emplace(page);
    if (added && shard.pages.size() > kCachedPages / PageCache::kShards) {
      auto victim = shard.pages.begin();
      if (victim == it) ++victim;
      shard.pages.erase(victim);
    }
    it->second = std::move(copy);
  }
}

// Drops the cached pages a write touches, [from, to); a truncation (to < 0)
// drops every page from `from` on.
void Invalidate(PageCache* cache, sqlite3_int64 from, sqlite3_int64 to) {
  sqlite3_int64 first = from / PageCache::kPageSize * PageCache::kPageSize;
  if (to < 0) {
    for (PageCache::Shard& shard : cache->shards) {
      std::lock_guard<std::mutex> lock(shard.mu);
      shard.writes++;
      for (auto it = shard.pages.begin(); it != shard.pages.end();)
        it = it->first >= first ? shard.pages.erase(it) : std::next(it);
    }
    return;
  }
  for (sqlite3_int64 page = first; page < to; page += PageCache::kPageSize) {
    PageCache::Shard& shard = cache->For(page);
    std::lock_guard<std::mutex> lock(shard.mu);
    shard.writes++;
    shard.pages.erase(page);
  }
}

// A change of a main database file's size: `size` is the new one, or -1
// when it is not known (a failed write, a size hint).
void NoteSize(PageCache* cache, sqlite3_int64 size, bool grow_only) {
  std::lock_guard<std::mutex> lock(cache->size_mu);
  cache->size_changes++;
  if (size < 0 || cache->size < 0) {
    cache->size = -1;
  } else if (!grow_only || size > cache->size) {
    cache->size = size;
  }
}

// The reads and writes of one checkpoint in progress (item 4 above).
struct CheckpointIo {
  // Main database file: pages copied but not yet written, from `offset`.
  std::string writes;
  sqlite3_int64 write_offset = 0;
  // Its WAL: frames read ahead, the bytes at [read_offset, +size()).
  std::string reads;
  sqlite3_int64 read_offset = 0;
  int window = kMaxReadAheadFrames;  // frames per read-ahead
  int served = 0;  // pages served from `reads` since it was filled
};

struct KovaFile {
  sqlite3_file base;
  sqlite3_file* real;    // the unix VFS's file, allocated right after this
  std::string* path;     // main database files: the key of their WAL index
  ShmConnection* shm;    // main database files, once the index is mapped
  KovaFile* wal;         // main database files: the connection's open WAL
  KovaFile* db;          // WAL files: the main database file they belong to
  std::string* pending;  // WAL files: gathered writes not yet in the file
  sqlite3_int64 pending_offset;
  PageCache* cache;          // main database files
  CheckpointIo* checkpoint;  // main database files, during a checkpoint
};

KovaFile* Of(sqlite3_file* f) { return reinterpret_cast<KovaFile*>(f); }

// Writes the WAL's queued runs, in order, through this connection's file.
int DrainWal(KovaFile* f) {
  if (!f || !f->pending) return SQLITE_OK;
  PageCache* cache = f->cache;
  std::lock_guard<std::mutex> order(cache->write_mu);
  std::vector<PageCache::Run> runs;
  {
    std::lock_guard<std::mutex> lock(cache->queue_mu);
    if (cache->queue.empty()) return SQLITE_OK;
    runs.swap(cache->queue);
    cache->queued_bytes = 0;
  }
  for (const PageCache::Run& run : runs) {
    // The unix VFS writes at most 128 KiB - 1 bytes per call.
    for (size_t done = 0; done < run.data.size(); done += kWalWriteChunk) {
      size_t n = std::min(kWalWriteChunk, run.data.size() - done);
      int rc =
          f->real->pMethods->xWrite(f->real, run.data.data() + done,
                                    static_cast<int>(n), run.offset + done);
      if (rc != SQLITE_OK) {
        // The frames may already be published to readers: carrying on
        // would let a checkpoint copy pages that never reached the file.
        fprintf(stderr, "kova: PANIC: could not write to the WAL file: %s\n",
                strerror(errno));
        abort();
      }
    }
  }
  return SQLITE_OK;
}

// Moves the gathered run into the shared cache and the WAL's queue.
int FlushWal(KovaFile* f) {
  if (!f || !f->pending || f->pending->empty()) return SQLITE_OK;
  PageCache* cache = f->cache;
  std::string& pending = *f->pending;
  // Cached before it is queued: once SQLite publishes the frames, a reader
  // finds them in the cache or (after draining) in the file.
  AfterWalWrite(cache, pending.data(), f->pending_offset,
                static_cast<sqlite3_int64>(pending.size()));
  bool full;
  {
    std::lock_guard<std::mutex> lock(cache->queue_mu);
    cache->queued_bytes += pending.size();
    cache->queue.push_back({f->pending_offset, std::move(pending)});
    full = cache->queued_bytes >= kWalQueueLimit;
  }
  pending.clear();
  return full ? DrainWal(f) : SQLITE_OK;
}

// FlushWal, then the queue into the file: for every look at the file itself.
int WriteOutWal(KovaFile* f) {
  int rc = FlushWal(f);
  return rc == SQLITE_OK ? DrainWal(f) : rc;
}

// The unix VFS keeps only the low 17 bits of a write's size (it asserts
// that writes stay under 128 KiB), so a larger one writes a remainder or
// nothing and fails with SQLITE_FULL. SQLite writes that much at once when
// a statement journal of more than 128 KiB spills to its file.
int WriteInPieces(sqlite3_file* real, const void* buf, int amount,
                  sqlite3_int64 offset) {
  const char* data = static_cast<const char*>(buf);
  int rc = SQLITE_OK;
  for (int done = 0; done < amount && rc == SQLITE_OK;
       done += static_cast<int>(kWalWriteChunk)) {
    int n = std::min(static_cast<int>(kWalWriteChunk), amount - done);
    rc = real->pMethods->xWrite(real, data + done, n, offset + done);
  }
  return rc;
}

// A write into a main database file: the shared cache drops the pages it
// touches and the file's size follows.
int WriteDatabase(KovaFile* f, const void* buf, int amount,
                  sqlite3_int64 offset) {
  int rc = WriteInPieces(f->real, buf, amount, offset);
  Invalidate(f->cache, offset, offset + amount);
  NoteSize(f->cache, rc == SQLITE_OK ? offset + amount : -1,
           /*grow_only=*/true);
  return rc;
}

// Writes the pages a checkpoint gathered (main database files).
int WriteCheckpointPages(KovaFile* f) {
  CheckpointIo* io = f->checkpoint;
  if (!io || io->writes.empty()) return SQLITE_OK;
  int rc = WriteDatabase(f, io->writes.data(),
                         static_cast<int>(io->writes.size()), io->write_offset);
  io->writes.clear();
  return rc;
}

// A checkpoint's read of a WAL frame's page that the shared cache does not
// hold: from the frames read ahead, or a new read-ahead from `offset`.
int ReadAhead(KovaFile* f, CheckpointIo* io, void* buf, int amount,
              sqlite3_int64 offset) {
  sqlite3_int64 end =
      io->read_offset + static_cast<sqlite3_int64>(io->reads.size());
  if (offset >= io->read_offset && offset + amount <= end) {
    memcpy(buf, io->reads.data() + (offset - io->read_offset), amount);
    io->served++;
    return SQLITE_OK;
  }
  // The next window from how much of the last one the checkpoint used:
  // frames of a bulk load come in page order, those of many small commits
  // do not (and mostly sit in the shared cache).
  if (!io->reads.empty()) {
    int frames = static_cast<int>(io->reads.size() / kFrameSize);
    if (io->served * 4 < frames)
      io->window = std::max(1, io->window / 2);
    else if (io->served * 2 >= frames)
      io->window = std::min(kMaxReadAheadFrames, io->window * 2);
    io->reads.clear();
  }
  // Every frame the checkpoint copies was published before it began, so it
  // is in the file once the queue is written; frames past those may be
  // read ahead stale but are never asked for.
  int rc = DrainWal(f);
  if (rc != SQLITE_OK) return rc;
  sqlite3_int64 size = 0;
  if (io->window > 1 &&
      f->real->pMethods->xFileSize(f->real, &size) == SQLITE_OK) {
    sqlite3_int64 want =
        std::min<sqlite3_int64>(io->window * kFrameSize, size - offset);
    if (want >= amount) {
      io->reads.resize(static_cast<size_t>(want));
      rc = f->real->pMethods->xRead(f->real, io->reads.data(),
                                    static_cast<int>(want), offset);
      if (rc == SQLITE_OK) {
        io->read_offset = offset;
        io->served = 1;
        memcpy(buf, io->reads.data(), amount);
        return SQLITE_OK;
      }
      io->reads.clear();
    }
  }
  return f->real->pMethods->xRead(f->real, buf, amount, offset);
}

int Close(sqlite3_file* file) {
  KovaFile* f = Of(file);
  int flushed = WriteOutWal(f);
  if (flushed == SQLITE_OK) flushed = WriteCheckpointPages(f);
  delete f->checkpoint;
  f->checkpoint = nullptr;
  if (f->db && f->db->wal == f) f->db->wal = nullptr;
  if (f->wal) f->wal->db = nullptr;
  int rc = f->real->pMethods->xClose(f->real);
  if (f->cache) ReleaseCache(*f->path);
  delete f->pending;
  delete f->path;
  return flushed != SQLITE_OK ? flushed : rc;
}

int Read(sqlite3_file* file, void* buf, int amount, sqlite3_int64 offset) {
  KovaFile* f = Of(file);
  int rc = FlushWal(f);
  if (rc == SQLITE_OK) rc = WriteCheckpointPages(f);
  if (rc != SQLITE_OK) return rc;
  PageCache* cache = f->cache;
  if (!cache || !CacheableRead(cache, amount, offset)) {
    rc = DrainWal(f);
    if (rc != SQLITE_OK) return rc;
    return f->real->pMethods->xRead(f->real, buf, amount, offset);
  }
  PageCache::Shard& shard = cache->For(offset);
  uint64_t writes;
  {
    std::lock_guard<std::mutex> lock(shard.mu);
    auto it = shard.pages.find(offset);
    if (it != shard.pages.end()) {
      memcpy(buf, it->second.get(), amount);
      return SQLITE_OK;
    }
    writes = shard.writes;
  }
  if (cache->wal && f->db && f->db->checkpoint)
    return ReadAhead(f, f->db->checkpoint, buf, amount, offset);
  // A queued frame may have been evicted from the cache: the file must
  // hold it before it is read from there.
  rc = DrainWal(f);
  if (rc != SQLITE_OK) return rc;
  rc = f->real->pMethods->xRead(f->real, buf, amount, offset);
  if (rc != SQLITE_OK || (cache->wal && checkpoint_reads)) return rc;
  // Not value-initialised: every byte is copied over at once.
  std::unique_ptr<char[]> page(new char[amount]);
  memcpy(page.get(), buf, amount);
  std::lock_guard<std::mutex> lock(shard.mu);
  if (shard.writes != writes) return SQLITE_OK;
  if (shard.pages.size() >= kCachedPages / PageCache::kShards)
    shard.pages.erase(shard.pages.begin());
  shard.pages.emplace(offset, std::move(page));
  return SQLITE_OK;
}

int Write(sqlite3_file* file, const void* buf, int amount,
          sqlite3_int64 offset) {
  KovaFile* f = Of(file);
  if (CheckpointIo* io = f->checkpoint) {
    if (!io->writes.empty() &&
        offset !=
            io->write_offset + static_cast<sqlite3_int64>(io->writes.size())) {
      int rc = WriteCheckpointPages(f);
      if (rc != SQLITE_OK) return rc;
    }
    if (io->writes.empty()) io->write_offset = offset;
    io->writes.append(static_cast<const char*>(buf), amount);
    return io->writes.size() >= kCheckpointWriteLimit ? WriteCheckpointPages(f)
                                                      : SQLITE_OK;
  }
  if (f->cache && !f->pending) return WriteDatabase(f, buf, amount, offset);
  if (!f->pending) return WriteInPieces(f->real, buf, amount, offset);
  std::string& pending = *f->pending;
  if (!pending.empty() &&
      offset !=
          f->pending_offset + static_cast<sqlite3_int64>(pending.size())) {
    int rc = FlushWal(f);
    if (rc != SQLITE_OK) return rc;
  }
  if (pending.empty()) {
    f->pending_offset = offset;
    // The last run moved into the queue with its buffer: room for a small
    // commit's frames at once, rather than a copy at every doubling.
    pending.reserve(kWalRunReserve);
  }
  pending.append(static_cast<const char*>(buf), amount);
  return pending.size() >= kWalBufferLimit ? FlushWal(f) : SQLITE_OK;
}

int Truncate(sqlite3_file* file, sqlite3_int64 size) {
  KovaFile* f = Of(file);
  int rc = WriteOutWal(f);
  if (rc == SQLITE_OK) rc = WriteCheckpointPages(f);
  if (rc != SQLITE_OK) return rc;
  // Every complete checkpoint "truncates" the database file to the size it
  // already has; no page is cached past the end, so only a real shrink has
  // pages to drop (walking every shard costs more than the checkpoint).
  sqlite3_int64 before = -1;
  if (f->cache && f->real->pMethods->xFileSize(f->real, &before) != SQLITE_OK)
    before = -1;
  rc = f->real->pMethods->xTruncate(f->real, size);
  if (f->cache && (before < 0 || size < before)) Invalidate(f->cache, size, -1);
  if (f->cache && !f->cache->wal)
    NoteSize(f->cache, rc == SQLITE_OK ? size : -1, /*grow_only=*/false);
  return rc;
}

int Sync(sqlite3_file* file, int flags) {
  KovaFile* f = Of(file);
  int rc = WriteOutWal(f);
  if (rc == SQLITE_OK) rc = WriteCheckpointPages(f);
  if (rc != SQLITE_OK) return rc;
  return f->real->pMethods->xSync(f->real, flags);
}

int FileSize(sqlite3_file* file, sqlite3_int64* size) {
  KovaFile* f = Of(file);
  int rc = WriteOutWal(f);
  if (rc == SQLITE_OK) rc = WriteCheckpointPages(f);
  if (rc != SQLITE_OK) return rc;
  PageCache* cache =
      f->cache && !f->pending && !f->cache->wal ? f->cache : nullptr;
  uint64_t changes = 0;
  if (cache) {
    std::lock_guard<std::mutex> lock(cache->size_mu);
    if (cache->size >= 0) {
      *size = cache->size;
      return SQLITE_OK;
    }
    changes = cache->size_changes;
  }
  rc = f->real->pMethods->xFileSize(f->real, size);
  if (cache && rc == SQLITE_OK) {
    std::lock_guard<std::mutex> lock(cache->size_mu);
    if (cache->size_changes == changes) cache->size = *size;
  }
  return rc;
}

int Lock(sqlite3_file* file, int level) {
  return Of(file)->real->pMethods->xLock(Of(file)->real, level);
}
int Unlock(sqlite3_file* file, int level) {
  return Of(file)->real->pMethods->xUnlock(Of(file)->real, level);
}
int CheckReservedLock(sqlite3_file* file, int* out) {
  return Of(file)->real->pMethods->xCheckReservedLock(Of(file)->real, out);
}
int FileControl(sqlite3_file* file, int op, void* arg) {
  KovaFile* f = Of(file);
  if (op == kDrainWalOp)
    return WriteOutWal(f->path && !f->pending ? f->wal : f);
  if (op == kReadSnapshotOp) {
    if (!f->shm) return SQLITE_NOTFOUND;
    std::lock_guard<std::mutex> lock(f->shm->node->mu);
    if (!f->shm->has_read_header) return SQLITE_NOTFOUND;
    std::memcpy(arg, f->shm->read_header, kReadSnapshotSize);
    return SQLITE_OK;
  }
  if (f->cache && !f->cache->wal) {
    if (op == SQLITE_FCNTL_CKPT_START) {
      if (!f->checkpoint) f->checkpoint = new CheckpointIo();
      return SQLITE_OK;
    }
    if (op == SQLITE_FCNTL_CKPT_DONE) {
      // SQLite goes on to publish the copied pages as in the file whatever
      // this returns: a page it could not write must stop the process
      // (the WAL still holds every committed frame for the restart).
      if (WriteCheckpointPages(f) != SQLITE_OK) {
        fprintf(stderr,
                "kova: PANIC: could not write a checkpoint's pages to the "
                "database file: %s\n",
                strerror(errno));
        abort();
      }
      delete f->checkpoint;
      f->checkpoint = nullptr;
      return SQLITE_OK;
    }
  }
  int rc = FlushWal(f);
  if (rc != SQLITE_OK) return rc;
  rc = f->real->pMethods->xFileControl(f->real, op, arg);
  // The unix VFS may extend the file for a size hint (with mmap or a chunk
  // size); other controls leave its size alone.
  if (f->cache && !f->cache->wal &&
      (op == SQLITE_FCNTL_SIZE_HINT || op == SQLITE_FCNTL_CHUNK_SIZE))
    NoteSize(f->cache, -1, /*grow_only=*/false);
  return rc;
}
int SectorSize(sqlite3_file* file) {
  return Of(file)->real->pMethods->xSectorSize(Of(file)->real);
}
int DeviceCharacteristics(sqlite3_file* file) {
  return Of(file)->real->pMethods->xDeviceCharacteristics(Of(file)->real);
}

// ---- the WAL index in the heap ------------------------------------------

int ShmMap(sqlite3_file* file, int region, int size, int extend,
           void volatile** out) {
  KovaFile* f = Of(file);
  if (!f->path) return SQLITE_IOERR_SHMMAP;
  if (!f->shm) {
    std::lock_guard<std::mutex> lock(nodes_mu);
    std::unique_ptr<ShmNode>& node = nodes[*f->path];
    if (!node) node = std::make_unique<ShmNode>();
    f->shm = new ShmConnection{node.get()};
    std::lock_guard<std::mutex> node_lock(node->mu);
    node->connections.push_back(f->shm);
  }
  ShmNode* node = f->shm->node;
  std::lock_guard<std::mutex> lock(node->mu);
  if (node->region_size == 0) node->region_size = size;
  if (node->region_size != size) return SQLITE_IOERR_SHMSIZE;
  if (region >= static_cast<int>(node->regions.size())) {
    if (!extend) {
      *out = nullptr;
      return SQLITE_OK;
    }
    while (static_cast<int>(node->regions.size()) <= region) {
      auto memory = std::unique_ptr<char[]>(new (std::nothrow) char[size]);
      if (!memory) return SQLITE_IOERR_NOMEM;
      std::memset(memory.get(), 0, size);
      node->regions.push_back(std::move(memory));
    }
  }
  *out = node->regions[region].get();
  return SQLITE_OK;
}

// The unix VFS's rules between the connections of one process: a shared
// lock conflicts with another connection's exclusive one, an exclusive
// lock with any lock held on those slots.
int ShmLock(sqlite3_file* file, int offset, int n, int flags) {
  KovaFile* f = Of(file);
  if (!f->shm) return SQLITE_IOERR_SHMLOCK;
  // Frames gathered for the WAL are written before any lock changes.
  int rc = FlushWal(f->wal);
  if (rc != SQLITE_OK) return rc;
  ShmConnection* me = f->shm;
  const uint16_t mask =
      static_cast<uint16_t>(((1u << (offset + n)) - 1) & ~((1u << offset) - 1));
  std::lock_guard<std::mutex> lock(me->node->mu);
  if (flags & SQLITE_SHM_UNLOCK) {
    me->shared_mask &= ~mask;
    me->exclusive_mask &= ~mask;
    if (!(me->shared_mask & kReadLockMask)) me->has_read_header = false;
    return SQLITE_OK;
  }
  const bool shared = flags & SQLITE_SHM_SHARED;
  if (shared && (me->shared_mask & mask)) return SQLITE_OK;
  for (ShmConnection* other : me->node->connections) {
    if (shared) {
      if (other != me && (other->exclusive_mask & mask)) return SQLITE_BUSY;
    } else if ((other->exclusive_mask | other->shared_mask) & mask) {
      // As the unix VFS: the asking connection's own locks count too.
      return SQLITE_BUSY;
    }
  }
  if (shared) {
    me->shared_mask |= mask;
    if ((mask & kReadLockMask) && !me->node->regions.empty()) {
      std::memcpy(me->read_header, me->node->regions[0].get(),
                  kReadSnapshotSize);
      me->has_read_header = true;
    }
  } else {
    me->exclusive_mask |= mask;
  }
  return SQLITE_OK;
}

void ShmBarrier(sqlite3_file* file) {
  // SQLite calls this before it publishes new frames in the WAL index, and
  // cannot be told that it failed. Publishing frames that are not in the
  // file would hand readers pages that do not exist; stopping the process
  // loses nothing committed (the commit's last frame is not in the file
  // either, so recovery leaves the transaction out). PostgreSQL panics on a
  // failed WAL write for the same reason.
  if (FlushWal(Of(file)->wal) != SQLITE_OK) {
    fprintf(stderr, "kova: PANIC: could not write to the WAL file: %s\n",
            strerror(errno));
    abort();
  }
  __sync_synchronize();
}

int ShmUnmap(sqlite3_file* file, int /*delete_flag*/) {
  KovaFile* f = Of(file);
  if (!f->shm) return SQLITE_OK;
  std::lock_guard<std::mutex> lock(nodes_mu);
  ShmNode* node = f->shm->node;
  bool last;
  {
    std::lock_guard<std::mutex> node_lock(node->mu);
    auto& list = node->connections;
    list.erase(std::find(list.begin(), list.end(), f->shm));
    last = list.empty();
  }
  delete f->shm;
  f->shm = nullptr;
  // The last connection gone: the next one rebuilds the index from the WAL.
  if (last) nodes.erase(*f->path);
  return SQLITE_OK;
}

int Fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  KovaFile* f = Of(file);
  int rc = WriteOutWal(f);
  if (rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFetch(f->real, offset, amount, out);
}
int Unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  return Of(file)->real->pMethods->xUnfetch(Of(file)->real, offset, page);
}

const sqlite3_io_methods kMethods = {3,
                                     Close,
                                     Read,
                                     Write,
                                     Truncate,
                                     Sync,
                                     FileSize,
                                     Lock,
                                     Unlock,
                                     CheckReservedLock,
                                     FileControl,
                                     SectorSize,
                                     DeviceCharacteristics,
                                     ShmMap,
                                     ShmLock,
                                     ShmBarrier,
                                     ShmUnmap,
                                     Fetch,
                                     Unfetch};

int Open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags,
         int* out_flags) {
  KovaFile* f = Of(file);
  std::memset(f, 0, sizeof(KovaFile));
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  int rc = base_vfs->xOpen(base_vfs, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK || !f->real->pMethods) {
    f->base.pMethods = nullptr;
    return rc;
  }
  if ((flags & SQLITE_OPEN_MAIN_DB) && name) {
    f->path = new std::string(name);
    f->cache = AcquireCache(*f->path, /*wal=*/false);
  } else if ((flags & SQLITE_OPEN_WAL) && name) {
    f->pending = new std::string();
    f->path = new std::string(name);
    f->cache = AcquireCache(*f->path, /*wal=*/true);
    // The pager's file of the main database is one of ours.
    sqlite3_file* db = sqlite3_database_file_object(name);
    if (db && db->pMethods == &kMethods) {
      f->db = Of(db);
      f->db->wal = f;
    }
  }
  f->base.pMethods = &kMethods;
  (void)vfs;
  return SQLITE_OK;
}

std::atomic<uint64_t> wal_deletions{0};

int Delete(sqlite3_vfs*, const char* name, int sync_dir) {
  int rc = base_vfs->xDelete(base_vfs, name, sync_dir);
  // Counted after the unlink, so that a descriptor opened before it is
  // always seen as stale.
  std::string_view path(name ? name : "");
  if (path.size() > 4 && path.substr(path.size() - 4) == "-wal") {
    wal_deletions.fetch_add(1, std::memory_order_acq_rel);
  }
  return rc;
}
int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return base_vfs->xAccess(base_vfs, name, flags, out);
}
int FullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
  return base_vfs->xFullPathname(base_vfs, name, size, out);
}
void* DlOpen(sqlite3_vfs*, const char* name) {
  return base_vfs->xDlOpen(base_vfs, name);
}
void DlError(sqlite3_vfs*, int size, char* out) {
  base_vfs->xDlError(base_vfs, size, out);
}
void (*DlSym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return base_vfs->xDlSym(base_vfs, handle, symbol);
}
void DlClose(sqlite3_vfs*, void* handle) {
  base_vfs->xDlClose(base_vfs, handle);
}
int Randomness(sqlite3_vfs*, int size, char* out) {
  return base_vfs->xRandomness(base_vfs, size, out);
}
int Sleep(sqlite3_vfs*, int micros) {
  return base_vfs->xSleep(base_vfs, micros);
}
int CurrentTime(sqlite3_vfs*, double* out) {
  return base_vfs->xCurrentTime(base_vfs, out);
}
int GetLastError(sqlite3_vfs*, int size, char* out) {
  return base_vfs->xGetLastError ? base_vfs->xGetLastError(base_vfs, size, out)
                                 : 0;
}
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
  return base_vfs->xCurrentTimeInt64(base_vfs, out);
}

}  // namespace

CheckpointReads::CheckpointReads() : was_(checkpoint_reads) {
  checkpoint_reads = true;
}
CheckpointReads::~CheckpointReads() { checkpoint_reads = was_; }

uint64_t WalDeletions() {
  return wal_deletions.load(std::memory_order_acquire);
}

const char* KovaVfsName() {
  static std::once_flag once;
  std::call_once(once, [] {
    base_vfs = sqlite3_vfs_find(nullptr);
    static sqlite3_vfs vfs;
    std::memset(&vfs, 0, sizeof(vfs));
    vfs.iVersion = 2;
    vfs.szOsFile = static_cast<int>(sizeof(KovaFile)) + base_vfs->szOsFile;
    vfs.mxPathname = base_vfs->mxPathname;
    vfs.zName = kVfsName;
    vfs.xOpen = Open;
    vfs.xDelete = Delete;
    vfs.xAccess = Access;
    vfs.xFullPathname = FullPathname;
    vfs.xDlOpen = DlOpen;
    vfs.xDlError = DlError;
    vfs.xDlSym = DlSym;
    vfs.xDlClose = DlClose;
    vfs.xRandomness = Randomness;
    vfs.xSleep = Sleep;
    vfs.xCurrentTime = CurrentTime;
    vfs.xGetLastError = GetLastError;
    vfs.xCurrentTimeInt64 = CurrentTimeInt64;
    sqlite3_vfs_register(&vfs, /*makeDflt=*/0);
  });
  return kVfsName;
}

}  // namespace kova::docstore
