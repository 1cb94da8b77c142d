// Shared by the ws sources: endpoints, pending upgrades and the per-connection session (Beast
// websocket stream, bounded outbox and inbox, the handler's recv waiter).
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <coroutine>
#include <condition_variable>
#include <deque>
#include <thread>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "fitz/ws.h"
#include "pg/conninfo.h"

namespace fitz::ws::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bws = boost::beast::websocket;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

using AdmitFn = Fn<Task<Result<std::shared_ptr<void>, http::Response>>(http::Request&)>;
using RunFn = Fn<Task<Null>(Conn, std::shared_ptr<void>)>;

// One message to send, shared by every connection a broadcast reaches.
struct Payload {
  std::string data;
  bool binary = false;
};
using PayloadPtr = std::shared_ptr<const Payload>;

struct HubState;

struct Endpoint {
  HubState* owner = nullptr;
  Str path;
  RunFn run;
  AdmitFn admit;  // empty: no guard
  std::mutex mu;
  std::unordered_map<int64_t, std::weak_ptr<Session>> conns;
};

// An upgrade the route accepted, waiting for the server to hand over the socket.
struct Pending {
  Endpoint* ep = nullptr;
  std::shared_ptr<void> user;
  int64_t at_ns = 0;
};

// Broadcasts across replicas through Postgres LISTEN/NOTIFY (pubsub.cpp).
class PubSub {
 public:
  using Deliver = std::function<void(const std::string& path, PayloadPtr)>;
  // `deliver` runs on the pubsub thread with each message another replica published.
  PubSub(pg::ConnInfo info, int64_t max_bytes, Deliver deliver);
  ~PubSub();
  // From any thread. False when the message is over `max_bytes` (it stays local).
  bool publish(const Str& path, const PayloadPtr& p);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct HubState {
  WsConfig cfg;
  std::unique_ptr<PubSub> pubsub;      // FITZ_WS_PUBSUB=postgres
  // Hub::on_relay: relayed messages travel as the path "relay:<channel>:<name>" (an endpoint
  // path starts with '/', so the two never meet).
  std::mutex relays_mu;
  std::unordered_map<std::string, Hub::RelayFn> relays;
  std::atomic<bool> going_away{false};  // the server is shutting down: no new connections
  // Watches the App for a graceful shutdown, then closes every connection with 1001.
  std::thread watcher;
  std::mutex watch_mu;
  std::condition_variable watch_cv;
  bool watch_stop = false;
  void close_all(int code, const Str& reason);
  std::vector<std::unique_ptr<Endpoint>> endpoints;
  std::mutex pending_mu;
  std::unordered_map<uint64_t, Pending> pending;
  std::atomic<uint64_t> next_ticket{1};
  std::atomic<int64_t> next_id{1};
  std::atomic<int64_t> open{0}, accepted{0}, closed_slow{0}, closed_too_big{0}, rejected{0};

  uint64_t add_pending(Endpoint* ep, std::shared_ptr<void> user);
  bool take_pending(uint64_t ticket, Pending* out);
  Endpoint* find(const char* path);
};

// To this process's connections of the endpoint.
void broadcast(Endpoint& ep, PayloadPtr p);
// To every connection of the endpoint, in every replica when pubsub is on.
void publish(Endpoint& ep, PayloadPtr p);
// Reads FITZ_WS_PUBSUB / FITZ_WS_PUBSUB_URL; an error message, or empty.
Str configure_pubsub(HubState& st);

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(std::shared_ptr<HubState> hub, Endpoint& ep, tcp::socket&& sock,
          bhttp::request<bhttp::empty_body>&& req, std::shared_ptr<void> user);
  ~Session();

  void start();
  // From any thread. False when the message was refused (closed, or the outbox overflowed).
  bool send(PayloadPtr p);
  void close(int code, Str reason);

  // The handler's side (its own loop only).
  bool has_message() const { return !inbox_.empty(); }
  bool ended() const { return ended_; }
  Message pop_message();
  void set_waiter(std::coroutine_handle<> h) { waiter_ = h; }

  std::atomic<bool> open{false};
  // Set once the session ends; other threads' sends stop queueing then.
  std::atomic<bool> gone{false};
  int64_t id = 0;
  Endpoint& ep;
  Str subprotocol;

 private:
  bool on_loop() const;
  bool enqueue(PayloadPtr p);
  void drain_incoming();
  void close_too_slow();  // 1008: the client does not read fast enough
  void begin_close(int code, Str reason);
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, size_t n);
  void do_write();
  void on_write(beast::error_code ec);
  void do_close();
  void finish();  // no more reads: wake the handler, leave the registry
  void teardown();
  void wake();
  static Task<Null> run_handler(std::shared_ptr<Session> self);

  std::shared_ptr<HubState> hub_;
  bws::stream<tcp::socket> ws_;
  bhttp::request<bhttp::empty_body> req_;
  std::shared_ptr<void> user_;
  beast::flat_buffer rbuf_;
  asio::steady_timer kill_timer_;
  std::deque<PayloadPtr> outbox_;
  size_t outbox_bytes_ = 0;
  // Messages sent from other threads wait here for this loop, bounded like the outbox: a loop
  // that falls behind its broadcasters must not let one posted handler per message pile up.
  std::mutex incoming_mu_;
  std::deque<PayloadPtr> incoming_;
  bool incoming_overflow_ = false;
  std::deque<Message> inbox_;
  std::coroutine_handle<> waiter_;
  bool writing_ = false, reading_ = false, ended_ = false, registered_ = false, member_ = false;
  bool closing_ = false, close_sent_ = false;
  int close_code_ = 1000;
  Str close_reason_;
};

}  // namespace fitz::ws::detail
