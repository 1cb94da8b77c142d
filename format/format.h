// `fitz fmt` as a library: formats one Fitz source file from its tree-sitter tree (comments
// included), for the CLI and the language server's formatting request.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace fitz::format {

struct FormatOptions {
  uint32_t width = 100;  // columns, in Unicode scalars
  uint32_t indent = 4;   // spaces per level
};

// The formatted text of `file`, or nullopt when the file has syntax errors (reported into
// `diags`, the file's own diagnostics). Every result is checked before it is returned: it must
// parse, have the same AST (positions aside) and the same comments as the input. If that check
// fails the formatter has a bug: nullopt again, with `internal_error` (when given) saying what
// differed, and no diagnostic.
std::optional<std::string> format_source(const frontend::SourceFile& file, frontend::DiagnosticBag& diags,
                                         const FormatOptions& options = {}, std::string* internal_error = nullptr);

// The same for a text without a file (tests, tools): nullopt on syntax errors or a failed check.
std::optional<std::string> format_text(std::string_view text, const FormatOptions& options = {});

// The layout alone, without the syntax-error refusal and the check: for tests and debugging.
std::string format_unchecked(std::string_view text, const FormatOptions& options = {});

// The AST dump of `text` without positions: equal for two texts that mean the same program.
// Used by the check above and by tests.
std::string ast_fingerprint(std::string_view text);

}  // namespace fitz::format
