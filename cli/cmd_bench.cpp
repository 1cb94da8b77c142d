// `fitz bench`: hands over to the benchmark runner (bench/run.py), which drives the servers,
// fitz-loadgen, pgbench and the report. The runner is found next to this binary's build tree
// (build/bin/fitz → bench/run.py) or in an installed layout (share/fitz/bench/run.py).
#include <unistd.h>

#include <filesystem>
#include <ostream>

#include "cli/driver.h"
#include "codegen/toolchain.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kBenchHelp = R"(usage: fitz bench [--quick] [--suite S,...] [--impl I,...] [--iterations N] [--out DIR]

Runs the bundled benchmarks: Fitz services side by side with Python + SQLAlchemy,
Node + Express + pg, Node + Sequelize, Go + net/http + pgx, Rust + hyper + tokio-postgres,
the hand-written C++ servers and pgbench, one server at a time, each on a fresh database;
writes bench/results/<timestamp>/summary.md (tables and SVG charts) and results.json. Uses DATABASE_URL or starts the local Postgres of scripts/pg-local.sh.

suites: orm, mixed, tfb, overhead, memory (default: all)
implementations: fitz, fitz-orm, fitz-python, fitz-http, cpp, beast, python, node, node-orm, go,
                 rust (default: all; each suite runs the ones it names)

options:
  --quick          a few seconds per phase: a smoke test, not a measurement
  --iterations N   measured iterations per phase, the median is reported (default 3)
  --warmup SECS    discarded warm-up per phase (default 5)
  --scale F        multiply every phase's duration by F (e.g. 0.25 for a shorter full run)
  --out DIR        where to write the report
exit status: 0 ok, 1 some run had more than 0.1% failed requests, 2 usage or setup error
See docs/benchmarks.md.
)";

}  // namespace

int cmd_bench(const std::vector<std::string>& args, Io io) {
  for (const std::string& a : args)
    if (a == "-h" || a == "--help") {
      io.out << kBenchHelp;
      return kOk;
    }
  fs::path exe = codegen::self_exe();
  if (exe.empty()) {
    io.err << "error: cannot locate the running fitz binary\n";
    return kUsageError;
  }
  fs::path build = exe.parent_path().parent_path();  // build/bin/fitz → build
  std::vector<fs::path> candidates = {build.parent_path() / "bench" / "run.py",
                                      build / "share" / "fitz" / "bench" / "run.py"};
  fs::path runner;
  for (const fs::path& c : candidates)
    if (fs::exists(c)) {
      runner = c;
      break;
    }
  if (runner.empty()) {
    io.err << "error: cannot find the benchmark runner (bench/run.py) next to " << exe.string() << "\n";
    return kUsageError;
  }
  io.out.flush();
  io.err.flush();
  std::vector<std::string> argv = {"/usr/bin/python3", runner.string(), "--fitz", exe.string(), "--build", build.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& s : argv) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  ::execv(cargv[0], cargv.data());
  io.err << "error: cannot start /usr/bin/python3 for the benchmark runner\n";
  return kUsageError;
}

}  // namespace fitz::cli
