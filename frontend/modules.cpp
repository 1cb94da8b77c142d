// The module loader: resolves `import a.b` / `from a.b import x` to files, loads each module
// once (cached by normalised path), and reports missing modules, missing names and cycles.
#include "frontend/modules.h"

#include <unordered_set>

#include <fmt/format.h>
#include <llvm/Support/Threading.h>

#include "frontend/lower.h"
#include "frontend/parallel.h"
#include "frontend/parse_cache.h"

namespace fitz::frontend {

namespace fs = std::filesystem;

namespace {

std::string dotted(const std::vector<Ident>& segments) {
  std::string s;
  for (const auto& seg : segments) {
    if (!s.empty()) s += '.';
    s += seg.text;
  }
  return s;
}

Span span_of_path(const std::vector<Ident>& segments) {
  Span s = segments.front().span;
  s.end = segments.back().span.end;
  return s;
}

}  // namespace

std::string display_path(const fs::path& abs) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (!ec) {
    fs::path rel = abs.lexically_relative(cwd);
    if (!rel.empty() && *rel.begin() != "..") return rel.string();
  }
  return abs.string();
}

namespace {

// A package named `my-app` is imported as `my_app`: `-` cannot appear in an import path.
std::string importable_name(std::string name) {
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// parent_path() of a normalised absolute path (no "." or ".." parts, no doubled or trailing
// separators), on its text.
std::string parent_of(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return std::string();
  return path.substr(0, slash == 0 ? 1 : slash);
}

fs::path normalise(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  fs::path canon = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : canon;
}

}  // namespace

FileReader disk_reader() {
  return [](const fs::path& path, std::string& error) -> std::optional<std::string> {
    llvm::Expected<std::string> text = read_source_text(path);
    if (text) return std::move(*text);
    // The loader's wording ("cannot find module", E0201 and friends) builds on these reasons.
    llvm::handleAllErrors(text.takeError(), [&](const llvm::ErrorInfoBase& e) {
      std::error_code ec = e.convertToErrorCode();
      if (ec == std::errc::no_such_file_or_directory) error = "no such file";
      else if (ec == std::errc::permission_denied) error = "permission denied";
      else error = e.message();
    });
    return std::nullopt;
  };
}

ModuleId ModuleGraph::find(const fs::path& path) const {
  fs::path want = normalise(path);
  for (uint32_t i = 0; i < modules.size(); ++i)
    if (modules[i].path == want) return ModuleId(i);
  return ModuleId();
}

ModuleLoader::ModuleLoader(SourceManager& sources, DiagnosticBag& diags, FileReader reader, ParseCache* cache)
    : sources_(sources), diags_(diags), reader_(std::move(reader)),
      cache_(cache && &cache->sources() == &sources ? cache : nullptr) {}

void ModuleLoader::set_manifest(Manifest manifest, fs::path project_root) {
  graph_.manifest = std::move(manifest);
  graph_.project_root = std::move(project_root);
}

ModuleId ModuleLoader::load_root(const fs::path& path) {
  ModuleId id = load(path, path.stem().string(), nullptr);
  if (id.valid()) {
    bool seen = false;
    for (ModuleId r : graph_.roots) seen |= r == id;
    if (!seen) graph_.roots.push_back(id);
  }
  return id;
}

const fs::path& ModuleLoader::normalised(const fs::path& raw) {
  // Many modules import the same few: weakly_canonical (a system call per path component) once
  // per path and load, and with a cache once per path while the cache lives (only absolute
  // paths: a relative one means something else after a change of directory).
  auto [known, fresh] = normalised_.try_emplace(raw.string());
  if (!fresh) return known->second;
  const fs::path* remembered = cache_ && raw.is_absolute() ? cache_->normalised_path(known->first) : nullptr;
  if (remembered) {
    known->second = *remembered;
  } else {
    known->second = normalise(raw);
    if (cache_ && raw.is_absolute()) cache_->remember_normalised_path(known->first, known->second);
  }
  return known->second;
}

ModuleId ModuleLoader::load(const fs::path& raw_path, std::string name, const Span* requested_at) {
  // A reference: normalised() keeps the path for the loader's life, and a copy (its text and
  // its list of components) per load of every import is not needed.
  const fs::path& path = normalised(raw_path);
  auto key = path.string();
  if (auto it = by_path_.find(key); it != by_path_.end()) {
    ModuleId id = it->second;
    if (state_[id.index] == State::Loading && requested_at) {
      // The module is an ancestor in the current chain of imports: a cycle.
      std::string chain;
      bool in_cycle = false;
      for (ModuleId m : stack_) {
        in_cycle |= m == id;
        if (in_cycle) chain += fmt::format("`{}` -> ", graph_.modules[m.index].name);
      }
      chain += fmt::format("`{}`", graph_.modules[id.index].name);
      diags_.error(DiagKind::ImportCycle, *requested_at, fmt::format("import cycle: {}", chain))
          .hint = "move the shared declarations into a module that both can import";
    }
    return id;
  }

  std::string error;
  std::optional<Prefetched> ready;
  if (auto ahead = prefetched_.find(key); ahead != prefetched_.end()) {
    ready = std::move(ahead->second);
    prefetched_.erase(ahead);
  } else if (auto ahead = take_ahead(key)) {
    ready = adopt(std::move(*ahead));
  }
  if (ready) {
    ModuleId id(uint32_t(graph_.modules.size()));
    by_path_.emplace(key, id);
    state_.push_back(State::Loading);
    Module m;
    m.name = std::move(name);
    m.path = path;
    m.file = ready->file;
    m.tree = std::move(ready->tree);
    m.ast = std::move(ready->ast);
    for (const Diagnostic& d : ready->diagnostics) diags_.report(d);
    graph_.modules.push_back(std::move(m));
    return finish_load(id);
  }
  // A file the cache knows to be unchanged is not read at all.
  const ParsedModule* known = cache_ ? cache_->current(key) : nullptr;
  std::optional<std::string> text;
  if (!known) text = reader_(path, error);
  if (!known && !text) {
    if (requested_at)
      diags_.error(DiagKind::ModuleNotFound, *requested_at,
                   fmt::format("cannot find module `{}` (looked for `{}`: {})", name, path.string(), error));
    else
      diags_.error(DiagKind::CannotReadFile, Span{},
                   fmt::format("cannot read `{}`: {}", path.string(), error));
    return ModuleId();
  }

  ModuleId id(uint32_t(graph_.modules.size()));
  by_path_.emplace(key, id);
  state_.push_back(State::Loading);
  if (cache_) {
    const ParsedModule* parsed = known ? known : cache_->find(key, *text);
    if (!parsed) parsed = &cache_->parse(key, display_path(path), std::move(*text));
    Module m;
    m.name = std::move(name);
    m.path = path;
    m.file = parsed->file;
    m.tree = parsed->tree.clone();
    if (!cache_->take_back(key, parsed->file, m.ast)) m.ast = cache_->ast_for_load(*parsed);
    graph_.modules.push_back(std::move(m));
    for (const Diagnostic& d : parsed->diagnostics) diags_.report(d);
  } else {
    {
      Module m;
      m.name = std::move(name);
      m.path = path;
      m.file = sources_.add(display_path(path), std::move(*text));
      graph_.modules.push_back(std::move(m));
    }
    Module& m = graph_.modules[id.index];
    m.ast = parse_module(sources_.file(m.file), m.file, diags_, keep_trees_ ? &m.tree : nullptr);
  }

  return finish_load(id);
}

ModuleId ModuleLoader::finish_load(ModuleId id) {
  stack_.push_back(id);
  resolve_imports(id);
  stack_.pop_back();
  state_[id.index] = State::Done;
  graph_.init_order.push_back(id);
  return id;
}

void ModuleLoader::prefetch(const std::vector<fs::path>& raw_paths) {
  // Below this many files the threads cost more than they save; such loads keep the
  // depth-first file order they have always had.
  constexpr size_t kMinFiles = 4;
  // With a parse cache (the language server) files keep the ids the cache gave them, and its
  // owner parses a project ahead itself (Workspace::parse_ahead): ids in prefetch order here
  // would sort an incremental check's diagnostics unlike a fresh one's.
  if (cache_) return;
  // Counted before anything is read: a prefetch too small to run must not read files that
  // load() then reads again.
  std::vector<const fs::path*> wanted;
  std::unordered_set<std::string> keys;
  for (const fs::path& raw : raw_paths) {
    const fs::path& path = normalised(raw);
    std::string key = path.string();
    if (by_path_.count(key) || prefetched_.count(key) || !keys.insert(key).second) continue;
    wanted.push_back(&path);
  }
  if (wanted.size() < kMinFiles) return;
  struct Job {
    std::string key;
    std::string text;
    std::optional<ParsedAhead> ahead;  // parsed and lowered by parse_ahead()
  };
  std::vector<Job> jobs;
  for (const fs::path* path : wanted) {
    std::string key = path->string();
    if (auto ahead = take_ahead(key)) {
      jobs.push_back({std::move(key), std::string(), std::move(ahead)});
      continue;
    }
    std::string error;
    // Unreadable files are left to load(), which reports them where they are requested.
    if (auto text = reader_(*path, error)) jobs.push_back({std::move(key), std::move(*text), std::nullopt});
  }
  // Ids in the order of the request, whoever parsed the file.
  std::vector<Prefetched> done(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].ahead)
      done[i] = adopt(std::move(*jobs[i].ahead));
    else
      done[i].file = sources_.add(display_path(jobs[i].key), std::move(jobs[i].text));
  parallel_for(done.size(), [&](size_t i) {
    if (jobs[i].ahead) return;
    DiagnosticBag diags;
    const SourceFile& source = sources_.file(done[i].file);
    // Whole, not in pieces: the files are already parsed on every core.
    done[i].ast = parse_module(source, done[i].file, diags, &done[i].tree);
    if (!keep_trees_) done[i].tree = SyntaxTree();
    done[i].diagnostics.assign(diags.begin(), diags.end());
  });
  for (size_t i = 0; i < jobs.size(); ++i) prefetched_.emplace(std::move(jobs[i].key), std::move(done[i]));
}

