// Keeps docs/diagnostics.md honest: its table of codes must equal the one generated from
// frontend/diagnostic_kinds.def (regenerate with `fitz_diag_doc --update docs/diagnostics.md`).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/diagnostics.h"
#include "tests/support/source_dir.h"

namespace fitz::frontend {
namespace {

std::filesystem::path source_root() {
  return fitz_test_source_dir();
}

std::string read_doc() {
  std::ifstream in(source_root() / "docs" / "diagnostics.md", std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(DiagnosticsDoc, TableMatchesTheRegistry) {
  std::string const doc = read_doc();
  ASSERT_FALSE(doc.empty()) << "cannot read docs/diagnostics.md under " << source_root();
  auto const updated = update_diagnostic_table(doc);
  ASSERT_TRUE(updated.has_value()) << "docs/diagnostics.md lost its diagnostic-codes markers";
  if (*updated == doc) return;
  // Name the first stale row rather than dumping both documents.
  auto const have = split_lines(doc);
  auto const want = split_lines(*updated);
  std::size_t i = 0;
  while (i < have.size() && i < want.size() && have[i] == want[i]) ++i;
  ADD_FAILURE() << "docs/diagnostics.md is out of date with frontend/diagnostic_kinds.def; run "
                   "`fitz_diag_doc --update docs/diagnostics.md`.\nfirst difference at line "
                << i + 1 << ":\n  doc:       " << (i < have.size() ? have[i] : "<end>")
                << "\n  generated: " << (i < want.size() ? want[i] : "<end>");
}

}  // namespace
}  // namespace fitz::frontend
