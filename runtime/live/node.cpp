// The node tree's builder and the attribute policies shared by the serializer and the differ
// (URL-scheme filtering, attribute names).
#include "fitz/live/node.h"

#include <algorithm>
#include <charconv>

namespace fitz::live {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// Attributes the serializer would drop (see is_valid_attr_name) do not exist for the DOM.
bool attrs_equivalent(const std::vector<Attr>& a, const std::vector<Attr>& b) {
  auto valid = [](const std::vector<Attr>& v) {
    return std::count_if(v.begin(), v.end(), [](const Attr& x) { return is_valid_attr_name(x.name); });
  };
  if (valid(a) != valid(b)) return false;
  for (const Attr& x : a) {
    if (!is_valid_attr_name(x.name)) continue;
    auto it = std::find_if(b.begin(), b.end(), [&](const Attr& y) { return y.name == x.name; });
    if (it == b.end() || it->value != x.value) return false;
  }
  return true;
}

}  // namespace

std::string Key::as_string() const {
  if (is_int()) return std::to_string(as_int());
  if (is_str()) return as_str();
  return {};
}

bool Key::operator==(const Key& o) const {
  if (v_.index() == o.v_.index()) return v_ == o.v_;
  if (empty() || o.empty()) return false;
  // An Int against a Str: equal when the Str is the Int's decimal form.
  const Key& i = is_int() ? *this : o;
  const Key& s = is_int() ? o : *this;
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, i.as_int());
  return std::string_view(buf, size_t(r.ptr - buf)) == s.as_str();
}

Node& Node::attr(std::string name, std::string value) & {
  value = safe_attr_value(name, std::move(value));
  for (Attr& a : attrs)
    if (a.name == name) {
      a.value = std::move(value);
      return *this;
    }
  attrs.push_back(Attr{std::move(name), std::move(value)});
  return *this;
}

Node& Node::bool_attr(std::string name, bool on) & {
  if (on) return attr(std::move(name), std::string());
  attrs.erase(std::remove_if(attrs.begin(), attrs.end(), [&](const Attr& a) { return a.name == name; }),
              attrs.end());
  return *this;
}

Node& Node::with_key(Key k) & {
  key = std::move(k);
  return *this;
}

Node& Node::scope_attr(std::string h) & {
  scope = std::move(h);
  return *this;
}

Node& Node::mark_static() & {
  is_static = true;
  return *this;
}

Node& Node::child(Node c) & {
  if (c.kind == NodeKind::Text) {
    if (c.text.empty()) return *this;
    if (!children.empty() && children.back().kind == NodeKind::Text) {
      children.back().text += c.text;
      return *this;
    }
  }
  children.push_back(std::move(c));
  return *this;
}

Node& Node::children_from(std::vector<Node> cs) & {
  for (Node& c : cs) child(std::move(c));
  return *this;
}

const Attr* Node::find_attr(std::string_view name) const {
  for (const Attr& a : attrs)
    if (a.name == name) return &a;
  return nullptr;
}

bool Node::has_raw_child() const {
  for (const Node& c : children)
    if (c.kind == NodeKind::Html) return true;
  return false;
}

Node el(std::string_view tag) {
  Node n;
  n.kind = NodeKind::Element;
  n.tag.reserve(tag.size());
  for (char c : tag) n.tag.push_back(lower(c));
  return n;
}

Node el(std::string_view tag, uint32_t site, uint64_t iter) {
  Node n = el(tag);
  n.site = site;
  n.iter = iter;
  return n;
}

Node text(std::string s) {
  Node n;
  n.kind = NodeKind::Text;
  n.text = std::move(s);
  return n;
}

Node text(std::string s, uint32_t site, uint64_t iter) {
  Node n = text(std::move(s));
  n.site = site;
  n.iter = iter;
  return n;
}

Node html_raw(std::string markup) {
  Node n;
  n.kind = NodeKind::Html;
  n.text = std::move(markup);
  return n;
}

bool is_url_attr(std::string_view name) {
  return ieq(name, "href") || ieq(name, "src") || ieq(name, "action") || ieq(name, "formaction") ||
         ieq(name, "poster");
}

bool is_safe_url(std::string_view url) {
  // What the browser's URL parser does first (WHATWG URL: strip leading and trailing C0
  // controls and spaces, drop every tab and newline), so "\tjava\nscript:" is seen as the
  // browser would see it.
  size_t b = 0, e = url.size();
  while (b < e && static_cast<unsigned char>(url[b]) <= 0x20) ++b;
  while (e > b && static_cast<unsigned char>(url[e - 1]) <= 0x20) --e;
  std::string u;
  u.reserve(e - b);
  for (size_t i = b; i < e; ++i)
    if (url[i] != '\t' && url[i] != '\n' && url[i] != '\r') u.push_back(url[i]);
  // The part a scheme could hide in: everything before the first '/', '?' or '#'.
  size_t end = u.find_first_of("/?#");
  std::string_view head = std::string_view(u).substr(0, end == std::string::npos ? u.size() : end);
  size_t colon = head.find(':');
  for (char c : head) {
    auto uc = static_cast<unsigned char>(c);
    // Controls left inside, backslashes (which browsers read as '/' for some schemes) and
    // '&' (an entity-looking "javascript&#58;" or "&colon;" in a context that decodes it)
    // make the head ambiguous: refuse rather than guess.
    if (uc < 0x20 || uc == 0x7f || c == '\\' || c == '&') return false;
  }
  if (colon == std::string_view::npos) return true;  // relative: path, "//host", "", "?q"
  std::string_view scheme = head.substr(0, colon);
  return ieq(scheme, "http") || ieq(scheme, "https") || ieq(scheme, "mailto") || ieq(scheme, "tel");
}

std::string safe_attr_value(std::string_view name, std::string value) {
  if (is_url_attr(name) && !is_safe_url(value)) return "#";
  return value;
}

bool is_valid_attr_name(std::string_view name) {
  if (name.empty() || name.size() > 256) return false;
  char c0 = name[0];
  if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_' || c0 == ':')) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '.' || c == '-'))
      return false;
  if (name.size() >= 2 && name[0] == 'o' && name[1] == 'n') return false;
  return name != "data-fz-key";
}

bool equivalent(const Node& a, const Node& b) {
  if (a.kind != b.kind) return false;
  if (a.kind != NodeKind::Element) return a.text == b.text;
  if (a.tag != b.tag || !(a.key == b.key) || a.scope != b.scope) return false;
  if (!attrs_equivalent(a.attrs, b.attrs) || a.children.size() != b.children.size()) return false;
  for (size_t i = 0; i < a.children.size(); ++i)
    if (!equivalent(a.children[i], b.children[i])) return false;
  return true;
}

}  // namespace fitz::live
