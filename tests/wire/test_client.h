// Test helpers for the wire tests: a `kova serve` child process on a free
// loopback port with a temporary data directory, and a raw protocol v3
// client for the flows libpq cannot produce (row-limited portals, errors
// before Sync, malformed bytes).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace kova::wire::testing {

inline std::string MakeTempDir() {
  std::string tmpl = "/tmp/kova-wire-XXXXXX";
  char* dir = mkdtemp(tmpl.data());
  return dir ? std::string(dir) : std::string();
}

inline int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  int port = ntohs(a.sin_port);
  close(fd);
  return port;
}

inline int ConnectTcp(int port, int timeout_ms = 2000) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  (void)timeout_ms;
  return fd;
}

// A `kova serve` child process.
class KovaServer {
 public:
  explicit KovaServer(std::vector<std::string> extra_args = {},
                      std::string data_dir = "")
      : extra_(std::move(extra_args)), data_(std::move(data_dir)) {
    if (data_.empty()) {
      root_ = MakeTempDir();
      data_ = root_ + "/data";
    }
  }
  ~KovaServer() {
    if (pid_ > 0) Stop();
    if (!root_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(root_, ec);
    }
  }

  // Use a server that is already running (e.g. a real PostgreSQL 15, to
  // check the tests' expectations against it) instead of starting one.
  void UseExternal(int port) {
    port_ = port;
    external_ = true;
  }
  bool external() const { return external_; }

