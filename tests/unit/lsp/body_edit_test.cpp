// Editing one function of a module with many items, then asking every feature: the served
// analysis (re-checked incrementally, with its previous program's tables and symbol ids) must
// answer diagnostics, hover and completion exactly as a from-scratch analysis of the same texts.
// A body edit re-checks that module only; a signature edit also re-checks its importers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "lsp/analysis.h"
#include "lsp/features/features.h"
#include "lsp/protocol.h"
#include "lsp/uri.h"
#include "lsp/workspace.h"
#include "tests/unit/lsp/project_fixture.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;

// shapes has many items that use each other; app imports it; main imports app.
const std::map<std::string, std::string> kBodyEditProject = {
    {"shapes.fitz",
     "type Box {\n    w: Int\n    h: Int = 1\n    fn area() -> Int => w * h\n    fn grow(by: Int) -> Box {\n"
     "        let nw = w + by\n        return Box { w: nw, h: h + by }\n    }\n}\n\n"
     "fn make_box(w: Int) -> Box {\n    let b = Box { w: w }\n    return b\n}\n\n"
     "fn total(boxes: List<Box>) -> Int {\n    let sum = 0\n    for b in boxes {\n        sum = sum + b.area()\n"
     "    }\n    return sum\n}\n\n"
     "fn describe(b: Box) -> Str {\n    let a = b.area()\n    let tag = \"box {a}\"\n    return tag\n}\n\n"
     "fn biggest(boxes: List<Box>) -> Int {\n    let best = 0\n    for b in boxes {\n"
     "        if b.area() > best {\n            best = b.area()\n        }\n    }\n    return best\n}\n\n"
     "fn labels(n: Int) -> List<Str> {\n    let out = [describe(make_box(n))]\n"
     "    let more = [1, 2].map(fn(v) => describe(make_box(v * n)))\n    return out + more\n}\n"},
    {"app.fitz",
     "from shapes import make_box, total, describe\nimport shapes\n\n"
     "fn run(n: Int) -> Str {\n    let boxes = [make_box(n), make_box(n + 1)]\n"
     "    let t = total(boxes)\n    return describe(boxes[0]) + \" {t} {shapes.biggest(boxes)}\"\n}\n"},
    {"main.fitz", "import app\n\nprint(app.run(3))\n"},
};

class BodyEdit : public test_support::ProjectFixture {
 protected:
  BodyEdit() : ProjectFixture("bodyedit", kBodyEditProject) {}

  // Analyses the project (the edited file first, as the server does) and returns the modules
  // that were checked.
  std::set<std::string> analyse(const std::string& focus) {
    Unit& u = ws_.unit_for(path(focus));
    ws_.complete(u);
    std::set<std::string> names;
    for (ModuleId m : u.analysis->rechecked) names.insert(u.analysis->module(m).path.filename().string());
    return names;
  }


  static std::string completions(const Analysis& a, ModuleId m, const std::string& text, uint32_t offset) {
    std::string out;
    for (const CompletionItem& c : completion(a, m, text, offset))
      out += c.label + "|" + std::to_string(int(c.kind)) + "|" + c.detail + "|" + c.insert_text + "|" + c.doc + "\n";
    return out;
  }

  // The served analysis against a fresh one of the same texts: diagnostics, then hover at the
  // start of every name and completion there and after every `.`, in every module.
  void expect_fresh(const std::string& when) {
    SCOPED_TRACE(when);
    auto served = ws_.analysis_for(path("main.fitz"));
    auto fresh = analyze(root_, root_, ws_.reader());
    ASSERT_FALSE(fresh->fatal) << *fresh->fatal;
    EXPECT_EQ(diagnostic_lines(*served), diagnostic_lines(*fresh));
    size_t hovers = 0, completed = 0;
    for (const auto& [name, text] : texts_) {
      ModuleId sm = served->module_at(path(name)), fm = fresh->module_at(path(name));
      ASSERT_TRUE(sm.valid() && fm.valid()) << name;
      ASSERT_EQ(served->file(sm).text(), text) << name;
      for (uint32_t off = 0; off < text.size(); ++off) {
        bool name_start = std::isalpha(static_cast<unsigned char>(text[off])) &&
                          (off == 0 || !(std::isalnum(static_cast<unsigned char>(text[off - 1])) || text[off - 1] == '_'));
        bool after_dot = off > 0 && text[off - 1] == '.';
        if (!name_start && !after_dot) continue;
        if (name_start) {
          auto a = hover(*served, sm, off), b = hover(*fresh, fm, off);
          ASSERT_EQ(a.has_value(), b.has_value()) << name << " at " << off;
          if (a) {
            ++hovers;
            EXPECT_EQ(a->markdown, b->markdown) << name << " at " << off;
            EXPECT_EQ(std::pair(a->span.begin, a->span.end), std::pair(b->span.begin, b->span.end)) << name << " at " << off;
          }
        }
        std::string got = completions(*served, sm, text, off);
        EXPECT_EQ(got, completions(*fresh, fm, text, off)) << name << " at " << off;
        completed += !got.empty();
        if (HasFailure()) return;
      }
    }
    EXPECT_GT(hovers, 60u);
    EXPECT_GT(completed, 60u);
  }

};

