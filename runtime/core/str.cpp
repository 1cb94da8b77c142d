// Str storage (inline / literal / shared heap block), char counting and indexing, ordering,
// concatenation (hashing is hash.cpp), plus the UTF-8 helpers the other files use.
#include <cstdlib>
#include <cstring>

#include "fitz/runtime.h"
#include "str_internal.h"

namespace fitz {

namespace detail {

size_t count_chars(const char* p, size_t n) noexcept {
  size_t c = 0;
  for (size_t i = 0; i < n; ++i) c += (static_cast<unsigned char>(p[i]) & 0xC0) != 0x80;
  return c;
}

bool all_ascii(const char* p, size_t n) noexcept {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w & 0x8080808080808080ULL) return false;
  }
  for (; i < n; ++i)
    if (static_cast<unsigned char>(p[i]) & 0x80) return false;
  return true;
}

void push_utf8(Buf& b, uint32_t cp) {
  char tmp[4];
  size_t n = encode_utf8(cp, tmp);
  b.append(tmp, n);
}

size_t utf8_valid_prefix(const char* p, size_t n) noexcept {
  size_t i = 0;
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (len == 0 || c > 0xF4 || i + len > n) return i;
    uint32_t cp = c & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) {
      unsigned char d = static_cast<unsigned char>(p[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return n;
}

size_t encode_utf8(uint32_t cp, char* out) {
  if (cp < 0x80) {
    out[0] = char(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = char(0xC0 | (cp >> 6));
    out[1] = char(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = char(0xE0 | (cp >> 12));
    out[1] = char(0x80 | ((cp >> 6) & 0x3F));
    out[2] = char(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = char(0xF0 | (cp >> 18));
  out[1] = char(0x80 | ((cp >> 12) & 0x3F));
  out[2] = char(0x80 | ((cp >> 6) & 0x3F));
  out[3] = char(0x80 | (cp & 0x3F));
  return 4;
}

uint32_t decode_utf8(const char*& p, const char* end) {
  unsigned char c = static_cast<unsigned char>(*p++);
  if (c < 0x80) return c;
  size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  uint32_t cp = c & (0xFF >> (len + 1));
  for (size_t k = 1; k < len && p < end; ++k) cp = (cp << 6) | (static_cast<unsigned char>(*p++) & 0x3F);
  return cp;
}

size_t char_offset(const Str& s, int64_t index) {
  if (s.is_ascii()) return size_t(index);
  const char* p = s.data();
  size_t n = s.size(), i = 0;
  for (int64_t k = 0; i < n; ++i) {
    if ((static_cast<unsigned char>(p[i]) & 0xC0) != 0x80) {
      if (k == index) return i;
      ++k;
    }
  }
  return n;
}

}  // namespace detail

void Str::init_copy(const char* s, size_t n) {
  if (n <= 15) {
    std::memset(raw_, 0, 16);
    if (n) std::memcpy(raw_, s, n);  // `s` may be null when n == 0 (an empty Buf)
    raw_[15] = char(15 - n);
    return;
  }
  auto* rep = static_cast<detail::StrRep*>(std::malloc(sizeof(detail::StrRep) + n + 1));
  if (!rep) throw std::bad_alloc();
  char* d = reinterpret_cast<char*>(rep + 1);
  std::memcpy(d, s, n);
  d[n] = 0;
  bool ascii = detail::all_ascii(d, n);
  rep->rc = 1;
  rep->nchars = ascii ? n : detail::count_chars(d, n);
  set_big(d, uint64_t(n) | (uint64_t(kHeap) << 62) | (ascii ? kAsciiBit : 0));
}

void Str::release_heap() noexcept {
  detail::StrRep* r = rep();
  if (detail::rc_dec(r->rc)) std::free(r);
}

int64_t Str::len() const {
  switch (mode()) {
    case kInline: return int64_t(detail::count_chars(raw_, size()));
    case kHeap: return int64_t(rep()->nchars);
    default: return int64_t(detail::count_chars(ptr(), size()));
  }
}

bool Str::is_ascii() const {
  if (mode() == kHeap) return (word() & kAsciiBit) != 0;
  return detail::all_ascii(data(), size());
}

Str Str::at(int64_t index, SourcePos pos) const {
  size_t n = size_t(len());
  size_t k = detail::norm_index(index, n, pos, "string");
  size_t off = detail::char_offset(*this, int64_t(k));
  const char* p = data() + off;
  unsigned char c = static_cast<unsigned char>(*p);
  size_t clen = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  return Str(p, clen);
}

Str Str::slice(int64_t start, int64_t end, bool inclusive) const {
  size_t n = size_t(len());
  size_t lo, hi;
  detail::slice_bounds(start, end, inclusive, n, &lo, &hi);
  if (lo == 0 && hi == n) return *this;
  size_t a = detail::char_offset(*this, int64_t(lo));
  size_t b = detail::char_offset(*this, int64_t(hi));
  return Str(data() + a, b - a);
}

int Str::compare(const Str& o) const noexcept {
  size_t a = size(), b = o.size();
  int c = std::memcmp(data(), o.data(), a < b ? a : b);
  if (c) return c < 0 ? -1 : 1;
  return a < b ? -1 : (a > b ? 1 : 0);
}

uint64_t Str::hash() const noexcept { return detail::hash_bytes(data(), size()); }

Str operator+(const Str& a, const Str& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  Buf buf;
  char* p = buf.reserve_tail(a.size() + b.size());
  std::memcpy(p, a.data(), a.size());
  std::memcpy(p + a.size(), b.data(), b.size());
  buf.commit(a.size() + b.size());
  return buf.take();
}

Str concat(std::initializer_list<Str> parts) {
  size_t total = 0;
  for (const Str& s : parts) total += s.size();
  Buf buf;
  if (total) buf.reserve_tail(total);
  for (const Str& s : parts) buf.append(s.data(), s.size());
  return buf.take();
}

}  // namespace fitz
