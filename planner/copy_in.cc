// COPY table [(columns)] FROM STDIN / 'file': PostgreSQL 15's text and CSV
// input, its data errors and CONTEXT lines, rows inserted in batches as
// PostgreSQL's multi-insert buffers them (1000 rows or 64 kB of input).
// When building a row's document needs no storage and no session state, a
// second thread reads, parses and builds while the session thread stores.
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "planner/copy_internal.h"
#include "planner/copy_scan.h"
#include "planner/dml.h"
#include "planner/domains.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/user_types.h"

namespace kova::planner {
namespace {

// PostgreSQL's multi-insert buffer: 1000 rows or 64 kB of input.
constexpr size_t kMaxBufferedRows = 1000;
constexpr size_t kMaxBufferedBytes = 65535;
// Batches a reading thread may have filled ahead of the session thread:
// the memory a pipelined COPY holds is bounded by these.
constexpr size_t kMaxBatchesAhead = 4;

PgError FileError(const std::string& what, const std::string& path, int err) {
  const char* state = err == ENOENT   ? "58P01"
                      : err == EACCES ? "42501"
                                      : "58030";
  return Err(state, "could not open file \"" + path + "\" for " + what + ": " +
                        std::strerror(err));
}

PgError CopyContext(PgError e, const std::string& relname, int64_t lineno,
                    bool line_text, std::string_view line) {
  e.context = "COPY " + relname + ", line " + std::to_string(lineno);
  if (line_text) e.context += ": \"" + CopyPrintable(line) + "\"";
  return e;
}

// The input of COPY FROM as data lines (CopyReadLine): the client's
// CopyData or a file, checked as UTF-8, the header skipped or matched, and
// after the last line the rest of the input read and ignored.
class CopyLines {
 public:
  CopyLines(const CopyOptions& o, ResultSink* sink, std::FILE* file,
            const catalog::Table& table, const std::vector<int>& attnums,
            const std::string& relname)
      : o_(o),
        in_(o),
        sink_(sink),
        file_(file),
        table_(table),
        attnums_(attnums),
        relname_(relname),
        header_pending_(o.header != CopyOptions::Header::kFalse) {}

  enum class Next { kLine, kEnd, kError };
  // The next data line (valid until the next call; lineno() is its
  // number), the end of the data, or an error with its CONTEXT.
  Next Read(std::string_view* line, PgError* error) {
    if (done_) return Finish(error);
    for (;;) {
      lineno_++;
      size_t content = 0, consumed = 0;
      int extra = 0;
      CopyIn::Scan r;
      for (;;) {
        bool final = eof_ && !invalid_ && verified_ == buf_.size();
        r = in_.ScanLine(buf_.data() + pos_, buf_.data() + verified_, final,
                         &content, &consumed, &extra, error);
        if (r != CopyIn::Scan::kNeedMore) break;
        if (invalid_) {
          lineno_ += extra;
          *error = Context(CopyEncodingError(buf_.data() + verified_,
                                             buf_.size() - verified_),
                           false, "");
          return Next::kError;
        }
        if (!ReadMore() || failed_) {
          if (failed_) {
            lineno_ += extra;
            *error = InputFailure();
            return Next::kError;
          }
        }
      }
      lineno_ += extra;
      if (r == CopyIn::Scan::kError) {
        *error = Context(*error, false, "");
        return Next::kError;
      }
      std::string_view l(buf_.data() + pos_, content);
      pos_ += consumed;
      bool at_end = r != CopyIn::Scan::kLine;
      if (header_pending_) {
        header_pending_ = false;
        if (o_.header == CopyOptions::Header::kMatch && !MatchHeader(l, error))
          return Next::kError;
        if (at_end) {
          done_ = true;
          return Finish(error);
        }
        continue;
      }
      if (at_end) done_ = true;
      if (at_end && l.empty()) return Finish(error);
      *line = l;
      return Next::kLine;
    }
  }
  int64_t lineno() const { return lineno_; }

 private:
  PgError Context(PgError e, bool line_text, std::string_view line) const {
    return CopyContext(std::move(e), relname_, lineno_, line_text, line);
  }

