// The deployment facts of a service, from the checker's service model. Until the checker fills
// the model's server settings, health checks, WebSocket endpoints and cron jobs, each part left
// empty is read from the decorators instead (the fallback below, the only decorator reading of
// `fitz deploy`).
#include "cli/deploy_facts.h"

#include "checker/decorators.h"

namespace fitz::cli::deploy {

namespace {

using checker::DecoratorKind;

std::optional<int64_t> int_literal(const frontend::ModuleGraph& graph, frontend::ModuleId m, frontend::ExprId e) {
  if (!e.valid()) return std::nullopt;
  if (auto* lit = std::get_if<frontend::IntLit>(&graph.get(m).ast.get(e).data)) return lit->value;
  return std::nullopt;
}

std::optional<std::string> str_literal(const frontend::ModuleGraph& graph, frontend::ModuleId m, frontend::ExprId e) {
  if (!e.valid()) return std::nullopt;
  auto* lit = std::get_if<frontend::StrLit>(&graph.get(m).ast.get(e).data);
  if (!lit) return std::nullopt;
  std::string text;
  for (const frontend::StrPart& p : lit->parts) {
    if (p.is_hole()) return std::nullopt;
    text += p.text;
  }
  return text;
}

// One `@server` setting: its key and value expression in module `m`.
void apply_server_setting(ServiceFacts& f, const frontend::ModuleGraph& graph, frontend::ModuleId m,
                          std::string_view key, frontend::ExprId value) {
  if (key == "port") {
    if (auto port = int_literal(graph, m, value)) f.port = *port;
    else f.port_computed = true;
  } else if (key == "shutdown_timeout_secs") {
    // A computed timeout cannot be known here; the runtime's default is the best guess.
    if (auto secs = int_literal(graph, m, value); secs && *secs >= 0) f.shutdown_timeout_secs = *secs;
  }
}

// FALLBACK, to delete once the checker fills ServiceModel::server, health, ws and cron: the same
// facts read from the decorators of top-level functions, the way `fitz deploy image` read the
// port before the model existed. `want_*` says which parts the model left empty.
void read_decorators(ServiceFacts& f, const frontend::ModuleGraph& graph, bool want_server, bool want_health,
                     bool want_ws, bool want_cron) {
  bool server_seen = false;
  for (frontend::ModuleId m : graph.init_order) {
    const frontend::Ast& ast = graph.get(m).ast;
    for (frontend::StmtId s : ast.top_level) {
      auto* fn = std::get_if<frontend::FnStmt>(&ast.get(s).data);
      if (!fn) continue;
      for (const frontend::Decorator& d : ast.get(fn->fn).decorators) {
        if (checker::is_decorator(d, DecoratorKind::Server)) {
          f.service = true;
          if (!want_server || server_seen) continue;
          server_seen = true;
          static constexpr std::string_view kPositional[] = {"port", "host"};
          for (size_t i = 0; i < d.args.size(); ++i) {
            const frontend::DecoratorArg& a = d.args[i];
            std::string_view key = a.name ? std::string_view(a.name->text) : i < 2 ? kPositional[i] : "";
            apply_server_setting(f, graph, m, key, a.value);
          }
        } else if (checker::is_decorator(d, DecoratorKind::Healthz)) {
          if (want_health) f.custom_healthz = true;
        } else if (checker::is_decorator(d, DecoratorKind::Readyz)) {
          if (want_health) f.custom_readyz = true;
        } else if (checker::is_decorator(d, DecoratorKind::Ws)) {
          f.service = true;
          if (want_ws) {
            auto path = d.args.empty() ? std::nullopt : str_literal(graph, m, d.args[0].value);
            f.ws_paths.push_back(path.value_or("?"));
          }
        } else if (checker::is_decorator(d, DecoratorKind::Cron)) {
          if (want_cron) ++f.cron_jobs;
        } else if (checker::is_decorator(d, DecoratorKind::Get) || checker::is_decorator(d, DecoratorKind::Post) ||
                   checker::is_decorator(d, DecoratorKind::Put) || checker::is_decorator(d, DecoratorKind::Patch) ||
                   checker::is_decorator(d, DecoratorKind::Delete)) {
          f.service = true;
        }
      }
    }
  }
}

}  // namespace

ServiceFacts facts_of(const checker::TypedProgram& program, const frontend::ModuleGraph& graph) {
  const checker::ServiceModel& model = program.service;
  ServiceFacts f;
  f.service = model.has_http();
  if (model.server) {
    for (const auto& s : model.server->settings)
      apply_server_setting(f, graph, model.server->fn.module, s.key, s.value);
  }
  for (const checker::HealthCheck& h : model.health) (h.ready ? f.custom_readyz : f.custom_healthz) = true;
  for (const checker::WsEndpoint& w : model.ws) f.ws_paths.push_back(w.path);
  f.cron_jobs = model.cron.size();
  read_decorators(f, graph, !model.server, model.health.empty(), model.ws.empty(), model.cron.empty());
  return f;
}

}  // namespace fitz::cli::deploy
