// The steps `fitz build`, `run`, `test` and `dev` share: load + check + generate, then compile.
#pragma once

#include <filesystem>
#include <string>

#include "cli/deploy_facts.h"
#include "cli/driver.h"
#include "codegen/codegen.h"
#include "codegen/toolchain.h"

namespace fitz::cli {

// Loads, checks and generates `target` (a file, a folder, or "" for the project around the
// current directory). Prints diagnostics as `fitz check` does and returns the exit code on
// failure. `facts`, when given, receives what the service model says about listening.
// `offline` (or FITZ_OFFLINE=1) resolves git dependencies from fitz.lock and the cache only.
int generate_program(const std::string& target, const codegen::GenOptions& gen_options, Io io,
                     codegen::GenResult& out, std::filesystem::path& entry_path, bool time_phases,
                     deploy::ServiceFacts* facts = nullptr, bool offline = false);

// Compiles generated C++, a large program as several translation units at once (one per core,
// or $FITZ_BUILD_UNITS); prints an internal compiler error when the C++ compiler rejects it.
int compile_generated(const codegen::GenResult& gen, const std::filesystem::path& output,
                      const codegen::CompileOptions& copts, Io io, bool time_phases);

// At most how many translation units a build cuts a program into: $FITZ_BUILD_UNITS when set
// (1: never split), else the number of cores.
size_t build_units();

// The compile options a generated program needs (which runtime libraries it links).
codegen::CompileOptions compile_options_for(const codegen::GenResult& gen);

}  // namespace fitz::cli
