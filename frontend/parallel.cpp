// On LLVM's ThreadPool: its threads start on demand, so a pool asked for two workers on a small
// job costs only the threads that job uses.
#include "frontend/parallel.h"

#include <algorithm>
#include <atomic>

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

}  // namespace fitz::frontend
