// Endpoints and upgrades: a `@ws` path is a GET route that checks the upgrade request (and the
// guard, when there is one) like any HTTP request, then answers 101 with a ticket; the server
// hands the socket to `take_over`, which redeems the ticket and starts the session.
#include <chrono>
#include <string>

#include "ws/internal.h"

namespace fitz::ws {

namespace detail {

namespace {

const char kTicketHeader[] = "fitz-ws-ticket";
constexpr int64_t kPendingTtlNs = 60LL * 1000 * 1000 * 1000;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool header_has_token(const http::Request& req, const char* name, const char* token) {
  Nullable<Str> v = req.header(http::Text(name, std::strlen(name)));
  if (!v.has_value()) return false;
  const Str& s = v.value();
  size_t tl = std::strlen(token);
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == ',')) ++p;
    const char* start = p;
    while (p < end && *p != ',') ++p;
    const char* stop = p;
    while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t')) --stop;
    if (size_t(stop - start) == tl && http::Text(start, tl).iequals(http::Text(token, tl))) return true;
  }
  return false;
}

bool is_upgrade(const http::Request& req) {
  return req.method == http::Method::Get && header_has_token(req, "upgrade", "websocket") &&
         header_has_token(req, "connection", "upgrade");
}

Task<http::Response> upgrade_route(std::shared_ptr<HubState> st, Endpoint* ep, http::Request& req) {
  if (!is_upgrade(req)) {
    http::Response r = http::Response::error(426, http::Text("expected a WebSocket upgrade"));
    r.set_header(Str::lit("Upgrade"), Str::lit("websocket"));
    co_return r;
  }
  if (st->going_away.load()) {
    st->rejected.fetch_add(1);
    co_return http::Response::error(503, http::Text("server shutting down"));
  }
  if (st->open.load() >= st->cfg.max_connections) {
    st->rejected.fetch_add(1);
    co_return http::Response::error(503, http::Text("too many WebSocket connections"));
  }
  std::shared_ptr<void> user;
  if (ep->admit) {
    Result<std::shared_ptr<void>, http::Response> r = co_await ep->admit(req);
    if (!r.is_ok()) {
      st->rejected.fetch_add(1);
      co_return r.error();
    }
    user = r.value();
  }
  uint64_t ticket = st->add_pending(ep, std::move(user));
  http::Response resp = http::Response::empty(101);
  resp.set_header(Str::lit(kTicketHeader), Str(std::to_string(ticket).c_str()));
  co_return resp;
}

// App::UpgradeFn: runs on the connection's loop.
void take_over(void* ctx, void* socket, void* request, http::Response& resp) {
  auto* holder = static_cast<std::shared_ptr<HubState>*>(ctx);
  std::shared_ptr<HubState> st = *holder;
  auto& sock = *static_cast<tcp::socket*>(socket);
  bhttp::request<bhttp::empty_body> req(std::move(*static_cast<bhttp::request_header<>*>(request)));
  Nullable<Str> t = resp.header(http::Text(kTicketHeader, sizeof kTicketHeader - 1));
  Pending p;
  int64_t ticket = 0;
  if (!t.has_value() || !http::parse_int(http::Text(t.value()), &ticket) || !st->take_pending(uint64_t(ticket), &p)) {
    beast::error_code ignored;
    sock.close(ignored);
    return;
  }
  auto s = std::make_shared<Session>(st, *p.ep, std::move(sock), std::move(req), std::move(p.user));
  s->start();
}

}  // namespace

uint64_t HubState::add_pending(Endpoint* ep, std::shared_ptr<void> user) {
  uint64_t t = next_ticket.fetch_add(1);
  int64_t now = now_ns();
  std::lock_guard<std::mutex> lock(pending_mu);
  // A ticket whose connection went away before the hand-over is dropped after a while.
  if (pending.size() >= 64)
    for (auto it = pending.begin(); it != pending.end();)
      it = now - it->second.at_ns > kPendingTtlNs ? pending.erase(it) : std::next(it);
  pending[t] = Pending{ep, std::move(user), now};
  return t;
}

