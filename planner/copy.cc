// COPY: options as PostgreSQL's ProcessCopyOptions checks them, and
// COPY (query) TO STDOUT in text and CSV formats.
#include <algorithm>

#include "planner/session_impl.h"

namespace kova::planner {
namespace {

PgError Err(const char* sqlstate, std::string message, int location = -1) {
  PgError e;
  e.sqlstate = sqlstate;
  e.message = std::move(message);
  e.position = location >= 0 ? location + 1 : 0;
  return e;
}

struct CopyOptions {
  bool csv = false;
  bool header = false;
  char delimiter = '\t';
  std::string null_text = "\\N";
  char quote = '"';
  char escape = '"';
  bool force_quote_all = false;
  std::vector<std::string> force_quote;
};

std::string StringArg(const PgQuery__DefElem* d) {
  if (!d->arg) return "";
  if (d->arg->node_case == PG_QUERY__NODE__NODE_STRING)
    return d->arg->string->sval;
  if (d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER)
    return std::to_string(d->arg->integer->ival);
  return "";
}

bool ParseOptions(const PgQuery__CopyStmt* copy, CopyOptions* o,
                  PgError* error) {
  std::vector<std::string> seen;
  bool has_delim = false, has_null = false, has_quote = false,
       has_escape = false, has_force_not_null = false, has_force_null = false;
  std::string delim, quote, escape;
  for (size_t i = 0; i < copy->n_options; i++) {
    const PgQuery__DefElem* d = copy->options[i]->def_elem;
    std::string opt = d->defname;
    if (std::find(seen.begin(), seen.end(), opt) != seen.end()) {
      *error = Err("42601", "conflicting or redundant options", d->location);
      return false;
    }
    seen.push_back(opt);
    if (opt == "format") {
      std::string f = StringArg(d);
      if (f == "csv") {
        o->csv = true;
      } else if (f == "binary") {
        *error = Err("0A000", "COPY BINARY is not supported yet", d->location);
        return false;
      } else if (f != "text") {
        *error = Err("22023", "COPY format \"" + f + "\" not recognized",
                     d->location);
        return false;
      }
    } else if (opt == "header") {
      o->header =
          !d->arg || (d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN
                          ? static_cast<bool>(d->arg->boolean->boolval)
                          : StringArg(d) != "false" && StringArg(d) != "off" &&
                                StringArg(d) != "0");
    } else if (opt == "delimiter") {
      delim = StringArg(d);
      has_delim = true;
    } else if (opt == "null") {
      o->null_text = StringArg(d);
      has_null = true;
    } else if (opt == "quote") {
      quote = StringArg(d);
      has_quote = true;
    } else if (opt == "escape") {
      escape = StringArg(d);
      has_escape = true;
    } else if (opt == "force_quote") {
      if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_STAR) {
        o->force_quote_all = true;
      } else if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_LIST) {
        for (size_t k = 0; k < d->arg->list->n_items; k++)
          o->force_quote.push_back(d->arg->list->items[k]->string->sval);
      }
    } else if (opt == "force_not_null") {
      has_force_not_null = true;
    } else if (opt == "force_null") {
      has_force_null = true;
    } else if (opt == "freeze" || opt == "encoding") {
      // Accepted as PostgreSQL does for COPY TO.
    } else {
      *error =
          Err("42601", "option \"" + opt + "\" not recognized", d->location);
      return false;
    }
  }
  if (o->csv) {
    o->delimiter = ',';
    if (!has_null) o->null_text = "";
  }
  if (has_delim) {
    if (delim.size() != 1) {
      *error =
          Err("0A000", "COPY delimiter must be a single one-byte character");
      return false;
    }
    o->delimiter = delim[0];
  }
  if (o->delimiter == '\n' || o->delimiter == '\r') {
    *error =
        Err("22023", "COPY delimiter cannot be newline or carriage return");
    return false;
  }
  if (o->null_text.find_first_of("\r\n") != std::string::npos) {
    *error = Err("22023",
                 "COPY null representation cannot use newline or carriage "
                 "return");
    return false;
  }
  if (!o->csv && std::string("\\.abcdefghijklmnopqrstuvwxyz0123456789")
                         .find(o->delimiter) != std::string::npos) {
    *error = Err("22023", "COPY delimiter cannot be \"" +
                              std::string(1, o->delimiter) + "\"");
    return false;
  }
  if (has_quote && !o->csv) {
    *error = Err("0A000", "COPY quote available only in CSV mode");
    return false;
  }
  if (has_quote) {
    if (quote.size() != 1) {
      *error = Err("0A000", "COPY quote must be a single one-byte character");
      return false;
    }
    o->quote = quote[0];
  }
  if (o->csv && o->delimiter == o->quote) {
    *error = Err("22023", "COPY delimiter and quote must be different");
    return false;
  }
  if (has_escape && !o->csv) {
    *error = Err("0A000", "COPY escape available only in CSV mode");
    return false;
  }
  if (has_escape) {
    if (escape.size() != 1) {
      *error = Err("0A000", "COPY escape must be a single one-byte character");
      return false;
    }
    o->escape = escape[0];
  } else {
    o->escape = o->quote;
  }
  if ((o->force_quote_all || !o->force_quote.empty()) && !o->csv) {
    *error = Err("0A000", "COPY force quote available only in CSV mode");
    return false;
  }
  if (has_force_not_null) {
    *error = Err("0A000", o->csv ? "COPY force not null only available using "
                                   "COPY FROM"
                                 : "COPY force not null available only in CSV "
                                   "mode");
    return false;
  }
  if (has_force_null) {
    *error =
        Err("0A000", o->csv ? "COPY force null only available using COPY "
                              "FROM"
                            : "COPY force null available only in CSV mode");
    return false;
  }
  return true;
}

