// Translations of simple-query SELECTs kept by the shape of their text.
//
// Clients of the simple protocol (psql scripts, ORMs, pgbench -M simple)
// send the same statement again and again with other literal values. Parsing,
// analysing and preparing it in SQLite each time cost more than running it,
// so a session keeps the translated statement (with its prepared SQLite
// statement) under the text's shape and runs it again with the new values
// bound in place of the old ones.
//
// A literal takes a new value only when the translation used its value in
// one way: as the value of bound slots that nothing else feeds (SqlBind's
// literal_location), converted as analysis converts it. Every other literal
// (a typmod, ORDER BY 1, a literal folded into a cast, two equal literals
// sharing a slot) is part of the key: its value must be the same. A cached
// translation is used only under the catalog version and the settings it
// was made with.
#include <cctype>
#include <cstring>
#include <limits>

#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

namespace {

bool IsIdentStart(unsigned char c) {
  return std::isalpha(c) || c == '_' || c >= 0x80;
}

bool IsIdentChar(unsigned char c) {
  return IsIdentStart(c) || std::isdigit(c) || c == '$';
}

// The kind PostgreSQL's lexer and make_const give a number as written.
char NumberKind(std::string_view digits, bool is_integer) {
  if (!is_integer) return 'n';
  size_t first = digits.find_first_not_of('0');
  std::string_view v =
      first == std::string_view::npos ? "0" : digits.substr(first);
  auto at_most = [&](std::string_view max) {
    return v.size() < max.size() || (v.size() == max.size() && v <= max);
  };
  if (at_most("2147483647")) return 'i';
  if (at_most("9223372036854775807")) return 'l';
  return 'n';
}

// Past a string in single quotes starting at `i` (the quote); with
// backslash escapes for E'...'. npos when it does not end.
size_t SkipQuoted(std::string_view text, size_t i, bool backslashes,
                  std::string* contents, bool* has_backslash) {
  for (size_t j = i + 1; j < text.size(); j++) {
    char c = text[j];
    if (c == '\\') {
      *has_backslash = true;
      if (backslashes) {
        j++;
        continue;
      }
    }
    if (c == '\'') {
      if (j + 1 < text.size() && text[j + 1] == '\'') {
        contents->push_back('\'');
        j++;
        continue;
      }
      return j + 1;
    }
    contents->push_back(c);
  }
  return std::string_view::npos;
}

}  // namespace

