// The planner session: simple and extended query, transaction blocks and
// the statements of this slice (SELECT without tables, SET/SHOW/RESET,
// transaction control, roles, databases, DISCARD, DEALLOCATE, COPY (query)
// TO STDOUT). Every other statement fails with 0A000 naming it.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/types_array.h"

namespace kova::planner {
namespace {

bool IsTransactionExit(const PgQuery__Node* node) {
  if (node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT) return false;
  auto kind = node->transaction_stmt->kind;
  return kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
         kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK ||
         kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO;
}

}  // namespace

SessionImpl::SessionImpl(Engine* engine,
                         std::unique_ptr<docstore::Session> storage,
                         std::string user, std::string database, bool superuser,
                         std::string server_version, int pid)
    : engine_(engine),
      storage_(std::move(storage)),
      user_(std::move(user)),
      database_(std::move(database)),
      superuser_(superuser),
      server_version_(std::move(server_version)),
      pid_(pid),
      settings_(server_version_, user_, superuser) {
  ReportActivity(false, "", 0);
  EngineAddActivity(engine_, pid_, this);
}

SessionImpl::~SessionImpl() {
  EngineRemoveActivity(engine_, pid_);
  Terminate();
  CloseInbox();
  for (auto& [sql, stmt] : statement_cache_) sqlite3_finalize(stmt);
  EngineSessionEnded(engine_, database_);
}

bool SessionImpl::ApplyStartup(
    const std::vector<std::pair<std::string, std::string>>& startup,
    PgError* error) {
  for (const auto& [key, value] : startup) {
    if (key == "user" || key == "database") continue;
    if (key == "replication") {
      *error = Err("0A000", "replication connections are not supported");
      return false;
    }
    if (key == "options") {
      // "-c name=value --name=value", with backslash escaping spaces.
      std::vector<std::string> words;
      std::string word;
      bool escape = false;
      for (char c : value) {
        if (escape) {
          word.push_back(c);
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
          if (!word.empty()) words.push_back(std::move(word));
          word.clear();
        } else {
          word.push_back(c);
        }
      }
      if (!word.empty()) words.push_back(word);
      for (size_t i = 0; i < words.size(); i++) {
        std::string setting;
        if (words[i] == "-c" && i + 1 < words.size()) {
          setting = words[++i];
        } else if (words[i].rfind("-c", 0) == 0 && words[i].size() > 2) {
          setting = words[i].substr(2);
        } else if (words[i].rfind("--", 0) == 0) {
          setting = words[i].substr(2);
        } else {
          *error = Err("42601",
                       "invalid command-line argument for server "
                       "process: " +
                           words[i]);
          return false;
        }
        size_t eq = setting.find('=');
        if (eq == std::string::npos) {
          *error = Err("42601", "-c " + setting + " requires a value");
          return false;
        }
        std::string name = setting.substr(0, eq);
        for (char& c : name)
          if (c == '-') c = '_';
        if (!settings_.SetStartup(name, setting.substr(eq + 1), error))
          return false;
      }
      continue;
    }
    if (!settings_.SetStartup(key, value, error)) return false;
  }
  settings_.TakeChanges();  // startup values go out with ReportedSettings
  return true;
}

std::vector<std::pair<std::string, std::string>>
SessionImpl::ReportedSettings() {
  settings_.TakeChanges();
  return settings_.Reported();
}

std::vector<std::pair<std::string, std::string>>
SessionImpl::TakeReportChanges() {
  return settings_.TakeChanges();
}

char SessionImpl::TransactionStatus() {
  if (!in_block_) return 'I';
  return failed_ ? 'E' : 'T';
}

int64_t SessionImpl::TransactionStartMicros() {
  return (in_block_ || implicit_) ? txn_start_ : statement_start_;
}

// ---- transaction state --------------------------------------------------

void SessionImpl::BeginImplicit() {
  implicit_ = true;
  txn_start_ = NowMicros();
  settings_.OnBegin();
  txn_serial_++;
}

docstore::Status SessionImpl::EnsureStorageTransaction() {
  RefreshReadSnapshot();
  if ((in_block_ || implicit_ || single_statement_) &&
      !storage_->in_transaction()) {
    docstore::Status s = ApplyDurability();
    if (s.ok()) s = storage_->Begin();
    if (s.ok()) {
      txn_wrote_ = false;
      snapshot_statement_ = statement_seq_;
    }
    return s;
  }
  return docstore::Status::OK();
}

// READ COMMITTED: each statement of a block sees the commits made before
// it began, as in PostgreSQL. A block that has only read so far ends its
// storage snapshot at a statement boundary, so a later write never meets
// an outdated snapshot (SQLite cannot upgrade one). Once the block has
// written it holds the write lock, and no other commit can intervene.
void SessionImpl::RefreshReadSnapshot() {
  if (!in_block_ || !storage_->in_transaction() || txn_wrote_ ||
      !savepoints_.empty() || snapshot_statement_ == statement_seq_)
    return;
  // Whatever wrote (DML, DDL, COPY, nextval), SQLite knows.
  if (sqlite3_txn_state(storage_->connection(), nullptr) == SQLITE_TXN_WRITE) {
    txn_wrote_ = true;
    return;
  }
  std::string isolation = settings_.Get("transaction_isolation");
  if (isolation != "read committed" && isolation != "read uncommitted") return;
  if (storage_->Commit().ok()) snapshot_statement_ = -1;
}

// Commits the storage transaction: durable unless synchronous_commit is
// off, except that a transaction that only advanced counters within their
// reservations skips its fsync, as PostgreSQL's nextval-only transactions
// do (docstore/durability.cc).
docstore::Status SessionImpl::CommitStorage() {
  PgError error;
  if (!RunOnCommitActions(&error))
    return docstore::Status::Error(docstore::Code::kBadValue, error.message);
  return storage_->Commit();
}

docstore::Status SessionImpl::ApplyDurability() {
  if (durable_commits_ >= 0 && durability_generation_ == settings_.generation())
    return docstore::Status::OK();
  // synchronous_commit off: commits return before their fsync.
  bool full = settings_.Get("synchronous_commit") != "off";
  if (durable_commits_ != static_cast<int>(full)) {
    docstore::Status s = storage_->SetDurableCommits(full);
    if (!s.ok()) return s;
    durable_commits_ = full;
  }
  durability_generation_ = settings_.generation();
  return docstore::Status::OK();
}

void SessionImpl::DropTransactionCursors() {
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    it = it->second.hold ? std::next(it) : cursors_.erase(it);
  }
}

