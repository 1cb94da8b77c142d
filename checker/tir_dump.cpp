// `fitz check --dump=tir`: symbols, functions, types and every expression of a module with its
// type, resolution, call target and conversion, in source order. Stable for golden tests.
#include <algorithm>
#include <fmt/format.h>

#include "checker/tir.h"

namespace fitz::checker {

std::string_view symbol_kind_name(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::Global: return "global";
    case SymbolKind::Local: return "local";
    case SymbolKind::Param: return "param";
    case SymbolKind::Function: return "fn";
    case SymbolKind::Type: return "type";
    case SymbolKind::Module: return "module";
    case SymbolKind::Import: return "import";
    case SymbolKind::Builtin: return "builtin";
    case SymbolKind::BuiltinValue: return "builtin-value";
  }
  return "?";
}

namespace {

using namespace frontend;

struct Dumper {
  const TypedProgram& p;
  const ModuleGraph& g;
  ModuleId mod;
  const SourceManager& sources;
  const Ast& ast;
  const ModuleTir& tir;
  const SourceFile& file;
  std::string out;

  std::string pos(Span s) const {
    if (!s.file.valid()) return "-";
    const SourceFile* f = sources.find(s.file);
    if (!f) return "-";
    LineCol lc = f->line_col(s.begin);
    std::string r = fmt::format("{}:{}", lc.line, lc.col);
    if (s.file != file.id()) r = f->path() + ":" + r;
    return r;
  }
  std::string ty(TypeId t) const { return t.valid() ? p.types->display(t) : "?"; }
  std::string sym(SymbolId id) const {
    if (!id.valid()) return "?";
    const Symbol& s = p.symbol(id);
    if (s.kind == SymbolKind::Builtin || s.kind == SymbolKind::BuiltinValue)
      return fmt::format("{} {}", symbol_kind_name(s.kind), s.name);
    std::string where = pos(s.span);
    return fmt::format("{} {}@{}", symbol_kind_name(s.kind), s.name, where);
  }

  std::string describe(const Expr& e) const {
    return std::visit(
        [&](const auto& d) -> std::string {
          using T = std::decay_t<decltype(d)>;
          if constexpr (std::is_same_v<T, IntLit>) return fmt::format("int {}", d.value);
          else if constexpr (std::is_same_v<T, FloatLit>) return fmt::format("float {}", d.value);
          else if constexpr (std::is_same_v<T, BoolLit>) return d.value ? "bool true" : "bool false";
          else if constexpr (std::is_same_v<T, NullLit>) return "null";
          else if constexpr (std::is_same_v<T, StrLit>) return "str";
          else if constexpr (std::is_same_v<T, BytesLit>) return "bytes";
          else if constexpr (std::is_same_v<T, NameRef>) return fmt::format("name {}", d.name.text);
          else if constexpr (std::is_same_v<T, TupleExpr>) return "tuple";
          else if constexpr (std::is_same_v<T, ListExpr>) return "list";
          else if constexpr (std::is_same_v<T, MapExpr>) return "map";
          else if constexpr (std::is_same_v<T, ListComp>) return "list-comprehension";
          else if constexpr (std::is_same_v<T, MapComp>) return "map-comprehension";
          else if constexpr (std::is_same_v<T, UnaryExpr>) return fmt::format("unary {}", spelling(d.op));
          else if constexpr (std::is_same_v<T, BinaryExpr>) return fmt::format("binary {}", spelling(d.op));
          else if constexpr (std::is_same_v<T, RangeExpr>) return d.inclusive ? "range ..=" : "range ..";
          else if constexpr (std::is_same_v<T, FieldExpr>) return fmt::format("field .{}", d.field.text);
          else if constexpr (std::is_same_v<T, TupleIndexExpr>) return fmt::format("tuple-index .{}", d.index);
          else if constexpr (std::is_same_v<T, AwaitExpr>) return "await";
          else if constexpr (std::is_same_v<T, TryExpr>) return "try ?";
          else if constexpr (std::is_same_v<T, CallExpr>) return "call";
          else if constexpr (std::is_same_v<T, IndexExpr>) return "index";
          else if constexpr (std::is_same_v<T, SliceExpr>) return "slice";
          else if constexpr (std::is_same_v<T, StructLit>) return fmt::format("struct {}", d.type_name.text);
          else if constexpr (std::is_same_v<T, ResultExpr>) return d.is_ok ? "ok" : "err";
          else if constexpr (std::is_same_v<T, IfExpr>) return "if";
          else if constexpr (std::is_same_v<T, MatchExpr>) return "match";
          else if constexpr (std::is_same_v<T, LoopExpr>) return "loop";
          else if constexpr (std::is_same_v<T, LambdaExpr>) return "lambda";
          else return "error";
        },
        e.data);
  }

  std::string ref(const Ref& r) const {
    std::string s;
    switch (r.kind) {
      case RefKind::None: return "";
      case RefKind::Symbol: s = sym(SymbolId(r.id)); break;
      case RefKind::ModuleMember: s = "member " + sym(SymbolId(r.id)); break;
      case RefKind::Field:
        s = fmt::format("field {}.{}", p.types->struct_info(r.struct_id).name,
                        p.types->struct_info(r.struct_id).fields[r.id].name);
        break;
      case RefKind::Method:
        s = fmt::format("method {}.{}", p.types->struct_info(r.struct_id).name,
                        p.types->struct_info(r.struct_id).methods[r.id].name);
        break;
      case RefKind::TupleIndex: s = fmt::format("element {}", r.id); break;
      case RefKind::DynamicMember: s = "dynamic"; break;
      case RefKind::StructType: s = "struct " + p.types->struct_info(r.struct_id).name; break;
    }
    if (r.narrowed) s += " (narrowed)";
    if (r.implicit_self) s += " (self)";
    return s;
  }

