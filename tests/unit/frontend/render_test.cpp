// Unit tests of the diagnostic renderers: the exact text layout (caret alignment under tabs,
// multi-byte and wide characters), JSON Lines schema and escaping, LSP ranges, GitHub commands.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "frontend/render.h"

namespace fitz::frontend {
namespace {

struct Fixture {
  SourceManager sources;
  FileId file;

  explicit Fixture(std::string text, std::string path = "main.fitz")
      : file(sources.add(std::move(path), std::move(text))) {}

  // The span of the `occurrence`-th (0-based) match of `needle`.
  Span find(std::string_view needle, int occurrence = 0) const {
    std::string_view text = sources.file(file).text();
    std::size_t pos = text.find(needle);
    while (occurrence-- > 0) pos = text.find(needle, pos + 1);
    EXPECT_NE(pos, std::string_view::npos) << needle;
    return Span{file, static_cast<uint32_t>(pos), static_cast<uint32_t>(pos + needle.size())};
  }

  Diagnostic diag(DiagKind kind, Span span, std::string message) const {
    return Diagnostic{kind, default_severity(kind), span, std::move(message), {}, {}, {}};
  }
};

// ---- text ------------------------------------------------------------------------------------

TEST(RenderText, HeaderSnippetAndCaret) {
  Fixture f("let x = 1\nlet y = x +\n");
  Span const plus = f.find("+");
  auto d = f.diag(DiagKind::ExpectedExpression, Span{f.file, plus.end, plus.end},
                  "expected an expression after `+`");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:2:12: error[E0023]: expected an expression after `+`\n"
            " 2 | let y = x +\n"
            "   |            ^\n");
}

TEST(RenderText, UnderlineCoversTheSpan) {
  Fixture f("fn main() {\n  retrun 1\n}\n");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("retrun"), "unexpected `retrun`");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:2:3: error[E0022]: unexpected `retrun`\n"
            " 2 |   retrun 1\n"
            "   |   ^~~~~~\n");
}

TEST(RenderText, CaretLinesUpAfterMultiByteCharacters) {
  Fixture f("let é = \"€😀\" + x\n");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("x"), "unexpected `x`");
  // é, € and 😀 are 2, 3 and 4 bytes; é and € are one column wide, 😀 two.
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:1:16: error[E0022]: unexpected `x`\n"
            " 1 | let é = \"€😀\" + x\n"
            "   | " + std::string(16, ' ') + "^\n");
}

TEST(RenderText, Utf16ColumnsForVsCode) {
  Fixture f("let é = \"€😀\" + x\n");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("x"), "unexpected `x`");
  TextRenderOptions o;
  o.utf16_columns = true;
  // 😀 is one scalar but two UTF-16 units: the column moves one to the right, the caret does not.
  EXPECT_EQ(render_text(d, f.sources, o),
            "main.fitz:1:17: error[E0022]: unexpected `x`\n"
            " 1 | let é = \"€😀\" + x\n"
            "   | " + std::string(16, ' ') + "^\n");
}

TEST(RenderText, WideCharactersTakeTwoColumns) {
  Fixture f("let s = \"日本\" + y\n");
  auto d = f.diag(DiagKind::InvalidEscape, f.find("日本"), "wide");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:1:10: error[E0004]: wide\n"
            " 1 | let s = \"日本\" + y\n"
            "   |          ^~~~\n");
}

TEST(RenderText, TabsExpandToTabStops) {
  Fixture f("\tlet x = 1\n  \t  y\n");
  auto dx = f.diag(DiagKind::UnexpectedToken, f.find("x"), "x");
  EXPECT_EQ(render_text(dx, f.sources),
            "main.fitz:1:6: error[E0022]: x\n"
            " 1 |     let x = 1\n"
            "   |         ^\n");
  auto dy = f.diag(DiagKind::UnexpectedToken, f.find("y"), "y");
  EXPECT_EQ(render_text(dy, f.sources, {.color = false, .tab_width = 8}),
            "main.fitz:2:6: error[E0022]: y\n"
            " 2 |           y\n"
            "   |           ^\n");
}

TEST(RenderText, ControlCharactersAndInvalidBytesStayVisibleAndAligned) {
  Fixture f(std::string("a\0\xFF" "b;\n", 6));
  auto d = f.diag(DiagKind::StatementSeparator, f.find(";"), "unexpected `;`");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:1:5: error[E0008]: unexpected `;`\n"
            " 1 | a␀�b;\n"
            "   |     ^\n");
}

