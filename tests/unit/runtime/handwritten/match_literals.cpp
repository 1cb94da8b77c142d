// Hand translation of the conformance program match_literals.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with match_literals.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::Any;
using fitz::List;
using fitz::Null;
using fitz::Str;

Str describe(int64_t code) {
  if (code == 200) return "ok"_s;
  if (code == 404) return "missing"_s;
  if (code == -1) return "invalid"_s;
  int64_t other = code;
  return fitz::interp("code ", other);
}

// `fn classify(value)`: an unannotated parameter is Any; literal patterns compare with `==`.
Null classify(Any value) {
  if (fitz::eq(value, true)) {
    fitz::print("on"_s);
  } else if (fitz::eq(value, false)) {
    fitz::print("off"_s);
  } else if (fitz::eq(value, fitz::null)) {
    fitz::print("unset"_s);
  } else if (fitz::eq(value, "auto"_s)) {
    fitz::print("automatic"_s);
  } else if (fitz::eq(value, 2.5)) {
    fitz::print("two and a half"_s);
  } else {
    fitz::print("other"_s);
  }
  return fitz::null;
}

void top_level() {
  fitz::print(describe(200), describe(404), describe(-1), describe(503));
  classify(Any(true));
  classify(Any());
  classify(Any("auto"_s));
  classify(Any(2.5));
  classify(Any(false));
  classify(fitz::to_any(List<int64_t>{1}));
  Str scrutinee = "medium"_s;
  int64_t size = fitz::eq(scrutinee, "small"_s) ? 1 : fitz::eq(scrutinee, "medium"_s) ? 2 : 3;
  fitz::print(size);
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
