// Completion: decide the context from the text before the cursor (after `@`, after `.`, in an
// import, or a plain name), then list what the checker knows is valid there.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "checker/decorators.h"
#include "lsp/features/describe.h"
#include "lsp/features/features.h"
#include "lsp/python_members.h"

namespace fitz::lsp {

using namespace frontend;

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (prefix.size() > s.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) return false;
  return true;
}

// Whether `at` is inside the parameter list of a `fn NAME(...)` declaration: the innermost
// unclosed `(` before it follows `fn NAME`.
bool in_parameter_list(std::string_view text, uint32_t at) {
  int depth = 0;
  for (uint32_t i = at; i-- > 0;) {
    char ch = text[i];
    if (ch == ')' || ch == ']' || ch == '}') {
      ++depth;
    } else if (ch == '[' || ch == '{') {
      if (depth-- == 0) return false;
    } else if (ch == '(') {
      if (depth-- > 0) continue;
      uint32_t e = i;
      while (e > 0 && text[e - 1] == ' ') --e;
      uint32_t b = e;
      while (b > 0 && ident_char(text[b - 1])) --b;
      if (b == e) return false;
      uint32_t name = b;
      while (b > 0 && text[b - 1] == ' ') --b;
      return b < name && b >= 2 && text.substr(b - 2, 2) == "fn" && (b == 2 || !ident_char(text[b - 3]));
    }
  }
  return false;
}

// The names of the decorators on the lines just above the `fn` whose parameter list holds `at`
// (`@get("/x")` gives "get"), so a parameter is offered the decorators of its kind of function.
std::vector<std::string_view> fn_decorators_above(std::string_view text, uint32_t at) {
  std::vector<std::string_view> names;
  size_t fn_at = text.rfind("fn ", at);
  if (fn_at == std::string_view::npos) return names;
  size_t line = text.rfind('\n', fn_at);
  while (line != std::string_view::npos && line > 0) {
    size_t prev = text.rfind('\n', line - 1);
    size_t b = prev == std::string_view::npos ? 0 : prev + 1;
    while (b < line && (text[b] == ' ' || text[b] == '\t')) ++b;
    if (b >= line || text[b] != '@') break;
    size_t e = b + 1;
    while (e < line && ident_char(text[e])) ++e;
    names.push_back(text.substr(b + 1, e - b - 1));
    if (prev == std::string_view::npos) break;
    line = prev;
  }
  return names;
}

// Whether `at` is directly inside the body of a `type NAME { ... }` declaration (where fields go).
bool in_type_body(std::string_view text, uint32_t at) {
  int depth = 0;
  for (uint32_t i = at; i-- > 0;) {
    char ch = text[i];
    if (ch == ')' || ch == ']' || ch == '}') {
      ++depth;
    } else if (ch == '(' || ch == '[') {
      if (depth-- == 0) return false;
    } else if (ch == '{') {
      if (depth-- > 0) continue;
      uint32_t e = i;
      while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t')) --e;
      if (e > 0 && text[e - 1] == '>') {  // `type Box<T> {`
        int angle = 0;
        while (e > 0) {
          char c = text[--e];
          if (c == '>') ++angle;
          if (c == '<' && --angle == 0) break;
        }
      }
      uint32_t b = e;
      while (b > 0 && ident_char(text[b - 1])) --b;
      if (b == e) return false;
      uint32_t name = b;
      while (b > 0 && text[b - 1] == ' ') --b;
      return b < name && b >= 4 && text.substr(b - 4, 4) == "type" && (b == 4 || !ident_char(text[b - 5]));
    }
  }
  return false;
}

constexpr const char* kKeywords[] = {"fn", "async", "await", "return", "let", "if", "else", "for", "while", "loop",
                                     "match", "type", "import", "from", "as", "true", "false", "null", "in",
                                     "break", "continue", "and", "or", "xor", "not", "static"};
constexpr const char* kTypeNames[] = {"Int", "Float", "Bool", "Str", "Bytes", "Any", "Py", "List", "Map", "Result", "Fn"};

