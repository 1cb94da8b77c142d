// Document symbols, folding ranges, selection ranges and semantic tokens.
#include <algorithm>
#include <array>

#include "frontend/syntax_tree.h"
#include "lsp/protocol.h"
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

TEST(DocumentSymbols, TypesWithMembersFunctionsGlobals) {
  Fixture f;
  f.file("main.fitz",
         "import util\ntype User {\n    name: Str\n    fn greet() -> Str => \"hi {name}\"\n}\n"
         "fn main(args: List<Str>) -> Int {\n    return 0\n}\nlet LIMIT = 10\nlet count = 0\ncount = 1\n");
  f.file("util.fitz", "let X = 1\n");
  f.analyse("main.fitz");
  auto syms = document_symbols(f.a(), f.module());
  std::vector<std::string> names;
  for (const auto& s : syms) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"util", "User", "main", "LIMIT", "count"}));
  ASSERT_EQ(syms[1].children.size(), 2u);
  EXPECT_EQ(syms[1].children[0].name, "name");
  EXPECT_EQ(syms[1].children[0].detail, "Str");
  EXPECT_EQ(syms[1].children[1].kind, SymbolKind::Method);
  EXPECT_EQ(syms[2].detail, "(args: List<Str>) -> Int");
  EXPECT_EQ(syms[3].kind, SymbolKind::Constant);
  EXPECT_EQ(f.text_of(syms[2].selection_span), "main");
}

TEST(Folding, BlocksTypesMatchLiteralsImportsComments) {
  std::string text =
      "import a\n"                    // 0
      "import b\n"                    // 1
      "// one\n"                      // 2
      "// two\n"                      // 3
      "type T {\n"                    // 4
      "    x: Int\n"                  // 5
      "}\n"                           // 6
      "fn f(n: Int) -> Int {\n"       // 7
      "    return match n {\n"        // 8
      "        0 => 1\n"              // 9
      "        _ => 2\n"              // 10
      "    }\n"                       // 11
      "}\n"                           // 12
      "let xs = [\n"                  // 13
      "    1,\n"                      // 14
      "]\n"                           // 15
      "/* a\n"                        // 16
      "   b */\n";                    // 17
  auto tree = frontend::parse_text(text);
  auto folds = folding_ranges(tree, text);
  auto has = [&](uint32_t s, uint32_t e, FoldingRange::Kind k) {
    for (const auto& r : folds)
      if (r.start_line == s && r.end_line == e && r.kind == k) return true;
    return false;
  };
  EXPECT_TRUE(has(0, 1, FoldingRange::Kind::Imports));
  EXPECT_TRUE(has(2, 3, FoldingRange::Kind::Comment));
  EXPECT_TRUE(has(4, 5, FoldingRange::Kind::Region));
  EXPECT_TRUE(has(7, 11, FoldingRange::Kind::Region));
  EXPECT_TRUE(has(8, 10, FoldingRange::Kind::Region));
  EXPECT_TRUE(has(13, 14, FoldingRange::Kind::Region));
  EXPECT_TRUE(has(16, 17, FoldingRange::Kind::Comment));
}

TEST(SelectionRanges, GrowOutward) {
  auto a = test_support::annotate("fn f() -> Int {\n    return [[[[ab^c]] * 2]] + 1\n}\n");
  auto tree = frontend::parse_text(a.text);
  auto chains = selection_ranges(tree, {a.point()});
  ASSERT_EQ(chains.size(), 1u);
  const auto& c = chains[0];
  // Every range contains the previous one; the marked expressions are in the chain.
  for (size_t i = 1; i < c.size(); ++i) EXPECT_TRUE(c[i].first <= c[i - 1].first && c[i - 1].second <= c[i].second);
  for (const auto& r : a.ranges) EXPECT_NE(std::find(c.begin(), c.end(), r), c.end()) << r.first << "-" << r.second;
  EXPECT_EQ(c.back(), std::make_pair(0u, uint32_t(a.text.size())));
}

