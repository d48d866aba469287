// The planner session fixture shared by the tests of this folder: a fresh
// data directory, an engine and one session, and a sink that keeps what a
// statement sends.
#ifndef KOVA_TESTS_PLANNER_SESSION_SESSION_FIXTURE_H_
#define KOVA_TESTS_PLANNER_SESSION_SESSION_FIXTURE_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "docstore/docstore.h"
#include "planner/planner.h"

namespace kova::planner {

// Collects everything a statement sends.
class Sink : public ResultSink {
 public:
  void RowDescription(const std::vector<ColumnDesc>& c,
                      const std::vector<Format>&) override {
    columns = c;
  }
  void DataRow(const std::vector<Datum>& v) override { rows.push_back(v); }
  void Notice(const PgError& n) override { notices.push_back(n); }
  void BeginCopyIn(Format, int) override {}
  CopyRead ReadCopyData(std::string*) override { return CopyRead::kDone; }
  void BeginCopyOut(Format, int) override { copy_started = true; }
  void CopyOutData(std::string_view d) override { copy_data += d; }
  void EndCopyOut() override {}
  bool DeallocatePrepared(std::string_view name) override {
    deallocated.emplace_back(name);
    return name == "known";
  }
  void DeallocateAllPrepared() override { deallocated.push_back("*"); }
  std::vector<std::string> deallocated;

  std::vector<ColumnDesc> columns;
  std::vector<std::vector<Datum>> rows;
  std::vector<PgError> notices;
  bool copy_started = false;
  std::string copy_data;
};

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = "/tmp/kova-planner-XXXXXX";
    dir_ = mkdtemp(tmpl.data());
    ASSERT_TRUE(docstore::Store::Open(dir_, {}, &store_).ok());
    engine_ = Engine::Create(store_.get(), {});
    ASSERT_TRUE(engine_);
    session_ = Connect("postgres", "postgres");
    ASSERT_TRUE(session_);
  }
  void TearDown() override {
    session_.reset();
    engine_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::unique_ptr<Session> Connect(const std::string& user,
                                   const std::string& db,
                                   PgError* error = nullptr) {
    std::unique_ptr<Session> s;
    PgError e;
    engine_->NewSession({{"user", user}, {"database", db}}, &s, &e);
    if (error) *error = e;
    return s;
  }
  // Runs a simple query; returns each statement's result.
  std::vector<ExecuteResult> Query(const std::string& sql, Sink* sink) {
    std::vector<ExecuteResult> results;
    session_->SimpleQuery(
        sql, sink, [&](const ExecuteResult& r) { results.push_back(r); });
    return results;
  }
  ExecuteResult One(const std::string& sql, Sink* sink = nullptr) {
    Sink local;
    auto results = Query(sql, sink ? sink : &local);
    EXPECT_EQ(results.size(), 1u) << sql;
    return results.empty() ? ExecuteResult{} : results[0];
  }
  std::string Scalar(const std::string& sql) {
    Sink sink;
    ExecuteResult r = One(sql, &sink);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error.message;
    if (sink.rows.size() != 1 || sink.rows[0].empty()) return "<no row>";
    return sink.rows[0][0].null ? "<null>" : sink.rows[0][0].bytes;
  }

  std::string dir_;
  std::unique_ptr<docstore::Store> store_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

}  // namespace kova::planner

#endif  // KOVA_TESTS_PLANNER_SESSION_SESSION_FIXTURE_H_
