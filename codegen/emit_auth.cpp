// Route guards: the `@auth_provider` function, the Guard over it, and the check each guarded
// route or WebSocket endpoint makes. See emit_auth.h for how callers use these.
#include "checker/decorators.h"
#include "codegen/cpp_literal.h"
#include "codegen/emit_auth.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace fitz::codegen {

namespace {

struct Provider {
  ModuleId module;
  FnId fn;
  const FnInfo* info = nullptr;
  TypeId user;          // the Ok type of its Result
  bool async = false;
  std::string problem;  // non-empty: the provider's shape cannot be compiled
  Span at;
};

std::optional<Provider> find_provider(Gen& g) {
  std::optional<Provider> found;
  for (ModuleId m : g.graph_.init_order) {
    const Ast& ast = g.graph_.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f || !checker::has_decorator(ast.get(f->fn).decorators, checker::DecoratorKind::AuthProvider)) continue;
      const FnInfo& info = g.prog_.modules[m.index].fns[f->fn.index];
      Provider p{m, f->fn, &info, TypeId(), info.is_async, "", ast.get(f->fn).span};
      for (const Decorator& d : ast.get(f->fn).decorators)
        if (checker::is_decorator(d, checker::DecoratorKind::AuthProvider)) p.at = d.span;
      auto& types = g.types_;
      TypeId ret = info.return_type;
      bool headers_ok = info.params.size() == 1 &&
                        (types.kind(info.params[0].type) == TypeKind::Any ||
                         (types.kind(info.params[0].type) == TypeKind::Map && types.key(info.params[0].type) == types.str() &&
                          types.value(info.params[0].type) == types.str()));
      if (!headers_ok)
        p.problem = "an `@auth_provider` takes one parameter, the request headers (`headers: Map<Str, Str>`)";
      else if (!ret.valid() || types.kind(ret) != TypeKind::Result || types.err(ret) != types.str())
        p.problem = "an `@auth_provider` returns `Result<User>` (the user, or an Err message for the 401)";
      else
        p.user = types.ok(ret);
      if (found) {
        // The spec allows one; guards would otherwise depend on module order.
        found->problem = "only one `@auth_provider` is allowed in a program";
        found->at = p.at;
        return found;
      }
      found = p;
    }
  }
  return found;
}

void refuse(Gen& g, Span at, const std::string& why) {
  const SourceFile& file = g.sources_.file(at.file);
  LineCol lc = file.line_col(at.begin);
  std::string msg = fmt::format("{}:{}:{}: error: {}", file.path(), lc.line, lc.col, why);
  if (std::find(g.result_.not_compiled.begin(), g.result_.not_compiled.end(), msg) == g.result_.not_compiled.end())
    g.result_.not_compiled.push_back(std::move(msg));
}

std::string str_literal_text(const Ast& ast, ExprId e, bool* ok) {
  auto* s = std::get_if<StrLit>(&ast.get(e).data);
  std::string v;
  *ok = s != nullptr;
  if (!s) return v;
  for (const StrPart& p : s->parts) {
    if (p.is_hole()) *ok = false;
    v += p.text;
  }
  return v;
}

std::string cpp_str(const std::string& s) { return "fitz::Str::lit(" + cpp_quoted(s) + ")"; }

// The role `@admin` and `@requires` compare: a `role` field of the user type (Str or Str?), or
// the `role` claim when the provider returns the claims map. Other user types have no role.
std::string role_of(Gen& g, TypeId user) {
  auto& types = g.types_;
  if (g.is_user_struct(user)) {
    for (const auto& f : types.struct_info(types.struct_of(user)).fields) {
      if (f.name != "role") continue;
      if (f.type == types.str() || (types.kind(f.type) == TypeKind::Nullable && types.non_null(f.type) == types.str()))
        return "[](const User& u) -> fitz::Nullable<fitz::Str> { return u->fld_role; }";
    }
    return "";
  }
  if (types.kind(user) == TypeKind::Map && types.key(user) == types.str() && types.kind(types.value(user)) == TypeKind::Any)
    return "[](const User& u) -> fitz::Nullable<fitz::Str> { return fitz::auth::claims_role(u); }";
  return "";
}

}  // namespace

