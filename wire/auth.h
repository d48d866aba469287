// Authentication pieces of the wire layer: pg_hba-like rules, the md5 and
// cleartext password checks and the server side of SCRAM-SHA-256 (RFC 5802
// and 7677, as PostgreSQL implements it). Crypto from OpenSSL libcrypto.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kova::wire {

enum class AuthMethod { kTrust, kReject, kPassword, kMd5, kScramSha256 };

bool ParseAuthMethod(std::string_view name, AuthMethod* method);
const char* AuthMethodName(AuthMethod method);

// An IPv4 or IPv6 address (IPv4-mapped IPv6 addresses are kept as IPv4).
struct IpAddress {
  int family = 0;  // AF_INET or AF_INET6; 0 = unknown
  uint8_t bytes[16] = {};
  bool Parse(std::string_view text);
  std::string ToString() const;
};

struct HbaRule {
  int line = 0;
  std::vector<std::string> databases;  // "all" matches any
  std::vector<std::string> users;      // "all" matches any
  bool any_address = false;
  IpAddress address;
  int prefix_bits = 0;
  AuthMethod method = AuthMethod::kTrust;
};

// The rules of an hba file, first match wins.
class HbaConfig {
 public:
  // One rule per line: `host DATABASE USER ADDRESS[/BITS] [MASK] METHOD
  // [options]`; `#` starts a comment; `hostnossl` is the same as `host`;
  // `hostssl`, `hostgssenc` and `local` lines never match (no TLS, no Unix
  // sockets). DATABASE and USER are comma lists; `all` is a wildcard and
  // `sameuser` (database) matches the user's name. ADDRESS may be `all`.
  bool Parse(std::string_view text, std::string* error);
  bool Load(const std::string& path, std::string* error);

  // The rule for a connection, or nullptr when none matches.
  const HbaRule* Match(std::string_view database, std::string_view user,
                       const IpAddress& peer) const;
  const std::vector<HbaRule>& rules() const { return rules_; }

 private:
  std::vector<HbaRule> rules_;
};

std::string Base64Encode(std::string_view data);
// False on characters outside the alphabet or a bad length.
bool Base64Decode(std::string_view text, std::string* out);
std::string Md5Hex(std::string_view data);
void RandomBytes(void* out, size_t n);

// "md5" + md5(password + user), as PostgreSQL stores an md5 password.
std::string Md5Secret(std::string_view password, std::string_view user);
// The client's answer to AuthenticationMD5Password for a stored md5 secret:
// "md5" + md5(md5hex(password + user) + salt).
std::string Md5Response(std::string_view md5_secret, const char salt[4]);

// A parsed "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>".
struct ScramSecret {
  int iterations = 0;
  std::string salt;        // raw bytes
  std::string stored_key;  // raw, 32 bytes
  std::string server_key;  // raw, 32 bytes
};
bool ParseScramSecret(std::string_view text, ScramSecret* secret);
// A secret in PostgreSQL's format for a password and a given salt.
std::string BuildScramSecret(std::string_view password, std::string_view salt,
                             int iterations);

// True when `password` (cleartext from the client) matches the stored
// secret (SCRAM or md5 form) of role `user`.
bool VerifyCleartextPassword(std::string_view stored, std::string_view user,
                             std::string_view password);

// Server side of one SCRAM-SHA-256 exchange.
class ScramExchange {
 public:
  // `secret` is the role's stored secret; when it cannot be used (no role,
  // no SCRAM secret) pass mock = true: the exchange then runs with made-up
  // values derived from `user` and always fails at the end, as PostgreSQL
  // does so that a client cannot tell which roles exist.
  ScramExchange(const ScramSecret& secret, bool mock);
  static ScramSecret MockSecret(std::string_view user);

  // client-first-message -> server-first-message. False: malformed
  // (*error holds the detail).
  bool ClientFirst(std::string_view message, std::string* server_first,
                   std::string* error);
  enum class Result { kOk, kFailed, kMalformed };
  // client-final-message -> server-final-message ("v=...").
  Result ClientFinal(std::string_view message, std::string* server_final,
                     std::string* error);

  // Tests only: the server nonce part to use instead of random bytes.
  void set_server_nonce_for_testing(std::string nonce) {
    test_server_nonce_ = std::move(nonce);
  }

 private:
  std::string test_server_nonce_;
  ScramSecret secret_;
  bool mock_;
  std::string cbind_header_;  // gs2 header as the client sent it
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;  // client nonce + server nonce
};

}  // namespace kova::wire
