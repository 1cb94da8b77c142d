// `fitz add`, `fitz remove` and `fitz update`: edit fitz.toml's [dependencies] in place, resolve
// the dependency graph again and bring fitz.lock up to date. fitz.toml is only written once the
// new graph resolved, so a failed add leaves the project as it was.
#include <fstream>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "cli/driver.h"
#include "frontend/manifest.h"
#include "frontend/modules.h"
#include "frontend/render.h"
#include "packages/manifest_edit.h"
#include "packages/sync.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAddUsage = R"(usage: fitz add NAME --path DIR
       fitz add NAME --git URL (--tag TAG | --rev REV)

Adds (or replaces) the dependency NAME in the [dependencies] of the project's fitz.toml, keeping
every other line as written, then resolves the dependency graph and updates fitz.lock. A git
dependency is fetched into the cache outside the project ($FITZ_CACHE_DIR, else
$XDG_CACHE_HOME/fitz, else ~/.cache/fitz) and pinned in fitz.lock to the commit TAG or REV names.

options:
  --path DIR     a package in a folder, relative to the project
  --git URL      a package in a git repository (any URL git clones: https://, ssh, file://)
  --tag TAG      the tag to use (pinned to its commit in fitz.lock)
  --rev REV      the commit (or any revision git understands) to use
  --offline      use only the cache, never the network (also FITZ_OFFLINE=1)
  -h, --help     show this help
)";

constexpr const char* kRemoveUsage = R"(usage: fitz remove NAME

Removes the dependency NAME from fitz.toml (keeping every other line as written) and from
fitz.lock; the lock is deleted when no git dependency is left.

options:
  --offline      use only the cache, never the network (also FITZ_OFFLINE=1)
  -h, --help     show this help
)";

constexpr const char* kUpdateUsage = R"(usage: fitz update [NAME]

Looks up the tags and revisions of git dependencies again (fetching their repositories and
dropping cached checkouts) and moves fitz.lock to the commits they name now: every git
dependency, or only NAME. Without an update, fitz.lock keeps each dependency at the commit it
recorded for as long as fitz.toml asks for the same tag or rev.

options:
  -h, --help     show this help
)";

struct Project {
  fs::path toml;
  fs::path root;
  std::string text;
};

std::optional<Project> find_project(Io io) {
  std::optional<fs::path> toml = frontend::find_manifest(fs::current_path());
  if (!toml) {
    io.err << "error: no fitz.toml in this directory or any parent\n";
    return std::nullopt;
  }
  std::ifstream in(*toml, std::ios::binary);
  if (!in) {
    io.err << "error: cannot read `" << toml->string() << "`\n";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return Project{*toml, toml->parent_path(), std::move(ss).str()};
}

int report(const frontend::DiagnosticBag& diags, const frontend::SourceManager& sources, Io io) {
  for (const auto& d : diags.sorted())
    io.err << frontend::render(d, sources, frontend::DiagnosticFormat::Text, text_options_of(io));
  io.err << frontend::render_summary(diags.error_count(), diags.warning_count(), io.color);
  return kUserError;
}

// Parses `text` as the project's manifest and syncs the graph; reports and returns nullopt on
// failure.
std::optional<packages::SyncResult> sync_text(const Project& project, const std::string& text,
                                              const packages::SyncOptions& options, Io io) {
  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::FileId id = sources.add(frontend::display_path(project.toml), text);
  std::optional<frontend::Manifest> manifest = frontend::parse_manifest(sources.file(id), diags);
  std::optional<packages::SyncResult> synced;
  if (manifest) synced = packages::sync(*manifest, project.root, options, sources, diags);
  if (!synced || diags.error_count() > 0) {
    report(diags, sources, io);
    return std::nullopt;
  }
  return synced;
}

bool write_manifest(const Project& project, const std::string& text, Io io) {
  std::ofstream out(project.toml, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) {
    io.err << "error: cannot write `" << project.toml.string() << "`\n";
    return false;
  }
  return true;
}

std::string short_rev(const std::string& rev) { return rev.substr(0, 12); }

// Takes `--flag VALUE` or `--flag=VALUE`; false when `arg` is not `flag`.
bool flag_value(const std::vector<std::string>& args, size_t& i, std::string_view flag, std::optional<std::string>& out,
                bool& missing) {
  const std::string& a = args[i];
  if (a == flag) {
    if (i + 1 == args.size()) {
      missing = true;
      return true;
    }
    out = args[++i];
    return true;
  }
  if (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=') {
    out = a.substr(flag.size() + 1);
    return true;
  }
  return false;
}

}  // namespace

