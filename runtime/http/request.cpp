// Request and response helpers: header and query lookup, percent-decoding, forms, parameter
// binding with the spec's 400 messages, typed JSON bodies (415 / 400), and CORS decisions.
#include <cstring>
#include <string>

#include "http/internal.h"

namespace fitz::http {

const char* method_name(Method m) {
  switch (m) {
    case Method::Get: return "GET";
    case Method::Head: return "HEAD";
    case Method::Post: return "POST";
    case Method::Put: return "PUT";
    case Method::Patch: return "PATCH";
    case Method::Delete: return "DELETE";
    case Method::Options: return "OPTIONS";
  }
  return "GET";
}

bool parse_method(Text s, Method* out) {
  for (size_t i = 0; i < kMethodCount; ++i) {
    const char* n = method_name(Method(i));
    if (s == Text(n, std::strlen(n))) {
      *out = Method(i);
      return true;
    }
  }
  return false;
}

// ---- Parsing helpers ------------------------------------------------------------------------

namespace {
int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
Str to_lower(Text t) {
  Buf b;
  char* p = b.reserve_tail(t.size);
  for (size_t i = 0; i < t.size; ++i) {
    char c = t.data[i];
    p[i] = (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
  }
  b.commit(t.size);
  return b.take();
}
}  // namespace

bool percent_decode(Text s, bool plus_space, Buf* out) {
  for (size_t i = 0; i < s.size; ++i) {
    char c = s.data[i];
    if (c == '%') {
      if (i + 2 >= s.size) return false;
      int h = hexv(s.data[i + 1]), l = hexv(s.data[i + 2]);
      if (h < 0 || l < 0) return false;
      out->push(char(h * 16 + l));
      i += 2;
    } else if (c == '+' && plus_space) {
      out->push(' ');
    } else {
      out->push(c);
    }
  }
  return true;
}

bool parse_int(Text s, int64_t* out) {
  size_t i = 0;
  bool neg = false;
  if (s.size > 0 && (s.data[0] == '-' || s.data[0] == '+')) {
    neg = s.data[0] == '-';
    i = 1;
  }
  if (i == s.size || s.size - i > 19) return false;
  uint64_t v = 0;
  for (; i < s.size; ++i) {
    char c = s.data[i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + uint64_t(c - '0');
  }
  if (neg) {
    if (v > uint64_t(INT64_MAX) + 1) return false;
    *out = int64_t(0 - v);
  } else {
    if (v > uint64_t(INT64_MAX)) return false;
    *out = int64_t(v);
  }
  return true;
}

bool parse_float(Text s, double* out) {
  // Reuse the JSON number grammar (plus an optional leading '+').
  if (s.size > 0 && s.data[0] == '+') s = Text(s.data + 1, s.size - 1);
  if (s.empty()) return false;
  JsonReader r(s);
  double v;
  if (!r.read_float(&v) || !r.finish()) return false;
  *out = v;
  return true;
}

bool parse_bool(Text s, bool* out) {
  if (s == Text("true")) {
    *out = true;
    return true;
  }
  if (s == Text("false")) {
    *out = false;
    return true;
  }
  return false;
}

bool parse_form(Text s, Map<Str, Str>* out) {
  size_t i = 0;
  while (i < s.size) {
    size_t amp = i;
    while (amp < s.size && s.data[amp] != '&') ++amp;
    Text kv(s.data + i, amp - i);
    if (!kv.empty()) {
      size_t eq = 0;
      while (eq < kv.size && kv.data[eq] != '=') ++eq;
      Buf k, v;
      if (!percent_decode(Text(kv.data, eq), true, &k)) return false;
      if (eq < kv.size && !percent_decode(Text(kv.data + eq + 1, kv.size - eq - 1), true, &v)) return false;
      out->set(k.take(), v.take());
    }
    i = amp + 1;
  }
  return true;
}

// ---- Request ---------------------------------------------------------------------------------

bool Request::header_text(Text name, Text* out) const {
  for (size_t i = headers.size(); i-- > 0;)
    if (headers[i].name.iequals(name)) {
      *out = headers[i].value;
      return true;
    }
  return false;
}

Nullable<Str> Request::header(Text name) const {
  Text v;
  if (header_text(name, &v)) return v.str();
  return null;
}

Map<Str, Str> Request::header_map() const {
  Map<Str, Str> m;
  for (const auto& h : headers) m.set(to_lower(h.name), h.value.str());
  return m;
}

namespace {
// Finds the last `name=` in a query string; 0 absent, 1 found, -1 bad escape.
int find_query(Text q, Text name, Str* out) {
  int found = 0;
  size_t i = 0;
  while (i <= q.size && q.size > 0) {
    size_t amp = i;
    while (amp < q.size && q.data[amp] != '&') ++amp;
    Text kv(q.data + i, amp - i);
    size_t eq = 0;
    while (eq < kv.size && kv.data[eq] != '=') ++eq;
    Text key(kv.data, eq);
    bool match;
    Buf kd;
    if (std::memchr(key.data, '%', key.size) || std::memchr(key.data, '+', key.size)) {
      match = percent_decode(key, true, &kd) && Text(kd.data(), kd.size()) == name;
    } else {
      match = key == name;
    }
    if (match && !kv.empty()) {
      Buf v;
      Text raw = eq < kv.size ? Text(kv.data + eq + 1, kv.size - eq - 1) : Text();
      if (!percent_decode(raw, true, &v)) return -1;
      *out = v.take();
      found = 1;
    }
    if (amp >= q.size) break;
    i = amp + 1;
  }
  return found;
}
}  // namespace

Nullable<Str> Request::query(Text name) const {
  Str v;
  if (find_query(raw_query, name, &v) == 1) return v;
  return null;
}

Map<Str, Str> Request::query_map() const {
  Map<Str, Str> m;
  parse_form(raw_query, &m);
  return m;
}

Str Request::content_type() const {
  Text ct;
  if (!header_text(Text("content-type"), &ct)) return Str();
  size_t n = 0;
  while (n < ct.size && ct.data[n] != ';') ++n;
  while (n > 0 && (ct.data[n - 1] == ' ' || ct.data[n - 1] == '\t')) --n;
  size_t s = 0;
  while (s < n && (ct.data[s] == ' ' || ct.data[s] == '\t')) ++s;
  return to_lower(Text(ct.data + s, n - s));
}

// ---- Response --------------------------------------------------------------------------------

Response Response::error(int status, Text msg) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("error");
  w.value(msg);
  w.end_object();
  return json(status, b.take());
}

Response Response::text(int status, Str body, Str content_type) {
  Response r;
  r.status = status;
  r.content_type = static_cast<Str&&>(content_type);
  r.body = static_cast<Str&&>(body);
  return r;
}

Response Response::empty(int status) {
  Response r;
  r.status = status;
  r.content_type = Str();
  return r;
}

void Response::set_header(Str name, Str value) {
  for (auto& h : headers)
    if (Text(h.first).iequals(Text(name))) {
      h.second = static_cast<Str&&>(value);
      return;
    }
  headers.emplace_back(static_cast<Str&&>(name), static_cast<Str&&>(value));
}

void Response::add_header(Str name, Str value) {
  headers.emplace_back(static_cast<Str&&>(name), static_cast<Str&&>(value));
}

Nullable<Str> Response::header(Text name) const {
  for (const auto& h : headers)
    if (Text(h.first).iequals(name)) return h.second;
  return null;
}

// ---- Binder ----------------------------------------------------------------------------------

Binder::Binder(const Request& r) : req_(r) {}
Binder::~Binder() = default;

void Binder::fail(int status, Text msg) {
  if (failed_) return;
  failed_ = true;
  err_ = Response::error(status, msg);
}

namespace {
std::string quoted_excerpt(Text t) {
  // Keep messages bounded and printable.
  std::string s;
  for (size_t i = 0; i < t.size && i < 64; ++i) s += t.data[i];
  if (t.size > 64) s += "...";
  return s;
}
}  // namespace

bool Binder::path_text(size_t i, const char* name, Text* out) {
  if (failed_) return false;
  if (i >= req_.params.size()) {
    std::string m = std::string("path param '") + name + "': missing";
    fail(400, Text(m.data(), m.size()));
    return false;
  }
  *out = Text(req_.params[i]);
  return true;
}

#define FITZ_BIND_PATH(fn, T, parse, type_name)                                              \
  T Binder::fn(size_t i, const char* name) {                                                 \
    Text t;                                                                                  \
    T v{};                                                                                   \
    if (!path_text(i, name, &t)) return v;                                                   \
    if (!parse(t, &v)) {                                                                     \
      std::string m = std::string("path param '") + name + "': expected " type_name          \
                      ", received '" + quoted_excerpt(t) + "'";                              \
      fail(400, Text(m.data(), m.size()));                                                   \
      return T{};                                                                            \
    }                                                                                        \
    return v;                                                                                \
  }
FITZ_BIND_PATH(path_int, int64_t, parse_int, "Int")
FITZ_BIND_PATH(path_float, double, parse_float, "Float")
FITZ_BIND_PATH(path_bool, bool, parse_bool, "Bool")
#undef FITZ_BIND_PATH

Str Binder::path_str(size_t i, const char* name) {
  Text t;
  if (!path_text(i, name, &t)) return Str();
  return req_.params[i];
}

int Binder::query_text(const char* name, Str* out) {
  if (failed_) return 0;
  int r = find_query(req_.raw_query, Text(name, std::strlen(name)), out);
  if (r < 0) {
    std::string m = std::string("query param '") + name + "': bad percent-escape";
    fail(400, Text(m.data(), m.size()));
    return 0;
  }
  return r;
}

namespace {
void missing_query(Binder& b, const char* name) {
  std::string m = std::string("query param '") + name + "': missing \xE2\x80\x94 it is required";
  b.fail(400, Text(m.data(), m.size()));
}
void bad_query(Binder& b, const char* name, const char* type, const Str& v) {
  std::string m = std::string("query param '") + name + "': expected " + type + ", received '" +
                  quoted_excerpt(Text(v)) + "'";
  b.fail(400, Text(m.data(), m.size()));
}
}  // namespace

#define FITZ_BIND_QUERY(fn, fn_opt, T, parse, type_name)  \
  Nullable<T> Binder::fn_opt(const char* name) {          \
    Str s;                                                \
    if (query_text(name, &s) != 1) return null;           \
    T v{};                                                \
    if (!parse(Text(s), &v)) {                            \
      bad_query(*this, name, type_name, s);               \
      return null;                                        \
    }                                                     \
    return v;                                             \
  }                                                       \
  T Binder::fn(const char* name) {                        \
    if (failed_) return T{};                              \
    Nullable<T> v = fn_opt(name);                         \
    if (failed_) return T{};                              \
    if (!v.has_value()) {                                 \
      missing_query(*this, name);                         \
      return T{};                                         \
    }                                                     \
    return v.value();                                     \
  }
FITZ_BIND_QUERY(query_int, query_int_opt, int64_t, parse_int, "Int")
FITZ_BIND_QUERY(query_float, query_float_opt, double, parse_float, "Float")
FITZ_BIND_QUERY(query_bool, query_bool_opt, bool, parse_bool, "Bool")
#undef FITZ_BIND_QUERY

Nullable<Str> Binder::query_str_opt(const char* name) {
  Str s;
  if (query_text(name, &s) != 1) return null;
  return s;
}

Str Binder::query_str(const char* name) {
  if (failed_) return Str();
  Nullable<Str> v = query_str_opt(name);
  if (failed_) return Str();
  if (!v.has_value()) {
    missing_query(*this, name);
    return Str();
  }
  return v.value();
}

Nullable<Str> Binder::header_opt(const char* name) {
  if (failed_) return null;
  return req_.header(Text(name, std::strlen(name)));
}

Str Binder::header_str(const char* name) {
  Nullable<Str> v = header_opt(name);
  if (failed_) return Str();
  if (!v.has_value()) {
    std::string m = std::string("header '") + name + "': missing \xE2\x80\x94 it is required";
    fail(400, Text(m.data(), m.size()));
    return Str();
  }
  return v.value();
}

JsonReader* Binder::start_body(const char* type_name) {
  Str ct = req_.content_type();
  if (!ct.empty() && !(Text(ct) == Text("application/json"))) {
    std::string m = "unsupported Content-Type: '" + quoted_excerpt(Text(ct)) + "'";
    fail(415, Text(m.data(), m.size()));
    return nullptr;
  }
  Text b = req_.body;
  size_t i = 0;
  while (i < b.size && (b.data[i] == ' ' || b.data[i] == '\t' || b.data[i] == '\r' || b.data[i] == '\n')) ++i;
  if (i == b.size) {
    fail(400, Text("request body is empty"));
    return nullptr;
  }
  return new JsonReader(b);
}

void Binder::finish_body(JsonReader* r, bool ok, const char* type_name) {
  if (!ok) {
    std::string m;
    if (r->error_kind() == JsonReader::ErrorKind::Syntax)
      m = "body is not valid JSON: ";
    else if (r->error_kind() == JsonReader::ErrorKind::Limit)
      m = "body is too large: ";
    else
      m = std::string("body for '") + type_name + "': ";
    Str e = r->error();
    m.append(e.data(), e.size());
    fail(r->error_kind() == JsonReader::ErrorKind::Limit ? 413 : 400, Text(m.data(), m.size()));
  }
  delete r;
}

Map<Str, Str> Binder::body_form() {
  Map<Str, Str> m;
  if (failed_) return m;
  Str ct = req_.content_type();
  if (Text(ct) == Text("application/x-www-form-urlencoded")) {
    if (!parse_form(req_.body, &m)) fail(400, Text("body is not valid form data: bad percent-escape"));
    return m;
  }
  if (Text(ct) == Text("multipart/form-data")) {
    std::vector<MultipartPart> parts;
    if (!multipart_parts(&parts)) return m;
    for (const MultipartPart& p : parts) {
      if (p.is_file) {
        std::string e = "multipart part '" + std::string(p.name.data(), p.name.size()) +
                        "' is a file; a Map<Str, Any> body receives files";
        fail(400, Text(e.data(), e.size()));
        return m;
      }
      m.set(p.name, p.data.str());
    }
    return m;
  }
  return body_json<Map<Str, Str>>("Map<Str, Str>");
}

// ---- CORS ------------------------------------------------------------------------------------

namespace {
void add_unique(std::vector<Str>& xs, const Str& v, bool ci) {
  for (const auto& x : xs)
    if (ci ? Text(x).iequals(Text(v)) : x == v) return;
  xs.push_back(v);
}
Str join(const std::vector<Str>& xs) {
  Buf b;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) b.lit(", ");
    b.append(xs[i].data(), xs[i].size());
  }
  return b.take();
}
bool str_list(const Any& v, std::vector<Str>* out) {
  out->clear();
  if (v.is_str()) {
    out->push_back(v.str_value());
    return true;
  }
  if (!v.is_kind(fitz::detail::ObjKind::List)) return false;
  int64_t n = v.obj()->len();
  for (int64_t i = 0; i < n; ++i) {
    Any e = v.obj()->get(i, {});
    if (!e.is_str()) return false;
    out->push_back(e.str_value());
  }
  return true;
}
}  // namespace