bool SessionImpl::EndImplicit(bool commit, PgError* error) {
  if (!implicit_) return true;
  implicit_ = false;
  DropTransactionCursors();
  PgError deferred;
  bool checked = !commit || CheckDeferredConstraints(&deferred);
  if (!checked && error) *error = deferred;
  if (commit && checked &&
      (!storage_->in_transaction() || CommitStorage().ok())) {
    settings_.OnCommit();
    TransactionEnded(true);
  } else {
    if (storage_->in_transaction()) storage_->Rollback();
    settings_.OnRollback();
    TransactionEnded(false);
  }
  ReleaseAdvisoryLocks(/*session_level=*/false);
  return checked;
}

void SessionImpl::TransactionEnded(bool commit) {
  EndNotifyTransaction(commit);
  ClearDeferredConstraints();
}

void SessionImpl::OnStatementError() {
  if (in_block_) {
    failed_ = true;
  } else if (implicit_) {
    EndImplicit(false);
  }
}

void SessionImpl::Notice(ResultSink* sink, const char* severity,
                         const char* sqlstate, std::string message,
                         std::string detail) {
  if (suppress_notices_) return;
  static const char* kLevels[] = {"debug5", "debug4",  "debug3",
                                  "debug2", "debug1",  "log",
                                  "notice", "warning", "error"};
  auto rank = [&](std::string level) {
    for (char& c : level) c = static_cast<char>(std::tolower(c));
    if (level == "debug") level = "debug2";
    for (int i = 0; i < 9; i++)
      if (level == kLevels[i]) return i;
    return 6;
  };
  if (rank(severity) < rank(settings_.Get("client_min_messages"))) return;
  PgError n;
  n.severity = severity;
  n.sqlstate = sqlstate;
  n.message = std::move(message);
  n.detail = std::move(detail);
  if (sink) sink->Notice(n);
}

bool SessionImpl::ParseCached(std::string_view text,
                              std::shared_ptr<sql::ParseTree>* tree,
                              PgError* error) {
  std::string key(text);
  auto it = parse_cache_.find(key);
  if (it != parse_cache_.end()) {
    *tree = it->second;
    return true;
  }
  std::unique_ptr<sql::ParseTree> parsed;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse(text, &parsed, &syntax)) {
    *error = Err(syntax.sqlstate.c_str(), syntax.message);
    error->position = syntax.position;
    return false;
  }
  *tree = std::shared_ptr<sql::ParseTree>(std::move(parsed));
  // Small and bounded: long scripts (dumps) are not worth keeping.
  if (text.size() <= 4096) {
    if (parse_cache_.size() >= 64) parse_cache_.clear();
    parse_cache_.emplace(std::move(key), *tree);
  }
  return true;
}

// ---- simple query -------------------------------------------------------

void SessionImpl::SimpleQuery(
    std::string_view text, ResultSink* sink,
    const std::function<void(const ExecuteResult&)>& on_statement_done) {
  // The query's start: statement_timestamp() of its first statement, and
  // pg_stat_activity's query_start.
  statement_start_ = NowMicros();
  ReportActivity(true, text, statement_start_);
  RunSimpleQuery(text, sink, on_statement_done);
  ReportActivity(false, text, 0);
}

void SessionImpl::RunSimpleQuery(
    std::string_view text, ResultSink* sink,
    const std::function<void(const ExecuteResult&)>& on_statement_done) {
  user_types::ScopedSource type_source(this);
  cancel_ = false;
  // A SELECT translated before under the same shape runs without being
  // parsed and analysed again (query_cache.cc).
  QueryShape shape;
  bool shaped = text.size() <= 4096 && ShapeQuery(text, &shape);
  std::shared_ptr<Plan> cached;
  if (shaped && !failed_) cached = CachedSimplePlan(text, shape);
  std::shared_ptr<sql::ParseTree> tree;
  if (!cached) {
    PgError parse_error;
    if (!ParseCached(text, &tree, &parse_error)) {
      if (single_statement_ && storage_->in_transaction() && !in_block_ &&
          !implicit_)
        storage_->Rollback();  // begun by CachedSimplePlan
      single_statement_ = false;
      on_statement_done(Fail(parse_error));
      OnStatementError();
      return;
    }
    if (tree->size() == 0) {
      ExecuteResult r;
      r.empty_query = true;
      on_statement_done(r);
      return;
    }
  }
  size_t count = cached ? 1 : tree->size();
  bool multi = count > 1;
  for (size_t i = 0; i < count; i++) {
    if (i > 0) statement_start_ = NowMicros();
    std::shared_ptr<Plan> plan = cached;
    if (!plan) {
      plan = std::make_shared<Plan>();
      plan->tree = tree;
      plan->node = tree->statement(i).stmt;
      plan->text = std::string(tree->statement_text(i));
      plan->simple = true;
    }
    ExecuteResult r;
    if (failed_ && !IsTransactionExit(plan->node)) {
      r = Fail(Err("25P02",
                   "current transaction is aborted, commands ignored until "
                   "end of transaction block"));
    } else {
      bool transaction_stmt =
          plan->node->node_case == PG_QUERY__NODE__NODE_TRANSACTION_STMT;
      if (multi && !in_block_ && !implicit_ && !transaction_stmt)
        BeginImplicit();
      // A statement of its own outside a block still runs in a storage
      // transaction of its own, so that it is atomic.
      single_statement_ = !in_block_ && !implicit_ && !transaction_stmt;
      PgError error;
      if (!cached && !Analyze(plan, &error)) {
        r = Fail(error);
      } else {
        if (!cached && shaped && !multi && !plan->with_dml)
          RememberSimplePlan(shape, plan);
        PortalImpl portal;
        portal.plan = plan;
        portal.formats.assign(plan->columns.size(), Format::kText);
        r = Run(&portal, 0, sink, /*simple=*/true);
        if (cached && !r.ok)
          r.error.position = SimplePlanPosition(shape, r.error.position);
      }
      if (single_statement_) {
        single_statement_ = false;
        if (storage_->in_transaction() && !in_block_ && !implicit_) {
          PgError deferred;
          if (r.ok && !CheckDeferredConstraints(&deferred)) r = Fail(deferred);
          if (r.ok) {
            docstore::Status c = CommitStorage();
            if (!c.ok()) r = Fail(TableError(c));
          } else {
            storage_->Rollback();
          }
        }
        if (!in_block_ && !implicit_) TransactionEnded(r.ok);
      }
    }
    on_statement_done(r);
    if (!r.ok) {
      OnStatementError();
      break;
    }
  }
  PgError deferred;
  if (implicit_ && !EndImplicit(/*commit=*/true, &deferred))
    on_statement_done(Fail(deferred));
}

