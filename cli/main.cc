// The kova binary: `command`, `counters`, `serve` and `restore`.
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "cli/restore.h"
#include "docstore/docstore.h"
#include "planner/planner.h"
#include "wire/wire.h"

namespace {

using kova::docstore::Document;
using kova::docstore::JsonMode;
using kova::docstore::Session;
using kova::docstore::Status;
using kova::docstore::Store;
using kova::docstore::StoreOptions;

constexpr const char* kUsage = R"(usage:
  kova command [--data DIR] [--db NAME] [--canonical] JSON|-
      Runs one document command (MongoDB-shaped: create, insert, find,
      update, delete, drop, createIndexes, dropIndexes, listCollections,
      listIndexes, collMod) and prints the reply as Extended JSON, relaxed
      by default, canonical with --canonical. JSON "-" reads standard input.
  kova counters [--data DIR] [--db NAME] [--canonical]
      Lists the rows of admin.counters (of one database with --db).
  kova serve [--data DIR] [--host ADDR] [--port N] [--max-connections N]
             [--hba FILE] [--auth METHOD] [-c NAME=VALUE]...
             [--synchronous-commit on|off]
      The PostgreSQL protocol server (default 127.0.0.1:5432). --hba names a
      pg_hba-like file (`host DATABASE USER ADDRESS METHOD` per line);
      without it every connection uses --auth (default trust). Methods:
      trust, reject, password, md5, scram-sha-256. -c sets a setting's
      default for every session, as postgres -c does (e.g. -c
      synchronous_commit=off: commits return before their fsync).
      SIGTERM/SIGINT stop it.
  kova restore [--data DIR] --db NAME [--on-error stop|continue] FILE|-
      Restores a pg_dump file (plain SQL, custom, directory or tar) in this
      process; see kova restore --help.

  --data DIR   data directory (default: $KOVA_DATA, else ./kova-data);
               created on first use
  --db NAME    database (default: test for command)
)";

struct Args {
  std::string data;
  std::string db;
  bool canonical = false;
  bool nosync = false;
  std::vector<std::string> positional;
};

bool ParseArgs(int argc, char** argv, int first, Args* args) {
  const char* env = std::getenv("KOVA_DATA");
  args->data = env && *env ? env : "kova-data";
  for (int i = first; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    if (a == "--data" || a == "-D") {
      if (!value(&args->data)) return false;
    } else if (a.rfind("--data=", 0) == 0) {
      args->data = a.substr(7);
    } else if (a == "--db" || a == "-d") {
      if (!value(&args->db)) return false;
    } else if (a.rfind("--db=", 0) == 0) {
      args->db = a.substr(5);
    } else if (a == "--canonical") {
      args->canonical = true;
    } else if (a == "--relaxed") {
      args->canonical = false;
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::cerr << "kova: unknown option " << a << "\n";
      return false;
    } else {
      args->positional.push_back(a);
    }
  }
  return true;
}

int OpenSession(const Args& args, std::unique_ptr<Store>* store,
                std::unique_ptr<Session>* session) {
  Status s = Store::Open(args.data, StoreOptions{}, store);
  if (s.ok()) s = (*store)->NewSession(session);
  if (!s.ok()) {
    std::cerr << "kova: " << s.message() << "\n";
    return 3;
  }
  return 0;
}

// 0 when the reply is ok and has no writeErrors.
int ExitCodeOf(const Document& reply) {
  bson_iter_t it;
  if (!bson_iter_init_find(&it, reply.bson(), "ok") ||
      bson_iter_as_double(&it) != 1.0)
    return 1;
  if (bson_iter_init_find(&it, reply.bson(), "writeErrors")) return 1;
  return 0;
}

int RunCommand(const Args& args) {
  if (args.positional.size() != 1) {
    std::cerr << kUsage;
    return 2;
  }
  std::string json = args.positional[0];
  if (json == "-") {
    json.assign(std::istreambuf_iterator<char>(std::cin),
                std::istreambuf_iterator<char>());
  }
  std::unique_ptr<Store> store;
  std::unique_ptr<Session> session;
  if (int rc = OpenSession(args, &store, &session)) return rc;
  JsonMode mode = args.canonical ? JsonMode::kCanonical : JsonMode::kRelaxed;
  std::string db = args.db.empty() ? "test" : args.db;
  Document command;
  Status s = Document::FromJson(json, &command);
  if (!s.ok()) {
    // Invalid JSON gets the same reply shape as any failed command.
    std::cout << session->RunCommandJson(db, json, mode) << "\n";
    return 1;
  }
  Document reply = session->RunCommand(db, command.bson());
  std::cout << reply.ToJson(mode) << "\n";
  return ExitCodeOf(reply);
}

