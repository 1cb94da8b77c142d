// Documents, units and staleness. Every analysis goes through analyze() (load_program +
// check_program) with a reader that prefers open buffers, so the server sees what `fitz check`
// would see if the buffers were saved.
#include "lsp/workspace.h"

#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "frontend/parse_cache.h"
#include "lsp/uri.h"

namespace fitz::lsp {

namespace fs = std::filesystem;

namespace {

// One stat call: modification time, size and inode (a file replaced by a rename has a new one).
bool stat_stamp(const std::string& path, int64_t& mtime_ns, int64_t& size, uint64_t& inode) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  mtime_ns = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  size = int64_t(st.st_size);
  inode = uint64_t(st.st_ino);
  return true;
}

}  // namespace

Document& Workspace::open(const std::string& uri, int64_t version, std::string text) {
  fs::path path;
  if (auto p = uri_to_path(uri)) path = normalise_path(*p);
  auto doc = std::make_unique<Document>(uri, path, version, std::move(text));
  Document& d = *doc;
  if (auto it = docs_.find(uri); it != docs_.end() && !it->second->path().empty())
    by_path_.erase(it->second->path().string());
  docs_[uri] = std::move(doc);
  if (!path.empty()) {
    by_path_[path.string()] = &d;
    mark_changed(path);
  }
  return d;
}

Document* Workspace::find(const std::string& uri) {
  auto it = docs_.find(uri);
  return it == docs_.end() ? nullptr : it->second.get();
}

Document* Workspace::find_path(const fs::path& path) {
  auto it = by_path_.find(normalise_path(path).string());
  return it == by_path_.end() ? nullptr : it->second;
}

void Workspace::change(const std::string& uri, int64_t version, const std::vector<ContentChange>& changes) {
  Document* d = find(uri);
  if (!d) return;
  d->apply(version, changes);
  if (!d->path().empty()) mark_changed(d->path());
}

void Workspace::close(const std::string& uri) {
  auto it = docs_.find(uri);
  if (it == docs_.end()) return;
  fs::path path = it->second->path();
  if (!path.empty()) by_path_.erase(path.string());
  docs_.erase(it);
  // The disk version (maybe different from the buffer) is what counts now.
  if (!path.empty()) mark_changed(path);
  // Loose units exist for open files only.
  if (!path.empty()) units_.erase("file:" + path.string());
}

frontend::FileReader Workspace::reader() const {
  frontend::FileReader disk = frontend::disk_reader();
  // Copies of the buffers: the reader may outlive a later edit.
  auto overlay = std::make_shared<std::unordered_map<std::string, std::string>>();
  for (const auto& [path, doc] : by_path_) (*overlay)[path] = doc->text();
  return [overlay, disk, state = disk_](const fs::path& path, std::string& error) -> std::optional<std::string> {
    auto it = overlay->find(path.string());
    if (it == overlay->end()) it = overlay->find(normalise_path(path).string());
    if (it != overlay->end()) return it->second;
    // Stamped before reading: a write in between leaves an older stamp, so it is read again.
    DiskStamp st;
    bool stamped = stat_stamp(path.string(), st.mtime_ns, st.size, st.inode);
    std::optional<std::string> text = disk(path, error);
    ++state->reads;
    // A file modified within the timestamp granularity of this read could change again
    // without its stamp changing: it is read again until its stamp is older than that.
    struct timespec wall;
    ::clock_gettime(CLOCK_REALTIME, &wall);
    int64_t now_ns = int64_t(wall.tv_sec) * 1000000000 + wall.tv_nsec;
    if (stamped && now_ns - st.mtime_ns < 100'000'000) stamped = false;
    if (text && stamped) {
      st.hash = frontend::text_hash(*text);
      state->stamps[path.string()] = st;
    } else {
      state->stamps.erase(path.string());
    }
    return text;
  };
}

