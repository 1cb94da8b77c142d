// `Bytes`: an immutable byte string (`b"..."`, `bytes(s)`), printed as `b"..."` with escapes.
// Shares the storage scheme of `Str` (cheap copies) without any UTF-8 assumption.
#pragma once

#include "fitz/result.h"
#include "fitz/str.h"

namespace fitz {

class Bytes {
 public:
  Bytes() = default;
  Bytes(const char* p, size_t n) : raw_(p, n) {}
  template <size_t N> static Bytes lit(const char (&s)[N]) {
    Bytes b;
    b.raw_ = Str::from_static(s, N - 1);
    return b;
  }
  static Bytes from_str(const Str& s) {
    Bytes b;
    b.raw_ = s;
    return b;
  }

  const char* data() const { return raw_.data(); }
  size_t size() const { return raw_.size(); }
  int64_t len() const { return int64_t(raw_.size()); }
  bool is_empty() const { return raw_.empty(); }
  int64_t at(int64_t i, SourcePos pos = {}) const {
    return uint8_t(data()[detail::norm_index(i, size(), pos, "bytes")]);
  }
  Bytes slice(int64_t start, int64_t end, bool inclusive = false) const {
    size_t lo, hi;
    detail::slice_bounds(start, end, inclusive, size(), &lo, &hi);
    return Bytes(data() + lo, hi - lo);
  }
  // The bytes as text, or Err("invalid UTF-8 ...") when they are not valid UTF-8.
  Result<Str, Str> to_str() const;

  friend bool operator==(const Bytes& a, const Bytes& b) { return a.raw_ == b.raw_; }
  uint64_t hash() const { return raw_.hash(); }
  int compare(const Bytes& o) const { return raw_.compare(o.raw_); }

 private:
  Str raw_;
};

// `bytes(s)`: the UTF-8 bytes of a string.
inline Bytes bytes(const Str& s) { return Bytes::from_str(s); }

namespace detail {
// Byte offset of the first invalid UTF-8 sequence, or n when the range is valid.
size_t utf8_valid_prefix(const char* p, size_t n) noexcept;
}

}  // namespace fitz