Result<CorsOptions, Str> CorsOptions::from_map(const Map<Str, Any>& m) {
  CorsOptions c;
  for (const auto& e : m.entries_vec()) {
    Text k(e.key);
    const Any& v = e.value;
    if (k == Text("allow_origin")) {
      std::vector<Str> xs;
      if (!str_list(v, &xs)) return Err(Str::lit("cors: allow_origin must be a string or a list of strings"));
      if (xs.size() == 1 && Text(xs[0]) == Text("*"))
        c.origin = Origin::Any;
      else if (xs.size() == 1 && Text(xs[0]) == Text("echo"))
        c.origin = Origin::Echo;
      else {
        c.origin = Origin::List;
        c.origins = xs;
      }
    } else if (k == Text("allow_methods")) {
      if (!str_list(v, &c.methods)) return Err(Str::lit("cors: allow_methods must be a list of strings"));
      for (auto& s : c.methods) s = s.upper();
    } else if (k == Text("allow_headers")) {
      if (!str_list(v, &c.headers)) return Err(Str::lit("cors: allow_headers must be a list of strings"));
    } else if (k == Text("max_age")) {
      if (!v.is_int()) return Err(Str::lit("cors: max_age must be an Int"));
      c.max_age = v.int_value();
    } else if (k == Text("allow_credentials")) {
      if (!v.is_bool()) return Err(Str::lit("cors: allow_credentials must be a Bool"));
      c.allow_credentials = v.bool_value();
    } else {
      Buf b;
      b.lit("cors: unknown option '");
      b.append(k.data, k.size);
      b.push('\'');
      return Err(b.take());
    }
  }
  return Ok(c);
}

