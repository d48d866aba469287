// Integration tests of `kova serve`: each starts the real binary on a free
// loopback port with a temporary data directory and talks to it through
// libpq/libpqxx and a raw protocol client (tests/wire/test_client.h).
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <openssl/evp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <pqxx/pqxx>
#include <random>
#include <thread>

#include "tests/wire/test_client.h"

namespace kova::wire::testing {
namespace {

using Clock = std::chrono::steady_clock;

// One server shared by the tests that need nothing special. With
// KOVA_WIRE_TEST_PORT set, these tests run against that server instead
// (e.g. a PostgreSQL 15 with trust auth, to check their expectations).
class WireTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new KovaServer();
    if (const char* port = std::getenv("KOVA_WIRE_TEST_PORT")) {
      server_->UseExternal(std::atoi(port));
      return;
    }
    ASSERT_TRUE(server_->Start()) << server_->Log();
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(server_->Stop(), 0) << server_->Log();
    delete server_;
    server_ = nullptr;
  }
  static KovaServer* server_;
};
KovaServer* WireTest::server_ = nullptr;

struct PgConnDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using Conn = std::unique_ptr<PGconn, PgConnDeleter>;
struct PgResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, PgResultDeleter>;

Conn Connect(const std::string& conninfo) {
  return Conn(PQconnectdb(conninfo.c_str()));
}

std::string SqlState(const PGresult* r) {
  const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  return s ? s : "";
}

// ---------------------------------------------------------------------------
// Startup

TEST_F(WireTest, StartupReportsSettingsAndBackendKey) {
  Conn c = Connect(server_->ConnStr("postgres", "application_name=wiretest"));
  ASSERT_EQ(PQstatus(c.get()), CONNECTION_OK) << PQerrorMessage(c.get());
  EXPECT_EQ(PQprotocolVersion(c.get()), 3);
  EXPECT_EQ(
      std::string(PQparameterStatus(c.get(), "server_version")).substr(0, 3),
      "15.");
  EXPECT_STREQ(PQparameterStatus(c.get(), "client_encoding"), "UTF8");
  EXPECT_STREQ(PQparameterStatus(c.get(), "application_name"), "wiretest");
  ASSERT_NE(PQparameterStatus(c.get(), "DateStyle"), nullptr);
  EXPECT_EQ(std::string(PQparameterStatus(c.get(), "DateStyle")).substr(0, 3),
            "ISO");
  EXPECT_GT(PQbackendPID(c.get()), 0);
  Conn d = Connect(server_->ConnStr());
  ASSERT_EQ(PQstatus(d.get()), CONNECTION_OK);
  EXPECT_NE(PQbackendPID(c.get()), PQbackendPID(d.get()));
}

TEST_F(WireTest, SslAndGssEncRequestsAnsweredN) {
  RawClient c;
  ASSERT_TRUE(c.Connect(server_->port()));
  std::string ssl, gss;
  PutInt32(&ssl, 8);
  PutInt32(&ssl, 80877103);
  PutInt32(&gss, 8);
  PutInt32(&gss, 80877104);
  char answer = 0;
  if (!server_->external()) {  // a PostgreSQL built with GSSAPI says 'G'
    ASSERT_TRUE(c.SendBytes(gss));
    ASSERT_TRUE(c.ReadExact(&answer, 1, 5000));
    EXPECT_EQ(answer, 'N');
  }
  ASSERT_TRUE(c.SendBytes(ssl));
  ASSERT_TRUE(c.ReadExact(&answer, 1, 5000));
  EXPECT_EQ(answer, 'N');
  c.SendStartup({{"user", "postgres"}, {"database", "postgres"}});
  auto msgs = c.UntilReady();
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs.front().type, 'R');
  EXPECT_EQ(GetInt32(msgs.front().body, 0), 0);  // AuthenticationOk
  EXPECT_EQ(msgs.back().type, 'Z');
  EXPECT_EQ(Types(msgs).find('K') != std::string::npos, true);
}

TEST_F(WireTest, NegotiateProtocolVersionFor31AndPqOptions) {
  RawClient c;
  ASSERT_TRUE(c.Connect(server_->port()));
  c.SendStartup({{"user", "postgres"},
                 {"database", "postgres"},
                 {"_pq_.fancy_option", "on"}},
                (3u << 16) | 1);
  auto msgs = c.UntilReady();
  ASSERT_GE(msgs.size(), 2u);
  ASSERT_EQ(msgs[0].type, 'v');
  EXPECT_EQ(GetInt32(msgs[0].body, 0), 3 << 16);  // 3.0, as PostgreSQL sends
  EXPECT_EQ(GetInt32(msgs[0].body, 4), 1);
  EXPECT_EQ(msgs[0].body.substr(8), std::string("_pq_.fancy_option") + '\0');
  EXPECT_EQ(msgs[1].type, 'R');
  EXPECT_EQ(msgs.back().type, 'Z');
}

TEST_F(WireTest, OtherProtocolVersionsRefused) {
  std::vector<uint32_t> versions = {4u << 16, (1234u << 16) | 1};
  // PostgreSQL answers 2.0 in the old protocol's format; Kova in v3's.
  if (!server_->external()) versions.push_back(2u << 16);
  for (uint32_t version : versions) {
    RawClient c;
    ASSERT_TRUE(c.Connect(server_->port()));
    c.SendStartup({{"user", "postgres"}}, version);
    Msg m;
    ASSERT_TRUE(c.Read(&m));
    ASSERT_EQ(m.type, 'E');
    EXPECT_EQ(ErrorField(m.body, 'C'), "0A000");
    EXPECT_EQ(ErrorField(m.body, 'S'), "FATAL");
    EXPECT_NE(ErrorField(m.body, 'M').find("unsupported frontend protocol"),
              std::string::npos);
    EXPECT_TRUE(c.ClosedByServer());
  }
}

