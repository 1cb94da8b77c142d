// Unit tests of the in-place edits of fitz.toml's [dependencies]: other lines and comments stay
// as written, an existing entry is replaced where it is, and removal finds both entry forms.
#include <gtest/gtest.h>

#include "packages/manifest_edit.h"

namespace fitz::packages {
namespace {

constexpr const char* kManifest = R"([package]
name = "app"   # the app
version = "0.1.0"
edition = "2026"

[dependencies]
# text helpers
text = { path = "../text" }

[flags]
fast = true
)";

TEST(ManifestEdit, DependencyLines) {
  EXPECT_EQ(dependency_line("a", std::string("../a"), std::nullopt, std::nullopt, std::nullopt),
            "a = { path = \"../a\" }");
  EXPECT_EQ(dependency_line("b", std::nullopt, std::string("file:///r \"q\""), std::string("v1"), std::nullopt),
            "b = { git = \"file:///r \\\"q\\\"\", tag = \"v1\" }");
  EXPECT_EQ(dependency_line("c", std::nullopt, std::string("u"), std::nullopt, std::string("abc")),
            "c = { git = \"u\", rev = \"abc\" }");
}

TEST(ManifestEdit, AppendsAfterTheLastEntryKeepingComments) {
  std::string out = with_dependency(kManifest, "util", "util = { path = \"../util\" }");
  EXPECT_EQ(out, std::string(kManifest).replace(std::string(kManifest).find("\n\n[flags]"), 0,
                                                "\nutil = { path = \"../util\" }"));
}

TEST(ManifestEdit, ReplacesAnExistingEntryInPlace) {
  std::string out = with_dependency(kManifest, "text", "text = { git = \"u\", tag = \"v2\" }");
  std::string want = kManifest;
  want.replace(want.find("text = { path = \"../text\" }"), 27, "text = { git = \"u\", tag = \"v2\" }");
  EXPECT_EQ(out, want);
}

TEST(ManifestEdit, AddsTheTableWhenMissing) {
  EXPECT_EQ(with_dependency("[package]\nname = \"a\"", "x", "x = { path = \"x\" }"),
            "[package]\nname = \"a\"\n\n[dependencies]\nx = { path = \"x\" }\n");
  EXPECT_EQ(with_dependency("[package]\nname = \"a\"\n", "x", "x = { path = \"x\" }"),
            "[package]\nname = \"a\"\n\n[dependencies]\nx = { path = \"x\" }\n");
}

TEST(ManifestEdit, KeepsCrlfLineEnds) {
  EXPECT_EQ(with_dependency("[dependencies]\r\na = { path = \"a\" }\r\n", "b", "b = { path = \"b\" }"),
            "[dependencies]\r\na = { path = \"a\" }\r\nb = { path = \"b\" }\r\n");
}

TEST(ManifestEdit, AnEmptyTableGetsTheEntryBelowItsHeader) {
  EXPECT_EQ(with_dependency("[dependencies]\n\n[flags]\n", "a", "a = { path = \"a\" }"),
            "[dependencies]\na = { path = \"a\" }\n\n[flags]\n");
}

TEST(ManifestEdit, RemovesAnEntryLine) {
  std::optional<std::string> out = without_dependency(kManifest, "text");
  ASSERT_TRUE(out);
  std::string want = kManifest;
  want.erase(want.find("text = {"), std::string("text = { path = \"../text\" }\n").size());
  EXPECT_EQ(*out, want);
}

TEST(ManifestEdit, RemovesADottedTable) {
  std::optional<std::string> out =
      without_dependency("[package]\nname = \"a\"\n\n[dependencies.x]\npath = \"x\"\n\n[flags]\nf = true\n", "x");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "[package]\nname = \"a\"\n\n[flags]\nf = true\n");
}

TEST(ManifestEdit, RemovingAnUnknownNameIsNothing) {
  EXPECT_FALSE(without_dependency(kManifest, "absent"));
  // A key of that name elsewhere is not a dependency.
  EXPECT_FALSE(without_dependency(kManifest, "fast"));
}

}  // namespace
}  // namespace fitz::packages
