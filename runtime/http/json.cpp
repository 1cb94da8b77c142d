// JSON writer helpers and the pull reader behind typed body decoding: strict RFC 8259 syntax,
// UTF-8 validation, Int range checks, a nesting limit, and error messages with field paths.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "fitz/http/handler_glue.h"
#include "http/internal.h"

namespace fitz::http {

// ---- Text / writer ------------------------------------------------------------------------

bool Text::iequals(Text o) const {
  if (size != o.size) return false;
  for (size_t i = 0; i < size; ++i) {
    char a = data[i], b = o.data[i];
    if (a >= 'A' && a <= 'Z') a = char(a + 32);
    if (b >= 'A' && b <= 'Z') b = char(b + 32);
    if (a != b) return false;
  }
  return true;
}

namespace {

const char kHex[] = "0123456789abcdef";

void write_escaped(Buf& b, Text s) {
  b.push('"');
  const char* p = s.data;
  const char* end = p + s.size;
  const char* run = p;
  for (; p < end; ++p) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    b.append(run, size_t(p - run));
    run = p + 1;
    switch (c) {
      case '"': b.lit("\\\""); break;
      case '\\': b.lit("\\\\"); break;
      case '\n': b.lit("\\n"); break;
      case '\r': b.lit("\\r"); break;
      case '\t': b.lit("\\t"); break;
      case '\b': b.lit("\\b"); break;
      case '\f': b.lit("\\f"); break;
      default: {
        char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        b.append(u, 6);
      }
    }
  }
  b.append(run, size_t(end - run));
  b.push('"');
}

}  // namespace

void JsonWriter::key(Text k) {
  sep();
  write_escaped(b_, k);
  b_.push(':');
  comma_ = false;
}

void JsonWriter::value(Text s) {
  sep();
  write_escaped(b_, s);
}

void JsonWriter::value(double v) {
  sep();
  if (std::isnan(v)) {
    b_.lit("\"NaN\"");
  } else if (std::isinf(v)) {
    if (v > 0)
      b_.lit("\"inf\"");
    else
      b_.lit("\"-inf\"");
  } else {
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);  // shortest round-trip form
    b_.append(tmp, size_t(r.ptr - tmp));
    // "1" would read back as an Int: keep Floats recognisable.
    bool integral = true;
    for (char* q = tmp; q < r.ptr; ++q)
      if (*q == '.' || *q == 'e' || *q == 'n' || *q == 'i') integral = false;
    if (integral) b_.lit(".0");
  }
}

void JsonEncode<Bytes>::write(JsonWriter& w, const Bytes& v) {
  static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  Buf s;
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  size_t n = v.size(), i = 0;
  for (; i + 2 < n; i += 3) {
    uint32_t x = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8) | p[i + 2];
    char q[4] = {tbl[x >> 18], tbl[(x >> 12) & 63], tbl[(x >> 6) & 63], tbl[x & 63]};
    s.append(q, 4);
  }
  if (i < n) {
    uint32_t x = uint32_t(p[i]) << 16;
    if (i + 1 < n) x |= uint32_t(p[i + 1]) << 8;
    char q[4] = {tbl[x >> 18], tbl[(x >> 12) & 63], i + 1 < n ? tbl[(x >> 6) & 63] : '=', '='};
    s.append(q, 4);
  }
  w.value(Text(s.data(), s.size()));
}

