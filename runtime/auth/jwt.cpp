// JWS compact tokens (RFC 7519 / 7515). The structure (three base64url segments, JSON header
// and claims) is checked here with the runtime's strict JSON reader; signatures are made and
// checked by cpp-jwt's OpenSSL primitives, always with the algorithm the program fixed. The
// token's own `alg` must name that algorithm exactly, so `none` and algorithm confusion (an
// HS256 token signed with an RSA public key as secret) fail before any key is touched.
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

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

Result<Null, Str> verify_hmac(Alg alg, const Str& key, jwt::string_view input, const std::string& sig_raw) {
  Result<Str, Str> want = sign_raw(alg, key, input);
  if (!want.is_ok()) return Err(want.error());
  const Str& w = want.value();
  // Lengths are public (fixed per algorithm); the bytes are compared in constant time.
  if (w.size() != sig_raw.size() || CRYPTO_memcmp(w.data(), sig_raw.data(), w.size()) != 0)
    return Err("invalid signature"_s);
  return Ok();
}

// RS256 / ES256 with a parsed key (OpenSSL's EVP verification). JWS carries ES256 signatures
// as r||s (32 bytes each); OpenSSL wants DER.
Result<Null, Str> verify_pkey(Alg alg, EVP_PKEY* pkey, jwt::string_view input, const std::string& sig_raw) {
  std::string der;
  const unsigned char* sig = reinterpret_cast<const unsigned char*>(sig_raw.data());
  size_t sig_len = sig_raw.size();
  if (alg == Alg::ES256) {
    if (sig_raw.size() != 64) return Err("invalid signature"_s);
    ECDSA_SIG* es = ECDSA_SIG_new();
    BIGNUM* r = BN_bin2bn(sig, 32, nullptr);
    BIGNUM* s = BN_bin2bn(sig + 32, 32, nullptr);
    if (!es || !r || !s || ECDSA_SIG_set0(es, r, s) != 1) {
      BN_free(r);
      BN_free(s);
      ECDSA_SIG_free(es);
      return Err("invalid signature"_s);
    }
    int n = i2d_ECDSA_SIG(es, nullptr);
    if (n > 0) {
      der.resize(size_t(n));
      unsigned char* p = reinterpret_cast<unsigned char*>(der.data());
      n = i2d_ECDSA_SIG(es, &p);
    }
    ECDSA_SIG_free(es);
    if (n <= 0) return Err("invalid signature"_s);
    sig = reinterpret_cast<const unsigned char*>(der.data());
    sig_len = der.size();
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, pkey) == 1 &&
            EVP_DigestVerify(ctx, sig, sig_len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok) return Err("invalid signature"_s);
  return Ok();
}

EVP_PKEY* read_public_key(const Str& pem) {
  BIO* b = BIO_new_mem_buf(pem.data(), int(pem.size()));
  if (!b) return nullptr;
  EVP_PKEY* k = PEM_read_bio_PUBKEY(b, nullptr, nullptr, nullptr);
  BIO_free(b);
  return k;
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

Result<Str, Str> hmac_sha256(const Str& key, Text message) {
  if (key.empty()) return Err("empty key"_s);
  return sign_raw(Alg::HS256, key, jwt::string_view(message.data, message.size));
}

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

Result<JwtKey, Str> JwtKey::parse(const Str& key, Alg alg) {
  JwtKey k;
  k.alg_ = alg;
  if (key.empty()) return Err("empty key"_s);
  if (is_hmac(alg)) {
    k.secret_ = key;
    return Ok(k);
  }
  EVP_PKEY* p = read_public_key(key);
  bool fits = p && (alg == Alg::RS256 ? EVP_PKEY_get_base_id(p) == EVP_PKEY_RSA
                                      : EVP_PKEY_get_base_id(p) == EVP_PKEY_EC && EVP_PKEY_get_bits(p) == 256);
  if (!fits) {
    EVP_PKEY_free(p);
    return Err(msg(std::string("invalid public key for ") + alg_name(alg) + " (expected a PEM " +
                   (alg == Alg::RS256 ? "RSA" : "EC P-256") + " public key)"));
  }
  k.pkey_ = std::shared_ptr<void>(p, [](void* x) { EVP_PKEY_free(static_cast<EVP_PKEY*>(x)); });
  return Ok(k);
}

Result<Claims, Str> jwt_decode(const Str& token, const Str& key, Alg alg, const JwtOptions& o) {
  if (token.size() > o.max_token_bytes)
    return Err(msg("token too large (" + std::to_string(token.size()) + " bytes, limit " +
                   std::to_string(o.max_token_bytes) + ")"));
  Result<JwtKey, Str> k = JwtKey::parse(key, alg);
  if (!k.is_ok()) return Err(k.error());
  return jwt_decode(token, k.value(), o);
}

Result<Claims, Str> jwt_decode(const Str& token, const JwtKey& key, const JwtOptions& o) {
  Alg alg = key.alg_;
  if (token.size() > o.max_token_bytes)
    return Err(msg("token too large (" + std::to_string(token.size()) + " bytes, limit " +
                   std::to_string(o.max_token_bytes) + ")"));
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

  Result<Null, Str> v = is_hmac(alg) ? verify_hmac(alg, key.secret_, jwt::string_view(p, d2), sig_raw)
                                     : verify_pkey(alg, static_cast<EVP_PKEY*>(key.pkey_.get()), jwt::string_view(p, d2), sig_raw);
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
