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
  std::vector<std::string> extra_flags;
};

struct CompileResult {
  bool ok = false;
  bool cached = false;
  std::string command;      // the command line, for "internal compiler error" reports
  std::string diagnostics;  // the compiler's output
  std::filesystem::path output;
};

// Compiles `cpp_source` into an executable at `output` (creating parent directories), reusing
// a cached binary when the source, compiler, flags and runtime are unchanged. With
// `options.syntax_only` nothing is written to `output`; a success is remembered in the cache.
CompileResult compile_program(const std::string& cpp_source, const std::filesystem::path& output,
                              const CompileOptions& options, const RuntimeLocation& runtime);

// $FITZ_CACHE_DIR, else $XDG_CACHE_HOME/fitz, else ~/.cache/fitz.
std::filesystem::path cache_dir();

// A 128-bit hash printed as 32 hex digits; only for cache keys.
std::string content_hash(std::string_view data);

// Runs a command (argv[0] looked up on PATH), capturing stdout+stderr. Returns the exit status
// (-1 when it could not start).
int run_capture(const std::vector<std::string>& argv, std::string& output);

}  // namespace fitz::codegen
