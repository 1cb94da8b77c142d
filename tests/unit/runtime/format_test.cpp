// Format specs of interpolation holes: every line of conformance interpolation_format.out
// rebuilt from hand-written calls, plus the spec forms that file does not exercise.
#include <gtest/gtest.h>

#include "fitz/runtime.h"

using namespace fitz::literals;
using fitz::format_value;
using fitz::interp;
using fitz::Str;

TEST(Format, InterpolationFormatOut) {
  Str name = "Ada"_s;
  double score = 91.456;
  int64_t count = 42;
  fitz::List<Str> items{"x"_s, "y"_s};
  EXPECT_EQ(interp("hi ", name, ", you have ", count + 1, " points"), "hi Ada, you have 43 points"_s);
  EXPECT_EQ(interp("list: ", items, ", first: ", items.at(0), ", size: ", fitz::len(items)),
            "list: [\"x\", \"y\"], first: x, size: 2"_s);
  EXPECT_EQ(interp("upper: ", name.upper()), "upper: ADA"_s);
  EXPECT_EQ(interp("[", format_value(score, ".2f"), "] [", format_value(score, ".0f"), "] [",
                   format_value(score, "8.1f"), "]"),
            "[91.46] [91] [    91.5]"_s);
  EXPECT_EQ(interp("[", format_value(count, "5"), "] [", format_value(count, "<5"), "] [", format_value(count, "^6"),
                   "] [", format_value(count, "05"), "] [", format_value(count, "+"), "]"),
            "[   42] [42   ] [  42  ] [00042] [+42]"_s);
  EXPECT_EQ(interp("[", format_value(name, "*>6"), "] [", format_value(name, "-<6"), "] [", format_value(name, ".2"),
                   "]"),
            "[***Ada] [Ada---] [Ad]"_s);
  EXPECT_EQ(interp(format_value(255, "x"), " ", format_value(255, "X"), " ", format_value(255, "#x"), " ",
                   format_value(5, "b"), " ", format_value(5, "#b"), " ", format_value(8, "o"), " ",
                   format_value(8, "#o")),
            "ff FF 0xff 101 0b101 10 0o10"_s);
  EXPECT_EQ(interp(format_value(1234567, ","), " ", format_value(0.256, ".1%"), " ", format_value(7, "03d")),
            "1,234,567 25.6% 007"_s);
  EXPECT_EQ(interp("flag=", true, ", none=", fitz::null, ", float=", 2.0), "flag=true, none=null, float=2.0"_s);
  EXPECT_EQ(interp("ana has ", int64_t{7}, " points, ", "x"_s + "y"_s, ", ", int64_t{1}, " key"),
            "ana has 7 points, xy, 1 key"_s);
}

TEST(Format, Alignment) {
  EXPECT_EQ(format_value("ab"_s, "*<5"), "ab***"_s);
  EXPECT_EQ(format_value("ab"_s, "^7"), "  ab   "_s);
  EXPECT_EQ(format_value("ab"_s, "5"), "ab   "_s);  // text aligns left by default
  EXPECT_EQ(format_value(42, ">5"), "   42"_s);
  EXPECT_EQ(format_value(-42, "=6"), "-   42"_s);
  EXPECT_EQ(format_value(-42, "06"), "-00042"_s);
  EXPECT_EQ(format_value(255, "#010x"), "0x000000ff"_s);
  EXPECT_EQ(format_value("é"_s, "·^5"), "··é··"_s);  // multi-byte fill, width in chars
  EXPECT_EQ(format_value("héllo"_s, ".2"), "hé"_s);
  EXPECT_EQ(format_value(true, ">6"), "  true"_s);
}

TEST(Format, SignAndGrouping) {
  EXPECT_EQ(format_value(42, " "), " 42"_s);
  EXPECT_EQ(format_value(-42, "+"), "-42"_s);
  EXPECT_EQ(format_value(3.5, "+.1f"), "+3.5"_s);
  EXPECT_EQ(format_value(1234567.891, ",.2f"), "1,234,567.89"_s);
  EXPECT_EQ(format_value(-1234567, "_"), "-1_234_567"_s);
  EXPECT_EQ(format_value(123, ","), "123"_s);
  EXPECT_EQ(format_value(1000, ",d"), "1,000"_s);
}

