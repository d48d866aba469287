// The document command API (Session::RunCommand / RunCommandJson): every
// command and the shape of its reply.
#include <bson/bson.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docstore/docstore.h"

namespace kova::docstore {
namespace {

// ---- BSON helpers ---------------------------------------------------------

// The element at a dotted path ("cursor.firstBatch"); false when absent.
bool Lookup(const Document& doc, const char* path, bson_iter_t* out) {
  bson_iter_t root;
  if (!bson_iter_init(&root, doc.bson())) return false;
  return bson_iter_find_descendant(&root, path, out);
}

bool Has(const Document& doc, const char* path) {
  bson_iter_t it;
  return Lookup(doc, path, &it);
}

bson_type_t TypeAt(const Document& doc, const char* path) {
  bson_iter_t it;
  return Lookup(doc, path, &it) ? bson_iter_type(&it) : BSON_TYPE_EOD;
}

// An int32 or int64 field.
int64_t Int(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it)) {
    ADD_FAILURE() << "no field " << path << " in " << doc.ToJson();
    return INT64_MIN;
  }
  if (!BSON_ITER_HOLDS_INT32(&it) && !BSON_ITER_HOLDS_INT64(&it)) {
    ADD_FAILURE() << "field " << path << " is not an integer in "
                  << doc.ToJson();
    return INT64_MIN;
  }
  return bson_iter_as_int64(&it);
}

// Any numeric field as a double.
double Num(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_NUMBER(&it)) {
    ADD_FAILURE() << "no number " << path << " in " << doc.ToJson();
    return -12345.0;
  }
  return bson_iter_as_double(&it);
}

std::string Str(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_UTF8(&it)) {
    ADD_FAILURE() << "no string " << path << " in " << doc.ToJson();
    return "<missing>";
  }
  return bson_iter_utf8(&it, nullptr);
}

bool Bool(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_BOOL(&it)) {
    ADD_FAILURE() << "no bool " << path << " in " << doc.ToJson();
    return false;
  }
  return bson_iter_bool(&it);
}

// An ObjectId field as 24 hex digits ("" when not an ObjectId).
std::string OidHex(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_OID(&it)) return "";
  char hex[25];
  bson_oid_to_string(bson_iter_oid(&it), hex);
  return hex;
}

// A subdocument or array as a Document.
Document Sub(const Document& doc, const char* path) {
  bson_iter_t it;
  if (!Lookup(doc, path, &it) ||
      (!BSON_ITER_HOLDS_DOCUMENT(&it) && !BSON_ITER_HOLDS_ARRAY(&it))) {
    ADD_FAILURE() << "no document " << path << " in " << doc.ToJson();
    return Document();
  }
  uint32_t len;
  const uint8_t* data;
  if (BSON_ITER_HOLDS_DOCUMENT(&it)) {
    bson_iter_document(&it, &len, &data);
  } else {
    bson_iter_array(&it, &len, &data);
  }
  return Document(data, len);
}

// The documents of an array field.
std::vector<Document> DocArray(const Document& doc, const char* path) {
  std::vector<Document> out;
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_ARRAY(&it)) {
    ADD_FAILURE() << "no array " << path << " in " << doc.ToJson();
    return out;
  }
  bson_iter_t child;
  bson_iter_recurse(&it, &child);
  while (bson_iter_next(&child)) {
    if (!BSON_ITER_HOLDS_DOCUMENT(&child)) {
      ADD_FAILURE() << "array " << path << " holds a non-document";
      continue;
    }
    uint32_t len;
    const uint8_t* data;
    bson_iter_document(&child, &len, &data);
    out.emplace_back(data, len);
  }
  return out;
}

// The strings of an array field.
std::vector<std::string> StrArray(const Document& doc, const char* path) {
  std::vector<std::string> out;
  bson_iter_t it;
  if (!Lookup(doc, path, &it) || !BSON_ITER_HOLDS_ARRAY(&it)) {
    ADD_FAILURE() << "no array " << path << " in " << doc.ToJson();
    return out;
  }
  bson_iter_t child;
  bson_iter_recurse(&it, &child);
  while (bson_iter_next(&child)) {
    out.push_back(BSON_ITER_HOLDS_UTF8(&child) ? bson_iter_utf8(&child, nullptr)
                                               : "<not a string>");
  }
  return out;
}

// Top-level field names in order.
std::vector<std::string> Keys(const Document& doc) {
  std::vector<std::string> keys;
  bson_iter_t it;
  if (bson_iter_init(&it, doc.bson())) {
    while (bson_iter_next(&it)) keys.emplace_back(bson_iter_key(&it));
  }
  return keys;
}

using Ids = std::vector<int64_t>;

Ids IdsOf(const std::vector<Document>& docs) {
  Ids ids;
  for (const auto& doc : docs) ids.push_back(Int(doc, "_id"));
  return ids;
}

// ---- fixture ----------------------------------------------------------------

class CommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kova_commands_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    Status s = Store::Open(dir_, StoreOptions{}, &store_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s = store_->NewSession(&session_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void TearDown() override {
    session_.reset();
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Runs a JSON command in database "db" (canonical JSON out, so that the
  // reply keeps its BSON types when parsed back).
  Document Run(std::string_view json, std::string_view db = "db") {
    std::string reply =
        session_->RunCommandJson(db, json, JsonMode::kCanonical);
    Document doc;
    Status s = Document::FromJson(reply, &doc);
    EXPECT_TRUE(s.ok()) << "reply is not JSON: " << reply;
    EXPECT_EQ(TypeAt(doc, "ok"), BSON_TYPE_DOUBLE) << reply;
    return doc;
  }

  // Runs a command that must succeed (ok: 1).
  Document Ok(std::string_view json, std::string_view db = "db") {
    Document reply = Run(json, db);
    EXPECT_EQ(Num(reply, "ok"), 1.0) << json << " -> " << reply.ToJson();
    return reply;
  }

  // Runs a command that must fail with this code and code name; checks the
  // shape of the error reply.
  Document Fails(std::string_view json, int code, const char* code_name,
                 std::string_view db = "db") {
    Document reply = Run(json, db);
    EXPECT_EQ(Num(reply, "ok"), 0.0) << json << " -> " << reply.ToJson();
    EXPECT_EQ(TypeAt(reply, "code"), BSON_TYPE_INT32) << reply.ToJson();
    EXPECT_EQ(Int(reply, "code"), code) << json << " -> " << reply.ToJson();
    EXPECT_EQ(Str(reply, "codeName"), code_name) << reply.ToJson();
    EXPECT_FALSE(Str(reply, "errmsg").empty()) << reply.ToJson();
    return reply;
  }

  // Inserts into db.c (documents: a JSON array) and checks n.
  void Insert(std::string_view documents, int expected_n) {
    Document reply = Ok(std::string(R"({"insert": "c", "documents": )") +
                        std::string(documents) + "}");
    EXPECT_EQ(Int(reply, "n"), expected_n) << reply.ToJson();
    EXPECT_FALSE(Has(reply, "writeErrors")) << reply.ToJson();
  }

  // Runs find on db.c with extra arguments ("filter": ..., "sort": ...) and
  // returns the first batch.
  std::vector<Document> Find(std::string_view args = "",
                             std::string_view coll = "c") {
    std::string cmd = R"({"find": ")" + std::string(coll) + "\"";
    if (!args.empty()) cmd += ", " + std::string(args);
    cmd += "}";
    Document reply = Ok(cmd);
    return DocArray(reply, "cursor.firstBatch");
  }

  // The _ids (integers) matching a filter, in _id order.
  Ids Match(std::string_view filter) {
    return IdsOf(Find(R"("filter": )" + std::string(filter) +
                      R"(, "sort": {"_id": 1})"));
  }

  // The _ids in the order of a sort.
  Ids Sorted(std::string_view sort, std::string_view extra = "") {
    std::string args = R"("sort": )" + std::string(sort);
    if (!extra.empty()) args += ", " + std::string(extra);
    return IdsOf(Find(args));
  }

  Document FindOne(int id) {
    std::vector<Document> docs =
        Find(R"("filter": {"_id": )" + std::to_string(id) + "}");
    EXPECT_EQ(docs.size(), 1u) << "_id " << id;
    return docs.empty() ? Document() : docs[0];
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Session> session_;
};

// ---- ping, create -----------------------------------------------------------

TEST_F(CommandsTest, PingRepliesOk) {
  Document reply = Ok(R"({"ping": 1})");
  EXPECT_EQ(Keys(reply), std::vector<std::string>{"ok"});
}

TEST_F(CommandsTest, CreateThenSecondCreateIsNamespaceExists) {
  Document reply = Ok(R"({"create": "c"})");
  EXPECT_EQ(Keys(reply), std::vector<std::string>{"ok"});
  Document again = Fails(R"({"create": "c"})", 48, "NamespaceExists");
  EXPECT_NE(Str(again, "errmsg").find("db.c"), std::string::npos)
      << again.ToJson();
  // The same name in another database is another collection.
  Ok(R"({"create": "c"})", "other");
}

TEST_F(CommandsTest, CreateRefusesInvalidNames) {
  Fails(R"({"create": "$bad"})", 2, "BadValue");
  Fails(R"({"create": ""})", 2, "BadValue");
  Fails(R"({"create": "a..b"})", 2, "BadValue");
  Fails(R"({"create": "c"})", 2, "BadValue", "bad.db");
  Fails(R"({"create": "c"})", 2, "BadValue", "bad$db");
  // Collection names may contain single dots.
  Ok(R"({"create": "a.b"})");
}

TEST_F(CommandsTest, CreateWithAutoincrementIsListed) {
  Ok(R"({"create": "one", "autoincrement": "n"})");
  Ok(R"({"create": "two", "autoincrement": ["p", "q"]})");
  Fails(R"({"create": "bad", "autoincrement": 5})", 14, "TypeMismatch");
  Fails(R"({"create": "bad", "autoincrement": []})", 2, "BadValue");
  Fails(R"({"create": "bad", "autoincrement": "_id"})", 2, "BadValue");
  Fails(R"({"create": "bad", "autoincrement": ["x", "x"]})", 2, "BadValue");
  Document reply = Ok(R"({"listCollections": 1})");
  std::vector<Document> colls = DocArray(reply, "cursor.firstBatch");
  ASSERT_EQ(colls.size(), 2u) << reply.ToJson();
  EXPECT_EQ(Str(colls[0], "name"), "one");
  EXPECT_EQ(StrArray(colls[0], "options.autoincrement"),
            std::vector<std::string>{"n"});
  EXPECT_EQ(Str(colls[1], "name"), "two");
  EXPECT_EQ(StrArray(colls[1], "options.autoincrement"),
            (std::vector<std::string>{"p", "q"}));
}

TEST_F(CommandsTest, CollModAddsAutoincrement) {
  Insert(R"([{"_id": 1, "n": 5}])", 1);
  Document reply = Ok(R"({"collMod": "c", "autoincrement": "n"})");
  EXPECT_EQ(Keys(reply), std::vector<std::string>{"ok"});
  Document list = Ok(R"({"listCollections": 1})");
  std::vector<Document> colls = DocArray(list, "cursor.firstBatch");
  ASSERT_EQ(colls.size(), 1u);
  EXPECT_EQ(StrArray(colls[0], "options.autoincrement"),
            std::vector<std::string>{"n"});
  Document indexes = Ok(R"({"listIndexes": "c"})");
  std::vector<Document> specs = DocArray(indexes, "cursor.firstBatch");
  ASSERT_EQ(specs.size(), 2u) << indexes.ToJson();
  EXPECT_EQ(Str(specs[1], "name"), "n_1");
  EXPECT_TRUE(Bool(specs[1], "unique"));
  // The next document without n continues after the highest stored value.
  Insert(R"([{"_id": 2}])", 1);
  EXPECT_EQ(Int(FindOne(2), "n"), 6);
  Fails(R"({"collMod": "c", "autoincrement": "n"})", 2, "BadValue");
  Fails(R"({"collMod": "missing", "autoincrement": "n"})", 26,
        "NamespaceNotFound");
  Fails(R"({"collMod": "c", "autoincrement": 1})", 14, "TypeMismatch");
}

// ---- insert -----------------------------------------------------------------

TEST_F(CommandsTest, InsertReportsNAndStoresDocuments) {
  Ok(R"({"create": "c"})");
  Document reply =
      Ok(R"({"insert": "c", "documents": [{"a": 1}, {"a": 2}, {"a": 3}]})");
  EXPECT_EQ(TypeAt(reply, "n"), BSON_TYPE_INT32);
  EXPECT_EQ(Int(reply, "n"), 3);
  EXPECT_EQ(Keys(reply), (std::vector<std::string>{"n", "ok"}));
  std::vector<Document> docs = Find(R"("sort": {"a": 1})");
  ASSERT_EQ(docs.size(), 3u);
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(Int(docs[i], "a"), i + 1);
    EXPECT_EQ(TypeAt(docs[i], "_id"), BSON_TYPE_OID) << docs[i].ToJson();
    EXPECT_EQ(Keys(docs[i]), (std::vector<std::string>{"_id", "a"}));
  }
  // Each document gets its own ObjectId.
  EXPECT_NE(OidHex(docs[0], "_id"), OidHex(docs[1], "_id"));
  EXPECT_NE(OidHex(docs[1], "_id"), OidHex(docs[2], "_id"));
  EXPECT_EQ(OidHex(docs[0], "_id").size(), 24u);
}

TEST_F(CommandsTest, InsertIntoMissingCollectionCreatesIt) {
  Document before = Ok(R"({"listCollections": 1})");
  EXPECT_TRUE(DocArray(before, "cursor.firstBatch").empty());
  Insert(R"([{"_id": 1, "x": "y"}])", 1);
  Document after = Ok(R"({"listCollections": 1})");
  std::vector<Document> colls = DocArray(after, "cursor.firstBatch");
  ASSERT_EQ(colls.size(), 1u);
  EXPECT_EQ(Str(colls[0], "name"), "c");
  EXPECT_EQ(Str(FindOne(1), "x"), "y");
  // The created collection has its _id index.
  Document indexes = Ok(R"({"listIndexes": "c"})");
  std::vector<Document> specs = DocArray(indexes, "cursor.firstBatch");
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(Str(specs[0], "name"), "_id_");
}

TEST_F(CommandsTest, InsertEmptyDocumentsIsZero) {
  Document reply = Ok(R"({"insert": "c", "documents": []})");
  EXPECT_EQ(Int(reply, "n"), 0);
}

TEST_F(CommandsTest, OrderedInsertStopsAtFirstDuplicate) {
  Document reply = Ok(
      R"({"insert": "c", "documents": [{"_id": 1}, {"_id": 1}, {"_id": 2}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "index"), 1);
  EXPECT_EQ(Int(errors[0], "code"), 11000);
  EXPECT_EQ(Str(errors[0], "codeName"), "DuplicateKey");
  EXPECT_EQ(Match("{}"), (Ids{1}));
}

TEST_F(CommandsTest, UnorderedInsertContinuesAfterDuplicates) {
  Document reply = Ok(R"({"insert": "c", "ordered": false, "documents": [
      {"_id": 1, "v": "first"}, {"_id": 1, "v": "second"}, {"_id": 2},
      {"_id": 2}, {"_id": 3}]})");
  EXPECT_EQ(Int(reply, "n"), 3);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 2u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "index"), 1);
  EXPECT_EQ(Int(errors[1], "index"), 3);
  for (const auto& e : errors) {
    EXPECT_EQ(Int(e, "code"), 11000);
    EXPECT_EQ(Str(e, "codeName"), "DuplicateKey");
  }
  EXPECT_EQ(Str(errors[0], "errmsg"),
            "E11000 duplicate key error collection: db.c index: _id_ dup "
            "key: { _id: 1 }");
  EXPECT_EQ(Str(errors[1], "errmsg"),
            "E11000 duplicate key error collection: db.c index: _id_ dup "
            "key: { _id: 2 }");
  EXPECT_EQ(Match("{}"), (Ids{1, 2, 3}));
  EXPECT_EQ(Str(FindOne(1), "v"), "first");
}

TEST_F(CommandsTest, UnorderedInsertReportsNonDocumentEntries) {
  Document reply = Ok(R"({"insert": "c", "ordered": false,
                          "documents": [{"_id": 1}, 5, {"_id": 2}]})");
  EXPECT_EQ(Int(reply, "n"), 2);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "index"), 1);
  EXPECT_EQ(Int(errors[0], "code"), 14);
  EXPECT_EQ(Match("{}"), (Ids{1, 2}));
}

