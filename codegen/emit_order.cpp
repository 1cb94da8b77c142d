// Evaluation order: Fitz evaluates operands left to right, C++ leaves the order of function
// arguments unspecified. Operands that could observe each other's effects are evaluated into
// temporaries first; statements that an operand needs before it (statement-level lowering in
// async fns) keep their place in that order.
#include <algorithm>

#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

Gen::Cls Gen::classify(ExprId id) {
  if (!id.valid()) return Cls::Complex;
  const Expr& e = ast_->get(id);
  auto at_least_simple = [](Cls c) { return c == Cls::Const ? Cls::Simple : c; };
  auto join = [](Cls a, Cls b) { return a > b ? a : b; };
  return std::visit(
      [&](const auto& d) -> Cls {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, IntLit> || std::is_same_v<T, FloatLit> || std::is_same_v<T, BoolLit> ||
                      std::is_same_v<T, NullLit> || std::is_same_v<T, BytesLit> ||
                      std::is_same_v<T, LambdaExpr>) {
          return Cls::Const;
        } else if constexpr (std::is_same_v<T, StrLit>) {
          Cls c = Cls::Const;
          for (const auto& p : d.parts)
            if (p.is_hole()) c = join(c, at_least_simple(classify(p.hole)));
          return c;
        } else if constexpr (std::is_same_v<T, NameRef>) {
          const Ref& r = tir_->ref_of(id);
          if (r.kind != RefKind::Symbol) return Cls::Simple;
          const Symbol& s = prog_.symbol(SymbolId(r.id));
          if (s.kind == SymbolKind::Function) return Cls::Const;
          // Only a closure could change a local between two operands, and captured locals
          // live in cells: an uncaptured local or parameter reads the same either way.
          if ((s.kind == SymbolKind::Local || s.kind == SymbolKind::Param) && !boxed_.count(r.id)) return Cls::Const;
          return Cls::Simple;
        } else if constexpr (std::is_same_v<T, FieldExpr> || std::is_same_v<T, TupleIndexExpr>) {
          return at_least_simple(classify(d.object));
        } else if constexpr (std::is_same_v<T, UnaryExpr>) {
          return at_least_simple(classify(d.operand));
        } else if constexpr (std::is_same_v<T, BinaryExpr>) {
          return at_least_simple(join(classify(d.lhs), classify(d.rhs)));
        } else if constexpr (std::is_same_v<T, RangeExpr>) {
          return join(classify(d.start), classify(d.end));
        } else if constexpr (std::is_same_v<T, TupleExpr> || std::is_same_v<T, ListExpr>) {
          Cls c = Cls::Const;
          for (ExprId x : d.elems) c = join(c, classify(x));
          return c;
        } else if constexpr (std::is_same_v<T, MapExpr>) {
          Cls c = Cls::Const;
          for (const auto& en : d.entries) c = join(c, join(classify(en.key), classify(en.value)));
          return c;
        } else if constexpr (std::is_same_v<T, IndexExpr>) {
          return at_least_simple(join(classify(d.object), classify(d.index)));
        } else if constexpr (std::is_same_v<T, SliceExpr>) {
          Cls c = at_least_simple(classify(d.object));
          if (d.start.valid()) c = join(c, classify(d.start));
          if (d.end.valid()) c = join(c, classify(d.end));
          return c;
        } else {
          return Cls::Complex;
        }
      },
      e.data);
}

std::vector<std::string> Gen::sequence(const std::vector<Child>& children) {
  size_t n = children.size();
  std::vector<std::string> code(n), pre(n);
  std::vector<Cls> cls(n);
  for (size_t i = 0; i < n; ++i) {
    pre[i] = take_block_text([&] { code[i] = children[i].gen(); });
    cls[i] = classify(children[i].id);
  }
  size_t nonconst = 0, complex = 0, last_nonconst = 0, last_pre = 0;
  bool any_pre = false;
  for (size_t i = 0; i < n; ++i) {
    if (cls[i] != Cls::Const) {
      ++nonconst;
      last_nonconst = i;
    }
    if (cls[i] == Cls::Complex) ++complex;
    if (!pre[i].empty()) {
      any_pre = true;
      last_pre = i;
    }
  }
  bool order = nonconst >= 2 && complex >= 1;
  for (size_t i = 0; i < n; ++i) {
    out_ += pre[i];
    if (cls[i] == Cls::Const) continue;
    // GCC 12 rejects a co_await inside a braced initializer list ("array used as initializer"
    // at the end of the coroutine): an awaited operand of a list, map or call gets its own
    // statement, after the operands before it and before the ones after it.
    bool awaits = code[i].find("co_await") != std::string::npos;
    bool hoist = (any_pre && i < last_pre) || (order && i < last_nonconst) || awaits;
    if (!hoist) continue;
    std::string t = tmp("a");
    line(fmt::format("auto {} = {};", t, code[i]));
    code[i] = "std::move(" + t + ")";
  }
  return code;
}

std::vector<std::string> Gen::sequence_exprs(const std::vector<ExprId>& ids) {
  std::vector<Child> cs;
  cs.reserve(ids.size());
  for (ExprId id : ids) cs.push_back(child_of(this, id));
  return sequence(cs);
}

}  // namespace fitz::codegen