int ListCounters(const Args& args) {
  if (!args.positional.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  std::unique_ptr<Store> store;
  std::unique_ptr<Session> session;
  if (int rc = OpenSession(args, &store, &session)) return rc;
  bson_t* filter = bson_new();
  if (!args.db.empty()) {
    // Rows whose _id starts with "db." (the counters of that database).
    bson_t range;
    std::string lo = args.db + ".", hi = args.db + "/";  // '/' follows '.'
    bson_append_document_begin(filter, "_id", 3, &range);
    bson_append_utf8(&range, "$gte", 4, lo.c_str(), -1);
    bson_append_utf8(&range, "$lt", 3, hi.c_str(), -1);
    bson_append_document_end(filter, &range);
  }
  bson_t* sort = BCON_NEW("_id", BCON_INT32(1));
  kova::docstore::FindOptions options;
  options.sort = sort;
  std::vector<Document> rows;
  Status s = session->Find(kova::docstore::kAdminDb,
                           kova::docstore::kCountersCollection, filter, options,
                           &rows);
  bson_destroy(filter);
  bson_destroy(sort);
  if (!s.ok()) {
    std::cerr << "kova: " << s.message() << "\n";
    return 1;
  }
  JsonMode mode = args.canonical ? JsonMode::kCanonical : JsonMode::kRelaxed;
  for (const auto& row : rows) std::cout << row.ToJson(mode) << "\n";
  return 0;
}

// ---- serve -----------------------------------------------------------------

int Serve(int argc, char** argv) {
  const char* env = std::getenv("KOVA_DATA");
  std::string data = env && *env ? env : "kova-data";
  kova::wire::ServerOptions options;
  kova::planner::EngineOptions engine_options;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    std::string value;
    auto take = [&](const char* name) {
      std::string n = name;
      if (a == n) {
        if (i + 1 >= argc) return false;
        value = argv[++i];
        return true;
      }
      if (a.rfind(n + "=", 0) == 0) {
        value = a.substr(n.size() + 1);
        return true;
      }
      return false;
    };
    auto number = [&](int* out) {
      char* end = nullptr;
      long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end || v < 0 || v > 1000000) {
        std::cerr << "kova serve: invalid number for " << a << "\n";
        return false;
      }
      *out = static_cast<int>(v);
      return true;
    };
    if (take("--data") || take("-D")) {
      data = value;
    } else if (take("--host") || take("-h")) {
      options.host = value;
    } else if (take("--port") || take("-p")) {
      if (!number(&options.port) || options.port > 65535) return 2;
    } else if (take("--max-connections")) {
      if (!number(&options.max_connections)) return 2;
    } else if (take("--hba")) {
      options.hba_file = value;
    } else if (take("--auth")) {
      options.default_auth = value;
    } else if (take("-c") || take("--set")) {
      size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cerr << "kova serve: -c needs name=value\n";
        return 2;
      }
      engine_options.settings.emplace_back(value.substr(0, eq),
                                           value.substr(eq + 1));
    } else if (take("--synchronous-commit")) {
      engine_options.settings.emplace_back("synchronous_commit", value);
    } else {
      std::cerr << "kova serve: unknown option " << a << "\n" << kUsage;
      return 2;
    }
  }

  // Signals are taken by sigwait below; every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::unique_ptr<Store> store;
  Status s = Store::Open(data, StoreOptions{}, &store);
  if (!s.ok()) {
    std::cerr << "kova serve: " << s.message() << "\n";
    return 3;
  }
  std::unique_ptr<kova::planner::Engine> engine =
      kova::planner::Engine::Create(store.get(), engine_options);
  if (!engine) {
    std::cerr << "kova serve: could not start the engine\n";
    return 3;
  }
  std::string error;
  std::unique_ptr<kova::wire::Server> server =
      kova::wire::Server::Start(engine.get(), options, &error);
  if (!server) {
    std::cerr << "kova serve: " << error << "\n";
    return 3;
  }
  std::error_code ec;
  std::string dir = std::filesystem::absolute(data, ec).string();
  std::cout << "kova: listening on " << server->address() << ":"
            << server->port() << ", data directory " << dir << std::endl;

  std::thread runner([&] { server->Run(); });
  int sig = 0;
  sigwait(&signals, &sig);
  std::cout << "kova: shutting down (signal " << sig << ")" << std::endl;
  server->Shutdown();
  runner.join();
  server.reset();
  engine.reset();
  store.reset();
  std::cout << "kova: stopped" << std::endl;
  return 0;
}

