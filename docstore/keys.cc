// Field access and index keys (see internal.h for the key encoding).
#include <cmath>
#include <cstring>
#include <limits>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

// First byte of a BLOB key: orders the non-number, non-string brackets as
// MongoDB does (object < array < binary < objectId < bool < date < ...).
enum Tag : uint8_t {
  kTagDocument = 0x10,
  kTagArray = 0x20,
  kTagBinary = 0x30,
  kTagObjectId = 0x40,
  kTagBool = 0x50,
  kTagDate = 0x60,
  kTagTimestamp = 0x70,
  kTagRegex = 0x80,
  kTagOther = 0x90,
};

void AppendBigEndian(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((v >> shift) & 0xff));
  }
}

// ---- Order-preserving encoding of values nested in documents/arrays.
// Each value starts with a byte for its BSON type bracket (MongoDB's order);
// strings escape 0x00 as 00 FF and end with 00 01; a document's fields are
// (bracket, name, value) and it ends with 0x00, so shorter sorts first.
enum Bracket : uint8_t {
  kBrMinKey = 0x01,
  kBrNull = 0x05,
  kBrNumber = 0x10,
  kBrString = 0x15,
  kBrDocument = 0x20,
  kBrArray = 0x25,
  kBrBinary = 0x30,
  kBrObjectId = 0x35,
  kBrBool = 0x40,
  kBrDate = 0x45,
  kBrTimestamp = 0x47,
  kBrRegex = 0x50,
  kBrOther = 0x60,
  kBrMaxKey = 0xfe,
};

void AppendEscaped(std::string* out, const char* data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    out->push_back(data[i]);
    if (data[i] == '\0') out->push_back(static_cast<char>(0xff));
  }
  out->push_back('\0');
  out->push_back(1);
}

uint64_t OrderedDoubleBits(double d) {
  if (d == 0) d = 0;  // -0 == 0
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  return (bits & (1ULL << 63)) ? ~bits : bits | (1ULL << 63);
}

Bracket BracketByte(bson_type_t type) {
  switch (type) {
    case BSON_TYPE_MINKEY:
      return kBrMinKey;
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED:
      return kBrNull;
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64:
    case BSON_TYPE_DOUBLE:
    case BSON_TYPE_DECIMAL128:
      return kBrNumber;
    case BSON_TYPE_UTF8:
    case BSON_TYPE_SYMBOL:
      return kBrString;
    case BSON_TYPE_DOCUMENT:
      return kBrDocument;
    case BSON_TYPE_ARRAY:
      return kBrArray;
    case BSON_TYPE_BINARY:
      return kBrBinary;
    case BSON_TYPE_OID:
      return kBrObjectId;
    case BSON_TYPE_BOOL:
      return kBrBool;
    case BSON_TYPE_DATE_TIME:
      return kBrDate;
    case BSON_TYPE_TIMESTAMP:
      return kBrTimestamp;
    case BSON_TYPE_REGEX:
      return kBrRegex;
    case BSON_TYPE_MAXKEY:
      return kBrMaxKey;
    default:
      return kBrOther;
  }
}

void AppendOrderedContents(bson_iter_t* children, bool is_document,
                           std::string* out);

