// Calls: user functions (defaults and variadics filled in here), methods and static methods,
// built-ins from the checker's table, closures and dynamic calls on `Any`.
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

// C++ spellings of built-ins whose Fitz name is a C++ keyword or clashes with a macro.
std::string_view runtime_name(std::string_view fitz_name) {
  if (fitz_name == "assert") return "assert_";
  return fitz_name;
}

}  // namespace

std::string Gen::default_arg(const FnInfo& /*callee_info*/, ModuleId module, FnId fn, uint32_t param) {
  // The default is an expression of the callee's module: emit it in that module's context.
  ModuleId saved_mod = mod_;
  const Ast* saved_ast = ast_;
  const ModuleTir* saved_tir = tir_;
  mod_ = module;
  ast_ = &graph_.get(module).ast;
  tir_ = &prog_.modules[module.index];
  const FnDecl& decl = ast_->get(fn);
  const FnInfo& info = tir_->fns[fn.index];
  std::string code;
  if (param < decl.params.size() && decl.params[param].default_value.valid()) {
    ExprId d = decl.params[param].default_value;
    code = convert_to(expr(d), tir_->type_of(d), info.params[param].type, ast_->get(d).span);
  } else {
    code = cpp_type(info.params[param].type) + "{}";
  }
  mod_ = saved_mod;
  ast_ = saved_ast;
  tir_ = saved_tir;
  return code;
}

std::string Gen::call(ExprId id, const CallExpr& c) {
  const CallInfo* ci = tir_->call_of(id);
  const Expr& callee = ast_->get(c.callee);
  Span at = ast_->get(id).span;
  if (!ci || ci->kind == CallKind::None) {
    result_.unsupported.push_back("an unresolved call");
    return "fitz::Any()";
  }

  auto plain_args = [&]() {
    std::string s;
    for (size_t i = 0; i < c.args.size(); ++i) s += (i ? ", " : "") + expr(c.args[i].value);
    return s;
  };

  // Arguments of a user function or method, in parameter order, with defaults and variadics.
  auto user_args = [&](ModuleId module, FnId fn) {
    const FnInfo& info = prog_.modules[module.index].fns[fn.index];
    std::vector<std::string> slots(info.params.size());
    std::vector<bool> filled(info.params.size(), false);
    std::string variadic;
    for (size_t i = 0; i < c.args.size(); ++i) {
      uint32_t p = i < ci->param_of_arg.size() ? ci->param_of_arg[i] : uint32_t(i);
      if (p >= info.params.size()) continue;
      if (info.params[p].variadic) {
        variadic += (variadic.empty() ? "" : ", ") + expr(c.args[i].value);
        filled[p] = true;
        continue;
      }
      slots[p] = expr(c.args[i].value);
      filled[p] = true;
    }
    std::string s;
    for (size_t p = 0; p < info.params.size(); ++p) {
      std::string v;
      if (info.params[p].variadic)
        v = cpp_type(info.params[p].type) + "{" + variadic + "}";
      else if (filled[p])
        v = slots[p];
      else
        v = default_arg(info, module, fn, uint32_t(p));
      s += (p ? ", " : "") + v;
    }
    return s;
  };

  switch (ci->kind) {
    case CallKind::Function: {
      const Symbol& s = prog_.symbol(ci->symbol);
      const Symbol& target = s.kind == SymbolKind::Import ? prog_.symbol(s.target) : s;
      return fmt::format("{}::f_{}({})", ns(target.module), target.name, user_args(target.module, target.fn));
    }
    case CallKind::Method:
    case CallKind::StaticMethod: {
      const auto& info = types_.struct_info(ci->struct_id);
      const auto& m = info.methods[ci->index];
      std::string args = user_args(info.module, m.fn);
      if (ci->kind == CallKind::StaticMethod) return fmt::format("{}::mth_{}({})", struct_name(ci->struct_id), m.name, args);
      if (ci->implicit_self) return fmt::format("this->mth_{}({})", m.name, args);
      auto* fe = std::get_if<FieldExpr>(&callee.data);
      if (!fe) break;
      return fmt::format("{}->mth_{}({})", expr(fe->object), m.name, args);
    }
    case CallKind::Builtin: {
      const auto& entry = prog_.builtins->entry(ci->builtin);
      std::string name(runtime_name(entry.name));
      if (entry.name == "print") return "fitz::print(" + plain_args() + ")";
      std::string args = plain_args();
      return fmt::format("FITZ_CALLP(({}), fitz::{}{}{})", pos(at), name, args.empty() ? "" : ", ", args);
    }
    case CallKind::BuiltinMethod: {
      const auto& entry = prog_.builtins->entry(ci->builtin);
      auto* fe = std::get_if<FieldExpr>(&callee.data);
      if (!fe) break;
      TypeId recv_type = tir_->type_of(fe->object);
      std::string recv = expr(fe->object);
      if (types_.is_dynamic(recv_type) || types_.kind(recv_type) == TypeKind::Struct) {
        std::string args;
        for (size_t i = 0; i < c.args.size(); ++i)
          args += (i ? ", " : "") + convert_to(expr(c.args[i].value), tir_->type_of(c.args[i].value), types_.any(), at);
        return fmt::format("fitz::any_method({}, \"{}\", {{{}}}, {})", recv, entry.name, args, pos(at));
      }
      std::string args = plain_args();
      return fmt::format("FITZ_MCALLP(({}), ({}), {}{}{})", pos(at), recv, entry.name, args.empty() ? "" : ", ", args);
    }
    case CallKind::FnValue:
      return "(" + expr(c.callee) + ")(" + plain_args() + ")";
    case CallKind::Dynamic: {
      std::string args;
      for (size_t i = 0; i < c.args.size(); ++i)
        args += (i ? ", " : "") + convert_to(expr(c.args[i].value), tir_->type_of(c.args[i].value), types_.any(), at);
      if (auto* fe = std::get_if<FieldExpr>(&callee.data))
        return fmt::format("fitz::any_method({}, \"{}\", {{{}}}, {})", expr(fe->object), fe->field.text, args, pos(at));
      return fmt::format("fitz::any_call({}, {{{}}}, {})", expr(c.callee), args, pos(at));
    }
    default:
      break;
  }
  result_.unsupported.push_back("a call form");
  return "fitz::Any()";
}

}  // namespace fitz::codegen
