// Lowering an edited file from its previous AST (lower_module_reusing) builds exactly what
// lowering it from scratch builds: every field of every node (ids, spans, where names point in
// the text) is compared through Boost.PFR, over every clean .fitz file of the test data and
// examples, for edits inside one item, before all items, and that remove or swap items.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "frontend/lower.h"
#include "frontend/lower_internal.h"
#include "frontend/syntax_tree.h"
#include "tests/support/ast_fields.h"
#include "tests/support/source_dir.h"

namespace fitz::frontend {
namespace {

namespace fs = std::filesystem;
using test_support::written;

struct LoweredText {
  std::unique_ptr<SourceFile> source;
  SyntaxTree tree;
  Ast ast;
  std::vector<Diagnostic> diags;
};

LoweredText lower_fresh(FileId file, const std::string& text) {
  LoweredText v;
  v.source = std::make_unique<SourceFile>(file, "edited.fitz", text);
  v.tree = parse_text(v.source->text());
  DiagnosticBag diags;
  v.ast = lower_module(*v.source, file, v.tree, diags);
  v.diags.assign(diags.begin(), diags.end());
  return v;
}

// Lowers `before`, then `after` from it, and compares with `after` lowered from scratch.
// Returns false when `before` does not lower cleanly (nothing to reuse).
bool expect_same(const std::string& before, const std::string& after, const std::string& what) {
  LoweredText old = lower_fresh(FileId{1}, before);
  // Without items there is nothing to reuse: the comparison would not test reuse.
  if (!old.diags.empty() || lowering::item_extents(old.ast, old.tree.root()).empty()) return false;
  LoweredText fresh = lower_fresh(FileId{2}, after);
  auto source = std::make_unique<SourceFile>(FileId{2}, "edited.fitz", after);
  SyntaxTree tree = parse_text(source->text());
  DiagnosticBag diags;
  Ast reused = lower_module_reusing(*source, FileId{2}, tree, diags, std::move(old.ast), old.source->text(), old.tree);
  std::vector<Diagnostic> reused_diags(diags.begin(), diags.end());
  std::string got = written(reused, source->text()), want = written(fresh.ast, fresh.source->text());
  if (got != want) {
    size_t at = std::mismatch(got.begin(), got.end(), want.begin(), want.end()).first - got.begin();
    size_t from = at > 200 ? at - 200 : 0;
    ADD_FAILURE() << what << ": the reused AST differs from a fresh one at\n  reused: ..." << got.substr(from, 300)
                  << "\n  fresh:  ..." << want.substr(from, 300);
  }
  EXPECT_EQ(reused_diags.size(), fresh.diags.size()) << what;
  return true;
}

// The byte ranges of the top-level items of a clean text.
std::vector<std::pair<uint32_t, uint32_t>> items_of(const std::string& text) {
  LoweredText v = lower_fresh(FileId{1}, text);
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const lowering::ItemExtent& x : lowering::item_extents(v.ast, v.tree.root())) out.emplace_back(x.begin, x.end);
  return out;
}

std::vector<fs::path> clean_test_files() {
  std::vector<fs::path> out;
  fs::path root = fitz_test_source_dir();
  for (const char* dir : {"tests/testdata", "examples"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir))
      if (e.is_regular_file() && e.path().extension() == ".fitz" && !e.path().filename().string().starts_with("fail_"))
        out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(LowerReuse, SmallModuleEditInOneFunction) {
  std::string before =
      "type Item {\n    name: Str\n    fn label() -> Str => \"{name}!\"\n}\n\nfn a(x: Int) -> Int {\n    return x + 1\n}\n\n"
      "fn b(s: Str) -> Str {\n    let t = \"{s}: {a(2)}\"\n    return t\n}\n\nprint(b(\"z\"))\n";
  std::string after = before;
  after.insert(after.find("return x"), "let y = [1, 2].map(fn(v) => v * x)\n    ");
  ASSERT_TRUE(expect_same(before, after, "edit in a"));
  // The edit made the middle item longer: the ones after it moved; the first did not.
  ASSERT_TRUE(expect_same(after, before, "edit undone"));
}

TEST(LowerReuse, EveryCleanTestFileUnderEdits) {
  size_t compared = 0;
  for (const fs::path& p : clean_test_files()) {
    std::string text = read_text(p);
    auto items = items_of(text);
    if (items.size() < 2) continue;
    const std::string name = p.filename().string();
    // A blank line before everything: every item moves, none changes.
    if (expect_same(text, "\n" + text, name + ": shifted")) ++compared;
    // A comment inside the middle item: that one is lowered again, the rest moved.
    auto [mb, me] = items[items.size() / 2];
    std::string edited = text;
    size_t nl = edited.find('\n', mb);
    if (nl != std::string::npos && nl < me) {
      edited.insert(nl, " // edited");
      expect_same(text, edited, name + ": comment in item");
    }
    // The first item removed, and the first two swapped.
    auto [fb, fe] = items[0];
    auto [sb, se] = items[1];
    expect_same(text, text.substr(0, fb) + text.substr(fe), name + ": first removed");
    std::string swapped = text.substr(0, fb) + text.substr(sb, se - sb) + text.substr(fe, sb - fe) +
                          text.substr(fb, fe - fb) + text.substr(se);
    expect_same(text, swapped, name + ": first two swapped");
  }
  EXPECT_GT(compared, 100u);
}

}  // namespace
}  // namespace fitz::frontend
