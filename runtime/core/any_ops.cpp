// Dynamic operations on Any: arithmetic, indexing, fields, calls, iteration, await, and the
// math built-ins for Any operands. Method calls by name live in any_methods.cpp.
#include "any_internal.h"

namespace fitz {

namespace detail {

void DynTupleBox::show(Buf& b, bool) const {
  b.push('(');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) b.lit(", ");
    any_show(b, items[i], true);
  }
  if (items.size() == 1) b.push(',');
  b.push(')');
}
void DynTupleBox::type_name(Buf& b) const {
  b.push('(');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) b.lit(", ");
    Str t = items[i].type_name();
    b.append(t.data(), t.size());
  }
  if (items.size() == 1) b.push(',');
  b.push(')');
}

[[noreturn]] void op_error(const char* op, const Any& a, const Any* b, SourcePos pos) {
  Buf m;
  m.lit("operator ");
  m.append_cstr(op);
  m.lit(" does not accept ");
  Str ta = a.type_name();
  m.append(ta.data(), ta.size());
  if (b) {
    m.lit(" and ");
    Str tb = b->type_name();
    m.append(tb.data(), tb.size());
  }
  runtime_error(pos, m.take());
}

bool is_num(const Any& a) { return a.is_int() || a.is_float(); }
double num(const Any& a) { return a.is_int() ? double(a.int_value()) : a.float_value(); }

int64_t norm(const Any& recv, const Any& index, int64_t len, SourcePos pos, const char* what) {
  if (!index.is_int()) {
    Buf m;
    m.lit("index of a ");
    m.append_cstr(what);
    m.lit(" must be Int, received ");
    Str t = index.type_name();
    m.append(t.data(), t.size());
    runtime_error(pos, m.take());
  }
  (void)recv;
  return int64_t(norm_index(index.int_value(), size_t(len), pos, what));
}

}  // namespace detail

using namespace detail;

// ---- arithmetic ----

namespace op {

Any add(const Any& a, const Any& b, SourcePos pos) {
  if (a.is_int() && b.is_int()) return Any(add(a.int_value(), b.int_value(), pos));
  if (is_num(a) && is_num(b)) return Any(num(a) + num(b));
  if (a.is_str() && b.is_str()) return Any(a.str_value() + b.str_value());
  op_error("+", a, &b, pos);
}
Any sub(const Any& a, const Any& b, SourcePos pos) {
  if (a.is_int() && b.is_int()) return Any(sub(a.int_value(), b.int_value(), pos));
  if (is_num(a) && is_num(b)) return Any(num(a) - num(b));
  op_error("-", a, &b, pos);
}
Any mul(const Any& a, const Any& b, SourcePos pos) {
  if (a.is_int() && b.is_int()) return Any(mul(a.int_value(), b.int_value(), pos));
  if (is_num(a) && is_num(b)) return Any(num(a) * num(b));
  op_error("*", a, &b, pos);
}
Any div(const Any& a, const Any& b, SourcePos pos) {
  if (a.is_int() && b.is_int()) return Any(div(a.int_value(), b.int_value(), pos));
  if (is_num(a) && is_num(b)) return Any(div(num(a), num(b), pos));
  op_error("/", a, &b, pos);
}
Any mod(const Any& a, const Any& b, SourcePos pos) {
  if (a.is_int() && b.is_int()) return Any(mod(a.int_value(), b.int_value(), pos));
  op_error("%", a, &b, pos);
}
Any neg(const Any& a, SourcePos pos) {
  if (a.is_int()) return Any(neg(a.int_value(), pos));
  if (a.is_float()) return Any(-a.float_value());
  op_error("-", a, nullptr, pos);
}
bool lt(const Any& a, const Any& b, SourcePos pos) { return any_cmp(a, b, pos) < 0; }
bool le(const Any& a, const Any& b, SourcePos pos) { return any_cmp(a, b, pos) <= 0; }
bool gt(const Any& a, const Any& b, SourcePos pos) { return any_cmp(a, b, pos) > 0; }
bool ge(const Any& a, const Any& b, SourcePos pos) { return any_cmp(a, b, pos) >= 0; }

}  // namespace op

// ---- containers ----

