// The counter rules of the seed (kova-autoincrement.txt) and DESIGN.md
// section 3, rules 1-4 and 7, one test per rule or error.
#include <limits>
#include <set>
#include <thread>

#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

class CounterTest : public StoreTest {
 protected:
  void CreateOrders(const std::string& autoincrement = "\"id\"") {
    Document reply = Run(
        "shop",
        "{\"create\": \"orders\", \"autoincrement\": " + autoincrement + "}");
    ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  }
  int64_t InsertedId(const std::string& json, const char* field = "id") {
    Document stored = Insert("shop", "orders", json);
    return IntOf(stored, field);
  }
  int64_t Last(const std::string& id = "shop.orders.id") {
    auto row = Counter(id);
    EXPECT_TRUE(row.has_value()) << "no counter " << id;
    return row ? IntOf(*row, "last") : INT64_MIN;
  }
};

// Rule 1: create writes {_id, collection, field, last: 0} and nothing else.
TEST_F(CounterTest, CreateWritesCounterRow) {
  CreateOrders();
  auto rows = Find("admin", "counters", R"({"collection": "shop.orders"})");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].ToJson(JsonMode::kCanonical),
            R"({ "_id" : "shop.orders.id", "collection" : "shop.orders", )"
            R"("field" : "id", "last" : { "$numberInt" : "0" } })");
}

// Rule 1: a unique index on the field is added...
TEST_F(CounterTest, CreateAddsUniqueIndex) {
  CreateOrders();
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "id_1");
  EXPECT_TRUE(indexes[1].unique);
  ASSERT_EQ(indexes[1].keys.size(), 1u);
  EXPECT_EQ(indexes[1].keys[0].first, "id");
}

// ... unless an index already covers exactly that field.
TEST_F(CounterTest, ExistingIndexOnExactlyTheFieldIsKept) {
  ASSERT_TRUE(session_->CreateCollection("shop", "orders", {}).ok());
  ASSERT_TRUE(session_
                  ->CreateIndex("shop", "orders",
                                IndexSpec{"orders_pkey", {{"id", 1}}, true})
                  .ok());
  // A compound index does not cover the field exactly.
  ASSERT_TRUE(
      session_
          ->CreateIndex("shop", "orders",
                        IndexSpec{"id_sku", {{"id", 1}, {"sku", 1}}, false})
          .ok());
  ASSERT_TRUE(session_->AddAutoincrement("shop", "orders", "id", {}).ok());
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  EXPECT_EQ(indexes.size(), 3u);  // _id_, orders_pkey, id_sku: no id_1
  EXPECT_EQ(InsertedId(R"({"sku": "a"})"), 1);
  Status s;
  Insert("shop", "orders", R"({"sku": "b", "id": 1})", &s);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_NE(s.message().find("index: orders_pkey dup key: { id: 1 }"),
            std::string::npos)
      << s.message();
}

TEST_F(CounterTest, CompoundIndexDoesNotCoverTheField) {
  ASSERT_TRUE(session_->CreateCollection("shop", "orders", {}).ok());
  ASSERT_TRUE(
      session_
          ->CreateIndex("shop", "orders",
                        IndexSpec{"id_sku", {{"id", 1}, {"sku", 1}}, true})
          .ok());
  ASSERT_TRUE(session_->AddAutoincrement("shop", "orders", "id", {}).ok());
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  ASSERT_EQ(indexes.size(), 3u);
  EXPECT_EQ(indexes[2].name, "id_1");
  EXPECT_TRUE(indexes[2].unique);
}

// Rule 2: an omitted field stores last + 1 and advances last.
TEST_F(CounterTest, OmittedFieldGetsNextValue) {
  CreateOrders();
  Document first = Insert("shop", "orders", R"({"sku": "kettle"})");
  EXPECT_EQ(IntOf(first, "id"), 1);
  EXPECT_EQ(TypeOf(first, "id"), BSON_TYPE_INT32);
  EXPECT_EQ(TypeOf(first, "_id"), BSON_TYPE_OID);
  EXPECT_EQ(Last(), 1);
  EXPECT_EQ(InsertedId(R"({"sku": "mug"})"), 2);
  EXPECT_EQ(Last(), 2);
  // Stored as the document says.
  auto docs = Find("shop", "orders", R"({"sku": "mug"})");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(IntOf(docs[0], "id"), 2);
}

