// Inserts into an autoincrement collection (issue 2): Kova's Session::Insert
// against raw SQLite doing the equivalent writes, in the same run, on the
// same file system, with the same journal mode (WAL) and synchronous (FULL).
//
// Modes:
//   durable  one durable commit per insert; each side does --durable-max
//            inserts or stops after about --durable-seconds, whichever first
//   batched  --batch-size inserts per transaction, --batch-n in all
// In both modes the sides run interleaved, taking turns of a few commits,
// so that they see the same disk: fsync latency on a virtual machine
// drifts by 10x within seconds. Each mode is run --reps times (fresh
// databases each time) and the median rate per side is reported.
//
// Sides (each on a fresh data directory per run, setup not timed):
//   kova     Store::Open with default StoreOptions, CreateCollection
//            bench.orders with autoincrement "id", Session::Insert of
//            {sku: "item-<n>", qty: <n>, price: 9.5} without id (batched:
//            Session::Begin/Commit around the inserts).
//   raw      what Kova's storage does, in plain SQL with columns: table
//            orders(rid INTEGER PRIMARY KEY, oid BLOB NOT NULL, id INTEGER
//            NOT NULL, doc BLOB NOT NULL) with UNIQUE indexes on oid and
//            id, table counters(name TEXT PRIMARY KEY, last INTEGER); per
//            insert SELECT last; INSERT (oid from bson_oid_init, the
//            generator of Kova's _id, or with --random-oid 12 random bytes;
//            id = last + 1; doc = the document as BSON built with libbson);
//            UPDATE counters SET last.
//   minimal  table orders(rid INTEGER PRIMARY KEY, doc BLOB) with rid = the
//            counter value; per insert UPDATE counters SET last = last + 1
//            RETURNING last; INSERT.
// Raw sides use prepared statements reused across inserts, including
// BEGIN IMMEDIATE and COMMIT.
//
// Prints a Markdown section body (parameters, table, goal) on stdout and
// progress on stderr. The data directories are created under --dir and
// removed after each run.
#include <bson/bson.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "docstore/docstore.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace ds = kova::docstore;

// Inserts per turn of a side in durable mode; transactions per turn in
// batched mode (see RunInterleaved).
constexpr int64_t kDurableChunk = 10;
constexpr int64_t kBatchedChunkTxns = 5;

struct Options {
  std::string dir;
  double durable_seconds = 2.0;
  int64_t durable_max = 10000;
  bool random_oid = false;  // raw side: random bytes instead of ObjectIds
  int64_t batch_n = 200000;
  int64_t batch_size = 1000;
  int reps = 3;
  bool skip_durable = false;
  bool skip_batched = false;
  std::vector<std::string> sides = {"kova", "raw", "minimal"};
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "docstore_insert_bench: %s\n", message.c_str());
  std::exit(1);
}

