// Join tokens: round trip, and every way a token can be wrong: tampered, forged, another
// key, expired, truncated, not base64url, huge. None of them throws.
#include <gtest/gtest.h>

#include <random>

#include "fitz/auth.h"
#include "fitz/live/token.h"

namespace fitz::live {
namespace {

constexpr int64_t kNow = 1'800'000'000;

TokenClaims claims() {
  return TokenClaims{"ChatRoom", R"({"room":"x \"<b>\"","n":[1,2]})", "sid-1", "user-42", kNow, kNow + 3600,
                     {{"room", "x \"<b>\""}, {"id", "7"}}, {{"sort", "new"}, {"q", "a&b=c"}}};
}

TEST(LiveToken, RoundTrip) {
  TokenKey key = TokenKey::derive("secret");
  std::string t = seal_token(claims(), key);
  EXPECT_EQ(t.substr(0, 2), "1.");
  TokenResult r = open_token(t, key, kNow + 10);
  ASSERT_TRUE(r.ok()) << token_error_name(r.error);
  EXPECT_EQ(r.claims, claims());
}

TEST(LiveToken, PropsDoNotLeak) {
  TokenKey key = TokenKey::derive("secret");
  TokenClaims c = claims();
  c.props_json = R"({"secret_note":"hunter2"})";
  std::string t = seal_token(c, key);
  EXPECT_EQ(t.find("hunter2"), std::string::npos);
  std::string raw;
  ASSERT_TRUE(auth::base64url_decode(t.data() + 2, t.size() - 2, &raw));
  EXPECT_EQ(raw.find("hunter2"), std::string::npos);
  EXPECT_EQ(raw.find("secret_note"), std::string::npos);
}

TEST(LiveToken, FreshNonceEachTime) {
  TokenKey key = TokenKey::derive("secret");
  EXPECT_NE(seal_token(claims(), key), seal_token(claims(), key));
}

TEST(LiveToken, DerivationIsDeterministicAndSeparated) {
  EXPECT_EQ(TokenKey::derive("a").bytes(), TokenKey::derive("a").bytes());
  EXPECT_NE(TokenKey::derive("a").bytes(), TokenKey::derive("b").bytes());
  EXPECT_NE(TokenKey::random().bytes(), TokenKey::random().bytes());
  // Not the secret itself, nor its SHA-256 padded: the key bytes of a 32-byte secret differ.
  std::string s(32, 'k');
  auto k = TokenKey::derive(s).bytes();
  EXPECT_NE(std::string(k.begin(), k.end()), s);
}

TEST(LiveToken, WrongKeyIsForged) {
  std::string t = seal_token(claims(), TokenKey::derive("secret"));
  EXPECT_EQ(open_token(t, TokenKey::derive("secret2"), kNow).error, TokenError::Forged);
  EXPECT_EQ(open_token(t, TokenKey::random(), kNow).error, TokenError::Forged);
}

TEST(LiveToken, EveryFlippedBitIsRejected) {
  TokenKey key = TokenKey::derive("secret");
  std::string t = seal_token(claims(), key);
  std::string raw;
  ASSERT_TRUE(auth::base64url_decode(t.data() + 2, t.size() - 2, &raw));
  for (size_t i = 0; i < raw.size(); ++i) {
    for (int bit : {0, 3, 7}) {
      std::string m = raw;
      m[i] = char(m[i] ^ (1 << bit));
      Str b = auth::base64url_encode(m.data(), m.size());
      TokenResult r = open_token("1." + std::string(b.data(), b.size()), key, kNow);
      EXPECT_EQ(r.error, TokenError::Forged) << "byte " << i;
      EXPECT_TRUE(r.claims.view.empty());
    }
  }
}

TEST(LiveToken, Expiry) {
  TokenKey key = TokenKey::derive("secret");
  std::string t = seal_token(claims(), key);
  EXPECT_TRUE(open_token(t, key, kNow + 3599).ok());
  EXPECT_EQ(open_token(t, key, kNow + 3600).error, TokenError::Expired);
  EXPECT_EQ(open_token(t, key, kNow + 999999).error, TokenError::Expired);
  EXPECT_EQ(open_token(t, key, kNow - 61).error, TokenError::NotYetValid);
  EXPECT_TRUE(open_token(t, key, kNow - 30).ok());
}

TEST(LiveToken, MalformedInputs) {
  TokenKey key = TokenKey::derive("secret");
  std::string good = seal_token(claims(), key);
  for (std::string bad : {std::string(), std::string("1."), std::string("1"), std::string("2.") + good.substr(2),
                          good.substr(2), std::string("1.!!!!"), std::string("1.AAAA"), std::string("1.") + std::string(40, 'A') + "=",
                          good + "A", good.substr(0, good.size() - 1), std::string("1.") + std::string(kMaxTokenBytes, 'A'),
                          std::string("1.\0\0\0", 5), std::string("eyJhbGciOiJIUzI1NiJ9.e30.sig")}) {
    TokenResult r = open_token(bad, key, kNow);
    EXPECT_FALSE(r.ok()) << bad.substr(0, 40);
    EXPECT_TRUE(r.error == TokenError::Malformed || r.error == TokenError::Forged) << token_error_name(r.error);
  }
}

TEST(LiveToken, RandomGarbageNeverOpens) {
  TokenKey key = TokenKey::derive("secret");
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string s = "1.";
    static const char kAlpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (size_t n = rng() % 200; n > 0; --n) s.push_back(kAlpha[rng() % 64]);
    EXPECT_FALSE(open_token(s, key, kNow).ok());
  }
}

TEST(LiveToken, TokenFromAnotherProcessKeyDoesNotTransfer) {
  // A dev key per process: tokens of one dev server are rejected by the next (the client
  // then gets `reload`, §2.5).
  TokenKey dev1 = TokenKey::random(), dev2 = TokenKey::random();
  EXPECT_EQ(open_token(seal_token(claims(), dev1), dev2, kNow).error, TokenError::Forged);
}

TEST(LiveToken, EmptyPropsBecomeNull) {
  TokenKey key = TokenKey::derive("s");
  TokenClaims c = claims();
  c.props_json = "";
  c.uid = "";
  TokenResult r = open_token(seal_token(c, key), key, kNow);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.claims.props_json, "null");
  EXPECT_EQ(r.claims.uid, "");
}

}  // namespace
}  // namespace fitz::live