TEST(RenderText, CrlfLinesDoNotPrintTheCarriageReturn) {
  Fixture f("let a = 1\r\nlet b = ;\r\n");
  auto d = f.diag(DiagKind::StatementSeparator, f.find(";"), "unexpected `;`");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:2:9: error[E0008]: unexpected `;`\n"
            " 2 | let b = ;\n"
            "   |         ^\n");
}

TEST(RenderText, MultiLineSpanIsUnderlinedToTheEndOfItsFirstLine) {
  Fixture f("x = \"abc\ndef\"\n");
  Span const s{f.file, 4, 13};
  auto d = f.diag(DiagKind::UnterminatedString, s, "unterminated string");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:1:5: error[E0002]: unterminated string\n"
            " 1 | x = \"abc\n"
            "   |     ^~~~\n");
}

TEST(RenderText, SameLineLabelsAreUnderlinedInTheSnippet) {
  Fixture f("if Point { x: 1 } == p {\n");
  auto d = f.diag(DiagKind::StructLiteralInCondition, f.find("Point"),
                  "struct literal in an `if` condition");
  d.with_label(f.find("if"), "this `if`").with_hint("wrap the literal in parentheses");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:1:4: error[E0024]: struct literal in an `if` condition\n"
            " 1 | if Point { x: 1 } == p {\n"
            "   |    ^~~~~\n"
            "   | -- this `if`\n"
            "help: wrap the literal in parentheses\n");
}

TEST(RenderText, LabelsElsewhereBecomeNotesWithTheirOwnLocation) {
  Fixture f("fn main() {\n  let x = (1 +\n    2\n\n\n\n\n\n\n\n\n}\n");
  Span open = f.find("(1");
  open.end = open.begin + 1;
  Span const brace = f.find("}");
  auto d = f.diag(DiagKind::UnclosedDelimiter, brace, "expected `)` to close the `(` opened at 2:11");
  d.with_label(open, "unclosed `(`");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:12:1: error[E0021]: expected `)` to close the `(` opened at 2:11\n"
            " 12 | }\n"
            "    | ^\n"
            "main.fitz:2:11: note: unclosed `(`\n"
            " 2 |   let x = (1 +\n"
            "   |           ^\n");
}

TEST(RenderText, LabelsInOtherFiles) {
  Fixture f("from util import nope\n");
  FileId const other = f.sources.add("util.fitz", "fn yes() {}\n");
  auto d = f.diag(DiagKind::NameNotFoundInModule, f.find("nope"), "`nope` is not defined in `util`");
  d.with_label(Span{other, 0, 0}, "module `util` is here");
  EXPECT_EQ(render_text(d, f.sources),
            "main.fitz:1:18: error[E0101]: `nope` is not defined in `util`\n"
            " 1 | from util import nope\n"
            "   |                  ^~~~\n"
            "util.fitz:1:1: note: module `util` is here\n"
            " 1 | fn yes() {}\n"
            "   | ^\n");
}

TEST(RenderText, DiagnosticWithoutLocationAndMultiLineHint) {
  SourceManager sources;
  Diagnostic d{DiagKind::ManifestUnreadable, Severity::Error, Span{}, "cannot read `fitz.toml`",
               {}, "check the permissions\nor run from the project root", {}};
  EXPECT_EQ(render_text(d, sources),
            "error[E0110]: cannot read `fitz.toml`\n"
            "help: check the permissions\n"
            "      or run from the project root\n");
}

TEST(RenderText, WarningsAndEmptyLines) {
  Fixture f("[package]\n\nnmae = \"x\"\n", "fitz.toml");
  auto d = f.diag(DiagKind::ManifestUnknownKey, Span{f.file, 10, 10}, "blank line");
  EXPECT_EQ(render_text(d, f.sources),
            "fitz.toml:2:1: warning[W0100]: blank line\n"
            " 2 |\n"
            "   | ^\n");
}

TEST(RenderText, ColourOnlyWhenAsked) {
  Fixture f("x;\n");
  auto d = f.diag(DiagKind::StatementSeparator, f.find(";"), "unexpected `;`");
  d.with_hint("remove it");
  EXPECT_EQ(render_text(d, f.sources).find('\x1b'), std::string::npos);
  std::string const coloured = render_text(d, f.sources, {.color = true});
  EXPECT_NE(coloured.find("\x1b[1;31merror[E0008]\x1b[0m"), std::string::npos) << coloured;
  EXPECT_NE(coloured.find("\x1b[1;36mhelp\x1b[0m: remove it"), std::string::npos) << coloured;
}