using ModuleNames = std::set<std::string>;

TEST_F(BodyEdit, EditingOneBodyEqualsAFreshAnalysis) {
  analyse("shapes.fitz");
  expect_fresh("first analysis");
  // A new local in one function: its symbols are new, every other item keeps its own.
  replace("shapes.fitz", "    let a = b.area()\n", "    let a = b.area()\n    let doubled = a * 2\n");
  EXPECT_EQ(analyse("shapes.fitz"), (ModuleNames{"shapes.fitz"}));
  expect_fresh("a local added");
  // A lambda and a local removed in another: ids shift inside the module only.
  replace("shapes.fitz", "    let best = 0\n", "    let best = [0].map(fn(z) => z + 1)[0]\n");
  replace("shapes.fitz", "    let doubled = a * 2\n", "");
  EXPECT_EQ(analyse("shapes.fitz"), (ModuleNames{"shapes.fitz"}));
  expect_fresh("a lambda added, the local removed");
  // An error in a method body, then fixed.
  replace("shapes.fitz", "let nw = w + by", "let nw = w + \"by\"");
  EXPECT_EQ(analyse("shapes.fitz"), (ModuleNames{"shapes.fitz"}));
  expect_fresh("an error in a method body");
  replace("shapes.fitz", "let nw = w + \"by\"", "let nw = w + by");
  EXPECT_EQ(analyse("shapes.fitz"), (ModuleNames{"shapes.fitz"}));
  expect_fresh("the error fixed");
  // The importer's body.
  replace("app.fitz", "let t = total(boxes)", "let t = total(boxes) + len(boxes)");
  EXPECT_EQ(analyse("app.fitz"), (ModuleNames{"app.fitz"}));
  expect_fresh("a body of the importer");
}

TEST_F(BodyEdit, EditingOneSignatureEqualsAFreshAnalysis) {
  analyse("shapes.fitz");
  // The return type of a function the importer calls: the importer now has an error.
  replace("shapes.fitz", "fn total(boxes: List<Box>) -> Int {\n    let sum = 0", "fn total(boxes: List<Box>) -> Str {\n    let sum = \"\"");
  ModuleNames checked = analyse("shapes.fitz");
  EXPECT_TRUE(checked.count("shapes.fitz") && checked.count("app.fitz"));
  expect_fresh("a return type changed");
  // Put back: the importer's error goes.
  replace("shapes.fitz", "fn total(boxes: List<Box>) -> Str {\n    let sum = \"\"", "fn total(boxes: List<Box>) -> Int {\n    let sum = 0");
  checked = analyse("shapes.fitz");
  EXPECT_TRUE(checked.count("app.fitz"));
  expect_fresh("the return type back");
  // A parameter added to a method other items of the module and the importer use.
  replace("shapes.fitz", "fn area() -> Int => w * h", "fn area(scale: Int = 1) -> Int => w * h * scale");
  checked = analyse("shapes.fitz");
  EXPECT_TRUE(checked.count("shapes.fitz") && checked.count("app.fitz"));
  expect_fresh("a method parameter added");
  // A field renamed: the methods and functions that read it are errors now.
  replace("shapes.fitz", "    h: Int = 1\n", "    height: Int = 1\n");
  analyse("shapes.fitz");
  expect_fresh("a field renamed");
}

}  // namespace
}  // namespace fitz::lsp
