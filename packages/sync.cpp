// Reading and writing fitz.lock around a resolution.
#include "packages/sync.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "codegen/toolchain.h"

namespace fitz::packages {

namespace fs = std::filesystem;
using frontend::DiagKind;

namespace {

std::optional<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

bool write_text(const fs::path& p, const std::string& text) {
  fs::path tmp = p.parent_path() / fmt::format(".{}.tmp{}", p.filename().string(), getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace

bool offline_from_env() {
  const char* v = std::getenv("FITZ_OFFLINE");
  return v && *v && std::string_view(v) != "0";
}

fs::path git_cache_dir() { return codegen::cache_dir() / "git"; }

std::optional<SyncResult> sync(const frontend::Manifest& manifest, const fs::path& project_root,
                               const SyncOptions& options, frontend::SourceManager& sources,
                               frontend::DiagnosticBag& diags) {
  SyncResult result;
  fs::path lock_path = (project_root / kLockFileName).lexically_normal();
  std::optional<std::string> old_text = read_text(lock_path);
  if (old_text) {
    frontend::FileId id = sources.add(frontend::display_path(lock_path), *old_text);
    LockParse parsed = parse_lock(*old_text);
    if (!parsed.lock) {
      diags.error(DiagKind::LockfileInvalid, frontend::Span{id, parsed.error.begin, parsed.error.end},
                  fmt::format("invalid fitz.lock: {}", parsed.error.message))
          .with_hint("fitz.lock is generated: delete it and the next command writes it again");
      return std::nullopt;
    }
    result.previous = std::move(parsed.lock);
  }
  GitCache cache(git_cache_dir(), options.offline);
  std::optional<Resolution> resolution =
      resolve(manifest, project_root, result.previous, options.resolve, cache, sources, diags);
  if (!resolution) return std::nullopt;
  result.resolution = std::move(*resolution);
  std::error_code ec;
  if (!options.write_lock) return result;
  if (result.resolution.lock.packages.empty()) {
    if (old_text) fs::remove(lock_path, ec);
  } else {
    std::string text = print_lock(result.resolution.lock);
    if (text != old_text && !write_text(lock_path, text)) {
      diags.error(DiagKind::LockfileInvalid, frontend::Span{}, fmt::format("cannot write `{}`", lock_path.string()));
      return std::nullopt;
    }
  }
  return result;
}

namespace {

frontend::PackageResolver resolver_with(SyncOptions options) {
  return [options](const frontend::Manifest& manifest, const fs::path& project_root, frontend::SourceManager& sources,
                   frontend::DiagnosticBag& diags) -> std::optional<std::vector<frontend::PackageRoot>> {
    std::optional<SyncResult> synced = sync(manifest, project_root, options, sources, diags);
    if (!synced) return std::nullopt;
    return synced->resolution.roots();
  };
}

}  // namespace

frontend::PackageResolver resolver(bool offline) {
  SyncOptions options;
  options.offline = offline;
  return resolver_with(options);
}

frontend::PackageResolver editor_resolver() {
  SyncOptions options;
  options.offline = true;
  options.resolve.verify_hashes = false;
  options.write_lock = false;
  return resolver_with(options);
}

}  // namespace fitz::packages