void Check(const ds::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

void CheckSqlite(sqlite3* db, int rc, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    Die(std::string(what) + ": " + sqlite3_errmsg(db));
}

// The document of insert n, built the same way on every side.
void BuildDocument(bson_t* doc, int64_t n) {
  char sku[32];
  int len =
      std::snprintf(sku, sizeof(sku), "item-%lld", static_cast<long long>(n));
  bson_reinit(doc);
  bson_append_utf8(doc, "sku", 3, sku, len);
  bson_append_int32(doc, "qty", 3, static_cast<int32_t>(n));
  bson_append_double(doc, "price", 5, 9.5);
}

// What one timed run of a side did.
struct RunResult {
  int64_t inserts = 0;
  double seconds = 0;
  double rate() const { return seconds > 0 ? inserts / seconds : 0; }
};

std::string PragmaText(sqlite3* db, const char* pragma) {
  sqlite3_stmt* stmt = nullptr;
  CheckSqlite(db, sqlite3_prepare_v2(db, pragma, -1, &stmt, nullptr), pragma);
  std::string value;
  if (sqlite3_step(stmt) == SQLITE_ROW)
    value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  return value;
}

// journal_mode and synchronous of a connection, e.g. "wal/2".
std::string DurabilitySettings(sqlite3* db) {
  return PragmaText(db, "PRAGMA journal_mode") + "/" +
         PragmaText(db, "PRAGMA synchronous");
}

// One contender. Open and Verify are not timed.
class Side {
 public:
  virtual ~Side() = default;
  // Creates the database and the collection or tables in a fresh `dir`.
  virtual void Open(const std::string& dir) = 0;
  // The connection used for the inserts.
  virtual sqlite3* connection() = 0;
  virtual void Begin() = 0;
  virtual void Commit() = 0;
  // One insert; outside Begin/Commit it is one durable commit.
  virtual void Insert(const bson_t* doc) = 0;
  // Checks that `n` inserts took the counter values 1..n.
  virtual void Verify(int64_t n) = 0;
};

// ---- Kova -------------------------------------------------------------

class KovaSide : public Side {
 public:
  void Open(const std::string& dir) override {
    Check(ds::Store::Open(dir, ds::StoreOptions{}, &store_), "Store::Open");
    Check(store_->NewSession(&session_), "NewSession");
    ds::CollectionOptions options;
    options.autoincrement.emplace_back("id", ds::CounterSpec{});
    Check(session_->CreateCollection("bench", "orders", options),
          "CreateCollection");
  }
  sqlite3* connection() override { return session_->connection(); }
  void Begin() override { Check(session_->Begin(), "Begin"); }
  void Commit() override { Check(session_->Commit(), "Commit"); }
  void Insert(const bson_t* doc) override {
    Check(session_->Insert("bench", "orders", doc), "Insert");
  }
  void Verify(int64_t n) override {
    int64_t count = Count();
    int64_t last = CounterLast();
    int64_t max_id = MaxId();
    if (count != n || last != n || max_id != n) {
      Die("kova: " + std::to_string(n) + " inserts but " +
          std::to_string(count) + " documents, counter last " +
          std::to_string(last) + " and max id " + std::to_string(max_id));
    }
  }

 private:
  int64_t Count() {
    bson_t filter = BSON_INITIALIZER;
    bson_t projection = BSON_INITIALIZER;
    BSON_APPEND_INT32(&projection, "id", 1);
    ds::FindOptions options;
    options.projection = &projection;
    std::vector<ds::Document> rows;
    Check(session_->Find("bench", "orders", &filter, options, &rows),
          "find all");
    bson_destroy(&filter);
    bson_destroy(&projection);
    return static_cast<int64_t>(rows.size());
  }
  int64_t CounterLast() {
    bson_t filter = BSON_INITIALIZER;
    BSON_APPEND_UTF8(&filter, "_id", "bench.orders.id");
    std::vector<ds::Document> rows;
    Check(session_->Find(ds::kAdminDb, ds::kCountersCollection, &filter, {},
                         &rows),
          "find counter");
    bson_destroy(&filter);
    if (rows.size() != 1) Die("kova: counter row bench.orders.id not found");
    bson_iter_t it;
    if (!bson_iter_init_find(&it, rows[0].bson(), "last"))
      Die("kova: counter row has no last");
    return bson_iter_as_int64(&it);
  }
  int64_t MaxId() {
    bson_t filter = BSON_INITIALIZER;
    bson_t sort = BSON_INITIALIZER;
    BSON_APPEND_INT32(&sort, "id", -1);
    ds::FindOptions options;
    options.sort = &sort;
    options.limit = 1;
    std::vector<ds::Document> rows;
    Check(session_->Find("bench", "orders", &filter, options, &rows),
          "find max id");
    bson_destroy(&filter);
    bson_destroy(&sort);
    if (rows.empty()) return 0;
    bson_iter_t it;
    if (!bson_iter_init_find(&it, rows[0].bson(), "id"))
      Die("kova: stored document has no id");
    return bson_iter_as_int64(&it);
  }

  std::unique_ptr<ds::Store> store_;
  std::unique_ptr<ds::Session> session_;
};

// ---- raw SQLite -------------------------------------------------------

// A connection with prepared statements, BEGIN IMMEDIATE and COMMIT
// included; Insert runs the subclass's DoInsert in its own transaction
// unless one is open.
class RawSide : public Side {
 public:
  ~RawSide() override {
    for (sqlite3_stmt* stmt : statements_) sqlite3_finalize(stmt);
    sqlite3_close_v2(db_);
  }
  void Open(const std::string& dir) override {
    std::filesystem::create_directories(dir);
    std::string file = dir + "/raw.db";
    int rc = sqlite3_open_v2(
        file.c_str(), &db_,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
        nullptr);
    CheckSqlite(db_, rc, "open");
    Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;");
    CreateSchema();
    begin_ = Prepare("BEGIN IMMEDIATE");
    commit_ = Prepare("COMMIT");
  }
  sqlite3* connection() override { return db_; }
  void Begin() override {
    Run(begin_);
    in_txn_ = true;
  }
  void Commit() override {
    Run(commit_);
    in_txn_ = false;
  }
  void Insert(const bson_t* doc) override {
    if (in_txn_) return DoInsert(doc);
    Run(begin_);
    DoInsert(doc);
    Run(commit_);
  }

 protected:
  virtual void CreateSchema() = 0;
  virtual void DoInsert(const bson_t* doc) = 0;

  void Exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK)
      Die(std::string(sql) + ": " + (err ? err : "?"));
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    CheckSqlite(db_,
                sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                   &stmt, nullptr),
                sql);
    statements_.push_back(stmt);
    return stmt;
  }
  // Steps a statement that returns no row.
  void Run(sqlite3_stmt* stmt) {
    int rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE) CheckSqlite(db_, rc, sqlite3_sql(stmt));
    sqlite3_reset(stmt);
  }
  int64_t QueryInt(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    CheckSqlite(db_, sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr), sql);
    int64_t value = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW) value = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return value;
  }
  void VerifyCounts(const char* name, int64_t n, const char* max_sql) {
    int64_t count = QueryInt("SELECT count(*) FROM orders");
    int64_t max_id = QueryInt(max_sql);
    int64_t last = QueryInt("SELECT last FROM counters");
    if (count != n || max_id != n || last != n) {
      Die(std::string(name) + ": " + std::to_string(n) + " inserts but " +
          std::to_string(count) + " rows, max id " + std::to_string(max_id) +
          ", counter last " + std::to_string(last));
    }
  }

  static constexpr char kCounterName[] = "bench.orders.id";
  sqlite3* db_ = nullptr;

 private:
  std::vector<sqlite3_stmt*> statements_;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
  bool in_txn_ = false;
};

