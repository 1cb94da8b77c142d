// The typed boxes behind `Any` and the to_any / from_any conversions for every static type.
// Included at the end of any.h.
#pragma once

#include "fitz/any.h"

namespace fitz {
namespace detail {

[[noreturn]] void arity_error(SourcePos pos, size_t expected, size_t got);

template <class T> struct ListBox final : AnyObj {
  List<T> v;
  explicit ListBox(List<T> l) : v(std::move(l)) {}
  ObjKind kind() const override { return ObjKind::List; }
  const void* type_id() const override { return detail::type_id<ListBox>(); }
  void show(Buf& b, bool q) const override { Show<List<T>>::write(b, v, q); }
  void type_name(Buf& b) const override { TypeName<List<T>>::write(b); }
  bool equals(const AnyObj& o) const override { return list_equals(*this, o); }
  uint64_t hash() const override { return list_hash(*this); }
  int64_t len() const override { return v.len(); }
  Any get(int64_t i, SourcePos) const override {
    const std::vector<T>& vec = v.vec();
    return to_any<T>(vec[size_t(i)]);
  }
  void set(int64_t i, const Any& x, SourcePos pos) override { v.vec()[size_t(i)] = from_any<T>(x, pos); }
  void push(const Any& x, SourcePos pos) override { v.push(from_any<T>(x, pos)); }
  Any pop(SourcePos pos) override { return to_any<T>(v.pop(pos)); }
  void assign(const std::vector<Any>& xs, SourcePos pos) override {
    std::vector<T> n;
    n.reserve(xs.size());
    for (const auto& x : xs) n.push_back(from_any<T>(x, pos));
    v.vec().swap(n);
  }
};

template <class K, class V> struct MapBox final : AnyObj {
  Map<K, V> v;
  explicit MapBox(Map<K, V> m) : v(std::move(m)) {}
  ObjKind kind() const override { return ObjKind::Map; }
  const void* type_id() const override { return detail::type_id<MapBox>(); }
  void show(Buf& b, bool q) const override { Show<Map<K, V>>::write(b, v, q); }
  void type_name(Buf& b) const override { TypeName<Map<K, V>>::write(b); }
  bool equals(const AnyObj& o) const override { return map_equals(*this, o); }
  uint64_t hash() const override { return map_hash(*this); }
  int64_t len() const override { return v.len(); }
  bool map_get(const Any& key, Any* out) const override {
    K k = blank<K>();
    if (!FromAny<K>::get(key, &k)) return false;
    const V* p = v.find(k);
    if (!p) return false;
    *out = to_any<V>(*p);
    return true;
  }
  void map_set(const Any& key, const Any& x, SourcePos pos) override {
    v.set(from_any<K>(key, pos), from_any<V>(x, pos));
  }
  Any key_at(int64_t i) const override { return to_any<K>(v.entries_vec()[size_t(i)].key); }
  Any value_at(int64_t i) const override { return to_any<V>(v.entries_vec()[size_t(i)].value); }
};

template <class... Ts> struct TupleBox final : AnyObj {
  std::tuple<Ts...> v;
  explicit TupleBox(std::tuple<Ts...> t) : v(std::move(t)) {}
  ObjKind kind() const override { return ObjKind::Tuple; }
  const void* type_id() const override { return detail::type_id<TupleBox>(); }
  void show(Buf& b, bool q) const override { Show<std::tuple<Ts...>>::write(b, v, q); }
  void type_name(Buf& b) const override { TypeName<std::tuple<Ts...>>::write(b); }
  bool equals(const AnyObj& o) const override { return list_equals(*this, o); }
  uint64_t hash() const override { return list_hash(*this); }
  int64_t len() const override { return int64_t(sizeof...(Ts)); }
  Any get(int64_t i, SourcePos) const override { return get_at(i, std::index_sequence_for<Ts...>{}); }
  template <size_t... I> Any get_at(int64_t i, std::index_sequence<I...>) const {
    Any r;
    ((int64_t(I) == i ? void(r = to_any<Ts>(std::get<I>(v))) : void()), ...);
    return r;
  }
};

template <class T, class E> struct ResultBox final : AnyObj {
  Result<T, E> v;
  explicit ResultBox(Result<T, E> r) : v(std::move(r)) {}
  ObjKind kind() const override { return ObjKind::Result; }
  const void* type_id() const override { return detail::type_id<ResultBox>(); }
  void show(Buf& b, bool q) const override { Show<Result<T, E>>::write(b, v, q); }
  void type_name(Buf& b) const override { TypeName<Result<T, E>>::write(b); }
  bool equals(const AnyObj& o) const override { return o.is_ok() == is_ok() && any_eq(inner(), o.inner()); }
  uint64_t hash() const override { return hash_combine(is_ok() ? 1 : 2, any_hash(inner())); }
  bool is_ok() const override { return v.is_ok(); }
  Any inner() const override { return v.is_ok() ? to_any<T>(v.value()) : to_any<E>(v.error()); }
};

template <class Sig> struct FnBox;
template <class R, class... A> struct FnBox<R(A...)> final : AnyObj {
  Fn<R(A...)> v;
  explicit FnBox(Fn<R(A...)> f) : v(std::move(f)) {}
  ObjKind kind() const override { return ObjKind::Fn; }
  const void* type_id() const override { return detail::type_id<FnBox>(); }
  void show(Buf& b, bool) const override { b.lit("<function>"); }
  void type_name(Buf& b) const override { TypeName<Fn<R(A...)>>::write(b); }
  bool equals(const AnyObj& o) const override { return &o == this; }
  Any call(const Any* args, size_t n, SourcePos pos) const override {
    if (n != sizeof...(A)) arity_error(pos, sizeof...(A), n);
    return call_at(args, pos, std::index_sequence_for<A...>{});
  }
  template <size_t... I> Any call_at(const Any* args, SourcePos pos, std::index_sequence<I...>) const {
    (void)args;
    (void)pos;
    if constexpr (std::is_void_v<R>) {
      v(from_any<std::decay_t<A>>(args[I], pos)...);
      return Any();
    } else {
      return to_any<R>(v(from_any<std::decay_t<A>>(args[I], pos)...));
    }
  }
};

template <class T> struct StructBox final : AnyObj {
  Ref<T> v;
  explicit StructBox(Ref<T> r) : v(std::move(r)) {}
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<StructBox>(); }
  void show(Buf& b, bool q) const override { Show<Ref<T>>::write(b, v, q); }
  void type_name(Buf& b) const override { TypeName<Ref<T>>::write(b); }
  bool equals(const AnyObj& o) const override {
    return o.type_id() == type_id() && Eq<Ref<T>, Ref<T>>::eq(v, static_cast<const StructBox&>(o).v);
  }
  uint64_t hash() const override { return Hash<Ref<T>>::hash(v); }
  bool get_field(const char* name, Any* out) const override {
    const T& obj = *v;
    auto fields = obj.fitz_fields();
    return get_at(fields, name, out, std::make_index_sequence<std::tuple_size_v<decltype(fields)>>{});
  }
  template <class Tup, size_t... I>
  static bool get_at(const Tup& t, const char* name, Any* out, std::index_sequence<I...>) {
    bool found = false;
    ((!found && __builtin_strcmp(field_name<T>(I), name) == 0
          ? void((*out = to_any(std::get<I>(t)), found = true))
          : void()),
     ...);
    return found;
  }
  bool visit_fields(FieldVisitor& fv) const override {
    if (!v) return false;
    const T& obj = *v;
    auto fields = obj.fitz_fields();
    visit_at(fields, fv, std::make_index_sequence<std::tuple_size_v<decltype(fields)>>{});
    return true;
  }
  template <class Tup, size_t... I> static void visit_at(const Tup& t, FieldVisitor& fv, std::index_sequence<I...>) {
    // Types with `@hidden` fields say which (fitz_field_hidden); those are never serialised.
    ((hidden_field(I) ? void() : fv.field(field_name<T>(I), to_any(std::get<I>(t)))), ...);
  }
  static bool hidden_field(size_t i) {
    if constexpr (requires { T::fitz_field_hidden; })
      return T::fitz_field_hidden[i];
    else
      return ((void)i, false);
  }
  bool set_field(const char* name, const Any& x, SourcePos pos) override {
    auto fields = v->fitz_fields();
    return set_at(fields, name, x, pos, std::make_index_sequence<std::tuple_size_v<decltype(fields)>>{});
  }
  template <class Tup, size_t... I>
  static bool set_at(Tup& t, const char* name, const Any& x, SourcePos pos, std::index_sequence<I...>) {
    bool found = false;
    ((!found && __builtin_strcmp(field_name<T>(I), name) == 0
          ? void((std::get<I>(t) = from_any<std::decay_t<std::tuple_element_t<I, Tup>>>(x, pos), found = true))
          : void()),
     ...);
    return found;
  }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if constexpr (requires(T& t) { t.fitz_call(name, args, n, pos, out); })
      return v->fitz_call(name, args, n, pos, out);
    else
      return false;
  }
};

