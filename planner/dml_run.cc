// Running INSERT, UPDATE and DELETE plans: one document per row, through
// the docstore (which assigns autoincrement values and keeps the unique
// indexes), with PostgreSQL's constraint errors.
#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

#include "planner/dml.h"
#include "planner/domains.h"
#include "planner/expr_internal.h"
#include "planner/index_expr.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

std::string RowText(const std::vector<Value>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); i++) {
    if (i) out += ", ";
    out += values[i] ? *values[i] : "null";
  }
  return out + ")";
}

// Canonical values of a table's columns from a stored document.
bool DecodeRow(const catalog::Table& table, const uint8_t* data, size_t len,
               const types::TypeContext& context, std::vector<Value>* out,
               PgError* error) {
  out->assign(table.columns.size(), std::nullopt);
  bson_t doc;
  if (!bson_init_static(&doc, data, len)) return true;
  bool counters = table.schema == "admin" && table.name == "counters";
  bson_iter_t it;
  bson_iter_init(&it, &doc);
  while (bson_iter_next(&it)) {
    const char* key = bson_iter_key(&it);
    if (!counters && std::strcmp(key, "_id") == 0) continue;
    int index = table.ColumnIndex(key);
    if (index < 0) continue;
    if (!FromSValue(table.columns[index].type,
                    SValueFromBson(&it, table.columns[index].type), context,
                    &(*out)[index], error))
      return false;
    if (table.columns[index].type == oid::kBpchar)
      PadBpchar(table.columns[index].typmod, &(*out)[index]);
  }
  return true;
}

}  // namespace

// The statement's parameters followed by the row (and EXCLUDED) values.
static std::vector<Value> RowParams(const std::vector<Value>& params,
                                    int row_base, const std::vector<Value>& row,
                                    const std::vector<Value>* excluded) {
  std::vector<Value> out(params.begin(), params.end());
  out.resize(row_base);
  out.insert(out.end(), row.begin(), row.end());
  if (excluded) out.insert(out.end(), excluded->begin(), excluded->end());
  return out;
}

// The rows of one INSERT/UPDATE/DELETE (or COPY FROM): defaults,
// constraints, documents, unique violations and RETURNING.
class DmlRunner {
 public:
  DmlRunner(SessionImpl* session, PortalImpl* portal, const DmlPlan& dml,
            const std::vector<Value>& params, PgError* error)
      : s_(session),
        portal_(portal),
        dml(dml),
        table(*dml.table),
        params_(params),
        context(session->settings_.type_context()),
        ncols(table.columns.size()),
        error(error) {}

  // `row_xmax`: RETURNING xmax is this transaction's id (a row ON
  // CONFLICT DO UPDATE changed, or one DELETE removed), else 0.
  bool emit_returning(const std::vector<Value>& row, bool row_xmax = false) {
    if (dml.returning.empty()) return true;
    s_->returning_xmax_ = row_xmax;
    std::vector<Value> rp = RowParams(params_, dml.row_base, row, nullptr);
    if (!returning_extra.empty()) {
      rp.resize(dml.row_base + 2 * ncols);
      rp.insert(rp.end(), returning_extra.begin(), returning_extra.end());
    }
    std::vector<Value> out(dml.returning.size());
    for (size_t i = 0; i < dml.returning.size(); i++)
      if (!Evaluate(*dml.returning[i], rp, s_, &out[i], error)) return false;
    if (!s_->EncodeRow(out, portal_->plan->columns, portal_->formats, &encoded,
                       error))
      return false;
    portal_->rows.push_back(std::move(encoded));
    return true;
  }
  // Takes the counter values of columns the store would fill in, so that
  // constraints and messages see them (PostgreSQL evaluates nextval before
  // any check, and the value stays consumed when a check fails).
  bool take_counter_values(std::vector<Value>& row,
                           std::vector<bool>& assigned) {
    for (size_t i = 0; i < ncols; i++) {
      if (!assigned[i]) continue;
      int64_t v;
      docstore::Status st =
          s_->storage_->NextCounter(table.columns[i].counter, &v);
      if (!st.ok()) {
        *error = counter_error(st);
        return false;
      }
      row[i] = std::to_string(v);
      assigned[i] = false;
    }
    return true;
  }

