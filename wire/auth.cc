#include "wire/auth.h"

#include <arpa/inet.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/random.h>
#include <sys/socket.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace kova::wire {

namespace {

constexpr size_t kKeyLen = 32;  // SHA-256
constexpr int kDefaultIterations = 4096;
constexpr size_t kServerNonceBytes = 18;
constexpr size_t kSaltLen = 16;

std::string Sha256(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
       &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string SaltedPassword(std::string_view password, std::string_view salt,
                           int iterations) {
  unsigned char out[kKeyLen];
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()),
                    static_cast<int>(salt.size()), iterations, EVP_sha256(),
                    kKeyLen, out);
  return std::string(reinterpret_cast<char*>(out), kKeyLen);
}

bool SameBytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

// Splits a line into tokens (whitespace-separated; double quotes group).
std::vector<std::string> Tokenize(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
      i++;
    if (i >= line.size() || line[i] == '#') break;
    std::string token;
    bool quoted = false;
    while (i < line.size()) {
      char c = line[i];
      if (c == '"') {
        quoted = !quoted;
        i++;
        continue;
      }
      if (!quoted && (std::isspace(static_cast<unsigned char>(c)) || c == '#'))
        break;
      token.push_back(c);
      i++;
    }
    out.push_back(std::move(token));
  }
  return out;
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool ListMatches(const std::vector<std::string>& list, std::string_view value,
                 std::string_view user) {
  for (const auto& item : list) {
    if (item == "all" || item == value) return true;
    if (item == "sameuser" && value == user) return true;
  }
  return false;
}

// One SCRAM attribute "x=value" at the start of *s; consumes it and the
// following comma.
bool ReadAttribute(std::string_view* s, char name, std::string_view* value) {
  if (s->size() < 2 || (*s)[0] != name || (*s)[1] != '=') return false;
  size_t comma = s->find(',', 2);
  *value = s->substr(
      2, comma == std::string_view::npos ? std::string_view::npos : comma - 2);
  s->remove_prefix(comma == std::string_view::npos ? s->size() : comma + 1);
  return true;
}

bool PrintableNonce(std::string_view nonce) {
  if (nonce.empty()) return false;
  for (char c : nonce) {
    if (c < 0x21 || c > 0x7e || c == ',') return false;
  }
  return true;
}

const std::string& MockNonce() {
  static const std::string nonce = [] {
    std::string n(32, '\0');
    RandomBytes(n.data(), n.size());
    return n;
  }();
  return nonce;
}

}  // namespace

bool ParseAuthMethod(std::string_view name, AuthMethod* method) {
  if (name == "trust") {
    *method = AuthMethod::kTrust;
  } else if (name == "reject") {
    *method = AuthMethod::kReject;
  } else if (name == "password") {
    *method = AuthMethod::kPassword;
  } else if (name == "md5") {
    *method = AuthMethod::kMd5;
  } else if (name == "scram-sha-256") {
    *method = AuthMethod::kScramSha256;
  } else {
    return false;
  }
  return true;
}

const char* AuthMethodName(AuthMethod method) {
  switch (method) {
    case AuthMethod::kTrust:
      return "trust";
    case AuthMethod::kReject:
      return "reject";
    case AuthMethod::kPassword:
      return "password";
    case AuthMethod::kMd5:
      return "md5";
    case AuthMethod::kScramSha256:
      return "scram-sha-256";
  }
  return "?";
}

bool IpAddress::Parse(std::string_view text) {
  std::string s(text);
  if (inet_pton(AF_INET, s.c_str(), bytes) == 1) {
    family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, s.c_str(), bytes) == 1) {
    family = AF_INET6;
    static const uint8_t kMapped[12] = {0, 0, 0, 0, 0,    0,
                                        0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(bytes, kMapped, 12) == 0) {
      std::memmove(bytes, bytes + 12, 4);
      std::memset(bytes + 4, 0, 12);
      family = AF_INET;
    }
    return true;
  }
  return false;
}

std::string IpAddress::ToString() const {
  char buf[INET6_ADDRSTRLEN] = {};
  if (family == 0) return "unknown";
  inet_ntop(family, bytes, buf, sizeof buf);
  return buf;
}

