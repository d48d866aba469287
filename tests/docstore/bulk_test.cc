// Session::InsertMany (the bulk load behind COPY): the counter rules hold
// while counters are tracked locally and written once per call.
#include <string>
#include <vector>

#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

class BulkTest : public StoreTest {
 protected:
  void CreateOrders() {
    Document reply =
        Run("shop", R"({"create": "orders", "autoincrement": "id"})");
    ASSERT_TRUE(Ok(reply)) << reply.ToJson();
  }
  // Inserts the documents in one InsertMany call inside a write
  // transaction; returns its status (the transaction commits either way).
  Status Load(const std::vector<std::string>& json, size_t* inserted) {
    std::vector<Document> docs;
    for (const auto& j : json) docs.push_back(J(j));
    std::vector<const bson_t*> ptrs;
    for (const auto& d : docs) ptrs.push_back(d.bson());
    EXPECT_TRUE(session_->BeginWrite().ok());
    Status s = session_->InsertMany("shop", "orders", ptrs.data(), ptrs.size(),
                                    inserted);
    EXPECT_TRUE(session_->Commit().ok());
    return s;
  }
  int64_t Last() {
    auto row = Counter("shop.orders.id");
    EXPECT_TRUE(row.has_value());
    return row ? IntOf(*row, "last") : INT64_MIN;
  }
  int64_t NextId() { return IntOf(Insert("shop", "orders", "{}"), "id"); }
};

// Rule 3: sent values beyond the counter move it, to the highest one sent.
TEST_F(BulkTest, SentValuesMoveTheCounterToTheHighest) {
  CreateOrders();
  size_t n = 0;
  ASSERT_TRUE(Load({R"({"id": 3})", R"({"id": 9})", R"({"id": 5})"}, &n).ok());
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(Last(), 9);
  EXPECT_EQ(NextId(), 10);
}

// A sent value below the counter leaves it where it is.
TEST_F(BulkTest, SentValueBelowTheCounterLeavesIt) {
  CreateOrders();
  SetLast("shop.orders.id", "20");
  size_t n = 0;
  ASSERT_TRUE(Load({R"({"id": 4})", R"({"id": 7})"}, &n).ok());
  EXPECT_EQ(Last(), 20);
  EXPECT_EQ(NextId(), 21);
}

// Omitted values after sent ones continue from the highest sent value, as
// document by document inserts would.
TEST_F(BulkTest, OmittedAfterSentContinuesFromTheHighest) {
  CreateOrders();
  size_t n = 0;
  ASSERT_TRUE(
      Load({"{}", R"({"id": 40})", "{}", R"({"id": 45})", "{}"}, &n).ok());
  auto rows = Find("shop", "orders", "{}", R"({"id": 1})");
  std::vector<int64_t> ids;
  for (const auto& r : rows) ids.push_back(IntOf(r, "id"));
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 40, 41, 45, 46}));
  EXPECT_EQ(Last(), 46);
}

// Rule 7: a counter reset below its start resumes from the highest stored
// value, also when sent values came first in the same call.
TEST_F(BulkTest, ResetCounterResumesFromTheHighestStored) {
  CreateOrders();
  size_t n = 0;
  ASSERT_TRUE(Load({R"({"id": 30})"}, &n).ok());
  SetLast("shop.orders.id", "0");
  ASSERT_TRUE(Load({R"({"id": -5})", "{}"}, &n).ok());
  auto rows = Find("shop", "orders", "{}", R"({"id": -1})");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(IntOf(rows[0], "id"), 31);
  EXPECT_EQ(Last(), 31);
}

// A deleted counter row stays deleted while only sent values arrive; the
// next omitted value recreates it from the highest stored value.
TEST_F(BulkTest, DeletedCounterRowIsRecreatedFromTheHighest) {
  CreateOrders();
  Run("admin", R"({"delete": "counters", "deletes": [{"q": {}, "limit": 0}]})");
  size_t n = 0;
  ASSERT_TRUE(Load({R"({"id": 6})", R"({"id": 8})"}, &n).ok());
  EXPECT_FALSE(Counter("shop.orders.id").has_value());
  ASSERT_TRUE(Load({R"({"id": 12})", "{}"}, &n).ok());
  EXPECT_EQ(Last(), 13);
}

