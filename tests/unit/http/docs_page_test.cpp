// The built-in /docs page: served next to /openapi.json, self-contained (nothing fetched from
// another origin: no CDN, no external script, style or font), reading the document relatively.
#include <gtest/gtest.h>

#include <cstring>
#include <regex>
#include <string>

#include "http/internal.h"
#include "http/docs_page.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

Response get(App& app, const char* target) {
  Request r;
  r.method = Method::Get;
  r.target = Text(target, std::strlen(target));
  return app.handle(r);
}

TEST(DocsPage, ServedWithTheDocument) {
  App app;
  app.config().access_log = false;
  app.get("/ping", [](Request&) { return Response::json_value(200, int64_t(1)); });
  app.openapi(Str::lit(R"({"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{}})"), Str());
  Response doc = get(app, "/openapi.json");
  EXPECT_EQ(doc.status, 200);
  EXPECT_NE(s(doc.body).find("3.1.0"), std::string::npos);
  Response page = get(app, "/docs");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(s(page.content_type), "text/html; charset=utf-8");
  EXPECT_EQ(s(page.body), std::string(docs_page()));
}

TEST(DocsPage, SelfContained) {
  std::string page(docs_page());
  // No absolute URLs at all: every resource is inline, the document is fetched relatively.
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_FALSE(std::regex_search(page, std::regex(R"((src|href)\s*=\s*["']?//)")));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(<(script|link)[^>]*(src|href)=)")));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(@import|url\()")));
  EXPECT_NE(page.find("fetch(\"openapi.json\")"), std::string::npos);
  // Values from the document are inserted as text, never parsed as markup.
  EXPECT_EQ(page.find("innerHTML"), std::string::npos);
  EXPECT_EQ(page.find("insertAdjacentHTML"), std::string::npos);
  EXPECT_EQ(page.find("document.write"), std::string::npos);
  EXPECT_EQ(page.find("eval("), std::string::npos);
}

TEST(DocsPage, ProgramPageWins) {
  App app;
  app.config().access_log = false;
  app.get("/ping", [](Request&) { return Response::json_value(200, int64_t(1)); });
  app.openapi(Str::lit("{}"), Str::lit("<p>custom</p>"));
  EXPECT_EQ(s(get(app, "/docs").body), "<p>custom</p>");
}

}  // namespace
}  // namespace fitz::http
