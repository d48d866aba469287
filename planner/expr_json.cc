// json/jsonb functions and operators of the expression layer: to_json,
// json_build_object/array, json_typeof, jsonb_pretty, ->, ->>, #>, #>>,
// @>, <@, ?, jsonb - key, json_array_length.
#include <algorithm>
#include <functional>

#include "planner/expr_internal.h"
#include "planner/types_array.h"
#include "planner/types_json.h"

namespace kova::planner::expr_detail {

namespace {

// A parsed JSON value that remembers its text.
struct JNode {
  char kind = 'n';   // o object, a array, s string, d number, b bool, n null
  std::string text;  // raw source text of the value
  std::string str;   // decoded string (kind s)
  bool boolean = false;
  std::vector<std::pair<std::string, JNode>> members;  // object
  std::vector<JNode> items;                            // array
};

class JParser {
 public:
  explicit JParser(const std::string& s) : s_(s) {}
  bool Parse(JNode* out) {
    Ws();
    if (!Value(out)) return false;
    Ws();
    return i_ == s_.size();
  }

 private:
  void Ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' ||
                              s_[i_] == '\n' || s_[i_] == '\r'))
      i_++;
  }
  bool String(std::string* out) {
    if (s_[i_] != '"') return false;
    i_++;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (i_ >= s_.size()) return false;
      char e = s_[i_++];
      switch (e) {
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'u': {
          if (i_ + 4 > s_.size()) return false;
          uint32_t cp = std::stoul(s_.substr(i_, 4), nullptr, 16);
          i_ += 4;
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 6 <= s_.size() &&
              s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            uint32_t lo = std::stoul(s_.substr(i_ + 2, 4), nullptr, 16);
            i_ += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          std::string u;
          if (cp < 0x80) {
            u.push_back(static_cast<char>(cp));
          } else if (cp < 0x800) {
            u.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            u.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
          } else if (cp < 0x10000) {
            u.push_back(static_cast<char>(0xE0 | (cp >> 12)));
            u.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            u.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
          } else {
            u.push_back(static_cast<char>(0xF0 | (cp >> 18)));
            u.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            u.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            u.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
          }
          *out += u;
          break;
        }
        default:
          out->push_back(e);
      }
    }
    if (i_ >= s_.size()) return false;
    i_++;
    return true;
  }
  bool Value(JNode* n) {
    if (i_ >= s_.size()) return false;
    size_t start = i_;
    char c = s_[i_];
    if (c == '{') {
      n->kind = 'o';
      i_++;
      Ws();
      if (i_ < s_.size() && s_[i_] == '}') {
        i_++;
      } else {
        while (true) {
          Ws();
          std::string key;
          if (i_ >= s_.size() || !String(&key)) return false;
          Ws();
          if (i_ >= s_.size() || s_[i_] != ':') return false;
          i_++;
          Ws();
          JNode child;
          if (!Value(&child)) return false;
          n->members.emplace_back(std::move(key), std::move(child));
          Ws();
          if (i_ < s_.size() && s_[i_] == ',') {
            i_++;
            continue;
          }
          if (i_ < s_.size() && s_[i_] == '}') {
            i_++;
            break;
          }
          return false;
        }
      }
    } else if (c == '[') {
      n->kind = 'a';
      i_++;
      Ws();
      if (i_ < s_.size() && s_[i_] == ']') {
        i_++;
      } else {
        while (true) {
          Ws();
          JNode child;
          if (!Value(&child)) return false;
          n->items.push_back(std::move(child));
          Ws();
          if (i_ < s_.size() && s_[i_] == ',') {
            i_++;
            continue;
          }
          if (i_ < s_.size() && s_[i_] == ']') {
            i_++;
            break;
          }
          return false;
        }
      }
    } else if (c == '"') {
      n->kind = 's';
      if (!String(&n->str)) return false;
    } else if (s_.compare(i_, 4, "true") == 0) {
      n->kind = 'b';
      n->boolean = true;
      i_ += 4;
    } else if (s_.compare(i_, 5, "false") == 0) {
      n->kind = 'b';
      i_ += 5;
    } else if (s_.compare(i_, 4, "null") == 0) {
      n->kind = 'n';
      i_ += 4;
    } else {
      n->kind = 'd';
      while (i_ < s_.size() &&
             std::string("+-0123456789.eE").find(s_[i_]) != std::string::npos)
        i_++;
      if (i_ == start) return false;
    }
    n->text = s_.substr(start, i_ - start);
    return true;
  }
  const std::string& s_;
  size_t i_ = 0;
};