template <class T> struct TaskBox final : AnyObj {
  Task<T> v;
  explicit TaskBox(Task<T> t) : v(std::move(t)) {}
  ObjKind kind() const override { return ObjKind::Task; }
  const void* type_id() const override { return detail::type_id<TaskBox>(); }
  void show(Buf& b, bool) const override { b.lit("<future>"); }
  void type_name(Buf& b) const override { TypeName<Task<T>>::write(b); }
  bool equals(const AnyObj& o) const override { return &o == this; }
  Task<Any> await_any() const override { return convert(v); }
  static Task<Any> convert(Task<T> t) {
    T x = co_await t;
    co_return to_any<T>(x);
  }
};

struct RangeBox final : AnyObj {
  Range v;
  explicit RangeBox(Range r) : v(r) {}
  ObjKind kind() const override { return ObjKind::Range; }
  const void* type_id() const override { return detail::type_id<RangeBox>(); }
  void show(Buf& b, bool q) const override;
  void type_name(Buf& b) const override;
  bool equals(const AnyObj& o) const override;
  uint64_t hash() const override;
  int64_t len() const override;
  Any get(int64_t i, SourcePos pos) const override;
};

struct BytesBox final : AnyObj {
  Bytes v;
  explicit BytesBox(Bytes b) : v(std::move(b)) {}
  ObjKind kind() const override { return ObjKind::Bytes; }
  const void* type_id() const override { return detail::type_id<BytesBox>(); }
  void show(Buf& b, bool q) const override;
  void type_name(Buf& b) const override;
  bool equals(const AnyObj& o) const override;
  uint64_t hash() const override;
  int64_t len() const override;
  Any get(int64_t i, SourcePos pos) const override;
};

