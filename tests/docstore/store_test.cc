// The Store and Session C++ API: the data directory and its lock, _id,
// transactions and savepoints, isolation between sessions, and indexes.
#include <bson/bson.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docstore/docstore.h"

namespace kova::docstore {
namespace {

// ---- helpers ----------------------------------------------------------------

Document J(std::string_view json) {
  Document doc;
  Status s = Document::FromJson(json, &doc);
  EXPECT_TRUE(s.ok()) << s.ToString() << " parsing " << json;
  return doc;
}

bool Lookup(const Document& doc, const char* path, bson_iter_t* out) {
  bson_iter_t root;
  if (!bson_iter_init(&root, doc.bson())) return false;
  return bson_iter_find_descendant(&root, path, out);
}

bson_type_t TypeAt(const Document& doc, const char* path) {
  bson_iter_t it;
  return Lookup(doc, path, &it) ? bson_iter_type(&it) : BSON_TYPE_EOD;
}

int64_t Int(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) ||
      (!BSON_ITER_HOLDS_INT32(&it) && !BSON_ITER_HOLDS_INT64(&it))) {
    ADD_FAILURE() << "no integer " << path << " in " << doc.ToJson();
    return INT64_MIN;
  }
  return bson_iter_as_int64(&it);
}

std::string Str(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_UTF8(&it)) {
    ADD_FAILURE() << "no string " << path << " in " << doc.ToJson();
    return "<missing>";
  }
  return bson_iter_utf8(&it, nullptr);
}

std::string OidHex(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_OID(&it)) return "";
  char hex[25];
  bson_oid_to_string(bson_iter_oid(&it), hex);
  return hex;
}

std::vector<std::string> Keys(const Document& doc) {
  std::vector<std::string> keys;
  bson_iter_t it;
  if (bson_iter_init(&it, doc.bson())) {
    while (bson_iter_next(&it)) keys.emplace_back(bson_iter_key(&it));
  }
  return keys;
}

using Ids = std::vector<int64_t>;

std::string MakeTempDir() {
  char tmpl[] = "/tmp/kova_store_test_XXXXXX";
  const char* dir = mkdtemp(tmpl);
  EXPECT_NE(dir, nullptr) << strerror(errno);
  return dir ? dir : "";
}

// ---- fixture ----------------------------------------------------------------

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = MakeTempDir();
    ASSERT_FALSE(root_.empty());
    dir_ = root_ + "/data";
    OpenStore();
  }

  void TearDown() override {
    CloseStore();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  void OpenStore(const StoreOptions& options = StoreOptions{}) {
    Status s = Store::Open(dir_, options, &store_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s = store_->NewSession(&session_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void CloseStore() {
    other_.reset();
    session_.reset();
    store_.reset();
  }

  Session* Other() {
    if (!other_) {
      Status s = store_->NewSession(&other_);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    return other_.get();
  }

  Status Insert(std::string_view json, Session* session = nullptr,
                std::string_view coll = "c", Document* stored = nullptr) {
    Document doc = J(json);
    return (session ? session : session_.get())
        ->Insert("db", coll, doc.bson(), stored);
  }

  void MustInsert(std::string_view json, Session* session = nullptr,
                  std::string_view coll = "c") {
    Status s = Insert(json, session, coll);
    ASSERT_TRUE(s.ok()) << s.ToString() << " inserting " << json;
  }

  std::vector<Document> FindAll(std::string_view filter = "{}",
                                Session* session = nullptr,
                                std::string_view coll = "c") {
    Document f = J(filter);
    Document sort = J(R"({"_id": 1})");
    FindOptions options;
    options.sort = sort.bson();
    std::vector<Document> out;
    Status s = (session ? session : session_.get())
                   ->Find("db", coll, f.bson(), options, &out);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }

  // The integer _ids of the documents matching a filter, in _id order.
  Ids Match(std::string_view filter = "{}", Session* session = nullptr,
            std::string_view coll = "c") {
    Ids ids;
    for (const auto& doc : FindAll(filter, session, coll))
      ids.push_back(Int(doc, "_id"));
    return ids;
  }

  std::vector<std::string> CollectionNames(Session* session = nullptr) {
    std::vector<CollectionInfo> infos;
    Status s =
        (session ? session : session_.get())->ListCollections("db", &infos);
    EXPECT_TRUE(s.ok()) << s.ToString();
    std::vector<std::string> names;
    for (const auto& info : infos) names.push_back(info.name);
    return names;
  }

  std::string Explain(std::string_view filter, std::string_view sort = "") {
    Document f = J(filter);
    Document s = J(sort.empty() ? "{}" : sort);
    std::string plan;
    Status st = session_->ExplainFind("db", "c", f.bson(),
                                      sort.empty() ? nullptr : s.bson(), &plan);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return plan;
  }

  Status CreateIndex(std::vector<std::pair<std::string, int>> keys,
                     bool unique = false, std::string name = "",
                     bool* created = nullptr) {
    IndexSpec spec;
    spec.name = std::move(name);
    spec.keys = std::move(keys);
    spec.unique = unique;
    return session_->CreateIndex("db", "c", spec, created);
  }

  std::string root_;
  std::string dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<Session> other_;
};

// ---- the data directory
// -------------------------------------------------------

TEST_F(StoreTest, OpenCreatesTheDirectory) {
  EXPECT_TRUE(std::filesystem::is_directory(dir_));
  EXPECT_EQ(store_->dir(), dir_);
  std::string nested = root_ + "/a/b/c";
  ASSERT_FALSE(std::filesystem::exists(nested));
  std::unique_ptr<Store> store;
  Status s = Store::Open(nested, StoreOptions{}, &store);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(std::filesystem::is_directory(nested));
  EXPECT_FALSE(std::filesystem::is_empty(nested));
}

TEST_F(StoreTest, OpenWithoutCreateIfMissingFails) {
  std::string missing = root_ + "/missing";
  StoreOptions options;
  options.create_if_missing = false;
  std::unique_ptr<Store> store;
  Status s = Store::Open(missing, options, &store);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find(missing), std::string::npos) << s.ToString();
  EXPECT_FALSE(std::filesystem::exists(missing));
  EXPECT_EQ(store, nullptr);
}

TEST_F(StoreTest, OpenOnARegularFileFails) {
  std::string file = root_ + "/file";
  std::ofstream(file) << "x";
  std::unique_ptr<Store> store;
  Status s = Store::Open(file, StoreOptions{}, &store);
  EXPECT_EQ(s.code(), Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find(file), std::string::npos) << s.ToString();
}

TEST_F(StoreTest, OpenOnGarbageDataFileFails) {
  std::string dir = root_ + "/garbage";
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir + "/kova.db", std::ios::binary);
    for (int i = 0; i < 512; i++) out << "this is not a database file ";
  }
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir, StoreOptions{}, &store);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Code::kCorruption) << s.ToString();
  // The failed open does not keep the lock.
  std::unique_ptr<Store> again;
  s = Store::Open(dir, StoreOptions{}, &again);
  EXPECT_NE(s.code(), Code::kLocked) << s.ToString();
}

