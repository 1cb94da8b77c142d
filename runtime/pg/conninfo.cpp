// Parsing of connection strings (URL and key=value forms) into ConnInfo; see conninfo.h. Unknown
// parameters are errors, so that a typo such as `sslmod=require` is not silently ignored.
#include "pg/conninfo.h"

#include <charconv>

#include "pg/ascii_space.h"

namespace fitz::pg {
namespace {

Error config_error(std::string message) {
  return Error::make(ErrorKind::Config, sqlstate::kInvalidParameterValue, std::move(message));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_encode(std::string_view text, bool allow_slash = false) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    auto b = static_cast<unsigned char>(c);
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                 c == '.' || c == '_' || c == '~' || (allow_slash && c == '/');
    if (plain) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 15]);
    }
  }
  return out;
}

Result<uint16_t> parse_port(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535)
    return config_error("invalid port \"" + std::string(text) + "\"");
  return static_cast<uint16_t>(value);
}

Result<SslMode> parse_sslmode(std::string_view text) {
  if (text == "disable") return SslMode::Disable;
  if (text == "allow") return SslMode::Allow;
  if (text == "prefer") return SslMode::Prefer;
  if (text == "require") return SslMode::Require;
  if (text == "verify-ca") return SslMode::VerifyCa;
  if (text == "verify-full") return SslMode::VerifyFull;
  return config_error("invalid sslmode \"" + std::string(text) +
                      "\" (expected disable, allow, prefer, require, verify-ca or verify-full)");
}

Result<TargetSessionAttrs> parse_target_session_attrs(std::string_view text) {
  if (text == "any") return TargetSessionAttrs::Any;
  if (text == "read-write") return TargetSessionAttrs::ReadWrite;
  if (text == "read-only") return TargetSessionAttrs::ReadOnly;
  if (text == "primary") return TargetSessionAttrs::Primary;
  if (text == "standby") return TargetSessionAttrs::Standby;
  if (text == "prefer-standby") return TargetSessionAttrs::PreferStandby;
  return config_error("invalid target_session_attrs \"" + std::string(text) +
                      "\" (expected any, read-write, read-only, primary, standby or prefer-standby)");
}

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> parts;
  for (;;) {
    std::size_t comma = text.find(',');
    parts.push_back(text.substr(0, comma));
    if (comma == std::string_view::npos) return parts;
    text.remove_prefix(comma + 1);
  }
}

// A connection string on its way to a ConnInfo: hosts and ports are collected as written and
// paired up at the end, since `port=` may come before or after the hosts it applies to.
struct Draft {
  ConnInfo info;
  bool has_dbname = false;
  std::vector<std::string> hosts;                 // from the URL's authority or `host=`
  std::vector<std::optional<uint16_t>> own_ports;  // per URL host: the port written after it
  std::vector<std::optional<uint16_t>> ports;      // from `port=`: one for every host, or one each
};

// Applies one named setting; shared by the URL query and the key=value form.
Status apply(Draft& d, std::string_view key, std::string value) {
  ConnInfo& info = d.info;
  if (key == "host") {
    d.hosts.clear();
    d.own_ports.clear();
    for (std::string_view h : split_commas(value)) d.hosts.emplace_back(h);
  } else if (key == "port") {
    d.ports.clear();
    for (std::string_view p : split_commas(value)) {
      if (p.empty()) {
        d.ports.emplace_back();  // this host takes the default port
        continue;
      }
      auto port = parse_port(p);
      if (!port) return std::move(port).error();
      d.ports.emplace_back(*port);
    }
  } else if (key == "user") {
    info.user = std::move(value);
  } else if (key == "password") {
    info.password = std::move(value);
  } else if (key == "dbname") {
    info.dbname = std::move(value);
    d.has_dbname = true;
  } else if (key == "sslmode") {
    auto mode = parse_sslmode(value);
    if (!mode) return std::move(mode).error();
    info.sslmode = *mode;
  } else if (key == "sslrootcert") {
    info.sslrootcert = std::move(value);
  } else if (key == "application_name") {
    info.application_name = std::move(value);
  } else if (key == "connect_timeout") {
    int seconds = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || seconds < 0)
      return config_error("invalid connect_timeout \"" + value + "\"");
    if (seconds > 0) info.connect_timeout = std::chrono::seconds(seconds);
    else info.connect_timeout.reset();
  } else if (key == "options") {
    info.options = std::move(value);
  } else if (key == "target_session_attrs") {
    auto attrs = parse_target_session_attrs(value);
    if (!attrs) return std::move(attrs).error();
    info.target_session_attrs = *attrs;
  } else {
    return config_error("unknown connection parameter \"" + std::string(key) + "\"");
  }
  return {};
}

