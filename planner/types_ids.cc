#include "planner/types_ids.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "planner/types_util.h"

namespace kova::planner::types::ids {

bool TidIn(std::string_view text, int64_t* encoded, PgError* error) {
  // As tidin: the first '(' or any ',' starts a coordinate, up to two,
  // stopping at ')'; each is read by strtoul and must end at ',' or ')'.
  std::string s(text);
  const char* coord[2] = {nullptr, nullptr};
  int found = 0;
  for (const char* p = s.c_str(); *p && found < 2 && *p != ')'; p++) {
    if (*p == ',' || (*p == '(' && found == 0)) coord[found++] = p + 1;
  }
  if (found < 2) return util::InvalidSyntax(error, "tid", text);
  char* end;
  errno = 0;
  unsigned long block = std::strtoul(coord[0], &end, 10);
  if (errno || *end != ',') return util::InvalidSyntax(error, "tid", text);
  uint32_t block32 = static_cast<uint32_t>(block);
  if (block != static_cast<unsigned long>(block32) &&
      block != static_cast<unsigned long>(static_cast<int32_t>(block32)))
    return util::InvalidSyntax(error, "tid", text);
  errno = 0;
  unsigned long offset = std::strtoul(coord[1], &end, 10);
  if (errno || *end != ')' || offset > USHRT_MAX)
    return util::InvalidSyntax(error, "tid", text);
  *encoded = EncodeTid(block32, static_cast<uint16_t>(offset));
  return true;
}

void TidOut(int64_t encoded, std::string* out) {
  uint64_t v = static_cast<uint64_t>(encoded);
  *out += "(";
  util::AppendUint(out, v >> 16);
  *out += ",";
  util::AppendUint(out, v & 0xffff);
  *out += ")";
}

uint32_t Xid32In(std::string_view text) {
  std::string s(text);
  return static_cast<uint32_t>(std::strtoul(s.c_str(), nullptr, 0));
}

uint64_t Xid8In(std::string_view text) {
  std::string s(text);
  return std::strtoull(s.c_str(), nullptr, 0);
}

std::string CtidSql(const std::string& rid_sql) {
  return "(((" + rid_sql + ") - 1) / 65535 * 65536 + ((" + rid_sql +
         ") - 1) % 65535 + 1)";
}

}  // namespace kova::planner::types::ids