TEST_F(CommandsTest, InsertRefusesArrayId) {
  Document reply =
      Ok(R"({"insert": "c", "documents": [{"_id": [1, 2]}, {"_id": 3}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(Int(errors[0], "code"), 2);
  EXPECT_TRUE(Match("{}").empty());
}

// ---- find: filters ----------------------------------------------------------

TEST_F(CommandsTest, FindReplyShape) {
  Insert(R"([{"_id": 1, "a": 1}])", 1);
  Document reply = Ok(R"({"find": "c", "filter": {"a": 1}})");
  EXPECT_EQ(Keys(reply), (std::vector<std::string>{"cursor", "ok"}));
  EXPECT_EQ(TypeAt(reply, "cursor.id"), BSON_TYPE_INT64);
  EXPECT_EQ(Int(reply, "cursor.id"), 0);
  EXPECT_EQ(Str(reply, "cursor.ns"), "db.c");
  EXPECT_EQ(TypeAt(reply, "cursor.firstBatch"), BSON_TYPE_ARRAY);
  std::vector<Document> docs = DocArray(reply, "cursor.firstBatch");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Int(docs[0], "_id"), 1);
}

TEST_F(CommandsTest, FindOnMissingCollectionIsEmpty) {
  Document reply = Ok(R"({"find": "nothing"})");
  EXPECT_TRUE(DocArray(reply, "cursor.firstBatch").empty());
  EXPECT_EQ(Str(reply, "cursor.ns"), "db.nothing");
  // The filter is still checked.
  Fails(R"({"find": "nothing", "filter": {"a": {"$bogus": 1}}})", 2,
        "BadValue");
}

TEST_F(CommandsTest, FindEquality) {
  Insert(R"([{"_id": 1, "a": 1, "b": "x"}, {"_id": 2, "a": 2, "b": "x"},
             {"_id": 3, "a": 1, "b": "y"}])",
         3);
  EXPECT_EQ(Match(R"({"a": 1})"), (Ids{1, 3}));
  EXPECT_EQ(Match(R"({"b": "x"})"), (Ids{1, 2}));
  EXPECT_EQ(Match(R"({"a": 1, "b": "y"})"), (Ids{3}));
  EXPECT_EQ(Match(R"({"a": {"$eq": 2}})"), (Ids{2}));
  EXPECT_EQ(Match(R"({"a": 7})"), Ids{});
  EXPECT_EQ(Match(R"({})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"_id": 2})"), (Ids{2}));
}

TEST_F(CommandsTest, FindComparisonOperators) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3},
             {"_id": 4, "a": 4}, {"_id": 5, "a": 5}, {"_id": 6},
             {"_id": 7, "a": "x"}])",
         7);
  EXPECT_EQ(Match(R"({"a": {"$gt": 3}})"), (Ids{4, 5}));
  EXPECT_EQ(Match(R"({"a": {"$gte": 3}})"), (Ids{3, 4, 5}));
  EXPECT_EQ(Match(R"({"a": {"$lt": 3}})"), (Ids{1, 2}));
  EXPECT_EQ(Match(R"({"a": {"$lte": 3}})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$gt": 1, "$lt": 4}})"), (Ids{2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$ne": 3}})"), (Ids{1, 2, 4, 5, 6, 7}));
  EXPECT_EQ(Match(R"({"a": {"$in": [1, 3, "x"]}})"), (Ids{1, 3, 7}));
  EXPECT_EQ(Match(R"({"a": {"$in": []}})"), Ids{});
  EXPECT_EQ(Match(R"({"a": {"$nin": [1, 3]}})"), (Ids{2, 4, 5, 6, 7}));
  EXPECT_EQ(Match(R"({"a": {"$nin": []}})"), (Ids{1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(CommandsTest, FindOperatorErrors) {
  Insert(R"([{"_id": 1, "a": 1}])", 1);
  Fails(R"({"find": "c", "filter": {"a": {"$in": 1}}})", 2, "BadValue");
  Fails(R"({"find": "c", "filter": {"a": {"$nin": "x"}}})", 2, "BadValue");
  Document unknown =
      Fails(R"({"find": "c", "filter": {"a": {"$size": 1}}})", 2, "BadValue");
  EXPECT_NE(Str(unknown, "errmsg").find("$size"), std::string::npos);
  Fails(R"({"find": "c", "filter": {"$where": "x"}})", 2, "BadValue");
  Fails(R"({"find": "c", "filter": {"$or": {"a": 1}}})", 2, "BadValue");
  Fails(R"({"find": "c", "filter": {"$or": []}})", 2, "BadValue");
  Fails(R"({"find": "c", "filter": {"$and": [1]}})", 2, "BadValue");
}

TEST_F(CommandsTest, FindAndOrNor) {
  Insert(R"([{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 1, "b": 2},
             {"_id": 3, "a": 2, "b": 1}, {"_id": 4, "a": 2, "b": 2}])",
         4);
  EXPECT_EQ(Match(R"({"$and": [{"a": 1}, {"b": 2}]})"), (Ids{2}));
  EXPECT_EQ(Match(R"({"$or": [{"a": 1}, {"b": 2}]})"), (Ids{1, 2, 4}));
  EXPECT_EQ(Match(R"({"$or": [{"$and": [{"a": 2}, {"b": 2}]},
                              {"a": 1, "b": 1}]})"),
            (Ids{1, 4}));
  EXPECT_EQ(Match(R"({"b": 1, "$or": [{"a": 1}, {"a": 2}]})"), (Ids{1, 3}));
  EXPECT_EQ(Match(R"({"$nor": [{"a": 1}]})"), (Ids{3, 4}));
  EXPECT_EQ(Match(R"({"$and": [{"a": {"$gte": 1}}, {"$or": [{"b": 2},
                               {"a": 9}]}]})"),
            (Ids{2, 4}));
}

TEST_F(CommandsTest, FindNumbersOfMixedTypesCompareByValue) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": {"$numberLong": "1"}},
             {"_id": 3, "a": 1.0}, {"_id": 4, "a": 1.5}, {"_id": 5, "a": 2},
             {"_id": 6, "a": "1"}])",
         6);
  // The stored types are kept.
  EXPECT_EQ(TypeAt(FindOne(1), "a"), BSON_TYPE_INT32);
  EXPECT_EQ(TypeAt(FindOne(2), "a"), BSON_TYPE_INT64);
  EXPECT_EQ(TypeAt(FindOne(3), "a"), BSON_TYPE_DOUBLE);
  EXPECT_EQ(Match(R"({"a": 1})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$numberLong": "1"}})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": 1.0})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$in": [1.0]}})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$gt": 1}})"), (Ids{4, 5}));
  EXPECT_EQ(Match(R"({"a": {"$lt": 1.5}})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$gte": {"$numberLong": "2"}}})"), (Ids{5}));
  EXPECT_EQ(Match(R"({"a": {"$ne": 1}})"), (Ids{4, 5, 6}));
  EXPECT_EQ(Match(R"({"a": "1"})"), (Ids{6}));
}

TEST_F(CommandsTest, FindLargeIntegersAcrossTypes) {
  Insert(R"([{"_id": 1, "a": 5000000000}, {"_id": 2, "a": 5000000000.0},
             {"_id": 3, "a": 5000000001}])",
         3);
  EXPECT_EQ(TypeAt(FindOne(1), "a"), BSON_TYPE_INT64);
  EXPECT_EQ(Match(R"({"a": 5000000000})"), (Ids{1, 2}));
  EXPECT_EQ(Match(R"({"a": {"$gt": 5000000000.0}})"), (Ids{3}));
}

TEST_F(CommandsTest, FindRespectsTypeBrackets) {
  Insert(R"([{"_id": 1, "a": 10}, {"_id": 2, "a": "abc"},
             {"_id": 3, "a": "10"}, {"_id": 4, "a": true},
             {"_id": 5, "a": null}, {"_id": 6}, {"_id": 7, "a": 3},
             {"_id": 8, "a": {"b": 1}}])",
         8);
  EXPECT_EQ(Match(R"({"a": {"$gt": 5}})"), (Ids{1}));
  EXPECT_EQ(Match(R"({"a": {"$lt": 5}})"), (Ids{7}));
  EXPECT_EQ(Match(R"({"a": {"$gte": 3}})"), (Ids{1, 7}));
  EXPECT_EQ(Match(R"({"a": {"$gte": "a"}})"), (Ids{2}));
  EXPECT_EQ(Match(R"({"a": {"$lt": "b"}})"), (Ids{2, 3}));
  EXPECT_EQ(Match(R"({"a": "10"})"), (Ids{3}));
  EXPECT_EQ(Match(R"({"a": 10})"), (Ids{1}));
  EXPECT_EQ(Match(R"({"a": {"$gt": false}})"), (Ids{4}));
  EXPECT_EQ(Match(R"({"a": true})"), (Ids{4}));
  EXPECT_EQ(Match(R"({"a": {"b": 1}})"), (Ids{8}));
  EXPECT_EQ(Match(R"({"a": {"$lt": null}})"), Ids{});
  EXPECT_EQ(Match(R"({"a": {"$lte": null}})"), (Ids{5, 6}));
}

