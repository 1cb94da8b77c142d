// The loader's parse cache: unchanged files are not parsed again, keep their FileId and
// re-report their syntax diagnostics; a changed file is parsed again under a new FileId.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "frontend/parse_cache.h"
#include "frontend/project.h"

namespace fitz::frontend {
namespace {

namespace fs = std::filesystem;

struct Loaded {
  ModuleGraph graph;
  std::vector<Diagnostic> diags;
};

class ParseCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fitz_parse_cache_" + std::to_string(testing::UnitTest::GetInstance()->random_seed()) +
                                        "_" + testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    files_["main.fitz"] = "import util\nfrom broken import g\nprint(util.f(1))\n";
    files_["util.fitz"] = "fn f(x: Int) -> Int:\n  return x + 1\n";
    files_["broken.fitz"] = "fn g(:\n  return 1\n";
    // load_program checks that the target exists; the reader serves `files_`.
    for (const auto& [name, text] : files_) std::ofstream(dir_ / name) << text;
  }
  void TearDown() override { fs::remove_all(dir_); }

  FileReader reader() {
    return [this](const fs::path& p, std::string& err) -> std::optional<std::string> {
      auto it = files_.find(p.filename().string());
      if (it == files_.end()) {
        err = "no such file";
        return std::nullopt;
      }
      return it->second;
    };
  }

  Loaded load(SourceManager& sources, ParseCache* cache) {
    LoadRequest req;
    req.target = dir_ / "main.fitz";
    req.cwd = dir_;
    req.reader = reader();
    req.parse_cache = cache;
    DiagnosticBag diags;
    Loaded out;
    out.graph = load_program(req, sources, diags).graph;
    out.diags = diags.sorted();
    return out;
  }