bool HbaConfig::Parse(std::string_view text, std::string* error) {
  rules_.clear();
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(
        pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    line_no++;
    std::vector<std::string> tok = Tokenize(Trim(line));
    if (tok.empty()) continue;
    auto fail = [&](const std::string& what) {
      *error = "hba line " + std::to_string(line_no) + ": " + what;
      return false;
    };
    const std::string& type = tok[0];
    bool never = false;
    if (type == "local") {
      // No Unix sockets: "local DATABASE USER METHOD" never matches.
      if (tok.size() < 4) return fail("expected: local DATABASE USER METHOD");
      AuthMethod m;
      if (!ParseAuthMethod(tok[3], &m))
        return fail("unknown authentication method \"" + tok[3] + "\"");
      continue;
    }
    if (type == "hostssl" || type == "hostgssenc") {
      never = true;
    } else if (type != "host" && type != "hostnossl" &&
               type != "hostnogssenc") {
      return fail("unknown connection type \"" + type + "\"");
    }
    if (tok.size() < 5)
      return fail("expected: host DATABASE USER ADDRESS METHOD");
    HbaRule rule;
    rule.line = line_no;
    rule.databases = SplitList(tok[1]);
    rule.users = SplitList(tok[2]);
    if (rule.databases.empty() || rule.users.empty())
      return fail("empty database or user list");
    size_t next = 4;
    const std::string& addr = tok[3];
    if (addr == "all" || addr == "*") {
      rule.any_address = true;
    } else if (addr == "samehost" || addr == "samenet") {
      return fail("\"" + addr + "\" is not supported");
    } else {
      size_t slash = addr.find('/');
      if (!rule.address.Parse(addr.substr(0, slash)))
        return fail("invalid IP address \"" + addr + "\"");
      int max_bits = rule.address.family == AF_INET ? 32 : 128;
      if (slash != std::string::npos) {
        std::string bits = addr.substr(slash + 1);
        if (bits.empty() || bits.size() > 3 ||
            bits.find_first_not_of("0123456789") != std::string::npos ||
            std::stoi(bits) > max_bits)
          return fail("invalid CIDR mask in address \"" + addr + "\"");
        rule.prefix_bits = std::stoi(bits);
      } else {
        IpAddress mask;
        if (tok.size() > 5 && mask.Parse(tok[4])) {
          if (mask.family != rule.address.family)
            return fail("IP address and mask do not match");
          int bits = 0;
          bool contiguous = true, ended = false;
          for (int i = 0; i < max_bits; i++) {
            bool set = mask.bytes[i / 8] & (0x80 >> (i % 8));
            if (set && ended) contiguous = false;
            if (set) bits++;
            if (!set) ended = true;
          }
          if (!contiguous) return fail("invalid IP mask \"" + tok[4] + "\"");
          rule.prefix_bits = bits;
          next = 5;
        } else {
          rule.prefix_bits = max_bits;
        }
      }
    }
    if (!ParseAuthMethod(tok[next], &rule.method))
      return fail("unknown authentication method \"" + tok[next] + "\"");
    if (!never) rules_.push_back(std::move(rule));
  }
  return true;
}

bool HbaConfig::Load(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "could not open hba file \"" + path + "\"";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return Parse(ss.str(), error);
}

const HbaRule* HbaConfig::Match(std::string_view database,
                                std::string_view user,
                                const IpAddress& peer) const {
  for (const auto& rule : rules_) {
    if (!rule.any_address) {
      if (peer.family != rule.address.family) continue;
      int bits = rule.prefix_bits;
      bool ok = true;
      for (int i = 0; i < bits / 8 && ok; i++)
        ok = peer.bytes[i] == rule.address.bytes[i];
      if (ok && bits % 8) {
        uint8_t mask = static_cast<uint8_t>(0xff << (8 - bits % 8));
        ok = (peer.bytes[bits / 8] & mask) ==
             (rule.address.bytes[bits / 8] & mask);
      }
      if (!ok) continue;
    }
    if (!ListMatches(rule.databases, database, user)) continue;
    if (!ListMatches(rule.users, user, user)) continue;
    return &rule;
  }
  return nullptr;
}

std::string Base64Encode(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(data.data()),
                          static_cast<int>(data.size()));
  out.resize(n);
  return out;
}

bool Base64Decode(std::string_view text, std::string* out) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  out->clear();
  if (text.size() % 4 != 0) return false;
  for (size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; j++) {
      char c = text[i + j];
      if (c == '=') {
        if (i + 4 != text.size() || j < 2) return false;
        pad++;
        v[j] = 0;
      } else {
        if (pad) return false;
        v[j] = value(c);
        if (v[j] < 0) return false;
      }
    }
    uint32_t triple = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out->push_back(static_cast<char>(triple >> 16));
    if (pad < 2) out->push_back(static_cast<char>(triple >> 8));
    if (pad < 1) out->push_back(static_cast<char>(triple));
  }
  return true;
}

