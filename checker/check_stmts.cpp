// Statements and control flow: assignments (variables take the LUB of what they are assigned),
// definite assignment, loops and labels, returns (declared or inferred), break/continue.
#include "checker/check_internal.h"

namespace fitz::checker::detail {

namespace {

std::string_view label_text(const Ident& id) {
  std::string_view t = id.text;
  if (!t.empty() && t.front() == '\'') t.remove_prefix(1);
  return t;
}

}  // namespace

TypeId Checker::check_block(BlockId b, ExprId* value_expr) {
  if (!b.valid()) return types_->null();
  const Block& bl = ast_->get(b);
  TypeId value = types_->null();
  ExprId vexpr;
  bool warned = false;
  auto saved_narrow = scope_->narrowed;
  for (size_t i = 0; i < bl.stmts.size(); ++i) {
    if (scope_->flow.unreachable && !warned && options_.warnings) {
      warning(DiagKind::UnreachableCode, ast_->get(bl.stmts[i]).span, "unreachable code")
          .with_hint("remove it, or move it before the `return`, `break` or `continue`");
      warned = true;
    }
    bool last = i + 1 == bl.stmts.size();
    check_stmt(bl.stmts[i], last, &value, &vexpr);
  }
  // Narrowings made inside the block end with it; removals (assignments) persist.
  Narrowing kept;
  for (auto& [k, v] : saved_narrow)
    if (scope_->narrowed.count(k)) kept.try_emplace(k, v);
  scope_->narrowed = std::move(kept);
  if (scope_->flow.unreachable) value = types_->never();
  if (value_expr) *value_expr = vexpr;
  return value;
}

void Checker::check_stmt(StmtId s, bool is_last, TypeId* block_value, ExprId* value_expr) {
  const Stmt& st = ast_->get(s);
  if (++depth_ > kMaxDepth) {
    error(DiagKind::ExpressionTooDeep, st.span, "code nested too deeply to check")
        .with_hint("split it into smaller functions");
    --depth_;
    scope_->flow.unreachable = false;
    return;
  }
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, AssignStmt>) {
          check_assign(st, d);
        } else if constexpr (std::is_same_v<T, AnnotatedAssignStmt>) {
          check_annotated(s, d);
        } else if constexpr (std::is_same_v<T, LetPatternStmt>) {
          TypeId t = check_expr(d.value);
          bind_pattern(d.pattern, t, true, "let");
        } else if constexpr (std::is_same_v<T, ExprStmt>) {
          TypeId t = check_expr(d.expr);
          if (is_last && block_value) {
            *block_value = t;
            if (value_expr) *value_expr = d.expr;
          }
        } else if constexpr (std::is_same_v<T, ReturnStmt>) {
          check_return(d);
        } else if constexpr (std::is_same_v<T, StatusReturnStmt>) {
          check_status_return(d);
        } else if constexpr (std::is_same_v<T, BreakStmt>) {
          check_break(d);
        } else if constexpr (std::is_same_v<T, ContinueStmt>) {
          check_continue(d);
        } else if constexpr (std::is_same_v<T, WhileStmt>) {
          check_while(d);
        } else if constexpr (std::is_same_v<T, ForStmt>) {
          check_for(d);
        } else if constexpr (std::is_same_v<T, FnStmt>) {
          FnInfo& fi = tir_->fns[d.fn.index];
          const FnDecl& fd = ast_->get(d.fn);
          if (fi.symbol.valid()) {  // top-level function: its body is checked on its own
            check_decorator_args(fd.decorators);
            for (const Param& p : fd.params) check_decorator_args(p.decorators);
            check_http_fn(d.fn);
            check_job_fn(d.fn);
            check_ws_fn(d.fn);
            return;
          }
          // A nested named function is a local variable holding a closure.
          declare_fn_signature(d.fn, StructId(), 0);
          if (fd.name) {
            auto it = scope_->vars.find(fd.name->text);
            if (it != scope_->vars.end()) {
              fi.binding = it->second;
              // Assign before checking the body so that it may call itself.
              prog_.symbol(it->second).type = fi.type;
              prog_.symbol(it->second).annotated = true;
              mark_assigned(it->second);
            }
          }
          check_fn_body(d.fn, scope_, TypeId());
          if (fd.name) {
            auto it = scope_->vars.find(fd.name->text);
            if (it != scope_->vars.end()) prog_.symbol(it->second).type = tir_->fns[d.fn.index].type;
          }
        } else if constexpr (std::is_same_v<T, TypeStmt>) {
          if (!scope_->is_module) return;
          StructId sid = tir_->type_decls[d.type.index];
          const TypeDecl& td = ast_->get(d.type);
          // Defaults are evaluated at each instantiation, so globals they read need not be
          // assigned yet here.
          check_decorator_args(td.decorators);
          for (const FieldDecl& f : td.fields) check_decorator_args(f.decorators);
          bool saved = in_decorator_;
          in_decorator_ = true;
          for (const FieldDecl& f : td.fields) {
            if (!f.default_value.valid()) continue;
            const FieldInfo* fi = types_->struct_info(sid).field(f.name.text);
            TypeId want = fi ? fi->type : types_->any();
            TypeId got = check_expr(f.default_value, want);
            if (!coerce(f.default_value, got, want))
              error(DiagKind::FieldTypeMismatch, span_of(f.default_value),
                    fmt::format("field `{}.{}` declared as `{}` received a default of type `{}`", td.name.text,
                                f.name.text, show(want), show(got)));
          }
          in_decorator_ = saved;
        }
      },
      st.data);
  --depth_;
}

