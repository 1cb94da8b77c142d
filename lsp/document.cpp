// Applying incremental edits to a buffer and to its syntax tree.
#include "lsp/document.h"

#include "frontend/parse_cache.h"
#include "frontend/source.h"

namespace fitz::lsp {

namespace {

// tree-sitter points: 0-based row, byte column.
TSPoint point_at(std::string_view text, uint32_t offset) {
  TSPoint p{0, 0};
  uint32_t line_start = 0;
  for (uint32_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') {
      ++p.row;
      line_start = i + 1;
    }
  p.column = offset - line_start;
  return p;
}

TSPoint point_after(TSPoint start, std::string_view inserted) {
  TSPoint p = start;
  for (char c : inserted) {
    if (c == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

// The byte offset of an LSP position (0-based line, UTF-16 column), as SourceFile's
// offset_of_utf16 gives it for the whole text, from a SourceFile of that one line: the buffer
// is not copied on every keystroke.
uint32_t offset_at(std::string_view text, uint32_t line0, uint32_t character16) {
  size_t begin = 0;
  for (uint32_t l = 0; l < line0; ++l) {
    size_t nl = text.find('\n', begin);
    if (nl == std::string_view::npos) return uint32_t(text.size());  // past the last line
    begin = nl + 1;
  }
  size_t nl = text.find('\n', begin);
  size_t end = nl == std::string_view::npos ? text.size() : nl + 1;  // with its terminator
  frontend::SourceFile line(frontend::FileId{}, "", std::string(text.substr(begin, end - begin)));
  return uint32_t(begin) + line.offset_of_utf16(0, character16);
}

}  // namespace

Document::Document(std::string uri, std::filesystem::path path, int64_t version, std::string text)
    : uri_(std::move(uri)), path_(std::move(path)), version_(version), text_(std::move(text)) {
  tree_ = frontend::parse_text(text_);
  hash_ = frontend::text_hash(text_);
}

void Document::edit(const ContentChange& change) {
  if (!change.range) {
    text_ = change.text;
    tree_ = frontend::SyntaxTree();  // nothing to reuse
    return;
  }
  uint32_t start = offset_at(text_, change.range->start.line, change.range->start.character);
  uint32_t end = offset_at(text_, change.range->end.line, change.range->end.character);
  if (end < start) std::swap(start, end);
  frontend::TextEdit e;
  e.start_byte = start;
  e.old_end_byte = end;
  e.new_end_byte = start + uint32_t(change.text.size());
  e.start_point = point_at(text_, start);
  e.old_end_point = point_at(text_, end);
  e.new_end_point = point_after(e.start_point, change.text);
  text_.replace(start, end - start, change.text);
  if (tree_.valid()) tree_.apply_edit(e);
}

void Document::apply(int64_t version, const std::vector<ContentChange>& changes) {
  for (const auto& c : changes) edit(c);
  version_ = version;
  tree_ = frontend::parse_text(text_, tree_.valid() ? &tree_ : nullptr);
  // tree-sitter's error recovery may differ between an incremental and a fresh parse of the
  // same broken text; a fresh parse keeps the tree equal to the one `fitz check` builds.
  if (tree_.has_error()) tree_ = frontend::parse_text(text_);
  hash_ = frontend::text_hash(text_);
}

}  // namespace fitz::lsp
