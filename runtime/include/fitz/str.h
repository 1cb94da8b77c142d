// `Str`: Fitz's immutable UTF-8 string with value semantics. 16 bytes; copies are cheap
// (short strings inline, literals borrowed, longer strings in a shared refcounted block).
// Lengths and indices count Unicode scalar values ("chars"), as the language does.
#pragma once

#include "fitz/base.h"

namespace fitz {

class Str {
 public:
  // Layout (little-endian, 16 bytes):
  //   inline  (mode 0): bytes 0..14 hold the text, byte 15 holds 15 - size, so a 15-byte
  //                     string is NUL-terminated by that byte;
  //   literal (mode 1): pointer to static NUL-terminated bytes + word (size, flags);
  //   heap    (mode 2): pointer to the bytes of a detail::StrRep block + word.
  // The word keeps the size in bits 0..55, the "all ASCII" flag in bit 61 and the mode in
  // bits 62..63, which are the top bits of byte 15 in every mode.
  Str() noexcept { set_empty(); }
  Str(const char* s) { init_copy(s, __builtin_strlen(s)); }  // copies
  Str(const char* s, size_t n) { init_copy(s, n); }           // copies
  Str(const Str& o) noexcept {
    __builtin_memcpy(raw_, o.raw_, 16);
    if (mode() == kHeap) detail::rc_inc(rep()->rc);
  }
  Str(Str&& o) noexcept {
    __builtin_memcpy(raw_, o.raw_, 16);
    o.set_empty();
  }
  Str& operator=(const Str& o) noexcept {
    if (this != &o) {
      if (o.mode() == kHeap) detail::rc_inc(o.rep()->rc);
      drop();
      __builtin_memcpy(raw_, o.raw_, 16);
    }
    return *this;
  }
  Str& operator=(Str&& o) noexcept {
    if (this != &o) {
      drop();
      __builtin_memcpy(raw_, o.raw_, 16);
      o.set_empty();
    }
    return *this;
  }
  ~Str() { drop(); }

  // A string literal, borrowed without copying: `Str::lit("hello")` (or `"hello"_s`).
  template <size_t N> static Str lit(const char (&s)[N]) noexcept { return from_static(s, N - 1); }
  // Borrows static storage that outlives every use (literals, tables in the binary).
  static Str from_static(const char* s, size_t n) noexcept {
    Str r;
    r.set_big(s, uint64_t(n) | (uint64_t(kStatic) << 62));
    return r;
  }
  // Any type with data() and size() (std::string, std::string_view, ...), copied.
  template <class S, class = decltype(std::declval<const S&>().data()),
            class = decltype(std::declval<const S&>().size())>
  static Str from(const S& s) {
    return Str(s.data(), s.size());
  }
  // Converts to any type constructible from (const char*, size_t), e.g. std::string_view.
  template <class S> S as() const { return S(data(), size()); }

  const char* data() const noexcept { return mode() == kInline ? raw_ : ptr(); }
  const char* c_str() const noexcept { return data(); }  // always NUL-terminated
  size_t size() const noexcept {
    return mode() == kInline ? size_t(15 - uint8_t(raw_[15])) : size_t(word() & kSizeMask);
  }
  bool empty() const noexcept { return size() == 0; }
  const char* begin() const noexcept { return data(); }
  const char* end() const noexcept { return data() + size(); }

  // ---- Fitz methods (spec section 4) ----
  int64_t len() const;  // chars
  bool is_empty() const { return empty(); }
  bool is_ascii() const;
  Str at(int64_t index, SourcePos pos = {}) const;  // one char; negative from the end
  Str slice(int64_t start, int64_t end, bool inclusive) const;  // chars, clamped
  Str upper() const;
  Str lower() const;
  Str swap_case() const;
  Str title() const;
  Str trim() const;
  Str trim_start() const;
  Str trim_end() const;
  bool contains(const Str& s) const;
  bool starts_with(const Str& s) const;
  bool ends_with(const Str& s) const;
  List<Str> split(const Str& sep) const;  // empty separator: the chars
  List<Str> chars() const;
  List<Str> lines() const;
  bool is_alpha() const;
  bool is_digit() const;
  bool is_numeric() const;
  // Whole-string parses: an optional sign and decimal digits in the Int range / a number as
  // is_numeric reads it (also inf and nan). Err names the text otherwise.
  Result<int64_t, Str> to_int() const;
  Result<double, Str> to_float() const;
  Str replace(const Str& from, const Str& to) const;
  Str repeat(int64_t n) const;
  Str repeat_with(int64_t n, const Str& sep) const;
  Str left(int64_t n) const;
  Str right(int64_t n) const;
  Str center(int64_t width, const Str& fill) const;
  Str pad_start(int64_t width, const Str& fill) const;
  Str pad_end(int64_t width, const Str& fill) const;
  std::tuple<Str, Str> split_at(int64_t index) const;
  Result<int64_t, Str> find(const Str& s) const;
  Result<int64_t, Str> index_of(const Str& s) const;
  Result<int64_t, Str> last_index_of(const Str& s) const;
  Str to_str() const { return *this; }
  // Runtime helpers beyond the language surface.
  List<Str> split_whitespace() const;
  Str join(const List<Str>& parts) const;  // this string between the parts

