// The kova SQLite VFS (docstore/vfs.cc) against the unix VFS it wraps.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "docstore/internal.h"

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

}  // namespace
}  // namespace kova::docstore::testing
