// The kova binary: `command`, `counters` (and, with the wire issue, `serve`).
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "docstore/docstore.h"

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
  kova serve
      The PostgreSQL protocol server (not built yet).

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

}  // namespace

int main(int argc, char** argv) {
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
  if (sub == "serve") {
    std::cerr << "kova serve: the PostgreSQL protocol server is not built "
                 "yet; use `kova command` for the document API\n";
    return 2;
  }
  std::cerr << "kova: unknown subcommand '" << sub << "'\n" << kUsage;
  return 2;
}