  // Sorted: FileIds of cached files are not in load order (the language server re-sorts).
  static std::vector<std::string> rendered(const Loaded& l, const SourceManager& sources) {
    std::vector<std::string> out;
    for (const auto& d : l.diags) {
      std::string file = d.span.file.valid() ? fs::path(sources.file(d.span.file).path()).filename().string() : "";
      out.push_back(file + ":" + std::to_string(d.span.begin) + "-" + std::to_string(d.span.end) + " " + d.message);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
  std::map<std::string, std::string> files_;
};

TEST_F(ParseCacheTest, SecondLoadReusesEveryModule) {
  SourceManager plain;
  Loaded fresh = load(plain, nullptr);
  ASSERT_EQ(fresh.graph.modules.size(), 3u);

  auto sources = std::make_shared<SourceManager>();
  ParseCache cache(sources);
  Loaded first = load(*sources, &cache);
  EXPECT_EQ(cache.misses(), 3u);
  EXPECT_EQ(cache.hits(), 0u);
  Loaded second = load(*sources, &cache);
  EXPECT_EQ(cache.misses(), 3u);
  EXPECT_EQ(cache.hits(), 3u);
  EXPECT_EQ(sources->size(), 3u);  // no module text added again

  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(first.graph.modules[i].file, second.graph.modules[i].file);
    EXPECT_EQ(second.graph.modules[i].ast.stmts.size(), fresh.graph.modules[i].ast.stmts.size());
    EXPECT_EQ(second.graph.modules[i].ast.exprs.size(), fresh.graph.modules[i].ast.exprs.size());
    EXPECT_TRUE(second.graph.modules[i].tree.valid());
  }
  // The syntax errors of broken.fitz are reported again on a hit.
  EXPECT_FALSE(fresh.diags.empty());
  EXPECT_EQ(rendered(first, *sources), rendered(fresh, plain));
  EXPECT_EQ(rendered(second, *sources), rendered(fresh, plain));
}

TEST_F(ParseCacheTest, ChangedFileGetsANewFileIdOthersKeepTheirs) {
  auto sources = std::make_shared<SourceManager>();
  ParseCache cache(sources);
  Loaded first = load(*sources, &cache);
  files_["util.fitz"] = "fn f(x: Int) -> Int:\n  return x + 2\n";
  Loaded second = load(*sources, &cache);
  EXPECT_EQ(cache.misses(), 4u);
  EXPECT_EQ(cache.hits(), 2u);
  ModuleId util = second.graph.find(dir_ / "util.fitz");
  ASSERT_TRUE(util.valid());
  for (uint32_t i = 0; i < 3; ++i) {
    if (i == util.index) EXPECT_NE(first.graph.modules[i].file, second.graph.modules[i].file);
    else EXPECT_EQ(first.graph.modules[i].file, second.graph.modules[i].file);
  }
  EXPECT_EQ(sources->file(second.graph.get(util).file).text(), files_["util.fitz"]);
  EXPECT_EQ(cache.size(), 3u);  // the old content's entry was replaced

  cache.retain([&](const std::string& p) { return fs::path(p).filename() != "broken.fitz"; });
  EXPECT_EQ(cache.size(), 2u);
}

TEST_F(ParseCacheTest, OfferedTreeIsLowered) {
  auto sources = std::make_shared<SourceManager>();
  ParseCache cache(sources);
  load(*sources, &cache);
  files_["util.fitz"] = "fn f(x: Int) -> Int:\n  return x * 3\n";
  std::string path = (fs::weakly_canonical(dir_) / "util.fitz").string();
  cache.offer_tree(path, files_["util.fitz"], parse_text(files_["util.fitz"]));
  Loaded second = load(*sources, &cache);
  SourceManager plain;
  Loaded fresh = load(plain, nullptr);
  ModuleId util = second.graph.find(dir_ / "util.fitz");
  ASSERT_TRUE(util.valid());
  EXPECT_EQ(second.graph.get(util).ast.exprs.size(), fresh.graph.get(util).ast.exprs.size());
  EXPECT_EQ(rendered(second, *sources), rendered(fresh, plain));
}

// The names `from m import x` is checked against are kept with m's cache entry: a new content
// of m must be checked against its own names, in either direction.
TEST_F(ParseCacheTest, ImportedNamesFollowTheImportedModulesContent) {
  files_["main.fitz"] = "from util import f\nprint(f(1))\n";
  files_["util.fitz"] = "fn f(x: Int) -> Int {\n    return x + 1\n}\n";
  auto sources = std::make_shared<SourceManager>();
  ParseCache cache(sources);
  auto missing_f = [&](const Loaded& l) {
    return std::count_if(l.diags.begin(), l.diags.end(), [](const Diagnostic& d) {
      return d.kind == DiagKind::NameNotFoundInModule && d.message.find("`f`") != std::string::npos;
    });
  };
  EXPECT_EQ(missing_f(load(*sources, &cache)), 0);
  EXPECT_EQ(missing_f(load(*sources, &cache)), 0);  // the kept names
  files_["util.fitz"] = "fn g(x: Int) -> Int {\n    return x + 1\n}\n";
  EXPECT_EQ(missing_f(load(*sources, &cache)), 1);
  EXPECT_EQ(missing_f(load(*sources, &cache)), 1);
  files_["util.fitz"] = "fn f(x: Int) -> Int {\n    return x + 3\n}\n";
  EXPECT_EQ(missing_f(load(*sources, &cache)), 0);
  SourceManager plain;
  EXPECT_EQ(missing_f(load(plain, nullptr)), 0);
}

TEST_F(ParseCacheTest, CacheOfAnotherSourceManagerIsIgnored) {
  auto sources = std::make_shared<SourceManager>();
  ParseCache cache(sources);
  SourceManager other;
  Loaded l = load(other, &cache);
  EXPECT_EQ(l.graph.modules.size(), 3u);
  EXPECT_EQ(cache.hits() + cache.misses(), 0u);
  EXPECT_EQ(sources->size(), 0u);
}

}  // namespace
}  // namespace fitz::frontend
