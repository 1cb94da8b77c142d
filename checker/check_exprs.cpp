// Expressions: the dispatcher, literals, operators, await, `?`, if/loop expressions,
// comprehensions, struct literals and lambdas (names are in check_names.cpp, members and
// indexing in check_members.cpp). Every expression gets a type; Error never cascades.
#include <algorithm>

#include "checker/check_internal.h"

namespace fitz::checker::detail {

// ---- the dispatcher -------------------------------------------------------------------------------

TypeId Checker::check_expr(ExprId e, TypeId expected) {
  if (!e.valid()) return types_->error();
  if (++depth_ > kMaxDepth) {
    error(DiagKind::ExpressionTooDeep, span_of(e), "expression nested too deeply")
        .with_hint("split it using intermediate variables");
    --depth_;
    return types_->error();
  }
  TypeId t = check_expr_inner(e, expr(e), expected);
  set_type(e, t);
  --depth_;
  return t;
}

TypeId Checker::check_expr_inner(ExprId e, const Expr& ex, TypeId expected) {
  return std::visit(
      [&](const auto& d) -> TypeId {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, IntLit>) return types_->int_();
        else if constexpr (std::is_same_v<T, FloatLit>) return types_->float_();
        else if constexpr (std::is_same_v<T, BoolLit>) return types_->bool_();
        else if constexpr (std::is_same_v<T, NullLit>) return types_->null();
        else if constexpr (std::is_same_v<T, StrLit>) return check_str(d);
        else if constexpr (std::is_same_v<T, BytesLit>) return types_->bytes();
        else if constexpr (std::is_same_v<T, NameRef>) return check_name(e, d);
        else if constexpr (std::is_same_v<T, TupleExpr>) {
          std::vector<TypeId> elems;
          bool exp_tuple = expected.valid() && types_->kind(expected) == TypeKind::Tuple &&
                           types_->args(expected).size() == d.elems.size();
          for (size_t i = 0; i < d.elems.size(); ++i) {
            TypeId want = exp_tuple ? types_->args(expected)[i] : TypeId();
            elems.push_back(check_expr(d.elems[i], want));
          }
          return types_->tuple(elems);
        }
        else if constexpr (std::is_same_v<T, ListExpr>) return check_list(e, d, expected);
        else if constexpr (std::is_same_v<T, MapExpr>) return check_map(e, d, expected);
        else if constexpr (std::is_same_v<T, ListComp> || std::is_same_v<T, MapComp>) return check_comprehension(e, ex);
        else if constexpr (std::is_same_v<T, UnaryExpr>) return check_unary(e, d);
        else if constexpr (std::is_same_v<T, BinaryExpr>) return check_binary(e, d);
        else if constexpr (std::is_same_v<T, RangeExpr>) return check_range(d);
        else if constexpr (std::is_same_v<T, FieldExpr>) return check_field(e, d);
        else if constexpr (std::is_same_v<T, TupleIndexExpr>) return check_tuple_index(e, d);
        else if constexpr (std::is_same_v<T, AwaitExpr>) return check_await(e, d);
        else if constexpr (std::is_same_v<T, TryExpr>) return check_try(e, d, expected);
        else if constexpr (std::is_same_v<T, CallExpr>) return check_call(e, d, expected);
        else if constexpr (std::is_same_v<T, IndexExpr>) return check_index(e, d);
        else if constexpr (std::is_same_v<T, SliceExpr>) return check_slice(e, d);
        else if constexpr (std::is_same_v<T, StructLit>) return check_struct_lit(e, d);
        else if constexpr (std::is_same_v<T, ResultExpr>) {
          bool exp_result = expected.valid() && types_->kind(expected) == TypeKind::Result;
          TypeId want = exp_result ? (d.is_ok ? types_->ok(expected) : types_->err(expected)) : TypeId();
          TypeId v = check_expr(d.value, want);
          if (exp_result && types_->compatible(v, want)) {
            coerce(d.value, v, want);
            v = want;
          }
          TypeId other = exp_result ? (d.is_ok ? types_->err(expected) : types_->ok(expected)) : types_->never();
          return d.is_ok ? types_->result(v, other) : types_->result(other, v);
        }
        else if constexpr (std::is_same_v<T, IfExpr>) return check_if(e, d, expected);
        else if constexpr (std::is_same_v<T, MatchExpr>) return check_match(e, d, expected);
        else if constexpr (std::is_same_v<T, LoopExpr>) return check_loop(e, d);
        else if constexpr (std::is_same_v<T, LambdaExpr>) return check_lambda(e, d, expected);
        else return types_->error();  // ErrorExpr: already reported by the parser
      },
      ex.data);
}

