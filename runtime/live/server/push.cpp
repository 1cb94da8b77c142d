// Push: a live socket's deliveries, timers, coalesced flushes and heartbeat watch on its loop.
// See push.h.
#include "push.h"

#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>

namespace fitz::live::detail {

namespace {

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void log_line(const std::string& msg) {
  std::string line = "{\"level\":\"warn\",\"msg\":\"";
  for (char c : msg) {
    if (c == '"' || c == '\\') line += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    line += c;
  }
  line += "\"}\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Push::begin(LiveConnection* lc, uint64_t client) {
  lc_ = lc;
  client_ = client;
  last_heard_ = steady_ms();
  if (silence_ms_ > 0) watch();
}

void Push::end() {
  lc_ = nullptr;
  watch_.cancel();
  for (auto& entry : timers_)
    for (auto& t : entry.second) t->cancel();
  timers_.clear();
}

void Push::heard() { last_heard_ = steady_ms(); }

void Push::emit(ConnectionOutput out) {
  for (const std::string& f : out.frames) conn_.send_text(Str::from(f));
  for (const std::string& l : out.logs) log_line(l);
  // After this connection's frames: a view's own message never overtakes its handler's frame.
  for (auto& [topic, json] : out.publishes) hub_.publish(topic, std::move(json));
  if (out.close_code != 0) conn_.close(out.close_code, Str::from(out.close_reason));
  schedule_flush();
}

void Push::schedule_flush() {
  if (flush_posted_ || !lc_ || !lc_->dirty()) return;
  flush_posted_ = true;
  // Behind every delivery already queued on this loop: they all land in one render.
  boost::asio::post(ioc_, [self = shared_from_this()] {
    self->flush_posted_ = false;
    if (self->lc_) self->emit(self->lc_->flush());
  });
}

void Push::deliver(Subscription::Kind kind, const std::string& topic, std::shared_ptr<const std::string> json) {
  boost::asio::post(ioc_, [self = shared_from_this(), kind, topic, json = std::move(json)] {
    if (!self->lc_) return;
    self->emit(kind == Subscription::Kind::Message ? self->lc_->on_message(topic, *json, wall_ms())
                                                   : self->lc_->on_presence(topic, *json, wall_ms()));
  });
}

void Push::start(const std::string& view, uint64_t mount, uint32_t hook, int64_t every_ms) {
  auto t = std::make_shared<Timer>(ioc_);
  timers_[{view, mount}].push_back(t);
  arm(std::move(t), view, mount, hook, every_ms);
}

void Push::stop(const std::string& view, uint64_t mount) {
  auto it = timers_.find({view, mount});
  if (it == timers_.end()) return;
  for (auto& t : it->second) t->cancel();
  timers_.erase(it);
}

void Push::arm(std::shared_ptr<Timer> t, std::string view, uint64_t mount, uint32_t hook, int64_t every_ms) {
  t->expires_after(std::chrono::milliseconds(every_ms));
  std::weak_ptr<Push> weak = weak_from_this();
  Timer* raw = t.get();
  raw->async_wait([weak, t = std::move(t), view = std::move(view), mount, hook,
                   every_ms](const boost::system::error_code& ec) mutable {
    auto self = weak.lock();
    if (ec || !self || !self->lc_) return;
    self->emit(self->lc_->on_timer(view, mount, hook, wall_ms()));
    if (self->lc_ && self->lc_->mount_of(view) == mount) self->arm(std::move(t), std::move(view), mount, hook, every_ms);
  });
}

void Push::watch() {
  watch_.expires_after(std::chrono::milliseconds(std::max<int64_t>(silence_ms_ / 4, 50)));
  watch_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || !self->lc_) return;
    // Every socket's watch drives the hub's presence refresh: a replica with no socket has no
    // presence of its own to refresh, and no view to tell that another replica's went stale.
    self->hub_.tick_presence(steady_ms());
    if (steady_ms() - self->last_heard_ >= self->silence_ms_) {
      // Gone quiet: others stop seeing it online now, not when TCP finally notices.
      self->hub_.untrack_client(self->client_);
      self->conn_.close(1001, Str::lit("heartbeat timeout"));
      return;
    }
    self->watch();
  });
}

}  // namespace fitz::live::detail
