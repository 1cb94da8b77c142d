// Hand translation of the conformance program list_methods.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with list_methods.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::List;

constexpr const char* kFile = "list_methods.fitz";

void top_level() {
  List<int64_t> nums{5, 3, 8, 1, 9, 2};
  fitz::print(nums.map([](int64_t n) -> int64_t { return fitz::op::mul(n, 10, {kFile, 3, 30}); }));
  fitz::print(nums.filter([](int64_t n) -> bool { return n > 4; }));
  fitz::print(nums.reduce(int64_t{0}, [](int64_t acc, int64_t n) -> int64_t {
    return fitz::op::add(acc, n, {kFile, 5, 41});
  }));
  fitz::print(nums.sum({kFile, 6, 11}), nums.product({kFile, 6, 23}), nums.len());
  fitz::print(nums.any([](int64_t n) { return n > 8; }), nums.all([](int64_t n) { return n > 1; }));
  fitz::print(nums.count([](int64_t n) { return fitz::op::mod(n, 2, {kFile, 8, 33}) == 0; }));
  fitz::print(nums.find([](int64_t n) { return n > 5; }), nums.find_index([](int64_t n) { return n == 1; }));
  fitz::print(nums.first(), nums.last(), nums.min(), nums.max());
  fitz::print(nums.take(2), nums.drop(4));
  fitz::print(nums.enumerate().take(2));
  fitz::print(nums.zip(List<fitz::Str>{"a"_s, "b"_s}));
  fitz::print(List<int64_t>{1, 2}.chain(List<int64_t>{3}),
              List<List<int64_t>>{List<int64_t>{1}, List<int64_t>{2, 3}, List<int64_t>{}}.flatten());
  fitz::print(List<int64_t>{3, 1, 3, 2, 1}.unique());
  fitz::print(nums.partition([](int64_t n) { return n < 4; }));
  List<int64_t> sorted{4, 2, 7};
  sorted.sort();
  fitz::print(sorted);
  sorted.reverse();
  fitz::print(sorted);
  List<fitz::Str> names{"Zoe"_s, "al"_s, "Beatrix"_s};
  names.sort_by([](const fitz::Str& a, const fitz::Str& b) -> int64_t {
    return fitz::op::sub(a.len(), b.len(), {kFile, 22, 35});
  });
  fitz::print(names);
  fitz::print(nums);
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
