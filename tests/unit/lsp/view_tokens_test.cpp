// Semantic tokens of `.fitzv` views: the view's names from the IR, code from the generated module.
#include "tests/unit/lsp/view_fixture.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

TEST(ViewTokens, NamesAndCode) {
  Fixture f;
  const auto& a = f.file("Counter.fitzv", R"V(component [[Counter]] {
  props { [[step]]: Int = 1 }
  state { [[count]]: Int = 0 }
  event [[add]]() { [[count]] = [[count]] + [[step]] }
  <template>
    <p>{[[count]]}</p>
    <button @click="[[add]]">+</button>
  </template>
}
)V");
  f.analyse("Counter.fitzv");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  auto tokens = view_semantic_tokens(f.a(), test_support::view_file(f, "Counter.fitzv"));
  auto at = [&](std::pair<uint32_t, uint32_t> r) -> const SemanticToken* {
    for (const auto& t : tokens)
      if (t.begin == r.first && t.end == r.second) return &t;
    return nullptr;
  };
  for (size_t i = 1; i < tokens.size(); ++i) EXPECT_LE(tokens[i - 1].end, tokens[i].begin) << "sorted, no overlap";
  const TokenType want[] = {TokenType::Struct,   TokenType::Property, TokenType::Property, TokenType::Method, TokenType::Property,
                            TokenType::Property, TokenType::Property, TokenType::Property, TokenType::Method};
  ASSERT_EQ(a.ranges.size(), std::size(want));
  for (size_t i = 0; i < a.ranges.size(); ++i) {
    const SemanticToken* t = at(a.ranges[i]);
    ASSERT_TRUE(t) << "no token at range " << i;
    EXPECT_EQ(t->type, want[i]) << "range " << i;
  }
  EXPECT_TRUE(at(a.ranges[1])->modifiers & kReadonly) << "props are read-only";
  EXPECT_FALSE(at(a.ranges[2])->modifiers & kReadonly);
  bool int_type = false;  // `Int` in the field declarations, from the generated module
  for (const auto& t : tokens) int_type |= a.text.substr(t.begin, t.end - t.begin) == "Int" && t.type == TokenType::Type;
  EXPECT_TRUE(int_type);
}

}  // namespace
}  // namespace fitz::lsp