// The value without its bracket byte.
void AppendOrderedValue(const bson_iter_t* it, std::string* out) {
  switch (bson_iter_type(it)) {
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64:
    case BSON_TYPE_DOUBLE:
    case BSON_TYPE_DECIMAL128: {
      // The double's order, then the exact integer's distance from it, so
      // that 1 == 1.0 and large int64 values stay distinct and ordered.
      double d;
      int64_t diff = 0;
      if (BSON_ITER_HOLDS_DOUBLE(it)) {
        d = bson_iter_double(it);
      } else if (BSON_ITER_HOLDS_DECIMAL128(it)) {
        bson_decimal128_t dec;
        bson_iter_decimal128(it, &dec);
        char buf[BSON_DECIMAL128_STRING];
        bson_decimal128_to_string(&dec, buf);
        d = std::strtod(buf, nullptr);
      } else {
        int64_t v = bson_iter_as_int64(it);
        d = static_cast<double>(v);
        if (d < 9223372036854775808.0)
          diff = v - static_cast<int64_t>(d);
        else
          diff = v - std::numeric_limits<int64_t>::max();  // near 2^63
      }
      if (std::isnan(d)) d = -std::numeric_limits<double>::infinity();
      AppendBigEndian(out, OrderedDoubleBits(d));
      AppendBigEndian(out, static_cast<uint64_t>(diff) ^ (1ULL << 63));
      return;
    }
    case BSON_TYPE_UTF8:
    case BSON_TYPE_SYMBOL: {
      uint32_t len;
      const char* str = bson_iter_utf8(it, &len);
      AppendEscaped(out, str, len);
      return;
    }
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY: {
      bson_iter_t child;
      bson_iter_recurse(it, &child);
      AppendOrderedContents(&child, BSON_ITER_HOLDS_DOCUMENT(it), out);
      return;
    }
    case BSON_TYPE_BINARY: {
      bson_subtype_t subtype;
      uint32_t len;
      const uint8_t* data;
      bson_iter_binary(it, &subtype, &len, &data);
      AppendBigEndian(out, len);
      out->push_back(static_cast<char>(subtype));
      out->append(reinterpret_cast<const char*>(data), len);
      return;
    }
    case BSON_TYPE_OID:
      out->append(reinterpret_cast<const char*>(bson_iter_oid(it)->bytes), 12);
      return;
    case BSON_TYPE_BOOL:
      out->push_back(bson_iter_bool(it) ? 1 : 0);
      return;
    case BSON_TYPE_DATE_TIME:
      AppendBigEndian(
          out, static_cast<uint64_t>(bson_iter_date_time(it)) ^ (1ULL << 63));
      return;
    case BSON_TYPE_TIMESTAMP: {
      uint32_t ts, inc;
      bson_iter_timestamp(it, &ts, &inc);
      AppendBigEndian(out, (static_cast<uint64_t>(ts) << 32) | inc);
      return;
    }
    case BSON_TYPE_REGEX: {
      const char* options;
      const char* regex = bson_iter_regex(it, &options);
      AppendEscaped(out, regex, strlen(regex));
      AppendEscaped(out, options, strlen(options));
      return;
    }
    default:
      out->push_back(static_cast<char>(bson_iter_type(it)));
      return;
  }
}

void AppendOrderedContents(bson_iter_t* children, bool is_document,
                           std::string* out) {
  while (bson_iter_next(children)) {
    out->push_back(static_cast<char>(BracketByte(bson_iter_type(children))));
    if (is_document)
      AppendEscaped(out, bson_iter_key(children), bson_iter_key_len(children));
    AppendOrderedValue(children, out);
  }
  out->push_back('\0');
}

// A key is one of: null, integer, real, text (borrowed), blob (owned).
struct Key {
  enum Kind { kNull, kInt, kReal, kText, kBlob } kind = kNull;
  int64_t i = 0;
  double d = 0;
  const char* text = nullptr;
  uint32_t text_len = 0;
  std::string blob;
};

