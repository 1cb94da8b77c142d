// Semantic tokens of a view: the generated module's tokens of the code copied from the view,
// and the view's own names classified from the view IR.
#include <algorithm>

#include "lsp/features/view_features.h"
#include "lsp/features/view_index.h"

namespace fitz::lsp {

std::vector<SemanticToken> view_semantic_tokens(const Analysis& a, const checker::ViewFile& file) {
  std::vector<SemanticToken> out;
  std::optional<ViewSource> v = view_source(a, file);
  if (!v) return out;
  auto add = [&](Span s, TokenType type, uint8_t mods) {
    if (s.end > s.begin) out.push_back({s.begin, s.end, type, mods});
  };
  // The view's names first: on a tie below they win over the generated module's reading.
  for (const auto& c : file.components) {
    add(c.span, TokenType::Struct, kDeclaration);
    for (const auto& f : c.props) add(f.span, TokenType::Property, kDeclaration | kReadonly);
    for (const auto& f : c.state) add(f.span, TokenType::Property, kDeclaration);
    for (const auto& f : c.derived) add(f.span, TokenType::Property, kDeclaration | kReadonly);
    for (const auto& h : c.events) add(h.span, TokenType::Method, kDeclaration);
    const std::pair<const std::vector<checker::ViewField>*, uint8_t> lists[] = {
        {&c.props, kReadonly}, {&c.state, 0}, {&c.derived, kReadonly}};
    for (const auto& [list, mods] : lists)
      for (const auto& f : *list)
        for (const Span& s : view_field_uses(*v, c, f.name)) add(s, TokenType::Property, mods);
    for_each_view_node(c.template_nodes, [&](const checker::ViewNode& n) {
      if (n.kind == checker::ViewNode::Kind::Component) add(n.span, TokenType::Struct, 0);
      for (const auto& at : n.attrs)
        if (at.kind == checker::ViewAttr::Kind::Event) add(at.span, TokenType::Method, 0);
    });
  }
  if (v->code.valid()) {
    const frontend::Module& m = a.module(v->code);
    std::string_view code = a.sources.file(v->code_file).text();
    for (const SemanticToken& t : semantic_tokens(m.tree, code, &a, v->code))
      if (auto at = v->to_view(Span{v->code_file, t.begin, t.end})) add(*at, t.type, t.modifiers);
  }
  std::stable_sort(out.begin(), out.end(), [](const SemanticToken& x, const SemanticToken& y) { return x.begin < y.begin; });
  std::vector<SemanticToken> merged;
  for (const SemanticToken& t : out)
    if (merged.empty() || t.begin >= merged.back().end) merged.push_back(t);
  return merged;
}

}  // namespace fitz::lsp