  bool check_row(std::vector<Value>& row, std::vector<bool>& assigned) {
    bool any_assigned = false;
    for (size_t i = 0; i < ncols; i++) any_assigned |= assigned[i];
    if (any_assigned &&
        (!dml.checks.empty() || !dml.generated.empty() || has_foreign_keys())) {
      if (!take_counter_values(row, assigned)) return false;
    }
    if (!compute_generated(row)) return false;
    for (size_t i = 0; i < ncols; i++) {
      if (!assigned[i] &&
          !CheckDomainValue(table.columns[i].type, row[i], s_, error))
        return false;
    }
    for (size_t i = 0; i < ncols; i++) {
      const auto& col = table.columns[i];
      if (col.not_null && !row[i] && !assigned[i]) {
        if (any_assigned && !take_counter_values(row, assigned)) return false;
        *error = Err("23502", "null value in column \"" + col.name +
                                  "\" of relation \"" + table.name +
                                  "\" violates not-null constraint");
        error->detail = "Failing row contains " + RowText(row) + ".";
        return false;
      }
    }
    if (dml.checks.empty()) return true;
    std::vector<Value> rp = RowParams(params_, dml.row_base, row, nullptr);
    for (const auto& [name, expr] : dml.checks) {
      Value v;
      if (!Evaluate(*expr, rp, s_, &v, error)) return false;
      if (v && *v == "f") {
        *error =
            Err("23514", "new row for relation \"" + table.name +
                             "\" violates check constraint \"" + name + "\"");
        error->detail = "Failing row contains " + RowText(row) + ".";
        return false;
      }
    }
    return true;
  }
  // Generated columns from the row's other values (which they alone may
  // read), stored with the column's type as an assignment would.
  bool compute_generated(std::vector<Value>& row) {
    if (dml.generated.empty()) return true;
    std::vector<Value> rp = RowParams(params_, dml.row_base, row, nullptr);
    for (const auto& [i, expr] : dml.generated) {
      Value v;
      if (!Evaluate(*expr, rp, s_, &v, error)) return false;
      const catalog::Column& col = table.columns[i];
      uint32_t from = expr->type == oid::kUnknown ? oid::kText : expr->type;
      if (!AssignValue(from, col, context, &v, error)) return false;
      row[i] = std::move(v);
    }
    return true;
  }
  bool has_foreign_keys() const {
    for (const auto& c : table.constraints)
      if (c.kind == 'f') return true;
    return false;
  }

  // Runs `sql` with key values bound; calls on_row(rid, doc) per row.
  bool probe(const std::string& sql, const std::vector<SValue>& keys,
             const std::function<bool(int64_t, const std::string&)>& on_row) {
    return s_->ProbeRows(sql, keys, on_row, error);
  }

  // SELECT rid, doc FROM `t` WHERE the columns equal the bound keys.
  bool key_query(const catalog::Table& t, const std::vector<std::string>& cols,
                 std::string* sql) {
    return s_->KeyQuery(t, cols, sql, error);
  }

  const catalog::Table* find_table(const std::string& qualified) {
    size_t dot = qualified.find('.');
    return dml.catalog->FindTable(qualified.substr(0, dot),
                                  qualified.substr(dot + 1));
  }

  // The values of `cols` in `row` (*has_null: one is NULL); whether any
  // differs from `old_row` (always, for an inserted row).
  bool row_key(const std::vector<std::string>& cols,
               const std::vector<Value>& row, const std::vector<Value>* old_row,
               std::vector<Value>* key, bool* has_null) {
    bool changed = old_row == nullptr;
    *has_null = false;
    for (const auto& col : cols) {
      int idx = table.ColumnIndex(col);
      key->push_back(row[idx]);
      *has_null |= !row[idx];
      if (old_row && (*old_row)[idx] != row[idx]) changed = true;
    }
    return changed;
  }

  // Foreign keys of this row: the referenced rows must exist (MATCH SIMPLE:
  // a key with a null is not checked). On UPDATE only changed keys.
  bool check_references(const std::vector<Value>& row,
                        const std::vector<Value>* old_row) {
    for (const auto& c : table.constraints) {
      if ((c.kind == 'p' || c.kind == 'u') && c.deferrable) {
        queue_key_check(c, row, old_row);
        continue;
      }
      if (c.kind != 'f' || table.fk_triggers_disabled) continue;
      std::vector<Value> key;
      bool has_null;
      bool changed = row_key(c.columns, row, old_row, &key, &has_null);
      if (has_null || !changed) continue;
      if (c.deferrable && s_->ForeignKeyDeferred(table, c)) {
        s_->QueueDeferredCheck(
            {table.schema + "." + table.name, c.name, false, key});
        continue;
      }
      const catalog::Table* parent = find_table(c.ref_table);
      if (!parent) continue;
      std::string sql;
      if (!key_query(*parent, c.ref_columns, &sql)) return false;
      std::vector<SValue> keys;
      for (size_t i = 0; i < key.size(); i++) {
        SValue sv;
        const catalog::Column* pc = parent->FindColumn(c.ref_columns[i]);
        const catalog::Column* cc = table.FindColumn(c.columns[i]);
        Value v = key[i];
        if (pc && cc && !AssignValue(cc->type, *pc, context, &v, error))
          return false;
        if (!ToSValue(pc ? pc->type : oid::kText, v, context, &sv, error))
          return false;
        keys.push_back(sv);
      }
      bool found = false;
      if (!probe(sql + " LIMIT 1", keys, [&](int64_t, const std::string&) {
            found = true;
            return true;
          }))
        return false;
      // Not there yet: a later row of the statement may bring it.
      if (!found)
        s_->QueueStatementCheck(
            {table.schema + "." + table.name, c.name, false, key});
    }
    return true;
  }

  // A DEFERRABLE primary key or unique constraint: its index does not
  // refuse duplicates, so a new or changed key is checked when the
  // statement ends, or at commit in deferred mode, as PostgreSQL rechecks
  // such keys then.
  void queue_key_check(const catalog::Constraint& c,
                       const std::vector<Value>& row,
                       const std::vector<Value>* old_row) {
    std::vector<Value> key;
    bool has_null;
    bool changed = row_key(c.columns, row, old_row, &key, &has_null);
    if ((has_null && !c.nulls_not_distinct) || !changed) return;
    SessionImpl::DeferredCheck check{table.schema + "." + table.name, c.name,
                                     false, key};
    if (s_->ForeignKeyDeferred(table, c))
      s_->QueueDeferredCheck(std::move(check));
    else
      s_->QueueStatementCheck(std::move(check));
  }

