// Incremental checking: a session remembers, per module, what its last check produced (tables,
// diagnostics, the hash of what importers see) so that the next check of a slightly different
// version of the same program re-checks only the modules that changed and the importers of
// modules whose interface changed. The language server keeps one session per analysed unit;
// the result always equals check_program on the same graph.
#pragma once

#include <cstdint>
#include <vector>

#include "checker/checker.h"

namespace fitz::checker {

class CheckSession {
 public:
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

  // The modules the last check() checked, in check order (all of them after a full check).
  const std::vector<ModuleId>& rechecked() const { return rechecked_; }
  bool last_was_full() const { return last_full_; }
  // Forget everything: the next check is a full one.
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

  const frontend::SourceManager* sources_ = nullptr;
  const TypeStore* types_ = nullptr;  // identifies the program returned last time
  CheckOptions options_;
  std::vector<std::string> paths_;
  std::vector<ModuleId> init_order_;
  std::vector<ModuleRecord> records_;
  size_t symbols_after_full_ = 0;
  std::vector<ModuleId> rechecked_;
  bool last_full_ = true;
};

}  // namespace fitz::checker
