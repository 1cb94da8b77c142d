// fitz.toml: the project manifest model, a strict parser for the TOML subset it uses, and the
// upward search the CLI and the language server share to find a project's root.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace fitz::frontend {

inline constexpr std::string_view kManifestFileName = "fitz.toml";
inline constexpr std::string_view kCurrentEdition = "2026";

// `[bin] main = "…"` (name defaults to the package name) or one `[[bin]]` entry.
struct BinTarget {
  std::string name;
  std::string main;  // path relative to the manifest's directory
  Span span;         // the `main` value
};

// Exactly one of `path` and `git` is set; a git dependency has exactly one of `tag` and `rev`.
struct Dependency {
  std::string name;
  std::optional<std::string> path;  // relative to the manifest's directory
  std::optional<std::string> git;   // the repository URL
  std::optional<std::string> tag;
  std::optional<std::string> rev;
  Span span;         // the dependency's name in the manifest
  Span source_span;  // the `path` or `git` value, for "not found" errors from the loader

  bool is_git() const { return git.has_value(); }
};

struct Manifest {
  FileId file;
  std::string name;
  std::string version;
  std::string edition;
  std::vector<std::string> authors;
  std::string description;
  std::string license;
  std::vector<BinTarget> bins;
  std::optional<std::string> lib_entry;
  std::vector<Dependency> dependencies;             // in file order
  std::vector<std::pair<std::string, bool>> flags;  // `[flags]` defaults, in file order
  // `[python] path = [...]`: folders (relative to the project) Python modules are found in,
  // after the project's `python/` folder.
  std::vector<std::string> python_path;
  // `[lint] deny = [...]`, `allow = [...]`: lint names as written (`fitz lint` checks them).
  std::vector<std::string> lint_deny;
  std::vector<std::string> lint_allow;
};

// `^[a-z][a-z0-9_-]{0,63}$`
bool is_valid_package_name(std::string_view name);

// Parses and validates a fitz.toml already in a SourceManager. Every problem is reported into
// `diagnostics` with a span into the file (syntax errors as E0111, the first one ending the
// parse); unknown keys are warnings. Returns nullopt when any error was reported.
std::optional<Manifest> parse_manifest(SourceFile const& file, DiagnosticBag& diagnostics);

// Reads `path` into `sources` and parses it; an unreadable file is reported as E0110.
std::optional<Manifest> load_manifest(SourceManager& sources, std::filesystem::path const& path,
                                      DiagnosticBag& diagnostics);

// The nearest fitz.toml at or above `start_dir` (a file path starts at its directory), as an
// absolute path; nullopt when no ancestor has one.
std::optional<std::filesystem::path> find_manifest(std::filesystem::path const& start_dir);

}  // namespace fitz::frontend
