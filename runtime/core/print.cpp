// Display forms of scalars: integers, floats (integral values keep a `.0`, others use the
// shortest decimal that round-trips, never an exponent; `NaN`, `inf`, `-inf`), quoted strings
// with escapes, and `b"..."` bytes.
#include <charconv>
#include <cmath>
#include <cstdio>

#include "fitz/runtime.h"

namespace fitz::detail {

void write_uint(Buf& b, uint64_t v) {
  char tmp[24];
  char* e = tmp + sizeof tmp;
  char* p = e;
  do {
    *--p = char('0' + v % 10);
    v /= 10;
  } while (v);
  b.append(p, size_t(e - p));
}

void write_int(Buf& b, int64_t v) {
  if (v < 0) {
    b.push('-');
    write_uint(b, 0 - uint64_t(v));
  } else {
    write_uint(b, uint64_t(v));
  }
}

void write_float(Buf& b, double v) {
  if (std::isnan(v)) {
    b.lit("NaN");
    return;
  }
  if (std::isinf(v)) {
    if (v > 0)
      b.lit("inf");
    else
      b.lit("-inf");
    return;
  }
  if (v == std::trunc(v)) {
    if (std::fabs(v) < 1e15) {
      if (std::signbit(v)) b.push('-');
      write_uint(b, uint64_t(std::fabs(v)));
      b.lit(".0");
      return;
    }
    char* p = b.reserve_tail(340);
    int n = std::snprintf(p, 340, "%.1f", v);  // exact digits, like the first implementation
    b.commit(size_t(n));
    return;
  }
  char* p = b.reserve_tail(340);
  auto r = std::to_chars(p, p + 340, v, std::chars_format::fixed);
  b.commit(size_t(r.ptr - p));
}

namespace {
const char kHex[] = "0123456789abcdef";
}

void write_quoted(Buf& b, const char* s, size_t n) {
  b.push('"');
  size_t run = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    const char* esc = nullptr;
    switch (c) {
      case '"': esc = "\\\""; break;
      case '\\': esc = "\\\\"; break;
      case '\n': esc = "\\n"; break;
      case '\t': esc = "\\t"; break;
      case '\r': esc = "\\r"; break;
      case 0: esc = "\\0"; break;
      default: break;
    }
    if (!esc && (c >= 0x20 && c != 0x7f)) continue;
    b.append(s + run, i - run);
    run = i + 1;
    if (esc) {
      b.append_cstr(esc);
    } else {  // other control characters
      b.lit("\\u{");
      if (c >= 16) b.push(kHex[c >> 4]);
      b.push(kHex[c & 15]);
      b.push('}');
    }
  }
  b.append(s + run, n - run);
  b.push('"');
}

uint64_t hash_float(double v) {
  if (std::isnan(v)) return 0x7FF8ULL;
  if (v == std::trunc(v) && std::fabs(v) < 9.2e18) return hash_int(int64_t(v));
  uint64_t bits;
  __builtin_memcpy(&bits, &v, 8);
  return mix64(bits);
}

}  // namespace fitz::detail

namespace fitz {

void Show<Bytes>::write(Buf& b, const Bytes& v, bool) {
  b.lit("b\"");
  const char* s = v.data();
  for (size_t i = 0; i < v.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '\\': b.lit("\\\\"); break;
      case '"': b.lit("\\\""); break;
      case '\n': b.lit("\\n"); break;
      case '\r': b.lit("\\r"); break;
      case '\t': b.lit("\\t"); break;
      default:
        if (c >= 0x20 && c <= 0x7e) {
          b.push(char(c));
        } else {
          b.lit("\\x");
          b.push(detail::kHex[c >> 4]);
          b.push(detail::kHex[c & 15]);
        }
    }
  }
  b.push('"');
}

}  // namespace fitz
