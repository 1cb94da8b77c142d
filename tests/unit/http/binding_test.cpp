// Request helpers and parameter binding: targets, query and header lookup, forms, typed
// path/query/header parameters with the spec's 400 messages, JSON bodies (400 / 415).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "http/internal.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

Request make_request(const char* target) {
  Request r;
  r.target = Text(target, std::strlen(target));
  EXPECT_TRUE(detail::split_target(r));
  return r;
}

std::string error_body(const Binder& b) { return s(b.error().body); }

TEST(Target, SplitsPathAndQuery) {
  Request r = make_request("/a%20b/c?x=1&y=%41+B#frag");
  EXPECT_EQ(s(r.path), "/a b/c");
  EXPECT_EQ(std::string(r.raw_query.data, r.raw_query.size), "x=1&y=%41+B");
  EXPECT_EQ(s(r.query("y").value()), "A B");
  EXPECT_FALSE(r.query("z").has_value());
  Request bad;
  bad.target = Text("/x%G1");
  EXPECT_FALSE(detail::split_target(bad));
  bad.target = Text("http://host/x");
  EXPECT_FALSE(detail::split_target(bad));
}

TEST(Query, LastValueWinsAndEmptyValues) {
  Request r = make_request("/q?a=1&a=2&b=&c&d%5B%5D=x");
  EXPECT_EQ(s(r.query("a").value()), "2");
  EXPECT_EQ(s(r.query("b").value()), "");
  EXPECT_EQ(s(r.query("c").value()), "");
  EXPECT_EQ(s(r.query("d[]").value()), "x");
  EXPECT_EQ(r.query_map().len(), 4);
}

TEST(Headers, CaseInsensitiveLookup) {
  Request r = make_request("/");
  r.headers.push_back(Header{Text("X-Trace-Id"), Text("abc")});
  r.headers.push_back(Header{Text("Content-Type"), Text(" Application/JSON ; charset=utf-8")});
  EXPECT_EQ(s(r.header("x-trace-id").value()), "abc");
  EXPECT_EQ(s(r.content_type()), "application/json");
  Map<Str, Str> m = r.header_map();
  EXPECT_TRUE(m.has("x-trace-id"_s));
}

TEST(Parse, Scalars) {
  int64_t i;
  double f;
  bool b;
  EXPECT_TRUE(parse_int(Text("-42"), &i));
  EXPECT_EQ(i, -42);
  EXPECT_TRUE(parse_int(Text("9223372036854775807"), &i));
  EXPECT_FALSE(parse_int(Text("9223372036854775808"), &i));
  EXPECT_TRUE(parse_int(Text("-9223372036854775808"), &i));
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_FALSE(parse_int(Text("12a"), &i));
  EXPECT_FALSE(parse_int(Text(""), &i));
  EXPECT_FALSE(parse_int(Text("-"), &i));
  EXPECT_TRUE(parse_float(Text("2.5e1"), &f));
  EXPECT_EQ(f, 25.0);
  EXPECT_TRUE(parse_float(Text("3"), &f));
  EXPECT_FALSE(parse_float(Text("nan"), &f));
  EXPECT_FALSE(parse_float(Text("1e999"), &f));
  EXPECT_TRUE(parse_bool(Text("true"), &b));
  EXPECT_FALSE(parse_bool(Text("True"), &b));
  EXPECT_FALSE(parse_bool(Text("1"), &b));
}

TEST(Form, Decoding) {
  Map<Str, Str> m;
  ASSERT_TRUE(parse_form(Text("a=1+2&b=%C3%A9&a=3&&c"), &m));
  EXPECT_EQ(s(m.at("a"_s)), "3");
  EXPECT_EQ(s(m.at("b"_s)), "\xC3\xA9");
  EXPECT_EQ(s(m.at("c"_s)), "");
  Map<Str, Str> bad;
  EXPECT_FALSE(parse_form(Text("a=%2"), &bad));
}