// A duplicate stops the load at that document; the rows before it count.
TEST_F(BulkTest, DuplicateStopsAtTheDocument) {
  CreateOrders();
  size_t n = 0;
  Status s = Load({R"({"id": 1})", R"({"id": 2})", R"({"id": 1})"}, &n);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(n, 2u);
}

// Many documents (several thousand) with sent values: one counter write
// per call still ends at the highest.
TEST_F(BulkTest, ManySentValues) {
  CreateOrders();
  std::vector<std::string> json;
  for (int i = 1; i <= 5000; i++)
    json.push_back("{\"id\": " + std::to_string(i) + "}");
  size_t n = 0;
  ASSERT_TRUE(Load(json, &n).ok());
  EXPECT_EQ(n, 5000u);
  EXPECT_EQ(Last(), 5000);
  EXPECT_EQ(NextId(), 5001);
}

// Documents go in multi-row statements (bulk.cc): a failure inside one
// still stops at the failing document, with the documents before it
// stored and the counter where one-by-one inserts would leave it.
TEST_F(BulkTest, DuplicateInsideAMultiRowStatement) {
  CreateOrders();
  std::vector<std::string> json;
  for (int i = 1; i <= 200; i++)
    json.push_back("{\"id\": " + std::to_string(i == 150 ? 10 : i) + "}");
  size_t n = 0;
  Status s = Load(json, &n);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(s.index_name, "id_1");
  EXPECT_EQ(n, 149u);
  EXPECT_EQ(Find("shop", "orders", "{}").size(), 149u);
  // Sent values up to the last stored document moved the counter.
  EXPECT_EQ(Last(), 149);
  EXPECT_EQ(NextId(), 150);
}

// The failing document's omitted value is consumed, the later ones' not.
TEST_F(BulkTest, OmittedValuesStopAtTheFailingDocument) {
  CreateOrders();
  ASSERT_TRUE(session_
                  ->CreateIndex("shop", "orders",
                                IndexSpec{"sku_1", {{"sku", 1}}, true})
                  .ok());
  std::vector<std::string> json;
  for (int i = 1; i <= 300; i++)
    json.push_back("{\"sku\": " + std::to_string(i == 70 ? 3 : i) + "}");
  size_t n = 0;
  Status s = Load(json, &n);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(s.index_name, "sku_1");
  EXPECT_EQ(n, 69u);
  auto rows = Find("shop", "orders", "{}", R"({"id": 1})");
  ASSERT_EQ(rows.size(), 69u);
  EXPECT_EQ(IntOf(rows.front(), "id"), 1);
  EXPECT_EQ(IntOf(rows.back(), "id"), 69);
  EXPECT_EQ(Last(), 70);
  EXPECT_EQ(NextId(), 71);
}

// A sent value of a document that fails does not move the counter, one of
// a document before it does.
TEST_F(BulkTest, FailingDocumentsSentValueDoesNotMove) {
  CreateOrders();
  std::vector<std::string> json;
  for (int i = 0; i < 100; i++) json.push_back("{}");
  json.push_back(R"({"id": 500})");
  json.push_back(R"({"id": 50})");  // duplicate
  json.push_back(R"({"id": 900})");
  size_t n = 0;
  Status s = Load(json, &n);
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(n, 101u);
  EXPECT_EQ(Last(), 500);
  EXPECT_EQ(NextId(), 501);
}

