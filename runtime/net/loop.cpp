// The event loop outbound calls run on: the HTTP worker's, or one this file installs on a
// program thread that has none.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "fitz/runtime.h"
#include "net/loop.h"

namespace fitz::net {

namespace asio = boost::asio;

namespace {

// A program that is not an HTTP service runs its tasks on the core loop, which has no I/O; the
// first outbound call installs an Asio-driven one on this thread (the database module does the
// same; whichever comes first serves both, as both only ask for `io_context()`).
class ProgramLoop final : public Scheduler {
 public:
  ProgramLoop() : previous_(set_scheduler(this)) {}
  ~ProgramLoop() override {
    if (&scheduler() == this) set_scheduler(previous_);
  }
  void post(std::coroutine_handle<> h) override {
    asio::post(ioc_, [h] { h.resume(); });
  }
  void post_after(int64_t ms, std::coroutine_handle<> h) override {
    if (ms <= 0) return post(h);
    auto timer = std::make_shared<asio::steady_timer>(ioc_, std::chrono::milliseconds(ms));
    timer->async_wait([timer, h](const boost::system::error_code&) { h.resume(); });
  }
  bool run_one() override {
    if (ioc_.stopped()) ioc_.restart();
    if (ioc_.poll_one() > 0) return true;
    flush_stdout();
    if (ioc_.stopped()) ioc_.restart();
    return ioc_.run_one() > 0;
  }
  void* io_context() override { return &ioc_; }

 private:
  asio::io_context ioc_{1};
  Scheduler* previous_;
};

}  // namespace

asio::io_context& loop_context() {
  if (!scheduler().io_context()) {
    thread_local ProgramLoop loop;
  }
  return *static_cast<asio::io_context*>(scheduler().io_context());
}

}  // namespace fitz::net
