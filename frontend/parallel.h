// Running independent frontend work (parsing and lowering files) on several threads.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace fitz::frontend {

// Calls work(i) for every i in [0, count), on up to `max_threads` threads (the calling thread
// is one of them; 0 means one per core). Returns when every call has returned. The calls must
// be independent of each other.
void parallel_for(size_t count, const std::function<void(size_t)>& work, unsigned max_threads = 0);

// Items [0, count) worked on ahead by background threads, in order, while the owner goes on.
// wait(i) returns once item i is done, doing it on the calling thread when no thread has taken
// it yet, so the owner never waits for work that has not started, and while another thread has
// it, doing later items no thread has taken instead of sleeping. Each item is done once. The
// destructor hands out no more items and waits for those in progress. Up to `max_threads`
// background threads; 0 means one per core but the owner's, and at least one.
class WorkAhead {
 public:
  WorkAhead(size_t count, std::function<void(size_t)> work, unsigned max_threads = 0);
  ~WorkAhead();
  WorkAhead(const WorkAhead&) = delete;
  WorkAhead& operator=(const WorkAhead&) = delete;
  void wait(size_t i);
  // Item i is needed soon: the next thread to take an item takes it, unless it is taken already.
  // The latest preference goes first, which suits an owner walking a tree depth-first (it
  // prefers a node's children, last child first, then descends into the first).
  void prefer(size_t i);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace fitz::frontend
