// `match`: arms tried in order as an if/else chain over pattern tests; bindings are assigned
// once an arm's pattern (and guard) holds. No arm matching is a runtime error.
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

std::string Gen::pattern_test(PatternId p, const std::string& v, TypeId vt) {
  const Pattern& pat = ast_->get(p);
  bool nullable = types_.kind(vt) == TypeKind::Nullable;
  return std::visit(
      [&](const auto& d) -> std::string {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, WildcardPat> || std::is_same_v<T, BindPat>) {
          return "true";
        } else if constexpr (std::is_same_v<T, LiteralPat>) {
          return fmt::format("fitz::eq({}, {})", v, expr_raw(d.literal));
        } else if constexpr (std::is_same_v<T, RangePat>) {
          std::string val = v;
          if (nullable) val = fmt::format("({}).value()", v);
          std::string test;
          if (types_.is_dynamic(vt)) {
            return fmt::format("(({0}).is_int() && ({0}).int_value() >= {1}LL && ({0}).int_value() {2} {3}LL)", v, d.lo,
                               d.inclusive ? "<=" : "<", d.hi);
          }
          test = fmt::format("({0} >= {1}LL && {0} {2} {3}LL)", val, d.lo, d.inclusive ? "<=" : "<", d.hi);
          return nullable ? fmt::format("(!({}).is_null() && {})", v, test) : test;
        } else if constexpr (std::is_same_v<T, ResultPat>) {
          if (types_.kind(vt) == TypeKind::Any) {
            // The checker only knows the value as Any: test the boxed Result at run time.
            std::string sub = pattern_test(d.inner, fmt::format("fitz::any_result_inner({})", v), types_.any());
            std::string head = fmt::format("fitz::{}({})", d.is_ok ? "any_is_ok" : "any_is_err", v);
            return sub == "true" ? head : "(" + head + " && " + sub + ")";
          }
          TypeId inner = d.is_ok ? types_.ok(vt) : types_.err(vt);
          std::string sub = pattern_test(d.inner, fmt::format("({}).{}()", v, d.is_ok ? "value" : "error"), inner);
          std::string head = fmt::format("({}).{}()", v, d.is_ok ? "is_ok" : "is_err");
          return sub == "true" ? head : "(" + head + " && " + sub + ")";
        } else if constexpr (std::is_same_v<T, TuplePat>) {
          std::string s;
          auto args = types_.args(vt);
          for (size_t i = 0; i < d.elems.size(); ++i) {
            TypeId et = i < args.size() ? args[i] : types_.any();
            std::string sub = pattern_test(d.elems[i], fmt::format("std::get<{}>({})", i, v), et);
            if (sub == "true") continue;
            s += (s.empty() ? "" : " && ") + sub;
          }
          return s.empty() ? "true" : "(" + s + ")";
        } else if constexpr (std::is_same_v<T, OrPat>) {
          std::string s;
          for (PatternId alt : d.alternatives) s += (s.empty() ? "" : " || ") + pattern_test(alt, v, vt);
          return "(" + s + ")";
        } else {
          return "false";
        }
      },
      pat.data);
}

std::string Gen::match_expr(ExprId id, const MatchExpr& m, bool as_value) {
  TypeId type = tir_->type_of(id);
  TypeId st = tir_->type_of(m.scrutinee);
  bool value = as_value && types_.kind(type) != TypeKind::Null;
  std::string r = tmp("r");
  std::string sv = tmp("s");
  bool lower = as_value && lowering();
  std::string text = take_block_text([&] {
    if (as_value && !lower) {
      line("({");
      ++indent_;
      if (value) line(cpp_type(type) + " " + r + "{};");
    } else if (lower) {
      if (value) line(cpp_type(type) + " " + r + "{};");
      line("{");
      ++indent_;
    } else {
      line("{");
      ++indent_;
    }
    line(fmt::format("auto {} = {};", sv, expr(m.scrutinee)));
    // `do { ... } while (false)` would swallow `break`/`continue` of enclosing loops; a flag
    // and plain ifs keep them working.
    std::string done = tmp("m");
    line(fmt::format("bool {} = false;", done));
    for (const MatchArm& arm : m.arms) {
      std::string test = pattern_test(arm.pattern, sv, st);
      line(fmt::format("if (!{} && {}) {{", done, test));
      ++indent_;
      TypeId pt = arm.pattern.index < tir_->pattern_types.size() ? tir_->pattern_types[arm.pattern.index] : st;
      std::string bound = sv;
      if (types_.kind(st) == TypeKind::Nullable && pt.valid() && types_.kind(pt) != TypeKind::Nullable &&
          std::holds_alternative<BindPat>(ast_->get(arm.pattern).data))
        bound = sv + ".value()";
      bind_pattern(arm.pattern, bound, bound == sv ? st : pt);
      if (arm.guard.valid()) {
        line("if (" + expr(arm.guard) + ") {");
        ++indent_;
      }
      line(done + " = true;");
      if (value)
        block_value(arm.body, type, r);
      else
        block(arm.body);
      if (arm.guard.valid()) {
        --indent_;
        line("}");
      }
      --indent_;
      line("}");
    }
    line(fmt::format("if (!{}) fitz::runtime_error({}, \"no arm of this `match` matches the value\");", done,
                     pos(m.match_span)));
    if (as_value && !lower) {
      line(value ? r + ";" : "fitz::null;");
      --indent_;
      line("})");
    } else {
      --indent_;
      line("}");
    }
  });
  if (!as_value) {
    out_ += text;
    return "";
  }
  if (lower) {
    out_ += text;
    return value ? r : "fitz::null";
  }
  return text;
}

}  // namespace fitz::codegen
