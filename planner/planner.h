// The planner: runs SQL statements for one client session against the
// catalog and the docstore, with PostgreSQL 15's semantics, types, result
// formats and errors. The wire layer (protocol) talks only to this header.
//
// Threading: an Engine is shared by all sessions; a Session is used by one
// connection thread at a time, except Session::Cancel, which any thread may
// call.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "sql/sql.h"

namespace kova::planner {

// PostgreSQL type OIDs (pg_type.oid) used across layers.
namespace oid {
inline constexpr uint32_t kBool = 16;
inline constexpr uint32_t kBytea = 17;
inline constexpr uint32_t kName = 19;
inline constexpr uint32_t kInt8 = 20;
inline constexpr uint32_t kInt2 = 21;
inline constexpr uint32_t kInt4 = 23;
inline constexpr uint32_t kText = 25;
inline constexpr uint32_t kOid = 26;
inline constexpr uint32_t kTid = 27;
inline constexpr uint32_t kXid = 28;
inline constexpr uint32_t kCid = 29;
inline constexpr uint32_t kJson = 114;
inline constexpr uint32_t kFloat4 = 700;
inline constexpr uint32_t kFloat8 = 701;
inline constexpr uint32_t kUnknown = 705;
inline constexpr uint32_t kBpchar = 1042;
inline constexpr uint32_t kVarchar = 1043;
inline constexpr uint32_t kDate = 1082;
inline constexpr uint32_t kTime = 1083;
inline constexpr uint32_t kTimestamp = 1114;
inline constexpr uint32_t kTimestamptz = 1184;
inline constexpr uint32_t kInterval = 1186;
inline constexpr uint32_t kNumeric = 1700;
inline constexpr uint32_t kUuid = 2950;
inline constexpr uint32_t kRecord = 2249;
inline constexpr uint32_t kVoid = 2278;
inline constexpr uint32_t kJsonb = 3802;
inline constexpr uint32_t kXid8 = 5069;
}  // namespace oid

// An ErrorResponse or NoticeResponse, field by field.
struct PgError {
  std::string severity = "ERROR";  // ERROR, FATAL, NOTICE, WARNING, ...
  std::string sqlstate;            // e.g. "42601"
  std::string message;             // lower case, no trailing period
  std::string detail;
  std::string hint;
  int position = 0;     // 1-based character offset into the statement; 0 none
  std::string context;  // CONTEXT lines, e.g. "COPY t, line 2, column a: \"x\""
};

enum class Format : int16_t { kText = 0, kBinary = 1 };

// One column of a RowDescription.
struct ColumnDesc {
  std::string name;
  uint32_t table_oid = 0;     // 0 unless the column is a table column
  int16_t column_number = 0;  // attnum, 0 unless a table column
  uint32_t type_oid = oid::kText;
  int16_t type_size = -1;      // pg_type.typlen
  int32_t type_modifier = -1;  // atttypmod
};

// A parameter or result value: SQL NULL, or its bytes in the format agreed
// for it (text or binary, as PostgreSQL's send/recv functions).
struct Datum {
  bool null = true;
  std::string bytes;
  static Datum Null() { return Datum{}; }
  static Datum Of(std::string b) { return Datum{false, std::move(b)}; }
};

// Where a statement's output goes; implemented by the wire layer.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  // Simple query only (the extended protocol describes with Describe).
  virtual void RowDescription(const std::vector<ColumnDesc>& columns,
                              const std::vector<Format>& formats) = 0;
  virtual void DataRow(const std::vector<Datum>& values) = 0;
  virtual void Notice(const PgError& notice) = 0;

  // COPY ... FROM STDIN: the engine calls BeginCopyIn once (the wire sends
  // CopyInResponse), then ReadCopyData until it returns kDone or kFail.
  enum class CopyRead { kData, kDone, kFail };
  virtual void BeginCopyIn(Format format, int columns) = 0;
  // kData: *data holds the next CopyData payload. kFail: *data holds the
  // client's CopyFail message.
  virtual CopyRead ReadCopyData(std::string* data) = 0;
  // DEALLOCATE name / DEALLOCATE ALL / DISCARD ALL: protocol-level and SQL
  // prepared statements share one namespace, kept by the wire layer.
  // Returns false when the named statement does not exist (the planner
  // then fails the statement with 26000).
  virtual bool DeallocatePrepared(std::string_view name) = 0;
  virtual void DeallocateAllPrepared() = 0;

  // COPY ... TO STDOUT: BeginCopyOut, CopyOutData per row, EndCopyOut.
  virtual void BeginCopyOut(Format format, int columns) = 0;
  virtual void CopyOutData(std::string_view data) = 0;
  virtual void EndCopyOut() = 0;
};

// A parsed and analysed statement (the extended protocol's Parse, or SQL
// PREPARE). Owned by the wire layer's statement map.
class PreparedStatement {
 public:
  virtual ~PreparedStatement() = default;
  virtual const std::string& text() const = 0;
  // One OID per $n (given by the client or inferred); 0 never remains.
  virtual const std::vector<uint32_t>& param_types() const = 0;
  // The result columns; empty when the statement returns no rows.
  virtual const std::vector<ColumnDesc>& columns() const = 0;
};

// A statement bound to parameter values (the extended protocol's Bind).
class Portal {
 public:
  virtual ~Portal() = default;
  virtual const std::vector<ColumnDesc>& columns() const = 0;
  virtual const std::vector<Format>& result_formats() const = 0;
};

// What one Execute (or one statement of a simple query) did.
struct ExecuteResult {
  bool ok = true;
  PgError error;             // when !ok
  bool suspended = false;    // row limit reached: PortalSuspended
  bool empty_query = false;  // EmptyQueryResponse instead of a tag
  std::string command_tag;   // "SELECT 3", "INSERT 0 1", "SET", ...
};