// Rule 2: int32 while it fits, int64 after; the counter row too.
TEST_F(CounterTest, Int32ThenInt64) {
  CreateOrders();
  SetLast("shop.orders.id", "2147483646");
  Document a = Insert("shop", "orders", R"({"sku": "a"})");
  Document b = Insert("shop", "orders", R"({"sku": "b"})");
  EXPECT_EQ(IntOf(a, "id"), 2147483647);
  EXPECT_EQ(TypeOf(a, "id"), BSON_TYPE_INT32);
  EXPECT_EQ(IntOf(b, "id"), 2147483648);
  EXPECT_EQ(TypeOf(b, "id"), BSON_TYPE_INT64);
  auto row = Counter("shop.orders.id");
  ASSERT_TRUE(row);
  EXPECT_EQ(TypeOf(*row, "last"), BSON_TYPE_INT64);
  // Lookups by value work across the int32/int64 types.
  EXPECT_EQ(Find("shop", "orders", R"({"id": 2147483648})").size(), 1u);
  EXPECT_EQ(
      Find("shop", "orders", R"({"id": {"$numberLong": "2147483647"}})").size(),
      1u);
}

// Rule 3: a sent value is kept; higher moves last, lower leaves it.
TEST_F(CounterTest, SentValueKeptAndMovesCounterUp) {
  CreateOrders();
  InsertedId(R"({"sku": "kettle"})");
  InsertedId(R"({"sku": "mug"})");
  EXPECT_EQ(InsertedId(R"({"sku": "bowl", "id": 50})"), 50);
  EXPECT_EQ(Last(), 50);
  EXPECT_EQ(InsertedId(R"({"sku": "cup"})"), 51);
  EXPECT_EQ(InsertedId(R"({"sku": "low", "id": 7})"), 7);
  EXPECT_EQ(Last(), 51);
  EXPECT_EQ(InsertedId(R"({"sku": "next"})"), 52);
}

TEST_F(CounterTest, SentDoubleAndNonIntegerValues) {
  CreateOrders();
  Document d = Insert("shop", "orders", R"({"id": 60.0})");
  EXPECT_EQ(TypeOf(d, "id"), BSON_TYPE_DOUBLE);  // kept as sent
  EXPECT_EQ(Last(), 60);
  Document s = Insert("shop", "orders", R"({"id": "A-7"})");
  EXPECT_EQ(TypeOf(s, "id"), BSON_TYPE_UTF8);
  Insert("shop", "orders", R"({"id": 70.5})");
  EXPECT_EQ(Last(), 60);  // neither a string nor 70.5 is a counter value
  EXPECT_EQ(InsertedId("{}"), 61);
}

// Rule 3: the unique index refuses a duplicate, naming index and key, and
// the refused value does not move the counter.
TEST_F(CounterTest, DuplicateRefusedByUniqueIndex) {
  CreateOrders();
  InsertedId(R"({"id": 50})");
  SetLast("shop.orders.id", "10");
  Status s;
  Insert("shop", "orders", R"({"sku": "dup", "id": 50})", &s);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: shop.orders index: id_1 "
            "dup key: { id: 50 }");
  EXPECT_EQ(Last(), 10);
  EXPECT_EQ(Find("shop", "orders", R"({"sku": "dup"})").size(), 0u);
  // Through the command API: a writeError with code 11000.
  Document reply =
      Run("shop", R"({"insert": "orders", "documents": [{"id": 50}]})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_NE(reply.ToJson().find("\"code\" : 11000"), std::string::npos)
      << reply.ToJson();
}