void Checker::check_decorator_args(const std::vector<Decorator>& decorators) {
  // Decorator arguments are evaluated when the program starts serving, not in statement order.
  bool saved = in_decorator_;
  in_decorator_ = true;
  for (const Decorator& d : decorators)
    for (const DecoratorArg& a : d.args) {
      // `{name}` in a route path names a handler parameter, not an interpolation hole.
      if (std::holds_alternative<StrLit>(expr(a.value).data))
        set_type(a.value, types_->str());
      else
        check_expr(a.value);
    }
  in_decorator_ = saved;
}

void Checker::mark_assigned(SymbolId sym) {
  auto it = scope_->slot_of.find(sym.index);
  if (it != scope_->slot_of.end()) scope_->flow.set(it->second);
}

void Checker::assign_var(SymbolId id, FnScope* owner, ExprId value, TypeId vt, Span at) {
  Symbol& s = prog_.symbol(id);
  if (s.annotated) {
    if (!types_->compatible(vt, s.type)) {
      Span where = value.valid() ? span_of(value) : at;
      Diagnostic& d = error(DiagKind::AnnotationMismatch, where,
                            fmt::format("`{}` declared as `{}` received a value of type `{}`", s.name, show(s.type),
                                        show(vt)));
      if (s.span.begin != where.begin && s.kind != SymbolKind::Param)
        d.with_label(s.span, fmt::format("`{}` declared here as `{}`", s.name, show(s.type)));
    } else if (value.valid()) {
      coerce(value, vt, s.type);
    }
  } else {
    TypeId v = types_->strip_never(vt);
    if (!s.type.valid()) {
      s.type = v;
      if (id.index < read_untyped_.size() && read_untyped_[id.index]) unstable_ = true;
    } else {
      TypeId nt = types_->lub(s.type, v);
      if (nt != s.type) {
        s.type = nt;
        unstable_ = true;
      }
    }
    if (value.valid()) coerce(value, vt, s.type);
  }
  if (owner) {
    auto it = owner->slot_of.find(id.index);
    if (it != owner->slot_of.end() && owner == scope_) scope_->flow.set(it->second);
    owner->narrowed.erase(id.index);
  }
  scope_->narrowed.erase(id.index);
}

