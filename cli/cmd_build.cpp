// `fitz build` and `fitz run`: check (always strict), generate C++, compile against the prebuilt
// runtime with a build cache, and for `run` execute the binary passing arguments and exit status.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>
#include <thread>

#include <fmt/format.h>

#include "checker/checker.h"
#include "checker/view_check.h"
#include "cli/build_steps.h"
#include "cli/cmd_run_process.h"
#include "cli/driver.h"
#include "cli/migrations_dir.h"
#include "codegen/codegen.h"
#include "codegen/toolchain.h"
#include "frontend/manifest.h"
#include "frontend/project.h"
#include "frontend/render.h"
#include "migrate/engine.h"
#include "packages/sync.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kBuildUsage = R"(usage: fitz build [PATH] [-o OUT] [--emit=cpp] [options]
       fitz run [PATH] [options] [-- ARGS...]

Checks the program (errors stop the build), generates C++, and compiles it with the system
C++ compiler against the fitz runtime. Builds are cached: an unchanged program rebuilds at once.
`fitz run` passes SIGINT, SIGTERM and SIGHUP on to the program and exits with its status
(128+N when it died of signal N); the program does not outlive `fitz run`.

options:
  -o OUT          where to write the binary (default: beside the entry file, without .fitz;
                  `-` with --emit=cpp writes the C++ to stdout)
  --emit=cpp      write the generated C++ instead of a binary
  --sanitize      build with address and undefined-behaviour sanitizers
  --debug         build for a debugger: debug info mapping to .fitz lines, no optimisation
                  (see `fitz debug`)
  -O0|-O1|-O2|-O3 optimisation level of the C++ compiler (default: -O2 for build, -O1 for
                  run, which starts sooner; -O0 from a fitz built with sanitizers)
  --time-phases   print how long each phase took
  --offline       resolve git dependencies from fitz.lock and the cache only, never the
                  network (also FITZ_OFFLINE=1)
  -h, --help      show this help
)";

// `fitz build` alone (not `fitz run`, which shares the usage above).
constexpr const char* kBuildOnlyUsage = R"(  --syntax-only   only check that the generated C++ compiles; no binary is written
)";

struct BuildOptions {
  std::string target;
  std::string output;
  std::string emit;
  bool sanitize = false;
  bool debug = false;
  bool time_phases = false;
  bool offline = false;
  std::string opt_level = codegen::default_opt_level();
  std::vector<std::string> run_args;
  bool werror = false;
  bool syntax_only = false;
};

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