  // Reads more input into buf_. False at the end of the input.
  bool ReadMore() {
    if (eof_) return false;
    if (pos_ > 0 && pos_ >= buf_.size() / 2) {
      buf_.erase(0, pos_);
      verified_ -= pos_;
      pos_ = 0;
    }
    if (file_) {
      size_t old = buf_.size();
      buf_.resize(old + (1 << 20));
      size_t n = std::fread(buf_.data() + old, 1, 1 << 20, file_);
      buf_.resize(old + n);
      if (n == 0) {
        if (std::ferror(file_)) {
          failed_ = true;
          fail_message_ = std::string("could not read from COPY file: ") +
                          std::strerror(errno);
        }
        eof_ = true;
      }
    } else {
      for (;;) {
        ResultSink::CopyRead r = sink_->ReadCopyData(&chunk_);
        if (r == ResultSink::CopyRead::kData) {
          if (chunk_.empty()) continue;
          buf_ += chunk_;
          break;
        }
        eof_ = true;
        if (r == ResultSink::CopyRead::kFail) {
          failed_ = true;
          fail_message_ = chunk_;
        }
        break;
      }
    }
    verified_ = VerifyUtf8(buf_, verified_, &invalid_);
    if (eof_ && !invalid_ && verified_ < buf_.size()) invalid_ = true;
    return true;
  }

  PgError InputFailure() const {
    PgError e;
    if (file_) {
      e = Err("58030", fail_message_);
    } else if (fail_message_.rfind("unexpected ", 0) == 0) {
      e = Err("08P01", fail_message_);
    } else {
      e = Err("57014", "COPY from stdin failed: " + fail_message_);
    }
    return Context(e, false, "");
  }

  // After the end marker the rest of the data is ignored, as PostgreSQL.
  Next Finish(PgError* error) {
    if (!file_) {
      while (!eof_) {
        buf_.clear();
        pos_ = verified_ = 0;
        ReadMore();
      }
      if (failed_) {
        *error = InputFailure();
        return Next::kError;
      }
    }
    return Next::kEnd;
  }

  bool MatchHeader(std::string_view line, PgError* error) {
    if (!in_.Split(line, attnums_.size(), &fields_, error)) {
      *error = Context(*error, true, line);
      return false;
    }
    if (fields_.size() != attnums_.size()) {
      *error = Context(
          Err("22P04", "wrong number of fields in header line: got " +
                           std::to_string(fields_.size()) + ", expected " +
                           std::to_string(attnums_.size())),
          true, line);
      return false;
    }
    for (size_t k = 0; k < attnums_.size(); k++) {
      const std::string& name = table_.columns[attnums_[k]].name;
      if (fields_[k].null) {
        *error =
            Context(Err("22P04",
                        "column name mismatch in header line "
                        "field " +
                            std::to_string(k + 1) + ": got null value (\"" +
                            o_.null_text + "\"), expected \"" + name + "\""),
                    true, line);
        return false;
      }
      std::string got(in_.FieldText(fields_[k]));
      size_t nul = got.find('\0');
      if (nul != std::string::npos) got.resize(nul);
      if (got != name) {
        *error =
            Context(Err("22P04", "column name mismatch in header line field " +
                                     std::to_string(k + 1) + ": got \"" + got +
                                     "\", expected \"" + name + "\""),
                    true, line);
        return false;
      }
    }
    return true;
  }

  const CopyOptions& o_;
  CopyIn in_;
  ResultSink* sink_;
  std::FILE* file_;
  const catalog::Table& table_;
  const std::vector<int>& attnums_;
  const std::string& relname_;
  std::string buf_, chunk_, fail_message_;
  size_t pos_ = 0, verified_ = 0;
  bool invalid_ = false, eof_ = false, failed_ = false;
  bool header_pending_, done_ = false;
  int64_t lineno_ = 0;
  std::vector<CopyField> fields_;
};

// One data line to the canonical values of a row (CopyReadAttributes and
// the input functions). Touches no storage and no session state for tables
// whose columns all have built-in types, so the reading thread can use it.
class CopyRowParser {
 public:
  CopyRowParser(const CopyOptions& o, const catalog::Table& table,
                const std::vector<int>& attnums,
                const std::vector<bool>& force_not_null,
                const std::vector<bool>& force_null, const std::string& relname,
                SessionHooks* hooks)
      : o_(o),
        in_(o),
        table_(table),
        attnums_(attnums),
        force_not_null_(force_not_null),
        force_null_(force_null),
        relname_(relname),
        hooks_(hooks),
        types_(hooks->type_context()) {}

