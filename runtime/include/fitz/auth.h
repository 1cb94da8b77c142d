// Auth for generated services: JSON Web Tokens (`jwt.encode` / `jwt.decode`), password hashing
// (`hash.password` / `hash.verify`), bearer tokens, an in-memory revocation set and the route
// guards `@authenticated` (401), `@admin` and `@requires(...)` (403). The cryptography lives in
// runtime/auth/*.cpp (cpp-jwt and OpenSSL for signatures, libargon2 for Argon2id); this header
// has no OpenSSL or Boost include, so generated code compiles fast.
//
//   fitz::auth::Claims c{{"sub"_s, fitz::Any("42"_s)}, {"exp"_s, fitz::Any(int64_t(1900000000))}};
//   auto tok = fitz::auth::jwt_encode(c, secret, fitz::auth::Alg::HS256);       // Result<Str, Str>
//   auto back = fitz::auth::jwt_decode(tok.value(), secret, fitz::auth::Alg::HS256);
//   Str phc = fitz::auth::hash_password("hunter2"_s);   // $argon2id$v=19$m=19456,t=2,p=1$...
//   bool ok = fitz::auth::verify_password("hunter2"_s, phc);
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

#include "fitz/http.h"

namespace fitz::auth {

// ---- JWT ---------------------------------------------------------------------------------

// The signature algorithm is always fixed by the program: a token whose header names another
// algorithm (including `none`) is rejected before any key is used.
enum class Alg : uint8_t { HS256, HS384, HS512, RS256, ES256 };
const char* alg_name(Alg a);              // "HS256"
bool parse_alg(const Str& name, Alg* out);  // exact, upper-case names only

// Claims keep their JSON types: numbers stay Int or Float, nested objects are Map<Str, Any>.
using Claims = Map<Str, Any>;

class RevocationSet;

struct JwtOptions {
  int64_t leeway_secs = 30;           // tolerance for exp / nbf / iat against the clock
  size_t max_token_bytes = 8 * 1024;  // longer tokens are rejected before decoding
  int64_t now = 0;                    // Unix seconds; 0: the system clock (tests fix it)
  bool require_exp = false;           // a token without `exp` is rejected
  const RevocationSet* revoked = nullptr;  // a token whose `jti` is in the set is rejected
};

// Keys: the shared secret for HS*, a PEM private key (encode) or PEM public key (decode) for
// RS256 / ES256 (P-256). Every failure is an Err with a reason, never a crash.
Result<Str, Str> jwt_encode(const Claims& claims, const Str& key, Alg alg = Alg::HS256);
Result<Claims, Str> jwt_decode(const Str& token, const Str& key, Alg alg = Alg::HS256,
                               const JwtOptions& options = JwtOptions());
// The same with the algorithm given by name (`jwt.encode(c, k, "HS512")`); an unknown name is
// an Err ("unsupported algorithm 'X'").
Result<Str, Str> jwt_encode(const Claims& claims, const Str& key, const Str& alg);
Result<Claims, Str> jwt_decode(const Str& token, const Str& key, const Str& alg,
                               const JwtOptions& options = JwtOptions());

// base64url without padding (RFC 7515 §2). Decoding is strict: only the URL alphabet, no
// padding, no impossible length, zero trailing bits.
Str base64url_encode(const char* p, size_t n);
bool base64url_decode(const char* p, size_t n, std::string* out);

// ---- Passwords ---------------------------------------------------------------------------

// `hash.password`: Argon2id (m=19456 KiB, t=2, p=1, 16-byte random salt, 32-byte hash) as a
// PHC string. A failure of the system's random source is a runtime error.
Str hash_password(const Str& password);
// `hash.verify`: true when `phc` is an Argon2id PHC string of `password`; false for anything
// else, including malformed strings and parameters beyond sane limits (so a stored string
// cannot make verification allocate gigabytes). The comparison is constant-time.
bool verify_password(const Str& password, const Str& phc);

// ---- Revocation --------------------------------------------------------------------------

// Revoked token ids (`jti`) until their expiry: revoking a token keeps its id only as long as
// the token itself would be accepted. Thread-safe; expired entries are dropped on `cleanup` and
// while revoking, so the set stays as small as the number of live revoked tokens.
class RevocationSet {
 public:
  void revoke(const Str& jti, int64_t expires_at);  // Unix seconds
  bool is_revoked(const Str& jti, int64_t now = 0) const;
  size_t cleanup(int64_t now = 0);  // removes expired entries; returns how many
  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, int64_t> until_;
  size_t sweep_at_ = 64;  // next size at which `revoke` sweeps expired entries
};

int64_t unix_now();

}  // namespace fitz::auth