void JsonEncode<Any>::write(JsonWriter& w, const Any& v) {
  switch (v.tag()) {
    case Any::Tag::Null: w.null(); return;
    case Any::Tag::Bool: w.value(v.bool_value()); return;
    case Any::Tag::Int: w.value(v.int_value()); return;
    case Any::Tag::Float: w.value(v.float_value()); return;
    case Any::Tag::Str: w.value(v.str_value()); return;
    default: break;
  }
  const fitz::detail::AnyObj* o = v.obj();
  switch (o->kind()) {
    case fitz::detail::ObjKind::List:
    case fitz::detail::ObjKind::Tuple: {
      w.begin_array();
      int64_t n = o->len();
      for (int64_t i = 0; i < n; ++i) write(w, o->get(i, {}));
      w.end_array();
      return;
    }
    case fitz::detail::ObjKind::Map: {
      w.begin_object();
      int64_t n = o->len();
      for (int64_t i = 0; i < n; ++i) {
        Any k = o->key_at(i);
        if (k.is_str())
          w.key(k.str_value());
        else {
          Buf kb;
          fitz::show(kb, k);
          w.key(Text(kb.data(), kb.size()));
        }
        write(w, o->value_at(i));
      }
      w.end_object();
      return;
    }
    case fitz::detail::ObjKind::Result: {
      w.begin_object();
      w.key(o->is_ok() ? Text("Ok") : Text("Err"));
      write(w, o->inner());
      w.end_object();
      return;
    }
    case fitz::detail::ObjKind::Bytes: {
      auto r = v.as_bytes();
      JsonEncode<Bytes>::write(w, r.value());
      return;
    }
    default: {
      // A user type instance held as Any: the object its static type's encoder writes (fields
      // in declaration order, `@hidden` ones left out). Other boxes (DateTime, connections)
      // are written as their display form, a string.
      struct Fields final : fitz::detail::FieldVisitor {
        std::vector<std::pair<const char*, Any>> list;
        void field(const char* name, const Any& value) override { list.emplace_back(name, value); }
      };
      Fields f;
      if (o->visit_fields(f)) {
        w.begin_object();
        for (const auto& [name, value] : f.list) {
          w.key(Text(name, __builtin_strlen(name)));
          write(w, value);
        }
        w.end_object();
        return;
      }
      Buf b;
      fitz::show(b, v);
      w.value(Text(b.data(), b.size()));
      return;
    }
  }
}

void write_array_erased(JsonWriter& w, const void* data, size_t n, size_t stride, ErasedEncode each) {
  w.begin_array();
  const char* p = static_cast<const char*>(data);
  for (size_t i = 0; i < n; ++i) each(w, p + i * stride);
  w.end_array();
}

Str to_json_erased(const void* v, ErasedEncode write) {
  Buf b;
  JsonWriter w(b);
  write(w, v);
  return b.take();
}

namespace glue {

Response json_fields(int status, std::initializer_list<JsonField> fields) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  for (const JsonField& f : fields) {
    w.key(f.key);
    w.value(f.value);
  }
  w.end_object();
  return Response::json(status, b.take());
}

Response json_any_map(int status, const fitz::Map<fitz::Any, fitz::Any>& v) {
  return Response::json_value(status, fitz::to_any(v));
}

}  // namespace glue

// ---- UTF-8 ---------------------------------------------------------------------------------