// ---- literals -------------------------------------------------------------------------------------

TypeId Checker::check_str(const StrLit& s) {
  for (const StrPart& p : s.parts) {
    if (!p.is_hole()) continue;
    TypeId t = check_expr(p.hole);
    if (!p.format_spec.empty()) check_format_spec(p.hole, t, p.format_spec, p.format_span);
  }
  return types_->str();
}

void Checker::check_format_spec(ExprId hole, TypeId t, std::string_view spec, Span spec_span) {
  if (types_->is_dynamic(t)) return;
  std::string_view s = spec;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && is_align(s[1]))
    s.remove_prefix(2);
  else if (!s.empty() && is_align(s[0]))
    s.remove_prefix(1);
  bool sign = false, alt = false, group = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-' || s[0] == ' ')) { sign = true; s.remove_prefix(1); }
  if (!s.empty() && s[0] == '#') { alt = true; s.remove_prefix(1); }
  while (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) s.remove_prefix(1);
  if (!s.empty() && (s[0] == ',' || s[0] == '_')) { group = true; s.remove_prefix(1); }
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    while (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) s.remove_prefix(1);
  }
  char type = s.size() == 1 ? s[0] : 0;
  bool is_int = t == types_->int_(), is_float = t == types_->float_();
  std::string_view expect;
  if (type && std::string_view("eEfFgG%").find(type) != std::string_view::npos) {
    if (!is_int && !is_float) expect = "`Float` or `Int`";
  } else if (type && std::string_view("bcdoxX").find(type) != std::string_view::npos) {
    if (!is_int) expect = "`Int`";
  } else if ((sign || group || alt) && !is_int && !is_float) {
    expect = "`Int` or `Float`";
  }
  if (expect.empty()) return;
  error(DiagKind::FormatSpecMismatch, span_of(hole),
        fmt::format("format spec `{}` is not compatible with `{}` (expected {})", spec, show(t), expect));
  (void)spec_span;
}

TypeId Checker::check_list(ExprId e, const ListExpr& l, TypeId expected) {
  TypeId exp = expected.valid() ? types_->non_null(expected) : TypeId();
  TypeId exp_elem = exp.valid() && types_->kind(exp) == TypeKind::List ? types_->elem(exp) : TypeId();
  if (exp_elem.valid() && types_->has_vars(exp_elem)) exp_elem = TypeId();
  if (l.elems.empty()) return exp_elem.valid() ? types_->list(exp_elem) : types_->list(types_->any());
  std::vector<TypeId> ts;
  TypeId lub;
  bool all_fit = exp_elem.valid();
  for (ExprId x : l.elems) {
    TypeId t = check_expr(x, exp_elem);
    ts.push_back(t);
    lub = types_->lub(lub, t);
    if (all_fit && !types_->compatible(t, exp_elem)) all_fit = false;
  }
  TypeId elem = all_fit ? exp_elem : types_->strip_never(lub);
  for (size_t i = 0; i < l.elems.size(); ++i) coerce(l.elems[i], ts[i], elem);
  (void)e;
  return types_->list(elem);
}

