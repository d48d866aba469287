// search_path and temporary tables: where an unqualified name is looked up
// and where a new object goes, and the session's temporary schema
// (pg_temp_N, first in the lookup path as in PostgreSQL, dropped with
// everything in it when the session ends).
#include <cstring>

#include "planner/ddl.h"
#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

// A sink for statements the session runs on its own behalf.
class DiscardSink : public ResultSink {
 public:
  void RowDescription(const std::vector<ColumnDesc>&,
                      const std::vector<Format>&) override {}
  void DataRow(const std::vector<Datum>&) override {}
  void Notice(const PgError&) override {}
  void BeginCopyIn(Format, int) override {}
  CopyRead ReadCopyData(std::string*) override { return CopyRead::kFail; }
  bool DeallocatePrepared(std::string_view) override { return false; }
  void DeallocateAllPrepared() override {}
  void BeginCopyOut(Format, int) override {}
  void CopyOutData(std::string_view) override {}
  void EndCopyOut() override {}
};

// The entries of a search_path value: identifiers separated by commas,
// unquoted ones folded to lower case, "$user" kept as is.
std::vector<std::string> SplitPath(const std::string& value) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && (value[i] == ' ' || value[i] == ',')) i++;
    if (i >= value.size()) break;
    std::string part;
    if (value[i] == '"') {
      for (i++; i < value.size(); i++) {
        if (value[i] == '"') {
          if (i + 1 < value.size() && value[i + 1] == '"') {
            part += '"';
            i++;
            continue;
          }
          i++;
          break;
        }
        part += value[i];
      }
    } else {
      while (i < value.size() && value[i] != ',' && value[i] != ' ')
        part += static_cast<char>(
            std::tolower(static_cast<unsigned char>(value[i++])));
    }
    while (i < value.size() && value[i] != ',') i++;
    out.push_back(part);
  }
  return out;
}

}  // namespace

std::string SessionImpl::TempSchemaName() const {
  return "pg_temp_" + std::to_string(pid_);
}

std::vector<std::string> SessionImpl::SearchPathSchemas(bool for_lookup) {
  Value value;
  PgError ignored;
  GetSetting("search_path", true, &value, &ignored);
  std::vector<std::string> out;
  std::string temp = TempSchemaName();
  bool has_temp =
      temp_schema_checked_ && catalog_ && catalog_->FindSchema(temp);
  bool temp_listed = false;
  for (std::string s : SplitPath(value ? *value : "")) {
    if (s == "$user") s = user_;
    if (s == "pg_temp") {
      temp_listed = true;
      // Never a place to create in unless asked for by name (CREATE TEMP).
      if (has_temp && for_lookup) out.push_back(temp);
      continue;
    }
    if (catalog_ && catalog_->FindSchema(s)) out.push_back(s);
  }
  // PostgreSQL searches the temporary schema first unless the path places
  // it explicitly.
  if (for_lookup && has_temp && !temp_listed) out.insert(out.begin(), temp);
  return out;
}

std::string SessionImpl::LookupSchema(const char* schemaname,
                                      const std::string& name) {
  if (schemaname && *schemaname)
    return std::strcmp(schemaname, "pg_temp") == 0 ? TempSchemaName()
                                                   : schemaname;
  std::vector<std::string> path = SearchPathSchemas(true);
  for (const auto& s : path) {
    if (catalog_->RelationExists(s, name)) return s;
  }
  // Not found: the caller reports it missing; the creation schema keeps
  // messages and catalog lookups well-formed.
  for (const auto& s : SearchPathSchemas(false)) return s;
  return "public";
}

