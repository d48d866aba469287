// Updates: a small mutable tree of a document, $set/$inc/$unset on dotted
// paths, and replacement documents.
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "docstore/internal.h"

namespace kova::docstore {
namespace {

// A value in a mutable document: a document or array with ordered children,
// or a scalar kept as a one-element BSON document {"": value}.
struct Node {
  enum Kind { kScalar, kDocument, kArray } kind = kDocument;
  std::string scalar;  // raw bytes of {"": value}
  std::vector<std::pair<std::string, Node>> children;

  Node* Child(std::string_view name) {
    for (auto& [key, child] : children)
      if (key == name) return &child;
    return nullptr;
  }
  bool scalar_iter(bson_iter_t* it) const {
    bson_t b;
    if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(scalar.data()),
                          scalar.size()))
      return false;
    return bson_iter_init(it, &b) && bson_iter_next(it);
  }
};

Node ScalarFrom(const bson_iter_t* it) {
  Node n;
  n.kind = Node::kScalar;
  bson_t tmp = BSON_INITIALIZER;
  bson_append_iter(&tmp, "", 0, it);
  n.scalar.assign(reinterpret_cast<const char*>(bson_get_data(&tmp)), tmp.len);
  bson_destroy(&tmp);
  return n;
}

Node FromIter(bson_iter_t* parent_children, Node::Kind kind) {
  Node n;
  n.kind = kind;
  while (bson_iter_next(parent_children)) {
    std::string key(bson_iter_key(parent_children),
                    bson_iter_key_len(parent_children));
    if (BSON_ITER_HOLDS_DOCUMENT(parent_children) ||
        BSON_ITER_HOLDS_ARRAY(parent_children)) {
      bson_iter_t child;
      bson_iter_recurse(parent_children, &child);
      n.children.emplace_back(
          key, FromIter(&child, BSON_ITER_HOLDS_ARRAY(parent_children)
                                    ? Node::kArray
                                    : Node::kDocument));
    } else {
      n.children.emplace_back(key, ScalarFrom(parent_children));
    }
  }
  return n;
}

void AppendNode(bson_t* out, const std::string& key, const Node& node);

void AppendChildren(bson_t* out, const Node& node) {
  size_t index = 0;
  for (const auto& [key, child] : node.children) {
    // Array keys are always "0", "1", ...; recompute after removals.
    AppendNode(out, node.kind == Node::kArray ? std::to_string(index) : key,
               child);
    index++;
  }
}

void AppendNode(bson_t* out, const std::string& key, const Node& node) {
  int klen = static_cast<int>(key.size());
  if (node.kind == Node::kScalar) {
    bson_iter_t it;
    if (node.scalar_iter(&it)) bson_append_iter(out, key.c_str(), klen, &it);
    return;
  }
  bson_t child;
  if (node.kind == Node::kDocument) {
    bson_append_document_begin(out, key.c_str(), klen, &child);
    AppendChildren(&child, node);
    bson_append_document_end(out, &child);
  } else {
    bson_append_array_begin(out, key.c_str(), klen, &child);
    AppendChildren(&child, node);
    bson_append_array_end(out, &child);
  }
}

