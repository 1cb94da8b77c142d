// A project of Fitz modules (src/<name> under a fitz.toml) written to a temporary folder and
// opened in a Workspace as an editor opens it; edits change the open buffers, never the disk.
// The base of the tests that edit a project and compare the served analysis with a fresh one.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/uri.h"
#include "lsp/workspace.h"

namespace fitz::lsp::test_support {

class ProjectFixture : public testing::Test {
 protected:
  ProjectFixture(std::string package, std::map<std::string, std::string> modules)
      : package_(std::move(package)), texts_(std::move(modules)) {}

  void SetUp() override {
    namespace fs = std::filesystem;
    root_ = fs::temp_directory_path() / ("fitz-lsp-" + package_ + "-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "src");
    std::ofstream(root_ / "fitz.toml") << "[package]\nname = \"" << package_
                                       << "\"\nversion = \"0.1.0\"\nedition = \"2026\"\n\n[bin]\nmain = \"src/main.fitz\"\n";
    root_ = fs::weakly_canonical(root_);
    for (const auto& [name, text] : texts_) std::ofstream(root_ / "src" / name) << text;
    for (const auto& [name, text] : texts_) ws_.open(uri(name), 1, text);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::filesystem::path path(const std::string& name) const { return root_ / "src" / name; }
  std::string uri(const std::string& name) const { return path_to_uri(path(name)); }

  // Replaces a module's whole buffer, as one edit.
  void edit(const std::string& name, const std::string& text) {
    texts_[name] = text;
    ws_.change(uri(name), ++version_, {ContentChange{std::nullopt, text}});
  }
  // Replaces the first `from` in a module's text.
  void replace(const std::string& name, const std::string& from, const std::string& to) {
    std::string t = texts_[name];
    size_t at = t.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    edit(name, t);
  }

  // Every diagnostic as text with its file, range and related locations.
  static std::vector<std::string> diagnostic_lines(const Analysis& a) {
    std::vector<std::string> out;
    for (const auto& d : a.diagnostics)
      out.push_back(a.path_of(d.span.file).filename().string() + " " + diagnostic_to_json(a, d).dump());
    return out;
  }

  std::string package_;
  std::filesystem::path root_;
  std::map<std::string, std::string> texts_;  // every module's current text, by file name
  Workspace ws_;
  int version_ = 1;
};

}  // namespace fitz::lsp::test_support