TEST_F(WireTest, StartupErrors) {
  {  // no user
    RawClient c;
    ASSERT_TRUE(c.Connect(server_->port()));
    c.SendStartup({{"database", "postgres"}});
    Msg m;
    ASSERT_TRUE(c.Read(&m));
    EXPECT_EQ(ErrorField(m.body, 'C'), "28000");
    EXPECT_EQ(ErrorField(m.body, 'M'),
              "no PostgreSQL user name specified in startup packet");
  }
  if (!server_->external()) {
    // Oversized startup packet: PostgreSQL only logs it and closes; Kova
    // also tells the client.
    RawClient c;
    ASSERT_TRUE(c.Connect(server_->port()));
    std::string p;
    PutInt32(&p, 20000);
    PutInt32(&p, 196608);
    c.SendBytes(p);
    Msg m;
    ASSERT_TRUE(c.Read(&m));
    EXPECT_EQ(ErrorField(m.body, 'C'), "08P01");
    EXPECT_EQ(ErrorField(m.body, 'M'), "invalid length of startup packet");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // missing terminator
    RawClient c;
    ASSERT_TRUE(c.Connect(server_->port()));
    std::string body;
    PutInt32(&body, 196608);
    PutStr(&body, "user");
    PutStr(&body, "postgres");
    std::string p;
    PutInt32(&p, static_cast<int32_t>(body.size() + 4));
    c.SendBytes(p + body);
    Msg m;
    ASSERT_TRUE(c.Read(&m));
    EXPECT_EQ(ErrorField(m.body, 'C'), "08P01");
  }
  if (!server_->external()) {  // replication: refused by Kova
    RawClient c;
    ASSERT_TRUE(c.Connect(server_->port()));
    c.SendStartup({{"user", "postgres"}, {"replication", "database"}});
    Msg m;
    ASSERT_TRUE(c.Read(&m));
    EXPECT_EQ(m.type, 'E');
    EXPECT_EQ(ErrorField(m.body, 'S'), "FATAL");
  }
  {  // a database that does not exist (the engine's error, after AuthOk)
    Conn c = Connect("host=127.0.0.1 port=" + std::to_string(server_->port()) +
                     " user=postgres dbname=no_such_db sslmode=disable");
    EXPECT_EQ(PQstatus(c.get()), CONNECTION_BAD);
    EXPECT_NE(std::string(PQerrorMessage(c.get())).find("no_such_db"),
              std::string::npos)
        << PQerrorMessage(c.get());
  }
}

TEST_F(WireTest, StartupOptionsAreApplied) {
  Conn c = Connect(server_->ConnStr(
      "postgres", "options='-c application_name=from_options'"));
  ASSERT_EQ(PQstatus(c.get()), CONNECTION_OK) << PQerrorMessage(c.get());
  EXPECT_STREQ(PQparameterStatus(c.get(), "application_name"), "from_options");
}

// ---------------------------------------------------------------------------
// Simple query

TEST_F(WireTest, SimpleQueryWithSeveralStatements) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Query("SELECT 1 AS a; SELECT 2 AS b, 3 AS c"));
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "TDCTDCZ");
  EXPECT_EQ(msgs[2].body, std::string("SELECT 1") + '\0');
  EXPECT_EQ(msgs.back().body, "I");
  // DataRow of the second statement: 2 columns "2" and "3".
  const std::string& row = msgs[4].body;
  ASSERT_GE(row.size(), 2u);
  EXPECT_EQ(row[1], 2);

  Conn pc = Connect(server_->ConnStr());
  Result r(PQexec(pc.get(), "SELECT 1; SELECT 42"));
  ASSERT_EQ(PQresultStatus(r.get()), PGRES_TUPLES_OK);
  EXPECT_STREQ(PQgetvalue(r.get(), 0, 0), "42");
}

TEST_F(WireTest, EmptyQueryResponse) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  for (const char* q : {"", "   ", "-- just a comment", ";"}) {
    c.SendBytes(RawClient::Query(q));
    auto msgs = c.UntilReady();
    EXPECT_EQ(Types(msgs), "IZ") << "query: '" << q << "'";
  }
}

TEST_F(WireTest, ErrorsCarrySqlstateAndPosition) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  // A syntax error anywhere fails the whole string before it runs.
  c.SendBytes(RawClient::Query("SELECT 1; SELEC 2; SELECT 3"));
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  const std::string& e = msgs[0].body;
  EXPECT_EQ(ErrorField(e, 'S'), "ERROR");
  EXPECT_EQ(ErrorField(e, 'V'), "ERROR");
  EXPECT_EQ(ErrorField(e, 'C'), "42601");
  EXPECT_EQ(ErrorField(e, 'M'), "syntax error at or near \"SELEC\"");
  EXPECT_EQ(ErrorField(e, 'P'), "11");
  // A run-time error ends the string after what already ran.
  c.SendBytes(RawClient::Query("SELECT 1; SELECT 1/0; SELECT 3"));
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "TDCEZ");
  EXPECT_EQ(ErrorField(msgs[3].body, 'C'), "22012");
  EXPECT_EQ(ErrorField(msgs[3].body, 'M'), "division by zero");

  pqxx::connection conn(server_->ConnStr());
  pqxx::nontransaction tx(conn);
  try {
    tx.exec("SELECT 1/0");
    FAIL() << "no error";
  } catch (const pqxx::sql_error& err) {
    EXPECT_EQ(err.sqlstate(), "22012");
  }
  EXPECT_EQ(tx.exec("SELECT 7")[0][0].as<int>(), 7);
}

TEST_F(WireTest, TransactionStatusInReadyForQuery) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  auto status = [&](const char* q) {
    c.SendBytes(RawClient::Query(q));
    auto msgs = c.UntilReady();
    return msgs.empty() ? std::string("?") : msgs.back().body;
  };
  EXPECT_EQ(status("BEGIN"), "T");
  EXPECT_EQ(status("SELECT 1"), "T");
  EXPECT_EQ(status("SELEC"), "E");
  c.SendBytes(RawClient::Query("SELECT 1"));
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "25P02");
  EXPECT_EQ(status("ROLLBACK"), "I");
}

TEST_F(WireTest, ParameterStatusAfterSet) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Query("SET application_name = 'kova_wire'"));
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "CSZ");
  EXPECT_EQ(msgs[1].body,
            std::string("application_name") + '\0' + "kova_wire" + '\0');
  c.SendBytes(RawClient::Query("SET TimeZone = 'UTC'"));
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "CSZ");
  EXPECT_EQ(msgs[1].body, std::string("TimeZone") + '\0' + "UTC" + '\0');
  // No change: no ParameterStatus.
  c.SendBytes(RawClient::Query("SELECT 1"));
  EXPECT_EQ(Types(c.UntilReady()), "TDCZ");

  Conn pc = Connect(server_->ConnStr());
  Result r(PQexec(pc.get(), "SET application_name = 'via_libpq'"));
  ASSERT_EQ(PQresultStatus(r.get()), PGRES_COMMAND_OK);
  EXPECT_STREQ(PQparameterStatus(pc.get(), "application_name"), "via_libpq");
}

TEST_F(WireTest, FunctionCallRefused) {
  if (server_->external()) GTEST_SKIP() << "PostgreSQL supports fastpath";
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  std::string p;
  PutInt32(&p, 1234);
  PutInt16(&p, 0);
  PutInt16(&p, 0);
  PutInt16(&p, 0);
  c.Send('F', p);
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "0A000");
  c.SendBytes(RawClient::Query("SELECT 1"));
  EXPECT_EQ(Types(c.UntilReady()), "TDCZ");
}

