// `kova restore`: reads a PostgreSQL dump statement by statement (with
// psql's lexical rules: quotes, dollar quotes, comments, parentheses) and
// runs each through the planner in this process, streaming the data of
// COPY ... FROM stdin blocks straight into the planner's COPY (its batched
// bulk insert). Archives (custom, directory, tar) are turned into SQL by
// `pg_restore -f -`.
//
// Durability: the restore's commits skip their fsync (synchronous_commit
// off); closing the store at the end checkpoints and syncs everything. A
// crash in the middle can lose the last statements, never corrupt data.
#include "cli/restore.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "docstore/docstore.h"
#include "planner/planner.h"

namespace kova::cli {
namespace {

using planner::ColumnDesc;
using planner::Datum;
using planner::ExecuteResult;
using planner::Format;
using planner::PgError;

constexpr const char* kRestoreUsage = R"(usage:
  kova restore [--data DIR] --db NAME [--on-error stop|continue] FILE|-
      Restores a PostgreSQL dump into database NAME (created when missing):
      plain SQL as pg_dump writes it, or a custom, directory or tar archive
      (converted with pg_restore -f -, which must be on PATH or in
      /usr/lib/postgresql/15/bin). Statements run in this process, without
      the wire protocol; COPY data goes straight into the store. psql's
      \restrict and \unrestrict lines are skipped, \connect switches
      database. --on-error stop (default) stops at the first failing
      statement with exit status 1; continue reports it and goes on (exit
      status 1 at the end). Progress (bytes, tables, rows) is shown on a
      terminal; a summary ends the run.
      The data directory must not be open in a running `kova serve`: the
      store's lock refuses a second process (restore through the server
      with psql or pg_restore instead).
)";

// ---- reading the dump
// ---------------------------------------------------------

// A dump read line by line, cut into statements with psql's lexical rules.
class DumpReader {
 public:
  explicit DumpReader(std::FILE* in) : in_(in) {}
  ~DumpReader() { std::free(line_); }

  enum class Kind { kStatement, kMeta, kEnd };
  struct Item {
    Kind kind = Kind::kEnd;
    std::string text;
    int64_t line = 0;  // where it starts (1-based)
  };

  // The next statement (with its ';') or psql meta-command line.
  bool Next(Item* item) {
    item->text.clear();
    item->kind = Kind::kEnd;
    bool started = false;
    while (true) {
      if (rest_.empty()) {
        if (!ReadLine(&rest_)) break;
      }
      size_t i = 0;
      if (!started) {
        // Blank lines and comment lines between statements are dropped.
        size_t j = rest_.find_first_not_of(" \t\r\n");
        if (j == std::string::npos) {
          rest_.clear();
          continue;
        }
        if (state_ == State::kNormal && rest_.compare(j, 2, "--") == 0) {
          rest_.clear();
          continue;
        }
        if (rest_[j] == '\\') {
          item->kind = Kind::kMeta;
          item->line = lineno_;
          item->text = rest_.substr(j);
          while (!item->text.empty() &&
                 (item->text.back() == '\n' || item->text.back() == '\r'))
            item->text.pop_back();
          rest_.clear();
          return true;
        }
        started = true;
        item->line = lineno_;
        i = j;
      }
      size_t end = Scan(rest_, i);
      if (end != std::string::npos) {
        item->text.append(rest_, i, end + 1 - i);
        // What follows on the line: a COPY's data starts on the next line.
        std::string tail = rest_.substr(end + 1);
        if (tail.find_first_not_of(" \t\r\n") == std::string::npos)
          tail.clear();
        rest_ = std::move(tail);
        item->kind = Kind::kStatement;
        return true;
      }
      item->text.append(rest_, i, std::string::npos);
      rest_.clear();
    }
    if (started &&
        item->text.find_first_not_of(" \t\r\n") != std::string::npos) {
      item->kind = Kind::kStatement;  // the last statement lacks its ';'
      return true;
    }
    return false;
  }

  // COPY FROM stdin data: whole lines, up to about `limit` bytes, into
  // *out. *done once the "\." line (or the end of the input) is reached.
  void ReadCopy(std::string* out, size_t limit, bool* done, int64_t* rows) {
    out->clear();
    *done = false;
    std::string line;
    while (out->size() < limit) {
      if (!ReadLine(&line)) {
        *done = true;
        return;
      }
      if (IsEndOfData(line)) {
        *done = true;
        return;
      }
      out->append(line);
      ++*rows;
    }
  }

