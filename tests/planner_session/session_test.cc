// The planner's sessions end to end over a real data directory, without the
// wire layer: what each statement returns, its errors and the transaction
// and settings state. (Protocol-level behaviour is tested in tests/wire.)
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "tests/planner_session/session_fixture.h"

namespace kova::planner {
namespace {

TEST_F(SessionTest, SelectOne) {
  Sink sink;
  ExecuteResult r = One("SELECT 1", &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(r.command_tag, "SELECT 1");
  ASSERT_EQ(sink.columns.size(), 1u);
  EXPECT_EQ(sink.columns[0].name, "?column?");
  EXPECT_EQ(sink.columns[0].type_oid, oid::kInt4);
  EXPECT_EQ(sink.columns[0].type_size, 4);
  ASSERT_EQ(sink.rows.size(), 1u);
  EXPECT_EQ(sink.rows[0][0].bytes, "1");
}

TEST_F(SessionTest, LiteralTypesAndColumnNames) {
  Sink sink;
  ExecuteResult r =
      One("SELECT 2147483648, 1.50, 'x', true, NULL, 1::text, 'a' AS b, "
          "current_user",
          &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  ASSERT_EQ(sink.columns.size(), 8u);
  EXPECT_EQ(sink.columns[0].type_oid, oid::kInt8);
  EXPECT_EQ(sink.columns[1].type_oid, oid::kNumeric);
  EXPECT_EQ(sink.columns[2].type_oid, oid::kText);  // unknown -> text
  EXPECT_EQ(sink.columns[3].type_oid, oid::kBool);
  EXPECT_EQ(sink.columns[4].type_oid, oid::kText);
  EXPECT_EQ(sink.columns[5].name, "text");
  EXPECT_EQ(sink.columns[6].name, "b");
  EXPECT_EQ(sink.columns[7].name, "current_user");
  EXPECT_EQ(sink.columns[7].type_oid, oid::kName);
  const auto& row = sink.rows.at(0);
  EXPECT_EQ(row[0].bytes, "2147483648");
  EXPECT_EQ(row[1].bytes, "1.50");
  EXPECT_EQ(row[3].bytes, "t");
  EXPECT_TRUE(row[4].null);
  EXPECT_EQ(row[7].bytes, "postgres");
}

TEST_F(SessionTest, ArithmeticAndErrors) {
  EXPECT_EQ(Scalar("SELECT 2 + 3 * 4"), "14");
  EXPECT_EQ(Scalar("SELECT 7 / 2"), "3");
  EXPECT_EQ(Scalar("SELECT -7 % 3"), "-1");
  EXPECT_EQ(Scalar("SELECT 1.5 + 1"), "2.5");
  EXPECT_EQ(Scalar("SELECT 'a' || 'b' || 1"), "ab1");
  EXPECT_EQ(Scalar("SELECT 1 < 2 AND NULL"), "<null>");
  EXPECT_EQ(Scalar("SELECT 1 > 2 AND NULL"), "f");
  ExecuteResult r = One("SELECT 2147483647 + 1");
  EXPECT_EQ(r.error.sqlstate, "22003");
  EXPECT_EQ(r.error.message, "integer out of range");
  r = One("SELECT 1/0");
  EXPECT_EQ(r.error.sqlstate, "22012");
  r = One("SELECT 1 + 'a'");
  EXPECT_EQ(r.error.sqlstate, "22P02");
  EXPECT_EQ(r.error.message, "invalid input syntax for type integer: \"a\"");
  EXPECT_EQ(r.error.position, 12);
  r = One("SELECT 1 + true");
  EXPECT_EQ(r.error.sqlstate, "42883");
  EXPECT_EQ(r.error.message, "operator does not exist: integer + boolean");
  r = One("SELECT *");
  EXPECT_EQ(r.error.sqlstate, "42601");
  r = One("SELECT x FROM t");
  EXPECT_EQ(r.error.sqlstate, "42P01");
  EXPECT_EQ(r.error.message, "relation \"t\" does not exist");
  EXPECT_EQ(r.error.position, 15);
  r = One("SELEC 1");
  EXPECT_EQ(r.error.sqlstate, "42601");
  EXPECT_EQ(r.error.message, "syntax error at or near \"SELEC\"");
  EXPECT_EQ(r.error.position, 1);
  r = One("CREATE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql");
  EXPECT_EQ(r.error.sqlstate, "0A000");
  EXPECT_EQ(r.error.message,
            "CREATE FUNCTION is not supported yet: function f()");
}

TEST_F(SessionTest, ParametersInASimpleQuery) {
  ExecuteResult r = One("SELECT 1 + $1");
  EXPECT_EQ(r.error.sqlstate, "42P02");
  EXPECT_EQ(r.error.message, "there is no parameter $1");
  EXPECT_EQ(r.error.position, 12);
}

TEST_F(SessionTest, EmptyQueryAndMultipleStatements) {
  Sink sink;
  auto results = Query("-- nothing here\n", &sink);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].empty_query);
  results = Query("SELECT 1; SELECT 2; SELECT 1/0; SELECT 3", &sink);
  ASSERT_EQ(results.size(), 3u);  // the error ends the message
  EXPECT_EQ(results[1].command_tag, "SELECT 1");
  EXPECT_EQ(results[2].error.sqlstate, "22012");
  EXPECT_EQ(session_->TransactionStatus(), 'I');
}

TEST_F(SessionTest, SettingsAndReportedChanges) {
  session_->TakeReportChanges();
  EXPECT_EQ(Scalar("SHOW DateStyle"), "ISO, MDY");
  ASSERT_TRUE(One("SET application_name = 'billing'").ok);
  ASSERT_TRUE(One("SET TIME ZONE 'UTC'").ok);
  auto changes = session_->TakeReportChanges();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0], (std::pair<std::string, std::string>{"application_name",
                                                             "billing"}));
  EXPECT_EQ(changes[1],
            (std::pair<std::string, std::string>{"TimeZone", "UTC"}));
  EXPECT_TRUE(session_->TakeReportChanges().empty());
  EXPECT_EQ(Scalar("SELECT current_setting('application_name')"), "billing");
  EXPECT_EQ(Scalar("SELECT set_config('search_path', '', false)"), "");
  EXPECT_EQ(Scalar("SHOW search_path"), "");
  ASSERT_TRUE(One("SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE").ok);
  EXPECT_EQ(Scalar("SHOW TimeZone"), "<+00>-00");
  ExecuteResult r = One("SET no_such_thing = 1");
  EXPECT_EQ(r.error.sqlstate, "42704");
  EXPECT_EQ(r.error.message,
            "unrecognized configuration parameter \"no_such_thing\"");
  r = One("SET server_version = '1'");
  EXPECT_EQ(r.error.sqlstate, "55P02");
  r = One("SET extra_float_digits = 9");
  EXPECT_EQ(r.error.sqlstate, "22023");
  EXPECT_EQ(r.error.message,
            "9 is outside the valid range for parameter "
            "\"extra_float_digits\" (-15 .. 3)");
  ASSERT_TRUE(One("SET statement_timeout = '90s'").ok);
  EXPECT_EQ(Scalar("SHOW statement_timeout"), "90s");
  ASSERT_TRUE(One("RESET ALL").ok);
  EXPECT_EQ(Scalar("SHOW application_name"), "");
}

