// The Str methods of spec section 4. Case mapping covers ASCII, Latin-1, Latin Extended-A,
// Greek and Cyrillic; "alphabetic" and "whitespace" follow Unicode for the common scripts.
#include <cstdlib>
#include <cstring>

#include "fitz/runtime.h"
#include "str_internal.h"

namespace fitz {

namespace detail {

uint32_t upper_cp(uint32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 0x20;
  if (c == 0xFF) return 0x178;
  if (c == 0xB5) return 0x39C;
  if (c >= 0x100 && c <= 0x17F) {
    if ((c <= 0x137) || (c >= 0x14A && c <= 0x177)) return (c & 1) ? c - 1 : c;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c : c - 1;
    return c;
  }
  if (c >= 0x3B1 && c <= 0x3C9) return c == 0x3C2 ? 0x3A3 : c - 0x20;
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 0x25;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 0x3F;
  if (c >= 0x430 && c <= 0x44F) return c - 0x20;
  if (c >= 0x450 && c <= 0x45F) return c - 0x50;
  return c;
}

uint32_t lower_cp(uint32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
  if (c == 0x178) return 0xFF;
  if (c >= 0x100 && c <= 0x17F) {
    if ((c <= 0x137) || (c >= 0x14A && c <= 0x177)) return (c & 1) ? c : c + 1;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c + 1 : c;
    return c;
  }
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 0x20;
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 0x25;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 0x3F;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  return c;
}

bool is_alpha_cp(uint32_t c) {
  if (c < 0x80) return (c | 32) >= 'a' && (c | 32) <= 'z';
  if (c < 0x100) return (c >= 0xC0 && c != 0xD7 && c != 0xF7) || c == 0xAA || c == 0xB5 || c == 0xBA;
  return (c <= 0x24F) || (c >= 0x370 && c <= 0x3FF && c != 0x37E && c != 0x387) ||
         (c >= 0x400 && c <= 0x52F && !(c >= 0x482 && c <= 0x489)) || (c >= 0x5D0 && c <= 0x5EA) ||
         (c >= 0x620 && c <= 0x64A) || (c >= 0x3040 && c <= 0x30FF && c != 0x30FB) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x1E00 && c <= 0x1FFF);
}

bool is_space_cp(uint32_t c) {
  return c == ' ' || (c >= 9 && c <= 13) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

}  // namespace detail

namespace {

using detail::decode_utf8;
using detail::push_utf8;

// Applies a per-char mapping; `word_start` tells title() where words begin.
template <class F> Str map_chars(const Str& s, F f) {
  Buf b;
  const char* p = s.data();
  const char* end = p + s.size();
  bool prev_space = true;
  while (p < end) {
    uint32_t c = decode_utf8(p, end);
    f(b, c, prev_space);
    prev_space = detail::is_space_cp(c);
  }
  return b.take();
}

void push_upper(Buf& b, uint32_t c) {
  if (c == 0xDF) {  // ß
    b.lit("SS");
    return;
  }
  push_utf8(b, detail::upper_cp(c));
}

const char* find_bytes(const char* hay, size_t hn, const char* needle, size_t nn) {
  if (nn == 0) return hay;
  if (nn > hn) return nullptr;
  return static_cast<const char*>(memmem(hay, hn, needle, nn));
}

const char* rfind_bytes(const char* hay, size_t hn, const char* needle, size_t nn) {
  if (nn > hn) return nullptr;
  for (size_t i = hn - nn + 1; i-- > 0;)
    if (std::memcmp(hay + i, needle, nn) == 0) return hay + i;
  return nullptr;
}

// Appends `count` chars taken cyclically from `fill`.
void append_fill(Buf& b, const Str& fill, int64_t count) {
  if (count <= 0 || fill.empty()) return;
  if (fill.size() == 1) {
    b.fill(fill.data()[0], size_t(count));
    return;
  }
  const char* p = fill.data();
  const char* end = p + fill.size();
  for (int64_t k = 0; k < count; ++k) {
    if (p == end) p = fill.data();
    const char* q = p;
    decode_utf8(q, end);
    b.append(p, size_t(q - p));
    p = q;
  }
}

Str pad(const Str& s, int64_t width, const Str& fill, int64_t left_share_num, int64_t left_share_den) {
  int64_t n = s.len();
  if (width <= n || fill.empty()) return s;
  int64_t total = width - n;
  int64_t left = total * left_share_num / left_share_den;
  Buf b;
  append_fill(b, fill, left);
  b.append(s.data(), s.size());
  append_fill(b, fill, total - left);
  return b.take();
}

}  // namespace

Str Str::upper() const {
  if (is_ascii()) {
    Buf b;
    char* p = b.reserve_tail(size() ? size() : 1);
    const char* s = data();
    for (size_t i = 0; i < size(); ++i) p[i] = (s[i] >= 'a' && s[i] <= 'z') ? char(s[i] - 32) : s[i];
    b.commit(size());
    return b.take();
  }
  return map_chars(*this, [](Buf& b, uint32_t c, bool) { push_upper(b, c); });
}

Str Str::lower() const {
  if (is_ascii()) {
    Buf b;
    char* p = b.reserve_tail(size() ? size() : 1);
    const char* s = data();
    for (size_t i = 0; i < size(); ++i) p[i] = (s[i] >= 'A' && s[i] <= 'Z') ? char(s[i] + 32) : s[i];
    b.commit(size());
    return b.take();
  }
  return map_chars(*this, [](Buf& b, uint32_t c, bool) { push_utf8(b, detail::lower_cp(c)); });
}

Str Str::swap_case() const {
  return map_chars(*this, [](Buf& b, uint32_t c, bool) {
    uint32_t l = detail::lower_cp(c);
    if (l != c)
      push_utf8(b, l);
    else
      push_upper(b, c);
  });
}

Str Str::title() const {
  return map_chars(*this, [](Buf& b, uint32_t c, bool word_start) {
    if (word_start)
      push_upper(b, c);
    else
      push_utf8(b, detail::lower_cp(c));
  });
}

Str Str::trim_start() const {
  const char* p = data();
  const char* end = p + size();
  while (p < end) {
    const char* q = p;
    if (!detail::is_space_cp(decode_utf8(q, end))) break;
    p = q;
  }
  return p == data() ? *this : Str(p, size_t(end - p));
}

Str Str::trim_end() const {
  const char* begin = data();
  const char* end = begin + size();
  while (end > begin) {
    const char* q = end - 1;
    while (q > begin && (static_cast<unsigned char>(*q) & 0xC0) == 0x80) --q;
    const char* r = q;
    if (!detail::is_space_cp(decode_utf8(r, end))) break;
    end = q;
  }
  return end == begin + size() ? *this : Str(begin, size_t(end - begin));
}

Str Str::trim() const { return trim_start().trim_end(); }

bool Str::contains(const Str& s) const { return find_bytes(data(), size(), s.data(), s.size()) != nullptr; }

bool Str::starts_with(const Str& s) const {
  return s.size() <= size() && std::memcmp(data(), s.data(), s.size()) == 0;
}

bool Str::ends_with(const Str& s) const {
  return s.size() <= size() && std::memcmp(data() + size() - s.size(), s.data(), s.size()) == 0;
}

List<Str> Str::split(const Str& sep) const {
  if (sep.empty()) return chars();
  List<Str> out;
  const char* p = data();
  const char* end = p + size();
  for (;;) {
    const char* hit = find_bytes(p, size_t(end - p), sep.data(), sep.size());
    if (!hit) {
      out.vec().push_back(Str(p, size_t(end - p)));
      return out;
    }
    out.vec().push_back(Str(p, size_t(hit - p)));
    p = hit + sep.size();
  }
}

List<Str> Str::chars() const {
  List<Str> out = List<Str>::with_capacity(len());
  const char* p = data();
  const char* end = p + size();
  while (p < end) {
    const char* q = p;
    decode_utf8(q, end);
    out.vec().push_back(Str(p, size_t(q - p)));
    p = q;
  }
  return out;
}

List<Str> Str::lines() const {
  List<Str> out;
  const char* p = data();
  const char* end = p + size();
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
    const char* stop = nl ? nl : end;
    const char* e = (stop > p && stop[-1] == '\r') ? stop - 1 : stop;
    out.vec().push_back(Str(p, size_t(e - p)));
    if (!nl) break;
    p = nl + 1;
  }
  return out;
}