// Pairs hosts with ports: a port written after a URL host wins; otherwise `port=` gives one
// port for all hosts or one per host (an empty entry, like a missing one, is 5432).
Result<ConnInfo> finish(Draft d) {
  ConnInfo& info = d.info;
  if (d.hosts.empty()) d.hosts.emplace_back();
  std::size_t n = d.hosts.size();
  if (d.ports.size() > 1 && d.ports.size() != n)
    return config_error("the port list has " + std::to_string(d.ports.size()) + " entries for " + std::to_string(n) +
                        " hosts (give one port for all hosts or one per host)");
  std::vector<HostPort> servers;
  for (std::size_t i = 0; i < n; ++i) {
    HostPort s;
    s.host = d.hosts[i].empty() ? "localhost" : std::move(d.hosts[i]);
    std::optional<uint16_t> port = i < d.own_ports.size() ? d.own_ports[i] : std::nullopt;
    if (!port && !d.ports.empty()) port = d.ports.size() == 1 ? d.ports[0] : d.ports[i];
    s.port = port.value_or(5432);
    servers.push_back(std::move(s));
  }
  info.host = std::move(servers[0].host);
  info.port = servers[0].port;
  info.more_hosts.assign(std::make_move_iterator(servers.begin() + 1), std::make_move_iterator(servers.end()));
  if (!d.has_dbname || info.dbname.empty()) info.dbname = info.user;
  return std::move(info);
}

// One entry of a URL's host list: `host`, `host:port`, `[v6]`, `[v6]:port` or a
// percent-encoded socket directory.
Status parse_url_host(Draft& d, std::string_view hostport) {
  std::string_view host = hostport, port;
  if (hostport.starts_with('[')) {
    std::size_t close = hostport.find(']');
    if (close == std::string_view::npos) return config_error("unterminated IPv6 address in URL");
    host = hostport.substr(1, close - 1);
    std::string_view tail = hostport.substr(close + 1);
    if (!tail.empty()) {
      if (tail[0] != ':') return config_error("unexpected characters after IPv6 address in URL");
      port = tail.substr(1);
      if (port.empty()) return config_error("empty port in URL");
    }
    if (host.empty()) return config_error("empty IPv6 address in URL");
  } else {
    std::size_t colon = hostport.find(':');
    if (colon != std::string_view::npos) {
      host = hostport.substr(0, colon);
      port = hostport.substr(colon + 1);
      if (port.empty()) return config_error("empty port in URL");
    }
  }
  auto decoded = percent_decode(host);
  if (!decoded) return std::move(decoded).error();
  std::optional<uint16_t> own_port;
  if (!port.empty()) {
    auto p = parse_port(port);
    if (!p) return std::move(p).error();
    own_port = *p;
  }
  d.hosts.push_back(std::move(*decoded));
  d.own_ports.push_back(own_port);
  return {};
}

// Splits a URL's host list at the commas outside IPv6 brackets.
Status parse_url_hosts(Draft& d, std::string_view list) {
  if (list.empty()) return {};
  std::size_t start = 0;
  bool in_brackets = false;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    if (i < list.size() && list[i] == '[') in_brackets = true;
    if (i < list.size() && list[i] == ']') in_brackets = false;
    if (i == list.size() || (list[i] == ',' && !in_brackets)) {
      if (auto s = parse_url_host(d, list.substr(start, i - start)); !s) return s;
      start = i + 1;
    }
  }
  return {};
}


}  // namespace

