// Positions in a view: the map into its generated module, and what the cursor is on.
#include "lsp/features/view_index.h"

#include "lsp/features/index.h"

namespace fitz::lsp {

using checker::ViewAttr;
using checker::ViewComponent;
using checker::ViewField;
using checker::ViewNode;

std::optional<ViewSource> view_source(const Analysis& a, const checker::ViewFile& file) {
  if (!a.sources.find(file.file)) return std::nullopt;
  ViewSource v;
  v.a = &a;
  v.file = &file;
  v.text = a.sources.file(file.file).text();
  if (file.code_module.valid() && file.code_module.index < a.graph.modules.size()) {
    v.code = file.code_module;
    v.code_file = a.graph.get(file.code_module).file;
    if (a.view_checker) v.map = a.view_checker->code_map(file.path);
  }
  return v;
}

std::optional<uint32_t> ViewSource::to_code(uint32_t off) const {
  std::optional<uint32_t> at_end;
  for (const auto& s : map) {
    uint32_t len = s.code_end - s.code_begin;
    if (off < s.view_begin || off > s.view_begin + len) continue;
    if (off < s.view_begin + len) return s.code_begin + (off - s.view_begin);
    at_end = s.code_end;  // just after the code: a name being typed
  }
  return at_end;
}

std::optional<Span> ViewSource::to_view(Span s) const {
  if (s.file != code_file) return std::nullopt;
  for (const auto& seg : map)
    if (s.begin >= seg.code_begin && s.end <= seg.code_end)
      return span(seg.view_begin + (s.begin - seg.code_begin), seg.view_begin + (s.end - seg.code_begin));
  return std::nullopt;
}

const ViewComponent* ViewSource::component_at(uint32_t offset) const {
  const ViewComponent* best = nullptr;
  for (const ViewComponent& c : file->components) {
    // The keyword before the name belongs to the component too.
    size_t kw = text.rfind("component", c.span.begin);
    uint32_t begin = kw == std::string_view::npos ? c.span.begin : static_cast<uint32_t>(kw);
    if (begin <= offset && (!best || c.span.begin > best->span.begin)) best = &c;
  }
  if (!best && !file->components.empty()) best = &file->components.front();
  return best;
}

const ViewField* view_field(const ViewComponent& c, std::string_view name, const char** origin) {
  const std::pair<const std::vector<ViewField>*, const char*> lists[] = {
      {&c.props, "prop"}, {&c.state, "state field"}, {&c.derived, "derived value"}};
  for (const auto& [list, what] : lists)
    for (const ViewField& f : *list)
      if (f.name == name) {
        if (origin) *origin = what;
        return &f;
      }
  return nullptr;
}

const ViewComponent* view_component(const Analysis& a, std::string_view name) { return a.views.find(name); }

void for_each_view_node(const checker::ViewNodes& nodes, const std::function<void(const ViewNode&)>& f) {
  for (const ViewNode& n : nodes) {
    f(n);
    for_each_view_node(n.children, f);
    for_each_view_node(n.empty, f);
    for (const auto& b : n.branches) for_each_view_node(b, f);
  }
}

namespace {

bool within(Span s, uint32_t offset) { return s.begin <= offset && offset <= s.end; }

// The props a parent sets on a child: its `props` block, or its state for the props-less form.
const std::vector<ViewField>& settable(const ViewComponent& c) { return c.has_props_block ? c.props : c.state; }

// A local of a generated body that stands for a prop, state field or derived value: the
// generated code declares those at the start of a line, two spaces in (`  name: T = ...`).
bool is_field_local(const ViewSource& v, Span decl, std::string_view name) {
  if (decl.file != v.code_file || decl.begin < 3 || v.to_view(decl)) return false;
  std::string_view code = v.a->sources.file(v.code_file).text();
  if (code.substr(decl.begin - 3, 3) != "\n  ") return false;
  return code.substr(decl.begin, name.size() + 1) == std::string(name) + ":";
}

}  // namespace

ViewTarget view_target_at(const ViewSource& v, uint32_t off) {
  ViewTarget t;
  const ViewComponent* c = v.component_at(off);
  if (!c) return t;
  if (within(c->span, off)) {
    t.kind = ViewTarget::Kind::Component;
    t.span = c->span;
    t.component = c;
    return t;
  }
  for (const char* what : {"prop", "state field", "derived value"}) {
    const auto& list = what[0] == 'p' ? c->props : what[0] == 's' ? c->state : c->derived;
    for (const ViewField& f : list)
      if (within(f.span, off)) {
        t.kind = ViewTarget::Kind::Field;
        t.span = f.span;
        t.owner = c;
        t.field = &f;
        t.origin = what;
        return t;
      }
  }
  for (const auto& h : c->events)
    if (within(h.span, off)) {
      t.kind = ViewTarget::Kind::Event;
      t.span = h.span;
      t.owner = c;
      t.event = &h;
      return t;
    }
  for_each_view_node(c->template_nodes, [&](const ViewNode& n) {
    if (t.kind != ViewTarget::Kind::None) return;
    const ViewComponent* child = n.kind == ViewNode::Kind::Component ? view_component(*v.a, n.tag) : nullptr;
    if (n.kind == ViewNode::Kind::Component && within(n.span, off) && child) {
      t.kind = ViewTarget::Kind::Component;
      t.span = n.span;
      t.component = child;
      return;
    }
    for (const ViewAttr& at : n.attrs) {
      if (at.kind == ViewAttr::Kind::Event && within(at.span, off)) {
        for (const auto& h : c->events)
          if (h.name == at.value) {
            t.kind = ViewTarget::Kind::Event;
            t.span = at.span;
            t.owner = c;
            t.event = &h;
          }
        return;
      }
      Span name = v.span(at.span.begin, at.span.begin + static_cast<uint32_t>(at.name.size()));
      if (child && at.kind != ViewAttr::Kind::Event && within(name, off) && v.text.substr(name.begin, at.name.size()) == at.name)
        for (const ViewField& f : settable(*child))
          if (f.name == at.name) {
            t.kind = ViewTarget::Kind::Field;
            t.span = name;
            t.owner = child;
            t.field = &f;
            t.origin = child->has_props_block ? "prop" : "state field";
            return;
          }
    }
  });
  if (t.kind != ViewTarget::Kind::None) return t;
  std::optional<uint32_t> code = v.to_code(off);
  if (!code) return t;
  t.kind = ViewTarget::Kind::Code;
  t.code_offset = *code;
  if (const Occurrence* o = occurrence_at(*v.a, v.code, *code); o && o->key.kind == SymbolKey::Kind::Symbol) {
    std::optional<Span> decl = declaration_of(*v.a, o->key);
    std::optional<Span> at = v.to_view(o->span);
    std::string name(v.a->sources.file(v.code_file).slice(o->span));
    const char* origin = "";
    const ViewField* f = view_field(*c, name, &origin);
    if (f && decl && at && is_field_local(v, *decl, name)) {
      t.kind = ViewTarget::Kind::Field;
      t.span = *at;
      t.owner = c;
      t.field = f;
      t.origin = origin;
    }
  }
  return t;
}

std::vector<Span> view_field_uses(const ViewSource& v, const ViewComponent& c, std::string_view name) {
  std::vector<Span> out;
  if (!v.code.valid()) return out;
  for (const Occurrence& o : module_index(*v.a, v.code).occurrences) {
    if (o.key.kind != SymbolKey::Kind::Symbol) continue;
    std::optional<Span> at = v.to_view(o.span);
    if (!at || v.text.substr(at->begin, at->end - at->begin) != name || v.component_at(at->begin) != &c) continue;
    std::optional<Span> decl = declaration_of(*v.a, o.key);
    if (decl && is_field_local(v, *decl, name)) out.push_back(*at);
  }
  return out;
}

}  // namespace fitz::lsp
