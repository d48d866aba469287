// Query documents ({field: value, field: {$gt: v}, $or: [...]}) translated
// into SQL over kova_key(doc, path), so that SQLite uses the expression
// indexes built on exactly the same expressions.
#include <cstring>
#include <set>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

std::string Param(WhereClause* out, const bson_iter_t* value) {
  out->params.push_back(*value);
  return "?" + std::to_string(out->params.size());
}

// The condition that restricts a key to the BSON type bracket of `value`,
// so that {$gt: 5} never matches a string (as in MongoDB).
std::string BracketGuard(const std::string& key, const bson_iter_t* value) {
  switch (BracketOf(value)) {
    case KeyBracket::kNumber:
      return key + " < ''";  // every TEXT and BLOB sorts after numbers
    case KeyBracket::kString:
      return key + " >= '' AND " + key + " < x''";
    default:
      // BLOB brackets are guarded by their type tag in Comparison().
      return key + " >= x''";
  }
}

Status Comparison(const std::string& path, const char* op,
                  const bson_iter_t* value, WhereClause* out,
                  std::string* sql) {
  std::string key = KeyExpr(path);
  KeyBracket bracket = BracketOf(value);
  bool inclusive = strcmp(op, ">=") == 0 || strcmp(op, "<=") == 0;
  if (bracket == KeyBracket::kNull) {
    *sql = inclusive ? key + " IS NULL" : "0";
    return Status::OK();
  }
  *sql = "(" + key + " " + op + " " + Param(out, value);
  if (bracket == KeyBracket::kOther) {
    // Same type tag: the key lies between tag and tag+1 (first byte).
    std::string lo = "substr(" + Param(out, value) + ", 1, 1)";
    *sql +=
        " AND " + key + " >= " + lo + " AND substr(" + key + ", 1, 1) = " + lo;
  } else {
    *sql += " AND " + BracketGuard(key, value);
  }
  *sql += ")";
  return Status::OK();
}

Status InList(const std::string& path, const bson_iter_t* list, bool negate,
              WhereClause* out, std::string* sql) {
  if (!BSON_ITER_HOLDS_ARRAY(list)) {
    return Status::Error(Code::kBadValue, std::string(negate ? "$nin" : "$in") +
                                              " needs an array");
  }
  std::string key = KeyExpr(path);
  bson_iter_t it;
  bson_iter_recurse(list, &it);
  std::string values;
  bool has_null = false;
  while (bson_iter_next(&it)) {
    if (BracketOf(&it) == KeyBracket::kNull) {
      has_null = true;
      continue;
    }
    if (!values.empty()) values += ", ";
    values += Param(out, &it);
  }
  std::string in = values.empty() ? "0" : key + " IN (" + values + ")";
  if (!negate) {
    *sql = has_null ? "(" + in + " OR " + key + " IS NULL)" : "(" + in + ")";
  } else if (has_null) {
    *sql = "(" + key + " IS NOT NULL AND NOT (" + in + "))";
  } else {
    *sql = "(" + key + " IS NULL OR NOT (" + in + "))";
  }
  return Status::OK();
}

Status FieldCondition(const std::string& path, const bson_iter_t* cond,
                      WhereClause* out, std::string* sql) {
  std::string key = KeyExpr(path);
  bool operators = false;
  if (BSON_ITER_HOLDS_DOCUMENT(cond)) {
    bson_iter_t first;
    bson_iter_recurse(cond, &first);
    operators = bson_iter_next(&first) && bson_iter_key(&first)[0] == '$';
  }
  if (!operators) {
    *sql = BracketOf(cond) == KeyBracket::kNull
               ? key + " IS NULL"
               : key + " = " + Param(out, cond);
    return Status::OK();
  }
  bson_iter_t op;
  bson_iter_recurse(cond, &op);
  std::vector<std::string> parts;
  while (bson_iter_next(&op)) {
    std::string name = bson_iter_key(&op);
    std::string part;
    Status s;
    if (name == "$eq") {
      part = BracketOf(&op) == KeyBracket::kNull
                 ? key + " IS NULL"
                 : key + " = " + Param(out, &op);
    } else if (name == "$ne") {
      part = BracketOf(&op) == KeyBracket::kNull
                 ? key + " IS NOT NULL"
                 : key + " IS NOT " + Param(out, &op);
    } else if (name == "$gt") {
      s = Comparison(path, ">", &op, out, &part);
    } else if (name == "$gte") {
      s = Comparison(path, ">=", &op, out, &part);
    } else if (name == "$lt") {
      s = Comparison(path, "<", &op, out, &part);
    } else if (name == "$lte") {
      s = Comparison(path, "<=", &op, out, &part);
    } else if (name == "$in") {
      s = InList(path, &op, false, out, &part);
    } else if (name == "$nin") {
      s = InList(path, &op, true, out, &part);
    } else {
      return Status::Error(Code::kBadValue,
                           "unknown operator: " + name +
                               " (supported: $eq, $ne, $gt, $gte, $lt, $lte, "
                               "$in, $nin)");
    }
    if (!s.ok()) return s;
    parts.push_back(part);
  }
  if (parts.empty()) {
    *sql = "1";
    return Status::OK();
  }
  *sql = "(";
  for (size_t i = 0; i < parts.size(); i++) {
    if (i) *sql += " AND ";
    *sql += parts[i];
  }
  *sql += ")";
  return Status::OK();
}

Status BuildDocument(const bson_t* filter, WhereClause* out, std::string* sql);

