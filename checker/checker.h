// The checker's entry point: resolves names and types of every module of a loaded program and
// returns the typed program. Diagnostics go to the bag; checking never stops at the first one.
#pragma once

#include "checker/tir.h"
#include "frontend/diagnostics.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::checker {

struct CheckOptions {
  bool warnings = true;  // unused variables and imports, unreachable code
};

// Checks every module of `graph` in init order (a module after the modules it imports).
TypedProgram check_program(const frontend::ModuleGraph& graph, const frontend::SourceManager& sources,
                           frontend::DiagnosticBag& diags, const CheckOptions& options = {});

}  // namespace fitz::checker