bool HubState::take_pending(uint64_t ticket, Pending* out) {
  std::lock_guard<std::mutex> lock(pending_mu);
  auto it = pending.find(ticket);
  if (it == pending.end()) return false;
  *out = std::move(it->second);
  pending.erase(it);
  return true;
}

Endpoint* HubState::find(const char* path) {
  http::Text p(path, std::strlen(path));
  for (auto& e : endpoints)
    if (http::Text(e->path) == p) return e.get();
  return nullptr;
}

void broadcast(Endpoint& ep, PayloadPtr p) {
  std::vector<std::shared_ptr<Session>> targets;
  {
    std::lock_guard<std::mutex> lock(ep.mu);
    targets.reserve(ep.conns.size());
    for (auto& [id, w] : ep.conns)
      if (auto s = w.lock()) targets.push_back(std::move(s));
  }
  for (auto& s : targets) s->send(p);
}

void publish(Endpoint& ep, PayloadPtr p) {
  broadcast(ep, p);
  if (ep.owner && ep.owner->pubsub) ep.owner->pubsub->publish(ep.path, p);
}

void HubState::close_all(int code, const Str& reason) {
  for (auto& e : endpoints) {
    std::vector<std::shared_ptr<Session>> targets;
    {
      std::lock_guard<std::mutex> lock(e->mu);
      for (auto& [id, w] : e->conns)
        if (auto s = w.lock()) targets.push_back(std::move(s));
    }
    for (auto& s : targets) s->close(code, reason);
  }
}

}  // namespace detail

Hub::Hub(http::App& app, WsConfig config) : app_(app), state_(std::make_shared<detail::HubState>()) {
  state_->cfg = config;
  // The App keeps a pointer to this shared_ptr; sessions hold their own copies.
  app_.on_upgrade(&detail::take_over, &state_);
  // A graceful shutdown (SIGTERM) starts with a drain delay while the loops still run: the
  // connections get their 1001 close handshake then, and new upgrades a 503.
  detail::HubState* st = state_.get();
  http::App* served = &app_;
  st->watcher = std::thread([st, served] {
    std::unique_lock<std::mutex> lock(st->watch_mu);
    while (!st->watch_stop) {
      st->watch_cv.wait_for(lock, std::chrono::milliseconds(50));
      if (st->watch_stop || st->going_away.load() || !served->draining()) continue;
      st->going_away.store(true);
      lock.unlock();
      st->close_all(1001, Str::lit("server shutting down"));
      lock.lock();
    }
  });
}

Hub::~Hub() {
  {
    std::lock_guard<std::mutex> lock(state_->watch_mu);
    state_->watch_stop = true;
  }
  state_->watch_cv.notify_all();
  if (state_->watcher.joinable()) state_->watcher.join();
  state_->pubsub.reset();
  app_.on_upgrade(nullptr, nullptr);
}

Str Hub::configure_from_env() { return detail::configure_pubsub(*state_); }

void Hub::on_relay(const std::string& channel, RelayFn fn) {
  std::lock_guard<std::mutex> lock(state_->relays_mu);
  state_->relays[channel] = std::move(fn);
}

bool Hub::relay(const std::string& channel, const std::string& name, const std::string& data) {
  if (!state_->pubsub) return false;
  auto p = std::make_shared<detail::Payload>();
  p->data = data;
  std::string path = "relay:" + channel + ":" + name;
  return state_->pubsub->publish(Str(path.data(), path.size()), p);
}

http::RouteRef Hub::add_endpoint(const char* path, Fn<Task<Null>(Conn, std::shared_ptr<void>)> handler,
                                 Fn<Task<Result<std::shared_ptr<void>, http::Response>>(http::Request&)> admit) {
  auto ep = std::make_unique<detail::Endpoint>();
  ep->owner = state_.get();
  ep->path = Str(path);
  ep->run = std::move(handler);
  ep->admit = std::move(admit);
  detail::Endpoint* e = ep.get();
  state_->endpoints.push_back(std::move(ep));
  std::shared_ptr<detail::HubState> st = state_;
  return app_.get(path, [st, e](http::Request& req) { return detail::upgrade_route(st, e, req); });
}

