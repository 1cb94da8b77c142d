#include "frontend/decorator_args.h"

namespace fitz::frontend {

const Expr* decorator_kwarg(const Ast& ast, const Decorator& d, std::string_view name) {
  for (const DecoratorArg& a : d.args)
    if (a.name && a.name->text == name) return &ast.get(a.value);
  return nullptr;
}

const Expr* decorator_first_positional(const Ast& ast, const Decorator& d) {
  return d.args.empty() || d.args[0].name ? nullptr : &ast.get(d.args[0].value);
}

std::string string_literal_text(const Expr& e) {
  std::string out;
  if (auto* s = std::get_if<StrLit>(&e.data))
    for (const StrPart& p : s->parts)
      if (!p.is_hole()) out += p.text;
  return out;
}

std::optional<std::string> plain_string_literal(const Ast& ast, ExprId e) {
  if (!e.valid()) return std::nullopt;
  auto* s = std::get_if<StrLit>(&ast.get(e).data);
  if (!s) return std::nullopt;
  std::string out;
  for (const StrPart& p : s->parts) {
    if (p.is_hole()) return std::nullopt;
    out += p.text;
  }
  return out;
}

}  // namespace fitz::frontend
