// Outside the checker and its registry (checker/decorators.def), code reads decorators by
// kind (checker::is_decorator, find_decorator, decorator_kind), never by comparing names: this
// scans checker/ (but the registry), orm/, codegen/, openapi/, lsp/ and cli/ for a registry name
// compared as a string literal or listed among others.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "checker/decorators.h"
#include "tests/support/source_dir.h"

namespace fitz::checker {
namespace {

std::string names_alternation() {
  std::set<std::string> names;
  for (const DecoratorSpec& d : decorator_specs()) names.insert(std::string(d.name));
  std::string alt;
  for (const std::string& n : names) alt += (alt.empty() ? "" : "|") + n;
  return alt;
}

// Every comparison of a decorator's name with a registry name in `text`, as "line: text".
std::vector<std::string> name_comparisons(const std::string& text) {
  const std::string names = "\"(?:" + names_alternation() + ")\"";
  const std::regex patterns[] = {
      // d.name.text == "get", "get" != dec.name.text
      std::regex(R"(name\.text\s*[!=]=\s*)" + names),
      std::regex(names + R"(\s*[!=]=\s*[\w.>-]*name\.text)"),
      // find_decorator(fn, "cron"), has_decorator(ds, "hidden")
      std::regex(R"(\b\w*_decorator\w*\([^;]*)" + names),
      // a list of names: {"get", "post", ...}
      std::regex(names + R"(\s*,\s*)" + names),
  };
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::string code = line.substr(0, line.find("//"));
    for (const std::regex& re : patterns)
      if (std::regex_search(code, re)) {
        out.push_back(std::to_string(n) + ": " + line);
        break;
      }
  }
  return out;
}

TEST(DecoratorNames, TheScanFindsNameComparisons) {
  EXPECT_EQ(name_comparisons("if (d.name.text == \"get\") x();\n").size(), 1u);
  EXPECT_EQ(name_comparisons("if (dec.name.text != \"middleware\" || a) continue;\n").size(), 1u);
  EXPECT_EQ(name_comparisons("auto* c = find_decorator(d, \"cron\");\n").size(), 1u);
  EXPECT_EQ(name_comparisons("constexpr std::string_view k[] = {\"get\", \"post\"};\n").size(), 1u);
  EXPECT_EQ(name_comparisons("if (is_decorator(d, DecoratorKind::Get)) x();  // not \"get\" == name.text\n").size(), 0u);
  EXPECT_EQ(name_comparisons("if (info.name == \"Request\") x();\n").size(), 0u);
}

TEST(DecoratorNames, NoNameComparisonsOutsideTheChecker) {
  namespace fs = std::filesystem;
  fs::path root = fitz_test_source_dir();
  std::vector<std::string> found;
  size_t files = 0;
  for (const char* folder : {"checker", "orm", "codegen", "openapi", "lsp", "cli"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      if (!e.is_regular_file()) continue;
      std::string ext = e.path().extension().string();
      if (ext != ".cpp" && ext != ".h") continue;
      if (e.path().filename().string().starts_with("decorators.")) continue;  // the registry
      ++files;
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      for (const std::string& hit : name_comparisons(text.str()))
        found.push_back(fs::relative(e.path(), root).generic_string() + ":" + hit);
    }
  }
  EXPECT_GT(files, 10u);
  std::string report;
  for (const std::string& f : found) report += "\n  " + f;
  EXPECT_TRUE(found.empty()) << "decorator names compared as strings; read checker::DecoratorKind instead:" << report;
}

}  // namespace
}  // namespace fitz::checker
