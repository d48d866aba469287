// COPY table [(columns)] FROM STDIN / 'file': PostgreSQL 15's text and CSV
// input (CopyReadLineText, CopyReadAttributesText/CSV), its data errors and
// CONTEXT lines, rows inserted in batches as PostgreSQL's multi-insert
// buffers them (1000 rows or 64 kB of input).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

#include "planner/copy_internal.h"
#include "planner/dml.h"
#include "planner/domains.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {
namespace {

constexpr size_t kMaxBufferedRows = 1000;
constexpr size_t kMaxBufferedBytes = 65535;
constexpr size_t kMaxDisplay = 100;

// limit_printout_length: at most 100 bytes (whole characters) and "...".
std::string Printable(std::string_view s) {
  size_t nul = s.find('\0');
  if (nul != std::string_view::npos) s = s.substr(0, nul);
  if (s.size() <= kMaxDisplay) return std::string(s);
  size_t len = kMaxDisplay;
  while (len > 0 && (static_cast<unsigned char>(s[len]) & 0xC0) == 0x80) len--;
  return std::string(s.substr(0, len)) + "...";
}

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

// report_invalid_encoding.
PgError EncodingError(const char* p, size_t available) {
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

// Verifies UTF-8 from `from`; returns where verification stopped (an
// invalid or cut-off character) and whether that is an invalid one.
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

enum class Eol { kUnknown, kNl, kCr, kCrNl };

struct Field {
  size_t offset = 0;  // into the attribute buffer
  size_t length = 0;
  bool null = false;
};

class CopyIn {
 public:
  CopyIn(const CopyOptions& o) : o_(o) {}

  // CopyReadLineText over buf_[pos_, limit). Returns kNeedMore when the
  // line does not end before `limit` and more input may come.
  enum class Scan { kNeedMore, kLine, kEndMarker, kEof, kError };
  Scan ScanLine(const char* start, const char* limit, bool final,
                size_t* content, size_t* consumed, int* extra_lines,
                PgError* error) {
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

  // CopyReadAttributesText. False with *error set on an encoding error.
  bool SplitText(std::string_view line, size_t max_fields,
                 std::vector<Field>* fields, PgError* error) {
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
              if (cur < end &&
                  std::isxdigit(static_cast<unsigned char>(*cur))) {
                int val = HexValue(*cur++);
                if (cur < end &&
                    std::isxdigit(static_cast<unsigned char>(*cur)))
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
      Field f;
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
          *error = EncodingError(value.data() + ok, value.size() - ok);
          return false;
        }
      }
      fields->push_back(f);
      if (!found_delim) break;
    }
    return true;
  }

  // CopyReadAttributesCSV.
  bool SplitCsv(std::string_view line, size_t max_fields,
                std::vector<Field>* fields, PgError* error) {
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
      Field f;
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

  bool Split(std::string_view line, size_t max_fields,
             std::vector<Field>* fields, PgError* error) {
    return o_.csv ? SplitCsv(line, max_fields, fields, error)
                  : SplitText(line, max_fields, fields, error);
  }
  std::string_view FieldText(const Field& f) const {
    return std::string_view(attr_.data() + f.offset, f.length);
  }

 private:
  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
  }
  PgError CrError() const {
    PgError e = Err("22P04", o_.csv ? "unquoted carriage return found in data"
                                    : "literal carriage return found in data");
    e.hint = o_.csv ? "Use quoted CSV field to represent carriage return."
                    : "Use \"\\r\" to represent carriage return.";
    return e;
  }

  const CopyOptions& o_;
  Eol eol_ = Eol::kUnknown;
  std::vector<char> attr_;
};

PgError FileError(const std::string& what, const std::string& path, int err) {
  const char* state = err == ENOENT   ? "58P01"
                      : err == EACCES ? "42501"
                                      : "58030";
  return Err(state, "could not open file \"" + path + "\" for " + what + ": " +
                        std::strerror(err));
}

}  // namespace

