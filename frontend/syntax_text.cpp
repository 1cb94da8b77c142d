// Reading the source text around a syntax error: the token before or after an offset, line
// ends, blanks. Error messages need these where the tree only says "something is wrong here".
#include <cctype>

#include "frontend/lower_internal.h"

namespace fitz::frontend::lowering {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool word_char(char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80; }

}  // namespace

bool at_line_end(std::string_view text, uint32_t offset) {
  size_t i = offset;
  while (i < text.size() && blank(text[i])) ++i;
  return i >= text.size() || text[i] == '\n' || text.compare(i, 2, "//") == 0;
}

uint32_t back_over_blanks(std::string_view text, uint32_t offset) {
  uint32_t i = std::min<uint32_t>(offset, uint32_t(text.size()));
  while (i > 0 && (blank(text[i - 1]) || text[i - 1] == '\n')) --i;
  return i;
}

uint32_t line_content_end(std::string_view text, uint32_t offset) {
  size_t e = text.find('\n', offset);
  if (e == std::string_view::npos) e = text.size();
  // A `//` inside a string would fool this; it only moves where a caret points.
  size_t c = text.substr(0, e).find("//", offset);
  if (c != std::string_view::npos) e = c;
  return back_over_blanks(text, uint32_t(e));
}

bool line_break_between(std::string_view text, uint32_t from, uint32_t to) {
  for (uint32_t i = from; i < to && i < text.size(); ++i)
    if (text[i] == '\n') return true;
  return false;
}

bool at_end_of_expression(std::string_view text, uint32_t offset) {
  size_t i = offset;
  while (i < text.size() && (blank(text[i]) || text[i] == '\n')) ++i;
  if (i >= text.size()) return true;
  char c = text[i];
  if (c == ')' || c == ']' || c == '}' || c == ',') return true;
  return at_line_end(text, offset);
}

std::string_view token_before(std::string_view text, uint32_t offset) {
  uint32_t e = back_over_blanks(text, offset);
  if (e == 0) return {};
  uint32_t b = e;
  if (word_char(text[e - 1])) {
    while (b > 0 && word_char(text[b - 1]) && e - b < 24) --b;
  } else {
    while (b > 0 && !word_char(text[b - 1]) && std::string_view(" \t\r\n\"'()[]{}").find(text[b - 1]) == std::string_view::npos &&
           e - b < 3)
      --b;
    if (b == e) b = e - 1;
  }
  return text.substr(b, e - b);
}

bool can_start_token(char32_t cp) {
  if (cp >= 0x80) return cp != 0xFFFD;
  if (cp < 0x20 || cp == 0x7F) return cp == '\t' || cp == '\n' || cp == '\r';
  return std::string_view(";$#!`\\").find(char(cp)) == std::string_view::npos;
}

bool is_binary_operator_text(std::string_view t) {
  static constexpr std::string_view kOps[] = {"+",   "-",  "*",  "/",  "%",  "==",  "!=",  "<",  "<=", ">",  ">=", "&",
                                              "|",   "^",  "<<", ">>", "..", "..=", "and", "or", "xor", "not", "~", "=",
                                              "+=",  "-=", "*=", "/=", "&=", "|=",  "^=",  "<<=", ">>=", "=>", "in"};
  for (std::string_view op : kOps)
    if (op == t) return true;
  return false;
}

NextToken next_token(std::string_view text, uint32_t offset) {
  NextToken t;
  size_t i = offset;
  while (i < text.size() && blank(text[i])) ++i;
  t.begin = t.end = uint32_t(i);
  if (i >= text.size() || text[i] == '\n' || text.compare(i, 2, "//") == 0) return t;
  t.at_line_end = false;
  size_t j = i;
  if (word_char(text[i])) {
    while (j < text.size() && word_char(text[j]) && j - i < 24) ++j;
  } else if (text[i] == '"') {
    j = i + 1;
  } else {
    static constexpr std::string_view kLong[] = {"..=", "<<=", ">>=", "...", "==", "!=", "<=", ">=", "->", "=>",
                                                 "..",  "<<",  ">>",  "+=",  "-=", "*=", "/=", "&=", "|=", "^="};
    j = i + 1;
    for (std::string_view op : kLong)
      if (text.compare(i, op.size(), op) == 0) {
        j = i + op.size();
        break;
      }
  }
  t.end = uint32_t(j);
  t.text = text.substr(i, j - i);
  return t;
}

}  // namespace fitz::frontend::lowering
