// The route template parser (checker/route_template.h) that the decorator check, the binding
// check and the service model share: path and query split, placeholders in order, and the
// problems the checker reports.
#include <gtest/gtest.h>

#include "checker/route_template.h"

namespace fitz::checker {
namespace {

std::vector<TemplatePiece> pieces(std::initializer_list<std::pair<bool, const char*>> parts) {
  std::vector<TemplatePiece> out;
  for (const auto& [hole, text] : parts) out.push_back(TemplatePiece{hole, text});
  return out;
}

TEST(RouteTemplate, PathAndQuery) {
  std::vector<TemplateProblem> problems;
  RouteTemplate t = parse_route_template(
      pieces({{false, "/users/"}, {true, "id"}, {false, "/posts?page="}, {true, "page"}, {false, "&q="}, {true, "q"}}),
      &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(t.text, "/users/{id}/posts?page={page}&q={q}");
  EXPECT_EQ(t.path, "/users/{id}/posts");
  EXPECT_EQ(t.path_params, (std::vector<std::string>{"id"}));
  ASSERT_EQ(t.query.size(), 2u);
  EXPECT_EQ(t.query[0].key, "page");
  EXPECT_EQ(t.query[0].param, "page");
  EXPECT_EQ(t.query[1].key, "q");
}

TEST(RouteTemplate, PlainPath) {
  RouteTemplate t = parse_route_template(pieces({{false, "/health"}}));
  EXPECT_EQ(t.path, "/health");
  EXPECT_TRUE(t.path_params.empty());
  EXPECT_TRUE(t.query.empty());
}

TEST(RouteTemplate, Problems) {
  std::vector<TemplateProblem> problems;
  RouteTemplate t = parse_route_template(
      pieces({{false, "/a/"}, {true, "id"}, {false, "/b/"}, {true, "id"}, {false, "?limit="}, {true, "n"}}), &problems);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].kind, TemplateProblem::Kind::Repeated);
  EXPECT_EQ(problems[0].name, "id");
  EXPECT_EQ(problems[1].kind, TemplateProblem::Kind::QueryKeyMismatch);
  EXPECT_EQ(problems[1].name, "n");
  EXPECT_EQ(problems[1].key, "limit");
  // The query still binds the placeholder, under the key as written.
  ASSERT_EQ(t.query.size(), 1u);
  EXPECT_EQ(t.query[0].key, "limit");
  EXPECT_EQ(t.query[0].param, "n");
}

}  // namespace
}  // namespace fitz::checker
