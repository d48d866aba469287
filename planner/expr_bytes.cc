// Functions over bytea as PostgreSQL's encode.c and cryptohashfuncs.c have
// them: encode(bytea, format), decode(text, format) for the formats hex,
// base64 and escape, and sha224/sha256/sha384/sha512. A bytea's canonical
// text is "\x" and two lower-case hex digits per byte.
#include <openssl/evp.h>

#include "planner/expr_internal.h"
#include "planner/types_util.h"

namespace kova::planner::expr_detail {

namespace {

std::string CanonicalOfBytes(std::string_view bytes) {
  return "\\x" + HexDigits(bytes);
}

bool IsEncodingSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The format argument, as pg_find_encoding: case-insensitive names.
bool ParseFormat(const std::string& name, std::string* format, PgError* error) {
  std::string lower;
  for (char c : name) lower.push_back(types::util::ToLower(c));
  if (lower == "hex" || lower == "base64" || lower == "escape") {
    *format = lower;
    return true;
  }
  *error = Err("22023", "unrecognized encoding: \"" + name + "\"");
  return false;
}

std::string EncodeBase64(std::string_view in) {
  static const char* table =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int line = 0;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) v |= static_cast<unsigned char>(in[i + 2]);
    out.push_back(table[(v >> 18) & 63]);
    out.push_back(table[(v >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? table[(v >> 6) & 63] : '=');
    out.push_back(i + 2 < in.size() ? table[v & 63] : '=');
    // PostgreSQL breaks the text into lines of 76 characters.
    line += 4;
    if (line >= 76 && i + 3 < in.size()) {
      out.push_back('\n');
      line = 0;
    }
  }
  return out;
}

bool DecodeBase64(const std::string& in, std::string* out, PgError* error) {
  uint32_t buf = 0;
  int pos = 0, end = 0;
  for (size_t i = 0; i < in.size(); i++) {
    char c = in[i];
    if (IsEncodingSpace(c)) continue;
    int b;
    if (c == '=') {
      // One or two '=' end the data; nothing but more '=' may follow.
      if (end == 0) {
        if (pos == 2) {
          end = 1;
        } else if (pos == 3) {
          end = 2;
        } else {
          *error =
              Err("22023", "unexpected \"=\" while decoding base64 sequence");
          return false;
        }
      }
      b = 0;
    } else {
      if (c >= 'A' && c <= 'Z')
        b = c - 'A';
      else if (c >= 'a' && c <= 'z')
        b = c - 'a' + 26;
      else if (c >= '0' && c <= '9')
        b = c - '0' + 52;
      else if (c == '+')
        b = 62;
      else if (c == '/')
        b = 63;
      else
        b = -1;
      if (b < 0) {
        size_t len = types::util::Utf8CharLen(static_cast<unsigned char>(c));
        *error = Err("22023", "invalid symbol \"" + in.substr(i, len) +
                                  "\" found while decoding base64 sequence");
        return false;
      }
    }
    buf = (buf << 6) + b;
    if (++pos == 4) {
      out->push_back(static_cast<char>((buf >> 16) & 255));
      if (end == 0 || end > 1)
        out->push_back(static_cast<char>((buf >> 8) & 255));
      if (end == 0 || end > 2) out->push_back(static_cast<char>(buf & 255));
      buf = 0;
      pos = 0;
    }
  }
  if (pos != 0) {
    *error = Err("22023", "invalid base64 end sequence");
    error->hint =
        "Input data is missing padding, is truncated, or is otherwise "
        "corrupted.";
    return false;
  }
  return true;
}

bool DecodeHex(const std::string& in, std::string* out, PgError* error) {
  auto value = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < in.size();) {
    if (IsEncodingSpace(in[i])) {
      i++;
      continue;
    }
    int hi = value(in[i]);
    if (hi < 0) {
      *error = Err("22023", "invalid hexadecimal digit: \"" +
                                std::string(1, in[i]) + "\"");
      return false;
    }
    if (i + 1 >= in.size()) {
      *error = Err("22023", "invalid hexadecimal data: odd number of digits");
      return false;
    }
    int lo = value(in[i + 1]);
    if (lo < 0) {
      *error = Err("22023", "invalid hexadecimal digit: \"" +
                                std::string(1, in[i + 1]) + "\"");
      return false;
    }
    out->push_back(static_cast<char>(hi << 4 | lo));
    i += 2;
  }
  return true;
}

std::string EncodeEscape(std::string_view in) {
  std::string out;
  for (unsigned char c : in) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == 0 || c >= 0x80) {
      out.push_back('\\');
      out.push_back(static_cast<char>('0' + (c >> 6)));
      out.push_back(static_cast<char>('0' + ((c >> 3) & 7)));
      out.push_back(static_cast<char>('0' + (c & 7)));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

bool DecodeEscape(const std::string& in, std::string* out, PgError* error) {
  for (size_t i = 0; i < in.size();) {
    if (in[i] != '\\') {
      out->push_back(in[i++]);
      continue;
    }
    if (i + 1 < in.size() && in[i + 1] == '\\') {
      out->push_back('\\');
      i += 2;
      continue;
    }
    if (i + 3 < in.size() + 0 && in[i + 1] >= '0' && in[i + 1] <= '3' &&
        in[i + 2] >= '0' && in[i + 2] <= '7' && in[i + 3] >= '0' &&
        in[i + 3] <= '7') {
      out->push_back(static_cast<char>(
          (in[i + 1] - '0') << 6 | (in[i + 2] - '0') << 3 | (in[i + 3] - '0')));
      i += 4;
      continue;
    }
    *error = Err("22P02", "invalid input syntax for type bytea");
    return false;
  }
  return true;
}

}  // namespace

std::string HexDigits(std::string_view bytes) {
  static constexpr char kHexDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kHexDigits[c >> 4]);
    out.push_back(kHexDigits[c & 15]);
  }
  return out;
}