namespace {

// Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid.
size_t utf8_seq(const unsigned char* p, const unsigned char* end) {
  unsigned char c = p[0];
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (size_t(end - p) < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  return n;
}

void put_utf8(Buf& b, uint32_t cp) {
  char u[4];
  if (cp < 0x80) {
    b.push(char(cp));
  } else if (cp < 0x800) {
    u[0] = char(0xC0 | (cp >> 6));
    u[1] = char(0x80 | (cp & 0x3F));
    b.append(u, 2);
  } else if (cp < 0x10000) {
    u[0] = char(0xE0 | (cp >> 12));
    u[1] = char(0x80 | ((cp >> 6) & 0x3F));
    u[2] = char(0x80 | (cp & 0x3F));
    b.append(u, 3);
  } else {
    u[0] = char(0xF0 | (cp >> 18));
    u[1] = char(0x80 | ((cp >> 12) & 0x3F));
    u[2] = char(0x80 | ((cp >> 6) & 0x3F));
    u[3] = char(0x80 | (cp & 0x3F));
    b.append(u, 4);
  }
}

}  // namespace

bool read_fields_with(JsonReader& r, const Text* names, size_t n, uint64_t* seen, bool (*read_field)(void* ctx, size_t i),
                      void* ctx) {
  Text k;
  Buf unknown;
  while (r.next_key(&k)) {
    size_t i = 0;
    while (i < n && !(names[i] == k)) ++i;
    if (i == n) {
      if (!unknown.empty()) unknown.lit(", ");
      unknown.append(k.data, k.size);
      if (!r.skip_value()) return false;
      continue;
    }
    uint64_t bit = uint64_t(1) << (i % 64);
    if (seen[i / 64] & bit) {
      r.fail_duplicate(k);
      return false;
    }
    seen[i / 64] |= bit;
    if (!read_field(ctx, i)) return false;
  }
  if (!r.ok()) return false;
  if (!unknown.empty()) {
    r.fail_unknown(Text(unknown.data(), unknown.size()));
    return false;
  }
  return true;
}

bool valid_utf8(const char* p, size_t n) {
  auto* q = reinterpret_cast<const unsigned char*>(p);
  auto* end = q + n;
  while (q < end) {
    if (*q < 0x80) {
      ++q;
      continue;
    }
    size_t k = utf8_seq(q, end);
    if (!k) return false;
    q += k;
  }
  return true;
}

// ---- Reader --------------------------------------------------------------------------------

JsonReader::JsonReader(const char* p, size_t n, uint32_t max_depth)
    : begin_(p), p_(p), end_(p + n), max_depth_(max_depth) {}

JsonReader::~JsonReader() = default;

namespace {
inline bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
}  // namespace

bool JsonReader::skip_ws_and_peek(char* c) {
  while (p_ < end_ && is_ws(*p_)) ++p_;
  if (p_ == end_) return false;
  *c = *p_;
  return true;
}

bool JsonReader::syntax(const char* msg) {
  if (kind_ != ErrorKind::None) return false;
  kind_ = ErrorKind::Syntax;
  size_t line = 1, col = 1;
  for (const char* q = begin_; q < p_ && q < end_; ++q) {
    if (*q == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  std::string m = msg;
  m += " at line " + std::to_string(line) + ", column " + std::to_string(col);
  error_ = Str(m.data(), m.size());
  return false;
}

void JsonReader::fail_message(Text msg) {
  if (kind_ != ErrorKind::None) return;
  if (syntax_error_elsewhere()) return;
  kind_ = ErrorKind::Schema;
  error_ = msg.str();
}

// The path of the current value: `a.b[2].c`.
struct JsonPath {
  static std::string of(const JsonReader& r);
};
std::string JsonPath::of(const JsonReader& r) {
  std::string s;
  for (const auto& g : r.segs_) {
    if (g.count == 0) break;
    if (g.is_array) {
      s += '[';
      s += std::to_string(g.count - 1);
      s += ']';
    } else {
      if (!s.empty()) s += '.';
      s.append(g.key.data, g.key.size);
    }
  }
  return s;
}

const char* JsonReader::found_name() {
  char c;
  if (!skip_ws_and_peek(&c)) return "end of input";
  switch (c) {
    case '"': return "Str";
    case '{': return "object";
    case '[': return "list";
    case 't':
    case 'f': return "Bool";
    case 'n': return "null";
    default: break;
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    for (const char* q = p_; q < end_; ++q) {
      char d = *q;
      if (d == '.' || d == 'e' || d == 'E') return "Float";
      if (!(d == '-' || d == '+' || (d >= '0' && d <= '9'))) break;
    }
    return "Int";
  }
  return "invalid JSON";
}

// A wrong type is only worth reporting in a document that parses: `this is not json` peeks like
// a Bool and `12abc` like an Int, but the client's mistake is the syntax, so the first syntax
// error of the whole document wins over any schema error.
bool JsonReader::syntax_error_elsewhere() {
  JsonReader v(begin_, size_t(end_ - begin_), max_depth_);
  if (v.skip_value()) v.finish();
  if (v.kind_ != ErrorKind::Syntax) return false;
  kind_ = ErrorKind::Syntax;
  error_ = v.error_;
  return true;
}

void JsonReader::fail_expected(const char* expected) {
  if (kind_ != ErrorKind::None) return;
  if (syntax_error_elsewhere()) return;
  const char* found = found_name();
  if (std::strcmp(found, "invalid JSON") == 0) {
    syntax("unexpected character");
    return;
  }
  std::string path = JsonPath::of(*this);
  std::string m;
  if (!path.empty()) m = "field '" + path + "': ";
  m += std::string("expected ") + expected + ", found " + found;
  kind_ = ErrorKind::Schema;
  error_ = Str(m.data(), m.size());
}

void JsonReader::fail_missing(const char* field) {
  std::string path = JsonPath::of(*this);
  std::string m = "missing field '" + (path.empty() ? std::string() : path + ".") + field + "'";
  fail_message(Text(m.data(), m.size()));
}

void JsonReader::fail_unknown(Text fields) {
  std::string path = JsonPath::of(*this);
  std::string m = "undeclared field(s)";
  if (!path.empty()) m += " in '" + path + "'";
  m += ": ";
  m.append(fields.data, fields.size);
  fail_message(Text(m.data(), m.size()));
}

void JsonReader::fail_duplicate(Text field) {
  std::string path = JsonPath::of(*this);
  // The current key already is the repeated one.
  std::string m = "duplicate field '" + path + "'";
  (void)field;
  fail_message(Text(m.data(), m.size()));
}

void JsonReader::fail_invalid(const char* expected, const Str& received) {
  std::string path = JsonPath::of(*this);
  std::string m;
  if (!path.empty()) m = "field '" + path + "': ";
  m += std::string("expected ") + expected + ", received '" +
       std::string(received.data(), received.size() < 64 ? received.size() : 64) + "'";
  fail_message(Text(m.data(), m.size()));
}

Str JsonReader::error() const { return error_; }

void JsonReader::push_seg(bool is_array) { segs_.push_back(Seg{is_array, 0, Text()}); }
void JsonReader::pop_seg() { segs_.pop_back(); }

JsonKind JsonReader::peek() {
  if (!ok()) return JsonKind::Invalid;
  char c;
  if (!skip_ws_and_peek(&c)) return JsonKind::End;
  switch (c) {
    case 'n': return JsonKind::Null;
    case 't':
    case 'f': return JsonKind::Bool;
    case '"': return JsonKind::String;
    case '[': return JsonKind::Array;
    case '{': return JsonKind::Object;
    default: break;
  }
  if (c == '-' || (c >= '0' && c <= '9')) return JsonKind::Number;
  return JsonKind::Invalid;
}

uint32_t JsonReader::default_max_keys() {
  static const uint32_t limit = [] {
    const char* v = std::getenv("FITZ_JSON_MAX_KEYS");
    char* end = nullptr;
    unsigned long n = v ? std::strtoul(v, &end, 10) : 0;
    return v && *v && end && !*end && n > 0 && n <= UINT32_MAX ? uint32_t(n) : uint32_t(10000);
  }();
  return limit;
}

bool JsonReader::too_many_keys() {
  if (kind_ != ErrorKind::None) return false;
  kind_ = ErrorKind::Limit;
  std::string m = "an object has more than " + std::to_string(max_keys_) + " keys";
  error_ = Str(m.data(), m.size());
  return false;
}

bool JsonReader::too_deep() {
  std::string m = "nesting deeper than " + std::to_string(max_depth_) + " levels";
  return syntax(m.c_str());
}

bool JsonReader::begin_object() {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c != '{') {
    fail_expected("object");
    return false;
  }
  if (segs_.size() >= max_depth_) return too_deep();
  ++p_;
  push_seg(false);
  return true;
}

bool JsonReader::next_key(Text* key) {
  if (!ok()) return false;
  Seg& g = segs_.back();
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c == '}') {
    ++p_;
    pop_seg();
    return false;
  }
  if (g.count > 0) {
    if (c != ',') return syntax("expected ',' or '}'");
    ++p_;
    if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  }
  if (c != '"') return syntax("expected a string key");
  if (g.count >= max_keys_) return too_many_keys();
  const char* raw_start = p_ + 1;
  if (!parse_string(key, true)) return false;
  Seg& g2 = segs_.back();
  g2.key = Text(raw_start, size_t(p_ - 1 - raw_start));
  if (!skip_ws_and_peek(&c) || c != ':') return syntax("expected ':'");
  ++p_;
  ++g2.count;
  return true;
}

bool JsonReader::begin_array() {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c != '[') {
    fail_expected("list");
    return false;
  }
  if (segs_.size() >= max_depth_) return too_deep();
  ++p_;
  push_seg(true);
  return true;
}

