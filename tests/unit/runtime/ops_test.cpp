// Checked operators, structural equality, runtime errors in catchable mode.
#include <gtest/gtest.h>

#include "fitz/runtime.h"

using namespace fitz::literals;
namespace op = fitz::op;
using fitz::List;
using fitz::Panic;
using fitz::Str;

namespace {
constexpr fitz::SourcePos kPos{"ops.fitz", 3, 7};

template <class F> Str error_of(F f) {
  Panic p;
  EXPECT_TRUE(fitz::catch_panic(f, &p));
  return p.message;
}
}  // namespace

TEST(Ops, TruncatingDivisionAndEuclideanModulo) {
  EXPECT_EQ(op::div(7, 2), 3);
  EXPECT_EQ(op::div(-7, 2), -3);
  EXPECT_EQ(op::div(7, -2), -3);
  EXPECT_EQ(op::mod(-7, 3), 2);
  EXPECT_EQ(op::mod(7, 3), 1);
  EXPECT_EQ(op::mod(7, -3), 1);
  EXPECT_EQ(op::mod(-7, -3), 2);
  EXPECT_EQ(op::mod(INT64_MIN, -1), 0);
  EXPECT_EQ(op::mod(INT64_MIN, INT64_MIN), 0);
  EXPECT_EQ(op::mod(-1, INT64_MIN), INT64_MAX);
  EXPECT_EQ(op::div(100, 10), 10);
  EXPECT_DOUBLE_EQ(op::div(7, 2.0), 3.5);
  EXPECT_DOUBLE_EQ(op::div(10.0, 4), 2.5);
}

TEST(Ops, OperatorPrecedenceOut) {
  // operators_precedence.out: bitwise and shifts
  EXPECT_EQ(op::bit_or(1, 2) == 3, true);
  EXPECT_EQ(op::shl(1, 4), 16);
  EXPECT_EQ(op::shl(op::add(1, 2), 1), 6);
  EXPECT_EQ(op::bit_xor(5, 1), 4);
  EXPECT_EQ(op::bit_not(5), -6);
  EXPECT_EQ(op::shr(-16, 2), -4);
  EXPECT_EQ(op::neg(op::mul(2, 3)), -6);
}

TEST(Ops, OverflowIsARuntimeError) {
  EXPECT_EQ(error_of([] { op::add(INT64_MAX, 1, kPos); }), "integer overflow: 9223372036854775807 + 1"_s);
  EXPECT_EQ(error_of([] { op::sub(INT64_MIN, 1, kPos); }), "integer overflow: -9223372036854775808 - 1"_s);
  EXPECT_EQ(error_of([] { op::mul(INT64_MAX, 2, kPos); }), "integer overflow: 9223372036854775807 * 2"_s);
  EXPECT_EQ(error_of([] { op::div(INT64_MIN, -1, kPos); }), "integer overflow: -9223372036854775808 / -1"_s);
  error_of([] { op::neg(INT64_MIN, kPos); });
  error_of([] { fitz::abs(INT64_MIN, kPos); });
  error_of([] { List<int64_t>{INT64_MAX, 1}.sum(kPos); });
  EXPECT_EQ(op::add(INT64_MAX - 1, 1), INT64_MAX);
}

TEST(Ops, DivisionByZeroAndShifts) {
  Panic p;
  EXPECT_TRUE(fitz::catch_panic([] { op::div(1, 0, kPos); }, &p));
  EXPECT_EQ(p.message, "division by zero"_s);
  EXPECT_STREQ(p.pos.file, "ops.fitz");
  EXPECT_EQ(p.pos.line, 3u);
  EXPECT_EQ(p.pos.col, 7u);
  EXPECT_EQ(error_of([] { op::mod(1, 0); }), "modulo by zero"_s);
  EXPECT_EQ(error_of([] { op::div(1.0, 0.0); }), "division by zero"_s);
  EXPECT_EQ(error_of([] { op::shl(1, 64); }), "shift amount 64 out of range 0..63"_s);
  EXPECT_EQ(error_of([] { op::shr(1, -1); }), "shift amount -1 out of range 0..63"_s);
  EXPECT_EQ(op::shl(1, 63), INT64_MIN);
}