TEST_F(WireTest, TerminateClosesCleanly) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Terminate());
  EXPECT_TRUE(c.ClosedByServer());
}

// ---------------------------------------------------------------------------
// Extended query

TEST_F(WireTest, ExtendedTextParamsThroughLibpqxx) {
  pqxx::connection conn(server_->ConnStr());
  pqxx::work tx(conn);
  auto r = tx.exec_params("SELECT $1::int + 1 AS x, $2::text AS y", 41,
                          std::string("hello"));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<int>(), 42);
  EXPECT_EQ(r[0][1].as<std::string>(), "hello");
  EXPECT_EQ(r.column_name(0), std::string("x"));
  auto n = tx.exec_params("SELECT $1::int", nullptr);
  EXPECT_TRUE(n[0][0].is_null());
  tx.commit();
}

TEST_F(WireTest, BinaryParamsAndResults) {
  Conn c = Connect(server_->ConnStr());
  ASSERT_EQ(PQstatus(c.get()), CONNECTION_OK);
  uint32_t v = htonl(41);
  uint64_t big = 0;
  for (int i = 0; i < 8; i++)
    big |= static_cast<uint64_t>((int64_t{1} << 40) >> (8 * (7 - i)) & 0xff)
           << (8 * i);
  const char* values[3] = {reinterpret_cast<const char*>(&v),
                           reinterpret_cast<const char*>(&big), "text!"};
  int lengths[3] = {4, 8, 5};
  int formats[3] = {1, 1, 1};
  Oid types[3] = {23, 20, 25};
  Result r(PQexecParams(c.get(), "SELECT $1::int4 + 1, $2::int8, $3::text", 3,
                        types, values, lengths, formats, 1));
  ASSERT_EQ(PQresultStatus(r.get()), PGRES_TUPLES_OK)
      << PQresultErrorMessage(r.get());
  ASSERT_EQ(PQfformat(r.get(), 0), 1);
  ASSERT_EQ(PQgetlength(r.get(), 0, 0), 4);
  uint32_t out;
  std::memcpy(&out, PQgetvalue(r.get(), 0, 0), 4);
  EXPECT_EQ(ntohl(out), 42u);
  ASSERT_EQ(PQgetlength(r.get(), 0, 1), 8);
  const auto* b =
      reinterpret_cast<const unsigned char*>(PQgetvalue(r.get(), 0, 1));
  int64_t got = 0;
  for (int i = 0; i < 8; i++) got = (got << 8) | b[i];
  EXPECT_EQ(got, int64_t{1} << 40);
  EXPECT_EQ(std::string(PQgetvalue(r.get(), 0, 2), PQgetlength(r.get(), 0, 2)),
            "text!");

  // Prepared statement, binary parameter, mixed result formats via raw.
  Result p(PQprepare(c.get(), "bin_stmt", "SELECT $1::int4 * 2", 1, types));
  ASSERT_EQ(PQresultStatus(p.get()), PGRES_COMMAND_OK)
      << PQresultErrorMessage(p.get());
  v = htonl(21);
  Result e(PQexecPrepared(c.get(), "bin_stmt", 1, values, lengths, formats, 1));
  ASSERT_EQ(PQresultStatus(e.get()), PGRES_TUPLES_OK)
      << PQresultErrorMessage(e.get());
  std::memcpy(&out, PQgetvalue(e.get(), 0, 0), 4);
  EXPECT_EQ(ntohl(out), 42u);
  Result t(PQexecPrepared(c.get(), "bin_stmt", 1, values, lengths, formats, 0));
  ASSERT_EQ(PQresultStatus(t.get()), PGRES_TUPLES_OK);
  EXPECT_STREQ(PQgetvalue(t.get(), 0, 0), "42");

  // A malformed binary int4 (3 bytes): an error, the session goes on.
  lengths[0] = 3;
  Result bad(
      PQexecPrepared(c.get(), "bin_stmt", 1, values, lengths, formats, 0));
  EXPECT_EQ(PQresultStatus(bad.get()), PGRES_FATAL_ERROR);
  Result ok(PQexec(c.get(), "SELECT 1"));
  EXPECT_EQ(PQresultStatus(ok.get()), PGRES_TUPLES_OK);
}

TEST_F(WireTest, NamedStatementsSurviveCommitAndRollback) {
  pqxx::connection conn(server_->ConnStr());
  conn.prepare("plus_one", "SELECT $1::int + 1");
  {
    pqxx::work tx(conn);
    EXPECT_EQ(tx.exec_prepared("plus_one", 1)[0][0].as<int>(), 2);
    tx.commit();
  }
  {
    pqxx::work tx(conn);
    EXPECT_EQ(tx.exec_prepared("plus_one", 2)[0][0].as<int>(), 3);
    tx.abort();
  }
  {
    pqxx::nontransaction tx(conn);
    EXPECT_EQ(tx.exec_prepared("plus_one", 3)[0][0].as<int>(), 4);
  }
  // Raw: duplicate names, unknown names, Close.
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Parse("s1", "SELECT 1") + RawClient::Sync());
  EXPECT_EQ(Types(c.UntilReady()), "1Z");
  c.SendBytes(RawClient::Parse("s1", "SELECT 2") + RawClient::Sync());
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "42P05");
  EXPECT_EQ(ErrorField(msgs[0].body, 'M'),
            "prepared statement \"s1\" already exists");
  // The unnamed statement may be replaced freely.
  c.SendBytes(RawClient::Parse("", "SELECT 1") +
              RawClient::Parse("", "SELECT 2") + RawClient::Sync());
  EXPECT_EQ(Types(c.UntilReady()), "11Z");
  c.SendBytes(RawClient::Bind("", "nope") + RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "26000");
  EXPECT_EQ(ErrorField(msgs[0].body, 'M'),
            "prepared statement \"nope\" does not exist");
  c.SendBytes(RawClient::Close('S', "s1") + RawClient::Parse("s1", "SELECT 3") +
              RawClient::Bind("", "s1") + RawClient::Execute("") +
              RawClient::Sync());
  msgs = c.UntilReady();
  EXPECT_EQ(Types(msgs), "312DCZ");
  // Close of something that does not exist is not an error.
  c.SendBytes(RawClient::Close('P', "nothing") + RawClient::Sync());
  EXPECT_EQ(Types(c.UntilReady()), "3Z");
}

