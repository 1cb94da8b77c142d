// One walk over a module: statements, expressions, blocks and patterns in source order, with a
// stack of scopes for shadowing and the enclosing function for the lints that need its return
// type. Symbols, types and call targets come from the checker's tables; nothing is re-derived.
#include "lint/module_lints.h"

#include <string>
#include <string_view>
#include <unordered_set>
#include <variant>

#include <fmt/format.h>

namespace fitz::lint {

namespace {

using namespace frontend;
using checker::SymbolId;
using checker::SymbolKind;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

Diagnostic finding(DiagKind kind, Span span, std::string message) {
  Diagnostic d;
  d.kind = kind;
  d.severity = default_severity(kind);
  d.span = span;
  d.message = std::move(message);
  return d;
}

class ModuleLinter {
 public:
  ModuleLinter(const checker::TypedProgram& program, const checker::ModuleTir& tir, const Ast& ast,
               std::vector<Diagnostic>& out)
      : prog_(program), tir_(tir), ast_(ast), out_(out) {}

  void run() {
    find_functions_used_as_values();
    for (StmtId s : ast_.top_level) stmt(s, false);
  }

 private:
  struct Binding {
    std::string_view name;
    SymbolId symbol;
    Span span;
  };

  // Functions named anywhere but as a callee (a callback, a middleware, a handler passed on)
  // must keep the signature their user expects, so their parameters are not reported.
  void find_functions_used_as_values() {
    std::vector<bool> callee(ast_.exprs.size(), false);
    for (const Expr& e : ast_.exprs)
      if (const auto* c = std::get_if<CallExpr>(&e.data); c && c->callee.valid()) callee[c->callee.index] = true;
    for (uint32_t i = 0; i < ast_.exprs.size() && i < tir_.refs.size(); ++i) {
      const checker::Ref& r = tir_.refs[i];
      if (callee[i] || r.kind != checker::RefKind::Symbol || !std::holds_alternative<NameRef>(ast_.exprs[i].data)) continue;
      if (prog_.symbol(SymbolId(r.id)).kind == SymbolKind::Function) used_as_value_.insert(r.id);
    }
  }

  // ---- scopes (shadowed_variable) ----------------------------------------------------------

  void push() { scopes_.emplace_back(); }
  void pop() { scopes_.pop_back(); }

  // Records that `symbol` is introduced at `at`. Only a variable's first binding declares it:
  // within a function a name is one variable (`let`, `for` and `match` of an existing name
  // assign it, the checker resolves them to one symbol), so what can hide a name is a lambda's
  // or nested function's binding. Only inside functions: a local may reuse a global's name.
  void declare(SymbolId symbol, Span at) {
    if (!symbol.valid() || scopes_.empty() || fns_.empty()) return;
    const checker::Symbol& sy = prog_.symbol(symbol);
    if (sy.kind != SymbolKind::Local && sy.kind != SymbolKind::Param) return;
    if (sy.span.begin != at.begin) return;
    for (const auto& scope : scopes_)
      for (const Binding& b : scope)
        if (b.symbol == symbol) return;
    if (const Binding* hidden = sy.name.starts_with("_") ? nullptr : outer(sy.name))
      out_.push_back(finding(DiagKind::LintShadowedVariable, at,
                             fmt::format("`{}` shadows a variable of the enclosing function", sy.name))
                         .with_label(hidden->span, fmt::format("`{}` declared here", sy.name))
                         .with_hint("rename one of them, so that each name means one value"));
    scopes_.back().push_back({prog_.symbol(symbol).name, symbol, at});
  }

  // The binding named `name` in a scope enclosing the innermost one; nullptr: none.
  const Binding* outer(std::string_view name) const {
    for (size_t i = scopes_.size() - 1; i-- > 0;)
      for (const Binding& b : scopes_[i])
        if (b.name == name) return &b;
    return nullptr;
  }

  // ---- functions ---------------------------------------------------------------------------

