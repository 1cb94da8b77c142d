// Patterns (match arms, for variables, let destructuring, comprehension clauses) and `match`:
// bindings, pattern/scrutinee compatibility, null narrowing across arms, exhaustiveness for
// Result, Bool and nullable scrutinees (guarded arms never count).
#include <span>

#include "checker/check_internal.h"

namespace fitz::checker::detail {

bool Checker::pattern_irrefutable(PatternId p) const {
  if (!p.valid()) return true;
  const Pattern& pat = ast_->get(p);
  if (std::holds_alternative<WildcardPat>(pat.data) || std::holds_alternative<BindPat>(pat.data) ||
      std::holds_alternative<ErrorPat>(pat.data))
    return true;
  if (auto* t = std::get_if<TuplePat>(&pat.data)) {
    for (PatternId x : t->elems)
      if (!pattern_irrefutable(x)) return false;
    return true;
  }
  if (auto* o = std::get_if<OrPat>(&pat.data)) {
    for (PatternId x : o->alternatives)
      if (pattern_irrefutable(x)) return true;
  }
  return false;
}

bool Checker::pattern_covers_null(PatternId p) const {
  if (!p.valid()) return false;
  const Pattern& pat = ast_->get(p);
  if (auto* l = std::get_if<LiteralPat>(&pat.data))
    return l->literal.valid() && std::holds_alternative<NullLit>(ast_->get(l->literal).data);
  if (auto* o = std::get_if<OrPat>(&pat.data)) {
    for (PatternId x : o->alternatives)
      if (pattern_covers_null(x)) return true;
  }
  return false;
}

void Checker::bind_pattern(PatternId p, TypeId t, bool refutable_ok, std::string_view context) {
  if (!p.valid()) return;
  const Pattern& pat = ast_->get(p);
  tir_->pattern_types[p.index] = t;
  TypeKind k = types_->kind(t);
  bool dyn = types_->is_dynamic(t);
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, BindPat>) {
          if (d.name.text == "_") return;
          TypeId bt = types_->strip_never(t);
          if (context == "comprehension") {
            auto [it, fresh] = symbol_at_.try_emplace(d.name.span.begin, SymbolId());
            if (fresh) {
              Symbol s;
              s.kind = SymbolKind::Local;
              s.name = std::string(d.name.text);
              s.module = mod_;
              s.span = d.name.span;
              s.fn = scope_->fn;
              it->second = prog_.add_symbol(std::move(s));
              read_untyped_.resize(prog_.symbols.size(), 0);
            }
            Symbol& s = prog_.symbol(it->second);
            s.type = bt;
            s.used = true;  // comprehension variables are not reported as unused
            scope_->shadows.push_back({d.name.text, it->second});
            tir_->pattern_symbols[p.index] = it->second;
            return;
          }
          auto own = scope_->vars.find(d.name.text);
          if (own != scope_->vars.end()) {
            assign_var(own->second, scope_, ExprId(), bt, d.name.span);
            tir_->pattern_symbols[p.index] = own->second;
            return;
          }
          Lookup l = lookup(d.name.text, true);
          if (l.kind == Lookup::Var) {
            assign_var(l.sym, l.scope, ExprId(), bt, d.name.span);
            tir_->pattern_symbols[p.index] = l.sym;
          }
        } else if constexpr (std::is_same_v<T, TuplePat>) {
          if (k == TypeKind::Tuple && types_->args(t).size() == d.elems.size()) {
            std::vector<TypeId> elems(types_->args(t).begin(), types_->args(t).end());
            for (size_t i = 0; i < d.elems.size(); ++i) bind_pattern(d.elems[i], elems[i], refutable_ok, context);
            return;
          }
          if (!dyn) {
            if (k == TypeKind::Tuple)
              error(DiagKind::DestructureMismatch, pat.span,
                    fmt::format("tuple pattern has {} element{}, the value has {}", d.elems.size(),
                                d.elems.size() == 1 ? "" : "s", types_->args(t).size()));
            else
              error(DiagKind::DestructureMismatch, pat.span,
                    fmt::format("tuple pattern of `{}` expects a tuple of {} elements, received `{}`", context,
                                d.elems.size(), show(t)));
          }
          TypeId sub = types_->is_error(t) || !dyn ? types_->error() : types_->any();
          for (PatternId x : d.elems) bind_pattern(x, sub, refutable_ok, context);
        } else if constexpr (std::is_same_v<T, ResultPat>) {
          if (k == TypeKind::Result) {
            bind_pattern(d.inner, d.is_ok ? types_->ok(t) : types_->err(t), refutable_ok, context);
            return;
          }
          if (!dyn)
            error(DiagKind::PatternTypeMismatch, pat.span,
                  fmt::format("pattern `{}(...)` cannot match a value of type `{}`", d.is_ok ? "Ok" : "Err", show(t)));
          bind_pattern(d.inner, dyn && !types_->is_error(t) ? types_->any() : types_->error(), refutable_ok, context);
        } else if constexpr (std::is_same_v<T, LiteralPat>) {
          if (!d.literal.valid()) return;
          TypeId lt = check_expr(d.literal);
          if (dyn || types_->is_error(lt)) return;
          bool ok = types_->compatible(lt, t) || types_->compatible(t, lt) ||
                    (types_->is_numeric(lt) && types_->is_numeric(types_->non_null(t)));
          if (!ok)
            error(DiagKind::PatternTypeMismatch, pat.span,
                  fmt::format("a `{}` pattern cannot match a value of type `{}`", show(lt), show(t)));
        } else if constexpr (std::is_same_v<T, RangePat>) {
          if (!dyn && types_->non_null(t) != types_->int_())
            error(DiagKind::PatternTypeMismatch, pat.span,
                  fmt::format("a range pattern matches `Int` values, not `{}`", show(t)));
        } else if constexpr (std::is_same_v<T, OrPat>) {
          for (PatternId x : d.alternatives) bind_pattern(x, t, refutable_ok, context);
        }
      },
      pat.data);
}

