// LOCK TABLE in modes stronger than ACCESS SHARE keeps other writers out
// until the locking transaction ends; readers go on reading.
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/planner_session/session_fixture.h"

namespace kova::planner {
namespace {

class LockTableTest : public SessionTest {};

TEST_F(LockTableTest, ExclusiveModeHoldsWritersUntilCommit) {
  ASSERT_TRUE(One("CREATE TABLE lt (id serial PRIMARY KEY, v int)").ok);
  ASSERT_TRUE(One("INSERT INTO lt (v) VALUES (1)").ok);
  ASSERT_TRUE(One("BEGIN").ok);
  ASSERT_TRUE(One("LOCK TABLE lt IN EXCLUSIVE MODE").ok);
  std::unique_ptr<Session> writer = Connect("postgres", "postgres");
  std::unique_ptr<Session> reader = Connect("postgres", "postgres");
  ASSERT_TRUE(writer && reader);
  std::atomic<bool> inserted{false};
  std::atomic<bool> insert_ok{false};
  std::thread thread([&] {
    Sink sink;
    writer->SimpleQuery("INSERT INTO lt (v) VALUES (2)", &sink,
                        [&](const ExecuteResult& r) { insert_ok = r.ok; });
    inserted = true;
  });
  // The insert waits while the lock is held; a read does not.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(inserted.load());
  Sink sink;
  bool read_ok = false;
  reader->SimpleQuery("SELECT count(*) FROM lt", &sink,
                      [&](const ExecuteResult& r) { read_ok = r.ok; });
  EXPECT_TRUE(read_ok);
  ASSERT_EQ(sink.rows.size(), 1u);
  EXPECT_EQ(sink.rows[0][0].bytes, "1");
  ASSERT_TRUE(One("COMMIT").ok);
  thread.join();
  EXPECT_TRUE(insert_ok.load());
  EXPECT_EQ(Scalar("SELECT count(*) FROM lt"), "2");
}

TEST_F(LockTableTest, ModesAndErrors) {
  ASSERT_TRUE(One("CREATE TABLE lt (id int)").ok);
  ExecuteResult r = One("LOCK TABLE lt IN SHARE MODE");
  EXPECT_EQ(r.error.sqlstate, "25P01");
  ASSERT_TRUE(One("BEGIN READ ONLY").ok);
  EXPECT_TRUE(One("LOCK TABLE lt IN ROW EXCLUSIVE MODE").ok);
  r = One("LOCK TABLE lt IN SHARE MODE");
  EXPECT_EQ(r.error.sqlstate, "25006");
  EXPECT_EQ(r.error.message,
            "cannot execute LOCK TABLE in a read-only transaction");
  ASSERT_TRUE(One("ROLLBACK").ok);
  ASSERT_TRUE(One("BEGIN").ok);
  EXPECT_TRUE(One("LOCK lt").ok);  // ACCESS EXCLUSIVE
  EXPECT_TRUE(One("INSERT INTO lt VALUES (1)").ok);
  ASSERT_TRUE(One("COMMIT").ok);
  EXPECT_EQ(Scalar("SELECT count(*) FROM lt"), "1");
}

}  // namespace
}  // namespace kova::planner
