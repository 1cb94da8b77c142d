// Calls: user functions (defaults and variadics filled in here), methods and static methods,
// built-ins from the checker's table, closures and dynamic calls on `Any`.
#include <fmt/format.h>

#include "codegen/emit_orm.h"
#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

// C++ spellings of built-ins whose Fitz name is a C++ keyword or clashes with a macro.
std::string_view runtime_name(std::string_view fitz_name) {
  if (fitz_name == "assert") return "assert_";
  if (fitz_name == "to_json") return "to_json_text";  // http::to_json is another function
  return fitz_name;
}

}  // namespace

std::string Gen::default_arg(const FnInfo& /*callee_info*/, ModuleId module, FnId fn, uint32_t param) {
  // The default is an expression of the callee's module: emit it in that module's context.
  ModuleContext in_callee(*this, module);
  const FnDecl& decl = ast_->get(fn);
  const FnInfo& info = tir_->fns[fn.index];
  std::string code;
  if (param < decl.params.size() && decl.params[param].default_value.valid()) {
    ExprId d = decl.params[param].default_value;
    code = expr_as(d, info.params[param].type);
  } else {
    code = cpp_type(info.params[param].type) + "{}";
  }
  return code;
}

// Arguments of a user function or method, in parameter order, with defaults and variadics.
// Explicit arguments are evaluated in source order, then the defaults.
std::string Gen::user_call_args(const CallExpr& c, const CallInfo& call_info, ModuleId module, FnId fn,
                                std::vector<Child> head, std::vector<std::string>* head_code) {
  const CallInfo* ci = &call_info;
  const FnInfo& info = prog_.modules[module.index].fns[fn.index];
  size_t nhead = head.size();
  std::vector<Child> children = std::move(head);
  std::vector<uint32_t> param_of;
  std::vector<bool> filled(info.params.size(), false);
  for (size_t i = 0; i < c.args.size(); ++i) {
    uint32_t p = i < ci->param_of_arg.size() ? ci->param_of_arg[i] : uint32_t(i);
    if (p >= info.params.size()) continue;
    children.push_back(child_of(this, c.args[i].value));
    param_of.push_back(p);
    filled[p] = true;
  }
  std::vector<uint32_t> defaulted;
  for (size_t p = 0; p < info.params.size(); ++p) {
    if (filled[p] || info.params[p].variadic) continue;
    children.push_back(Child{[this, &info, module, fn, p] { return default_arg(info, module, fn, uint32_t(p)); },
                             ExprId()});
    defaulted.push_back(uint32_t(p));
  }
  std::vector<std::string> code = sequence(children);
  if (head_code) head_code->assign(code.begin(), code.begin() + long(nhead));
  std::vector<std::string> slots(info.params.size());
  std::string variadic;
  size_t k = nhead;
  for (uint32_t p : param_of) {
    if (info.params[p].variadic)
      variadic += (variadic.empty() ? "" : ", ") + code[k++];
    else
      slots[p] = code[k++];
  }
  for (uint32_t p : defaulted) slots[p] = code[k++];
  std::string s;
  for (size_t p = 0; p < info.params.size(); ++p) {
    std::string v = info.params[p].variadic ? cpp_type(info.params[p].type) + "{" + variadic + "}" : slots[p];
    s += (p ? ", " : "") + v;
  }
  return s;
}

