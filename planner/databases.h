// What PostgreSQL keeps about a database beyond its contents (pg_database
// and pg_db_role_setting): owner, comment, connection limit, and the setting
// defaults of ALTER DATABASE ... SET and ALTER ROLE ... IN DATABASE ... SET.
// Kept in the database's own catalog collection as one document, so that it
// goes with DROP DATABASE. Internal to the planner.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docstore/docstore.h"

namespace kova::planner {

struct DatabaseRecord {
  std::string owner;  // empty: made before owners were kept (postgres)
  std::string comment;
  int64_t connection_limit = -1;  // -1: no limit
  // Setting defaults by role ("" for every role), in the order given.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>>
      settings;
};

docstore::Status ReadDatabaseRecord(docstore::Session* session,
                                    std::string_view db, DatabaseRecord* out);
// In the caller's transaction.
docstore::Status WriteDatabaseRecord(docstore::Session* session,
                                     std::string_view db,
                                     const DatabaseRecord& record);

// The setting defaults a new session of `role` in `db` starts with, lowest
// priority first (the database's, then the role's in the database), as
// PostgreSQL's process_settings applies them.
std::vector<std::pair<std::string, std::string>> SessionDefaults(
    const DatabaseRecord& record, const std::string& role);

}  // namespace kova::planner
