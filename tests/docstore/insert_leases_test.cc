// An insert's autoincrement value from the counter's lease (docstore/
// durability.cc, NextAutoincrementValue): inside the lease an insert writes
// its document and nothing else, readers still see the exact last, the
// counter rules (a sent value moves it, an edit takes effect on the next
// insert, a deleted row resumes from the stored values) hold as without a
// lease, and no value is handed out twice: not after a rollback, not
// between inserting sessions and nextval callers, not after a crash.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "docstore/internal.h"
#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

constexpr const char* kCounter = "shop.orders.id";

class InsertLeasesTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    ASSERT_TRUE(
        Ok(Run("shop", R"({"create": "orders", "autoincrement": "id"})")));
  }
  int64_t InsertId(Session* session = nullptr) {
    Document doc = J(R"({"item": "x"})"), stored;
    Status s = (session ? session : session_.get())
                   ->Insert("shop", "orders", doc.bson(), &stored);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return s.ok() ? IntOf(stored, "id") : -1;
  }
  int64_t Changes() { return sqlite3_total_changes64(session_->connection()); }
  // last as stored in the row, read around the lease.
  int64_t StoredLast() {
    sqlite3_stmt* stmt = nullptr;
    std::string sql = "SELECT kova_get(doc, 'last') FROM " +
                      TableName("admin.counters") + " WHERE kid = ?1";
    EXPECT_EQ(sqlite3_prepare_v2(session_->connection(), sql.c_str(), -1, &stmt,
                                 nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, kCounter, -1, SQLITE_STATIC);
    int64_t last =
        sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    return last;
  }
  int64_t ReadLast() {
    Session::CounterInfo info;
    Status s = session_->ReadCounter(kCounter, &info);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return info.last.value_or(INT64_MIN);
  }
};

TEST_F(InsertLeasesTest, InsertsInsideTheLeaseWriteOnlyTheirDocuments) {
  EXPECT_EQ(InsertId(), 1);  // advances the row and reserves 1..32
  int64_t changes = Changes();
  for (int64_t i = 2; i <= 16; i++) ASSERT_EQ(InsertId(), i);
  // One change per insert: the document, not the counter row.
  EXPECT_EQ(Changes() - changes, 15);
  EXPECT_EQ(StoredLast(), 1);
  auto row = Counter(kCounter);
  ASSERT_TRUE(row);
  EXPECT_EQ(IntOf(*row, "last"), 16);
  EXPECT_EQ(ReadLast(), 16);
  // Clean close writes the exact last.
  Reopen();
  EXPECT_EQ(StoredLast(), 16);
  EXPECT_EQ(InsertId(), 17);
}

TEST_F(InsertLeasesTest, TheCounterRulesHoldWithALiveLease) {
  for (int64_t i = 1; i <= 3; i++) ASSERT_EQ(InsertId(), i);
  // A sent value beyond the counter moves it; the next insert follows it.
  Insert("shop", "orders", R"({"id": 40, "item": "sent"})");
  EXPECT_EQ(InsertId(), 41);
  // A sent value inside what was handed out leaves the counter alone.
  Status dup;
  Insert("shop", "orders", R"({"id": 41, "item": "dup"})", &dup);
  EXPECT_EQ(dup.code(), Code::kDuplicateKey);
  EXPECT_EQ(InsertId(), 42);
  // An edit of the row takes effect on the next insert.
  SetLast(kCounter, "500");
  EXPECT_EQ(InsertId(), 501);
  EXPECT_EQ(InsertId(), 502);
  // A deleted row resumes from the highest value stored.
  Document reply = Run("admin", R"({"delete": "counters", "deletes":
      [{"q": {"_id": "shop.orders.id"}, "limit": 1}]})");
  ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  EXPECT_EQ(InsertId(), 503);
  EXPECT_EQ(InsertId(), 504);
}

