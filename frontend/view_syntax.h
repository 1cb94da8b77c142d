// Live views (`.fitzv`) at the syntax level: the tree-sitter parse of a view and its syntax
// errors as diagnostics. Fitz code stays opaque tokens in this tree; checking views is later.
#pragma once

#include <string_view>

#include "frontend/diagnostics.h"
#include "frontend/source.h"
#include "frontend/syntax_tree.h"

namespace fitz::frontend {

// The tree-sitter language of `.fitzv` files (frontend/grammar-fitzv).
const TSLanguage* fitzv_language();

// Parses a view (any bytes; never fails).
SyntaxTree parse_view_text(std::string_view text);

// True for a path whose extension is `.fitzv`.
bool is_view_path(std::string_view path);

// Reports the tree's ERROR and MISSING nodes against `file`: one diagnostic per ERROR (at its
// first problem) and per MISSING token, capped so that garbage input stays readable.
void report_view_syntax_errors(const SyntaxTree& tree, const SourceFile& file, DiagnosticBag& diags);

}  // namespace fitz::frontend
