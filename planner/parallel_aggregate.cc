// Parallel aggregation: a one-row aggregate over a large collection table
// (SELECT count(*), sum(a) FROM t WHERE b > 500000) computed by the
// session's thread and a helper thread, each over ranges of the table's
// rows, then combined, as PostgreSQL's Gather over a Partial Aggregate.
//
// Both threads must read one state of the store. The helper has a reader
// session of its own (its own SQLite connection), begins a read
// transaction, and the two go on only when docstore says both read the
// same snapshot; otherwise (a commit came in between) the statement runs
// whole. The helper's connection has the docstore's functions only: a
// statement that needs the session's runtime fails to prepare there and
// then always runs whole. Anything unusual in a part (an error, a value of
// a form the combination does not expect, an overflow) also makes the
// statement run whole, so that errors are the ones a whole run gives.
#include <atomic>
#include <thread>

#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/svalue.h"

namespace kova::planner {

namespace {

// Tables whose row ids span fewer rows run whole: starting the helper
// costs more than it saves (PostgreSQL's min_parallel_table_scan_size is
// 8 MB, some 100,000 narrow rows).
constexpr int64_t kMinParallelRows = 100000;
// Ranges the rows are cut into; each thread takes the next one left, so a
// thread that the scheduler holds back does less of the work.
constexpr int kRanges = 24;

bool CombinableAggregate(const Expr& e, const std::string& sql, char* op) {
  if (e.kind != Expr::Kind::kAggregate || e.distinct) return false;
  if (sql.compare(0, e.name.size() + 1, e.name + "(") != 0) return false;
  size_t n = e.args.size() - (e.has_else ? 1 : 0);
  if (e.name == "count") {
    *op = '+';
    return true;
  }
  if (n != 1) return false;
  uint32_t t = e.args[0]->type;
  if (e.name == "sum" && (t == oid::kInt2 || t == oid::kInt4)) {
    *op = '+';
    return true;
  }
  if ((e.name == "min" || e.name == "max") && SKindOf(e.type) == SKind::kInt &&
      e.type != oid::kBool) {
    *op = e.name == "min" ? '<' : '>';
    return true;
  }
  return false;
}

// One thread's combined parts.
struct Partials {
  std::vector<SValue> values;
  int rc = SQLITE_DONE;   // the first failing step's code
  bool unusable = false;  // a value the combination cannot take
};

// Adds part `v` of column `i` into `acc`.
bool Combine(char op, const SValue& v, SValue* acc) {
  if (v.kind == SKind::kNull) return true;
  if (v.kind != SKind::kInt) return false;
  if (acc->kind == SKind::kNull) {
    *acc = v;
    return true;
  }
  switch (op) {
    case '+':
      return !__builtin_add_overflow(acc->i, v.i, &acc->i);
    case '<':
      acc->i = std::min(acc->i, v.i);
      return true;
    default:
      acc->i = std::max(acc->i, v.i);
      return true;
  }
}

std::atomic<uint64_t> parallel_runs{0};

}  // namespace

uint64_t ParallelAggregateRuns() { return parallel_runs.load(); }

std::shared_ptr<PartialAggregate> PlanPartialAggregate(
    const std::vector<std::unique_ptr<Expr>>& targets,
    const std::vector<std::string>& target_sql, const std::string& from,
    const std::string& alias, const std::string& where,
    const std::string& select, size_t binds) {
  auto plan = std::make_shared<PartialAggregate>();
  bool counts_only = true;
  for (size_t i = 0; i < targets.size(); i++) {
    char op;
    if (!CombinableAggregate(*targets[i], target_sql[i], &op)) return nullptr;
    plan->combine.push_back(op);
    counts_only =
        counts_only && targets[i]->name == "count" && targets[i]->args.empty();
  }
  // SQLite counts a whole table from its B-tree's pages, faster alone.
  if (counts_only && where.empty()) return nullptr;
  plan->from = from;
  plan->rid = alias + ".rid";
  plan->lo_slot = static_cast<int>(binds) + 1;
  plan->sql = "SELECT " + select + " FROM " + from + " WHERE " + plan->rid +
              " BETWEEN ?" + std::to_string(plan->lo_slot) + " AND ?" +
              std::to_string(plan->lo_slot + 1);
  if (!where.empty()) plan->sql += " AND (" + where + ")";
  return plan;
}

int SessionImpl::HelperProgress(void* session) {
  auto* s = static_cast<SessionImpl*>(session);
  return s->StopRequested() || s->parallel_stop_.load() ? 1 : 0;
}

bool SessionImpl::RunPartialAggregate(PortalImpl* portal, bool* done,
                                      PgError* error) {
  *done = false;
  Plan& plan = *portal->plan;
  PartialAggregate& pa = *plan.compiled->partial;
  sqlite3* db = storage_->connection();
  // The session's own uncommitted rows are in no snapshot a helper sees.
  if (sqlite3_txn_state(db, "main") != SQLITE_TXN_READ) return true;
  // Kova uses one helper whatever the number; 0 turns parallel scans off.
  if (settings_.Get("max_parallel_workers_per_gather") == "0") return true;
  // The rows' id range, from the two ends of the table's B-tree.
  int64_t lo = 0, hi = 0;
  {
    sqlite3_stmt* stmt = nullptr;
    // Two subqueries: SQLite reads a lone min or max off the B-tree's end,
    // but scans the table for both in one query.
    std::string sql = "SELECT (SELECT min(" + pa.rid + ") FROM " + pa.from +
                      "), (SELECT max(" + pa.rid + ") FROM " + pa.from + ")";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      sqlite3_finalize(stmt);
      pa.unsupported = true;
      return true;
    }
    bool rows = sqlite3_step(stmt) == SQLITE_ROW &&
                sqlite3_column_type(stmt, 0) == SQLITE_INTEGER;
    if (rows) {
      lo = sqlite3_column_int64(stmt, 0);
      hi = sqlite3_column_int64(stmt, 1);
    }
    sqlite3_finalize(stmt);
    if (!rows || hi - lo < kMinParallelRows) return true;
  }
  if (!parallel_reader_ && !storage_->NewReader(&parallel_reader_).ok()) {
    parallel_reader_.reset();
    return true;
  }
  docstore::Session& reader = *parallel_reader_;
  if (!reader.BeginSnapshot().ok()) {
    if (reader.in_transaction()) reader.Rollback();
    return true;
  }
  struct EndRead {
    docstore::Session* s;
    ~EndRead() { s->Rollback(); }
  } end_read{&reader};
  if (!storage_->SharesSnapshotWith(reader)) return true;

