// Calls: user functions (arity, named arguments, defaults, variadics), methods and static
// methods, built-ins typed from the table (type variables bound by unification, lambdas typed
// from the expected Fn), Fn values, and dynamic calls on Any.
#include "checker/check_internal.h"
#include "checker/check_orm.h"

namespace fitz::checker::detail {

uint32_t Checker::add_call(ExprId e, CallInfo info) {
  tir_->calls.push_back(std::move(info));
  uint32_t i = static_cast<uint32_t>(tir_->calls.size() - 1);
  tir_->call_index[e.index] = i;
  return i;
}

void Checker::check_args_dynamic(const CallExpr& c) {
  for (const Arg& a : c.args) check_expr(a.value);
}

Diagnostic& Checker::arg_mismatch(ExprId arg, size_t position, const std::optional<Ident>& name, std::string_view what,
                           TypeId want, TypeId got) {
  std::string which = name ? fmt::format("argument `{}`", name->text) : fmt::format("argument {}", position);
  Diagnostic& d = error(DiagKind::ArgumentType, span_of(arg),
                        fmt::format("{}: {} expects `{}`, received `{}`", what, which, show(want), show(got)));
  if (types_->kind(got) == TypeKind::Nullable && types_->compatible(types_->non_null(got), want))
    d.with_hint("the value may be null; check it against `null` first");
  return d;
}

std::string Checker::callee_text(const CalleeName& what) const {
  std::string_view name = what.symbol.valid() ? std::string_view(prog_.symbol(what.symbol).name) : what.name;
  if (name.empty()) return std::string(what.kind);
  std::string owner = what.owner.valid() ? types_->struct_info(what.owner).name + "." : "";
  if (what.kind.empty()) return fmt::format("`{}{}`", owner, name);
  return fmt::format("{} `{}{}`", what.kind, owner, name);
}

bool Checker::bind_args(const CallExpr& c, const ParamSlots& params, int variadic, const CalleeName& what,
                        Span name_span, ArgBinding& arg_param) {
  size_t n = params.size();
  arg_param.assign(c.args.size(), -1);
  llvm::SmallVector<bool, 8> given(n, false);
  size_t pos = 0;
  bool ok = true;
  size_t too_many = 0;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    if (a.name) {
      size_t p = n;
      for (size_t k = 0; k < n; ++k)
        if (params[k].name == a.name->text) p = k;
      if (p == n || static_cast<int>(p) == variadic) {
        std::vector<std::string_view> cands;
        for (const ParamSlot& x : params) cands.push_back(x.name);
        Diagnostic& d = error(DiagKind::UnknownArgumentName, a.name->span,
                              fmt::format("{} has no parameter named `{}`", callee_text(what), a.name->text));
        if (auto cl = closest(a.name->text, cands)) d.with_hint(fmt::format("did you mean `{}`?", *cl));
        ok = false;
        continue;
      }
      if (given[p]) {
        error(DiagKind::UnknownArgumentName, a.name->span,
              fmt::format("argument `{}` of {} is given more than once", a.name->text, callee_text(what)));
        ok = false;
        continue;
      }
      given[p] = true;
      arg_param[i] = static_cast<int>(p);
      continue;
    }
    if (variadic >= 0 && pos >= static_cast<size_t>(variadic)) {
      arg_param[i] = variadic;
      given[variadic] = true;
      continue;
    }
    if (pos < n) {
      arg_param[i] = static_cast<int>(pos);
      given[pos] = true;
      ++pos;
      continue;
    }
    ++too_many;
  }
  std::vector<std::string_view> missing;
  size_t required = 0;
  for (size_t p = 0; p < n; ++p) {
    if (static_cast<int>(p) == variadic || params[p].has_default) continue;
    ++required;
    if (!given[p]) missing.push_back(params[p].name);
  }
  if (too_many || !missing.empty()) {
    size_t max = variadic >= 0 ? SIZE_MAX : n - (variadic >= 0 ? 1 : 0);
    std::string expect;
    if (max == SIZE_MAX)
      expect = fmt::format("at least {} argument{}", required, required == 1 ? "" : "s");
    else if (required == max)
      expect = fmt::format("{} argument{}", required, required == 1 ? "" : "s");
    else
      expect = fmt::format("between {} and {} arguments", required, max);
    Diagnostic& d = error(DiagKind::ArityMismatch, name_span,
                          fmt::format("{} expects {}, received {}", callee_text(what), expect, c.args.size()));
    if (!missing.empty()) {
      std::string list;
      for (size_t i = 0; i < missing.size(); ++i) fmt::format_to(std::back_inserter(list), "{}`{}`", i ? ", " : "", missing[i]);
      d.with_hint(fmt::format("missing: {}", list));
    }
    ok = false;
  }
  return ok;
}