TEST_F(SessionTest, SetIsTransactional) {
  ASSERT_TRUE(One("BEGIN").ok);
  EXPECT_EQ(session_->TransactionStatus(), 'T');
  ASSERT_TRUE(One("SET application_name = 'inside'").ok);
  ASSERT_TRUE(One("ROLLBACK").ok);
  EXPECT_EQ(Scalar("SHOW application_name"), "");
  ASSERT_TRUE(One("BEGIN").ok);
  ASSERT_TRUE(One("SET LOCAL application_name = 'local'").ok);
  EXPECT_EQ(Scalar("SHOW application_name"), "local");
  ASSERT_TRUE(One("COMMIT").ok);
  EXPECT_EQ(Scalar("SHOW application_name"), "");
  Sink sink;
  ExecuteResult r = One("SET LOCAL application_name = 'x'", &sink);
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(sink.notices.size(), 1u);
  EXPECT_EQ(sink.notices[0].message,
            "SET LOCAL can only be used in transaction blocks");
}

TEST_F(SessionTest, FailedTransactionBlock) {
  ASSERT_TRUE(One("BEGIN").ok);
  EXPECT_EQ(One("SELECT 1/0").error.sqlstate, "22012");
  EXPECT_EQ(session_->TransactionStatus(), 'E');
  ExecuteResult r = One("SELECT 1");
  EXPECT_EQ(r.error.sqlstate, "25P02");
  EXPECT_EQ(r.error.message,
            "current transaction is aborted, commands ignored until end of "
            "transaction block");
  r = One("COMMIT");
  EXPECT_EQ(r.command_tag, "ROLLBACK");
  EXPECT_EQ(session_->TransactionStatus(), 'I');
  Sink sink;
  r = One("COMMIT", &sink);
  ASSERT_EQ(sink.notices.size(), 1u);
  EXPECT_EQ(sink.notices[0].sqlstate, "25P01");
}

TEST_F(SessionTest, Savepoints) {
  ASSERT_TRUE(One("BEGIN").ok);
  ASSERT_TRUE(One("SET application_name = 'a'").ok);
  ASSERT_TRUE(One("SAVEPOINT s1").ok);
  ASSERT_TRUE(One("SET application_name = 'b'").ok);
  EXPECT_EQ(One("SELECT 1/0").error.sqlstate, "22012");
  EXPECT_EQ(One("ROLLBACK TO SAVEPOINT s1").command_tag, "ROLLBACK");
  EXPECT_EQ(session_->TransactionStatus(), 'T');
  EXPECT_EQ(Scalar("SHOW application_name"), "a");
  EXPECT_EQ(One("RELEASE s2").error.sqlstate, "3B001");
  ASSERT_TRUE(One("ROLLBACK").ok);
  EXPECT_EQ(One("SAVEPOINT x").error.sqlstate, "25P01");
}