CompletionKind kind_of_symbol(const Analysis& a, const checker::Symbol& s) {
  switch (s.kind) {
    case checker::SymbolKind::Function:
    case checker::SymbolKind::Builtin: return CompletionKind::Function;
    case checker::SymbolKind::Type: return CompletionKind::Type;
    case checker::SymbolKind::Module: return CompletionKind::Module;
    case checker::SymbolKind::Import:
      if (s.target.valid() && s.target.index < a.program.symbols.size() && s.target != checker::SymbolId())
        return kind_of_symbol(a, a.program.symbols[s.target.index]);
      return CompletionKind::Variable;
    default:
      if (s.type.valid() && a.program.types->kind(s.type) == checker::TypeKind::Fn) return CompletionKind::Function;
      return CompletionKind::Variable;
  }
}

struct Collector {
  const Analysis& a;
  std::string_view prefix;
  std::vector<CompletionItem> items;
  std::set<std::string> seen;

  void add(CompletionItem it) {
    if (!starts_with_ci(it.label, prefix)) return;
    if (!seen.insert(it.label).second) return;
    items.push_back(std::move(it));
  }
  void add_symbol(checker::SymbolId id, const char* sort) {
    if (!id.valid() || id.index >= a.program.symbols.size()) return;
    const checker::Symbol& s = a.program.symbols[id.index];
    CompletionItem it;
    it.label = s.name;
    it.kind = kind_of_symbol(a, s);
    SymbolKey key = key_of_symbol(a, id);
    it.detail = describe_key(a, key);
    it.doc = doc_of_key(a, key);
    it.sort_text = sort + s.name;
    add(std::move(it));
  }
};

void members_of_type(Collector& c, ModuleId m, checker::TypeId t, bool statics, FnId enclosing) {
  const Analysis& a = c.a;
  auto& types = *a.program.types;
  if (!t.valid() || t.index >= types.size()) return;
  t = types.non_null(t);
  if (ModuleId target = module_of_type(a, t); target.valid()) {
    if (const checker::ModuleTir* tir = a.tir(target))
      for (const auto& ex : tir->interface.exports) c.add_symbol(ex.symbol, "1");
    return;
  }
  if (checker::StructId sid = types.struct_of(t); sid.valid()) {
    const auto& info = types.struct_info(sid);
    bool inside = false;
    if (enclosing.valid())
      if (const checker::FnInfo* fi = fn_info(a, m, enclosing)) inside = fi->owner == sid;
    if (!statics) {
      for (uint32_t i = 0; i < info.fields.size(); ++i) {
        const auto& f = info.fields[i];
        if (f.is_private && !inside) continue;
        c.add({f.name, CompletionKind::Field, show_type(a, f.type), doc_of_key(a, {SymbolKey::Kind::Field, sid.index, i}), "",
               false, "1" + f.name});
      }
    }
    for (uint32_t i = 0; i < info.methods.size(); ++i) {
      const auto& mt = info.methods[i];
      if ((mt.is_private && !inside) || mt.is_static != statics) continue;
      SymbolKey key{SymbolKey::Kind::Method, sid.index, i};
      c.add({mt.name, CompletionKind::Method, describe_key(a, key), doc_of_key(a, key), "", false, "1" + mt.name});
    }
    if (statics) return;
  }
  for (std::string_view name : a.program.builtins->method_names(t)) {
    auto ids = a.program.builtins->methods(t, name);
    CompletionItem it{std::string(name), CompletionKind::Method, "", "", "", false, "2" + std::string(name)};
    if (!ids.empty()) {
      const auto& e = a.program.builtins->entry(ids.front());
      it.detail = "fn " + std::string(e.name) + std::string(e.signature);
      it.doc = std::string(e.doc);
    }
    c.add(std::move(it));
  }
}

