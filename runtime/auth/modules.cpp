// The `jwt`, `hash` and `auth` values of Fitz programs. The checker types their methods from
// its table (JwtModule, HashModule, AuthModule); generated code calls them through
// `fitz::any_method` like the other service modules, and each box checks its arguments and
// forwards to the typed API of auth.h, returning exactly the table's result types.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitz/any_boxes.h"
#include "fitz/auth.h"

namespace fitz::auth {

namespace {

using detail::AnyObj;
using detail::ObjKind;

Str arg_str(const Any& a, const char* what, SourcePos pos) {
  if (!a.is_str()) runtime_error(pos, concat({Str::from(std::string_view(what)), " must be a Str, found "_s, a.type_name()}));
  return a.str_value();
}

int64_t arg_int(const Any& a, const char* what, SourcePos pos) {
  if (a.is_int()) return a.int_value();
  if (a.is_float()) return int64_t(a.float_value());
  runtime_error(pos, concat({Str::from(std::string_view(what)), " must be an Int, found "_s, a.type_name()}));
}

// Claims are any map with Str keys (`{"sub": "42", "exp": 1900000000}` is a Map<Str, Any>, but a
// Map<Str, Str> works too); values keep their types.
Claims arg_claims(const Any& a, SourcePos pos) {
  if (!a.is_kind(ObjKind::Map)) runtime_error(pos, concat({"jwt.encode: the claims must be a Map<Str, Any>, found "_s, a.type_name()}));
  Claims c;
  AnyObj* m = a.obj();
  for (int64_t i = 0, n = m->len(); i < n; ++i) {
    Any k = m->key_at(i);
    if (!k.is_str()) runtime_error(pos, concat({"jwt.encode: claim names must be Str, found "_s, k.type_name()}));
    c.set(k.str_value(), m->value_at(i));
  }
  return c;
}

Alg arg_alg(const Any* args, size_t n, size_t at, const char* fn, SourcePos pos) {
  if (n <= at || args[at].is_null()) return Alg::HS256;
  Str name = arg_str(args[at], "the algorithm", pos);
  Alg alg;
  if (!parse_alg(name, &alg))
    runtime_error(pos, concat({Str::from(std::string_view(fn)), ": unsupported algorithm '"_s, name,
                               "' (HS256, HS384, HS512, RS256 or ES256)"_s}));
  return alg;
}

// The process's revoked token ids (`auth.revoke`), consulted by every `jwt.decode`.
RevocationSet& revocations() {
  static RevocationSet set;
  return set;
}

// Parsing a PEM key costs far more than checking a signature, and a program verifies with the
// same few keys all its life: each thread keeps the last keys it parsed.
Result<JwtKey, Str> cached_key(const Str& key, Alg alg) {
  struct Entry {
    std::string key;
    Alg alg;
    JwtKey parsed;
  };
  thread_local std::vector<Entry> cache;
  for (const Entry& e : cache)
    if (e.alg == alg && e.key.size() == key.size() && std::string_view(e.key) == key.as<std::string_view>())
      return Ok(e.parsed);
  Result<JwtKey, Str> k = JwtKey::parse(key, alg);
  if (!k.is_ok()) return k;
  if (cache.size() >= 8) cache.erase(cache.begin());
  cache.push_back(Entry{key.as<std::string>(), alg, k.value()});
  return k;
}

class JwtBox final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<JwtBox>(); }
  void type_name(Buf& b) const override { b.lit("jwt"); }
  void show(Buf& b, bool) const override { b.lit("<jwt>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    if (m == "encode" && (n == 2 || n == 3)) {
      Claims claims = arg_claims(args[0], pos);
      Str key = arg_str(args[1], "jwt.encode: the key", pos);
      Alg alg = arg_alg(args, n, 2, "jwt.encode", pos);
      Result<Str, Str> t = jwt_encode(claims, key, alg);
      // Encoding fails only on a key that cannot sign (a program error, like a bad index).
      if (!t.is_ok()) runtime_error(pos, concat({"jwt.encode: "_s, t.error()}));
      *out = Any(t.value());
      return true;
    }
    if (m == "decode" && (n == 2 || n == 3)) {
      Str token = arg_str(args[0], "jwt.decode: the token", pos);
      Str key = arg_str(args[1], "jwt.decode: the key", pos);
      Alg alg = arg_alg(args, n, 2, "jwt.decode", pos);
      JwtOptions opts;
      opts.revoked = &revocations();
      Result<JwtKey, Str> k = cached_key(key, alg);
      Result<Claims, Str> c = k.is_ok() ? jwt_decode(token, k.value(), opts) : Result<Claims, Str>(Err(k.error()));
      *out = to_any(c);
      return true;
    }
    return false;
  }
};

class HashBox final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<HashBox>(); }
  void type_name(Buf& b) const override { b.lit("hash"); }
  void show(Buf& b, bool) const override { b.lit("<hash>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    if (m == "password" && n == 1) {
      *out = Any(hash_password(arg_str(args[0], "hash.password: the password", pos)));
      return true;
    }
    if (m == "verify" && n == 2) {
      *out = Any(verify_password(arg_str(args[0], "hash.verify: the password", pos),
                                 arg_str(args[1], "hash.verify: the hash", pos)));
      return true;
    }
    return false;
  }
};