std::string_view ssl_mode_name(SslMode mode) {
  switch (mode) {
    case SslMode::Disable: return "disable";
    case SslMode::Allow: return "allow";
    case SslMode::Prefer: return "prefer";
    case SslMode::Require: return "require";
    case SslMode::VerifyCa: return "verify-ca";
    case SslMode::VerifyFull: return "verify-full";
  }
  return "prefer";
}

std::string_view target_session_attrs_name(TargetSessionAttrs attrs) {
  switch (attrs) {
    case TargetSessionAttrs::Any: return "any";
    case TargetSessionAttrs::ReadWrite: return "read-write";
    case TargetSessionAttrs::ReadOnly: return "read-only";
    case TargetSessionAttrs::Primary: return "primary";
    case TargetSessionAttrs::Standby: return "standby";
    case TargetSessionAttrs::PreferStandby: return "prefer-standby";
  }
  return "any";
}

std::string HostPort::unix_socket_path() const {
  std::string path = host;
  if (!path.empty() && path.back() != '/') path.push_back('/');
  return path + ".s.PGSQL." + std::to_string(port);
}

std::string HostPort::where() const {
  if (is_unix_socket()) return unix_socket_path();
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

std::string ConnInfo::unix_socket_path() const { return HostPort{host, port}.unix_socket_path(); }

std::vector<HostPort> ConnInfo::hosts() const {
  std::vector<HostPort> all;
  all.reserve(1 + more_hosts.size());
  all.push_back(HostPort{host, port});
  all.insert(all.end(), more_hosts.begin(), more_hosts.end());
  return all;
}

ConnInfo ConnInfo::with_host(const HostPort& server) const {
  ConnInfo one = *this;
  one.host = server.host;
  one.port = server.port;
  one.more_hosts.clear();
  return one;
}

std::string ConnInfo::redacted() const {
  std::vector<HostPort> servers = hosts();
  bool any_socket = false;
  for (const auto& s : servers) any_socket = any_socket || s.is_unix_socket();
  std::string out = "postgres://" + percent_encode(user);
  if (password) out += ":***";
  out.push_back('@');
  // Network hosts go in the authority; a list with a socket directory goes in `host=`/`port=`.
  if (!any_socket) {
    for (std::size_t i = 0; i < servers.size(); ++i) {
      if (i) out.push_back(',');
      const HostPort& s = servers[i];
      if (s.host.find(':') != std::string::npos) out += "[" + s.host + "]";
      else out += percent_encode(s.host);
      out += ":" + std::to_string(s.port);
    }
  }
  out += "/" + percent_encode(dbname);
  std::vector<std::pair<std::string, std::string>> query;
  if (any_socket) {
    std::string hosts_text, ports_text;
    bool default_ports = true;
    for (std::size_t i = 0; i < servers.size(); ++i) {
      hosts_text += (i ? "," : "") + percent_encode(servers[i].host, true);
      ports_text += (i ? "," : "") + std::to_string(servers[i].port);
      default_ports = default_ports && servers[i].port == 5432;
    }
    query.emplace_back("host", hosts_text);
    if (!default_ports) query.emplace_back("port", ports_text);
  }
  if (sslmode != SslMode::Prefer) query.emplace_back("sslmode", std::string(ssl_mode_name(sslmode)));
  if (!sslrootcert.empty()) query.emplace_back("sslrootcert", percent_encode(sslrootcert, true));
  if (application_name != "fitz") query.emplace_back("application_name", percent_encode(application_name));
  if (connect_timeout) query.emplace_back("connect_timeout", std::to_string(connect_timeout->count()));
  if (!options.empty()) query.emplace_back("options", percent_encode(options));
  if (target_session_attrs != TargetSessionAttrs::Any)
    query.emplace_back("target_session_attrs", std::string(target_session_attrs_name(target_session_attrs)));
  for (std::size_t i = 0; i < query.size(); ++i)
    out += (i == 0 ? "?" : "&") + query[i].first + "=" + query[i].second;
  return out;
}

Result<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) return config_error("truncated percent escape in \"" + std::string(text) + "\"");
    int hi = hex_digit(text[i + 1]), lo = hex_digit(text[i + 2]);
    if (hi < 0 || lo < 0) return config_error("invalid percent escape in \"" + std::string(text) + "\"");
    char c = static_cast<char>(hi << 4 | lo);
    if (c == '\0') return config_error("percent escape %00 is not allowed");
    out.push_back(c);
    i += 2;
  }
  return out;
}

