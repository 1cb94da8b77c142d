// `fitz debug`: builds a program with debug info and runs it under LLDB with the Fitz value
// formatters, on LLDB's command line or, with --dap, behind the Debug Adapter Protocol for
// editors (through the relay in dap_relay.cpp).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/build_steps.h"
#include "cli/dap_relay.h"
#include "cli/driver.h"

extern char** environ;

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDebugUsage = R"(usage: fitz debug [PATH] [--batch FILE] [-- ARGS...]
       fitz debug --dap
       fitz debug --print-config [PATH]

Builds the program with debug info (as `fitz build --debug`) and starts LLDB on it with the
Fitz formatters loaded: breakpoints go on .fitz lines (`b main.fitz:12`), the stack shows
Fitz function names, and `frame variable` shows Str, List, Map, nullables, Result and the
instances of your types as Fitz values. ARGS are passed to the program.

options:
  --batch FILE    run the LLDB commands in FILE, then exit (for scripts and CI)
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
  for (const char* name : names)
    if (auto found = codegen::find_on_path(name)) return found->string();
  return std::nullopt;
}

// The folder holding LLDB's own Python package (lldb/embedded_interpreter.py) beside the LLDB
// installation `exe` belongs to (prefix/bin/lldb -> prefix/lib/python3*/dist-packages). Some
// packagings (Debian's lldb-14) look for it elsewhere and then run no Python at all, so no
// formatter; naming it in PYTHONPATH fixes that.
std::optional<fs::path> lldb_python_dir(const std::string& exe) {
  std::error_code ec;
  fs::path prefix = fs::canonical(exe, ec).parent_path().parent_path();
  if (ec) return std::nullopt;
  fs::path lib = prefix / "lib";
  std::vector<fs::path> found;
  for (fs::directory_iterator it(lib, ec), end; !ec && it != end; it.increment(ec)) {
    fs::path dir = it->path() / "dist-packages";
    if (it->path().filename().string().starts_with("python3") && fs::exists(dir / "lldb" / "embedded_interpreter.py", ec))
      found.push_back(dir);
  }
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end());
  return found.back();
}

// The home of the Python that LLDB embeds (the one whose lib/python3.X holds `python_dir`):
// embedded, it guesses its home from the first python3 on PATH, which under pyenv or a
// virtualenv is another installation, without the modules LLDB's package imports.
std::optional<fs::path> lldb_python_home(const fs::path& python_dir) {
  std::string version = python_dir.parent_path().filename().string();  // python3.X
  for (const char* home : {"/usr", "/usr/local"}) {
    std::error_code ec;
    if (fs::exists(fs::path(home) / "lib" / version / "os.py", ec)) return fs::path(home);
  }
  return std::nullopt;
}

// The environment LLDB runs in: ours, with its Python package on PYTHONPATH and its Python's
// home as PYTHONHOME when they are found (and PYTHONHOME is not set already).
std::vector<std::string> lldb_environment(const std::string& exe) {
  std::vector<std::string> env;
  std::optional<fs::path> python = lldb_python_dir(exe);
  std::optional<fs::path> home = python ? lldb_python_home(*python) : std::nullopt;
  std::string pythonpath = python ? python->string() : "";
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    if (python && entry.starts_with("PYTHONPATH=")) {
      if (entry.size() > 11) pythonpath += ":" + std::string(entry.substr(11));
      continue;
    }
    if (entry.starts_with("PYTHONHOME=")) home.reset();
    env.emplace_back(entry);
  }
  if (python) env.push_back("PYTHONPATH=" + pythonpath);
  if (home) env.push_back("PYTHONHOME=" + home->string());
  return env;
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
  codegen::GenOptions gopts;
  gopts.debug_line_info = true;
  if (generate_program(target, gopts, io, gen, entry, false) != kOk) return "";
  fs::path output = codegen::cache_dir() / "debug" / codegen::content_hash(fs::absolute(entry).string()) / entry.stem();
  codegen::CompileOptions copts = compile_options_for(gen);
  copts.debug = true;
  if (compile_generated(gen, output, copts, io, false) != kOk) return "";
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
  std::string target, batch;
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
    if (a == "--batch" || a.starts_with("--batch=")) {
      if (a == "--batch" && i + 1 == args.size()) {
        io.err << "error: `--batch` needs a file of LLDB commands\n\n" << kDebugUsage;
        return kUsageError;
      }
      batch = a == "--batch" ? args[++i] : a.substr(8);
      std::error_code ec;
      if (!fs::is_regular_file(batch, ec)) {
        io.err << "error: no such file `" << batch << "`\n";
        return kUsageError;
      }
    } else if (a == "--dap") {
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
  if (dap && (config || !target.empty() || !program_args.empty() || !batch.empty())) {
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
    int rc = relay_dap({*adapter}, lldb_environment(*adapter), *formatters, build);
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
  std::vector<std::string> argv = {*lldb, "-o", "command script import \"" + *formatters + "\""};
  // -b: quit after the commands (unless the program crashed: then LLDB stays at the crash).
  if (!batch.empty()) argv.insert(argv.end(), {"-b", "-s", batch});
  argv.insert(argv.end(), {"--", binary});
  argv.insert(argv.end(), program_args.begin(), program_args.end());
  std::vector<std::string> env = lldb_environment(*lldb);
  std::vector<char*> cargv, cenv;
  for (auto& s : argv) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  for (auto& s : env) cenv.push_back(s.data());
  cenv.push_back(nullptr);
  io.out.flush();
  io.err.flush();
  execve(cargv[0], cargv.data(), cenv.data());
  io.err << "error: cannot start " << *lldb << "\n";
  return kInternal;
}

}  // namespace fitz::cli