TypeId Checker::check_map(ExprId e, const MapExpr& m, TypeId expected) {
  TypeId exp = expected.valid() ? types_->non_null(expected) : TypeId();
  bool exp_map = exp.valid() && types_->kind(exp) == TypeKind::Map && !types_->has_vars(exp);
  TypeId ek = exp_map ? types_->key(exp) : TypeId(), ev = exp_map ? types_->value(exp) : TypeId();
  if (m.entries.empty()) return exp_map ? exp : types_->map(types_->any(), types_->any());
  TypeId lk, lv;
  bool fit = exp_map;
  std::vector<std::pair<TypeId, TypeId>> ts;
  for (const MapEntry& en : m.entries) {
    // In decorator arguments (`retry={max: 3, backoff: "exponential"}`) a bare name key is
    // the option's name, not a variable.
    bool name_key = in_decorator_ && std::holds_alternative<NameRef>(expr(en.key).data);
    if (name_key) set_type(en.key, types_->str());
    TypeId k = name_key ? types_->str() : check_expr(en.key, ek), v = check_expr(en.value, ev);
    if (py_needs_type(en.key, k, "a map key")) k = types_->error();
    ts.push_back({k, v});
    lk = types_->lub(lk, k);
    lv = types_->lub(lv, v);
    if (fit && (!types_->compatible(k, ek) || !types_->compatible(v, ev))) fit = false;
  }
  TypeId key = fit ? ek : types_->strip_never(lk), val = fit ? ev : types_->strip_never(lv);
  for (size_t i = 0; i < m.entries.size(); ++i) {
    coerce(m.entries[i].key, ts[i].first, key);
    coerce(m.entries[i].value, ts[i].second, val);
  }
  (void)e;
  return types_->map(key, val);
}

// ---- operators ------------------------------------------------------------------------------------

TypeId Checker::check_unary(ExprId e, const UnaryExpr& u) {
  TypeId t = check_expr(u.operand);
  if (types_->is_error(t)) return t;
  bool dyn = types_->is_dynamic(t);
  if (types_->is_py(t)) {
    note_python();
    if (u.op == UnaryOp::Neg) return t;
    error(DiagKind::PyOperator, u.op_span,
          fmt::format("operator `{}` does not apply to a `Py` value", u.op == UnaryOp::Not ? "not" : "~"))
        .with_hint("convert it to a declared type first: `let ok: Bool = v`");
    return u.op == UnaryOp::Not ? types_->bool_() : types_->error();
  }
  switch (u.op) {
    case UnaryOp::Neg:
      if (types_->is_numeric(t)) return t;
      if (dyn) return types_->any();
      error(DiagKind::InvalidOperands, u.op_span,
            fmt::format("operator `-` (negation) expects `Int` or `Float`, received `{}`", show(t)));
      return types_->error();
    case UnaryOp::Not:
      if (t == types_->bool_() || dyn) {
        coerce(u.operand, t, types_->bool_());
        return types_->bool_();
      }
      error(DiagKind::InvalidOperands, u.op_span, fmt::format("operator `not` expects a `Bool`, received `{}`", show(t)))
          .with_hint(types_->is_numeric(t) ? "there is no truthiness: compare explicitly, e.g. `x == 0`"
                                           : "there is no truthiness: compare explicitly");
      return types_->error();
    case UnaryOp::BitNot:
      if (t == types_->int_()) return t;
      if (dyn) return types_->any();
      error(DiagKind::InvalidOperands, u.op_span, fmt::format("operator `~` expects an `Int`, received `{}`", show(t)));
      return types_->error();
  }
  (void)e;
  return types_->error();
}

namespace {

struct NullTest {
  SymbolId sym;
  TypeId non_null;
  bool when_true;  // the variable is non-null when the condition is true
};

}  // namespace

// `x != null` / `x == null` (either side), through `and` (true side) and `or` (false side).
static void collect_null_tests(const Ast& ast, const ModuleTir& tir, TypeStore& types, ExprId cond,
                               bool want_true, std::vector<NullTest>& out) {
  if (!cond.valid()) return;
  const Expr& ex = ast.get(cond);
  auto* b = std::get_if<BinaryExpr>(&ex.data);
  if (!b) return;
  if ((b->op == BinaryOp::And && want_true) || (b->op == BinaryOp::Or && !want_true)) {
    collect_null_tests(ast, tir, types, b->lhs, want_true, out);
    collect_null_tests(ast, tir, types, b->rhs, want_true, out);
    return;
  }
  if (b->op != BinaryOp::Eq && b->op != BinaryOp::Ne) return;
  ExprId var = b->lhs, other = b->rhs;
  if (std::holds_alternative<NullLit>(ast.get(var).data)) std::swap(var, other);
  if (!std::holds_alternative<NullLit>(ast.get(other).data) || !std::holds_alternative<NameRef>(ast.get(var).data))
    return;
  const Ref& r = tir.refs[var.index];
  if (r.kind != RefKind::Symbol) return;
  TypeId t = tir.expr_types[var.index];
  if (types.kind(t) != TypeKind::Nullable) return;
  bool non_null_when_true = b->op == BinaryOp::Ne;
  if (non_null_when_true == want_true) out.push_back({SymbolId(r.id), types.non_null(t), true});
}