size_t ModuleLoader::parse_ahead(const std::vector<fs::path>& raw_paths) {
  // As for prefetch(): too few files do not pay for a thread, and the language server's cache
  // gives files their ids itself.
  constexpr size_t kMinFiles = 4;
  if (cache_ || ahead_work_ || raw_paths.size() < kMinFiles) return 0;
  // On one core nothing runs beside the walk, and a tree lowered long after its parse is no
  // longer in the cache: the sequential load is quicker there.
  if (llvm::hardware_concurrency().compute_thread_count() < 2) return 0;
  // Read here, on the loading thread: readers need not be thread-safe.
  for (const fs::path& raw : raw_paths) {
    const fs::path& path = normalised(raw);
    std::string key = path.string();
    if (by_path_.count(key) || prefetched_.count(key) || ahead_index_.count(key)) continue;
    std::string error;
    // Unreadable files are left to load(), which reports them where they are requested.
    std::optional<std::string> text = reader_(path, error);
    if (!text) continue;
    ahead_index_.emplace(std::move(key), ahead_.size());
    ahead_.push_back({display_path(path), std::move(*text)});
  }
  if (ahead_.empty()) return 0;
  // Provisional ids, never given by a SourceManager (which would need four billion files).
  constexpr uint32_t kProvisional = 0x80000000u;
  ahead_work_ = std::make_unique<WorkAhead>(ahead_.size(), [this, keep = keep_trees_](size_t i) {
    // Lowered here, right after the parse: the tree is still in the cache, and without
    // keep_syntax_trees() it is freed at once instead of waiting for the load (a project's trees
    // are several times the size of its ASTs).
    ParsedAhead& a = ahead_[i];
    FileId file{kProvisional + uint32_t(i)};
    a.source = std::make_unique<SourceFile>(file, std::move(a.display), std::move(a.text));
    SyntaxTree tree = parse_text(a.source->text());
    DiagnosticBag diags;
    a.ast = lower_module(*a.source, file, tree, diags);
    a.diagnostics.assign(diags.begin(), diags.end());
    if (keep) a.tree = std::move(tree);
  });
  return ahead_.size();
}

