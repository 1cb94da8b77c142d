// What to send: the target, the load shape (fixed concurrency or stages, optionally ramping
// linearly like k6's ramping-vus) and a weighted mix of endpoints whose path and body are
// templates, so that every request can carry a unique email or a random id.
//
// Template holes: {seq} (a number unique to the request, the same at every occurrence in
// it), {rand:A:B} (uniform integer in [A, B]), {conn} (the connection index) and {NAME} for a
// variable given in "vars" or with --var NAME=VALUE.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace fitz::loadgen {

struct Template {
  struct Piece {
    enum Kind { Text, Seq, Rand, Conn } kind = Text;
    std::string text;
    int64_t lo = 0, hi = 0;
  };
  std::vector<Piece> pieces;
  bool constant() const { return pieces.size() <= 1 && (pieces.empty() || pieces[0].kind == Piece::Text); }
  void render(std::string& out, uint64_t seq, int conn, std::mt19937_64& rng) const;
};

// Parses `text` with {hole}s; unknown {NAME}s are looked up in vars. Returns an error message.
std::optional<std::string> parse_template(const std::string& text, const std::map<std::string, std::string>& vars,
                                          Template& out);

struct Endpoint {
  std::string name;
  unsigned weight = 1;
  std::string method = "GET";
  Template path;
  Template body;
  bool has_body = false;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<int> expect;  // statuses counted as success; empty: any 2xx or 3xx
  bool success(int status) const;
  // Whether the request carries `Connection: close`: the client must then not reuse the
  // connection, whether or not the server's response says close too (RFC 9112 9.6).
  bool asks_close() const;
};

struct Stage {
  double seconds = 10;
  int connections = 10;
  bool ramp = false;  // interpolate linearly from the previous stage's level
};

struct Scenario {
  std::string host = "127.0.0.1";
  std::string port = "80";
  std::vector<Stage> stages;
  double warmup_seconds = 0;
  int timeout_ms = 5000;
  // A pause after each response before the connection sends again, like a k6 virtual user's
  // sleep() per iteration: it paces the load instead of saturating the server.
  int think_ms = 0;
  std::vector<Endpoint> endpoints;

  double total_seconds() const;
  int max_connections() const;
  int connections_at(double t) const;  // t: seconds since the start of the measured stages
};

// Splits http://host:port into the scenario. Returns an error message.
std::optional<std::string> parse_base_url(const std::string& url, Scenario& s);
// Reads a scenario file (JSON; see bench/loadgen/README.md). Returns an error message.
std::optional<std::string> load_scenario(const std::string& json_text,
                                         const std::map<std::string, std::string>& vars, Scenario& s);

}  // namespace fitz::loadgen
