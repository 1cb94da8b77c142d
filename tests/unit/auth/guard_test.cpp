// Guards through the HTTP pipeline (App::handle): bearer extraction, @auth_provider errors as
// 401, @admin / @requires as 403, guards as before-middleware (sync and async providers),
// revocation, and the `bearer.<token>` WebSocket subprotocol. Every bad token is a 401.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "fitz/auth.h"
#include "test_keys.h"

namespace fitz::auth {
namespace {

using http::App;
using http::Header;
using http::Method;
using http::Request;
using http::Response;
using http::Text;

const Str kKey = "guard-test-secret"_s;
std::string s(const Str& x) { return std::string(x.data(), x.size()); }
Text T(const std::string& x) { return Text(x.data(), x.size()); }

std::string token(const char* role, int64_t exp_in = 3600, const char* jti = "j1") {
  Claims c;
  c.set("sub"_s, Any("u1"_s));
  c.set("role"_s, Any(Str(role)));
  c.set("exp"_s, Any(unix_now() + exp_in));
  c.set("jti"_s, Any(Str(jti)));
  return s(jwt_encode(c, kKey).value());
}

Response call(App& app, const char* target, std::vector<Header> headers = {}) {
  Request r;
  r.method = Method::Get;
  r.target = Text(target, std::strlen(target));
  r.headers = std::move(headers);
  return app.handle(r);
}

std::string hdr(const Response& r, const char* name) {
  auto v = r.header(Text(name, std::strlen(name)));
  return v.has_value() ? s(v.value()) : "<none>";
}

// A service as generated code would build it: the guard checked at the top of each handler.
struct Service {
  App app;
  RevocationSet revoked;
  Guard<Claims> guard;
  int handler_runs = 0;

