// Breadth-first resolution: the project's requirements first, then each new package's. A name
// asked for twice must come from the same place (one folder, or one repository at the same tag,
// rev or commit); anything else is a conflict naming both requirers.
#include "packages/resolve.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "packages/tree_hash.h"

namespace fitz::packages {

namespace fs = std::filesystem;
using frontend::DiagKind;

namespace {

struct Requirement {
  frontend::Dependency dep;
  std::string requirer;
  fs::path base;  // the requirer's directory: path dependencies are relative to it
};

std::string wanted(const Requirement& r) {
  if (r.dep.path) return fmt::format("path \"{}\"", *r.dep.path);
  return fmt::format("git \"{}\" {}", *r.dep.git, r.dep.tag ? fmt::format("tag \"{}\"", *r.dep.tag)
                                                           : fmt::format("rev \"{}\"", r.dep.rev.value_or("")));
}

fs::path canonical_dir(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

DiagKind kind_of(GitFailure f) {
  switch (f) {
    case GitFailure::Fetch: return DiagKind::PackageFetchFailed;
    case GitFailure::RefNotFound: return DiagKind::PackageRefNotFound;
    case GitFailure::Offline: return DiagKind::PackageOffline;
  }
  return DiagKind::PackageFetchFailed;
}

class Resolver {
 public:
  Resolver(const std::optional<Lockfile>& lock, const ResolveOptions& options, GitCache& cache,
           frontend::SourceManager& sources, frontend::DiagnosticBag& diags)
      : lock_(lock), options_(options), cache_(cache), sources_(sources), diags_(diags) {}

  std::optional<Resolution> run(const frontend::Manifest& manifest, const fs::path& project_root) {
    std::deque<Requirement> queue;
    for (const auto& d : manifest.dependencies) queue.push_back({d, manifest.name, project_root});
    while (!queue.empty()) {
      Requirement req = std::move(queue.front());
      queue.pop_front();
      auto seen = std::find_if(taken_.begin(), taken_.end(),
                               [&](const Taken& t) { return t.req.dep.name == req.dep.name; });
      if (seen != taken_.end()) {
        if (!same_source(seen->req, req)) report_conflict(seen->req, req);
        continue;
      }
      std::optional<ResolvedPackage> pkg = fetch(req);
      if (!pkg) {
        failed_ = true;
        continue;
      }
      taken_.push_back({req, pkg->locked ? pkg->locked->rev : ""});
      if (auto own = read_manifest(pkg->root)) {
        for (const auto& d : own->dependencies) {
          queue.push_back({d, req.dep.name, pkg->root});
          if (pkg->locked) pkg->locked->dependencies.push_back(d.name);
        }
      }
      result_.packages.push_back(std::move(*pkg));
    }
    if (failed_ || diags_.error_count() > errors_before_) return std::nullopt;
    for (const auto& p : result_.packages)
      if (p.locked) result_.lock.packages.push_back(*p.locked);
    return std::move(result_);
  }

 private:
  struct Taken {
    Requirement req;
    std::string commit;  // for git packages
  };

  bool same_source(const Requirement& a, const Requirement& b) {
    if (a.dep.path && b.dep.path) return canonical_dir(a.base / *a.dep.path) == canonical_dir(b.base / *b.dep.path);
    if (!a.dep.git || !b.dep.git || *a.dep.git != *b.dep.git) return false;
    if (a.dep.tag == b.dep.tag && a.dep.rev == b.dep.rev) return true;
    // Two spellings of one commit (a tag and its hash) are the same package.
    const Taken& first = *std::find_if(taken_.begin(), taken_.end(),
                                       [&](const Taken& t) { return t.req.dep.name == a.dep.name; });
    GitError ignored;
    std::optional<std::string> commit = cache_.resolve(*b.dep.git, b.dep.tag, b.dep.rev, false, ignored);
    return commit && *commit == first.commit;
  }

  void report_conflict(const Requirement& first, const Requirement& second) {
    failed_ = true;
    diags_
        .error(DiagKind::PackageConflict, second.dep.source_span,
               fmt::format("conflicting requirements for package `{}`: `{}` requires {}, `{}` requires {}", first.dep.name,
                           first.requirer, wanted(first), second.requirer, wanted(second)))
        .with_label(first.dep.source_span, fmt::format("`{}` requires it here", first.requirer))
        .with_hint("make both ask for the same source, or rename one of the packages");
  }

  std::optional<ResolvedPackage> fetch(const Requirement& req) {
    ResolvedPackage pkg;
    pkg.name = req.dep.name;
    pkg.requirer = req.requirer;
    if (req.dep.path) {
      pkg.root = canonical_dir(req.base / *req.dep.path);
      return pkg;
    }
    const std::string& url = *req.dep.git;
    LockedPackage locked;
    locked.name = req.dep.name;
    locked.source = git_source(url, req.dep.tag, req.dep.rev);
    bool update = options_.update_all ||
                  std::find(options_.update.begin(), options_.update.end(), req.dep.name) != options_.update.end();
    const LockedPackage* entry = lock_ ? lock_->find(req.dep.name) : nullptr;
    std::optional<std::string> expected_hash;
    GitError error;
    if (entry && entry->source == locked.source && !update) {
      locked.rev = entry->rev;
      expected_hash = entry->hash;
    } else {
      if (update) cache_.forget_checkouts(url);
      std::optional<std::string> commit = cache_.resolve(url, req.dep.tag, req.dep.rev, update, error);
      if (!commit) return git_failure(req, error);
      locked.rev = *commit;
    }
    std::optional<fs::path> dir = cache_.checkout(url, locked.rev, error);
    if (!dir) return git_failure(req, error);
    pkg.root = *dir;
    if (!options_.verify_hashes && expected_hash) {
      locked.hash = *expected_hash;
      pkg.locked = std::move(locked);
      return pkg;
    }
    std::optional<std::string> hash = tree_hash(*dir);
    if (!hash) {
      diags_.error(DiagKind::PackageFetchFailed, req.dep.source_span,
                   fmt::format("cannot read the checkout of `{}` in `{}`", req.dep.name, dir->string()));
      return std::nullopt;
    }
    if (expected_hash && *hash != *expected_hash) {
      diags_
          .error(DiagKind::PackageHashMismatch, req.dep.source_span,
                 fmt::format("the cached checkout of `{}` ({}) does not match fitz.lock: expected {}, found {}",
                             req.dep.name, dir->string(), *expected_hash, *hash))
          .with_hint(fmt::format("delete `{}` to check it out again, or run `fitz update {}` if the lock is wrong",
                                 dir->string(), req.dep.name));
      return std::nullopt;
    }
    locked.hash = *hash;
    pkg.locked = std::move(locked);
    return pkg;
  }

  std::nullopt_t git_failure(const Requirement& req, const GitError& error) {
    auto& d = diags_.error(kind_of(error.kind), req.dep.source_span,
                           fmt::format("cannot resolve git dependency `{}`: {}", req.dep.name, error.message));
    if (error.kind == GitFailure::Offline)
      d.with_hint("run once without `--offline` (and without FITZ_OFFLINE=1) to fill the cache");
    return std::nullopt;
  }

  // A dependency without a fitz.toml is a plain library with no dependencies of its own.
  std::optional<frontend::Manifest> read_manifest(const fs::path& root) {
    std::error_code ec;
    fs::path toml = root / frontend::kManifestFileName;
    if (!fs::is_regular_file(toml, ec)) return std::nullopt;
    std::ifstream in(toml, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
      diags_.error(DiagKind::ManifestUnreadable, frontend::Span{}, fmt::format("cannot read `{}`", toml.string()));
      return std::nullopt;
    }
    frontend::FileId id = sources_.add(frontend::display_path(toml), std::move(text).str());
    return frontend::parse_manifest(sources_.file(id), diags_);
  }

  const std::optional<Lockfile>& lock_;
  const ResolveOptions& options_;
  GitCache& cache_;
  frontend::SourceManager& sources_;
  frontend::DiagnosticBag& diags_;
  size_t errors_before_ = diags_.error_count();
  std::vector<Taken> taken_;
  Resolution result_;
  bool failed_ = false;
};

}  // namespace

std::vector<frontend::PackageRoot> Resolution::roots() const {
  std::vector<frontend::PackageRoot> out;
  for (const auto& p : packages) out.push_back({p.name, p.root});
  return out;
}

std::optional<Resolution> resolve(const frontend::Manifest& manifest, const fs::path& project_root,
                                  const std::optional<Lockfile>& lock, const ResolveOptions& options, GitCache& cache,
                                  frontend::SourceManager& sources, frontend::DiagnosticBag& diags) {
  return Resolver(lock, options, cache, sources, diags).run(manifest, project_root);
}

}  // namespace fitz::packages
