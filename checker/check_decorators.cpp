// Decorators: the closed set of HTTP, auth, ORM, WebSocket, job, observability and test
// decorators, where each may appear, and their arguments. Route decorators make a function an
// HTTP handler (which may `return STATUS body`).
#include <algorithm>

#include "checker/check_internal.h"

namespace fitz::checker::detail {

namespace {

enum Target : int { kFn = 1, kType = 2, kField = 4 };

struct DecoratorSpec {
  std::string_view name;
  int targets;
  int min_pos;
  int max_pos;  // -1: any number
  std::vector<std::string_view> kwargs;  // {"*"}: any keyword
  bool route = false;
  bool first_is_str = false;  // the first positional argument must be a string literal
};

const std::vector<DecoratorSpec>& specs() {
  static const std::vector<DecoratorSpec> s = {
      {"get", kFn, 1, 1, {}, true, true},
      {"post", kFn, 1, 1, {}, true, true},
      {"put", kFn, 1, 1, {}, true, true},
      {"patch", kFn, 1, 1, {}, true, true},
      {"delete", kFn, 1, 1, {}, true, true},
      {"server", kFn, 0, 2, {"port", "host", "docs", "api_version", "ws_heartbeat_secs", "shutdown_timeout_secs",
                             "observability", "prometheus"}},
      {"test", kFn, 0, 0, {}},
      {"middleware", kFn, 1, 1, {}},
      {"authenticated", kFn, 0, 0, {}},
      {"admin", kFn, 0, 0, {}},
      {"requires", kFn, 1, -1, {}, false, true},
      {"flag", kFn, 1, 1, {}, false, true},
      {"trace", kFn, 0, 0, {"name"}},
      {"metric", kFn, 0, 0, {"name"}},
      {"header", kFn, 0, 0, {"name", "into"}},
      {"ws", kFn, 1, 1, {}, false, true},
      {"cron", kFn, 1, 1, {"tz", "retry", "catch_up", "store"}, false, true},
      {"background", kFn, 0, 0, {"store", "retry", "catch_up"}},
      {"auth_provider", kFn, 0, 0, {}},
      {"healthz", kFn, 0, 0, {}},
      {"readyz", kFn, 0, 0, {}},
      {"command", kFn, 0, 1, {"desc"}, false, true},
      {"arg", kFn, 1, 1, {"help", "short"}, false, true},
      {"bench", kFn, 0, 1, {"*"}},
      {"table", kType, 1, 1, {}, false, true},
      {"renamed_from", kType | kField, 1, 1, {}, false, true},
      {"index", kType | kField, 0, 1, {"unique", "name", "where_", "using", "expression"}},
      {"unique", kType | kField, 0, -1, {"name"}},
      {"check_constraint", kType | kField, 1, 1, {"name"}, false, true},
      {"primary", kField, 0, 0, {}},
      {"db_default", kField, 0, 1, {}},
      {"hidden", kField, 0, 0, {}},
      {"column", kField, 0, 0, {"name"}},
      {"belongs_to", kField, 1, 1, {"fk", "on_delete", "on_update"}, false, true},
      {"has_many", kField, 1, 1, {"via", "on_delete"}, false, true},
      {"has_one", kField, 1, 1, {"via", "on_delete"}, false, true},
      {"example", kField, 1, 1, {}},
  };
  return s;
}

const DecoratorSpec* find_spec(std::string_view name) {
  for (const DecoratorSpec& s : specs())
    if (s.name == name) return &s;
  return nullptr;
}

std::string_view target_name(int t) { return t == kFn ? "a function" : t == kType ? "a type" : "a field"; }

}  // namespace

bool Checker::check_decorator(const Decorator& d, int target, const FnDecl* fn) {
  const DecoratorSpec* spec = find_spec(d.name.text);
  if (!spec) {
    Diagnostic& diag = error(DiagKind::UnknownDecorator, d.name.span, fmt::format("unknown decorator `{}`", d.name.text));
    static constexpr std::string_view kRouteish[] = {"route", "router", "endpoint", "http", "head", "options", "request"};
    if (std::find(std::begin(kRouteish), std::end(kRouteish), d.name.text) != std::end(kRouteish)) {
      diag.with_hint("routes are declared with @get, @post, @put, @patch or @delete, e.g. `@get(\"/items/{id}\")`");
    } else {
      std::vector<std::string_view> names;
      for (const DecoratorSpec& s : specs()) names.push_back(s.name);
      if (auto c = closest(d.name.text, names))
        diag.with_hint(fmt::format("did you mean `@{}`?", *c)).with_fix(d.name.span, *c);
    }
    return false;
  }
  if (!(spec->targets & target)) {
    std::string where;
    for (int t : {kFn, kType, kField})
      if (spec->targets & t) where += std::string(where.empty() ? "" : " or ") + std::string(target_name(t));
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
    bool known = std::find(spec->kwargs.begin(), spec->kwargs.end(), a.name->text) != spec->kwargs.end() ||
                 (spec->kwargs.size() == 1 && spec->kwargs[0] == "*");
    if (!known) {
      Diagnostic& diag = error(DiagKind::DecoratorArguments, a.name->span,
                               fmt::format("`@{}` has no argument named `{}`", d.name.text, a.name->text));
      if (auto c = closest(a.name->text, spec->kwargs)) diag.with_hint(fmt::format("did you mean `{}`?", *c));
    }
    seen.push_back(a.name->text);
  }
  if (positional < spec->min_pos || (spec->max_pos >= 0 && positional > spec->max_pos)) {
    std::string expect = spec->max_pos < 0 ? fmt::format("at least {}", spec->min_pos)
                         : spec->min_pos == spec->max_pos ? fmt::format("{}", spec->min_pos)
                                                          : fmt::format("{} to {}", spec->min_pos, spec->max_pos);
    error(DiagKind::DecoratorArguments, d.name.span,
          fmt::format("`@{}` takes {} positional argument{}, received {}", d.name.text, expect,
                      expect == "1" ? "" : "s", positional));
    return false;
  }
  if (spec->first_is_str && !d.args.empty() && !d.args[0].name) {
    const Expr& first = ast_->get(d.args[0].value);
    auto* s = std::get_if<StrLit>(&first.data);
    if (!s) {
      error(DiagKind::DecoratorArguments, first.span,
            fmt::format("the first argument of `@{}` must be a string literal", d.name.text));
      return false;
    }
    if (spec->route || d.name.text == "ws") {
      std::string path;
      for (const StrPart& p : s->parts)
        path += p.is_hole() ? "{" + std::string(text(span_of(p.hole))) + "}" : p.text;
      if (path.empty() || path[0] != '/') {
        error(DiagKind::RoutePath, first.span, fmt::format("the path of `@{}` must start with `/`", d.name.text))
            .with_fix(Span{first.span.file, first.span.begin + 1, first.span.begin + 1}, "/");
      } else if (fn) {
        // Every `{name}` placeholder (path or query) must name a parameter of the handler.
        size_t pos = 0;
        while ((pos = path.find('{', pos)) != std::string::npos) {
          size_t end = path.find('}', pos);
          if (end == std::string::npos) break;
          std::string_view param = std::string_view(path).substr(pos + 1, end - pos - 1);
          bool found = std::any_of(fn->params.begin(), fn->params.end(),
                                   [&](const Param& p) { return p.name.text == param; });
          if (!found)
            error(DiagKind::RoutePath, first.span,
                  fmt::format("route parameter `{{{}}}` names no parameter of `{}`", param,
                              fn->name ? fn->name->text : std::string_view("the handler")));
          pos = end + 1;
        }
      }
    }
  }
  if (d.name.text == "server") {
    if (any_server_)
      error(DiagKind::DuplicateServer, d.name.span, "only one `@server` is allowed in a program");
    any_server_ = true;
    for (size_t i = 0; i < d.args.size(); ++i) {
      const DecoratorArg& a = d.args[i];
      bool is_port = (a.name && a.name->text == "port") || (!a.name && i == 0);
      if (!is_port) continue;
      if (auto* lit = std::get_if<IntLit>(&ast_->get(a.value).data))
        if (lit->value < 1 || lit->value > 65535)
          error(DiagKind::DecoratorArguments, span_of(a.value),
                fmt::format("the port of `@server` must be between 1 and 65535, received {}", lit->value));
    }
  }
  if (d.name.text == "test" && fn && !fn->params.empty())
    error(DiagKind::TestSignature, fn->params.front().span, "an `@test` function takes no parameters");
  return true;
}

void Checker::check_decorators_fn(const FnDecl& fn, bool is_method) {
  if (is_method) return;  // decorators on methods are a syntax error (reported by the parser)
  const Decorator* route = nullptr;
  for (const Decorator& d : fn.decorators) {
    if (!check_decorator(d, kFn, &fn)) continue;
    const DecoratorSpec* spec = find_spec(d.name.text);
    if (spec && spec->route) {
      if (route)
        error(DiagKind::DecoratorPlacement, d.name.span,
              fmt::format("a handler has one route; `@{}` conflicts with `@{}`", d.name.text, route->name.text))
            .with_label(route->name.span, "first route here");
      route = &d;
    }
  }
  for (const Decorator& d : fn.decorators)
    if (d.name.text == "command") check_command(fn, d);
  if (route) {
    tir_->fns[static_cast<size_t>(&fn - ast_->fns.data())].is_handler = true;
    check_handler_binding(fn, *route);
  }
}

void Checker::check_decorators_type(const TypeDecl& t) {
  for (const Decorator& d : t.decorators) check_decorator(d, kType, nullptr);
}

void Checker::check_decorators_field(const FieldDecl& f) {
  for (const Decorator& d : f.decorators) check_decorator(d, kField, nullptr);
}

}  // namespace fitz::checker::detail