  // Sets `row` and `provided` (the columns read) from `line`.
  bool Parse(std::string_view line, int64_t lineno, std::vector<Value>* row,
             std::vector<bool>* provided, PgError* error) {
    auto context = [&](PgError e) {
      return CopyContext(std::move(e), relname_, lineno, true, line);
    };
    if (!in_.Split(line, attnums_.size(), &fields_, error)) {
      *error = context(*error);
      return false;
    }
    if (!attnums_.empty() && fields_.size() > attnums_.size()) {
      *error = context(Err("22P04", "extra data after last expected column"));
      return false;
    }
    const size_t ncols = table_.columns.size();
    // Values of provided columns keep their strings from row to row.
    for (size_t i = 0; i < ncols; i++) (*provided)[i] = false;
    for (size_t k = 0; k < attnums_.size(); k++) {
      int c = attnums_[k];
      const catalog::Column& col = table_.columns[c];
      if (k >= fields_.size()) {
        *error = context(
            Err("22P04", "missing data for column \"" + col.name + "\""));
        return false;
      }
      const CopyField& f = fields_[k];
      bool null = f.null;
      std::string_view text = in_.FieldText(f);
      if (o_.csv) {
        if (null && force_not_null_[c]) {
          null = false;
          text = o_.null_text;
        } else if (!null && force_null_[c] && text == o_.null_text) {
          null = true;
        }
      }
      (*provided)[c] = true;
      if (null) {
        (*row)[c].reset();
        // A domain's constraints are checked as the value is read.
        if (!CheckDomainValue(col.type, std::nullopt, hooks_, error)) {
          error->context = "COPY " + relname_ + ", line " +
                           std::to_string(lineno) + ", column " + col.name +
                           ": null input";
          return false;
        }
        continue;
      }
      // Input functions take a C string: a NUL ends the value.
      size_t nul = text.find('\0');
      if (nul != std::string_view::npos) text = text.substr(0, nul);
      if (!types::InputText(col.type, col.typmod, text, types_, &canonical_,
                            error) ||
          !CheckDomainValue(col.type, canonical_, hooks_, error)) {
        error->position = 0;
        error->context = "COPY " + relname_ + ", line " +
                         std::to_string(lineno) + ", column " + col.name +
                         ": \"" + CopyPrintable(text) + "\"";
        return false;
      }
      if ((*row)[c])
        (*row)[c]->assign(canonical_);
      else
        (*row)[c] = canonical_;
    }
    for (size_t i = 0; i < ncols; i++)
      if (!(*provided)[i]) (*row)[i].reset();
    return true;
  }

 private:
  const CopyOptions& o_;
  CopyIn in_;
  const catalog::Table& table_;
  const std::vector<int>& attnums_;
  const std::vector<bool>& force_not_null_;
  const std::vector<bool>& force_null_;
  const std::string& relname_;
  SessionHooks* hooks_;
  const types::TypeContext& types_;
  std::vector<CopyField> fields_;
  std::string canonical_;
};

// Rows read and not yet stored, as PostgreSQL's multi-insert buffer holds
// them: their documents, input lines (to rebuild a failing row's values
// for its error message) and line numbers. A batch filled by the reading
// thread may end the input (kEnd) or stop at an error it read (kError), and
// may hold rows whose document only the session can build (no document).
class CopyBatch {
 public:
  CopyBatch()
      : docs_(static_cast<bson_t*>(std::aligned_alloc(
            alignof(bson_t), sizeof(bson_t) * kMaxBufferedRows))),
        texts(kMaxBufferedRows) {}
  ~CopyBatch() {
    Clear();
    std::free(docs_);
  }
  CopyBatch(const CopyBatch&) = delete;
  CopyBatch& operator=(const CopyBatch&) = delete;

  bson_t* doc(size_t i) { return &docs_[i]; }
  // Adds a row; its document (when has_doc) was initialised at doc(rows).
  void Add(bool has_doc, int64_t lineno, std::string_view line) {
    has_docs.push_back(has_doc);
    lines.push_back(lineno);
    texts[rows].assign(line);
    bytes += line.size();
    rows++;
  }
  bool full() const {
    return rows >= kMaxBufferedRows || bytes >= kMaxBufferedBytes;
  }
  void Clear() {
    for (size_t i = 0; i < rows; i++)
      if (has_docs[i]) bson_destroy(&docs_[i]);
    rows = bytes = 0;
    has_docs.clear();
    lines.clear();
    end = End::kNone;
  }

