// `fitz check` and `fitz build` agree on every program of the repository's corpora (the golden
// testdata, the end-to-end programs, the examples): a program check rejects is rejected with
// coded diagnostics only (what the editor shows), by `fitz build` too, and a program check
// accepts generates C++ (no "not compiled" error, no internal error). That this C++ compiles is
// the differential test's part (tests/differential/drive.py builds the same corpus, in batches,
// with the release toolchain): here, in the sanitized tree, the compiler would add minutes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include "cli/driver.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace {

fs::path root() { return fs::path(fitz_test_source_dir()); }

// Entry files: single-file cases, and main.fitz of multi-file case folders (testdata), every
// program beside the end-to-end scripts, and each example's entry.
std::vector<fs::path> corpus() {
  std::vector<fs::path> out;
  for (const char* suite : {"syntax", "modules", "check", "ast", "tir", "orm", "openapi", "run"}) {
    fs::path dir = root() / "tests" / "testdata" / suite;
    if (!fs::is_directory(dir)) continue;
    for (auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.path().extension() != ".fitz") continue;
      if (e.path().parent_path() != dir && e.path().filename() != "main.fitz") continue;
      out.push_back(e.path());
    }
  }
  for (auto& e : fs::recursive_directory_iterator(root() / "tests" / "e2e"))
    if (e.path().extension() == ".fitz") out.push_back(e.path());
  for (auto& e : fs::directory_iterator(root() / "examples")) {
    if (fs::exists(e.path() / "src" / "main.fitz")) out.push_back(e.path() / "src" / "main.fitz");
    if (fs::is_directory(e.path()))
      for (auto& f : fs::directory_iterator(e.path()))
        if (f.path().extension() == ".fitz") out.push_back(f.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string rel(const fs::path& p) { return fs::relative(p, root()).string(); }

struct Outcome {
  int rc = 0;
  std::string out;
};

Outcome fitz(std::vector<std::string> args) {
  std::ostringstream out, err;
  Outcome r;
  r.rc = fitz::cli::run(args, {out, err, false});
  r.out = out.str() + err.str();
  return r;
}

// The error lines of `fitz check`'s text output that carry no `error[CODE]`.
std::vector<std::string> uncoded_errors(const std::string& text) {
  static const std::regex kError(R"(^\S+:\d+:\d+: error)");
  static const std::regex kCoded(R"(^\S+:\d+:\d+: error\[[EW]\d{4}\]: )");
  std::vector<std::string> bad;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, kError) && !std::regex_search(line, kCoded)) bad.push_back(line);
  return bad;
}

TEST(CheckBuildParity, EveryCorpusProgramIsRejectedWithCodesOrGenerated) {
  fs::path work = fs::temp_directory_path() / ("fitz_parity_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);

  std::vector<fs::path> programs = corpus();
  ASSERT_GT(programs.size(), 100u) << "the corpora moved: update corpus()";
  size_t rejected = 0;
  size_t accepted = 0;
  for (const fs::path& p : programs) {
    Outcome check = fitz({"check", p.string()});
    if (check.rc != 0) {
      ++rejected;
      EXPECT_EQ(check.rc, 1) << rel(p) << ": `fitz check` ended with " << check.rc << "\n" << check.out;
      EXPECT_NE(check.out.find(": error["), std::string::npos) << rel(p) << ": rejected without a coded error\n"
                                                               << check.out;
      for (const std::string& line : uncoded_errors(check.out)) ADD_FAILURE() << rel(p) << ": an error without a code: " << line;
      // `fitz build` stops at the same diagnostics: the user never meets a build-only error.
      Outcome build = fitz({"build", p.string(), "--emit=cpp", "-o", (work / "rejected.cpp").string()});
      EXPECT_EQ(build.rc, 1) << rel(p) << "\n" << build.out;
      for (const std::string& line : uncoded_errors(build.out)) ADD_FAILURE() << rel(p) << ": `fitz build` error without a code: " << line;
      continue;
    }
    fs::path cpp = work / "accepted.cpp";
    Outcome build = fitz({"build", p.string(), "--emit=cpp", "-o", cpp.string()});
    if (build.rc != 0) {
      ADD_FAILURE() << rel(p) << ": `fitz check` accepts it, `fitz build` ends with " << build.rc << ":\n" << build.out;
      continue;
    }
    EXPECT_GT(fs::file_size(cpp), 0u) << rel(p) << ": `fitz build --emit=cpp` wrote no C++";
    ++accepted;
  }

  std::printf("[parity] %zu programs: %zu rejected with codes, %zu accepted and generated\n", programs.size(),
              rejected, accepted);
  fs::remove_all(work);
}

}  // namespace
