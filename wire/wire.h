// The PostgreSQL protocol v3 server: sockets, message codec, startup and
// authentication (trust, reject, password, md5, scram-sha-256 chosen per
// host as pg_hba does), simple and extended query, COPY, cancel.
//
// Model: one acceptor thread (Boost.Asio) and one thread per connection with
// blocking, buffered socket I/O. The wire layer knows nothing of SQL; every
// statement goes to a planner::Session.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "planner/planner.h"

namespace kova::wire {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 5432;  // 0: pick a free port (see Server::port)
  // Connections with a session; more get FATAL 53300.
  int max_connections = 256;
  // A pg_hba-like file (`host DATABASE USER ADDRESS METHOD` per line).
  // Empty: `default_auth` for every connection.
  std::string hba_file;
  // trust, reject, password, md5 or scram-sha-256.
  std::string default_auth = "trust";
  // Stack of each connection thread (virtual; only touched pages count).
  size_t thread_stack_size = 8 << 20;
  // A client must finish startup and authentication within this time.
  int authentication_timeout_s = 60;
};

class Server {
 public:
  // Binds and listens. Returns nullptr and fills *error on failure (bad
  // address, port in use, unreadable or invalid hba file, bad method).
  static std::unique_ptr<Server> Start(planner::Engine* engine,
                                       const ServerOptions& options,
                                       std::string* error);
  virtual ~Server() = default;

  // The port listened on (useful with port 0) and the bound address.
  virtual int port() const = 0;
  virtual std::string address() const = 0;

  // Accepts connections until Shutdown; returns when every connection
  // thread has ended (so the engine may then be destroyed).
  virtual void Run() = 0;

  // Stops accepting, cancels running statements, terminates every session
  // (open transactions roll back) and closes the sockets. Thread-safe; not
  // async-signal-safe (call it from a thread that waited for the signal).
  virtual void Shutdown() = 0;
};

}  // namespace kova::wire