int generate_program(const std::string& target, const codegen::GenOptions& gen_options, Io io,
                     codegen::GenResult& out, fs::path& entry_path, bool time_phases,
                     deploy::ServiceFacts* facts, bool offline) {
  auto t0 = Clock::now();
  frontend::SourceManager sources;
  frontend::DiagnosticBag raw;    // as the checker reports them; generated view modules unmapped
  frontend::DiagnosticBag diags;
  // `.fitzv` components are imported like modules (`from Counter import Counter`): the view
  // checker serves each as a generated module and maps its diagnostics back into the view.
  checker::ViewChecker views(sources);
  frontend::LoadRequest req;
  req.target = target;
  req.resolve_packages = packages::resolver(offline || packages::offline_from_env());
  views.serve(req, frontend::disk_reader(), nullptr);
  frontend::LoadResult loaded = frontend::load_program(req, sources, raw);
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  auto t1 = Clock::now();
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, raw);
  checker::CheckedViews checked_views = views.finish(loaded.graph, program, raw, diags);
  auto t2 = Clock::now();
  frontend::TextRenderOptions text_options = text_options_of(io);
  if (diags.error_count() > 0) {
    for (const auto& d : diags.sorted())
      if (d.severity == frontend::Severity::Error) io.err << frontend::render(d, sources, frontend::DiagnosticFormat::Text, text_options);
    io.err << frontend::render_summary(diags.error_count(), 0, io.color);
    return kUserError;
  }
  if (loaded.graph.roots.empty()) {
    io.err << "error: nothing to build\n";
    return kUsageError;
  }
  entry_path = loaded.graph.get(loaded.graph.roots.front()).path;
  codegen::GenOptions options = gen_options;
  if (!checked_views.files.empty()) options.views = &checked_views;
  // A service carries its migrations (`APP migrate`); a malformed file stops the build here
  // rather than the deployment later. Scripts and tests do not read the folder.
  const checker::ServiceModel& service = program.service;
  bool serves = !service.routes.empty() || !service.ws.empty() || !service.cron.empty();
  if (serves && !options.test_mode) {
    std::vector<migrate::Migration> files;
    if (!migrate::read_directory(migrations_dir_of(loaded.graph.project_root, target), files, {io.out, io.err}))
      return kUserError;
    for (migrate::Migration& f : files)
      options.migrations.push_back({f.path.filename().string(), std::move(f.text)});
  }
  out = codegen::generate_cpp(program, loaded.graph, sources, options);
  if (facts) *facts = deploy::facts_of(program, loaded.graph);
  if (time_phases)
    io.err << fmt::format("time: load+parse {:.1f} ms, check {:.1f} ms, generate {:.1f} ms\n",
                          std::chrono::duration<double, std::milli>(t1 - t0).count(),
                          std::chrono::duration<double, std::milli>(t2 - t1).count(), ms_since(t2));
  if (!out.not_compiled.empty()) {
    for (const std::string& m : out.not_compiled) io.err << m << "\n";
    return kUserError;
  }
  if (!out.unsupported.empty()) {
    io.err << "internal compiler error: the code generator cannot express ";
    for (size_t i = 0; i < out.unsupported.size() && i < 5; ++i) io.err << (i ? ", " : "") << out.unsupported[i];
    io.err << "\nthis is a bug in fitz; please report it with the program that triggers it\n";
    return kInternal;
  }
  return kOk;
}