TEST_F(StoreTest, ReopenSeesTheSameData) {
  Document stored;
  ASSERT_TRUE(
      Insert(
          R"({"name": "x", "n": {"$numberLong": "7"}, "sub": {"a": [1, 2]}})",
          nullptr, "c", &stored)
          .ok());
  MustInsert(R"({"_id": 2, "name": "y"})");
  ASSERT_TRUE(CreateIndex({{"name", 1}}, true).ok());
  CloseStore();
  OpenStore();
  std::vector<Document> docs;
  Document filter = J(R"({"name": "x"})");
  ASSERT_TRUE(session_->Find("db", "c", filter.bson(), {}, &docs).ok());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].ToJson(JsonMode::kCanonical),
            stored.ToJson(JsonMode::kCanonical));
  EXPECT_EQ(TypeAt(docs[0], "n"), BSON_TYPE_INT64);
  EXPECT_EQ(CollectionNames(), std::vector<std::string>{"c"});
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "name_1");
  EXPECT_TRUE(indexes[1].unique);
  // The unique index still works after reopening.
  Status s = Insert(R"({"name": "x"})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
}

// A key that is an SQL expression over the document (what the planner's
// expression indexes use): enforced, reported with the other colliding
// indexes in creation order, and kept across a reopen.
TEST_F(StoreTest, ExpressionKeysAreIndexedAndKept) {
  MustInsert(R"({"_id": 1, "name": "Ab", "code": 1})");
  IndexSpec spec;
  spec.name = "upper_name";
  spec.keys = {{"$0:upper(name)", 1}};
  spec.expressions = {"upper(kova_key(doc, 'name'))"};
  spec.unique = true;
  spec.nulls_distinct = true;
  ASSERT_TRUE(session_->CreateIndex("db", "c", spec).ok());
  ASSERT_TRUE(CreateIndex({{"code", 1}}, true).ok());
  // Labels of expression keys start with '$'; field keys may not.
  IndexSpec unlabelled = spec;
  unlabelled.name = "bad";
  unlabelled.keys = {{"upper", 1}};
  EXPECT_EQ(session_->CreateIndex("db", "c", unlabelled).code(),
            Code::kBadValue);
  Status s = Insert(R"({"_id": 2, "name": "aB", "code": 1})");
  ASSERT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.index_name, "upper_name");
  EXPECT_EQ(s.conflicting_indexes,
            (std::vector<std::string>{"upper_name", "code_1"}));
  MustInsert(R"({"_id": 3, "name": "cd", "code": 3})");
  CloseStore();
  OpenStore();
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  ASSERT_EQ(indexes.size(), 3u);
  EXPECT_EQ(indexes[1].name, "upper_name");
  EXPECT_EQ(indexes[1].keys, spec.keys);
  EXPECT_EQ(indexes[1].expressions, spec.expressions);
  s = Insert(R"({"_id": 4, "name": "CD", "code": 4})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  MustInsert(R"({"_id": 5, "code": 5})");  // a null key: no collision
  MustInsert(R"({"_id": 6, "code": 6})");
}

TEST_F(StoreTest, ListsReplaceWhatTheVectorHeld) {
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(CreateIndex({{"a", 1}}).ok());
  std::vector<IndexSpec> indexes(3);
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "a_1");
  std::vector<CollectionInfo> collections(2);
  ASSERT_TRUE(session_->ListCollections("db", &collections).ok());
  ASSERT_TRUE(session_->ListCollections("db", &collections).ok());
  ASSERT_EQ(collections.size(), 1u);
  EXPECT_EQ(collections[0].name, "c");
  std::vector<std::string> databases{"stale"};
  ASSERT_TRUE(session_->ListDatabases(&databases).ok());
  std::vector<std::string> again = databases;
  ASSERT_TRUE(session_->ListDatabases(&again).ok());
  EXPECT_EQ(again, databases);
  EXPECT_EQ(std::count(databases.begin(), databases.end(), "stale"), 0);
  EXPECT_EQ(std::count(databases.begin(), databases.end(), "db"), 1);
}

TEST_F(StoreTest, SecondOpenInTheSameProcessIsLocked) {
  std::unique_ptr<Store> second;
  Status s = Store::Open(dir_, StoreOptions{}, &second);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Code::kLocked) << s.ToString();
  EXPECT_NE(s.message().find("\"" + dir_ + "\""), std::string::npos)
      << s.ToString();
  EXPECT_EQ(s.mongo_code(), 46);
  EXPECT_EQ(second, nullptr);
  // The failed open did not disturb the first store.
  MustInsert(R"({"_id": 1})");
  EXPECT_EQ(Match(), (Ids{1}));
  // Once the first store is gone the directory can be opened again.
  CloseStore();
  s = Store::Open(dir_, StoreOptions{}, &second);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(second->NewSession(&session).ok());
  std::vector<Document> docs;
  ASSERT_TRUE(session->Find("db", "c", nullptr, {}, &docs).ok());
  EXPECT_EQ(docs.size(), 1u);
  // And now the reopened store holds the lock.
  std::unique_ptr<Store> third;
  EXPECT_EQ(Store::Open(dir_, StoreOptions{}, &third).code(), Code::kLocked);
  session.reset();
  second.reset();
  OpenStore();  // for TearDown
}

// Exit codes of the child processes.
constexpr int kChildLocked = 10;
constexpr int kChildOpened = 11;
constexpr int kChildOther = 12;