std::optional<ModuleLoader::ParsedAhead> ModuleLoader::take_ahead(const std::string& key) {
  auto it = ahead_index_.find(key);
  if (it == ahead_index_.end()) return std::nullopt;
  size_t i = it->second;
  ahead_index_.erase(it);
  ahead_work_->wait(i);
  return std::move(ahead_[i]);
}

ModuleLoader::Prefetched ModuleLoader::adopt(ParsedAhead ahead) {
  Prefetched p;
  p.file = sources_.adopt(std::move(ahead.source));
  refile(ahead.ast, ahead.diagnostics, p.file);
  p.tree = std::move(ahead.tree);
  p.ast = std::move(ahead.ast);
  p.diagnostics = std::move(ahead.diagnostics);
  return p;
}

void ModuleLoader::set_packages(std::vector<PackageRoot> packages) { packages_ = std::move(packages); }

fs::path ModuleLoader::package_entry(const fs::path& dep_root) const {
  fs::path entry = dep_root / "src" / "lib.fitz";
  // A dependency's own manifest names its library entry.
  std::string err;
  if (auto toml = reader_(dep_root / "fitz.toml", err)) {
    SourceManager scratch;
    DiagnosticBag ignored;
    FileId f = scratch.add((dep_root / "fitz.toml").string(), *toml);
    if (auto dm = parse_manifest(scratch.file(f), ignored); dm && dm->lib_entry) entry = dep_root / *dm->lib_entry;
  }
  return entry;
}