TEST_F(WireTest, DescribeStatementAndPortal) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Parse("d1", "SELECT $1::int AS x, 'a'::text AS y") +
              RawClient::Describe('S', "d1") + RawClient::Sync());
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "1tTZ");
  EXPECT_EQ(msgs[1].body.size(), 2u + 4u);
  EXPECT_EQ(GetInt32(msgs[1].body, 2), 23);
  EXPECT_EQ(msgs[2].body.substr(2, 2), std::string("x") + '\0');
  c.SendBytes(RawClient::Bind("p", "d1", {"5"}, {1, 0}) +
              RawClient::Describe('P', "p") + RawClient::Execute("p") +
              RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "2TDCZ");
  // RowDescription of the portal carries its result formats: x binary.
  const std::string& rd = msgs[1].body;
  size_t after_x = 2 + 2;  // count, "x\0"
  EXPECT_EQ(rd[after_x + 4 + 2 + 4 + 2 + 4 + 1], 1);
  c.SendBytes(RawClient::Parse("", "SET application_name = 'q'") +
              RawClient::Describe('S', "") + RawClient::Bind("", "") +
              RawClient::Describe('P', "") + RawClient::Execute("") +
              RawClient::Sync());
  msgs = c.UntilReady();
  EXPECT_EQ(Types(msgs), "1tn2nCSZ");
  c.SendBytes(RawClient::Describe('P', "nope") + RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "34000");
}

// A query with five rows in whatever form the planner supports.
std::string FiveRowQuery(RawClient* c) {
  for (const char* q :
       {"SELECT * FROM generate_series(1, 5)", "VALUES (1), (2), (3), (4), (5)",
        "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 "
        "UNION ALL SELECT 5"}) {
    c->SendBytes(RawClient::Query(q));
    auto msgs = c->UntilReady();
    if (Types(msgs) == "TDDDDDCZ") return q;
  }
  return "";
}

TEST_F(WireTest, RowLimitedPortalSuspends) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  std::string q = FiveRowQuery(&c);
  if (q.empty()) GTEST_SKIP() << "the planner has no multi-row query yet";
  // Implicit transaction: several Executes before Sync.
  c.SendBytes(RawClient::Parse("", q) + RawClient::Bind("c1", "") +
              RawClient::Execute("c1", 2) + RawClient::Execute("c1", 2) +
              RawClient::Execute("c1", 2) + RawClient::Sync());
  auto msgs = c.UntilReady();
  EXPECT_EQ(Types(msgs), "12DDsDDsDCZ");
  // The portal ended with the implicit transaction.
  c.SendBytes(RawClient::Execute("c1", 2) + RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "34000");
  // In a transaction block, as pgJDBC does: Sync between the Executes.
  c.SendBytes(RawClient::Query("BEGIN"));
  EXPECT_EQ(c.UntilReady().back().body, "T");
  c.SendBytes(RawClient::Parse("", q) + RawClient::Bind("C_1", "") +
              RawClient::Describe('P', "C_1") + RawClient::Execute("C_1", 3) +
              RawClient::Sync());
  msgs = c.UntilReady();
  EXPECT_EQ(Types(msgs), "12TDDDsZ");
  c.SendBytes(RawClient::Execute("C_1", 3) + RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "DDCZ");
  EXPECT_EQ(msgs[2].body, std::string("SELECT 2") + '\0');
  c.SendBytes(RawClient::Close('P', "C_1") + RawClient::Sync());
  EXPECT_EQ(Types(c.UntilReady()), "3Z");
  c.SendBytes(RawClient::Query("COMMIT"));
  EXPECT_EQ(c.UntilReady().back().body, "I");
}

TEST_F(WireTest, ErrorSkipsUntilSync) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Parse("", "SELEC 1") + RawClient::Bind("", "") +
              RawClient::Describe('P', "") + RawClient::Execute("") +
              RawClient::Query("SELECT 1") + RawClient::Flush() +
              RawClient::Sync());
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "42601");
  EXPECT_EQ(msgs[1].body, "I");
  // An Execute error also skips what follows.
  c.SendBytes(RawClient::Parse("", "SELECT 1/0") + RawClient::Bind("", "") +
              RawClient::Execute("") + RawClient::Parse("", "SELECT 1") +
              RawClient::Sync());
  msgs = c.UntilReady();
  // PostgreSQL folds 1/0 at Bind, Kova fails at Execute: either way one
  // error, then nothing until ReadyForQuery.
  std::string types = Types(msgs);
  ASSERT_TRUE(types == "12EZ" || types == "1EZ") << types;
  EXPECT_EQ(ErrorField(msgs[msgs.size() - 2].body, 'C'), "22012");
  // And the session works after.
  c.SendBytes(RawClient::Parse("", "SELECT 1") + RawClient::Bind("", "") +
              RawClient::Execute("") + RawClient::Sync());
  EXPECT_EQ(Types(c.UntilReady()), "12DCZ");
}

TEST_F(WireTest, BindValidation) {
  RawClient c;
  ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
  c.SendBytes(RawClient::Parse("two", "SELECT $1::int, $2::int") +
              RawClient::Sync());
  ASSERT_EQ(Types(c.UntilReady()), "1Z");
  c.SendBytes(RawClient::Bind("", "two", {"1"}) + RawClient::Sync());
  auto msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "08P01");
  EXPECT_EQ(ErrorField(msgs[0].body, 'M'),
            "bind message supplies 1 parameters, but prepared statement "
            "\"two\" requires 2");
  c.SendBytes(RawClient::Bind("", "two", {"1", "2"}, {0, 0, 0}) +
              RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "08P01");
  c.SendBytes(RawClient::Bind("", "two", {"1", "x"}) + RawClient::Sync());
  msgs = c.UntilReady();
  ASSERT_EQ(Types(msgs), "EZ");
  EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "22P02");
  if (!server_->external()) {
    // A bad result format code: Kova refuses it at Bind (22023);
    // PostgreSQL only when it first sends a row.
    c.SendBytes(RawClient::Bind("", "two", {"1", "2"}, {7}) +
                RawClient::Sync());
    msgs = c.UntilReady();
    ASSERT_EQ(Types(msgs), "EZ");
    EXPECT_EQ(ErrorField(msgs[0].body, 'C'), "22023");
  }
  c.SendBytes(RawClient::Bind("", "two", {"1", "2"}) + RawClient::Execute("") +
              RawClient::Sync());
  EXPECT_EQ(Types(c.UntilReady()), "2DCZ");
}

// ---------------------------------------------------------------------------
// COPY

