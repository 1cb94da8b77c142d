// Structural equality (`==`), hashing (map keys) and ordering (`<`, sort, min/max) for every
// static type. `==` coerces only Int<->Float; values of different types are unequal.
#pragma once

#include "fitz/show.h"

namespace fitz {

namespace detail {
template <class T> struct is_nullable : std::false_type {};
template <class T> struct is_nullable<Nullable<T>> : std::true_type {};
template <class T> inline constexpr bool is_nullable_v = is_nullable<T>::value;
template <class T> inline constexpr bool is_special_v =
    std::is_same_v<T, Any> || std::is_same_v<T, Null> || is_nullable_v<T>;
[[noreturn]] void unordered_error(const Str& a_type, const Str& b_type);
}  // namespace detail

// ---- Eq --------------------------------------------------------------------------------

template <class A, class B, class> struct Eq {
  static bool eq(const A&, const B&) {
    static_assert(!std::is_same_v<A, B>, "no Fitz equality for this type: specialise fitz::Eq");
    return false;  // values of different types are never equal
  }
};
template <class A, class B>
struct Eq<A, B, std::enable_if_t<detail::is_num_v<A> && detail::is_num_v<B>>> {
  static bool eq(A a, B b) {
    if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
      return a == b;
    else
      return double(a) == double(b);
  }
};
template <> struct Eq<bool, bool> {
  static bool eq(bool a, bool b) { return a == b; }
};
template <> struct Eq<Null, Null> {
  static bool eq(Null, Null) { return true; }
};
template <> struct Eq<Str, Str> {
  static bool eq(const Str& a, const Str& b) { return a == b; }
};
template <size_t N> struct Eq<Str, char[N]> {
  static bool eq(const Str& a, const char (&b)[N]) {
    return a.size() == N - 1 && __builtin_memcmp(a.data(), b, N - 1) == 0;
  }
};
template <size_t N> struct Eq<char[N], Str> {
  static bool eq(const char (&a)[N], const Str& b) { return Eq<Str, char[N]>::eq(b, a); }
};
template <> struct Eq<Bytes, Bytes> {
  static bool eq(const Bytes& a, const Bytes& b) { return a == b; }
};
template <> struct Eq<Range, Range> {
  static bool eq(const Range& a, const Range& b) {
    return a.start == b.start && a.stop == b.stop && a.inclusive == b.inclusive;
  }
};
template <class A, class B> struct Eq<List<A>, List<B>> {
  static bool eq(const List<A>& a, const List<B>& b) {
    if constexpr (std::is_same_v<A, B>)
      if (a.same(b)) return true;
    const auto& x = a.vec();
    const auto& y = b.vec();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!Eq<A, B>::eq(x[i], y[i])) return false;
    return true;
  }
};
template <class K1, class V1, class K2, class V2> struct Eq<Map<K1, V1>, Map<K2, V2>> {
  // Same keys with equal values, in any order.
  static bool eq(const Map<K1, V1>& a, const Map<K2, V2>& b) {
    if constexpr (std::is_same_v<K1, K2> && std::is_same_v<V1, V2>)
      if (a.same(b)) return true;
    if (a.len() != b.len()) return false;
    for (const auto& e : a.entries_vec()) {
      const V2* v = nullptr;
      if constexpr (std::is_same_v<K1, K2>) {
        v = b.find(e.key);
      } else {
        for (const auto& f : b.entries_vec())
          if (Eq<K1, K2>::eq(e.key, f.key)) {
            v = &f.value;
            break;
          }
      }
      if (!v || !Eq<V1, V2>::eq(e.value, *v)) return false;
    }
    return true;
  }
};
template <class... As, class... Bs> struct Eq<std::tuple<As...>, std::tuple<Bs...>> {
  static bool eq(const std::tuple<As...>& a, const std::tuple<Bs...>& b) {
    if constexpr (sizeof...(As) != sizeof...(Bs))
      return false;
    else
      return elems(a, b, std::index_sequence_for<As...>{});
  }
  template <size_t... I>
  static bool elems(const std::tuple<As...>& a, const std::tuple<Bs...>& b,
                    std::index_sequence<I...>) {
    return (Eq<std::tuple_element_t<I, std::tuple<As...>>, std::tuple_element_t<I, std::tuple<Bs...>>>::eq(
                std::get<I>(a), std::get<I>(b)) &&
            ...);
  }
};
template <class T1, class E1, class T2, class E2> struct Eq<Result<T1, E1>, Result<T2, E2>> {
  static bool eq(const Result<T1, E1>& a, const Result<T2, E2>& b) {
    if (a.is_ok() != b.is_ok()) return false;
    return a.is_ok() ? Eq<T1, T2>::eq(a.value(), b.value()) : Eq<E1, E2>::eq(a.error(), b.error());
  }
};
template <class S> struct Eq<Fn<S>, Fn<S>> {
  static bool eq(const Fn<S>& a, const Fn<S>& b) { return a.same(b); }
};
template <class A, class B> struct Eq<Nullable<A>, Nullable<B>> {
  static bool eq(const Nullable<A>& a, const Nullable<B>& b) {
    if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
    return Eq<A, B>::eq(a.value(), b.value());
  }
};
template <class A> struct Eq<Nullable<A>, Null> {
  static bool eq(const Nullable<A>& a, Null) { return a.is_null(); }
};
template <class B> struct Eq<Null, Nullable<B>> {
  static bool eq(Null, const Nullable<B>& b) { return b.is_null(); }
};
template <class A, class B>
struct Eq<Nullable<A>, B, std::enable_if_t<!detail::is_special_v<B>>> {
  static bool eq(const Nullable<A>& a, const B& b) { return !a.is_null() && Eq<A, B>::eq(a.value(), b); }
};
template <class A, class B>
struct Eq<A, Nullable<B>, std::enable_if_t<!detail::is_special_v<A>>> {
  static bool eq(const A& a, const Nullable<B>& b) { return !b.is_null() && Eq<A, B>::eq(a, b.value()); }
};

