// Shared by the DDL source files (sequences.cc, ddl_table.cc). Internal.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "docstore/docstore.h"
#include "planner/planner.h"

namespace kova::planner {

// Sequence options as written (CREATE/ALTER SEQUENCE, identity columns).
struct SeqOptions {
  std::optional<uint32_t> type;  // AS smallint | integer | bigint
  std::optional<int64_t> increment, start, restart_value, cache;
  bool restart = false;
  // Outer optional: given; inner nullopt: NO MINVALUE / NO MAXVALUE.
  std::optional<std::optional<int64_t>> min, max;
  std::optional<bool> cycle;
  std::optional<std::string> owned_by;       // "table.column" or "none"
  std::optional<std::string> sequence_name;  // identity: SEQUENCE NAME
};

// CREATE INDEX ... USING: the access method Kova builds ("btree" or
// "hash"), after PostgreSQL's checks of what a hash index cannot be
// (ddl_index_method.cc). `what` names the index in 0A000 messages.
bool CheckIndexMethod(const PgQuery__IndexStmt* stmt, const std::string& what,
                      std::string* method, PgError* error);

bool ParseSeqOptions(PgQuery__Node* const* options, size_t n, SeqOptions* out,
                     PgError* error);

// A sequence's full definition: PostgreSQL's defaults and checks
// (init_params) applied to options over an existing definition.
struct SeqDef {
  uint32_t type = 20;
  int64_t increment = 1, start = 1, min = 1, max = INT64_MAX, cache = 1;
  bool cycle = false;
};

// What CREATE TABLE ... (LIKE source [INCLUDING ...]) takes from its
// source (ddl_table_like.cc). Names of new keys, indexes and identity
// sequences are chosen by CREATE TABLE, in PostgreSQL's order.
struct TableLikeCopy {
  struct Column {
    catalog::Column column;  // name, type, typmod, NOT NULL, copied default
    std::string default_sequence;    // the copied default is its nextval
    std::optional<SeqDef> identity;  // INCLUDING IDENTITY: a new sequence
    std::string comment;             // INCLUDING COMMENTS
  };
  std::vector<Column> columns;
  std::vector<catalog::Constraint> checks;  // INCLUDING CONSTRAINTS
  // INCLUDING INDEXES: primary key and unique constraints ('p' / 'u',
  // the constraint's name left empty), then the other indexes, each with
  // its comment when INCLUDING COMMENTS.
  struct Key {
    catalog::Constraint constraint;
    std::string comment;
    std::vector<std::string> reloptions;  // its index's WITH (...)
  };
  std::vector<Key> keys;
  std::vector<catalog::Index> indexes;
};

bool ApplySeqOptions(const SeqOptions& options, bool is_new, SeqDef* def,
                     PgError* error);
docstore::CounterSpec CounterSpecOf(const SeqDef& def);
SeqDef SeqDefOf(const docstore::Session::CounterInfo& info, uint32_t type);

// "public.t_id_seq" etc.: PostgreSQL's quote_identifier for each part.
std::string QuoteQualified(const std::string& schema, const std::string& name);
std::string QuoteIdentifier(const std::string& name);

// DEFERRABLE / INITIALLY DEFERRED of a key or foreign key constraint.
struct Deferral {
  bool deferrable = false;
  bool initially_deferred = false;
};
using DeferralMap =
    std::vector<std::pair<const PgQuery__Constraint*, Deferral>>;

// A column's constraint list, where DEFERRABLE, NOT DEFERRABLE, INITIALLY
// DEFERRED and INITIALLY IMMEDIATE come as items of their own that apply to
// the key or foreign key before them (PostgreSQL's transformConstraintAttrs,
// with its errors). Adds one entry per key and foreign key to `out`.
bool ColumnConstraintDeferral(PgQuery__Node* const* constraints, size_t n,
                              DeferralMap* out, PgError* error);
// A constraint's deferral: from `column_attrs` for a column constraint,
// else as the table constraint states it.
Deferral DeferralOf(const PgQuery__Constraint* con,
                    const DeferralMap& column_attrs);

// 42701 "column name ... conflicts with a system column name"
// (expr_detail::IsSystemColumnName).
PgError SystemColumnNameError(const std::string& name);

}  // namespace kova::planner
