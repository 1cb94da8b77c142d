// `Any`: the dynamic value. Scalars (null, Bool, Int, Float, Str) are stored inline; every
// other value is a refcounted box that keeps the *typed* value it came from, so converting a
// `List<Int>` to Any and back yields the same shared list (aliasing survives the round trip).
//
//   fitz::to_any(x)                 any static value -> Any
//   fitz::from_any<T>(a, pos)       Any -> T, or a runtime error "expected T, found U"
//   a.as_int() / as_float / as_str / as_bool / as_bytes   -> Result<..., Str>
//   a.type_name()                   dynamic type, e.g. "Int", "List<Str>", "User"
// Dynamic operations (any_ops.cpp): op::add(a, b, pos) & co, comparisons, fitz::eq,
// any_index / any_set_index / any_slice, any_field / any_set_field, any_call, any_method
// (common Str/List/Map/Int/Float/Result methods by name), any_iter, any_len, any_await.
#pragma once

#include "fitz/format.h"
#include "fitz/object.h"
#include "fitz/task.h"

namespace fitz {

namespace detail {

enum class ObjKind : uint8_t { List, Map, Tuple, Result, Range, Bytes, Fn, Struct, Task };

// Receives the fields of a user type instance, in declaration order (AnyObj::visit_fields).
struct FieldVisitor {
  virtual void field(const char* name, const Any& value) = 0;

 protected:
  ~FieldVisitor() = default;
};

// The box interface. Containers implement the element protocol they support; the defaults
// raise a runtime error naming the operation and the type (any.cpp).
struct AnyObj {
  size_t rc = 1;
  virtual ~AnyObj();
  virtual ObjKind kind() const = 0;
  virtual const void* type_id() const = 0;
  virtual void show(Buf& b, bool quoted) const = 0;
  virtual void type_name(Buf& b) const = 0;
  virtual bool equals(const AnyObj& o) const;  // called only when kinds match
  virtual uint64_t hash() const;
  // List, Tuple, Map, Bytes, Range
  virtual int64_t len() const;
  virtual Any get(int64_t i, SourcePos pos) const;  // i already normalised and in range
  virtual void set(int64_t i, const Any& v, SourcePos pos);
  virtual void push(const Any& v, SourcePos pos);
  virtual Any pop(SourcePos pos);
  virtual void assign(const std::vector<Any>& values, SourcePos pos);  // replace all (List)
  // Map
  virtual bool map_get(const Any& key, Any* out) const;
  virtual void map_set(const Any& key, const Any& v, SourcePos pos);
  virtual Any key_at(int64_t i) const;
  virtual Any value_at(int64_t i) const;
  // Result
  virtual bool is_ok() const;
  virtual Any inner() const;
  // Function
  virtual Any call(const Any* args, size_t n, SourcePos pos) const;
  // User type instance
  virtual bool get_field(const char* name, Any* out) const;
  virtual bool set_field(const char* name, const Any& v, SourcePos pos);
  virtual bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out);
  // Every field a serialiser may write (`@hidden` ones skipped); false for boxes that are not
  // user type instances (JSON then writes their display form).
  virtual bool visit_fields(FieldVisitor& v) const;
  // Future
  virtual Task<Any> await_any() const;
};

}  // namespace detail

class Any {
 public:
  enum class Tag : uint8_t { Null, Bool, Int, Float, Str, Obj };

  Any() noexcept : tag_(Tag::Null) {}
  Any(Null) noexcept : tag_(Tag::Null) {}
  Any(bool v) noexcept : tag_(Tag::Bool) { b_ = v; }
  template <class I, class = std::enable_if_t<std::is_integral_v<I> && detail::is_num_v<I>>>
  Any(I v) noexcept : tag_(Tag::Int) {
    i_ = int64_t(v);
  }
  Any(double v) noexcept : tag_(Tag::Float) { f_ = v; }
  Any(const Str& s) : tag_(Tag::Str) { new (&s_) Str(s); }
  Any(Str&& s) noexcept : tag_(Tag::Str) { new (&s_) Str(std::move(s)); }
  template <size_t N> Any(const char (&s)[N]) : tag_(Tag::Str) { new (&s_) Str(Str::lit(s)); }
  Any(const char* s) : tag_(Tag::Str) { new (&s_) Str(s); }
  explicit Any(detail::AnyObj* adopt) noexcept : tag_(Tag::Obj) { o_ = adopt; }

  Any(const Any& o) noexcept : tag_(o.tag_) { copy_payload(o); }
  Any(Any&& o) noexcept : tag_(o.tag_) {
    move_payload(o);
  }
  Any& operator=(const Any& o) noexcept {
    if (this != &o) {
      Any t(o);
      *this = std::move(t);
    }
    return *this;
  }
  Any& operator=(Any&& o) noexcept {
    if (this != &o) {
      drop();
      tag_ = o.tag_;
      move_payload(o);
    }
    return *this;
  }
  ~Any() { drop(); }

