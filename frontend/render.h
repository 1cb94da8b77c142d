// Renderers that turn Diagnostics into what people and tools read: compiler-style text for
// terminals, JSON Lines for scripts, GitHub workflow commands for CI, and LSP ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace fitz::frontend {

// ---- text (render_text.cpp) ---------------------------------------------------------------------

struct TextRenderOptions {
  bool color = false;        // ANSI colours; the caller decides (e.g. from isatty)
  uint32_t tab_width = 4;    // tabs in snippets expand to the next multiple of this
  // `path:line:col` columns in UTF-16 code units, as VS Code's problem matchers count them
  // (FITZ_DIAGNOSTIC_COLUMNS=utf16, set by the extension's tasks); else Unicode scalars.
  bool utf16_columns = false;
};

// First line is exactly `path:line:col: error[E0020]: message` (no location: `error[E0110]: …`),
// then the source line under a `|` gutter with `^~~~` under the span, `-` underlines for labels
// on the same line, `path:line:col: note: …` blocks for labels elsewhere, and `help: …` for the
// hint. Ends with a newline.
std::string render_text(Diagnostic const& diagnostic, SourceManager const& sources,
                        TextRenderOptions const& options = {});

// The closing line, e.g. "error: 3 errors, 1 warning emitted\n"; empty when both are zero.
std::string render_summary(std::size_t error_count, std::size_t warning_count, bool color = false);

// Display columns a scalar occupies in a terminal: 0 for combining marks and zero-width
// characters, 2 for East Asian wide characters and most emoji, 1 otherwise.
uint32_t display_width(char32_t cp);

// ---- JSON (render_json.cpp) ---------------------------------------------------------------------

// The stable schema, documented in docs/diagnostics.md:
// {"code","severity","message","file","span":{"start":{"line","column","offset"},"end":{…}},
//  "labels":[{"message","file","span"}],"hint","fixes":[{"file","span","replacement"}]}
// Lines and columns are 1-based, columns in Unicode scalars; "end" is exclusive. "file" and
// "span" are null for a diagnostic without a location; "hint" is null when there is none.
nlohmann::json diagnostic_to_json(Diagnostic const& diagnostic, SourceManager const& sources);

// One diagnostic as a single line of JSON followed by "\n" (JSON Lines). Invalid UTF-8 in
// messages or paths is replaced by U+FFFD rather than failing.
std::string render_json(Diagnostic const& diagnostic, SourceManager const& sources);

// Language-server positions: 0-based line, 0-based UTF-16 character.
struct LspPosition {
  uint32_t line = 0;
  uint32_t character = 0;
  friend constexpr bool operator==(LspPosition, LspPosition) = default;
};

struct LspRange {
  LspPosition start;
  LspPosition end;
  friend constexpr bool operator==(LspRange, LspRange) = default;
};

// An invalid span maps to the empty range at 0:0.
LspRange lsp_range(Span span, SourceManager const& sources);

// ---- GitHub Actions (render_github.cpp) ---------------------------------------------------------

// `::error file=path,line=L,col=C,endLine=L2,endColumn=C2,title=E0020::message` plus "\n".
// endColumn is inclusive (the column of the span's last character), as GitHub expects. The
// message carries the labels and the hint on extra (escaped) lines.
std::string render_github(Diagnostic const& diagnostic, SourceManager const& sources);

// Workflow-command escaping: data escapes `%`, `\r`, `\n`; properties also escape `:` and `,`.
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

// ---- many diagnostics at once ------------------------------------------------------------------

// In the order given (usually DiagnosticBag::sorted()); text separates diagnostics with a blank
// line, JSON and GitHub print one line each. No summary: that is render_summary's.
std::string render_text(SourceManager const& sources, std::span<Diagnostic const> diagnostics,
                        bool color = false);
std::string render_text(SourceManager const& sources, std::span<Diagnostic const> diagnostics,
                        TextRenderOptions const& options);
std::string render_json(SourceManager const& sources, std::span<Diagnostic const> diagnostics);
std::string render_github(SourceManager const& sources, std::span<Diagnostic const> diagnostics);

// ---- choosing a format --------------------------------------------------------------------------

enum class DiagnosticFormat { Text, Json, Github };

// "text", "json" or "github" (the values of `--format=`).
std::optional<DiagnosticFormat> parse_diagnostic_format(std::string_view name);

std::string render(Diagnostic const& diagnostic, SourceManager const& sources,
                   DiagnosticFormat format, TextRenderOptions const& options = {});

}  // namespace fitz::frontend