std::string Md5Hex(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), out, &len, EVP_md5(), nullptr);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(len * 2);
  for (unsigned int i = 0; i < len; i++) {
    hex.push_back(kHex[out[i] >> 4]);
    hex.push_back(kHex[out[i] & 15]);
  }
  return hex;
}

// The kernel's generator: OpenSSL's RAND_bytes sets up a generator per
// thread on its first call (millions of instructions), and every connection
// runs on a new thread.
void RandomBytes(void* out, size_t n) {
  auto* p = static_cast<unsigned char*>(out);
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      // Never expected; fall back to OpenSSL.
      if (RAND_bytes(p, static_cast<int>(n)) == 1) return;
      std::random_device rd;
      for (size_t i = 0; i < n; i++) p[i] = static_cast<unsigned char>(rd());
      return;
    }
    p += got;
    n -= static_cast<size_t>(got);
  }
}

std::string Md5Secret(std::string_view password, std::string_view user) {
  std::string s(password);
  s.append(user);
  return "md5" + Md5Hex(s);
}

std::string Md5Response(std::string_view md5_secret, const char salt[4]) {
  std::string s(md5_secret.substr(3));
  s.append(salt, 4);
  return "md5" + Md5Hex(s);
}

bool ParseScramSecret(std::string_view text, ScramSecret* secret) {
  constexpr std::string_view kPrefix = "SCRAM-SHA-256$";
  if (text.substr(0, kPrefix.size()) != kPrefix) return false;
  text.remove_prefix(kPrefix.size());
  size_t colon = text.find(':');
  size_t dollar = text.find('$');
  if (colon == std::string_view::npos || dollar == std::string_view::npos ||
      colon > dollar)
    return false;
  std::string_view iter = text.substr(0, colon);
  if (iter.empty() || iter.size() > 9 ||
      iter.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  secret->iterations = std::stoi(std::string(iter));
  if (secret->iterations <= 0) return false;
  if (!Base64Decode(text.substr(colon + 1, dollar - colon - 1), &secret->salt))
    return false;
  std::string_view keys = text.substr(dollar + 1);
  size_t colon2 = keys.find(':');
  if (colon2 == std::string_view::npos) return false;
  if (!Base64Decode(keys.substr(0, colon2), &secret->stored_key) ||
      !Base64Decode(keys.substr(colon2 + 1), &secret->server_key))
    return false;
  return secret->stored_key.size() == kKeyLen &&
         secret->server_key.size() == kKeyLen && !secret->salt.empty();
}

std::string BuildScramSecret(std::string_view password, std::string_view salt,
                             int iterations) {
  std::string salted = SaltedPassword(password, salt, iterations);
  std::string client_key = Hmac(salted, "Client Key");
  std::string stored_key = Sha256(client_key);
  std::string server_key = Hmac(salted, "Server Key");
  return "SCRAM-SHA-256$" + std::to_string(iterations) + ":" +
         Base64Encode(salt) + "$" + Base64Encode(stored_key) + ":" +
         Base64Encode(server_key);
}

bool VerifyCleartextPassword(std::string_view stored, std::string_view user,
                             std::string_view password) {
  if (stored.empty() || password.empty()) return false;
  ScramSecret secret;
  if (ParseScramSecret(stored, &secret)) {
    std::string salted =
        SaltedPassword(password, secret.salt, secret.iterations);
    std::string stored_key = Sha256(Hmac(salted, "Client Key"));
    std::string server_key = Hmac(salted, "Server Key");
    return SameBytes(stored_key, secret.stored_key) &&
           SameBytes(server_key, secret.server_key);
  }
  if (stored.size() == 35 && stored.substr(0, 3) == "md5")
    return SameBytes(Md5Secret(password, user), stored);
  return false;  // PostgreSQL 15 stores no plain passwords
}

ScramSecret ScramExchange::MockSecret(std::string_view user) {
  ScramSecret s;
  s.iterations = kDefaultIterations;
  std::string seed(user);
  seed.append(MockNonce());
  s.salt = Sha256(seed).substr(0, kSaltLen);
  s.stored_key = Sha256(seed + "stored");
  s.server_key = Sha256(seed + "server");
  return s;
}

ScramExchange::ScramExchange(const ScramSecret& secret, bool mock)
    : secret_(secret), mock_(mock) {}

bool ScramExchange::ClientFirst(std::string_view message,
                                std::string* server_first, std::string* error) {
  std::string_view s = message;
  if (s.empty()) {
    *error = "Unexpected end of input.";
    return false;
  }
  char flag = s[0];
  if (flag == 'p') {
    *error =
        "The client selected SCRAM-SHA-256 without channel binding, but the "
        "SCRAM message includes channel binding data.";
    return false;
  }
  if (flag != 'n' && flag != 'y') {
    *error =
        "Unexpected channel-binding flag \"" + std::string(1, flag) + "\".";
    return false;
  }
  if (s.size() < 2 || s[1] != ',') {
    *error = "Comma expected, but found character \"" +
             std::string(s.size() < 2 ? "" : s.substr(1, 1)) + "\".";
    return false;
  }
  s.remove_prefix(2);
  if (!s.empty() && s[0] == 'a') {
    *error = "client uses authorization identity, but it is not supported";
    return false;
  }
  if (s.empty() || s[0] != ',') {
    *error = "Comma expected.";
    return false;
  }
  s.remove_prefix(1);
  cbind_header_ = std::string(message.substr(0, message.size() - s.size()));
  client_first_bare_ = std::string(s);
  if (!s.empty() && s[0] == 'm') {
    *error = "Extensions are not supported.";
    return false;
  }
  std::string_view user, nonce;
  if (!ReadAttribute(&s, 'n', &user)) {
    *error = "Expected attribute \"n\".";
    return false;
  }
  if (!ReadAttribute(&s, 'r', &nonce)) {
    *error = "Expected attribute \"r\".";
    return false;
  }
  if (!PrintableNonce(nonce)) {
    *error = "Invalid nonce.";
    return false;
  }
  // Further extensions (a=b pairs) are ignored, as PostgreSQL does.
  unsigned char raw[kServerNonceBytes];
  RandomBytes(raw, sizeof raw);
  nonce_ =
      std::string(nonce) + (test_server_nonce_.empty()
                                ? Base64Encode(std::string_view(
                                      reinterpret_cast<char*>(raw), sizeof raw))
                                : test_server_nonce_);
  server_first_ = "r=" + nonce_ + ",s=" + Base64Encode(secret_.salt) +
                  ",i=" + std::to_string(secret_.iterations);
  *server_first = server_first_;
  return true;
}

ScramExchange::Result ScramExchange::ClientFinal(std::string_view message,
                                                 std::string* server_final,
                                                 std::string* error) {
  std::string_view s = message;
  std::string_view cbind, nonce, proof_b64;
  if (!ReadAttribute(&s, 'c', &cbind)) {
    *error = "Expected attribute \"c\".";
    return Result::kMalformed;
  }
  std::string cbind_raw;
  if (!Base64Decode(cbind, &cbind_raw) || cbind_raw != cbind_header_) {
    *error =
        "Unexpected SCRAM channel-binding attribute in client-final-message.";
    return Result::kMalformed;
  }
  if (!ReadAttribute(&s, 'r', &nonce)) {
    *error = "Expected attribute \"r\".";
    return Result::kMalformed;
  }
  if (nonce != nonce_) {
    *error = "Nonce does not match.";
    return Result::kMalformed;
  }
  // Extensions until p=.
  while (!s.empty() && !(s.size() >= 2 && s[0] == 'p' && s[1] == '=')) {
    size_t comma = s.find(',');
    if (comma == std::string_view::npos) {
      s = {};
      break;
    }
    s.remove_prefix(comma + 1);
  }
  size_t without_proof_len = message.size() - s.size();
  if (!ReadAttribute(&s, 'p', &proof_b64) || !s.empty()) {
    *error = "Malformed proof in client-final-message.";
    return Result::kMalformed;
  }
  if (without_proof_len == 0) {
    *error = "Malformed proof in client-final-message.";
    return Result::kMalformed;
  }
  std::string proof;
  if (!Base64Decode(proof_b64, &proof) || proof.size() != kKeyLen) {
    *error = "Malformed proof in client-final-message.";
    return Result::kMalformed;
  }
  std::string auth_message =
      client_first_bare_ + "," + server_first_ + "," +
      std::string(message.substr(0, without_proof_len - 1));
  std::string signature = Hmac(secret_.stored_key, auth_message);
  std::string client_key(kKeyLen, '\0');
  for (size_t i = 0; i < kKeyLen; i++) client_key[i] = proof[i] ^ signature[i];
  if (mock_ || !SameBytes(Sha256(client_key), secret_.stored_key))
    return Result::kFailed;
  *server_final = "v=" + Base64Encode(Hmac(secret_.server_key, auth_message));
  return Result::kOk;
}

}  // namespace kova::wire
