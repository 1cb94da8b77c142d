// What commands call: resolve a project's dependencies against its fitz.lock and bring the lock
// up to date (written only when its bytes change, deleted when no git dependency is left).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "frontend/project.h"
#include "packages/resolve.h"

namespace fitz::packages {

struct SyncOptions {
  bool offline = false;  // `--offline` or FITZ_OFFLINE=1: use only the cache
  ResolveOptions resolve;
  bool write_lock = true;
};

struct SyncResult {
  Resolution resolution;
  std::optional<Lockfile> previous;  // the lock before this run, when there was one
};

std::optional<SyncResult> sync(const frontend::Manifest& manifest, const std::filesystem::path& project_root,
                               const SyncOptions& options, frontend::SourceManager& sources,
                               frontend::DiagnosticBag& diags);

// For LoadRequest::resolve_packages: sync, then hand the package roots to the module loader.
frontend::PackageResolver resolver(bool offline);

// For the language server: offline, from the lock and the cache, without hashing checkouts or
// writing fitz.lock (what the editor shows must not change the project).
frontend::PackageResolver editor_resolver();

// FITZ_OFFLINE set to anything but empty or `0`.
bool offline_from_env();

// <fitz cache>/git: shared by every project of the user.
std::filesystem::path git_cache_dir();

}  // namespace fitz::packages
