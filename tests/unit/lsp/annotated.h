// Annotated sources for the language-server unit tests: `^` marks a point, `[[ ... ]]` a
// range; the markers are removed from the text. A Fixture writes the files to a fresh temporary
// directory and analyses them exactly as the server does.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lsp/analysis.h"
#include "lsp/features/features.h"

namespace fitz::lsp::test_support {

struct Annotated {
  std::string text;
  std::vector<uint32_t> points;                        // byte offsets of each `^`
  std::vector<std::pair<uint32_t, uint32_t>> ranges;   // [begin, end) of each `[[ ]]`

  uint32_t point(size_t i = 0) const { return points.at(i); }
};

inline Annotated annotate(std::string_view src) {
  Annotated a;
  std::vector<uint32_t> open;
  for (size_t i = 0; i < src.size(); ++i) {
    if (src.compare(i, 2, "[[") == 0) {
      open.push_back(uint32_t(a.text.size()));
      ++i;
    } else if (src.compare(i, 2, "]]") == 0 && !open.empty()) {
      a.ranges.push_back({open.back(), uint32_t(a.text.size())});
      open.pop_back();
      ++i;
    } else if (src[i] == '^') {
      a.points.push_back(uint32_t(a.text.size()));
    } else {
      a.text += src[i];
    }
  }
  std::sort(a.ranges.begin(), a.ranges.end());
  return a;
}

class Fixture {
 public:
  Fixture() {
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("fitz-lsp-unit-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~Fixture() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Adds a file (markers allowed) and returns its annotations.
  const Annotated& file(const std::string& name, std::string_view src) {
    Annotated a = annotate(src);
    auto p = dir_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << a.text;
    return files_[name] = std::move(a);
  }

  // Analyses `name` like `fitz check name` from the fixture directory.
  const Analysis& analyse(const std::string& name) {
    analysis_ = analyze(dir_ / name, dir_, frontend::disk_reader());
    module_ = analysis_->module_at(dir_ / name);
    return *analysis_;
  }

  const Analysis& a() const { return *analysis_; }
  ModuleId module() const { return module_; }
  ModuleId module_of(const std::string& name) const { return analysis_->module_at(dir_ / name); }
  std::filesystem::path path(const std::string& name) const { return std::filesystem::weakly_canonical(dir_ / name); }
  const Annotated& ann(const std::string& name) const { return files_.at(name); }

  // The text a span covers.
  std::string text_of(const Span& s) const { return std::string(analysis_->sources.file(s.file).slice(s)); }
  std::pair<uint32_t, uint32_t> range(const Span& s) const { return {s.begin, s.end}; }
  // The file name (relative to the fixture) a span is in.
  std::string file_of(const Span& s) const {
    return analysis_->path_of(s.file).lexically_relative(std::filesystem::weakly_canonical(dir_)).string();
  }

 private:
  std::filesystem::path dir_;
  std::map<std::string, Annotated> files_;
  std::shared_ptr<const Analysis> analysis_;
  ModuleId module_;
};

}  // namespace fitz::lsp::test_support
