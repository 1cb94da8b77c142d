// The HTTP half of the service model: routes and their bindings, guards, the auth provider,
// middleware, the server's settings and health checks. Bindings come from each module's check
// (ModuleTir::handlers); this pass joins modules and reports only what needs several of them.
#include <fmt/format.h>

#include <algorithm>

#include "checker/byte_size.h"
#include "checker/decorators.h"
#include "checker/doc_comments.h"
#include "checker/service_build.h"
#include "checker/service_returns.h"

namespace fitz::checker::detail {

namespace {

using namespace frontend;

std::string literal_text(const Ast& ast, ExprId e, bool* ok) {
  auto* s = e.valid() ? std::get_if<StrLit>(&ast.get(e).data) : nullptr;
  *ok = s != nullptr;
  std::string out;
  if (!s) return out;
  for (const StrPart& p : s->parts) {
    if (p.is_hole()) *ok = false;
    out += p.text;
  }
  return out;
}

// The function a name refers to, through `from m import f` aliases.
std::optional<FnRef> fn_named_by(const TypedProgram& prog, ModuleId m, ExprId e, const Ast& ast) {
  if (!std::holds_alternative<NameRef>(ast.get(e).data)) return std::nullopt;
  const ModuleTir& tir = prog.modules[m.index];
  if (e.index >= tir.refs.size()) return std::nullopt;
  const Ref& r = tir.ref_of(e);
  if (r.kind != RefKind::Symbol) return std::nullopt;
  SymbolId sid(r.id);
  for (int hops = 0; hops < 64 && prog.symbol(sid).kind == SymbolKind::Import && prog.symbol(sid).target.valid(); ++hops)
    sid = prog.symbol(sid).target;
  const Symbol& s = prog.symbol(sid);
  if (s.kind != SymbolKind::Function || !s.fn.valid()) return std::nullopt;
  return FnRef{s.module, s.fn};
}

const FnInfo& info_of(const TypedProgram& prog, FnRef f) { return prog.modules[f.module.index].fns[f.fn.index]; }

struct ProviderFound {
  std::optional<AuthProvider> provider;
  bool any = false;  // some `@auth_provider` exists, well-formed or not
};

// The program's provider. Its shape is checked in its module (check_http.cpp); one whose
// return type is inferred is only known here.
ProviderFound find_provider(ServiceBuild& b) {
  ProviderFound out;
  const TypeStore& types = *b.program.types;
  Span first_at;
  for (ModuleId m : b.graph.init_order) {
    const Ast& ast = b.graph.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const Decorator* dec = find_decorator(ast.get(f->fn).decorators, DecoratorKind::AuthProvider);
      if (!dec) continue;
      if (out.any) {
        b.diags.error(DiagKind::DuplicateAuthProvider, dec->name.span, "only one `@auth_provider` is allowed in a program")
            .with_label(first_at, "first `@auth_provider` here");
        continue;
      }
      out.any = true;
      first_at = dec->name.span;
      const FnInfo& info = b.program.modules[m.index].fns[f->fn.index];
      TypeId ret = info.return_type;
      bool headers_ok = info.params.size() == 1 &&
                        (types.kind(info.params[0].type) == TypeKind::Any ||
                         (types.kind(info.params[0].type) == TypeKind::Map && types.key(info.params[0].type) == types.str() &&
                          types.value(info.params[0].type) == types.str()));
      bool ret_ok = ret.valid() && types.kind(ret) == TypeKind::Result && types.err(ret) == types.str();
      if (!headers_ok) continue;  // reported by the module's check
      if (!ret_ok) {
        if (info.return_inferred && !(ret.valid() && types.kind(ret) == TypeKind::Error))
          b.diags.error(DiagKind::AuthProviderSignature, dec->name.span,
                        "an `@auth_provider` returns `Result<User>` (the user, or an Err message for the 401)")
              .with_hint("declare the return type: `-> Result<User>`");
        continue;
      }
      AuthProvider p;
      p.fn = FnRef{m, f->fn};
      p.user = types.ok(ret);
      p.async = info.is_async;
      p.headers_any = types.kind(info.params[0].type) == TypeKind::Any;
      // The role `@admin` and `@requires` compare: a `role` field (Str or Str?) of a user type,
      // or the `role` claim when the provider returns the claims map.
      StructId sid = types.struct_of(p.user);
      if (sid.valid() && !types.struct_info(sid).builtin) {
        if (const FieldInfo* role = types.struct_info(sid).field("role"))
          if (role->type == types.str() ||
              (types.kind(role->type) == TypeKind::Nullable && types.non_null(role->type) == types.str()))
            p.roles = AuthProvider::RoleSource::UserField;
      } else if (types.kind(p.user) == TypeKind::Map && types.key(p.user) == types.str() &&
                 types.kind(types.value(p.user)) == TypeKind::Any) {
        p.roles = AuthProvider::RoleSource::Claims;
      }
      out.provider = p;
    }
  }
  return out;
}

std::optional<ServerSettings> find_server(ServiceBuild& b) {
  for (ModuleId m : b.graph.init_order) {
    const Ast& ast = b.graph.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const Decorator* d = find_decorator(ast.get(f->fn).decorators, DecoratorKind::Server);
      if (!d) continue;
      ServerSettings out;
      out.fn = FnRef{m, f->fn};
      for (size_t i = 0; i < d->args.size(); ++i) {
        const DecoratorArg& a = d->args[i];
        ServerSettings::Setting setting;
        setting.key = a.name ? std::string(a.name->text) : i == 0 ? "port" : "host";
        setting.value = a.value;
        bool ok = false;
        std::string text = literal_text(ast, a.value, &ok);
        if (std::holds_alternative<StrLit>(ast.get(a.value).data)) setting.literal = text;
        if (auto* n = std::get_if<frontend::IntLit>(&ast.get(a.value).data)) setting.int_literal = n->value;
        if (setting.key == "max_body_bytes") setting.int_literal = byte_size_arg(ast, a.value);
        // A path that fails the module's check (E0545) redirects nowhere.
        if (setting.key == "login_path" && setting.literal && setting.literal->starts_with("/") &&
            setting.literal->find_first_of("?#") == std::string::npos)
          out.login_path = *setting.literal;
        if (setting.key == "static")
          if (auto* m = std::get_if<frontend::MapExpr>(&ast.get(a.value).data))
            for (const frontend::MapEntry& e : m->entries) {
              bool ok_key = false, ok_value = false;
              std::string prefix = literal_text(ast, e.key, &ok_key), folder = literal_text(ast, e.value, &ok_value);
              if (ok_key && ok_value) out.static_dirs.emplace_back(prefix, folder);
            }
        out.settings.push_back(std::move(setting));
      }
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<MiddlewareUse> middleware_of(const TypedProgram& prog, ModuleId m, const Ast& ast, const FnDecl& decl) {
  const TypeStore& types = *prog.types;
  std::vector<MiddlewareUse> out;
  for (const Decorator& d : decl.decorators) {
    if (!is_decorator(d, DecoratorKind::Middleware) || d.args.size() != 1 || d.args[0].name) continue;
    ExprId arg = d.args[0].value;
    MiddlewareUse use;
    use.at = ast.get(arg).span;
    auto* call = std::get_if<CallExpr>(&ast.get(arg).data);
    auto* callee = call ? std::get_if<NameRef>(&ast.get(call->callee).data) : nullptr;
    if (callee && callee->name.text == "cors") {
      if (call->args.size() > 1) continue;  // reported by the check of `cors(...)`
      use.kind = MiddlewareUse::Kind::Cors;
      if (call->args.size() == 1) use.cors_options = call->args[0].value;
      out.push_back(use);
      continue;
    }
    std::optional<FnRef> fn = fn_named_by(prog, m, arg, ast);
    if (!fn) continue;
    const FnInfo& mi = info_of(prog, *fn);
    use.fn = *fn;
    if (mi.params.size() == 1) {
      use.kind = MiddlewareUse::Kind::Before;
    } else if (mi.params.size() == 2 && types.kind(mi.params[1].type) == TypeKind::Fn) {
      bool async_next = types.kind(types.fn_result(mi.params[1].type)) == TypeKind::Future;
      use.kind = mi.is_async || async_next ? MiddlewareUse::Kind::AroundAsync : MiddlewareUse::Kind::Around;
    } else if (mi.params.size() == 2) {
      use.kind = MiddlewareUse::Kind::After;
    } else {
      continue;  // reported by the check of the middleware argument
    }
    out.push_back(use);
  }
  return out;
}

namespace {

void add_statuses(const TypedProgram& prog, ModuleId m, const Returns& r, Route& route) {
  const ModuleTir& tir = prog.modules[m.index];
  for (const auto& [status, body] : r.statuses) {
    StatusReturn s;
    s.status = status;
    s.module = m;
    s.body_expr = body;
    s.body = body.valid() && body.index < tir.expr_types.size() ? tir.type_of(body) : TypeId();
    route.statuses.push_back(s);
  }
}

}  // namespace

Guard guard_of(const Ast& ast, const FnDecl& decl) {
  Guard g;
  for (const Decorator& d : decl.decorators) {
    if (is_decorator(d, DecoratorKind::Authenticated)) {
      g.guarded = true;
    } else if (is_decorator(d, DecoratorKind::Admin)) {
      g.guarded = g.admin = true;
    } else if (is_decorator(d, DecoratorKind::Requires)) {
      g.guarded = true;
      for (const DecoratorArg& a : d.args) {
        bool ok = false;
        std::string role = literal_text(ast, a.value, &ok);
        if (ok) g.roles.push_back(std::move(role));
      }
    } else {
      continue;
    }
    g.at = d.span;
  }
  return g;
}

void build_http_model(ServiceBuild& b) {
  ServiceModel& model = b.program.service;
  const TypedProgram& prog = b.program;
  ProviderFound provider = find_provider(b);
  model.auth = provider.provider;
  model.server = find_server(b);

  DatabaseUse database(prog, b.graph);
  auto add_middleware_fn = [&](const MiddlewareUse& mw) {
    if (std::find(model.middleware_fns.begin(), model.middleware_fns.end(), mw.fn) != model.middleware_fns.end()) return;
    model.middleware_fns.push_back(mw.fn);
    model.middleware_kinds.push_back(mw.kind);
  };
  for (ModuleId m : b.graph.init_order) {
    const Ast& ast = b.graph.get(m).ast;
    const ModuleTir& tir = prog.modules[m.index];
    const SourceFile* file = b.sources.find(ast.file);
    for (const HandlerDecl& h : tir.handlers) {
      const FnDecl& decl = ast.get(h.fn);
      const FnInfo& info = tir.fns[h.fn.index];
      Route r;
      r.handler = FnRef{m, h.fn};
      r.method = h.method;
      r.tmpl = h.tmpl;
      r.params = h.params;
      r.at = h.at;
      r.guard = guard_of(ast, decl);
      for (const ParamBinding& p : r.params)
        if (p.kind == BindingKind::User) r.guard.user_param = static_cast<int>(p.param);
      if (const Decorator* flag = find_decorator(decl.decorators, DecoratorKind::FlagFn); flag && flag->args.size() == 1) {
        bool ok = false;
        std::string name = literal_text(ast, flag->args[0].value, &ok);
        if (ok) r.feature_flag = std::move(name);
      }
      if (const Decorator* limit = find_decorator(decl.decorators, DecoratorKind::BodyLimit); limit && limit->args.size() == 1)
        r.max_body_bytes = byte_size_arg(ast, limit->args[0].value);
      r.middleware = middleware_of(prog, m, ast, decl);
      Returns returns = collect_returns(ast, decl);
      add_statuses(prog, m, returns, r);
      r.plain_return = returns.plain;
      {
        const TypeStore& types = *prog.types;
        TypeId rt = info.return_type;
        if (rt.valid() && types.kind(rt) == TypeKind::Future) rt = types.args(rt)[0];
        if (rt.valid() && types.kind(rt) == TypeKind::Result) rt = types.ok(rt);
        StructId sid = rt.valid() ? types.struct_of(rt) : StructId();
        auto builtin = [&](StructId s, std::string_view name) {
          return s.valid() && types.struct_info(s).builtin && types.struct_info(s).name == name;
        };
        r.returns_html = rt.valid() && builtin(types.struct_of(types.non_null(rt)), "Html");
        r.may_answer_html = r.returns_html || builtin(sid, "Response");
      }
      r.return_values = returns.values;
      // Middleware may stop the request with statuses of its own.
      for (const MiddlewareUse& mw : r.middleware) {
        if (mw.kind == MiddlewareUse::Kind::Cors) continue;
        add_middleware_fn(mw);
        const Ast& mast = b.graph.get(mw.fn.module).ast;
        add_statuses(prog, mw.fn.module, collect_returns(mast, mast.get(mw.fn.fn)), r);
      }
      if (file) {
        uint32_t begin = decl.span.begin;
        for (const Decorator& d : decl.decorators) begin = std::min(begin, d.span.begin);
        r.doc = comment_before(*file, begin);
      }
      std::vector<FnRef> runs{r.handler};
      for (const MiddlewareUse& mw : r.middleware)
        if (mw.kind != MiddlewareUse::Kind::Cors) runs.push_back(mw.fn);
      if (r.guard.guarded && model.auth) runs.push_back(model.auth->fn);
      r.uses_database = database.reaches(runs);
      r.python = info.uses_python && !info.is_async;
      r.async = info.is_async || r.python || (r.guard.guarded && model.auth && model.auth->async);
      if (r.guard.guarded && !provider.any)
        b.diags
            .error(DiagKind::GuardWithoutProvider, r.guard.at,
                   "a guarded route needs an `@auth_provider` function in the program")
            .with_hint("add `@auth_provider fn current_user(headers: Map<Str, Str>) -> Result<User>`: it turns the "
                       "request headers into the user, or an Err for the 401");
      model.routes.push_back(std::move(r));
    }
    // WebSocket endpoints are guarded like routes: the same provider must exist.
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const FnDecl& decl = ast.get(f->fn);
      for (const Decorator& d : decl.decorators) {
        bool health = is_decorator(d, DecoratorKind::Healthz) || is_decorator(d, DecoratorKind::Readyz);
        if (health && decl.params.empty() && tir.fns[f->fn.index].symbol.valid())
          model.health.push_back(HealthCheck{FnRef{m, f->fn}, is_decorator(d, DecoratorKind::Readyz), d.name.span});
        if (is_decorator(d, DecoratorKind::Live)) {
          LiveRoute live;
          live.fn = FnRef{m, f->fn};
          live.span = d.name.span;
          for (const DecoratorArg& a : d.args) {
            bool ok = false;
            if (!a.name) {
              // `"/chat/{room}"` lexes as an interpolated string: the path is its source text.
              std::string_view text = file ? file->slice(ast.get(a.value).span) : std::string_view();
              if (text.size() >= 2 && text.front() == '"' && text.back() == '"') live.path = std::string(text.substr(1, text.size() - 2));
              else live.path = literal_text(ast, a.value, &ok);
            } else if (a.name->text == "title") {
              live.title = literal_text(ast, a.value, &ok);
            } else if (a.name->text == "layout") {
              if (const auto* n = std::get_if<NameRef>(&ast.get(a.value).data)) live.layout = std::string(n->name.text);
              live.layout_fn = fn_named_by(prog, m, a.value, ast);
              live.layout_span = ast.get(a.value).span;
            }
          }
          live.props = tir.fns[f->fn.index].return_type;
          if (live.props.valid()) live.component = prog.types->display(live.props);
          live.guard = guard_of(ast, decl);
          live.guarded = live.guard.guarded;
          for (const HandlerDecl& h : tir.live_handlers)
            if (h.fn == f->fn) {
              live.tmpl = h.tmpl;
              live.params = h.params;
            }
          for (const ParamBinding& p : live.params)
            if (p.kind == BindingKind::User) live.guard.user_param = static_cast<int>(p.param);
          model.live.push_back(std::move(live));
        }
        if (!is_decorator(d, DecoratorKind::Ws)) continue;
        // The upgrade runs before middleware: their adapters are generated with the routes'.
        for (const MiddlewareUse& mw : middleware_of(prog, m, ast, decl))
          if (mw.kind == MiddlewareUse::Kind::Before) add_middleware_fn(mw);
        if (!provider.any) {
          Guard g = guard_of(ast, decl);
          if (g.guarded)
            b.diags
                .error(DiagKind::GuardWithoutProvider, g.at,
                       "a guarded WebSocket endpoint needs an `@auth_provider` function in the program")
                .with_hint("add `@auth_provider fn current_user(headers: Map<Str, Str>) -> Result<User>`: it turns "
                           "the request headers into the user, or an Err for the 401");
        }
      }
    }
  }
  if (model.server && !model.server->login_path.empty()) {
    const std::string& login = model.server->login_path;
    bool served = std::any_of(model.routes.begin(), model.routes.end(), [&](const Route& r) {
      return r.method == HttpMethod::Get && r.tmpl.path == login;
    });
    const ServerSettings::Setting* setting = model.server->find("login_path");
    const Ast& sast = b.graph.get(model.server->fn.module).ast;
    if (!served && setting)
      b.diags
          .warning(DiagKind::LoginPathNotRoute, sast.get(setting->value).span,
                   fmt::format("`login_path` is `{}`, but no `@get` route of the program serves it", login))
          .with_hint(fmt::format("add `@get(\"{}\")` for the login page, or name the path of an existing one", login));
  }
}

}  // namespace fitz::checker::detail
