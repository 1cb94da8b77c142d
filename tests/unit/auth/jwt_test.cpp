// JWT: round trips for every algorithm with JSON types kept, and every kind of bad token
// (alg none, algorithm confusion, tampering, expiry, bad base64 / JSON, oversized) as an Err
// with its reason.
#include <gtest/gtest.h>

#include <string>

#include <openssl/hmac.h>

#include "fitz/auth.h"
#include "test_keys.h"

namespace fitz::auth {
namespace {

using test_support::ec_keys;
using test_support::rsa_keys;

const int64_t kNow = 1800000000;
std::string s(const Str& x) { return std::string(x.data(), x.size()); }
Str S(const std::string& x) { return Str(x.data(), x.size()); }
const Str kSecret = "correct horse battery staple"_s;

JwtOptions at(int64_t now) {
  JwtOptions o;
  o.now = now;
  return o;
}

Claims sample() {
  Claims c;
  c.set("sub"_s, Any("42"_s));
  c.set("role"_s, Any("admin"_s));
  c.set("n"_s, Any(int64_t(7)));
  c.set("ratio"_s, Any(0.5));
  c.set("ok"_s, Any(true));
  c.set("exp"_s, Any(kNow + 3600));
  return c;
}

std::string b64(const std::string& x) { return s(base64url_encode(x.data(), x.size())); }

// A token over exactly these header and payload bytes, HS256-signed with `key` (OpenSSL HMAC
// directly, so tests can sign payloads the encoder would never produce).
std::string signed_token(const std::string& header, const std::string& payload, const Str& key = kSecret) {
  std::string input = b64(header) + "." + b64(payload);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(input.data()),
       input.size(), mac, &len);
  return input + "." + b64(std::string(reinterpret_cast<char*>(mac), len));
}

std::string error_of(const Result<Claims, Str>& r) { return r.is_ok() ? "<ok>" : s(r.error()); }

TEST(Base64Url, RoundTripAndStrictness) {
  for (const std::string& x : std::vector<std::string>{"", "f", "fo", "foo", "foob", "fooba", "foobar", std::string("\xff\x00\xfe", 3)}) {
    std::string back;
    Str e = base64url_encode(x.data(), x.size());
    ASSERT_TRUE(base64url_decode(e.data(), e.size(), &back)) << x;
    EXPECT_EQ(back, x);
  }
  std::string out;
  EXPECT_EQ(s(base64url_encode("\xfb\xff", 2)), "-_8");
  EXPECT_FALSE(base64url_decode("Zm9v=", 5, &out));  // padding
  EXPECT_FALSE(base64url_decode("Zm+v", 4, &out));   // standard alphabet
  EXPECT_FALSE(base64url_decode("Z", 1, &out));      // impossible length
  EXPECT_FALSE(base64url_decode("Zh", 2, &out));     // non-zero trailing bits ("Zg" is canonical)
  EXPECT_TRUE(base64url_decode("Zg", 2, &out));
  EXPECT_FALSE(base64url_decode("Zm9\xc3", 4, &out));
}

TEST(Jwt, RoundTripKeepsJsonTypes) {
  for (Alg a : {Alg::HS256, Alg::HS384, Alg::HS512}) {
    Result<Str, Str> tok = jwt_encode(sample(), kSecret, a);
    ASSERT_TRUE(tok.is_ok()) << s(tok.error());
    Result<Claims, Str> back = jwt_decode(tok.value(), kSecret, a, at(kNow));
    ASSERT_TRUE(back.is_ok()) << alg_name(a) << ": " << s(back.error());
    const Claims& c = back.value();
    EXPECT_TRUE(c.find("n"_s)->is_int());
    EXPECT_EQ(c.find("n"_s)->int_value(), 7);
    EXPECT_TRUE(c.find("ratio"_s)->is_float());
    EXPECT_TRUE(c.find("ok"_s)->is_bool());
    EXPECT_EQ(s(c.find("role"_s)->str_value()), "admin");
    EXPECT_EQ(c.find("exp"_s)->int_value(), kNow + 3600);
  }
  // Nested values come back as maps and lists.
  Claims c;
  c.set("scopes"_s, to_any(List<Str>{"a"_s, "b"_s}));
  Result<Str, Str> tok = jwt_encode(c, kSecret);
  Result<Claims, Str> back = jwt_decode(tok.value(), kSecret, Alg::HS256, at(kNow));
  ASSERT_TRUE(back.is_ok());
  EXPECT_EQ(s(http::to_json(back.value())), R"({"scopes":["a","b"]})");
}

TEST(Jwt, HeaderNamesTheAlgorithm) {
  Result<Str, Str> tok = jwt_encode(sample(), kSecret, Alg::HS384);
  std::string t = s(tok.value());
  std::string header;
  ASSERT_TRUE(base64url_decode(t.data(), t.find('.'), &header));
  EXPECT_EQ(header, R"({"alg":"HS384","typ":"JWT"})");
}

TEST(Jwt, RsaAndEcWithPemKeys) {
  struct Case {
    Alg alg;
    const test_support::KeyPair& keys;
  } cases[] = {{Alg::RS256, rsa_keys()}, {Alg::ES256, ec_keys()}};
  for (const Case& k : cases) {
    Result<Str, Str> tok = jwt_encode(sample(), S(k.keys.private_pem), k.alg);
    ASSERT_TRUE(tok.is_ok()) << s(tok.error());
    Result<Claims, Str> back = jwt_decode(tok.value(), S(k.keys.public_pem), k.alg, at(kNow));
    ASSERT_TRUE(back.is_ok()) << alg_name(k.alg) << ": " << s(back.error());
    EXPECT_EQ(s(back.value().find("sub"_s)->str_value()), "42");
    // Tampered payload under a valid signature.
    std::string t = s(tok.value());
    size_t d1 = t.find('.'), d2 = t.rfind('.');
    Claims other = sample();
    other.set("role"_s, Any("root"_s));
    Str p = http::to_json(other);
    std::string forged = t.substr(0, d1 + 1) + b64(s(p)) + t.substr(d2);
    EXPECT_EQ(error_of(jwt_decode(S(forged), S(k.keys.public_pem), k.alg, at(kNow))), "invalid signature");
    // A public key cannot sign; a private key is not a verification key here.
    EXPECT_FALSE(jwt_encode(sample(), S(k.keys.public_pem), k.alg).is_ok());
    EXPECT_FALSE(jwt_decode(tok.value(), "not a pem"_s, k.alg, at(kNow)).is_ok());
  }
  // ES256 signatures are JOSE (r||s, 64 bytes), not DER.
  Result<Str, Str> es = jwt_encode(sample(), S(ec_keys().private_pem), Alg::ES256);
  std::string t = s(es.value()), sig;
  ASSERT_TRUE(base64url_decode(t.data() + t.rfind('.') + 1, t.size() - t.rfind('.') - 1, &sig));
  EXPECT_EQ(sig.size(), 64u);
  // The wrong key type for the algorithm.
  Result<Str, Str> rs = jwt_encode(sample(), S(rsa_keys().private_pem), Alg::RS256);
  EXPECT_EQ(error_of(jwt_decode(rs.value(), S(ec_keys().public_pem), Alg::RS256, at(kNow))),
            "invalid public key for RS256 (expected a PEM RSA public key)");
  EXPECT_EQ(error_of(jwt_decode(es.value(), S(rsa_keys().public_pem), Alg::ES256, at(kNow))),
            "invalid public key for ES256 (expected a PEM EC P-256 public key)");
  // An ES256 signature of the wrong length.
  std::string short_sig = t.substr(0, t.rfind('.') + 1) + s(base64url_encode(sig.data(), 48));
  EXPECT_EQ(error_of(jwt_decode(S(short_sig), S(ec_keys().public_pem), Alg::ES256, at(kNow))), "invalid signature");
}

TEST(Jwt, ParsedKeysAreReusable) {
  Result<JwtKey, Str> rk = JwtKey::parse(S(rsa_keys().public_pem), Alg::RS256);
  ASSERT_TRUE(rk.is_ok()) << s(rk.error());
  EXPECT_EQ(rk.value().alg(), Alg::RS256);
  for (int i = 0; i < 3; ++i) {
    Claims c = sample();
    c.set("n"_s, Any(int64_t(i)));
    Str tok = jwt_encode(c, S(rsa_keys().private_pem), Alg::RS256).value();
    Result<Claims, Str> back = jwt_decode(tok, rk.value(), at(kNow));
    ASSERT_TRUE(back.is_ok()) << s(back.error());
    EXPECT_EQ(back.value().find("n"_s)->int_value(), i);
  }
  // The key's algorithm is the one enforced.
  Str hs = jwt_encode(sample(), S(rsa_keys().public_pem), Alg::HS256).value();
  EXPECT_EQ(error_of(jwt_decode(hs, rk.value(), at(kNow))), "unexpected algorithm 'HS256' (expected RS256)");
  EXPECT_FALSE(JwtKey::parse(S(rsa_keys().private_pem.substr(0, 40)), Alg::RS256).is_ok());
  EXPECT_FALSE(JwtKey::parse(Str(), Alg::HS256).is_ok());
  EXPECT_TRUE(JwtKey::parse(kSecret, Alg::HS512).is_ok());
}

TEST(Jwt, AlgNoneIsRejected) {
  std::string body = b64(R"({"sub":"42","role":"admin"})");
  for (std::string h : {R"({"alg":"none","typ":"JWT"})", R"({"alg":"None"})", R"({"alg":"NONE"})"}) {
    for (std::string tail : {"", "c2ln"}) {
      std::string t = b64(h) + "." + body + "." + tail;
      EXPECT_EQ(error_of(jwt_decode(S(t), kSecret, Alg::HS256, at(kNow))), "algorithm 'none' is not accepted") << h;
    }
  }
}

TEST(Jwt, AlgorithmConfusionIsRejected) {
  // The classic attack: an HS256 token whose HMAC key is the server's RSA public key.
  const std::string& pub = rsa_keys().public_pem;
  Result<Str, Str> tok = jwt_encode(sample(), S(pub), Alg::HS256);
  ASSERT_TRUE(tok.is_ok());
  EXPECT_EQ(error_of(jwt_decode(tok.value(), S(pub), Alg::RS256, at(kNow))),
            "unexpected algorithm 'HS256' (expected RS256)");
  // Between HMAC variants and with lower-case names too.
  Result<Str, Str> h512 = jwt_encode(sample(), kSecret, Alg::HS512);
  EXPECT_EQ(error_of(jwt_decode(h512.value(), kSecret, Alg::HS256, at(kNow))),
            "unexpected algorithm 'HS512' (expected HS256)");
  std::string t = b64(R"({"alg":"hs256"})") + "." + b64("{}") + ".c2ln";
  EXPECT_EQ(error_of(jwt_decode(S(t), kSecret, Alg::HS256, at(kNow))), "unexpected algorithm 'hs256' (expected HS256)");
}

TEST(Jwt, TamperedPayloadAndSignature) {
  std::string t = s(jwt_encode(sample(), kSecret).value());
  size_t d1 = t.find('.'), d2 = t.rfind('.');
  // Payload changed, signature kept.
  std::string forged = t.substr(0, d1 + 1) + b64(R"({"sub":"1","role":"admin","exp":1900000000})") + t.substr(d2);
  EXPECT_EQ(error_of(jwt_decode(S(forged), kSecret, Alg::HS256, at(kNow))), "invalid signature");
  // One signature character changed (still valid base64url).
  std::string bad = t;
  bad[d2 + 3] = bad[d2 + 3] == 'A' ? 'B' : 'A';
  EXPECT_EQ(error_of(jwt_decode(S(bad), kSecret, Alg::HS256, at(kNow))), "invalid signature");
  // Truncated signature, wrong secret, signature removed.
  EXPECT_EQ(error_of(jwt_decode(S(t.substr(0, t.size() - 3)), kSecret, Alg::HS256, at(kNow))), "invalid signature");
  EXPECT_EQ(error_of(jwt_decode(S(t), "other secret"_s, Alg::HS256, at(kNow))), "invalid signature");
  EXPECT_EQ(error_of(jwt_decode(S(t.substr(0, d2 + 1)), kSecret, Alg::HS256, at(kNow))), "missing signature");
}

TEST(Jwt, TimeClaims) {
  Claims c = sample();
  c.set("exp"_s, Any(kNow - 100));
  Str t = jwt_encode(c, kSecret).value();
  EXPECT_EQ(error_of(jwt_decode(t, kSecret, Alg::HS256, at(kNow))), "token expired");
  // Within the leeway (30 s by default) it passes.
  EXPECT_TRUE(jwt_decode(t, kSecret, Alg::HS256, at(kNow - 80)).is_ok());
  c = sample();
  c.set("nbf"_s, Any(kNow + 100));
  t = jwt_encode(c, kSecret).value();
  EXPECT_EQ(error_of(jwt_decode(t, kSecret, Alg::HS256, at(kNow))), "token not valid yet ('nbf' is in the future)");
  EXPECT_TRUE(jwt_decode(t, kSecret, Alg::HS256, at(kNow + 80)).is_ok());
  c = sample();
  c.set("iat"_s, Any(kNow + 3000));
  t = jwt_encode(c, kSecret).value();
  EXPECT_EQ(error_of(jwt_decode(t, kSecret, Alg::HS256, at(kNow))), "token issued in the future ('iat')");
  // A time claim of another type is an error, not a silent pass.
  c = sample();
  c.set("exp"_s, Any("tomorrow"_s));
  t = jwt_encode(c, kSecret).value();
  EXPECT_EQ(error_of(jwt_decode(t, kSecret, Alg::HS256, at(kNow))),
            "invalid 'exp' claim: expected a number of seconds, found Str");
  // require_exp
  Claims no_exp;
  no_exp.set("sub"_s, Any("1"_s));
  t = jwt_encode(no_exp, kSecret).value();
  JwtOptions o = at(kNow);
  EXPECT_TRUE(jwt_decode(t, kSecret, Alg::HS256, o).is_ok());
  o.require_exp = true;
  EXPECT_EQ(error_of(jwt_decode(t, kSecret, Alg::HS256, o)), "token has no 'exp' claim");
  // Fractional exp is accepted.
  c = sample();
  c.set("exp"_s, Any(double(kNow) + 10.5));
  EXPECT_TRUE(jwt_decode(jwt_encode(c, kSecret).value(), kSecret, Alg::HS256, at(kNow)).is_ok());
}

TEST(Jwt, MalformedTokens) {
  std::string good = s(jwt_encode(sample(), kSecret).value());
  size_t d1 = good.find('.'), d2 = good.rfind('.');
  std::string sig = good.substr(d2);
  struct Case {
    std::string token;
    std::string error;
  } cases[] = {
      {"", "malformed token: expected three dot-separated parts"},
      {"abc", "malformed token: expected three dot-separated parts"},
      {"a.b", "malformed token: expected three dot-separated parts"},
      {good + ".x", "malformed token: expected three dot-separated parts"},
      {std::string(".").append(good, d1 + 1), "malformed token: header is not base64url"},
      {"e30!" + good.substr(d1), "malformed token: header is not base64url"},
      {good.substr(0, d1) + ".%%%" + sig, "malformed token: payload is not base64url"},
      {good.substr(0, d1) + "." + sig, "malformed token: payload is not base64url"},
      {good.substr(0, d2) + ".a+b/", "malformed token: signature is not base64url"},
      {b64("{\"alg\":") + "." + b64("{}") + sig, "malformed token: header is not a JSON object ("},
      {b64("[1]") + "." + b64("{}") + sig, "malformed token: header is not a JSON object ("},
      {b64("{}") + "." + b64("{}") + sig, "malformed token: header has no 'alg'"},
      {b64(R"({"alg":5})") + "." + b64("{}") + sig, "malformed token: header has no 'alg'"},
      {b64(R"({"alg":"HS256","alg":"none"})") + "." + b64("{}") + sig,
       "malformed token: header is not a JSON object ("},
      {b64(R"({"alg":"HS256","crit":["x"]})") + "." + b64("{}") + sig, "unsupported critical header parameters ('crit')"},
      {b64(R"({"alg":"RS512"})") + "." + b64("{}") + sig, "unexpected algorithm 'RS512' (expected HS256)"},
  };
  for (const Case& c : cases) {
    Result<Claims, Str> r = jwt_decode(S(c.token), kSecret, Alg::HS256, at(kNow));
    ASSERT_FALSE(r.is_ok()) << c.token;
    // Messages of the JSON reader carry details after '('; the cases give the stable start.
    std::string e = s(r.error());
    EXPECT_EQ(e.rfind(c.error, 0), 0u)
        << c.token << " -> " << e;
  }
}

TEST(Jwt, BadJsonPayloadUnderAValidSignature) {
  // A correctly signed token whose payload is not a JSON object is still an Err.
  const std::string h = R"({"alg":"HS256","typ":"JWT"})";
  EXPECT_TRUE(jwt_decode(S(signed_token(h, R"({"a":1})")), kSecret, Alg::HS256, at(kNow)).is_ok());
  for (std::string payload : {std::string("not json"), std::string("[1,2]"), std::string("{\"a\":"),
                              std::string("\"str\""), std::string("{\"a\":\"\xff\"}"), std::string("{} x"),
                              std::string("{\"a\":1,\"a\":2}"), std::string()}) {
    Result<Claims, Str> r = jwt_decode(S(signed_token(h, payload)), kSecret, Alg::HS256, at(kNow));
    ASSERT_FALSE(r.is_ok()) << payload;
    std::string e = s(r.error());
    if (payload.empty())
      EXPECT_EQ(e, "malformed token: payload is not base64url");
    else
      EXPECT_EQ(e.rfind("malformed token: payload is not a JSON object (", 0), 0u) << payload << " -> " << e;
  }
}

TEST(Jwt, OversizedToken) {
  std::string big(9000, 'a');
  EXPECT_EQ(error_of(jwt_decode(S(big), kSecret, Alg::HS256, at(kNow))), "token too large (9000 bytes, limit 8192)");
  Claims c = sample();
  c.set("blob"_s, Any(S(std::string(20000, 'x'))));
  Str t = jwt_encode(c, kSecret).value();
  EXPECT_FALSE(jwt_decode(t, kSecret, Alg::HS256, at(kNow)).is_ok());
  JwtOptions o = at(kNow);
  o.max_token_bytes = 64 * 1024;
  EXPECT_TRUE(jwt_decode(t, kSecret, Alg::HS256, o).is_ok());
  // Deeply nested claims hit the reader's depth limit instead of the stack.
  std::string deep(5000, '[');
  std::string tok = b64(R"({"alg":"HS256"})") + "." + b64("{\"a\":" + deep + "}") + ".AAAA";
  EXPECT_FALSE(jwt_decode(S(tok), kSecret, Alg::HS256, at(kNow)).is_ok());
}

TEST(Jwt, AlgorithmsByNameAndEmptyKeys) {
  Alg a;
  EXPECT_TRUE(parse_alg("ES256"_s, &a));
  EXPECT_EQ(a, Alg::ES256);
  EXPECT_FALSE(parse_alg("es256"_s, &a));
  EXPECT_FALSE(parse_alg("none"_s, &a));
  EXPECT_EQ(s(jwt_encode(sample(), kSecret, "XS1"_s).error()), "unsupported algorithm 'XS1'");
  EXPECT_TRUE(jwt_encode(sample(), kSecret, "HS512"_s).is_ok());
  EXPECT_EQ(s(jwt_encode(sample(), Str(), Alg::HS256).error()), "empty key");
  Str t = jwt_encode(sample(), kSecret).value();
  EXPECT_EQ(error_of(jwt_decode(t, Str(), Alg::HS256, at(kNow))), "empty key");
  EXPECT_TRUE(jwt_decode(t, kSecret, "HS256"_s, at(kNow)).is_ok());
}

TEST(Jwt, RevokedTokens) {
  RevocationSet set;
  Claims c = sample();
  int64_t exp = unix_now() + 3600;
  c.set("exp"_s, Any(exp));
  c.set("jti"_s, Any("t-1"_s));
  Str t = jwt_encode(c, kSecret).value();
  JwtOptions o;
  o.revoked = &set;
  EXPECT_TRUE(jwt_decode(t, kSecret, Alg::HS256, o).is_ok());
  set.revoke("t-1"_s, exp);
  EXPECT_EQ(error_of(jwt_decode(t, kSecret, Alg::HS256, o)), "token revoked");
  EXPECT_TRUE(set.is_revoked("t-1"_s));
  EXPECT_FALSE(set.is_revoked("t-2"_s));
  // Entries go away once the token would have expired.
  EXPECT_EQ(set.cleanup(exp + 1), 1u);
  EXPECT_EQ(set.size(), 0u);
  // Revoking an already-expired token keeps nothing.
  set.revoke("old"_s, unix_now() - 10);
  EXPECT_EQ(set.size(), 0u);
}

}  // namespace
}  // namespace fitz::auth
