// Hand translation of the conformance program str_methods.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with str_methods.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;

void top_level() {
  fitz::Str padded = "  Fitz Roy  "_s;
  fitz::print("["_s + padded.trim() + "]"_s, "["_s + padded.trim_start() + "]"_s,
              "["_s + padded.trim_end() + "]"_s);
  fitz::Str t = "Fitz Roy"_s;
  fitz::print(t.upper(), t.lower(), t.len());
  fitz::print(t.contains("Roy"_s), t.starts_with("Fi"_s), t.ends_with("x"_s));
  fitz::print("a,b,,c"_s.split(","_s));
  fitz::print("abc"_s.split(""_s), "abc"_s.chars());
  fitz::print("one two"_s.replace("o"_s, "0"_s));
  fitz::print("ab"_s.repeat(3), "hi"_s.repeat_with(3, "-"_s));
  fitz::print("7"_s.pad_start(3, "0"_s), "7"_s.pad_end(3, "."_s), "mid"_s.center(7, "*"_s));
  fitz::print("hello"_s.left(2), "hello"_s.right(3));
  fitz::print("hello world"_s.title(), "MiXeD"_s.swap_case());
  fitz::print("line1\nline2"_s.lines());
  fitz::print("12"_s.is_digit(), "ab"_s.is_alpha(), ""_s.is_empty(), "x"_s.is_empty());
  fitz::print("banana"_s.find("an"_s), "banana"_s.last_index_of("an"_s));
  fitz::print("key=value"_s.split_at(3));
  fitz::print("abc"_s + "def"_s, fitz::op::lt("abc"_s, "abd"_s));
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
