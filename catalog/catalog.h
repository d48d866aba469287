// The SQL catalog of one database: schemas, tables (columns, constraints,
// indexes), sequences and views, kept as documents in the database's
// collection "pg_catalog.objects" (no SQL table can map to that name, since
// PostgreSQL refuses tables in pg_catalog), and the mapping of sequences to
// rows of admin.counters. Depends on docstore only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docstore/docstore.h"

namespace kova::catalog {

using docstore::Status;

inline constexpr const char* kObjectsCollection = "pg_catalog.objects";
inline constexpr uint32_t kFirstOid = 16384;

struct Column {
  std::string name;
  uint32_t type = 0;  // PostgreSQL type OID
  int32_t typmod = -1;
  bool not_null = false;
  std::string default_expr;  // SQL text; empty: no default
  // GENERATED ALWAYS AS (...) STORED: the expression's SQL text over the
  // row's other columns; empty: not a generated column.
  std::string generated_expr;
  char identity = 0;  // 0, 'a' (ALWAYS) or 'd' (BY DEFAULT)
  // The counter row (admin.counters _id) when the column is autoincrement.
  std::string counter;
  // The schema-qualified sequence that feeds it ("public.orders_id_seq").
  std::string sequence;
  // ALTER COLUMN ... SET STATISTICS (-1: the default) and SET STORAGE
  // ('p', 'e', 'm', 'x'; 0: the type's own), and SET (n_distinct = ...) as
  // "name=value" (pg_attribute.attoptions): kept for the catalog and dumps,
  // since documents have no statistics or TOAST.
  int stat_target = -1;
  char storage = 0;
  // COMPRESSION pglz | lz4 ('p' / 'l'; 0: default_toast_compression),
  // pg_attribute.attcompression.
  char compression = 0;
  std::vector<std::string> attoptions;
};

struct Constraint {
  std::string name;
  char kind = 0;  // 'p' primary key, 'u' unique, 'c' check, 'f' foreign key
  std::vector<std::string> columns;
  std::string check_expr;  // 'c': SQL text
  // 'f': the referenced table (schema-qualified) and its columns; actions
  // as pg_constraint: 'a' no action, 'r' restrict, 'c' cascade, 'n' set
  // null, 'd' set default.
  std::string ref_table;
  std::vector<std::string> ref_columns;
  char on_delete = 'a';
  char on_update = 'a';
  bool nulls_not_distinct = false;
  // DEFERRABLE / INITIALLY DEFERRED (keys and foreign keys): checked when
  // the statement ends, or at commit in deferred mode; the store's index of
  // a deferrable key is not unique.
  bool deferrable = false;
  bool initially_deferred = false;
};

constexpr int16_t kIndexDesc = 1;        // PostgreSQL's INDOPTION_DESC
constexpr int16_t kIndexNullsFirst = 2;  // INDOPTION_NULLS_FIRST

struct Index {
  std::string name;
  uint32_t oid = 0;
  bool unique = false;
  std::vector<std::string> columns;
  // Per key (parallel to columns, or empty when every key is a column): the
  // text of an expression key (CREATE INDEX ON t (lower(email))), whose
  // entry in `columns` is then empty.
  std::vector<std::string> expressions;
  const std::string& expression(size_t i) const {
    static const std::string kNone;
    return i < expressions.size() ? expressions[i] : kNone;
  }
  // Per column, PostgreSQL's pg_index.indoption bits (kIndexDesc,
  // kIndexNullsFirst); empty when every column is ASC NULLS LAST.
  std::vector<int16_t> options;
  // The constraint that owns it ('p' / 'u'), empty for CREATE INDEX.
  std::string constraint;
  std::string comment;  // COMMENT ON INDEX
  // CREATE UNIQUE INDEX ... NULLS NOT DISTINCT: NULLs are equal keys.
  bool nulls_not_distinct = false;
  // A partial index's WHERE condition (SQL text over the columns); empty:
  // every row.
  std::string predicate;
  // The access method: "btree" (empty) or "hash" (one column, not unique;
  // kept by the store as an ordinary field index).
  std::string method;
  // Storage parameters, "name=value" (pg_class.reloptions): WITH (...).
  std::vector<std::string> reloptions;
  // Per key, ALTER INDEX ... ALTER COLUMN n SET STATISTICS (expression keys
  // only); empty when all are the default, -1.
  std::vector<int> stat_targets;
  // REPLICA IDENTITY USING INDEX names this index (pg_index.indisreplident).
  bool replica_identity = false;
  // ALTER TABLE ... CLUSTER ON this index (pg_index.indisclustered).
  bool clustered = false;
};

struct Table {
  uint32_t oid = 0;
  std::string schema, name;
  std::string collection;  // docstore collection: "orders", "sales.orders"
  std::string owner;
  std::vector<Column> columns;
  std::vector<Constraint> constraints;
  std::vector<Index> indexes;
  std::string comment;
  std::map<std::string, std::string> column_comments;
  // Storage parameters, "name=value" (pg_class.reloptions): WITH (...).
  std::vector<std::string> reloptions;
  // REPLICA IDENTITY: 'd' default, 'f' full, 'n' nothing, 'i' index.
  char replica_identity = 'd';
  // ALTER TABLE ... DISABLE TRIGGER ALL: the checks and actions of the
  // foreign keys on this table's rows (PostgreSQL's internal triggers) are
  // off until ENABLE TRIGGER ALL.
  bool fk_triggers_disabled = false;
  // CREATE UNLOGGED TABLE / SET UNLOGGED (pg_class.relpersistence 'u').
  // Kova writes it as durably as any table: PostgreSQL would empty it after
  // a crash, Kova keeps what was committed.
  bool unlogged = false;