http::RouteRef Hub::endpoint(const char* path, Handler handler) {
  return add_endpoint(path,
                      Fn<Task<Null>(Conn, std::shared_ptr<void>)>(
                          [handler](Conn c, std::shared_ptr<void>) { return handler(c); }),
                      Fn<Task<Result<std::shared_ptr<void>, http::Response>>(http::Request&)>());
}

namespace {
detail::PayloadPtr text_payload(const Str& s) {
  auto p = std::make_shared<detail::Payload>();
  p->data.assign(s.data(), s.size());
  return p;
}
detail::PayloadPtr bytes_payload(const Bytes& b) {
  auto p = std::make_shared<detail::Payload>();
  p->data.assign(reinterpret_cast<const char*>(b.data()), b.size());
  p->binary = true;
  return p;
}
}  // namespace

void Hub::broadcast_text(const char* path, const Str& text) {
  if (detail::Endpoint* e = state_->find(path)) detail::publish(*e, text_payload(text));
}
void Hub::broadcast_bytes(const char* path, const Bytes& b) {
  if (detail::Endpoint* e = state_->find(path)) detail::publish(*e, bytes_payload(b));
}

HubStats Hub::stats() const {
  HubStats s;
  s.open = state_->open.load();
  s.accepted = state_->accepted.load();
  s.closed_slow = state_->closed_slow.load();
  s.closed_too_big = state_->closed_too_big.load();
  s.rejected = state_->rejected.load();
  return s;
}

const WsConfig& Hub::config() const { return state_->cfg; }

// ---- Conn --------------------------------------------------------------------------------

namespace {
struct RecvAwait {
  detail::Session* s;
  bool await_ready() const noexcept { return s->has_message() || s->ended(); }
  void await_suspend(std::coroutine_handle<> h) const { s->set_waiter(h); }
  void await_resume() const noexcept {}
};
}  // namespace

Task<Result<Message, Str>> Conn::recv_message() {
  if (!s_) co_return Result<Message, Str>(Err(Str::lit("connection closed")));
  std::shared_ptr<detail::Session> s = s_;
  // Woken by a message or the end of the connection; a spurious wake-up waits again.
  while (!s->has_message() && !s->ended()) co_await RecvAwait{s.get()};
  if (s->has_message()) co_return Result<Message, Str>(Ok(s->pop_message()));
  co_return Result<Message, Str>(Err(Str::lit("connection closed")));
}

Task<Result<Bytes, Str>> Conn::recv_bytes() {
  Result<Message, Str> m = co_await recv_message();
  if (!m.is_ok()) co_return Result<Bytes, Str>(Err(m.error()));
  const Str& d = m.value().data;
  co_return Result<Bytes, Str>(Ok(Bytes(d.data(), d.size())));
}

bool Conn::send_text(const Str& text) { return s_ && s_->send(text_payload(text)); }
bool Conn::send_bytes(const Bytes& b) { return s_ && s_->send(bytes_payload(b)); }
void Conn::broadcast_text(const Str& text) {
  if (s_) detail::publish(s_->ep, text_payload(text));
}
void Conn::broadcast_bytes(const Bytes& b) {
  if (s_) detail::publish(s_->ep, bytes_payload(b));
}
void Conn::close(int code, Str reason) {
  if (s_) s_->close(code, std::move(reason));
}
bool Conn::is_open() const { return s_ && s_->open.load(); }
int64_t Conn::id() const { return s_ ? s_->id : 0; }
const Str& Conn::path() const {
  static const Str kNone;
  return s_ ? s_->ep.path : kNone;
}
Str Conn::subprotocol() const { return s_ ? s_->subprotocol : Str(); }

}  // namespace fitz::ws
