// pg_stat_activity, pg_cancel_backend and pg_terminate_backend: each
// session publishes what it is doing (state, query, when it began) in a
// record the engine lists, and other sessions read the records or signal
// the session behind one.
#include <chrono>

#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

// PostgreSQL's internal timestamptz: microseconds since 2000-01-01 UTC.
constexpr int64_t kPostgresEpochMicros = 946684800000000LL;

// A field of a kova_activity_rows line: backslash, tab and newline
// escaped (ActivityRows reads them back).
std::string Field(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string Micros(int64_t unix_micros) {
  return unix_micros ? std::to_string(unix_micros - kPostgresEpochMicros) : "";
}

}  // namespace

void SessionImpl::ReportActivity(bool active, std::string_view query,
                                 int64_t start) {
  int64_t now = active ? start : NowMicros();
  std::lock_guard<std::mutex> lock(activity_mu_);
  if (!activity_.backend_start) activity_.backend_start = now;
  std::string state = active                       ? "active"
                      : TransactionStatus() == 'I' ? "idle"
                      : TransactionStatus() == 'T'
                          ? "idle in transaction"
                          : "idle in transaction (aborted)";
  if (active) {
    activity_.query.assign(query.data(), query.size());
    activity_.query_start = now;
    activity_.usename = user_;
    if (activity_settings_generation_ != settings_.generation()) {
      activity_.application_name = settings_.Get("application_name");
      activity_settings_generation_ = settings_.generation();
    }
  }
  // xact_start is now() of the transaction: its BEGIN's start in a block,
  // the statement's own start outside one.
  bool in_transaction = active || TransactionStatus() != 'I';
  activity_.xact_start = !in_transaction            ? 0
                         : (in_block_ || implicit_) ? txn_start_
                                                    : now;
  if (state != activity_.state) {
    activity_.state = std::move(state);
    activity_.state_change = now;
  }
}

void SessionImpl::SetClientAddress(std::string address, int port) {
  std::lock_guard<std::mutex> lock(activity_mu_);
  activity_.client_addr = std::move(address);
  activity_.client_port = port;
}

void SessionImpl::SetTerminateHook(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(activity_mu_);
  terminate_hook_ = std::move(hook);
}

std::string SessionImpl::ActivityLine() {
  std::lock_guard<std::mutex> lock(activity_mu_);
  // datname, pid, usename, application_name, backend_start, xact_start,
  // query_start, state_change, state, query, client_addr, client_port.
  return Field(database_) + '\t' + std::to_string(pid_) + '\t' +
         Field(activity_.usename) + '\t' + Field(activity_.application_name) +
         '\t' + Micros(activity_.backend_start) + '\t' +
         Micros(activity_.xact_start) + '\t' + Micros(activity_.query_start) +
         '\t' + Micros(activity_.state_change) + '\t' + activity_.state + '\t' +
         Field(activity_.query) + '\t' + activity_.client_addr + '\t' +
         std::to_string(activity_.client_port) + '\n';
}

bool SessionImpl::Signal(bool terminate) {
  Cancel();
  if (!terminate) return true;
  // Under the lock: a connection clears its hook before it closes.
  std::lock_guard<std::mutex> lock(activity_mu_);
  if (terminate_hook_) terminate_hook_();
  return true;
}

bool SessionImpl::CallActivityFunction(const std::string& name,
                                       const std::vector<Value>& args,
                                       Value* out, PgError* error) {
  if (name == "kova_activity_rows") {
    *out = EngineActivityLines(engine_);
    return true;
  }
  // pg_cancel_backend(pid) / pg_terminate_backend(pid [, timeout]).
  if (!args[0]) {
    *out = std::nullopt;
    return true;
  }
  int pid = std::stoi(*args[0]);
  bool terminate = name == "pg_terminate_backend";
  if (terminate && args.size() > 1 && args[1] && std::stoll(*args[1]) < 0) {
    *error = Err("22023", "\"timeout\" must not be negative");
    return false;
  }
  if (!EngineSignalBackend(engine_, pid, terminate)) {
    Notice(
        running_sink_, "WARNING", "01000",
        "PID " + std::to_string(pid) + " is not a PostgreSQL backend process");
    *out = "f";
    return true;
  }
  *out = "t";
  return true;
}

}  // namespace kova::planner
