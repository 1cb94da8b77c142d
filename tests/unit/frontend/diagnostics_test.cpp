// Unit tests of the diagnostic registry and DiagnosticBag: codes and severities from the .def,
// de-duplication, counts, stable ordering and the builder-style helpers.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "frontend/diagnostics.h"

namespace fitz::frontend {
namespace {

TEST(DiagKinds, CodesAreUniqueWellFormedAndMatchTheirSeverity) {
  std::set<std::string_view> codes;
  std::set<std::string_view> names;
  std::regex const shape("^[EW][0-9]{4}$");
  for (std::size_t i = 0; i < kDiagKindCount; ++i) {
    auto const kind = static_cast<DiagKind>(i);
    std::string_view const code = diag_code(kind);
    EXPECT_TRUE(codes.insert(code).second) << "duplicate code " << code;
    EXPECT_TRUE(names.insert(diag_name(kind)).second) << "duplicate name " << diag_name(kind);
    EXPECT_TRUE(std::regex_match(std::string(code), shape)) << code;
    EXPECT_EQ(code[0] == 'W', default_severity(kind) == Severity::Warning) << code;
    EXPECT_FALSE(diag_description(kind).empty()) << code;
    EXPECT_EQ(diag_kind_from_code(code), kind);
  }
}

TEST(DiagKinds, LookupOfKnownKinds) {
  EXPECT_EQ(diag_code(DiagKind::UnexpectedCharacter), "E0001");
  EXPECT_EQ(diag_name(DiagKind::UnclosedDelimiter), "UnclosedDelimiter");
  EXPECT_EQ(diag_code(DiagKind::ImportCycle), "E0102");
  EXPECT_EQ(default_severity(DiagKind::ManifestUnknownKey), Severity::Warning);
  EXPECT_FALSE(diag_kind_from_code("E9999").has_value());
  EXPECT_EQ(severity_name(Severity::Note), "note");
}

TEST(DiagKinds, LexicalAndSyntaxCodesAreE00ModuleAndManifestCodesE01) {
  for (auto kind : {DiagKind::UnterminatedString, DiagKind::InvalidNumberLiteral,
                    DiagKind::ChainedRange, DiagKind::StatementSeparator}) {
    EXPECT_TRUE(diag_code(kind).starts_with("E00")) << diag_code(kind);
  }
  for (auto kind : {DiagKind::ModuleNotFound, DiagKind::ManifestSyntax,
                    DiagKind::UnsupportedDependency, DiagKind::CannotReadFile}) {
    EXPECT_TRUE(diag_code(kind).starts_with("E01")) << diag_code(kind);
  }
}

Span at(uint32_t file, uint32_t b, uint32_t e) { return Span{FileId{file}, b, e}; }

TEST(DiagnosticBag, CountsBySeverity) {
  DiagnosticBag bag;
  EXPECT_TRUE(bag.empty());
  bag.error(DiagKind::UnexpectedToken, at(0, 1, 2), "a");
  bag.error(DiagKind::UnexpectedToken, at(0, 3, 4), "b");
  bag.warning(DiagKind::ManifestUnknownKey, at(0, 5, 6), "c");
  bag.report(DiagKind::ManifestUnknownKey, at(0, 7, 8), "d");  // default severity: warning
  EXPECT_EQ(bag.size(), 4u);
  EXPECT_EQ(bag.error_count(), 2u);
  EXPECT_EQ(bag.warning_count(), 2u);
  EXPECT_TRUE(bag.has_errors());
  bag.clear();
  EXPECT_EQ(bag.size(), 0u);
  EXPECT_EQ(bag.error_count(), 0u);
  EXPECT_FALSE(bag.has_errors());
}

TEST(DiagnosticBag, DropsASecondReportOfTheSameKindAndSpan) {
  DiagnosticBag bag;
  bag.error(DiagKind::ExpectedToken, at(0, 4, 5), "expected `)`").with_hint("first");
  // Same kind and span, different words: recovery found the same problem again.
  bag.error(DiagKind::ExpectedToken, at(0, 4, 5), "expected `,`").with_hint("second");
  // A different kind or span is a different problem.
  bag.error(DiagKind::UnexpectedToken, at(0, 4, 5), "unexpected `}`");
  bag.error(DiagKind::ExpectedToken, at(0, 4, 6), "expected `)`");
  bag.error(DiagKind::ExpectedToken, at(1, 4, 5), "expected `)`");
  ASSERT_EQ(bag.size(), 4u);
  EXPECT_EQ(bag.error_count(), 4u);
  EXPECT_EQ(bag.begin()->message, "expected `)`");
  EXPECT_EQ(bag.begin()->hint, "first");
}

TEST(DiagnosticBag, LocationlessDiagnosticsAreDistinguishedByMessage) {
  DiagnosticBag bag;
  bag.error(DiagKind::CannotReadFile, Span{}, "cannot read `a.fitz`");
  bag.error(DiagKind::CannotReadFile, Span{}, "cannot read `b.fitz`");
  bag.error(DiagKind::CannotReadFile, Span{}, "cannot read `a.fitz`");
  EXPECT_EQ(bag.size(), 2u);
}

TEST(DiagnosticBag, BuilderAddsLabelsHintsAndFixes) {
  DiagnosticBag bag;
  Diagnostic& d = bag.error(DiagKind::DecoratorColonArgument, at(0, 10, 11), "use `=`")
                      .with_label(at(0, 2, 8), "in this decorator")
                      .with_hint("write `port=8080`")
                      .with_fix(at(0, 10, 11), "=");
  // References stay valid after more reports.
  for (uint32_t i = 0; i < 200; ++i) bag.error(DiagKind::UnexpectedToken, at(0, 100 + i, 101 + i), "x");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].message, "in this decorator");
  EXPECT_EQ(d.hint, "write `port=8080`");
  ASSERT_EQ(d.fixes.size(), 1u);
  EXPECT_EQ(d.fixes[0].replacement, "=");
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(bag.begin()->labels.size(), 1u);
}

