// Session settings (PostgreSQL's GUCs): defaults, validation, SHOW, the
// transactional behaviour of SET / SET LOCAL, and which changes must be
// reported to the client as ParameterStatus.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/planner.h"
#include "planner/types.h"

namespace kova::planner {

class Settings {
 public:
  // `user` fills session_authorization; `superuser` is_superuser.
  Settings(const std::string& server_version, const std::string& user,
           bool superuser);

  // SET name = value (value as SQL gives it; normalised here). is_local:
  // until the end of the transaction. Errors: 42704 unknown parameter,
  // 22023 invalid value, 55P02 read-only, 0A000 unsupported value.
  bool Set(std::string_view name, std::string_view value, bool is_local,
           PgError* error);
  bool Reset(std::string_view name, PgError* error);
  // A value from the startup packet: also what RESET returns to.
  bool SetStartup(std::string_view name, std::string_view value,
                  PgError* error);
  void ResetAll();
  // SHOW: the current value, 42704 when unknown.
  bool Show(std::string_view name, std::string* value, PgError* error) const;
  // The canonical name of a parameter ("datestyle" -> "DateStyle"), or ""
  // when unknown.
  std::string CanonicalName(std::string_view name) const;
  // SHOW ALL rows: name, setting, description.
  std::vector<std::vector<std::string>> ShowAll() const;
  std::string Get(std::string_view name) const;  // "" when unknown

  // Transaction boundaries (SET is undone by ROLLBACK; SET LOCAL ends with
  // the transaction either way).
  void OnBegin();
  void OnCommit();
  void OnRollback();
  void OnSavepoint(const std::string& name);
  void OnRollbackToSavepoint(const std::string& name);
  void OnReleaseSavepoint(const std::string& name);

  // ParameterStatus at startup, and the reported values changed since.
  std::vector<std::pair<std::string, std::string>> Reported() const;
  std::vector<std::pair<std::string, std::string>> TakeChanges();

  const types::TypeContext& type_context() const { return type_context_; }
  // The transaction start the inputs 'now', 'today', ... read.
  void SetNow(int64_t unix_micros) { type_context_.now_us = unix_micros; }
  // Changes with every change of any value (SET, RESET, a rolled-back SET,
  // the end of a SET LOCAL): cached translations depend on the settings.
  uint64_t generation() const { return generation_; }

 private:
  struct Value {
    std::string session;
    std::string local;
    bool has_local = false;
    const std::string& effective() const { return has_local ? local : session; }
  };
  using Values = std::map<std::string, Value>;  // key: lower-case name

  bool Normalise(const std::string& key, std::string_view value,
                 std::string* out, PgError* error) const;
  void Changed();
  void BeforeChange();

  Values values_;
  std::map<std::string, std::string> defaults_;
  // Snapshots for transaction rollback: taken at BEGIN and per savepoint.
  bool in_txn_ = false;
  // Taken lazily, before the first change inside the transaction: most
  // transactions change no setting.
  bool txn_snapshot_taken_ = false;
  Values txn_start_;
  bool dirty_ = true;  // a value changed since TakeChanges
  std::vector<std::pair<std::string, Values>> savepoints_;
  std::map<std::string, std::string> last_reported_;
  types::TypeContext type_context_;
  uint64_t generation_ = 0;
};

}  // namespace kova::planner
