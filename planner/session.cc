// The planner session: simple and extended query, transaction blocks and
// the statements of this slice (SELECT without tables, SET/SHOW/RESET,
// transaction control, roles, databases, DISCARD, DEALLOCATE, COPY (query)
// TO STDOUT). Every other statement fails with 0A000 naming it.
#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "planner/session_impl.h"

namespace kova::planner {
namespace {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

PgError Err(const char* sqlstate, std::string message, int location = -1) {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.position = location >= 0 ? location + 1 : 0;
  return e;
}

ExecuteResult Fail(PgError error) {
  ExecuteResult r;
  r.ok = false;
  r.error = std::move(error);
  return r;
}

ExecuteResult Tag(std::string tag) {
  ExecuteResult r;
  r.command_tag = std::move(tag);
  return r;
}

PgError StorageError(const docstore::Status& s) {
  switch (s.code()) {
    case docstore::Code::kConflict:
      return Err("40001", s.message());
    case docstore::Code::kBusy:
      return Err("55P03", s.message());
    case docstore::Code::kIOError:
      return Err("58030", s.message());
    case docstore::Code::kCorruption:
      return Err("XX001", s.message());
    default:
      return Err("XX000", s.message());
  }
}

// The statement's name for "X is not supported yet" messages.
const char* StatementName(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return "INSERT";
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return "UPDATE";
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return "DELETE";
    case PG_QUERY__NODE__NODE_MERGE_STMT:
      return "MERGE";
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      return "CREATE TABLE";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return "CREATE TABLE AS";
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return "ALTER TABLE";
    case PG_QUERY__NODE__NODE_DROP_STMT:
      return "DROP";
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return "TRUNCATE";
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      return "CREATE INDEX";
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
      return "CREATE SEQUENCE";
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
      return "ALTER SEQUENCE";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
      return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      return "CREATE VIEW";
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
      return "COMMENT";
    case PG_QUERY__NODE__NODE_GRANT_STMT:
      return "GRANT/REVOKE";
    case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
      return "GRANT/REVOKE role";
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      return "EXPLAIN";
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
      return "CREATE FUNCTION";
    case PG_QUERY__NODE__NODE_DO_STMT:
      return "DO";
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
      return "PREPARE";
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
      return "EXECUTE";
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
      return "DECLARE CURSOR";
    case PG_QUERY__NODE__NODE_FETCH_STMT:
      return "FETCH/MOVE";
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
      return "CLOSE";
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
      return "LISTEN";
    case PG_QUERY__NODE__NODE_NOTIFY_STMT:
      return "NOTIFY";
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
      return "UNLISTEN";
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
      return "VACUUM/ANALYZE";
    case PG_QUERY__NODE__NODE_LOCK_STMT:
      return "LOCK";
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
      return "CREATE TYPE AS ENUM";
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
      return "CREATE DOMAIN";
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT:
      return "CREATE TYPE";
    case PG_QUERY__NODE__NODE_DEFINE_STMT:
      return "CREATE aggregate/operator/type";
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT:
      return "CREATE EXTENSION";
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT:
      return "CREATE TRIGGER";
    case PG_QUERY__NODE__NODE_RULE_STMT:
      return "CREATE RULE";
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return "ALTER ... RENAME";
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
      return "ALTER ... OWNER TO";
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
      return "ALTER ... SET SCHEMA";
    case PG_QUERY__NODE__NODE_CREATE_POLICY_STMT:
      return "CREATE POLICY";
    case PG_QUERY__NODE__NODE_REFRESH_MAT_VIEW_STMT:
      return "REFRESH MATERIALIZED VIEW";
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
      return "CHECKPOINT";
    case PG_QUERY__NODE__NODE_CALL_STMT:
      return "CALL";
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT:
      return "ALTER DATABASE";
    case PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT:
      return "ALTER ROLE ... SET";
    case PG_QUERY__NODE__NODE_ALTER_DEFAULT_PRIVILEGES_STMT:
      return "ALTER DEFAULT PRIVILEGES";
    default:
      return "this statement";
  }
}

bool IsTransactionExit(const PgQuery__Node* node) {
  if (node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT) return false;
  auto kind = node->transaction_stmt->kind;
  return kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
         kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK ||
         kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO;
}

// The text of a SET argument (A_Const or a TIME ZONE interval).
bool SetArgText(const PgQuery__Node* arg, const std::string& name,
                std::string* out, PgError* error) {
  if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const PgQuery__AConst* c = arg->a_const;
    switch (c->val_case) {
      case PG_QUERY__A__CONST__VAL_SVAL:
        *out = c->sval->sval;
        return true;
      case PG_QUERY__A__CONST__VAL_IVAL:
        if (name == "timezone") {
          // SET TIME ZONE 5 -> "<+05>-05" (a POSIX zone, sign inverted)
          int h = c->ival->ival;
          char buf[32];
          std::snprintf(buf, sizeof(buf), "<%c%02d>%c%02d", h < 0 ? '-' : '+',
                        std::abs(h), h < 0 ? '+' : '-', std::abs(h));
          *out = buf;
          return true;
        }
        *out = std::to_string(c->ival->ival);
        return true;
      case PG_QUERY__A__CONST__VAL_FVAL:
        if (name == "timezone") {
          // SET TIME ZONE 4.5 -> "<+04:30>-04:30"
          double hours = std::atof(c->fval->fval);
          int minutes = static_cast<int>(std::lround(std::fabs(hours) * 60));
          char sign = hours < 0 ? '-' : '+', inverse = hours < 0 ? '+' : '-';
          char buf[48];
          if (minutes % 60 == 0) {
            std::snprintf(buf, sizeof(buf), "<%c%02d>%c%02d", sign,
                          minutes / 60, inverse, minutes / 60);
          } else {
            std::snprintf(buf, sizeof(buf), "<%c%02d:%02d>%c%02d:%02d", sign,
                          minutes / 60, minutes % 60, inverse, minutes / 60,
                          minutes % 60);
          }
          *out = buf;
          return true;
        }
        *out = c->fval->fval;
        return true;
      case PG_QUERY__A__CONST__VAL_BOOLVAL:
        *out = c->boolval->boolval ? "on" : "off";
        return true;
      default:
        break;
    }
  }
  if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && name == "timezone" &&
      arg->type_cast->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      arg->type_cast->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
    // SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE
    std::string v = arg->type_cast->arg->a_const->sval->sval;
    bool negative = !v.empty() && v[0] == '-';
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) v = v.substr(1);
    int h = std::atoi(v.c_str());
    size_t colon = v.find(':');
    int m = colon == std::string::npos ? 0 : std::atoi(v.c_str() + colon + 1);
    char buf[48];
    if (m == 0) {
      std::snprintf(buf, sizeof(buf), "<%c%02d>%c%02d", negative ? '-' : '+', h,
                    negative ? '+' : '-', h);
    } else {
      std::snprintf(buf, sizeof(buf), "<%c%02d:%02d>%c%02d:%02d",
                    negative ? '-' : '+', h, m, negative ? '+' : '-', h, m);
    }
    *out = buf;
    return true;
  }
  *error = Err("0A000", "this form of SET is not supported yet");
  return false;
}