TEST_F(WireTest, CopyOut) {
  Conn c = Connect(server_->ConnStr());
  Result r(PQexec(c.get(), "COPY (SELECT 1 AS a, 'x' AS b) TO STDOUT"));
  if (PQresultStatus(r.get()) == PGRES_FATAL_ERROR)
    GTEST_SKIP() << "planner: " << PQresultErrorMessage(r.get());
  ASSERT_EQ(PQresultStatus(r.get()), PGRES_COPY_OUT);
  EXPECT_EQ(PQnfields(r.get()), 2);
  char* buf = nullptr;
  std::string all;
  int n;
  while ((n = PQgetCopyData(c.get(), &buf, 0)) > 0) {
    all.append(buf, n);
    PQfreemem(buf);
  }
  EXPECT_EQ(n, -1);
  EXPECT_EQ(all, "1\tx\n");
  Result done(PQgetResult(c.get()));
  EXPECT_EQ(PQresultStatus(done.get()), PGRES_COMMAND_OK);
  EXPECT_STREQ(PQcmdTuples(done.get()), "1");
}

// Sends `data` in chunks of `chunk` bytes and ends the COPY; the result.
Result CopyIn(PGconn* c, const std::string& sql, const std::string& data,
              size_t chunk, const char* fail = nullptr) {
  Result r(PQexec(c, sql.c_str()));
  if (PQresultStatus(r.get()) != PGRES_COPY_IN) return r;
  for (size_t at = 0; at < data.size(); at += chunk) {
    size_t n = std::min(chunk, data.size() - at);
    if (PQputCopyData(c, data.data() + at, static_cast<int>(n)) != 1)
      return Result(PQgetResult(c));
  }
  if (PQputCopyEnd(c, fail) != 1) return Result(PQgetResult(c));
  Result done(PQgetResult(c));
  // Drain to the end of the query.
  while (PGresult* extra = PQgetResult(c)) PQclear(extra);
  return done;
}

std::string CopyOutText(PGconn* c, const std::string& sql) {
  Result r(PQexec(c, sql.c_str()));
  if (PQresultStatus(r.get()) != PGRES_COPY_OUT)
    return std::string("error: ") + PQresultErrorMessage(r.get());
  std::string out;
  char* buf = nullptr;
  int n;
  while ((n = PQgetCopyData(c, &buf, 0)) > 0) {
    out.append(buf, n);
    PQfreemem(buf);
  }
  Result done(PQgetResult(c));
  if (PQresultStatus(done.get()) != PGRES_COMMAND_OK)
    return std::string("error: ") + PQresultErrorMessage(done.get());
  return out;
}

std::string Field(const PGresult* r, int field) {
  const char* s = PQresultErrorField(r, field);
  return s ? s : "";
}

TEST_F(WireTest, CopyIn) {
  Conn c = Connect(server_->ConnStr());
  ASSERT_EQ(PQstatus(c.get()), CONNECTION_OK);
  PQclear(PQexec(c.get(), "DROP TABLE IF EXISTS copy_in_t"));
  Result t(PQexec(c.get(),
                  "CREATE TABLE copy_in_t (id serial PRIMARY KEY, a int, b "
                  "text)"));
  ASSERT_EQ(PQresultStatus(t.get()), PGRES_COMMAND_OK)
      << PQresultErrorMessage(t.get());

  // Text format; CopyData boundaries fall anywhere, even inside an escape.
  Result done = CopyIn(c.get(), "COPY copy_in_t (a, b) FROM STDIN",
                       "1\tone\n2\ttwo\\tx\n3\t\\N\n", 3);
  ASSERT_EQ(PQresultStatus(done.get()), PGRES_COMMAND_OK)
      << PQresultErrorMessage(done.get());
  EXPECT_STREQ(PQcmdStatus(done.get()), "COPY 3");
  EXPECT_STREQ(PQcmdTuples(done.get()), "3");

  // CSV with a header, in one chunk.
  done = CopyIn(c.get(),
                "COPY copy_in_t (b, a) FROM STDIN (FORMAT csv, HEADER match)",
                "b,a\n\"four, 4\",4\n", 1 << 16);
  ASSERT_EQ(PQresultStatus(done.get()), PGRES_COMMAND_OK)
      << PQresultErrorMessage(done.get());
  EXPECT_STREQ(PQcmdTuples(done.get()), "1");

  // CopyFail: 57014 with the client's message; nothing stays.
  done = CopyIn(c.get(), "COPY copy_in_t (a, b) FROM STDIN", "5\tfive\n", 64,
                "client gave up");
  EXPECT_EQ(PQresultStatus(done.get()), PGRES_FATAL_ERROR);
  EXPECT_EQ(SqlState(done.get()), "57014");
  EXPECT_EQ(Field(done.get(), PG_DIAG_MESSAGE_PRIMARY),
            "COPY from stdin failed: client gave up");
  EXPECT_EQ(Field(done.get(), PG_DIAG_CONTEXT), "COPY copy_in_t, line 2");

  // A data error names the line and column in CONTEXT; nothing stays.
  done = CopyIn(c.get(), "COPY copy_in_t (a, b) FROM STDIN",
                "6\tsix\nx\tbad\n7\tseven\n", 5);
  EXPECT_EQ(PQresultStatus(done.get()), PGRES_FATAL_ERROR);
  EXPECT_EQ(SqlState(done.get()), "22P02");
  EXPECT_EQ(Field(done.get(), PG_DIAG_MESSAGE_PRIMARY),
            "invalid input syntax for type integer: \"x\"");
  EXPECT_EQ(Field(done.get(), PG_DIAG_CONTEXT),
            "COPY copy_in_t, line 2, column a: \"x\"");

  // The connection is usable after a failed COPY.
  Result count(PQexec(c.get(), "SELECT count(*), max(id) FROM copy_in_t"));
  ASSERT_EQ(PQresultStatus(count.get()), PGRES_TUPLES_OK)
      << PQresultErrorMessage(count.get());
  EXPECT_STREQ(PQgetvalue(count.get(), 0, 0), "4");

  // COPY table TO STDOUT, text and CSV.
  EXPECT_EQ(CopyOutText(c.get(), "COPY copy_in_t (a, b) TO STDOUT"),
            "1\tone\n2\ttwo\\tx\n3\t\\N\n4\tfour, 4\n");
  EXPECT_EQ(CopyOutText(c.get(),
                        "COPY copy_in_t (id, b) TO STDOUT (FORMAT csv, "
                        "HEADER, FORCE_QUOTE (b))"),
            "id,b\n1,\"one\"\n2,\"two\tx\"\n3,\n4,\"four, 4\"\n");

  // In the extended protocol too.
  Result p(PQprepare(c.get(), "copy_stmt", "COPY copy_in_t (a) TO STDOUT", 0,
                     nullptr));
  ASSERT_EQ(PQresultStatus(p.get()), PGRES_COMMAND_OK)
      << PQresultErrorMessage(p.get());
  Result e(
      PQexecPrepared(c.get(), "copy_stmt", 0, nullptr, nullptr, nullptr, 0));
  ASSERT_EQ(PQresultStatus(e.get()), PGRES_COPY_OUT)
      << PQresultErrorMessage(e.get());
  std::string out;
  char* buf = nullptr;
  int n;
  while ((n = PQgetCopyData(c.get(), &buf, 0)) > 0) {
    out.append(buf, n);
    PQfreemem(buf);
  }
  Result end(PQgetResult(c.get()));
  EXPECT_EQ(PQresultStatus(end.get()), PGRES_COMMAND_OK);
  EXPECT_EQ(out, "1\n2\n3\n4\n");
  PQclear(PQexec(c.get(), "DROP TABLE copy_in_t"));
}

