// Parsing a module's imports ahead on several threads (ModuleLoader::prefetch) must load the
// same program as parsing them one by one: the same modules in the same order, the same ASTs
// and every syntax, cycle and missing-module diagnostic. A load through a parse cache never
// prefetches, so it is the sequential reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <sched.h>
#include <unistd.h>

#include "frontend/modules.h"
#include "frontend/parse_cache.h"
#include "frontend/project.h"

namespace fitz::frontend {
namespace {

namespace fs = std::filesystem;

struct Summary {
  std::vector<std::string> init_order;
  std::map<std::string, size_t> top_level;  // module -> top-level statements
  std::vector<std::string> diagnostics;     // "file: code message", sorted
};

// What a load gave, in order: the files with their ids, the modules in init order with their
// AST sizes, and the diagnostics with the file id they point into.
std::vector<std::string> summarise(const SourceManager& sources, const ModuleGraph& graph, const DiagnosticBag& diags) {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < sources.size(); ++i)
    out.push_back("file " + fs::path(sources.file(FileId{i}).path()).filename().string());
  for (ModuleId id : graph.init_order) {
    const Module& m = graph.get(id);
    // A file lowered ahead, under a provisional id, has every span moved to its own id.
    size_t elsewhere = m.ast.file == m.file ? 0 : 1;
    auto count = [&](const auto& table) {
      for (const auto& node : table) elsewhere += node.span.file != m.file;
    };
    count(m.ast.exprs);
    count(m.ast.stmts);
    count(m.ast.patterns);
    count(m.ast.types);
    count(m.ast.blocks);
    out.push_back("module " + m.name + " " + std::to_string(m.ast.exprs.size()) + " spans elsewhere " +
                  std::to_string(elsewhere));
  }
  for (const Diagnostic& d : diags.sorted()) {
    std::string labels;
    for (const Label& l : d.labels) labels += " label in " + std::to_string(l.span.file.value);
    out.push_back(std::to_string(d.span.file.value) + ": " + std::string(diag_code(d.kind)) + " " + d.message + labels);
  }
  return out;
}

class Prefetch : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fitz_prefetch_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("main.fitz", "import a\nimport b\nimport c\nimport d\nimport e\nimport f\nprint(a.one())\n");
    write("a.fitz", "fn one() -> Int => 1\n");
    write("b.fitz", "fn broken(:\n  return 1\n");
    write("c.fitz", "import main\nfn c() -> Int => 3\n");
    write("d.fitz", "import missing\nfn d() -> Int => 4\n");
    write("e.fitz", "import a\nimport g\nfn e() -> Int => a.one()\n");
    write("f.fitz", "fn f() -> Int => 6\n");
    write("g.fitz", "fn g() -> Int => 7\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }

  Summary load(bool through_cache) {
    auto sources = std::make_shared<SourceManager>();
    ParseCache cache(sources);
    LoadRequest req;
    req.target = dir_ / "main.fitz";
    req.cwd = dir_;
    req.parse_cache = through_cache ? &cache : nullptr;
    DiagnosticBag diags;
    ModuleGraph graph = load_program(req, *sources, diags).graph;
    Summary out;
    for (ModuleId id : graph.init_order) {
      out.init_order.push_back(graph.get(id).name);
      out.top_level[graph.get(id).name] = graph.get(id).ast.top_level.size();
    }
    for (const Diagnostic& d : diags) {
      std::string file = d.span.file.valid() ? fs::path(sources->file(d.span.file).path()).filename().string() : "";
      out.diagnostics.push_back(file + ": " + std::string(diag_code(d.kind)) + " " + d.message);
    }
    std::sort(out.diagnostics.begin(), out.diagnostics.end());
    return out;
  }

  fs::path dir_;
};

TEST_F(Prefetch, LoadsWhatASequentialLoadLoads) {
  Summary ahead = load(false), one_by_one = load(true);
  EXPECT_EQ(ahead.init_order, one_by_one.init_order);
  EXPECT_EQ(ahead.top_level, one_by_one.top_level);
  EXPECT_EQ(ahead.diagnostics, one_by_one.diagnostics);
  // The program is what its imports say, and each problem is reported once.
  EXPECT_EQ(ahead.init_order, (std::vector<std::string>{"a", "b", "c", "d", "g", "e", "f", "main"}));
  auto count = [&](const std::string& needle) {
    return std::count_if(ahead.diagnostics.begin(), ahead.diagnostics.end(),
                         [&](const std::string& d) { return d.find(needle) != std::string::npos; });
  };
  EXPECT_EQ(count("b.fitz: "), 1) << testing::PrintToString(ahead.diagnostics);
  EXPECT_EQ(count("import cycle"), 1) << testing::PrintToString(ahead.diagnostics);
  EXPECT_EQ(count("cannot find module `missing`"), 1) << testing::PrintToString(ahead.diagnostics);
}

// Loading a directory parses and lowers every file ahead on the thread pool
// (ModuleLoader::parse_ahead), each under a provisional file id: the files get the ids, the ASTs
// the spans and the diagnostics the order of a load without it (the roots loaded one by one).
TEST_F(Prefetch, ParsingADirectoryAheadKeepsIdsAndOrder) {
  SourceManager ahead_sources;
  DiagnosticBag ahead_diags;
  LoadRequest req;
  req.target = dir_;
  req.cwd = dir_;
  ModuleGraph ahead = load_program(req, ahead_sources, ahead_diags).graph;

  SourceManager sources;
  DiagnosticBag diags;
  ModuleLoader loader(sources, diags);
  for (const fs::path& f : fitz_files_under(dir_)) loader.load_root(f);
  ModuleGraph one_by_one = std::move(loader).finish();

  EXPECT_EQ(summarise(ahead_sources, ahead, ahead_diags), summarise(sources, one_by_one, diags));
  EXPECT_EQ(ahead.roots.size(), 8u);
  EXPECT_FALSE(ahead_diags.sorted().empty());
}

// A file target's imports are learnt one importer at a time, so the files beside it are parsed
// ahead (ModuleLoader::parse_ahead): the program, its file ids and its diagnostics stay those
// of loading the file alone, and a neighbour nobody imports is parsed but never loaded.
TEST_F(Prefetch, ParsingAFileTargetsNeighboursAheadKeepsIdsAndOrder) {
  write("h.fitz", "fn unused(:\n");  // imported by nobody: its syntax error is not the program's
  fs::create_directories(dir_ / "sub");
  write("sub/i.fitz", "fn i() -> Int => 9\n");
  SourceManager ahead_sources;
  DiagnosticBag ahead_diags;
  LoadRequest req;
  req.target = dir_ / "main.fitz";
  req.cwd = dir_;
  LoadResult ahead = load_program(req, ahead_sources, ahead_diags);

  SourceManager sources;
  DiagnosticBag diags;
  ModuleLoader loader(sources, diags);
  loader.load_root(dir_ / "main.fitz");
  ModuleGraph alone = std::move(loader).finish();

  EXPECT_EQ(summarise(ahead_sources, ahead.graph, ahead_diags), summarise(sources, alone, diags));
  EXPECT_EQ(ahead_sources.size(), 8u);  // main and a..g: neither h nor sub/i
  // Every neighbour, not the target itself (it is parsed first, by the loading thread).
  // (On one core the loader parses nothing ahead.)
  cpu_set_t cores;
  if (sched_getaffinity(0, sizeof cores, &cores) == 0 && CPU_COUNT(&cores) >= 2) EXPECT_EQ(ahead.parsed_ahead, 9u);
}

}  // namespace
}  // namespace fitz::frontend
