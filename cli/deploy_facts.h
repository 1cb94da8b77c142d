// What the deployment targets need to know about a checked service (its port, shutdown timeout,
// health checks, WebSocket endpoints, cron jobs), read once from the service model so that the
// manifest writers (deploy_k8s.h, deploy_compose.h) never look at decorators themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/checker.h"
#include "frontend/modules.h"

namespace fitz::cli::deploy {

// The runtime's own settings (runtime/include/fitz/http.h, ServerConfig) when `@server` does
// not change them, and the probe paths it always serves (runtime/http/app.cpp).
inline constexpr int64_t kRuntimeDefaultPort = 3000;
inline constexpr int64_t kRuntimeShutdownTimeoutSecs = 30;
inline constexpr int64_t kRuntimeDrainDelaySecs = 2;  // /readyz answers 503 this long after SIGTERM
inline constexpr std::string_view kHealthzPath = "/healthz";
inline constexpr std::string_view kReadyzPath = "/readyz";

struct ServiceFacts {
  bool service = false;                // has routes, WebSocket endpoints or `@server`
  int64_t port = kRuntimeDefaultPort;  // `@server`'s literal port, else the runtime's default
  bool port_computed = false;          // `@server` computes its port: PORT decides at run time
  int64_t shutdown_timeout_secs = kRuntimeShutdownTimeoutSecs;
  bool custom_healthz = false;         // `@healthz` replaces the check behind /healthz
  bool custom_readyz = false;          // `@readyz` replaces the check behind /readyz
  std::vector<std::string> ws_paths;   // WebSocket endpoints: replicas must share broadcasts
  size_t cron_jobs = 0;
};

ServiceFacts facts_of(const checker::TypedProgram& program, const frontend::ModuleGraph& graph);

}  // namespace fitz::cli::deploy