// Rule 3: an update that sets the field beyond last moves it too.
TEST_F(CounterTest, UpdateBeyondLastMovesCounter) {
  CreateOrders();
  InsertedId(R"({"sku": "a"})");
  Document reply = Run("shop", R"({"update": "orders", "updates": [
      {"q": {"sku": "a"}, "u": {"$set": {"id": 100}}}]})");
  ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  EXPECT_EQ(Last(), 100);
  reply = Run("shop", R"({"update": "orders", "updates": [
      {"q": {"sku": "a"}, "u": {"$inc": {"id": 5}}}]})");
  ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  EXPECT_EQ(Last(), 105);
  reply = Run("shop", R"({"update": "orders", "updates": [
      {"q": {"sku": "a"}, "u": {"$set": {"id": 3}}}]})");
  ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  EXPECT_EQ(Last(), 105);  // lower: stays
  EXPECT_EQ(InsertedId(R"({"sku": "b"})"), 106);
}

// Rule 4: last is ordinary data; an edit takes effect on the next insert.
TEST_F(CounterTest, EditedLastTakesEffect) {
  CreateOrders();
  InsertedId("{}");
  SetLast("shop.orders.id", "10");
  EXPECT_EQ(InsertedId("{}"), 11);
  SetLast("shop.orders.id", "500");
  EXPECT_EQ(InsertedId("{}"), 501);
}

TEST_F(CounterTest, EditSurvivesRestart) {
  CreateOrders();
  SetLast("shop.orders.id", "41");
  Reopen();
  EXPECT_EQ(Last(), 41);
  EXPECT_EQ(InsertedId("{}"), 42);
  Reopen();
  EXPECT_EQ(InsertedId("{}"), 43);
}

// Counter rows are validated: last must stay an integer.
TEST_F(CounterTest, NonIntegerLastRefused) {
  CreateOrders();
  Document reply = Run("admin", R"({"update": "counters", "updates": [
      {"q": {"_id": "shop.orders.id"}, "u": {"$set": {"last": "ten"}}}]})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_NE(reply.ToJson().find("must be an integer"), std::string::npos)
      << reply.ToJson();
  reply = Run("admin", R"({"update": "counters", "updates": [
      {"q": {"_id": "shop.orders.id"}, "u": {"$set": {"last": 2.5}}}]})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_EQ(Last(), 0);
  // An integral double is accepted and stored as an integer.
  SetLast("shop.orders.id", "7.0");
  auto row = Counter("shop.orders.id");
  EXPECT_EQ(TypeOf(*row, "last"), BSON_TYPE_INT32);
  EXPECT_EQ(InsertedId("{}"), 8);
}

// Rule 7: a deleted counter row is recreated from the highest stored value.
TEST_F(CounterTest, DeletedCounterRecreatedFromHighestValue) {
  CreateOrders();
  InsertedId("{}");
  InsertedId(R"({"id": 40})");
  InsertedId(R"({"id": "text sorts after numbers"})");
  Document reply = Run("admin", R"({"delete": "counters", "deletes": [
      {"q": {"_id": "shop.orders.id"}, "limit": 1}]})");
  ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  EXPECT_FALSE(Counter("shop.orders.id").has_value());
  EXPECT_EQ(InsertedId("{}"), 41);
  auto row = Counter("shop.orders.id");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->ToJson(JsonMode::kCanonical),
            R"({ "_id" : "shop.orders.id", "collection" : "shop.orders", )"
            R"("field" : "id", "last" : { "$numberInt" : "41" } })");
}

TEST_F(CounterTest, DeletedCounterOnEmptyCollectionStartsAtOne) {
  CreateOrders();
  Run("admin", R"({"delete": "counters", "deletes": [{"q": {}, "limit": 0}]})");
  EXPECT_EQ(InsertedId("{}"), 1);
}

