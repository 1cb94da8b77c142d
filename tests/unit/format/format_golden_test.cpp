// Golden tests of the formatter: tests/testdata/fmt/NAME.fitz formats to NAME.expected.fitz,
// and the expected file is stable under formatting. FITZ_UPDATE_GOLDEN=1 rewrites the
// expected files (review the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "format/format.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace fitz::format {
namespace {

fs::path testdata() { return fs::path(fitz_test_source_dir()) / "tests" / "testdata" / "fmt"; }

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> inputs() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(testdata())) {
    std::string name = e.path().filename().string();
    if (name.ends_with(".fitz") && !name.ends_with(".expected.fitz")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class FormatGolden : public testing::TestWithParam<fs::path> {};

TEST_P(FormatGolden, MatchesExpected) {
  fs::path input = GetParam();
  fs::path expected_path = input;
  expected_path.replace_extension(".expected.fitz");
  frontend::SourceFile file(frontend::FileId{0}, input.string(), read_all(input));
  frontend::DiagnosticBag diags;
  std::string internal;
  auto out = format_source(file, diags, {}, &internal);
  ASSERT_TRUE(out.has_value()) << (internal.empty() ? "syntax errors" : internal) << "\n"
                               << format_unchecked(file.text());
  if (const char* update = std::getenv("FITZ_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(expected_path, std::ios::binary) << *out;
    return;
  }
  ASSERT_TRUE(fs::exists(expected_path)) << expected_path << " is missing; run with FITZ_UPDATE_GOLDEN=1";
  std::string expected = read_all(expected_path);
  EXPECT_EQ(*out, expected) << "formatting " << input.filename().string();
  EXPECT_EQ(format_text(expected).value_or("<refused>"), expected) << "the expected file is not stable";
}

INSTANTIATE_TEST_SUITE_P(Fmt, FormatGolden, testing::ValuesIn(inputs()),
                         [](const testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.stem().string();
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace fitz::format
