// HTTP handlers: how each parameter of a route binds (path, query, `@header`, `@cookie`,
// `Request`, body), which types can cross the boundary as JSON, and the shapes of middleware,
// `cors({...})` and health checks. Codegen relies on these checks: a handler that passes them
// always compiles.
#include <algorithm>

#include "checker/check_internal.h"
#include "checker/decorators.h"
#include "checker/route_template.h"
#include "frontend/decorator_args.h"

namespace fitz::checker::detail {

namespace {

bool is_scalar(TypeStore& types, TypeId t) {
  switch (types.kind(t)) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Str:
    case TypeKind::Bool:
    case TypeKind::Any:
    case TypeKind::Error:
      return true;
    case TypeKind::Struct:
      return is_date_value(types, t);  // parsed from its text form
    default:
      return false;
  }
}

// `x-trace-id` binds the parameter `x_trace_id`.
std::string header_param_name(std::string_view header) {
  std::string out;
  for (char c : header) out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The user type of the program's `@auth_provider` as written (`User` of `-> Result<User>`,
// spaces dropped), or "" when there is none. Read from the syntax of every module, so a
// handler may be checked before the module that declares the provider.
std::string auth_user_type(const ModuleGraph& graph, const SourceManager& sources) {
  for (ModuleId m : graph.init_order) {
    const Ast& ast = graph.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const FnDecl& d = ast.get(f->fn);
      bool provider = std::any_of(d.decorators.begin(), d.decorators.end(),
                                  [](const Decorator& dec) { return is_decorator(dec, DecoratorKind::AuthProvider); });
      if (!provider || !d.return_type.valid()) continue;
      TypeExprId t = d.return_type;
      if (auto* n = std::get_if<NamedType>(&ast.get(t).data);
          n && !n->path.empty() && n->path.back().text == "Result" && !n->args.empty())
        t = n->args[0];
      // `models.User` is displayed `User`.
      if (auto* n = std::get_if<NamedType>(&ast.get(t).data); n && !n->path.empty() && n->args.empty())
        return std::string(n->path.back().text);
      std::string out;
      Span sp = ast.get(t).span;
      for (char c : sources.file(sp.file).slice(sp))
        if (c != ' ') out += c;
      return out;
    }
  }
  return "";
}

}  // namespace

bool Checker::is_builtin_struct(TypeId t, std::string_view name) const {
  StructId sid = types_->struct_of(t);
  if (!sid.valid()) return false;
  const StructInfo& info = types_->struct_info(sid);
  return info.builtin && info.name == name;
}

bool Checker::json_type_ok(TypeId t, bool decode, std::string& why, int depth) {
  if (depth > 32) return true;  // recursive types: every level has been seen already
  auto args = types_->args(t);
  switch (types_->kind(t)) {
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Any:
    case TypeKind::Null:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Str:
      return true;
    case TypeKind::Bytes:
      if (!decode) return true;
      why = "`Bytes` cannot be read from JSON";
      return false;
    case TypeKind::Py:  // sent as the JSON of its value (dicts, lists, str, numbers, None)
      if (!decode) return true;
      why = "a `Py` value cannot be read from JSON; declare a Fitz type";
      return false;
    case TypeKind::List:
    case TypeKind::Nullable:
      return json_type_ok(args[0], decode, why, depth + 1);
    case TypeKind::Map:
      if (!types_->compatible(args[0], types_->str())) {
        why = fmt::format("JSON object keys are strings; `{}` has keys of type `{}`", show(t), show(args[0]));
        return false;
      }
      return json_type_ok(args[1], decode, why, depth + 1);
    case TypeKind::Tuple:
    case TypeKind::Result:
      if (decode) {
        why = fmt::format("`{}` cannot be read from JSON", show(t));
        return false;
      }
      for (TypeId a : args)
        if (!json_type_ok(a, decode, why, depth + 1)) return false;
      return true;
    case TypeKind::Struct: {
      const StructInfo& info = types_->struct_info(types_->struct_of(t));
      if (info.builtin && is_date_value(*types_, t)) return true;  // a JSON string in its text form
      if (info.builtin) {
        static constexpr std::string_view kOpaque[] = {"Secret", "DbConn", "WsConn", "DbRow", "Request", "File"};
        bool opaque = std::find(std::begin(kOpaque), std::end(kOpaque), info.name) != std::end(kOpaque);
        if (decode || opaque) {
          why = fmt::format("`{}` has no JSON form", info.name);
          return false;
        }
        return true;
      }
      for (const FieldInfo& f : info.fields) {
        if (!json_type_ok(f.type, decode, why, depth + 1)) {
          why = fmt::format("field `{}.{}`: {}", info.name, f.name, why);
          return false;
        }
      }
      return true;
    }
    case TypeKind::Range:
    case TypeKind::Future:
    case TypeKind::Fn:
    case TypeKind::Module:
    case TypeKind::Var:
      why = fmt::format("`{}` has no JSON form", show(t));
      return false;
  }
  return true;
}

