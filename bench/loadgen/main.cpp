// fitz-loadgen: the HTTP load generator of `fitz bench`. Either a scenario file (stages and a
// weighted endpoint mix, see README.md) or one URL with -c/-d like wrk.
//
//   fitz-loadgen http://127.0.0.1:3000/users/1 -c 10 -d 10 --warmup 2
//   fitz-loadgen --scenario mixed.json --url http://127.0.0.1:3000 --var run=42 --json out.json
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "runner.h"
#include "scenario.h"

namespace lg = fitz::loadgen;

namespace {

constexpr const char* kUsage = R"(usage: fitz-loadgen [URL] [options]
  URL                   http://HOST:PORT/PATH (one endpoint; or use --scenario)
  --scenario FILE       JSON scenario: stages and a weighted endpoint mix
  --url BASE            override the scenario's base_url
  --var NAME=VALUE      value for a {NAME} template hole
  -c, --connections N   connections for a single-stage run (default 10)
  -d, --duration SECS   measured seconds for a single-stage run (default 10)
  -m, --method M        method for URL (default GET)
  -b, --body TEXT       request body for URL (JSON: sets Content-Type)
  -H, --header 'K: V'   extra header for URL (repeatable)
  --warmup SECS         warm-up seconds, not measured (default 0)
  --timeout-ms MS       per-request timeout (default 5000)
  --think-ms MS         pause after each response before the connection sends again (default 0)
  -t, --threads N       client threads (default 1)
  --json FILE           write the results as JSON ('-' for stdout)
  --quiet               no progress lines
exit status: 0 ok, 1 failures above --max-error-rate (default 0.001), 2 usage error
)";

double ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

nlohmann::json to_json(const lg::Scenario& s, const lg::Results& r) {
  nlohmann::json out;
  out["seconds"] = r.measured_seconds;
  out["connect_errors"] = r.connect_errors;
  uint64_t total = r.total_responses();
  out["requests"] = total;
  out["rps"] = r.measured_seconds > 0 ? static_cast<double>(total) / r.measured_seconds : 0.0;
  out["failures"] = r.total_failures();
  out["ended"] = r.ended;
  out["per_second"] = r.per_second;
  lg::Histogram all;
  nlohmann::json eps = nlohmann::json::array();
  for (size_t i = 0; i < s.endpoints.size(); ++i) {
    const lg::EndpointStats& e = r.endpoints[i];
    all.merge(e.latency);
    nlohmann::json statuses = nlohmann::json::object();
    for (size_t c = 0; c < e.status.size(); ++c)
      if (e.status[c]) statuses[std::to_string(c)] = e.status[c];
    eps.push_back({{"name", s.endpoints[i].name},
                   {"requests", e.responses},
                   {"rps", r.measured_seconds > 0 ? static_cast<double>(e.responses) / r.measured_seconds : 0.0},
                   {"status", statuses},
                   {"unexpected_status", e.unexpected},
                   {"errors", e.errors},
                   {"timeouts", e.timeouts},
                   {"latency_ms",
                    {{"p50", ms(e.latency.percentile(0.50))},
                     {"p95", ms(e.latency.percentile(0.95))},
                     {"p99", ms(e.latency.percentile(0.99))},
                     {"p999", ms(e.latency.percentile(0.999))},
                     {"max", ms(e.latency.max())},
                     {"mean", e.latency.mean() / 1e6}}}});
  }
  out["endpoints"] = eps;
  out["latency_ms"] = {{"p50", ms(all.percentile(0.50))}, {"p95", ms(all.percentile(0.95))},
                       {"p99", ms(all.percentile(0.99))}, {"p999", ms(all.percentile(0.999))},
                       {"max", ms(all.max())}};
  return out;
}

void print_table(const nlohmann::json& j) {
  fmt::print(stderr, "{:<28} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>8}\n", "endpoint", "requests", "req/s", "p50 ms",
             "p95 ms", "p99 ms", "p99.9 ms", "failed");
  for (const auto& e : j["endpoints"]) {
    uint64_t failed = e["unexpected_status"].get<uint64_t>() + e["errors"].get<uint64_t>() + e["timeouts"].get<uint64_t>();
    fmt::print(stderr, "{:<28} {:>10} {:>10.0f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>8}\n",
               e["name"].get<std::string>().substr(0, 28), e["requests"].get<uint64_t>(), e["rps"].get<double>(),
               e["latency_ms"]["p50"].get<double>(), e["latency_ms"]["p95"].get<double>(),
               e["latency_ms"]["p99"].get<double>(), e["latency_ms"]["p999"].get<double>(), failed);
  }
  fmt::print(stderr, "total {:.0f} req/s over {:.1f} s, {} failures, {} connect errors\n", j["rps"].get<double>(),
             j["seconds"].get<double>(), j["failures"].get<uint64_t>(), j["connect_errors"].get<uint64_t>());
}

}  // namespace

