// Counter leases (docstore/leases.cc): nextval inside a durable reservation
// writes nothing, readers still see the exact last, every write of a
// counter row starts from the exact last and takes effect on the next
// nextval, and no value is handed out twice, concurrently or after a
// rollback.
#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "docstore/internal.h"
#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

class LeasesTest : public StoreTest {
 protected:
  void CreateSequence(const std::string& id, CounterSpec spec = {}) {
    ASSERT_TRUE(session_->WriteCounter(id, "", "", spec, 0).ok());
  }
  int64_t Next(const std::string& id, Session* session = nullptr) {
    int64_t value = 0;
    Status s = (session ? session : session_.get())->NextCounter(id, &value);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }
  // last as stored in the row, read around the lease.
  int64_t StoredLast(const std::string& id) {
    sqlite3_stmt* stmt = nullptr;
    std::string sql = "SELECT kova_get(doc, 'last') FROM " +
                      TableName("admin.counters") + " WHERE kid = ?1";
    EXPECT_EQ(sqlite3_prepare_v2(session_->connection(), sql.c_str(), -1, &stmt,
                                 nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, id.c_str(), -1, SQLITE_TRANSIENT);
    int64_t last =
        sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    return last;
  }
  int64_t ReadLast(const std::string& id) {
    Session::CounterInfo info;
    Status s = session_->ReadCounter(id, &info);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return info.last.value_or(INT64_MIN);
  }
  int64_t Changes() { return sqlite3_total_changes64(session_->connection()); }
  uint64_t Syncs() { return store_->durability().syncs(); }
};

TEST_F(LeasesTest, NextvalInsideTheLeaseWritesNothingAndReadersSeeIt) {
  CreateSequence("shop.s");
  EXPECT_EQ(Next("shop.s"), 1);  // renews: writes the row and reservation
  int64_t changes = Changes();
  uint64_t syncs = Syncs();
  for (int64_t i = 2; i <= 16; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(Changes(), changes);
  EXPECT_EQ(Syncs(), syncs);
  EXPECT_EQ(StoredLast("shop.s"), 1);
  // Every reader sees the exact value.
  auto row = Counter("shop.s");
  ASSERT_TRUE(row);
  EXPECT_EQ(IntOf(*row, "last"), 16);
  EXPECT_EQ(Find("admin", "counters", R"({"last": 16})").size(), 1u);
  EXPECT_EQ(ReadLast("shop.s"), 16);
}

int64_t ReservedUpto(Session* session, const std::string& id) {
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(session->connection(),
                     "SELECT upto FROM kova_counter_reserve WHERE id = ?1", -1,
                     &stmt, nullptr);
  sqlite3_bind_text(stmt, 1, id.c_str(), -1, SQLITE_TRANSIENT);
  int64_t upto =
      sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
  sqlite3_finalize(stmt);
  return upto;
}

// Once fewer than half of its values are left, the lease's reservation is
// moved 32 values past the last one handed out, in one commit (one sync),
// before the lease runs out; the row is not written while the lease lasts.
// A session that took every value alone renews at the lease's last value
// from then on (32 values per commit and sync, as without renewing ahead).
TEST_F(LeasesTest, ALeaseIsRenewedAheadBeforeItRunsOut) {
  CreateSequence("shop.s");
  EXPECT_EQ(Next("shop.s"), 1);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 32);
  for (int64_t i = 2; i <= 16; i++) ASSERT_EQ(Next("shop.s"), i);
  int64_t changes = Changes();
  uint64_t syncs = Syncs();
  EXPECT_EQ(Next("shop.s"), 17);  // 15 left: renews ahead
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 17 + 32);
  EXPECT_EQ(Changes(), changes + 1);  // the reservation row only
  EXPECT_EQ(Syncs(), syncs + 1);
  for (int64_t i = 18; i <= 33; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(Changes(), changes + 1);
  EXPECT_EQ(Syncs(), syncs + 1);
  for (int64_t i = 34; i <= 48; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 49);
  EXPECT_EQ(Next("shop.s"), 49);  // alone: at the last value
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 49 + 32);
  EXPECT_EQ(Syncs(), syncs + 2);
  for (int64_t i = 50; i <= 200; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 177 + 32);
  EXPECT_EQ(StoredLast("shop.s"), 1);
  EXPECT_EQ(ReadLast("shop.s"), 200);
  // An edit ends the lease with the exact last; the next value starts a
  // fresh reservation from there.
  ASSERT_TRUE(session_->SetCounterLast("shop.s", 300).ok());
  EXPECT_EQ(StoredLast("shop.s"), 300);
  EXPECT_EQ(Next("shop.s"), 301);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 332);
}