  // Rows of other tables that reference `old_row`, which is being deleted
  // (new_row null) or updated: the constraint's ON DELETE / ON UPDATE
  // action, or 23503 for NO ACTION / RESTRICT.
  bool handle_referencing(const std::vector<Value>& old_row,
                          const std::vector<Value>* new_row, int depth = 0) {
    if (depth > 64) {
      *error = Err("54001", "foreign key cascade is too deep");
      return false;
    }
    // DISABLE TRIGGER ALL on this table: no ON DELETE / ON UPDATE action
    // or check of the rows that reference it.
    if (table.fk_triggers_disabled) return true;
    std::string self = table.schema + "." + table.name;
    for (const auto& [k, child] : dml.catalog->tables()) {
      for (const auto& c : child.constraints) {
        if (c.kind != 'f' || c.ref_table != self) continue;
        std::vector<Value> key, new_key;
        bool has_null = false, changed = new_row == nullptr;
        for (const auto& rc : c.ref_columns) {
          int idx = table.ColumnIndex(rc);
          key.push_back(old_row[idx]);
          has_null |= !old_row[idx];
          if (new_row) {
            new_key.push_back((*new_row)[idx]);
            if ((*new_row)[idx] != old_row[idx]) changed = true;
          }
        }
        if (has_null || !changed) continue;
        char action = new_row ? c.on_update : c.on_delete;
        // NO ACTION of a deferred constraint: the key may be back, or its
        // references gone, by the time the check runs.
        if (action == 'a' && c.deferrable && s_->ForeignKeyDeferred(child, c)) {
          s_->QueueDeferredCheck(
              {child.schema + "." + child.name, c.name, true, key});
          continue;
        }
        std::string sql;
        if (!key_query(child, c.columns, &sql)) return false;
        std::vector<SValue> keys;
        for (size_t i = 0; i < key.size(); i++) {
          const catalog::Column* cc = child.FindColumn(c.columns[i]);
          const catalog::Column* pc = table.FindColumn(c.ref_columns[i]);
          Value v = key[i];
          if (cc && pc && !AssignValue(pc->type, *cc, context, &v, error))
            return false;
          SValue sv;
          if (!ToSValue(cc ? cc->type : oid::kText, v, context, &sv, error))
            return false;
          keys.push_back(sv);
        }
        if (action == 'a' || action == 'r') {
          // Still referenced: the statement may yet delete the referencing
          // rows (or, for NO ACTION, bring the key back).
          bool referenced = false;
          if (!probe(sql + " LIMIT 1", keys, [&](int64_t, const std::string&) {
                referenced = true;
                return true;
              }))
            return false;
          if (referenced)
            s_->QueueStatementCheck({child.schema + "." + child.name, c.name,
                                     true, key, action == 'r'});
          continue;
        }
        std::shared_ptr<DmlPlan> child_plan;
        bool ok = probe(sql, keys, [&](int64_t rid, const std::string& doc) {
          if (!child_plan && !s_->PrepareCopyInsert(&child, &child_plan, error))
            return false;
          child_plan->catalog = dml.catalog;
          DmlRunner sub(s_, nullptr, *child_plan, params_, error);
          std::vector<Value> child_row;
          if (!DecodeRow(child, reinterpret_cast<const uint8_t*>(doc.data()),
                         doc.size(), context, &child_row, error))
            return false;
          bool counters = child.schema == "admin";
          std::string db = counters ? docstore::kAdminDb : s_->database_;
          if (action == 'c' && !new_row) {
            if (!sub.handle_referencing(child_row, nullptr, depth + 1))
              return false;
            docstore::Status st =
                s_->storage_->DeleteDocument(db, child.collection, rid);
            if (!st.ok()) {
              *error = s_->TableError(st);
              return false;
            }
            return true;
          }
          std::vector<Value> updated = child_row;
          for (size_t i = 0; i < c.columns.size(); i++) {
            int idx = child.ColumnIndex(c.columns[i]);
            if (action == 'c') {
              updated[idx] = new_key[i];
              const catalog::Column* pc = table.FindColumn(c.ref_columns[i]);
              if (pc && !AssignValue(pc->type, child.columns[idx], context,
                                     &updated[idx], error))
                return false;
            } else if (action == 'n') {
              updated[idx] = std::nullopt;
            } else if (child_plan->defaults[idx]) {
              if (!Evaluate(*child_plan->defaults[idx], params_, s_,
                            &updated[idx], error) ||
                  !AssignValue(child_plan->defaults[idx]->type,
                               child.columns[idx], context, &updated[idx],
                               error))
                return false;
            } else {
              updated[idx] = std::nullopt;
            }
          }
          std::vector<bool> none(child.columns.size(), false);
          if (!sub.check_row(updated, none)) return false;
          if (action == 'd' && !sub.check_references(updated, &child_row))
            return false;
          if (!sub.handle_referencing(child_row, &updated, depth + 1))
            return false;
          bson_t base;
          bson_init_static(&base, reinterpret_cast<const uint8_t*>(doc.data()),
                           doc.size());
          bson_t out = BSON_INITIALIZER;
          bool built = sub.build_doc(updated, none, &base, &out);
          docstore::Status st;
          if (built)
            st = s_->storage_->ReplaceDocument(db, child.collection, rid, &out);
          bson_destroy(&out);
          if (!built) return false;
          if (!st.ok()) {
            *error = s_->TableError(st);
            return false;
          }
          return true;
        });
        if (!ok) return false;
      }
    }
    return true;
  }