// Asks glibc's malloc for transparent huge pages (the tunable
// glibc.malloc.hugetlb=1) by running this binary again with it set, unless
// the environment already says what to do or the kernel has them switched
// off. A bulk load touches fresh memory all the time (SQLite's page cache
// of 64 MB, the index sorter, WAL runs): with 4 KiB pages a 1M-row restore
// took 31,800 page faults, on a virtual machine 7-10% of its time; with
// 2 MiB pages about 3,400. The tunable is read only at start-up, hence the
// exec (same process id); if it fails, Kova runs on as it is.
void UseHugePagesForMalloc(char** argv) {
  const char* tunables = getenv("GLIBC_TUNABLES");
  if (tunables && strstr(tunables, "glibc.malloc.hugetlb")) return;
  if (getenv("KOVA_NO_HUGE_PAGES")) return;
  FILE* thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!thp) return;
  char mode[128] = {0};
  size_t n = fread(mode, 1, sizeof(mode) - 1, thp);
  fclose(thp);
  mode[n] = 0;
  if (!strstr(mode, "[madvise]") && !strstr(mode, "[always]")) return;
  std::string value = tunables && *tunables
                          ? std::string(tunables) + ":glibc.malloc.hugetlb=1"
                          : "glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: the exec failed; carry on without, and without the
  // variable, which children would otherwise inherit.
  if (tunables)
    setenv("GLIBC_TUNABLES", tunables, 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

}  // namespace

int main(int argc, char** argv) {
  UseHugePagesForMalloc(argv);
  // SQLite's memory statistics (read nowhere here) take a global mutex on
  // every allocation and free; a bulk load makes millions of them.
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  // A statement journal (the pages a multi-row statement such as a bulk
  // load's INSERT touches, to undo it alone) moves from memory to a
  // temporary file past 64 KiB and stays there for the transaction: every
  // later statement of a COPY then wrote its pages through system calls
  // (a third of a COPY's time). Past 4 MiB it still spills, in pieces
  // (see the kova VFS's Write).
  sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 4 << 20);
  // Expression indexes call kova_index_key: every connection needs it,
  // those of document commands included.
  kova::planner::InstallSqliteExtensions();
  // Freed memory stays in the process for the next statement or session:
  // glibc otherwise gives a session's SQLite page cache (64 MB during a
  // COPY) back to the kernel and the next one faults every page in again,
  // which costs a quarter of a restore's CPU time on a virtual machine.
  // (Setting the trim threshold also fixes the mmap threshold, hence both.)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  // One malloc arena for every thread. glibc backs only its main arena
  // with huge pages (UseHugePagesForMalloc); each connection's thread would
  // otherwise get an arena of its own, in 4 KiB pages: a 1M-row psql -f
  // restore into kova serve took 29,400 page faults in its session thread
  // (the page cache, index sorts), about 100 with the main arena, and 15%
  // less CPU time. Threads take its lock only when their own cache of freed
  // chunks (tcache) misses: pgbench with 1 and 8 clients measured level.
  mallopt(M_ARENA_MAX, 1);
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
      !strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  std::string sub = argv[1];
  Args args;
  if (sub == "command" || sub == "counters") {
    if (!ParseArgs(argc, argv, 2, &args)) {
      std::cerr << kUsage;
      return 2;
    }
    return sub == "command" ? RunCommand(args) : ListCounters(args);
  }
  if (sub == "serve") return Serve(argc, argv);
  if (sub == "restore") return kova::cli::Restore(argc, argv);
  std::cerr << "kova: unknown subcommand '" << sub << "'\n" << kUsage;
  return 2;
}
