// Hover on `.fitzv` views: names say their type and origin from the view IR; code inside
// bodies and interpolations answers like the same code in a module.
#include "tests/unit/lsp/view_fixture.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

std::string view_hover_text(const Fixture& f, const std::string& name, uint32_t offset) {
  auto h = view_hover(f.a(), test_support::view_file(f, name), offset);
  return h ? h->markdown : "<none>";
}

TEST(ViewHover, FieldsEventsAndComponentsSayWhatTheyAre) {
  Fixture f;
  const auto& a = f.file("Counter.fitzv", R"V(component Co^unter {
  props { step: Int = 1 }
  state { co^unt: Int = 0, label: Str = "n" }
  derived { doubled: Int = count * 2 }
  event a^dd(n: Int) { count = c^ount + n * st^ep }
  <template>
    <p>{lab^el}: {doub^led}</p>
    <button @click="a^dd(n: 2)">+</button>
    <p>{label.l^en()}</p>
  </template>
}
)V");
  f.analyse("Counter.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  auto h = [&](size_t i) { return view_hover_text(f, "Counter.fitzv", a.point(i)); };
  EXPECT_NE(h(0).find("component Counter"), std::string::npos) << h(0);
  EXPECT_NE(h(0).find("step: Int = ..."), std::string::npos) << h(0);
  EXPECT_NE(h(1).find("count: Int"), std::string::npos) << h(1);
  EXPECT_NE(h(1).find("state field of `Counter`"), std::string::npos) << h(1);
  EXPECT_NE(h(2).find("event add(n: Int)"), std::string::npos) << h(2);
  EXPECT_NE(h(3).find("state field of `Counter`"), std::string::npos) << h(3);
  EXPECT_NE(h(4).find("step: Int"), std::string::npos) << h(4);
  EXPECT_NE(h(4).find("prop of `Counter`"), std::string::npos) << h(4);
  EXPECT_NE(h(5).find("label: Str"), std::string::npos) << h(5);
  EXPECT_NE(h(5).find("state field of `Counter`"), std::string::npos) << h(5);
  EXPECT_NE(h(6).find("derived value of `Counter`"), std::string::npos) << h(6);
  EXPECT_NE(h(7).find("event add(n: Int)"), std::string::npos) << h(7);
  EXPECT_NE(h(8).find("len"), std::string::npos) << h(8);
  EXPECT_NE(h(8).find("Int"), std::string::npos) << h(8);
}

TEST(ViewHover, ChildTagsAndTheirProps) {
  Fixture f;
  f.file("Badge.fitzv", "component Badge {\n  props { text: Str, big: Bool = false }\n  <template><b>{text}</b></template>\n}\n");
  const auto& a = f.file("Page.fitzv", R"V(from Badge import Badge
component Page {
  state { name: Str = "x" }
  <template>
    <Bad^ge te^xt={name} />
  </template>
}
)V");
  f.analyse("Page.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  std::string tag = view_hover_text(f, "Page.fitzv", a.point(0));
  EXPECT_NE(tag.find("component Badge"), std::string::npos) << tag;
  EXPECT_NE(tag.find("text: Str"), std::string::npos) << tag;
  std::string prop = view_hover_text(f, "Page.fitzv", a.point(1));
  EXPECT_NE(prop.find("prop of `Badge`"), std::string::npos) << prop;
}

}  // namespace
}  // namespace fitz::lsp
