// Expressions: literals, names, operators, collections, field access, indexing, conversions,
// and the control-flow expressions (if, loop) as GNU statement expressions.
#include <cmath>

#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

std::string cpp_double(double v) {
  if (std::isinf(v)) return v > 0 ? "__builtin_inf()" : "(-__builtin_inf())";
  if (std::isnan(v)) return "__builtin_nan(\"\")";
  std::string s = fmt::format("{:.17g}", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

const char* binary_fn(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "fitz::op::add";
    case BinaryOp::Sub: return "fitz::op::sub";
    case BinaryOp::Mul: return "fitz::op::mul";
    case BinaryOp::Div: return "fitz::op::div";
    case BinaryOp::Mod: return "fitz::op::mod";
    case BinaryOp::Lt: return "fitz::op::lt";
    case BinaryOp::Le: return "fitz::op::le";
    case BinaryOp::Gt: return "fitz::op::gt";
    case BinaryOp::Ge: return "fitz::op::ge";
    case BinaryOp::BitAnd: return "fitz::op::bit_and";
    case BinaryOp::BitOr: return "fitz::op::bit_or";
    case BinaryOp::BitXor: return "fitz::op::bit_xor";
    case BinaryOp::Shl: return "fitz::op::shl";
    case BinaryOp::Shr: return "fitz::op::shr";
    default: return "";
  }
}

}  // namespace

std::string Gen::convert_to(const std::string& code, TypeId from, TypeId to, Span at) {
  if (!from.valid() || !to.valid() || from == to) return code;
  checker::Conversion c;
  c.kind = types_.conversion(from, to);
  c.to = to;
  return convert(code, from, c, at);
}

std::string Gen::convert(const std::string& code, TypeId from, const checker::Conversion& conv, Span at) {
  if (conv.kind == ConvKind::None || !conv.to.valid()) return code;
  std::string to = cpp_type(conv.to);
  switch (conv.kind) {
    case ConvKind::IntToFloat:
      return "static_cast<double>(" + code + ")";
    case ConvKind::WrapNullable: {
      TypeId inner = types_.inner(conv.to);
      TypeKind fk = types_.kind(from);
      if (fk == TypeKind::Null) return to + "()";
      if (fk == TypeKind::Nullable) return to + "(" + code + ")";
      return to + "(" + convert_to(code, from, inner, at) + ")";
    }
    case ConvKind::ToAny:
      return "fitz::to_any<" + cpp_type(from) + ">(" + code + ")";
    case ConvKind::FromAny:
      return "fitz::from_any<" + to + ">(" + code + ", " + pos(at) + ")";
    case ConvKind::ToPy:
      return "fitz::py::to_py<" + cpp_type(from) + ">(" + code + ")";
    case ConvKind::FromPy:
      return "fitz::py::from_py<" + to + ">(" + code + ", " + pos(at) + ")";
    case ConvKind::Structural:
      return "fitz::from_any<" + to + ">(fitz::to_any<" + cpp_type(from) + ">(" + code + "), " + pos(at) + ")";
    default:
      return code;
  }
}

std::string Gen::await_task(const std::string& task, Span at) {
  if (fn_ && fn_->is_async) {
    // The operand gets its own statement: GCC 12 rejects a std::initializer_list (a list
    // literal, dynamic call arguments) inside a co_await operand.
    std::string t = tmp("w");
    line(fmt::format("auto {} = {};", t, task));
    return "(co_await " + t + ")";
  }
  return fmt::format("fitz::block_on({}, {})", task, pos(at));
}

std::string Gen::expr(ExprId id) {
  std::string raw = expr_raw(id);
  if (id.index >= tir_->conversions.size()) return raw;
  return convert(raw, tir_->type_of(id), tir_->conversion_of(id), ast_->get(id).span);
}

