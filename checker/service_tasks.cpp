// The rest of the service model: WebSocket endpoints, cron and background jobs, commands. Each
// module's check already reported what is wrong with them (check_ws.cpp, check_jobs.cpp,
// check_cli.cpp); this pass reads the checked decorators into the model, skips what was
// reported, and reports only what needs the whole program (a guarded endpoint's user type).
#include <fmt/format.h>

#include "checker/decorators.h"
#include "checker/service_build.h"
#include "frontend/decorator_args.h"

namespace fitz::checker::detail {

namespace {

using namespace frontend;

std::optional<int64_t> literal_int(const Ast& ast, ExprId e) {
  const Expr& x = ast.get(e);
  if (auto* i = std::get_if<IntLit>(&x.data)) return i->value;
  if (auto* u = std::get_if<UnaryExpr>(&x.data); u && u->op == UnaryOp::Neg)
    if (auto* i = std::get_if<IntLit>(&ast.get(u->operand).data)) return -i->value;
  return std::nullopt;
}

ExprId kwarg(const Decorator& d, std::string_view name) {
  for (const DecoratorArg& a : d.args)
    if (a.name && a.name->text == name) return a.value;
  return ExprId();
}

// `retry=`: a map literal whose keys and values are all literals is decided now; anything else
// is left to the runtime (the checker already rejected literal mistakes).
JobRetry job_retry(const Ast& ast, const Decorator& d) {
  JobRetry r;
  ExprId v = kwarg(d, "retry");
  if (!v.valid()) return r;
  auto* map = std::get_if<MapExpr>(&ast.get(v).data);
  if (!map) {
    r.value = v;
    return r;
  }
  RetryPolicy p;
  for (const MapEntry& en : map->entries) {
    std::string key;
    if (auto* n = std::get_if<NameRef>(&ast.get(en.key).data)) key = std::string(n->name.text);
    else key = plain_string_literal(ast, en.key).value_or("");
    if (key == "backoff") {
      std::optional<std::string> b = plain_string_literal(ast, en.value);
      if (b == "exponential") p.backoff = RetryPolicy::Backoff::Exponential;
      else if (b == "linear") p.backoff = RetryPolicy::Backoff::Linear;
      else if (b == "constant") p.backoff = RetryPolicy::Backoff::Constant;
      else return JobRetry{std::nullopt, v};
      continue;
    }
    std::optional<int64_t> n = literal_int(ast, en.value);
    if (!n) return JobRetry{std::nullopt, v};
    if (key == "max") p.max = *n;
    else if (key == "initial_secs") p.initial_secs = *n;
    else if (key == "max_secs") p.max_secs = *n;
    else return JobRetry{std::nullopt, v};
  }
  r.policy = p;
  return r;
}

// The function a `@middleware(f)` argument names (through imports), when it names one.
std::optional<FnRef> named_fn(const TypedProgram& prog, const Ast& ast, const ModuleTir& tir, ExprId arg) {
  if (!std::holds_alternative<NameRef>(ast.get(arg).data)) return std::nullopt;
  const Ref& r = tir.ref_of(arg);
  if (r.kind != RefKind::Symbol) return std::nullopt;
  SymbolId s(r.id);
  while (s.valid() && prog.symbol(s).kind == SymbolKind::Import) s = prog.symbol(s).target;
  if (!s.valid() || prog.symbol(s).kind != SymbolKind::Function || !prog.symbol(s).fn.valid()) return std::nullopt;
  return FnRef{prog.symbol(s).module, prog.symbol(s).fn};
}

Guard guard_of(const Ast& ast, const FnDecl& d) {
  Guard g;
  for (const Decorator& dec : d.decorators) {
    if (is_decorator(dec, DecoratorKind::Authenticated)) {
      g.guarded = true;
    } else if (is_decorator(dec, DecoratorKind::Admin)) {
      g.guarded = g.admin = true;
    } else if (is_decorator(dec, DecoratorKind::Requires)) {
      g.guarded = true;
      for (const DecoratorArg& a : dec.args)
        if (auto role = plain_string_literal(ast, a.value)) g.roles.push_back(*role);
    } else {
      continue;
    }
    g.at = dec.span;
  }
  return g;
}

// The user type of the program's `@auth_provider` (the Ok type of its Result), when there is
// exactly one with that shape; the HTTP half reports the others.
std::optional<TypeId> provider_user(const ServiceBuild& b) {
  if (b.program.service.auth) return b.program.service.auth->user;
  const TypeStore& types = *b.program.types;
  std::optional<TypeId> user;
  int count = 0;
  for (ModuleId m : b.graph.init_order) {
    const Ast& ast = b.graph.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f || !has_decorator(ast.get(f->fn).decorators, DecoratorKind::AuthProvider)) continue;
      ++count;
      TypeId r = b.program.modules[m.index].fns[f->fn.index].return_type;
      if (r.valid() && types.kind(r) == TypeKind::Result) user = types.ok(r);
    }
  }
  return count == 1 ? user : std::nullopt;
}

