// Data-modifying WITH queries (WITH moved AS (DELETE ... RETURNING *)
// INSERT INTO archive SELECT * FROM moved): each INSERT / UPDATE / DELETE
// in the WITH runs first, in order, inside the statement's transaction; the
// rest of the statement then runs with each such query's text replaced by
// its RETURNING rows as VALUES. PostgreSQL runs all parts on one snapshot,
// so that the rest does not see the changes: a statement whose other parts
// read a table a WITH query changes is refused with 0A000 rather than
// answered differently.

#include <strings.h>

#include <cctype>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "planner/ddl.h"
#include "planner/ddl_alter_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"
#include "planner/svalue.h"
#include "planner/types.h"

namespace kova::planner {

struct WithDml {
  // The statement's text from its WITH on (a PREPARE's inner statement).
  std::string text;
  struct Query {
    std::string name;
    size_t begin = 0, end = 0;  // its text in the statement's, parens out
    std::string text;
    std::vector<ColumnDesc> columns;  // RETURNING
  };
  std::vector<Query> queries;
};

namespace {

const PgQuery__WithClause* TopWith(const PgQuery__Node* n) {
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      return n->select_stmt->with_clause;
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return n->insert_stmt->with_clause;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return n->update_stmt->with_clause;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return n->delete_stmt->with_clause;
    default:
      return nullptr;
  }
}

const PgQuery__RangeVar* DmlTarget(const PgQuery__Node* n) {
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return n->insert_stmt->relation;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return n->update_stmt->relation;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return n->delete_stmt->relation;
    default:
      return nullptr;
  }
}

bool IdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Skips blanks and comments from *i.
void SkipBlanks(const std::string& t, size_t* i) {
  while (*i < t.size()) {
    if (std::isspace(static_cast<unsigned char>(t[*i]))) {
      ++*i;
    } else if (t.compare(*i, 2, "--") == 0) {
      while (*i < t.size() && t[*i] != '\n') ++*i;
    } else if (t.compare(*i, 2, "/*") == 0) {
      int depth = 0;
      do {
        if (t.compare(*i, 2, "/*") == 0) {
          depth++;
          *i += 2;
        } else if (t.compare(*i, 2, "*/") == 0) {
          depth--;
          *i += 2;
        } else {
          ++*i;
        }
      } while (*i < t.size() && depth > 0);
    } else {
      return;
    }
  }
}

// Past the token at *i: a quoted string or identifier, a dollar-quoted
// string, a word, or one character.
void SkipToken(const std::string& t, size_t* i) {
  char c = t[*i];
  if (c == '\'' || c == '"') {
    bool escapes =
        c == '\'' && *i > 0 && (t[*i - 1] == 'E' || t[*i - 1] == 'e');
    for (++*i; *i < t.size(); ++*i) {
      if (escapes && t[*i] == '\\') {
        ++*i;
        continue;
      }
      if (t[*i] == c) {
        if (*i + 1 < t.size() && t[*i + 1] == c) {
          ++*i;
          continue;
        }
        ++*i;
        return;
      }
    }
    return;
  }
  if (c == '$') {
    size_t end = t.find('$', *i + 1);
    if (end != std::string::npos) {
      std::string tag = t.substr(*i, end - *i + 1);
      bool is_tag = true;
      for (size_t k = 1; k + 1 < tag.size(); k++)
        is_tag &= IdentChar(tag[k]) && tag[k] != '$';
      if (is_tag) {
        size_t close = t.find(tag, end + 1);
        *i = close == std::string::npos ? t.size() : close + tag.size();
        return;
      }
    }
  }
  if (IdentChar(c)) {
    while (*i < t.size() && IdentChar(t[*i])) ++*i;
    return;
  }
  ++*i;
}

// From *i at '(': past its matching ')'.
bool SkipParens(const std::string& t, size_t* i) {
  int depth = 0;
  while (*i < t.size()) {
    SkipBlanks(t, i);
    if (*i >= t.size()) break;
    char c = t[*i];
    SkipToken(t, i);
    if (c == '(') depth++;
    if (c == ')' && --depth == 0) return true;
  }
  return false;
}

bool Keyword(const std::string& t, size_t* i, const char* word) {
  size_t n = std::strlen(word);
  if (t.size() < *i + n || strncasecmp(t.c_str() + *i, word, n) != 0 ||
      (*i + n < t.size() && IdentChar(t[*i + n])))
    return false;
  *i += n;
  return true;
}

