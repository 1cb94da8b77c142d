// The route trie: templates are compiled once at startup; a request walks one node per path
// segment (static children first, then the parameter child, with backtracking).
#include "http/internal.h"

namespace fitz::http {

namespace {

bool is_ident(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool is_param_segment(std::string_view seg) {
  return seg.size() >= 2 && seg.front() == '{' && seg.back() == '}';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes one path segment into `out`; false on a malformed escape.
bool decode_segment(std::string_view seg, std::string* out) {
  out->clear();
  for (size_t i = 0; i < seg.size(); ++i) {
    char c = seg[i];
    if (c == '%') {
      if (i + 2 >= seg.size()) return false;
      int h = hex_value(seg[i + 1]), l = hex_value(seg[i + 2]);
      if (h < 0 || l < 0) return false;
      out->push_back(char(h * 16 + l));
      i += 2;
    } else {
      out->push_back(c);
    }
  }
  return true;
}

}  // namespace

bool parse_template(std::string_view tmpl, std::string* path, std::vector<std::string>* params,
                    std::vector<std::string>* query, std::string* error) {
  size_t q = tmpl.find('?');
  std::string_view p = tmpl.substr(0, q);
  if (p.empty() || p[0] != '/') {
    *error = "route path must start with '/': " + std::string(tmpl);
    return false;
  }
  *path = std::string(p);
  params->clear();
  query->clear();
  size_t i = 1;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view seg = p.substr(i, j - i);
    if (seg.find('{') != std::string_view::npos || seg.find('}') != std::string_view::npos) {
      if (!is_param_segment(seg) || !is_ident(seg.substr(1, seg.size() - 2))) {
        *error = "bad path parameter '" + std::string(seg) + "' in route " + std::string(tmpl);
        return false;
      }
      std::string name(seg.substr(1, seg.size() - 2));
      for (const auto& n : *params)
        if (n == name) {
          *error = "repeated path parameter '" + name + "' in route " + std::string(tmpl);
          return false;
        }
      params->push_back(name);
    }
    i = j + 1;
  }
  if (q != std::string_view::npos) {
    std::string_view rest = tmpl.substr(q + 1);
    while (!rest.empty()) {
      size_t amp = rest.find('&');
      std::string_view kv = rest.substr(0, amp);
      size_t eq = kv.find('=');
      std::string_view key = kv.substr(0, eq);
      std::string_view val = eq == std::string_view::npos ? std::string_view() : kv.substr(eq + 1);
      if (!is_param_segment(val) || val.substr(1, val.size() - 2) != key || !is_ident(key)) {
        *error = "query part '" + std::string(kv) + "' must be key={key} in route " + std::string(tmpl);
        return false;
      }
      std::string name(key);
      for (const auto& n : *params)
        if (n == name) {
          *error = "repeated parameter '" + name + "' in route " + std::string(tmpl);
          return false;
        }
      for (const auto& n : *query)
        if (n == name) {
          *error = "repeated parameter '" + name + "' in route " + std::string(tmpl);
          return false;
        }
      query->push_back(name);
      if (amp == std::string_view::npos) break;
      rest = rest.substr(amp + 1);
    }
  }
  return true;
}

bool Router::add(Method m, std::string_view path, uint32_t route_id, std::string* error) {
  uint32_t node = 0;
  size_t i = 1;
  if (path == "/") i = path.size() + 1;  // the root has no segments
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view seg = path.substr(i, j - i);
    uint32_t next = kNone;
    if (is_param_segment(seg)) {
      next = nodes_[node].param_child;
      if (next == kNone) {
        next = uint32_t(nodes_.size());
        nodes_.push_back(Node{});
        nodes_[node].param_child = next;
      }
    } else {
      std::string decoded;
      if (!decode_segment(seg, &decoded)) {
        *error = "bad percent-escape in route " + std::string(path);
        return false;
      }
      for (auto& [s, child] : nodes_[node].statics)
        if (s == decoded) next = child;
      if (next == kNone) {
        next = uint32_t(nodes_.size());
        nodes_[node].statics.emplace_back(decoded, next);
        nodes_.push_back(Node{});
      }
    }
    node = next;
    i = j + 1;
  }
  Node& n = nodes_[node];
  if (n.routes[size_t(m)] != kNone) {
    *error = std::string("repeated route ") + method_name(m) + " " + std::string(path);
    return false;
  }
  n.routes[size_t(m)] = route_id;
  n.mask |= 1u << unsigned(m);
  return true;
}

bool Router::walk(uint32_t node, std::string_view rest, Method m, std::vector<Str>* params,
                  Match* fallback, Match* out) const {
  const Node& n = nodes_[node];
  if (rest.empty()) {
    if (n.mask == 0) return false;
    uint32_t r = n.routes[size_t(m)];
    if (r == kNone && m == Method::Head) r = n.routes[size_t(Method::Get)];
    if (r != kNone) {
      out->kind = Match::Found;
      out->route_id = r;
      out->node = node;
      out->allow_mask = n.mask;
      return true;
    }
    if (fallback->kind == Match::NotFound) {
      fallback->kind = Match::MethodNotAllowed;
      fallback->node = node;
      fallback->allow_mask = n.mask;
    }
    return false;
  }
  // rest starts with '/'
  size_t j = rest.find('/', 1);
  if (j == std::string_view::npos) j = rest.size();
  std::string_view seg = rest.substr(1, j - 1);
  std::string_view tail = rest.substr(j);
  std::string decoded;
  std::string_view key = seg;
  if (seg.find('%') != std::string_view::npos) {
    if (!decode_segment(seg, &decoded)) return false;
    key = decoded;
  }
  for (const auto& [s, child] : n.statics)
    if (s == key && walk(child, tail, m, params, fallback, out)) return true;
  // An empty segment (`/todos/`) names nothing: it does not bind a parameter, so the request
  // is a 404 rather than a 400 about an empty `id`.
  if (n.param_child != kNone && !key.empty()) {
    size_t mark = params->size();
    params->push_back(Str(key.data(), key.size()));
    if (walk(n.param_child, tail, m, params, fallback, out)) return true;
    params->resize(mark);
  }
  return false;
}

Router::Match Router::match(Method m, std::string_view path, std::vector<Str>* params) const {
  Match out, fallback;
  params->clear();
  if (path.empty() || path[0] != '/') return out;
  std::string_view rest = path == "/" ? std::string_view() : path;
  if (walk(0, rest, m, params, &fallback, &out)) return out;
  params->clear();
  return fallback.kind == Match::MethodNotAllowed ? fallback : out;
}

std::string Router::allow_header(uint32_t mask) {
  std::string s;
  static const Method order[] = {Method::Get, Method::Head, Method::Post, Method::Put,
                                 Method::Patch, Method::Delete, Method::Options};
  for (Method m : order) {
    bool on = mask & (1u << unsigned(m));
    if (m == Method::Head && (mask & (1u << unsigned(Method::Get)))) on = true;
    if (!on) continue;
    if (!s.empty()) s += ", ";
    s += method_name(m);
  }
  return s;
}

}  // namespace fitz::http
