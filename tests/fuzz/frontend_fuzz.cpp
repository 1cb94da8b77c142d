// libFuzzer target for the frontend: arbitrary bytes through parse, lower, the AST dump and the
// diagnostic renderers. Any crash, sanitizer report, leak or hang is a bug; inputs it finds go
// into tests/unit/frontend/fuzz_regression_test.cpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/lower.h"
#include "frontend/render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitz::frontend;
  SourceManager sources;
  FileId id = sources.add("fuzz.fitz", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticBag diags;
  Ast ast = parse_module(sources.file(id), id, diags);
  std::string dump = dump_ast(ast, sources.file(id));
  for (const Diagnostic& d : diags) {
    std::string text = render_text(d, sources);
    std::string json = render_json(d, sources);
    if (text.empty() || json.empty()) __builtin_trap();
  }
  return 0;
}