std::vector<std::pair<SymbolId, TypeId>> Checker::non_null_when(ExprId cond, bool when_true) {
  std::vector<NullTest> tests;
  collect_null_tests(*ast_, *tir_, *types_, cond, when_true, tests);
  std::vector<std::pair<SymbolId, TypeId>> out;
  for (const NullTest& t : tests) out.push_back({t.sym, t.non_null});
  return out;
}

TypeId Checker::check_binary(ExprId e, const BinaryExpr& b) {
  if (b.op == BinaryOp::And || b.op == BinaryOp::Or) {
    TypeId l = check_expr(b.lhs, types_->bool_());
    std::vector<NullTest> tests;
    collect_null_tests(*ast_, *tir_, *types_, b.lhs, b.op == BinaryOp::And, tests);
    auto saved = scope_->narrowed;
    for (const NullTest& t : tests) scope_->narrowed[t.sym.index] = t.non_null;
    TypeId r = check_expr(b.rhs, types_->bool_());
    Narrowing kept;
    for (auto& [k, v] : saved)
      if (scope_->narrowed.count(k)) kept.try_emplace(k, v);
    scope_->narrowed = std::move(kept);
    return binary_result(b.op, b.op_span, b.lhs, l, b.rhs, r);
  }
  TypeId l = check_expr(b.lhs);
  TypeId r = check_expr(b.rhs);
  (void)e;
  return binary_result(b.op, b.op_span, b.lhs, l, b.rhs, r);
}