// Sessions that use up half the window while a renewal ahead is waiting
// (here for the writer lock) double the window of the next one.
TEST_F(LeasesTest, ARenewalOvertakenByDemandDoublesTheNextWindow) {
  CreateSequence("shop.s");
  std::unique_ptr<Session> other;
  ASSERT_TRUE(store_->NewSession(&other).ok());
  for (int64_t i = 1; i <= 16; i++) ASSERT_EQ(Next("shop.s"), i);
  store_->writer_lock().lock();
  std::thread renewer([&] { EXPECT_EQ(Next("shop.s"), 17); });
  // 17 leaves 15 of 1..32: its renewal ahead waits for the writer lock
  // while the other session takes 14 more values from the lease.
  while (ReadLast("shop.s") != 17) std::this_thread::yield();
  for (int64_t i = 18; i <= 31; i++) ASSERT_EQ(Next("shop.s", other.get()), i);
  store_->writer_lock().unlock();
  renewer.join();
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 31 + 32);
  // The next renewal starts with fewer than 32 of 64 left, and reserves 64.
  EXPECT_EQ(Next("shop.s", other.get()), 32);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 32 + 64);
  // Alone again, renewals find nothing taken meanwhile: back to 32, at
  // the lease's last value.
  for (int64_t i = 33; i <= 95; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 96);
  EXPECT_EQ(Next("shop.s"), 96);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 96 + 32);
}

// A lease at the counter's bound cannot be renewed ahead: it runs to its
// end, without a write per call.
TEST_F(LeasesTest, ALeaseAtTheBoundIsNotRenewedAhead) {
  CounterSpec spec;
  spec.max_value = 40;
  CreateSequence("shop.s", spec);
  for (int64_t i = 1; i <= 17; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 40);
  int64_t changes = Changes();
  for (int64_t i = 18; i <= 40; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(Changes(), changes);
  int64_t value;
  EXPECT_EQ(session_->NextCounter("shop.s", &value).code(),
            Code::kCounterExhausted);
}

// Values past the old end of a reservation are durable with the renewal's
// commit: a durable caller waits for that commit's sync when the renewal
// did not sync (synchronous_commit off), and not for values before it.
TEST_F(LeasesTest, ValuesOfARenewalAheadAreSyncedBeforeADurableCallerGetsThem) {
  CreateSequence("shop.s");
  std::unique_ptr<Session> lazy;
  ASSERT_TRUE(store_->NewSession(&lazy).ok());
  ASSERT_TRUE(lazy->SetDurableCommits(false).ok());
  EXPECT_EQ(Next("shop.s"), 1);  // durable: 1..32 synced
  uint64_t syncs = Syncs();
  for (int64_t i = 2; i <= 17; i++) ASSERT_EQ(Next("shop.s", lazy.get()), i);
  // The lazy session renewed ahead to 49 without a sync.
  EXPECT_EQ(ReservedUpto(session_.get(), "shop.s"), 49);
  EXPECT_EQ(Syncs(), syncs);
  for (int64_t i = 18; i <= 32; i++) ASSERT_EQ(Next("shop.s"), i);
  EXPECT_EQ(Syncs(), syncs);
  EXPECT_EQ(Next("shop.s"), 33);  // 33 on: the renewal's commit, synced now
  EXPECT_EQ(Syncs(), syncs + 1);
}

TEST_F(LeasesTest, AnEditStartsFromTheExactLastAndTakesEffectAtOnce) {
  CreateSequence("shop.s");
  for (int64_t i = 1; i <= 5; i++) ASSERT_EQ(Next("shop.s"), i);
  Document reply = Run("admin",
                       R"({"update": "counters", "updates": [{"q": {"_id":
                       "shop.s"}, "u": {"$inc": {"last": 100}}}]})");
  ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  EXPECT_EQ(StoredLast("shop.s"), 105);
  EXPECT_EQ(Next("shop.s"), 106);
  // Backwards too (setval): the next value follows the edit.
  ASSERT_TRUE(session_->SetCounterLast("shop.s", 3).ok());
  EXPECT_EQ(Next("shop.s"), 4);
  SetLast("shop.s", "50");
  EXPECT_EQ(Next("shop.s"), 51);
  // A rewritten row (ALTER SEQUENCE ... RESTART) too.
  CounterSpec spec;
  spec.increment = 10;
  ASSERT_TRUE(session_->WriteCounter("shop.s", "", "", spec, 0).ok());
  EXPECT_EQ(Next("shop.s"), 10);
  EXPECT_EQ(Next("shop.s"), 20);
  // A deleted row is gone for nextval at once.
  ASSERT_TRUE(session_->DeleteCounter("shop.s").ok());
  int64_t value;
  EXPECT_EQ(session_->NextCounter("shop.s", &value).code(),
            Code::kNamespaceNotFound);
}

