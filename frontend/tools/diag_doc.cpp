// fitz_diag_doc: prints the Markdown table of diagnostic codes generated from
// diagnostic_kinds.def, or refreshes/checks the copy embedded in docs/diagnostics.md.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "frontend/diagnostics.h"

namespace {

constexpr std::string_view kUsage =
    "usage: fitz_diag_doc                 print the table of diagnostic codes\n"
    "       fitz_diag_doc --update FILE   rewrite the table between the markers in FILE\n"
    "       fitz_diag_doc --check FILE    exit 1 if the table in FILE is out of date\n";

bool read_all(std::string const& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return static_cast<bool>(in) || in.eof();
}

}  // namespace

int main(int argc, char** argv) {
  using fitz::frontend::diagnostic_table_markdown;
  using fitz::frontend::update_diagnostic_table;
  if (argc == 1) {
    std::fputs(diagnostic_table_markdown().c_str(), stdout);
    return 0;
  }
  std::string_view const mode = argv[1];
  if (argc != 3 || (mode != "--update" && mode != "--check")) {
    std::fputs(kUsage.data(), stderr);
    return 2;
  }
  std::string const path = argv[2];
  std::string document;
  if (!read_all(path, document)) {
    std::fprintf(stderr, "fitz_diag_doc: cannot read %s\n", path.c_str());
    return 2;
  }
  auto const updated = update_diagnostic_table(document);
  if (!updated) {
    std::fprintf(stderr, "fitz_diag_doc: %s has no diagnostic-codes markers\n", path.c_str());
    return 2;
  }
  if (mode == "--check") {
    if (*updated == document) return 0;
    std::fprintf(stderr, "fitz_diag_doc: %s is out of date; run fitz_diag_doc --update %s\n",
                 path.c_str(), path.c_str());
    return 1;
  }
  if (*updated != document) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << *updated;
    if (!out) {
      std::fprintf(stderr, "fitz_diag_doc: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  return 0;
}
