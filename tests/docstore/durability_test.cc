// Durable commits and counter reservations (docstore/durability.cc): a
// durable commit syncs the WAL, concurrent commits share syncs, nextval
// syncs once per reservation of 32 values, a clean close keeps counters
// exact and a killed process never hands a value out twice (the counter
// may skip what was left of its reservation, as PostgreSQL's does).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include "docstore/internal.h"
#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

class DurabilityTest : public StoreTest {
 protected:
  void CreateSequence(const std::string& id) {
    ASSERT_TRUE(session_->WriteCounter(id, "", "", CounterSpec{}, 0).ok());
  }
  int64_t Next(const std::string& id) {
    int64_t value = 0;
    Status s = session_->NextCounter(id, &value);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }
  int64_t ReservationRows() {
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(session_->connection(),
                       "SELECT count(*) FROM kova_counter_reserve", -1, &stmt,
                       nullptr);
    int64_t n =
        sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    return n;
  }
  uint64_t Syncs() { return store_->durability().syncs(); }

  // Hands out values in a child process (on `threads` sessions) killed
  // `rounds` times with SIGKILL.
  void KillWhileHandingOut(bool durable, int threads = 1, int rounds = 3);
};

TEST_F(DurabilityTest, EveryDurableCommitSyncsAndNonDurableOnesDoNot) {
  ASSERT_TRUE(
      Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  uint64_t before = Syncs();
  for (int i = 0; i < 20; i++) Insert("shop", "orders", "{}");
  EXPECT_EQ(Syncs() - before, 20u);

  ASSERT_TRUE(session_->SetDurableCommits(false).ok());
  before = Syncs();
  for (int i = 0; i < 20; i++) Insert("shop", "orders", "{}");
  EXPECT_EQ(Syncs() - before, 0u);
  // A read never syncs.
  ASSERT_TRUE(session_->SetDurableCommits(true).ok());
  before = Syncs();
  EXPECT_EQ(Find("shop", "orders").size(), 40u);
  EXPECT_EQ(Syncs() - before, 0u);
}

TEST_F(DurabilityTest, NextvalSyncsOncePerReservation) {
  CreateSequence("shop.s");
  uint64_t before = Syncs();
  for (int64_t i = 1; i <= 100; i++) ASSERT_EQ(Next("shop.s"), i);
  // A reservation at 1 (to 32), renewed ahead at 17 (to 49), then, as
  // nothing else took values meanwhile, at the last value: 49 and 81.
  EXPECT_EQ(Syncs() - before, 4u);
  EXPECT_EQ(ReservationRows(), 1);
}

TEST_F(DurabilityTest, NextvalInsideAReservationSyncsWhenItsWriterDidNot) {
  CreateSequence("shop.s");
  // A session with synchronous_commit off writes the reservation without
  // syncing it; a durable session covered by it must sync it.
  std::unique_ptr<Session> lazy;
  ASSERT_TRUE(store_->NewSession(&lazy).ok());
  ASSERT_TRUE(lazy->SetDurableCommits(false).ok());
  int64_t value = 0;
  uint64_t before = Syncs();
  ASSERT_TRUE(lazy->NextCounter("shop.s", &value).ok());
  EXPECT_EQ(value, 1);
  EXPECT_EQ(Syncs() - before, 0u);
  EXPECT_EQ(Next("shop.s"), 2);
  EXPECT_EQ(Syncs() - before, 1u);
  EXPECT_EQ(Next("shop.s"), 3);
  EXPECT_EQ(Syncs() - before, 1u);
}

TEST_F(DurabilityTest, CleanCloseKeepsCountersExact) {
  CreateSequence("shop.s");
  for (int64_t i = 1; i <= 5; i++) ASSERT_EQ(Next("shop.s"), i);
  Reopen();
  EXPECT_EQ(ReservationRows(), 0);
  EXPECT_EQ(Next("shop.s"), 6);
  auto row = Counter("shop.s");
  ASSERT_TRUE(row);
  EXPECT_EQ(IntOf(*row, "last"), 6);
}

TEST_F(DurabilityTest, ARolledBackNextvalStaysHandedOut) {
  CreateSequence("shop.s");
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_EQ(Next("shop.s"), 1);
  EXPECT_EQ(Next("shop.s"), 2);
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(Next("shop.s"), 3);
  ASSERT_TRUE(session_->Begin().ok());
  ASSERT_TRUE(session_->Savepoint("a").ok());
  EXPECT_EQ(Next("shop.s"), 4);
  ASSERT_TRUE(session_->RollbackToSavepoint("a").ok());
  ASSERT_TRUE(session_->Commit().ok());
  Reopen();
  EXPECT_EQ(Next("shop.s"), 5);
}

TEST_F(DurabilityTest, ConcurrentDurableCommitsShareSyncs) {
  ASSERT_TRUE(
      Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  constexpr int kThreads = 8, kInserts = 100;
  uint64_t before = Syncs();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&] {
      std::unique_ptr<Session> session;
      if (!store_->NewSession(&session).ok()) {
        failures++;
        return;
      }
      Document doc = J("{}");
      for (int i = 0; i < kInserts; i++)
        if (!session->Insert("shop", "orders", doc.bson()).ok()) failures++;
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures, 0);
  uint64_t syncs = Syncs() - before;
  EXPECT_GT(syncs, 0u);
  EXPECT_LT(syncs, static_cast<uint64_t>(kThreads * kInserts));
  std::set<int64_t> ids;
  for (const auto& doc : Find("shop", "orders")) ids.insert(IntOf(doc, "id"));
  EXPECT_EQ(ids.size(), static_cast<size_t>(kThreads * kInserts));
}

// The VFS keeps database pages in a cache shared by every connection (and
// writes the WAL in runs): a reader must see each commit of another
// connection, including the pages checkpoints copy into the database file.
TEST_F(DurabilityTest, ReadersSeeEveryCommitThroughTheSharedPageCache) {
  ASSERT_TRUE(
      Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  std::unique_ptr<Session> reader;
  ASSERT_TRUE(store_->NewSession(&reader).ok());
  ASSERT_TRUE(session_->SetDurableCommits(false).ok());
  std::string pad(900, 'x');
  for (int round = 1; round <= 4; round++) {
    // Enough pages per round for several automatic checkpoints.
    ASSERT_TRUE(session_->Begin().ok());
    for (int i = 0; i < 3000; i++) {
      Insert("shop", "orders",
             R"({"round": )" + std::to_string(round) + R"(, "half": )" +
                 std::to_string(i % 2) + R"(, "pad": ")" + pad + R"("})");
    }
    ASSERT_TRUE(session_->Commit().ok());
    Document filter = J(R"({"round": )" + std::to_string(round) + "}");
    std::vector<Document> out;
    ASSERT_TRUE(reader->Find("shop", "orders", filter.bson(), {}, &out).ok());
    EXPECT_EQ(out.size(), 3000u) << "round " << round;
    // Deleting half moves pages around again.
    Document odd =
        J(R"({"round": )" + std::to_string(round) + R"(, "half": 1})");
    int64_t deleted = 0;
    ASSERT_TRUE(
        session_->Delete("shop", "orders", odd.bson(), 0, &deleted).ok());
    EXPECT_EQ(deleted, 1500);
    out.clear();
    ASSERT_TRUE(reader->Find("shop", "orders", filter.bson(), {}, &out).ok());
    EXPECT_EQ(out.size(), 1500u) << "round " << round;
  }
  Document all = J("{}");
  std::vector<Document> out;
  ASSERT_TRUE(reader->Find("shop", "orders", all.bson(), {}, &out).ok());
  EXPECT_EQ(out.size(), 6000u);
  reader.reset();
  Reopen();
  EXPECT_EQ(Find("shop", "orders").size(), 6000u);
}

// In the child: nextval forever on `threads` sessions, writing each value
// to `fd` once returned (a pipe: each 8-byte write is atomic). `durable`
// false: synchronous_commit off, commits return before any sync.
[[noreturn]] void NextvalForever(const std::string& dir, int fd, bool durable,
                                 int threads) {
  std::unique_ptr<Store> store;
  if (!Store::Open(dir, StoreOptions{}, &store).ok()) _exit(3);
  std::vector<std::unique_ptr<Session>> sessions(threads);
  for (auto& session : sessions)
    if (!store->NewSession(&session).ok() ||
        !session->SetDurableCommits(durable).ok())
      _exit(3);
  auto loop = [fd](Session* session) {
    while (true) {
      int64_t value;
      if (!session->NextCounter("shop.s", &value).ok()) _exit(4);
      if (write(fd, &value, sizeof(value)) != sizeof(value)) _exit(5);
    }
  };
  for (int t = 1; t < threads; t++)
    std::thread(loop, sessions[t].get()).detach();
  loop(sessions[0].get());
  _exit(6);  // not reached: the loop ends the process
}

void DurabilityTest::KillWhileHandingOut(bool durable, int threads,
                                         int rounds) {
  CreateSequence("shop.s");
  std::set<int64_t> handed_out;
  for (int round = 0; round < rounds; round++) {
    session_.reset();
    store_.reset();
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      NextvalForever(dir_, fds[1], durable, threads);
    }
    close(fds[1]);
    size_t before = handed_out.size();
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int64_t value;
    while (handed_out.size() < before + 300 + 41 * round &&
           std::chrono::steady_clock::now() < deadline &&
           read(fds[0], &value, sizeof(value)) == sizeof(value)) {
      EXPECT_TRUE(handed_out.insert(value).second) << value << " twice";
    }
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    while (read(fds[0], &value, sizeof(value)) == sizeof(value))
      EXPECT_TRUE(handed_out.insert(value).second) << value << " twice";
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    ASSERT_GT(handed_out.size(), before);

    Reopen();
    // The values handed out from the killed process's lease were never
    // written to the row: the open moved the counter to the end of its
    // reservation. So it is past every value acknowledged, by at most one
    // reservation (32 values, counting a renewal the kill kept from being
    // acknowledged, and with several threads the values each had taken but
    // not yet acknowledged), and the reservations are gone.
    EXPECT_EQ(ReservationRows(), 0);
    auto row = Counter("shop.s");
    ASSERT_TRUE(row);
    int64_t last = IntOf(*row, "last");
    EXPECT_GE(last, *handed_out.rbegin());
    // One session alone never grows the window (nothing is taken while it
    // renews); several may, up to kMaxReservedValues.
    EXPECT_LE(last, *handed_out.rbegin() + threads +
                        (threads == 1 ? kReservedValues : kMaxReservedValues));
    int64_t next = Next("shop.s");
    EXPECT_EQ(next, last + 1);
    EXPECT_TRUE(handed_out.insert(next).second);
  }
}

TEST_F(DurabilityTest, KilledProcessNeverHandsAValueOutTwice) {
  KillWhileHandingOut(/*durable=*/true);
}

// Without synchronous_commit a commit's WAL frames are queued and written
// once the writer lock is released, but still before the commit returns:
// a killed process loses nothing it acknowledged.
TEST_F(DurabilityTest, KilledNonDurableProcessKeepsEveryAcknowledgedValue) {
  KillWhileHandingOut(/*durable=*/false);
}

// Four sessions share the lease and renew it ahead, each renewal a durable
// commit: most of the child's time goes to those syncs, so the kills land
// while renewals are being written, committed or published.
TEST_F(DurabilityTest, KilledWhileRenewingAheadNeverHandsAValueOutTwice) {
  KillWhileHandingOut(/*durable=*/true, /*threads=*/4, /*rounds=*/6);
}

TEST_F(DurabilityTest, KilledNonDurableWhileRenewingAheadKeepsEveryValue) {
  KillWhileHandingOut(/*durable=*/false, /*threads=*/4, /*rounds=*/6);
}

// Runs `work` in a child process on the store, then kills the child with
// SIGKILL once the work is done (the store is left open, as in a crash).
void RunThenKill(const std::string& dir,
                 const std::function<void(Session*)>& work) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    std::unique_ptr<Store> store;
    std::unique_ptr<Session> session;
    if (!Store::Open(dir, StoreOptions{}, &store).ok() ||
        !store->NewSession(&session).ok())
      _exit(3);
    work(session.get());
    char done = 1;
    if (write(fds[1], &done, 1) != 1) _exit(4);
    while (true) pause();
  }
  close(fds[1]);
  char done = 0;
  ASSERT_EQ(read(fds[0], &done, 1), 1);
  close(fds[0]);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status;
  waitpid(pid, &status, 0);
}

