// `to_json(x)` and the byte decoders `bytes_from_b64` / `bytes_from_hex`. to_json writes what the
// HTTP layer would answer for the same value (maps in insertion order, user types field by field
// with @hidden ones left out, dates and uuids as strings) without linking the HTTP runtime.
#include <cmath>
#include <string>

#include "fitz/runtime.h"

namespace fitz {

namespace {

using detail::AnyObj;
using detail::ObjKind;

void json_string(Buf& b, const char* p, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  b.push('"');
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    switch (c) {
      case '"': b.lit("\\\""); break;
      case '\\': b.lit("\\\\"); break;
      case '\n': b.lit("\\n"); break;
      case '\r': b.lit("\\r"); break;
      case '\t': b.lit("\\t"); break;
      default:
        if (c < 0x20) {
          b.lit("\\u00");
          b.push(kHex[c >> 4]);
          b.push(kHex[c & 15]);
        } else {
          b.push(char(c));
        }
    }
  }
  b.push('"');
}

void json_value(Buf& b, const Any& v, int depth);

struct JsonFields final : detail::FieldVisitor {
  Buf& b;
  int depth;
  bool first = true;
  JsonFields(Buf& out, int d) : b(out), depth(d) {}
  void field(const char* name, const Any& value) override {
    if (!first) b.push(',');
    first = false;
    json_string(b, name, __builtin_strlen(name));
    b.push(':');
    json_value(b, value, depth + 1);
  }
};

void json_value(Buf& b, const Any& v, int depth) {
  if (depth > 512) runtime_error(SourcePos{}, Str::lit("to_json: the value is nested too deeply (a cycle?)"));
  switch (v.tag()) {
    case Any::Tag::Null: b.lit("null"); return;
    case Any::Tag::Bool: v.bool_value() ? b.lit("true") : b.lit("false"); return;
    case Any::Tag::Int: detail::write_int(b, v.int_value()); return;
    case Any::Tag::Float:
      if (std::isfinite(v.float_value()))
        detail::write_float(b, v.float_value());
      else
        b.lit("null");  // JSON has no NaN or infinity
      return;
    case Any::Tag::Str: json_string(b, v.str_value().data(), v.str_value().size()); return;
    case Any::Tag::Obj: break;
  }
  AnyObj* o = v.obj();
  if (o->kind() == ObjKind::List || o->kind() == ObjKind::Tuple) {
    b.push('[');
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      if (i) b.push(',');
      json_value(b, o->get(i, {}), depth + 1);
    }
    b.push(']');
    return;
  }
  if (o->kind() == ObjKind::Map) {
    b.push('{');
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      if (i) b.push(',');
      Str k = to_str(o->key_at(i));
      json_string(b, k.data(), k.size());
      b.push(':');
      json_value(b, o->value_at(i), depth + 1);
    }
    b.push('}');
    return;
  }
  if (o->kind() == ObjKind::Struct) {
    size_t mark = b.size();
    b.push('{');
    JsonFields f(b, depth);
    if (o->visit_fields(f)) {
      b.push('}');
      return;
    }
    b.truncate(mark);  // not a user type instance
  }
  // Dates, uuids, bytes, secrets (***) and other boxes: their display form as a string.
  Buf shown;
  o->show(shown, false);
  Str s = shown.take();
  json_string(b, s.data(), s.size());
}

int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Str to_json_text(const Any& value) {
  Buf b;
  json_value(b, value, 0);
  return b.take();
}

// Standard or URL alphabet, padding optional; anything else (whitespace included) is an Err.
Result<Bytes, Str> bytes_from_b64(const Str& text) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  size_t n = text.size();
  while (n > 0 && text.data()[n - 1] == '=') --n;
  if (text.size() - n > 2) return Err(Str::lit("bytes_from_b64: invalid base64 (too much padding)"));
  for (size_t i = 0; i < n; ++i) {
    int v = b64_value(text.data()[i]);
    if (v < 0)
      return Err(Str::from("bytes_from_b64: invalid base64 character at position " + std::to_string(i)));
    acc = (acc << 6) | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(char((acc >> bits) & 0xff));
    }
  }
  if (bits >= 6) return Err(Str::lit("bytes_from_b64: invalid base64 length"));
  return Ok(Bytes(out.data(), out.size()));
}

Result<Bytes, Str> bytes_from_hex(const Str& text) {
  if (text.size() % 2 != 0) return Err(Str::lit("bytes_from_hex: odd number of hex digits"));
  std::string out;
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = hex_digit(text.data()[i]), lo = hex_digit(text.data()[i + 1]);
    if (hi < 0 || lo < 0) return Err(Str::from("bytes_from_hex: invalid hex digit at position " + std::to_string(hi < 0 ? i : i + 1)));
    out.push_back(char(hi << 4 | lo));
  }
  return Ok(Bytes(out.data(), out.size()));
}

}  // namespace fitz
