// Tables generated from diagnostic_kinds.def and the DiagnosticBag's bookkeeping
// (de-duplication, counts, stable ordering).
#include "frontend/diagnostics.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace fitz::frontend {

namespace {

struct KindInfo {
  std::string_view name;
  std::string_view code;
  Severity severity;
  std::string_view description;
};

constexpr std::array<KindInfo, kDiagKindCount> kKinds = {{
#define DIAG(Name, Code, Sev, Description) {#Name, Code, Severity::Sev, Description},
#include "frontend/diagnostic_kinds.def"
}};

KindInfo const& info(DiagKind kind) { return kKinds[static_cast<std::size_t>(kind)]; }

}  // namespace

std::string_view diag_code(DiagKind kind) { return info(kind).code; }
std::string_view diag_name(DiagKind kind) { return info(kind).name; }
std::string_view diag_description(DiagKind kind) { return info(kind).description; }
Severity default_severity(DiagKind kind) { return info(kind).severity; }

std::optional<DiagKind> diag_kind_from_code(std::string_view code) {
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    if (kKinds[i].code == code) return static_cast<DiagKind>(i);
  }
  return std::nullopt;
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

std::string diagnostic_table_markdown() {
  // Sorted by code so the table reads as a reference even if the .def groups differently.
  std::vector<KindInfo> rows(kKinds.begin(), kKinds.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](KindInfo const& a, KindInfo const& b) { return a.code < b.code; });
  std::string out = "| Code | Name | Severity | Meaning |\n|---|---|---|---|\n";
  for (auto const& row : rows) {
    std::string description;
    for (char c : row.description) {
      if (c == '|') description += '\\';
      description += c;
    }
    out += "| " + std::string(row.code) + " | " + std::string(row.name) + " | " +
           std::string(severity_name(row.severity)) + " | " + description + " |\n";
  }
  return out;
}

std::optional<std::string> update_diagnostic_table(std::string_view document) {
  constexpr std::string_view kBegin = "<!-- diagnostic-codes:begin -->\n";
  constexpr std::string_view kEnd = "<!-- diagnostic-codes:end -->";
  std::size_t const begin = document.find(kBegin);
  if (begin == std::string_view::npos) return std::nullopt;
  std::size_t const body = begin + kBegin.size();
  std::size_t const end = document.find(kEnd, body);
  if (end == std::string_view::npos) return std::nullopt;
  std::string out(document.substr(0, body));
  out += diagnostic_table_markdown();
  out += document.substr(end);
  return out;
}

Diagnostic& Diagnostic::with_label(Span label_span, std::string label_message) {
  labels.push_back({label_span, std::move(label_message)});
  return *this;
}

Diagnostic& Diagnostic::with_hint(std::string text) {
  hint = std::move(text);
  return *this;
}

Diagnostic& Diagnostic::with_fix(Span fix_span, std::string replacement) {
  fixes.push_back({fix_span, std::move(replacement)});
  return *this;
}

Diagnostic& DiagnosticBag::report(Diagnostic diagnostic) {
  Key key{diagnostic.kind, diagnostic.span.file.value, diagnostic.span.begin,
          diagnostic.span.end, diagnostic.span.file.valid() ? std::string() : diagnostic.message};
  if (!seen_.insert(std::move(key)).second) {
    discarded_ = std::move(diagnostic);
    return discarded_;
  }
  if (diagnostic.severity == Severity::Error) ++error_count_;
  if (diagnostic.severity == Severity::Warning) ++warning_count_;
  return diagnostics_.emplace_back(std::move(diagnostic));
}

Diagnostic& DiagnosticBag::report(DiagKind kind, Span span, std::string message) {
  return report(Diagnostic{kind, default_severity(kind), span, std::move(message), {}, {}, {}});
}

Diagnostic& DiagnosticBag::error(DiagKind kind, Span span, std::string message) {
  return report(Diagnostic{kind, Severity::Error, span, std::move(message), {}, {}, {}});
}

Diagnostic& DiagnosticBag::warning(DiagKind kind, Span span, std::string message) {
  return report(Diagnostic{kind, Severity::Warning, span, std::move(message), {}, {}, {}});
}

void DiagnosticBag::append(DiagnosticBag const& other) {
  for (auto const& d : other.diagnostics_) report(d);
}

void DiagnosticBag::clear() {
  diagnostics_.clear();
  seen_.clear();
  error_count_ = warning_count_ = 0;
}

namespace {

// The order sorted() gives: indices into `diags`, sorting which is cheaper than moving
// diagnostics (strings, labels, fixes) around, and the language server sorts the project's on
// every publish.
std::vector<uint32_t> sorted_order(const std::deque<Diagnostic>& diags) {
  auto file_rank = [](Span s) -> uint64_t {
    return s.file.valid() ? uint64_t{s.file.value} + 1 : 0;
  };
  std::vector<uint32_t> order(diags.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    const Span& a = diags[x].span;
    const Span& b = diags[y].span;
    return std::tuple(file_rank(a), a.begin, a.end) < std::tuple(file_rank(b), b.begin, b.end);
  });
  return order;
}

}  // namespace

std::vector<Diagnostic> DiagnosticBag::sorted() const& {
  std::vector<Diagnostic> out;
  out.reserve(diagnostics_.size());
  for (uint32_t i : sorted_order(diagnostics_)) out.push_back(diagnostics_[i]);
  return out;
}

std::vector<Diagnostic> DiagnosticBag::sorted() && {
  std::vector<Diagnostic> out;
  out.reserve(diagnostics_.size());
  for (uint32_t i : sorted_order(diagnostics_)) out.push_back(std::move(diagnostics_[i]));
  return out;
}

std::vector<Diagnostic> DiagnosticBag::take() && {
  std::vector<Diagnostic> out(std::make_move_iterator(diagnostics_.begin()), std::make_move_iterator(diagnostics_.end()));
  return out;
}

}  // namespace fitz::frontend
