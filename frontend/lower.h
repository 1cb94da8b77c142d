// Lowering: the tree-sitter tree of one file becomes its AST. Syntax errors (ERROR and MISSING
// nodes, and the constructs the grammar accepts only to report them) become diagnostics here.
#pragma once

#include <string>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/source.h"
#include "frontend/syntax_tree.h"

namespace fitz::frontend {

// Never fails: what cannot be lowered becomes an Error node plus a diagnostic, and lowering
// goes on, so one file with three syntax errors gets three diagnostics.
Ast lower_module(const SourceFile& source, FileId file, const SyntaxTree& tree, DiagnosticBag& diags);

// Parse + lower in one call.
Ast parse_module(const SourceFile& source, FileId file, DiagnosticBag& diags, SyntaxTree* tree_out = nullptr);

// A stable, readable dump of the AST for golden tests (`fitz check --dump=ast`).
std::string dump_ast(const Ast& ast, const SourceFile& source);

}  // namespace fitz::frontend
