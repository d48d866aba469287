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
  uint64_t before = store_->checkpointer()->checkpoints();
  // About 3 pages per commit: some 60,000 WAL frames in all. Without
  // checkpoints that complete while commits keep coming, the WAL would
  // grow past the mark where a committing session checkpoints itself
  // (64,000 frames, some 260 MB).
  constexpr int kInserts = 20000;
  for (int i = 0; i < kInserts; i++)
    Insert("shop", "orders", R"({"sku": "item"})");
  // A checkpoint requested near the end may still be syncing when the
  // inserts end (slow under a parallel test run): give it time to finish.
  for (int waited = 0;
       store_->checkpointer()->checkpoints() == before && waited < 200;
       waited++)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(store_->checkpointer()->checkpoints(), before);
  // The WAL restarts after each checkpoint; it grows past 1,000 frames by
  // what commits add while a checkpoint runs (its syncs take tens of ms,
  // more when other work starves the thread), far below the 260 MB it
  // reaches when it never restarts.
  EXPECT_LT(WalBytes(), 128 << 20) << "the WAL never started over";
  Reopen();
  EXPECT_EQ(Find("shop", "orders").size(), static_cast<size_t>(kInserts));
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
