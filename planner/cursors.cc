// SQL cursors: which ones scroll, and where FETCH and MOVE leave them.
//
// A cursor's rows are computed at DECLARE (RunDeclare); FETCH and MOVE
// walk them with PostgreSQL's portal rules (pquery.c: DoPortalRunFetch,
// PortalRunSelect, DoPortalRewind), including which moves need to scan
// backward and so fail on a cursor that cannot.
#include <climits>
#include <functional>

#include "planner/expr_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {
namespace {

// Whether `node` holds a node matching `match`, not looking into
// subqueries (their aggregates and set-returning calls are theirs).
bool AnyNodeOutsideSubqueries(
    const ProtobufCMessage* msg,
    const std::function<bool(const ProtobufCMessage*)>& match) {
  if (!msg) return false;
  if (match(msg)) return true;
  if (msg->descriptor == &pg_query__sub_link__descriptor) return false;
  const ProtobufCMessageDescriptor* d = msg->descriptor;
  const char* base = reinterpret_cast<const char*>(msg);
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor* f = &d->fields[i];
    if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *reinterpret_cast<const size_t*>(base + f->quantifier_offset);
      const ProtobufCMessage* const* items =
          *reinterpret_cast<const ProtobufCMessage* const* const*>(base +
                                                                   f->offset);
      for (size_t k = 0; k < n; k++)
        if (AnyNodeOutsideSubqueries(items[k], match)) return true;
      continue;
    }
    if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      uint32_t which =
          *reinterpret_cast<const uint32_t*>(base + f->quantifier_offset);
      if (which != f->id) continue;
    }
    if (AnyNodeOutsideSubqueries(
            *reinterpret_cast<const ProtobufCMessage* const*>(base + f->offset),
            match))
      return true;
  }
  return false;
}

std::string LastName(const PgQuery__FuncCall* f) {
  if (f->n_funcname == 0) return "";
  const PgQuery__Node* last = f->funcname[f->n_funcname - 1];
  return last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval
                                                        : "";
}

