// The Beast/Asio half of the outbound HTTP client: connections (direct, through an HTTP proxy,
// or tunnelled with CONNECT), TLS with peer and host name verification, the keep-alive pool and
// the redirect loop, as one Asio coroutine per call bounded by one deadline.
#include "net/client.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/x509.h>

#include <chrono>
#include <optional>
#include <unordered_map>

#include "net/url.h"

#ifndef FITZ_NET_VERSION
#define FITZ_NET_VERSION "0"
#endif

namespace fitz::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

const char* user_agent() { return "fitz/" FITZ_NET_VERSION; }

namespace {

// A response larger than this is an error rather than a process that runs out of memory.
constexpr uint64_t kMaxBody = uint64_t(64) << 20;
// Idle connections kept per origin.
constexpr size_t kMaxIdlePerOrigin = 32;

struct Conn {
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;
  beast::tcp_stream& lowest() { return secure ? beast::get_lowest_layer(*secure) : *plain; }
};

enum class Fail : uint8_t { None, Invalid, Connect, Timeout, Request, Body, Other };

struct Exchange {
  Fail fail = Fail::None;
  std::string detail;
  int status = 0;
  std::string body;
  HeaderList headers;
  std::string content_type;
  std::string location;
};

bool is_ip_literal(const std::string& host) {
  error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

bool ascii_only(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80 || (c < 0x20 && c != '\t')) return false;
  return true;
}

void set_header(HeaderList& list, std::string name, std::string value) {
  for (auto it = list.begin(); it != list.end(); ++it)
    if (it->first == name) {
      list.erase(it);
      break;
    }
  list.emplace_back(std::move(name), std::move(value));
}

}  // namespace

struct Client::Impl : std::enable_shared_from_this<Client::Impl> {
  asio::io_context& ioc;
  ssl::context tls{ssl::context::tls_client};
  ProxyConfig proxies = ProxyConfig::from_env();
  std::unordered_map<std::string, std::vector<std::unique_ptr<Conn>>> idle;

  explicit Impl(asio::io_context& c) : ioc(c) {
    // The system store, or SSL_CERT_FILE / SSL_CERT_DIR when set (OpenSSL reads them here).
    error_code ec;
    tls.set_default_verify_paths(ec);
    tls.set_verify_mode(ssl::verify_peer);
  }

  std::unique_ptr<Conn> take_idle(const std::string& key) {
    auto it = idle.find(key);
    while (it != idle.end() && !it->second.empty()) {
      std::unique_ptr<Conn> c = std::move(it->second.back());
      it->second.pop_back();
      if (c->lowest().socket().is_open()) return c;
    }
    return nullptr;
  }

  void give_back(const std::string& key, std::unique_ptr<Conn> c) {
    auto& list = idle[key];
    if (list.size() < kMaxIdlePerOrigin) list.push_back(std::move(c));
  }