void Checker::check_handler_binding(const FnDecl& fn, const Decorator& route, bool live) {
  if (route.args.empty() || route.args[0].name) return;
  auto* lit = std::get_if<StrLit>(&expr(route.args[0].value).data);
  if (!lit) return;
  Span path_span = span_of(route.args[0].value);
  FnId fn_id(static_cast<uint32_t>(&fn - ast_->fns.data()));
  FnInfo& info = tir_->fns[fn_id.index];
  std::string_view fname = fn.name ? fn.name->text : std::string_view("the handler");

  // The template as written: literal text and `{name}` placeholders (parsed as string holes).
  std::vector<TemplateProblem> problems;
  RouteTemplate tmpl = parse_route_template(template_pieces(*lit, *ast_, *file_), &problems);
  for (const TemplateProblem& p : problems) {
    if (p.kind == TemplateProblem::Kind::Repeated)
      error(DiagKind::RoutePath, path_span, fmt::format("`{{{}}}` appears twice in the route", p.name));
    else
      error(DiagKind::RoutePath, path_span,
            fmt::format("the query key `{}` must equal its placeholder `{{{}}}`", p.key, p.name))
          .with_hint(fmt::format("write `{0}={{{0}}}`", p.name));
  }

  // A placeholder that names no parameter is already reported; binding would only repeat it.
  auto param_named = [&](const std::string& n) {
    return std::any_of(info.params.begin(), info.params.end(), [&](const ParamInfo& p) { return p.name == n; });
  };
  for (const std::string& n : tmpl.path_params)
    if (!param_named(n)) return;
  for (const RouteTemplate::Query& q : tmpl.query)
    if (!param_named(q.param)) return;

  // `@header(name="X-Trace-Id")` binds `x_trace_id`, or the parameter named by `into=`.
  std::vector<std::pair<std::string, std::string>> header_params;  // parameter, header
  for (const Decorator& d : fn.decorators) {
    if (!is_decorator(d, DecoratorKind::Header)) continue;
    std::string header, into;
    for (const DecoratorArg& a : d.args) {
      auto* s = std::get_if<StrLit>(&expr(a.value).data);
      std::string value;
      if (s)
        for (const StrPart& p : s->parts) value += p.is_hole() ? std::string() : p.text;
      if (!s) {
        error(DiagKind::DecoratorArguments, span_of(a.value),
              fmt::format("the `{}` of `@header` must be a string literal", a.name ? a.name->text : "argument"));
        continue;
      }
      if (a.name && a.name->text == "name") header = value;
      if (a.name && a.name->text == "into") into = value;
    }
    if (header.empty()) {
      // A missing `name=` is reported by the registry check (check_decorators.cpp).
      if (frontend::decorator_kwarg(*ast_, d, "name"))
        error(DiagKind::DecoratorArguments, d.name.span, "`@header` needs a header name in `name=\"Header-Name\"`");
      continue;
    }
    std::string param = into.empty() ? header_param_name(header) : into;
    auto it = std::find_if(info.params.begin(), info.params.end(), [&](const ParamInfo& p) { return p.name == param; });
    if (it == info.params.end()) {
      error(DiagKind::HandlerParam, d.name.span,
            fmt::format("`@header(name=\"{}\")` binds a parameter `{}`, but `{}` has none", header, param, fname))
          .with_hint(into.empty() ? "name the parameter after the header, or add `into=\"param\"`"
                                  : "`into=` must name a parameter of the handler");
      continue;
    }
    TypeId inner = types_->non_null(it->type);
    if (!types_->is_error(it->type) && types_->kind(inner) != TypeKind::Str && types_->kind(inner) != TypeKind::Any)
      error(DiagKind::HandlerParam, it->span,
            fmt::format("header parameter `{}` must be `Str` or `Str?`, not `{}`", param, show(it->type)));
    header_params.emplace_back(param, header);
  }

  // `@cookie`, `@cookie("sid")`, `@cookie(name="sid", signed=true)` on a parameter: the name is
  // the parameter's unless given.
  struct CookieUse {
    std::string name;
    bool is_signed = false;
  };
  std::vector<std::optional<CookieUse>> cookies(info.params.size());
  for (uint32_t i = 0; i < fn.params.size() && i < info.params.size(); ++i) {
    const Decorator* d = find_decorator(fn.params[i].decorators, DecoratorKind::Cookie);
    if (!d) continue;
    const ParamInfo& p = info.params[i];
    CookieUse use{p.name, false};
    bool ok = true;
    for (const DecoratorArg& a : d->args) {
      const Expr& v = expr(a.value);
      if (!a.name || a.name->text == "name") {
        auto* lit = std::get_if<StrLit>(&v.data);
        std::string text;
        if (lit)
          for (const StrPart& part : lit->parts) {
            if (part.is_hole()) lit = nullptr;
            if (!lit) break;
            text += part.text;
          }
        if (!lit) {
          error(DiagKind::DecoratorArguments, v.span, "the cookie name of `@cookie` must be a string literal");
          ok = false;
          continue;
        }
        use.name = text;
      } else if (a.name->text == "signed") {
        auto* b = std::get_if<BoolLit>(&v.data);
        if (!b) {
          error(DiagKind::DecoratorArguments, v.span, "`signed=` of `@cookie` must be `true` or `false`");
          ok = false;
          continue;
        }
        use.is_signed = b->value;
      }
    }
    if (!ok) continue;
    if (!is_cookie_token(use.name)) {
      error(DiagKind::CookieParam, d->name.span, fmt::format("`{}` is not a cookie name", use.name))
          .with_hint("a cookie name is letters, digits and !#$%&'*+-.^_`|~ only");
      continue;
    }
    TypeId inner = types_->non_null(p.type);
    // Unannotated (Any) reads like `Str?`, as for `@header`.
    bool nullable = types_->kind(p.type) == TypeKind::Nullable || types_->kind(p.type) == TypeKind::Any;
    if (!types_->is_error(p.type) && types_->kind(inner) != TypeKind::Str && types_->kind(inner) != TypeKind::Any) {
      error(DiagKind::CookieParam, p.span,
            fmt::format("cookie parameter `{}` must be `Str` or `Str?`, not `{}`", p.name, show(p.type)));
      continue;
    }
    if (use.is_signed && !nullable && !types_->is_error(p.type)) {
      error(DiagKind::CookieParam, p.span,
            fmt::format("signed cookie parameter `{}` must be `Str?`: a missing, unsigned or forged cookie binds null",
                        p.name))
          .with_hint(fmt::format("declare `{}: Str?`", p.name));
      continue;
    }
    bool in_route = std::find(tmpl.path_params.begin(), tmpl.path_params.end(), p.name) != tmpl.path_params.end() ||
                    std::any_of(tmpl.query.begin(), tmpl.query.end(), [&](const RouteTemplate::Query& q) { return q.param == p.name; });
    bool a_header = std::any_of(header_params.begin(), header_params.end(), [&](const auto& h) { return h.first == p.name; });
    if (in_route || a_header) {
      error(DiagKind::CookieParam, d->name.span,
            fmt::format("`{}` is bound by {}, so it cannot also read a cookie", p.name, in_route ? "the route" : "`@header`"))
          .with_hint(in_route ? "remove `@cookie`, or take the value out of the route" : "remove `@cookie` or the `@header`");
      continue;
    }
    bool repeated = false;
    for (uint32_t k = 0; k < i && !repeated; ++k)
      if (cookies[k] && cookies[k]->name == use.name) {
        error(DiagKind::CookieParam, d->name.span,
              fmt::format("the cookie `{}` is already bound to `{}`", use.name, info.params[k].name))
            .with_label(info.params[k].span, "first bound here");
        repeated = true;
      }
    if (!repeated) cookies[i] = std::move(use);
  }

  // On a guarded route the parameter of the `@auth_provider`'s user type receives the user.
  bool guarded = std::any_of(fn.decorators.begin(), fn.decorators.end(), [](const Decorator& d) {
    return is_decorator(d, DecoratorKind::Authenticated) || is_decorator(d, DecoratorKind::Admin) || is_decorator(d, DecoratorKind::Requires);
  });
  std::string user_type = guarded ? auth_user_type(graph_, sources_) : std::string();
  bool user_bound = false;

  HandlerDecl handler;
  handler.fn = fn_id;
  handler.method = route_method(route);
  handler.at = route.span;
  const ParamInfo* body = nullptr;
  for (uint32_t i = 0; i < info.params.size(); ++i) {
    const ParamInfo& p = info.params[i];
    ParamBinding b;
    b.param = i;
    b.type = p.type;
    bool dynamic = types_->kind(p.type) == TypeKind::Any;
    auto pi = std::find(tmpl.path_params.begin(), tmpl.path_params.end(), p.name);
    auto qi = std::find_if(tmpl.query.begin(), tmpl.query.end(),
                           [&](const RouteTemplate::Query& q) { return q.param == p.name; });
    auto hi = std::find_if(header_params.begin(), header_params.end(), [&](const auto& h) { return h.first == p.name; });
    bool cookie_decorated = i < fn.params.size() && has_decorator(fn.params[i].decorators, DecoratorKind::Cookie);
    if (cookie_decorated) {
      // A rejected `@cookie` (reported above) still keeps the parameter out of the body.
      b.kind = BindingKind::Cookie;
      if (cookies[i]) {
        b.key = cookies[i]->name;
        b.signed_cookie = cookies[i]->is_signed;
      } else {
        b.key = p.name;
      }
      b.optional = types_->kind(p.type) == TypeKind::Nullable || dynamic;
    } else if (pi != tmpl.path_params.end()) {
      b.kind = BindingKind::Path;
      b.path_index = static_cast<uint32_t>(pi - tmpl.path_params.begin());
      if (types_->kind(p.type) == TypeKind::Nullable)
        error(DiagKind::HandlerParam, p.span,
              fmt::format("path parameter `{}` is always present; it cannot be `{}`", p.name, show(p.type)))
            .with_hint("make it a query parameter (`?name={name}`) to make it optional");
      else if (!is_scalar(*types_, p.type))
        error(DiagKind::HandlerParam, p.span,
              fmt::format("path parameter `{}` must be `Int`, `Float`, `Str`, `Bool`, `Date`, `DateTime` or `Uuid`, not `{}`", p.name,
                          show(p.type)));
    } else if (qi != tmpl.query.end()) {
      b.kind = BindingKind::Query;
      b.key = qi->key;
      b.optional = types_->kind(p.type) == TypeKind::Nullable || dynamic;
      if (i < fn.params.size() && fn.params[i].default_value.valid()) {
        b.has_default = true;
        b.default_value = fn.params[i].default_value;
      }
      if (!is_scalar(*types_, types_->non_null(p.type)))
        error(DiagKind::HandlerParam, p.span,
              fmt::format("query parameter `{}` must be `Int`, `Float`, `Str`, `Bool`, `Date`, `DateTime` or `Uuid` (or `T?` when optional), not `{}`",
                          p.name, show(p.type)));
    } else if (hi != header_params.end()) {
      b.kind = BindingKind::Header;
      b.key = hi->second;
      b.optional = types_->kind(p.type) == TypeKind::Nullable || dynamic;
    } else if (is_builtin_struct(p.type, "Request")) {
      b.kind = BindingKind::Request;
    } else if (!user_bound && !user_type.empty() && user_type_matches(p.type, user_type)) {
      user_bound = true;
      b.kind = BindingKind::User;
    } else if (body) {
      error(DiagKind::HandlerParam, p.span,
            fmt::format("`{}` has two body parameters, `{}` and `{}`; a request has one body", fname, body->name, p.name))
          .with_label(body->span, "first body parameter")
          .with_hint(fmt::format("bind `{0}` in the route (`{{{0}}}` in the path or `?{0}={{{0}}}`) or with `@header`",
                                 p.name));
    } else {
      body = &p;
      bool form = types_->kind(p.type) == TypeKind::Map && types_->key(p.type) == types_->str() &&
                  types_->value(p.type) == types_->str();
      b.kind = form ? BindingKind::Form : BindingKind::Body;
      std::string why;
      if (handler.method == HttpMethod::Get || handler.method == HttpMethod::Delete)
        error(DiagKind::HandlerParam, p.span,
              fmt::format("a `@{}` request has no body, and `{}` is not in the route", route.name.text, p.name))
            .with_hint(fmt::format("add `{{{0}}}` to the path or `?{0}={{{0}}}` to the query", p.name));
      else if (!json_type_ok(p.type, true, why))
        error(DiagKind::HttpNotJson, p.span,
              fmt::format("body parameter `{}` of type `{}` cannot be read from JSON: {}", p.name, show(p.type), why));
    }
    handler.params.push_back(std::move(b));
  }
  if (!info.return_inferred && info.return_type.valid() && !is_builtin_struct(info.return_type, "Response")) {
    std::string why;
    TypeId r = info.return_type;
    if (types_->kind(r) == TypeKind::Result) r = types_->ok(r);
    if (!json_type_ok(r, false, why) && fn.return_type.valid())
      error(DiagKind::HttpNotJson, ast_->get(fn.return_type).span,
            fmt::format("`{}` returns `{}`, which cannot be sent as JSON: {}", fname, show(info.return_type), why));
  }
  handler.tmpl = std::move(tmpl);
  (live ? tir_->live_handlers : tir_->handlers).push_back(std::move(handler));
}