int64_t any_len(const Any& a, SourcePos pos) {
  if (a.is_str()) return a.str_value().len();
  if (a.is_obj()) return a.obj()->len();
  op_error("len()", a, nullptr, pos);
}

Any any_index(const Any& recv, const Any& index, SourcePos pos) {
  if (recv.is_str()) return Any(recv.str_value().at(norm(recv, index, recv.str_value().len(), pos, "string"), pos));
  if (recv.is_obj()) {
    AnyObj* o = recv.obj();
    switch (o->kind()) {
      case ObjKind::List: return o->get(norm(recv, index, o->len(), pos, "list"), pos);
      case ObjKind::Tuple: return o->get(norm(recv, index, o->len(), pos, "tuple"), pos);
      case ObjKind::Bytes: return o->get(norm(recv, index, o->len(), pos, "bytes"), pos);
      case ObjKind::Map: {
        Any v;
        if (!o->map_get(index, &v)) {
          Buf k;
          any_show(k, index, true);
          missing_key_error(pos, k);
        }
        return v;
      }
      default: break;
    }
  }
  op_error("[]", recv, &index, pos);
}

Null any_set_index(const Any& recv, const Any& index, const Any& value, SourcePos pos) {
  if (recv.is_kind(ObjKind::List)) {
    AnyObj* o = recv.obj();
    o->set(norm(recv, index, o->len(), pos, "list"), value, pos);
    return {};
  }
  if (recv.is_kind(ObjKind::Map)) {
    recv.obj()->map_set(index, value, pos);
    return {};
  }
  op_error("[]=", recv, &index, pos);
}

Any any_slice(const Any& recv, int64_t start, int64_t end, bool inclusive, SourcePos pos) {
  if (recv.is_str()) return Any(recv.str_value().slice(start, end, inclusive));
  if (recv.is_kind(ObjKind::List)) {
    AnyObj* o = recv.obj();
    size_t lo, hi;
    slice_bounds(start, end, inclusive, size_t(o->len()), &lo, &hi);
    List<Any> out = List<Any>::with_capacity(int64_t(hi - lo));
    for (size_t i = lo; i < hi; ++i) out.vec().push_back(o->get(int64_t(i), pos));
    return to_any(out);
  }
  if (auto* b = box_of<BytesBox>(recv)) return to_any(b->v.slice(start, end, inclusive));
  op_error("[..]", recv, nullptr, pos);
}

Any any_field(const Any& recv, const char* name, SourcePos pos) {
  Any out;
  if (recv.is_obj() && recv.obj()->get_field(name, &out)) return out;
  Buf m;
  m.lit("type ");
  Str t = recv.type_name();
  m.append(t.data(), t.size());
  m.lit(" does not have a field named ");
  m.append_cstr(name);
  runtime_error(pos, m.take());
}

Null any_set_field(const Any& recv, const char* name, const Any& value, SourcePos pos) {
  if (recv.is_obj() && recv.obj()->set_field(name, value, pos)) return {};
  Buf m;
  m.lit("type ");
  Str t = recv.type_name();
  m.append(t.data(), t.size());
  m.lit(" does not have a field named ");
  m.append_cstr(name);
  runtime_error(pos, m.take());
}

Any any_call_n(const Any& fn, const Any* args, size_t n, SourcePos pos) {
  if (fn.is_kind(ObjKind::Fn)) return fn.obj()->call(args, n, pos);
  Buf m;
  Str t = fn.type_name();
  m.append(t.data(), t.size());
  m.lit(" is not a function");
  runtime_error(pos, m.take());
}

Any any_call(const Any& fn, std::initializer_list<Any> args, SourcePos pos) {
  return any_call_n(fn, args.begin(), args.size(), pos);
}

Any any_method(const Any& recv, const char* name, std::initializer_list<Any> args, SourcePos pos) {
  return any_method_n(recv, name, args.begin(), args.size(), pos);
}

