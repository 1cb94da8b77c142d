#include "histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace fitz::loadgen {

int Histogram::index_of(uint64_t v) {
  if (v < kSub) return static_cast<int>(v);
  int msb = 63 - std::countl_zero(v);
  int shift = msb - (kSubBits - 1);  // v >> shift lands in [kHalf, kSub)
  auto sub = static_cast<int>(v >> shift);
  return kSub + (shift - 1) * kHalf + (sub - kHalf);
}

uint64_t Histogram::upper_of(int index) {
  if (index < kSub) return static_cast<uint64_t>(index);
  int j = index - kSub;
  int shift = j / kHalf + 1;
  auto sub = static_cast<uint64_t>(j % kHalf + kHalf);
  return ((sub + 1) << shift) - 1;
}

void Histogram::record(uint64_t ns) {
  ++counts_[static_cast<size_t>(index_of(ns))];
  ++count_;
  sum_ += ns;
  max_ = std::max(max_, ns);
  min_ = std::min(min_, ns);
}

void Histogram::merge(const Histogram& other) {
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
  min_ = std::min(min_, other.min_);
}

uint64_t Histogram::percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::max<uint64_t>(rank, 1);
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::min(upper_of(static_cast<int>(i)), max_);
  }
  return max_;
}

}  // namespace fitz::loadgen
