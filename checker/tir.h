// The typed program (TIR): the checker's output. The AST stays as lowered; this file holds the
// side tables that give it meaning (a type per expression, a symbol per name, a target per call,
// explicit conversions). Codegen and the language server read only this plus the AST.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "checker/builtins.h"
#include "checker/service_model.h"
#include "checker/types.h"
#include "frontend/ast.h"
#include "frontend/modules.h"

namespace fitz::checker {

struct OrmPlans;  // checker/orm_plan.h

using frontend::ExprId;
using frontend::FnId;
using frontend::PatternId;
using frontend::Span;
using frontend::StmtId;
using frontend::TypeDeclId;
using frontend::TypeExprId;

enum class SymbolKind : uint8_t {
  Global,     // a variable assigned at a module's top level (possibly inside if/for blocks)
  Local,      // a variable of a function or lambda body (for, match and let bindings too)
  Param,      // a function or lambda parameter
  Function,   // a named `fn` at top level (nested named fns are Locals holding a Fn value)
  Type,       // a user `type` (struct)
  Module,     // `import m` / `import a.b as m`
  Import,     // `from m import x as y`: an alias of `target` in another module
  Builtin,    // a built-in function (print, len, ...)
  BuiltinValue,  // a built-in value typed by the table (db, jwt, ...)
};
std::string_view symbol_kind_name(SymbolKind kind);

struct Symbol {
  SymbolKind kind = SymbolKind::Local;
  std::string name;
  ModuleId module;          // the module that declares it
  Span span;                // its declaration (first assignment for variables)
  TypeId type;              // variables: LUB of everything assigned (or the annotation)
  bool annotated = false;   // `x: T = ...` pins the type
  FnId fn;                  // Function: the declaration; Local/Param: the enclosing fn (invalid = top level)
  StructId struct_id;       // Type
  ModuleId target_module;   // Module, Import
  SymbolId target;          // Import: the symbol it names in target_module
  BuiltinId builtin;        // Builtin
  uint32_t builtin_value = 0;  // BuiltinValue: row of builtin_values()
  bool used = false;        // read somewhere (for unused warnings)
};

// How a NameRef, FieldExpr or StructLit was resolved.
enum class RefKind : uint8_t {
  None,
  Symbol,       // id = SymbolId (locals, params, globals, functions, types, modules, builtins)
  Field,        // a struct field: id = field index, struct_id set (obj.f, or a bare name in a method)
  Method,       // a struct method used as a value: id = method index, struct_id set
  ModuleMember, // m.x: id = SymbolId in the other module
  TupleIndex,   // t.0 (TupleIndexExpr): id = index
  DynamicMember,// a member of an Any (or open built-in) value, looked up at run time
  StructType,   // StructLit: struct_id set
};

struct Ref {
  Ref() = default;
  explicit Ref(RefKind k, uint32_t i = 0, StructId s = StructId()) : kind(k), id(i), struct_id(s) {}
  RefKind kind = RefKind::None;
  uint32_t id = 0;
  StructId struct_id;
  // A read of a `T?` variable in a region where it is known not to be null: the expression's
  // type is T and codegen unwraps the value.
  bool narrowed = false;
  // A bare field or method name inside a method: the receiver is the implicit instance.
  bool implicit_self = false;
};

struct Conversion {
  ConvKind kind = ConvKind::None;
  TypeId to;  // the type the value is converted to (valid when kind != None)
};

enum class CallKind : uint8_t {
  None,          // not resolved (an error was reported, or the callee is Error)
  Function,      // a top-level user function: symbol
  Method,        // an instance method: struct_id + index, receiver = the FieldExpr's object
                 // (or the implicit instance when implicit_self)
  StaticMethod,  // Type.m(...): struct_id + index
  Builtin,       // a global built-in: builtin
  BuiltinMethod, // a built-in method: builtin, receiver = the FieldExpr's object
  FnValue,       // calling a value of Fn type (lambda, parameter, field, nested fn)
  Dynamic,       // calling something typed Any: checked at run time
  Python,        // calling a Py value (`m.f(...)`: the FieldExpr's object and attribute name);
                 // arguments convert to Py, keywords pass by name, the result is Result<Py, Str>
};

struct CallInfo {
  CallKind kind = CallKind::None;
  SymbolId symbol;     // Function
  StructId struct_id;  // Method, StaticMethod
  uint32_t index = 0;  // method index
  BuiltinId builtin;   // Builtin, BuiltinMethod
  bool implicit_self = false;
  bool is_async = false;  // the call produces a Future
  bool suspends = false;  // the call waits itself and produces its result (BuiltinEntry::suspends)
  // Which parameter each argument binds to (argument order); variadic extras all map to the
  // variadic parameter. Parameters that receive no argument take their default.
  std::vector<uint32_t> param_of_arg;
  uint32_t param_count = 0;
  // Type-variable bindings of a built-in call, in variable order (T, U, K, V, A, B).
  std::vector<TypeId> type_args;
};

struct ParamInfo {
  std::string name;
  TypeId type;  // a variadic parameter's type is List<T> inside the body
  bool has_default = false;
  bool variadic = false;
  SymbolId symbol;
  Span span;  // the parameter's name in the declaration
};

struct FnInfo {
  SymbolId symbol;         // named top-level functions; invalid for lambdas and methods
  StructId owner;          // methods: their type
  uint32_t method_index = 0;
  std::vector<ParamInfo> params;
  TypeId return_type;      // what the body returns (declared, or inferred by LUB)
  TypeId type;             // as callers see it: Fn(params) -> R, or -> Future<R> when async
  bool is_async = false;
  bool is_static = false;
  bool return_inferred = false;
  bool is_handler = false; // decorated with an HTTP route (may `return STATUS BODY`)
  bool is_test = false;    // a top-level `@test` function (run by `fitz test`)
  // `@trace` / `@metric`: the span or metric name (`name=`, else the function's); empty: none.
  std::string trace_name;
  std::string metric_name;
  std::vector<SymbolId> locals;    // in order of first assignment
  std::vector<SymbolId> captures;  // lambdas and nested fns: variables of enclosing functions
  SymbolId binding;                // nested named fns: the variable that holds the closure
  bool captures_self = false;      // uses the fields or methods of an enclosing method's instance
  // Its body works on Python values: a handler that does runs on the Python worker pool.
  bool uses_python = false;
  bool checked = false;
};

// `from python import m [as alias]`: the module global `symbol` (typed Py) that the program
// sets by importing `module` when the importing Fitz module starts.
struct PythonImport {
  SymbolId symbol;
  std::string module;
  Span span;  // the imported name: where a failing import is reported
};

// What a module shows to its importers. Two summaries with the same hash give importers the
// same types, so a body-only edit never needs its dependents re-checked.
struct ModuleInterface {
  struct Export {
    std::string name;
    SymbolId symbol;
    std::string type;  // display of the type (for a struct: its layout)
  };
  std::vector<Export> exports;  // top-level names in source order
  std::unordered_map<std::string, SymbolId> by_name;
  uint64_t hash = 0;
};

struct ModuleTir {
  ModuleId module;
  std::vector<TypeId> expr_types;        // by ExprId
  std::vector<Conversion> conversions;   // by ExprId
  std::vector<Ref> refs;                 // by ExprId: NameRef, FieldExpr, TupleIndexExpr, StructLit
  std::vector<uint32_t> call_index;      // by ExprId: index into calls, or UINT32_MAX
  std::vector<CallInfo> calls;
  std::vector<SymbolId> pattern_symbols; // by PatternId: BindPat bindings
  std::vector<SymbolId> annotated_symbols;  // by StmtId: the variable `x: T = v` assigns
  std::vector<TypeId> pattern_types;     // by PatternId: the type each pattern matches
  std::vector<TypeId> type_exprs;        // by TypeExprId: resolved annotations
  std::vector<FnInfo> fns;               // by FnId
  std::vector<StructId> type_decls;      // by TypeDeclId
  std::vector<SymbolId> globals;         // in order of first assignment
  std::vector<SymbolId> top_level;       // every top-level symbol (functions, types, imports, globals)
  // `e?` whose error type differs from the `Str` error of the function's `Result`: the error
  // propagates as its display text (`"{e}"`). In source order.
  std::vector<ExprId> try_error_text;
  // The module's route handlers as its check bound them, in source order (service_model.h).
  std::vector<HandlerDecl> handlers;
  // `@live` pages: bound like GET handlers; the function returns the root component's props.
  std::vector<HandlerDecl> live_handlers;
  // Every `live_test(props)` call: where its argument is and its type. Which types are a
  // component's props is known only once the views are checked (ViewChecker::check_live_pages).
  struct LiveTestArg {
    Span span;
    TypeId type;
  };
  std::vector<LiveTestArg> live_tests;
  // Every `live_embed(props)` call (§1.7), with the route handler whose body makes it: codegen
  // gives that handler the request's EmbedScope. Props are checked like live_test's.
  struct LiveEmbedArg {
    Span span;
    TypeId type;
    FnId fn;
  };
  std::vector<LiveEmbedArg> live_embeds;
  bool embeds_in(FnId f) const {
    for (const LiveEmbedArg& e : live_embeds)
      if (e.fn == f) return true;
    return false;
  }
  // Every `spawn(f(args))` whose argument the checker resolved to a `@background` function, in
  // source order: codegen starts that function's job without looking at the call again.
  std::vector<SpawnTarget> spawn_targets;
  // The plans of the module's ORM calls (checker/orm_plan.h); set by every checking pass.
  std::shared_ptr<OrmPlans> orm;
  // The module's Python imports, in source order.
  std::vector<PythonImport> python_imports;
  ModuleInterface interface;
  bool checked = false;

