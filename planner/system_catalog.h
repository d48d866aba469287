// pg_catalog emulation: the system relations psql and ORMs read, rendered
// from the in-memory catalog (system_relations.cc), and the functions over
// them (system_functions.cc). Internal to the planner.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace kova::planner {

// Cluster-wide objects the catalog of one database does not hold.
struct ClusterRole {
  std::string name;
  bool superuser = false;
  bool login = false;
};
struct ClusterDatabase {
  std::string name;
  std::string owner;
  int64_t connection_limit = -1;
};

namespace system_catalog {

// PostgreSQL's fixed OIDs.
inline constexpr uint32_t kPgCatalogNamespace = 11;
inline constexpr uint32_t kPgToastNamespace = 99;
inline constexpr uint32_t kPublicNamespace = 2200;
inline constexpr uint32_t kInformationSchemaNamespace = 13000;
inline constexpr uint32_t kBootstrapSuperuser = 10;
inline constexpr uint32_t kPgDatabaseOwner = 6171;
inline constexpr uint32_t kHeapAm = 2;
inline constexpr uint32_t kBtreeAm = 403;
inline constexpr uint32_t kHashAm = 405;
inline constexpr uint32_t kPgClassOid = 1259;
inline constexpr uint32_t kPgNamespaceOid = 2615;
inline constexpr uint32_t kPgTypeOid = 1247;

// Whether `name` is a relation of pg_catalog this emulation provides.
bool IsSystemRelation(std::string_view name);

// The OID of a role / database: PostgreSQL's for the bootstrap ones, else
// a stable hash of the name (Kova keeps no OIDs for them).
uint32_t RoleOid(std::string_view name);
uint32_t DatabaseOid(std::string_view name);
// The namespace OID of a schema of the catalog (public: 2200).
uint32_t NamespaceOid(const catalog::Catalog& cat, std::string_view schema);
// The OID of a table's constraint (Kova keeps none: derived from the
// table's OID and the constraint's position).
uint32_t ConstraintOid(uint32_t table_oid, size_t index);

// A relation of the catalog by OID: kind 'r', 'v', 'S' or 'i'.
struct RelationRef {
  char kind = 0;
  std::string schema, name;
  const catalog::Table* table = nullptr;  // 'r', or the table of an 'i'
  const catalog::Index* index = nullptr;
  const catalog::View* view = nullptr;
  const catalog::Sequence* sequence = nullptr;
};
bool FindRelation(const catalog::Catalog& cat, uint32_t oid, RelationRef* out);

// A column default as pg_get_expr shows it ('new'::text,
// nextval('s'::regclass)).
std::string DefaultExpression(const catalog::Column& column);

}  // namespace system_catalog
}  // namespace kova::planner
