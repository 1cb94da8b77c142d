// The application that `fitz deploy k8s` and `fitz deploy compose` write manifests for: its
// name, image, replica count, whether the project has migrations, and the service's facts.
// cmd_deploy.cpp fills one AppSpec; deploy_k8s.cpp and deploy_compose.cpp only read it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli/deploy_facts.h"

namespace fitz::cli::deploy {

// How long a stopping replica keeps serving after it is taken out of the load balancer's
// rotation, so that requests routed to it just before are not refused.
inline constexpr int64_t kPreStopSleepSecs = 5;
// Room past the server's own drain and shutdown timeout before the platform kills it.
inline constexpr int64_t kGraceMarginSecs = 5;

struct AppSpec {
  std::string name;     // the binary's name: Kubernetes object names, the compose service
  std::string image;    // the image reference the manifests run
  int64_t replicas = 2;
  bool migrations = false;  // the project has files in migrations/: run `NAME migrate` first
  ServiceFacts facts;
};

// The seconds from the stop signal (or the start of preStop) until a replica must be gone: the
// pre-stop pause, the runtime's drain delay, its shutdown timeout for requests in flight, and
// a margin.
inline int64_t grace_period_secs(const ServiceFacts& f) {
  return kPreStopSleepSecs + kRuntimeDrainDelaySecs + f.shutdown_timeout_secs + kGraceMarginSecs;
}

// `name` as a DNS label, what Kubernetes object names and compose service names both accept:
// lower case letters, digits and `-`, starting and ending with a letter or digit, at most 63.
std::string dns_label(std::string_view name);

}  // namespace fitz::cli::deploy
