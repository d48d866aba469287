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

#include <libpq-fe.h>
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
  kova restore [--data DIR | --host H --port P [--user U]] --db NAME
               [--on-error stop|continue] FILE|-
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
      with psql or pg_restore instead, or with --host/--port).
      --host/--port (and --user, default $PGUSER or postgres): send the
      statements and COPY data to a running server (kova serve or
      PostgreSQL) over libpq instead.
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
    // Each line straight from getline's buffer into *out (a COPY block is
    // most of a dump).
    std::string_view line;
    while (out->size() < limit) {
      if (!ReadLineView(&line) || IsEndOfData(line)) {
        *done = true;
        return;
      }
      out->append(line);
      ++*rows;
    }
  }

  void SkipCopy() {
    std::string_view line;
    while (ReadLineView(&line))
      if (IsEndOfData(line)) return;
  }

  uint64_t bytes() const { return bytes_; }
  int64_t line() const { return lineno_; }

 private:
  enum class State { kNormal, kQuote, kEQuote, kIdent, kDollar, kBlock };

  static bool IsEndOfData(std::string_view line) {
    return line == "\\.\n" || line == "\\.\r\n" || line == "\\.";
  }

  // The next line, valid until the next read.
  bool ReadLineView(std::string_view* out) {
    ssize_t n = getline(&line_, &cap_, in_);
    if (n < 0) return false;
    *out = std::string_view(line_, static_cast<size_t>(n));
    bytes_ += static_cast<uint64_t>(n);
    lineno_++;
    return true;
  }

  bool ReadLine(std::string* out) {
    std::string_view line;
    if (!ReadLineView(&line)) return false;
    out->assign(line);
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

// The COPY data of the statement being run, read from the dump.
class CopyFeed {
 public:
  CopyFeed(DumpReader* reader, Stats* stats, Progress* progress)
      : reader_(reader), stats_(stats), progress_(progress) {}
  void Reset() { done_ = false; }
  bool done() const { return done_; }
  // The next chunk of whole lines; false once the data has ended.
  bool Next(std::string* data) {
    if (done_) return false;
    reader_->ReadCopy(data, 1 << 20, &done_, &stats_->copy_rows);
    progress_->Update(*reader_, *stats_);
    return !data->empty() || !done_;
  }

 private:
  DumpReader* reader_;
  Stats* stats_;
  Progress* progress_;
  bool done_ = false;
};

// Where the statements go: the planner in this process, or a server.
class Target {
 public:
  struct Result {
    bool ok = true;
    std::string sqlstate, message, tag;
  };
  virtual ~Target() = default;
  virtual bool Connect(const std::string& db, std::string* error) = 0;
  virtual bool CreateDatabase(const std::string& db, std::string* error) = 0;
  virtual bool DatabaseExists(const std::string& db) = 0;
  virtual Result Run(const std::string& sql, CopyFeed* copy) = 0;
  virtual void Close() = 0;
};

std::string QuoteIdent(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

class InProcessSink : public planner::ResultSink {
 public:
  explicit InProcessSink(CopyFeed* copy) : copy_(copy) {}
  void RowDescription(const std::vector<ColumnDesc>&,
                      const std::vector<Format>&) override {}
  void DataRow(const std::vector<Datum>&) override {}
  void Notice(const PgError& notice) override {
    if (notice.severity == "WARNING")
      std::cerr << "kova restore: WARNING: " << notice.message << "\n";
  }
  void BeginCopyIn(Format, int) override {}
  CopyRead ReadCopyData(std::string* data) override {
    if (!copy_ || !copy_->Next(data)) return CopyRead::kDone;
    return CopyRead::kData;
  }
  bool DeallocatePrepared(std::string_view) override { return true; }
  void DeallocateAllPrepared() override {}
  void BeginCopyOut(Format, int) override {}
  void CopyOutData(std::string_view) override {}
  void EndCopyOut() override {}

 private:
  CopyFeed* copy_;
};

class InProcessTarget : public Target {
 public:
  explicit InProcessTarget(planner::Engine* engine) : engine_(engine) {}
  bool Connect(const std::string& db, std::string* error) override {
    Close();
    PgError e;
    if (!engine_->NewSession({{"user", "postgres"}, {"database", db}},
                             &session_, &e)) {
      *error = e.message;
      return false;
    }
    return true;
  }
  bool DatabaseExists(const std::string& db) override {
    return engine_->DatabaseExists(db);
  }
  bool CreateDatabase(const std::string& db, std::string* error) override {
    if (!Connect("postgres", error)) return false;
    Result r = Run("CREATE DATABASE " + QuoteIdent(db), nullptr);
    Close();
    *error = r.message;
    return r.ok;
  }
  Result Run(const std::string& sql, CopyFeed* copy) override {
    InProcessSink sink(copy);
    Result out;
    session_->SimpleQuery(sql, &sink, [&](const ExecuteResult& r) {
      if (!r.ok) {
        out.ok = false;
        out.sqlstate = r.error.sqlstate;
        out.message = r.error.message;
      } else {
        out.tag = r.command_tag;
      }
    });
    return out;
  }
  void Close() override {
    if (session_) session_->Terminate();
    session_.reset();
  }

 private:
  planner::Engine* engine_;
  std::unique_ptr<planner::Session> session_;
};

// A client of a server (kova serve or PostgreSQL) through libpq.
class ClientTarget : public Target {
 public:
  ClientTarget(std::string host, std::string port, std::string user)
      : host_(std::move(host)),
        port_(std::move(port)),
        user_(std::move(user)) {}
  ~ClientTarget() override { Close(); }
  bool Connect(const std::string& db, std::string* error) override {
    Close();
    const char* keys[] = {"host", "port", "user", "dbname", "application_name",
                          nullptr};
    const char* values[] = {host_.c_str(), port_.c_str(),  user_.c_str(),
                            db.c_str(),    "kova restore", nullptr};
    conn_ = PQconnectdbParams(keys, values, 0);
    if (PQstatus(conn_) != CONNECTION_OK) {
      *error = PQerrorMessage(conn_);
      while (!error->empty() && error->back() == '\n') error->pop_back();
      Close();
      return false;
    }
    PQsetNoticeProcessor(
        conn_,
        [](void*, const char* message) {
          if (!std::strncmp(message, "WARNING", 7))
            std::cerr << "kova restore: " << message;
        },
        nullptr);
    return true;
  }
  bool DatabaseExists(const std::string& db) override {
    std::string error;
    bool ok = Connect(db, &error);
    Close();
    return ok;
  }
  bool CreateDatabase(const std::string& db, std::string* error) override {
    if (!Connect("postgres", error)) return false;
    Result r = Run("CREATE DATABASE " + QuoteIdent(db), nullptr);
    Close();
    *error = r.message;
    return r.ok;
  }
  Result Run(const std::string& sql, CopyFeed* copy) override {
    Result out;
    PGresult* res = PQexec(conn_, sql.c_str());
    if (PQresultStatus(res) == PGRES_COPY_IN) {
      PQclear(res);
      std::string chunk;
      bool sent = true;
      while (sent && copy && copy->Next(&chunk))
        sent = PQputCopyData(conn_, chunk.data(),
                             static_cast<int>(chunk.size())) == 1;
      PQputCopyEnd(conn_, sent ? nullptr : "kova restore: sending failed");
      res = PQgetResult(conn_);
    }
    Take(res, &out);
    // A statement has one result; drain any other.
    while ((res = PQgetResult(conn_)) != nullptr) PQclear(res);
    return out;
  }
  void Close() override {
    if (conn_) PQfinish(conn_);
    conn_ = nullptr;
  }

 private:
  void Take(PGresult* res, Result* out) {
    ExecStatusType st = PQresultStatus(res);
    if (st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR || !res) {
      out->ok = false;
      const char* state =
          res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
      const char* msg =
          res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
      out->sqlstate = state ? state : "08006";
      out->message = msg ? msg : PQerrorMessage(conn_);
    } else {
      out->tag = PQcmdStatus(res);
    }
    PQclear(res);
  }

  std::string host_, port_, user_;
  PGconn* conn_ = nullptr;
};

}  // namespace

int Restore(int argc, char** argv) {
  const char* env = std::getenv("KOVA_DATA");
  std::string data = env && *env ? env : "kova-data";
  const char* pguser = std::getenv("PGUSER");
  std::string db, file, on_error = "stop", host, port,
                        user = pguser && *pguser ? pguser : "postgres";
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
    else if (a == "--host" || a == "-h")
      ok = value(&host);
    else if (a == "--port" || a == "-p")
      ok = value(&port);
    else if (a == "--user" || a == "-U")
      ok = value(&user);
    else if (a == "--on-error")
      ok = value(&on_error);
    else if (a.rfind("--on-error=", 0) == 0)
      on_error = a.substr(11);
    else if (a == "--help") {
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
  bool client = !host.empty() || !port.empty();

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
  std::unique_ptr<planner::Engine> engine;
  std::unique_ptr<Target> target;
  if (client) {
    target = std::make_unique<ClientTarget>(host.empty() ? "127.0.0.1" : host,
                                            port.empty() ? "5432" : port, user);
  } else {
    docstore::Status st =
        docstore::Store::Open(data, docstore::StoreOptions{}, &store);
    if (!st.ok()) {
      std::cerr << "kova restore: " << st.message() << "\n";
      return 3;
    }
    planner::EngineOptions options;
    // Commits skip their fsync; closing the store syncs everything.
    options.settings.emplace_back("synchronous_commit", "off");
    engine = planner::Engine::Create(store.get(), options);
    target = std::make_unique<InProcessTarget>(engine.get());
  }
  std::string error;
  bool created = false;
  if (!target->DatabaseExists(db)) {
    if (!target->CreateDatabase(db, &error)) {
      std::cerr << "kova restore: " << error << "\n";
      return 3;
    }
    created = true;
  }
  if (!target->Connect(db, &error)) {
    std::cerr << "kova restore: " << error << "\n";
    return 3;
  }

  auto started = std::chrono::steady_clock::now();
  DumpReader reader(in);
  Stats stats;
  Progress progress(total);
  CopyFeed feed(&reader, &stats, &progress);
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
        std::string name = item.text.substr(item.text.find_first_of(" \t") + 1);
        name = name.substr(0, name.find_first_of(" \t"));
        if (name.size() >= 2 && name.front() == '"')
          name = name.substr(1, name.size() - 2);
        if (name == "-" || name == current_db) continue;
        if (!target->Connect(name, &error)) {
          fail("could not connect to database \"" + name + "\": " + error,
               item.text, item.line);
          if (!stopped && !target->Connect(current_db, &error)) stopped = true;
          continue;
        }
        current_db = name;
        continue;
      }
      fail("psql meta-command \\" + cmd + " is not supported by kova restore",
           item.text, item.line);
      continue;
    }
    stats.statements++;
    feed.Reset();
    stats.copy_rows = 0;
    bool copy = IsCopyFromStdin(item.text);
    Target::Result r = target->Run(item.text, copy ? &feed : nullptr);
    if (!r.ok) {
      fail(r.sqlstate + ": " + r.message, item.text, item.line);
    } else {
      const std::string& tag = r.tag;
      size_t sp = tag.rfind(' ');
      long long n =
          sp == std::string::npos ? 0 : std::atoll(tag.c_str() + sp + 1);
      if (tag == "CREATE TABLE") stats.tables++;
      if (tag.rfind("COPY ", 0) == 0 || tag.rfind("INSERT ", 0) == 0)
        stats.rows += n;
      if (item.text.find("setval(") != std::string::npos ||
          item.text.find("ADD GENERATED") != std::string::npos)
        stats.counters++;
    }
    // A COPY that failed before or during its data: skip the rest of it.
    if (copy && !feed.done()) reader.SkipCopy();
    stats.copy_rows = 0;
    progress.Update(reader, stats);
  }
  progress.Update(reader, stats, true);
  progress.Done();
  target->Close();
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
  target.reset();
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
