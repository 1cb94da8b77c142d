// A cache of parsed modules for repeated loads of the same files (the language server analyses
// after every edit). An entry is keyed by the module's normalised path and holds the syntax
// tree, the lowered AST and the syntax diagnostics of one exact content; a load that reads the
// same content again reuses them instead of parsing and lowering.
//
// Spans in a cached AST carry the FileId of the file in the cache's SourceManager, so the cache
// is bound to one long-lived SourceManager and every load that uses the cache must add its
// files to that manager (the loader checks). A content seen for the first time is added as a
// new file (new FileId); an unchanged content keeps its FileId, so cached ASTs stay valid
// across loads. The manager owns the texts the ASTs point into and is shared with whoever keeps
// a loaded program alive.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/dir_listings.h"
#include "frontend/source.h"
#include "frontend/syntax_tree.h"

namespace fitz::frontend {

struct ParsedModule {
  std::string path;  // normalised
  uint64_t hash = 0;
  FileId file;       // in the cache's SourceManager: the text the AST points into
  SyntaxTree tree;
  Ast ast;  // moved out by the first load (ast_for_load) and then empty
  bool ast_lent = false;
  std::vector<Diagnostic> diagnostics;  // of the parse and lowering, in report order
  // top_level_names() of this content, worked out when an import first asks for them.
  std::optional<std::vector<Ident>> names;
};

class ParseCache {
 public:
  explicit ParseCache(std::shared_ptr<SourceManager> sources);
  ParseCache(const ParseCache&) = delete;
  ParseCache& operator=(const ParseCache&) = delete;

  SourceManager& sources() const { return *sources_; }
  const std::shared_ptr<SourceManager>& shared_sources() const { return sources_; }

  // The entry of `path` when it holds exactly `text`; null otherwise. Counts a hit.
  const ParsedModule* find(const std::string& path, std::string_view text);
  // The entry of `path` when the validator vouches that the file still holds the entry's
  // content, so a load need not read the file at all; null otherwise (or without a validator).
  // The caller knows what changed (an editor's buffers, file stamps, watched-file events).
  using Validator = std::function<bool(const std::string& path, const ParsedModule& entry)>;
  void set_validator(Validator v) { validator_ = std::move(v); }
  const ParsedModule* current(const std::string& path);
  // Every file the entries hold (what must stay in the SourceManager).
  void for_each_file(const std::function<void(FileId)>& f) const;
  // Adds `text` to the SourceManager as `display_name`, parses and lowers it (through an
  // offered tree of that exact text when there is one) and stores the result as the entry of
  // `path`, replacing the entry of an older content.
  const ParsedModule& parse(const std::string& path, std::string display_name, std::string text);

  // Parsing many files at once, on several threads: prepare() adds the texts whose entries do
  // not hold them already to the SourceManager (the display name of each is display_path of its
  // path), parse_prepared() parses and lowers one of them (safe on different entries from
  // different threads while nothing else uses the cache), adopt() stores them as parse() would.
  struct ParseJob {
    std::string path;  // normalised
    std::string text;
  };
  std::vector<std::unique_ptr<ParsedModule>> prepare(std::vector<ParseJob> jobs);
  void parse_prepared(ParsedModule& entry) const;
  void adopt(std::vector<std::unique_ptr<ParsedModule>> entries);

  // A tree-sitter tree of `text` built elsewhere (an editor buffer's incremental tree, which
  // must equal a fresh parse of `text`). The next parse() of exactly that content lowers it
  // instead of parsing again.
  void offer_tree(const std::string& path, std::string_view text, SyntaxTree tree);

  // An AST a finished load no longer needs (a loaded module's copy of the entry of `path` for
  // `file`). The next load of that exact entry takes it instead of copying the entry's AST, so
  // a caller that replaces one loaded program by the next moves unchanged ASTs across instead of
  // copying and freeing them. Ignored unless `file` is the entry's current file.
  void give_back(const std::string& path, FileId file, Ast ast);
  // Moves the given-back AST of `path` for `file` into `out`; false when there is none.
  bool take_back(const std::string& path, FileId file, Ast& out);
  // The AST a load of `entry` (an entry of this cache) keeps: the entry's own, moved out, the
  // first time (a program's ASTs are its biggest part: one copy, not two, and giving it back
  // returns it), else lowered again from the entry's tree (a second program loading the file
  // while the first still holds it).
  Ast ast_for_load(const ParsedModule& entry);
  void drop_given_back() { spares_.clear(); }

  // top_level_names(ast) for the AST a load made of the entry of `path` holding `file`, kept
  // with the entry: every load checks each `from m import x` against them, and they change
  // only with the content. Null when the entry of `path` does not hold `file`.
  const std::vector<Ident>* top_level_names(const std::string& path, FileId file, const Ast& ast);

  // Absolute paths as loads normalised them (symlinks resolved), remembered across loads:
  // resolving one costs a system call per path component, and an editor's loads ask for the
  // same few after every keystroke. A symlink changed while the cache lives is not noticed
  // until clear().
  const std::filesystem::path* normalised_path(const std::string& raw) const;
  void remember_normalised_path(const std::string& raw, const std::filesystem::path& normalised);

  // The directory listings of the loads that use this cache (where they look for modules),
  // kept as long as the cache.
  DirectoryListings& listings() { return listings_; }

  // Drops the entries (and offered trees) whose path `keep` rejects.
  void retain(const std::function<bool(const std::string& path)>& keep);
  void clear();
  size_t size() const { return entries_.size(); }

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  struct Offer {
    uint64_t hash = 0;
    std::string text;
    SyntaxTree tree;
  };
  std::shared_ptr<SourceManager> sources_;
  std::unordered_map<std::string, std::unique_ptr<ParsedModule>> entries_;  // one per path
  std::unordered_map<std::string, Offer> offers_;
  std::unordered_map<std::string, std::pair<FileId, Ast>> spares_;
  std::unordered_map<std::string, std::filesystem::path> normalised_paths_;
  DirectoryListings listings_;
  Validator validator_;
  size_t hits_ = 0;
  size_t misses_ = 0;
};

// The content hash of the cache's keys (and of the language server's buffers): identity for
// caches, not security. xxHash64 takes eight bytes a step where a byte-wise hash such as FNV-1a
// takes one, and an edited file is hashed several times per keystroke.
uint64_t text_hash(std::string_view text);

}  // namespace fitz::frontend
