// Format specs for interpolation holes (see fitz/format.h for the grammar and the rules).
// Steps: the body for the spec's type, then digit grouping, then the sign, then padding.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "fitz/runtime.h"
#include "str_internal.h"

namespace fitz::detail {

namespace {

struct Spec {
  uint32_t fill = 0;  // 0: not given
  char align = 0;     // '<' '>' '^' '=' or 0
  char sign = 0;      // '+' '-' ' ' or 0
  bool alt = false;
  bool zero = false;
  int64_t width = -1;
  char grouping = 0;  // ',' '_' or 0
  int64_t prec = -1;
  char type = 0;
};

[[noreturn]] void bad_spec(const char* spec, SourcePos pos) {
  Buf b;
  b.lit("invalid format spec `");
  b.append_cstr(spec);
  b.push('`');
  runtime_error(pos, b.take());
}

[[noreturn]] void incompatible(const char* spec, const char* type_name, SourcePos pos) {
  Buf b;
  b.lit("format spec `");
  b.append_cstr(spec);
  b.lit("` is not compatible with type ");
  b.append_cstr(type_name);
  runtime_error(pos, b.take());
}

bool is_align(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

Spec parse(const char* s, SourcePos pos) {
  Spec sp;
  const char* p = s;
  const char* end = s + std::strlen(s);
  if (p < end) {
    const char* q = p;
    uint32_t c = decode_utf8(q, end);
    if (q < end && is_align(*q)) {
      sp.fill = c;
      sp.align = *q;
      p = q + 1;
    } else if (is_align(*p)) {
      sp.align = *p++;
    }
  }
  if (p < end && (*p == '+' || *p == '-' || *p == ' ')) sp.sign = *p++;
  if (p < end && *p == '#') sp.alt = true, ++p;
  if (p < end && *p == '0') sp.zero = true, ++p;
  if (p < end && *p >= '0' && *p <= '9') {
    sp.width = 0;
    while (p < end && *p >= '0' && *p <= '9') {
      sp.width = sp.width * 10 + (*p++ - '0');
      if (sp.width > 100000) bad_spec(s, pos);
    }
  }
  if (p < end && (*p == ',' || *p == '_')) sp.grouping = *p++;
  if (p < end && *p == '.') {
    ++p;
    if (p == end || *p < '0' || *p > '9') bad_spec(s, pos);
    sp.prec = 0;
    while (p < end && *p >= '0' && *p <= '9') {
      sp.prec = sp.prec * 10 + (*p++ - '0');
      if (sp.prec > 1000) bad_spec(s, pos);
    }
  }
  if (p < end && std::strchr("bcdeEfFgGosxX%", *p)) sp.type = *p++;
  if (p != end) bad_spec(s, pos);
  return sp;
}

void upper_ascii(Buf& b, size_t from) {
  char* d = b.data();
  for (size_t i = from; i < b.size(); ++i)
    if (d[i] >= 'a' && d[i] <= 'z') d[i] = char(d[i] - 32);
}

void fixed(Buf& b, double v, int64_t prec) {
  if (std::isnan(v)) {
    b.lit("NaN");
    return;
  }
  if (std::isinf(v)) {
    if (v < 0) b.push('-');
    b.lit("inf");
    return;
  }
  size_t cap = 330 + size_t(prec);
  char* p = b.reserve_tail(cap);
  int n = std::snprintf(p, cap, "%.*f", int(prec), v);
  b.commit(size_t(n));
}

// Exponent form as the first implementation wrote it: `1.500000e3`, `1.00000e-5`.
void exponent(Buf& b, double v, int64_t prec) {
  if (!std::isfinite(v)) {
    fixed(b, v, 0);
    return;
  }
  char tmp[1100];
  int n = std::snprintf(tmp, sizeof tmp, "%.*e", int(prec), v);
  const char* e = std::strchr(tmp, 'e');
  b.append(tmp, size_t(e - tmp));
  b.push('e');
  const char* q = e + 1;
  if (*q == '-') b.push('-');
  if (*q == '+' || *q == '-') ++q;
  while (*q == '0' && q[1]) ++q;
  b.append(q, size_t(tmp + n - q));
}

void general(Buf& b, double v, int64_t prec) {
  if (prec < 1) prec = 1;
  if (!std::isfinite(v)) {
    fixed(b, v, 0);
    return;
  }
  if (v == 0) {
    b.push('0');
    return;
  }
  int64_t exp = int64_t(std::floor(std::log10(std::fabs(v))));
  if (exp < -4 || exp >= prec) {
    exponent(b, v, prec - 1);
    return;
  }
  size_t start = b.size();
  fixed(b, v, prec - 1 - exp > 0 ? prec - 1 - exp : 0);
  const char* d = b.data() + start;
  size_t n = b.size() - start;
  if (std::memchr(d, '.', n)) {
    while (n && d[n - 1] == '0') --n;
    if (n && d[n - 1] == '.') --n;
    b.truncate(start + n);
  }
}

void int_base(Buf& b, int64_t v, unsigned base, bool alt, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  uint64_t u = v < 0 ? 0 - uint64_t(v) : uint64_t(v);
  if (v < 0) b.push('-');
  if (alt) {
    b.push('0');
    b.push(base == 2 ? 'b' : base == 8 ? 'o' : (upper ? 'X' : 'x'));
  }
  char tmp[70];
  char* e = tmp + sizeof tmp;
  char* p = e;
  do {
    *--p = digits[u % base];
    u /= base;
  } while (u);
  b.append(p, size_t(e - p));
}

// Grouping, sign and padding over a finished body.
Str finish(const Spec& sp, const char* body, size_t n, bool numeric) {
  Buf g;
  if (sp.grouping && numeric) {
    size_t i = 0;
    if (i < n && (body[i] == '-' || body[i] == '+')) g.push(body[i++]);
    bool prefixed = n - i >= 2 && body[i] == '0' && std::strchr("xXbo", body[i + 1]);
    size_t int_end = i;
    while (int_end < n && body[int_end] >= '0' && body[int_end] <= '9') ++int_end;
    if (prefixed) {
      g.append(body + i, n - i);
    } else {
      size_t digits = int_end - i;
      for (size_t k = 0; k < digits; ++k) {
        if (k && (digits - k) % 3 == 0) g.push(sp.grouping);
        g.push(body[i + k]);
      }
      g.append(body + int_end, n - int_end);
    }
  } else {
    g.append(body, n);
  }
  Buf s;
  if (numeric && sp.sign && sp.sign != '-' && !(g.size() && g.data()[0] == '-')) s.push(sp.sign);
  s.append(g.data(), g.size());

  int64_t chars = int64_t(count_chars(s.data(), s.size()));
  if (sp.width <= chars) return s.take();
  int64_t padn = sp.width - chars;
  uint32_t fill;
  char align;
  if (sp.zero && numeric) {
    fill = sp.fill ? sp.fill : '0';
    align = sp.align ? sp.align : '=';
  } else {
    fill = sp.fill ? sp.fill : ' ';
    align = sp.align ? sp.align : (numeric ? '>' : '<');
  }
  char fb[4];
  size_t fl = encode_utf8(fill, fb);
  auto pad = [&](Buf& out, int64_t k) {
    for (int64_t i = 0; i < k; ++i) out.append(fb, fl);
  };
  Buf out;
  const char* d = s.data();
  size_t dn = s.size();
  switch (align) {
    case '<':
      out.append(d, dn);
      pad(out, padn);
      break;
    case '^':
      pad(out, padn / 2);
      out.append(d, dn);
      pad(out, padn - padn / 2);
      break;
    case '=': {
      size_t head = 0;
      if (dn && (d[0] == '-' || d[0] == '+' || d[0] == ' ')) head = 1;
      if (dn - head >= 2 && d[head] == '0' && std::strchr("xXbo", d[head + 1])) head += 2;
      out.append(d, head);
      pad(out, padn);
      out.append(d + head, dn - head);
      break;
    }
    default:
      pad(out, padn);
      out.append(d, dn);
  }
  return out.take();
}

}  // namespace

Str format_float(double v, const char* spec, SourcePos pos) {
  Spec sp = parse(spec, pos);
  Buf b;
  bool numeric = true;
  switch (sp.type) {
    case 0:
      if (sp.prec >= 0)
        fixed(b, v, sp.prec);
      else
        write_float(b, v);
      break;
    case 'f':
    case 'F':
      fixed(b, v, sp.prec >= 0 ? sp.prec : 6);
      if (sp.type == 'F') upper_ascii(b, 0);
      break;
    case 'e':
    case 'E':
      exponent(b, v, sp.prec >= 0 ? sp.prec : 6);
      if (sp.type == 'E') upper_ascii(b, 0);
      break;
    case 'g':
    case 'G':
      general(b, v, sp.prec >= 0 ? sp.prec : 6);
      if (sp.type == 'G') upper_ascii(b, 0);
      break;
    case '%':
      fixed(b, v * 100.0, sp.prec >= 0 ? sp.prec : 6);
      b.push('%');
      break;
    case 's':
      write_float(b, v);
      numeric = false;
      if (sp.prec >= 0) return format_text(b.take(), spec, pos);
      break;
    default: incompatible(spec, "Float", pos);
  }
  return finish(sp, b.data(), b.size(), numeric);
}

Str format_int(int64_t v, const char* spec, SourcePos pos) {
  Spec sp = parse(spec, pos);
  Buf b;
  bool numeric = true;
  switch (sp.type) {
    case 0:
    case 'd': write_int(b, v); break;
    case 'b': int_base(b, v, 2, sp.alt, false); break;
    case 'o': int_base(b, v, 8, sp.alt, false); break;
    case 'x': int_base(b, v, 16, sp.alt, false); break;
    case 'X': int_base(b, v, 16, sp.alt, true); break;
    case 'c':
      if (v < 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        Buf m;
        m.lit("format spec `c` needs a Unicode scalar value, received ");
        write_int(m, v);
        runtime_error(pos, m.take());
      }
      push_utf8(b, uint32_t(v));
      numeric = false;
      break;
    case 's':
      write_int(b, v);
      numeric = false;
      break;
    default: return format_float(double(v), spec, pos);  // e E f F g G %
  }
  return finish(sp, b.data(), b.size(), numeric);
}

static Str format_text_named(const Str& text, const char* spec, SourcePos pos, const char* type_name) {
  Spec sp = parse(spec, pos);
  if (sp.type && sp.type != 's') incompatible(spec, type_name, pos);
  const char* d = text.data();
  size_t n = text.size();
  if (sp.prec >= 0) {
    Str cut = text.left(sp.prec);
    return finish(sp, cut.data(), cut.size(), false);
  }
  return finish(sp, d, n, false);
}

Str format_text(const Str& display, const char* spec, SourcePos pos) {
  return format_text_named(display, spec, pos, "Str");
}

Str format_any(const Any& v, const char* spec, SourcePos pos) {
  switch (v.tag()) {
    case Any::Tag::Int: return format_int(v.int_value(), spec, pos);
    case Any::Tag::Float: return format_float(v.float_value(), spec, pos);
    case Any::Tag::Str: return format_text(v.str_value(), spec, pos);
    default: {
      Str t = v.type_name();
      return format_text_named(to_str(v), spec, pos, t.c_str());
    }
  }
}

}  // namespace fitz::detail
