// The kova SQLite VFS (docstore/vfs.cc) against the unix VFS it wraps.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "docstore/internal.h"
#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

// SQLite writes a spilled statement journal in chunks as large as the spill
// threshold (SQLITE_CONFIG_STMTJRNL_SPILL, 4 MiB in the kova binary); the
// unix VFS keeps only the low 17 bits of a write's size, so such a write
// stored nothing and failed with SQLITE_FULL.
TEST(VfsTest, WritesOf128KiBAndMoreReachTheFile) {
  sqlite3_vfs* vfs = sqlite3_vfs_find(KovaVfsName());
  ASSERT_NE(vfs, nullptr);
  std::unique_ptr<char[]> storage(new char[vfs->szOsFile]());
  sqlite3_file* file = reinterpret_cast<sqlite3_file*>(storage.get());
  int flags = SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_READWRITE |
              SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE |
              SQLITE_OPEN_DELETEONCLOSE;
  int out = 0;
  ASSERT_EQ(vfs->xOpen(vfs, nullptr, file, flags, &out), SQLITE_OK);
  for (int size : {128 << 10, (4 << 20) + 4096, 300000}) {
    std::string data(size, '\0');
    for (int i = 0; i < size; i++) data[i] = static_cast<char>(i * 7 + size);
    ASSERT_EQ(file->pMethods->xWrite(file, data.data(), size, 4096), SQLITE_OK)
        << size;
    // Read back in pieces: SQLite reads no more than a page or so at once.
    std::string back(size, 'x');
    for (int at = 0; at < size; at += 65536) {
      int n = std::min(65536, size - at);
      ASSERT_EQ(file->pMethods->xRead(file, back.data() + at, n, 4096 + at),
                SQLITE_OK)
          << size;
    }
    EXPECT_TRUE(back == data) << size;
  }
  sqlite3_int64 bytes = 0;
  ASSERT_EQ(file->pMethods->xFileSize(file, &bytes), SQLITE_OK);
  EXPECT_EQ(bytes, 4096 + (4 << 20) + 4096);
  EXPECT_EQ(file->pMethods->xClose(file), SQLITE_OK);
}

sqlite3* OpenKova(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                SQLITE_OPEN_NOMUTEX,
                            KovaVfsName()),
            SQLITE_OK);
  EXPECT_EQ(
      sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr),
      SQLITE_OK);
  return db;
}

int64_t QueryInt(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr), SQLITE_OK) << sql;
  int64_t value = -1;
  if (sqlite3_step(stmt) == SQLITE_ROW) value = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  return value;
}

// A checkpoint's reads of WAL frames stay out of the shared page cache
// (CheckpointReads); readers on other connections still see every commit
// exactly, through checkpoints that copied frames of a large transaction
// (written past the cache) and of small ones (cached as written).
TEST(VfsTest, CheckpointReadsLeaveReadersExact) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/t.db";
  sqlite3* writer = OpenKova(path);
  sqlite3* reader = OpenKova(path);
  sqlite3* checkpointer = OpenKova(path);
  auto exec = [](sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (err ? err : "");
    sqlite3_free(err);
  };
  auto checkpoint = [&] {
    CheckpointReads uncached;
    int log = -1, copied = -1;
    EXPECT_EQ(
        sqlite3_wal_checkpoint_v2(checkpointer, "main",
                                  SQLITE_CHECKPOINT_PASSIVE, &log, &copied),
        SQLITE_OK);
    EXPECT_EQ(copied, log);
  };
  constexpr int kRows = 3000;
  // About 3 MB in one transaction: runs of 1 MB and more bypass the cache.
  exec(writer,
       "CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);"
       "BEGIN;"
       "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n "
       "WHERE k < " +
           std::to_string(kRows) +
           ") INSERT INTO t SELECT k, printf('%0900d', k) FROM n;"
           "COMMIT;");
  const char* exact = "SELECT count(*) FROM t WHERE v = printf('%0900d', k)";
  EXPECT_EQ(QueryInt(reader, exact), kRows);
  checkpoint();
  EXPECT_EQ(QueryInt(reader, exact), kRows);
  // Small commits, then a checkpoint of them, then the next commits.
  for (int round = 0; round < 3; round++) {
    for (int k = 1 + round; k <= kRows; k += 97)
      exec(writer, "UPDATE t SET v = printf('%0900d', k + 1000000) WHERE k = " +
                       std::to_string(k));
    checkpoint();
  }
  int64_t moved = QueryInt(
      reader, "SELECT count(*) FROM t WHERE v = printf('%0900d', k + 1000000)");
  int64_t kept = QueryInt(reader, exact);
  EXPECT_GT(moved, 0);
  EXPECT_EQ(moved + kept, kRows);
  EXPECT_EQ(QueryInt(checkpointer, exact), kept);
  sqlite3_close(reader);
  sqlite3_close(checkpointer);
  sqlite3_close(writer);
  // Everything is in the database file after the last close.
  sqlite3* reopened = OpenKova(path);
  EXPECT_EQ(QueryInt(reopened, exact), kept);
  sqlite3_close(reopened);
  std::filesystem::remove_all(dir);
}

