#include "wire/connection.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "wire/protocol.h"

namespace kova::wire {

using planner::ColumnDesc;
using planner::Datum;
using planner::ExecuteResult;
using planner::Format;
using planner::PgError;

namespace {

constexpr size_t kInitialOutput = 8 * 1024;
constexpr size_t kKeepBuffer = 256 * 1024;  // shrink buffers bigger than this
constexpr uint32_t kMaxAuthPacket = 65535;

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  out.append(s);
  out.push_back('"');
  return out;
}

PgError MakeError(const char* sqlstate, std::string message,
                  const char* severity = "ERROR") {
  PgError e;
  e.severity = severity;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  return e;
}

// Waiting for a client's next request costs a sleep and a wake-up, which on a
// virtual machine is most of a short statement's time. While one client alone
// talks to the server, its connection polls the socket for a few microseconds
// before it sleeps, as a kernel's busy polling would. As soon as requests come
// from more than one connection the cores are needed for their work, and
// every connection sleeps at once (spinning there was measured to halve the
// throughput of 8 clients on 2 cores).
class RequestSpin {
 public:
  static constexpr auto kSpin = std::chrono::microseconds(60);
  static constexpr int64_t kQuietNanos = 20'000'000;  // others' requests

  // A request arrived on `conn`.
  static void Heard(const void* conn) {
    auto id = reinterpret_cast<uintptr_t>(conn);
    if (last_conn_.load(std::memory_order_relaxed) != id) {
      last_conn_.store(id, std::memory_order_relaxed);
      last_switch_.store(Now(), std::memory_order_relaxed);
    }
  }

  // True: the caller may spin, and must call End() afterwards.
  static bool Begin(const void* conn) {
    static const bool several_cores = std::thread::hardware_concurrency() > 1;
    if (!several_cores) return false;
    if (last_conn_.load(std::memory_order_relaxed) !=
        reinterpret_cast<uintptr_t>(conn))
      return false;
    if (Now() - last_switch_.load(std::memory_order_relaxed) < kQuietNanos)
      return false;
    bool idle = false;
    return spinning_.compare_exchange_strong(idle, true);
  }
  static void End() { spinning_.store(false); }

 private:
  static int64_t Now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static inline std::atomic<uintptr_t> last_conn_{0};
  static inline std::atomic<int64_t> last_switch_{0};
  static inline std::atomic<bool> spinning_{false};
};

}  // namespace

// ----------------------------------------------------------------------------
// ServerState

bool ServerState::Register(Connection* c) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return false;
  connections_.insert(c);
  return true;
}

void ServerState::Unregister(Connection* c) {
  std::lock_guard<std::mutex> lock(mu_);
  connections_.erase(c);
  cv_.notify_all();
}

int ServerState::live_connections() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(connections_.size());
}

bool ServerState::WaitForConnections(int timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                      [&] { return connections_.empty(); });
}

bool ServerState::AcquireSlot() {
  if (sessions_.fetch_add(1) >= options_.max_connections) {
    sessions_.fetch_sub(1);
    return false;
  }
  return true;
}

void ServerState::ReleaseSlot() { sessions_.fetch_sub(1); }

void ServerState::CancelBackend(int32_t pid, int32_t secret) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Connection* c : connections_) {
    if (c->cancelable && c->pid() == pid && c->secret() == secret) {
      c->CancelStatement();
      return;
    }
  }
}

void ServerState::SetCancelable(Connection* c, bool cancelable) {
  std::lock_guard<std::mutex> lock(mu_);
  c->cancelable = cancelable;
}

void ServerState::InterruptAll(bool hard) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Connection* c : connections_) {
    if (c->cancelable) c->CancelStatement();
    c->Interrupt(hard);
  }
}

// ----------------------------------------------------------------------------
// Connection: socket I/O

Connection::Connection(ServerState* state, int fd, const IpAddress& peer)
    : state_(state), fd_(fd), peer_(peer) {
  in_cap_ = kReadChunk;
  in_.reset(new char[in_cap_]);
  out_.reserve(kInitialOutput);
  on_done_ = [this](const ExecuteResult& r) { OnStatementDone(r); };
}

Connection::~Connection() = default;

void Connection::CancelStatement() {
  if (session_) session_->Cancel();
}

void Connection::Interrupt(bool hard) {
  ::shutdown(fd_, hard ? SHUT_RDWR : SHUT_RD);
}

