// COPY: options as PostgreSQL's ProcessCopyOptions checks them, and
// COPY (query) TO STDOUT in text and CSV formats.
#include <algorithm>

#include "planner/copy_internal.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {
namespace {

// defGetString.
std::string StringArg(const PgQuery__DefElem* d) {
  if (!d->arg) return "";
  switch (d->arg->node_case) {
    case PG_QUERY__NODE__NODE_STRING:
      return d->arg->string->sval;
    case PG_QUERY__NODE__NODE_INTEGER:
      return std::to_string(d->arg->integer->ival);
    case PG_QUERY__NODE__NODE_FLOAT:
      return d->arg->float_->fval;
    case PG_QUERY__NODE__NODE_BOOLEAN:
      return d->arg->boolean->boolval ? "true" : "false";
    default:
      return "";
  }
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

// defGetBoolean.
bool BoolArg(const PgQuery__DefElem* d, bool* out, PgError* error) {
  if (!d->arg) {
    *out = true;
    return true;
  }
  if (d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER) {
    int v = d->arg->integer->ival;
    if (v == 0 || v == 1) {
      *out = v == 1;
      return true;
    }
  } else {
    std::string v = Lower(StringArg(d));
    if (v == "true" || v == "on") {
      *out = true;
      return true;
    }
    if (v == "false" || v == "off") {
      *out = false;
      return true;
    }
  }
  *error = Err("42601", std::string(d->defname) + " requires a Boolean value");
  return false;
}

// pg_char_to_encoding: the encoding names PostgreSQL knows, compared after
// dropping every character that is not a letter or digit.
bool KnownEncoding(const std::string& name, bool* utf8) {
  std::string clean;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      clean.push_back(static_cast<char>(std::tolower(c)));
  static const char* const kNames[] = {
      "abc",         "alt",          "big5",        "euccn",
      "eucjis2004",  "eucjp",        "euckr",       "euctw",
      "gb18030",     "gbk",          "iso88591",    "iso885910",
      "iso885913",   "iso885914",    "iso885915",   "iso885916",
      "iso88592",    "iso88593",     "iso88594",    "iso88595",
      "iso88596",    "iso88597",     "iso88598",    "iso88599",
      "johab",       "koi8",         "koi8r",       "koi8u",
      "latin1",      "latin10",      "latin2",      "latin3",
      "latin4",      "latin5",       "latin6",      "latin7",
      "latin8",      "latin9",       "mskanji",     "muleinternal",
      "shiftjis",    "shiftjis2004", "sjis",        "sqlascii",
      "tcvn",        "tcvn5712",     "uhc",         "unicode",
      "utf8",        "vscii",        "win",         "win1250",
      "win1251",     "win1252",      "win1253",     "win1254",
      "win1255",     "win1256",      "win1257",     "win1258",
      "win866",      "win874",       "win932",      "win936",
      "win949",      "win950",       "windows1250", "windows1251",
      "windows1252", "windows1253",  "windows1254", "windows1255",
      "windows1256", "windows1257",  "windows1258", "windows866",
      "windows874",  "windows932",   "windows936",  "windows949",
      "windows950"};
  for (const char* n : kNames) {
    if (clean == n) {
      *utf8 = clean == "utf8" || clean == "unicode";
      return true;
    }
  }
  return false;
}

bool ColumnList(const PgQuery__DefElem* d, std::vector<std::string>* out,
                PgError* error) {
  if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_LIST) {
    *error = Err("22023",
                 "argument to option \"" + std::string(d->defname) +
                     "\" must be a list of column names",
                 d->location);
    return false;
  }
  for (size_t k = 0; k < d->arg->list->n_items; k++)
    out->push_back(d->arg->list->items[k]->string->sval);
  return true;
}

}  // namespace