void CorsOptions::merge(const CorsOptions& o) {
  for (const auto& m : o.methods) add_unique(methods, m, true);
  for (const auto& h : o.headers) add_unique(headers, h, true);
  if (o.max_age > max_age) max_age = o.max_age;
  allow_credentials = allow_credentials || o.allow_credentials;
}

namespace {
// The Access-Control-Allow-Origin value for this Origin; false when the origin is not allowed.
bool allowed_origin(const CorsOptions& c, Text origin, Str* out, bool* vary) {
  *vary = false;
  switch (c.origin) {
    case CorsOptions::Origin::Any:
      if (c.allow_credentials && !origin.empty()) {  // "*" is not allowed with credentials
        *out = origin.str();
        *vary = true;
      } else {
        *out = Str::lit("*");
      }
      return true;
    case CorsOptions::Origin::Echo:
      if (origin.empty()) return false;
      *out = origin.str();
      *vary = true;
      return true;
    case CorsOptions::Origin::List:
      if (c.origins.size() == 1) {  // one fixed origin: always sent, the browser compares
        *out = c.origins[0];
        return true;
      }
      *vary = true;
      for (const auto& o : c.origins)
        if (Text(o) == origin) {
          *out = o;
          return true;
        }
      return false;
  }
  return false;
}
}  // namespace

void cors_apply(const CorsOptions& c, Text origin, Response& resp) {
  Str value;
  bool vary;
  bool ok = allowed_origin(c, origin, &value, &vary);
  if (vary) resp.headers.emplace_back(Str::lit("Vary"), Str::lit("Origin"));
  if (!ok) return;
  resp.headers.emplace_back(Str::lit("Access-Control-Allow-Origin"), value);
  if (c.allow_credentials)
    resp.headers.emplace_back(Str::lit("Access-Control-Allow-Credentials"), Str::lit("true"));
}

Response cors_preflight(const CorsOptions& c, Text origin) {
  Response r = Response::empty(204);
  cors_apply(c, origin, r);
  r.headers.emplace_back(Str::lit("Access-Control-Allow-Methods"), join(c.methods));
  r.headers.emplace_back(Str::lit("Access-Control-Allow-Headers"), join(c.headers));
  if (c.max_age >= 0) {
    Buf b;
    fitz::detail::write_int(b, c.max_age);
    r.headers.emplace_back(Str::lit("Access-Control-Max-Age"), b.take());
  }
  return r;
}

}  // namespace fitz::http
