// TypeStore: interning, display, compatibility, conversions and least upper bounds.
// Every relation here is structural over interned ids, so checking never compares strings.
#include "checker/types.h"

#include <llvm/ADT/Hashing.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <cstring>

namespace fitz::checker {

std::string_view conv_name(ConvKind kind) {
  switch (kind) {
    case ConvKind::None: return "none";
    case ConvKind::IntToFloat: return "int->float";
    case ConvKind::WrapNullable: return "wrap-nullable";
    case ConvKind::ToAny: return "to-any";
    case ConvKind::FromAny: return "from-any";
    case ConvKind::ToPy: return "to-py";
    case ConvKind::FromPy: return "from-py";
    case ConvKind::Structural: return "structural";
  }
  return "?";
}

const FieldInfo* StructInfo::field(std::string_view n) const {
  auto it = field_index.find(n);
  return it == field_index.end() ? nullptr : &fields[it->second];
}

const MethodInfo* StructInfo::method(std::string_view n) const {
  auto it = method_index.find(n);
  return it == method_index.end() ? nullptr : &methods[it->second];
}

TypeStore::TypeStore() {
  static constexpr TypeKind kPrims[] = {TypeKind::Error, TypeKind::Never, TypeKind::Any,
                                        TypeKind::Null,  TypeKind::Int,   TypeKind::Float,
                                        TypeKind::Bool,  TypeKind::Str,   TypeKind::Bytes,
                                        TypeKind::Range, TypeKind::Py};
  for (TypeKind k : kPrims) intern(k, 0, {});
}

namespace {

// The argument list of a type being built: on the stack for the usual few arguments, since
// interning copies it into the pool anyway.
using ArgBuffer = llvm::SmallVector<TypeId, 8>;

// DenseMap reserves the two largest keys (empty and tombstone): a hash shifted right never is one.
uint64_t structure_hash(TypeKind kind, uint32_t payload, std::span<const TypeId> args) {
  llvm::hash_code h = llvm::hash_combine(static_cast<uint8_t>(kind), payload, args.size());
  for (TypeId a : args) h = llvm::hash_combine(h, a.index);
  return static_cast<uint64_t>(static_cast<size_t>(h)) >> 1;
}

}  // namespace

bool TypeStore::same_node(uint32_t index, TypeKind kind, uint32_t payload, std::span<const TypeId> args) const {
  const Node& n = nodes_[index];
  if (n.kind != kind || n.payload != payload || n.args_count != args.size()) return false;
  for (size_t i = 0; i < args.size(); ++i)
    if (arg_pool_[n.args_begin + i] != args[i]) return false;
  return true;
}

TypeId TypeStore::intern(TypeKind kind, uint32_t payload, std::span<const TypeId> args) {
  const uint64_t hash = structure_hash(kind, payload, args);
  auto [slot, fresh] = index_.try_emplace(hash, static_cast<uint32_t>(nodes_.size()));
  if (!fresh) {
    uint32_t i = slot->second;
    for (;;) {
      if (same_node(i, kind, payload, args)) return TypeId(i);
      if (next_same_hash_[i] == UINT32_MAX) break;
      i = next_same_hash_[i];
    }
    next_same_hash_[i] = static_cast<uint32_t>(nodes_.size());  // a collision: chain it last
  }
  TypeId id(static_cast<uint32_t>(nodes_.size()));
  Node n{kind, payload, static_cast<uint32_t>(arg_pool_.size()), static_cast<uint32_t>(args.size())};
  if (!args.empty() && args.data() >= arg_pool_.data() && args.data() < arg_pool_.data() + arg_pool_.size()) {
    std::vector<TypeId> copy(args.begin(), args.end());  // args alias the pool, which may grow
    arg_pool_.insert(arg_pool_.end(), copy.begin(), copy.end());
  } else {
    arg_pool_.insert(arg_pool_.end(), args.begin(), args.end());
  }
  nodes_.push_back(n);
  next_same_hash_.push_back(UINT32_MAX);
  return id;
}

std::span<const TypeId> TypeStore::args(TypeId t) const {
  const Node& n = nodes_[t.index];
  return {arg_pool_.data() + n.args_begin, n.args_count};
}

TypeId TypeStore::list(TypeId elem) { TypeId a[] = {elem}; return intern(TypeKind::List, 0, a); }
TypeId TypeStore::map(TypeId k, TypeId v) { TypeId a[] = {k, v}; return intern(TypeKind::Map, 0, a); }
TypeId TypeStore::tuple(std::span<const TypeId> elems) { return intern(TypeKind::Tuple, 0, elems); }
TypeId TypeStore::result(TypeId ok, TypeId err) { TypeId a[] = {ok, err}; return intern(TypeKind::Result, 0, a); }
TypeId TypeStore::future(TypeId v) { TypeId a[] = {v}; return intern(TypeKind::Future, 0, a); }
TypeId TypeStore::struct_type(StructId id) { return intern(TypeKind::Struct, id.index, {}); }
TypeId TypeStore::struct_type(StructId id, std::span<const TypeId> args) {
  return intern(TypeKind::Struct, id.index, args);
}
TypeId TypeStore::module(ModuleId id) { return intern(TypeKind::Module, id.index, {}); }
TypeId TypeStore::var(uint32_t n) { return intern(TypeKind::Var, n, {}); }

TypeId TypeStore::nullable(TypeId inner) {
  switch (kind(inner)) {
    case TypeKind::Error:
    case TypeKind::Any:
    case TypeKind::Null:
    case TypeKind::Nullable:
    case TypeKind::Py:  // None is a Python value too
      return inner;
    case TypeKind::Never:
      return null();
    default: {
      TypeId a[] = {inner};
      return intern(TypeKind::Nullable, 0, a);
    }
  }
}

TypeId TypeStore::fn(std::span<const TypeId> params, TypeId result) {
  ArgBuffer a(params.begin(), params.end());
  a.push_back(result);
  return intern(TypeKind::Fn, 0, a);
}

TypeId TypeStore::elem(TypeId t) const { return kind(t) == TypeKind::List ? args(t)[0] : error(); }
TypeId TypeStore::key(TypeId t) const { return kind(t) == TypeKind::Map ? args(t)[0] : error(); }
TypeId TypeStore::value(TypeId t) const { return kind(t) == TypeKind::Map ? args(t)[1] : error(); }
TypeId TypeStore::inner(TypeId t) const { return kind(t) == TypeKind::Nullable ? args(t)[0] : error(); }
TypeId TypeStore::ok(TypeId t) const { return kind(t) == TypeKind::Result ? args(t)[0] : error(); }
TypeId TypeStore::err(TypeId t) const { return kind(t) == TypeKind::Result ? args(t)[1] : error(); }
TypeId TypeStore::fn_result(TypeId t) const { return kind(t) == TypeKind::Fn ? args(t).back() : error(); }
std::span<const TypeId> TypeStore::fn_params(TypeId t) const {
  if (kind(t) != TypeKind::Fn) return {};
  auto a = args(t);
  return a.first(a.size() - 1);
}

bool TypeStore::py_converts_to(TypeId t, int depth) const {
  if (depth > 32) return true;  // a recursive type: its outer levels decide
  switch (kind(t)) {
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Any:
    case TypeKind::Py:
    case TypeKind::Null:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Str:
    case TypeKind::Bytes:
      return true;
    case TypeKind::Nullable:
    case TypeKind::List:
      return py_converts_to(args(t)[0], depth + 1);
    case TypeKind::Map:
      return kind(args(t)[0]) == TypeKind::Str && py_converts_to(args(t)[1], depth + 1);
    case TypeKind::Struct: {
      const StructInfo& si = structs_[payload(t)];
      if (si.builtin) return false;
      for (const FieldInfo& f : si.fields)
        if (!py_converts_to(f.type, depth + 1)) return false;
      return true;
    }
    default:
      return false;  // tuples, results, functions, futures, ranges, modules
  }
}

bool TypeStore::converts_to_py(TypeId t) const {
  switch (kind(t)) {
    case TypeKind::Fn:
    case TypeKind::Future:
    case TypeKind::Module:
    case TypeKind::Var:
      return false;
    default:
      return true;
  }
}

bool TypeStore::is_dynamic(TypeId t) const {
  TypeKind k = kind(t);
  return k == TypeKind::Error || k == TypeKind::Any || k == TypeKind::Never;
}

TypeId TypeStore::non_null(TypeId t) const { return kind(t) == TypeKind::Nullable ? args(t)[0] : t; }

bool TypeStore::contains(TypeId t, TypeKind k) const {
  if (kind(t) == k) return true;
  for (TypeId a : args(t))
    if (contains(a, k)) return true;
  return false;
}

TypeId TypeStore::strip_never(TypeId t) {
  if (kind(t) == TypeKind::Never) return any();
  if (args(t).empty() || !contains(t, TypeKind::Never)) return t;
  ArgBuffer a(args(t).begin(), args(t).end());
  for (TypeId& x : a) x = strip_never(x);
  if (kind(t) == TypeKind::Nullable) return nullable(a[0]);
  return intern(kind(t), payload(t), a);
}

StructId TypeStore::add_struct(StructInfo info) {
  for (uint32_t i = 0; i < info.fields.size(); ++i) info.field_index.try_emplace(info.fields[i].name, i);
  for (uint32_t i = 0; i < info.methods.size(); ++i) info.method_index.try_emplace(info.methods[i].name, i);
  if (recycle_module_.valid() && info.module == recycle_module_) {
    uint32_t id = UINT32_MAX;
    if (auto it = recycle_by_name_.find(info.name); it != recycle_by_name_.end() && !it->second.empty()) {
      id = it->second.back();
      it->second.pop_back();
    } else if (!recycle_rest_.empty()) {
      id = recycle_rest_.back();
      recycle_rest_.pop_back();
    }
    if (id != UINT32_MAX) {
      structs_[id] = std::move(info);
      return StructId(id);
    }
  }
  structs_.push_back(std::move(info));
  return StructId(static_cast<uint32_t>(structs_.size() - 1));
}

void TypeStore::recycle_structs(ModuleId module) {
  end_recycling();
  recycle_module_ = module;
  for (uint32_t i = static_cast<uint32_t>(structs_.size()); i-- > 0;) {
    const StructInfo& s = structs_[i];
    if (s.builtin || s.module != module) continue;
    if (s.name.empty()) recycle_rest_.push_back(i);
    else recycle_by_name_[s.name].push_back(i);
  }
}

void TypeStore::end_recycling() {
  auto blank = [&](uint32_t i) {
    StructInfo b;
    b.module = recycle_module_;  // still the module's, for its next re-check
    structs_[i] = std::move(b);
  };
  for (auto& [name, ids] : recycle_by_name_)
    for (uint32_t i : ids) blank(i);
  for (uint32_t i : recycle_rest_) blank(i);
  recycle_by_name_.clear();
  recycle_rest_.clear();
  recycle_module_ = ModuleId();
}

StructId TypeStore::struct_of(TypeId t) const {
  return kind(t) == TypeKind::Struct ? StructId(payload(t)) : StructId();
}

void TypeStore::set_module_name(ModuleId id, std::string name) {
  if (module_names_.size() <= id.index) module_names_.resize(id.index + 1);
  module_names_[id.index] = std::move(name);
}

std::string TypeStore::display(TypeId t) const {
  std::string out;
  display_into(t, out);
  return out;
}

void TypeStore::display_into(TypeId t, std::string& out) const {
  if (!t.valid()) {
    out += "?";
    return;
  }
  auto a = args(t);
  auto list_args = [&](std::span<const TypeId> xs) {
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i) out += ", ";
      display_into(xs[i], out);
    }
  };
  switch (kind(t)) {
    case TypeKind::Error: out += "{error}"; return;
    case TypeKind::Never: out += "Any"; return;
    case TypeKind::Any: out += "Any"; return;
    case TypeKind::Py: out += "Py"; return;
    case TypeKind::Null: out += "Null"; return;
    case TypeKind::Int: out += "Int"; return;
    case TypeKind::Float: out += "Float"; return;
    case TypeKind::Bool: out += "Bool"; return;
    case TypeKind::Str: out += "Str"; return;
    case TypeKind::Bytes: out += "Bytes"; return;
    case TypeKind::Range: out += "Range"; return;
    case TypeKind::List: out += "List<"; display_into(a[0], out); out += ">"; return;
    case TypeKind::Map: out += "Map<"; list_args(a); out += ">"; return;
    case TypeKind::Future: out += "Future<"; display_into(a[0], out); out += ">"; return;
    case TypeKind::Result: out += "Result<"; list_args(a); out += ">"; return;
    case TypeKind::Tuple:
      out += "(";
      list_args(a);
      if (a.size() == 1) out += ",";
      out += ")";
      return;
    case TypeKind::Nullable: {
      bool paren = kind(a[0]) == TypeKind::Fn;
      if (paren) out += "(";
      display_into(a[0], out);
      if (paren) out += ")";
      out += "?";
      return;
    }
    case TypeKind::Fn:
      out += "Fn(";
      list_args(a.first(a.size() - 1));
      out += ") -> ";
      display_into(a.back(), out);
      return;
    case TypeKind::Struct: {
      uint32_t s = payload(t);
      out += s < structs_.size() ? structs_[s].name : "?";
      if (a.empty()) return;
      // WsConn<T, T> reads as it is usually written: WsConn<T>.
      bool same = std::all_of(a.begin(), a.end(), [&](TypeId x) { return x == a[0]; });
      if (same && kind(a[0]) == TypeKind::Any) return;
      out += "<";
      if (same) display_into(a[0], out);
      else list_args(a);
      out += ">";
      return;
    }
    case TypeKind::Module: {
      uint32_t m = payload(t);
      out += "module ";
      out += m < module_names_.size() ? module_names_[m] : "?";
      return;
    }
    case TypeKind::Var: {
      static constexpr const char* kNames[] = {"T", "U", "K", "V", "A", "B", "E", "R"};
      uint32_t n = payload(t);
      out += n < 8 ? kNames[n] : "T" + std::to_string(n);
      return;
    }
  }
}

