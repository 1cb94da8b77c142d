// Member access and indexing: struct fields and methods (privacy), module members, tuple
// elements, `[i]` and `[a..b]` on lists, maps, strings and bytes.
#include "checker/check_internal.h"

namespace fitz::checker::detail {

// ---- members ----------------------------------------------------------------------------------

TypeId Checker::member_type(ExprId e, ExprId object, TypeId obj, const Ident& field, bool for_call) {
  TypeKind k = types_->kind(obj);
  auto set_ref = [&](Ref r) {
    if (e.valid()) tir_->refs[e.index] = r;
  };
  if (k == TypeKind::Error) return obj;
  if (k == TypeKind::Any || k == TypeKind::Never) {
    set_ref(Ref{RefKind::DynamicMember});
    return types_->any();
  }
  if (k == TypeKind::Py) {
    note_python();
    set_ref(Ref{RefKind::DynamicMember});
    return types_->py();
  }
  if (k == TypeKind::Nullable) {
    error(DiagKind::NullableAccess, field.span,
          fmt::format("cannot use `.{}` on `{}`, which may be null", field.text, show(obj)))
        .with_hint(null_check_hint(object));
    return types_->error();
  }
  if (k == TypeKind::Module) {
    ModuleId target(types_->payload(obj));
    if (!module_ready(target)) {
      set_ref(Ref{RefKind::DynamicMember});
      return types_->any();
    }
    const ModuleInterface& iface = prog_.modules[target.index].interface;
    auto it = iface.by_name.find(std::string(field.text));
    if (it == iface.by_name.end()) {
      std::vector<std::string_view> names;
      for (const auto& ex : iface.exports) names.push_back(ex.name);
      Diagnostic& d = error(DiagKind::UnknownModuleMember, field.span,
                            fmt::format("module `{}` has no member `{}`", graph_.get(target).name, field.text));
      if (auto c = closest(field.text, names)) d.with_hint(fmt::format("did you mean `{}`?", *c)).with_fix(field.span, *c);
      return types_->error();
    }
    SymbolId target_sym = resolve_import_target(it->second);
    if (!target_sym.valid()) return types_->any();
    prog_.symbol(target_sym).used = true;
    set_ref(Ref{RefKind::ModuleMember, target_sym.index});
    const Symbol& s = prog_.symbol(target_sym);
    switch (s.kind) {
      case SymbolKind::Function: return prog_.modules[s.module.index].fns[s.fn.index].type;
      case SymbolKind::Type:
        if (!for_call)
          error(DiagKind::NotAValue, field.span, fmt::format("type `{}` is not a value", s.name))
              .with_hint("import it with `from` to build values of it");
        return types_->error();
      default: return s.type.valid() ? s.type : types_->any();
    }
  }
  if (k == TypeKind::Struct) {
    StructId sid = types_->struct_of(obj);
    const StructInfo& si = types_->struct_info(sid);
    if (const FieldInfo* f = si.field(field.text)) {
      if (f->is_private && !can_access_private(sid))
        error(DiagKind::PrivateMember, field.span, fmt::format("field `{}.{}` is private", si.name, f->name))
            .with_hint(fmt::format("only the methods of `{}` can use `_` fields", si.name));
      set_ref(Ref{RefKind::Field, si.index_of(f), sid});
      return f->type;
    }
    if (const MethodInfo* m = si.method(field.text)) {
      if (m->is_private && !can_access_private(sid))
        error(DiagKind::PrivateMember, field.span, fmt::format("method `{}.{}` is private", si.name, m->name))
            .with_hint(fmt::format("only the methods of `{}` can call `_` methods", si.name));
      set_ref(Ref{RefKind::Method, si.index_of(m), sid});
      if (si.module == mod_ && tir_->fns[m->fn.index].return_inferred && !fn_in_progress_[m->fn.index])
        ensure_fn_checked(m->fn);
      return si.module == mod_ ? tir_->fns[m->fn.index].type : m->type;
    }
    if (si.builtin && builtins_->nominal_is_open(sid)) {
      set_ref(Ref{RefKind::DynamicMember});
      return types_->any();
    }
    std::vector<std::string_view> names;
    for (const FieldInfo& f : si.fields) names.push_back(f.name);
    Diagnostic& d = error(DiagKind::UnknownField, field.span,
                          fmt::format("type `{}` does not have a field named `{}`", si.name, field.text));
    if (auto c = closest(field.text, names)) d.with_hint(fmt::format("did you mean `{}`?", *c)).with_fix(field.span, *c);
    return types_->error();
  }
  // Built-in value types have methods but no fields.
  const auto& methods = builtins_->methods(obj, field.text);
  Diagnostic& d = error(DiagKind::UnknownField, field.span,
                        fmt::format("`{}` has no field `{}`", show(obj), field.text));
  if (!methods.empty()) d.with_hint(fmt::format("`{}` is a method: call it with `.{}()`", field.text, field.text));
  (void)object;
  return types_->error();
}

TypeId Checker::check_field(ExprId e, const FieldExpr& f) {
  // `origin.` with the member still to be typed (reported by the parser): the receiver is
  // checked, so its names resolve for the editor, and nothing more is said.
  if (f.field.text.empty()) {
    check_expr(f.object);
    return types_->error();
  }
  // `Type.member` outside a call: a static method used as a value.
  if (auto* n = std::get_if<NameRef>(&expr(f.object).data)) {
    Lookup l = lookup(n->name.text);
    if (l.kind == Lookup::Symbol) {
      SymbolId t = resolve_import_target(l.sym);
      if (t.valid() && prog_.symbol(t).kind == SymbolKind::Type) {
        prog_.symbol(l.sym).used = true;
        StructId sid = prog_.symbol(t).struct_id;
        set_type(f.object, types_->struct_type(sid));
        tir_->refs[f.object.index] = Ref{RefKind::Symbol, t.index};
        const StructInfo& si = types_->struct_info(sid);
        if (const MethodInfo* m = si.method(f.field.text); m && m->is_static) {
          tir_->refs[e.index] = Ref{RefKind::Method, si.index_of(m), sid};
          return m->type;
        }
        error(DiagKind::UnknownMethod, f.field.span,
              fmt::format("type `{}` has no static method `{}`", si.name, f.field.text));
        return types_->error();
      }
    }
  }
  TypeId obj = check_member_object(f.object);
  return member_type(e, f.object, obj, f.field, false);
}

TypeId Checker::check_member_object(ExprId object) {
  // Built-in modules (`log`, `db`, `jwt`, ...) are namespaces of the compiled runtime, not
  // values: their name may only stand before `.member`. symbol_value_type reports any other use.
  member_object_ = std::holds_alternative<NameRef>(expr(object).data);
  TypeId t = check_expr(object);
  member_object_ = false;
  return t;
}

TypeId Checker::check_tuple_index(ExprId e, const TupleIndexExpr& t) {
  TypeId obj = check_expr(t.object);
  TypeKind k = types_->kind(obj);
  if (k == TypeKind::Error) return obj;
  tir_->refs[e.index] = Ref{RefKind::TupleIndex, t.index};
  if (k == TypeKind::Any || k == TypeKind::Never) return types_->any();
  if (k == TypeKind::Tuple) {
    auto elems = types_->args(obj);
    if (t.index < elems.size()) return elems[t.index];
    error(DiagKind::TupleIndexOutOfRange, t.index_span,
          fmt::format("tuple of {} element{} does not have index {}", elems.size(), elems.size() == 1 ? "" : "s",
                      t.index));
    return types_->error();
  }
  if (k == TypeKind::Nullable) {
    error(DiagKind::NullableAccess, t.index_span, fmt::format("cannot use `.{}` on `{}`, which may be null", t.index, show(obj)));
    return types_->error();
  }
  error(DiagKind::TupleIndexOutOfRange, t.index_span,
        fmt::format("access `.{}` only applies to tuples, received `{}`", t.index, show(obj)));
  return types_->error();
}

TypeId Checker::check_index(ExprId e, const IndexExpr& i) {
  TypeId obj = check_expr(i.object);
  TypeId idx = check_expr(i.index);
  TypeKind k = types_->kind(obj);
  auto want_int = [&](TypeId result) {
    if (!types_->compatible(idx, types_->int_()) || types_->kind(idx) == TypeKind::Nullable) {
      error(DiagKind::IndexType, span_of(i.index),
            fmt::format("index of `{}` must be `Int`, received `{}`", show(obj), show(idx)));
      return result;
    }
    coerce(i.index, idx, types_->int_());
    return result;
  };
  switch (k) {
    case TypeKind::Error: return obj;
    case TypeKind::Any:
    case TypeKind::Never: return types_->any();
    case TypeKind::Py:
      note_python();
      if (!types_->is_error(idx) && !coerce(i.index, idx, types_->py()))
        error(DiagKind::IndexType, span_of(i.index), fmt::format("a `{}` cannot index a Python value", show(idx)));
      return types_->py();
    case TypeKind::List: return want_int(types_->elem(obj));
    case TypeKind::Str: return want_int(types_->str());
    case TypeKind::Bytes: return want_int(types_->int_());
    case TypeKind::Map:
      if (!types_->compatible(idx, types_->key(obj))) {
        error(DiagKind::IndexType, span_of(i.index),
              fmt::format("index of `{}` must be `{}`, received `{}`", show(obj), show(types_->key(obj)), show(idx)));
      } else {
        coerce(i.index, idx, types_->key(obj));
      }
      return types_->value(obj);
    case TypeKind::Nullable:
      error(DiagKind::NullableAccess, span_of(i.object),
            fmt::format("cannot index `{}`, which may be null", show(obj)))
          .with_hint("check it against `null` first");
      return types_->error();
    case TypeKind::Struct:
      if (builtins_->nominal_is_open(types_->struct_of(obj))) return types_->any();
      [[fallthrough]];
    default: {
      Diagnostic& d = error(DiagKind::NotIndexable, span_of(i.object),
                            fmt::format("type `{}` does not support indexing with `[]`", show(obj)));
      if (k == TypeKind::Tuple) d.with_hint("tuple elements are read with `.0`, `.1`, ...");
      return types_->error();
    }
  }
  (void)e;
}

TypeId Checker::check_slice(ExprId e, const SliceExpr& s) {
  TypeId obj = check_expr(s.object);
  for (int side = 0; side < 2; ++side) {
    ExprId x = side == 0 ? s.start : s.end;
    if (!x.valid()) continue;
    TypeId t = check_expr(x, types_->int_());
    if (!types_->compatible(t, types_->int_()))
      error(DiagKind::RangeBoundType, span_of(x),
            fmt::format("{} of a slice must be `Int`, received `{}`", side == 0 ? "start" : "end", show(t)));
    else
      coerce(x, t, types_->int_());
  }
  switch (types_->kind(obj)) {
    case TypeKind::Error:
    case TypeKind::List:
    case TypeKind::Str:
    case TypeKind::Bytes: return obj;
    case TypeKind::Any:
    case TypeKind::Never: return types_->any();
    default:
      error(DiagKind::NotIndexable, span_of(s.object),
            fmt::format("type `{}` does not support slicing with `[..]`", show(obj)));
      return types_->error();
  }
  (void)e;
}

}  // namespace fitz::checker::detail
