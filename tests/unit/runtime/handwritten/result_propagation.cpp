// Hand translation of the conformance program result_propagation.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with the .out file.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::Any;
using fitz::List;
using fitz::Result;
using fitz::Str;

constexpr const char* kFile = "result_propagation.fitz";

Result<int64_t, Str> digit_value(Str ch) {
  List<Str> digits{"0"_s, "1"_s, "2"_s, "3"_s, "4"_s, "5"_s, "6"_s, "7"_s, "8"_s, "9"_s};
  for (auto [i, d] : digits.enumerate()) {
    if (fitz::eq(d, ch)) {
      return fitz::Ok(i);
    }
  }
  return fitz::Err(fitz::interp("bad char ", ch));
}

Result<int64_t, Str> parse_age(Str text) {
  if (text.is_empty()) {
    return fitz::Err("empty input"_s);
  }
  int64_t value = 0;
  for (Str ch : text.chars()) {
    value = fitz::op::add(fitz::op::mul(value, 10, {kFile, 17, 17}),
                          FITZ_TRY(digit_value(ch)), {kFile, 17, 17});
  }
  if (value > 150) {
    return fitz::Err(fitz::interp("unrealistic age ", value));
  }
  return fitz::Ok(value);
}

Str describe(Str text) {
  Result<int64_t, Str> scrutinee = parse_age(text);
  if (scrutinee.is_ok()) {
    int64_t age = scrutinee.value();
    return fitz::interp("age ", age);
  }
  Str e = scrutinee.error();
  return fitz::interp("error: ", e);
}

Result<int64_t, Str> sum_ages(Str a, Str b) {
  int64_t x = FITZ_TRY(parse_age(a));
  int64_t y = FITZ_TRY(parse_age(b));
  return fitz::Ok(fitz::op::add(x, y, {kFile, 34, 15}));
}

void top_level() {
  for (Str input : List<Str>{"42"_s, ""_s, "4x"_s, "200"_s}) {
    fitz::print(describe(input));
  }
  fitz::print(sum_ages("30"_s, "12"_s));
  fitz::print(sum_ages("30"_s, "q1"_s));
  fitz::print(fitz::eq(Result<int64_t, Any>(fitz::Ok(int64_t{1})), Result<int64_t, Any>(fitz::Ok(int64_t{1}))),
              fitz::eq(Result<int64_t, Any>(fitz::Ok(int64_t{1})), Result<Any, int64_t>(fitz::Err(int64_t{1}))));
  Result<Any, int64_t> failure = fitz::Err(int64_t{404});
  fitz::print(failure);
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
