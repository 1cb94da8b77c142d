// Shared pieces of the OpenAPI generator: the document under construction, JSON schemas of
// checker types, literal values and comments read from the AST and the source text.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "checker/tir.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::openapi::detail {

// Insertion order is the output order, which keeps the document stable for goldens.
using Json = nlohmann::ordered_json;

using checker::StructId;
using checker::TypeId;
using frontend::ExprId;
using frontend::ModuleId;

class Schemas {
 public:
  Schemas(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
          const frontend::SourceManager& sources);

  // The schema of values of type `t` as the JSON encoder writes them and the decoder reads them.
  Json of_type(TypeId t);
  // The schema of one expression: map literals with string keys become objects with those
  // properties; anything else is the schema of the expression's type.
  Json of_expr(ModuleId module, ExprId e);
  // `{"error": "..."}`, the body of every error response.
  Json error_ref();
  // components/schemas: every user type referenced so far (and what those reference), by name.
  Json components();

 private:
  std::string component_name(StructId id);
  Json struct_schema(StructId id);

  const checker::TypedProgram& program_;
  const frontend::ModuleGraph& graph_;
  const frontend::SourceManager& sources_;
  std::map<uint32_t, std::string> names_;  // user struct -> component name
  std::vector<StructId> referenced_;       // in order of first reference
  std::string error_name_;                 // empty until the error schema is used
};

// `{"type": X}` -> `{"type": [X, "null"]}`, otherwise `anyOf` with null.
Json nullable(Json schema);

// The JSON value of a constant expression (literals, negated numbers, lists and maps of them).
std::optional<Json> literal_value(const frontend::Ast& ast, ExprId e);

// `servers[0]`: the address `@server` gives (its literal host and port), else the runtime's
// defaults; a computed host or port becomes a server variable holding the default.
Json server_of(const checker::ServiceModel& model);

// `info.license` from fitz.toml's `license`: an SPDX expression is also its `identifier`.
Json license_of(const std::string& text);

// Status code -> reason phrase used as the response description.
std::string reason_phrase(int status);

}  // namespace fitz::openapi::detail