  void SkipCopy() {
    std::string line;
    while (ReadLine(&line))
      if (IsEndOfData(line)) return;
  }

  uint64_t bytes() const { return bytes_; }
  int64_t line() const { return lineno_; }

 private:
  enum class State { kNormal, kQuote, kEQuote, kIdent, kDollar, kBlock };

  static bool IsEndOfData(const std::string& line) {
    return line == "\\.\n" || line == "\\.\r\n" || line == "\\.";
  }

  bool ReadLine(std::string* out) {
    ssize_t n = getline(&line_, &cap_, in_);
    if (n < 0) return false;
    out->assign(line_, static_cast<size_t>(n));
    bytes_ += static_cast<uint64_t>(n);
    lineno_++;
    return true;
  }

  static bool IdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           (static_cast<unsigned char>(c) & 0x80);
  }

  // Scans s from i, carrying the lexical state across lines; returns the
  // position of the ';' that ends the statement, npos when it goes on.
  size_t Scan(const std::string& s, size_t i) {
    for (; i < s.size(); i++) {
      char c = s[i];
      switch (state_) {
        case State::kNormal:
          if (c == '\'') {
            bool e = i > 0 && (s[i - 1] == 'E' || s[i - 1] == 'e') &&
                     (i < 2 || !IdentChar(s[i - 2]));
            state_ = e ? State::kEQuote : State::kQuote;
          } else if (c == '"') {
            state_ = State::kIdent;
          } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
            return std::string::npos;  // a comment to the end of the line
          } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            state_ = State::kBlock;
            depth_ = 1;
            i++;
          } else if (c == '$' && (i == 0 || !IdentChar(s[i - 1]))) {
            size_t j = i + 1;
            if (j < s.size() &&
                !std::isdigit(static_cast<unsigned char>(s[j]))) {
              while (j < s.size() && IdentChar(s[j])) j++;
              if (j < s.size() && s[j] == '$') {
                tag_ = s.substr(i, j + 1 - i);
                state_ = State::kDollar;
                i = j;
              }
            }
          } else if (c == '(') {
            parens_++;
          } else if (c == ')') {
            if (parens_ > 0) parens_--;
          } else if (c == ';' && parens_ == 0) {
            return i;
          }
          break;
        case State::kQuote:
          if (c == '\'') state_ = State::kNormal;  // '' reopens next char
          break;
        case State::kEQuote:
          if (c == '\\')
            i++;
          else if (c == '\'')
            state_ = State::kNormal;
          break;
        case State::kIdent:
          if (c == '"') state_ = State::kNormal;
          break;
        case State::kDollar:
          if (c == '$' && s.compare(i, tag_.size(), tag_) == 0) {
            i += tag_.size() - 1;
            state_ = State::kNormal;
          }
          break;
        case State::kBlock:
          if (c == '*' && i + 1 < s.size() && s[i + 1] == '/') {
            i++;
            if (--depth_ == 0) state_ = State::kNormal;
          } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            i++;
            depth_++;
          }
          break;
      }
    }
    return std::string::npos;
  }

  std::FILE* in_;
  char* line_ = nullptr;
  size_t cap_ = 0;
  std::string rest_;
  uint64_t bytes_ = 0;
  int64_t lineno_ = 0;
  State state_ = State::kNormal;
  int depth_ = 0;
  int parens_ = 0;
  std::string tag_;
};

// ---- progress and summary
// -------------------------------------------------------

struct Stats {
  int64_t statements = 0;
  int64_t tables = 0;
  int64_t rows = 0;
  int64_t counters = 0;  // setval calls and identity/nextval links
  int64_t failed = 0;
  int64_t copy_rows = 0;  // rows of the COPY running now (progress)
  // Failed statements: message -> how many, first line.
  std::map<std::string, std::pair<int64_t, int64_t>> errors;
};