TEST_F(SessionTest, ExtendedQueryWithParameters) {
  std::unique_ptr<PreparedStatement> stmt;
  PgError error;
  ASSERT_TRUE(session_->Parse("SELECT $1::int + $2", {}, &stmt, &error))
      << error.message;
  ASSERT_EQ(stmt->param_types(),
            (std::vector<uint32_t>{oid::kInt4, oid::kInt4}));
  ASSERT_EQ(stmt->columns().size(), 1u);
  std::unique_ptr<Portal> portal;
  ASSERT_TRUE(session_->Bind(*stmt, {Datum::Of("40"), Datum::Of("2")}, {},
                             {Format::kBinary}, &portal, &error))
      << error.message;
  Sink sink;
  ExecuteResult r = session_->Execute(portal.get(), 0, &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  {
    PgError sync_error;
    ASSERT_TRUE(session_->Sync(&sync_error)) << sync_error.message;
  }
  EXPECT_EQ(r.command_tag, "SELECT 1");
  ASSERT_EQ(sink.rows.size(), 1u);
  EXPECT_EQ(sink.rows[0][0].bytes, std::string("\0\0\0\x2a", 4));
  // Binary parameters.
  ASSERT_TRUE(session_->Bind(*stmt,
                             {Datum::Of(std::string("\0\0\0\x05", 4)),
                              Datum::Of(std::string("\0\0\0\x01", 4))},
                             {Format::kBinary}, {}, &portal, &error))
      << error.message;
  Sink sink2;
  r = session_->Execute(portal.get(), 0, &sink2);
  {
    PgError sync_error;
    ASSERT_TRUE(session_->Sync(&sync_error)) << sync_error.message;
  }
  EXPECT_EQ(sink2.rows.at(0)[0].bytes, "6");
  // An untyped parameter in the output list resolves to text.
  ASSERT_TRUE(session_->Parse("SELECT $1", {}, &stmt, &error));
  EXPECT_EQ(stmt->param_types(), (std::vector<uint32_t>{oid::kText}));
  // Statements over missing tables and unsupported statements fail at
  // Parse.
  EXPECT_FALSE(session_->Parse("INSERT INTO t VALUES ($1)", {}, &stmt, &error));
  EXPECT_EQ(error.sqlstate, "42P01");
  EXPECT_EQ(error.message, "relation \"t\" does not exist");
  EXPECT_FALSE(session_->Parse("CHECKPOINT", {}, &stmt, &error));
  EXPECT_EQ(error.sqlstate, "0A000");
  EXPECT_EQ(error.message, "CHECKPOINT is not supported yet");
  // Given types win; wrong values fail at Bind.
  ASSERT_TRUE(session_->Parse("SELECT $1", {oid::kInt8}, &stmt, &error));
  EXPECT_FALSE(
      session_->Bind(*stmt, {Datum::Of("x")}, {}, {}, &portal, &error));
  EXPECT_EQ(error.sqlstate, "22P02");
  EXPECT_FALSE(session_->Parse("SELECT 1; SELECT 2", {}, &stmt, &error));
  EXPECT_EQ(error.sqlstate, "42601");
}

TEST_F(SessionTest, RowLimitedPortal) {
  std::unique_ptr<PreparedStatement> stmt;
  PgError error;
  ASSERT_TRUE(session_->Parse("SHOW ALL", {}, &stmt, &error));
  std::unique_ptr<Portal> portal;
  ASSERT_TRUE(session_->Bind(*stmt, {}, {}, {}, &portal, &error));
  Sink sink;
  ExecuteResult r = session_->Execute(portal.get(), 2, &sink);
  EXPECT_TRUE(r.suspended);
  EXPECT_EQ(sink.rows.size(), 2u);
  r = session_->Execute(portal.get(), 0, &sink);
  EXPECT_FALSE(r.suspended);
  EXPECT_GT(sink.rows.size(), 20u);
  {
    PgError sync_error;
    ASSERT_TRUE(session_->Sync(&sync_error)) << sync_error.message;
  }
}

TEST_F(SessionTest, CancelInterruptsSleep) {
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    session_->Cancel();
  });
  auto start = std::chrono::steady_clock::now();
  ExecuteResult r = One("SELECT pg_sleep(10)");
  canceller.join();
  EXPECT_EQ(r.error.sqlstate, "57014");
  EXPECT_EQ(r.error.message, "canceling statement due to user request");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(One("SELECT 1").ok);  // the session goes on
}

// Rows without end for COPY FROM STDIN: only a cancel ends the statement.
class EndlessCopySink : public Sink {
 public:
  CopyRead ReadCopyData(std::string* data) override {
    data->clear();
    for (int i = 0; i < 1000; i++)
      *data += std::to_string(next_++) + "\t" + std::to_string(i % 7) + "\n";
    reads++;
    return next_ < 100'000'000 ? CopyRead::kData : CopyRead::kDone;
  }
  std::atomic<int> reads{0};

 private:
  int64_t next_ = 1000;
};