TEST_F(CommandsTest, FindNullMatchesNullAndMissing) {
  Insert(R"([{"_id": 1, "a": null}, {"_id": 2, "b": 1}, {"_id": 3, "a": 1},
             {"_id": 4, "a": 0}, {"_id": 5, "a": ""}])",
         5);
  EXPECT_EQ(Match(R"({"a": null})"), (Ids{1, 2}));
  EXPECT_EQ(Match(R"({"a": {"$eq": null}})"), (Ids{1, 2}));
  EXPECT_EQ(Match(R"({"a": {"$ne": null}})"), (Ids{3, 4, 5}));
  EXPECT_EQ(Match(R"({"a": {"$in": [null, 1]}})"), (Ids{1, 2, 3}));
  EXPECT_EQ(Match(R"({"a": {"$nin": [null]}})"), (Ids{3, 4, 5}));
  EXPECT_EQ(Match(R"({"a": {"$nin": [null, 0]}})"), (Ids{3, 5}));
}

TEST_F(CommandsTest, FindDottedPaths) {
  Insert(R"([{"_id": 1, "a": {"b": {"c": 1}}}, {"_id": 2, "a": {"b": {"c": 2}}},
             {"_id": 3, "a": {"b": 5}}, {"_id": 4, "a": 5},
             {"_id": 5, "arr": [10, 20, 30]}])",
         5);
  EXPECT_EQ(Match(R"({"a.b.c": 2})"), (Ids{2}));
  EXPECT_EQ(Match(R"({"a.b.c": {"$gte": 1}})"), (Ids{1, 2}));
  EXPECT_EQ(Match(R"({"a.b": 5})"), (Ids{3}));
  EXPECT_EQ(Match(R"({"a.b": {"c": 1}})"), (Ids{1}));
  EXPECT_EQ(Match(R"({"a.b.c": null})"), (Ids{3, 4, 5}));
  EXPECT_EQ(Match(R"({"arr.1": 20})"), (Ids{5}));
  EXPECT_EQ(Match(R"({"arr.1": 10})"), Ids{});
  EXPECT_EQ(Sorted(R"({"a.b.c": -1})", R"("filter": {"a.b.c": {"$gt": 0}})"),
            (Ids{2, 1}));
}

// ---- find: sort, limit, skip, projection
// -------------------------------------

TEST_F(CommandsTest, FindSortAscendingAndDescending) {
  Insert(R"([{"_id": 1, "a": 3}, {"_id": 2, "a": 1}, {"_id": 3, "a": 2},
             {"_id": 4, "a": 5}, {"_id": 5, "a": 4}])",
         5);
  EXPECT_EQ(Sorted(R"({"a": 1})"), (Ids{2, 3, 1, 5, 4}));
  EXPECT_EQ(Sorted(R"({"a": -1})"), (Ids{4, 5, 1, 3, 2}));
  EXPECT_EQ(Sorted(R"({"_id": -1})"), (Ids{5, 4, 3, 2, 1}));
}

TEST_F(CommandsTest, FindSortMissingFirstAndMultiKey) {
  Insert(R"([{"_id": 1, "a": 3, "b": "x"}, {"_id": 2, "a": 1, "b": "y"},
             {"_id": 3, "a": 2, "b": "x"}, {"_id": 4, "a": 1, "b": "z"},
             {"_id": 5, "b": "w"}])",
         5);
  // Missing sorts before numbers; ties keep insertion order.
  EXPECT_EQ(Sorted(R"({"a": 1})"), (Ids{5, 2, 4, 3, 1}));
  EXPECT_EQ(Sorted(R"({"a": 1, "b": -1})"), (Ids{5, 4, 2, 3, 1}));
  EXPECT_EQ(Sorted(R"({"b": 1, "a": -1})"), (Ids{5, 1, 3, 2, 4}));
  EXPECT_EQ(Sorted(R"({"a": -1, "b": 1})"), (Ids{1, 3, 2, 4, 5}));
}

TEST_F(CommandsTest, FindSortAcrossTypes) {
  Insert(R"([{"_id": 1, "a": "b"}, {"_id": 2, "a": 2}, {"_id": 3, "a": true},
             {"_id": 4, "a": null}, {"_id": 5, "a": {"x": 1}},
             {"_id": 6, "a": 1.5}])",
         6);
  // null < numbers < strings < objects < booleans, as MongoDB.
  EXPECT_EQ(Sorted(R"({"a": 1})"), (Ids{4, 6, 2, 1, 5, 3}));
}

// Subdocuments compare field by field, by value (as MongoDB): {x: 1} before
// {x: 256}, {x: "aa"} before {x: "b"}, and {x: 1} equal to {x: 1.0}.
TEST_F(CommandsTest, FindComparesSubdocumentsByFieldValues) {
  Insert(R"([{"_id": 1, "a": {"x": 256}}, {"_id": 2, "a": {"x": 1}},
             {"_id": 3, "a": {"x": 2}}])",
         3);
  EXPECT_EQ(Sorted(R"({"a": 1})"), (Ids{2, 3, 1}));
  EXPECT_EQ(Match(R"({"a": {"$gt": {"x": 1}}})"), (Ids{1, 3}));
  EXPECT_EQ(Match(R"({"a": {"x": 1.0}})"), (Ids{2}));
  Insert(R"([{"_id": 4, "b": {"x": "b"}}, {"_id": 5, "b": {"x": "aa"}}])", 2);
  EXPECT_EQ(Sorted(R"({"b": 1})", R"("filter": {"b": {"$ne": null}})"),
            (Ids{5, 4}));
}

TEST_F(CommandsTest, FindSortRefusesBadDirection) {
  Insert(R"([{"_id": 1, "a": 1}])", 1);
  Fails(R"({"find": "c", "sort": {"a": 2}})", 2, "BadValue");
  Fails(R"({"find": "c", "sort": {"a": "up"}})", 2, "BadValue");
  Fails(R"({"find": "c", "sort": "a"})", 14, "TypeMismatch");
}

TEST_F(CommandsTest, FindLimitAndSkip) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3},
             {"_id": 4, "a": 4}, {"_id": 5, "a": 5}])",
         5);
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("limit": 2)"), (Ids{1, 2}));
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("skip": 1, "limit": 2)"), (Ids{2, 3}));
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("skip": 3)"), (Ids{4, 5}));
  EXPECT_EQ(Sorted(R"({"a": -1})", R"("limit": 1)"), (Ids{5}));
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("limit": 0)"), (Ids{1, 2, 3, 4, 5}));
  // A negative limit is a limit, as in MongoDB.
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("limit": -2)"), (Ids{1, 2}));
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("skip": 10)"), Ids{});
  EXPECT_EQ(Sorted(R"({"a": 1})", R"("limit": {"$numberLong": "3"})"),
            (Ids{1, 2, 3}));
  Fails(R"({"find": "c", "skip": -1})", 2, "BadValue");
  Fails(R"({"find": "c", "limit": "x"})", 14, "TypeMismatch");
  Fails(R"({"find": "c", "limit": 1.5})", 14, "TypeMismatch");
}

TEST_F(CommandsTest, FindProjectionInclusion) {
  Insert(R"([{"_id": 1, "a": 1, "b": 2, "c": {"d": 3}}])", 1);
  std::vector<Document> docs =
      Find(R"("projection": {"a": 1}, "filter": {"_id": 1})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "a"}));
  EXPECT_EQ(Int(docs[0], "a"), 1);
  docs = Find(R"("projection": {"c": 1, "a": true, "_id": 0})");
  ASSERT_EQ(docs.size(), 1u);
  // Document order, not projection order.
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(Int(docs[0], "c.d"), 3);
  // Projecting a field that does not exist gives just _id.
  docs = Find(R"("projection": {"zzz": 1})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id"}));
}