std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    parts.emplace_back(path.substr(start, dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool IsArrayIndex(const std::string& s, size_t* index) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  *index = std::stoul(s);
  return true;
}

// Finds (and with `create`, makes) the parent of the last path component.
Status Resolve(Node* root, const std::vector<std::string>& parts, bool create,
               Node** parent) {
  Node* cur = root;
  for (size_t i = 0; i + 1 < parts.size(); i++) {
    Node* next = cur->Child(parts[i]);
    if (!next) {
      if (!create) {
        *parent = nullptr;
        return Status::OK();
      }
      if (cur->kind == Node::kArray) {
        return Status::Error(
            Code::kPathNotViable,
            "cannot create field '" + parts[i] + "' in an array");
      }
      cur->children.emplace_back(parts[i], Node{});
      next = &cur->children.back().second;
    }
    if (next->kind == Node::kScalar) {
      if (!create) {
        *parent = nullptr;
        return Status::OK();
      }
      return Status::Error(Code::kPathNotViable,
                           "cannot create field '" + parts[i + 1] +
                               "' in element '" + parts[i] +
                               "', which is not a document");
    }
    cur = next;
  }
  *parent = cur;
  return Status::OK();
}

Status SetAt(Node* root, std::string_view path, Node value) {
  auto parts = SplitPath(path);
  Node* parent;
  Status s = Resolve(root, parts, true, &parent);
  if (!s.ok()) return s;
  const std::string& last = parts.back();
  if (Node* existing = parent->Child(last)) {
    *existing = std::move(value);
    return Status::OK();
  }
  if (parent->kind == Node::kArray) {
    size_t index;
    if (!IsArrayIndex(last, &index)) {
      return Status::Error(Code::kPathNotViable,
                           "cannot create field '" + last + "' in an array");
    }
    // Pad with nulls up to the index, as MongoDB does.
    bson_t null_doc = BSON_INITIALIZER;
    bson_append_null(&null_doc, "", 0);
    bson_iter_t nit;
    bson_iter_init(&nit, &null_doc);
    bson_iter_next(&nit);
    while (parent->children.size() < index)
      parent->children.emplace_back(std::to_string(parent->children.size()),
                                    ScalarFrom(&nit));
    bson_destroy(&null_doc);
  }
  parent->children.emplace_back(last, std::move(value));
  return Status::OK();
}

void UnsetAt(Node* root, std::string_view path) {
  auto parts = SplitPath(path);
  Node* parent;
  if (!Resolve(root, parts, false, &parent).ok() || !parent) return;
  auto& ch = parent->children;
  for (auto it = ch.begin(); it != ch.end(); ++it) {
    if (it->first == parts.back()) {
      if (parent->kind == Node::kArray) {
        // An unset array element becomes null (MongoDB keeps positions).
        bson_t null_doc = BSON_INITIALIZER;
        bson_append_null(&null_doc, "", 0);
        bson_iter_t nit;
        bson_iter_init(&nit, &null_doc);
        bson_iter_next(&nit);
        it->second = ScalarFrom(&nit);
        bson_destroy(&null_doc);
      } else {
        ch.erase(it);
      }
      return;
    }
  }
}

Status IncAt(Node* root, std::string_view path, const bson_iter_t* by) {
  if (!BSON_ITER_HOLDS_NUMBER(by)) {
    return Status::Error(Code::kTypeMismatch,
                         "cannot increment with non-numeric argument: {" +
                             std::string(path) + ": " + ValueToJson(by) + "}");
  }
  auto parts = SplitPath(path);
  Node* parent;
  Status s = Resolve(root, parts, true, &parent);
  if (!s.ok()) return s;
  Node* existing = parent->Child(parts.back());
  bson_t result = BSON_INITIALIZER;
  if (!existing) {
    bson_append_iter(&result, "", 0, by);
  } else {
    bson_iter_t cur;
    if (existing->kind != Node::kScalar || !existing->scalar_iter(&cur) ||
        !BSON_ITER_HOLDS_NUMBER(&cur)) {
      bson_destroy(&result);
      return Status::Error(Code::kTypeMismatch,
                           "cannot apply $inc to a value of non-numeric type "
                           "at path '" +
                               std::string(path) + "'");
    }
    bool is_double = BSON_ITER_HOLDS_DOUBLE(&cur) || BSON_ITER_HOLDS_DOUBLE(by);
    if (is_double) {
      bson_append_double(&result, "", 0,
                         bson_iter_as_double(&cur) + bson_iter_as_double(by));
    } else {
      int64_t a = bson_iter_as_int64(&cur), b = bson_iter_as_int64(by);
      int64_t sum;
      if (__builtin_add_overflow(a, b, &sum)) {
        bson_destroy(&result);
        return Status::Error(Code::kOverflow,
                             "$inc overflows a 64-bit integer at path '" +
                                 std::string(path) + "'");
      }
      bool both32 = BSON_ITER_HOLDS_INT32(&cur) && BSON_ITER_HOLDS_INT32(by);
      // int32 + int32 stays int32 unless it overflows, as in MongoDB.
      if (both32 && sum >= std::numeric_limits<int32_t>::min() &&
          sum <= std::numeric_limits<int32_t>::max())
        bson_append_int32(&result, "", 0, static_cast<int32_t>(sum));
      else
        bson_append_int64(&result, "", 0, sum);
    }
  }
  bson_iter_t rit;
  bson_iter_init(&rit, &result);
  bson_iter_next(&rit);
  Node value = ScalarFrom(&rit);
  bson_destroy(&result);
  if (existing) {
    *existing = std::move(value);
  } else {
    parent->children.emplace_back(parts.back(), std::move(value));
  }
  return Status::OK();
}

bool TouchesId(std::string_view path) {
  return path == "_id" || path.substr(0, 4) == "_id.";
}

Node NodeFromValue(const bson_iter_t* it) {
  if (BSON_ITER_HOLDS_DOCUMENT(it) || BSON_ITER_HOLDS_ARRAY(it)) {
    bson_iter_t child;
    bson_iter_recurse(it, &child);
    return FromIter(&child,
                    BSON_ITER_HOLDS_ARRAY(it) ? Node::kArray : Node::kDocument);
  }
  return ScalarFrom(it);
}

}  // namespace