void Checker::assign_name(const Ident& name, SymbolId own, ExprId target, ExprId value, TypeId vt, bool is_let) {
  if (name.text == "_") {
    if (target.valid()) set_type(target, vt);
    return;
  }
  if (own.valid()) {
    const SymbolId sym = own;
    assign_var(sym, scope_, value, vt, name.span);
    if (target.valid()) {
      set_type(target, prog_.symbol(sym).type);
      tir_->refs[target.index] = Ref{RefKind::Symbol, sym.index};
    }
    return;
  }
  Lookup l = lookup(name.text, true);
  if (l.kind == Lookup::Var) {
    assign_var(l.sym, l.scope, value, vt, name.span);
    if (target.valid()) {
      set_type(target, prog_.symbol(l.sym).type);
      tir_->refs[target.index] = Ref{RefKind::Symbol, l.sym.index};
    }
    return;
  }
  if (l.kind == Lookup::Field) {
    const StructInfo& si = types_->struct_info(l.owner);
    const FieldInfo& f = si.fields[l.index];
    if (!types_->compatible(vt, f.type))
      error(DiagKind::FieldTypeMismatch, value.valid() ? span_of(value) : name.span,
            fmt::format("field `{}.{}` expects `{}`, received `{}`", si.name, f.name, show(f.type), show(vt)));
    else if (value.valid())
      coerce(value, vt, f.type);
    if (target.valid()) {
      set_type(target, f.type);
      Ref r{RefKind::Field, l.index, l.owner};
      r.implicit_self = true;
      tir_->refs[target.index] = r;
    }
    return;
  }
  // Not assignable: a function, type, module, import or built-in of that name.
  Lookup any = lookup(name.text, false);
  if (any.kind == Lookup::Symbol) {
    const Symbol& s = prog_.symbol(any.sym);
    error(DiagKind::NotAValue, name.span,
          fmt::format("cannot assign to {} `{}`", s.kind == SymbolKind::Function   ? "function"
                                                  : s.kind == SymbolKind::Type     ? "type"
                                                  : s.kind == SymbolKind::Builtin  ? "built-in function"
                                                  : s.kind == SymbolKind::Module   ? "module"
                                                                                   : "imported name",
                      name.text))
        .with_hint("choose another name for the variable");
    return;
  }
  (void)is_let;
  error(DiagKind::UnknownVariable, name.span, fmt::format("unknown variable `{}`", name.text));
}

void Checker::check_assign(const Stmt& stmt, const AssignStmt& a) {
  if (!a.target.valid()) {
    check_expr(a.value);
    return;
  }
  const Expr& target = expr(a.target);
  if (auto* n = std::get_if<NameRef>(&target.data)) {
    // Looked up once for both uses: checking the value never adds a variable to this scope
    // (prescan_scope declared them all before the body).
    auto found = scope_->vars.find(n->name.text);
    const SymbolId own = found != scope_->vars.end() ? found->second : SymbolId();
    if (a.compound) {
      TypeId l = check_expr(a.target);
      TypeId r = check_expr(a.value);
      TypeId res = binary_result(*a.compound, a.op_span, a.target, l, a.value, r);
      assign_name(n->name, own, ExprId(), ExprId(), res, false);
      return;
    }
    // An annotated variable's type guides the value (lambdas, empty collections).
    TypeId expected;
    if (own.valid() && prog_.symbol(own).annotated) expected = prog_.symbol(own).type;
    TypeId vt = check_expr(a.value, expected);
    assign_name(n->name, own, a.target, a.value, vt, a.is_let);
    return;
  }
  if (auto* f = std::get_if<FieldExpr>(&target.data)) {
    TypeId obj = check_expr(f->object);
    TypeKind ok = types_->kind(obj);
    if (ok != TypeKind::Struct && ok != TypeKind::Module && ok != TypeKind::Nullable && !types_->is_dynamic(obj)) {
      error(DiagKind::InvalidAssignment, f->field.span,
            fmt::format("cannot assign to field `{}` of a value of type `{}`", f->field.text, show(obj)))
          .with_hint("only fields of values of a `type` can be assigned");
      check_expr(a.value);
      return;
    }
    TypeId ft = member_type(a.target, f->object, obj, f->field, false);
    set_type(a.target, ft);
    if (types_->is_error(ft)) {
      check_expr(a.value);
      return;
    }
    const Ref& ref = tir_->refs[a.target.index];
    if (ref.kind == RefKind::Method || ref.kind == RefKind::ModuleMember) {
      if (ref.kind == RefKind::Method) {
        error(DiagKind::InvalidAssignment, f->field.span, fmt::format("cannot assign to method `{}`", f->field.text));
        check_expr(a.value);
        return;
      }
      const Symbol& target_sym = prog_.symbol(SymbolId(ref.id));
      if (target_sym.kind != SymbolKind::Global) {
        error(DiagKind::InvalidAssignment, f->field.span,
              fmt::format("cannot assign to `{}`: only variables of a module can be assigned", f->field.text));
        check_expr(a.value);
        return;
      }
    }
    TypeId vt = a.compound ? binary_result(*a.compound, a.op_span, a.target, ft, a.value, check_expr(a.value))
                           : check_expr(a.value, ft);
    if (!types_->compatible(vt, ft)) {
      std::string owner = ref.struct_id.valid() ? types_->struct_info(ref.struct_id).name + "." : "";
      error(DiagKind::FieldTypeMismatch, span_of(a.value),
            fmt::format("field `{}{}` expects `{}`, received `{}`", owner, f->field.text, show(ft), show(vt)));
    } else if (!a.compound) {
      coerce(a.value, vt, ft);
    }
    return;
  }
  if (auto* ix = std::get_if<IndexExpr>(&target.data)) {
    TypeId obj = check_expr(ix->object);
    TypeId idx = check_expr(ix->index);
    TypeId elem = types_->any();
    TypeKind k = types_->kind(obj);
    std::string what;
    if (k == TypeKind::List) {
      elem = types_->elem(obj);
      what = "list";
      if (!types_->compatible(idx, types_->int_()))
        error(DiagKind::IndexType, span_of(ix->index),
              fmt::format("index of `{}` must be `Int`, received `{}`", show(obj), show(idx)));
      else
        coerce(ix->index, idx, types_->int_());
    } else if (k == TypeKind::Map) {
      elem = types_->value(obj);
      what = "map";
      if (!types_->compatible(idx, types_->key(obj)))
        error(DiagKind::IndexType, span_of(ix->index),
              fmt::format("the map key is `{}`, received `{}`", show(types_->key(obj)), show(idx)));
      else
        coerce(ix->index, idx, types_->key(obj));
    } else if (k == TypeKind::Nullable) {
      error(DiagKind::NullableAccess, span_of(ix->object),
            fmt::format("cannot assign through an index of `{}`, which may be null", show(obj)))
          .with_hint("check it against `null` first");
      elem = types_->error();
    } else if (!types_->is_dynamic(obj) && !(k == TypeKind::Struct && builtins_->nominal_is_open(types_->struct_of(obj)))) {
      error(DiagKind::InvalidAssignment, span_of(ix->object),
            fmt::format("assignment to an index is not supported on `{}`", show(obj)))
          .with_hint(k == TypeKind::Str ? "strings are immutable; build a new one" : "only List and Map elements can be assigned");
      elem = types_->error();
    }
    set_type(a.target, elem);
    TypeId vt = a.compound ? binary_result(*a.compound, a.op_span, a.target, elem, a.value, check_expr(a.value))
                           : check_expr(a.value, elem);
    if (!types_->compatible(vt, elem))
      error(DiagKind::IndexAssignMismatch, span_of(a.value),
            fmt::format("the {} contains `{}`, cannot assign `{}`", what, show(elem), show(vt)));
    else if (!a.compound)
      coerce(a.value, vt, elem);
    return;
  }
  // Anything else was reported by the parser as an invalid target.
  check_expr(a.target);
  check_expr(a.value);
  (void)stmt;
}