int RunChild(const std::string& dir) {
  pid_t pid = fork();
  if (pid == 0) {
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir, StoreOptions{}, &store);
    int code = kChildOther;
    if (s.code() == Code::kLocked && s.message().find(dir) != std::string::npos)
      code = kChildLocked;
    if (s.ok()) code = kChildOpened;
    _exit(code);
  }
  EXPECT_GT(pid, 0);
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

TEST_F(StoreTest, SecondProcessIsLocked) {
  EXPECT_EQ(RunChild(dir_), kChildLocked);
  // After this process lets go, another process can open the directory.
  CloseStore();
  EXPECT_EQ(RunChild(dir_), kChildOpened);
  OpenStore();
  EXPECT_EQ(RunChild(dir_), kChildLocked);
}

TEST_F(StoreTest, LockHeldByAnotherProcessNamesItsPid) {
  CloseStore();
  int ready[2], release[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(release), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(ready[0]);
    close(release[1]);
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir_, StoreOptions{}, &store);
    char c = s.ok() ? 'y' : 'n';
    if (write(ready[1], &c, 1) != 1) _exit(2);
    if (read(release[0], &c, 1) < 0) _exit(3);
    _exit(s.ok() ? 0 : 1);
  }
  close(ready[1]);
  close(release[0]);
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  EXPECT_EQ(c, 'y');
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir_, StoreOptions{}, &store);
  EXPECT_EQ(s.code(), Code::kLocked) << s.ToString();
  EXPECT_NE(s.message().find(dir_), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("pid " + std::to_string(pid)), std::string::npos)
      << s.ToString();
  ASSERT_EQ(write(release[1], "x", 1), 1);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  close(ready[0]);
  close(release[1]);
  OpenStore();
}

// ---- _id
// ----------------------------------------------------------------------

TEST_F(StoreTest, IdIsAnObjectIdWhenAbsent) {
  Document a, b;
  ASSERT_TRUE(Insert(R"({"x": 1})", nullptr, "c", &a).ok());
  ASSERT_TRUE(Insert(R"({"x": 2})", nullptr, "c", &b).ok());
  EXPECT_EQ(TypeAt(a, "_id"), BSON_TYPE_OID) << a.ToJson();
  EXPECT_EQ(Keys(a), (std::vector<std::string>{"_id", "x"}));
  EXPECT_NE(OidHex(a, "_id"), OidHex(b, "_id"));
  std::vector<Document> docs = FindAll(R"({"x": 1})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(OidHex(docs[0], "_id"), OidHex(a, "_id"));
  // The ObjectId finds the document.
  Document filter = J(R"({"_id": {"$oid": ")" + OidHex(a, "_id") + "\"}}");
  std::vector<Document> by_id;
  ASSERT_TRUE(session_->Find("db", "c", filter.bson(), {}, &by_id).ok());
  ASSERT_EQ(by_id.size(), 1u);
  EXPECT_EQ(Int(by_id[0], "x"), 1);
}

TEST_F(StoreTest, IdIsKeptWhenGiven) {
  Document s, i, l;
  ASSERT_TRUE(Insert(R"({"x": 1, "_id": "key"})", nullptr, "c", &s).ok());
  ASSERT_TRUE(Insert(R"({"_id": 42, "x": 2})", nullptr, "c", &i).ok());
  ASSERT_TRUE(Insert(R"({"_id": {"a": 1}, "x": 3})", nullptr, "c", &l).ok());
  EXPECT_EQ(TypeAt(s, "_id"), BSON_TYPE_UTF8);
  EXPECT_EQ(Str(s, "_id"), "key");
  // _id comes first even when given later.
  EXPECT_EQ(Keys(s), (std::vector<std::string>{"_id", "x"}));
  EXPECT_EQ(TypeAt(i, "_id"), BSON_TYPE_INT32);
  EXPECT_EQ(Int(i, "_id"), 42);
  EXPECT_EQ(TypeAt(l, "_id"), BSON_TYPE_DOCUMENT);
  std::vector<Document> docs = FindAll(R"({"_id": "key"})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Int(docs[0], "x"), 1);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "x"}));
  docs = FindAll(R"({"_id": 42})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Int(docs[0], "x"), 2);
  docs = FindAll(R"({"_id": {"a": 1}})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Int(docs[0], "x"), 3);
}

TEST_F(StoreTest, ArrayIdIsRefused) {
  Status s = Insert(R"({"_id": [1, 2]})");
  EXPECT_EQ(s.code(), Code::kBadValue) << s.ToString();
  EXPECT_TRUE(Match().empty());
}

TEST_F(StoreTest, DuplicateIdIsRefused) {
  MustInsert(R"({"_id": 1, "v": "first"})");
  Status s = Insert(R"({"_id": 1, "v": "second"})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.mongo_code(), 11000);
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: _id_ dup key: "
            "{ _id: 1 }");
  std::vector<Document> docs = FindAll();
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Str(docs[0], "v"), "first");
  MustInsert(R"({"_id": "k"})");
  s = Insert(R"({"_id": "k"})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_NE(s.message().find(R"(dup key: { _id: "k" })"), std::string::npos)
      << s.ToString();
  // The same _id in another collection is fine.
  EXPECT_TRUE(Insert(R"({"_id": 1})", nullptr, "d").ok());
}

// _id is unique and null is a value of _id like any other (a second
// {_id: null} is E11000, as in MongoDB).
TEST_F(StoreTest, DuplicateNullIdIsRefused) {
  MustInsert(R"({"_id": null, "v": 1})");
  Status s = Insert(R"({"_id": null, "v": 2})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(FindAll(R"({"_id": null})").size(), 1u);
}

TEST_F(StoreTest, DuplicateIdAcrossNumberTypes) {
  MustInsert(R"({"_id": 1})");
  EXPECT_EQ(Insert(R"({"_id": 1.0})").code(), Code::kDuplicateKey);
  EXPECT_EQ(Insert(R"({"_id": {"$numberLong": "1"}})").code(),
            Code::kDuplicateKey);
  // A string "1" is another value.
  EXPECT_TRUE(Insert(R"({"_id": "1"})").ok());
}

// ---- transactions
// ---------------------------------------------------------------

TEST_F(StoreTest, CommitMakesAllWritesVisible) {
  EXPECT_FALSE(session_->in_transaction());
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_TRUE(session_->in_transaction());
  MustInsert(R"({"_id": 1})");
  MustInsert(R"({"_id": 2})");
  EXPECT_EQ(Match(), (Ids{1, 2}));  // its own writes
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_FALSE(session_->in_transaction());
  EXPECT_EQ(Match(), (Ids{1, 2}));
  EXPECT_EQ(Match("{}", Other()), (Ids{1, 2}));
  CloseStore();
  OpenStore();
  EXPECT_EQ(Match(), (Ids{1, 2}));
}

TEST_F(StoreTest, RollbackDiscardsAllWrites) {
  MustInsert(R"({"_id": 1, "v": 1})");
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 2})");
  MustInsert(R"({"_id": 3})");
  Document q = J(R"({"_id": 1})"), u = J(R"({"$set": {"v": 2}})");
  UpdateResult r;
  ASSERT_TRUE(session_->Update("db", "c", q.bson(), u.bson(), false, &r).ok());
  EXPECT_EQ(Match(), (Ids{1, 2, 3}));
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_FALSE(session_->in_transaction());
  EXPECT_EQ(Match(), (Ids{1}));
  EXPECT_EQ(Int(FindAll()[0], "v"), 1);
  EXPECT_EQ(Match("{}", Other()), (Ids{1}));
  // The session works normally afterwards.
  MustInsert(R"({"_id": 2})");
  EXPECT_EQ(Match(), (Ids{1, 2}));
}

TEST_F(StoreTest, RollbackDiscardsCollectionsAndIndexes) {
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1})", nullptr, "fresh");
  ASSERT_TRUE(CreateIndex({{"a", 1}}).ok());
  EXPECT_EQ(CollectionNames(), (std::vector<std::string>{"c", "fresh"}));
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(CollectionNames(), std::vector<std::string>{"c"});
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  EXPECT_EQ(indexes.size(), 1u);
  // Both can be made again (no stale catalog cache).
  MustInsert(R"({"_id": 1})", nullptr, "fresh");
  EXPECT_EQ(Match("{}", nullptr, "fresh"), (Ids{1}));
  ASSERT_TRUE(CreateIndex({{"a", 1}}).ok());
  indexes.clear();
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  EXPECT_EQ(indexes.size(), 2u);
}

