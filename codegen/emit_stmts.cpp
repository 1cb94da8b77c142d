// Statements: assignments (to variables, fields and elements), returns, loops with labels,
// destructuring, and control-flow expressions used as statements.
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

// The loop a `break`/`continue` leaves: the innermost one, or the one with that label.
Gen::LoopCtx* Gen::loop_target(const std::optional<Ident>& label) {
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
    if (!label || (it->label && *it->label == label->text)) return &*it;
  return nullptr;
}

// `for pattern in iterable`: `body` emits what runs per element, after the pattern is bound.
void Gen::for_loop(const ForStmt& s, const std::function<void()>& body) {
  LoopCtx ctx;
  if (s.label) ctx.label = s.label->text;
  ctx.break_label = tmp("brk");
  ctx.continue_label = tmp("cont");
  line("{");
  ++indent_;
  LoopElem el = open_loop(s.iterable, s.pattern);
  ++indent_;
  loops_.push_back(ctx);
  line("{");
  ++indent_;
  bind_loop_elem(s.pattern, el);
  body();
  close_loop_body();
  --indent_;
  line("}");
}

// Closes a loop's body block and the loop, with the `continue` and `break` labels of the
// innermost loop context, which it pops (for and while loops alike).
void Gen::close_loop_body() {
  --indent_;
  line("}");
  line(loops_.back().continue_label + ":;");
  --indent_;
  line("}");
  line(loops_.back().break_label + ":;");
  loops_.pop_back();
}

// The loop of a `for` statement and of a comprehension clause: declares the iterated value,
// evaluated once, and opens `for (...) {`. The element types are the checker's
// (Checker::iter_elem_type): a map's keys for a single name, its entries for `(k, v)` (a snapshot,
// so the body may assign to the map), a Python iterable's items as Py.
Gen::LoopElem Gen::open_loop(ExprId iterable, PatternId pattern) {
  TypeId it_type = tir_->type_of(iterable);
  std::string source = expr(iterable);
  LoopElem el{tmp("e"), types_.any()};
  std::string coll = tmp("it");
  auto over = [&](const std::string& value) {
    line(fmt::format("auto {} = {};", coll, value));
    line(fmt::format("for (auto {} : {}) {{", el.var, coll));
  };
  switch (types_.kind(it_type)) {
    case TypeKind::List:
      el.type = types_.elem(it_type);
      over(source);
      break;
    case TypeKind::Range:
      el.type = types_.int_();
      line(fmt::format("for (int64_t {} : {}) {{", el.var, source));
      break;
    case TypeKind::Map:
      if (pair_pattern(pattern)) {
        el.type = types_.tuple(std::vector<TypeId>{types_.key(it_type), types_.value(it_type)});
        el.map_entry = true;
        line(fmt::format("const auto {} = ({}).snapshot();", coll, source));
        line(fmt::format("for (const auto& {} : {}) {{", el.var, coll));
      } else {
        el.type = types_.key(it_type);
        over("(" + source + ").keys()");
      }
      break;
    case TypeKind::Py:
      el.type = types_.py();
      over(fmt::format("fitz::py::iter({}, {})", source, pos(ast_->get(iterable).span)));
      break;
    default:
      over(fmt::format("fitz::any_iter({}, {})", source, pos(ast_->get(iterable).span)));
      break;
  }
  return el;
}

void Gen::bind_loop_elem(PatternId pattern, const LoopElem& e) {
  if (e.map_entry)
    bind_map_entry(pattern, e.var, e.type);
  else
    bind_pattern(pattern, e.var, e.type);
}

void Gen::block(BlockId id) {
  for (StmtId s : ast_->get(id).stmts) stmt(s);
}

