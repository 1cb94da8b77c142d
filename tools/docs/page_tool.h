// The command line shared by the tools that generate a reference page from a registry:
//   TOOL                 prints the generated text
//   TOOL --check PAGE    exits 1 when PAGE differs from what it would be
//   TOOL --update PAGE   rewrites PAGE when it differs
// `render` makes the page's new text from its current text (nullptr: the generated text alone);
// it returns nothing, with a message in `error`, when the page cannot be made.
#pragma once

#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace fitz::docs {

// A Markdown table cell: a raw `|` would end it.
inline std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

using RenderPage = std::function<std::optional<std::string>(const std::string* current, std::string& error)>;

inline int page_tool_main(int argc, char** argv, std::string_view tool, std::string_view usage,
                          const RenderPage& render) {
  std::string error;
  if (argc == 1) {
    std::optional<std::string> page = render(nullptr, error);
    if (!page) {
      std::fputs(error.c_str(), stderr);
      return 1;
    }
    std::fputs(page->c_str(), stdout);
    return 0;
  }
  std::string_view mode = argv[1];
  if (argc != 3 || (mode != "--update" && mode != "--check")) {
    std::fwrite(usage.data(), 1, usage.size(), stderr);
    return 2;
  }
  std::string path = argv[2], doc;
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::ostringstream buffer;
    buffer << in.rdbuf();
    doc = buffer.str();
  }
  if (!in && mode == "--check") {
    std::fprintf(stderr, "%.*s: cannot read %s\n", int(tool.size()), tool.data(), path.c_str());
    return 1;
  }
  std::optional<std::string> updated = render(in ? &doc : nullptr, error);
  if (!updated) {
    std::fprintf(stderr, "%.*s: %s: %s", int(tool.size()), tool.data(), path.c_str(), error.c_str());
    return mode == "--check" ? 1 : 2;
  }
  if (*updated == doc) return 0;
  if (mode == "--check") {
    std::fprintf(stderr, "%.*s: %s is out of date; run %.*s --update %s\n", int(tool.size()), tool.data(),
                 path.c_str(), int(tool.size()), tool.data(), path.c_str());
    return 1;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << *updated;
  if (!out) {
    std::fprintf(stderr, "%.*s: cannot write %s\n", int(tool.size()), tool.data(), path.c_str());
    return 2;
  }
  return 0;
}

}  // namespace fitz::docs
