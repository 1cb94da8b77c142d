// Route templates (`/users/{id}?page={page}&q={q}`) parsed once: the checker's binding checks
// and the service model both read this parser's result, nobody splits the text again.
#pragma once

#include <string>
#include <vector>

#include "checker/service_model.h"
#include "frontend/ast.h"
#include "frontend/source.h"

namespace fitz::checker {

// One piece of a route string literal: literal text, or a `{name}` placeholder (a hole).
struct TemplatePiece {
  bool hole = false;
  std::string text;  // the literal text, or the placeholder's name
};

// What is wrong with a template; each names the placeholder concerned.
struct TemplateProblem {
  enum class Kind : uint8_t { Repeated, QueryKeyMismatch } kind;
  std::string name;  // the placeholder
  std::string key;   // QueryKeyMismatch: the key written before it
};

// The pieces of a route string literal: holes are the placeholders' source text.
std::vector<TemplatePiece> template_pieces(const frontend::StrLit& lit, const frontend::Ast& ast,
                                           const frontend::SourceFile& file);

// Parses the pieces; problems (if given) receive what the checker reports.
RouteTemplate parse_route_template(const std::vector<TemplatePiece>& pieces,
                                   std::vector<TemplateProblem>* problems = nullptr);

}  // namespace fitz::checker
