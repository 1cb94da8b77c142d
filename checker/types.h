// Types of Fitz programs: an interning TypeStore (one TypeId per distinct type, so equality is
// id equality), nominal struct infos, display as users write types, compatibility, LUB.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>

#include "frontend/ast.h"
#include "frontend/ids.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::checker {

using TypeId = frontend::Id<struct TypeTag>;
using StructId = frontend::Id<struct StructTag>;
using SymbolId = frontend::Id<struct SymbolTag>;
using frontend::ModuleId;

enum class TypeKind : uint8_t {
  Error,     // an erroneous expression: compatible with everything, never reported again
  Never,     // bottom: the missing side of `Ok(e)`/`Err(e)`, a diverging branch; shown as Any
  Any,
  Null,
  Int,
  Float,
  Bool,
  Str,
  Bytes,
  Range,
  List,      // args: [elem]
  Map,       // args: [key, value]
  Tuple,     // args: elements
  Nullable,  // args: [inner]; never nested, never around Null/Any/Error
  Result,    // args: [ok, err]
  Future,    // args: [value]
  Fn,        // args: params..., result (last)
  Struct,    // payload: StructId (user types and built-in nominals alike)
  Module,    // payload: ModuleId
  Var,       // payload: type-variable number; only inside built-in signatures
  Py,        // a Python value (`from python import`): dynamic, converted where it meets a declared type
};

// How a value of one type becomes a value of another where the program expects it.
enum class ConvKind : uint8_t {
  None,        // same representation (identical types, Error, Never)
  IntToFloat,  // Int -> Float
  WrapNullable,  // T -> T?, Null -> T? (the inner value may itself be converted)
  ToAny,       // any static value -> Any (boxing)
  FromAny,     // Any -> T, checked at run time
  ToPy,        // a Fitz value -> Py (argument of a Python call, operand beside a Py)
  FromPy,      // Py -> T at a declared type, checked at run time (errors name the field path)
  Structural,  // component-wise: List<Int> -> List<Float>, Result<Int, Any> -> Result<Int, Str>
};
std::string_view conv_name(ConvKind kind);

struct FieldInfo {
  std::string name;
  TypeId type;
  bool has_default = false;
  bool is_private = false;  // `_`-prefixed: only the type's own methods may touch it
  frontend::Span span;
  frontend::ExprId default_value;
  // Facts of the field's decorators and comments for JSON and OpenAPI, so no later phase reads
  // them again: `@hidden` (never in JSON), a `@has_many`/`@has_one` relation (written only when
  // preloaded), the `@example` value, and the doc comment above the field or after it.
  bool hidden = false;
  bool relation = false;
  frontend::ExprId example;
  std::string doc;
};

struct MethodInfo {
  std::string name;
  TypeId type;  // Fn type as callers see it (an async method returns Future<T>)
  frontend::FnId fn;
  bool is_static = false;
  bool is_async = false;
  bool is_private = false;
  frontend::Span span;
};

struct StructInfo {
  std::string name;
  ModuleId module;              // invalid for built-in nominals (Request, Response, ...)
  frontend::TypeDeclId decl;    // invalid for built-in nominals
  bool builtin = false;
  frontend::Span span;          // the name in the declaration
  std::string doc;              // the doc comment above the declaration
  std::vector<FieldInfo> fields;
  std::vector<MethodInfo> methods;
  // Looked up by the name as written (a view into the source): StringMap needs no std::string.
  llvm::StringMap<uint32_t> field_index;
  llvm::StringMap<uint32_t> method_index;

  const FieldInfo* field(std::string_view name) const;
  const MethodInfo* method(std::string_view name) const;
  // The position of a field or method that field() or method() of this struct returned.
  uint32_t index_of(const FieldInfo* f) const { return static_cast<uint32_t>(f - fields.data()); }
  uint32_t index_of(const MethodInfo* m) const { return static_cast<uint32_t>(m - methods.data()); }
};

class TypeStore {
 public:
  TypeStore();

  // Primitives are pre-interned; these are constant-time.
  TypeId error() const { return TypeId(0); }
  TypeId never() const { return TypeId(1); }
  TypeId any() const { return TypeId(2); }
  TypeId null() const { return TypeId(3); }
  TypeId int_() const { return TypeId(4); }
  TypeId float_() const { return TypeId(5); }
  TypeId bool_() const { return TypeId(6); }
  TypeId str() const { return TypeId(7); }
  TypeId bytes() const { return TypeId(8); }
  TypeId range() const { return TypeId(9); }
  TypeId py() const { return TypeId(10); }

  TypeId list(TypeId elem);
  TypeId map(TypeId key, TypeId value);
  TypeId tuple(std::span<const TypeId> elems);
  TypeId nullable(TypeId inner);  // normalises: Null?, Any?, T?? collapse
  TypeId result(TypeId ok, TypeId err);
  TypeId future(TypeId value);
  TypeId fn(std::span<const TypeId> params, TypeId result);
  TypeId struct_type(StructId id);
  // A built-in generic nominal with its type arguments (WsConn<In, Out>).
  TypeId struct_type(StructId id, std::span<const TypeId> args);
  TypeId module(ModuleId id);
  TypeId var(uint32_t n);