// Rule 7: a counter reset below its start resumes from the highest value.
TEST_F(CounterTest, ResetBelowStartResumesFromHighest) {
  CreateOrders();
  for (int i = 0; i < 5; i++) InsertedId("{}");
  SetLast("shop.orders.id", "-3");
  EXPECT_EQ(InsertedId("{}"), 6);
  SetLast("shop.orders.id", "0");
  EXPECT_EQ(InsertedId("{}"), 7);
}

// Several autoincrement fields per collection, each with its own counter.
TEST_F(CounterTest, SeveralFields) {
  CreateOrders(R"(["id", "ticket"])");
  EXPECT_TRUE(Counter("shop.orders.id"));
  EXPECT_TRUE(Counter("shop.orders.ticket"));
  Document a = Insert("shop", "orders", "{}");
  EXPECT_EQ(IntOf(a, "id"), 1);
  EXPECT_EQ(IntOf(a, "ticket"), 1);
  Document b = Insert("shop", "orders", R"({"ticket": 900})");
  EXPECT_EQ(IntOf(b, "id"), 2);
  EXPECT_EQ(IntOf(b, "ticket"), 900);
  Document c = Insert("shop", "orders", "{}");
  EXPECT_EQ(IntOf(c, "id"), 3);
  EXPECT_EQ(IntOf(c, "ticket"), 901);
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  EXPECT_EQ(indexes.size(), 3u);
}

TEST_F(CounterTest, CountersAreIndependentAcrossDatabases) {
  CreateOrders();
  ASSERT_TRUE(
      Ok(Run("shop2", R"({"create": "orders", "autoincrement": "id"})")));
  InsertedId("{}");
  InsertedId("{}");
  Document other = Insert("shop2", "orders", "{}");
  EXPECT_EQ(IntOf(other, "id"), 1);
  EXPECT_EQ(Last("shop2.orders.id"), 1);
  EXPECT_EQ(Last("shop.orders.id"), 2);
}

// Bad declarations are refused and nothing is created.
TEST_F(CounterTest, BadFieldNamesRefusedAndNothingCreated) {
  struct Case {
    const char* autoincrement;
    Code code;
    const char* message_part;
  } cases[] = {
      {R"("a.b")", Code::kBadValue,
       "must be a single identifier without a dot"},
      {R"(["id", "a.b"])", Code::kBadValue, "without a dot"},
      {R"("")", Code::kBadValue, "autoincrement field name is empty"},
      {R"(["id", ""])", Code::kBadValue, "is empty"},
      {R"([])", Code::kBadValue, "at least one field"},
      {R"(["id", "id"])", Code::kBadValue, "named twice"},
      {R"("_id")", Code::kBadValue, "_id stays an ObjectId"},
      {R"("$x")", Code::kBadValue, "is invalid"},
      {R"(5)", Code::kTypeMismatch, "field name or a list"},
      {R"(["id", 5])", Code::kTypeMismatch, "field name or a list"},
  };
  for (const auto& c : cases) {
    Document reply = Run("shop", std::string("{\"create\": \"orders\", "
                                             "\"autoincrement\": ") +
                                     c.autoincrement + "}");
    EXPECT_FALSE(Ok(reply)) << c.autoincrement;
    Status expected = Status::Error(c.code, "");
    EXPECT_EQ(IntOf(reply, "code"), expected.mongo_code()) << reply.ToJson();
    EXPECT_NE(reply.ToJson().find(c.message_part), std::string::npos)
        << reply.ToJson();
    std::vector<CollectionInfo> collections;
    ASSERT_TRUE(session_->ListCollections("shop", &collections).ok());
    EXPECT_TRUE(collections.empty()) << c.autoincrement;
    EXPECT_TRUE(Find("admin", "counters").empty()) << c.autoincrement;
  }
}