void Gen::assign_to(ExprId target, const std::string& value) {
  const Expr& t = ast_->get(target);
  if (auto* n = std::get_if<NameRef>(&t.data); n && n->name.text == "_") {
    line("(void)(" + value + ");");  // `let _ = f()`: evaluated for its effects, never stored
  } else if (std::holds_alternative<NameRef>(t.data)) {
    line(expr_raw(target) + " = " + value + ";");
  } else if (auto* f = std::get_if<FieldExpr>(&t.data)) {
    const Ref& r = tir_->ref_of(target);
    if (r.kind == RefKind::Field && r.implicit_self) {
      line(fmt::format("this->fld_{} = {};", f->field.text, value));
    } else if (r.kind == RefKind::Field) {
      line(fmt::format("{}->fld_{} = {};", expr(f->object), f->field.text, value));
    } else if (r.kind == RefKind::ModuleMember) {
      line(sym_ref(SymbolId(r.id)) + " = " + value + ";");
    } else {
      line(fmt::format("fitz::any_set_field({}, \"{}\", fitz::to_any({}), {});", expr(f->object),
                       f->field.text, value, pos(t.span)));
    }
  } else if (auto* ix = std::get_if<IndexExpr>(&t.data)) {
    TypeKind k = types_.kind(tir_->type_of(ix->object));
    if (k == TypeKind::Map)
      line(fmt::format("{}.set({}, {});", expr(ix->object), expr(ix->index), value));
    else if (k == TypeKind::List)
      line(fmt::format("{}.set({}, {}, {});", expr(ix->object), expr(ix->index), value, pos(t.span)));
    else
      line(fmt::format("fitz::any_set_index({}, fitz::to_any({}), fitz::to_any({}), {});", expr(ix->object),
                       expr(ix->index), value, pos(t.span)));
  } else {
    result_.unsupported.push_back("an assignment target");
  }
}

// `(k, v)` over a map binds from the map's own entry type (`MapEntry`, fitz/map.h) instead of
// a `std::tuple` per entry: a tuple of each key/value type, and a List of them, is among the
// most expensive things a generated program makes the C++ compiler instantiate.
bool Gen::pair_pattern(PatternId p) const {
  auto* t = std::get_if<TuplePat>(&ast_->get(p).data);
  return t && t->elems.size() == 2;
}

void Gen::bind_map_entry(PatternId p, const std::string& entry, TypeId pair_type) {
  const auto& t = std::get<TuplePat>(ast_->get(p).data);
  auto args = types_.args(pair_type);
  bind_pattern(t.elems[0], entry + ".key", args[0]);
  bind_pattern(t.elems[1], entry + ".value", args[1]);
}

void Gen::bind_pattern(PatternId p, const std::string& value, TypeId value_type) {
  const Pattern& pat = ast_->get(p);
  if (std::holds_alternative<BindPat>(pat.data)) {
    SymbolId s = tir_->pattern_symbols[p.index];
    if (!s.valid()) return;
    TypeId want = prog_.symbol(s).type;
    std::string v = convert_to(value, value_type, want, pat.span);
    if (fn_ && !fn_->declared.count(s.index) && prog_.symbol(s).kind != SymbolKind::Global) {
      fn_->declared.insert(s.index);
      if (boxed_.count(s.index))
        line(fmt::format("auto {} = fitz::make<{}>({});", local_name(s), cpp_type(want), v));
      else
        line(fmt::format("{} {} = {};", cpp_type(want), local_name(s), v));
      return;
    }
    line(sym_ref(s) + " = " + v + ";");
  } else if (auto* t = std::get_if<TuplePat>(&pat.data)) {
    std::string tv = tmp("t");
    line(fmt::format("auto {} = {};", tv, value));
    auto args = types_.args(value_type);
    bool dynamic = types_.kind(value_type) != TypeKind::Tuple;
    for (size_t i = 0; i < t->elems.size(); ++i) {
      if (dynamic) {
        bind_pattern(t->elems[i], fmt::format("fitz::any_index({}, {}, {})", tv, i, pos(pat.span)),
                     types_.any());
      } else {
        bind_pattern(t->elems[i], fmt::format("std::get<{}>({})", i, tv),
                     i < args.size() ? args[i] : types_.any());
      }
    }
  } else if (auto* r = std::get_if<ResultPat>(&pat.data)) {
    if (types_.kind(value_type) == TypeKind::Any) {  // a Result the checker knows only as Any
      bind_pattern(r->inner, fmt::format("fitz::any_result_inner({})", value), types_.any());
      return;
    }
    TypeId inner = r->is_ok ? types_.ok(value_type) : types_.err(value_type);
    bind_pattern(r->inner, fmt::format("{}.{}()", value, r->is_ok ? "value" : "error"), inner);
  }
  // Wildcards and literal patterns bind nothing.
}

