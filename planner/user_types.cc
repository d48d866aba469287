#include "planner/user_types.h"

#include <map>
#include <mutex>

#include "planner/expr_internal.h"
#include "planner/svalue.h"
#include "planner/types_array.h"

namespace kova::planner::user_types {
namespace {

thread_local Source* current = nullptr;

const catalog::Catalog* Current(bool refresh = false) {
  return current ? current->TypeCatalog(refresh) : nullptr;
}

PgError NoCast(uint32_t from, uint32_t to) {
  return expr_detail::Err("42846", "cannot cast type " +
                                       types::FormatTypeName(from, -1) +
                                       " to " + types::FormatTypeName(to, -1));
}

bool IsString(uint32_t t) {
  return t == oid::kText || t == oid::kVarchar || t == oid::kBpchar ||
         t == oid::kName || t == oid::kUnknown;
}

int EnumCollation(void* arg, int na, const void* a, int nb, const void* b) {
  auto type = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(arg));
  return CompareEnum(type, std::string_view(static_cast<const char*>(a), na),
                     std::string_view(static_cast<const char*>(b), nb));
}

// Arrays of enums in PostgreSQL's array order (array_cmp over enum_cmp).
int EnumArrayCollation(void* arg, int na, const void* a, int nb,
                       const void* b) {
  auto type = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(arg));
  std::string x(static_cast<const char*>(a), na);
  std::string y(static_cast<const char*>(b), nb);
  int c;
  PgError ignored;
  if (!expr_detail::CompareArrays(type, x, y, ArrayStorageContext(), &c,
                                  &ignored))
    return x.compare(y) < 0 ? -1 : x == y ? 0 : 1;
  return c;
}

constexpr std::string_view kEnumPrefix = "kova_enum_";
constexpr std::string_view kEnumArrayPrefix = "kova_enum_array_";

void CollationNeeded(void*, sqlite3* db, int, const char* name) {
  std::string_view n(name);
  bool array = n.substr(0, kEnumArrayPrefix.size()) == kEnumArrayPrefix;
  if (!array && n.substr(0, kEnumPrefix.size()) != kEnumPrefix) return;
  std::string digits(
      n.substr(array ? kEnumArrayPrefix.size() : kEnumPrefix.size()));
  uint32_t type =
      static_cast<uint32_t>(std::strtoul(digits.c_str(), nullptr, 10));
  sqlite3_create_collation_v2(
      db, name, SQLITE_UTF8, reinterpret_cast<void*>(uintptr_t{type}),
      array ? EnumArrayCollation : EnumCollation, nullptr);
}

}  // namespace

ScopedSource::ScopedSource(Source* source) : previous_(current) {
  current = source;
}
ScopedSource::~ScopedSource() { current = previous_; }

const catalog::UserType* Find(uint32_t oid) {
  if (!IsUserOid(oid)) return nullptr;
  const catalog::Catalog* c = Current();
  return c ? c->FindTypeByOid(oid) : nullptr;
}

bool IsEnum(uint32_t oid) {
  const catalog::UserType* t = Find(oid);
  return t && t->kind == 'e';
}

bool IsDomain(uint32_t oid) {
  const catalog::UserType* t = Find(oid);
  return t && t->kind == 'd';
}

uint32_t ArrayElement(uint32_t array_oid) {
  if (!IsUserOid(array_oid)) return 0;
  const catalog::Catalog* c = Current();
  const catalog::UserType* t = c ? c->FindTypeByArrayOid(array_oid) : nullptr;
  return t ? t->oid : 0;
}

uint32_t ArrayOf(uint32_t element) {
  const catalog::UserType* t = Find(element);
  return t ? t->array_oid : 0;
}

uint32_t BaseType(uint32_t oid, int32_t* typmod) {
  // An array of a domain is used as an array of the domain's base type
  // (its elements' constraints are checked by CheckDomainValue).
  if (uint32_t element = ArrayElement(oid); element && IsDomain(element)) {
    uint32_t base_array = types::ArrayTypeOf(BaseType(element, typmod));
    if (base_array) return base_array;
  }
  for (int depth = 0; depth < 32; depth++) {
    const catalog::UserType* t = Find(oid);
    if (!t || t->kind != 'd') break;
    oid = t->base_type;
    if (typmod) *typmod = t->base_typmod;
  }
  return oid;
}

bool ResolveName(const std::vector<std::string>& names, uint32_t* oid) {
  if (names.empty() || names.size() > 2) return false;
  const catalog::Catalog* c = Current(true);
  if (!c) return false;
  const catalog::UserType* t = nullptr;
  if (names.size() == 2) {
    t = c->FindType(names[0], names[1]);
  } else {
    for (const auto& schema : current->TypeSearchPath())
      if ((t = c->FindType(schema, names[0]))) break;
  }
  if (!t) return false;
  *oid = t->oid;
  return true;
}

