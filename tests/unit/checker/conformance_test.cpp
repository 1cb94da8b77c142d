// The shared conformance corpus through the real frontend and checker: every run/ program checks
// with zero errors; every check/ case reports a diagnostic at each expected line whose message
// contains the expected words, at the expected column.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "frontend/project.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace {

fs::path corpus() { return fs::path(fitz_test_source_dir()) / ".." / "shared" / "conformance"; }

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Writes a case into a fresh temp folder (splitting `// --- file: PATH` sections) and returns
// the entry file.
fs::path materialise(const fs::path& source, const std::string& tag) {
  fs::path dir = fs::temp_directory_path() / ("fitz_conformance_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text = read_all(source);
  const std::string marker = "// --- file: ";
  if (!text.starts_with(marker)) {
    fs::path entry = dir / source.filename();
    std::ofstream(entry, std::ios::binary) << text;
    return entry;
  }
  fs::path entry;
  std::ofstream out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(marker)) {
      fs::path p = dir / line.substr(marker.size());
      fs::create_directories(p.parent_path());
      out.close();
      out.open(p, std::ios::binary);
      if (entry.empty()) entry = p;
      continue;
    }
    out << line << "\n";
  }
  return entry;
}

struct Reported {
  uint32_t line, col;
  std::string text;  // "error[E0300]: message"
};

struct CheckRun {
  std::vector<Reported> diags;
  size_t errors = 0;
  std::string rendered;
};

CheckRun check(const fs::path& entry) {
  fitz::frontend::SourceManager sources;
  fitz::frontend::DiagnosticBag diags;
  fitz::frontend::LoadRequest req;
  req.target = entry;
  req.cwd = entry.parent_path();
  fitz::frontend::LoadResult loaded = fitz::frontend::load_program(req, sources, diags);
  CheckRun r;
  if (loaded.fatal) {
    r.errors = 1;
    r.rendered = *loaded.fatal;
    return r;
  }
  fitz::checker::check_program(loaded.graph, sources, diags);
  r.errors = diags.error_count();
  for (const auto& d : diags.sorted()) {
    Reported rep{0, 0, ""};
    if (const auto* f = sources.find(d.span.file)) {
      auto lc = f->line_col(d.span.begin);
      rep.line = lc.line;
      rep.col = lc.col;
    }
    rep.text = std::string(d.severity == fitz::frontend::Severity::Error ? "error[" : "warning[") +
               std::string(fitz::frontend::diag_code(d.kind)) + "]: " + d.message;
    r.rendered += std::to_string(rep.line) + ":" + std::to_string(rep.col) + ": " + rep.text + "\n";
    r.diags.push_back(std::move(rep));
  }
  return r;
}

std::vector<fs::path> cases(const char* sub, const char* ext) {
  std::vector<fs::path> out;
  fs::path dir = corpus() / sub;
  if (!fs::is_directory(dir)) return out;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Conformance, CorpusIsPresent) {
  ASSERT_TRUE(fs::is_directory(corpus() / "run")) << "missing " << corpus() / "run";
  ASSERT_TRUE(fs::is_directory(corpus() / "check")) << "missing " << corpus() / "check";
  EXPECT_FALSE(cases("run", ".fitz").empty());
  EXPECT_FALSE(cases("check", ".fitz").empty());
}

TEST(Conformance, RunProgramsCheckClean) {
  auto files = cases("run", ".fitz");
  ASSERT_FALSE(files.empty()) << "no run cases under " << corpus();
  size_t clean = 0;
  for (const fs::path& f : files) {
    fs::path entry = materialise(f, "run_" + f.stem().string());
    CheckRun r = check(entry);
    fs::remove_all(entry.parent_path());
    EXPECT_EQ(r.errors, 0u) << f.filename() << ":\n" << r.rendered;
    if (r.errors == 0) ++clean;
  }
  std::cout << "[conformance] run cases clean: " << clean << "/" << files.size() << "\n";
}

TEST(Conformance, CheckCasesReportExpectedDiagnostics) {
  auto files = cases("check", ".fitz");
  ASSERT_FALSE(files.empty()) << "no check cases under " << corpus();
  size_t expected = 0, line_words = 0, columns = 0;
  for (const fs::path& f : files) {
    fs::path err = f;
    err.replace_extension(".err");
    fs::path entry = materialise(f, "check_" + f.stem().string());
    CheckRun r = check(entry);
    fs::remove_all(entry.parent_path());
    EXPECT_GT(r.errors, 0u) << f.filename() << " must fail";
    std::istringstream lines(read_all(err));
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      unsigned want_line = 0, want_col = 0;
      int used = 0;
      if (std::sscanf(line.c_str(), "%u:%u %n", &want_line, &want_col, &used) < 2) continue;
      std::string words = lower(line.substr(static_cast<size_t>(used)));
      ++expected;
      bool found = false, exact = false;
      for (const Reported& d : r.diags) {
        if (d.line != want_line || lower(d.text).find(words) == std::string::npos) continue;
        found = true;
        exact |= d.col == want_col;
      }
      EXPECT_TRUE(found) << f.filename() << ": expected `" << line << "`, got:\n" << r.rendered;
      EXPECT_TRUE(!found || exact) << f.filename() << ": column differs for `" << line << "`, got:\n"
                                   << r.rendered;
      line_words += found;
      columns += exact;
    }
  }
  std::cout << "[conformance] check cases: line+words " << line_words << "/" << expected << ", exact column "
            << columns << "/" << expected << "\n";
}

}  // namespace
