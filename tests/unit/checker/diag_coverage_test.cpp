// Every diagnostic kind must have a golden test that shows it: a `fail_*.fitz` under
// tests/testdata/check/ (checker kinds) or tests/testdata/syntax/ (frontend kinds) whose
// expected output contains its code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"

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
  fs::path root = fs::path(FITZ_SOURCE_DIR) / "tests" / "testdata";
  for (const char* suite : {"check", "syntax", "modules"}) {
    fs::path dir = root / suite;
    if (!fs::is_directory(dir)) continue;
    for (auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.path().extension() != ".golden") continue;
      bool fail = e.path().filename().string().starts_with("fail_");
      for (fs::path p = e.path().parent_path(); !fail && p != dir && p.has_parent_path(); p = p.parent_path())
        fail = p.filename().string().starts_with("fail_");
      if (fail) all += read_all(e.path());
    }
  }
  return all;
}

// Lexical and syntax kinds (E00xx, W00xx: goldens in tests/testdata/syntax) and checker kinds
// (E02xx-E09xx, W02xx-W09xx: goldens in tests/testdata/check) must each have a failing golden.
// Loader, manifest and I/O kinds (E01xx, W01xx) are reported by the second test.
bool must_be_covered(const std::string& code) {
  return code.size() == 5 && code[1] == '0' && code[2] != '1';
}

TEST(DiagnosticCoverage, EverySyntaxAndCheckerKindHasAFailingGolden) {
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

TEST(DiagnosticCoverage, EveryKindHasAFailingGoldenSomewhere) {
  // Loader and manifest kinds: reported here until their goldens exist.
  std::string goldens = all_fail_goldens();
  size_t covered = 0;
  std::string missing;
  for (size_t i = 0; i < fitz::frontend::kDiagKindCount; ++i) {
    std::string code(fitz::frontend::diag_code(static_cast<fitz::frontend::DiagKind>(i)));
    if (goldens.find("[" + code + "]") != std::string::npos)
      ++covered;
    else
      missing += " " + code;
  }
  RecordProperty("covered_kinds", static_cast<int>(covered));
  std::cout << "[diagnostics] kinds with a fail_* golden: " << covered << "/" << fitz::frontend::kDiagKindCount
            << (missing.empty() ? "" : "; not yet:" + missing) << "\n";
  SUCCEED();
}

}  // namespace
