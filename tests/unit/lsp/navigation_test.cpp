// Definition, references, highlight and rename, on annotated sources.
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

std::vector<std::pair<uint32_t, uint32_t>> ranges_in(const Fixture& f, const std::vector<Span>& spans,
                                                     const std::string& file) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& s : spans)
    if (f.file_of(s) == file) out.push_back(f.range(s));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Definition, LocalVariable) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn main() {\n    let [[total]] = 1\n    print(to^tal)\n}\n");
  f.analyse("main.fitz");
  auto defs = definition(f.a(), f.module(), a.point());
  ASSERT_EQ(defs.size(), 1u);
  EXPECT_EQ(f.range(defs[0]), a.ranges[0]);
}

TEST(Definition, ParameterAndField) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "type P {\n    [[x]]: Int\n}\nfn get([[p]]: P) -> Int => ^p.^x\n");
  f.analyse("main.fitz");
  auto d0 = definition(f.a(), f.module(), a.point(0));
  auto d1 = definition(f.a(), f.module(), a.point(1));
  ASSERT_EQ(d0.size(), 1u);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(f.range(d0[0]), a.ranges[1]);
  EXPECT_EQ(f.range(d1[0]), a.ranges[0]);
}

TEST(Definition, MethodCallAndStructLiteral) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "type [[Box]] {\n    v: Int\n    fn [[twice]]() -> Int => v * 2\n}\n"
                         "let b = B^ox { v: 2 }\nprint(b.tw^ice())\n");
  f.analyse("main.fitz");
  auto d0 = definition(f.a(), f.module(), a.point(0));
  auto d1 = definition(f.a(), f.module(), a.point(1));
  ASSERT_EQ(d0.size(), 1u);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(f.range(d0[0]), a.ranges[0]);
  EXPECT_EQ(f.range(d1[0]), a.ranges[1]);
}

TEST(Definition, AcrossModules) {
  Fixture f;
  const auto& lib = f.file("lib.fitz", "fn [[helper]](n: Int) -> Int => n + 1\nlet [[LIMIT]] = 3\n");
  const auto& main = f.file("main.fitz", "import lib\nfrom lib import helper\nprint(hel^per(1), lib.LI^MIT)\n");
  f.analyse("main.fitz");
  auto d0 = definition(f.a(), f.module(), main.point(0));
  auto d1 = definition(f.a(), f.module(), main.point(1));
  ASSERT_EQ(d0.size(), 1u);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(f.file_of(d0[0]), "lib.fitz");
  EXPECT_EQ(f.range(d0[0]), lib.ranges[0]);
  EXPECT_EQ(f.range(d1[0]), lib.ranges[1]);
}

TEST(Definition, NothingOnKeywordsOrBuiltins) {
  Fixture f;
  const auto& a = f.file("main.fitz", "l^et x = 1\npr^int(x)\n");
  f.analyse("main.fitz");
  EXPECT_TRUE(definition(f.a(), f.module(), a.point(0)).empty());
  EXPECT_TRUE(definition(f.a(), f.module(), a.point(1)).empty());
}

TEST(References, AcrossModulesWithAndWithoutDeclaration) {
  Fixture f;
  const auto& lib = f.file("lib.fitz", "fn [[sq^uare]](n: Int) -> Int => n * n\nlet y = [[square]](2)\n");
  const auto& main = f.file("main.fitz", "from lib import [[square]]\nprint([[square]](3))\n");
  f.analyse("main.fitz");
  ModuleId lib_id = f.module_of("lib.fitz");
  auto all = references(f.a(), lib_id, lib.point(), true);
  EXPECT_EQ(ranges_in(f, all, "lib.fitz"), lib.ranges);
  EXPECT_EQ(ranges_in(f, all, "main.fitz"), main.ranges);
  auto uses = references(f.a(), lib_id, lib.point(), false);
  EXPECT_EQ(uses.size(), all.size() - 1);
}

TEST(References, LocalsOfDifferentFunctionsAreDistinct) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "fn a() -> Int {\n    let [[n]] = 1\n    return [[^n]] + [[n]]\n}\n"
                         "fn b() -> Int {\n    let n = 2\n    return n\n}\n");
  f.analyse("main.fitz");
  auto refs = references(f.a(), f.module(), a.point(), true);
  EXPECT_EQ(ranges_in(f, refs, "main.fitz"), a.ranges);
}

TEST(Highlight, MarksWrites) {
  Fixture f;
  const auto& a = f.file("main.fitz", "fn main() {\n    let [[c]] = 0\n    [[c]] = [[^c]] + 1\n}\n");
  f.analyse("main.fitz");
  auto hs = document_highlight(f.a(), f.module(), a.point());
  ASSERT_EQ(hs.size(), 3u);
  EXPECT_TRUE(hs[0].write);
  EXPECT_TRUE(hs[1].write);
  EXPECT_FALSE(hs[2].write);
}