  Service() : guard(jwt_guard(kKey, Alg::HS256, options())) {
    app.config().access_log = false;
    auto handler = [this](Requirement need) {
      return [this, need](Request& req) -> Response {
        Result<Claims, Response> u = guard.check(req, need);
        if (!u.is_ok()) return u.error();
        ++handler_runs;
        return Response::json_value(200, u.value().at("sub"_s));
      };
    };
    app.get("/me", handler(Requirement::authenticated()));
    app.get("/admin", handler(Requirement::admin_role()));
    app.get("/edit", handler(Requirement::any_role({"editor"_s, "owner"_s})));
    app.get("/guarded", [this](Request&) {
         ++handler_runs;
         return Response::json(200, "true"_s);
       })
        .before(guard.before(Requirement::admin_role()));
  }
  JwtOptions options() {
    JwtOptions o;
    o.revoked = &revoked;
    return o;
  }
};

std::vector<Header> bearer(const std::string& tok, std::string& storage) {
  storage = "Bearer " + tok;
  return {Header{Text("Authorization"), T(storage)}};
}

TEST(Bearer, HeaderForms) {
  auto tok = [](const char* v) {
    Map<Str, Str> h;
    if (v) h.set("authorization"_s, Str(v));
    Result<Str, Str> r = bearer_token(h);
    return r.is_ok() ? "ok:" + s(r.value()) : "err:" + s(r.error());
  };
  EXPECT_EQ(tok("Bearer abc.def.ghi"), "ok:abc.def.ghi");
  EXPECT_EQ(tok("bearer   abc "), "ok:abc");
  EXPECT_EQ(tok("BEARER\tabc"), "ok:abc");
  EXPECT_EQ(tok(nullptr), "err:missing bearer token");
  EXPECT_EQ(tok("Basic dXNlcjpwdw=="), "err:authorization header is not a bearer token");
  EXPECT_EQ(tok("Bearer"), "err:authorization header is not a bearer token");
  EXPECT_EQ(tok("Bearer    "), "err:empty bearer token");
  EXPECT_EQ(tok("Bearer a b"), "err:authorization header is not a bearer token");
  EXPECT_EQ(tok("Bearerabc"), "err:authorization header is not a bearer token");
}

TEST(Bearer, WebSocketSubprotocol) {
  EXPECT_EQ(s(bearer_subprotocol(Text("chat, bearer.abc.def.ghi"))), "abc.def.ghi");
  EXPECT_EQ(s(bearer_subprotocol(Text("bearer.x"))), "x");
  EXPECT_EQ(s(bearer_subprotocol(Text("chat"))), "");
  EXPECT_EQ(s(bearer_subprotocol(Text("bearer."))), "");
  Request r;
  r.headers = {Header{Text("Sec-WebSocket-Protocol"), Text("chat, bearer.tok1")}};
  EXPECT_EQ(s(provider_headers(r).at("authorization"_s)), "Bearer tok1");
  EXPECT_EQ(s(bearer_token(r).value()), "tok1");
  // A real Authorization header wins over the subprotocol.
  r.headers.push_back(Header{Text("Authorization"), Text("Bearer tok2")});
  EXPECT_EQ(s(provider_headers(r).at("authorization"_s)), "Bearer tok2");
  EXPECT_EQ(s(bearer_token(r).value()), "tok2");
}

TEST(Guards, AuthenticatedRoute) {
  Service svc;
  Response none = call(svc.app, "/me");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(s(none.body), R"({"error":"missing bearer token"})");
  EXPECT_EQ(hdr(none, "WWW-Authenticate"), "Bearer");
  std::string st;
  Response ok = call(svc.app, "/me", bearer(token("user"), st));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(s(ok.body), R"("u1")");
  EXPECT_EQ(svc.handler_runs, 1);
}

TEST(Guards, EveryBadTokenIsA401) {
  Service svc;
  std::string good = token("admin");
  size_t d1 = good.find('.'), d2 = good.rfind('.');
  auto b64 = [](const std::string& x) { return s(base64url_encode(x.data(), x.size())); };
  std::string rsa_like = s(jwt_encode(Claims(), "-----BEGIN PUBLIC KEY-----"_s, Alg::HS256).value());
  struct Case {
    std::string token;
    const char* error;
  } cases[] = {
      {b64(R"({"alg":"none"})") + "." + b64(R"({"sub":"u1","role":"admin"})") + ".", "algorithm 'none' is not accepted"},
      {good.substr(0, d1 + 1) + b64(R"({"sub":"u9","role":"admin"})") + good.substr(d2), "invalid signature"},
      {good.substr(0, good.size() - 2) + (good[good.size() - 2] == 'A' ? "B" : "A") + good.back(), "invalid signature"},
      {token("admin", -3600), "token expired"},
      {good.substr(0, d1) + ".***" + good.substr(d2), "malformed token: payload is not base64url"},
      {b64(R"({"alg":"HS256")") + good.substr(d1), nullptr},
      {std::string(20000, 'x'), "token too large (20000 bytes, limit 8192)"},
      {"abc", "malformed token: expected three dot-separated parts"},
      {rsa_like, "invalid signature"},
  };
  for (const Case& c : cases) {
    std::string st;
    Response r = call(svc.app, "/admin", bearer(c.token, st));
    EXPECT_EQ(r.status, 401) << c.token.substr(0, 80);
    if (c.error) {
      EXPECT_EQ(s(r.body), std::string(R"({"error":")") + c.error + "\"}");
    }
  }
  EXPECT_EQ(svc.handler_runs, 0);
}

TEST(Guards, Rs256RouteRefusesAnHs256Token) {
  // Algorithm confusion end to end: the attacker signs HS256 with the server's public key.
  const std::string& pub = test_support::rsa_keys().public_pem;
  App app;
  app.config().access_log = false;
  Guard<Claims> g = jwt_guard(Str(pub.data(), pub.size()), Alg::RS256);
  app.get("/me", [&g](Request& req) -> Response {
    Result<Claims, Response> u = g.check(req, Requirement::authenticated());
    if (!u.is_ok()) return u.error();
    return Response::json_value(200, u.value().at("sub"_s));
  });
  Guard<Claims> broken = jwt_guard("not a key"_s, Alg::ES256);
  app.get("/broken", [&broken](Request& req) -> Response {
    Result<Claims, Response> u = broken.check(req, Requirement::authenticated());
    return u.is_ok() ? Response::empty(204) : u.error();
  });
  Claims c;
  c.set("sub"_s, Any("mallory"_s));
  std::string forged = s(jwt_encode(c, Str(pub.data(), pub.size()), Alg::HS256).value()), st;
  Response r = call(app, "/me", bearer(forged, st));
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(s(r.body), R"x({"error":"unexpected algorithm 'HS256' (expected RS256)"})x");
  const std::string& priv = test_support::rsa_keys().private_pem;
  c.set("sub"_s, Any("alice"_s));
  std::string real = s(jwt_encode(c, Str(priv.data(), priv.size()), Alg::RS256).value());
  Response ok = call(app, "/me", bearer(real, st));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(s(ok.body), R"("alice")");
  // A guard built with a key that does not parse answers 401 with the reason.
  EXPECT_EQ(s(call(app, "/broken", bearer(real, st)).body),
            R"x({"error":"invalid public key for ES256 (expected a PEM EC P-256 public key)"})x");
}

TEST(Guards, AdminAndRequires) {
  Service svc;
  std::string st;
  Response u = call(svc.app, "/admin", bearer(token("user"), st));
  EXPECT_EQ(u.status, 403);
  EXPECT_EQ(s(u.body), R"({"error":"access forbidden — admin role required"})");
  EXPECT_EQ(call(svc.app, "/admin", bearer(token("admin"), st)).status, 200);
  Response e = call(svc.app, "/edit", bearer(token("user"), st));
  EXPECT_EQ(e.status, 403);
  EXPECT_EQ(s(e.body), R"({"error":"access forbidden — one of these roles required: editor, owner"})");
  EXPECT_EQ(call(svc.app, "/edit", bearer(token("owner"), st)).status, 200);
  EXPECT_EQ(call(svc.app, "/edit", bearer(token("editor"), st)).status, 200);
  // No role at all: 403, not 500.
  Claims c;
  c.set("sub"_s, Any("u1"_s));
  EXPECT_EQ(call(svc.app, "/admin", bearer(s(jwt_encode(c, kKey).value()), st)).status, 403);
  EXPECT_EQ(s(forbidden(Requirement::any_role({"a"_s}), "b"_s).value().body),
            R"({"error":"access forbidden — role required: a"})");
}

TEST(Guards, BeforeMiddlewareStopsTheRoute) {
  Service svc;
  std::string st;
  EXPECT_EQ(call(svc.app, "/guarded").status, 401);
  EXPECT_EQ(call(svc.app, "/guarded", bearer(token("user"), st)).status, 403);
  EXPECT_EQ(svc.handler_runs, 0);
  EXPECT_EQ(call(svc.app, "/guarded", bearer(token("admin"), st)).status, 200);
  EXPECT_EQ(svc.handler_runs, 1);
}

TEST(Guards, RevokedTokenIsA401) {
  Service svc;
  std::string tok = token("user", 3600, "revoke-me"), st;
  EXPECT_EQ(call(svc.app, "/me", bearer(tok, st)).status, 200);
  svc.revoked.revoke("revoke-me"_s, unix_now() + 3600);
  Response r = call(svc.app, "/me", bearer(tok, st));
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(s(r.body), R"({"error":"token revoked"})");
  // Other tokens of the same user are unaffected.
  EXPECT_EQ(call(svc.app, "/me", bearer(token("user", 3600, "other"), st)).status, 200);
}

// A user type of a program: the provider is async and returns a struct, the role is a field.
struct User {
  Str name;
  Str role;
};

Task<Result<User, Str>> user_provider(Map<Str, Str> headers) {
  co_await fitz::sleep(1);  // e.g. a database lookup
  Result<Str, Str> t = bearer_token(headers);
  if (!t.is_ok()) co_return Result<User, Str>(Err(t.error()));
  if (Text(t.value()) == Text("let-me-in")) co_return Result<User, Str>(Ok(User{"ann"_s, "admin"_s}));
  co_return Result<User, Str>(Err("unknown token"_s));
}

// What generated code emits for an async handler with a user parameter.
Task<Response> who(const Guard<User>* guard, Request& req) {
  // (An initializer list inside a co_await expression trips GCC 12; build it first.)
  Requirement need = Requirement::any_role({"admin"_s});
  Result<User, Response> u = co_await guard->check_async(req, need);
  if (!u.is_ok()) co_return u.error();
  co_return Response::json_value(200, u.value().name);
}

TEST(Guards, AsyncProviderWithUserType) {
  App app;
  app.config().access_log = false;
  Guard<User> guard(user_provider, Guard<User>::RoleOf([](const User& u) -> Nullable<Str> { return u.role; }));
  EXPECT_TRUE(guard.is_async());
  app.get("/who", [&guard](Request& req) { return who(&guard, req); });
  int runs = 0;
  app.get("/mw", [&runs](Request&) {
       ++runs;
       return Response::empty(204);
     })
      .before(guard.before_async(Requirement::authenticated()));
  std::vector<Header> good{Header{Text("Authorization"), Text("Bearer let-me-in")}};
  std::vector<Header> bad{Header{Text("Authorization"), Text("Bearer nope")}};
  Response ok = call(app, "/who", good);
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(s(ok.body), R"("ann")");
  Response no = call(app, "/who", bad);
  EXPECT_EQ(no.status, 401);
  EXPECT_EQ(s(no.body), R"({"error":"unknown token"})");
  EXPECT_EQ(call(app, "/mw", bad).status, 401);
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(call(app, "/mw", good).status, 204);
  EXPECT_EQ(runs, 1);
}

// A provider that fails at run time, as `claims["sub"]` does on a signed token without `sub`:
// the request is refused with a 401 (sync and async, route and before-middleware), not a 500.
Result<Claims, Str> indexing_provider(Map<Str, Str> headers) {
  Map<Str, Any> claims;
  (void)headers;
  (void)claims.at("sub"_s);  // raises "key not found"
  return Ok(claims);
}
Task<Result<Claims, Str>> async_indexing_provider(Map<Str, Str> headers) {
  co_await fitz::sleep(1);
  co_return indexing_provider(headers);
}

TEST(Guards, ProviderRuntimeErrorIsA401) {
  App app;
  app.config().access_log = false;
  Guard<Claims> sync_guard(indexing_provider);
  Guard<Claims> async_guard(async_indexing_provider);
  app.get("/sync", [&sync_guard](Request& req) -> Response {
    Result<Claims, Response> u = sync_guard.check(req, Requirement::authenticated());
    if (!u.is_ok()) return u.error();
    return Response::empty(204);
  });
  int runs = 0;
  app.get("/before", [&runs](Request&) {
       ++runs;
       return Response::empty(204);
     })
      .before(async_guard.before_async(Requirement::authenticated()));
  std::vector<Header> h{Header{Text("Authorization"), Text("Bearer anything")}};
  for (const char* path : {"/sync", "/before"}) {
    Response r = call(app, path, h);
    EXPECT_EQ(r.status, 401) << path;
    EXPECT_EQ(s(r.body), R"({"error":"invalid credentials"})") << path;
    EXPECT_EQ(hdr(r, "WWW-Authenticate"), "Bearer") << path;
  }
  EXPECT_EQ(runs, 0);
}

}  // namespace
}  // namespace fitz::auth