std::string Gen::expr_as(ExprId id, TypeId want) {
  std::string code = expr(id);
  TypeId from = tir_->type_of(id);
  if (id.index < tir_->conversions.size()) {
    const checker::Conversion& c = tir_->conversion_of(id);
    if (c.kind != ConvKind::None && c.to.valid()) from = c.to;  // expr() applied it already
  }
  return convert_to(code, from, want, ast_->get(id).span);
}

std::string Gen::str_lit(const StrLit& s, Span span) {
  bool has_hole = false;
  for (const auto& p : s.parts) has_hole |= p.is_hole();
  if (!has_hole) {
    std::string text;
    for (const auto& p : s.parts) text += p.text;
    return "fitz::Str::lit(" + cpp_quoted(text) + ")";
  }
  std::vector<Child> holes;
  for (const auto& p : s.parts)
    if (p.is_hole()) holes.push_back(child_of(this, p.hole));
  std::vector<std::string> code = sequence(holes);
  std::string args;
  size_t k = 0;
  for (const auto& p : s.parts) {
    if (!args.empty()) args += ", ";
    if (!p.is_hole()) {
      args += "fitz::Str::lit(" + cpp_quoted(p.text) + ")";
    } else if (!p.format_spec.empty()) {
      args += fmt::format("fitz::format_value({}, {}, {})", code[k++], cpp_quoted(p.format_spec),
                          pos(p.format_span));
    } else {
      args += code[k++];
    }
  }
  (void)span;
  return "fitz::interp(" + args + ")";
}