  const Column* FindColumn(std::string_view column) const;
  int ColumnIndex(std::string_view column) const;  // -1 when absent
  const Constraint* PrimaryKey() const;
};

struct Sequence {
  uint32_t oid = 0;
  std::string schema, name;
  std::string counter;  // admin.counters _id
  uint32_t type = 20;   // AS int2/int4/int8 (OID)
  int64_t cache = 1;
  std::string owned_table;  // schema-qualified, empty when not owned
  std::string owned_column;
  std::string owner;
  std::string comment;  // COMMENT ON SEQUENCE
};

struct ViewColumn {
  std::string name;
  uint32_t type = 0;
  int32_t typmod = -1;
};

// A relation a view reads and the columns of it the query names (all of
// them for `*`), for the dependency checks of DROP and ALTER.
struct ViewUse {
  std::string schema, name;
  std::vector<std::string> columns;
  // Its primary key when the view's query groups by it and reads other
  // columns (functional dependency): dropping the key breaks the view.
  std::vector<std::string> constraints;
};

struct View {
  uint32_t oid = 0;
  std::string schema, name;
  std::string query;  // the SELECT, as SQL text
  std::vector<ViewColumn> columns;
  std::vector<ViewUse> uses;
  std::string owner;
  std::string comment;  // COMMENT ON VIEW
};

// A user-defined type: an enum ('e') or a domain ('d').
struct EnumLabel {
  std::string label;
  // pg_enum.enumsortorder: values added BEFORE/AFTER get one in between.
  double sort_order = 0;
};

struct DomainCheck {
  std::string name;
  std::string expr;  // SQL text over VALUE
};

struct UserType {
  uint32_t oid = 0;
  // pg_type.typarray: the type of arrays of it (0 for types stored before
  // arrays of user types existed).
  uint32_t array_oid = 0;
  std::string schema, name;
  char kind = 'e';
  std::string owner;
  std::string comment;
  std::vector<EnumLabel> labels;  // 'e', in creation order
  // 'd': the base type and its modifier, DEFAULT, NOT NULL and CHECKs.
  uint32_t base_type = 0;
  int32_t base_typmod = -1;
  std::string default_expr;
  bool not_null = false;
  std::vector<DomainCheck> checks;

  const EnumLabel* FindLabel(std::string_view label) const;
};

struct Schema {
  uint32_t oid = 0;
  std::string name;
  std::string owner;
  std::string comment;  // COMMENT ON SCHEMA
};

// An immutable snapshot of one database's catalog.
class Catalog {
 public:
  static Status Load(docstore::Session* session, std::string_view db,
                     std::shared_ptr<const Catalog>* out);

  const std::string& db() const { return db_; }
  const Table* FindTable(std::string_view schema, std::string_view name) const;
  const Sequence* FindSequence(std::string_view schema,
                               std::string_view name) const;
  const View* FindView(std::string_view schema, std::string_view name) const;
  const Schema* FindSchema(std::string_view name) const;
  const UserType* FindType(std::string_view schema,
                           std::string_view name) const;
  const UserType* FindTypeByOid(uint32_t oid) const;
  // The type whose array type has this oid.
  const UserType* FindTypeByArrayOid(uint32_t array_oid) const;
  // The table owning an index of this name in the schema.
  const Table* FindIndexTable(std::string_view schema, std::string_view name,
                              const Index** index = nullptr) const;
  // Any relation (table, sequence, view or index) of that name.
  bool RelationExists(std::string_view schema, std::string_view name) const;

  const std::map<std::string, Table>& tables() const { return tables_; }
  const std::map<std::string, Sequence>& sequences() const {
    return sequences_;
  }
  const std::map<std::string, View>& views() const { return views_; }
  const std::map<std::string, Schema>& schemas() const { return schemas_; }
  const std::map<std::string, UserType>& types() const { return types_; }

  // Writes, each in the caller's transaction; every write changes the
  // catalog version, so sessions reload.
  static Status PutTable(docstore::Session* session, std::string_view db,
                         const Table& table);
  static Status PutSequence(docstore::Session* session, std::string_view db,
                            const Sequence& sequence);
  static Status PutView(docstore::Session* session, std::string_view db,
                        const View& view);
  static Status PutSchema(docstore::Session* session, std::string_view db,
                          const Schema& schema);
  static Status PutType(docstore::Session* session, std::string_view db,
                        const UserType& type);
  // kind: "table", "sequence", "view", "schema", "type".
  static Status Remove(docstore::Session* session, std::string_view db,
                       std::string_view kind, std::string_view schema,
                       std::string_view name);
  static Status AllocateOid(docstore::Session* session, std::string_view db,
                            uint32_t* oid);

  // The docstore collection of a table: "name" in public, "schema.name"
  // elsewhere.
  static std::string CollectionName(std::string_view schema,
                                    std::string_view name);
  // The admin.counters _id of a sequence of its own: "db.name" in public,
  // "db.schema.name" elsewhere.
  static std::string SequenceCounterId(std::string_view db,
                                       std::string_view schema,
                                       std::string_view name);
  // The counter of a column: "db.collection.field".
  static std::string ColumnCounterId(std::string_view db,
                                     std::string_view collection,
                                     std::string_view column);

 private:
  static std::string Key(std::string_view schema, std::string_view name);
  std::string db_;
  std::map<std::string, Table> tables_;  // by "schema.name"
  std::map<std::string, Sequence> sequences_;
  std::map<std::string, View> views_;
  std::map<std::string, Schema> schemas_;  // by name
  std::map<std::string, UserType> types_;  // by "schema.name"
  std::map<uint32_t, const UserType*> types_by_oid_;
  std::map<uint32_t, const UserType*> types_by_array_oid_;
};

}  // namespace kova::catalog
