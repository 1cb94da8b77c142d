// The lint registry (lints.def), the pass over the requested modules, and lint levels
// (allow/deny) applied to the pass's findings and to the checker's own lint warnings alike.
#include "lint/lint.h"

#include <algorithm>
#include <cstring>
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

namespace {

// Whether `line` has a `// @allow(...)` comment naming `lint`.
bool allow_comment_names(std::string_view line, std::string_view lint) {
  size_t comment = line.find("//");
  if (comment == std::string_view::npos) return false;
  std::string_view rest = line.substr(comment + 2);
  size_t at = rest.find("@allow(");
  if (at == std::string_view::npos) return false;
  rest = rest.substr(at + 7);
  rest = rest.substr(0, rest.find(')'));
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name == lint) return true;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return false;
}

// The start of the line holding byte `offset` of `text`.
size_t line_start_at(std::string_view text, size_t offset) {
  const void* nl = offset ? memrchr(text.data(), '\n', offset) : nullptr;
  return nl ? size_t(static_cast<const char*>(nl) - text.data()) + 1 : 0;
}

// The line starting at `start`, as SourceFile::line_text gives it (a `\r` before its `\n` left out).
std::string_view line_from(std::string_view text, size_t start) {
  size_t nl = text.find('\n', start);
  if (nl == std::string_view::npos) return text.substr(start);
  size_t end = nl;
  if (end > start && text[end - 1] == '\r') --end;
  return text.substr(start, end - start);
}

// The finding's line and the one before it are found around its offset rather than through
// line_col, whose column is not needed: this runs for every lint diagnostic of the project on
// each of the language server's complete analyses.
bool allowed_in_source(const frontend::Diagnostic& d, std::string_view lint, const frontend::SourceManager& sources) {
  if (!d.span.file.valid()) return false;
  std::string_view text = sources.file(d.span.file).text();
  size_t start = line_start_at(text, std::min<size_t>(d.span.begin, text.size()));
  if (allow_comment_names(line_from(text, start), lint)) return true;
  return start > 0 && allow_comment_names(line_from(text, line_start_at(text, start - 1)), lint);
}

}  // namespace

std::vector<frontend::Diagnostic> apply_levels(std::vector<frontend::Diagnostic> diagnostics,
                                               const LintLevels& levels, const frontend::SourceManager* sources) {
  std::vector<frontend::Diagnostic> out;
  out.reserve(diagnostics.size());
  for (frontend::Diagnostic& d : diagnostics) {
    std::optional<LintId> lint = lint_of_kind(d.kind);
    if (!lint) {
      out.push_back(std::move(d));
      continue;
    }
    bool denied = levels.denied.count(*lint) > 0;
    if (!denied && levels.allowed.count(*lint)) continue;
    // A comment at the place is the most specific level there is: it wins over `--deny`.
    if (sources && allowed_in_source(d, lint_name(*lint), *sources)) continue;
    if (denied) d.severity = frontend::Severity::Error;
    std::string_view name = lint_name(*lint);
    if (denied) {
      std::string note = fmt::format("`{}` is denied", name);
      d.hint = d.hint.empty() ? note : d.hint + " (" + note + ")";
    }
    // Appended, not formatted: this runs for every lint finding of the project on each of the
    // language server's complete publishes.
    d.message.append(" [").append(name).append("]");
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

// `checked` is taken by value: the language server's caller moves its bag in, so that each
// diagnostic of the project is moved here rather than copied on every complete analysis.
frontend::DiagnosticBag leveled(std::vector<frontend::Diagnostic> checked, std::vector<frontend::Diagnostic> found,
                                const LintLevels& levels, const frontend::SourceManager* sources) {
  checked.insert(checked.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  frontend::DiagnosticBag out;
  for (frontend::Diagnostic& d : apply_levels(std::move(checked), levels, sources)) out.report(std::move(d));
  return out;
}

}  // namespace

frontend::DiagnosticBag lint_diagnostics(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                                         const frontend::DiagnosticBag& checked, const LintLevels& levels,
                                         const frontend::SourceManager* sources) {
  std::vector<frontend::Diagnostic> found;
  if (!checked.has_errors()) found = lint_modules(program, graph, graph.roots);
  return leveled(std::vector<frontend::Diagnostic>(checked.begin(), checked.end()), std::move(found), levels, sources);
}

frontend::DiagnosticBag lint_diagnostics(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                                         frontend::DiagnosticBag&& checked, const LintLevels& levels,
                                         const frontend::SourceManager* sources, LintCache& cache,
                                         const std::vector<frontend::ModuleId>& rechecked) {
  // Findings of modules checked again are stale, and so are those of files no longer loaded,
  // even when this run lints nothing: a later run must not take them for current.
  for (frontend::ModuleId id : rechecked)
    if (id.index < graph.modules.size()) cache.erase(graph.get(id).file.value);
  LintCache kept;
  for (const frontend::Module& m : graph.modules) {
    auto it = cache.find(m.file.value);
    if (it != cache.end()) kept.emplace(it->first, std::move(it->second));
  }
  cache = std::move(kept);
  std::vector<frontend::Diagnostic> found;
  if (!checked.has_errors()) {
    for (frontend::ModuleId id : graph.roots) {
      if (id.index >= program.modules.size()) continue;
      auto [it, fresh] = cache.try_emplace(graph.get(id).file.value);
      if (fresh) lint_module(program, program.modules[id.index], graph.get(id).ast, it->second);
      found.insert(found.end(), it->second.begin(), it->second.end());
    }
    // Ordered as lint_modules orders them.
    std::stable_sort(found.begin(), found.end(),
                     [](const frontend::Diagnostic& a, const frontend::Diagnostic& b) { return a.span < b.span; });
  }
  return leveled(std::move(checked).take(), std::move(found), levels, sources);
}

}  // namespace fitz::lint
