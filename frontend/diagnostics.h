// Diagnostics as data: kinds from diagnostic_kinds.def, the Diagnostic value every phase emits,
// and the DiagnosticBag that collects them. Renderers (render.h) turn them into text/JSON/CI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "frontend/source.h"

namespace fitz::frontend {

enum class Severity : uint8_t { Error, Warning, Note };

enum class DiagKind : uint16_t {
#define DIAG(Name, Code, Sev, Description) Name,
#include "frontend/diagnostic_kinds.def"
};

inline constexpr std::size_t kDiagKindCount = 0
#define DIAG(Name, Code, Sev, Description) +1
#include "frontend/diagnostic_kinds.def"
    ;

std::string_view diag_code(DiagKind kind);         // "E0020"
std::string_view diag_name(DiagKind kind);         // "ExpectedToken"
std::string_view diag_description(DiagKind kind);  // the docs sentence
Severity default_severity(DiagKind kind);
std::optional<DiagKind> diag_kind_from_code(std::string_view code);
std::string_view severity_name(Severity severity);  // "error", "warning", "note"

// The Markdown table of every kind (code, name, severity, description) that docs/diagnostics.md
// embeds; generated here so the doc tool and the staleness test share one definition.
std::string diagnostic_table_markdown();

// `document` with the text between the lines `<!-- diagnostic-codes:begin -->` and
// `<!-- diagnostic-codes:end -->` replaced by diagnostic_table_markdown(); nullopt when the
// markers are missing. A document is up to date when this returns it unchanged.
std::optional<std::string> update_diagnostic_table(std::string_view document);

// A secondary location with its own message ("`x` declared here").
struct Label {
  Span span;
  std::string message;
};

// A machine-applicable edit: replace `span` with `replacement` (an empty span inserts).
struct FixIt {
  Span span;
  std::string replacement;
};

struct Diagnostic {
  DiagKind kind{};
  Severity severity = Severity::Error;
  Span span;  // primary location; an invalid file means "no location"
  std::string message;
  std::vector<Label> labels;
  std::string hint;  // rendered as `help: ...`
  std::vector<FixIt> fixes;

  // Chainable so call sites read as one statement: bag.error(...).with_label(...).with_hint(...)
  Diagnostic& with_label(Span label_span, std::string label_message);
  Diagnostic& with_hint(std::string text);
  Diagnostic& with_fix(Span fix_span, std::string replacement);
};

// Collects diagnostics from one or more phases. A second report with the same kind and span as an
// earlier one (without a location: the same kind and message) is dropped, since error recovery
// often finds one problem twice; the returned reference then points at a scratch diagnostic, so
// chained calls on it are harmless. References from report() stay valid until clear().
class DiagnosticBag {
 public:
  Diagnostic& report(Diagnostic diagnostic);
  Diagnostic& report(DiagKind kind, Span span, std::string message);  // default severity
  Diagnostic& error(DiagKind kind, Span span, std::string message);
  Diagnostic& warning(DiagKind kind, Span span, std::string message);
  void append(DiagnosticBag const& other);  // de-duplicates against what is already here

  std::size_t error_count() const { return error_count_; }
  std::size_t warning_count() const { return warning_count_; }
  bool has_errors() const { return error_count_ != 0; }
  std::size_t size() const { return diagnostics_.size(); }
  bool empty() const { return diagnostics_.empty(); }
  void clear();

  // Insertion order.
  auto begin() const { return diagnostics_.begin(); }
  auto end() const { return diagnostics_.end(); }

  // By file (FileId order, location-less first), then start offset, then end offset; ties keep
  // the order of reporting. From a bag about to go, the diagnostics are moved, not copied.
  std::vector<Diagnostic> sorted() const&;
  std::vector<Diagnostic> sorted() &&;
  // The diagnostics in insertion order, moved out of a bag about to go.
  std::vector<Diagnostic> take() &&;

 private:
  // Location-less diagnostics all share one span, so their message is part of their identity.
  using Key = std::tuple<DiagKind, uint32_t, uint32_t, uint32_t, std::string>;

  std::deque<Diagnostic> diagnostics_;  // deque: report() references survive later reports
  std::set<Key> seen_;
  std::size_t error_count_ = 0;
  std::size_t warning_count_ = 0;
  Diagnostic discarded_;
};

}  // namespace fitz::frontend