  TypeKind kind(TypeId t) const { return nodes_[t.index].kind; }
  std::span<const TypeId> args(TypeId t) const;
  uint32_t payload(TypeId t) const { return nodes_[t.index].payload; }
  size_t size() const { return nodes_.size(); }

  // Accessors that return error() when the kind does not match.
  TypeId elem(TypeId list) const;      // List<T> -> T
  TypeId key(TypeId map) const;        // Map<K, V> -> K
  TypeId value(TypeId map) const;      // Map<K, V> -> V
  TypeId inner(TypeId nullable) const; // T? -> T
  TypeId ok(TypeId result) const;
  TypeId err(TypeId result) const;
  TypeId fn_result(TypeId fn) const;
  std::span<const TypeId> fn_params(TypeId fn) const;

  bool is_numeric(TypeId t) const { return t == int_() || t == float_(); }
  bool is_error(TypeId t) const { return kind(t) == TypeKind::Error; }
  // Error, Never or Any: operations on it are not checked statically.
  bool is_dynamic(TypeId t) const;
  bool is_py(TypeId t) const { return kind(t) == TypeKind::Py; }
  // Whether a Python value converts to `t` where it meets it (FromPy), and a value of `t` to
  // Python (ToPy).
  bool py_converts_to(TypeId t, int depth = 0) const;
  bool converts_to_py(TypeId t) const;
  TypeId non_null(TypeId t) const;  // T? -> T, otherwise t
  bool contains(TypeId t, TypeKind k) const;
  bool has_vars(TypeId t) const { return contains(t, TypeKind::Var); }
  // Never anywhere inside becomes Any: what a variable that holds `Err(5)` is declared as.
  TypeId strip_never(TypeId t);

  StructId add_struct(StructInfo info);
  // While an incremental re-check of `module` runs, its new structs get its previous struct ids
  // (by name first), so types held by the modules it did not re-check still name them.
  // end_recycling() blanks the old ids no new struct took.
  void recycle_structs(ModuleId module);
  void end_recycling();
  StructInfo& struct_info(StructId id) { return structs_[id.index]; }
  const StructInfo& struct_info(StructId id) const { return structs_[id.index]; }
  size_t struct_count() const { return structs_.size(); }
  StructId struct_of(TypeId t) const;  // invalid unless a Struct type
  void set_module_name(ModuleId id, std::string name);

  // As users write types: `List<Int>`, `Map<Str, Int>`, `Int?`, `(Int, Str)`, `Fn(Int) -> Str`.
  std::string display(TypeId t) const;

  // May a value of type `actual` be used where `expected` is required (implicit conversions
  // included)? Component-wise for generics; Any, Error and Never fit everywhere.
  bool compatible(TypeId actual, TypeId expected) const;
  // The conversion that compatible() relies on (None when the types are identical).
  ConvKind conversion(TypeId actual, TypeId expected) const;
  // The least upper bound: Int+Float -> Float, Null+T -> T?, a clash -> Any.
  TypeId lub(TypeId a, TypeId b);

  // Built-in signatures: bind type variables of `pattern` from `actual`. Returns false on a
  // shape mismatch. Bound variables are widened by LUB when they meet again.
  bool unify(TypeId pattern, TypeId actual, std::vector<TypeId>& bindings);
  // Replace variables by their bindings; unbound ones become `unbound` (kept when invalid).
  TypeId substitute(TypeId t, const std::vector<TypeId>& bindings, TypeId unbound = TypeId());

 private:
  struct Node {
    TypeKind kind;
    uint32_t payload = 0;
    uint32_t args_begin = 0;
    uint32_t args_count = 0;
  };
  TypeId intern(TypeKind kind, uint32_t payload, std::span<const TypeId> args);
  bool same_node(uint32_t index, TypeKind kind, uint32_t payload, std::span<const TypeId> args) const;
  void display_into(TypeId t, std::string& out) const;

  std::vector<Node> nodes_;
  std::vector<TypeId> arg_pool_;
  // Interning without building a key: a hash of the structure leads to the first node with it,
  // and nodes with equal hashes chain through next_same_hash_ (by TypeId, UINT32_MAX ends).
  llvm::DenseMap<uint64_t, uint32_t> index_;
  std::vector<uint32_t> next_same_hash_;
  std::vector<StructInfo> structs_;
  ModuleId recycle_module_;
  std::unordered_map<std::string, std::vector<uint32_t>> recycle_by_name_;  // next at back()
  std::vector<uint32_t> recycle_rest_;
  std::vector<std::string> module_names_;
};

}  // namespace fitz::checker