TEST(Binder, PathParams) {
  Request r = make_request("/users/abc");
  r.params = {"abc"_s};
  Binder b(r);
  EXPECT_EQ(b.path_int(0, "id"), 0);
  EXPECT_TRUE(b.failed());
  EXPECT_EQ(b.error().status, 400);
  EXPECT_EQ(error_body(b), R"({"error":"path param 'id': expected Int, received 'abc'"})");
  Request r2 = make_request("/x");
  r2.params = {"1.5"_s, "true"_s, "s"_s};
  Binder b2(r2);
  EXPECT_EQ(b2.path_float(0, "f"), 1.5);
  EXPECT_TRUE(b2.path_bool(1, "b"));
  EXPECT_EQ(s(b2.path_str(2, "s")), "s");
  EXPECT_FALSE(b2.failed());
}

TEST(Binder, QueryParams) {
  Request r = make_request("/q?limit=10&q=a+b&flag=false&bad=x");
  Binder b(r);
  EXPECT_EQ(b.query_int("limit"), 10);
  EXPECT_EQ(s(b.query_str("q")), "a b");
  EXPECT_FALSE(b.query_bool("flag"));
  EXPECT_FALSE(b.query_int_opt("missing").has_value());
  EXPECT_FALSE(b.failed());
  b.query_int("missing");
  EXPECT_EQ(error_body(b), R"({"error":"query param 'missing': missing — it is required"})");
  Binder b2(r);
  b2.query_float_opt("bad");
  EXPECT_EQ(error_body(b2), R"({"error":"query param 'bad': expected Float, received 'x'"})");
}

TEST(Binder, Headers) {
  Request r = make_request("/");
  r.headers.push_back(Header{Text("X-Trace-Id"), Text("t1")});
  Binder b(r);
  EXPECT_EQ(s(b.header_str("x-trace-id")), "t1");
  EXPECT_FALSE(b.header_opt("authorization").has_value());
  b.header_str("Authorization");
  EXPECT_EQ(error_body(b), R"({"error":"header 'Authorization': missing — it is required"})");
}

TEST(Binder, TooManyKeysIs413) {
  std::string body = "{";
  for (int i = 0; i <= 10000; ++i) body += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  body += "}";
  Request r = make_request("/");
  r.body = Text(body.data(), body.size());
  Binder b(r);
  b.body_json<Map<Str, int64_t>>("Counts");
  EXPECT_EQ(b.error().status, 413);
  EXPECT_EQ(error_body(b), R"({"error":"body is too large: an object has more than 10000 keys"})");
}

TEST(Binder, JsonBody) {
  Request r = make_request("/");
  r.body = Text(R"({"a":1})");
  Binder b(r);
  Map<Str, int64_t> m = b.body_json<Map<Str, int64_t>>("Counts");
  EXPECT_FALSE(b.failed());
  EXPECT_EQ(m.at("a"_s), 1);

  r.body = Text(R"({"a":"x"})");
  Binder b2(r);
  b2.body_json<Map<Str, int64_t>>("Counts");
  EXPECT_EQ(error_body(b2), R"({"error":"body for 'Counts': field 'a': expected Int, found Str"})");

  r.body = Text(R"({"a":)");
  Binder b3(r);
  b3.body_json<Map<Str, int64_t>>("Counts");
  EXPECT_EQ(error_body(b3), R"({"error":"body is not valid JSON: unexpected end of input at line 1, column 6"})");

  r.body = Text("  ");
  Binder b4(r);
  b4.body_json<Map<Str, int64_t>>("Counts");
  EXPECT_EQ(error_body(b4), R"({"error":"request body is empty"})");

  r.body = Text("a=1");
  r.headers.push_back(Header{Text("content-type"), Text("text/csv")});
  Binder b5(r);
  b5.body_json<Map<Str, int64_t>>("Counts");
  EXPECT_EQ(b5.error().status, 415);
  EXPECT_EQ(error_body(b5), R"({"error":"unsupported Content-Type: 'text/csv'"})");
}

TEST(Binder, FormBody) {
  Request r = make_request("/");
  r.headers.push_back(Header{Text("Content-Type"), Text("application/x-www-form-urlencoded")});
  r.body = Text("name=J+D&age=3");
  Binder b(r);
  Map<Str, Str> m = b.body_form();
  EXPECT_FALSE(b.failed());
  EXPECT_EQ(s(m.at("name"_s)), "J D");
}

}  // namespace
}  // namespace fitz::http