// ---------------------------------------------------------------------------
// Cancel

TEST_F(WireTest, CancelInterruptsRunningStatement) {
  Conn c = Connect(server_->ConnStr());
  ASSERT_EQ(PQstatus(c.get()), CONNECTION_OK);
  ASSERT_EQ(PQsendQuery(c.get(), "SELECT pg_sleep(5)"), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  PGcancel* cancel = PQgetCancel(c.get());
  char err[256];
  auto t0 = Clock::now();
  ASSERT_EQ(PQcancel(cancel, err, sizeof err), 1) << err;
  PQfreeCancel(cancel);
  Result r(PQgetResult(c.get()));
  double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  ASSERT_EQ(PQresultStatus(r.get()), PGRES_FATAL_ERROR);
  EXPECT_EQ(SqlState(r.get()), "57014");
  EXPECT_STREQ(PQresultErrorField(r.get(), PG_DIAG_MESSAGE_PRIMARY),
               "canceling statement due to user request");
  EXPECT_LT(elapsed, 1.0);
  while (PGresult* more = PQgetResult(c.get())) PQclear(more);
  Result ok(PQexec(c.get(), "SELECT 1"));
  EXPECT_EQ(PQresultStatus(ok.get()), PGRES_TUPLES_OK);
  // A CancelRequest with a wrong key does nothing.
  ASSERT_EQ(PQsendQuery(c.get(), "SELECT pg_sleep(0.5)"), 1);
  RawClient raw;
  ASSERT_TRUE(raw.Connect(server_->port()));
  std::string req;
  PutInt32(&req, 16);
  PutInt32(&req, 80877102);
  PutInt32(&req, PQbackendPID(c.get()));
  PutInt32(&req, 12345);
  raw.SendBytes(req);
  EXPECT_TRUE(raw.ClosedByServer());
  Result slept(PQgetResult(c.get()));
  EXPECT_EQ(PQresultStatus(slept.get()), PGRES_TUPLES_OK);
  while (PGresult* more = PQgetResult(c.get())) PQclear(more);
}

// ---------------------------------------------------------------------------
// Bad input

TEST_F(WireTest, MalformedMessagesGetFatal08P01) {
  // PostgreSQL only logs some of these (bad lengths) and closes silently.
  if (server_->external()) GTEST_SKIP() << "Kova-specific error reports";
  struct Case {
    std::string bytes;
    std::string message;
  };
  std::string huge = "Q";
  PutInt32(&huge, 0x7fffffff);
  std::string big_sync = "S";
  PutInt32(&big_sync, 20000);
  std::vector<Case> cases = {
      {RawClient::Frame('x', ""), "invalid frontend message type 120"},
      {RawClient::Frame('p', "pw"), "invalid frontend message type 112"},
      {std::string("Q\0\0\0\x02", 5), "invalid message length"},
      {huge, "invalid message length"},
      {big_sync, "invalid message length"},
      {RawClient::Frame('Q', "SELECT 1"), "invalid string in message"},
      {RawClient::Frame('E', std::string("\0\0", 2)), "invalid message format"},
      {RawClient::Frame('B', std::string("\0\0\0\x05", 4)),
       "invalid message format"},
      {RawClient::Frame('P', std::string("a\0b\0\xff\xff", 6)),
       "invalid message format"},
  };
  for (const auto& k : cases) {
    RawClient c;
    ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
    c.SendBytes(k.bytes);
    Msg m;
    ASSERT_TRUE(c.Read(&m)) << k.message;
    ASSERT_EQ(m.type, 'E') << k.message;
    EXPECT_EQ(ErrorField(m.body, 'S'), "FATAL");
    EXPECT_EQ(ErrorField(m.body, 'C'), "08P01");
    EXPECT_EQ(ErrorField(m.body, 'M'), k.message);
    EXPECT_TRUE(c.ClosedByServer()) << k.message;
  }
  // Disconnecting mid-message is harmless.
  for (int i = 0; i < 5; i++) {
    RawClient c;
    ASSERT_EQ(c.Login(server_->port()).back().type, 'Z');
    std::string partial = RawClient::Query("SELECT 1").substr(0, 3 + i);
    c.SendBytes(partial);
    c.Close();
  }
  EXPECT_TRUE(server_->Alive());
  Conn ok = Connect(server_->ConnStr());
  EXPECT_EQ(PQstatus(ok.get()), CONNECTION_OK);
}

TEST_F(WireTest, FuzzDoesNotDisturbOtherSessions) {
  std::atomic<bool> done{false};
  std::atomic<int> healthy_ok{0}, healthy_bad{0};
  std::thread healthy([&] {
    Conn c = Connect(server_->ConnStr());
    if (PQstatus(c.get()) != CONNECTION_OK) {
      healthy_bad++;
      return;
    }
    while (!done) {
      Result r(PQexec(c.get(), "SELECT 1 + 1"));
      if (PQresultStatus(r.get()) == PGRES_TUPLES_OK &&
          std::string(PQgetvalue(r.get(), 0, 0)) == "2") {
        healthy_ok++;
      } else {
        healthy_bad++;
      }
    }
  });
  const int kThreads = 4, kCasesPerThread = 100;
  auto deadline = Clock::now() + std::chrono::seconds(60);
  std::vector<std::thread> fuzzers;
  for (int t = 0; t < kThreads; t++) {
    fuzzers.emplace_back([&, t] {
      std::mt19937 rng(1234 + t);
      auto rnd = [&](int n) {
        return static_cast<int>(rng() % static_cast<unsigned>(n));
      };
      auto random_bytes = [&](int n) {
        std::string s(n, '\0');
        for (auto& ch : s) ch = static_cast<char>(rng());
        return s;
      };
      const std::string kTypes = "QPBDECSHXFdcfp\0x";
      for (int i = 0; i < kCasesPerThread && Clock::now() < deadline; i++) {
        RawClient c;
        int mode = rnd(6);
        if (mode == 0) {  // raw garbage instead of a startup packet
          if (!c.Connect(server_->port())) continue;
          c.SendBytes(random_bytes(1 + rnd(64)));
        } else if (mode == 1) {  // startup packet with random contents
          if (!c.Connect(server_->port())) continue;
          std::string p;
          PutInt32(&p, 8 + rnd(200));
          PutInt32(&p, rnd(2) ? 196608 : static_cast<int32_t>(rng()));
          c.SendBytes(p + random_bytes(rnd(200)));
        } else {
          if (c.Login(server_->port()).empty()) continue;
          std::string bytes;
          int n = 1 + rnd(5);
          for (int k = 0; k < n; k++) {
            if (mode == 2) {  // random typed messages
              std::string payload = random_bytes(rnd(40));
              bytes += RawClient::Frame(kTypes[rnd(kTypes.size())], payload);
            } else if (mode == 3) {  // valid messages, one byte flipped
              std::string m;
              switch (rnd(5)) {
                case 0:
                  m = RawClient::Parse("s", "SELECT $1::int", {23});
                  break;
                case 1:
                  m = RawClient::Bind("", "s", {"1"}, {0});
                  break;
                case 2:
                  m = RawClient::Execute("", 1);
                  break;
                case 3:
                  m = RawClient::Describe('S', "s");
                  break;
                default:
                  m = RawClient::Query("SELECT 1");
              }
              m[rnd(m.size())] = static_cast<char>(rng());
              bytes += m;
            } else if (mode == 4) {  // random SQL-ish text
              static const char* kWords[] = {
                  "SELECT", "1",   "(",  ")",   "'",       "$1", ",",  "FROM",
                  "BEGIN",  ";",   "::", "int", "NULL",    "--", "/*", "E'\\",
                  "COMMIT", "SET", "=",  "\"",  "ROLLBACK"};
              std::string sql;
              int w = rnd(12);
              for (int k2 = 0; k2 < w; k2++) {
                sql += kWords[rnd(sizeof kWords / sizeof *kWords)];
                sql += rnd(2) ? " " : "";
              }
              bytes += RawClient::Query(sql);
            } else {  // random bytes after a valid login
              bytes += random_bytes(1 + rnd(100));
            }
          }
          if (rnd(2)) bytes += RawClient::Sync();
          c.SendBytes(bytes);
        }
        // Read whatever comes, briefly.
        Msg m;
        while (c.Read(&m, 100)) {
        }
      }
    });
  }
  for (auto& f : fuzzers) f.join();
  done = true;
  healthy.join();
  EXPECT_TRUE(server_->Alive()) << server_->Log();
  EXPECT_EQ(healthy_bad.load(), 0);
  EXPECT_GT(healthy_ok.load(), 10);
  Conn after = Connect(server_->ConnStr());
  ASSERT_EQ(PQstatus(after.get()), CONNECTION_OK);
  Result r(PQexec(after.get(), "SELECT 1"));
  EXPECT_EQ(PQresultStatus(r.get()), PGRES_TUPLES_OK);
}

// ---------------------------------------------------------------------------
// Tests with their own server

std::string Md5HexOf(const std::string& s) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(s.data(), s.size(), out, &len, EVP_md5(), nullptr);
  std::string hex;
  char b[3];
  for (unsigned int i = 0; i < len; i++) {
    std::snprintf(b, sizeof b, "%02x", out[i]);
    hex += b;
  }
  return hex;
}

