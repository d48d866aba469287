// Rows of pg_type, pg_enum, pg_collation, pg_tablespace and pg_settings.
#include <algorithm>

#include "planner/system_catalog_internal.h"

namespace kova::planner::system_catalog {

void TypeRows(const Source& s, std::vector<Row>* rows) {
  auto add = [&](uint32_t oid, const std::string& name, uint32_t nsp,
                 uint32_t owner, int len, char type, char category,
                 uint32_t element, uint32_t array, uint32_t base,
                 int32_t typmod, bool not_null,
                 const std::string& default_expr = "") {
    // The I/O functions PostgreSQL names for the type (array_in for
    // arrays, enum_in for enums, domain_in for domains).
    std::string io = element       ? "array"
                     : type == 'e' ? "enum"
                     : type == 'd' ? "domain"
                                   : name;
    // tid (6 bytes) is aligned on 2 and passed by reference, as in
    // PostgreSQL.
    const char* align = len == 1               ? "c"
                        : len == 2 || len == 6 ? "s"
                        : len == 8             ? "d"
                                               : "i";
    std::string def = default_expr.empty() ? kNull : Text(default_expr);
    rows->push_back({Int(oid),
                     Text(name),
                     Int(nsp),
                     Int(owner),
                     Int(len),
                     Bool(len > 0 && len <= 8 && len != 6),
                     Text(std::string(1, type)),
                     Text(std::string(1, category)),
                     Bool(true),
                     Text(","),
                     Int(0),
                     Int(element),
                     Int(array),
                     Bool(not_null),
                     Int(base),
                     Int(typmod),
                     Int(0),
                     Int(Collation(base ? base : oid)),
                     Text(std::string(1, Storage(base ? base : oid))),
                     Text(align),
                     Text(io + "in"),
                     Text(io + "out"),
                     Text(type == 'd' ? "domain_recv" : io + "recv"),
                     Text(type == 'd' ? "-" : io + "send"),
                     Text("-"),
                     Text("-"),
                     Text(element ? "array_typanalyze" : "-"),
                     Text(element ? "array_subscript_handler" : "-"),
                     Bool(false),
                     def,
                     def,
                     kNull});
  };
  // The built-in types (those with array types).
  for (uint32_t t : ArrayElementTypes()) {
    const types::TypeInfo* info = types::LookupType(t);
    if (!info) continue;
    add(t, info->name, kPgCatalogNamespace, kBootstrapSuperuser, info->length,
        'b', info->category, 0, info->array_oid, 0, -1, false);
    if (const types::TypeInfo* a = types::LookupType(info->array_oid))
      add(a->oid, a->name, kPgCatalogNamespace, kBootstrapSuperuser, -1, 'b',
          'A', t, 0, 0, -1, false);
  }
  // Row and transaction identifiers (no arrays of them yet).
  for (uint32_t t : {oid::kTid, oid::kXid, oid::kCid, oid::kXid8}) {
    const types::TypeInfo* info = types::LookupType(t);
    add(t, info->name, kPgCatalogNamespace, kBootstrapSuperuser, info->length,
        'b', info->category, 0, 0, 0, -1, false);
  }
  for (const auto& [key, ty] : s.cat->types()) {
    uint32_t nsp = NamespaceOid(*s.cat, ty.schema);
    bool domain = ty.kind == 'd';
    const types::TypeInfo* base =
        domain ? types::LookupType(ty.base_type) : nullptr;
    add(ty.oid, ty.name, nsp, OwnerOid(ty.owner),
        domain ? (base ? base->length : -1) : 4, domain ? 'd' : 'e',
        domain ? (base ? base->category : 'U') : 'E', 0, ty.array_oid,
        domain ? ty.base_type : 0, domain ? ty.base_typmod : -1,
        domain && ty.not_null, domain ? ty.default_expr : "");
    if (ty.array_oid)
      add(ty.array_oid, "_" + ty.name, nsp, OwnerOid(ty.owner), -1, 'b', 'A',
          ty.oid, 0, 0, -1, false);
  }
}

void EnumRows(const Source& s, std::vector<Row>* rows) {
  // A label's OID: the first ones of a type take the slots of the type's
  // OID (ConstraintOid, 2048 of them); a type with more labels numbers the
  // rest from 2^31, above every slot, in the order of the types' OIDs, so
  // that no two labels share an OID.
  constexpr size_t kSlots = 2048;
  std::vector<const catalog::UserType*> enums;
  for (const auto& [key, ty] : s.cat->types())
    if (ty.kind == 'e') enums.push_back(&ty);
  std::sort(enums.begin(), enums.end(),
            [](const auto* a, const auto* b) { return a->oid < b->oid; });
  uint32_t next_extra_oid = 1u << 31;
  for (const catalog::UserType* ty : enums) {
    for (size_t i = 0; i < ty->labels.size(); i++) {
      char order[32];
      snprintf(order, sizeof order, "%.9g", ty->labels[i].sort_order);
      uint32_t oid = i < kSlots ? ConstraintOid(ty->oid, i) : next_extra_oid++;
      rows->push_back(
          {Int(oid), Int(ty->oid), order, Text(ty->labels[i].label)});
    }
  }
}

void LanguageRows(const Source&, std::vector<Row>* rows) {
  // PostgreSQL's built-in languages (plpgsql belongs to its extension,
  // which Kova does not have).
  const struct {
    int oid;
    const char* name;
    bool trusted;
    int validator;
  } languages[] = {{12, "internal", false, 2246},
                   {13, "c", false, 2247},
                   {14, "sql", true, 2248}};
  for (const auto& l : languages)
    rows->push_back({Int(l.oid), Text(l.name), Int(kBootstrapSuperuser),
                     Bool(false), Bool(l.trusted), Int(0), Int(0),
                     Int(l.validator), kNull});
}

void SettingRows(const std::string& lines, std::vector<Row>* rows) {
  size_t start = 0;
  while (start < lines.size()) {
    size_t end = lines.find('\n', start);
    if (end == std::string::npos) end = lines.size();
    std::string line = lines.substr(start, end - start);
    start = end + 1;
    size_t t1 = line.find('\t');
    size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) continue;
    std::string value = line.substr(t1 + 1, t2 - t1 - 1);
    bool boolean = value == "on" || value == "off";
    rows->push_back({Text(line.substr(0, t1)), Text(value), kNull, kNull,
                     Text(line.substr(t2 + 1)), kNull, Text("user"),
                     Text(boolean ? "bool" : "string"), Text("default"), kNull,
                     kNull, kNull, Text(value), Text(value), kNull, kNull,
                     Bool(false)});
  }
}

