#include "frontend/decorator_args.h"

#include <cstdint>

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

std::optional<int64_t> every_interval_ms(const Ast& ast, const Decorator& d) {
  const Expr* e = decorator_first_positional(ast, d);
  if (!e) return std::nullopt;
  double secs;
  if (auto* i = std::get_if<IntLit>(&e->data)) secs = static_cast<double>(i->value);
  else if (auto* f = std::get_if<FloatLit>(&e->data)) secs = f->value;
  else return std::nullopt;
  constexpr double kYear = 366.0 * 86400.0;
  if (!(secs >= 0.001) || secs > kYear) return std::nullopt;  // also refuses NaN
  return static_cast<int64_t>(secs * 1000.0 + 0.5);
}

}  // namespace fitz::frontend