std::string Gen::expr_raw(ExprId id) {
  const Expr& e = ast_->get(id);
  TypeId type = id.index < tir_->expr_types.size() ? tir_->type_of(id) : types_.any();
  return std::visit(
      [&](const auto& d) -> std::string {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, IntLit>) {
          return fmt::format("int64_t({}LL)", d.value);
        } else if constexpr (std::is_same_v<T, FloatLit>) {
          return cpp_double(d.value);
        } else if constexpr (std::is_same_v<T, BoolLit>) {
          return d.value ? "true" : "false";
        } else if constexpr (std::is_same_v<T, NullLit>) {
          return "fitz::null";
        } else if constexpr (std::is_same_v<T, StrLit>) {
          return str_lit(d, e.span);
        } else if constexpr (std::is_same_v<T, BytesLit>) {
          return "fitz::Bytes::lit(" + cpp_quoted(d.bytes) + ")";
        } else if constexpr (std::is_same_v<T, NameRef>) {
          const Ref& r = tir_->ref_of(id);
          std::string base;
          if (r.kind == RefKind::Field) {
            base = fmt::format("this->fld_{}", d.name.text);
          } else if (r.kind == RefKind::Symbol) {
            const Symbol& s = prog_.symbol(SymbolId(r.id));
            if (s.kind == SymbolKind::Function) {
              base = sym_ref(SymbolId(r.id));
              // A function used as a value becomes a closure of its Fn type.
              return cpp_type(type) + "(&" + base + ")";
            }
            if (s.kind == SymbolKind::BuiltinValue) return builtin_value_ref(s.name, e.span);
            base = sym_ref(SymbolId(r.id));
          } else if (r.kind == RefKind::Method && r.struct_id.valid()) {
            // A method named bare inside another method of its type: a closure over the
            // instance, as a lambda in that method would be.
            const auto& m = types_.struct_info(r.struct_id).methods[r.id];
            auto sig = types_.args(type);  // Fn: the parameters, then the result
            std::string params, args;
            for (size_t i = 0; i + 1 < sig.size(); ++i) {
              params += fmt::format("{}{} a{}", i ? ", " : "", cpp_type(sig[i]), i);
              args += fmt::format("{}a{}", i ? ", " : "", i);
            }
            bool is_static = prog_.modules[types_.struct_info(r.struct_id).module.index].fns[m.fn.index].is_static;
            std::string callee = is_static ? fmt::format("{}::mth_{}", struct_name(r.struct_id), m.name)
                                           : fmt::format("this->mth_{}", m.name);
            return fmt::format("{}([{}]({}) {{ return {}({}); }})", cpp_type(type), is_static ? "" : "this", params,
                               callee, args);
          } else {
            result_.unsupported.push_back(fmt::format("the name `{}`", d.name.text));
            return "fitz::Any()";
          }
          if (r.narrowed) return "(" + base + ").value()";
          return base;
        } else if constexpr (std::is_same_v<T, TupleExpr>) {
          auto code = sequence_exprs(d.elems);
          std::string s = cpp_type(type) + "(";
          for (size_t i = 0; i < code.size(); ++i) s += (i ? ", " : "") + code[i];
          return s + ")";
        } else if constexpr (std::is_same_v<T, ListExpr>) {
          auto code = sequence_exprs(d.elems);
          std::string s = cpp_type(type) + "{";
          for (size_t i = 0; i < code.size(); ++i) s += (i ? ", " : "") + code[i];
          return s + "}";
        } else if constexpr (std::is_same_v<T, MapExpr>) {
          // In decorator arguments a bare name key is the option's name (the checker resolved it
          // to nothing and typed it Str): it is emitted as that string.
          auto name_key = [&](ExprId k) -> const NameRef* {
            auto* n = std::get_if<NameRef>(&ast_->get(k).data);
            return n && tir_->ref_of(k).kind == checker::RefKind::None ? n : nullptr;
          };
          std::vector<ExprId> ids;
          for (const auto& en : d.entries) {
            if (!name_key(en.key)) ids.push_back(en.key);
            ids.push_back(en.value);
          }
          auto code = sequence_exprs(ids);
          std::string s = cpp_type(type) + "{";
          size_t k = 0;
          for (size_t i = 0; i < d.entries.size(); ++i) {
            std::string key;
            if (const NameRef* n = name_key(d.entries[i].key))
              key = convert_to("fitz::Str::lit(" + cpp_quoted(std::string(n->name.text)) + ")", types_.str(),
                               types_.key(type), ast_->get(d.entries[i].key).span);
            else
              key = code[k++];
            s += fmt::format("{}{{{}, {}}}", i ? ", " : "", key, code[k++]);
          }
          return s + "}";
        } else if constexpr (std::is_same_v<T, ListComp> || std::is_same_v<T, MapComp>) {
          std::string r = tmp("c");
          bool lower = lowering();
          std::string text = take_block_text([&] {
            if (!lower) {
              line("({");
              ++indent_;
            }
            line(cpp_type(type) + " " + r + ";");
            int opened = 0;
            for (const auto& cl : d.clauses) {
              LoopElem el = open_loop(cl.iterable, cl.pattern);
              ++indent_;
              ++opened;
              bind_loop_elem(cl.pattern, el);
            }
            if (d.filter.valid()) {
              line("if (!(" + expr(d.filter) + ")) continue;");
            }
            if constexpr (std::is_same_v<T, ListComp>) {
              line(fmt::format("{}.push({});", r, expr(d.elem)));
            } else {
              line(fmt::format("{}.set({}, {});", r, expr(d.key), expr(d.value)));
            }
            for (int i = 0; i < opened; ++i) {
              --indent_;
              line("}");
            }
            if (!lower) {
              line(r + ";");
              --indent_;
              line("})");
            }
          });
          if (lower) {
            out_ += text;
            return r;
          }
          return text;
        } else if constexpr (std::is_same_v<T, UnaryExpr>) {
          std::string o = expr(d.operand);
          switch (d.op) {
            case UnaryOp::Neg:
              if (types_.kind(tir_->type_of(d.operand)) == TypeKind::Py)
                return fmt::format("fitz::py::negate({}, {})", o, pos(d.op_span));
              return fmt::format("fitz::op::neg({}, {})", o, pos(d.op_span));
            case UnaryOp::Not: return "(!" + o + ")";
            case UnaryOp::BitNot:
              if (types_.is_dynamic(tir_->type_of(d.operand)))
                return fmt::format("fitz::to_any(fitz::op::bit_not(fitz::from_any<int64_t>({}, {})))", o, pos(d.op_span));
              return "fitz::op::bit_not(" + o + ")";
          }
          return o;
        } else if constexpr (std::is_same_v<T, BinaryExpr>) {
          if (d.op == BinaryOp::And || d.op == BinaryOp::Or) {
            // The right operand is evaluated only when needed; statements it needs stay
            // under that condition.
            std::string a = expr(d.lhs), b;
            std::string pre = take_block_text([&] { b = expr(d.rhs); });
            const char* op = d.op == BinaryOp::And ? " && " : " || ";
            if (pre.empty()) return "(" + a + op + b + ")";
            std::string t = tmp("b");
            line(fmt::format("bool {} = {};", t, a));
            line(fmt::format("if ({}{}) {{", d.op == BinaryOp::And ? "" : "!", t));
            out_ += pre;
            line(fmt::format("  {} = {};", t, b));
            line("}");
            return t;
          }
          auto ab = sequence_exprs({d.lhs, d.rhs});
          std::string a = ab[0], b = ab[1];
          if (types_.kind(tir_->type_of(d.lhs)) == TypeKind::Py || types_.kind(tir_->type_of(d.rhs)) == TypeKind::Py)
            return py_binary(d.op, a, b, d.op_span);  // both operands already converted to Py
          switch (d.op) {
            case BinaryOp::Xor: return "(" + a + " != " + b + ")";
            case BinaryOp::Eq: return "fitz::eq(" + a + ", " + b + ")";
            case BinaryOp::Ne: return "fitz::ne(" + a + ", " + b + ")";
            case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
              return fmt::format("{}({}, {})", binary_fn(d.op), a, b);
            case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor:
            case BinaryOp::Shl: case BinaryOp::Shr: {
              // Bit operators take Ints; an operand known only as Any is checked when it arrives
              // (spec decision 10), and the result is boxed when the expression is typed Any.
              bool dyn = false;
              auto int_operand = [&](const std::string& code, ExprId operand, Span at) {
                if (!types_.is_dynamic(tir_->type_of(operand))) return code;
                dyn = true;
                return fmt::format("fitz::from_any<int64_t>({}, {})", code, pos(at));
              };
              a = int_operand(a, d.lhs, d.op_span);
              b = int_operand(b, d.rhs, d.op_span);
              std::string r = d.op == BinaryOp::Shl || d.op == BinaryOp::Shr
                                  ? fmt::format("{}({}, {}, {})", binary_fn(d.op), a, b, pos(d.op_span))
                                  : fmt::format("{}({}, {})", binary_fn(d.op), a, b);
              return dyn && types_.is_dynamic(type) ? "fitz::to_any(" + r + ")" : r;
            }
            default:
              return fmt::format("{}({}, {}, {})", binary_fn(d.op), a, b, pos(d.op_span));
          }
        } else if constexpr (std::is_same_v<T, RangeExpr>) {
          auto se = sequence_exprs({d.start, d.end});
          return fmt::format("fitz::Range({}, {}, {})", se[0], se[1], d.inclusive ? "true" : "false");
        } else if constexpr (std::is_same_v<T, FieldExpr>) {
          const Ref& r = tir_->ref_of(id);
          std::string base;
          switch (r.kind) {
            case RefKind::Field:
              if (!r.implicit_self && cpp_type(tir_->type_of(d.object)) == "fitz::Any") {
                // A built-in record held by the runtime (HttpClientResponse): typed fields of
                // a dynamic box.
                base = fmt::format("fitz::from_any<{}>(fitz::any_field({}, \"{}\", {}), {})", cpp_type(type),
                                   expr(d.object), d.field.text, pos(d.field.span), pos(d.field.span));
                break;
              }
              base = r.implicit_self ? fmt::format("this->fld_{}", d.field.text)
                                     : fmt::format("{}->fld_{}", expr(d.object), d.field.text);
              break;
            case RefKind::ModuleMember: {
              const Symbol& s = prog_.symbol(SymbolId(r.id));
              base = sym_ref(SymbolId(r.id));
              if (s.kind == SymbolKind::Function) return cpp_type(type) + "(&" + base + ")";
              break;
            }
            case RefKind::Method:
              if (r.struct_id.valid()) {
                // `obj.method` as a value: a closure holding the instance (or the static method).
                const auto& si = types_.struct_info(r.struct_id);
                const auto& m = si.methods[r.id];
                auto sig = types_.args(type);
                std::string params, args;
                for (size_t i = 0; i + 1 < sig.size(); ++i) {
                  params += fmt::format("{}{} a{}", i ? ", " : "", cpp_type(sig[i]), i);
                  args += fmt::format("{}a{}", i ? ", " : "", i);
                }
                if (prog_.modules[si.module.index].fns[m.fn.index].is_static)
                  return fmt::format("{}([]({}) {{ return {}::mth_{}({}); }})", cpp_type(type), params,
                                     struct_name(r.struct_id), m.name, args);
                if (r.implicit_self)
                  return fmt::format("{}([this]({}) {{ return this->mth_{}({}); }})", cpp_type(type), params, m.name, args);
                return fmt::format("{}([o = {}]({}) {{ return o->mth_{}({}); }})", cpp_type(type), expr(d.object), params,
                                   m.name, args);
              }
              [[fallthrough]];
            default:
              if (types_.kind(tir_->type_of(d.object)) == TypeKind::Py) {
                base = fmt::format("fitz::py::attr({}, \"{}\", {})", expr(d.object), d.field.text, pos(d.field.span));
                break;
              }
              base = fmt::format("fitz::any_field({}, \"{}\", {})", expr(d.object), d.field.text,
                                 pos(d.field.span));
          }
          if (r.narrowed) return "(" + base + ").value()";
          return base;
        } else if constexpr (std::is_same_v<T, TupleIndexExpr>) {
          TypeId ot = tir_->type_of(d.object);
          if (types_.kind(ot) == TypeKind::Tuple)
            return fmt::format("std::get<{}>({})", d.index, expr(d.object));
          return fmt::format("fitz::any_index({}, fitz::to_any<int64_t>({}), {})", expr(d.object), d.index,
                             pos(d.index_span));
        } else if constexpr (std::is_same_v<T, AwaitExpr>) {
          TypeId ot = tir_->type_of(d.operand);
          // A call that waits itself (`conn.recv()`): its value is already the result.
          if (const checker::CallInfo* ci = tir_->call_of(d.operand); ci && ci->suspends) return expr(d.operand);
          std::string o = expr(d.operand);
          if (types_.kind(ot) != TypeKind::Future) o = fmt::format("fitz::any_await({}, {})", o, pos(d.await_span));
          return await_task(o, d.await_span);
        } else if constexpr (std::is_same_v<T, TryExpr>) {
          std::string o = expr(d.operand);
          if (types_.kind(tir_->type_of(d.operand)) == TypeKind::Any) {
            // `?` on a value known only as Any: it must hold a Result at run time; its error
            // converts to the enclosing function's error type.
            TypeId err = fn_ && !fn_->top_level && types_.kind(fn_->ret) == TypeKind::Result ? types_.err(fn_->ret)
                                                                                              : types_.any();
            o = fmt::format("fitz::from_any<fitz::Result<fitz::Any, {}>>({}, {})", cpp_type(err), o, pos(d.op_span));
          }
          if (!fn_ || fn_->top_level) return fmt::format("({}).unwrap({})", o, pos(d.op_span));
          // A handler may use `?` whatever it returns: serving, an Err answers the request
          // (fzh::Out); called directly from Fitz code, it is a runtime error.
          if (fn_->info && fn_->info->is_handler && !fn_->http && types_.kind(fn_->ret) != TypeKind::Result)
            return fmt::format("({}).unwrap({})", o, pos(d.op_span));
          // The error converts to the function's error type: as the checker allowed it, or, into
          // a function whose errors are `Str`, as its display text.
          TypeId from_err = types_.kind(tir_->type_of(d.operand)) == TypeKind::Result ? types_.err(tir_->type_of(d.operand))
                                                                                       : TypeId();
          // `Ok(v)?`: the error side is Never, held as Any in C++; it cannot happen, but the
          // error branch must still convert to the function's error type to compile.
          if (from_err.valid() && types_.kind(from_err) == TypeKind::Never) from_err = types_.any();
          TypeId to_err = types_.kind(fn_->ret) == TypeKind::Result ? types_.err(fn_->ret) : TypeId();
          bool text = tir_->try_converts_error_to_text(id);
          auto error_of = [&](const std::string& r) {
            std::string err = r + ".take_error()";
            if (text) return "fitz::interp(" + err + ")";
            return convert_to(err, from_err, to_err, d.op_span);
          };
          if (fn_->is_async) {
            // Statement-level: GCC 12 cannot compile co_return inside a statement expression.
            std::string t = tmp("q");
            line(fmt::format("auto {} = {};", t, o));
            line(fmt::format("if ({}.is_err()) co_return ::fitz::Err({});", t, error_of(t)));
            return t + ".take_value()";
          }
          if (text || (from_err.valid() && to_err.valid() && from_err != to_err))
            return fmt::format("({{ auto _fitz_r = ({}); if (_fitz_r.is_err()) return ::fitz::Err({}); _fitz_r.take_value(); }})",
                               o, error_of("_fitz_r"));
          return "FITZ_TRY(" + o + ")";
        } else if constexpr (std::is_same_v<T, CallExpr>) {
          return call(id, d);
        } else if constexpr (std::is_same_v<T, IndexExpr>) {
          TypeId ot = tir_->type_of(d.object);
          TypeKind k = types_.kind(ot);
          auto oi = sequence_exprs({d.object, d.index});
          if (k == TypeKind::List || k == TypeKind::Map || k == TypeKind::Str || k == TypeKind::Bytes)
            return fmt::format("{}.at({}, {})", oi[0], oi[1], pos(e.span));
          if (k == TypeKind::Py) return fmt::format("fitz::py::item({}, {}, {})", oi[0], oi[1], pos(e.span));
          return fmt::format("fitz::any_index({}, fitz::to_any({}), {})", oi[0], oi[1], pos(e.span));
        } else if constexpr (std::is_same_v<T, SliceExpr>) {
          std::vector<ExprId> ids = {d.object};
          if (d.start.valid()) ids.push_back(d.start);
          if (d.end.valid()) ids.push_back(d.end);
          auto code = sequence_exprs(ids);
          size_t k2 = 1;
          std::string obj = code[0];
          std::string a = d.start.valid() ? code[k2++] : "int64_t(0)";
          std::string b = d.end.valid() ? code[k2++] : "fitz::slice_end";
          TypeId ot = tir_->type_of(d.object);
          TypeKind k = types_.kind(ot);
          if (k == TypeKind::List || k == TypeKind::Str || k == TypeKind::Bytes)
            return fmt::format("{}.slice({}, {}, {})", obj, a, b, d.inclusive ? "true" : "false");
          return fmt::format("fitz::any_slice({}, {}, {}, {}, {})", obj, a, b,
                             d.inclusive ? "true" : "false", pos(e.span));
        } else if constexpr (std::is_same_v<T, StructLit>) {
          StructId sid = types_.struct_of(type);
          bool http_builtin = sid.valid() && types_.struct_info(sid).builtin &&
                              (types_.struct_info(sid).name == "Request" || types_.struct_info(sid).name == "Response");
          if (!sid.valid() || (types_.struct_info(sid).builtin && !http_builtin)) {
            result_.unsupported.push_back(fmt::format("the struct literal `{}`", d.type_name.text));
            return "fitz::Any()";
          }
          const auto& info = types_.struct_info(sid);
          std::string name = struct_name(sid);
          std::string o = tmp("o");
          std::vector<bool> given(info.fields.size(), false);
          std::vector<Child> values;
          std::vector<size_t> slots;
          for (const auto& fi : d.fields) {
            auto it = info.field_index.find(std::string(fi.name.text));
            if (it == info.field_index.end()) continue;
            given[it->second] = true;
            TypeId ft = info.fields[it->second].type;
            ExprId v = fi.value;
            values.push_back(Child{[this, v, ft] {
                                     return expr_as(v, ft);
                                   },
                                   v});
            slots.push_back(it->second);
          }
          std::vector<std::string> code = sequence(values);
          std::string body = fmt::format("auto {} = fitz::make<{}>(); ", o, name);
          for (size_t i = 0; i < slots.size(); ++i)
            body += fmt::format("{}->fld_{} = {}; ", o, info.fields[slots[i]].name, code[i]);
          for (size_t i = 0; i < info.fields.size(); ++i) {
            if (given[i] || !info.fields[i].has_default) continue;
            body += fmt::format("{}->fld_{} = {}::dflt_{}(); ", o, info.fields[i].name, name, info.fields[i].name);
          }
          if (lowering()) {
            line(body);
            return o;
          }
          return "({ " + body + o + "; })";
        } else if constexpr (std::is_same_v<T, ResultExpr>) {
          if (types_.kind(type) != TypeKind::Result)
            return fmt::format("fitz::to_any({}(fitz::{}({})))", "fitz::Result<fitz::Any, fitz::Any>",
                               d.is_ok ? "Ok" : "Err", expr(d.value));
          TypeId side = d.is_ok ? types_.ok(type) : types_.err(type);
          // expr_as: the value may carry a conversion of its own already (e.g. List<Any> to
          // List<User>); converting again from its unconverted type would undo it.
          std::string v = expr_as(d.value, side);
          return fmt::format("{}(fitz::{}({}))", cpp_type(type), d.is_ok ? "Ok" : "Err", v);
        } else if constexpr (std::is_same_v<T, IfExpr>) {
          return if_expr(id, d, true);
        } else if constexpr (std::is_same_v<T, MatchExpr>) {
          return match_expr(id, d, true);
        } else if constexpr (std::is_same_v<T, LoopExpr>) {
          return loop_expr(id, d, true);
        } else if constexpr (std::is_same_v<T, LambdaExpr>) {
          return lambda(id, d);
        } else {
          result_.unsupported.push_back("an erroneous expression");
          return "fitz::Any()";
        }
      },
      e.data);
}

