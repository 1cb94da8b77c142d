// Internals of lowering shared by lower*.cpp, syntax_errors.cpp and their unit tests: literal
// parsing (pure functions over token text) and the Lowerer that walks the tree-sitter tree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/diagnostics.h"

namespace fitz::frontend::lowering {

// ---- Literals (lower_literals.cpp) ---------------------------------------------------------------

// A problem inside one literal token. Offsets are relative to the text that was passed in, so
// the caller adds the token's start to get a source span.
struct LiteralError {
  DiagKind kind;
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string message;
  std::string hint;
};

// `1_000`, `007`, `0xff`, `0b1010`, `0o17`. Returns nullopt (and appends errors) when the
// text is malformed or the value does not fit in an i64.
std::optional<int64_t> parse_int_literal(std::string_view text, std::vector<LiteralError>& errors);

// `2.5`, `1e3`, `1.5E-2`, `1_000.5`. Returns nullopt (and appends errors) when malformed.
std::optional<double> parse_float_literal(std::string_view text, std::vector<LiteralError>& errors);

// Where escapes are decoded: a Str literal (interpolated `"..."` or `"""..."""`) or Bytes.
enum class StringFlavor : uint8_t { Str, Bytes };

// Decodes the escapes of one run of literal text (no quotes, no interpolation holes) and appends
// the result to `out`. For Str, a `}` that is not escaped is reported as a lone brace. Invalid
// escapes are reported with the span of the whole escape and decoded as nothing.
void decode_string_text(std::string_view text, StringFlavor flavor, std::string& out,
                        std::vector<LiteralError>& errors);

// Checks an interpolation format spec (the text after the hole's top-level `:`) against
// `[[fill]align][sign][#][0][width][,|_][.prec][type]`.
std::optional<LiteralError> check_format_spec(std::string_view spec);

// Appends `cp` as UTF-8.
void append_utf8(std::string& out, char32_t cp);

}  // namespace fitz::frontend::lowering