void add_ws(ServiceBuild& b, ModuleId m, FnId fn, const Decorator& ws) {
  const Ast& ast = b.graph.get(m).ast;
  const ModuleTir& tir = b.program.modules[m.index];
  const FnDecl& d = ast.get(fn);
  const FnInfo& info = tir.fns[fn.index];
  const TypeStore& types = *b.program.types;
  if (ws.args.empty() || ws.args[0].name) return;
  std::optional<std::string> path = plain_string_literal(ast, ws.args[0].value);
  if (!path || info.params.empty()) return;  // reported by check_ws.cpp
  TypeId conn = info.params[0].type;
  StructId sid = types.struct_of(conn);
  if (!sid.valid() || !types.struct_info(sid).builtin || types.struct_info(sid).name != "WsConn") return;
  WsEndpoint e;
  e.handler = FnRef{m, fn};
  e.name = d.name ? std::string(d.name->text) : std::string();
  e.path = *path;
  auto args = types.args(conn);
  e.in = args.empty() ? b.program.types->any() : args[0];
  e.out = args.size() > 1 ? args[1] : e.in;
  e.bytes = types.kind(e.in) == TypeKind::Bytes;
  e.async = info.is_async;
  e.guard = guard_of(ast, d);
  e.at = ws.span;
  if (e.guard.guarded && info.params.size() == 2) {
    // The second parameter receives the user: it must be the provider's user type, which only
    // the whole program knows.
    std::optional<TypeId> user = provider_user(b);
    if (user && info.params[1].type == *user) {
      e.guard.user_param = 1;
    } else if (user && types.kind(info.params[1].type) != TypeKind::Error) {
      b.diags
          .error(DiagKind::WsEndpoint, d.params.size() > 1 ? d.params[1].span : d.span,
                 fmt::format("the second parameter of guarded `@ws` handler `{}` receives the user, of type `{}`; it is "
                             "typed `{}`",
                             e.name, types.display(*user), types.display(info.params[1].type)))
          .with_hint("give it the `@auth_provider`'s user type");
      return;
    }
  }
  for (const Decorator& dec : d.decorators) {
    if (!is_decorator(dec, DecoratorKind::Middleware) || dec.args.size() != 1 || dec.args[0].name) continue;
    std::optional<FnRef> mw = named_fn(b.program, ast, tir, dec.args[0].value);
    if (!mw) return;  // reported by check_ws.cpp
    MiddlewareUse use;
    use.kind = MiddlewareUse::Kind::Before;
    use.fn = *mw;
    use.at = dec.span;
    e.middleware.push_back(use);
  }
  b.program.service.ws.push_back(std::move(e));
}

void add_cron(ServiceBuild& b, ModuleId m, FnId fn, const Decorator& dec) {
  const Ast& ast = b.graph.get(m).ast;
  const FnDecl& d = ast.get(fn);
  CronJob j;
  j.fn = FnRef{m, fn};
  j.name = d.name ? std::string(d.name->text) : std::string();
  if (is_decorator(dec, DecoratorKind::Every)) {
    std::optional<int64_t> ms = every_interval_ms(ast, dec);
    if (!ms) return;  // reported by check_jobs.cpp
    j.every_ms = *ms;
  } else {
    if (dec.args.empty() || dec.args[0].name) return;
    std::optional<std::string> expr = plain_string_literal(ast, dec.args[0].value);
    if (!expr) return;  // reported by check_jobs.cpp
    j.expr = *expr;
  }
  j.tz = kwarg(dec, "tz");
  j.retry = job_retry(ast, dec);
  j.catch_up = kwarg(dec, "catch_up");
  j.store = kwarg(dec, "store");
  j.async = b.program.modules[m.index].fns[fn.index].is_async;
  j.at = dec.span;
  b.program.service.cron.push_back(std::move(j));
}

void add_background(ServiceBuild& b, ModuleId m, FnId fn, const Decorator& dec) {
  const Ast& ast = b.graph.get(m).ast;
  const FnDecl& d = ast.get(fn);
  BackgroundJob j;
  j.fn = FnRef{m, fn};
  j.name = d.name ? std::string(d.name->text) : std::string();
  j.retry = job_retry(ast, dec);
  j.store = kwarg(dec, "store");
  j.at = dec.span;
  b.program.service.background.push_back(std::move(j));
}

