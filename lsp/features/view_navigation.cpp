// Definition, document symbols and rename on a view, from the view IR and (inside code) the
// generated module's index.
#include <fmt/format.h>

#include <algorithm>

#include "lsp/features/view_features.h"
#include "lsp/features/view_index.h"

namespace fitz::lsp {

std::vector<Span> view_definition(const Analysis& a, const checker::ViewFile& file, uint32_t offset) {
  std::vector<Span> out;
  std::optional<ViewSource> v = view_source(a, file);
  if (!v) return out;
  ViewTarget t = view_target_at(*v, offset);
  switch (t.kind) {
    case ViewTarget::Kind::Field: out.push_back(t.field->span); break;
    case ViewTarget::Kind::Event: out.push_back(t.event->span); break;
    case ViewTarget::Kind::Component: out.push_back(t.component->span); break;
    case ViewTarget::Kind::Code:
      for (const Span& s : definition(a, v->code, t.code_offset)) {
        if (s.file != v->code_file) out.push_back(s);  // a real module's declaration
        else if (auto at = v->to_view(s)) out.push_back(*at);
      }
      break;
    case ViewTarget::Kind::None: break;
  }
  return out;
}

std::vector<DocumentSymbol> view_document_symbols(const Analysis& a, const checker::ViewFile& file) {
  std::vector<DocumentSymbol> out;
  std::optional<ViewSource> v = view_source(a, file);
  if (!v) return out;
  const auto& comps = file.components;
  for (size_t i = 0; i < comps.size(); ++i) {
    const checker::ViewComponent& c = comps[i];
    size_t kw = v->text.rfind("component", c.span.begin);
    uint32_t begin = kw == std::string_view::npos ? c.span.begin : static_cast<uint32_t>(kw);
    uint32_t end = static_cast<uint32_t>(v->text.size());
    if (i + 1 < comps.size()) {
      size_t next = v->text.rfind("component", comps[i + 1].span.begin);
      if (next != std::string_view::npos && next > c.span.end) end = static_cast<uint32_t>(next);
    }
    // Up to the component's closing brace, the last one before the next component.
    size_t close = v->text.substr(0, end).rfind('}');
    if (close != std::string_view::npos && close >= c.span.end) end = static_cast<uint32_t>(close + 1);
    DocumentSymbol s{c.name, "component", SymbolKind::Type, v->span(begin, end), c.span, {}};
    auto field = [&](const checker::ViewField& f, const char* origin) {
      uint32_t fend = std::max(f.span.end, f.type_span.end);
      if (f.default_value) fend = std::max(fend, f.default_value->span.end);
      s.children.push_back({f.name, fmt::format("{}: {}", origin, f.type_text), SymbolKind::Field, v->span(f.span.begin, fend), f.span, {}});
    };
    for (const auto& f : c.props) field(f, "prop");
    for (const auto& f : c.state) field(f, "state");
    for (const auto& f : c.derived) field(f, "derived");
    // `async` in the detail: whether a handler may await (and runs as a task) is its signature.
    auto handler = [&](const checker::ViewHandler& h, const std::string& name, const char* detail) {
      uint32_t hend = std::max(h.span.end, h.body_span.end);
      std::string shown = h.is_async ? fmt::format("async {}", detail) : detail;
      s.children.push_back({name, std::move(shown), SymbolKind::Method, v->span(h.span.begin, hend), h.span, {}});
    };
    for (const auto& h : c.events) handler(h, h.name, "event");
    for (const auto& h : c.hooks) handler(h, "on " + h.name, "hook");
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

// The event bindings of `c`'s template that name its handler `event`.
std::vector<Span> event_uses(const checker::ViewComponent& c, std::string_view event) {
  std::vector<Span> out;
  for_each_view_node(c.template_nodes, [&](const checker::ViewNode& n) {
    for (const auto& at : n.attrs)
      if (at.kind == checker::ViewAttr::Kind::Event && at.value == event) out.push_back(at.span);
  });
  return out;
}

// What may be renamed: state fields and events of a component of this file.
bool renamable(const ViewSource& v, const ViewTarget& t, std::string& error) {
  bool own = t.owner && std::any_of(v.file->components.begin(), v.file->components.end(),
                                    [&](const checker::ViewComponent& c) { return &c == t.owner; });
  if (t.kind == ViewTarget::Kind::Event && own) return true;
  if (t.kind == ViewTarget::Kind::Field && own && std::string_view(t.origin) == "state field") return true;
  error = t.kind == ViewTarget::Kind::Field ? "only state fields and events of a view can be renamed here"
                                            : "only state fields and events of a view can be renamed";
  return false;
}

}  // namespace

std::optional<RenameTarget> view_prepare_rename(const Analysis& a, const checker::ViewFile& file, uint32_t offset,
                                                std::string& error) {
  std::optional<ViewSource> v = view_source(a, file);
  if (!v) return std::nullopt;
  ViewTarget t = view_target_at(*v, offset);
  if (!renamable(*v, t, error)) return std::nullopt;
  return RenameTarget{t.span, t.field ? t.field->name : t.event->name};
}

std::optional<std::map<std::filesystem::path, std::vector<Edit>>> view_rename(const Analysis& a,
                                                                              const checker::ViewFile& file,
                                                                              uint32_t offset,
                                                                              const std::string& new_name,
                                                                              std::string& error) {
  std::optional<ViewSource> v = view_source(a, file);
  if (!v) return std::nullopt;
  ViewTarget t = view_target_at(*v, offset);
  if (!renamable(*v, t, error)) return std::nullopt;
  if (!is_valid_identifier(new_name)) {
    error = fmt::format("`{}` is not a valid name", new_name);
    return std::nullopt;
  }
  const checker::ViewComponent& c = *t.owner;
  bool taken = view_field(c, new_name, nullptr) != nullptr;
  for (const auto& h : c.events) taken |= h.name == new_name;
  if (taken) {
    error = fmt::format("`{}` already names a field or event of `{}`", new_name, c.name);
    return std::nullopt;
  }
  std::vector<Span> spans;
  if (t.event) {
    spans.push_back(t.event->span);
    for (const Span& s : event_uses(c, t.event->name)) spans.push_back(s);
  } else {
    spans.push_back(t.field->span);
    for (const Span& s : view_field_uses(*v, c, t.field->name)) spans.push_back(s);
  }
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.begin < y.begin; });
  spans.erase(std::unique(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.begin == y.begin; }),
              spans.end());
  std::map<std::filesystem::path, std::vector<Edit>> out;
  for (const Span& s : spans) out[file.path].push_back({s, new_name});
  return out;
}

}  // namespace fitz::lsp
