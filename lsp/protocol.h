// LSP protocol values <-> the features' data: positions, ranges, diagnostics, symbols,
// tokens. With transport.cpp the only code that knows JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/render.h"
#include "frontend/source.h"
#include "lsp/features/features.h"

namespace fitz::lsp {

using json = nlohmann::json;

json to_json(const frontend::LspPosition& p);
json to_json(const frontend::LspRange& r);
frontend::LspPosition position_from_json(const json& j);  // throws on a malformed position
frontend::LspRange range_from_json(const json& j);

// Byte offset of a client position in `file` (clamped).
uint32_t offset_of(const frontend::SourceFile& file, const frontend::LspPosition& p);
frontend::LspPosition position_of(const frontend::SourceFile& file, uint32_t offset);
frontend::LspRange range_of(const frontend::SourceFile& file, uint32_t begin, uint32_t end);

json location(const Analysis& a, const Span& span);

// One Diagnostic as LSP: code, severity, source `fitz`, hint appended to the message, labels as
// relatedInformation, fixes kept in `data` for code actions.
json diagnostic_to_json(const Analysis& a, const frontend::Diagnostic& d);

json document_symbol_to_json(const Analysis& a, const DocumentSymbol& s);
int symbol_kind_code(SymbolKind k);
int completion_kind_code(CompletionKind k);

// Semantic tokens in the LSP relative encoding (UTF-16 lengths; multi-line tokens split).
std::vector<uint32_t> encode_semantic_tokens(const frontend::SourceFile& file, const std::vector<SemanticToken>& tokens);

json text_edit(const Analysis& a, const Edit& e);

}  // namespace fitz::lsp
