// Who-is-what for one module: every place a name is declared or used, keyed by the entity it
// means (a checker symbol, a struct, a field, a method, a built-in). Navigation, highlight,
// rename, hover and semantic tokens all read this one index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lsp/analysis.h"

namespace fitz::lsp {

struct SymbolKey {
  enum class Kind : uint8_t { None, Symbol, Struct, Field, Method, Builtin };
  Kind kind = Kind::None;
  uint32_t a = 0;  // SymbolId / StructId / BuiltinId
  uint32_t b = 0;  // field or method index
  friend bool operator==(const SymbolKey&, const SymbolKey&) = default;
  bool valid() const { return kind != Kind::None; }
};

struct Occurrence {
  frontend::Span span;
  SymbolKey key;
  bool is_decl = false;
  bool is_write = false;
};

struct ModuleIndex {
  std::vector<Occurrence> occurrences;  // sorted by span.begin
};

const ModuleIndex& module_index(const Analysis& a, ModuleId m);

// The occurrence whose name touches `offset` (the cursor may sit just after the name).
const Occurrence* occurrence_at(const Analysis& a, ModuleId m, uint32_t offset);

// Where the entity is declared; nullopt for built-ins.
std::optional<frontend::Span> declaration_of(const Analysis& a, const SymbolKey& key);

// The name users see for the entity.
std::string key_name(const Analysis& a, const SymbolKey& key);

// The smallest expression of the module whose span contains [begin, end).
frontend::ExprId expr_at(const Analysis& a, ModuleId m, uint32_t begin, uint32_t end);

// The innermost function (or lambda) whose body contains `offset`; invalid at top level.
frontend::FnId fn_at(const Analysis& a, ModuleId m, uint32_t offset);

// Normalises a checker symbol: types become their struct, un-renamed imports the target.
SymbolKey key_of_symbol(const Analysis& a, checker::SymbolId id);

// The module a ModuleId-typed symbol or type refers to.
ModuleId module_of_type(const Analysis& a, checker::TypeId t);

}  // namespace fitz::lsp
