// The Python worker pool: handlers and async code hand their Python work to these threads and
// await it, so event loops never wait for the GIL. One pool per process, like the interpreter
// it serves; its threads start with the first job and live as long as the process.
#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

#include "python/internal.h"

namespace fitz::py {

namespace {

struct Pool {
  std::atomic<int> busy{0};
  std::mutex mu;
  std::condition_variable ready;
  std::deque<std::function<void()>> jobs;

  explicit Pool(unsigned n) {
    for (unsigned i = 0; i < n; ++i) std::thread([this] { work(); }).detach();
  }
  void work() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mu);
        ready.wait(lock, [&] { return !jobs.empty(); });
        job = std::move(jobs.front());
        jobs.pop_front();
        ++busy;
      }
      job();
      --busy;
    }
  }
};

unsigned pool_size() {
  if (const char* v = std::getenv("FITZ_PY_THREADS"); v && *v) {
    long n = std::strtol(v, nullptr, 10);
    if (n > 0 && n <= 1024) return unsigned(n);
  }
  unsigned cores = std::thread::hardware_concurrency();
  return 2 * (cores ? cores : 1);
}

Pool* g_started = nullptr;  // set once the pool exists (read at exit)

Pool& pool() {
  // Never destroyed: detached workers may still be inside a job when the process exits.
  static Pool* p = g_started = new Pool(pool_size());
  return *p;
}

}  // namespace

namespace detail {
bool pool_busy() { return g_started && g_started->busy.load() > 0; }
}  // namespace detail

void submit(std::function<void()> job) {
  Pool& p = pool();
  {
    std::lock_guard lock(p.mu);
    p.jobs.push_back(std::move(job));
  }
  p.ready.notify_one();
}

}  // namespace fitz::py