TEST_F(CommandsTest, FindProjectionExclusion) {
  Insert(R"([{"_id": 1, "a": 1, "b": 2, "c": {"d": 3}}])", 1);
  std::vector<Document> docs = Find(R"("projection": {"a": 0})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "b", "c"}));
  docs = Find(R"("projection": {"a": 0, "c": false})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "b"}));
  docs = Find(R"("projection": {"_id": 0})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"a", "b", "c"}));
  // _id may be named in an exclusion projection.
  docs = Find(R"("projection": {"a": 0, "_id": 1})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "b", "c"}));
  docs = Find(R"("projection": {"a": 0, "_id": 0})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"b", "c"}));
}

// {_id: 1} alone is an inclusion projection (only _id), as in MongoDB.
TEST_F(CommandsTest, FindProjectionOfIdAloneReturnsOnlyId) {
  Insert(R"([{"_id": 1, "a": 1, "b": 2}])", 1);
  std::vector<Document> docs = Find(R"("projection": {"_id": 1})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id"}))
      << docs[0].ToJson();
}

TEST_F(CommandsTest, FindMixedProjectionIsAnError) {
  Insert(R"([{"_id": 1, "a": 1, "b": 2}])", 1);
  Document reply =
      Fails(R"({"find": "c", "projection": {"a": 1, "b": 0}})", 2, "BadValue");
  EXPECT_NE(Str(reply, "errmsg").find("exclusion"), std::string::npos)
      << reply.ToJson();
  Fails(R"({"find": "c", "projection": {"a": 0, "b": 1}})", 2, "BadValue");
  Fails(R"({"find": "c", "projection": 1})", 14, "TypeMismatch");
}

// ---- update -----------------------------------------------------------------

TEST_F(CommandsTest, UpdateSetReportsMatchedAndModified) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": 2}])", 2);
  Document reply = Ok(R"({"update": "c", "updates": [
      {"q": {"a": 1}, "u": {"$set": {"b": 2}}}]})");
  EXPECT_EQ(Keys(reply), (std::vector<std::string>{"n", "nModified", "ok"}));
  EXPECT_EQ(TypeAt(reply, "n"), BSON_TYPE_INT32);
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 1);
  Document doc = FindOne(1);
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"_id", "a", "b"}));
  EXPECT_EQ(Int(doc, "b"), 2);
  EXPECT_FALSE(Has(FindOne(2), "b"));
  // The same $set again matches but modifies nothing.
  reply = Ok(R"({"update": "c", "updates": [
      {"q": {"a": 1}, "u": {"$set": {"b": 2}}}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 0);
  // Overwriting an existing field keeps its position.
  Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
                                     "u": {"$set": {"a": "z"}}}]})");
  doc = FindOne(1);
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"_id", "a", "b"}));
  EXPECT_EQ(Str(doc, "a"), "z");
}

TEST_F(CommandsTest, UpdateNoMatchIsZero) {
  Insert(R"([{"_id": 1, "a": 1}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [
      {"q": {"a": 99}, "u": {"$set": {"b": 2}}}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  EXPECT_EQ(Int(reply, "nModified"), 0);
  reply = Ok(R"({"update": "missing", "updates": [
      {"q": {}, "u": {"$set": {"b": 2}}}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  EXPECT_EQ(Int(reply, "nModified"), 0);
}

TEST_F(CommandsTest, UpdateSetDottedPathCreatesSubdocuments) {
  Insert(R"([{"_id": 1, "a": 1, "c": {"d": 1, "e": 2}}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [
      {"q": {"_id": 1}, "u": {"$set": {"x.y.z": 5, "c.d": 4}}}]})");
  EXPECT_EQ(Int(reply, "nModified"), 1);
  Document doc = FindOne(1);
  EXPECT_EQ(TypeAt(doc, "x"), BSON_TYPE_DOCUMENT) << doc.ToJson();
  EXPECT_EQ(TypeAt(doc, "x.y"), BSON_TYPE_DOCUMENT) << doc.ToJson();
  EXPECT_EQ(Int(doc, "x.y.z"), 5);
  EXPECT_EQ(Int(doc, "c.d"), 4);
  EXPECT_EQ(Int(doc, "c.e"), 2);
  EXPECT_EQ(Int(doc, "a"), 1);
  EXPECT_EQ(Keys(Sub(doc, "c")), (std::vector<std::string>{"d", "e"}));
  EXPECT_EQ(Match(R"({"x.y.z": 5})"), (Ids{1}));
}

TEST_F(CommandsTest, UpdateSetWholeSubdocumentAndArrayElement) {
  Insert(R"([{"_id": 1, "c": {"d": 1}, "arr": [1, 2, 3]}])", 1);
  Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
       "u": {"$set": {"c": {"k": "v"}, "arr.1": 20}}}]})");
  Document doc = FindOne(1);
  EXPECT_EQ(Keys(Sub(doc, "c")), (std::vector<std::string>{"k"}));
  EXPECT_EQ(Str(doc, "c.k"), "v");
  EXPECT_EQ(Int(doc, "arr.0"), 1);
  EXPECT_EQ(Int(doc, "arr.1"), 20);
  EXPECT_EQ(Int(doc, "arr.2"), 3);
}

TEST_F(CommandsTest, UpdateArrayElementsPadAndUnsetToNull) {
  Insert(R"([{"_id": 1, "arr": [1, 2]}])", 1);
  Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
       "u": {"$set": {"arr.4": 5}}}]})");
  Document doc = FindOne(1);
  EXPECT_EQ(Keys(Sub(doc, "arr")),
            (std::vector<std::string>{"0", "1", "2", "3", "4"}));
  EXPECT_EQ(TypeAt(doc, "arr.2"), BSON_TYPE_NULL);
  EXPECT_EQ(TypeAt(doc, "arr.3"), BSON_TYPE_NULL);
  EXPECT_EQ(Int(doc, "arr.4"), 5);
  Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
       "u": {"$unset": {"arr.0": ""}}}]})");
  doc = FindOne(1);
  EXPECT_EQ(Keys(Sub(doc, "arr")).size(), 5u);
  EXPECT_EQ(TypeAt(doc, "arr.0"), BSON_TYPE_NULL);
  EXPECT_EQ(Int(doc, "arr.1"), 2);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
       "u": {"$set": {"arr.x": 1}}}]})");
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 28);
}

TEST_F(CommandsTest, UpdateSetThroughScalarIsPathNotViable) {
  Insert(R"([{"_id": 1, "a": 5}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [
      {"q": {"_id": 1}, "u": {"$set": {"a.b": 1}}}]})");
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 28);
  EXPECT_EQ(Str(errors[0], "codeName"), "PathNotViable");
  EXPECT_EQ(Int(reply, "n"), 0);
  EXPECT_EQ(Int(FindOne(1), "a"), 5);
}

TEST_F(CommandsTest, UpdateIncKeepsAndPromotesNumberTypes) {
  Insert(R"([{"_id": 1, "i": 5, "max": 2147483647, "min": -2147483648,
              "l": {"$numberLong": "5"}, "d": 1.5}])",
         1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$inc": {"i": 1, "max": 1, "min": -1, "l": 1, "d": 1,
                     "new": 3}}}]})");
  EXPECT_EQ(Int(reply, "nModified"), 1);
  Document doc = FindOne(1);
  EXPECT_EQ(TypeAt(doc, "i"), BSON_TYPE_INT32);
  EXPECT_EQ(Int(doc, "i"), 6);
  // int32 overflow promotes to int64.
  EXPECT_EQ(TypeAt(doc, "max"), BSON_TYPE_INT64);
  EXPECT_EQ(Int(doc, "max"), 2147483648LL);
  EXPECT_EQ(TypeAt(doc, "min"), BSON_TYPE_INT64);
  EXPECT_EQ(Int(doc, "min"), -2147483649LL);
  EXPECT_EQ(TypeAt(doc, "l"), BSON_TYPE_INT64);
  EXPECT_EQ(Int(doc, "l"), 6);
  EXPECT_EQ(TypeAt(doc, "d"), BSON_TYPE_DOUBLE);
  EXPECT_EQ(Num(doc, "d"), 2.5);
  // A missing field is created with the increment.
  EXPECT_EQ(TypeAt(doc, "new"), BSON_TYPE_INT32);
  EXPECT_EQ(Int(doc, "new"), 3);
  // A double increment makes a double; a negative one decrements.
  Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$inc": {"i": 0.5, "new": -5}}}]})");
  doc = FindOne(1);
  EXPECT_EQ(TypeAt(doc, "i"), BSON_TYPE_DOUBLE);
  EXPECT_EQ(Num(doc, "i"), 6.5);
  EXPECT_EQ(Int(doc, "new"), -2);
}