// ---- extended query -----------------------------------------------------

bool SessionImpl::Parse(std::string_view text,
                        const std::vector<uint32_t>& param_types,
                        std::unique_ptr<PreparedStatement>* statement,
                        PgError* error) {
  user_types::ScopedSource type_source(this);
  statement_start_ = NowMicros();
  std::shared_ptr<sql::ParseTree> parsed;
  if (!ParseCached(text, &parsed, error)) return false;
  // In a failed block only ROLLBACK, COMMIT and ROLLBACK TO may be prepared
  // (as PostgreSQL's exec_parse_message).
  if (failed_ &&
      (parsed->size() != 1 || !IsTransactionExit(parsed->statement(0).stmt))) {
    *error = Err("25P02",
                 "current transaction is aborted, commands ignored until end "
                 "of transaction block");
    return false;
  }
  if (parsed->size() > 1) {
    *error = Err("42601",
                 "cannot insert multiple commands into a prepared statement");
    return false;
  }
  auto plan = std::make_shared<Plan>();
  plan->text = std::string(text);
  plan->param_types = param_types;
  if (parsed->size() == 1) plan->node = parsed->statement(0).stmt;
  plan->tree = std::move(parsed);
  if (!Analyze(plan, error)) return false;
  *statement = std::make_unique<PreparedStatementImpl>(plan);
  return true;
}

bool SessionImpl::Bind(const PreparedStatement& statement,
                       const std::vector<Datum>& params,
                       const std::vector<Format>& param_formats,
                       const std::vector<Format>& result_formats,
                       std::unique_ptr<Portal>* portal, PgError* error) {
  user_types::ScopedSource type_source(this);
  const auto& stmt = static_cast<const PreparedStatementImpl&>(statement);
  const Plan& plan = *stmt.plan();
  if (failed_ && (!plan.node || !IsTransactionExit(plan.node))) {
    *error = Err("25P02",
                 "current transaction is aborted, commands ignored until end "
                 "of transaction block");
    return false;
  }
  if (params.size() != plan.param_types.size()) {
    *error =
        Err("08P01", "bind message supplies " + std::to_string(params.size()) +
                         " parameters, but prepared statement requires " +
                         std::to_string(plan.param_types.size()));
    return false;
  }
  if (param_formats.size() > 1 && param_formats.size() != params.size()) {
    *error = Err("08P01", "bind message has " +
                              std::to_string(param_formats.size()) +
                              " parameter formats but " +
                              std::to_string(params.size()) + " parameters");
    return false;
  }
  size_t ncols = plan.columns.size();
  if (result_formats.size() > 1 && result_formats.size() != ncols) {
    *error = Err("08P01", "bind message has " +
                              std::to_string(result_formats.size()) +
                              " result formats but query has " +
                              std::to_string(ncols) + " columns");
    return false;
  }
  auto p = std::make_unique<PortalImpl>();
  p->plan = stmt.plan();
  for (size_t i = 0; i < params.size(); i++) {
    if (params[i].null) {
      p->params.emplace_back(std::nullopt);
      continue;
    }
    Format f = param_formats.empty()       ? Format::kText
               : param_formats.size() == 1 ? param_formats[0]
                                           : param_formats[i];
    std::string canonical;
    uint32_t type = plan.param_types[i];
    bool ok =
        f == Format::kText
            ? types::InputText(type, -1, params[i].bytes,
                               settings_.type_context(), &canonical, error)
            : types::BinaryToText(type, -1, params[i].bytes,
                                  settings_.type_context(), &canonical, error);
    if (!ok) {
      if (f == Format::kBinary && error->sqlstate.empty())
        error->sqlstate = "22P03";
      return false;
    }
    p->params.emplace_back(std::move(canonical));
  }
  for (size_t i = 0; i < ncols; i++) {
    p->formats.push_back(result_formats.empty()       ? Format::kText
                         : result_formats.size() == 1 ? result_formats[0]
                                                      : result_formats[i]);
  }
  *portal = std::move(p);
  return true;
}

