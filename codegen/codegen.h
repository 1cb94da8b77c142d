// Code generation: the typed program becomes C++20 that includes only the runtime's headers: one
// translation unit, which a large program's build may cut into several (split_units). Codegen never re-derives a type: every type, call target and conversion
// comes from the checker's tables, so a C++ compiler error here is a bug in fitz.
#pragma once

#include <string>
#include <vector>

#include "checker/tir.h"
#include "checker/view_model.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::codegen {

// A file of the project's migrations/ folder, embedded in a service for `APP migrate`.
struct EmbeddedMigration {
  std::string name;  // YYYYMMDDHHMMSS_<name>.sql (or .fitz)
  std::string text;
};

struct GenOptions {
  // `fitz test`: instead of running the program, main() runs the selected @test functions,
  // each isolated, and prints one line per test plus a summary.
  bool test_mode = false;
  std::string test_filter;      // substring of the test name
  std::string test_file;        // `fitz test --file F`: only the tests of this file; empty: all
  bool line_directives = true;  // #line so crashes and sanitizers point at Fitz source
  // Line info for a debugger (`--debug`): #line names absolute paths, so the line table finds
  // the .fitz files wherever the debugger runs and a cached binary never borrows another
  // build's directory; and a function's epilogue sits on its closing `}`, so stepping off the
  // last statement does not land on a line past the function.
  bool debug_line_info = false;
  // The project's migration files: a service embeds them and runs them as `APP migrate`
  // (runtime/migrate); a service without any still answers `migrate`, saying it has none.
  std::vector<EmbeddedMigration> migrations;
  // The checked `.fitzv` views of the program (checker/view_check.h), when it has any: their
  // generated modules are compiled as live-view classes, not as plain functions.
  const checker::CheckedViews* views = nullptr;
};

// Where the generated text may be cut into translation units (split_units): from `offset` on,
// until the next part, the text is declarations every unit needs (Shared), definitions only the
// first unit holds (Once), or one definition that may go to any unit (Piece).
struct UnitPart {
  enum class Kind : uint8_t { Shared, Once, Piece };
  size_t offset = 0;
  Kind kind = Kind::Shared;
};

struct GenResult {
  std::string cpp;
  // How `cpp` divides into translation units; empty when the program uses what a split does not
  // support yet (live views, WebSockets, jobs, Python), and then it is compiled whole.
  std::vector<UnitPart> parts;
  // Constructs the generator cannot express yet. Non-empty means the build must stop with an
  // internal error naming them (never a C++ compiler error on a checked program).
  std::vector<std::string> unsupported;
  // Checked features the generator does not compile yet, one located message each
  // ("path:line:col: `@authenticated` ..."). Non-empty means the build stops with these as
  // errors: a program must never run with such a decorator silently dropped (a route served
  // without its guard, a job that never runs).
  std::vector<std::string> not_compiled;
  int test_count = 0;
  bool test_file_found = false;  // `test_file` is one of the program's files
  // The program serves HTTP: it includes <fitz/http.h> and links the HTTP runtime.
  bool http = false;
  // The program has `@ws` endpoints: it includes <fitz/ws.h> and links the WebSocket runtime.
  bool ws = false;
  // The program serves `@live` pages: it includes <fitz/live/generated.h> and links the live-view
  // runtime (with the WebSocket one).
  bool live = false;
  // The program has `@cron` or `@background` jobs: it includes <fitz/jobs.h> and links the
  // jobs runtime.
  bool jobs = false;
  // The program uses jwt, hash, auth or route guards: it includes <fitz/auth.h> and links the
  // auth runtime.
  bool auth = false;
  // The program uses `http` (the outbound client): it includes <fitz/http_client.h> and links
  // libfitz_net.
  bool net = false;
  // The program imports Python: it includes <fitz/python.h> and links the interpreter.
  bool python = false;
};

// The program as translation units to compile apart and link together, at most `max_units` (one
// per core): each holds every Shared part, the first also every Once part, and the Pieces are
// dealt out in order in runs of about equal size. A program whose pieces are too few lines for a
// second unit to pay for loading the runtime header again stays one unit (`cpp`).
std::vector<std::string> split_units(const GenResult& gen, size_t max_units);

GenResult generate_cpp(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                       const frontend::SourceManager& sources, const GenOptions& options = {});

}  // namespace fitz::codegen