void emit_auth_guard(Gen& g) {
  if (g.out_.find("namespace fzauth {") != std::string::npos) return;
  std::optional<Provider> p = find_provider(g);
  if (!p || !p->problem.empty()) return;  // auth_route reports it on the guarded functions
  g.result_.auth = true;
  const FnInfo& info = *p->info;
  std::string call = fmt::format("{}::{}(h)", g.ns(p->module), g.fn_name(info));
  if (g.types_.kind(info.params[0].type) == TypeKind::Any)
    call = fmt::format("{}::{}(fitz::to_any(h))", g.ns(p->module), g.fn_name(info));
  std::string roles = role_of(g, p->user);
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
  const Ast& ast = g.graph_.get(module).ast;
  const FnDecl& decl = ast.get(fn);
  bool admin = false;
  std::vector<std::string> roles;
  Span at = decl.span;
  for (const Decorator& d : decl.decorators) {
    if (checker::is_decorator(d, checker::DecoratorKind::Authenticated)) {
      a.guarded = true;
    } else if (checker::is_decorator(d, checker::DecoratorKind::Admin)) {
      a.guarded = admin = true;
    } else if (checker::is_decorator(d, checker::DecoratorKind::Requires)) {
      a.guarded = true;
      for (const DecoratorArg& arg : d.args) {
        bool ok = false;
        std::string role = str_literal_text(ast, arg.value, &ok);
        if (ok) roles.push_back(role);
      }
    } else {
      continue;
    }
    at = d.span;
  }
  if (!a.guarded) return a;
  g.result_.auth = true;
  std::optional<Provider> p = find_provider(g);
  if (!p) {
    refuse(g, at, "a guarded route needs an `@auth_provider` function in the program (it turns the request headers "
                  "into the user, or an Err for the 401)");
    return a;
  }
  if (!p->problem.empty()) {
    refuse(g, p->at, p->problem);
    return a;
  }
  a.async = p->async;
  if (roles.empty()) {
    a.need = admin ? "fitz::auth::Requirement::admin_role()" : "fitz::auth::Requirement::authenticated()";
  } else {
    std::string list;
    for (const std::string& r : roles) list += (list.empty() ? "" : ", ") + cpp_str(r);
    a.need = fmt::format("fitz::auth::Requirement::any_role({{{}}})", list);
    if (admin)
      a.need = fmt::format("[] {{ fitz::auth::Requirement r = {}; r.admin = true; return r; }}()", a.need);
  }
  const FnInfo& info = g.prog_.modules[module.index].fns[fn.index];
  a.coroutine = a.async || info.is_async;
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].type == p->user) {
      a.user_param = int(i);
      break;
    }
  return a;
}

std::string auth_before(const AuthRoute& a) {
  return fmt::format("fzauth::guard().{}({})", a.async ? "before_async" : "before", a.need);
}

void emit_auth_check(Gen& g, const AuthRoute& a) {
  if (!a.guarded || a.need.empty()) return;
  // Checked before the body is bound: an unauthenticated request never reaches the decoder.
  if (a.async) {
    g.line(fmt::format("fitz::auth::Requirement fz_need = {};", a.need));
    g.line("auto fz_user = co_await fzauth::guard().check_async(req, fz_need);");
    g.line("if (!fz_user.is_ok()) co_return fz_user.error();");
  } else {
    g.line(fmt::format("auto fz_user = fzauth::guard().check(req, {});", a.need));
    g.line(fmt::format("if (!fz_user.is_ok()) {}fz_user.error();", a.coroutine ? "co_return " : "return "));
  }
}

}  // namespace fitz::codegen
