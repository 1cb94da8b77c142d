// Machine-readable diagnostics: the JSON Lines schema behind `--format=json` and the UTF-16
// ranges the language server publishes. The schema is documented in docs/diagnostics.md.
#include <nlohmann/json.hpp>

#include "frontend/render.h"

namespace fitz::frontend {

namespace {

// Built generically so render_json can keep the schema's key order (ordered_json) while
// diagnostic_to_json hands callers the ordinary nlohmann::json.
template <class Json>
Json position_json(SourceFile const& file, uint32_t offset) {
  uint32_t const clamped = std::min(offset, file.size());
  LineCol const lc = file.line_col(clamped);
  Json j = Json::object();
  j["line"] = lc.line;
  j["column"] = lc.col;
  j["offset"] = clamped;
  return j;
}

template <class Json>
Json span_json(SourceFile const* file, Span span) {
  if (file == nullptr) return nullptr;
  Json j = Json::object();
  j["start"] = position_json<Json>(*file, span.begin);
  j["end"] = position_json<Json>(*file, std::max(span.end, span.begin));
  return j;
}

template <class Json>
Json file_json(SourceFile const* file) {
  if (file == nullptr) return nullptr;
  return file->path();
}

template <class Json>
Json build(Diagnostic const& d, SourceManager const& sources) {
  SourceFile const* file = sources.find(d.span.file);
  Json j = Json::object();
  j["code"] = diag_code(d.kind);
  j["severity"] = severity_name(d.severity);
  j["message"] = d.message;
  j["file"] = file_json<Json>(file);
  j["span"] = span_json<Json>(file, d.span);
  Json labels = Json::array();
  for (auto const& l : d.labels) {
    SourceFile const* lf = sources.find(l.span.file);
    Json lj = Json::object();
    lj["message"] = l.message;
    lj["file"] = file_json<Json>(lf);
    lj["span"] = span_json<Json>(lf, l.span);
    labels.push_back(std::move(lj));
  }
  j["labels"] = std::move(labels);
  j["hint"] = d.hint.empty() ? Json(nullptr) : Json(d.hint);
  Json fixes = Json::array();
  for (auto const& f : d.fixes) {
    SourceFile const* ff = sources.find(f.span.file);
    Json fj = Json::object();
    fj["file"] = file_json<Json>(ff);
    fj["span"] = span_json<Json>(ff, f.span);
    fj["replacement"] = f.replacement;
    fixes.push_back(std::move(fj));
  }
  j["fixes"] = std::move(fixes);
  return j;
}

}  // namespace

nlohmann::json diagnostic_to_json(Diagnostic const& diagnostic, SourceManager const& sources) {
  return build<nlohmann::json>(diagnostic, sources);
}

std::string render_json(Diagnostic const& diagnostic, SourceManager const& sources) {
  // `replace` keeps dump() from throwing on invalid UTF-8 (a message may quote raw source).
  return build<nlohmann::ordered_json>(diagnostic, sources)
             .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
         '\n';
}

std::string render_json(SourceManager const& sources, std::span<Diagnostic const> diagnostics) {
  std::string out;
  for (auto const& d : diagnostics) out += render_json(d, sources);
  return out;
}

LspRange lsp_range(Span span, SourceManager const& sources) {
  SourceFile const* file = sources.find(span.file);
  if (file == nullptr) return {};
  auto position = [&](uint32_t offset) {
    return LspPosition{file->line_col(offset).line - 1, file->utf16_col(offset)};
  };
  return {position(span.begin), position(std::max(span.end, span.begin))};
}

}  // namespace fitz::frontend
