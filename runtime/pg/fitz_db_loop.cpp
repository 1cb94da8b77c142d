// The Asio-driven scheduler for program threads that do database work. The built-in loop of
// the core runtime has no I/O, so a plain program that uses `db` runs its tasks on an
// io_context instead: socket completions and timers resume coroutines on the same thread, and
// `block_on`/`drain` keep their meaning (run until done; idle when no task or I/O is pending).
// HTTP workers already run such a scheduler and are left alone.
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "pg/fitz_db_internal.h"

namespace fitz::db {

namespace asio = boost::asio;

namespace {

class AsioLoop final : public Scheduler {
 public:
  AsioLoop() : previous_(set_scheduler(this)) {}
  ~AsioLoop() override {
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
    flush_stdout();  // about to block: let the user see what was printed so far
    if (ioc_.stopped()) ioc_.restart();
    return ioc_.run_one() > 0;
  }
  void* io_context() override { return &ioc_; }

 private:
  asio::io_context ioc_{1};
  Scheduler* previous_;
};

}  // namespace

void install_program_loop() {
  if (scheduler().io_context()) return;
  thread_local AsioLoop loop;
}

asio::io_context& loop_context() {
  if (!scheduler().io_context()) install_program_loop();
  return *static_cast<asio::io_context*>(scheduler().io_context());
}

}  // namespace fitz::db