TypeId Checker::binary_result(BinaryOp op, Span op_span, ExprId lhs, TypeId l, ExprId rhs, TypeId r) {
  bool is_cmp = op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
                op == BinaryOp::Gt || op == BinaryOp::Ge;
  bool is_logic = op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor;
  if (types_->is_error(l) || types_->is_error(r)) return is_cmp || is_logic ? types_->bool_() : types_->error();
  if (types_->is_py(l) || types_->is_py(r)) return py_binary(op, op_span, lhs, l, rhs, r);
  bool dyn = types_->is_dynamic(l) || types_->is_dynamic(r);
  bool num = types_->is_numeric(l) && types_->is_numeric(r);
  std::string_view sp = spelling(op);
  auto promote = [&]() {
    // Int meets Float: the Int side converts.
    if (l == types_->int_() && r == types_->float_()) set_conv(lhs, l, r);
    if (r == types_->int_() && l == types_->float_()) set_conv(rhs, r, l);
  };
  auto nullable_hint = [&](Diagnostic& d) {
    if (types_->kind(l) == TypeKind::Nullable || types_->kind(r) == TypeKind::Nullable)
      d.with_hint("a nullable value must be checked against `null` first");
  };
  switch (op) {
    case BinaryOp::Add:
      if (num) {
        promote();
        return l == r ? l : types_->float_();
      }
      if (l == types_->str() && r == types_->str()) return l;
      if (dyn) return types_->any();
      {
        Diagnostic& d = error(DiagKind::InvalidOperands, op_span,
                              fmt::format("operator `+` does not accept `{}` and `{}`", show(l), show(r)));
        if ((l == types_->str()) != (r == types_->str()))
          d.with_hint("convert with `.to_str()`, or interpolate: \"text {value}\"");
        nullable_hint(d);
      }
      return types_->error();
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
      if (num) {
        promote();
        return l == r ? l : types_->float_();
      }
      if (dyn) return types_->any();
      nullable_hint(error(DiagKind::InvalidOperands, op_span,
                          fmt::format("operator `{}` expects numeric operands, received `{}` and `{}`", sp, show(l),
                                      show(r))));
      return types_->error();
    case BinaryOp::Mod:
      if (l == types_->int_() && r == types_->int_()) return l;
      if (dyn && (l == types_->int_() || r == types_->int_() || (types_->is_dynamic(l) && types_->is_dynamic(r))))
        return types_->any();
      nullable_hint(error(DiagKind::InvalidOperands, op_span,
                          fmt::format("operator `%` expects `Int` on both sides, received `{}` and `{}`", show(l),
                                      show(r))));
      return types_->error();
    case BinaryOp::Eq:
    case BinaryOp::Ne:
      if (num) promote();
      return types_->bool_();
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      if (num) {
        promote();
        return types_->bool_();
      }
      if ((l == types_->str() && r == types_->str()) || dyn) return types_->bool_();
      if (date_comparison(l, r, op_span)) return types_->bool_();
      nullable_hint(error(DiagKind::InvalidOperands, op_span,
                          fmt::format("comparison between `{}` and `{}` not supported", show(l), show(r))));
      return types_->bool_();
    case BinaryOp::And:
    case BinaryOp::Or:
    case BinaryOp::Xor: {
      bool lok = l == types_->bool_() || types_->is_dynamic(l);
      bool rok = r == types_->bool_() || types_->is_dynamic(r);
      if (!lok || !rok)
        error(DiagKind::InvalidOperands, op_span,
              fmt::format("logical operator `{}` expects `Bool`, {} side is `{}`", sp, lok ? "right" : "left",
                          show(lok ? r : l)))
            .with_hint("there is no truthiness: compare explicitly");
      else {
        coerce(lhs, l, types_->bool_());
        coerce(rhs, r, types_->bool_());
      }
      return types_->bool_();
    }
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
    case BinaryOp::Shl:
    case BinaryOp::Shr: {
      bool lok = l == types_->int_() || types_->is_dynamic(l);
      bool rok = r == types_->int_() || types_->is_dynamic(r);
      if (!lok || !rok) {
        error(DiagKind::InvalidOperands, op_span,
              fmt::format("bitwise operator `{}` expects `Int`, {} side is `{}`", sp, lok ? "right" : "left",
                          show(lok ? r : l)));
        return types_->error();
      }
      return dyn ? types_->any() : types_->int_();
    }
  }
  return types_->error();
}

TypeId Checker::check_range(const RangeExpr& r) {
  for (int side = 0; side < 2; ++side) {
    ExprId x = side == 0 ? r.start : r.end;
    if (!x.valid()) continue;
    TypeId t = check_expr(x, types_->int_());
    if (!types_->compatible(t, types_->int_()) || types_->kind(t) == TypeKind::Nullable)
      error(DiagKind::RangeBoundType, span_of(x),
            fmt::format("{} of the range must be `Int`, received `{}`", side == 0 ? "start" : "end", show(t)));
    else
      coerce(x, t, types_->int_());
  }
  return types_->range();
}

// ---- await, `?` ----------------------------------------------------------------------------------

TypeId Checker::check_await(ExprId e, const AwaitExpr& a) {
  TypeId t = check_expr(a.operand);
  // `conn.recv().await`: the call already waits; `.await` on it changes nothing.
  if (const CallInfo* ci = tir_->call_of(a.operand); ci && ci->suspends) return t;
  Span at = a.await_span;
  std::string_view txt = text(at);
  if (size_t p = txt.find("await"); p != std::string_view::npos && p > 0) {
    at.begin += static_cast<uint32_t>(p);
    at.end = at.begin + 5;
  }
  if (!scope_->is_async) {
    Diagnostic& d = error(DiagKind::AwaitOutsideAsync, at, "`.await` is only valid inside an `async fn` or at top level");
    if (scope_->info && !scope_->is_lambda) d.with_hint("declare the function with `async fn`");
  }
  switch (types_->kind(t)) {
    case TypeKind::Future: return types_->args(t)[0];
    case TypeKind::Error: return t;
    case TypeKind::Any:
    case TypeKind::Never: return types_->any();
    default:
      error(DiagKind::AwaitNonFuture, at, fmt::format("`.await` only applies to a `Future`, received `{}`", show(t)));
      return types_->error();
  }
  (void)e;
}