TEST_F(InsertLeasesTest, ARolledBackInsertKeepsItsValueHandedOut) {
  for (int64_t i = 1; i <= 3; i++) ASSERT_EQ(InsertId(), i);
  ASSERT_TRUE(session_->BeginWrite().ok());
  EXPECT_EQ(InsertId(), 4);
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(InsertId(), 5);
  // Past a renewal ahead inside the rolled back transaction: the renewal
  // is thrown away, the values are not.
  ASSERT_TRUE(session_->BeginWrite().ok());
  for (int64_t i = 6; i <= 40; i++) ASSERT_EQ(InsertId(), i);
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(InsertId(), 41);
  EXPECT_EQ(InsertId(), 42);
  EXPECT_EQ(Find("shop", "orders").size(), 6u);  // 1, 2, 3, 5, 41, 42
}

TEST_F(InsertLeasesTest, InsertingSessionsAndNextvalNeverShareAValue) {
  constexpr int kThreads = 8, kCalls = 400;
  std::vector<std::vector<int64_t>> got(kThreads);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      if (!store_->NewSession(&session).ok()) {
        failures++;
        return;
      }
      // Even sessions insert, odd ones call nextval on the same counter
      // (a column's DEFAULT nextval('orders_id_seq') in SQL).
      for (int i = 0; i < kCalls; i++) {
        int64_t value = -1;
        if (t % 2 == 0) {
          Document doc = J(R"({"item": "t"})"), stored;
          if (session->Insert("shop", "orders", doc.bson(), &stored).ok())
            value = IntOf(stored, "id");
        } else if (!session->NextCounter(kCounter, &value).ok()) {
          value = -1;
        }
        if (value < 0) {
          failures++;
        } else {
          got[t].push_back(value);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures, 0);
  std::set<int64_t> all;
  for (const auto& values : got) {
    for (size_t i = 0; i < values.size(); i++) {
      EXPECT_TRUE(all.insert(values[i]).second) << values[i] << " twice";
      if (i > 0) {
        EXPECT_GT(values[i], values[i - 1]);
      }
    }
  }
  // Nothing skipped without a crash: the values are 1..N.
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kCalls));
  EXPECT_EQ(*all.rbegin(), kThreads * kCalls);
  EXPECT_EQ(ReadLast(), kThreads * kCalls);
  EXPECT_EQ(Find("shop", "orders").size(),
            static_cast<size_t>(kThreads / 2 * kCalls));
}

TEST_F(InsertLeasesTest, AfterAKillTheNextInsertIsPastEveryValueHandedOut) {
  session_.reset();
  store_.reset();
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The child inserts 1..20 and reports the last id it got, then waits
    // to be killed with the store open.
    close(fds[0]);
    std::unique_ptr<Store> store;
    std::unique_ptr<Session> session;
    if (!Store::Open(dir_, StoreOptions{}, &store).ok() ||
        !store->NewSession(&session).ok())
      _exit(3);
    int64_t last = 0;
    for (int i = 0; i < 20; i++) {
      Document doc = J(R"({"item": "c"})"), stored;
      if (!session->Insert("shop", "orders", doc.bson(), &stored).ok())
        _exit(4);
      std::optional<bson_iter_t> id = Field(stored, "id");
      if (!id) _exit(5);
      last = bson_iter_as_int64(&*id);
    }
    if (write(fds[1], &last, sizeof(last)) != sizeof(last)) _exit(6);
    while (true) pause();
  }
  close(fds[1]);
  int64_t last_in_child = 0;
  ASSERT_EQ(read(fds[0], &last_in_child, sizeof(last_in_child)),
            static_cast<ssize_t>(sizeof(last_in_child)));
  close(fds[0]);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status;
  waitpid(pid, &status, 0);
  EXPECT_EQ(last_in_child, 20);
  Reopen();
  // Every insert committed; the counter moved to the end of its
  // reservation (1..32 renewed ahead at 17 to 49), as a sequence skips
  // its logged values.
  EXPECT_EQ(Find("shop", "orders").size(), 20u);
  EXPECT_EQ(InsertId(), 50);
}

}  // namespace
}  // namespace kova::docstore::testing
