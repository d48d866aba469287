// Storage parameters (PostgreSQL's reloptions and attoptions): the WITH (...)
// of CREATE TABLE / CREATE INDEX / a key constraint, ALTER TABLE / INDEX
// SET (...) / RESET (...), and ALTER COLUMN SET (...) / RESET (...). They tune
// PostgreSQL's heap, B-trees and vacuum and have no counterpart in documents
// stored in SQLite, so Kova validates them as PostgreSQL does and keeps them
// in the catalog, where pg_class.reloptions, psql's \d+ and pg_dump read them.
#pragma once

#include <string>
#include <vector>

#include "planner/planner.h"
#include "sql/sql.h"

namespace kova::planner {

enum class RelOptionTarget {
  kTable,
  kBtreeIndex,
  kHashIndex,
  kColumn,
};

// Validates the DefElem nodes `defs` (SET or WITH when !reset, RESET when
// reset) and merges them into *options ("name=value", as stored): entries
// named in `defs` are replaced or removed, new ones follow in the order
// given, as PostgreSQL's transformRelOptions. False with PostgreSQL's error
// (22023 unknown parameter or value out of bounds, 42601 a value in RESET).
// `create_table`: WITH (oids = false) is accepted and dropped.
bool MergeRelOptions(RelOptionTarget target, PgQuery__Node* const* defs,
                     size_t n_defs, bool reset, bool create_table,
                     std::vector<std::string>* options, PgError* error);

// COMPRESSION method of a column of `type` ("pglz", "lz4" or "default"):
// pg_attribute.attcompression ('p', 'l', 0), or PostgreSQL's error (a type
// it cannot compress, an unknown method).
bool ColumnCompression(const std::string& method, uint32_t type, char* out,
                       PgError* error);

// " WITH (name='value', ...)" as pg_get_indexdef shows an index's options
// (a value stays unquoted when it is a plain lower-case identifier); empty
// when there are none.
std::string RelOptionsClause(const std::vector<std::string>& options);

}  // namespace kova::planner
