// Checker throughput on a generated project (200 modules, ~100,000 lines, each module importing
// the previous one): loading and checking must stay linear. The bound is generous so that slow
// CI machines and sanitizer builds pass; the printed time is what to compare (target < 1 s).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "checker/checker.h"
#include "frontend/project.h"

namespace fs = std::filesystem;

namespace {

std::string module_source(int m, int target_lines) {
  std::ostringstream s;
  int lines = 0;
  auto line = [&](const std::string& text) {
    s << text << "\n";
    ++lines;
  };
  std::string M = std::to_string(m), P = std::to_string(m - 1);
  if (m > 0) {
    line("import mod" + P);
    line("from mod" + P + " import Item" + P + ", make" + P);
  }
  line("type Item" + M + " {");
  line("    id: Int");
  line("    name: Str");
  line("    tags: List<Str> = []");
  line("    score: Float = 0.0");
  line("    fn label() -> Str => \"{name}#{id}\"");
  line("    fn bump(k: Int) -> Item" + M + " => Item" + M + " { id: id + k, name: name }");
  line("}");
  line("fn make" + M + "(n: Int) -> Item" + M + " => Item" + M + " { id: n, name: \"item" + M + "\" }");
  for (int f = 1; lines < target_lines - 2; ++f) {
    std::string F = "f" + M + "_" + std::to_string(f);
    line("fn " + F + "(xs: List<Int>, limit: Int) -> Int {");
    line("    let total = 0");
    line("    for x in xs {");
    line("        if x > limit {");
    line("            total += x * 2");
    line("        } else {");
    line("            total -= 1");
    line("        }");
    line("    }");
    line("    let names = xs.map(fn(v) => \"n{v}\").filter(fn(s) => s.len() > 1)");
    line("    let m = {\"a\": total, \"b\": names.len()}");
    line("    let it = make" + M + "(total).bump(1)");
    if (m > 0) {
      line("    let other = mod" + P + ".make" + P + "(3)");
      line("    total += other.id");
    }
    line("    match m.get(\"a\") {");
    line("        Ok(v) => { total += v }");
    line("        Err(e) => print(e)");
    line("    }");
    line("    return total + it.id");
    line("}");
  }
  if (m > 0)
    line("print(f" + M + "_1([1, 2, 3], 1), make" + P + "(1).label(), Item" + P + " { id: 1, name: \"x\" })");
  else
    line("print(f0_1([1, 2, 3], 1))");
  return s.str();
}

TEST(CheckerPerformance, HundredThousandLinesInTwoHundredModules) {
  constexpr int kModules = 200;
  fs::path dir = fs::temp_directory_path() / ("fitz_checker_perf_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  size_t total_lines = 0;
  for (int m = 0; m < kModules; ++m) {
    std::string src = module_source(m, 500);
    total_lines += static_cast<size_t>(std::count(src.begin(), src.end(), '\n'));
    std::ofstream(dir / ("mod" + std::to_string(m) + ".fitz")) << src;
  }
  std::ofstream(dir / "main.fitz") << "import mod" << kModules - 1 << "\nprint(mod" << kModules - 1
                                   << ".f" << kModules - 1 << "_1([1], 0))\n";

  fitz::frontend::SourceManager sources;
  fitz::frontend::DiagnosticBag diags;
  fitz::frontend::LoadRequest req;
  req.target = dir / "main.fitz";
  req.cwd = dir;
  auto t0 = std::chrono::steady_clock::now();
  auto loaded = fitz::frontend::load_program(req, sources, diags);
  auto t1 = std::chrono::steady_clock::now();
  ASSERT_FALSE(loaded.fatal.has_value());
  fitz::checker::TypedProgram program = fitz::checker::check_program(loaded.graph, sources, diags);
  auto t2 = std::chrono::steady_clock::now();
  fs::remove_all(dir);

  double load_s = std::chrono::duration<double>(t1 - t0).count();
  double check_s = std::chrono::duration<double>(t2 - t1).count();
  std::cout << "[perf] " << total_lines << " lines, " << loaded.graph.modules.size() << " modules: load+parse "
            << load_s << " s, check " << check_s << " s\n";
  EXPECT_EQ(loaded.graph.modules.size(), static_cast<size_t>(kModules + 1));
  EXPECT_EQ(diags.error_count(), 0u);
  for (const auto& d : diags)
    if (d.severity == fitz::frontend::Severity::Error) {
      ADD_FAILURE() << d.message;
      break;
    }
  EXPECT_LT(check_s, 5.0);
}

}  // namespace
