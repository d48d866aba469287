// ALTER TABLE, views, COMMENT ON and ALTER ... RENAME for tables.
#include "planner/ddl.h"
#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

ExecuteResult SessionImpl::RunAlterTable(const PgQuery__AlterTableStmt* stmt,
                                         ResultSink* sink) {
  (void)stmt;
  (void)sink;
  return Fail(Err("0A000", "ALTER TABLE is not supported yet"));
}

ExecuteResult SessionImpl::RunCreateView(const PgQuery__ViewStmt* stmt,
                                         const Plan& plan) {
  (void)stmt;
  (void)plan;
  return Fail(Err("0A000", "CREATE VIEW is not supported yet"));
}

ExecuteResult SessionImpl::RunComment(const PgQuery__CommentStmt* stmt) {
  (void)stmt;
  return Fail(Err("0A000", "COMMENT is not supported yet"));
}

ExecuteResult SessionImpl::RunRenameObject(const PgQuery__RenameStmt* stmt) {
  (void)stmt;
  return Fail(Err("0A000", "ALTER ... RENAME is not supported yet"));
}

}  // namespace kova::planner
