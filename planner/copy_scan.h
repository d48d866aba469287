// COPY FROM's input scanning (PostgreSQL 15's CopyReadLineText and
// CopyReadAttributesText/CSV) and UTF-8 checks. Internal to the planner.
// Pure functions of their input and options: COPY's reading thread and the
// session thread each use their own CopyIn.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "planner/copy_internal.h"

namespace kova::planner {

// limit_printout_length: at most 100 bytes (whole characters) and "...".
std::string CopyPrintable(std::string_view s);

// report_invalid_encoding for the bytes at p.
PgError CopyEncodingError(const char* p, size_t available);

// Verifies UTF-8 from `from`; returns where verification stopped (an
// invalid or cut-off character) and whether that is an invalid one.
size_t VerifyUtf8(const std::string& buf, size_t from, bool* invalid);

struct CopyField {
  size_t offset = 0;  // into the attribute buffer
  size_t length = 0;
  bool null = false;
};

class CopyIn {
 public:
  explicit CopyIn(const CopyOptions& o) : o_(o) {}

  // CopyReadLineText over [start, limit). Returns kNeedMore when the line
  // does not end before `limit` and more input may come.
  enum class Scan { kNeedMore, kLine, kEndMarker, kEof, kError };
  Scan ScanLine(const char* start, const char* limit, bool final,
                size_t* content, size_t* consumed, int* extra_lines,
                PgError* error);

  // CopyReadAttributesText / CSV. False with *error set on bad input.
  bool Split(std::string_view line, size_t max_fields,
             std::vector<CopyField>* fields, PgError* error) {
    return o_.csv ? SplitCsv(line, max_fields, fields, error)
                  : SplitText(line, max_fields, fields, error);
  }
  std::string_view FieldText(const CopyField& f) const {
    return std::string_view(attr_.data() + f.offset, f.length);
  }

 private:
  enum class Eol { kUnknown, kNl, kCr, kCrNl };

  bool SplitText(std::string_view line, size_t max_fields,
                 std::vector<CopyField>* fields, PgError* error);
  bool SplitCsv(std::string_view line, size_t max_fields,
                std::vector<CopyField>* fields, PgError* error);
  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
  }
  PgError CrError() const;

  const CopyOptions& o_;
  Eol eol_ = Eol::kUnknown;
  std::vector<char> attr_;
};

}  // namespace kova::planner
