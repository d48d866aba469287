// Arrays: array_in / array_out with PostgreSQL 15's syntax and errors,
// array_send / array_recv, and array casts.
#include "planner/types_array.h"

#include <cstdlib>
#include <limits>

#include "planner/types_util.h"
#include "planner/user_types.h"

namespace kova::planner::types {

namespace {

using util::Fail;

bool Malformed(PgError* error, std::string_view text, std::string detail) {
  return Fail(error, "22P02",
              "malformed array literal: \"" + std::string(text) + "\"",
              std::move(detail));
}

bool IsArraySpace(char c) { return util::IsSpace(c); }

constexpr uint32_t kInt2Vector = 22;

// int2vector's text ("1 2", "" when empty): an int2 array counted from 0.
// False when `text` is not of that form.
bool ParseInt2Vector(std::string_view text, ArrayValue* out,
                     size_t* bad = nullptr, bool* range = nullptr) {
  std::vector<std::optional<std::string>> items;
  size_t p = 0;
  while (true) {
    while (p < text.size() && IsArraySpace(text[p])) p++;
    if (p == text.size()) break;
    size_t start = p;
    if (text[p] == '-') p++;
    size_t digits = p;
    while (p < text.size() && util::IsDigit(text[p])) p++;
    if (bad) *bad = start;
    if (p == digits || (p < text.size() && !IsArraySpace(text[p])))
      return false;
    long value =
        p - digits > 6
            ? 100000
            : std::atol(std::string(text.substr(start, p - start)).c_str());
    if (value < -32768 || value > 32767) {
      if (range) *range = true;
      return false;
    }
    items.push_back(std::to_string(value));
  }
  *out = ArrayValue{};
  if (!items.empty()) {
    out->dims = {static_cast<int32_t>(items.size())};
    out->lbounds = {0};
    out->items = std::move(items);
  }
  return true;
}

// ArrayCount's state machine: only the syntax checks (and their messages),
// run over the whole literal before any element is converted, as
// PostgreSQL does. Returns the number of dimensions the braces imply (0 for
// "{}").
enum class State {
  kNoLevel,
  kLevelStarted,
  kElemStarted,
  kElemCompleted,
  kQuotedElemStarted,
  kQuotedElemCompleted,
  kElemDelimited,
  kLevelCompleted,
  kLevelDelimited,
};

bool CheckSyntax(std::string_view whole, std::string_view s, PgError* error) {
  int nest = 0;
  bool in_quotes = false;
  State state = State::kNoLevel;
  size_t p = 0;
  auto unexpected = [&](char c) {
    return Malformed(error, whole,
                     std::string("Unexpected \"") + c + "\" character.");
  };
  while (true) {
    if (p >= s.size())
      return Malformed(error, whole, "Unexpected end of input.");
    char c = s[p];
    if (c == '\\') {
      if (state != State::kLevelStarted && state != State::kElemStarted &&
          state != State::kQuotedElemStarted && state != State::kElemDelimited)
        return unexpected('\\');
      if (state != State::kQuotedElemStarted) state = State::kElemStarted;
      if (p + 1 >= s.size())
        return Malformed(error, whole, "Unexpected end of input.");
      p++;
    } else if (c == '"') {
      if (state != State::kLevelStarted && state != State::kQuotedElemStarted &&
          state != State::kElemDelimited)
        return Malformed(error, whole, "Unexpected array element.");
      in_quotes = !in_quotes;
      state =
          in_quotes ? State::kQuotedElemStarted : State::kQuotedElemCompleted;
    } else if (in_quotes) {
      // Anything inside quotes is element text.
    } else if (c == '{') {
      if (state != State::kNoLevel && state != State::kLevelStarted &&
          state != State::kLevelDelimited)
        return unexpected('{');
      state = State::kLevelStarted;
      if (nest >= kMaxArrayDims)
        return Fail(error, "54000",
                    "number of array dimensions (" + std::to_string(nest + 1) +
                        ") exceeds the maximum allowed (" +
                        std::to_string(kMaxArrayDims) + ")");
      nest++;
    } else if (c == '}') {
      if (state != State::kElemStarted && state != State::kElemCompleted &&
          state != State::kQuotedElemCompleted &&
          state != State::kLevelCompleted &&
          !(nest == 1 && state == State::kLevelStarted))
        return unexpected('}');
      state = State::kLevelCompleted;
      nest--;
      if (nest == 0) {
        p++;
        break;
      }
    } else if (c == ',') {
      if (state != State::kElemStarted && state != State::kElemCompleted &&
          state != State::kQuotedElemCompleted &&
          state != State::kLevelCompleted)
        return unexpected(',');
      state = state == State::kLevelCompleted ? State::kLevelDelimited
                                              : State::kElemDelimited;
    } else if (!IsArraySpace(c)) {
      if (state != State::kLevelStarted && state != State::kElemStarted &&
          state != State::kElemDelimited)
        return Malformed(error, whole, "Unexpected array element.");
      state = State::kElemStarted;
    }
    p++;
  }
  for (; p < s.size(); p++)
    if (!IsArraySpace(s[p]))
      return Malformed(error, whole, "Junk after closing right brace.");
  return true;
}

struct RawItem {
  std::string text;
  bool quoted = false;  // quoted or escaped: never the NULL marker
};

// Walks syntactically valid braces (CheckSyntax passed), collecting the
// elements as ReadArrayStr does and the number of items at each level.
class Structure {
 public:
  Structure(std::string_view whole, std::string_view s, PgError* error)
      : whole_(whole), s_(s), error_(error) {}