List<Str> Str::split_whitespace() const {
  List<Str> out;
  const char* p = data();
  const char* end = p + size();
  const char* word = nullptr;
  while (p < end) {
    const char* q = p;
    bool space = detail::is_space_cp(decode_utf8(q, end));
    if (space && word) {
      out.vec().push_back(Str(word, size_t(p - word)));
      word = nullptr;
    } else if (!space && !word) {
      word = p;
    }
    p = q;
  }
  if (word) out.vec().push_back(Str(word, size_t(end - word)));
  return out;
}

Str Str::join(const List<Str>& parts) const {
  Buf b;
  const auto& v = parts.vec();
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) b.append(data(), size());
    b.append(v[i].data(), v[i].size());
  }
  return b.take();
}

bool Str::is_alpha() const {
  if (empty()) return false;
  const char* p = data();
  const char* end = p + size();
  while (p < end)
    if (!detail::is_alpha_cp(decode_utf8(p, end))) return false;
  return true;
}

bool Str::is_digit() const {
  if (empty()) return false;
  for (char c : *this)
    if (c < '0' || c > '9') return false;
  return true;
}

// Optional sign, digits with an optional fraction (or a fraction alone), optional exponent.
bool Str::is_numeric() const {
  const char* p = data();
  const char* end = p + size();
  if (p < end && (*p == '+' || *p == '-')) ++p;
  size_t digits = 0;
  while (p < end && *p >= '0' && *p <= '9') ++p, ++digits;
  if (p < end && *p == '.') {
    ++p;
    while (p < end && *p >= '0' && *p <= '9') ++p, ++digits;
  }
  if (digits == 0) return false;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    size_t exp = 0;
    while (p < end && *p >= '0' && *p <= '9') ++p, ++exp;
    if (exp == 0) return false;
  }
  return p == end;
}

