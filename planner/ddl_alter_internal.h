// Shared by ddl_alter*.cc and ddl_set_schema.cc: the helper that runs ALTER
// TABLE, CREATE VIEW, COMMENT, ALTER ... RENAME and ALTER ... SET SCHEMA
// against a session's catalog and storage.
// Internal to the planner.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/ddl.h"
#include "planner/expr.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"

namespace kova::planner {

// A stored document of a table with its columns decoded to canonical text.
struct StoredRow {
  int64_t rid = 0;
  std::string doc;  // BSON bytes
  std::vector<Value> values;
};

// Helpers of ddl_alter*.cc; each file takes them with
// `using namespace alter_detail`.
namespace alter_detail {
using expr_detail::IsInteger;
using expr_detail::IsNumber;
using expr_detail::IsText;

// A String node's text; "" for any other node (or none).
inline std::string Str(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval
                                                          : "";
}
// PostgreSQL's 22023 unless `type` can number an identity column.
bool CheckIdentityType(uint32_t type, PgError* error);
// The default PostgreSQL shows for a column fed by a sequence.
std::string NextvalText(const catalog::Sequence& seq);
std::string TypeName(uint32_t type, int32_t typmod = -1);
// Whether a foreign key can compare the two column types.
bool ComparableTypes(uint32_t a, uint32_t b);
// The index `name` of `table` (not a counter's own), or PostgreSQL's error:
// 42809 when it is another table's index, 42704 when there is none.
catalog::Index* FindIndexOf(catalog::Table* table, const catalog::Catalog& cat,
                            const std::string& name, PgError* error);
// CLUSTER's checks of an index: a btree over every row.
bool CheckClusterIndex(const catalog::Index& x, PgError* error);
// pg_class.relpersistence of a table: 't' temporary, 'u' unlogged, 'p'.
char TablePersistence(const catalog::Table& t);
// PostgreSQL's rule for a foreign key of `from` referencing `to`: a
// permanent table references permanent ones, an unlogged one no temporary
// one, a temporary one only temporary ones (42P16 otherwise).
bool CheckForeignKeyPersistence(const catalog::Table& from,
                                const catalog::Table& to, PgError* error);
// Parses an expression's text (a stored default or CHECK); the syntax
// error's message when it does not parse.
std::string ParseExpression(const std::string& text,
                            std::unique_ptr<sql::ParseTree>* tree,
                            const PgQuery__Node** node);
}  // namespace alter_detail

// Shared by CREATE TABLE (ddl_table.cc, where they are defined) and ALTER
// TABLE.
namespace ddl_detail {
// serial/bigserial/smallserial (and serial2/4/8): the integer type.
bool IsSerialName(const std::string& name, uint32_t* type);
// nextval('name') or nextval('name'::regclass): the sequence name.
bool NextvalTarget(const PgQuery__Node* n, std::string* name);
// A column default that is exactly nextval('name'): the name as written.
bool DefaultSequence(const std::string& default_expr, std::string* name);
// Whether column `c` of `table` draws from sequence schema.name: as its
// counter, or through a nextval default it shares with another column.
bool ColumnUsesSequence(const catalog::Table& table, const catalog::Column& c,
                        const std::string& schema, const std::string& name);
// PostgreSQL's ChooseRelationName candidate for one pass:
// name1_name2_label[pass], parts truncated to fit in 63 bytes.
std::string RelationNameCandidate(const std::string& name1,
                                  const std::string& name2,
                                  const std::string& label, int pass);
}  // namespace ddl_detail

// Calls fn for every parse node under msg (protobuf-c message), children
// before their parent.
void VisitParseNodes(ProtobufCMessage* msg,
                     const std::function<void(PgQuery__Node*)>& fn);
// The column names an expression refers to, in order of appearance.
std::vector<std::string> ExpressionColumns(const std::string& expr_text);
// The column a CHECK constraint's generated name carries: the one column
// its expression reads, or "" when it reads none or several (PostgreSQL's
// AddRelationNewConstraints), for column and table constraints alike.
std::string CheckNameColumn(const std::string& expr_text);
// An expression's text with every column reference `from` renamed `to`.
std::string RenameExpressionColumn(const std::string& expr_text,
                                   const std::string& from,
                                   const std::string& to);
// The relations a view's query reads and the columns of each it names
// (ddl_view_uses.cc); `lookup_schema(schemaname, relname)` resolves a
// relation name as the session does.
std::vector<catalog::ViewUse> ViewUses(
    const PgQuery__Node* query, const catalog::Catalog& cat,
    const std::function<std::string(const char*, const std::string&)>&
        lookup_schema);
// Follows a move in what a view reads: relation `schema.name` now is
// `new_schema.new_name`; whether the view changed.
bool MoveViewUse(catalog::View* view, const std::string& schema,
                 const std::string& name, const std::string& new_schema,
                 const std::string& new_name);
// Follows a column rename of relation `schema.name` in what a view reads;
// whether the view changed.
bool RenameViewUseColumn(catalog::View* view, const std::string& schema,
                         const std::string& name, const std::string& column,
                         const std::string& new_column);
// A view's query with column `from` of relation `schema.name` renamed `to`
// wherever it refers to it (qualified by the relation's name or alias, or
// unqualified when no other relation it reads has such a column); an
// output column it named keeps its name.
std::string RenameQueryColumn(const catalog::View& view,
                              const catalog::Catalog& cat,
                              const std::string& schema,
                              const std::string& name, const std::string& from,
                              const std::string& to);
// A SELECT statement as SQL text (libpg_query's deparser); empty on failure.
std::string DeparseSelect(const PgQuery__Node* select);

class AlterRunner {
 public:
  AlterRunner(SessionImpl* session, ResultSink* sink)
      : session_(session), sink_(sink) {}