  void function(FnId id) {
    const FnDecl& d = ast_.get(id);
    const checker::FnInfo& fi = tir_.fns[id.index];
    if (!fi.checked) return;
    fns_.push_back(&fi);
    push();
    for (size_t i = 0; i < d.params.size() && i < fi.params.size(); ++i) {
      const checker::ParamInfo& p = fi.params[i];
      declare(p.symbol, p.span);
      if (d.params[i].default_value.valid()) expr(d.params[i].default_value);
    }
    unused_parameters(d, fi);
    block(d.body, BlockUse::Statements);
    pop();
    fns_.pop_back();
  }

  // A decorated function's parameters are bound by name (route, query, command-line, job
  // arguments): renaming one changes the program's interface, so they are left alone.
  void unused_parameters(const FnDecl& d, const checker::FnInfo& fi) {
    if (!d.decorators.empty()) return;
    if (fi.symbol.valid() && used_as_value_.count(fi.symbol.index)) return;
    for (const checker::ParamInfo& p : fi.params) {
      if (!p.symbol.valid() || p.name.starts_with("_")) continue;
      if (prog_.symbol(p.symbol).used) continue;
      out_.push_back(finding(DiagKind::LintUnusedParameter, p.span, fmt::format("unused parameter `{}`", p.name))
                         .with_hint(fmt::format("if this is intended, name it `_{}` (callers that pass it by "
                                                "name must then write `_{}`)",
                                                p.name, p.name))
                         .with_fix(Span{p.span.file, p.span.begin, p.span.begin}, "_"));
    }
  }

  // ---- statements --------------------------------------------------------------------------

  // Whether the value of a block's last expression statement is used: a function or loop body
  // drops it; the arms of `if` and `match`, which may be values, might not.
  enum class BlockUse { Statements, MaybeValue };

  void block(BlockId id, BlockUse use) {
    if (!id.valid()) return;
    push();
    const Block& b = ast_.get(id);
    for (size_t i = 0; i < b.stmts.size(); ++i)
      stmt(b.stmts[i], use == BlockUse::MaybeValue && i + 1 == b.stmts.size());
    pop();
  }

  void stmt(StmtId id, bool value_maybe_used) {
    const Stmt& s = ast_.get(id);
    std::visit(Overloaded{
                   [&](const AssignStmt& a) {
                     expr(a.value);
                     if (const auto* n = std::get_if<NameRef>(&ast_.get(a.target).data)) {
                       const checker::Ref& r = tir_.ref_of(a.target);
                       if (r.kind == checker::RefKind::Symbol) declare(SymbolId(r.id), n->name.span);
                     } else {
                       expr(a.target);
                     }
                   },
                   [&](const AnnotatedAssignStmt& a) {
                     expr(a.value);
                     if (id.index < tir_.annotated_symbols.size()) declare(tir_.annotated_symbols[id.index], a.name.span);
                   },
                   [&](const LetPatternStmt& l) {
                     expr(l.value);
                     pattern(l.pattern);
                   },
                   [&](const ExprStmt& e) {
                     if (!value_maybe_used) unchecked_result(e.expr);
                     expr(e.expr);
                   },
                   [&](const ReturnStmt& r) {
                     needless_try(r.value);
                     expr(r.value);
                   },
                   [&](const StatusReturnStmt& r) {
                     expr(r.status);
                     expr(r.body);
                   },
                   [&](const BreakStmt& b) { expr(b.value); },
                   [&](const ContinueStmt&) {},
                   [&](const WhileStmt& w) {
                     expr(w.condition);
                     block(w.body, BlockUse::Statements);
                   },
                   [&](const ForStmt& f) {
                     expr(f.iterable);
                     push();
                     pattern(f.pattern);
                     block(f.body, BlockUse::Statements);
                     pop();
                   },
                   [&](const FnStmt& f) {
                     if (const SymbolId b = tir_.fns[f.fn.index].binding; b.valid() && ast_.get(f.fn).name)
                       declare(b, ast_.get(f.fn).name->span);
                     function(f.fn);
                   },
                   [&](const TypeStmt& t) {
                     for (FnId m : ast_.get(t.type).methods) function(m);
                   },
                   [&](const ImportStmt&) {},
                   [&](const FromImportStmt&) {},
                   [&](const ErrorStmt&) {},
               },
               s.data);
  }

  // ---- lints on single nodes ---------------------------------------------------------------