int cmd_add(const std::vector<std::string>& args, Io io) {
  std::optional<std::string> name, path, git, tag, rev;
  packages::SyncOptions options;
  options.offline = packages::offline_from_env();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool missing = false;
    if (a == "-h" || a == "--help") {
      io.out << kAddUsage;
      return kOk;
    }
    if (a == "--offline") {
      options.offline = true;
      continue;
    }
    if (flag_value(args, i, "--path", path, missing) || flag_value(args, i, "--git", git, missing) ||
        flag_value(args, i, "--tag", tag, missing) || flag_value(args, i, "--rev", rev, missing)) {
      if (missing) {
        io.err << "error: `" << a << "` needs a value\n\n" << kAddUsage;
        return kUsageError;
      }
      continue;
    }
    if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz add`\n\n" << kAddUsage;
      return kUsageError;
    }
    if (name) {
      io.err << "error: `fitz add` takes one NAME\n\n" << kAddUsage;
      return kUsageError;
    }
    name = a;
  }
  std::string problem;
  if (!name)
    problem = "`fitz add` needs the NAME of the dependency";
  else if (!frontend::is_valid_package_name(*name))
    problem = fmt::format("invalid dependency name `{}`: names match `^[a-z][a-z0-9_-]{{0,63}}$`", *name);
  else if (path.has_value() == git.has_value())
    problem = "give either `--path DIR` or `--git URL`";
  else if (path && (tag || rev))
    problem = "`--tag` and `--rev` only apply to `--git`";
  else if (git && tag.has_value() == rev.has_value())
    problem = "a git dependency needs either `--tag TAG` or `--rev REV`";
  if (!problem.empty()) {
    io.err << "error: " << problem << "\n\n" << kAddUsage;
    return kUsageError;
  }
  std::optional<Project> project = find_project(io);
  if (!project) return kUsageError;
  std::string text = packages::with_dependency(project->text, *name, packages::dependency_line(*name, path, git, tag, rev));
  std::optional<packages::SyncResult> synced = sync_text(*project, text, options, io);
  if (!synced || !write_manifest(*project, text, io)) return kUserError;
  for (const auto& p : synced->resolution.packages) {
    if (p.name != *name) continue;
    if (p.locked)
      io.out << fmt::format("✓ added {} ({} {} at {})\n", *name, *git, tag ? "tag " + *tag : "rev " + *rev,
                            short_rev(p.locked->rev));
    else
      io.out << fmt::format("✓ added {} (path {})\n", *name, *path);
  }
  return kOk;
}

int cmd_remove(const std::vector<std::string>& args, Io io) {
  std::optional<std::string> name;
  packages::SyncOptions options;
  options.offline = packages::offline_from_env();
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      io.out << kRemoveUsage;
      return kOk;
    }
    if (a == "--offline") {
      options.offline = true;
    } else if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz remove`\n\n" << kRemoveUsage;
      return kUsageError;
    } else if (name) {
      io.err << "error: `fitz remove` takes one NAME\n\n" << kRemoveUsage;
      return kUsageError;
    } else {
      name = a;
    }
  }
  if (!name) {
    io.err << "error: `fitz remove` needs the NAME of the dependency\n\n" << kRemoveUsage;
    return kUsageError;
  }
  std::optional<Project> project = find_project(io);
  if (!project) return kUsageError;
  std::optional<std::string> text = packages::without_dependency(project->text, *name);
  if (!text) {
    io.err << "error: `" << *name << "` is not a dependency in " << frontend::display_path(project->toml) << "\n";
    return kUserError;
  }
  if (!sync_text(*project, *text, options, io) || !write_manifest(*project, *text, io)) return kUserError;
  io.out << "✓ removed " << *name << "\n";
  return kOk;
}

int cmd_update(const std::vector<std::string>& args, Io io) {
  packages::SyncOptions options;
  std::optional<std::string> name;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      io.out << kUpdateUsage;
      return kOk;
    }
    if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz update`\n\n" << kUpdateUsage;
      return kUsageError;
    }
    if (name) {
      io.err << "error: `fitz update` takes at most one NAME\n\n" << kUpdateUsage;
      return kUsageError;
    }
    name = a;
  }
  if (packages::offline_from_env()) {
    io.err << "error: `fitz update` fetches, but FITZ_OFFLINE is set\n";
    return kUsageError;
  }
  std::optional<Project> project = find_project(io);
  if (!project) return kUsageError;
  if (name)
    options.resolve.update.push_back(*name);
  else
    options.resolve.update_all = true;
  std::optional<packages::SyncResult> synced = sync_text(*project, project->text, options, io);
  if (!synced) return kUserError;
  bool found = !name;
  int changed = 0;
  for (const auto& p : synced->resolution.packages) {
    if (name && p.name == *name) found = true;
    if (!p.locked) continue;
    const packages::LockedPackage* before = synced->previous ? synced->previous->find(p.name) : nullptr;
    if (before && before->rev == p.locked->rev) continue;
    ++changed;
    io.out << fmt::format("✓ updated {}: {} -> {}\n", p.name, before ? short_rev(before->rev) : "(new)",
                          short_rev(p.locked->rev));
  }
  if (!found) {
    io.err << "error: `" << *name << "` is not a dependency of this project\n";
    return kUserError;
  }
  if (changed == 0) io.out << "✓ dependencies are up to date\n";
  return kOk;
}

}  // namespace fitz::cli