TEST_F(StoreTest, RollbackOfDropRestoresTheCollection) {
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Begin().ok());
  ASSERT_TRUE(session_->DropCollection("db", "c").ok());
  EXPECT_TRUE(CollectionNames().empty());
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(CollectionNames(), std::vector<std::string>{"c"});
  EXPECT_EQ(Match(), (Ids{1}));
  EXPECT_EQ(Insert(R"({"_id": 1})").code(), Code::kDuplicateKey);
}

TEST_F(StoreTest, RollbackToSavepointUndoesOnlyLaterWrites) {
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Savepoint("sp").ok());
  MustInsert(R"({"_id": 2})");
  MustInsert(R"({"_id": 3})", nullptr, "created_after_savepoint");
  EXPECT_EQ(Match(), (Ids{1, 2}));
  ASSERT_TRUE(session_->RollbackToSavepoint("sp").ok());
  EXPECT_TRUE(session_->in_transaction());
  EXPECT_EQ(Match(), (Ids{1}));
  EXPECT_EQ(CollectionNames(), std::vector<std::string>{"c"});
  // Still inside the transaction and at the savepoint: roll back again.
  MustInsert(R"({"_id": 4})");
  ASSERT_TRUE(session_->RollbackToSavepoint("sp").ok());
  EXPECT_EQ(Match(), (Ids{1}));
  MustInsert(R"({"_id": 5})");
  MustInsert(R"({"_id": 6})", nullptr, "created_after_savepoint");
  ASSERT_TRUE(session_->ReleaseSavepoint("sp").ok());
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Match("{}", Other()), (Ids{1, 5}));
  EXPECT_EQ(Match("{}", Other(), "created_after_savepoint"), (Ids{6}));
}

TEST_F(StoreTest, ReleaseSavepointKeepsWrites) {
  ASSERT_TRUE(session_->Begin().ok());
  ASSERT_TRUE(session_->Savepoint("outer").ok());
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Savepoint("inner").ok());
  MustInsert(R"({"_id": 2})");
  ASSERT_TRUE(session_->ReleaseSavepoint("inner").ok());
  EXPECT_EQ(Match(), (Ids{1, 2}));
  // A released savepoint is gone.
  EXPECT_FALSE(session_->RollbackToSavepoint("inner").ok());
  EXPECT_TRUE(session_->in_transaction());
  EXPECT_EQ(Match(), (Ids{1, 2}));
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Match("{}", Other()), (Ids{1, 2}));
}

TEST_F(StoreTest, RollbackToOuterSavepointUndoesInnerOnes) {
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Savepoint("a").ok());
  MustInsert(R"({"_id": 2})");
  ASSERT_TRUE(session_->Savepoint("b").ok());
  MustInsert(R"({"_id": 3})");
  ASSERT_TRUE(session_->RollbackToSavepoint("a").ok());
  EXPECT_EQ(Match(), (Ids{1}));
  // "b" was nested in "a" and is gone with it.
  EXPECT_FALSE(session_->RollbackToSavepoint("b").ok());
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Match("{}", Other()), (Ids{1}));
}

TEST_F(StoreTest, SavepointsNeedATransaction) {
  EXPECT_EQ(session_->Savepoint("sp").code(), Code::kIllegalOperation);
  EXPECT_EQ(session_->ReleaseSavepoint("sp").code(), Code::kIllegalOperation);
  EXPECT_EQ(session_->RollbackToSavepoint("sp").code(),
            Code::kIllegalOperation);
  ASSERT_TRUE(session_->Begin().ok());
  Status s = session_->RollbackToSavepoint("never_made");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(session_->in_transaction());
  ASSERT_TRUE(session_->Rollback().ok());
}

TEST_F(StoreTest, CommitOrRollbackWithoutBeginIsAnError) {
  Status s = session_->Commit();
  EXPECT_EQ(s.code(), Code::kIllegalOperation) << s.ToString();
  s = session_->Rollback();
  EXPECT_EQ(s.code(), Code::kIllegalOperation) << s.ToString();
  ASSERT_TRUE(session_->Begin().ok());
  s = session_->Begin();
  EXPECT_EQ(s.code(), Code::kIllegalOperation) << s.ToString();
  EXPECT_TRUE(session_->in_transaction());
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(session_->Commit().code(), Code::kIllegalOperation);
  EXPECT_EQ(Match(), (Ids{1}));
}

