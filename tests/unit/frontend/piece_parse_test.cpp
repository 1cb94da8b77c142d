// A file parsed in pieces on several threads (frontend/piece_parse.h) lowers to exactly the AST
// and diagnostics of the whole file parsed at once: every field of every node is compared, over
// every .fitz file of the test data, the examples and the conformance corpus cut as finely as
// the cutting allows. Pieces that do not stand alone (a syntax error, a cut inside a string,
// a comment or a block) are refused, and parse_module then parses the whole file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "frontend/lower.h"
#include "frontend/piece_parse.h"
#include "frontend/project.h"
#include "frontend/syntax_tree.h"
#include "tests/support/ast_fields.h"
#include "tests/support/source_dir.h"

namespace fitz::frontend {
namespace {

namespace fs = std::filesystem;
using test_support::written;

// As fine as cutting goes: a piece may be a single item.
constexpr PieceLimits kFine{1, 256, 2};

struct Lowered {
  std::unique_ptr<SourceFile> source;
  std::optional<Ast> ast;
  std::string diags;
};

std::string diagnostics_text(const DiagnosticBag& bag) {
  std::ostringstream out;
  for (const Diagnostic& d : bag)
    out << int(d.kind) << ' ' << d.span.begin << '-' << d.span.end << ' ' << d.message << " | " << d.hint << '\n';
  return out.str();
}

Lowered whole(const std::string& text) {
  Lowered v;
  v.source = std::make_unique<SourceFile>(FileId{3}, "piece.fitz", text);
  SyntaxTree tree = parse_text(v.source->text());
  DiagnosticBag diags;
  v.ast = lower_module(*v.source, FileId{3}, tree, diags);
  v.diags = diagnostics_text(diags);
  return v;
}

Lowered in_pieces(const std::string& text, const PieceLimits& limits = kFine) {
  Lowered v;
  v.source = std::make_unique<SourceFile>(FileId{3}, "piece.fitz", text);
  DiagnosticBag diags;
  v.ast = parse_in_pieces(*v.source, FileId{3}, diags, limits);
  v.diags = diagnostics_text(diags);
  return v;
}

// What every caller that wants no tree gets: pieces when the file is large, else the whole.
Lowered through_parse_module(const std::string& text) {
  Lowered v;
  v.source = std::make_unique<SourceFile>(FileId{3}, "piece.fitz", text);
  DiagnosticBag diags;
  v.ast = parse_module(*v.source, FileId{3}, diags);
  v.diags = diagnostics_text(diags);
  return v;
}

void expect_same_ast(const Lowered& got, const Lowered& want, const std::string& what) {
  ASSERT_TRUE(got.ast && want.ast) << what;
  std::string a = written(*got.ast, got.source->text()), b = written(*want.ast, want.source->text());
  if (a != b) {
    size_t at = std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
    size_t from = at > 200 ? at - 200 : 0;
    ADD_FAILURE() << what << ": the AST from pieces differs from the whole file's at\n  pieces: ..." << a.substr(from, 300)
                  << "\n  whole:  ..." << b.substr(from, 300);
  }
  EXPECT_EQ(got.diags, want.diags) << what;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> out;
  fs::path root = fitz_test_source_dir();
  for (fs::path dir : {root / "tests/testdata", root / "examples", root / "../shared/conformance"}) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".fitz") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A program of `units` items of every common kind, separated by blank lines.
std::string program(int units) {
  std::string out;
  for (int i = 0; i < units; ++i) {
    std::string n = std::to_string(i);
    out += "// unit " + n + "\n"
           "type Point" + n + " {\n    x: Int\n    y: Int = 0\n\n    fn norm() -> Int => x * x + y * y\n}\n\n"
           "@get(\"/p" + n + "/{id}\")\nfn get_" + n + "(id: Int) -> Point" + n + " {\n"
           "    let total = [k * 2 for k in 0..id if k % 3 == 0]\n"
           "    return Point" + n + " { x: id, y: total.len() }\n}\n\n"
           "let label" + n + " = match " + n + " % 3 {\n    0 => \"zero {1 + 2}\"\n    _ => \"\"\"\n  more\n\"\"\"\n}\n\n";
  }
  return out;
}

TEST(PieceCuts, AtItemStartsAfterBlankLinesOnly) {
  std::string text = program(40);
  std::vector<uint32_t> cuts = piece_cuts(text, kFine);
  ASSERT_GE(cuts.size(), 20u);
  uint32_t last = 0;
  for (uint32_t c : cuts) {
    EXPECT_GT(c, last);
    last = c;
    ASSERT_GE(c, 2u);
    EXPECT_EQ(text[c - 1], '\n');
    EXPECT_EQ(text[c - 2], '\n') << "a cut after a line that is not blank, at " << c;
    EXPECT_NE(text.compare(c, 4, "else"), 0);
  }
  // Never a piece under the minimum; nothing to cut in a small text.
  PieceLimits big{text.size() / 3, 0, 2};
  cuts = piece_cuts(text, big);
  ASSERT_FALSE(cuts.empty());
  EXPECT_LE(cuts.size(), 2u);
  EXPECT_GE(cuts[0], big.min_bytes);
  EXPECT_GE(text.size() - cuts.back(), big.min_bytes);
  EXPECT_TRUE(piece_cuts("fn a() {}\n\nfn b() {}\n", PieceLimits{}).empty());
  // A line after a blank one that starts with `else` or a bracket continues what is above it.
  EXPECT_TRUE(piece_cuts("let a = if x {\n    1\n}\n\nelse {\n    2\n}\n\n(3)\n", kFine).empty());
}

TEST(PieceParse, SameAstAsTheWholeFileForEveryCorpusFile) {
  size_t cut = 0, refused = 0;
  for (const fs::path& p : corpus_files()) {
    std::string text = read_text(p);
    if (piece_cuts(text, kFine).empty()) continue;
    Lowered pieces = in_pieces(text), all = whole(text);
    if (!pieces.ast) {
      ++refused;
      EXPECT_TRUE(pieces.diags.empty()) << p << ": a refused parse reported something";
      continue;
    }
    ++cut;
    expect_same_ast(pieces, all, p.string());
  }
  // Enough files are cut for the comparison to mean something.
  EXPECT_GE(cut, 30u) << refused << " refused";
}

TEST(PieceParse, LargeProgramThroughParseModule) {
  std::string text = program(2000);  // ~1 MB: parse_module cuts it with its default limits
  ASSERT_GE(piece_cuts(text).size(), 1u);
  Lowered all = whole(text);
  Lowered pieces = in_pieces(text, PieceLimits{});
  ASSERT_TRUE(pieces.ast.has_value());
  expect_same_ast(pieces, all, "in pieces");
  expect_same_ast(through_parse_module(text), all, "parse_module");
}

// Each text is cut somewhere pieces cannot stand alone; parse_in_pieces refuses it, and
// parse_module gives the whole file's AST and diagnostics.
TEST(PieceParse, PiecesThatDoNotStandAloneAreRefused) {
  std::string head = program(30), tail = program(30);
  struct Case {
    const char* what;
    std::string text;
  } cases[] = {
      {"a syntax error", head + "fn broken( {\n}\n\n" + tail},
      {"a cut inside a triple-quoted string", head + "let s = \"\"\"\nline\n\nfn not_code() {}\n\"\"\"\n\n" + tail},
      {"a cut inside a block comment", head + "/* a comment\n\nfn not_code() {}\n*/\n\n" + tail},
      {"a cut inside a block", head + "fn outer() {\n    let a = 1\n\nlet b = 2\n}\n\n" + tail},
      {"a cut inside brackets", head + "let xs = [\n    1,\n\nlabel0,\n]\n\n" + tail},
      {"a block comment left open at the end", head + tail + "\n\nlet z = 1\n/* open\n\nfn x() {}\n"},
  };
  // Large enough around the mistake for parse_module to cut it with its default limits.
  std::string around = program(600);
  for (const Case& c : cases) {
    Lowered pieces = in_pieces(c.text);
    EXPECT_FALSE(pieces.ast.has_value()) << c.what;
    EXPECT_TRUE(pieces.diags.empty()) << c.what;
    std::string large = around + c.text + around;
    ASSERT_FALSE(piece_cuts(large).empty());
    expect_same_ast(through_parse_module(large), whole(large), c.what);
  }
}

// Lowering diagnostics of pieces that stand alone (a keyword as a name, a malformed literal) are
// reported once, in the order the whole file reports them.
TEST(PieceParse, LoweringDiagnosticsAsForTheWholeFile) {
  std::string text = program(20) + "let x = 0x\n\n" + program(20) + "let y = 1_\n\n" + program(5);
  Lowered pieces = in_pieces(text), all = whole(text);
  ASSERT_FALSE(all.diags.empty());
  ASSERT_TRUE(pieces.ast.has_value()) << "refused, so nothing compared";
  expect_same_ast(pieces, all, "lowering diagnostics");
}

TEST(PieceParse, LoaderKeepsTreesOnlyWhenAsked) {
  fs::path dir = fs::temp_directory_path() / ("fitz_piece_parse_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "big.fitz") << program(2000);
  }
  for (bool keep : {false, true}) {
    SourceManager sources;
    DiagnosticBag diags;
    LoadRequest req;
    req.target = dir / "big.fitz";
    req.keep_syntax_trees = keep;
    LoadResult r = load_program(req, sources, diags);
    ASSERT_EQ(r.graph.roots.size(), 1u);
    const Module& m = r.graph.get(r.graph.roots[0]);
    EXPECT_EQ(m.tree.valid(), keep);
    EXPECT_EQ(diags.size(), 0u);
    EXPECT_EQ(m.ast.top_level.size(), 6000u);  // three items per unit
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fitz::frontend
