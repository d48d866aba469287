// Unit tests of the wire layer's codec and authentication pieces: base64,
// md5, SCRAM-SHA-256 (RFC 7677's test vector), hba rules.
#include "wire/auth.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include "wire/protocol.h"

namespace kova::wire {
namespace {

TEST(Base64, RoundTripAndStrictness) {
  for (std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    std::string out;
    ASSERT_TRUE(Base64Decode(Base64Encode(s), &out)) << s;
    EXPECT_EQ(out, s);
  }
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  std::string out;
  EXPECT_FALSE(Base64Decode("Zm9", &out));
  EXPECT_FALSE(Base64Decode("Zm=v", &out));
  EXPECT_FALSE(Base64Decode("Zm8*", &out));
  EXPECT_FALSE(Base64Decode("=m8v", &out));
}

TEST(Md5, PostgresForms) {
  // PostgreSQL: md5 of password || user name.
  EXPECT_EQ(Md5Secret("secret", "bob"), "md5" + Md5Hex("secretbob"));
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  const char salt[4] = {1, 2, 3, 4};
  std::string stored = Md5Secret("secret", "bob");
  EXPECT_EQ(Md5Response(stored, salt),
            "md5" + Md5Hex(stored.substr(3) + std::string(salt, 4)));
  EXPECT_TRUE(VerifyCleartextPassword(stored, "bob", "secret"));
  EXPECT_FALSE(VerifyCleartextPassword(stored, "bob", "Secret"));
  EXPECT_FALSE(VerifyCleartextPassword(stored, "bobby", "secret"));
}

// RFC 7677, section 3.
constexpr const char* kClientFirst = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
constexpr const char* kServerNonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
constexpr const char* kSaltB64 = "W22ZaJ0SNY7soEsUEjb6gQ==";
constexpr const char* kClientFinal =
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
constexpr const char* kServerFinal =
    "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

ScramSecret Rfc7677Secret() {
  std::string salt;
  EXPECT_TRUE(Base64Decode(kSaltB64, &salt));
  ScramSecret secret;
  EXPECT_TRUE(
      ParseScramSecret(BuildScramSecret("pencil", salt, 4096), &secret));
  return secret;
}

TEST(Scram, Rfc7677Vector) {
  ScramExchange ex(Rfc7677Secret(), false);
  ex.set_server_nonce_for_testing(kServerNonce);
  std::string server_first, error, server_final;
  ASSERT_TRUE(ex.ClientFirst(kClientFirst, &server_first, &error)) << error;
  EXPECT_EQ(server_first, std::string("r=rOprNGfwEbeRWgbNEkqO") + kServerNonce +
                              ",s=" + kSaltB64 + ",i=4096");
  ASSERT_EQ(ex.ClientFinal(kClientFinal, &server_final, &error),
            ScramExchange::Result::kOk)
      << error;
  EXPECT_EQ(server_final, kServerFinal);
}

TEST(Scram, WrongProofFailsAndMockAlwaysFails) {
  {
    ScramExchange ex(Rfc7677Secret(), false);
    ex.set_server_nonce_for_testing(kServerNonce);
    std::string sf, error, final_msg;
    ASSERT_TRUE(ex.ClientFirst(kClientFirst, &sf, &error));
    std::string bad = kClientFinal;
    bad[bad.size() - 3] = bad[bad.size() - 3] == 'V' ? 'W' : 'V';
    EXPECT_EQ(ex.ClientFinal(bad, &final_msg, &error),
              ScramExchange::Result::kFailed);
  }
  {
    ScramExchange ex(Rfc7677Secret(), true);  // right proof, but mock
    ex.set_server_nonce_for_testing(kServerNonce);
    std::string sf, error, final_msg;
    ASSERT_TRUE(ex.ClientFirst(kClientFirst, &sf, &error));
    EXPECT_EQ(ex.ClientFinal(kClientFinal, &final_msg, &error),
              ScramExchange::Result::kFailed);
  }
}

TEST(Scram, EmptyAndStarUserNamesAndMalformedMessages) {
  for (const char* first : {"n,,n=,r=abc", "n,,n=*,r=abc", "y,,n=,r=abc"}) {
    ScramExchange ex(Rfc7677Secret(), false);
    std::string sf, error;
    EXPECT_TRUE(ex.ClientFirst(first, &sf, &error)) << first << ": " << error;
    EXPECT_EQ(sf.substr(0, 5), "r=abc");
  }
  for (const char* first :
       {"", "p=tls-unique,,n=,r=abc", "n,a=bob,n=,r=abc", "x,,n=,r=abc",
        "n,,r=abc", "n,,n=", "n,,n=x,r=", "n,,m=ext,n=,r=a"}) {
    ScramExchange ex(Rfc7677Secret(), false);
    std::string sf, error;
    EXPECT_FALSE(ex.ClientFirst(first, &sf, &error)) << first;
    EXPECT_FALSE(error.empty());
  }
  ScramExchange ex(Rfc7677Secret(), false);
  ex.set_server_nonce_for_testing(kServerNonce);
  std::string sf, error, final_msg;
  ASSERT_TRUE(ex.ClientFirst(kClientFirst, &sf, &error));
  for (const char* final_msg_in :
       {"", "c=biws",
        "c=eSws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNl"
        "F$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
        "c=biws,r=wrong,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=!!",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"}) {
    EXPECT_EQ(ex.ClientFinal(final_msg_in, &final_msg, &error),
              ScramExchange::Result::kMalformed)
        << final_msg_in;
  }
}

TEST(Scram, SecretFormatAndCleartextCheck) {
  std::string secret = BuildScramSecret("x", "0123456789abcdef", 4096);
  EXPECT_EQ(secret.rfind("SCRAM-SHA-256$4096:", 0), 0u);
  ScramSecret parsed;
  ASSERT_TRUE(ParseScramSecret(secret, &parsed));
  EXPECT_EQ(parsed.iterations, 4096);
  EXPECT_EQ(parsed.salt, "0123456789abcdef");
  EXPECT_TRUE(VerifyCleartextPassword(secret, "alice", "x"));
  EXPECT_FALSE(VerifyCleartextPassword(secret, "alice", "y"));
  EXPECT_FALSE(VerifyCleartextPassword(secret, "alice", ""));
  for (const char* bad : {"", "SCRAM-SHA-256$", "SCRAM-SHA-256$4096:abc",
                          "md5abc", "SCRAM-SHA-256$x:c2FsdA==$AAAA:AAAA"}) {
    EXPECT_FALSE(ParseScramSecret(bad, &parsed)) << bad;
  }
}

TEST(Hba, ParseAndMatch) {
  HbaConfig hba;
  std::string error;
  ASSERT_TRUE(
      hba.Parse("# comment\n"
                "local all all trust\n"
                "host  all   alice  127.0.0.1/32   scram-sha-256\n"
                "host  db1,db2 bob  10.0.0.0 255.0.0.0  md5   # trailing\n"
                "hostssl all all all reject\n"
                "host  sameuser all ::1/128 password\n"
                "host  all \"carol\" 0.0.0.0/0 reject\n"
                "host  all all all trust\n",
                &error))
      << error;
  ASSERT_EQ(hba.rules().size(), 5u);
  IpAddress lo, ten, v6, mapped;
  ASSERT_TRUE(lo.Parse("127.0.0.1"));
  ASSERT_TRUE(ten.Parse("10.1.2.3"));
  ASSERT_TRUE(v6.Parse("::1"));
  ASSERT_TRUE(mapped.Parse("::ffff:127.0.0.1"));
  EXPECT_EQ(mapped.family, lo.family);
  auto method = [&](const char* db, const char* user, const IpAddress& a) {
    const HbaRule* r = hba.Match(db, user, a);
    return r ? std::string(AuthMethodName(r->method)) : std::string("none");
  };
  EXPECT_EQ(method("x", "alice", lo), "scram-sha-256");
  EXPECT_EQ(method("x", "alice", mapped), "scram-sha-256");
  EXPECT_EQ(method("x", "alice", ten), "trust");
  EXPECT_EQ(method("db2", "bob", ten), "md5");
  EXPECT_EQ(method("db3", "bob", ten), "trust");
  EXPECT_EQ(method("bob", "bob", v6), "password");
  EXPECT_EQ(method("x", "carol", lo), "reject");
  EXPECT_EQ(method("x", "carol", v6), "trust");

  HbaConfig only;
  ASSERT_TRUE(only.Parse("host all alice 127.0.0.1/32 md5\n", &error));
  EXPECT_EQ(only.Match("x", "bob", lo), nullptr);

  for (const char* bad :
       {"host all all 127.0.0.1/33 trust", "host all all 300.0.0.1 trust",
        "host all all 127.0.0.1/32 ldap", "hots all all all trust",
        "host all all", "host all all samehost trust",
        "host all all 10.0.0.0 255.0.255.0 trust"}) {
    EXPECT_FALSE(only.Parse(bad, &error)) << bad;
  }
}

TEST(Codec, WriterAndReader) {
  std::string out;
  MessageWriter w(&out);
  w.Begin('T');
  w.Int16(-2);
  w.Int32(0x01020304);
  w.CString("ab");
  w.CString(std::string_view("c\0d", 3));  // cut at the NUL
  w.End();
  ASSERT_EQ(out.size(), 1u + 4 + 2 + 4 + 3 + 2);
  EXPECT_EQ(out[0], 'T');
  EXPECT_EQ(GetUint32(out.data() + 1), out.size() - 1);
  MessageReader r(std::string_view(out).substr(5));
  int16_t i16;
  int32_t i32;
  std::string_view s;
  ASSERT_TRUE(r.Int16(&i16));
  EXPECT_EQ(i16, -2);
  ASSERT_TRUE(r.Int32(&i32));
  EXPECT_EQ(i32, 0x01020304);
  ASSERT_TRUE(r.CString(&s));
  EXPECT_EQ(s, "ab");
  ASSERT_TRUE(r.CString(&s));
  EXPECT_EQ(s, "c");
  EXPECT_TRUE(r.AtEnd());
  uint8_t u8;
  EXPECT_FALSE(r.Int8(&u8));
  EXPECT_FALSE(r.CString(&s));
  MessageReader short_reader("\x01");
  EXPECT_FALSE(short_reader.Int16(&i16));
  EXPECT_FALSE(short_reader.Bytes(2, &s));
}

}  // namespace
}  // namespace kova::wire
