// The lint registry (lints.def), the pass over the requested modules, and lint levels
// (allow/deny) applied to the pass's findings and to the checker's own lint warnings alike.
#include "lint/lint.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "lint/module_lints.h"

namespace fitz::lint {

const std::vector<LintInfo>& all_lints() {
  static const std::vector<LintInfo> lints = {
#define LINT(Id, Name, Kind, Summary) {LintId::Id, Name, frontend::DiagKind::Kind, Summary},
#include "lint/lints.def"
  };
  return lints;
}

std::optional<LintId> lint_by_name(std::string_view name) {
  for (const LintInfo& l : all_lints())
    if (l.name == name) return l.id;
  return std::nullopt;
}

std::optional<LintId> lint_of_kind(frontend::DiagKind kind) {
  for (const LintInfo& l : all_lints())
    if (l.kind == kind) return l.id;
  return std::nullopt;
}

std::string_view lint_name(LintId id) { return all_lints()[static_cast<size_t>(id)].name; }

std::string add_lints(const std::vector<std::string>& names, std::set<LintId>& into) {
  std::string unknown;
  for (const std::string& n : names) {
    if (auto id = lint_by_name(n))
      into.insert(*id);
    else if (unknown.empty())
      unknown = n;
  }
  return unknown;
}

LintLevels manifest_levels(const frontend::ModuleGraph& graph, std::string& unknown) {
  LintLevels levels;
  if (!graph.manifest) return levels;
  unknown = add_lints(graph.manifest->lint_deny, levels.denied);
  std::string bad_allow = add_lints(graph.manifest->lint_allow, levels.allowed);
  if (unknown.empty()) unknown = bad_allow;
  return levels;
}

std::vector<frontend::Diagnostic> lint_modules(const checker::TypedProgram& program,
                                               const frontend::ModuleGraph& graph,
                                               const std::vector<frontend::ModuleId>& modules) {
  std::vector<frontend::Diagnostic> out;
  for (frontend::ModuleId id : modules) {
    if (id.index >= program.modules.size()) continue;
    lint_module(program, program.modules[id.index], graph.get(id).ast, out);
  }
  std::stable_sort(out.begin(), out.end(), [](const frontend::Diagnostic& a, const frontend::Diagnostic& b) {
    return a.span < b.span;
  });
  return out;
}

std::vector<frontend::Diagnostic> apply_levels(std::vector<frontend::Diagnostic> diagnostics,
                                               const LintLevels& levels) {
  std::vector<frontend::Diagnostic> out;
  for (frontend::Diagnostic& d : diagnostics) {
    std::optional<LintId> lint = lint_of_kind(d.kind);
    if (!lint) {
      out.push_back(std::move(d));
      continue;
    }
    bool denied = levels.denied.count(*lint) > 0;
    if (!denied && levels.allowed.count(*lint)) continue;
    if (denied) d.severity = frontend::Severity::Error;
    std::string_view name = lint_name(*lint);
    if (denied) {
      std::string note = fmt::format("`{}` is denied", name);
      d.hint = d.hint.empty() ? note : d.hint + " (" + note + ")";
    }
    d.message += fmt::format(" [{}]", name);
    out.push_back(std::move(d));
  }
  return out;
}

frontend::DiagnosticBag lint_diagnostics(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                                         const frontend::DiagnosticBag& checked, const LintLevels& levels) {
  std::vector<frontend::Diagnostic> all(checked.begin(), checked.end());
  if (!checked.has_errors()) {
    std::vector<frontend::Diagnostic> found = lint_modules(program, graph, graph.roots);
    all.insert(all.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  frontend::DiagnosticBag out;
  for (frontend::Diagnostic& d : apply_levels(std::move(all), levels)) out.report(std::move(d));
  return out;
}

}  // namespace fitz::lint
