// Resolution of a project's dependency graph: path dependencies found on disk, git
// dependencies pinned to a commit (from fitz.lock when it still matches fitz.toml, else from
// the repository) and checked out in the cache, then the same for each package's own fitz.toml.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/manifest.h"
#include "frontend/modules.h"
#include "frontend/source.h"
#include "packages/git_cache.h"
#include "packages/lockfile.h"

namespace fitz::packages {

struct ResolveOptions {
  // Packages whose tags and revisions are looked up again instead of taken from the lock (the
  // named ones, or every git package when `update_all`).
  std::vector<std::string> update;
  bool update_all = false;
  // Hashing every checkout on each load is right for builds but too slow for an editor's
  // keystrokes; the language server turns it off.
  bool verify_hashes = true;
};

struct ResolvedPackage {
  std::string name;
  std::filesystem::path root;            // where its files are (a folder or a cached checkout)
  std::optional<LockedPackage> locked;   // set for git packages
  std::string requirer;                  // the package that first asked for it
};

struct Resolution {
  std::vector<ResolvedPackage> packages;  // in discovery order, names unique
  Lockfile lock;                          // the git packages, as fitz.lock should say

  std::vector<frontend::PackageRoot> roots() const;
};

// Resolves `manifest` (of the project in `project_root`) against `lock` (the current fitz.lock,
// or nullopt). Dependencies' manifests are added to `sources` so that conflicts point into
// them. Returns nullopt when an error was reported.
std::optional<Resolution> resolve(const frontend::Manifest& manifest, const std::filesystem::path& project_root,
                                  const std::optional<Lockfile>& lock, const ResolveOptions& options,
                                  GitCache& cache, frontend::SourceManager& sources,
                                  frontend::DiagnosticBag& diags);

}  // namespace fitz::packages
