// `fitz deploy compose`: a Compose project for a service — its replicas behind an HAProxy load
// balancer, Postgres with a volume and a health check, and a migration run when the project has
// migrations — as the compose file, the load balancer's configuration and an example .env.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cli/deploy_app.h"

namespace fitz::cli::deploy {

inline constexpr const char* kComposeFile = "docker-compose.yml";
inline constexpr const char* kHaproxyFile = "haproxy.cfg";
inline constexpr const char* kEnvExampleFile = ".env.example";

struct ComposeFiles {
  nlohmann::ordered_json compose;  // written as YAML to kComposeFile
  std::string haproxy_cfg;         // kHaproxyFile, beside it
  std::string env_example;         // kEnvExampleFile: the variables the compose file requires
};

// The service names of the replicas: `NAME-1` ... `NAME-N`.
std::string replica_service(const AppSpec& app, int64_t i);

ComposeFiles compose_files(const AppSpec& app);

}  // namespace fitz::cli::deploy