// A COPY cancelled inside a transaction block fails alone, as in
// PostgreSQL: ROLLBACK TO SAVEPOINT works and the block's earlier work is
// kept. (An interrupt that reached SQLite inside a multi-row INSERT would
// roll back the whole SQLite transaction.) Cancels are sent over and over,
// so some arrive while the batches are being stored.
void CancelCopyInBlock(Session* session, const std::string& table_ddl) {
  auto one = [&](const std::string& sql, Sink* sink = nullptr) {
    Sink local;
    std::vector<ExecuteResult> results;
    session->SimpleQuery(sql, sink ? sink : &local,
                         [&](const ExecuteResult& r) { results.push_back(r); });
    EXPECT_EQ(results.size(), 1u) << sql;
    return results.empty() ? ExecuteResult{} : results[0];
  };
  auto column = [&](const std::string& sql) {
    Sink sink;
    ExecuteResult r = one(sql, &sink);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error.message;
    std::string out;
    for (const auto& row : sink.rows) out += row[0].bytes + " ";
    return out;
  };
  ASSERT_TRUE(one(table_ddl).ok);
  ASSERT_TRUE(one("BEGIN").ok);
  ASSERT_TRUE(one("INSERT INTO t (a, b) VALUES (1, 1)").ok);
  ASSERT_TRUE(one("SAVEPOINT s").ok);
  ASSERT_TRUE(one("INSERT INTO t (a, b) VALUES (2, 2)").ok);
  EndlessCopySink sink;
  std::atomic<bool> done{false};
  std::thread canceller([&] {
    while (sink.reads < 20 && !done) std::this_thread::yield();
    while (!done) {
      session->Cancel();
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  });
  ExecuteResult r = one("COPY t (a, b) FROM STDIN", &sink);
  done = true;
  canceller.join();
  EXPECT_EQ(r.error.sqlstate, "57014") << r.error.message;
  EXPECT_EQ(r.error.message, "canceling statement due to user request");
  EXPECT_EQ(one("SELECT 1").error.sqlstate, "25P02");
  ExecuteResult rb = one("ROLLBACK TO SAVEPOINT s");
  ASSERT_TRUE(rb.ok) << rb.error.message;
  EXPECT_EQ(column("SELECT a FROM t ORDER BY a"), "1 ");
  ASSERT_TRUE(one("INSERT INTO t (a, b) VALUES (3, 3)").ok);
  ExecuteResult commit = one("COMMIT");
  ASSERT_TRUE(commit.ok) << commit.error.message;
  EXPECT_EQ(commit.command_tag, "COMMIT");
  EXPECT_EQ(column("SELECT a FROM t ORDER BY a"), "1 3 ");
  // The key went on from the values the cancelled COPY took.
  EXPECT_EQ(column("SELECT count(*) FROM t WHERE id > 3"), "1 ");
}

TEST_F(SessionTest, CancelCopyInBlockKeepsSavepoint) {
  CancelCopyInBlock(session_.get(),
                    "CREATE TABLE t (id serial PRIMARY KEY, a int, b int)");
}

// Rows of a table with a foreign key go one at a time (no batches).
TEST_F(SessionTest, CancelRowByRowCopyInBlockKeepsSavepoint) {
  ASSERT_TRUE(One("CREATE TABLE r (k int PRIMARY KEY)").ok);
  ASSERT_TRUE(One("INSERT INTO r SELECT g FROM generate_series(0, 6) g").ok);
  CancelCopyInBlock(session_.get(),
                    "CREATE TABLE t (id serial PRIMARY KEY, a int, "
                    "b int REFERENCES r)");
}

TEST_F(SessionTest, RolesAndDatabases) {
  ASSERT_TRUE(One("CREATE ROLE alice LOGIN PASSWORD 'secret'").ok);
  RoleAuth auth = engine_->LookupRole("alice");
  EXPECT_TRUE(auth.exists);
  EXPECT_TRUE(auth.can_login);
  EXPECT_EQ(auth.password.rfind("SCRAM-SHA-256$4096:", 0), 0u) << auth.password;
  EXPECT_EQ(One("CREATE ROLE alice").error.sqlstate, "42710");
  ASSERT_TRUE(One("SET password_encryption = 'md5'").ok);
  ASSERT_TRUE(One("ALTER ROLE alice PASSWORD 'pw'").ok);
  // md5("pw" + "alice")
  EXPECT_EQ(engine_->LookupRole("alice").password,
            "md5aa7bb6fc2700e717ae61ec5c1567469c");
  ASSERT_TRUE(One("CREATE ROLE bob").ok);
  PgError error;
  EXPECT_FALSE(Connect("bob", "postgres", &error));
  EXPECT_EQ(error.sqlstate, "28000");
  EXPECT_FALSE(Connect("nobody", "postgres", &error));
  EXPECT_EQ(error.message, "role \"nobody\" does not exist");
  ASSERT_TRUE(One("CREATE DATABASE shop").ok);
  EXPECT_TRUE(engine_->DatabaseExists("shop"));
  EXPECT_TRUE(Connect("alice", "shop"));
  EXPECT_EQ(One("CREATE DATABASE shop").error.sqlstate, "42P04");
  EXPECT_FALSE(Connect("alice", "nowhere", &error));
  EXPECT_EQ(error.sqlstate, "3D000");
  ASSERT_TRUE(One("DROP DATABASE shop").ok);
  EXPECT_FALSE(engine_->DatabaseExists("shop"));
  EXPECT_EQ(One("DROP DATABASE shop").error.sqlstate, "3D000");
  ASSERT_TRUE(One("DROP ROLE alice, bob").ok);
  EXPECT_FALSE(engine_->LookupRole("alice").exists);
  ASSERT_TRUE(One("BEGIN").ok);
  EXPECT_EQ(One("CREATE DATABASE x").error.sqlstate, "25001");
  ASSERT_TRUE(One("ROLLBACK").ok);
}

TEST_F(SessionTest, RollbackCanBePreparedInAFailedBlock) {
  ASSERT_TRUE(One("BEGIN").ok);
  ASSERT_TRUE(One("SAVEPOINT s").ok);
  EXPECT_EQ(One("SELECT 1/0").error.sqlstate, "22012");
  std::unique_ptr<PreparedStatement> stmt;
  PgError error;
  EXPECT_FALSE(session_->Parse("SELECT 1", {}, &stmt, &error));
  EXPECT_EQ(error.sqlstate, "25P02");
  ASSERT_TRUE(session_->Parse("ROLLBACK TO SAVEPOINT s", {}, &stmt, &error))
      << error.message;
  std::unique_ptr<Portal> portal;
  ASSERT_TRUE(session_->Bind(*stmt, {}, {}, {}, &portal, &error));
  Sink sink;
  ExecuteResult r = session_->Execute(portal.get(), 0, &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(session_->TransactionStatus(), 'T');
  ASSERT_TRUE(session_->Parse("ROLLBACK", {}, &stmt, &error));
  ASSERT_TRUE(session_->Bind(*stmt, {}, {}, {}, &portal, &error));
  r = session_->Execute(portal.get(), 0, &sink);
  {
    PgError sync_error;
    ASSERT_TRUE(session_->Sync(&sync_error)) << sync_error.message;
  }
  EXPECT_EQ(session_->TransactionStatus(), 'I');
}

TEST_F(SessionTest, Cursors) {
  EXPECT_EQ(One("DECLARE c CURSOR FOR VALUES (1), (2), (3)").error.sqlstate,
            "25P01");
  ASSERT_TRUE(One("BEGIN").ok);
  ASSERT_TRUE(One("DECLARE c CURSOR FOR VALUES (1), (2), (3), (4)").ok);
  Sink sink;
  ExecuteResult r = One("FETCH FORWARD 2 FROM c", &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(r.command_tag, "FETCH 2");
  ASSERT_EQ(sink.rows.size(), 2u);
  EXPECT_EQ(sink.rows[1][0].bytes, "2");
  EXPECT_EQ(One("MOVE 1 FROM c").command_tag, "MOVE 1");
  Sink rest;
  r = One("FETCH ALL FROM c", &rest);
  EXPECT_EQ(r.command_tag, "FETCH 1");
  EXPECT_EQ(rest.rows.at(0)[0].bytes, "4");
  EXPECT_EQ(One("FETCH NEXT FROM c").command_tag, "FETCH 0");
  EXPECT_EQ(One("CLOSE c").command_tag, "CLOSE CURSOR");
  ASSERT_TRUE(One("DECLARE d CURSOR FOR SELECT 1").ok);
  ASSERT_TRUE(One("COMMIT").ok);
  EXPECT_EQ(One("FETCH 1 FROM d").error.sqlstate, "34000");  // gone at commit
  ASSERT_TRUE(One("DECLARE h CURSOR WITH HOLD FOR SELECT 7").ok);
  EXPECT_EQ(Scalar("FETCH 1 FROM h"), "7");
  ASSERT_TRUE(One("BEGIN").ok);
  EXPECT_EQ(One("DECLARE h CURSOR FOR SELECT 1").error.sqlstate, "42P03");
  EXPECT_EQ(session_->TransactionStatus(), 'E');
  ASSERT_TRUE(One("ROLLBACK").ok);
  ASSERT_TRUE(One("BEGIN").ok);
  EXPECT_EQ(One("CLOSE c").error.sqlstate, "34000");
  ASSERT_TRUE(One("ROLLBACK").ok);
}

TEST_F(SessionTest, DeallocateGoesThroughTheSink) {
  Sink sink;
  ExecuteResult r = One("DEALLOCATE known", &sink);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.command_tag, "DEALLOCATE");
  ASSERT_TRUE(One("BEGIN").ok);
  r = One("DEALLOCATE unknown", &sink);
  EXPECT_EQ(r.error.sqlstate, "26000");
  EXPECT_EQ(r.error.message, "prepared statement \"unknown\" does not exist");
  EXPECT_EQ(session_->TransactionStatus(), 'E');  // the error fails the block
  ASSERT_TRUE(One("ROLLBACK").ok);
  EXPECT_EQ(One("DEALLOCATE ALL", &sink).command_tag, "DEALLOCATE ALL");
  EXPECT_EQ(sink.deallocated,
            (std::vector<std::string>{"known", "unknown", "*"}));
}

TEST_F(SessionTest, ValuesLists) {
  Sink sink;
  ExecuteResult r = One("VALUES (1, 'a'), (2.5, NULL), (3, 'c')", &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(r.command_tag, "SELECT 3");
  ASSERT_EQ(sink.columns.size(), 2u);
  EXPECT_EQ(sink.columns[0].name, "column1");
  EXPECT_EQ(sink.columns[0].type_oid, oid::kNumeric);
  EXPECT_EQ(sink.columns[1].type_oid, oid::kText);
  ASSERT_EQ(sink.rows.size(), 3u);
  EXPECT_EQ(sink.rows[0][0].bytes, "1");
  EXPECT_EQ(sink.rows[1][0].bytes, "2.5");
  EXPECT_TRUE(sink.rows[1][1].null);
  EXPECT_EQ(One("VALUES (1), (1, 2)").error.sqlstate, "42601");
  r = One("VALUES (1), (true)");
  EXPECT_EQ(r.error.sqlstate, "42804");
  EXPECT_EQ(r.error.message,
            "VALUES types integer and boolean cannot be matched");
}

TEST_F(SessionTest, CopyQueryToStdout) {
  Sink sink;
  ExecuteResult r =
      One("COPY (SELECT 1 AS a, 'x\ty' AS b, NULL AS c) TO STDOUT", &sink);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(r.command_tag, "COPY 1");
  EXPECT_EQ(sink.copy_data, "1\tx\\ty\t\\N\n");
  Sink csv;
  r =
      One("COPY (SELECT 1 AS a, 'x,y' AS b) TO STDOUT WITH (FORMAT csv, "
          "HEADER)",
          &csv);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(csv.copy_data, "a,b\n1,\"x,y\"\n");
}

TEST_F(SessionTest, DatabaseConnectionLimitAndSettingDefaults) {
  ASSERT_TRUE(One("CREATE ROLE carol LOGIN").ok);
  ASSERT_TRUE(One("CREATE DATABASE lim").ok);
  ASSERT_TRUE(One("ALTER DATABASE lim CONNECTION LIMIT 2").ok);
  ASSERT_TRUE(One("ALTER DATABASE lim SET work_mem = '3MB'").ok);
  ASSERT_TRUE(
      One("ALTER ROLE carol IN DATABASE lim SET statement_timeout = '5s'").ok);
  auto first = Connect("carol", "lim");
  auto second = Connect("carol", "lim");
  ASSERT_TRUE(first && second);
  PgError error;
  EXPECT_FALSE(Connect("carol", "lim", &error));
  EXPECT_EQ(error.sqlstate, "53300");
  EXPECT_EQ(error.severity, "FATAL");
  EXPECT_EQ(error.message, "too many connections for database \"lim\"");
  // Superusers may exceed the limit (and count), as in PostgreSQL.
  auto admin = Connect("postgres", "lim");
  ASSERT_TRUE(admin);
  std::unique_ptr<Session> mine = std::move(session_);
  session_ = std::move(admin);
  EXPECT_EQ(Scalar("SHOW work_mem"), "3MB");
  EXPECT_EQ(Scalar("SHOW statement_timeout"), "0");
  second.reset();
  EXPECT_FALSE(Connect("carol", "lim", &error));
  // Sessions that end free their places.
  session_.reset();
  session_ = Connect("carol", "lim");
  ASSERT_TRUE(session_);
  EXPECT_EQ(Scalar("SHOW work_mem"), "3MB");
  EXPECT_EQ(Scalar("SHOW statement_timeout"), "5s");
  session_ = std::move(mine);
  EXPECT_EQ(Scalar("SHOW work_mem"), "4MB");
  ASSERT_TRUE(One("ALTER DATABASE lim CONNECTION LIMIT -1").ok);
  EXPECT_TRUE(Connect("carol", "lim"));
}

// Advisory locks between sessions: a held lock blocks another session until
// released (by unlock, transaction end or session end); waits end on cancel,
// lock_timeout and deadlocks.
TEST_F(SessionTest, AdvisoryLocksBlockOtherSessions) {
  auto other = Connect("postgres", "postgres");
  ASSERT_TRUE(other);
  auto scalar_on = [&](Session* s, const std::string& sql) {
    Sink sink;
    std::vector<ExecuteResult> results;
    s->SimpleQuery(sql, &sink,
                   [&](const ExecuteResult& r) { results.push_back(r); });
    EXPECT_EQ(results.size(), 1u);
    if (results.empty() || !results[0].ok)
      return "error " + (results.empty() ? "" : results[0].error.sqlstate);
    return sink.rows.empty() ? std::string("<no row>") : sink.rows[0][0].bytes;
  };
  EXPECT_EQ(Scalar("SELECT pg_advisory_lock(42)"), "");
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_try_advisory_lock(42)"), "f");
  // Another key, the two-int key space and another database's keys are free.
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_try_advisory_lock(43)"), "t");
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_try_advisory_lock(0, 42)"), "t");

  // A blocked lock is granted once the holder unlocks.
  std::atomic<bool> granted{false};
  std::thread waiter([&] {
    EXPECT_EQ(scalar_on(other.get(), "SELECT pg_advisory_lock(42)"), "");
    granted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(granted.load());
  EXPECT_EQ(Scalar("SELECT pg_advisory_unlock(42)"), "t");
  waiter.join();
  EXPECT_TRUE(granted.load());
  EXPECT_EQ(Scalar("SELECT pg_try_advisory_lock(42)"), "f");

  // lock_timeout and cancel end a wait with PostgreSQL's errors.
  EXPECT_TRUE(One("SET lock_timeout = '100ms'").ok);
  ExecuteResult r = One("SELECT pg_advisory_lock(42)");
  EXPECT_EQ(r.error.sqlstate, "55P03");
  EXPECT_EQ(r.error.message, "canceling statement due to lock timeout");
  EXPECT_TRUE(One("RESET lock_timeout").ok);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    session_->Cancel();
  });
  r = One("SELECT pg_advisory_lock(42)");
  canceller.join();
  EXPECT_EQ(r.error.sqlstate, "57014");

  // Transaction-level locks end with the transaction; shared locks share.
  EXPECT_TRUE(One("BEGIN").ok);
  EXPECT_EQ(Scalar("SELECT pg_advisory_xact_lock_shared(7)"), "");
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_try_advisory_lock_shared(7)"),
            "t");
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_advisory_unlock_shared(7)"), "t");
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_try_advisory_lock(7)"), "f");
  EXPECT_TRUE(One("COMMIT").ok);
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_try_advisory_lock(7)"), "t");

  // Each waiting for the other: one of the two waits gets 40P01 after
  // about a second; once that session lets go, the other gets its lock.
  EXPECT_EQ(Scalar("SELECT pg_advisory_lock(100)"), "");
  EXPECT_EQ(scalar_on(other.get(), "SELECT pg_advisory_lock(200)"), "");
  std::string mine, theirs;
  auto wait_for = [&](Session* s, const char* sql, std::string* result) {
    *result = scalar_on(s, sql);
    if (!result->empty()) scalar_on(s, "SELECT pg_advisory_unlock_all()");
  };
  std::thread a(wait_for, session_.get(), "SELECT pg_advisory_lock(200)",
                &mine);
  std::thread b(wait_for, other.get(), "SELECT pg_advisory_lock(100)", &theirs);
  a.join();
  b.join();
  EXPECT_TRUE((mine == "error 40P01") != (theirs == "error 40P01"))
      << mine << " / " << theirs;
  EXPECT_TRUE(mine.empty() || theirs.empty()) << mine << " / " << theirs;

  // A session's end releases everything it held.
  other.reset();
  EXPECT_EQ(Scalar("SELECT pg_try_advisory_lock(42)"), "t");
  EXPECT_EQ(Scalar("SELECT pg_try_advisory_lock(0, 42)"), "t");
}

// Catalog changes made by another session are seen by the next statement
// of this one, prepared or not, and rolled-back ones never are; a sequence
// name resolves again after the catalog or the search path changed.
TEST_F(SessionTest, OtherSessionsCatalogChangesAreSeenAtOnce) {
  auto other = Connect("postgres", "postgres");
  ASSERT_TRUE(other);
  auto run_on = [&](Session* s, const std::string& sql) {
    Sink sink;
    std::vector<ExecuteResult> results;
    s->SimpleQuery(sql, &sink,
                   [&](const ExecuteResult& r) { results.push_back(r); });
    EXPECT_EQ(results.size(), 1u) << sql;
    if (results.empty() || !results[0].ok)
      return "error " + (results.empty() ? "" : results[0].error.sqlstate);
    return sink.rows.empty() ? std::string("<no row>") : sink.rows[0][0].bytes;
  };
  ASSERT_EQ(run_on(other.get(), "CREATE TABLE t (id int PRIMARY KEY, a int)"),
            "<no row>");
  ASSERT_EQ(run_on(other.get(), "INSERT INTO t VALUES (1, 10)"), "<no row>");
  ASSERT_EQ(run_on(other.get(), "CREATE SEQUENCE s"), "<no row>");

  std::unique_ptr<PreparedStatement> point;
  PgError error;
  ASSERT_TRUE(
      session_->Parse("SELECT a FROM t WHERE id = $1", {}, &point, &error))
      << error.message;
  auto run_point = [&]() {
    std::unique_ptr<Portal> portal;
    PgError e;
    if (!session_->Bind(*point, {Datum::Of("1")}, {}, {}, &portal, &e))
      return "error " + e.sqlstate;
    Sink sink;
    ExecuteResult r = session_->Execute(portal.get(), 0, &sink);
    PgError sync_error;
    if (!session_->Sync(&sync_error))
      return "sync error " + sync_error.sqlstate;
    if (!r.ok) return "error " + r.error.sqlstate;
    return sink.rows.empty() ? std::string("<no row>") : sink.rows[0][0].bytes;
  };
  EXPECT_EQ(run_point(), "10");
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "1");
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "2");

  // A rolled-back change is not seen, during or after the other block.
  // (A nextval of a sequence another block drops waits for that block,
  // as in PostgreSQL.)
  ASSERT_EQ(run_on(other.get(), "BEGIN"), "<no row>");
  ASSERT_EQ(run_on(other.get(), "CREATE SEQUENCE s2"), "<no row>");
  ASSERT_EQ(run_on(other.get(), "DROP TABLE t"), "<no row>");
  EXPECT_EQ(run_point(), "10");
  EXPECT_EQ(One("SELECT nextval('s2')").error.sqlstate, "42P01");
  EXPECT_EQ(Scalar("SELECT currval('s')"), "2");
  ASSERT_EQ(run_on(other.get(), "ROLLBACK"), "<no row>");
  EXPECT_EQ(run_point(), "10");
  EXPECT_EQ(One("SELECT nextval('s2')").error.sqlstate, "42P01");
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "3");

  // A committed one is seen by the very next statement.
  ASSERT_EQ(run_on(other.get(), "DROP SEQUENCE s"), "<no row>");
  EXPECT_EQ(One("SELECT nextval('s')").error.sqlstate, "42P01");
  ASSERT_EQ(run_on(other.get(), "CREATE SEQUENCE s START 100"), "<no row>");
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "100");
  EXPECT_EQ(Scalar("SELECT currval('s')"), "100");
  ASSERT_EQ(run_on(other.get(), "DROP TABLE t"), "<no row>");
  EXPECT_EQ(run_point(), "error 42P01");

  // The search path decides which s a name means.
  ASSERT_EQ(run_on(other.get(), "CREATE SCHEMA x"), "<no row>");
  ASSERT_EQ(run_on(other.get(), "CREATE SEQUENCE x.s START 50"), "<no row>");
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "101");
  EXPECT_TRUE(One("SET search_path = x, public").ok);
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "50");
  EXPECT_TRUE(One("RESET search_path").ok);
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "102");
  EXPECT_EQ(Scalar("SELECT lastval()"), "102");

  // In REPEATABLE READ a first statement calling nextval fixes the
  // snapshot all the same, as in PostgreSQL.
  ASSERT_EQ(run_on(other.get(), "CREATE TABLE u (id int)"), "<no row>");
  EXPECT_TRUE(One("BEGIN ISOLATION LEVEL REPEATABLE READ").ok);
  EXPECT_EQ(Scalar("SELECT nextval('s')"), "103");
  ASSERT_EQ(run_on(other.get(), "INSERT INTO u VALUES (1)"), "<no row>");
  EXPECT_EQ(Scalar("SELECT count(*) FROM u"), "0");
  EXPECT_TRUE(One("COMMIT").ok);
  EXPECT_EQ(Scalar("SELECT count(*) FROM u"), "1");
}