// The first authentication request a user gets (R code), or -1.
int FirstAuthRequest(int port, const std::string& user) {
  RawClient c;
  if (!c.Connect(port)) return -1;
  c.SendStartup({{"user", user}, {"database", "postgres"}});
  Msg m;
  if (!c.Read(&m) || m.type != 'R') return -1;
  return GetInt32(m.body, 0);
}

TEST(WireAuth, PasswordMd5AndScram) {
  std::string root = MakeTempDir();
  std::string data = root + "/data";
  {
    KovaServer trust({}, data);
    ASSERT_TRUE(trust.Start()) << trust.Log();
    Conn c = Connect(trust.ConnStr());
    ASSERT_EQ(PQstatus(c.get()), CONNECTION_OK) << PQerrorMessage(c.get());
    std::string md5 = "md5" + Md5HexOf("md5pwbob");
    for (std::string sql :
         {std::string("CREATE ROLE alice LOGIN PASSWORD 'scram-pw'"),
          "CREATE ROLE bob LOGIN PASSWORD '" + md5 + "'",
          std::string("CREATE ROLE carol LOGIN PASSWORD 'clear-pw'"),
          std::string("CREATE ROLE dave LOGIN PASSWORD 'dave-pw'"),
          std::string("CREATE ROLE nologin PASSWORD 'x'")}) {
      Result r(PQexec(c.get(), sql.c_str()));
      ASSERT_EQ(PQresultStatus(r.get()), PGRES_COMMAND_OK)
          << sql << ": " << PQresultErrorMessage(r.get());
    }
    c.reset();
    EXPECT_EQ(trust.Stop(), 0);
  }
  std::string hba = root + "/hba.conf";
  {
    std::ofstream out(hba);
    out << "# kova test hba\n"
           "host all alice   127.0.0.1/32 scram-sha-256\n"
           "host all bob     127.0.0.1/32 md5\n"
           "host all carol   127.0.0.1/32 password\n"
           "host all dave    127.0.0.1/32 md5\n"
           "host all ghost   127.0.0.1/32 scram-sha-256\n"
           "host all ghost5  127.0.0.1/32 md5\n"
           "host all mallory 0.0.0.0/0    reject\n"
           "host all all     127.0.0.1/32 trust\n";
  }
  KovaServer server({"--hba", hba}, data);
  ASSERT_TRUE(server.Start()) << server.Log();
  auto login = [&](const std::string& user, const std::string& password) {
    Conn c = Connect(server.ConnStr(user, "password='" + password + "'"));
    if (PQstatus(c.get()) != CONNECTION_OK)
      return std::string(PQerrorMessage(c.get()));
    Result r(PQexec(c.get(), "SELECT 1"));
    return PQresultStatus(r.get()) == PGRES_TUPLES_OK
               ? std::string("ok")
               : std::string(PQresultErrorMessage(r.get()));
  };
  auto failed = [](const std::string& user) {
    return "password authentication failed for user \"" + user + "\"";
  };
  EXPECT_EQ(FirstAuthRequest(server.port(), "alice"), 10);  // SASL
  EXPECT_EQ(FirstAuthRequest(server.port(), "bob"), 5);     // MD5
  EXPECT_EQ(FirstAuthRequest(server.port(), "carol"), 3);   // cleartext
  EXPECT_EQ(FirstAuthRequest(server.port(), "dave"), 10);   // md5 -> SCRAM
  EXPECT_EQ(FirstAuthRequest(server.port(), "ghost"), 10);  // mock SCRAM
  EXPECT_EQ(FirstAuthRequest(server.port(), "ghost5"), 5);  // mock md5
  EXPECT_EQ(FirstAuthRequest(server.port(), "postgres"), 0);

  EXPECT_EQ(login("alice", "scram-pw"), "ok");
  EXPECT_NE(login("alice", "wrong").find(failed("alice")), std::string::npos);
  EXPECT_EQ(login("bob", "md5pw"), "ok");
  EXPECT_NE(login("bob", "wrong").find(failed("bob")), std::string::npos);
  EXPECT_EQ(login("carol", "clear-pw"), "ok");
  EXPECT_NE(login("carol", "wrong").find(failed("carol")), std::string::npos);
  EXPECT_EQ(login("dave", "dave-pw"), "ok");
  EXPECT_NE(login("dave", "wrong").find(failed("dave")), std::string::npos);
  EXPECT_NE(login("ghost", "x").find(failed("ghost")), std::string::npos);
  EXPECT_NE(login("ghost5", "x").find(failed("ghost5")), std::string::npos);
  EXPECT_NE(login("mallory", "x").find("pg_hba.conf rejects connection"),
            std::string::npos);
  EXPECT_NE(
      login("nologin", "x").find("role \"nologin\" is not permitted to log in"),
      std::string::npos);
  EXPECT_NE(login("nobody", "x").find("role \"nobody\" does not exist"),
            std::string::npos);
  // node-postgres / pgJDBC send n=* as the SCRAM user name; libpq sends n=.
  // (libpq covers the empty form above; the unit tests cover '*'.)
  EXPECT_EQ(server.Stop(), 0);
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
}

