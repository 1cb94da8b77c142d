// base64url for JWT segments. Decoding is strict so that one token has exactly one encoding:
// a signature or payload cannot be altered by flipping unused trailing bits or adding padding.
#include "fitz/auth.h"

namespace fitz::auth {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// -1 for bytes outside the URL alphabet.
struct DecodeTable {
  int8_t v[256];
  constexpr DecodeTable() : v() {
    for (int i = 0; i < 256; ++i) v[i] = -1;
    for (int i = 0; i < 64; ++i) v[static_cast<unsigned char>(kAlphabet[i])] = int8_t(i);
  }
};
constexpr DecodeTable kDecode;
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
  out->resize(n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0));
  char* w = out->data();
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    int a = kDecode.v[s[i]], b = kDecode.v[s[i + 1]], c = kDecode.v[s[i + 2]], d = kDecode.v[s[i + 3]];
    if ((a | b | c | d) < 0) return false;
    uint32_t v = (uint32_t(a) << 18) | (uint32_t(b) << 12) | (uint32_t(c) << 6) | uint32_t(d);
    *w++ = char(v >> 16);
    *w++ = char(v >> 8);
    *w++ = char(v);
  }
  size_t rest = n - i;
  if (rest) {
    int a = kDecode.v[s[i]], b = kDecode.v[s[i + 1]], c = rest == 3 ? kDecode.v[s[i + 2]] : 0;
    if ((a | b | c) < 0) return false;
    uint32_t v = (uint32_t(a) << 18) | (uint32_t(b) << 12) | (uint32_t(c) << 6);
    *w++ = char(v >> 16);
    if (rest == 3) *w++ = char(v >> 8);
    // Unused trailing bits must be zero (one encoding per value).
    if (rest == 2 ? (v & 0xffff) != 0 : (v & 0xff) != 0) return false;
  }
  return true;
}

}  // namespace fitz::auth