TypeId Checker::call_user_fn(ExprId e, const CallExpr& c, CallInfo& info, const std::vector<ParamInfo>& params,
                             TypeId fn_type, const CalleeName& what, Span name_span) {
  ParamSlots slots;
  int variadic = -1;
  for (size_t i = 0; i < params.size(); ++i) {
    slots.push_back({params[i].name, params[i].has_default});
    if (params[i].variadic) variadic = static_cast<int>(i);
  }
  ArgBinding arg_param;
  bind_args(c, slots, variadic, what, name_span, arg_param);
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    int p = arg_param[i];
    if (p < 0) {
      check_expr(a.value);
      continue;
    }
    TypeId want = params[p].variadic ? types_->elem(params[p].type) : params[p].type;
    TypeId got = check_expr(a.value, want);
    if (!types_->compatible(got, want)) {
      Diagnostic& d = arg_mismatch(a.value, i + 1, a.name, callee_text(what), want, got);
      if (params[p].span.file.valid())
        d.with_label(params[p].span, fmt::format("parameter `{}` declared here", params[p].name));
    } else
      coerce(a.value, got, want);
  }
  for (int p : arg_param) info.param_of_arg.push_back(p < 0 ? UINT32_MAX : static_cast<uint32_t>(p));
  info.param_count = static_cast<uint32_t>(params.size());
  TypeId r = types_->fn_result(fn_type);
  info.is_async = types_->kind(r) == TypeKind::Future;
  add_call(e, std::move(info));
  return r;
}

TypeId Checker::call_fn_value(ExprId e, const CallExpr& c, CallInfo& info, TypeId fn_type, const CalleeName& what,
                              Span name_span) {
  // A copy: checking the arguments interns new types, which can move the store's storage that
  // fn_params() views.
  auto param_view = types_->fn_params(fn_type);
  std::vector<TypeId> params(param_view.begin(), param_view.end());
  info.kind = CallKind::FnValue;
  bool named = false;
  for (const Arg& a : c.args)
    if (a.name) {
      if (!named)
        error(DiagKind::UnknownArgumentName, a.name->span,
              fmt::format("{} is a value of type `{}`; its parameters have no names", callee_text(what),
                          show(fn_type)));
      named = true;
    }
  if (c.args.size() != params.size())
    error(DiagKind::ArityMismatch, name_span,
          fmt::format("{} expects {} argument{}, received {}", callee_text(what), params.size(),
                      params.size() == 1 ? "" : "s", c.args.size()));
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i >= params.size() || named) {
      check_expr(c.args[i].value);
      continue;
    }
    TypeId got = check_expr(c.args[i].value, params[i]);
    if (!types_->compatible(got, params[i]))
      arg_mismatch(c.args[i].value, i + 1, c.args[i].name, callee_text(what), params[i], got);
    else
      coerce(c.args[i].value, got, params[i]);
    info.param_of_arg.push_back(static_cast<uint32_t>(i));
  }
  info.param_count = static_cast<uint32_t>(params.size());
  TypeId r = types_->fn_result(fn_type);
  info.is_async = types_->kind(r) == TypeKind::Future;
  add_call(e, std::move(info));
  return r;
}

