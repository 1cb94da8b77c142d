// Hand translation of the conformance program interpolation_format.fitz, written the way the
// code generator emits a program. handwritten_test.cpp runs it and compares with the .out file.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::List;
using fitz::Map;
using fitz::Str;
using fitz::format_value;
using fitz::interp;

constexpr const char* kFile = "interpolation_format.fitz";

void top_level() {
  Str name = "Ada"_s;
  double score = 91.456;
  int64_t count = 42;
  List<Str> items{"x"_s, "y"_s};
  fitz::print(interp("hi ", name, ", you have ", fitz::op::add(count, 1, {kFile, 6, 33}), " points"));
  fitz::print(interp("list: ", items, ", first: ", items.at(0, {kFile, 7, 35}), ", size: ", fitz::len(items)));
  fitz::print(interp("upper: ", name.upper()));
  fitz::print(interp("[", format_value(score, ".2f"), "] [", format_value(score, ".0f"), "] [",
                     format_value(score, "8.1f"), "]"));
  fitz::print(interp("[", format_value(count, "5"), "] [", format_value(count, "<5"), "] [",
                     format_value(count, "^6"), "] [", format_value(count, "05"), "] [",
                     format_value(count, "+"), "]"));
  fitz::print(interp("[", format_value(name, "*>6"), "] [", format_value(name, "-<6"), "] [",
                     format_value(name, ".2"), "]"));
  fitz::print(interp(format_value(255, "x"), " ", format_value(255, "X"), " ", format_value(255, "#x"), " ",
                     format_value(5, "b"), " ", format_value(5, "#b"), " ", format_value(8, "o"), " ",
                     format_value(8, "#o")));
  fitz::print(interp(format_value(1234567, ","), " ", format_value(0.256, ".1%"), " ", format_value(7, "03d")));
  bool ok = true;
  fitz::print(interp("flag=", ok, ", none=", fitz::null, ", float=", 2.0));
  Map<Str, int64_t> scores{{"ana"_s, 7}};
  fitz::print(interp("ana has ", scores.at("ana"_s, {kFile, 16, 17}), " points, ", "x"_s + "y"_s, ", ",
                     Map<Str, int64_t>{{"a"_s, 1}}.len(), " key"));
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
