// The layout language the formatter prints through: a small Wadler/Prettier-style document of
// texts, line breaks, indentation and groups, and the printer that fits it into a line width.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::format {

enum class DocKind : uint8_t {
  Text,             // literal text; may hold newlines (raw strings and block comments)
  Concat,           // parts in order
  Line,             // a space (or nothing, when soft) when flat, a newline when broken
  HardLine,         // always a newline
  Indent,           // parts[0] one level deeper, when its group is broken
  Group,            // parts[0] flat if it fits, else broken
  IfBreak,          // parts[0] when the enclosing group is broken, parts[1] when flat
  TrailingComment,  // `  // text`: the next text goes to a new line
  EnsureLineStart,  // a newline unless the current line is still empty
};

struct DocNode;
using Doc = std::shared_ptr<const DocNode>;

struct DocNode {
  DocKind kind = DocKind::Text;
  std::string text;
  std::vector<Doc> parts;
  bool soft = false;          // Line: nothing instead of a space when flat
  bool spaced = false;        // Text: preceded by a space unless at a line start or after `([{`
  bool should_break = false;  // Group: always broken
  // Group: broken only because the source had it on several lines (a literal the user wrote
  // multi-line); measured as if flat when an enclosing group decides whether it fits, so that
  // a second formatting pass lays the enclosing group out as the first pass did.
  bool user_broken = false;
  // Group: a forced break inside does not break this group; it is laid out flat when the text up
  // to the first forced newline fits, and its nested groups then decide on their own. Argument
  // lists and method chains use it, so `f(x, fn() {` stays on one line above a multi-line body.
  bool shielded = false;
  bool forces_break = false;  // contains a forced newline that breaks the enclosing groups
  bool user_breaks = false;   // contains a user-broken group, which breaks the enclosing ones too
  // Contains a comment that ends a line, outside any group: the innermost group around it
  // breaks, shielded or not (a comment between two arguments breaks the argument list).
  bool has_comment = false;
};

// ---- builders ------------------------------------------------------------------------------

Doc text(std::string_view s);
Doc concat(std::vector<Doc> parts);
Doc line();       // space or newline
Doc softline();   // nothing or newline
Doc hardline();
Doc indent(Doc d);
Doc group(Doc d, bool should_break = false);
// A group the source wrote on several lines: broken, but measured flat by enclosing groups.
Doc user_broken_group(Doc d);
// `hug`, when given, is the same content with its last element's own group broken: used when
// the whole does not fit flat but fits up to that element's opening bracket (`f(a, [`).
Doc shielded_group(Doc d, bool should_break = false, Doc hug = nullptr);
// `d` with its last group (searching backwards through concatenations) always broken; null
// when `d` has none.
Doc with_last_group_broken(const Doc& d);
Doc if_break(Doc broken, Doc flat = nullptr);
Doc trailing_comment(std::string_view s);
Doc block_comment(std::string_view s);  // a `/* */` comment, kept apart from the token before it
Doc ensure_line_start();
Doc nil();

// Appends to a part list, skipping null docs.
inline void add(std::vector<Doc>& parts, Doc d) {
  if (d) parts.push_back(std::move(d));
}

// Lays the document out within `width` columns (counted in Unicode scalars), `indent_width`
// spaces per level. Trailing spaces are trimmed and the result ends with one newline.
std::string print_doc(const Doc& doc, uint32_t width, uint32_t indent_width);

}  // namespace fitz::format