// A checkpoint gathers the pages it copies into runs and reads the WAL ahead
// (vfs.cc, item 4): when the checkpoint returns, the database file alone
// holds every page it copied, in place, while readers on other connections
// saw every commit exactly during it.
TEST(VfsTest, CheckpointedPagesAreInTheFileWhenItReturns) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/t.db";
  sqlite3* writer = OpenKova(path);
  sqlite3* reader = OpenKova(path);
  sqlite3* checkpointer = OpenKova(path);
  auto exec = [](sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (err ? err : "");
    sqlite3_free(err);
  };
  // The database file as it stands, opened on its own with the unix VFS.
  auto file_alone = [&](const char* sql) {
    std::string copy = dir + "/copy.db";
    std::filesystem::copy_file(
        path, copy, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    EXPECT_EQ(
        sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr),
        SQLITE_OK);
    int64_t value = QueryInt(db, sql);
    EXPECT_EQ(QueryInt(db,
                       "SELECT count(*) FROM pragma_integrity_check "
                       "WHERE integrity_check <> 'ok'"),
              0);
    sqlite3_close(db);
    return value;
  };
  // Returns the frames copied and the WAL's length in frames.
  auto checkpoint = [&](int mode) {
    CheckpointReads uncached;
    int log = -1, copied = -1;
    EXPECT_EQ(
        sqlite3_wal_checkpoint_v2(checkpointer, "main", mode, &log, &copied),
        SQLITE_OK);
    return std::make_pair(copied, log);
  };
  // About 12 MB in one transaction, an index besides the table: runs of
  // consecutive pages past the 1 MB a checkpoint gathers before writing.
  constexpr int kRows = 12000;
  exec(writer,
       "PRAGMA wal_autocheckpoint=0;"
       "CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);"
       "CREATE INDEX t_v ON t(substr(v, 1, 40));"
       "BEGIN;"
       "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n "
       "WHERE k < " +
           std::to_string(kRows) +
           ") INSERT INTO t SELECT k, printf('%0900d', (k * 7919) % 100003) "
           "FROM n;"
           "COMMIT;");
  const char* exact =
      "SELECT count(*) FROM t WHERE v = printf('%0900d', (k * 7919) % 100003)";
  const char* moved_sql =
      "SELECT count(*) FROM t WHERE v = printf('%0900d', k + 1000000)";
  // A reader holds the snapshot of the large transaction while scattered
  // updates (pages far apart) commit: the checkpoint copies only the large
  // one and publishes it without syncing the file, and a connection that
  // starts then reads those pages from the file.
  exec(reader, "BEGIN");
  EXPECT_EQ(QueryInt(reader, exact), kRows);
  exec(writer,
       "UPDATE t SET v = printf('%0900d', k + 1000000) WHERE k % 37 = 0");
  constexpr int kMoved = kRows / 37;
  auto [copied, log] = checkpoint(SQLITE_CHECKPOINT_PASSIVE);
  EXPECT_GT(copied, 0);
  EXPECT_LT(copied, log);
  sqlite3* late = OpenKova(path);
  EXPECT_EQ(QueryInt(late, moved_sql), kMoved);
  EXPECT_EQ(QueryInt(late, exact), kRows - kMoved);
  EXPECT_EQ(QueryInt(late,
                     "SELECT count(*) FROM pragma_integrity_check "
                     "WHERE integrity_check <> 'ok'"),
            0);
  EXPECT_EQ(QueryInt(reader, exact), kRows);
  exec(reader, "COMMIT");
  std::tie(copied, log) = checkpoint(SQLITE_CHECKPOINT_FULL);
  EXPECT_EQ(copied, log);
  EXPECT_EQ(QueryInt(reader, moved_sql), kMoved);
  EXPECT_EQ(file_alone(moved_sql), kMoved);
  EXPECT_EQ(file_alone(exact), kRows - kMoved);
  sqlite3_close(late);
  sqlite3_close(reader);
  sqlite3_close(checkpointer);
  sqlite3_close(writer);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kova::docstore::testing