List<Any> any_iter(const Any& a, SourcePos pos) {
  if (a.is_str()) {
    List<Str> cs = a.str_value().chars();
    List<Any> out = List<Any>::with_capacity(cs.len());
    for (const Str& c : cs.vec()) out.vec().push_back(Any(c));
    return out;
  }
  if (a.is_obj()) {
    AnyObj* o = a.obj();
    switch (o->kind()) {
      case ObjKind::List:
        if (auto* b = box_of<ListBox<Any>>(a)) return b->v;
        [[fallthrough]];
      case ObjKind::Tuple:
      case ObjKind::Range:
      case ObjKind::Bytes: {
        int64_t n = o->len();
        List<Any> out = List<Any>::with_capacity(n);
        for (int64_t i = 0; i < n; ++i) out.vec().push_back(o->get(i, pos));
        return out;
      }
      case ObjKind::Map: {
        int64_t n = o->len();
        List<Any> out = List<Any>::with_capacity(n);
        for (int64_t i = 0; i < n; ++i) out.vec().push_back(any_tuple({o->key_at(i), o->value_at(i)}));
        return out;
      }
      default: break;
    }
  }
  Buf m;
  m.lit("the for iterable must be List, Range, Map or Str, received ");
  Str t = a.type_name();
  m.append(t.data(), t.size());
  runtime_error(pos, m.take());
}

Task<Any> any_await(const Any& a, SourcePos pos) {
  if (a.is_kind(ObjKind::Task)) return a.obj()->await_any();
  Buf m;
  m.lit(".await only applies to futures, received ");
  Str t = a.type_name();
  m.append(t.data(), t.size());
  runtime_error(pos, m.take());
}

Any any_list(std::initializer_list<Any> items) { return to_any(List<Any>(items)); }

Any any_tuple(std::initializer_list<Any> items) {
  auto* t = new DynTupleBox();
  t->items.assign(items.begin(), items.end());
  return Any(t);
}

// ---- math on Any ----

namespace {
[[noreturn]] void math_error(const char* fn, const Any& a, SourcePos pos) {
  Buf m;
  m.append_cstr(fn);
  m.lit("() expects Int or Float, received ");
  Str t = a.type_name();
  m.append(t.data(), t.size());
  runtime_error(pos, m.take());
}
}  // namespace

Any abs(const Any& v, SourcePos pos) {
  if (v.is_int()) return Any(abs(v.int_value(), pos));
  if (v.is_float()) return Any(__builtin_fabs(v.float_value()));
  math_error("abs", v, pos);
}
Any min(const Any& a, const Any& b, SourcePos pos) {
  if (!is_num(a)) math_error("min", a, pos);
  if (!is_num(b)) math_error("min", b, pos);
  if (a.is_int() && b.is_int()) return Any(min(a.int_value(), b.int_value()));
  return Any(min(num(a), num(b)));
}
Any max(const Any& a, const Any& b, SourcePos pos) {
  if (!is_num(a)) math_error("max", a, pos);
  if (!is_num(b)) math_error("max", b, pos);
  if (a.is_int() && b.is_int()) return Any(max(a.int_value(), b.int_value()));
  return Any(max(num(a), num(b)));
}
Any pow(const Any& a, const Any& b, SourcePos pos) {
  if (!is_num(a)) math_error("pow", a, pos);
  if (!is_num(b)) math_error("pow", b, pos);
  return Any(pow(num(a), num(b)));
}
Any sqrt(const Any& v, SourcePos pos) {
  if (!is_num(v)) math_error("sqrt", v, pos);
  return Any(sqrt(num(v)));
}
Any ceil(const Any& v, SourcePos pos) {
  if (!is_num(v)) math_error("ceil", v, pos);
  return v.is_int() ? v : Any(ceil(v.float_value(), pos));
}
Any floor(const Any& v, SourcePos pos) {
  if (!is_num(v)) math_error("floor", v, pos);
  return v.is_int() ? v : Any(floor(v.float_value(), pos));
}
Any round(const Any& v, SourcePos pos) {
  if (!is_num(v)) math_error("round", v, pos);
  return v.is_int() ? v : Any(round(v.float_value(), pos));
}
Any clamp(const Any& x, const Any& lo, const Any& hi, SourcePos pos) {
  if (!is_num(x)) math_error("clamp", x, pos);
  if (!is_num(lo)) math_error("clamp", lo, pos);
  if (!is_num(hi)) math_error("clamp", hi, pos);
  if (x.is_int() && lo.is_int() && hi.is_int()) return Any(clamp(x.int_value(), lo.int_value(), hi.int_value()));
  return Any(clamp(num(x), num(lo), num(hi)));
}

}  // namespace fitz
