// Hover, signature help, inlay hints and code actions, on annotated sources.
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

std::string hover_text(Fixture& f, uint32_t offset) {
  auto h = hover(f.a(), f.module(), offset);
  return h ? h->markdown : "<none>";
}

TEST(Hover, VariablesParamsAndFunctions) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "// Adds one.\nfn inc(n: Int) -> Int => ^n + 1\nlet nu^m = inc(2)\nprint(i^nc(num))\n");
  f.analyse("main.fitz");
  EXPECT_NE(hover_text(f, a.point(0)).find("(parameter) n: Int"), std::string::npos) << hover_text(f, a.point(0));
  EXPECT_NE(hover_text(f, a.point(1)).find("let num: Int"), std::string::npos) << hover_text(f, a.point(1));
  std::string fn = hover_text(f, a.point(2));
  EXPECT_NE(fn.find("fn inc(n: Int) -> Int"), std::string::npos) << fn;
  EXPECT_NE(fn.find("Adds one."), std::string::npos) << fn;
}

TEST(Hover, RouteHandlerShowsTheServiceModel) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "type User {\n    id: Int\n}\n\n@auth_provider\nfn who(headers: Map<Str, Str>) -> Result<User> "
                         "{\n    return Err(\"no\")\n}\n\nfn log_it(req: Request) => null\n\n"
                         "@put(\"/notes/{id}?dry={dry}\")\n@requires(\"editor\")\n@middleware(log_it)\n"
                         "fn sa^ve(id: Int, dry: Bool = false, user: User, text: Map<Str, Str>) -> Int => id\n"
                         "print(w^ho)\n");
  f.analyse("main.fitz");
  std::string h = hover_text(f, a.point(0));
  EXPECT_NE(h.find("**PUT** `/notes/{id}?dry={dry}` · authenticated; a role of `editor`"), std::string::npos) << h;
  EXPECT_NE(h.find("- `id`: path segment 1"), std::string::npos) << h;
  EXPECT_NE(h.find("- `dry`: query `dry` (optional)"), std::string::npos) << h;
  EXPECT_NE(h.find("- `user`: the authenticated user"), std::string::npos) << h;
  EXPECT_NE(h.find("- `text`: the body (form or JSON object)"), std::string::npos) << h;
  EXPECT_NE(h.find("- middleware: `log_it` (before)"), std::string::npos) << h;
  // Not a route handler: no route section.
  EXPECT_EQ(hover_text(f, a.point(1)).find("**"), std::string::npos) << hover_text(f, a.point(1));
}

TEST(Hover, CookieBindingsAndDecorator) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "@get(\"/prefs\")\n"
                         "fn pr^efs(@cookie theme: Str, @cookie(\"sid\", signed=true) session: Str?) -> Str => theme\n"
                         "@get(\"/x\")\nfn x(@coo^kie lang: Str?) -> Str => \"x\"\n");
  f.analyse("main.fitz");
  std::string h = hover_text(f, a.point(0));
  EXPECT_NE(h.find("- `theme`: cookie `theme`"), std::string::npos) << h;
  EXPECT_EQ(h.find("- `theme`: cookie `theme` (optional)"), std::string::npos) << h;
  EXPECT_NE(h.find("- `session`: signed cookie `sid` (optional)"), std::string::npos) << h;
  // The decorator's hover is its registry entry.
  std::string d = hover_text(f, a.point(1));
  EXPECT_NE(d.find("Binds a request cookie"), std::string::npos) << d;
}

TEST(Hover, BuiltinMethodHasDoc) {
  Fixture f;
  const auto& a = f.file("main.fitz", "let s = \"hi\"\nprint(s.up^per())\n");
  f.analyse("main.fitz");
  std::string h = hover_text(f, a.point());
  EXPECT_NE(h.find("upper"), std::string::npos) << h;
  EXPECT_NE(h.find("Str"), std::string::npos) << h;
}

TEST(Hover, ExpressionType) {
  Fixture f;
  const auto& a = f.file("main.fitz", "let xs = [1, 2.5^]\n");
  f.analyse("main.fitz");
  auto h = hover(f.a(), f.module(), a.point());
  ASSERT_TRUE(h);
  EXPECT_NE(h->markdown.find("Float"), std::string::npos) << h->markdown;
}

