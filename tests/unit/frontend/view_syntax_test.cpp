// The live views (.fitzv) grammar through the C++ entry point: the spec's examples
// (tests/testdata/views/*.fitzv) parse with no ERROR or MISSING node and with the shapes a
// checker will read; malformed views (fail_*.fitzv and generated garbage) give syntax
// diagnostics without crashing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/view_syntax.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace fitz::frontend {
namespace {

fs::path views_dir() { return fs::path(fitz_test_source_dir()) / "tests" / "testdata" / "views"; }

std::string read_view(const std::string& name) {
  std::ifstream in(views_dir() / name, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << name;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One parsed view with the helpers the assertions need.
struct ParsedView {
  std::string text;
  SyntaxTree tree;

  explicit ParsedView(std::string source) : text(std::move(source)), tree(parse_view_text(text)) {}

  TSNode root() const { return tree.root(); }
  std::string text_of(TSNode n) const {
    if (ts_node_is_null(n)) return "<null>";
    return text.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }
  std::string field_text(TSNode n, const char* field) const {
    return text_of(ts_node_child_by_field_name(n, field, static_cast<uint32_t>(std::strlen(field))));
  }
  // Every node of `type`, in document order.
  std::vector<TSNode> all(std::string_view type) const {
    std::vector<TSNode> out;
    std::vector<TSNode> stack{root()};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      if (ts_node_is_named(n) && type == ts_node_type(n)) out.push_back(n);
      for (uint32_t i = ts_node_child_count(n); i-- > 0;) stack.push_back(ts_node_child(n, i));
    }
    return out;
  }
  bool has_problem() const {
    std::vector<TSNode> stack{root()};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      if (ts_node_is_missing(n) || std::string_view(ts_node_type(n)) == "ERROR") return true;
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i) stack.push_back(ts_node_child(n, i));
    }
    return false;
  }
  std::vector<Diagnostic> diagnostics() const {
    SourceManager sources;
    FileId id = sources.add("view.fitzv", text);
    DiagnosticBag diags;
    report_view_syntax_errors(tree, sources.file(id), diags);
    return diags.sorted();
  }
};

std::vector<std::string> texts(const ParsedView& v, const std::vector<TSNode>& nodes, const char* field) {
  std::vector<std::string> out;
  for (TSNode n : nodes) out.push_back(v.field_text(n, field));
  return out;
}

using TextList = std::vector<std::string>;

class ExampleView : public testing::TestWithParam<std::string> {};

