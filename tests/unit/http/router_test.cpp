// Router: static segments, parameters, backtracking, 404 vs 405 with Allow, HEAD, trailing
// slashes, percent-decoding, template validation.
#include <gtest/gtest.h>

#include "http/internal.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

struct RouterFixture : testing::Test {
  Router r;
  std::string err;
  void add(Method m, const char* path, uint32_t id) { ASSERT_TRUE(r.add(m, path, id, &err)) << err; }
};

TEST_F(RouterFixture, StaticAndParams) {
  add(Method::Get, "/", 0);
  add(Method::Get, "/users", 1);
  add(Method::Get, "/users/{id}", 2);
  add(Method::Get, "/users/me", 3);
  add(Method::Get, "/users/{id}/posts/{post}", 4);
  std::vector<Str> p;
  EXPECT_EQ(r.match(Method::Get, "/", &p).route_id, 0u);
  EXPECT_EQ(r.match(Method::Get, "/users", &p).route_id, 1u);
  auto m = r.match(Method::Get, "/users/42", &p);
  EXPECT_EQ(m.kind, Router::Match::Found);
  EXPECT_EQ(m.route_id, 2u);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(s(p[0]), "42");
  EXPECT_EQ(r.match(Method::Get, "/users/me", &p).route_id, 3u);
  EXPECT_TRUE(p.empty());
  m = r.match(Method::Get, "/users/7/posts/x", &p);
  EXPECT_EQ(m.route_id, 4u);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(s(p[1]), "x");
}

TEST_F(RouterFixture, BacktracksFromStaticToParam) {
  add(Method::Get, "/a/b/c", 0);
  add(Method::Get, "/a/{x}/d", 1);
  std::vector<Str> p;
  auto m = r.match(Method::Get, "/a/b/d", &p);
  EXPECT_EQ(m.route_id, 1u);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(s(p[0]), "b");
}

TEST_F(RouterFixture, NotFoundVsMethodNotAllowed) {
  add(Method::Get, "/items/{id}", 0);
  add(Method::Delete, "/items/{id}", 1);
  std::vector<Str> p;
  EXPECT_EQ(r.match(Method::Get, "/nope", &p).kind, Router::Match::NotFound);
  EXPECT_EQ(r.match(Method::Get, "/items", &p).kind, Router::Match::NotFound);
  auto m = r.match(Method::Post, "/items/3", &p);
  EXPECT_EQ(m.kind, Router::Match::MethodNotAllowed);
  EXPECT_EQ(Router::allow_header(m.allow_mask), "GET, HEAD, DELETE");
}

TEST_F(RouterFixture, MethodOnParamBranchBeatsStatic405) {
  add(Method::Get, "/users/me", 0);
  add(Method::Delete, "/users/{id}", 1);
  std::vector<Str> p;
  auto m = r.match(Method::Delete, "/users/me", &p);
  EXPECT_EQ(m.kind, Router::Match::Found);
  EXPECT_EQ(m.route_id, 1u);
}

TEST_F(RouterFixture, HeadFallsBackToGet) {
  add(Method::Get, "/h", 0);
  std::vector<Str> p;
  EXPECT_EQ(r.match(Method::Head, "/h", &p).route_id, 0u);
}

TEST_F(RouterFixture, TrailingSlashIsSignificant) {
  add(Method::Get, "/users", 0);
  std::vector<Str> p;
  EXPECT_EQ(r.match(Method::Get, "/users/", &p).kind, Router::Match::NotFound);
  EXPECT_EQ(r.match(Method::Get, "//users", &p).kind, Router::Match::NotFound);
}

TEST_F(RouterFixture, EmptySegmentBindsNoParameter) {
  add(Method::Get, "/todos", 0);
  add(Method::Get, "/todos/{id}", 1);
  add(Method::Get, "/a/{x}/b", 2);
  std::vector<Str> p;
  EXPECT_EQ(r.match(Method::Get, "/todos/", &p).kind, Router::Match::NotFound);
  EXPECT_EQ(r.match(Method::Get, "/a//b", &p).kind, Router::Match::NotFound);
  EXPECT_EQ(r.match(Method::Get, "/todos/1", &p).route_id, 1u);
}

TEST_F(RouterFixture, PercentDecodingPerSegment) {
  add(Method::Get, "/files/{name}", 0);
  add(Method::Get, "/caf\xC3\xA9", 1);
  std::vector<Str> p;
  auto m = r.match(Method::Get, "/files/a%2Fb", &p);
  EXPECT_EQ(m.route_id, 0u);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(s(p[0]), "a/b");
  EXPECT_EQ(r.match(Method::Get, "/caf%C3%A9", &p).route_id, 1u);
  EXPECT_EQ(r.match(Method::Get, "/files/%zz", &p).kind, Router::Match::NotFound);
}

TEST_F(RouterFixture, RepeatedRouteIsAnError) {
  add(Method::Get, "/x/{a}", 0);
  EXPECT_FALSE(r.add(Method::Get, "/x/{b}", 1, &err));
  EXPECT_NE(err.find("repeated route"), std::string::npos);
}

TEST(RouteTemplate, Validation) {
  std::string path, err;
  std::vector<std::string> params, query;
  ASSERT_TRUE(parse_template("/users/{id}?limit={limit}&q={q}", &path, &params, &query, &err)) << err;
  EXPECT_EQ(path, "/users/{id}");
  EXPECT_EQ(params, std::vector<std::string>{"id"});
  EXPECT_EQ(query, (std::vector<std::string>{"limit", "q"}));
  EXPECT_FALSE(parse_template("users", &path, &params, &query, &err));
  EXPECT_FALSE(parse_template("/a/{1x}", &path, &params, &query, &err));
  EXPECT_FALSE(parse_template("/a/{x}/{x}", &path, &params, &query, &err));
  EXPECT_FALSE(parse_template("/a/x{y}", &path, &params, &query, &err));
  EXPECT_FALSE(parse_template("/a?limit={lim}", &path, &params, &query, &err));
  EXPECT_FALSE(parse_template("/a/{x}?x={x}", &path, &params, &query, &err));
}

}  // namespace
}  // namespace fitz::http
