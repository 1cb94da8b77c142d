// On LLVM's ThreadPool: its threads start on demand, so a pool asked for two workers on a small
// job costs only the threads that job uses.
#include "frontend/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>

namespace fitz::frontend {

void parallel_for(size_t count, const std::function<void(size_t)>& work, unsigned max_threads) {
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  unsigned threads = std::min<size_t>(count, max_threads ? std::min(max_threads, cores) : cores);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  // Items are taken one at a time from a shared counter: files differ in size by orders of
  // magnitude, so fixed slices would leave threads idle.
  std::atomic<size_t> next{0};
  auto drain = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;) work(i);
  };
  llvm::ThreadPool pool(llvm::hardware_concurrency(threads - 1));
  for (unsigned t = 1; t < threads; ++t) pool.async(drain);
  drain();
  pool.wait();
}

struct WorkAhead::State {
  enum : uint8_t { Free, Taken, Done };
  std::function<void(size_t)> work;
  std::mutex mutex;
  std::condition_variable done;
  std::vector<uint8_t> status;
  size_t next = 0;  // no item before it is Free
  std::vector<size_t> preferred;  // taken first, from the back; may hold items no longer Free
  bool stopping = false;
  std::unique_ptr<llvm::ThreadPool> pool;

  // Takes the latest preferred item still free, else the first free item at or after `next`;
  // false when none is left.
  bool take(size_t& i) {
    std::lock_guard lock(mutex);
    while (!stopping && !preferred.empty()) {
      i = preferred.back();
      preferred.pop_back();
      if (status[i] == Free) {
        status[i] = Taken;
        return true;
      }
    }
    while (next < status.size() && status[next] != Free) ++next;
    if (stopping || next == status.size()) return false;
    i = next;
    status[next++] = Taken;
    return true;
  }
  void finish(size_t i) {
    {
      std::lock_guard lock(mutex);
      status[i] = Done;
    }
    done.notify_all();
  }
  // Does item i, which the caller has taken, and marks it done.
  void run(size_t i) {
    work(i);
    finish(i);
  }
};

WorkAhead::WorkAhead(size_t count, std::function<void(size_t)> work, unsigned max_threads)
    : state_(std::make_unique<State>()) {
  state_->work = std::move(work);
  state_->status.assign(count, State::Free);
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  unsigned threads = std::min<size_t>(count, max_threads ? std::min(max_threads, cores) : std::max(1u, cores - 1));
  if (threads == 0) return;
  state_->pool = std::make_unique<llvm::ThreadPool>(llvm::hardware_concurrency(threads));
  for (unsigned t = 0; t < threads; ++t)
    state_->pool->async([s = state_.get()] {
      for (size_t i; s->take(i);) s->run(i);
    });
}

WorkAhead::~WorkAhead() {
  if (!state_->pool) return;
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->pool->wait();
}

void WorkAhead::prefer(size_t i) {
  std::lock_guard lock(state_->mutex);
  if (state_->status[i] == State::Free) state_->preferred.push_back(i);
}

void WorkAhead::wait(size_t i) {
  State& s = *state_;
  for (;;) {
    std::unique_lock lock(s.mutex);
    if (s.status[i] == State::Done) return;
    if (s.status[i] == State::Free) {
      s.status[i] = State::Taken;
      lock.unlock();
      s.run(i);
      return;
    }
    // Another thread has item i: do a later one meanwhile, and sleep only when none is left.
    lock.unlock();
    size_t j;
    if (!s.take(j)) break;
    s.run(j);
  }
  std::unique_lock lock(s.mutex);
  s.done.wait(lock, [&] { return s.status[i] == State::Done; });
}

}  // namespace fitz::frontend
