// The decorator registry (decorators.def) as data: the kind of each entry, where it may
// appear, its arguments, its doc line and completion snippet. The checker validates decorators
// from it; LSP completion and hover and the reference page read it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "frontend/ast.h"

namespace fitz::checker {

// One enumerator per registry entry (a name has one per place it may appear).
enum class DecoratorKind : uint8_t {
#define DECORATOR(Kind, name, places, min_pos, max_pos, first, args, doc, snippet) Kind,
#include "checker/decorators.def"
};

// Where a decorator may appear; an entry's places are a bit set of these.
enum DecoratorPlace : unsigned { kOnFn = 1, kOnType = 2, kOnField = 4, kOnParam = 8 };

// What the first positional argument must be.
enum class DecoratorFirst : uint8_t { Any, Str, Path };

// The type of a keyword argument; a literal of another kind is an error.
enum class DecoratorArgType : uint8_t { Int, Str, Bool, Map, Any };

struct DecoratorArgSpec {
  std::string_view name;
  DecoratorArgType type;
  std::string_view default_value;  // empty: nothing to show
  std::string_view doc;
  bool required;
};

struct DecoratorSpec {
  DecoratorKind kind;
  std::string_view name;
  unsigned places;
  int min_pos;
  int max_pos;  // -1: any number
  DecoratorFirst first;
  std::span<const DecoratorArgSpec> args;
  bool any_args;  // any keyword argument is accepted
  std::string_view doc;
  std::string_view snippet;
};

// Every entry, in registry order.
std::span<const DecoratorSpec> decorator_specs();
const DecoratorSpec& decorator_spec(DecoratorKind k);
// The entry of `name` at `place`, else nullopt.
const DecoratorSpec* find_decorator(std::string_view name, DecoratorPlace place);
// Every place where `name` may appear (0: not a decorator).
unsigned decorator_places(std::string_view name);
std::string_view decorator_place_name(DecoratorPlace p);  // "function", "type", ...
std::string_view decorator_arg_type_name(DecoratorArgType t);  // "Int", "Str", ...
// The keyword argument `name` of `spec`, else nullptr.
const DecoratorArgSpec* find_decorator_arg(const DecoratorSpec& spec, std::string_view name);

// Reading a checked AST by kind: the place is the caller's (a function's, type's, field's or
// parameter's decorator list), so `@flag` on a function is FlagFn and on a parameter FlagParam.
// Code outside the checker compares decorators with these, never by name.
bool is_decorator(const frontend::Decorator& d, DecoratorKind k);
const frontend::Decorator* find_decorator(const std::vector<frontend::Decorator>& ds, DecoratorKind k);
inline bool has_decorator(const std::vector<frontend::Decorator>& ds, DecoratorKind k) {
  return find_decorator(ds, k) != nullptr;
}
// The kind of `d` at `place`, or nullopt when the registry has no such entry.
std::optional<DecoratorKind> decorator_kind(const frontend::Decorator& d, DecoratorPlace place);

// Route decorators (@get ... @delete) make a function an HTTP handler.
constexpr bool is_route(DecoratorKind k) {
  return k == DecoratorKind::Get || k == DecoratorKind::Post || k == DecoratorKind::Put ||
         k == DecoratorKind::Patch || k == DecoratorKind::Delete;
}

}  // namespace fitz::checker
