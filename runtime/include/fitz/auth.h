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

#include <memory>
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

// A verification key parsed once: the secret for HS*, or the PEM public key of RS256 / ES256
// (P-256) loaded into OpenSSL. Parsing a PEM key costs far more than a signature check, so a
// program that verifies with a fixed key (a guard, a key read from the environment at start)
// keeps a JwtKey. Copies share the parsed key; safe to use from several threads.
class JwtKey {
 public:
  static Result<JwtKey, Str> parse(const Str& key, Alg alg);
  Alg alg() const { return alg_; }

 private:
  friend Result<Claims, Str> jwt_decode(const Str& token, const JwtKey& key, const JwtOptions& options);
  Alg alg_ = Alg::HS256;
  Str secret_;                  // HS*
  std::shared_ptr<void> pkey_;  // RS256 / ES256: the OpenSSL key
};
Result<Claims, Str> jwt_decode(const Str& token, const JwtKey& key, const JwtOptions& options = JwtOptions());

// base64url without padding (RFC 7515 §2). Decoding is strict: only the URL alphabet, no
// padding, no impossible length, zero trailing bits.
Str base64url_encode(const char* p, size_t n);
bool base64url_decode(const char* p, size_t n, std::string* out);

// ---- Signed cookies ------------------------------------------------------------------------

// HMAC-SHA256 of `message` under `key` (the raw 32 bytes), as JWT's HS256 computes it; Err for
// an empty key.
Result<Str, Str> hmac_sha256(const Str& key, http::Text message);

// A signed cookie on the wire is `value.signature`: the value percent-encoded for the wire
// (fitz/http/cookies.h), then the base64url HMAC-SHA256 of `name=value`, so a signature made
// for one cookie does not verify under another name.
Result<Str, Str> cookie_sign(const Str& key, http::Text name, http::Text value);
// The value of a signed wire form, or null when it has no signature or the signature does not
// verify for `name` (compared in constant time).
Nullable<Str> cookie_verify(const Str& key, http::Text name, http::Text wire);
// The key cookies are signed with: FITZ_SECRET_KEY ("" when unset or empty).
Str cookie_secret();
// `@cookie("sid", signed=true)`: the verified value, or null when the cookie is absent,
// unsigned or forged, or FITZ_SECRET_KEY is unset (then nothing can verify).
Nullable<Str> signed_cookie(const http::Request& req, const char* name);

// `Response.set_cookie(...)` and `.clear_cookie(...)`: the Set-Cookie header value; a null
// argument takes its default (max_age none, http_only and secure true, same_site "Lax", path
// "/", not signed). An invalid name, same_site or path, or `signed` without FITZ_SECRET_KEY, is
// a runtime error at `pos`.
Str set_cookie_value(const Str& name, const Str& value, Nullable<int64_t> max_age, Nullable<bool> http_only,
                     Nullable<bool> secure, Nullable<Str> same_site, Nullable<Str> path, Nullable<bool> sign,
                     SourcePos pos);
Str clear_cookie_value(const Str& name, Nullable<Str> path, SourcePos pos);

// Adds a Set-Cookie to the Fitz-side `Response` (a generated struct with `fld_headers`) and
// returns it. Its headers are a map, so several cookies share the "Set-Cookie" entry joined
// by "\n" (a byte no header value may hold); the HTTP glue sends one header per line.
template <class Resp> Ref<Resp> add_set_cookie(const Ref<Resp>& r, Str header, SourcePos pos) {
  if (!r) runtime_error(pos, "set_cookie on a null Response");
  Str key = Str::lit("Set-Cookie");
  for (const auto& e : r->fld_headers.entries_vec())
    if (http::Text(e.key).iequals(http::Text("set-cookie"))) {
      key = e.key;
      Buf b;
      b.append(e.value.data(), e.value.size());
      if (!e.value.empty()) b.push('\n');
      b.append(header.data(), header.size());
      header = b.take();
      break;
    }
  r->fld_headers.set(key, header);
  return r;
}

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

// ---- Bearer tokens and route guards --------------------------------------------------------

// The token of `Authorization: Bearer <token>` (scheme case-insensitive), or an Err that is
// the 401 message: "missing bearer token" / "authorization header is not a bearer token".
// `headers` has lower-cased names, as `@auth_provider` receives them.
Result<Str, Str> bearer_token(const Map<Str, Str>& headers);
Result<Str, Str> bearer_token(const http::Request& req);

// The map `@auth_provider` receives: request headers with lower-cased names. Browsers cannot
// set headers on a WebSocket upgrade, so a `Sec-WebSocket-Protocol` entry `bearer.<token>`
// becomes `authorization: Bearer <token>` when the request has no Authorization header.
Map<Str, Str> provider_headers(const http::Request& req);
// The `bearer.<token>` entry of a Sec-WebSocket-Protocol header ("" when absent).
Str bearer_subprotocol(http::Text protocols);

// What a guarded route (or WebSocket endpoint) requires beyond a valid user.
struct Requirement {
  bool admin = false;      // @admin: role == "admin"
  std::vector<Str> roles;  // @requires("a") @requires("b"): any one of them

  static Requirement authenticated() { return {}; }
  static Requirement admin_role() {
    Requirement r;
    r.admin = true;
    return r;
  }
  static Requirement any_role(std::initializer_list<Str> roles) {
    Requirement r;
    r.roles.assign(roles.begin(), roles.end());
    return r;
  }
};