Str Str::replace(const Str& from, const Str& to) const {
  Buf b;
  const char* p = data();
  const char* end = p + size();
  if (from.empty()) {  // between every char and at both ends
    b.append(to.data(), to.size());
    while (p < end) {
      const char* q = p;
      decode_utf8(q, end);
      b.append(p, size_t(q - p));
      b.append(to.data(), to.size());
      p = q;
    }
    return b.take();
  }
  const char* first = find_bytes(p, size(), from.data(), from.size());
  if (!first) return *this;
  for (const char* hit = first; hit; hit = find_bytes(p, size_t(end - p), from.data(), from.size())) {
    b.append(p, size_t(hit - p));
    b.append(to.data(), to.size());
    p = hit + from.size();
  }
  b.append(p, size_t(end - p));
  return b.take();
}

Str Str::repeat(int64_t n) const {
  if (n <= 0 || empty()) return Str();
  if (n == 1) return *this;
  Buf b;
  b.reserve_tail(size() * size_t(n));
  for (int64_t i = 0; i < n; ++i) b.append(data(), size());
  return b.take();
}

Str Str::repeat_with(int64_t n, const Str& sep) const {
  Buf b;
  for (int64_t i = 0; i < n; ++i) {
    if (i) b.append(sep.data(), sep.size());
    b.append(data(), size());
  }
  return b.take();
}

Str Str::left(int64_t n) const { return slice(0, n <= 0 ? 0 : n, false); }

Str Str::right(int64_t n) const {
  if (n <= 0) return Str();
  int64_t l = len();
  return n >= l ? *this : slice(l - n, detail::slice_end, false);
}

Str Str::center(int64_t width, const Str& fill) const { return pad(*this, width, fill, 1, 2); }
Str Str::pad_start(int64_t width, const Str& fill) const { return pad(*this, width, fill, 1, 1); }
Str Str::pad_end(int64_t width, const Str& fill) const { return pad(*this, width, fill, 0, 1); }

std::tuple<Str, Str> Str::split_at(int64_t index) const {
  int64_t l = len();
  int64_t k = index < 0 ? 0 : (index > l ? l : index);
  size_t off = detail::char_offset(*this, k);
  return {Str(data(), off), Str(data() + off, size() - off)};
}

Result<int64_t, Str> Str::to_int() const {
  const char* p = data();
  const char* end = p + size();
  bool neg = p < end && *p == '-';
  if (p < end && (*p == '+' || *p == '-')) ++p;
  if (p == end) return Err(Str::lit("invalid Int: '") + *this + Str::lit("'"));
  uint64_t v = 0;
  const uint64_t limit = neg ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  for (; p < end; ++p) {
    if (*p < '0' || *p > '9') return Err(Str::lit("invalid Int: '") + *this + Str::lit("'"));
    uint64_t d = uint64_t(*p - '0');
    if (v > (limit - d) / 10) return Err(Str::lit("Int out of range: '") + *this + Str::lit("'"));
    v = v * 10 + d;
  }
  return Ok(neg ? int64_t(0 - v) : int64_t(v));
}

Result<double, Str> Str::to_float() const {
  Str t = *this;
  if (is_numeric() || t == Str::lit("inf") || t == Str::lit("-inf") || t == Str::lit("+inf") || t == Str::lit("nan") ||
      t == Str::lit("NaN"))
    return Ok(std::strtod(t.c_str(), nullptr));
  return Err(Str::lit("invalid Float: '") + *this + Str::lit("'"));
}

Result<int64_t, Str> Str::find(const Str& s) const {
  const char* hit = find_bytes(data(), size(), s.data(), s.size());
  if (!hit) return Err(detail::not_found_msg());
  return Ok(int64_t(detail::count_chars(data(), size_t(hit - data()))));
}

Result<int64_t, Str> Str::index_of(const Str& s) const { return find(s); }

Result<int64_t, Str> Str::last_index_of(const Str& s) const {
  const char* hit = rfind_bytes(data(), size(), s.data(), s.size());
  if (!hit) return Err(detail::not_found_msg());
  return Ok(int64_t(detail::count_chars(data(), size_t(hit - data()))));
}

}  // namespace fitz
