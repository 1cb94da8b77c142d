// Bearer tokens, the provider's header map and the 401 / 403 responses of the route guards.
#include <string>

#include "fitz/auth.h"
#include "fitz/log.h"

namespace fitz::auth {

namespace {

using http::Text;

bool is_space(char c) { return c == ' ' || c == '\t'; }

Result<Str, Str> bearer_of(Text value) {
  const char* p = value.data;
  const char* end = p + value.size;
  while (p < end && is_space(*p)) ++p;
  if (end - p < 7 || !Text(p, 6).iequals(Text("bearer")) || !is_space(p[6]))
    return Err("authorization header is not a bearer token"_s);
  p += 7;
  while (p < end && is_space(*p)) ++p;
  while (end > p && is_space(end[-1])) --end;
  if (p == end) return Err("empty bearer token"_s);
  for (const char* q = p; q < end; ++q)
    if (is_space(*q)) return Err("authorization header is not a bearer token"_s);
  return Ok(Str(p, size_t(end - p)));
}

}  // namespace

Result<Str, Str> bearer_token(const Map<Str, Str>& headers) {
  const Str* v = headers.find("authorization"_s);
  if (!v) return Err("missing bearer token"_s);
  return bearer_of(Text(*v));
}

Result<Str, Str> bearer_token(const http::Request& req) {
  Text v;
  if (req.header_text(Text("authorization"), &v)) return bearer_of(v);
  Text protocols;
  if (req.header_text(Text("sec-websocket-protocol"), &protocols)) {
    Str t = bearer_subprotocol(protocols);
    if (!t.empty()) return Ok(t);
  }
  return Err("missing bearer token"_s);
}

Str bearer_subprotocol(Text protocols) {
  // A comma-separated list of tokens; base64url JWTs fit the token grammar.
  const char* p = protocols.data;
  const char* end = p + protocols.size;
  while (p < end) {
    while (p < end && (is_space(*p) || *p == ',')) ++p;
    const char* start = p;
    while (p < end && *p != ',') ++p;
    const char* stop = p;
    while (stop > start && is_space(stop[-1])) --stop;
    if (stop - start > 7 && Text(start, 7) == Text("bearer.")) return Str(start + 7, size_t(stop - start - 7));
  }
  return Str();
}

Map<Str, Str> provider_headers(const http::Request& req) {
  Map<Str, Str> m = req.header_map();
  if (!m.has("authorization"_s)) {
    const Str* protocols = m.find("sec-websocket-protocol"_s);
    if (protocols) {
      Str t = bearer_subprotocol(Text(*protocols));
      if (!t.empty()) {
        Buf b;
        b.lit("Bearer ");
        b.append(t.data(), t.size());
        m.set("authorization"_s, b.take());
      }
    }
  }
  return m;
}

http::Response unauthorized(Text msg) {
  http::Response r = http::Response::error(401, msg);
  r.set_header("WWW-Authenticate"_s, "Bearer"_s);
  return r;
}

http::Response provider_failed(const Panic& p) {
  Buf where;
  if (p.pos.file) {
    std::string at = std::string(p.pos.file) + ":" + std::to_string(p.pos.line);
    where.append(at.data(), at.size());
  }
  log_write(LogLevel::Warn, {Any("auth provider failed; answering 401"_s)},
            {{"error", Any(p.message)}, {"at", Any(where.take())}});
  return unauthorized(Text("invalid credentials"));
}

Nullable<http::Response> forbidden(const Requirement& need, const Nullable<Str>& role) {
  bool has = role.has_value();
  if (need.admin && !(has && Text(role.value()) == Text("admin")))
    return http::Response::error(403, Text("access forbidden — admin role required"));
  if (need.roles.empty()) return null;
  if (has)
    for (const Str& r : need.roles)
      if (Text(r) == Text(role.value())) return null;
  std::string m = need.roles.size() == 1 ? "access forbidden — role required: " : "access forbidden — one of these roles required: ";
  for (size_t i = 0; i < need.roles.size(); ++i) {
    if (i) m += ", ";
    m.append(need.roles[i].data(), need.roles[i].size());
  }
  return http::Response::error(403, Text(m.data(), m.size()));
}

Nullable<Str> claims_role(const Claims& c) {
  const Any* r = c.find("role"_s);
  if (r && r->is_str()) return r->str_value();
  return null;
}

Guard<Claims> jwt_guard(Str key, Alg alg, JwtOptions options) {
  Result<JwtKey, Str> parsed = JwtKey::parse(key, alg);
  return Guard<Claims>(
      [parsed, options](Map<Str, Str> headers) -> Result<Claims, Str> {
        if (!parsed.is_ok()) return Err(parsed.error());
        Result<Str, Str> tok = bearer_token(headers);
        if (!tok.is_ok()) return Err(tok.error());
        return jwt_decode(tok.value(), parsed.value(), options);
      },
      Guard<Claims>::RoleOf([](const Claims& c) { return claims_role(c); }));
}

}  // namespace fitz::auth
