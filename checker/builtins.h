// The one declarative table of built-in functions, methods, values and nominal types. The
// checker types calls from it; hover, completion, signature help and codegen read it too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/StringMap.h>

#include "checker/types.h"

namespace fitz::checker {

using BuiltinId = frontend::Id<struct BuiltinTag>;

// Extra rules a signature cannot say.
enum class BuiltinRule : uint8_t {
  None,
  Sized,          // the argument must be List, Map, Str, Range or Bytes (len)
  NumericElems,   // the receiver's elements must be Int or Float (sum, product, min, max)
  Fields,         // named arguments are free-form record fields, not parameters (log.info)
  HttpBody,       // `B` must have a wire form: Str, Bytes or a JSON-encodable value (http.post)
  HttpOptions,    // a literal options map is checked key by key (http.request({...}))
  JsonTarget,     // `T` is the declared type the result flows into (r.json())
  SmtpOptions,    // a literal options map is checked key by key (smtp.send({...}))
  DateFormat,     // a string-literal argument must hold only known strftime specifiers (E0720)
  StrOrBytes,     // the second argument must be a Str or Bytes (fs.write, fs.append)
  SqlLiteral,     // the argument must be a plain string literal (sql.raw, E0722)
  CookieOptions,  // literal cookie names and same_site/secure are checked (Response.set_cookie, E0544)
};

// One row of the table. Signatures are written in Fitz type syntax; single capital letters
// T U K V A B are type variables, bound from the receiver and the arguments at each call.
//   receiver:  "" for a global function, else the receiver type pattern: "List<T>",
//              "Map<K, V>", "Str", "List<List<T>>" (flatten), "Request", ...
//   signature: "(f: Fn(T) -> U) -> List<U>"; `name?: T` is optional, `...name: T` variadic.
struct BuiltinEntry {
  std::string_view receiver;
  std::string_view name;
  std::string_view signature;
  std::string_view doc;
  bool is_async;      // the result is a Future (the signature says so too)
  bool mutates;       // changes the receiver in place
  std::string_view runtime_symbol;  // what generated C++ calls
  BuiltinRule rule = BuiltinRule::None;
  // The call waits (as `.await` would) and gives the result itself, not a Future: allowed
  // where `.await` is; `.await` on it is accepted and changes nothing (WsConn.recv).
  bool suspends = false;
};

// A built-in global that is a value rather than a function (service modules typed `Any`).
struct BuiltinValue {
  std::string_view name;
  std::string_view type;  // Fitz type syntax
  std::string_view doc;
  std::string_view runtime_symbol;
  // False for a module the checker knows but the runtime does not have yet: using it is an
  // error (E0214) rather than a program whose every call fails.
  bool compiled = true;
};

// A built-in nominal type. Fields: "name: Type" or "name: Type = default" (has a default).
// An open type accepts any member (typed Any) beyond those listed: its runtime shape is
// dynamic (database rows, dates, connections).
struct BuiltinNominal {
  std::string_view name;
  std::vector<std::string_view> fields;
  bool open;
  bool generic;  // takes (and ignores) type arguments: WsConn<Msg>, Secret<Str>
  std::string_view doc;
};

const std::vector<BuiltinEntry>& builtin_entries();
const std::vector<BuiltinEntry>& net_builtin_entries();  // builtins_net.cpp
const std::vector<BuiltinValue>& builtin_values();
const std::vector<BuiltinNominal>& builtin_nominals();
// The rows of builtins_values.cpp (Date, DateTime, Uuid), appended to the tables above.
const std::vector<BuiltinEntry>& value_builtin_entries();
const std::vector<BuiltinValue>& value_builtin_values();
const std::vector<BuiltinNominal>& value_builtin_nominals();

struct BuiltinParam {
  std::string name;
  TypeId type;
  bool optional = false;
  bool variadic = false;
};

struct BuiltinSig {
  TypeId receiver;  // invalid for global functions
  std::vector<BuiltinParam> params;
  TypeId result;
};

// The table resolved against one TypeStore: signatures parsed into TypeIds, indexes by name.
class Builtins {
 public:
  explicit Builtins(TypeStore& types);
  // A copy of `other` for `types`, which must be a copy of the store `other` was built with.
  Builtins(const Builtins& other, TypeStore& types);
  Builtins(const Builtins&) = delete;
  Builtins& operator=(const Builtins&) = delete;

  const BuiltinEntry& entry(BuiltinId id) const { return builtin_entries()[id.index]; }
  const BuiltinSig& sig(BuiltinId id) const { return sigs_[id.index]; }
  size_t size() const { return sigs_.size(); }

  std::optional<BuiltinId> function(std::string_view name) const;
  // Methods whose receiver pattern has the same outermost shape as `receiver` (List, Map, Str,
  // a nominal, ...); the caller unifies the pattern to pick the one that applies.
  const std::vector<BuiltinId>& methods(TypeId receiver, std::string_view name) const;
  // Every method name available on a receiver of this shape (completion, "did you mean").
  std::vector<std::string_view> method_names(TypeId receiver) const;

  std::optional<uint32_t> value(std::string_view name) const;  // index into builtin_values()
  TypeId value_type(uint32_t index) const { return value_types_[index]; }

  // Built-in nominal types by name (Request, Response, DbConn, ...).
  std::optional<StructId> nominal(std::string_view name) const;
  bool nominal_is_generic(StructId id) const;
  bool nominal_is_open(StructId id) const;

  // Parses Fitz type syntax as used in the table ("Map<K, List<T>>", "Fn(T) -> Bool").
  // Returns an invalid id on a syntax error.
  TypeId parse_type(std::string_view text) const;

 private:
  std::string shape_key(TypeId t) const;

  TypeStore& types_;
  std::vector<BuiltinSig> sigs_;
  std::unordered_map<std::string, BuiltinId> functions_;
  // "shape.name": a StringMap so that the checker's lookup per method call can build its key
  // on the stack.
  llvm::StringMap<std::vector<BuiltinId>> methods_;
  std::unordered_map<std::string, std::vector<std::string_view>> names_by_shape_;
  std::unordered_map<std::string, uint32_t> values_;
  std::vector<TypeId> value_types_;
  std::unordered_map<std::string, StructId> nominals_;
  std::unordered_map<uint32_t, uint32_t> nominal_rows_;  // struct index -> row in the table
};

}  // namespace fitz::checker
