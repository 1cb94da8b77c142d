// Go-to-definition, document symbols and rename on `.fitzv` views.
#include "tests/unit/lsp/view_fixture.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

constexpr const char* kCounterView = R"V(component [[Counter]] {
  props { [[step]]: Int = 1 }
  state { [[count]]: Int = 0 }
  event [[add]](n: Int) { co^unt = count + n * st^ep }
  event reset() { count = 0 }
  <template>
    <p>{cou^nt}</p>
    <button @click="ad^d(n: 1)" disabled={count > 9}>+</button>
    <button @click="reset">0</button>
  </template>
}
)V";

TEST(ViewDefinition, NamesEventsAndComponents) {
  Fixture f;
  const auto& a = f.file("Counter.fitzv", kCounterView);
  const auto& p = f.file("Page.fitzv", "from Counter import Counter\ncomponent Page {\n  <template><Coun^ter step={2} /></template>\n}\n");
  f.analyse("Page.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  const auto& counter = test_support::view_file(f, "Counter.fitzv");
  auto def = [&](uint32_t off) {
    auto d = view_definition(f.a(), counter, off);
    return d.size() == 1 ? f.range(d[0]) : std::pair<uint32_t, uint32_t>{0, 0};
  };
  EXPECT_EQ(def(a.point(0)), a.ranges[2]);  // count in a body -> the state field
  EXPECT_EQ(def(a.point(1)), a.ranges[1]);  // step -> the prop
  EXPECT_EQ(def(a.point(2)), a.ranges[2]);  // {count} -> the state field
  EXPECT_EQ(def(a.point(3)), a.ranges[3]);  // @click="add" -> event add
  auto tag = view_definition(f.a(), test_support::view_file(f, "Page.fitzv"), p.point(0));
  ASSERT_EQ(tag.size(), 1u);
  EXPECT_EQ(f.file_of(tag[0]), "Counter.fitzv");
  EXPECT_EQ(f.range(tag[0]), a.ranges[0]);  // <Counter> -> component Counter
}

TEST(ViewSymbols, ComponentsWithTheirFieldsAndEvents) {
  Fixture f;
  f.file("Counter.fitzv", kCounterView);
  f.analyse("Counter.fitzv");
  auto syms = view_document_symbols(f.a(), test_support::view_file(f, "Counter.fitzv"));
  ASSERT_EQ(syms.size(), 1u);
  EXPECT_EQ(syms[0].name, "Counter");
  std::vector<std::string> names;
  for (const auto& c : syms[0].children) names.push_back(c.name + " (" + c.detail + ")");
  EXPECT_EQ(names, (std::vector<std::string>{"step (prop: Int)", "count (state: Int)", "add (event)", "reset (event)"}));
  for (const auto& c : syms[0].children) {
    EXPECT_LE(syms[0].span.begin, c.span.begin);
    EXPECT_GE(syms[0].span.end, c.span.end);
    EXPECT_LE(c.span.begin, c.selection_span.begin);
  }
}

TEST(ViewSymbols, AsyncEventsAndHooksSaySo) {
  Fixture f;
  f.file("Slow.fitzv", R"V(component Slow {
  state { n: Int = 0 }
  async on mount {
    sleep(1).await
    n = 1
  }
  on every 1s { n = n + 1 }
  async event load() {
    sleep(1).await
    n = 2
  }
  <template><p>{n}</p></template>
}
)V");
  f.analyse("Slow.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  auto syms = view_document_symbols(f.a(), test_support::view_file(f, "Slow.fitzv"));
  ASSERT_EQ(syms.size(), 1u);
  std::vector<std::string> names;
  for (const auto& c : syms[0].children) names.push_back(c.name + " (" + c.detail + ")");
  EXPECT_EQ(names, (std::vector<std::string>{"n (state: Int)", "load (async event)", "on mount (async hook)", "on every (hook)"}));
}

// Applies edits of one file to its text.
std::string apply_edits(std::string text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) { return x.span.begin > y.span.begin; });
  for (const Edit& e : edits) text.replace(e.span.begin, e.span.end - e.span.begin, e.new_text);
  return text;
}

TEST(ViewRename, StateFieldAcrossBodiesTemplateAndBindings) {
  Fixture f;
  const auto& a = f.file("Form.fitzv", R"V(component Form {
  state { dr^aft: Str = "", sent: Int = 0 }
  derived { size: Int = draft.len() }
  event send() {
    sent = sent + 1
    draft = ""
  }
  event other(draft: Str) { sent = draft.len() }
  <template>
    <input bind:value={draft} />
    <p>{draft} ({size})</p>
    {#for draft2 in [draft]}<i>{draft2}</i>{/for}
    <button @click="se^nd">send</button>
  </template>
}
)V");
  f.analyse("Form.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  const auto& v = test_support::view_file(f, "Form.fitzv");
  std::string error;
  auto prep = view_prepare_rename(f.a(), v, a.point(0), error);
  ASSERT_TRUE(prep) << error;
  EXPECT_EQ(prep->placeholder, "draft");
  auto edits = view_rename(f.a(), v, a.point(0), "text", error);
  ASSERT_TRUE(edits) << error;
  ASSERT_EQ(edits->size(), 1u);
  std::string renamed = apply_edits(a.text, edits->begin()->second);
  // The parameter `draft` of `other` shadows the field and keeps its name.
  EXPECT_EQ(renamed, R"V(component Form {
  state { text: Str = "", sent: Int = 0 }
  derived { size: Int = text.len() }
  event send() {
    sent = sent + 1
    text = ""
  }
  event other(draft: Str) { sent = draft.len() }
  <template>
    <input bind:value={text} />
    <p>{text} ({size})</p>
    {#for draft2 in [text]}<i>{draft2}</i>{/for}
    <button @click="send">send</button>
  </template>
}
)V");

  auto ev = view_rename(f.a(), v, a.point(1), "submit", error);
  ASSERT_TRUE(ev) << error;
  std::string ev_renamed = apply_edits(a.text, ev->begin()->second);
  EXPECT_NE(ev_renamed.find("event submit()"), std::string::npos) << ev_renamed;
  EXPECT_NE(ev_renamed.find("@click=\"submit\""), std::string::npos) << ev_renamed;

  EXPECT_FALSE(view_rename(f.a(), v, a.point(0), "sent", error));
  EXPECT_NE(error.find("already names"), std::string::npos) << error;
  EXPECT_FALSE(view_rename(f.a(), v, a.point(0), "not a name", error));
}

TEST(ViewRename, PropsAreRefused) {
  Fixture f;
  const auto& a = f.file("Counter.fitzv", kCounterView);
  f.analyse("Counter.fitzv");
  std::string error;
  EXPECT_FALSE(view_prepare_rename(f.a(), test_support::view_file(f, "Counter.fitzv"), a.point(1), error));
  EXPECT_NE(error.find("only state fields and events"), std::string::npos) << error;
}

}  // namespace
}  // namespace fitz::lsp
