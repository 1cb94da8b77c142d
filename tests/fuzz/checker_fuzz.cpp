// libFuzzer target for the checker: inputs that parse are loaded as the root module of a
// program (with one small importable module beside it, read from memory), checked, and their
// diagnostics rendered and typed tables dumped. Inputs with syntax errors stop after parsing:
// the frontend target covers them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checker/checker.h"
#include "frontend/lower.h"
#include "frontend/render.h"

namespace {

// What `import lib` / `from lib import ...` in a fuzz input finds: a type, a function and a
// value, so that cross-module lookups are exercised too.
constexpr const char* kLib =
    "type Point {\n    x: Int\n    y: Int = 0\n}\n\n"
    "fn dist(p: Point) -> Int => p.x + p.y\n\n"
    "let origin = Point { x: 0 }\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitz;
  std::string text(reinterpret_cast<const char*>(data), size);
  {
    frontend::SourceManager sources;
    frontend::FileId id = sources.add("main.fitz", text);
    frontend::DiagnosticBag diags;
    frontend::parse_module(sources.file(id), id, diags);
    if (diags.has_errors()) return 0;
  }
  const std::filesystem::path dir = "/fuzz";
  frontend::FileReader reader = [&](const std::filesystem::path& p, std::string& error) -> std::optional<std::string> {
    if (p == dir / "main.fitz") return text;
    if (p == dir / "lib.fitz") return std::string(kLib);
    error = "no such file";
    return std::nullopt;
  };
  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::ModuleLoader loader(sources, diags, reader);
  frontend::ModuleId root = loader.load_root(dir / "main.fitz");
  frontend::ModuleGraph graph = std::move(loader).finish();
  checker::TypedProgram program = checker::check_program(graph, sources, diags);
  if (root.valid()) {
    std::string tir = checker::dump_tir(program, graph, root, sources);
    if (tir.empty()) __builtin_trap();
  }
  for (const frontend::Diagnostic& d : diags) {
    if (frontend::render_text(d, sources).empty() || frontend::render_json(d, sources).empty()) __builtin_trap();
  }
  return 0;
}