bool IsSetReturningName(const std::string& name) {
  static const char* const kNames[] = {"generate_series",
                                       "generate_subscripts",
                                       "unnest",
                                       "regexp_matches",
                                       "regexp_split_to_table",
                                       "string_to_table",
                                       "json_array_elements",
                                       "json_array_elements_text",
                                       "jsonb_array_elements",
                                       "jsonb_array_elements_text",
                                       "json_each",
                                       "json_each_text",
                                       "jsonb_each",
                                       "jsonb_each_text",
                                       "json_object_keys",
                                       "jsonb_object_keys",
                                       "json_populate_recordset",
                                       "jsonb_populate_recordset",
                                       "json_to_recordset",
                                       "jsonb_to_recordset",
                                       "jsonb_path_query"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

// Whether the select list or HAVING makes PostgreSQL's plan aggregate,
// window or expand sets (Agg, WindowAgg, ProjectSet: no backward scan).
bool AggregatesOrExpands(const PgQuery__SelectStmt* s) {
  auto match = [](const ProtobufCMessage* m) {
    if (m->descriptor == &pg_query__grouping_func__descriptor) return true;
    if (m->descriptor != &pg_query__func_call__descriptor) return false;
    auto* f = reinterpret_cast<const PgQuery__FuncCall*>(m);
    if (f->over || f->agg_star || f->agg_distinct || f->n_agg_order > 0 ||
        f->agg_filter)
      return true;
    std::string name = LastName(f);
    return expr_detail::IsAggregateName(name) || IsSetReturningName(name);
  };
  for (size_t i = 0; i < s->n_target_list; i++)
    if (AnyNodeOutsideSubqueries(
            reinterpret_cast<const ProtobufCMessage*>(s->target_list[i]),
            match))
      return true;
  return s->having_clause &&
         AnyNodeOutsideSubqueries(
             reinterpret_cast<const ProtobufCMessage*>(s->having_clause),
             match);
}

// IN (subquery) and EXISTS among the WHERE clause's conjuncts: PostgreSQL
// turns them into (semi) joins.
bool WhereJoinsSubquery(const PgQuery__Node* where) {
  if (!where) return false;
  if (where->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
      where->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
    for (size_t i = 0; i < where->bool_expr->n_args; i++)
      if (WhereJoinsSubquery(where->bool_expr->args[i])) return true;
    return false;
  }
  if (where->node_case != PG_QUERY__NODE__NODE_SUB_LINK) return false;
  PgQuery__SubLinkType t = where->sub_link->sub_link_type;
  return t == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK ||
         t == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK;
}

}  // namespace

// Whether PostgreSQL's plan of `s` could run backward
// (ExecSupportsBackwardScan): scans of one relation, VALUES, functions and
// CTEs, filtered and limited, a sort on top of anything, and UNION ALL of
// such, can; joins, aggregation, DISTINCT, window functions, set-returning
// calls in the select list, row locks and a SELECT without FROM cannot.
// Judged on the statement, not on a plan: a view counts as a scan of one
// relation, and an ORDER BY as a sort on top (PostgreSQL may instead read
// sorted input into a join or an aggregate, which cannot run backward).
bool CursorScrollsByDefault(const PgQuery__SelectStmt* s) {
  if (!s || s->n_locking_clause > 0) return false;
  if (s->n_sort_clause > 0 &&
      (s->n_from_clause > 0 || s->op != PG_QUERY__SET_OPERATION__SETOP_NONE))
    return true;
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
    return s->op == PG_QUERY__SET_OPERATION__SETOP_UNION && s->all &&
           CursorScrollsByDefault(s->larg) && CursorScrollsByDefault(s->rarg);
  }
  if (s->n_values_lists > 0) return true;
  if (s->n_distinct_clause > 0 || s->group_clause || s->n_group_clause > 0 ||
      s->having_clause || s->n_window_clause > 0)
    return false;
  if (AggregatesOrExpands(s)) return false;
  if (s->n_from_clause != 1) return false;
  if (WhereJoinsSubquery(s->where_clause)) return false;
  const PgQuery__Node* from = s->from_clause[0];
  switch (from->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR:
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
      return true;
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
      const PgQuery__Node* sub = from->range_subselect->subquery;
      return sub && sub->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
             CursorScrollsByDefault(sub->select_stmt);
    }
    default:
      return false;
  }
}

// PortalRunSelect: up to `count` rows (kAll: every one) forward or
// backward from the cursor's place; their indexes go to `out` when given.
bool SessionImpl::CursorStep(Cursor& c, bool forward, int64_t count,
                             std::vector<size_t>* out, uint64_t* processed,
                             PgError* error) {
  const int64_t n = static_cast<int64_t>(c.rows.size());
  *processed = 0;
  if (!forward && !c.scroll) {
    *error = Err("0A000", "cursor can only scan forward");
    error->hint = "Declare it with SCROLL option to enable backward scan.";
    return false;
  }
  if (forward ? c.at_end : c.at_start) return true;
  if (count <= 0) return true;
  const bool all = count == kFetchAll;
  int64_t k = 0;
  if (forward) {
    while ((all || k < count) && c.current < n) {
      c.current++;
      if (out) out->push_back(static_cast<size_t>(c.current - 1));
      k++;
    }
    if (k > 0) c.at_start = false;
    if (all || k < count) {
      c.at_end = true;
      c.current = n + 1;
    }
    c.portal_pos += k;
  } else {
    while ((all || k < count) && c.current > 1) {
      c.current--;
      if (out) out->push_back(static_cast<size_t>(c.current - 1));
      k++;
    }
    if (k > 0 && c.at_end) {
      c.at_end = false;
      c.portal_pos++;
    }
    if (all || k < count) {
      c.at_start = true;
      c.portal_pos = 0;
      c.current = 0;
    } else {
      c.portal_pos -= k;
    }
  }
  *processed = static_cast<uint64_t>(k);
  return true;
}

