// OpenAPI 3.1 from the typed program: paths and operations from route decorators, parameters
// and bodies from handler parameter types, responses from what handlers can return, and
// components/schemas from user types. The same text is printed by `fitz openapi` and embedded
// by codegen into the service binary (served at /openapi.json), so output is deterministic.
#pragma once

#include <string>

#include "checker/tir.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::openapi {

struct Options {
  // info.title; empty: the manifest's package name, else the root file's stem.
  std::string title;
  // Spaces per indentation level of the JSON text; 0 or less: compact, on one line.
  int indent = 2;
};

// Returns the OpenAPI document as JSON text (ending without a newline). The program should be
// free of errors; handlers or types the checker rejected are described as far as they resolve.
// `sources` gives the comments written above handlers and types, used as descriptions.
std::string generate(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                     const frontend::SourceManager& sources, const Options& options = {});

}  // namespace fitz::openapi
