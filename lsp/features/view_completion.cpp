// Completion in a view. The context comes from the buffer (the user is typing); the names from
// the view IR of the latest analysis.
#include <fmt/format.h>

#include <cctype>

#include "lsp/features/view_features.h"
#include "lsp/features/view_index.h"

namespace fitz::lsp {

namespace {

bool view_ident_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

// Inside `<template>` ... `</template>` of the buffer.
bool in_template(std::string_view text, uint32_t offset) {
  std::string_view before = text.substr(0, offset);
  size_t open = before.rfind("<template>");
  size_t close = before.rfind("</template>");
  return open != std::string_view::npos && (close == std::string_view::npos || close < open);
}

// The tag the cursor is inside of (`<Child a="x" |`), or empty.
std::string_view open_tag(std::string_view text, uint32_t offset) {
  std::string_view before = text.substr(0, offset);
  size_t lt = before.rfind('<');
  if (lt == std::string_view::npos || before.find('>', lt) != std::string_view::npos) return {};
  size_t end = lt + 1;
  while (end < before.size() && view_ident_char(before[end])) ++end;
  return before.substr(lt + 1, end - lt - 1);
}

// An interpolation or directive is open at the cursor: a `{` with no `}` after it.
bool in_braces(std::string_view text, uint32_t offset) {
  std::string_view before = text.substr(0, offset);
  size_t open = before.rfind('{');
  return open != std::string_view::npos && before.find('}', open) == std::string_view::npos;
}

CompletionItem item(std::string label, CompletionKind kind, std::string detail) {
  CompletionItem c;
  c.label = std::move(label);
  c.kind = kind;
  c.detail = std::move(detail);
  return c;
}

std::string view_shown(const Analysis& a, checker::TypeId t, const std::string& written) {
  return t.valid() && !a.program.types->is_error(t) ? a.program.types->display(t) : written;
}

}  // namespace

std::vector<CompletionItem> view_completion(const Analysis& a, const checker::ViewFile& file, std::string_view text,
                                            uint32_t offset) {
  std::vector<CompletionItem> out;
  std::optional<ViewSource> v = view_source(a, file);
  if (!v || offset > text.size()) return out;
  uint32_t start = offset;
  while (start > 0 && view_ident_char(text[start - 1])) --start;
  char before = start > 0 ? text[start - 1] : '\0';
  // The IR is of the analysed text: good enough to find the component around the cursor.
  const checker::ViewComponent* c = v->component_at(std::min<uint32_t>(offset, static_cast<uint32_t>(v->text.size())));
  if (!c) return out;
  bool templ = in_template(text, offset);

  if (before == '@' && templ) {
    for (const auto& h : c->events) out.push_back(item(h.name, CompletionKind::Function, "event of " + c->name));
    return out;
  }
  if (before == '<' && templ) {
    for (const auto& f : a.views.files)
      for (const auto& comp : f.components)
        if (&comp != c) out.push_back(item(comp.name, CompletionKind::Type, "component"));
    return out;
  }
  std::string_view tag = open_tag(text, start);
  if (templ && !tag.empty() && std::isupper(static_cast<unsigned char>(tag[0])) && !in_braces(text, start) &&
      std::isspace(static_cast<unsigned char>(before))) {
    if (const checker::ViewComponent* child = view_component(a, tag))
      for (const auto& f : child->has_props_block ? child->props : child->state) {
        CompletionItem it = item(f.name, CompletionKind::Field,
                                 fmt::format("{}{}", view_shown(a, f.type, f.type_text), f.required() ? "" : " (optional)"));
        it.insert_text = f.name + "=";
        out.push_back(std::move(it));
      }
    return out;
  }
  if (templ && in_braces(text, start)) {
    if (before == '.') {
      // A member: what the generated module's completion says of the value before the dot.
      if (auto code = v->to_code(start)) return completion(a, v->code, a.sources.file(v->code_file).text(), *code);
      return out;
    }
    if (before == '#' || before == ':' || before == '/') {
      const char* directives[][2] = {{"#", "if"}, {"#", "for"}, {":", "else"}, {":", "empty"}, {"/", "if"}, {"/", "for"}};
      for (const auto& d : directives)
        if (before == d[0][0]) out.push_back(item(d[1], CompletionKind::Keyword, fmt::format("{{{}{}}}", d[0], d[1])));
      return out;
    }
    if (before == '{') {
      for (const char* d : {"#if", "#for", ":else", ":empty", "/if", "/for"})
        out.push_back(item(d, CompletionKind::Keyword, "directive"));
    }
    // The names a template sees (views.md §1.4): loop variables come from the generated code.
    const std::pair<const std::vector<checker::ViewField>*, const char*> lists[] = {
        {&c->derived, "derived value"}, {&c->state, "state field"}, {&c->props, "prop"}};
    for (const auto& [list, what] : lists)
      for (const auto& f : *list)
        out.push_back(item(f.name, CompletionKind::Field, fmt::format("{}: {} ({})", f.name, view_shown(a, f.type, f.type_text), what)));
    return out;
  }
  // An event or hook body: what completion offers there in the generated module.
  if (auto code = v->to_code(offset)) {
    std::string_view generated = a.sources.file(v->code_file).text();
    return completion(a, v->code, generated, *code);
  }
  return out;
}

}  // namespace fitz::lsp
