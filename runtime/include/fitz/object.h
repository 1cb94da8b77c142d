// User `type`s. Generated code declares a plain struct following this protocol and holds its
// instances as `fitz::Ref<T>` (shared reference semantics); printing, `==`, hashing, type
// names and `Any` conversion (including field access by name) then work automatically:
//
//   struct User {
//     static constexpr const char* fitz_name = "User";
//     static constexpr const char* fitz_field_names[] = {"id", "name"};  // omit if no fields
//     int64_t id = 0;
//     fitz::Str name;
//     auto fitz_fields() const { return std::tie(id, name); }  // declaration order
//     auto fitz_fields() { return std::tie(id, name); }
//     // Optional, for method calls on an `Any` holding a User (see any.h):
//     // bool fitz_call(const char* method, const fitz::Any* args, size_t n,
//     //                fitz::SourcePos pos, fitz::Any* result);
//   };
//   auto u = fitz::make<User>(int64_t{1}, fitz::Str::lit("x"));   // prints User { id: 1, name: "x" }
#pragma once

#include "fitz/eq.h"
#include "fitz/ref.h"

namespace fitz {

template <class T>
concept FitzStruct = requires(const T& t) {
  T::fitz_name;
  t.fitz_fields();
};

namespace detail {
template <class T> const char* field_name(size_t i) {
  if constexpr (requires { T::fitz_field_names; })
    return T::fitz_field_names[i];
  else
    return "?";
}
}  // namespace detail

template <FitzStruct T> struct Show<Ref<T>> {
  static void write(Buf& b, const Ref<T>& r, bool) {
    if (!r) {
      b.lit("null");
      return;
    }
    b.append_cstr(T::fitz_name);
    const T& obj = *r;
    auto fields = obj.fitz_fields();
    constexpr size_t n = std::tuple_size_v<decltype(fields)>;
    if constexpr (n == 0) {
      b.lit(" {}");
    } else {
      b.lit(" {");
      write_fields(b, fields, std::make_index_sequence<n>{});
      b.lit(" }");
    }
  }
  template <class Tup, size_t... I> static void write_fields(Buf& b, const Tup& t, std::index_sequence<I...>) {
    ((b.append_cstr(I ? ", " : " "), b.append_cstr(detail::field_name<T>(I)), b.lit(": "),
      show_quoted(b, std::get<I>(t))),
     ...);
  }
};

namespace detail {
template <class Tup, size_t... I> bool fields_eq(const Tup& a, const Tup& b, std::index_sequence<I...>) {
  return (Eq<std::decay_t<std::tuple_element_t<I, Tup>>, std::decay_t<std::tuple_element_t<I, Tup>>>::eq(
              std::get<I>(a), std::get<I>(b)) &&
          ...);
}
}  // namespace detail

template <FitzStruct T> struct Eq<Ref<T>, Ref<T>> {
  static bool eq(const Ref<T>& a, const Ref<T>& b) {
    if (a.same(b)) return true;
    if (!a || !b) return false;
    const T& x = *a;
    const T& y = *b;
    auto fx = x.fitz_fields();
    auto fy = y.fitz_fields();
    return detail::fields_eq(fx, fy, std::make_index_sequence<std::tuple_size_v<decltype(fx)>>{});
  }
};

template <FitzStruct T> struct Hash<Ref<T>> {
  static uint64_t hash(const Ref<T>& r) {
    if (!r) return 0;
    uint64_t h = detail::hash_bytes(T::fitz_name, __builtin_strlen(T::fitz_name));
    const T& obj = *r;
    std::apply([&](const auto&... f) { ((h = detail::hash_combine(h, hash_value(f))), ...); },
               obj.fitz_fields());
    return h;
  }
};

template <FitzStruct T> struct TypeName<Ref<T>> {
  static void write(Buf& b) { b.append_cstr(T::fitz_name); }
};

}  // namespace fitz