// What Kova's storage does, with columns for the _id and the counter field.
class RawEquivalentSide : public RawSide {
 public:
  explicit RawEquivalentSide(bool random_oid) : random_oid_(random_oid) {}
  void Verify(int64_t n) override {
    VerifyCounts("raw", n, "SELECT max(id) FROM orders");
  }

 protected:
  void CreateSchema() override {
    Exec(
        "CREATE TABLE orders(rid INTEGER PRIMARY KEY, oid BLOB NOT NULL, "
        "id INTEGER NOT NULL, doc BLOB NOT NULL);"
        "CREATE UNIQUE INDEX orders_oid ON orders(oid);"
        "CREATE UNIQUE INDEX orders_id ON orders(id);"
        "CREATE TABLE counters(name TEXT PRIMARY KEY, last INTEGER);"
        "INSERT INTO counters VALUES('bench.orders.id', 0);");
    select_ = Prepare("SELECT last FROM counters WHERE name=?1");
    insert_ = Prepare("INSERT INTO orders(oid, id, doc) VALUES(?1, ?2, ?3)");
    update_ = Prepare("UPDATE counters SET last=?1 WHERE name=?2");
  }
  void DoInsert(const bson_t* doc) override {
    sqlite3_bind_text(select_, 1, kCounterName, sizeof(kCounterName) - 1,
                      SQLITE_STATIC);
    if (sqlite3_step(select_) != SQLITE_ROW) Die("raw: counter row missing");
    int64_t next = sqlite3_column_int64(select_, 0) + 1;
    sqlite3_reset(select_);

    bson_oid_t oid;
    if (random_oid_) {
      uint64_t a = rng_(), b = rng_();
      std::memcpy(oid.bytes, &a, 8);
      std::memcpy(oid.bytes + 8, &b, 4);
    } else {
      bson_oid_init(&oid, nullptr);
    }
    sqlite3_bind_blob(insert_, 1, oid.bytes, sizeof(oid.bytes), SQLITE_STATIC);
    sqlite3_bind_int64(insert_, 2, next);
    sqlite3_bind_blob(insert_, 3, bson_get_data(doc), doc->len, SQLITE_STATIC);
    Run(insert_);

    sqlite3_bind_int64(update_, 1, next);
    sqlite3_bind_text(update_, 2, kCounterName, sizeof(kCounterName) - 1,
                      SQLITE_STATIC);
    Run(update_);
  }

