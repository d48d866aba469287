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

// Nesting deeper than this fails like PostgreSQL's stack depth check.
constexpr int kMaxDepth = 5000;

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

// A parsed jsonb value.
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
  std::string text;  // number text (numeric_out) or unescaped string
  std::vector<Node> children;
  std::vector<std::string> keys;  // object keys, parallel to children
};

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
      : in_(in), build_(build), error_(error) {}

  // pg_parse_json.
  Err Parse(Node* root) {
    Err e = Lex();
    if (e != Err::kOk) return e;
    e = ParseValue(root, 0);
    if (e != Err::kOk) return e;
    return Expect(Ctx::kEnd, Tok::kEnd);
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
      ++s;
    }
    tok_start_ = s;
    tok_start_null_ = false;
    if (s >= n) {
      tok_start_null_ = true;
      tok_end_ = s;
      tok_ = Tok::kEnd;
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

  Err ParseValue(Node* node, int depth) {
    switch (tok_) {
      case Tok::kObjectStart:
        return ParseObject(node, depth + 1);
      case Tok::kArrayStart:
        return ParseArray(node, depth + 1);
      default:
        return ParseScalar(node);
    }
  }

  Err ParseScalar(Node* node) {
    switch (tok_) {
      case Tok::kString:
        if (build_) {
          node->type = Node::kString;
          node->text = strval_;
        }
        break;
      case Tok::kNumber:
        if (build_) {
          node->type = Node::kNumber;
          num::Numeric value;
          if (!num::Input(in_.substr(tok_start_, tok_end_ - tok_start_), -1,
                          &value, error_)) {
            return Err::kReported;
          }
          num::Append(value, &node->text);
        }
        break;
      case Tok::kTrue:
        node->type = Node::kTrue;
        break;
      case Tok::kFalse:
        node->type = Node::kFalse;
        break;
      case Tok::kNull:
        node->type = Node::kNull;
        break;
      default:
        return Report(Ctx::kValue);
    }
    return Lex();
  }

  Err ParseField(Node* node, int depth) {
    if (tok_ != Tok::kString) return Report(Ctx::kString);
    if (build_) node->keys.push_back(strval_);
    Err e = Lex();
    if (e != Err::kOk) return e;
    e = Expect(Ctx::kObjectLabel, Tok::kColon);
    if (e != Err::kOk) return e;
    if (build_) {
      node->children.emplace_back();
      return ParseValue(&node->children.back(), depth);
    }
    Node scratch;
    return ParseValue(&scratch, depth);
  }

  Err ParseObject(Node* node, int depth) {
    if (depth > kMaxDepth) return Err::kDepth;
    node->type = Node::kObject;
    Err e = Lex();
    if (e != Err::kOk) return e;
    switch (tok_) {
      case Tok::kString:
        e = ParseField(node, depth);
        while (e == Err::kOk && tok_ == Tok::kComma) {
          e = Lex();
          if (e != Err::kOk) break;
          e = ParseField(node, depth);
        }
        break;
      case Tok::kObjectEnd:
        break;
      default:
        e = Report(Ctx::kObjectStart);
    }
    if (e != Err::kOk) return e;
    return Expect(Ctx::kObjectNext, Tok::kObjectEnd);
  }

  Err ParseArray(Node* node, int depth) {
    if (depth > kMaxDepth) return Err::kDepth;
    node->type = Node::kArray;
    Err e = Lex();  // consume '['
    if (e != Err::kOk) return e;
    if (tok_ != Tok::kArrayEnd) {
      e = ParseElement(node, depth);
      while (e == Err::kOk && tok_ == Tok::kComma) {
        e = Lex();
        if (e != Err::kOk) break;
        e = ParseElement(node, depth);
      }
    }
    if (e != Err::kOk) return e;
    return Expect(Ctx::kArrayNext, Tok::kArrayEnd);
  }

  Err ParseElement(Node* node, int depth) {
    if (build_) {
      node->children.emplace_back();
      return ParseValue(&node->children.back(), depth);
    }
    Node scratch;
    return ParseValue(&scratch, depth);
  }

  std::string_view in_;
  bool build_;
  PgError* error_;
  size_t tok_start_ = 0;
  bool tok_start_null_ = false;
  size_t tok_end_ = 0;
  Tok tok_ = Tok::kEnd;
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
    return Fail(error, "22P05", "unsupported Unicode escape sequence",
                parser.Detail(e));
  }
  return Fail(error, "22P02", "invalid input syntax for type json",
              parser.Detail(e));
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

void Write(const Node& node, std::string* out) {
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
    case Node::kArray:
      out->push_back('[');
      for (size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->append(", ");
        Write(node.children[i], out);
      }
      out->push_back(']');
      return;
    case Node::kObject: {
      // Sort by (length, bytes); among equal keys the last one wins.
      std::vector<size_t> order(node.keys.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const std::string& ka = node.keys[a];
        const std::string& kb = node.keys[b];
        if (ka.size() != kb.size()) return ka.size() < kb.size();
        return ka < kb;
      });
      out->push_back('{');
      bool first = true;
      for (size_t i = 0; i < order.size(); ++i) {
        if (i + 1 < order.size() &&
            node.keys[order[i]] == node.keys[order[i + 1]]) {
          continue;  // a later duplicate follows
        }
        if (!first) out->append(", ");
        first = false;
        AppendEscaped(out, node.keys[order[i]]);
        out->append(": ");
        Write(node.children[order[i]], out);
      }
      out->push_back('}');
      return;
    }
  }
}

}  // namespace

bool Validate(std::string_view text, PgError* error) {
  Parser parser(text, false, error);
  Node root;
  Err e = parser.Parse(&root);
  if (e != Err::kOk) return ReportError(parser, e, error);
  return true;
}

bool Normalize(std::string_view text, std::string* out, PgError* error) {
  Parser parser(text, true, error);
  Node root;
  Err e = parser.Parse(&root);
  if (e != Err::kOk) return ReportError(parser, e, error);
  out->clear();
  Write(root, out);
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