bool ShapeQuery(std::string_view text, QueryShape* shape) {
  shape->key.clear();
  shape->literals.clear();
  size_t n = text.size();
  size_t copied = 0;
  bool ended = false;  // a ';' was seen: only blanks and comments may follow
  auto literal = [&](size_t start, size_t end, char kind, std::string value) {
    shape->key.append(text.substr(copied, start - copied));
    // The text cannot hold NUL (the protocol's strings end with it).
    shape->key.push_back('\0');
    shape->key.push_back(kind);
    copied = end;
    shape->literals.push_back({start, end, kind, std::move(value)});
  };
  size_t i = 0;
  while (i < n) {
    unsigned char c = text[i];
    if (std::isspace(c)) {
      i++;
      continue;
    }
    if (c == '-' && i + 1 < n && text[i + 1] == '-') {
      size_t eol = text.find('\n', i);
      i = eol == std::string_view::npos ? n : eol + 1;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      int depth = 0;
      size_t j = i;
      for (; j + 1 < n; j++) {
        if (text[j] == '/' && text[j + 1] == '*') {
          depth++;
          j++;
        } else if (text[j] == '*' && text[j + 1] == '/') {
          depth--;
          j++;
          if (depth == 0) break;
        }
      }
      if (depth != 0) return false;
      i = j + 1;
      continue;
    }
    if (ended) return false;  // a second statement
    if (c == ';') {
      ended = true;
      i++;
      continue;
    }
    if (c == '\'') {
      // A prefix (E'', B'', X'', N'', U&'') or a type name written against
      // the quote: not a plain literal.
      unsigned char before = i > 0 ? text[i - 1] : ' ';
      bool prefixed = IsIdentChar(before) || before == '&';
      bool escape_string = prefixed && (before == 'E' || before == 'e') &&
                           (i < 2 || !IsIdentChar(text[i - 2]));
      std::string contents;
      bool has_backslash = false;
      size_t end =
          SkipQuoted(text, i, escape_string, &contents, &has_backslash);
      if (end == std::string_view::npos) return false;
      size_t next = end;
      while (next < n && std::isspace(static_cast<unsigned char>(text[next])))
        next++;
      // 'a' 'b' on two lines is one literal to PostgreSQL.
      if (next < n && text[next] == '\'') return false;
      if (!prefixed && !has_backslash)
        literal(i, end, 's', std::move(contents));
      i = end;
      continue;
    }
    if (std::isdigit(c) ||
        (c == '.' && i + 1 < n &&
         std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      if (i > 0 && text[i - 1] == '.') return false;
      size_t j = i;
      bool integer = true;
      while (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) j++;
      if (j < n && text[j] == '.') {
        integer = false;
        j++;
        while (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) j++;
      }
      if (j < n && (text[j] == 'e' || text[j] == 'E')) {
        size_t k = j + 1;
        if (k < n && (text[k] == '+' || text[k] == '-')) k++;
        if (k < n && std::isdigit(static_cast<unsigned char>(text[k]))) {
          integer = false;
          j = k;
          while (j < n && std::isdigit(static_cast<unsigned char>(text[j])))
            j++;
        }
      }
      // 12abc, 1.2.3: left to the parser.
      if (j < n && (IsIdentChar(text[j]) || text[j] == '.')) return false;
      std::string_view number = text.substr(i, j - i);
      literal(i, j, NumberKind(number, integer), std::string(number));
      i = j;
      continue;
    }
    if (IsIdentStart(c)) {
      while (i < n && IsIdentChar(text[i])) i++;
      continue;
    }
    if (c == '"') {
      size_t j = i + 1;
      for (; j < n; j++) {
        if (text[j] != '"') continue;
        if (j + 1 < n && text[j + 1] == '"') {
          j++;
          continue;
        }
        break;
      }
      if (j >= n) return false;
      i = j + 1;
      continue;
    }
    if (c == '$') {
      size_t j = i + 1;
      if (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) {
        while (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) j++;
        i = j;
        continue;
      }
      // $tag$ ... $tag$
      while (j < n && IsIdentChar(text[j]) && text[j] != '$') j++;
      if (j >= n || text[j] != '$') return false;
      std::string_view tag = text.substr(i, j + 1 - i);
      size_t close = text.find(tag, j + 1);
      if (close == std::string_view::npos) return false;
      i = close + tag.size();
      continue;
    }
    i++;  // operators and punctuation
  }
  shape->key.append(text.substr(copied));
  return true;
}

namespace {

// A literal's value as a slot of type `type` holds it (as analysis makes it:
// the type's input function, without typmod).
bool LiteralSValue(const QueryLiteral& literal, uint32_t type,
                   const types::TypeContext& context, SValue* out) {
  std::string canonical;
  PgError ignored;
  return types::InputText(type, -1, literal.value, context, &canonical,
                          &ignored) &&
         ToSValue(type, canonical, context, out, &ignored);
}

bool SameSValue(const SValue& a, const SValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case SKind::kNull:
      return true;
    case SKind::kInt:
      return a.i == b.i;
    case SKind::kReal:
      // Bit for bit: -0.0 and 0.0 are different values to keep.
      return std::memcmp(&a.d, &b.d, sizeof a.d) == 0;
    default:
      return a.s == b.s;
  }
}

}  // namespace

