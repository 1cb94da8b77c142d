// Unit tests of dependency-graph resolution with path dependencies (git ones are exercised end
// to end in tests/e2e/packages.sh): transitive packages, one package reached twice, conflicts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "packages/resolve.h"

namespace fitz::packages {
namespace {

namespace fs = std::filesystem;

class ResolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fitz_resolve_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void package(const std::string& name, const std::string& deps) {
    fs::create_directories(dir_ / name / "src");
    std::ofstream(dir_ / name / "fitz.toml") << "[package]\nname = \"" << name
                                             << "\"\nversion = \"0.1.0\"\nedition = \"2026\"\n\n[dependencies]\n"
                                             << deps;
    std::ofstream(dir_ / name / "src" / "lib.fitz") << "fn hello() -> Str {\n    return \"" << name << "\"\n}\n";
  }

  std::optional<Resolution> resolve_app(const std::string& deps) {
    package("app", deps);
    llvm::Expected<frontend::FileId> id = sources_.read_file(dir_ / "app" / "fitz.toml");
    EXPECT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
    manifest_ = frontend::parse_manifest(sources_.file(*id), diags_);
    EXPECT_TRUE(manifest_);
    GitCache cache(dir_ / "cache", /*offline=*/true);
    return resolve(*manifest_, dir_ / "app", std::nullopt, {}, cache, sources_, diags_);
  }

  std::vector<std::string> names(const Resolution& r) {
    std::vector<std::string> out;
    for (const auto& p : r.packages) out.push_back(p.name + "<-" + p.requirer);
    return out;
  }

  fs::path dir_;
  frontend::SourceManager sources_;
  frontend::DiagnosticBag diags_;
  std::optional<frontend::Manifest> manifest_;
};

TEST_F(ResolveTest, FollowsTransitiveDependencies) {
  package("core", "");
  package("text", "core = { path = \"../core\" }\n");
  std::optional<Resolution> r = resolve_app("text = { path = \"../text\" }\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(names(*r), (std::vector<std::string>{"text<-app", "core<-text"}));
  EXPECT_TRUE(r->lock.packages.empty());  // path dependencies are never locked
  EXPECT_EQ(r->roots()[1].root, fs::weakly_canonical(dir_ / "core"));
}

TEST_F(ResolveTest, OneFolderReachedTwiceIsOnePackage) {
  package("core", "");
  package("text", "core = { path = \"../core\" }\n");
  std::optional<Resolution> r = resolve_app("text = { path = \"../text\" }\ncore = { path = \"./../core/\" }\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(names(*r), (std::vector<std::string>{"text<-app", "core<-app"}));
  EXPECT_EQ(diags_.error_count(), 0u);
}

TEST_F(ResolveTest, AConflictNamesBothRequirers) {
  package("core", "");
  package("core2", "");
  package("left", "core = { path = \"../core\" }\n");
  package("right", "core = { path = \"../core2\" }\n");
  std::optional<Resolution> r = resolve_app("left = { path = \"../left\" }\nright = { path = \"../right\" }\n");
  EXPECT_FALSE(r);
  ASSERT_EQ(diags_.error_count(), 1u);
  const frontend::Diagnostic& d = *diags_.begin();
  EXPECT_EQ(d.kind, frontend::DiagKind::PackageConflict);
  EXPECT_EQ(d.message,
            "conflicting requirements for package `core`: `left` requires path \"../core\", `right` requires path "
            "\"../core2\"");
  // The error points into right/fitz.toml, its label into left/fitz.toml.
  EXPECT_NE(sources_.file(d.span.file).path().find("right"), std::string::npos);
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_NE(sources_.file(d.labels[0].span.file).path().find("left"), std::string::npos);
}

TEST_F(ResolveTest, PathAgainstGitIsAConflict) {
  package("core", "");
  package("left", "core = { git = \"file:///nowhere/core\", tag = \"v1\" }\n");
  std::optional<Resolution> r = resolve_app("core = { path = \"../core\" }\nleft = { path = \"../left\" }\n");
  EXPECT_FALSE(r);
  ASSERT_GE(diags_.error_count(), 1u);
  EXPECT_EQ(diags_.begin()->kind, frontend::DiagKind::PackageConflict);
  EXPECT_NE(diags_.begin()->message.find("`left` requires git \"file:///nowhere/core\" tag \"v1\""), std::string::npos)
      << diags_.begin()->message;
}

TEST_F(ResolveTest, OfflineWithAnEmptyCacheSaysSo) {
  std::optional<Resolution> r = resolve_app("core = { git = \"file:///nowhere/core\", tag = \"v1\" }\n");
  EXPECT_FALSE(r);
  ASSERT_EQ(diags_.error_count(), 1u);
  EXPECT_EQ(diags_.begin()->kind, frontend::DiagKind::PackageOffline);
  EXPECT_NE(diags_.begin()->message.find("never been fetched"), std::string::npos) << diags_.begin()->message;
}

}  // namespace
}  // namespace fitz::packages