// As if the machine had restarted since the reservations were written.
void PretendMachineRestarted(const std::string& dir) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir + "/kova.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE kova_counter_reserve SET boot = 'other'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  ASSERT_GT(sqlite3_changes(db), 0);
  sqlite3_close(db);
}

TEST_F(DurabilityTest, AfterAMachineCrashCountersMoveToTheirReservation) {
  CreateSequence("shop.s");
  CreateSequence("shop.edited");
  session_.reset();
  store_.reset();
  RunThenKill(dir_, [](Session* session) {
    int64_t value;
    for (int i = 0; i < 40; i++) session->NextCounter("shop.s", &value);
    for (int i = 0; i < 5; i++) session->NextCounter("shop.edited", &value);
    // An edit after the values handed out, outside the reservation.
    session->SetCounterLast("shop.edited", 500);
  });
  PretendMachineRestarted(dir_);
  Reopen();
  EXPECT_EQ(ReservationRows(), 0);
  // 1..32 was reserved, renewed ahead at 17 (to 49): whatever of 1..40 a
  // crash lost, the next value is past the reservation.
  EXPECT_EQ(Next("shop.s"), 50);
  // The edit was a synced commit and stands.
  EXPECT_EQ(Next("shop.edited"), 501);
}

}  // namespace
}  // namespace kova::docstore::testing