  ExecuteResult AlterTable(const PgQuery__AlterTableStmt* stmt);
  ExecuteResult CreateView(const PgQuery__ViewStmt* stmt);
  ExecuteResult Comment(const PgQuery__CommentStmt* stmt);
  ExecuteResult Rename(const PgQuery__RenameStmt* stmt);
  ExecuteResult SetSchema(const PgQuery__AlterObjectSchemaStmt* stmt);

 private:
  // ---- ALTER TABLE subcommands (ddl_alter.cc, ddl_alter_columns.cc,
  // ddl_alter_identity.cc) ----
  bool AddColumn(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool DropColumn(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool ColumnDefault(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool SetNotNull(const std::string& column, PgError* error);
  bool DropNotNull(const std::string& column, PgError* error);
  bool AlterColumnType(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool AddIdentity(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool SetIdentity(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool DropIdentity(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // The index of table_'s column `name`; -1 with PostgreSQL's 42703 when
  // there is none.
  int ExistingColumn(const std::string& name, PgError* error);
  // The sequence a new identity or serial column `col` gets: its definition
  // from the column's type and `options`, and its schema and name (SEQUENCE
  // NAME, or PostgreSQL's table_column_seq).
  bool ColumnSequence(const catalog::Column& col, SeqOptions options,
                      SeqDef* def, std::string* schema, std::string* name,
                      PgError* error);
  // `column_attrs`: the DEFERRABLE etc. of a new column's constraints.
  bool AddConstraint(const PgQuery__Constraint* con, int column, PgError* error,
                     const DeferralMap& column_attrs = {});
  bool DropConstraint(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // ALTER COLUMN ... DROP EXPRESSION [IF EXISTS] of a generated column.
  bool DropExpression(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool ChangeOwner(const PgQuery__RoleSpec* role, PgError* error);

  // ---- shared steps (ddl_alter_steps.cc) ----
  // The table being altered, as the catalog has it now.
  catalog::Table& table() { return table_; }
  bool Reload(PgError* error);  // re-reads table_ after a catalog write
  bool SaveTable(PgError* error);
  bool SaveTable(const catalog::Table& table, PgError* error);
  // Every row in rid order, or only the row `only_rid`.
  bool ReadRows(const catalog::Table& table, std::vector<StoredRow>* rows,
                PgError* error, std::optional<int64_t> only_rid = {});
  // Replaces the document in row `rid` with `doc`.
  bool WriteDocument(const catalog::Table& table, int64_t rid,
                     const bson_t* doc, PgError* error);
  // Analyses an expression over the columns of one row (row value i is
  // parameter i). `context` names the place for aggregate errors.
  bool AnalyzeRowExpression(const catalog::Table& table,
                            const PgQuery__Node* node, const char* context,
                            std::unique_ptr<Expr>* out, PgError* error);
  // Makes the column autoincrement, fed by the sequence (DESIGN.md 3 rule
  // 5/6): the sequence's counter row becomes the column's.
  bool LinkSequence(catalog::Column* col, const catalog::Sequence& seq,
                    PgError* error);
  // Makes an autoincrement column ordinary; the counter row goes back to
  // its sequence (or is deleted with `drop_counter`).
  bool UnlinkCounter(catalog::Column* col, bool drop_counter, PgError* error);
  // A new sequence (and counter) for an identity or serial column.
  bool CreateColumnSequence(catalog::Column* col, const SeqDef& def,
                            const std::string& schema, const std::string& name,
                            PgError* error);
  // Builds a unique index for a PRIMARY KEY / UNIQUE constraint, with
  // PostgreSQL's error when stored rows collide.
  bool BuildUniqueIndex(const catalog::Constraint& c, PgError* error);
  // Docstore indexes that only an autoincrement field needed give way to a
  // constraint index that now covers the field.
  bool DropRedundantFieldIndexes(PgError* error);
  // Expression indexes of table_ that read `column`: their store indexes
  // are dropped (before the documents change) and their names returned.
  bool DropExpressionIndexesUsing(const std::string& column,
                                  std::vector<std::string>* names,
                                  PgError* error);
  // Builds those store indexes again over table_ as it is now.
  bool CreateExpressionIndexes(const std::vector<std::string>& names,
                               PgError* error);
  bool ValidateCheck(const catalog::Constraint& c, PgError* error);
  bool ValidateForeignKey(const catalog::Constraint& c,
                          const catalog::Table& target, PgError* error);
  // The first row of table_ (by rid) whose key the target lacks, by SQL
  // over the field indexes; *usable false when the column types need the
  // decoded comparison instead.
  bool FindUnreferencedRow(const catalog::Constraint& c,
                           const catalog::Table& target, bool* usable,
                           std::optional<int64_t>* rid, PgError* error);
  // What depends on `member` (a column or constraint of table_, `kind`):
  // 2BP01 without cascade, else reported and dropped first (table_
  // reloaded). *dropped: whether anything was.
  bool DropMemberDependents(DependentObject::Kind kind,
                            const std::string& member, bool cascade,
                            bool* dropped, PgError* error);
  // Drops a constraint of table_ (its index too) and, with cascade, the
  // foreign keys of other tables that depend on its index.
  bool RemoveConstraint(const std::string& name, bool cascade,
                        const std::string& dependency_what, PgError* error);
  std::string ChooseName(const std::string& name1, const std::string& name2,
                         const std::string& label,
                         const std::vector<std::string>& taken = {});
  // Renames a docstore index (the catalog index name follows).
  bool RenameStorageIndex(const std::string& collection,
                          const std::string& from, const std::string& to,
                          PgError* error);
  bool RoleExists(const std::string& name);

  // ---- storage settings (ddl_alter_storage.cc) ----
  // SET / RESET (storage parameters) of table_.
  bool SetRelOptions(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // ALTER COLUMN name SET STATISTICS / SET STORAGE / SET (...) / RESET (...).
  bool SetColumnStatistics(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool SetColumnStorage(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool SetColumnCompression(const PgQuery__AlterTableCmd* cmd, PgError* error);
  bool SetColumnOptions(const PgQuery__AlterTableCmd* cmd, PgError* error);
  catalog::Column* StorageColumn(const PgQuery__AlterTableCmd* cmd,
                                 PgError* error);
  bool SetReplicaIdentity(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // ENABLE / DISABLE TRIGGER name | ALL | USER: Kova's only triggers are
  // PostgreSQL's internal ones of foreign keys (ALL).
  bool SetTriggersEnabled(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // SET LOGGED / SET UNLOGGED.
  bool SetPersistence(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // SET TABLESPACE pg_default / SET ACCESS METHOD heap: where the table is.
  bool SetTableSpaceOrMethod(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // CLUSTER ON index / SET WITHOUT CLUSTER.
  bool SetClusterIndex(const PgQuery__AlterTableCmd* cmd, PgError* error);
  // ALTER INDEX ... SET / RESET (...) and ALTER COLUMN n SET STATISTICS:
  // saves `table` with its index `index_name` changed.
  bool AlterIndexStorage(const catalog::Table& table,
                         const std::string& index_name,
                         const PgQuery__AlterTableCmd* cmd, PgError* error);

  // ---- RENAME (ddl_alter_objects.cc) ----
  ExecuteResult RenameRelation(const PgQuery__RenameStmt* stmt);
  ExecuteResult RenameColumn(const PgQuery__RenameStmt* stmt);
  ExecuteResult RenameConstraint(const PgQuery__RenameStmt* stmt);

  // ---- moves of relations, by RENAME and SET SCHEMA (ddl_set_schema.cc) --
  // table_ becomes new_schema.new_name: its collection (documents, indexes,
  // counter rows with their last), and what names it elsewhere: foreign
  // keys, sequences' OWNED BY, views, grants. Its owned sequences stay.
  bool MoveTable(const std::string& new_schema, const std::string& new_name,
                 PgError* error);
  // The sequence becomes new_schema.new_name: its counter row when it is
  // its own, the columns it feeds and the defaults naming it, its grants.
  bool MoveSequence(catalog::Sequence seq, const std::string& new_schema,
                    const std::string& new_name, PgError* error);
  // The view becomes new_schema.new_name; views reading it follow.
  bool MoveView(catalog::View view, const std::string& new_schema,
                const std::string& new_name, PgError* error);
  // Views reading relation schema.name read new_schema.new_name instead:
  // their query text and their uses.
  bool MoveViewReaders(const std::string& schema, const std::string& name,
                       const std::string& new_schema,
                       const std::string& new_name, PgError* error);
  // GRANTs recorded on the relation ("table" or "sequence") follow it.
  bool MoveGrants(const std::string& kind, const std::string& schema,
                  const std::string& name, const std::string& new_schema,
                  const std::string& new_name, PgError* error);

  void Notice(const char* sqlstate, const std::string& message);
  docstore::Session* storage() { return session_->storage_.get(); }
  const catalog::Catalog& cat() { return *session_->catalog_; }
  const std::string& db() { return session_->database_; }
  bool Store(const docstore::Status& s, PgError* error);

  SessionImpl* session_;
  ResultSink* sink_;
  catalog::Table table_;
  // pg_get_indexdef of the expression indexes DropExpressionIndexesUsing
  // dropped, as they were: PostgreSQL re-parses that text to rebuild them,
  // so an error's position is in it.
  std::map<std::string, std::string> dropped_index_definitions_;
};

}  // namespace kova::planner
