// Retry policies: the delay before each retry, the caps, and the retry= map.
#include <gtest/gtest.h>

#include "fitz/jobs.h"

namespace fitz::jobs {
namespace {

std::vector<int64_t> delays(const RetryPolicy& p, int n) {
  std::vector<int64_t> out;
  for (int i = 1; i <= n; ++i) out.push_back(p.delay_secs(i));
  return out;
}

using V = std::vector<int64_t>;

TEST(Retry, Exponential) {
  RetryPolicy p{3, Backoff::Exponential, 5, 300};
  EXPECT_EQ(delays(p, 8), (V{5, 10, 20, 40, 80, 160, 300, 300}));
  // Huge attempts saturate at the cap instead of overflowing.
  EXPECT_EQ(p.delay_secs(200), 300);
}

TEST(Retry, LinearAndConstant) {
  EXPECT_EQ(delays(RetryPolicy{3, Backoff::Linear, 5, 12}, 4), (V{5, 10, 12, 12}));
  EXPECT_EQ(delays(RetryPolicy{3, Backoff::Constant, 7, 60}, 3), (V{7, 7, 7}));
}

TEST(Retry, Defaults) {
  RetryPolicy p;
  EXPECT_EQ(p.max, 0);
  EXPECT_EQ(delays(p, 8), (V{1, 2, 4, 8, 16, 32, 60, 60}));
}

TEST(Retry, FromMap) {
  Map<Str, Any> m;
  m.set(Str::lit("max"), Any(int64_t(3)));
  m.set(Str::lit("backoff"), Any(Str::lit("linear")));
  m.set(Str::lit("initial_secs"), Any(int64_t(2)));
  auto r = retry_from_any(to_any(m));
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r.value().max, 3);
  EXPECT_EQ(r.value().backoff, Backoff::Linear);
  EXPECT_EQ(r.value().initial_secs, 2);
  EXPECT_EQ(r.value().max_secs, 60);
  EXPECT_TRUE(retry_from_any(Any()).is_ok());
  m.set(Str::lit("backoff"), Any(Str::lit("sometimes")));
  auto bad = retry_from_any(to_any(m));
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.error().as<std::string>().find("exponential"), std::string::npos);
  Map<Str, Any> neg;
  neg.set(Str::lit("max"), Any(int64_t(-1)));
  EXPECT_FALSE(retry_from_any(to_any(neg)).is_ok());
  EXPECT_FALSE(retry_from_any(Any(int64_t(3))).is_ok());
}

TEST(Outcome, ErrValuesAreFailures) {
  EXPECT_TRUE(outcome_of(Null{}).ok);
  auto ok = outcome_of(Result<Null, Str>::ok(Null{}));
  EXPECT_TRUE(ok.ok);
  auto err = outcome_of(Result<Null, Str>::err(Str::lit("boom")));
  EXPECT_FALSE(err.ok);
  EXPECT_EQ(err.error, "boom");
}

}  // namespace
}  // namespace fitz::jobs
