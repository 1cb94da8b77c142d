// Any: box defaults, the Range and Bytes boxes, Any's own methods (as_int, type_name, ...),
// and dynamic display, equality, hashing and ordering.
#include "fitz/runtime.h"

namespace fitz {

namespace detail {

namespace {
[[noreturn]] void unsupported(const AnyObj& o, const char* what, SourcePos pos = {}) {
  Buf b;
  b.lit("value of type ");
  o.type_name(b);
  b.lit(" does not support ");
  b.append_cstr(what);
  runtime_error(pos, b.take());
}
}  // namespace

AnyObj::~AnyObj() = default;
bool AnyObj::equals(const AnyObj& o) const { return &o == this; }
uint64_t AnyObj::hash() const { return mix64(uint64_t(reinterpret_cast<uintptr_t>(this))); }
int64_t AnyObj::len() const { unsupported(*this, "len()"); }
Any AnyObj::get(int64_t, SourcePos pos) const { unsupported(*this, "indexing", pos); }
void AnyObj::set(int64_t, const Any&, SourcePos pos) { unsupported(*this, "index assignment", pos); }
void AnyObj::push(const Any&, SourcePos pos) { unsupported(*this, "push", pos); }
Any AnyObj::pop(SourcePos pos) { unsupported(*this, "pop", pos); }
void AnyObj::assign(const std::vector<Any>&, SourcePos pos) { unsupported(*this, "reordering", pos); }
bool AnyObj::map_get(const Any&, Any*) const { unsupported(*this, "key lookup"); }
void AnyObj::map_set(const Any&, const Any&, SourcePos pos) { unsupported(*this, "key assignment", pos); }
Any AnyObj::key_at(int64_t) const { unsupported(*this, "keys"); }
Any AnyObj::value_at(int64_t) const { unsupported(*this, "values"); }
bool AnyObj::is_ok() const { unsupported(*this, "Ok/Err"); }
Any AnyObj::inner() const { unsupported(*this, "Ok/Err"); }
Any AnyObj::call(const Any*, size_t, SourcePos pos) const { unsupported(*this, "calls", pos); }
bool AnyObj::get_field(const char*, Any*) const { return false; }
bool AnyObj::set_field(const char*, const Any&, SourcePos) { return false; }
bool AnyObj::call_method(const char*, const Any*, size_t, SourcePos, Any*) { return false; }
bool AnyObj::visit_fields(FieldVisitor&) const { return false; }
Task<Any> AnyObj::await_any() const { unsupported(*this, ".await"); }

void RangeBox::show(Buf& b, bool q) const { Show<Range>::write(b, v, q); }
void RangeBox::type_name(Buf& b) const { b.lit("Range"); }
bool RangeBox::equals(const AnyObj& o) const { return Eq<Range, Range>::eq(v, static_cast<const RangeBox&>(o).v); }
uint64_t RangeBox::hash() const { return Hash<Range>::hash(v); }
int64_t RangeBox::len() const { return v.len(); }
Any RangeBox::get(int64_t i, SourcePos) const { return Any(v.start + i); }

void BytesBox::show(Buf& b, bool q) const { Show<Bytes>::write(b, v, q); }
void BytesBox::type_name(Buf& b) const { b.lit("Bytes"); }
bool BytesBox::equals(const AnyObj& o) const { return v == static_cast<const BytesBox&>(o).v; }
uint64_t BytesBox::hash() const { return Hash<Bytes>::hash(v); }
int64_t BytesBox::len() const { return v.len(); }
Any BytesBox::get(int64_t i, SourcePos pos) const { return Any(v.at(i, pos)); }

bool list_equals(const AnyObj& a, const AnyObj& b) {
  if (&a == &b) return true;
  int64_t n = a.len();
  if (n != b.len()) return false;
  for (int64_t i = 0; i < n; ++i)
    if (!any_eq(a.get(i, {}), b.get(i, {}))) return false;
  return true;
}

uint64_t list_hash(const AnyObj& a) {
  uint64_t h = 0x11570ULL;
  for (int64_t i = 0, n = a.len(); i < n; ++i) h = hash_combine(h, any_hash(a.get(i, {})));
  return h;
}

bool map_equals(const AnyObj& a, const AnyObj& b) {
  if (&a == &b) return true;
  int64_t n = a.len();
  if (n != b.len()) return false;
  for (int64_t i = 0; i < n; ++i) {
    Any v;
    if (!b.map_get(a.key_at(i), &v) || !any_eq(a.value_at(i), v)) return false;
  }
  return true;
}

uint64_t map_hash(const AnyObj& a) {
  uint64_t h = 0x3A9ULL;
  for (int64_t i = 0, n = a.len(); i < n; ++i)
    h += mix64(any_hash(a.key_at(i)) ^ (any_hash(a.value_at(i)) * 31));
  return h;
}

void any_show(Buf& b, const Any& a, bool quoted) {
  switch (a.tag()) {
    case Any::Tag::Null: b.lit("null"); break;
    case Any::Tag::Bool: Show<bool>::write(b, a.bool_value(), quoted); break;
    case Any::Tag::Int: write_int(b, a.int_value()); break;
    case Any::Tag::Float: write_float(b, a.float_value()); break;
    case Any::Tag::Str: Show<Str>::write(b, a.str_value(), quoted); break;
    case Any::Tag::Obj: a.obj()->show(b, quoted); break;
  }
}

bool any_eq(const Any& a, const Any& b) {
  using T = Any::Tag;
  if (a.tag() != b.tag()) {
    if (a.tag() == T::Int && b.tag() == T::Float) return double(a.int_value()) == b.float_value();
    if (a.tag() == T::Float && b.tag() == T::Int) return a.float_value() == double(b.int_value());
    return false;
  }
  switch (a.tag()) {
    case T::Null: return true;
    case T::Bool: return a.bool_value() == b.bool_value();
    case T::Int: return a.int_value() == b.int_value();
    case T::Float: return a.float_value() == b.float_value();
    case T::Str: return a.str_value() == b.str_value();
    case T::Obj: return a.obj() == b.obj() || (a.obj()->kind() == b.obj()->kind() && a.obj()->equals(*b.obj()));
  }
  return false;
}

uint64_t any_hash(const Any& a) {
  switch (a.tag()) {
    case Any::Tag::Null: return Hash<Null>::hash(Null{});
    case Any::Tag::Bool: return Hash<bool>::hash(a.bool_value());
    case Any::Tag::Int: return hash_int(a.int_value());
    case Any::Tag::Float: return hash_float(a.float_value());
    case Any::Tag::Str: return a.str_value().hash();
    case Any::Tag::Obj: return a.obj()->hash();
  }
  return 0;
}

int any_cmp(const Any& a, const Any& b, SourcePos pos) {
  using T = Any::Tag;
  auto num = [](const Any& x) { return x.tag() == T::Int || x.tag() == T::Float; };
  if (num(a) && num(b)) {
    if (a.tag() == T::Int && b.tag() == T::Int)
      return a.int_value() < b.int_value() ? -1 : (a.int_value() > b.int_value() ? 1 : 0);
    double x = a.tag() == T::Int ? double(a.int_value()) : a.float_value();
    double y = b.tag() == T::Int ? double(b.int_value()) : b.float_value();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.tag() == T::Str && b.tag() == T::Str) return a.str_value().compare(b.str_value());
  if (a.tag() == T::Bool && b.tag() == T::Bool) return int(a.bool_value()) - int(b.bool_value());
  if (a.tag() == T::Obj && b.tag() == T::Obj && a.obj()->kind() == b.obj()->kind() &&
      (a.obj()->kind() == ObjKind::List || a.obj()->kind() == ObjKind::Tuple)) {
    int64_t n = a.obj()->len(), m = b.obj()->len();
    for (int64_t i = 0; i < n && i < m; ++i)
      if (int c = any_cmp(a.obj()->get(i, pos), b.obj()->get(i, pos), pos)) return c;
    return n < m ? -1 : (n > m ? 1 : 0);
  }
  Buf msg;
  msg.lit("comparison between ");
  Str ta = a.type_name(), tb = b.type_name();
  msg.append(ta.data(), ta.size());
  msg.lit(" and ");
  msg.append(tb.data(), tb.size());
  msg.lit(" not supported");
  runtime_error(pos, msg.take());
}

}  // namespace detail

namespace {
Str expected_msg(const char* expected, const Any& a) {
  Buf b;
  b.lit("expected ");
  b.append_cstr(expected);
  b.lit(", found ");
  Str t = a.type_name();
  b.append(t.data(), t.size());
  return b.take();
}
}  // namespace

Result<int64_t, Str> Any::as_int() const {
  if (is_int()) return Ok(i_);
  return Err(expected_msg("Int", *this));
}
Result<double, Str> Any::as_float() const {
  if (is_float()) return Ok(f_);
  if (is_int()) return Ok(double(i_));
  return Err(expected_msg("Float", *this));
}
Result<Str, Str> Any::as_str() const {
  if (is_str()) return Ok(s_);
  return Err(expected_msg("Str", *this));
}
Result<bool, Str> Any::as_bool() const {
  if (is_bool()) return Ok(b_);
  return Err(expected_msg("Bool", *this));
}
Result<Bytes, Str> Any::as_bytes() const {
  if (auto* b = detail::box_of<detail::BytesBox>(*this)) return Ok(b->v);
  return Err(expected_msg("Bytes", *this));
}

Str Any::type_name() const {
  switch (tag_) {
    case Tag::Null: return Str::lit("Null");
    case Tag::Bool: return Str::lit("Bool");
    case Tag::Int: return Str::lit("Int");
    case Tag::Float: return Str::lit("Float");
    case Tag::Str: return Str::lit("Str");
    case Tag::Obj: {
      Buf b;
      o_->type_name(b);
      return b.take();
    }
  }
  return Str();
}

}  // namespace fitz
