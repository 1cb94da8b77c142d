// Descriptions of symbols, structs, fields, methods and built-ins.
#include "lsp/features/describe.h"

#include <algorithm>

namespace fitz::lsp {

using namespace frontend;

std::string show_type(const Analysis& a, checker::TypeId t) {
  if (!t.valid() || !a.program.types || t.index >= a.program.types->size()) return "Any";
  return a.program.types->display(t);
}

const checker::FnInfo* fn_info(const Analysis& a, ModuleId m, FnId fn) {
  const checker::ModuleTir* tir = a.tir(m);
  if (!tir || !fn.valid() || fn.index >= tir->fns.size()) return nullptr;
  return &tir->fns[fn.index];
}

std::string fn_signature(const Analysis& a, ModuleId m, FnId fn, const std::string& name) {
  const checker::FnInfo* info = fn_info(a, m, fn);
  const FnDecl* decl = m.valid() && fn.valid() && fn.index < a.module(m).ast.fns.size() ? &a.module(m).ast.get(fn) : nullptr;
  std::string s;
  if (info && info->is_async) s += "async ";
  if (info && info->is_static) s += "static ";
  s += "fn " + name + "(";
  if (info) {
    for (size_t i = 0; i < info->params.size(); ++i) {
      const auto& p = info->params[i];
      if (i) s += ", ";
      if (p.variadic) s += "...";
      checker::TypeId t = p.type;
      if (p.variadic && a.program.types->kind(t) == checker::TypeKind::List) t = a.program.types->elem(t);
      s += p.name + ": " + show_type(a, t);
      if (p.has_default && decl && i < decl->params.size() && decl->params[i].default_value.valid())
        s += " = " + std::string(a.file(m).slice(a.module(m).ast.get(decl->params[i].default_value).span));
    }
    s += ") -> " + show_type(a, info->return_type);
  } else {
    s += ")";
  }
  return s;
}

std::string doc_comment_above(const Analysis& a, Span decl) {
  const SourceFile* f = a.sources.find(decl.file);
  if (!f) return "";
  uint32_t line = f->line_col(decl.begin).line;
  std::vector<std::string> lines;
  for (uint32_t l = line; l-- > 1;) {
    std::string_view t = f->line_text(l);
    size_t b = t.find_first_not_of(" \t");
    if (b == std::string_view::npos) break;
    t = t.substr(b);
    if (t.starts_with("@")) continue;  // decorators sit between the comment and the declaration
    if (!t.starts_with("//")) break;
    t.remove_prefix(2);
    if (t.starts_with(" ")) t.remove_prefix(1);
    lines.emplace_back(t);
  }
  std::reverse(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

namespace {

ModuleId module_of_file(const Analysis& a, FileId f) {
  for (uint32_t i = 0; i < a.graph.modules.size(); ++i)
    if (a.graph.modules[i].file == f) return ModuleId(i);
  return ModuleId();
}

std::string builtin_line(const checker::BuiltinEntry& e) {
  std::string s = "fn ";
  if (!e.receiver.empty()) s += std::string(e.receiver) + ".";
  s += std::string(e.name) + std::string(e.signature);
  return s;
}

}  // namespace

std::string describe_key(const Analysis& a, const SymbolKey& key) {
  const auto& types = *a.program.types;
  switch (key.kind) {
    case SymbolKey::Kind::Symbol: {
      const checker::Symbol& s = a.program.symbols[key.a];
      switch (s.kind) {
        case checker::SymbolKind::Function: return fn_signature(a, s.module, s.fn, s.name);
        case checker::SymbolKind::Module: {
          std::string target = s.target_module.valid() && s.target_module.index < a.graph.modules.size()
                                   ? a.graph.get(s.target_module).name
                                   : s.name;
          return "import " + target + (target != s.name ? " as " + s.name : "");
        }
        case checker::SymbolKind::Param: return "(parameter) " + s.name + ": " + show_type(a, s.type);
        case checker::SymbolKind::BuiltinValue: return s.name + ": " + show_type(a, s.type);
        case checker::SymbolKind::Import:
          if (s.target.valid()) return describe_key(a, key_of_symbol(a, s.target));
          return s.name;
        case checker::SymbolKind::Global:
        case checker::SymbolKind::Local:
        default:
          return "let " + s.name + ": " + show_type(a, s.type);
      }
    }
    case SymbolKey::Kind::Struct: {
      const auto& info = types.struct_info(checker::StructId(key.a));
      std::string s = "type " + info.name + " {";
      for (const auto& f : info.fields) s += "\n    " + f.name + ": " + show_type(a, f.type) + (f.has_default ? " = …" : "");
      for (const auto& m : info.methods) {
        s += "\n    ";
        if (m.is_static) s += "static ";
        s += "fn " + m.name + "…";
      }
      s += info.fields.empty() && info.methods.empty() ? "}" : "\n}";
      return s;
    }
    case SymbolKey::Kind::Field: {
      const auto& info = types.struct_info(checker::StructId(key.a));
      const auto& f = info.fields[key.b];
      return "(field) " + info.name + "." + f.name + ": " + show_type(a, f.type);
    }
    case SymbolKey::Kind::Method: {
      const auto& info = types.struct_info(checker::StructId(key.a));
      const auto& m = info.methods[key.b];
      if (m.fn.valid() && info.module.valid()) return fn_signature(a, info.module, m.fn, info.name + "." + m.name);
      return "fn " + info.name + "." + m.name + ": " + show_type(a, m.type);
    }
    case SymbolKey::Kind::Builtin:
      return builtin_line(a.program.builtins->entry(checker::BuiltinId(key.a)));
    default:
      return "";
  }
}

std::string doc_of_key(const Analysis& a, const SymbolKey& key) {
  if (key.kind == SymbolKey::Kind::Builtin) return std::string(a.program.builtins->entry(checker::BuiltinId(key.a)).doc);
  if (key.kind == SymbolKey::Kind::Symbol) {
    const checker::Symbol& s = a.program.symbols[key.a];
    if (s.kind == checker::SymbolKind::BuiltinValue && s.builtin_value < checker::builtin_values().size())
      return std::string(checker::builtin_values()[s.builtin_value].doc);
  }
  if (key.kind == SymbolKey::Kind::Struct) {
    const auto& info = a.program.types->struct_info(checker::StructId(key.a));
    if (info.builtin)
      for (const auto& n : checker::builtin_nominals())
        if (n.name == info.name) return std::string(n.doc);
  }
  if (auto d = declaration_of(a, key)) {
    (void)module_of_file;
    return doc_comment_above(a, *d);
  }
  return "";
}

}  // namespace fitz::lsp
