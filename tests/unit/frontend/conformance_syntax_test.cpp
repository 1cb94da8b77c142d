// The shared conformance corpus through parse + lower only: every run/ program (and every file of
// a multi-file case) lowers with zero diagnostics, the check/ cases whose mistake is a syntax
// error report it at exactly the expected line and column, and no other check/ case gets a
// syntax diagnostic it should not have.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "frontend/lower.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace fitz::frontend {
namespace {

fs::path corpus() { return fs::path(std::string(fitz_test_source_dir()) + "/../shared/conformance"); }

// The check cases whose expected diagnostic is produced by the frontend, not the checker.
const std::set<std::string> kSyntaxCases = {"semicolon", "struct_literal_in_condition", "decorator_kwarg_colon"};

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<fs::path> cases(const std::string& folder) {
  std::vector<fs::path> out;
  fs::path dir = corpus() / folder;
  if (!fs::is_directory(dir)) return out;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".fitz") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Writes a case into a fresh temp folder, one file per `// --- file: PATH` section (or the
// file itself when it has none), and returns the written files.
std::vector<fs::path> materialise(const fs::path& source) {
  fs::path dir = fs::temp_directory_path() /
                 ("fitz_syntax_conformance_" + source.stem().string() + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text = read_all(source);
  const std::string marker = "// --- file: ";
  std::vector<fs::path> files;
  if (!text.starts_with(marker)) {
    files.push_back(dir / source.filename());
    std::ofstream(files.back(), std::ios::binary) << text;
    return files;
  }
  std::ofstream out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(marker)) {
      files.push_back(dir / line.substr(marker.size()));
      fs::create_directories(files.back().parent_path());
      out.close();
      out.open(files.back(), std::ios::binary);
      continue;
    }
    out << line << "\n";
  }
  return files;
}

struct Lowered {
  std::unique_ptr<SourceFile> source;
  DiagnosticBag diags;
};

std::unique_ptr<Lowered> lower_file(const fs::path& p) {
  auto l = std::make_unique<Lowered>();
  l->source = std::make_unique<SourceFile>(FileId{0}, p.string(), read_all(p));
  parse_module(*l->source, FileId{0}, l->diags);
  return l;
}

std::string describe(const Lowered& l) {
  std::string out;
  for (const Diagnostic& d : l.diags.sorted()) {
    LineCol lc = l.source->line_col(d.span.begin);
    out += "\n  " + std::to_string(lc.line) + ":" + std::to_string(lc.col) + " " + std::string(diag_code(d.kind)) +
           " " + d.message;
  }
  return out;
}

TEST(ConformanceSyntax, CorpusIsPresent) {
  ASSERT_TRUE(fs::is_directory(corpus() / "run") && fs::is_directory(corpus() / "check"))
      << "the shared conformance corpus was not found at " << corpus()
      << "; it must sit next to the repository as ../shared/conformance";
  EXPECT_FALSE(cases("run").empty()) << "no run/*.fitz cases in " << corpus();
  EXPECT_FALSE(cases("check").empty()) << "no check/*.fitz cases in " << corpus();
}

TEST(ConformanceSyntax, RunProgramsLowerWithoutDiagnostics) {
  ASSERT_TRUE(fs::is_directory(corpus() / "run")) << "conformance corpus missing at " << corpus();
  size_t clean = 0, total = 0;
  for (const fs::path& c : cases("run")) {
    ++total;
    bool ok = true;
    for (const fs::path& file : materialise(c)) {
      auto l = lower_file(file);
      if (!l->diags.empty()) ok = false;
      EXPECT_TRUE(l->diags.empty()) << c.filename() << " (" << file.filename() << "):" << describe(*l);
    }
    clean += ok;
  }
  std::cout << "[conformance] run cases lowering without diagnostics: " << clean << "/" << total << "\n";
}

TEST(ConformanceSyntax, SyntaxCheckCasesAtExactPositions) {
  ASSERT_TRUE(fs::is_directory(corpus() / "check")) << "conformance corpus missing at " << corpus();
  size_t seen = 0;
  for (const fs::path& c : cases("check")) {
    std::string name = c.stem().string();
    std::vector<fs::path> files = materialise(c);
    auto l = lower_file(files.front());
    if (!kSyntaxCases.count(name)) {
      // Mistakes the checker finds must not look like syntax errors.
      EXPECT_TRUE(l->diags.empty()) << name << " is not a syntax case but lowering reported:" << describe(*l);
      continue;
    }
    ++seen;
    std::istringstream expected(read_all(fs::path(c).replace_extension(".err")));
    for (std::string line; std::getline(expected, line);) {
      if (line.empty()) continue;
      unsigned want_line = 0, want_col = 0;
      int consumed = 0;
      ASSERT_EQ(std::sscanf(line.c_str(), "%u:%u %n", &want_line, &want_col, &consumed), 2) << line;
      std::string words = lowercase(line.substr(size_t(consumed)));
      bool found = false;
      for (const Diagnostic& d : l->diags) {
        LineCol lc = l->source->line_col(d.span.begin);
        if (lc.line == want_line && lc.col == want_col && lowercase(d.message).find(words) != std::string::npos)
          found = true;
      }
      EXPECT_TRUE(found) << name << ": expected a diagnostic at " << want_line << ":" << want_col
                         << " containing \"" << words << "\"; got:" << describe(*l);
    }
  }
  EXPECT_EQ(seen, kSyntaxCases.size()) << "some syntax cases are missing from " << corpus() / "check";
}

}  // namespace
}  // namespace fitz::frontend