// A symbol visible at `offset` in module m with this name: locals of the enclosing functions,
// then the module's top level, then built-ins.
checker::SymbolId visible_symbol(const Analysis& a, ModuleId m, uint32_t offset, std::string_view name) {
  const Ast& ast = a.module(m).ast;
  checker::SymbolId best;
  uint32_t best_fn_size = UINT32_MAX;
  for (uint32_t i = 0; i < a.program.symbols.size(); ++i) {
    const auto& s = a.program.symbols[i];
    if (s.module != m || s.name != name) continue;
    if (s.kind == checker::SymbolKind::Local || s.kind == checker::SymbolKind::Param) {
      if (!s.fn.valid() || s.fn.index >= ast.fns.size()) continue;
      Span fs = ast.get(s.fn).span;
      if (fs.begin <= offset && offset <= fs.end && fs.size() < best_fn_size) {
        best = checker::SymbolId(i);
        best_fn_size = fs.size();
      }
    } else if (!best.valid()) {
      best = checker::SymbolId(i);
    }
  }
  if (best.valid()) return best;
  if (auto it = a.program.builtin_symbols.find(std::string(name)); it != a.program.builtin_symbols.end()) return it->second;
  return {};
}

// The folders a built program puts first on Python's path (codegen/emit_python.cpp): `python/`
// and `[python] path` entries, relative to the project, or to the file's folder without one.
std::vector<std::string> python_paths(const Analysis& a, ModuleId m) {
  std::filesystem::path root = a.graph.project_root;
  if (root.empty()) root = std::filesystem::path(a.file(m).path()).parent_path();
  std::vector<std::string> out = {(root / "python").string()};
  if (a.graph.manifest)
    for (const std::string& p : a.graph.manifest->python_path) out.push_back((root / p).lexically_normal().string());
  return out;
}

// `np.` where `np` is a `from python import` name: what the interpreter says the module has.
bool complete_python_module(Collector& c, ModuleId m, checker::SymbolId sym, PythonMembers* python) {
  const checker::ModuleTir* tir = c.a.tir(m);
  if (!python || !tir) return false;
  for (const checker::PythonImport& pi : tir->python_imports) {
    if (pi.symbol != sym) continue;
    for (const PythonMember& pm : python->members(pi.module, python_paths(c.a, m))) {
      CompletionKind kind = pm.kind == "function" ? CompletionKind::Function
                            : pm.kind == "class"  ? CompletionKind::Type
                            : pm.kind == "module" ? CompletionKind::Module
                                                  : CompletionKind::Variable;
      std::string detail = pm.kind == "value" ? fmt::format("{}: {} (Python)", pm.name, pm.doc)
                                              : fmt::format("{}{} (Python {})", pm.name, pm.signature, pm.kind);
      c.add({pm.name, kind, detail, pm.kind == "value" ? "" : pm.doc, "", false, "1" + pm.name});
    }
    return true;
  }
  return false;
}

void complete_members(Collector& c, ModuleId m, std::string_view text, uint32_t dot, FnId enclosing,
                      PythonMembers* python) {
  const Analysis& a = c.a;
  const checker::ModuleTir* tir = a.tir(m);
  const Ast& ast = a.module(m).ast;
  // The receiver as the checker typed it: the largest expression ending at the dot.
  ExprId receiver;
  bool text_matches = a.file(m).text() == text;
  if (text_matches)
    for (uint32_t i = 0; i < ast.exprs.size(); ++i) {
      const Span& s = ast.exprs[i].span;
      if (s.end != dot || s.empty()) continue;
      if (std::holds_alternative<ErrorExpr>(ast.exprs[i].data)) continue;
      if (!receiver.valid() || s.size() > ast.get(receiver).span.size()) receiver = ExprId(i);
    }
  // `Type.` lists static methods.
  uint32_t b = dot;
  while (b > 0 && ident_char(text[b - 1])) --b;
  std::string_view word = text.substr(b, dot - b);
  if (!word.empty()) {
    checker::SymbolId sym = visible_symbol(a, m, dot, word);
    if (sym.valid() && (b == 0 || text[b - 1] != '.') && complete_python_module(c, m, sym, python)) return;
    if (sym.valid()) {
      const auto& s = a.program.symbols[sym.index];
      SymbolKey key = key_of_symbol(a, sym);
      if (key.kind == SymbolKey::Kind::Struct && (b == 0 || text[b - 1] != '.')) {
        members_of_type(c, m, a.program.types->struct_type(checker::StructId(key.a)), true, enclosing);
        return;
      }
      if (!receiver.valid() && (b == 0 || text[b - 1] != '.')) {
        if (s.kind == checker::SymbolKind::Module && s.target_module.valid()) {
          members_of_type(c, m, a.program.types->module(s.target_module), false, enclosing);
          return;
        }
        members_of_type(c, m, s.type, false, enclosing);
        return;
      }
    }
  }
  if (receiver.valid() && tir && receiver.index < tir->expr_types.size())
    members_of_type(c, m, tir->type_of(receiver), false, enclosing);
}

