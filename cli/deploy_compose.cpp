// The files of `fitz deploy compose` (deploy_compose.h). Replicas are separate services rather
// than `deploy.replicas`, so that each has a stable DNS name the load balancer checks on its own
// and every Compose version (Debian's docker-compose 1.29 too) runs the same number.
#include "cli/deploy_compose.h"

#include <fmt/format.h>

namespace fitz::cli::deploy {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kDbService = "db";
constexpr const char* kMigrateService = "migrate";
constexpr const char* kLbService = "lb";
constexpr const char* kDbUser = "fitz";
// Compose refuses to start (and `config` fails) without them, rather than running with an empty
// password or secret.
constexpr const char* kPasswordRef = "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env (see .env.example)}";
constexpr const char* kSecretRef = "${FITZ_SECRET_KEY:?set FITZ_SECRET_KEY in .env (see .env.example)}";

std::string db_name(const AppSpec& app) {
  std::string n = app.name;
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

std::string database_url(const AppSpec& app) {
  return fmt::format("postgres://{}:${{POSTGRES_PASSWORD}}@{}:5432/{}", kDbUser, kDbService, db_name(app));
}

Json postgres(const AppSpec& app) {
  return Json{
      {"image", "postgres:15"},
      {"environment", {{"POSTGRES_USER", kDbUser}, {"POSTGRES_PASSWORD", kPasswordRef}, {"POSTGRES_DB", db_name(app)}}},
      {"volumes", Json::array({"pgdata:/var/lib/postgresql/data"})},
      {"healthcheck",
       {{"test", Json::array({"CMD", "pg_isready", "-U", kDbUser, "-d", db_name(app)})},
        {"interval", "5s"},
        {"timeout", "3s"},
        {"retries", 10}}},
      {"restart", "unless-stopped"},
  };
}

Json migrate(const AppSpec& app) {
  return Json{
      {"image", app.image},
      {"command", Json::array({"migrate"})},  // the image's entrypoint is the service binary
      {"environment", {{"DATABASE_URL", database_url(app)}}},
      {"depends_on", {{kDbService, {{"condition", "service_healthy"}}}}},
      {"restart", "no"},
  };
}

Json replica(const AppSpec& app) {
  Json env{
      {"PORT", std::to_string(app.facts.port)},
      {"HOST", "0.0.0.0"},
      {"DATABASE_URL", database_url(app)},
      {"FITZ_SECRET_KEY", kSecretRef},
  };
  // Each replica holds its own WebSocket clients; broadcasts reach the others through Postgres.
  if (!app.facts.ws_paths.empty()) env["FITZ_WS_PUBSUB"] = "postgres";
  Json depends{{kDbService, {{"condition", "service_healthy"}}}};
  if (app.migrations) depends[kMigrateService] = {{"condition", "service_completed_successfully"}};
  return Json{
      {"image", app.image},
      {"environment", env},
      {"depends_on", depends},
      {"restart", "unless-stopped"},
      {"stop_grace_period", fmt::format("{}s", grace_period_secs(app.facts))},
      {"read_only", true},
      {"tmpfs", Json::array({"/tmp"})},
  };
}

Json balancer(const AppSpec& app) {
  Json depends = Json::object();
  for (int64_t i = 1; i <= app.replicas; ++i) depends[replica_service(app, i)] = {{"condition", "service_started"}};
  return Json{
      {"image", "haproxy:2.6"},
      {"ports", Json::array({fmt::format("{0}:{0}", app.facts.port)})},
      {"volumes", Json::array({fmt::format("./{}:/usr/local/etc/haproxy/haproxy.cfg:ro", kHaproxyFile)})},
      {"depends_on", depends},
      {"restart", "unless-stopped"},
  };
}

std::string haproxy_cfg(const AppSpec& app) {
  bool ws = !app.facts.ws_paths.empty();
  std::string servers;
  for (int64_t i = 1; i <= app.replicas; ++i) {
    std::string s = replica_service(app, i);
    servers += fmt::format("    server {0} {0}:{1}\n", s, app.facts.port);
  }
  return fmt::format(
      R"(# The load balancer in front of the {name} replicas, written by `fitz deploy compose`.
# A replica gets requests only while its /readyz answers 200: not before it has started, and
# not once it drains after SIGTERM.
global
    log stdout format raw local0

defaults
    mode http
    log global
    option httplog
    timeout connect 5s
    timeout http-request 10s
    timeout client 60s
    timeout server 60s
{tunnel}
# Compose's DNS, so replicas that restart with a new address are found again.
resolvers docker
    nameserver dns 127.0.0.11:53
    hold valid 10s

frontend http
    bind :{port}
    default_backend {name}

backend {name}
    balance {balance}
    option httpchk
    http-check send meth GET uri {readyz}
    http-check expect status 200
    default-server check inter 2s fall 2 rise 2 resolvers docker init-addr last,libc,none
{servers})",
      fmt::arg("name", app.name), fmt::arg("port", app.facts.port), fmt::arg("readyz", kReadyzPath),
      fmt::arg("servers", servers),
      // WebSocket connections last: spread them by count, and let an open one idle for an hour.
      fmt::arg("balance", ws ? "leastconn" : "roundrobin"),
      fmt::arg("tunnel", ws ? "    timeout tunnel 1h\n" : ""));
}

}  // namespace

std::string replica_service(const AppSpec& app, int64_t i) { return fmt::format("{}-{}", app.name, i); }

ComposeFiles compose_files(const AppSpec& app) {
  Json services = Json::object();
  services[kDbService] = postgres(app);
  if (app.migrations) services[kMigrateService] = migrate(app);
  for (int64_t i = 1; i <= app.replicas; ++i) services[replica_service(app, i)] = replica(app);
  services[kLbService] = balancer(app);

  ComposeFiles files;
  files.compose = Json{{"services", services}, {"volumes", {{"pgdata", Json::object()}}}};
  files.haproxy_cfg = haproxy_cfg(app);
  files.env_example =
      "# The secrets docker-compose.yml requires: copy this file to .env beside it and fill them in.\n"
      "# The password goes into DATABASE_URL as it is, so keep to letters and digits.\n"
      "POSTGRES_PASSWORD=\n"
      "FITZ_SECRET_KEY=\n";
  return files;
}

}  // namespace fitz::cli::deploy
