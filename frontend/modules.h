// The module graph: loads an entry file and everything it imports (relative to the importing
// file, or from fitz.toml path dependencies), parses and lowers each once, detects cycles.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/manifest.h"
#include "frontend/parallel.h"
#include "frontend/source.h"
#include "frontend/syntax_tree.h"

namespace fitz::frontend {

using ModuleId = Id<struct ModuleTag>;

// A resolved dependency: the directory its package lives in (a path dependency's folder or a
// git checkout in the cache). Names are unique: resolution reports two sources for one name.
struct PackageRoot {
  std::string name;
  std::filesystem::path root;
};

struct ResolvedImport {
  StmtId stmt;
  ModuleId target;  // invalid when the module could not be found (already diagnosed)
  bool python = false;  // `from python import ...`: Python modules, no Fitz module
};

struct Module {
  std::string name;  // dotted import name of its first import, or the file stem for a root
  std::filesystem::path path;  // absolute and normalised; the module's identity
  FileId file;
  // Always valid with a parse cache or keep_syntax_trees(); otherwise a large file parsed in
  // pieces (frontend/piece_parse.h) has none.
  SyntaxTree tree;
  Ast ast;
  std::vector<ResolvedImport> imports;  // one per top-level import statement, in source order
};

struct ModuleGraph {
  std::vector<Module> modules;
  std::vector<ModuleId> roots;
  // Every module after all the modules it imports: the order top-level code runs in.
  std::vector<ModuleId> init_order;
  std::optional<Manifest> manifest;
  std::filesystem::path project_root;  // directory holding fitz.toml; empty without one

  const Module& get(ModuleId id) const { return modules[id.index]; }
  ModuleId find(const std::filesystem::path& path) const;
};

// Reads a file's text; the language server passes one that prefers unsaved editor buffers.
using FileReader =
    std::function<std::optional<std::string>(const std::filesystem::path&, std::string& error)>;
FileReader disk_reader();

// What users see in diagnostics: the path relative to the working directory when the file is
// below it (as they typed it), otherwise absolute.
std::string display_path(const std::filesystem::path& abs);

class ParseCache;

class ModuleLoader {
 public:
  // With a `cache` bound to `sources`, modules whose content the cache holds are not parsed
  // again: their tree and AST are copied from it (or an AST given back to it is taken) and its
  // syntax diagnostics re-reported. A cache
  // bound to another SourceManager is ignored.
  ModuleLoader(SourceManager& sources, DiagnosticBag& diags, FileReader reader = disk_reader(),
               ParseCache* cache = nullptr);

  // Dependencies named in fitz.toml resolve the first segment of an import.
  void set_manifest(Manifest manifest, std::filesystem::path project_root);

  // The whole resolved dependency graph (direct and transitive). Once set, imports resolve
  // against it instead of the manifest's path dependencies, so git dependencies and the
  // dependencies of dependencies are importable.
  void set_packages(std::vector<PackageRoot> packages);

  // Loads a root module and everything it imports. Invalid if the file cannot be read
  // (diagnosed, with `from` as the span of the request when there is one).
  ModuleId load_root(const std::filesystem::path& path);
  // Reads, parses and lowers the files that later loads will ask for, on several threads, when
  // there are enough of them to be worth it. Loading stays sequential and reports exactly what
  // it would have without this (the files' ids in the SourceManager follow the prefetch).
  // Does nothing with a parse cache.
  void prefetch(const std::vector<std::filesystem::path>& paths);
  // For files known before loading starts (every module of a project): reads them now and
  // parses and lowers them on background threads while loading goes on. A file gets its id
  // when loading reaches it, so file ids and diagnostics are exactly those of a load without
  // this. Does nothing with a parse cache; only the first call counts. Returns how many files
  // it took.
  size_t parse_ahead(const std::vector<std::filesystem::path>& paths);

  // Every module keeps its syntax tree (`fitz check --dump=cst`); without this a large file
  // may be parsed in pieces on several threads and keep none.
  void keep_syntax_trees(bool keep) { keep_trees_ = keep; }

  ModuleGraph finish() &&;

 private:
  enum class State : uint8_t { Loading, Done };
  ModuleId load(const std::filesystem::path& path, std::string name, const Span* requested_at);
  // normalise() of `raw`, once per path and load (and across loads through the parse cache);
  // the reference stays valid for the loader's life.
  const std::filesystem::path& normalised(const std::filesystem::path& raw);
  ModuleId finish_load(ModuleId id);  // imports of a just-added module, then it is done
  void resolve_imports(ModuleId id);
  std::filesystem::path package_entry(const std::filesystem::path& dep_root) const;
  std::optional<std::filesystem::path> resolve_path(const Module& importer,
                                                    const std::vector<Ident>& segments) const;
  void check_imported_names(ModuleId importer, const FromImportStmt& stmt, ModuleId target);

  SourceManager& sources_;
  DiagnosticBag& diags_;
  FileReader reader_;
  ParseCache* cache_ = nullptr;
  bool keep_trees_ = false;
  ModuleGraph graph_;
  std::optional<std::vector<PackageRoot>> packages_;
  std::unordered_map<std::string, ModuleId> by_path_;
  std::unordered_map<std::string, std::filesystem::path> normalised_;  // raw path -> normalise()
  std::vector<State> state_;
  std::vector<ModuleId> stack_;  // modules being loaded, for cycle messages
  // Parsed ahead by prefetch() and not loaded yet, by normalised path.
  struct Prefetched {
    FileId file;
    SyntaxTree tree;
    Ast ast;
    std::vector<Diagnostic> diagnostics;
  };
  std::unordered_map<std::string, Prefetched> prefetched_;
  // Read by parse_ahead(), then parsed and lowered by background threads under a provisional
  // file id: a file's id is its place in the order loading reaches it, as without parsing
  // ahead, so it is given when load() or prefetch() takes the entry out of the index (adopt()).
  // Declared before the work so that the work stops first.
  struct ParsedAhead {
    std::string display;  // the path as diagnostics show it
    std::string text;  // until the work moves it into `source`
    std::unique_ptr<SourceFile> source;
    SyntaxTree tree;  // kept with keep_syntax_trees() only
    Ast ast;
    std::vector<Diagnostic> diagnostics;
  };
  std::vector<ParsedAhead> ahead_;
  std::unordered_map<std::string, size_t> ahead_index_;
  std::unique_ptr<WorkAhead> ahead_work_;
  // The entry of `key` when parse_ahead() has it, once its work is done.
  std::optional<ParsedAhead> take_ahead(const std::string& key);
  // Gives a file parsed ahead its id and moves its spans there.
  Prefetched adopt(ParsedAhead ahead);
};

// The names a module defines at top level (functions, types, assigned variables, imports),
// in source order: what `from m import x` may name.
std::vector<Ident> top_level_names(const Ast& ast);

}  // namespace fitz::frontend