  sqlite3* helper_db = reader.connection();
  sqlite3_stmt* mine = nullptr;
  sqlite3_stmt* theirs = nullptr;
  struct Finalize {
    sqlite3_stmt** a;
    sqlite3_stmt** b;
    ~Finalize() {
      sqlite3_finalize(*a);
      sqlite3_finalize(*b);
    }
  } finalize{&mine, &theirs};
  if (sqlite3_prepare_v2(helper_db, pa.sql.c_str(), -1, &theirs, nullptr) !=
          SQLITE_OK ||
      sqlite3_prepare_v2(db, pa.sql.c_str(), -1, &mine, nullptr) != SQLITE_OK) {
    pa.unsupported = true;
    return true;
  }
  if (!runtime_.BindAll(mine, *plan.compiled, portal->params, error) ||
      !runtime_.BindAll(theirs, *plan.compiled, portal->params, error))
    return false;

  const size_t columns = pa.combine.size();
  std::atomic<int> next{0};
  parallel_stop_ = false;
  auto work = [&](sqlite3_stmt* stmt, Partials* out) {
    out->values.assign(columns, SValue());
    while (!parallel_stop_) {
      int range = next.fetch_add(1);
      if (range >= kRanges) break;
      __int128 span = static_cast<__int128>(hi) - lo + 1;
      int64_t from = static_cast<int64_t>(lo + span * range / kRanges);
      int64_t to = static_cast<int64_t>(lo + span * (range + 1) / kRanges - 1);
      sqlite3_bind_int64(stmt, pa.lo_slot, from);
      sqlite3_bind_int64(stmt, pa.lo_slot + 1, to);
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        for (size_t i = 0; i < columns; i++) {
          if (!Combine(pa.combine[i], ReadColumn(stmt, static_cast<int>(i)),
                       &out->values[i]))
            out->unusable = true;
        }
        rc = sqlite3_step(stmt);
      }
      sqlite3_reset(stmt);
      if (rc != SQLITE_DONE || out->unusable) {
        out->rc = rc;
        parallel_stop_ = true;
      }
    }
  };
  Partials own, helper;
  sqlite3_progress_handler(helper_db, 4096, &SessionImpl::HelperProgress, this);
  std::thread thread(work, theirs, &helper);
  work(mine, &own);
  thread.join();
  sqlite3_progress_handler(helper_db, 0, nullptr, nullptr);
  if (own.rc == SQLITE_INTERRUPT || helper.rc == SQLITE_INTERRUPT) {
    if (StopRequested()) {
      *error = Err("57014", "canceling statement due to user request");
      return false;
    }
  }
  if (own.rc != SQLITE_DONE || helper.rc != SQLITE_DONE || own.unusable ||
      helper.unusable)
    return true;  // run whole: its errors are PostgreSQL's
  std::vector<Value> values(columns);
  const types::TypeContext& context = type_context();
  for (size_t i = 0; i < columns; i++) {
    SValue total = own.values[i];
    if (!Combine(pa.combine[i], helper.values[i], &total)) return true;
    if (!FromSValue(plan.columns[i].type_oid, total, context, &values[i],
                    error))
      return false;
  }
  std::vector<Datum> encoded;
  if (!EncodeRow(values, plan.columns, portal->formats, &encoded, error))
    return false;
  portal->rows.push_back(std::move(encoded));
  parallel_runs.fetch_add(1);
  *done = true;
  return true;
}

}  // namespace kova::planner