  bool Run() {
    size_t p = 0;
    while (IsArraySpace(s_[p])) p++;
    return Level(&p, 0);
  }

  std::vector<RawItem> items;
  std::vector<int32_t> counts;  // per level
  int leaf_depth = -1;

 private:
  bool Mismatch() {
    return Malformed(error_, whole_,
                     "Multidimensional arrays must have sub-arrays with "
                     "matching dimensions.");
  }

  bool Level(size_t* pp, int depth) {
    size_t& p = *pp;
    p++;  // '{'
    int32_t count = 0;
    while (IsArraySpace(s_[p])) p++;
    if (s_[p] == '}') {
      p++;
      return true;  // "{}" (only possible at the top)
    }
    while (true) {
      while (IsArraySpace(s_[p])) p++;
      if (s_[p] == '{') {
        if (!Level(&p, depth + 1)) return false;
      } else {
        if (leaf_depth < 0) leaf_depth = depth;
        if (leaf_depth != depth) return Mismatch();
        ReadItem(&p);
      }
      count++;
      while (IsArraySpace(s_[p])) p++;
      if (s_[p] == ',') {
        p++;
        continue;
      }
      p++;  // '}'
      break;
    }
    if (static_cast<int>(counts.size()) <= depth) counts.resize(depth + 1, -1);
    if (counts[depth] >= 0 && counts[depth] != count) return Mismatch();
    counts[depth] = count;
    return true;
  }

  void ReadItem(size_t* pp) {
    size_t& p = *pp;
    RawItem item;
    bool in_quotes = false;
    size_t end = 0;  // length without trailing unquoted blanks
    while (true) {
      char c = s_[p];
      if (c == '\\') {
        item.text.push_back(s_[p + 1]);
        p += 2;
        end = item.text.size();
        item.quoted = true;
      } else if (c == '"') {
        in_quotes = !in_quotes;
        if (!in_quotes) end = item.text.size();
        item.quoted = true;
        p++;
      } else if (in_quotes) {
        item.text.push_back(c);
        p++;
      } else if (c == ',' || c == '}') {
        break;
      } else if (IsArraySpace(c)) {
        if (!item.text.empty() || item.quoted) item.text.push_back(c);
        p++;
      } else {
        item.text.push_back(c);
        end = item.text.size();
        p++;
      }
    }
    item.text.resize(end);
    items.push_back(std::move(item));
  }

  std::string_view whole_;
  std::string_view s_;
  PgError* error_;
};

bool CaseEqualNull(std::string_view s) {
  if (s.size() != 4) return false;
  return util::ToLower(s[0]) == 'n' && util::ToLower(s[1]) == 'u' &&
         util::ToLower(s[2]) == 'l' && util::ToLower(s[3]) == 'l';
}

// Parses one dimension bound as atoi does (digits with signs).
int32_t Atoi(std::string_view s) {
  int64_t v = 0;
  bool neg = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  for (; i < s.size() && util::IsDigit(s[i]); i++) {
    v = v * 10 + (s[i] - '0');
    if (v > (int64_t{1} << 40)) break;
  }
  return static_cast<int32_t>(neg ? -v : v);
}

bool CheckBounds(const std::vector<int32_t>& dims,
                 const std::vector<int32_t>& lbounds, PgError* error) {
  int64_t total = 1;
  for (size_t i = 0; i < dims.size(); i++) {
    total *= dims[i];
    if (total > 134217727)  // MaxArraySize
      return Fail(error, "54000",
                  "array size exceeds the maximum allowed (134217727)");
    // ArrayCheckBounds: lower bound + length must fit in an int4.
    int64_t ub = static_cast<int64_t>(lbounds[i]) + dims[i];
    if (ub > std::numeric_limits<int32_t>::max())
      return Fail(
          error, "54000",
          "array lower bound is too large: " + std::to_string(lbounds[i]));
  }
  return true;
}

bool NeedsQuotes(std::string_view s) {
  if (s.empty() || CaseEqualNull(s)) return true;
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' ||
        IsArraySpace(c))
      return true;
  }
  return false;
}

