// JSON at the HTTP boundary: `JsonWriter` appends straight into a byte buffer (the response
// body), `JsonReader` is a pull parser that typed decoders drive field by field, with errors
// that name the field path and the expected type. No Boost here: generated code includes this.
#pragma once

#include "fitz/runtime.h"

namespace fitz::http {

// A borrowed byte range (into a request, a parser buffer or static storage).
struct Text {
  const char* data = "";
  size_t size = 0;

  Text() = default;
  Text(const char* p, size_t n) : data(p), size(n) {}
  template <size_t N> Text(const char (&s)[N]) : data(s), size(N - 1) {}
  Text(const Str& s) : data(s.data()), size(s.size()) {}

  bool empty() const { return size == 0; }
  Str str() const { return Str(data, size); }
  bool operator==(Text o) const {
    return size == o.size && (size == 0 || __builtin_memcmp(data, o.data, size) == 0);
  }
  bool iequals(Text o) const;  // ASCII case-insensitive
};

// ---- Writer ------------------------------------------------------------------------------
//
// Commas are inserted automatically: after a value or a closing bracket the next element
// needs one, after an opening bracket or a key it does not. Keys passed as literals are
// written unescaped (generated code passes identifiers); `key(Str)` escapes.
class JsonWriter {
 public:
  explicit JsonWriter(Buf& out) : b_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  template <size_t N> void key(const char (&lit)[N]) {
    sep();
    b_.push('"');
    b_.append(lit, N - 1);
    b_.lit("\":");
    comma_ = false;
  }
  void key(const Str& k) { key(Text(k)); }
  void key(Text k);

  void value(int64_t v) {
    sep();
    detail::write_int(b_, v);
  }
  void value(int v) { value(int64_t(v)); }
  void value(double v);  // non-finite values become the strings "NaN", "inf", "-inf"
  void value(bool v) {
    sep();
    if (v)
      b_.lit("true");
    else
      b_.lit("false");
  }
  void value(Null) { null(); }
  void value(const Str& s) { value(Text(s)); }
  void value(Text s);
  template <size_t N> void value(const char (&s)[N]) { value(Text(s, N - 1)); }
  void value(const char* s) { value(Text(s, __builtin_strlen(s))); }
  void null() {
    sep();
    b_.lit("null");
  }
  // Already-encoded JSON (e.g. a nested document), written as one value.
  void raw(Text json) {
    sep();
    b_.append(json.data, json.size);
  }
  // Any value with a JsonEncode specialisation (lists, maps, nullables, user types...).
  template <class T> void value(const T& v);

  Buf& buf() { return b_; }

 private:
  void sep() {
    if (comma_) b_.push(',');
    comma_ = true;
  }
  void open(char c) {
    sep();
    b_.push(c);
    comma_ = false;
  }
  void close(char c) {
    b_.push(c);
    comma_ = true;
  }

