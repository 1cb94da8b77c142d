// Hand translation of the conformance program closures.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with closures.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::Any;
using fitz::Fn;
using fitz::List;
using fitz::Null;
using fitz::Str;

constexpr const char* kFile = "closures.fitz";

// Module-level variables: functions read them when they run.
Fn<int64_t(int64_t)> add5, add10, square;
int64_t rate;
List<Any> journal{fitz::uninit};
Fn<Null(Str)> warn;
Fn<int64_t(Fn<int64_t(int64_t)>, int64_t)> apply_twice;

Fn<int64_t(int64_t)> make_adder(int64_t k) {
  return [k](int64_t x) -> int64_t { return fitz::op::add(x, k, {kFile, 3, 25}); };
}

int64_t scaled(int64_t n) { return fitz::op::mul(n, rate, {kFile, 9, 32}); }

Fn<Null(Str)> make_logger(Str prefix) {
  return [prefix](Str msg) -> Null { return journal.push(fitz::to_any(fitz::interp(prefix, ": ", msg))); };
}

void top_level() {
  add5 = make_adder(5);
  add10 = make_adder(10);
  fitz::print(add5(1), add10(1), add5(add10(0)));
  rate = 2;
  fitz::print(scaled(10));
  rate = 3;
  fitz::print(scaled(10));
  journal = List<Any>{};
  warn = make_logger("warn"_s);
  warn("disk"_s);
  warn("cpu"_s);
  fitz::print(journal);
  square = [](int64_t n) -> int64_t { return fitz::op::mul(n, n, {kFile, 21, 24}); };
  fitz::print(square(9));
  apply_twice = [](Fn<int64_t(int64_t)> f, int64_t v) -> int64_t { return f(f(v)); };
  fitz::print(apply_twice(square, 3));
  fitz::print(Fn<int64_t(int64_t, int64_t)>([](int64_t a, int64_t b) -> int64_t {
    return fitz::op::sub(a, b, {kFile, 27, 33});
  })(10, 4));
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