void AppendItem(const std::optional<std::string>& item, std::string* out) {
  if (!item) {
    out->append("NULL");
    return;
  }
  if (!NeedsQuotes(*item)) {
    out->append(*item);
    return;
  }
  out->push_back('"');
  for (char c : *item) {
    if (c == '"' || c == '\\') out->push_back('\\');
    out->push_back(c);
  }
  out->push_back('"');
}

bool Short(PgError* error) {
  return Fail(error, "08P01", "insufficient data left in message");
}

}  // namespace

uint32_t ArrayElementType(uint32_t type) {
  if (user_types::IsUserOid(type)) return user_types::ArrayElement(type);
  const TypeInfo* info = LookupType(type);
  return info ? info->element_oid : 0;
}

uint32_t ArrayTypeOf(uint32_t element) {
  if (user_types::IsUserOid(element)) return user_types::ArrayOf(element);
  const TypeInfo* info = LookupType(element);
  return info && info->element_oid == 0 ? info->array_oid : 0;
}

bool ParseArray(std::string_view text, uint32_t element, int32_t typmod,
                const TypeContext& context, bool element_input, ArrayValue* out,
                PgError* error) {
  *out = ArrayValue{};
  size_t p = 0;
  while (p < text.size() && IsArraySpace(text[p])) p++;
  if (element == oid::kInt2 &&
      (p == text.size() || (text[p] != '{' && text[p] != '[')) &&
      ParseInt2Vector(text, out))
    return true;
  std::vector<int32_t> dims, lbounds;
  // Explicit dimensions: [lb:ub] or [ub], whitespace allowed between them.
  while (true) {
    while (p < text.size() && IsArraySpace(text[p])) p++;
    if (p >= text.size() || text[p] != '[') break;
    p++;
    if (dims.size() >= kMaxArrayDims)
      return Fail(error, "54000",
                  "number of array dimensions (" +
                      std::to_string(dims.size() + 1) +
                      ") exceeds the maximum allowed (" +
                      std::to_string(kMaxArrayDims) + ")");
    auto number_end = [&](size_t from) {
      size_t q = from;
      while (q < text.size() &&
             (util::IsDigit(text[q]) || text[q] == '-' || text[q] == '+'))
        q++;
      return q;
    };
    size_t q = number_end(p);
    if (q == p)
      return Malformed(
          error, text,
          "\"[\" must introduce explicitly-specified array dimensions.");
    int32_t lb = 1;
    if (q < text.size() && text[q] == ':') {
      lb = Atoi(text.substr(p, q - p));
      p = q + 1;
      q = number_end(p);
      if (q == p)
        return Malformed(error, text, "Missing array dimension value.");
    }
    if (q >= text.size() || text[q] != ']')
      return Malformed(error, text, "Missing \"]\" after array dimensions.");
    int32_t ub = Atoi(text.substr(p, q - p));
    p = q + 1;
    if (ub < lb)
      return Fail(error, "2202E",
                  "upper bound cannot be less than lower bound");
    dims.push_back(ub - lb + 1);
    lbounds.push_back(lb);
  }
  if (dims.empty()) {
    if (p >= text.size() || text[p] != '{')
      return Malformed(
          error, text,
          "Array value must start with \"{\" or dimension information.");
  } else {
    if (p >= text.size() || text[p] != '=')
      return Malformed(error, text, "Missing \"=\" after array dimensions.");
    p++;
    while (p < text.size() && IsArraySpace(text[p])) p++;
    if (p >= text.size() || text[p] != '{')
      return Malformed(error, text, "Array contents must start with \"{\".");
  }
  // ArrayCount's errors quote the literal from its first brace.
  std::string_view body = text.substr(p);
  if (!CheckSyntax(body, body, error)) return false;
  Structure structure(body, body, error);
  if (!structure.Run()) return false;
  std::vector<int32_t> found;
  if (!structure.items.empty()) {
    found.assign(structure.counts.begin(),
                 structure.counts.begin() + structure.leaf_depth + 1);
  }
  if (dims.empty()) {
    dims = found;
    lbounds.assign(dims.size(), 1);
  } else if (dims != found) {
    return Malformed(error, text,
                     "Specified array dimensions do not match array contents.");
  }
  if (!CheckBounds(dims, lbounds, error)) return false;
  out->dims = std::move(dims);
  out->lbounds = std::move(lbounds);
  out->items.reserve(structure.items.size());
  for (RawItem& raw : structure.items) {
    if (!raw.quoted && CaseEqualNull(raw.text)) {
      out->items.emplace_back();
      continue;
    }
    if (!element_input) {
      out->items.emplace_back(std::move(raw.text));
      continue;
    }
    std::string canonical;
    if (!InputText(element, typmod, raw.text, context, &canonical, error))
      return false;
    out->items.emplace_back(std::move(canonical));
  }
  return true;
}