TypeId Checker::check_try(ExprId e, const TryExpr& t, TypeId expected) {
  // `let q: Quote = r.json()?`: the operand is expected to be a Result of the declared type.
  TypeId ot = check_expr(t.operand, expected.valid() && !types_->is_dynamic(expected) ? types_->result(expected, types_->str()) : TypeId());
  TypeKind k = types_->kind(ot);
  if (k == TypeKind::Error) return ot;
  if (k == TypeKind::Any || k == TypeKind::Never) return types_->any();
  if (k != TypeKind::Result) {
    error(DiagKind::TryNonResult, t.op_span, fmt::format("operator `?` requires a `Result`, received `{}`", show(ot)))
        .with_hint("`?` unwraps `Ok` and returns `Err` early; remove it here");
    return types_->error();
  }
  if (!scope_->is_module) {
    TypeId ret = scope_->declared_ret;
    if (ret.valid()) {
      TypeKind rk = types_->kind(ret);
      if (rk != TypeKind::Result && rk != TypeKind::Any && rk != TypeKind::Error && !scope_->is_handler)
        error(DiagKind::TryOutsideResultFn, t.op_span,
              fmt::format("operator `?` can only be used inside a function that returns `Result`; this one returns `{}`",
                          show(ret)))
            .with_hint("declare the return type as `Result<...>`, or handle the error with `match`");
      if (rk == TypeKind::Result) {
        // The Err propagates into the function's error type: as it is when it fits, as its
        // display text when the function's errors are `Str`, otherwise not at all.
        TypeId from = types_->err(ot), to = types_->err(ret);
        TypeKind fk = types_->kind(from), tk = types_->kind(to);
        bool fits = types_->compatible(from, to) && fk != TypeKind::Any;
        if (!fits && tk == TypeKind::Str)
          tir_->try_error_text.push_back(e);
        else if (!fits && fk == TypeKind::Any)
          ;  // checked at run time, as other values known only as Any
        else if (!fits && fk != TypeKind::Error && tk != TypeKind::Error)
          error(DiagKind::TryErrorMismatch, t.op_span,
                fmt::format("operator `?` propagates a `{}` error, but the function's errors are `{}`", show(from),
                            show(to)))
              .with_hint("convert the error with `match`, or declare the function's error type as `Str` to "
                         "propagate the error's text");
      }
    } else if (!scope_->is_handler) {
      // In a handler an Err answers the request (500, or its `status`); it is not a return value.
      scope_->inferred_ret = types_->lub(scope_->inferred_ret, types_->result(types_->never(), types_->err(ot)));
    }
  }
  (void)e;
  return types_->ok(ot);
}

// ---- if, loop -------------------------------------------------------------------------------------

TypeId Checker::check_if(ExprId e, const IfExpr& i, TypeId expected) {
  check_condition(i.condition, "`if`");
  std::vector<NullTest> on_true, on_false;
  collect_null_tests(*ast_, *tir_, *types_, i.condition, true, on_true);
  collect_null_tests(*ast_, *tir_, *types_, i.condition, false, on_false);
  FlowState before = scope_->flow;
  auto saved = scope_->narrowed;
  for (const NullTest& t : on_true) scope_->narrowed[t.sym.index] = t.non_null;
  ExprId then_expr, else_expr;
  TypeId then_t = check_block(i.then_block, &then_expr);
  FlowState after_then = scope_->flow;
  scope_->flow = before;
  TypeId else_t = types_->null();
  if (i.else_block.valid()) {
    for (const NullTest& t : on_true) scope_->narrowed.erase(t.sym.index);
    for (const NullTest& t : on_false) scope_->narrowed[t.sym.index] = t.non_null;
    else_t = check_block(i.else_block, &else_expr);
  }
  FlowState after_else = scope_->flow;
  scope_->flow = FlowState::meet(after_then, after_else);
  // Narrowings of the branches end with them; a branch that always leaves (return, break)
  // narrows the code after the `if`: `if x == null { return }`.
  Narrowing kept;
  for (auto& [k, v] : saved)
    if (scope_->narrowed.count(k) || std::any_of(on_true.begin(), on_true.end(), [k = k](const NullTest& t) { return t.sym.index == k; }) ||
        std::any_of(on_false.begin(), on_false.end(), [k = k](const NullTest& t) { return t.sym.index == k; }))
      kept.try_emplace(k, v);
  scope_->narrowed = std::move(kept);
  if (after_then.unreachable && !after_else.unreachable)
    for (const NullTest& t : on_false) scope_->narrowed[t.sym.index] = t.non_null;
  if (after_else.unreachable && !after_then.unreachable && i.else_block.valid())
    for (const NullTest& t : on_true) scope_->narrowed[t.sym.index] = t.non_null;

  TypeId result = types_->lub(then_t, else_t);
  if (!result.valid()) result = types_->null();
  if (then_expr.valid()) coerce(then_expr, then_t, result);
  if (else_expr.valid()) coerce(else_expr, else_t, result);
  (void)e;
  (void)expected;
  return result;
}