// ---- Hash ------------------------------------------------------------------------------
// Int and integral Float values hash alike, so `Any` keys 1 and 1.0 collide as they compare.

namespace detail {
// Keyed like byte strings: mix64 alone is invertible, so a client could compute integers that
// share their low bits.
inline uint64_t hash_int(int64_t v) {
  const HashKey& k = hash_key();
  return mix64(mix64(uint64_t(v) ^ k.k0) + k.k1);
}
uint64_t hash_float(double v);
}  // namespace detail

template <class T> struct Hash<T, std::enable_if_t<std::is_integral_v<T> && detail::is_num_v<T>>> {
  static uint64_t hash(T v) { return detail::hash_int(int64_t(v)); }
};
template <class T> struct Hash<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static uint64_t hash(T v) { return detail::hash_float(double(v)); }
};
template <> struct Hash<bool> {
  static uint64_t hash(bool v) { return v ? 0x51ED27ULL : 0xB0011ULL; }
};
template <> struct Hash<Null> {
  static uint64_t hash(Null) { return 0x4E554C4CULL; }
};
template <> struct Hash<Str> {
  static uint64_t hash(const Str& s) { return s.hash(); }
};
template <> struct Hash<Bytes> {
  static uint64_t hash(const Bytes& b) { return b.hash() ^ 0xB7E5ULL; }
};
template <> struct Hash<Range> {
  static uint64_t hash(const Range& r) {
    return detail::hash_combine(detail::hash_int(r.start), detail::hash_int(r.stop) + r.inclusive);
  }
};
template <class T> struct Hash<List<T>> {
  static uint64_t hash(const List<T>& l) {
    uint64_t h = 0x11570ULL;
    for (const auto& x : l.vec()) h = detail::hash_combine(h, Hash<T>::hash(x));
    return h;
  }
};
template <class K, class V> struct Hash<Map<K, V>> {
  static uint64_t hash(const Map<K, V>& m) {  // order-independent, like Map equality
    uint64_t h = 0x3A9ULL;
    for (const auto& e : m.entries_vec())
      h += detail::mix64(Hash<K>::hash(e.key) ^ (Hash<V>::hash(e.value) * 31));
    return h;
  }
};
template <class... Ts> struct Hash<std::tuple<Ts...>> {
  static uint64_t hash(const std::tuple<Ts...>& t) {
    return elems(t, std::index_sequence_for<Ts...>{});
  }
  template <size_t... I> static uint64_t elems(const std::tuple<Ts...>& t, std::index_sequence<I...>) {
    uint64_t h = 0x7A9ULL;
    ((h = detail::hash_combine(h, Hash<Ts>::hash(std::get<I>(t)))), ...);
    return h;
  }
};
template <class T, class E> struct Hash<Result<T, E>> {
  static uint64_t hash(const Result<T, E>& r) {
    return r.is_ok() ? detail::hash_combine(1, Hash<T>::hash(r.value()))
                     : detail::hash_combine(2, Hash<E>::hash(r.error()));
  }
};
template <class T> struct Hash<Nullable<T>> {
  static uint64_t hash(const Nullable<T>& n) {
    return n.is_null() ? Hash<Null>::hash(Null{}) : Hash<T>::hash(n.value());
  }
};

