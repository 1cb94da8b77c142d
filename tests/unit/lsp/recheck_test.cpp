// Which modules an analysis re-checks: an edit inside a function body re-checks that module
// only, an interface edit also re-checks the modules that import it (directly or not), and the
// others keep their previous tables (with the same top-level symbol ids). Every analysis's
// diagnostics must equal a fresh check of the same texts, also across randomised edits.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/uri.h"
#include "lsp/workspace.h"
#include "tests/unit/lsp/project_fixture.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;

// base <- mid <- top (a chain of imports); other imports nothing; main imports top and other.
const std::map<std::string, std::string> kProject = {
    {"base.fitz",
     "type Point {\n    x: Int\n    y: Int = 0\n    fn norm() -> Int => x * x + y * y\n}\n\n"
     "fn make(x: Int, y: Int) -> Point {\n    let p = Point { x: x, y: y }\n    return p\n}\n\n"
     "fn scale(n: Int) -> Int {\n    let k = 2\n    return n * k\n}\n"},
    {"mid.fitz",
     "from base import make, scale, Point\n\nfn twice(p: Point) -> Int {\n    return scale(p.norm())\n}\n\n"
     "fn origin() -> Point => make(0, y: 1)\n"},
    {"top.fitz", "import mid\n\nfn run() -> Int {\n    let o = mid.origin()\n    return mid.twice(o) + o.x\n}\n"},
    {"other.fitz", "fn alone(s: Str) -> Int {\n    return len(s)\n}\n"},
    {"main.fitz", "import top\nimport other\n\nprint(top.run() + other.alone(\"hi\"))\n"},
};

class Recheck : public test_support::ProjectFixture {
 protected:
  Recheck() : ProjectFixture("recheck", kProject) {}

  // Analyses the project and returns the names of the modules that were checked.
  std::set<std::string> analyse() {
    auto a = ws_.analysis_for(path("main.fitz"));
    std::set<std::string> names;
    for (ModuleId m : a->rechecked) names.insert(a->module(m).path.filename().string());
    return names;
  }

  // The server's current analysis against a fresh check of the same texts, like `fitz check`.
  void expect_fresh(const std::string& when) {
    auto a = ws_.analysis_for(path("main.fitz"));
    auto fresh = analyze(root_, root_, ws_.reader());
    ASSERT_FALSE(fresh->fatal) << *fresh->fatal;
    EXPECT_EQ(diagnostic_lines(*a), diagnostic_lines(*fresh)) << when;
  }

  // The diagnostics a pending analysis has for its focus file against a fresh check's.
  void expect_focus_fresh(Unit& u, const std::string& focus, const std::string& when) {
    ASSERT_TRUE(u.pending) << when;
    const Analysis& a = *u.analysis;
    std::vector<std::string> got;
    for (const auto& d : focus_diagnostics(*u.pending, u.session))
      got.push_back(a.path_of(d.span.file).filename().string() + " " + diagnostic_to_json(a, d).dump());
    auto fresh = analyze(root_, root_, ws_.reader());
    ASSERT_FALSE(fresh->fatal) << *fresh->fatal;
    std::vector<std::string> want;
    // The lint pass (W1000-W1099) needs the whole program: its warnings come with the complete
    // publish, not the focus one.
    for (const std::string& r : diagnostic_lines(*fresh))
      if (r.starts_with(focus + " ") && r.find("\"code\":\"W10") == std::string::npos) want.push_back(r);
    EXPECT_EQ(got, want) << when;
  }

  // The symbol id of a top-level name of a module.
  checker::SymbolId top_symbol(const std::string& module, const std::string& name) {
    auto a = ws_.analysis_for(path("main.fitz"));
    const checker::ModuleTir* t = a->tir(a->module_at(path(module)));
    if (!t) return {};
    auto it = t->interface.by_name.find(name);
    return it == t->interface.by_name.end() ? checker::SymbolId() : it->second;
  }

};

using Names = std::set<std::string>;

TEST_F(Recheck, FirstAnalysisChecksEverything) {
  EXPECT_EQ(analyse(), (Names{"base.fitz", "mid.fitz", "top.fitz", "other.fitz", "main.fitz"}));
  expect_fresh("first");
}

