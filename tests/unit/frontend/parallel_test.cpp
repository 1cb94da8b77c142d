// WorkAhead: every item done exactly once, whoever does it, and wait(i) returns only after item
// i is done, including while a background thread holds it (the owner then does later items).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "frontend/parallel.h"

namespace fitz::frontend {
namespace {

TEST(WorkAhead, EveryItemOnceAndDoneWhenWaitReturns) {
  constexpr size_t kItems = 200;
  std::vector<std::atomic<int>> runs(kItems);
  std::vector<std::atomic<bool>> finished(kItems);
  WorkAhead ahead(kItems, [&](size_t i) {
    runs[i].fetch_add(1);
    // Uneven items, so that the owner meets items in progress as well as untaken ones.
    if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    finished[i].store(true);
  }, 2);
  for (size_t i = 0; i < kItems; ++i) {
    ahead.wait(i);
    ASSERT_TRUE(finished[i].load()) << "item " << i;
  }
  for (size_t i = 0; i < kItems; ++i) EXPECT_EQ(runs[i].load(), 1) << "item " << i;
}

TEST(WorkAhead, OwnerDoesLaterItemsWhileItsItemIsInProgress) {
  // Item 0 blocks until item 1 has run. With one background thread holding item 0, wait(0) can
  // only return if the owner does item 1 itself instead of sleeping.
  std::atomic<bool> second{false};
  std::atomic<bool> first_taken{false};
  WorkAhead ahead(2, [&](size_t i) {
    if (i == 0) {
      first_taken.store(true);
      while (!second.load()) std::this_thread::yield();
    } else {
      second.store(true);
    }
  }, 1);
  while (!first_taken.load()) std::this_thread::yield();
  ahead.wait(0);
  EXPECT_TRUE(second.load());
  ahead.wait(1);
}

TEST(WorkAhead, NoItemsAndDestructionWithItemsLeft) {
  { WorkAhead none(0, [](size_t) { FAIL() << "no item to do"; }); }
  std::atomic<int> runs{0};
  {
    WorkAhead some(50, [&](size_t) { runs.fetch_add(1); }, 1);
    some.wait(3);
    EXPECT_GE(runs.load(), 1);
  }
  EXPECT_LE(runs.load(), 50);  // the destructor hands out no more items but loses none in progress
}

}  // namespace
}  // namespace fitz::frontend