TypeId Checker::check_loop(ExprId e, const LoopExpr& l) {
  LoopCtx ctx;
  ctx.is_loop_expr = true;
  if (l.label) {
    std::string_view t = l.label->text;
    if (!t.empty() && t.front() == '\'') t.remove_prefix(1);
    ctx.label = t;
  }
  scope_->loops.push_back(std::move(ctx));
  check_block(l.body);
  LoopCtx done = std::move(scope_->loops.back());
  scope_->loops.pop_back();
  if (!done.any_break) {
    scope_->flow = FlowState{{}, true};
    return types_->never();
  }
  scope_->flow = done.at_break;
  TypeId t = done.break_type.valid() ? types_->strip_never(done.break_type) : types_->null();
  for (ExprId v : done.break_values) coerce(v, tir_->expr_types[v.index], t);
  (void)e;
  return t;
}

// ---- comprehensions ---------------------------------------------------------------------------------

TypeId Checker::check_comprehension(ExprId e, const Expr& ex) {
  const std::vector<CompClause>* clauses;
  ExprId filter;
  if (auto* l = std::get_if<ListComp>(&ex.data)) {
    clauses = &l->clauses;
    filter = l->filter;
  } else {
    auto& m = std::get<MapComp>(ex.data);
    clauses = &m.clauses;
    filter = m.filter;
  }
  size_t mark = scope_->shadows.size();
  for (const CompClause& c : *clauses) {
    TypeId it = check_expr(c.iterable);
    bool tuple_pat = c.pattern.valid() && std::holds_alternative<TuplePat>(ast_->get(c.pattern).data);
    TypeId elem = iter_elem_type(c.iterable, it, tuple_pat, "comprehension");
    bind_pattern(c.pattern, elem, false, "comprehension");
  }
  if (filter.valid()) check_condition(filter, "comprehension filter");
  TypeId result;
  if (auto* l = std::get_if<ListComp>(&ex.data)) {
    result = types_->list(types_->strip_never(check_expr(l->elem)));
  } else {
    auto& m = std::get<MapComp>(ex.data);
    TypeId k = types_->strip_never(check_expr(m.key));
    TypeId v = types_->strip_never(check_expr(m.value));
    result = types_->map(k, v);
  }
  scope_->shadows.resize(mark);
  (void)e;
  return result;
}

// ---- struct literals, lambdas ------------------------------------------------------------------------