void Gen::stmt(StmtId id) {
  const Stmt& st = ast_->get(id);
  line_directive(st.span);
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, AssignStmt>) {
          if (s.compound) {
            // `x += v` is `x = x + v`; the target is evaluated twice, as the language says.
            static const char* names[] = {"add", "sub", "mul", "div", "mod"};
            std::string op;
            switch (*s.compound) {
              case BinaryOp::Add: case BinaryOp::Sub: case BinaryOp::Mul: case BinaryOp::Div:
              case BinaryOp::Mod:
                op = names[int(*s.compound) - int(BinaryOp::Add)];
                break;
              case BinaryOp::BitAnd: op = "bit_and"; break;
              case BinaryOp::BitOr: op = "bit_or"; break;
              case BinaryOp::BitXor: op = "bit_xor"; break;
              case BinaryOp::Shl: op = "shl"; break;
              case BinaryOp::Shr: op = "shr"; break;
              default: op = "add"; break;
            }
            ExprId target = s.target;
            auto cv = sequence({Child{[this, target] { return expr_raw(target); }, target}, child_of(this, s.value)});
            bool bitwise = op == "bit_and" || op == "bit_or" || op == "bit_xor";
            std::string v = bitwise ? fmt::format("fitz::op::{}({}, {})", op, cv[0], cv[1])
                                    : fmt::format("fitz::op::{}({}, {}, {})", op, cv[0], cv[1], pos(s.op_span));
            TypeId tt = tir_->type_of(s.target);
            assign_to(s.target, fmt::format("static_cast<{}>({})", cpp_type(tt), v));
          } else {
            assign_to(s.target, expr(s.value));
          }
        } else if constexpr (std::is_same_v<T, AnnotatedAssignStmt>) {
          SymbolId sym = id.index < tir_->annotated_symbols.size() ? tir_->annotated_symbols[id.index] : SymbolId();
          if (!sym.valid()) {
            result_.unsupported.push_back(fmt::format("the annotated variable `{}` without its symbol", s.name.text));
            return;
          }
          if (view_binds_.count(sym.index) && is_view_placeholder(s.value)) return;  // `x: T = __fz_any()`
          line(sym_ref(sym) + " = " + expr(s.value) + ";");
        } else if constexpr (std::is_same_v<T, LetPatternStmt>) {
          bind_pattern(s.pattern, expr(s.value), tir_->type_of(s.value));
        } else if constexpr (std::is_same_v<T, ExprStmt>) {
          const Expr& e = ast_->get(s.expr);
          if (auto* m = std::get_if<MatchExpr>(&e.data)) {
            match_expr(s.expr, *m, false);
          } else if (auto* i = std::get_if<IfExpr>(&e.data)) {
            if_expr(s.expr, *i, false);
          } else if (auto* l = std::get_if<LoopExpr>(&e.data)) {
            loop_expr(s.expr, *l, false);
          } else {
            line("(void)(" + expr(s.expr) + ");");
          }
        } else if constexpr (std::is_same_v<T, ReturnStmt>) {
          if (!fn_ || fn_->top_level) {
            line("return;");
            return;
          }
          if (s.value.valid() && types_.kind(tir_->type_of(s.value)) == TypeKind::Never) {
            // `return match x { ... }` where every arm returns by itself: there is no value
            // left to return, and a Never-typed temporary must not reach co_return.
            line("(void)(" + expr(s.value) + ");");
            return;
          }
          if (fn_->http) {  // a handler or middleware answers the request
            // `Html` is a Str in C++: what tells the page apart from a JSON string is the type.
            const char* out = fn_->html ? "fzh::html_out(" : "fzh::out(";
            line(return_stmt(s.value.valid() ? out + expr_as(s.value, fn_->ret) + ")" : "fzh::Out::pass()"));
            return;
          }
          if (!s.value.valid()) {
            line(return_stmt(cpp_type(fn_->ret) + "{}"));
            return;
          }
          line(return_stmt(expr_as(s.value, fn_->ret)));
        } else if constexpr (std::is_same_v<T, BreakStmt>) {
          LoopCtx* target = loop_target(s.label);
          if (!target) {
            result_.unsupported.push_back("a `break` outside a loop");
            return;
          }
          if (!target->result_var.empty()) {
            std::string v = s.value.valid()
                                ? expr_as(s.value, target->result_type)
                                : cpp_type(target->result_type) + "{}";
            line(target->result_var + " = " + v + ";");
          }
          if (s.label && target != &loops_.back())
            line("goto " + target->break_label + ";");
          else
            line("break;");
        } else if constexpr (std::is_same_v<T, ContinueStmt>) {
          LoopCtx* target = loop_target(s.label);
          if (!target) {
            result_.unsupported.push_back("a `continue` outside a loop");
            return;
          }
          if (s.label && target != &loops_.back())
            line("goto " + target->continue_label + ";");
          else
            line("continue;");
        } else if constexpr (std::is_same_v<T, WhileStmt>) {
          LoopCtx ctx;
          if (s.label) ctx.label = s.label->text;
          ctx.break_label = tmp("brk");
          ctx.continue_label = tmp("cont");
          loops_.push_back(ctx);
          std::string cond;
          std::string pre = take_block_text([&] { cond = expr(s.condition); });
          if (pre.empty()) {
            line("while (" + cond + ") {");
            ++indent_;
          } else {
            // The condition needs statements: they run before each test.
            line("while (true) {");
            ++indent_;
            out_ += pre;
            line("if (!(" + cond + ")) break;");
          }
          line("{");
          ++indent_;
          block(s.body);
          close_loop_body();
        } else if constexpr (std::is_same_v<T, ForStmt>) {
          for_loop(s, [&] { block(s.body); });
        } else if constexpr (std::is_same_v<T, FnStmt>) {
          // A named fn inside a block is a variable holding a closure (the checker's binding).
          const FnInfo& info = tir_->fns[s.fn.index];
          SymbolId sym = info.symbol.valid() ? info.symbol : info.binding;
          if (!sym.valid()) {
            result_.unsupported.push_back("a nested function without the variable that holds it");
            return;
          }
          line(sym_ref(sym) + " = " + lambda(ExprId(), LambdaExpr{s.fn}) + ";");
        } else if constexpr (std::is_same_v<T, ImportStmt> || std::is_same_v<T, FromImportStmt>) {
          // A module's top level runs when it is first imported (a no-op after that).
          for (const auto& imp : graph_.get(mod_).imports) {
            if (imp.stmt == id && imp.target.valid()) line(ns(imp.target) + "::init();");
            if (imp.stmt == id && imp.python) emit_python_imports(st.span);
          }
        } else if constexpr (std::is_same_v<T, TypeStmt> || std::is_same_v<T, ErrorStmt>) {
          // Declarations are emitted elsewhere.
        } else if constexpr (std::is_same_v<T, StatusReturnStmt>) {
          line(status_return(s, st.span));
        }
      },
      st.data);
}

}  // namespace fitz::codegen
