// A program written to a fresh temporary folder, then loaded and checked as `fitz check` loads
// it: for unit tests that need what only a real load gives (files on disk, imports between
// them, module paths) and the checker's result together.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "checker/checker.h"
#include "frontend/project.h"

namespace fitz::test_support {

struct CheckedFiles {
  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::LoadResult loaded;
  checker::TypedProgram program;
};

// Writes each (file name, text) into a new folder, loads `target` from it and checks it. The
// folder is gone when this returns: the sources keep every text. Held by pointer because the
// program's tables refer to the sources and the graph where they are.
inline std::unique_ptr<CheckedFiles> check_files(const std::vector<std::pair<std::string, std::string>>& files,
                                                 const std::string& target = "main.fitz") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("fitz_checked_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, text] : files) std::ofstream(dir / name) << text;
  auto out = std::make_unique<CheckedFiles>();
  frontend::LoadRequest req;
  req.target = dir / target;
  req.cwd = dir;
  out->loaded = frontend::load_program(req, out->sources, out->diags);
  out->program = checker::check_program(out->loaded.graph, out->sources, out->diags);
  fs::remove_all(dir);
  return out;
}

}  // namespace fitz::test_support