bool is_cookie_token(std::string_view name) {
  return !name.empty() && std::none_of(name.begin(), name.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u <= 0x20 || u >= 0x7F || std::string_view("()<>@,;:\\\"/[]?={}").find(c) != std::string_view::npos;
  });
}

bool Checker::user_type_matches(TypeId t, const std::string& user_type) const {
  std::string shown;
  for (char c : show(t))
    if (c != ' ') shown += c;
  return shown == user_type;
}

HttpMethod Checker::route_method(const Decorator& route) const {
  if (is_decorator(route, DecoratorKind::Post)) return HttpMethod::Post;
  if (is_decorator(route, DecoratorKind::Put)) return HttpMethod::Put;
  if (is_decorator(route, DecoratorKind::Patch)) return HttpMethod::Patch;
  if (is_decorator(route, DecoratorKind::Delete)) return HttpMethod::Delete;
  return HttpMethod::Get;
}

// The shape codegen's guard needs: `fn(headers: Map<Str, Str>) -> Result<User>` (or an untyped
// parameter), sync or async. Checked in the provider's module; whether the program has one, or
// two, is the service model's question (service_http.cpp).
void Checker::check_auth_provider(const FnDecl& fn, const Decorator& dec) {
  const FnInfo& info = tir_->fns[static_cast<size_t>(&fn - ast_->fns.data())];
  auto is_headers = [&](TypeId t) {
    return types_->is_dynamic(t) || types_->is_error(t) ||
           (types_->kind(t) == TypeKind::Map && types_->key(t) == types_->str() && types_->value(t) == types_->str());
  };
  if (info.params.size() != 1 || !is_headers(info.params[0].type)) {
    error(DiagKind::AuthProviderSignature, info.params.size() == 1 ? info.params[0].span : dec.name.span,
          "an `@auth_provider` takes one parameter, the request headers (`headers: Map<Str, Str>`)");
    return;
  }
  TypeId ret = info.return_type;
  if (ret.valid() && types_->is_error(ret)) return;
  if (!ret.valid() || info.return_inferred || types_->kind(ret) != TypeKind::Result || types_->err(ret) != types_->str())
    error(DiagKind::AuthProviderSignature, fn.return_type.valid() ? ast_->get(fn.return_type).span : dec.name.span,
          "an `@auth_provider` returns `Result<User>` (the user, or an Err message for the 401)");
}

