// Built-in global functions of spec section 4 (`len`, assertions, env, bit and math helpers),
// the Int/Float methods, and `run_main`, the entry point every generated program calls.
#pragma once

#include "fitz/any.h"

namespace fitz {

// ---- len ---------------------------------------------------------------------------------
inline int64_t len(const Str& s) { return s.len(); }
inline int64_t len(const Bytes& b) { return b.len(); }
inline int64_t len(const Range& r) { return r.len(); }
template <class T> int64_t len(const List<T>& l) { return l.len(); }
template <class K, class V> int64_t len(const Map<K, V>& m) { return m.len(); }
inline int64_t len(const Any& a, SourcePos pos = {}) { return any_len(a, pos); }

// ---- assertions ----------------------------------------------------------------------------
// (`assert` is a macro in <cassert>, hence the trailing underscore.)
Null assert_(bool cond, SourcePos pos = {});
Null assert_(bool cond, const Str& message, SourcePos pos = {});

namespace detail {
[[noreturn]] void assert_sides_failed(SourcePos pos, const char* op, Str left, Str right);
}
template <class A, class B> Null assert_eq(const A& a, const B& b, SourcePos pos = {}) {
  if (!fitz::eq(a, b)) detail::assert_sides_failed(pos, "==", to_repr(a), to_repr(b));
  return {};
}
template <class A, class B> Null assert_ne(const A& a, const B& b, SourcePos pos = {}) {
  if (fitz::eq(a, b)) detail::assert_sides_failed(pos, "!=", to_repr(a), to_repr(b));
  return {};
}
// Passes when calling `f` raises a runtime error.
template <class F> Null assert_throws(F&& f, SourcePos pos = {}) {
  if (!catch_panic([&] { f(); }))
    runtime_error(pos, "assert_throws: the function did not raise a runtime error");
  return {};
}

// ---- environment ---------------------------------------------------------------------------
Result<Str, Str> env(const Str& name);
Str env_or(const Str& name, const Str& fallback);
// `html_raw(s)`: an `Html` value is its markup (the checker keeps it apart from Str).
inline Str html_raw(const Str& markup) { return markup; }
// Reads KEY=VALUE lines (blank lines, `#` comments, optional `export ` and quotes) into the
// environment; variables already set keep their value.
Result<Null, Str> load_env(const Str& path);

// ---- random numbers (not for secrets: a per-thread Mersenne Twister seeded at start) ------
int64_t random_int(int64_t lo, int64_t hi, SourcePos pos = {});  // uniform in lo..=hi
double random_float();                                           // uniform in [0, 1)

// ---- bits ----------------------------------------------------------------------------------
inline int64_t popcount(int64_t n) { return __builtin_popcountll(uint64_t(n)); }
inline int64_t leading_zeros(int64_t n) { return n == 0 ? 64 : __builtin_clzll(uint64_t(n)); }
inline int64_t trailing_zeros(int64_t n) { return n == 0 ? 64 : __builtin_ctzll(uint64_t(n)); }
inline int64_t rotate_left(int64_t n, int64_t k) {
  unsigned s = unsigned(uint64_t(k) & 63);
  uint64_t u = uint64_t(n);
  return s == 0 ? n : int64_t((u << s) | (u >> (64 - s)));
}
inline int64_t rotate_right(int64_t n, int64_t k) { return rotate_left(n, 64 - int64_t(uint64_t(k) & 63)); }

// ---- math ----------------------------------------------------------------------------------
// Int and Float overloads; Any overloads check at run time. `pow` and `sqrt` return Float,
// `ceil`/`floor`/`round` return Int (round halves away from zero), `min`/`max`/`clamp` keep the
// operand type (Float when mixed).
int64_t abs(int64_t v, SourcePos pos = {});
inline double abs(double v, SourcePos = {}) { return __builtin_fabs(v); }
inline int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }
inline int64_t max(int64_t a, int64_t b) { return a < b ? b : a; }
inline double min(double a, double b) { return a < b ? a : b; }
inline double max(double a, double b) { return a < b ? b : a; }
inline double min(int64_t a, double b) { return min(double(a), b); }
inline double min(double a, int64_t b) { return min(a, double(b)); }
inline double max(int64_t a, double b) { return max(double(a), b); }
inline double max(double a, int64_t b) { return max(a, double(b)); }
inline double pow(double a, double b) { return __builtin_pow(a, b); }
inline double sqrt(double v) { return __builtin_sqrt(v); }
int64_t float_to_int(double v, SourcePos pos);  // range-checked truncation
inline int64_t ceil(double v, SourcePos pos = {}) { return float_to_int(__builtin_ceil(v), pos); }
inline int64_t floor(double v, SourcePos pos = {}) { return float_to_int(__builtin_floor(v), pos); }
inline int64_t round(double v, SourcePos pos = {}) { return float_to_int(__builtin_round(v), pos); }
inline int64_t ceil(int64_t v, SourcePos = {}) { return v; }
inline int64_t floor(int64_t v, SourcePos = {}) { return v; }
inline int64_t round(int64_t v, SourcePos = {}) { return v; }
inline int64_t clamp(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : (x > hi ? hi : x); }
inline double clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

Any abs(const Any& v, SourcePos pos = {});
Any min(const Any& a, const Any& b, SourcePos pos = {});
Any max(const Any& a, const Any& b, SourcePos pos = {});
Any pow(const Any& a, const Any& b, SourcePos pos = {});
Any sqrt(const Any& v, SourcePos pos = {});
Any ceil(const Any& v, SourcePos pos = {});
Any floor(const Any& v, SourcePos pos = {});
Any round(const Any& v, SourcePos pos = {});
Any clamp(const Any& x, const Any& lo, const Any& hi, SourcePos pos = {});

// ---- Int and Float methods -----------------------------------------------------------------
inline int64_t int_abs(int64_t v, SourcePos pos = {}) { return abs(v, pos); }
inline Str int_to_str(int64_t v) { return to_str(v); }
Str int_to_str_base(int64_t v, int64_t base, SourcePos pos = {});  // bases 2..36, lower-case
inline double float_abs(double v) { return __builtin_fabs(v); }
inline Str float_to_str(double v) { return to_str(v); }
inline bool float_is_nan(double v) { return __builtin_isnan(v); }
inline bool float_is_finite(double v) { return __builtin_isfinite(v); }

// ---- program entry -------------------------------------------------------------------------
//
//   int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_main); }
//
// runs the top-level statements (`body`), then drains the event loop so that unawaited tasks
// finish, flushes stdout and returns 0. A runtime error exits with status 1 (see base.h).
int run_main(int argc, char** argv, void (*body)());
List<Str> program_args();

}  // namespace fitz
