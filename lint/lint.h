// The lint pass: reads the typed program (the checker's output, never re-deriving a type) and
// returns lint findings as diagnostics. `fitz lint` and the language server both call it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "checker/tir.h"
#include "frontend/diagnostics.h"
#include "frontend/modules.h"

namespace fitz::lint {

enum class LintId : uint8_t {
#define LINT(Id, Name, Kind, Summary) Id,
#include "lint/lints.def"
};

struct LintInfo {
  LintId id;
  std::string_view name;  // "unused_variable"
  frontend::DiagKind kind;
  std::string_view summary;
};

// Every lint, in registry order.
const std::vector<LintInfo>& all_lints();
std::optional<LintId> lint_by_name(std::string_view name);
// The lint a diagnostic kind belongs to (the checker's warnings included); nullopt: none.
std::optional<LintId> lint_of_kind(frontend::DiagKind kind);
std::string_view lint_name(LintId id);

// Which lints are off and which are errors: `--allow`/`--deny` and `[lint]` of fitz.toml.
// A lint both allowed and denied is denied (the stricter choice wins).
struct LintLevels {
  std::set<LintId> allowed;
  std::set<LintId> denied;
};

// Adds the lints named in `names` to `into`; returns the first unknown name (empty: all known).
// Known names are added even when an unknown one comes first.
std::string add_lints(const std::vector<std::string>& names, std::set<LintId>& into);

// The levels `[lint]` of a project's fitz.toml sets; the first unknown name goes to `unknown`.
LintLevels manifest_levels(const frontend::ModuleGraph& graph, std::string& unknown);

// The findings of the lint pass over the modules `modules` (the roots of a load, or the one
// module an editor shows), in source order; each is a warning with its fix-its.
std::vector<frontend::Diagnostic> lint_modules(const checker::TypedProgram& program,
                                               const frontend::ModuleGraph& graph,
                                               const std::vector<frontend::ModuleId>& modules);

// Applies `levels` to diagnostics that belong to a lint (the pass's and the checker's warnings):
// allowed ones are dropped, denied ones become errors (their hint says so). Each message ends
// with its lint's name in brackets, so every output format shows it. Other diagnostics pass unchanged.
// A finding on a line that has, or follows a line that has, a `// @allow(name, ...)` comment
// naming its lint is dropped too (when `sources` is given).
std::vector<frontend::Diagnostic> apply_levels(std::vector<frontend::Diagnostic> diagnostics,
                                               const LintLevels& levels,
                                               const frontend::SourceManager* sources = nullptr);

// What `fitz lint` reports and the language server publishes, one definition for both: the
// checker's diagnostics plus the pass's findings on `modules` (only for a program without
// errors: findings on half-checked code would be noise), with `levels` applied to every lint.
frontend::DiagnosticBag lint_diagnostics(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                                         const frontend::DiagnosticBag& checked, const LintLevels& levels,
                                         const frontend::SourceManager* sources = nullptr);

// The pass's findings per module, by FileId value, kept between analyses of one program.
using LintCache = std::unordered_map<uint32_t, std::vector<frontend::Diagnostic>>;

// lint_diagnostics for a program checked incrementally (the language server's): a module not in
// `rechecked` kept its checker tables, so its findings are taken from `cache`; the others are
// linted again and stored there. The result equals lint_diagnostics'. `checked` is moved from.
frontend::DiagnosticBag lint_diagnostics(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                                         frontend::DiagnosticBag&& checked, const LintLevels& levels,
                                         const frontend::SourceManager* sources, LintCache& cache,
                                         const std::vector<frontend::ModuleId>& rechecked);

}  // namespace fitz::lint