ExecuteResult CopyRunner::CopyFrom(const Plan& plan, ResultSink* sink) {
  SessionImpl& s = *s_;
  const PgQuery__CopyStmt* copy = plan.node->copy_stmt;
  PgError error;
  if (!s.LoadCatalog(&error)) return Fail(error);
  const catalog::Table* table = nullptr;
  const catalog::View* view = nullptr;
  Plan scratch;
  scratch.simple = true;
  CompileContext context = s.MakeCompileContext(&scratch);
  if (!QueryCompiler::LookupRelation(&context, copy->relation, &table, &view,
                                     &error)) {
    error.position = 0;
    return Fail(error);
  }
  if (!s.CheckWritable("COPY FROM", &error)) return Fail(error);
  if (copy->where_clause) {
    return Fail(Err("0A000", "COPY FROM ... WHERE is not supported yet"));
  }
  CopyOptions o;
  if (!ParseCopyOptions(copy, true, &o, &error)) return Fail(error);
  const std::string relname = view ? view->name : table->name;

  // The columns read, in input order.
  std::vector<int> attnums;
  auto column_index = [&](const std::string& name) -> int {
    if (view) {
      for (size_t i = 0; i < view->columns.size(); i++)
        if (view->columns[i].name == name) return static_cast<int>(i);
      return -1;
    }
    return table->ColumnIndex(name);
  };
  size_t relation_columns = view ? view->columns.size() : table->columns.size();
  if (copy->n_attlist == 0) {
    for (size_t i = 0; i < relation_columns; i++)
      attnums.push_back(static_cast<int>(i));
  } else {
    for (size_t i = 0; i < copy->n_attlist; i++) {
      std::string name = copy->attlist[i]->string->sval;
      int c = column_index(name);
      if (c < 0) {
        return Fail(Err("42703", "column \"" + name + "\" of relation \"" +
                                     relname + "\" does not exist"));
      }
      if (std::find(attnums.begin(), attnums.end(), c) != attnums.end()) {
        return Fail(
            Err("42701", "column \"" + name + "\" specified more than once"));
      }
      attnums.push_back(c);
    }
  }
  std::vector<bool> force_not_null(relation_columns, false),
      force_null(relation_columns, false);
  auto flag_columns = [&](const std::vector<std::string>& names,
                          const char* option, std::vector<bool>* flags) {
    std::vector<int> seen;
    for (const auto& name : names) {
      int c = column_index(name);
      if (c < 0) {
        error = Err("42703", "column \"" + name + "\" of relation \"" +
                                 relname + "\" does not exist");
        return false;
      }
      if (std::find(seen.begin(), seen.end(), c) != seen.end()) {
        error =
            Err("42701", "column \"" + name + "\" specified more than once");
        return false;
      }
      seen.push_back(c);
      if (std::find(attnums.begin(), attnums.end(), c) == attnums.end()) {
        error = Err("42P10", std::string(option) + " column \"" + name +
                                 "\" not referenced by COPY");
        return false;
      }
      (*flags)[c] = true;
    }
    return true;
  };
  if (!flag_columns(o.force_not_null, "FORCE_NOT_NULL", &force_not_null) ||
      !flag_columns(o.force_null, "FORCE_NULL", &force_null))
    return Fail(error);
  if (o.binary) return Fail(Err("0A000", "COPY BINARY is not supported yet"));

  // The input: the client (CopyInResponse) or a server file.
  bool from_file = copy->filename && *copy->filename;
  std::FILE* file = nullptr;
  struct CloseFile {
    std::FILE*& f;
    ~CloseFile() {
      if (f) std::fclose(f);
    }
  } close_file{file};
  if (from_file) {
    std::string path = copy->filename;
    file = std::fopen(path.c_str(), "rb");
    if (!file) {
      int err = errno;
      PgError e = FileError("reading", path, err);
      if (err == ENOENT || err == EACCES)
        e.hint =
            "COPY FROM instructs the PostgreSQL server process to read a "
            "file. You may want a client-side facility such as psql's "
            "\\copy.";
      return Fail(e);
    }
    struct stat st;
    if (fstat(fileno(file), &st) == 0 && S_ISDIR(st.st_mode))
      return Fail(Err("42809", "\"" + path + "\" is a directory"));
  } else {
    sink->BeginCopyIn(Format::kText, static_cast<int>(attnums.size()));
  }

  // From here on errors come after CopyInResponse, as PostgreSQL's CopyFrom.
  if (view) {
    PgError e = Err("42809", "cannot copy to view \"" + view->name + "\"");
    e.hint =
        "To enable copying to a view, provide an INSTEAD OF INSERT trigger.";
    return Fail(e);
  }
  if (o.freeze && !s.IsFreshTable(table->schema + "." + table->name)) {
    return Fail(Err("55000",
                    "cannot perform COPY FREEZE because the table was not "
                    "created or truncated in the current subtransaction"));
  }
  // The statement is one transaction: a failing COPY leaves no rows.
  if (!s.in_block_ && !s.implicit_ && !s.single_statement_) s.BeginImplicit();
  docstore::Status st = s.EnsureWriteTransaction();
  if (!st.ok()) return Fail(s.TableError(st));
  if (!s.runtime_.Attach(s.storage_->connection(), &error)) return Fail(error);
  std::shared_ptr<DmlPlan> dml;
  if (!s.PrepareCopyInsert(table, &dml, &error)) return Fail(error);
  // From here to the end a cancel does not interrupt SQLite (see
  // BeginBulkWrite); the loop below checks for it between batches and rows.
  if (!s.BeginBulkWrite())
    return Fail(Err("57014", "canceling statement due to user request"));
  struct BulkWriteEnd {
    SessionImpl& s;
    ~BulkWriteEnd() { s.EndBulkWrite(); }
  } bulk_write_end{s};

  const size_t ncols = table->columns.size();
  // Rows go in batches unless a row may depend on the rows before it being
  // stored (foreign keys) or the table is admin.counters.
  bool batch = !dml->counters;
  for (const auto& c : table->constraints)
    if (c.kind == 'f') batch = false;
  // Counter columns PostgreSQL would call nextval for on every row read.
  std::vector<std::string> row_counters;
  for (size_t i = 0; i < ncols; i++) {
    if (!table->columns[i].counter.empty() &&
        std::find(attnums.begin(), attnums.end(), static_cast<int>(i)) ==
            attnums.end())
      row_counters.push_back(table->columns[i].counter);
  }

  CopyIn in(o);
  std::string buf;
  size_t pos = 0, verified = 0;
  bool invalid = false, eof = false, failed = false;
  std::string fail_message;
  int64_t lineno = 0;
  int64_t processed = 0;
  const types::TypeContext& types = s.settings_.type_context();

  // Batch state.
  // bson_t asks for 128-byte alignment, which std::vector does not give.
  struct FreeDocs {
    void operator()(bson_t* p) const { std::free(p); }
  };
  std::unique_ptr<bson_t, FreeDocs> docs_memory(static_cast<bson_t*>(
      std::aligned_alloc(alignof(bson_t), sizeof(bson_t) * kMaxBufferedRows)));
  bson_t* docs = docs_memory.get();
  size_t ndocs = 0, batch_bytes = 0;
  std::vector<const bson_t*> ptrs;
  // The input line of each buffered row (to rebuild its values for an
  // error message), strings kept to reuse their memory.
  std::vector<std::string> batch_text(batch ? kMaxBufferedRows : 0);
  std::vector<int64_t> batch_lines;
  auto destroy_docs = [&]() {
    for (size_t i = 0; i < ndocs; i++) bson_destroy(&docs[i]);
    ndocs = 0;
    batch_bytes = 0;
    batch_lines.clear();
  };
  struct DocsGuard {
    std::function<void()> f;
    ~DocsGuard() { f(); }
  } docs_guard{destroy_docs};

  // PostgreSQL numbered every row it read with nextval before the error;
  // rows read but not stored consume their values here too.
  auto consume_counters = [&](size_t rows) {
    for (const auto& id : row_counters) {
      for (size_t i = 0; i < rows; i++) {
        int64_t v;
        if (!s.storage_->NextCounter(id, &v).ok()) break;
      }
    }
  };
  auto with_context = [&](PgError e, bool line_text, std::string_view line) {
    e.context = "COPY " + relname + ", line " + std::to_string(lineno);
    if (line_text) e.context += ": \"" + Printable(line) + "\"";
    return e;
  };
  std::vector<Field> fields;
  std::vector<Value> row(ncols);
  std::vector<bool> provided(ncols, false);
  std::string canonical;
  std::function<bool(std::string_view, PgError*)> parse_row;
  auto flush = [&]() -> bool {
    if (ndocs == 0) return true;
    ptrs.resize(ndocs);
    for (size_t i = 0; i < ndocs; i++) ptrs[i] = &docs[i];
    size_t inserted = 0;
    if (s.cancel_) {
      error = Err("57014", "canceling statement due to user request");
      size_t pending = ndocs;
      destroy_docs();
      consume_counters(pending);
      return false;
    }
    docstore::Status is = s.storage_->InsertMany(dml->db, dml->collection,
                                                 ptrs.data(), ndocs, &inserted);
    processed += static_cast<int64_t>(inserted);
    if (!is.ok()) {
      PgError e;
      if (is.code() == docstore::Code::kDuplicateKey ||
          is.code() == docstore::Code::kCounterExhausted) {
        // The values of the failing row, read again from its line.
        PgError ignored;
        parse_row(batch_text[inserted], &ignored);
        e = s.CopyInsertError(*dml, is, row);
      } else {
        e = s.TableError(is);
      }
      e.context =
          "COPY " + relname + ", line " + std::to_string(batch_lines[inserted]);
      error = e;
      size_t rest = ndocs - inserted - 1;
      destroy_docs();
      consume_counters(rest);
      return false;
    }
    destroy_docs();
    if (s.cancel_) {
      error = Err("57014", "canceling statement due to user request");
      return false;
    }
    return true;
  };
  // Fails the statement; rows read but not stored still consume values.
  auto fail_pending = [&](PgError e) {
    size_t pending = ndocs;
    destroy_docs();
    consume_counters(pending);
    return Fail(std::move(e));
  };

  // One data line to canonical values in `row` and `provided`.
  parse_row = [&](std::string_view line, PgError* perror) -> bool {
    PgError& error = *perror;
    if (!in.Split(line, attnums.size(), &fields, &error)) {
      error = with_context(error, true, line);
      return false;
    }
    if (!attnums.empty() && fields.size() > attnums.size()) {
      error = with_context(
          Err("22P04", "extra data after last expected column"), true, line);
      return false;
    }
    // Values of provided columns keep their strings from row to row.
    for (size_t i = 0; i < ncols; i++) provided[i] = false;
    for (size_t k = 0; k < attnums.size(); k++) {
      int c = attnums[k];
      const catalog::Column& col = table->columns[c];
      if (k >= fields.size()) {
        error = with_context(
            Err("22P04", "missing data for column \"" + col.name + "\""), true,
            line);
        return false;
      }
      const Field& f = fields[k];
      bool null = f.null;
      std::string_view text = in.FieldText(f);
      if (o.csv) {
        if (null && force_not_null[c]) {
          null = false;
          text = o.null_text;
        } else if (!null && force_null[c] && text == o.null_text) {
          null = true;
        }
      }
      provided[c] = true;
      if (null) {
        row[c].reset();
        // A domain's constraints are checked as the value is read.
        if (!CheckDomainValue(col.type, std::nullopt, &s, &error)) {
          error.context = "COPY " + relname + ", line " +
                          std::to_string(lineno) + ", column " + col.name +
                          ": null input";
          return false;
        }
        continue;
      }
      // Input functions take a C string: a NUL ends the value.
      size_t nul = text.find('\0');
      if (nul != std::string_view::npos) text = text.substr(0, nul);
      if (!types::InputText(col.type, col.typmod, text, types, &canonical,
                            &error) ||
          !CheckDomainValue(col.type, canonical, &s, &error)) {
        error.position = 0;
        error.context = "COPY " + relname + ", line " + std::to_string(lineno) +
                        ", column " + col.name + ": \"" + Printable(text) +
                        "\"";
        return false;
      }
      if (row[c])
        row[c]->assign(canonical);
      else
        row[c] = canonical;
    }
    for (size_t i = 0; i < ncols; i++)
      if (!provided[i]) row[i].reset();
    return true;
  };
  // One data line: its values, then the document (or the row inserted).
  auto process_line = [&](std::string_view line) -> bool {
    if (!parse_row(line, &error)) return false;
    if (!batch) {
      if (s.cancel_) {
        error = Err("57014", "canceling statement due to user request");
        return false;
      }
      if (!s.InsertCopyRow(*dml, &row, &provided, &error)) {
        if (error.sqlstate == "23505")
          error = with_context(error, false, line);
        else if (error.sqlstate != "23503")
          error = with_context(error, true, line);
        return false;
      }
      processed++;
      return true;
    }
    // A row that breaks NOT NULL fails the statement: the rows read before
    // it take their counter values first, as PostgreSQL numbers rows in
    // the order it reads them.
    for (size_t i = 0; i < ncols && ndocs > 0; i++) {
      const catalog::Column& col = table->columns[i];
      if (col.not_null && !row[i] &&
          (provided[i] || (col.counter.empty() && !dml->defaults[i]))) {
        size_t pending = ndocs;
        destroy_docs();
        consume_counters(pending);
      }
    }
    bson_t* doc = &docs[ndocs];
    bson_init(doc);
    if (!s.BuildCopyDocument(*dml, &row, &provided, doc, &error)) {
      bson_destroy(doc);
      if (error.sqlstate != "23503") error = with_context(error, true, line);
      return false;
    }
    ndocs++;
    batch_text[ndocs - 1].assign(line);
    batch_lines.push_back(lineno);
    batch_bytes += line.size();
    if (ndocs >= kMaxBufferedRows || batch_bytes >= kMaxBufferedBytes)
      return flush();
    return true;
  };

  // Reads more input into buf. False at the end of the input.
  auto read_more = [&]() -> bool {
    if (eof) return false;
    if (pos > 0 && pos >= buf.size() / 2) {
      buf.erase(0, pos);
      verified -= pos;
      pos = 0;
    }
    if (from_file) {
      size_t old = buf.size();
      buf.resize(old + (1 << 20));
      size_t n = std::fread(buf.data() + old, 1, 1 << 20, file);
      buf.resize(old + n);
      if (n == 0) {
        if (std::ferror(file)) {
          failed = true;
          fail_message = std::string("could not read from COPY file: ") +
                         std::strerror(errno);
        }
        eof = true;
      }
    } else {
      std::string chunk;
      for (;;) {
        ResultSink::CopyRead r = sink->ReadCopyData(&chunk);
        if (r == ResultSink::CopyRead::kData) {
          if (chunk.empty()) continue;
          buf += chunk;
          break;
        }
        eof = true;
        if (r == ResultSink::CopyRead::kFail) {
          failed = true;
          fail_message = chunk;
        }
        break;
      }
    }
    verified = VerifyUtf8(buf, verified, &invalid);
    if (eof && !invalid && verified < buf.size()) invalid = true;
    return true;
  };
  auto input_failure = [&]() {
    PgError e;
    if (from_file) {
      e = Err("58030", fail_message);
    } else if (fail_message.rfind("unexpected ", 0) == 0) {
      e = Err("08P01", fail_message);
    } else {
      e = Err("57014", "COPY from stdin failed: " + fail_message);
    }
    return with_context(e, false, "");
  };

  bool header_pending = o.header != CopyOptions::Header::kFalse;
  bool done = false;
  while (!done) {
    lineno++;
    size_t content = 0, consumed = 0;
    int extra = 0;
    CopyIn::Scan r;
    for (;;) {
      bool final = eof && !invalid && verified == buf.size();
      r = in.ScanLine(buf.data() + pos, buf.data() + verified, final, &content,
                      &consumed, &extra, &error);
      if (r != CopyIn::Scan::kNeedMore) break;
      if (invalid) {
        lineno += extra;
        return fail_pending(with_context(
            EncodingError(buf.data() + verified, buf.size() - verified), false,
            ""));
      }
      if (!read_more() || failed) {
        if (failed) {
          lineno += extra;
          return fail_pending(input_failure());
        }
      }
    }
    lineno += extra;
    if (r == CopyIn::Scan::kError) {
      return fail_pending(with_context(error, false, ""));
    }
    std::string_view line(buf.data() + pos, content);
    pos += consumed;
    bool at_end = r != CopyIn::Scan::kLine;
    if (header_pending) {
      header_pending = false;
      if (o.header == CopyOptions::Header::kMatch) {
        if (!in.Split(line, attnums.size(), &fields, &error))
          return fail_pending(with_context(error, true, line));
        if (fields.size() != attnums.size()) {
          return fail_pending(with_context(
              Err("22P04", "wrong number of fields in header line: got " +
                               std::to_string(fields.size()) + ", expected " +
                               std::to_string(attnums.size())),
              true, line));
        }
        for (size_t k = 0; k < attnums.size(); k++) {
          const std::string& name = table->columns[attnums[k]].name;
          if (fields[k].null) {
            return fail_pending(with_context(
                Err("22P04", "column name mismatch in header line field " +
                                 std::to_string(k + 1) +
                                 ": got null value (\"" + o.null_text +
                                 "\"), expected \"" + name + "\""),
                true, line));
          }
          std::string got(in.FieldText(fields[k]));
          size_t nul = got.find('\0');
          if (nul != std::string::npos) got.resize(nul);
          if (got != name) {
            return fail_pending(with_context(
                Err("22P04", "column name mismatch in header line field " +
                                 std::to_string(k + 1) + ": got \"" + got +
                                 "\", expected \"" + name + "\""),
                true, line));
          }
        }
      }
      if (at_end) break;
      continue;
    }
    if (at_end && line.empty()) break;
    if (!process_line(line)) return fail_pending(error);
    if (at_end) done = true;
  }
  // After the end marker the rest of the data is ignored, as PostgreSQL.
  if (!from_file) {
    while (!eof) {
      buf.clear();
      pos = verified = 0;
      read_more();
    }
    if (failed) return fail_pending(input_failure());
  }
  if (!flush()) return Fail(error);
  return Tag("COPY " + std::to_string(processed));
}

}  // namespace kova::planner