TEST_F(StoreTest, FailingInsertLeavesTheTransactionUsable) {
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1, "v": "kept"})");
  Status s = Insert(R"({"_id": 1, "v": "dup"})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_TRUE(session_->in_transaction());
  MustInsert(R"({"_id": 2})");
  ASSERT_TRUE(session_->Commit().ok());
  std::vector<Document> docs = FindAll("{}", Other());
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(Str(docs[0], "v"), "kept");
}

TEST_F(StoreTest, FailingCallInATransactionHasNoPartialEffect) {
  MustInsert(R"({"_id": 1, "a": 1})");
  MustInsert(R"({"_id": 2, "a": "text"})");
  MustInsert(R"({"_id": 3, "a": 3})");
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 10})");
  // This insert creates a collection and then fails: the collection goes.
  Status s = Insert(R"({"_id": [1]})", nullptr, "fresh");
  EXPECT_EQ(s.code(), Code::kBadValue) << s.ToString();
  EXPECT_EQ(CollectionNames(), std::vector<std::string>{"c"});
  // A multi update that fails on the second document changes none.
  Document q = J("{}"), u = J(R"({"$inc": {"a": 1}})");
  UpdateResult r;
  s = session_->Update("db", "c", q.bson(), u.bson(), true, &r);
  EXPECT_EQ(s.code(), Code::kTypeMismatch) << s.ToString();
  EXPECT_EQ(Int(FindAll(R"({"_id": 1})")[0], "a"), 1);
  EXPECT_TRUE(session_->in_transaction());
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Match("{}", Other()), (Ids{1, 2, 3, 10}));
  EXPECT_EQ(Int(FindAll(R"({"_id": 1})", Other())[0], "a"), 1);
  EXPECT_EQ(CollectionNames(Other()), std::vector<std::string>{"c"});
}

TEST_F(StoreTest, FailingCallOutsideATransactionHasNoPartialEffect) {
  MustInsert(R"({"_id": 1, "a": 1})");
  MustInsert(R"({"_id": 2, "a": "text"})");
  Document q = J("{}"), u = J(R"({"$inc": {"a": 1}})");
  UpdateResult r;
  Status s = session_->Update("db", "c", q.bson(), u.bson(), true, &r);
  EXPECT_EQ(s.code(), Code::kTypeMismatch) << s.ToString();
  EXPECT_EQ(Int(FindAll(R"({"_id": 1})")[0], "a"), 1);
  s = Insert(R"({"_id": [1]})", nullptr, "fresh");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(CollectionNames(), std::vector<std::string>{"c"});
}

TEST_F(StoreTest, DestroyingASessionRollsBackItsTransaction) {
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1})");
  session_.reset();
  EXPECT_TRUE(Match("{}", Other()).empty());
  // The write lock was released: another session can write.
  MustInsert(R"({"_id": 2})", Other());
  EXPECT_EQ(Match("{}", Other()), (Ids{2}));
}

// ---- two sessions
// -----------------------------------------------------------------

TEST_F(StoreTest, UncommittedWritesAreInvisibleToOtherSessions) {
  MustInsert(R"({"_id": 1, "v": 1})");
  Session* other = Other();
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 2})");
  Document q = J(R"({"_id": 1})"), u = J(R"({"$set": {"v": 2}})");
  UpdateResult r;
  ASSERT_TRUE(session_->Update("db", "c", q.bson(), u.bson(), false, &r).ok());
  EXPECT_EQ(Match("{}", other), (Ids{1}));
  EXPECT_EQ(Int(FindAll("{}", other)[0], "v"), 1);
  EXPECT_EQ(Match(), (Ids{1, 2}));
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Match("{}", other), (Ids{1, 2}));
  EXPECT_EQ(Int(FindAll("{}", other)[0], "v"), 2);
}

TEST_F(StoreTest, CollectionCreatedInATransactionAppearsOnCommit) {
  Session* other = Other();
  EXPECT_TRUE(CollectionNames(other).empty());
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1})", nullptr, "later");
  EXPECT_TRUE(CollectionNames(other).empty());
  EXPECT_TRUE(Match("{}", other, "later").empty());
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(CollectionNames(other), std::vector<std::string>{"later"});
  EXPECT_EQ(Match("{}", other, "later"), (Ids{1}));
  // The other session's catalog follows a drop too.
  ASSERT_TRUE(session_->DropCollection("db", "later").ok());
  EXPECT_TRUE(CollectionNames(other).empty());
  EXPECT_TRUE(Match("{}", other, "later").empty());
  MustInsert(R"({"_id": 2})", other, "later");
  EXPECT_EQ(Match("{}", nullptr, "later"), (Ids{2}));
}

TEST_F(StoreTest, RolledBackWritesAreNeverVisibleToOtherSessions) {
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_TRUE(Match("{}", Other()).empty());
  EXPECT_TRUE(CollectionNames(Other()).empty());
}

TEST_F(StoreTest, SecondWriterWaitsThenReportsBusy) {
  CloseStore();
  StoreOptions options;
  options.busy_timeout_ms = 100;
  OpenStore(options);
  MustInsert(R"({"_id": 1})");
  ASSERT_TRUE(session_->Begin().ok());
  MustInsert(R"({"_id": 2})");
  Status s = Insert(R"({"_id": 3})", Other());
  EXPECT_EQ(s.code(), Code::kBusy) << s.ToString();
  // Reading is not blocked by the writer.
  EXPECT_EQ(Match("{}", Other()), (Ids{1}));
  ASSERT_TRUE(session_->Commit().ok());
  MustInsert(R"({"_id": 3})", Other());
  EXPECT_EQ(Match(), (Ids{1, 2, 3}));
}

// ---- indexes
// ----------------------------------------------------------------------