TEST(Ops, PanicModeIsRestored) {
  EXPECT_EQ(fitz::panic_mode(), fitz::PanicMode::Exit);
  fitz::catch_panic([] { fitz::runtime_error({}, "boom"); });
  EXPECT_EQ(fitz::panic_mode(), fitz::PanicMode::Exit);
  EXPECT_FALSE(fitz::catch_panic([] {}));
}

TEST(Ops, StructuralEquality) {
  // operators_precedence.out: 1 == 1.0, 1 == "1", null == null, true == 1
  EXPECT_TRUE(fitz::eq(1, 1.0));
  EXPECT_FALSE(fitz::eq(1, "1"_s));
  EXPECT_TRUE(fitz::eq(fitz::null, fitz::null));
  EXPECT_FALSE(fitz::eq(true, 1));
  EXPECT_FALSE(fitz::eq(3, 3.5));
  // lists_basics.out, tuples_ranges.out, result_propagation.out
  EXPECT_TRUE(fitz::eq(List<fitz::Any>{int64_t{1}, fitz::to_any(List<int64_t>{2, 3})},
                       List<fitz::Any>{int64_t{1}, fitz::to_any(List<int64_t>{2, 3})}));
  EXPECT_FALSE(fitz::eq(List<int64_t>{1, 2}, List<int64_t>{2, 1}));
  EXPECT_TRUE(fitz::eq(List<int64_t>{1, 2}, List<double>{1.0, 2.0}));
  EXPECT_TRUE(fitz::eq(std::tuple<int64_t, int64_t>{1, 2}, std::tuple<int64_t, int64_t>{1, 2}));
  EXPECT_FALSE(fitz::eq(std::tuple<int64_t, int64_t>{1, 2}, std::tuple<int64_t, int64_t>{2, 1}));
  EXPECT_FALSE(fitz::eq(std::tuple<int64_t>{1}, std::tuple<int64_t, int64_t>{1, 2}));
  using R = fitz::Result<int64_t, fitz::Any>;
  using E = fitz::Result<fitz::Any, int64_t>;
  EXPECT_TRUE(fitz::eq(R(fitz::Ok(int64_t{1})), R(fitz::Ok(int64_t{1}))));
  EXPECT_FALSE(fitz::eq(R(fitz::Ok(int64_t{1})), E(fitz::Err(int64_t{1}))));
  // Maps compare keys and values in any order.
  fitz::Map<Str, int64_t> a{{"x"_s, 1}, {"y"_s, 2}};
  fitz::Map<Str, int64_t> b{{"y"_s, 2}, {"x"_s, 1}};
  EXPECT_TRUE(fitz::eq(a, b));
  b.set("y"_s, 3);
  EXPECT_FALSE(fitz::eq(a, b));
  // Nullables
  EXPECT_TRUE(fitz::eq(fitz::Nullable<Str>(), fitz::null));
  EXPECT_TRUE(fitz::eq(fitz::Nullable<Str>("a"_s), "a"_s));
  EXPECT_FALSE(fitz::eq(fitz::Nullable<Str>("a"_s), fitz::null));
  EXPECT_TRUE(fitz::eq(fitz::Nullable<int64_t>(int64_t{2}), fitz::Nullable<double>(2.0)));
}

TEST(Ops, Comparisons) {
  EXPECT_TRUE(op::lt("abc"_s, "abd"_s));
  EXPECT_TRUE(op::gt("b"_s, "abc"_s));
  EXPECT_TRUE(op::lt(1.5, 2));
  EXPECT_TRUE(op::ge(3, 3));
  EXPECT_TRUE(op::lt(std::tuple<int64_t, Str>{1, "b"_s}, std::tuple<int64_t, Str>{2, "a"_s}));
  EXPECT_TRUE(op::lt(List<int64_t>{1, 2}, List<int64_t>{1, 2, 0}));
}