CommandParam::Kind command_kind(TypeKind k) {
  switch (k) {
    case TypeKind::Int: return CommandParam::Kind::Int;
    case TypeKind::Float: return CommandParam::Kind::Float;
    case TypeKind::Bool: return CommandParam::Kind::Bool;
    default: return CommandParam::Kind::Str;
  }
}

void add_command(ServiceBuild& b, ModuleId m, FnId fn, const Decorator& dec) {
  const Ast& ast = b.graph.get(m).ast;
  const FnDecl& d = ast.get(fn);
  const FnInfo& info = b.program.modules[m.index].fns[fn.index];
  const TypeStore& types = *b.program.types;
  const SourceFile& file = b.sources.file(d.span.file);
  Command c;
  c.fn = FnRef{m, fn};
  c.name = d.name ? std::string(d.name->text) : std::string("main");
  if (const Expr* first = decorator_first_positional(ast, dec)) c.name = string_literal_text(*first);
  if (const Expr* desc = decorator_kwarg(ast, dec, "desc")) c.desc = string_literal_text(*desc);
  c.async = info.is_async;
  c.at = dec.span;
  TypeId r = info.return_type;
  TypeKind rk = r.valid() ? types.kind(r) : TypeKind::Null;
  if (rk == TypeKind::Int) c.exit = Command::Exit::Int;
  else if (rk == TypeKind::Result) c.exit = types.kind(types.ok(r)) == TypeKind::Int ? Command::Exit::ResultInt : Command::Exit::Result;
  for (uint32_t i = 0; i < info.params.size(); ++i) {
    const ParamInfo& p = info.params[i];
    CommandParam cp;
    cp.param = i;
    cp.name = p.name;
    TypeId t = p.variadic ? types.elem(p.type) : p.type;
    cp.nullable = types.kind(t) == TypeKind::Nullable;
    if (cp.nullable) t = types.inner(t);
    cp.type = t;
    cp.kind = command_kind(types.kind(t));
    cp.has_default = p.has_default;
    cp.variadic = p.variadic;
    if (i < d.params.size() && d.params[i].default_value.valid()) {
      Span ds = ast.get(d.params[i].default_value).span;
      cp.default_text = std::string(file.text().substr(ds.begin, ds.end - ds.begin));
    }
    // Help and short form: a function-level `@arg("name", ...)`, or `@flag(...)` / `@arg(...)`
    // on the parameter (check_cli.cpp allows one of them per parameter).
    auto describe = [&](const Decorator& x) {
      if (const Expr* h = decorator_kwarg(ast, x, "help")) cp.help = string_literal_text(*h);
      if (const Expr* s = decorator_kwarg(ast, x, "short")) {
        std::string letter = string_literal_text(*s);
        if (letter.size() == 1) cp.short_name = letter[0];
      }
    };
    for (const Decorator& x : d.decorators) {
      const Expr* first = decorator_first_positional(ast, x);
      if (is_decorator(x, DecoratorKind::ArgFn) && first && string_literal_text(*first) == p.name) describe(x);
    }
    if (i < d.params.size())
      for (const Decorator& x : d.params[i].decorators)
        if (is_decorator(x, DecoratorKind::FlagParam) || is_decorator(x, DecoratorKind::ArgParam)) describe(x);
    c.params.push_back(std::move(cp));
  }
  b.program.service.commands.push_back(std::move(c));
}

}  // namespace

void build_task_model(ServiceBuild& b) {
  for (ModuleId m : b.graph.init_order) {
    const Ast& ast = b.graph.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const FnDecl& d = ast.get(f->fn);
      if (const Decorator* ws = find_decorator(d.decorators, DecoratorKind::Ws)) add_ws(b, m, f->fn, *ws);
      if (const Decorator* c = find_decorator(d.decorators, DecoratorKind::Cron)) add_cron(b, m, f->fn, *c);
      else if (const Decorator* e = find_decorator(d.decorators, DecoratorKind::Every)) add_cron(b, m, f->fn, *e);
      if (const Decorator* bg = find_decorator(d.decorators, DecoratorKind::Background)) add_background(b, m, f->fn, *bg);
    }
  }
  // Commands of the program's entry modules only: an imported library's commands are not the
  // program's command line.
  for (ModuleId m : b.graph.roots) {
    const Ast& ast = b.graph.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      for (const Decorator& d : ast.get(f->fn).decorators)
        if (is_decorator(d, DecoratorKind::Command)) add_command(b, m, f->fn, d);
    }
  }
}

}  // namespace fitz::checker::detail