ExecuteResult SessionImpl::Execute(Portal* portal, int64_t max_rows,
                                   ResultSink* sink) {
  user_types::ScopedSource type_source(this);
  auto* p = static_cast<PortalImpl*>(portal);
  ReportActivity(true, p->plan->text, NowMicros());
  if (failed_ && (!p->plan->node || !IsTransactionExit(p->plan->node))) {
    return Fail(Err("25P02",
                    "current transaction is aborted, commands ignored until "
                    "end of transaction block"));
  }
  if (!in_block_ && !implicit_ && p->plan->node &&
      p->plan->node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
    BeginImplicit();
  cancel_ = false;
  ExecuteResult r = Run(p, max_rows, sink, /*simple=*/false);
  if (!r.ok) OnStatementError();
  return r;
}

bool SessionImpl::Sync(PgError* error) {
  bool ok = !implicit_ || EndImplicit(/*commit=*/true, error);
  ReportActivity(false, "", 0);
  return ok;
}

void SessionImpl::Cancel() {
  if (!running_) return;
  {
    std::lock_guard<std::mutex> lock(interrupt_mu_);
    cancel_ = true;
    if (!bulk_writing_) sqlite3_interrupt(storage_->connection());
  }
  { std::lock_guard<std::mutex> lock(sleep_mu_); }
  sleep_cv_.notify_all();
}

bool SessionImpl::BeginBulkWrite() {
  std::lock_guard<std::mutex> lock(interrupt_mu_);
  // A cancel that came before took the interrupt path; it is seen here.
  if (cancel_) return false;
  bulk_writing_ = true;
  return true;
}

void SessionImpl::EndBulkWrite() {
  std::lock_guard<std::mutex> lock(interrupt_mu_);
  bulk_writing_ = false;
}

bool SessionImpl::BeginWriteStatement(int64_t started, PgError* error) {
  if (write_statement_depth_ > 0) {
    if (StatementCancelled(error)) return false;
    write_statement_depth_++;
    return true;
  }
  int64_t timeout_ms = CachedStatementTimeoutMs();
  statement_deadline_ = timeout_ms > 0 ? started + timeout_ms * 1000 : 0;
  if (BeginBulkWrite()) {
    write_statement_depth_ = 1;
    return true;
  }
  StatementCancelled(error);
  return false;
}

void SessionImpl::EndWriteStatement() {
  if (--write_statement_depth_ > 0) return;
  WatchScan(false);
  statement_deadline_ = 0;
  EndBulkWrite();
}

bool SessionImpl::StatementCancelled(PgError* error) {
  if (cancel_) {
    *error = Err("57014", "canceling statement due to user request");
    return true;
  }
  if (statement_deadline_ && NowMicros() >= statement_deadline_) {
    *error = Err("57014", "canceling statement due to statement timeout");
    return true;
  }
  return false;
}

// The reading statement's check runs every 4096 virtual machine steps
// (some microseconds).
void SessionImpl::WatchScan(bool on) {
  sqlite3_progress_handler(storage_->connection(), on ? 4096 : 0,
                           on ? &SessionImpl::ScanProgress : nullptr, this);
}

bool SessionImpl::StopRequested() const {
  return cancel_ || (statement_deadline_ && NowMicros() >= statement_deadline_);
}

bool SessionImpl::StopRequestedHook(void* session) {
  return static_cast<SessionImpl*>(session)->StopRequested();
}

ExecuteResult SessionImpl::RunCancellableDdl(
    bool simple, const std::function<ExecuteResult()>& run) {
  PgError error;
  if (!BeginWriteStatement(simple ? statement_start_ : NowMicros(), &error))
    return Fail(error);
  storage_->SetCancelCheck(&SessionImpl::StopRequestedHook, this);
  WatchScan(true);
  ExecuteResult r = run();
  WatchScan(false);
  storage_->SetCancelCheck(nullptr, nullptr);
  if (!r.ok && StatementCancelled(&error)) r = Fail(error);
  EndWriteStatement();
  return r;
}

int SessionImpl::ScanProgress(void* session) {
  auto* s = static_cast<SessionImpl*>(session);
  if (!s->StopRequested()) return 0;
  // Only when the statement being run is the only one, and reads: a
  // statement nested in it (a function's) may write, or may take an
  // interrupted read for a missing row.
  sqlite3* db = s->storage_->connection();
  int busy = 0;
  bool read_only = true;
  for (sqlite3_stmt* st = sqlite3_next_stmt(db, nullptr); st;
       st = sqlite3_next_stmt(db, st)) {
    if (!sqlite3_stmt_busy(st)) continue;
    busy++;
    read_only = read_only && sqlite3_stmt_readonly(st);
  }
  return busy == 1 && read_only ? 1 : 0;
}

int64_t SessionImpl::CachedStatementTimeoutMs() {
  if (statement_timeout_generation_ != settings_.generation()) {
    statement_timeout_ms_ = StatementTimeoutMs();
    statement_timeout_generation_ = settings_.generation();
  }
  return statement_timeout_ms_;
}

bool SessionImpl::RunSelectWithTimeout(PortalImpl* portal, PgError* error) {
  CachedStatementTimeoutMs();
  // No timeout, or one a statement around this one already watches.
  if (statement_timeout_ms_ <= 0 || statement_deadline_ != 0)
    return RunCompiledSelect(portal, error);
  statement_deadline_ = statement_start_ + statement_timeout_ms_ * 1000;
  WatchScan(true);
  bool ok = RunCompiledSelect(portal, error);
  WatchScan(false);
  bool timed_out = !ok && !cancel_ && error->sqlstate == "57014" &&
                   NowMicros() >= statement_deadline_;
  statement_deadline_ = 0;
  if (timed_out)
    error->message = "canceling statement due to statement timeout";
  return ok;
}

void SessionImpl::Terminate() {
  if (in_block_ || implicit_) {
    if (storage_->in_transaction()) storage_->Rollback();
    in_block_ = implicit_ = failed_ = false;
    settings_.OnRollback();
  }
  TransactionEnded(false);
  CloseInbox();  // a closed session listens no more
  ReleaseAdvisoryLocks(/*session_level=*/true);
  DropTempSchema();
}

// ---- hooks --------------------------------------------------------------

bool SessionImpl::GetSetting(const std::string& name, bool missing_ok,
                             Value* value, PgError* error) {
  std::string v;
  if (!settings_.Show(name, &v, error)) {
    if (missing_ok) {
      *value = std::nullopt;
      return true;
    }
    return false;
  }
  *value = v;
  return true;
}

bool SessionImpl::SetSetting(const std::string& name, const Value& value,
                             bool is_local, std::string* result,
                             PgError* error) {
  if (is_local && !in_block_ && !implicit_) {
    // As PostgreSQL: a transaction-local setting outside a transaction has
    // no lasting effect.
    std::string current;
    if (!settings_.Show(name, &current, error)) return false;
    *result = value.value_or(current);
    return true;
  }
  if (!value) {
    if (!settings_.Reset(name, error)) return false;
  } else if (!settings_.Set(name, *value, is_local, error)) {
    return false;
  }
  return settings_.Show(name, result, error);
}

// statement_timeout in milliseconds (0: none), from its SHOW form ("90s").
int64_t SessionImpl::StatementTimeoutMs() {
  return SettingMs("statement_timeout");
}

int64_t SessionImpl::SettingMs(const char* name) {
  std::string v = settings_.Get(name);
  char* end = nullptr;
  double n = std::strtod(v.c_str(), &end);
  std::string unit = end ? end : "";
  if (unit == "s")
    n *= 1000;
  else if (unit == "min")
    n *= 60000;
  else if (unit == "h")
    n *= 3600000;
  else if (unit == "d")
    n *= 86400000;
  return static_cast<int64_t>(n);
}

bool SessionImpl::Sleep(double seconds, PgError* error) {
  std::unique_lock<std::mutex> lock(sleep_mu_);
  auto now = std::chrono::steady_clock::now();
  auto until = now + std::chrono::microseconds(
                         static_cast<int64_t>(std::max(0.0, seconds) * 1e6));
  // The statement's deadline, counted from when it started.
  int64_t timeout_ms = StatementTimeoutMs();
  bool timed = false;
  if (timeout_ms > 0) {
    int64_t elapsed_us = NowMicros() - statement_start_;
    auto deadline = now + std::chrono::microseconds(std::max<int64_t>(
                              0, timeout_ms * 1000 - elapsed_us));
    if (deadline < until) {
      until = deadline;
      timed = true;
    }
  }
  if (sleep_cv_.wait_until(lock, until, [&] { return cancel_.load(); })) {
    *error = Err("57014", "canceling statement due to user request");
    return false;
  }
  if (timed) {
    *error = Err("57014", "canceling statement due to statement timeout");
    return false;
  }
  return true;
}

// ---- analysis -----------------------------------------------------------

// Statements that write take the storage write lock when their
// transaction begins: a read snapshot taken first could be outdated by
// another session's commit before the write, and could then never write.
static bool WritesStorage(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
    case PG_QUERY__NODE__NODE_MERGE_STMT:
    case PG_QUERY__NODE__NODE_CREATE_STMT:
    case PG_QUERY__NODE__NODE_DROP_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
    case PG_QUERY__NODE__NODE_INDEX_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
    case PG_QUERY__NODE__NODE_VIEW_STMT:
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
    case PG_QUERY__NODE__NODE_RENAME_STMT:
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT:
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
    case PG_QUERY__NODE__NODE_GRANT_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT:
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return true;
    case PG_QUERY__NODE__NODE_SELECT_STMT:  // SELECT ... INTO
      return node->select_stmt->into_clause != nullptr;
    case PG_QUERY__NODE__NODE_COPY_STMT:
      return node->copy_stmt->is_from;
    case PG_QUERY__NODE__NODE_LOCK_STMT:  // modes above ACCESS SHARE
      return node->lock_stmt->mode > 1;
    case PG_QUERY__NODE__NODE_REINDEX_STMT:
    case PG_QUERY__NODE__NODE_CLUSTER_STMT:
      return true;
    default:
      return false;
  }
}