void Checker::check_annotated(StmtId stmt, const AnnotatedAssignStmt& a) {
  // The id, not an iterator: checking the value may add to the scope's table and move it.
  auto it = scope_->vars.find(a.name.text);
  const SymbolId sym = it != scope_->vars.end() ? it->second : SymbolId();
  TypeId want = sym.valid() ? prog_.symbol(sym).type : types_->any();
  TypeId vt = check_expr(a.value, want);
  if (sym.valid()) {
    assign_var(sym, scope_, a.value, vt, a.name.span);
    tir_->annotated_symbols[stmt.index] = sym;
  }
}

void Checker::note_return_type(TypeId t, ExprId value, Span at) {
  scope_->inferred_ret = types_->lub(scope_->inferred_ret, t);
  if (value.valid()) scope_->return_values.push_back(value);
  (void)at;
}

void Checker::check_return(const ReturnStmt& r) {
  if (scope_->is_module) {
    error(DiagKind::ReturnOutsideFunction, r.keyword_span, "`return` can only be used inside a function");
    if (r.value.valid()) check_expr(r.value);
    scope_->flow.unreachable = true;
    return;
  }
  TypeId want = scope_->declared_ret;
  TypeId t = r.value.valid() ? check_expr(r.value, want) : types_->null();
  if (want.valid()) {
    if (!types_->compatible(t, want)) {
      Diagnostic& d = error(DiagKind::ReturnTypeMismatch, r.value.valid() ? span_of(r.value) : r.keyword_span,
                            fmt::format("`return` returns `{}` but the function declares `{}`", show(t), show(want)));
      if (scope_->fn.valid() && ast_->get(scope_->fn).return_type.valid())
        d.with_label(ast_->get(ast_->get(scope_->fn).return_type).span, "return type declared here");
    }
    else if (r.value.valid())
      coerce(r.value, t, want);
  } else {
    note_return_type(t, r.value, r.keyword_span);
  }
  scope_->flow.unreachable = true;
}

