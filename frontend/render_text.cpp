// The terminal renderer: `path:line:col: error[CODE]: message`, a gutter snippet with carets that
// line up under tabs, wide and multi-byte characters, label notes and a `help:` line.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "frontend/render.h"

namespace fitz::frontend {

namespace {

struct Range32 {
  char32_t lo, hi;
};

bool in_ranges(char32_t cp, std::initializer_list<Range32> ranges) {
  for (auto r : ranges) {
    if (cp >= r.lo && cp <= r.hi) return true;
  }
  return false;
}

// Bidirectional overrides and isolates could reorder the printed line in the terminal and make
// the snippet lie about the source, so they are shown as a replacement character instead.
bool is_bidi_control(char32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
         cp == 0x200F || cp == 0x061C;
}

// A source line as printed, plus the display column at which every byte of the original starts,
// so spans given in bytes turn into caret positions.
struct PrintedLine {
  std::string text;
  std::vector<uint32_t> col_of_byte;  // size = line.size() + 1
};

PrintedLine print_line(std::string_view line, uint32_t tab_width) {
  PrintedLine out;
  out.col_of_byte.assign(line.size() + 1, 0);
  uint32_t col = 0;
  uint32_t pos = 0;
  tab_width = std::max<uint32_t>(tab_width, 1);
  while (pos < line.size()) {
    char32_t cp;
    uint32_t const len = decode_utf8(line, pos, cp);
    for (uint32_t i = 0; i < len; ++i) out.col_of_byte[pos + i] = col;
    uint32_t width;
    if (cp == '\t') {
      width = tab_width - col % tab_width;
      out.text.append(width, ' ');
    } else if (cp < 0x20 || cp == 0x7F) {
      // Control characters (NUL included) print as their visible Control Pictures symbol.
      append_utf8(out.text, cp == 0x7F ? char32_t{0x2421} : char32_t{0x2400 + cp});
      width = 1;
    } else if ((len == 1 && cp == 0xFFFD) || is_bidi_control(cp)) {
      append_utf8(out.text, 0xFFFD);
      width = 1;
    } else {
      out.text.append(line.substr(pos, len));
      width = display_width(cp);
    }
    col += width;
    pos += len;
  }
  out.col_of_byte[line.size()] = col;
  return out;
}

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string paint(std::string_view text, std::string_view sgr) const {
    if (!color_ || text.empty()) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
  }
  static std::string_view severity_sgr(Severity s) {
    switch (s) {
      case Severity::Error: return "1;31";
      case Severity::Warning: return "1;33";
      case Severity::Note: return "1;36";
    }
    return "1";
  }
  static constexpr std::string_view kBold = "1";
  static constexpr std::string_view kGutter = "1;34";
  static constexpr std::string_view kHelp = "1;36";

 private:
  bool color_;
};

struct Underline {
  Span span;
  char head;  // first character of the underline
  char body;  // the rest
  std::string_view sgr;
  std::string message;
};

// One source line under a gutter, then one row per underline (primary first).
void append_snippet(std::string& out, SourceFile const& file, uint32_t line,
                    std::vector<Underline> const& underlines, Style const& style,
                    TextRenderOptions const& options) {
  uint32_t const line_start = file.line_start(line);
  std::string_view const text = file.line_text(line);
  // A huge line (minified or generated input) is not worth echoing: the `path:line:col`
  // header already says where, and copying megabytes per diagnostic would stall the output.
  constexpr size_t kMaxSnippetBytes = 4096;
  if (text.size() > kMaxSnippetBytes) return;
  PrintedLine const printed = print_line(text, options.tab_width);
  std::string const number = std::to_string(line);
  std::string const blank_gutter =
      style.paint(fmt::format(" {} |", std::string(number.size(), ' ')), Style::kGutter);
  out += style.paint(fmt::format(" {} |", number), Style::kGutter);
  if (!printed.text.empty()) out += ' ' + printed.text;
  out += '\n';
  for (auto const& u : underlines) {
    auto to_col = [&](uint32_t offset) {
      uint32_t const in_line = std::clamp(offset, line_start, line_start + uint32_t(text.size()));
      return printed.col_of_byte[in_line - line_start];
    };
    uint32_t const start = to_col(u.span.begin);
    // A span running past this line is underlined to the line's end.
    uint32_t const stop = std::max(to_col(u.span.end), start + 1);
    std::string marks(1, u.head);
    marks.append(stop - start - 1, u.body);
    out += blank_gutter + ' ' + std::string(start, ' ') + style.paint(marks, u.sgr);
    if (!u.message.empty()) out += ' ' + style.paint(u.message, u.sgr);
    out += '\n';
  }
}

std::string location_prefix(SourceManager const& sources, Span span, bool utf16_columns) {
  SourceFile const* file = sources.find(span.file);
  if (file == nullptr) return {};
  LineCol const lc = file->line_col(span.begin);
  uint32_t const col = utf16_columns ? file->utf16_col(span.begin) + 1 : lc.col;
  return fmt::format("{}:{}:{}: ", file->path(), lc.line, col);
}

void append_indented(std::string& out, std::string_view text, std::size_t indent) {
  std::size_t start = 0;
  bool first = true;
  while (start <= text.size()) {
    std::size_t const nl = text.find('\n', start);
    std::string_view const piece =
        text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!first) out += std::string(indent, ' ');
    out += piece;
    out += '\n';
    first = false;
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
}

}  // namespace

