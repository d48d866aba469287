// COPY FROM input scanning: PostgreSQL 15's CopyReadLineText,
// CopyReadAttributesText and CopyReadAttributesCSV, and UTF-8 checks.
#include "planner/copy_scan.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "planner/session_util.h"

namespace kova::planner {
namespace {

constexpr size_t kMaxDisplay = 100;

int Utf8Length(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}

// pg_utf8_verifychar: the length of the valid character at p, 0 when the
// bytes are invalid, -1 when the character is cut off at `end`.
int Utf8Char(const unsigned char* p, const unsigned char* end) {
  unsigned char c = *p;
  if (c == 0) return 0;
  if (c < 0x80) return 1;
  int len = Utf8Length(c);
  if (len == 1) return 0;
  if (end - p < len) {
    // Invalid already if a present byte is wrong.
    for (const unsigned char* q = p + 1; q < end; q++)
      if ((*q & 0xC0) != 0x80) return 0;
    return -1;
  }
  unsigned char b1 = p[1];
  switch (len) {
    case 2:
      if (c < 0xC2 || (b1 & 0xC0) != 0x80) return 0;
      return 2;
    case 3:
      if ((b1 & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
      if (c == 0xE0 && b1 < 0xA0) return 0;
      if (c == 0xED && b1 > 0x9F) return 0;
      return 3;
    default:
      if ((b1 & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
        return 0;
      if (c == 0xF0 && b1 < 0x90) return 0;
      if (c == 0xF4 && b1 > 0x8F) return 0;
      if (c > 0xF4) return 0;
      return 4;
  }
}

}  // namespace

std::string CopyPrintable(std::string_view s) {
  size_t nul = s.find('\0');
  if (nul != std::string_view::npos) s = s.substr(0, nul);
  if (s.size() <= kMaxDisplay) return std::string(s);
  size_t len = kMaxDisplay;
  while (len > 0 && (static_cast<unsigned char>(s[len]) & 0xC0) == 0x80) len--;
  return std::string(s.substr(0, len)) + "...";
}

PgError CopyEncodingError(const char* p, size_t available) {
  size_t l = Utf8Length(static_cast<unsigned char>(*p));
  size_t n = std::min<size_t>(std::min(l, available), 8);
  std::string bytes;
  char hex[8];
  for (size_t j = 0; j < n; j++) {
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(p[j]));
    if (j) bytes += " ";
    bytes += hex;
  }
  return Err("22021", "invalid byte sequence for encoding \"UTF8\": " + bytes);
}

size_t VerifyUtf8(const std::string& buf, size_t from, bool* invalid) {
  const unsigned char* p =
      reinterpret_cast<const unsigned char*>(buf.data()) + from;
  const unsigned char* end =
      reinterpret_cast<const unsigned char*>(buf.data()) + buf.size();
  *invalid = false;
  while (p < end) {
    // Fast path: eight ASCII bytes without a zero.
    if (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if ((w & 0x8080808080808080ULL) == 0 &&
          ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    int n = Utf8Char(p, end);
    if (n == 0) {
      *invalid = true;
      break;
    }
    if (n < 0) break;
    p += n;
  }
  return p - reinterpret_cast<const unsigned char*>(buf.data());
}

CopyIn::Scan CopyIn::ScanLine(const char* start, const char* limit, bool final,
                              size_t* content, size_t* consumed,
                              int* extra_lines, PgError* error) {
  const char* p = start;
  bool in_quote = false, last_was_esc = false, first = true;
  const bool csv = o_.csv;
  const char quotec = o_.quote;
  // An escape equal to the quote needs no special handling here.
  const char escapec = o_.escape == o_.quote ? '\0' : o_.escape;
  *extra_lines = 0;
  for (;;) {
    if (p >= limit) {
      if (!final) return Scan::kNeedMore;
      *content = *consumed = p - start;
      return Scan::kEof;
    }
    const char* prev = p;
    char c = *p++;
    if (csv) {
      if ((c == '\\' || c == '\r') && p >= limit && !final)
        return Scan::kNeedMore;
      if (in_quote && c == escapec) last_was_esc = !last_was_esc;
      if (c == quotec && !last_was_esc) in_quote = !in_quote;
      if (c != escapec) last_was_esc = false;
      if (in_quote && c == (eol_ == Eol::kNl ? '\n' : '\r')) ++*extra_lines;
    }
    if (c == '\r' && (!csv || !in_quote)) {
      if (eol_ == Eol::kUnknown || eol_ == Eol::kCrNl) {
        if (p >= limit && !final) return Scan::kNeedMore;
        char c2 = p < limit ? *p : '\0';
        if (c2 == '\n') {
          p++;
          eol_ = Eol::kCrNl;
        } else {
          if (eol_ == Eol::kCrNl) {
            *error = CrError();
            return Scan::kError;
          }
          eol_ = Eol::kCr;
        }
      } else if (eol_ == Eol::kNl) {
        *error = CrError();
        return Scan::kError;
      }
      *content = prev - start;
      *consumed = p - start;
      return Scan::kLine;
    }
    if (c == '\n' && (!csv || !in_quote)) {
      if (eol_ == Eol::kCr || eol_ == Eol::kCrNl) {
        *error = Err("22P04", csv ? "unquoted newline found in data"
                                  : "literal newline found in data");
        error->hint = csv ? "Use quoted CSV field to represent newline."
                          : "Use \"\\n\" to represent newline.";
        return Scan::kError;
      }
      eol_ = Eol::kNl;
      *content = prev - start;
      *consumed = p - start;
      return Scan::kLine;
    }
    if (c == '\\' && (!csv || first)) {
      if (p >= limit) {
        if (!final) return Scan::kNeedMore;
        *content = *consumed = p - start;
        return Scan::kEof;
      }
      char c2 = *p;
      if (c2 == '.') {
        p++;
        bool data = false;  // CSV: \. followed by more is a value
        if (eol_ == Eol::kCrNl) {
          if (p >= limit && !final) return Scan::kNeedMore;
          c2 = p < limit ? *p++ : '\0';
          if (c2 == '\n') {
            if (!csv) {
              *error = Err("22P04",
                           "end-of-copy marker does not match previous "
                           "newline style");
              return Scan::kError;
            }
            data = true;
          } else if (c2 != '\r') {
            if (!csv) {
              *error = Err("22P04", "end-of-copy marker corrupt");
              return Scan::kError;
            }
            data = true;
          }
        }
        if (!data) {
          if (p >= limit && !final) return Scan::kNeedMore;
          c2 = p < limit ? *p++ : '\0';
          if (c2 != '\r' && c2 != '\n') {
            if (!csv) {
              *error = Err("22P04", "end-of-copy marker corrupt");
              return Scan::kError;
            }
            data = true;
          }
        }
        if (!data) {
          if ((eol_ == Eol::kNl && c2 != '\n') ||
              (eol_ == Eol::kCrNl && c2 != '\n') ||
              (eol_ == Eol::kCr && c2 != '\r')) {
            *error = Err("22P04",
                         "end-of-copy marker does not match previous "
                         "newline style");
            return Scan::kError;
          }
          *content = prev - start;
          *consumed = p - start;
          return Scan::kEndMarker;
        }
      } else if (!csv) {
        p++;  // the escaped character is never a terminator
      }
    }
    first = false;
  }
}

bool CopyIn::SplitText(std::string_view line, size_t max_fields,
                       std::vector<CopyField>* fields, PgError* error) {
  fields->clear();
  if (max_fields == 0) {
    if (!line.empty()) {
      *error = Err("22P04", "extra data after last expected column");
      return false;
    }
    return true;
  }
  attr_.resize(line.size() + 1);
  char* out = attr_.data();
  char* const base = out;
  const char* cur = line.data();
  const char* const end = line.data() + line.size();
  const char delim = o_.delimiter;
  const std::string& null_text = o_.null_text;
  for (;;) {
    bool found_delim = false, saw_non_ascii = false;
    const char* start = cur;
    const char* field_end;
    char* field_out = out;
    for (;;) {
      field_end = cur;
      if (cur >= end) break;
      char c = *cur++;
      if (c == delim) {
        found_delim = true;
        break;
      }
      if (c == '\\') {
        if (cur >= end) break;
        c = *cur++;
        switch (c) {
          case '0':
          case '1':
          case '2':
          case '3':
          case '4':
          case '5':
          case '6':
          case '7': {
            int val = c - '0';
            if (cur < end && *cur >= '0' && *cur <= '7') {
              val = (val << 3) + (*cur++ - '0');
              if (cur < end && *cur >= '0' && *cur <= '7')
                val = (val << 3) + (*cur++ - '0');
            }
            c = static_cast<char>(val & 0377);
            if (c == '\0' || (c & 0x80)) saw_non_ascii = true;
            break;
          }
          case 'x':
            if (cur < end && std::isxdigit(static_cast<unsigned char>(*cur))) {
              int val = HexValue(*cur++);
              if (cur < end && std::isxdigit(static_cast<unsigned char>(*cur)))
                val = (val << 4) + HexValue(*cur++);
              c = static_cast<char>(val & 0xff);
              if (c == '\0' || (c & 0x80)) saw_non_ascii = true;
            }
            break;
          case 'b':
            c = '\b';
            break;
          case 'f':
            c = '\f';
            break;
          case 'n':
            c = '\n';
            break;
          case 'r':
            c = '\r';
            break;
          case 't':
            c = '\t';
            break;
          case 'v':
            c = '\v';
            break;
          default:
            break;
        }
      }
      *out++ = c;
    }
    CopyField f;
    f.offset = field_out - base;
    f.length = out - field_out;
    size_t input_len = field_end - start;
    if (input_len == null_text.size() &&
        std::memcmp(start, null_text.data(), input_len) == 0) {
      f.null = true;
    } else if (saw_non_ascii) {
      std::string value(field_out, f.length);
      bool invalid;
      size_t ok = VerifyUtf8(value, 0, &invalid);
      if (ok < value.size()) {
        *error = CopyEncodingError(value.data() + ok, value.size() - ok);
        return false;
      }
    }
    fields->push_back(f);
    if (!found_delim) break;
  }
  return true;
}

bool CopyIn::SplitCsv(std::string_view line, size_t max_fields,
                      std::vector<CopyField>* fields, PgError* error) {
  fields->clear();
  if (max_fields == 0) {
    if (!line.empty()) {
      *error = Err("22P04", "extra data after last expected column");
      return false;
    }
    return true;
  }
  attr_.resize(line.size() + 1);
  char* out = attr_.data();
  char* const base = out;
  const char* cur = line.data();
  const char* const end = line.data() + line.size();
  const char delim = o_.delimiter, quotec = o_.quote, escapec = o_.escape;
  const std::string& null_text = o_.null_text;
  for (;;) {
    bool found_delim = false, saw_quote = false;
    const char* start = cur;
    const char* field_end = cur;
    char* field_out = out;
    for (;;) {
      // Not in quotes.
      bool quoted = false;
      for (;;) {
        field_end = cur;
        if (cur >= end) goto endfield;
        char c = *cur++;
        if (c == delim) {
          found_delim = true;
          goto endfield;
        }
        if (c == quotec) {
          saw_quote = quoted = true;
          break;
        }
        *out++ = c;
      }
      (void)quoted;
      // In quotes.
      for (;;) {
        field_end = cur;
        if (cur >= end) {
          *error = Err("22P04", "unterminated CSV quoted field");
          return false;
        }
        char c = *cur++;
        if (c == escapec && cur < end) {
          char next = *cur;
          if (next == escapec || next == quotec) {
            *out++ = next;
            cur++;
            continue;
          }
        }
        if (c == quotec) break;
        *out++ = c;
      }
    }
  endfield:
    CopyField f;
    f.offset = field_out - base;
    f.length = out - field_out;
    size_t input_len = field_end - start;
    if (!saw_quote && input_len == null_text.size() &&
        std::memcmp(start, null_text.data(), input_len) == 0)
      f.null = true;
    fields->push_back(f);
    if (!found_delim) break;
  }
  return true;
}

PgError CopyIn::CrError() const {
  PgError e = Err("22P04", o_.csv ? "unquoted carriage return found in data"
                                  : "literal carriage return found in data");
  e.hint = o_.csv ? "Use quoted CSV field to represent carriage return."
                  : "Use \"\\r\" to represent carriage return.";
  return e;
}

}  // namespace kova::planner
