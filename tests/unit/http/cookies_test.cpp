// Cookie request headers (several headers, spaces, quotes, `=` in values, malformed pairs),
// wire encoding of values, Set-Cookie attributes, `@cookie` binding's 400, and the login
// redirect's reading of Accept.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "fitz/http/cookies.h"

namespace fitz::http {
namespace {

std::string cookie_str_of(const Str& x) { return std::string(x.data(), x.size()); }
std::string cookie_text_of(Text x) { return std::string(x.data, x.size); }

std::vector<std::pair<std::string, std::string>> cookie_pairs_of(const char* header) {
  std::vector<CookiePair> pairs;
  parse_cookie_header(Text(header, std::strlen(header)), &pairs);
  std::vector<std::pair<std::string, std::string>> out;
  for (const CookiePair& p : pairs) out.emplace_back(cookie_text_of(p.name), cookie_text_of(p.value));
  return out;
}

using CookiePairs = std::vector<std::pair<std::string, std::string>>;

TEST(CookieHeader, PairsSpacesQuotesAndEquals) {
  EXPECT_EQ(cookie_pairs_of("a=1; b=2"), (CookiePairs{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(cookie_pairs_of("  a = 1 ;b=2;  c=  "), (CookiePairs{{"a", "1"}, {"b", "2"}, {"c", ""}}));
  EXPECT_EQ(cookie_pairs_of("q=\"quoted value\"; r=\"\""), (CookiePairs{{"q", "quoted value"}, {"r", ""}}));
  EXPECT_EQ(cookie_pairs_of("tok=abc==.def=; x=a=b=c"), (CookiePairs{{"tok", "abc==.def="}, {"x", "a=b=c"}}));
  EXPECT_EQ(cookie_pairs_of("\t a=1\t;\tb=2 "), (CookiePairs{{"a", "1"}, {"b", "2"}}));
}

TEST(CookieHeader, MalformedPairsAreSkipped) {
  EXPECT_EQ(cookie_pairs_of("novalue; =empty; a=1; ;;; b c=2; x(y)=3; ok=4"), (CookiePairs{{"a", "1"}, {"ok", "4"}}));
  EXPECT_EQ(cookie_pairs_of(""), CookiePairs{});
  EXPECT_EQ(cookie_pairs_of(";;;="), CookiePairs{});
  EXPECT_EQ(cookie_pairs_of("a=\""), (CookiePairs{{"a", "\""}}));  // a lone quote is kept as sent
}

TEST(CookieHeader, HugeHeaderIsLinearAndComplete) {
  std::string h;
  for (int i = 0; i < 20000; ++i) h += "c" + std::to_string(i) + "=" + std::string(10, 'v') + "; ";
  h += "last=yes";
  std::vector<CookiePair> pairs;
  parse_cookie_header(Text(h.data(), h.size()), &pairs);
  ASSERT_EQ(pairs.size(), 20001u);
  EXPECT_EQ(cookie_text_of(pairs.back().value), "yes");
  std::string junk(1 << 20, ';');
  pairs.clear();
  parse_cookie_header(Text(junk.data(), junk.size()), &pairs);
  EXPECT_TRUE(pairs.empty());
}

TEST(CookieHeader, FirstMatchAcrossSeveralHeaders) {
  Request r;
  r.headers.push_back(Header{Text("Accept"), Text("*/*")});
  r.headers.push_back(Header{Text("Cookie"), Text("junk; theme=dark")});
  r.headers.push_back(Header{Text("cookie"), Text("sid=abc; theme=light")});
  Text v;
  ASSERT_TRUE(find_cookie(r, Text("sid"), &v));
  EXPECT_EQ(cookie_text_of(v), "abc");
  ASSERT_TRUE(find_cookie(r, Text("theme"), &v));
  EXPECT_EQ(cookie_text_of(v), "dark");
  EXPECT_FALSE(find_cookie(r, Text("SID"), &v));  // names are case-sensitive
  EXPECT_FALSE(find_cookie(r, Text("junk"), &v));
}

TEST(CookieValue, EncodeRoundTripsAnyString) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(char(c));
  Str wire = cookie_value_encode(Text(all.data(), all.size()));
  for (char c : cookie_str_of(wire)) EXPECT_TRUE(c > 0x20 && c < 0x7F && c != ';' && c != ',' && c != '"' && c != '\\' && c != ' ');
  EXPECT_EQ(cookie_str_of(cookie_value_decode(Text(wire))), all);
  EXPECT_EQ(cookie_str_of(cookie_value_encode(Text("a b;c,d%"))), "a%20b%3Bc%2Cd%25");
  EXPECT_EQ(cookie_str_of(cookie_value_encode(Text("plain-Value_1.~"))), "plain-Value_1.~");
  // A value another program set with a stray `%` is read as sent.
  EXPECT_EQ(cookie_str_of(cookie_value_decode(Text("100%"))), "100%");
  EXPECT_EQ(cookie_str_of(cookie_value_decode(Text("%zz"))), "%zz");
}

TEST(SetCookie, AttributesAndDefaults) {
  CookieAttrs a;
  EXPECT_EQ(cookie_str_of(set_cookie_header(Text("sid"), Text("abc"), a).value()), "sid=abc; Path=/; HttpOnly; Secure; SameSite=Lax");
  a.max_age = int64_t(3600);
  a.http_only = false;
  a.same_site = Str::lit("Strict");
  a.path = Str::lit("/app");
  EXPECT_EQ(cookie_str_of(set_cookie_header(Text("sid"), Text("abc"), a).value()), "sid=abc; Path=/app; Max-Age=3600; Secure; SameSite=Strict");
  CookieAttrs gone;
  gone.max_age = int64_t(0);
  EXPECT_EQ(cookie_str_of(set_cookie_header(Text("sid"), Text(""), gone).value()),
            "sid=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax");
}

TEST(SetCookie, RejectsWhatABrowserWouldMisread) {
  CookieAttrs a;
  EXPECT_FALSE(set_cookie_header(Text("bad name"), Text("v"), a).is_ok());
  EXPECT_FALSE(set_cookie_header(Text("a;b"), Text("v"), a).is_ok());
  EXPECT_FALSE(set_cookie_header(Text(""), Text("v"), a).is_ok());
  EXPECT_FALSE(set_cookie_header(Text("ok"), Text("v;Domain=evil"), a).is_ok());
  a.same_site = Str::lit("Sometimes");
  EXPECT_NE(cookie_str_of(set_cookie_header(Text("ok"), Text("v"), a).error()).find("same_site"), std::string::npos);
  a.same_site = Str::lit("None");
  a.secure = false;
  EXPECT_FALSE(set_cookie_header(Text("ok"), Text("v"), a).is_ok());
  a.secure = true;
  EXPECT_TRUE(set_cookie_header(Text("ok"), Text("v"), a).is_ok());
  a.path = Str::lit("/x; Domain=evil");
  EXPECT_FALSE(set_cookie_header(Text("ok"), Text("v"), a).is_ok());
}

TEST(CookieBinding, RequiredIsA400NamingTheCookie) {
  Request r;
  r.headers.push_back(Header{Text("Cookie"), Text("theme=dark%20blue")});
  Binder b(r);
  EXPECT_EQ(cookie_str_of(b.cookie_str("theme")), "dark blue");
  EXPECT_FALSE(b.cookie_opt("sid").has_value());
  EXPECT_FALSE(b.failed());
  b.cookie_str("sid");
  ASSERT_TRUE(b.failed());
  EXPECT_EQ(b.error().status, 400);
  EXPECT_EQ(cookie_str_of(b.error().body), "{\"error\":\"cookie 'sid': missing \xE2\x80\x94 it is required\"}");
}

TEST(LoginRedirect, BrowsersGoToTheLoginPageApisKeepThe401) {
  EXPECT_TRUE(accept_prefers_html(Text("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")));
  EXPECT_FALSE(accept_prefers_html(Text("application/json")));
  EXPECT_FALSE(accept_prefers_html(Text("*/*")));
  EXPECT_FALSE(accept_prefers_html(Text("")));
  EXPECT_FALSE(accept_prefers_html(Text("text/html;q=0.5, application/json")));
  EXPECT_TRUE(accept_prefers_html(Text("application/json;q=0.2, text/*")));
  EXPECT_FALSE(accept_prefers_html(Text("text/html;q=0")));
  EXPECT_FALSE(accept_prefers_html(Text(";;,,/,q=,text/html;q=abc")));

  Request r;
  r.raw_path = Text("/account/a b");
  r.raw_query = Text("tab=1&x=%2F");
  r.headers.push_back(Header{Text("Accept"), Text("text/html")});
  Response denied = Response::error(401, Text("missing bearer token"));
  Response out = login_redirect(r, denied, Text("/login"));
  EXPECT_EQ(out.status, 302);
  EXPECT_EQ(cookie_str_of(out.header("location").value()), "/login?next=/account/a%20b%3Ftab%3D1%26x%3D%252F");
  Response forbidden = Response::error(403, Text("access forbidden"));
  EXPECT_EQ(login_redirect(r, forbidden, Text("/login")).status, 403);
  Request api;
  api.raw_path = Text("/account");
  api.headers.push_back(Header{Text("Accept"), Text("application/json")});
  EXPECT_EQ(login_redirect(api, denied, Text("/login")).status, 401);
}

}  // namespace
}  // namespace fitz::http
