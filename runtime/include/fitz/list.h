// `List<T>`: a shared reference to a growable array (copying the handle aliases the list, as
// Fitz lists are shared references). Every List method of the spec is a member; the ones that
// take callbacks are templates over any callable (lambdas, fitz::Fn, function pointers).
#pragma once

#include "fitz/ref.h"
#include "fitz/result.h"
#include "fitz/str.h"

namespace fitz {

namespace detail {
// Stable merge sort with a strict-weak "less" (the comparator may call Fitz code).
template <class T, class Less> void stable_sort(std::vector<T>& v, Less less) {
  size_t n = v.size();
  if (n < 2) return;
  if (n <= 16) {
    for (size_t i = 1; i < n; ++i) {
      T x = std::move(v[i]);
      size_t j = i;
      while (j > 0 && less(x, v[j - 1])) {
        v[j] = std::move(v[j - 1]);
        --j;
      }
      v[j] = std::move(x);
    }
    return;
  }
  std::vector<T> a(v), b(v);
  std::vector<T>* src = &a;
  std::vector<T>* dst = &b;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) (*dst)[k++] = less((*src)[j], (*src)[i]) ? (*src)[j++] : (*src)[i++];
      while (i < mid) (*dst)[k++] = (*src)[i++];
      while (j < hi) (*dst)[k++] = (*src)[j++];
    }
    std::vector<T>* t = src;
    src = dst;
    dst = t;
  }
  v.swap(*src);
}
[[noreturn]] void empty_pop_error(SourcePos pos);
[[noreturn]] void sum_overflow_error(SourcePos pos);
inline Str not_found_msg() { return Str::lit("not found"); }
inline Str empty_list_msg() { return Str::lit("empty list"); }
}  // namespace detail

