// The only Beast/Asio translation unit. Layout after Beast's chat-multi example: a listener
// (one acceptor handing sockets round-robin to the workers), an http_session per connection
// (read → dispatch → one write in flight → read; pipelined requests wait in the read buffer),
// and shared state (the app, connection count, draining flag). One io_context per worker
// thread; each worker installs an Asio-driven fitz::Scheduler so `sleep` and awaits inside
// handlers run on the server's loop. Deadlines are checked by a per-worker sweep timer rather
// than one timer per operation.
#include <sys/socket.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "http/internal.h"
#include "http/buf_body.h"
#include "http/socket_activation.h"

namespace fitz::http {
namespace detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {

// During shutdown, how long a just-accepted connection may take to send its first request.
constexpr int64_t kFirstRequestGraceMs = 1000;
// How long a connection that ends after its response still reads and drops what its client
// sends (Session::linger).
constexpr int64_t kLingerMs = 2000;

// ---- The scheduler that runs fitz tasks on a worker's io_context ------------------------------

class AsioScheduler final : public Scheduler {
 public:
  explicit AsioScheduler(asio::io_context& ioc) : ioc_(ioc) {}
  void post(std::coroutine_handle<> h) override {
    asio::post(ioc_, [h] { h.resume(); });
  }
  void post_after(int64_t ms, std::coroutine_handle<> h) override {
    if (ms <= 0) return post(h);
    auto t = std::make_shared<asio::steady_timer>(ioc_, std::chrono::milliseconds(ms));
    t->async_wait([t, h](const boost::system::error_code&) { h.resume(); });
  }
  bool run_one() override { return ioc_.run_one() > 0; }
  void* io_context() override { return &ioc_; }

 private:
  asio::io_context& ioc_;
};

// ---- Response head helpers -------------------------------------------------------------------

const char* reason(int s) {
  switch (s) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return s < 200 ? "Informational" : s < 300 ? "OK" : s < 400 ? "Redirect" : s < 500 ? "Client Error" : "Server Error";
  }
}

// "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n", recomputed once per second per thread.
const std::string& date_line() {
  thread_local std::string line;
  thread_local time_t sec = -1;
  time_t now = time(nullptr);
  if (now != sec) {
    sec = now;
    tm t;
    gmtime_r(&now, &t);
    char b[64];
    size_t n = strftime(b, sizeof b, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &t);
    line.assign(b, n);
  }
  return line;
}

bool header_safe(const Str& s) {
  for (char c : s)
    if (c == '\r' || c == '\n' || c == '\0') return false;
  return true;
}

bool to_method(bhttp::verb v, Method* m) {
  switch (v) {
    case bhttp::verb::get: *m = Method::Get; return true;
    case bhttp::verb::head: *m = Method::Head; return true;
    case bhttp::verb::post: *m = Method::Post; return true;
    case bhttp::verb::put: *m = Method::Put; return true;
    case bhttp::verb::patch: *m = Method::Patch; return true;
    case bhttp::verb::delete_: *m = Method::Delete; return true;
    case bhttp::verb::options: *m = Method::Options; return true;
    default: return false;
  }
}

class Session;
struct Server;

// One event loop and its connections.
struct Worker {
  Session* head = nullptr;  // intrusive list of live sessions (this thread only)
  asio::io_context ioc{1};
  AsioScheduler sched{ioc};
  asio::steady_timer sweep{ioc};
  std::thread thread;
};

struct Server {
  // Destroyed last to first: the I/O objects of worker 0, then the workers (whose loops free
  // the remaining sessions, which still update `connections`).
  AppState& app;
  std::atomic<int64_t> connections{0};
  std::atomic<bool> stopping{false};  // no new connections; sessions close when idle
  std::atomic<bool> shutdown_started{false};
  size_t next_worker = 0;
  int port = 0;
  int64_t shutdown_deadline_ns = 0;
  std::vector<std::unique_ptr<Worker>> workers;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::signal_set> signals;
  std::optional<asio::steady_timer> accept_retry, drain_timer;

