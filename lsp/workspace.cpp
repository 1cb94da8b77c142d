// Documents, units and staleness. Every analysis goes through analyze() (load_program +
// check_program) with a reader that prefers open buffers, so the server sees what `fitz check`
// would see if the buffers were saved.
#include "lsp/workspace.h"

#include "lsp/uri.h"

namespace fitz::lsp {

namespace fs = std::filesystem;

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
  return [overlay, disk](const fs::path& path, std::string& error) -> std::optional<std::string> {
    auto it = overlay->find(path.string());
    if (it == overlay->end()) it = overlay->find(normalise_path(path).string());
    if (it != overlay->end()) return it->second;
    return disk(path, error);
  };
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
    if (project.dirty) refresh(project);
    // A file the project does not load (outside src/ and the bins) is checked on its own, as
    // `fitz check FILE` would.
    if (project.analysis && !project.analysis->fatal && project.analysis->module_at(path).valid()) return project;
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
  return u;
}

std::shared_ptr<const Analysis> Workspace::analysis_for(const fs::path& path) {
  return fresh_unit_for(path).analysis;
}

namespace {
// Files in the shared SourceManager that no cache entry uses, before it is replaced.
constexpr uint32_t kMaxDeadFiles = 128;
}  // namespace

void Workspace::refresh(Unit& unit) {
  if (!parse_cache_ || sources_->size() > parse_cache_->size() + kMaxDeadFiles) {
    sources_ = std::make_shared<frontend::SourceManager>();
    parse_cache_ = std::make_unique<frontend::ParseCache>(sources_);
    // Check results name FileIds of the old manager.
    for (auto& [key, u] : units_) {
      u->session.reset();
      u->module_files.clear();
    }
  }
  // The buffers' incremental trees spare the loader a parse of the edited files.
  for (const auto& [path, doc] : by_path_)
    if (doc->tree().valid()) parse_cache_->offer_tree(path, doc->text(), doc->tree().clone());
  // The previous analysis gives its program to the new one when nothing else holds it (the
  // server answers requests between analyses, never during one); otherwise a full check.
  // Its ASTs go back to the parse cache, so the load moves the unchanged ones instead of copying.
  std::optional<checker::TypedProgram> previous;
  if (unit.analysis && unit.analysis.use_count() == 1 && !unit.analysis->fatal) {
    auto& old = const_cast<Analysis&>(*unit.analysis);
    previous.emplace(std::move(old.program));
    if (old.source_store == sources_)
      for (auto& m : old.graph.modules) parse_cache_->give_back(m.path.string(), m.file, std::move(m.ast));
  }
  unit.analysis.reset();
  unit.analysis = analyze(unit.target, unit.cwd, reader(), parse_cache_.get(), &unit.session,
                          previous ? &*previous : nullptr);
  parse_cache_->drop_given_back();
  unit.generation = ++analyses_;
  unit.dirty = false;
  // A module whose FileId did not change (same manager) has the content hashed last time.
  std::unordered_map<std::string, uint64_t> hashes;
  std::unordered_map<std::string, uint32_t> files;
  for (const auto& m : unit.analysis->graph.modules) {
    std::string key = m.path.string();
    auto f = unit.module_files.find(key);
    auto h = unit.module_hashes.find(key);
    bool same = f != unit.module_files.end() && f->second == m.file.value &&
                h != unit.module_hashes.end();
    hashes[key] = same ? h->second : content_hash(unit.analysis->sources.file(m.file).text());
    files[key] = m.file.value;
  }
  unit.module_hashes = std::move(hashes);
  unit.module_files = std::move(files);
  // Bounded: one entry per module some unit read last time (a deleted file's entry goes).
  std::unordered_set<std::string> live;
  for (const auto& [key, u] : units_)
    if (u->analysis)
      for (const auto& m : u->analysis->graph.modules) live.insert(m.path.string());
  parse_cache_->retain([&](const std::string& path) { return live.count(path) != 0; });
  double ms = unit.analysis->elapsed_ms;
  // Down at once (one slow full check must not slow the debounce of the quick ones after it),
  // up gradually.
  recent_ms_ = recent_ms_ == 0 || ms < recent_ms_ ? ms : 0.7 * recent_ms_ + 0.3 * ms;
}

void Workspace::mark_changed(const fs::path& raw) {
  fs::path path = normalise_path(raw);
  std::string s = path.string();
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
      std::optional<std::string> text;
      if (Document* d = find_path(path)) text = d->text();
      else text = frontend::disk_reader()(path, err);
      if (text && content_hash(*text) == unit->module_hashes[s]) continue;
      unit->dirty = true;
      continue;
    }
    // A new or deleted module, or the manifest, inside a project changes its set of roots.
    if (unit->project) {
      auto rel = path.lexically_relative(unit->target);
      if (!rel.empty() && *rel.begin() != ".." && (is_manifest || path.extension() == ".fitz")) unit->dirty = true;
    }
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
