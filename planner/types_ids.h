// Row and transaction identifier types: tid (ctid), xid, cid and xid8, as
// PostgreSQL 15's tidin/tidout, xidin, cidin and xid8in read and print
// them. Inside Kova each is one integer: a tid is block * 65536 + offset,
// so that integer order is tid order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "planner/planner.h"

namespace kova::planner::types::ids {

// tidin: "(block,offset)"; 22P02 when malformed or out of range.
bool TidIn(std::string_view text, int64_t* encoded, PgError* error);
void TidOut(int64_t encoded, std::string* out);
inline int64_t EncodeTid(uint32_t block, uint16_t offset) {
  return static_cast<int64_t>(block) * 65536 + offset;
}

// xidin and cidin (strtoul with base 0, no error: PostgreSQL 15 reads
// whatever prefix is a number, else 0) and xid8in (the same, 64 bits).
uint32_t Xid32In(std::string_view text);
uint64_t Xid8In(std::string_view text);

// A Kova row's ctid from its rowid: (0,1), (0,2), ... as PostgreSQL numbers
// the first rows of a table, 65535 rows per block.
inline int64_t CtidOfRowid(int64_t rid) {
  int64_t n = rid - 1;
  return (n / 65535) * 65536 + n % 65535 + 1;
}
// The same mapping as SQL over `rid_sql`.
std::string CtidSql(const std::string& rid_sql);

}  // namespace kova::planner::types::ids