bool JsonReader::next_element() {
  if (!ok()) return false;
  Seg& g = segs_.back();
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c == ']') {
    ++p_;
    pop_seg();
    return false;
  }
  if (g.count > 0) {
    if (c != ',') return syntax("expected ',' or ']'");
    ++p_;
    if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
    if (c == ']') return syntax("trailing comma");
  }
  ++g.count;
  return true;
}

// Parses a string at p_ (which is at the opening quote). Keys and values without escapes are
// returned as views into the input; with escapes they are decoded into scratch_.
bool JsonReader::parse_string(Text* out, bool for_key) {
  ++p_;  // opening quote
  const char* start = p_;
  bool escaped = false;
  scratch_.clear();
  const char* run = p_;
  while (true) {
    if (p_ >= end_) return syntax("unterminated string");
    unsigned char c = static_cast<unsigned char>(*p_);
    if (c == '"') break;
    if (c < 0x20) return syntax("control character in string");
    if (c == '\\') {
      if (!escaped) {
        escaped = true;
      }
      scratch_.append(run, size_t(p_ - run));
      ++p_;
      if (p_ >= end_) return syntax("unterminated string");
      char e = *p_++;
      switch (e) {
        case '"': scratch_.push('"'); break;
        case '\\': scratch_.push('\\'); break;
        case '/': scratch_.push('/'); break;
        case 'b': scratch_.push('\b'); break;
        case 'f': scratch_.push('\f'); break;
        case 'n': scratch_.push('\n'); break;
        case 'r': scratch_.push('\r'); break;
        case 't': scratch_.push('\t'); break;
        case 'u': {
          auto hex4 = [&](uint32_t* v) {
            if (end_ - p_ < 4) return false;
            uint32_t x = 0;
            for (int i = 0; i < 4; ++i) {
              char h = p_[i];
              int d = (h >= '0' && h <= '9')   ? h - '0'
                      : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                      : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                               : -1;
              if (d < 0) return false;
              x = x * 16 + uint32_t(d);
            }
            p_ += 4;
            *v = x;
            return true;
          };
          uint32_t cp;
          if (!hex4(&cp)) return syntax("bad \\u escape");
          if (cp >= 0xDC00 && cp <= 0xDFFF) return syntax("lone surrogate in \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t lo;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return syntax("lone surrogate in \\u escape");
            p_ += 2;
            if (!hex4(&lo) || lo < 0xDC00 || lo > 0xDFFF) return syntax("lone surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(scratch_, cp);
          break;
        }
        default: return syntax("bad escape in string");
      }
      run = p_;
      continue;
    }
    if (c < 0x80) {
      ++p_;
      continue;
    }
    size_t k = utf8_seq(reinterpret_cast<const unsigned char*>(p_),
                        reinterpret_cast<const unsigned char*>(end_));
    if (!k) return syntax("invalid UTF-8 in string");
    p_ += k;
  }
  if (escaped) {
    scratch_.append(run, size_t(p_ - run));
    *out = Text(scratch_.data(), scratch_.size());
  } else {
    *out = Text(start, size_t(p_ - start));
  }
  ++p_;  // closing quote
  (void)for_key;
  return true;
}

bool JsonReader::parse_number(int64_t* iv, double* fv, bool* is_int, bool* overflow) {
  const char* s = p_;
  const char* q = p_;
  if (q < end_ && *q == '-') ++q;
  if (q >= end_) return syntax("bad number");
  if (*q == '0') {
    ++q;
  } else if (*q >= '1' && *q <= '9') {
    while (q < end_ && *q >= '0' && *q <= '9') ++q;
  } else {
    return syntax("bad number");
  }
  bool integral = true;
  if (q < end_ && *q == '.') {
    integral = false;
    ++q;
    if (q >= end_ || !(*q >= '0' && *q <= '9')) return syntax("bad number");
    while (q < end_ && *q >= '0' && *q <= '9') ++q;
  }
  if (q < end_ && (*q == 'e' || *q == 'E')) {
    integral = false;
    ++q;
    if (q < end_ && (*q == '+' || *q == '-')) ++q;
    if (q >= end_ || !(*q >= '0' && *q <= '9')) return syntax("bad number");
    while (q < end_ && *q >= '0' && *q <= '9') ++q;
  }
  *is_int = integral;
  *overflow = false;
  if (integral) {
    auto r = std::from_chars(s, q, *iv);
    if (r.ec == std::errc::result_out_of_range) *overflow = true;
  }
  auto r = std::from_chars(s, q, *fv);
  if (r.ec == std::errc::result_out_of_range) {
    // Too large for a double (e.g. 1e999): out of range; tiny values underflow to 0.
    bool tiny = false;
    for (const char* e = s; e < q; ++e)
      if ((*e == 'e' || *e == 'E') && e + 1 < q && e[1] == '-') tiny = true;
    if (tiny)
      *fv = 0.0;
    else if (!integral)
      *overflow = true;
  }
  p_ = q;
  return true;
}

bool JsonReader::read_int(int64_t* out) {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (!(c == '-' || (c >= '0' && c <= '9'))) {
    fail_expected("Int");
    return false;
  }
  const char* save = p_;
  int64_t iv = 0;
  double fv = 0;
  bool is_int, overflow;
  if (!parse_number(&iv, &fv, &is_int, &overflow)) return false;
  if (!is_int) {
    p_ = save;
    fail_expected("Int");
    return false;
  }
  if (overflow) {
    p_ = save;
    std::string path = JsonPath::of(*this);
    std::string m = (path.empty() ? std::string() : "field '" + path + "': ") + "number out of range for Int";
    fail_message(Text(m.data(), m.size()));
    return false;
  }
  *out = iv;
  return true;
}

bool JsonReader::read_float(double* out) {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (!(c == '-' || (c >= '0' && c <= '9'))) {
    fail_expected("Float");
    return false;
  }
  int64_t iv;
  double fv = 0;
  bool is_int, overflow;
  if (!parse_number(&iv, &fv, &is_int, &overflow)) return false;
  if (overflow && !is_int) {
    std::string path = JsonPath::of(*this);
    std::string m = (path.empty() ? std::string() : "field '" + path + "': ") + "number out of range for Float";
    fail_message(Text(m.data(), m.size()));
    return false;
  }
  *out = fv;
  return true;
}

bool JsonReader::read_bool(bool* out) {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c == 't' && end_ - p_ >= 4 && std::memcmp(p_, "true", 4) == 0) {
    p_ += 4;
    *out = true;
    return true;
  }
  if (c == 'f' && end_ - p_ >= 5 && std::memcmp(p_, "false", 5) == 0) {
    p_ += 5;
    *out = false;
    return true;
  }
  if (c == 't' || c == 'f') return syntax("unexpected character");
  fail_expected("Bool");
  return false;
}

bool JsonReader::read_null() {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c == 'n' && end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
    p_ += 4;
    return true;
  }
  if (c == 'n') return syntax("unexpected character");
  fail_expected("null");
  return false;
}