 private:
  bool random_oid_;
  std::mt19937_64 rng_{42};
  sqlite3_stmt* select_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* update_ = nullptr;
};

// The least SQLite can do: the counter value is the rowid.
class RawMinimalSide : public RawSide {
 public:
  void Verify(int64_t n) override {
    VerifyCounts("minimal", n, "SELECT max(rid) FROM orders");
  }

 protected:
  void CreateSchema() override {
    Exec(
        "CREATE TABLE orders(rid INTEGER PRIMARY KEY, doc BLOB NOT NULL);"
        "CREATE TABLE counters(name TEXT PRIMARY KEY, last INTEGER);"
        "INSERT INTO counters VALUES('bench.orders.id', 0);");
    next_value_ =
        Prepare("UPDATE counters SET last=last+1 WHERE name=?1 RETURNING last");
    insert_ = Prepare("INSERT INTO orders(rid, doc) VALUES(?1, ?2)");
  }
  void DoInsert(const bson_t* doc) override {
    sqlite3_bind_text(next_value_, 1, kCounterName, sizeof(kCounterName) - 1,
                      SQLITE_STATIC);
    if (sqlite3_step(next_value_) != SQLITE_ROW)
      Die("minimal: counter row missing");
    int64_t next = sqlite3_column_int64(next_value_, 0);
    int rc = sqlite3_step(next_value_);
    if (rc != SQLITE_DONE) CheckSqlite(db_, rc, "counter update");
    sqlite3_reset(next_value_);

    sqlite3_bind_int64(insert_, 1, next);
    sqlite3_bind_blob(insert_, 2, bson_get_data(doc), doc->len, SQLITE_STATIC);
    Run(insert_);
  }

 private:
  sqlite3_stmt* next_value_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
};

std::unique_ptr<Side> MakeSide(const std::string& name,
                               const Options& options) {
  if (name == "kova") return std::make_unique<KovaSide>();
  if (name == "raw")
    return std::make_unique<RawEquivalentSide>(options.random_oid);
  return std::make_unique<RawMinimalSide>();
}

// A side opened on its own fresh directory, removed again on destruction.
struct OpenSide {
  OpenSide(const Options& options, const std::string& name) : name(name) {
    static int serial = 0;
    dir = options.dir + "/" + name + "-" + std::to_string(serial++);
    std::filesystem::remove_all(dir);
    side = MakeSide(name, options);
    side->Open(dir);
    std::string settings = DurabilitySettings(side->connection());
    if (settings != "wal/2") {
      Die(name + ": journal_mode/synchronous is " + settings +
          ", expected wal/2 (WAL, FULL)");
    }
  }
  ~OpenSide() {
    side.reset();
    std::filesystem::remove_all(dir);
  }
  std::string name;
  std::string dir;
  std::unique_ptr<Side> side;
  RunResult result;
};

// ---- driver -------------------------------------------------------------

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  if (n == 0) return 0;
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

// 12345.6 -> "12,346"
std::string Rate(double v) {
  std::string digits = Fixed(v, 0);
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count && count % 3 == 0) out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    count++;
  }
  return out;
}

std::string Percent(double ratio) { return Fixed(ratio * 100, 0) + "%"; }

struct ModeResult {
  std::string name;
  std::string description;
  std::vector<std::string> sides;
  std::vector<std::vector<RunResult>> runs;  // per side, per rep
  double median(size_t side) const {
    std::vector<double> rates;
    for (const RunResult& r : runs[side]) rates.push_back(r.rate());
    return Median(rates);
  }
};