TEST_F(CounterTest, CreateTwiceRefused) {
  CreateOrders();
  Document reply = Run("shop", R"({"create": "orders", "autoincrement": "x"})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_EQ(IntOf(reply, "code"), 48);
  EXPECT_FALSE(Counter("shop.orders.x"));
}

// Never handed out twice: a failed insert consumes its value...
TEST_F(CounterTest, FailedInsertDoesNotReuseValue) {
  CreateOrders();
  ASSERT_TRUE(session_
                  ->CreateIndex("shop", "orders",
                                IndexSpec{"sku_1", {{"sku", 1}}, true})
                  .ok());
  EXPECT_EQ(InsertedId(R"({"sku": "a"})"), 1);
  Status s;
  Insert("shop", "orders", R"({"sku": "a"})", &s);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(Last(), 2);  // 2 was handed out to the failed insert
  EXPECT_EQ(InsertedId(R"({"sku": "b"})"), 3);
  // Same through the command API, where the batch stops at the error.
  Document reply = Run("shop", R"({"insert": "orders", "documents": [
      {"sku": "c"}, {"sku": "a"}, {"sku": "d"}]})");
  EXPECT_EQ(IntOf(reply, "n"), 1);
  EXPECT_EQ(Last(), 5);
  EXPECT_EQ(InsertedId(R"({"sku": "e"})"), 6);
}

// ... and so does a rolled-back transaction (as PostgreSQL's nextval).
TEST_F(CounterTest, RollbackDoesNotReuseValue) {
  CreateOrders();
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_EQ(InsertedId("{}"), 1);
  EXPECT_EQ(InsertedId("{}"), 2);
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_TRUE(Find("shop", "orders").empty());
  EXPECT_EQ(Last(), 2);
  EXPECT_EQ(InsertedId("{}"), 3);
}

TEST_F(CounterTest, RollbackToSavepointDoesNotReuseValue) {
  CreateOrders();
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_EQ(InsertedId("{}"), 1);
  ASSERT_TRUE(session_->Savepoint("s1").ok());
  EXPECT_EQ(InsertedId("{}"), 2);
  ASSERT_TRUE(session_->RollbackToSavepoint("s1").ok());
  EXPECT_EQ(InsertedId("{}"), 3);
  ASSERT_TRUE(session_->Commit().ok());
  auto docs = Find("shop", "orders", "{}", R"({"id": 1})");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(IntOf(docs[0], "id"), 1);
  EXPECT_EQ(IntOf(docs[1], "id"), 3);
  EXPECT_EQ(Last(), 3);
}

TEST_F(CounterTest, RollbackAfterCounterRowRecreated) {
  CreateOrders();
  InsertedId("{}");
  Run("admin", R"({"delete": "counters", "deletes": [{"q": {}, "limit": 0}]})");
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_EQ(InsertedId("{}"), 2);  // row recreated inside the transaction
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_EQ(Last(), 2);  // the row is back with the value handed out
  EXPECT_EQ(InsertedId("{}"), 3);
}

// A renamed collection takes its counter row along (ALTER TABLE ... RENAME
// / SET SCHEMA); values handed out under the new name stay used when the
// rename is rolled back.
TEST_F(CounterTest, RollbackOfRenameDoesNotReuseValue) {
  CreateOrders();
  EXPECT_EQ(InsertedId("{}"), 1);
  ASSERT_TRUE(session_->Begin().ok());
  ASSERT_TRUE(
      session_->RenameCollection("shop", "orders", "sales.orders").ok());
  EXPECT_EQ(IntOf(Insert("shop", "sales.orders", "{}"), "id"), 2);
  EXPECT_EQ(Last("shop.sales.orders.id"), 2);
  EXPECT_FALSE(Counter("shop.orders.id"));
  ASSERT_TRUE(session_->Rollback().ok());
  EXPECT_FALSE(Counter("shop.sales.orders.id"));
  EXPECT_EQ(Last(), 2);
  EXPECT_EQ(InsertedId("{}"), 3);
}

TEST_F(CounterTest, RollbackToSavepointOfRenameDoesNotReuseValue) {
  CreateOrders();
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_EQ(InsertedId("{}"), 1);
  ASSERT_TRUE(session_->Savepoint("s1").ok());
  ASSERT_TRUE(session_->RenameCollection("shop", "orders", "orders2").ok());
  ASSERT_TRUE(session_->RenameCollection("shop", "orders2", "orders3").ok());
  EXPECT_EQ(IntOf(Insert("shop", "orders3", "{}"), "id"), 2);
  ASSERT_TRUE(session_->RollbackToSavepoint("s1").ok());
  EXPECT_EQ(InsertedId("{}"), 3);
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Last(), 3);
}