bool ParseJson(const std::string& s, JNode* n, PgError* error) {
  JParser p(s);
  if (!p.Parse(n)) {
    *error = Err("22P02", "invalid input syntax for type json");
    return false;
  }
  return true;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

// to_json of a value of a type.
bool ToJson(uint32_t type, const Value& v, const types::TypeContext& ctx,
            std::string* out, PgError* error) {
  if (!v) {
    *out = "null";
    return true;
  }
  const std::string& s = *v;
  if (types::ArrayElementType(type))
    return ArrayToJson(type, s, false, ctx, out, error);
  if (IsNumber(type)) {
    bool special = s == "NaN" || s == "Infinity" || s == "-Infinity";
    *out = special ? Quote(s) : s;
  } else if (type == oid::kBool) {
    *out = s == "t" ? "true" : "false";
  } else if (type == oid::kJson || type == oid::kJsonb) {
    *out = s;
  } else if (type == oid::kDate || type == oid::kTimestamp ||
             type == oid::kTimestamptz || type == oid::kTime) {
    // ISO 8601 (XSD) form, whatever the DateStyle.
    types::TypeContext iso = ctx;
    iso.datestyle = "ISO, MDY";
    std::string t;
    if (!types::Cast(type, oid::kText, -1, s, ctx, &t, error)) return false;
    std::string canon;
    if (!types::InputText(type, -1, t, ctx, &canon, error)) return false;
    // Re-print under ISO.
    std::string bin, iso_text;
    if (!types::TextToBinary(type, canon, ctx, &bin, error) ||
        !types::BinaryToText(type, -1, bin, iso, &iso_text, error))
      return false;
    if (type == oid::kTimestamp || type == oid::kTimestamptz) {
      size_t sp = iso_text.find(' ');
      if (sp != std::string::npos &&
          iso_text.find("infinity") == std::string::npos)
        iso_text[sp] = 'T';
      if (type == oid::kTimestamptz) {
        size_t k = iso_text.find_last_of("+-");
        if (k != std::string::npos && k > 10 &&
            iso_text.find(':', k) == std::string::npos)
          iso_text += ":00";
      }
    }
    *out = Quote(iso_text);
  } else {
    std::string t = s;
    if (type == oid::kBpchar || IsText(type) || type == oid::kUnknown) {
      *out = Quote(t);
      return true;
    }
    if (!types::Cast(type, oid::kText, -1, s, ctx, &t, error)) return false;
    *out = Quote(t);
  }
  return true;
}

const char* TypeOf(const JNode& n) {
  switch (n.kind) {
    case 'o':
      return "object";
    case 'a':
      return "array";
    case 's':
      return "string";
    case 'd':
      return "number";
    case 'b':
      return "boolean";
    default:
      return "null";
  }
}

void Pretty(const JNode& n, int indent, std::string* out) {
  std::string pad(4 * (indent + 1), ' ');
  if (n.kind == 'o') {
    if (n.members.empty()) {
      *out += "{\n" + std::string(4 * indent, ' ') + "}";
      return;
    }
    *out += "{\n";
    for (size_t i = 0; i < n.members.size(); i++) {
      if (i) *out += ",\n";
      *out += pad + Quote(n.members[i].first) + ": ";
      Pretty(n.members[i].second, indent + 1, out);
    }
    *out += "\n" + std::string(4 * indent, ' ') + "}";
  } else if (n.kind == 'a') {
    if (n.items.empty()) {
      *out += "[\n" + std::string(4 * indent, ' ') + "]";
      return;
    }
    *out += "[\n";
    for (size_t i = 0; i < n.items.size(); i++) {
      if (i) *out += ",\n";
      *out += pad;
      Pretty(n.items[i], indent + 1, out);
    }
    *out += "\n" + std::string(4 * indent, ' ') + "]";
  } else {
    *out += n.text;
  }
}

// The member of an object by key (the last one for json duplicates is
// PostgreSQL's json behaviour: the first; jsonb has no duplicates).
const JNode* Member(const JNode& n, const std::string& key) {
  if (n.kind != 'o') return nullptr;
  for (const auto& m : n.members)
    if (m.first == key) return &m.second;
  return nullptr;
}

const JNode* Item(const JNode& n, int64_t index) {
  if (n.kind != 'a') return nullptr;
  int64_t size = static_cast<int64_t>(n.items.size());
  if (index < 0) index += size;
  if (index < 0 || index >= size) return nullptr;
  return &n.items[index];
}

bool Result(const JNode* n, bool as_text, bool jsonb, Value* out,
            PgError* error) {
  if (!n) return true;
  if (as_text) {
    if (n->kind == 'n') return true;
    if (n->kind == 's') {
      *out = n->str;
      return true;
    }
  }
  if (jsonb) {
    std::string norm;
    if (!types::json::Normalize(n->text, &norm, error)) return false;
    *out = norm;
  } else {
    *out = n->text;
  }
  return true;
}

// A text[] literal '{a,b,"c d"}' as its elements.
bool ParsePath(const std::string& s, std::vector<std::string>* out,
               PgError* error) {
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') i++;
  if (i >= s.size() || s[i] != '{') {
    *error = Err("22P02", "malformed array literal: \"" + s + "\"");
    error->detail =
        "Array value must start with \"{\" or dimension information.";
    return false;
  }
  i++;
  std::string cur;
  bool quoted = false, any = false;
  for (; i < s.size(); i++) {
    char c = s[i];
    if (quoted) {
      if (c == '\\' && i + 1 < s.size()) {
        cur += s[++i];
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = any = true;
    } else if (c == ',' || c == '}') {
      if (any || !cur.empty()) {
        std::string v = cur;
        if (!v.empty()) {
          size_t b = v.find_first_not_of(' '), e = v.find_last_not_of(' ');
          v = b == std::string::npos ? "" : v.substr(b, e - b + 1);
        }
        out->push_back(v);
      }
      cur.clear();
      any = false;
      if (c == '}') return true;
    } else {
      cur += c;
    }
  }
  *error = Err("22P02", "malformed array literal: \"" + s + "\"");
  return false;
}

bool Contains(const JNode& a, const JNode& b) {
  if (a.kind == 'o' && b.kind == 'o') {
    for (const auto& m : b.members) {
      const JNode* x = Member(a, m.first);
      if (!x || !Contains(*x, m.second)) return false;
    }
    return true;
  }
  if (a.kind == 'a' && b.kind == 'a') {
    for (const JNode& y : b.items) {
      bool found = false;
      for (const JNode& x : a.items)
        if ((y.kind == 'o' || y.kind == 'a')
                ? x.kind == y.kind && Contains(x, y)
                : Contains(x, y)) {
          found = true;
          break;
        }
      if (!found) return false;
    }
    return true;
  }
  if (a.kind == 'a' && b.kind != 'o') {
    // An array contains a primitive value.
    for (const JNode& x : a.items)
      if (Contains(x, b)) return true;
    return false;
  }
  if (a.kind != b.kind) return false;
  if (a.kind == 's') return a.str == b.str;
  if (a.kind == 'b') return a.boolean == b.boolean;
  if (a.kind == 'n') return true;
  if (a.kind == 'd') return ToDouble(a.text) == ToDouble(b.text);
  return false;
}

// json(b)_strip_nulls: object members whose value is null go, at any
// depth (array elements stay), written without blanks as PostgreSQL's
// json version does.
std::string StripNulls(const JNode& node) {
  if (node.kind == 'o') {
    std::string j = "{";
    for (const auto& m : node.members) {
      if (m.second.kind == 'n') continue;
      if (j.size() > 1) j += ",";
      j += Quote(m.first) + ":" + StripNulls(m.second);
    }
    return j + "}";
  }
  if (node.kind == 'a') {
    std::string j = "[";
    for (const auto& item : node.items) {
      if (j.size() > 1) j += ",";
      j += StripNulls(item);
    }
    return j + "]";
  }
  return node.text;
}

// jsonb_set and #- (setPath in PostgreSQL's jsonfuncs.c): `node` with the
// value at path[level...] replaced by `value` (nullptr: deleted). A key or
// index that is missing adds `value` when `create` and at the path's last
// element (an index before the start prepends, past the end appends);
// otherwise nothing changes. Writes the result's JSON text.
// `insert` (jsonb_insert): 1 before, 2 after the array element at the
// path; an existing key is an error.
bool SetPath(const JNode& node, const std::vector<std::string>& path,
             size_t level, const std::string* value, bool create,
             std::string* out, PgError* error, int insert = 0) {
  const bool last = level + 1 == path.size();
  const std::string& key = path[level];
  if (node.kind == 'o') {
    std::string j = "{";
    bool found = false;
    for (const auto& m : node.members) {
      std::string member = m.second.text;
      if (m.first == key) {
        found = true;
        if (last) {
          if (insert) {
            *error = Err("22023", "cannot replace existing key");
            error->hint =
                "Try using the function jsonb_set to replace key value.";
            return false;
          }
          if (!value) continue;
          member = *value;
        } else if (!SetPath(m.second, path, level + 1, value, create, &member,
                            error, insert)) {
          return false;
        }
      }
      if (j.size() > 1) j += ", ";
      j += Quote(m.first) + ": " + member;
    }
    if (!found && last && value && create) {
      if (j.size() > 1) j += ", ";
      j += Quote(key) + ": " + *value;
    }
    *out = j + "}";
    return true;
  }
  if (node.kind == 'a') {
    int64_t idx;
    if (!ToInt64(key, &idx)) {
      *error =
          Err("22P02", "path element at position " + std::to_string(level + 1) +
                           " is not an integer: \"" + key + "\"");
      return false;
    }
    const int64_t n = static_cast<int64_t>(node.items.size());
    if (idx < 0) idx += n;
    std::string j = "[";
    auto add = [&](const std::string& item) {
      if (j.size() > 1) j += ", ";
      j += item;
    };
    if (idx < 0 && last && value && create) add(*value);
    for (int64_t i = 0; i < n; i++) {
      const JNode& item = node.items[i];
      if (i != idx) {
        add(item.text);
      } else if (last) {
        if (insert == 2) add(item.text);
        if (value) add(*value);
        if (insert == 1) add(item.text);
      } else {
        std::string inner;
        if (!SetPath(item, path, level + 1, value, create, &inner, error,
                     insert))
          return false;
        add(inner);
      }
    }
    if (idx >= n && last && value && create) add(*value);
    *out = j + "]";
    return true;
  }
  *out = node.text;  // a scalar inside the path: unchanged
  return true;
}

}  // namespace

bool ArrayToJson(uint32_t type, const std::string& value, bool pretty,
                 const types::TypeContext& ctx, std::string* out,
                 PgError* error) {
  uint32_t element = types::ArrayElementType(type);
  types::ArrayValue a;
  if (!types::ParseArray(value, element, -1, ctx, false, &a, error))
    return false;
  if (a.items.empty()) {
    *out = "[]";
    return true;
  }
  // Nested per dimension (lower bounds are not shown); with `pretty` the
  // items of the first dimension go on lines of their own.
  size_t next = 0;
  std::function<bool(size_t, std::string*)> level = [&](size_t dim,
                                                        std::string* o) {
    o->push_back('[');
    for (int32_t i = 0; i < a.dims[dim]; i++) {
      if (i) o->append(pretty && dim == 0 ? ",\n " : ",");
      if (dim + 1 < a.dims.size()) {
        if (!level(dim + 1, o)) return false;
        continue;
      }
      std::string j;
      if (!ToJson(element, a.items[next++], ctx, &j, error)) return false;
      o->append(j);
    }
    o->push_back(']');
    return true;
  };
  std::string result;
  if (!level(0, &result)) return false;
  *out = std::move(result);
  return true;
}

bool EvalJsonFunction(const Expr& e, const std::vector<Value>& args,
                      SessionHooks* hooks, bool* handled, Value* out,
                      PgError* error) {
  const auto& ctx = hooks->type_context();
  const std::string& n = e.name;
  *handled = true;
  if (n == "to_json" || n == "to_jsonb") {
    if (!args[0]) return true;
    std::string j;
    if (!ToJson(e.args[0]->type, args[0], ctx, &j, error)) return false;
    if (n == "to_jsonb") return types::json::Normalize(j, &*(*out = ""), error);
    *out = j;
    return true;
  }
  if (n == "json_build_object" || n == "jsonb_build_object" ||
      n == "json_build_array" || n == "jsonb_build_array") {
    bool object = n.find("object") != std::string::npos;
    std::string j = object ? "{" : "[";
    for (size_t i = 0; i < args.size(); i++) {
      if (object && i % 2 == 0) {
        if (!args[i]) {
          *error = Err("22004",
                       "argument " + std::to_string(i + 1) + " cannot be null");
          error->hint = "Object keys should be text.";
          return false;
        }
        if (i) j += ", ";
        std::string key = *args[i];
        uint32_t kt = e.args[i]->type;
        if (kt == oid::kBool) key = key == "t" ? "true" : "false";
        j += Quote(key) + " : ";
        continue;
      }
      if (!object && i) j += ", ";
      std::string v;
      if (!ToJson(e.args[i]->type, args[i], ctx, &v, error)) return false;
      j += v;
    }
    j += object ? "}" : "]";
    if (n[4] == 'b') {
      std::string norm;
      if (!types::json::Normalize(j, &norm, error)) return false;
      *out = norm;
    } else {
      *out = j;
    }
    return true;
  }
  static const char* const kNames[] = {"json_typeof",
                                       "jsonb_typeof",
                                       "jsonb_pretty",
                                       "json_array_length",
                                       "jsonb_array_length",
                                       "json_extract_path_text",
                                       "jsonb_extract_path_text",
                                       "json_strip_nulls",
                                       "jsonb_strip_nulls",
                                       "->",
                                       "->>",
                                       "#>",
                                       "#>>",
                                       "@>",
                                       "<@",
                                       "?",
                                       "?|",
                                       "?&",
                                       "-",
                                       "||",
                                       "#-",
                                       "jsonb_set",
                                       "jsonb_insert"};
  bool known = false;
  for (const char* k : kNames)
    if (n == k) known = true;
  if (!known) {
    *handled = false;
    return true;
  }
  for (const Value& v : args)
    if (!v) return true;
  bool jsonb = e.args[0]->type == oid::kJsonb;
  JNode doc;
  if (!ParseJson(*args[0], &doc, error)) return false;
  if (n == "json_typeof" || n == "jsonb_typeof") {
    *out = TypeOf(doc);
  } else if (n == "jsonb_pretty") {
    std::string s;
    Pretty(doc, 0, &s);
    *out = s;
  } else if (n == "json_array_length" || n == "jsonb_array_length") {
    if (doc.kind != 'a') {
      *error = Err("22023", doc.kind == 'o'
                                ? "cannot get array length of a non-array"
                                : "cannot get array length of a scalar");
      return false;
    }
    *out = std::to_string(doc.items.size());
  } else if (n == "json_extract_path_text" || n == "jsonb_extract_path_text") {
    return Result(Member(doc, *args[1]), true, jsonb, out, error);
  } else if (n == "->" || n == "->>") {
    bool as_text = n == "->>";
    if (e.args[1]->type == oid::kText)
      return Result(Member(doc, *args[1]), as_text, jsonb, out, error);
    int64_t idx;
    ToInt64(*args[1], &idx);
    return Result(Item(doc, idx), as_text, jsonb, out, error);
  } else if (n == "#>" || n == "#>>") {
    std::vector<std::string> path;
    if (!ParsePath(*args[1], &path, error)) return false;
    const JNode* cur = &doc;
    for (const std::string& p : path) {
      if (!cur) break;
      if (cur->kind == 'o') {
        cur = Member(*cur, p);
      } else if (cur->kind == 'a') {
        int64_t idx;
        cur = ToInt64(p, &idx) ? Item(*cur, idx) : nullptr;
      } else {
        cur = nullptr;
      }
    }
    return Result(cur, n == "#>>", jsonb, out, error);
  } else if (n == "@>" || n == "<@") {
    JNode other;
    if (!ParseJson(*args[1], &other, error)) return false;
    *out =
        (n == "@>" ? Contains(doc, other) : Contains(other, doc)) ? "t" : "f";
  } else if (n == "?" || n == "?|" || n == "?&") {
    // A key of an object, a string element of an array, or the string
    // itself; ?| any of the array's keys, ?& all of them.
    auto has = [&](const std::string& key) {
      if (doc.kind == 'o') return Member(doc, key) != nullptr;
      if (doc.kind == 'a')
        for (const JNode& x : doc.items)
          if (x.kind == 's' && x.str == key) return true;
      return doc.kind == 's' && doc.str == key;
    };
    if (n == "?") {
      *out = has(*args[1]) ? "t" : "f";
    } else {
      types::ArrayValue keys;
      static const types::TypeContext kContext;
      if (!types::ParseArray(*args[1], oid::kText, -1, kContext,
                             /*element_input=*/false, &keys, error))
        return false;
      bool any = false, all = true;
      for (const auto& k : keys.items) {
        if (!k) continue;  // NULL elements are ignored
        bool h = has(*k);
        any |= h;
        all &= h;
      }
      *out = (n == "?|" ? any : all) ? "t" : "f";
    }
  } else if (n == "-") {
    std::string j;
    if (doc.kind == 'o' && e.args[1]->type == oid::kText) {
      j = "{";
      bool first = true;
      for (const auto& m : doc.members) {
        if (m.first == *args[1]) continue;
        if (!first) j += ", ";
        first = false;
        j += Quote(m.first) + ": " + m.second.text;
      }
      j += "}";
    } else if (doc.kind == 'a') {
      int64_t idx = -1;
      bool by_index = e.args[1]->type != oid::kText;
      if (by_index) {
        ToInt64(*args[1], &idx);
        if (idx < 0) idx += doc.items.size();
      }
      j = "[";
      bool first = true;
      for (size_t i = 0; i < doc.items.size(); i++) {
        const JNode& x = doc.items[i];
        if (by_index ? static_cast<int64_t>(i) == idx
                     : x.kind == 's' && x.str == *args[1])
          continue;
        if (!first) j += ", ";
        first = false;
        j += x.text;
      }
      j += "]";
    } else {
      *error =
          Err("22023", doc.kind == 'o'
                           ? "cannot delete from object using integer index"
                           : "cannot delete from scalar");
      return false;
    }
    std::string norm;
    if (!types::json::Normalize(j, &norm, error)) return false;
    *out = norm;
  } else if (n == "jsonb_set" || n == "#-" || n == "jsonb_insert") {
    std::vector<std::string> path;
    if (!ParsePath(*args[1], &path, error)) return false;
    if (doc.kind != 'o' && doc.kind != 'a') {
      *error = Err("22023", n == "#-" ? "cannot delete path in scalar"
                                      : "cannot set path in scalar");
      return false;
    }
    if (path.empty()) {
      *out = *args[0];
      return true;
    }
    const bool insert = n == "jsonb_insert";
    std::string value;
    if (n == "jsonb_set" || insert) {
      JNode parsed;
      if (!ParseJson(*args[2], &parsed, error)) return false;
      value = parsed.text;
    }
    bool create =
        insert || (n == "jsonb_set" && (args.size() < 4 || *args[3] == "t"));
    int where = !insert ? 0 : args.size() >= 4 && *args[3] == "t" ? 2 : 1;
    std::string j;
    if (!SetPath(doc, path, 0, n == "#-" ? nullptr : &value, create, &j, error,
                 where))
      return false;
    std::string norm;
    if (!types::json::Normalize(j, &norm, error)) return false;
    *out = norm;
  } else if (n == "||") {
    // jsonb_concat: two objects merge (the right one's keys win); otherwise
    // both sides as arrays (a non-array is an array of itself), joined.
    JNode other;
    if (!ParseJson(*args[1], &other, error)) return false;
    std::string j;
    if (doc.kind == 'o' && other.kind == 'o') {
      j = "{";
      for (const JNode* side : {&doc, &other})
        for (const auto& m : side->members) {
          if (j.size() > 1) j += ", ";
          j += Quote(m.first) + ": " + m.second.text;
        }
      j += "}";
    } else {
      j = "[";
      for (const JNode* side : {&doc, &other}) {
        if (side->kind != 'a') {
          if (j.size() > 1) j += ", ";
          j += side->text;
          continue;
        }
        for (const JNode& x : side->items) {
          if (j.size() > 1) j += ", ";
          j += x.text;
        }
      }
      j += "]";
    }
    std::string norm;
    if (!types::json::Normalize(j, &norm, error)) return false;
    *out = norm;
  } else if (n == "json_strip_nulls" || n == "jsonb_strip_nulls") {
    std::string j = StripNulls(doc);
    if (jsonb) {
      std::string norm;
      if (!types::json::Normalize(j, &norm, error)) return false;
      j = std::move(norm);
    }
    *out = j;
  }
  return true;
}

bool IsJsonSetFunction(const std::string& name) {
  for (const char* k : {"json_array_elements", "jsonb_array_elements",
                        "json_array_elements_text", "jsonb_array_elements_text",
                        "json_object_keys", "jsonb_object_keys", "json_each",
                        "jsonb_each", "json_each_text", "jsonb_each_text"})
    if (name == k) return true;
  return false;
}

bool JsonSetRows(const std::string& name, const std::string& doc,
                 std::vector<std::vector<std::optional<std::string>>>* cols,
                 PgError* error) {
  JNode root;
  if (!ParseJson(doc, &root, error)) return false;
  const bool as_text = name.ends_with("_text");
  // A value as the function returns it: its JSON text, or for the _text
  // forms a string's contents and SQL NULL for a JSON null.
  auto cell = [&](const JNode& v) -> std::optional<std::string> {
    if (!as_text) return v.text;
    if (v.kind == 'n') return std::nullopt;
    if (v.kind == 's') return v.str;
    return v.text;
  };
  if (name.find("array_elements") != std::string::npos) {
    if (root.kind != 'a') {
      *error = Err("22023", root.kind == 'o'
                                ? "cannot extract elements from an object"
                                : "cannot extract elements from a scalar");
      return false;
    }
    cols->assign(1, {});
    for (const JNode& item : root.items) (*cols)[0].push_back(cell(item));
    return true;
  }
  if (root.kind != 'o') {
    std::string what = root.kind == 'a' ? "an array" : "a scalar";
    std::string message =
        name.find("object_keys") != std::string::npos
            ? "cannot call " + name + " on " + what
        : name.rfind("jsonb", 0) == 0
            ? "cannot call " + name + " on a non-object"
        : root.kind == 'a'
            ? std::string("cannot deconstruct an array as an object")
            : std::string("cannot deconstruct a scalar");
    *error = Err("22023", message);
    return false;
  }
  if (name.find("object_keys") != std::string::npos) {
    cols->assign(1, {});
    for (const auto& m : root.members) {
      // jsonb keys are unique already; json repeats what the text repeats.
      (*cols)[0].push_back(m.first);
    }
    return true;
  }
  cols->assign(2, {});
  for (const auto& m : root.members) {
    (*cols)[0].push_back(m.first);
    (*cols)[1].push_back(cell(m.second));
  }
  return true;
}

bool ValueToJson(uint32_t type, const Value& v, const types::TypeContext& ctx,
                 std::string* out, PgError* error) {
  return ToJson(type, v, ctx, out, error);
}

}  // namespace kova::planner::expr_detail
