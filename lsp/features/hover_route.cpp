// Route hover (hover_route.h): method and template, guard, middleware, feature flag and one
// line per parameter binding, all from Analysis::program.service.
#include "lsp/features/hover_route.h"

#include <fmt/format.h>

namespace fitz::lsp {

namespace {

std::string binding_text(const checker::ParamBinding& b) {
  switch (b.kind) {
    case checker::BindingKind::Path: return fmt::format("path segment {}", b.path_index + 1);
    case checker::BindingKind::Query:
      return fmt::format("query `{}`{}", b.key, b.optional || b.has_default ? " (optional)" : "");
    case checker::BindingKind::Header: return fmt::format("header `{}`{}", b.key, b.optional ? " (optional)" : "");
    case checker::BindingKind::Cookie:
      return fmt::format("{}cookie `{}`{}", b.signed_cookie ? "signed " : "", b.key, b.optional ? " (optional)" : "");
    case checker::BindingKind::Request: return "the request";
    case checker::BindingKind::User: return "the authenticated user";
    case checker::BindingKind::Form: return "the body (form or JSON object)";
    case checker::BindingKind::Body: return "the JSON body";
  }
  return "";
}

std::string fn_name(const Analysis& a, checker::FnRef f) {
  const checker::FnInfo& info = a.program.modules[f.module.index].fns[f.fn.index];
  return info.symbol.valid() ? a.program.symbol(info.symbol).name : std::string("?");
}

}  // namespace

std::optional<std::string> route_markdown(const Analysis& a, const SymbolKey& key) {
  if (key.kind != SymbolKey::Kind::Symbol || key.a >= a.program.symbols.size()) return std::nullopt;
  const checker::Symbol& s = a.program.symbols[key.a];
  if (s.kind != checker::SymbolKind::Function || !s.fn.valid()) return std::nullopt;
  const checker::Route* r = a.program.service.route_of(checker::FnRef{s.module, s.fn});
  if (!r) return std::nullopt;
  std::string method(checker::http_method_name(r->method));
  for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string out = fmt::format("**{}** `{}`", method, r->tmpl.text);
  if (r->guard.guarded) {
    std::string need = r->guard.admin ? "admin" : "authenticated";
    for (size_t i = 0; i < r->guard.roles.size(); ++i)
      need += fmt::format("{}`{}`", i == 0 ? "; a role of " : ", ", r->guard.roles[i]);
    out += " · " + need;
  }
  if (!r->feature_flag.empty()) out += fmt::format(" · flag `{}`", r->feature_flag);
  const checker::FnInfo& info = a.program.modules[s.module.index].fns[s.fn.index];
  for (const checker::ParamBinding& b : r->params)
    if (b.param < info.params.size()) out += fmt::format("\n- `{}`: {}", info.params[b.param].name, binding_text(b));
  for (const checker::MiddlewareUse& mw : r->middleware) {
    if (mw.kind == checker::MiddlewareUse::Kind::Cors)
      out += "\n- middleware: CORS";
    else
      out += fmt::format("\n- middleware: `{}` ({})", fn_name(a, mw.fn), checker::middleware_kind_name(mw.kind));
  }
  return out;
}

}  // namespace fitz::lsp
