// Decorators: each is checked against its registry entry (decorators.def): where it may appear,
// how many positional arguments, the names and literal types of its keyword arguments, and
// the first argument's form (a string literal, or a route path). Route decorators make a
// function an HTTP handler (which may `return STATUS body`).
#include <algorithm>

#include "checker/byte_size.h"
#include "checker/check_internal.h"
#include "checker/decorators.h"
#include "checker/route_template.h"

namespace fitz::checker::detail {

namespace {

// The registry's places; `target` arguments below are one of these.
constexpr int kFn = kOnFn, kType = kOnType, kField = kOnField, kParam = kOnParam;

// The entry of `name` for `target`, else its first entry (whose places then do not match).
const DecoratorSpec* find_spec(std::string_view name, int target) {
  if (const DecoratorSpec* s = find_decorator(name, static_cast<DecoratorPlace>(target))) return s;
  for (const DecoratorSpec& s : decorator_specs())
    if (s.name == name) return &s;
  return nullptr;
}

std::string_view target_name(int t) {
  return t == kFn ? "a function" : t == kType ? "a type" : t == kField ? "a field" : "a parameter";
}

// The kind of literal `e` is, when it is a literal the registry's argument types can rule out.
std::optional<DecoratorArgType> literal_type(const Expr& e) {
  if (std::holds_alternative<IntLit>(e.data)) return DecoratorArgType::Int;
  if (std::holds_alternative<StrLit>(e.data)) return DecoratorArgType::Str;
  if (std::holds_alternative<BoolLit>(e.data)) return DecoratorArgType::Bool;
  return std::nullopt;
}

}  // namespace

bool Checker::check_decorator(const Decorator& d, int target, const FnDecl* fn) {
  const DecoratorSpec* spec = find_spec(d.name.text, target);
  if (!spec) {
    Diagnostic& diag = error(DiagKind::UnknownDecorator, d.name.span, fmt::format("unknown decorator `{}`", d.name.text));
    static constexpr std::string_view kRouteish[] = {"route", "router", "endpoint", "http", "head", "options", "request"};
    if (std::find(std::begin(kRouteish), std::end(kRouteish), d.name.text) != std::end(kRouteish)) {
      diag.with_hint("routes are declared with @get, @post, @put, @patch or @delete, e.g. `@get(\"/items/{id}\")`");
    } else {
      std::vector<std::string_view> names;
      for (const DecoratorSpec& s : decorator_specs())
        if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
      if (auto c = closest(d.name.text, names))
        diag.with_hint(fmt::format("did you mean `@{}`?", *c)).with_fix(d.name.span, *c);
    }
    return false;
  }
  if (!(spec->places & static_cast<unsigned>(target))) {
    std::string where;
    unsigned targets = decorator_places(d.name.text);
    for (int t : {kFn, kType, kField, kParam})
      if (targets & t) where += std::string(where.empty() ? "" : " or ") + std::string(target_name(t));
    error(DiagKind::DecoratorPlacement, d.name.span,
          fmt::format("`@{}` cannot be applied to {}; it applies to {}", d.name.text, target_name(target), where));
    return false;
  }
  int positional = 0;
  std::vector<std::string_view> seen;
  for (const DecoratorArg& a : d.args) {
    if (!a.name) {
      ++positional;
      continue;
    }
    const DecoratorArgSpec* arg = find_decorator_arg(*spec, a.name->text);
    if (!arg && !spec->any_args) {
      Diagnostic& diag = error(DiagKind::DecoratorArguments, a.name->span,
                               fmt::format("`@{}` has no argument named `{}`", d.name.text, a.name->text));
      std::vector<std::string_view> names;
      for (const DecoratorArgSpec& k : spec->args) names.push_back(k.name);
      if (auto c = closest(a.name->text, names)) diag.with_hint(fmt::format("did you mean `{}`?", *c));
    } else if (arg && arg->type != DecoratorArgType::Any) {
      const Expr& value = ast_->get(a.value);
      std::optional<DecoratorArgType> lit = literal_type(value);
      bool wrong = arg->type == DecoratorArgType::Map ? lit.has_value() : lit && *lit != arg->type;
      if (wrong)
        error(DiagKind::DecoratorArguments, value.span,
              fmt::format("`{}=` of `@{}` takes {} `{}`, received {} `{}`", a.name->text, d.name.text,
                          arg->type == DecoratorArgType::Int ? "an" : "a", decorator_arg_type_name(arg->type),
                          *lit == DecoratorArgType::Int ? "an" : "a", decorator_arg_type_name(*lit)));
    }
    seen.push_back(a.name->text);
  }
  for (const DecoratorArgSpec& k : spec->args)
    if (k.required && std::find(seen.begin(), seen.end(), k.name) == seen.end())
      error(DiagKind::DecoratorArguments, d.name.span, fmt::format("`@{}` needs `{}=` ({})", d.name.text, k.name, k.doc));
  if (positional < spec->min_pos || (spec->max_pos >= 0 && positional > spec->max_pos)) {
    std::string expect = spec->max_pos < 0 ? fmt::format("at least {}", spec->min_pos)
                         : spec->min_pos == spec->max_pos ? fmt::format("{}", spec->min_pos)
                                                          : fmt::format("{} to {}", spec->min_pos, spec->max_pos);
    error(DiagKind::DecoratorArguments, d.name.span,
          fmt::format("`@{}` takes {} positional argument{}, received {}", d.name.text, expect,
                      expect == "1" ? "" : "s", positional));
    return false;
  }
  if (spec->first != DecoratorFirst::Any && !d.args.empty() && !d.args[0].name) {
    const Expr& first = ast_->get(d.args[0].value);
    auto* s = std::get_if<StrLit>(&first.data);
    if (!s) {
      error(DiagKind::DecoratorArguments, first.span,
            fmt::format("the first argument of `@{}` must be a string literal", d.name.text));
      return false;
    }
    if (spec->first == DecoratorFirst::Path) {
      RouteTemplate tmpl = parse_route_template(template_pieces(*s, *ast_, *file_));
      if (tmpl.text.empty() || tmpl.text[0] != '/') {
        error(DiagKind::RoutePath, first.span, fmt::format("the path of `@{}` must start with `/`", d.name.text))
            .with_fix(Span{first.span.file, first.span.begin + 1, first.span.begin + 1}, "/");
      } else if (fn) {
        // Every `{name}` placeholder (path or query) must name a parameter of the handler.
        std::vector<std::string> placeholders = tmpl.path_params;
        for (const RouteTemplate::Query& q : tmpl.query) placeholders.push_back(q.param);
        for (const std::string& param : placeholders) {
          bool found = std::any_of(fn->params.begin(), fn->params.end(),
                                   [&](const Param& p) { return p.name.text == param; });
          if (!found)
            error(DiagKind::RoutePath, first.span,
                  fmt::format("route parameter `{{{}}}` names no parameter of `{}`", param,
                              fn->name ? fn->name->text : std::string_view("the handler")));
        }
      }
    }
  }
  if (spec->kind == DecoratorKind::Server) {
    if (any_server_)
      error(DiagKind::DuplicateServer, d.name.span, "only one `@server` is allowed in a program");
    any_server_ = true;
    for (size_t i = 0; i < d.args.size(); ++i) {
      const DecoratorArg& a = d.args[i];
      if (a.name && a.name->text == "max_body_bytes") check_body_size(a.value, "`@server(max_body_bytes=)`");
      if (a.name && a.name->text == "static") check_static_dirs(a.value);
      if (a.name && a.name->text == "login_path") check_login_path(a.value);
      bool is_port = (a.name && a.name->text == "port") || (!a.name && i == 0);
      if (!is_port) continue;
      if (auto* lit = std::get_if<IntLit>(&ast_->get(a.value).data))
        if (lit->value < 1 || lit->value > 65535)
          error(DiagKind::DecoratorArguments, span_of(a.value),
                fmt::format("the port of `@server` must be between 1 and 65535, received {}", lit->value));
    }
  }
  if (spec->kind == DecoratorKind::BodyLimit && d.args.size() == 1) {
    check_body_size(d.args[0].value, "`@body_limit`");
    bool routed = fn && std::any_of(fn->decorators.begin(), fn->decorators.end(), [](const Decorator& o) {
      const DecoratorSpec* s = find_decorator(o.name.text, kOnFn);
      return s && is_route(s->kind);
    });
    if (fn && !routed)
      error(DiagKind::BodySize, d.name.span, "`@body_limit` limits a route's request bodies, but this function is not a route handler")
          .with_hint("add a route decorator such as `@post(\"/upload\")`, or remove `@body_limit`");
  }
  if (spec->kind == DecoratorKind::Test && fn && !fn->params.empty())
    error(DiagKind::TestSignature, fn->params.front().span, "an `@test` function takes no parameters");
  return true;
}

void Checker::check_body_size(ExprId e, std::string_view what) {
  if (byte_size_arg(*ast_, e)) return;
  error(DiagKind::BodySize, span_of(e), fmt::format("{} takes a size: an Int of bytes or a string such as \"20MB\"", what))
      .with_hint("units are B, KB, MB, GB (powers of 1000) and KiB, MiB, GiB (powers of 1024); the size is above zero and at most 1 TiB");
}

// `@server(static={"/assets": "public"})`: a map literal of string literals, each prefix a
// path and each folder one that exists in the project (or beside the program's entry file).
void Checker::check_static_dirs(ExprId e) {
  auto* map = std::get_if<MapExpr>(&ast_->get(e).data);
  if (!map) {
    error(DiagKind::StaticFiles, span_of(e), "`static=` takes a map literal from URL prefix to folder")
        .with_hint("write `static={\"/assets\": \"public\"}`");
    return;
  }
  auto text_of = [&](ExprId x, std::string& out) {
    auto* s = std::get_if<StrLit>(&ast_->get(x).data);
    if (!s) return false;
    out.clear();
    for (const StrPart& p : s->parts) {
      if (p.is_hole()) return false;
      out += p.text;
    }
    return true;
  };
  std::filesystem::path base = !graph_.project_root.empty() ? graph_.project_root
                                                             : std::filesystem::path(graph_.get(mod_).path).parent_path();
  for (const MapEntry& entry : map->entries) {
    std::string prefix, folder;
    if (!text_of(entry.key, prefix) || !text_of(entry.value, folder)) {
      error(DiagKind::StaticFiles, span_of(text_of(entry.key, prefix) ? entry.value : entry.key),
            "the URL prefixes and folders of `static=` are string literals without `{holes}`");
      continue;
    }
    if (!prefix.starts_with("/") || prefix.find_first_of("{}?#") != std::string::npos) {
      error(DiagKind::StaticFiles, span_of(entry.key),
            fmt::format("`{}` is not a URL prefix: it starts with `/` and has no `{{`, `}}`, `?` or `#`", prefix));
      continue;
    }
    std::filesystem::path dir(folder);
    bool climbs = std::any_of(dir.begin(), dir.end(), [](const std::filesystem::path& p) { return p == ".."; });
    if (dir.is_absolute() || climbs || folder.empty()) {
      error(DiagKind::StaticFiles, span_of(entry.value),
            fmt::format("the static folder `{}` must be a folder of the project, relative to it and without `..`", folder));
      continue;
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(base / dir, ec))
      error(DiagKind::StaticFiles, span_of(entry.value),
            fmt::format("there is no folder `{}` in `{}`", folder, frontend::display_path(base)))
          .with_hint("create it, or name the folder (relative to the project) that holds the files");
  }
}

// `@server(login_path="/login")`: a literal path the redirect's Location can name as is. Whether
// a route serves it is known once every module is checked (W0204, service_http.cpp).
void Checker::check_login_path(ExprId e) {
  auto* s = std::get_if<StrLit>(&ast_->get(e).data);
  std::string text;
  bool holes = false;
  if (s)
    for (const StrPart& p : s->parts) {
      holes |= p.is_hole();
      text += p.text;
    }
  if (!s || holes) {
    error(DiagKind::LoginPath, span_of(e), "`login_path=` takes a string literal path, such as \"/login\"");
    return;
  }
  bool bad_char = std::any_of(text.begin(), text.end(), [](char c) {
    return c == '?' || c == '#' || static_cast<unsigned char>(c) <= 0x20 || c == 0x7F;
  });
  if (!text.starts_with("/") || text.starts_with("//") || bad_char)
    error(DiagKind::LoginPath, span_of(e),
          fmt::format("`login_path` must be a path of this server starting with `/` (no `?`, `#` or spaces), not `{}`", text))
        .with_hint("write `login_path=\"/login\"`; the redirect adds `?next=` itself");
}

void Checker::check_decorators_fn(const FnDecl& fn, bool is_method) {
  if (is_method) return;  // decorators on methods are a syntax error (reported by the parser)
  const Decorator* route = nullptr;
  for (const Decorator& d : fn.decorators) {
    if (!check_decorator(d, kFn, &fn)) continue;
    const DecoratorSpec* spec = find_decorator(d.name.text, kOnFn);
    if (spec && is_route(spec->kind)) {
      if (route)
        error(DiagKind::DecoratorPlacement, d.name.span,
              fmt::format("a handler has one route; `@{}` conflicts with `@{}`", d.name.text, route->name.text))
            .with_label(route->name.span, "first route here");
      route = &d;
    }
  }
  const Decorator* command = nullptr;
  for (const Decorator& d : fn.decorators)
    if (find_decorator(d.name.text, kOnFn) == &decorator_spec(DecoratorKind::Command) && !command) command = &d;
  bool routed = std::any_of(fn.decorators.begin(), fn.decorators.end(), [](const Decorator& o) {
    const DecoratorSpec* s = find_decorator(o.name.text, kOnFn);
    return s && (is_route(s->kind) || s->kind == DecoratorKind::Live);
  });
  for (const Param& p : fn.params)
    for (const Decorator& d : p.decorators) {
      if (!check_decorator(d, kParam, &fn)) continue;
      if (is_decorator(d, DecoratorKind::Cookie)) {
        // A command's parameters come from its command line, a route's cookie from the request.
        if (!routed || command)
          error(DiagKind::CookieParam, d.name.span,
                fmt::format("`@cookie` binds a request cookie, but `{}` is not a route handler",
                            fn.name ? fn.name->text : std::string_view("the function")))
              .with_hint("add a route decorator such as `@get(\"/path\")`, or remove `@cookie`");
        continue;
      }
      if (!command)
        error(DiagKind::DecoratorPlacement, d.name.span,
              fmt::format("`@{}` on a parameter describes a command-line argument, but `{}` is not a `@command`",
                          d.name.text, fn.name ? fn.name->text : std::string_view("the function")))
            .with_hint("decorate the function with `@command`, or remove the parameter decorator");
    }
  for (const Decorator& d : fn.decorators)
    if (find_decorator(d.name.text, kOnFn) == &decorator_spec(DecoratorKind::Command)) check_command(fn, d);
  // `@trace` / `@metric` scopes: their names, for codegen.
  FnInfo& info = tir_->fns[static_cast<size_t>(&fn - ast_->fns.data())];
  info.is_test = has_decorator(fn.decorators, DecoratorKind::Test);
  for (const Decorator& d : fn.decorators) {
    bool trace = is_decorator(d, DecoratorKind::Trace);
    if (!trace && !is_decorator(d, DecoratorKind::Metric)) continue;
    std::string name = fn.name ? std::string(fn.name->text) : std::string("fn");
    for (const DecoratorArg& a : d.args) {
      auto* s = a.name && a.name->text == "name" ? std::get_if<StrLit>(&expr(a.value).data) : nullptr;
      if (!s) continue;
      name.clear();
      for (const StrPart& p : s->parts) name += p.text;
    }
    (trace ? info.trace_name : info.metric_name) = std::move(name);
  }
  if (const Decorator* provider = find_decorator(fn.decorators, DecoratorKind::AuthProvider))
    check_auth_provider(fn, *provider);
  if (route) {
    tir_->fns[static_cast<size_t>(&fn - ast_->fns.data())].is_handler = true;
    check_handler_binding(fn, *route);
  } else if (const Decorator* live = find_decorator(fn.decorators, DecoratorKind::Live)) {
    // A live page binds its parameters like a GET handler, but returns the root component's
    // props rather than answering: it stays an ordinary function.
    check_handler_binding(fn, *live, /*live=*/true);
  }
}

void Checker::check_decorators_type(const TypeDecl& t) {
  for (const Decorator& d : t.decorators) check_decorator(d, kType, nullptr);
}

void Checker::check_decorators_field(const FieldDecl& f) {
  for (const Decorator& d : f.decorators) check_decorator(d, kField, nullptr);
}

}  // namespace fitz::checker::detail
