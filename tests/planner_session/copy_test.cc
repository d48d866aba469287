// COPY FROM read on a second thread: where the rows are read, and that the
// rows, errors, CONTEXT lines and counters are those of the one-thread path
// (a CHECK constraint keeps a table on that path).
#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "docstore/docstore.h"
#include "planner/planner.h"

namespace kova::planner {
namespace {

// Feeds COPY data in chunks (then CopyDone, or CopyFail when fail_after is
// reached) and records which threads read it.
class ChunkSink : public ResultSink {
 public:
  void RowDescription(const std::vector<ColumnDesc>&,
                      const std::vector<Format>&) override {}
  void DataRow(const std::vector<Datum>& v) override { rows.push_back(v); }
  void Notice(const PgError&) override {}
  void BeginCopyIn(Format, int) override {}
  CopyRead ReadCopyData(std::string* data) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      readers.insert(std::this_thread::get_id());
    }
    if (next == fail_after) {
      *data = "client gave up";
      return CopyRead::kFail;
    }
    if (next >= chunks.size()) return CopyRead::kDone;
    *data = chunks[next++];
    return CopyRead::kData;
  }
  void BeginCopyOut(Format, int) override {}
  void CopyOutData(std::string_view) override {}
  void EndCopyOut() override {}
  bool DeallocatePrepared(std::string_view) override { return true; }
  void DeallocateAllPrepared() override {}

  std::vector<std::string> chunks;
  size_t next = 0;
  size_t fail_after = SIZE_MAX;
  std::mutex mu;
  std::set<std::thread::id> readers;
  std::vector<std::vector<Datum>> rows;
};

// `rows` lines "a\tb\n" in chunks of 100 lines; `bad` replaces line N.
std::vector<std::string> Lines(int rows, int bad_line = 0,
                               const std::string& bad = "") {
  std::vector<std::string> chunks;
  std::string chunk;
  for (int i = 1; i <= rows; i++) {
    chunk += i == bad_line
                 ? bad
                 : std::to_string(i) + "\t" + std::to_string(i % 7) + "\n";
    if (i % 100 == 0) {
      chunks.push_back(chunk);
      chunk.clear();
    }
  }
  if (!chunk.empty()) chunks.push_back(chunk);
  return chunks;
}

class CopyPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = "/tmp/kova-copy-XXXXXX";
    dir_ = mkdtemp(tmpl.data());
    ASSERT_TRUE(docstore::Store::Open(dir_, {}, &store_).ok());
    engine_ = Engine::Create(store_.get(), {});
    ASSERT_TRUE(engine_);
    PgError e;
    ASSERT_TRUE(engine_->NewSession(
        {{"user", "postgres"}, {"database", "postgres"}}, &session_, &e));
  }
  void TearDown() override {
    session_.reset();
    engine_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  ExecuteResult Run(const std::string& sql, ResultSink* sink = nullptr) {
    ChunkSink local;
    std::vector<ExecuteResult> results;
    session_->SimpleQuery(
        sql, sink ? sink : &local,
        [&](const ExecuteResult& r) { results.push_back(r); });
    EXPECT_EQ(results.size(), 1u) << sql;
    return results.empty() ? ExecuteResult{} : results[0];
  }
  std::string Scalar(const std::string& sql) {
    ChunkSink sink;
    ExecuteResult r = Run(sql, &sink);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error.message;
    if (sink.rows.empty() || sink.rows[0].empty() || sink.rows[0][0].null)
      return "null";
    return sink.rows[0][0].bytes;
  }

  // The ways a COPY runs: a table COPY reads on a second thread, and two
  // that keep it on the session thread (a column of a user-defined type; a
  // CHECK constraint, with which the documents take their keys as they are
  // built).
  enum class Path { kPipelined, kDomain, kCheck };

  // Creates t (`columns` and a column z whose type picks the path), runs
  // the COPY and describes its outcome: result, error fields, rows stored
  // and the next key.
  std::string Outcome(const std::string& columns, Path path,
                      const std::string& copy, ChunkSink* sink) {
    Run("DROP TABLE IF EXISTS t");
    ExecuteResult c = Run("CREATE TABLE t (" + columns +
                          (path == Path::kDomain  ? ", z plain_int)"
                           : path == Path::kCheck ? ", z int, CHECK (true))"
                                                  : ", z int)"));
    EXPECT_TRUE(c.ok) << c.error.message;
    ExecuteResult r = Run(copy, sink);
    std::string out = r.ok ? r.command_tag
                           : r.error.sqlstate + " " + r.error.message + " | " +
                                 r.error.detail + " | " + r.error.context;
    out += " | rows " + Scalar("SELECT count(*) FROM t");
    out += " | next " + Scalar("SELECT nextval('t_id_seq')");
    bool other_thread = false;
    for (const auto& id : sink->readers)
      if (id != std::this_thread::get_id()) other_thread = true;
    EXPECT_EQ(other_thread, path == Path::kPipelined) << copy;
    return out;
  }
  // The outcome of the COPY on the three paths, which must agree.
  std::string All(const std::string& columns, const std::string& copy,
                  const std::vector<std::string>& chunks,
                  size_t fail_after = SIZE_MAX) {
    if (!domain_) {
      EXPECT_TRUE(Run("CREATE DOMAIN plain_int AS int").ok);
      domain_ = true;
    }
    std::string outcome[3];
    for (Path path : {Path::kPipelined, Path::kDomain, Path::kCheck}) {
      ChunkSink sink;
      sink.chunks = chunks;
      sink.fail_after = fail_after;
      outcome[static_cast<int>(path)] = Outcome(columns, path, copy, &sink);
    }
    EXPECT_EQ(outcome[0], outcome[1]) << copy << " (domain column)";
    EXPECT_EQ(outcome[0], outcome[2]) << copy << " (CHECK constraint)";
    return outcome[0];
  }

  bool domain_ = false;
  std::string dir_;
  std::unique_ptr<docstore::Store> store_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

TEST_F(CopyPipelineTest, RowsAndCountersMatchTheOneThreadPath) {
  EXPECT_EQ(All("id serial PRIMARY KEY, a int, b int",
                "COPY t (a, b) FROM STDIN", Lines(3500)),
            "COPY 3500 | rows 3500 | next 3501");
  EXPECT_EQ(All("id serial PRIMARY KEY, a int, b text",
                "COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER)",
                {"a,b\n1,\"x,\n", "y\"\n2,\n3,\"\"\n\\.\n", "ignored\n"}),
            "COPY 3 | rows 3 | next 4");
  // Explicit keys move the counter.
  std::vector<std::string> keyed;
  for (const auto& chunk : Lines(2500)) keyed.push_back(chunk);
  EXPECT_EQ(
      All("id serial PRIMARY KEY, b int", "COPY t (id, b) FROM STDIN", keyed),
      "COPY 2500 | rows 2500 | next 2501");
}

TEST_F(CopyPipelineTest, ErrorsMatchTheOneThreadPath) {
  const std::string columns = "id serial PRIMARY KEY, a int, b int NOT NULL";
  // A value that does not convert: the 2499 rows read before it took their
  // keys (PostgreSQL calls nextval for each row it read).
  EXPECT_EQ(
      All(columns, "COPY t (a, b) FROM STDIN", Lines(3000, 2500, "2500\tx\n")),
      "22P02 invalid input syntax for type integer: \"x\" |  | COPY t, "
      "line 2500, column b: \"x\" | rows 0 | next 2500");
  // NOT NULL: the failing row took its key after the rows before it.
  EXPECT_EQ(
      All(columns, "COPY t (a, b) FROM STDIN",
          Lines(3000, 1500, "1500\t\\N\n")),
      "23502 null value in column \"b\" of relation \"t\" violates "
      "not-null constraint | Failing row contains (1500, 1500, null, null). | "
      "COPY t, line 1500: \"1500\t\\N\" | rows 0 | next 1501");
  // A duplicate key found by the store, in the third batch.
  EXPECT_EQ(All("id serial PRIMARY KEY, b int", "COPY t (id, b) FROM STDIN",
                Lines(3000, 2200, "7\t0\n")),
            "23505 duplicate key value violates unique constraint \"t_pkey\" | "
            "Key (id)=(7) already exists. | COPY t, line 2200 | rows 0 | next "
            "1");
  // Too many fields; missing data.
  EXPECT_EQ(
      All(columns, "COPY t (a, b) FROM STDIN", Lines(1200, 1001, "1\t2\t3\n")),
      "22P04 extra data after last expected column |  | COPY t, line "
      "1001: \"1\t2\t3\" | rows 0 | next 1001");
  // The client fails the COPY after 25 chunks (2500 rows read).
  EXPECT_EQ(All(columns, "COPY t (a, b) FROM STDIN", Lines(3000), 25),
            "57014 COPY from stdin failed: client gave up |  | COPY t, line "
            "2501 | rows 0 | next 2501");
}

}  // namespace
}  // namespace kova::planner