void Workspace::new_sources() {
  sources_ = std::make_shared<frontend::SourceManager>();
  parse_cache_ = std::make_unique<frontend::ParseCache>(sources_);
  ++sources_generation_;
  unreleased_.clear();
  tracked_upto_ = 0;
  // An unopened file whose stamp is the one of the read the cache entry came from has not
  // changed; open buffers always go through the reader (their text is at hand).
  parse_cache_->set_validator([this](const std::string& path, const frontend::ParsedModule& entry) {
    if (by_path_.count(path)) return false;
    auto it = disk_->stamps.find(path);
    if (it == disk_->stamps.end() || it->second.hash != entry.hash) return false;
    DiskStamp now;
    if (!stat_stamp(path, now.mtime_ns, now.size, now.inode)) return false;
    return now.mtime_ns == it->second.mtime_ns && now.size == it->second.size && now.inode == it->second.inode;
  });
}

void Workspace::release_dead_files() {
  std::unordered_set<uint32_t> live;
  parse_cache_->for_each_file([&](frontend::FileId f) { live.insert(f.value); });
  for (const auto& [key, u] : units_) {
    if (!u->analysis || u->analysis->source_store != sources_) continue;
    for (const auto& m : u->analysis->graph.modules) live.insert(m.file.value);
    // A view's diagnostics are mapped into it only once the check is complete.
    if (u->analysis->view_checker)
      for (frontend::FileId f : u->analysis->view_checker->view_files()) live.insert(f.value);
    for (const auto& d : u->analysis->diagnostics) {
      live.insert(d.span.file.value);
      for (const auto& l : d.labels) live.insert(l.span.file.value);
      for (const auto& f : d.fixes) live.insert(f.span.file.value);
    }
  }
  for (; tracked_upto_ < sources_->size(); ++tracked_upto_) unreleased_.push_back(tracked_upto_);
  std::erase_if(unreleased_, [&](uint32_t f) {
    if (live.count(f)) return false;
    sources_->release(frontend::FileId{f});
    return true;
  });
}

std::optional<fs::path> Workspace::project_root_above(const fs::path& dir) const {
  std::error_code ec;
  fs::path d = dir;
  while (true) {
    if (fs::is_regular_file(d / "fitz.toml", ec)) return d;
    if (!d.has_parent_path() || d.parent_path() == d) return std::nullopt;
    d = d.parent_path();
  }
}

Unit& Workspace::unit_for(const fs::path& raw) {
  fs::path path = normalise_path(raw);
  if (auto root = project_root_above(path.parent_path())) {
    std::string key = "project:" + root->string();
    auto it = units_.find(key);
    if (it == units_.end()) {
      auto u = std::make_unique<Unit>();
      u->key = key;
      u->target = *root;
      u->cwd = *root;
      u->project = true;
      it = units_.emplace(key, std::move(u)).first;
    }
    Unit& project = *it->second;
    if (project.dirty) refresh(project, &path);
    // A file the project does not load (outside src/ and the bins) is checked on its own, as
    // `fitz check FILE` would.
    if (project.analysis && !project.analysis->fatal &&
        (project.analysis->module_at(path).valid() || project.analysis->reads_view(path)))
      return project;
  }
  std::string key = "file:" + path.string();
  auto it = units_.find(key);
  if (it == units_.end()) {
    auto u = std::make_unique<Unit>();
    u->key = key;
    u->target = path;
    u->cwd = path.parent_path();
    it = units_.emplace(key, std::move(u)).first;
  }
  return *it->second;
}

Unit& Workspace::fresh_unit_for(const fs::path& path) {
  Unit& u = unit_for(path);
  if (u.dirty || !u.analysis) refresh(u);
  complete(u);
  return u;
}

std::shared_ptr<const Analysis> Workspace::analysis_for(const fs::path& path) {
  return fresh_unit_for(path).analysis;
}