TypeId Checker::check_struct_lit(ExprId e, const StructLit& s) {
  StructId sid;
  auto it = module_names_.find(s.type_name.text);
  if (it != module_names_.end()) {
    prog_.symbol(it->second).used = true;
    SymbolId t = resolve_import_target(it->second);
    if (t.valid() && prog_.symbol(t).kind == SymbolKind::Type) sid = prog_.symbol(t).struct_id;
    else if (prog_.symbol(it->second).kind == SymbolKind::Import && !t.valid()) {
      for (const FieldInit& f : s.fields) check_expr(f.value);
      return prog_.symbol(it->second).type;  // unresolved import: already reported
    }
  } else if (auto nom = builtins_->nominal(s.type_name.text); nom && !builtins_->nominal_is_open(*nom)) {
    sid = *nom;
  }
  if (!sid.valid()) {
    std::vector<std::string_view> names;
    for (auto& [n, sym] : module_names_)
      if (prog_.symbol(sym).kind == SymbolKind::Type || prog_.symbol(sym).kind == SymbolKind::Import) names.push_back(n);
    std::sort(names.begin(), names.end());  // a tie suggests the same name whatever the hash order
    Diagnostic& d = error(DiagKind::UnknownStructType, s.type_name.span,
                          fmt::format("type `{}` does not exist to instantiate", s.type_name.text));
    if (auto c = closest(s.type_name.text, names)) d.with_hint(fmt::format("did you mean `{}`?", *c)).with_fix(s.type_name.span, *c);
    for (const FieldInit& f : s.fields) check_expr(f.value);
    return types_->error();
  }
  const StructInfo& si = types_->struct_info(sid);
  if (si.builtin && si.name != "Request" && si.name != "Response") {
    // Values of the other built-in types come from the runtime (a multipart body's parts).
    error(DiagKind::BuiltinTypeLiteral, s.type_name.span,
          fmt::format("a `{}` cannot be written as a literal; it is received from the runtime", si.name))
        .with_hint(si.name == "File" ? "a handler receives `File` parts in a `Map<Str, Any>` multipart body"
                                     : "declare a `type` of your own to build values by hand");
    for (const FieldInit& f : s.fields) check_expr(f.value);
    return types_->error();
  }
  tir_->refs[e.index] = Ref{RefKind::StructType, 0, sid};
  std::vector<bool> given(si.fields.size(), false);
  for (const FieldInit& f : s.fields) {
    const FieldInfo* fi = si.field(f.name.text);
    if (!fi) {
      std::vector<std::string_view> names;
      for (const FieldInfo& x : si.fields) names.push_back(x.name);
      Diagnostic& d = error(DiagKind::UnknownField, f.name.span,
                            fmt::format("type `{}` does not have a field named `{}`", si.name, f.name.text));
      if (auto c = closest(f.name.text, names)) d.with_hint(fmt::format("did you mean `{}`?", *c)).with_fix(f.name.span, *c);
      check_expr(f.value);
      continue;
    }
    uint32_t idx = si.index_of(fi);
    if (given[idx]) error(DiagKind::DuplicateMember, f.name.span, fmt::format("field `{}` is given more than once", f.name.text));
    given[idx] = true;
    if (fi->is_private && !can_access_private(sid))
      error(DiagKind::PrivateMember, f.name.span, fmt::format("field `{}.{}` is private", si.name, fi->name))
          .with_hint(fmt::format("only the methods of `{}` can set `_` fields; give it a default", si.name));
    TypeId vt = check_expr(f.value, fi->type);
    if (!types_->compatible(vt, fi->type))
      error(DiagKind::FieldTypeMismatch, span_of(f.value),
            fmt::format("field `{}.{}` expects `{}`, received `{}`", si.name, fi->name, show(fi->type), show(vt)));
    else
      coerce(f.value, vt, fi->type);
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < si.fields.size(); ++i) {
    const FieldInfo& f = si.fields[i];
    if (given[i] || f.has_default) continue;
    TypeKind k = types_->kind(f.type);
    if (k == TypeKind::Nullable || k == TypeKind::Null || k == TypeKind::Any || k == TypeKind::Error) continue;
    missing.push_back("`" + f.name + "`");
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", " : "") + missing[i];
    error(DiagKind::MissingField, s.type_name.span,
          fmt::format("missing field{} {} in `{}` literal", missing.size() == 1 ? "" : "s", list, si.name))
        .with_hint("give every field without a default a value, or declare it nullable with `?`");
  }
  return types_->struct_type(sid);
}

TypeId Checker::check_lambda(ExprId e, const LambdaExpr& l, TypeId expected) {
  declare_fn_signature(l.fn, StructId(), 0);
  TypeId exp = expected.valid() ? types_->non_null(expected) : TypeId();
  check_fn_body(l.fn, scope_, exp.valid() && types_->kind(exp) == TypeKind::Fn ? exp : TypeId());
  (void)e;
  return tir_->fns[l.fn.index].type;
}

TypeId Checker::block_type_value(BlockId b) { return check_block(b); }

}  // namespace fitz::checker::detail
