// The lints that need one walk over a module's AST with its typed tables: each visit reads what
// the checker decided (symbols, types, call targets) and appends findings. Used by lint.cpp.
#pragma once

#include <vector>

#include "checker/tir.h"
#include "frontend/diagnostics.h"

namespace fitz::lint {

// Appends the findings for one checked module to `out`.
void lint_module(const checker::TypedProgram& program, const checker::ModuleTir& tir,
                 const frontend::Ast& ast, std::vector<frontend::Diagnostic>& out);

}  // namespace fitz::lint
