// Definition, references, highlight, rename and workspace symbols: all answered from the
// occurrence index, so they agree with each other and with the checker's name resolution.
#include <algorithm>
#include <cctype>

#include "frontend/identifier.h"
#include "lsp/features/features.h"
#include "lsp/features/index.h"

namespace fitz::lsp {

namespace {

std::vector<Span> all_occurrences(const Analysis& a, const SymbolKey& key, bool include_declaration) {
  std::vector<Span> out;
  std::optional<Span> decl = declaration_of(a, key);
  for (uint32_t i = 0; i < a.graph.modules.size(); ++i) {
    for (const auto& o : module_index(a, ModuleId(i)).occurrences) {
      if (!(o.key == key)) continue;
      bool is_decl = decl && o.span == *decl;
      if (is_decl && !include_declaration) continue;
      out.push_back(o.span);
    }
  }
  if (include_declaration && decl && std::find(out.begin(), out.end(), *decl) == out.end()) out.push_back(*decl);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// What `new_name` already names where the renamed entity lives, as the refusal to show: a
// rename that would make two things share a name (and the program fail to check) is refused,
// as rust-analyzer does. Locals and parameters clash with the other names of their function
// and with the module's top-level names they would shadow; top-level names with the module's
// other top-level names; fields and methods with their type's other members.
std::optional<std::string> rename_clash(const Analysis& a, const SymbolKey& key, const std::string& new_name) {
  auto refuse = [&](std::string_view what) {
    return "`" + new_name + "` already names " + std::string(what) + " here; renaming would make them clash";
  };
  const checker::TypedProgram& p = a.program;
  if (key.kind == SymbolKey::Kind::Field || key.kind == SymbolKey::Kind::Method) {
    const checker::StructInfo& info = p.types->struct_info(checker::StructId(key.a));
    if (info.field(new_name)) return refuse("a field of `" + info.name + "`");
    if (info.method(new_name)) return refuse("a method of `" + info.name + "`");
    return std::nullopt;
  }
  ModuleId module;
  frontend::FnId fn;
  bool local = false;
  if (key.kind == SymbolKey::Kind::Struct) {
    module = p.types->struct_info(checker::StructId(key.a)).module;
  } else if (key.kind == SymbolKey::Kind::Symbol) {
    const checker::Symbol& s = p.symbol(checker::SymbolId(key.a));
    module = s.module;
    local = s.kind == checker::SymbolKind::Local || s.kind == checker::SymbolKind::Param;
    if (local) fn = s.fn;
  } else {
    return std::nullopt;
  }
  if (!module.valid() || module.index >= p.modules.size()) return std::nullopt;
  if (local)
    for (const checker::Symbol& s : p.symbols)
      if (s.module == module && s.fn == fn && s.name == new_name &&
          (s.kind == checker::SymbolKind::Local || s.kind == checker::SymbolKind::Param))
        return refuse("another variable of this function");
  for (checker::SymbolId id : p.modules[module.index].top_level)
    if (p.symbol(id).name == new_name) return refuse("a top-level name of this module");
  return std::nullopt;
}

}  // namespace

bool is_valid_identifier(std::string_view name) { return frontend::is_identifier(name); }

std::vector<Span> definition(const Analysis& a, ModuleId m, uint32_t offset) {
  const Occurrence* o = occurrence_at(a, m, offset);
  if (!o) return {};
  if (auto d = declaration_of(a, o->key)) return {*d};
  return {};
}

std::vector<Span> references(const Analysis& a, ModuleId m, uint32_t offset, bool include_declaration) {
  const Occurrence* o = occurrence_at(a, m, offset);
  if (!o) return {};
  return all_occurrences(a, o->key, include_declaration);
}

std::vector<Highlight> document_highlight(const Analysis& a, ModuleId m, uint32_t offset) {
  const Occurrence* o = occurrence_at(a, m, offset);
  if (!o) return {};
  std::vector<Highlight> out;
  for (const auto& x : module_index(a, m).occurrences)
    if (x.key == o->key) out.push_back({x.span, x.is_write || x.is_decl});
  return out;
}

std::optional<RenameTarget> prepare_rename(const Analysis& a, ModuleId m, uint32_t offset, std::string& error) {
  const Occurrence* o = occurrence_at(a, m, offset);
  if (!o) {
    error = "nothing to rename here";
    return std::nullopt;
  }
  if (o->key.kind == SymbolKey::Kind::Builtin || !declaration_of(a, o->key)) {
    error = "built-in names cannot be renamed";
    return std::nullopt;
  }
  if (o->key.kind == SymbolKey::Kind::Symbol) {
    auto k = a.program.symbols[o->key.a].kind;
    if (k == checker::SymbolKind::Builtin || k == checker::SymbolKind::BuiltinValue) {
      error = "built-in names cannot be renamed";
      return std::nullopt;
    }
  }
  return RenameTarget{o->span, std::string(a.sources.file(o->span.file).slice(o->span))};
}

std::optional<std::map<std::filesystem::path, std::vector<Edit>>> rename(const Analysis& a, ModuleId m,
                                                                         uint32_t offset, const std::string& new_name,
                                                                         std::string& error) {
  if (!prepare_rename(a, m, offset, error)) return std::nullopt;
  if (!is_valid_identifier(new_name)) {
    error = "`" + new_name + "` is not a valid name";
    return std::nullopt;
  }
  const Occurrence* o = occurrence_at(a, m, offset);
  if (std::optional<std::string> clash = rename_clash(a, o->key, new_name)) {
    error = *clash;
    return std::nullopt;
  }
  std::map<std::filesystem::path, std::vector<Edit>> out;
  for (const Span& s : all_occurrences(a, o->key, true)) out[a.path_of(s.file)].push_back({s, new_name});
  return out;
}

std::vector<WorkspaceSymbol> workspace_symbols(const Analysis& a, std::string_view query) {
  auto matches = [&](std::string_view name) {
    size_t q = 0;
    for (char c : name)
      if (q < query.size() && std::tolower(static_cast<unsigned char>(c)) == std::tolower(static_cast<unsigned char>(query[q])))
        ++q;
    return q == query.size();
  };
  std::vector<WorkspaceSymbol> out;
  for (uint32_t i = 0; i < a.graph.modules.size(); ++i) {
    for (const auto& ds : document_symbols(a, ModuleId(i))) {
      if (matches(ds.name)) out.push_back({ds.name, a.module(ModuleId(i)).name, ds.kind, ds.selection_span});
      for (const auto& c : ds.children)
        if (matches(c.name)) out.push_back({c.name, ds.name, c.kind, c.selection_span});
    }
  }
  return out;
}

}  // namespace fitz::lsp