size_t build_units() {
  if (const char* v = std::getenv("FITZ_BUILD_UNITS"); v && *v) {
    char* end = nullptr;
    unsigned long n = std::strtoul(v, &end, 10);
    if (end && *end == '\0' && n >= 1) return std::min<size_t>(n, 64);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

int compile_generated(const codegen::GenResult& gen, const fs::path& output, const codegen::CompileOptions& copts,
                      Io io, bool time_phases) {
  std::string error;
  auto runtime = codegen::find_runtime(error);
  if (!runtime) {
    io.err << "error: " << error << "\n";
    return kInternal;
  }
  auto t = Clock::now();
  codegen::CompileOptions options = copts;
  options.check_pch = time_phases;
  codegen::CompileResult r = codegen::compile_units(codegen::split_units(gen, build_units()), output, options, *runtime);
  if (time_phases) {
    std::string pch;
    if (!r.cached)
      pch = r.pch.empty() ? ", no precompiled header"
                          : fmt::format(", precompiled header from the {} ({})", r.pch,
                                        r.pch_check == "rejected" ? "rejected by the compiler: its flags differ"
                                        : r.pch_check == "used" ? "used" : "not reported");
    std::string units = !r.cached && r.units > 1 ? fmt::format(", {} translation units at once", r.units) : "";
    io.err << fmt::format("time: compile {:.1f} ms{}{}{}\n", ms_since(t), r.cached ? " (cached)" : "", pch, units);
  }
  if (!r.ok) {
    io.err << "internal compiler error: the generated C++ did not compile; this is a bug in fitz.\n"
           << "reproduce with:\n  " << r.command << "\ncompiler output:\n" << r.diagnostics;
    return kInternal;
  }
  return kOk;
}

codegen::CompileOptions compile_options_for(const codegen::GenResult& gen) {
  codegen::CompileOptions copts;
  copts.http = gen.http;
  copts.jobs = gen.jobs;
  copts.auth = gen.auth;
  copts.python = gen.python;
  copts.ws = gen.ws;
  copts.live = gen.live;
  return copts;
}

static int parse_build_args(const std::vector<std::string>& args, BuildOptions& opt, Io io, bool is_run) {
  // `run` is the edit-and-try loop: a shorter compile matters more than the last few percent.
  if (is_run) opt.opt_level = codegen::dev_opt_level();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      opt.run_args.assign(args.begin() + long(i) + 1, args.end());
      break;
    }
    if (a == "-h" || a == "--help") {
      io.out << kBuildUsage << (is_run ? "" : kBuildOnlyUsage);
      return -1;
    }
    if (a == "-o" && i + 1 < args.size()) {
      opt.output = args[++i];
    } else if (a.rfind("--emit=", 0) == 0) {
      opt.emit = a.substr(7);
      if (opt.emit != "cpp") {
        io.err << "error: unknown --emit value `" << opt.emit << "` (expected cpp)\n";
        return kUsageError;
      }
    } else if (a == "--sanitize") {
      opt.sanitize = true;
    } else if (a == "--debug") {
      opt.debug = true;
    } else if (a == "--werror") {
      opt.werror = true;
    } else if (a == "--syntax-only" && !is_run) {
      opt.syntax_only = true;
    } else if (a == "--time-phases") {
      opt.time_phases = true;
    } else if (a == "--offline") {
      opt.offline = true;
    } else if (a == "-O0" || a == "-O1" || a == "-O2" || a == "-O3") {
      opt.opt_level = a;
    } else if (!a.empty() && a[0] == '-') {
      io.err << "error: unknown option `" << a << "`\n\n" << kBuildUsage;
      return kUsageError;
    } else if (opt.target.empty()) {
      opt.target = a;
    } else if (is_run) {
      // `fitz run app.fitz a b` passes the rest to the program, like `--`.
      opt.run_args.assign(args.begin() + long(i), args.end());
      break;
    } else {
      io.err << "error: `fitz build` takes one path\n";
      return kUsageError;
    }
  }
  return kOk;
}

static fs::path default_output(const fs::path& entry) {
  fs::path out = entry;
  out.replace_extension();
  return out;
}

int cmd_build(const std::vector<std::string>& args, Io io) {
  BuildOptions opt;
  if (int rc = parse_build_args(args, opt, io, false); rc != kOk) return rc < 0 ? kOk : rc;
  codegen::GenResult gen;
  fs::path entry;
  codegen::GenOptions gopts;
  gopts.debug_line_info = opt.debug;
  if (int rc = generate_program(opt.target, gopts, io, gen, entry, opt.time_phases, nullptr, opt.offline); rc != kOk) return rc;
  if (opt.emit == "cpp") {
    if (opt.output.empty() || opt.output == "-") {
      io.out << gen.cpp;
    } else {
      std::ofstream(opt.output, std::ios::binary) << gen.cpp;
    }
    return kOk;
  }
  fs::path output = opt.output.empty() ? default_output(entry) : fs::path(opt.output);
  codegen::CompileOptions copts = compile_options_for(gen);
  copts.sanitize = opt.sanitize;
  copts.debug = opt.debug;
  copts.opt_level = opt.opt_level;
  copts.warnings_as_errors = opt.werror;
  copts.syntax_only = opt.syntax_only;
  return compile_generated(gen, output, copts, io, opt.time_phases);
}

