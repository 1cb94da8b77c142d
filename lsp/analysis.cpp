// Building an Analysis: the one place the server calls the frontend loader and the checker.
#include "lsp/analysis.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <unordered_map>

#include "lint/lint.h"
#include "packages/sync.h"

namespace fitz::lsp {

namespace fs = std::filesystem;

fs::path normalise_path(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  fs::path canon = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : canon;
}

ModuleId Analysis::module_at(const fs::path& path) const {
  fs::path want = normalise_path(path);
  for (uint32_t i = 0; i < graph.modules.size(); ++i)
    if (graph.modules[i].path == want) return ModuleId(i);
  return ModuleId();
}

const checker::ModuleTir* Analysis::tir(ModuleId id) const {
  if (!id.valid() || id.index >= program.modules.size()) return nullptr;
  const auto& t = program.modules[id.index];
  return t.checked ? &t : nullptr;
}

const checker::ViewFile* Analysis::view_at(const fs::path& path) const {
  fs::path want = normalise_path(path);
  for (const checker::ViewFile& v : views.files)
    if (v.path == want) return &v;
  return nullptr;
}

bool Analysis::reads_view(const fs::path& path) const {
  if (!view_checker) return false;
  fs::path want = normalise_path(path);
  for (frontend::FileId f : view_checker->view_files())
    if (const auto* file = sources.find(f); file && normalise_path(file->path()) == want) return true;
  return false;
}

fs::path Analysis::path_of(frontend::FileId file) const {
  for (const auto& m : graph.modules)
    if (m.file == file) return m.path;
  if (const auto* f = sources.find(file)) return normalise_path(f->path());
  return {};
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::shared_ptr<Analysis> load(const fs::path& target, const fs::path& cwd, frontend::FileReader reader,
                               frontend::ParseCache* cache, frontend::DiagnosticBag& diags, Clock::time_point start,
                               checker::TypedProgram* shell = nullptr) {
  auto a = cache ? std::make_shared<Analysis>(cache->shared_sources(), shell) : std::make_shared<Analysis>();
  frontend::LoadRequest req;
  req.target = target;
  req.cwd = cwd;
  // Views are read and served as generated modules exactly as `fitz check` does, open buffers first.
  a->view_checker = std::make_shared<checker::ViewChecker>(a->sources);
  a->view_checker->read_views_with(reader);
  a->view_checker->serve(req, std::move(reader), &diags);
  req.parse_cache = cache;
  // Semantic tokens, folding and selection ranges read every module's tree.
  req.keep_syntax_trees = true;
  req.resolve_packages = packages::editor_resolver();
  frontend::LoadResult loaded = frontend::load_program(req, a->sources, diags);
  a->fatal = loaded.fatal;
  if (a->fatal && !a->program.types) a->program = checker::TypedProgram();  // no check will fill it
  a->graph = std::move(loaded.graph);
  a->load_ms = ms_between(start, Clock::now());
  return a;
}

// The diagnostics sorted as the CLI prints them (moved out of `diags`).
std::vector<frontend::Diagnostic> sorted(const Analysis& a, frontend::DiagnosticBag&& diags, bool use_cache) {
  if (!use_cache) return std::move(diags).sorted();
  // DiagnosticBag::sorted() orders files by FileId, which is load order only in a fresh
  // SourceManager; with cached files, order them as a fresh load would have added them: files
  // that are not modules (the manifest, read first) by FileId, then the modules in load order.
  // One stable sort by that file order, start and end, over the order of reporting, gives what
  // sorting by FileId first and by file order then would.
  std::vector<frontend::Diagnostic> in = std::move(diags).take();
  std::unordered_map<uint32_t, uint32_t> rank;
  for (uint32_t i = 0; i < a.graph.modules.size(); ++i) rank[a.graph.modules[i].file.value] = i + 1;
  using Key = std::tuple<uint64_t, uint64_t, uint32_t, uint32_t>;
  auto key = [&](const frontend::Diagnostic& d) -> Key {
    const frontend::Span& s = d.span;
    if (!s.file.valid()) return {0, 0, s.begin, s.end};
    auto it = rank.find(s.file.value);
    if (it == rank.end()) return {1, s.file.value, s.begin, s.end};
    return {2, it->second, s.begin, s.end};
  };
  // Each key once, and indices sorted rather than diagnostics moved around.
  std::vector<std::pair<Key, uint32_t>> keyed;
  keyed.reserve(in.size());
  for (uint32_t i = 0; i < in.size(); ++i) keyed.push_back({key(in[i]), i});
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<frontend::Diagnostic> out;
  out.reserve(in.size());
  for (const auto& k : keyed) out.push_back(std::move(in[k.second]));
  return out;
}

// The diagnostics `fitz lint` prints for the same files: the checker's with the lint warnings,
// at the levels of the project's `[lint]` (an unknown name there is `fitz lint`'s to report,
// not every file's), sorted as the CLI sorts them.
// The diagnostics of generated view modules move into their .fitzv files (those of generated
// glue are dropped, as `fitz check` drops them), after the lints so theirs move too.
// `diags` is moved from: the project's diagnostics are moved along, not copied at each step.
std::vector<frontend::Diagnostic> with_lints(Analysis& a, frontend::DiagnosticBag&& diags, bool use_cache,
                                             lint::LintCache* lint_cache) {
  if (a.fatal) return sorted(a, std::move(diags), use_cache);
  std::string unknown;
  lint::LintLevels levels = lint::manifest_levels(a.graph, unknown);
  frontend::DiagnosticBag linted =
      lint_cache ? lint::lint_diagnostics(a.program, a.graph, std::move(diags), levels, &a.sources, *lint_cache, a.rechecked)
                 : lint::lint_diagnostics(a.program, a.graph, diags, levels, &a.sources);
  if (!a.view_checker) return sorted(a, std::move(linted), use_cache);
  // Without views there is nothing to map: the project's diagnostics are not copied again.
  if (!a.view_checker->read_any()) {
    a.views = a.view_checker->finish_without_views(a.program, linted);
    return sorted(a, std::move(linted), use_cache);
  }
  frontend::DiagnosticBag mapped;
  a.views = a.view_checker->finish(a.graph, a.program, linted, mapped);
  return sorted(a, std::move(mapped), use_cache);
}

}  // namespace

std::shared_ptr<const Analysis> analyze(const fs::path& target, const fs::path& cwd, frontend::FileReader reader,
                                        frontend::ParseCache* cache, checker::CheckSession* session,
                                        checker::TypedProgram* previous, lint::LintCache* lint_cache) {
  auto start = Clock::now();
  frontend::DiagnosticBag diags;
  std::shared_ptr<Analysis> a = load(target, cwd, std::move(reader), cache, diags, start);
  auto loaded_at = Clock::now();
  if (a->fatal) {
    if (session) session->reset();
  } else if (session) {
    a->program = session->check(a->graph, a->sources, diags, previous);
    a->rechecked = session->rechecked();
    a->full_check = session->last_was_full();
  } else {
    a->program = checker::check_program(a->graph, a->sources, diags);
    for (uint32_t i = 0; i < a->graph.modules.size(); ++i) a->rechecked.push_back(ModuleId(i));
  }
  a->check_ms = ms_between(loaded_at, Clock::now());
  a->diagnostics = with_lints(*a, std::move(diags), cache != nullptr, session ? lint_cache : nullptr);
  a->elapsed_ms = ms_between(start, Clock::now());
  return a;
}

std::unique_ptr<PendingCheck> analyze_through(const fs::path& target, const fs::path& cwd, frontend::FileReader reader,
                                              frontend::ParseCache* cache, checker::CheckSession& session,
                                              checker::TypedProgram* previous, const fs::path& focus,
                                              std::shared_ptr<const Analysis>& out, lint::LintCache* lint_cache,
                                              checker::TypedProgram* shell) {
  auto p = std::make_unique<PendingCheck>();
  p->start = Clock::now();
  p->use_cache = cache != nullptr;
  p->lint_cache = lint_cache;
  p->analysis = load(target, cwd, std::move(reader), cache, p->load_diagnostics, p->start, shell);
  Analysis& a = *p->analysis;
  out = p->analysis;
  if (a.fatal) {
    session.reset();
    a.diagnostics = sorted(a, std::move(p->load_diagnostics), p->use_cache);
    a.elapsed_ms = ms_between(p->start, Clock::now());
    return nullptr;
  }
  auto loaded_at = Clock::now();
  session.begin(a.graph, a.sources, previous);
  p->focus = a.module_at(focus);
  if (p->focus.valid()) session.advance_through(p->focus);
  p->check_ms = ms_between(loaded_at, Clock::now());
  // Until it is complete, the load's diagnostics keep the files they name alive.
  a.diagnostics.assign(p->load_diagnostics.begin(), p->load_diagnostics.end());
  a.check_ms = p->check_ms;
  a.elapsed_ms = ms_between(p->start, Clock::now());
  // Without a focus in the graph, the whole check now.
  if (continue_analysis(*p, session, 0)) return nullptr;
  return p;
}

bool continue_analysis(PendingCheck& p, checker::CheckSession& session, size_t max_checks) {
  if (!p.focus.valid()) max_checks = SIZE_MAX;
  auto t = Clock::now();
  bool done = session.advance(max_checks);
  p.check_ms += ms_between(t, Clock::now());
  if (!done) return false;
  Analysis& a = *p.analysis;
  t = Clock::now();
  a.program = session.finish(p.load_diagnostics);
  a.rechecked = session.rechecked();
  a.full_check = session.last_was_full();
  // The check is complete: the load's diagnostics are needed no more.
  a.diagnostics = with_lints(a, std::move(p.load_diagnostics), p.use_cache, p.lint_cache);
  p.check_ms += ms_between(t, Clock::now());
  a.check_ms = p.check_ms;
  a.elapsed_ms = a.load_ms + p.check_ms;
  return true;
}

std::vector<frontend::Diagnostic> focus_diagnostics(const PendingCheck& p, const checker::CheckSession& session) {
  std::vector<frontend::Diagnostic> out;
  if (!p.focus.valid()) return out;
  frontend::FileId file = p.analysis->graph.get(p.focus).file;
  // Reported into a bag in the order finish() reports them, so that the same duplicates are
  // dropped (a duplicate has the same span, so the same file).
  frontend::DiagnosticBag bag;
  for (const frontend::Diagnostic& d : p.load_diagnostics)
    if (d.span.file == file) bag.report(d);
  session.for_each_done_diagnostic([&](const frontend::Diagnostic& d) {
    if (d.span.file == file) bag.report(d);
  });
  // The lint levels apply here too; the lint pass's own warnings need the whole program and
  // come with the complete publish.
  std::string unknown;
  out = lint::apply_levels(std::vector<frontend::Diagnostic>(bag.begin(), bag.end()),
                           lint::manifest_levels(p.analysis->graph, unknown), &p.analysis->sources);
  std::stable_sort(out.begin(), out.end(), [](const frontend::Diagnostic& x, const frontend::Diagnostic& y) {
    return std::pair(x.span.begin, x.span.end) < std::pair(y.span.begin, y.span.end);
  });
  return out;
}

}  // namespace fitz::lsp