TEST(RenderText, Summary) {
  EXPECT_EQ(render_summary(0, 0), "");
  EXPECT_EQ(render_summary(1, 0), "error: 1 error emitted\n");
  EXPECT_EQ(render_summary(3, 1), "error: 3 errors, 1 warning emitted\n");
  EXPECT_EQ(render_summary(0, 2), "warning: 2 warnings emitted\n");
}

TEST(DisplayWidth, Classes) {
  EXPECT_EQ(display_width(U'a'), 1u);
  EXPECT_EQ(display_width(U'é'), 1u);
  EXPECT_EQ(display_width(U'日'), 2u);
  EXPECT_EQ(display_width(U'😀'), 2u);
  EXPECT_EQ(display_width(U'\u0301'), 0u);  // combining acute accent
}

// ---- JSON ------------------------------------------------------------------------------------

TEST(RenderJson, OneLineWithTheStableSchemaInOrder) {
  Fixture f("let é = 1 +\n", "src/main.fitz");
  Span const plus = f.find("+");
  auto d = f.diag(DiagKind::ExpectedExpression, Span{f.file, plus.end, plus.end}, "expected `x`");
  d.with_label(f.find("é"), "here").with_hint("add an operand").with_fix(Span{f.file, plus.end, plus.end}, " 0");
  std::string const line = render_json(d, f.sources);
  ASSERT_TRUE(line.ends_with("}\n"));
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_TRUE(line.starts_with(
      R"({"code":"E0023","severity":"error","message":"expected `x`","file":"src/main.fitz",)"
      R"("span":{"start":{"line":1,"column":12,"offset":12},"end":{"line":1,"column":12,"offset":12}},)"
      R"("labels":[{"message":"here","file":"src/main.fitz","span":{"start":{"line":1,"column":5,"offset":4},)"
      R"("end":{"line":1,"column":6,"offset":6}}}],"hint":"add an operand","fixes":[)"))
      << line;
  auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["fixes"][0]["replacement"], " 0");
  EXPECT_EQ(j["fixes"][0]["span"]["start"]["column"], 12);
}

TEST(RenderJson, EscapesAndNulls) {
  SourceManager sources;
  Diagnostic d{DiagKind::CannotReadFile, Severity::Error, Span{},
               std::string("bad \"name\"\n\ttab \x01 and \xFF byte"), {}, {}, {}};
  std::string const line = render_json(d, sources);
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_NE(line.find(R"("message":"bad \"name\"\n\ttab \u0001 and �)" " byte\""),
            std::string::npos)
      << line;  // invalid UTF-8 is replaced, never a thrown exception
  auto j = nlohmann::json::parse(line);
  EXPECT_TRUE(j["file"].is_null());
  EXPECT_TRUE(j["span"].is_null());
  EXPECT_TRUE(j["hint"].is_null());
  EXPECT_TRUE(j["labels"].is_array() && j["labels"].empty());
  EXPECT_EQ(j["code"], "E0190");
}

TEST(RenderJson, EndPositionOfASpanOverMultiByteText) {
  Fixture f("x = \"😀\"\n");
  auto j = diagnostic_to_json(f.diag(DiagKind::InvalidEscape, f.find("\"😀\""), "m"), f.sources);
  EXPECT_EQ(j["span"]["start"]["column"], 5);
  EXPECT_EQ(j["span"]["end"]["column"], 8);  // exclusive, in scalars
  EXPECT_EQ(j["span"]["end"]["offset"], 10);
  EXPECT_EQ(j["severity"], "error");
}

TEST(LspRange, Utf16Characters) {
  Fixture f("a😀b\n  𝔸 = 1\n");
  EXPECT_EQ(lsp_range(f.find("b"), f.sources), (LspRange{{0, 3}, {0, 4}}));
  EXPECT_EQ(lsp_range(f.find("𝔸"), f.sources), (LspRange{{1, 2}, {1, 4}}));
  EXPECT_EQ(lsp_range(f.find("1"), f.sources), (LspRange{{1, 7}, {1, 8}}));
  EXPECT_EQ(lsp_range(Span{}, f.sources), (LspRange{{0, 0}, {0, 0}}));
}

// ---- GitHub ----------------------------------------------------------------------------------

