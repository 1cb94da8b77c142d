// base64url for JWT segments. Decoding is strict so that one token has exactly one encoding:
// a signature or payload cannot be altered by flipping unused trailing bits or adding padding.
#include "fitz/auth.h"

namespace fitz::auth {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int value_of(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}
}  // namespace

Str base64url_encode(const char* p, size_t n) {
  Buf b;
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t(s[i]) << 16) | (uint32_t(s[i + 1]) << 8) | s[i + 2];
    b.push(kAlphabet[(v >> 18) & 63]);
    b.push(kAlphabet[(v >> 12) & 63]);
    b.push(kAlphabet[(v >> 6) & 63]);
    b.push(kAlphabet[v & 63]);
  }
  if (n - i == 1) {
    uint32_t v = uint32_t(s[i]) << 16;
    b.push(kAlphabet[(v >> 18) & 63]);
    b.push(kAlphabet[(v >> 12) & 63]);
  } else if (n - i == 2) {
    uint32_t v = (uint32_t(s[i]) << 16) | (uint32_t(s[i + 1]) << 8);
    b.push(kAlphabet[(v >> 18) & 63]);
    b.push(kAlphabet[(v >> 12) & 63]);
    b.push(kAlphabet[(v >> 6) & 63]);
  }
  return b.take();
}

bool base64url_decode(const char* p, size_t n, std::string* out) {
  out->clear();
  if (n % 4 == 1) return false;
  out->reserve(n / 4 * 3 + 2);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    int v = value_of(static_cast<unsigned char>(p[i]));
    if (v < 0) return false;
    acc = (acc << 6) | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(char((acc >> bits) & 0xff));
    }
  }
  // Leftover bits (2 or 4) must be zero.
  return (acc & ((1u << bits) - 1)) == 0;
}

}  // namespace fitz::auth