TypeId Checker::call_builtin(ExprId e, const CallExpr& c, CallInfo& info, BuiltinId id, TypeId receiver,
                             ExprId receiver_expr, Span name_span, TypeId expected) {
  const BuiltinEntry& entry = builtins_->entry(id);
  const BuiltinSig& sig = builtins_->sig(id);
  std::vector<TypeId> bind;
  if (receiver.valid() && sig.receiver.valid()) types_->unify(sig.receiver, receiver, bind);
  const CalleeName what{receiver.valid() ? "method" : "function", entry.name};
  if (entry.rule == BuiltinRule::NumericElems && receiver.valid()) {
    TypeId el = types_->elem(receiver);
    if (!types_->is_numeric(el) && !types_->is_dynamic(el))
      error(DiagKind::ArgumentType, name_span,
            fmt::format("`{}` needs a list of `Int` or `Float`, received `{}`", entry.name, show(receiver)));
  }
  ParamSlots slots;
  int variadic = -1;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    slots.push_back({sig.params[i].name, sig.params[i].optional});
    if (sig.params[i].variadic) variadic = static_cast<int>(i);
  }
  ArgBinding arg_param;
  if (entry.rule == BuiltinRule::Fields) {
    // `log.info("saved", id: 3)`: named arguments become the record's fields (any name, any
    // value), so only the positional ones are bound to parameters.
    CallExpr positional{c.callee, {}, c.args_span};
    for (const Arg& a : c.args)
      if (!a.name) positional.args.push_back(a);
    ArgBinding bound;
    bind_args(positional, slots, variadic, what, name_span, bound);
    size_t k = 0;
    for (const Arg& a : c.args) arg_param.push_back(a.name ? -1 : bound[k++]);
  } else {
    bind_args(c, slots, variadic, what, name_span, arg_param);
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    int p = arg_param[i];
    if (p < 0) {
      TypeId got = check_expr(a.value);
      if (entry.rule == BuiltinRule::Fields && a.name) coerce(a.value, got, types_->any());
      continue;
    }
    TypeId want = types_->substitute(sig.params[p].type, bind);
    bool is_fn = types_->kind(want) == TypeKind::Fn;
    TypeId got = check_expr(a.value, is_fn || !types_->has_vars(want) ? want : TypeId());
    if (entry.rule == BuiltinRule::Sized) {
      TypeKind k = types_->kind(got);
      if (k == TypeKind::Py) {  // Python's len(), no conversion
        note_python();
        continue;
      }
      if (k != TypeKind::List && k != TypeKind::Map && k != TypeKind::Str && k != TypeKind::Range &&
          k != TypeKind::Bytes && !types_->is_dynamic(got))
        error(DiagKind::ArgumentType, span_of(a.value),
              fmt::format("{}: argument {} expects a `List`, `Map`, `Str`, `Range` or `Bytes`, received `{}`",
                          callee_text(what), i + 1, show(got)));
      else
        coerce(a.value, got, types_->any());
      continue;
    }
    if (entry.rule == BuiltinRule::HttpBody && types_->kind(sig.params[p].type) == TypeKind::Var) {
      check_http_body(a.value, got);
      continue;
    }
    if (entry.rule == BuiltinRule::HttpOptions) check_http_options(a.value);
    if (entry.rule == BuiltinRule::SmtpOptions) check_smtp_options(a.value);
    if (is_fn && types_->kind(got) == TypeKind::Fn) {
      auto wp = types_->fn_params(want), gp = types_->fn_params(got);
      if (wp.size() != gp.size()) {
        error(DiagKind::ArgumentType, span_of(a.value),
              fmt::format("the callback of `.{}()` must take {} argument{}, this one takes {}", entry.name, wp.size(),
                          wp.size() == 1 ? "" : "s", gp.size()));
        continue;
      }
      TypeId wr = types_->fn_result(want), gr = types_->fn_result(got);
      if (!types_->unify(wr, gr, bind) || (!types_->has_vars(wr) && !types_->compatible(gr, wr))) {
        error(DiagKind::ArgumentType, span_of(a.value),
              fmt::format("the callback of `.{}()` must return `{}`, returns `{}`", entry.name,
                          show(types_->substitute(wr, bind, types_->any())), show(gr)));
        continue;
      }
      for (size_t k = 0; k < wp.size(); ++k) types_->unify(wp[k], gp[k], bind);
      set_conv(a.value, got, types_->substitute(want, bind, types_->any()));
      continue;
    }
    if (types_->has_vars(want)) {
      if (!types_->unify(want, got, bind)) {
        arg_mismatch(a.value, i + 1, a.name, callee_text(what), types_->substitute(want, bind, types_->any()), got);
        continue;
      }
      coerce(a.value, got, types_->substitute(want, bind, types_->any()));
      continue;
    }
    if (!types_->compatible(got, want))
      arg_mismatch(a.value, i + 1, a.name, callee_text(what), want, got);
    else
      coerce(a.value, got, want);
  }
  if (entry.name == "spawn") check_spawn_arg(e, c);
  if (entry.name == "live_test" && c.args.size() == 1)
    tir_->live_tests.push_back({span_of(c.args[0].value), tir_->type_of(c.args[0].value)});
  if (entry.name == "live_embed" && c.args.size() == 1) {
    // The root's join token is bound to the user of the request being answered, which only a
    // route handler's own body has (codegen hands it the request).
    if (!scope_->is_handler || scope_->is_lambda)
      error(DiagKind::LiveEmbedOutsideHandler, name_span,
            "`live_embed` renders a live root for the request being answered: call it in a route handler's body")
          .with_hint("call `live_embed` in the `@get` handler and pass the `Html` it returns to helpers");
    tir_->live_embeds.push_back({span_of(c.args[0].value), tir_->type_of(c.args[0].value), scope_->fn});
  }
  check_value_builtin_args(entry, c);
  if (entry.rule == BuiltinRule::JsonTarget && !bind_json_target(sig, expected, bind, name_span)) {
    info.builtin = id;
    add_call(e, std::move(info));
    return types_->error();
  }
  info.builtin = id;
  info.is_async = entry.is_async;
  info.suspends = entry.suspends;
  if (entry.suspends && !scope_->is_async) {
    Diagnostic& d = error(DiagKind::SuspendOutsideAsync, name_span,
                          fmt::format("`{}` waits like `.await`, so it is only valid inside an `async fn` or at top level",
                                      entry.name));
    if (scope_->info && !scope_->is_lambda) d.with_hint("declare the function with `async fn`");
  }
  for (int p : arg_param) info.param_of_arg.push_back(p < 0 ? UINT32_MAX : static_cast<uint32_t>(p));
  info.param_count = static_cast<uint32_t>(sig.params.size());
  for (TypeId& b : bind)
    if (!b.valid()) b = types_->any();
  for (TypeId& b : bind) b = types_->strip_never(b);
  TypeId r = types_->strip_never(types_->substitute(sig.result, bind, types_->any()));
  info.type_args = std::move(bind);
  add_call(e, std::move(info));
  (void)receiver_expr;
  return r;
}