TEST(WireAuth, AuthFlagAppliesToEveryone) {
  KovaServer server({"--auth", "reject"});
  ASSERT_TRUE(server.Start()) << server.Log();
  Conn c = Connect(server.ConnStr());
  EXPECT_EQ(PQstatus(c.get()), CONNECTION_BAD);
  EXPECT_NE(std::string(PQerrorMessage(c.get())).find("rejects connection"),
            std::string::npos);
  EXPECT_EQ(server.Stop(), 0);
}

TEST(WireLimits, MaxConnectionsRefusesWith53300) {
  KovaServer server({"--max-connections", "3"});
  ASSERT_TRUE(server.Start()) << server.Log();
  std::vector<Conn> conns;
  for (int i = 0; i < 3; i++) {
    conns.push_back(Connect(server.ConnStr()));
    ASSERT_EQ(PQstatus(conns.back().get()), CONNECTION_OK);
  }
  RawClient raw;
  ASSERT_TRUE(raw.Connect(server.port()));
  raw.SendStartup({{"user", "postgres"}, {"database", "postgres"}});
  Msg m;
  ASSERT_TRUE(raw.Read(&m));
  ASSERT_EQ(m.type, 'E');
  EXPECT_EQ(ErrorField(m.body, 'C'), "53300");
  EXPECT_EQ(ErrorField(m.body, 'M'), "sorry, too many clients already");
  Conn extra = Connect(server.ConnStr());
  EXPECT_EQ(PQstatus(extra.get()), CONNECTION_BAD);
  // Cancel requests still get through while full.
  ASSERT_EQ(PQsendQuery(conns[0].get(), "SELECT pg_sleep(5)"), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  PGcancel* cancel = PQgetCancel(conns[0].get());
  char err[256];
  EXPECT_EQ(PQcancel(cancel, err, sizeof err), 1);
  PQfreeCancel(cancel);
  Result r(PQgetResult(conns[0].get()));
  EXPECT_EQ(SqlState(r.get()), "57014");
  while (PGresult* more = PQgetResult(conns[0].get())) PQclear(more);
  // A slot frees when a connection ends.
  conns.pop_back();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Conn again = Connect(server.ConnStr());
  EXPECT_EQ(PQstatus(again.get()), CONNECTION_OK)
      << PQerrorMessage(again.get());
  EXPECT_EQ(server.Stop(), 0);
}

TEST(WireLimits, TwoHundredIdleConnectionsStayUnder100MiB) {
  KovaServer server;
  ASSERT_TRUE(server.Start()) << server.Log();
  long before = RssKiB(server.pid());
  std::vector<Conn> conns;
  for (int i = 0; i < 200; i++) {
    conns.push_back(Connect(server.ConnStr()));
    ASSERT_EQ(PQstatus(conns.back().get()), CONNECTION_OK)
        << i << ": " << PQerrorMessage(conns.back().get());
  }
  // Every one of them answers.
  for (auto& c : conns) {
    Result r(PQexec(c.get(), "SELECT 1"));
    ASSERT_EQ(PQresultStatus(r.get()), PGRES_TUPLES_OK);
  }
  long rss = RssKiB(server.pid());
  std::printf("server RSS: %ld KiB before, %ld KiB with 200 connections\n",
              before, rss);
  RecordProperty("rss_kib_200_connections", static_cast<int>(rss));
  EXPECT_LT(rss, 100 * 1024);
  conns.clear();
  EXPECT_EQ(server.Stop(), 0);
}

TEST(WireShutdown, SigtermEndsSessionsAndRollsBack) {
  KovaServer server;
  ASSERT_TRUE(server.Start()) << server.Log();
  RawClient idle, in_tx, busy;
  ASSERT_EQ(idle.Login(server.port()).back().type, 'Z');
  ASSERT_EQ(in_tx.Login(server.port()).back().type, 'Z');
  ASSERT_EQ(busy.Login(server.port()).back().type, 'Z');
  in_tx.SendBytes(RawClient::Query("BEGIN"));
  EXPECT_EQ(in_tx.UntilReady().back().body, "T");
  busy.SendBytes(RawClient::Query("SELECT pg_sleep(30)"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto t0 = Clock::now();
  EXPECT_EQ(server.Stop(), 0) << server.Log();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 5.0);
  for (RawClient* c : {&idle, &in_tx, &busy}) {
    Msg m;
    bool got_fatal = false;
    while (c->Read(&m, 2000)) {
      if (m.type == 'E' && ErrorField(m.body, 'S') == "FATAL") {
        EXPECT_EQ(ErrorField(m.body, 'C'), "57P01");
        got_fatal = true;
      }
    }
    EXPECT_TRUE(got_fatal);
  }
}

}  // namespace
}  // namespace kova::wire::testing
