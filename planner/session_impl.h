// The planner's Session: statement dispatch, transaction state, prepared
// statements and portals. Internal to the planner.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "docstore/docstore.h"
#include "planner/databases.h"
#include "planner/drop_cascade.h"
#include "planner/expr.h"
#include "planner/notify.h"
#include "planner/planner.h"
#include "planner/query.h"
#include "planner/settings.h"
#include "planner/user_types.h"
#include "sql/sql.h"

namespace kova::planner {

struct SValue;  // svalue.h

struct RoleRecord {
  std::string name;
  bool login = false;
  bool superuser = false;
  std::string password;
  // ALTER ROLE ... SET without IN DATABASE (pg_db_role_setting with
  // setdatabase 0): setting defaults in every database, in the order given.
  std::vector<std::pair<std::string, std::string>> settings;
};

// Engine services used by sessions (engine.cc).
bool EngineCreateRole(Engine* engine, const RoleRecord& role, PgError* e);
bool EngineFindRole(Engine* engine, std::string_view name, RoleRecord* role);
bool EngineUpdateRole(Engine* engine, const RoleRecord& role, PgError* e);
bool EngineDropRole(Engine* engine, std::string_view name, PgError* e);
bool EngineCreateDatabase(Engine* engine, std::string_view name, PgError* e);
// Fails with 55006 while other sessions use the database, unless `force`
// ends them first (DROP DATABASE ... WITH (FORCE)).
bool EngineDropDatabase(Engine* engine, std::string_view name, bool force,
                        PgError* e);
// A session of NewSession ends (connection limits count open sessions).
void EngineSessionEnded(Engine* engine, const std::string& database);
// The engine's LISTEN / NOTIFY channels (notify.cc).
NotificationHub* EngineNotifications(Engine* engine);
// The engine's transaction ids (xids.cc).
class XidAllocator;
XidAllocator* EngineXids(Engine* engine);
// pg_stat_activity: the sessions of the engine (activity.cc).
// Whether a cursor over `select` declared without SCROLL or NO SCROLL can
// move backward, as PostgreSQL decides from its plan (cursors.cc).
bool CursorScrollsByDefault(const PgQuery__SelectStmt* select);

class SessionImpl;
void EngineAddActivity(Engine* engine, int pid, SessionImpl* session);
void EngineRemoveActivity(Engine* engine, int pid);
std::string EngineActivityLines(Engine* engine);
bool EngineSignalBackend(Engine* engine, int pid, bool terminate);
std::string MakeMd5Password(std::string_view password, std::string_view user);

// An analysed statement.
struct Plan {
  std::shared_ptr<sql::ParseTree> tree;  // keeps `node` alive
  const PgQuery__Node* node = nullptr;   // null: empty query
  std::string text;
  std::vector<uint32_t> param_types;
  std::vector<ColumnDesc> columns;
  // SELECT without FROM: one expression per output column.
  std::vector<std::shared_ptr<Expr>> targets;
  // DECLARE: the analysed query of the cursor.
  std::shared_ptr<Plan> cursor_query;
  // VALUES lists: one expression per column for each row.
  std::vector<std::vector<std::shared_ptr<Expr>>> values;
  bool is_select = false;
  bool simple = false;  // from a simple query: no parameters exist
  bool writes = false;  // writes storage (set by Analyze: WritesStorage)
  // Statements over tables: the catalog they were analysed against (a
  // newer catalog makes the session analyse them again).
  std::shared_ptr<const catalog::Catalog> catalog;
  int64_t catalog_version = -1;
  // The schemas names were looked up in, and the settings generation at
  // which that list was last found current.
  std::vector<std::string> search_path;
  uint64_t settings_generation = 0;
  bool reanalyse = false;                   // the last analysis again failed
  std::shared_ptr<Compiled> compiled;       // SELECT over tables
  std::shared_ptr<struct DmlPlan> dml;      // INSERT / UPDATE / DELETE
  std::shared_ptr<struct MergePlan> merge;  // MERGE
  std::shared_ptr<struct CtasPlan> ctas;    // CREATE TABLE AS, SELECT INTO
  // WITH queries that are INSERT / UPDATE / DELETE (with_dml.cc): run first,
  // their RETURNING rows then read by the rest of the statement.
  std::shared_ptr<struct WithDml> with_dml;
  // A simple-query plan taken from the cache of translations: `tree` and
  // `node` are those of an earlier text of the same shape, so analysing it
  // again means parsing `text` first.
  bool reparse_on_refresh = false;
};

// Whether a statement's text may call nextval/setval or a document command
// (its transaction then takes the write lock from the start).
bool CallsWritingFunction(const std::string& text);

class PreparedStatementImpl : public PreparedStatement {
 public:
  explicit PreparedStatementImpl(std::shared_ptr<Plan> plan)
      : plan_(std::move(plan)) {}
  const std::string& text() const override { return plan_->text; }
  const std::vector<uint32_t>& param_types() const override {
    return plan_->param_types;
  }
  const std::vector<ColumnDesc>& columns() const override {
    return plan_->columns;
  }
  const std::shared_ptr<Plan>& plan() const { return plan_; }