class Progress {
 public:
  static std::string Size(uint64_t bytes) {
    char buf[32];
    if (bytes < 10 * 1024)
      std::snprintf(buf, sizeof buf, "%llu B",
                    static_cast<unsigned long long>(bytes));
    else if (bytes < 10 * 1048576)
      std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1024.0);
    else
      std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1048576.0);
    return buf;
  }
  Progress(uint64_t total) : total_(total), tty_(isatty(2)) {}
  void Update(const DumpReader& r, const Stats& s, bool force = false) {
    if (!tty_) return;
    auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    char buf[256];
    if (total_ > 0) {
      std::snprintf(
          buf, sizeof buf,
          "\rkova restore: %s of %s (%d%%), %lld tables, %lld rows   ",
          Size(r.bytes()).c_str(), Size(total_).c_str(),
          static_cast<int>(100.0 * static_cast<double>(r.bytes()) /
                           static_cast<double>(total_)),
          static_cast<long long>(s.tables),
          static_cast<long long>(s.rows + s.copy_rows));
    } else {
      std::snprintf(buf, sizeof buf,
                    "\rkova restore: %s, %lld tables, %lld rows   ",
                    Size(r.bytes()).c_str(), static_cast<long long>(s.tables),
                    static_cast<long long>(s.rows + s.copy_rows));
    }
    std::fputs(buf, stderr);
    shown_ = true;
  }
  void Done() {
    if (shown_) std::fputs("\n", stderr);
  }

 private:
  uint64_t total_;
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// ---- running statements in process
// --------------------------------------------

// Serves a COPY FROM stdin from the dump; the other outputs are dropped
// (a dump's SELECTs are setval calls).
class RestoreSink : public planner::ResultSink {
 public:
  RestoreSink(DumpReader* reader, Stats* stats, Progress* progress)
      : reader_(reader), stats_(stats), progress_(progress) {}

  void Reset() {
    copy_started_ = false;
    copy_done_ = false;
  }
  bool copy_started() const { return copy_started_; }
  bool copy_done() const { return copy_done_; }

  void RowDescription(const std::vector<ColumnDesc>&,
                      const std::vector<Format>&) override {}
  void DataRow(const std::vector<Datum>&) override {}
  void Notice(const PgError& notice) override {
    if (notice.severity == "WARNING")
      std::cerr << "kova restore: WARNING: " << notice.message << "\n";
  }
  void BeginCopyIn(Format, int) override { copy_started_ = true; }
  CopyRead ReadCopyData(std::string* data) override {
    if (copy_done_) return CopyRead::kDone;
    reader_->ReadCopy(data, 1 << 20, &copy_done_, &stats_->copy_rows);
    progress_->Update(*reader_, *stats_);
    if (data->empty() && copy_done_) return CopyRead::kDone;
    return CopyRead::kData;
  }
  bool DeallocatePrepared(std::string_view) override { return true; }
  void DeallocateAllPrepared() override {}
  void BeginCopyOut(Format, int) override {}
  void CopyOutData(std::string_view) override {}
  void EndCopyOut() override {}

 private:
  DumpReader* reader_;
  Stats* stats_;
  Progress* progress_;
  bool copy_started_ = false;
  bool copy_done_ = false;
};

bool StartsWithWord(const std::string& s, const char* word) {
  size_t n = std::strlen(word);
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; i++)
    if (std::toupper(static_cast<unsigned char>(s[i])) != word[i]) return false;
  return s.size() == n || !std::isalnum(static_cast<unsigned char>(s[n]));
}

// COPY ... FROM stdin: the data block follows the statement in the dump.
bool IsCopyFromStdin(const std::string& stmt) {
  if (!StartsWithWord(stmt, "COPY")) return false;
  std::string upper;
  for (char c : stmt)
    upper.push_back(std::toupper(static_cast<unsigned char>(c)));
  return upper.find("FROM STDIN") != std::string::npos;
}

std::string FirstLine(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  if (line.size() > 100) line = line.substr(0, 100) + "...";
  return line;
}

// The pg_restore binary for archives.
std::string FindPgRestore() {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string candidate = p.substr(start, end - start) + "/pg_restore";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  const char* fallback = "/usr/lib/postgresql/15/bin/pg_restore";
  return access(fallback, X_OK) == 0 ? fallback : "";
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out.push_back(c);
  }
  return out + "'";
}

// Whether FILE is a pg_dump archive (custom, directory or tar) rather than
// plain SQL.
bool IsArchive(const std::string& file) {
  struct stat st;
  if (stat(file.c_str(), &st) != 0) return false;
  if (S_ISDIR(st.st_mode)) return true;
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return false;
  char head[512] = {};
  size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  if (n >= 5 && std::memcmp(head, "PGDMP", 5) == 0) return true;
  return n >= 262 && std::memcmp(head + 257, "ustar", 5) == 0;
}

}  // namespace

