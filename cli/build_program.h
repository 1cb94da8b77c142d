// The build steps `fitz build`, `run`, `test` and `debug` share (cmd_build.cpp).
#pragma once

#include <filesystem>
#include <string>

#include "cli/driver.h"
#include "codegen/codegen.h"
#include "codegen/toolchain.h"

namespace fitz::cli {

// Loads, checks and generates C++ for `target`; returns an exit code (kOk on success), having
// written any diagnostics to io.err.
int generate_program(const std::string& target, const codegen::GenOptions& gen_options, Io io,
                     codegen::GenResult& out, std::filesystem::path& entry_path, bool time_phases);

// Compiles generated C++ into `output`; returns an exit code, with the failure on io.err.
int compile_generated(const std::string& cpp, const std::filesystem::path& output,
                      const codegen::CompileOptions& copts, Io io, bool time_phases);

}  // namespace fitz::cli