TypeId Checker::check_match(ExprId e, const MatchExpr& m, TypeId expected) {
  TypeId st = check_expr(m.scrutinee);
  if (py_needs_type(m.scrutinee, st, "the subject of a `match`")) st = types_->error();
  FlowState before = scope_->flow;
  FlowState merged{{}, true};
  TypeId result;
  std::vector<std::pair<ExprId, TypeId>> values;
  bool null_seen = false;
  // Coverage of unguarded arms.
  bool catch_all = false, ok_all = false, err_all = false, t_seen = false, f_seen = false;
  SymbolId scrutinee_var;
  if (tir_->refs[m.scrutinee.index].kind == RefKind::Symbol &&
      std::holds_alternative<NameRef>(expr(m.scrutinee).data))
    scrutinee_var = SymbolId(tir_->refs[m.scrutinee.index].id);
  for (const MatchArm& arm : m.arms) {
    scope_->flow = before;
    auto saved = scope_->narrowed;
    // After an arm that handles null, later arms see the non-null type.
    TypeId arm_t = null_seen ? types_->non_null(st) : st;
    bool covers_null = pattern_covers_null(arm.pattern);
    if (!covers_null && scrutinee_var.valid() && null_seen && types_->kind(st) == TypeKind::Nullable)
      scope_->narrowed[scrutinee_var.index] = types_->non_null(st);
    bind_pattern(arm.pattern, arm_t, true, "match");
    if (arm.guard.valid()) check_condition(arm.guard, "guard");
    ExprId vexpr;
    TypeId v = check_block(arm.body, &vexpr);
    values.push_back({vexpr, v});
    result = types_->lub(result, v);
    merged = FlowState::meet(merged, scope_->flow);
    Narrowing kept;
    for (auto& [k2, v2] : saved)
      if (scope_->narrowed.count(k2)) kept.try_emplace(k2, v2);
    scope_->narrowed = std::move(kept);

    if (arm.guard.valid()) continue;
    if (covers_null) null_seen = true;
    if (pattern_irrefutable(arm.pattern)) catch_all = true;
    // The alternatives of an or-pattern, else the pattern alone: viewed in the AST, not copied.
    std::span<const PatternId> alts(&arm.pattern, 1);
    if (auto* o = std::get_if<OrPat>(&ast_->get(arm.pattern).data)) alts = o->alternatives;
    for (PatternId a : alts) {
      const Pattern& pat = ast_->get(a);
      if (auto* r = std::get_if<ResultPat>(&pat.data)) {
        if (pattern_irrefutable(r->inner)) (r->is_ok ? ok_all : err_all) = true;
      } else if (auto* l = std::get_if<LiteralPat>(&pat.data)) {
        if (l->literal.valid())
          if (auto* b = std::get_if<BoolLit>(&expr(l->literal).data)) (b->value ? t_seen : f_seen) = true;
      }
    }
  }
  scope_->flow = m.arms.empty() ? before : merged;

  // Exhaustiveness for the types whose cases are known.
  TypeId inner = types_->non_null(st);
  std::string missing;
  if (!catch_all) {
    std::vector<std::string> miss;
    if (types_->kind(st) == TypeKind::Nullable && !null_seen) miss.push_back("null");
    if (types_->kind(inner) == TypeKind::Result) {
      if (!ok_all) miss.push_back("Ok(_)");
      if (!err_all) miss.push_back("Err(_)");
    } else if (inner == types_->bool_()) {
      if (!t_seen) miss.push_back("true");
      if (!f_seen) miss.push_back("false");
    } else if (types_->kind(st) == TypeKind::Nullable) {
      miss.push_back("v => ...");
    }
    if (types_->kind(st) != TypeKind::Nullable && types_->kind(inner) != TypeKind::Result && inner != types_->bool_())
      miss.clear();
    for (size_t i = 0; i < miss.size(); ++i) missing += (i ? (i + 1 == miss.size() ? " and " : ", ") : "") + ("`" + miss[i] + "`");
  }
  if (!missing.empty())
    error(DiagKind::MatchNotExhaustive, m.match_span,
          fmt::format("`match` over `{}` is not exhaustive: missing {}", show(st), missing))
        .with_hint("add the missing arm, or a catch-all `_ => ...` (guarded arms do not count)");

  if (!result.valid()) result = types_->null();
  for (auto& [x, t] : values)
    if (x.valid()) coerce(x, t, result);
  (void)e;
  (void)expected;
  return result;
}

}  // namespace fitz::checker::detail
