// Checker throughput: loads and checks a generated 200-module, ~100,000-line project and
// prints lines per second for load+parse+lower and for checking.
// Run: build/bin/fitz_bench_check [MODULES] [--keep DIR]   (--keep writes the project to DIR
// and leaves it there, to time the CLI on it: `fitz check DIR/main.fitz`)
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "checker/checker.h"
#include "frontend/project.h"
#include "tests/support/generated_project.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  int modules = 200;
  fs::path keep;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--keep") && i + 1 < argc)
      keep = argv[++i];
    else
      modules = std::atoi(argv[i]);
  }
  if (modules < 1) {
    std::fprintf(stderr, "usage: fitz_bench_check [MODULES] [--keep DIR]\n");
    return 2;
  }
  fs::path dir = keep.empty() ? fs::temp_directory_path() / ("fitz_check_bench_" + std::to_string(::getpid())) : keep;
  fs::remove_all(dir);
  size_t lines = fitz::test_support::write_generated_project(dir, modules, 500);
  double best_load = 1e9, best_check = 1e9;
  for (int run = 0; run < 5; ++run) {
    fitz::frontend::SourceManager sources;
    fitz::frontend::DiagnosticBag diags;
    fitz::frontend::LoadRequest req;
    req.target = dir / "main.fitz";
    req.cwd = dir;
    auto t0 = std::chrono::steady_clock::now();
    auto loaded = fitz::frontend::load_program(req, sources, diags);
    auto t1 = std::chrono::steady_clock::now();
    auto program = fitz::checker::check_program(loaded.graph, sources, diags);
    auto t2 = std::chrono::steady_clock::now();
    if (diags.error_count() != 0) {
      std::fprintf(stderr, "the generated project has %zu errors\n", diags.error_count());
      return 1;
    }
    best_load = std::min(best_load, std::chrono::duration<double>(t1 - t0).count());
    best_check = std::min(best_check, std::chrono::duration<double>(t2 - t1).count());
  }
  // The same files loaded as a directory: every module is a root, known before loading starts,
  // so all are parsed ahead on the thread pool while the loader walks the chain of imports.
  double best_dir = 1e9;
  for (int run = 0; run < 5; ++run) {
    fitz::frontend::SourceManager sources;
    fitz::frontend::DiagnosticBag diags;
    fitz::frontend::LoadRequest req;
    req.target = dir;
    req.cwd = dir;
    auto t0 = std::chrono::steady_clock::now();
    auto loaded = fitz::frontend::load_program(req, sources, diags);
    best_dir = std::min(best_dir, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (diags.error_count() != 0) {
      std::fprintf(stderr, "the generated project has %zu errors\n", diags.error_count());
      return 1;
    }
  }
  // The file target again, on the loading thread alone: what parsing ahead saves.
  double best_alone = 1e9;
  for (int run = 0; run < 5; ++run) {
    fitz::frontend::SourceManager sources;
    fitz::frontend::DiagnosticBag diags;
    auto t0 = std::chrono::steady_clock::now();
    fitz::frontend::ModuleLoader loader(sources, diags);
    loader.load_root(dir / "main.fitz");
    auto graph = std::move(loader).finish();
    best_alone = std::min(best_alone, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (keep.empty()) fs::remove_all(dir);
  std::printf("%zu lines in %d modules (best of 5)\n", lines, modules + 1);
  std::printf("load as a directory (all parsed ahead): %.3f s (%.0f lines/s)\n", best_dir, lines / best_dir);
  std::printf("load, one thread:  %.3f s (%.0f lines/s)\n", best_alone, lines / best_alone);
  std::printf("load+parse+lower: %.3f s (%.0f lines/s)\n", best_load, lines / best_load);
  std::printf("check:            %.3f s (%.0f lines/s)\n", best_check, lines / best_check);
  std::printf("end to end:       %.3f s\n", best_load + best_check);
  return 0;
}
