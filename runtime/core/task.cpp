// The built-in single-threaded event loop (ready queue + timer heap), `sleep`, `block_on`
// support and `drain`. One loop per thread; another Scheduler can replace it.
#include <time.h>

#include <algorithm>
#include <deque>

#include "fitz/runtime.h"

namespace fitz {

Scheduler::~Scheduler() = default;

namespace {

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

class LocalLoop final : public Scheduler {
 public:
  void post(std::coroutine_handle<> h) override { ready_.push_back(h); }

  void post_after(int64_t ms, std::coroutine_handle<> h) override {
    if (ms <= 0) {
      ready_.push_back(h);
      return;
    }
    timers_.push_back(Timer{now_ns() + ms * 1000000, seq_++, h});
    std::push_heap(timers_.begin(), timers_.end(), later);
  }

  bool run_one() override {
    if (ready_.empty() && !timers_.empty()) {
      int64_t wait = timers_.front().deadline - now_ns();
      if (wait > 0) {
        flush_stdout();  // about to block: let the user see what was printed so far
        timespec ts{time_t(wait / 1000000000), long(wait % 1000000000)};
        while (nanosleep(&ts, &ts) != 0) {
        }
      }
      move_due_timers();
    }
    if (ready_.empty()) return !timers_.empty();
    std::coroutine_handle<> h = ready_.front();
    ready_.pop_front();
    h.resume();
    return true;
  }

 private:
  struct Timer {
    int64_t deadline;
    uint64_t seq;  // FIFO among equal deadlines
    std::coroutine_handle<> h;
  };
  static bool later(const Timer& a, const Timer& b) {
    return a.deadline != b.deadline ? a.deadline > b.deadline : a.seq > b.seq;
  }
  void move_due_timers() {
    int64_t now = now_ns();
    while (!timers_.empty() && timers_.front().deadline <= now) {
      std::pop_heap(timers_.begin(), timers_.end(), later);
      ready_.push_back(timers_.back().h);
      timers_.pop_back();
    }
  }

  std::deque<std::coroutine_handle<>> ready_;
  std::vector<Timer> timers_;
  uint64_t seq_ = 0;
};

thread_local LocalLoop g_loop;
thread_local Scheduler* g_current = nullptr;

}  // namespace

Scheduler& scheduler() { return g_current ? *g_current : g_loop; }

Scheduler* set_scheduler(Scheduler* s) {
  Scheduler* prev = g_current;
  g_current = s;
  return prev;
}

Task<Null> sleep(int64_t ms) {
  co_await detail::TimerAwait{ms};
  co_return Null{};
}

void drain() {
  detail::raise_pending_panic();
  while (scheduler().run_one()) detail::raise_pending_panic();
}

namespace detail {

namespace {
thread_local Panic* g_pending = nullptr;
}

void PromiseBase::unhandled_exception() {
  try {
    throw;
  } catch (Panic& p) {
    panic = new Panic(static_cast<Panic&&>(p));
  }
}

void report_unobserved(Panic&& p) noexcept {
  if (!g_pending) g_pending = new Panic(static_cast<Panic&&>(p));
}

void raise_pending_panic() {
  if (Panic* p = g_pending) {
    g_pending = nullptr;
    Panic copy = static_cast<Panic&&>(*p);
    delete p;
    raise_panic(static_cast<Panic&&>(copy));
  }
}

void run_until_done(const bool* done, SourcePos pos) {
  raise_pending_panic();
  while (!*done) {
    if (!scheduler().run_one())
      runtime_error(pos, "deadlock: awaited a future that can never complete");
    raise_pending_panic();
  }
}

}  // namespace detail
}  // namespace fitz