  int compare(const Str& o) const noexcept;
  uint64_t hash() const noexcept;
  friend bool operator==(const Str& a, const Str& b) noexcept {
    size_t n = a.size();
    return n == b.size() && __builtin_memcmp(a.data(), b.data(), n) == 0;
  }
  friend bool operator!=(const Str& a, const Str& b) noexcept { return !(a == b); }
  friend bool operator<(const Str& a, const Str& b) noexcept { return a.compare(b) < 0; }
  friend bool operator<=(const Str& a, const Str& b) noexcept { return a.compare(b) <= 0; }
  friend bool operator>(const Str& a, const Str& b) noexcept { return a.compare(b) > 0; }
  friend bool operator>=(const Str& a, const Str& b) noexcept { return a.compare(b) >= 0; }
  friend Str operator+(const Str& a, const Str& b);

 private:
  static constexpr unsigned kInline = 0, kStatic = 1, kHeap = 2;
  static constexpr uint64_t kSizeMask = (uint64_t(1) << 56) - 1;
  static constexpr uint64_t kAsciiBit = uint64_t(1) << 61;

  unsigned mode() const noexcept { return uint8_t(raw_[15]) >> 6; }
  const char* ptr() const noexcept {
    const char* p;
    __builtin_memcpy(&p, raw_, 8);
    return p;
  }
  uint64_t word() const noexcept {
    uint64_t w;
    __builtin_memcpy(&w, raw_ + 8, 8);
    return w;
  }
  void set_big(const char* p, uint64_t w) noexcept {
    __builtin_memcpy(raw_, &p, 8);
    __builtin_memcpy(raw_ + 8, &w, 8);
  }
  detail::StrRep* rep() const noexcept {
    return reinterpret_cast<detail::StrRep*>(const_cast<char*>(ptr())) - 1;
  }
  void set_empty() noexcept {  // inline, size 0, all bytes defined
    const uint64_t lo = 0, hi = uint64_t(15) << 56;
    __builtin_memcpy(raw_, &lo, 8);
    __builtin_memcpy(raw_ + 8, &hi, 8);
  }
  void drop() noexcept {
    if (mode() == kHeap) release_heap();
  }
  void release_heap() noexcept;
  void init_copy(const char* s, size_t n);

  friend class Buf;

  alignas(8) char raw_[16];
};

inline namespace literals {
inline Str operator""_s(const char* s, size_t n) noexcept { return Str::from_static(s, n); }
}  // namespace literals

// Concatenates the display forms of several strings at once (one allocation).
Str concat(std::initializer_list<Str> parts);

// What a runtime error carries when it is caught (see `runtime_error` and `catch_panic`).
struct Panic {
  Str message;
  SourcePos pos;
  // assert_eq / assert_ne record the display forms of both sides.
  bool has_sides = false;
  Str left;
  Str right;
};

// Runs `f()` with runtime errors turned into exceptions; returns true and fills `*out` if one
// was raised. Restores the previous panic mode on the way out.
template <class F> bool catch_panic(F&& f, Panic* out = nullptr) {
  PanicMode prev = set_panic_mode(PanicMode::Throw);
  try {
    f();
  } catch (Panic& p) {
    set_panic_mode(prev);
    if (out) *out = static_cast<Panic&&>(p);
    return true;
  } catch (...) {
    set_panic_mode(prev);
    throw;
  }
  set_panic_mode(prev);
  return false;
}

[[noreturn]] void raise_panic(Panic p);  // honours the panic mode, like runtime_error

namespace detail {
// Counts chars (UTF-8 lead bytes) in a byte range.
size_t count_chars(const char* p, size_t n) noexcept;
bool all_ascii(const char* p, size_t n) noexcept;
uint64_t hash_bytes(const char* p, size_t n) noexcept;
// Appends the UTF-8 encoding of a scalar value.
void push_utf8(Buf& b, uint32_t cp);
}  // namespace detail

}  // namespace fitz
