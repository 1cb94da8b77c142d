// The checker on a large generated project (200 modules, ~100,000 lines, each module importing
// the previous one): everything loads and checks clean. Its speed is measured by
// bench/check_bench.cpp, not here.
#include <gtest/gtest.h>

#include <unistd.h>

#include "checker/checker.h"
#include "frontend/project.h"
#include "tests/support/generated_project.h"

namespace fs = std::filesystem;

namespace {

TEST(CheckerScale, TwoHundredModulesCheckClean) {
  constexpr int kModules = 200;
  fs::path dir = fs::temp_directory_path() / ("fitz_checker_scale_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fitz::test_support::write_generated_project(dir, kModules, 500);

  fitz::frontend::SourceManager sources;
  fitz::frontend::DiagnosticBag diags;
  fitz::frontend::LoadRequest req;
  req.target = dir / "main.fitz";
  req.cwd = dir;
  auto loaded = fitz::frontend::load_program(req, sources, diags);
  ASSERT_FALSE(loaded.fatal.has_value());
  fitz::checker::TypedProgram program = fitz::checker::check_program(loaded.graph, sources, diags);
  fs::remove_all(dir);

  EXPECT_EQ(loaded.graph.modules.size(), static_cast<size_t>(kModules + 1));
  EXPECT_EQ(diags.error_count(), 0u);
  for (const auto& d : diags)
    if (d.severity == fitz::frontend::Severity::Error) {
      ADD_FAILURE() << d.message;
      break;
    }
}

}  // namespace