void Checker::check_status_return(const StatusReturnStmt& r) {
  if (!scope_->allows_status) {
    error(DiagKind::StatusReturnOutsideHandler, r.keyword_span,
          "`return STATUS body` is only allowed inside an HTTP handler or middleware")
        .with_hint("declare the function with @get, @post, @put, @patch or @delete, or return a value");
  }
  if (r.status.valid()) {
    TypeId st = check_expr(r.status);
    if (!types_->compatible(st, types_->int_())) {
      error(DiagKind::StatusCodeInvalid, span_of(r.status),
            fmt::format("the status of `return` must be an `Int`, received `{}`", show(st)));
    } else if (auto* n = std::get_if<NameRef>(&expr(r.status).data)) {
      // A top-level constant (assigned once, from an Int literal) is checked like a literal.
      auto it = int_constants_.find(n->name.text);
      if (it != int_constants_.end() && it->second.has_value() && (*it->second < 100 || *it->second > 599))
        error(DiagKind::StatusCodeInvalid, span_of(r.status),
              fmt::format("status code {} (the value of `{}`) is not between 100 and 599", *it->second, n->name.text));
      else if ((it != int_constants_.end() && !it->second.has_value()) || [&] {
                 Lookup l = lookup(n->name.text);
                 return l.kind == Lookup::Var && (sym(l.sym).kind == SymbolKind::Local || sym(l.sym).kind == SymbolKind::Param);
               }())
        error(DiagKind::StatusCodeInvalid, span_of(r.status),
              fmt::format("the status of `return` must be an Int literal or a top-level constant; `{}` is not a constant",
                          n->name.text))
            .with_hint("status codes are known when the program is compiled (they are listed in the OpenAPI document)");
    } else if (!std::holds_alternative<IntLit>(expr(r.status).data) && !types_->is_error(st)) {
      error(DiagKind::StatusCodeInvalid, span_of(r.status),
            "the status of `return` must be an Int literal or a top-level constant")
          .with_hint("status codes are known when the program is compiled (they are listed in the OpenAPI document)");
    }
  }
  if (r.body.valid()) {
    TypeId bt = check_expr(r.body);
    std::string why;
    if (!json_type_ok(bt, false, why))
      error(DiagKind::HttpNotJson, span_of(r.body),
            fmt::format("the body of `return` has type `{}`, which cannot be sent as JSON: {}", show(bt), why));
  }
  scope_->flow.unreachable = true;
}

LoopCtx* Checker::find_loop(const std::optional<Ident>& label, Span keyword, std::string_view what) {
  if (scope_->loops.empty()) {
    error(DiagKind::BreakOutsideLoop, keyword, fmt::format("`{}` can only be used inside a loop", what));
    return nullptr;
  }
  if (!label) return &scope_->loops.back();
  for (auto it = scope_->loops.rbegin(); it != scope_->loops.rend(); ++it)
    if (it->label == label_text(*label)) return &*it;
  std::vector<std::string_view> labels;
  for (const LoopCtx& l : scope_->loops)
    if (!l.label.empty()) labels.push_back(l.label);
  Diagnostic& d = error(DiagKind::UnknownLabel, label->span,
                        fmt::format("no enclosing loop is labelled `'{}`", label_text(*label)));
  if (auto c = closest(label_text(*label), labels)) d.with_hint(fmt::format("did you mean `'{}`?", *c));
  return nullptr;
}

void Checker::check_break(const BreakStmt& b) {
  LoopCtx* loop = find_loop(b.label, b.keyword_span, "break");
  TypeId t = types_->null();
  if (b.value.valid()) t = check_expr(b.value);
  if (loop) {
    if (b.value.valid() && !loop->is_loop_expr)
      error(DiagKind::BreakValueOutsideLoopExpr, span_of(b.value),
            "`break` with a value is only allowed inside `loop`; `while` and `for` produce no value");
    if (loop->is_loop_expr) {
      loop->break_type = types_->lub(loop->break_type, t);
      if (b.value.valid()) loop->break_values.push_back(b.value);
    }
    loop->at_break = loop->any_break ? FlowState::meet(loop->at_break, scope_->flow) : scope_->flow;
    loop->any_break = true;
  }
  scope_->flow.unreachable = true;
}