TEST(RenderGithub, CommandWithInclusiveEndColumn) {
  Fixture f("let x = 1\nlet é = retrun\n", "src/main.fitz");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("retrun"), "unexpected `retrun`");
  EXPECT_EQ(render_github(d, f.sources),
            "::error file=src/main.fitz,line=2,col=9,endLine=2,endColumn=14,title=E0022::"
            "unexpected `retrun`\n");
  auto empty = f.diag(DiagKind::ExpectedExpression, Span{f.file, 3, 3}, "m");
  EXPECT_EQ(render_github(empty, f.sources),
            "::error file=src/main.fitz,line=1,col=4,endLine=1,endColumn=4,title=E0023::m\n");
}

TEST(RenderGithub, ColumnsAreUtf16Units) {
  // `r` is the 15th scalar but the 16th UTF-16 unit (😀 takes two).
  Fixture f("let s = \"😀\" + retrun\n", "main.fitz");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("retrun"), "unexpected `retrun`");
  EXPECT_EQ(render_github(d, f.sources),
            "::error file=main.fitz,line=1,col=16,endLine=1,endColumn=21,title=E0022::"
            "unexpected `retrun`\n");
}

TEST(RenderGithub, EscapesPropertiesAndData) {
  Fixture f("x\n", "dir:odd/a,b%.fitz");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("x"), "50% done: a,b\r\nnext");
  d.with_hint("try again");
  EXPECT_EQ(render_github(d, f.sources),
            "::error file=dir%3Aodd/a%2Cb%25.fitz,line=1,col=1,endLine=1,endColumn=1,"
            "title=E0022::50%25 done: a,b%0D%0Anext%0Ahelp: try again\n");
  EXPECT_EQ(github_escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
  EXPECT_EQ(github_escape_data("a:b,c%\r"), "a:b,c%25%0D");
}

TEST(RenderGithub, WarningsNotesLabelsAndNoLocation) {
  Fixture f("[dependecies]\n", "fitz.toml");
  auto w = f.diag(DiagKind::ManifestUnknownKey, f.find("dependecies"), "unknown table");
  w.with_label(Span{f.file, 0, 1}, "here");
  EXPECT_EQ(render_github(w, f.sources),
            "::warning file=fitz.toml,line=1,col=2,endLine=1,endColumn=12,title=W0100::"
            "unknown table%0Afitz.toml:1:1: note: here\n");
  Diagnostic n{DiagKind::ImportCycle, Severity::Note, Span{}, "m", {}, {}, {}};
  EXPECT_EQ(render_github(n, f.sources), "::notice title=E0102::m\n");
}

TEST(Render, FormatNamesAndDispatch) {
  EXPECT_EQ(parse_diagnostic_format("text"), DiagnosticFormat::Text);
  EXPECT_EQ(parse_diagnostic_format("json"), DiagnosticFormat::Json);
  EXPECT_EQ(parse_diagnostic_format("github"), DiagnosticFormat::Github);
  EXPECT_FALSE(parse_diagnostic_format("xml").has_value());
  Fixture f("x\n");
  auto d = f.diag(DiagKind::UnexpectedToken, f.find("x"), "m");
  EXPECT_EQ(render(d, f.sources, DiagnosticFormat::Json), render_json(d, f.sources));
  EXPECT_EQ(render(d, f.sources, DiagnosticFormat::Github), render_github(d, f.sources));
  EXPECT_EQ(render(d, f.sources, DiagnosticFormat::Text), render_text(d, f.sources));
}

TEST(Render, ManyDiagnosticsAtOnce) {
  Fixture f("a;\nb;\n");
  std::vector<Diagnostic> all = {
      f.diag(DiagKind::StatementSeparator, f.find(";"), "first"),
      f.diag(DiagKind::StatementSeparator, f.find(";", 1), "second"),
  };
  EXPECT_EQ(render_text(f.sources, all),
            "main.fitz:1:2: error[E0008]: first\n"
            " 1 | a;\n"
            "   |  ^\n"
            "\n"
            "main.fitz:2:2: error[E0008]: second\n"
            " 2 | b;\n"
            "   |  ^\n");
  EXPECT_NE(render_text(f.sources, all, true).find('\x1b'), std::string::npos);
  EXPECT_EQ(render_json(f.sources, all), render_json(all[0], f.sources) + render_json(all[1], f.sources));
  EXPECT_EQ(render_github(f.sources, all),
            render_github(all[0], f.sources) + render_github(all[1], f.sources));
  EXPECT_EQ(render_text(f.sources, std::vector<Diagnostic>{}), "");
}

}  // namespace
}  // namespace fitz::frontend