bool JsonReader::read_str(Str* out) {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  if (c != '"') {
    fail_expected("Str");
    return false;
  }
  Text t;
  if (!parse_string(&t, false)) return false;
  *out = t.str();
  return true;
}

bool JsonReader::skip_value() {
  if (!ok()) return false;
  char c;
  if (!skip_ws_and_peek(&c)) return syntax("unexpected end of input");
  switch (c) {
    case '{': {
      if (!begin_object()) return false;
      Text k;
      while (next_key(&k))
        if (!skip_value()) return false;
      return ok();
    }
    case '[': {
      if (!begin_array()) return false;
      while (next_element())
        if (!skip_value()) return false;
      return ok();
    }
    case '"': {
      Text t;
      return parse_string(&t, false);
    }
    case 't':
    case 'f': {
      bool b;
      return read_bool(&b);
    }
    case 'n': return read_null();
    default: {
      if (c == '-' || (c >= '0' && c <= '9')) {
        int64_t iv;
        double fv;
        bool is_int, overflow;
        return parse_number(&iv, &fv, &is_int, &overflow);
      }
      return syntax("unexpected character");
    }
  }
}

bool JsonReader::read_any(Any* out) {
  if (!ok()) return false;
  switch (peek()) {
    case JsonKind::Null:
      *out = Any();
      return read_null();
    case JsonKind::Bool: {
      bool b;
      if (!read_bool(&b)) return false;
      *out = Any(b);
      return true;
    }
    case JsonKind::String: {
      Str s;
      if (!read_str(&s)) return false;
      *out = Any(std::move(s));
      return true;
    }
    case JsonKind::Number: {
      int64_t iv = 0;
      double fv = 0;
      bool is_int, overflow;
      if (!parse_number(&iv, &fv, &is_int, &overflow)) return false;
      if (is_int && !overflow)
        *out = Any(iv);
      else
        *out = Any(fv);
      return true;
    }
    case JsonKind::Array: {
      if (!begin_array()) return false;
      List<Any> l;
      while (next_element()) {
        Any v;
        if (!read_any(&v)) return false;
        l.vec().push_back(std::move(v));
      }
      if (!ok()) return false;
      *out = to_any(l);
      return true;
    }
    case JsonKind::Object: {
      Map<Str, Any> m;
      if (!JsonDecode<Map<Str, Any>>::read(*this, &m)) return false;
      *out = to_any(m);
      return true;
    }
    case JsonKind::End: return syntax("unexpected end of input");
    default: return syntax("unexpected character");
  }
}

bool JsonReader::finish() {
  if (!ok()) return false;
  char c;
  if (skip_ws_and_peek(&c)) return syntax("unexpected data after the JSON value");
  return true;
}

}  // namespace fitz::http
