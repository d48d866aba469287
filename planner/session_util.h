// Helpers shared by the planner session's source files.
#pragma once

#include <chrono>
#include <string>

#include "docstore/docstore.h"
#include "planner/index_expr.h"
#include "planner/planner.h"

namespace kova::planner {

inline int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

inline PgError Err(const char* sqlstate, std::string message,
                   int location = -1) {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.position = location >= 0 ? location + 1 : 0;
  return e;
}

inline ExecuteResult Fail(PgError error) {
  ExecuteResult r;
  r.ok = false;
  r.error = std::move(error);
  return r;
}

inline ExecuteResult Tag(std::string tag) {
  ExecuteResult r;
  r.command_tag = std::move(tag);
  return r;
}

inline PgError StorageError(const docstore::Status& s) {
  // An error of a planner function SQLite ran for the store (an expression
  // index's key): "kova:SQLSTATE: message".
  PgError key_error;
  if (IndexKeyError(s.message(), &key_error)) return key_error;
  switch (s.code()) {
    case docstore::Code::kConflict:
      return Err("40001", s.message());
    case docstore::Code::kBusy:
      return Err("55P03", s.message());
    case docstore::Code::kIOError:
      return Err("58030", s.message());
    case docstore::Code::kCorruption:
      return Err("XX001", s.message());
    default:
      return Err("XX000", s.message());
  }
}

// The value of SET name = a, b, ... as one string (utility.cc).
bool SetStatementValue(const PgQuery__VariableSetStmt* set, std::string* value,
                       PgError* error);
// The statement's name for "X is not supported yet" messages (utility.cc).
const char* StatementName(const PgQuery__Node* node);
// The object a statement Kova cannot run would create or change, as "kind
// name" ("function public.f()"), for those messages; empty when the
// statement names no object (dump_objects.cc).
std::string UnsupportedObjectName(const PgQuery__Node* node);
// "X is not supported yet", naming the object when there is one.
inline std::string NotSupportedMessage(const PgQuery__Node* node) {
  std::string object = UnsupportedObjectName(node);
  return std::string(StatementName(node)) + " is not supported yet" +
         (object.empty() ? "" : ": " + object);
}

}  // namespace kova::planner
