// Internal to runtime/live/server: one socket's server push on its loop (push.cpp).
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fitz/live/connection.h"
#include "fitz/ws.h"

namespace fitz::live::detail {

// The clock of heartbeats and of the hub's presence refresh.
int64_t steady_ms();

// The hub's deliveries and the `on every` ticks of one socket, moved onto the socket's loop
// (its strand: every call into its LiveConnection happens there), with one flush posted per
// loop turn after hooks changed state, so a burst of messages renders once (§2.4). Also
// watches the heartbeat: silent for `silence_ms`, the socket loses its presence and closes.
class Push final : public HubClient, public TimerHost, public std::enable_shared_from_this<Push> {
 public:
  Push(boost::asio::io_context& ioc, ws::Conn conn, LiveHub& hub, int64_t silence_ms)
      : ioc_(ioc), conn_(std::move(conn)), hub_(hub), silence_ms_(silence_ms), watch_(ioc) {}

  // The connection exists from here until `end`; both on the loop.
  void begin(LiveConnection* lc, uint64_t client);
  void end();
  // A frame came in (the heartbeat is alive).
  void heard();
  // Sends frames, publishes, logs; then posts a flush when hooks left views dirty.
  void emit(ConnectionOutput out);

  void deliver(Subscription::Kind kind, const std::string& topic, std::shared_ptr<const std::string> json) override;
  void start(const std::string& view, uint64_t mount, uint32_t hook, int64_t every_ms) override;
  void stop(const std::string& view, uint64_t mount) override;

 private:
  using Timer = boost::asio::steady_timer;
  void arm(std::shared_ptr<Timer> t, std::string view, uint64_t mount, uint32_t hook, int64_t every_ms);
  void watch();
  void schedule_flush();

  boost::asio::io_context& ioc_;
  ws::Conn conn_;
  LiveHub& hub_;
  int64_t silence_ms_;
  LiveConnection* lc_ = nullptr;
  uint64_t client_ = 0;
  bool flush_posted_ = false;
  int64_t last_heard_ = 0;
  Timer watch_;
  std::map<std::pair<std::string, uint64_t>, std::vector<std::shared_ptr<Timer>>> timers_;
};

}  // namespace fitz::live::detail