  bool build_doc(const std::vector<Value>& row,
                 const std::vector<bool>& assigned, const bson_t* base,
                 bson_t* doc) {
    if (base) {
      bson_iter_t it;
      bson_iter_init(&it, base);
      while (bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        bool is_id = std::strcmp(key, "_id") == 0;
        if (!is_id || dml.counters) {
          if (table.ColumnIndex(key) >= 0) continue;
        }
        bson_append_iter(doc, key, -1, &it);
      }
    }
    for (size_t i = 0; i < ncols; i++) {
      const auto& col = table.columns[i];
      if (assigned[i]) continue;
      if (!row[i]) {
        // An autoincrement column holding NULL keeps an explicit null (an
        // absent field would get the next value).
        if (!col.counter.empty()) bson_append_null(doc, col.name.c_str(), -1);
        continue;
      }
      SValue sv;
      if (!ToSValue(col.type, row[i], context, &sv, error)) return false;
      AppendSValue(doc, col.name, col.type, sv);
    }
    return true;
  }
  PgError unique_error(const docstore::Status& s,
                       const std::vector<Value>& row) {
    std::string index = s.index_name;
    const catalog::Index* x = nullptr;
    for (const auto& candidate : table.indexes)
      if (candidate.name == index) x = &candidate;
    PgError e =
        Err("23505",
            "duplicate key value violates unique constraint \"" + index + "\"");
    if (x) {
      std::string cols, vals;
      for (size_t i = 0; i < x->columns.size(); i++) {
        int c = table.ColumnIndex(x->columns[i]);
        if (i) {
          cols += ", ";
          vals += ", ";
        }
        if (!x->expression(i).empty()) {
          // An expression key: its text and its value over the row.
          IndexExpression key;
          Value v;
          PgError ignored;
          bool ok = AnalyzeIndexExpressionText(s_, table, x->expression(i),
                                               &key, &ignored) &&
                    EvaluateIndexExpression(key, table, row, s_, &v, &ignored);
          cols += ok ? IndexColumnText(key, x->expression(i), /*pretty=*/true)
                     : "(" + x->expression(i) + ")";
          vals += v ? *v : "null";
          continue;
        }
        cols += x->columns[i];
        std::string v = c >= 0 && row[c] ? *row[c] : "null";
        if (c >= 0 && !row[c]) {
          // A value the store assigned: read it from the message.
          std::string key = x->columns[i] + ": ";
          size_t at = s.message().find(key, s.message().find("dup key"));
          if (at != std::string::npos) {
            at += key.size();
            size_t end = s.message().find_first_of(",}", at);
            v = s.message().substr(at, end - at);
            while (!v.empty() && v.back() == ' ') v.pop_back();
          }
        }
        vals += v;
      }
      e.detail = "Key (" + cols + ")=(" + vals + ") already exists.";
    }
    return e;
  }
  PgError counter_error(const docstore::Status& s) {
    PgError e = s_->TableError(s);
    if (s.code() == docstore::Code::kCounterExhausted) {
      // The sequence behind the column, as PostgreSQL names it.
      for (const auto& col : table.columns) {
        if (col.sequence.empty()) continue;
        std::string name = col.sequence.substr(col.sequence.find('.') + 1);
        bool max = s.message().find("maximum") != std::string::npos;
        size_t open = s.message().rfind('(');
        std::string bound = s.message().substr(open + 1);
        if (!bound.empty()) bound.pop_back();
        e.message = std::string("nextval: reached ") +
                    (max ? "maximum" : "minimum") + " value of sequence \"" +
                    name + "\" (" + bound + ")";
      }
    }
    return e;
  }
  bool stored_values(const docstore::Document& stored,
                     std::vector<Value>* row) {
    return DecodeRow(table, bson_get_data(stored.bson()), stored.bson()->len,
                     context, row, error);
  }
  bool conflict_update(const std::vector<Value>& proposed,
                       const std::string& index_name) {
    const catalog::Index* x = nullptr;
    for (const auto& candidate : table.indexes)
      if (candidate.name == index_name) x = &candidate;
    if (!x) {
      *error = Err("XX000", "unknown unique index \"" + index_name + "\"");
      return false;
    }
    std::string tbl;
    if (!s_->CollectionTable(dml.counters ? "admin.counters" : table.collection,
                             &tbl, error))
      return false;
    std::string sql = "SELECT rid, doc FROM " + tbl + " AS t WHERE 1";
    std::vector<SValue> keys;
    for (size_t i = 0; i < x->columns.size(); i++) {
      const std::string& c = x->columns[i];
      if (!x->expression(i).empty()) {
        // The row whose key expression has the proposed row's value, found
        // through the index's own SQL.
        IndexExpression key;
        Value v;
        SValue sv;
        if (!AnalyzeIndexExpressionText(s_, table, x->expression(i), &key,
                                        error) ||
            !EvaluateIndexExpression(key, table, proposed, s_, &v, error) ||
            !ToSValue(key.expr->type, v, context, &sv, error))
          return false;
        sql += " AND " + IndexKeySql(key, x->expression(i)) + " = ?";
        keys.push_back(sv);
        continue;
      }
      int idx = table.ColumnIndex(c);
      SValue sv;
      if (!ToSValue(table.columns[idx].type, proposed[idx], context, &sv,
                    error))
        return false;
      sql += " AND " + ColumnSql("t", c, table.columns[idx].type) + " = ?";
      keys.push_back(sv);
    }
    // A partial index holds only the rows its condition admits: the row in
    // conflict is one of those.
    if (!x->predicate.empty()) {
      IndexExpression condition;
      if (!AnalyzeIndexExpressionText(s_, table, x->predicate, &condition,
                                      error))
        return false;
      sql += " AND (" + IndexPredicateSql(condition, x->predicate) + ")";
    }
    sqlite3_stmt* stmt;
    if (sqlite3_prepare_v2(s_->storage_->connection(), sql.c_str(), -1, &stmt,
                           nullptr) != SQLITE_OK) {
      *error = Err("XX000", sqlite3_errmsg(s_->storage_->connection()));
      return false;
    }
    for (size_t i = 0; i < keys.size(); i++)
      BindSValue(stmt, static_cast<int>(i + 1), keys[i]);
    int64_t rid = 0;
    std::string stored;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      rid = sqlite3_column_int64(stmt, 0);
      stored.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 1)),
                    sqlite3_column_bytes(stmt, 1));
    }
    sqlite3_finalize(stmt);
    if (stored.empty()) {
      *error = Err("XX000", "conflicting row not found");
      return false;
    }
    std::vector<Value> existing;
    if (!DecodeRow(table, reinterpret_cast<const uint8_t*>(stored.data()),
                   stored.size(), context, &existing, error))
      return false;
    if (!affected_keys.insert(conflict_key(existing)).second) {
      *error = Err("21000",
                   "ON CONFLICT DO UPDATE command cannot affect row a second "
                   "time");
      error->hint =
          "Ensure that no rows proposed for insertion within the same "
          "command have duplicate constrained values.";
      return false;
    }
    std::vector<Value> rp =
        RowParams(params_, dml.row_base, existing, &proposed);
    if (dml.conflict_where) {
      Value v;
      if (!Evaluate(*dml.conflict_where, rp, s_, &v, error)) return false;
      if (!v || *v != "t") return true;
    }
    std::vector<Value> row = existing;
    for (const auto& [col, expr] : dml.conflict_set) {
      const catalog::Column& column = table.columns[col];
      if (!expr) {  // SET col = DEFAULT
        if (!column.counter.empty()) {
          int64_t v;
          docstore::Status st = s_->storage_->NextCounter(column.counter, &v);
          if (!st.ok()) {
            *error = counter_error(st);
            return false;
          }
          row[col] = std::to_string(v);
        } else if (dml.defaults[col]) {
          if (!Evaluate(*dml.defaults[col], params_, s_, &row[col], error) ||
              !AssignValue(dml.defaults[col]->type, column, context, &row[col],
                           error))
            return false;
        } else {
          row[col] = std::nullopt;
        }
        continue;
      }
      if (!Evaluate(*expr, rp, s_, &row[col], error)) return false;
      if (!AssignValue(expr->type, column, context, &row[col], error))
        return false;
    }
    std::vector<bool> none(ncols, false);
    if (!check_row(row, none)) return false;
    if (!check_references(row, &existing)) return false;
    if (!handle_referencing(existing, &row)) return false;
    bson_t base;
    bson_init_static(&base, reinterpret_cast<const uint8_t*>(stored.data()),
                     stored.size());
    bson_t doc = BSON_INITIALIZER;
    bool built = build_doc(row, none, &base, &doc);
    docstore::Status s;
    if (built)
      s = s_->storage_->ReplaceDocument(dml.db, dml.collection, rid, &doc);
    bson_destroy(&doc);
    if (!built) return false;
    if (!s.ok()) {
      *error = s.code() == docstore::Code::kDuplicateKey ? unique_error(s, row)
                                                         : s_->TableError(s);
      return false;
    }
    count++;
    return emit_returning(row, /*row_xmax=*/true);
  }
  // Defaults, constraints and the document of a row to insert (the first
  // half of insert_row; COPY FROM inserts the documents in batches).
  bool build_insert(std::vector<Value>& row, std::vector<bool>& provided,
                    bson_t* doc) {
    std::vector<bool> assigned(ncols, false);
    for (size_t i = 0; i < ncols; i++) {
      if (provided[i]) continue;
      const auto& col = table.columns[i];
      if (!col.counter.empty()) {
        assigned[i] = true;
      } else if (dml.defaults[i]) {
        if (!Evaluate(*dml.defaults[i], params_, s_, &row[i], error))
          return false;
        if (!AssignValue(dml.defaults[i]->type, col, context, &row[i], error))
          return false;
      }
    }
    if (!check_row(row, assigned)) return false;
    if (!check_references(row, nullptr)) return false;
    return build_doc(row, assigned, nullptr, doc);
  }
  bool insert_row(std::vector<Value>& row, std::vector<bool>& provided) {
    std::vector<bool> assigned(ncols, false);
    for (size_t i = 0; i < ncols; i++) {
      if (provided[i]) continue;
      const auto& col = table.columns[i];
      if (!col.counter.empty()) {
        assigned[i] = true;
      } else if (dml.defaults[i]) {
        std::vector<Value> none;
        if (!Evaluate(*dml.defaults[i], params_, s_, &row[i], error))
          return false;
        if (!AssignValue(dml.defaults[i]->type, col, context, &row[i], error))
          return false;
      }
    }
    if (!check_row(row, assigned)) return false;
    if (!check_references(row, nullptr)) return false;
    bson_t doc = BSON_INITIALIZER;
    bool ok = build_doc(row, assigned, nullptr, &doc);
    docstore::Document stored;
    docstore::Status s;
    if (ok) {
      bool any_assigned = false;
      for (size_t i = 0; i < ncols; i++) any_assigned |= assigned[i];
      bool want_stored =
          !dml.returning.empty() || dml.on_conflict == 2 || any_assigned;
      s = s_->storage_->Insert(dml.db, dml.collection, &doc,
                               want_stored ? &stored : nullptr);
    }
    bson_destroy(&doc);
    if (!ok) return false;
    if (!s.ok()) {
      // Values the store took for the row are used up all the same, and
      // are currval / lastval, as PostgreSQL's nextval in the default.
      for (const auto& [field, value] : s.assigned) {
        for (const auto& col : table.columns) {
          if (col.name != field || col.counter.empty()) continue;
          s_->currvals_[col.counter] = value;
          s_->lastval_ = value;
        }
      }
      // The arbiter decides, wherever else the row collides as well.
      bool arbiter_hit =
          dml.conflict_index.empty() ||
          std::find(s.conflicting_indexes.begin(), s.conflicting_indexes.end(),
                    dml.conflict_index) != s.conflicting_indexes.end();
      if (s.code() == docstore::Code::kDuplicateKey && dml.on_conflict &&
          arbiter_hit) {
        if (dml.on_conflict == 1) return true;
        return conflict_update(row, dml.conflict_index.empty()
                                        ? s.index_name
                                        : dml.conflict_index);
      }
      *error = s.code() == docstore::Code::kDuplicateKey ? unique_error(s, row)
                                                         : counter_error(s);
      return false;
    }
    count++;
    // The values the store assigned are this session's currval/lastval,
    // as nextval in a column default makes them in PostgreSQL.
    std::vector<Value> full;
    bool have_full = false;
    for (size_t i = 0; i < ncols; i++) {
      if (!assigned[i]) continue;
      bson_iter_t it;
      if (bson_iter_init_find(&it, stored.bson(),
                              table.columns[i].name.c_str())) {
        SValue v = SValueFromBson(&it);
        if (v.kind == SKind::kInt) {
          s_->currvals_[table.columns[i].counter] = v.i;
          s_->lastval_ = v.i;
        }
      }
    }
    if (dml.on_conflict == 2) {
      if (!stored_values(stored, &full)) return false;
      have_full = true;
      affected_keys.insert(conflict_key(full));
    }
    if (!dml.returning.empty()) {
      if (!have_full && !stored_values(stored, &full)) return false;
      if (!emit_returning(full)) return false;
    }
    return true;
  }

  // ON CONFLICT DO UPDATE may not touch one row twice in a statement.
  std::string conflict_key(const std::vector<Value>& row) {
    std::string key;
    for (const auto& x : table.indexes) {
      if (x.name != dml.conflict_index) continue;
      for (size_t i = 0; i < x.columns.size(); i++) {
        Value v;
        if (x.expression(i).empty()) {
          v = row[table.ColumnIndex(x.columns[i])];
        } else {
          IndexExpression e;
          PgError ignored;
          if (AnalyzeIndexExpressionText(s_, table, x.expression(i), &e,
                                         &ignored))
            EvaluateIndexExpression(e, table, row, s_, &v, &ignored);
        }
        key += v ? "v" + *v : "n";
        key.push_back('\0');
      }
    }
    return key;
  }
  std::set<std::string> affected_keys;
  // Values of other FROM items for RETURNING (UPDATE/DELETE scans).
  std::vector<Value> returning_extra;

  SessionImpl* s_;
  PortalImpl* portal_;
  const DmlPlan& dml;
  const catalog::Table& table;
  const std::vector<Value>& params_;
  const types::TypeContext& context;
  const size_t ncols;
  PgError* error;
  int64_t count = 0;
  std::vector<Datum> encoded;
};