TEST_F(CommandsTest, UpdateIncInt64OverflowIsRefused) {
  Insert(R"([{"_id": 1, "a": {"$numberLong": "9223372036854775807"}}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$inc": {"a": 1}}}]})");
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 15);
  EXPECT_EQ(Int(FindOne(1), "a"), INT64_MAX);
}

TEST_F(CommandsTest, UpdateIncOnStringIsTypeMismatch) {
  Insert(R"([{"_id": 1, "a": "text", "b": 1}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$inc": {"b": 1, "a": 1}}}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  EXPECT_EQ(Int(reply, "nModified"), 0);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "index"), 0);
  EXPECT_EQ(Int(errors[0], "code"), 14);
  EXPECT_EQ(Str(errors[0], "codeName"), "TypeMismatch");
  // Nothing of the failed update is applied, not even the valid $inc.
  Document doc = FindOne(1);
  EXPECT_EQ(Str(doc, "a"), "text");
  EXPECT_EQ(Int(doc, "b"), 1);
  // A non-numeric increment is refused too.
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$inc": {"b": "x"}}}]})");
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 14);
  EXPECT_EQ(Int(FindOne(1), "b"), 1);
}

TEST_F(CommandsTest, UpdateUnset) {
  Insert(R"([{"_id": 1, "a": 1, "b": 2, "c": {"d": 1, "e": 2}}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$unset": {"a": "", "c.d": 1}}}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 1);
  Document doc = FindOne(1);
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"_id", "b", "c"}));
  EXPECT_EQ(Keys(Sub(doc, "c")), (std::vector<std::string>{"e"}));
  // Unsetting a field that is not there modifies nothing.
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$unset": {"a": "", "x.y": ""}}}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 0);
}

TEST_F(CommandsTest, UpdateReplacementKeepsId) {
  Insert(R"([{"_id": 1, "a": 1, "b": 2}, {"_id": "s", "a": 1}])", 2);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"c": 3, "d": {"e": 4}}}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 1);
  Document doc = FindOne(1);
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"_id", "c", "d"}));
  EXPECT_EQ(Int(doc, "c"), 3);
  // Repeating the same _id in the replacement is allowed.
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": "s"},
      "u": {"z": 1, "_id": "s"}}]})");
  EXPECT_EQ(Int(reply, "nModified"), 1);
  EXPECT_FALSE(Has(reply, "writeErrors"));
  std::vector<Document> docs = Find(R"("filter": {"_id": "s"})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Keys(docs[0]), (std::vector<std::string>{"_id", "z"}));
}

TEST_F(CommandsTest, UpdateChangingIdIsImmutableField) {
  Insert(R"([{"_id": 1, "a": 1}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"_id": 2, "a": 5}}]})");
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 66);
  EXPECT_EQ(Str(errors[0], "codeName"), "ImmutableField");
  EXPECT_EQ(Int(reply, "nModified"), 0);
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$set": {"_id": 2}}}]})");
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 66);
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$unset": {"_id": ""}}}]})");
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 66);
  EXPECT_EQ(Match("{}"), (Ids{1}));
  EXPECT_EQ(Int(FindOne(1), "a"), 1);
}

TEST_F(CommandsTest, UpdateMultiFalseAndTrue) {
  Insert(R"([{"_id": 1, "g": 1}, {"_id": 2, "g": 1}, {"_id": 3, "g": 1},
             {"_id": 4, "g": 2}])",
         4);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"g": 1},
      "u": {"$set": {"f": true}}, "multi": false}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 1);
  EXPECT_EQ(Match(R"({"f": true})").size(), 1u);
  // multi defaults to false.
  reply = Ok(R"({"update": "c", "updates": [{"q": {"g": 1},
      "u": {"$inc": {"k": 1}}}]})");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Match(R"({"k": 1})").size(), 1u);
  reply = Ok(R"({"update": "c", "updates": [{"q": {"g": 1},
      "u": {"$set": {"f": true}}, "multi": true}]})");
  EXPECT_EQ(Int(reply, "n"), 3);
  EXPECT_EQ(Int(reply, "nModified"), 2);
  EXPECT_EQ(Match(R"({"f": true})"), (Ids{1, 2, 3}));
}

TEST_F(CommandsTest, UpdateSeveralStatementsSumCounts) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": 1}, {"_id": 3, "a": 1}])", 3);
  Document reply = Ok(R"({"update": "c", "updates": [
      {"q": {"_id": 1}, "u": {"$inc": {"a": 1}}},
      {"q": {"_id": {"$gte": 2}}, "u": {"$set": {"a": 1}}, "multi": true},
      {"q": {"_id": 3}, "u": {"$inc": {"a": 1}}}]})");
  EXPECT_EQ(Int(reply, "n"), 4);
  EXPECT_EQ(Int(reply, "nModified"), 2);
}

TEST_F(CommandsTest, UpdateMultiFailureHasNoPartialEffect) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": "x"}, {"_id": 3, "a": 3}])",
         3);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {},
      "u": {"$inc": {"a": 1}}, "multi": true}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  EXPECT_EQ(Int(reply, "nModified"), 0);
  ASSERT_EQ(DocArray(reply, "writeErrors").size(), 1u);
  EXPECT_EQ(Int(FindOne(1), "a"), 1);
  EXPECT_EQ(Int(FindOne(3), "a"), 3);
}

TEST_F(CommandsTest, UpdateOrderedStopsAndUnorderedContinues) {
  Insert(R"([{"_id": 1, "a": "x"}, {"_id": 2, "a": 2}])", 2);
  const char* updates = R"("updates": [
      {"q": {"_id": 1}, "u": {"$inc": {"a": 1}}},
      {"q": {"_id": 2}, "u": {"$inc": {"a": 1}}}])";
  Document reply = Ok(std::string(R"({"update": "c", )") + updates + "}");
  EXPECT_EQ(Int(reply, "n"), 0);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(Int(errors[0], "index"), 0);
  EXPECT_EQ(Int(FindOne(2), "a"), 2);
  reply =
      Ok(std::string(R"({"update": "c", "ordered": false, )") + updates + "}");
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Int(reply, "nModified"), 1);
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(Int(errors[0], "index"), 0);
  EXPECT_EQ(Int(FindOne(2), "a"), 3);
}

TEST_F(CommandsTest, UpdateUnknownOperatorIsAnError) {
  Insert(R"([{"_id": 1, "a": [1]}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$push": {"a": 2}}}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 2);
  EXPECT_EQ(Str(errors[0], "codeName"), "BadValue");
  EXPECT_NE(Str(errors[0], "errmsg").find("$push"), std::string::npos);
  // Mixing operators and plain fields is refused as well.
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$set": {"b": 1}, "c": 2}}]})");
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 2);
  // An operator with a non-document argument.
  reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1},
      "u": {"$set": 5}}]})");
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 14);
  Document doc = FindOne(1);
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"_id", "a"}));
}

TEST_F(CommandsTest, UpdateRefusesMalformedStatements) {
  Insert(R"([{"_id": 1}])", 1);
  Document reply = Ok(R"({"update": "c", "updates": [{"q": {"_id": 1}}]})");
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 2);
  reply = Ok(R"({"update": "c", "updates": [{"q": {}, "u": {"$set": {"a": 1}},
                                             "upsert": true}]})");
  errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 2);
  EXPECT_FALSE(Has(FindOne(1), "a"));
  Fails(R"({"update": "c", "updates": {"q": {}}})", 14, "TypeMismatch");
  Fails(R"({"update": "c"})", 14, "TypeMismatch");
}

// ---- delete -----------------------------------------------------------------