// Within one transaction, edits of admin.counters take effect on the next
// insert (the session's counter cache must not hide them).
TEST_F(CounterTest, CounterEditsInsideATransactionTakeEffect) {
  CreateOrders();
  ASSERT_TRUE(session_->Begin().ok());
  EXPECT_EQ(InsertedId("{}"), 1);
  EXPECT_EQ(InsertedId("{}"), 2);
  SetLast("shop.orders.id", "10");
  EXPECT_EQ(InsertedId("{}"), 11);
  Run("admin", R"({"delete": "counters", "deletes": [{"q": {}, "limit": 0}]})");
  EXPECT_EQ(InsertedId(R"({"id": 30})"), 30);
  EXPECT_EQ(InsertedId("{}"), 31);  // recreated from the highest stored
  Run("admin", R"({"delete": "counters", "deletes": [{"q": {}, "limit": 0}]})");
  Document row = J(R"({"_id": "shop.orders.id", "collection": "shop.orders",
                       "field": "id", "last": 100})");
  ASSERT_TRUE(session_->Insert("admin", "counters", row.bson()).ok());
  EXPECT_EQ(InsertedId("{}"), 101);
  ASSERT_TRUE(session_->Savepoint("s").ok());
  SetLast("shop.orders.id", "500");
  ASSERT_TRUE(session_->RollbackToSavepoint("s").ok());
  EXPECT_EQ(InsertedId("{}"), 102);
  ASSERT_TRUE(session_->Commit().ok());
  EXPECT_EQ(Last(), 102);
  EXPECT_EQ(InsertedId("{}"), 103);
}

// Bounds: a counter stops at its maximum unless it cycles.
TEST_F(CounterTest, CounterExhaustedAtMaximum) {
  ASSERT_TRUE(session_->CreateCollection("shop", "orders", {}).ok());
  CounterSpec spec;
  spec.max_value = 2;
  ASSERT_TRUE(session_->AddAutoincrement("shop", "orders", "id", spec).ok());
  EXPECT_EQ(InsertedId("{}"), 1);
  EXPECT_EQ(InsertedId("{}"), 2);
  Status s;
  Insert("shop", "orders", "{}", &s);
  EXPECT_EQ(s.code(), Code::kCounterExhausted);
  EXPECT_EQ(s.message(),
            "counter \"shop.orders.id\" reached its maximum value (2)");
  EXPECT_EQ(Find("shop", "orders").size(), 2u);
}

TEST_F(CounterTest, CounterAtInt64MaxDoesNotWrap) {
  CreateOrders();
  SetLast("shop.orders.id", R"({"$numberLong": "9223372036854775807"})");
  Status s;
  Insert("shop", "orders", "{}", &s);
  EXPECT_EQ(s.code(), Code::kCounterExhausted);
}

TEST_F(CounterTest, CyclingCounterWraps) {
  ASSERT_TRUE(session_->CreateCollection("shop", "orders", {}).ok());
  CounterSpec spec;
  spec.max_value = 2;
  spec.cycle = true;
  ASSERT_TRUE(session_->AddAutoincrement("shop", "orders", "id", spec).ok());
  EXPECT_EQ(InsertedId("{}"), 1);
  EXPECT_EQ(InsertedId("{}"), 2);
  Run("shop", R"({"delete": "orders", "deletes": [{"q": {}, "limit": 0}]})");
  EXPECT_EQ(InsertedId("{}"), 1);
}