std::string QuoteIdentifierIfNeeded(const std::string& s) {
  bool plain = !s.empty() &&
               (std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_');
  for (char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '$'))
      plain = false;
  if (plain) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
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
      settings_(server_version_, user_, superuser) {}

SessionImpl::~SessionImpl() { Terminate(); }

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
}

docstore::Status SessionImpl::EnsureStorageTransaction() {
  if ((in_block_ || implicit_) && !storage_->in_transaction())
    return storage_->Begin();
  return docstore::Status::OK();
}

void SessionImpl::EndImplicit(bool commit) {
  if (!implicit_) return;
  implicit_ = false;
  if (commit && (!storage_->in_transaction() || storage_->Commit().ok())) {
    settings_.OnCommit();
  } else {
    if (storage_->in_transaction()) storage_->Rollback();
    settings_.OnRollback();
  }
}

void SessionImpl::OnStatementError() {
  if (in_block_) {
    failed_ = true;
  } else if (implicit_) {
    EndImplicit(false);
  }
}

void SessionImpl::Notice(ResultSink* sink, const char* severity,
                         const char* sqlstate, std::string message) {
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
    *error = Err("42601", syntax.message);
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
  statement_start_ = NowMicros();
  cancel_ = false;
  std::shared_ptr<sql::ParseTree> tree;
  PgError parse_error;
  if (!ParseCached(text, &tree, &parse_error)) {
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
  bool multi = tree->size() > 1;
  for (size_t i = 0; i < tree->size(); i++) {
    statement_start_ = NowMicros();
    auto plan = std::make_shared<Plan>();
    plan->tree = tree;
    plan->node = tree->statement(i).stmt;
    plan->text = std::string(tree->statement_text(i));
    ExecuteResult r;
    if (failed_ && !IsTransactionExit(plan->node)) {
      r = Fail(Err("25P02",
                   "current transaction is aborted, commands ignored until "
                   "end of transaction block"));
    } else {
      if (multi && !in_block_ && !implicit_ &&
          plan->node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
        BeginImplicit();
      PgError error;
      if (!Analyze(plan, &error)) {
        r = Fail(error);
      } else {
        PortalImpl portal;
        portal.plan = plan;
        portal.formats.assign(plan->columns.size(), Format::kText);
        r = Run(&portal, 0, sink, /*simple=*/true);
      }
    }
    on_statement_done(r);
    if (!r.ok) {
      OnStatementError();
      break;
    }
  }
  if (implicit_) EndImplicit(/*commit=*/true);
}

// ---- extended query -----------------------------------------------------

bool SessionImpl::Parse(std::string_view text,
                        const std::vector<uint32_t>& param_types,
                        std::unique_ptr<PreparedStatement>* statement,
                        PgError* error) {
  statement_start_ = NowMicros();
  if (failed_) {
    *error = Err("25P02",
                 "current transaction is aborted, commands ignored until end "
                 "of transaction block");
    return false;
  }
  std::shared_ptr<sql::ParseTree> parsed;
  if (!ParseCached(text, &parsed, error)) return false;
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
  const auto& stmt = static_cast<const PreparedStatementImpl&>(statement);
  const Plan& plan = *stmt.plan();
  if (failed_) {
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
  auto* p = static_cast<PortalImpl*>(portal);
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

void SessionImpl::Sync() {
  if (implicit_) EndImplicit(/*commit=*/true);
}

void SessionImpl::Cancel() {
  if (!running_) return;
  cancel_ = true;
  { std::lock_guard<std::mutex> lock(sleep_mu_); }
  sleep_cv_.notify_all();
  sqlite3_interrupt(storage_->connection());
}

void SessionImpl::Terminate() {
  if (in_block_ || implicit_) {
    if (storage_->in_transaction()) storage_->Rollback();
    in_block_ = implicit_ = failed_ = false;
    settings_.OnRollback();
  }
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

bool SessionImpl::Sleep(double seconds, PgError* error) {
  std::unique_lock<std::mutex> lock(sleep_mu_);
  auto until = std::chrono::steady_clock::now() +
               std::chrono::microseconds(
                   static_cast<int64_t>(std::max(0.0, seconds) * 1e6));
  if (sleep_cv_.wait_until(lock, until, [&] { return cancel_.load(); })) {
    *error = Err("57014", "canceling statement due to user request");
    return false;
  }
  return true;
}

// ---- analysis -----------------------------------------------------------

bool SessionImpl::Analyze(std::shared_ptr<Plan> plan, PgError* error) {
  if (!plan->node) return true;  // empty query
  const PgQuery__Node* node = plan->node;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      return AnalyzeSelect(plan.get(), error);
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
      const PgQuery__CopyStmt* copy = node->copy_stmt;
      if (copy->relation) {
        const PgQuery__RangeVar* rv = copy->relation;
        std::string name = rv->schemaname && *rv->schemaname
                               ? std::string(rv->schemaname) + "." + rv->relname
                               : rv->relname;
        *error = Err("42P01", "relation \"" + name + "\" does not exist");
        return false;
      }
      return true;
    }
    default:
      return true;
  }
}

bool SessionImpl::AnalyzeValues(Plan* plan, PgError* error) {
  const PgQuery__SelectStmt* s = plan->node->select_stmt;
  if (s->n_sort_clause > 0 || s->limit_count || s->limit_offset) {
    *error = Err("0A000",
                 "ORDER BY, LIMIT and OFFSET on VALUES are not "
                 "supported yet");
    return false;
  }
  Analyzer analyzer(this, &plan->param_types);
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
  Analyzer analyzer(this, &plan->param_types);
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
    if (expr->kind == Expr::Kind::kParam && expr->type == oid::kUnknown) {
      *error = Err("42P18",
                   "could not determine data type of parameter $" +
                       std::to_string(expr->param + 1),
                   expr->location);
      return false;
    }
    if (!analyzer.Coerce(&expr, oid::kText, -1, error)) return false;
    ColumnDesc col;
    col.name = t->name && *t->name ? t->name : Analyzer::ColumnName(val);
    col.type_oid = expr->type;
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
  if (node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT) {
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
  const Plan& plan = *portal->plan;
  if (!plan.node) {
    ExecuteResult r;
    r.empty_query = true;
    return r;
  }
  struct Running {
    std::atomic<bool>& flag;
    explicit Running(std::atomic<bool>& f) : flag(f) { flag = true; }
    ~Running() { flag = false; }
  } running(running_);

  bool rows = plan.is_select ||
              plan.node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT;
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
  return Tag((plan.is_select ? "SELECT " + std::to_string(sent) : "SHOW"));
}

ExecuteResult SessionImpl::RunUtility(const Plan& plan, ResultSink* sink) {
  const PgQuery__Node* node = plan.node;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
      return RunTransaction(node->transaction_stmt, sink);
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT: {
      const PgQuery__VariableSetStmt* set = node->variable_set_stmt;
      if (set->is_local && !in_block_ && !implicit_) {
        Notice(sink, "WARNING", "25P01",
               "SET LOCAL can only be used in transaction blocks");
        return Tag("SET");
      }
      return RunSet(set, sink);
    }
    case PG_QUERY__NODE__NODE_DISCARD_STMT: {
      auto target = node->discard_stmt->target;
      if (target == PG_QUERY__DISCARD_MODE__DISCARD_ALL) {
        if (in_block_) {
          return Fail(Err("25001",
                          "DISCARD ALL cannot run inside a transaction block"));
        }
        settings_.ResetAll();
        sink->DeallocateAllPrepared();
        return Tag("DISCARD ALL");
      }
      // No plan cache, temporary tables or sequence caches yet: nothing is
      // held that these would discard.
      return Tag(target == PG_QUERY__DISCARD_MODE__DISCARD_PLANS
                     ? "DISCARD PLANS"
                 : target == PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES
                     ? "DISCARD SEQUENCES"
                     : "DISCARD TEMP");
    }
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: {
      const char* name = node->deallocate_stmt->name;
      if (!name || !*name) {
        sink->DeallocateAllPrepared();
        return Tag("DEALLOCATE ALL");
      }
      if (!sink->DeallocatePrepared(name)) {
        return Fail(Err("26000", "prepared statement \"" + std::string(name) +
                                     "\" does not exist"));
      }
      return Tag("DEALLOCATE");
    }
    case PG_QUERY__NODE__NODE_CREATEDB_STMT: {
      PgError ro;
      if (!CheckWritable("CREATE DATABASE", &ro)) return Fail(ro);
      if (in_block_ || implicit_) {
        return Fail(Err("25001",
                        "CREATE DATABASE cannot run inside a transaction "
                        "block"));
      }
      std::string name = node->createdb_stmt->dbname;
      const PgQuery__CreatedbStmt* cdb = node->createdb_stmt;
      std::vector<std::string> seen;
      for (size_t i = 0; i < cdb->n_options; i++) {
        const PgQuery__DefElem* d = cdb->options[i]->def_elem;
        std::string opt = d->defname;
        static const char* kKnown[] = {"owner",
                                       "template",
                                       "encoding",
                                       "locale",
                                       "lc_collate",
                                       "lc_ctype",
                                       "icu_locale",
                                       "locale_provider",
                                       "collation_version",
                                       "connection_limit",
                                       "is_template",
                                       "allow_connections",
                                       "tablespace",
                                       "strategy",
                                       "oid"};
        if (std::find(std::begin(kKnown), std::end(kKnown), opt) ==
            std::end(kKnown)) {
          return Fail(Err("42601", "option \"" + opt + "\" not recognized",
                          d->location));
        }
        if (std::find(seen.begin(), seen.end(), opt) != seen.end()) {
          return Fail(
              Err("42601", "conflicting or redundant options", d->location));
        }
        seen.push_back(opt);
        if (opt == "owner" && d->arg &&
            d->arg->node_case == PG_QUERY__NODE__NODE_STRING) {
          RoleRecord owner;
          if (!EngineFindRole(engine_, d->arg->string->sval, &owner)) {
            return Fail(Err("42704", "role \"" +
                                         std::string(d->arg->string->sval) +
                                         "\" does not exist"));
          }
        }
      }
      if (name == docstore::kAdminDb) {
        return Fail(Err("42939",
                        "database name \"admin\" is reserved for "
                        "Kova's admin.counters"));
      }
      PgError e;
      if (!EngineCreateDatabase(engine_, name, &e)) return Fail(e);
      return Tag("CREATE DATABASE");
    }
    case PG_QUERY__NODE__NODE_DROPDB_STMT: {
      PgError ro;
      if (!CheckWritable("DROP DATABASE", &ro)) return Fail(ro);
      if (in_block_ || implicit_) {
        return Fail(Err("25001",
                        "DROP DATABASE cannot run inside a transaction block"));
      }
      std::string name = node->dropdb_stmt->dbname;
      if (name == database_) {
        return Fail(Err("55006", "cannot drop the currently open database"));
      }
      if (!engine_->DatabaseExists(name)) {
        if (node->dropdb_stmt->missing_ok) {
          Notice(sink, "NOTICE", "00000",
                 "database \"" + name + "\" does not exist, skipping");
          return Tag("DROP DATABASE");
        }
        return Fail(Err("3D000", "database \"" + name + "\" does not exist"));
      }
      PgError e;
      if (!EngineDropDatabase(engine_, name, &e)) return Fail(e);
      return Tag("DROP DATABASE");
    }
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT: {
      PgError ro;
      const char* what =
          node->node_case == PG_QUERY__NODE__NODE_CREATE_ROLE_STMT
              ? "CREATE ROLE"
          : node->node_case == PG_QUERY__NODE__NODE_ALTER_ROLE_STMT
              ? "ALTER ROLE"
              : "DROP ROLE";
      if (!CheckWritable(what, &ro)) return Fail(ro);
      break;
    }
    default:
      break;
  }
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
      return RunCreateRole(node->create_role_stmt);
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
      return RunAlterRole(node->alter_role_stmt);
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
      return RunDropRole(node->drop_role_stmt, sink);
    case PG_QUERY__NODE__NODE_COPY_STMT:
      return RunCopy(plan, sink);
    default:
      return Fail(Err(
          "0A000", std::string(StatementName(node)) + " is not supported yet"));
  }
}

bool SessionImpl::ApplyTransactionOptions(PgQuery__Node* const* options,
                                          size_t n, PgError* error) {
  for (size_t i = 0; i < n; i++) {
    if (options[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
    const PgQuery__DefElem* d = options[i]->def_elem;
    std::string opt = d->defname;
    std::string value;
    if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
      const PgQuery__AConst* c = d->arg->a_const;
      if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL) value = c->sval->sval;
      if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL)
        value = c->ival->ival ? "on" : "off";
    }
    if (opt == "transaction_deferrable")
      continue;  // only matters for
                 // SERIALIZABLE READ ONLY
    if (opt != "transaction_isolation" && opt != "transaction_read_only") {
      *error =
          Err("0A000", "transaction option " + opt + " is not supported yet");
      return false;
    }
    if (!settings_.Set(opt, value, /*is_local=*/true, error)) return false;
  }
  return true;
}

bool SessionImpl::CheckWritable(const char* what, PgError* error) {
  if (settings_.Get("transaction_read_only") == "on" ||
      (!in_block_ && settings_.Get("default_transaction_read_only") == "on")) {
    *error = Err("25006", std::string("cannot execute ") + what +
                              " in a read-only transaction");
    return false;
  }
  return true;
}

ExecuteResult SessionImpl::RunTransaction(const PgQuery__TransactionStmt* t,
                                          ResultSink* sink) {
  bool end = t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
             t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK;
  if (end && t->chain) {
    const char* what =
        t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT
            ? "COMMIT AND CHAIN"
            : "ROLLBACK AND CHAIN";
    if (!in_block_) {
      return Fail(Err("25P01", std::string(what) +
                                   " can only be used in transaction blocks"));
    }
    // The new transaction keeps the characteristics of the old one.
    std::string isolation = settings_.Get("transaction_isolation");
    std::string read_only = settings_.Get("transaction_read_only");
    PgQuery__TransactionStmt plain = *t;
    plain.chain = false;
    ExecuteResult r = RunTransaction(&plain, sink);
    if (!r.ok) return r;
    txn_start_ = NowMicros();
    settings_.OnBegin();
    in_block_ = true;
    PgError error;
    if (!settings_.Set("transaction_isolation", isolation, true, &error) ||
        !settings_.Set("transaction_read_only", read_only, true, &error))
      return Fail(error);
    return r;
  }
  switch (t->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: {
      std::string tag =
          t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN
              ? "BEGIN"
              : "START TRANSACTION";
      if (in_block_) {
        Notice(sink, "WARNING", "25001",
               "there is already a transaction in progress");
        return Tag(tag);
      }
      if (implicit_) {  // BEGIN inside a multi-statement query
        implicit_ = false;
      } else {
        txn_start_ = NowMicros();
        settings_.OnBegin();
      }
      in_block_ = true;
      failed_ = false;
      savepoints_.clear();
      PgError error;
      if (!ApplyTransactionOptions(t->options, t->n_options, &error))
        return Fail(error);
      return Tag(tag);
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT: {
      if (!in_block_) {
        // An implicit block (several statements in one query) is not a
        // transaction block: PostgreSQL warns, and commits it.
        Notice(sink, "WARNING", "25P01", "there is no transaction in progress");
        if (implicit_) EndImplicit(/*commit=*/true);
        return Tag("COMMIT");
      }
      bool was_failed = failed_;
      in_block_ = implicit_ = failed_ = false;
      savepoints_.clear();
      if (was_failed) {
        if (storage_->in_transaction()) storage_->Rollback();
        settings_.OnRollback();
        return Tag("ROLLBACK");
      }
      docstore::Status s = storage_->in_transaction() ? storage_->Commit()
                                                      : docstore::Status::OK();
      if (!s.ok()) {
        settings_.OnRollback();
        return Fail(StorageError(s));
      }
      settings_.OnCommit();
      return Tag("COMMIT");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK: {
      if (!in_block_) {
        Notice(sink, "WARNING", "25P01", "there is no transaction in progress");
        if (implicit_) EndImplicit(/*commit=*/false);
        return Tag("ROLLBACK");
      }
      in_block_ = implicit_ = failed_ = false;
      savepoints_.clear();
      if (storage_->in_transaction()) storage_->Rollback();
      settings_.OnRollback();
      return Tag("ROLLBACK");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT: {
      if (!in_block_) {
        return Fail(
            Err("25P01", "SAVEPOINT can only be used in transaction blocks"));
      }
      std::string name = t->savepoint_name;
      // The storage transaction starts with the first statement that needs
      // it; a savepoint does.
      docstore::Status s = EnsureStorageTransaction();
      if (s.ok()) s = storage_->Savepoint(name);
      if (!s.ok()) return Fail(StorageError(s));
      savepoints_.push_back(name);
      settings_.OnSavepoint(name);
      return Tag("SAVEPOINT");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO: {
      bool release =
          t->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE;
      std::string name = t->savepoint_name;
      if (!in_block_) {
        return Fail(
            Err("25P01", std::string(release ? "RELEASE SAVEPOINT"
                                             : "ROLLBACK TO SAVEPOINT") +
                             " can only be used in transaction "
                             "blocks"));
      }
      auto it = std::find(savepoints_.rbegin(), savepoints_.rend(), name);
      if (it == savepoints_.rend()) {
        return Fail(Err("3B001", "savepoint \"" + name + "\" does not exist"));
      }
      size_t index = savepoints_.size() - 1 - (it - savepoints_.rbegin());
      if (release) {
        docstore::Status s = storage_->ReleaseSavepoint(name);
        if (!s.ok()) return Fail(StorageError(s));
        savepoints_.resize(index);
        settings_.OnReleaseSavepoint(name);
        return Tag("RELEASE");
      }
      docstore::Status s = storage_->RollbackToSavepoint(name);
      if (!s.ok()) return Fail(StorageError(s));
      savepoints_.resize(index + 1);
      settings_.OnRollbackToSavepoint(name);
      failed_ = false;
      return Tag("ROLLBACK");
    }
    default:
      return Fail(Err("0A000", "two-phase commit is not supported"));
  }
}

ExecuteResult SessionImpl::RunSet(const PgQuery__VariableSetStmt* set,
                                  ResultSink* sink) {
  std::string name = set->name ? set->name : "";
  PgError error;
  switch (set->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE: {
      std::string value;
      for (size_t i = 0; i < set->n_args; i++) {
        std::string part;
        if (!SetArgText(set->args[i], name, &part, &error)) return Fail(error);
        if (i) value += ", ";
        value += name == "search_path" ? QuoteIdentifierIfNeeded(part) : part;
      }
      if (name == "timezone") name = "TimeZone";
      if (!settings_.Set(name, value, set->is_local, &error))
        return Fail(error);
      return Tag("SET");
    }
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
      if (name == "timezone") name = "TimeZone";
      if (!settings_.Reset(name, &error)) return Fail(error);
      return Tag(set->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET"
                                                                     : "SET");
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      settings_.ResetAll();
      return Tag("RESET");
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_CURRENT:
      return Tag("SET");  // SET x FROM CURRENT keeps the current value
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI: {
      // SET TRANSACTION / SET SESSION CHARACTERISTICS AS TRANSACTION ...
      bool session = name == "SESSION CHARACTERISTICS";
      if (!session && !in_block_) {
        Notice(sink, "WARNING", "25P01",
               "SET TRANSACTION can only be used in transaction blocks");
        return Tag("SET");
      }
      for (size_t i = 0; i < set->n_args; i++) {
        const PgQuery__Node* arg = set->args[i];
        if (arg->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
        const PgQuery__DefElem* d = arg->def_elem;
        std::string opt = d->defname;
        std::string value;
        if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
          const PgQuery__AConst* c = d->arg->a_const;
          if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL)
            value = c->sval->sval;
          if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL)
            value = c->ival->ival ? "on" : "off";
        }
        std::string setting = opt == "transaction_isolation"
                                  ? (session ? "default_transaction_isolation"
                                             : "transaction_isolation")
                              : opt == "transaction_read_only"
                                  ? (session ? "default_transaction_read_only"
                                             : "transaction_read_only")
                                  : "";
        if (setting.empty()) {
          return Fail(
              Err("0A000", "SET TRANSACTION " + opt + " is not supported yet"));
        }

        if (!settings_.Set(setting, value, !session, &error))
          return Fail(error);
      }
      return Tag("SET");
    }
    default:
      return Fail(Err("0A000", "this form of SET is not supported yet"));
  }
}

namespace {

// Role options common to CREATE and ALTER ROLE.
bool ApplyRoleOptions(PgQuery__Node* const* options, size_t n, RoleRecord* role,
                      const Settings& settings, PgError* error) {
  std::vector<std::string> seen;
  for (size_t i = 0; i < n; i++) {
    const PgQuery__DefElem* d = options[i]->def_elem;
    std::string opt = d->defname;
    if (std::find(seen.begin(), seen.end(), opt) != seen.end()) {
      *error = Err("42601", "conflicting or redundant options", d->location);
      return false;
    }
    seen.push_back(opt);
    if (opt == "connectionlimit" && d->arg &&
        d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER &&
        d->arg->integer->ival < -1) {
      *error = Err("22023", "invalid connection limit: " +
                                std::to_string(d->arg->integer->ival));
      return false;
    }
    auto flag = [&] {
      return d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN
                 ? static_cast<bool>(d->arg->boolean->boolval)
             : d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER
                 ? d->arg->integer->ival != 0
                 : true;
    };
    if (opt == "canlogin") {
      role->login = flag();
    } else if (opt == "superuser") {
      role->superuser = flag();
    } else if (opt == "password") {
      if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_STRING) {
        role->password.clear();  // PASSWORD NULL
        continue;
      }
      std::string pw = d->arg->string->sval;
      bool md5_form = pw.size() == 35 && pw.rfind("md5", 0) == 0;
      if (pw.rfind("SCRAM-SHA-256$", 0) == 0 || md5_form) {
        role->password = pw;  // already hashed, as pg_dumpall writes it
      } else if (settings.Get("password_encryption") == "md5") {
        role->password = MakeMd5Password(pw, role->name);
      } else {
        role->password = MakeScramVerifier(pw);
      }
    } else if (opt == "createdb" || opt == "createrole" || opt == "inherit" ||
               opt == "connectionlimit" || opt == "validUntil" ||
               opt == "isreplication" || opt == "bypassrls") {
      // Kova does not enforce these privileges yet; they are accepted so
      // that dumps of roles restore.
    } else {
      *error = Err("0A000", "role option " + opt + " is not supported yet");
      return false;
    }
  }
  return true;
}

}  // namespace

ExecuteResult SessionImpl::RunCreateRole(const PgQuery__CreateRoleStmt* stmt) {
  if (!superuser_) {
    return Fail(Err("42501", "permission denied to create role"));
  }
  RoleRecord role;
  role.name = stmt->role;
  if (role.name.rfind("pg_", 0) == 0) {
    PgError e = Err("42939", "role name \"" + role.name + "\" is reserved");
    e.detail = "Role names starting with \"pg_\" are reserved.";
    return Fail(e);
  }
  role.login = stmt->stmt_type == PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER;
  PgError error;
  if (!ApplyRoleOptions(stmt->options, stmt->n_options, &role, settings_,
                        &error))
    return Fail(error);
  if (!EngineCreateRole(engine_, role, &error)) return Fail(error);
  return Tag("CREATE ROLE");
}

ExecuteResult SessionImpl::RunAlterRole(const PgQuery__AlterRoleStmt* stmt) {
  std::string name =
      stmt->role && stmt->role->rolename ? stmt->role->rolename : user_;
  RoleRecord role;
  if (!EngineFindRole(engine_, name, &role)) {
    return Fail(Err("42704", "role \"" + name + "\" does not exist"));
  }
  if (!superuser_ && name != user_) {
    return Fail(Err("42501", "permission denied"));
  }
  PgError error;
  if (!ApplyRoleOptions(stmt->options, stmt->n_options, &role, settings_,
                        &error))
    return Fail(error);
  if (!EngineUpdateRole(engine_, role, &error)) return Fail(error);
  return Tag("ALTER ROLE");
}

ExecuteResult SessionImpl::RunDropRole(const PgQuery__DropRoleStmt* stmt,
                                       ResultSink* sink) {
  if (!superuser_) return Fail(Err("42501", "permission denied to drop role"));
  // All or nothing: check every name before dropping any.
  std::vector<std::string> to_drop;
  for (size_t i = 0; i < stmt->n_roles; i++) {
    const PgQuery__RoleSpec* spec = stmt->roles[i]->role_spec;
    if (spec->roletype != PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING) {
      return Fail(
          Err("42601", "cannot use special role specifier in DROP ROLE"));
    }
    std::string name = spec->rolename;
    RoleRecord role;
    if (!EngineFindRole(engine_, name, &role)) {
      if (stmt->missing_ok) {
        Notice(sink, "NOTICE", "00000",
               "role \"" + name + "\" does not exist, skipping");
        continue;
      }
      return Fail(Err("42704", "role \"" + name + "\" does not exist"));
    }
    if (name == user_) {
      return Fail(Err("55006", "current user cannot be dropped"));
    }
    to_drop.push_back(name);
  }
  for (const auto& name : to_drop) {
    PgError error;
    if (!EngineDropRole(engine_, name, &error)) return Fail(error);
  }
  return Tag("DROP ROLE");
}

}  // namespace kova::planner