  explicit Server(AppState& a) : app(a) {}
  void accept();
  void begin_shutdown(bool immediate);
  void stop_accepting();
  void watch_drain();
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Server& srv, Worker& w, tcp::socket sock) : srv_(srv), w_(w), sock_(std::move(sock)),
        buf_(size_t(srv.app.cfg.max_header_bytes + srv.app.body_limit_max + 8192)) {
    // `connections` was incremented when the socket was accepted.
    next_ = w_.head;
    if (next_) next_->prev_ = this;
    w_.head = this;
  }
  ~Session() {
    if (prev_)
      prev_->next_ = next_;
    else if (w_.head == this)
      w_.head = next_;
    if (next_) next_->prev_ = prev_;
    srv_.connections.fetch_sub(1, std::memory_order_relaxed);
  }

  void start() {
    reset_parser();
    do_read();
  }

  // Sweep: enforce deadlines; during shutdown close idle connections.
  void check(int64_t now, bool stopping) {
    if (closed_) return;
    if (stopping && reading_ && !in_request_ && buf_.size() == 0) {
      if (answered_) return close();
      // A connection that has not sent its first request yet was accepted a moment ago: its
      // client is about to send it (closing now is the "connection closed without response"
      // a process swap must not cause). It gets a short grace instead of the idle timeout.
      int64_t grace = now + kFirstRequestGraceMs * 1000000;
      if (!deadline_ns_ || deadline_ns_ > grace) deadline_ns_ = grace;
    }
    if (deadline_ns_ && now > deadline_ns_) close();
  }
  Session* next() const { return next_; }

 private:
  void reset_parser() {
    parser_.emplace();
    parser_->header_limit(uint32_t(srv_.app.cfg.max_header_bytes));
    // With routes that have limits of their own, the header is parsed alone first: the route it
    // names chooses the body limit (choose_body_limit). Until then the largest limit applies.
    limit_chosen_ = !srv_.app.route_body_limits;
    parser_->body_limit(uint64_t(srv_.app.body_limit_max));
    parser_->eager(limit_chosen_);
    in_request_ = false;
    sent_continue_ = false;
  }

  void do_read() {
    const ServerConfig& cfg = srv_.app.cfg;
    while (buf_.size() > 0) {
      beast::error_code ec;
      size_t n = parser_->put(buf_.data(), ec);
      buf_.consume(n);
      if (ec == bhttp::error::need_more) break;
      if (ec) return on_parse_error(ec);
      if (!limit_chosen_ && parser_->is_header_done() && !choose_body_limit())
        return on_parse_error(bhttp::error::body_limit);
      if (parser_->is_done()) return on_request();
      if (n == 0) break;
    }
    if (parser_->is_header_done() && !sent_continue_ && wants_continue()) {
      sent_continue_ = true;
      static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
      deadline_ns_ = now_ns() + cfg.request_timeout_ms * 1000000;
      asio::async_write(sock_, asio::buffer(kContinue, sizeof kContinue - 1),
                        [self = shared_from_this()](beast::error_code ec, size_t) {
                          if (ec) return self->close();
                          self->do_read();
                        });
      return;
    }
    if (buf_.size() >= buf_.max_size()) return on_parse_error(bhttp::error::header_limit);
    if (closed_) return;
    int64_t now = now_ns();
    if (!in_request_ && buf_.size() == 0) {
      deadline_ns_ = now + cfg.idle_timeout_ms * 1000000;
      if (srv_.stopping.load(std::memory_order_relaxed)) {
        if (answered_) return close();
        deadline_ns_ = std::min(deadline_ns_, now + kFirstRequestGraceMs * 1000000);
      }
    } else if (!in_request_) {
      in_request_ = true;
      deadline_ns_ = now + cfg.request_timeout_ms * 1000000;
    }
    size_t room = buf_.max_size() - buf_.size();
    size_t want = std::min<size_t>(room, std::max<size_t>(4096, buf_.capacity() - buf_.size()));
    reading_ = true;
    sock_.async_read_some(buf_.prepare(want), [self = shared_from_this()](beast::error_code ec, size_t n) {
      self->on_read(ec, n);
    });
  }

  // The limit of the route the header names; false when its declared length is already over.
  bool choose_body_limit() {
    limit_chosen_ = true;
    parser_->eager(true);
    auto& msg = parser_->get();
    Method m = Method::Get;
    if (!to_method(msg.method(), &m)) return true;  // answered 501 once complete
    int64_t limit = body_limit_for(srv_.app, m, std::string_view(msg.target().data(), msg.target().size()));
    if (auto len = parser_->content_length(); len && *len > uint64_t(limit)) return false;
    parser_->body_limit(uint64_t(limit));
    return true;
  }

