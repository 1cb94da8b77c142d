// WebSockets for generated services (`@ws("/path")`, `WsConn<In, Out>`, `ws_broadcast`). The
// connections live in runtime/ws/*.cpp on Boost.Beast, on the HTTP server's event loops: a
// `@ws` path is an HTTP GET route that answers 101, and the server hands the socket over.
// This header has no Boost include.
//
//   fitz::http::App app;
//   fitz::ws::Hub hub(app);
//   hub.endpoint("/chat", [](fitz::ws::Conn c) { return chat(c); });  // Task<Null> chat(Conn)
//   ...
//   Task<Null> chat(fitz::ws::Conn conn) {
//     while (true) {
//       auto m = co_await conn.recv<fitz::Ref<Msg>>();   // Err: closed or not a Msg
//       if (!m.is_ok()) break;
//       conn.broadcast(m.value());                       // every client of /chat, sender too
//     }
//     co_return fitz::null;
//   }
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "fitz/auth.h"
#include "fitz/http.h"

namespace fitz::ws {

struct WsConfig {
  int64_t max_message_bytes = 1024 * 1024;  // larger messages close the connection (1009)
  int64_t max_outbox_messages = 1024;       // queued outgoing messages per connection ...
  int64_t max_outbox_bytes = 4 * 1024 * 1024;  // ... and their bytes; beyond either: 1008
  int64_t max_inbox_messages = 64;          // received, not yet recv()'d; reading pauses beyond
  int64_t heartbeat_ms = 30000;             // a ping after this long without traffic; no
                                            // traffic for twice as long closes the connection
  int64_t handshake_timeout_ms = 10000;     // also bounds the closing handshake
  int64_t max_connections = 10000;          // further upgrades get 503
};

// One received message.
struct Message {
  bool binary = false;
  Str data;
};

namespace detail {
struct Session;
struct HubState;
}  // namespace detail

// A connection handle (`WsConn`), cheap to copy. Methods may be called from any thread;
// sends are queued on the connection's outbox and never block.
class Conn {
 public:
  Conn() = default;
  explicit Conn(std::shared_ptr<detail::Session> s) : s_(std::move(s)) {}

  // The next data message (pings and pongs are handled inside). Err("connection closed")
  // once the peer closed or the connection failed and no message is left.
  Task<Result<Message, Str>> recv_message();
  // The next text message decoded as T (the request-body decoder); binary frames and
  // decoding failures are an Err with the reason.
  template <class T> Task<Result<T, Str>> recv() {
    Result<Message, Str> m = co_await recv_message();
    if (!m.is_ok()) co_return Result<T, Str>(Err(m.error()));
    co_return decode<T>(m.value());
  }
  // `WsConn<Bytes>`: the next binary (or text) message as bytes.
  Task<Result<Bytes, Str>> recv_bytes();

  // Queues a message for this client (false when the connection is closed or was just
  // closed with 1008 because its outbox is full).
  template <class T> bool send(const T& v) { return send_text(http::to_json(v)); }
  bool send_text(const Str& text);
  bool send_bytes(const Bytes& b);
  // To every open connection of this connection's endpoint, this one included.
  template <class T> void broadcast(const T& v) { broadcast_text(http::to_json(v)); }
  void broadcast_text(const Str& text);
  void broadcast_bytes(const Bytes& b);
  // Starts the closing handshake (after the queued messages).
  void close(int code = 1000, Str reason = Str());

  bool is_open() const;
  int64_t id() const;           // unique per hub
  const Str& path() const;      // the endpoint
  Str subprotocol() const;      // the echoed Sec-WebSocket-Protocol ("" when none)