bool SessionImpl::CreationSchema(const PgQuery__RangeVar* rv,
                                 std::string* schema, PgError* error) {
  bool temp = rv->relpersistence && std::strcmp(rv->relpersistence, "t") == 0;
  std::string given = rv->schemaname ? rv->schemaname : "";
  if (temp && !given.empty() && given != "pg_temp") {
    *error =
        Err("42P16", "cannot create temporary relation in non-temporary schema",
            rv->location);
    return false;
  }
  if (temp || given == "pg_temp") return EnsureTempSchema(schema, error);
  if (!given.empty()) {
    *schema = given;
    return true;
  }
  std::vector<std::string> path = SearchPathSchemas(false);
  if (path.empty()) {
    *error =
        Err("3F000", "no schema has been selected to create in", rv->location);
    return false;
  }
  *schema = path.front();
  return true;
}

bool SessionImpl::EnsureTempSchema(std::string* schema, PgError* error) {
  *schema = TempSchemaName();
  if (!LoadCatalog(error)) return false;
  if (catalog_->FindSchema(*schema)) {
    if (temp_schema_checked_) return true;
    // Left by an earlier server process that stopped without dropping it
    // (PostgreSQL too clears a stale temporary schema at first use).
    ExecuteResult r = RunInternal("DROP SCHEMA " + *schema + " CASCADE");
    if (!r.ok) {
      *error = r.error;
      return false;
    }
  }
  temp_schema_checked_ = true;
  catalog::Schema sc;
  sc.name = *schema;
  sc.owner = user_;
  docstore::Status s = EnsureWriteTransaction();
  if (s.ok())
    s = catalog::Catalog::AllocateOid(storage_.get(), database_, &sc.oid);
  if (s.ok()) s = catalog::Catalog::PutSchema(storage_.get(), database_, sc);
  if (!s.ok()) {
    *error = TableError(s);
    return false;
  }
  return LoadCatalog(error);
}

ExecuteResult SessionImpl::RunInternal(const std::string& text) {
  std::unique_ptr<sql::ParseTree> tree;
  sql::SyntaxError syntax;
  if (!sql::ParseTree::Parse(text, &tree, &syntax) || tree->size() != 1)
    return Fail(Err("XX000", "internal statement failed: " + text));
  auto plan = std::make_shared<Plan>();
  plan->tree = std::shared_ptr<sql::ParseTree>(std::move(tree));
  plan->node = plan->tree->statement(0).stmt;
  plan->text = text;
  plan->simple = true;
  DiscardSink sink;
  return RunUtility(*plan, &sink);
}

void SessionImpl::RegisterOnCommit(const catalog::Table& table, char action) {
  on_commit_.push_back({table.schema, table.name, table.oid, action});
}

bool SessionImpl::RunOnCommitActions(PgError* error) {
  if (on_commit_.empty()) return true;
  if (!LoadCatalog(error)) return false;
  std::vector<OnCommit> keep;
  for (const auto& oc : on_commit_) {
    // Gone (dropped, or its CREATE rolled back): nothing to do, ever.
    const catalog::Table* t = catalog_->FindTable(oc.schema, oc.name);
    if (!t || t->oid != oc.oid) continue;
    std::string target =
        QuoteIdentifier(oc.schema) + "." + QuoteIdentifier(oc.name);
    ExecuteResult r =
        RunInternal((oc.action == 'd' ? "DROP TABLE " : "TRUNCATE ") + target);
    if (!r.ok) {
      *error = r.error;
      return false;
    }
    if (oc.action != 'd') keep.push_back(oc);
  }
  on_commit_ = std::move(keep);
  return true;
}

void SessionImpl::DropTempSchema() {
  if (!temp_schema_checked_) return;
  temp_schema_checked_ = false;
  on_commit_.clear();
  PgError error;
  if (!LoadCatalog(&error) || !catalog_->FindSchema(TempSchemaName())) return;
  ExecuteResult r =
      RunInternal("DROP SCHEMA IF EXISTS " + TempSchemaName() + " CASCADE");
  if (storage_->in_transaction()) {
    if (r.ok)
      storage_->Commit();
    else
      storage_->Rollback();
  }
}

}  // namespace kova::planner
