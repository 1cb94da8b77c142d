// One WebSocket connection on its HTTP worker's event loop. Every state change happens on that
// loop; other threads reach it with asio::post. One read and one write (data or close frame)
// are in flight at most. The outbox is bounded in messages and bytes: a client that does not
// read is closed with 1008 instead of holding memory; the inbox is bounded too (reading pauses
// while the handler is behind, so TCP pushes back on the client).
#include <chrono>
#include <cstdio>

#include "ws/internal.h"

namespace fitz::ws::detail {

Session::Session(std::shared_ptr<HubState> hub, Endpoint& e, tcp::socket&& sock,
                 bhttp::request<bhttp::empty_body>&& req, std::shared_ptr<void> user)
    : ep(e), hub_(std::move(hub)), ws_(std::move(sock)), req_(std::move(req)), user_(std::move(user)),
      kill_timer_(ws_.get_executor()) {
  id = hub_->next_id.fetch_add(1);
}

Session::~Session() = default;

bool Session::on_loop() const {
  auto exec = const_cast<bws::stream<tcp::socket>&>(ws_).get_executor();
  auto* ex = exec.target<asio::io_context::executor_type>();
  return ex && ex->running_in_this_thread();
}

void Session::start() {
  const WsConfig& cfg = hub_->cfg;
  ws_.read_message_max(uint64_t(std::max<int64_t>(cfg.max_message_bytes, 1)));
  ws_.auto_fragment(false);
  bws::stream_base::timeout t;
  t.handshake_timeout = std::chrono::milliseconds(cfg.handshake_timeout_ms);
  // Beast pings after half the idle time without traffic and closes after all of it.
  t.idle_timeout = std::chrono::milliseconds(std::max<int64_t>(cfg.heartbeat_ms, 1) * 2);
  t.keep_alive_pings = true;
  ws_.set_option(t);
  auto it = req_.find(bhttp::field::sec_websocket_protocol);
  if (it != req_.end()) {
    auto v = it->value();
    subprotocol = auth::bearer_subprotocol(http::Text(v.data(), v.size()));
    if (!subprotocol.empty()) subprotocol = Str("bearer.") + subprotocol;
  }
  Str proto = subprotocol;
  ws_.set_option(bws::stream_base::decorator([proto](bws::response_type& res) {
    res.set(bhttp::field::server, "fitz");
    if (!proto.empty()) res.set(bhttp::field::sec_websocket_protocol, std::string(proto.data(), proto.size()));
  }));
  // A member of its endpoint before the handshake answer goes out: a client that saw its 101
  // gets every broadcast made after that. What arrives before the answer is sent waits in
  // the outbox.
  member_ = true;
  {
    std::lock_guard<std::mutex> lock(ep.mu);
    ep.conns[id] = weak_from_this();
  }
  ws_.async_accept(req_, [self = shared_from_this()](beast::error_code ec) { self->on_accept(ec); });
}

void Session::on_accept(beast::error_code ec) {
  if (ec) {
    hub_->rejected.fetch_add(1);
    return teardown();  // also leaves the endpoint
  }
  hub_->accepted.fetch_add(1);
  hub_->open.fetch_add(1);
  registered_ = true;
  open = true;
  req_ = {};  // the handshake is done; keep no request bytes for the connection's life
  do_read();
  if (!outbox_.empty() && !writing_) do_write();
  run_handler(shared_from_this());  // runs on this loop; frees itself when done
}

Task<Null> Session::run_handler(std::shared_ptr<Session> self) {
  bool failed = false;
  try {
    co_await self->ep.run(Conn(self), self->user_);
  } catch (const Panic& p) {
    // A runtime error in the handler: logged, the connection closes with 1011, the server
    // keeps serving.
    failed = true;
    Buf b;
    http::JsonWriter w(b);
    w.begin_object();
    w.key("level");
    w.value("error");
    w.key("msg");
    w.value("websocket handler failed");
    w.key("path");
    w.value(self->ep.path);
    w.key("error");
    w.value(p.message);
    w.end_object();
    b.push('\n');
    std::fwrite(b.data(), 1, b.size(), stderr);
  }
  self->user_.reset();
  self->close(failed ? 1011 : 1000, failed ? Str::lit("internal error") : Str());
  co_return null;
}

void Session::do_read() {
  if (ended_ || reading_) return;
  if (int64_t(inbox_.size()) >= hub_->cfg.max_inbox_messages) return;  // resumed by pop_message
  reading_ = true;
  ws_.async_read(rbuf_, [self = shared_from_this()](beast::error_code ec, size_t n) { self->on_read(ec, n); });
}

void Session::on_read(beast::error_code ec, size_t) {
  reading_ = false;
  if (ec) {
    if (ec == bws::error::message_too_big) hub_->closed_too_big.fetch_add(1);
    // Beast answered a close frame or failed the connection (1002 protocol error, 1009 too
    // big) itself; nothing more can be read. During our own close, async_close finishes it.
    finish();
    if (!close_sent_) teardown();
    return;
  }
  Message m;
  m.binary = ws_.got_binary();
  auto data = rbuf_.data();
  m.data = Str(static_cast<const char*>(data.data()), data.size());
  rbuf_.consume(rbuf_.size());
  if (rbuf_.capacity() > 64 * 1024) rbuf_.shrink_to_fit();
  inbox_.push_back(std::move(m));
  wake();
  do_read();
}

Message Session::pop_message() {
  Message m = std::move(inbox_.front());
  inbox_.pop_front();
  if (!reading_ && !ended_ && open) do_read();
  return m;
}

void Session::wake() {
  if (!waiter_) return;
  auto h = waiter_;
  waiter_ = nullptr;
  scheduler().post(h);
}

bool Session::send(PayloadPtr p) {
  if (on_loop()) return enqueue(std::move(p));
  if (gone.load()) return false;  // an early answer; enqueue on the loop decides for real
  bool schedule = false, accepted = true;
  {
    std::lock_guard<std::mutex> lock(incoming_mu_);
    if (incoming_overflow_) return false;
    if (int64_t(incoming_.size()) >= hub_->cfg.max_outbox_messages) {
      // The loop is this far behind: the client cannot be kept up to date. The drain closes it.
      incoming_overflow_ = true;
      incoming_.clear();
      schedule = true;
      accepted = false;
    } else {
      incoming_.push_back(std::move(p));
      schedule = incoming_.size() == 1;  // otherwise a drain is already on its way
    }
  }
  if (schedule) asio::post(ws_.get_executor(), [self = shared_from_this()]() { self->drain_incoming(); });
  return accepted;
}

void Session::drain_incoming() {
  std::deque<PayloadPtr> batch;
  bool overflow;
  {
    std::lock_guard<std::mutex> lock(incoming_mu_);
    batch.swap(incoming_);
    overflow = incoming_overflow_;
  }
  if (overflow) {
    if (!closing_ && !ended_) close_too_slow();
    return;
  }
  for (PayloadPtr& p : batch)
    if (!enqueue(std::move(p))) break;
}

bool Session::enqueue(PayloadPtr p) {
  if (closing_ || ended_) return false;
  const WsConfig& cfg = hub_->cfg;
  if (int64_t(outbox_.size()) + 1 > cfg.max_outbox_messages ||
      int64_t(outbox_bytes_ + p->data.size()) > cfg.max_outbox_bytes) {
    close_too_slow();
    return false;
  }
  outbox_bytes_ += p->data.size();
  outbox_.push_back(std::move(p));
  if (!writing_ && open) do_write();
  return true;
}

void Session::close_too_slow() {
  hub_->closed_slow.fetch_add(1);
  // Drop what is queued (the message being written stays, Beast owns it), then close.
  while (outbox_.size() > (writing_ ? 1u : 0u)) {
    outbox_bytes_ -= outbox_.back()->data.size();
    outbox_.pop_back();
  }
  begin_close(1008, Str::lit("client too slow: outbox full"));
}

void Session::do_write() {
  if (writing_ || ended_) return;
  if (outbox_.empty()) {
    if (closing_ && !close_sent_) do_close();
    return;
  }
  writing_ = true;
  const PayloadPtr& p = outbox_.front();
  ws_.binary(p->binary);
  ws_.async_write(asio::buffer(p->data), [self = shared_from_this()](beast::error_code ec, size_t) { self->on_write(ec); });
}

void Session::on_write(beast::error_code ec) {
  writing_ = false;
  if (!outbox_.empty()) {
    outbox_bytes_ -= outbox_.front()->data.size();
    outbox_.pop_front();
  }
  if (ec) {
    outbox_.clear();
    outbox_bytes_ = 0;
    return teardown();
  }
  do_write();
}

void Session::close(int code, Str reason) {
  if (on_loop()) return begin_close(code, std::move(reason));
  asio::post(ws_.get_executor(), [self = shared_from_this(), code, reason]() { self->begin_close(code, reason); });
}

void Session::begin_close(int code, Str reason) {
  if (closing_ || ended_) return;
  closing_ = true;
  close_code_ = code;
  close_reason_ = std::move(reason);
  // However the client behaves (never reading, never answering the close), the socket goes
  // away after the handshake timeout.
  kill_timer_.expires_after(std::chrono::milliseconds(hub_->cfg.handshake_timeout_ms));
  kill_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec) self->teardown();
  });
  if (open && !writing_) do_write();
  if (!open) teardown();
}

void Session::do_close() {
  close_sent_ = true;
  writing_ = true;
  bws::close_reason cr(static_cast<bws::close_code>(close_code_));
  cr.reason = std::string(close_reason_.data(), close_reason_.size());
  ws_.async_close(cr, [self = shared_from_this()](beast::error_code) {
    self->writing_ = false;
    self->teardown();
  });
}

void Session::finish() {
  if (ended_) return;
  ended_ = true;
  open = false;
  gone = true;
  if (registered_) {
    registered_ = false;
    hub_->open.fetch_sub(1);
  }
  if (member_) {
    member_ = false;
    std::lock_guard<std::mutex> lock(ep.mu);
    ep.conns.erase(id);
  }
  wake();
}

void Session::teardown() {
  beast::error_code ignored;
  kill_timer_.cancel();
  beast::get_lowest_layer(ws_).close(ignored);
  finish();
}

}  // namespace fitz::ws::detail