TEST_F(CommandsTest, DeleteWithLimitOneAndZero) {
  Insert(R"([{"_id": 1, "g": 1}, {"_id": 2, "g": 1}, {"_id": 3, "g": 1},
             {"_id": 4, "g": 2}, {"_id": 5, "g": 2}])",
         5);
  Document reply =
      Ok(R"({"delete": "c", "deletes": [{"q": {"g": 1}, "limit": 1}]})");
  EXPECT_EQ(Keys(reply), (std::vector<std::string>{"n", "ok"}));
  EXPECT_EQ(Int(reply, "n"), 1);
  EXPECT_EQ(Match(R"({"g": 1})").size(), 2u);
  EXPECT_EQ(Match(R"({"g": 2})"), (Ids{4, 5}));
  reply = Ok(R"({"delete": "c", "deletes": [{"q": {"g": 1}, "limit": 0}]})");
  EXPECT_EQ(Int(reply, "n"), 2);
  EXPECT_EQ(Match("{}"), (Ids{4, 5}));
  reply = Ok(R"({"delete": "c", "deletes": [{"q": {"g": 7}, "limit": 0}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
  reply = Ok(R"({"delete": "c", "deletes": [{"q": {"_id": 4}, "limit": 1},
                                            {"q": {}, "limit": 0}]})");
  EXPECT_EQ(Int(reply, "n"), 2);
  EXPECT_EQ(Match("{}"), Ids{});
}

TEST_F(CommandsTest, DeleteRefusesBadArguments) {
  Insert(R"([{"_id": 1}])", 1);
  Document reply = Ok(R"({"delete": "c", "deletes": [{"q": {}, "limit": 2}]})");
  std::vector<Document> errors = DocArray(reply, "writeErrors");
  ASSERT_EQ(errors.size(), 1u) << reply.ToJson();
  EXPECT_EQ(Int(errors[0], "code"), 2);
  reply = Ok(R"({"delete": "c", "deletes": [{"limit": 0}]})");
  ASSERT_EQ(DocArray(reply, "writeErrors").size(), 1u);
  EXPECT_EQ(Int(reply, "n"), 0);
  EXPECT_EQ(Match("{}"), (Ids{1}));
  Fails(R"({"delete": "c", "deletes": "x"})", 14, "TypeMismatch");
  reply = Ok(R"({"delete": "missing", "deletes": [{"q": {}, "limit": 0}]})");
  EXPECT_EQ(Int(reply, "n"), 0);
}

// ---- drop, indexes, listCollections
// ------------------------------------------

TEST_F(CommandsTest, DropReportsIndexesThenNamespaceNotFound) {
  Ok(R"({"create": "c"})");
  Ok(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]})");
  Insert(R"([{"_id": 1, "a": 1}])", 1);
  Document reply = Ok(R"({"drop": "c"})");
  EXPECT_EQ(TypeAt(reply, "nIndexesWas"), BSON_TYPE_INT32);
  EXPECT_EQ(Int(reply, "nIndexesWas"), 2);
  EXPECT_EQ(Str(reply, "ns"), "db.c");
  Document again = Fails(R"({"drop": "c"})", 26, "NamespaceNotFound");
  EXPECT_NE(Str(again, "errmsg").find("db.c"), std::string::npos);
  Document list = Ok(R"({"listCollections": 1})");
  EXPECT_TRUE(DocArray(list, "cursor.firstBatch").empty());
  EXPECT_TRUE(Find().empty());
  // A new collection of the same name starts empty, with only _id_.
  Insert(R"([{"_id": 2}])", 1);
  EXPECT_EQ(Match("{}"), (Ids{2}));
  Document indexes = Ok(R"({"listIndexes": "c"})");
  EXPECT_EQ(DocArray(indexes, "cursor.firstBatch").size(), 1u);
  Fails(R"({"drop": 1})", 14, "TypeMismatch");
}

TEST_F(CommandsTest, CreateIndexesReplyShape) {
  Document reply = Ok(
      R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]})");
  EXPECT_TRUE(Bool(reply, "createdCollectionAutomatically"));
  EXPECT_EQ(Int(reply, "numIndexesBefore"), 1);
  EXPECT_EQ(Int(reply, "numIndexesAfter"), 2);
  // The same index again is a no-op.
  reply = Ok(
      R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]})");
  EXPECT_FALSE(Bool(reply, "createdCollectionAutomatically"));
  EXPECT_EQ(Int(reply, "numIndexesBefore"), 2);
  EXPECT_EQ(Int(reply, "numIndexesAfter"), 2);
  reply = Ok(R"({"createIndexes": "c", "indexes": [
      {"key": {"b": 1, "c": -1}, "unique": true}, {"key": {"d": -1}}]})");
  EXPECT_EQ(Int(reply, "numIndexesBefore"), 2);
  EXPECT_EQ(Int(reply, "numIndexesAfter"), 4);
}

TEST_F(CommandsTest, CreateIndexesRefusesBadSpecs) {
  Ok(R"({"create": "c"})");
  Fails(R"({"createIndexes": "c", "indexes": [{"key": {"a": "text"}}]})", 2,
        "BadValue");
  Fails(R"({"createIndexes": "c", "indexes": [{"key": {"a": 2}}]})", 2,
        "BadValue");
  Fails(R"({"createIndexes": "c", "indexes": [{"key": {}}]})", 2, "BadValue");
  Fails(R"({"createIndexes": "c", "indexes": [{"name": "x"}]})", 2, "BadValue");
  Fails(R"({"createIndexes": "c", "indexes": {"key": {"a": 1}}})", 14,
        "TypeMismatch");
  // Same name, other keys.
  Ok(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "x"}]})");
  Fails(
      R"({"createIndexes": "c", "indexes": [{"key": {"b": 1}, "name": "x"}]})",
      2, "BadValue");
  // A failing batch creates none of its indexes.
  Fails(R"({"createIndexes": "c", "indexes": [{"key": {"e": 1}},
                                              {"key": {"f": 5}}]})",
        2, "BadValue");
  Document list = Ok(R"({"listIndexes": "c"})");
  EXPECT_EQ(DocArray(list, "cursor.firstBatch").size(), 2u) << list.ToJson();
  // A failing createIndexes does not leave its collection behind.
  Fails(R"({"createIndexes": "c2", "indexes": [{"key": {"a": 3}}]})", 2,
        "BadValue");
  list = Ok(R"({"listCollections": 1})");
  EXPECT_EQ(DocArray(list, "cursor.firstBatch").size(), 1u) << list.ToJson();
}

TEST_F(CommandsTest, CreateUniqueIndexOnDuplicatesFails) {
  Insert(R"([{"_id": 1, "a": 1}, {"_id": 2, "a": 1}])", 2);
  Fails(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
                                              "unique": true}]})",
        11000, "DuplicateKey");
  Document list = Ok(R"({"listIndexes": "c"})");
  EXPECT_EQ(DocArray(list, "cursor.firstBatch").size(), 1u);
}

TEST_F(CommandsTest, ListIndexesReplyShape) {
  Ok(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "by_a"},
      {"key": {"b": 1, "c": -1}, "unique": true}]})");
  Document reply = Ok(R"({"listIndexes": "c"})");
  EXPECT_EQ(Str(reply, "cursor.ns"), "db.c");
  std::vector<Document> specs = DocArray(reply, "cursor.firstBatch");
  ASSERT_EQ(specs.size(), 3u) << reply.ToJson();
  EXPECT_EQ(Str(specs[0], "name"), "_id_");
  EXPECT_EQ(Int(specs[0], "v"), 2);
  EXPECT_EQ(Keys(Sub(specs[0], "key")), std::vector<std::string>{"_id"});
  EXPECT_EQ(Int(specs[0], "key._id"), 1);
  // MongoDB lists the _id index without "unique".
  EXPECT_EQ(Str(specs[1], "name"), "by_a");
  EXPECT_EQ(Int(specs[1], "key.a"), 1);
  EXPECT_FALSE(Has(specs[1], "unique"));
  EXPECT_EQ(Str(specs[2], "name"), "b_1_c_-1");
  EXPECT_EQ(Keys(Sub(specs[2], "key")), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(Int(specs[2], "key.c"), -1);
  EXPECT_TRUE(Bool(specs[2], "unique"));
  Fails(R"({"listIndexes": "missing"})", 26, "NamespaceNotFound");
}

TEST_F(CommandsTest, DropIndexes) {
  Ok(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}},
                                           {"key": {"b": -1}}]})");
  Document reply = Ok(R"({"dropIndexes": "c", "index": "a_1"})");
  Document list = Ok(R"({"listIndexes": "c"})");
  std::vector<Document> specs = DocArray(list, "cursor.firstBatch");
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(Str(specs[0], "name"), "_id_");
  EXPECT_EQ(Str(specs[1], "name"), "b_-1");
  Fails(R"({"dropIndexes": "c", "index": "a_1"})", 27, "IndexNotFound");
  Fails(R"({"dropIndexes": "c", "index": "_id_"})", 20, "IllegalOperation");
  Fails(R"({"dropIndexes": "missing", "index": "a_1"})", 26,
        "NamespaceNotFound");
  Fails(R"({"dropIndexes": "c", "index": 1})", 14, "TypeMismatch");
  list = Ok(R"({"listIndexes": "c"})");
  EXPECT_EQ(DocArray(list, "cursor.firstBatch").size(), 2u);
  // The dropped index can be created again.
  reply = Ok(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1}}]})");
  EXPECT_EQ(Int(reply, "numIndexesAfter"), 3);
}