TypeId Checker::call_method(ExprId e, const CallExpr& c, const FieldExpr& f, CallInfo& info, TypeId expected) {
  const Ident& name = f.field;
  // `Type.method(...)`: a static call on a type name (local or imported).
  if (auto* n = std::get_if<NameRef>(&expr(f.object).data)) {
    Lookup l = lookup(n->name.text);
    SymbolId t = l.kind == Lookup::Symbol ? resolve_import_target(l.sym) : SymbolId();
    if (t.valid() && prog_.symbol(t).kind == SymbolKind::Type) {
      prog_.symbol(l.sym).used = true;
      StructId sid = prog_.symbol(t).struct_id;
      set_type(f.object, types_->struct_type(sid));
      tir_->refs[f.object.index] = Ref{RefKind::Symbol, t.index};
      const StructInfo& si = types_->struct_info(sid);
      const MethodInfo* m = si.method(name.text);
      if (!m)
        if (auto orm_type = check_orm_static_call(*this, e, c, f, sid)) return *orm_type;
      if (!m) {
        std::vector<std::string_view> names;
        for (const MethodInfo& x : si.methods) names.push_back(x.name);
        Diagnostic& d = error(DiagKind::UnknownMethod, name.span,
                              fmt::format("type `{}` does not have method `{}`", si.name, name.text));
        if (auto cl = closest(name.text, names)) d.with_hint(fmt::format("did you mean `{}`?", *cl)).with_fix(name.span, *cl);
        check_args_dynamic(c);
        return types_->error();
      }
      uint32_t idx = si.index_of(m);
      if (m->is_private && !can_access_private(sid))
        error(DiagKind::PrivateMember, name.span, fmt::format("method `{}.{}` is private", si.name, m->name));
      if (!m->is_static)
        error(DiagKind::StaticMismatch, name.span,
              fmt::format("method `{}` is not static; call it on a `{}` value", m->name, si.name))
            .with_hint(fmt::format("declare it `static fn {}` if it does not use the fields", m->name));
      if (si.module == mod_ && tir_->fns[m->fn.index].return_inferred) ensure_fn_checked(m->fn);
      const FnInfo& fi = prog_.modules[si.module.index].fns[m->fn.index];
      info.kind = m->is_static ? CallKind::StaticMethod : CallKind::Method;
      info.struct_id = sid;
      info.index = idx;
      set_type(c.callee, fi.type);
      tir_->refs[c.callee.index] = Ref{RefKind::Method, idx, sid};
      return call_user_fn(e, c, info, fi.params, fi.type, CalleeName{"method", name.text, sid}, name.span);
    }
  }

  TypeId obj = check_member_object(f.object);
  TypeKind k = types_->kind(obj);
  if (k == TypeKind::Error) {
    check_args_dynamic(c);
    return obj;
  }
  if (k == TypeKind::Nullable) {
    error(DiagKind::NullableAccess, name.span,
          fmt::format("cannot call `.{}()` on `{}`, which may be null", name.text, show(obj)))
        .with_hint(null_check_hint(f.object));
    check_args_dynamic(c);
    return types_->error();
  }
  if (k == TypeKind::Module) {
    TypeId mt = member_type(c.callee, f.object, obj, name, true);
    set_type(c.callee, mt);
    const Ref& r = tir_->refs[c.callee.index];
    if (r.kind == RefKind::ModuleMember) {
      const Symbol& s = prog_.symbol(SymbolId(r.id));
      if (s.kind == SymbolKind::Function) {
        const FnInfo& fi = prog_.modules[s.module.index].fns[s.fn.index];
        info.kind = CallKind::Function;
        info.symbol = SymbolId(r.id);
        return call_user_fn(e, c, info, fi.params, fi.type, CalleeName{"function", {}, {}, SymbolId(r.id)}, name.span);
      }
      if (s.kind == SymbolKind::Type) {
        error(DiagKind::NotCallable, name.span, fmt::format("type `{}` is not a function", s.name))
            .with_hint(fmt::format("import it with `from` and write `{} {{ ... }}`", s.name));
        check_args_dynamic(c);
        return types_->error();
      }
    }
    if (types_->kind(mt) == TypeKind::Fn) return call_fn_value(e, c, info, mt, CalleeName{{}, name.text}, name.span);
    if (types_->is_dynamic(mt)) {
      info.kind = CallKind::Dynamic;
      check_args_dynamic(c);
      add_call(e, std::move(info));
      return types_->is_error(mt) ? mt : types_->any();
    }
    error(DiagKind::NotCallable, name.span, fmt::format("`{}` is not a function; it has type `{}`", name.text, show(mt)));
    check_args_dynamic(c);
    return types_->error();
  }
  if (k == TypeKind::Struct) {
    if (auto orm_type = check_orm_query_call(*this, e, c, f, obj)) return *orm_type;
    StructId sid = types_->struct_of(obj);
    const StructInfo& si = types_->struct_info(sid);
    if (const MethodInfo* m = si.method(name.text)) {
      uint32_t idx = si.index_of(m);
      if (m->is_private && !can_access_private(sid))
        error(DiagKind::PrivateMember, name.span, fmt::format("method `{}.{}` is private", si.name, m->name))
            .with_hint(fmt::format("only the methods of `{}` can call `_` methods", si.name));
      if (m->is_static)
        error(DiagKind::StaticMismatch, name.span,
              fmt::format("static method `{}` is called on the type: `{}.{}()`", m->name, si.name, m->name));
      if (si.module == mod_ && tir_->fns[m->fn.index].return_inferred) ensure_fn_checked(m->fn);
      const FnInfo& fi = prog_.modules[si.module.index].fns[m->fn.index];
      info.kind = CallKind::Method;
      info.struct_id = sid;
      info.index = idx;
      set_type(c.callee, fi.type);
      tir_->refs[c.callee.index] = Ref{RefKind::Method, idx, sid};
      return call_user_fn(e, c, info, fi.params, fi.type, CalleeName{"method", name.text, sid}, name.span);
    }
    if (const FieldInfo* fl = si.field(name.text)) {
      TypeId ft = member_type(c.callee, f.object, obj, name, true);
      set_type(c.callee, ft);
      if (types_->kind(ft) == TypeKind::Fn) return call_fn_value(e, c, info, ft, CalleeName{"field", name.text}, name.span);
      if (types_->is_dynamic(ft)) {
        info.kind = CallKind::Dynamic;
        check_args_dynamic(c);
        add_call(e, std::move(info));
        return types_->is_error(ft) ? ft : types_->any();
      }
      error(DiagKind::NotCallable, name.span,
            fmt::format("field `{}.{}` is not a function; it has type `{}`", si.name, fl->name, show(ft)));
      check_args_dynamic(c);
      return types_->error();
    }
    const auto& cands = builtins_->methods(obj, name.text);
    if (!cands.empty()) {
      info.kind = CallKind::BuiltinMethod;
      // Overloads of a nominal's method (`http.request(opts)` beside `request(method, url,
      // ...)`) are told apart by how many arguments they take.
      BuiltinId pick = cands.front();
      for (BuiltinId b : cands) {
        size_t required = 0, total = builtins_->sig(b).params.size();
        for (const auto& p : builtins_->sig(b).params) required += p.optional || p.variadic ? 0 : 1;
        if (c.args.size() >= required && c.args.size() <= total) {
          pick = b;
          break;
        }
      }
      return call_builtin(e, c, info, pick, obj, f.object, name.span, expected);
    }
    if (si.builtin && builtins_->nominal_is_open(sid)) {
      info.kind = CallKind::Dynamic;
      tir_->refs[c.callee.index] = Ref{RefKind::DynamicMember};
      check_args_dynamic(c);
      add_call(e, std::move(info));
      return types_->any();
    }
    std::vector<std::string_view> names;
    for (const MethodInfo& x : si.methods) names.push_back(x.name);
    Diagnostic& d = error(DiagKind::UnknownMethod, name.span,
                          fmt::format("type `{}` does not have method `{}`", si.name, name.text));
    if (auto cl = closest(name.text, names)) d.with_hint(fmt::format("did you mean `{}`?", *cl)).with_fix(name.span, *cl);
    check_args_dynamic(c);
    return types_->error();
  }
  if (k == TypeKind::Py) {
    note_python();
    tir_->refs[c.callee.index] = Ref{RefKind::DynamicMember};
    set_type(c.callee, types_->py());
    return py_call(e, c, info);
  }
  // Built-in receivers: List, Map, Str, Int, Float, Range, Bytes, Any.
  const auto& cands = builtins_->methods(obj, name.text);
  for (BuiltinId b : cands) {
    std::vector<TypeId> bind;
    if (types_->unify(builtins_->sig(b).receiver, obj, bind)) {
      info.kind = CallKind::BuiltinMethod;
      tir_->refs[c.callee.index] = Ref{RefKind::DynamicMember};
      return call_builtin(e, c, info, b, obj, f.object, name.span);
    }
  }
  if (types_->is_dynamic(obj)) {
    info.kind = CallKind::Dynamic;
    tir_->refs[c.callee.index] = Ref{RefKind::DynamicMember};
    check_args_dynamic(c);
    add_call(e, std::move(info));
    return types_->any();
  }
  if (!cands.empty()) {
    error(DiagKind::UnknownMethod, name.span,
          fmt::format("method `{}` needs a receiver of type `{}`, received `{}`", name.text,
                      show(builtins_->sig(cands.front()).receiver), show(obj)));
    check_args_dynamic(c);
    return types_->error();
  }
  auto all = builtins_->method_names(obj);
  Diagnostic& d = error(DiagKind::UnknownMethod, name.span,
                        fmt::format("`{}` does not have method `{}`", show(obj), name.text));
  if (auto cl = closest(name.text, all)) d.with_hint(fmt::format("did you mean `{}`?", *cl)).with_fix(name.span, *cl);
  check_args_dynamic(c);
  return types_->error();
}

