// Deeply nested statements end in an error (54001), as in PostgreSQL,
// rather than overflowing the stack of the thread that runs them (which
// would stop the whole server), and the session goes on working.
#include <gtest/gtest.h>

#include <string>

#include "tests/planner_session/session_fixture.h"

namespace kova::planner {
namespace {

std::string Sum(int terms) {
  std::string sql = "SELECT 1";
  for (int i = 1; i < terms; i++) sql += "+1";
  return sql;
}

std::string NestedScalarSubqueries(int levels) {
  std::string sql = "SELECT 1";
  for (int i = 0; i < levels; i++) sql = "SELECT (" + sql + ")";
  return sql;
}

TEST_F(SessionTest, DeepExpressionsFailWithStackDepthError) {
  // 2,000 levels parse and run on the caller's stack.
  EXPECT_EQ(Scalar(Sum(2000)), "2000");
  // 5,000 (10 KB of text) are parsed on a thread with a larger stack and
  // refused there, as PostgreSQL refuses them.
  ExecuteResult r = One(Sum(5000));
  EXPECT_EQ(r.error.sqlstate, "54001");
  EXPECT_EQ(r.error.message, "stack depth limit exceeded");
  // 20,000 levels as well (before, the parser's recursion overflowed).
  r = One(Sum(20000));
  EXPECT_EQ(r.error.sqlstate, "54001");
  EXPECT_EQ(Scalar("SELECT 41 + 1"), "42");
}

TEST_F(SessionTest, NestedScalarSubqueriesStayLinear) {
  // Each level's SQL holds the one below once (it held it twice, so 30
  // levels made a statement of 2^30 copies that never finished).
  EXPECT_EQ(Scalar(NestedScalarSubqueries(5)), "1");
  EXPECT_EQ(Scalar(NestedScalarSubqueries(8)), "1");
  ExecuteResult r = One(NestedScalarSubqueries(40));
  // SQLite's parser takes no more levels (PostgreSQL has no such limit):
  // a program limit.
  EXPECT_EQ(r.error.sqlstate, "54001");
  EXPECT_EQ(r.error.message, "statement is too complex");
  r = One(NestedScalarSubqueries(1000));
  EXPECT_EQ(r.error.sqlstate, "54001");
  // A scalar subquery still refuses a second row and gives NULL for none.
  r = One("SELECT (SELECT g FROM generate_series(1, 2) g)");
  EXPECT_EQ(r.error.sqlstate, "21000");
  EXPECT_EQ(Scalar("SELECT (SELECT 1 WHERE false) IS NULL"), "t");
}

}  // namespace
}  // namespace kova::planner