// The text between the parentheses of the WITH query whose name starts at
// `at`: name [(columns)] AS [[NOT] MATERIALIZED] ( query ).
bool QueryBody(const std::string& t, size_t at, size_t* begin, size_t* end) {
  size_t i = at;
  SkipToken(t, &i);  // the name
  SkipBlanks(t, &i);
  if (i < t.size() && t[i] == '(' && !SkipParens(t, &i)) return false;
  SkipBlanks(t, &i);
  if (!Keyword(t, &i, "as")) return false;
  SkipBlanks(t, &i);
  if (Keyword(t, &i, "not")) SkipBlanks(t, &i);
  if (Keyword(t, &i, "materialized")) SkipBlanks(t, &i);
  if (i >= t.size() || t[i] != '(') return false;
  size_t open = i;
  if (!SkipParens(t, &i)) return false;
  *begin = open + 1;
  *end = i - 1;
  return true;
}

std::vector<const PgQuery__RangeVar*> RelationsRead(const PgQuery__Node* n) {
  std::vector<const PgQuery__RangeVar*> out;
  VisitParseNodes(
      reinterpret_cast<ProtobufCMessage*>(const_cast<PgQuery__Node*>(n)),
      [&](PgQuery__Node* x) {
        if (x->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
          out.push_back(x->range_var);
      });
  return out;
}

std::string TypeLiteralName(const ColumnDesc& c) {
  return types::FormatTypeName(c.type_oid, c.type_modifier);
}

// A query of no rows with `columns`' names and types.
std::string NoRows(const std::vector<ColumnDesc>& columns) {
  std::string nulls;
  for (size_t c = 0; c < columns.size(); c++)
    nulls += (c ? ", " : "") + std::string("NULL::") +
             TypeLiteralName(columns[c]) + " AS " +
             QuoteIdentifier(columns[c].name);
  return "SELECT " + nulls + " WHERE false";
}

// `text` (one statement) parsed into a new plan with `like`'s parameters.
bool ParsedPlan(const std::string& text, const Plan& like,
                std::shared_ptr<Plan>* out, PgError* error) {
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse(text, &tree, &syntax) || tree->size() != 1) {
    *error = Err("42601", syntax.message.empty()
                              ? "cannot parse a rewritten WITH query"
                              : syntax.message);
    return false;
  }
  auto plan = std::make_shared<Plan>();
  plan->tree = std::shared_ptr<sql::ParseTree>(std::move(tree));
  plan->node = plan->tree->statement(0).stmt;
  plan->text = text;
  plan->simple = like.simple;
  plan->param_types = like.param_types;
  *out = std::move(plan);
  return true;
}

}  // namespace

