// The decorator registry as tables: one argument array per entry and the entry list, both
// expanded from decorators.def.
#include "checker/decorators.h"

#include <array>

namespace fitz::checker {

namespace {

constexpr unsigned FN = kOnFn, TYPE = kOnType, FIELD = kOnField, PARAM = kOnParam;
constexpr DecoratorFirst ANY = DecoratorFirst::Any, STR = DecoratorFirst::Str, PATH = DecoratorFirst::Path;
constexpr DecoratorArgType INT_T = DecoratorArgType::Int, STR_T = DecoratorArgType::Str,
                           BOOL_T = DecoratorArgType::Bool, MAP_T = DecoratorArgType::Map,
                           ANYT_T = DecoratorArgType::Any;

// The keyword arguments of each entry: kArgs_<Kind>, with a placeholder element for none.
#define ARGS(...) __VA_ARGS__,
#define ARG(name, type, def, doc) DecoratorArgSpec{name, type##_T, def, doc, false}
#define REQ_ARG(name, type, doc) DecoratorArgSpec{name, type##_T, "", doc, true}
#define NO_ARGS
#define ANY_ARGS
#define DECORATOR(Kind, name, places, min_pos, max_pos, first, args, doc, snippet) \
  constexpr DecoratorArgSpec kArgs_##Kind[] = {args DecoratorArgSpec{}};
#include "checker/decorators.def"

constexpr bool takes_any(std::string_view args_text) { return args_text == "ANY_ARGS"; }

const DecoratorSpec kSpecs[] = {
#define DECORATOR(Kind, name, places, min_pos, max_pos, first, args, doc, snippet)                          \
  DecoratorSpec{DecoratorKind::Kind, name, places, min_pos, max_pos, first,                                \
                std::span<const DecoratorArgSpec>(kArgs_##Kind, std::size(kArgs_##Kind) - 1), takes_any(#args), \
                doc, snippet},
#include "checker/decorators.def"
};

}  // namespace

std::span<const DecoratorSpec> decorator_specs() { return kSpecs; }

const DecoratorSpec& decorator_spec(DecoratorKind k) { return kSpecs[static_cast<size_t>(k)]; }

const DecoratorSpec* find_decorator(std::string_view name, DecoratorPlace place) {
  for (const DecoratorSpec& s : kSpecs)
    if (s.name == name && (s.places & place)) return &s;
  return nullptr;
}

unsigned decorator_places(std::string_view name) {
  unsigned p = 0;
  for (const DecoratorSpec& s : kSpecs)
    if (s.name == name) p |= s.places;
  return p;
}

std::string_view decorator_place_name(DecoratorPlace p) {
  switch (p) {
    case kOnFn: return "function";
    case kOnType: return "type";
    case kOnField: return "field";
    case kOnParam: return "parameter";
  }
  return "?";
}

std::string_view decorator_arg_type_name(DecoratorArgType t) {
  switch (t) {
    case DecoratorArgType::Int: return "Int";
    case DecoratorArgType::Str: return "Str";
    case DecoratorArgType::Bool: return "Bool";
    case DecoratorArgType::Map: return "Map";
    case DecoratorArgType::Any: return "any";
  }
  return "?";
}

const DecoratorArgSpec* find_decorator_arg(const DecoratorSpec& spec, std::string_view name) {
  for (const DecoratorArgSpec& a : spec.args)
    if (a.name == name) return &a;
  return nullptr;
}

bool is_decorator(const frontend::Decorator& d, DecoratorKind k) { return d.name.text == decorator_spec(k).name; }

const frontend::Decorator* find_decorator(const std::vector<frontend::Decorator>& ds, DecoratorKind k) {
  for (const frontend::Decorator& d : ds)
    if (is_decorator(d, k)) return &d;
  return nullptr;
}

std::optional<DecoratorKind> decorator_kind(const frontend::Decorator& d, DecoratorPlace place) {
  if (const DecoratorSpec* s = find_decorator(d.name.text, place)) return s->kind;
  return std::nullopt;
}

}  // namespace fitz::checker