TEST_F(LeasesTest, ARolledBackEditKeepsTheValuesHandedOut) {
  CreateSequence("shop.s");
  for (int64_t i = 1; i <= 5; i++) ASSERT_EQ(Next("shop.s"), i);
  ASSERT_TRUE(session_->BeginWrite().ok());
  SetLast("shop.s", "2");
  // A restart and a value handed out inside the same transaction.
  ASSERT_TRUE(session_->WriteCounter("shop.s", "", "", CounterSpec{}, 0).ok());
  EXPECT_EQ(Next("shop.s"), 1);
  ASSERT_TRUE(session_->Rollback().ok());
  // The row is back as before the transaction, with the lease's last
  // written in: no lease was left pointing at the restarted counter.
  EXPECT_EQ(Next("shop.s"), 6);
  EXPECT_EQ(ReadLast("shop.s"), 6);
}

TEST_F(LeasesTest, ARolledBackNextvalInAWriteTransactionStaysHandedOut) {
  CreateSequence("shop.s");
  for (int64_t i = 1; i <= 3; i++) ASSERT_EQ(Next("shop.s"), i);
  ASSERT_TRUE(session_->BeginWrite().ok());
  EXPECT_EQ(Next("shop.s"), 4);
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(Next("shop.s"), 5);
  // Exhaust the lease inside a write transaction: the renewal is written
  // there, and a rollback throws the lease away, not the values.
  ASSERT_TRUE(session_->BeginWrite().ok());
  for (int64_t i = 6; i <= 40; i++) ASSERT_EQ(Next("shop.s"), i);
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(Next("shop.s"), 41);
  EXPECT_EQ(Next("shop.s"), 42);
}

TEST_F(LeasesTest, BoundsAndCyclesBehaveAsWithoutALease) {
  CounterSpec spec;
  spec.max_value = 40;
  CreateSequence("shop.s", spec);
  for (int64_t i = 1; i <= 40; i++) ASSERT_EQ(Next("shop.s"), i);
  int64_t value;
  EXPECT_EQ(session_->NextCounter("shop.s", &value).code(),
            Code::kCounterExhausted);
  EXPECT_EQ(ReadLast("shop.s"), 40);
  spec.increment = -3;
  spec.min_value = -10;
  spec.max_value = -1;
  spec.cycle = true;
  CreateSequence("shop.down", spec);
  std::vector<int64_t> got;
  for (int i = 0; i < 6; i++) got.push_back(Next("shop.down"));
  // From last 0: -3, -6, -9, then past min it cycles to max.
  EXPECT_EQ(got, (std::vector<int64_t>{-3, -6, -9, -1, -4, -7}));
}

TEST_F(LeasesTest, CleanCloseWritesTheExactLast) {
  CreateSequence("shop.s");
  for (int64_t i = 1; i <= 7; i++) ASSERT_EQ(Next("shop.s"), i);
  Reopen();
  EXPECT_EQ(StoredLast("shop.s"), 7);
  EXPECT_EQ(Next("shop.s"), 8);
}

TEST_F(LeasesTest, SixteenSessionsAndConcurrentEditsNeverShareAValue) {
  CreateSequence("shop.s");
  constexpr int kThreads = 16, kCalls = 1500;
  std::vector<std::vector<int64_t>> got(kThreads);
  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      if (!store_->NewSession(&session).ok()) {
        failures++;
        return;
      }
      // Half the sessions call it inside read transactions, as SELECT
      // nextval(...) does.
      for (int i = 0; i < kCalls; i++) {
        bool block = t % 2 == 1 && i % 10 == 0;
        if (block && !session->Begin().ok()) failures++;
        int64_t value;
        if (!session->NextCounter("shop.s", &value).ok())
          failures++;
        else
          got[t].push_back(value);
        if (block && !session->Commit().ok()) failures++;
      }
    });
  }
  // Edits that read the counter while values go out: each must start from
  // the exact last or a value would come round again.
  std::thread editor([&] {
    std::unique_ptr<Session> session;
    if (!store_->NewSession(&session).ok()) {
      failures++;
      return;
    }
    Document cmd = J(R"({"update": "counters", "updates": [{"q": {"_id":
        "shop.s"}, "u": {"$inc": {"last": 0}}}]})");
    while (!done) {
      Document reply = session->RunCommand("admin", cmd.bson());
      auto ok = Field(reply, "ok");
      if (!ok || bson_iter_as_double(&*ok) != 1.0) failures++;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  for (auto& t : threads) t.join();
  done = true;
  editor.join();
  ASSERT_EQ(failures, 0);
  std::set<int64_t> all;
  for (const auto& values : got) {
    for (size_t i = 0; i < values.size(); i++) {
      EXPECT_TRUE(all.insert(values[i]).second) << values[i] << " twice";
      if (i > 0) EXPECT_GT(values[i], values[i - 1]);
    }
  }
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kCalls));
  // Nothing skipped without a crash: the values are 1..N.
  EXPECT_EQ(*all.rbegin(), kThreads * kCalls);
  EXPECT_EQ(ReadLast("shop.s"), kThreads * kCalls);
}

}  // namespace
}  // namespace kova::docstore::testing
