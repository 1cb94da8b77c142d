// WorkAhead: every item done exactly once, whoever does it, and wait(i) returns only after item
// i is done, including while a background thread holds it (the owner then does later items).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
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

TEST(WorkAhead, PreferredItemsAreTakenNextLatestFirst) {
  // The one background thread is held in item 0 while the owner prefers 40, then 70; once it
  // lets go, it takes 70, then 40, then 1 (the listed order again). The owner only watches.
  constexpr size_t kItems = 100;
  std::atomic<bool> first_taken{false};
  std::atomic<bool> release{false};
  std::mutex mutex;
  std::vector<size_t> order;
  WorkAhead ahead(kItems, [&](size_t i) {
    {
      std::lock_guard lock(mutex);
      order.push_back(i);
    }
    if (i == 0) {
      first_taken.store(true);
      while (!release.load()) std::this_thread::yield();
    }
  }, 1);
  while (!first_taken.load()) std::this_thread::yield();
  ahead.prefer(40);
  ahead.prefer(70);
  ahead.prefer(70);  // preferring twice takes it once
  release.store(true);
  for (;;) {
    {
      std::lock_guard lock(mutex);
      if (order.size() >= 4) break;
    }
    std::this_thread::yield();
  }
  std::lock_guard lock(mutex);
  EXPECT_EQ(order[0], 0u);
  EXPECT_EQ(order[1], 70u);
  EXPECT_EQ(order[2], 40u);
  EXPECT_EQ(order[3], 1u);
}

TEST(WorkAhead, PreferringADoneItemChangesNothing) {
  std::vector<std::atomic<int>> runs(10);
  WorkAhead ahead(10, [&](size_t i) { runs[i].fetch_add(1); }, 1);
  ahead.wait(2);
  ahead.prefer(2);
  for (size_t i = 0; i < 10; ++i) ahead.wait(i);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(runs[i].load(), 1) << "item " << i;
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