void SessionImpl::RememberSimplePlan(const QueryShape& shape,
                                     const std::shared_ptr<Plan>& plan) {
  if (!plan->compiled || plan->compiled->no_cache || !plan->is_select ||
      plan->writes || plan->catalog_version < 0 || plan->ctas || !plan->node ||
      plan->node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT ||
      plan->node->select_stmt->into_clause || !plan->tree ||
      plan->tree->size() != 1)
    return;
  const Compiled& compiled = *plan->compiled;
  SimplePlan entry;
  // A copy: running `plan` may analyse it again in place (RefreshPlan).
  entry.plan = std::make_shared<Plan>(*plan);
  entry.literals = shape.literals;
  entry.slots.resize(shape.literals.size());
  entry.settings_generation = settings_.generation();
  entry.catalog_version = plan->catalog_version;
  const types::TypeContext& context = settings_.type_context();
  for (size_t l = 0; l < shape.literals.size(); l++) {
    const QueryLiteral& literal = shape.literals[l];
    std::vector<int> slots;
    bool exact = true;
    for (size_t b = 0; b < compiled.binds.size() && exact; b++) {
      const SqlBind& bind = compiled.binds[b];
      if (bind.is_param ||
          bind.literal_location != static_cast<int>(literal.start))
        continue;
      // The value must be what converting the literal gives, so that
      // converting another literal gives what analysis would have made.
      SValue again;
      exact = LiteralSValue(literal, bind.type, context, &again) &&
              SameSValue(again, bind.value);
      slots.push_back(static_cast<int>(b));
    }
    if (exact) entry.slots[l] = std::move(slots);
  }
  if (simple_plans_.size() >= 64) simple_plans_.clear();
  simple_plans_[shape.key] = std::move(entry);
}

std::shared_ptr<Plan> SessionImpl::CachedSimplePlan(std::string_view text,
                                                    const QueryShape& shape) {
  auto it = simple_plans_.find(shape.key);
  if (it == simple_plans_.end()) return nullptr;
  SimplePlan& entry = it->second;
  if (entry.settings_generation != settings_.generation()) return nullptr;
  // Fixed literals first: they cost nothing to compare.
  for (size_t l = 0; l < shape.literals.size(); l++) {
    if (entry.slots[l].empty() &&
        shape.literals[l].value != entry.literals[l].value)
      return nullptr;
  }
  // Statements that take the write lock are not cached: a lock timeout
  // here would be waited for twice.
  if (CallsWritingFunction(std::string(text))) return nullptr;
  // The statement's transaction begins here, as analysis would begin it.
  single_statement_ = !in_block_ && !implicit_;
  statement_writes_ = false;
  PgError ignored;
  if (!LoadCatalog(&ignored) || catalog_version_ != entry.catalog_version)
    return nullptr;
  const Plan& cached = *entry.plan;
  // The prepared statement is shared; a statement running it now (one
  // statement nested in another) keeps it.
  if (cached.compiled->stmt && sqlite3_stmt_busy(cached.compiled->stmt))
    return nullptr;
  const types::TypeContext& context = settings_.type_context();
  std::vector<std::pair<int, SValue>> values;
  for (size_t l = 0; l < shape.literals.size(); l++) {
    for (int slot : entry.slots[l]) {
      SValue v;
      // A value analysis would refuse: analysis reports it.
      if (!LiteralSValue(shape.literals[l], cached.compiled->binds[slot].type,
                         context, &v))
        return nullptr;
      values.emplace_back(slot, std::move(v));
    }
  }
  for (auto& [slot, v] : values) cached.compiled->binds[slot].value = v;
  auto plan = std::make_shared<Plan>(cached);
  plan->text = std::string(text);
  plan->writes = false;
  // Should the catalog change before the statement runs (a READ COMMITTED
  // block takes a new snapshot), RefreshPlan analyses this text, not the
  // one the tree was parsed from.
  plan->reparse_on_refresh = true;
  return plan;
}

int SessionImpl::SimplePlanPosition(const QueryShape& shape, int position) {
  auto it = simple_plans_.find(shape.key);
  if (position <= 0 || it == simple_plans_.end()) return position;
  // Positions count bytes from 1 in the text the plan was analysed from;
  // the literals before one may have other lengths in this text.
  const std::vector<QueryLiteral>& before = it->second.literals;
  size_t at = static_cast<size_t>(position - 1);
  long shift = 0;
  for (size_t l = 0; l < before.size() && l < shape.literals.size(); l++) {
    if (at < before[l].start) break;
    if (at < before[l].end)
      return static_cast<int>(shape.literals[l].start) + 1;
    shift +=
        static_cast<long>(shape.literals[l].end - shape.literals[l].start) -
        static_cast<long>(before[l].end - before[l].start);
  }
  return static_cast<int>(static_cast<long>(position) + shift);
}

}  // namespace kova::planner
