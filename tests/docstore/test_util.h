// Helpers shared by the docstore tests: a store in a fresh temp directory
// and small accessors for BSON fields.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "docstore/docstore.h"

namespace kova::docstore::testing {

inline std::string MakeTempDir() {
  std::string tmpl = "/tmp/kova-test-XXXXXX";
  char* dir = mkdtemp(tmpl.data());
  EXPECT_NE(dir, nullptr);
  return tmpl;
}

inline Document J(const std::string& json) {
  Document doc;
  Status s = Document::FromJson(json, &doc);
  EXPECT_TRUE(s.ok()) << s.ToString() << " in " << json;
  return doc;
}

// The value of a top-level field, when present.
inline std::optional<bson_iter_t> Field(const Document& doc, const char* key) {
  bson_iter_t it;
  if (!bson_iter_init_find(&it, doc.bson(), key)) return std::nullopt;
  return it;
}

inline bson_type_t TypeOf(const Document& doc, const char* key) {
  auto it = Field(doc, key);
  return it ? bson_iter_type(&*it) : BSON_TYPE_EOD;
}

inline int64_t IntOf(const Document& doc, const char* key) {
  auto it = Field(doc, key);
  EXPECT_TRUE(it.has_value()) << "no field " << key << " in " << doc.ToJson();
  return it ? bson_iter_as_int64(&*it) : INT64_MIN;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    Reopen();
  }
  void TearDown() override {
    session_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Reopen() {
    session_.reset();
    store_.reset();
    Status s = Store::Open(dir_, StoreOptions{}, &store_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s = store_->NewSession(&session_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  // Runs a command and returns the reply.
  Document Run(const std::string& db, const std::string& json) {
    Document cmd = J(json);
    return session_->RunCommand(db, cmd.bson());
  }
  bool Ok(const Document& reply) {
    auto it = Field(reply, "ok");
    return it && bson_iter_as_double(&*it) == 1.0 &&
           !Field(reply, "writeErrors").has_value();
  }
  // Inserts one document and returns it as stored.
  Document Insert(const std::string& db, const std::string& coll,
                  const std::string& json, Status* status = nullptr) {
    Document doc = J(json), stored;
    Status s = session_->Insert(db, coll, doc.bson(), &stored);
    if (status) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    return stored;
  }
  std::vector<Document> Find(const std::string& db, const std::string& coll,
                             const std::string& filter = "{}",
                             const std::string& sort = "") {
    Document f = J(filter);
    Document so = sort.empty() ? Document() : J(sort);
    FindOptions options;
    if (!sort.empty()) options.sort = so.bson();
    std::vector<Document> out;
    Status s = session_->Find(db, coll, f.bson(), options, &out);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }
  // The admin.counters row with this _id, if any.
  std::optional<Document> Counter(const std::string& id) {
    auto rows =
        Find(kAdminDb, kCountersCollection, "{\"_id\": \"" + id + "\"}");
    if (rows.empty()) return std::nullopt;
    EXPECT_EQ(rows.size(), 1u);
    return rows[0];
  }
  void SetLast(const std::string& id, const std::string& last_json) {
    Document reply = Run(
        "admin",
        "{\"update\": \"counters\", \"updates\": [{\"q\": "
        "{\"_id\": \"" +
            id + "\"}, \"u\": {\"$set\": {\"last\": " + last_json + "}}}]}");
    ASSERT_TRUE(Ok(reply)) << reply.ToJson();
    ASSERT_EQ(IntOf(reply, "nModified"), 1) << reply.ToJson();
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Session> session_;
};

}  // namespace kova::docstore::testing
