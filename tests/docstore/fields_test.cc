// kova_key and kova_get, the SQL functions every translated statement reads
// fields with: the direct walk over the document's bytes must answer as the
// libbson path does (types, missing fields, fields after nested values and
// rare types, NaN, dotted paths, damaged documents).
#include <sqlite3.h>

#include <cmath>
#include <string>

#include "tests/docstore/test_util.h"

namespace kova::docstore::testing {
namespace {

class FieldsTest : public StoreTest {
 protected:
  // `call` over `doc`: "int:N", "real:X", "text:S", "blob:<n bytes>", "null".
  std::string Call(const char* function, const bson_t* doc,
                   const std::string& field) {
    return CallOnBytes(function, bson_get_data(doc), doc->len, field);
  }
  std::string CallOnBytes(const char* function, const uint8_t* data,
                          uint32_t len, const std::string& field) {
    std::string sql = std::string("SELECT ") + function + "(?1, ?2)";
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(session_->connection(), sql.c_str(), -1, &stmt,
                                 nullptr),
              SQLITE_OK);
    sqlite3_bind_blob(stmt, 1, data, static_cast<int>(len), SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, field.data(), static_cast<int>(field.size()),
                      SQLITE_STATIC);
    std::string out = "error";
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      switch (sqlite3_column_type(stmt, 0)) {
        case SQLITE_INTEGER:
          out = "int:" + std::to_string(sqlite3_column_int64(stmt, 0));
          break;
        case SQLITE_FLOAT: {
          double d = sqlite3_column_double(stmt, 0);
          out = std::isinf(d) ? (d < 0 ? "real:-inf" : "real:inf")
                              : "real:" + std::to_string(d);
          break;
        }
        case SQLITE_TEXT:
          out = std::string("text:") +
                reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
          break;
        case SQLITE_BLOB:
          out = "blob:" + std::to_string(sqlite3_column_bytes(stmt, 0));
          break;
        default:
          out = "null";
      }
    }
    sqlite3_finalize(stmt);
    return out;
  }
};

TEST_F(FieldsTest, TopLevelFieldsOfEveryCommonType) {
  bson_t doc = BSON_INITIALIZER;
  bson_oid_t oid;
  bson_oid_init_from_string(&oid, "0123456789abcdef01234567");
  BSON_APPEND_OID(&doc, "_id", &oid);
  BSON_APPEND_UTF8(&doc, "s", "h\xc3\xa9llo");
  BSON_APPEND_INT32(&doc, "i", -5);
  BSON_APPEND_INT64(&doc, "l", int64_t{1} << 40);
  BSON_APPEND_DOUBLE(&doc, "d", 2.5);
  BSON_APPEND_DOUBLE(&doc, "nan", std::nan(""));
  BSON_APPEND_NULL(&doc, "z");
  BSON_APPEND_BOOL(&doc, "b", true);
  const uint8_t bytes[3] = {1, 0, 2};
  BSON_APPEND_BINARY(&doc, "bin", BSON_SUBTYPE_BINARY, bytes, 3);
  bson_t sub;
  BSON_APPEND_DOCUMENT_BEGIN(&doc, "sub", &sub);
  BSON_APPEND_INT32(&sub, "x", 11);
  bson_append_document_end(&doc, &sub);
  BSON_APPEND_INT32(&doc, "dup", 4);
  BSON_APPEND_INT32(&doc, "dup", 5);  // a duplicate: the first one counts
  BSON_APPEND_REGEX(&doc, "re", "a.*", "i");
  BSON_APPEND_INT32(&doc, "ab", 1);
  BSON_APPEND_INT32(&doc, "a", 2);
  BSON_APPEND_INT32(&doc, "a", 3);

  EXPECT_EQ(Call("kova_key", &doc, "i"), "int:-5");
  EXPECT_EQ(Call("kova_get", &doc, "i"), "int:-5");
  EXPECT_EQ(Call("kova_key", &doc, "l"), "int:1099511627776");
  EXPECT_EQ(Call("kova_key", &doc, "d"), "real:2.500000");
  EXPECT_EQ(Call("kova_get", &doc, "d"), "real:2.500000");
  EXPECT_EQ(Call("kova_key", &doc, "nan"), "real:-inf");
  EXPECT_EQ(Call("kova_get", &doc, "nan"), "text:NaN");
  EXPECT_EQ(Call("kova_key", &doc, "s"), "text:h\xc3\xa9llo");
  EXPECT_EQ(Call("kova_get", &doc, "s"), "text:h\xc3\xa9llo");
  EXPECT_EQ(Call("kova_key", &doc, "z"), "null");
  EXPECT_EQ(Call("kova_get", &doc, "z"), "null");
  EXPECT_EQ(Call("kova_key", &doc, "missing"), "null");
  EXPECT_EQ(Call("kova_get", &doc, "missing"), "null");
  EXPECT_EQ(Call("kova_get", &doc, "b"), "int:1");
  EXPECT_EQ(Call("kova_key", &doc, "b"), "blob:2");  // the bool key bracket
  EXPECT_EQ(Call("kova_get", &doc, "bin"), "blob:3");
  EXPECT_EQ(Call("kova_get", &doc, "_id"), "text:0123456789abcdef01234567");
  EXPECT_EQ(Call("kova_key", &doc, "sub.x"), "int:11");
  EXPECT_EQ(Call("kova_key", &doc, "dup"), "int:4");
  // Past a regex (a type the direct walk leaves to libbson).
  EXPECT_EQ(Call("kova_key", &doc, "ab"), "int:1");
  EXPECT_EQ(Call("kova_key", &doc, "a"), "int:2");
  EXPECT_EQ(Call("kova_get", &doc, "a"), "int:2");
  bson_destroy(&doc);
}

TEST_F(FieldsTest, EmptyAndDamagedDocuments) {
  bson_t empty = BSON_INITIALIZER;
  EXPECT_EQ(Call("kova_key", &empty, "a"), "null");
  EXPECT_EQ(Call("kova_get", &empty, "a"), "null");
  bson_destroy(&empty);

  bson_t doc = BSON_INITIALIZER;
  BSON_APPEND_UTF8(&doc, "s", "abc");
  BSON_APPEND_INT32(&doc, "a", 7);
  std::string bytes(reinterpret_cast<const char*>(bson_get_data(&doc)),
                    doc.len);
  bson_destroy(&doc);
  auto call = [&](const char* function, const std::string& b) {
    return CallOnBytes(function, reinterpret_cast<const uint8_t*>(b.data()),
                       static_cast<uint32_t>(b.size()), "a");
  };
  EXPECT_EQ(call("kova_key", bytes), "int:7");
  // Cut short: the header's length no longer matches.
  EXPECT_EQ(call("kova_key", bytes.substr(0, bytes.size() - 3)), "null");
  // A string whose length runs past the document.
  std::string long_string = bytes;
  long_string[7] = 100;  // the length of "abc" (after type and key "s\0")
  EXPECT_EQ(call("kova_key", long_string), "null");
  EXPECT_EQ(call("kova_get", long_string), "null");
}

}  // namespace
}  // namespace kova::docstore::testing
