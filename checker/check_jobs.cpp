// Jobs: what a `@cron` or `@every` function may look like (no parameters; returns nothing or a Result,
// since nobody receives its value) and what `spawn` accepts (a direct call to a `@background`
// function, whose arguments are evaluated at once and whose call runs later).
#include "checker/check_internal.h"
#include "checker/decorators.h"
#include "frontend/decorator_args.h"

#include <array>

#include "fitz/cron_expr.h"

namespace fitz::checker::detail {

namespace {

// The text of a string literal without holes.
std::optional<std::string> plain_text(const StrLit& s) {
  std::string out;
  for (const StrPart& p : s.parts) {
    if (p.is_hole()) return std::nullopt;
    out += p.text;
  }
  return out;
}

}  // namespace

// `retry={max: 3, backoff: "exponential", initial_secs: 5, max_secs: 300}`: every key optional,
// each known and of its type; literal values also within range. A policy held elsewhere (a Map
// variable) is checked for its type here and for its keys when the job starts.
void Checker::check_retry_policy(const Decorator& dec) {
  for (const DecoratorArg& a : dec.args) {
    if (!a.name || a.name->text != "retry") continue;
    auto* map = std::get_if<MapExpr>(&expr(a.value).data);
    if (!map) {
      TypeId t = tir_->type_of(a.value);
      TypeKind k = types_->kind(t);
      if (k != TypeKind::Map && k != TypeKind::Any && k != TypeKind::Error && k != TypeKind::Null)
        error(DiagKind::JobRetryPolicy, span_of(a.value), fmt::format("`retry=` takes a map, not `{}`", show(t)))
            .with_hint("write `retry={max: 3, backoff: \"exponential\", initial_secs: 5, max_secs: 300}`");
      continue;
    }
    static constexpr std::array<std::string_view, 4> kKeys = {"max", "backoff", "initial_secs", "max_secs"};
    for (const MapEntry& en : map->entries) {
      std::string key;
      if (auto* n = std::get_if<NameRef>(&expr(en.key).data))
        key = std::string(n->name.text);
      else if (auto* s = std::get_if<StrLit>(&expr(en.key).data))
        key = plain_text(*s).value_or("");
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        error(DiagKind::JobRetryPolicy, span_of(en.key),
              key.empty() ? std::string("a `retry=` key is a name such as `max`")
                          : fmt::format("`retry=` has no option `{}`", key))
            .with_hint("the options are `max`, `backoff`, `initial_secs` and `max_secs`");
        continue;
      }
      TypeId t = tir_->type_of(en.value);
      TypeKind k = types_->kind(t);
      if (k == TypeKind::Error || k == TypeKind::Any) continue;
      if (key == "backoff") {
        auto* s = std::get_if<StrLit>(&expr(en.value).data);
        std::optional<std::string> text = s ? plain_text(*s) : std::nullopt;
        if (k != TypeKind::Str)
          error(DiagKind::JobRetryPolicy, span_of(en.value), fmt::format("`retry.backoff` is a `Str`, not `{}`", show(t)))
              .with_hint("use \"exponential\", \"linear\" or \"constant\"");
        else if (text && *text != "exponential" && *text != "linear" && *text != "constant")
          error(DiagKind::JobRetryPolicy, span_of(en.value), fmt::format("`retry.backoff` has no kind `{}`", *text))
              .with_hint("use \"exponential\", \"linear\" or \"constant\"");
        continue;
      }
      int64_t min = key == "max" ? 0 : 1;
      if (k != TypeKind::Int) {
        error(DiagKind::JobRetryPolicy, span_of(en.value), fmt::format("`retry.{}` is an `Int`, not `{}`", key, show(t)));
        continue;
      }
      const Expr& v = expr(en.value);
      std::optional<int64_t> lit;
      if (auto* i = std::get_if<IntLit>(&v.data)) lit = i->value;
      if (auto* u = std::get_if<UnaryExpr>(&v.data); u && u->op == UnaryOp::Neg)
        if (auto* i = std::get_if<IntLit>(&expr(u->operand).data)) lit = -i->value;
      if (lit && *lit < min)
        error(DiagKind::JobRetryPolicy, span_of(en.value),
              fmt::format("`retry.{}` must be at least {}, not {}", key, min, *lit));
    }
  }
}

