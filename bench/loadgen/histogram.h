// A log-linear latency histogram in the manner of HdrHistogram: exact below 128 ns, then 64
// sub-buckets per power of two (relative error under 1.6%), a fixed array, O(1) record and a
// cheap merge, so every connection thread keeps its own and they are summed at the end.
#pragma once

#include <array>
#include <cstdint>

namespace fitz::loadgen {

class Histogram {
 public:
  static constexpr int kSubBits = 7;                    // 128 sub-buckets, 64 per octave above
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kHalf = kSub / 2;
  static constexpr int kBuckets = kSub + (64 - kSubBits) * kHalf;

  void record(uint64_t ns);
  void merge(const Histogram& other);

  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }
  // The value at quantile q in [0, 1] (the upper edge of its bucket, capped by the maximum
  // recorded: never reports less than the true percentile).
  uint64_t percentile(double q) const;

  static int index_of(uint64_t v);
  static uint64_t upper_of(int index);

 private:
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
  uint64_t min_ = UINT64_MAX;
};

}  // namespace fitz::loadgen