namespace {
// Files a shared SourceManager may have added before it is replaced. Files no one uses any
// more are released (their texts freed) after every analysis, so what is left of them is a
// path each; replacing the manager costs a parse and a full check of every unit.
constexpr uint32_t kMaxFiles = 1u << 16;
}  // namespace

void Workspace::refresh(Unit& unit, const fs::path* focus) {
  retired_.clear();  // when no one dropped them since the last refresh
  bool first = !unit.analysis;
  // A superseded check stops where it is; its program (with what it checked) is the previous one.
  std::optional<checker::TypedProgram> previous;
  if (unit.pending) {
    previous.emplace(unit.session.abandon());
    // The findings of the modules the abandoned check checked again are of tables that are
    // gone, and the next check may reuse those modules: they go. The others' findings stay (a
    // module's lints read only its own results), so typing faster than the check completes
    // does not mean linting the whole program again once it does.
    const frontend::ModuleGraph& graph = unit.pending->analysis->graph;
    for (ModuleId id : unit.session.rechecked())
      if (id.valid() && id.index < graph.modules.size()) unit.lint_cache.erase(graph.get(id).file.value);
    unit.pending.reset();
  }
  if (!parse_cache_ || sources_->size() > kMaxFiles) {
    // Check results name FileIds of the old manager.
    for (auto& [key, u] : units_) {
      complete(*u);
      u->session.reset();
      u->lint_cache.clear();
      u->module_files.clear();
    }
    new_sources();
  }
  // The buffers' incremental trees spare the loader a parse of the edited files.
  for (const auto& [path, doc] : by_path_)
    if (doc->tree().valid()) parse_cache_->offer_tree(path, doc->text(), doc->tree().clone());
  if (!unit.analysis || parse_cache_->size() == 0) parse_ahead(unit);
  // The previous analysis gives its program to the new one when nothing else holds it (the
  // server answers requests between analyses, never during one); otherwise a full check.
  // Its ASTs go back to the parse cache, so the load moves the unchanged ones instead of copying.
  // What is left of the old analysis's program once moved is the new analysis's starting shell.
  std::optional<checker::TypedProgram> shell;
  if (unit.analysis && unit.analysis.use_count() == 1 && !unit.analysis->fatal) {
    auto& old = const_cast<Analysis&>(*unit.analysis);
    // An abandoned analysis's own program is still the shell it started with.
    if (!previous) previous.emplace(std::move(old.program));
    shell.emplace(std::move(old.program));
    if (old.source_store == sources_)
      for (auto& m : old.graph.modules) parse_cache_->give_back(m.path.string(), m.file, std::move(m.ast));
  }
  // Freeing the old analysis (its trees and tables) waits until the new one is published.
  retired_.push_back(std::move(unit.analysis));
  if (focus && unit.project)
    unit.pending = analyze_through(unit.target, unit.cwd, reader(), parse_cache_.get(), unit.session,
                                   previous ? &*previous : nullptr, *focus, unit.analysis, &unit.lint_cache,
                                   shell ? &*shell : nullptr);
  else
    unit.analysis = analyze(unit.target, unit.cwd, reader(), parse_cache_.get(), &unit.session,
                            previous ? &*previous : nullptr, &unit.lint_cache);
  parse_cache_->drop_given_back();
  unit.generation = ++analyses_;
  unit.dirty = false;
  // A module whose FileId did not change (same manager) has the content hashed last time. The
  // maps are updated in place (a keystroke changes one entry), and rebuilt only when some
  // module is gone.
  const auto& modules = unit.analysis->graph.modules;
  for (const auto& m : modules) {
    const std::string& key = m.path.native();
    auto f = unit.module_files.find(key);
    auto h = unit.module_hashes.find(key);
    bool same = f != unit.module_files.end() && f->second == m.file.value &&
                h != unit.module_hashes.end();
    if (same) continue;
    unit.module_hashes[key] = frontend::text_hash(unit.analysis->sources.file(m.file).text());
    unit.module_files[key] = m.file.value;
  }
  if (unit.module_hashes.size() != modules.size() || unit.module_files.size() != modules.size()) {
    std::unordered_set<std::string> loaded;
    for (const auto& m : modules) loaded.insert(m.path.native());
    std::erase_if(unit.module_hashes, [&](const auto& e) { return !loaded.count(e.first); });
    std::erase_if(unit.module_files, [&](const auto& e) { return !loaded.count(e.first); });
  }
  // Bounded: one entry per module some unit read last time (a deleted file's entry goes).
  std::unordered_set<std::string> live;
  for (const auto& [key, u] : units_)
    if (u->analysis)
      for (const auto& m : u->analysis->graph.modules) live.insert(m.path.string());
  parse_cache_->retain([&](const std::string& path) { return live.count(path) != 0; });
  release_dead_files();
  // A unit's first analysis parses and checks everything, which says nothing about the edits.
  if (first) return;
  double ms = unit.analysis->elapsed_ms;
  // Down at once (one slow full check must not slow the debounce of the quick ones after it),
  // up gradually.
  recent_ms_ = recent_ms_ == 0 || ms < recent_ms_ ? ms : 0.7 * recent_ms_ + 0.3 * ms;
}

