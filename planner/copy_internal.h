// COPY: options shared by COPY TO (copy.cc) and COPY FROM (copy_in.cc).
// Internal to the planner.
#pragma once

#include <string>
#include <vector>

#include "planner/planner.h"
#include "sql/sql.h"

namespace kova::planner {

struct CopyOptions {
  bool csv = false;
  bool binary = false;
  enum class Header { kFalse, kTrue, kMatch } header = Header::kFalse;
  char delimiter = '\t';
  std::string null_text = "\\N";
  char quote = '"';
  char escape = '"';
  bool freeze = false;
  bool force_quote_all = false;
  std::vector<std::string> force_quote;
  std::vector<std::string> force_not_null;
  std::vector<std::string> force_null;
};

// PostgreSQL's ProcessCopyOptions: every option check in its order, with
// its SQLSTATEs and messages.
bool ParseCopyOptions(const PgQuery__CopyStmt* copy, bool is_from,
                      CopyOptions* options, PgError* error);

// CopyAttributeOutText / CopyAttributeOutCSV: one output field.
void AppendCopyText(std::string* line, const std::string& value, char delim);
void AppendCopyCsv(std::string* line, const std::string& value,
                   const CopyOptions& o, bool force, bool single_column);

// 42P10: a generated column named in COPY's column list.
PgError GeneratedCopyError(const std::string& column);

struct Plan;
class SessionImpl;

// COPY statements over tables; a friend of SessionImpl.
class CopyRunner {
 public:
  explicit CopyRunner(SessionImpl* session) : s_(session) {}
  // COPY table [(columns)] FROM STDIN / 'file' (copy_in.cc).
  ExecuteResult CopyFrom(const Plan& plan, ResultSink* sink);

 private:
  SessionImpl* s_;
};

}  // namespace kova::planner
