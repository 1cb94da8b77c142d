// The concrete syntax tree: parser ownership, incremental reparse, and the CST dump.
// A parser is cheap to create (microseconds), so none is cached: no shared mutable state.
#include "frontend/syntax_tree.h"

#include <cstdlib>
#include <string>

extern "C" const TSLanguage* tree_sitter_fitz(void);

namespace fitz::frontend {

SyntaxTree& SyntaxTree::operator=(SyntaxTree&& other) noexcept {
  if (this != &other) {
    if (tree_) ts_tree_delete(tree_);
    tree_ = other.tree_;
    other.tree_ = nullptr;
  }
  return *this;
}

SyntaxTree::~SyntaxTree() {
  if (tree_) ts_tree_delete(tree_);
}

SyntaxTree SyntaxTree::clone() const { return SyntaxTree(tree_ ? ts_tree_copy(tree_) : nullptr); }

void SyntaxTree::apply_edit(const TextEdit& edit) {
  if (!tree_) return;
  TSInputEdit e{edit.start_byte, edit.old_end_byte, edit.new_end_byte,
                edit.start_point, edit.old_end_point, edit.new_end_point};
  ts_tree_edit(tree_, &e);
}

const TSLanguage* fitz_language() { return tree_sitter_fitz(); }

SyntaxTree parse_text(std::string_view text, const SyntaxTree* old) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fitz());
  TSTree* tree = ts_parser_parse_string(parser, old && old->valid() ? old->raw() : nullptr,
                                        text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(parser);
  return SyntaxTree(tree);
}

SyntaxTree parse_text_range(std::string_view text, uint32_t begin, uint32_t end, TSPoint begin_point,
                            TSPoint end_point) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fitz());
  TSRange range{begin_point, end_point, begin, end};
  ts_parser_set_included_ranges(parser, &range, 1);
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(parser);
  return SyntaxTree(tree);
}

std::string cst_sexp(const SyntaxTree& tree) {
  if (!tree.valid()) return "";
  char* s = ts_node_string(tree.root());
  std::string out(s);
  std::free(s);
  return out;
}

}  // namespace fitz::frontend
