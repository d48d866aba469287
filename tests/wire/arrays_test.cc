// Arrays through the real server and libpq: binary parameters and results
// in PostgreSQL's array_send format (bytes recorded from PostgreSQL 15's
// array_send), = ANY($1) with an array parameter as ORMs send it, and array
// columns surviving a restart.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <cstdio>
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

// Arrays of an enum and of a domain: RowDescription names the array type
// (an array of a domain is no domain), a domain column is described as its
// base type, as PostgreSQL does; binary results carry the element type and
// come back as parameters.
TEST(ArraysTest, EnumAndDomainArraysOnTheWire) {
  KovaServer server;
  ASSERT_TRUE(server.Start()) << server.Log();
  Conn conn(server.ConnStr());
  ASSERT_EQ(PQstatus(conn.c), CONNECTION_OK);
  PGresult* r = PQexec(conn.c,
                       "CREATE TYPE mood AS ENUM ('sad', 'ok');"
                       "CREATE DOMAIN pos AS int CHECK (VALUE > 0);"
                       "CREATE TABLE feel (m mood[], d pos[], p pos);"
                       "INSERT INTO feel VALUES ('{ok,sad}', '{1,2}', 3)");
  ASSERT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQerrorMessage(conn.c);
  PQclear(r);
  r = PQexecParams(conn.c, "SELECT m, d, p, 4::pos FROM feel", 0, nullptr,
                   nullptr, nullptr, nullptr, 1);
  ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(conn.c);
  Oid mood_array = PQftype(r, 0);
  Oid pos_array = PQftype(r, 1);
  EXPECT_GE(mood_array, 16384u);
  EXPECT_GE(pos_array, 16384u);
  EXPECT_NE(mood_array, pos_array);
  EXPECT_EQ(PQftype(r, 2), 23u);
  EXPECT_EQ(PQftype(r, 3), 23u);
  // array_send: one dimension, no nulls, the element type (made just
  // before its array type), two labels as text.
  std::string m(PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0));
  char header[64];
  snprintf(header, sizeof header, "000000010000000000%06x0000000200000001",
           mood_array - 1);
  EXPECT_EQ(m, Unhex(header) + Unhex("000000026f6b00000003736164"));
  PQclear(r);
  // The same bytes as a parameter of the array type.
  r = Exec(conn.c, "SELECT $1::text", mood_array, m, true, 0);
  ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(conn.c);
  EXPECT_STREQ(PQgetvalue(r, 0, 0), "{ok,sad}");
  PQclear(r);
  // RETURNING * describes the columns as SELECT does.
  r = PQexec(conn.c, "INSERT INTO feel (p) VALUES (7) RETURNING *");
  ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(conn.c);
  EXPECT_EQ(PQftype(r, 0), mood_array);
  EXPECT_EQ(PQftype(r, 1), pos_array);
  EXPECT_EQ(PQftype(r, 2), 23u);
  PQclear(r);
  // Each element of a domain array passes the domain.
  r = Exec(conn.c, "INSERT INTO feel (d) VALUES ($1)", pos_array, "{5,-1}",
           false, 0);
  EXPECT_EQ(PQresultStatus(r), PGRES_FATAL_ERROR);
  EXPECT_STREQ(PQresultErrorField(r, PG_DIAG_SQLSTATE), "23514");
  PQclear(r);
  EXPECT_EQ(server.Stop(), 0) << server.Log();
}

}  // namespace
}  // namespace kova::wire::testing
