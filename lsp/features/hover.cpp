// Hover, signature help and inlay hints: what the checker knows about the code at the cursor.
#include <algorithm>

#include "checker/decorators.h"
#include "lsp/features/describe.h"
#include "lsp/features/features.h"
#include "lsp/features/hover_orm.h"
#include "lsp/features/hover_route.h"

namespace fitz::lsp {

using namespace frontend;

namespace {

std::string fenced(const std::string& code) { return "```fitz\n" + code + "\n```"; }

// Finds a function-like symbol by name as seen from module m (top level, then built-ins).
std::optional<SymbolKey> lookup_callable(const Analysis& a, ModuleId m, std::string_view name) {
  if (const checker::ModuleTir* tir = a.tir(m))
    for (checker::SymbolId s : tir->top_level)
      if (s.index < a.program.symbols.size() && a.program.symbols[s.index].name == name) return key_of_symbol(a, s);
  if (auto it = a.program.builtin_symbols.find(std::string(name)); it != a.program.builtin_symbols.end())
    return key_of_symbol(a, it->second);
  return std::nullopt;
}

// Splits "(a: Int, b?: Fn(T) -> U) -> R" at top-level commas of the parameter list: the byte
// ranges of each parameter within `sig`.
std::vector<std::pair<uint32_t, uint32_t>> split_params(std::string_view sig) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t open = sig.find('(');
  if (open == std::string_view::npos) return out;
  int depth = 0;
  uint32_t start = uint32_t(open + 1);
  for (size_t i = open; i < sig.size(); ++i) {
    char c = sig[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == '>' || c == ']' || c == '}') && !(c == '>' && i > 0 && sig[i - 1] == '-')) {
      if (--depth == 0) {
        if (i > start) out.push_back({start, uint32_t(i)});
        break;
      }
    } else if (c == ',' && depth == 1) {
      out.push_back({start, uint32_t(i)});
      start = uint32_t(i + 1);
      while (start < sig.size() && sig[start] == ' ') ++start;
    }
  }
  return out;
}

SignatureInfo signature_of_key(const Analysis& a, const SymbolKey& key) {
  SignatureInfo s;
  s.label = describe_key(a, key);
  if (s.label.starts_with("async ")) s.label = s.label.substr(6);
  if (s.label.starts_with("static ")) s.label = s.label.substr(7);
  if (s.label.starts_with("fn ")) s.label = s.label.substr(3);
  s.params = split_params(s.label);
  s.doc = doc_of_key(a, key);
  return s;
}

// Counts top-level commas between `from` and `to` in the text (strings and brackets skipped).
uint32_t commas_between(std::string_view text, uint32_t from, uint32_t to) {
  uint32_t n = 0;
  int depth = 0;
  bool in_str = false;
  for (uint32_t i = from; i < to && i < text.size(); ++i) {
    char c = text[i];
    if (in_str) {
      if (c == '\\') ++i;
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) ++n;
  }
  return n;
}

// The registry entry of the decorator whose name holds `offset`, with the name's span.
std::optional<std::pair<const checker::DecoratorSpec*, Span>> decorator_at(const Ast& ast, uint32_t offset) {
  auto in = [&](const std::vector<Decorator>& ds, checker::DecoratorPlace place)
      -> std::optional<std::pair<const checker::DecoratorSpec*, Span>> {
    for (const Decorator& d : ds) {
      // The span from the `@` to the end of the name.
      if (d.name.span.begin <= offset + 1 && offset <= d.name.span.end)
        if (const checker::DecoratorSpec* spec = checker::find_decorator(d.name.text, place))
          return std::pair{spec, d.name.span};
    }
    return std::nullopt;
  };
  for (const FnDecl& f : ast.fns) {
    if (auto r = in(f.decorators, checker::kOnFn)) return r;
    for (const Param& p : f.params)
      if (auto r = in(p.decorators, checker::kOnParam)) return r;
  }
  for (const TypeDecl& t : ast.type_decls) {
    if (auto r = in(t.decorators, checker::kOnType)) return r;
    for (const FieldDecl& fd : t.fields)
      if (auto r = in(fd.decorators, checker::kOnField)) return r;
  }
  return std::nullopt;
}

