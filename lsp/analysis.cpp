// Building an Analysis: the one place the server calls the frontend loader and the checker.
#include "lsp/analysis.h"

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

std::shared_ptr<const Analysis> analyze(const fs::path& target, const fs::path& cwd, frontend::FileReader reader) {
  auto start = std::chrono::steady_clock::now();
  auto a = std::make_shared<Analysis>();
  frontend::DiagnosticBag diags;
  frontend::LoadRequest req;
  req.target = target;
  req.cwd = cwd;
  req.reader = std::move(reader);
  frontend::LoadResult loaded = frontend::load_program(req, a->sources, diags);
  a->fatal = loaded.fatal;
  a->graph = std::move(loaded.graph);
  if (!a->fatal) a->program = checker::check_program(a->graph, a->sources, diags);
  a->diagnostics = diags.sorted();
  a->elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return a;
}

}  // namespace fitz::lsp