bool ParseCopyOptions(const PgQuery__CopyStmt* copy, bool is_from,
                      CopyOptions* o, PgError* error) {
  bool format_specified = false, freeze_specified = false,
       header_specified = false, has_delim = false, has_null = false,
       has_quote = false, has_escape = false, has_force_quote = false,
       has_force_not_null = false, has_force_null = false, has_encoding = false;
  std::string delim, quote, escape;
  auto conflict = [&](const PgQuery__DefElem* d) {
    *error = Err("42601", "conflicting or redundant options", d->location);
    return false;
  };
  for (size_t i = 0; i < copy->n_options; i++) {
    const PgQuery__DefElem* d = copy->options[i]->def_elem;
    std::string opt = d->defname;
    if (opt == "format") {
      if (format_specified) return conflict(d);
      format_specified = true;
      std::string f = StringArg(d);
      if (f == "csv") {
        o->csv = true;
      } else if (f == "binary") {
        o->binary = true;
      } else if (f != "text") {
        *error = Err("22023", "COPY format \"" + f + "\" not recognized",
                     d->location);
        return false;
      }
    } else if (opt == "freeze") {
      if (freeze_specified) return conflict(d);
      freeze_specified = true;
      if (!BoolArg(d, &o->freeze, error)) return false;
    } else if (opt == "delimiter") {
      if (has_delim) return conflict(d);
      delim = StringArg(d);
      has_delim = true;
    } else if (opt == "null") {
      if (has_null) return conflict(d);
      o->null_text = StringArg(d);
      has_null = true;
    } else if (opt == "header") {
      if (header_specified) return conflict(d);
      header_specified = true;
      // defGetCopyHeaderChoice.
      bool ok = false;
      if (!d->arg) {
        o->header = CopyOptions::Header::kTrue;
        ok = true;
      } else if (d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER) {
        int v = d->arg->integer->ival;
        if (v == 0 || v == 1) {
          o->header =
              v ? CopyOptions::Header::kTrue : CopyOptions::Header::kFalse;
          ok = true;
        }
      } else {
        std::string v = StringArg(d);
        std::string lv = Lower(v);
        if (lv == "true" || lv == "on") {
          o->header = CopyOptions::Header::kTrue;
          ok = true;
        } else if (lv == "false" || lv == "off") {
          o->header = CopyOptions::Header::kFalse;
          ok = true;
        } else if (lv == "match") {
          if (!is_from) {
            *error =
                Err("0A000", "cannot use \"" + v + "\" with HEADER in COPY TO");
            return false;
          }
          o->header = CopyOptions::Header::kMatch;
          ok = true;
        }
      }
      if (!ok) {
        *error = Err("42601", std::string(d->defname) +
                                  " requires a Boolean value or \"match\"");
        return false;
      }
    } else if (opt == "quote") {
      if (has_quote) return conflict(d);
      quote = StringArg(d);
      has_quote = true;
    } else if (opt == "escape") {
      if (has_escape) return conflict(d);
      escape = StringArg(d);
      has_escape = true;
    } else if (opt == "force_quote") {
      if (has_force_quote) return conflict(d);
      has_force_quote = true;
      if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_STAR) {
        o->force_quote_all = true;
      } else if (!ColumnList(d, &o->force_quote, error)) {
        return false;
      }
    } else if (opt == "force_not_null") {
      if (has_force_not_null) return conflict(d);
      has_force_not_null = true;
      if (!ColumnList(d, &o->force_not_null, error)) return false;
    } else if (opt == "force_null") {
      if (has_force_null) return conflict(d);
      has_force_null = true;
      if (!ColumnList(d, &o->force_null, error)) return false;
    } else if (opt == "encoding") {
      if (has_encoding) return conflict(d);
      has_encoding = true;
      bool utf8 = false;
      if (!KnownEncoding(StringArg(d), &utf8)) {
        *error = Err("22023",
                     "argument to option \"encoding\" must be a valid "
                     "encoding name",
                     d->location);
        return false;
      }
      if (!utf8) {
        *error =
            Err("0A000", "COPY ENCODING other than UTF8 is not supported yet",
                d->location);
        return false;
      }
    } else {
      *error =
          Err("42601", "option \"" + opt + "\" not recognized", d->location);
      return false;
    }
  }
  if (o->binary && has_delim) {
    *error = Err("42601", "cannot specify DELIMITER in BINARY mode");
    return false;
  }
  if (o->binary && has_null) {
    *error = Err("42601", "cannot specify NULL in BINARY mode");
    return false;
  }
  if (!has_delim) delim = o->csv ? "," : "\t";
  if (!has_null) o->null_text = o->csv ? "" : "\\N";
  if (o->csv) {
    if (!has_quote) quote = "\"";
    if (!has_escape) escape = quote;
  }
  if (delim.size() != 1) {
    *error = Err("0A000", "COPY delimiter must be a single one-byte character");
    return false;
  }
  o->delimiter = delim[0];
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
    *error = Err("22023", "COPY delimiter cannot be \"" + delim + "\"");
    return false;
  }
  if (o->binary && o->header != CopyOptions::Header::kFalse) {
    *error = Err("0A000", "cannot specify HEADER in BINARY mode");
    return false;
  }
  if (!o->csv && has_quote) {
    *error = Err("0A000", "COPY quote available only in CSV mode");
    return false;
  }
  if (o->csv && quote.size() != 1) {
    *error = Err("0A000", "COPY quote must be a single one-byte character");
    return false;
  }
  if (o->csv) o->quote = quote[0];
  if (o->csv && o->delimiter == o->quote) {
    *error = Err("22023", "COPY delimiter and quote must be different");
    return false;
  }
  if (!o->csv && has_escape) {
    *error = Err("0A000", "COPY escape available only in CSV mode");
    return false;
  }
  if (o->csv && escape.size() != 1) {
    *error = Err("0A000", "COPY escape must be a single one-byte character");
    return false;
  }
  if (o->csv) o->escape = escape[0];
  if (!o->csv && has_force_quote) {
    *error = Err("0A000", "COPY force quote available only in CSV mode");
    return false;
  }
  if (has_force_quote && is_from) {
    *error = Err("0A000", "COPY force quote only available using COPY TO");
    return false;
  }
  if (!o->csv && has_force_not_null) {
    *error = Err("0A000", "COPY force not null available only in CSV mode");
    return false;
  }
  if (has_force_not_null && !is_from) {
    *error = Err("0A000", "COPY force not null only available using COPY FROM");
    return false;
  }
  if (!o->csv && has_force_null) {
    *error = Err("0A000", "COPY force null available only in CSV mode");
    return false;
  }
  if (has_force_null && !is_from) {
    *error = Err("0A000", "COPY force null only available using COPY FROM");
    return false;
  }
  if (o->null_text.find(o->delimiter) != std::string::npos) {
    *error = Err("22023",
                 "COPY delimiter must not appear in the NULL specification");
    return false;
  }
  if (o->csv && o->null_text.find(o->quote) != std::string::npos) {
    *error = Err("22023",
                 "CSV quote character must not appear in the NULL "
                 "specification");
    return false;
  }
  return true;
}