void Checker::check_http_fn(FnId id) {
  const FnDecl& d = ast_->get(id);
  const FnInfo& info = tir_->fns[id.index];
  for (const Decorator& dec : d.decorators) {
    if (is_decorator(dec, DecoratorKind::Middleware) && dec.args.size() == 1 && !dec.args[0].name) {
      check_middleware_arg(dec.args[0].value, info);
      bool ws = std::any_of(d.decorators.begin(), d.decorators.end(), [](const Decorator& x) { return is_decorator(x, DecoratorKind::Ws); });
      TypeId t = tir_->type_of(dec.args[0].value);
      // An upgrade has no response to wrap or rewrite: only the before kind applies to `@ws`.
      if (ws && (types_->kind(t) != TypeKind::Fn || types_->fn_params(t).size() != 1))
        error(DiagKind::MiddlewareSignature, span_of(dec.args[0].value),
              "only a before middleware `fn(req: Request)` applies to a `@ws` endpoint")
            .with_hint("the upgrade request goes through before middleware; after, around and `cors` do not apply");
    } else if (is_decorator(dec, DecoratorKind::Healthz) || is_decorator(dec, DecoratorKind::Readyz)) {
      if (!d.params.empty())
        error(DiagKind::HealthCheckSignature, d.params.front().span,
              fmt::format("an `@{}` function takes no parameters", dec.name.text));
      if (!info.return_inferred && info.return_type.valid()) {
        TypeKind k = types_->kind(info.return_type);
        if (k != TypeKind::Bool && k != TypeKind::Result && k != TypeKind::Any && k != TypeKind::Error)
          error(DiagKind::HealthCheckSignature, ast_->get(d.return_type).span,
                fmt::format("an `@{}` function returns `Bool` or `Result`, not `{}`", dec.name.text,
                            show(info.return_type)));
      }
    }
  }
}

