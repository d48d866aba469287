// The listening side: a Boost.Asio acceptor, one detached thread per
// connection (small stack), shutdown and cancel bookkeeping.
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstring>
#include <thread>

#include "wire/connection.h"
#include "wire/protocol.h"
#include "wire/wire.h"

namespace kova::wire {

namespace {

namespace ip = boost::asio::ip;

// Connection threads beyond max_connections (for CancelRequests and for
// refusing with 53300); past this an accepted socket is refused at once.
constexpr int kExtraThreads = 64;

void* ConnectionThread(void* arg) {
  auto* connection = static_cast<Connection*>(arg);
  connection->Run();
  delete connection;
  return nullptr;
}

IpAddress PeerOf(const sockaddr_storage& ss) {
  IpAddress a;
  if (ss.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&ss);
    a.family = AF_INET;
    std::memcpy(a.bytes, &in->sin_addr, 4);
  } else if (ss.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&ss);
    a.family = AF_INET6;
    std::memcpy(a.bytes, &in6->sin6_addr, 16);
    static const uint8_t kMapped[12] = {0, 0, 0, 0, 0,    0,
                                        0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(a.bytes, kMapped, 12) == 0) {
      std::memmove(a.bytes, a.bytes + 12, 4);
      std::memset(a.bytes + 4, 0, 12);
      a.family = AF_INET;
    }
  }
  return a;
}

// Refuses a socket without reading from it (used only past the thread cap).
void RefuseNow(int fd) {
  std::string out;
  MessageWriter w(&out);
  w.Begin('E');
  for (auto [code, value] : {std::pair<char, const char*>{'S', "FATAL"},
                             {'V', "FATAL"},
                             {'C', "53300"},
                             {'M', "sorry, too many clients already"}}) {
    w.Int8(static_cast<uint8_t>(code));
    w.CString(value);
  }
  w.Int8(0);
  w.End();
  (void)!::send(fd, out.data(), out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::close(fd);
}

class ServerImpl : public Server {
 public:
  bool Init(planner::Engine* engine, const ServerOptions& options,
            std::string* error) {
    state_ = std::make_unique<ServerState>(engine, options);
    if (!ParseAuthMethod(options.default_auth, &state_->default_method)) {
      *error = "unknown authentication method \"" + options.default_auth +
               "\" (trust, reject, password, md5, scram-sha-256)";
      return false;
    }
    if (!options.hba_file.empty()) {
      if (!state_->hba().Load(options.hba_file, error)) return false;
      state_->has_hba = true;
    }
    if (options.max_connections < 1) {
      *error = "max_connections must be at least 1";
      return false;
    }
    boost::system::error_code ec;
    std::string host = options.host;
    if (host == "*" || host.empty()) host = "0.0.0.0";
    ip::tcp::resolver resolver(io_);
    auto results = resolver.resolve(
        host, std::to_string(options.port),
        ip::tcp::resolver::passive | ip::tcp::resolver::numeric_service, ec);
    if (ec || results.empty()) {
      *error = "could not resolve \"" + options.host +
               "\": " + (ec ? ec.message() : "no address");
      return false;
    }
    ip::tcp::endpoint endpoint = results.begin()->endpoint();
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(ip::tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(1024, ec);
    if (ec) {
      *error = "could not listen on " + endpoint.address().to_string() + ":" +
               std::to_string(options.port) + ": " + ec.message();
      return false;
    }
    auto local = acceptor_.local_endpoint(ec);
    port_ = local.port();
    address_ = local.address().to_string();
    return true;
  }

  int port() const override { return port_; }
  std::string address() const override { return address_; }

  void Run() override {
    const ServerOptions& options = state_->options();
    int listen_fd = acceptor_.native_handle();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(
        &attr, std::max<size_t>(options.thread_stack_size, 64 * 1024));
    while (!state_->stopping()) {
      sockaddr_storage ss{};
      socklen_t len = sizeof ss;
      int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&ss), &len,
                         SOCK_CLOEXEC);
      if (fd < 0) {
        if (state_->stopping()) break;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
            errno == ENOMEM) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        continue;
      }
      if (state_->stopping()) {
        ::close(fd);
        break;
      }
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
      if (state_->live_connections() >=
          options.max_connections + kExtraThreads) {
        RefuseNow(fd);
        continue;
      }
      auto* connection = new Connection(state_.get(), fd, PeerOf(ss));
      if (!state_->Register(connection)) {
        delete connection;
        ::close(fd);
        break;
      }
      pthread_t tid;
      if (pthread_create(&tid, &attr, ConnectionThread, connection) != 0) {
        state_->Unregister(connection);
        delete connection;
        RefuseNow(fd);
      }
    }
    pthread_attr_destroy(&attr);
    boost::system::error_code ec;
    acceptor_.close(ec);
    // Ask every connection to end; be firmer with those that do not.
    state_->InterruptAll(false);
    if (!state_->WaitForConnections(3000)) {
      while (!state_->WaitForConnections(1000)) state_->InterruptAll(true);
    }
  }

  void Shutdown() override {
    state_->BeginStopping();
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);  // wakes accept4
  }

 private:
  boost::asio::io_context io_;
  ip::tcp::acceptor acceptor_{io_};
  std::unique_ptr<ServerState> state_;
  int port_ = 0;
  std::string address_;
};

}  // namespace

std::unique_ptr<Server> Server::Start(planner::Engine* engine,
                                      const ServerOptions& options,
                                      std::string* error) {
  auto server = std::make_unique<ServerImpl>();
  if (!server->Init(engine, options, error)) return nullptr;
  return server;
}

}  // namespace kova::wire