// Omitted values over many statements (and a last partial one) number
// without gaps, and a bad document stops the load after the ones before it.
TEST_F(BulkTest, ManyOmittedValuesThenABadDocument) {
  CreateOrders();
  std::vector<std::string> json;
  for (int i = 0; i < 1000; i++)
    json.push_back("{\"n\": " + std::to_string(i) + "}");
  size_t n = 0;
  ASSERT_TRUE(Load(json, &n).ok());
  EXPECT_EQ(n, 1000u);
  auto rows = Find("shop", "orders", "{}", R"({"id": 1})");
  ASSERT_EQ(rows.size(), 1000u);
  for (size_t i = 0; i < rows.size(); i++) {
    ASSERT_EQ(IntOf(rows[i], "id"), static_cast<int64_t>(i + 1));
    ASSERT_EQ(IntOf(rows[i], "n"), static_cast<int64_t>(i));
  }
  json.assign(70, "{}");
  json.push_back(R"({"_id": [1]})");
  json.push_back("{}");
  Status s = Load(json, &n);
  EXPECT_EQ(s.code(), Code::kBadValue);
  EXPECT_EQ(n, 70u);
  EXPECT_EQ(Find("shop", "orders", "{}").size(), 1070u);
  EXPECT_EQ(Last(), 1070);
}

// AdoptIndex: the field's own unique index becomes a constraint's index
// without a rebuild (ADD PRIMARY KEY after a dump's data).
TEST_F(BulkTest, AdoptIndexRenamesTheFieldsIndex) {
  CreateOrders();
  Insert("shop", "orders", "{}");
  bool adopted = false;
  IndexSpec pkey{"orders_pkey", {{"id", 1}}, true};
  pkey.nulls_distinct = true;
  ASSERT_TRUE(
      session_->AdoptIndex("shop", "orders", "id_1", pkey, &adopted).ok());
  EXPECT_TRUE(adopted);
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "orders_pkey");
  EXPECT_TRUE(indexes[1].nulls_distinct);
  // Duplicates are refused under the new name; nulls are now distinct.
  Document dup = J(R"({"id": 1})");
  Status s = session_->Insert("shop", "orders", dup.bson());
  EXPECT_EQ(s.code(), Code::kDuplicateKey);
  EXPECT_EQ(s.index_name, "orders_pkey");
  Insert("shop", "orders", R"({"id": null})");
  Insert("shop", "orders", R"({"id": null})");
  // The old name is free again, for an index on other keys.
  ASSERT_TRUE(session_
                  ->CreateIndex("shop", "orders",
                                IndexSpec{"id_1", {{"sku", 1}}, false})
                  .ok());
  indexes.clear();
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  EXPECT_EQ(indexes.size(), 3u);
  // Still the autoincrement field's unique index: it cannot be dropped.
  EXPECT_EQ(session_->DropIndex("shop", "orders", "orders_pkey").code(),
            Code::kIllegalOperation);
  EXPECT_EQ(NextId(), 2);
}

// Not adopted: other keys, a taken name, or a stricter null rule asked for.
TEST_F(BulkTest, AdoptIndexRefusesWhatWouldNeedABuild) {
  CreateOrders();
  bool adopted = true;
  IndexSpec other{"x", {{"sku", 1}}, true};
  other.nulls_distinct = true;
  ASSERT_TRUE(
      session_->AdoptIndex("shop", "orders", "id_1", other, &adopted).ok());
  EXPECT_FALSE(adopted);
  IndexSpec strict{"orders_pkey", {{"id", 1}}, true};  // nulls not distinct
  ASSERT_TRUE(
      session_->AdoptIndex("shop", "orders", "id_1", strict, &adopted).ok());
  EXPECT_FALSE(adopted);
  IndexSpec taken{"_id_", {{"id", 1}}, true};
  taken.nulls_distinct = true;
  ASSERT_TRUE(
      session_->AdoptIndex("shop", "orders", "id_1", taken, &adopted).ok());
  EXPECT_FALSE(adopted);
  std::vector<IndexSpec> indexes;
  ASSERT_TRUE(session_->ListIndexes("shop", "orders", &indexes).ok());
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[1].name, "id_1");
}

}  // namespace
}  // namespace kova::docstore::testing
