// The route template parser (route_template.h): the path before `?` is what the router
// matches; after it, `key={name}` pairs joined by `&` bind query parameters.
#include "checker/route_template.h"

#include <algorithm>

namespace fitz::checker {

std::vector<TemplatePiece> template_pieces(const frontend::StrLit& lit, const frontend::Ast& ast,
                                           const frontend::SourceFile& file) {
  std::vector<TemplatePiece> out;
  for (const frontend::StrPart& p : lit.parts) {
    if (p.is_hole())
      out.push_back(TemplatePiece{true, std::string(file.slice(ast.get(p.hole).span))});
    else
      out.push_back(TemplatePiece{false, p.text});
  }
  return out;
}

RouteTemplate parse_route_template(const std::vector<TemplatePiece>& pieces, std::vector<TemplateProblem>* problems) {
  RouteTemplate t;
  bool in_query = false;
  std::string key;  // the query key being read, up to its `=`
  auto seen = [&](const std::string& name) {
    return std::find(t.path_params.begin(), t.path_params.end(), name) != t.path_params.end() ||
           std::any_of(t.query.begin(), t.query.end(), [&](const RouteTemplate::Query& q) { return q.param == name; });
  };
  for (const TemplatePiece& p : pieces) {
    if (p.hole) {
      t.text += "{" + p.text + "}";
      if (!in_query) t.path += "{" + p.text + "}";
      if (problems && seen(p.text)) problems->push_back({TemplateProblem::Kind::Repeated, p.text, ""});
      if (in_query) {
        if (problems && key != p.text) problems->push_back({TemplateProblem::Kind::QueryKeyMismatch, p.text, key});
        t.query.push_back(RouteTemplate::Query{key, p.text});
      } else {
        t.path_params.push_back(p.text);
      }
      continue;
    }
    t.text += p.text;
    for (char c : p.text) {
      if (!in_query) {
        if (c == '?') {
          in_query = true;
          key.clear();
        } else {
          t.path += c;
        }
      } else if (c == '&') {
        key.clear();
      } else if (c != '=') {
        key += c;
      }
    }
  }
  return t;
}

}  // namespace fitz::checker