void Checker::check_middleware_arg(ExprId arg, const FnInfo& handler) {
  const Expr& e = expr(arg);
  if (auto* call = std::get_if<CallExpr>(&e.data)) {
    if (auto* callee = std::get_if<NameRef>(&expr(call->callee).data); callee && callee->name.text == "cors") {
      check_cors_arg(*call, e.span);
      return;
    }
  }
  TypeId t = tir_->type_of(arg);
  if (types_->is_dynamic(t)) return;
  const char* kinds =
      "a middleware is `fn(req: Request)` (before), `fn(req: Request, resp: Response) -> Response` (after) or "
      "`fn(req: Request, next: Fn() -> Response) -> Response` (around)";
  if (types_->kind(t) != TypeKind::Fn) {
    error(DiagKind::MiddlewareSignature, e.span,
          fmt::format("`@middleware` takes a function or `cors({{...}})`, received `{}`", show(t)))
        .with_hint(kinds);
    return;
  }
  auto params = types_->fn_params(t);
  TypeId result = types_->fn_result(t);
  if (types_->kind(result) == TypeKind::Future) result = types_->args(result)[0];
  auto request_like = [&](TypeId p) { return is_builtin_struct(p, "Request") || types_->is_dynamic(p); };
  auto response_like = [&](TypeId r) {
    return is_builtin_struct(r, "Response") || types_->is_dynamic(r) || types_->kind(r) == TypeKind::Null;
  };
  bool ok = false;
  if (params.size() == 1 && request_like(params[0])) {
    ok = types_->is_dynamic(result) || types_->kind(result) == TypeKind::Null ||
         is_builtin_struct(types_->non_null(result), "Response");
  } else if (params.size() == 2 && request_like(params[0])) {
    TypeId second = params[1];
    if (types_->kind(second) == TypeKind::Fn) {
      // `next: Fn() -> Future<Response>` is the async form: `next().await` runs the rest of
      // the chain whatever it holds; a sync `next()` can only run a synchronous chain.
      TypeId next_result = types_->fn_result(second);
      bool async_next = types_->kind(next_result) == TypeKind::Future;
      if (async_next) next_result = types_->args(next_result)[0];
      ok = types_->fn_params(second).empty() && response_like(next_result) && response_like(result);
      if (ok && handler.is_async && !async_next)
        error(DiagKind::MiddlewareSignature, e.span,
              "an around middleware calls `next()` synchronously, so it cannot wrap an `async` handler")
            .with_hint("declare `next: Fn() -> Future<Response>` in an async middleware and call `next().await`, or "
                       "make the handler synchronous");
    } else {
      ok = (is_builtin_struct(second, "Response") || types_->is_dynamic(second)) && response_like(result);
    }
  }
  if (!ok) {
    error(DiagKind::MiddlewareSignature, e.span,
          fmt::format("`{}` of type `{}` is not a middleware", text(e.span), show(t)))
        .with_hint(kinds);
    return;
  }
  // The route runs the function itself (codegen adapts it once): a lambda or a variable holding
  // a function has nothing to adapt.
  bool named = false;
  if (std::holds_alternative<NameRef>(e.data) && tir_->ref_of(arg).kind == RefKind::Symbol) {
    SymbolId sid(tir_->ref_of(arg).id);
    for (int hops = 0; hops < 64 && sym(sid).kind == SymbolKind::Import && sym(sid).target.valid(); ++hops)
      sid = sym(sid).target;
    named = sym(sid).kind == SymbolKind::Function && sym(sid).fn.valid();
  }
  if (!named)
    error(DiagKind::MiddlewareSignature, e.span, "`@middleware` names a top-level function")
        .with_hint("declare the middleware with `fn` and write its name: `@middleware(check_key)`");
}

