// Method calls by name on Any receivers (`x.upper()` where x: Any): the Str, Int, Float, List,
// Map, Range, Bytes and Result methods of spec section 4, the Any methods, and user methods
// through the optional `fitz_call` hook of generated types.
#include <string_view>

#include "any_internal.h"

namespace fitz {

using namespace detail;

namespace {

struct Call {
  const Any& recv;
  std::string_view name;
  const Any* args;
  size_t n;
  SourcePos pos;

  bool is(const char* m, size_t arity) const {
    if (name != m) return false;
    if (n != arity) {
      Buf b;
      b.lit("method ");
      b.append(name.data(), name.size());
      b.lit(" expects ");
      write_uint(b, arity);
      b.append_cstr(arity == 1 ? " argument, received " : " arguments, received ");
      write_uint(b, n);
      runtime_error(pos, b.take());
    }
    return true;
  }
  template <class T> T arg(size_t i) const { return from_any<T>(args[i], pos); }
  const Any& raw(size_t i) const { return args[i]; }

  // Callbacks wrapping the Any function argument `i`.
  auto fn1(size_t i) const {
    return [f = args[i], p = pos](const Any& x) { return any_call(f, {x}, p); };
  }
  auto fn2(size_t i) const {
    return [f = args[i], p = pos](const Any& a, const Any& b) { return any_call(f, {a, b}, p); };
  }
  auto pred(size_t i) const {
    return [f = args[i], p = pos](const Any& x) { return from_any<bool>(any_call(f, {x}, p), p); };
  }
};

bool str_method(const Str& s, const Call& c, Any* out) {
  if (c.is("len", 0)) return *out = Any(s.len()), true;
  if (c.is("is_empty", 0)) return *out = Any(s.is_empty()), true;
  if (c.is("upper", 0)) return *out = Any(s.upper()), true;
  if (c.is("lower", 0)) return *out = Any(s.lower()), true;
  if (c.is("swap_case", 0)) return *out = Any(s.swap_case()), true;
  if (c.is("title", 0)) return *out = Any(s.title()), true;
  if (c.is("trim", 0)) return *out = Any(s.trim()), true;
  if (c.is("trim_start", 0)) return *out = Any(s.trim_start()), true;
  if (c.is("trim_end", 0)) return *out = Any(s.trim_end()), true;
  if (c.is("contains", 1)) return *out = Any(s.contains(c.arg<Str>(0))), true;
  if (c.is("starts_with", 1)) return *out = Any(s.starts_with(c.arg<Str>(0))), true;
  if (c.is("ends_with", 1)) return *out = Any(s.ends_with(c.arg<Str>(0))), true;
  if (c.is("split", 1)) return *out = to_any(s.split(c.arg<Str>(0))), true;
  if (c.is("chars", 0)) return *out = to_any(s.chars()), true;
  if (c.is("lines", 0)) return *out = to_any(s.lines()), true;
  if (c.is("split_whitespace", 0)) return *out = to_any(s.split_whitespace()), true;
  if (c.is("is_alpha", 0)) return *out = Any(s.is_alpha()), true;
  if (c.is("is_digit", 0)) return *out = Any(s.is_digit()), true;
  if (c.is("is_numeric", 0)) return *out = Any(s.is_numeric()), true;
  if (c.is("to_int", 0)) return *out = to_any(s.to_int()), true;
  if (c.is("to_float", 0)) return *out = to_any(s.to_float()), true;
  if (c.is("replace", 2)) return *out = Any(s.replace(c.arg<Str>(0), c.arg<Str>(1))), true;
  if (c.is("repeat", 1)) return *out = Any(s.repeat(c.arg<int64_t>(0))), true;
  if (c.is("repeat_with", 2)) return *out = Any(s.repeat_with(c.arg<int64_t>(0), c.arg<Str>(1))), true;
  if (c.is("left", 1)) return *out = Any(s.left(c.arg<int64_t>(0))), true;
  if (c.is("right", 1)) return *out = Any(s.right(c.arg<int64_t>(0))), true;
  if (c.is("center", 2)) return *out = Any(s.center(c.arg<int64_t>(0), c.arg<Str>(1))), true;
  if (c.is("pad_start", 2)) return *out = Any(s.pad_start(c.arg<int64_t>(0), c.arg<Str>(1))), true;
  if (c.is("pad_end", 2)) return *out = Any(s.pad_end(c.arg<int64_t>(0), c.arg<Str>(1))), true;
  if (c.is("split_at", 1)) return *out = to_any(s.split_at(c.arg<int64_t>(0))), true;
  if (c.is("find", 1)) return *out = to_any(s.find(c.arg<Str>(0))), true;
  if (c.is("index_of", 1)) return *out = to_any(s.index_of(c.arg<Str>(0))), true;
  if (c.is("last_index_of", 1)) return *out = to_any(s.last_index_of(c.arg<Str>(0))), true;
  if (c.is("join", 1)) return *out = Any(s.join(c.arg<List<Str>>(0))), true;
  return false;
}

// The receiver as a List<Any>: the list itself when it already is one (so mutation shows),
// else a snapshot of its elements.
List<Any> as_any_list(const Any& recv, SourcePos pos) {
  if (auto* b = box_of<ListBox<Any>>(recv)) return b->v;
  AnyObj* o = recv.obj();
  List<Any> l = List<Any>::with_capacity(o->len());
  for (int64_t i = 0, n = o->len(); i < n; ++i) l.vec().push_back(o->get(i, pos));
  return l;
}

Any sum_of(const List<Any>& l, bool product, SourcePos pos) {
  Any acc(int64_t(product ? 1 : 0));
  for (const Any& x : l.vec()) acc = product ? op::mul(acc, x, pos) : op::add(acc, x, pos);
  return acc;
}

bool list_method(const Any& recv, const Call& c, Any* out) {
  AnyObj* o = recv.obj();
  SourcePos pos = c.pos;
  // Mutating methods go through the box so typed lists stay typed.
  if (c.is("push", 1)) return o->push(c.raw(0), pos), *out = Any(), true;
  if (c.is("pop", 0)) return *out = o->pop(pos), true;
  if (c.name == "sort" || c.name == "sort_by" || c.name == "reverse") {
    List<Any> l = as_any_list(recv, pos);
    if (c.is("sort", 0)) l.sort();
    if (c.is("sort_by", 1)) l.sort_by([f = c.fn2(0), pos](const Any& a, const Any& b) { return from_any<int64_t>(f(a, b), pos); });
    if (c.name == "reverse" && c.is("reverse", 0)) l.reverse();
    if (!box_of<ListBox<Any>>(recv)) o->assign(l.vec(), pos);
    *out = Any();
    return true;
  }
  if (c.is("len", 0)) return *out = Any(o->len()), true;
  if (c.is("is_empty", 0)) return *out = Any(o->len() == 0), true;
  List<Any> l = as_any_list(recv, pos);
  if (c.is("contains", 1)) return *out = Any(l.contains(c.raw(0))), true;
  if (c.is("map", 1)) return *out = to_any(l.map(c.fn1(0))), true;
  if (c.is("filter", 1)) return *out = to_any(l.filter(c.pred(0))), true;
  if (c.is("find", 1)) return *out = to_any(l.find(c.pred(0))), true;
  if (c.is("find_index", 1)) return *out = to_any(l.find_index(c.pred(0))), true;
  if (c.is("any", 1)) return *out = Any(l.any(c.pred(0))), true;
  if (c.is("all", 1)) return *out = Any(l.all(c.pred(0))), true;
  if (c.is("count", 1)) return *out = Any(l.count(c.pred(0))), true;
  if (c.is("first", 0)) return *out = to_any(l.first()), true;
  if (c.is("last", 0)) return *out = to_any(l.last()), true;
  if (c.is("min", 0)) return *out = to_any(l.min()), true;
  if (c.is("max", 0)) return *out = to_any(l.max()), true;
  if (c.is("min_by", 1)) return *out = to_any(l.min_by(c.fn1(0))), true;
  if (c.is("max_by", 1)) return *out = to_any(l.max_by(c.fn1(0))), true;
  if (c.is("sum", 0)) return *out = sum_of(l, false, pos), true;
  if (c.is("product", 0)) return *out = sum_of(l, true, pos), true;
  if (c.is("reduce", 2)) return *out = l.reduce(c.raw(0), c.fn2(1)), true;
  if (c.is("scan", 2)) return *out = to_any(l.scan(c.raw(0), c.fn2(1))), true;
  if (c.is("flat_map", 1)) {
    List<Any> r;
    auto f = c.fn1(0);
    for (const Any& x : l.vec())
      for (const Any& y : any_iter(f(x), pos).vec()) r.vec().push_back(y);
    return *out = to_any(r), true;
  }
  if (c.is("take", 1)) return *out = to_any(l.take(c.arg<int64_t>(0))), true;
  if (c.is("drop", 1)) return *out = to_any(l.drop(c.arg<int64_t>(0))), true;
  if (c.is("cycle", 1)) return *out = to_any(l.cycle(c.arg<int64_t>(0))), true;
  if (c.is("init", 0)) return *out = to_any(l.init()), true;
  if (c.is("tail", 0)) return *out = to_any(l.tail()), true;
  if (c.is("unique", 0)) return *out = to_any(l.unique()), true;
  if (c.is("enumerate", 0)) return *out = to_any(l.enumerate()), true;
  if (c.is("zip", 1)) return *out = to_any(l.zip(c.arg<List<Any>>(0))), true;
  if (c.is("zip_with", 2)) return *out = to_any(l.zip_with(c.arg<List<Any>>(0), c.fn2(1))), true;
  if (c.is("chain", 1)) return *out = to_any(l.chain(c.arg<List<Any>>(0))), true;
  if (c.is("intersperse", 1)) return *out = to_any(l.intersperse(c.raw(0))), true;
  if (c.is("partition", 1)) return *out = to_any(l.partition(c.pred(0))), true;
  if (c.is("group_by", 1)) return *out = to_any(l.group_by(c.fn1(0))), true;
  if (c.is("windows", 1)) return *out = to_any(l.windows(c.arg<int64_t>(0))), true;
  if (c.is("split_at", 1)) return *out = to_any(l.split_at(c.arg<int64_t>(0))), true;
  if (c.is("starts_with", 1)) return *out = Any(l.starts_with(c.arg<List<Any>>(0))), true;
  if (c.is("ends_with", 1)) return *out = Any(l.ends_with(c.arg<List<Any>>(0))), true;
  if (c.is("insert_at", 2)) return *out = to_any(l.insert_at(c.arg<int64_t>(0), c.raw(1))), true;
  if (c.is("remove_at", 1)) return *out = to_any(l.remove_at(c.arg<int64_t>(0))), true;
  if (c.is("zip_to_map", 1)) return *out = to_any(l.zip_to_map(c.arg<List<Any>>(0))), true;
  if (c.is("flatten", 0)) {
    List<Any> r;
    for (const Any& x : l.vec())
      for (const Any& y : any_iter(x, pos).vec()) r.vec().push_back(y);
    return *out = to_any(r), true;
  }
  if (c.is("to_map", 0)) {
    Map<Any, Any> m;
    for (const Any& x : l.vec()) {
      if (!x.is_kind(ObjKind::Tuple) || x.obj()->len() != 2) runtime_error(pos, "to_map() expects a list of pairs");
      m.set(x.obj()->get(0, pos), x.obj()->get(1, pos));
    }
    return *out = to_any(m), true;
  }
  if (c.is("join", 1)) return *out = Any(c.arg<Str>(0).join(from_any<List<Str>>(recv, pos))), true;
  return false;
}

Map<Any, Any> as_any_map(const Any& recv) {
  if (auto* b = box_of<MapBox<Any, Any>>(recv)) return b->v;
  AnyObj* o = recv.obj();
  Map<Any, Any> m;
  for (int64_t i = 0, n = o->len(); i < n; ++i) m.set(o->key_at(i), o->value_at(i));
  return m;
}

bool map_method(const Any& recv, const Call& c, Any* out) {
  AnyObj* o = recv.obj();
  if (c.is("len", 0)) return *out = Any(o->len()), true;
  if (c.is("is_empty", 0)) return *out = Any(o->len() == 0), true;
  if (c.is("get", 1)) {
    Any v;
    if (o->map_get(c.raw(0), &v)) return *out = to_any(Result<Any, Str>::ok(v)), true;
    return *out = to_any(Result<Any, Str>::err(key_not_found_msg())), true;
  }
  if (c.is("has", 1)) {
    Any v;
    return *out = Any(o->map_get(c.raw(0), &v)), true;
  }
  if (c.is("remove", 1)) {
    auto* b = box_of<MapBox<Any, Any>>(recv);
    if (!b) runtime_error(c.pos, "remove() needs a Map<Any, Any>");
    return *out = Any(b->v.remove(c.raw(0))), true;
  }
  Map<Any, Any> m = as_any_map(recv);
  if (c.is("keys", 0)) return *out = to_any(m.keys()), true;
  if (c.is("keys_sorted", 0)) return *out = to_any(m.keys_sorted()), true;
  if (c.is("values", 0)) return *out = to_any(m.values()), true;
  if (c.is("entries", 0)) return *out = to_any(m.entries()), true;
  if (c.is("has_value", 1)) return *out = Any(m.has_value(c.raw(0))), true;
  if (c.is("invert", 0)) return *out = to_any(m.invert()), true;
  if (c.is("with", 2)) return *out = to_any(m.with(c.raw(0), c.raw(1))), true;
  if (c.is("merge", 1)) return *out = to_any(m.merge(c.arg<Map<Any, Any>>(0))), true;
  if (c.is("merge_with", 2)) return *out = to_any(m.merge_with(c.arg<Map<Any, Any>>(0), c.fn2(1))), true;
  if (c.is("filter", 1)) {
    auto f = c.fn2(0);
    SourcePos pos = c.pos;
    return *out = to_any(m.filter([&](const Any& k, const Any& v) { return from_any<bool>(f(k, v), pos); })), true;
  }
  if (c.is("update", 2)) return *out = to_any(m.update(c.raw(0), c.fn1(1))), true;
  if (c.is("map_values", 1)) return *out = to_any(m.map_values(c.fn1(0))), true;
  return false;
}

bool range_method(const Range& r, const Call& c, Any* out) {
  if (c.is("len", 0)) return *out = Any(r.len()), true;
  if (c.is("is_empty", 0)) return *out = Any(r.is_empty()), true;
  if (c.is("contains", 1)) return *out = Any(r.contains(c.arg<int64_t>(0))), true;
  if (c.is("to_list", 0)) return *out = to_any(r.to_list()), true;
  if (c.is("enumerate", 0)) return *out = to_any(r.enumerate()), true;
  if (c.is("zip", 1)) return *out = to_any(r.zip(c.arg<List<Any>>(0))), true;
  if (c.is("chain", 1)) return *out = to_any(r.chain(c.arg<List<int64_t>>(0))), true;
  if (c.is("step_by", 1)) return *out = to_any(r.step_by(c.arg<int64_t>(0), c.pos)), true;
  return false;
}

}  // namespace

Any any_method_n(const Any& recv, const char* name, const Any* args, size_t n, SourcePos pos) {
  Call c{recv, name, args, n, pos};
  Any out;
  if (c.is("type_name", 0)) return Any(recv.type_name());
  if (c.is("as_int", 0)) return to_any(recv.as_int());
  if (c.is("as_float", 0)) return to_any(recv.as_float());
  if (c.is("as_str", 0)) return to_any(recv.as_str());
  if (c.is("as_bool", 0)) return to_any(recv.as_bool());
  if (c.is("as_bytes", 0)) return to_any(recv.as_bytes());
  if (c.name == "to_str" && !recv.is_kind(ObjKind::Bytes) && c.is("to_str", 0)) return Any(to_str(recv));
  switch (recv.tag()) {
    case Any::Tag::Str:
      if (str_method(recv.str_value(), c, &out)) return out;
      break;
    case Any::Tag::Int:
      if (c.is("abs", 0)) return Any(abs(recv.int_value(), pos));
      if (c.is("to_str_base", 1)) return Any(int_to_str_base(recv.int_value(), c.arg<int64_t>(0), pos));
      break;
    case Any::Tag::Float:
      if (c.is("abs", 0)) return Any(float_abs(recv.float_value()));
      if (c.is("is_nan", 0)) return Any(float_is_nan(recv.float_value()));
      if (c.is("is_finite", 0)) return Any(float_is_finite(recv.float_value()));
      break;
    case Any::Tag::Obj: {
      AnyObj* o = recv.obj();
      switch (o->kind()) {
        case ObjKind::List:
          if (list_method(recv, c, &out)) return out;
          break;
        case ObjKind::Map:
          if (map_method(recv, c, &out)) return out;
          break;
        case ObjKind::Range:
          if (range_method(box_of<RangeBox>(recv)->v, c, &out)) return out;
          break;
        case ObjKind::Bytes: {
          const Bytes& b = box_of<BytesBox>(recv)->v;
          if (c.is("len", 0)) return Any(b.len());
          if (c.is("is_empty", 0)) return Any(b.is_empty());
          if (c.is("to_str", 0)) return to_any(b.to_str());
          break;
        }
        case ObjKind::Result:
          if (c.is("is_ok", 0)) return Any(o->is_ok());
          if (c.is("is_err", 0)) return Any(!o->is_ok());
          break;
        case ObjKind::Tuple:
          if (c.is("len", 0)) return Any(o->len());
          break;
        case ObjKind::Struct:
          if (o->call_method(name, args, n, pos, &out)) return out;
          break;
        default: break;
      }
      break;
    }
    default: break;
  }
  Buf m;
  m.lit("type ");
  Str t = recv.type_name();
  m.append(t.data(), t.size());
  m.lit(" does not have method ");
  m.append_cstr(name);
  runtime_error(pos, m.take());
}

}  // namespace fitz
