// Python values (`Py`): calls typed `Result<Py>`, operators between a `Py` and anything with a
// Python form, and the places where a `Py` needs a declared type first. The checker knows no
// Python signatures; it checks everything around them.
#include "checker/check_internal.h"

namespace fitz::checker::detail {

void Checker::note_python() {
  for (FnScope* s = scope_; s; s = s->parent)
    if (s->info) {
      s->info->uses_python = true;
      return;
    }
}

void Checker::py_args(const CallExpr& c) {
  for (const Arg& a : c.args) {
    TypeId t = check_expr(a.value);
    if (types_->is_error(t)) continue;
    if (!coerce(a.value, t, types_->py()))
      error(DiagKind::ArgumentType, span_of(a.value),
            fmt::format("a `{}` has no Python form and cannot be passed to Python", show(t)))
          .with_hint("pass its fields, or a value built from them");
  }
}

TypeId Checker::py_call(ExprId e, const CallExpr& c, CallInfo& info) {
  note_python();
  info.kind = CallKind::Python;
  py_args(c);
  add_call(e, std::move(info));
  return types_->result(types_->py(), types_->str());
}

TypeId Checker::py_binary(BinaryOp op, Span op_span, ExprId lhs, TypeId l, ExprId rhs, TypeId r) {
  note_python();
  bool is_cmp = op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
                op == BinaryOp::Gt || op == BinaryOp::Ge;
  bool is_arith = op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul || op == BinaryOp::Div ||
                  op == BinaryOp::Mod;
  if (!is_cmp && !is_arith) {
    error(DiagKind::PyOperator, op_span, fmt::format("operator `{}` does not apply to a `Py` value", spelling(op)))
        .with_hint("convert it to a declared type first: `let ok: Bool = v`");
    return is_cmp || op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor ? types_->bool_()
                                                                                      : types_->error();
  }
  bool ok = coerce(lhs, l, types_->py()) && coerce(rhs, r, types_->py());
  if (!ok) {
    error(DiagKind::InvalidOperands, op_span,
          fmt::format("operator `{}` does not accept `{}` and `{}`", spelling(op), show(l), show(r)));
    return is_cmp ? types_->bool_() : types_->error();
  }
  // Comparisons answer with Python's truth of the result; arithmetic stays in Python.
  return is_cmp ? types_->bool_() : types_->py();
}

bool Checker::py_needs_type(ExprId e, TypeId t, std::string_view where) {
  if (!types_->is_py(t)) return false;
  error(DiagKind::PyNeedsType, span_of(e), fmt::format("a `Py` value cannot be used as {} without a declared type", where))
      .with_hint("convert it first, e.g. `let ok: Bool = v`");
  return true;
}

}  // namespace fitz::checker::detail