TEST_F(CommandsTest, ListCollectionsNamesAndOptions) {
  Ok(R"({"create": "b"})");
  Ok(R"({"create": "a", "autoincrement": "n"})");
  Ok(R"({"create": "z.y", "autoincrement": ["p", "q"]})");
  Ok(R"({"insert": "m", "documents": [{}]})");
  Ok(R"({"create": "elsewhere"})", "other");
  Document reply = Ok(R"({"listCollections": 1})");
  EXPECT_EQ(Str(reply, "cursor.ns"), "db.$cmd.listCollections");
  EXPECT_EQ(Int(reply, "cursor.id"), 0);
  std::vector<Document> colls = DocArray(reply, "cursor.firstBatch");
  ASSERT_EQ(colls.size(), 4u) << reply.ToJson();
  std::vector<std::string> names;
  for (const auto& c : colls) {
    names.push_back(Str(c, "name"));
    EXPECT_EQ(Str(c, "type"), "collection");
    EXPECT_EQ(TypeAt(c, "options"), BSON_TYPE_DOCUMENT);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "m", "z.y"}));
  EXPECT_EQ(StrArray(colls[0], "options.autoincrement"),
            std::vector<std::string>{"n"});
  EXPECT_TRUE(Keys(Sub(colls[1], "options")).empty());
  EXPECT_TRUE(Keys(Sub(colls[2], "options")).empty());
  EXPECT_EQ(StrArray(colls[3], "options.autoincrement"),
            (std::vector<std::string>{"p", "q"}));
  Document other = Ok(R"({"listCollections": 1})", "other");
  std::vector<Document> other_colls = DocArray(other, "cursor.firstBatch");
  ASSERT_EQ(other_colls.size(), 1u);
  EXPECT_EQ(Str(other_colls[0], "name"), "elsewhere");
  EXPECT_TRUE(
      DocArray(Ok(R"({"listCollections": 1})", "empty"), "cursor.firstBatch")
          .empty());
  // admin holds the counters collection.
  Document admin = Ok(R"({"listCollections": 1})", "admin");
  std::vector<Document> admin_colls = DocArray(admin, "cursor.firstBatch");
  ASSERT_FALSE(admin_colls.empty());
  bool counters = false;
  for (const auto& c : admin_colls) counters |= Str(c, "name") == "counters";
  EXPECT_TRUE(counters) << admin.ToJson();
}

// ---- errors
// -------------------------------------------------------------------

TEST_F(CommandsTest, UnknownCommandIsCommandNotFound) {
  Document reply = Fails(R"({"frobnicate": "c"})", 59, "CommandNotFound");
  EXPECT_NE(Str(reply, "errmsg").find("frobnicate"), std::string::npos);
  EXPECT_EQ(Keys(reply),
            (std::vector<std::string>{"ok", "errmsg", "code", "codeName"}));
  Fails("{}", 2, "BadValue");
}

TEST_F(CommandsTest, InvalidJsonIsFailedToParse) {
  Fails(R"({"insert": )", 9, "FailedToParse");
  Fails("not json at all", 9, "FailedToParse");
  Fails(R"({"find": "c", "filter": {"a": }})", 9, "FailedToParse");
  // Nothing was created by the failed commands.
  Document list = Ok(R"({"listCollections": 1})");
  EXPECT_TRUE(DocArray(list, "cursor.firstBatch").empty());
}

TEST_F(CommandsTest, WrongArgumentTypesAreTypeMismatch) {
  Document reply =
      Fails(R"({"insert": "c", "documents": {"a": 1}})", 14, "TypeMismatch");
  EXPECT_NE(Str(reply, "errmsg").find("documents"), std::string::npos);
  Fails(R"({"insert": "c"})", 14, "TypeMismatch");
  Fails(R"({"insert": 5, "documents": []})", 14, "TypeMismatch");
  Fails(R"({"find": 5})", 14, "TypeMismatch");
  Fails(R"({"find": "c", "filter": 5})", 14, "TypeMismatch");
  Fails(R"({"find": "c", "filter": [1]})", 14, "TypeMismatch");
  Fails(R"({"create": 1})", 14, "TypeMismatch");
  Fails(R"({"listIndexes": true})", 14, "TypeMismatch");
  // None of these created a collection.
  Document list = Ok(R"({"listCollections": 1})");
  EXPECT_TRUE(DocArray(list, "cursor.firstBatch").empty()) << list.ToJson();
}

TEST_F(CommandsTest, FindFilterNullMeansNoFilter) {
  Insert(R"([{"_id": 1}, {"_id": 2}])", 2);
  EXPECT_EQ(IdsOf(Find(R"("filter": null, "sort": {"_id": 1})")), (Ids{1, 2}));
}

// ---- RunCommand and JSON modes --------------------------------------------

TEST_F(CommandsTest, RunCommandWithBson) {
  bson_t* cmd = BCON_NEW("insert", BCON_UTF8("c"), "documents", "[", "{", "_id",
                         BCON_INT32(1), "v", BCON_INT64(7), "}", "]");
  Document reply = session_->RunCommand("db", cmd);
  bson_destroy(cmd);
  EXPECT_EQ(TypeAt(reply, "ok"), BSON_TYPE_DOUBLE);
  EXPECT_EQ(Num(reply, "ok"), 1.0);
  EXPECT_EQ(Int(reply, "n"), 1);
  bson_t* find = BCON_NEW("find", BCON_UTF8("c"));
  reply = session_->RunCommand("db", find);
  bson_destroy(find);
  std::vector<Document> docs = DocArray(reply, "cursor.firstBatch");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(TypeAt(docs[0], "v"), BSON_TYPE_INT64);
  EXPECT_EQ(Int(docs[0], "v"), 7);
}

TEST_F(CommandsTest, CanonicalJsonShowsNumberTypes) {
  std::string insert = session_->RunCommandJson(
      "db",
      R"({"insert": "c", "documents": [{"_id": 1, "i": 1,
          "l": {"$numberLong": "1"}, "big": 3000000000, "d": 1.5}]})",
      JsonMode::kCanonical);
  EXPECT_NE(insert.find(R"("n" : { "$numberInt" : "1" })"), std::string::npos)
      << insert;
  EXPECT_NE(insert.find(R"("ok" : { "$numberDouble" : "1.0" })"),
            std::string::npos)
      << insert;
  std::string canonical =
      session_->RunCommandJson("db", R"({"find": "c"})", JsonMode::kCanonical);
  EXPECT_NE(canonical.find(R"("i" : { "$numberInt" : "1" })"),
            std::string::npos)
      << canonical;
  EXPECT_NE(canonical.find(R"("l" : { "$numberLong" : "1" })"),
            std::string::npos)
      << canonical;
  EXPECT_NE(canonical.find(R"("big" : { "$numberLong" : "3000000000" })"),
            std::string::npos)
      << canonical;
  EXPECT_NE(canonical.find(R"("d" : { "$numberDouble" : "1.5" })"),
            std::string::npos)
      << canonical;
  std::string relaxed =
      session_->RunCommandJson("db", R"({"find": "c"})", JsonMode::kRelaxed);
  EXPECT_EQ(relaxed.find("$number"), std::string::npos) << relaxed;
  EXPECT_NE(relaxed.find(R"("i" : 1)"), std::string::npos) << relaxed;
  EXPECT_NE(relaxed.find(R"("l" : 1)"), std::string::npos) << relaxed;
  // The default mode is relaxed.
  EXPECT_EQ(session_->RunCommandJson("db", R"({"find": "c"})"), relaxed);
  // Error replies are JSON in both modes.
  std::string error =
      session_->RunCommandJson("db", "{bad", JsonMode::kCanonical);
  EXPECT_NE(error.find(R"("code" : { "$numberInt" : "9" })"), std::string::npos)
      << error;
}

}  // namespace
}  // namespace kova::docstore