int main(int argc, char** argv) {
  std::string url, scenario_file, base_override, json_out, method = "GET", body;
  std::vector<std::string> headers;
  std::map<std::string, std::string> vars;
  int connections = 10, threads = 1, timeout_ms = -1, think_ms = -1;
  double duration = 10, warmup = -1, max_error_rate = 0.001;
  bool quiet = false;
  auto need = [&](int& i) -> std::string {
    if (i + 1 >= argc) {
      fmt::print(stderr, "fitz-loadgen: {} needs a value\n{}", argv[i], kUsage);
      std::exit(2);
    }
    return argv[++i];
  };
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "-h" || a == "--help") {
        fmt::print("{}", kUsage);
        return 0;
      } else if (a == "--scenario") scenario_file = need(i);
      else if (a == "--url") base_override = need(i);
      else if (a == "--var") {
        std::string kv = need(i);
        size_t eq = kv.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("--var needs NAME=VALUE");
        vars[kv.substr(0, eq)] = kv.substr(eq + 1);
      } else if (a == "-c" || a == "--connections") connections = std::stoi(need(i));
      else if (a == "-d" || a == "--duration") duration = std::stod(need(i));
      else if (a == "-m" || a == "--method") method = need(i);
      else if (a == "-b" || a == "--body") body = need(i);
      else if (a == "-H" || a == "--header") headers.push_back(need(i));
      else if (a == "--warmup") warmup = std::stod(need(i));
      else if (a == "--timeout-ms") timeout_ms = std::stoi(need(i));
      else if (a == "--think-ms") think_ms = std::stoi(need(i));
      else if (a == "-t" || a == "--threads") threads = std::stoi(need(i));
      else if (a == "--json") json_out = need(i);
      else if (a == "--max-error-rate") max_error_rate = std::stod(need(i));
      else if (a == "--quiet") quiet = true;
      else if (!a.empty() && a[0] != '-' && url.empty()) url = a;
      else throw std::invalid_argument("unknown argument " + a);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "fitz-loadgen: {}\n{}", e.what(), kUsage);
    return 2;
  }

  lg::Scenario s;
  if (!scenario_file.empty()) {
    std::ifstream in(scenario_file);
    if (!in) {
      fmt::print(stderr, "fitz-loadgen: cannot read {}\n", scenario_file);
      return 2;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    if (auto e = lg::load_scenario(ss.str(), vars, s)) {
      fmt::print(stderr, "fitz-loadgen: {}: {}\n", scenario_file, *e);
      return 2;
    }
  } else if (!url.empty()) {
    lg::Endpoint ep;
    size_t path_at = url.find('/', url.find("://") == std::string::npos ? 0 : url.find("://") + 3);
    std::string path = path_at == std::string::npos ? "/" : url.substr(path_at);
    ep.name = method + " " + path;
    ep.method = method;
    if (auto e = lg::parse_template(path, vars, ep.path)) {
      fmt::print(stderr, "fitz-loadgen: {}\n", *e);
      return 2;
    }
    if (!body.empty()) {
      ep.has_body = true;
      if (auto e = lg::parse_template(body, vars, ep.body)) {
        fmt::print(stderr, "fitz-loadgen: {}\n", *e);
        return 2;
      }
      if (body[0] == '{' || body[0] == '[') ep.headers.emplace_back("Content-Type", "application/json");
    }
    for (const std::string& h : headers) {
      size_t colon = h.find(':');
      if (colon == std::string::npos) {
        fmt::print(stderr, "fitz-loadgen: bad header '{}' (expected 'Name: value')\n", h);
        return 2;
      }
      size_t v = h.find_first_not_of(' ', colon + 1);
      ep.headers.emplace_back(h.substr(0, colon), v == std::string::npos ? "" : h.substr(v));
    }
    s.endpoints.push_back(std::move(ep));
  } else {
    fmt::print(stderr, "fitz-loadgen: give a URL or --scenario\n{}", kUsage);
    return 2;
  }
  std::string base = !base_override.empty() ? base_override : url;
  if (!base.empty())
    if (auto e = lg::parse_base_url(base, s)) {
      fmt::print(stderr, "fitz-loadgen: {}\n", *e);
      return 2;
    }
  if (s.stages.empty()) s.stages.push_back({duration, connections, false});
  if (warmup >= 0) s.warmup_seconds = warmup;
  if (timeout_ms > 0) s.timeout_ms = timeout_ms;
  if (think_ms >= 0) s.think_ms = think_ms;

  lg::RunOptions opts;
  opts.threads = threads;
  if (!quiet)
    opts.on_progress = [](const lg::Progress& p) {
      fmt::print(stderr, "[{:5.1f}s]{} conns {:4}  {:9.0f} req/s  failures {}\n", p.elapsed, p.warming ? " warm-up" : "",
                 p.connections, p.rps, p.failures);
    };
  lg::Results r;
  try {
    r = lg::run(s, opts);
  } catch (const std::exception& e) {
    fmt::print(stderr, "fitz-loadgen: {}\n", e.what());
    return 2;
  }
  nlohmann::json j = to_json(s, r);
  if (!quiet || json_out.empty()) print_table(j);
  if (json_out == "-") {
    std::cout << j.dump(2) << "\n";
  } else if (!json_out.empty()) {
    std::ofstream(json_out) << j.dump(2) << "\n";
  }
  uint64_t attempts = 0;
  for (const auto& e : r.endpoints) attempts += e.responses + e.errors + e.timeouts;
  double rate = attempts ? static_cast<double>(r.total_failures()) / static_cast<double>(attempts) : 1.0;
  if (attempts == 0 || rate > max_error_rate) {
    fmt::print(stderr, "fitz-loadgen: failure rate {:.3f}% is above {:.3f}%\n", rate * 100, max_error_rate * 100);
    return 1;
  }
  return 0;
}