// DoPortalRewind.
bool SessionImpl::CursorRewind(Cursor& c, PgError* error) {
  if (c.at_start && !c.at_end) return true;
  if (!c.scroll) {
    *error = Err("0A000", "cursor can only scan forward");
    error->hint = "Declare it with SCROLL option to enable backward scan.";
    return false;
  }
  c.current = 0;
  c.at_start = true;
  c.at_end = false;
  c.portal_pos = 0;
  return true;
}

// DoPortalRunFetch: the rows FETCH returns (MOVE: `out` null) and the
// count its command tag shows.
bool SessionImpl::CursorFetch(Cursor& c, const PgQuery__FetchStmt* f,
                              std::vector<size_t>* out, uint64_t* processed,
                              PgError* error) {
  int64_t count = f->how_many;
  *processed = 0;
  bool forward;
  switch (f->direction) {
    case PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD:
    case PG_QUERY__FETCH_DIRECTION__FETCH_BACKWARD:
      forward = f->direction == PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD;
      if (count < 0) {
        forward = !forward;
        count = -count;
      }
      break;
    case PG_QUERY__FETCH_DIRECTION__FETCH_ABSOLUTE: {
      uint64_t skipped;
      if (count > 0) {
        int64_t pos = c.portal_pos;
        if (pos == kFetchAll || count - 1 < pos / 2) {
          if (!CursorRewind(c, error)) return false;
          if (count > 1 &&
              !CursorStep(c, true, count - 1, nullptr, &skipped, error))
            return false;
        } else {
          if (c.at_end) pos++;
          if (count <= pos) {
            if (!CursorStep(c, false, pos - count + 1, nullptr, &skipped,
                            error))
              return false;
          } else if (count > pos + 1) {
            if (!CursorStep(c, true, count - pos - 1, nullptr, &skipped, error))
              return false;
          }
        }
        return CursorStep(c, true, 1, out, processed, error);
      }
      if (count < 0) {
        if (!CursorStep(c, true, kFetchAll, nullptr, &skipped, error))
          return false;
        if (count < -1 &&
            !CursorStep(c, false, -count - 1, nullptr, &skipped, error))
          return false;
        return CursorStep(c, false, 1, out, processed, error);
      }
      return CursorRewind(c, error);
    }
    case PG_QUERY__FETCH_DIRECTION__FETCH_RELATIVE: {
      uint64_t skipped;
      if (count > 0) {
        if (count > 1 &&
            !CursorStep(c, true, count - 1, nullptr, &skipped, error))
          return false;
        return CursorStep(c, true, 1, out, processed, error);
      }
      if (count < 0) {
        if (count < -1 &&
            !CursorStep(c, false, -count - 1, nullptr, &skipped, error))
          return false;
        return CursorStep(c, false, 1, out, processed, error);
      }
      forward = true;
      break;
    }
    default:
      *error = Err("XX000", "bogus direction");
      return false;
  }
  // Zero rows: the current row again, if the cursor is on one.
  if (count == 0) {
    bool on_row = !c.at_start && !c.at_end;
    if (!out) {
      *processed = on_row ? 1 : 0;
      return true;
    }
    if (!on_row) return true;
    uint64_t skipped;
    if (!CursorStep(c, false, 1, nullptr, &skipped, error)) return false;
    return CursorStep(c, true, 1, out, processed, error);
  }
  // MOVE BACKWARD ALL is a rewind.
  if (!forward && count == kFetchAll && !out) {
    uint64_t result = c.portal_pos;
    if (result > 0 && !c.at_end) result--;
    if (!CursorRewind(c, error)) return false;
    *processed = result;
    return true;
  }
  return CursorStep(c, forward, count, out, processed, error);
}

}  // namespace kova::planner