Status Logical(const std::string& name, const bson_iter_t* value,
               WhereClause* out, std::string* sql) {
  if (!BSON_ITER_HOLDS_ARRAY(value)) {
    return Status::Error(Code::kBadValue, name + " must be an array");
  }
  bson_iter_t it;
  bson_iter_recurse(value, &it);
  std::vector<std::string> parts;
  while (bson_iter_next(&it)) {
    if (!BSON_ITER_HOLDS_DOCUMENT(&it)) {
      return Status::Error(Code::kBadValue,
                           name + " array entries must be documents");
    }
    uint32_t len;
    const uint8_t* data;
    bson_iter_document(&it, &len, &data);
    bson_t sub;
    bson_init_static(&sub, data, len);
    std::string part;
    Status s = BuildDocument(&sub, out, &part);
    if (!s.ok()) return s;
    parts.push_back(part);
  }
  if (parts.empty()) {
    return Status::Error(Code::kBadValue, name + " must be a nonempty array");
  }
  const char* joiner = name == "$and" ? " AND " : " OR ";
  std::string joined;
  for (size_t i = 0; i < parts.size(); i++) {
    if (i) joined += joiner;
    joined += parts[i];
  }
  *sql = name == "$nor" ? "NOT (" + joined + ")" : "(" + joined + ")";
  return Status::OK();
}

Status BuildDocument(const bson_t* filter, WhereClause* out, std::string* sql) {
  bson_iter_t it;
  if (!bson_iter_init(&it, filter))
    return Status::Error(Code::kBadValue, "invalid filter document");
  std::vector<std::string> parts;
  while (bson_iter_next(&it)) {
    std::string key(bson_iter_key(&it), bson_iter_key_len(&it));
    std::string part;
    Status s;
    if (!key.empty() && key[0] == '$') {
      if (key != "$and" && key != "$or" && key != "$nor") {
        return Status::Error(Code::kBadValue,
                             "unknown top level operator: " + key +
                                 " (supported: $and, $or, $nor)");
      }
      s = Logical(key, &it, out, &part);
    } else {
      s = FieldCondition(key, &it, out, &part);
    }
    if (!s.ok()) return s;
    parts.push_back(part);
  }
  if (parts.empty()) {
    *sql = "1";
    return Status::OK();
  }
  sql->clear();
  for (size_t i = 0; i < parts.size(); i++) {
    if (i) *sql += " AND ";
    *sql += parts[i];
  }
  return Status::OK();
}

}  // namespace

Status BuildWhere(const bson_t* filter, WhereClause* out) {
  out->params.clear();
  if (!filter) {
    out->sql = "1";
    return Status::OK();
  }
  return BuildDocument(filter, out, &out->sql);
}

void BindWhere(sqlite3_stmt* stmt, const WhereClause& where, int first) {
  for (size_t i = 0; i < where.params.size(); i++)
    BindKey(stmt, first + static_cast<int>(i), &where.params[i]);
}

Status BuildOrderBy(const bson_t* sort, std::string* out) {
  out->clear();
  if (!sort) return Status::OK();
  bson_iter_t it;
  bson_iter_init(&it, sort);
  while (bson_iter_next(&it)) {
    std::optional<int64_t> dir = IntegralValue(&it);
    if (!dir || (*dir != 1 && *dir != -1)) {
      return Status::Error(Code::kBadValue, std::string("sort direction of '") +
                                                bson_iter_key(&it) +
                                                "' must be 1 or -1");
    }
    *out += out->empty() ? " ORDER BY " : ", ";
    *out += KeyExpr(bson_iter_key(&it)) + (*dir == 1 ? " ASC" : " DESC");
  }
  if (!out->empty()) *out += ", rowid";
  return Status::OK();
}

Status ApplyProjection(const bson_t* doc, const bson_t* projection,
                       Document* out) {
  bson_iter_t it;
  bson_iter_init(&it, projection);
  std::set<std::string> fields;
  int include = -1;  // -1 unknown, 1 inclusion, 0 exclusion
  bool include_id = true;
  bool id_named = false;
  while (bson_iter_next(&it)) {
    std::string key = bson_iter_key(&it);
    bool on = bson_iter_as_bool(&it);
    if (key.find('.') != std::string::npos) {
      return Status::Error(
          Code::kBadValue,
          "projection of a dotted path is not supported: " + key);
    }
    if (key == "_id") {
      include_id = on;
      id_named = true;
      continue;
    }
    if (include == -1) {
      include = on ? 1 : 0;
    } else if (include != (on ? 1 : 0)) {
      return Status::Error(Code::kBadValue,
                           std::string("cannot do ") +
                               (on ? "inclusion" : "exclusion") + " on field " +
                               key + " in " + (on ? "exclusion" : "inclusion") +
                               " projection");
    }
    fields.insert(key);
  }
  // {_id: 1} alone is an inclusion of _id only; {_id: 0} alone excludes it.
  if (include == -1 && id_named && include_id) include = 1;
  bson_t* result = bson_new();
  bson_iter_init(&it, doc);
  while (bson_iter_next(&it)) {
    std::string key = bson_iter_key(&it);
    bool keep;
    if (key == "_id") {
      keep = include_id;
    } else if (include == 1) {
      keep = fields.count(key) > 0;
    } else {
      keep = fields.count(key) == 0;
    }
    if (keep) bson_append_iter(result, nullptr, 0, &it);
  }
  *out = Document(result);
  return Status::OK();
}

}  // namespace kova::docstore
