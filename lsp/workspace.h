// The server's model of the user's files: open documents (with versions and incremental
// trees), the analysis units they belong to (the project around a fitz.toml, or a loose file,
// exactly what `fitz check` would load), and which units are stale. No JSON here.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lsp/analysis.h"
#include "lsp/document.h"

namespace fitz::lsp {

// What one load_program call covers: the project around a fitz.toml, or one loose file.
struct Unit {
  std::string key;
  std::filesystem::path target;  // for load_program
  std::filesystem::path cwd;
  bool project = false;
  std::shared_ptr<const Analysis> analysis;  // the latest, possibly stale
  uint64_t generation = 0;                   // identifies the analysis (addresses get reused)
  bool dirty = true;
  // Content hash of every module the analysis read, to tell real changes from no-op saves.
  std::unordered_map<std::string, uint64_t> module_hashes;
  std::unordered_map<std::string, uint32_t> module_files;  // the FileId each hash was taken of
  // Per-module check results of the latest analysis, for the next one to reuse.
  checker::CheckSession session;
  // The lint findings per module of the latest complete analysis, valid with the session's
  // results (cleared when those are dropped or a check is abandoned).
  lint::LintCache lint_cache;
  // Set while the latest analysis is still being checked (after its focus module).
  std::unique_ptr<PendingCheck> pending;
};

class Workspace {
 public:
  Workspace() = default;

  // Documents (paths are normalised; `path` is empty for URIs that are not files).
  Document& open(const std::string& uri, int64_t version, std::string text);
  Document* find(const std::string& uri);
  Document* find_path(const std::filesystem::path& path);
  void change(const std::string& uri, int64_t version, const std::vector<ContentChange>& changes);
  void close(const std::string& uri);
  const std::map<std::string, std::unique_ptr<Document>>& documents() const { return docs_; }

  // Reads open buffers first, then the disk: what every analysis loads through.
  frontend::FileReader reader() const;

  // The unit that answers for a file (created on first use; not analysed yet). A stale project
  // is analysed through `path` only (see refresh).
  Unit& unit_for(const std::filesystem::path& path);
  // The unit, analysed, complete and current.
  Unit& fresh_unit_for(const std::filesystem::path& path);
  std::shared_ptr<const Analysis> analysis_for(const std::filesystem::path& path);
  // Re-runs the analysis of a unit from the current buffers. With a `focus` file of a project,
  // the check stops once that file's module is done: unit.pending is then set (its diagnostics
  // are final, focus_diagnostics), and advance() or complete() check the rest. An analysis
  // still pending when the unit is refreshed again is abandoned, keeping what it checked.
  void refresh(Unit& unit, const std::filesystem::path* focus = nullptr);
  // Checks up to `max_checks` more modules of a pending analysis; true when it is complete.
  bool advance(Unit& unit, size_t max_checks);
  void complete(Unit& unit);

  // A file changed (edited in a buffer, or on disk): every unit that read it, or that would
  // see it as a new root, becomes stale.
  void mark_changed(const std::filesystem::path& path);
  std::vector<Unit*> dirty_units();
  std::vector<Unit*> units();

  // Some unit has an analysis pending and no newer edit.
  bool background_work() const;

  // Running mean of recent analysis times, for the scheduler's debounce.
  double recent_analysis_ms() const { return recent_ms_; }

  // Frees the analyses that refresh() replaced (the server does it after publishing).
  void drop_retired() { retired_.clear(); }

  const frontend::ParseCache* parse_cache() const { return parse_cache_.get(); }
  const frontend::SourceManager* sources() const { return sources_.get(); }
  // Counts the SourceManagers started (FileIds of different managers are unrelated).
  uint64_t sources_generation() const { return sources_generation_; }
  // How many files the loads read from disk so far (unchanged, unopened files are not read).
  uint64_t disk_reads() const { return disk_->reads; }

 private:
  std::optional<std::filesystem::path> project_root_above(const std::filesystem::path& dir) const;

  std::map<std::string, std::unique_ptr<Document>> docs_;        // by URI
  std::unordered_map<std::string, Document*> by_path_;           // by normalised path
  std::map<std::string, std::unique_ptr<Unit>> units_;           // by key
  double recent_ms_ = 0;
  uint64_t analyses_ = 0;
  // Shared by every analysis: unchanged files keep their FileId and their cached parse. Each
  // new content adds a file to the manager for good, so once it holds many files that no
  // cache entry uses, a new manager and cache start (analyses keep the old one alive).
  std::shared_ptr<frontend::SourceManager> sources_;
  std::unique_ptr<frontend::ParseCache> parse_cache_;
  void new_sources();
  // Parses the files of a project not loaded yet on several threads (parse_ahead.cpp).
  void parse_ahead(const Unit& unit);
  uint64_t sources_generation_ = 0;
  // Frees the texts of files in the manager that no cache entry and no unit's analysis uses.
  void release_dead_files();
  std::vector<std::shared_ptr<const Analysis>> retired_;
  std::vector<uint32_t> unreleased_;  // FileIds that may still be in use
  uint32_t tracked_upto_ = 0;         // FileIds below this are in unreleased_ or released

  // What the loads last read from disk per path (stat stamp and content hash): a file whose
  // stamp is the same, and whose cache entry holds that content, is not read again.
  struct DiskStamp {
    int64_t mtime_ns = 0;
    int64_t size = -1;
    uint64_t inode = 0;
    uint64_t hash = 0;
  };
  struct DiskState {
    std::unordered_map<std::string, DiskStamp> stamps;
    uint64_t reads = 0;
  };
  std::shared_ptr<DiskState> disk_ = std::make_shared<DiskState>();
};

}  // namespace fitz::lsp
