// Parallel aggregates: a one-row aggregate over a large table runs on two
// threads over parts of its rows, and both read one snapshot even while
// other sessions commit.
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/planner_session/session_fixture.h"

namespace kova::planner {
namespace {

constexpr int kRows = 150000;

class ParallelAggregateTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    ASSERT_TRUE(One("CREATE TABLE m (id serial PRIMARY KEY, a int)").ok);
    ASSERT_TRUE(One("INSERT INTO m (a) SELECT 0 FROM generate_series(1, " +
                    std::to_string(kRows) + ")")
                    .ok);
  }
};

TEST_F(ParallelAggregateTest, RunsInParallelAndTurnsOff) {
  uint64_t before = ParallelAggregateRuns();
  EXPECT_EQ(Scalar("SELECT count(*) FROM m WHERE a = 0"),
            std::to_string(kRows));
  EXPECT_EQ(ParallelAggregateRuns(), before + 1);
  ASSERT_TRUE(One("SET max_parallel_workers_per_gather = 0").ok);
  EXPECT_EQ(Scalar("SELECT count(*) FROM m WHERE a = 0"),
            std::to_string(kRows));
  EXPECT_EQ(ParallelAggregateRuns(), before + 1);
  // A plain count(*) of a whole table is left to SQLite's page count.
  ASSERT_TRUE(One("RESET max_parallel_workers_per_gather").ok);
  EXPECT_EQ(Scalar("SELECT count(*) FROM m"), std::to_string(kRows));
  EXPECT_EQ(ParallelAggregateRuns(), before + 1);
  // A small table runs whole.
  ASSERT_TRUE(One("CREATE TABLE small AS SELECT * FROM m WHERE id <= 1000").ok);
  EXPECT_EQ(Scalar("SELECT sum(id) FROM small WHERE a = 0"), "500500");
  EXPECT_EQ(ParallelAggregateRuns(), before + 1);
}

// A writer moves one unit from the first row to the last in each commit,
// so every snapshot has sum(a) = 0 and min(a) = -max(a). The two rows lie
// in the first and last parts of the table, which the two threads read:
// threads reading different snapshots would see the sum off.
TEST_F(ParallelAggregateTest, PartsReadOneSnapshotWhileOthersCommit) {
  std::atomic<bool> stop{false};
  std::atomic<int> commits{0};
  // Commits back to back, then with pauses in which reads can begin
  // between commits, so that the parallel path runs as well as the
  // fallback.
  std::atomic<bool> pause{false};
  std::unique_ptr<Session> writer = Connect("postgres", "postgres");
  ASSERT_TRUE(writer);
  std::thread thread([&] {
    while (!stop) {
      bool ok = true;
      Sink ignored;
      writer->SimpleQuery(
          "BEGIN; UPDATE m SET a = a - 1 WHERE id = 1; "
          "UPDATE m SET a = a + 1 WHERE id = " +
              std::to_string(kRows) + "; COMMIT",
          &ignored, [&](const ExecuteResult& r) { ok = ok && r.ok; });
      if (!ok) break;
      commits++;
      if (pause) std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
  });
  uint64_t before = ParallelAggregateRuns();
  for (int i = 0; i < 60; i++) {
    if (i == 30) pause = true;
    Sink sink;
    ExecuteResult r = One(
        "SELECT count(*), sum(a), min(a), max(a) FROM m WHERE id > 0", &sink);
    ASSERT_TRUE(r.ok) << r.error.message;
    ASSERT_EQ(sink.rows.size(), 1u);
    EXPECT_EQ(sink.rows[0][0].bytes, std::to_string(kRows));
    EXPECT_EQ(sink.rows[0][1].bytes, "0");
    EXPECT_EQ("-" + sink.rows[0][3].bytes == sink.rows[0][2].bytes ||
                  sink.rows[0][3].bytes == "0",
              true)
        << sink.rows[0][2].bytes << " " << sink.rows[0][3].bytes;
  }
  stop = true;
  thread.join();
  EXPECT_GT(commits.load(), 0);
  EXPECT_GT(ParallelAggregateRuns(), before);
}

}  // namespace
}  // namespace kova::planner
