// Subcommand dispatch, `--help` and `--version`.
#include "cli/driver.h"

#include <iostream>
#include <ostream>

#include "lsp/lsp.h"

namespace fitz::cli {

namespace {

constexpr const char* kUsageText = R"(fitz — the toolchain of the Fitz language

usage: fitz <command> [options] [args]

commands:
  check [PATH]   type-check a file, a directory or the project around the current directory
  build [PATH]   compile to a native binary
  run [PATH]     build (cached) and run
  dev [PATH]     run, and check, rebuild and restart on every change
  repl           read, check and run Fitz at a prompt
  test [PATH]    run @test functions
  debug [PATH]   build with debug info and run under LLDB (--dap: for editors)
  fmt [PATH]     format source files
  lint [FILES]   check and report lint warnings (unused parameters, shadowing, ...)
  lsp            start the language server on stdio
  bench          run the bundled benchmarks
  new NAME       create a project
  add NAME       add a dependency (--path DIR, or --git URL with --tag or --rev) to fitz.toml
  remove NAME    remove a dependency from fitz.toml and fitz.lock
  update [NAME]  move git dependencies in fitz.lock to what their tags and revs name now
  openapi PATH   print the OpenAPI document of a service
  db SUBCOMMAND  schema tools: diff, migrate, status
  deploy image   build an OCI image of a service (no Docker daemon needed)

options:
  -h, --help     show help (also after a command: fitz check --help)
  -V, --version  show the version

exit status: 0 ok, 1 the program has errors or tests failed, 2 usage or I/O error,
3 internal error (please report it)

documentation: the guide in docs/guide/README.md and the reference (every command, diagnostic,
built-in and decorator) in docs/reference/ of the fitz sources
)";

}  // namespace

int run(const std::vector<std::string>& args, Io io) {
  if (args.empty()) {
    io.err << kUsageText;
    return kUsageError;
  }
  const std::string& cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    io.out << kUsageText;
    return kOk;
  }
  if (cmd == "-V" || cmd == "--version") {
    io.out << "fitz " << FITZ_VERSION << "\n";
    return kOk;
  }
  if (cmd == "check") return cmd_check(rest, io);
  if (cmd == "build") return cmd_build(rest, io);
  if (cmd == "run") return cmd_run(rest, io);
  if (cmd == "dev") return cmd_dev(rest, io);
  if (cmd == "repl") return cmd_repl(rest, io);
  if (cmd == "test") return cmd_test(rest, io);
  if (cmd == "fmt") return cmd_fmt(rest, io);
  if (cmd == "lint") return cmd_lint(rest, io);
  if (cmd == "new") return cmd_new(rest, io);
  if (cmd == "openapi") return cmd_openapi(rest, io);
  if (cmd == "bench") return cmd_bench(rest, io);
  if (cmd == "lsp") return lsp::run_language_server(rest, std::cin, io.out, io.err);
  if (cmd == "db") return cmd_db(rest, io);
  if (cmd == "deploy") return cmd_deploy(rest, io);
  if (cmd == "debug") return cmd_debug(rest, io);
  if (cmd == "add") return cmd_add(rest, io);
  if (cmd == "remove") return cmd_remove(rest, io);
  if (cmd == "update") return cmd_update(rest, io);
  io.err << "error: unknown command `" << cmd << "`\n\n" << kUsageText;
  return kUsageError;
}

}  // namespace fitz::cli
