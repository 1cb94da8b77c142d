// The C++ compiler driver and build cache behind `fitz build`. Binaries are cached under
// cache_dir()/bin/<key>; a hit is a hard link or copy, so a rebuild of unchanged sources is instant.
#include "codegen/toolchain.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "frontend/address_sanitizer.h"

extern char** environ;

namespace fitz::codegen {

namespace fs = std::filesystem;

namespace {

// A toolchain built with AddressSanitizer (FITZ_SANITIZE, FITZ_FUZZ) has an instrumented
// runtime library next to it, which only links into programs built with the same sanitizers.
constexpr bool kRuntimeSanitized = kBuiltWithAddressSanitizer;

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

// What identifies a file's version cheaply: size and modification time.
std::string file_stamp(const fs::path& p) {
  struct stat st {};
  if (stat(p.c_str(), &st) != 0) return "missing";
  return fmt::format("{}:{}.{}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

// The version of every runtime header a program can include. A precompiled header does not
// notice that a header it read has changed (GCC checks only the flags), and a header-only edit
// need not rebuild any runtime library, so keys built from library stamps alone go stale.
std::string include_tree_stamp(const fs::path& dir) {
  std::vector<std::string> entries;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) entries.push_back(it->path().string() + "=" + file_stamp(it->path()));
  }
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const auto& e : entries) out += e + "\n";
  return out;
}

std::string shell_quote(const std::string& s) {
  if (s.find_first_of(" \t\n'\"\\$`") == std::string::npos && !s.empty()) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The `#include` lines a generated program starts with (comments and blank lines between them
// allowed), in order; the runtime headers it needs and nothing else.
std::string leading_includes(const std::string& cpp) {
  std::string out;
  size_t pos = 0;
  while (pos < cpp.size()) {
    size_t end = cpp.find('\n', pos);
    if (end == std::string::npos) end = cpp.size();
    std::string_view line(cpp.data() + pos, end - pos);
    if (line.starts_with("#include ")) out += std::string(line) + "\n";
    else if (!line.empty() && !line.starts_with("//")) break;
    pos = end + 1;
  }
  return out;
}

// The runtime headers of a program precompiled in the build cache, once per include set, compiler
// and flags, when the toolchain has none for them (toolchain_pch). Returns the header to pass with
// -include, or an empty path when the precompiled header cannot be made (the caller then
// compiles without it). The header holds exactly the program's own includes, in its order, so
// the program sees no declaration it would not see without it.
fs::path precompiled_runtime(const std::string& cxx, const std::vector<std::string>& flags, const std::string& includes,
                             const RuntimeLocation& runtime, const std::string& runtime_stamp) {
  if (includes.empty()) return {};
  std::string key_material = cxx + "\n" + includes + "\n" + runtime.include_dir.string() + "\n" + runtime_stamp;
  for (const auto& f : flags) key_material += f + " ";
  fs::path dir = cache_dir() / "pch" / content_hash(key_material);
  fs::path header = dir / "fitz_pch.h", gch = dir / "fitz_pch.h.gch";
  std::error_code ec;
  if (fs::exists(gch, ec)) return header;
  fs::create_directories(dir, ec);
  {
    std::ofstream out(header.string() + ".tmp" + std::to_string(getpid()), std::ios::binary);
    out << includes;
  }
  fs::rename(header.string() + ".tmp" + std::to_string(getpid()), header, ec);
  fs::path tmp = dir / ("fitz_pch.h.gch.tmp" + std::to_string(getpid()));
  std::vector<std::string> argv = {cxx};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("-I" + runtime.include_dir.string());
  argv.insert(argv.end(), {"-x", "c++-header", header.string(), "-o", tmp.string()});
  std::string output;
  if (run_capture(argv, output) != 0) {
    fs::remove(tmp, ec);
    return {};
  }
  fs::rename(tmp, gch, ec);  // atomic: a concurrent build of the same header is harmless
  return ec ? fs::path() : header;
}

// The real file behind a compiler's name, so that `c++` and `/usr/bin/g++-12` compare equal.
std::string compiler_identity(const std::string& cxx) {
  std::optional<fs::path> p = cxx.find('/') != std::string::npos ? std::optional<fs::path>(cxx) : find_on_path(cxx);
  if (!p) return cxx;
  std::error_code ec;
  fs::path real = fs::canonical(*p, ec);
  return ec ? p->string() : real.string();
}

// What a toolchain header's `flags` file records and a build compares with its own: the
// compiler, each flag, and the runtime's include directory, a line each.
std::string header_record(const std::string& cxx, const std::vector<std::string>& flags, const fs::path& include_dir) {
  std::string out = "compiler " + compiler_identity(cxx) + "\n";
  for (const auto& f : flags) out += "flag " + f + "\n";
  return out + "include " + include_dir.string() + "\n";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The newest modification time among the runtime headers: a precompiled header older than it
// holds declarations that are no longer there.
fs::file_time_type newest_header(const fs::path& dir) {
  fs::file_time_type newest = fs::file_time_type::min();
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) newest = std::max(newest, it->last_write_time(ec));
  return newest;
}

// Whether `dir` holds a precompiled header of `includes` made with `record`, newer than every
// runtime header.
bool header_up_to_date(const fs::path& dir, const std::string& includes, const std::string& record,
                       fs::file_time_type newest) {
  std::error_code ec;
  fs::path gch = dir / "fitz_pch.h.gch";
  if (!fs::exists(gch, ec) || read_text(dir / "flags") != record || read_text(dir / "fitz_pch.h") != includes) return false;
  return fs::last_write_time(gch, ec) >= newest && !ec;
}

// The header the toolchain precompiled for exactly these includes, compiler and flags
// (make_toolchain_header); empty when there is none or it is older than the runtime headers.
fs::path toolchain_pch(const std::string& cxx, const std::vector<std::string>& flags, const std::string& includes,
                       const RuntimeLocation& runtime) {
  std::error_code ec;
  fs::path root = runtime.library.parent_path() / "pch";
  if (includes.empty() || !fs::is_directory(root, ec)) return {};
  const std::string record = header_record(cxx, flags, runtime.include_dir);
  std::optional<fs::file_time_type> newest;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (read_text(it->path() / "fitz_pch.h") != includes) continue;
    if (!newest) newest = newest_header(runtime.include_dir);
    if (header_up_to_date(it->path(), includes, record, *newest)) return it->path() / "fitz_pch.h";
  }
  return {};
}

}  // namespace

std::optional<fs::path> find_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string_view rest(path);
  while (true) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / std::string(name);
    if (access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

fs::path self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

std::string content_hash(std::string_view data) {
  // Two independent FNV-1a streams; a cache key, not a security property.
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : data) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
  return fmt::format("{:016x}{:016x}", a, b);
}

fs::path cache_dir() {
  if (const char* d = std::getenv("FITZ_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "fitz";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "fitz";
  return fs::temp_directory_path() / "fitz-cache";
}

// A toolchain built with sanitizers exists to test: it compiles its programs to be checked, not
// to be fast. Instrumented at -O0, GCC compiles the ORM end-to-end programs in a third of the
// time -O1 takes, and small programs in two thirds, with the same checks.
const char* default_opt_level() { return kRuntimeSanitized ? "-O0" : "-O2"; }

const char* dev_opt_level() { return kRuntimeSanitized ? "-O0" : "-O1"; }

std::optional<RuntimeLocation> find_runtime(std::string& error) {
  std::vector<std::pair<fs::path, fs::path>> candidates;  // include dir, library
  fs::path exe = self_exe();
  if (!exe.empty()) {
    fs::path prefix = exe.parent_path().parent_path();
    candidates.push_back({prefix / "include", prefix / "lib" / "libfitz_runtime.a"});
    candidates.push_back({prefix / "include", prefix / "lib" / "fitz" / "libfitz_runtime.a"});
  }
#ifdef FITZ_RUNTIME_INCLUDE_DIR
  candidates.push_back({FITZ_RUNTIME_INCLUDE_DIR, FITZ_RUNTIME_LIBRARY});
#endif
  for (auto& [inc, lib] : candidates) {
    std::error_code ec;
    if (!fs::exists(inc / "fitz" / "runtime.h", ec) || !fs::exists(lib, ec)) continue;
    RuntimeLocation loc;
    loc.include_dir = inc;
    loc.library = lib;
    // The Postgres `db` module sits beside the runtime; archives only contribute what a
    // program references, and --as-needed drops OpenSSL from programs that never use it.
    fs::path db = lib.parent_path() / "libfitz_db.a", pg = lib.parent_path() / "libfitz_pg.a";
    if (fs::exists(db, ec) && fs::exists(pg, ec))
      loc.extra_libs = {db.string(), pg.string(), lib.string(), "-Wl,--as-needed", "-lssl", "-lcrypto"};
    // `APP migrate` of services: the migration engine, on the blocking connection of libfitz_pg.
    if (fs::path m = lib.parent_path() / "libfitz_migrate.a"; !loc.extra_libs.empty() && fs::exists(m, ec))
      loc.extra_libs.insert(loc.extra_libs.begin(), m.string());
    // The outbound clients (`http`) sit beside it too; they use the HTTP runtime's JSON, so
    // that archive follows them (a second mention of an archive is harmless).
    if (fs::path net = lib.parent_path() / "libfitz_net.a", http_lib = lib.parent_path() / "libfitz_http.a";
        fs::exists(net, ec) && fs::exists(http_lib, ec)) {
      std::vector<std::string> front = {net.string(), http_lib.string()};
      loc.extra_libs.insert(loc.extra_libs.begin(), front.begin(), front.end());
      if (loc.extra_libs.size() == 2) loc.extra_libs.insert(loc.extra_libs.end(), {lib.string(), "-lssl", "-lcrypto"});
    }
    loc.extra_libs.push_back("-lpthread");
    // The HTTP runtime sits beside the core runtime too (build tree and installed layouts).
    std::vector<fs::path> http = {lib.parent_path() / "libfitz_http.a"};
#ifdef FITZ_HTTP_LIBRARY
    http.push_back(FITZ_HTTP_LIBRARY);
#endif
    for (const fs::path& h : http)
      if (fs::exists(h, ec) && fs::exists(inc / "fitz" / "http.h", ec)) {
        loc.http_library = h;
        break;
      }
    if (fs::path j = lib.parent_path() / "libfitz_jobs.a"; fs::exists(j, ec) && fs::exists(inc / "fitz" / "jobs.h", ec))
      loc.jobs_library = j;
    if (fs::path a = lib.parent_path() / "libfitz_auth.a"; fs::exists(a, ec) && fs::exists(inc / "fitz" / "auth.h", ec))
      loc.auth_library = a;
    if (fs::path p = lib.parent_path() / "libfitz_python.a"; fs::exists(p, ec) && fs::exists(inc / "fitz" / "python.h", ec))
      loc.python_library = p;
    if (fs::path w = lib.parent_path() / "libfitz_ws.a"; fs::exists(w, ec) && fs::exists(inc / "fitz" / "ws.h", ec))
      loc.ws_library = w;
    if (fs::path s = lib.parent_path() / "libfitz_live_server.a", l = lib.parent_path() / "libfitz_live.a";
        fs::exists(s, ec) && fs::exists(l, ec) && fs::exists(inc / "fitz" / "live" / "generated.h", ec))
      loc.live_libraries = {s, l};
    return loc;
  }
  error = "cannot find the fitz runtime (fitz/runtime.h and libfitz_runtime.a) next to the fitz binary";
  return std::nullopt;
}

int run_capture(const std::vector<std::string>& argv, std::string& output) {
  int pipefd[2];
  // Close-on-exec: a compile started by another thread must not hold this pipe open.
  if (pipe2(pipefd, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipefd[0]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    output = fmt::format("cannot run `{}`: {}", argv[0], std::strerror(rc));
    return -1;
  }
  char buf[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) output.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string compiler_of(const CompileOptions& options) {
  return options.compiler.empty() ? env_or("FITZ_CXX", env_or("CXX", "c++")) : options.compiler;
}

std::vector<std::string> header_flags(const CompileOptions& options) {
  std::vector<std::string> flags = {"-std=c++20", options.debug ? "-O0" : options.opt_level, "-w"};
  if (options.debug) flags.insert(flags.end(), {"-g", "-fno-omit-frame-pointer"});
  if (options.warnings_as_errors) {
    flags.back() = "-Wall";
    flags.push_back("-Werror");
    // Fitz identifiers are XID as written, not normalised, and reach the C++ unchanged; GCC's
    // warning that one is not in NFC (`cafe\u0301`) is about how it looks, not what it means.
    flags.push_back("-Wno-normalized");
  }
  if (options.sanitize || kRuntimeSanitized) {
    flags.push_back("-fsanitize=address,undefined");
    flags.push_back("-fno-omit-frame-pointer");
    // GCC's flow analysis reports false "may be used uninitialized" on sanitizer-instrumented
    // code (in the runtime's inline Str/Nullable); the sanitizers themselves check for real.
    if (options.warnings_as_errors) flags.push_back("-Wno-maybe-uninitialized");
  }
  for (const auto& f : options.extra_flags) flags.push_back(f);
  return flags;
}

std::vector<ToolchainHeader> toolchain_headers() {
  // What codegen's Gen::run writes first: a script; a service (`fitz build`, `run`, `dev`);
  // the same service under `fitz test` (no migration command).
  struct Set {
    std::string name, includes;
    bool built;  // also at the level of `fitz build`, not only at the edit-and-try level
  };
  const std::vector<Set> sets = {
      {"script", "#include <fitz/runtime.h>\n", true},
      {"service",
       "#include <fitz/runtime.h>\n#include <fitz/http.h>\n#include <fitz/http/handler_glue.h>\n#include <fitz/migrate.h>\n",
       true},
      {"service-test", "#include <fitz/runtime.h>\n#include <fitz/http.h>\n#include <fitz/http/handler_glue.h>\n", false},
  };
  std::vector<ToolchainHeader> out;
  auto add = [&](const Set& set, const std::string& level) {
    ToolchainHeader h{set.name + level, set.includes, {}};
    h.options.opt_level = level;
    out.push_back(std::move(h));
  };
  const std::string dev = dev_opt_level(), build = default_opt_level();
  for (const Set& set : sets) {
    add(set, dev);
    if (set.built && build != dev) add(set, build);  // a sanitized toolchain builds at the dev level
  }
  return out;
}

bool make_toolchain_header(const fs::path& dir, const ToolchainHeader& header, const RuntimeLocation& runtime,
                           std::string& error) {
  const std::string cxx = compiler_of(header.options);
  const std::vector<std::string> flags = header_flags(header.options);
  const std::string record = header_record(cxx, flags, runtime.include_dir);
  if (header_up_to_date(dir, header.includes, record, newest_header(runtime.include_dir))) return true;
  std::error_code ec;
  fs::create_directories(dir, ec);
  // `flags` goes last and only after the header is complete: a build never matches a half-made one.
  fs::remove(dir / "flags", ec);
  std::ofstream(dir / "fitz_pch.h", std::ios::binary) << header.includes;
  fs::path tmp = dir / "fitz_pch.h.gch.tmp";
  std::vector<std::string> argv = {cxx};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("-I" + runtime.include_dir.string());
  argv.insert(argv.end(), {"-x", "c++-header", (dir / "fitz_pch.h").string(), "-o", tmp.string()});
  std::string output;
  if (run_capture(argv, output) != 0) {
    fs::remove(tmp, ec);
    error = output;
    return false;
  }
  fs::rename(tmp, dir / "fitz_pch.h.gch", ec);
  if (ec) {
    error = ec.message();
    return false;
  }
  std::ofstream(dir / "flags", std::ios::binary) << record;
  return true;
}

CompileResult compile_program(const std::string& cpp_source, const fs::path& output,
                              const CompileOptions& options, const RuntimeLocation& runtime) {
  return compile_units({cpp_source}, output, options, runtime);
}

CompileResult compile_units(const std::vector<std::string>& units, const fs::path& output,
                            const CompileOptions& options, const RuntimeLocation& runtime) {
  CompileResult result;
  result.output = output;
  result.units = units.size();
  const std::string cxx = compiler_of(options);
  std::vector<std::string> flags = header_flags(options);
  const std::vector<std::string> pch_flags = flags;  // what a precompiled header must share
  if (options.syntax_only) flags.push_back("-fsyntax-only");

  // One unit keys as the whole program always has.
  std::string key_material = units.empty() ? std::string() : units[0];
  for (size_t i = 1; i < units.size(); ++i) key_material += fmt::format("\n--unit {}--\n", i) + units[i];
  key_material += "\n--\n" + cxx + "\n";
  for (const auto& f : flags) key_material += f + " ";
  const std::string runtime_stamp = file_stamp(runtime.library) + "\n" + include_tree_stamp(runtime.include_dir);
  key_material += "\n" + runtime_stamp + "\n" + runtime.include_dir.string();
  if (options.http) {
    if (runtime.http_library.empty()) {
      result.diagnostics = "cannot find the fitz HTTP runtime (libfitz_http.a) next to " + runtime.library.string() + "\n";
      return result;
    }
    key_material += "\n" + file_stamp(runtime.http_library);
  }
  if (options.auth) {
    if (runtime.auth_library.empty() || runtime.http_library.empty()) {
      result.diagnostics = "cannot find the fitz auth runtime (libfitz_auth.a) next to " + runtime.library.string() + "\n";
      return result;
    }
    key_material += "\n" + file_stamp(runtime.auth_library) + "\n" + file_stamp(runtime.http_library);
  }
  if (options.python) {
    if (runtime.python_library.empty()) {
      result.diagnostics = "cannot find the fitz Python runtime (libfitz_python.a) next to " + runtime.library.string() + "\n";
      return result;
    }
    key_material += "\n" + file_stamp(runtime.python_library);
  }
  if (options.jobs) {
    if (runtime.jobs_library.empty()) {
      result.diagnostics = "cannot find the fitz jobs runtime (libfitz_jobs.a) next to " + runtime.library.string() + "\n";
      return result;
    }
    key_material += "\n" + file_stamp(runtime.jobs_library);
  }
  if (options.ws) {
    if (runtime.ws_library.empty()) {
      result.diagnostics = "cannot find the fitz WebSocket runtime (libfitz_ws.a) next to " + runtime.library.string() + "\n";
      return result;
    }
    key_material += "\n" + file_stamp(runtime.ws_library);
  }
  if (options.live) {
    if (runtime.live_libraries.empty()) {
      result.diagnostics = "cannot find the fitz live-view runtime (libfitz_live_server.a) next to " + runtime.library.string() + "\n";
      return result;
    }
    for (const fs::path& l : runtime.live_libraries) key_material += "\n" + file_stamp(l);
  }
  for (const auto& l : runtime.extra_libs)
    if (!l.starts_with("-")) key_material += "\n" + file_stamp(l);
  std::string key = content_hash(key_material);

  fs::path dir = cache_dir() / "bin";
  fs::path cached = dir / key;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!options.syntax_only && output.has_parent_path()) fs::create_directories(output.parent_path(), ec);

  auto deliver = [&](const fs::path& from) {
    std::error_code e;
    if (fs::equivalent(from, output, e)) return true;
    fs::remove(output, e);
    fs::create_hard_link(from, output, e);
    if (e) fs::copy_file(from, output, fs::copy_options::overwrite_existing, e);
    return !e;
  };

  // A syntax-only check leaves no binary: an empty marker file records that this key passed.
  if (options.syntax_only) cached += ".syntax-ok";
  if (fs::exists(cached, ec) && (options.syntax_only || deliver(cached))) {
    result.ok = true;
    result.cached = true;
    return result;
  }
  if (units.empty()) {
    result.diagnostics = "no translation unit to compile\n";
    return result;
  }

  // The runtime headers are most of what a program's compile reads: precompiled (by the
  // toolchain's build, else once per include set and flags in the build cache), they take a
  // small program's build from seconds to well under one. Every unit starts with the same
  // includes, so one header serves them all.
  const std::string includes = leading_includes(units[0]);
  fs::path pch = toolchain_pch(cxx, pch_flags, includes, runtime);
  if (!pch.empty()) {
    result.pch = "toolchain";
  } else if (pch = precompiled_runtime(cxx, pch_flags, includes, runtime, runtime_stamp); !pch.empty()) {
    result.pch = "cache";
  }
  // The compile of one unit: `key.cpp` alone, `key.N.cpp` of several (each to an object file).
  const bool split = units.size() > 1;
  auto compile_argv = [&](const fs::path& src, const fs::path& object) {
    std::vector<std::string> argv = {cxx};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("-I" + runtime.include_dir.string());
    if (!pch.empty()) argv.insert(argv.end(), {"-include", pch.string()});
    if (!pch.empty() && options.check_pch) argv.push_back("-H");
    if (split && !options.syntax_only) argv.push_back("-c");
    argv.push_back(src.string());
    if (!object.empty()) argv.insert(argv.end(), {"-o", object.string()});
    return argv;
  };
  // -H lists every header the compiler opened: `! X.gch` when it read the precompiled header,
  // `x X.gch` when it found it invalid for these flags.
  auto check_pch = [&](std::string& diagnostics) {
    if (pch.empty() || !options.check_pch) return;
    std::istringstream lines(diagnostics);
    std::string kept, l;
    while (std::getline(lines, l)) {
      if (l.ends_with(".gch") && (l.starts_with("! ") || l.starts_with("x "))) {
        if (result.pch_check.empty() || l[0] == 'x') result.pch_check = l[0] == '!' ? "used" : "rejected";
      } else if (!(l.starts_with(". ") || l.starts_with(".. ") || l.starts_with("Multiple include guards"))) {
        kept += l + "\n";
      }
    }
    diagnostics = kept;
  };
  auto command_of = [](const std::vector<std::string>& argv) {
    std::string c;
    for (const auto& a : argv) c += (c.empty() ? "" : " ") + shell_quote(a);
    return c;
  };
  auto link_libraries = [&](std::vector<std::string>& argv) {
    if (options.live)  // before the WebSocket, auth and HTTP runtimes they use
      for (const fs::path& l : runtime.live_libraries) argv.push_back(l.string());
    if (options.ws) argv.push_back(runtime.ws_library.string());  // before the auth runtime it uses
    if (options.auth) argv.push_back(runtime.auth_library.string());  // before the HTTP runtime it uses
    if (options.http || options.auth) argv.push_back(runtime.http_library.string());  // before the core it uses
    if (options.jobs) argv.push_back(runtime.jobs_library.string());  // before the db and core it uses
    if (options.python) argv.push_back(runtime.python_library.string());  // before the core it uses
    argv.push_back(runtime.library.string());
    for (const auto& l : runtime.extra_libs) argv.push_back(l);
    if (options.auth) {
      argv.push_back("-largon2");
      argv.push_back("-lcrypto");
    }
    // The interpreter by its soname only: the binary runs wherever the same Python minor is.
    if (options.python) argv.push_back("-lpython3.11");
  };
  // mold (else lld) links a program against the static runtime several times faster than GNU ld.
  auto linker_flag = []() -> std::string {
    if (find_on_path("mold")) return "-fuse-ld=mold";
    if (find_on_path("ld.lld")) return "-fuse-ld=lld";
    return "";
  };
  fs::path tmp_bin = dir / (key + ".tmp" + std::to_string(getpid()));
  int rc = 0;
  if (!split) {
    fs::path src = dir / (key + ".cpp");
    std::ofstream(src, std::ios::binary) << units[0];
    std::vector<std::string> argv = compile_argv(src, {});
    if (!options.syntax_only) {
      if (std::string ld = linker_flag(); !ld.empty()) argv.push_back(ld);
      argv.insert(argv.end(), {"-o", tmp_bin.string()});
      link_libraries(argv);
    }
    result.command = command_of(argv);
    rc = run_capture(argv, result.diagnostics);
    check_pch(result.diagnostics);
  } else {
    // The units compile at once, one process each, then link together.
    std::vector<fs::path> objects;
    std::vector<std::vector<std::string>> argvs;
    for (size_t i = 0; i < units.size(); ++i) {
      fs::path src = dir / fmt::format("{}.{}.cpp", key, i);
      std::ofstream(src, std::ios::binary) << units[i];
      objects.push_back(options.syntax_only ? fs::path() : dir / fmt::format("{}.{}.o.tmp{}", key, i, getpid()));
      argvs.push_back(compile_argv(src, objects.back()));
    }
    std::vector<std::string> outputs(units.size());
    std::vector<int> codes(units.size(), 0);
    {
      std::vector<std::thread> workers;
      for (size_t i = 1; i < units.size(); ++i)
        workers.emplace_back([&, i] { codes[i] = run_capture(argvs[i], outputs[i]); });
      codes[0] = run_capture(argvs[0], outputs[0]);
      for (std::thread& w : workers) w.join();
    }
    for (size_t i = 0; i < units.size(); ++i) {
      check_pch(outputs[i]);
      if (codes[i] != 0 && rc == 0) {
        rc = codes[i];
        result.command = command_of(argvs[i]);
        result.diagnostics = outputs[i];
      }
    }
    if (rc == 0 && !options.syntax_only) {
      std::vector<std::string> argv = {cxx};
      argv.insert(argv.end(), pch_flags.begin(), pch_flags.end());
      for (const fs::path& o : objects) argv.push_back(o.string());
      if (std::string ld = linker_flag(); !ld.empty()) argv.push_back(ld);
      argv.insert(argv.end(), {"-o", tmp_bin.string()});
      link_libraries(argv);
      result.command = command_of(argv);
      rc = run_capture(argv, result.diagnostics);
    } else if (rc == 0) {
      result.command = command_of(argvs[0]);
    }
    for (const fs::path& o : objects)
      if (!o.empty()) fs::remove(o, ec);
  }
  if (rc != 0) {
    fs::remove(tmp_bin, ec);
    return result;
  }
  if (options.syntax_only) {
    std::ofstream{cached};
    result.ok = true;
    return result;
  }
  fs::rename(tmp_bin, cached, ec);  // atomic: concurrent builds of the same key are harmless
  if (ec) fs::copy_file(tmp_bin, cached, fs::copy_options::overwrite_existing, ec);
  result.ok = deliver(cached);
  if (!result.ok) result.diagnostics += fmt::format("cannot write `{}`\n", output.string());
  return result;
}

}  // namespace fitz::codegen
