// Jobs: what a `@cron` function may look like (no parameters; returns nothing or a Result,
// since nobody receives its value) and what `spawn` accepts (a direct call to a `@background`
// function, whose arguments are evaluated at once and whose call runs later).
#include "checker/check_internal.h"
#include "checker/decorators.h"

namespace fitz::checker::detail {

void Checker::check_job_fn(FnId id) {
  const FnDecl& d = ast_->get(id);
  const FnInfo& info = tir_->fns[id.index];
  for (const Decorator& dec : d.decorators) {
    if (!is_decorator(dec, DecoratorKind::Cron)) continue;
    if (!d.params.empty())
      error(DiagKind::JobSignature, d.params.front().span, "a `@cron` function takes no parameters")
          .with_hint("read what the job needs from the database or from top-level values");
    if (!info.return_inferred && info.return_type.valid() && d.return_type.valid()) {
      TypeKind k = types_->kind(info.return_type);
      if (k != TypeKind::Null && k != TypeKind::Result && k != TypeKind::Any && k != TypeKind::Error)
        error(DiagKind::JobSignature, ast_->get(d.return_type).span,
              fmt::format("a `@cron` function returns nothing or a `Result`, not `{}`", show(info.return_type)));
    }
  }
}

void Checker::check_spawn_arg(const CallExpr& c, Span at) {
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
  for (const Decorator& d : decl.decorators)
    if (is_decorator(d, DecoratorKind::Background)) return;
  error(DiagKind::SpawnCall, span_of(arg),
        fmt::format("`spawn` only runs `@background` functions; `{}` is not one", target.name))
      .with_hint(fmt::format("add `@background` above `fn {}`", target.name));
  (void)at;
}

}  // namespace fitz::checker::detail