std::string FormatArray(const ArrayValue& value) {
  if (value.dims.empty() || value.items.empty()) return "{}";
  std::string out;
  bool bounds = false;
  for (int32_t lb : value.lbounds) bounds |= lb != 1;
  if (bounds) {
    for (size_t i = 0; i < value.dims.size(); i++) {
      out += "[" + std::to_string(value.lbounds[i]) + ":" +
             std::to_string(static_cast<int64_t>(value.lbounds[i]) +
                            value.dims[i] - 1) +
             "]";
    }
    out += "=";
  }
  size_t ndim = value.dims.size();
  std::vector<int32_t> index(ndim, 0);
  for (size_t i = 0; i < ndim; i++) out.push_back('{');
  for (size_t k = 0; k < value.items.size(); k++) {
    AppendItem(value.items[k], &out);
    // Advance the index, closing and opening braces as levels roll over.
    size_t level = ndim;
    while (level > 0) {
      level--;
      if (++index[level] < value.dims[level]) break;
      index[level] = 0;
      out.push_back('}');
      if (level == 0) return out;
    }
    out.push_back(',');
    for (size_t l = level + 1; l < ndim; l++) out.push_back('{');
  }
  return out;
}

bool ArrayInput(uint32_t type, int32_t typmod, std::string_view text,
                const TypeContext& context, std::string* canonical,
                PgError* error) {
  ArrayValue value;
  size_t first = 0;
  while (first < text.size() && IsArraySpace(text[first])) first++;
  bool braced =
      first < text.size() && (text[first] == '{' || text[first] == '[');
  if (type == kInt2Vector) {
    // Its own form only; shown as PostgreSQL's int2vectorout does.
    // Errors name the rest of the text from the bad number on, as
    // int2vectorin's pg_atoi does.
    size_t bad = first;
    bool range = false;
    if (braced || !ParseInt2Vector(text, &value, &bad, &range)) {
      std::string rest(text.substr(bad));
      if (range)
        return Fail(error, "22003",
                    "value \"" + rest + "\" is out of range for type smallint");
      return Fail(error, "22P02",
                  "invalid input syntax for type smallint: \"" + rest + "\"");
    }
    canonical->clear();
    for (const auto& item : value.items)
      *canonical += (canonical->empty() ? "" : " ") + *item;
    return true;
  }
  if (!braced)  // int2vector's form is not an int2[]
    return Malformed(error, text,
                     "Array value must start with \"{\" or dimension "
                     "information.");
  if (!ParseArray(text, ArrayElementType(type), typmod, context, true, &value,
                  error))
    return false;
  *canonical = FormatArray(value);
  return true;
}

bool ArraySend(uint32_t type, std::string_view canonical,
               const TypeContext& context, std::string* binary,
               PgError* error) {
  uint32_t element = ArrayElementType(type);
  ArrayValue value;
  if (!ParseArray(canonical, element, -1, context, false, &value, error))
    return false;
  std::string out;
  bool has_null = false;
  for (const auto& item : value.items) has_null |= !item.has_value();
  util::PutU32(&out, static_cast<uint32_t>(value.dims.size()));
  util::PutU32(&out, has_null ? 1 : 0);
  util::PutU32(&out, element);
  for (size_t i = 0; i < value.dims.size(); i++) {
    util::PutU32(&out, static_cast<uint32_t>(value.dims[i]));
    util::PutU32(&out, static_cast<uint32_t>(value.lbounds[i]));
  }
  for (const auto& item : value.items) {
    if (!item) {
      util::PutU32(&out, 0xFFFFFFFFu);
      continue;
    }
    std::string bytes;
    if (!TextToBinary(element, *item, context, &bytes, error)) return false;
    util::PutU32(&out, static_cast<uint32_t>(bytes.size()));
    out += bytes;
  }
  *binary = std::move(out);
  return true;
}

