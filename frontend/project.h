// What a command works on: a file, a directory, or the project around it (walking up to
// fitz.toml). The CLI and the language server load programs through this one function.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/dir_listings.h"
#include "frontend/modules.h"
#include "frontend/parse_cache.h"

namespace fitz::frontend {

// Resolves a project's dependency graph (fetching and locking git dependencies) into package
// roots; reports problems into the bag and returns nullopt when the graph is unusable. The CLI
// passes one from packages/; without one only path dependencies of the project resolve.
using PackageResolver = std::function<std::optional<std::vector<PackageRoot>>(
    const Manifest& manifest, const std::filesystem::path& project_root, SourceManager& sources,
    DiagnosticBag& diags)>;

struct LoadRequest {
  // A .fitz file, a directory, or empty for "the project around `cwd`".
  std::filesystem::path target;
  std::filesystem::path cwd = std::filesystem::current_path();
  FileReader reader = disk_reader();
  // Reuses parses of unchanged files across loads; must be bound to the SourceManager passed
  // to load_program (see frontend/parse_cache.h).
  ParseCache* parse_cache = nullptr;
  // Every module keeps its syntax tree (see ModuleLoader::keep_syntax_trees).
  bool keep_syntax_trees = false;
  PackageResolver resolve_packages;
  // Live views (`.fitzv`): given a view file (the target, or one found where .fitz roots are
  // looked for), returns the path of the Fitz module generated for it, to load as a root
  // through `reader`. Without it, views are not loaded.
  std::function<std::optional<std::filesystem::path>(const std::filesystem::path&)> view_root;
};

struct LoadResult {
  ModuleGraph graph;
  // Set when the request itself is unusable (no such path, no fitz.toml above cwd): a usage or
  // I/O error, exit 2, as opposed to diagnostics in the program.
  std::optional<std::string> fatal;
  // Files read before loading and parsed on background threads (those known up front: a
  // directory's or project's modules, a file target's neighbours); 0 when loading was sequential.
  size_t parsed_ahead = 0;
};

LoadResult load_program(const LoadRequest& request, SourceManager& sources, DiagnosticBag& diags);

// Every .fitz file below `dir`, sorted, skipping hidden directories and build outputs. With
// `listings`, directories unchanged since it last read them are not read again.
std::vector<std::filesystem::path> fitz_files_under(const std::filesystem::path& dir,
                                                    std::string_view extension = ".fitz",
                                                    DirectoryListings* listings = nullptr);

}  // namespace fitz::frontend