TEST_F(Recheck, BodyEditRechecksOnlyThatModule) {
  analyse();
  checker::SymbolId scale = top_symbol("base.fitz", "scale");
  checker::SymbolId point = top_symbol("base.fitz", "Point");
  ASSERT_TRUE(scale.valid());
  replace("base.fitz", "let k = 2", "let k = 3 + 4");
  EXPECT_EQ(analyse(), (Names{"base.fitz"}));
  expect_fresh("body edit");
  EXPECT_EQ(top_symbol("base.fitz", "scale"), scale);
  EXPECT_EQ(top_symbol("base.fitz", "Point"), point);

  // A new local and a lambda shift ids inside the module; its importers stay untouched.
  replace("base.fitz", "return n * k", "let m = [1, 2].map(fn(v) => v * k)\n    return n * k + len(m)");
  EXPECT_EQ(analyse(), (Names{"base.fitz"}));
  expect_fresh("body edit with a lambda");
  EXPECT_EQ(top_symbol("base.fitz", "scale"), scale);

  replace("other.fitz", "return len(s)", "return len(s) + 1");
  EXPECT_EQ(analyse(), (Names{"other.fitz"}));
  expect_fresh("body edit in a leaf");

  // An error inside a body is reported, and only that module is re-checked to report it.
  replace("mid.fitz", "return scale(p.norm())", "return scale(p.norm()) + \"s\"");
  EXPECT_EQ(analyse(), (Names{"mid.fitz"}));
  expect_fresh("error in a body");
  replace("mid.fitz", "return scale(p.norm()) + \"s\"", "return scale(p.norm())");
  EXPECT_EQ(analyse(), (Names{"mid.fitz"}));
  expect_fresh("error fixed");
}

TEST_F(Recheck, InterfaceEditRechecksImportersTransitively) {
  analyse();
  // scale now returns Str: mid and, through it, top and main are checked again; other is not.
  replace("base.fitz", "fn scale(n: Int) -> Int {\n    let k = 2\n    return n * k", "fn scale(n: Int) -> Str {\n    let k = 2\n    return \"{n * k}\"");
  EXPECT_EQ(analyse(), (Names{"base.fitz", "mid.fitz", "top.fitz", "main.fitz"}));
  expect_fresh("return type changed");

  // A field added to a type other modules use.
  replace("base.fitz", "    y: Int = 0\n", "    y: Int = 0\n    z: Int\n");
  EXPECT_EQ(analyse(), (Names{"base.fitz", "mid.fitz", "top.fitz", "main.fitz"}));
  expect_fresh("field added");

  // Same types, different parameter name: `make(0, y: 1)` in mid no longer binds.
  replace("base.fitz", "fn make(x: Int, y: Int)", "fn make(x: Int, w: Int)");
  Names names = analyse();
  EXPECT_TRUE(names.count("mid.fitz")) << "parameter names are part of what importers see";
  expect_fresh("parameter renamed");

  // A function removed and put back.
  replace("mid.fitz", "fn origin() -> Point => make(0, y: 1)\n", "");
  EXPECT_TRUE(analyse().count("top.fitz"));
  expect_fresh("function removed");
  edit("mid.fitz", kProject.at("mid.fitz"));
  EXPECT_TRUE(analyse().count("top.fitz"));
  expect_fresh("function back");
}

TEST_F(Recheck, DiagnosticsPointingIntoAChangedFileAreRechecked) {
  analyse();
  // mid passes a Str to make's Int parameter: the error's related location is in base.
  replace("mid.fitz", "make(0, y: 1)", "make(\"zero\", y: 1)");
  analyse();
  expect_fresh("argument error");
  // Lines added at the top of base move the parameter mid's diagnostic points at.
  replace("base.fitz", "type Point {", "// a comment\n// another\ntype Point {");
  EXPECT_EQ(analyse(), (Names{"base.fitz", "mid.fitz"}));
  expect_fresh("moved declaration");
}

// The lint pass runs again only on the modules checked again; the others keep their findings,
// also across analyses of a program with errors (which lint nothing).
TEST_F(Recheck, LintFindingsOfReusedModulesAreKept) {
  auto unused_parameters = [&] {
    auto a = ws_.analysis_for(path("main.fitz"));
    size_t n = 0;
    for (const auto& d : a->diagnostics) n += d.kind == frontend::DiagKind::LintUnusedParameter;
    return n;
  };
  analyse();
  replace("other.fitz", "fn alone", "fn spare(n: Int) -> Int {\n    return 1\n}\n\nfn alone");
  analyse();
  expect_fresh("a finding in other");
  EXPECT_EQ(unused_parameters(), 1u);
  replace("base.fitz", "let k = 2", "let k = 5");
  EXPECT_EQ(analyse(), (Names{"base.fitz"}));
  expect_fresh("other reused");
  EXPECT_EQ(unused_parameters(), 1u);
  // An error anywhere turns the pass off; while it is on, other changes.
  replace("mid.fitz", "return scale(p.norm())", "return scale(p.norm()) + \"s\"");
  analyse();
  expect_fresh("error in mid");
  EXPECT_EQ(unused_parameters(), 0u);
  replace("other.fitz", "fn spare(n: Int)", "fn spare(n: Int, m: Int)");
  analyse();
  replace("mid.fitz", "return scale(p.norm()) + \"s\"", "return scale(p.norm())");
  analyse();
  expect_fresh("error fixed after other changed");
  EXPECT_EQ(unused_parameters(), 2u);
  replace("other.fitz", "return 1", "return n + m");
  EXPECT_EQ(analyse(), (Names{"other.fitz"}));
  expect_fresh("finding gone");
  EXPECT_EQ(unused_parameters(), 0u);
}

