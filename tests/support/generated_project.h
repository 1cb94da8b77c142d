// A generated multi-module Fitz project of typical code (types, methods, loops, closures,
// matches, cross-module calls): shared by the checker's scale test and bench/check_bench.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fitz::test_support {

inline std::string module_source(int m, int target_lines) {
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

// Writes `modules` modules of about `lines_per_module` lines each (mod<i>.fitz, each importing
// the previous one) and a main.fitz importing the last; returns the total line count.
inline size_t write_generated_project(const std::filesystem::path& dir, int modules, int lines_per_module) {
  std::filesystem::create_directories(dir);
  size_t total_lines = 0;
  for (int m = 0; m < modules; ++m) {
    std::string src = module_source(m, lines_per_module);
    total_lines += static_cast<size_t>(std::count(src.begin(), src.end(), '\n'));
    std::ofstream(dir / ("mod" + std::to_string(m) + ".fitz")) << src;
  }
  std::ofstream(dir / "main.fitz") << "import mod" << modules - 1 << "\nprint(mod" << modules - 1 << ".f"
                                   << modules - 1 << "_1([1], 0))\n";
  return total_lines;
}

}  // namespace fitz::test_support
