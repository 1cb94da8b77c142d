// Incremental checking: a session remembers, per module, what its last check produced (tables,
// diagnostics, the hash of what importers see) so that the next check of a slightly different
// version of the same program re-checks only the modules that changed and the importers of
// modules whose interface changed. The language server keeps one session per analysed unit;
// the result always equals check_program on the same graph.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "checker/checker.h"

namespace fitz::checker {

namespace detail {
class Checker;
}

class CheckSession {
 public:
  CheckSession();
  ~CheckSession();
  CheckSession(const CheckSession&) = delete;
  CheckSession& operator=(const CheckSession&) = delete;

  // Checks `graph` like check_program. `previous` is the program this session returned last
  // time, which is moved from (null, or any other program, means a full check). A module is
  // reused, not re-checked, when its file is the same (same FileId in the same SourceManager:
  // the language server's parse cache gives unchanged content its old FileId), no module it
  // imports (directly or through others) changed what it shows importers, and its diagnostics
  // point only into files that are still current. Reused modules keep their tables; re-checked
  // ones get their previous top-level symbol and struct ids back, so the tables of the others
  // stay valid.
  TypedProgram check(const frontend::ModuleGraph& graph, const frontend::SourceManager& sources,
                     frontend::DiagnosticBag& diags, TypedProgram* previous, const CheckOptions& options = {});

  // The same check in steps, so that a caller can show one module's diagnostics before the
  // modules after it in the init order are done: begin() takes what check() takes (`graph` and
  // `sources` must stay alive and unchanged until finish() or abandon()), advance_*() walk the
  // init order, finish() gives what check() would have returned and reported.
  void begin(const frontend::ModuleGraph& graph, const frontend::SourceManager& sources, TypedProgram* previous,
             const CheckOptions& options = {});
  // Walks until `module` is done (checked or reused); false when it is not in the graph.
  bool advance_through(ModuleId module);
  // Walks until `max_checks` modules were checked again (reused ones are cheap and do not
  // count); true when every module is done.
  bool advance(size_t max_checks);
  bool in_progress() const { return run_ != nullptr; }
  bool done(ModuleId module) const;
  // The diagnostics of the modules done so far, in the order check() reports them.
  void for_each_done_diagnostic(const std::function<void(const frontend::Diagnostic&)>& f) const;
  // Finishes the walk and reports every module's diagnostics into `diags`.
  TypedProgram finish(frontend::DiagnosticBag& diags);
  // Stops where the walk is and returns the program, to be passed as `previous` to the next
  // check: the modules done keep their results, the others are checked next time unless
  // nothing they depend on changed.
  TypedProgram abandon();

  // The modules the last check() checked, in check order (all of them after a full check).
  const std::vector<ModuleId>& rechecked() const { return rechecked_; }
  bool last_was_full() const { return last_full_; }
  // Forget everything: the next check is a full one (a walk in progress is dropped).
  void reset();

 private:
  struct ModuleRecord {
    frontend::FileId file;
    bool checked = false;
    uint64_t exported_hash = 0;  // interface hash plus what callers bind to (names, defaults)
    std::vector<frontend::Diagnostic> diagnostics;  // what checking it reported, in order
    std::vector<uint32_t> files;  // FileIds its diagnostics point into
    bool server_before = false;  // program-wide checker state before and after it
    bool server_after = false;
  };
  struct Run;  // a walk in progress
  void visit(ModuleId id);
  TypedProgram end_run(bool finished);
  // Builds program.service, or keeps the one the previous build left in it when the check
  // changed nothing that build may read; reports its diagnostics either way.
  void finish_service_model(TypedProgram& program, const frontend::ModuleGraph& graph,
                            const frontend::SourceManager& sources, frontend::DiagnosticBag& diags);

  // The last build of the service model: what it may have read (service_model_inputs), what it
  // reported, and the modules checked again since (by this or abandoned walks).
  struct ServiceBuilt {
    bool current = false;  // the program returned last time holds this build's model
    std::vector<ModuleId> roots;
    std::vector<uint8_t> inputs;
    std::vector<uint8_t> changed;
    std::vector<frontend::Diagnostic> diagnostics;
  };
  ServiceBuilt service_;

  const frontend::SourceManager* sources_ = nullptr;
  const TypeStore* types_ = nullptr;  // identifies the program returned last time
  CheckOptions options_;
  std::vector<std::string> paths_;
  std::vector<ModuleId> init_order_;
  std::vector<ModuleRecord> records_;
  size_t symbols_after_full_ = 0;
  // The ids of each module's symbols in the program returned last time, ascending, covering
  // its first `indexed_symbols_` symbols (a re-check recycles its module's ids from these).
  std::vector<std::vector<uint32_t>> module_symbols_;
  uint32_t indexed_symbols_ = 0;
  std::vector<ModuleId> rechecked_;
  bool last_full_ = true;
  std::unique_ptr<Run> run_;
};

}  // namespace fitz::checker