  asio::awaitable<std::unique_ptr<Conn>> connect(const Url& url, const std::optional<Url>& proxy,
                                                 Clock::time_point deadline, Exchange& ex) {
    const Url& hop = proxy ? *proxy : url;
    auto resolver = std::make_shared<tcp::resolver>(ioc);
    auto timer = std::make_shared<asio::steady_timer>(ioc, deadline);
    auto timed_out = std::make_shared<bool>(false);
    timer->async_wait([resolver, timed_out](const error_code& e) {
      if (!e) {
        *timed_out = true;
        resolver->cancel();
      }
    });
    error_code ec;
    auto results = co_await resolver->async_resolve(hop.host, std::to_string(hop.port),
                                                    asio::redirect_error(asio::use_awaitable, ec));
    timer->cancel();
    if (*timed_out) {
      ex.fail = Fail::Timeout;
      co_return nullptr;
    }
    if (ec) {
      ex.fail = Fail::Connect;
      ex.detail = "cannot resolve `" + hop.host + "`: " + ec.message();
      co_return nullptr;
    }
    auto conn = std::make_unique<Conn>();
    beast::tcp_stream stream(ioc);
    stream.expires_at(deadline);
    co_await stream.async_connect(results, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      ex.fail = ec == beast::error::timeout ? Fail::Timeout : Fail::Connect;
      ex.detail = ec.message();
      co_return nullptr;
    }
    stream.socket().set_option(tcp::no_delay(true), ec);
    if (proxy && url.tls()) {
      // A tunnel through the proxy; TLS then runs end to end with the origin.
      std::string target = (url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host) + ":" +
                           std::to_string(url.port);
      bhttp::request<bhttp::empty_body> req{bhttp::verb::connect, target, 11};
      req.set(bhttp::field::host, target);
      req.set(bhttp::field::user_agent, user_agent());
      if (std::string auth = proxy_authorization(*proxy); !auth.empty()) req.set(bhttp::field::proxy_authorization, auth);
      co_await bhttp::async_write(stream, req, asio::redirect_error(asio::use_awaitable, ec));
      bhttp::response_parser<bhttp::empty_body> parser;
      parser.skip(true);
      if (!ec) co_await bhttp::async_read_header(stream, conn->buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || parser.get().result_int() / 100 != 2) {
        ex.fail = ec == beast::error::timeout ? Fail::Timeout : Fail::Connect;
        ex.detail = ec ? "proxy tunnel: " + ec.message()
                       : "the proxy refused the tunnel with status " + std::to_string(parser.get().result_int());
        co_return nullptr;
      }
    }
    if (!url.tls()) {
      conn->plain.emplace(std::move(stream));
      co_return conn;
    }
    conn->secure.emplace(std::move(stream), tls);
    SSL* native = conn->secure->native_handle();
    if (!is_ip_literal(url.host)) SSL_set_tlsext_host_name(native, url.host.c_str());
    conn->secure->set_verify_callback(ssl::host_name_verification(url.host));
    conn->lowest().expires_at(deadline);
    co_await conn->secure->async_handshake(ssl::stream_base::client, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (ec == beast::error::timeout) {
        ex.fail = Fail::Timeout;
        co_return nullptr;
      }
      ex.fail = Fail::Connect;
      long verify = SSL_get_verify_result(native);
      std::string reason = verify != X509_V_OK ? X509_verify_cert_error_string(verify) : ec.message();
      ex.detail = "TLS handshake failed: " + reason;
      co_return nullptr;
    }
    co_return conn;
  }

  template <class Stream>
  asio::awaitable<void> roundtrip(Stream& s, Conn& conn, bhttp::request<bhttp::string_body>& req, bool head,
                                  Clock::time_point deadline, Exchange& ex, bool& reuse, bool& keep) {
    error_code ec;
    conn.lowest().expires_at(deadline);
    co_await bhttp::async_write(s, req, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      ex.fail = ec == beast::error::timeout ? Fail::Timeout : Fail::Request;
      ex.detail = ec.message();
      co_return;
    }
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(kMaxBody);
    parser.header_limit(64 * 1024);
    if (head) parser.skip(true);
    co_await bhttp::async_read_header(s, conn.buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      ex.fail = ec == beast::error::timeout ? Fail::Timeout : Fail::Request;
      ex.detail = ec == bhttp::error::end_of_stream ? "the server closed the connection without answering" : ec.message();
      reuse = true;  // a pooled connection the server had closed: worth one fresh attempt
      co_return;
    }
    if (!parser.is_done())
      co_await bhttp::async_read(s, conn.buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      ex.fail = ec == beast::error::timeout ? Fail::Timeout : Fail::Body;
      ex.detail = ec.message();
      co_return;
    }
    auto& res = parser.get();
    ex.status = res.result_int();
    for (const auto& f : res) {
      std::string name = lower_ascii(std::string_view(f.name_string().data(), f.name_string().size()));
      std::string_view v(f.value().data(), f.value().size());
      set_header(ex.headers, name, ascii_only(v) ? std::string(v) : "<binary>");
      if (name == "content-type") ex.content_type = std::string(v);
      if (name == "location") ex.location = std::string(v);
    }
    ex.body = std::move(res.body());
    keep = res.keep_alive() && !res.need_eof();
  }

