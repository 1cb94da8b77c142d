// Foundation of the Fitz runtime: source positions, Null, refcount helpers, the byte buffer
// every printer writes into, runtime errors, and the trait skeletons the other headers fill in.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the Fitz runtime assumes a little-endian target"
#endif

namespace fitz {

// Where a runtime error happened, in Fitz source terms. Generated code passes a
// `static constexpr` or a braced literal: `fitz::SourcePos{"main.fitz", 3, 7}`.
// `file == nullptr` means "no position" (errors raised from inside the runtime).
struct SourcePos {
  const char* file = nullptr;
  uint32_t line = 0;
  uint32_t col = 0;
};

// The value `null`, and the type `Null`. Prints `null`.
struct Null {
  friend constexpr bool operator==(Null, Null) { return true; }
};
inline constexpr Null null{};

// Tag for declare-before-assign: `fitz::List<int64_t> xs{fitz::uninit};` leaves the handle
// empty (no allocation). Only for variables the checker proves are assigned before use.
struct Uninit {};
inline constexpr Uninit uninit{};

class Str;
class Bytes;
class Any;
struct Range;
template <class T> class Ref;
template <class T> class List;
template <class K, class V> class Map;
template <class T> class Nullable;
template <class T, class E = Str> class Result;
template <class Sig> class Fn;
template <class T> class Task;

using Int = int64_t;
using Float = double;
using Bool = bool;

namespace detail {

// Refcounts are atomic so values can be shared read-only across threads (the HTTP server runs
// one loop per core); mutation of shared collections is not synchronised.
inline void rc_inc(size_t& c) noexcept { __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED); }
inline bool rc_dec(size_t& c) noexcept { return __atomic_sub_fetch(&c, 1, __ATOMIC_ACQ_REL) == 0; }

template <class> inline constexpr bool dependent_false = false;

// One address per C++ type: used to recognise the exact static type held by an `Any`.
template <class T> struct TypeTag { static constexpr char id = 0; };
template <class T> constexpr const void* type_id() { return &TypeTag<T>::id; }

// Header of a heap string block; the bytes follow it, NUL-terminated.
struct StrRep {
  size_t rc;
  size_t nchars;
};

}  // namespace detail

// A growable byte buffer. Printers append into it; `take()` turns it into a `Str` without
// copying (its block already has the layout of a heap string).
class Buf {
 public:
  Buf() = default;
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
  Buf(Buf&& o) noexcept : block_(o.block_), size_(o.size_), cap_(o.cap_) {
    o.block_ = nullptr;
    o.size_ = o.cap_ = 0;
  }
  ~Buf() { release(); }

  void append(const char* p, size_t n) {
    if (n == 0) return;
    if (n > cap_ - size_) grow(n);
    __builtin_memcpy(data_ptr() + size_, p, n);
    size_ += n;
  }
  void push(char c) {
    if (size_ == cap_) grow(1);
    data_ptr()[size_++] = c;
  }
  template <size_t N> void lit(const char (&s)[N]) { append(s, N - 1); }
  void append_cstr(const char* s) { append(s, __builtin_strlen(s)); }
  void fill(char c, size_t n) {
    if (n == 0) return;
    if (n > cap_ - size_) grow(n);
    __builtin_memset(data_ptr() + size_, c, n);
    size_ += n;
  }
  // Room for `n` more bytes; write them at the returned pointer, then `commit(k)`.
  char* reserve_tail(size_t n) {
    if (!block_ || n > cap_ - size_) grow(n);  // also for n == 0: no pointer arithmetic on null
    return data_ptr() + size_;
  }
  void commit(size_t k) { size_ += k; }

