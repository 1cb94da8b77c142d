// Parsing one large file on several threads: the text is cut where top-level items begin, the
// pieces are parsed at once and lowered in order into one AST, the same AST (ids, spans,
// diagnostics) that parsing the whole file gives. Small files are parsed whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace fitz::frontend {

struct PieceLimits {
  // No piece is smaller: below this a thread and a parser cost more than they save.
  size_t min_bytes = 128 * 1024;
  // 0: four per core, so that the thread lowering the pieces can also take some to parse.
  size_t max_pieces = 0;
  // 0: one per core.
  unsigned threads = 0;
};

// Offsets where `text` may be cut into pieces of about equal size, none under
// `limits.min_bytes`: starts of lines that follow a blank line and begin with a letter, `_` or
// `@` (`else` aside), where a top-level item usually begins. Empty when the text is too small.
// A cut inside an item, a bracket, a string or a comment is possible here; parse_in_pieces
// detects it and parses the whole file instead.
std::vector<uint32_t> piece_cuts(std::string_view text, const PieceLimits& limits = {});

// Parses and lowers `source` in the pieces piece_cuts gives, on up to `limits.threads` threads.
// nullopt, with nothing reported, when the file is too small, there is one core, or a piece does
// not stand alone: it has a syntax error or ends inside a block comment. A piece that parses
// alone without an error holds whole top-level items, so lowering it gives what the whole file's
// tree gives; otherwise the whole file must be parsed, whose error recovery and diagnostics
// depend on the text around the error.
std::optional<Ast> parse_in_pieces(const SourceFile& source, FileId file, DiagnosticBag& diags,
                                   const PieceLimits& limits = {});

}  // namespace fitz::frontend
