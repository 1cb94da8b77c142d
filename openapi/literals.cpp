// Constant values read from the AST: field defaults, `@example` values and query defaults in
// schemas (the expressions the checker points at).
#include <cmath>

#include "openapi/internal.h"

namespace fitz::openapi::detail {

std::optional<Json> literal_value(const frontend::Ast& ast, ExprId e) {
  if (!e.valid() || e.index >= ast.exprs.size()) return std::nullopt;
  const frontend::ExprData& data = ast.get(e).data;
  if (auto* i = std::get_if<frontend::IntLit>(&data)) return Json(i->value);
  if (auto* f = std::get_if<frontend::FloatLit>(&data))
    return std::isfinite(f->value) ? std::optional<Json>(Json(f->value)) : std::nullopt;
  if (auto* b = std::get_if<frontend::BoolLit>(&data)) return Json(b->value);
  if (std::holds_alternative<frontend::NullLit>(data)) return Json(nullptr);
  if (auto* s = std::get_if<frontend::StrLit>(&data)) {
    std::string text;
    for (const frontend::StrPart& p : s->parts) {
      if (p.is_hole()) return std::nullopt;
      text += p.text;
    }
    return Json(text);
  }
  if (auto* u = std::get_if<frontend::UnaryExpr>(&data)) {
    if (u->op != frontend::UnaryOp::Neg) return std::nullopt;
    std::optional<Json> v = literal_value(ast, u->operand);
    if (!v) return std::nullopt;
    if (v->is_number_integer()) return Json(-v->get<int64_t>());
    if (v->is_number_float()) return Json(-v->get<double>());
    return std::nullopt;
  }
  if (auto* l = std::get_if<frontend::ListExpr>(&data)) {
    Json out = Json::array();
    for (ExprId elem : l->elems) {
      std::optional<Json> v = literal_value(ast, elem);
      if (!v) return std::nullopt;
      out.push_back(std::move(*v));
    }
    return out;
  }
  if (auto* m = std::get_if<frontend::MapExpr>(&data)) {
    Json out = Json::object();
    for (const frontend::MapEntry& entry : m->entries) {
      std::optional<Json> k = literal_value(ast, entry.key);
      std::optional<Json> v = literal_value(ast, entry.value);
      if (!k || !k->is_string() || !v) return std::nullopt;
      out[k->get<std::string>()] = std::move(*v);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace fitz::openapi::detail
