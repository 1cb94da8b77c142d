// The formatter over every Fitz file we have: everything under tests/ (golden data, end-to-end
// projects, fuzz seeds), examples/, bench/ (bench/apps included) and the shared conformance
// corpus. Each file without syntax errors must format (the formatter's own check: same AST,
// same comments), and formatting the result again must change nothing. Files with syntax
// errors must be refused with diagnostics. Then the same again with comments inserted between
// tokens and at line ends, the places where comments are hardest to keep.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "format/cst.h"
#include "format/format.h"
#include "frontend/syntax_tree.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;

namespace fitz::format {
namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  fs::path src = fitz_test_source_dir();
  for (fs::path dir : {src / "tests", src / "examples", src / "bench", src / ".." / "shared" / "conformance"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".fitz") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Formats `text` (named `what` in failures); returns nullopt when it has syntax errors.
std::optional<std::string> format_checked(const std::string& text, const std::string& what) {
  frontend::SourceFile file(frontend::FileId{0}, what, text);
  frontend::DiagnosticBag diags;
  std::string internal;
  auto out = format_source(file, diags, {}, &internal);
  EXPECT_TRUE(internal.empty()) << what << ": " << internal << "\n--- unchecked output:\n"
                                << format_unchecked(text);
  if (!out) {
    EXPECT_TRUE(!internal.empty() || diags.has_errors()) << what << ": refused without a diagnostic";
    return std::nullopt;
  }
  auto again = format_text(*out);
  EXPECT_TRUE(again.has_value()) << what << ": the formatted text does not format";
  if (again) {
    EXPECT_EQ(*again, *out) << what << ": formatting is not idempotent";
  }
  return out;
}

struct Leaf {
  uint32_t start, end;
};

void leaves(TSNode n, std::vector<Leaf>& out) {
  std::string_view type = type_of(n);
  if (type == "comment") return;
  if (ts_node_child_count(n) == 0 || type == "string" || type == "bytes") {
    if (end_of(n) > start_of(n)) out.push_back({start_of(n), end_of(n)});
    return;
  }
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) leaves(ts_node_child(n, i), out);
}

// `text` with a block comment after every `step`-th token that another token follows on the
// same line, and a line comment after the last token of every line.
std::string with_comments(const std::string& text, size_t step) {
  frontend::SyntaxTree tree = frontend::parse_text(text);
  std::vector<Leaf> tokens;
  leaves(tree.root(), tokens);
  std::string out;
  uint32_t pos = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    uint32_t end = tokens[i].end;
    out.append(text, pos, end - pos);
    pos = end;
    size_t nl = text.find('\n', end);
    uint32_t line_end = nl == std::string::npos ? static_cast<uint32_t>(text.size()) : static_cast<uint32_t>(nl);
    bool last_on_line = i + 1 == tokens.size() || tokens[i + 1].start >= line_end;
    bool blank_rest = text.find_first_not_of(" \t\r", end) >= line_end;
    if (last_on_line && blank_rest)
      out += "  // c" + std::to_string(i);
    else if (!last_on_line && i % step == 0)
      out += " /* b" + std::to_string(i) + " */";
  }
  out.append(text, pos, std::string::npos);
  return out;
}

TEST(FormatCorpus, EveryFileFormatsIdempotently) {
  fs::path conformance = fs::path(fitz_test_source_dir()) / ".." / "shared" / "conformance";
  ASSERT_TRUE(fs::exists(conformance)) << "the conformance corpus is missing: " << conformance;
  auto files = corpus_files();
  size_t formatted = 0, refused = 0;
  for (const fs::path& f : files) {
    auto out = format_checked(read_all(f), f.string());
    (out ? formatted : refused)++;
  }
  EXPECT_GT(formatted, 100u);
  EXPECT_GT(refused, 0u);  // the syntax-error cases
  std::cout << "[ formatted " << formatted << " files, refused " << refused << " with syntax errors ]\n";
}

TEST(FormatCorpus, CommentsBetweenTokensAndAtLineEnds) {
  size_t checked = 0;
  for (const fs::path& f : corpus_files()) {
    std::string text = read_all(f);
    if (!format_text(text)) continue;  // syntax errors: covered above
    if (text.size() > 20000) continue;  // the deep-nesting stress files
    for (size_t step : {1, 3}) {
      std::string commented = with_comments(text, step);
      if (ast_fingerprint(commented) != ast_fingerprint(text)) continue;  // a comment broke a token
      format_checked(commented, f.string() + " (comments every " + std::to_string(step) + ")");
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

}  // namespace
}  // namespace fitz::format