 private:
  template <class T> static Result<T, Str> decode(const Message& m) {
    if (m.binary) return Err(Str::lit("expected a text (JSON) message, got binary"));
    http::JsonReader r(m.data.data(), m.data.size());
    T out{};
    if (!http::from_json(r, &out)) return Err(Str::lit("message: ") + r.error());
    return Ok(std::move(out));
  }
  std::shared_ptr<detail::Session> s_;
};

// Counters for tests and /metrics.
struct HubStats {
  int64_t open = 0;               // connections now
  int64_t accepted = 0;           // since start
  int64_t closed_slow = 0;        // closed with 1008 (outbox full)
  int64_t closed_too_big = 0;     // closed with 1009
  int64_t rejected = 0;           // upgrades answered with an HTTP error
};

// The WebSocket endpoints of one App. Construct it next to the App (it registers itself as
// the App's upgrade handler) and keep it alive while the App serves.
class Hub {
 public:
  explicit Hub(http::App& app, WsConfig config = WsConfig());
  ~Hub();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  using Handler = Fn<Task<Null>(Conn)>;
  // `@ws("/path")`. The returned route takes before-middleware, e.g. a guard that answers
  // 401 / 403 before the upgrade: `.before(guard.before(need))`.
  http::RouteRef endpoint(const char* path, Handler handler);
  // `@ws` with `@authenticated` / `@admin` / `@requires` and a user parameter: the guard runs
  // on the upgrade request (its `bearer.<token>` subprotocol included); the handler gets the
  // user.
  template <class U, class F>
  http::RouteRef endpoint(const char* path, const auth::Guard<U>& guard, auth::Requirement need, F handler) {
    auth::Guard<U> g = guard;
    // The check runs in the route handler, so a 401 / 403 is an ordinary HTTP response; the
    // user it produced is handed to the connection with the upgrade.
    return add_endpoint(
        path,
        Fn<Task<Null>(Conn, std::shared_ptr<void>)>([handler](Conn c, std::shared_ptr<void> u) {
          return handler(c, *static_cast<U*>(u.get()));
        }),
        Fn<Task<Result<std::shared_ptr<void>, http::Response>>(http::Request&)>(
            [g, need](http::Request& req) { return admit<U>(g, need, req); }));
  }

  // `ws_broadcast("/path", v)`: to every open connection of the endpoint (none: nothing).
  template <class T> void broadcast(const char* path, const T& v) { broadcast_text(path, http::to_json(v)); }
  void broadcast_text(const char* path, const Str& text);
  void broadcast_bytes(const char* path, const Bytes& b);

  HubStats stats() const;
  const WsConfig& config() const;
  // FITZ_WS_PUBSUB=postgres: broadcasts also reach the clients of every other replica, through
  // Postgres LISTEN/NOTIFY at FITZ_WS_PUBSUB_URL (else DATABASE_URL). Call before serving; an
  // error message (unknown mode, no or bad URL), or empty. Unset or `none`: this process only.
  Str configure_from_env();

  // For runtimes built on the hub (live views' pubsub): with FITZ_WS_PUBSUB=postgres, `relay`
  // sends (name, data) on `channel` to the other replicas alongside the broadcasts, and there
  // the function registered with `on_relay` for that channel gets it (on the pubsub thread: it
  // must hand the work over, not do it). `relay` is false when pubsub is off or the data is too
  // big; this replica is never sent its own relays.
  using RelayFn = std::function<void(const std::string& name, const std::string& data)>;
  void on_relay(const std::string& channel, RelayFn fn);
  bool relay(const std::string& channel, const std::string& name, const std::string& data);

 private:
  template <class U>
  static Task<Result<std::shared_ptr<void>, http::Response>> admit(auth::Guard<U> g, auth::Requirement need,
                                                                   http::Request& req) {
    Result<U, http::Response> r = co_await g.check_async(req, need);
    if (!r.is_ok()) co_return Result<std::shared_ptr<void>, http::Response>(Err(r.error()));
    std::shared_ptr<void> p = std::make_shared<U>(r.value());
    co_return Result<std::shared_ptr<void>, http::Response>(Ok(std::move(p)));
  }
  http::RouteRef add_endpoint(const char* path, Fn<Task<Null>(Conn, std::shared_ptr<void>)> handler,
                              Fn<Task<Result<std::shared_ptr<void>, http::Response>>(http::Request&)> admit);

  http::App& app_;
  std::shared_ptr<detail::HubState> state_;  // shared with the connections
};

}  // namespace fitz::ws
