// One analysed program: the frontend's module graph and the checker's typed program for a set
// of roots, built by the same load_program + check_program calls that `fitz check` makes.
// Immutable once built; features read it, the workspace replaces it.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/incremental.h"
#include "checker/view_check.h"
#include "frontend/diagnostics.h"
#include "frontend/modules.h"
#include "frontend/parse_cache.h"
#include "frontend/project.h"
#include "frontend/source.h"
#include "lint/lint.h"

namespace fitz::lsp {

using frontend::ModuleId;
struct ModuleIndex;

struct Analysis {
  // The server shares one SourceManager (and a parse cache bound to it) between analyses, so
  // unchanged files keep their FileId and cached ASTs; an analysis keeps its manager alive.
  // `shell`: a program to start from instead of building an empty one, which costs as much as a
  // keystroke's re-check in copying the built-in tables; the check replaces it anyway. The
  // workspace passes the husk left when the previous analysis's program moved to the checker
  // (no tables at all): a load that fails (`fatal`) then gets an empty program, so features
  // always read a program with tables.
  explicit Analysis(std::shared_ptr<frontend::SourceManager> store = std::make_shared<frontend::SourceManager>(),
                    checker::TypedProgram* shell = nullptr)
      : source_store(std::move(store)), sources(*source_store), program(shell ? std::move(*shell) : checker::TypedProgram()) {}
  Analysis(const Analysis&) = delete;
  Analysis& operator=(const Analysis&) = delete;

  std::shared_ptr<frontend::SourceManager> source_store;
  frontend::SourceManager& sources;
  frontend::ModuleGraph graph;
  checker::TypedProgram program;
  std::vector<frontend::Diagnostic> diagnostics;  // sorted exactly as the CLI prints them
  std::optional<std::string> fatal;               // the request itself was unusable
  double elapsed_ms = 0;
  double load_ms = 0;   // of elapsed_ms: loading (reading, parsing or reusing parses)
  double check_ms = 0;  // of elapsed_ms: checking
  // The modules the checker checked for this analysis (the others' results were reused from
  // the previous analysis of the same unit), and whether it checked everything.
  std::vector<ModuleId> rechecked;
  bool full_check = true;

  // The module loaded from `path` (compared after normalisation); invalid when absent.
  ModuleId module_at(const std::filesystem::path& path) const;
  const frontend::Module& module(ModuleId id) const { return graph.get(id); }
  const frontend::SourceFile& file(ModuleId id) const { return sources.file(graph.get(id).file); }
  const checker::ModuleTir* tir(ModuleId id) const;
  // The absolute path a diagnostic's file stands for (module path, or the manifest's path).
  std::filesystem::path path_of(frontend::FileId file) const;

  // The live views (.fitzv) the load read, checked as `fitz check` checks them; their code
  // lives in generated modules of `graph` (features/view_*.cpp map positions through
  // view_checker->code_map). Empty until the check is complete.
  std::shared_ptr<checker::ViewChecker> view_checker;
  checker::CheckedViews views;
  const checker::ViewFile* view_at(const std::filesystem::path& path) const;
  // The load read the view at `path` (also while the check is still pending).
  bool reads_view(const std::filesystem::path& path) const;

  // Per-module occurrence indexes, built on first use by the features (features/index.cpp).
  mutable std::mutex index_mutex;
  mutable std::vector<std::shared_ptr<const ModuleIndex>> index_cache;
};

// Loads and checks like `fitz check TARGET` run from `cwd`, reading through `reader`.
// With a `cache`, files are added to the cache's SourceManager and unchanged ones are not
// parsed again; the result is the same as without (diagnostics sorted in load order).
// With a `session` (and the program it produced last time as `previous`, moved from), only the
// modules that changed, and the importers of modules whose interface changed, are checked again.
// With a `lint_cache` (kept with the session), the lint findings of modules the session did not
// check again are reused.
std::shared_ptr<const Analysis> analyze(const std::filesystem::path& target, const std::filesystem::path& cwd,
                                        frontend::FileReader reader, frontend::ParseCache* cache = nullptr,
                                        checker::CheckSession* session = nullptr,
                                        checker::TypedProgram* previous = nullptr,
                                        lint::LintCache* lint_cache = nullptr);

// An analysis whose check is still going on: loading is done and the session has checked the
// init order up to the focus module (the file the user is looking at), whose diagnostics are
// therefore final; the modules after it are checked by continue_analysis. Until then the
// analysis holds the graph and the load's diagnostics, not the typed program.
struct PendingCheck {
  std::shared_ptr<Analysis> analysis;
  frontend::DiagnosticBag load_diagnostics;
  ModuleId focus;
  bool use_cache = false;
  lint::LintCache* lint_cache = nullptr;
  std::chrono::steady_clock::time_point start;
  double check_ms = 0;  // so far
};

// analyze() with a session, in steps: loads, then checks through the module loaded from
// `focus`. Returns a pending check when modules remain (analysis() of it is the result so far),
// null when the analysis is complete; `out` is the analysis either way.
std::unique_ptr<PendingCheck> analyze_through(const std::filesystem::path& target, const std::filesystem::path& cwd,
                                              frontend::FileReader reader, frontend::ParseCache* cache,
                                              checker::CheckSession& session, checker::TypedProgram* previous,
                                              const std::filesystem::path& focus,
                                              std::shared_ptr<const Analysis>& out,
                                              lint::LintCache* lint_cache = nullptr,
                                              checker::TypedProgram* shell = nullptr);
// Checks up to `max_checks` more modules (reused ones do not count); when none remain, fills the
// analysis (program, diagnostics, times) as analyze() would and returns true.
bool continue_analysis(PendingCheck& pending, checker::CheckSession& session, size_t max_checks);
// The diagnostics of the focus module's file: those the complete analysis will hold for that
// file, in the same order (a module's check reports into its own file only).
std::vector<frontend::Diagnostic> focus_diagnostics(const PendingCheck& pending, const checker::CheckSession& session);

// Normalised absolute form used as a path's identity everywhere in the server.
std::filesystem::path normalise_path(const std::filesystem::path& p);

}  // namespace fitz::lsp
