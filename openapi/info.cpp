// The document's info and servers: the license named in fitz.toml, and where the service listens
// from the checker's `@server` settings (literal host and port) or the runtime's defaults.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "openapi/internal.h"

namespace fitz::openapi::detail {

namespace {

// `MIT`, `Apache-2.0`, `MIT OR Apache-2.0`, `(GPL-2.0-only WITH Classpath-exception-2.0)`:
// identifiers joined by AND/OR/WITH. Free text ("see LICENSE") is a name only.
bool is_spdx_expression(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text + " ") {
    if (c == '(' || c == ')') continue;
    if (c != ' ') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (words.size() % 2 == 0) return false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (i % 2 == 1) {
      if (w != "AND" && w != "OR" && w != "WITH") return false;
      continue;
    }
    bool id = std::all_of(w.begin(), w.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == ':';
    });
    if (!id || w == "AND" || w == "OR" || w == "WITH") return false;
  }
  return true;
}

}  // namespace

Json server_of(const checker::ServiceModel& model) {
  using checker::ServerSettings;
  const ServerSettings::Setting* host = model.server ? model.server->find("host") : nullptr;
  const ServerSettings::Setting* port = model.server ? model.server->find("port") : nullptr;
  Json variables = Json::object();
  std::string host_text(ServerSettings::kDefaultHost);
  if (host && host->literal) {
    host_text = *host->literal;
  } else if (host) {
    host_text = "{host}";
    variables["host"] = Json{{"default", std::string(ServerSettings::kDefaultHost)},
                             {"description", "The host `@server` computes at start-up."}};
  }
  // A wildcard address listens everywhere; clients on the same machine reach it as localhost.
  if (host_text == "0.0.0.0" || host_text == "::") host_text = "localhost";
  if (host_text.find(':') != std::string::npos) host_text = "[" + host_text + "]";
  std::string port_text = std::to_string(ServerSettings::kDefaultPort);
  if (port && port->int_literal) {
    port_text = std::to_string(*port->int_literal);
  } else if (port) {
    port_text = "{port}";
    variables["port"] = Json{{"default", std::to_string(ServerSettings::kDefaultPort)},
                             {"description", "The port `@server` computes at start-up."}};
  }
  Json out{{"url", "http://" + host_text + ":" + port_text},
           {"description", "Where the service listens (the HOST and PORT environment variables override it)."}};
  if (!variables.empty()) out["variables"] = std::move(variables);
  return out;
}

Json license_of(const std::string& text) {
  Json out{{"name", text}};
  if (is_spdx_expression(text)) out["identifier"] = text;
  return out;
}

}  // namespace fitz::openapi::detail