  Tag tag() const { return tag_; }
  bool is_null() const { return tag_ == Tag::Null; }
  bool is_bool() const { return tag_ == Tag::Bool; }
  bool is_int() const { return tag_ == Tag::Int; }
  bool is_float() const { return tag_ == Tag::Float; }
  bool is_str() const { return tag_ == Tag::Str; }
  bool is_obj() const { return tag_ == Tag::Obj; }
  bool is_kind(detail::ObjKind k) const { return tag_ == Tag::Obj && o_->kind() == k; }
  // Unchecked accessors (valid only for the matching tag).
  bool bool_value() const { return b_; }
  int64_t int_value() const { return i_; }
  double float_value() const { return f_; }
  const Str& str_value() const { return s_; }
  detail::AnyObj* obj() const { return o_; }

  // Fitz methods on Any.
  Result<int64_t, Str> as_int() const;
  Result<double, Str> as_float() const;  // Int converts
  Result<Str, Str> as_str() const;
  Result<bool, Str> as_bool() const;
  Result<Bytes, Str> as_bytes() const;
  Str type_name() const;

 private:
  void copy_payload(const Any& o) noexcept {
    switch (tag_) {
      case Tag::Str: new (&s_) Str(o.s_); break;
      case Tag::Obj: o_ = o.o_; detail::rc_inc(o_->rc); break;
      default: i_ = o.i_; break;  // covers b_, i_, f_ (same 8 bytes)
    }
  }
  void move_payload(Any& o) noexcept {
    if (tag_ == Tag::Str) {
      new (&s_) Str(std::move(o.s_));
      o.s_.~Str();
    } else {
      i_ = o.i_;
    }
    o.tag_ = Tag::Null;
  }
  void drop() noexcept {
    if (tag_ == Tag::Str)
      s_.~Str();
    else if (tag_ == Tag::Obj && detail::rc_dec(o_->rc))
      delete o_;
  }

  Tag tag_;
  union {
    bool b_;
    int64_t i_;
    double f_;
    Str s_;
    detail::AnyObj* o_;
  };
};

// ---- conversions: declarations ------------------------------------------------------------

template <class T, class = void> struct ToAny;
template <class T, class = void> struct FromAny;  // static bool get(const Any&, T* out)

template <class T> Any to_any(const T& v) { return ToAny<T>::conv(v); }

namespace detail {
[[noreturn]] void type_mismatch(SourcePos pos, const Str& expected, const Any& found);
template <class T> T blank() {
  if constexpr (std::is_constructible_v<T, Uninit>)
    return T(uninit);
  else
    return T();
}
}  // namespace detail

template <class T> T from_any(const Any& a, SourcePos pos = {}) {
  if constexpr (std::is_same_v<T, Any>) {
    return a;
  } else {
    T out = detail::blank<T>();
    if (!FromAny<T>::get(a, &out)) detail::type_mismatch(pos, fitz::type_name<T>(), a);
    return out;
  }
}
template <class T> bool try_from_any(const Any& a, T* out) { return FromAny<T>::get(a, out); }

// ---- dynamic operations (any_ops.cpp) -----------------------------------------------------

namespace detail {
void any_show(Buf& b, const Any& a, bool quoted);
bool any_eq(const Any& a, const Any& b);
uint64_t any_hash(const Any& a);
int any_cmp(const Any& a, const Any& b, SourcePos pos = {});
bool list_equals(const AnyObj& a, const AnyObj& b);  // element-wise, any element types
uint64_t list_hash(const AnyObj& a);
bool map_equals(const AnyObj& a, const AnyObj& b);
uint64_t map_hash(const AnyObj& a);
}  // namespace detail