bool SessionImpl::StartDml(PortalImpl* portal, const char* command,
                           bool counters, PgError* error) {
  if (!CheckWritable(command, error)) return false;
  docstore::Status st = EnsureWriteTransaction();
  // admin.counters rows are read to be written: their exact last first
  // (nextval leaves it in memory, docstore/leases.cc).
  if (st.ok() && counters) st = storage_->SettleCounters();
  if (!st.ok()) {
    *error = TableError(st);
    return false;
  }
  if (!runtime_.Attach(storage_->connection(), error)) return false;
  // Cancel and statement_timeout end this statement with an ordinary error
  // (see BeginWriteStatement), checked per row below. The timeout counts
  // from the statement's start, or from its Execute (statement_start_ is
  // the Parse's).
  return BeginWriteStatement(
      portal->plan->simple ? statement_start_ : NowMicros(), error);
}

bool SessionImpl::RunDml(PortalImpl* portal, PgError* error) {
  Plan& plan = *portal->plan;
  if (!RefreshPlan(&plan, error)) return false;
  if (plan.merge) return RunMerge(portal, error);
  const DmlPlan& dml = *plan.dml;
  if (!StartDml(portal,
                dml.kind == DmlPlan::Kind::kInsert   ? "INSERT"
                : dml.kind == DmlPlan::Kind::kUpdate ? "UPDATE"
                                                     : "DELETE",
                dml.counters, error))
    return false;
  struct EndWrite {
    SessionImpl* s;
    ~EndWrite() { s->EndWriteStatement(); }
  } end_write{this};
  DmlRows rows;
  int64_t count = 0;
  if (!CollectDml(portal, dml, /*merge=*/false, &rows, error) ||
      !ApplyDml(portal, dml, rows, &count, error))
    return false;
  portal->final_result =
      Tag(std::string(dml.kind == DmlPlan::Kind::kInsert   ? "INSERT 0 "
                      : dml.kind == DmlPlan::Kind::kDelete ? "DELETE "
                                                           : "UPDATE ") +
          std::to_string(count));
  return true;
}