TEST_F(StoreTest, ExplainShowsIndexUseAndScans) {
  MustInsert(R"({"_id": 1, "a": 1, "b": 1})");
  ASSERT_TRUE(CreateIndex({{"a", 1}}).ok());
  std::string plan = Explain(R"({"a": 5})");
  EXPECT_NE(plan.find("USING INDEX"), std::string::npos) << plan;
  EXPECT_NE(plan.find("a_1"), std::string::npos) << plan;
  plan = Explain(R"({"a": {"$gt": 5}})");
  EXPECT_NE(plan.find("USING INDEX"), std::string::npos) << plan;
  plan = Explain(R"({"a": {"$in": [1, 2]}})");
  EXPECT_NE(plan.find("USING INDEX"), std::string::npos) << plan;
  plan = Explain(R"({"b": 5})");
  EXPECT_NE(plan.find("SCAN"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("USING INDEX"), std::string::npos) << plan;
  plan = Explain(R"({"_id": 1})");
  EXPECT_NE(plan.find("_id_"), std::string::npos) << plan;
  // Sorting on an indexed field needs no sorting step; on another one it does.
  plan = Explain("{}", R"({"b": 1})");
  EXPECT_NE(plan.find("TEMP B-TREE"), std::string::npos) << plan;
  plan = Explain("{}", R"({"a": 1})");
  EXPECT_NE(plan.find("USING INDEX"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;
  plan = Explain(R"({"a": {"$gt": 0}})", R"({"a": 1})");
  EXPECT_NE(plan.find("USING INDEX"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;
  // Dropping the index goes back to a scan.
  ASSERT_TRUE(session_->DropIndex("db", "c", "a_1").ok());
  plan = Explain(R"({"a": 5})");
  EXPECT_EQ(plan.find("USING INDEX"), std::string::npos) << plan;
  std::string missing;
  EXPECT_EQ(
      session_->ExplainFind("db", "nope", nullptr, nullptr, &missing).code(),
      Code::kNamespaceNotFound);
}

TEST_F(StoreTest, IndexedLookupsFindTheSameDocuments) {
  for (int i = 0; i < 50; i++) {
    MustInsert("{\"_id\": " + std::to_string(i) +
               ", \"a\": " + std::to_string(i % 5) + ", \"s\": \"" +
               std::to_string(i % 3) + "\"}");
  }
  MustInsert(R"({"_id": 100, "a": "3"})");
  MustInsert(R"({"_id": 101, "a": 3.0})");
  MustInsert(R"({"_id": 102})");
  Ids eq = Match(R"({"a": 3})");
  Ids gt = Match(R"({"a": {"$gt": 2}})");
  Ids null = Match(R"({"a": null})");
  Ids str = Match(R"({"a": {"$gte": ""}})");
  ASSERT_EQ(eq.size(), 11u);
  ASSERT_TRUE(CreateIndex({{"a", 1}}).ok());
  EXPECT_NE(Explain(R"({"a": 3})").find("USING INDEX"), std::string::npos);
  EXPECT_EQ(Match(R"({"a": 3})"), eq);
  EXPECT_EQ(Match(R"({"a": {"$gt": 2}})"), gt);
  EXPECT_EQ(Match(R"({"a": null})"), null);
  EXPECT_EQ(Match(R"({"a": {"$gte": ""}})"), str);
  EXPECT_EQ(str, (Ids{100}));
  EXPECT_EQ(null, (Ids{102}));
}

TEST_F(StoreTest, CompoundIndex) {
  MustInsert(R"({"_id": 1, "a": 1, "b": 2})");
  bool created = false;
  ASSERT_TRUE(CreateIndex({{"a", 1}, {"b", -1}}, false, "", &created).ok());
  EXPECT_TRUE(created);
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "a_1_b_-1");
  EXPECT_EQ(indexes[1].keys,
            (std::vector<std::pair<std::string, int>>{{"a", 1}, {"b", -1}}));
  EXPECT_FALSE(indexes[1].unique);
  std::string plan = Explain(R"({"a": 1, "b": 2})");
  EXPECT_NE(plan.find("USING INDEX"), std::string::npos) << plan;
  EXPECT_NE(plan.find("a_1_b_-1"), std::string::npos) << plan;
  // A prefix of the keys can use it; the second key alone cannot.
  plan = Explain(R"({"a": 1})");
  EXPECT_NE(plan.find("a_1_b_-1"), std::string::npos) << plan;
  plan = Explain(R"({"b": 2})");
  EXPECT_EQ(plan.find("USING INDEX"), std::string::npos) << plan;
  // The same keys again: nothing created.
  ASSERT_TRUE(CreateIndex({{"a", 1}, {"b", -1}}, false, "", &created).ok());
  EXPECT_FALSE(created);
  // Key order and direction matter.
  ASSERT_TRUE(CreateIndex({{"b", -1}, {"a", 1}}, false, "", &created).ok());
  EXPECT_TRUE(created);
  EXPECT_EQ(Match(R"({"a": 1, "b": 2})"), (Ids{1}));
}

TEST_F(StoreTest, CreateIndexRefusesBadSpecs) {
  EXPECT_EQ(CreateIndex({}).code(), Code::kBadValue);
  EXPECT_EQ(CreateIndex({{"a", 2}}).code(), Code::kBadValue);
  EXPECT_EQ(CreateIndex({{"", 1}}).code(), Code::kBadValue);
  EXPECT_EQ(CreateIndex({{"$a", 1}}).code(), Code::kBadValue);
  ASSERT_TRUE(CreateIndex({{"a", 1}}, false, "mine").ok());
  Status s = CreateIndex({{"b", 1}}, false, "mine");
  EXPECT_EQ(s.code(), Code::kBadValue) << s.ToString();
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "mine");
  EXPECT_EQ(indexes[1].keys[0].first, "a");
}

TEST_F(StoreTest, UniqueIndexRefusesDuplicatesAndNamesIndexAndKey) {
  MustInsert(R"({"_id": 1, "f": 5, "s": "x"})");
  ASSERT_TRUE(CreateIndex({{"f", 1}}, true).ok());
  ASSERT_TRUE(CreateIndex({{"s", 1}}, true, "s_unique").ok());
  Status s = Insert(R"({"_id": 2, "f": 5})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: f_1 dup key: "
            "{ f: 5 }");
  s = Insert(R"({"_id": 3, "f": 6, "s": "x"})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: s_unique dup "
            "key: { s: \"x\" }");
  // Numbers of other types with the same value are duplicates too.
  EXPECT_EQ(Insert(R"({"_id": 4, "f": 5.0})").code(), Code::kDuplicateKey);
  EXPECT_EQ(Insert(R"({"_id": 5, "f": {"$numberLong": "5"}})").code(),
            Code::kDuplicateKey);
  EXPECT_EQ(Match(), (Ids{1}));
  // Other values are fine; so is "5" (a string). (Each has its own s: a
  // unique index holds one null, see UniqueIndexTreatsNullAndMissing...)
  MustInsert(R"({"_id": 6, "f": 6, "s": "y"})");
  MustInsert(R"({"_id": 7, "f": "5", "s": "z"})");
  EXPECT_EQ(Match(), (Ids{1, 6, 7}));
}

// SQLite compares table and index names without regard to case; a
// collection or index name is case-sensitive.
TEST_F(StoreTest, NamesDifferingOnlyInCaseAreDistinct) {
  MustInsert(R"({"_id": 1, "f": 5})", nullptr, "C");
  MustInsert(R"({"_id": 2, "f": 5})", nullptr, "c");
  IndexSpec upper{"Mine", {{"f", 1}}, true};
  IndexSpec lower{"mine", {{"f", 1}}, true};
  ASSERT_TRUE(session_->CreateIndex("db", "C", upper, nullptr).ok());
  ASSERT_TRUE(session_->CreateIndex("db", "c", lower, nullptr).ok());
  IndexSpec other{"MINE", {{"g", 1}}, true};
  ASSERT_TRUE(session_->CreateIndex("db", "c", other, nullptr).ok());
  EXPECT_EQ(Match("{}", nullptr, "C"), (Ids{1}));
  EXPECT_EQ(Match("{}", nullptr, "c"), (Ids{2}));
  Status s = Insert(R"({"_id": 3, "f": 5})", nullptr, "C");
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.C index: Mine dup key: "
            "{ f: 5 }");
  // Missing g is one value for the partial index of MINE.
  s = Insert(R"({"_id": 4, "f": 6})", nullptr, "c");
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: MINE dup key: "
            "{ g: null }");
  ASSERT_TRUE(session_->DropIndex("db", "c", "MINE").ok());
  MustInsert(R"({"_id": 4, "f": 6})", nullptr, "c");
  ASSERT_TRUE(session_->DropCollection("db", "C").ok());
  EXPECT_EQ(Match("{}", nullptr, "c"), (Ids{2, 4}));
  std::vector<std::string> names = CollectionNames();
  EXPECT_EQ(names, std::vector<std::string>{"c"});
}

// A data directory written before names were escaped holds "c:db.T": a new
// collection t must not take that SQLite name.
TEST_F(StoreTest, OldUnescapedNamesAreAvoided) {
  MustInsert(R"({"_id": 1})", nullptr, "T");
  CloseStore();
  sqlite3* db;
  ASSERT_EQ(sqlite3_open((dir_ + "/kova.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "ALTER TABLE \"c:db.^t\" RENAME TO \"c:db.T\";"
                         "UPDATE kova_collections SET tbl = '\"c:db.T\"' "
                         "WHERE ns = 'db.T'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  OpenStore();
  MustInsert(R"({"_id": 2})", nullptr, "t");
  EXPECT_EQ(Match("{}", nullptr, "T"), (Ids{1}));
  EXPECT_EQ(Match("{}", nullptr, "t"), (Ids{2}));
}

// As in MongoDB, a unique index holds one entry for null and missing.
TEST_F(StoreTest, UniqueIndexTreatsNullAndMissingAsOneValue) {
  ASSERT_TRUE(CreateIndex({{"f", 1}}, true).ok());
  MustInsert(R"({"_id": 1})");
  Status s = Insert(R"({"_id": 2})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  s = Insert(R"({"_id": 3, "f": null})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(Match(), (Ids{1}));
}

TEST_F(StoreTest, UniqueCompoundIndexNamesAllKeys) {
  ASSERT_TRUE(CreateIndex({{"a", 1}, {"b", 1}}, true).ok());
  MustInsert(R"({"_id": 1, "a": 1, "b": 2})");
  MustInsert(R"({"_id": 2, "a": 1, "b": 3})");
  MustInsert(R"({"_id": 3, "a": 2, "b": 2})");
  Status s = Insert(R"({"_id": 4, "b": 2, "a": 1})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: a_1_b_1 dup "
            "key: { a: 1, b: 2 }");
}

TEST_F(StoreTest, UniqueIndexOnDottedPath) {
  ASSERT_TRUE(CreateIndex({{"x.y", 1}}, true).ok());
  MustInsert(R"({"_id": 1, "x": {"y": "v"}})");
  Status s = Insert(R"({"_id": 2, "x": {"y": "v", "z": 1}})");
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: x.y_1 dup "
            "key: { x.y: \"v\" }");
}

TEST_F(StoreTest, UpdateViolatingUniqueIndexIsRefused) {
  ASSERT_TRUE(CreateIndex({{"f", 1}}, true).ok());
  MustInsert(R"({"_id": 1, "f": 1})");
  MustInsert(R"({"_id": 2, "f": 2})");
  Document q = J(R"({"_id": 2})"), u = J(R"({"$set": {"f": 1}})");
  UpdateResult r;
  Status s = session_->Update("db", "c", q.bson(), u.bson(), false, &r);
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: db.c index: f_1 dup key: "
            "{ f: 1 }");
  EXPECT_EQ(Int(FindAll(R"({"_id": 2})")[0], "f"), 2);
}

TEST_F(StoreTest, UniqueIndexOnExistingDuplicatesFails) {
  MustInsert(R"({"_id": 1, "f": 1})");
  MustInsert(R"({"_id": 2, "f": 1.0})");
  Status s = CreateIndex({{"f", 1}}, true);
  EXPECT_EQ(s.code(), Code::kDuplicateKey) << s.ToString();
  EXPECT_NE(s.message().find("f_1"), std::string::npos) << s.ToString();
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("db", "c", &indexes).ok());
  EXPECT_EQ(indexes.size(), 1u);
  // A non-unique index on the same field is fine and allows duplicates.
  ASSERT_TRUE(CreateIndex({{"f", 1}}).ok());
  MustInsert(R"({"_id": 3, "f": 1})");
  EXPECT_EQ(Match(R"({"f": 1})"), (Ids{1, 2, 3}));
}

TEST_F(StoreTest, DropIndexAndDropCollection) {
  ASSERT_TRUE(CreateIndex({{"a", 1}}).ok());
  ASSERT_TRUE(CreateIndex({{"b", 1}}, true).ok());
  EXPECT_EQ(session_->DropIndex("db", "c", "_id_").code(),
            Code::kIllegalOperation);
  EXPECT_EQ(session_->DropIndex("db", "c", "zzz").code(), Code::kIndexNotFound);
  EXPECT_EQ(session_->DropIndex("db", "nope", "a_1").code(),
            Code::kNamespaceNotFound);
  ASSERT_TRUE(session_->DropIndex("db", "c", "b_1").ok());
  // The unique constraint went with the index.
  MustInsert(R"({"_id": 1, "b": 1})");
  MustInsert(R"({"_id": 2, "b": 1})");
  int was = -1;
  ASSERT_TRUE(session_->DropCollection("db", "c", &was).ok());
  EXPECT_EQ(was, 2);
  EXPECT_EQ(session_->DropCollection("db", "c").code(),
            Code::kNamespaceNotFound);
  EXPECT_TRUE(CollectionNames().empty());
  EXPECT_TRUE(Match().empty());
}

TEST_F(StoreTest, NamesAreValidated) {
  Document doc = J("{}");
  EXPECT_EQ(session_->Insert("bad.db", "c", doc.bson()).code(),
            Code::kBadValue);
  EXPECT_EQ(session_->Insert("", "c", doc.bson()).code(), Code::kBadValue);
  EXPECT_EQ(session_->Insert("db", "", doc.bson()).code(), Code::kBadValue);
  EXPECT_EQ(session_->Insert("db", "$c", doc.bson()).code(), Code::kBadValue);
  EXPECT_EQ(session_->CreateCollection("db", "x..y", {}).code(),
            Code::kBadValue);
  // A dotted collection name is one collection, apart from its prefix.
  ASSERT_TRUE(session_->Insert("db", "a.b", doc.bson()).ok());
  ASSERT_TRUE(session_->CreateCollection("db", "a", {}).ok());
  EXPECT_EQ(CollectionNames(), (std::vector<std::string>{"a", "a.b"}));
  EXPECT_TRUE(Match("{}", nullptr, "a").empty());
  EXPECT_EQ(FindAll("{}", nullptr, "a.b").size(), 1u);
  EXPECT_EQ(session_->CreateCollection("db", "a.b", {}).code(),
            Code::kNamespaceExists);
}

TEST_F(StoreTest, FindWithOptions) {
  for (int i = 1; i <= 5; i++) {
    MustInsert("{\"_id\": " + std::to_string(i) + ", \"a\": " +
               std::to_string(6 - i) + ", \"b\": " + std::to_string(i) + "}");
  }
  Document sort = J(R"({"a": 1})"), projection = J(R"({"b": 0})");
  FindOptions options;
  options.sort = sort.bson();
  options.projection = projection.bson();
  options.skip = 1;
  options.limit = 2;
  std::vector<Document> docs;
  ASSERT_TRUE(session_->Find("db", "c", nullptr, options, &docs).ok());
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(Int(docs[0], "_id"), 4);
  EXPECT_EQ(Int(docs[1], "_id"), 3);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "a"}));
  options.limit = -1;
  docs.clear();
  EXPECT_EQ(session_->Find("db", "c", nullptr, options, &docs).code(),
            Code::kBadValue);
}

