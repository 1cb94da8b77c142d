// libFuzzer target for the JWT decoder (runtime/auth/jwt.cpp) and the bearer-token helpers.
// The first byte picks the mode; the rest is the input:
//   0  a whole token, decoded under every verifier (HS256/384/512 with the secret, RS256 and
//      ES256 with their public keys, and each with a wrong key);
//   1  claims JSON, signed here with the right key of the algorithm the second byte picks, then
//      decoded, and decoded again after one byte of the token is changed;
//   2  header JSON, with fixed claims, signed with the HS256 secret;
//   3  bearer headers, WebSocket subprotocols, PEM public keys and base64url text.
// Oracle beyond "no crash, leak or sanitizer report": a token decodes under at most one
// algorithm (the one its header names exactly), never with a wrong key, never after any byte of
// it changed; an HS* signature that verifies is the HMAC of the signed part (checked with
// OpenSSL directly, not through the decoder); the string-key and parsed-key entry points agree;
// decoded claims encode and decode back to the same JSON; every failure has a message.
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fitz/auth.h"
#include "jwt_keys.h"

namespace {

using fitz::Str;
using fitz::auth::Alg;
using fitz::auth::Claims;
using fitz::auth::JwtKey;
using fitz::auth::JwtOptions;
using namespace fitz_fuzz_jwt;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "jwt oracle: %s: %s\n", what, detail.c_str());
  std::abort();
}

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

struct Verifier {
  Alg alg;
  const char* key;
  bool right;  // the key the seed tokens are signed with
  JwtKey parsed;
};

Verifier make_verifier(Alg alg, const char* key, bool right) {
  auto k = JwtKey::parse(Str(key), alg);
  if (!k.is_ok()) fail("fixed key does not parse", s(k.error()));
  return Verifier{alg, key, right, k.value()};
}

std::vector<Verifier>& verifiers() {
  static std::vector<Verifier> v = {
      make_verifier(Alg::HS256, kSecret, true),       make_verifier(Alg::HS384, kSecret, true),
      make_verifier(Alg::HS512, kSecret, true),       make_verifier(Alg::RS256, kRsaPublic, true),
      make_verifier(Alg::ES256, kEcPublic, true),     make_verifier(Alg::HS256, kOtherSecret, false),
      make_verifier(Alg::RS256, kRsaOtherPublic, false), make_verifier(Alg::ES256, kEcOtherPublic, false),
  };
  return v;
}

JwtOptions options(bool require_exp) {
  static fitz::auth::RevocationSet revoked;
  static const bool filled = (revoked.revoke(Str("revoked-id"), 1900000000), true);
  (void)filled;
  JwtOptions o;
  o.now = 1700000000;  // fixed, so a run does not depend on the day
  o.require_exp = require_exp;
  o.revoked = &revoked;
  return o;
}

// The independent HS* check: the signature segment is the HMAC of "header.payload".
void check_hmac(Alg alg, const std::string& token) {
  size_t d2 = token.rfind('.');
  std::string sig;
  if (d2 == std::string::npos || !fitz::auth::base64url_decode(token.data() + d2 + 1, token.size() - d2 - 1, &sig))
    fail("accepted token has no decodable signature", token);
  const EVP_MD* md = alg == Alg::HS256 ? EVP_sha256() : alg == Alg::HS384 ? EVP_sha384() : EVP_sha512();
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(md, kSecret, int(sizeof kSecret - 1), reinterpret_cast<const unsigned char*>(token.data()), d2, mac, &len);
  if (sig.size() != len || CRYPTO_memcmp(sig.data(), mac, len) != 0)
    fail("accepted HS* token whose signature is not the HMAC of its signed part", token);
}