void Checker::check_job_fn(FnId id) {
  const FnDecl& d = ast_->get(id);
  const FnInfo& info = tir_->fns[id.index];
  for (const Decorator& dec : d.decorators) {
    if (is_decorator(dec, DecoratorKind::Background)) {
      check_retry_policy(dec);
      for (const DecoratorArg& a : dec.args)
        if (a.name && a.name->text == "catch_up")
          error(DiagKind::BackgroundCatchUp, a.name->span, "`@background(catch_up=...)` is not supported yet")
              .with_hint("remove it: jobs left unfinished by a restart are not run again; `@cron(catch_up=true)` is "
                         "supported");
    }
    bool every = is_decorator(dec, DecoratorKind::Every);
    if (!every && !is_decorator(dec, DecoratorKind::Cron)) continue;
    check_retry_policy(dec);
    const char* which = every ? "an `@every`" : "a `@cron`";
    if (every) {
      if (!dec.args.empty() && !dec.args[0].name && !frontend::every_interval_ms(*ast_, dec))
        error(DiagKind::EveryInterval, span_of(dec.args[0].value),
              "the `@every` interval is a number literal of seconds, at least 0.001 and at most a year")
            .with_hint("write the seconds themselves, such as `@every(30)` or `@every(0.5)`");
      if (has_decorator(d.decorators, DecoratorKind::Cron))
        error(DiagKind::EveryInterval, dec.span, "a function runs either `@every` or on a `@cron` schedule, not both")
            .with_hint("keep one of the two decorators");
    }
    // The schedule is parsed here, by the job runner's own parser, rather than at start-up.
    if (!every && !dec.args.empty() && !dec.args[0].name) {
      ExprId at = dec.args[0].value;
      auto* s = std::get_if<StrLit>(&expr(at).data);
      std::optional<std::string> text = s ? plain_text(*s) : std::nullopt;
      if (!s) {
        // Not a literal: reported with the decorator's arguments.
      } else if (!text) {
        error(DiagKind::CronExpression, span_of(at), "the `@cron` schedule is a string literal")
            .with_hint("write the expression itself, such as `@cron(\"0 3 * * *\")`");
      } else if (jobs::CronParse p = jobs::parse_cron(*text); !p.schedule) {
        error(DiagKind::CronExpression, span_of(at), fmt::format("invalid cron expression `{}`: {}", *text, p.error))
            .with_hint("5 fields (min hour day month weekday), 6 with seconds first, 7 with a year last, or an "
                       "alias such as `@daily`");
      }
    }
    if (!d.params.empty())
      error(DiagKind::JobSignature, d.params.front().span, fmt::format("{} function takes no parameters", which))
          .with_hint("read what the job needs from the database or from top-level values");
    if (!info.return_inferred && info.return_type.valid() && d.return_type.valid()) {
      TypeKind k = types_->kind(info.return_type);
      if (k != TypeKind::Null && k != TypeKind::Result && k != TypeKind::Any && k != TypeKind::Error)
        error(DiagKind::JobSignature, ast_->get(d.return_type).span,
              fmt::format("{} function returns nothing or a `Result`, not `{}`", which, show(info.return_type)));
    }
  }
}

void Checker::check_spawn_arg(ExprId spawn, const CallExpr& c) {
  if (c.args.size() != 1) return;  // the argument count is reported with the call
  ExprId arg = c.args[0].value;
  const char* hint = "write `spawn(f(args))` where `f` is declared with `@background`";
  auto* call = std::get_if<CallExpr>(&expr(arg).data);
  const CallInfo* ci = call ? tir_->call_of(arg) : nullptr;
  if (!ci || ci->kind != CallKind::Function) {
    error(DiagKind::SpawnCall, span_of(arg), "`spawn` takes a direct call to a `@background` function").with_hint(hint);
    return;
  }
  SymbolId s = ci->symbol;
  while (s.valid() && sym(s).kind == SymbolKind::Import) s = sym(s).target;
  if (!s.valid() || !sym(s).fn.valid()) return;
  const Symbol& target = sym(s);
  const FnDecl& decl = graph_.get(target.module).ast.get(target.fn);
  if (has_decorator(decl.decorators, DecoratorKind::Background)) {
    tir_->spawn_targets.push_back(SpawnTarget{spawn, FnRef{target.module, target.fn}});
    return;
  }
  error(DiagKind::SpawnCall, span_of(arg),
        fmt::format("`spawn` only runs `@background` functions; `{}` is not one", target.name))
      .with_hint(fmt::format("add `@background` above `fn {}`", target.name));
}

}  // namespace fitz::checker::detail