bool SessionImpl::CollectDml(PortalImpl* portal, const DmlPlan& dml, bool merge,
                             DmlRows* rows, PgError* error) {
  // The statement reading the rows to write; a cancel stops it (57014).
  auto run_scan = [&](Compiled* scan,
                      const std::function<bool(sqlite3_stmt*, PgError*)>& row) {
    WatchScan(true);
    bool ok = runtime_.Run(scan, portal->params, row, error);
    WatchScan(false);
    if (!ok && error->sqlstate == "57014") StatementCancelled(error);
    return ok;
  };
  if (dml.kind == DmlPlan::Kind::kInsert) {
    if (!dml.source) return true;  // VALUES: evaluated as they go in
    return run_scan(dml.source.get(), [&](sqlite3_stmt* stmt, PgError* e) {
      std::vector<Value> values;
      if (StatementCancelled(e) ||
          !runtime_.RowValues(stmt, dml.source->columns, &values, e))
        return false;
      rows->inserts.push_back(std::move(values));
      return true;
    });
  }
  // UPDATE / DELETE: collect the rows first, then change them. UPDATE ...
  // FROM changes a row once however many rows join it; a MERGE action
  // keeps each join (a second one is an error, RunMerge).
  std::unordered_map<int64_t, bool> seen;
  return run_scan(dml.scan.get(), [&](sqlite3_stmt* stmt, PgError* e) {
    if (StatementCancelled(e)) return false;
    DmlRows::Target t;
    t.rid = sqlite3_column_int64(stmt, 0);
    if (!merge) {
      if (seen[t.rid]) return true;
      seen[t.rid] = true;
    }
    t.doc.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 1)),
                 sqlite3_column_bytes(stmt, 1));
    int n = sqlite3_column_count(stmt);
    for (int i = 2; i < n; i++) t.values.push_back(ReadColumn(stmt, i));
    rows->targets.push_back(std::move(t));
    return true;
  });
}