// Decoded claims written back as JSON and signed again decode to the same JSON.
void check_round_trip(const Claims& claims) {
  Str json = fitz::http::to_json(claims);
  auto tok = fitz::auth::jwt_encode(claims, Str(kSecret), Alg::HS256);
  if (!tok.is_ok()) fail("claims that decoded do not encode", s(tok.error()));
  JwtOptions o;
  o.leeway_secs = int64_t(1) << 40;  // the times were checked once; only the JSON matters here
  auto back = fitz::auth::jwt_decode(tok.value(), Str(kSecret), Alg::HS256, o);
  if (!back.is_ok()) fail("re-encoded claims do not decode", s(back.error()) + " for " + s(json));
  if (s(fitz::http::to_json(back.value())) != s(json))
    fail("claims change through encode/decode", s(json) + " vs " + s(fitz::http::to_json(back.value())));
}

// Decodes `token` under every verifier; returns how many accepted it.
int decode_everywhere(const std::string& token, bool require_exp) {
  Str t(token.data(), token.size());
  JwtOptions o = options(require_exp);
  int accepted = 0;
  for (const Verifier& v : verifiers()) {
    auto r = fitz::auth::jwt_decode(t, v.parsed, o);
    // The string-key entry point parses the PEM key on every call (OpenSSL's decoder dominates
    // the run time), so for RS256 / ES256 it is compared on accepted tokens only.
    bool hmac = v.alg == Alg::HS256 || v.alg == Alg::HS384 || v.alg == Alg::HS512;
    if (hmac || r.is_ok()) {
      auto r2 = fitz::auth::jwt_decode(t, Str(v.key), v.alg, o);
      if (r.is_ok() != r2.is_ok() || (!r.is_ok() && s(r.error()) != s(r2.error())))
        fail("JwtKey and PEM-string decoding disagree", token);
    }
    if (!r.is_ok()) {
      if (r.error().size() == 0) fail("rejection without a message", token);
      continue;
    }
    if (!v.right) fail("token accepted with a wrong key", std::string(fitz::auth::alg_name(v.alg)) + " " + token);
    ++accepted;
    if (hmac) check_hmac(v.alg, token);
    check_round_trip(r.value());
  }
  if (accepted > 1) fail("token accepted under several algorithms", token);
  return accepted;
}

const char* private_key(Alg a) {
  switch (a) {
    case Alg::RS256: return kRsaPrivate;
    case Alg::ES256: return kEcPrivate;
    default: return kSecret;
  }
}

std::string b64(const std::string& x) { return s(fitz::auth::base64url_encode(x.data(), x.size())); }

EVP_PKEY* private_pkey(Alg a) {
  static EVP_PKEY* keys[2] = {nullptr, nullptr};
  EVP_PKEY*& k = keys[a == Alg::RS256 ? 0 : 1];
  if (!k) {
    const char* pem = private_key(a);
    BIO* b = BIO_new_mem_buf(pem, -1);
    k = PEM_read_bio_PrivateKey(b, nullptr, nullptr, nullptr);
    BIO_free(b);
    if (!k) fail("fixed private key does not parse", fitz::auth::alg_name(a));
  }
  return k;
}

// header.payload signed with the right key of `alg`, by OpenSSL directly rather than the
// runtime's signer, so the decoder is checked against an independent implementation.
std::string sign(Alg alg, const std::string& header, const std::string& payload) {
  std::string input = b64(header) + "." + b64(payload);
  const unsigned char* in = reinterpret_cast<const unsigned char*>(input.data());
  std::string sig;
  if (alg == Alg::HS256 || alg == Alg::HS384 || alg == Alg::HS512) {
    const EVP_MD* md = alg == Alg::HS256 ? EVP_sha256() : alg == Alg::HS384 ? EVP_sha384() : EVP_sha512();
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(md, kSecret, int(sizeof kSecret - 1), in, input.size(), mac, &len);
    sig.assign(reinterpret_cast<const char*>(mac), len);
  } else {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    size_t len = 0;
    std::string der;
    if (EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, private_pkey(alg)) != 1 ||
        EVP_DigestSign(ctx, nullptr, &len, in, input.size()) != 1)
      fail("signing failed", input);
    der.resize(len);
    if (EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(der.data()), &len, in, input.size()) != 1)
      fail("signing failed", input);
    der.resize(len);
    EVP_MD_CTX_free(ctx);
    if (alg == Alg::RS256) {
      sig = der;
    } else {  // JOSE wants r||s, 32 bytes each, not DER
      const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
      ECDSA_SIG* es = d2i_ECDSA_SIG(nullptr, &p, long(der.size()));
      if (!es) fail("ECDSA signature is not DER", input);
      unsigned char rs[64];
      BN_bn2binpad(ECDSA_SIG_get0_r(es), rs, 32);
      BN_bn2binpad(ECDSA_SIG_get0_s(es), rs + 32, 32);
      ECDSA_SIG_free(es);
      sig.assign(reinterpret_cast<const char*>(rs), 64);
    }
  }
  return input + "." + b64(sig);
}