  asio::awaitable<Exchange> exchange(const Url& url, const std::string& method, const HeaderList& headers,
                                     const std::string* body, Clock::time_point deadline) {
    std::optional<Url> proxy = proxy_for(proxies, url);
    std::string key = url.origin();
    if (proxy) key += " via " + proxy->origin();
    bool absolute_form = proxy && !url.tls();
    std::string proxy_auth = proxy ? proxy_authorization(*proxy) : std::string();
    for (int attempt = 0;; ++attempt) {
      Exchange ex;
      std::unique_ptr<Conn> conn = attempt == 0 ? take_idle(key) : nullptr;
      bool pooled = conn != nullptr;
      if (!conn) conn = co_await connect(url, proxy, deadline, ex);
      if (!conn) co_return ex;
      bhttp::request<bhttp::string_body> req;
      req.version(11);
      req.method_string(method);
      req.target(absolute_form ? url.origin() + url.target : url.target);
      req.set(bhttp::field::host, url.authority());
      bool has_agent = false;
      for (const auto& [name, value] : headers) {
        req.insert(name, value);
        if (lower_ascii(name) == "user-agent") has_agent = true;
      }
      if (!has_agent) req.set(bhttp::field::user_agent, user_agent());
      // Through a proxy in absolute form the proxy reads the request itself (a tunnel's CONNECT
      // carried the credentials instead, so the origin never sees them).
      if (absolute_form && !proxy_auth.empty()) req.set(bhttp::field::proxy_authorization, proxy_auth);
      if (body) {
        req.body() = *body;
        req.prepare_payload();
      } else if (method == "POST" || method == "PUT" || method == "PATCH") {
        req.content_length(0);
      }
      bool reuse = false, keep = false;
      if (conn->secure)
        co_await roundtrip(*conn->secure, *conn, req, method == "HEAD", deadline, ex, reuse, keep);
      else
        co_await roundtrip(*conn->plain, *conn, req, method == "HEAD", deadline, ex, reuse, keep);
      if (ex.fail == Fail::Request && reuse && pooled && Clock::now() < deadline) continue;
      if (ex.fail == Fail::None && keep) give_back(key, std::move(conn));
      co_return ex;
    }
  }

  asio::awaitable<ClientOutcome> run(ClientRequest request) {
    auto start = Clock::now();
    auto deadline = start + std::chrono::milliseconds(request.timeout_ms);
    std::string shown = request.url;
    auto failure = [&](Fail kind, const std::string& detail) {
      ClientOutcome o;
      switch (kind) {
        case Fail::Invalid: o.error = "http: invalid request to `" + shown + "`: " + detail; break;
        case Fail::Connect: o.error = "http: could not connect to `" + shown + "`: " + detail; break;
        case Fail::Timeout:
          o.error = "http: timeout calling `" + shown + "`: no complete answer within " +
                    std::to_string(request.timeout_ms) + " ms";
          break;
        case Fail::Request: o.error = "http: request failed to `" + shown + "`: " + detail; break;
        case Fail::Body: o.error = "http: reading response body: " + detail; break;
        default: o.error = "http: error calling `" + shown + "`: " + detail; break;
      }
      return o;
    };
    UrlResult parsed = parse_url(request.url);
    if (!parsed.url) co_return failure(Fail::Invalid, parsed.error);
    Url url = std::move(*parsed.url);
    std::string method = request.method;
    HeaderList headers = request.headers;
    bool has_body = request.has_body;
    for (int hop = 0;; ++hop) {
      Exchange ex = co_await exchange(url, method, headers, has_body ? &request.body : nullptr, deadline);
      if (ex.fail != Fail::None) co_return failure(ex.fail, ex.detail);
      if (request.follow_redirects && is_redirect(ex.status) && !ex.location.empty()) {
        if (hop == kMaxRedirects) co_return failure(Fail::Other, "too many redirects (more than 10)");
        UrlResult next = resolve_location(url, ex.location);
        if (!next.url) co_return failure(Fail::Other, "invalid redirect to `" + ex.location + "`: " + next.error);
        RedirectStep step = redirect_step(ex.status, method);
        bool same = keeps_credentials(url, *next.url);
        HeaderList kept;
        for (auto& h : headers) {
          std::string n = lower_ascii(h.first);
          if (!same && is_credential_header(n)) continue;
          if (!step.keep_body && (n == "content-type" || n == "content-length")) continue;
          kept.push_back(std::move(h));
        }
        headers = std::move(kept);
        if (!step.keep_body) has_body = false;
        method = step.method;
        url = std::move(*next.url);
        shown = url.origin() + url.target;
        continue;
      }
      ClientOutcome o;
      o.ok = true;
      o.response.status = ex.status;
      o.response.body = std::move(ex.body);
      o.response.headers = std::move(ex.headers);
      o.response.content_type = std::move(ex.content_type);
      o.response.duration_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      co_return o;
    }
  }
};