// How a role may log in (from CREATE ROLE ... PASSWORD).
struct RoleAuth {
  bool exists = false;
  bool can_login = false;
  // Empty: no password. Otherwise PostgreSQL's stored forms:
  // "SCRAM-SHA-256$<iter>:<salt b64>$<StoredKey b64>:<ServerKey b64>" or
  // "md5<32 hex>" (md5 of password + role name).
  std::string password;
};

class Session;

struct EngineOptions {
  std::string server_version = "15.18";  // reported as server_version
  // Server-wide setting defaults (kova serve -c name=value), applied to
  // every session before the client's startup parameters.
  std::vector<std::pair<std::string, std::string>> settings;
};

// One per server process.
class Engine {
 public:
  virtual ~Engine() = default;
  static std::unique_ptr<Engine> Create(docstore::Store* store,
                                        const EngineOptions& options);

  virtual bool DatabaseExists(std::string_view name) = 0;
  virtual RoleAuth LookupRole(std::string_view name) = 0;

  // A session for a connection. `startup` holds the StartupMessage's
  // parameters (user, database, options, application_name, ...). Fails
  // with 3D000 for a database that does not exist, 28000 for an unknown
  // role, or 22023/42704 for a bad `options` setting.
  virtual bool NewSession(
      const std::vector<std::pair<std::string, std::string>>& startup,
      std::unique_ptr<Session>* session, PgError* error) = 0;
};

// A NOTIFY delivered to a listening session.
struct Notification {
  int32_t pid = 0;  // the notifying session's backend pid
  std::string channel;
  std::string payload;
};

class Session {
 public:
  virtual ~Session() = default;

  // ParameterStatus: every reported setting at startup, in this order.
  virtual std::vector<std::pair<std::string, std::string>>
  ReportedSettings() = 0;
  // Reported settings whose value changed since the last call (SET, RESET,
  // set_config, a rolled-back SET LOCAL, ...), to send as ParameterStatus
  // before ReadyForQuery.
  virtual std::vector<std::pair<std::string, std::string>>
  TakeReportChanges() = 0;

  // 'I' idle, 'T' in a transaction block, 'E' in a failed one.
  virtual char TransactionStatus() = 0;

  // Simple query: runs every statement of `text`, as PostgreSQL does
  // (several statements form one implicit transaction unless they contain
  // transaction control; an error ends the message). `on_statement_done` is
  // called after each statement with its result; the wire sends
  // CommandComplete/EmptyQueryResponse/ErrorResponse from it.
  virtual void SimpleQuery(
      std::string_view text, ResultSink* sink,
      const std::function<void(const ExecuteResult&)>& on_statement_done) = 0;

  // Extended query. Parse: `param_types` may be shorter than the number of
  // parameters and may hold 0s; both mean "infer".
  virtual bool Parse(std::string_view text,
                     const std::vector<uint32_t>& param_types,
                     std::unique_ptr<PreparedStatement>* statement,
                     PgError* error) = 0;
  // Bind: param_formats has 0, 1 or N entries (as the protocol); likewise
  // result_formats for the result columns.
  virtual bool Bind(const PreparedStatement& statement,
                    const std::vector<Datum>& params,
                    const std::vector<Format>& param_formats,
                    const std::vector<Format>& result_formats,
                    std::unique_ptr<Portal>* portal, PgError* error) = 0;
  // Runs a portal for at most max_rows rows (0 = all). A suspended portal
  // continues from where it stopped on the next call.
  virtual ExecuteResult Execute(Portal* portal, int64_t max_rows,
                                ResultSink* sink) = 0;
  // Sync outside an explicit transaction block commits the implicit one;
  // false (with the error) when its deferred constraint checks fail and it
  // rolled back instead.
  virtual bool Sync(PgError* error) = 0;

  // The backend process id clients see: BackendKeyData, pg_backend_pid()
  // and the sender of a NOTIFY.
  virtual int32_t ProcessId() = 0;
  // pg_terminate_backend: how the connection is ended (the wire shuts its
  // socket's read side); null to clear. Thread-safe.
  virtual void SetTerminateHook(std::function<void()> hook) = 0;
  // The client's address and port, for pg_stat_activity ("" and -1 when
  // not over TCP).
  virtual void SetClientAddress(std::string address, int port) = 0;
  // Interrupts the running statement (CancelRequest): it fails with 57014
  // "canceling statement due to user request". Thread-safe.
  virtual void Cancel() = 0;
  // LISTEN: a descriptor that turns readable when a notification arrives
  // for this session (-1 while it listens to no channel), and the
  // notifications to send the client now (none inside a transaction block,
  // where PostgreSQL holds them until it ends).
  virtual int NotificationFd() = 0;
  virtual void TakeNotifications(std::vector<Notification>* out) = 0;
  // Called once when the connection ends: rolls back what is open.
  virtual void Terminate() = 0;
};

// PostgreSQL's SCRAM-SHA-256 verifier for a password (random salt, 4096
// iterations), as CREATE ROLE ... PASSWORD stores it.
std::string MakeScramVerifier(std::string_view password);

// Registers, on every SQLite connection the process opens from now on, the
// functions and collations stored data depends on (expression index keys
// and the value collations they use). Call before opening a store whose
// collections a session may write.
void InstallSqliteExtensions();

// How many statements of this process ran as a parallel aggregate (two
// threads over parts of one table's rows), for tests and diagnostics.
uint64_t ParallelAggregateRuns();

}  // namespace kova::planner