bool Connection::Fill(size_t need) {
  while (in_len_ - in_pos_ < need) {
    if (in_pos_ > 0) {
      std::memmove(in_.get(), in_.get() + in_pos_, in_len_ - in_pos_);
      in_len_ -= in_pos_;
      in_pos_ = 0;
    }
    if (in_len_ == in_cap_) {
      // Grow step by step as bytes arrive, never straight to a length the
      // client merely announced.
      size_t cap = std::min(std::max(in_cap_ * 2, need), in_cap_ + (64u << 20));
      std::unique_ptr<char[]> bigger(new char[cap]);
      std::memcpy(bigger.get(), in_.get(), in_len_);
      in_ = std::move(bigger);
      in_cap_ = cap;
    }
    ssize_t n = -1;
    if (RequestSpin::Begin(this)) {
      auto until = std::chrono::steady_clock::now() + RequestSpin::kSpin;
      do {
        n = ::recv(fd_, in_.get() + in_len_, in_cap_ - in_len_, MSG_DONTWAIT);
      } while (n < 0 && (errno == EAGAIN || errno == EINTR) &&
               std::chrono::steady_clock::now() < until);
      RequestSpin::End();
      if (n < 0 && errno == EAGAIN)
        n = ::recv(fd_, in_.get() + in_len_, in_cap_ - in_len_, 0);
    } else {
      n = ::recv(fd_, in_.get() + in_len_, in_cap_ - in_len_, 0);
    }
    if (n > 0) {
      RequestSpin::Heard(this);
      in_len_ += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;  // EOF, reset, shutdown or the startup timeout
  }
  return true;
}

void Connection::SendAll(const char* data, size_t n) {
  while (n > 0 && !broken_) {
    ssize_t w = ::send(fd_, data, n, MSG_NOSIGNAL);
    if (w > 0) {
      data += w;
      n -= static_cast<size_t>(w);
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else {
      // The client is gone: stop the running statement, stop writing.
      broken_ = true;
      closing_ = true;
      if (session_) session_->Cancel();
    }
  }
}

void Connection::Flush() {
  if (out_.empty()) return;
  SendAll(out_.data(), out_.size());
  out_.clear();
  if (out_.capacity() > kKeepBuffer) {
    std::string fresh;
    fresh.reserve(kInitialOutput);
    out_.swap(fresh);
  }
}

void Connection::SetReceiveTimeout(int seconds) {
  timeval tv{};
  tv.tv_sec = seconds;
  setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

bool Connection::ReadMessage(char* type, std::string* body, bool copy) {
  if (!Fill(5)) return false;
  char t = in_[in_pos_];
  uint32_t len = GetUint32(in_.get() + in_pos_ + 1);
  uint32_t limit = kSmallMessageLimit;
  switch (t) {
    case 'Q':
    case 'F':
    case 'B':
    case 'P':
    case 'd':
      limit = kLargeMessageLimit;
      break;
    case 'X':
    case 'C':
    case 'D':
    case 'E':
    case 'H':
    case 'S':
    case 'c':
    case 'f':
      break;
    default:
      if (!copy) {
        Fatal("08P01", "invalid frontend message type " +
                           std::to_string(static_cast<unsigned char>(t)));
        return false;
      }
  }
  if (!ReadBody(len, limit, body)) return false;
  *type = t;
  return true;
}

bool Connection::ReadBody(uint32_t len, size_t limit, std::string* body) {
  // The 5-byte header (type, length) is in the buffer; the length counts
  // itself but not the type byte.
  if (len < 4 || len - 4 > limit) {
    Fatal("08P01", "invalid message length");
    return false;
  }
  in_pos_ += 5;
  if (!Fill(len - 4)) return false;
  body->assign(in_.get() + in_pos_, len - 4);
  in_pos_ += len - 4;
  return true;
}

// ----------------------------------------------------------------------------
// Connection: errors and small messages

void Connection::SendError(const PgError& e, char type) {
  MessageWriter w(&out_);
  w.Begin(type);
  const std::string& severity = e.severity.empty() ? "ERROR" : e.severity;
  w.Int8('S');
  w.CString(severity);
  w.Int8('V');
  w.CString(severity);
  w.Int8('C');
  w.CString(e.sqlstate.empty() ? "XX000" : e.sqlstate);
  w.Int8('M');
  w.CString(e.message);
  if (!e.detail.empty()) {
    w.Int8('D');
    w.CString(e.detail);
  }
  if (!e.hint.empty()) {
    w.Int8('H');
    w.CString(e.hint);
  }
  if (e.position > 0) {
    w.Int8('P');
    w.CString(std::to_string(e.position));
  }
  if (!e.context.empty()) {
    w.Int8('W');
    w.CString(e.context);
  }
  w.Int8(0);
  w.End();
  MaybeFlush();
}

void Connection::SendErrorMsg(const char* sqlstate,
                              const std::string& message) {
  SendError(MakeError(sqlstate, message));
}

void Connection::Fatal(const char* sqlstate, const std::string& message) {
  if (fatal_sent_ || broken_) {
    closing_ = true;
    return;
  }
  SendError(MakeError(sqlstate, message, "FATAL"));
  Flush();
  fatal_sent_ = true;
  closing_ = true;
  broken_ = true;  // nothing more goes out after a FATAL
}

void Connection::ProtocolViolation(const char* message) {
  Fatal("08P01", message);
}

void Connection::WriteNotifications() {
  std::vector<planner::Notification> notes;
  session_->TakeNotifications(&notes);
  MessageWriter w(&out_);
  for (const auto& n : notes) {
    w.Begin('A');
    w.Int32(n.pid);
    w.CString(n.channel);
    w.CString(n.payload);
    w.End();
  }
}

void Connection::AwaitInputOrNotification(int notification_fd) {
  while (!closing_) {
    pollfd fds[2] = {{fd_, POLLIN, 0}, {notification_fd, POLLIN, 0}};
    int n = ::poll(fds, 2, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || fds[0].revents) return;  // input, EOF or an error: read it
    if (fds[1].revents) {
      WriteNotifications();
      Flush();
    }
  }
}

void Connection::ReadyForQuery() {
  if (session_->NotificationFd() >= 0) WriteNotifications();
  MessageWriter w(&out_);
  w.Begin('Z');
  w.Int8(static_cast<uint8_t>(session_->TransactionStatus()));
  w.End();
  Flush();
}

void Connection::ReportChanges() {
  auto changes = session_->TakeReportChanges();
  MessageWriter w(&out_);
  for (const auto& [name, value] : changes) {
    w.Begin('S');
    w.CString(name);
    w.CString(value);
    w.End();
  }
}

// ----------------------------------------------------------------------------
// Connection: startup and authentication

void Connection::Run() {
  if (Startup()) {
    state_->SetCancelable(this, true);
    // pg_terminate_backend: the blocked read ends, and the loop says why.
    session_->SetTerminateHook([this] {
      terminated_ = true;
      Interrupt(/*hard=*/false);
    });
    while (!closing_) {
      if (state_->stopping() || terminated_) {
        Fatal("57P01", "terminating connection due to administrator command");
        break;
      }
      char type;
      // A listening session, idle between transactions: notifications go
      // out while it waits for the client.
      if (in_len_ == in_pos_) {
        int notification_fd = session_->NotificationFd();
        if (notification_fd >= 0 && session_->TransactionStatus() == 'I')
          AwaitInputOrNotification(notification_fd);
      }
      if (!ReadMessage(&type, &msg_, false)) {
        if (state_->stopping() || terminated_)
          Fatal("57P01", "terminating connection due to administrator command");
        break;
      }
      if (ignore_till_sync_ && type != 'S' && type != 'X') continue;
      bool ok = true;
      switch (type) {
        case 'Q':
          HandleQuery(msg_);
          break;
        case 'P':
          ok = HandleParse(msg_);
          break;
        case 'B':
          ok = HandleBind(msg_);
          break;
        case 'D':
          ok = HandleDescribe(msg_);
          break;
        case 'E':
          ok = HandleExecute(msg_);
          break;
        case 'C':
          ok = HandleClose(msg_);
          break;
        case 'S':
          HandleSync();
          break;
        case 'H':
          Flush();
          break;
        case 'X':
          closing_ = true;
          break;
        case 'F':
          SendErrorMsg("0A000", "fastpath function calls are not supported");
          ReadyForQuery();
          break;
        default:  // CopyData/CopyDone/CopyFail outside COPY: ignored
          break;
      }
      if (!ok) ProtocolViolation("invalid message format");
      if (msg_.capacity() > kKeepBuffer) std::string().swap(msg_);
      if (in_cap_ > kKeepBuffer && in_len_ - in_pos_ <= kReadChunk) {
        std::unique_ptr<char[]> small(new char[kReadChunk]);
        std::memcpy(small.get(), in_.get() + in_pos_, in_len_ - in_pos_);
        in_len_ -= in_pos_;
        in_pos_ = 0;
        in_ = std::move(small);
        in_cap_ = kReadChunk;
      }
    }
    state_->SetCancelable(this, false);
    session_->SetTerminateHook(nullptr);
  }
  Flush();
  if (session_) session_->Terminate();
  DropAllPortals();
  unnamed_statement_.reset();
  statements_.clear();
  session_.reset();
  if (has_slot_) state_->ReleaseSlot();
  ::close(fd_);
  state_->Unregister(this);  // last: the server may now finish
}

bool Connection::Startup() {
  SetReceiveTimeout(state_->options().authentication_timeout_s);
  std::vector<std::pair<std::string, std::string>> startup;
  uint32_t code = 0;
  std::string_view payload;
  for (int round = 0;; round++) {
    if (!Fill(4)) return false;
    uint32_t len = GetUint32(in_.get() + in_pos_);
    if (len < 8 || len > kMaxStartupPacket) {
      Fatal("08P01", "invalid length of startup packet");
      return false;
    }
    if (!Fill(len)) return false;
    const char* p = in_.get() + in_pos_;
    code = GetUint32(p + 4);
    msg_.assign(p + 8, len - 8);
    in_pos_ += len;
    payload = msg_;
    if (code == kCancelRequestCode) {
      if (len == 16) {
        state_->CancelBackend(static_cast<int32_t>(GetUint32(p + 8)),
                              static_cast<int32_t>(GetUint32(p + 12)));
      }
      return false;  // no answer, as PostgreSQL
    }
    if ((code == kSslRequestCode || code == kGssEncRequestCode) && round < 2) {
      SendAll("N", 1);
      continue;
    }
    break;
  }
  uint32_t major = code >> 16, minor = code & 0xffff;
  if (major != 3) {
    Fatal("0A000", "unsupported frontend protocol " + std::to_string(major) +
                       "." + std::to_string(minor) +
                       ": server supports 3.0 to 3.0");
    return false;
  }
  MessageReader r(payload);
  std::string user, database;
  std::vector<std::string> unrecognized;
  bool has_database = false;
  for (;;) {
    std::string_view name, value;
    if (!r.CString(&name)) {
      Fatal("08P01",
            "invalid startup packet layout: expected terminator as last byte");
      return false;
    }
    if (name.empty()) break;
    if (!r.CString(&value)) {
      Fatal("08P01",
            "invalid startup packet layout: expected terminator as last byte");
      return false;
    }
    if (name == "user") {
      user = std::string(value);
    } else if (name == "database") {
      database = std::string(value);
      has_database = true;
      continue;
    } else if (name == "replication") {
      if (value == "false" || value == "off" || value == "no" || value == "0") {
        continue;
      }
      Fatal("0A000", "replication connections are not supported");
      return false;
    } else if (name.substr(0, 5) == "_pq_.") {
      unrecognized.emplace_back(name);
      continue;
    }
    startup.emplace_back(std::string(name), std::string(value));
  }
  if (!r.AtEnd()) {
    Fatal("08P01",
          "invalid startup packet layout: expected terminator as last byte");
    return false;
  }
  if (minor > 0 || !unrecognized.empty()) {
    MessageWriter w(&out_);
    w.Begin('v');
    w.Int32(static_cast<int32_t>(kProtocol30));  // as PG_PROTOCOL_LATEST
    w.Int32(static_cast<int32_t>(unrecognized.size()));
    for (const auto& o : unrecognized) w.CString(o);
    w.End();
  }
  if (user.empty()) {
    Fatal("28000", "no PostgreSQL user name specified in startup packet");
    return false;
  }
  if (!has_database || database.empty()) database = user;
  startup.emplace_back("database", database);
  user_ = user;

  if (state_->stopping()) {
    Fatal("57P03", "the database system is shutting down");
    return false;
  }
  if (!state_->AcquireSlot()) {
    Fatal("53300", "sorry, too many clients already");
    return false;
  }
  has_slot_ = true;

  if (!Authenticate(user, database)) return false;
  {
    MessageWriter w(&out_);
    w.Begin('R');
    w.Int32(0);  // AuthenticationOk
    w.End();
  }
  planner::RoleAuth role = state_->engine()->LookupRole(user);
  if (role.exists && !role.can_login) {
    Fatal("28000", "role " + Quoted(user) + " is not permitted to log in");
    return false;
  }
  PgError error;
  if (!state_->engine()->NewSession(startup, &session_, &error) || !session_) {
    if (error.sqlstate.empty()) error.sqlstate = "XX000";
    error.severity = "FATAL";
    SendError(error);
    Flush();
    fatal_sent_ = broken_ = closing_ = true;
    session_.reset();
    return false;
  }
  pid_ = session_->ProcessId();
  {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    int port = -1;
    if (getpeername(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      if (addr.ss_family == AF_INET)
        port = ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
      else if (addr.ss_family == AF_INET6)
        port = ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
    }
    session_->SetClientAddress(peer_.family ? peer_.ToString() : "", port);
  }
  RandomBytes(&secret_, sizeof secret_);
  MessageWriter w(&out_);
  for (const auto& [name, value] : session_->ReportedSettings()) {
    w.Begin('S');
    w.CString(name);
    w.CString(value);
    w.End();
  }
  session_->TakeReportChanges();  // all reported above
  w.Begin('K');
  w.Int32(pid_);
  w.Int32(secret_);
  w.End();
  SetReceiveTimeout(0);
  ReadyForQuery();
  return !broken_;
}

bool Connection::ReadPasswordPacket(std::string* body, const char* what) {
  Flush();
  if (!Fill(5)) return false;  // the client gave up (libpq asks, then redials)
  char t = in_[in_pos_];
  uint32_t len = GetUint32(in_.get() + in_pos_ + 1);
  if (t != 'p') {
    Fatal("08P01", std::string("expected ") + what +
                       " response, got message type " +
                       std::to_string(static_cast<unsigned char>(t)));
    return false;
  }
  return ReadBody(len, kMaxAuthPacket, body);
}

void Connection::AuthFailed(const std::string& user) {
  Fatal("28P01", "password authentication failed for user " + Quoted(user));
}

bool Connection::Authenticate(const std::string& user,
                              const std::string& database) {
  AuthMethod method = state_->default_method;
  if (state_->has_hba) {
    const HbaRule* rule = state_->hba().Match(database, user, peer_);
    if (!rule) {
      Fatal("28000", "no pg_hba.conf entry for host " +
                         Quoted(peer_.ToString()) + ", user " + Quoted(user) +
                         ", database " + Quoted(database) + ", no encryption");
      return false;
    }
    method = rule->method;
  }
  switch (method) {
    case AuthMethod::kTrust:
      return true;
    case AuthMethod::kReject:
      Fatal("28000", "pg_hba.conf rejects connection for host " +
                         Quoted(peer_.ToString()) + ", user " + Quoted(user) +
                         ", database " + Quoted(database) + ", no encryption");
      return false;
    case AuthMethod::kPassword: {
      MessageWriter w(&out_);
      w.Begin('R');
      w.Int32(3);  // AuthenticationCleartextPassword
      w.End();
      std::string body;
      if (!ReadPasswordPacket(&body, "password")) return false;
      MessageReader r(body);
      std::string_view password;
      if (!r.CString(&password) || !r.AtEnd()) {
        Fatal("08P01", "invalid password packet size");
        return false;
      }
      planner::RoleAuth role = state_->engine()->LookupRole(user);
      if (!role.exists ||
          !VerifyCleartextPassword(role.password, user, password)) {
        AuthFailed(user);
        return false;
      }
      return true;
    }
    case AuthMethod::kMd5: {
      planner::RoleAuth role = state_->engine()->LookupRole(user);
      ScramSecret scram;
      if (role.exists && ParseScramSecret(role.password, &scram)) {
        return RunScram(user, role);  // as PostgreSQL: md5 falls back
      }
      char salt[4];
      RandomBytes(salt, sizeof salt);
      MessageWriter w(&out_);
      w.Begin('R');
      w.Int32(5);  // AuthenticationMD5Password
      w.Bytes(std::string_view(salt, 4));
      w.End();
      std::string body;
      if (!ReadPasswordPacket(&body, "password")) return false;
      MessageReader r(body);
      std::string_view response;
      if (!r.CString(&response) || !r.AtEnd()) {
        Fatal("08P01", "invalid password packet size");
        return false;
      }
      bool ok = role.exists && role.password.size() == 35 &&
                role.password.compare(0, 3, "md5") == 0 &&
                response == Md5Response(role.password, salt);
      if (!ok) {
        AuthFailed(user);
        return false;
      }
      return true;
    }
    case AuthMethod::kScramSha256:
      return RunScram(user, state_->engine()->LookupRole(user));
  }
  return false;
}

bool Connection::RunScram(const std::string& user,
                          const planner::RoleAuth& role) {
  ScramSecret secret;
  bool mock = !(role.exists && ParseScramSecret(role.password, &secret));
  if (mock) secret = ScramExchange::MockSecret(user);
  ScramExchange exchange(secret, mock);
  MessageWriter w(&out_);
  w.Begin('R');
  w.Int32(10);  // AuthenticationSASL
  w.CString("SCRAM-SHA-256");
  w.Int8(0);
  w.End();
  std::string body;
  if (!ReadPasswordPacket(&body, "SASL")) return false;
  MessageReader r(body);
  std::string_view mechanism, data;
  int32_t len = 0;
  if (!r.CString(&mechanism) || !r.Int32(&len)) {
    Fatal("08P01", "invalid SASL initial response");
    return false;
  }
  if (mechanism != "SCRAM-SHA-256") {
    Fatal("08P01", "client selected an invalid SASL authentication mechanism");
    return false;
  }
  if (len < 0 || !r.Bytes(static_cast<size_t>(len), &data) || !r.AtEnd()) {
    Fatal("08P01", "malformed SCRAM message");
    return false;
  }
  std::string server_first, detail;
  if (!exchange.ClientFirst(data, &server_first, &detail)) {
    PgError e = MakeError("08P01", "malformed SCRAM message", "FATAL");
    e.detail = detail;
    SendError(e);
    Flush();
    fatal_sent_ = broken_ = closing_ = true;
    return false;
  }
  w.Begin('R');
  w.Int32(11);  // AuthenticationSASLContinue
  w.Bytes(server_first);
  w.End();
  if (!ReadPasswordPacket(&body, "SASL")) return false;
  std::string server_final;
  switch (exchange.ClientFinal(body, &server_final, &detail)) {
    case ScramExchange::Result::kOk:
      break;
    case ScramExchange::Result::kFailed:
      AuthFailed(user);
      return false;
    case ScramExchange::Result::kMalformed: {
      PgError e = MakeError("08P01", "malformed SCRAM message", "FATAL");
      e.detail = detail;
      SendError(e);
      Flush();
      fatal_sent_ = broken_ = closing_ = true;
      return false;
    }
  }
  w.Begin('R');
  w.Int32(12);  // AuthenticationSASLFinal
  w.Bytes(server_final);
  w.End();
  return true;
}

// ----------------------------------------------------------------------------
// Connection: simple query

void Connection::OnStatementDone(const ExecuteResult& r) {
  MessageWriter w(&out_);
  if (!r.ok) {
    if (state_->stopping() && r.error.sqlstate == "57014") {
      Fatal("57P01", "terminating connection due to administrator command");
      return;
    }
    SendError(r.error);
    MaybeFlush();
    return;
  }
  if (r.suspended) {
    w.Empty('s');
  } else if (r.empty_query) {
    w.Empty('I');
  } else {
    w.Begin('C');
    w.CString(r.command_tag);
    w.End();
  }
  MaybeFlush();
}

void Connection::HandleQuery(std::string_view body) {
  if (body.empty() || body.back() != '\0') {
    ProtocolViolation("invalid string in message");
    return;
  }
  std::string_view text = body.substr(0, body.size() - 1);
  if (text.find('\0') != std::string_view::npos) {
    ProtocolViolation("invalid message format");
    return;
  }
  extended_ = false;
  unnamed_portal_.portal.reset();
  unnamed_portal_.statement.reset();
  unnamed_statement_.reset();
  session_->SimpleQuery(text, this, on_done_);
  if (closing_) return;
  if (session_->TransactionStatus() == 'I') DropAllPortals();
  ReportChanges();
  ReadyForQuery();
}

// ----------------------------------------------------------------------------
// Connection: extended query

void Connection::ExtendedError(const PgError& e) {
  SendError(e);
  ignore_till_sync_ = true;
  // As PostgreSQL's send_message_to_frontend: an error goes out at once, so
  // a client that pipelines with Flush (and ignores its later messages
  // until Sync) sees it without waiting for a Sync.
  Flush();
}

bool Connection::HandleParse(std::string_view body) {
  MessageReader r(body);
  std::string_view name, query;
  int16_t n = 0;
  if (!r.CString(&name) || !r.CString(&query) || !r.Int16(&n) || n < 0)
    return false;
  param_types_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; i++) {
    int32_t t;
    if (!r.Int32(&t)) return false;
    param_types_[i] = static_cast<uint32_t>(t);
  }
  if (!r.AtEnd()) return false;
  extended_ = true;
  if (!name.empty()) {
    if (statements_.find(name) != statements_.end()) {
      ExtendedError(MakeError(
          "42P05", "prepared statement " + Quoted(name) + " already exists"));
      return true;
    }
  } else {
    unnamed_statement_.reset();
  }
  std::unique_ptr<planner::PreparedStatement> statement;
  PgError error;
  if (!session_->Parse(query, param_types_, &statement, &error) || !statement) {
    ExtendedError(error);
    return true;
  }
  if (name.empty()) {
    unnamed_statement_ = std::move(statement);
  } else {
    statements_.emplace(std::string(name), std::move(statement));
  }
  MessageWriter(&out_).Empty('1');
  return true;
}

namespace {

bool ReadFormats(MessageReader* r, std::vector<Format>* formats,
                 int* bad_code) {
  int16_t n;
  if (!r->Int16(&n) || n < 0) return false;
  formats->resize(static_cast<size_t>(n));
  for (int i = 0; i < n; i++) {
    int16_t f;
    if (!r->Int16(&f)) return false;
    if (f != 0 && f != 1 && *bad_code < 0) *bad_code = f;
    (*formats)[i] = static_cast<Format>(f);
  }
  return true;
}

}  // namespace

bool Connection::HandleBind(std::string_view body) {
  MessageReader r(body);
  std::string_view portal_name, statement_name;
  if (!r.CString(&portal_name) || !r.CString(&statement_name)) return false;
  int bad_param_format = -1, bad_result_format = -1;
  if (!ReadFormats(&r, &param_formats_, &bad_param_format)) return false;
  int16_t n;
  if (!r.Int16(&n) || n < 0) return false;
  if (params_.size() < static_cast<size_t>(n)) params_.resize(n);
  for (int i = 0; i < n; i++) {
    int32_t len;
    if (!r.Int32(&len)) return false;
    Datum& d = params_[i];
    if (len == -1) {
      d.null = true;
      d.bytes.clear();
      continue;
    }
    std::string_view v;
    if (len < 0 || !r.Bytes(static_cast<size_t>(len), &v)) return false;
    d.null = false;
    d.bytes.assign(v.data(), v.size());
  }
  // Keep the strings' capacity for the next Bind; trim the count.
  if (params_.size() > static_cast<size_t>(n)) {
    if (params_.size() > 64) {
      params_.resize(n);
    } else {
      params_.erase(params_.begin() + n, params_.end());
    }
  }
  if (!ReadFormats(&r, &result_formats_, &bad_result_format)) return false;
  if (!r.AtEnd()) return false;
  extended_ = true;

  const StatementPtr* found = nullptr;
  if (statement_name.empty()) {
    if (unnamed_statement_) found = &unnamed_statement_;
  } else {
    auto it = statements_.find(statement_name);
    if (it != statements_.end()) found = &it->second;
  }
  if (!found) {
    ExtendedError(MakeError(
        "26000", statement_name.empty()
                     ? std::string("unnamed prepared statement does not exist")
                     : "prepared statement " + Quoted(statement_name) +
                           " does not exist"));
    return true;
  }
  StatementPtr statement = *found;
  int nparams = n;
  int nformats = static_cast<int>(param_formats_.size());
  int expected = static_cast<int>(statement->param_types().size());
  if (nformats > 1 && nformats != nparams) {
    ExtendedError(
        MakeError("08P01", "bind message has " + std::to_string(nformats) +
                               " parameter formats but " +
                               std::to_string(nparams) + " parameters"));
    return true;
  }
  if (nparams != expected) {
    ExtendedError(
        MakeError("08P01", "bind message supplies " + std::to_string(nparams) +
                               " parameters, but prepared statement " +
                               Quoted(statement_name) + " requires " +
                               std::to_string(expected)));
    return true;
  }
  if (bad_param_format >= 0 || bad_result_format >= 0) {
    ExtendedError(MakeError(
        "22023",
        "unsupported format code: " + std::to_string(bad_param_format >= 0
                                                         ? bad_param_format
                                                         : bad_result_format)));
    return true;
  }
  int ncols = static_cast<int>(statement->columns().size());
  int nresults = static_cast<int>(result_formats_.size());
  if (nresults > 1 && nresults != ncols) {
    ExtendedError(MakeError("08P01", "bind message has " +
                                         std::to_string(nresults) +
                                         " result formats but query has " +
                                         std::to_string(ncols) + " columns"));
    return true;
  }
  PortalEntry* entry;
  if (portal_name.empty()) {
    unnamed_portal_.portal.reset();
    unnamed_portal_.statement.reset();
    entry = &unnamed_portal_;
  } else {
    if (portals_.find(portal_name) != portals_.end()) {
      ExtendedError(MakeError(
          "42P03", "portal " + Quoted(portal_name) + " already exists"));
      return true;
    }
    entry = nullptr;
  }
  std::unique_ptr<planner::Portal> portal;
  PgError error;
  if (!session_->Bind(*statement, params_, param_formats_, result_formats_,
                      &portal, &error) ||
      !portal) {
    ExtendedError(error);
    return true;
  }
  if (!entry) entry = &portals_[std::string(portal_name)];
  entry->statement = std::move(statement);
  entry->portal = std::move(portal);
  MessageWriter(&out_).Empty('2');
  return true;
}

void Connection::WriteRowDescription(const std::vector<ColumnDesc>& columns,
                                     const std::vector<Format>& formats) {
  MessageWriter w(&out_);
  w.Begin('T');
  w.Int16(static_cast<int16_t>(columns.size()));
  for (size_t i = 0; i < columns.size(); i++) {
    const ColumnDesc& c = columns[i];
    w.CString(c.name);
    w.Int32(static_cast<int32_t>(c.table_oid));
    w.Int16(c.column_number);
    w.Int32(static_cast<int32_t>(c.type_oid));
    w.Int16(c.type_size);
    w.Int32(c.type_modifier);
    Format f = Format::kText;
    if (formats.size() == columns.size()) {
      f = formats[i];
    } else if (formats.size() == 1) {
      f = formats[0];
    }
    w.Int16(static_cast<int16_t>(f));
  }
  w.End();
}

bool Connection::HandleDescribe(std::string_view body) {
  MessageReader r(body);
  uint8_t kind;
  std::string_view name;
  if (!r.Int8(&kind) || !r.CString(&name) || !r.AtEnd()) return false;
  extended_ = true;
  MessageWriter w(&out_);
  if (kind == 'S') {
    const StatementPtr* found = nullptr;
    if (name.empty()) {
      if (unnamed_statement_) found = &unnamed_statement_;
    } else {
      auto it = statements_.find(name);
      if (it != statements_.end()) found = &it->second;
    }
    if (!found) {
      ExtendedError(MakeError(
          "26000",
          name.empty()
              ? std::string("unnamed prepared statement does not exist")
              : "prepared statement " + Quoted(name) + " does not exist"));
      return true;
    }
    const auto& types = (*found)->param_types();
    w.Begin('t');
    w.Int16(static_cast<int16_t>(types.size()));
    for (uint32_t t : types) w.Int32(static_cast<int32_t>(t));
    w.End();
    const auto& columns = (*found)->columns();
    if (columns.empty()) {
      w.Empty('n');
    } else {
      static const std::vector<Format> kText;
      WriteRowDescription(columns, kText);
    }
    return true;
  }
  if (kind == 'P') {
    PortalEntry* entry = nullptr;
    if (name.empty()) {
      if (unnamed_portal_.portal) entry = &unnamed_portal_;
    } else {
      auto it = portals_.find(name);
      if (it != portals_.end()) entry = &it->second;
    }
    if (!entry) {
      ExtendedError(
          MakeError("34000", "portal " + Quoted(name) + " does not exist"));
      return true;
    }
    const auto& columns = entry->portal->columns();
    if (columns.empty()) {
      w.Empty('n');
    } else {
      WriteRowDescription(columns, entry->portal->result_formats());
    }
    return true;
  }
  ProtocolViolation(
      ("invalid DESCRIBE message subtype " + std::to_string(kind)).c_str());
  return true;
}

bool Connection::DeallocatePrepared(std::string_view name) {
  auto it = statements_.find(name);
  if (it == statements_.end()) return false;
  statements_.erase(it);
  return true;
}

void Connection::DeallocateAllPrepared() {
  // DEALLOCATE ALL / DISCARD ALL: one namespace with SQL PREPARE.
  statements_.clear();
}

bool Connection::HandleExecute(std::string_view body) {
  MessageReader r(body);
  std::string_view name;
  int32_t max_rows;
  if (!r.CString(&name) || !r.Int32(&max_rows) || !r.AtEnd()) return false;
  extended_ = true;
  PortalEntry* entry = nullptr;
  if (name.empty()) {
    if (unnamed_portal_.portal) entry = &unnamed_portal_;
  } else {
    auto it = portals_.find(name);
    if (it != portals_.end()) entry = &it->second;
  }
  if (!entry) {
    ExtendedError(
        MakeError("34000", "portal " + Quoted(name) + " does not exist"));
    return true;
  }
  char before = session_->TransactionStatus();
  ExecuteResult result =
      session_->Execute(entry->portal.get(), max_rows > 0 ? max_rows : 0, this);
  if (closing_) return true;
  OnStatementDone(result);
  if (!result.ok) {
    ignore_till_sync_ = true;
    Flush();  // see ExtendedError
  }
  if (before != 'I' && session_->TransactionStatus() == 'I') DropAllPortals();
  return true;
}

bool Connection::HandleClose(std::string_view body) {
  MessageReader r(body);
  uint8_t kind;
  std::string_view name;
  if (!r.Int8(&kind) || !r.CString(&name) || !r.AtEnd()) return false;
  extended_ = true;
  if (kind == 'S') {
    if (name.empty()) {
      unnamed_statement_.reset();
    } else {
      auto it = statements_.find(name);
      if (it != statements_.end()) statements_.erase(it);
    }
  } else if (kind == 'P') {
    if (name.empty()) {
      unnamed_portal_.portal.reset();
      unnamed_portal_.statement.reset();
    } else {
      auto it = portals_.find(name);
      if (it != portals_.end()) portals_.erase(it);
    }
  } else {
    ProtocolViolation(
        ("invalid CLOSE message subtype " + std::to_string(kind)).c_str());
    return true;
  }
  MessageWriter(&out_).Empty('3');
  return true;
}

void Connection::HandleSync() {
  ignore_till_sync_ = false;
  PgError error;
  if (!session_->Sync(&error)) SendError(error);
  if (session_->TransactionStatus() == 'I') DropAllPortals();
  ReportChanges();
  ReadyForQuery();
}

void Connection::DropAllPortals() {
  unnamed_portal_.portal.reset();
  unnamed_portal_.statement.reset();
  portals_.clear();
}

// ----------------------------------------------------------------------------
// Connection: ResultSink

void Connection::RowDescription(const std::vector<ColumnDesc>& columns,
                                const std::vector<Format>& formats) {
  if (!extended_) WriteRowDescription(columns, formats);
}

void Connection::DataRow(const std::vector<Datum>& values) {
  MessageWriter w(&out_);
  w.Begin('D');
  w.Int16(static_cast<int16_t>(values.size()));
  for (const Datum& d : values) {
    if (d.null) {
      w.Int32(-1);
    } else {
      w.Int32(static_cast<int32_t>(d.bytes.size()));
      w.Bytes(d.bytes);
    }
  }
  w.End();
  MaybeFlush();
}

void Connection::Notice(const PgError& notice) {
  PgError n = notice;
  if (n.severity.empty() || n.severity == "ERROR") n.severity = "NOTICE";
  SendError(n, 'N');
}

void Connection::BeginCopyIn(Format format, int columns) {
  MessageWriter w(&out_);
  w.Begin('G');
  w.Int8(static_cast<uint8_t>(format));
  w.Int16(static_cast<int16_t>(columns));
  for (int i = 0; i < columns; i++) w.Int16(static_cast<int16_t>(format));
  w.End();
  Flush();
}

planner::ResultSink::CopyRead Connection::ReadCopyData(std::string* data) {
  Flush();
  for (;;) {
    char type;
    if (closing_ || !ReadMessage(&type, data, true)) {
      closing_ = true;
      *data = "unexpected EOF on client connection with an open transaction";
      return CopyRead::kFail;
    }
    switch (type) {
      case 'd':
        return CopyRead::kData;
      case 'c':
        return CopyRead::kDone;
      case 'f': {
        size_t nul = data->find('\0');
        if (nul != std::string::npos) data->resize(nul);
        return CopyRead::kFail;
      }
      case 'H':
      case 'S':
        continue;  // ignored during COPY IN, as PostgreSQL does
      default: {
        char buf[80];
        std::snprintf(buf, sizeof buf,
                      "unexpected message type 0x%02X during COPY from stdin",
                      static_cast<unsigned char>(type));
        *data = buf;
        return CopyRead::kFail;
      }
    }
  }
}

void Connection::BeginCopyOut(Format format, int columns) {
  MessageWriter w(&out_);
  w.Begin('H');
  w.Int8(static_cast<uint8_t>(format));
  w.Int16(static_cast<int16_t>(columns));
  for (int i = 0; i < columns; i++) w.Int16(static_cast<int16_t>(format));
  w.End();
}

void Connection::CopyOutData(std::string_view data) {
  MessageWriter w(&out_);
  w.Begin('d');
  w.Bytes(data);
  w.End();
  MaybeFlush();
}

void Connection::EndCopyOut() { MessageWriter(&out_).Empty('c'); }

}  // namespace kova::wire