void Checker::check_cors_arg(const CallExpr& call, Span at) {
  if (call.args.empty()) return;  // `cors()`: every option has its default
  const MapExpr* map = call.args.size() == 1 ? std::get_if<MapExpr>(&expr(call.args[0].value).data) : nullptr;
  if (!map) {
    error(DiagKind::CorsOptions, at, "the argument of `cors` must be a map literal, e.g. `cors({\"allow_origin\": \"*\"})`");
    return;
  }
  static const std::vector<std::string_view> kKeys = {"allow_origin", "allow_methods", "allow_headers", "max_age",
                                                      "allow_credentials"};
  for (const MapEntry& entry : map->entries) {
    auto* key = std::get_if<StrLit>(&expr(entry.key).data);
    std::string k;
    bool literal = key != nullptr;
    if (key)
      for (const StrPart& p : key->parts) literal &= !p.is_hole(), k += p.text;
    if (!literal) {
      error(DiagKind::CorsOptions, span_of(entry.key), "the keys of `cors({...})` must be string literals");
      continue;
    }
    if (std::find(kKeys.begin(), kKeys.end(), k) == kKeys.end()) {
      Diagnostic& d = error(DiagKind::CorsOptions, span_of(entry.key), fmt::format("`cors` has no option `{}`", k));
      if (auto c = closest(k, kKeys)) d.with_hint(fmt::format("did you mean `{}`?", *c));
      continue;
    }
    TypeId vt = tir_->type_of(entry.value);
    if (types_->is_dynamic(vt)) continue;
    TypeId str_list = types_->list(types_->str());
    bool ok = k == "allow_origin" ? (vt == types_->str() || vt == str_list)
              : k == "max_age"    ? vt == types_->int_()
              : k == "allow_credentials" ? vt == types_->bool_()
                                         : vt == str_list;
    if (!ok) {
      const char* want = k == "allow_origin" ? "`Str` or `List<Str>`"
                         : k == "max_age"    ? "`Int`"
                         : k == "allow_credentials" ? "`Bool`"
                                                    : "`List<Str>`";
      error(DiagKind::CorsOptions, span_of(entry.value),
            fmt::format("`cors` option `{}` must be {}, received `{}`", k, want, show(vt)));
    }
  }
}

}  // namespace fitz::checker::detail