// The value of a block used as an expression: the last expression statement's value, or null.
std::string Gen::block_value(BlockId b, TypeId want, const std::string& result_var) {
  const Block& blk = ast_->get(b);
  for (size_t i = 0; i < blk.stmts.size(); ++i) {
    StmtId s = blk.stmts[i];
    const Stmt& st = ast_->get(s);
    bool last = i + 1 == blk.stmts.size();
    auto* es = std::get_if<ExprStmt>(&st.data);
    if (last && es && !result_var.empty()) {
      line_directive(st.span);
      line(result_var + " = " + expr_as(es->expr, want) + ";");
    } else {
      stmt(s);
    }
  }
  return "";
}

std::string Gen::if_expr(ExprId id, const IfExpr& e, bool as_value) {
  TypeId type = tir_->type_of(id);
  if (!as_value || types_.kind(type) == TypeKind::Null) {
    std::string text = take_block_text([&] {
      line("if (" + expr(e.condition) + ") {");
      ++indent_;
      block(e.then_block);
      --indent_;
      if (e.else_block.valid()) {
        line("} else {");
        ++indent_;
        block(e.else_block);
        --indent_;
      }
      line("}");
    });
    if (!as_value || lowering()) {
      out_ += std::string(text);
      return as_value ? "fitz::null" : "";
    }
    return "({\n" + text + "fitz::null; })";
  }
  std::string r = tmp("r");
  bool lower = lowering();
  std::string text = take_block_text([&] {
    if (!lower) {
      line("({");
      ++indent_;
    }
    line(cpp_type(type) + " " + r + "{};");
    line("if (" + expr(e.condition) + ") {");
    ++indent_;
    block_value(e.then_block, type, r);
    --indent_;
    if (e.else_block.valid()) {
      line("} else {");
      ++indent_;
      block_value(e.else_block, type, r);
      --indent_;
    }
    line("}");
    if (!lower) {
      line(r + ";");
      --indent_;
      line("})");
    }
  });
  if (lower) {
    out_ += text;
    return r;
  }
  return text;
}