void EncodeKey(const bson_iter_t* it, Key* key) {
  switch (bson_iter_type(it)) {
    case BSON_TYPE_EOD:
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED:
      key->kind = Key::kNull;
      return;
    case BSON_TYPE_INT32:
      key->kind = Key::kInt;
      key->i = bson_iter_int32(it);
      return;
    case BSON_TYPE_INT64:
      key->kind = Key::kInt;
      key->i = bson_iter_int64(it);
      return;
    case BSON_TYPE_DOUBLE: {
      double d = bson_iter_double(it);
      key->kind = Key::kReal;
      // SQLite turns NaN into NULL; MongoDB orders NaN below every number.
      key->d = std::isnan(d) ? -std::numeric_limits<double>::infinity() : d;
      return;
    }
    case BSON_TYPE_DECIMAL128: {
      bson_decimal128_t dec;
      bson_iter_decimal128(it, &dec);
      char buf[BSON_DECIMAL128_STRING];
      bson_decimal128_to_string(&dec, buf);
      key->kind = Key::kReal;
      key->d = std::strtod(buf, nullptr);
      return;
    }
    case BSON_TYPE_UTF8:
    case BSON_TYPE_SYMBOL:
      key->kind = Key::kText;
      key->text = bson_iter_utf8(it, &key->text_len);
      return;
    default:
      break;
  }
  key->kind = Key::kBlob;
  std::string& b = key->blob;
  switch (bson_iter_type(it)) {
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY: {
      // Order-preserving form of the contents, so that equal documents
      // (1 == 1.0) have equal keys and byte order is MongoDB's order.
      b.push_back(static_cast<char>(
          bson_iter_type(it) == BSON_TYPE_DOCUMENT ? kTagDocument : kTagArray));
      bson_iter_t child;
      bson_iter_recurse(it, &child);
      AppendOrderedContents(&child, bson_iter_type(it) == BSON_TYPE_DOCUMENT,
                            &b);
      return;
    }
    case BSON_TYPE_BINARY: {
      bson_subtype_t subtype;
      uint32_t len;
      const uint8_t* data;
      bson_iter_binary(it, &subtype, &len, &data);
      b.push_back(static_cast<char>(kTagBinary));
      // Length first: MongoDB orders binaries by length, then subtype.
      AppendBigEndian(&b, len);
      b.push_back(static_cast<char>(subtype));
      b.append(reinterpret_cast<const char*>(data), len);
      return;
    }
    case BSON_TYPE_OID:
      b.push_back(static_cast<char>(kTagObjectId));
      b.append(reinterpret_cast<const char*>(bson_iter_oid(it)->bytes), 12);
      return;
    case BSON_TYPE_BOOL:
      b.push_back(static_cast<char>(kTagBool));
      b.push_back(bson_iter_bool(it) ? 1 : 0);
      return;
    case BSON_TYPE_DATE_TIME:
      b.push_back(static_cast<char>(kTagDate));
      // Flip the sign bit so that byte order is numeric order.
      AppendBigEndian(
          &b, static_cast<uint64_t>(bson_iter_date_time(it)) ^ (1ULL << 63));
      return;
    case BSON_TYPE_TIMESTAMP: {
      uint32_t ts, inc;
      bson_iter_timestamp(it, &ts, &inc);
      b.push_back(static_cast<char>(kTagTimestamp));
      AppendBigEndian(&b, (static_cast<uint64_t>(ts) << 32) | inc);
      return;
    }
    case BSON_TYPE_REGEX: {
      const char* options;
      const char* regex = bson_iter_regex(it, &options);
      b.push_back(static_cast<char>(kTagRegex));
      b.append(regex);
      b.push_back('\0');
      b.append(options);
      return;
    }
    default: {
      // Rare types (code, minKey, maxKey, ...) compare by type only.
      b.push_back(static_cast<char>(kTagOther));
      b.push_back(static_cast<char>(bson_iter_type(it)));
      if (bson_iter_type(it) == BSON_TYPE_CODE) {
        uint32_t len;
        const char* code = bson_iter_code(it, &len);
        b.append(code, len);
      }
      return;
    }
  }
}

// A top-level field found by walking the document's bytes directly:
// libbson's iterator validates every element it passes, which made field
// reads the largest cost of a scan. Only the element layout is checked here;
// anything unusual returns kUnsure and the caller takes the libbson path.
enum class RawFind { kFound, kMissing, kUnsure };

uint32_t ReadLe32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

// The size of an element's value at `p` of type `type`; false when the
// value would run past `end` or the type is a rare one this walk leaves to
// libbson.
bool RawValueSize(uint8_t type, const uint8_t* p, const uint8_t* end,
                  size_t* size) {
  size_t room = static_cast<size_t>(end - p);
  // Values that start with their own int32 length: that length plus `extra`.
  auto counted = [&](size_t extra, size_t minimum) {
    if (room < 4) return false;
    size_t n = ReadLe32(p);
    if (n < minimum || n + extra > room) return false;
    *size = n + extra;
    return true;
  };
  switch (type) {
    case BSON_TYPE_DOUBLE:
    case BSON_TYPE_DATE_TIME:
    case BSON_TYPE_TIMESTAMP:
    case BSON_TYPE_INT64:
      *size = 8;
      break;
    case BSON_TYPE_INT32:
      *size = 4;
      break;
    case BSON_TYPE_BOOL:
      *size = 1;
      break;
    case BSON_TYPE_OID:
      *size = 12;
      break;
    case BSON_TYPE_DECIMAL128:
      *size = 16;
      break;
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED:
      *size = 0;
      break;
    case BSON_TYPE_UTF8:
      // The string's length counts its terminating NUL.
      return counted(4, 1) && p[*size - 1] == '\0';
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY:
      return counted(0, 5);
    case BSON_TYPE_BINARY:
      return counted(5, 0);
    default:
      return false;
  }
  return *size <= room;
}

