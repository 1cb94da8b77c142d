// `fitz debug`: builds a program with debug info and runs it under LLDB with the Fitz value
// formatters, on LLDB's command line or, with --dap, behind the Debug Adapter Protocol for
// editors (through the relay in dap_relay.cpp).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/build_program.h"
#include "cli/dap_relay.h"
#include "cli/driver.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDebugUsage = R"(usage: fitz debug [PATH] [-- ARGS...]
       fitz debug --dap
       fitz debug --print-config [PATH]

Builds the program with debug info (as `fitz build --debug`) and starts LLDB on it with the
Fitz formatters loaded: breakpoints go on .fitz lines (`b main.fitz:12`), the stack shows
Fitz function names, and `frame variable` shows Str, List, Map, nullables, Result and the
instances of your types as Fitz values. ARGS are passed to the program.

options:
  --dap           speak the Debug Adapter Protocol on stdin and stdout, for editors; a launch
                  request's "program" may be a .fitz file or a project directory, which is
                  built with debug info first
  --print-config  print, as JSON, how an editor starts the adapter and a launch
                  configuration for PATH
  -h, --help      show this help

needs LLDB 14: `lldb-14` (or `lldb`), and `lldb-vscode-14` (or `lldb-vscode`) for --dap
)";

// The first of `names` found on PATH, as a path.
std::optional<std::string> find_on_path(std::initializer_list<const char*> names) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  for (const char* name : names) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return std::nullopt;
}

// fitz_lldb.py ships with the runtime: beside its headers in a source or build tree
// (runtime/include -> runtime/debug), under share/fitz of an installed prefix.
std::optional<std::string> find_formatters(std::string& error) {
  auto runtime = codegen::find_runtime(error);
  std::vector<fs::path> candidates;
  if (runtime) candidates.push_back(runtime->include_dir.parent_path() / "debug" / "fitz_lldb.py");
  if (fs::path exe = codegen::self_exe(); !exe.empty())
    candidates.push_back(exe.parent_path().parent_path() / "share" / "fitz" / "fitz_lldb.py");
  for (const fs::path& p : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return fs::absolute(p, ec).string();
  }
  if (runtime) error = "cannot find the Fitz LLDB formatters (fitz_lldb.py) next to the fitz runtime";
  return std::nullopt;
}

// Builds `target` with debug info into the cache; returns the binary or "" (messages in io.err).
std::string build_for_debugging(const std::string& target, Io io) {
  codegen::GenResult gen;
  fs::path entry;
  if (generate_program(target, {}, io, gen, entry, false) != kOk) return "";
  fs::path output = codegen::cache_dir() / "debug" / codegen::content_hash(fs::absolute(entry).string()) / entry.stem();
  codegen::CompileOptions copts;
  copts.http = gen.http;
  copts.jobs = gen.jobs;
  copts.auth = gen.auth;
  copts.python = gen.python;
  copts.ws = gen.ws;
  copts.debug = true;
  if (compile_generated(gen.cpp, output, copts, io, false) != kOk) return "";
  return output.string();
}

int print_config(const std::string& target, Io io) {
  std::error_code ec;
  fs::path program = fs::absolute(target.empty() ? "." : target, ec);
  if (!fs::exists(program, ec)) {
    io.err << "error: no such file or directory `" << target << "`\n";
    return kUsageError;
  }
  fs::path dir = fs::is_directory(program, ec) ? program : program.parent_path();
  nlohmann::json config = {
      {"adapter", {{"command", codegen::self_exe().string()}, {"args", {"debug", "--dap"}}}},
      {"configuration",
       {{"type", "fitz"},
        {"request", "launch"},
        {"name", "Debug " + program.stem().string()},
        {"program", program.string()},
        {"args", nlohmann::json::array()},
        {"cwd", dir.string()}}}};
  io.out << config.dump(2) << "\n";
  return kOk;
}

}  // namespace

int cmd_debug(const std::vector<std::string>& args, Io io) {
  std::string target;
  std::vector<std::string> program_args;
  bool dap = false, config = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      program_args.assign(args.begin() + long(i) + 1, args.end());
      break;
    }
    if (a == "-h" || a == "--help") {
      io.out << kDebugUsage;
      return kOk;
    }
    if (a == "--dap") {
      dap = true;
    } else if (a == "--print-config") {
      config = true;
    } else if (!a.empty() && a[0] == '-') {
      io.err << "error: unknown option `" << a << "`\n\n" << kDebugUsage;
      return kUsageError;
    } else if (target.empty()) {
      target = a;
    } else {
      io.err << "error: `fitz debug` takes one path (pass program arguments after `--`)\n";
      return kUsageError;
    }
  }
  if (dap && (config || !target.empty() || !program_args.empty())) {
    io.err << "error: `fitz debug --dap` takes no path: the editor's launch request names the program\n";
    return kUsageError;
  }
  if (config) return print_config(target, io);

  std::string error;
  std::optional<std::string> formatters = find_formatters(error);
  if (!formatters) {
    io.err << "error: " << error << "\n";
    return kInternal;
  }
  if (dap) {
    auto adapter = find_on_path({"lldb-vscode-14", "lldb-vscode"});
    if (!adapter) {
      io.err << "error: cannot find lldb-vscode-14 or lldb-vscode on PATH; install lldb-14\n";
      return kUsageError;
    }
    io.out.flush();
    DebugBuild build = [](const std::string& program, std::string& message) {
      std::ostringstream out, err;
      std::string binary = build_for_debugging(program, {out, err});
      message = err.str();
      return binary;
    };
    int rc = relay_dap({*adapter}, *formatters, build);
    if (rc < 0) {
      io.err << "error: cannot start " << *adapter << "\n";
      return kInternal;
    }
    return rc == 0 ? kOk : kUserError;
  }

  auto lldb = find_on_path({"lldb-14", "lldb"});
  if (!lldb) {
    io.err << "error: cannot find lldb-14 or lldb on PATH; install lldb-14\n";
    return kUsageError;
  }
  std::string binary = build_for_debugging(target, io);
  if (binary.empty()) return kUserError;
  std::vector<std::string> argv = {*lldb, "-o", "command script import \"" + *formatters + "\"", "--", binary};
  argv.insert(argv.end(), program_args.begin(), program_args.end());
  std::vector<char*> cargv;
  for (auto& s : argv) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  io.out.flush();
  io.err.flush();
  execv(cargv[0], cargv.data());
  io.err << "error: cannot start " << *lldb << "\n";
  return kInternal;
}

}  // namespace fitz::cli
