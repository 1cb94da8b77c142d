// The service model's build: the HTTP half (service_http.cpp) first, since WebSocket endpoints
// reuse its guards and middleware.
#include "checker/service_build.h"

namespace fitz::checker {

void build_service_model(ServiceBuild& b) {
  b.program.service = ServiceModel{};
  detail::build_http_model(b);
  detail::build_task_model(b);
}

bool feeds_service_model(const TypedProgram& program, const frontend::ModuleGraph& graph, ModuleId m) {
  if (m.index < program.modules.size()) {
    const ModuleTir& tir = program.modules[m.index];
    if (!tir.handlers.empty() || !tir.live_handlers.empty()) return true;
  }
  const frontend::Ast& ast = graph.get(m).ast;
  for (frontend::StmtId s : ast.top_level) {
    auto* f = std::get_if<frontend::FnStmt>(&ast.get(s).data);
    if (f && !ast.get(f->fn).decorators.empty()) return true;
  }
  return false;
}

std::vector<uint8_t> service_model_inputs(const TypedProgram& program, const frontend::ModuleGraph& graph) {
  std::vector<uint8_t> read(graph.modules.size(), 0);
  std::vector<ModuleId> todo;
  for (uint32_t i = 0; i < graph.modules.size(); ++i)
    if (feeds_service_model(program, graph, ModuleId(i))) {
      read[i] = 1;
      todo.push_back(ModuleId(i));
    }
  while (!todo.empty()) {
    ModuleId m = todo.back();
    todo.pop_back();
    for (const frontend::ResolvedImport& ri : graph.get(m).imports)
      if (ri.target.valid() && ri.target.index < read.size() && !read[ri.target.index]) {
        read[ri.target.index] = 1;
        todo.push_back(ri.target);
      }
  }
  return read;
}

}  // namespace fitz::checker

namespace fitz::checker {

std::vector<FnRef> ServiceModel::entry_fns() const {
  std::vector<FnRef> out;
  if (auth) out.push_back(auth->fn);
  if (server) out.push_back(server->fn);
  for (const HealthCheck& h : health) out.push_back(h.fn);
  for (const CronJob& j : cron) out.push_back(j.fn);
  for (const BackgroundJob& j : background) out.push_back(j.fn);
  for (const Command& c : commands) out.push_back(c.fn);
  for (const LiveRoute& l : live) {
    out.push_back(l.fn);
    if (l.layout_fn) out.push_back(*l.layout_fn);
  }
  for (const WsEndpoint& w : ws) out.push_back(w.handler);
  return out;
}

std::string_view http_method_name(HttpMethod m) {
  switch (m) {
    case HttpMethod::Get: return "get";
    case HttpMethod::Post: return "post";
    case HttpMethod::Put: return "put";
    case HttpMethod::Patch: return "patch";
    case HttpMethod::Delete: return "delete";
  }
  return "get";
}

std::string_view binding_kind_name(BindingKind k) {
  switch (k) {
    case BindingKind::Path: return "path";
    case BindingKind::Query: return "query";
    case BindingKind::Header: return "header";
    case BindingKind::Cookie: return "cookie";
    case BindingKind::Request: return "request";
    case BindingKind::User: return "user";
    case BindingKind::Form: return "form";
    case BindingKind::Body: return "body";
  }
  return "body";
}

std::string_view middleware_kind_name(MiddlewareUse::Kind k) {
  switch (k) {
    case MiddlewareUse::Kind::Before: return "before";
    case MiddlewareUse::Kind::After: return "after";
    case MiddlewareUse::Kind::Around: return "around";
    case MiddlewareUse::Kind::AroundAsync: return "around_async";
    case MiddlewareUse::Kind::Cors: return "cors";
  }
  return "before";
}

}  // namespace fitz::checker