TEST_F(StoreTest, DeleteThroughTheApi) {
  MustInsert(R"({"_id": 1, "g": 1})");
  MustInsert(R"({"_id": 2, "g": 1})");
  MustInsert(R"({"_id": 3, "g": 2})");
  Document q = J(R"({"g": 1})");
  int64_t deleted = -1;
  ASSERT_TRUE(session_->Delete("db", "c", q.bson(), 1, &deleted).ok());
  EXPECT_EQ(deleted, 1);
  ASSERT_TRUE(session_->Delete("db", "c", q.bson(), 0, &deleted).ok());
  EXPECT_EQ(deleted, 1);
  EXPECT_EQ(Match(), (Ids{3}));
  EXPECT_EQ(session_->Delete("db", "c", q.bson(), 5, &deleted).code(),
            Code::kBadValue);
  ASSERT_TRUE(session_->Delete("db", "nope", q.bson(), 0, &deleted).ok());
  EXPECT_EQ(deleted, 0);
}

// Parallel reads: two sessions share a snapshot only when no commit came
// between the starts of their read transactions.
TEST_F(StoreTest, ReadersShareASnapshotUntilACommit) {
  ASSERT_TRUE(session_->Insert("db", "c", J(R"({"n": 1})").bson()).ok());
  std::unique_ptr<Session> reader;
  ASSERT_TRUE(session_->NewReader(&reader).ok());
  // Outside a read transaction there is no snapshot to share.
  EXPECT_FALSE(session_->SharesSnapshotWith(*reader));
  ASSERT_TRUE(session_->BeginSnapshot().ok());
  ASSERT_TRUE(reader->BeginSnapshot().ok());
  EXPECT_TRUE(session_->SharesSnapshotWith(*reader));
  EXPECT_TRUE(reader->SharesSnapshotWith(*session_));
  ASSERT_TRUE(reader->Rollback().ok());
  EXPECT_FALSE(session_->SharesSnapshotWith(*reader));
  // Another session commits: a read begun now sees a later state.
  ASSERT_TRUE(Other()->Insert("db", "c", J(R"({"n": 2})").bson()).ok());
  ASSERT_TRUE(reader->BeginSnapshot().ok());
  EXPECT_FALSE(session_->SharesSnapshotWith(*reader));
  ASSERT_TRUE(session_->Rollback().ok());
  ASSERT_TRUE(session_->BeginSnapshot().ok());
  EXPECT_TRUE(session_->SharesSnapshotWith(*reader));
  // A session that has written holds rows no other snapshot has.
  ASSERT_TRUE(session_->Insert("db", "c", J(R"({"n": 3})").bson()).ok());
  EXPECT_FALSE(session_->SharesSnapshotWith(*reader));
  ASSERT_TRUE(session_->Rollback().ok());
  ASSERT_TRUE(reader->Rollback().ok());
}

}  // namespace
}  // namespace kova::docstore