std::string ByteaBytes(const std::string& v) {
  if (v.rfind("\\x", 0) != 0) return v;
  auto nibble = [](char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
  };
  std::string out;
  out.reserve((v.size() - 2) / 2);
  for (size_t i = 2; i + 1 < v.size(); i += 2)
    out.push_back(static_cast<char>(nibble(v[i]) << 4 | nibble(v[i + 1])));
  return out;
}

bool EvalBytesFunction(const Expr& e, const std::vector<Value>& args,
                       SessionHooks*, bool* handled, Value* out,
                       PgError* error) {
  const std::string& n = e.name;
  *handled = true;
  if (n != "encode" && n != "decode" && n != "sha224" && n != "sha256" &&
      n != "sha384" && n != "sha512") {
    *handled = false;
    return true;
  }
  for (const Value& a : args)
    if (!a) return true;  // strict: NULL in, NULL out
  if (n == "encode" || n == "decode") {
    std::string format;
    if (!ParseFormat(*args[1], &format, error)) return false;
    if (n == "encode") {
      std::string bytes = ByteaBytes(*args[0]);
      if (format == "hex")
        *out = args[0]->substr(2);
      else if (format == "base64")
        *out = EncodeBase64(bytes);
      else
        *out = EncodeEscape(bytes);
      return true;
    }
    std::string bytes;
    bool ok = format == "hex"      ? DecodeHex(*args[0], &bytes, error)
              : format == "base64" ? DecodeBase64(*args[0], &bytes, error)
                                   : DecodeEscape(*args[0], &bytes, error);
    if (!ok) return false;
    *out = CanonicalOfBytes(bytes);
    return true;
  }
  const EVP_MD* md = n == "sha224"   ? EVP_sha224()
                     : n == "sha256" ? EVP_sha256()
                     : n == "sha384" ? EVP_sha384()
                                     : EVP_sha512();
  std::string data = ByteaBytes(*args[0]);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, md, nullptr);
  *out = CanonicalOfBytes(
      std::string_view(reinterpret_cast<const char*>(digest), len));
  return true;
}

}  // namespace kova::planner::expr_detail
