// What the outbound HTTP client knows about a URL, proxy settings and redirects: pure functions
// with no I/O (parsing, NO_PROXY matching, the redirect policy), tested on their own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fitz::net {

struct Url {
  std::string scheme;  // "http" or "https", lower-case
  std::string host;    // lower-case; an IPv6 literal without its brackets
  uint16_t port = 0;   // explicit or the scheme's default
  std::string target;  // path and query, at least "/"
  std::string userinfo;  // "user:pass" when the URL carries credentials

  bool tls() const { return scheme == "https"; }
  bool default_port() const { return port == (tls() ? 443 : 80); }
  // "host" or "host:port" as the Host header and CONNECT want it.
  std::string authority() const;
  // The pool key: connections are reused only for the same scheme, host and port.
  std::string origin() const;
};

// Parses an absolute http(s) URL. The error is a short reason ("unsupported scheme `ftp`").
struct UrlResult {
  std::optional<Url> url;
  std::string error;
};
UrlResult parse_url(std::string_view text);

// Resolves a Location header against the URL it came from (absolute, scheme-relative,
// absolute-path or relative-path references).
UrlResult resolve_location(const Url& base, std::string_view location);

// ---- proxies ------------------------------------------------------------------------------

// The proxy environment, read once per client (HTTP_PROXY/http_proxy, HTTPS_PROXY/https_proxy,
// NO_PROXY/no_proxy; the lower-case spelling wins like curl's).
struct ProxyConfig {
  std::string http_proxy;
  std::string https_proxy;
  std::string no_proxy;
  static ProxyConfig from_env();
};

// The proxy URL to use for `url`, or nothing for a direct connection. NO_PROXY holds
// comma-separated host names (a leading dot or none matches subdomains too), `*` for all,
// and optional `:port` suffixes.
std::optional<Url> proxy_for(const ProxyConfig& config, const Url& url);

// The Proxy-Authorization value for a proxy URL with credentials (`http://user:p%40ss@proxy:3128`):
// "Basic " and the base64 of the percent-decoded `user:pass`; empty without credentials.
std::string proxy_authorization(const Url& proxy);

// ---- redirects ----------------------------------------------------------------------------

inline constexpr int kMaxRedirects = 10;

bool is_redirect(int status);  // 301, 302, 303, 307, 308

// How the next request differs after a redirect answer with `status`: 301/302/303 turn into a
// GET without a body (HEAD stays HEAD); 307/308 keep the method and the body.
struct RedirectStep {
  std::string method;
  bool keep_body = false;
};
RedirectStep redirect_step(int status, std::string_view method);

// Whether Authorization and Cookie may follow a hop from `from` to `to`: only on the same host
// (and scheme and port).
bool keeps_credentials(const Url& from, const Url& to);

// Header names the client drops on a cross-host hop (lower-case).
bool is_credential_header(std::string_view lower_name);

std::string lower_ascii(std::string_view s);

}  // namespace fitz::net
