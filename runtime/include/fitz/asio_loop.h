// The Asio-driven scheduler for program threads that do I/O (the `db`, `http` and `smtp`
// modules). The built-in loop of the core runtime has no I/O, so a plain program that uses one
// of them runs its tasks on an io_context instead: socket completions and timers resume
// coroutines on the same thread, and `block_on`/`drain` keep their meaning (run until done;
// idle when no task or I/O is pending). HTTP workers already run such a scheduler and keep it.
// For the runtime's I/O libraries; generated programs never include this header (it pulls Asio).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>

#include "fitz/runtime.h"

namespace fitz {

namespace detail {

class AsioProgramLoop final : public Scheduler {
 public:
  AsioProgramLoop() : previous_(set_scheduler(this)) {}
  ~AsioProgramLoop() override {
    if (&scheduler() == this) set_scheduler(previous_);
  }
  void post(std::coroutine_handle<> h) override {
    boost::asio::post(ioc_, [h] { h.resume(); });
  }
  void post_after(int64_t ms, std::coroutine_handle<> h) override {
    if (ms <= 0) return post(h);
    auto timer = std::make_shared<boost::asio::steady_timer>(ioc_, std::chrono::milliseconds(ms));
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
  boost::asio::io_context ioc_{1};
  Scheduler* previous_;
};

}  // namespace detail

// The io_context of this thread's scheduler; on a thread whose scheduler has none, installs an
// AsioProgramLoop first. Inline with one thread_local for the whole program, so the database
// and the outbound clients share one loop whichever is used first.
inline boost::asio::io_context& program_io_context() {
  if (!scheduler().io_context()) {
    thread_local detail::AsioProgramLoop loop;
  }
  return *static_cast<boost::asio::io_context*>(scheduler().io_context());
}

}  // namespace fitz