// ---- Cmp -------------------------------------------------------------------------------

template <class A, class B, class> struct Cmp {
  static int cmp(const A&, const B&) { detail::unordered_error(type_name<A>(), type_name<B>()); }
};
template <class A, class B>
struct Cmp<A, B, std::enable_if_t<detail::is_num_v<A> && detail::is_num_v<B>>> {
  static int cmp(A a, B b) {
    if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
      return a < b ? -1 : (b < a ? 1 : 0);
    } else {
      double x = double(a), y = double(b);
      return x < y ? -1 : (y < x ? 1 : 0);
    }
  }
};
template <> struct Cmp<bool, bool> {
  static int cmp(bool a, bool b) { return int(a) - int(b); }
};
template <> struct Cmp<Null, Null> {
  static int cmp(Null, Null) { return 0; }
};
template <> struct Cmp<Str, Str> {
  static int cmp(const Str& a, const Str& b) { return a.compare(b); }
};
template <> struct Cmp<Bytes, Bytes> {
  static int cmp(const Bytes& a, const Bytes& b) { return a.compare(b); }
};
template <class A, class B> struct Cmp<List<A>, List<B>> {
  static int cmp(const List<A>& a, const List<B>& b) {
    const auto& x = a.vec();
    const auto& y = b.vec();
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (int c = Cmp<A, B>::cmp(x[i], y[i])) return c;
    return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
  }
};
template <class... As, class... Bs> struct Cmp<std::tuple<As...>, std::tuple<Bs...>> {
  static int cmp(const std::tuple<As...>& a, const std::tuple<Bs...>& b) {
    static_assert(sizeof...(As) == sizeof...(Bs), "tuples of different sizes are not ordered");
    return elems(a, b, std::index_sequence_for<As...>{});
  }
  template <size_t... I>
  static int elems(const std::tuple<As...>& a, const std::tuple<Bs...>& b, std::index_sequence<I...>) {
    int c = 0;
    ((c == 0 ? (c = Cmp<std::tuple_element_t<I, std::tuple<As...>>,
                        std::tuple_element_t<I, std::tuple<Bs...>>>::cmp(std::get<I>(a), std::get<I>(b)))
             : 0),
     ...);
    return c;
  }
};
template <class A, class B> struct Cmp<Nullable<A>, Nullable<B>> {
  static int cmp(const Nullable<A>& a, const Nullable<B>& b) {  // null sorts first
    if (a.is_null() || b.is_null()) return int(!a.is_null()) - int(!b.is_null());
    return Cmp<A, B>::cmp(a.value(), b.value());
  }
};

}  // namespace fitz