Status ApplyUpdate(const bson_t* doc, const bson_t* update, Document* out,
                   bool* changed) {
  bson_iter_t uit;
  if (!bson_iter_init(&uit, update))
    return Status::Error(Code::kBadValue, "invalid update document");
  bool has_ops = false, has_fields = false;
  while (bson_iter_next(&uit)) {
    if (bson_iter_key(&uit)[0] == '$')
      has_ops = true;
    else
      has_fields = true;
  }
  if (has_ops && has_fields) {
    return Status::Error(Code::kBadValue,
                         "an update document cannot mix $-operators and "
                         "plain fields");
  }
  bson_t* result = bson_new();
  if (!has_ops) {
    // Replacement: keeps _id; a different _id is refused.
    bson_iter_t id, new_id;
    bool had_id = bson_iter_init_find(&id, doc, "_id");
    if (bson_iter_init_find(&new_id, update, "_id") && had_id) {
      if (ValueToJson(&id) != ValueToJson(&new_id) ||
          bson_iter_type(&id) != bson_iter_type(&new_id)) {
        bson_destroy(result);
        return Status::Error(Code::kImmutableField,
                             "performing an update on the path '_id' would "
                             "modify the immutable field '_id'");
      }
    }
    if (had_id) bson_append_iter(result, "_id", 3, &id);
    bson_iter_init(&uit, update);
    while (bson_iter_next(&uit)) {
      if (strcmp(bson_iter_key(&uit), "_id") == 0) continue;
      bson_append_iter(result, nullptr, 0, &uit);
    }
  } else {
    bson_iter_t dit;
    bson_iter_init(&dit, doc);
    Node root = FromIter(&dit, Node::kDocument);
    bson_iter_init(&uit, update);
    while (bson_iter_next(&uit)) {
      std::string op = bson_iter_key(&uit);
      if (op != "$set" && op != "$inc" && op != "$unset") {
        bson_destroy(result);
        return Status::Error(Code::kBadValue,
                             "unknown update operator: " + op +
                                 " (supported: $set, $inc, $unset)");
      }
      if (!BSON_ITER_HOLDS_DOCUMENT(&uit)) {
        bson_destroy(result);
        return Status::Error(Code::kTypeMismatch,
                             "modifiers operate on fields but we found a " +
                                 std::string("non-document argument for ") +
                                 op);
      }
      bson_iter_t fit;
      bson_iter_recurse(&uit, &fit);
      while (bson_iter_next(&fit)) {
        std::string_view path(bson_iter_key(&fit), bson_iter_key_len(&fit));
        if (path.empty() || path.front() == '.' || path.back() == '.' ||
            path.find("..") != std::string_view::npos) {
          bson_destroy(result);
          return Status::Error(Code::kBadValue, "invalid field path '" +
                                                    std::string(path) + "'");
        }
        if (TouchesId(path)) {
          bson_destroy(result);
          return Status::Error(Code::kImmutableField,
                               "performing an update on the path '_id' would "
                               "modify the immutable field '_id'");
        }
        Status s;
        if (op == "$set") {
          s = SetAt(&root, path, NodeFromValue(&fit));
        } else if (op == "$unset") {
          UnsetAt(&root, path);
        } else {
          s = IncAt(&root, path, &fit);
        }
        if (!s.ok()) {
          bson_destroy(result);
          return s;
        }
      }
    }
    AppendChildren(result, root);
  }
  *changed = result->len != doc->len ||
             memcmp(bson_get_data(result), bson_get_data(doc), doc->len) != 0;
  *out = Document(result);
  return Status::OK();
}

}  // namespace kova::docstore