// Runs the sides interleaved: all are open at once and take turns doing
// `chunk` inserts, each turn timed on its own, so that they see the same
// disk and machine conditions (fsync latency on this kind of machine drifts
// by 10x over seconds). `per_txn` 0: every insert commits on its own; else
// Begin/Commit around each `per_txn` inserts. Stops when every side has
// done `max_inserts` or after `budget` seconds (0: no limit).
ModeResult RunInterleaved(const Options& options, const std::string& name,
                          const std::string& description, int64_t per_txn,
                          int64_t max_inserts, double budget, int64_t chunk) {
  ModeResult mode;
  mode.name = name;
  mode.description = description;
  mode.sides = options.sides;
  mode.runs.resize(options.sides.size());
  const size_t count = options.sides.size();
  for (int rep = 0; rep < options.reps; rep++) {
    std::vector<std::unique_ptr<OpenSide>> sides;
    for (const std::string& side : options.sides)
      sides.push_back(std::make_unique<OpenSide>(options, side));
    bson_t doc = BSON_INITIALIZER;
    Clock::time_point start = Clock::now();
    for (int64_t round = 0;; round++) {
      bool more = false;
      for (size_t k = 0; k < count; k++) {
        // Rotate the order so that no side always goes first.
        OpenSide& s = *sides[(k + round) % count];
        int64_t& n = s.result.inserts;
        int64_t end = std::min(n + chunk, max_inserts);
        if (n >= end) continue;
        Clock::time_point t0 = Clock::now();
        while (n < end) {
          if (per_txn) s.side->Begin();
          int64_t txn_end = per_txn ? std::min(n + per_txn, end) : n + 1;
          while (n < txn_end) {
            BuildDocument(&doc, ++n);
            s.side->Insert(&doc);
          }
          if (per_txn) s.side->Commit();
        }
        s.result.seconds +=
            std::chrono::duration<double>(Clock::now() - t0).count();
        more = more || n < max_inserts;
      }
      double elapsed =
          std::chrono::duration<double>(Clock::now() - start).count();
      if (!more || (budget > 0 && elapsed >= budget)) break;
    }
    bson_destroy(&doc);
    for (size_t i = 0; i < count; i++) {
      const RunResult& r = sides[i]->result;
      sides[i]->side->Verify(r.inserts);
      mode.runs[i].push_back(r);
      std::fprintf(
          stderr, "  %-7s %-7s rep %d: %8lld inserts in %7.3f s = %s/s\n",
          name.c_str(), options.sides[i].c_str(), rep + 1,
          static_cast<long long>(r.inserts), r.seconds, Rate(r.rate()).c_str());
    }
  }
  return mode;
}

size_t SideIndex(const ModeResult& mode, const char* side) {
  for (size_t i = 0; i < mode.sides.size(); i++)
    if (mode.sides[i] == side) return i;
  return mode.sides.size();
}

