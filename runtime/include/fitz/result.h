// `Result<T, E>` (Ok/Err) and `Nullable<T>` (`T?`). Both are values: copying copies the
// payload (whose own semantics apply: a List payload is still a shared reference).
#pragma once

#include "fitz/base.h"

namespace fitz {

namespace detail {
template <class T> struct OkVal { T v; };
template <class E> struct ErrVal { E e; };
[[noreturn]] void null_unwrap_error(SourcePos pos);
}  // namespace detail

// `Ok(x)` / `Err(e)` convert to any `Result<T, E>` whose T (resp. E) is constructible from
// the payload: `Result<int64_t, Str> r = fitz::Ok(int64_t{1});`.
template <class T> detail::OkVal<std::decay_t<T>> Ok(T&& v) { return {std::forward<T>(v)}; }
template <class E> detail::ErrVal<std::decay_t<E>> Err(E&& e) { return {std::forward<E>(e)}; }
inline detail::OkVal<Null> Ok() { return {Null{}}; }

template <class T, class E> class Result {
 public:
  using value_type = T;
  using error_type = E;

  // A default Result is Err(E{}): only a placeholder for declare-before-assign.
  Result() : ok_(false) { new (&e_) E(); }
  template <class U> Result(detail::OkVal<U> o) : ok_(true) { new (&v_) T(std::move(o.v)); }
  template <class U> Result(detail::ErrVal<U> o) : ok_(false) { new (&e_) E(std::move(o.e)); }
  static Result ok(T v) { return Result(detail::OkVal<T>{std::move(v)}); }
  static Result err(E e) { return Result(detail::ErrVal<E>{std::move(e)}); }
  // Component-wise conversion, e.g. Result<Int, Str> -> Result<Float, Str>.
  template <class T2, class E2,
            class = std::enable_if_t<!std::is_same_v<Result<T2, E2>, Result> &&
                                     std::is_constructible_v<T, const T2&> &&
                                     std::is_constructible_v<E, const E2&>>>
  explicit Result(const Result<T2, E2>& o) : ok_(o.is_ok()) {
    if (ok_)
      new (&v_) T(o.value());
    else
      new (&e_) E(o.error());
  }

  Result(const Result& o) : ok_(o.ok_) {
    if (ok_)
      new (&v_) T(o.v_);
    else
      new (&e_) E(o.e_);
  }
  Result(Result&& o) noexcept : ok_(o.ok_) {
    if (ok_)
      new (&v_) T(std::move(o.v_));
    else
      new (&e_) E(std::move(o.e_));
  }
  Result& operator=(const Result& o) {
    if (this != &o) {
      Result tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  Result& operator=(Result&& o) noexcept {
    if (this != &o) {
      destroy();
      ok_ = o.ok_;
      if (ok_)
        new (&v_) T(std::move(o.v_));
      else
        new (&e_) E(std::move(o.e_));
    }
    return *this;
  }
  ~Result() { destroy(); }

  bool is_ok() const { return ok_; }
  bool is_err() const { return !ok_; }
  const T& value() const { return v_; }
  T& value() { return v_; }
  const E& error() const { return e_; }
  E& error() { return e_; }
  T take_value() { return std::move(v_); }
  E take_error() { return std::move(e_); }
  T value_or(T fallback) const { return ok_ ? v_ : fallback; }
  // The value, or a runtime error naming the Err (top-level `?`).
  const T& unwrap(SourcePos pos) const {
    if (!ok_) unwrap_failed(pos);
    return v_;
  }
  // For `?`: this Err re-typed as the enclosing function's Result.
  template <class R2> R2 propagate() const { return R2(detail::ErrVal<E>{e_}); }

 private:
  [[noreturn]] void unwrap_failed(SourcePos pos) const;  // defined in show.h
  void destroy() noexcept {
    if (ok_)
      v_.~T();
    else
      e_.~E();
  }
  bool ok_;
  union {
    T v_;
    E e_;
  };
};

// `expr?` inside a function returning a Result (GCC/Clang statement expression): on Err, returns
// the error from the enclosing function (converted to its Result type); otherwise yields the value.
//   int64_t v = FITZ_TRY(digit_value(ch));
#define FITZ_TRY(...)                                              \
  ({                                                               \
    auto _fitz_r = (__VA_ARGS__);                                  \
    if (_fitz_r.is_err()) return ::fitz::Err(_fitz_r.take_error()); \
    _fitz_r.take_value();                                          \
  })
// Same inside an async fn (a coroutine returning Task<Result<...>>). GCC 12 crashes on a
// statement expression holding both `co_await` and `co_return`, so await into a local first:
//   auto r = co_await parse_later(a);  int64_t x = FITZ_CO_TRY(r);
#define FITZ_CO_TRY(...)                                              \
  ({                                                                  \
    auto _fitz_r = (__VA_ARGS__);                                     \
    if (_fitz_r.is_err()) co_return ::fitz::Err(_fitz_r.take_error()); \
    _fitz_r.take_value();                                             \
  })

template <class T> class Nullable {
 public:
  using value_type = T;

  Nullable() noexcept : has_(false) {}
  Nullable(Null) noexcept : has_(false) {}
  template <class U, class = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Nullable> &&
                                              !std::is_same_v<std::decay_t<U>, Null> &&
                                              std::is_constructible_v<T, U&&>>>
  Nullable(U&& u) : has_(true) {
    new (&v_) T(std::forward<U>(u));
  }
  Nullable(const Nullable& o) : has_(o.has_) {
    if (has_) new (&v_) T(o.v_);
  }
  Nullable(Nullable&& o) noexcept : has_(o.has_) {
    if (has_) new (&v_) T(std::move(o.v_));
  }
  Nullable& operator=(const Nullable& o) {
    if (this != &o) {
      Nullable tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  Nullable& operator=(Nullable&& o) noexcept {
    if (this != &o) {
      reset();
      has_ = o.has_;
      if (has_) new (&v_) T(std::move(o.v_));
    }
    return *this;
  }
  ~Nullable() { reset(); }

  bool is_null() const { return !has_; }
  bool has_value() const { return has_; }
  const T& value() const { return v_; }
  T& value() { return v_; }
  T value_or(T fallback) const { return has_ ? v_ : fallback; }
  // The value, or a runtime error when null (a `T?` flowing into a `T` unchecked).
  const T& unwrap(SourcePos pos) const {
    if (!has_) detail::null_unwrap_error(pos);
    return v_;
  }
  void reset() noexcept {
    if (has_) v_.~T();
    has_ = false;
  }

 private:
  bool has_;
  union {
    T v_;
  };
};

}  // namespace fitz
