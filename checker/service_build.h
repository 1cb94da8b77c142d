// Building the service model (service_model.h) from a checked program. Per-module problems
// (a bad route template, a `@ws` path with holes) are reported while each module is checked,
// so the editor's incremental check caches them with the module; this pass only collects what
// the modules decided and reports what no single module can see (a guarded route in a program
// without an `@auth_provider`, two providers).
#pragma once

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "checker/tir.h"
#include "frontend/diagnostics.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::checker {

struct ServiceBuild {
  TypedProgram& program;
  const frontend::ModuleGraph& graph;
  const frontend::SourceManager& sources;
  frontend::DiagnosticBag& diags;
};

// Rebuilds program.service from scratch (cheap: it reads decorators already checked).
void build_service_model(ServiceBuild& b);

// Whether module `m` feeds the service model: a top-level function with decorators, or route or
// page handlers its check bound. The build starts from these modules only.
bool feeds_service_model(const TypedProgram& program, const frontend::ModuleGraph& graph, ModuleId m);
// Per module, whether a build of the service model may read it: the modules that feed it and
// every module they import, directly or not (a handler's callees, middleware and types can only
// come from those). A check that changes none of them leaves the model as it was.
std::vector<uint8_t> service_model_inputs(const TypedProgram& program, const frontend::ModuleGraph& graph);

namespace detail {
void build_http_model(ServiceBuild& b);   // routes, guards, provider, middleware, server, health
void build_task_model(ServiceBuild& b);   // WebSocket endpoints, jobs, commands

// Shared by both halves (service_http.cpp): a function's `@authenticated`/`@admin`/`@requires`
// (user_param left -1: the caller binds it), and its `@middleware(...)` list in running order
// with each kind decided from the middleware's type.
Guard guard_of(const frontend::Ast& ast, const frontend::FnDecl& decl);
std::vector<MiddlewareUse> middleware_of(const TypedProgram& prog, ModuleId m, const frontend::Ast& ast,
                                         const frontend::FnDecl& decl);

// Whether functions reach the database (service_database.cpp), remembered per function for one
// build of the model.
class DatabaseUse {
 public:
  DatabaseUse(const TypedProgram& program, const frontend::ModuleGraph& graph);
  // Some function of `roots`, or one they name, transitively, uses the database.
  bool reaches(const std::vector<FnRef>& roots);

 private:
  struct Facts {
    bool direct = false;          // its body uses the database itself
    std::vector<FnRef> callees;   // the functions its body names
  };
  const Facts& facts_of(FnRef f);
  std::optional<FnRef> function_of(SymbolId sid) const;

  const TypedProgram& program_;
  const frontend::ModuleGraph& graph_;
  std::map<std::pair<uint32_t, uint32_t>, Facts> memo_;
};
}  // namespace detail

}  // namespace fitz::checker