void PrintReport(const Options& options, const std::vector<ModeResult>& modes) {
  const double kGoal = 0.70;
  std::printf(
      "Parameters: durable mode up to %lld inserts or about %.1f s per side "
      "and run; batched mode %lld inserts in transactions of %lld; the "
      "sides run interleaved (turns of %lld commits durable, %lld "
      "transactions batched); runs per mode: %d, median reported; raw oid: "
      "%s. "
      "SQLite %s, libbson %s.\n\n",
      static_cast<long long>(options.durable_max), options.durable_seconds,
      static_cast<long long>(options.batch_n),
      static_cast<long long>(options.batch_size),
      static_cast<long long>(kDurableChunk),
      static_cast<long long>(kBatchedChunkTxns), options.reps,
      options.random_oid ? "12 random bytes" : "ObjectId (bson_oid_init)",
      sqlite3_libversion(), bson_get_version());
  std::printf(
      "| Mode | Kova inserts/s | Raw SQLite inserts/s | Kova / raw | "
      "Minimal raw inserts/s | Kova / minimal | Goal Kova >= 70%% of raw |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  std::vector<std::string> verdicts;
  for (const ModeResult& mode : modes) {
    size_t kova = SideIndex(mode, "kova");
    size_t raw = SideIndex(mode, "raw");
    size_t minimal = SideIndex(mode, "minimal");
    auto rate = [&](size_t side) {
      return side < mode.sides.size() ? Rate(mode.median(side)) : "-";
    };
    auto ratio = [&](size_t a, size_t b) -> std::string {
      if (a >= mode.sides.size() || b >= mode.sides.size()) return "-";
      return Percent(mode.median(a) / mode.median(b));
    };
    std::string goal = "-";
    if (kova < mode.sides.size() && raw < mode.sides.size()) {
      double r = mode.median(kova) / mode.median(raw);
      goal = r >= kGoal ? "met" : "**not met**";
      verdicts.push_back(mode.name + " " + (r >= kGoal ? "met" : "NOT met") +
                         " (" + Percent(r) + ")");
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n",
                mode.description.c_str(), rate(kova).c_str(), rate(raw).c_str(),
                ratio(kova, raw).c_str(), rate(minimal).c_str(),
                ratio(kova, minimal).c_str(), goal.c_str());
  }
  std::printf("\nGoal (Kova >= 70%% of raw SQLite in both modes): ");
  bool all = !verdicts.empty();
  for (size_t i = 0; i < verdicts.size(); i++) {
    std::printf("%s%s", i ? "; " : "", verdicts[i].c_str());
    if (verdicts[i].find("NOT") != std::string::npos) all = false;
  }
  std::printf(" -> **%s**.\n\n", all ? "met" : "not met");

  std::printf("Individual runs (inserts/s, in run order per side):\n\n");
  for (const ModeResult& mode : modes) {
    for (size_t side = 0; side < mode.sides.size(); side++) {
      std::printf("- %s, %s:", mode.name.c_str(), mode.sides[side].c_str());
      for (size_t i = 0; i < mode.runs[side].size(); i++) {
        const RunResult& r = mode.runs[side][i];
        std::printf("%s %s (%lld in %.2f s)", i ? "," : "",
                    Rate(r.rate()).c_str(), static_cast<long long>(r.inserts),
                    r.seconds);
      }
      std::printf("\n");
    }
  }
}

void Usage() {
  std::fprintf(
      stderr,
      "usage: docstore_insert_bench --dir DIR [--durable-seconds S]\n"
      "         [--durable-max N] [--batch-n N] [--batch-size N] [--reps N]\n"
      "         [--only durable|batched] [--sides kova,raw,minimal]\n"
      "         [--random-oid]\n");
  std::exit(2);
}

Options ParseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage();
      return argv[++i];
    };
    if (arg == "--dir") {
      o.dir = value();
    } else if (arg == "--durable-seconds") {
      o.durable_seconds = std::atof(value().c_str());
    } else if (arg == "--durable-max") {
      o.durable_max = std::atoll(value().c_str());
    } else if (arg == "--batch-n") {
      o.batch_n = std::atoll(value().c_str());
    } else if (arg == "--batch-size") {
      o.batch_size = std::atoll(value().c_str());
    } else if (arg == "--reps") {
      o.reps = std::atoi(value().c_str());
    } else if (arg == "--only") {
      std::string mode = value();
      if (mode == "durable") {
        o.skip_batched = true;
      } else if (mode == "batched") {
        o.skip_durable = true;
      } else {
        Usage();
      }
    } else if (arg == "--random-oid") {
      o.random_oid = true;
    } else if (arg == "--sides") {
      std::string list = value();
      o.sides.clear();
      size_t pos = 0;
      while (pos <= list.size()) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos) comma = list.size();
        std::string side = list.substr(pos, comma - pos);
        if (side != "kova" && side != "raw" && side != "minimal") Usage();
        o.sides.push_back(side);
        pos = comma + 1;
      }
    } else {
      Usage();
    }
  }
  if (o.dir.empty() || o.reps < 1 || o.durable_max < 1 || o.batch_n < 1 ||
      o.batch_size < 1 || o.sides.empty())
    Usage();
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = ParseArgs(argc, argv);
  std::filesystem::create_directories(options.dir);
  std::vector<ModeResult> modes;
  if (!options.skip_durable) {
    std::fprintf(stderr, "durable mode: one commit per insert\n");
    modes.push_back(RunInterleaved(
        options, "durable", "1 insert per durable commit", 0,
        options.durable_max, options.durable_seconds * options.sides.size(),
        kDurableChunk));
  }
  if (!options.skip_batched) {
    std::fprintf(stderr, "batched mode: %lld inserts per transaction\n",
                 static_cast<long long>(options.batch_size));
    modes.push_back(
        RunInterleaved(options, "batched",
                       Rate(static_cast<double>(options.batch_size)) +
                           " inserts per transaction",
                       options.batch_size, options.batch_n, 0,
                       options.batch_size * kBatchedChunkTxns));
  }
  PrintReport(options, modes);
  return 0;
}
