// Checkpoints on their own thread (docstore/checkpointer.cc): a steady
// stream of small commits keeps the WAL bounded without any commit
// checkpointing, and nothing committed is lost across checkpoints and
// reopening.
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "docstore/internal.h"
#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

class CheckpointerTest : public StoreTest {
 protected:
  int64_t WalBytes() {
    struct stat st;
    return stat((dir_ + "/kova.db-wal").c_str(), &st) == 0 ? st.st_size : 0;
  }
};

TEST_F(CheckpointerTest, SteadySmallCommitsKeepTheWalBounded) {
  ASSERT_TRUE(
      Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  ASSERT_TRUE(session_->SetDurableCommits(false).ok());
  ASSERT_NE(store_->checkpointer(), nullptr);
  // About 3 pages per commit. Without checkpoints that complete while
  // commits keep coming, the WAL would never start over: it would grow
  // until a committing session checkpoints itself (64,000 frames, some
  // 260 MB). Commits go on until it has started over three times (a slow
  // disk, as under a parallel test run, only makes that take longer), in a
  // loop that takes the writer lock again right after releasing it.
  constexpr int kMaxInserts = 200000;
  int inserts = 0;
  while (store_->checkpointer()->restarts() < 3 && inserts < kMaxInserts) {
    Insert("shop", "orders", R"({"sku": "item"})");
    inserts++;
  }
  EXPECT_GE(store_->checkpointer()->restarts(), 3u)
      << "the WAL never started over in " << inserts << " commits";
  // A very slow disk may still let the WAL reach the mark where a commit
  // checkpoints itself now and then; without the checkpointer's passes
  // every restart would come from such a checkpoint.
  EXPECT_GT(store_->checkpointer()->restarts(),
            2 * store_->checkpointer()->inline_checkpoints())
      << "the WAL started over only when commits checkpointed it";
  Reopen();
  EXPECT_EQ(Find("shop", "orders").size(), static_cast<size_t>(inserts));
}

TEST_F(CheckpointerTest, ReadersSeeEveryCommitWhileCheckpointsRun) {
  ASSERT_TRUE(
      Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  ASSERT_TRUE(session_->SetDurableCommits(false).ok());
  std::atomic<bool> done{false};
  std::atomic<int64_t> committed{0};
  std::atomic<bool> ok{true};
  std::thread reader([&] {
    std::unique_ptr<Session> reading;
    ASSERT_TRUE(store_->NewSession(&reading).ok());
    while (!done) {
      int64_t at_least = committed;
      std::vector<Document> docs;
      bson_t empty = BSON_INITIALIZER;
      Status s = reading->Find("shop", "orders", &empty, FindOptions{}, &docs);
      if (!s.ok() || static_cast<int64_t>(docs.size()) < at_least) ok = false;
    }
  });
  for (int i = 0; i < 6000; i++) {
    Insert("shop", "orders", R"({"sku": "item"})");
    committed = i + 1;
  }
  done = true;
  reader.join();
  EXPECT_TRUE(ok) << "a reader missed a commit";
  EXPECT_EQ(Find("shop", "orders").size(), 6000u);
}

}  // namespace
}  // namespace kova::docstore::testing
