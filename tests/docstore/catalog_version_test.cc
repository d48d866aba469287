// The catalog version a session reads (Session::CatalogVersion) when other
// sessions of the same store change the catalog: a statement must see every
// change committed before its snapshot began, no uncommitted or rolled-back
// one, and its own uncommitted changes; the session may skip reading
// kova_meta only while no change can have happened.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "docstore/docstore.h"
#include "tests/docstore/test_util.h"

namespace kova::docstore {
namespace {

using testing::StoreTest;

class CatalogVersionTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    Status s = store_->NewSession(&other_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void TearDown() override {
    other_.reset();
    StoreTest::TearDown();
  }
  // The version a statement of `session` in a transaction of its own sees.
  int64_t VersionInNewTransaction(Session* session) {
    EXPECT_TRUE(session->Begin().ok());
    int64_t version = -1;
    Status s = session->CatalogVersion(&version);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(session->Commit().ok());
    return version;
  }
  bool Exists(Session* session, const std::string& collection) {
    std::string table;
    return session->CollectionTable("db", collection, &table).ok();
  }
  std::unique_ptr<Session> other_;
};

TEST_F(CatalogVersionTest, CommittedChangeIsSeenByTheNextTransaction) {
  int64_t before = VersionInNewTransaction(session_.get());
  EXPECT_EQ(VersionInNewTransaction(session_.get()), before);
  ASSERT_TRUE(other_->CreateCollection("db", "c", {}).ok());
  int64_t after = VersionInNewTransaction(session_.get());
  EXPECT_NE(after, before);
  EXPECT_EQ(VersionInNewTransaction(session_.get()), after);
  EXPECT_TRUE(Exists(session_.get(), "c"));
}

// A change committed while a transaction's snapshot is open is not seen by
// that snapshot, and must not be taken for what the snapshot saw: the next
// transaction sees it.
TEST_F(CatalogVersionTest, ChangeCommittedDuringASnapshotIsSeenAfterIt) {
  ASSERT_TRUE(session_->Begin().ok());
  int64_t seen = -1;
  ASSERT_TRUE(session_->CatalogVersion(&seen).ok());
  ASSERT_TRUE(other_->CreateCollection("db", "c", {}).ok());
  int64_t again = -1;
  ASSERT_TRUE(session_->CatalogVersion(&again).ok());
  EXPECT_EQ(again, seen);  // the snapshot is the one the transaction began
  ASSERT_TRUE(session_->Commit().ok());
  int64_t after = VersionInNewTransaction(session_.get());
  EXPECT_NE(after, seen);
  EXPECT_EQ(after, VersionInNewTransaction(other_.get()));
}

// While another session's catalog change is uncommitted, readers see the
// committed version; that session sees its own change; after its commit
// everyone does.
TEST_F(CatalogVersionTest, UncommittedChangeIsSeenOnlyByItsOwnSession) {
  int64_t committed = VersionInNewTransaction(session_.get());
  ASSERT_TRUE(other_->Begin().ok());
  ASSERT_TRUE(other_->CreateCollection("db", "c", {}).ok());
  int64_t own = -1;
  ASSERT_TRUE(other_->CatalogVersion(&own).ok());
  EXPECT_NE(own, committed);
  EXPECT_EQ(VersionInNewTransaction(session_.get()), committed);
  EXPECT_FALSE(Exists(session_.get(), "c"));
  ASSERT_TRUE(other_->Commit().ok());
  EXPECT_EQ(VersionInNewTransaction(session_.get()), own);
  EXPECT_TRUE(Exists(session_.get(), "c"));
}

TEST_F(CatalogVersionTest, RolledBackChangeIsNeverSeen) {
  int64_t committed = VersionInNewTransaction(session_.get());
  ASSERT_TRUE(other_->Begin().ok());
  ASSERT_TRUE(other_->CreateCollection("db", "c", {}).ok());
  ASSERT_TRUE(other_->Rollback().ok());
  EXPECT_EQ(VersionInNewTransaction(session_.get()), committed);
  EXPECT_EQ(VersionInNewTransaction(other_.get()), committed);
  EXPECT_FALSE(Exists(session_.get(), "c"));
  // Rolled back to a savepoint, then committed: the same.
  ASSERT_TRUE(other_->Begin().ok());
  ASSERT_TRUE(other_->Savepoint("s").ok());
  ASSERT_TRUE(other_->CreateCollection("db", "c", {}).ok());
  ASSERT_TRUE(other_->RollbackToSavepoint("s").ok());
  ASSERT_TRUE(other_->Commit().ok());
  EXPECT_EQ(VersionInNewTransaction(session_.get()), committed);
  EXPECT_FALSE(Exists(session_.get(), "c"));
  // A later change is seen again.
  ASSERT_TRUE(other_->CreateCollection("db", "d", {}).ok());
  EXPECT_NE(VersionInNewTransaction(session_.get()), committed);
  EXPECT_TRUE(Exists(session_.get(), "d"));
}

// A session's own committed change, then one by another session: each is
// seen by the next transaction of both.
TEST_F(CatalogVersionTest, ChangesOfBothSessionsAlternate) {
  int64_t last = VersionInNewTransaction(session_.get());
  for (int i = 0; i < 4; i++) {
    Session* writer = i % 2 ? other_.get() : session_.get();
    Session* reader = i % 2 ? session_.get() : other_.get();
    EXPECT_EQ(VersionInNewTransaction(reader), last);
    ASSERT_TRUE(
        writer->CreateCollection("db", "c" + std::to_string(i), {}).ok());
    int64_t now = VersionInNewTransaction(reader);
    EXPECT_NE(now, last);
    EXPECT_EQ(VersionInNewTransaction(writer), now);
    last = now;
  }
}

}  // namespace
}  // namespace kova::docstore