// 401 {"error": msg} with `WWW-Authenticate: Bearer`.
http::Response unauthorized(http::Text msg);
// The 403 for a user with `role` (null when the role satisfies `need`).
Nullable<http::Response> forbidden(const Requirement& need, const Nullable<Str>& role);
// The 401 for a runtime error raised inside the `@auth_provider` (logged at warning level with
// its message and position; the client sees only that its credentials were refused).
http::Response provider_failed(const Panic& p);
// The `role` claim of JWT claims when it is a string.
Nullable<Str> claims_role(const Claims& c);

// `@auth_provider` and the guards over it. `U` is the provider's user type (a generated
// `Ref<User>`, or `Claims`); `role_of` reads the role that `@admin` / `@requires` check (null:
// no role, so only `@authenticated` passes). The provider is sync or async
// (`Task<Result<U, Str>>`); an Err(msg) from it is a 401 {"error": msg}.
template <class U> class Guard {
 public:
  using SyncProvider = Fn<Result<U, Str>(Map<Str, Str>)>;
  using AsyncProvider = Fn<Task<Result<U, Str>>(Map<Str, Str>)>;
  using RoleOf = Fn<Nullable<Str>(const U&)>;

  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Guard>>>
  explicit Guard(F&& provider, RoleOf role_of = RoleOf()) : role_of_(role_of) {
    if constexpr (http::detail::is_task<http::detail::ResultOf<F, Map<Str, Str>>>)
      async_ = AsyncProvider(std::forward<F>(provider));
    else
      sync_ = SyncProvider(std::forward<F>(provider));
  }

  bool is_async() const { return !sync_; }

  // The user, or the 401 / 403 response. `check` needs a sync provider. A runtime error in
  // the provider (a claim it indexes is missing, say) is the client's bad credentials, not a
  // server fault: a 401, logged at warning level.
  Result<U, http::Response> check(const http::Request& req, const Requirement& need) const {
    if (!sync_) runtime_error(SourcePos{}, "auth: check() on an async @auth_provider (use check_async)");
    try {
      return decide(sync_(provider_headers(req)), need);
    } catch (const Panic& p) {
      return Err(provider_failed(p));
    }
  }
  Task<Result<U, http::Response>> check_async(const http::Request& req, const Requirement& need) const {
    if (sync_) co_return check(req, need);
    Panic failure;
    try {
      Result<U, Str> r = co_await async_(provider_headers(req));
      co_return decide(r, need);
    } catch (const Panic& p) {
      failure = p;  // no co_await inside a handler: answered below
    }
    co_return Err(provider_failed(failure));
  }

  // The provider over a header map, for callers with no request (a live view's socket, whose
  // user comes from the upgrade's cookies). Needs a sync provider; a runtime error in the
  // provider is no user, as in `check`.
  Result<U, Str> resolve(Map<Str, Str> headers) const {
    if (!sync_) runtime_error(SourcePos{}, "auth: resolve() on an async @auth_provider");
    try {
      return sync_(headers);
    } catch (const Panic&) {
      return Err(Str::lit("the auth provider failed"));
    }
  }

  // Before middleware for routes and WebSocket upgrades that only need the check (the user
  // is not bound): `.before(guard.before(need))` (sync provider) or `before_async`.
  http::SyncBefore before(Requirement need) const {
    Guard self = *this;
    return http::SyncBefore([self, need](http::Request& req) -> Nullable<http::Response> {
      Result<U, http::Response> r = self.check(req, need);
      if (r.is_ok()) return null;
      return r.error();
    });
  }
  http::AsyncBefore before_async(Requirement need) const {
    Guard self = *this;
    return http::AsyncBefore([self, need](http::Request& req) { return run_before(self, need, req); });
  }

 private:
  // A plain coroutine (not a lambda) so the frame owns copies of the guard and requirement.
  static Task<Nullable<http::Response>> run_before(Guard self, Requirement need, http::Request& req) {
    Result<U, http::Response> r = co_await self.check_async(req, need);
    if (r.is_ok()) co_return Nullable<http::Response>(null);
    co_return Nullable<http::Response>(r.error());
  }

  Result<U, http::Response> decide(const Result<U, Str>& r, const Requirement& need) const {
    if (!r.is_ok()) return Err(unauthorized(http::Text(r.error())));
    if (need.admin || !need.roles.empty()) {
      Nullable<Str> role = role_of_ ? role_of_(r.value()) : Nullable<Str>(null);
      Nullable<http::Response> f = forbidden(need, role);
      if (f.has_value()) return Err(f.value());
    }
    return Ok(r.value());
  }

  SyncProvider sync_;
  AsyncProvider async_;
  RoleOf role_of_;
};

// The common provider: the bearer token decoded as JWT claims (revocation and time checks
// per `options`), role from the `role` claim. The key is parsed once; a key that does not
// parse makes every request a 401 with the reason.
Guard<Claims> jwt_guard(Str key, Alg alg, JwtOptions options = JwtOptions());

// ---- The values Fitz programs see (modules.cpp) ------------------------------------------

// `jwt` (encode, decode), `hash` (password, verify) and `auth` (revoke, is_revoked in memory;
// blacklist, is_blacklisted, cleanup_expired in Postgres), called through `any_method`.
// `jwt.decode` rejects ids revoked with `auth.revoke`.
Any jwt_module();
Any hash_module();
Any auth_module();

}  // namespace fitz::auth
