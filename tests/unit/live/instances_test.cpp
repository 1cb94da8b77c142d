// The per-connection instance table (§1.5), revisions and the event rate limiter (§2.6).
#include <gtest/gtest.h>

#include "fitz/live/instances.h"

namespace fitz::live {
namespace {

TEST(LiveInstances, SameIdentitySameNumber) {
  InstanceTable t;
  uint32_t root = t.root("fz-1");
  ASSERT_NE(root, 0u);
  t.begin_render(root);
  uint32_t a = t.child(root, 0);
  uint32_t row7 = t.child(root, 2, Key::integer(7));
  uint32_t row8 = t.child(root, 2, Key::integer(8));
  EXPECT_TRUE(t.end_render(root).empty());
  EXPECT_NE(a, row7);
  EXPECT_NE(row7, row8);
  // Next render, rows swapped: same numbers, nothing unmounted.
  t.begin_render(root);
  EXPECT_EQ(t.child(root, 2, Key::integer(8)), row8);
  EXPECT_EQ(t.child(root, 2, Key::integer(7)), row7);
  EXPECT_EQ(t.child(root, 0), a);
  EXPECT_TRUE(t.end_render(root).empty());
  EXPECT_EQ(t.root("fz-1"), root);
}

TEST(LiveInstances, VanishedInstancesUnmountDeepestFirst) {
  InstanceTable t;
  uint32_t root = t.root("fz-1");
  t.begin_render(root);
  uint32_t row = t.child(root, 1, Key::str("a"));
  uint32_t inner = t.child(row, 0);
  uint32_t keep = t.child(root, 0);
  t.end_render(root);
  t.begin_render(root);
  EXPECT_EQ(t.child(root, 0), keep);
  std::vector<uint32_t> gone = t.end_render(root);
  EXPECT_EQ(gone, (std::vector<uint32_t>{inner, row}));
  EXPECT_FALSE(t.contains(row));
  EXPECT_FALSE(t.contains(inner));
  EXPECT_TRUE(t.contains(keep));
  // Back again: a new instance with a new number (its state was dropped with `on unmount`).
  t.begin_render(root);
  uint32_t again = t.child(root, 1, Key::str("a"));
  EXPECT_NE(again, row);
  EXPECT_FALSE(t.contains(row));
}

TEST(LiveInstances, KeyKindAndPositionArePartOfIdentity) {
  InstanceTable t;
  uint32_t root = t.root("fz-1");
  EXPECT_NE(t.child(root, 0, Key::integer(1)), t.child(root, 0, Key::str("1")));
  EXPECT_NE(t.child(root, 0), t.child(root, 1));
  EXPECT_NE(t.child(root, 0, Key::integer(1)), t.child(root, 1, Key::integer(1)));
  EXPECT_EQ(t.identity(t.child(root, 3, Key::str("x"))).value(), "fz-1/3#s:x");
}

TEST(LiveInstances, NumbersResolveOnlyOnTheirConnection) {
  InstanceTable conn_a, conn_b;
  uint32_t ra = conn_a.root("fz-1");
  uint32_t ca = conn_a.child(ra, 0);
  uint32_t cb0 = conn_b.root("fz-1");
  (void)cb0;
  // A forged number from another connection, or one never handed out, resolves to nothing.
  EXPECT_FALSE(conn_b.contains(ca));
  EXPECT_FALSE(conn_a.contains(0));
  EXPECT_FALSE(conn_a.contains(999));
  EXPECT_FALSE(conn_a.identity(999).has_value());
  EXPECT_EQ(conn_a.child(999, 0), 0u);  // unknown parent
}

TEST(LiveInstances, RootsAreSeparate) {
  InstanceTable t;
  uint32_t r1 = t.root("fz-1"), r2 = t.root("fz-2");
  t.begin_render(r1);
  uint32_t c1 = t.child(r1, 0);
  t.end_render(r1);
  t.begin_render(r2);
  uint32_t c2 = t.child(r2, 0);
  t.end_render(r2);
  // Rendering root 2 without c1 must not unmount root 1's children.
  EXPECT_TRUE(t.contains(c1));
  EXPECT_EQ(t.root_of(c1).value(), r1);
  EXPECT_EQ(t.root_of(c2).value(), r2);
  std::vector<uint32_t> dropped = t.drop_root(r1);
  EXPECT_EQ(dropped, (std::vector<uint32_t>{c1, r1}));
  EXPECT_FALSE(t.contains(r1));
  EXPECT_TRUE(t.contains(c2));
  EXPECT_TRUE(t.drop_root(r1).empty());
}

TEST(LiveInstances, Capacity) {
  InstanceTable t(3);
  uint32_t root = t.root("fz-1");
  EXPECT_NE(t.child(root, 0), 0u);
  EXPECT_NE(t.child(root, 1), 0u);
  EXPECT_EQ(t.child(root, 2), 0u);
  EXPECT_NE(t.child(root, 0), 0u);  // existing identities still resolve
  EXPECT_EQ(t.size(), 3u);
}

TEST(LiveRevision, CountsFrames) {
  Revision r;
  EXPECT_EQ(r.current(), 0u);
  EXPECT_EQ(r.next(), 1u);
  EXPECT_EQ(r.next(), 2u);
  EXPECT_EQ(r.current(), 2u);
}

TEST(LiveRateLimiter, SustainedRateOverFiftyTrips) {
  RateLimiter rl;  // 50/s, burst 100
  int64_t t = 0;
  // 100 events per second: the burst absorbs the first, then it trips within ~2 s.
  bool tripped = false;
  for (int i = 0; i < 400 && !tripped; ++i, t += 10) tripped = !rl.allow(t);
  EXPECT_TRUE(tripped);
  EXPECT_GT(t, 1000);
}

TEST(LiveRateLimiter, FiftyPerSecondForeverIsFine) {
  RateLimiter rl;
  for (int64_t i = 0, t = 0; i < 10000; ++i, t += 20) ASSERT_TRUE(rl.allow(t)) << i;
}

TEST(LiveRateLimiter, BurstsThenRecovers) {
  RateLimiter rl;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(rl.allow(0));
  EXPECT_FALSE(rl.allow(0));
  EXPECT_TRUE(rl.allow(1000));  // 50 tokens back after a second
  // Time going backwards (another clock) never adds tokens.
  RateLimiter r2(50, 1);
  EXPECT_TRUE(r2.allow(1000));
  EXPECT_FALSE(r2.allow(0));
}

}  // namespace
}  // namespace fitz::live