  Buf& b_;
  bool comma_ = false;
};

// How a static type is written. Generated code may specialise it per user type (e.g. to skip
// @hidden fields); the default for user structs writes every field in declaration order.
template <class T, class Enable = void> struct JsonEncode;

template <> struct JsonEncode<int64_t> {
  static void write(JsonWriter& w, int64_t v) { w.value(v); }
};
template <> struct JsonEncode<double> {
  static void write(JsonWriter& w, double v) { w.value(v); }
};
template <> struct JsonEncode<bool> {
  static void write(JsonWriter& w, bool v) { w.value(v); }
};
template <> struct JsonEncode<Str> {
  static void write(JsonWriter& w, const Str& v) { w.value(v); }
};
template <> struct JsonEncode<Null> {
  static void write(JsonWriter& w, Null) { w.null(); }
};
template <> struct JsonEncode<Bytes> {  // base64 (standard alphabet, padded)
  static void write(JsonWriter& w, const Bytes& v);
};
template <> struct JsonEncode<Any> {
  static void write(JsonWriter& w, const Any& v);
};
template <class T> struct JsonEncode<Nullable<T>> {
  static void write(JsonWriter& w, const Nullable<T>& v) {
    if (v.has_value())
      JsonEncode<T>::write(w, v.value());
    else
      w.null();
  }
};
// A value's encoder behind a plain function pointer: the buffer, the array loop and their
// hand-off are compiled once in the HTTP runtime (json.cpp) and each type a program encodes
// contributes only its own encoder, where a template would compile them again per type.
using ErasedEncode = void (*)(JsonWriter&, const void*);
template <class T> void encode_erased(JsonWriter& w, const void* v);
// `n` elements `stride` bytes apart from `data`, as a JSON array.
void write_array_erased(JsonWriter& w, const void* data, size_t n, size_t stride, ErasedEncode each);
Str to_json_erased(const void* v, ErasedEncode write);
template <class T> inline constexpr bool is_ref_element = false;
template <class U> inline constexpr bool is_ref_element<Ref<U>> = true;

template <class T> struct JsonEncode<List<T>> {
  static void write(JsonWriter& w, const List<T>& v) {
    if constexpr (is_ref_element<T>) {
      // Lists of user types, one per type answered in most services: the loop is shared
      // (an indirect call per element, beside an encoder that writes a whole object).
      const auto& vec = v.vec();
      write_array_erased(w, vec.data(), vec.size(), sizeof(T), &encode_erased<T>);
    } else {
      w.begin_array();
      for (const auto& x : v.vec()) JsonEncode<T>::write(w, x);
      w.end_array();
    }
  }
};
template <class V> struct JsonEncode<Map<Str, V>> {
  static void write(JsonWriter& w, const Map<Str, V>& m) {
    w.begin_object();
    for (const auto& e : m.entries_vec()) {
      w.key(e.key);
      JsonEncode<V>::write(w, e.value);
    }
    w.end_object();
  }
};
template <class... T> struct JsonEncode<std::tuple<T...>> {  // tuples are arrays
  static void write(JsonWriter& w, const std::tuple<T...>& t) {
    w.begin_array();
    std::apply([&](const auto&... x) { (JsonEncode<std::decay_t<decltype(x)>>::write(w, x), ...); }, t);
    w.end_array();
  }
};
template <class T, class E> struct JsonEncode<Result<T, E>> {  // nested: {"Ok": v} / {"Err": e}
  static void write(JsonWriter& w, const Result<T, E>& r) {
    w.begin_object();
    if (r.is_ok()) {
      w.key("Ok");
      JsonEncode<T>::write(w, r.value());
    } else {
      w.key("Err");
      JsonEncode<E>::write(w, r.error());
    }
    w.end_object();
  }
};
template <FitzStruct T> struct JsonEncode<Ref<T>> {
  static void write(JsonWriter& w, const Ref<T>& r) {
    if (!r) {
      w.null();
      return;
    }
    w.begin_object();
    const T& obj = *r;
    auto fields = obj.fitz_fields();
    write_fields(w, fields, std::make_index_sequence<std::tuple_size_v<decltype(fields)>>{});
    w.end_object();
  }
  template <class Tup, size_t... I>
  static void write_fields(JsonWriter& w, const Tup& t, std::index_sequence<I...>) {
    ((w.key(Text(detail::field_name<T>(I), __builtin_strlen(detail::field_name<T>(I)))),
      JsonEncode<std::decay_t<std::tuple_element_t<I, Tup>>>::write(w, std::get<I>(t))),
     ...);
  }
};

template <class T> void JsonWriter::value(const T& v) { JsonEncode<T>::write(*this, v); }

template <class T> void encode_erased(JsonWriter& w, const void* v) { JsonEncode<T>::write(w, *static_cast<const T*>(v)); }

// The JSON text of a value, as a Str.
template <class T> Str to_json(const T& v) { return to_json_erased(&v, &encode_erased<T>); }

// ---- Reader ------------------------------------------------------------------------------
//
// A pull parser over one JSON document. Decoders call `begin_object` / `next_key` /
// `read_int` ...; each call returns false once an error is recorded (the first error wins and
// every later call fails fast). Two error kinds: a syntax error ("not valid JSON") and a
// schema error (wrong type, missing or unknown field, out-of-range number), both with the
// path of the value in question, e.g. `field 'items[2].id': expected Int, found Str`.
// Nesting is limited (default 512 levels), so is the number of keys of one object (default
// 10,000, `FITZ_JSON_MAX_KEYS`: a limit error, which the HTTP binder answers with 413), and
// strings must be valid UTF-8.
enum class JsonKind : uint8_t { Null, Bool, Number, String, Array, Object, End, Invalid };

class JsonReader {
 public:
  enum class ErrorKind : uint8_t { None, Syntax, Schema, Limit };
  // The key limit of readers built without one: FITZ_JSON_MAX_KEYS, read once, else 10,000.
  static uint32_t default_max_keys();

