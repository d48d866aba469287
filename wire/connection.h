// One client connection: startup, authentication and the v3 message loop,
// run on the connection's own thread with blocking, buffered socket I/O.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "planner/planner.h"
#include "wire/auth.h"
#include "wire/wire.h"

namespace kova::wire {

class Connection;

// What the connections of one server share.
class ServerState {
 public:
  ServerState(planner::Engine* engine, ServerOptions options)
      : engine_(engine), options_(std::move(options)) {}

  planner::Engine* engine() const { return engine_; }
  const ServerOptions& options() const { return options_; }
  HbaConfig& hba() { return hba_; }
  bool has_hba = false;
  AuthMethod default_method = AuthMethod::kTrust;

  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }

  // Connection threads (registered for shutdown and cancel). Register
  // fails once shutdown has begun.
  bool Register(Connection* c);
  void Unregister(Connection* c);
  int live_connections();
  // Waits until no connection is registered, or the deadline passes.
  bool WaitForConnections(int timeout_ms);

  // Sessions (counted against max_connections).
  bool AcquireSlot();
  void ReleaseSlot();

  // CancelRequest: cancels the running statement of the matching session.
  void CancelBackend(int32_t pid, int32_t secret);
  // Called by a connection once its session may be cancelled / no longer.
  void SetCancelable(Connection* c, bool cancelable);

  // Shutdown: marks stopping, then InterruptAll(false) asks every
  // connection to end (cancel, shut the read side); InterruptAll(true) also
  // shuts the write side (a client that does not read).
  void BeginStopping() { stopping_ = true; }
  void InterruptAll(bool hard);

 private:
  planner::Engine* engine_;
  ServerOptions options_;
  HbaConfig hba_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> sessions_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_set<Connection*> connections_;
};

struct SvHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return std::hash<std::string_view>{}(s);
  }
};

class Connection : private planner::ResultSink {
 public:
  Connection(ServerState* state, int fd, const IpAddress& peer);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // The whole life of the connection; closes the socket at the end.
  void Run();

  // From other threads, under ServerState's mutex.
  int32_t pid() const { return pid_; }
  int32_t secret() const { return secret_; }
  bool cancelable = false;
  void CancelStatement();  // Session::Cancel
  void Interrupt(bool hard);

 private:
  // Socket I/O.
  bool Fill(size_t need);  // false: EOF, error or timeout
  void Flush();
  void SendAll(const char* data, size_t n);
  void MaybeFlush() {
    if (out_.size() >= kFlushThreshold) Flush();
  }
  void SetReceiveTimeout(int seconds);
  // Reads one typed message into *body. False: EOF (nothing sent) or a
  // protocol violation (FATAL sent). `copy`: inside COPY FROM STDIN, where
  // any type is read (and the caller decides).
  bool ReadMessage(char* type, std::string* body, bool copy);

  // Startup and authentication. False: the connection ends.
  bool Startup();
  bool Authenticate(const std::string& user, const std::string& database);
  // Reads the body of the message whose header is at in_pos_.
  bool ReadBody(uint32_t len, size_t limit, std::string* body);
  bool ReadPasswordPacket(std::string* body, const char* what);
  bool RunScram(const std::string& user, const planner::RoleAuth& role);
  void AuthFailed(const std::string& user);

  // Messages.
  void Fatal(const char* sqlstate, const std::string& message);
  void SendError(const planner::PgError& e, char type = 'E');
  void SendErrorMsg(const char* sqlstate, const std::string& message);
  void ReadyForQuery();
  // LISTEN: NotificationResponse messages for what the session holds, and
  // the wait for the client's next message that sends them as they come.
  void WriteNotifications();
  void AwaitInputOrNotification(int notification_fd);
  void ProtocolViolation(const char* message);
  void HandleQuery(std::string_view body);
  bool HandleParse(std::string_view body);
  bool HandleBind(std::string_view body);
  bool HandleDescribe(std::string_view body);
  bool HandleExecute(std::string_view body);
  bool HandleClose(std::string_view body);
  void HandleSync();
  void ExtendedError(const planner::PgError& e);
  void WriteRowDescription(const std::vector<planner::ColumnDesc>& columns,
                           const std::vector<planner::Format>& formats);
  void DropAllPortals();
  void OnStatementDone(const planner::ExecuteResult& r);
  void ReportChanges();

  // planner::ResultSink.
  void RowDescription(const std::vector<planner::ColumnDesc>& columns,
                      const std::vector<planner::Format>& formats) override;
  void DataRow(const std::vector<planner::Datum>& values) override;
  void Notice(const planner::PgError& notice) override;
  void BeginCopyIn(planner::Format format, int columns) override;
  CopyRead ReadCopyData(std::string* data) override;
  void BeginCopyOut(planner::Format format, int columns) override;
  void CopyOutData(std::string_view data) override;
  void EndCopyOut() override;
  bool DeallocatePrepared(std::string_view name) override;
  void DeallocateAllPrepared() override;

  static constexpr size_t kFlushThreshold = 64 * 1024;
  static constexpr size_t kReadChunk = 8 * 1024;

  ServerState* state_;
  int fd_;
  IpAddress peer_;
  int32_t pid_ = 0;
  std::atomic<bool> terminated_{false};  // by pg_terminate_backend
  int32_t secret_ = 0;
  bool has_slot_ = false;
  std::atomic<bool> broken_{false};  // socket failed: stop writing
  bool closing_ = false;             // leave the loop after this message
  bool fatal_sent_ = false;

  // Input: bytes [in_pos_, in_len_) of in_ are unread.
  std::unique_ptr<char[]> in_;
  size_t in_cap_ = 0, in_pos_ = 0, in_len_ = 0;
  std::string out_;
  std::string msg_;

  std::string user_;
  std::unique_ptr<planner::Session> session_;

  // Extended query state.
  using StatementPtr = std::shared_ptr<planner::PreparedStatement>;
  struct PortalEntry {
    StatementPtr statement;  // keeps the statement alive for the portal
    std::unique_ptr<planner::Portal> portal;
  };
  StatementPtr unnamed_statement_;
  std::unordered_map<std::string, StatementPtr, SvHash, std::equal_to<>>
      statements_;
  PortalEntry unnamed_portal_;
  std::unordered_map<std::string, PortalEntry, SvHash, std::equal_to<>>
      portals_;
  bool ignore_till_sync_ = false;
  bool extended_ = false;  // the sink ignores RowDescription then

  // Reused across messages (no per-message allocation on the fast path).
  std::vector<uint32_t> param_types_;
  std::vector<planner::Datum> params_;
  std::vector<planner::Format> param_formats_;
  std::vector<planner::Format> result_formats_;
  std::function<void(const planner::ExecuteResult&)> on_done_;
};

}  // namespace kova::wire