TEST(Hover, StructAndField) {
  Fixture f;
  const auto& a = f.file("main.fitz", "type Pt {\n    x: Int\n    y: Float = 0.0\n}\nlet p = P^t { x: 1 }\nprint(p.^x)\n");
  f.analyse("main.fitz");
  std::string t = hover_text(f, a.point(0));
  EXPECT_NE(t.find("type Pt {"), std::string::npos) << t;
  EXPECT_NE(t.find("y: Float = …"), std::string::npos) << t;
  EXPECT_NE(hover_text(f, a.point(1)).find("(field) Pt.x: Int"), std::string::npos);
}

TEST(Hover, HalfTypedCodeDoesNotCrash) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn f(a: Int {\n    let b = a +\n    retu^rn (b\n");
  f.analyse("main.fitz");
  (void)hover(f.a(), f.module(), a.point());
  for (uint32_t i = 0; i <= a.text.size(); ++i) (void)hover(f.a(), f.module(), i);
}

TEST(SignatureHelp, UserFunctionActiveParameter) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn add(a: Int, b: Int = 2) -> Int => a + b\nprint(add(1, ^3))\n");
  f.analyse("main.fitz");
  auto s = signature_help(f.a(), f.module(), a.point());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->label, "add(a: Int, b: Int = 2) -> Int");
  ASSERT_EQ(s->params.size(), 2u);
  EXPECT_EQ(s->label.substr(s->params[1].first, s->params[1].second - s->params[1].first), "b: Int = 2");
  EXPECT_EQ(s->active_parameter, 1u);
}

TEST(SignatureHelp, HalfTypedCallOfAHangulFunction) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn 더하기(가: Int, 나: Int) -> Int => 가 + 나\nlet x = 더하기(1, ^\n");
  f.analyse("main.fitz");
  auto s = signature_help(f.a(), f.module(), a.point());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->label, "더하기(가: Int, 나: Int) -> Int");
  EXPECT_EQ(s->active_parameter, 1u);
}

TEST(SignatureHelp, BuiltinAndIncompleteCall) {
  Fixture f;
  const auto& a = f.file("main.fitz", "let s = \"a,b\"\nprint(s.split(^\",\"))\nlet t = s.replace(\"a\", ^\n");
  f.analyse("main.fitz");
  auto s = signature_help(f.a(), f.module(), a.point(0));
  ASSERT_TRUE(s);
  EXPECT_NE(s->label.find("split"), std::string::npos) << s->label;
  EXPECT_FALSE(s->doc.empty());
  (void)signature_help(f.a(), f.module(), a.point(1));  // half-typed: must not crash
}

TEST(InlayHints, LetAndLambdaParams) {
  Fixture f;
  const auto& a = f.file("main.fitz", "let n^ = 1\nlet xs^ = [1, 2].map(fn(v^) => v * 2)\nlet s: Str = \"x\"\n");
  f.analyse("main.fitz");
  auto hints = inlay_hints(f.a(), f.module(), 0, uint32_t(a.text.size()));
  ASSERT_EQ(hints.size(), 3u);
  EXPECT_EQ(hints[0].offset, a.point(0));
  EXPECT_EQ(hints[0].label, ": Int");
  EXPECT_EQ(hints[1].offset, a.point(1));
  EXPECT_EQ(hints[1].label, ": List<Int>");
  EXPECT_EQ(hints[2].offset, a.point(2));
  EXPECT_EQ(hints[2].label, ": Int");
}

TEST(Diagnostics, SameAsCliAndQuickFix) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn greet(name: Str) -> Str => \"hi {name}\"\nprint([[gret]](\"x\"))\n");
  f.analyse("main.fitz");
  auto ds = diagnostics_for(f.a(), f.path("main.fitz"));
  ASSERT_FALSE(ds.empty());
  auto acts = code_actions(f.a(), f.path("main.fitz"), a.ranges[0].first, a.ranges[0].first);
  ASSERT_EQ(acts.size(), 1u);
  ASSERT_EQ(acts[0].edits.size(), 1u);
  EXPECT_EQ(acts[0].edits[0].new_text, "greet");
  EXPECT_EQ(f.range(acts[0].edits[0].span), a.ranges[0]);
  EXPECT_NE(acts[0].title.find("greet"), std::string::npos);
}

}  // namespace
}  // namespace fitz::lsp