// A query that may call nextval/setval (or run a document command) writes
// counters: its transaction takes the write lock from the start too. A
// look at the text is enough (a false match only takes the lock early).
bool CallsWritingFunction(const std::string& text) {
  auto contains = [&](std::string_view word) {
    return std::search(text.begin(), text.end(), word.begin(), word.end(),
                       [](char a, char b) {
                         return std::tolower(static_cast<unsigned char>(a)) ==
                                b;
                       }) != text.end();
  };
  return contains("nextval") || contains("setval") || contains("kova.command");
}

// As CallsWritingFunction, without nextval: it takes no lock in the
// statement's transaction (docstore/leases.cc).
static bool CallsLockingFunction(const std::string& text) {
  auto contains = [&](std::string_view word) {
    return std::search(text.begin(), text.end(), word.begin(), word.end(),
                       [](char a, char b) {
                         return std::tolower(static_cast<unsigned char>(a)) ==
                                b;
                       }) != text.end();
  };
  return contains("setval") || contains("kova.command");
}

bool SessionImpl::Analyze(std::shared_ptr<Plan> plan, PgError* error) {
  if (!plan->node) return true;
  plan->writes = WritesStorage(plan->node) || CallsLockingFunction(plan->text);
  // Known before the catalog is read: a writing statement's transaction
  // takes the write lock from its start.
  statement_writes_ = plan->writes;
  if (!RewriteViewDml(plan.get(), error)) return false;
  const PgQuery__Node* node = plan->node;
  bool with_dml = false;
  if (!AnalyzeWithDml(plan.get(), &with_dml, error)) return false;
  if (with_dml) return true;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      if (node->select_stmt->into_clause)
        return AnalyzeCreateTableAs(plan.get(), error);
      if (IsTableStatement(node)) return AnalyzeTableSelect(plan.get(), error);
      return AnalyzeSelect(plan.get(), error);
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return AnalyzeInsert(plan.get(), error);
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return AnalyzeUpdate(plan.get(), error);
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return AnalyzeDelete(plan.get(), error);
    case PG_QUERY__NODE__NODE_MERGE_STMT:
      return AnalyzeMerge(plan.get(), error);
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return AnalyzeCreateTableAs(plan.get(), error);
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
      return AnalyzePrepare(plan.get(), error);
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
      return AnalyzeExecute(plan.get(), error);
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
    case PG_QUERY__NODE__NODE_REINDEX_STMT:
    case PG_QUERY__NODE__NODE_CLUSTER_STMT:
    case PG_QUERY__NODE__NODE_CREATE_STMT:
    case PG_QUERY__NODE__NODE_DROP_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
    case PG_QUERY__NODE__NODE_INDEX_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
    case PG_QUERY__NODE__NODE_VIEW_STMT:
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
    case PG_QUERY__NODE__NODE_GRANT_STMT:
      return true;
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: {
      std::string name = node->variable_show_stmt->name;
      if (name == "all") {
        plan->columns = {{"name"}, {"setting"}, {"description"}};
      } else {
        std::string value;
        if (name == "transaction isolation level")
          name = "transaction_isolation";
        if (name == "timezone") name = "TimeZone";
        if (!settings_.Show(name, &value, error)) return false;
        std::string canonical = settings_.CanonicalName(name);
        plan->columns = {{canonical.empty() ? name : canonical}};
      }
      for (auto& c : plan->columns) {
        c.type_oid = oid::kText;
        c.type_size = -1;
      }
      return true;
    }
    case PG_QUERY__NODE__NODE_COPY_STMT: {
      // COPY checks its relation and options when it runs (copy.cc).
      return true;
    }
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT: {
      const PgQuery__ExplainStmt* x = node->explain_stmt;
      for (size_t i = 0; i < x->n_options; i++) {
        const PgQuery__DefElem* d = x->options[i]->def_elem;
        std::string value =
            d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING
                ? d->arg->string->sval
                : "";
        if (std::string(d->defname) == "format" && value != "text") {
          *error = Err("0A000",
                       "EXPLAIN (FORMAT " + value + ") is not supported yet");
          return false;
        }
      }
      switch (x->query->node_case) {
        case PG_QUERY__NODE__NODE_SELECT_STMT:
        case PG_QUERY__NODE__NODE_INSERT_STMT:
        case PG_QUERY__NODE__NODE_UPDATE_STMT:
        case PG_QUERY__NODE__NODE_DELETE_STMT:
          break;
        default:
          *error = Err("0A000", std::string("EXPLAIN of ") +
                                    StatementName(x->query) +
                                    " is not supported yet");
          return false;
      }
      auto inner = std::make_shared<Plan>();
      inner->tree = plan->tree;
      inner->node = x->query;
      inner->text = plan->text;
      inner->param_types = plan->param_types;
      inner->simple = plan->simple;
      if (!Analyze(inner, error)) return false;
      if (inner->ctas) {
        *error = Err("0A000", "EXPLAIN of SELECT INTO is not supported yet");
        return false;
      }
      plan->param_types = inner->param_types;
      plan->cursor_query = inner;
      plan->writes = inner->writes;
      statement_writes_ = plan->writes;
      plan->columns = {{"QUERY PLAN"}};
      plan->columns[0].type_oid = oid::kText;
      plan->columns[0].type_size = -1;
      return true;
    }
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT: {
      const PgQuery__DeclareCursorStmt* d = node->declare_cursor_stmt;
      // parsenodes.h's CURSOR_OPT_* bits.
      constexpr int kScroll = 0x0002, kNoScroll = 0x0004, kInsensitive = 0x0008,
                    kAsensitive = 0x0010, kHold = 0x0020;
      if ((d->options & kScroll) && (d->options & kNoScroll)) {
        *error = Err("42P11", "cannot specify both SCROLL and NO SCROLL");
        return false;
      }
      if ((d->options & kAsensitive) && (d->options & kInsensitive)) {
        *error = Err("42P11", "cannot specify both ASENSITIVE and INSENSITIVE");
        return false;
      }
      auto inner = std::make_shared<Plan>();
      inner->tree = plan->tree;
      inner->node = d->query;
      inner->param_types = plan->param_types;
      inner->simple = plan->simple;
      if (d->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
        *error = Err("0A000",
                     "DECLARE CURSOR for this statement is not "
                     "supported yet");
        return false;
      }
      if (IsTableStatement(d->query)) {
        if (!AnalyzeTableSelect(inner.get(), error)) return false;
      } else if (!AnalyzeSelect(inner.get(), error)) {
        return false;
      }
      // Row locks and cursors that outlive or scroll the rows they lock.
      const PgQuery__SelectStmt* q = d->query->select_stmt;
      if (q->n_locking_clause > 0) {
        const char* strength = "FOR UPDATE";
        switch (q->locking_clause[0]->locking_clause->strength) {
          case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE:
            strength = "FOR KEY SHARE";
            break;
          case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE:
            strength = "FOR SHARE";
            break;
          case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE:
            strength = "FOR NO KEY UPDATE";
            break;
          default:
            break;
        }
        const char* kind = (d->options & kHold)          ? "CURSOR WITH HOLD"
                           : (d->options & kScroll)      ? "SCROLL CURSOR"
                           : (d->options & kInsensitive) ? "INSENSITIVE CURSOR"
                                                         : nullptr;
        if (kind) {
          bool insensitive = !(d->options & (kHold | kScroll));
          *error =
              Err(insensitive ? "42P11" : "0A000",
                  std::string("DECLARE ") + kind + " ... " + strength +
                      (insensitive ? " is not valid" : " is not supported"));
          error->detail = (d->options & kHold)
                              ? "Holdable cursors must be READ ONLY."
                          : (d->options & kScroll)
                              ? "Scrollable cursors must be READ ONLY."
                              : "Insensitive cursors must be READ ONLY.";
          return false;
        }
      }
      plan->param_types = inner->param_types;
      plan->cursor_query = inner;
      return true;
    }
    case PG_QUERY__NODE__NODE_FETCH_STMT: {
      const PgQuery__FetchStmt* f = node->fetch_stmt;
      auto it = cursors_.find(f->portalname);
      if (it == cursors_.end()) {
        *error = Err("34000", "cursor \"" + std::string(f->portalname) +
                                  "\" does not exist");
        return false;
      }
      if (!f->ismove) plan->columns = it->second.plan->columns;
      return true;
    }
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return true;
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
      if (IsTypeStatement(node) || IsRelationSetSchema(node)) return true;
      *error = Err("0A000",
                   "ALTER ... SET SCHEMA of this kind of object is not "
                   "supported yet (tables, views, sequences, types and "
                   "domains are)");
      return false;
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT:
      if (IsTypeStatement(node)) return true;
      *error = Err("0A000",
                   std::string(StatementName(node)) + " is not supported yet");
      return false;
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
    case PG_QUERY__NODE__NODE_NOTIFY_STMT:
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
    case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT:
    case PG_QUERY__NODE__NODE_DISCARD_STMT:
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
    case PG_QUERY__NODE__NODE_CREATEDB_STMT:
    case PG_QUERY__NODE__NODE_DROPDB_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT:
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
    case PG_QUERY__NODE__NODE_LOCK_STMT:
      return true;
    default:
      // Refused at Parse, as PostgreSQL refuses what it cannot analyse.
      *error = Err("0A000", NotSupportedMessage(node));
      return false;
  }
}