Client::Client(asio::io_context& ioc) : impl_(std::make_shared<Impl>(ioc)) {}
Client::~Client() = default;

void Client::perform(ClientRequest request, std::function<void(ClientOutcome)> done) {
  auto self = impl_;
  asio::co_spawn(impl_->ioc, self->run(std::move(request)),
                 [self, done = std::move(done)](std::exception_ptr e, ClientOutcome o) {
                   if (e) {
                     o = ClientOutcome{};
                     try {
                       std::rethrow_exception(e);
                     } catch (const std::exception& x) {
                       o.error = std::string("http: error calling: ") + x.what();
                     } catch (...) {
                       o.error = "http: error calling: unknown failure";
                     }
                   }
                   done(std::move(o));
                 });
}

void Client::close_idle() { impl_->idle.clear(); }

namespace {

class ClientService final : public asio::execution_context::service {
 public:
  using key_type = ClientService;
  static asio::execution_context::id id;
  explicit ClientService(asio::execution_context& ctx)
      : service(ctx), client(static_cast<asio::io_context&>(ctx)) {}
  void shutdown() override { client.close_idle(); }
  Client client;
};

asio::execution_context::id ClientService::id;

}  // namespace

Client& client_for(asio::io_context& ioc) { return asio::use_service<ClientService>(ioc).client; }

size_t Client::idle_connections() const {
  size_t n = 0;
  for (const auto& [k, v] : impl_->idle) n += v.size();
  return n;
}

std::string body_text(const std::string& raw, const std::string& content_type) {
  std::string ct = lower_ascii(content_type);
  if (ct.find("charset=iso-8859-1") != std::string::npos || ct.find("charset=latin1") != std::string::npos) {
    std::string out;
    for (unsigned char c : raw) {
      if (c < 0x80) {
        out.push_back(char(c));
      } else {
        out.push_back(char(0xC0 | (c >> 6)));
        out.push_back(char(0x80 | (c & 0x3F)));
      }
    }
    return out;
  }
  std::string out;
  out.reserve(raw.size());
  const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
  size_t n = raw.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
    if (ok && len == 2) ok = c >= 0xC2;
    if (ok && len == 3) {
      uint32_t cp = (uint32_t(c & 0x0F) << 12) | (uint32_t(p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F);
      ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
    }
    if (ok && len == 4) {
      uint32_t cp = (uint32_t(c & 0x07) << 18) | (uint32_t(p[i + 1] & 0x3F) << 12) | (uint32_t(p[i + 2] & 0x3F) << 6) |
                    (p[i + 3] & 0x3F);
      ok = cp >= 0x10000 && cp <= 0x10FFFF;
    }
    if (ok) {
      out.append(raw, i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

}  // namespace fitz::net
