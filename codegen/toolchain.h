// Turning generated C++ into a native binary: where the runtime is, how the system compiler is
// invoked, and the build cache keyed by everything that can change the binary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::codegen {

struct RuntimeLocation {
  std::filesystem::path include_dir;  // holds fitz/runtime.h
  std::filesystem::path library;      // libfitz_runtime.a
  std::vector<std::string> extra_libs; // further link inputs (-lpthread, ...)
  std::filesystem::path http_library;  // libfitz_http.a (empty when not found)
  std::filesystem::path ws_library;    // libfitz_ws.a (empty when not found)
  std::vector<std::filesystem::path> live_libraries;  // libfitz_live_server.a, libfitz_live.a (empty when not found)
  std::filesystem::path jobs_library;  // libfitz_jobs.a (empty when not found)
  std::filesystem::path auth_library;  // libfitz_auth.a (empty when not found)
  std::filesystem::path python_library;  // libfitz_python.a (empty when not found)
};

// -O2, or -O1 when this fitz was itself built with AddressSanitizer: its runtime library is
// instrumented, so every program it builds is a sanitized test build, for which -O1 is what the
// sanitizers are made for and compiles in much less time.
const char* default_opt_level();

// The level of the edit-and-try commands (`fitz run`, `fitz dev`, `fitz test`): a short compile
// matters more there than the last few percent of speed.
const char* dev_opt_level();

// The running executable (from /proc/self/exe); empty when it cannot be read.
std::filesystem::path self_exe();

// The first executable `name` in a directory of $PATH; nullopt when there is none.
std::optional<std::filesystem::path> find_on_path(std::string_view name);

// Looks next to the running `fitz` (build tree: bin/../lib, installed: bin/../lib/fitz) and
// falls back to the paths this build was configured with.
std::optional<RuntimeLocation> find_runtime(std::string& error);

struct CompileOptions {
  std::string compiler;           // empty: $FITZ_CXX, then $CXX, then c++
  std::string opt_level = "-O2";
  bool sanitize = false;          // -fsanitize=address,undefined
  // For a debugger: -g, -O0 (overrides opt_level) and frame pointers, so every Fitz line and
  // local is where the debug info says. Only the program is compiled so; the runtime is not.
  bool debug = false;
  bool warnings_as_errors = false;  // -Wall -Werror, for the differential tests
  bool http = false;                // the program serves HTTP: link libfitz_http.a
  bool ws = false;                  // `@ws` endpoints: link libfitz_ws.a (and auth, HTTP)
  bool live = false;                // `@live` pages: link the live-view runtime (and ws, auth, HTTP)
  bool jobs = false;                // @cron / @background: link libfitz_jobs.a (before db)
  bool auth = false;                // jwt, hash, auth or guards: link libfitz_auth.a (and HTTP)
  bool python = false;              // `from python import`: link libfitz_python.a and libpython
  // Only parse and type-check the C++ (-fsyntax-only): no object code, no link, no binary.
  // Whether generated C++ compiles at all is what the check => build differential test asks,
  // and this answers it in about a third of a full build's time.
  bool syntax_only = false;
  // Ask the compiler whether it used the precompiled header (-H; see CompileResult::pch_check).
  // GCC ignores a precompiled header whose flags differ without a word, so `--time-phases`
  // says so instead of letting a slow build look normal.
  bool check_pch = false;
  std::vector<std::string> extra_flags;
};

// The compiler a build runs: options.compiler, else $FITZ_CXX, then $CXX, then c++.
std::string compiler_of(const CompileOptions& options);

// The flags a program's compile shares with its precompiled runtime header (standard, level,
// warnings, sanitizers, extra flags): one function, so the headers the toolchain precompiles
// when it is built and the compile of every program cannot drift apart.
std::vector<std::string> header_flags(const CompileOptions& options);

// The runtime headers precompiled when the toolchain is built, beside its runtime libraries
// (lib/pch/<name>/), so that a first build with an empty cache does not pay for them: the
// include sets generated programs start with (exactly as codegen writes them), each at the
// level of `fitz build` and at the level of `fitz run`/`dev`/`test`.
struct ToolchainHeader {
  std::string name;      // the folder under lib/pch/
  std::string includes;  // the program's leading #include lines
  CompileOptions options;
};
std::vector<ToolchainHeader> toolchain_headers();

// Makes one of them in `dir` (fitz_pch.h, fitz_pch.h.gch, and `flags`: the compiler and flags it
// was made with, which a build compares with its own). Does nothing when `dir` already holds
// it for the same compiler, flags and runtime headers. False with a message on failure.
bool make_toolchain_header(const std::filesystem::path& dir, const ToolchainHeader& header,
                           const RuntimeLocation& runtime, std::string& error);

struct CompileResult {
  bool ok = false;
  bool cached = false;
  // Where the runtime's precompiled header came from: "toolchain" (made when fitz was built),
  // "cache" (made in the build cache), or empty (none: the headers were parsed).
  std::string pch;
  // With CompileOptions::check_pch: whether the compiler read the precompiled header ("used")
  // or found it invalid for this compile and parsed the headers instead ("rejected").
  std::string pch_check;
  size_t units = 1;         // translation units compiled at once and linked (split_units)
  std::string command;      // the command line, for "internal compiler error" reports
  std::string diagnostics;  // the compiler's output
  std::filesystem::path output;
};

// Compiles `cpp_source` into an executable at `output` (creating parent directories), reusing
// a cached binary when the source, compiler, flags and runtime are unchanged. With
// `options.syntax_only` nothing is written to `output`; a success is remembered in the cache.
CompileResult compile_program(const std::string& cpp_source, const std::filesystem::path& output,
                              const CompileOptions& options, const RuntimeLocation& runtime);

// The same for a program cut into translation units (codegen::split_units): each is compiled to
// an object file by its own compiler process, all at once, and the objects linked together.
// One unit is exactly compile_program.
CompileResult compile_units(const std::vector<std::string>& units, const std::filesystem::path& output,
                            const CompileOptions& options, const RuntimeLocation& runtime);

// $FITZ_CACHE_DIR, else $XDG_CACHE_HOME/fitz, else ~/.cache/fitz.
std::filesystem::path cache_dir();

// A 128-bit hash printed as 32 hex digits; only for cache keys.
std::string content_hash(std::string_view data);

// Runs a command (argv[0] looked up on PATH), capturing stdout+stderr. Returns the exit status
// (-1 when it could not start).
int run_capture(const std::vector<std::string>& argv, std::string& output);

}  // namespace fitz::codegen
