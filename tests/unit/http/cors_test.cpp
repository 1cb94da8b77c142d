// CORS decisions: origin modes, preflight headers, option parsing from the `cors({...})`
// map literal, and merging of routes that share a path.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "http/internal.h"

namespace fitz::http {
namespace {

std::string hdr(const Response& r, const char* name) {
  auto v = r.header(Text(name, std::strlen(name)));
  return v.has_value() ? std::string(v.value().data(), v.value().size()) : "<none>";
}

TEST(Cors, AnyOrigin) {
  CorsOptions c;
  Response r;
  cors_apply(c, Text("https://a.example"), r);
  EXPECT_EQ(hdr(r, "access-control-allow-origin"), "*");
  EXPECT_EQ(hdr(r, "vary"), "<none>");
}

TEST(Cors, ListEchoesMatchingOriginOnly) {
  CorsOptions c;
  c.origin = CorsOptions::Origin::List;
  c.origins = {"https://a.example"_s, "https://b.example"_s};
  Response ok, no;
  cors_apply(c, Text("https://b.example"), ok);
  EXPECT_EQ(hdr(ok, "Access-Control-Allow-Origin"), "https://b.example");
  EXPECT_EQ(hdr(ok, "Vary"), "Origin");
  cors_apply(c, Text("https://evil.example"), no);
  EXPECT_EQ(hdr(no, "Access-Control-Allow-Origin"), "<none>");
}

TEST(Cors, EchoAndCredentials) {
  CorsOptions c;
  c.origin = CorsOptions::Origin::Echo;
  c.allow_credentials = true;
  Response r;
  cors_apply(c, Text("http://x"), r);
  EXPECT_EQ(hdr(r, "Access-Control-Allow-Origin"), "http://x");
  EXPECT_EQ(hdr(r, "Access-Control-Allow-Credentials"), "true");
  Response none;
  cors_apply(c, Text(), none);
  EXPECT_EQ(hdr(none, "Access-Control-Allow-Origin"), "<none>");
}

TEST(Cors, Preflight) {
  CorsOptions c;
  c.max_age = 600;
  Response r = cors_preflight(c, Text("http://x"));
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(hdr(r, "Access-Control-Allow-Methods"), "GET, POST, PUT, DELETE, OPTIONS");
  EXPECT_EQ(hdr(r, "Access-Control-Allow-Headers"), "content-type, authorization");
  EXPECT_EQ(hdr(r, "Access-Control-Max-Age"), "600");
  EXPECT_TRUE(r.body.empty());
}

TEST(Cors, FromMapAndMerge) {
  Map<Str, Any> m{{"allow_origin"_s, to_any(List<Str>{"https://a"_s})},
                  {"allow_methods"_s, to_any(List<Str>{"get"_s, "PATCH"_s})},
                  {"max_age"_s, Any(int64_t(10))}};
  auto r = CorsOptions::from_map(m);
  ASSERT_TRUE(r.is_ok());
  CorsOptions c = r.value();
  EXPECT_EQ(c.origin, CorsOptions::Origin::List);
  ASSERT_EQ(c.methods.size(), 2u);
  EXPECT_EQ(std::string(c.methods[0].c_str()), "GET");
  CorsOptions other;
  other.max_age = 99;
  other.headers = {"x-custom"_s};
  c.merge(other);
  EXPECT_EQ(c.max_age, 99);
  EXPECT_EQ(c.methods.size(), 6u);  // GET PATCH, then POST PUT DELETE OPTIONS
  EXPECT_EQ(c.origin, CorsOptions::Origin::List);
  Map<Str, Any> bad{{"allow_origin"_s, Any(int64_t(1))}};
  EXPECT_FALSE(CorsOptions::from_map(bad).is_ok());
  Map<Str, Any> unknown{{"origin"_s, Any("*")}};
  EXPECT_FALSE(CorsOptions::from_map(unknown).is_ok());
}

}  // namespace
}  // namespace fitz::http
