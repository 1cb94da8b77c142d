// Route guards: the `@auth_provider` function, the Guard over it, and the check each guarded
// route or WebSocket endpoint makes, all read from the service model (the checker reported every
// guard it could not serve). See emit_auth.h for how callers use these.
#include "checker/service_build.h"
#include "codegen/cpp_literal.h"
#include "codegen/emit_auth.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace fitz::codegen {

namespace {

std::string cpp_str(const std::string& s) { return "fitz::Str::lit(" + cpp_quoted(s) + ")"; }

// The role `@admin` and `@requires` compare, as the checker found it (AuthProvider::roles).
std::string role_of(const checker::AuthProvider& p) {
  switch (p.roles) {
    case checker::AuthProvider::RoleSource::UserField:
      return "[](const User& u) -> fitz::Nullable<fitz::Str> { return u->fld_role; }";
    case checker::AuthProvider::RoleSource::Claims:
      return "[](const User& u) -> fitz::Nullable<fitz::Str> { return fitz::auth::claims_role(u); }";
    case checker::AuthProvider::RoleSource::None:
      break;
  }
  return "";
}

// The guard of a route, or of a WebSocket endpoint. Endpoints are in the model once the
// WebSocket half fills WsEndpoint::guard; until then their guard comes from the checker's
// shared reading (checker::detail::guard_of) and the user is the parameter of the provider's
// user type.
checker::Guard guard_for(Gen& g, ModuleId module, FnId fn) {
  checker::FnRef ref{module, fn};
  if (const checker::Route* r = g.prog_.service.route_of(ref)) return r->guard;
  for (const checker::WsEndpoint& e : g.prog_.service.ws)
    if (e.handler == ref) return e.guard;
  for (const checker::LiveRoute& l : g.prog_.service.live)
    if (l.fn == ref) return l.guard;
  const Ast& ast = g.graph_.get(module).ast;
  checker::Guard guard = checker::detail::guard_of(ast, ast.get(fn));
  const auto& auth = g.prog_.service.auth;
  const FnInfo& info = g.prog_.modules[module.index].fns[fn.index];
  if (guard.guarded && auth)
    for (size_t i = 0; i < info.params.size(); ++i)
      if (info.params[i].type == auth->user) {
        guard.user_param = int(i);
        break;
      }
  return guard;
}

}  // namespace

void emit_auth_guard(Gen& g) {
  if (g.out_.find("namespace fzauth {") != std::string::npos) return;
  const std::optional<checker::AuthProvider>& p = g.prog_.service.auth;
  if (!p) return;
  g.result_.auth = true;
  const FnInfo& info = g.prog_.modules[p->fn.module.index].fns[p->fn.fn.index];
  std::string call = fmt::format("{}::{}(h)", g.ns(p->fn.module), g.fn_name(info));
  if (p->headers_any) call = fmt::format("{}::{}(fitz::to_any(h))", g.ns(p->fn.module), g.fn_name(info));
  std::string roles = role_of(*p);
  g.line("// The @auth_provider and the guard over it: built on the first guarded request.");
  g.line("namespace fzauth {");
  g.line(fmt::format("using User = {};", g.cpp_type(p->user)));
  g.line("inline const fitz::auth::Guard<User>& guard() {");
  g.line("  static const fitz::auth::Guard<User> g(");
  g.line(fmt::format("      [](fitz::Map<fitz::Str, fitz::Str> h) {{ return {}; }}{}", call, roles.empty() ? ");" : ","));
  if (!roles.empty()) g.line(fmt::format("      fitz::auth::Guard<User>::RoleOf({}));", roles));
  g.line("  return g;");
  g.line("}");
  g.line("}  // namespace fzauth");
  g.line("");
}

AuthRoute auth_route(Gen& g, ModuleId module, FnId fn) {
  AuthRoute a;
  checker::Guard guard = guard_for(g, module, fn);
  a.guarded = guard.guarded;
  if (!a.guarded) return a;
  g.result_.auth = true;
  const std::optional<checker::AuthProvider>& p = g.prog_.service.auth;
  if (!p) return a;  // the checker reported it (GuardWithoutProvider): codegen never gets here
  a.async = p->async;
  if (guard.roles.empty()) {
    a.need = guard.admin ? "fitz::auth::Requirement::admin_role()" : "fitz::auth::Requirement::authenticated()";
  } else {
    std::string list;
    for (const std::string& r : guard.roles) list += (list.empty() ? "" : ", ") + cpp_str(r);
    a.need = fmt::format("fitz::auth::Requirement::any_role({{{}}})", list);
    if (guard.admin)
      a.need = fmt::format("[] {{ fitz::auth::Requirement r = {}; r.admin = true; return r; }}()", a.need);
  }
  const FnInfo& info = g.prog_.modules[module.index].fns[fn.index];
  a.coroutine = a.async || info.is_async;
  a.user_param = guard.user_param;
  const auto& server = g.prog_.service.server;
  const checker::Route* route = g.prog_.service.route_of(checker::FnRef{module, fn});
  if (server && route && route->may_answer_html) a.login_path = server->login_path;
  // A live page always answers HTML (§1.7: `@authenticated` redirects to the login path).
  for (const checker::LiveRoute& l : g.prog_.service.live)
    if (server && l.fn == checker::FnRef{module, fn}) a.login_path = server->login_path;
  return a;
}

std::string auth_before(const AuthRoute& a) {
  return fmt::format("fzauth::guard().{}({})", a.async ? "before_async" : "before", a.need);
}

void emit_auth_check(Gen& g, const AuthRoute& a) {
  if (!a.guarded || a.need.empty()) return;
  // Checked before the body is bound: an unauthenticated request never reaches the decoder.
  std::string denied = a.login_path.empty()
                           ? std::string("fz_user.error()")
                           : fmt::format("fitz::http::login_redirect(req, fz_user.error(), {})", cpp_str(a.login_path));
  if (a.async) {
    g.line(fmt::format("fitz::auth::Requirement fz_need = {};", a.need));
    g.line("auto fz_user = co_await fzauth::guard().check_async(req, fz_need);");
    g.line(fmt::format("if (!fz_user.is_ok()) co_return {};", denied));
  } else {
    g.line(fmt::format("auto fz_user = fzauth::guard().check(req, {});", a.need));
    g.line(fmt::format("if (!fz_user.is_ok()) {}{};", a.coroutine ? "co_return " : "return ", denied));
  }
}

}  // namespace fitz::codegen