// The hover text of a decorator: its form, its doc line, where it goes and its options.
std::string decorator_markdown(const checker::DecoratorSpec& d) {
  std::string form = "@" + std::string(d.name);
  if (d.max_pos != 0 || !d.args.empty() || d.any_args) {
    std::vector<std::string> parts;
    for (int i = 0; i < d.min_pos; ++i) parts.push_back(i == 0 && d.first != checker::DecoratorFirst::Any ? "\"...\"" : "_");
    if (d.max_pos < 0 || d.max_pos > d.min_pos) parts.push_back("...");
    for (const auto& a : d.args)
      parts.push_back(std::string(a.name) + "=" + (a.default_value.empty() ? std::string(checker::decorator_arg_type_name(a.type)) : std::string(a.default_value)));
    if (d.any_args) parts.push_back("key=value...");
    form += "(";
    for (size_t i = 0; i < parts.size(); ++i) form += (i ? ", " : "") + parts[i];
    form += ")";
  }
  std::string text = fenced(form) + "\n\n" + std::string(d.doc);
  std::string where;
  for (auto p : {checker::kOnFn, checker::kOnType, checker::kOnField, checker::kOnParam})
    if (d.places & p) where += (where.empty() ? "" : " or ") + std::string(checker::decorator_place_name(p));
  text += "\n\nOn a " + where + ".";
  for (const auto& a : d.args)
    text += "\n- `" + std::string(a.name) + "=` (" + std::string(checker::decorator_arg_type_name(a.type)) +
            (a.required ? ", required" : "") + "): " + std::string(a.doc);
  return text;
}

// What a hover adds for Python values: the module a `from python import` name stands for, or
// what a `Py` value allows.
std::string python_note(const Analysis& a, ModuleId m, uint32_t offset) {
  const checker::ModuleTir* tir = a.tir(m);
  for (const checker::PythonImport& pi : tir->python_imports)
    if (offset >= pi.span.begin && offset <= pi.span.end)
      return "Python module `" + pi.module + "`, imported when the program starts";
  ExprId e = expr_at(a, m, offset, offset);
  if (!e.valid() || e.index >= tir->expr_types.size()) return "";
  checker::TypeId t = tir->type_of(e);
  if (!t.valid() || a.program.types->kind(t) != checker::TypeKind::Py) return "";
  for (const checker::PythonImport& pi : tir->python_imports)
    if (const auto* n = std::get_if<NameRef>(&a.module(m).ast.get(e).data); n && n->name.text == a.program.symbol(pi.symbol).name)
      return "Python module `" + pi.module + "`";
  return "A Python value: attributes, indexing, `for`, `len` and operators work on it; a call returns "
         "`Result<Py>`; it converts where it meets a declared type (`let n: Int = v`).";
}

}  // namespace

std::optional<HoverInfo> hover(const Analysis& a, ModuleId m, uint32_t offset) {
  if (!m.valid() || !a.tir(m)) return std::nullopt;
  if (auto d = decorator_at(a.module(m).ast, offset)) return HoverInfo{decorator_markdown(*d->first), d->second};
  std::optional<std::pair<std::string, Span>> sql = orm_query_markdown(a, m, offset);
  if (const Occurrence* o = occurrence_at(a, m, offset)) {
    std::string text = fenced(describe_key(a, o->key));
    std::string doc = doc_of_key(a, o->key);
    if (!doc.empty()) text += "\n\n" + doc;
    if (auto schema = table_schema_markdown(a, o->key)) text += "\n\n" + *schema;
    if (auto route = route_markdown(a, o->key)) text += "\n\n" + *route;
    if (sql) text += "\n\n" + sql->first;
    if (std::string py = python_note(a, m, offset); !py.empty()) text += "\n\n" + py;
    return HoverInfo{text, o->span};
  }
  if (sql) return HoverInfo{sql->first, sql->second};
  ExprId e = expr_at(a, m, offset, offset);
  if (!e.valid()) return std::nullopt;
  const checker::ModuleTir* tir = a.tir(m);
  if (e.index >= tir->expr_types.size()) return std::nullopt;
  checker::TypeId t = tir->type_of(e);
  if (!t.valid() || a.program.types->kind(t) == checker::TypeKind::Error) return std::nullopt;
  std::string text = fenced(show_type(a, t));
  if (std::string py = python_note(a, m, offset); !py.empty()) text += "\n\n" + py;
  return HoverInfo{text, a.module(m).ast.get(e).span};
}