  JsonReader(const char* p, size_t n, uint32_t max_depth = 512);
  explicit JsonReader(Text t, uint32_t max_depth = 512) : JsonReader(t.data, t.size, max_depth) {}
  ~JsonReader();
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  // What the next value is (skips whitespace). `Invalid` after an error or on bad input.
  JsonKind peek();

  bool begin_object();                      // "expected object"
  // Advances to the next key of the current object: true with `*key` set (decoded; valid
  // until the next call), false at `}` or on error. The key becomes the current path segment.
  bool next_key(Text* key);
  bool begin_array();                       // "expected list"
  // True when another element follows (the index becomes the current path segment).
  bool next_element();

  bool read_int(int64_t* out);              // integers only, in Int range
  bool read_float(double* out);             // any number
  bool read_bool(bool* out);
  bool read_str(Str* out);
  bool read_null();                         // consumes `null`
  bool read_any(Any* out);                  // any JSON value as an Any (objects → Map<Str, Any>)
  bool skip_value();                        // validates and discards one value
  template <class T> bool read(T* out);     // via JsonDecode<T>
  // After the top-level value: only whitespace may follow.
  bool finish();

  // Decoders report schema errors through these; the path is prepended.
  void fail_expected(const char* expected);  // "expected Int, found Str"
  void fail_missing(const char* field);      // "missing field 'f'"
  void fail_unknown(Text field);             // "unknown field 'f'"
  void fail_duplicate(Text field);           // "duplicate field 'f'"
  void fail_message(Text msg);
  // A string that is not a valid `expected` (a Date, a Uuid): "field 'due': expected Date
  // (YYYY-MM-DD), received '2026-02-30'".
  void fail_invalid(const char* expected, const Str& received);

  bool ok() const { return kind_ == ErrorKind::None; }
  ErrorKind error_kind() const { return kind_; }
  // The message alone (no "body" prefix), e.g. "field 'a.b': expected Int, found Str".
  Str error() const;
  size_t offset() const { return size_t(p_ - begin_); }

 private:
  bool syntax(const char* msg);
  bool too_deep();
  bool too_many_keys();
  bool syntax_error_elsewhere();
  bool expect_value_start();
  bool parse_string(Text* out, bool for_key);
  bool parse_number(int64_t* i, double* f, bool* is_int, bool* overflow);
  bool after_value();
  void push_seg(bool is_array);
  void pop_seg();
  bool skip_ws_and_peek(char* c);
  const char* found_name();

