// URL parsing, proxy selection and the redirect policy of the outbound HTTP client (no I/O).
#include "net/url.h"

#include "net/smtp_message.h"

#include <cstdlib>

namespace fitz::net {

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::string Url::authority() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return default_port() ? h : h + ":" + std::to_string(port);
}

std::string Url::origin() const { return scheme + "://" + authority(); }

namespace {

bool valid_host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '%';
}

UrlResult fail(std::string why) { return UrlResult{std::nullopt, std::move(why)}; }

}  // namespace

UrlResult parse_url(std::string_view text) {
  size_t colon = text.find("://");
  if (colon == std::string_view::npos) return fail("not an absolute URL (expected http:// or https://)");
  Url u;
  u.scheme = lower_ascii(text.substr(0, colon));
  if (u.scheme != "http" && u.scheme != "https") return fail("unsupported scheme `" + u.scheme + "`");
  std::string_view rest = text.substr(colon + 3);
  for (char c : rest)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return fail("the URL contains a space or a control character");
  size_t end = rest.find_first_of("/?#");
  std::string_view auth = rest.substr(0, end);
  std::string_view tail = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  if (size_t at = auth.rfind('@'); at != std::string_view::npos) {
    u.userinfo = std::string(auth.substr(0, at));
    auth = auth.substr(at + 1);
  }
  std::string_view host = auth, port;
  if (!auth.empty() && auth[0] == '[') {
    size_t close = auth.find(']');
    if (close == std::string_view::npos) return fail("unterminated IPv6 address");
    host = auth.substr(1, close - 1);
    std::string_view after = auth.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return fail("unexpected text after the IPv6 address");
      port = after.substr(1);
    }
  } else if (size_t c = auth.rfind(':'); c != std::string_view::npos) {
    host = auth.substr(0, c);
    port = auth.substr(c + 1);
  }
  if (host.empty()) return fail("the URL has no host");
  if (auth[0] != '[')
    for (char c : host)
      if (!valid_host_char(c)) return fail("invalid character in the host");
  u.host = lower_ascii(host);
  if (port.empty()) {
    u.port = u.tls() ? 443 : 80;
  } else {
    if (port.size() > 5) return fail("invalid port `" + std::string(port) + "`");
    unsigned v = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return fail("invalid port `" + std::string(port) + "`");
      v = v * 10 + unsigned(c - '0');
    }
    if (v == 0 || v > 65535) return fail("invalid port `" + std::string(port) + "`");
    u.port = uint16_t(v);
  }
  if (size_t hash = tail.find('#'); hash != std::string_view::npos) tail = tail.substr(0, hash);
  u.target = tail.empty() || tail[0] != '/' ? "/" + std::string(tail) : std::string(tail);
  return UrlResult{std::move(u), {}};
}

UrlResult resolve_location(const Url& base, std::string_view loc) {
  if (loc.find("://") != std::string_view::npos) {
    size_t colon = loc.find("://"), slash = loc.find('/');
    if (slash == std::string_view::npos || colon < slash) return parse_url(loc);
  }
  if (loc.substr(0, 2) == "//") return parse_url(base.scheme + ":" + std::string(loc));
  Url u = base;
  u.userinfo.clear();
  if (size_t hash = loc.find('#'); hash != std::string_view::npos) loc = loc.substr(0, hash);
  if (loc.empty()) return UrlResult{std::move(u), {}};
  if (loc[0] == '/') {
    u.target = std::string(loc);
  } else if (loc[0] == '?') {
    u.target = base.target.substr(0, base.target.find('?')) + std::string(loc);
  } else {
    std::string path = base.target.substr(0, base.target.find('?'));
    u.target = path.substr(0, path.rfind('/') + 1) + std::string(loc);
  }
  for (char c : u.target)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return fail("the redirect target contains a space or a control character");
  return UrlResult{std::move(u), {}};
}

// ---- proxies ------------------------------------------------------------------------------

ProxyConfig ProxyConfig::from_env() {
  auto get = [](const char* lower, const char* upper) {
    const char* v = std::getenv(lower);
    if (!v || !*v) v = std::getenv(upper);
    return std::string(v ? v : "");
  };
  return ProxyConfig{get("http_proxy", "HTTP_PROXY"), get("https_proxy", "HTTPS_PROXY"), get("no_proxy", "NO_PROXY")};
}

namespace {

bool no_proxy_matches(std::string_view list, const Url& url) {
  size_t i = 0;
  while (i <= list.size()) {
    size_t comma = list.find(',', i);
    std::string_view item = list.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i);
    i = comma == std::string_view::npos ? list.size() + 1 : comma + 1;
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.empty()) continue;
    if (item == "*") return true;
    std::string entry = lower_ascii(item);
    if (size_t c = entry.rfind(':'); c != std::string::npos && entry.find(':') == c && entry[0] != '[') {
      if (std::to_string(url.port) != entry.substr(c + 1)) continue;
      entry.resize(c);
    }
    if (!entry.empty() && entry[0] == '.') entry.erase(0, 1);
    if (url.host == entry) return true;
    if (url.host.size() > entry.size() && url.host.ends_with(entry) && url.host[url.host.size() - entry.size() - 1] == '.')
      return true;
  }
  return false;
}

}  // namespace

std::optional<Url> proxy_for(const ProxyConfig& config, const Url& url) {
  const std::string& p = url.tls() ? config.https_proxy : config.http_proxy;
  if (p.empty() || no_proxy_matches(config.no_proxy, url)) return std::nullopt;
  // "host:port" without a scheme means an http:// proxy, as curl reads it.
  UrlResult r = parse_url(p.find("://") == std::string::npos ? "http://" + p : p);
  if (!r.url) return std::nullopt;
  return r.url;
}

std::string proxy_authorization(const Url& proxy) {
  if (proxy.userinfo.empty()) return "";
  std::string decoded;
  const std::string& u = proxy.userinfo;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i] == '%' && i + 2 < u.size() && hex(u[i + 1]) >= 0 && hex(u[i + 2]) >= 0) {
      decoded += static_cast<char>(hex(u[i + 1]) * 16 + hex(u[i + 2]));
      i += 2;
    } else {
      decoded += u[i];
    }
  }
  return "Basic " + base64(decoded);
}

// ---- redirects ----------------------------------------------------------------------------

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

RedirectStep redirect_step(int status, std::string_view method) {
  if (status == 307 || status == 308) return RedirectStep{std::string(method), true};
  return RedirectStep{method == "HEAD" ? "HEAD" : "GET", false};
}

bool keeps_credentials(const Url& from, const Url& to) {
  return from.host == to.host && from.port == to.port && from.scheme == to.scheme;
}

bool is_credential_header(std::string_view lower_name) {
  return lower_name == "authorization" || lower_name == "cookie" || lower_name == "proxy-authorization";
}

}  // namespace fitz::net