template <class Box> inline Box* box_of(const Any& a) {
  if (a.is_obj() && a.obj()->type_id() == detail::type_id<Box>()) return static_cast<Box*>(a.obj());
  return nullptr;
}

}  // namespace detail

// ---- ToAny -------------------------------------------------------------------------------

template <> struct ToAny<Any> {
  static Any conv(const Any& a) { return a; }
};
template <> struct ToAny<Null> {
  static Any conv(Null) { return Any(); }
};
template <> struct ToAny<bool> {
  static Any conv(bool v) { return Any(v); }
};
template <class T> struct ToAny<T, std::enable_if_t<std::is_integral_v<T> && detail::is_num_v<T>>> {
  static Any conv(T v) { return Any(int64_t(v)); }
};
template <class T> struct ToAny<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static Any conv(T v) { return Any(double(v)); }
};
template <> struct ToAny<Str> {
  static Any conv(const Str& s) { return Any(s); }
};
template <size_t N> struct ToAny<char[N]> {
  static Any conv(const char (&s)[N]) { return Any(Str(s, N - 1)); }
};
template <> struct ToAny<const char*> {
  static Any conv(const char* s) { return Any(Str(s)); }
};
template <> struct ToAny<Bytes> {
  static Any conv(const Bytes& v) { return Any(new detail::BytesBox(v)); }
};
template <> struct ToAny<Range> {
  static Any conv(const Range& v) { return Any(new detail::RangeBox(v)); }
};
template <class T> struct ToAny<List<T>> {
  static Any conv(const List<T>& v) { return Any(new detail::ListBox<T>(v)); }
};
template <class K, class V> struct ToAny<Map<K, V>> {
  static Any conv(const Map<K, V>& v) { return Any(new detail::MapBox<K, V>(v)); }
};
template <class... Ts> struct ToAny<std::tuple<Ts...>> {
  static Any conv(const std::tuple<Ts...>& v) { return Any(new detail::TupleBox<Ts...>(v)); }
};
template <class T, class E> struct ToAny<Result<T, E>> {
  static Any conv(const Result<T, E>& v) { return Any(new detail::ResultBox<T, E>(v)); }
};
template <class T> struct ToAny<Nullable<T>> {
  static Any conv(const Nullable<T>& v) { return v.is_null() ? Any() : ToAny<T>::conv(v.value()); }
};
template <class S> struct ToAny<Fn<S>> {
  static Any conv(const Fn<S>& v) { return Any(new detail::FnBox<S>(v)); }
};
template <FitzStruct T> struct ToAny<Ref<T>> {
  static Any conv(const Ref<T>& v) { return v ? Any(new detail::StructBox<T>(v)) : Any(); }
};
template <class T> struct ToAny<Task<T>> {
  static Any conv(const Task<T>& v) { return Any(new detail::TaskBox<T>(v)); }
};

