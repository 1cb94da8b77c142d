// Display forms and printing. `show(buf, v)` writes what `print` shows; inside collections
// strings are quoted with escapes (`show_quoted`). `print(a, b)` joins display forms with a
// space and a newline into a buffered stdout; `interp(...)` builds an interpolated string.
#pragma once

#include "fitz/bytes.h"
#include "fitz/fn.h"
#include "fitz/map.h"
#include "fitz/range.h"

namespace fitz {

namespace detail {
template <class T> inline constexpr bool is_num_v =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>;
}

// ---- Show ------------------------------------------------------------------------------

template <class T> struct Show<T, std::enable_if_t<std::is_integral_v<T> && detail::is_num_v<T>>> {
  static void write(Buf& b, T v, bool) {
    if constexpr (std::is_signed_v<T>)
      detail::write_int(b, int64_t(v));
    else
      detail::write_uint(b, uint64_t(v));
  }
};
template <class T> struct Show<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static void write(Buf& b, T v, bool) { detail::write_float(b, double(v)); }
};
template <> struct Show<bool> {
  static void write(Buf& b, bool v, bool) {
    if (v)
      b.lit("true");
    else
      b.lit("false");
  }
};
template <> struct Show<Null> {
  static void write(Buf& b, Null, bool) { b.lit("null"); }
};
template <> struct Show<Str> {
  static void write(Buf& b, const Str& s, bool quoted) {
    if (quoted)
      detail::write_quoted(b, s.data(), s.size());
    else
      b.append(s.data(), s.size());
  }
};
template <size_t N> struct Show<char[N]> {
  static void write(Buf& b, const char (&s)[N], bool quoted) {
    if (quoted)
      detail::write_quoted(b, s, N - 1);
    else
      b.append(s, N - 1);
  }
};
template <> struct Show<const char*> {
  static void write(Buf& b, const char* s, bool quoted) {
    if (quoted)
      detail::write_quoted(b, s, __builtin_strlen(s));
    else
      b.append_cstr(s);
  }
};
template <> struct Show<char*> : Show<const char*> {};
template <> struct Show<Bytes> {
  static void write(Buf& b, const Bytes& v, bool);  // b"..." (print.cpp)
};
template <> struct Show<Range> {
  static void write(Buf& b, const Range& r, bool) {
    detail::write_int(b, r.start);
    if (r.inclusive)
      b.lit("..=");
    else
      b.lit("..");
    detail::write_int(b, r.stop);
  }
};
template <class T> struct Show<List<T>> {
  static void write(Buf& b, const List<T>& l, bool) {
    b.push('[');
    const auto& v = l.vec();
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) b.lit(", ");
      Show<T>::write(b, v[i], true);
    }
    b.push(']');
  }
};
template <class K, class V> struct Show<Map<K, V>> {
  static void write(Buf& b, const Map<K, V>& m, bool) {
    b.push('{');
    const auto& es = m.entries_vec();
    for (size_t i = 0; i < es.size(); ++i) {
      if (i) b.lit(", ");
      Show<K>::write(b, es[i].key, true);
      b.lit(": ");
      Show<V>::write(b, es[i].value, true);
    }
    b.push('}');
  }
};
template <class... Ts> struct Show<std::tuple<Ts...>> {
  static void write(Buf& b, const std::tuple<Ts...>& t, bool) {
    b.push('(');
    write_elems(b, t, std::index_sequence_for<Ts...>{});
    if constexpr (sizeof...(Ts) == 1) b.push(',');
    b.push(')');
  }
  template <size_t... I>
  static void write_elems(Buf& b, const std::tuple<Ts...>& t, std::index_sequence<I...>) {
    ((I ? b.lit(", ") : void(), Show<Ts>::write(b, std::get<I>(t), true)), ...);
  }
};
template <class T, class E> struct Show<Result<T, E>> {
  static void write(Buf& b, const Result<T, E>& r, bool) {
    if (r.is_ok()) {
      b.lit("Ok(");
      Show<T>::write(b, r.value(), true);
    } else {
      b.lit("Err(");
      Show<E>::write(b, r.error(), true);
    }
    b.push(')');
  }
};
template <class T> struct Show<Nullable<T>> {
  static void write(Buf& b, const Nullable<T>& n, bool quoted) {
    if (n.is_null())
      b.lit("null");
    else
      Show<T>::write(b, n.value(), quoted);
  }
};
template <class S> struct Show<Fn<S>> {
  static void write(Buf& b, const Fn<S>&, bool) { b.lit("<function>"); }
};

// ---- TypeName --------------------------------------------------------------------------