  const char* begin_;
  const char* p_;
  const char* end_;
  uint32_t max_depth_;
  uint32_t max_keys_ = default_max_keys();
  ErrorKind kind_ = ErrorKind::None;
  Str error_;
  struct Seg {
    bool is_array;
    uint32_t count;  // members / elements seen so far
    Text key;        // raw (still escaped) current key
  };
  friend struct JsonPath;
  std::vector<Seg> segs_;  // path stack (one per open container)
  Buf scratch_;             // decoded strings with escapes
};

// How a static type is read. Generated code specialises it per user type (fields in any
// order, defaults, nullables, unknown and duplicate keys rejected); see `read_fields`.
template <class T, class Enable = void> struct JsonDecode;

template <> struct JsonDecode<int64_t> {
  static bool read(JsonReader& r, int64_t* out) { return r.read_int(out); }
};
template <> struct JsonDecode<double> {
  static bool read(JsonReader& r, double* out) { return r.read_float(out); }
};
template <> struct JsonDecode<bool> {
  static bool read(JsonReader& r, bool* out) { return r.read_bool(out); }
};
template <> struct JsonDecode<Str> {
  static bool read(JsonReader& r, Str* out) { return r.read_str(out); }
};
template <> struct JsonDecode<Any> {
  static bool read(JsonReader& r, Any* out) { return r.read_any(out); }
};
template <> struct JsonDecode<Null> {
  static bool read(JsonReader& r, Null*) { return r.read_null(); }
};
template <class T> struct JsonDecode<Nullable<T>> {
  static bool read(JsonReader& r, Nullable<T>* out) {
    if (r.peek() == JsonKind::Null) {
      *out = null;
      return r.read_null();
    }
    T v{};
    if (!JsonDecode<T>::read(r, &v)) return false;
    *out = std::move(v);
    return true;
  }
};
template <class T> struct JsonDecode<List<T>> {
  static bool read(JsonReader& r, List<T>* out) {
    if (!r.begin_array()) return false;
    List<T> l;
    while (r.next_element()) {
      T v{};
      if (!JsonDecode<T>::read(r, &v)) return false;
      l.vec().push_back(std::move(v));
    }
    if (!r.ok()) return false;
    *out = l;
    return true;
  }
};
template <class V> struct JsonDecode<Map<Str, V>> {
  static bool read(JsonReader& r, Map<Str, V>* out) {
    if (!r.begin_object()) return false;
    Map<Str, V> m;
    Text k;
    while (r.next_key(&k)) {
      Str key = k.str();
      if (m.has(key)) {
        r.fail_duplicate(k);
        return false;
      }
      V v{};
      if (!JsonDecode<V>::read(r, &v)) return false;
      m.set(std::move(key), std::move(v));
    }
    if (!r.ok()) return false;
    *out = m;
    return true;
  }
};

template <class T> bool JsonReader::read(T* out) { return JsonDecode<T>::read(*this, out); }

// The key loop of `read_fields`, compiled once in the HTTP runtime: every decoder of a
// program used to instantiate (and inline) its own copy. `read_field(ctx, i)` reads field i.
bool read_fields_with(JsonReader& r, const Text* names, size_t n, uint64_t* seen, bool (*read_field)(void* ctx, size_t i),
                      void* ctx);

// Decoding one object with known fields, for generated JsonDecode specialisations:
//
//   static constexpr fitz::http::Text kFields[] = {"id", "name"};
//   uint64_t seen = 0;
//   bool ok = r.begin_object() && fitz::http::read_fields(r, kFields, 2, &seen,
//       [&](size_t i) { switch (i) { case 0: return r.read(&u.id); default: return r.read(&u.name); } });
//   // then: required fields not in `seen` without a default → r.fail_missing("id")
//
// Unknown keys are collected and reported together ("unknown field(s): a, b"); a repeated
// key is an error. `seen` holds one bit per field: (n + 63) / 64 words, zeroed by the caller.
template <class F>
bool read_fields(JsonReader& r, const Text* names, size_t n, uint64_t* seen, F&& read_field) {
  using Fn = std::remove_reference_t<F>;
  return read_fields_with(
      r, names, n, seen, [](void* f, size_t i) -> bool { return (*static_cast<Fn*>(f))(i); },
      const_cast<void*>(static_cast<const void*>(&read_field)));
}

// Decodes a whole document as T: value + trailing whitespace only.
template <class T> bool from_json(JsonReader& r, T* out) {
  return JsonDecode<T>::read(r, out) && r.finish();
}

// True when the bytes are valid UTF-8.
bool valid_utf8(const char* p, size_t n);

}  // namespace fitz::http

#include "fitz/http/json_dates.h"
