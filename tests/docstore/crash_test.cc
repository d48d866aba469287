// Crash safety: a child process inserts and acknowledges each committed
// document through a pipe; the parent kills it with SIGKILL mid-stream,
// reopens the data directory and checks that every acknowledged document is
// there and that no counter value is handed out again.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <thread>

#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

// In the child: insert forever, writing each acknowledged id to `fd`.
// `batch` > 1 commits that many inserts per explicit transaction.
[[noreturn]] void InsertForever(const std::string& dir, int fd, int batch) {
  std::unique_ptr<Store> store;
  std::unique_ptr<Session> session;
  if (!Store::Open(dir, StoreOptions{}, &store).ok() ||
      !store->NewSession(&session).ok())
    _exit(3);
  Document doc =
      J(R"({"payload": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})");
  std::vector<int64_t> pending;
  while (true) {
    if (batch > 1 && !session->Begin().ok()) _exit(4);
    for (int i = 0; i < batch; i++) {
      Document stored;
      if (!session->Insert("shop", "orders", doc.bson(), &stored).ok())
        _exit(5);
      bson_iter_t it;
      bson_iter_init_find(&it, stored.bson(), "id");
      pending.push_back(bson_iter_as_int64(&it));
    }
    if (batch > 1 && !session->Commit().ok()) _exit(6);
    // Acknowledge only what is committed.
    for (int64_t id : pending) {
      if (write(fd, &id, sizeof(id)) != sizeof(id)) _exit(7);
    }
    pending.clear();
  }
}

class CrashTest : public StoreTest,
                  public ::testing::WithParamInterface<int> {};

TEST_P(CrashTest, KillDuringInsertsLosesNothingAcknowledged) {
  const int batch = GetParam();
  ASSERT_TRUE(
      Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  std::set<int64_t> acknowledged;
  for (int round = 0; round < 3; round++) {
    session_.reset();
    store_.reset();  // release the directory for the child
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      InsertForever(dir_, fds[1], batch);
    }
    close(fds[1]);
    // Let it run until it has acknowledged a good number, then kill it
    // at an arbitrary point (possibly inside a transaction or an fsync).
    size_t before = acknowledged.size();
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int64_t id;
    while (acknowledged.size() < before + 200 + 37 * round &&
           std::chrono::steady_clock::now() < deadline &&
           read(fds[0], &id, sizeof(id)) == sizeof(id)) {
      EXPECT_TRUE(acknowledged.insert(id).second) << "id " << id << " twice";
    }
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    // Acknowledgements already in the pipe count too.
    while (read(fds[0], &id, sizeof(id)) == sizeof(id)) {
      EXPECT_TRUE(acknowledged.insert(id).second) << "id " << id << " twice";
    }
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status))
        << "child exited with " << WEXITSTATUS(status);
    ASSERT_GT(acknowledged.size(), before) << "child acknowledged nothing";

    Reopen();
    // Every acknowledged document is there, exactly once.
    auto docs = Find("shop", "orders");
    std::set<int64_t> stored;
    for (const auto& doc : docs) {
      EXPECT_TRUE(stored.insert(IntOf(doc, "id")).second);
    }
    for (int64_t ack : acknowledged) {
      EXPECT_TRUE(stored.count(ack)) << "acknowledged id " << ack << " lost";
    }
    // The counter is at or past every value stored, so the next insert
    // takes a value never handed out.
    auto row = Counter("shop.orders.id");
    ASSERT_TRUE(row);
    EXPECT_GE(IntOf(*row, "last"), *stored.rbegin());
    Document next = Insert("shop", "orders", "{}");
    EXPECT_GT(IntOf(next, "id"), *stored.rbegin());
    acknowledged.insert(IntOf(next, "id"));
    for (int64_t s : stored) acknowledged.insert(s);
  }
}

INSTANTIATE_TEST_SUITE_P(CommitEach, CrashTest, ::testing::Values(1));
INSTANTIATE_TEST_SUITE_P(Batched, CrashTest, ::testing::Values(50));

}  // namespace
}  // namespace kova::docstore::testing