TEST_F(CounterTest, DescendingCounter) {
  ASSERT_TRUE(session_->CreateCollection("shop", "orders", {}).ok());
  CounterSpec spec;
  spec.increment = -1;
  ASSERT_TRUE(session_->AddAutoincrement("shop", "orders", "id", spec).ok());
  EXPECT_EQ(InsertedId("{}"), -1);
  EXPECT_EQ(InsertedId("{}"), -2);
  EXPECT_EQ(InsertedId(R"({"id": -10})"), -10);
  EXPECT_EQ(InsertedId("{}"), -11);
  EXPECT_EQ(InsertedId(R"({"id": 5})"), 5);  // not beyond: counter stays
  EXPECT_EQ(InsertedId("{}"), -12);
}

TEST_F(CounterTest, StartAndIncrement) {
  ASSERT_TRUE(session_->CreateCollection("shop", "orders", {}).ok());
  CounterSpec spec;
  spec.start = 1000;
  spec.increment = 5;
  ASSERT_TRUE(session_->AddAutoincrement("shop", "orders", "id", spec).ok());
  auto row = Counter("shop.orders.id");
  ASSERT_TRUE(row);
  EXPECT_EQ(IntOf(*row, "last"), 995);
  EXPECT_EQ(IntOf(*row, "increment"), 5);
  EXPECT_EQ(InsertedId("{}"), 1000);
  EXPECT_EQ(InsertedId("{}"), 1005);
  // The apimaker table: counter gone, highest 1100 -> 1105.
  InsertedId(R"({"id": 1100})");
  Run("admin", R"({"delete": "counters", "deletes": [{"q": {}, "limit": 0}]})");
  EXPECT_EQ(InsertedId("{}"), 1101);  // no row: default step of 1 applies
}

// The counter belongs to the collection: dropping it drops the counter.
TEST_F(CounterTest, DropRemovesCounters) {
  CreateOrders(R"(["id", "ticket"])");
  InsertedId("{}");
  ASSERT_TRUE(Ok(Run("shop", R"({"drop": "orders"})")));
  EXPECT_TRUE(Find("admin", "counters").empty());
  CreateOrders();
  EXPECT_EQ(InsertedId("{}"), 1);
}

TEST_F(CounterTest, CountersCollectionIsProtected) {
  Document reply = Run("admin", R"({"drop": "counters"})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_EQ(IntOf(reply, "code"), 20);
  reply = Run("admin", R"({"insert": "counters", "documents": [{"last": 1}]})");
  EXPECT_FALSE(Ok(reply));  // a row needs a string _id
  CreateOrders();
  reply = Run("shop", R"({"dropIndexes": "orders", "index": "id_1"})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_NE(reply.ToJson().find("autoincrement"), std::string::npos);
}

TEST_F(CounterTest, CollModAddsAutoincrementToExistingCollection) {
  Insert("shop", "orders", R"({"n": 7})");
  Insert("shop", "orders", R"({"n": 3})");
  ASSERT_TRUE(
      Ok(Run("shop", R"({"collMod": "orders", "autoincrement": "n"})")));
  Document next = Insert("shop", "orders", "{}");
  EXPECT_EQ(IntOf(next, "n"), 8);  // from the highest value stored
}

// Concurrent sessions never get the same value.
TEST_F(CounterTest, ConcurrentSessionsGetDistinctValues) {
  CreateOrders();
  constexpr int kThreads = 4, kPerThread = 150;
  std::vector<std::vector<int64_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      ASSERT_TRUE(store_->NewSession(&session).ok());
      for (int i = 0; i < kPerThread; i++) {
        Document doc = J("{}"), stored;
        Status s = session->Insert("shop", "orders", doc.bson(), &stored);
        ASSERT_TRUE(s.ok()) << s.ToString();
        ids[t].push_back(IntOf(stored, "id"));
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<int64_t> all;
  for (const auto& v : ids) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread));
  EXPECT_EQ(*all.begin(), 1);
  EXPECT_EQ(*all.rbegin(), kThreads * kPerThread);
  EXPECT_EQ(Last(), kThreads * kPerThread);
}

}  // namespace
}  // namespace kova::docstore::testing