int64_t any_len(const Any& a, SourcePos pos = {});
Any any_index(const Any& recv, const Any& index, SourcePos pos = {});
Null any_set_index(const Any& recv, const Any& index, const Any& value, SourcePos pos = {});
Any any_slice(const Any& recv, int64_t start, int64_t end, bool inclusive, SourcePos pos = {});
Any any_field(const Any& recv, const char* name, SourcePos pos = {});
Null any_set_field(const Any& recv, const char* name, const Any& value, SourcePos pos = {});
Any any_call(const Any& fn, std::initializer_list<Any> args, SourcePos pos = {});
Any any_call_n(const Any& fn, const Any* args, size_t n, SourcePos pos = {});
Any any_method(const Any& recv, const char* name, std::initializer_list<Any> args, SourcePos pos = {});
Any any_method_n(const Any& recv, const char* name, const Any* args, size_t n, SourcePos pos = {});
// The values a `for` loop visits: list elements, map entries as (key, value) tuples, range
// values, string chars.
List<Any> any_iter(const Any& a, SourcePos pos = {});
Task<Any> any_await(const Any& a, SourcePos pos = {});
// `Ok(x)` / `Err(e)` patterns on a value typed Any: true only for a Result of that side.
inline bool any_is_ok(const Any& a) { return a.is_kind(detail::ObjKind::Result) && a.obj()->is_ok(); }
inline bool any_is_err(const Any& a) { return a.is_kind(detail::ObjKind::Result) && !a.obj()->is_ok(); }
// The value inside a Result held as Any (precondition: any_is_ok or any_is_err).
inline Any any_result_inner(const Any& a) { return a.obj()->inner(); }
// Builders for dynamic collections.
Any any_list(std::initializer_list<Any> items);
Any any_tuple(std::initializer_list<Any> items);

namespace op {
Any add(const Any& a, const Any& b, SourcePos pos = {});
Any sub(const Any& a, const Any& b, SourcePos pos = {});
Any mul(const Any& a, const Any& b, SourcePos pos = {});
Any div(const Any& a, const Any& b, SourcePos pos = {});
Any mod(const Any& a, const Any& b, SourcePos pos = {});
Any neg(const Any& a, SourcePos pos = {});
bool lt(const Any& a, const Any& b, SourcePos pos);
bool le(const Any& a, const Any& b, SourcePos pos);
bool gt(const Any& a, const Any& b, SourcePos pos);
bool ge(const Any& a, const Any& b, SourcePos pos);
#define FITZ_ANY_MIXED_OP(name)                                                                  \
  template <class B, class = std::enable_if_t<!std::is_same_v<B, Any>>>                          \
  Any name(const Any& a, const B& b, SourcePos pos = {}) {                                       \
    return name(a, to_any(b), pos);                                                              \
  }                                                                                              \
  template <class A, class = std::enable_if_t<!std::is_same_v<A, Any>>>                          \
  Any name(const A& a, const Any& b, SourcePos pos = {}) {                                       \
    return name(to_any(a), b, pos);                                                              \
  }
FITZ_ANY_MIXED_OP(add)
FITZ_ANY_MIXED_OP(sub)
FITZ_ANY_MIXED_OP(mul)
FITZ_ANY_MIXED_OP(div)
FITZ_ANY_MIXED_OP(mod)
#undef FITZ_ANY_MIXED_OP
}  // namespace op

// `.sum()` and `.product()` of a List<Any>: its elements are numbers only at run time, so they
// add up through the checked dynamic operators, starting from Int 0 and 1 like a List<Int>.
template <> inline Any List<Any>::sum(SourcePos pos) const {
  Any acc = to_any(int64_t(0));
  for (const auto& x : *p_) acc = op::add(acc, x, pos);
  return acc;
}
template <> inline Any List<Any>::product(SourcePos pos) const {
  Any acc = to_any(int64_t(1));
  for (const auto& x : *p_) acc = op::mul(acc, x, pos);
  return acc;
}

// ---- traits for Any ---------------------------------------------------------------------

template <> struct Show<Any> {
  static void write(Buf& b, const Any& a, bool quoted) { detail::any_show(b, a, quoted); }
};
template <> struct TypeName<Any> {
  static void write(Buf& b) { b.lit("Any"); }
};
template <> struct Hash<Any> {
  static uint64_t hash(const Any& a) { return detail::any_hash(a); }
};
template <> struct Eq<Any, Any> {
  static bool eq(const Any& a, const Any& b) { return detail::any_eq(a, b); }
};
template <class B> struct Eq<Any, B, std::enable_if_t<!std::is_same_v<B, Any>>> {
  static bool eq(const Any& a, const B& b) { return detail::any_eq(a, to_any(b)); }
};
template <class A> struct Eq<A, Any, std::enable_if_t<!std::is_same_v<A, Any>>> {
  static bool eq(const A& a, const Any& b) { return detail::any_eq(to_any(a), b); }
};
template <> struct Cmp<Any, Any> {
  static int cmp(const Any& a, const Any& b) { return detail::any_cmp(a, b); }
};
template <class B> struct Cmp<Any, B, std::enable_if_t<!std::is_same_v<B, Any>>> {
  static int cmp(const Any& a, const B& b) { return detail::any_cmp(a, to_any(b)); }
};
template <class A> struct Cmp<A, Any, std::enable_if_t<!std::is_same_v<A, Any>>> {
  static int cmp(const A& a, const Any& b) { return detail::any_cmp(to_any(a), b); }
};

}  // namespace fitz

#include "fitz/any_boxes.h"
