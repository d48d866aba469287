// String functions and pattern matching (LIKE, SIMILAR TO, regular
// expressions) of the expression layer.
//
// Regular expressions run on std::wregex (ECMAScript grammar) over the
// UTF-32 form of the text. Known differences from PostgreSQL's ARE engine:
// no \m \M \y \Y word anchors, no embedded options other than a leading
// (?i) being refused, no lookbehind, and POSIX leftmost-longest alternation
// is ECMAScript leftmost-first.
#include <locale.h>
#include <openssl/evp.h>

#include <algorithm>
#include <clocale>
#include <cwctype>
#include <random>
#include <regex>

#include "planner/expr_internal.h"
#include "planner/types_array.h"
#include "planner/types_util.h"

namespace kova::planner::expr_detail {

namespace {

// Byte offsets where each UTF-8 character starts, plus the end.
std::vector<size_t> CharStarts(const std::string& s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); i++)
    if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) starts.push_back(i);
  starts.push_back(s.size());
  return starts;
}

std::wstring ToWide(const std::string& s) {
  std::wstring w;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    int len = types::util::Utf8CharLen(c);
    uint32_t cp = len == 1   ? c
                  : len == 2 ? c & 0x1f
                  : len == 3 ? c & 0x0f
                             : c & 0x07;
    for (int k = 1; k < len && i + k < s.size(); k++)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    w.push_back(static_cast<wchar_t>(cp));
    i += len;
  }
  return w;
}