TEST_F(SessionTest, RelationSizesAreTheStoresPages) {
  ASSERT_TRUE(One("CREATE TABLE sz (id serial PRIMARY KEY, t text)").ok);
  ASSERT_TRUE(One("CREATE INDEX sz_t ON sz (t)").ok);
  auto size = [&](const std::string& f, const std::string& rel) {
    return std::stoll(Scalar("SELECT " + f + "('" + rel + "')"));
  };
  int64_t empty = size("pg_relation_size", "sz");
  int64_t empty_db = size("pg_database_size", "postgres");
  EXPECT_GT(empty, 0);
  ASSERT_TRUE(One("INSERT INTO sz (t) SELECT repeat('x', 50) || g FROM "
                  "generate_series(1, 20000) g")
                  .ok);
  int64_t table = size("pg_relation_size", "sz");
  int64_t indexes = size("pg_indexes_size", "sz");
  EXPECT_GT(table, 20000 * 50);  // the documents are in it
  EXPECT_GT(table, empty);
  EXPECT_EQ(table % 4096, 0);  // whole pages of the store
  EXPECT_EQ(size("pg_table_size", "sz"), table);
  EXPECT_EQ(size("pg_total_relation_size", "sz"), table + indexes);
  // Each index by name; their sum is below the total (the store's own _id
  // index counts in pg_indexes_size too).
  int64_t pkey = size("pg_relation_size", "sz_pkey");
  int64_t by_t = size("pg_relation_size", "sz_t");
  EXPECT_GT(by_t, 20000 * 50);
  EXPECT_GT(pkey, 0);
  EXPECT_LT(pkey + by_t, indexes);
  EXPECT_EQ(size("pg_indexes_size", "sz_t"), 0);
  // The database holds this table whole, and grew with it.
  EXPECT_GE(size("pg_database_size", "postgres"), table + indexes);
  EXPECT_GT(size("pg_database_size", "postgres"), empty_db + table);
  EXPECT_EQ(Scalar("SELECT pg_relation_size('sz_id_seq')"), "8192");
  ExecuteResult r = One("SELECT pg_database_size('nosuch')");
  EXPECT_EQ(r.error.sqlstate, "3D000");
  EXPECT_EQ(Scalar("SELECT pg_tablespace_size('pg_default') >= "
                   "pg_database_size(current_database())"),
            "t");
  EXPECT_EQ(One("SELECT pg_tablespace_size('nosuch')").error.sqlstate, "42704");
}