  const char* data() const { return block_ ? data_ptr() : ""; }
  char* data() { return block_ ? data_ptr() : nullptr; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  void truncate(size_t n) { if (n < size_) size_ = n; }
  char back() const { return data_ptr()[size_ - 1]; }

  // Moves the contents into a string and leaves the buffer empty.
  Str take();
  // Copies the contents into a string; the buffer keeps them.
  Str str() const;

 private:
  char* data_ptr() const { return reinterpret_cast<char*>(block_ + 1); }
  void grow(size_t extra);
  void release();

  detail::StrRep* block_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
};

// ---- Runtime errors ---------------------------------------------------------------------
//
// `runtime_error(pos, msg)` is what every failing check calls. In the default mode it flushes
// stdout, writes
//     error: <message>
//       --> <file>:<line>:<col>
// to stderr (the second line only when `pos.file` is set) and exits with status 1.
// Inside `catch_panic(...)` (the test runner, `assert_throws`, unit tests) it throws
// `fitz::Panic` instead, so one failing test does not end the process.

enum class PanicMode : uint8_t { Exit, Throw };
PanicMode panic_mode() noexcept;
PanicMode set_panic_mode(PanicMode m) noexcept;  // returns the previous mode (thread-local)

[[noreturn]] void runtime_error(SourcePos pos, const char* message);
[[noreturn]] void runtime_error(SourcePos pos, const Str& message);

// ---- Trait skeletons ----------------------------------------------------------------------
//
// Every runtime protocol is a class template specialised per type, so the headers may be
// included in any order and generated types can plug in by specialising (or by following the
// struct protocol in object.h).
//
//   Show<T>::write(Buf&, const T&, bool quoted)   display form; `quoted` inside collections
//   Eq<A, B>::eq(const A&, const B&)              structural ==, Int<->Float coercion
//   Hash<T>::hash(const T&) -> uint64_t           consistent with Eq
//   Cmp<A, B>::cmp(const A&, const B&) -> int     ordering for <, sort, min, max
//   TypeName<T>::write(Buf&)                      Fitz spelling of the static type
template <class T, class Enable = void> struct Show;
template <class A, class B, class Enable = void> struct Eq;
template <class T, class Enable = void> struct Hash;
template <class A, class B, class Enable = void> struct Cmp;
template <class T, class Enable = void> struct TypeName;

template <class T> inline void show(Buf& b, const T& v) { Show<T>::write(b, v, false); }
template <class T> inline void show_quoted(Buf& b, const T& v) { Show<T>::write(b, v, true); }
template <class A, class B> inline bool eq(const A& a, const B& b) { return Eq<A, B>::eq(a, b); }
template <class A, class B> inline bool ne(const A& a, const B& b) { return !Eq<A, B>::eq(a, b); }
template <class T> inline uint64_t hash_value(const T& v) { return Hash<T>::hash(v); }
template <class A, class B> inline int cmp(const A& a, const B& b) { return Cmp<A, B>::cmp(a, b); }
template <class T> Str type_name();

namespace detail {

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  return x;
}
// The secret key of every hash over values a client can choose (map keys from JSON, forms,
// query strings): drawn once per process, never changed while it runs.
struct HashKey {
  uint64_t k0 = 0, k1 = 0;
  static HashKey random() noexcept;
};
inline const HashKey& hash_key() noexcept {
  static const HashKey key = HashKey::random();
  return key;
}
// SipHash-1-3 of `n` bytes under `key` (hash.cpp).
uint64_t siphash13(const HashKey& key, const char* p, size_t n) noexcept;

inline uint64_t hash_combine(uint64_t seed, uint64_t h) {
  return mix64(seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

// Normalises a possibly negative index; raises "index out of range" if it does not fit.
[[noreturn]] void index_error(SourcePos pos, int64_t index, size_t len, const char* what);
inline size_t norm_index(int64_t i, size_t len, SourcePos pos, const char* what) {
  int64_t n = static_cast<int64_t>(len);
  int64_t k = i < 0 ? i + n : i;
  if (k < 0 || k >= n) index_error(pos, i, len, what);
  return static_cast<size_t>(k);
}

// Slice bounds: negative counts from the end, then clamps to [0, len]. An open start is 0, an
// open end is `slice_end` (INT64_MAX). `inclusive` adds one to the end after normalising.
inline constexpr int64_t slice_end = INT64_MAX;
inline void slice_bounds(int64_t start, int64_t end, bool inclusive, size_t len, size_t* lo,
                         size_t* hi) {
  int64_t n = static_cast<int64_t>(len);
  int64_t s = start < 0 ? start + n : start;
  int64_t e = end;
  if (e != slice_end) {
    if (e < 0) e += n;
    if (inclusive) e += 1;
  }
  if (s < 0) s = 0;
  if (s > n) s = n;
  if (e < 0) e = 0;
  if (e > n) e = n;
  if (e < s) e = s;
  *lo = static_cast<size_t>(s);
  *hi = static_cast<size_t>(e);
}

// Writers for the scalar display forms (runtime/core/print.cpp).
void write_int(Buf& b, int64_t v);
void write_uint(Buf& b, uint64_t v);
void write_float(Buf& b, double v);
void write_quoted(Buf& b, const char* p, size_t n);  // "..." with escapes

}  // namespace detail

// The open end of a slice: `xs[a..]` is `xs.slice(a, fitz::slice_end)`.
inline constexpr int64_t slice_end = detail::slice_end;

}  // namespace fitz
