// The Cookie request header, cookie values on the wire and the Set-Cookie header value (see
// fitz/http/cookies.h); `@cookie` parameters bind through Binder::cookie_str / cookie_opt.
#include "fitz/http/cookies.h"

#include <cstring>
#include <string>

namespace fitz::http {

namespace {

bool is_cookie_blank(char c) { return c == ' ' || c == '\t'; }

Text trim_cookie_blanks(const char* b, const char* e) {
  while (b < e && is_cookie_blank(*b)) ++b;
  while (e > b && is_cookie_blank(e[-1])) --e;
  return Text(b, size_t(e - b));
}

// RFC 6265 cookie-octet: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E.
bool is_cookie_octet(unsigned char c) {
  return c == 0x21 || (c >= 0x23 && c <= 0x2B) || (c >= 0x2D && c <= 0x3A) || (c >= 0x3C && c <= 0x5B) ||
         (c >= 0x5D && c <= 0x7E);
}

Result<Str, Str> cookie_error(std::string m) { return Err(Str(m.data(), m.size())); }

}  // namespace

bool is_cookie_name(Text name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size; ++i) {
    unsigned char c = static_cast<unsigned char>(name.data[i]);
    if (c <= 0x20 || c >= 0x7F || std::strchr("()<>@,;:\\\"/[]?={}", c)) return false;
  }
  return true;
}

void parse_cookie_header(Text header, std::vector<CookiePair>* out) {
  const char* p = header.data;
  const char* end = p + header.size;
  while (p < end) {
    const char* stop = static_cast<const char*>(std::memchr(p, ';', size_t(end - p)));
    if (!stop) stop = end;
    const char* eq = static_cast<const char*>(std::memchr(p, '=', size_t(stop - p)));
    if (eq) {
      Text name = trim_cookie_blanks(p, eq);
      Text value = trim_cookie_blanks(eq + 1, stop);
      if (value.size >= 2 && value.data[0] == '"' && value.data[value.size - 1] == '"')
        value = Text(value.data + 1, value.size - 2);
      if (is_cookie_name(name)) out->push_back(CookiePair{name, value});
    }
    p = stop < end ? stop + 1 : end;
  }
}

bool find_cookie(const Request& req, Text name, Text* value) {
  std::vector<CookiePair> pairs;
  for (const Header& h : req.headers) {
    if (!h.name.iequals(Text("cookie"))) continue;
    pairs.clear();
    parse_cookie_header(h.value, &pairs);
    for (const CookiePair& c : pairs)
      if (c.name == name) {
        *value = c.value;
        return true;
      }
  }
  return false;
}

Str cookie_value_encode(Text value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  Buf b;
  for (size_t i = 0; i < value.size; ++i) {
    unsigned char c = static_cast<unsigned char>(value.data[i]);
    if (is_cookie_octet(c) && c != '%') {
      b.push(char(c));
    } else {
      b.push('%');
      b.push(kHex[c >> 4]);
      b.push(kHex[c & 15]);
    }
  }
  return b.take();
}

Str cookie_value_decode(Text wire) {
  if (!std::memchr(wire.data, '%', wire.size)) return wire.str();
  Buf b;
  if (!percent_decode(wire, false, &b)) return wire.str();
  return b.take();
}

Result<Str, Str> set_cookie_header(Text name, Text wire_value, const CookieAttrs& a) {
  if (!is_cookie_name(name))
    return cookie_error("invalid cookie name '" + std::string(name.data, name.size) +
                "': a cookie name is letters, digits and !#$%&'*+-.^_`|~ only");
  for (size_t i = 0; i < wire_value.size; ++i)
    if (!is_cookie_octet(static_cast<unsigned char>(wire_value.data[i])))
      return cookie_error("invalid cookie value for '" + std::string(name.data, name.size) + "'");
  Text ss(a.same_site);
  const char* same_site = ss.iequals(Text("strict")) ? "Strict" : ss.iequals(Text("lax")) ? "Lax"
                          : ss.iequals(Text("none")) ? "None" : nullptr;
  if (!same_site)
    return cookie_error("invalid same_site '" + std::string(ss.data, ss.size) + "' for cookie '" +
                std::string(name.data, name.size) + "': expected \"Strict\", \"Lax\" or \"None\"");
  if (std::strcmp(same_site, "None") == 0 && !a.secure)
    return cookie_error("cookie '" + std::string(name.data, name.size) +
                "': same_site \"None\" needs secure: true (browsers drop it otherwise)");
  Text path(a.path);
  for (size_t i = 0; i < path.size; ++i) {
    unsigned char c = static_cast<unsigned char>(path.data[i]);
    if (c < 0x20 || c == 0x7F || c == ';')
      return cookie_error("invalid path for cookie '" + std::string(name.data, name.size) + "': no control characters or ';'");
  }
  Buf b;
  b.append(name.data, name.size);
  b.push('=');
  b.append(wire_value.data, wire_value.size);
  if (!path.empty()) {
    b.lit("; Path=");
    b.append(path.data, path.size);
  }
  if (a.max_age.has_value()) {
    int64_t n = a.max_age.value() < 0 ? 0 : a.max_age.value();
    std::string s = std::to_string(n);
    b.lit("; Max-Age=");
    b.append(s.data(), s.size());
    // Old clients read Expires only; the epoch makes a zero Max-Age delete there too.
    if (n == 0) b.lit("; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  }
  if (a.http_only) b.lit("; HttpOnly");
  if (a.secure) b.lit("; Secure");
  b.lit("; SameSite=");
  b.append_cstr(same_site);
  return Ok(b.take());
}

Nullable<Str> Binder::cookie_opt(const char* name) {
  if (failed_) return null;
  Text v;
  if (!find_cookie(req_, Text(name, std::strlen(name)), &v)) return null;
  return cookie_value_decode(v);
}

Str Binder::cookie_str(const char* name) {
  Nullable<Str> v = cookie_opt(name);
  if (failed_) return Str();
  if (!v.has_value()) {
    std::string m = std::string("cookie '") + name + "': missing \xE2\x80\x94 it is required";
    fail(400, Text(m.data(), m.size()));
    return Str();
  }
  return v.value();
}

}  // namespace fitz::http
