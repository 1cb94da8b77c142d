// Every diagnostic kind must have a golden test that shows it: a `fail_*.fitz` (or a fail_*
// case folder) under tests/testdata/{syntax,modules,check,lint}/ whose expected output contains
// its code (lint/: the lints of `fitz lint`), or a view (tests/testdata/views/fail_*, err_* or
// warn_*.fitzv) whose golden does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text of every golden next to a fail_*.fitz (single files and multi-file case folders).
std::string all_fail_goldens() {
  std::string all;
  fs::path root = fs::path(fitz_test_source_dir()) / "tests" / "testdata";
  for (const char* suite : {"check", "syntax", "modules", "lint", "views"}) {
    fs::path dir = root / suite;
    if (!fs::is_directory(dir)) continue;
    for (auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.path().extension() != ".golden") continue;
      std::string name = e.path().filename().string();
      bool fail = name.starts_with("fail_") ||
                  (std::string_view(suite) == "views" && (name.starts_with("err_") || name.starts_with("warn_")));
      for (fs::path p = e.path().parent_path(); !fail && p != dir && p.has_parent_path(); p = p.parent_path())
        fail = p.filename().string().starts_with("fail_");
      if (fail) all += read_all(e.path());
    }
  }
  return all;
}

// Every kind: lexical and syntax (goldens in tests/testdata/syntax), loader, manifest and I/O
// (tests/testdata/modules), checker (tests/testdata/check), lints (tests/testdata/lint).
// Codes nothing reports today, kept so that they keep their meaning: E0214 (a built-in module
// without a runtime) while every module compiles. Codes only a real git repository or cache can
// produce (a failed clone quotes git, whose wording varies by version; a missing tag; a changed
// checkout) are shown by tests/e2e/packages.sh instead: E0900, E0901, E0905.
bool must_be_covered(const std::string& code) {
  return code.size() == 5 && code != "E0214" && code != "E0900" && code != "E0901" && code != "E0905";
}

TEST(DiagnosticCoverage, EveryKindHasAFailingGolden) {
  std::string goldens = all_fail_goldens();
  std::vector<std::string> missing;
  for (size_t i = 0; i < fitz::frontend::kDiagKindCount; ++i) {
    auto kind = static_cast<fitz::frontend::DiagKind>(i);
    std::string code(fitz::frontend::diag_code(kind));
    if (!must_be_covered(code)) continue;
    std::string tag = (code[0] == 'E' ? "error[" : "warning[") + code + "]";
    if (goldens.find(tag) == std::string::npos)
      missing.push_back(code + " " + std::string(fitz::frontend::diag_name(kind)));
  }
  std::string list;
  for (const auto& m : missing) list += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << "diagnostic kinds without a fail_*.fitz golden test:" << list;
}

}  // namespace
