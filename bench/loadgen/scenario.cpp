#include "scenario.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <nlohmann/json.hpp>

namespace fitz::loadgen {

namespace {

bool parse_int(std::string_view s, int64_t& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

void Template::render(std::string& out, uint64_t seq, int conn, std::mt19937_64& rng) const {
  for (const Piece& p : pieces) {
    switch (p.kind) {
      case Piece::Text: out += p.text; break;
      case Piece::Seq: out += std::to_string(seq); break;
      case Piece::Conn: out += std::to_string(conn); break;
      case Piece::Rand: {
        std::uniform_int_distribution<int64_t> d(p.lo, p.hi);
        out += std::to_string(d(rng));
        break;
      }
    }
  }
}

std::optional<std::string> parse_template(const std::string& text, const std::map<std::string, std::string>& vars,
                                          Template& out) {
  out.pieces.clear();
  auto add_text = [&](std::string_view t) {
    if (t.empty()) return;
    if (!out.pieces.empty() && out.pieces.back().kind == Template::Piece::Text)
      out.pieces.back().text += t;
    else
      out.pieces.push_back(Template::Piece{Template::Piece::Text, std::string(t), 0, 0});
  };
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find('{', i);
    if (open == std::string::npos) {
      add_text(std::string_view(text).substr(i));
      break;
    }
    size_t close = text.find('}', open);
    std::string_view name = close == std::string::npos ? std::string_view{}
                                                       : std::string_view(text).substr(open + 1, close - open - 1);
    auto is_hole = [&] {
      if (name.empty()) return false;
      return std::all_of(name.begin(), name.end(),
                         [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-'; });
    };
    if (close == std::string::npos || !is_hole()) {  // literal brace, e.g. JSON
      add_text(std::string_view(text).substr(i, open - i + 1));
      i = open + 1;
      continue;
    }
    add_text(std::string_view(text).substr(i, open - i));
    i = close + 1;
    if (name == "seq") {
      out.pieces.push_back(Template::Piece{Template::Piece::Seq, {}, 0, 0});
    } else if (name == "conn") {
      out.pieces.push_back(Template::Piece{Template::Piece::Conn, {}, 0, 0});
    } else if (name.substr(0, 5) == "rand:") {
      std::string_view rest = name.substr(5);
      size_t colon = rest.find(':');
      Template::Piece p{Template::Piece::Rand, {}, 0, 0};
      if (colon == std::string_view::npos || !parse_int(rest.substr(0, colon), p.lo) ||
          !parse_int(rest.substr(colon + 1), p.hi) || p.lo > p.hi)
        return "bad random hole {" + std::string(name) + "}: expected {rand:LOW:HIGH}";
      out.pieces.push_back(p);
    } else if (auto it = vars.find(std::string(name)); it != vars.end()) {
      add_text(it->second);
    } else {
      return "unknown template variable {" + std::string(name) + "} (give it with --var " + std::string(name) + "=VALUE)";
    }
  }
  return std::nullopt;
}

bool Endpoint::success(int status) const {
  if (expect.empty()) return status >= 200 && status < 400;
  return std::find(expect.begin(), expect.end(), status) != expect.end();
}

bool Endpoint::asks_close() const {
  auto lower = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    return t;
  };
  for (const auto& [k, v] : headers)
    if (lower(k) == "connection" && lower(v).find("close") != std::string::npos) return true;
  return false;
}

double Scenario::total_seconds() const {
  double t = 0;
  for (const Stage& s : stages) t += s.seconds;
  return t;
}

int Scenario::max_connections() const {
  int m = 0;
  for (const Stage& s : stages) m = std::max(m, s.connections);
  return m;
}

int Scenario::connections_at(double t) const {
  int prev = stages.empty() ? 0 : stages.front().connections;
  for (const Stage& s : stages) {
    if (t < s.seconds) {
      if (!s.ramp) return s.connections;
      double f = s.seconds > 0 ? t / s.seconds : 1.0;
      return std::max(1, static_cast<int>(prev + (s.connections - prev) * f + 0.5));
    }
    t -= s.seconds;
    prev = s.connections;
  }
  return prev;
}

std::optional<std::string> parse_base_url(const std::string& url, Scenario& s) {
  std::string_view u = url;
  if (u.substr(0, 7) != "http://") return "only http:// URLs are supported: " + url;
  u.remove_prefix(7);
  if (size_t slash = u.find('/'); slash != std::string_view::npos) u = u.substr(0, slash);
  size_t colon = u.rfind(':');
  if (colon == std::string_view::npos) {
    s.host = std::string(u);
    s.port = "80";
  } else {
    s.host = std::string(u.substr(0, colon));
    s.port = std::string(u.substr(colon + 1));
  }
  if (s.host.empty()) return "no host in " + url;
  return std::nullopt;
}

std::optional<std::string> load_scenario(const std::string& json_text, const std::map<std::string, std::string>& cli_vars,
                                         Scenario& s) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "the scenario is not a JSON object";
  try {
    std::map<std::string, std::string> vars;
    if (j.contains("vars"))
      for (auto& [k, v] : j["vars"].items()) vars[k] = v.is_string() ? v.get<std::string>() : v.dump();
    for (auto& [k, v] : cli_vars) vars[k] = v;  // the command line wins
    if (j.contains("base_url"))
      if (auto e = parse_base_url(j["base_url"].get<std::string>(), s)) return e;
    s.warmup_seconds = j.value("warmup_seconds", s.warmup_seconds);
    s.timeout_ms = j.value("timeout_ms", s.timeout_ms);
    s.think_ms = j.value("think_ms", s.think_ms);
    if (s.think_ms < 0) return "think_ms must be >= 0";
    if (j.contains("stages")) {
      s.stages.clear();
      for (auto& st : j["stages"]) {
        Stage stage;
        stage.seconds = st.at("seconds").get<double>();
        stage.connections = st.at("connections").get<int>();
        stage.ramp = st.value("ramp", false);
        if (stage.seconds <= 0 || stage.connections < 1) return "every stage needs seconds > 0 and connections >= 1";
        s.stages.push_back(stage);
      }
    }
    if (!j.contains("endpoints") || !j["endpoints"].is_array() || j["endpoints"].empty())
      return "the scenario needs a non-empty \"endpoints\" array";
    s.endpoints.clear();
    for (auto& e : j["endpoints"]) {
      Endpoint ep;
      ep.method = e.value("method", std::string("GET"));
      std::string path = e.at("path").get<std::string>();
      ep.name = e.value("name", ep.method + " " + path);
      ep.weight = e.value("weight", 1u);
      if (auto err = parse_template(path, vars, ep.path)) return ep.name + ": " + *err;
      if (e.contains("body")) {
        ep.has_body = true;
        std::string body = e["body"].is_string() ? e["body"].get<std::string>() : e["body"].dump();
        if (auto err = parse_template(body, vars, ep.body)) return ep.name + ": " + *err;
        if (!e["body"].is_string()) ep.headers.emplace_back("Content-Type", "application/json");
      }
      if (e.contains("headers"))
        for (auto& [k, v] : e["headers"].items()) ep.headers.emplace_back(k, v.get<std::string>());
      if (e.contains("expect")) {
        if (e["expect"].is_array())
          for (auto& st : e["expect"]) ep.expect.push_back(st.get<int>());
        else
          ep.expect.push_back(e["expect"].get<int>());
      }
      if (ep.weight == 0) continue;
      s.endpoints.push_back(std::move(ep));
    }
    if (s.endpoints.empty()) return "every endpoint has weight 0";
  } catch (const nlohmann::json::exception& e) {
    return std::string("bad scenario: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace fitz::loadgen