bool SessionImpl::AnalyzeValues(Plan* plan, PgError* error) {
  const PgQuery__SelectStmt* s = plan->node->select_stmt;
  // Sorted or limited: the query compiler's VALUES does it.
  if (s->n_sort_clause > 0 || s->limit_count || s->limit_offset)
    return AnalyzeTableSelect(plan, error);
  Analyzer analyzer(this, plan->simple ? nullptr : &plan->param_types);
  size_t ncols = 0;
  for (size_t r = 0; r < s->n_values_lists; r++) {
    const PgQuery__List* list = s->values_lists[r]->list;
    if (r == 0) {
      ncols = list->n_items;
    } else if (list->n_items != ncols) {
      *error = Err("42601", "VALUES lists must all be the same length");
      return false;
    }
    std::vector<std::shared_ptr<Expr>> row;
    for (size_t c = 0; c < list->n_items; c++) {
      std::unique_ptr<Expr> e;
      if (!analyzer.Analyze(list->items[c], &e, error)) return false;
      row.push_back(std::shared_ptr<Expr>(std::move(e)));
    }
    plan->values.push_back(std::move(row));
  }
  // Each column's type: the common type of its values (unknown -> text).
  for (size_t c = 0; c < ncols; c++) {
    uint32_t common = oid::kUnknown;
    for (auto& row : plan->values) {
      uint32_t t = row[c]->type;
      if (t == oid::kUnknown || t == common) continue;
      if (common == oid::kUnknown) {
        common = t;
      } else if (types::LookupType(t) && types::LookupType(common) &&
                 types::LookupType(t)->category == 'N' &&
                 types::LookupType(common)->category == 'N') {
        // int2 < int4 < int8 < numeric < float4 < float8, as PostgreSQL's
        // preferred-type resolution for the numeric category.
        auto rank = [](uint32_t x) {
          switch (x) {
            case oid::kInt2:
              return 0;
            case oid::kInt4:
              return 1;
            case oid::kInt8:
              return 2;
            case oid::kNumeric:
              return 3;
            case oid::kFloat4:
              return 4;
            default:
              return 5;
          }
        };
        if (rank(t) > rank(common)) common = t;
      } else {
        *error =
            Err("42804",
                "VALUES types " + types::FormatTypeName(common, -1) + " and " +
                    types::FormatTypeName(t, -1) + " cannot be matched",
                row[c]->location);
        return false;
      }
    }
    if (common == oid::kUnknown) common = oid::kText;
    for (auto& row : plan->values) {
      std::unique_ptr<Expr> e(new Expr(std::move(*row[c])));
      if (!analyzer.Coerce(&e, common, -1, error)) return false;
      if (e->type != common) {
        auto cast = std::make_unique<Expr>();
        cast->kind = Expr::Kind::kCast;
        cast->type = common;
        cast->location = e->location;
        cast->args.push_back(std::move(e));
        e = std::move(cast);
      }
      row[c] = std::shared_ptr<Expr>(std::move(e));
    }
    ColumnDesc col;
    col.name = "column" + std::to_string(c + 1);
    col.type_oid = common;
    const types::TypeInfo* info = types::LookupType(common);
    col.type_size = info ? info->length : -1;
    plan->columns.push_back(col);
  }
  if (!analyzer.CheckParams(error)) return false;
  plan->is_select = true;
  return true;
}

