// Module interface summaries: a body-only edit keeps a module's summary hash (its importers
// need no re-check); a change to what importers can see changes it.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/checked_files.h"

namespace {

struct Checked {
  uint64_t hash = 0;
  std::string exports;
  size_t errors = 0;
};

// Checks main.fitz importing util.fitz (with the given text) and returns util's summary.
Checked check_util(const std::string& util_text) {
  auto c = fitz::test_support::check_files({{"util.fitz", util_text}, {"main.fitz", "import util\nprint(util.scale(2))\n"}});
  Checked out;
  out.errors = c->diags.error_count();
  for (size_t i = 0; i < c->loaded.graph.modules.size(); ++i) {
    if (c->loaded.graph.modules[i].path.filename() != "util.fitz") continue;
    const auto& iface = c->program.modules[i].interface;
    out.hash = iface.hash;
    for (const auto& e : iface.exports) out.exports += e.name + ": " + e.type + "\n";
  }
  return out;
}

TEST(ModuleInterface, BodyEditKeepsTheSummary) {
  Checked a = check_util("fn scale(n: Int) -> Int {\n    return n * 2\n}\ntype P { x: Int }\n");
  Checked b = check_util("fn scale(n: Int) -> Int {\n    let k = 3\n    return n * k\n}\ntype P { x: Int }\n");
  EXPECT_EQ(a.errors, 0u);
  EXPECT_EQ(b.errors, 0u);
  EXPECT_EQ(a.hash, b.hash) << a.exports << "---\n" << b.exports;
  EXPECT_EQ(a.exports, "scale: Fn(Int) -> Int\nP: type { x: Int, }\n");
}

TEST(ModuleInterface, SignatureOrLayoutEditChangesTheSummary) {
  Checked base = check_util("fn scale(n: Int) -> Int => n * 2\ntype P { x: Int }\n");
  Checked param = check_util("fn scale(n: Float) -> Float => n * 2\ntype P { x: Int }\n");
  Checked field = check_util("fn scale(n: Int) -> Int => n * 2\ntype P { x: Int, y: Int = 0 }\n");
  EXPECT_NE(base.hash, param.hash);
  EXPECT_NE(base.hash, field.hash);
}

TEST(ModuleInterface, InferredReturnTypesArePartOfTheSummary) {
  // A function without `->` exports the LUB of its returns, so a body edit can change it.
  Checked a = check_util("fn scale(n: Int) {\n    return n * 2\n}\n");
  Checked b = check_util("fn scale(n: Int) {\n    return n * 2.5\n}\n");
  EXPECT_NE(a.hash, b.hash);
  EXPECT_EQ(a.exports, "scale: Fn(Int) -> Int\n");
  EXPECT_EQ(b.exports, "scale: Fn(Int) -> Float\n");
}

}  // namespace