std::optional<SignatureInfo> signature_help(const Analysis& a, ModuleId m, uint32_t offset) {
  if (!m.valid() || !a.tir(m)) return std::nullopt;
  const Ast& ast = a.module(m).ast;
  const checker::ModuleTir* tir = a.tir(m);
  std::string_view text = a.file(m).text();
  // The innermost call whose parentheses hold the cursor.
  ExprId best;
  for (uint32_t i = 0; i < ast.exprs.size(); ++i) {
    auto* c = std::get_if<CallExpr>(&ast.exprs[i].data);
    if (!c || c->args_span.empty()) continue;
    if (c->args_span.begin < offset && offset < c->args_span.end + (text.size() > c->args_span.end - 1 && text[c->args_span.end - 1] == ')' ? 0 : 1)) {
      if (!best.valid() || c->args_span.size() < std::get<CallExpr>(ast.get(best).data).args_span.size()) best = ExprId(i);
    }
  }
  std::optional<SymbolKey> key;
  uint32_t open = 0;
  if (best.valid()) {
    const CallExpr& c = std::get<CallExpr>(ast.get(best).data);
    open = c.args_span.begin;
    const checker::CallInfo* call = best.index < tir->call_index.size() ? tir->call_of(best) : nullptr;
    if (call) {
      switch (call->kind) {
        case checker::CallKind::Function: key = key_of_symbol(a, call->symbol); break;
        case checker::CallKind::Method:
        case checker::CallKind::StaticMethod: key = SymbolKey{SymbolKey::Kind::Method, call->struct_id.index, call->index}; break;
        case checker::CallKind::Builtin:
        case checker::CallKind::BuiltinMethod: key = SymbolKey{SymbolKey::Kind::Builtin, call->builtin.index, 0}; break;
        default: break;
      }
    }
    if (!key) {
      if (const Occurrence* o = occurrence_at(a, m, ast.get(c.callee).span.end)) key = o->key;
    }
    if (!key && c.callee.index < tir->expr_types.size()) {
      checker::TypeId ft = tir->type_of(c.callee);
      if (ft.valid() && a.program.types->kind(ft) == checker::TypeKind::Fn) {
        SignatureInfo s;
        s.label = "(";
        auto ps = a.program.types->fn_params(ft);
        for (size_t i = 0; i < ps.size(); ++i) s.label += (i ? ", " : "") + show_type(a, ps[i]);
        s.label += ") -> " + show_type(a, a.program.types->fn_result(ft));
        s.params = split_params(s.label);
        s.active_parameter = commas_between(text, open + 1, offset);
        return s;
      }
    }
  } else {
    // Half-typed code: find the unmatched `(` before the cursor and the name before it.
    int depth = 0;
    uint32_t i = std::min<uint32_t>(offset, uint32_t(text.size()));
    bool found = false;
    while (i > 0) {
      char c = text[--i];
      if (c == '\n' && depth == 0 && i > 0 && text[i - 1] != ',' && text[i - 1] != '(') break;
      if (c == ')' || c == ']') ++depth;
      else if (c == '(' || c == '[') {
        if (depth == 0) {
          if (c == '(') found = true;
          break;
        }
        --depth;
      }
    }
    if (!found) return std::nullopt;
    open = i;
    uint32_t e = i;
    // The callee's name, which may be any identifier (`더하기(`): UTF-8 bytes count as its own.
    auto name_byte = [](unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; };
    while (e > 0 && name_byte(static_cast<unsigned char>(text[e - 1]))) --e;
    if (e == i) return std::nullopt;
    key = lookup_callable(a, m, text.substr(e, i - e));
  }
  if (!key) return std::nullopt;
  SignatureInfo s = signature_of_key(a, *key);
  s.active_parameter = commas_between(text, open + 1, offset);
  return s;
}

std::vector<InlayHint> inlay_hints(const Analysis& a, ModuleId m, uint32_t begin, uint32_t end) {
  std::vector<InlayHint> out;
  if (!m.valid() || !a.tir(m)) return out;
  const Ast& ast = a.module(m).ast;
  const checker::ModuleTir* tir = a.tir(m);
  auto useful = [&](checker::TypeId t) {
    if (!t.valid() || t.index >= a.program.types->size()) return false;
    auto k = a.program.types->kind(t);
    return k != checker::TypeKind::Error && k != checker::TypeKind::Never && k != checker::TypeKind::Any;
  };
  for (const Stmt& st : ast.stmts) {
    auto* as = std::get_if<AssignStmt>(&st.data);
    if (!as || !as->is_let || as->compound || !as->target.valid()) continue;
    auto* n = std::get_if<NameRef>(&ast.get(as->target).data);
    if (!n || n->name.span.end < begin || n->name.span.end > end) continue;
    if (as->target.index >= tir->refs.size()) continue;
    const checker::Ref& r = tir->refs[as->target.index];
    if (r.kind != checker::RefKind::Symbol || r.id >= a.program.symbols.size()) continue;
    const checker::Symbol& s = a.program.symbols[r.id];
    if (s.annotated || !useful(s.type)) continue;
    out.push_back({n->name.span.end, ": " + show_type(a, s.type), true});
  }
  for (uint32_t i = 0; i < ast.fns.size(); ++i) {
    const FnDecl& fn = ast.fns[i];
    if (fn.name || i >= tir->fns.size()) continue;  // lambdas only
    const checker::FnInfo& info = tir->fns[i];
    for (size_t p = 0; p < fn.params.size() && p < info.params.size(); ++p) {
      const Param& prm = fn.params[p];
      if (prm.type.valid() || prm.name.span.end < begin || prm.name.span.end > end) continue;
      if (!useful(info.params[p].type)) continue;
      out.push_back({prm.name.span.end, ": " + show_type(a, info.params[p].type), true});
    }
  }
  std::sort(out.begin(), out.end(), [](const InlayHint& x, const InlayHint& y) { return x.offset < y.offset; });
  return out;
}

}  // namespace fitz::lsp
