// Building an Analysis: the one place the server calls the frontend loader and the checker.
#include "lsp/analysis.h"

#include <algorithm>
#include <unordered_map>

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

fs::path Analysis::path_of(frontend::FileId file) const {
  for (const auto& m : graph.modules)
    if (m.file == file) return m.path;
  if (const auto* f = sources.find(file)) return normalise_path(f->path());
  return {};
}

std::shared_ptr<const Analysis> analyze(const fs::path& target, const fs::path& cwd, frontend::FileReader reader,
                                        frontend::ParseCache* cache, checker::CheckSession* session,
                                        checker::TypedProgram* previous) {
  auto start = std::chrono::steady_clock::now();
  auto a = cache ? std::make_shared<Analysis>(cache->shared_sources()) : std::make_shared<Analysis>();
  frontend::DiagnosticBag diags;
  frontend::LoadRequest req;
  req.target = target;
  req.cwd = cwd;
  req.reader = std::move(reader);
  req.parse_cache = cache;
  frontend::LoadResult loaded = frontend::load_program(req, a->sources, diags);
  a->fatal = loaded.fatal;
  a->graph = std::move(loaded.graph);
  auto loaded_at = std::chrono::steady_clock::now();
  a->load_ms = std::chrono::duration<double, std::milli>(loaded_at - start).count();
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
  a->check_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - loaded_at).count();
  a->diagnostics = diags.sorted();
  if (cache) {
    // sorted() orders files by FileId, which is load order only in a fresh SourceManager; with
    // cached files, order them as a fresh load would have added them: files that are not
    // modules (the manifest, read first) by FileId, then the modules in load order.
    std::unordered_map<uint32_t, uint32_t> rank;
    for (uint32_t i = 0; i < a->graph.modules.size(); ++i) rank[a->graph.modules[i].file.value] = i + 1;
    auto key = [&](const frontend::Diagnostic& d) -> std::pair<uint64_t, uint64_t> {
      if (!d.span.file.valid()) return {0, 0};
      auto it = rank.find(d.span.file.value);
      if (it == rank.end()) return {1, d.span.file.value};
      return {2, it->second};
    };
    std::stable_sort(a->diagnostics.begin(), a->diagnostics.end(),
                     [&](const auto& x, const auto& y) { return key(x) < key(y); });
  }
  a->elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return a;
}

}  // namespace fitz::lsp
