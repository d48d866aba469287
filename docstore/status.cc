// Status codes and the owned Document.
#include <cstring>
#include <utility>

#include "docstore/docstore.h"

namespace kova::docstore {

int Status::mongo_code() const {
  switch (code_) {
    case Code::kOk:
      return 0;
    case Code::kBadValue:
      return 2;
    case Code::kTypeMismatch:
      return 14;
    case Code::kFailedToParse:
      return 9;
    case Code::kNamespaceNotFound:
      return 26;
    case Code::kNamespaceExists:
      return 48;
    case Code::kIndexNotFound:
      return 27;
    case Code::kDuplicateKey:
      return 11000;
    case Code::kImmutableField:
      return 66;
    case Code::kPathNotViable:
      return 28;
    case Code::kCounterExhausted:
      return 2200;
    case Code::kOverflow:
      return 15;
    case Code::kIllegalOperation:
      return 20;
    case Code::kCommandNotFound:
      return 59;
    case Code::kLocked:
      return 46;
    case Code::kBusy:
      return 46;
    case Code::kConflict:
      return 112;
    case Code::kIOError:
      return 1;
    case Code::kCorruption:
      return 1;
    case Code::kInternal:
      return 1;
  }
  return 1;
}

const char* Status::code_name() const {
  switch (code_) {
    case Code::kOk:
      return "OK";
    case Code::kBadValue:
      return "BadValue";
    case Code::kTypeMismatch:
      return "TypeMismatch";
    case Code::kFailedToParse:
      return "FailedToParse";
    case Code::kNamespaceNotFound:
      return "NamespaceNotFound";
    case Code::kNamespaceExists:
      return "NamespaceExists";
    case Code::kIndexNotFound:
      return "IndexNotFound";
    case Code::kDuplicateKey:
      return "DuplicateKey";
    case Code::kImmutableField:
      return "ImmutableField";
    case Code::kPathNotViable:
      return "PathNotViable";
    case Code::kCounterExhausted:
      return "CounterExhausted";
    case Code::kOverflow:
      return "Overflow";
    case Code::kIllegalOperation:
      return "IllegalOperation";
    case Code::kCommandNotFound:
      return "CommandNotFound";
    case Code::kLocked:
      return "LockBusy";
    case Code::kBusy:
      return "LockBusy";
    case Code::kConflict:
      return "WriteConflict";
    case Code::kIOError:
      return "IOError";
    case Code::kCorruption:
      return "DataCorruption";
    case Code::kInternal:
      return "InternalError";
  }
  return "InternalError";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(code_name()) + ": " + message_;
}

Document::Document() : doc_(bson_new()) {}
Document::Document(bson_t* adopt) : doc_(adopt) {}
Document::Document(const uint8_t* data, size_t len)
    : doc_(bson_new_from_data(data, len)) {
  if (!doc_) doc_ = bson_new();
}
Document::Document(const Document& other) : doc_(bson_copy(other.doc_)) {}
Document::Document(Document&& other) noexcept : doc_(other.doc_) {
  other.doc_ = nullptr;
}
Document& Document::operator=(Document other) noexcept {
  std::swap(doc_, other.doc_);
  return *this;
}
Document::~Document() {
  if (doc_) bson_destroy(doc_);
}

Status Document::FromJson(std::string_view json, Document* out) {
  bson_error_t error;
  bson_t* doc =
      bson_new_from_json(reinterpret_cast<const uint8_t*>(json.data()),
                         static_cast<ssize_t>(json.size()), &error);
  if (!doc) {
    return Status::Error(Code::kFailedToParse,
                         std::string("invalid JSON: ") + error.message);
  }
  *out = Document(doc);
  return Status::OK();
}

std::string Document::ToJson(JsonMode mode) const {
  size_t len = 0;
  char* json = mode == JsonMode::kCanonical
                   ? bson_as_canonical_extended_json(doc_, &len)
                   : bson_as_relaxed_extended_json(doc_, &len);
  if (!json) return "{}";
  std::string s(json, len);
  bson_free(json);
  return s;
}

}  // namespace kova::docstore