template <class T> class List {
 public:
  using value_type = T;
  using Vec = std::vector<T>;
  using const_ref = typename Vec::const_reference;
  using mut_ref = typename Vec::reference;

  List() : p_(make<Vec>()) {}
  explicit List(Uninit) {}
  List(std::initializer_list<T> il) : p_(make<Vec>(il)) {}
  explicit List(Vec v) : p_(make<Vec>(std::move(v))) {}
  static List with_capacity(int64_t n) {
    List l;
    if (n > 0) l.p_->reserve(size_t(n));
    return l;
  }

  // The underlying vector, for generated fast paths and runtime code.
  Vec& vec() const { return *p_; }
  bool same(const List& o) const { return p_.same(o.p_); }
  bool is_uninit() const { return !p_; }

  // Iteration visits the elements present when the loop starts (stopping early if the list
  // shrinks) and yields copies, so a body that pushes to the list is safe.
  struct Iter {
    const Vec* v;
    size_t i;
    T operator*() const { return (*v)[i]; }
    Iter& operator++() {
      ++i;
      return *this;
    }
    bool operator!=(const Iter& e) const { return i < e.i && i < v->size(); }
  };
  Iter begin() const { return Iter{p_.get(), 0}; }
  Iter end() const { return Iter{p_.get(), p_->size()}; }

  int64_t len() const { return int64_t(p_->size()); }
  bool is_empty() const { return p_->empty(); }
  const_ref at(int64_t i, SourcePos pos = {}) const {
    const Vec& v = *p_;
    return v[detail::norm_index(i, v.size(), pos, "list")];
  }
  mut_ref mut(int64_t i, SourcePos pos = {}) const {
    Vec& v = *p_;
    return v[detail::norm_index(i, v.size(), pos, "list")];
  }
  Null set(int64_t i, T value, SourcePos pos = {}) const {
    mut(i, pos) = std::move(value);
    return {};
  }
  List slice(int64_t start, int64_t end, bool inclusive = false) const {
    size_t lo, hi;
    detail::slice_bounds(start, end, inclusive, p_->size(), &lo, &hi);
    return List(Vec(p_->begin() + lo, p_->begin() + hi));
  }
  List copy() const { return List(Vec(*p_)); }

  // ---- mutating (spec: push, pop, sort, sort_by, reverse) ----
  Null push(T v) const {
    p_->push_back(std::move(v));
    return {};
  }
  T pop(SourcePos pos = {}) const {
    Vec& v = *p_;
    if (v.empty()) detail::empty_pop_error(pos);
    T x = std::move(v.back());
    v.pop_back();
    return x;
  }
  Null sort() const {
    detail::stable_sort(*p_, [](const T& a, const T& b) { return fitz::cmp(a, b) < 0; });
    return {};
  }
  template <class F> Null sort_by(F&& f) const {
    detail::stable_sort(*p_, [&](const T& a, const T& b) { return f(a, b) < 0; });
    return {};
  }
  Null reverse() const {
    Vec& v = *p_;
    for (size_t i = 0, j = v.size(); i + 1 < j; ++i, --j) {
      T t = std::move(v[i]);
      v[i] = std::move(v[j - 1]);
      v[j - 1] = std::move(t);
    }
    return {};
  }
  Null clear() const {
    p_->clear();
    return {};
  }

  // ---- queries ----
  bool contains(const T& x) const {
    for (const auto& e : *p_)
      if (fitz::eq(e, x)) return true;
    return false;
  }
  template <class F> bool any(F&& f) const {
    for (size_t i = 0; i < p_->size(); ++i)
      if (f((*p_)[i])) return true;
    return false;
  }
  template <class F> bool all(F&& f) const {
    for (size_t i = 0; i < p_->size(); ++i)
      if (!f((*p_)[i])) return false;
    return true;
  }
  template <class F> int64_t count(F&& f) const {
    int64_t n = 0;
    for (size_t i = 0; i < p_->size(); ++i)
      if (f((*p_)[i])) ++n;
    return n;
  }
  template <class F> Result<T, Str> find(F&& f) const {
    for (size_t i = 0; i < p_->size(); ++i)
      if (f((*p_)[i])) return Ok(T((*p_)[i]));
    return Err(detail::not_found_msg());
  }
  template <class F> Result<int64_t, Str> find_index(F&& f) const {
    for (size_t i = 0; i < p_->size(); ++i)
      if (f((*p_)[i])) return Ok(int64_t(i));
    return Err(detail::not_found_msg());
  }
  Result<T, Str> first() const {
    if (p_->empty()) return Err(detail::empty_list_msg());
    return Ok(T(p_->front()));
  }
  Result<T, Str> last() const {
    if (p_->empty()) return Err(detail::empty_list_msg());
    return Ok(T(p_->back()));
  }
  Result<T, Str> min() const {
    const Vec& v = *p_;
    if (v.empty()) return Err(detail::empty_list_msg());
    size_t best = 0;
    for (size_t i = 1; i < v.size(); ++i)
      if (fitz::cmp(v[i], v[best]) < 0) best = i;
    return Ok(T(v[best]));
  }
  Result<T, Str> max() const {
    const Vec& v = *p_;
    if (v.empty()) return Err(detail::empty_list_msg());
    size_t best = 0;
    for (size_t i = 1; i < v.size(); ++i)
      if (fitz::cmp(v[i], v[best]) >= 0) best = i;
    return Ok(T(v[best]));
  }
  template <class F> Result<T, Str> min_by(F&& f) const {
    const Vec& v = *p_;
    if (v.empty()) return Err(detail::empty_list_msg());
    size_t best = 0;
    auto key = f(v[0]);
    for (size_t i = 1; i < v.size(); ++i) {
      auto k = f(v[i]);
      if (fitz::cmp(k, key) < 0) best = i, key = k;
    }
    return Ok(T(v[best]));
  }
  template <class F> Result<T, Str> max_by(F&& f) const {
    const Vec& v = *p_;
    if (v.empty()) return Err(detail::empty_list_msg());
    size_t best = 0;
    auto key = f(v[0]);
    for (size_t i = 1; i < v.size(); ++i) {
      auto k = f(v[i]);
      if (fitz::cmp(k, key) >= 0) best = i, key = k;
    }
    return Ok(T(v[best]));
  }
  T sum(SourcePos pos = {}) const {
    T acc{};
    for (const auto& x : *p_) {
      if constexpr (std::is_integral_v<T>) {
        if (__builtin_add_overflow(acc, x, &acc)) detail::sum_overflow_error(pos);
      } else {
        acc = acc + x;
      }
    }
    return acc;
  }
  T product(SourcePos pos = {}) const {
    T acc = T(1);
    for (const auto& x : *p_) {
      if constexpr (std::is_integral_v<T>) {
        if (__builtin_mul_overflow(acc, x, &acc)) detail::sum_overflow_error(pos);
      } else {
        acc = acc * x;
      }
    }
    return acc;
  }
  bool starts_with(const List& prefix) const {
    const Vec &v = *p_, &p = *prefix.p_;
    if (p.size() > v.size()) return false;
    for (size_t i = 0; i < p.size(); ++i)
      if (!fitz::eq(v[i], p[i])) return false;
    return true;
  }
  bool ends_with(const List& suffix) const {
    const Vec &v = *p_, &s = *suffix.p_;
    if (s.size() > v.size()) return false;
    size_t off = v.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i)
      if (!fitz::eq(v[off + i], s[i])) return false;
    return true;
  }

  // ---- transformations (new lists) ----
  template <class F> auto map(F&& f) const {
    using U = std::decay_t<decltype(f(std::declval<const T&>()))>;
    List<U> out = List<U>::with_capacity(len());
    for (size_t i = 0; i < p_->size(); ++i) out.vec().push_back(f((*p_)[i]));
    return out;
  }
  template <class F> List filter(F&& f) const {
    List out;
    for (size_t i = 0; i < p_->size(); ++i)
      if (f((*p_)[i])) out.p_->push_back((*p_)[i]);
    return out;
  }
  template <class F> auto flat_map(F&& f) const {
    using LU = std::decay_t<decltype(f(std::declval<const T&>()))>;
    LU out;
    for (size_t i = 0; i < p_->size(); ++i) {
      LU part = f((*p_)[i]);
      for (const auto& x : part.vec()) out.vec().push_back(x);
    }
    return out;
  }
  template <class A, class F> A reduce(A init, F&& f) const {
    for (size_t i = 0; i < p_->size(); ++i) init = f(std::move(init), (*p_)[i]);
    return init;
  }
  template <class A, class F> List<A> scan(A init, F&& f) const {
    List<A> out = List<A>::with_capacity(len());
    for (size_t i = 0; i < p_->size(); ++i) {
      init = f(std::move(init), (*p_)[i]);
      out.vec().push_back(init);
    }
    return out;
  }
  auto to_map() const;  // List<(K, V)> -> Map<K, V>; defined in map.h
  template <class V> Map<T, V> zip_to_map(const List<V>& values) const;  // map.h
  template <class F> auto group_by(F&& f) const;                          // map.h
  List unique() const;                                                    // map.h
  template <class F> std::tuple<List, List> partition(F&& f) const {
    List yes, no;
    for (size_t i = 0; i < p_->size(); ++i) (f((*p_)[i]) ? yes : no).p_->push_back((*p_)[i]);
    return {yes, no};
  }
  template <class U, class F> auto zip_with(const List<U>& other, F&& f) const {
    using V = std::decay_t<decltype(f(std::declval<const T&>(), std::declval<const U&>()))>;
    size_t n = p_->size() < other.vec().size() ? p_->size() : other.vec().size();
    List<V> out = List<V>::with_capacity(int64_t(n));
    for (size_t i = 0; i < n; ++i) out.vec().push_back(f((*p_)[i], other.vec()[i]));
    return out;
  }
  template <class U> List<std::tuple<T, U>> zip(const List<U>& other) const {
    size_t n = p_->size() < other.vec().size() ? p_->size() : other.vec().size();
    List<std::tuple<T, U>> out = List<std::tuple<T, U>>::with_capacity(int64_t(n));
    for (size_t i = 0; i < n; ++i) out.vec().emplace_back((*p_)[i], other.vec()[i]);
    return out;
  }
  List<std::tuple<int64_t, T>> enumerate() const {
    List<std::tuple<int64_t, T>> out = List<std::tuple<int64_t, T>>::with_capacity(len());
    for (size_t i = 0; i < p_->size(); ++i) out.vec().emplace_back(int64_t(i), (*p_)[i]);
    return out;
  }
  List<List> windows(int64_t n) const {
    List<List> out;
    if (n <= 0 || size_t(n) > p_->size()) return out;
    for (size_t i = 0; i + size_t(n) <= p_->size(); ++i)
      out.vec().push_back(List(Vec(p_->begin() + i, p_->begin() + i + n)));
    return out;
  }
  std::tuple<List, List> split_at(int64_t i) const {
    size_t k = i < 0 ? 0 : (size_t(i) > p_->size() ? p_->size() : size_t(i));
    return {List(Vec(p_->begin(), p_->begin() + k)), List(Vec(p_->begin() + k, p_->end()))};
  }
  List insert_at(int64_t i, T x) const {
    Vec v(*p_);
    size_t k = i < 0 ? 0 : (size_t(i) > v.size() ? v.size() : size_t(i));
    v.insert(v.begin() + k, std::move(x));
    return List(std::move(v));
  }
  List remove_at(int64_t i) const {
    Vec v(*p_);
    int64_t k = i < 0 ? i + int64_t(v.size()) : i;
    if (k >= 0 && size_t(k) < v.size()) v.erase(v.begin() + k);
    return List(std::move(v));
  }
  List take(int64_t n) const { return slice(0, n <= 0 ? 0 : n, false); }
  List drop(int64_t n) const { return slice(n <= 0 ? 0 : n, detail::slice_end, false); }
  List cycle(int64_t n) const {
    List out;
    for (int64_t k = 0; k < n; ++k)
      for (size_t i = 0; i < p_->size(); ++i) out.p_->push_back((*p_)[i]);
    return out;
  }
  List init() const { return p_->empty() ? List() : slice(0, int64_t(p_->size()) - 1, false); }
  List tail() const { return p_->empty() ? List() : slice(1, detail::slice_end, false); }
  List intersperse(const T& sep) const {
    List out;
    for (size_t i = 0; i < p_->size(); ++i) {
      if (i) out.p_->push_back(sep);
      out.p_->push_back((*p_)[i]);
    }
    return out;
  }
  List chain(const List& other) const {
    Vec v(*p_);
    v.insert(v.end(), other.p_->begin(), other.p_->end());
    return List(std::move(v));
  }
  auto flatten() const {
    using Inner = typename T::value_type;
    List<Inner> out;
    for (const auto& part : *p_)
      for (const auto& x : part.vec()) out.vec().push_back(x);
    return out;
  }
  // Not in the language surface; used by runtime code and generated helpers.
  Str join(const Str& sep) const { return sep.join(*this); }

 private:
  template <class> friend class List;
  Ref<Vec> p_;
};

}  // namespace fitz
