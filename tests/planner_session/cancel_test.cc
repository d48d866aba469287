// Cancel and statement_timeout of long writing statements inside a
// transaction block: the statement alone fails (57014) and ROLLBACK TO
// SAVEPOINT recovers the block's earlier work, as in PostgreSQL.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/planner_session/session_fixture.h"

namespace kova::planner {
namespace {

// A long UPDATE, DELETE or INSERT ... SELECT cancelled (or past
// statement_timeout) inside a transaction block fails alone, as in
// PostgreSQL: the block is aborted, ROLLBACK TO SAVEPOINT recovers the work
// before the savepoint, and the block commits it. (A cancel that reached
// SQLite as an interrupt inside a writing statement rolled back the whole
// SQLite transaction: the savepoint and the first insert were gone.) The
// cancel, or the timeout, comes once most of the statement's time has
// passed, so that it finds the statement writing its rows.
class CancelWriteTest : public SessionTest {
 protected:
  static constexpr int kRows = 40000;

  void SetUp() override {
    SessionTest::SetUp();
    ASSERT_TRUE(One("CREATE TABLE t (id serial PRIMARY KEY, a int, b int)").ok);
    ASSERT_TRUE(One("CREATE INDEX t_b ON t (b)").ok);
    ASSERT_TRUE(One("INSERT INTO t (a, b) SELECT g, g % 7 FROM "
                    "generate_series(1, " +
                    std::to_string(kRows) + ") g")
                    .ok);
  }

  // How long `statement` takes in a block that is rolled back.
  std::chrono::microseconds Duration(const std::string& statement) {
    EXPECT_TRUE(One("BEGIN").ok);
    auto start = std::chrono::steady_clock::now();
    ExecuteResult r = One(statement);
    auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    EXPECT_TRUE(r.ok) << r.error.message;
    EXPECT_TRUE(One("ROLLBACK").ok);
    return took;
  }

