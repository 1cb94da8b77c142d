// Join tokens: HKDF-SHA256 key derivation and AES-256-GCM sealing through OpenSSL, the claims
// as JSON written and read with the runtime's own JSON code. Every failure is a TokenError.
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <memory>

#include "fitz/auth.h"
#include "fitz/http/json.h"
#include "json_text.h"
#include "fitz/live/token.h"

namespace fitz::live {

namespace {

using detail::json_text;

constexpr std::string_view kPrefix = "1.";
constexpr std::string_view kAad = "fitz-live-token-1";
constexpr size_t kNonce = 12, kTag = 16;
// Tokens issued this far in the future are refused (clock skew between replicas is allowed).
constexpr int64_t kMaxSkewSecs = 60;

struct CtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CtxFree>;

// OpenSSL reports failures through return values; a failure here (allocation) is a fault of
// the process, not of the input, so it is thrown at this library boundary.
[[noreturn]] void crypto_fault(const char* what) { throw std::runtime_error(std::string("live token: ") + what); }


std::string claims_json(const TokenClaims& c) {
  Buf b;
  http::JsonWriter w(b);
  w.begin_object();
  w.key("view");
  w.value(json_text(c.view));
  w.key("props");
  w.raw(json_text(c.props_json.empty() ? std::string_view("null") : std::string_view(c.props_json)));
  w.key("sid");
  w.value(json_text(c.sid));
  w.key("uid");
  w.value(json_text(c.uid));
  w.key("iat");
  w.value(c.iat);
  w.key("exp");
  w.value(c.exp);
  for (const auto* pairs : {&c.params, &c.query}) {
    if (pairs == &c.params)
      w.key("params");
    else
      w.key("query");
    w.begin_object();
    for (const auto& [k, v] : *pairs) {
      w.key(json_text(k));
      w.value(json_text(v));
    }
    w.end_object();
  }
  w.end_object();
  return std::string(b.data(), b.size());
}

bool parse_claims(std::string_view json, TokenClaims* out) {
  http::JsonReader r(json.data(), json.size(), 64);
  static const http::Text kFields[] = {"view", "props", "sid", "uid", "iat", "exp", "params", "query"};
  uint64_t seen = 0;
  auto read_str = [&](std::string* s) {
    Str v;
    if (!r.read_str(&v)) return false;
    s->assign(v.data(), v.size());
    return true;
  };
  auto read_pairs = [&](std::vector<std::pair<std::string, std::string>>* out) {
    if (!r.begin_object()) return false;
    http::Text k;
    while (r.next_key(&k)) {
      std::string key(k.data, k.size);
      std::string value;
      if (!read_str(&value)) return false;
      out->emplace_back(std::move(key), std::move(value));
    }
    return r.ok();
  };
  bool ok = r.begin_object() && http::read_fields(r, kFields, 8, &seen, [&](size_t i) {
    switch (i) {
      case 0: return read_str(&out->view);
      case 1: {
        if (r.peek() == http::JsonKind::Invalid) return false;
        size_t start = r.offset();
        if (!r.skip_value()) return false;
        out->props_json.assign(json.data() + start, r.offset() - start);
        return true;
      }
      case 2: return read_str(&out->sid);
      case 3: return read_str(&out->uid);
      case 4: return r.read_int(&out->iat);
      case 5: return r.read_int(&out->exp);
      case 6: return read_pairs(&out->params);
      default: return read_pairs(&out->query);
    }
  });
  return ok && r.finish() && seen == 0xff;
}

}  // namespace

TokenKey TokenKey::derive(std::string_view secret) {
  TokenKey k;
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  if (!kdf) crypto_fault("HKDF unavailable");
  EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
  EVP_KDF_free(kdf);
  if (!ctx) crypto_fault("HKDF context");
  static const char kSalt[] = "fitz live views";
  static const char kInfo[] = "fitz-live join token aes-256-gcm v1";
  char digest[] = "SHA256";
  // An empty secret still derives a key (HKDF accepts an empty IKM); the runtime refuses to
  // start in prod without FITZ_SECRET_KEY, so this only happens in tests.
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<char*>(secret.data()), secret.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<char*>(kSalt), sizeof kSalt - 1),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(kInfo), sizeof kInfo - 1),
      OSSL_PARAM_construct_end()};
  int rc = EVP_KDF_derive(ctx, k.k_.data(), k.k_.size(), params);
  EVP_KDF_CTX_free(ctx);
  if (rc != 1) crypto_fault("HKDF derive");
  return k;
}

TokenKey TokenKey::random() {
  TokenKey k;
  if (RAND_bytes(k.k_.data(), int(k.k_.size())) != 1) crypto_fault("RAND_bytes");
  return k;
}

const char* token_error_name(TokenError e) {
  switch (e) {
    case TokenError::None: return "ok";
    case TokenError::Malformed: return "malformed";
    case TokenError::Forged: return "forged";
    case TokenError::BadPayload: return "bad payload";
    case TokenError::Expired: return "expired";
    case TokenError::NotYetValid: return "not yet valid";
  }
  return "?";
}

std::string seal_token(const TokenClaims& claims, const TokenKey& key) {
  std::string plain = claims_json(claims);
  std::string blob(kNonce + plain.size() + kTag, '\0');
  auto* out = reinterpret_cast<unsigned char*>(blob.data());
  if (RAND_bytes(out, int(kNonce)) != 1) crypto_fault("RAND_bytes");
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  int len = 0;
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.bytes().data(), out) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(kAad.data()),
                        int(kAad.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out + kNonce, &len, reinterpret_cast<const unsigned char*>(plain.data()),
                        int(plain.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), out + kNonce + len, &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, int(kTag), out + kNonce + plain.size()) != 1)
    crypto_fault("AES-256-GCM encrypt");
  Str b64 = auth::base64url_encode(blob.data(), blob.size());
  std::string token(kPrefix);
  token.append(b64.data(), b64.size());
  return token;
}

TokenResult open_token(std::string_view token, const TokenKey& key, int64_t now_unix) {
  TokenResult res;
  if (token.size() > kMaxTokenBytes || token.substr(0, kPrefix.size()) != kPrefix) {
    res.error = TokenError::Malformed;
    return res;
  }
  std::string blob;
  std::string_view body = token.substr(kPrefix.size());
  if (!auth::base64url_decode(body.data(), body.size(), &blob) || blob.size() < kNonce + kTag + 2) {
    res.error = TokenError::Malformed;
    return res;
  }
  size_t n = blob.size() - kNonce - kTag;
  auto* in = reinterpret_cast<unsigned char*>(blob.data());
  std::string plain(n, '\0');
  auto* out = reinterpret_cast<unsigned char*>(plain.data());
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  int len = 0;
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.bytes().data(), in) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(kAad.data()),
                        int(kAad.size())) != 1 ||
      EVP_DecryptUpdate(ctx.get(), out, &len, in + kNonce, int(n)) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, int(kTag), in + kNonce + n) != 1) {
    res.error = TokenError::Forged;
    return res;
  }
  // The tag check: any flipped bit, or another key, fails here.
  if (EVP_DecryptFinal_ex(ctx.get(), out + len, &len) != 1) {
    res.error = TokenError::Forged;
    return res;
  }
  if (!parse_claims(plain, &res.claims)) {
    res.error = TokenError::BadPayload;
    res.claims = TokenClaims();
    return res;
  }
  if (now_unix >= res.claims.exp)
    res.error = TokenError::Expired;
  else if (res.claims.iat > now_unix + kMaxSkewSecs)
    res.error = TokenError::NotYetValid;
  return res;
}

}  // namespace fitz::live