bool Workspace::advance(Unit& unit, size_t max_checks) {
  if (!unit.pending) return true;
  if (!continue_analysis(*unit.pending, unit.session, max_checks)) return false;
  unit.pending.reset();
  return true;
}

void Workspace::complete(Unit& unit) { advance(unit, SIZE_MAX); }

bool Workspace::background_work() const {
  for (const auto& [key, u] : units_)
    if (u->pending && !u->dirty) return true;
  return false;
}

void Workspace::mark_changed(const fs::path& raw) {
  fs::path path = normalise_path(raw);
  std::string s = path.string();
  // Read it again next time, whatever its stamp says (a watched-file event, a closed buffer).
  disk_->stamps.erase(s);
  bool is_manifest = path.filename() == "fitz.toml";
  for (auto& [key, unit] : units_) {
    if (unit->dirty) continue;
    if (unit->key == "file:" + s) {
      unit->dirty = true;
      continue;
    }
    if (unit->module_hashes.count(s)) {
      // Skip when the content is what the analysis already read (a save, a reopen).
      std::string err;
      if (Document* d = find_path(path)) {
        if (d->hash() == unit->module_hashes[s]) continue;  // the buffer hashed its text already
        unit->dirty = true;
        continue;
      }
      std::optional<std::string> text = frontend::disk_reader()(path, err);
      if (text && frontend::text_hash(*text) == unit->module_hashes[s]) continue;
      unit->dirty = true;
      continue;
    }
    // A new or deleted module, or the manifest, inside a project changes its set of roots.
    if (unit->project) {
      auto rel = path.lexically_relative(unit->target);
      if (!rel.empty() && *rel.begin() != ".." && (is_manifest || path.extension() == ".fitz" || path.extension() == ".fitzv"))
        unit->dirty = true;
    }
    // A view the unit read (a component some module imports) is not one of its modules.
    if (unit->analysis && unit->analysis->reads_view(path)) unit->dirty = true;
    // A loose file may import the changed one through a path the graph never reached.
    if (!unit->project && path.extension() == ".fitz" && unit->analysis) {
      for (const auto& d : unit->analysis->diagnostics)
        if (d.kind == frontend::DiagKind::ModuleNotFound) unit->dirty = true;
    }
  }
}

std::vector<Unit*> Workspace::dirty_units() {
  std::vector<Unit*> out;
  for (auto& [k, u] : units_)
    if (u->dirty) out.push_back(u.get());
  return out;
}

std::vector<Unit*> Workspace::units() {
  std::vector<Unit*> out;
  for (auto& [k, u] : units_) out.push_back(u.get());
  return out;
}

}  // namespace fitz::lsp