// A module checked again by a check that was then abandoned (a newer edit came first) may be
// reused by the next check with the tables the abandoned one gave it: its lint findings must be
// of those tables, not of the last complete analysis. Here `top` drops a call's value, which
// becomes a `Result` once `other` changes: the dropped-result warning must appear.
TEST_F(Recheck, LintFindingsFollowAnAbandonedCheck) {
  replace("other.fitz", "fn alone", "fn risky() -> Int {\n    return 1\n}\n\nfn alone");
  replace("top.fitz", "import mid\n", "import mid\nimport other\n");
  replace("top.fitz", "    let o = mid.origin()", "    other.risky()\n    let o = mid.origin()");
  analyse();
  expect_fresh("before");
  replace("other.fitz", "fn risky() -> Int {\n    return 1", "fn risky() -> Result<Int, Str> {\n    return Ok(1)");
  Unit& u = ws_.unit_for(path("top.fitz"));
  ASSERT_TRUE(u.pending) << "checked through top, main still to do";
  // A body edit elsewhere abandons that check; the next one reuses `top` as the abandoned check left it.
  replace("base.fitz", "let k = 2", "let k = 3");
  EXPECT_EQ(analyse().count("top.fitz"), 0u) << "top is reused, as the abandoned check left it";
  expect_fresh("after the abandoned check");
  bool warned = false;
  for (const auto& d : ws_.analysis_for(path("main.fitz"))->diagnostics)
    warned |= d.kind == frontend::DiagKind::LintUncheckedResult;
  EXPECT_TRUE(warned);
}

// The server checks through the file being edited first (unit_for analyses a stale project
// through the file it is asked about) and the rest later, or never when a newer edit comes
// first: the focus file's diagnostics must already be final, and whatever was checked or left
// unchecked, the next complete analysis must equal a fresh check.
TEST_F(Recheck, CheckThroughTheFocusFirstThenTheRest) {
  analyse();
  replace("mid.fitz", "return scale(p.norm())", "return scale(p.norm()) + \"s\"");
  Unit& u = ws_.unit_for(path("mid.fitz"));
  ASSERT_TRUE(u.pending) << "top, other and main come after mid in the init order";
  EXPECT_TRUE(u.session.done(u.pending->focus));
  expect_focus_fresh(u, "mid.fitz", "error in the focus");
  EXPECT_TRUE(ws_.advance(u, 1)) << "nothing mid shows changed: the modules after it are reused";
  ws_.complete(u);
  EXPECT_FALSE(u.pending);
  expect_fresh("completed");

  // A body edit checked through base only, then superseded by a signature change before the
  // rest was checked: mid (which returns scale's result as an Int) must get its error.
  replace("base.fitz", "let k = 2", "let k = 3");
  ASSERT_TRUE(ws_.unit_for(path("base.fitz")).pending);
  replace("base.fitz", "fn scale(n: Int) -> Int {\n    let k = 3\n    return n * k",
          "fn scale(n: Int) -> Str {\n    let k = 3\n    return \"{n * k}\"");
  Unit& v = ws_.unit_for(path("base.fitz"));
  ASSERT_TRUE(v.pending);
  expect_focus_fresh(v, "base.fitz", "signature changed");
  Names names = analyse();
  EXPECT_TRUE(names.count("mid.fitz") && names.count("top.fitz") && names.count("main.fitz"));
  expect_fresh("dependents after a signature change");
  bool mid_error = false;
  for (const auto& d : ws_.analysis_for(path("main.fitz"))->diagnostics)
    mid_error |= ws_.analysis_for(path("main.fitz"))->path_of(d.span.file).filename() == "mid.fitz";
  EXPECT_TRUE(mid_error);

  // The signature change is checked through base only and superseded by an edit elsewhere
  // (other, after top in the init order): the modules the interface change was never carried to
  // are still checked again.
  replace("base.fitz", "fn scale(n: Int) -> Str {\n    let k = 3\n    return \"{n * k}\"",
          "fn scale(n: Int) -> Int {\n    let k = 3\n    return n * k");
  ASSERT_TRUE(ws_.unit_for(path("base.fitz")).pending);
  replace("other.fitz", "return len(s)", "return len(s) + 2");
  Unit& w = ws_.unit_for(path("other.fitz"));
  ASSERT_TRUE(w.pending);
  expect_focus_fresh(w, "other.fitz", "edit after an abandoned interface change");
  names = analyse();
  EXPECT_TRUE(names.count("mid.fitz") && names.count("top.fitz") && names.count("main.fitz"));
  expect_fresh("interface change carried to the dependents");

  // A focus the project does not load (a buffer outside src/): everything is checked at once.
  replace("mid.fitz", "fn origin()", "fn origin2()");
  Unit* project = nullptr;
  for (Unit* un : ws_.units())
    if (un->project) project = un;
  ASSERT_NE(project, nullptr);
  fs::path outside = root_ / "notes.fitz";
  ws_.refresh(*project, &outside);
  EXPECT_FALSE(project->pending);
  for (const auto& t : project->analysis->program.modules) EXPECT_TRUE(t.checked);
  expect_fresh("focus outside the project");
}

