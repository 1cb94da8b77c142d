// An open editor buffer: its text, version and a tree-sitter tree kept current by incremental
// reparsing. Positions from the client are UTF-16; edits are applied in byte offsets.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "frontend/render.h"
#include "frontend/syntax_tree.h"

namespace fitz::lsp {

struct ContentChange {
  std::optional<frontend::LspRange> range;  // absent: `text` replaces the whole document
  std::string text;
};

class Document {
 public:
  Document(std::string uri, std::filesystem::path path, int64_t version, std::string text);

  const std::string& uri() const { return uri_; }
  const std::filesystem::path& path() const { return path_; }
  int64_t version() const { return version_; }
  const std::string& text() const { return text_; }
  const frontend::SyntaxTree& tree() const { return tree_; }
  // frontend::text_hash of text(): a buffer and the parse cache entry of the same text agree.
  uint64_t hash() const { return hash_; }

  // Applies the changes in order (each range is relative to the text after the previous one),
  // then reparses incrementally once.
  void apply(int64_t version, const std::vector<ContentChange>& changes);

 private:
  void edit(const ContentChange& change);

  std::string uri_;
  std::filesystem::path path_;
  int64_t version_;
  std::string text_;
  frontend::SyntaxTree tree_;
  uint64_t hash_ = 0;
};

}  // namespace fitz::lsp