  std::string call(const CallInfo& c) const {
    std::string s;
    switch (c.kind) {
      case CallKind::None: return "call ?";
      case CallKind::Function: s = "call " + sym(c.symbol); break;
      case CallKind::Method:
        s = fmt::format("call method {}.{}", p.types->struct_info(c.struct_id).name,
                        p.types->struct_info(c.struct_id).methods[c.index].name);
        break;
      case CallKind::StaticMethod:
        s = fmt::format("call static {}.{}", p.types->struct_info(c.struct_id).name,
                        p.types->struct_info(c.struct_id).methods[c.index].name);
        break;
      case CallKind::Builtin:
      case CallKind::BuiltinMethod: {
        const BuiltinEntry& e = p.builtins->entry(c.builtin);
        s = fmt::format("call builtin {}{}{} [{}]", e.receiver, e.receiver.empty() ? "" : ".", e.name, e.runtime_symbol);
        if (!c.type_args.empty()) {
          s += " <";
          for (size_t i = 0; i < c.type_args.size(); ++i) s += (i ? ", " : "") + ty(c.type_args[i]);
          s += ">";
        }
        break;
      }
      case CallKind::FnValue: s = "call value"; break;
      case CallKind::Dynamic: s = "call dynamic"; break;
      case CallKind::Python: s = "call python"; break;
    }
    if (c.implicit_self) s += " (self)";
    if (!c.param_of_arg.empty()) {
      s += " args->params(";
      for (size_t i = 0; i < c.param_of_arg.size(); ++i)
        s += (i ? "," : "") + (c.param_of_arg[i] == UINT32_MAX ? std::string("?") : std::to_string(c.param_of_arg[i]));
      s += ")";
    }
    return s;
  }

  void run() {
    out += fmt::format("module {}\n", g.get(mod).name);
    for (SymbolId s : tir.top_level) {
      const Symbol& sy = p.symbol(s);
      std::string t;
      if (sy.kind == SymbolKind::Function) t = ty(tir.fns[sy.fn.index].type);
      else if (sy.kind == SymbolKind::Type) t = "type";
      else if (sy.kind == SymbolKind::Import) t = sy.target.valid() ? "-> " + sym(sy.target) : "-> ?";
      else t = ty(sy.type);
      out += fmt::format("  {} : {}\n", sym(s), t);
    }
    for (size_t i = 0; i < tir.type_decls.size(); ++i) {
      if (!tir.type_decls[i].valid()) continue;
      const StructInfo& si = p.types->struct_info(tir.type_decls[i]);
      out += fmt::format("  struct {}\n", si.name);
      for (const FieldInfo& f : si.fields)
        out += fmt::format("    field {}: {}{}{}\n", f.name, ty(f.type), f.has_default ? " = default" : "",
                           f.is_private ? " (private)" : "");
      for (const MethodInfo& m : si.methods)
        out += fmt::format("    {}method {}: {}{}\n", m.is_static ? "static " : "", m.name, ty(m.type),
                           m.is_private ? " (private)" : "");
    }
    for (size_t i = 0; i < tir.fns.size(); ++i) {
      const FnInfo& f = tir.fns[i];
      const FnDecl& d = ast.fns[i];
      std::string name = d.name ? std::string(d.name->text) : "<lambda>";
      if (f.owner.valid()) name = p.types->struct_info(f.owner).name + "." + name;
      out += fmt::format("  fn {} @{} : {}{}{}{}\n", name, pos(d.span), ty(f.type),
                         f.return_inferred ? " (inferred)" : "", f.is_async ? " (async)" : "",
                         f.is_handler ? " (handler)" : "");
      for (const ParamInfo& pr : f.params) out += fmt::format("    param {}: {}\n", pr.name, ty(pr.type));
      for (SymbolId l : f.locals) out += fmt::format("    local {}: {}\n", p.symbol(l).name, ty(p.symbol(l).type));
      for (SymbolId c : f.captures) out += fmt::format("    capture {}\n", sym(c));
      if (f.captures_self) out += "    capture self\n";
    }
    std::vector<uint32_t> order(ast.exprs.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const Span& sa = ast.exprs[a].span;
      const Span& sb = ast.exprs[b].span;
      if (sa.begin != sb.begin) return sa.begin < sb.begin;
      return sa.end > sb.end;
    });
    for (uint32_t i : order) {
      const Expr& e = ast.exprs[i];
      std::string line = fmt::format("  {} {} : {}", pos(e.span), describe(e), ty(tir.expr_types[i]));
      std::string r = ref(tir.refs[i]);
      if (!r.empty()) line += " => " + r;
      if (const CallInfo* c = tir.call_of(ExprId(i))) line += " => " + call(*c);
      const Conversion& cv = tir.conversions[i];
      if (cv.kind != ConvKind::None) line += fmt::format(" [{} to {}]", conv_name(cv.kind), ty(cv.to));
      out += line + "\n";
    }
  }
};

}  // namespace

std::string dump_tir(const TypedProgram& program, const frontend::ModuleGraph& graph, ModuleId module,
                     const frontend::SourceManager& sources) {
  const frontend::Module& m = graph.get(module);
  const SourceFile* f = sources.find(m.file);
  const ModuleTir& tir = program.modules[module.index];
  if (!f || tir.expr_types.size() != m.ast.exprs.size()) return "module " + m.name + " (not checked)\n";
  Dumper d{program, graph, module, sources, m.ast, tir, *f, {}};
  d.run();
  return std::move(d.out);
}

}  // namespace fitz::checker