void complete_scope(Collector& c, ModuleId m, uint32_t offset) {
  const Analysis& a = c.a;
  const Ast& ast = a.module(m).ast;
  // Locals and parameters of every function around the cursor, declared before it.
  for (uint32_t i = 0; i < a.program.symbols.size(); ++i) {
    const auto& s = a.program.symbols[i];
    if (s.module != m || (s.kind != checker::SymbolKind::Local && s.kind != checker::SymbolKind::Param)) continue;
    if (!s.fn.valid() || s.fn.index >= ast.fns.size()) {
      continue;
    }
    Span fs = ast.get(s.fn).span;
    if (fs.begin <= offset && offset <= fs.end && (s.kind == checker::SymbolKind::Param || s.span.begin < offset))
      c.add_symbol(checker::SymbolId(i), "0");
  }
  // Fields and methods of the type whose method holds the cursor (no `self` in Fitz).
  if (FnId fn = fn_at(a, m, offset); fn.valid())
    for (uint32_t i = 0; i < ast.fns.size(); ++i) {
      const checker::FnInfo* fi = fn_info(a, m, FnId(i));
      if (!fi || !fi->owner.valid()) continue;
      Span s = ast.fns[i].span;
      if (s.begin <= offset && offset <= s.end) {
        const auto& info = a.program.types->struct_info(fi->owner);
        for (uint32_t k = 0; k < info.fields.size(); ++k)
          c.add({info.fields[k].name, CompletionKind::Field, show_type(a, info.fields[k].type), "", "", false, "0" + info.fields[k].name});
        for (uint32_t k = 0; k < info.methods.size(); ++k)
          if (!info.methods[k].is_static)
            c.add({info.methods[k].name, CompletionKind::Method, describe_key(a, {SymbolKey::Kind::Method, fi->owner.index, k}),
                   "", "", false, "0" + info.methods[k].name});
      }
    }
  if (const checker::ModuleTir* tir = a.tir(m))
    for (checker::SymbolId s : tir->top_level) c.add_symbol(s, "1");
  for (const auto& [name, id] : a.program.builtin_symbols) c.add_symbol(id, "3");
  for (const char* t : kTypeNames) c.add({t, CompletionKind::Type, "built-in type", "", "", false, "4" + std::string(t)});
  for (const auto& n : checker::builtin_nominals())
    c.add({std::string(n.name), CompletionKind::Type, "built-in type", std::string(n.doc), "", false, "4" + std::string(n.name)});
  for (const char* k : kKeywords) c.add({k, CompletionKind::Keyword, "", "", "", false, "5" + std::string(k)});
}

}  // namespace

