// The Engine: databases and roles (kept in the docstore's admin database),
// sessions, and SCRAM verifiers.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "planner/session_impl.h"
#include "planner/xids.h"

namespace kova::planner {
namespace {

constexpr const char* kRolesCollection = "roles";

std::string Base64(const unsigned char* data, size_t len) {
  std::string out(4 * ((len + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data,
                          static_cast<int>(len));
  out.resize(n);
  return out;
}

PgError Fatal(const char* sqlstate, std::string message) {
  PgError e;
  e.severity = "FATAL";
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  return e;
}

class EngineImpl : public Engine {
 public:
  EngineImpl(docstore::Store* store, EngineOptions options)
      : store_(store), options_(std::move(options)) {}

  bool Init(std::string* error) {
    InstallSqliteExtensions();
    docstore::Status s = store_->NewSession(&admin_);
    if (!s.ok()) {
      *error = s.message();
      return false;
    }
    std::vector<std::string> dbs;
    admin_->ListDatabases(&dbs);
    if (std::find(dbs.begin(), dbs.end(), "postgres") == dbs.end()) {
      s = admin_->CreateDatabase("postgres");
      if (!s.ok() && s.code() != docstore::Code::kNamespaceExists) {
        *error = s.message();
        return false;
      }
    }
    if (!LookupRole("postgres").exists) {
      // The bootstrap superuser, as initdb makes it.
      RoleRecord role;
      role.name = "postgres";
      role.superuser = true;
      role.login = true;
      PgError err;
      if (!CreateRole(role, &err)) {
        *error = err.message;
        return false;
      }
    }
    return true;
  }

  bool DatabaseExists(std::string_view name) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> dbs;
    if (!admin_->ListDatabases(&dbs).ok()) return false;
    return std::find(dbs.begin(), dbs.end(), name) != dbs.end() &&
           name != docstore::kAdminDb;
  }

  RoleAuth LookupRole(std::string_view name) override {
    RoleRecord r;
    RoleAuth auth;
    if (FindRole(name, &r)) {
      auth.exists = true;
      auth.can_login = r.login;
      auth.password = r.password;
    }
    return auth;
  }

  bool FindRole(std::string_view name, RoleRecord* out) {
    std::lock_guard<std::mutex> lock(mu_);
    bson_t filter = BSON_INITIALIZER;
    bson_append_utf8(&filter, "_id", 3, name.data(),
                     static_cast<int>(name.size()));
    std::vector<docstore::Document> rows;
    docstore::Status s =
        admin_->Find(docstore::kAdminDb, kRolesCollection, &filter, {}, &rows);
    bson_destroy(&filter);
    if (!s.ok() || rows.empty()) return false;
    bson_iter_t it;
    out->name = std::string(name);
    out->login = bson_iter_init_find(&it, rows[0].bson(), "login") &&
                 bson_iter_as_bool(&it);
    out->superuser = bson_iter_init_find(&it, rows[0].bson(), "superuser") &&
                     bson_iter_as_bool(&it);
    out->password.clear();
    if (bson_iter_init_find(&it, rows[0].bson(), "password") &&
        BSON_ITER_HOLDS_UTF8(&it))
      out->password = bson_iter_utf8(&it, nullptr);
    out->settings.clear();
    bson_iter_t list, entry;
    if (bson_iter_init_find(&it, rows[0].bson(), "settings") &&
        BSON_ITER_HOLDS_ARRAY(&it) && bson_iter_recurse(&it, &list)) {
      while (bson_iter_next(&list)) {
        if (!BSON_ITER_HOLDS_DOCUMENT(&list) ||
            !bson_iter_recurse(&list, &entry))
          continue;
        std::string name, value;
        while (bson_iter_next(&entry)) {
          if (!BSON_ITER_HOLDS_UTF8(&entry)) continue;
          std::string key = bson_iter_key(&entry);
          (key == "name" ? name : value) = bson_iter_utf8(&entry, nullptr);
        }
        out->settings.emplace_back(std::move(name), std::move(value));
      }
    }
    return true;
  }

  bool CreateRole(const RoleRecord& role, PgError* error) {
    if (FindRole(role.name, nullptr_role())) {
      error->sqlstate = "42710";
      error->message = "role \"" + role.name + "\" already exists";
      return false;
    }
    return WriteRole(role, /*insert=*/true, error);
  }

  bool WriteRole(const RoleRecord& role, bool insert, PgError* error) {
    std::lock_guard<std::mutex> lock(mu_);
    bson_t doc = BSON_INITIALIZER;
    bson_append_utf8(&doc, "_id", 3, role.name.c_str(), -1);
    bson_append_bool(&doc, "login", -1, role.login);
    bson_append_bool(&doc, "superuser", -1, role.superuser);
    if (!role.password.empty())
      bson_append_utf8(&doc, "password", -1, role.password.c_str(), -1);
    if (!role.settings.empty()) {
      bson_t list;
      bson_append_array_begin(&doc, "settings", -1, &list);
      for (size_t i = 0; i < role.settings.size(); i++) {
        std::string key = std::to_string(i);
        bson_t entry;
        bson_append_document_begin(&list, key.c_str(), -1, &entry);
        bson_append_utf8(&entry, "name", -1, role.settings[i].first.c_str(),
                         -1);
        bson_append_utf8(&entry, "value", -1, role.settings[i].second.c_str(),
                         -1);
        bson_append_document_end(&list, &entry);
      }
      bson_append_array_end(&doc, &list);
    }
    docstore::Status s;
    if (insert) {
      s = admin_->Insert(docstore::kAdminDb, kRolesCollection, &doc);
    } else {
      bson_t filter = BSON_INITIALIZER;
      bson_append_utf8(&filter, "_id", 3, role.name.c_str(), -1);
      docstore::UpdateResult result;
      s = admin_->Update(docstore::kAdminDb, kRolesCollection, &filter, &doc,
                         false, &result);
      bson_destroy(&filter);
    }
    bson_destroy(&doc);
    if (!s.ok()) {
      error->sqlstate = "XX000";
      error->message = s.message();
      return false;
    }
    return true;
  }

  bool DropRole(std::string_view name, PgError* error) {
    std::lock_guard<std::mutex> lock(mu_);
    bson_t filter = BSON_INITIALIZER;
    bson_append_utf8(&filter, "_id", 3, name.data(),
                     static_cast<int>(name.size()));
    int64_t deleted = 0;
    docstore::Status s = admin_->Delete(docstore::kAdminDb, kRolesCollection,
                                        &filter, 1, &deleted);
    bson_destroy(&filter);
    if (!s.ok()) {
      error->sqlstate = "XX000";
      error->message = s.message();
      return false;
    }
    return true;
  }

  bool CreateDatabase(std::string_view name, PgError* error) {
    std::lock_guard<std::mutex> lock(mu_);
    docstore::Status s = admin_->CreateDatabase(name);
    if (s.code() == docstore::Code::kNamespaceExists) {
      error->sqlstate = "42P04";
      error->message = "database \"" + std::string(name) + "\" already exists";
      return false;
    }
    if (!s.ok()) {
      error->sqlstate =
          s.code() == docstore::Code::kBadValue ? "0A000" : "XX000";
      error->message = s.message();
      return false;
    }
    return true;
  }

  bool DropDatabase(std::string_view name, PgError* error) {
    std::lock_guard<std::mutex> lock(mu_);
    docstore::Status s = admin_->DropDatabase(name);
    if (!s.ok()) {
      error->sqlstate = "XX000";
      error->message = s.message();
      return false;
    }
    return true;
  }

  bool NewSession(
      const std::vector<std::pair<std::string, std::string>>& startup,
      std::unique_ptr<Session>* session, PgError* error) override {
    std::string user, database;
    for (const auto& [k, v] : startup) {
      if (k == "user") user = v;
      if (k == "database") database = v;
    }
    if (user.empty()) {
      *error = Fatal("28000",
                     "no PostgreSQL user name specified in startup "
                     "packet");
      return false;
    }
    if (database.empty()) database = user;
    RoleRecord role;
    if (!FindRole(user, &role)) {
      *error = Fatal("28000", "role \"" + user + "\" does not exist");
      return false;
    }
    if (!role.login) {
      *error =
          Fatal("28000", "role \"" + user + "\" is not permitted to log in");
      return false;
    }
    if (!DatabaseExists(database)) {
      *error = Fatal("3D000", "database \"" + database + "\" does not exist");
      return false;
    }
    DatabaseRecord record;
    {
      std::lock_guard<std::mutex> lock(mu_);
      // Unreadable: the session starts without the database's defaults.
      ReadDatabaseRecord(admin_.get(), database, &record);
    }
    std::unique_ptr<docstore::Session> storage;
    docstore::Status s = store_->NewSession(&storage);
    if (!s.ok()) {
      *error = Fatal("53000", "cannot open a storage session: " + s.message());
      return false;
    }
    // Counted from here: the session's destructor ends its count.
    SessionStarted(database);
    auto impl = std::make_unique<SessionImpl>(
        this, std::move(storage), user, database, role.superuser,
        options_.server_version, next_pid_.fetch_add(1));
    if (record.connection_limit >= 0 && !role.superuser &&
        SessionsIn(database) > record.connection_limit) {
      *error = Fatal("53300",
                     "too many connections for database \"" + database + "\"");
      return false;
    }
    if (!options_.settings.empty()) {
      std::string options;
      for (const auto& [name, value] : options_.settings) {
        std::string escaped;
        for (char c : value) {
          if (c == ' ' || c == '\\') escaped.push_back('\\');
          escaped.push_back(c);
        }
        options += "-c " + name + "=" + escaped + " ";
      }
      if (!impl->ApplyStartup({{"options", options}}, error)) {
        error->severity = "FATAL";
        return false;
      }
    }
    // ALTER DATABASE ... SET, then ALTER ROLE ... SET, then ALTER ROLE ...
    // IN DATABASE ... SET (each above the one before, as in PostgreSQL's
    // process_settings), all below what the client asks for. A value no
    // longer valid is skipped (PostgreSQL warns).
    std::vector<std::pair<std::string, std::string>> defaults;
    auto add = [&](const std::vector<std::pair<std::string, std::string>>& l) {
      defaults.insert(defaults.end(), l.begin(), l.end());
    };
    if (auto it = record.settings.find(""); it != record.settings.end())
      add(it->second);
    add(role.settings);
    if (auto it = record.settings.find(user); it != record.settings.end())
      add(it->second);
    for (const auto& setting : defaults) {
      PgError ignored;
      impl->ApplyStartup({setting}, &ignored);
    }
    if (!impl->ApplyStartup(startup, error)) {
      error->severity = "FATAL";
      return false;
    }
    *session = std::move(impl);
    return true;
  }

 private:
  static RoleRecord* nullptr_role() {
    static thread_local RoleRecord scratch;
    return &scratch;
  }

  void SessionStarted(const std::string& database) {
    std::lock_guard<std::mutex> lock(sessions_mu_);
    sessions_per_database_[database]++;
  }
  int64_t SessionsIn(const std::string& database) {
    std::lock_guard<std::mutex> lock(sessions_mu_);
    return sessions_per_database_[database];
  }

 public:
  void SessionEnded(const std::string& database) {
    std::lock_guard<std::mutex> lock(sessions_mu_);
    if (--sessions_per_database_[database] <= 0)
      sessions_per_database_.erase(database);
  }

 private:
  docstore::Store* store_;
  EngineOptions options_;
  // Open sessions by database, for CONNECTION LIMIT.
  std::mutex sessions_mu_;
  std::map<std::string, int64_t> sessions_per_database_;
  std::mutex mu_;  // guards admin_
  std::unique_ptr<docstore::Session> admin_;
  std::atomic<int> next_pid_{1000};

 public:
  NotificationHub notifications_;
  XidAllocator xids_{store_->dir().empty() ? "" : store_->dir() + "/xid"};
  // pg_stat_activity: the open sessions by pid.
  std::mutex activity_mu_;
  std::map<int, SessionImpl*> activity_;
};

}  // namespace

std::unique_ptr<Engine> Engine::Create(docstore::Store* store,
                                       const EngineOptions& options) {
  auto engine = std::make_unique<EngineImpl>(store, options);
  std::string error;
  if (!engine->Init(&error)) return nullptr;
  return engine;
}

// Role and database statements are run through the engine, which owns the
// admin session (SessionImpl only sees this narrow interface).
bool EngineCreateRole(Engine* engine, const RoleRecord& role, PgError* e) {
  return static_cast<EngineImpl*>(engine)->CreateRole(role, e);
}
bool EngineFindRole(Engine* engine, std::string_view name, RoleRecord* role) {
  return static_cast<EngineImpl*>(engine)->FindRole(name, role);
}
bool EngineUpdateRole(Engine* engine, const RoleRecord& role, PgError* e) {
  return static_cast<EngineImpl*>(engine)->WriteRole(role, false, e);
}
bool EngineDropRole(Engine* engine, std::string_view name, PgError* e) {
  return static_cast<EngineImpl*>(engine)->DropRole(name, e);
}
bool EngineCreateDatabase(Engine* engine, std::string_view name, PgError* e) {
  return static_cast<EngineImpl*>(engine)->CreateDatabase(name, e);
}
bool EngineDropDatabase(Engine* engine, std::string_view name, bool force,
                        PgError* e) {
  auto* engine_impl = static_cast<EngineImpl*>(engine);
  // As PostgreSQL's CountOtherDBBackends: the other sessions get up to five
  // seconds to end (a client that just disconnected, or one FORCE ended)
  // before the database counts as in use.
  size_t others = 0;
  for (int wait = 0; wait < 500; wait++) {
    others = 0;
    {
      std::lock_guard<std::mutex> lock(engine_impl->activity_mu_);
      for (const auto& [pid, session] : engine_impl->activity_) {
        if (session->database() != name) continue;
        others++;
        if (force && wait == 0) session->Signal(/*terminate=*/true);
      }
    }
    if (others == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (others > 0) {
    e->sqlstate = "55006";
    e->message = "database \"" + std::string(name) +
                 "\" is being accessed by other users";
    e->detail = others == 1 ? "There is 1 other session using the database."
                            : "There are " + std::to_string(others) +
                                  " other sessions using the database.";
    return false;
  }
  return engine_impl->DropDatabase(name, e);
}
void EngineSessionEnded(Engine* engine, const std::string& database) {
  static_cast<EngineImpl*>(engine)->SessionEnded(database);
}
XidAllocator* EngineXids(Engine* engine) {
  return &static_cast<EngineImpl*>(engine)->xids_;
}
NotificationHub* EngineNotifications(Engine* engine) {
  return &static_cast<EngineImpl*>(engine)->notifications_;
}
void EngineAddActivity(Engine* engine, int pid, SessionImpl* session) {
  auto* e = static_cast<EngineImpl*>(engine);
  std::lock_guard<std::mutex> lock(e->activity_mu_);
  e->activity_[pid] = session;
}
void EngineRemoveActivity(Engine* engine, int pid) {
  auto* e = static_cast<EngineImpl*>(engine);
  std::lock_guard<std::mutex> lock(e->activity_mu_);
  e->activity_.erase(pid);
}
std::string EngineActivityLines(Engine* engine) {
  auto* e = static_cast<EngineImpl*>(engine);
  std::lock_guard<std::mutex> lock(e->activity_mu_);
  std::string lines;
  for (const auto& [pid, session] : e->activity_)
    lines += session->ActivityLine();
  return lines;
}
bool EngineSignalBackend(Engine* engine, int pid, bool terminate) {
  auto* e = static_cast<EngineImpl*>(engine);
  std::lock_guard<std::mutex> lock(e->activity_mu_);
  auto it = e->activity_.find(pid);
  return it != e->activity_.end() && it->second->Signal(terminate);
}

std::string MakeScramVerifier(std::string_view password) {
  // RFC 5802 / PostgreSQL's scram_build_secret: SaltedPassword =
  // PBKDF2-HMAC-SHA-256(password, salt, 4096); ClientKey = HMAC(SP,
  // "Client Key"); StoredKey = H(ClientKey); ServerKey = HMAC(SP, "Server
  // Key").
  constexpr int kIterations = 4096;
  unsigned char salt[16];
  RAND_bytes(salt, sizeof(salt));
  unsigned char salted[32];
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), salt,
                    sizeof(salt), kIterations, EVP_sha256(), sizeof(salted),
                    salted);
  unsigned char client_key[32], server_key[32], stored_key[32];
  unsigned int len = 32;
  HMAC(EVP_sha256(), salted, sizeof(salted),
       reinterpret_cast<const unsigned char*>("Client Key"), 10, client_key,
       &len);
  HMAC(EVP_sha256(), salted, sizeof(salted),
       reinterpret_cast<const unsigned char*>("Server Key"), 10, server_key,
       &len);
  SHA256(client_key, sizeof(client_key), stored_key);
  return "SCRAM-SHA-256$" + std::to_string(kIterations) + ":" +
         Base64(salt, sizeof(salt)) + "$" +
         Base64(stored_key, sizeof(stored_key)) + ":" +
         Base64(server_key, sizeof(server_key));
}

std::string MakeMd5Password(std::string_view password, std::string_view user) {
  std::string input = std::string(password) + std::string(user);
  unsigned char digest[16];
  unsigned int len = 0;
  EVP_Digest(input.data(), input.size(), digest, &len, EVP_md5(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out = "md5";
  for (unsigned char c : digest) {
    out.push_back(hex[c >> 4]);
    out.push_back(hex[c & 15]);
  }
  return out;
}

}  // namespace kova::planner