std::string Gen::call(ExprId id, const CallExpr& c) {
  const CallInfo* ci = tir_->call_of(id);
  const Expr& callee = ast_->get(c.callee);
  Span at = ast_->get(id).span;
  if (!ci)
    if (auto orm_code = emit_orm_call(*this, id, c)) return *orm_code;
  if (!ci || ci->kind == CallKind::None) {
    result_.unsupported.push_back("an unresolved call");
    return "fitz::Any()";
  }
  if (auto ws = ws_call(id, c, *ci)) return *ws;

  // The call's operands in source order (receiver or callee first when there is one), each
  // converted as the checker says; `sequence` keeps Fitz's left-to-right order.
  auto join = [](const std::vector<std::string>& parts, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < parts.size(); ++i) s += (i > from ? ", " : "") + parts[i];
    return s;
  };
  auto with_args = [&](std::vector<Child> head) {
    for (const auto& a : c.args) head.push_back(child_of(this, a.value));
    return sequence(head);
  };
  auto dynamic_args = [&](std::vector<Child> head) {
    for (const auto& a : c.args) {
      ExprId v = a.value;
      head.push_back(Child{[this, v, at] { return expr_as(v, types_.any()); }, v});
    }
    return sequence(head);
  };

  auto user_args = [&](ModuleId module, FnId fn, std::vector<Child> head, std::vector<std::string>* head_code) {
    return user_call_args(c, *ci, module, fn, std::move(head), head_code);
  };

  switch (ci->kind) {
    case CallKind::Function: {
      const Symbol& s = prog_.symbol(ci->symbol);
      const Symbol& target = s.kind == SymbolKind::Import ? prog_.symbol(s.target) : s;
      return traced_call(target, fmt::format("{}::f_{}({})", ns(target.module), target.name,
                                             user_args(target.module, target.fn, {}, nullptr)));
    }
    case CallKind::Method:
    case CallKind::StaticMethod: {
      const auto& info = types_.struct_info(ci->struct_id);
      const auto& m = info.methods[ci->index];
      if (ci->kind == CallKind::StaticMethod)
        return fmt::format("{}::mth_{}({})", struct_name(ci->struct_id), m.name, user_args(info.module, m.fn, {}, nullptr));
      if (ci->implicit_self) return fmt::format("this->mth_{}({})", m.name, user_args(info.module, m.fn, {}, nullptr));
      auto* fe = std::get_if<FieldExpr>(&callee.data);
      if (!fe) break;
      std::vector<std::string> recv;
      std::string args = user_args(info.module, m.fn, {child_of(this, fe->object)}, &recv);
      return fmt::format("{}->mth_{}({})", recv[0], m.name, args);
    }
    case CallKind::Builtin: {
      const auto& entry = prog_.builtins->entry(ci->builtin);
      if (entry.name == "spawn") return spawn_call(id, c);
      if (entry.name == "live_test") return live_test_call(c, at);
      if (entry.name == "live_embed") return live_embed_call(c, at);
      std::string name(runtime_name(entry.name));
      std::string args = join(with_args({}));
      if (entry.name == "print") return "fitz::print(" + args + ")";
      return fmt::format("FITZ_CALLP(({}), fitz::{}{}{})", pos(at), name, args.empty() ? "" : ", ", args);
    }
    case CallKind::BuiltinMethod: {
      if (auto o = observe_call(id, c)) return *o;
      const auto& entry = prog_.builtins->entry(ci->builtin);
      auto* fe = std::get_if<FieldExpr>(&callee.data);
      if (!fe) break;
      TypeId recv_type = tir_->type_of(fe->object);
      TypeKind rk = types_.kind(recv_type);
      if (auto n = net_call(id, c, *ci)) return *n;
      if (entry.rule == checker::BuiltinRule::CookieOptions) {
        // `resp.set_cookie(...)` / `.clear_cookie(...)`: arguments in parameter order, an absent
        // optional one null (its default is the runtime's, fitz/auth.h).
        result_.auth = true;
        auto parts = with_args({child_of(this, fe->object)});
        const auto& params = prog_.builtins->sig(ci->builtin).params;
        std::vector<std::string> slots(params.size());
        for (size_t i = 0; i < c.args.size(); ++i) {
          uint32_t p = i < ci->param_of_arg.size() ? ci->param_of_arg[i] : uint32_t(i);
          if (p < slots.size()) slots[p] = parts[i + 1];
        }
        std::string args;
        for (size_t p = 0; p < params.size(); ++p) {
          std::string v = slots[p];
          if (params[p].optional)
            v = fmt::format("fitz::Nullable<{}>({})", cpp_type(params[p].type), v);
          args += v + ", ";
        }
        std::string value = fmt::format("fitz::auth::{}_value({}{})", entry.name, args, pos(at));
        return fmt::format("fitz::auth::add_set_cookie({}, {}, {})", parts[0], value, pos(at));
      }
      if (types_.is_dynamic(recv_type) || rk == TypeKind::Struct) {
        auto parts = dynamic_args({child_of(this, fe->object)});
        // A built-in value type (Date, DateTime, Uuid) is boxed for the call: its methods live
        // on the box (fitz/date.h).
        if (rk == TypeKind::Struct && cpp_type(recv_type) != "fitz::Any") parts[0] = "fitz::to_any(" + parts[0] + ")";
        // The runtime reads arguments by position: named ones go to their parameter's place and
        // a skipped optional one is null (`http.get(url, timeout_ms: 2000)`).
        if (entry.rule != checker::BuiltinRule::Fields && ci->param_count > 0 && !c.args.empty()) {
          std::vector<std::string> slots(ci->param_count);
          bool placed = true;
          for (size_t i = 0; i < c.args.size() && placed; ++i) {
            uint32_t p = i < ci->param_of_arg.size() ? ci->param_of_arg[i] : uint32_t(i);
            placed = p < slots.size() && slots[p].empty();
            if (placed) slots[p] = parts[i + 1];
          }
          if (placed) {
            while (!slots.empty() && slots.back().empty()) slots.pop_back();
            parts.resize(1);
            for (auto& s : slots) parts.push_back(s.empty() ? "fitz::Any()" : std::move(s));
          }
        }
        std::string call = fmt::format("fitz::any_method({}, \"{}\", {{{}}}, {})", parts[0], entry.name, join(parts, 1), pos(at));
        // The checker knows the result type even when the receiver is dynamic.
        TypeId rt = id.index < tir_->expr_types.size() ? tir_->type_of(id) : types_.any();
        if (!types_.is_dynamic(rt)) call = fmt::format("fitz::from_any<{}>({}, {})", cpp_type(rt), call, pos(at));
        return call;
      }
      auto parts = with_args({child_of(this, fe->object)});
      std::string args = join(parts, 1);
      if (rk == TypeKind::Int || rk == TypeKind::Float) {
        // Int and Float methods are free functions of the runtime: fitz::int_abs(n), ...
        return fmt::format("FITZ_CALLP(({}), fitz::{}_{}, {}{}{})", pos(at), rk == TypeKind::Int ? "int" : "float",
                           entry.name, parts[0], args.empty() ? "" : ", ", args);
      }
      return fmt::format("FITZ_MCALLP(({}), ({}), {}{}{})", pos(at), parts[0], entry.name, args.empty() ? "" : ", ", args);
    }
    case CallKind::FnValue: {
      auto parts = with_args({child_of(this, c.callee)});
      return "(" + parts[0] + ")(" + join(parts, 1) + ")";
    }
    case CallKind::Python: {
      auto* fe = std::get_if<FieldExpr>(&callee.data);
      auto parts = with_args({child_of(this, fe ? fe->object : c.callee)});
      std::string positional, keywords;
      for (size_t i = 0; i < c.args.size(); ++i) {
        std::string& to = c.args[i].name ? keywords : positional;
        if (!to.empty()) to += ", ";
        to += c.args[i].name ? fmt::format("fitz::py::Kwarg{{\"{}\", {}}}", c.args[i].name->text, parts[i + 1])
                             : parts[i + 1];
      }
      std::string py_call =
          fe ? fmt::format("fitz::py::call_method({}, \"{}\", {{{}}}, {{{}}})", parts[0], fe->field.text, positional, keywords)
             : fmt::format("fitz::py::call({}, {{{}}}, {{{}}})", parts[0], positional, keywords);
      if (!fn_ || !fn_->is_async || fn_->top_level) return py_call;
      // In an async function the call runs on the Python worker pool and is awaited, so the
      // event loop never waits for the GIL or for Python's own I/O.
      std::string aw = tmp("py");
      line(fmt::format("fitz::py::PoolAwait<fitz::Result<fitz::py::Object, fitz::Str>> {}{{[&]() {{ return {}; }}}};", aw,
                       py_call));
      return "(co_await " + aw + ")";
    }
    case CallKind::Dynamic: {
      if (auto o = observe_call(id, c)) return *o;
      if (auto* fe = std::get_if<FieldExpr>(&callee.data)) {
        auto parts = dynamic_args({child_of(this, fe->object)});
        return fmt::format("fitz::any_method({}, \"{}\", {{{}}}, {})", parts[0], fe->field.text, join(parts, 1), pos(at));
      }
      auto parts = dynamic_args({child_of(this, c.callee)});
      return fmt::format("fitz::any_call({}, {{{}}}, {})", parts[0], join(parts, 1), pos(at));
    }
    default:
      break;
  }
  result_.unsupported.push_back("a call form");
  return "fitz::Any()";
}

}  // namespace fitz::codegen