bool SessionImpl::AnalyzeSelect(Plan* plan, PgError* error) {
  const PgQuery__SelectStmt* s = plan->node->select_stmt;
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
    *error = Err("0A000", "UNION, INTERSECT and EXCEPT are not supported yet");
    return false;
  }
  if (s->n_values_lists > 0) return AnalyzeValues(plan, error);
  if (s->into_clause) {
    *error = Err("0A000", "SELECT INTO is not supported yet");
    return false;
  }
  if (s->with_clause) {
    *error = Err("0A000", "WITH is not supported yet");
    return false;
  }
  if (s->n_from_clause > 0) {
    const PgQuery__Node* from = s->from_clause[0];
    if (from->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
      const PgQuery__RangeVar* rv = from->range_var;
      std::string name = rv->schemaname && *rv->schemaname
                             ? std::string(rv->schemaname) + "." + rv->relname
                             : rv->relname;
      *error = Err("42P01", "relation \"" + name + "\" does not exist",
                   rv->location);
      return false;
    }
    *error = Err("0A000", "this FROM clause is not supported yet");
    return false;
  }
  if (s->n_group_clause > 0 || s->having_clause || s->n_window_clause > 0) {
    *error = Err("0A000", "GROUP BY, HAVING and WINDOW are not supported yet");
    return false;
  }
  Analyzer analyzer(this, plan->simple ? nullptr : &plan->param_types);
  for (size_t i = 0; i < s->n_target_list; i++) {
    const PgQuery__ResTarget* t = s->target_list[i]->res_target;
    const PgQuery__Node* val = t->val;
    if (val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
      const PgQuery__ColumnRef* c = val->column_ref;
      if (c->n_fields > 0 && c->fields[c->n_fields - 1]->node_case ==
                                 PG_QUERY__NODE__NODE_A_STAR) {
        *error = Err("42601", "SELECT * with no tables specified is not valid",
                     c->location);
        return false;
      }
    }
    std::unique_ptr<Expr> expr;
    if (!analyzer.Analyze(val, &expr, error)) return false;
    // Unknown literals and parameters in the output list resolve to text.
    if (!analyzer.Coerce(&expr, oid::kText, -1, error)) return false;
    ColumnDesc col;
    col.name = t->name && *t->name ? t->name : Analyzer::ColumnName(val);
    col.type_oid = expr->type;
    // An array of a domain is no domain: clients are told its own type.
    if (types::ArrayElementType(expr->domain)) col.type_oid = expr->domain;
    const types::TypeInfo* info = types::LookupType(expr->type);
    col.type_size = info ? info->length : -1;
    col.type_modifier = expr->typmod;
    plan->columns.push_back(col);
    plan->targets.push_back(std::shared_ptr<Expr>(std::move(expr)));
  }
  if (s->where_clause) {
    std::unique_ptr<Expr> where;
    if (!analyzer.Analyze(s->where_clause, &where, error)) return false;
    if (!analyzer.Coerce(&where, oid::kBool, -1, error)) return false;
    if (where->type != oid::kBool) {
      *error = Err("42804",
                   "argument of WHERE must be type boolean, not type " +
                       types::FormatTypeName(where->type, -1),
                   where->location);
      return false;
    }
    plan->targets.push_back(std::shared_ptr<Expr>(std::move(where)));
  }
  if (s->limit_count || s->limit_offset) {
    *error = Err("0A000", "LIMIT and OFFSET are not supported yet");
    return false;
  }
  if (!analyzer.CheckParams(error)) return false;
  plan->is_select = true;
  return true;
}

// ---- execution ----------------------------------------------------------

bool SessionImpl::EncodeRow(const std::vector<Value>& values,
                            const std::vector<ColumnDesc>& columns,
                            const std::vector<Format>& formats,
                            std::vector<Datum>* out, PgError* error) {
  out->clear();
  for (size_t i = 0; i < columns.size(); i++) {
    if (!values[i]) {
      out->push_back(Datum::Null());
      continue;
    }
    if (formats[i] == Format::kText) {
      out->push_back(Datum::Of(*values[i]));
      continue;
    }
    std::string binary;
    if (!types::TextToBinary(columns[i].type_oid, *values[i],
                             settings_.type_context(), &binary, error))
      return false;
    out->push_back(Datum::Of(std::move(binary)));
  }
  return true;
}