TypeId Checker::check_call(ExprId e, const CallExpr& c, TypeId expected) {
  CallInfo info;
  const Expr& callee = expr(c.callee);
  if (auto* f = std::get_if<FieldExpr>(&callee.data)) return call_method(e, c, *f, info, expected);
  CalleeName what{"this value"};
  Span name_span = callee.span;
  if (auto* n = std::get_if<NameRef>(&callee.data)) {
    what = CalleeName{{}, n->name.text};
    name_span = n->name.span;
    Lookup l = lookup(n->name.text);
    if (l.kind == Lookup::Symbol) {
      SymbolId t = resolve_import_target(l.sym);
      prog_.symbol(l.sym).used = true;
      const Symbol* s = t.valid() ? &prog_.symbol(t) : nullptr;
      if (s && s->kind == SymbolKind::Function) {
        // Copies: symbol_value_type may check the callee first, which adds symbols and can
        // move the one `s` points at.
        const ModuleId fn_module = s->module;
        const FnId fn_id = s->fn;
        TypeId ft = symbol_value_type(c.callee, l.sym, n->name.span);
        set_type(c.callee, ft);
        const FnInfo& fi = prog_.modules[fn_module.index].fns[fn_id.index];
        info.kind = CallKind::Function;
        info.symbol = t;
        return call_user_fn(e, c, info, fi.params, ft, CalleeName{"function", n->name.text}, name_span);
      }
      if (s && s->kind == SymbolKind::Builtin) {
        tir_->refs[c.callee.index] = Ref{RefKind::Symbol, t.index};
        set_type(c.callee, types_->any());
        info.kind = CallKind::Builtin;
        return call_builtin(e, c, info, s->builtin, TypeId(), ExprId(), name_span);
      }
      if (s && s->kind == SymbolKind::Type) {
        prog_.symbol(t).used = true;
        tir_->refs[c.callee.index] = Ref{RefKind::Symbol, t.index};
        error(DiagKind::NotCallable, name_span, fmt::format("type `{}` is not a function", n->name.text))
            .with_hint(fmt::format("create a value with `{} {{ field: value }}`", n->name.text));
        check_args_dynamic(c);
        return types_->error();
      }
    } else if (l.kind == Lookup::Method) {
      // A sibling method called by its bare name inside a method.
      const StructInfo& si = types_->struct_info(l.owner);
      const MethodInfo& m = si.methods[l.index];
      if (!m.is_static && l.scope && l.scope->is_static)
        error(DiagKind::StaticMismatch, name_span,
              fmt::format("method `{}` needs an instance; it cannot be called from a static method", m.name));
      if (si.module == mod_ && tir_->fns[m.fn.index].return_inferred) ensure_fn_checked(m.fn);
      const FnInfo& fi = prog_.modules[si.module.index].fns[m.fn.index];
      Ref r{RefKind::Method, l.index, l.owner};
      r.implicit_self = !m.is_static;
      tir_->refs[c.callee.index] = r;
      set_type(c.callee, fi.type);
      info.kind = m.is_static ? CallKind::StaticMethod : CallKind::Method;
      info.struct_id = l.owner;
      info.index = l.index;
      info.implicit_self = !m.is_static;
      return call_user_fn(e, c, info, fi.params, fi.type, CalleeName{"method", n->name.text, l.owner}, name_span);
    }
  }
  TypeId t = check_expr(c.callee);
  switch (types_->kind(t)) {
    case TypeKind::Fn:
      return call_fn_value(e, c, info, t, what.name.empty() ? CalleeName{"this function"} : what, name_span);
    case TypeKind::Error:
      check_args_dynamic(c);
      return t;
    case TypeKind::Any:
    case TypeKind::Never:
      info.kind = CallKind::Dynamic;
      check_args_dynamic(c);
      add_call(e, std::move(info));
      return types_->any();
    case TypeKind::Py: return py_call(e, c, info);
    default:
      error(DiagKind::NotCallable, name_span,
            fmt::format("{} is not a function; it has type `{}`", callee_text(what), show(t)));
      check_args_dynamic(c);
      return types_->error();
  }
}

}  // namespace fitz::checker::detail
