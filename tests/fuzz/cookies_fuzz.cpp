// libFuzzer target for cookies (fitz/http/cookies.h, the signed cookies of fitz/auth.h) and the
// Accept reading of the login redirect. Parsing any Cookie header yields only pairs whose name
// is a token and whose value holds no `;`; any value encodes to a valid Set-Cookie and decodes
// back to itself; a signed value verifies under its own name only, and whatever verifies is
// what signing its value gives.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fitz/auth.h"
#include "fitz/http/cookies.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using fitz::http::Text;
  Text in(reinterpret_cast<const char*>(data), size);

  std::vector<fitz::http::CookiePair> pairs;
  fitz::http::parse_cookie_header(in, &pairs);
  for (const auto& p : pairs) {
    if (!fitz::http::is_cookie_name(p.name)) std::abort();
    if (std::memchr(p.value.data, ';', p.value.size)) std::abort();
  }

  fitz::Str wire = fitz::http::cookie_value_encode(in);
  if (!(Text(fitz::http::cookie_value_decode(Text(wire))) == in)) std::abort();
  fitz::http::CookieAttrs attrs;
  if (!fitz::http::set_cookie_header(Text("c"), Text(wire), attrs).is_ok()) std::abort();
  (void)fitz::http::cookie_value_decode(in);
  (void)fitz::http::accept_prefers_html(in);

  static const fitz::Str key = fitz::Str::lit("fuzzing key");
  // Whatever verifies is exactly what signing its value gives.
  if (fitz::Nullable<fitz::Str> v = fitz::auth::cookie_verify(key, Text("sid"), in); v.has_value())
    if (!(Text(fitz::auth::cookie_sign(key, Text("sid"), Text(v.value())).value()) == in)) std::abort();
  fitz::Result<fitz::Str, fitz::Str> s = fitz::auth::cookie_sign(key, Text("sid"), in);
  if (!s.is_ok()) std::abort();
  fitz::Nullable<fitz::Str> back = fitz::auth::cookie_verify(key, Text("sid"), Text(s.value()));
  if (!back.has_value() || !(Text(back.value()) == in)) std::abort();
  if (fitz::auth::cookie_verify(key, Text("sid2"), Text(s.value())).has_value()) std::abort();
  return 0;
}