TEST_F(SessionTest, RegtypeLiteralIsATypeNameOnly) {
  // The literal is read as a type name alone: text that would make the
  // statement it is parsed in more than a cast is refused.
  for (const char* sql : {"SELECT 'int) FROM pg_class --'::regtype",
                          "SELECT 'int); DROP TABLE x; --'::regtype",
                          "SELECT to_regtype('int4) AS x, (1')"}) {
    ExecuteResult r = One(sql);
    EXPECT_FALSE(r.ok) << sql;
    EXPECT_TRUE(r.error.sqlstate == "22P02" || r.error.sqlstate == "42601")
        << sql << ": " << r.error.sqlstate << " " << r.error.message;
  }
  EXPECT_EQ(Scalar("SELECT to_regtype('integer[]')"), "integer[]");
}

// A deferred foreign key is checked when the implicit transaction of the
// extended protocol commits, at Sync: a violation there fails the Sync and
// rolls back every statement since the last one.
TEST_F(SessionTest, DeferredForeignKeyCheckedAtSync) {
  ASSERT_TRUE(One("CREATE TABLE dp (id int PRIMARY KEY)").ok);
  ASSERT_TRUE(
      One("CREATE TABLE dc (p int REFERENCES dp DEFERRABLE INITIALLY DEFERRED)")
          .ok);
  PgError error;
  std::unique_ptr<PreparedStatement> child, parent;
  ASSERT_TRUE(
      session_->Parse("INSERT INTO dc VALUES ($1::int)", {}, &child, &error))
      << error.message;
  ASSERT_TRUE(
      session_->Parse("INSERT INTO dp VALUES ($1::int)", {}, &parent, &error))
      << error.message;
  auto execute = [&](const PreparedStatement& stmt, const char* value) {
    std::unique_ptr<Portal> portal;
    PgError e;
    if (!session_->Bind(stmt, {Datum::Of(value)}, {}, {}, &portal, &e))
      return false;
    Sink sink;
    return session_->Execute(portal.get(), 0, &sink).ok;
  };
  // The child row alone: the Execute succeeds, the Sync fails.
  ASSERT_TRUE(execute(*child, "1"));
  EXPECT_FALSE(session_->Sync(&error));
  EXPECT_EQ(error.sqlstate, "23503");
  EXPECT_EQ(error.message,
            "insert or update on table \"dc\" violates foreign key constraint "
            "\"dc_p_fkey\"");
  EXPECT_EQ(error.detail, "Key (p)=(1) is not present in table \"dp\".");
  EXPECT_EQ(Scalar("SELECT count(*) FROM dc"), "0");
  EXPECT_EQ(session_->TransactionStatus(), 'I');
  // Child then parent before one Sync: one transaction, checked at its end.
  ASSERT_TRUE(execute(*child, "2"));
  ASSERT_TRUE(execute(*parent, "2"));
  EXPECT_TRUE(session_->Sync(&error)) << error.message;
  EXPECT_EQ(Scalar("SELECT count(*) FROM dc"), "1");
}

}  // namespace
}  // namespace kova::planner