RawFind RawFindField(const uint8_t* data, size_t len, std::string_view key,
                     uint8_t* type, const uint8_t** value) {
  if (len < 5 || ReadLe32(data) != len || data[len - 1] != '\0')
    return RawFind::kUnsure;
  const uint8_t* p = data + 4;
  const uint8_t* end = data + len - 1;  // the document's closing NUL
  while (p < end) {
    uint8_t t = *p++;
    const uint8_t* name = p;
    // Field names are short: a loop costs less than a call to memchr.
    while (p < end && *p) p++;
    if (p == end) return RawFind::kUnsure;
    p++;
    size_t size;
    if (!RawValueSize(t, p, end, &size)) return RawFind::kUnsure;
    if (static_cast<size_t>(p - 1 - name) == key.size() &&
        std::memcmp(name, key.data(), key.size()) == 0) {
      *type = t;
      *value = p;
      return RawFind::kFound;
    }
    p += size;
  }
  return p == end ? RawFind::kMissing : RawFind::kUnsure;
}

// kova_key/kova_get on a top-level field of the common scalar types, without
// libbson; false when the slower general path must answer.
bool FastFieldResult(sqlite3_context* ctx, sqlite3_value** argv, bool as_key) {
  const auto* data = static_cast<const uint8_t*>(sqlite3_value_blob(argv[0]));
  int len = sqlite3_value_bytes(argv[0]);
  const char* field =
      reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  int field_len = sqlite3_value_bytes(argv[1]);
  if (!data || !field) return false;
  std::string_view key(field, field_len);
  if (as_key && key.find('.') != std::string_view::npos) return false;
  uint8_t type;
  const uint8_t* value;
  switch (RawFindField(data, static_cast<size_t>(len), key, &type, &value)) {
    case RawFind::kUnsure:
      return false;
    case RawFind::kMissing:
      sqlite3_result_null(ctx);
      return true;
    case RawFind::kFound:
      break;
  }
  switch (type) {
    case BSON_TYPE_INT32:
      sqlite3_result_int64(ctx, static_cast<int32_t>(ReadLe32(value)));
      return true;
    case BSON_TYPE_INT64: {
      uint64_t v = ReadLe32(value) | static_cast<uint64_t>(ReadLe32(value + 4))
                                         << 32;
      sqlite3_result_int64(ctx, static_cast<int64_t>(v));
      return true;
    }
    case BSON_TYPE_DOUBLE: {
      double d;
      std::memcpy(&d, value, sizeof d);  // BSON is little-endian, as x86
      if (std::isnan(d)) {
        // kova_key: NaN below every number (EncodeKey); kova_get: 'NaN'.
        if (as_key)
          sqlite3_result_double(ctx, -std::numeric_limits<double>::infinity());
        else
          sqlite3_result_text(ctx, "NaN", 3, SQLITE_STATIC);
      } else {
        sqlite3_result_double(ctx, d);
      }
      return true;
    }
    case BSON_TYPE_UTF8:
      sqlite3_result_text(ctx, reinterpret_cast<const char*>(value + 4),
                          static_cast<int>(ReadLe32(value) - 1),
                          SQLITE_TRANSIENT);
      return true;
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED:
      sqlite3_result_null(ctx);
      return true;
    case BSON_TYPE_BOOL:
      if (as_key || value[0] > 1) return false;
      sqlite3_result_int(ctx, value[0]);
      return true;
    default:
      return false;
  }
}

void KovaKeyFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const auto* cancel = static_cast<const CancelCheck*>(sqlite3_user_data(ctx));
  if (cancel && cancel->check && cancel->check(cancel->arg)) {
    sqlite3_result_error(ctx, "statement cancelled", -1);
    return;
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    sqlite3_result_null(ctx);
    return;
  }
  if (FastFieldResult(ctx, argv, /*as_key=*/true)) return;
  const auto* data = static_cast<const uint8_t*>(sqlite3_value_blob(argv[0]));
  int len = sqlite3_value_bytes(argv[0]);
  const char* path = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  int path_len = sqlite3_value_bytes(argv[1]);
  bson_t doc;
  if (!data || !path || !bson_init_static(&doc, data, len)) {
    sqlite3_result_null(ctx);
    return;
  }
  bson_iter_t it;
  if (!FindPath(&doc, std::string_view(path, path_len), &it)) {
    sqlite3_result_null(ctx);
    return;
  }
  Key key;
  EncodeKey(&it, &key);
  switch (key.kind) {
    case Key::kNull:
      sqlite3_result_null(ctx);
      break;
    case Key::kInt:
      sqlite3_result_int64(ctx, key.i);
      break;
    case Key::kReal:
      sqlite3_result_double(ctx, key.d);
      break;
    case Key::kText:
      sqlite3_result_text(ctx, key.text, static_cast<int>(key.text_len),
                          SQLITE_TRANSIENT);
      break;
    case Key::kBlob:
      sqlite3_result_blob(ctx, key.blob.data(),
                          static_cast<int>(key.blob.size()), SQLITE_TRANSIENT);
      break;
  }
}

}  // namespace