TEST(Format, FloatTypes) {
  EXPECT_EQ(format_value(1.2345, ".2f"), "1.23"_s);
  EXPECT_EQ(format_value(42, ".2f"), "42.00"_s);  // Int promotes
  EXPECT_EQ(format_value(2.5, "f"), "2.500000"_s);
  EXPECT_EQ(format_value(3.14159, ".3"), "3.142"_s);  // precision without type: fixed
  EXPECT_EQ(format_value(2.0, ""), "2.0"_s);
  EXPECT_EQ(format_value(1234.5, "e"), "1.234500e3"_s);
  EXPECT_EQ(format_value(0.00012, ".2E"), "1.20E-4"_s);
  EXPECT_EQ(format_value(1234.5, "g"), "1234.5"_s);
  EXPECT_EQ(format_value(0.00001, "g"), "1.00000e-5"_s);
  EXPECT_EQ(format_value(1234567890.0, "g"), "1.23457e9"_s);
  EXPECT_EQ(format_value(1234567890.0, "G"), "1.23457E9"_s);
  EXPECT_EQ(format_value(3.140000, "g"), "3.14"_s);
  EXPECT_EQ(format_value(3.14159265, ".4g"), "3.142"_s);
  EXPECT_EQ(format_value(0.5, "%"), "50.000000%"_s);
  EXPECT_EQ(format_value(__builtin_inf(), ".2f"), "inf"_s);
  EXPECT_EQ(format_value(__builtin_inf(), "F"), "INF"_s);
}

TEST(Format, IntTypes) {
  EXPECT_EQ(format_value(-255, "x"), "-ff"_s);
  EXPECT_EQ(format_value(-5, "#b"), "-0b101"_s);
  EXPECT_EQ(format_value(65, "c"), "A"_s);
  EXPECT_EQ(format_value(0x1F600, "c"), "\xF0\x9F\x98\x80"_s);
  EXPECT_EQ(format_value(42, "s"), "42"_s);
  EXPECT_EQ(format_value(42, "d"), "42"_s);
}

TEST(Format, AnyAndNullable) {
  EXPECT_EQ(format_value(fitz::Any(3.14159), ".2f"), "3.14"_s);
  EXPECT_EQ(format_value(fitz::Any(int64_t{7}), "03"), "007"_s);
  EXPECT_EQ(format_value(fitz::Any("ab"_s), ">4"), "  ab"_s);
  EXPECT_EQ(format_value(fitz::Nullable<int64_t>(), ">5"), " null"_s);
  EXPECT_EQ(format_value(fitz::Nullable<int64_t>(int64_t{5}), "03"), "005"_s);
  EXPECT_EQ(format_value(fitz::List<int64_t>{1, 2}, ">8"), "  [1, 2]"_s);
}

TEST(Format, InvalidSpecsAreRuntimeErrors) {
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([] { format_value(1, "5q"); }, &p));
  EXPECT_EQ(p.message, "invalid format spec `5q`"_s);
  EXPECT_TRUE(fitz::catch_panic([] { format_value("s"_s, ".2f", {"f.fitz", 2, 9}); }, &p));
  EXPECT_EQ(p.message, "format spec `.2f` is not compatible with type Str"_s);
  EXPECT_EQ(p.pos.line, 2u);
  EXPECT_TRUE(fitz::catch_panic([] { format_value(1.5, "x"); }, &p));
  EXPECT_EQ(p.message, "format spec `x` is not compatible with type Float"_s);
  EXPECT_TRUE(fitz::catch_panic([] { format_value(1, "."); }, &p));
  EXPECT_TRUE(fitz::catch_panic([] { format_value(-1, "c"); }, &p));
}
