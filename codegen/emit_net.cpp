// Calls of the outbound `http` module that do not go through Any: `r.json()` decodes with the
// JsonDecode of the type the checker bound to its `T` (the declared type it flows into).
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

bool is_json_target_call(const checker::Builtins& builtins, const CallInfo& ci) {
  return ci.kind == CallKind::BuiltinMethod && builtins.entry(ci.builtin).rule == checker::BuiltinRule::JsonTarget &&
         !ci.type_args.empty();
}

}  // namespace

std::optional<std::string> Gen::net_call(ExprId id, const CallExpr& c, const CallInfo& ci) {
  if (!is_json_target_call(*prog_.builtins, ci)) return std::nullopt;
  auto* fe = std::get_if<FieldExpr>(&ast_->get(c.callee).data);
  if (!fe) return std::nullopt;
  net_ = true;
  return fmt::format("fitz::net::json_as<{}>({}, {})", cpp_type(ci.type_args[0]), expr_as(fe->object, types_.any()),
                     pos(ast_->get(id).span));
}

std::vector<TypeId> Gen::json_targets() const {
  std::vector<TypeId> out;
  for (const auto& m : prog_.modules)
    for (const CallInfo& ci : m.calls)
      if (is_json_target_call(*prog_.builtins, ci) &&
          std::find(out.begin(), out.end(), ci.type_args[0]) == out.end())
        out.push_back(ci.type_args[0]);
  return out;
}

}  // namespace fitz::codegen