TEST(Ops, BitsAndMath) {
  EXPECT_EQ(fitz::popcount(0b1010), 2);
  EXPECT_EQ(fitz::popcount(-1), 64);
  EXPECT_EQ(fitz::leading_zeros(1), 63);
  EXPECT_EQ(fitz::leading_zeros(0), 64);
  EXPECT_EQ(fitz::trailing_zeros(8), 3);
  EXPECT_EQ(fitz::rotate_left(1, 4), 16);
  EXPECT_EQ(fitz::rotate_right(16, 4), 1);
  EXPECT_EQ(fitz::rotate_right(1, 1), INT64_MIN);
  EXPECT_EQ(fitz::abs(int64_t{-5}), 5);
  EXPECT_DOUBLE_EQ(fitz::abs(-3.14), 3.14);
  EXPECT_EQ(fitz::min(int64_t{3}, int64_t{5}), 3);
  EXPECT_DOUBLE_EQ(fitz::max(1.5, 2.5), 2.5);
  EXPECT_DOUBLE_EQ(fitz::pow(2, 10), 1024.0);
  EXPECT_DOUBLE_EQ(fitz::sqrt(16), 4.0);
  EXPECT_EQ(fitz::ceil(3.2), 4);
  EXPECT_EQ(fitz::floor(3.8), 3);
  EXPECT_EQ(fitz::round(3.5), 4);
  EXPECT_EQ(fitz::round(-2.5), -3);
  EXPECT_EQ(fitz::clamp(int64_t{-5}, int64_t{0}, int64_t{10}), 0);
  EXPECT_EQ(fitz::clamp(int64_t{15}, int64_t{0}, int64_t{10}), 10);
  EXPECT_EQ(error_of([] { fitz::floor(1e19); }), "float 10000000000000000000.0 does not fit in an Int"_s);
  EXPECT_EQ(fitz::int_to_str_base(255, 16), "ff"_s);
  EXPECT_EQ(fitz::int_to_str_base(-10, 2), "-1010"_s);
  EXPECT_EQ(fitz::int_to_str(42), "42"_s);
  EXPECT_EQ(fitz::float_to_str(3.14), "3.14"_s);
  EXPECT_TRUE(fitz::float_is_nan(__builtin_nan("")));
  EXPECT_FALSE(fitz::float_is_finite(__builtin_inf()));
}

TEST(Ops, Assertions) {
  fitz::assert_(true);
  fitz::assert_eq(3, 3.0);
  fitz::assert_eq(List<int64_t>{1, 2}, List<int64_t>{1, 2});
  fitz::assert_ne("a"_s, "b"_s);
  Panic p;
  EXPECT_TRUE(fitz::catch_panic([] { fitz::assert_eq(int64_t{1} + 1, int64_t{3}, kPos); }, &p));
  EXPECT_EQ(p.message, "assertion failed: left == right"_s);
  EXPECT_TRUE(p.has_sides);
  EXPECT_EQ(p.left, "2"_s);
  EXPECT_EQ(p.right, "3"_s);
  EXPECT_TRUE(fitz::catch_panic([] { fitz::assert_(false, "never runs"_s); }, &p));
  EXPECT_EQ(p.message, "assertion failed: never runs"_s);
  EXPECT_TRUE(fitz::catch_panic([] { fitz::assert_ne("a"_s, "a"_s); }, &p));
  EXPECT_EQ(p.left, "\"a\""_s);
  fitz::assert_throws([] { op::div(1, 0); });
  EXPECT_TRUE(fitz::catch_panic([] { fitz::assert_throws([] {}); }, &p));
  EXPECT_EQ(p.message, "assert_throws: the function did not raise a runtime error"_s);
}
