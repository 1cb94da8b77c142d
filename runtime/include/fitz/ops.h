// Checked operators. Int `+ - *` raise on overflow (spec decision 7); `/` truncates and `%` is
// Euclidean (`-7 % 3 == 2`), both raising on a zero divisor; shifts take 0..63. Float ops
// follow IEEE except that dividing by zero is a runtime error, as for Int.
#pragma once

#include "fitz/eq.h"

namespace fitz::op {

namespace detail {
[[noreturn]] void overflow(SourcePos pos, const char* op, int64_t a, int64_t b);
[[noreturn]] void neg_overflow(SourcePos pos);
[[noreturn]] void division_by_zero(SourcePos pos);
[[noreturn]] void modulo_by_zero(SourcePos pos);
[[noreturn]] void shift_out_of_range(SourcePos pos, int64_t amount);
}  // namespace detail

// Operand types are template parameters so that any mix of integer types (int64_t from
// generated code, plain int literals in hand-written code) resolves without ambiguity.
template <class T> concept IntOperand = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T> concept NumOperand = fitz::detail::is_num_v<T>;
template <class A, class B> concept FloatOperands =
    NumOperand<A> && NumOperand<B> && (!IntOperand<A> || !IntOperand<B>);

template <IntOperand A, IntOperand B> inline int64_t add(A x, B y, SourcePos pos = {}) {
  int64_t a = int64_t(x), b = int64_t(y), r;
  if (__builtin_add_overflow(a, b, &r)) [[unlikely]] detail::overflow(pos, "+", a, b);
  return r;
}
template <IntOperand A, IntOperand B> inline int64_t sub(A x, B y, SourcePos pos = {}) {
  int64_t a = int64_t(x), b = int64_t(y), r;
  if (__builtin_sub_overflow(a, b, &r)) [[unlikely]] detail::overflow(pos, "-", a, b);
  return r;
}
template <IntOperand A, IntOperand B> inline int64_t mul(A x, B y, SourcePos pos = {}) {
  int64_t a = int64_t(x), b = int64_t(y), r;
  if (__builtin_mul_overflow(a, b, &r)) [[unlikely]] detail::overflow(pos, "*", a, b);
  return r;
}
template <IntOperand A, IntOperand B> inline int64_t div(A x, B y, SourcePos pos = {}) {
  int64_t a = int64_t(x), b = int64_t(y);
  if (b == 0) [[unlikely]] detail::division_by_zero(pos);
  if (b == -1 && a == INT64_MIN) [[unlikely]] detail::overflow(pos, "/", a, b);
  return a / b;
}
template <IntOperand A, IntOperand B> inline int64_t mod(A x, B y, SourcePos pos = {}) {
  int64_t a = int64_t(x), b = int64_t(y);
  if (b == 0) [[unlikely]] detail::modulo_by_zero(pos);
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r < 0) r = b < 0 ? r - b : r + b;
  return r;
}
template <IntOperand A> inline int64_t neg(A x, SourcePos pos = {}) {
  int64_t a = int64_t(x);
  if (a == INT64_MIN) [[unlikely]] detail::neg_overflow(pos);
  return -a;
}
template <IntOperand A, IntOperand B> inline int64_t shl(A x, B y, SourcePos pos = {}) {
  int64_t b = int64_t(y);
  if (uint64_t(b) > 63) [[unlikely]] detail::shift_out_of_range(pos, b);
  return int64_t(uint64_t(int64_t(x)) << b);
}
template <IntOperand A, IntOperand B> inline int64_t shr(A x, B y, SourcePos pos = {}) {
  int64_t b = int64_t(y);
  if (uint64_t(b) > 63) [[unlikely]] detail::shift_out_of_range(pos, b);
  return int64_t(x) >> b;
}
inline int64_t bit_and(int64_t a, int64_t b) { return a & b; }
inline int64_t bit_or(int64_t a, int64_t b) { return a | b; }
inline int64_t bit_xor(int64_t a, int64_t b) { return a ^ b; }
inline int64_t bit_not(int64_t a) { return ~a; }

// Float arithmetic; a mixed Int/Float pair promotes the Int.
template <class A, class B> requires FloatOperands<A, B> inline double add(A a, B b, SourcePos = {}) {
  return double(a) + double(b);
}
template <class A, class B> requires FloatOperands<A, B> inline double sub(A a, B b, SourcePos = {}) {
  return double(a) - double(b);
}
template <class A, class B> requires FloatOperands<A, B> inline double mul(A a, B b, SourcePos = {}) {
  return double(a) * double(b);
}
template <class A, class B> requires FloatOperands<A, B> inline double div(A a, B b, SourcePos pos = {}) {
  if (double(b) == 0.0) [[unlikely]] detail::division_by_zero(pos);
  return double(a) / double(b);
}
template <class A> requires std::is_floating_point_v<A> inline double neg(A a, SourcePos = {}) { return -double(a); }

inline Str add(const Str& a, const Str& b, SourcePos = {}) { return a + b; }

// Comparisons: numbers (mixed Int/Float), Str, and anything with a fitz::Cmp.
template <class A, class B> bool lt(const A& a, const B& b) { return fitz::cmp(a, b) < 0; }
template <class A, class B> bool le(const A& a, const B& b) { return fitz::cmp(a, b) <= 0; }
template <class A, class B> bool gt(const A& a, const B& b) { return fitz::cmp(a, b) > 0; }
template <class A, class B> bool ge(const A& a, const B& b) { return fitz::cmp(a, b) >= 0; }
template <class A, class B> bool eq(const A& a, const B& b) { return fitz::eq(a, b); }
template <class A, class B> bool ne(const A& a, const B& b) { return !fitz::eq(a, b); }

}  // namespace fitz::op