std::vector<CompletionItem> completion(const Analysis& a, ModuleId m, std::string_view text, uint32_t offset,
                                       PythonMembers* python) {
  offset = std::min<uint32_t>(offset, uint32_t(text.size()));
  uint32_t word_start = offset;
  while (word_start > 0 && ident_char(text[word_start - 1])) --word_start;
  Collector c{a, text.substr(word_start, offset - word_start), {}, {}};
  char before = word_start > 0 ? text[word_start - 1] : '\n';

  if (before == '@') {
    // The registry's entries valid here: a parameter (of a `@command` or a route handler), a
    // field inside a `type` body, else a top-level function or type.
    bool in_params = in_parameter_list(text, word_start - 1);
    unsigned places = in_params                            ? checker::kOnParam
                      : in_type_body(text, word_start - 1) ? checker::kOnField
                                                           : checker::kOnFn | checker::kOnType;
    // A route handler's parameters take `@cookie`, a command's its `@flag`/`@arg` forms.
    bool route = false, command = false;
    if (in_params)
      for (std::string_view n : fn_decorators_above(text, word_start - 1))
        for (const checker::DecoratorSpec& spec : checker::decorator_specs())
          if (spec.name == n && (spec.places & checker::kOnFn)) {
            route |= checker::is_route(spec.kind);
            command |= spec.kind == checker::DecoratorKind::Command;
          }
    for (const checker::DecoratorSpec& d : checker::decorator_specs())
      if (d.places & places) {
        bool cookie = d.kind == checker::DecoratorKind::Cookie;
        if (in_params && ((cookie && command) || (!cookie && route && !command))) continue;
        std::string detail = "@";
        detail += d.name;
        c.add({std::string(d.name), CompletionKind::Snippet, detail, std::string(d.doc), std::string(d.snippet), true,
               std::string(d.name)});
      }
    return c.items;
  }
  if (!m.valid() || !a.tir(m)) {
    for (const char* k : kKeywords) c.add({k, CompletionKind::Keyword, "", "", "", false, k});
    return c.items;
  }
  // The line up to the cursor: import contexts.
  uint32_t line_start = word_start;
  while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
  std::string_view line = text.substr(line_start, word_start - line_start);
  size_t lead = line.find_first_not_of(" \t");
  line = lead == std::string_view::npos ? std::string_view() : line.substr(lead);
  if (line.starts_with("from ") && line.find(" import ") != std::string_view::npos) {
    std::string_view path = line.substr(5, line.find(" import ") - 5);
    while (!path.empty() && path.back() == ' ') path.remove_suffix(1);
    for (const auto& imp : a.module(m).imports) {
      if (!imp.target.valid()) continue;
      const Stmt& st = a.module(m).ast.get(imp.stmt);
      auto* fi = std::get_if<FromImportStmt>(&st.data);
      if (!fi || fi->path.empty()) continue;
      std::string dotted;
      for (const auto& seg : fi->path) dotted += (dotted.empty() ? "" : ".") + std::string(seg.text);
      if (dotted != path) continue;
      if (const checker::ModuleTir* tir = a.tir(imp.target))
        for (const auto& ex : tir->interface.exports) c.add_symbol(ex.symbol, "1");
    }
    return c.items;
  }
  if ((line.starts_with("import ") || line.starts_with("from ")) && line.find(" import ") == std::string_view::npos) {
    // Module paths: .fitz files and folders next to this module.
    std::string_view typed = line.substr(line.find(' ') + 1);
    std::filesystem::path dir = a.module(m).path.parent_path();
    std::string sub(typed);
    std::replace(sub.begin(), sub.end(), '.', '/');
    if (auto slash = sub.rfind('/'); slash != std::string::npos) dir /= sub.substr(0, slash);
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const auto& p = it->path();
      std::string stem = p.stem().string();
      if (stem.empty() || stem[0] == '.') continue;
      if (it->is_directory(ec) || p.extension() == ".fitz") {
        if (p == a.module(m).path) continue;
        c.add({stem, CompletionKind::Module, it->is_directory(ec) ? "folder" : "module", "", "", false, stem});
      }
    }
    return c.items;
  }
  FnId enclosing = fn_at(a, m, offset);
  if (before == '.' && word_start >= 1) {
    // `1.` is not a member access, `..` is a range.
    if (word_start >= 2 && text[word_start - 2] == '.') return c.items;
    complete_members(c, m, text, word_start - 1, enclosing, python);
    return c.items;
  }
  complete_scope(c, m, offset);
  return c.items;
}

}  // namespace fitz::lsp
