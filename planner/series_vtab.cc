// kova_series(start, stop[, step]): generate_series over integers as a
// SQLite table-valued function. A function in PostgreSQL's FROM may name
// columns of the FROM items before it (FROM t, generate_series(1, t.n)), and
// SQLite lets a table-valued function take such arguments where a derived
// table (a recursive CTE) cannot.
#include <sqlite3.h>

#include <cstdint>

#include "planner/expr_internal.h"
#include "planner/query.h"

namespace kova::planner {

namespace {

enum SeriesColumn { kValue, kOrdinality, kStart, kStop, kStep };

struct SeriesTable {
  sqlite3_vtab base;
  SqlRuntime* runtime;
};

struct SeriesCursor {
  sqlite3_vtab_cursor base;
  int64_t value = 0, stop = 0, step = 1, ordinal = 1;
  bool done = true;
};

int SeriesConnect(sqlite3* db, void* aux, int, const char* const*,
                  sqlite3_vtab** out, char**) {
  int rc = sqlite3_declare_vtab(
      db,
      "CREATE TABLE x(value, ordinality, start HIDDEN, stop HIDDEN, "
      "step HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* table = new SeriesTable();
  table->runtime = static_cast<SqlRuntime*>(aux);
  *out = &table->base;
  return SQLITE_OK;
}

int SeriesDisconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<SeriesTable*>(vtab);
  return SQLITE_OK;
}

// The arguments are equality constraints on the hidden columns; without
// start and stop the plan is refused, so SQLite scans the tables the
// arguments read first.
int SeriesBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  int found[3] = {-1, -1, -1};
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < kStart || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) return SQLITE_CONSTRAINT;
    found[c.iColumn - kStart] = i;
  }
  if (found[0] < 0 || found[1] < 0) return SQLITE_CONSTRAINT;
  int argv = 1;
  for (int k = 0; k < 3; k++) {
    if (found[k] < 0) continue;
    info->aConstraintUsage[found[k]].argvIndex = argv++;
    info->aConstraintUsage[found[k]].omit = 1;
  }
  info->idxNum = found[2] >= 0 ? 1 : 0;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

int SeriesOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new SeriesCursor())->base;
  return SQLITE_OK;
}

int SeriesClose(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<SeriesCursor*>(cursor);
  return SQLITE_OK;
}

bool Finished(const SeriesCursor& c) {
  return c.done || (c.step > 0 ? c.value > c.stop : c.value < c.stop);
}

int SeriesFilter(sqlite3_vtab_cursor* cursor, int idx_num, const char*,
                 int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<SeriesCursor*>(cursor);
  c->done = true;
  c->ordinal = 1;
  // A NULL argument: no rows, as in PostgreSQL.
  for (int i = 0; i < argc; i++)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return SQLITE_OK;
  if (argc < 2) return SQLITE_OK;
  c->value = sqlite3_value_int64(argv[0]);
  c->stop = sqlite3_value_int64(argv[1]);
  c->step = idx_num == 1 && argc >= 3 ? sqlite3_value_int64(argv[2]) : 1;
  if (c->step == 0) {
    auto* table = reinterpret_cast<SeriesTable*>(cursor->pVtab);
    table->runtime->SetError(
        expr_detail::Err("22023", "step size cannot equal zero"));
    sqlite3_free(table->base.zErrMsg);
    table->base.zErrMsg = sqlite3_mprintf("kova: statement failed");
    return SQLITE_ERROR;
  }
  c->done = false;
  return SQLITE_OK;
}

int SeriesNext(sqlite3_vtab_cursor* cursor) {
  auto* c = reinterpret_cast<SeriesCursor*>(cursor);
  int64_t next;
  // The next value past the type's end would overflow: the series ends.
  if (__builtin_add_overflow(c->value, c->step, &next))
    c->done = true;
  else
    c->value = next;
  c->ordinal++;
  return SQLITE_OK;
}

int SeriesEof(sqlite3_vtab_cursor* cursor) {
  return Finished(*reinterpret_cast<SeriesCursor*>(cursor)) ? 1 : 0;
}

int SeriesColumnValue(sqlite3_vtab_cursor* cursor, sqlite3_context* ctx,
                      int column) {
  auto* c = reinterpret_cast<SeriesCursor*>(cursor);
  sqlite3_result_int64(ctx, column == kOrdinality ? c->ordinal : c->value);
  return SQLITE_OK;
}

int SeriesRowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<SeriesCursor*>(cursor)->ordinal;
  return SQLITE_OK;
}

sqlite3_module MakeSeriesModule() {
  sqlite3_module m = {};
  m.iVersion = 0;
  m.xCreate = nullptr;  // eponymous only: used as kova_series(...)
  m.xConnect = SeriesConnect;
  m.xBestIndex = SeriesBestIndex;
  m.xDisconnect = SeriesDisconnect;
  m.xDestroy = SeriesDisconnect;
  m.xOpen = SeriesOpen;
  m.xClose = SeriesClose;
  m.xFilter = SeriesFilter;
  m.xNext = SeriesNext;
  m.xEof = SeriesEof;
  m.xColumn = SeriesColumnValue;
  m.xRowid = SeriesRowid;
  return m;
}

const sqlite3_module kSeriesModule = MakeSeriesModule();

}  // namespace

int RegisterSeriesModule(sqlite3* db, SqlRuntime* runtime) {
  return sqlite3_create_module(db, "kova_series", &kSeriesModule, runtime);
}

}  // namespace kova::planner
