// The protocol floor: a server that answers PostgreSQL v3 messages with the
// shortest valid replies and does no work at all, built the way kova serve
// is (a thread per connection, blocking buffered socket I/O, one send per
// Sync). pgbench against it measures the round-trip rate of this machine's
// kernel and clients alone: no server that sleeps between requests, as
// Kova and PostgreSQL do, can answer a request-per-round-trip workload
// faster. bench/sql/run reports it beside the workloads whose goals sit
// near it.
//
//   floor_server PORT
//
// Every statement, simple or extended, returns one row of one int8 column
// "floor" with the value 1; Describe returns that row description.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

void PutInt32(std::string* out, uint32_t v) {
  v = htonl(v);
  out->append(reinterpret_cast<const char*>(&v), 4);
}

void PutInt16(std::string* out, uint16_t v) {
  v = htons(v);
  out->append(reinterpret_cast<const char*>(&v), 2);
}

// Appends message `type` with `body`.
void Message(std::string* out, char type, const std::string& body) {
  out->push_back(type);
  PutInt32(out, static_cast<uint32_t>(body.size() + 4));
  out->append(body);
}

std::string RowDescription() {
  std::string b;
  PutInt16(&b, 1);
  b.append("floor");
  b.push_back('\0');
  PutInt32(&b, 0);   // table oid
  PutInt16(&b, 0);   // column number
  PutInt32(&b, 20);  // int8
  PutInt16(&b, 8);
  PutInt32(&b, static_cast<uint32_t>(-1));
  PutInt16(&b, 0);  // text
  return b;
}

std::string DataRow() {
  std::string b;
  PutInt16(&b, 1);
  PutInt32(&b, 1);
  b.push_back('1');
  return b;
}

std::string CString(const char* s) { return std::string(s) + '\0'; }

class Connection {
 public:
  explicit Connection(int fd) : fd_(fd) {}
  ~Connection() { close(fd_); }

  void Run() {
    if (!Startup()) return;
    for (;;) {
      if (!Fill(5)) return;
      char type = buf_[pos_];
      uint32_t len;
      std::memcpy(&len, buf_.data() + pos_ + 1, 4);
      len = ntohl(len);
      if (len < 4 || !Fill(1 + len)) return;
      pos_ += 1 + len;
      switch (type) {
        case 'P':
          Message(&out_, '1', "");
          break;
        case 'B':
          Message(&out_, '2', "");
          break;
        case 'D':
          Message(&out_, 'T', RowDescription());
          break;
        case 'E':
          Message(&out_, 'D', DataRow());
          Message(&out_, 'C', CString("SELECT 1"));
          break;
        case 'C':
          Message(&out_, '3', "");
          break;
        case 'S':
          Ready();
          break;
        case 'Q':
          Message(&out_, 'T', RowDescription());
          Message(&out_, 'D', DataRow());
          Message(&out_, 'C', CString("SELECT 1"));
          Ready();
          break;
        case 'X':
          return;
        default:
          break;
      }
    }
  }

 private:
  bool Startup() {
    for (;;) {
      if (!Fill(8)) return false;
      uint32_t len, code;
      std::memcpy(&len, buf_.data() + pos_, 4);
      std::memcpy(&code, buf_.data() + pos_ + 4, 4);
      len = ntohl(len);
      code = ntohl(code);
      if (len < 8 || !Fill(len)) return false;
      pos_ += len;
      if (code == 80877103 || code == 80877104) {  // SSL / GSS request
        if (send(fd_, "N", 1, MSG_NOSIGNAL) != 1) return false;
        continue;
      }
      std::string auth;
      PutInt32(&auth, 0);
      Message(&out_, 'R', auth);
      const char* params[][2] = {
          {"server_version", "15.0"},  {"server_encoding", "UTF8"},
          {"client_encoding", "UTF8"}, {"DateStyle", "ISO, MDY"},
          {"integer_datetimes", "on"}, {"standard_conforming_strings", "on"},
          {"TimeZone", "UTC"}};
      for (const auto& p : params)
        Message(&out_, 'S', CString(p[0]) + CString(p[1]));
      std::string key;
      PutInt32(&key, 1);
      PutInt32(&key, 1);
      Message(&out_, 'K', key);
      Ready();
      return true;
    }
  }

  void Ready() {
    Message(&out_, 'Z', "I");
    size_t done = 0;
    while (done < out_.size()) {
      ssize_t n =
          send(fd_, out_.data() + done, out_.size() - done, MSG_NOSIGNAL);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    out_.clear();
  }

  bool Fill(size_t need) {
    while (buf_.size() - pos_ < need) {
      if (pos_ > 0) {
        buf_.erase(0, pos_);
        pos_ = 0;
      }
      char chunk[8192];
      ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buf_.append(chunk, static_cast<size_t>(n));
    }
    return true;
  }

  int fd_;
  std::string buf_;
  size_t pos_ = 0;
  std::string out_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: floor_server PORT\n");
    return 2;
  }
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(std::atoi(argv[1])));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listener, 128) != 0) {
    std::perror("floor_server");
    return 1;
  }
  for (;;) {
    int fd = accept(listener, nullptr, nullptr);
    if (fd < 0) continue;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::thread([fd] { Connection(fd).Run(); }).detach();
  }
}
