// Lint warnings reach the editor: published with the checker's diagnostics as warnings, with
// their fix-its as quick fixes, at the levels of the project's `[lint]`.
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

std::vector<const frontend::Diagnostic*> of_kind(Fixture& f, const char* file, frontend::DiagKind kind) {
  std::vector<const frontend::Diagnostic*> out;
  for (const auto* d : diagnostics_for(f.a(), f.path(file)))
    if (d->kind == kind) out.push_back(d);
  return out;
}

TEST(LintWarnings, PublishedWithAQuickFix) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn scale(value: Int, [[factor]]: Int) -> Int {\n    return value\n}\nprint(scale(1, 2))\n");
  f.analyse("main.fitz");
  auto found = of_kind(f, "main.fitz", frontend::DiagKind::LintUnusedParameter);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, frontend::Severity::Warning);
  EXPECT_NE(found[0]->message.find("[unused_parameter]"), std::string::npos) << found[0]->message;
  auto acts = code_actions(f.a(), f.path("main.fitz"), a.ranges[0].first, a.ranges[0].first);
  ASSERT_EQ(acts.size(), 1u);
  ASSERT_EQ(acts[0].edits.size(), 1u);
  EXPECT_EQ(acts[0].edits[0].new_text, "_");
  EXPECT_EQ(f.range(acts[0].edits[0].span).first, a.ranges[0].first);
}

TEST(LintWarnings, NotOnAProgramWithErrors) {
  Fixture f;
  f.file("main.fitz", "fn scale(value: Int, factor: Int) -> Int {\n    return \"no\"\n}\n");
  f.analyse("main.fitz");
  EXPECT_TRUE(of_kind(f, "main.fitz", frontend::DiagKind::LintUnusedParameter).empty());
}

}  // namespace
}  // namespace fitz::lsp