// CopyAttributeOutText: control characters as escapes, backslash and the
// delimiter behind a backslash.
PgError GeneratedCopyError(const std::string& column) {
  PgError e = Err("42P10", "column \"" + column + "\" is a generated column");
  e.detail = "Generated columns cannot be used in COPY.";
  return e;
}

void AppendCopyText(std::string* line, const std::string& value, char delim) {
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
void AppendCopyCsv(std::string* line, const std::string& value,
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

namespace {

// Writes computed rows as COPY TO STDOUT data.
ExecuteResult SendCopyOut(const CopyOptions& options,
                          const std::vector<std::string>& names,
                          const std::vector<bool>& force,
                          const std::vector<std::vector<Datum>>& rows,
                          ResultSink* sink) {
  size_t ncols = names.size();
  sink->BeginCopyOut(Format::kText, static_cast<int>(ncols));
  if (options.header == CopyOptions::Header::kTrue) {
    std::string line;
    for (size_t i = 0; i < ncols; i++) {
      if (i) line.push_back(options.delimiter);
      // Header names are quoted only when needed, never forced.
      if (options.csv)
        AppendCopyCsv(&line, names[i], options, false, ncols == 1);
      else
        AppendCopyText(&line, names[i], options.delimiter);
    }
    line.push_back('\n');
    sink->CopyOutData(line);
  }
  std::string line;
  for (const auto& row : rows) {
    line.clear();
    for (size_t i = 0; i < row.size(); i++) {
      if (i) line.push_back(options.delimiter);
      if (row[i].null)
        line += options.null_text;
      else if (options.csv)
        AppendCopyCsv(&line, row[i].bytes, options, force[i], ncols == 1);
      else
        AppendCopyText(&line, row[i].bytes, options.delimiter);
    }
    line.push_back('\n');
    sink->CopyOutData(line);
  }
  sink->EndCopyOut();
  ExecuteResult r;
  r.command_tag = "COPY " + std::to_string(rows.size());
  return r;
}

std::string QuoteIdent(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

ExecuteResult SessionImpl::RunCopy(const Plan& plan, ResultSink* sink) {
  const PgQuery__CopyStmt* copy = plan.node->copy_stmt;
  bool to_file = copy->is_program || (copy->filename && *copy->filename);
  if (to_file && !superuser_) {
    if (copy->is_program) {
      return Fail(Err("42501",
                      "must be superuser or have privileges of the "
                      "pg_execute_server_program role to COPY to or from an "
                      "external program"));
    }
    PgError e =
        Err("42501", copy->is_from ? "must be superuser or have privileges of "
                                     "the pg_read_server_files role to COPY "
                                     "from a file"
                                   : "must be superuser or have privileges of "
                                     "the pg_write_server_files role to COPY "
                                     "to a file");
    e.hint =
        "Anyone can COPY to stdout or from stdin. psql's \\copy command also "
        "works for anyone.";
    return Fail(e);
  }
  if (copy->is_program) {
    return Fail(Err("0A000", "COPY to or from a program is not supported"));
  }
  if (copy->relation && copy->is_from)
    return CopyRunner(this).CopyFrom(plan, sink);
  PgError error;
  CopyOptions options;
  std::shared_ptr<Plan> inner;
  std::vector<std::string> names;
  std::vector<std::string> table_columns;  // COPY table TO: all its columns
  if (copy->relation) {
    // COPY table [(columns)] TO: SELECT columns FROM table.
    if (!LoadCatalog(&error)) return Fail(error);
    const catalog::Table* table = nullptr;
    const catalog::View* view = nullptr;
    Plan scratch;
    scratch.simple = true;
    CompileContext context = MakeCompileContext(&scratch);
    if (!QueryCompiler::LookupRelation(&context, copy->relation, &table, &view,
                                       &error)) {
      error.position = 0;
      return Fail(error);
    }
    if (view) {
      PgError e = Err("42809", "cannot copy from view \"" + view->name + "\"");
      e.hint = "Try the COPY (SELECT ...) TO variant.";
      return Fail(e);
    }
    if (!ParseCopyOptions(copy, false, &options, &error)) return Fail(error);
    for (const auto& c : table->columns) table_columns.push_back(c.name);
    std::vector<int> columns;
    if (copy->n_attlist == 0) {
      // Every column but the generated ones, as PostgreSQL 15.
      for (size_t i = 0; i < table->columns.size(); i++)
        if (table->columns[i].generated_expr.empty())
          columns.push_back(static_cast<int>(i));
    } else {
      for (size_t i = 0; i < copy->n_attlist; i++) {
        std::string name = copy->attlist[i]->string->sval;
        int c = table->ColumnIndex(name);
        if (c < 0) {
          return Fail(Err("42703", "column \"" + name + "\" of relation \"" +
                                       table->name + "\" does not exist"));
        }
        if (!table->columns[c].generated_expr.empty())
          return Fail(GeneratedCopyError(name));
        if (std::find(columns.begin(), columns.end(), c) != columns.end()) {
          return Fail(
              Err("42701", "column \"" + name + "\" specified more than once"));
        }
        columns.push_back(c);
      }
    }
    std::string sql = "SELECT ";
    for (size_t i = 0; i < columns.size(); i++) {
      if (i) sql += ", ";
      names.push_back(table->columns[columns[i]].name);
      sql += QuoteIdent(names.back());
    }
    sql += columns.empty() ? "FROM " : " FROM ";
    sql += QuoteIdent(table->schema) + "." + QuoteIdent(table->name);
    std::shared_ptr<sql::ParseTree> tree;
    if (!ParseCached(sql, &tree, &error)) return Fail(error);
    inner = std::make_shared<Plan>();
    inner->tree = tree;
    inner->node = tree->statement(0).stmt;
    inner->text = sql;
    inner->simple = true;
    if (!AnalyzeTableSelect(inner.get(), &error)) return Fail(error);
    if (options.binary)
      return Fail(Err("0A000", "COPY BINARY is not supported yet"));
    if (to_file) {
      return Fail(Err("0A000",
                      "COPY to a file is not supported; use COPY ... TO "
                      "STDOUT"));
    }
  } else {
    if (!ParseCopyOptions(copy, false, &options, &error)) return Fail(error);
    inner = std::make_shared<Plan>();
    inner->tree = plan.tree;
    inner->node = copy->query;
    inner->simple = true;  // COPY takes no parameters
    if (copy->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
      return Fail(Err("0A000", "COPY of this query is not supported yet"));
    }
    bool ok = IsTableStatement(copy->query)
                  ? AnalyzeTableSelect(inner.get(), &error)
                  : AnalyzeSelect(inner.get(), &error);
    if (!ok) {
      if (error.message.empty())
        error = Err("0A000", "COPY of this query is not supported yet");
      return Fail(error);
    }
    for (const auto& c : inner->columns) names.push_back(c.name);
    if (options.binary)
      return Fail(Err("0A000", "COPY BINARY is not supported yet"));
    if (to_file) {
      return Fail(Err("0A000",
                      "COPY to a file is not supported; use COPY ... TO "
                      "STDOUT"));
    }
  }
  size_t ncols = names.size();
  std::vector<bool> force(ncols, options.force_quote_all);
  for (const auto& name : options.force_quote) {
    bool found = false;
    for (size_t i = 0; i < ncols; i++) {
      if (names[i] == name) force[i] = found = true;
    }
    if (!found) {
      if (copy->relation &&
          table_columns.end() ==
              std::find(table_columns.begin(), table_columns.end(), name)) {
        return Fail(Err("42703", "column \"" + name + "\" of relation \"" +
                                     copy->relation->relname +
                                     "\" does not exist"));
      }
      if (!copy->relation)
        return Fail(Err("42703", "column \"" + name + "\" does not exist"));
      return Fail(Err("42P10", "FORCE_QUOTE column \"" + name +
                                   "\" not referenced by COPY"));
    }
  }
  PortalImpl portal;
  portal.plan = inner;
  portal.formats.assign(ncols, Format::kText);
  if (!ComputeSelectRows(&portal, &error)) return Fail(error);
  return SendCopyOut(options, names, force, portal.rows, sink);
}

}  // namespace kova::planner