TEST(Rename, FieldEverywhere) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "type P {\n    [[x]]: Int\n    fn dx() -> Int => [[x]] * 2\n}\n"
                         "let p = P { [[x]]: 1 }\nprint(p.[[^x]])\n");
  f.analyse("main.fitz");
  std::string error;
  auto edits = rename(f.a(), f.module(), a.point(), "width", error);
  ASSERT_TRUE(edits) << error;
  ASSERT_EQ(edits->size(), 1u);
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (const auto& e : edits->begin()->second) {
    EXPECT_EQ(e.new_text, "width");
    got.push_back(f.range(e.span));
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, a.ranges);
}

// Mid-typing, `origin.` ends its line: the receiver is renamed, and so is the variable the
// next line declares (that line used to be swallowed: `let` taken as the member).
TEST(Rename, SeesNamesAroundALineEndingInADot) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "fn main() {\n    let [[origin]] = \"x\"\n    let q = [[origin]].\n"
                         "    let z = [[^origin]]\n    let w = z.\n    let [[z2]] = z\n    print([[^z2]], q, w)\n}\n");
  f.analyse("main.fitz");
  std::string error;
  for (size_t target = 0; target < 2; ++target) {
    auto edits = rename(f.a(), f.module(), a.point(target), "renamed", error);
    ASSERT_TRUE(edits) << error;
    ASSERT_EQ(edits->size(), 1u);
    std::vector<std::pair<uint32_t, uint32_t>> got;
    for (const auto& e : edits->begin()->second) got.push_back(f.range(e.span));
    std::sort(got.begin(), got.end());
    std::vector<std::pair<uint32_t, uint32_t>> want(a.ranges.begin() + (target ? 3 : 0), a.ranges.begin() + (target ? 5 : 3));
    EXPECT_EQ(got, want) << "target " << target;
  }
}

TEST(Rename, RejectsKeywordsBuiltinsAndBadNames) {
  Fixture f;
  const auto& a = f.file("main.fitz", "let v^alue = 1\npr^int(value)\n");
  f.analyse("main.fitz");
  std::string error;
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(0), "let", error));
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(0), "9lives", error));
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(0), "a-b", error));
  EXPECT_FALSE(prepare_rename(f.a(), f.module(), a.point(1), error));
  auto ok = prepare_rename(f.a(), f.module(), a.point(0), error);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->placeholder, "value");
  EXPECT_TRUE(is_valid_identifier("größe"));
  // The parser decides: CJK and Hangul names are names, a no-break space or a currency sign
  // inside one is not (the former byte test let every non-ASCII byte through).
  EXPECT_TRUE(is_valid_identifier("名前"));
  EXPECT_TRUE(is_valid_identifier("이름_2"));
  EXPECT_FALSE(is_valid_identifier("a\u00a0b"));
  EXPECT_FALSE(is_valid_identifier("price€"));
  EXPECT_FALSE(is_valid_identifier("static"));
  EXPECT_FALSE(is_valid_identifier("a b"));
  EXPECT_FALSE(is_valid_identifier("a\nb"));
  EXPECT_FALSE(is_valid_identifier("_"));
}

TEST(Rename, RefusesANameThatWouldClash) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "type P {\n    x: Int\n    y: Int\n}\nlet li^mit = 3\nfn f(a^rg: Int) -> Int {\n"
                         "    let other = arg + 1\n    return other + limit\n}\nprint(P { x: 1, y: 2 }.^x)\n");
  f.analyse("main.fitz");
  std::string error;
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(1), "other", error));
  EXPECT_NE(error.find("another variable of this function"), std::string::npos) << error;
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(1), "limit", error));
  EXPECT_NE(error.find("top-level name"), std::string::npos) << error;
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(0), "f", error));
  EXPECT_FALSE(rename(f.a(), f.module(), a.point(2), "y", error));
  EXPECT_NE(error.find("a field of `P`"), std::string::npos) << error;
  // A fresh name is fine.
  EXPECT_TRUE(rename(f.a(), f.module(), a.point(1), "count", error)) << error;
  EXPECT_TRUE(rename(f.a(), f.module(), a.point(2), "z", error)) << error;
}

TEST(WorkspaceSymbols, FuzzyQuery) {
  Fixture f;
  f.file("main.fitz", "type UserAccount {\n    name: Str\n}\nfn load_user() -> Int => 1\nlet other = 2\n");
  f.analyse("main.fitz");
  auto syms = workspace_symbols(f.a(), "usac");
  ASSERT_EQ(syms.size(), 1u);
  EXPECT_EQ(syms[0].name, "UserAccount");
  EXPECT_EQ(workspace_symbols(f.a(), "ldusr").size(), 1u);
}

}  // namespace
}  // namespace fitz::lsp
