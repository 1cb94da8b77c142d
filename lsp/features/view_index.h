// What is where in a `.fitzv` live view, for the editor features on views (view_*.cpp). The
// view IR (checker/view_model.h) says what the view declares and uses; the code written in the
// view was checked as part of a generated module, so a position inside that code is mapped into
// the generated module (through ViewChecker::code_map) and answered from its TIR. Nothing here
// types anything itself.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/view_model.h"
#include "lsp/features/features.h"

namespace fitz::lsp {

// One view file of an analysis with its generated module and the position map between them.
struct ViewSource {
  const Analysis* a = nullptr;
  const checker::ViewFile* file = nullptr;
  std::string_view text;                       // the .fitzv text the analysis read
  ModuleId code;                               // the generated module (invalid: syntax errors)
  frontend::FileId code_file;
  std::vector<checker::ViewCodeSpan> map;

  // The generated-module offset of a view offset inside copied code.
  std::optional<uint32_t> to_code(uint32_t view_offset) const;
  // A span of the generated module back in the view; nullopt for generated glue.
  std::optional<Span> to_view(Span code_span) const;
  // The component whose declaration holds `offset` (components follow each other in a file).
  const checker::ViewComponent* component_at(uint32_t offset) const;
  Span span(uint32_t begin, uint32_t end) const { return Span{file->file, begin, end}; }
};

std::optional<ViewSource> view_source(const Analysis& a, const checker::ViewFile& file);

// What the cursor is on, in the view's own terms.
struct ViewTarget {
  enum class Kind : uint8_t { None, Field, Event, Component, Code };
  Kind kind = Kind::None;
  Span span;                                          // the name under the cursor
  const checker::ViewComponent* owner = nullptr;      // the field's or event's component
  const checker::ViewField* field = nullptr;
  const char* origin = "";                            // "prop", "state field", "derived value"
  const checker::ViewHandler* event = nullptr;
  const checker::ViewComponent* component = nullptr;  // Kind::Component
  uint32_t code_offset = 0;                           // Kind::Code: in the generated module
};

ViewTarget view_target_at(const ViewSource& v, uint32_t offset);

// The field of `c` named `name` with its origin, or null.
const checker::ViewField* view_field(const checker::ViewComponent& c, std::string_view name, const char** origin);

// The component a tag of `v` names (its own file's, or an imported view's).
const checker::ViewComponent* view_component(const Analysis& a, std::string_view name);

// Each template node of `c`, depth first.
void for_each_view_node(const checker::ViewNodes& nodes, const std::function<void(const checker::ViewNode&)>& f);

// The occurrences of view code that read or write the field `name` of the component around them
// (bodies, template expressions, bindings), as view spans.
std::vector<Span> view_field_uses(const ViewSource& v, const checker::ViewComponent& c, std::string_view name);

}  // namespace fitz::lsp