  // A call statement whose value is a `Result` (after `.await`): its error is dropped unseen.
  void unchecked_result(ExprId e) {
    ExprId call = e;
    if (const auto* a = std::get_if<AwaitExpr>(&ast_.get(e).data)) call = a->operand;
    if (!std::holds_alternative<CallExpr>(ast_.get(call).data)) return;
    checker::TypeId t = tir_.type_of(e);
    if (!t.valid() || prog_.types->kind(t) != checker::TypeKind::Result) return;
    Span at = ast_.get(e).span;
    out_.push_back(finding(DiagKind::LintUncheckedResult, at,
                           fmt::format("this `{}` is dropped: an error would go unnoticed", prog_.types->display(t)))
                       .with_hint("handle it with `?` or `match`, or write `let _ = ...` to drop it on purpose")
                       .with_fix(Span{at.file, at.begin, at.begin}, "let _ = "));
  }

  // `return Ok(e?)` in a function that returns e's own Result type: `return e` is the same.
  void needless_try(ExprId value) {
    if (!value.valid() || fns_.empty()) return;
    const auto* ok = std::get_if<ResultExpr>(&ast_.get(value).data);
    if (!ok || !ok->is_ok || !ok->value.valid()) return;
    const auto* t = std::get_if<TryExpr>(&ast_.get(ok->value).data);
    if (!t || tir_.try_converts_error_to_text(ok->value)) return;
    checker::TypeId inner = tir_.type_of(t->operand);
    if (!inner.valid() || inner != fns_.back()->return_type || prog_.types->is_error(inner)) return;
    Span whole = ast_.get(value).span;
    Span operand = ast_.get(t->operand).span;
    out_.push_back(finding(DiagKind::LintNeedlessTry, t->op_span, "needless `?`: `Ok(e?)` returns what `e` already is")
                       .with_label(whole, fmt::format("this is `{}` itself", prog_.types->display(inner)))
                       .with_hint("return the value itself: remove `Ok(` and `?)`")
                       .with_fix(Span{whole.file, whole.begin, operand.begin}, "")
                       .with_fix(Span{whole.file, operand.end, whole.end}, ""));
  }

  // A match with one unguarded arm whose pattern matches everything.
  void needless_match(const MatchExpr& m) {
    if (m.arms.size() != 1 || m.arms[0].guard.valid()) return;
    const Pattern& p = ast_.get(m.arms[0].pattern);
    const auto* bind = std::get_if<BindPat>(&p.data);
    if (!bind && !std::holds_alternative<WildcardPat>(p.data)) return;
    std::string hint = bind ? fmt::format("write `let {} = ...` and the arm's body after it", bind->name.text)
                            : std::string("write the arm's body alone (keep the matched expression as a statement "
                                          "if it has an effect)");
    out_.push_back(finding(DiagKind::LintNeedlessMatch, m.match_span, "needless `match`: its only arm matches every value")
                       .with_label(p.span, "this pattern always matches")
                       .with_hint(std::move(hint)));
  }

  // An interpolated string as the SQL text of a built-in whose first parameter is `sql`.
  void sql_interpolation(ExprId call, const CallExpr& c) {
    const checker::CallInfo* info = tir_.call_of(call);
    if (!info || info->kind != checker::CallKind::BuiltinMethod || c.args.empty()) return;
    const checker::BuiltinEntry& entry = prog_.builtins->entry(info->builtin);
    if (!entry.signature.starts_with("(sql:")) return;
    ExprId text = c.args[0].value;
    const auto* s = std::get_if<StrLit>(&ast_.get(text).data);
    if (!s) return;
    for (const StrPart& part : s->parts)
      if (part.is_hole()) {
        out_.push_back(finding(DiagKind::LintSqlInterpolation, ast_.get(text).span,
                               fmt::format("interpolated SQL text passed to `{}`", entry.name))
                           .with_label(ast_.get(part.hole).span, "this value becomes SQL")
                           .with_hint("write `$1`, `$2`, ... in the SQL and pass the values in the parameter list"));
        return;
      }
  }

  // ---- expressions and patterns ------------------------------------------------------------