bool TypeStore::compatible(TypeId actual, TypeId expected) const {
  if (actual == expected) return true;
  TypeKind ka = kind(actual), ke = kind(expected);
  if (ka == TypeKind::Error || ke == TypeKind::Error || ka == TypeKind::Never) return true;
  if (ka == TypeKind::Any || ke == TypeKind::Any) return true;
  if (ka == TypeKind::Py) return py_converts_to(expected);
  if (ke == TypeKind::Py) return converts_to_py(actual);
  if (ke == TypeKind::Nullable) {
    if (ka == TypeKind::Null) return true;
    if (ka == TypeKind::Nullable) return compatible(args(actual)[0], args(expected)[0]);
    return compatible(actual, args(expected)[0]);
  }
  if (ka == TypeKind::Int && ke == TypeKind::Float) return true;
  if (ka != ke) return false;
  switch (ka) {
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Result:
    case TypeKind::Future:
    case TypeKind::Tuple:
    case TypeKind::Fn:
    case TypeKind::Struct: {
      if (ka == TypeKind::Struct && payload(actual) != payload(expected)) return false;
      auto aa = args(actual), ae = args(expected);
      if (aa.size() != ae.size()) return false;
      for (size_t i = 0; i < aa.size(); ++i)
        if (!compatible(aa[i], ae[i])) return false;
      return true;
    }
    default:
      return false;  // distinct nominals, modules, variables
  }
}

