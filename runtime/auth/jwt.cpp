// JWS compact tokens (RFC 7519 / 7515). The structure (three base64url segments, JSON header
// and claims) is checked here with the runtime's strict JSON reader; signatures are made and
// checked by cpp-jwt's OpenSSL primitives, always with the algorithm the program fixed. The
// token's own `alg` must name that algorithm exactly, so `none` and algorithm confusion (an
// HS256 token signed with an RSA public key as secret) fail before any key is touched.
#include <openssl/crypto.h>

#include <jwt/algorithm.hpp>

#include <chrono>
#include <string>

#include "fitz/auth.h"

namespace fitz::auth {

namespace {

using http::JsonReader;
using http::Text;

Str msg(const std::string& s) { return Str(s.data(), s.size()); }

bool is_hmac(Alg a) { return a == Alg::HS256 || a == Alg::HS384 || a == Alg::HS512; }

// Raw signature bytes of `input`, or an error message.
Result<Str, Str> sign_raw(Alg alg, const Str& key, jwt::string_view input) {
  jwt::string_view k(key.data(), key.size());
  jwt::sign_result_t r;
  try {
    switch (alg) {
      case Alg::HS256: r = jwt::HMACSign<jwt::algo::HS256>::sign(k, input); break;
      case Alg::HS384: r = jwt::HMACSign<jwt::algo::HS384>::sign(k, input); break;
      case Alg::HS512: r = jwt::HMACSign<jwt::algo::HS512>::sign(k, input); break;
      case Alg::RS256: r = jwt::PEMSign<jwt::algo::RS256>::sign(k, input); break;
      case Alg::ES256: r = jwt::PEMSign<jwt::algo::ES256>::sign(k, input); break;
    }
  } catch (const std::exception&) {
    return Err("signing failed: out of memory"_s);
  }
  if (r.second || r.first.empty()) {
    if (is_hmac(alg)) return Err("signing failed"_s);
    return Err(msg(std::string("invalid private key for ") + alg_name(alg) + " (expected a PEM " +
                   (alg == Alg::RS256 ? "RSA" : "EC P-256") + " private key)"));
  }
  return Ok(msg(r.first));
}

// Checks `sig_b64` (already validated as strict base64url, `sig_raw` its bytes) over `input`.
Result<Null, Str> verify(Alg alg, const Str& key, jwt::string_view input, jwt::string_view sig_b64,
                         const std::string& sig_raw) {
  if (is_hmac(alg)) {
    Result<Str, Str> want = sign_raw(alg, key, input);
    if (!want.is_ok()) return Err(want.error());
    const Str& w = want.value();
    // Lengths are public (fixed per algorithm); the bytes are compared in constant time.
    if (w.size() != sig_raw.size() || CRYPTO_memcmp(w.data(), sig_raw.data(), w.size()) != 0)
      return Err("invalid signature"_s);
    return Ok();
  }
  jwt::string_view k(key.data(), key.size());
  jwt::verify_result_t r;
  try {
    if (alg == Alg::RS256)
      r = jwt::PEMSign<jwt::algo::RS256>::verify(k, input, sig_b64);
    else
      r = jwt::PEMSign<jwt::algo::ES256>::verify(k, input, sig_b64);
  } catch (const std::exception&) {
    return Err("invalid signature"_s);
  }
  if (r.second == jwt::AlgorithmErrc::InvalidKeyErr)
    return Err(msg(std::string("invalid public key for ") + alg_name(alg) + " (expected PEM)"));
  if (r.second || !r.first) return Err("invalid signature"_s);
  return Ok();
}

Result<Claims, Str> parse_object(const std::string& json, const char* what) {
  JsonReader r(json.data(), json.size(), 64);
  Claims m;
  if (!http::from_json(r, &m)) {
    Str e = r.error();
    return Err(msg(std::string("malformed token: ") + what + " is not a JSON object (" +
                   std::string(e.data(), e.size()) + ")"));
  }
  return Ok(m);
}

// A NumericDate claim (seconds, Int or Float) or an error when present with another type.
bool numeric_date(const Claims& c, const char* name, bool* present, double* out, Str* err) {
  const Any* v = c.find(Str(name));
  *present = v != nullptr;
  if (!v) return true;
  if (v->is_int()) {
    *out = double(v->int_value());
  } else if (v->is_float()) {
    *out = v->float_value();
  } else {
    *err = msg(std::string("invalid '") + name + "' claim: expected a number of seconds, found " +
               std::string(v->type_name().data(), v->type_name().size()));
    return false;
  }
  return true;
}

Result<Null, Str> check_times(const Claims& c, const JwtOptions& o) {
  double now = double(o.now ? o.now : unix_now());
  double leeway = double(o.leeway_secs < 0 ? 0 : o.leeway_secs);
  bool has = false;
  double t = 0;
  Str err;
  if (!numeric_date(c, "exp", &has, &t, &err)) return Err(err);
  if (!has && o.require_exp) return Err("token has no 'exp' claim"_s);
  if (has && now > t + leeway) return Err("token expired"_s);
  if (!numeric_date(c, "nbf", &has, &t, &err)) return Err(err);
  if (has && now + leeway < t) return Err("token not valid yet ('nbf' is in the future)"_s);
  if (!numeric_date(c, "iat", &has, &t, &err)) return Err(err);
  if (has && now + leeway < t) return Err("token issued in the future ('iat')"_s);
  return Ok();
}

}  // namespace

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* alg_name(Alg a) {
  switch (a) {
    case Alg::HS256: return "HS256";
    case Alg::HS384: return "HS384";
    case Alg::HS512: return "HS512";
    case Alg::RS256: return "RS256";
    case Alg::ES256: return "ES256";
  }
  return "?";
}

bool parse_alg(const Str& name, Alg* out) {
  static constexpr Alg kAll[] = {Alg::HS256, Alg::HS384, Alg::HS512, Alg::RS256, Alg::ES256};
  for (Alg a : kAll) {
    if (Text(name) == Text(alg_name(a), 5)) {
      *out = a;
      return true;
    }
  }
  return false;
}

Result<Str, Str> jwt_encode(const Claims& claims, const Str& key, Alg alg) {
  if (key.empty()) return Err("empty key"_s);
  Buf b;
  b.lit("{\"alg\":\"");
  b.append_cstr(alg_name(alg));
  b.lit("\",\"typ\":\"JWT\"}");
  Str header = b.take();
  Str payload = http::to_json(claims);
  Buf tok;
  Str h64 = base64url_encode(header.data(), header.size());
  Str p64 = base64url_encode(payload.data(), payload.size());
  tok.append(h64.data(), h64.size());
  tok.push('.');
  tok.append(p64.data(), p64.size());
  Result<Str, Str> sig = sign_raw(alg, key, jwt::string_view(tok.data(), tok.size()));
  if (!sig.is_ok()) return sig;
  Str s64 = base64url_encode(sig.value().data(), sig.value().size());
  tok.push('.');
  tok.append(s64.data(), s64.size());
  return Ok(tok.take());
}

Result<Claims, Str> jwt_decode(const Str& token, const Str& key, Alg alg, const JwtOptions& o) {
  if (token.size() > o.max_token_bytes)
    return Err(msg("token too large (" + std::to_string(token.size()) + " bytes, limit " +
                   std::to_string(o.max_token_bytes) + ")"));
  if (key.empty()) return Err("empty key"_s);
  const char* p = token.data();
  size_t n = token.size();
  size_t d1 = 0;
  while (d1 < n && p[d1] != '.') ++d1;
  size_t d2 = d1 + 1;
  while (d2 < n && p[d2] != '.') ++d2;
  if (d1 >= n || d2 >= n) return Err("malformed token: expected three dot-separated parts"_s);
  for (size_t i = d2 + 1; i < n; ++i)
    if (p[i] == '.') return Err("malformed token: expected three dot-separated parts"_s);

  std::string header_json, payload_json, sig_raw;
  if (d1 == 0 || !base64url_decode(p, d1, &header_json))
    return Err("malformed token: header is not base64url"_s);
  if (d2 == d1 + 1 || !base64url_decode(p + d1 + 1, d2 - d1 - 1, &payload_json))
    return Err("malformed token: payload is not base64url"_s);
  if (!base64url_decode(p + d2 + 1, n - d2 - 1, &sig_raw))
    return Err("malformed token: signature is not base64url"_s);

  Result<Claims, Str> header = parse_object(header_json, "header");
  if (!header.is_ok()) return Err(header.error());
  const Any* a = header.value().find("alg"_s);
  if (!a || !a->is_str()) return Err("malformed token: header has no 'alg'"_s);
  const Str& named = a->str_value();
  if (Text(named).iequals(Text("none")))
    return Err("algorithm 'none' is not accepted"_s);
  if (!(Text(named) == Text(alg_name(alg), 5)))
    return Err(msg("unexpected algorithm '" + std::string(named.data(), std::min<size_t>(named.size(), 32)) +
                   "' (expected " + alg_name(alg) + ")"));
  if (header.value().find("crit"_s))
    return Err("unsupported critical header parameters ('crit')"_s);
  if (n == d2 + 1) return Err("missing signature"_s);

  Result<Null, Str> v = verify(alg, key, jwt::string_view(p, d2), jwt::string_view(p + d2 + 1, n - d2 - 1), sig_raw);
  if (!v.is_ok()) return Err(v.error());

  Result<Claims, Str> claims = parse_object(payload_json, "payload");
  if (!claims.is_ok()) return claims;
  Result<Null, Str> t = check_times(claims.value(), o);
  if (!t.is_ok()) return Err(t.error());
  if (o.revoked) {
    const Any* jti = claims.value().find("jti"_s);
    if (jti && jti->is_str() && o.revoked->is_revoked(jti->str_value(), o.now))
      return Err("token revoked"_s);
  }
  return claims;
}

Result<Str, Str> jwt_encode(const Claims& claims, const Str& key, const Str& alg) {
  Alg a;
  if (!parse_alg(alg, &a)) return Err(msg("unsupported algorithm '" + std::string(alg.data(), alg.size()) + "'"));
  return jwt_encode(claims, key, a);
}

Result<Claims, Str> jwt_decode(const Str& token, const Str& key, const Str& alg, const JwtOptions& o) {
  Alg a;
  if (!parse_alg(alg, &a)) return Err(msg("unsupported algorithm '" + std::string(alg.data(), alg.size()) + "'"));
  return jwt_decode(token, key, a, o);
}

}  // namespace fitz::auth
