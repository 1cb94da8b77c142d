// `Fn<R(A...)>`: the Fitz function type `Fn(A) -> R`. A refcounted, type-erased callable:
// copying shares the same closure object (cheap), like every Fitz function value.
#pragma once

#include "fitz/base.h"

namespace fitz {

namespace detail {
[[noreturn]] void null_function_error();
}

template <class R, class... A> class Fn<R(A...)> {
  struct Base {
    size_t rc = 1;
    virtual ~Base() = default;
    virtual R call(A... a) = 0;
  };
  template <class F> struct Impl final : Base {
    F f;
    template <class G> explicit Impl(G&& g) : f(std::forward<G>(g)) {}
    R call(A... a) override {
      using Out = decltype(f(std::forward<A>(a)...));
      if constexpr (std::is_void_v<Out> && !std::is_void_v<R>) {
        f(std::forward<A>(a)...);
        return R{};  // a body without a value yields `null`
      } else {
        return f(std::forward<A>(a)...);
      }
    }
  };

 public:
  using result_type = R;

  Fn() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Fn>>,
            class = decltype(std::declval<std::decay_t<F>&>()(std::declval<A>()...))>
  Fn(F&& f) : p_(new Impl<std::decay_t<F>>(std::forward<F>(f))) {}
  Fn(const Fn& o) noexcept : p_(o.p_) {
    if (p_) detail::rc_inc(p_->rc);
  }
  Fn(Fn&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  Fn& operator=(const Fn& o) noexcept {
    if (o.p_) detail::rc_inc(o.p_->rc);
    reset();
    p_ = o.p_;
    return *this;
  }
  Fn& operator=(Fn&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_;
      o.p_ = nullptr;
    }
    return *this;
  }
  ~Fn() { reset(); }

  R operator()(A... a) const {
    if (!p_) detail::null_function_error();
    return p_->call(std::forward<A>(a)...);
  }
  explicit operator bool() const { return p_ != nullptr; }
  bool same(const Fn& o) const { return p_ == o.p_; }

 private:
  void reset() noexcept {
    if (p_ && detail::rc_dec(p_->rc)) delete p_;
    p_ = nullptr;
  }
  Base* p_ = nullptr;
};

}  // namespace fitz