// CopyAttributeOutText: control characters as escapes, backslash and the
// delimiter behind a backslash.
void AppendText(std::string* line, const std::string& value, char delim) {
  for (char c : value) {
    switch (c) {
      case '\\':
        *line += "\\\\";
        continue;
      case '\t':
        *line += "\\t";
        continue;
      case '\n':
        *line += "\\n";
        continue;
      case '\r':
        *line += "\\r";
        continue;
      case '\b':
        *line += "\\b";
        continue;
      case '\f':
        *line += "\\f";
        continue;
      case '\v':
        *line += "\\v";
        continue;
      default:
        break;
    }
    if (c == delim) line->push_back('\\');
    line->push_back(c);
  }
}

// CopyAttributeOutCSV.
void AppendCsv(std::string* line, const std::string& value,
               const CopyOptions& o, bool force, bool single_column) {
  bool quote =
      force || value == o.null_text || (single_column && value == "\\.");
  if (!quote) {
    for (char c : value) {
      if (c == o.delimiter || c == o.quote || c == '\n' || c == '\r') {
        quote = true;
        break;
      }
    }
  }
  if (!quote) {
    *line += value;
    return;
  }
  line->push_back(o.quote);
  for (char c : value) {
    if (c == o.quote || c == o.escape) line->push_back(o.escape);
    line->push_back(c);
  }
  line->push_back(o.quote);
}

}  // namespace

ExecuteResult SessionImpl::RunCopy(const Plan& plan, ResultSink* sink) {
  const PgQuery__CopyStmt* copy = plan.node->copy_stmt;
  auto fail = [](PgError e) {
    ExecuteResult r;
    r.ok = false;
    r.error = std::move(e);
    return r;
  };
  if (!copy->query || copy->is_from) {
    return fail(Err("0A000", "COPY of tables is not supported yet"));
  }
  if (copy->is_program || (copy->filename && *copy->filename)) {
    return fail(Err("0A000",
                    "COPY to a file or program is not supported; use COPY "
                    "... TO STDOUT"));
  }
  CopyOptions options;
  PgError error;
  if (!ParseOptions(copy, &options, &error)) return fail(error);
  auto inner = std::make_shared<Plan>();
  inner->tree = plan.tree;
  inner->node = copy->query;
  inner->simple = true;  // COPY takes no parameters
  if (copy->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT ||
      !AnalyzeSelect(inner.get(), &error)) {
    if (error.message.empty())
      error = Err("0A000", "COPY of this query is not supported yet");
    return fail(error);
  }
  size_t ncols = inner->columns.size();
  std::vector<bool> force(ncols, options.force_quote_all);
  for (const auto& name : options.force_quote) {
    bool found = false;
    for (size_t i = 0; i < ncols; i++) {
      if (inner->columns[i].name == name) force[i] = found = true;
    }
    if (!found) {
      return fail(Err("42703", "column \"" + name + "\" does not exist"));
    }
  }
  PortalImpl portal;
  portal.plan = inner;
  portal.formats.assign(ncols, Format::kText);
  if (!ComputeSelectRows(&portal, &error)) return fail(error);
  sink->BeginCopyOut(Format::kText, static_cast<int>(ncols));
  auto append = [&](std::string* line, const std::string& v, size_t col) {
    if (options.csv)
      AppendCsv(line, v, options, force[col], ncols == 1);
    else
      AppendText(line, v, options.delimiter);
  };
  if (options.header) {
    std::string line;
    for (size_t i = 0; i < ncols; i++) {
      if (i) line.push_back(options.delimiter);
      // Header names are quoted only when needed, never forced.
      if (options.csv)
        AppendCsv(&line, inner->columns[i].name, options, false, ncols == 1);
      else
        AppendText(&line, inner->columns[i].name, options.delimiter);
    }
    sink->CopyOutData(line + "\n");
  }
  for (const auto& row : portal.rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); i++) {
      if (i) line.push_back(options.delimiter);
      if (row[i].null)
        line += options.null_text;
      else
        append(&line, row[i].bytes, i);
    }
    sink->CopyOutData(line + "\n");
  }
  sink->EndCopyOut();
  ExecuteResult r;
  r.command_tag = "COPY " + std::to_string(portal.rows.size());
  return r;
}

}  // namespace kova::planner
