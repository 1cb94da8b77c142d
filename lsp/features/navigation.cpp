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