// Any single-byte change of an accepted token is rejected by its verifier.
void check_tamper(Alg alg, const std::string& token, uint8_t pos_seed, uint8_t xor_seed) {
  std::string t = token;
  size_t pos = (size_t(pos_seed) * 7919u + xor_seed) % t.size();
  t[pos] = char(uint8_t(t[pos]) ^ (xor_seed | 1));
  for (const Verifier& v : verifiers()) {
    auto r = fitz::auth::jwt_decode(Str(t.data(), t.size()), v.parsed, options(false));
    if (r.is_ok()) fail("token accepted after a byte changed", std::string(fitz::auth::alg_name(alg)) + " " + t);
  }
}

constexpr Alg kAlgs[] = {Alg::HS256, Alg::HS384, Alg::HS512, Alg::RS256, Alg::ES256};

void signed_claims(const uint8_t* data, size_t size) {
  if (size < 2) return;
  Alg alg = kAlgs[data[0] % 5];
  uint8_t xor_seed = data[1];
  std::string payload(reinterpret_cast<const char*>(data + 2), size - 2);
  std::string token = sign(alg, std::string("{\"alg\":\"") + fitz::auth::alg_name(alg) + "\",\"typ\":\"JWT\"}", payload);
  int accepted = decode_everywhere(token, false);
  if (accepted == 0) return;
  check_tamper(alg, token, uint8_t(size), xor_seed);
}

void signed_header(const uint8_t* data, size_t size) {
  std::string header(reinterpret_cast<const char*>(data), size);
  std::string token = sign(Alg::HS256, header, "{\"sub\":\"42\",\"exp\":1900000000}");
  decode_everywhere(token, true);
}

void helpers(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  Str t(text.data(), text.size());
  fitz::Map<Str, Str> headers;
  headers.set(Str("authorization"), t);
  auto bt = fitz::auth::bearer_token(headers);
  if (!bt.is_ok() && bt.error().size() == 0) fail("bearer rejection without a message", text);
  if (bt.is_ok()) {
    // The token is a part of the header value, not made up.
    if (text.find(s(bt.value())) == std::string::npos) fail("bearer token not in the header", text);
  }
  Str sub = fitz::auth::bearer_subprotocol(fitz::http::Text(t));
  if (sub.size() && text.find(s(sub)) == std::string::npos) fail("subprotocol token not in the header", text);
  // OpenSSL's PEM decoder costs milliseconds even on text that is no PEM at all; only text
  // that looks like a key goes through it.
  if (text.find("-----BEGIN") != std::string::npos) {
    for (Alg a : {Alg::RS256, Alg::ES256}) {
      auto k = JwtKey::parse(t, a);
      if (!k.is_ok() && k.error().size() == 0) fail("key rejection without a message", text);
    }
  }
  std::string raw;
  if (fitz::auth::base64url_decode(text.data(), text.size(), &raw) && b64(raw) != text)
    fail("base64url does not round-trip", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t* rest = data + 1;
  size_t n = size - 1;
  switch (data[0] % 4) {
    case 0: {
      std::string token(reinterpret_cast<const char*>(rest), n);
      decode_everywhere(token, data[0] & 4);
      break;
    }
    case 1: signed_claims(rest, n); break;
    case 2: signed_header(rest, n); break;
    default: helpers(rest, n); break;
  }
  return 0;
}
