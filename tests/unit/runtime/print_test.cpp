// Display forms of every value kind, checked against lines of the conformance .out files.
#include <gtest/gtest.h>

#include <string>

#include "fitz/runtime.h"

using namespace fitz::literals;
using fitz::Any;
using fitz::List;
using fitz::Map;
using fitz::Nullable;
using fitz::Result;
using fitz::Str;

namespace {

template <class... A> std::string printed(const A&... a) {
  fitz::OutputCapture cap;
  fitz::print(a...);
  return cap.take().as<std::string>();
}

struct User {
  static constexpr const char* fitz_name = "User";
  static constexpr const char* fitz_field_names[] = {"id", "name"};
  int64_t id = 0;
  Str name;
  auto fitz_fields() const { return std::tie(id, name); }
  auto fitz_fields() { return std::tie(id, name); }
};

struct Empty {
  static constexpr const char* fitz_name = "Empty";
  auto fitz_fields() const { return std::tie(); }
  auto fitz_fields() { return std::tie(); }
};

}  // namespace

TEST(Print, Scalars) {
  EXPECT_EQ(printed(int64_t{12}, int64_t{42}), "12 42\n");
  EXPECT_EQ(printed(int64_t{-16}, int64_t{7}), "-16 7\n");
  EXPECT_EQ(printed(int64_t{9223372036854775807}), "9223372036854775807\n");
  EXPECT_EQ(printed(INT64_MIN), "-9223372036854775808\n");
  EXPECT_EQ(printed(true, false), "true false\n");
  EXPECT_EQ(printed(fitz::null, fitz::null), "null null\n");
  EXPECT_EQ(printed("busy"_s), "busy\n");
  EXPECT_EQ(printed(), "\n");
}

TEST(Print, Floats) {
  // int_float_promotion.out, literals_numbers.out
  EXPECT_EQ(printed(2.0, 4.0), "2.0 4.0\n");
  EXPECT_EQ(printed(3.5, 2.5), "3.5 2.5\n");
  EXPECT_EQ(printed(1.5, -1.5), "1.5 -1.5\n");
  EXPECT_EQ(printed(10 / 3.0), "3.3333333333333335\n");
  EXPECT_EQ(printed(0.1 + 0.2), "0.30000000000000004\n");
  EXPECT_EQ(printed((21.5 + 19.0 + 0.25) / 3), "13.583333333333334\n");
  EXPECT_EQ(printed(3.0, 2.50, 0.5 + 0.25), "3.0 2.5 0.75\n");
  EXPECT_EQ(printed(1e3, 1.5E2, 2.5e-1), "1000.0 150.0 0.25\n");
  // Never an exponent; integral values keep `.0`.
  EXPECT_EQ(printed(1e20), "100000000000000000000.0\n");
  EXPECT_EQ(printed(1e-7), "0.0000001\n");
  EXPECT_EQ(printed(-0.0), "-0.0\n");
  EXPECT_EQ(printed(123456789.125, 0.1, 2.5e-8), "123456789.125 0.1 0.000000025\n");
  EXPECT_EQ(printed(__builtin_nan(""), __builtin_inf(), -__builtin_inf()), "NaN inf -inf\n");
}

TEST(Print, Lists) {
  EXPECT_EQ(printed(List<int64_t>{2, 3, 5, 7}, int64_t{4}), "[2, 3, 5, 7] 4\n");
  EXPECT_EQ(printed(List<Str>{"ant"_s, "bee"_s, "cat"_s}), "[\"ant\", \"bee\", \"cat\"]\n");
  EXPECT_EQ(printed(List<List<int64_t>>{{1, 2}, {30, 4}}), "[[1, 2], [30, 4]]\n");
  EXPECT_EQ(printed(List<double>{21.5, 19.0, 0.25}), "[21.5, 19.0, 0.25]\n");
  List<Any> mixed{Any(int64_t{1}), Any("two"_s), Any(true), Any(), Any(2.5)};
  EXPECT_EQ(printed(mixed), "[1, \"two\", true, null, 2.5]\n");
  EXPECT_EQ(printed(List<Any>{}, int64_t{0}), "[] 0\n");
  // Strings inside collections are quoted with escapes.
  EXPECT_EQ(printed(List<Str>{"a\"b"_s, "tab\there"_s, "nl\n"_s, "back\\"_s}),
            "[\"a\\\"b\", \"tab\\there\", \"nl\\n\", \"back\\\\\"]\n");
  EXPECT_EQ(printed(List<Str>{"caf\xc3\xa9"_s}), "[\"caf\xc3\xa9\"]\n");
}

TEST(Print, Maps) {
  Map<Str, int64_t> stock{{"apple"_s, 3}, {"pear"_s, 0}};
  EXPECT_EQ(printed(stock), "{\"apple\": 3, \"pear\": 0}\n");
  Map<int64_t, Str> codes{{404, "not found"_s}, {200, "ok"_s}};
  EXPECT_EQ(printed(codes.at(200), codes), "ok {404: \"not found\", 200: \"ok\"}\n");
  EXPECT_EQ(printed(Map<int64_t, int64_t>{{1, 1}, {2, 4}, {3, 9}}), "{1: 1, 2: 4, 3: 9}\n");
  EXPECT_EQ(printed(Map<Any, Any>{}), "{}\n");
}

