// The deployment facts of a service, from the checker's service model and nothing else.
#include "cli/deploy_facts.h"

namespace fitz::cli::deploy {

ServiceFacts facts_of(const checker::TypedProgram& program, const frontend::ModuleGraph&) {
  const checker::ServiceModel& model = program.service;
  ServiceFacts f;
  f.service = model.has_http();
  if (model.server) {
    for (const auto& s : model.server->settings) {
      if (s.key == "port") {
        if (s.int_literal) f.port = *s.int_literal;
        else f.port_computed = true;
      } else if (s.key == "shutdown_timeout_secs" && s.int_literal && *s.int_literal >= 0) {
        // A computed timeout cannot be known here; the runtime's default is the best guess.
        f.shutdown_timeout_secs = *s.int_literal;
      }
    }
  }
  for (const checker::HealthCheck& h : model.health) (h.ready ? f.custom_readyz : f.custom_healthz) = true;
  for (const checker::WsEndpoint& w : model.ws) f.ws_paths.push_back(w.path);
  f.cron_jobs = model.cron.size();
  return f;
}

}  // namespace fitz::cli::deploy