  // `gone`: a query that shows whether the statement left anything behind
  // after the block commits; it must then return `gone_value`.
  void CancelInBlock(const std::string& statement, bool by_timeout,
                     const std::string& gone = "",
                     const std::string& gone_value = "") {
    const std::string before =
        Scalar("SELECT count(*) || ' ' || sum(b) FROM t");
    auto delay = Duration(statement) * 6 / 10;
    // A statement that ends before the cancel or timeout comes (it ran
    // faster than measured) is rolled back and run again, each time
    // cancelled sooner.
    ExecuteResult r;
    for (int attempt = 0; attempt < 10; attempt++, delay /= 2) {
      if (by_timeout) {
        ASSERT_TRUE(
            One("SET statement_timeout = '" +
                std::to_string(std::max<int64_t>(1, delay.count() / 1000)) +
                "ms'")
                .ok);
      }
      ASSERT_TRUE(One("BEGIN").ok);
      ASSERT_TRUE(One("INSERT INTO t (a, b) VALUES (-1, 100)").ok);
      ASSERT_TRUE(One("SAVEPOINT s").ok);
      ASSERT_TRUE(One("INSERT INTO t (a, b) VALUES (-2, 200)").ok);
      std::atomic<bool> done{false};
      std::thread canceller([&] {
        if (by_timeout) return;
        auto start = std::chrono::steady_clock::now();
        while (!done && std::chrono::steady_clock::now() - start < delay)
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        while (!done) {
          session_->Cancel();
          std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
      });
      r = One(statement);
      done = true;
      canceller.join();
      if (!r.ok) break;
      ASSERT_TRUE(One("ROLLBACK").ok);
    }
    EXPECT_EQ(r.error.sqlstate, "57014") << r.error.message;
    EXPECT_EQ(r.error.message,
              by_timeout ? "canceling statement due to statement timeout"
                         : "canceling statement due to user request");
    EXPECT_EQ(One("SELECT 1").error.sqlstate, "25P02");
    ExecuteResult rb = One("ROLLBACK TO SAVEPOINT s");
    ASSERT_TRUE(rb.ok) << rb.error.message;
    EXPECT_EQ(Scalar("SELECT string_agg(a::text, ' ') FROM t WHERE a < 0"),
              "-1");
    ExecuteResult commit = One("COMMIT");
    ASSERT_TRUE(commit.ok) << commit.error.message;
    EXPECT_EQ(commit.command_tag, "COMMIT");
    if (by_timeout) ASSERT_TRUE(One("RESET statement_timeout").ok);
    // The block's first insert stays; nothing of the cancelled statement.
    EXPECT_EQ(Scalar("SELECT count(*) || ' ' || sum(b) FROM t WHERE a > 0"),
              before);
    EXPECT_EQ(Scalar("SELECT string_agg(a::text, ' ') FROM t WHERE a < 0"),
              "-1");
    if (!gone.empty()) EXPECT_EQ(Scalar(gone), gone_value) << gone;
  }
};

TEST_F(CancelWriteTest, CancelUpdateInBlockKeepsSavepoint) {
  CancelInBlock("UPDATE t SET b = b + 1 WHERE a > 0", false);
}
TEST_F(CancelWriteTest, CancelDeleteInBlockKeepsSavepoint) {
  CancelInBlock("DELETE FROM t WHERE a > 0", false);
}
TEST_F(CancelWriteTest, CancelInsertSelectInBlockKeepsSavepoint) {
  CancelInBlock("INSERT INTO t (a, b) SELECT a, b FROM t WHERE a > 0", false);
}
TEST_F(CancelWriteTest, TimeoutUpdateInBlockKeepsSavepoint) {
  CancelInBlock("UPDATE t SET b = b + 1 WHERE a > 0", true);
}
TEST_F(CancelWriteTest, TimeoutDeleteInBlockKeepsSavepoint) {
  CancelInBlock("DELETE FROM t WHERE a > 0", true);
}
TEST_F(CancelWriteTest, TimeoutInsertSelectInBlockKeepsSavepoint) {
  CancelInBlock("INSERT INTO t (a, b) SELECT a, b FROM t WHERE a > 0", true);
}
// A scan that finds nothing to write: only the check inside the reading
// statement can stop it.
TEST_F(CancelWriteTest, CancelLongScanOfDeleteInBlockKeepsSavepoint) {
  CancelInBlock("DELETE FROM t WHERE a > 0 AND md5(repeat(a::text, 1000)) = ''",
                false);
}
TEST_F(CancelWriteTest, TimeoutLongScanOfDeleteInBlockKeepsSavepoint) {
  CancelInBlock("DELETE FROM t WHERE a > 0 AND md5(repeat(a::text, 1000)) = ''",
                true);
}

// DDL that reads or rewrites the whole table: an index build, CREATE TABLE
// AS, an ALTER COLUMN TYPE rewrite. (SQLite's own CREATE INDEX statement
// stops on the docstore's cancel check, an ordinary error.)
constexpr const char* kCreateIndex = "CREATE INDEX t_a_b ON t (a, b)";
constexpr const char* kIndexGone =
    "SELECT count(*) FROM pg_class WHERE relname = 't_a_b'";
constexpr const char* kCreateTableAs =
    "CREATE TABLE t_copy AS SELECT a, b, md5(a::text) AS m FROM t";
constexpr const char* kTableGone =
    "SELECT count(*) FROM pg_class WHERE relname = 't_copy'";
constexpr const char* kAlterType = "ALTER TABLE t ALTER COLUMN b TYPE bigint";
constexpr const char* kTypeKept =
    "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
    "WHERE attrelid = 't'::regclass AND attname = 'b'";

TEST_F(CancelWriteTest, CancelCreateIndexInBlockKeepsSavepoint) {
  CancelInBlock(kCreateIndex, false, kIndexGone, "0");
}
TEST_F(CancelWriteTest, TimeoutCreateIndexInBlockKeepsSavepoint) {
  CancelInBlock(kCreateIndex, true, kIndexGone, "0");
}
TEST_F(CancelWriteTest, CancelCreateTableAsInBlockKeepsSavepoint) {
  CancelInBlock(kCreateTableAs, false, kTableGone, "0");
}
TEST_F(CancelWriteTest, TimeoutCreateTableAsInBlockKeepsSavepoint) {
  CancelInBlock(kCreateTableAs, true, kTableGone, "0");
}
TEST_F(CancelWriteTest, CancelAlterColumnTypeInBlockKeepsSavepoint) {
  CancelInBlock(kAlterType, false, kTypeKept, "integer");
}
TEST_F(CancelWriteTest, TimeoutAlterColumnTypeInBlockKeepsSavepoint) {
  CancelInBlock(kAlterType, true, kTypeKept, "integer");
}

}  // namespace
}  // namespace kova::planner