TEST(DiagnosticBag, SortedByFileThenPositionAndStable) {
  DiagnosticBag bag;
  bag.error(DiagKind::UnexpectedToken, at(1, 5, 6), "file1@5");
  bag.error(DiagKind::UnexpectedToken, at(0, 9, 9), "file0@9");
  bag.error(DiagKind::ExpectedToken, at(0, 2, 3), "file0@2 first");
  bag.error(DiagKind::UnexpectedToken, at(0, 2, 3), "file0@2 second");
  bag.error(DiagKind::CannotReadFile, Span{}, "nowhere");
  bag.error(DiagKind::UnexpectedToken, at(0, 2, 2), "file0@2 empty");
  std::vector<std::string> order;
  for (auto const& d : bag.sorted()) order.push_back(d.message);
  EXPECT_EQ(order, (std::vector<std::string>{"nowhere", "file0@2 empty", "file0@2 first",
                                             "file0@2 second", "file0@9", "file1@5"}));
  // Sorting hands out a copy; the bag keeps the order of reporting.
  EXPECT_EQ(bag.begin()->message, "file1@5");
}

TEST(DiagnosticBag, AppendMergesAndDeduplicates) {
  DiagnosticBag a, b;
  a.error(DiagKind::UnexpectedToken, at(0, 1, 2), "x");
  b.error(DiagKind::UnexpectedToken, at(0, 1, 2), "x again");
  b.warning(DiagKind::ManifestUnknownKey, at(0, 3, 4), "y");
  a.append(b);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(a.error_count(), 1u);
  EXPECT_EQ(a.warning_count(), 1u);
}

TEST(DiagnosticTable, HasOneRowPerKindSortedByCode) {
  std::string const table = diagnostic_table_markdown();
  EXPECT_TRUE(table.starts_with("| Code | Name | Severity | Meaning |\n|---|---|---|---|\n"));
  std::size_t rows = 0;
  std::size_t pos = 0;
  while ((pos = table.find("\n| ", pos)) != std::string::npos) {
    ++rows;
    ++pos;
  }
  EXPECT_EQ(rows, kDiagKindCount);
  EXPECT_NE(table.find("| E0001 | UnexpectedCharacter | error | "), std::string::npos);
  EXPECT_LT(table.find("| E0190 "), table.find("| W0100 "));
}

TEST(DiagnosticTable, UpdateReplacesOnlyBetweenMarkers) {
  std::string const doc =
      "# Title\n<!-- diagnostic-codes:begin -->\nold table\n<!-- diagnostic-codes:end -->\ntail\n";
  auto updated = update_diagnostic_table(doc);
  ASSERT_TRUE(updated.has_value());
  EXPECT_TRUE(updated->starts_with("# Title\n<!-- diagnostic-codes:begin -->\n| Code |"));
  EXPECT_TRUE(updated->ends_with("|\n<!-- diagnostic-codes:end -->\ntail\n"));
  EXPECT_EQ(update_diagnostic_table(*updated), *updated);  // idempotent
  EXPECT_FALSE(update_diagnostic_table("no markers here").has_value());
}

}  // namespace
}  // namespace fitz::frontend
