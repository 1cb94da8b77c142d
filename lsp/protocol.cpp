// Conversions between the features' byte offsets and LSP's UTF-16 positions and shapes.
#include "lsp/protocol.h"

#include "lsp/uri.h"

namespace fitz::lsp {

json to_json(const frontend::LspPosition& p) { return {{"line", p.line}, {"character", p.character}}; }

json to_json(const frontend::LspRange& r) { return {{"start", to_json(r.start)}, {"end", to_json(r.end)}}; }

frontend::LspPosition position_from_json(const json& j) {
  int64_t line = j.at("line").get<int64_t>(), ch = j.at("character").get<int64_t>();
  if (line < 0 || ch < 0) throw std::invalid_argument("negative position");
  return {uint32_t(std::min<int64_t>(line, UINT32_MAX)), uint32_t(std::min<int64_t>(ch, UINT32_MAX))};
}

frontend::LspRange range_from_json(const json& j) {
  return {position_from_json(j.at("start")), position_from_json(j.at("end"))};
}

uint32_t offset_of(const frontend::SourceFile& file, const frontend::LspPosition& p) {
  return file.offset_of_utf16(p.line, p.character);
}

frontend::LspPosition position_of(const frontend::SourceFile& file, uint32_t offset) {
  offset = std::min(offset, file.size());
  return {file.line_col(offset).line - 1, file.utf16_col(offset)};
}

frontend::LspRange range_of(const frontend::SourceFile& file, uint32_t begin, uint32_t end) {
  return {position_of(file, begin), position_of(file, std::max(begin, end))};
}

json location(const Analysis& a, const Span& span) {
  return {{"uri", path_to_uri(a.path_of(span.file))}, {"range", to_json(frontend::lsp_range(span, a.sources))}};
}

json diagnostic_to_json(const Analysis& a, const frontend::Diagnostic& d) {
  json j;
  j["range"] = to_json(frontend::lsp_range(d.span, a.sources));
  j["severity"] = d.severity == frontend::Severity::Error ? 1 : d.severity == frontend::Severity::Warning ? 2 : 3;
  j["code"] = std::string(frontend::diag_code(d.kind));
  j["source"] = "fitz";
  std::string message = d.message;
  if (!d.hint.empty()) message += "\nhelp: " + d.hint;
  j["message"] = message;
  if (!d.labels.empty()) {
    json rel = json::array();
    for (const auto& l : d.labels)
      if (l.span.file.valid()) rel.push_back({{"location", location(a, l.span)}, {"message", l.message}});
    if (!rel.empty()) j["relatedInformation"] = rel;
  }
  if (d.kind == frontend::DiagKind::UnusedVariable || d.kind == frontend::DiagKind::UnusedImport ||
      d.kind == frontend::DiagKind::DuplicateImport || d.kind == frontend::DiagKind::LintUnusedParameter)
    j["tags"] = json::array({1});  // Unnecessary
  if (d.kind == frontend::DiagKind::UnreachableCode) j["tags"] = json::array({1});
  return j;
}

int symbol_kind_code(SymbolKind k) {
  switch (k) {
    case SymbolKind::Module: return 2;
    case SymbolKind::Type: return 23;  // Struct
    case SymbolKind::Field: return 8;
    case SymbolKind::Method: return 6;
    case SymbolKind::Function: return 12;
    case SymbolKind::Variable: return 13;
    case SymbolKind::Constant: return 14;
  }
  return 13;
}

int completion_kind_code(CompletionKind k) {
  switch (k) {
    case CompletionKind::Variable: return 6;
    case CompletionKind::Function: return 3;
    case CompletionKind::Method: return 2;
    case CompletionKind::Field: return 5;
    case CompletionKind::Type: return 22;  // Struct
    case CompletionKind::Module: return 9;
    case CompletionKind::Keyword: return 14;
    case CompletionKind::Snippet: return 15;
    case CompletionKind::Constant: return 21;
  }
  return 1;
}

json document_symbol_to_json(const Analysis& a, const DocumentSymbol& s) {
  json j{{"name", s.name.empty() ? "_" : s.name},
         {"kind", symbol_kind_code(s.kind)},
         {"range", to_json(frontend::lsp_range(s.span, a.sources))},
         {"selectionRange", to_json(frontend::lsp_range(s.selection_span, a.sources))}};
  if (!s.detail.empty()) j["detail"] = s.detail;
  if (!s.children.empty()) {
    json c = json::array();
    for (const auto& ch : s.children) c.push_back(document_symbol_to_json(a, ch));
    j["children"] = c;
  }
  return j;
}

std::vector<uint32_t> encode_semantic_tokens(const frontend::SourceFile& file, const std::vector<SemanticToken>& tokens) {
  std::vector<uint32_t> data;
  uint32_t prev_line = 0, prev_char = 0;
  auto emit = [&](uint32_t b, uint32_t e, const SemanticToken& t) {
    if (e <= b) return;
    auto start = position_of(file, b);
    auto end = position_of(file, e);
    if (end.line != start.line || end.character <= start.character) return;
    uint32_t dl = start.line - prev_line;
    uint32_t dc = dl == 0 ? start.character - prev_char : start.character;
    data.insert(data.end(), {dl, dc, end.character - start.character, uint32_t(t.type), uint32_t(t.modifiers)});
    prev_line = start.line;
    prev_char = start.character;
  };
  std::string_view text = file.text();
  uint32_t last_end = 0;
  for (const auto& t : tokens) {
    if (t.begin < last_end) continue;  // overlapping: keep the first
    last_end = t.end;
    // Split tokens that cross lines (block comments, triple-quoted strings).
    uint32_t b = t.begin;
    for (uint32_t i = t.begin; i < t.end && i < text.size(); ++i)
      if (text[i] == '\n') {
        uint32_t e = i > b && text[i - 1] == '\r' ? i - 1 : i;
        emit(b, e, t);
        b = i + 1;
      }
    emit(b, std::min<uint32_t>(t.end, uint32_t(text.size())), t);
  }
  return data;
}

json text_edit(const Analysis& a, const Edit& e) {
  return {{"range", to_json(frontend::lsp_range(e.span, a.sources))}, {"newText", e.new_text}};
}

}  // namespace fitz::lsp