int Restore(int argc, char** argv) {
  const char* env = std::getenv("KOVA_DATA");
  std::string data = env && *env ? env : "kova-data";
  std::string db, file, on_error = "stop";
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    bool ok = true;
    if (a == "--data" || a == "-D")
      ok = value(&data);
    else if (a.rfind("--data=", 0) == 0)
      data = a.substr(7);
    else if (a == "--db" || a == "-d")
      ok = value(&db);
    else if (a.rfind("--db=", 0) == 0)
      db = a.substr(5);
    else if (a == "--on-error")
      ok = value(&on_error);
    else if (a.rfind("--on-error=", 0) == 0)
      on_error = a.substr(11);
    else if (a == "--help" || a == "-h") {
      std::cout << kRestoreUsage;
      return 0;
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << "kova restore: unknown option " << a << "\n"
                << kRestoreUsage;
      return 2;
    } else if (file.empty())
      file = a;
    else
      ok = false;
    if (!ok) {
      std::cerr << kRestoreUsage;
      return 2;
    }
  }
  if (db.empty() || file.empty() ||
      (on_error != "stop" && on_error != "continue")) {
    std::cerr << kRestoreUsage;
    return 2;
  }
  bool stop = on_error == "stop";

  // The input: the file, standard input, or pg_restore's SQL output.
  std::FILE* in = nullptr;
  bool piped = false;
  uint64_t total = 0;
  if (file == "-") {
    in = stdin;
  } else if (IsArchive(file)) {
    std::string pg_restore = FindPgRestore();
    if (pg_restore.empty()) {
      std::cerr << "kova restore: " << file
                << " is a pg_dump archive and pg_restore was not found\n";
      return 2;
    }
    std::string cmd = ShellQuote(pg_restore) + " -f - " + ShellQuote(file);
    in = popen(cmd.c_str(), "r");
    piped = true;
  } else {
    in = std::fopen(file.c_str(), "rb");
    struct stat st;
    if (in && fstat(fileno(in), &st) == 0) total = st.st_size;
  }
  if (!in) {
    std::cerr << "kova restore: cannot open " << file << ": "
              << std::strerror(errno) << "\n";
    return 2;
  }

  std::unique_ptr<docstore::Store> store;
  docstore::Status st =
      docstore::Store::Open(data, docstore::StoreOptions{}, &store);
  if (!st.ok()) {
    std::cerr << "kova restore: " << st.message() << "\n";
    return 3;
  }
  planner::EngineOptions options;
  options.settings.emplace_back("synchronous_commit", "off");
  std::unique_ptr<planner::Engine> engine =
      planner::Engine::Create(store.get(), options);
  auto open_session = [&](const std::string& name,
                          std::unique_ptr<planner::Session>* out) {
    PgError error;
    if (!engine->NewSession({{"user", "postgres"}, {"database", name}}, out,
                            &error)) {
      std::cerr << "kova restore: " << error.message << "\n";
      return false;
    }
    return true;
  };
  std::unique_ptr<planner::Session> session;
  bool created = false;
  if (!engine->DatabaseExists(db)) {
    if (!open_session("postgres", &session)) return 3;
    std::string quoted = "\"";
    for (char c : db)
      quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    quoted += "\"";
    class Null : public planner::ResultSink {
     public:
      void RowDescription(const std::vector<ColumnDesc>&,
                          const std::vector<Format>&) override {}
      void DataRow(const std::vector<Datum>&) override {}
      void Notice(const PgError&) override {}
      void BeginCopyIn(Format, int) override {}
      CopyRead ReadCopyData(std::string*) override { return CopyRead::kFail; }
      bool DeallocatePrepared(std::string_view) override { return true; }
      void DeallocateAllPrepared() override {}
      void BeginCopyOut(Format, int) override {}
      void CopyOutData(std::string_view) override {}
      void EndCopyOut() override {}
    } null;
    bool ok = true;
    session->SimpleQuery(
        "CREATE DATABASE " + quoted, &null, [&](const ExecuteResult& r) {
          if (!r.ok) {
            std::cerr << "kova restore: " << r.error.message << "\n";
            ok = false;
          }
        });
    session->Terminate();
    if (!ok) return 3;
    created = true;
  }
  if (!open_session(db, &session)) return 3;

  auto started = std::chrono::steady_clock::now();
  DumpReader reader(in);
  Stats stats;
  Progress progress(total);
  RestoreSink sink(&reader, &stats, &progress);
  std::string current_db = db;
  DumpReader::Item item;
  bool stopped = false;
  auto fail = [&](const std::string& message, const std::string& text,
                  int64_t line) {
    stats.failed++;
    auto& e = stats.errors[message];
    if (e.first++ == 0) e.second = line;
    progress.Done();
    std::cerr << "kova restore: " << (piped ? "" : file + ":") << line
              << ": ERROR:  " << message << "\n    in: " << FirstLine(text)
              << "\n";
    if (stop) stopped = true;
  };
  while (!stopped && reader.Next(&item)) {
    if (item.kind == DumpReader::Kind::kMeta) {
      std::string cmd = item.text.substr(1, item.text.find_first_of(" \t") - 1);
      if (cmd == "restrict" || cmd == "unrestrict") continue;
      if (cmd == "connect" || cmd == "c") {
        std::string target =
            item.text.substr(item.text.find_first_of(" \t") + 1);
        target = target.substr(0, target.find_first_of(" \t"));
        if (target.size() >= 2 && target.front() == '"')
          target = target.substr(1, target.size() - 2);
        if (target == "-" || target == current_db) continue;
        session->Terminate();
        if (!open_session(target, &session)) {
          fail("could not connect to database \"" + target + "\"", item.text,
               item.line);
          continue;
        }
        current_db = target;
        continue;
      }
      fail("psql meta-command \\" + cmd + " is not supported by kova restore",
           item.text, item.line);
      continue;
    }
    stats.statements++;
    sink.Reset();
    stats.copy_rows = 0;
    bool copy = IsCopyFromStdin(item.text);
    session->SimpleQuery(item.text, &sink, [&](const ExecuteResult& r) {
      if (!r.ok) {
        std::string m = r.error.sqlstate + ": " + r.error.message;
        fail(m, item.text, item.line);
        return;
      }
      const std::string& tag = r.command_tag;
      auto count = [&]() {
        size_t sp = tag.rfind(' ');
        return sp == std::string::npos ? 0 : std::atoll(tag.c_str() + sp + 1);
      };
      if (tag == "CREATE TABLE") stats.tables++;
      if (tag.rfind("COPY ", 0) == 0 || tag.rfind("INSERT ", 0) == 0)
        stats.rows += count();
      if (item.text.find("setval(") != std::string::npos ||
          item.text.find("ADD GENERATED") != std::string::npos)
        stats.counters++;
    });
    // A COPY that failed before or during its data: skip the rest of it.
    if (copy && !sink.copy_done()) reader.SkipCopy();
    stats.copy_rows = 0;
    progress.Update(reader, stats);
  }
  progress.Update(reader, stats, true);
  progress.Done();
  session->Terminate();
  session.reset();
  if (piped) {
    int rc = pclose(in);
    if (rc != 0 && !stopped) {
      std::cerr << "kova restore: pg_restore -f - failed (status " << rc
                << ")\n";
      stats.failed++;
    }
  } else if (in != stdin) {
    std::fclose(in);
  }
  engine.reset();
  store.reset();  // checkpoints: everything is on disk from here
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  std::printf(
      "kova restore: %s database \"%s\" from %s in %.1f s: %lld statements, "
      "%lld tables, %lld rows, %lld counters set, %lld failed%s\n",
      created ? "created" : "restored into", db.c_str(), file.c_str(), secs,
      static_cast<long long>(stats.statements),
      static_cast<long long>(stats.tables), static_cast<long long>(stats.rows),
      static_cast<long long>(stats.counters),
      static_cast<long long>(stats.failed),
      stopped ? " (stopped at the first error: --on-error stop)" : "");
  if (!stats.errors.empty()) {
    std::printf("skipped (failed statements, by error):\n");
    for (const auto& [message, e] : stats.errors)
      std::printf("  %lldx %s (first at line %lld)\n",
                  static_cast<long long>(e.first), message.c_str(),
                  static_cast<long long>(e.second));
  }
  return stats.failed ? 1 : 0;
}

}  // namespace kova::cli