void LockRows(const std::string& lines, std::vector<Row>* rows) {
  for (std::vector<std::string> f : SplitLines(lines)) {
    if (f.size() != 7) continue;
    // database, classid, objid, objsubid, pid, mode, granted.
    rows->push_back({Text("advisory"), Int(DatabaseOid(f[0])), kNull, kNull,
                     kNull, kNull, kNull, f[1], f[2], f[3], kNull, f[4],
                     Text(f[5]), Bool(f[6] == "t"), Bool(false), kNull});
  }
}

void ActivityRows(const std::string& lines, std::vector<Row>* rows) {
  for (std::vector<std::string> f : SplitLines(lines)) {
    if (f.size() != 12) continue;
    // datname, pid, usename, application_name, backend_start, xact_start,
    // query_start, state_change, state, query, client_addr, client_port.
    auto micros = [](const std::string& v) {
      return v.empty() ? kNull : Int(std::stoll(v));
    };
    for (std::string& v : f) {  // activity.cc's escapes
      std::string plain;
      for (size_t i = 0; i < v.size(); i++) {
        if (v[i] != '\\' || i + 1 == v.size()) {
          plain += v[i];
          continue;
        }
        char c = v[++i];
        plain += c == 't' ? '\t' : c == 'n' ? '\n' : c;
      }
      v = std::move(plain);
    }
    rows->push_back({Int(DatabaseOid(f[0])),
                     Text(f[0]),
                     Int(std::stoll(f[1])),
                     kNull,
                     Int(RoleOid(f[2])),
                     Text(f[2]),
                     Text(f[3]),
                     f[10].empty() ? kNull : Text(f[10]),
                     kNull,
                     Int(std::stoll(f[11])),
                     micros(f[4]),
                     micros(f[5]),
                     micros(f[6]),
                     micros(f[7]),
                     kNull,
                     kNull,
                     Text(f[8]),
                     kNull,
                     kNull,
                     kNull,
                     Text(f[9]),
                     Text("client backend")});
  }
}

void CollationRows(const Source&, std::vector<Row>* rows) {
  rows->push_back({Int(100), Text("default"), Int(kPgCatalogNamespace),
                   Int(kBootstrapSuperuser), Text("d"), Bool(true), Int(-1),
                   kNull, kNull, kNull, kNull});
  rows->push_back({Int(950), Text("C"), Int(kPgCatalogNamespace),
                   Int(kBootstrapSuperuser), Text("c"), Bool(true), Int(-1),
                   Text("C"), Text("C"), kNull, kNull});
  rows->push_back({Int(951), Text("POSIX"), Int(kPgCatalogNamespace),
                   Int(kBootstrapSuperuser), Text("c"), Bool(true), Int(-1),
                   Text("POSIX"), Text("POSIX"), kNull, kNull});
}

void TablespaceRows(const Source&, std::vector<Row>* rows) {
  rows->push_back(
      {Int(1663), Text("pg_default"), Int(kBootstrapSuperuser), kNull, kNull});
  rows->push_back(
      {Int(1664), Text("pg_global"), Int(kBootstrapSuperuser), kNull, kNull});
}

}  // namespace kova::planner::system_catalog
