// Diagnostics of `.fitzv` views in the language server: the same as `fitz check` reports (every
// view of tests/testdata/views), open buffers winning over the disk, and components imported by
// modules resolving as they do in `fitz check`.
#include <fmt/format.h>

#include "checker/checker.h"
#include "frontend/project.h"
#include "tests/support/source_dir.h"
#include "tests/unit/lsp/view_fixture.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;
using test_support::Fixture;

// The server names the lint level of warnings (`[unused_variable]`) like it does in modules.
std::string show_diag(const frontend::Diagnostic& d) {
  std::string message = d.message;
  if (message.ends_with("]")) message = message.substr(0, message.rfind(" ["));
  return fmt::format("{} {}-{} {}", frontend::diag_code(d.kind), d.span.begin, d.span.end, message);
}

// What `fitz check VIEW` reports in the view file, as cmd_check.cpp checks it.
std::vector<std::string> cli_view_diagnostics(const fs::path& view) {
  frontend::SourceManager sources;
  frontend::DiagnosticBag raw, out;
  checker::ViewChecker views(sources);
  frontend::LoadRequest req;
  req.target = view;
  req.reader = views.reader(frontend::disk_reader());
  req.view_root = [&](const fs::path& v) { return views.add_view(v, raw); };
  frontend::LoadResult loaded = frontend::load_program(req, sources, raw);
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, raw);
  views.finish(loaded.graph, program, raw, out);
  std::vector<std::string> shown;
  for (const auto& d : out.sorted())
    if (d.span.file.valid() && fs::weakly_canonical(sources.file(d.span.file).path()) == fs::weakly_canonical(view))
      shown.push_back(show_diag(d));
  return shown;
}

TEST(ViewDiagnostics, SameAsFitzCheckForEveryTestView) {
  fs::path dir = fs::path(fitz_test_source_dir()) / "tests" / "testdata" / "views";
  size_t views = 0, with_errors = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".fitzv") continue;
    ++views;
    std::vector<std::string> cli = cli_view_diagnostics(e.path());
    auto a = analyze(e.path(), dir, frontend::disk_reader());
    std::vector<std::string> lsp;
    for (const auto* d : diagnostics_for(*a, e.path()))
      if (!std::string_view(frontend::diag_code(d->kind)).starts_with("W10")) lsp.push_back(show_diag(*d));  // lints: LSP only
    EXPECT_EQ(lsp, cli) << e.path().filename();
    with_errors += !cli.empty();
  }
  EXPECT_GT(views, 10u);
  EXPECT_GT(with_errors, 5u);
}

TEST(ViewDiagnostics, OpenBuffersWinAndImportedComponentsResolve) {
  Fixture f;
  f.file("Counter.fitzv", "component Counter {\n  props { start: Int = 0 }\n  state { n: Int = 0 }\n  <template><p>{n}</p></template>\n}\n");
  f.file("main.fitz", "from Counter import Counter\n@live(\"/\")\nfn home() -> Counter => Counter { start: 1 }\n");
  f.analyse("main.fitz");
  EXPECT_TRUE(f.a().diagnostics.empty()) << show_diag(f.a().diagnostics.front());
  ASSERT_TRUE(f.a().view_at(f.path("Counter.fitzv")));

  // An unsaved buffer with an unknown name in the template.
  std::string buffer = "component Counter {\n  props { start: Int = 0 }\n  state { n: Int = 0 }\n  <template><p>{m}</p></template>\n}\n";
  frontend::FileReader disk = frontend::disk_reader();
  fs::path view = f.path("Counter.fitzv");
  auto a = analyze(f.path("main.fitz"), f.path(""), [&](const fs::path& p, std::string& err) -> std::optional<std::string> {
    if (fs::weakly_canonical(p) == view) return buffer;
    return disk(p, err);
  });
  auto diags = diagnostics_for(*a, view);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(frontend::diag_code(diags[0]->kind), std::string("E0550")) << show_diag(*diags[0]);
  EXPECT_EQ(buffer.substr(diags[0]->span.begin, diags[0]->span.end - diags[0]->span.begin), "m");
}

// With no view read, the server adds the checks of `@live` pages to the project's diagnostics
// instead of copying them into a bag of mapped ones: the same diagnostics as `fitz check`.
TEST(ViewDiagnostics, LivePageIsCheckedWithoutAnyView) {
  Fixture f;
  f.file("main.fitz", "type Page {\n    n: Int\n}\n@live(\"/\")\nfn home() -> Page => Page { n: 1 }\n");
  f.analyse("main.fitz");
  std::vector<std::string> lsp;
  for (const auto* d : diagnostics_for(f.a(), f.path("main.fitz")))
    if (!std::string_view(frontend::diag_code(d->kind)).starts_with("W10")) lsp.push_back(show_diag(*d));
  std::vector<std::string> cli = cli_view_diagnostics(f.path("main.fitz"));
  EXPECT_EQ(lsp, cli);
  bool live = false;
  for (const std::string& d : lsp) live |= d.find("no component's props") != std::string::npos;
  EXPECT_TRUE(live) << (lsp.empty() ? "no diagnostics" : lsp.front());
}

}  // namespace
}  // namespace fitz::lsp
