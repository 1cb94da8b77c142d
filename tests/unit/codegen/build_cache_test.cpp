// The build cache must follow the runtime's headers, not only its libraries: a precompiled
// header made from an older header, reused after the header changed, breaks every compile
// (the old declarations come from the PCH, the new header is read again on top of them).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "codegen/toolchain.h"

namespace fs = std::filesystem;
using fitz::codegen::CompileOptions;
using fitz::codegen::compile_program;
using fitz::codegen::RuntimeLocation;

namespace {

class BuildCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fitz_build_cache_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "include" / "fitz");
    const char* old = std::getenv("FITZ_CACHE_DIR");
    if (old) saved_cache_ = old;
    setenv("FITZ_CACHE_DIR", (dir_ / "cache").c_str(), 1);
    std::ofstream(dir_ / "libfitz_runtime.a") << "";  // stamped, never linked (syntax only)
    runtime_.include_dir = dir_ / "include";
    runtime_.library = dir_ / "libfitz_runtime.a";
  }
  void TearDown() override {
    if (saved_cache_.empty()) unsetenv("FITZ_CACHE_DIR");
    else setenv("FITZ_CACHE_DIR", saved_cache_.c_str(), 1);
    fs::remove_all(dir_);
  }
  void write_header(const std::string& body) {
    std::ofstream(dir_ / "include" / "fitz" / "runtime.h") << "#pragma once\nstruct Shape { int x; };\n" << body;
  }
  bool compiles(const std::string& program) {
    CompileOptions options;
    options.syntax_only = true;
    auto result = compile_program(program, dir_ / "out", options, runtime_);
    last_diagnostics_ = result.diagnostics;
    return result.ok;
  }

  fs::path dir_;
  std::string saved_cache_;
  RuntimeLocation runtime_;
  std::string last_diagnostics_;
};

TEST_F(BuildCache, AHeaderEditReachesTheNextBuild) {
  write_header("constexpr int kAnswer = 1;\n");
  ASSERT_TRUE(compiles("#include <fitz/runtime.h>\nstatic_assert(kAnswer == 1);\nint main() {}\n")) << last_diagnostics_;
  // Same size class of edit, same library stamp: only the header's own version differs.
  write_header("constexpr int kAnswer = 22;\n");
  EXPECT_TRUE(compiles("#include <fitz/runtime.h>\nstatic_assert(kAnswer == 22);\nint main() {}\n")) << last_diagnostics_;
}

TEST_F(BuildCache, AnUnchangedHeaderReusesItsPrecompiledHeader) {
  write_header("constexpr int kAnswer = 1;\n");
  ASSERT_TRUE(compiles("#include <fitz/runtime.h>\nint main() { return kAnswer - 1; }\n")) << last_diagnostics_;
  ASSERT_TRUE(compiles("#include <fitz/runtime.h>\nint main() { return kAnswer - 1 + 0; }\n")) << last_diagnostics_;
  size_t pch_dirs = 0;
  for (const auto& entry : fs::directory_iterator(dir_ / "cache" / "pch")) pch_dirs += entry.is_directory();
  EXPECT_EQ(pch_dirs, 1u);
}

}  // namespace