bool SessionImpl::AnalyzeWithDml(Plan* plan, bool* handled, PgError* error) {
  *handled = false;
  const PgQuery__WithClause* with = TopWith(plan->node);
  if (!with) return true;
  bool any = false;
  for (size_t i = 0; i < with->n_ctes; i++) {
    const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
    any |= DmlTarget(cte->ctequery) != nullptr;
  }
  if (!any) return true;
  *handled = true;
  // Offsets: CTE locations count in the whole text the tree was parsed
  // from, the plan's text is its statement's.
  int64_t statement_at = -1;
  // (PREPARE name AS statement: the plan is the inner statement's, with the
  // PREPARE's text.)
  int64_t statement_end = -1;
  for (size_t i = 0; plan->tree && i < plan->tree->size(); i++) {
    const PgQuery__RawStmt& raw = plan->tree->statement(i);
    const PgQuery__Node* top = raw.stmt;
    if (top == plan->node ||
        (top->node_case == PG_QUERY__NODE__NODE_PREPARE_STMT &&
         top->prepare_stmt->query == plan->node)) {
      statement_at = with->location;
      statement_end = raw.stmt_len
                          ? raw.stmt_location + raw.stmt_len
                          : static_cast<int64_t>(plan->tree->text().size());
    }
  }
  if (statement_at < 0) {
    *error = Err("0A000",
                 "WITH clause containing a data-modifying statement must be "
                 "at the top level");
    return false;
  }
  if (with->recursive) {
    *error = Err("0A000",
                 "data-modifying statements in WITH RECURSIVE are not "
                 "supported yet");
    return false;
  }
  const std::string& full = plan->tree->text();
  auto info = std::make_shared<WithDml>();
  info->text = full.substr(statement_at, statement_end - statement_at);
  std::set<std::string> names, targets;
  std::set<const PgQuery__RangeVar*> inside;
  for (size_t i = 0; i < with->n_ctes; i++)
    names.insert(with->ctes[i]->common_table_expr->ctename);
  for (size_t i = 0; i < with->n_ctes; i++) {
    const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
    const PgQuery__RangeVar* target = DmlTarget(cte->ctequery);
    if (!target) continue;
    for (const PgQuery__RangeVar* r : RelationsRead(cte->ctequery)) {
      inside.insert(r);
      if (!r->schemaname[0] && names.count(r->relname)) {
        *error = Err("0A000",
                     "data-modifying WITH queries that read other WITH "
                     "queries are not supported yet",
                     r->location);
        return false;
      }
    }
    targets.insert(target->relname);
    WithDml::Query q;
    q.name = cte->ctename;
    size_t begin, end;
    if (!QueryBody(full, static_cast<size_t>(cte->location), &begin, &end) ||
        begin < static_cast<size_t>(statement_at)) {
      *error =
          Err("XX000", "cannot find the text of WITH query \"" + q.name + "\"");
      return false;
    }
    q.begin = begin - statement_at;
    q.end = end - statement_at;
    q.text = full.substr(begin, end - begin);
    // Analysed now for its RETURNING columns (and parameter types).
    std::shared_ptr<Plan> sub;
    if (!ParsedPlan(q.text, *plan, &sub, error)) return false;
    if (!Analyze(sub, error)) {
      error->position = 0;
      return false;
    }
    plan->param_types = sub->param_types;
    q.columns = sub->columns;
    info->queries.push_back(std::move(q));
  }
  // The rest of the statement must not read what they change (see above).
  for (const PgQuery__RangeVar* r : RelationsRead(plan->node)) {
    if (inside.count(r) || !targets.count(r->relname)) continue;
    *error = Err("0A000",
                 "a statement whose data-modifying WITH query changes a table "
                 "the rest of it reads (\"" +
                     std::string(r->relname) + "\") is not supported yet",
                 r->location);
    return false;
  }
  plan->with_dml = info;
  plan->writes = true;
  statement_writes_ = true;
  // The rest over no rows of the right types: its columns and parameters.
  std::string shape;
  size_t at = 0;
  for (const auto& q : info->queries) {
    shape += info->text.substr(at, q.begin - at) + NoRows(q.columns);
    at = q.end;
  }
  shape += info->text.substr(at);
  std::shared_ptr<Plan> rest;
  if (!ParsedPlan(shape, *plan, &rest, error)) return false;
  if (!Analyze(rest, error)) {
    error->position = 0;
    return false;
  }
  plan->param_types = rest->param_types;
  plan->columns = rest->columns;
  plan->is_select = rest->is_select;
  plan->writes = true;
  statement_writes_ = true;
  return true;
}

bool SessionImpl::RunWithDml(PortalImpl* portal, PgError* error) {
  std::shared_ptr<Plan> plan = portal->plan;
  const WithDml& info = *plan->with_dml;
  std::string text;
  size_t at = 0;
  for (const auto& q : info.queries) {
    std::shared_ptr<Plan> sub;
    if (!ParsedPlan(q.text, *plan, &sub, error) || !Analyze(sub, error))
      return false;
    PortalImpl run;
    run.plan = sub;
    run.params = portal->params;
    run.formats.assign(sub->columns.size(), Format::kText);
    run.started = true;
    if (!RunDml(&run, error)) return false;
    if (!run.final_result.ok) {
      *error = run.final_result.error;
      return false;
    }
    // Its rows as VALUES of the RETURNING types (none: no rows at all).
    std::string rows;
    for (const auto& row : run.rows) {
      std::string one;
      for (size_t c = 0; c < sub->columns.size(); c++) {
        std::string value = c < row.size() && !row[c].null
                                ? SqlQuoteLiteral(row[c].bytes)
                                : "NULL";
        one +=
            (c ? ", " : "") + value + "::" + TypeLiteralName(sub->columns[c]);
      }
      rows += (rows.empty() ? "" : ", ") + ("(" + one + ")");
    }
    std::string names;
    for (size_t c = 0; c < sub->columns.size(); c++)
      names += (c ? ", " : "") + QuoteIdentifier(sub->columns[c].name);
    std::string body;
    if (rows.empty() || sub->columns.empty()) {
      body = NoRows(sub->columns);
    } else {
      body = "SELECT * FROM (VALUES " + rows + ") AS kova_returning(" + names +
             ")";
    }
    text += info.text.substr(at, q.begin - at) + body;
    at = q.end;
  }
  text += info.text.substr(at);
  std::shared_ptr<Plan> rest;
  if (!ParsedPlan(text, *plan, &rest, error)) return false;
  if (!Analyze(rest, error)) {
    error->position = 0;
    return false;
  }
  rest->writes = true;
  portal->plan = rest;
  return true;
}

}  // namespace kova::planner