// ---- revocation in Postgres (auth.blacklist & co) -----------------------------------------

// The statements are constants; token ids and times are always `$n` parameters.
constexpr const char* kCreateTable =
    "CREATE TABLE IF NOT EXISTS fitz_token_blacklist (jti TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)";
constexpr const char* kInsert =
    "INSERT INTO fitz_token_blacklist (jti, expires_at) VALUES ($1, $2) "
    "ON CONFLICT (jti) DO UPDATE SET expires_at = GREATEST(fitz_token_blacklist.expires_at, EXCLUDED.expires_at)";
constexpr const char* kSelect = "SELECT 1 FROM fitz_token_blacklist WHERE jti = $1 AND expires_at > $2";
constexpr const char* kCleanup = "DELETE FROM fitz_token_blacklist WHERE expires_at <= $1";

// One statement on the caller's connection (a DbConn): its Result as Any. Not a coroutine:
// GCC 12 cannot keep an initializer list in a coroutine frame.
Task<Any> run(Any conn, const char* method, const char* sql, std::vector<Any> params, SourcePos pos) {
  List<Any> ps;
  for (Any& p : params) ps.push(std::move(p));
  Any task = any_method(conn, method, {Any(Str::from(std::string_view(sql))), to_any(ps)}, pos);
  return any_await(task, pos);
}

template <class... A> std::vector<Any> params(A... a) {
  std::vector<Any> v;
  (v.push_back(std::move(a)), ...);
  return v;
}

bool failed(const Any& r) { return r.is_kind(ObjKind::Result) && !r.obj()->is_ok(); }
Str error_of(const Any& r) {
  Any e = r.obj()->inner();
  return e.is_str() ? e.str_value() : Str::lit("database error");
}
Any value_of(const Any& r) { return r.is_kind(ObjKind::Result) ? r.obj()->inner() : r; }

// The types match the checker's table (Future<Result<Null>>, ...), so generated code reads
// the results back without conversion.
Task<Result<Null, Str>> blacklist_task(Any conn, Str jti, int64_t exp, SourcePos pos) {
  Any r = co_await run(conn, "exec", kCreateTable, params(), pos);
  if (failed(r)) co_return Err(error_of(r));
  r = co_await run(conn, "exec", kInsert, params(Any(jti), Any(exp)), pos);
  if (failed(r)) co_return Err(error_of(r));
  co_return Ok();
}

Task<Result<bool, Str>> is_blacklisted_task(Any conn, Str jti, SourcePos pos) {
  Any r = co_await run(conn, "exec", kCreateTable, params(), pos);
  if (failed(r)) co_return Err(error_of(r));
  r = co_await run(conn, "query", kSelect, params(Any(jti), Any(unix_now())), pos);
  if (failed(r)) co_return Err(error_of(r));
  co_return Ok(any_len(value_of(r), pos) > 0);
}

Task<Result<int64_t, Str>> cleanup_task(Any conn, SourcePos pos) {
  Any r = co_await run(conn, "exec", kCreateTable, params(), pos);
  if (failed(r)) co_return Err(error_of(r));
  r = co_await run(conn, "exec", kCleanup, params(Any(unix_now())), pos);
  if (failed(r)) co_return Err(error_of(r));
  Any n = value_of(r);
  co_return Ok(n.is_int() ? n.int_value() : int64_t(0));
}

class AuthBox final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<AuthBox>(); }
  void type_name(Buf& b) const override { b.lit("auth"); }
  void show(Buf& b, bool) const override { b.lit("<auth>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    // In memory, per process: `jwt.decode` rejects the token until its expiry.
    if (m == "revoke" && n == 2) {
      revocations().revoke(arg_str(args[0], "auth.revoke: the token id (jti)", pos),
                           arg_int(args[1], "auth.revoke: the expiry (exp)", pos));
      *out = Any();
      return true;
    }
    if (m == "is_revoked" && n == 1) {
      *out = Any(revocations().is_revoked(arg_str(args[0], "auth.is_revoked: the token id (jti)", pos)));
      return true;
    }
    // In Postgres, shared by every replica: Futures of Results, on the caller's connection.
    if (m == "blacklist" && n == 3) {
      *out = to_any(blacklist_task(args[0], arg_str(args[1], "auth.blacklist: the token id (jti)", pos),
                                   arg_int(args[2], "auth.blacklist: the expiry (exp)", pos), pos));
      return true;
    }
    if (m == "is_blacklisted" && n == 2) {
      *out = to_any(is_blacklisted_task(args[0], arg_str(args[1], "auth.is_blacklisted: the token id (jti)", pos), pos));
      return true;
    }
    if (m == "cleanup_expired" && n == 1) {
      *out = to_any(cleanup_task(args[0], pos));
      return true;
    }
    return false;
  }
};

}  // namespace

Any jwt_module() {
  thread_local Any module(new JwtBox());
  return module;
}

Any hash_module() {
  thread_local Any module(new HashBox());
  return module;
}

Any auth_module() {
  thread_local Any module(new AuthBox());
  return module;
}

}  // namespace fitz::auth
