// `@command` functions: the program's command line. Their parameters must have a command-line
// form (Int, Float, Str, Bool, `T?` flags, a variadic last parameter), their result must say
// how the program exits (Int is the exit code, Null is 0, Result's Err is 1), `@arg` must name
// one of their parameters, `@flag`/`@arg` on a parameter must fit it (a flag has a default, a
// positional has none), and two commands may not share a name.
#include <algorithm>
#include <optional>

#include "checker/check_internal.h"
#include "checker/decorators.h"
#include "frontend/decorator_args.h"

namespace fitz::checker::detail {

namespace {

bool scalar(TypeKind k) { return k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::Str || k == TypeKind::Bool; }

}  // namespace

std::string Checker::command_name(const FnDecl& fn, const Decorator& d) const {
  if (const Expr* first = frontend::decorator_first_positional(*ast_, d))
    if (std::holds_alternative<StrLit>(first->data)) return frontend::string_literal_text(*first);
  return fn.name ? std::string(fn.name->text) : std::string();
}

void Checker::check_command(const FnDecl& fn, const Decorator& command) {
  const FnInfo& info = tir_->fns[static_cast<size_t>(&fn - ast_->fns.data())];
  std::string_view fname = fn.name ? fn.name->text : std::string_view("the command");

  std::string name = command_name(fn, command);
  // Per module: an incremental re-check sees one module, and must report what a full check does.
  for (const auto& [module, other, span] : commands_)
    if (module == mod_ && other == name)
      error(DiagKind::CommandSignature, command.name.span, fmt::format("two commands are named `{}`", name))
          .with_label(span, "first declared here");
  commands_.emplace_back(mod_, name, command.name.span);

  for (size_t i = 0; i < info.params.size() && i < fn.params.size(); ++i) {
    const ParamInfo& p = info.params[i];
    TypeId t = p.type;
    TypeKind k = types_->kind(t);
    bool ok;
    if (p.variadic) {
      ok = k == TypeKind::List && scalar(types_->kind(types_->elem(t))) && types_->kind(types_->elem(t)) != TypeKind::Bool;
    } else if (k == TypeKind::Nullable) {
      ok = scalar(types_->kind(types_->inner(t))) && p.has_default;
    } else {
      ok = scalar(k);
    }
    if (k == TypeKind::Error) continue;
    if (!ok) {
      auto& d = error(DiagKind::CommandSignature, fn.params[i].span,
                      fmt::format("the parameter `{}` of command `{}` has type `{}`, which has no command-line form",
                                  p.name, fname, show(t)));
      d.with_hint(k == TypeKind::Nullable ? "give the optional flag a default: `= null`"
                                          : "use Int, Float, Str, Bool, `T?` with a default, or a variadic `...rest: Str`");
    }
  }

  // An unannotated result is inferred later, from the body; codegen exits 0 unless it is Int or
  // a Result.
  TypeId r = info.return_type;
  TypeKind rk = r.valid() ? types_->kind(r) : TypeKind::Null;
  if (fn.return_type.valid() && rk != TypeKind::Int && rk != TypeKind::Null && rk != TypeKind::Result && rk != TypeKind::Never &&
      rk != TypeKind::Error)
    error(DiagKind::CommandSignature, fn.name ? fn.name->span : fn.span,
          fmt::format("command `{}` returns `{}`; a command returns Int (the exit code), nothing, or a Result", fname,
                      show(r)));

  // A parameter is described once: by a function-level `@arg("name", ...)` or by a decorator
  // on the parameter itself (`@flag(short=, help=)` on a flag, `@arg(help=)` on a positional).
  std::vector<std::optional<Span>> described(info.params.size());
  std::vector<std::pair<char, Span>> shorts;
  auto describe = [&](size_t i, Span at) {
    if (described[i]) {
      error(DiagKind::CommandSignature, at, fmt::format("the parameter `{}` is described twice", info.params[i].name))
          .with_label(*described[i], "first described here");
      return false;
    }
    described[i] = at;
    return true;
  };
  auto check_short = [&](const Expr* sh, const ParamInfo& p) {
    if (!sh) return;
    bool lit = std::holds_alternative<StrLit>(sh->data);
    std::string letter = frontend::string_literal_text(*sh);
    bool letter_ok = lit && letter.size() == 1 && std::isalpha(static_cast<unsigned char>(letter[0])) && letter != "h";
    if (!letter_ok) {
      error(DiagKind::CommandSignature, sh->span, "`short` is one letter other than `h` (which is help's)");
    } else if (!p.has_default) {
      error(DiagKind::CommandSignature, sh->span,
            fmt::format("`{}` is a positional argument; only flags (parameters with a default) have a short form", p.name));
    } else {
      for (const auto& [c, first] : shorts)
        if (c == letter[0]) {
          error(DiagKind::CommandSignature, sh->span, fmt::format("two flags of `{}` have the short form `-{}`", fname, c))
              .with_label(first, "first given here");
          return;
        }
      shorts.emplace_back(letter[0], sh->span);
    }
  };
  auto check_help = [&](const Decorator& d) {
    if (const Expr* h = frontend::decorator_kwarg(*ast_, d, "help"))
      if (!std::holds_alternative<StrLit>(h->data) ||
          std::any_of(std::get<StrLit>(h->data).parts.begin(), std::get<StrLit>(h->data).parts.end(),
                      [](const StrPart& part) { return part.is_hole(); }))
        error(DiagKind::CommandSignature, h->span, "`help` is a string literal without interpolation");
  };

  for (const Decorator& d : fn.decorators) {
    if (!is_decorator(d, DecoratorKind::ArgFn)) continue;
    const Expr* first = frontend::decorator_first_positional(*ast_, d);
    if (!first || !std::holds_alternative<StrLit>(first->data)) continue;  // reported by the decorator table
    std::string pname = frontend::string_literal_text(*first);
    auto it = std::find_if(info.params.begin(), info.params.end(), [&](const ParamInfo& p) { return p.name == pname; });
    if (it == info.params.end()) {
      error(DiagKind::CommandSignature, first->span,
            fmt::format("`@arg(\"{}\")` names no parameter of `{}`", pname, fname));
      continue;
    }
    if (!describe(static_cast<size_t>(it - info.params.begin()), first->span)) continue;
    check_help(d);
    check_short(frontend::decorator_kwarg(*ast_, d, "short"), *it);
  }

  for (size_t i = 0; i < info.params.size() && i < fn.params.size(); ++i) {
    const ParamInfo& p = info.params[i];
    for (const Decorator& d : fn.params[i].decorators) {
      bool flag = is_decorator(d, DecoratorKind::FlagParam);
      if (!flag && !is_decorator(d, DecoratorKind::ArgParam)) continue;  // reported by the decorator table
      if (!describe(i, d.name.span)) continue;
      if (flag && !p.has_default) {
        error(DiagKind::CommandSignature, d.name.span,
              fmt::format("`@flag` describes a flag, but `{}` has no default, so it is a positional argument", p.name))
            .with_hint("use `@arg(help=...)`, or give the parameter a default to make it a flag");
        continue;
      }
      if (!flag && p.has_default) {
        error(DiagKind::CommandSignature, d.name.span,
              fmt::format("`@arg` describes a positional argument, but `{}` has a default, so it is a flag", p.name))
            .with_hint("use `@flag(short=..., help=...)`");
        continue;
      }
      check_help(d);
      if (flag) check_short(frontend::decorator_kwarg(*ast_, d, "short"), p);
    }
  }
}

}  // namespace fitz::checker::detail