bool SessionImpl::ComputeSelectRows(PortalImpl* portal, PgError* error) {
  const Plan& plan = *portal->plan;
  const PgQuery__Node* node = plan.node;
  std::vector<std::vector<Value>> rows;
  if (node->node_case == PG_QUERY__NODE__NODE_FETCH_STMT) {
    const PgQuery__FetchStmt* f = node->fetch_stmt;
    auto it = cursors_.find(f->portalname);
    if (it == cursors_.end()) {
      *error = Err("34000", "cursor \"" + std::string(f->portalname) +
                                "\" does not exist");
      return false;
    }
    Cursor& c = it->second;
    std::vector<size_t> picked;
    uint64_t fetched;
    if (!CursorFetch(c, f, &picked, &fetched, error)) return false;
    for (size_t i : picked) {
      std::vector<Datum> row = c.rows[i];
      // Re-encode for the requested result formats.
      for (size_t k = 0; k < row.size(); k++) {
        if (!row[k].null && portal->formats[k] == Format::kBinary) {
          std::string binary;
          if (!types::TextToBinary(c.plan->columns[k].type_oid, row[k].bytes,
                                   settings_.type_context(), &binary, error))
            return false;
          row[k].bytes = std::move(binary);
        }
      }
      portal->rows.push_back(std::move(row));
    }
    return true;
  }
  if (node->node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT) {
    std::vector<std::string> lines;
    if (!ExplainRows(plan, portal->params, &lines, error)) return false;
    for (auto& line : lines) rows.push_back({std::move(line)});
  } else if (node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT) {
    std::string name = node->variable_show_stmt->name;
    if (name == "all") {
      for (auto& row : settings_.ShowAll())
        rows.push_back({row[0], row[1], row[2]});
    } else {
      if (name == "transaction isolation level") name = "transaction_isolation";
      std::string value;
      if (!settings_.Show(name, &value, error)) return false;
      rows.push_back({value});
    }
  } else if (plan.compiled) {
    return RunSelectWithTimeout(portal, error);
  } else if (!plan.values.empty()) {
    for (const auto& exprs : plan.values) {
      std::vector<Value> row(exprs.size());
      for (size_t i = 0; i < exprs.size(); i++) {
        if (!Evaluate(*exprs[i], portal->params, this, &row[i], error))
          return false;
      }
      rows.push_back(std::move(row));
    }
  } else {
    size_t ncols = plan.columns.size();
    std::vector<Value> row(ncols);
    for (size_t i = 0; i < ncols; i++) {
      if (!Evaluate(*plan.targets[i], portal->params, this, &row[i], error))
        return false;
    }
    bool keep = true;
    if (plan.targets.size() > ncols) {  // WHERE
      Value cond;
      if (!Evaluate(*plan.targets[ncols], portal->params, this, &cond, error))
        return false;
      keep = cond && *cond == "t";
    }
    if (keep) rows.push_back(std::move(row));
  }
  for (const auto& row : rows) {
    std::vector<Datum> encoded;
    if (!EncodeRow(row, plan.columns, portal->formats, &encoded, error))
      return false;
    portal->rows.push_back(std::move(encoded));
  }
  return true;
}

ExecuteResult SessionImpl::Run(PortalImpl* portal, int64_t max_rows,
                               ResultSink* sink, bool simple) {
  if (run_depth_ == 0) {
    // Left behind by a statement that failed.
    ClearStatementChecks();
  }
  run_depth_++;
  ExecuteResult r = RunPortal(portal, max_rows, sink, simple);
  run_depth_--;
  // Statements that send no rows (COPY FROM, utilities) check here what
  // their row changes queued; DML and SELECT check before their rows go out.
  if (run_depth_ == 0 && !statement_checks_.empty()) {
    PgError error;
    if (r.ok && !CheckStatementConstraints(&error)) {
      r = Fail(error);
      portal->done = true;
      portal->final_result = r;
    }
    ClearStatementChecks();
  }
  return r;
}

ExecuteResult SessionImpl::RunPortal(PortalImpl* portal, int64_t max_rows,
                                     ResultSink* sink, bool simple) {
  // Functions evaluated inside report their notices to this statement.
  struct SinkScope {
    ResultSink** slot;
    ResultSink* saved;
    ~SinkScope() { *slot = saved; }
  } sink_scope{&running_sink_, running_sink_};
  running_sink_ = sink;
  if (portal->plan->with_dml) {
    PgError error;
    if (!RunWithDml(portal, &error)) {
      portal->done = true;
      portal->final_result = Fail(error);
      return portal->final_result;
    }
  }
  const Plan& plan = *portal->plan;
  if (!plan.node) {
    ExecuteResult r;
    r.empty_query = true;
    return r;
  }
  statement_writes_ = plan.writes;
  statement_seq_++;
  struct Running {
    std::atomic<bool>& flag;
    explicit Running(std::atomic<bool>& f) : flag(f) { flag = true; }
    ~Running() { flag = false; }
  } running(running_);

  bool fetch = plan.node->node_case == PG_QUERY__NODE__NODE_FETCH_STMT &&
               !plan.node->fetch_stmt->ismove;
  bool explain = plan.node->node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT;
  bool rows = plan.is_select || fetch || explain ||
              plan.node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT;
  if (!rows &&
      plan.node->node_case == PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT) {
    if (portal->done) return portal->final_result;
    ExecuteResult r = RunDeclare(plan, portal->params);
    portal->done = true;
    portal->final_result = r;
    return r;
  }
  if (plan.node->node_case == PG_QUERY__NODE__NODE_EXECUTE_STMT)
    return RunExecute(portal, max_rows, sink, simple);
  if (plan.ctas) {
    if (portal->done) return portal->final_result;
    portal->done = true;
    portal->final_result = RunCancellableDdl(
        plan.simple, [&] { return RunCreateTableAs(portal, sink); });
    return portal->final_result;
  }
  if (plan.dml || plan.merge) {
    if (!portal->started) {
      PgError error;
      portal->started = true;
      if (!RunDml(portal, &error) || !CheckStatementConstraints(&error)) {
        portal->done = true;
        portal->final_result = Fail(error);
        return portal->final_result;
      }
    }
    if (!portal->final_result.ok) return portal->final_result;
    if (simple && !plan.columns.empty())
      sink->RowDescription(plan.columns, portal->formats);
    int64_t sent = 0;
    while (portal->next_row < portal->rows.size()) {
      if (max_rows > 0 && sent >= max_rows) {
        ExecuteResult r;
        r.suspended = true;
        return r;
      }
      sink->DataRow(portal->rows[portal->next_row++]);
      sent++;
    }
    return portal->final_result;
  }
  if (!rows) {
    if (portal->done) return portal->final_result;
    ExecuteResult r = RunUtility(plan, sink);
    portal->done = true;
    portal->final_result = r;
    return r;
  }
  if (!portal->started) {
    PgError error;
    if (!ComputeSelectRows(portal, &error)) return Fail(error);
    if (plan.with_dml && !CheckStatementConstraints(&error)) return Fail(error);
    portal->started = true;
  }
  if (simple) sink->RowDescription(plan.columns, portal->formats);
  int64_t sent = 0;
  while (portal->next_row < portal->rows.size()) {
    if (max_rows > 0 && sent >= max_rows) {
      ExecuteResult r;
      r.suspended = true;
      return r;
    }
    if (cancel_) {
      return Fail(Err("57014", "canceling statement due to user request"));
    }
    sink->DataRow(portal->rows[portal->next_row++]);
    sent++;
  }
  return Tag(plan.is_select ? "SELECT " + std::to_string(sent)
             : fetch        ? "FETCH " + std::to_string(sent)
             : explain      ? "EXPLAIN"
                            : "SHOW");
}

}  // namespace kova::planner