// ---- FromAny -----------------------------------------------------------------------------

template <> struct FromAny<Null> {
  static bool get(const Any& a, Null*) { return a.is_null(); }
};
template <> struct FromAny<bool> {
  static bool get(const Any& a, bool* out) {
    if (!a.is_bool()) return false;
    *out = a.bool_value();
    return true;
  }
};
template <class T> struct FromAny<T, std::enable_if_t<std::is_integral_v<T> && detail::is_num_v<T>>> {
  static bool get(const Any& a, T* out) {
    if (!a.is_int()) return false;
    *out = T(a.int_value());
    return true;
  }
};
template <class T> struct FromAny<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static bool get(const Any& a, T* out) {  // Int promotes to Float
    if (a.is_float())
      *out = T(a.float_value());
    else if (a.is_int())
      *out = T(a.int_value());
    else
      return false;
    return true;
  }
};
template <> struct FromAny<Str> {
  static bool get(const Any& a, Str* out) {
    if (!a.is_str()) return false;
    *out = a.str_value();
    return true;
  }
};
template <> struct FromAny<Bytes> {
  static bool get(const Any& a, Bytes* out) {
    auto* b = detail::box_of<detail::BytesBox>(a);
    if (b) *out = b->v;
    return b != nullptr;
  }
};
template <> struct FromAny<Range> {
  static bool get(const Any& a, Range* out) {
    auto* b = detail::box_of<detail::RangeBox>(a);
    if (b) *out = b->v;
    return b != nullptr;
  }
};
template <class T> struct FromAny<List<T>> {
  static bool get(const Any& a, List<T>* out) {
    if (!a.is_kind(detail::ObjKind::List)) return false;
    if (auto* b = detail::box_of<detail::ListBox<T>>(a)) {
      *out = b->v;  // the same shared list
      return true;
    }
    // A list of another element type: convert element by element into a new list.
    detail::AnyObj* o = a.obj();
    int64_t n = o->len();
    List<T> l = List<T>::with_capacity(n);
    for (int64_t i = 0; i < n; ++i) {
      T x = detail::blank<T>();
      if (!FromAny<T>::get(o->get(i, {}), &x)) return false;
      l.vec().push_back(std::move(x));
    }
    *out = l;
    return true;
  }
};
template <> struct FromAny<Any> {
  static bool get(const Any& a, Any* out) {
    *out = a;
    return true;
  }
};
template <class K, class V> struct FromAny<Map<K, V>> {
  static bool get(const Any& a, Map<K, V>* out) {
    if (!a.is_kind(detail::ObjKind::Map)) return false;
    if (auto* b = detail::box_of<detail::MapBox<K, V>>(a)) {
      *out = b->v;
      return true;
    }
    detail::AnyObj* o = a.obj();
    Map<K, V> m;
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      K k = detail::blank<K>();
      V v = detail::blank<V>();
      if (!FromAny<K>::get(o->key_at(i), &k) || !FromAny<V>::get(o->value_at(i), &v)) return false;
      m.set(std::move(k), std::move(v));
    }
    *out = m;
    return true;
  }
};
template <class... Ts> struct FromAny<std::tuple<Ts...>> {
  static bool get(const Any& a, std::tuple<Ts...>* out) {
    if (!a.is_kind(detail::ObjKind::Tuple) || a.obj()->len() != int64_t(sizeof...(Ts))) return false;
    if (auto* b = detail::box_of<detail::TupleBox<Ts...>>(a)) {
      *out = b->v;
      return true;
    }
    return elems(a.obj(), out, std::index_sequence_for<Ts...>{});
  }
  template <size_t... I> static bool elems(detail::AnyObj* o, std::tuple<Ts...>* out, std::index_sequence<I...>) {
    return (FromAny<Ts>::get(o->get(int64_t(I), {}), &std::get<I>(*out)) && ...);
  }
};
template <class T, class E> struct FromAny<Result<T, E>> {
  static bool get(const Any& a, Result<T, E>* out) {
    if (!a.is_kind(detail::ObjKind::Result)) return false;
    if (auto* b = detail::box_of<detail::ResultBox<T, E>>(a)) {
      *out = b->v;
      return true;
    }
    detail::AnyObj* o = a.obj();
    if (o->is_ok()) {
      T x = detail::blank<T>();
      if (!FromAny<T>::get(o->inner(), &x)) return false;
      *out = Result<T, E>::ok(std::move(x));
    } else {
      E x = detail::blank<E>();
      if (!FromAny<E>::get(o->inner(), &x)) return false;
      *out = Result<T, E>::err(std::move(x));
    }
    return true;
  }
};
template <class T> struct FromAny<Nullable<T>> {
  static bool get(const Any& a, Nullable<T>* out) {
    if (a.is_null()) {
      *out = Nullable<T>();
      return true;
    }
    T x = detail::blank<T>();
    if (!FromAny<T>::get(a, &x)) return false;
    *out = Nullable<T>(std::move(x));
    return true;
  }
};
template <class R, class... A> struct FromAny<Fn<R(A...)>> {
  static bool get(const Any& a, Fn<R(A...)>* out) {
    if (!a.is_kind(detail::ObjKind::Fn)) return false;
    if (auto* b = detail::box_of<detail::FnBox<R(A...)>>(a)) {
      *out = b->v;
      return true;
    }
    // Another signature: call it dynamically, converting arguments and result.
    *out = Fn<R(A...)>([a](A... args) -> R {
      Any r = any_call(a, {to_any<std::decay_t<A>>(args)...});
      if constexpr (!std::is_void_v<R>) return from_any<R>(r);
    });
    return true;
  }
};
template <FitzStruct T> struct FromAny<Ref<T>> {
  static bool get(const Any& a, Ref<T>* out) {
    auto* b = detail::box_of<detail::StructBox<T>>(a);
    if (b) *out = b->v;
    return b != nullptr;
  }
};
template <class T> struct FromAny<Task<T>> {
  static bool get(const Any& a, Task<T>* out) {
    if (!a.is_kind(detail::ObjKind::Task)) return false;
    if (auto* b = detail::box_of<detail::TaskBox<T>>(a)) {
      *out = b->v;
      return true;
    }
    *out = convert(a);
    return true;
  }
  static Task<T> convert(Any a) {
    Any r = co_await any_await(a);
    co_return from_any<T>(r);
  }
};

}  // namespace fitz