void Checker::check_continue(const ContinueStmt& c) {
  find_loop(c.label, c.keyword_span, "continue");
  scope_->flow.unreachable = true;
}

void Checker::check_condition(ExprId cond, std::string_view what) {
  if (!cond.valid()) return;
  TypeId t = check_expr(cond, types_->bool_());
  // The wording is built only for a `Py` condition, the one case py_needs_type reports.
  if (types_->is_py(t) && py_needs_type(cond, t, fmt::format("the {} condition", what))) return;
  if (!types_->compatible(t, types_->bool_()) || types_->kind(t) == TypeKind::Nullable)
    error(DiagKind::ConditionNotBool, span_of(cond),
          fmt::format("the {} condition must be `Bool`, received `{}`", what, show(t)))
        .with_hint(types_->is_numeric(t) ? "there is no truthiness: compare explicitly, e.g. `x != 0`"
                                         : "there is no truthiness: compare explicitly");
  else
    coerce(cond, t, types_->bool_());
}

void Checker::check_while(const WhileStmt& w) {
  check_condition(w.condition, "`while`");
  FlowState before = scope_->flow;
  bool forever = w.condition.valid() && std::holds_alternative<BoolLit>(expr(w.condition).data) &&
                 std::get<BoolLit>(expr(w.condition).data).value;
  LoopCtx ctx;
  if (w.label) ctx.label = label_text(*w.label);
  scope_->loops.push_back(std::move(ctx));
  // `while node != null { ... }` narrows `node` in the body (until it is assigned).
  auto saved_narrow = scope_->narrowed;
  for (auto& [sym, t] : non_null_when(w.condition, true)) scope_->narrowed[sym.index] = t;
  check_block(w.body);
  Narrowing kept;
  for (auto& [k, v] : saved_narrow)
    if (scope_->narrowed.count(k)) kept.try_emplace(k, v);
  scope_->narrowed = std::move(kept);
  LoopCtx done = std::move(scope_->loops.back());
  scope_->loops.pop_back();
  if (forever) {
    scope_->flow = done.any_break ? done.at_break : FlowState{{}, true};
  } else {
    scope_->flow = before;
  }
}

TypeId Checker::iter_elem_type(ExprId iterable, TypeId t, bool tuple_pattern, const char* what) {
  switch (types_->kind(t)) {
    case TypeKind::List: return types_->elem(t);
    case TypeKind::Range: return types_->int_();
    case TypeKind::Map: {
      if (!tuple_pattern) return types_->key(t);
      TypeId kv[] = {types_->key(t), types_->value(t)};
      return types_->tuple(kv);
    }
    case TypeKind::Error: return types_->error();
    case TypeKind::Any:
    case TypeKind::Never: return types_->any();
    case TypeKind::Py:
      note_python();
      if (tuple_pattern) {
        py_needs_type(iterable, t, fmt::format("the {} iterable of a tuple pattern", what));
        return types_->error();
      }
      return types_->py();
    default:
      error(DiagKind::NotIterable, span_of(iterable),
            fmt::format("the {} iterable must be a `List`, `Range` or `Map`, received `{}`", what, show(t)))
          .with_hint(types_->kind(t) == TypeKind::Int   ? "to count, iterate a range: `0..n`"
                     : types_->kind(t) == TypeKind::Str ? "to iterate characters, use `.chars()`"
                                                         : "iterate a List, Range or Map");
      return types_->error();
  }
}

void Checker::check_for(const ForStmt& f) {
  TypeId t = f.iterable.valid() ? check_expr(f.iterable) : types_->error();
  bool tuple_pat = f.pattern.valid() && std::holds_alternative<TuplePat>(ast_->get(f.pattern).data);
  TypeId elem = iter_elem_type(f.iterable, t, tuple_pat, "`for`");
  FlowState before = scope_->flow;
  LoopCtx ctx;
  if (f.label) ctx.label = label_text(*f.label);
  scope_->loops.push_back(std::move(ctx));
  bind_pattern(f.pattern, elem, false, "for");
  check_block(f.body);
  scope_->loops.pop_back();
  // The body may run zero times; the loop variable keeps its last value after the loop but is
  // not definitely assigned.
  scope_->flow = before;
}

}  // namespace fitz::checker::detail