 private:
  std::shared_ptr<Plan> plan_;
};

class PortalImpl : public Portal {
 public:
  const std::vector<ColumnDesc>& columns() const override {
    return plan->columns;
  }
  const std::vector<Format>& result_formats() const override { return formats; }
  std::shared_ptr<Plan> plan;
  std::vector<Value> params;
  std::vector<Format> formats;  // one per column
  // Rows computed at the first Execute and handed out from `next_row`.
  bool started = false;
  bool done = false;
  std::vector<std::vector<Datum>> rows;
  size_t next_row = 0;
  ExecuteResult final_result;
};

class SessionImpl : public Session,
                    public SessionHooks,
                    public user_types::Source {
  friend class DmlRunner;

 public:
  SessionImpl(Engine* engine, std::unique_ptr<docstore::Session> storage,
              std::string user, std::string database, bool superuser,
              std::string server_version, int pid);
  ~SessionImpl() override;

  bool ApplyStartup(
      const std::vector<std::pair<std::string, std::string>>& startup,
      PgError* error);

  // Session
  std::vector<std::pair<std::string, std::string>> ReportedSettings() override;
  std::vector<std::pair<std::string, std::string>> TakeReportChanges() override;
  char TransactionStatus() override;
  void SimpleQuery(std::string_view text, ResultSink* sink,
                   const std::function<void(const ExecuteResult&)>&
                       on_statement_done) override;
  void RunSimpleQuery(
      std::string_view text, ResultSink* sink,
      const std::function<void(const ExecuteResult&)>& on_statement_done);
  bool Parse(std::string_view text, const std::vector<uint32_t>& param_types,
             std::unique_ptr<PreparedStatement>* statement,
             PgError* error) override;
  bool Bind(const PreparedStatement& statement,
            const std::vector<Datum>& params,
            const std::vector<Format>& param_formats,
            const std::vector<Format>& result_formats,
            std::unique_ptr<Portal>* portal, PgError* error) override;
  ExecuteResult Execute(Portal* portal, int64_t max_rows,
                        ResultSink* sink) override;
  bool Sync(PgError* error) override;
  void Cancel() override;
  int NotificationFd() override;
  int32_t ProcessId() override { return pid_; }
  void SetTerminateHook(std::function<void()> hook) override;
  void SetClientAddress(std::string address, int port) override;
  void TakeNotifications(std::vector<Notification>* out) override;
  void Terminate() override;

  // SessionHooks
  const types::TypeContext& type_context() override {
    settings_.SetNow(TransactionStartMicros());
    return settings_.type_context();
  }
  std::string CurrentUser() override { return user_; }
  std::string CurrentDatabase() override { return database_; }
  std::string ServerVersion() override { return server_version_; }
  int BackendPid() override { return pid_; }
  int64_t TransactionStartMicros() override;
  int64_t StatementStartMicros() override { return statement_start_; }
  bool GetSetting(const std::string& name, bool missing_ok, Value* value,
                  PgError* error) override;
  bool SetSetting(const std::string& name, const Value& value, bool is_local,
                  std::string* result, PgError* error) override;
  bool Sleep(double seconds, PgError* error) override;
  bool CallSessionFunction(const std::string& name,
                           const std::vector<Value>& args, Value* out,
                           PgError* error) override;
  int64_t StatementTimeoutMs();
  // A duration setting (statement_timeout, lock_timeout) in milliseconds.
  int64_t SettingMs(const char* name);
  // pg_advisory_lock and its family (advisory_locks.cc); locks are released
  // at transaction end (transaction level) or session end (both).
  bool CallAdvisoryLockFunction(const std::string& name,
                                const std::vector<Value>& args, Value* out,
                                PgError* error);
  void ReleaseAdvisoryLocks(bool session_level);
  // pg_catalog support (system_functions.cc): the roles and databases of
  // the cluster, and the functions over the catalog.
  void ClusterObjects(std::vector<ClusterRole>* roles,
                      std::vector<ClusterDatabase>* databases);
  bool CallSystemFunction(const std::string& name,
                          const std::vector<Value>& args, Value* out,
                          PgError* error);
  // has_table_privilege and its family (privileges.cc).
  bool CallPrivilegeFunction(const std::string& name,
                             const std::vector<Value>& args, Value* out,
                             PgError* error);
  // user_types::Source (user_types_session.cc)
  const catalog::Catalog* TypeCatalog(bool refresh) override;
  std::vector<std::string> TypeSearchPath() override {
    return SearchPathSchemas(true);
  }

 private:
  // ALTER TABLE and friends (ddl_alter*.cc) work on the session's storage
  // and catalog through a helper class.
  friend class AlterRunner;
  // COPY (copy.cc, copy_in.cc).
  friend class CopyRunner;
  // Enums and domains (ddl_types.cc, ddl_domains.cc).
  friend class TypeRunner;
  static bool IsTypeStatement(const PgQuery__Node* node);
  ExecuteResult RunTypeStatement(const PgQuery__Node* node, ResultSink* sink);
  // Analysis (Parse) and execution of one statement.
  bool Analyze(std::shared_ptr<Plan> plan, PgError* error);
  bool AnalyzeSelect(Plan* plan, PgError* error);
  // A statement whose WITH has data-modifying queries: *handled and the
  // plan's with_dml set (with_dml.cc).
  bool AnalyzeWithDml(Plan* plan, bool* handled, PgError* error);
  // Runs the data-modifying WITH queries of portal->plan, then makes
  // portal->plan the rest of the statement over their rows.
  bool RunWithDml(PortalImpl* portal, PgError* error);
  // INSERT / UPDATE / DELETE on a simple view: the plan's statement becomes
  // the same on the view's table (view_dml.cc).
  bool RewriteViewDml(Plan* plan, PgError* error);
  // EXPLAIN [ANALYZE] statement: the plan's lines (explain.cc).
  bool ExplainRows(const Plan& plan, const std::vector<Value>& params,
                   std::vector<std::string>* lines, PgError* error);
  bool AnalyzeValues(Plan* plan, PgError* error);
  ExecuteResult Run(PortalImpl* portal, int64_t max_rows, ResultSink* sink,
                    bool simple);
  ExecuteResult RunPortal(PortalImpl* portal, int64_t max_rows,
                          ResultSink* sink, bool simple);
  ExecuteResult RunUtility(const Plan& plan, ResultSink* sink);
  ExecuteResult RunTransaction(const PgQuery__TransactionStmt* stmt,
                               ResultSink* sink);
  ExecuteResult RunSet(const PgQuery__VariableSetStmt* stmt, ResultSink* sink);
  bool ApplyTransactionOptions(PgQuery__Node* const* options, size_t n,
                               PgError* error);
  // 25006 inside a read-only transaction.
  bool CheckWritable(const char* what, PgError* error);
  ExecuteResult RunShow(const PgQuery__VariableShowStmt* stmt, ResultSink* sink,
                        PortalImpl* portal);
  ExecuteResult RunCreateRole(const PgQuery__CreateRoleStmt* stmt);
  ExecuteResult RunAlterRole(const PgQuery__AlterRoleStmt* stmt);
  ExecuteResult RunRenameRole(const PgQuery__RenameStmt* stmt,
                              ResultSink* sink);
  ExecuteResult RunDropRole(const PgQuery__DropRoleStmt* stmt,
                            ResultSink* sink);
  ExecuteResult RunCopy(const Plan& plan, ResultSink* sink);
  ExecuteResult RunDeclare(const Plan& plan, const std::vector<Value>& params);
  bool ComputeSelectRows(PortalImpl* portal, PgError* error);

  // ---- Tables (tables.cc, ddl_table.cc, dml.cc, sequences.cc) ----
  // The catalog of the current database as of the storage snapshot.
  bool LoadCatalog(PgError* error);
  CompileContext MakeCompileContext(Plan* plan);
  // Enough context to look relations up by name: the catalog, the
  // database and the session's search_path (pg_temp included).
  CompileContext LookupContext();
  bool IsTableStatement(const PgQuery__Node* node);
  bool AnalyzeTableSelect(Plan* plan, PgError* error);
  bool RunCompiledSelect(PortalImpl* portal, PgError* error);
  // pg_stat_activity (activity.cc): what this session does, read by
  // others under activity_mu_.
  struct Activity {
    std::string state = "idle", query, usename, application_name;
    std::string client_addr;  // "": none
    int client_port = -1;
    int64_t backend_start = 0, xact_start = 0, query_start = 0,
            state_change = 0;  // Unix microseconds, 0: none
  };
  std::mutex activity_mu_;
  Activity activity_;
  std::function<void()> terminate_hook_;
  // The settings generation activity_.application_name was read at.
  uint64_t activity_settings_generation_ = ~uint64_t{0};
  // active: a statement starts (its text, Unix microseconds); else the
  // session waits for its client.
  void ReportActivity(bool active, std::string_view query, int64_t start);
  // txid_current(), pg_current_xact_id() and their _if_assigned forms
  // (xids.cc).
  // The advisory locks held and awaited in this process (pg_locks).
  std::string AdvisoryLockLines();
  bool CallXidFunction(const std::string& name, const std::vector<Value>& args,
                       Value* out, PgError* error);
  // This transaction's id, taken now when `assign` (0: none yet).
  bool TransactionXid(bool assign, uint64_t* xid, PgError* error);
  uint64_t XidTransactionKey() const;
  bool CallActivityFunction(const std::string& name,
                            const std::vector<Value>& args, Value* out,
                            PgError* error);

 public:
  // Its pg_stat_activity line (activity.cc), and pg_cancel_backend /
  // pg_terminate_backend on it; for the engine.
  std::string ActivityLine();
  const std::string& database() const { return database_; }
  bool Signal(bool terminate);

 private:
  // LISTEN / UNLISTEN / NOTIFY (notify.cc): what the open transaction
  // asked for, applied when it commits.
  struct PendingNotify {
    struct Mark {
      std::string name;
      size_t notes, listens;
    };
    std::vector<std::pair<std::string, std::string>> notes;  // channel, payload
    std::vector<std::pair<char, std::string>> listens;  // 'L' / 'U' ("": all)
    std::vector<Mark> marks;                            // savepoints
  };
  PendingNotify pending_notify_;
  std::shared_ptr<NotificationHub::Inbox> inbox_;  // from the first LISTEN
  bool QueueNotify(const std::string& channel, const std::string& payload,
                   PgError* error);
  ExecuteResult RunListen(const PgQuery__Node* node);
  void EndNotifyTransaction(bool commit);
  // A transaction (block, implicit or single statement) committed or
  // rolled back: its NOTIFYs go out or are dropped, its deferred checks and
  // SET CONSTRAINTS end.
  void TransactionEnded(bool commit);
  // what: 'S' savepoint, 'X' release, 'R' rollback to.
  void NotifySavepoint(const std::string& name, char what);
  void CloseInbox();

  // A PartialAggregate plan over two threads (parallel_aggregate.cc);
  // *done false when it did not run so (the caller runs it whole).
  bool RunPartialAggregate(PortalImpl* portal, bool* done, PgError* error);
  static int HelperProgress(void* session);
  // The helper thread's reader session, opened at the first parallel run.
  std::unique_ptr<docstore::Session> parallel_reader_;
  std::atomic<bool> parallel_stop_{false};
  // Re-analyses a plan whose catalog or search_path changed since it was
  // analysed.
  bool RefreshPlan(Plan* plan, PgError* error);
  // Records what an analysis depended on (catalog, search_path).
  void NoteAnalysed(Plan* plan);
  bool SameSearchPath(Plan* plan);
  bool AnalyzeInsert(Plan* plan, PgError* error);
  // search_path and temporary objects (search_path.cc). Lookup: the
  // existing schemas of search_path, the session's temporary schema first
  // when it has one; creation: the first existing schema of the path.
  std::vector<std::string> SearchPathSchemas(bool for_lookup);
  int64_t EstimateRows(const std::string& sqlite_table) override {
    PgError ignored;
    sqlite3_stmt* stmt =
        CachedStatement("SELECT max(rid) FROM " + sqlite_table, &ignored);
    if (!stmt) return -1;
    int64_t rows =
        sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_reset(stmt);
    return rows;
  }
  std::vector<std::string> SchemaSearchPath(bool for_lookup) override {
    PgError ignored;
    LoadCatalog(&ignored);
    return SearchPathSchemas(for_lookup);
  }
  // The schema of an existing relation named `name` (explicit, or the first
  // schema of the path holding it; else the creation schema).
  std::string LookupSchema(const char* schemaname, const std::string& name);
  // Where CREATE puts a new relation (TEMP: the session's pg_temp_N).
  bool CreationSchema(const PgQuery__RangeVar* rv, std::string* schema,
                      PgError* error);
  std::string TempSchemaName() const;
  bool EnsureTempSchema(std::string* schema, PgError* error);
  // A utility statement run on the session's own behalf, in the current
  // storage transaction.
  ExecuteResult RunInternal(const std::string& text);
  // ON COMMIT DROP ('d') / DELETE ROWS ('r') of temporary tables, run
  // before each commit.
  void RegisterOnCommit(const catalog::Table& table, char action);
  bool RunOnCommitActions(PgError* error);
  void DropTempSchema();
  // CREATE TABLE AS / SELECT INTO (ddl_ctas.cc).
  bool AnalyzeCreateTableAs(Plan* plan, PgError* error);
  ExecuteResult RunCreateTableAs(PortalImpl* portal, ResultSink* sink);
  bool AnalyzeUpdate(Plan* plan, PgError* error);
  bool AnalyzeDelete(Plan* plan, PgError* error);
  bool RunDml(PortalImpl* portal, PgError* error);
  // RunDml's parts: the write's start (lock, transaction, timeout), reading
  // the rows to change, changing them.
  bool StartDml(PortalImpl* portal, const char* command, bool counters,
                PgError* error);
  bool CollectDml(PortalImpl* portal, const struct DmlPlan& dml, bool merge,
                  struct DmlRows* rows, PgError* error);
  bool ApplyDml(PortalImpl* portal, const struct DmlPlan& dml,
                const struct DmlRows& rows, int64_t* count, PgError* error);
  bool AnalyzeMerge(Plan* plan, PgError* error);
  bool RunMerge(PortalImpl* portal, PgError* error);
  // COPY FROM: an insert plan for the table (defaults, constraints, no
  // RETURNING), then rows through the INSERT pipeline one at a time. `row`
  // holds a value per table column (canonical text of the column's type);
  // provided[i] false means the column takes its default / counter value.
  bool PrepareCopyInsert(const catalog::Table* table,
                         std::shared_ptr<struct DmlPlan>* out, PgError* error);
  bool InsertCopyRow(const struct DmlPlan& dml, std::vector<Value>* row,
                     std::vector<bool>* provided, PgError* error);
  // COPY FROM in batches: the document of a row (defaults and constraints
  // applied), and the error of a failed docstore::Session::InsertMany.
  bool BuildCopyDocument(const struct DmlPlan& dml, std::vector<Value>* row,
                         std::vector<bool>* provided, bson_t* doc,
                         PgError* error);
  PgError CopyInsertError(const struct DmlPlan& dml, const docstore::Status& s,
                          const std::vector<Value>& row);
  ExecuteResult RunCreateTable(const PgQuery__CreateStmt* stmt,
                               ResultSink* sink);
  // What a LIKE clause of CREATE TABLE copies (ddl_table_like.cc).
  bool ExpandTableLike(const PgQuery__TableLikeClause* like,
                       struct TableLikeCopy* copy, PgError* error);
  ExecuteResult RunDrop(const PgQuery__DropStmt* stmt, ResultSink* sink);
  // DROP SCHEMA and what a DROP ... CASCADE reaches (ddl_drop.cc).
  bool DropSchema(const std::string& name, bool missing_ok, bool cascade,
                  ResultSink* sink, PgError* error);
  DropClosure MakeDropClosure();
  // RESTRICT: 2BP01 when `root` has dependents; CASCADE: PostgreSQL's
  // NOTICE listing them.
  bool ReportDrop(const DropClosure& closure, const DependentObject& root,
                  bool cascade, ResultSink* sink, PgError* error);
  // Deletes every object of the closure, dependents first.
  bool DropObjects(const DropClosure& closure, PgError* error);
  ExecuteResult RunCreateSequence(const PgQuery__CreateSeqStmt* stmt,
                                  ResultSink* sink);
  ExecuteResult RunAlterSequence(const PgQuery__AlterSeqStmt* stmt,
                                 ResultSink* sink);
  ExecuteResult RunCreateIndex(const PgQuery__IndexStmt* stmt,
                               ResultSink* sink);
  ExecuteResult RunCreateSchema(const PgQuery__CreateSchemaStmt* stmt,
                                ResultSink* sink);
  ExecuteResult RunTruncate(const PgQuery__TruncateStmt* stmt,
                            ResultSink* sink);
  ExecuteResult RunAlterTable(const PgQuery__AlterTableStmt* stmt,
                              ResultSink* sink);
  ExecuteResult RunCreateView(const PgQuery__ViewStmt* stmt, const Plan& plan);
  ExecuteResult RunComment(const PgQuery__CommentStmt* stmt);
  // Databases' owner, comment, connection limit and setting defaults
  // (databases.cc): `change` edits the record of database `db` in the
  // current transaction (3D000 when there is no such database).
  bool UpdateDatabaseRecord(const std::string& db,
                            const std::function<bool(DatabaseRecord*)>& change,
                            PgError* error);
  ExecuteResult RunAlterDatabaseOwner(const std::string& db,
                                      const std::string& owner);
  ExecuteResult RunCommentOnDatabase(const PgQuery__CommentStmt* stmt,
                                     ResultSink* sink);
  ExecuteResult RunAlterDatabase(const PgQuery__AlterDatabaseStmt* stmt);
  ExecuteResult RunAlterDatabaseSet(const PgQuery__AlterDatabaseSetStmt* stmt);
  ExecuteResult RunAlterRoleSet(const PgQuery__AlterRoleSetStmt* stmt);
  // ALTER DATABASE / ALTER ROLE ... IN DATABASE: SET, RESET, RESET ALL of
  // the defaults of `role` ("" for every role) in `db`.
  bool ChangeSettingDefaults(const std::string& db, const std::string& role,
                             const PgQuery__VariableSetStmt* set,
                             PgError* error);
  // pg_dump's statements around stored objects (dump_objects.cc).
  ExecuteResult RunAlterOwner(const PgQuery__AlterOwnerStmt* stmt);
  ExecuteResult RunCommentOnSchema(const PgQuery__CommentStmt* stmt);
  ExecuteResult RunGrant(const PgQuery__GrantStmt* stmt);
  ExecuteResult RunRenameObject(const PgQuery__RenameStmt* stmt,
                                ResultSink* sink);
  // ALTER TABLE / VIEW / SEQUENCE ... SET SCHEMA (ddl_set_schema.cc).
  ExecuteResult RunSetSchema(const PgQuery__AlterObjectSchemaStmt* stmt,
                             ResultSink* sink);
  static bool IsRelationSetSchema(const PgQuery__Node* node);
  // SQL PREPARE / EXECUTE and VACUUM / ANALYZE (prepare.cc).
  bool AnalyzePrepare(Plan* plan, PgError* error);
  ExecuteResult RunPrepare(const Plan& plan);
  bool AnalyzeExecute(Plan* plan, PgError* error);
  ExecuteResult RunExecute(PortalImpl* portal, int64_t max_rows,
                           ResultSink* sink, bool simple);
  ExecuteResult RunVacuum(const PgQuery__VacuumStmt* stmt);
  ExecuteResult RunReindex(const PgQuery__ReindexStmt* stmt);
  // The table named by `rv` (or, with `index`, the table of the index it
  // names) along the search path; 42P01 when there is none.
  const catalog::Table* TableOnPath(const PgQuery__RangeVar* rv, bool index,
                                    PgError* error);
  // CLUSTER (cluster.cc): rewrites tables in an index's order.
  ExecuteResult RunCluster(const PgQuery__ClusterStmt* stmt);
  bool ClusterTable(const catalog::Table& table, const std::string& index,
                    PgError* error);
  std::map<std::string, std::shared_ptr<Plan>> sql_prepared_;
  // Tables created or truncated in the current transaction and savepoint
  // level (COPY FREEZE is allowed on them, as PostgreSQL allows it).
  std::map<std::string, std::pair<int64_t, size_t>> fresh_tables_;
  void MarkFreshTable(const std::string& qualified) {
    if (in_block_ || implicit_)
      fresh_tables_[qualified] = {txn_start_, savepoints_.size()};
  }
  bool IsFreshTable(const std::string& qualified) const {
    auto it = fresh_tables_.find(qualified);
    return (in_block_ || implicit_) && it != fresh_tables_.end() &&
           it->second == std::make_pair(txn_start_, savepoints_.size());
  }
  std::unique_ptr<PortalImpl> execute_portal_;
  // A storage status as a PostgreSQL error.
  PgError TableError(const docstore::Status& s);
  // Sequence helpers (sequences.cc).
  bool ResolveSequence(const std::string& name, const catalog::Sequence** seq,
                       PgError* error);
  bool NextValue(const catalog::Sequence& seq, int64_t* value, PgError* error);
  // Storage writes need the write lock for the whole transaction.
  docstore::Status EnsureWriteTransaction();
  docstore::Status CommitStorage();
  docstore::Status ApplyDurability();
  int durable_commits_ = -1;  // PRAGMA synchronous applied: 1 FULL, 0 NORMAL
  // The settings generation durable_commits_ was last decided at: most
  // transactions change no setting, and reading one costs a map lookup.
  uint64_t durability_generation_ = 0;
  // The table's docstore collection table (quoted SQLite name).
  bool CollectionTable(const std::string& collection, std::string* table,
                       PgError* error);
  bool EncodeRow(const std::vector<Value>& values,
                 const std::vector<ColumnDesc>& columns,
                 const std::vector<Format>& formats, std::vector<Datum>* out,
                 PgError* error);

  // Parse trees by query text: clients resend the same text (simple
  // protocol, unnamed statements), and parsing costs more than running a
  // simple statement. Trees are immutable, so sharing them is safe.
  bool ParseCached(std::string_view text, std::shared_ptr<sql::ParseTree>* tree,
                   PgError* error);

  // CREATE INDEX ... WHERE: the condition checked as PostgreSQL checks an
  // index predicate, as SQL text for the catalog.
  bool IndexPredicate(const catalog::Table& table, const PgQuery__Node* node,
                      std::string* text, PgError* error);
  // Deferred foreign key checks (deferred_checks.cc). A row change whose
  // foreign key check is deferred (a DEFERRABLE constraint in deferred mode)
  // queues the key; at commit, or when SET CONSTRAINTS makes the constraint
  // immediate, each key is checked against the data as it then stands:
  // referencing rows with the key need a referenced row with it. Checking
  // the state rather than the events keeps savepoint rollbacks right.
  struct DeferredCheck {
    std::string table;       // the referencing table, schema-qualified
    std::string constraint;  // its foreign key
    // The side whose change queued it: true the referenced table (DELETE
    // or UPDATE of a key), false the referencing one (INSERT or UPDATE).
    bool referenced_side = false;
    std::vector<Value> key;  // in that side's column types
    // ON DELETE / ON UPDATE RESTRICT: a referencing row fails even when the
    // referenced key is back (NO ACTION accepts that).
    bool restrict = false;
  };
  bool ForeignKeyDeferred(const catalog::Table& table,
                          const catalog::Constraint& c) const;
  void QueueDeferredCheck(DeferredCheck check);
  // Immediate foreign key checks run at the end of the statement, as
  // PostgreSQL's after-row triggers do (a multi-row INSERT may reference its
  // own later rows; a DELETE may remove a whole tree of a self-referencing
  // table). A row is checked when it changes and only a failing check is
  // queued, to be checked again when the statement ends.
  void QueueStatementCheck(DeferredCheck check);
  void ClearStatementChecks();
  static std::string DeferredCheckId(const DeferredCheck& check);
  // Adds `check` to `checks` unless `ids` shows the same one there already.
  static void EnqueueCheck(DeferredCheck check,
                           std::vector<DeferredCheck>* checks,
                           std::set<std::string>* ids);
  bool CheckStatementConstraints(PgError* error);
  // One queued check against the data as it stands; false with the
  // violation (or an error) in `error`.
  bool VerifyQueuedCheck(const DeferredCheck& check, PgError* error);
  // A DEFERRABLE key's check: no two rows hold check.key.
  bool VerifyUniqueKey(const catalog::Table& table,
                       const catalog::Constraint& c, const DeferredCheck& check,
                       PgError* error);
  std::vector<DeferredCheck> statement_checks_;
  std::set<std::string> statement_keys_;
  int run_depth_ = 0;  // nested Run calls (EXECUTE runs its statement)
  // Runs the queued checks (of the constraints `only` names, schema-qualified,
  // or all) and drops them; the first violation is the error.
  bool CheckDeferredConstraints(PgError* error,
                                const std::vector<std::string>* only = nullptr);
  void ClearDeferredConstraints();
  ExecuteResult RunSetConstraints(const PgQuery__ConstraintsSetStmt* stmt,
                                  ResultSink* sink);
  std::vector<DeferredCheck> deferred_checks_;
  std::set<std::string> deferred_keys_;  // queued already (one check each)
  // SET CONSTRAINTS for this transaction: ALL (0 not given, 1 deferred, 2
  // immediate), then named constraints ("schema.name") that override it.
  int constraints_all_ = 0;
  std::map<std::string, bool> constraints_deferred_;
  // The SET CONSTRAINTS state at each savepoint, restored by ROLLBACK TO.
  struct ConstraintModes {
    int all = 0;
    std::map<std::string, bool> deferred;
  };
  std::vector<ConstraintModes> savepoint_constraint_modes_;
  // Rows of `t` whose `cols` equal `keys` (SELECT rid, doc ...), as the
  // foreign key checks probe them.
  // `nulls_equal`: a NULL key matches NULL (NULLS NOT DISTINCT).
  bool KeyQuery(const catalog::Table& t, const std::vector<std::string>& cols,
                std::string* sql, PgError* error, bool nulls_equal = false);
  bool ProbeRows(const std::string& sql, const std::vector<SValue>& keys,
                 const std::function<bool(int64_t, const std::string&)>& on_row,
                 PgError* error);

  // Transaction state.
  void BeginImplicit();
  // Transactions begin in the storage lazily, with the first statement that
  // reads or writes it (most session-level statements never do).
  docstore::Status EnsureStorageTransaction();
  // Ends the implicit transaction; a commit runs the deferred checks first,
  // and their failure (in `error`, when given) rolls it back instead.
  bool EndImplicit(bool commit, PgError* error = nullptr);
  void OnStatementError();
  void Notice(ResultSink* sink, const char* severity, const char* sqlstate,
              std::string message, std::string detail = "");

  Engine* engine_;
  std::unique_ptr<docstore::Session> storage_;
  std::string user_;
  std::string database_;
  bool superuser_;
  std::string server_version_;
  int pid_;
  Settings settings_;

  bool temp_schema_checked_ = false;  // pg_temp_N is this session's
  struct OnCommit {
    std::string schema, name;
    uint32_t oid;
    char action;
  };
  std::vector<OnCommit> on_commit_;

  bool in_block_ = false;  // explicit BEGIN
  bool implicit_ = false;  // implicit transaction (multi-statement / extended)
  bool failed_ = false;    // 'E'
  // A simple-query statement outside any block: its storage work commits
  // (or rolls back) when it ends.
  bool single_statement_ = false;
  // The statement being analysed or run writes storage (WritesStorage).
  bool statement_writes_ = false;
  bool suppress_notices_ = false;  // objects dropped by a cascade
  // Per-statement snapshots in READ COMMITTED blocks (RefreshReadSnapshot).
  int64_t statement_seq_ = 0;
  // Transaction blocks begun (each BEGIN or implicit block), and the id
  // taken by the transaction of xid_key_ (XidTransactionKey).
  uint64_t txn_serial_ = 0;
  uint64_t xid_key_ = ~uint64_t{0};
  uint64_t xid_ = 0;
  // The row RETURNING is evaluated for has this transaction as xmax.
  bool returning_xmax_ = false;
  int64_t snapshot_statement_ = -1;
  bool txn_wrote_ = false;
  void RefreshReadSnapshot();
  std::vector<std::string> savepoints_;
  int64_t txn_start_ = 0;
  int64_t statement_start_ = 0;

  std::unordered_map<std::string, std::shared_ptr<sql::ParseTree>> parse_cache_;

  // Simple-query SELECTs translated earlier, by the shape of their text
  // (query_cache.cc). `slots[l]`: the bound values literal l feeds, empty
  // when its value must stay as it was.
  struct SimplePlan {
    std::shared_ptr<Plan> plan;
    std::vector<QueryLiteral> literals;  // of the text `plan` was made from
    std::vector<std::vector<int>> slots;
    uint64_t settings_generation = 0;
    int64_t catalog_version = -1;
  };
  std::unordered_map<std::string, SimplePlan> simple_plans_;
  // The plan of a text of this shape, ready to run, or null. Begins the
  // statement's storage transaction (as analysis would).
  std::shared_ptr<Plan> CachedSimplePlan(std::string_view text,
                                         const QueryShape& shape);
  void RememberSimplePlan(const QueryShape& shape,
                          const std::shared_ptr<Plan>& plan);
  // An error position of a cached plan, moved to this text.
  int SimplePlanPosition(const QueryShape& shape, int position);

  // SQL cursors (DECLARE ... CURSOR FOR query): the query's rows, computed
  // at DECLARE, handed out by FETCH.
  // Where FETCH leaves it is PostgreSQL's portal state: `current` the row
  // the cursor is on (0 before the first, rows.size() + 1 past the last),
  // portal_pos, at_start and at_end as pquery.c keeps them.
  struct Cursor {
    std::shared_ptr<Plan> plan;
    std::vector<std::vector<Datum>> rows;
    bool hold = false;
    bool scroll = false;  // may move backward (cursors.cc)
    int64_t current = 0;
    int64_t portal_pos = 0;
    bool at_start = true;
    bool at_end = false;
  };
  std::map<std::string, Cursor> cursors_;
  void DropTransactionCursors();
  // FETCH ALL's count (LONG_MAX in the parse tree).
  static constexpr int64_t kFetchAll = INT64_MAX;
  bool CursorStep(Cursor& c, bool forward, int64_t count,
                  std::vector<size_t>* out, uint64_t* processed,
                  PgError* error);
  bool CursorRewind(Cursor& c, PgError* error);
  bool CursorFetch(Cursor& c, const PgQuery__FetchStmt* f,
                   std::vector<size_t>* out, uint64_t* processed,
                   PgError* error);

  SqlRuntime runtime_{this};
  std::shared_ptr<const catalog::Catalog> catalog_;
  int64_t catalog_version_ = -1;
  // currval by sequence counter id, and lastval.
  std::map<std::string, int64_t> currvals_;
  std::optional<int64_t> lastval_;
  std::unordered_map<std::string, std::string> collection_tables_;
  // Arguments of nextval/currval/setval already resolved against catalog_
  // and the search path as of a settings generation: a nextval then skips
  // parsing the name and walking the path. Cleared whenever catalog_ is
  // reloaded (the pointers point into it).
  struct ResolvedSequence {
    const catalog::Sequence* sequence;
    uint64_t settings_generation;
    bool temp_schema_checked;
  };
  std::unordered_map<std::string, ResolvedSequence> resolved_sequences_;
  // Whether each statement takes a snapshot of its own (READ COMMITTED,
  // READ UNCOMMITTED), as of settings generation snapshot_rule_generation_.
  bool SnapshotPerStatement();
  bool snapshot_per_statement_ = true;
  uint64_t snapshot_rule_generation_ = ~uint64_t{0};
  // Statements the planner runs directly (foreign key probes, ON CONFLICT
  // lookups), prepared once per session.
  std::unordered_map<std::string, sqlite3_stmt*> statement_cache_;
  sqlite3_stmt* CachedStatement(const std::string& sql, PgError* error);

  std::atomic<bool> running_{false};
  std::atomic<bool> cancel_{false};
  bool holds_advisory_ = false;         // some advisory lock, any level
  bool holds_xact_advisory_ = false;    // one released at transaction end
  ResultSink* running_sink_ = nullptr;  // where a running statement's
                                        // notices go
  // Set while a bulk insert runs (COPY's batches). Cancel() then only sets
  // cancel_, checked between batches: SQLite checks its interrupt flag
  // inside a multi-row INSERT, and an interrupted write statement rolls
  // back the whole transaction, savepoints and the block's earlier work.
  std::mutex interrupt_mu_;
  bool bulk_writing_ = false;  // guarded by interrupt_mu_
  // Marks the start and end of a bulk insert; BeginBulkWrite returns false
  // (and marks nothing) when the statement was cancelled already.
  bool BeginBulkWrite();
  void EndBulkWrite();
  // INSERT, UPDATE and DELETE run as bulk writes too (dml_run.cc): SQLite
  // answers an interrupted writing statement by rolling back the whole
  // transaction (sqlite3VdbeHalt). A cancel or statement_timeout instead
  // fails the statement with an ordinary error: StatementCancelled is
  // checked per row, and the reading scan before the writes stops through
  // a progress handler (WatchScan) while it alone runs on the connection,
  // so the interrupted statement is a read-only one SQLite ends alone.
  // `started`: where statement_timeout counts from.
  // They nest (CREATE TABLE AS runs an INSERT): the outermost one counts.
  bool BeginWriteStatement(int64_t started, PgError* error);
  void EndWriteStatement();
  int write_statement_depth_ = 0;
  // CREATE INDEX, CREATE TABLE AS and ALTER TABLE run as write statements
  // too: their reading scans stop through WatchScan, their row loops check
  // StatementCancelled, and an index build stops through the docstore's
  // cancel check (an ordinary SQLite error). Whatever error a cancelled
  // statement then fails with becomes the 57014 of the cancel.
  ExecuteResult RunCancellableDdl(bool simple,
                                  const std::function<ExecuteResult()>& run);
  // Whether a cancel or statement_timeout asks the statement to stop.
  bool StopRequested() const;
  static bool StopRequestedHook(void* session);
  void WatchScan(bool on);
  static int ScanProgress(void* session);
  // Whether the running write statement was cancelled or ran past
  // statement_timeout; *error then says which (57014).
  bool StatementCancelled(PgError* error);
  int64_t statement_deadline_ = 0;  // NowMicros(); 0: no statement_timeout
  // A SELECT run under statement_timeout: its scan stops at the deadline.
  bool RunSelectWithTimeout(PortalImpl* portal, PgError* error);
  // statement_timeout as of settings generation statement_timeout_generation_
  // (every SELECT reads it; a setting lookup costs a map search).
  int64_t statement_timeout_ms_ = 0;
  uint64_t statement_timeout_generation_ = ~uint64_t{0};
  int64_t CachedStatementTimeoutMs();
  // The read-only settings as of settings generation read_only_generation_
  // (every INSERT, UPDATE and DELETE checks them).
  bool transaction_read_only_ = false;
  bool default_read_only_ = false;
  uint64_t read_only_generation_ = ~uint64_t{0};
  std::mutex sleep_mu_;
  std::condition_variable sleep_cv_;
};

}  // namespace kova::planner