TEST_P(ExampleView, ParsesWithoutSyntaxErrors) {
  ParsedView v(read_view(GetParam()));
  ASSERT_TRUE(v.tree.valid());
  EXPECT_FALSE(v.has_problem()) << cst_sexp(v.tree);
  EXPECT_TRUE(v.diagnostics().empty());
  EXPECT_EQ(v.all("component").size(), 1u);
  EXPECT_EQ(v.all("template").size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Spec, ExampleView,
                         testing::Values("counter.fitzv", "live_search.fitzv", "chat.fitzv", "signup_form.fitzv"));

TEST(ViewSyntax, CounterShape) {
  ParsedView v(read_view("counter.fitzv"));
  TSNode component = v.all("component").at(0);
  EXPECT_EQ(v.field_text(component, "name"), "Counter");
  auto fields = v.all("field_declaration");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(v.field_text(fields[0], "name"), "count");
  EXPECT_EQ(v.field_text(fields[0], "type"), "Int");
  EXPECT_EQ(v.field_text(fields[0], "default"), "0");
  auto events = v.all("event_definition");
  EXPECT_EQ(texts(v, events, "name"), (TextList{"inc", "dec", "add"}));
  TSNode add_body = ts_node_child_by_field_name(events[2], "body", 4);
  EXPECT_EQ(v.field_text(add_body, "code"), "count = count + n");
  auto bindings = v.all("event_binding");
  EXPECT_EQ(texts(v, bindings, "event"), (TextList{"click", "click", "click"}));
  EXPECT_EQ(texts(v, bindings, "handler"), (TextList{"inc", "dec", "add(n: 10)"}));
  auto interpolations = v.all("interpolation");
  EXPECT_EQ(texts(v, interpolations, "expression"), (TextList{"count", "count == 0"}));
  auto styles = v.all("style_block");
  ASSERT_EQ(styles.size(), 1u);
  EXPECT_EQ(v.field_text(styles[0], "mode"), "scoped");
  EXPECT_NE(v.field_text(styles[0], "content").find("button:hover { color: red; }"), std::string::npos);
}

TEST(ViewSyntax, LiveSearchShape) {
  ParsedView v(read_view("live_search.fitzv"));
  auto imports = v.all("import_statement");
  ASSERT_EQ(imports.size(), 1u);
  EXPECT_EQ(v.field_text(imports[0], "path"), "fruits");
  EXPECT_EQ(texts(v, v.all("import_name"), "name"), (TextList{"all_fruits", "Fruit"}));
  auto fields = v.all("field_declaration");
  EXPECT_EQ(texts(v, fields, "name"), (TextList{"placeholder", "query", "matches", "count"}));
  EXPECT_EQ(texts(v, fields, "type"), (TextList{"Str", "Str", "List<Fruit>", "Int"}));
  EXPECT_EQ(v.field_text(fields[2], "default"), "all_fruits().filter(fn(f) => f.name.contains(query))");
  auto loops = v.all("for_block");
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(v.field_text(loops[0], "item"), "f");
  EXPECT_EQ(v.field_text(loops[0], "index"), "i");
  EXPECT_EQ(v.field_text(loops[0], "iterable"), "matches");
  EXPECT_EQ(v.field_text(loops[0], "key"), "f.name");
  EXPECT_FALSE(ts_node_is_null(ts_node_child_by_field_name(loops[0], "empty", 5)));
  // `<input ...>` is a void element: no end tag, and the form still closes.
  for (TSNode tag : v.all("start_tag")) {
    if (v.field_text(tag, "tag") != "input") continue;
    EXPECT_TRUE(ts_node_is_null(ts_node_child_by_field_name(ts_node_parent(tag), "end", 3)));
  }
  auto directives = v.all("directive_attribute");
  ASSERT_EQ(directives.size(), 1u);
  EXPECT_EQ(v.field_text(directives[0], "kind"), "class");
  EXPECT_EQ(v.field_text(directives[0], "name"), "first");
  TextList attribute_names = texts(v, v.all("attribute"), "name");
  EXPECT_NE(std::find(attribute_names.begin(), attribute_names.end(), "debounce"), attribute_names.end());
}

TEST(ViewSyntax, ChatShape) {
  ParsedView v(read_view("chat.fitzv"));
  auto hooks = v.all("hook");
  EXPECT_EQ(texts(v, hooks, "name"), (TextList{"mount", "message", "presence", "unmount"}));
  EXPECT_EQ(v.field_text(hooks[1], "argument"), "\"chat:{room}\"");
  EXPECT_EQ(v.field_text(hooks[2], "parameters"), "(who: List<PresenceEntry>)");
  auto events = v.all("event_definition");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(v.field_text(events[1], "async"), "async");
  EXPECT_EQ(v.field_text(events[1], "name"), "send");
  EXPECT_EQ(v.all("html_comment").size(), 1u);
  // Nested quotes inside a hole of an attribute value stay in the expression.
  TextList holes = texts(v, v.all("interpolation"), "expression");
  EXPECT_NE(std::find(holes.begin(), holes.end(), "if (m.author == name) { \"mine\" } else { \"theirs\" }"), holes.end());
  auto directives = v.all("directive_attribute");
  ASSERT_EQ(directives.size(), 1u);
  EXPECT_EQ(v.field_text(directives[0], "kind"), "bind");
  EXPECT_EQ(v.field_text(directives[0], "value"), "{name}");
  auto styles = v.all("style_block");
  EXPECT_EQ(texts(v, styles, "mode"), (TextList{"scoped", "global"}));
  // A `}` inside a CSS string does not end the style.
  EXPECT_NE(v.field_text(styles[0], "content").find("content: \"}\";"), std::string::npos);
  auto loops = v.all("for_block");
  EXPECT_EQ(texts(v, loops, "key"), (TextList{"p.key", "<null>"}));
}

TEST(ViewSyntax, SignupFormShape) {
  ParsedView v(read_view("signup_form.fitzv"));
  auto names = v.all("import_name");
  EXPECT_EQ(texts(v, names, "alias"), (TextList{"<null>", "<null>", "<null>", "FormCard"}));
  auto ifs = v.all("if_block");
  ASSERT_EQ(ifs.size(), 2u);
  EXPECT_EQ(v.field_text(ifs[0], "condition"), "errors.has(\"email\")");
  EXPECT_EQ(v.all("else_if_clause").size(), 1u);
  EXPECT_EQ(v.field_text(v.all("else_if_clause")[0], "condition"), "password.len() > 0");
  EXPECT_EQ(v.all("else_clause").size(), 1u);
  TextList tags = texts(v, v.all("start_tag"), "tag");
  EXPECT_EQ(tags.front(), "FormCard");
  auto events = v.all("event_definition");
  TSNode submit = events.at(1);
  auto params = v.all("parameter");
  EXPECT_EQ(texts(v, params, "name"), (TextList{"email", "email", "password"}));
  TSNode body = ts_node_child_by_field_name(submit, "body", 4);
  std::string code = v.field_text(body, "code");
  EXPECT_TRUE(code.starts_with("errors = {}")) << code;
  EXPECT_TRUE(code.ends_with("ctx.redirect(\"/welcome\")")) << code;
}

// The malformed fixtures: the first diagnostic's line, kind and message.
struct FailCase {
  const char* file;
  uint32_t line;  // 1-based
  DiagKind kind;
  const char* message;
  bool tree_error = true;  // false: the tree is well formed, the reporter finds the mistake
};

void PrintTo(const FailCase& c, std::ostream* os) { *os << c.file; }

class FailView : public testing::TestWithParam<FailCase> {};

TEST_P(FailView, ReportsSyntaxErrors) {
  ParsedView v(read_view(GetParam().file));
  EXPECT_EQ(v.has_problem(), GetParam().tree_error) << cst_sexp(v.tree);
  SourceManager sources;
  FileId id = sources.add(GetParam().file, v.text);
  DiagnosticBag diags;
  report_view_syntax_errors(v.tree, sources.file(id), diags);
  auto all = diags.sorted();
  ASSERT_FALSE(all.empty());
  const SourceFile& f = sources.file(id);
  uint32_t line = 1;
  for (uint32_t i = 0; i < all[0].span.begin && i < f.size(); ++i)
    if (f.text()[i] == '\n') ++line;
  EXPECT_EQ(line, GetParam().line) << all[0].message;
  EXPECT_EQ(all[0].kind, GetParam().kind) << all[0].message;
  EXPECT_EQ(all[0].message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, FailView,
    testing::Values(
        FailCase{"fail_unclosed_element.fitzv", 5, DiagKind::ExpectedToken,
                 "expected `</div>` to close `<div>`, found `</template>`"},
        FailCase{"fail_unterminated_interpolation.fitzv", 4, DiagKind::ExpectedToken, "expected `}` in view"},
        FailCase{"fail_top_level_fn.fitzv", 2, DiagKind::UnexpectedToken, "unexpected `fn` at the top level of a view"},
        FailCase{"fail_loop_header.fitzv", 3, DiagKind::UnexpectedToken, "unexpected `{#for` in view"},
        FailCase{"fail_mismatched_end_tag.fitzv", 4, DiagKind::ExpectedToken,
                 "expected `</b>` to close `<b>`, found `</i>`", false}));

TEST(ViewSyntax, EveryPrefixOfAViewParsesWithoutCrashing) {
  std::string full = read_view("chat.fitzv");
  for (size_t n = 0; n <= full.size(); ++n) {
    ParsedView v(full.substr(0, n));
    ASSERT_TRUE(v.tree.valid());
    (void)v.diagnostics();
  }
}

TEST(ViewSyntax, GarbageGivesDiagnosticsNotCrashes) {
  std::vector<std::string> inputs = {
      std::string("component C {\0<template>\xff\xfe</template>}", 38),
      "component C { <template>" + std::string(5000, '<') + "</template> }",
      "component C { <template>" + std::string(5000, '{') + "</template> }",
      "component C { <template>{#if}{:else}{/for}{/if}</template> }",
      "component C { state { a: = , : } <template></template> }",
      "}}}}{{{{\"\"\"<!--",
  };
  for (const auto& input : inputs) {
    ParsedView v(input);
    ASSERT_TRUE(v.tree.valid());
    EXPECT_TRUE(v.has_problem()) << input.substr(0, 60);
    auto diags = v.diagnostics();
    EXPECT_FALSE(diags.empty()) << input.substr(0, 60);
    EXPECT_LE(diags.size(), 50u);
  }
}

TEST(ViewSyntax, DeepNestingDoesNotExhaustTheWalk) {
  std::string deep = "component C { <template>";
  for (int i = 0; i < 20000; ++i) deep += "<b>";
  deep += "</template> }";
  ParsedView v(deep);
  ASSERT_TRUE(v.tree.valid());
  EXPECT_FALSE(v.diagnostics().empty());
}

TEST(ViewSyntax, ViewPaths) {
  EXPECT_TRUE(is_view_path("src/Counter.fitzv"));
  EXPECT_FALSE(is_view_path("src/main.fitz"));
}

}  // namespace
}  // namespace fitz::frontend
