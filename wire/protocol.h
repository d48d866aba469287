// The message codec of protocol v3: a writer that appends backend messages
// to an output buffer and a bounds-checked reader for frontend payloads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace kova::wire {

// Codes of the messages without a type byte (startup packets).
inline constexpr uint32_t kSslRequestCode = 80877103;     // 1234.5679
inline constexpr uint32_t kGssEncRequestCode = 80877104;  // 1234.5680
inline constexpr uint32_t kCancelRequestCode = 80877102;  // 1234.5678
inline constexpr uint32_t kProtocol30 = 3u << 16;

// PostgreSQL's limits (pqcomm.h): most messages are small; Query, Parse,
// Bind, FunctionCall and CopyData may be up to 1 GiB.
inline constexpr uint32_t kSmallMessageLimit = 10000;
inline constexpr uint32_t kLargeMessageLimit = (1u << 30) - 1;
inline constexpr uint32_t kMaxStartupPacket = 10000;

inline void PutUint32(char* p, uint32_t v) {
  p[0] = static_cast<char>(v >> 24);
  p[1] = static_cast<char>(v >> 16);
  p[2] = static_cast<char>(v >> 8);
  p[3] = static_cast<char>(v);
}

inline uint32_t GetUint32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) |
         (uint32_t{u[2]} << 8) | uint32_t{u[3]};
}

inline uint16_t GetUint16(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint16_t>((u[0] << 8) | u[1]);
}

// Appends messages to a caller-owned buffer. Begin/End bracket one message;
// End writes its length.
class MessageWriter {
 public:
  explicit MessageWriter(std::string* out) : out_(out) {}

  void Begin(char type) {
    start_ = out_->size();
    char header[5] = {type, 0, 0, 0, 0};
    out_->append(header, 5);
  }
  void End() {
    PutUint32(out_->data() + start_ + 1,
              static_cast<uint32_t>(out_->size() - start_ - 1));
  }

  void Int8(uint8_t v) { out_->push_back(static_cast<char>(v)); }
  void Int16(int16_t v) {
    char b[2] = {static_cast<char>(static_cast<uint16_t>(v) >> 8),
                 static_cast<char>(v)};
    out_->append(b, 2);
  }
  void Int32(int32_t v) {
    char b[4];
    PutUint32(b, static_cast<uint32_t>(v));
    out_->append(b, 4);
  }
  void Bytes(std::string_view v) { out_->append(v.data(), v.size()); }
  // A NUL-terminated string (an embedded NUL would end it early, so it is
  // never written as part of the value).
  void CString(std::string_view v) {
    size_t nul = v.find('\0');
    if (nul != std::string_view::npos) v = v.substr(0, nul);
    out_->append(v.data(), v.size());
    out_->push_back('\0');
  }

  // A whole message with no payload.
  void Empty(char type) {
    Begin(type);
    End();
  }

 private:
  std::string* out_;
  size_t start_ = 0;
};

// Reads a message payload; every accessor returns false past its end.
class MessageReader {
 public:
  explicit MessageReader(std::string_view data) : data_(data) {}

  bool Int8(uint8_t* v) {
    if (pos_ + 1 > data_.size()) return false;
    *v = static_cast<uint8_t>(data_[pos_++]);
    return true;
  }
  bool Int16(int16_t* v) {
    if (pos_ + 2 > data_.size()) return false;
    *v = static_cast<int16_t>(GetUint16(data_.data() + pos_));
    pos_ += 2;
    return true;
  }
  bool Int32(int32_t* v) {
    if (pos_ + 4 > data_.size()) return false;
    *v = static_cast<int32_t>(GetUint32(data_.data() + pos_));
    pos_ += 4;
    return true;
  }
  bool Bytes(size_t n, std::string_view* v) {
    if (n > data_.size() - pos_) return false;
    *v = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool CString(std::string_view* v) {
    size_t nul = data_.find('\0', pos_);
    if (nul == std::string_view::npos) return false;
    *v = data_.substr(pos_, nul - pos_);
    pos_ = nul + 1;
    return true;
  }
  bool AtEnd() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace kova::wire