  bool wants_continue() {
    auto& msg = parser_->get();
    auto it = msg.find(bhttp::field::expect);
    return it != msg.end() && beast::iequals(it->value(), "100-continue");
  }

  void on_read(beast::error_code ec, size_t n) {
    reading_ = false;
    if (ec) return close();
    buf_.commit(n);
    if (!in_request_) {
      in_request_ = true;
      deadline_ns_ = now_ns() + srv_.app.cfg.request_timeout_ms * 1000000;
    }
    do_read();
  }

  void on_parse_error(beast::error_code ec) {
    keep_alive_ = false;
    int status = 400;
    const char* msg = "bad request";
    if (ec == bhttp::error::body_limit) {
      status = 413;
      msg = "request body too large";
    } else if (ec == bhttp::error::header_limit) {
      status = 431;
      msg = "request header fields too large";
    }
    req_ = Request();
    req_.method = Method::Get;
    // A body or header limit is hit after the request line was read: log what it asked for.
    req_.line_parsed = false;
    if (parser_ && !parser_->get().target().empty()) {
      auto& m = parser_->get();
      req_.target = Text(m.target().data(), m.target().size());
      req_.line_parsed = to_method(m.method(), &req_.method);
      if (!split_target(req_)) req_.raw_path = req_.target;
    }
    begin_request(srv_.app, req_);
    send(Response::error(status, Text(msg, std::strlen(msg))));
  }

  void on_request() {
    deadline_ns_ = 0;  // handlers may take their time; writes get a fresh deadline
    auto& msg = parser_->get();
    keep_alive_ = msg.keep_alive();
    Request& r = req_;
    r.target = Text(msg.target().data(), msg.target().size());
    r.raw_path = r.raw_query = Text();
    r.route = "";
    r.route_id = -1;
    r.line_parsed = true;
    r.user = nullptr;
    r.request_id = Text();
    r.headers.clear();
    for (const auto& f : msg) {
      auto name = f.name_string();
      auto value = f.value();
      r.headers.push_back(Header{Text(name.data(), name.size()), Text(value.data(), value.size())});
    }
    r.body = Text(msg.body().data(), msg.body().size());
    r.body_store = &msg.body();
    bool known = to_method(msg.method(), &r.method);
    if (!split_target(r)) {
      keep_alive_ = false;
      begin_request(srv_.app, r);
      return send(Response::error(400, Text("bad request target")));
    }
    begin_request(srv_.app, r);
    if (!known) {
      r.method = Method::Get;
      return send(Response::json(501, Str::lit("{\"error\":\"method not implemented\"}")));
    }
    if (msg.method() == bhttp::verb::head) head_ = true;
    Outcome o = dispatch(srv_.app, r);
    if (o.ready) return send(std::move(o.response));
    busy_ = true;
    deliver(shared_from_this(), std::move(o.task));
  }

  static Task<Null> deliver(std::shared_ptr<Session> self, Task<Response> t) {
    Response r;
    try {
      r = co_await t;
    } catch (const Panic& p) {
      r = panic_response(p);
    }
    self->busy_ = false;
    self->send(std::move(r));
    co_return null;
  }

  void send(Response&& resp) {
    if (closed_) return;
    resp_ = std::move(resp);
    finish(srv_.app, req_, resp_, false);
    if (resp_.status == 101 && srv_.app.upgrade_fn) return hand_off();
    bool keep = keep_alive_ && !srv_.stopping.load(std::memory_order_relaxed);
    keep_alive_ = keep;
    int status = resp_.status;
    if (status < 100 || status > 999) status = 500;
    bool no_body = status == 204 || status == 304 || status < 200;
    head_buf_.clear();
    char line[64];
    int n = snprintf(line, sizeof line, "HTTP/1.1 %d %s\r\n", status, reason(status));
    head_buf_.append(line, size_t(n));
    head_buf_ += date_line();
    if (!resp_.content_type.empty() && !no_body && header_safe(resp_.content_type)) {
      head_buf_ += "Content-Type: ";
      head_buf_.append(resp_.content_type.data(), resp_.content_type.size());
      head_buf_ += "\r\n";
    }
    if (!no_body) {
      n = snprintf(line, sizeof line, "Content-Length: %zu\r\n", resp_.body.size());
      head_buf_.append(line, size_t(n));
    }
    for (const auto& h : resp_.headers) {
      if (h.first.empty() || !header_safe(h.first) || !header_safe(h.second)) continue;
      head_buf_.append(h.first.data(), h.first.size());
      head_buf_ += ": ";
      head_buf_.append(h.second.data(), h.second.size());
      head_buf_ += "\r\n";
    }
    if (!req_.request_id.empty()) {
      head_buf_ += "X-Request-Id: ";
      head_buf_.append(req_.request_id.data, req_.request_id.size);
      head_buf_ += "\r\n";
    }
    if (!keep) head_buf_ += "Connection: close\r\n";
    head_buf_ += "\r\n";
    std::array<asio::const_buffer, 2> bufs{asio::buffer(head_buf_),
                                           asio::buffer(resp_.body.data(), (no_body || head_) ? 0 : resp_.body.size())};
    deadline_ns_ = now_ns() + srv_.app.cfg.request_timeout_ms * 1000000;
    asio::async_write(sock_, bufs, [self = shared_from_this()](beast::error_code ec, size_t) { self->on_write(ec); });
  }