  void pattern(PatternId id) {
    if (!id.valid()) return;
    std::visit(Overloaded{
                   [&](const BindPat& b) {
                     if (id.index < tir_.pattern_symbols.size()) declare(tir_.pattern_symbols[id.index], b.name.span);
                   },
                   [&](const ResultPat& r) { pattern(r.inner); },
                   [&](const TuplePat& t) {
                     for (PatternId p : t.elems) pattern(p);
                   },
                   [&](const OrPat& o) {
                     for (PatternId p : o.alternatives) pattern(p);
                   },
                   [&](const auto&) {},
               },
               ast_.get(id).data);
  }

  void clauses(const std::vector<CompClause>& cs) {
    for (const CompClause& c : cs) {
      expr(c.iterable);
      pattern(c.pattern);
    }
  }

  void expr(ExprId id) {
    if (!id.valid()) return;
    std::visit(Overloaded{
                   [&](const StrLit& s) {
                     for (const StrPart& p : s.parts) expr(p.hole);
                   },
                   [&](const TupleExpr& t) {
                     for (ExprId e : t.elems) expr(e);
                   },
                   [&](const ListExpr& l) {
                     for (ExprId e : l.elems) expr(e);
                   },
                   [&](const MapExpr& m) {
                     for (const MapEntry& e : m.entries) {
                       expr(e.key);
                       expr(e.value);
                     }
                   },
                   [&](const ListComp& c) {
                     push();
                     clauses(c.clauses);
                     expr(c.filter);
                     expr(c.elem);
                     pop();
                   },
                   [&](const MapComp& c) {
                     push();
                     clauses(c.clauses);
                     expr(c.filter);
                     expr(c.key);
                     expr(c.value);
                     pop();
                   },
                   [&](const UnaryExpr& u) { expr(u.operand); },
                   [&](const BinaryExpr& b) {
                     expr(b.lhs);
                     expr(b.rhs);
                   },
                   [&](const RangeExpr& r) {
                     expr(r.start);
                     expr(r.end);
                   },
                   [&](const FieldExpr& f) { expr(f.object); },
                   [&](const TupleIndexExpr& t) { expr(t.object); },
                   [&](const AwaitExpr& a) { expr(a.operand); },
                   [&](const TryExpr& t) { expr(t.operand); },
                   [&](const CallExpr& c) {
                     sql_interpolation(id, c);
                     expr(c.callee);
                     for (const Arg& a : c.args) expr(a.value);
                   },
                   [&](const IndexExpr& i) {
                     expr(i.object);
                     expr(i.index);
                   },
                   [&](const SliceExpr& s) {
                     expr(s.object);
                     expr(s.start);
                     expr(s.end);
                   },
                   [&](const StructLit& s) {
                     for (const FieldInit& f : s.fields) expr(f.value);
                   },
                   [&](const ResultExpr& r) { expr(r.value); },
                   [&](const IfExpr& i) {
                     expr(i.condition);
                     block(i.then_block, BlockUse::MaybeValue);
                     block(i.else_block, BlockUse::MaybeValue);
                   },
                   [&](const MatchExpr& m) {
                     needless_match(m);
                     expr(m.scrutinee);
                     for (const MatchArm& a : m.arms) {
                       push();
                       pattern(a.pattern);
                       expr(a.guard);
                       block(a.body, BlockUse::MaybeValue);
                       pop();
                     }
                   },
                   [&](const LoopExpr& l) { block(l.body, BlockUse::Statements); },
                   [&](const LambdaExpr& l) { function(l.fn); },
                   [&](const auto&) {},
               },
               ast_.get(id).data);
  }

  const checker::TypedProgram& prog_;
  const checker::ModuleTir& tir_;
  const Ast& ast_;
  std::vector<Diagnostic>& out_;
  std::vector<std::vector<Binding>> scopes_;
  std::vector<const checker::FnInfo*> fns_;  // the enclosing functions, innermost last
  std::unordered_set<uint32_t> used_as_value_;  // SymbolId indexes of functions named as values
};

}  // namespace

void lint_module(const checker::TypedProgram& program, const checker::ModuleTir& tir, const frontend::Ast& ast,
                 std::vector<frontend::Diagnostic>& out) {
  if (!tir.checked) return;
  ModuleLinter(program, tir, ast, out).run();
}

}  // namespace fitz::lint
