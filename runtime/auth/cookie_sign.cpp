// Signed cookies and the Set-Cookie values of `Response.set_cookie` / `.clear_cookie`. The
// signature is JWT's HMAC-SHA256 over `name=value` under FITZ_SECRET_KEY, so a value or a
// signature copied from another cookie does not verify.
#include <openssl/crypto.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "fitz/auth.h"
#include "fitz/http/cookies.h"

namespace fitz::auth {

namespace {

using http::Text;

Result<Str, Str> signature_of(const Str& key, Text name, Text value) {
  Buf msg;
  msg.append(name.data, name.size);
  msg.push('=');
  msg.append(value.data, value.size);
  Str m = msg.take();
  Result<Str, Str> mac = hmac_sha256(key, Text(m));
  if (!mac.is_ok()) return mac;
  return Ok(base64url_encode(mac.value().data(), mac.value().size()));
}

}  // namespace

Str cookie_secret() {
  const char* k = std::getenv("FITZ_SECRET_KEY");
  return k ? Str(k, std::strlen(k)) : Str();
}

Result<Str, Str> cookie_sign(const Str& key, Text name, Text value) {
  Result<Str, Str> sig = signature_of(key, name, value);
  if (!sig.is_ok()) return sig;
  Buf b;
  Str wire = http::cookie_value_encode(value);
  b.append(wire.data(), wire.size());
  b.push('.');
  b.append(sig.value().data(), sig.value().size());
  return Ok(b.take());
}

Nullable<Str> cookie_verify(const Str& key, Text name, Text wire) {
  if (key.empty()) return null;
  const char* dot = nullptr;
  for (size_t i = wire.size; i-- > 0;)
    if (wire.data[i] == '.') {
      dot = wire.data + i;
      break;
    }
  if (!dot) return null;
  Text sig(dot + 1, size_t(wire.data + wire.size - dot - 1));
  Str value = http::cookie_value_decode(Text(wire.data, size_t(dot - wire.data)));
  Result<Str, Str> want = signature_of(key, name, Text(value));
  if (!want.is_ok()) return null;
  const Str& w = want.value();
  if (w.size() != sig.size || CRYPTO_memcmp(w.data(), sig.data, sig.size) != 0) return null;
  return value;
}

Nullable<Str> signed_cookie(const http::Request& req, const char* name) {
  Text wire;
  if (!http::find_cookie(req, Text(name, std::strlen(name)), &wire)) return null;
  return cookie_verify(cookie_secret(), Text(name, std::strlen(name)), wire);
}

Str set_cookie_value(const Str& name, const Str& value, Nullable<int64_t> max_age, Nullable<bool> http_only,
                     Nullable<bool> secure, Nullable<Str> same_site, Nullable<Str> path, Nullable<bool> sign,
                     SourcePos pos) {
  http::CookieAttrs a;
  a.max_age = max_age;
  if (http_only.has_value()) a.http_only = http_only.value();
  if (secure.has_value()) a.secure = secure.value();
  if (same_site.has_value()) a.same_site = same_site.value();
  if (path.has_value()) a.path = path.value();
  Str wire;
  if (sign.has_value() && sign.value()) {
    Str key = cookie_secret();
    if (key.empty())
      runtime_error(pos, Str::lit("set_cookie: signed: true needs a key; set FITZ_SECRET_KEY in the environment"));
    Result<Str, Str> s = cookie_sign(key, Text(name), Text(value));
    if (!s.is_ok()) runtime_error(pos, Str::lit("set_cookie: ") + s.error());
    wire = s.value();
  } else {
    wire = http::cookie_value_encode(Text(value));
  }
  Result<Str, Str> h = http::set_cookie_header(Text(name), Text(wire), a);
  if (!h.is_ok()) runtime_error(pos, Str::lit("set_cookie: ") + h.error());
  return h.value();
}

Str clear_cookie_value(const Str& name, Nullable<Str> path, SourcePos pos) {
  return set_cookie_value(name, Str(), Nullable<int64_t>(int64_t(0)), null, null, null, path, null, pos);
}

}  // namespace fitz::auth
