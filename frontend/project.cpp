// Resolving what to load: single file, directory, or a project rooted at fitz.toml (its bins,
// its lib, and every module under src/ and tests/), then loading it through ModuleLoader.
#include "frontend/project.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace fitz::frontend {

namespace fs = std::filesystem;

namespace {

// The walk of fitz_files_under; gives up (false) once it has found more than `limit` files.
bool collect_files(const fs::path& dir, std::string_view extension, size_t limit, std::vector<fs::path>& files) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    // The name as a string view: a path object per entry would cost an allocation each.
    std::string_view full = p.native();
    size_t slash = full.rfind('/');
    std::string_view name = slash == std::string_view::npos ? full : full.substr(slash + 1);
    if (it->is_directory(ec)) {
      if (skipped_directory(name)) it.disable_recursion_pending();
      continue;
    }
    if (extension_of(name) == extension) {
      if (files.size() == limit) return false;
      files.push_back(p);
    }
  }
  return true;
}

}  // namespace

std::vector<fs::path> fitz_files_under(const fs::path& dir, std::string_view extension, DirectoryListings* listings) {
  std::vector<fs::path> files;
  if (listings) {
    listings->files_under(dir, extension, files);  // sorted already
    return files;
  }
  collect_files(dir, extension, SIZE_MAX, files);
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

// The modules a file target may import, to parse ahead while its imports are followed: the
// .fitz files below its folder (where its own imports resolve) and, in a project, below the
// project's src/ (its library). Not worth guessing in a folder holding more than a few
// thousand of them (a home directory): then none, and the load is what it was.
std::vector<fs::path> neighbours_of(const fs::path& file, const std::optional<fs::path>& project_root) {
  constexpr size_t kMaxFiles = 2000;
  std::vector<fs::path> files;
  std::vector<fs::path> dirs{file.parent_path()};
  std::error_code ec;
  if (project_root && fs::is_directory(*project_root / "src", ec)) {
    fs::path src = *project_root / "src";
    // Not twice when the file's folder holds src/ or lies inside it.
    auto rel_to_src = file.parent_path().lexically_relative(src);
    auto src_rel = src.lexically_relative(file.parent_path());
    bool inside_src = !rel_to_src.empty() && *rel_to_src.begin() != "..";
    bool holds_src = !src_rel.empty() && *src_rel.begin() != "..";
    if (!inside_src && !holds_src) dirs.push_back(src);
  }
  for (const fs::path& dir : dirs)
    if (!collect_files(dir, ".fitz", kMaxFiles, files)) return {};
  std::sort(files.begin(), files.end());
  std::erase(files, file);
  return files;
}

std::optional<fs::path> find_manifest_above(fs::path dir) {
  std::error_code ec;
  dir = fs::absolute(dir, ec);
  while (true) {
    if (fs::is_regular_file(dir / "fitz.toml", ec)) return dir / "fitz.toml";
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

// Loads fitz.toml into the loader; returns false (with diagnostics) when it is unusable.
bool use_manifest(const fs::path& toml, ModuleLoader& loader, SourceManager& sources,
                  DiagnosticBag& diags, const LoadRequest& req, std::optional<Manifest>& out) {
  const FileReader& reader = req.reader;
  std::string error;
  std::optional<std::string> text = reader(toml, error);
  if (!text) {
    diags.error(DiagKind::ManifestUnreadable, Span{}, fmt::format("cannot read `{}`: {}", toml.string(), error));
    return false;
  }
  FileId f = sources.add(toml.string(), std::move(*text));
  out = parse_manifest(sources.file(f), diags);
  if (!out) return false;
  loader.set_manifest(*out, toml.parent_path());
  if (req.resolve_packages) {
    std::optional<std::vector<PackageRoot>> packages = req.resolve_packages(*out, toml.parent_path(), sources, diags);
    if (!packages) return false;
    loader.set_packages(std::move(*packages));
  }
  return true;
}

}  // namespace

LoadResult load_program(const LoadRequest& req, SourceManager& sources, DiagnosticBag& diags) {
  LoadResult result;
  ModuleLoader loader(sources, diags, req.reader, req.parse_cache);
  loader.keep_syntax_trees(req.keep_syntax_trees);
  std::error_code ec;
  fs::path target = req.target.empty() ? fs::path() : (req.target.is_absolute() ? req.target : req.cwd / req.target);

  if (!target.empty() && !fs::exists(target, ec)) {
    result.fatal = fmt::format("no such file or directory: `{}`", req.target.string());
    return result;
  }

  // The language server keeps the project's directory listings with its parse cache.
  DirectoryListings* listings = req.parse_cache ? &req.parse_cache->listings() : nullptr;
  std::vector<fs::path> roots;
  // The code of live views, loaded after `roots`.
  std::vector<fs::path> view_roots;
  // Modules that are roots and so parsed anyway: they can be parsed ahead, before any import
  // asks for them. For a project or folder they are `roots` themselves (not copied: the
  // language server loads the project on every keystroke).
  std::vector<fs::path> parse_first;
  bool parse_roots = false;
  std::optional<Manifest> manifest;
  bool project = target.empty() || (fs::is_directory(target, ec) && fs::exists(target / "fitz.toml", ec));
  if (project) {
    fs::path start = target.empty() ? req.cwd : target;
    std::optional<fs::path> toml = target.empty() ? find_manifest_above(start) : std::optional(target / "fitz.toml");
    if (!toml) {
      result.fatal = "no fitz.toml in this directory or any parent; name a file or directory to check";
      return result;
    }
    fs::path root = toml->parent_path();
    if (use_manifest(*toml, loader, sources, diags, req, manifest)) {
      for (const auto& bin : manifest->bins) roots.push_back(root / bin.main);
      if (manifest->lib_entry) roots.push_back(root / *manifest->lib_entry);
    } else if (manifest) {
      // The manifest is fine but its dependencies did not resolve: every import of them would
      // only repeat that.
      result.graph = std::move(loader).finish();
      return result;
    }
    for (const char* sub : {"src", "tests"})
      for (auto& f : fitz_files_under(root / sub, ".fitz", listings)) roots.push_back(std::move(f));
    if (roots.empty())
      for (auto& f : fitz_files_under(root, ".fitz", listings)) roots.push_back(std::move(f));
    parse_roots = true;
    if (req.view_root)
      for (auto& f : fitz_files_under(fs::exists(root / "src", ec) ? root / "src" : root, ".fitzv", listings))
        if (auto code = req.view_root(f)) view_roots.push_back(std::move(*code));
  } else if (fs::is_directory(target, ec)) {
    roots = fitz_files_under(target, ".fitz", listings);
    parse_roots = true;
    if (req.view_root)
      for (auto& f : fitz_files_under(target, ".fitzv", listings))
        if (auto code = req.view_root(f)) view_roots.push_back(std::move(*code));
  } else if (target.extension() == ".fitzv" && req.view_root) {
    if (auto code = req.view_root(target)) roots.push_back(*code);
    if (auto toml = find_manifest_above(target.parent_path());
        toml && !use_manifest(*toml, loader, sources, diags, req, manifest) && manifest) {
      result.graph = std::move(loader).finish();
      return result;
    }
  } else {
    roots.push_back(target);
    // A loose file inside a project still resolves the project's path dependencies.
    std::optional<fs::path> toml = find_manifest_above(target.parent_path());
    if (toml && !use_manifest(*toml, loader, sources, diags, req, manifest) && manifest) {
      result.graph = std::move(loader).finish();
      return result;
    }
    // Its imports are only learnt as each importer is lowered, one at a time: the files they
    // will likely name are parsed ahead instead, so checking a project's main file costs what
    // checking its folder does. A file nobody imports is parsed for nothing but never loaded:
    // it adds no file id and no diagnostic.
    parse_first = neighbours_of(fs::absolute(target, ec).lexically_normal(),
                                toml ? std::optional(toml->parent_path()) : std::nullopt);
  }

  result.parsed_ahead = loader.parse_ahead(parse_roots ? roots : parse_first);
  for (const fs::path& r : roots) loader.load_root(r);
  for (const fs::path& r : view_roots) loader.load_root(r);
  result.graph = std::move(loader).finish();
  return result;
}

}  // namespace fitz::frontend
