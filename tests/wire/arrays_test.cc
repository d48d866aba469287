// Arrays through the real server and libpq: binary parameters and results
// in PostgreSQL's array_send format (bytes recorded from PostgreSQL 15's
// array_send), = ANY($1) with an array parameter as ORMs send it, and array
// columns surviving a restart.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <string>

#include "tests/wire/test_client.h"

namespace kova::wire::testing {
namespace {

std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// array_send('{1,NULL,3}'::int[]) on PostgreSQL 15.
const char kIntArray[] =
    "00000001000000010000001700000003000000010000000400000001ffffffff0000000400"
    "000003";

struct Conn {
  explicit Conn(const std::string& conninfo)
      : c(PQconnectdb(conninfo.c_str())) {}
  ~Conn() { PQfinish(c); }
  PGconn* c;
};

// Runs sql with one parameter of type `type` (binary when `binary`), the
// result in `result_format`; returns the result (caller clears).
PGresult* Exec(PGconn* c, const char* sql, Oid type, const std::string& param,
               bool binary, int result_format) {
  const char* values[] = {param.data()};
  int lengths[] = {static_cast<int>(param.size())};
  int formats[] = {binary ? 1 : 0};
  return PQexecParams(c, sql, 1, &type, values, lengths, formats,
                      result_format);
}

TEST(ArraysTest, BinaryParametersResultsAndRestart) {
  KovaServer server;
  ASSERT_TRUE(server.Start()) << server.Log();
  {
    Conn conn(server.ConnStr());
    ASSERT_EQ(PQstatus(conn.c), CONNECTION_OK);
    PGresult* r = PQexec(conn.c, "CREATE TABLE arr (id int, a int[])");
    ASSERT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQerrorMessage(conn.c);
    PQclear(r);
    // A binary int4[] parameter into a column.
    r = Exec(conn.c, "INSERT INTO arr VALUES (1, $1)", 1007, Unhex(kIntArray),
             true, 0);
    ASSERT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQerrorMessage(conn.c);
    PQclear(r);
    r = PQexec(conn.c, "INSERT INTO arr VALUES (2, '{2}'), (3, NULL)");
    PQclear(r);
    // Binary result: the array_send bytes.
    r = PQexecParams(conn.c, "SELECT a FROM arr WHERE id = 1", 0, nullptr,
                     nullptr, nullptr, nullptr, 1);
    ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(conn.c);
    EXPECT_EQ(PQftype(r, 0), 1007u);
    EXPECT_EQ(std::string(PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0)),
              Unhex(kIntArray));
    PQclear(r);
    // = ANY($1) with a text array parameter of unspecified type.
    r = Exec(conn.c, "SELECT count(*) FROM arr WHERE id = ANY($1)", 0,
             "{1,3,7}", false, 0);
    ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(conn.c);
    EXPECT_STREQ(PQgetvalue(r, 0, 0), "2");
    PQclear(r);
    // A binary array of the wrong element type is refused (42804).
    r = Exec(conn.c, "SELECT $1::text[]", 1009, Unhex(kIntArray), true, 0);
    EXPECT_EQ(PQresultStatus(r), PGRES_FATAL_ERROR);
    EXPECT_STREQ(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42804");
    PQclear(r);
  }
  ASSERT_EQ(server.Stop(), 0) << server.Log();
  ASSERT_TRUE(server.Start()) << server.Log();
  {
    Conn conn(server.ConnStr());
    PGresult* r =
        PQexec(conn.c, "SELECT id, a, a[3] AS third FROM arr ORDER BY a NULLS FIRST");
    ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(conn.c);
    ASSERT_EQ(PQntuples(r), 3);
    EXPECT_STREQ(PQgetvalue(r, 0, 0), "3");
    EXPECT_STREQ(PQgetvalue(r, 1, 1), "{1,NULL,3}");
    EXPECT_STREQ(PQgetvalue(r, 1, 2), "3");
    EXPECT_STREQ(PQgetvalue(r, 2, 1), "{2}");
    PQclear(r);
  }
  EXPECT_EQ(server.Stop(), 0) << server.Log();
}

}  // namespace
}  // namespace kova::wire::testing