bool FindKeyExact(bson_iter_t* it, std::string_view key) {
  while (bson_iter_next(it)) {
    uint32_t len = bson_iter_key_len(it);
    if (len == key.size() &&
        std::memcmp(bson_iter_key(it), key.data(), len) == 0)
      return true;
  }
  return false;
}

// kova_get(doc, field): the top-level field as a plain SQLite value for the
// SQL layer: booleans as 0/1, binary as a BLOB, an ObjectId as its hex
// text, documents and arrays as relaxed JSON; NULL when null or missing.
static void KovaGetFunction(sqlite3_context* ctx, int argc,
                            sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    sqlite3_result_null(ctx);
    return;
  }
  if (FastFieldResult(ctx, argv, /*as_key=*/false)) return;
  const auto* data = static_cast<const uint8_t*>(sqlite3_value_blob(argv[0]));
  int len = sqlite3_value_bytes(argv[0]);
  const char* field =
      reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  int field_len = sqlite3_value_bytes(argv[1]);
  bson_t doc;
  bson_iter_t it;
  if (!data || !field || !bson_init_static(&doc, data, len) ||
      !bson_iter_init(&it, &doc) ||
      !FindKeyExact(&it, std::string_view(field, field_len))) {
    sqlite3_result_null(ctx);
    return;
  }
  switch (bson_iter_type(&it)) {
    case BSON_TYPE_INT32:
      sqlite3_result_int64(ctx, bson_iter_int32(&it));
      break;
    case BSON_TYPE_INT64:
      sqlite3_result_int64(ctx, bson_iter_int64(&it));
      break;
    case BSON_TYPE_DOUBLE: {
      // NaN as the text 'NaN' (a NaN REAL would read as NULL in SQLite).
      double d = bson_iter_double(&it);
      if (d != d)
        sqlite3_result_text(ctx, "NaN", 3, SQLITE_STATIC);
      else
        sqlite3_result_double(ctx, d);
      break;
    }
    case BSON_TYPE_BOOL:
      sqlite3_result_int(ctx, bson_iter_bool(&it) ? 1 : 0);
      break;
    case BSON_TYPE_UTF8: {
      uint32_t n;
      const char* text = bson_iter_utf8(&it, &n);
      sqlite3_result_text(ctx, text, static_cast<int>(n), SQLITE_TRANSIENT);
      break;
    }
    case BSON_TYPE_BINARY: {
      bson_subtype_t subtype;
      uint32_t n;
      const uint8_t* bytes;
      bson_iter_binary(&it, &subtype, &n, &bytes);
      sqlite3_result_blob(ctx, bytes, static_cast<int>(n), SQLITE_TRANSIENT);
      break;
    }
    case BSON_TYPE_OID: {
      char hex[25];
      bson_oid_to_string(bson_iter_oid(&it), hex);
      sqlite3_result_text(ctx, hex, 24, SQLITE_TRANSIENT);
      break;
    }
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED:
      sqlite3_result_null(ctx);
      break;
    default: {
      std::string json = ValueToJson(&it);
      sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()),
                          SQLITE_TRANSIENT);
      break;
    }
  }
}

int RegisterKeyFunction(sqlite3* db, const CancelCheck* cancel) {
  return sqlite3_create_function(
      db, "kova_key", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
      const_cast<CancelCheck*>(cancel), KovaKeyFunction, nullptr, nullptr);
}

int RegisterFunctions(sqlite3* db) {
  int rc = RegisterKeyFunction(db, nullptr);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_create_function(
      db, "kova_get", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
      nullptr, KovaGetFunction, nullptr, nullptr);
}