  // A route accepted a protocol upgrade: the socket and the request now belong to the
  // upgrade handler; this session ends without writing anything.
  void hand_off() {
    closed_ = true;
    deadline_ns_ = 0;
    auto msg = parser_->release();
    bhttp::request_header<>& head = msg;
    srv_.app.upgrade_fn(srv_.app.upgrade_ctx, &sock_, &head, resp_);
  }

  void on_write(beast::error_code ec) {
    deadline_ns_ = 0;
    if (ec) return close();
    if (!keep_alive_) {
      beast::error_code ignored;
      sock_.shutdown(tcp::socket::shutdown_send, ignored);
      return linger();
    }
    answered_ = true;
    resp_ = Response();
    head_ = false;
    reset_parser();
    if (buf_.size() == 0 && buf_.capacity() > 64 * 1024) buf_.shrink_to_fit();
    do_read();
  }

  // The response is out and the connection ends, but the client may still be sending a request
  // that was refused (a 413 while its body uploads, a 400 mid-request). Closing with unread
  // data makes the kernel answer with a reset, which breaks the client's upload before it has
  // read the response. So what arrives is read and dropped until the client closes, for at
  // most kLingerMs (the sweep's deadline), as servers' "lingering close" does.
  void linger() {
    deadline_ns_ = now_ns() + kLingerMs * 1000000;
    buf_.consume(buf_.size());
    drain();
  }
  void drain() {
    // Into the read buffer's spare room, never committed: the bytes are only dropped.
    size_t room = std::min<size_t>(64 * 1024, buf_.max_size());  // prepare() throws past max_size()
    sock_.async_read_some(buf_.prepare(room), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec || self->closed_) return self->close();
      self->drain();
    });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    deadline_ns_ = 0;
    beast::error_code ignored;
    sock_.close(ignored);
  }

  Server& srv_;
  Worker& w_;
  tcp::socket sock_;
  beast::flat_buffer buf_;
  std::optional<bhttp::request_parser<detail::BufBody>> parser_;
  Request req_;
  Response resp_;
  std::string head_buf_;
  int64_t deadline_ns_ = 0;
  bool in_request_ = false, reading_ = false, busy_ = false, closed_ = false;
  bool keep_alive_ = true, head_ = false, sent_continue_ = false, limit_chosen_ = true;
  bool answered_ = false;  // a response was written: idle now means between requests
  Session* prev_ = nullptr;
  Session* next_ = nullptr;
};

void arm_sweep(Server& srv, Worker& w) {
  w.sweep.expires_after(std::chrono::milliseconds(200));
  w.sweep.async_wait([&srv, &w](beast::error_code ec) {
    if (ec) return;
    flush_log();
    int64_t now = now_ns();
    bool stopping = srv.stopping.load(std::memory_order_relaxed);
    for (Session* s = w.head; s;) {
      Session* next = s->next();
      s->check(now, stopping);
      s = next;
    }
    arm_sweep(srv, w);
  });
}