  TypeId type_of(ExprId e) const { return expr_types[e.index]; }
  const Conversion& conversion_of(ExprId e) const { return conversions[e.index]; }
  const Ref& ref_of(ExprId e) const { return refs[e.index]; }
  bool try_converts_error_to_text(ExprId e) const {
    for (ExprId x : try_error_text)
      if (x == e) return true;
    return false;
  }
  const SpawnTarget* spawn_target_of(ExprId spawn) const {
    for (const SpawnTarget& t : spawn_targets)
      if (t.spawn == spawn) return &t;
    return nullptr;
  }
  const CallInfo* call_of(ExprId e) const {
    uint32_t i = call_index[e.index];
    return i == UINT32_MAX ? nullptr : &calls[i];
  }
};

// Ids that an incremental re-check hands back to the module it re-checks, so that the tables of
// the modules it did not re-check keep pointing at the right symbols: top-level names get their
// previous ids (by kind and name), other new symbols of the module reuse its remaining old ids.
struct SymbolRecycler {
  ModuleId module;
  std::unordered_map<std::string, std::vector<SymbolId>> top;  // next id at back()
  std::vector<SymbolId> rest;                                  // next id at back()
  std::vector<SymbolId> handed;                                // ids taken so far

  // The id a new symbol `s` of `module` takes, or an invalid id to append one.
  SymbolId take(const Symbol& s);
  static std::string key(SymbolKind kind, std::string_view name);
};

// The whole checked program. Owns the type store, the built-in table resolved against it,
// every symbol, and one ModuleTir per module of the graph (indexed by ModuleId).
struct TypedProgram {
  TypedProgram();
  TypedProgram(TypedProgram&&) = default;
  TypedProgram& operator=(TypedProgram&&) = default;

  std::unique_ptr<TypeStore> types;
  std::unique_ptr<Builtins> builtins;
  std::vector<Symbol> symbols;
  std::vector<ModuleTir> modules;
  std::unordered_map<std::string, SymbolId> builtin_symbols;  // by name
  // What the program's services are, decided once after every module is checked.
  ServiceModel service;

  const Symbol& symbol(SymbolId id) const { return symbols[id.index]; }
  Symbol& symbol(SymbolId id) { return symbols[id.index]; }
  std::unique_ptr<SymbolRecycler> recycler;  // set only while the checker re-checks a module

  SymbolId add_symbol(Symbol s) {
    if (recycler && s.module == recycler->module) {
      if (SymbolId id = recycler->take(s); id.valid()) {
        symbols[id.index] = std::move(s);
        return id;
      }
    }
    symbols.push_back(std::move(s));
    return SymbolId(static_cast<uint32_t>(symbols.size() - 1));
  }
};

// `fitz check --dump=tir`: a stable text form of one module's typed tables, for golden tests.
std::string dump_tir(const TypedProgram& program, const frontend::ModuleGraph& graph, ModuleId module,
                     const frontend::SourceManager& sources);

}  // namespace fitz::checker
