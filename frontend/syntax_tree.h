// The concrete syntax tree: a thin owner of a tree-sitter parse of one source text, with
// incremental reparsing for the language server. Lowering turns it into the AST.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include <tree_sitter/api.h>

namespace fitz::frontend {

// One edit of a text, in byte offsets, with the line/column points tree-sitter wants
// (0-based rows, byte columns).
struct TextEdit {
  uint32_t start_byte, old_end_byte, new_end_byte;
  TSPoint start_point, old_end_point, new_end_point;
};

class SyntaxTree {
 public:
  SyntaxTree() = default;
  explicit SyntaxTree(TSTree* tree) : tree_(tree) {}
  SyntaxTree(SyntaxTree&& other) noexcept : tree_(other.tree_) { other.tree_ = nullptr; }
  SyntaxTree& operator=(SyntaxTree&& other) noexcept;
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;
  ~SyntaxTree();

  // A cheap copy (tree-sitter trees are reference counted) for keeping an old version.
  SyntaxTree clone() const;

  bool valid() const { return tree_ != nullptr; }
  TSNode root() const { return ts_tree_root_node(tree_); }
  TSTree* raw() const { return tree_; }
  bool has_error() const { return valid() && ts_node_has_error(root()); }

  // Records an edit so the next parse with this tree as `old` reuses unchanged subtrees.
  void apply_edit(const TextEdit& edit);

 private:
  TSTree* tree_ = nullptr;
};

// Parses `text` (any bytes; never fails). With `old`, reparses incrementally: `old` must have
// had every edit since its parse applied with apply_edit.
SyntaxTree parse_text(std::string_view text, const SyntaxTree* old = nullptr);

// Parses only bytes [begin, end) of `text`, which start at `begin_point` (a line start), as a
// file of their own; nodes keep their offsets and points in the whole text.
SyntaxTree parse_text_range(std::string_view text, uint32_t begin, uint32_t end, TSPoint begin_point,
                            TSPoint end_point);

// The tree-sitter language of Fitz (generated parser + external scanner).
const TSLanguage* fitz_language();

// S-expression form of the tree, for `fitz check --dump=cst`.
std::string cst_sexp(const SyntaxTree& tree);

}  // namespace fitz::frontend