bool FindPath(const bson_t* doc, std::string_view path, bson_iter_t* out) {
  bson_iter_t it;
  if (!bson_iter_init(&it, doc)) return false;
  while (true) {
    size_t dot = path.find('.');
    std::string_view part = path.substr(0, dot);
    if (!FindKeyExact(&it, part)) return false;
    if (dot == std::string_view::npos) {
      *out = it;
      return true;
    }
    if (!BSON_ITER_HOLDS_DOCUMENT(&it) && !BSON_ITER_HOLDS_ARRAY(&it))
      return false;
    bson_iter_t child;
    if (!bson_iter_recurse(&it, &child)) return false;
    it = child;
    path = path.substr(dot + 1);
  }
}

void BindKey(sqlite3_stmt* stmt, int index, const bson_iter_t* value) {
  Key key;
  EncodeKey(value, &key);
  switch (key.kind) {
    case Key::kNull:
      sqlite3_bind_null(stmt, index);
      break;
    case Key::kInt:
      sqlite3_bind_int64(stmt, index, key.i);
      break;
    case Key::kReal:
      sqlite3_bind_double(stmt, index, key.d);
      break;
    case Key::kText:
      sqlite3_bind_text(stmt, index, key.text, static_cast<int>(key.text_len),
                        SQLITE_TRANSIENT);
      break;
    case Key::kBlob:
      sqlite3_bind_blob(stmt, index, key.blob.data(),
                        static_cast<int>(key.blob.size()), SQLITE_TRANSIENT);
      break;
  }
}

KeyBracket BracketOf(const bson_iter_t* value) {
  Key key;
  EncodeKey(value, &key);
  switch (key.kind) {
    case Key::kNull:
      return KeyBracket::kNull;
    case Key::kInt:
    case Key::kReal:
      return KeyBracket::kNumber;
    case Key::kText:
      return KeyBracket::kString;
    default:
      return KeyBracket::kOther;
  }
}

std::optional<int64_t> IntegralValue(const bson_iter_t* value) {
  switch (bson_iter_type(value)) {
    case BSON_TYPE_INT32:
      return bson_iter_int32(value);
    case BSON_TYPE_INT64:
      return bson_iter_int64(value);
    case BSON_TYPE_DOUBLE: {
      double d = bson_iter_double(value);
      // 2^63 is exactly representable; anything at or beyond it is not int64.
      if (std::isfinite(d) && d == std::trunc(d) &&
          d >= -9223372036854775808.0 && d < 9223372036854775808.0)
        return static_cast<int64_t>(d);
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

void AppendInteger(bson_t* doc, std::string_view key, int64_t value) {
  if (value >= std::numeric_limits<int32_t>::min() &&
      value <= std::numeric_limits<int32_t>::max()) {
    bson_append_int32(doc, key.data(), static_cast<int>(key.size()),
                      static_cast<int32_t>(value));
  } else {
    bson_append_int64(doc, key.data(), static_cast<int>(key.size()), value);
  }
}

std::string ValueToJson(const bson_iter_t* value) {
  bson_t tmp = BSON_INITIALIZER;
  bson_append_iter(&tmp, "v", 1, value);
  size_t len;
  char* json = bson_as_relaxed_extended_json(&tmp, &len);
  bson_destroy(&tmp);
  std::string s(json, len);
  bson_free(json);
  // "{ "v" : X }" -> "X"
  const std::string prefix = "{ \"v\" : ";
  if (s.size() >= prefix.size() + 2 && s.compare(0, prefix.size(), prefix) == 0)
    return s.substr(prefix.size(), s.size() - prefix.size() - 2);
  return s;
}

std::string QuoteIdent(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string QuoteLiteral(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

Status SqliteError(sqlite3* db, int rc, std::string_view context) {
  std::string msg = std::string(context) + ": " + sqlite3_errmsg(db);
  if (rc == SQLITE_BUSY_SNAPSHOT) {
    return Status::Error(Code::kConflict,
                         "could not serialize access due to a concurrent "
                         "update; retry the transaction");
  }
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Error(Code::kBusy,
                           "could not obtain a lock on the data within the "
                           "lock timeout (" +
                               msg + ")");
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
      return Status::Error(Code::kIOError, msg);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Error(Code::kCorruption, msg);
    default:
      return Status::Error(Code::kInternal, msg);
  }
}

}  // namespace kova::docstore