ConvKind TypeStore::conversion(TypeId actual, TypeId expected) const {
  if (actual == expected) return ConvKind::None;
  TypeKind ka = kind(actual), ke = kind(expected);
  if (ka == TypeKind::Error || ke == TypeKind::Error || ka == TypeKind::Never) return ConvKind::None;
  if (ke == TypeKind::Any) return ConvKind::ToAny;
  if (ke == TypeKind::Py) return ConvKind::ToPy;
  if (ka == TypeKind::Py) return ConvKind::FromPy;
  if (ka == TypeKind::Any) return ConvKind::FromAny;
  if (ke == TypeKind::Nullable && ka != TypeKind::Nullable) return ConvKind::WrapNullable;
  if (ka == TypeKind::Int && ke == TypeKind::Float) return ConvKind::IntToFloat;
  // One nominal with other type arguments (WsConn<Msg> where WsConn<Any> is expected): the same
  // run-time value.
  if (ka == TypeKind::Struct && ke == TypeKind::Struct) return ConvKind::None;
  return ConvKind::Structural;
}

TypeId TypeStore::lub(TypeId a, TypeId b) {
  if (a == b) return a;
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  TypeKind ka = kind(a), kb = kind(b);
  if (ka == TypeKind::Never || ka == TypeKind::Error) return b;
  if (kb == TypeKind::Never || kb == TypeKind::Error) return a;
  if (ka == TypeKind::Any || kb == TypeKind::Any) return any();
  if (ka == TypeKind::Null) return nullable(b);
  if (kb == TypeKind::Null) return nullable(a);
  if (ka == TypeKind::Nullable || kb == TypeKind::Nullable) {
    TypeId l = lub(non_null(a), non_null(b));
    return kind(l) == TypeKind::Any ? l : nullable(l);
  }
  if (is_numeric(a) && is_numeric(b)) return float_();
  if (ka != kb) return any();
  switch (ka) {
    case TypeKind::List: return list(lub(args(a)[0], args(b)[0]));
    case TypeKind::Future: return future(lub(args(a)[0], args(b)[0]));
    case TypeKind::Map: {
      TypeId k = lub(args(a)[0], args(b)[0]);
      return map(k, lub(args(a)[1], args(b)[1]));
    }
    case TypeKind::Result: {
      TypeId o = lub(args(a)[0], args(b)[0]);
      return result(o, lub(args(a)[1], args(b)[1]));
    }
    case TypeKind::Tuple: {
      if (args(a).size() != args(b).size()) return any();
      std::vector<TypeId> xs;
      for (size_t i = 0; i < args(a).size(); ++i) xs.push_back(lub(args(a)[i], args(b)[i]));
      return tuple(xs);
    }
    case TypeKind::Fn: {
      auto pa = fn_params(a), pb = fn_params(b);
      if (pa.size() != pb.size() || !std::equal(pa.begin(), pa.end(), pb.begin())) return any();
      std::vector<TypeId> ps(pa.begin(), pa.end());
      return fn(ps, lub(fn_result(a), fn_result(b)));
    }
    default:
      return any();
  }
}