Result<ConnInfo> parse_conninfo(std::string_view text) {
  if (text.starts_with("postgres://") || text.starts_with("postgresql://")) return parse_conninfo_url(text);
  if (text.find("://") != std::string_view::npos)
    return config_error("unsupported URL scheme (expected postgres:// or postgresql://)");
  return parse_conninfo_keyvalue(text);
}

Result<ConnInfo> parse_conninfo_url(std::string_view url) {
  std::string_view rest;
  if (url.starts_with("postgresql://")) rest = url.substr(13);
  else if (url.starts_with("postgres://")) rest = url.substr(11);
  else return config_error("connection URL must start with postgres:// or postgresql://");
  if (rest.find('#') != std::string_view::npos) return config_error("connection URL must not have a fragment");

  Draft d;
  ConnInfo& info = d.info;
  std::size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view after = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);

  // userinfo@hosts; the last '@' separates them (an '@' in a password must be escaped anyway).
  std::size_t at = authority.rfind('@');
  std::string_view hostlist = authority;
  if (at != std::string_view::npos) {
    std::string_view userinfo = authority.substr(0, at);
    hostlist = authority.substr(at + 1);
    std::size_t colon = userinfo.find(':');
    auto user = percent_decode(userinfo.substr(0, colon));
    if (!user) return std::move(user).error();
    if (!user->empty()) info.user = std::move(*user);
    if (colon != std::string_view::npos) {
      auto password = percent_decode(userinfo.substr(colon + 1));
      if (!password) return std::move(password).error();
      info.password = std::move(*password);
    }
  }
  if (auto s = parse_url_hosts(d, hostlist); !s) return std::move(s).error();

  std::string_view path = after, query;
  std::size_t question = after.find('?');
  if (question != std::string_view::npos) {
    path = after.substr(0, question);
    query = after.substr(question + 1);
  }
  if (!path.empty()) {
    path.remove_prefix(1);  // the '/'
    auto db = percent_decode(path);
    if (!db) return std::move(db).error();
    if (!db->empty()) {
      info.dbname = std::move(*db);
      d.has_dbname = true;
    }
  }

  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos)
      return config_error("URL query parameter \"" + std::string(pair) + "\" has no value");
    auto key = percent_decode(pair.substr(0, eq));
    if (!key) return std::move(key).error();
    auto value = percent_decode(pair.substr(eq + 1));
    if (!value) return std::move(value).error();
    if (auto s = apply(d, *key, std::move(*value)); !s) return std::move(s).error();
  }
  return finish(std::move(d));
}

Result<ConnInfo> parse_conninfo_keyvalue(std::string_view text) {
  Draft d;
  std::size_t i = 0;
  auto skip_space = [&] { while (i < text.size() && is_ascii_space(text[i])) ++i; };
  for (;;) {
    skip_space();
    if (i >= text.size()) break;
    std::size_t key_start = i;
    while (i < text.size() && text[i] != '=' && !is_ascii_space(text[i])) ++i;
    std::string_view key = text.substr(key_start, i - key_start);
    skip_space();
    if (i >= text.size() || text[i] != '=')
      return config_error("missing \"=\" after \"" + std::string(key) + "\" in connection string");
    ++i;
    skip_space();
    std::string value;
    if (i < text.size() && text[i] == '\'') {
      ++i;
      for (;;) {
        if (i >= text.size()) return config_error("unterminated quoted value in connection string");
        char c = text[i++];
        if (c == '\'') break;
        if (c == '\\') {
          if (i >= text.size()) return config_error("unterminated quoted value in connection string");
          c = text[i++];
        }
        value.push_back(c);
      }
    } else {
      while (i < text.size() && !is_ascii_space(text[i])) {
        char c = text[i++];
        if (c == '\\' && i < text.size()) c = text[i++];
        value.push_back(c);
      }
    }
    if (key.empty()) return config_error("empty key in connection string");
    if (auto s = apply(d, key, std::move(value)); !s) return std::move(s).error();
  }
  return finish(std::move(d));
}

}  // namespace fitz::pg