bool SessionImpl::ApplyDml(PortalImpl* portal, const DmlPlan& dml,
                           const DmlRows& rows, int64_t* count,
                           PgError* error) {
  const catalog::Table& table = *dml.table;
  const types::TypeContext& context = settings_.type_context();
  const size_t ncols = table.columns.size();
  DmlRunner runner(this, portal, dml, portal->params, error);
  struct Count {
    int64_t* out;
    DmlRunner& runner;
    ~Count() { *out += runner.count; }
  } counted{count, runner};

  if (dml.kind == DmlPlan::Kind::kInsert) {
    if (dml.source) {
      for (const auto& values : rows.inserts) {
        if (StatementCancelled(error)) return false;
        std::vector<Value> row(ncols);
        std::vector<bool> provided(ncols, false);
        for (size_t c = 0; c < values.size(); c++) {
          int col = dml.insert_columns[c];
          const auto& column = table.columns[col];
          if (dml.overriding_user && column.identity) continue;
          row[col] = values[c];
          const auto& literal_context = dml.source_contexts[c];
          if (literal_context && row[col] &&
              !SameTypeSettings(*literal_context, context)) {
            // A literal read under the settings of PREPARE, written under
            // today's for the rest of the insert.
            if (!AssignValue(dml.source_types[c], column, *literal_context,
                             &row[col], error) ||
                !Rewrite(column.type, *row[col], *literal_context, context,
                         &row[col], error))
              return false;
          } else if (!AssignValue(dml.source_types[c], column, context,
                                  &row[col], error)) {
            return false;
          }
          provided[col] = true;
        }
        if (!runner.insert_row(row, provided)) return false;
      }
    } else {
      for (const auto& exprs : dml.rows) {
        if (StatementCancelled(error)) return false;
        std::vector<Value> row(ncols);
        std::vector<bool> provided(ncols, false);
        for (size_t c = 0; c < exprs.size(); c++) {
          if (!exprs[c]) continue;  // DEFAULT
          int col = dml.insert_columns[c];
          const auto& column = table.columns[col];
          if (dml.overriding_user && column.identity) continue;
          if (!Evaluate(*exprs[c], portal->params, this, &row[col], error))
            return false;
          if (!AssignValue(exprs[c]->type, column, context, &row[col], error))
            return false;
          provided[col] = true;
        }
        if (!runner.insert_row(row, provided)) return false;
      }
    }
    return true;
  }

  for (const DmlRows::Target& t : rows.targets) {
    if (StatementCancelled(error)) return false;
    std::vector<Value> row;
    if (!DecodeRow(table, reinterpret_cast<const uint8_t*>(t.doc.data()),
                   t.doc.size(), context, &row, error))
      return false;
    const std::vector<Value> old_row = row;
    runner.returning_extra.clear();
    size_t first_extra = t.values.size() - dml.returning_extra_sql.size();
    for (size_t k = 0; k < dml.returning_extra_sql.size(); k++) {
      Value v;
      if (!FromSValue(dml.returning_extra_types[k], t.values[first_extra + k],
                      context, &v, error))
        return false;
      runner.returning_extra.push_back(std::move(v));
    }
    if (dml.kind == DmlPlan::Kind::kDelete) {
      if (!runner.handle_referencing(row, nullptr)) return false;
      docstore::Status s =
          storage_->DeleteDocument(dml.db, dml.collection, t.rid);
      if (!s.ok()) {
        *error = TableError(s);
        return false;
      }
      runner.count++;
      if (!runner.emit_returning(row, /*row_xmax=*/true)) return false;
      continue;
    }
    std::vector<bool> assigned(ncols, false);
    for (size_t k = 0; k < dml.set_columns.size(); k++) {
      int col = dml.set_columns[k];
      const auto& column = table.columns[col];
      if (dml.set_default[k]) {
        if (!column.counter.empty()) {
          int64_t v;
          docstore::Status s = storage_->NextCounter(column.counter, &v);
          if (!s.ok()) {
            *error = runner.counter_error(s);
            return false;
          }
          row[col] = std::to_string(v);
        } else if (dml.defaults[col]) {
          if (!Evaluate(*dml.defaults[col], portal->params, this, &row[col],
                        error))
            return false;
          if (!AssignValue(dml.defaults[col]->type, column, context, &row[col],
                           error))
            return false;
        } else {
          row[col] = std::nullopt;
        }
        continue;
      }
      if (!FromSValue(dml.set_types[k], t.values[k], context, &row[col], error))
        return false;
      if (!AssignValue(dml.set_types[k], column, context, &row[col], error))
        return false;
    }
    if (!runner.check_row(row, assigned)) return false;
    if (!runner.check_references(row, &old_row)) return false;
    if (!runner.handle_referencing(old_row, &row)) return false;
    bson_t base;
    bson_init_static(&base, reinterpret_cast<const uint8_t*>(t.doc.data()),
                     t.doc.size());
    bson_t doc = BSON_INITIALIZER;
    bool built = runner.build_doc(row, assigned, &base, &doc);
    docstore::Status s;
    if (built)
      s = storage_->ReplaceDocument(dml.db, dml.collection, t.rid, &doc);
    bson_destroy(&doc);
    if (!built) return false;
    if (!s.ok()) {
      *error = s.code() == docstore::Code::kDuplicateKey
                   ? runner.unique_error(s, row)
                   : TableError(s);
      return false;
    }
    runner.count++;
    if (!runner.emit_returning(row)) return false;
  }
  return true;
}

}  // namespace kova::planner

namespace kova::planner {

bool SessionImpl::InsertCopyRow(const DmlPlan& dml, std::vector<Value>* row,
                                std::vector<bool>* provided, PgError* error) {
  static const std::vector<Value> kNoParams;
  DmlRunner runner(this, nullptr, dml, kNoParams, error);
  return runner.insert_row(*row, *provided);
}

bool SessionImpl::BuildCopyDocument(const DmlPlan& dml, std::vector<Value>* row,
                                    std::vector<bool>* provided, bson_t* doc,
                                    PgError* error) {
  static const std::vector<Value> kNoParams;
  DmlRunner runner(this, nullptr, dml, kNoParams, error);
  return runner.build_insert(*row, *provided, doc);
}

PgError SessionImpl::CopyInsertError(const DmlPlan& dml,
                                     const docstore::Status& s,
                                     const std::vector<Value>& row) {
  static const std::vector<Value> kNoParams;
  PgError error;
  DmlRunner runner(this, nullptr, dml, kNoParams, &error);
  return s.code() == docstore::Code::kDuplicateKey ? runner.unique_error(s, row)
                                                   : runner.counter_error(s);
}

}  // namespace kova::planner
