// Hover on a view: the view IR says what a name is and the checker's types say what it holds.
#include <fmt/format.h>

#include "lsp/features/view_features.h"
#include "lsp/features/view_index.h"

namespace fitz::lsp {

namespace {

std::string view_type_text(const Analysis& a, checker::TypeId t, const std::string& written) {
  if (t.valid() && !a.program.types->is_error(t)) return a.program.types->display(t);
  return written;
}

std::string event_signature(const Analysis& a, const checker::ViewHandler& h) {
  std::string params;
  for (const auto& p : h.params)
    params += fmt::format("{}{}: {}", params.empty() ? "" : ", ", p.name, view_type_text(a, p.type, p.type_text));
  return fmt::format("{}event {}({})", h.is_async ? "async " : "", h.name, params);
}

}  // namespace

std::optional<HoverInfo> view_hover(const Analysis& a, const checker::ViewFile& file, uint32_t offset) {
  std::optional<ViewSource> v = view_source(a, file);
  if (!v) return std::nullopt;
  ViewTarget t = view_target_at(*v, offset);
  switch (t.kind) {
    case ViewTarget::Kind::Field:
      return HoverInfo{fmt::format("```fitz\n{}: {}\n```\n{} of `{}`", t.field->name, view_type_text(a, t.field->type, t.field->type_text),
                                   t.origin, t.owner->name),
                       t.span};
    case ViewTarget::Kind::Event:
      return HoverInfo{fmt::format("```fitz\n{}\n```\nevent of `{}`", event_signature(a, *t.event), t.owner->name), t.span};
    case ViewTarget::Kind::Component: {
      const checker::ViewComponent& c = *t.component;
      std::string props;
      for (const auto& p : c.has_props_block ? c.props : c.state)
        props += fmt::format("\n  {}: {}{}", p.name, view_type_text(a, p.type, p.type_text), p.required() ? "" : " = ...");
      std::string md = fmt::format("```fitz\ncomponent {}\n```", c.name);
      if (!props.empty()) md += fmt::format("\n{}:\n```fitz{}\n```", c.has_props_block ? "props" : "state", props);
      return HoverInfo{md, t.span};
    }
    case ViewTarget::Kind::Code: {
      std::optional<HoverInfo> h = hover(a, v->code, t.code_offset);
      if (!h) return std::nullopt;
      std::optional<Span> at = v->to_view(h->span);
      if (!at) return std::nullopt;  // about generated glue, which the user never wrote
      h->span = *at;
      return h;
    }
    case ViewTarget::Kind::None:
      break;
  }
  return std::nullopt;
}

}  // namespace fitz::lsp
