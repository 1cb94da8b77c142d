// Running independent frontend work (parsing and lowering files) on several threads.
#pragma once

#include <cstddef>
#include <functional>

namespace fitz::frontend {

// Calls work(i) for every i in [0, count), on up to `max_threads` threads (the calling thread
// is one of them; 0 means one per core). Returns when every call has returned. The calls must
// be independent of each other.
void parallel_for(size_t count, const std::function<void(size_t)>& work, unsigned max_threads = 0);

}  // namespace fitz::frontend
