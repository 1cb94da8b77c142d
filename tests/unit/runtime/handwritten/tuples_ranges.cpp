// Hand translation of the conformance program tuples_ranges.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with tuples_ranges.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::List;
using fitz::Range;
using fitz::Str;

constexpr const char* kFile = "tuples_ranges.fitz";

std::tuple<int64_t, int64_t> min_max(List<int64_t> xs) {
  int64_t lo = xs.at(0, {kFile, 11, 14});
  int64_t hi = xs.at(0, {kFile, 12, 14});
  for (int64_t x : xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return {lo, hi};
}

void top_level() {
  std::tuple<int64_t, Str, bool> point{3, "north"_s, true};
  fitz::print(point);
  fitz::print(std::get<0>(point), std::get<1>(point), std::get<2>(point));
  std::tuple<std::tuple<int64_t, int64_t>, std::tuple<int64_t, int64_t>> nested{{1, 2}, {3, 4}};
  fitz::print(std::get<0>(std::get<1>(nested)));
  std::tuple<int64_t> single{7};
  fitz::print(single, std::tuple<>{});
  auto [low, high] = min_max(List<int64_t>{4, 9, 1, 7});
  fitz::print(low, high);
  auto [first, _, third] = std::tuple<int64_t, int64_t, int64_t>{10, 20, 30};
  fitz::print(fitz::op::add(first, third, {kFile, 22, 7}));
  fitz::print(fitz::eq(std::tuple<int64_t, int64_t>{1, 2}, std::tuple<int64_t, int64_t>{1, 2}),
              fitz::eq(std::tuple<int64_t, int64_t>{1, 2}, std::tuple<int64_t, int64_t>{2, 1}));
  Range span(2, 6);
  List<int64_t> comp;
  for (int64_t k : span) comp.push(k);
  fitz::print(fitz::len(span), comp);
  fitz::print(fitz::len(Range(1, 4, true)), fitz::len(Range(5, 2)));
  List<int64_t> tens;
  for (int64_t k : Range(0, 3, true)) tens.push(fitz::op::mul(k, 10, {kFile, 29, 15}));
  fitz::print(tens);
  fitz::print(Range(0, 10).step_by(3, {kFile, 31, 15}));
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