std::string Gen::loop_expr(ExprId id, const LoopExpr& e, bool as_value) {
  TypeId type = tir_->type_of(id);
  LoopCtx ctx;
  if (e.label) ctx.label = e.label->text;
  ctx.break_label = tmp("brk");
  ctx.continue_label = tmp("cont");
  if (as_value) {
    ctx.result_var = tmp("r");
    ctx.result_type = type;
  }
  bool lower = as_value && lowering();
  std::string text = take_block_text([&] {
    if (as_value) {
      if (!lower) {
        line("({");
        ++indent_;
      }
      line(cpp_type(type) + " " + ctx.result_var + "{};");
    }
    loops_.push_back(ctx);
    line("while (true) {");
    ++indent_;
    line("{");
    ++indent_;
    block(e.body);
    --indent_;
    line("}");
    line(ctx.continue_label + ":;");
    --indent_;
    line("}");
    line(ctx.break_label + ":;");
    loops_.pop_back();
    if (as_value && !lower) {
      line(ctx.result_var + ";");
      --indent_;
      line("})");
    }
  });
  if (!as_value) {
    out_ += text;
    return "";
  }
  if (lower) {
    out_ += text;
    return ctx.result_var;
  }
  return text;
}

std::string Gen::lambda(ExprId id, const LambdaExpr& l) {
  const FnInfo& info = tir_->fns[l.fn.index];
  const FnDecl& decl = ast_->get(l.fn);
  std::string params;
  for (size_t i = 0; i < info.params.size(); ++i) {
    const auto& p = info.params[i];
    std::string n = p.symbol.valid() ? local_name(p.symbol) : fmt::format("_p{}", i);
    if (p.symbol.valid() && boxed_.count(p.symbol.index)) n = "_in_" + n;
    params += (i ? ", " : "") + cpp_type(p.type) + " " + n;
  }
  std::string ret = cpp_type(info.return_type);
  if (info.is_async) ret = "fitz::Task<" + ret + ">";
  bool in_method = fn_ && (fn_->in_method || !view_binds_.empty());
  std::string head = fmt::format("[={}]({}) mutable -> {} {{", in_method ? ", this" : "", params, ret);
  std::string text = take_block_text([&] {
    line(head);
    ++indent_;
    FnCtx ctx;
    ctx.info = &info;
    ctx.is_async = info.is_async;
    ctx.ret = info.return_type;
    ctx.in_method = in_method;
    FnCtx* saved = fn_;
    auto saved_loops = std::move(loops_);
    loops_.clear();
    fn_ = &ctx;
    declare_fn_locals(info);
    block(decl.body);
    TypeKind rk = types_.kind(info.return_type);
    if (rk == TypeKind::Null || rk == TypeKind::Nullable || rk == TypeKind::Any || rk == TypeKind::Never ||
        rk == TypeKind::Error)
      line(return_stmt(cpp_type(info.return_type) + "{}"));
    else
      line(fmt::format("fitz::runtime_error({}, \"function ended without returning a value\");", pos(decl.span)));
    fn_ = saved;
    loops_ = std::move(saved_loops);
    --indent_;
    line("}");
  });
  (void)id;
  return text;
}

}  // namespace fitz::codegen