template <class T> struct TypeName<T, std::enable_if_t<std::is_integral_v<T> && detail::is_num_v<T>>> {
  static void write(Buf& b) { b.lit("Int"); }
};
template <class T> struct TypeName<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static void write(Buf& b) { b.lit("Float"); }
};
template <> struct TypeName<bool> {
  static void write(Buf& b) { b.lit("Bool"); }
};
template <> struct TypeName<Null> {
  static void write(Buf& b) { b.lit("Null"); }
};
template <> struct TypeName<Str> {
  static void write(Buf& b) { b.lit("Str"); }
};
template <> struct TypeName<Bytes> {
  static void write(Buf& b) { b.lit("Bytes"); }
};
template <> struct TypeName<Range> {
  static void write(Buf& b) { b.lit("Range"); }
};
template <class T> struct TypeName<List<T>> {
  static void write(Buf& b) {
    b.lit("List<");
    TypeName<T>::write(b);
    b.push('>');
  }
};
template <class K, class V> struct TypeName<Map<K, V>> {
  static void write(Buf& b) {
    b.lit("Map<");
    TypeName<K>::write(b);
    b.lit(", ");
    TypeName<V>::write(b);
    b.push('>');
  }
};
template <class... Ts> struct TypeName<std::tuple<Ts...>> {
  static void write(Buf& b) {
    b.push('(');
    size_t i = 0;
    ((i++ ? b.lit(", ") : void(), TypeName<Ts>::write(b)), ...);
    if constexpr (sizeof...(Ts) == 1) b.push(',');
    b.push(')');
  }
};
template <class T, class E> struct TypeName<Result<T, E>> {
  static void write(Buf& b) {
    b.lit("Result<");
    TypeName<T>::write(b);
    b.lit(", ");
    TypeName<E>::write(b);
    b.push('>');
  }
};
template <class T> struct TypeName<Nullable<T>> {
  static void write(Buf& b) {
    TypeName<T>::write(b);
    b.push('?');
  }
};
template <class R, class... A> struct TypeName<Fn<R(A...)>> {
  static void write(Buf& b) {
    b.lit("Fn(");
    size_t i = 0;
    ((i++ ? b.lit(", ") : void(), TypeName<A>::write(b)), ...);
    b.lit(") -> ");
    TypeName<R>::write(b);
  }
};

template <class T> Str type_name() {
  Buf b;
  TypeName<T>::write(b);
  return b.take();
}

// ---- Building strings ------------------------------------------------------------------

namespace detail {
// A reusable per-thread buffer for building short strings without allocating; nested use
// falls back to a fresh buffer.
class Scratch {
 public:
  Scratch();
  ~Scratch();
  Buf& buf() { return *b_; }
  Str finish();  // copies out (inline when short); the scratch buffer is kept for reuse

 private:
  Buf* b_;
  bool owned_;
};
}  // namespace detail

// `"a {x} b"` -> `fitz::interp("a ", x, " b")`: concatenates display forms (strings unquoted).
template <class... A> Str interp(const A&... a) {
  detail::Scratch s;
  (show(s.buf(), a), ...);
  return s.finish();
}

// The display form as a string (`x.to_str()`, `"{x}"`).
template <class T> Str to_str(const T& v) {
  if constexpr (std::is_same_v<T, Str>) {
    return v;
  } else {
    detail::Scratch s;
    show(s.buf(), v);
    return s.finish();
  }
}
// The quoted form (how `v` prints inside a list).
template <class T> Str to_repr(const T& v) {
  detail::Scratch s;
  show_quoted(s.buf(), v);
  return s.finish();
}

// ---- stdout ----------------------------------------------------------------------------
//
// `print` writes into a per-thread buffer that is flushed when it grows large, at every
// newline when stdout is a terminal, before the event loop blocks, before a runtime error
// message, and at exit. `OutputCapture` redirects this thread's prints into a string.

namespace detail {
Buf& out_buf();
void out_written();
}  // namespace detail

void flush_stdout();

template <class... A> Null print(const A&... a) {
  Buf& b = detail::out_buf();
  bool first = true;
  ((first ? void(first = false) : b.push(' '), show(b, a)), ...);
  b.push('\n');
  detail::out_written();
  return {};
}

class OutputCapture {
 public:
  OutputCapture();
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;
  Str text() const;  // what was printed so far
  Str take();        // ... and clears it

 private:
  Buf buf_;
  Buf* prev_;
};

template <class T, class E> void Result<T, E>::unwrap_failed(SourcePos pos) const {
  Buf b;
  b.lit("error propagated to the top level: ");
  Show<Result>::write(b, *this, false);
  runtime_error(pos, b.take());
}

}  // namespace fitz
