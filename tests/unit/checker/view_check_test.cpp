// The view checker through its API (checker/view_check.h), as a client emitter would use it: the
// IR carries checked types for fields, parameters and template expressions, names resolve in
// the order of views.md §1.4, and diagnostics land in the .fitzv file at the written code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "checker/checker.h"
#include "checker/view_check.h"
#include "frontend/project.h"

namespace fs = std::filesystem;
using namespace fitz;

namespace {

struct ViewProject {
  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  checker::TypedProgram program;
  checker::CheckedViews views;
  std::string dir;

  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const auto& d : diags.sorted()) out.emplace_back(frontend::diag_code(d.kind));
    return out;
  }
};

// Writes `files` into a fresh folder and checks `entry` there (a .fitzv or a .fitz).
void check_view_project(ViewProject& c, const std::vector<std::pair<std::string, std::string>>& files, const std::string& entry) {
  fs::path dir = fs::temp_directory_path() / ("fitz_view_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                              "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (auto& [name, text] : files) std::ofstream(dir / name) << text;
  c.dir = dir.string();
  checker::ViewChecker views(c.sources);
  frontend::DiagnosticBag raw;
  frontend::LoadRequest req;
  req.target = dir / entry;
  req.reader = views.reader(frontend::disk_reader());
  req.view_root = [&](const fs::path& v) { return views.add_view(v, raw); };
  frontend::LoadResult loaded = frontend::load_program(req, c.sources, raw);
  ASSERT_FALSE(loaded.fatal.has_value());
  c.program = checker::check_program(loaded.graph, c.sources, raw);
  c.views = views.finish(loaded.graph, c.program, raw, c.diags);
  fs::remove_all(dir);
}

const checker::ViewNode* find_view_tag(const checker::ViewNodes& nodes, std::string_view tag) {
  for (const auto& n : nodes) {
    if (n.tag == tag) return &n;
    for (const auto* list : {&n.children, &n.empty})
      if (auto* r = find_view_tag(*list, tag)) return r;
    for (const auto& b : n.branches)
      if (auto* r = find_view_tag(b, tag)) return r;
  }
  return nullptr;
}

constexpr const char* kTodo = R"V(from todo_model import Todo
component TodoList {
  props { title: Str, limit: Int = 10 }
  state { items: List<Todo> = [], draft: Str = "" }
  derived { open: Int = items.filter(fn(t) => not t.done).len() }
  event remove(id: Int) { items = items.filter(fn(t) => t.id != id) }
  <template>
    <h1>{title}</h1>
    {#for t, i in items key=t.id}
      <li class:done={t.done} @click="remove(id: t.id)">{i}: {t.text}</li>
    {:empty}
      <p>{open} open of {limit}</p>
    {/for}
  </template>
}
)V";

constexpr const char* kTodoModel = R"(type Todo {
  id: Int
  text: Str
  done: Bool = false
}
)";

TEST(ViewCheck, TypesFieldsParamsAndTemplateExpressions) {
  ViewProject c;
  check_view_project(c, {{"todos.fitzv", kTodo}, {"todo_model.fitz", kTodoModel}}, "todos.fitzv");
  EXPECT_TRUE(c.codes().empty()) << c.codes().front();
  const checker::ViewComponent* comp = c.views.find("TodoList");
  ASSERT_NE(comp, nullptr);
  const checker::TypeStore& types = *c.program.types;
  ASSERT_EQ(comp->props.size(), 2u);
  EXPECT_EQ(types.display(comp->props[0].type), "Str");
  EXPECT_TRUE(comp->props[0].required());
  EXPECT_FALSE(comp->props[1].required());
  EXPECT_EQ(types.display(comp->state[0].type), "List<Todo>");
  EXPECT_EQ(types.display(comp->derived[0].type), "Int");
  ASSERT_EQ(comp->events.size(), 1u);
  EXPECT_EQ(types.display(comp->events[0].params[0].type), "Int");
  EXPECT_TRUE(comp->events[0].fn.valid());
  EXPECT_TRUE(comp->props_type.valid());

  const checker::ViewNode* li = find_view_tag(comp->template_nodes, "li");
  ASSERT_NE(li, nullptr);
  // The loop variable and the index resolve before state and props.
  ASSERT_EQ(li->children.size(), 1u);
  ASSERT_EQ(li->children[0].exprs.size(), 2u);
  EXPECT_EQ(types.display(li->children[0].exprs[0].type), "Int");
  EXPECT_EQ(types.display(li->children[0].exprs[1].type), "Str");
  bool saw_class = false, saw_event = false;
  for (const auto& a : li->attrs) {
    if (a.kind == checker::ViewAttr::Kind::Class) {
      saw_class = true;
      EXPECT_EQ(types.display(a.exprs.at(0).type), "Bool");
    }
    if (a.kind == checker::ViewAttr::Kind::Event) {
      saw_event = true;
      EXPECT_EQ(a.value, "remove");
      EXPECT_EQ(a.arg_names.at(0), "id");
      EXPECT_EQ(types.display(a.exprs.at(0).type), "Int");
    }
  }
  EXPECT_TRUE(saw_class);
  EXPECT_TRUE(saw_event);
  const checker::ViewNode* h1 = find_view_tag(comp->template_nodes, "h1");
  ASSERT_NE(h1, nullptr);
  EXPECT_FALSE(h1->is_static);
}

TEST(ViewCheck, DiagnosticsPointIntoTheView) {
  ViewProject c;
  std::string view = R"V(component Bad {
  props { n: Int }
  state { s: Str = "" }
  event set(v: Int) { n = v }
  <template>{#if s}<p>{nope}</p>{/if}<i @click="set(v: s)">x</i></template>
}
)V";
  check_view_project(c, {{"bad.fitzv", view}}, "bad.fitzv");
  std::vector<std::string> codes = c.codes();
  for (const char* want : {"E0550", "E0551", "E0552", "E0554"})
    EXPECT_NE(std::find(codes.begin(), codes.end(), want), codes.end()) << want;
  for (const auto& d : c.diags.sorted()) {
    const frontend::SourceFile& f = c.sources.file(d.span.file);
    EXPECT_TRUE(f.path().ends_with("bad.fitzv")) << f.path();
    if (d.kind == frontend::DiagKind::ViewUnknownName) EXPECT_EQ(f.slice(d.span), "nope");
    if (d.kind == frontend::DiagKind::ViewReadOnlyAssign) EXPECT_EQ(f.slice(d.span), "n");
    if (d.kind == frontend::DiagKind::ViewConditionNotBool) EXPECT_EQ(f.slice(d.span), "s");
  }
}

TEST(ViewCheck, FitzModulesImportComponentsAsTheirProps) {
  ViewProject c;
  check_view_project(c,
        {{"Chat.fitzv", "component ChatRoom {\n  props { room: Str }\n  <template><p>{room}</p></template>\n}\n"},
         {"main.fitz", "from Chat import ChatRoom\n\nfn ok() -> ChatRoom => ChatRoom { room: \"a\" }\n\nfn bad() -> ChatRoom => ChatRoom { room: 1 }\n"}},
        "main.fitz");
  std::vector<std::string> codes = c.codes();
  ASSERT_EQ(codes.size(), 1u);
  const auto d = c.diags.sorted().front();
  EXPECT_TRUE(c.sources.file(d.span.file).path().ends_with("main.fitz"));
  EXPECT_NE(c.views.find("ChatRoom"), nullptr);
}

}  // namespace