void AppendUtf8(std::string* s, uint32_t c) {
  if (c < 0x80) {
    s->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    s->push_back(static_cast<char>(0xC0 | (c >> 6)));
    s->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    s->push_back(static_cast<char>(0xE0 | (c >> 12)));
    s->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    s->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    s->push_back(static_cast<char>(0xF0 | (c >> 18)));
    s->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    s->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    s->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

std::string FromWide(const std::wstring& w) {
  std::string s;
  for (wchar_t c : w) AppendUtf8(&s, static_cast<uint32_t>(c));
  return s;
}

// Case mapping as PostgreSQL's lower/upper/initcap do under the C.UTF-8
// LC_CTYPE Kova's databases report (datctype): towlower/towupper of that
// locale on each character, a locale object of its own so that nothing
// else in the process changes. Without it (no C.UTF-8): ASCII only.
locale_t CtypeLocale() {
  static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", nullptr);
  return loc;
}

enum class CaseMap { kLower, kUpper, kInitcap };

std::string MapCase(const std::string& s, CaseMap how) {
  locale_t loc = CtypeLocale();
  bool ascii = true;
  for (char c : s) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  std::string out;
  out.reserve(s.size());
  bool in_word = false;
  auto map = [&](uint32_t c, bool lower) -> uint32_t {
    if (c < 0x80 || !loc)
      return lower ? types::util::ToLower(static_cast<char>(c))
                   : types::util::ToUpper(static_cast<char>(c));
    return static_cast<uint32_t>(lower ? towlower_l(c, loc)
                                       : towupper_l(c, loc));
  };
  auto alnum = [&](uint32_t c) {
    if (c < 0x80 || !loc) return types::util::IsAlnum(static_cast<char>(c));
    return iswalnum_l(c, loc) != 0;
  };
  if (ascii) {
    for (char c : s) {
      uint32_t m =
          how == CaseMap::kInitcap
              ? map(static_cast<unsigned char>(c), in_word)
              : map(static_cast<unsigned char>(c), how == CaseMap::kLower);
      out.push_back(static_cast<char>(m));
      in_word = alnum(m);
    }
    return out;
  }
  for (wchar_t w : ToWide(s)) {
    uint32_t c = static_cast<uint32_t>(w);
    uint32_t m = how == CaseMap::kInitcap ? map(c, in_word)
                                          : map(c, how == CaseMap::kLower);
    AppendUtf8(&out, m);
    in_word = alnum(m);
  }
  return out;
}

std::string FoldLower(std::string s) { return MapCase(s, CaseMap::kLower); }

bool LikeRec(const std::string& s, size_t si, const std::string& p, size_t pi,
             bool* error_end) {
  while (pi < p.size()) {
    char c = p[pi];
    if (c == '\\') {
      if (pi + 1 >= p.size()) {
        *error_end = true;
        return false;
      }
      pi++;
      // Match the escaped character (a whole UTF-8 sequence) literally.
      int len = types::util::Utf8CharLen(static_cast<unsigned char>(p[pi]));
      if (si + len > s.size() || s.compare(si, len, p, pi, len) != 0)
        return false;
      si += len;
      pi += len;
      continue;
    }
    if (c == '%') {
      while (pi < p.size() && (p[pi] == '%' || p[pi] == '_')) {
        if (p[pi] == '_') {
          if (si >= s.size()) return false;
          si += types::util::Utf8CharLen(static_cast<unsigned char>(s[si]));
        }
        pi++;
      }
      if (pi == p.size()) return true;
      while (si <= s.size()) {
        if (LikeRec(s, si, p, pi, error_end)) return true;
        if (*error_end) return false;
        if (si == s.size()) break;
        si += types::util::Utf8CharLen(static_cast<unsigned char>(s[si]));
      }
      return false;
    }
    if (si >= s.size()) return false;
    if (c == '_') {
      si += types::util::Utf8CharLen(static_cast<unsigned char>(s[si]));
      pi++;
      continue;
    }
    if (s[si] != c) return false;
    si++;
    pi++;
  }
  return si == s.size();
}

// Converts PostgreSQL's replacement string (\1..\9, \&) to ECMAScript's.
std::wstring ConvertReplacement(const std::wstring& r) {
  std::wstring out;
  for (size_t i = 0; i < r.size(); i++) {
    wchar_t c = r[i];
    if (c == L'\\' && i + 1 < r.size()) {
      wchar_t n = r[i + 1];
      if (n >= L'1' && n <= L'9') {
        out += L'$';
        out += n;
        i++;
        continue;
      }
      if (n == L'&') {
        out += L"$&";
        i++;
        continue;
      }
      if (n == L'\\') {
        out += L'\\';
        i++;
        continue;
      }
      out += c;
      continue;
    }
    if (c == L'$') {
      out += L"$$";
      continue;
    }
    out += c;
  }
  return out;
}

bool CompileRegex(const std::string& pattern, bool insensitive, std::wregex* re,
                  PgError* error) {
  try {
    auto flags = std::regex::ECMAScript;
    if (insensitive) flags |= std::regex::icase;
    *re = std::wregex(ToWide(pattern), flags);
  } catch (const std::regex_error& ex) {
    *error = Err("2201B", std::string("invalid regular expression: ") +
                              (ex.code() == std::regex_constants::error_paren
                                   ? "parentheses () not balanced"
                               : ex.code() == std::regex_constants::error_brack
                                   ? "brackets [] not balanced"
                                   : "invalid pattern"));
    return false;
  }
  return true;
}

// Parses regexp flags: g and i (c and the others PostgreSQL knows are
// refused as not supported).
// A match's capture groups as text[] (unmatched groups NULL), or the whole
// match when the pattern has none: regexp_match's and regexp_matches' row.
types::ArrayValue MatchGroups(const std::wsmatch& m) {
  types::ArrayValue a;
  if (m.size() == 1) {
    a.items.emplace_back(FromWide(m[0].str()));
  } else {
    for (size_t g = 1; g < m.size(); g++) {
      if (m[g].matched)
        a.items.emplace_back(FromWide(m[g].str()));
      else
        a.items.emplace_back();
    }
  }
  a.dims = {static_cast<int32_t>(a.items.size())};
  a.lbounds = {1};
  return a;
}

bool RegexFlags(const std::string& flags, bool* global, bool* insensitive,
                PgError* error) {
  for (char c : flags) {
    if (c == 'g') {
      *global = true;
    } else if (c == 'i') {
      *insensitive = true;
    } else if (c == 'c') {
      *insensitive = false;
    } else if (std::string("bemnpqstwx").find(c) != std::string::npos) {
      *error = Err("0A000", std::string("regular expression option \"") + c +
                                "\" is not supported yet");
      return false;
    } else {
      *error =
          Err("22023",
              std::string("invalid regular expression option: \"") + c + "\"");
      return false;
    }
  }
  return true;
}

std::string QuoteLiteral(const std::string& s) {
  std::string out;
  if (s.find('\\') != std::string::npos) out += 'E';
  out += '\'';
  for (char c : s) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  return out + "'";
}

bool GetInt(const Value& v, int64_t* out) { return v && ToInt64(*v, out); }

bool Format(const std::vector<Value>& args, Value* out, PgError* error) {
  if (!args[0]) return true;
  const std::string& f = *args[0];
  std::string result;
  size_t next_arg = 1;
  auto too_few = [&] {
    *error = Err("22023", "too few arguments for format()");
    return false;
  };
  for (size_t i = 0; i < f.size(); i++) {
    if (f[i] != '%') {
      result += f[i];
      continue;
    }
    if (++i >= f.size()) {
      *error = Err("22023", "unterminated format() type specifier");
      error->hint = "For a single \"%\" use \"%%\".";
      return false;
    }
    if (f[i] == '%') {
      result += '%';
      continue;
    }
    // [argpos$][flags][width]type
    auto read_num = [&](int64_t* n) {
      size_t start = i;
      int64_t v = 0;
      while (i < f.size() && f[i] >= '0' && f[i] <= '9') {
        v = v * 10 + (f[i] - '0');
        if (v > INT32_MAX) {
          *error = Err("22003", "number is out of range");
          return -1;
        }
        i++;
      }
      *n = v;
      return i > start ? 1 : 0;
    };
    int64_t num = 0;
    size_t save = i;
    int got = read_num(&num);
    if (got < 0) return false;
    size_t arg_index = 0;
    if (got && i < f.size() && f[i] == '$') {
      if (num == 0) {
        *error = Err("22023",
                     "format specifies argument 0, but arguments are "
                     "numbered from 1");
        return false;
      }
      arg_index = num;
      i++;
    } else {
      i = save;
    }
    bool minus = false;
    while (i < f.size() && f[i] == '-') {
      minus = true;
      i++;
    }
    int64_t width = 0;
    bool has_width = false;
    if (i < f.size() && f[i] == '*') {
      i++;
      int64_t pos = 0;
      size_t s2 = i;
      int g = read_num(&pos);
      if (g < 0) return false;
      size_t wi;
      if (g && i < f.size() && f[i] == '$') {
        wi = pos;
        i++;
      } else {
        i = s2;
        wi = next_arg++;
      }
      if (wi >= args.size()) return too_few();
      if (args[wi]) {
        ToInt64(*args[wi], &width);
        if (width < 0) {
          minus = true;
          width = -width;
        }
        has_width = true;
      }
    } else {
      int g = read_num(&width);
      if (g < 0) return false;
      has_width = g > 0;
    }
    if (i >= f.size()) {
      *error = Err("22023", "unterminated format() type specifier");
      error->hint = "For a single \"%\" use \"%%\".";
      return false;
    }
    char type = f[i];
    if (type != 's' && type != 'I' && type != 'L') {
      *error = Err("22023", std::string("unrecognized format() type "
                                        "specifier \"") +
                                type + "\"");
      error->hint = "For a single \"%\" use \"%%\".";
      return false;
    }
    if (arg_index == 0) arg_index = next_arg;
    next_arg = arg_index + 1;
    if (arg_index >= args.size()) return too_few();
    const Value& v = args[arg_index];
    std::string piece;
    if (type == 's') {
      piece = v ? *v : "";
    } else if (type == 'I') {
      if (!v) {
        *error = Err("22004",
                     "null values cannot be formatted as an SQL identifier");
        return false;
      }
      piece = QuoteIdent(*v);
    } else {
      piece = v ? QuoteLiteral(*v) : "NULL";
    }
    if (has_width) {
      size_t len = types::util::Utf8Length(piece);
      if (static_cast<int64_t>(len) < width) {
        std::string pad(width - len, ' ');
        piece = minus ? piece + pad : pad + piece;
      }
    }
    result += piece;
  }
  *out = result;
  return true;
}

std::string Md5Hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, EVP_md5(), nullptr);
  return HexDigits(
      std::string_view(reinterpret_cast<const char*>(digest), len));
}

