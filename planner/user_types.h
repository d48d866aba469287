// User-defined types (enums and domains) of the session's database, for the
// type layer that otherwise knows built-in types only (types.cc, svalue.cc,
// expression analysis). The session running a statement makes its catalog
// the source of this thread's lookups (ScopedSource), so the static type
// functions resolve user oids without a catalog parameter. Internal.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "planner/planner.h"
#include "planner/types.h"

namespace kova::planner::user_types {

class Source {
 public:
  virtual ~Source() = default;
  // The session's catalog; `refresh` reloads it first when another
  // transaction changed it (name lookups), null when none can be loaded.
  virtual const catalog::Catalog* TypeCatalog(bool refresh) = 0;
  // Where an unqualified type name is looked up (search_path).
  virtual std::vector<std::string> TypeSearchPath() { return {"public"}; }
};

// Makes `source` this thread's source until destroyed.
class ScopedSource {
 public:
  explicit ScopedSource(Source* source);
  ~ScopedSource();
  ScopedSource(const ScopedSource&) = delete;
  ScopedSource& operator=(const ScopedSource&) = delete;

 private:
  Source* previous_;
};

// Built-in oids are all below the first user oid.
inline bool IsUserOid(uint32_t oid) { return oid >= catalog::kFirstOid; }
const catalog::UserType* Find(uint32_t oid);
bool IsEnum(uint32_t oid);
bool IsDomain(uint32_t oid);
// A domain's base type (through domains over domains) and its typmod; any
// other type is its own base.
uint32_t BaseType(uint32_t oid, int32_t* typmod = nullptr);

// Arrays of enums and domains: the element type of a user array type and
// the array type of a user type (0 when there is none).
uint32_t ArrayElement(uint32_t array_oid);
uint32_t ArrayOf(uint32_t element);

// Name lookup (schema-qualified or in public); false when no such type.
bool ResolveName(const std::vector<std::string>& names, uint32_t* oid);
// Whether a schema of that name exists (a qualified type name in a missing
// schema is a 3F000, as in PostgreSQL).
bool SchemaExists(const std::string& schema);
// format_type(): the name, schema-qualified outside public.
std::string FormatName(uint32_t oid);

// The type functions of types.h for user oids.
bool InputText(uint32_t oid, int32_t typmod, std::string_view text,
               const types::TypeContext& context, std::string* out,
               PgError* error);
bool Cast(uint32_t from, uint32_t to, int32_t to_typmod, std::string_view value,
          const types::TypeContext& context, std::string* out, PgError* error);
bool TextToBinary(uint32_t oid, std::string_view canonical,
                  const types::TypeContext& context, std::string* out,
                  PgError* error);
bool BinaryToText(uint32_t oid, int32_t typmod, std::string_view binary,
                  const types::TypeContext& context, std::string* out,
                  PgError* error);

// Three-way comparison of two labels of an enum in its sort order.
int CompareEnum(uint32_t oid, std::string_view a, std::string_view b);
// The SQLite collation enum values compare with ("" for other types).
const char* CollationName(uint32_t oid);
// Lets a connection create the enum collations on demand.
int RegisterCollations(sqlite3* db);

}  // namespace kova::planner::user_types