TEST(SemanticTokens, SyntaxThenResolved) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "// c\ntype [[P]] {\n    [[x]]: Int\n}\nfn [[mk]]([[v]]: Int) -> P => P { x: [[v]] }\nlet [[s]] = \"str\"\nprint(mk(1).x, 42)\n");
  f.analyse("main.fitz");
  auto tree = frontend::parse_text(a.text);
  auto plain = semantic_tokens(tree, a.text);
  auto typed = semantic_tokens(tree, a.text, &f.a(), f.module());
  auto find = [&](const std::vector<SemanticToken>& ts, uint32_t b) -> const SemanticToken* {
    for (const auto& t : ts)
      if (t.begin == b) return &t;
    return nullptr;
  };
  ASSERT_TRUE(find(plain, 0));
  EXPECT_EQ(find(plain, 0)->type, TokenType::Comment);
  EXPECT_EQ(find(typed, a.ranges[0].first)->type, TokenType::Struct);
  EXPECT_EQ(find(typed, a.ranges[1].first)->type, TokenType::Property);
  EXPECT_EQ(find(typed, a.ranges[2].first)->type, TokenType::Function);
  EXPECT_EQ(find(typed, a.ranges[3].first)->type, TokenType::Parameter);
  EXPECT_TRUE(find(typed, a.ranges[3].first)->modifiers & kDeclaration);
  EXPECT_EQ(find(typed, a.ranges[4].first)->type, TokenType::Parameter);
  EXPECT_EQ(find(typed, a.ranges[5].first)->type, TokenType::Variable);
  uint32_t print_at = uint32_t(a.text.find("print"));
  ASSERT_TRUE(find(typed, print_at));
  EXPECT_TRUE(find(typed, print_at)->modifiers & kDefaultLibrary);
  uint32_t num = uint32_t(a.text.find("42"));
  EXPECT_EQ(find(typed, num)->type, TokenType::Number);
  uint32_t kw = uint32_t(a.text.find("fn"));
  EXPECT_EQ(find(typed, kw)->type, TokenType::Keyword);
  for (size_t i = 1; i < typed.size(); ++i) EXPECT_LE(typed[i - 1].end, typed[i].begin);
}

// Identifiers from whole-range Unicode blocks (CJK, Hangul) and outside the BMP: tokens are
// found at their byte offsets, and LSP columns and lengths are counted in UTF-16 code units.
TEST(SemanticTokens, MultibyteIdentifiersInUtf16Columns) {
  Fixture f;
  const auto& a = f.file("main.fitz", "let [[名前]] = 1\nlet [[𠀀이름]] = [[名前]] + 2\nprint([[𠀀이름]])\n");
  const Analysis& an = f.analyse("main.fitz");
  EXPECT_TRUE(an.diagnostics.empty()) << an.diagnostics.front().message;
  auto tree = frontend::parse_text(a.text);
  auto typed = semantic_tokens(tree, a.text, &f.a(), f.module());
  for (const auto& r : a.ranges) {
    auto it = std::find_if(typed.begin(), typed.end(), [&](const SemanticToken& t) { return t.begin == r.first; });
    ASSERT_NE(it, typed.end()) << r.first;
    EXPECT_EQ(it->end, r.second);
    EXPECT_EQ(it->type, TokenType::Variable);
  }
  std::vector<uint32_t> data = encode_semantic_tokens(f.a().file(f.module()), typed);
  // Five numbers a token: delta line, delta start, length, type, modifiers. Find the
  // identifiers by their type and check their UTF-16 starts and lengths.
  std::vector<std::array<uint32_t, 3>> vars;  // line, start, length
  uint32_t line = 0, col = 0;
  for (size_t i = 0; i + 4 < data.size(); i += 5) {
    col = data[i] == 0 ? col + data[i + 1] : data[i + 1];
    line += data[i];
    if (data[i + 3] == uint32_t(TokenType::Variable)) vars.push_back({line, col, data[i + 2]});
  }
  using L = std::array<uint32_t, 3>;
  // `名前` is 2 UTF-16 units; `𠀀이름` is 4 (a surrogate pair, then two).
  EXPECT_EQ(vars, (std::vector<L>{L{0, 4, 2}, L{1, 4, 4}, L{1, 11, 2}, L{2, 6, 4}}));
}

// A repeated import is faded like an unused one (tag 1, Unnecessary).
TEST(DiagnosticTags, RepeatedImportIsUnnecessary) {
  Fixture f;
  f.file("util.fitz", "fn double(n: Int) -> Int => n * 2\n");
  f.file("main.fitz", "from util import double, double\nprint(double(1))\n");
  const Analysis& an = f.analyse("main.fitz");
  auto it = std::find_if(an.diagnostics.begin(), an.diagnostics.end(),
                         [](const frontend::Diagnostic& d) { return d.kind == frontend::DiagKind::DuplicateImport; });
  ASSERT_NE(it, an.diagnostics.end());
  EXPECT_EQ(diagnostic_to_json(an, *it).value("tags", json::array()), json::array({1}));
}

}  // namespace
}  // namespace fitz::lsp
