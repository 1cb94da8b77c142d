// Golden tests: each tests/testdata/<suite>/*.fitz (views: *.fitzv) is run through a `fitz` command in-process
// and its output compared with the `.golden` file beside it. FITZ_UPDATE_GOLDEN=1 rewrites them.
//
// The command for a suite is in kSuites; a file can override the arguments with a first line
// `// ARGS: check --dump=cst` (the file path is appended). Paths in output are made relative to
// the testdata folder so goldens are portable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/driver.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace {

struct Suite {
  const char* dir;
  std::vector<std::string> args;
};

const std::vector<Suite>& suites() {
  static const std::vector<Suite> s = {
      {"ast", {"check", "--dump=ast"}},
      {"syntax", {"check"}},
      {"modules", {"check"}},
      {"check", {"check"}},
      {"tir", {"check", "--dump=tir"}},
      {"orm", {"check", "--dump=orm"}},
      {"services", {"check", "--dump=services"}},
      {"openapi", {"openapi"}},
      {"lint", {"lint"}},
      {"views", {"check", "--dump=view"}},
  };
  return s;
}

fs::path testdata() { return fs::path(fitz_test_source_dir()) / "tests" / "testdata"; }

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

struct Case {
  std::string suite;
  fs::path file;
  std::vector<std::string> args;
};

// gtest prints parameters in failure lines; a path reads better than the object's bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.file.string(); }

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const Suite& s : suites()) {
    fs::path dir = testdata() / s.dir;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (auto& e : fs::recursive_directory_iterator(dir)) {
      // Multi-file cases live in a folder whose entry point is main.fitz. The views suite takes
      // its top-level .fitzv files (its .fitz files and folders are what they import).
      bool views = std::string_view(s.dir) == "views";
      if (e.path().extension() != (views ? ".fitzv" : ".fitz")) continue;
      if (e.path().parent_path() != dir && (views || e.path().filename() != "main.fitz")) continue;
      files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      std::vector<std::string> args = s.args;
      std::ifstream in(f);
      std::string first;
      std::getline(in, first);
      if (first.rfind("// ARGS:", 0) == 0) {
        args.clear();
        std::istringstream words(first.substr(8));
        for (std::string w; words >> w;) args.push_back(w);
      }
      cases.push_back({s.dir, f, args});
    }
  }
  return cases;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string rel = fs::relative(info.param.file, testdata() / info.param.suite).replace_extension().string();
  std::string name = info.param.suite + "_" + rel;
  for (char& c : name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class Golden : public testing::TestWithParam<Case> {};

TEST_P(Golden, MatchesExpectedOutput) {
  const Case& c = GetParam();
  std::vector<std::string> args = c.args;
  fs::path dir = c.file.parent_path();
  // `{dir}` in an ARGS line stands for the case's folder (project-mode checks); otherwise the
  // file itself is the last argument.
  bool has_dir = false;
  for (auto& a : args)
    if (a == "{dir}") a = ".", has_dir = true;
  if (!has_dir) args.push_back(c.file.filename().string());
  // Run from the file's folder so paths in the output are short and machine-independent.
  fs::path old = fs::current_path();
  fs::current_path(dir);
  std::ostringstream out, err;
  int rc = fitz::cli::run(args, {out, err, false});
  fs::current_path(old);

  std::string actual = out.str() + err.str() + "[exit " + std::to_string(rc) + "]\n";
  replace_all(actual, dir.string() + "/", "");
  fs::path golden = fs::path(c.file).replace_extension(".golden");
  if (std::getenv("FITZ_UPDATE_GOLDEN")) {
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << "no golden file " << golden
                                  << "; run `make update-golden` and review the new file";
  EXPECT_EQ(read_all(golden), actual) << "golden mismatch for " << c.file
                                      << "; if the change is intended, run `make update-golden`";
}

INSTANTIATE_TEST_SUITE_P(Testdata, Golden, testing::ValuesIn(all_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Golden);

}  // namespace
