// Cookies as the HTTP runtime reads and writes them: the Cookie request header parsed
// leniently (RFC 6265 §5.4), values percent-encoded on the way out and decoded on the way in,
// and the Set-Cookie header value. Signing lives with the other cryptography in fitz/auth.h.
#pragma once

#include <vector>

#include "fitz/http.h"

namespace fitz::http {

struct CookiePair {
  Text name;
  Text value;  // as sent, without surrounding double quotes
};

// The pairs of one Cookie header, in order. Pairs are separated by `;`; spaces and tabs around
// names and values are trimmed, a value in double quotes loses them, `=` inside a value is kept.
// A pair without `=`, with an empty name or a name that is not a token is skipped, so a
// malformed header never fails the request.
void parse_cookie_header(Text header, std::vector<CookiePair>* out);

// The first cookie named `name` (case-sensitive) across every Cookie header of the request.
bool find_cookie(const Request& req, Text name, Text* value);

// A cookie name is an RFC 7230 token: visible ASCII without separators `()<>@,;:\"/[]?={}`.
bool is_cookie_name(Text name);

// The value as it goes on the wire: bytes outside RFC 6265's cookie-octet (controls, space,
// `"`, `,`, `;`, `\`, non-ASCII) and `%` itself become %XX, so any Str round-trips.
Str cookie_value_encode(Text value);
// The value read back: %XX decoded when every escape is well-formed, else the text as sent
// (a cookie another program set is not mangled).
Str cookie_value_decode(Text wire);

struct CookieAttrs {
  Nullable<int64_t> max_age;  // seconds; null: a session cookie; 0 or less: delete it now
  bool http_only = true;
  bool secure = true;
  Str same_site = Str::lit("Lax");  // Strict, Lax or None
  Str path = Str::lit("/");
};

// The Set-Cookie header value `name=wire; Path=/; Max-Age=N; HttpOnly; Secure; SameSite=Lax`,
// or Err with the reason: a name that is not a token, a SameSite other than Strict/Lax/None,
// SameSite=None without Secure, a path with a control character or `;`, or a wire value with a
// byte outside cookie-octet (callers encode it first).
Result<Str, Str> set_cookie_header(Text name, Text wire_value, const CookieAttrs& attrs);

}  // namespace fitz::http
