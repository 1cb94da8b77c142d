// The checked view IR: what a `.fitzv` live-view component is once the checker has typed it.
// Target-independent on purpose: the server renderer and a client emitter both read this, never
// the tree-sitter tree. Types are TypeIds of the TypedProgram the views were checked with; Fitz
// code (expressions, bodies) was lowered and checked as part of a generated module (`code_module`
// below), so an emitter finds the lowered AST of each body in that module's function `fn`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/tir.h"
#include "frontend/source.h"

namespace fitz::checker {

using frontend::FileId;

// A Fitz expression of a view (interpolation, condition, key, argument, default).
struct ViewExpr {
  std::string text;        // the source text, as written
  Span span;               // in the .fitzv file
  TypeId type;             // invalid when unchecked (the view had syntax errors)
  ExprId code;             // its lowered expression in the view file's generated module
};

struct ViewField {
  std::string name;
  std::string type_text;
  TypeId type;
  Span span;                      // the field's name
  Span type_span;
  std::optional<ViewExpr> default_value;
  bool required() const { return !default_value; }
};

struct ViewParam {
  std::string name;
  std::string type_text;
  TypeId type;
  bool has_default = false;
  Span span;
  Span type_span;
};

// An `event` or an `on` hook: a body of Fitz statements checked as a function of the generated
// module (`fn`), which sees props, state, derived, `payload` and `ctx`.
struct ViewHandler {
  enum class Kind : uint8_t { Event, Mount, Unmount, Every, Message, Presence };
  Kind kind = Kind::Event;
  std::string name;
  std::string argument;            // `every`: the duration (`1s`); message/presence: the topic text
  std::vector<ViewParam> params;
  bool is_async = false;
  std::string body;
  Span span;                       // the name
  Span body_span;
  SymbolId fn;                     // the generated function
};

// An `emit name(args)` statement of one of a component's bodies (§1.3): what the handler a
// parent binds with `@name=` on this component's tag receives (the arguments as its payload).
struct ViewEmit {
  std::string name;
  Span span;                           // the event name after `emit`
  std::vector<std::string> arg_names;  // a positional argument is named `arg0`, `arg1`, ...
  std::vector<ViewExpr> args;          // parallel to arg_names
};

// One node of a template.
struct ViewNode;
using ViewNodes = std::vector<ViewNode>;

struct ViewAttr {
  enum class Kind : uint8_t {
    Static,        // a="lit" (or a bare `a`)
    Interpolated,  // a="x-{e} y" or a={e}: the parts concatenated, escaped
    Boolean,       // disabled={e} with a Bool value: present only when true
    Class,         // class:name={e}
    Event,         // @click="handler(arg: e)"
    Bind,          // bind:value={field}
    Other,         // another directive, kept for the emitter
  };
  Kind kind = Kind::Static;
  std::string name;                // attribute, class, event or bound property name
  std::string value;               // Static: the text; Event: the handler; Bind: the field
  std::vector<std::string> parts;  // Interpolated: literal text between `exprs` (exprs.size() + 1)
  std::vector<ViewExpr> exprs;     // Interpolated/Boolean/Class: the value; Event: the arguments
  std::vector<std::string> arg_names;  // Event: argument names, parallel to exprs
  Span span;
};

struct ViewNode {
  enum class Kind : uint8_t { Element, Text, If, For, Component, Slot };
  Kind kind = Kind::Element;
  Span span;
  // Element, Component, Slot
  std::string tag;                 // lower-cased for elements; as written for components
  std::vector<ViewAttr> attrs;     // Component: the props given (Event attrs: `@evt` bindings)
  ViewNodes children;              // Element/Slot children (slot fallback); Component: slot content
  bool is_static = false;          // no interpolation, binding or control flow anywhere below
  std::string slot_name;           // Slot: "" for the default slot
  // Text: literal parts and interpolations (parts.size() == exprs.size() + 1)
  std::vector<std::string> parts;
  std::vector<ViewExpr> exprs;     // If: one condition per branch with one; For: iterable, key
  // If: branches[i] runs when exprs[i] holds; a final branch past exprs.size() is the else.
  std::vector<ViewNodes> branches;
  // For
  std::vector<std::string> loop_vars;  // the item (several for a tuple pattern)
  std::string index_var;
  bool keyed = false;
  ViewNodes empty;                 // `{:empty}`
};

struct ViewComponent {
  std::string name;
  Span span;                       // the name
  bool hydrate = false;            // written, ignored (warning)
  bool has_props_block = false;
  std::vector<ViewField> props, state, derived;
  std::vector<ViewHandler> events, hooks;
  std::vector<ViewEmit> emits;     // every `emit` of its events and hooks, in that order
  std::string scoped_style, global_style;
  ViewNodes template_nodes;
  std::vector<std::string> slots;  // names of the `<slot>`s its template declares ("" = default)
  TypeId props_type;               // the generated struct: what a `@live` route fn returns
};

struct ViewFile {
  std::filesystem::path path;      // the .fitzv file
  FileId file;
  std::filesystem::path code_path; // the generated module's (virtual) path
  ModuleId code_module;            // invalid when the view had syntax errors
  std::vector<std::string> imports;  // `from X import a` lines as written
  std::vector<ViewComponent> components;
};

struct CheckedViews {
  std::vector<ViewFile> files;
  const ViewComponent* find(std::string_view name) const;
};

// The IR as text, for goldens and `fitz check --dump=view`.
std::string dump_views(const CheckedViews& views, const TypedProgram& program);

}  // namespace fitz::checker
