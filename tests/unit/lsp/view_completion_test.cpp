// Completion in `.fitzv` views: `{` offers the names in scope and the directives, `@` the
// events, `<` the components, a child component's tag its props, bodies what modules offer.
#include "tests/unit/lsp/view_fixture.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

std::vector<std::string> view_labels(const Fixture& f, const std::string& name, std::string_view text, uint32_t offset) {
  std::vector<std::string> out;
  for (const auto& c : view_completion(f.a(), test_support::view_file(f, name), text, offset)) out.push_back(c.label);
  return out;
}

bool view_has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(ViewCompletion, TemplateContexts) {
  Fixture f;
  f.file("Badge.fitzv", "component Badge {\n  props { text: Str, big: Bool = false }\n  <template><b>{text}</b></template>\n}\n");
  const auto& a = f.file("Page.fitzv", R"V(from Badge import Badge
component Page {
  props { title: Str = "t" }
  state { name: Str = "x" }
  derived { size: Int = name.len() }
  event save() { name = "" }
  event clear() { name = "" }
  <template>
    <p>{^name}</p>
    <button @^click="save">s</button>
    <^Badge ^text={name} />
    <p>{name.^len()}</p>
  </template>
}
)V");
  f.analyse("Page.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  auto names = view_labels(f, "Page.fitzv", a.text, a.point(0));
  for (const char* n : {"title", "name", "size", "#if", "#for", ":else", "/if"}) EXPECT_TRUE(view_has(names, n)) << n;
  EXPECT_FALSE(view_has(names, "save"));
  auto events = view_labels(f, "Page.fitzv", a.text, a.point(1));
  EXPECT_EQ(events, (std::vector<std::string>{"save", "clear"}));
  auto comps = view_labels(f, "Page.fitzv", a.text, a.point(2));
  EXPECT_TRUE(view_has(comps, "Badge"));
  EXPECT_FALSE(view_has(comps, "Page"));
  auto props = view_labels(f, "Page.fitzv", a.text, a.point(3));
  EXPECT_EQ(props, (std::vector<std::string>{"text", "big"}));
  auto members = view_labels(f, "Page.fitzv", a.text, a.point(4));
  EXPECT_TRUE(view_has(members, "len")) << members.size();
}

TEST(ViewCompletion, DirectivesAfterTheirSigil) {
  Fixture f;
  const auto& a = f.file("V.fitzv", "component V {\n  state { n: Int = 0 }\n  <template>\n    {#^}\n    {/^}\n  </template>\n}\n");
  f.analyse("V.fitzv");
  EXPECT_EQ(view_labels(f, "V.fitzv", a.text, a.point(0)), (std::vector<std::string>{"if", "for"}));
  EXPECT_EQ(view_labels(f, "V.fitzv", a.text, a.point(1)), (std::vector<std::string>{"if", "for"}));
}

TEST(ViewCompletion, BodiesCompleteLikeModules) {
  Fixture f;
  const auto& a = f.file("V.fitzv", "component V {\n  state { items: List<Int> = [] }\n  event add(n: Int) { items.pu^sh(n) }\n  <template><p>{items.len()}</p></template>\n}\n");
  f.analyse("V.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  EXPECT_TRUE(view_has(view_labels(f, "V.fitzv", a.text, a.point(0)), "push"));
}

}  // namespace
}  // namespace fitz::lsp
