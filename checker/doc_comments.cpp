// Descriptions from comments (doc_comments.h): `//` lines read back from the source text.
#include "checker/doc_comments.h"

#include <vector>

namespace fitz::checker {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The text of a `//` comment without its slashes and the one space after them.
std::string_view comment_text(std::string_view line) {
  while (!line.empty() && line.front() == '/') line.remove_prefix(1);
  return trim(line);
}

}  // namespace

std::string comment_before(const frontend::SourceFile& file, uint32_t begin) {
  uint32_t line = file.line_col(begin).line;
  std::vector<std::string_view> lines;
  for (uint32_t l = line; l-- > 1;) {
    std::string_view text = trim(file.line_text(l));
    if (!text.starts_with("//")) break;
    lines.push_back(comment_text(text));
  }
  std::string out;
  for (size_t i = lines.size(); i-- > 0;) {
    if (!out.empty()) out += '\n';
    out += lines[i];
  }
  return out;
}

std::string comment_after(const frontend::SourceFile& file, uint32_t end) {
  uint32_t line = file.line_col(end).line;
  uint32_t start = file.line_start(line);
  std::string_view text = file.line_text(line);
  if (end < start || end - start > text.size()) return {};
  std::string_view rest = trim(text.substr(end - start));
  if (!rest.empty() && rest.front() == ',') rest = trim(rest.substr(1));
  if (!rest.starts_with("//")) return {};
  return std::string(comment_text(rest));
}

}  // namespace fitz::checker