TEST_F(Recheck, RandomEditsCheckedThroughRandomFilesEqualAFreshCheck) {
  const char* snippets[] = {"x", " ", "\n", "let q = 1\n", "}", "{", "(", "1", "\"", "+ 1", "return 0\n",
                            "fn extra(a: Int) -> Int => a\n", "mid.", "Point { x: 1 }", "scale(", ", ", "-> Str"};
  std::vector<std::string> names;
  for (const auto& [n, t] : kProject) names.push_back(n);
  std::mt19937 rng(11);
  auto pick = [&](size_t n) { return n == 0 ? size_t(0) : size_t(rng() % n); };
  size_t pending = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string& name = names[pick(names.size())];
    std::string t = texts_[name];
    size_t a = pick(t.size() + 1);
    size_t b = std::min(t.size(), a + pick(6));
    switch (pick(4)) {
      case 0: t.insert(a, snippets[pick(std::size(snippets))]); break;
      case 1: t.erase(a, b - a); break;
      case 2: t = kProject.at(name); break;
      default: t.replace(a, b - a, snippets[pick(std::size(snippets))]); break;
    }
    edit(name, t);
    const std::string& focus = names[pick(names.size())];
    Unit& u = ws_.unit_for(path(focus));
    if (u.pending) {
      ++pending;
      // An edit that changed nothing leaves the unit as it was, checked through an earlier focus.
      std::string through = u.analysis->module(u.pending->focus).path.filename().string();
      expect_focus_fresh(u, through, "edit " + std::to_string(i) + " of " + name + " through " + through);
      ws_.advance(u, pick(3));  // part of the rest, or none of it
    }
    if (i % 4 == 0) expect_fresh("edit " + std::to_string(i) + " of " + name);
    if (HasFailure()) break;
  }
  EXPECT_GT(pending, 50u) << "most analyses should stop after the focus";
}

TEST_F(Recheck, RandomEditsAcrossModulesEqualAFreshCheck) {
  const char* snippets[] = {"x", " ", "\n", "let q = 1\n", "}", "{", "(", "1", "\"", "+ 1", "return 0\n",
                            "fn extra(a: Int) -> Int => a\n", "mid.", "Point { x: 1 }", "scale(", ", "};
  std::vector<std::string> names;
  for (const auto& [n, t] : kProject) names.push_back(n);
  std::mt19937 rng(7);
  auto pick = [&](size_t n) { return n == 0 ? size_t(0) : size_t(rng() % n); };
  size_t incremental = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string& name = names[pick(names.size())];
    std::string t = texts_[name];
    size_t a = pick(t.size() + 1);
    size_t b = std::min(t.size(), a + pick(6));
    switch (pick(4)) {
      case 0: t.insert(a, snippets[pick(std::size(snippets))]); break;
      case 1: t.erase(a, b - a); break;
      case 2: t = kProject.at(name); break;  // back to the original now and then
      default: t.replace(a, b - a, snippets[pick(std::size(snippets))]); break;
    }
    edit(name, t);
    if (i % 3 == 0) {
      auto checked = analyse();
      incremental += checked.size() < names.size();
      expect_fresh("edit " + std::to_string(i) + " of " + name);
      if (HasFailure()) break;
    }
  }
  EXPECT_GT(incremental, 50u) << "most analyses should reuse some modules";
}

}  // namespace
}  // namespace fitz::lsp