std::optional<fs::path> ModuleLoader::resolve_path(const Module& importer,
                                                   const std::vector<Ident>& segments) const {
  // Built as one string and made a path once: every import of every load comes here, and each
  // path operation (parent_path, /=) splits the path into components again.
  std::string base = parent_of(importer.path.native());
  size_t first = 0;
  if (graph_.manifest && graph_.manifest->lib_entry && importable_name(graph_.manifest->name) == segments.front().text) {
    // The package's own name imports its library (how tests/ reach the code they test).
    fs::path entry = graph_.project_root / *graph_.manifest->lib_entry;
    if (segments.size() == 1) return entry;
    base = entry.parent_path().native();
    first = 1;
  } else if (packages_) {
    for (const PackageRoot& pkg : *packages_) {
      if (importable_name(pkg.name) != segments.front().text) continue;
      fs::path entry = package_entry(pkg.root);
      if (segments.size() == 1) return entry;
      base = entry.parent_path().native();
      first = 1;
      break;
    }
  } else if (graph_.manifest) {
    for (const auto& dep : graph_.manifest->dependencies) {
      if (dep.name != segments.front().text || !dep.path) continue;
      fs::path entry = package_entry(graph_.project_root / *dep.path);
      if (segments.size() == 1) return entry;
      base = entry.parent_path().native();
      first = 1;
      break;
    }
  }
  std::string p = std::move(base);
  for (size_t i = first; i < segments.size(); ++i) {
    // Where operator/= puts a separator: not into an empty path, nor after one that ends in it.
    if (!p.empty() && p.back() != '/') p += '/';
    p += segments[i].text;
  }
  p += ".fitz";
  return fs::path(std::move(p));
}

