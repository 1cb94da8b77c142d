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

// lower_module for an edited file: `previous` is the AST of an earlier content of the same file,
// `previous_text` parsed as `previous_tree`, lowered without diagnostics. The top-level items
// whose text did not change are moved out of it (renumbered and shifted) instead of lowered
// again; the result is what lower_module returns.
Ast lower_module_reusing(const SourceFile& source, FileId file, const SyntaxTree& tree, DiagnosticBag& diags,
                         Ast previous, std::string_view previous_text, const SyntaxTree& previous_tree);

// For a file lowered before its final id was known (SourceManager::adopt): moves every span of
// `ast`, and of the diagnostics its lowering reported, from `ast.file` to `to`.
void refile(Ast& ast, std::vector<Diagnostic>& diagnostics, FileId to);

// Parse + lower in one call.
Ast parse_module(const SourceFile& source, FileId file, DiagnosticBag& diags, SyntaxTree* tree_out = nullptr);

// A stable, readable dump of the AST for golden tests (`fitz check --dump=ast`).
std::string dump_ast(const Ast& ast, const SourceFile& source);

}  // namespace fitz::frontend