int cmd_run(const std::vector<std::string>& args, Io io) {
  BuildOptions opt;
  if (int rc = parse_build_args(args, opt, io, true); rc != kOk) return rc < 0 ? kOk : rc;
  codegen::GenResult gen;
  fs::path entry;
  codegen::GenOptions gopts;
  gopts.debug_line_info = opt.debug;
  if (int rc = generate_program(opt.target, gopts, io, gen, entry, opt.time_phases, nullptr, opt.offline); rc != kOk) return rc;
  // The binary lives in the cache; `run` never writes next to the sources.
  fs::path output = codegen::cache_dir() / "run" / codegen::content_hash(entry.string()) / entry.stem();
  codegen::CompileOptions copts = compile_options_for(gen);
  copts.sanitize = opt.sanitize;
  copts.debug = opt.debug;
  copts.opt_level = opt.opt_level;
  copts.warnings_as_errors = opt.werror;
  if (int rc = compile_generated(gen, output, copts, io, opt.time_phases); rc != kOk) return rc;
  io.out.flush();
  io.err.flush();
  std::vector<std::string> argv = {output.string()};
  argv.insert(argv.end(), opt.run_args.begin(), opt.run_args.end());
  return run_forwarding_signals(argv);
}

}  // namespace fitz::cli

namespace fitz::cli {

constexpr const char* kTestUsage = R"(usage: fitz test [PATH] [FILTER] [options]

Builds the @test functions of a file, a directory, or the project around the current directory
(its src/ and tests/) into one test binary and runs each test; a failing assertion or runtime
error in one test does not stop the others. FILTER keeps tests whose name contains it.

options:
  --file F        run only the tests of the file F (one of the files being tested)
  --sanitize      build with address and undefined-behaviour sanitizers
  --offline       resolve git dependencies from fitz.lock and the cache only (also FITZ_OFFLINE=1)
  -h, --help      show this help
)";

int cmd_test(const std::vector<std::string>& args, Io io) {
  std::string target, filter, file;
  bool sanitize = false, offline = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kTestUsage;
      return kOk;
    }
    if (a == "--sanitize") {
      sanitize = true;
    } else if (a == "--offline") {
      offline = true;
    } else if (a == "--file" || a.starts_with("--file=")) {
      if (a == "--file" && i + 1 == args.size()) {
        io.err << "error: `--file` needs a file\n\n" << kTestUsage;
        return kUsageError;
      }
      file = a == "--file" ? args[++i] : a.substr(7);
      if (!fs::is_regular_file(file)) {
        io.err << "error: no such file `" << file << "`\n";
        return kUsageError;
      }
    } else if (!a.empty() && a[0] == '-') {
      io.err << "error: unknown option `" << a << "`\n\n" << kTestUsage;
      return kUsageError;
    } else if (target.empty() && (fs::exists(a) || a.ends_with(".fitz"))) {
      target = a;
    } else if (filter.empty()) {
      filter = a;
    } else {
      io.err << "error: `fitz test` takes a path and a filter\n";
      return kUsageError;
    }
  }
  // `--file F` outside any project: F alone is what is tested.
  if (target.empty() && !file.empty() && !frontend::find_manifest(fs::current_path())) target = file;
  codegen::GenOptions gopts;
  gopts.test_mode = true;
  gopts.test_filter = filter;
  gopts.test_file = file;
  codegen::GenResult gen;
  fs::path entry;
  if (int rc = generate_program(target, gopts, io, gen, entry, false, nullptr, offline); rc != kOk) return rc;
  if (!file.empty() && !gen.test_file_found) {
    io.err << "error: `" << file << "` is not one of the files being tested"
           << (target.empty() ? std::string(" (the project's src/ and tests/)") : " (" + target + ")") << "\n";
    return kUsageError;
  }
  fs::path output = codegen::cache_dir() / "test" / codegen::content_hash(entry.string()) / entry.stem();
  codegen::CompileOptions copts = compile_options_for(gen);
  copts.sanitize = sanitize;
  copts.opt_level = codegen::dev_opt_level();
  if (int rc = compile_generated(gen, output, copts, io, false); rc != kOk) return rc;
  io.out.flush();
  io.err.flush();
  pid_t pid = fork();
  if (pid == 0) {
    execl(output.c_str(), output.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 0 ? kOk : kUserError;
  io.err << "error: the test binary was killed by signal " << WTERMSIG(status) << "\n";
  return kUserError;
}

}  // namespace fitz::cli