void ModuleLoader::resolve_imports(ModuleId id) {
  // Collect requests first: loading other modules grows graph_.modules and moves this one.
  struct Request {
    StmtId stmt;
    std::vector<Ident> path;
    const FromImportStmt* from;
    // Resolved once for both the prefetch and the load (a dependency's manifest is read to
    // resolve a path into it); unset for `python` and for paths that do not resolve.
    std::optional<fs::path> target;
  };
  std::vector<Request> requests;
  {
    const Module& importer = graph_.modules[id.index];
    for (StmtId s : importer.ast.top_level) {
      const Stmt& stmt = importer.ast.get(s);
      if (auto* imp = std::get_if<ImportStmt>(&stmt.data))
        requests.push_back({s, imp->path, nullptr});
      else if (auto* from = std::get_if<FromImportStmt>(&stmt.data))
        requests.push_back({s, from->path, from});
      else
        continue;
      Request& req = requests.back();
      if (!req.path.empty() && req.path.front().text != "python") req.target = resolve_path(importer, req.path);
    }
  }
  // prefetch() does nothing with a parse cache: no paths for it then.
  if (!cache_) {
    std::vector<fs::path> ahead;
    for (const Request& req : requests)
      if (req.target) ahead.push_back(*req.target);
    prefetch(ahead);
    // Files parsed ahead are parsed in the order they were listed, which is not the order this
    // depth-first walk needs them in: without a hint the walk would mostly find the file it
    // needs next unparsed and parse it itself, while the background threads parse files it
    // needs last (a 200-module chain left the loading thread 62% of the instructions).
    if (ahead_work_)
      for (auto p = ahead.rbegin(); p != ahead.rend(); ++p)
        if (auto it = ahead_index_.find(normalised(*p).string()); it != ahead_index_.end()) ahead_work_->prefer(it->second);
  }
  for (const Request& req : requests) {
    if (req.path.empty()) continue;
    Span at = span_of_path(req.path);
    // `python` is no Fitz module: `from python import m` names Python modules, which the
    // checker types as `Py` and the program imports when it starts.
    if (req.path.front().text == "python") {
      if (!req.from || req.path.size() > 1)
        diags_.error(DiagKind::PythonImportForm, at, "Python modules are imported with `from python import NAME`")
            .hint = "write `from python import m` or `from python import m as alias`";
      graph_.modules[id.index].imports.push_back({req.stmt, ModuleId(), true});
      continue;
    }
    ModuleId target;
    if (req.target) target = load(*req.target, dotted(req.path), &at);
    graph_.modules[id.index].imports.push_back({req.stmt, target});
    if (target.valid() && req.from && state_[target.index] == State::Done)
      check_imported_names(id, *req.from, target);
  }
}

void ModuleLoader::check_imported_names(ModuleId importer, const FromImportStmt& stmt, ModuleId target) {
  const Module& m = graph_.modules[target.index];
  std::vector<Ident> own;
  const std::vector<Ident>* names = cache_ ? cache_->top_level_names(m.path.native(), m.file, m.ast) : nullptr;
  if (!names) {
    own = top_level_names(m.ast);
    names = &own;
  }
  for (const ImportName& want : stmt.names) {
    if (!want.rest.empty()) continue;  // a dotted name: the checker reports it (E0703)
    bool found = false;
    for (const Ident& have : *names) found |= have.text == want.name.text;
    if (!found)
      diags_.error(DiagKind::NameNotFoundInModule, want.name.span,
                   fmt::format("module `{}` has no top-level name `{}`", dotted(stmt.path), want.name.text));
  }
  (void)importer;
}

ModuleGraph ModuleLoader::finish() && { return std::move(graph_); }

std::vector<Ident> top_level_names(const Ast& ast) {
  std::vector<Ident> names;
  for (StmtId s : ast.top_level) {
    const Stmt& stmt = ast.get(s);
    std::visit(
        [&](const auto& d) {
          using T = std::decay_t<decltype(d)>;
          if constexpr (std::is_same_v<T, FnStmt>) {
            if (ast.get(d.fn).name) names.push_back(*ast.get(d.fn).name);
          } else if constexpr (std::is_same_v<T, TypeStmt>) {
            names.push_back(ast.get(d.type).name);
          } else if constexpr (std::is_same_v<T, AnnotatedAssignStmt>) {
            names.push_back(d.name);
          } else if constexpr (std::is_same_v<T, AssignStmt>) {
            if (auto* n = std::get_if<NameRef>(&ast.get(d.target).data)) names.push_back(n->name);
          } else if constexpr (std::is_same_v<T, ImportStmt>) {
            names.push_back(d.alias ? *d.alias : d.path.back());
          } else if constexpr (std::is_same_v<T, FromImportStmt>) {
            for (const auto& n : d.names) names.push_back(n.alias ? *n.alias : n.name);
          }
        },
        stmt.data);
  }
  return names;
}

}  // namespace fitz::frontend