bool ArrayReceive(uint32_t type, int32_t typmod, std::string_view binary,
                  const TypeContext& context, std::string* canonical,
                  PgError* error) {
  uint32_t element = ArrayElementType(type);
  size_t p = 0;
  auto get = [&](int32_t* v) {
    if (binary.size() - p < 4) return false;
    *v = static_cast<int32_t>(util::GetU32(binary.data() + p));
    p += 4;
    return true;
  };
  int32_t ndim, flags, elem;
  if (!get(&ndim)) return Short(error);
  if (ndim < 0)
    return Fail(error, "22P03",
                "invalid number of dimensions: " + std::to_string(ndim));
  if (ndim > kMaxArrayDims)
    return Fail(error, "54000",
                "number of array dimensions (" + std::to_string(ndim) +
                    ") exceeds the maximum allowed (" +
                    std::to_string(kMaxArrayDims) + ")");
  if (!get(&flags)) return Short(error);
  if (flags != 0 && flags != 1)
    return Fail(error, "22P03", "invalid array flags");
  if (!get(&elem)) return Short(error);
  if (static_cast<uint32_t>(elem) != element) {
    const TypeInfo* got = LookupType(static_cast<uint32_t>(elem));
    const TypeInfo* expected = LookupType(element);
    return Fail(error, "42804",
                "binary data has array element type " +
                    std::to_string(static_cast<uint32_t>(elem)) + " (" +
                    (got ? got->name : "-") + ") instead of expected " +
                    std::to_string(element) + " (" +
                    (expected ? std::string(expected->name)
                              : user_types::FormatName(element)) +
                    ")");
  }
  ArrayValue value;
  int64_t total = ndim > 0 ? 1 : 0;
  for (int32_t i = 0; i < ndim; i++) {
    int32_t dim, lb;
    if (!get(&dim) || !get(&lb)) return Short(error);
    if (dim < 0) return Fail(error, "22P03", "invalid array dimensions");
    value.dims.push_back(dim);
    value.lbounds.push_back(lb);
    total *= dim;
    if (total > 134217727)
      return Fail(error, "54000",
                  "array size exceeds the maximum allowed (134217727)");
  }
  if (!CheckBounds(value.dims, value.lbounds, error)) return false;
  for (int64_t i = 0; i < total; i++) {
    int32_t len;
    if (!get(&len)) return Short(error);
    if (len == -1) {
      value.items.emplace_back();
      continue;
    }
    if (len < -1 || static_cast<size_t>(len) > binary.size() - p)
      return Fail(error, "22P03", "insufficient data left in message");
    std::string text;
    if (!BinaryToText(element, typmod, binary.substr(p, len), context, &text,
                      error))
      return false;
    p += len;
    value.items.emplace_back(std::move(text));
  }
  if (total == 0) {
    value.dims.clear();
    value.lbounds.clear();
  }
  if (p != binary.size())
    return Fail(error, "22P03",
                "incorrect binary data format in bind parameter");
  *canonical = FormatArray(value);
  return true;
}

bool ArrayCast(uint32_t from, uint32_t to, int32_t to_typmod,
               std::string_view value, const TypeContext& context,
               std::string* out, PgError* error) {
  uint32_t from_elem = ArrayElementType(from);
  uint32_t to_elem = ArrayElementType(to);
  if (from_elem && to_elem) {
    ArrayValue v;
    if (!ParseArray(value, from_elem, -1, context, false, &v, error))
      return false;
    if (from_elem != to_elem || to_typmod >= 0) {
      for (auto& item : v.items) {
        if (!item) continue;
        std::string cast;
        if (!Cast(from_elem, to_elem, to_typmod, *item, context, &cast,
                  error)) {
          // No cast between the elements: none between the arrays.
          if (error->sqlstate == "42846")
            error->message = "cannot cast type " + FormatTypeName(from, -1) +
                             " to " + FormatTypeName(to, -1);
          return false;
        }
        item = std::move(cast);
      }
    }
    *out = FormatArray(v);
    return true;
  }
  auto is_string = [](uint32_t t) {
    return t == oid::kText || t == oid::kVarchar || t == oid::kBpchar ||
           t == oid::kName;
  };
  if (to_elem && (is_string(from) || from == oid::kUnknown))
    return ArrayInput(to, to_typmod, value, context, out, error);
  if (from_elem && is_string(to))
    return Cast(oid::kText, to, to_typmod, value, context, out, error);
  return Fail(error, "42846",
              "cannot cast type " + FormatTypeName(from, -1) + " to " +
                  FormatTypeName(to, -1));
}

}  // namespace kova::planner::types