  size_t rows = 0, bytes = 0;
  std::vector<char> has_docs;
  std::vector<int64_t> lines;
  std::vector<std::string> texts;  // strings kept to reuse their memory
  enum class End { kNone, kEnd, kError } end = End::kNone;
  PgError error;  // end == kError

 private:
  // bson_t asks for 128-byte alignment, which std::vector does not give.
  bson_t* docs_;
};

// Filled batches from the reading thread to the session thread, at most
// kMaxBatchesAhead in existence; Stop ends both sides' waits.
class CopyBatchQueue {
 public:
  // An empty batch to fill; null once stopped.
  std::unique_ptr<CopyBatch> TakeEmpty() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] {
      return stop_ || !empty_.empty() || allocated_ < kMaxBatchesAhead;
    });
    if (stop_) return nullptr;
    if (!empty_.empty()) {
      std::unique_ptr<CopyBatch> b = std::move(empty_.back());
      empty_.pop_back();
      return b;
    }
    allocated_++;
    return std::make_unique<CopyBatch>();
  }
  void Push(std::unique_ptr<CopyBatch> b) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      filled_.push_back(std::move(b));
    }
    cv_.notify_all();
  }
  // The next filled batch, in reading order; null once stopped.
  std::unique_ptr<CopyBatch> Pop() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return stop_ || !filled_.empty(); });
    if (filled_.empty()) return nullptr;
    std::unique_ptr<CopyBatch> b = std::move(filled_.front());
    filled_.pop_front();
    return b;
  }
  void Recycle(std::unique_ptr<CopyBatch> b) {
    b->Clear();
    {
      std::lock_guard<std::mutex> lock(mu_);
      empty_.push_back(std::move(b));
    }
    cv_.notify_all();
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    stopping_ = true;
    cv_.notify_all();
  }
  // Read between lines, so that the reader ends soon after a failure.
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<CopyBatch>> filled_, empty_;
  size_t allocated_ = 0;
  bool stop_ = false;
  std::atomic<bool> stopping_{false};
};

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
  auto generated = [&](int c) {
    return !view && !table->columns[c].generated_expr.empty();
  };
  if (copy->n_attlist == 0) {
    for (size_t i = 0; i < relation_columns; i++)
      if (!generated(static_cast<int>(i)))
        attnums.push_back(static_cast<int>(i));
  } else {
    for (size_t i = 0; i < copy->n_attlist; i++) {
      std::string name = copy->attlist[i]->string->sval;
      int c = column_index(name);
      if (c < 0) {
        return Fail(Err("42703", "column \"" + name + "\" of relation \"" +
                                     relname + "\" does not exist"));
      }
      if (generated(c)) return Fail(GeneratedCopyError(name));
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
  bool batch_rows = !dml->counters;
  for (const auto& c : table->constraints)
    if (c.kind == 'f') batch_rows = false;
  // Counter columns PostgreSQL would call nextval for on every row read.
  std::vector<std::string> row_counters;
  for (size_t i = 0; i < ncols; i++) {
    if (!table->columns[i].counter.empty() &&
        std::find(attnums.begin(), attnums.end(), static_cast<int>(i)) ==
            attnums.end())
      row_counters.push_back(table->columns[i].counter);
  }
  // A second thread can read, parse and build the documents while this one
  // stores them when that touches neither storage nor session state: no
  // user-defined types (their lookups go through this thread's catalog), no
  // CHECK constraints, and every column left out is autoincrement or has
  // no default (defaults are expressions evaluated in the session).
  bool pipelined = batch_rows && dml->checks.empty() && dml->generated.empty();
  for (size_t i = 0; i < ncols && pipelined; i++) {
    const catalog::Column& col = table->columns[i];
    if (user_types::IsUserOid(col.type)) pipelined = false;
    bool read = std::find(attnums.begin(), attnums.end(),
                          static_cast<int>(i)) != attnums.end();
    if (!read && col.counter.empty() && dml->defaults[i]) pipelined = false;
  }

  int64_t lineno = 0;
  int64_t processed = 0;
  std::vector<Value> row(ncols);
  std::vector<bool> provided(ncols, false);
  CopyRowParser parser(o, *table, attnums, force_not_null, force_null, relname,
                       &s);
  std::vector<const bson_t*> ptrs;

  // PostgreSQL numbered every row it read with nextval before the error;
  // rows read but not stored consume their values here too, unless their
  // documents took them already (build_insert does for CHECK constraints).
  const bool built_rows_numbered =
      !dml->checks.empty() || !dml->generated.empty();
  auto consume_counters = [&](size_t rows) {
    if (built_rows_numbered) return;
    for (const auto& id : row_counters) {
      for (size_t i = 0; i < rows; i++) {
        int64_t v;
        if (!s.storage_->NextCounter(id, &v).ok()) break;
      }
    }
  };
  // A row that breaks NOT NULL (build_insert fails it with 23502).
  auto breaks_not_null = [&]() {
    for (size_t i = 0; i < ncols; i++) {
      const catalog::Column& col = table->columns[i];
      if (col.not_null && !row[i] &&
          (provided[i] || (col.counter.empty() && !dml->defaults[i])))
        return true;
    }
    return false;
  };
  // Stores the rows of `b` from `first` on. False with `error` set; the
  // rows after a failing one consume their counter values.
  auto store = [&](CopyBatch& b, size_t first) -> bool {
    size_t n = b.rows - first;
    if (n == 0) return true;
    ptrs.resize(n);
    for (size_t i = 0; i < n; i++) ptrs[i] = b.doc(first + i);
    if (s.cancel_) {
      error = Err("57014", "canceling statement due to user request");
      consume_counters(n);
      return false;
    }
    size_t inserted = 0;
    docstore::Status is = s.storage_->InsertMany(dml->db, dml->collection,
                                                 ptrs.data(), n, &inserted);
    processed += static_cast<int64_t>(inserted);
    if (!is.ok()) {
      size_t k = first + inserted;
      PgError e;
      if (is.code() == docstore::Code::kDuplicateKey ||
          is.code() == docstore::Code::kCounterExhausted) {
        // The values of the failing row, read again from its line.
        PgError ignored;
        parser.Parse(b.texts[k], b.lines[k], &row, &provided, &ignored);
        e = s.CopyInsertError(*dml, is, row);
      } else {
        e = s.TableError(is);
      }
      e.context = "COPY " + relname + ", line " + std::to_string(b.lines[k]);
      error = e;
      consume_counters(n - inserted - 1);
      return false;
    }
    if (s.cancel_) {
      error = Err("57014", "canceling statement due to user request");
      return false;
    }
    return true;
  };

  // The input file closes after the reading thread has ended.
  CopyLines lines(o, sink, file, *table, attnums, relname);
  CopyBatchQueue queue;
  std::thread reader;
  struct StopReader {
    CopyBatchQueue& queue;
    std::thread& thread;
    ~StopReader() {
      queue.Stop();
      if (thread.joinable()) thread.join();
    }
  } stop_reader{queue, reader};

  if (pipelined) {
    // The reading thread: lines, values and documents, in batches cut as
    // the session thread would cut them. A row whose document it cannot
    // build (one that breaks NOT NULL, or a value the document refuses)
    // goes without one: the session thread builds it, or fails it with the
    // counter values and error a serial COPY would give.
    reader = std::thread([&, dml] {
      CopyRowParser reader_parser(o, *table, attnums, force_not_null,
                                  force_null, relname, &s);
      std::vector<Value> values(ncols);
      std::vector<bool> read(ncols, false);
      auto refuses_null = [&]() {
        for (size_t i = 0; i < ncols; i++) {
          const catalog::Column& col = table->columns[i];
          if (col.not_null && !values[i] &&
              (read[i] || (col.counter.empty() && !dml->defaults[i])))
            return true;
        }
        return false;
      };
      std::unique_ptr<CopyBatch> b = queue.TakeEmpty();
      while (b && !queue.stopping()) {
        std::string_view line;
        PgError e;
        CopyLines::Next next = lines.Read(&line, &e);
        if (next == CopyLines::Next::kLine &&
            !reader_parser.Parse(line, lines.lineno(), &values, &read, &e))
          next = CopyLines::Next::kError;
        if (next != CopyLines::Next::kLine) {
          b->end = next == CopyLines::Next::kEnd ? CopyBatch::End::kEnd
                                                 : CopyBatch::End::kError;
          b->error = std::move(e);
          queue.Push(std::move(b));
          return;
        }
        bool has_doc = false;
        if (!refuses_null()) {
          // With the conditions of `pipelined`, build_insert evaluates no
          // expression and takes no counter value: it only converts.
          bson_init(b->doc(b->rows));
          has_doc =
              s.BuildCopyDocument(*dml, &values, &read, b->doc(b->rows), &e);
          if (!has_doc) bson_destroy(b->doc(b->rows));
        }
        b->Add(has_doc, lines.lineno(), line);
        if (b->full()) {
          queue.Push(std::move(b));
          b = queue.TakeEmpty();
        }
      }
    });
    // This thread: the documents the reader could not build, then the
    // batch into the store.
    for (;;) {
      std::unique_ptr<CopyBatch> b = queue.Pop();
      if (!b) return Fail(Err("XX000", "COPY reading thread ended early"));
      size_t first = 0;  // rows before it were given up (NOT NULL below)
      for (size_t r = 0; r < b->rows; r++) {
        if (b->has_docs[r]) continue;
        lineno = b->lines[r];
        const std::string& line = b->texts[r];
        if (!parser.Parse(line, lineno, &row, &provided, &error)) {
          consume_counters(r - first);
          return Fail(error);
        }
        if (r > first && breaks_not_null()) {
          consume_counters(r - first);
          first = r;
        }
        bson_init(b->doc(r));
        b->has_docs[r] = true;
        if (!s.BuildCopyDocument(*dml, &row, &provided, b->doc(r), &error)) {
          if (error.sqlstate != "23503")
            error = CopyContext(error, relname, lineno, true, line);
          consume_counters(r - first);
          return Fail(error);
        }
      }
      if (b->end == CopyBatch::End::kError) {
        consume_counters(b->rows - first);
        return Fail(b->error);
      }
      if (!store(*b, first)) return Fail(error);
      if (b->end == CopyBatch::End::kEnd) break;
      queue.Recycle(std::move(b));
    }
    return Tag("COPY " + std::to_string(processed));
  }

  // One thread: each line read, parsed and stored (or batched) in turn.
  CopyBatch batch;
  // Fails the statement; rows read but not stored still consume values.
  auto fail_pending = [&](PgError e) {
    size_t pending = batch.rows;
    batch.Clear();
    consume_counters(pending);
    return Fail(std::move(e));
  };
  auto flush = [&]() {
    bool ok = store(batch, 0);
    batch.Clear();
    return ok;
  };
  // One data line: its values, then the document (or the row inserted).
  auto process_line = [&](std::string_view line) -> bool {
    if (!parser.Parse(line, lineno, &row, &provided, &error)) return false;
    if (!batch_rows) {
      if (s.cancel_) {
        error = Err("57014", "canceling statement due to user request");
        return false;
      }
      if (!s.InsertCopyRow(*dml, &row, &provided, &error)) {
        if (error.sqlstate == "23505")
          error = CopyContext(error, relname, lineno, false, line);
        else if (error.sqlstate != "23503")
          error = CopyContext(error, relname, lineno, true, line);
        return false;
      }
      processed++;
      return true;
    }
    // A row that breaks NOT NULL fails the statement: the rows read before
    // it take their counter values first, as PostgreSQL numbers rows in
    // the order it reads them.
    if (batch.rows > 0 && breaks_not_null()) {
      size_t pending = batch.rows;
      batch.Clear();
      consume_counters(pending);
    }
    bson_t* doc = batch.doc(batch.rows);
    bson_init(doc);
    if (!s.BuildCopyDocument(*dml, &row, &provided, doc, &error)) {
      bson_destroy(doc);
      if (error.sqlstate != "23503")
        error = CopyContext(error, relname, lineno, true, line);
      return false;
    }
    batch.Add(true, lineno, line);
    if (batch.full()) return flush();
    return true;
  };
  for (;;) {
    std::string_view line;
    CopyLines::Next next = lines.Read(&line, &error);
    if (next == CopyLines::Next::kError) return fail_pending(error);
    if (next == CopyLines::Next::kEnd) break;
    lineno = lines.lineno();
    if (!process_line(line)) return fail_pending(error);
  }
  if (!flush()) return Fail(error);
  return Tag("COPY " + std::to_string(processed));
}

}  // namespace kova::planner