void Server::accept() {
  if (!acceptor || !acceptor->is_open()) return;
  Worker& w = *workers[next_worker];
  next_worker = (next_worker + 1) % workers.size();
  acceptor->async_accept(w.ioc, [this, &w](beast::error_code ec, tcp::socket sock) {
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
      // Out of descriptors or a transient error: back off briefly instead of spinning.
      accept_retry->expires_after(std::chrono::milliseconds(50));
      accept_retry->async_wait([this](beast::error_code e) {
        if (!e) accept();
      });
      return;
    }
    // A connection accepted as shutdown begins is served: its client is already waiting for an
    // answer, and a supervisor swapping processes on one socket counts on it.
    if (connections.load(std::memory_order_relaxed) >= app.cfg.max_connections) {
      beast::error_code ignored;
      sock.close(ignored);
    } else {
      connections.fetch_add(1, std::memory_order_relaxed);
      asio::post(w.ioc, [this, &w, s = std::move(sock)]() mutable {
        beast::error_code ignored;
        s.set_option(tcp::no_delay(true), ignored);
        std::make_shared<Session>(*this, w, std::move(s))->start();
      });
    }
    accept();
  });
}

void Server::stop_accepting() {
  if (acceptor && acceptor->is_open()) {
    beast::error_code ignored;
    acceptor->close(ignored);
  }
}

// Waits for the connections to finish, then stops every loop (at the latest at the deadline).
void Server::watch_drain() {
  if (connections.load() == 0 || now_ns() >= shutdown_deadline_ns) {
    for (auto& w : workers) w->ioc.stop();
    return;
  }
  drain_timer->expires_after(std::chrono::milliseconds(20));
  drain_timer->async_wait([this](beast::error_code ec) {
    if (!ec) watch_drain();
  });
}

void Server::begin_shutdown(bool immediate) {
  if (shutdown_started.exchange(true)) {
    if (immediate) {
      for (auto& w : workers) w->ioc.stop();
    }
    return;
  }
  app.draining.store(true);
  int64_t delay = immediate ? 0 : app.cfg.drain_delay_ms;
  drain_timer->expires_after(std::chrono::milliseconds(delay));
  drain_timer->async_wait([this](beast::error_code ec) {
    if (ec) return;
    stopping.store(true);
    stop_accepting();
    if (signals) {
      beast::error_code ignored;
      signals->cancel(ignored);
    }
    shutdown_deadline_ns = now_ns() + app.cfg.shutdown_timeout_secs * 1000000000;
    // Idle keep-alive connections close now; busy ones after their response.
    for (auto& wp : workers) {
      Worker* w = wp.get();
      asio::post(w->ioc, [w] {
        int64_t now = now_ns();
        for (Session* s = w->head; s;) {
          Session* next = s->next();
          s->check(now, true);
          s = next;
        }
      });
    }
    watch_drain();
  });
}

void listen_for_signals(Server& srv) {
  srv.signals->async_wait([&srv](beast::error_code ec, int) {
    if (ec) return;
    bool again = srv.shutdown_started.load();
    srv.begin_shutdown(again);  // a second signal stops at once
    if (!again) listen_for_signals(srv);
  });
}

}  // namespace

}  // namespace detail

// ---- App: start / run / shutdown ---------------------------------------------------------------

namespace asio = boost::asio;

namespace {
detail::Server* server_of(detail::AppState* s) { return static_cast<detail::Server*>(s->server); }
}  // namespace

