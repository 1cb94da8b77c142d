// Hand translation of the conformance program maps_basics.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with maps_basics.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::Any;
using fitz::Map;
using fitz::Str;

constexpr const char* kFile = "maps_basics.fitz";

void top_level() {
  Map<Str, int64_t> stock{{"apple"_s, 3}, {"pear"_s, 0}};
  fitz::print(stock);
  stock.set("fig"_s, 7);
  stock.set("apple"_s, 5);
  fitz::print(stock);
  fitz::print(stock.at("fig"_s, {kFile, 6, 7}), fitz::len(stock));
  fitz::print(stock.has("pear"_s), stock.has("kiwi"_s));
  fitz::print(stock.keys());
  fitz::print(stock.values());
  for (auto [fruit, qty] : stock) {
    fitz::print(fitz::interp(fruit, "=", qty));
  }
  int64_t total = 0;
  for (auto [_, amount] : stock) {
    total = fitz::op::add(total, amount, {kFile, 15, 5});
  }
  fitz::print(fitz::interp("total ", total));
  Map<int64_t, Str> codes{{404, "not found"_s}, {200, "ok"_s}};
  fitz::print(codes.at(200, {kFile, 19, 7}), codes);
  {
    fitz::Result<int64_t, Str> m = stock.get("pear"_s);
    if (m.is_ok()) {
      int64_t n = m.value();
      fitz::print(fitz::interp("pear count ", n));
    } else {
      fitz::print("no pear"_s);
    }
  }
  {
    fitz::Result<int64_t, Str> m = stock.get("plum"_s);
    if (m.is_ok()) {
      int64_t n = m.value();
      fitz::print(fitz::interp("plum count ", n));
    } else {
      fitz::print("no plum"_s);
    }
  }
  Str key = "pear"_s;
  Map<Str, int64_t> dynamic{{key, 1}};
  fitz::print(dynamic);
  fitz::print(fitz::eq(Map<Any, Any>{}, Map<Any, Any>{}),
              fitz::eq(Map<Str, int64_t>{{"a"_s, 1}}, Map<Str, int64_t>{{"a"_s, 1}}));
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
