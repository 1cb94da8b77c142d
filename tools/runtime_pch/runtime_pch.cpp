// fitz_runtime_pch DIR: precompiles, when the toolchain is built, the runtime headers generated
// programs start with (codegen::toolchain_headers) into DIR/<name>/ beside the runtime libraries,
// with the compile flags `fitz build` itself uses, so a first build with an empty cache skips them.
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "codegen/toolchain.h"

namespace fs = std::filesystem;
using fitz::codegen::ToolchainHeader;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fitz_runtime_pch DIR\n");
    return 2;
  }
  const fs::path dir = argv[1];
  std::string error;
  auto runtime = fitz::codegen::find_runtime(error);
  if (!runtime) {
    std::fprintf(stderr, "fitz_runtime_pch: %s\n", error.c_str());
    return 1;
  }
  const std::vector<ToolchainHeader> headers = fitz::codegen::toolchain_headers();
  // Two at a time: each is a few seconds of one core, and the build machines have two.
  std::vector<std::string> errors(headers.size());
  auto work = [&](size_t first) {
    for (size_t i = first; i < headers.size(); i += 2)
      if (!fitz::codegen::make_toolchain_header(dir / headers[i].name, headers[i], *runtime, errors[i]) && errors[i].empty())
        errors[i] = "failed";
  };
  std::thread second(work, 1);
  work(0);
  second.join();
  int rc = 0;
  for (size_t i = 0; i < headers.size(); ++i)
    if (!errors[i].empty()) {
      std::fprintf(stderr, "fitz_runtime_pch: cannot precompile %s:\n%s\n", headers[i].name.c_str(), errors[i].c_str());
      rc = 1;
    }
  return rc;
}
