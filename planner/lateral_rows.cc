// The rows of a LATERAL subquery. SQLite's derived tables cannot name the
// FROM items beside them; its table-valued functions can, and so can a
// scalar subquery in their arguments. A LATERAL subquery becomes
//   json_each((SELECT json_group_array(kova_row_pack(c0, c1, ...))
//              FROM (subquery)))
// with column i read back as kova_row_get(value, i). kova_row_pack keeps
// every value exactly (integers, doubles to the bit, text, blobs, NULL),
// which JSON alone would not (blobs, the last digits of doubles), by
// writing them into a hex string: a tag byte and the value's bytes.
#include <sqlite3.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "planner/query.h"

namespace kova::planner {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void PutByte(std::string* out, uint8_t b) {
  out->push_back(kHex[b >> 4]);
  out->push_back(kHex[b & 15]);
}

void PutBytes(std::string* out, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; i++) PutByte(out, p[i]);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Reads n bytes at hex position *at; false past the end or on bad digits.
bool GetBytes(const char* text, size_t size, size_t* at, void* data, size_t n) {
  if (*at + 2 * n > size) return false;
  auto* p = static_cast<uint8_t*>(data);
  for (size_t i = 0; i < n; i++) {
    int hi = HexDigit(text[*at + 2 * i]), lo = HexDigit(text[*at + 2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    p[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  *at += 2 * n;
  return true;
}

void RowPack(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  std::string out;
  for (int i = 0; i < argc; i++) {
    sqlite3_value* v = argv[i];
    switch (sqlite3_value_type(v)) {
      case SQLITE_INTEGER: {
        PutByte(&out, 'i');
        int64_t x = sqlite3_value_int64(v);
        PutBytes(&out, &x, sizeof x);
        break;
      }
      case SQLITE_FLOAT: {
        PutByte(&out, 'r');
        double x = sqlite3_value_double(v);
        PutBytes(&out, &x, sizeof x);
        break;
      }
      case SQLITE_TEXT:
      case SQLITE_BLOB: {
        bool text = sqlite3_value_type(v) == SQLITE_TEXT;
        const void* data = text
                               ? static_cast<const void*>(sqlite3_value_text(v))
                               : sqlite3_value_blob(v);
        uint32_t n = static_cast<uint32_t>(sqlite3_value_bytes(v));
        PutByte(&out, text ? 't' : 'b');
        PutBytes(&out, &n, sizeof n);
        PutBytes(&out, data, n);
        break;
      }
      default:
        PutByte(&out, 'n');
    }
  }
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()),
                      SQLITE_TRANSIENT);
}

void RowGet(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  const char* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  size_t size = static_cast<size_t>(sqlite3_value_bytes(argv[0]));
  int64_t want = sqlite3_value_int64(argv[1]);
  size_t at = 0;
  for (int64_t i = 0;; i++) {
    uint8_t tag;
    if (!GetBytes(text, size, &at, &tag, 1)) break;
    if (tag == 'n') {
      if (i == want) return sqlite3_result_null(ctx);
      continue;
    }
    if (tag == 'i' || tag == 'r') {
      int64_t x;
      if (!GetBytes(text, size, &at, &x, sizeof x)) break;
      if (i != want) continue;
      if (tag == 'i') return sqlite3_result_int64(ctx, x);
      double d;
      std::memcpy(&d, &x, sizeof d);
      return sqlite3_result_double(ctx, d);
    }
    uint32_t n;
    if ((tag != 't' && tag != 'b') || !GetBytes(text, size, &at, &n, sizeof n))
      break;
    if (i != want) {
      at += 2 * static_cast<size_t>(n);
      continue;
    }
    std::string bytes(n, '\0');
    if (!GetBytes(text, size, &at, bytes.data(), n)) break;
    if (tag == 't')
      return sqlite3_result_text(ctx, bytes.data(), static_cast<int>(n),
                                 SQLITE_TRANSIENT);
    return sqlite3_result_blob(ctx, bytes.data(), static_cast<int>(n),
                               SQLITE_TRANSIENT);
  }
  sqlite3_result_error(ctx, "kova_row_get: damaged row", -1);
}

}  // namespace

int RegisterLateralFunctions(sqlite3* db) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "kova_row_pack", -1, flags, nullptr,
                                   RowPack, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "kova_row_get", 2, flags, nullptr, RowGet,
                                 nullptr, nullptr);
  return rc;
}

}  // namespace kova::planner