bool TypeStore::unify(TypeId pattern, TypeId actual, std::vector<TypeId>& bindings) {
  TypeKind kp = kind(pattern);
  if (kp == TypeKind::Var) {
    uint32_t n = payload(pattern);
    if (bindings.size() <= n) bindings.resize(n + 1);
    if (!bindings[n].valid() || kind(bindings[n]) == TypeKind::Never)
      bindings[n] = actual;
    else if (kind(actual) != TypeKind::Never && kind(actual) != TypeKind::Error)
      bindings[n] = lub(bindings[n], actual);
    return true;
  }
  if (!has_vars(pattern)) return compatible(actual, pattern);
  TypeKind ka = kind(actual);
  if (ka == TypeKind::Any || ka == TypeKind::Error || ka == TypeKind::Never) return true;
  if (kp == TypeKind::Nullable) {
    if (ka == TypeKind::Null) return true;
    return unify(args(pattern)[0], non_null(actual), bindings);
  }
  if (kp != ka) return false;
  auto ap = args(pattern), aa = args(actual);
  if (ap.size() != aa.size()) return false;
  for (size_t i = 0; i < ap.size(); ++i)
    if (!unify(ap[i], aa[i], bindings)) return false;
  return true;
}

TypeId TypeStore::substitute(TypeId t, const std::vector<TypeId>& bindings, TypeId unbound) {
  if (kind(t) == TypeKind::Var) {
    uint32_t n = payload(t);
    if (n < bindings.size() && bindings[n].valid()) return bindings[n];
    return unbound.valid() ? unbound : t;  // keep unbound variables
  }
  if (args(t).empty() || !has_vars(t)) return t;
  ArgBuffer a(args(t).begin(), args(t).end());
  for (TypeId& x : a) x = substitute(x, bindings, unbound);
  if (kind(t) == TypeKind::Nullable) return nullable(a[0]);
  return intern(kind(t), payload(t), a);
}

}  // namespace fitz::checker
