// Signed cookies: round trip, and each forgery reads as null — a tampered value, a tampered
// or missing signature, a signature moved from another cookie, another key, empty input; the
// Set-Cookie values of set_cookie / clear_cookie, and signing without FITZ_SECRET_KEY.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <openssl/hmac.h>

#include "fitz/auth.h"
#include "fitz/http/cookies.h"

namespace fitz::auth {
namespace {

using http::Text;

std::string signed_str_of(const Str& x) { return std::string(x.data(), x.size()); }
const Str kCookieKey = "cookie signing key, at least 32 bytes long"_s;

std::string signed_wire_of(const char* name, const char* value) {
  return signed_str_of(cookie_sign(kCookieKey, Text(name, std::strlen(name)), Text(value, std::strlen(value))).value());
}

Nullable<Str> verify_as(const char* name, const std::string& wire, const Str& key = kCookieKey) {
  return cookie_verify(key, Text(name, std::strlen(name)), Text(wire.data(), wire.size()));
}

TEST(CookieSign, RoundTripAndOpenSslAgrees) {
  std::string w = signed_wire_of("sid", "user 42; admin=no");
  ASSERT_TRUE(verify_as("sid", w).has_value());
  EXPECT_EQ(signed_str_of(verify_as("sid", w).value()), "user 42; admin=no");
  // The signature is base64url HMAC-SHA256 of `name=value` under the key.
  unsigned char mac[32];
  unsigned int len = 0;
  std::string msg = "sid=user 42; admin=no";
  HMAC(EVP_sha256(), kCookieKey.data(), int(kCookieKey.size()), reinterpret_cast<const unsigned char*>(msg.data()), msg.size(), mac, &len);
  std::string sig = signed_str_of(base64url_encode(reinterpret_cast<const char*>(mac), len));
  EXPECT_EQ(w.substr(w.rfind('.') + 1), sig);
  EXPECT_EQ(w.substr(0, w.rfind('.')), signed_str_of(http::cookie_value_encode(Text("user 42; admin=no"))));
  // Values holding dots keep them: the signature follows the last one.
  EXPECT_EQ(signed_str_of(verify_as("v", signed_wire_of("v", "a.b.c")).value()), "a.b.c");
  EXPECT_EQ(signed_str_of(verify_as("v", signed_wire_of("v", "")).value()), "");
}

TEST(CookieSign, ForgeriesReadAsNull) {
  std::string w = signed_wire_of("sid", "42");
  std::string tampered_value = "43" + w.substr(2);
  EXPECT_FALSE(verify_as("sid", tampered_value).has_value());
  std::string tampered_sig = w;
  tampered_sig.back() = tampered_sig.back() == 'A' ? 'B' : 'A';
  EXPECT_FALSE(verify_as("sid", tampered_sig).has_value());
  EXPECT_FALSE(verify_as("sid", w.substr(0, w.size() - 1)).has_value());  // truncated signature
  EXPECT_FALSE(verify_as("sid", "42").has_value());                        // unsigned
  EXPECT_FALSE(verify_as("sid", "42.").has_value());                       // empty signature
  EXPECT_FALSE(verify_as("sid", "").has_value());
  EXPECT_FALSE(verify_as("sid", ".").has_value());
  EXPECT_FALSE(verify_as("sid", w, "another key"_s).has_value());
  EXPECT_FALSE(verify_as("sid", w, Str()).has_value());  // no key: nothing verifies
  // A value and signature issued for another cookie do not verify under this name.
  std::string other = signed_wire_of("theme", "42");
  EXPECT_FALSE(verify_as("sid", other).has_value());
  EXPECT_TRUE(verify_as("theme", other).has_value());
  // Huge input is only hashed, never a crash.
  std::string huge(1 << 20, 'x');
  EXPECT_FALSE(verify_as("sid", huge + "." + huge).has_value());
}

TEST(CookieSign, SignedCookieBindingReadsTheEnvironmentKey) {
  ::setenv("FITZ_SECRET_KEY", kCookieKey.data(), 1);
  std::string w = signed_wire_of("sid", "42");
  std::string header = "theme=dark; sid=" + w;
  http::Request r;
  r.headers.push_back(http::Header{Text("Cookie"), Text(header.data(), header.size())});
  ASSERT_TRUE(signed_cookie(r, "sid").has_value());
  EXPECT_EQ(signed_str_of(signed_cookie(r, "sid").value()), "42");
  EXPECT_FALSE(signed_cookie(r, "theme").has_value());  // present but unsigned
  EXPECT_FALSE(signed_cookie(r, "none").has_value());
  ::unsetenv("FITZ_SECRET_KEY");
  EXPECT_FALSE(signed_cookie(r, "sid").has_value());
}

TEST(CookieSign, SetCookieValues) {
  ::setenv("FITZ_SECRET_KEY", kCookieKey.data(), 1);
  Str plain = set_cookie_value("theme"_s, "dark blue"_s, null, null, null, null, null, null, {});
  EXPECT_EQ(signed_str_of(plain), "theme=dark%20blue; Path=/; HttpOnly; Secure; SameSite=Lax");
  Str signed_v = set_cookie_value("sid"_s, "42"_s, Nullable<int64_t>(int64_t(60)), Nullable<bool>(false), null,
                                  Nullable<Str>("Strict"_s), null, Nullable<bool>(true), {});
  EXPECT_EQ(signed_str_of(signed_v), "sid=" + signed_wire_of("sid", "42") + "; Path=/; Max-Age=60; Secure; SameSite=Strict");
  EXPECT_EQ(signed_str_of(clear_cookie_value("sid"_s, Nullable<Str>("/app"_s), {})),
            "sid=; Path=/app; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax");
  ::unsetenv("FITZ_SECRET_KEY");
}

TEST(CookieSign, ErrorsAreRuntimeErrors) {
  ::unsetenv("FITZ_SECRET_KEY");
  Panic p;
  ASSERT_TRUE(catch_panic([] { set_cookie_value("sid"_s, "42"_s, null, null, null, null, null, Nullable<bool>(true), {}); }, &p));
  EXPECT_NE(signed_str_of(p.message).find("FITZ_SECRET_KEY"), std::string::npos);
  ASSERT_TRUE(catch_panic([] { set_cookie_value("bad name"_s, "v"_s, null, null, null, null, null, null, {}); }, &p));
  EXPECT_NE(signed_str_of(p.message).find("set_cookie: invalid cookie name 'bad name'"), std::string::npos);
  EXPECT_TRUE(catch_panic(
      [] { set_cookie_value("ok"_s, "v"_s, null, null, Nullable<bool>(false), Nullable<Str>("None"_s), null, null, {}); }));
  EXPECT_FALSE(catch_panic([] { set_cookie_value("ok"_s, "v"_s, null, null, null, null, null, null, {}); }));
}

}  // namespace
}  // namespace fitz::auth