std::string StripBlanks(std::string s) {
  s.erase(s.find_last_not_of(' ') + 1);
  return s;
}

}  // namespace

// PostgreSQL 15's quote_ident: lower-case identifiers that are not
// keywords (other than unreserved ones) stay bare, the rest are quoted.
std::string QuoteIdent(const std::string& s) {
  bool safe = !s.empty() && ((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_');
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      safe = false;
  // PostgreSQL's keywords other than unreserved ones (pg_get_keywords()
  // with catcode <> 'U'), which quote_identifier quotes.
  static const char* const kReserved[] = {
      "all",
      "analyse",
      "analyze",
      "and",
      "any",
      "array",
      "as",
      "asc",
      "asymmetric",
      "authorization",
      "between",
      "bigint",
      "binary",
      "bit",
      "boolean",
      "both",
      "case",
      "cast",
      "char",
      "character",
      "check",
      "coalesce",
      "collate",
      "collation",
      "column",
      "concurrently",
      "constraint",
      "create",
      "cross",
      "current_catalog",
      "current_date",
      "current_role",
      "current_schema",
      "current_time",
      "current_timestamp",
      "current_user",
      "dec",
      "decimal",
      "default",
      "deferrable",
      "desc",
      "distinct",
      "do",
      "else",
      "end",
      "except",
      "exists",
      "extract",
      "false",
      "fetch",
      "float",
      "for",
      "foreign",
      "freeze",
      "from",
      "full",
      "grant",
      "greatest",
      "group",
      "grouping",
      "having",
      "ilike",
      "in",
      "initially",
      "inner",
      "inout",
      "int",
      "integer",
      "intersect",
      "interval",
      "into",
      "is",
      "isnull",
      "join",
      "lateral",
      "leading",
      "least",
      "left",
      "like",
      "limit",
      "localtime",
      "localtimestamp",
      "national",
      "natural",
      "nchar",
      "none",
      "normalize",
      "not",
      "notnull",
      "null",
      "nullif",
      "numeric",
      "offset",
      "on",
      "only",
      "or",
      "order",
      "out",
      "outer",
      "overlaps",
      "overlay",
      "placing",
      "position",
      "precision",
      "primary",
      "real",
      "references",
      "returning",
      "right",
      "row",
      "select",
      "session_user",
      "setof",
      "similar",
      "smallint",
      "some",
      "substring",
      "symmetric",
      "table",
      "tablesample",
      "then",
      "time",
      "timestamp",
      "to",
      "trailing",
      "treat",
      "trim",
      "true",
      "union",
      "unique",
      "user",
      "using",
      "values",
      "varchar",
      "variadic",
      "verbose",
      "when",
      "where",
      "window",
      "with",
      "xmlattributes",
      "xmlconcat",
      "xmlelement",
      "xmlexists",
      "xmlforest",
      "xmlnamespaces",
      "xmlparse",
      "xmlpi",
      "xmlroot",
      "xmlserialize",
      "xmltable",
  };
  for (const char* r : kReserved) safe = safe && s != r;
  if (safe) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

bool LikeMatch(const std::string& s, const std::string& p,
               const std::string& escape, bool insensitive, bool* match,
               PgError* error) {
  (void)escape;  // patterns arrive with backslash escapes (like_escape)
  bool error_end = false;
  *match = insensitive ? LikeRec(FoldLower(s), 0, FoldLower(p), 0, &error_end)
                       : LikeRec(s, 0, p, 0, &error_end);
  if (error_end) {
    *error = Err("22025", "LIKE pattern must not end with escape character");
    return false;
  }
  return true;
}

bool RegexMatch(const std::string& s, const std::string& pattern,
                bool insensitive, bool* match, PgError* error) {
  std::wregex re;
  if (!CompileRegex(pattern, insensitive, &re, error)) return false;
  std::wstring w = ToWide(s);
  *match = std::regex_search(w, re);
  return true;
}

bool SimilarToRegex(const std::string& pattern, const Value& escape,
                    std::string* regex, PgError* error) {
  std::string esc = "\\";
  if (escape) {
    esc = *escape;
    if (types::util::Utf8Length(esc) > 1) {
      *error = Err("22025", "invalid escape string");
      error->hint = "Escape string must be empty or one character.";
      return false;
    }
  }
  std::string r = "^(?:";
  bool after_escape = false, in_bracket = false;
  int nquotes = 0;
  std::vector<size_t> starts = CharStarts(pattern);
  for (size_t k = 0; k + 1 < starts.size(); k++) {
    std::string ch = pattern.substr(starts[k], starts[k + 1] - starts[k]);
    if (after_escape) {
      if (ch == "\"" && !in_bracket) {
        if (nquotes == 0)
          r += "){1,1}?(";
        else if (nquotes == 1)
          r += "){1,1}(?:";
        else {
          *error = Err("2201B",
                       "SQL regular expression may not contain more than two "
                       "escape-double-quote separators");
          return false;
        }
        nquotes++;
      } else {
        r += "\\" + ch;
      }
      after_escape = false;
    } else if (!esc.empty() && ch == esc) {
      after_escape = true;
    } else if (in_bracket) {
      if (ch == "\\") r += "\\";
      r += ch;
      if (ch == "]") in_bracket = false;
    } else if (ch == "[") {
      r += ch;
      in_bracket = true;
    } else if (ch == "%") {
      r += ".*";
    } else if (ch == "_") {
      r += ".";
    } else if (ch == "(") {
      r += "(?:";
    } else if (ch == "\\" || ch == "." || ch == "^" || ch == "$") {
      r += "\\" + ch;
    } else {
      r += ch;
    }
  }
  r += ")$";
  *regex = r;
  return true;
}

bool EvalStringFunction(const Expr& e, const std::vector<Value>& args,
                        SessionHooks* hooks, bool* handled, Value* out,
                        PgError* error) {
  (void)hooks;
  const std::string& n = e.name;
  *handled = true;
  // Non-strict functions first.
  if (n == "concat" || n == "concat_ws") {
    size_t first = n == "concat" ? 0 : 1;
    if (n == "concat_ws" && !args[0]) return true;  // NULL separator
    std::string result;
    bool any = false;
    for (size_t i = first; i < args.size(); i++) {
      if (!args[i]) continue;
      if (any && n == "concat_ws") result += *args[0];
      result += *args[i];
      any = true;
    }
    *out = result;
    return true;
  }
  if (n == "format") return Format(args, out, error);
  if (n == "num_nulls" || n == "num_nonnulls") {
    int count = 0;
    for (const Value& v : args) count += v.has_value() == (n == "num_nonnulls");
    *out = std::to_string(count);
    return true;
  }
  if (n == "quote_nullable") {
    *out = args[0] ? QuoteLiteral(*args[0]) : "NULL";
    return true;
  }
  if (n == "gen_random_uuid") {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    unsigned char b[16];
    for (int i = 0; i < 16; i += 8) {
      uint64_t v = rng();
      std::memcpy(b + i, &v, 8);
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < 16; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
      s += hex[b[i] >> 4];
      s += hex[b[i] & 15];
    }
    *out = s;
    return true;
  }
  static const char* const kStrict[] = {"length",
                                        "char_length",
                                        "character_length",
                                        "octet_length",
                                        "bit_length",
                                        "lower",
                                        "upper",
                                        "initcap",
                                        "substring",
                                        "substr",
                                        "position",
                                        "strpos",
                                        "btrim",
                                        "ltrim",
                                        "rtrim",
                                        "replace",
                                        "left",
                                        "right",
                                        "lpad",
                                        "rpad",
                                        "repeat",
                                        "reverse",
                                        "md5",
                                        "overlay",
                                        "ascii",
                                        "to_hex",
                                        "quote_ident",
                                        "quote_literal",
                                        "starts_with",
                                        "translate",
                                        "regexp_replace",
                                        "regexp_match",
                                        "kova_regexp_matches",
                                        "regexp_split_to_array",
                                        "regexp_like",
                                        "regexp_count",
                                        "like_escape",
                                        "similar_to_escape"};
  bool known = false;
  for (const char* k : kStrict)
    if (n == k) known = true;
  if (!known) {
    *handled = false;
    return true;
  }
  if (n != "similar_to_escape")
    for (const Value& v : args)
      if (!v) return true;  // strict
  if (n == "similar_to_escape") {
    if (!args[0] || (args.size() > 1 && !args[1])) return true;
    std::string regex;
    if (!SimilarToRegex(*args[0], args.size() > 1 ? args[1] : Value("\\"),
                        &regex, error))
      return false;
    *out = regex;
    return true;
  }
  uint32_t t0 = e.args.empty() ? 0 : e.args[0]->type;
  std::string s = *args[0];
  if (t0 == oid::kBpchar &&
      (n == "length" || n == "char_length" || n == "character_length"))
    s = StripBlanks(s);
  if (n == "length" || n == "char_length" || n == "character_length") {
    *out = std::to_string(t0 == oid::kBytea ? ByteaBytes(s).size()
                                            : types::util::Utf8Length(s));
  } else if (n == "octet_length") {
    *out = std::to_string(t0 == oid::kBytea ? ByteaBytes(s).size() : s.size());
  } else if (n == "bit_length") {
    *out = std::to_string(
        8 * (t0 == oid::kBytea ? ByteaBytes(s).size() : s.size()));
  } else if (n == "lower" || n == "upper") {
    *out = MapCase(s, n == "lower" ? CaseMap::kLower : CaseMap::kUpper);
  } else if (n == "initcap") {
    *out = MapCase(s, CaseMap::kInitcap);
  } else if ((n == "substring" || n == "substr") &&
             (e.args[1]->type != oid::kText)) {
    std::vector<size_t> st = CharStarts(s);
    int64_t chars = static_cast<int64_t>(st.size()) - 1;
    int64_t start, len = -1;
    ToInt64(*args[1], &start);
    int64_t end;
    if (args.size() > 2) {
      ToInt64(*args[2], &len);
      if (len < 0) {
        *error = Err("22011", "negative substring length not allowed");
        return false;
      }
      end = start + len;  // exclusive, 1-based
    } else {
      end = chars + 1;
    }
    int64_t from = std::max<int64_t>(start, 1);
    end = std::min<int64_t>(end, chars + 1);
    if (end <= from) {
      *out = "";
    } else {
      *out = s.substr(st[from - 1], st[end - 1] - st[from - 1]);
    }
  } else if (n == "overlay") {
    // overlay(s placing r from p [for n]): the characters of s before p,
    // r, then s from p + n on (n defaults to r's length), as text_overlay.
    std::vector<size_t> st = CharStarts(s);
    int64_t chars = static_cast<int64_t>(st.size()) - 1;
    const std::string& r = *args[1];
    int64_t start, count;
    ToInt64(*args[2], &start);
    if (args.size() > 3) {
      ToInt64(*args[3], &count);
    } else {
      count = static_cast<int64_t>(types::util::Utf8Length(r));
    }
    int64_t after = start + count;  // both int4: no int64 overflow
    if (after > INT32_MAX || after < INT32_MIN) {
      *error = Err("22003", "integer out of range");
      return false;
    }
    if (start < 1) {
      *error = Err("22011", "negative substring length not allowed");
      return false;
    }
    int64_t head = std::min<int64_t>(start - 1, chars);
    std::string result = s.substr(0, st[head]);
    result += r;
    after = std::max<int64_t>(after, 1);
    if (after <= chars) result += s.substr(st[after - 1]);
    *out = std::move(result);
  } else if (n == "substring") {
    // substring(text from pattern) and substring(text similar pattern
    // escape esc).
    std::string pattern = *args[1];
    if (args.size() > 2) {
      if (!SimilarToRegex(*args[1], args[2], &pattern, error)) return false;
    }
    std::wregex re;
    if (!CompileRegex(pattern, false, &re, error)) return false;
    std::wstring w = ToWide(s);
    std::wsmatch m;
    if (!std::regex_search(w, m, re)) return true;  // NULL
    size_t group = 0;
    if (args.size() > 2) {
      // The part between the escape-double-quote separators is group 1.
      if (m.size() > 2 && m[2].matched)
        group = 2;
      else if (m.size() > 1 && m[1].matched && m.size() == 2)
        group = 1;
    } else if (m.size() > 1) {
      group = 1;
      if (!m[1].matched) return true;
    }
    *out = FromWide(m[group].str());
  } else if (n == "position" || n == "strpos") {
    size_t pos = s.find(*args[1]);
    *out = pos == std::string::npos
               ? "0"
               : std::to_string(types::util::Utf8Length(s.substr(0, pos)) + 1);
  } else if (n == "btrim" || n == "ltrim" || n == "rtrim") {
    std::string set = args.size() > 1 ? *args[1] : " ";
    std::vector<size_t> st = CharStarts(s);
    std::vector<size_t> ss = CharStarts(set);
    std::vector<std::string> setchars;
    for (size_t k = 0; k + 1 < ss.size(); k++)
      setchars.push_back(set.substr(ss[k], ss[k + 1] - ss[k]));
    auto in_set = [&](size_t k) {
      std::string ch = s.substr(st[k], st[k + 1] - st[k]);
      return std::find(setchars.begin(), setchars.end(), ch) != setchars.end();
    };
    size_t lo = 0, hi = st.size() - 1;
    if (n != "rtrim")
      while (lo < hi && in_set(lo)) lo++;
    if (n != "ltrim")
      while (hi > lo && in_set(hi - 1)) hi--;
    *out = s.substr(st[lo], st[hi] - st[lo]);
  } else if (n == "replace") {
    const std::string& from = *args[1];
    if (from.empty()) {
      *out = s;
    } else {
      std::string r;
      size_t start = 0, pos;
      while ((pos = s.find(from, start)) != std::string::npos) {
        r += s.substr(start, pos - start) + *args[2];
        start = pos + from.size();
      }
      *out = r + s.substr(start);
    }
  } else if (n == "left" || n == "right") {
    std::vector<size_t> st = CharStarts(s);
    int64_t chars = static_cast<int64_t>(st.size()) - 1, k;
    ToInt64(*args[1], &k);
    int64_t take =
        k >= 0 ? std::min(k, chars) : std::max<int64_t>(0, chars + k);
    if (n == "left")
      *out = s.substr(0, st[take]);
    else
      *out = s.substr(st[chars - take]);
  } else if (n == "lpad" || n == "rpad") {
    int64_t len;
    ToInt64(*args[1], &len);
    std::string fill = args.size() > 2 ? *args[2] : " ";
    if (len <= 0) {
      *out = "";
      return true;
    }
    std::vector<size_t> st = CharStarts(s);
    int64_t chars = static_cast<int64_t>(st.size()) - 1;
    if (chars >= len || fill.empty()) {
      *out = s.substr(0, st[std::min(chars, len)]);
      return true;
    }
    if (len > 10000000) {
      *error = Err("54000", "requested length too large");
      return false;
    }
    std::vector<size_t> fs = CharStarts(fill);
    size_t fchars = fs.size() - 1;
    std::string pad;
    for (int64_t k = 0; k < len - chars; k++) {
      size_t c = k % fchars;
      pad += fill.substr(fs[c], fs[c + 1] - fs[c]);
    }
    *out = n == "lpad" ? pad + s : s + pad;
  } else if (n == "repeat") {
    int64_t count;
    ToInt64(*args[1], &count);
    if (count > 0 && s.size() * count > 1073741823) {
      *error = Err("54000", "requested length too large");
      return false;
    }
    std::string r;
    for (int64_t k = 0; k < count; k++) r += s;
    *out = r;
  } else if (n == "reverse") {
    std::vector<size_t> st = CharStarts(s);
    std::string r;
    for (size_t k = st.size() - 1; k-- > 0;)
      r += s.substr(st[k], st[k + 1] - st[k]);
    *out = r;
  } else if (n == "md5") {
    *out = Md5Hex(t0 == oid::kBytea ? ByteaBytes(s) : s);
  } else if (n == "ascii") {
    std::wstring w = ToWide(s);
    *out = std::to_string(w.empty() ? 0 : static_cast<uint32_t>(w[0]));
  } else if (n == "to_hex") {
    int64_t v;
    ToInt64(s, &v);
    char buf[32];
    if (t0 == oid::kInt8)
      std::snprintf(buf, sizeof(buf), "%llx",
                    static_cast<unsigned long long>(v));
    else
      std::snprintf(buf, sizeof(buf), "%x", static_cast<uint32_t>(v));
    *out = buf;
  } else if (n == "quote_ident") {
    *out = QuoteIdent(s);
  } else if (n == "quote_literal") {
    *out = QuoteLiteral(s);
  } else if (n == "starts_with") {
    *out = s.compare(0, args[1]->size(), *args[1]) == 0 ? "t" : "f";
  } else if (n == "translate") {
    std::wstring w = ToWide(s), from = ToWide(*args[1]), to = ToWide(*args[2]);
    std::wstring r;
    for (wchar_t c : w) {
      size_t k = from.find(c);
      if (k == std::wstring::npos)
        r += c;
      else if (k < to.size())
        r += to[k];
    }
    *out = FromWide(r);
  } else if (n == "regexp_replace") {
    bool global = false, insensitive = false;
    if (args.size() > 3 && !RegexFlags(*args[3], &global, &insensitive, error))
      return false;
    std::wregex re;
    if (!CompileRegex(*args[1], insensitive, &re, error)) return false;
    auto flags = std::regex_constants::format_default;
    if (!global) flags |= std::regex_constants::format_first_only;
    *out = FromWide(std::regex_replace(
        ToWide(s), re, ConvertReplacement(ToWide(*args[2])), flags));
  } else if (n == "kova_regexp_matches") {
    // regexp_matches' rows (select list, query_array.cc): a JSON array of
    // each match's text[] (its capture groups, or the whole match).
    bool global = false, insensitive = false;
    if (args.size() > 2 && !RegexFlags(*args[2], &global, &insensitive, error))
      return false;
    std::wregex re;
    if (!CompileRegex(*args[1], insensitive, &re, error)) return false;
    std::wstring w = ToWide(s);
    std::string json = "[";
    size_t search = 0;
    while (search <= w.size()) {
      std::wsmatch m;
      auto flags = search > 0 ? std::regex_constants::match_prev_avail
                              : std::regex_constants::match_default;
      if (!std::regex_search(w.cbegin() + search, w.cend(), m, re, flags))
        break;
      std::string text = types::FormatArray(MatchGroups(m));
      json += json.size() > 1 ? ", \"" : "\"";
      for (char c : text) {
        if (c == '"' || c == '\\') json += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          snprintf(buf, sizeof buf, "\\u%04x", c);
          json += buf;
          continue;
        }
        json += c;
      }
      json += "\"";
      if (!global) break;
      size_t so = search + m.position(0), eo = so + m.length(0);
      search = so == eo ? eo + 1 : eo;
    }
    *out = json + "]";
  } else if (n == "regexp_match" || n == "regexp_split_to_array") {
    bool global = false, insensitive = false;
    if (args.size() > 2 && !RegexFlags(*args[2], &global, &insensitive, error))
      return false;
    if (global) {
      *error = Err("22023", n + "() does not support the \"global\" option");
      if (n == "regexp_match")
        error->hint = "Use the regexp_matches function instead.";
      return false;
    }
    std::wregex re;
    if (!CompileRegex(*args[1], insensitive, &re, error)) return false;
    std::wstring w = ToWide(s);
    types::ArrayValue a;
    if (n == "regexp_match") {
      std::wsmatch m;
      if (!std::regex_search(w, m, re)) return true;  // NULL
      a = MatchGroups(m);
    } else {
      // Zero-length matches at the start, at the end or right after the
      // previous match do not split (PostgreSQL's ignore_degenerate).
      size_t prev_end = 0, search = 0;
      while (search <= w.size()) {
        std::wsmatch m;
        auto flags = search > 0 ? std::regex_constants::match_prev_avail
                                : std::regex_constants::match_default;
        if (!std::regex_search(w.cbegin() + search, w.cend(), m, re, flags))
          break;
        size_t so = search + m.position(0), eo = so + m.length(0);
        if (so < w.size() && eo > prev_end) {
          a.items.emplace_back(FromWide(w.substr(prev_end, so - prev_end)));
          prev_end = eo;
        }
        search = so == eo ? eo + 1 : eo;
      }
      a.items.emplace_back(FromWide(w.substr(prev_end)));
    }
    a.dims = {static_cast<int32_t>(a.items.size())};
    a.lbounds = {1};
    *out = types::FormatArray(a);
  } else if (n == "regexp_like" || n == "regexp_count") {
    bool global = false, insensitive = false;
    size_t flag_arg = n == "regexp_like" ? 2 : 3;
    if (args.size() > flag_arg &&
        !RegexFlags(*args[flag_arg], &global, &insensitive, error))
      return false;
    std::wregex re;
    if (!CompileRegex(*args[1], insensitive, &re, error)) return false;
    std::wstring w = ToWide(s);
    if (n == "regexp_like") {
      *out = std::regex_search(w, re) ? "t" : "f";
    } else {
      int64_t start = 1;
      if (args.size() > 2) ToInt64(*args[2], &start);
      if (start <= 0) {
        *error = Err("22023", "invalid value for parameter \"start\": " +
                                  std::to_string(start));
        return false;
      }
      std::wstring sub =
          static_cast<size_t>(start - 1) < w.size() ? w.substr(start - 1) : L"";
      auto it = std::wsregex_iterator(sub.begin(), sub.end(), re);
      *out = std::to_string(std::distance(it, std::wsregex_iterator()));
    }
  } else if (n == "like_escape") {
    const std::string& esc = *args[1];
    std::string r;
    if (esc.empty()) {
      for (char c : s) {
        if (c == '\\') r += '\\';
        r += c;
      }
    } else {
      if (types::util::Utf8Length(esc) != 1) {
        *error = Err("22025", "invalid escape string");
        error->hint = "Escape string must be empty or one character.";
        return false;
      }
      std::vector<size_t> st = CharStarts(s);
      bool after = false;
      for (size_t k = 0; k + 1 < st.size(); k++) {
        std::string ch = s.substr(st[k], st[k + 1] - st[k]);
        if (after) {
          r += "\\" + ch;
          after = false;
        } else if (ch == esc) {
          after = true;
        } else if (ch == "\\") {
          r += "\\\\";
        } else {
          r += ch;
        }
      }
      if (after) {
        *error =
            Err("22025", "LIKE pattern must not end with escape character");
        return false;
      }
    }
    *out = r;
  }
  return true;
}

}  // namespace kova::planner::expr_detail
