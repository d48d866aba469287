#include "planner/types_json.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "planner/types_numeric.h"
#include "planner/types_util.h"

namespace kova::planner::types::json {

namespace {

using util::Fail;

enum class Tok {
  kObjectStart,
  kObjectEnd,
  kArrayStart,
  kArrayEnd,
  kComma,
  kColon,
  kString,
  kNumber,
  kTrue,
  kFalse,
  kNull,
  kEnd,
};

enum class Err {
  kOk,
  kInvalidToken,
  kEscapingRequired,
  kEscapingInvalid,
  kUnicodeEscapeFormat,
  kUnicodeHighSurrogate,
  kUnicodeLowSurrogate,
  kCodePointZero,
  kExpectedEnd,
  kExpectedArrayNext,
  kExpectedColon,
  kExpectedJson,
  kExpectedMore,
  kExpectedObjectFirst,
  kExpectedObjectNext,
  kExpectedString,
  kDepth,
  kReported,  // *error already filled (numeric conversion)
};

enum class Ctx {
  kValue,
  kString,
  kObjectStart,
  kObjectLabel,
  kObjectNext,
  kObjectComma,
  kArrayNext,
  kEnd,
};

// A parsed jsonb value, stored flat (children by index) so that deeply
// nested input is neither parsed nor destroyed recursively.
struct Node {
  enum Type : uint8_t {
    kNull,
    kFalse,
    kTrue,
    kNumber,
    kString,
    kArray,
    kObject
  };
  Type type = kNull;
  std::string text;                // number text (numeric_out) or string
  std::vector<uint32_t> children;  // indexes into the arena
  std::vector<std::string> keys;   // object keys, parallel to children
};

// PostgreSQL's recursive parser fails with "stack depth limit exceeded"
// once nesting uses up max_stack_depth (2MB by default); measured on
// PostgreSQL 15 that is 14546 nested arrays or 13092 nested objects for
// json (one less of each for jsonb). Nesting is charged the same way: an
// array level costs 13092 units, an object level 14546.
constexpr int64_t kArrayCost = 13092;
constexpr int64_t kObjectCost = 14546;
constexpr int64_t kJsonBudget = 14546 * kArrayCost;
constexpr int64_t kJsonbBudget = 14545 * kArrayCost;

inline bool JsonAlnum(char c) {
  return util::IsAlnum(c) || c == '_' || (static_cast<unsigned char>(c) & 0x80);
}

void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class Parser {
 public:
  Parser(std::string_view in, bool build, PgError* error)
      : in_(in),
        build_(build),
        error_(error),
        budget_(build ? kJsonbBudget : kJsonBudget) {}

  // pg_parse_json. With build, the value is left in *nodes (root at 0).
  Err Parse(std::vector<Node>* nodes) {
    nodes_ = nodes;
    nodes_->clear();
    nodes_->emplace_back();
    Err e = Lex();
    if (e != Err::kOk) return e;
    e = ParseValue();
    if (e != Err::kOk) return e;
    return Expect(Ctx::kEnd, Tok::kEnd);
  }

  // report_json_context: the line of the error up to the token, at most
  // some 50 bytes of it.
  std::string Context() const {
    size_t start = line_start_, end = std::min(tok_end_, in_.size());
    while (end - start >= 50) {
      unsigned char c = static_cast<unsigned char>(in_[start]);
      start += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    }
    if (start - line_start_ <= 3) start = line_start_;
    bool more =
        !at_end_ && end < in_.size() && in_[end] != '\n' && in_[end] != '\r';
    return "JSON data, line " + std::to_string(line_number_) + ": " +
           (start > line_start_ ? "..." : "") +
           std::string(in_.substr(start, end > start ? end - start : 0)) +
           (more ? "..." : "");
  }

  // json_errdetail.
  std::string Detail(Err e) const {
    switch (e) {
      case Err::kEscapingInvalid:
        return "Escape sequence \"\\" + Token() + "\" is invalid.";
      case Err::kEscapingRequired: {
        char buf[64];
        std::snprintf(buf, sizeof(buf),
                      "Character with value 0x%02x must be escaped.",
                      static_cast<unsigned char>(in_[tok_end_]));
        return buf;
      }
      case Err::kExpectedEnd:
        return "Expected end of input, but found \"" + Token() + "\".";
      case Err::kExpectedArrayNext:
        return "Expected \",\" or \"]\", but found \"" + Token() + "\".";
      case Err::kExpectedColon:
        return "Expected \":\", but found \"" + Token() + "\".";
      case Err::kExpectedJson:
        return "Expected JSON value, but found \"" + Token() + "\".";
      case Err::kExpectedMore:
        return "The input string ended unexpectedly.";
      case Err::kExpectedObjectFirst:
        return "Expected string or \"}\", but found \"" + Token() + "\".";
      case Err::kExpectedObjectNext:
        return "Expected \",\" or \"}\", but found \"" + Token() + "\".";
      case Err::kExpectedString:
        return "Expected string, but found \"" + Token() + "\".";
      case Err::kInvalidToken:
        return "Token \"" + Token() + "\" is invalid.";
      case Err::kCodePointZero:
        return "\\u0000 cannot be converted to text.";
      case Err::kUnicodeEscapeFormat:
        return "\"\\u\" must be followed by four hexadecimal digits.";
      case Err::kUnicodeHighSurrogate:
        return "Unicode high surrogate must not follow a high surrogate.";
      case Err::kUnicodeLowSurrogate:
        return "Unicode low surrogate must follow a high surrogate.";
      default:
        return "";
    }
  }

 private:
  std::string Token() const {
    size_t start = tok_start_null_ ? tok_end_ : tok_start_;
    return std::string(in_.substr(start, tok_end_ - start));
  }

  Err Lex() {
    size_t s = tok_end_;
    const size_t n = in_.size();
    while (s < n && (in_[s] == ' ' || in_[s] == '\t' || in_[s] == '\n' ||
                     in_[s] == '\r')) {
      if (in_[s++] == '\n') {
        ++line_number_;
        line_start_ = s;
      }
    }
    tok_start_ = s;
    tok_start_null_ = false;
    if (s >= n) {
      tok_start_null_ = true;
      tok_end_ = s;
      tok_ = Tok::kEnd;
      at_end_ = true;
      return Err::kOk;
    }
    char c = in_[s];
    switch (c) {
      case '{':
        tok_end_ = s + 1;
        tok_ = Tok::kObjectStart;
        return Err::kOk;
      case '}':
        tok_end_ = s + 1;
        tok_ = Tok::kObjectEnd;
        return Err::kOk;
      case '[':
        tok_end_ = s + 1;
        tok_ = Tok::kArrayStart;
        return Err::kOk;
      case ']':
        tok_end_ = s + 1;
        tok_ = Tok::kArrayEnd;
        return Err::kOk;
      case ',':
        tok_end_ = s + 1;
        tok_ = Tok::kComma;
        return Err::kOk;
      case ':':
        tok_end_ = s + 1;
        tok_ = Tok::kColon;
        return Err::kOk;
      case '"': {
        Err e = LexString();
        if (e != Err::kOk) return e;
        tok_ = Tok::kString;
        return Err::kOk;
      }
      case '-': {
        Err e = LexNumber(s + 1);
        if (e != Err::kOk) return e;
        tok_ = Tok::kNumber;
        return Err::kOk;
      }
      default:
        break;
    }
    if (c >= '0' && c <= '9') {
      Err e = LexNumber(s);
      if (e != Err::kOk) return e;
      tok_ = Tok::kNumber;
      return Err::kOk;
    }
    size_t p = s;
    while (p < n && JsonAlnum(in_[p])) ++p;
    if (p == s) {
      tok_end_ = s + 1;
      return Err::kInvalidToken;
    }
    tok_end_ = p;
    std::string_view word = in_.substr(s, p - s);
    if (word == "true") {
      tok_ = Tok::kTrue;
    } else if (word == "null") {
      tok_ = Tok::kNull;
    } else if (word == "false") {
      tok_ = Tok::kFalse;
    } else {
      return Err::kInvalidToken;
    }
    return Err::kOk;
  }

  Err LexNumber(size_t s) {
    const size_t n = in_.size();
    bool error = false;
    if (s < n && in_[s] == '0') {
      ++s;
    } else if (s < n && in_[s] >= '1' && in_[s] <= '9') {
      do {
        ++s;
      } while (s < n && util::IsDigit(in_[s]));
    } else {
      error = true;
    }
    if (s < n && in_[s] == '.') {
      ++s;
      if (s == n || !util::IsDigit(in_[s])) {
        error = true;
      } else {
        do {
          ++s;
        } while (s < n && util::IsDigit(in_[s]));
      }
    }
    if (s < n && (in_[s] == 'e' || in_[s] == 'E')) {
      ++s;
      if (s < n && (in_[s] == '+' || in_[s] == '-')) ++s;
      if (s == n || !util::IsDigit(in_[s])) {
        error = true;
      } else {
        do {
          ++s;
        } while (s < n && util::IsDigit(in_[s]));
      }
    }
    for (; s < n && JsonAlnum(in_[s]); ++s) error = true;
    tok_end_ = s;
    return error ? Err::kInvalidToken : Err::kOk;
  }

  Err LexString() {
    const size_t n = in_.size();
    size_t s = tok_start_;
    int hi_surrogate = -1;
    if (build_) strval_.clear();
    for (;;) {
      ++s;
      if (s >= n) {
        tok_end_ = s;
        return Err::kInvalidToken;
      }
      unsigned char c = static_cast<unsigned char>(in_[s]);
      if (c == '"') break;
      if (c < 32) {
        tok_end_ = s;
        return Err::kEscapingRequired;
      }
      if (c == '\\') {
        ++s;
        if (s >= n) {
          tok_end_ = s;
          return Err::kInvalidToken;
        }
        char e = in_[s];
        if (e == 'u') {
          uint32_t ch = 0;
          for (int i = 1; i <= 4; ++i) {
            ++s;
            if (s >= n) {
              tok_end_ = s;
              return Err::kInvalidToken;
            }
            char h = in_[s];
            if (h >= '0' && h <= '9') {
              ch = ch * 16 + (h - '0');
            } else if (h >= 'a' && h <= 'f') {
              ch = ch * 16 + (h - 'a') + 10;
            } else if (h >= 'A' && h <= 'F') {
              ch = ch * 16 + (h - 'A') + 10;
            } else {
              tok_end_ = s + util::Utf8CharLen(static_cast<unsigned char>(h));
              return Err::kUnicodeEscapeFormat;
            }
          }
          if (build_) {
            if (ch >= 0xD800 && ch <= 0xDBFF) {
              if (hi_surrogate != -1) return Err::kUnicodeHighSurrogate;
              hi_surrogate = static_cast<int>(ch);
              continue;
            } else if (ch >= 0xDC00 && ch <= 0xDFFF) {
              if (hi_surrogate == -1) return Err::kUnicodeLowSurrogate;
              ch = ((static_cast<uint32_t>(hi_surrogate) & 0x3FF) << 10) +
                   (ch & 0x3FF) + 0x10000;
              hi_surrogate = -1;
            }
            if (hi_surrogate != -1) return Err::kUnicodeLowSurrogate;
            if (ch == 0) return Err::kCodePointZero;
            AppendUtf8(&strval_, ch);
          }
        } else if (build_) {
          if (hi_surrogate != -1) return Err::kUnicodeLowSurrogate;
          switch (e) {
            case '"':
            case '\\':
            case '/':
              strval_.push_back(e);
              break;
            case 'b':
              strval_.push_back('\b');
              break;
            case 'f':
              strval_.push_back('\f');
              break;
            case 'n':
              strval_.push_back('\n');
              break;
            case 'r':
              strval_.push_back('\r');
              break;
            case 't':
              strval_.push_back('\t');
              break;
            default:
              tok_start_ = s;
              tok_end_ = s + util::Utf8CharLen(static_cast<unsigned char>(e));
              return Err::kEscapingInvalid;
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) ==
                   std::string_view::npos) {
          tok_start_ = s;
          tok_end_ = s + util::Utf8CharLen(static_cast<unsigned char>(e));
          return Err::kEscapingInvalid;
        }
      } else {
        if (build_) {
          if (hi_surrogate != -1) return Err::kUnicodeLowSurrogate;
          // Copy the run of plain characters at once.
          size_t run = s;
          while (run + 1 < n && in_[run + 1] != '"' && in_[run + 1] != '\\' &&
                 static_cast<unsigned char>(in_[run + 1]) >= 32) {
            ++run;
          }
          strval_.append(in_.data() + s, run - s + 1);
          s = run;
        }
      }
    }
    if (build_ && hi_surrogate != -1) return Err::kUnicodeLowSurrogate;
    tok_end_ = s + 1;
    return Err::kOk;
  }

  Err Report(Ctx ctx) const {
    if (tok_start_null_ || tok_ == Tok::kEnd) return Err::kExpectedMore;
    switch (ctx) {
      case Ctx::kEnd:
        return Err::kExpectedEnd;
      case Ctx::kValue:
        return Err::kExpectedJson;
      case Ctx::kString:
        return Err::kExpectedString;
      case Ctx::kArrayNext:
        return Err::kExpectedArrayNext;
      case Ctx::kObjectStart:
        return Err::kExpectedObjectFirst;
      case Ctx::kObjectLabel:
        return Err::kExpectedColon;
      case Ctx::kObjectNext:
        return Err::kExpectedObjectNext;
      case Ctx::kObjectComma:
        return Err::kExpectedString;
    }
    return Err::kExpectedJson;
  }

  Err Expect(Ctx ctx, Tok t) {
    if (tok_ == t) return Lex();
    return Report(ctx);
  }

  // A new node for a value (the scratch node 0 when only validating).
  uint32_t NewChild(uint32_t parent) {
    if (!build_) return 0;
    uint32_t index = static_cast<uint32_t>(nodes_->size());
    nodes_->emplace_back();
    (*nodes_)[parent].children.push_back(index);
    return index;
  }

  // parse_object / parse_array / parse_object_field / parse_array_element
  // of PostgreSQL's recursive descent, with an explicit stack.
  Err ParseValue() {
    struct Frame {
      uint32_t node;
      bool object;
    };
    std::vector<Frame> stack;
    int64_t cost = 0;
    uint32_t target = 0;
    Err e;
    for (;;) {
      // Parse one value into `target`.
      bool done = false;
      bool field = false;
      if (tok_ == Tok::kObjectStart) {
        cost += kObjectCost;
        if (cost > budget_) return Err::kDepth;
        (*nodes_)[target].type = Node::kObject;
        e = Lex();
        if (e != Err::kOk) return e;
        if (tok_ == Tok::kString) {
          stack.push_back({target, true});
          field = true;
        } else if (tok_ == Tok::kObjectEnd) {
          cost -= kObjectCost;
          e = Expect(Ctx::kObjectNext, Tok::kObjectEnd);
          if (e != Err::kOk) return e;
          done = true;
        } else {
          return Report(Ctx::kObjectStart);
        }
      } else if (tok_ == Tok::kArrayStart) {
        cost += kArrayCost;
        if (cost > budget_) return Err::kDepth;
        (*nodes_)[target].type = Node::kArray;
        e = Lex();
        if (e != Err::kOk) return e;
        if (tok_ != Tok::kArrayEnd) {
          stack.push_back({target, false});
          target = NewChild(target);
          continue;
        }
        cost -= kArrayCost;
        e = Expect(Ctx::kArrayNext, Tok::kArrayEnd);
        if (e != Err::kOk) return e;
        done = true;
      } else {
        e = ParseScalar(target);
        if (e != Err::kOk) return e;
        done = true;
      }
      // Close finished containers; find where the next value goes.
      while (done) {
        if (stack.empty()) return Err::kOk;
        Frame& top = stack.back();
        if (tok_ == Tok::kComma) {
          e = Lex();
          if (e != Err::kOk) return e;
          if (top.object) {
            field = true;
          } else {
            target = NewChild(top.node);
          }
          done = false;
          break;
        }
        e = top.object ? Expect(Ctx::kObjectNext, Tok::kObjectEnd)
                       : Expect(Ctx::kArrayNext, Tok::kArrayEnd);
        if (e != Err::kOk) return e;
        cost -= top.object ? kObjectCost : kArrayCost;
        stack.pop_back();
      }
      if (field) {
        // parse_object_field: "key" ':' value
        if (tok_ != Tok::kString) return Report(Ctx::kString);
        uint32_t object = stack.back().node;
        if (build_) (*nodes_)[object].keys.push_back(strval_);
        e = Lex();
        if (e != Err::kOk) return e;
        e = Expect(Ctx::kObjectLabel, Tok::kColon);
        if (e != Err::kOk) return e;
        target = NewChild(object);
      }
    }
  }

  Err ParseScalar(uint32_t index) {
    Node& node = (*nodes_)[index];
    switch (tok_) {
      case Tok::kString:
        if (build_) {
          node.type = Node::kString;
          node.text = strval_;
        }
        break;
      case Tok::kNumber:
        if (build_) {
          node.type = Node::kNumber;
          num::Numeric value;
          if (!num::Input(in_.substr(tok_start_, tok_end_ - tok_start_), -1,
                          &value, error_)) {
            return Err::kReported;
          }
          num::Append(value, &node.text);
        }
        break;
      case Tok::kTrue:
        node.type = Node::kTrue;
        break;
      case Tok::kFalse:
        node.type = Node::kFalse;
        break;
      case Tok::kNull:
        node.type = Node::kNull;
        break;
      default:
        return Report(Ctx::kValue);
    }
    return Lex();
  }

  std::string_view in_;
  bool build_;
  PgError* error_;
  int64_t budget_ = kJsonBudget;
  std::vector<Node>* nodes_ = nullptr;
  size_t tok_start_ = 0;
  bool tok_start_null_ = false;
  size_t tok_end_ = 0;
  Tok tok_ = Tok::kEnd;
  bool at_end_ = false;  // the last token lexed is the end of the input
  int line_number_ = 1;
  size_t line_start_ = 0;
  std::string strval_;
};

bool ReportError(const Parser& parser, Err e, PgError* error) {
  if (e == Err::kReported) return false;
  if (e == Err::kDepth) {
    return Fail(error, "54001", "stack depth limit exceeded", "",
                "Increase the configuration parameter \"max_stack_depth\" "
                "(currently 2048kB), after ensuring the platform's stack "
                "depth limit is adequate.");
  }
  if (e == Err::kCodePointZero) {
    Fail(error, "22P05", "unsupported Unicode escape sequence",
         parser.Detail(e));
  } else {
    Fail(error, "22P02", "invalid input syntax for type json",
         parser.Detail(e));
  }
  error->context = parser.Context();
  return false;
}

void AppendEscaped(std::string* out, std::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      default:
        if (static_cast<unsigned char>(c) < ' ') {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void WriteScalar(const Node& node, std::string* out) {
  switch (node.type) {
    case Node::kNull:
      out->append("null");
      return;
    case Node::kTrue:
      out->append("true");
      return;
    case Node::kFalse:
      out->append("false");
      return;
    case Node::kNumber:
      out->append(node.text);
      return;
    case Node::kString:
      AppendEscaped(out, node.text);
      return;
    default:
      return;
  }
}

// Object members in output order: sorted by (length, bytes), and among
// equal keys only the last one.
std::vector<uint32_t> ObjectOrder(const Node& node) {
  std::vector<uint32_t> order(node.keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const std::string& ka = node.keys[a];
    const std::string& kb = node.keys[b];
    if (ka.size() != kb.size()) return ka.size() < kb.size();
    return ka < kb;
  });
  std::vector<uint32_t> unique;
  unique.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i + 1 < order.size() &&
        node.keys[order[i]] == node.keys[order[i + 1]]) {
      continue;  // a later duplicate follows
    }
    unique.push_back(order[i]);
  }
  return unique;
}

// JsonbToCString without indentation.
void Write(const std::vector<Node>& nodes, std::string* out) {
  struct Frame {
    uint32_t node;
    size_t next = 0;
    std::vector<uint32_t> order;  // member order for objects
  };
  std::vector<Frame> stack;
  auto open = [&](uint32_t index) {
    const Node& node = nodes[index];
    if (node.type == Node::kArray) {
      out->push_back('[');
      stack.push_back({index, 0, {}});
    } else if (node.type == Node::kObject) {
      out->push_back('{');
      stack.push_back({index, 0, ObjectOrder(node)});
    } else {
      WriteScalar(node, out);
    }
  };
  open(0);
  while (!stack.empty()) {
    Frame& top = stack.back();
    const Node& node = nodes[top.node];
    bool object = node.type == Node::kObject;
    size_t count = object ? top.order.size() : node.children.size();
    if (top.next == count) {
      out->push_back(object ? '}' : ']');
      stack.pop_back();
      continue;
    }
    if (top.next > 0) out->append(", ");
    uint32_t child;
    if (object) {
      uint32_t member = top.order[top.next];
      AppendEscaped(out, node.keys[member]);
      out->append(": ");
      child = node.children[member];
    } else {
      child = node.children[top.next];
    }
    ++top.next;
    open(child);  // may invalidate `top`
  }
}

}  // namespace

bool Validate(std::string_view text, PgError* error) {
  Parser parser(text, false, error);
  std::vector<Node> nodes;
  Err e = parser.Parse(&nodes);
  if (e != Err::kOk) return ReportError(parser, e, error);
  return true;
}

bool Normalize(std::string_view text, std::string* out, PgError* error) {
  Parser parser(text, true, error);
  std::vector<Node> nodes;
  Err e = parser.Parse(&nodes);
  if (e != Err::kOk) return ReportError(parser, e, error);
  out->clear();
  Write(nodes, out);
  return true;
}

Kind TopLevelKind(std::string_view canonical) {
  if (canonical.empty()) return Kind::kNull;
  switch (canonical[0]) {
    case '{':
      return Kind::kObject;
    case '[':
      return Kind::kArray;
    case '"':
      return Kind::kString;
    case 'n':
      return Kind::kNull;
    case 't':
    case 'f':
      return Kind::kBool;
    default:
      return Kind::kNumeric;
  }
}

}  // namespace kova::planner::types::json
