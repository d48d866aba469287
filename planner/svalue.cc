#include "planner/svalue.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "planner/expr_internal.h"
#include "planner/types_array.h"
#include "planner/types_datetime.h"
#include "planner/types_ids.h"
#include "planner/user_types.h"

namespace kova::planner {
namespace {

// Intervals are kept in one fixed style so that stored text does not depend
// on the session's IntervalStyle.
const types::TypeContext& StorageContext() {
  static const types::TypeContext context;  // UTC, ISO, postgres
  return context;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Element types whose canonical text depends on the session's settings:
// arrays of them are stored with the elements in the storage settings.
bool ContextDependent(uint32_t element) {
  return element == oid::kDate || element == oid::kTimestamp ||
         element == oid::kTimestamptz || element == oid::kInterval ||
         element == oid::kFloat4 || element == oid::kFloat8;
}

// Re-expresses an array's elements from one context's canonical text in
// another's (through the elements' SQLite forms, which are context-free).
bool ConvertArray(uint32_t type, const std::string& text,
                  const types::TypeContext& from, const types::TypeContext& to,
                  std::string* out, PgError* error) {
  uint32_t element = types::ArrayElementType(type);
  if (!ContextDependent(element)) {
    *out = text;
    return true;
  }
  types::ArrayValue value;
  if (!types::ParseArray(text, element, -1, from, false, &value, error))
    return false;
  for (auto& item : value.items) {
    if (!item) continue;
    SValue sv;
    Value converted;
    if (!ToSValue(element, item, from, &sv, error) ||
        !FromSValue(element, sv, to, &converted, error))
      return false;
    item = std::move(converted);
  }
  *out = types::FormatArray(value);
  return true;
}

}  // namespace

const types::TypeContext& ArrayStorageContext() { return StorageContext(); }

SKind SKindOf(uint32_t type) {
  type = user_types::BaseType(type);
  switch (type) {
    case oid::kBool:
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8:
    case oid::kOid:
    case oid::kDate:
    case oid::kTime:
    case oid::kTimestamp:
    case oid::kTimestamptz:
    case oid::kTid:
    case oid::kXid:
    case oid::kCid:
    case oid::kXid8:
      return SKind::kInt;
    case oid::kFloat4:
    case oid::kFloat8:
      return SKind::kReal;
    case oid::kBytea:
      return SKind::kBlob;
    default:
      return SKind::kText;
  }
}

const char* CollationOf(uint32_t type) {
  if (type == oid::kNumeric) return "kova_numeric";
  if (type == oid::kInterval) return "kova_interval";
  uint32_t element = types::ArrayElementType(type);
  if (element) {
    static const auto* names = [] {
      auto* m = new std::map<uint32_t, std::string>;
      for (uint32_t e : ArrayElementTypes())
        (*m)[e] = "kova_array_" + std::to_string(e);
      return m;
    }();
    auto it = names->find(element);
    if (it != names->end()) return it->second.c_str();
  }
  if (user_types::IsDomain(type))
    return CollationOf(user_types::BaseType(type));
  return user_types::CollationName(type);
}

const std::vector<uint32_t>& ArrayElementTypes() {
  static const std::vector<uint32_t> types = {
      oid::kBool,        oid::kBytea,    oid::kName,    oid::kInt8,
      oid::kInt2,        oid::kInt4,     oid::kText,    oid::kOid,
      oid::kJson,        oid::kFloat4,   oid::kFloat8,  oid::kBpchar,
      oid::kVarchar,     oid::kDate,     oid::kTime,    oid::kTimestamp,
      oid::kTimestamptz, oid::kInterval, oid::kNumeric, oid::kUuid,
      oid::kJsonb};
  return types;
}

bool ToSValue(uint32_t type, const Value& canonical,
              const types::TypeContext& context, SValue* out, PgError* error) {
  *out = SValue{};
  if (!canonical) return true;
  const std::string& text = *canonical;
  type = user_types::BaseType(type);
  switch (type) {
    case oid::kBool:
      out->kind = SKind::kInt;
      out->i = text == "t" ? 1 : 0;
      return true;
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8:
    case oid::kOid: {
      out->kind = SKind::kInt;
      auto r = std::from_chars(text.data(), text.data() + text.size(), out->i);
      if (r.ec != std::errc()) {
        error->sqlstate = "XX000";
        error->message = "unexpected integer value \"" + text + "\"";
        return false;
      }
      return true;
    }
    case oid::kFloat4:
    case oid::kFloat8:
      // SQLite turns a NaN REAL into NULL; NaN is the text 'NaN', which
      // SQLite sorts after every number and compares equal to itself, as
      // PostgreSQL orders NaN.
      if (text == "NaN") {
        out->kind = SKind::kText;
        out->s = "NaN";
        return true;
      }
      out->kind = SKind::kReal;
      out->d = expr_detail::ToDouble(text);
      // A real holds a float's value: as a double (in arithmetic with
      // double precision, numeric, comparisons, avg) it is that float
      // widened, 1.100000023841858 for 1.1, not the decimal of its text.
      if (type == oid::kFloat4) out->d = static_cast<float>(out->d);
      return true;
    case oid::kBpchar: {
      // char(n) compares without its trailing blanks: they are not stored
      // (output pads to the column's length again).
      size_t end = text.find_last_not_of(' ');
      out->kind = SKind::kText;
      out->s = end == std::string::npos ? "" : text.substr(0, end + 1);
      return true;
    }
    case oid::kTid: {
      int64_t v;
      if (!types::ids::TidIn(text, &v, error)) return false;
      out->kind = SKind::kInt;
      out->i = v;
      return true;
    }
    case oid::kXid:
    case oid::kCid:
      out->kind = SKind::kInt;
      out->i = types::ids::Xid32In(text);
      return true;
    case oid::kXid8:
      // Above 2^63 the value wraps: it prints right but sorts first.
      out->kind = SKind::kInt;
      out->i = static_cast<int64_t>(types::ids::Xid8In(text));
      return true;
    case oid::kDate: {
      int32_t days;
      if (!types::dt::DateInCanonical(text, context, &days, error))
        return false;
      out->kind = SKind::kInt;
      out->i = days;
      return true;
    }
    case oid::kTime: {
      int64_t t;
      if (!types::dt::TimeIn(text, -1, context, &t, error)) return false;
      out->kind = SKind::kInt;
      out->i = t;
      return true;
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      int64_t ts;
      if (!types::dt::TimestampInCanonical(text, type == oid::kTimestamptz,
                                           context, &ts, error))
        return false;
      out->kind = SKind::kInt;
      out->i = ts;
      return true;
    }
    case oid::kInterval: {
      if (context.intervalstyle == StorageContext().intervalstyle) break;
      types::dt::Interval iv;
      if (!types::dt::IntervalIn(text, -1, context, &iv, error)) return false;
      out->kind = SKind::kText;
      types::dt::IntervalOut(iv, StorageContext(), &out->s);
      return true;
    }
    case oid::kBytea: {
      out->kind = SKind::kBlob;
      // Canonical bytea is "\x" followed by hex digits.
      if (text.size() < 2 || text[0] != '\\' || text[1] != 'x') {
        out->s = text;
        return true;
      }
      out->s.reserve((text.size() - 2) / 2);
      for (size_t i = 2; i + 1 < text.size(); i += 2)
        out->s.push_back(
            static_cast<char>(HexValue(text[i]) * 16 + HexValue(text[i + 1])));
      return true;
    }
    default:
      if (types::ArrayElementType(type)) {
        out->kind = SKind::kText;
        return ConvertArray(type, text, context, StorageContext(), &out->s,
                            error);
      }
      break;
  }
  out->kind = SKind::kText;
  out->s = text;
  return true;
}

bool FromSValue(uint32_t type, const SValue& value,
                const types::TypeContext& context, Value* out, PgError* error) {
  type = user_types::BaseType(type);
  if (value.kind == SKind::kNull) {
    *out = std::nullopt;
    return true;
  }
  auto as_int = [&]() -> int64_t {
    if (value.kind == SKind::kInt) return value.i;
    if (value.kind == SKind::kReal) return static_cast<int64_t>(value.d);
    int64_t v = 0;
    std::from_chars(value.s.data(), value.s.data() + value.s.size(), v);
    return v;
  };
  switch (type) {
    case oid::kBool:
      *out = as_int() ? "t" : "f";
      return true;
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8:
    case oid::kOid:
      if (value.kind == SKind::kText) break;
      *out = std::to_string(as_int());
      return true;
    case oid::kFloat4:
    case oid::kFloat8: {
      double d = value.kind == SKind::kReal  ? value.d
                 : value.kind == SKind::kInt ? static_cast<double>(value.i)
                                             : expr_detail::ToDouble(value.s);
      return expr_detail::FormatDouble(d, type, context, out, error);
    }
    case oid::kNumeric:
      if (value.kind == SKind::kInt) {
        *out = std::to_string(value.i);
        return true;
      }
      if (value.kind == SKind::kReal) {
        std::string canonical;
        if (!types::Cast(oid::kFloat8, oid::kNumeric, -1,
                         *Value(std::to_string(value.d)), context, &canonical,
                         error))
          return false;
        *out = canonical;
        return true;
      }
      break;
    case oid::kTid: {
      if (value.kind != SKind::kInt) break;
      std::string s;
      types::ids::TidOut(value.i, &s);
      *out = std::move(s);
      return true;
    }
    case oid::kXid:
    case oid::kCid:
    case oid::kXid8:
      if (value.kind != SKind::kInt) break;
      *out = std::to_string(
          type == oid::kXid8
              ? static_cast<uint64_t>(value.i)
              : static_cast<uint64_t>(static_cast<uint32_t>(value.i)));
      return true;
    case oid::kDate: {
      if (value.kind != SKind::kInt) break;
      std::string s;
      types::dt::DateOut(static_cast<int32_t>(value.i), context, &s);
      *out = std::move(s);
      return true;
    }
    case oid::kTime: {
      if (value.kind != SKind::kInt) break;
      std::string s;
      types::dt::TimeOut(value.i, &s);
      *out = std::move(s);
      return true;
    }
    case oid::kTimestamp:
    case oid::kTimestamptz: {
      if (value.kind != SKind::kInt) break;
      std::string s;
      if (!types::dt::TimestampOut(value.i, type == oid::kTimestamptz, context,
                                   &s, error))
        return false;
      *out = std::move(s);
      return true;
    }
    case oid::kInterval: {
      if (value.kind != SKind::kText) break;
      if (context.intervalstyle == StorageContext().intervalstyle) break;
      types::dt::Interval iv;
      if (!types::dt::IntervalIn(value.s, -1, StorageContext(), &iv, error))
        return false;
      std::string s;
      types::dt::IntervalOut(iv, context, &s);
      *out = std::move(s);
      return true;
    }
    case oid::kBytea: {
      if (value.kind != SKind::kBlob) break;
      static const char* kHex = "0123456789abcdef";
      std::string s = "\\x";
      s.reserve(2 + value.s.size() * 2);
      for (unsigned char c : value.s) {
        s.push_back(kHex[c >> 4]);
        s.push_back(kHex[c & 15]);
      }
      *out = std::move(s);
      return true;
    }
    default:
      if (types::ArrayElementType(type) && value.kind == SKind::kText) {
        std::string text;
        if (!ConvertArray(type, value.s, StorageContext(), context, &text,
                          error))
          return false;
        *out = std::move(text);
        return true;
      }
      break;
  }
  switch (value.kind) {
    case SKind::kInt:
      *out = std::to_string(value.i);
      return true;
    case SKind::kReal:
      return expr_detail::FormatDouble(value.d, oid::kFloat8, context, out,
                                       error);
    default:
      *out = value.s;
      return true;
  }
}

SValue ReadSValue(sqlite3_value* v) {
  SValue out;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      out.kind = SKind::kInt;
      out.i = sqlite3_value_int64(v);
      break;
    case SQLITE_FLOAT:
      out.kind = SKind::kReal;
      out.d = sqlite3_value_double(v);
      break;
    case SQLITE_TEXT:
      out.kind = SKind::kText;
      out.s.assign(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                   sqlite3_value_bytes(v));
      break;
    case SQLITE_BLOB: {
      out.kind = SKind::kBlob;
      const void* p = sqlite3_value_blob(v);
      out.s.assign(static_cast<const char*>(p), sqlite3_value_bytes(v));
      break;
    }
    default:
      break;
  }
  return out;
}

SValue ReadColumn(sqlite3_stmt* stmt, int column) {
  return ReadSValue(sqlite3_column_value(stmt, column));
}

void BindSValue(sqlite3_stmt* stmt, int index, const SValue& v) {
  switch (v.kind) {
    case SKind::kNull:
      sqlite3_bind_null(stmt, index);
      break;
    case SKind::kInt:
      sqlite3_bind_int64(stmt, index, v.i);
      break;
    case SKind::kReal:
      sqlite3_bind_double(stmt, index, v.d);
      break;
    case SKind::kText:
      sqlite3_bind_text(stmt, index, v.s.data(), static_cast<int>(v.s.size()),
                        SQLITE_TRANSIENT);
      break;
    case SKind::kBlob:
      sqlite3_bind_blob(stmt, index, v.s.data(), static_cast<int>(v.s.size()),
                        SQLITE_TRANSIENT);
      break;
  }
}

void ResultSValue(sqlite3_context* ctx, const SValue& v) {
  switch (v.kind) {
    case SKind::kNull:
      sqlite3_result_null(ctx);
      break;
    case SKind::kInt:
      sqlite3_result_int64(ctx, v.i);
      break;
    case SKind::kReal:
      sqlite3_result_double(ctx, v.d);
      break;
    case SKind::kText:
      sqlite3_result_text(ctx, v.s.data(), static_cast<int>(v.s.size()),
                          SQLITE_TRANSIENT);
      break;
    case SKind::kBlob:
      sqlite3_result_blob(ctx, v.s.data(), static_cast<int>(v.s.size()),
                          SQLITE_TRANSIENT);
      break;
  }
}

namespace {

// Appends items [begin, begin + count) of `value` at dimension `dim` as a
// BSON array (nested for the next dimensions).
void AppendArrayLevel(bson_t* doc, std::string_view key, uint32_t element,
                      const types::ArrayValue& value, size_t dim,
                      size_t begin) {
  bson_t child;
  bson_append_array_begin(doc, key.data(), static_cast<int>(key.size()),
                          &child);
  size_t stride = 1;
  for (size_t d = dim + 1; d < value.dims.size(); d++) stride *= value.dims[d];
  for (int32_t i = 0; i < value.dims[dim]; i++) {
    std::string index = std::to_string(i);
    if (dim + 1 < value.dims.size()) {
      AppendArrayLevel(&child, index, element, value, dim + 1,
                       begin + i * stride);
      continue;
    }
    const auto& item = value.items[begin + i];
    SValue sv;
    PgError ignored;
    if (!item) {
      bson_append_null(&child, index.data(), static_cast<int>(index.size()));
    } else if (ToSValue(element, item, StorageContext(), &sv, &ignored)) {
      AppendSValue(&child, index, element, sv);
    } else {
      bson_append_utf8(&child, index.data(), static_cast<int>(index.size()),
                       item->data(), static_cast<int>(item->size()));
    }
  }
  bson_append_array_end(doc, &child);
}

// Arrays go into documents as BSON arrays of their elements' document
// forms. BSON arrays cannot say lower bounds other than 1: such arrays stay
// text.
bool AppendArray(bson_t* doc, std::string_view key, uint32_t type,
                 const std::string& text) {
  uint32_t element = types::ArrayElementType(type);
  types::ArrayValue value;
  PgError ignored;
  if (!types::ParseArray(text, element, -1, StorageContext(), false, &value,
                         &ignored))
    return false;
  for (int32_t lb : value.lbounds)
    if (lb != 1) return false;
  if (value.items.empty()) {
    bson_t child;
    bson_append_array_begin(doc, key.data(), static_cast<int>(key.size()),
                            &child);
    bson_append_array_end(doc, &child);
    return true;
  }
  AppendArrayLevel(doc, key, element, value, 0, 0);
  return true;
}

// Reads a BSON array back into value (dims from the nesting).
bool ReadArrayLevel(const bson_iter_t* it, uint32_t element, size_t dim,
                    types::ArrayValue* value) {
  bson_iter_t child;
  if (!bson_iter_recurse(it, &child)) return false;
  int32_t count = 0;
  while (bson_iter_next(&child)) {
    count++;
    if (BSON_ITER_HOLDS_ARRAY(&child)) {
      if (dim + 1 >= static_cast<size_t>(types::kMaxArrayDims) ||
          !ReadArrayLevel(&child, element, dim + 1, value))
        return false;
      continue;
    }
    if (value->dims.size() > dim + 1) return false;  // ragged
    Value item;
    PgError ignored;
    if (!FromSValue(element, SValueFromBson(&child), StorageContext(), &item,
                    &ignored))
      return false;
    value->items.push_back(std::move(item));
  }
  if (value->dims.size() <= dim) value->dims.resize(dim + 1, -1);
  if (value->dims[dim] >= 0 && value->dims[dim] != count) return false;
  value->dims[dim] = count;
  return true;
}

}  // namespace

bool ArrayTextFromBson(const bson_iter_t* it, uint32_t type,
                       std::string* text) {
  if (BSON_ITER_HOLDS_UTF8(it)) {
    uint32_t n;
    const char* s = bson_iter_utf8(it, &n);
    text->assign(s, n);
    return true;
  }
  if (!BSON_ITER_HOLDS_ARRAY(it)) return false;
  types::ArrayValue value;
  if (!ReadArrayLevel(it, types::ArrayElementType(type), 0, &value))
    return false;
  size_t total = 1;
  for (int32_t d : value.dims) total *= d < 0 ? 0 : d;
  if (value.items.empty()) {
    value.dims.clear();
  } else if (total != value.items.size()) {
    return false;
  }
  value.lbounds.assign(value.dims.size(), 1);
  *text = types::FormatArray(value);
  return true;
}

SValue SValueFromBson(const bson_iter_t* it, uint32_t type) {
  if (!types::ArrayElementType(type)) return SValueFromBson(it);
  SValue out;
  if (ArrayTextFromBson(it, type, &out.s)) out.kind = SKind::kText;
  return out;
}

void AppendSValue(bson_t* doc, std::string_view key, uint32_t type,
                  const SValue& v) {
  type = user_types::BaseType(type);
  int n = static_cast<int>(key.size());
  if (v.kind == SKind::kText && types::ArrayElementType(type) &&
      AppendArray(doc, key, type, v.s))
    return;
  switch (v.kind) {
    case SKind::kNull:
      bson_append_null(doc, key.data(), n);
      break;
    case SKind::kInt:
      if (type == oid::kBool) {
        bson_append_bool(doc, key.data(), n, v.i != 0);
      } else if (v.i >= std::numeric_limits<int32_t>::min() &&
                 v.i <= std::numeric_limits<int32_t>::max()) {
        bson_append_int32(doc, key.data(), n, static_cast<int32_t>(v.i));
      } else {
        bson_append_int64(doc, key.data(), n, v.i);
      }
      break;
    case SKind::kReal:
      bson_append_double(doc, key.data(), n, v.d);
      break;
    case SKind::kText:
      if ((type == oid::kFloat8 || type == oid::kFloat4) && v.s == "NaN") {
        bson_append_double(doc, key.data(), n, std::nan(""));
        break;
      }
      bson_append_utf8(doc, key.data(), n, v.s.data(),
                       static_cast<int>(v.s.size()));
      break;
    case SKind::kBlob:
      bson_append_binary(doc, key.data(), n, BSON_SUBTYPE_BINARY,
                         reinterpret_cast<const uint8_t*>(v.s.data()),
                         static_cast<uint32_t>(v.s.size()));
      break;
  }
}

SValue SValueFromBson(const bson_iter_t* it) {
  SValue out;
  switch (bson_iter_type(it)) {
    case BSON_TYPE_INT32:
      out.kind = SKind::kInt;
      out.i = bson_iter_int32(it);
      break;
    case BSON_TYPE_INT64:
      out.kind = SKind::kInt;
      out.i = bson_iter_int64(it);
      break;
    case BSON_TYPE_BOOL:
      out.kind = SKind::kInt;
      out.i = bson_iter_bool(it) ? 1 : 0;
      break;
    case BSON_TYPE_DOUBLE:
      out.kind = SKind::kReal;
      out.d = bson_iter_double(it);
      if (std::isnan(out.d)) {
        out.kind = SKind::kText;
        out.s = "NaN";
      }
      break;
    case BSON_TYPE_UTF8: {
      uint32_t n;
      const char* s = bson_iter_utf8(it, &n);
      out.kind = SKind::kText;
      out.s.assign(s, n);
      break;
    }
    case BSON_TYPE_BINARY: {
      bson_subtype_t sub;
      uint32_t n;
      const uint8_t* b;
      bson_iter_binary(it, &sub, &n, &b);
      out.kind = SKind::kBlob;
      out.s.assign(reinterpret_cast<const char*>(b), n);
      break;
    }
    case BSON_TYPE_OID: {
      char hex[25];
      bson_oid_to_string(bson_iter_oid(it), hex);
      out.kind = SKind::kText;
      out.s = hex;
      break;
    }
    default:
      break;
  }
  return out;
}

void PadBpchar(int32_t typmod, Value* value) {
  if (!*value || typmod < 5) return;
  size_t want = static_cast<size_t>(typmod - 4), chars = 0;
  for (unsigned char c : **value)
    if ((c & 0xC0) != 0x80) chars++;
  if (chars < want) (*value)->append(want - chars, ' ');
}

std::string BpcharPadSql(const std::string& sql, size_t length) {
  std::string n = std::to_string(length);
  return "CASE WHEN length(" + sql + ") < " + n + " THEN " + sql +
         " || printf('%*s', " + n + " - length(" + sql + "), '') ELSE " + sql +
         " END";
}

std::string SqlQuoteLiteral(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

std::string SqlQuoteIdent(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string ColumnSql(std::string_view alias, std::string_view column,
                      uint32_t type) {
  // kova_key is the expression the field indexes are built on, so SQLite
  // uses them; it returns the plain value for numbers and strings. Booleans,
  // binary and floats (kova_key gives 1.0 as the integer 1) use kova_get.
  type = user_types::BaseType(type);
  std::string doc = std::string(alias) + ".doc";
  std::string lit = SqlQuoteLiteral(column);
  std::string sql;
  if (types::ArrayElementType(type)) {
    // Arrays are BSON arrays in documents: kova_array_get gives their text.
    return "(kova_array_get(" + doc + ", " + lit + ", " + std::to_string(type) +
           ") COLLATE " + CollationOf(type) + ")";
  }
  switch (type) {
    case oid::kBool:
    case oid::kBytea:
    case oid::kFloat4:
    case oid::kFloat8:
      sql = "kova_get(" + doc + ", " + lit + ")";
      break;
    default:
      if (column == "_id")
        sql = "kova_get(" + doc + ", " + lit + ")";
      else
        sql = "kova_key(" + doc + ", " + lit + ")";
  }
  const char* coll = CollationOf(type);
  if (*coll) sql = "(" + sql + " COLLATE " + coll + ")";
  return sql;
}

}  // namespace kova::planner