uint32_t display_width(char32_t cp) {
  if (in_ranges(cp, {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
                     {0x064B, 0x065F}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200D},
                     {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
                     {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF}})) {
    return 0;
  }
  if (in_ranges(cp, {{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC},
                     {0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
                     {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1},
                     {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE},
                     {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
                     {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B},
                     {0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755},
                     {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
                     {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x2E80, 0x303E},
                     {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
                     {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19},
                     {0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE4},
                     {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004},
                     {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A},
                     {0x1F200, 0x1F251}, {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF},
                     {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD},
                     {0x30000, 0x3FFFD}})) {
    return 2;
  }
  return 1;
}

std::string render_text(Diagnostic const& d, SourceManager const& sources,
                        TextRenderOptions const& options) {
  Style const style(options.color);
  std::string out;
  std::string const label =
      fmt::format("{}[{}]", severity_name(d.severity), diag_code(d.kind));
  out += style.paint(location_prefix(sources, d.span, options.utf16_columns), Style::kBold);
  out += style.paint(label, Style::severity_sgr(d.severity));
  out += style.paint(": " + d.message, Style::kBold);
  out += '\n';

  SourceFile const* file = sources.find(d.span.file);
  std::vector<Label const*> elsewhere;
  if (file != nullptr) {
    uint32_t const line = file->line_col(d.span.begin).line;
    std::vector<Underline> underlines;
    underlines.push_back({d.span, '^', '~', Style::severity_sgr(d.severity), {}});
    for (auto const& l : d.labels) {
      if (l.span.file == d.span.file && file->line_col(l.span.begin).line == line) {
        underlines.push_back({l.span, '-', '-', Style::kHelp, l.message});
      } else {
        elsewhere.push_back(&l);
      }
    }
    append_snippet(out, *file, line, underlines, style, options);
  } else {
    for (auto const& l : d.labels) elsewhere.push_back(&l);
  }

  for (Label const* l : elsewhere) {
    out += style.paint(location_prefix(sources, l->span, options.utf16_columns), Style::kBold);
    out += style.paint("note", Style::severity_sgr(Severity::Note));
    out += ": " + l->message + '\n';
    if (SourceFile const* lf = sources.find(l->span.file)) {
      append_snippet(out, *lf, lf->line_col(l->span.begin).line,
                     {{l->span, '^', '~', Style::severity_sgr(Severity::Note), {}}}, style,
                     options);
    }
  }

  if (!d.hint.empty()) {
    out += style.paint("help", Style::kHelp) + ": ";
    append_indented(out, d.hint, 6);
  }
  return out;
}

std::string render_text(SourceManager const& sources, std::span<Diagnostic const> diagnostics,
                        TextRenderOptions const& options) {
  std::string out;
  for (auto const& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += render_text(d, sources, options);
  }
  return out;
}

std::string render_text(SourceManager const& sources, std::span<Diagnostic const> diagnostics,
                        bool color) {
  return render_text(sources, diagnostics, TextRenderOptions{.color = color});
}

std::string render_summary(std::size_t error_count, std::size_t warning_count, bool color) {
  if (error_count == 0 && warning_count == 0) return {};
  Style const style(color);
  auto plural = [](std::size_t n, std::string_view word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
  };
  std::string counts;
  if (error_count != 0) counts = plural(error_count, "error");
  if (warning_count != 0) {
    if (!counts.empty()) counts += ", ";
    counts += plural(warning_count, "warning");
  }
  Severity const severity = error_count != 0 ? Severity::Error : Severity::Warning;
  return style.paint(std::string(severity_name(severity)), Style::severity_sgr(severity)) +
         style.paint(": " + counts + " emitted", Style::kBold) + '\n';
}

std::optional<DiagnosticFormat> parse_diagnostic_format(std::string_view name) {
  if (name == "text") return DiagnosticFormat::Text;
  if (name == "json") return DiagnosticFormat::Json;
  if (name == "github") return DiagnosticFormat::Github;
  return std::nullopt;
}

std::string render(Diagnostic const& diagnostic, SourceManager const& sources,
                   DiagnosticFormat format, TextRenderOptions const& options) {
  switch (format) {
    case DiagnosticFormat::Text: return render_text(diagnostic, sources, options);
    case DiagnosticFormat::Json: return render_json(diagnostic, sources);
    case DiagnosticFormat::Github: return render_github(diagnostic, sources);
  }
  return render_text(diagnostic, sources, options);
}

}  // namespace fitz::frontend
