// The HTML serializer: escaping, attributes in double quotes, void elements. The one place a
// node tree becomes markup, so the escaping rule (§1.4) lives only here.
#include "fitz/live/html.h"

namespace fitz::live {

void escape_html(std::string_view s, std::string& out) {
  size_t run = 0;  // start of the pending run of bytes that need no escape
  for (size_t i = 0; i < s.size(); ++i) {
    const char* rep = nullptr;
    switch (s[i]) {
      case '&': rep = "&amp;"; break;
      case '<': rep = "&lt;"; break;
      case '>': rep = "&gt;"; break;
      case '"': rep = "&quot;"; break;
      case '\'': rep = "&#39;"; break;
      default: continue;
    }
    out.append(s.data() + run, i - run);
    out.append(rep);
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
}

bool is_void_element(std::string_view tag) {
  static constexpr std::string_view kVoid[] = {"area", "base", "br",   "col",   "embed", "hr",  "img",
                                               "input", "link", "meta", "source", "track", "wbr"};
  for (std::string_view v : kVoid)
    if (v == tag) return true;
  return false;
}

namespace {

bool valid_tag(std::string_view tag) {
  if (tag.empty()) return false;
  if (!(tag[0] >= 'a' && tag[0] <= 'z')) return false;
  for (char c : tag)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

void write_attr(std::string_view name, std::string_view value, std::string& out) {
  out.push_back(' ');
  out.append(name);
  out.append("=\"");
  escape_html(value, out);
  out.push_back('"');
}

}  // namespace

void write_html(const Node& n, std::string& out) {
  switch (n.kind) {
    case NodeKind::Text: escape_html(n.text, out); return;
    case NodeKind::Html: out.append(n.text); return;
    case NodeKind::Element: break;
  }
  // A tag the builder could not have produced from a template (codegen lower-cases literal
  // tags) is written as a harmless span rather than as attacker-chosen markup.
  std::string_view tag = valid_tag(n.tag) ? std::string_view(n.tag) : std::string_view("span");
  out.push_back('<');
  out.append(tag);
  if (!n.key.empty()) write_attr("data-fz-key", n.key.as_string(), out);
  if (!n.scope.empty()) {
    bool hex = n.scope.size() <= 16;
    for (char c : n.scope) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    if (hex) write_attr("data-s-" + n.scope, "", out);
  }
  for (const Attr& a : n.attrs) {
    if (!is_valid_attr_name(a.name)) continue;
    if (is_url_attr(a.name) && !is_safe_url(a.value))
      write_attr(a.name, "#", out);
    else
      write_attr(a.name, a.value, out);
  }
  out.push_back('>');
  if (is_void_element(tag)) return;
  for (const Node& c : n.children) write_html(c, out);
  out.append("</");
  out.append(tag);
  out.push_back('>');
}

std::string to_html(const Node& n) {
  std::string out;
  write_html(n, out);
  return out;
}

std::string inner_html(const Node& n) {
  std::string out;
  for (const Node& c : n.children) write_html(c, out);
  return out;
}

}  // namespace fitz::live
