// GitHub Actions workflow commands (`::error file=…::message`) so `fitz check --format=github`
// annotates pull requests; the escaping follows the runner's workflow-command rules.
#include <algorithm>

#include <fmt/format.h>

#include "frontend/render.h"

namespace fitz::frontend {

namespace {

std::string_view command_name(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "notice";
  }
  return "error";
}

std::string escape(std::string_view text, bool property) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string github_escape_data(std::string_view text) { return escape(text, false); }
std::string github_escape_property(std::string_view text) { return escape(text, true); }

std::string render_github(Diagnostic const& d, SourceManager const& sources) {
  std::string properties;
  if (SourceFile const* file = sources.find(d.span.file)) {
    LineCol const start = file->line_col(d.span.begin);
    // GitHub's end column is inclusive: use the last character of a non-empty span. Columns
    // are UTF-16 code units, as GitHub's annotations (and VS Code) count them.
    uint32_t const last_byte = d.span.end > d.span.begin ? d.span.end - 1 : d.span.begin;
    LineCol const last = file->line_col(last_byte);
    properties = fmt::format("file={},line={},col={},endLine={},endColumn={},",
                             github_escape_property(file->path()), start.line, file->utf16_col(d.span.begin) + 1,
                             last.line, file->utf16_col(last_byte) + 1);
  }
  properties += "title=" + github_escape_property(diag_code(d.kind));

  std::string message = d.message;
  for (auto const& l : d.labels) {
    message += '\n';
    if (SourceFile const* lf = sources.find(l.span.file)) {
      LineCol const lc = lf->line_col(l.span.begin);
      message += fmt::format("{}:{}:{}: ", lf->path(), lc.line, lc.col);
    }
    message += "note: " + l.message;
  }
  if (!d.hint.empty()) message += "\nhelp: " + d.hint;
  return fmt::format("::{} {}::{}\n", command_name(d.severity), properties,
                     github_escape_data(message));
}

std::string render_github(SourceManager const& sources, std::span<Diagnostic const> diagnostics) {
  std::string out;
  for (auto const& d : diagnostics) out += render_github(d, sources);
  return out;
}

}  // namespace fitz::frontend