bool App::start(Str* error) {
  using namespace detail;
  if (state_->server) {
    if (error) *error = Str::lit("server already started");
    return false;
  }
  if (!finalize(*state_)) {
    if (error) *error = Str(state_->finalize_error.data(), state_->finalize_error.size());
    return false;
  }
  ServerConfig& cfg = state_->cfg;
  int64_t threads = cfg.threads;
  if (const char* t = std::getenv("FITZ_HTTP_THREADS")) threads = std::atoi(t);
  if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
  auto srv = std::make_unique<Server>(*state_);
  for (int64_t i = 0; i < threads; ++i) srv->workers.push_back(std::make_unique<Worker>());
  Worker& w0 = *srv->workers[0];

  std::string host(cfg.host.data(), cfg.host.size());
  if (host == "localhost") host = "127.0.0.1";
  beast::error_code ec;
  auto addr = asio::ip::make_address(host, ec);
  if (ec) {
    if (error) *error = Str(("invalid host '" + host + "': expected an IP address").c_str());
    return false;
  }
  if (cfg.port < 0 || cfg.port > 65535) {
    if (error) *error = Str::lit("invalid port");
    return false;
  }
  tcp::endpoint ep(addr, uint16_t(cfg.port));
  srv->acceptor.emplace(w0.ioc);
  if (int fd = take_inherited_listener(); fd >= 0) {
    // A supervisor (systemd, `fitz dev`) owns the socket and decides where it listens.
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
    srv->acceptor->assign(sa.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), fd, ec);
    if (ec) {
      if (error) *error = Str(("cannot use the inherited listening socket: " + ec.message()).c_str());
      return false;
    }
    auto local = srv->acceptor->local_endpoint(ec);
    if (!ec) cfg.host = Str(local.address().to_string().c_str());
  } else {
    srv->acceptor->open(ep.protocol(), ec);
    if (!ec) srv->acceptor->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) srv->acceptor->bind(ep, ec);
    if (!ec) srv->acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      if (error) *error = Str(("cannot listen on " + host + ":" + std::to_string(cfg.port) + ": " + ec.message()).c_str());
      return false;
    }
  }
  srv->port = srv->acceptor->local_endpoint().port();
  srv->accept_retry.emplace(w0.ioc);
  srv->drain_timer.emplace(w0.ioc);
  if (cfg.handle_signals) {
    srv->signals.emplace(w0.ioc, SIGINT, SIGTERM);
    listen_for_signals(*srv);
  }
  state_->draining.store(false);
  Server* s = srv.get();
  for (auto& wp : srv->workers) arm_sweep(*s, *wp);
  s->accept();
  for (auto& wp : srv->workers) {
    Worker* w = wp.get();
    w->thread = std::thread([w] {
      set_panic_mode(PanicMode::Throw);
      set_scheduler(&w->sched);
      try {
        w->ioc.run();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "fitz http: worker stopped: %s\n", e.what());
      }
      flush_log();
      set_scheduler(nullptr);
    });
  }
  state_->server = srv.release();
  return true;
}

int App::port() const {
  auto* s = server_of(state_);
  return s ? s->port : 0;
}

void App::shutdown() {
  auto* s = server_of(state_);
  if (!s) return;
  asio::post(s->workers[0]->ioc, [s] { s->begin_shutdown(false); });
}

void App::wait() {
  auto* s = server_of(state_);
  if (!s) return;
  for (auto& w : s->workers)
    if (w->thread.joinable()) w->thread.join();
  delete s;  // destroys the loops (and any connection still open)
  state_->server = nullptr;
}

int App::run() {
  ServerConfig& cfg = state_->cfg;
  if (const char* p = std::getenv("PORT")) {
    char* end = nullptr;
    long v = std::strtol(p, &end, 10);
    if (*p && end && !*end && v >= 0 && v <= 65535) cfg.port = v;
    else std::fprintf(stderr, "fitz: ignoring invalid PORT '%s'\n", p);
  }
  if (const char* h = std::getenv("HOST")) cfg.host = Str(h);
  // The pre-stop delay must outlast the load balancer's health checks (interval x failures),
  // which only the operator knows: an orchestrator's own pre-stop hook, or none, changes it.
  if (const char* d = std::getenv("FITZ_DRAIN_DELAY_MS")) {
    char* end = nullptr;
    long v = std::strtol(d, &end, 10);
    if (*d && end && !*end && v >= 0 && v <= 600000) cfg.drain_delay_ms = v;
    else std::fprintf(stderr, "fitz: ignoring invalid FITZ_DRAIN_DELAY_MS '%s' (0 to 600000)\n", d);
  }
  // Operators turn the per-request log off without a rebuild (benchmarks, log-heavy proxies).
  if (const char* l = std::getenv("FITZ_ACCESS_LOG")) {
    std::string_view v(l);
    if (v == "0" || v == "off" || v == "false") cfg.access_log = false;
    else if (v == "1" || v == "on" || v == "true") cfg.access_log = true;
  }
  Str err;
  if (!start(&err)) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  if (cfg.banner) {
    Buf b;
    b.lit("fitz: listening on http://");
    b.append(cfg.host.data(), cfg.host.size());
    b.push(':');
    fitz::detail::write_int(b, port());
    b.push('\n');
    for (const auto& r : state_->routes) {
      if (r.builtin) continue;
      b.lit("  ");
      b.append_cstr(method_name(r.method));
      b.push(' ');
      b.append(r.tmpl.data(), r.tmpl.size());
      b.push('\n');
    }
    std::fwrite(b.data(), 1, b.size(), stderr);
  }
  notify_ready();
  wait();
  return 0;
}

App::~App() {
  if (auto* s = server_of(state_)) {
    asio::post(s->workers[0]->ioc, [s] { s->begin_shutdown(true); });
    wait();
  }
  delete state_;
}

}  // namespace fitz::http
