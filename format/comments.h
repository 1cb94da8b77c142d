// Where each comment of a file goes when it is reprinted. Comments are extras in the syntax
// tree, so they can sit anywhere; each one is tied to the token before it (a trailing comment on
// the same line) or to the token after it (a comment on its own line, or a block comment that
// the next token follows on the same line), and the formatter prints it there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace fitz::format {

enum class Placement : uint8_t {
  Trailing,       // after the previous token, on its line
  InlineLeading,  // a block comment before the next token, on the same line
  OwnLine,        // on a line of its own (or several), before the next token
};

struct Comment {
  uint32_t start = 0, end = 0;  // bytes
  std::string text;             // normalised: `//x` becomes `// x`, trailing spaces dropped
  bool is_line = false;         // `//` (else `/* */`)
  Placement placement = Placement::OwnLine;
  // Trailing: end byte of the previous token. Otherwise start byte of the next token (the size
  // of the file when none follows).
  uint32_t key = 0;
  bool newline_after = false;  // a line break follows before the next token or comment
  bool blank_after = false;    // an empty line follows
  bool claimed = false;        // printed (or about to be) by the formatter
};

// Every comment of the tree, in source order, placed. Comments inside string literals (in an
// interpolation hole) are part of the string and not listed.
std::vector<Comment> collect_comments(TSNode root, std::string_view source);

// Counts `\n` in source[begin, end).
uint32_t newlines_between(std::string_view source, uint32_t begin, uint32_t end);

}  // namespace fitz::format
