// `Ref<T>`: the shared, refcounted handle behind lists, maps and user type instances (Fitz
// gives them reference semantics). One allocation holds the count and the value.
#pragma once

#include "fitz/base.h"

namespace fitz {

namespace detail {
// Aggregates (generated structs) are brace-initialised so this works on compilers without
// parenthesised aggregate initialisation; other types use their constructors.
template <class T, class... A> T construct(A&&... a) {
  if constexpr (std::is_aggregate_v<T>)
    return T{std::forward<A>(a)...};
  else
    return T(std::forward<A>(a)...);
}
}  // namespace detail

template <class T> class Ref {
  struct Block {
    size_t rc;
    T value;
    template <class... A>
    explicit Block(A&&... a) : rc(1), value(detail::construct<T>(std::forward<A>(a)...)) {}
  };

 public:
  using element_type = T;

  Ref() = default;
  Ref(std::nullptr_t) {}
  Ref(const Ref& o) noexcept : b_(o.b_) {
    if (b_) detail::rc_inc(b_->rc);
  }
  Ref(Ref&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
  Ref& operator=(const Ref& o) noexcept {
    if (o.b_) detail::rc_inc(o.b_->rc);
    reset();
    b_ = o.b_;
    return *this;
  }
  Ref& operator=(Ref&& o) noexcept {
    if (this != &o) {
      reset();
      b_ = o.b_;
      o.b_ = nullptr;
    }
    return *this;
  }
  ~Ref() { reset(); }

  T* get() const { return b_ ? &b_->value : nullptr; }
  T& operator*() const { return b_->value; }
  T* operator->() const { return &b_->value; }
  explicit operator bool() const { return b_ != nullptr; }
  // Identity (the same instance), as opposed to Fitz `==`, which is structural.
  bool same(const Ref& o) const { return b_ == o.b_; }
  size_t use_count() const { return b_ ? __atomic_load_n(&b_->rc, __ATOMIC_RELAXED) : 0; }
  void reset() noexcept {
    if (b_ && detail::rc_dec(b_->rc)) delete b_;
    b_ = nullptr;
  }

  // A new handle to an instance created by `make<T>`, from a raw pointer to it (e.g. `this`
  // inside a generated method that must keep its instance alive across an `await`).
  static Ref from_this(const T* p) {
    constexpr size_t a = alignof(T) > sizeof(size_t) ? alignof(T) : sizeof(size_t);
    constexpr size_t off = (sizeof(size_t) + a - 1) / a * a;
    Ref r;
    r.b_ = reinterpret_cast<Block*>(reinterpret_cast<char*>(const_cast<T*>(p)) - off);
    detail::rc_inc(r.b_->rc);
    return r;
  }

  template <class U, class... A> friend Ref<U> make(A&&... a);

 private:
  Block* b_ = nullptr;
};

template <class T, class... A> Ref<T> make(A&&... a) {
  Ref<T> r;
  r.b_ = new typename Ref<T>::Block(std::forward<A>(a)...);
  return r;
}

}  // namespace fitz