  bool Start() {
    port_ = FreePort();
    log_ = (root_.empty() ? std::string("/tmp") : root_) + "/kova-" +
           std::to_string(port_) + ".log";
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      std::vector<std::string> args = {"kova", "serve",  "--data",
                                       data_,  "--port", std::to_string(port_)};
      args.insert(args.end(), extra_.begin(), extra_.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
#ifdef KOVA_BINARY
      execv(KOVA_BINARY, argv.data());
#endif
      _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      int fd = ConnectTcp(port_);
      if (fd >= 0) {
        close(fd);
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // SIGTERM and wait; the exit code, or -1 when it had to be killed.
  int Stop(int timeout_ms = 15000) {
    if (external_) return 0;
    if (pid_ <= 0) return -2;
    kill(pid_, SIGTERM);
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(timeout_ms);
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return -1;
  }

  bool Alive() const {
    if (external_) return true;
    if (pid_ <= 0) return false;
    int status;
    return waitpid(pid_, &status, WNOHANG) == 0;
  }

  std::string ConnStr(const std::string& user = "postgres",
                      const std::string& extra = "") const {
    return "host=127.0.0.1 port=" + std::to_string(port_) + " user=" + user +
           " dbname=postgres connect_timeout=10 sslmode=disable " + extra;
  }

  std::string Log() const {
    std::ifstream in(log_);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& data() const { return data_; }

 private:
  std::vector<std::string> extra_;
  std::string root_, data_, log_;
  int port_ = 0;
  pid_t pid_ = -1;
  bool external_ = false;
};

struct Msg {
  char type = 0;
  std::string body;
};

inline void PutInt16(std::string* s, int16_t v) {
  s->push_back(static_cast<char>((v >> 8) & 0xff));
  s->push_back(static_cast<char>(v & 0xff));
}
inline void PutInt32(std::string* s, int32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    s->push_back(static_cast<char>((static_cast<uint32_t>(v) >> shift) & 0xff));
}
inline void PutStr(std::string* s, std::string_view v) {
  s->append(v.data(), v.size());
  s->push_back('\0');
}
inline int32_t GetInt32(std::string_view s, size_t at) {
  const auto* u = reinterpret_cast<const unsigned char*>(s.data() + at);
  return static_cast<int32_t>((uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) |
                              (uint32_t{u[2]} << 8) | uint32_t{u[3]});
}

// A field of an ErrorResponse/NoticeResponse body ('C', 'M', 'S', ...).
inline std::string ErrorField(const std::string& body, char field) {
  size_t i = 0;
  while (i < body.size() && body[i] != '\0') {
    char f = body[i++];
    size_t end = body.find('\0', i);
    if (end == std::string::npos) break;
    if (f == field) return body.substr(i, end - i);
    i = end + 1;
  }
  return "";
}

inline std::string Types(const std::vector<Msg>& msgs) {
  std::string t;
  for (const auto& m : msgs) t.push_back(m.type);
  return t;
}

class RawClient {
 public:
  RawClient() = default;
  ~RawClient() { Close(); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool Connect(int port) {
    fd_ = ConnectTcp(port);
    return fd_ >= 0;
  }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }
  int fd() const { return fd_; }

  bool SendBytes(std::string_view bytes) {
    size_t off = 0;
    while (off < bytes.size()) {
      ssize_t n =
          send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return true;
  }
  static std::string Frame(char type, std::string_view payload) {
    std::string m(1, type);
    PutInt32(&m, static_cast<int32_t>(payload.size() + 4));
    m.append(payload.data(), payload.size());
    return m;
  }
  bool Send(char type, std::string_view payload) {
    return SendBytes(Frame(type, payload));
  }
  static std::string StartupPacket(
      const std::vector<std::pair<std::string, std::string>>& params,
      uint32_t version = 196608) {
    std::string body;
    PutInt32(&body, static_cast<int32_t>(version));
    for (const auto& [k, v] : params) {
      PutStr(&body, k);
      PutStr(&body, v);
    }
    body.push_back('\0');
    std::string m;
    PutInt32(&m, static_cast<int32_t>(body.size() + 4));
    return m + body;
  }
  bool SendStartup(
      const std::vector<std::pair<std::string, std::string>>& params,
      uint32_t version = 196608) {
    return SendBytes(StartupPacket(params, version));
  }

  // Reads exactly n bytes; false on EOF, error or timeout.
  bool ReadExact(char* out, size_t n, int timeout_ms) {
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(timeout_ms);
    size_t got = 0;
    while (got < n) {
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(
              deadline - std::chrono::steady_clock::now())
              .count());
      if (left <= 0) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, left) <= 0) return false;
      ssize_t r = recv(fd_, out + got, n - got, 0);
      if (r <= 0) return false;
      got += static_cast<size_t>(r);
    }
    return true;
  }
  bool Read(Msg* m, int timeout_ms = 10000) {
    char header[5];
    if (!ReadExact(header, 5, timeout_ms)) return false;
    m->type = header[0];
    int32_t len = GetInt32(std::string_view(header, 5), 1);
    if (len < 4 || len > (64 << 20)) return false;
    m->body.resize(static_cast<size_t>(len - 4));
    return ReadExact(m->body.data(), m->body.size(), timeout_ms);
  }
  // Messages up to and including ReadyForQuery (or until EOF/timeout).
  std::vector<Msg> UntilReady(int timeout_ms = 10000) {
    std::vector<Msg> out;
    Msg m;
    while (Read(&m, timeout_ms)) {
      out.push_back(m);
      if (m.type == 'Z') break;
    }
    return out;
  }
  // True when the server closed the connection (EOF) within the timeout.
  bool ClosedByServer(int timeout_ms = 5000) {
    char buf[4096];
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(timeout_ms);
    for (;;) {
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(
              deadline - std::chrono::steady_clock::now())
              .count());
      if (left <= 0) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, left) <= 0) return false;
      ssize_t r = recv(fd_, buf, sizeof buf, 0);
      if (r <= 0) return true;
    }
  }

  // Connects and logs in with trust; the startup messages.
  std::vector<Msg> Login(int port, const std::string& user = "postgres",
                         const std::string& database = "postgres") {
    if (!Connect(port)) return {};
    SendStartup({{"user", user}, {"database", database}});
    return UntilReady();
  }

  // Frontend messages.
  static std::string Query(std::string_view sql) {
    std::string p;
    PutStr(&p, sql);
    return Frame('Q', p);
  }
  static std::string Parse(std::string_view name, std::string_view sql,
                           const std::vector<int32_t>& types = {}) {
    std::string p;
    PutStr(&p, name);
    PutStr(&p, sql);
    PutInt16(&p, static_cast<int16_t>(types.size()));
    for (int32_t t : types) PutInt32(&p, t);
    return Frame('P', p);
  }
  static std::string Bind(std::string_view portal, std::string_view statement,
                          const std::vector<std::string>& text_params = {},
                          const std::vector<int16_t>& result_formats = {}) {
    std::string p;
    PutStr(&p, portal);
    PutStr(&p, statement);
    PutInt16(&p, 0);
    PutInt16(&p, static_cast<int16_t>(text_params.size()));
    for (const auto& v : text_params) {
      PutInt32(&p, static_cast<int32_t>(v.size()));
      p += v;
    }
    PutInt16(&p, static_cast<int16_t>(result_formats.size()));
    for (int16_t f : result_formats) PutInt16(&p, f);
    return Frame('B', p);
  }
  static std::string Describe(char kind, std::string_view name) {
    std::string p(1, kind);
    PutStr(&p, name);
    return Frame('D', p);
  }
  static std::string Execute(std::string_view portal, int32_t max_rows = 0) {
    std::string p;
    PutStr(&p, portal);
    PutInt32(&p, max_rows);
    return Frame('E', p);
  }
  static std::string Close(char kind, std::string_view name) {
    std::string p(1, kind);
    PutStr(&p, name);
    return Frame('C', p);
  }
  static std::string Sync() { return Frame('S', ""); }
  static std::string Flush() { return Frame('H', ""); }
  static std::string Terminate() { return Frame('X', ""); }

 private:
  int fd_ = -1;
};

// VmRSS of a process in KiB (0 when unknown).
inline long RssKiB(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

}  // namespace kova::wire::testing