bool SchemaExists(const std::string& schema) {
  if (schema == "pg_catalog" || schema == "information_schema") return true;
  const catalog::Catalog* c = Current(true);
  return !c || c->FindSchema(schema);
}

std::string FormatName(uint32_t oid) {
  if (uint32_t element = ArrayElement(oid)) return FormatName(element) + "[]";
  const catalog::UserType* t = Find(oid);
  if (!t) return "???";  // format_type of an unknown oid
  return t->schema == "public" ? t->name : t->schema + "." + t->name;
}

bool InputText(uint32_t oid, int32_t typmod, std::string_view text,
               const types::TypeContext& context, std::string* out,
               PgError* error) {
  if (ArrayElement(oid))
    return types::ArrayInput(oid, typmod, text, context, out, error);
  const catalog::UserType* t = Find(oid);
  if (!t) {
    *error = expr_detail::Err(
        "42704", "cache lookup failed for type " + std::to_string(oid));
    return false;
  }
  if (t->kind == 'd') {
    int32_t base_typmod = -1;
    uint32_t base = BaseType(oid, &base_typmod);
    return types::InputText(base, typmod >= 0 ? typmod : base_typmod, text,
                            context, out, error);
  }
  if (!t->FindLabel(text)) {
    *error = expr_detail::Err("22P02", "invalid input value for enum " +
                                           FormatName(oid) + ": \"" +
                                           std::string(text) + "\"");
    return false;
  }
  out->assign(text);
  return true;
}

bool Cast(uint32_t from, uint32_t to, int32_t to_typmod, std::string_view value,
          const types::TypeContext& context, std::string* out, PgError* error) {
  if (ArrayElement(from) || ArrayElement(to))
    return types::ArrayCast(from, to, to_typmod, value, context, out, error);
  if (IsDomain(to)) {
    int32_t base_typmod = -1;
    uint32_t base = BaseType(to, &base_typmod);
    return types::Cast(from, base, to_typmod >= 0 ? to_typmod : base_typmod,
                       value, context, out, error);
  }
  if (IsDomain(from))
    return types::Cast(BaseType(from), to, to_typmod, value, context, out,
                       error);
  if (from == to) {
    out->assign(value);
    return true;
  }
  if (IsEnum(to)) {
    if (!IsString(from)) {
      *error = NoCast(from, to);
      return false;
    }
    std::string text(value);
    if (from == oid::kBpchar) text.erase(text.find_last_not_of(' ') + 1);
    return user_types::InputText(to, -1, text, context, out, error);
  }
  if (IsEnum(from) && IsString(to))
    return types::Cast(oid::kText, to, to_typmod, value, context, out, error);
  *error = NoCast(from, to);
  return false;
}

bool TextToBinary(uint32_t oid, std::string_view canonical,
                  const types::TypeContext& context, std::string* out,
                  PgError* error) {
  if (ArrayElement(oid))
    return types::ArraySend(oid, canonical, context, out, error);
  if (IsDomain(oid))
    return types::TextToBinary(BaseType(oid), canonical, context, out, error);
  out->assign(canonical);  // enum_send: the label's text
  return true;
}

bool BinaryToText(uint32_t oid, int32_t typmod, std::string_view binary,
                  const types::TypeContext& context, std::string* out,
                  PgError* error) {
  if (ArrayElement(oid))
    return types::ArrayReceive(oid, typmod, binary, context, out, error);
  if (IsDomain(oid)) {
    int32_t base_typmod = -1;
    uint32_t base = BaseType(oid, &base_typmod);
    return types::BinaryToText(base, typmod >= 0 ? typmod : base_typmod, binary,
                               context, out, error);
  }
  return user_types::InputText(oid, typmod, binary, context, out, error);
}

int CompareEnum(uint32_t oid, std::string_view a, std::string_view b) {
  const catalog::UserType* t = Find(oid);
  const catalog::EnumLabel* la = t ? t->FindLabel(a) : nullptr;
  const catalog::EnumLabel* lb = t ? t->FindLabel(b) : nullptr;
  if (la && lb)
    return la->sort_order < lb->sort_order   ? -1
           : la->sort_order > lb->sort_order ? 1
                                             : 0;
  // A label this catalog does not know (renamed meanwhile) sorts last.
  if (la || lb) return la ? -1 : 1;
  return a.compare(b) < 0 ? -1 : a.compare(b) > 0;
}

const char* CollationName(uint32_t oid) {
  uint32_t element = ArrayElement(oid);
  if (!IsEnum(element ? element : oid)) return "";
  static std::mutex mu;
  static std::map<uint32_t, std::string> names;
  std::lock_guard<std::mutex> lock(mu);
  auto [it, inserted] = names.try_emplace(oid);
  if (inserted)
    it->second = std::string(element ? kEnumArrayPrefix : kEnumPrefix) +
                 std::to_string(oid);
  return it->second.c_str();
}

int RegisterCollations(sqlite3* db) {
  return sqlite3_collation_needed(db, nullptr, CollationNeeded);
}

}  // namespace kova::planner::user_types