TEST(Print, Tuples) {
  EXPECT_EQ(printed(std::tuple<int64_t, Str, bool>{3, "north"_s, true}), "(3, \"north\", true)\n");
  EXPECT_EQ(printed(std::tuple<int64_t>{7}, std::tuple<>{}), "(7,) ()\n");
  EXPECT_EQ(printed(List<std::tuple<int64_t, int64_t>>{{2, 1}, {3, 1}}), "[(2, 1), (3, 1)]\n");
  EXPECT_EQ(printed(std::tuple<Str, Str>{"key"_s, "=value"_s}), "(\"key\", \"=value\")\n");
}

TEST(Print, ResultsAndNullables) {
  EXPECT_EQ(printed(Result<int64_t, Str>(fitz::Ok(int64_t{42}))), "Ok(42)\n");
  EXPECT_EQ(printed(Result<int64_t, Str>(fitz::Err("bad char q"_s))), "Err(\"bad char q\")\n");
  EXPECT_EQ(printed(Result<Any, int64_t>(fitz::Err(int64_t{404}))), "Err(404)\n");
  EXPECT_EQ(printed(Nullable<Str>("ops"_s), Nullable<Str>()), "ops null\n");
  EXPECT_EQ(printed(List<Nullable<Str>>{Nullable<Str>("x"_s), Nullable<Str>()}), "[\"x\", null]\n");
}

TEST(Print, Structs) {
  auto u = fitz::make<User>(int64_t{1}, "x"_s);
  EXPECT_EQ(printed(u), "User { id: 1, name: \"x\" }\n");
  EXPECT_EQ(printed(List<fitz::Ref<User>>{u}), "[User { id: 1, name: \"x\" }]\n");
  EXPECT_EQ(printed(fitz::make<Empty>()), "Empty {}\n");
  EXPECT_EQ(fitz::type_name<fitz::Ref<User>>(), "User"_s);
}

TEST(Print, RangesBytesFunctionsFutures) {
  EXPECT_EQ(printed(fitz::Range(0, 10), fitz::Range(1, 4, true)), "0..10 1..=4\n");
  EXPECT_EQ(printed(fitz::Bytes::lit("hola")), "b\"hola\"\n");
  EXPECT_EQ(printed(fitz::Bytes("\x00\x01\xff\n\"", 5)), "b\"\\x00\\x01\\xff\\n\\\"\"\n");
  EXPECT_EQ(printed(fitz::Fn<int64_t(int64_t)>([](int64_t x) { return x; })), "<function>\n");
  EXPECT_EQ(printed(fitz::sleep(0)), "<future>\n");
  fitz::drain();
}

TEST(Print, ToStrAndInterp) {
  EXPECT_EQ(fitz::to_str(2.0), "2.0"_s);
  EXPECT_EQ(fitz::to_str("x"_s), "x"_s);
  EXPECT_EQ(fitz::to_repr("x"_s), "\"x\""_s);
  EXPECT_EQ(fitz::interp("flag=", true, ", none=", fitz::null, ", float=", 2.0), "flag=true, none=null, float=2.0"_s);
  EXPECT_EQ(fitz::interp("list: ", List<Str>{"x"_s, "y"_s}), "list: [\"x\", \"y\"]"_s);
  // Long results leave the scratch buffer intact for the next call.
  Str long_one = fitz::interp("0123456789", "0123456789", "0123456789");
  Str short_one = fitz::interp("ab", int64_t{1});
  EXPECT_EQ(long_one, "012345678901234567890123456789"_s);
  EXPECT_EQ(short_one, "ab1"_s);
}

TEST(Print, TypeNames) {
  EXPECT_EQ(fitz::type_name<int64_t>(), "Int"_s);
  EXPECT_EQ((fitz::type_name<List<Map<Str, double>>>()), "List<Map<Str, Float>>"_s);
  EXPECT_EQ((fitz::type_name<std::tuple<int64_t, Str>>()), "(Int, Str)"_s);
  EXPECT_EQ(fitz::type_name<std::tuple<int64_t>>(), "(Int,)"_s);
  EXPECT_EQ(fitz::type_name<Nullable<Str>>(), "Str?"_s);
  EXPECT_EQ((fitz::type_name<Result<int64_t, Str>>()), "Result<Int, Str>"_s);
  EXPECT_EQ((fitz::type_name<fitz::Fn<bool(int64_t, Str)>>()), "Fn(Int, Str) -> Bool"_s);
  EXPECT_EQ(fitz::type_name<fitz::Task<int64_t>>(), "Future<Int>"_s);
  EXPECT_EQ(fitz::type_name<Any>(), "Any"_s);
}
