// `fitz dev`: check, build and run the program, then do it again on every change to its files.
// The service keeps serving while the code has errors; a new build takes over the listening
// socket without refusing a connection (cli/dev_supervisor.h).
#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ostream>

#include <fmt/format.h>

#include "cli/build_steps.h"
#include "cli/dev_supervisor.h"
#include "cli/driver.h"
#include "cli/file_watch.h"
#include "frontend/manifest.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDevUsage = R"(usage: fitz dev [PATH] [options] [-- ARGS...]

Checks, builds and runs the program (a file, a folder, or the project around the current
directory), then watches its folder: on each change to a .fitz, .fitzv, .css, .py, .pyi or .sql
file, fitz.toml or fitz.lock it checks again and prints the diagnostics as `fitz check` does.
While the code has errors the running program keeps serving; once it checks, the new build
starts on the same listening socket and the old one stops after the new one is ready, so no
connection is refused during the swap. Build output, hidden folders and node_modules are not
watched. Ctrl+C stops the program and `fitz dev`.

options:
  --port N        where the service listens (default: PORT, else `@server`'s port, else 3000)
  --host H        the address it listens on (default: HOST, else 127.0.0.1)
  -O0|-O1|-O2     optimisation level of the C++ compiler (default -O1)
  -h, --help      show this help
)";

struct DevOptions {
  std::string target;
  std::string host;
  int port = -1;
  std::string opt_level = codegen::dev_opt_level();
  std::vector<std::string> run_args;
};

int parse_dev_args(const std::vector<std::string>& args, DevOptions& opt, Io io) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      opt.run_args.assign(args.begin() + long(i) + 1, args.end());
      break;
    }
    if (a == "-h" || a == "--help") {
      io.out << kDevUsage;
      return -1;
    }
    if ((a == "--port" || a == "--host") && i + 1 == args.size()) {
      io.err << "error: `" << a << "` needs a value\n\n" << kDevUsage;
      return kUsageError;
    }
    if (a == "--port") {
      const std::string& v = args[++i];
      char* end = nullptr;
      long p = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || p < 0 || p > 65535) {
        io.err << "error: invalid port `" << v << "` (0 to 65535)\n";
        return kUsageError;
      }
      opt.port = int(p);
    } else if (a == "--host") {
      opt.host = args[++i];
    } else if (a == "-O0" || a == "-O1" || a == "-O2") {
      opt.opt_level = a;
    } else if (!a.empty() && a[0] == '-') {
      io.err << "error: unknown option `" << a << "`\n\n" << kDevUsage;
      return kUsageError;
    } else if (opt.target.empty()) {
      opt.target = a;
    } else {
      io.err << "error: `fitz dev` takes one path (program arguments go after `--`)\n";
      return kUsageError;
    }
  }
  return kOk;
}

// The folder whose files make up the program: the project's (where fitz.toml is), else the
// folder given or the one holding the file.
fs::path folder_to_watch(const std::string& target) {
  std::error_code ec;
  fs::path start = target.empty() ? fs::current_path() : fs::absolute(target, ec);
  fs::path dir = fs::is_directory(start, ec) ? start : start.parent_path();
  if (auto manifest = frontend::find_manifest(dir)) return manifest->parent_path();
  return dir;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

class DevLoop {
 public:
  DevLoop(DevOptions opt, Io io, int signal_fd) : opt_(std::move(opt)), io_(io), signal_fd_(signal_fd) {}

  // Builds and (re)starts the program. `since` is when the change that led here was seen.
  // Returns false when a signal asks `fitz dev` to stop.
  bool rebuild(Clock::time_point since) {
    codegen::GenResult gen;
    fs::path entry;
    deploy::ServiceFacts facts;
    int rc = generate_program(opt_.target, {}, io_, gen, entry, false, &facts);
    if (rc == kUsageError && generation_ == 0) {
      fatal_ = true;
      return false;
    }
    if (rc != kOk) {
      say(supervisor_.listening() || running_ ? "the program has errors; the previous build keeps running"
                                              : "the program has errors; waiting for a change");
      return true;
    }
    fs::path output = codegen::cache_dir() / "dev" / codegen::content_hash(entry.string()) /
                      fmt::format("{}-{}", entry.stem().string(), generation_ + 1);
    codegen::CompileOptions copts = compile_options_for(gen);
    copts.opt_level = opt_.opt_level;
    if (compile_generated(gen, output, copts, io_, false) != kOk) return true;
    if (gen.http && !supervisor_.listening()) {
      std::string error;
      if (!supervisor_.listen(host_for(), port_for(facts), error)) {
        io_.err << "error: " << error << "\n";
        fatal_ = true;
        return false;
      }
    }
    std::vector<std::string> argv = {output.string()};
    argv.insert(argv.end(), opt_.run_args.begin(), opt_.run_args.end());
    io_.out.flush();
    io_.err.flush();
    DevSupervisor::Outcome r = supervisor_.start(argv, signal_fd_);
    switch (r.kind) {
      case DevSupervisor::Outcome::Interrupted:
        return false;
      case DevSupervisor::Outcome::Exited:
        say(fmt::format("the new build exited with status {} before it was ready{}", r.status,
                        running_ ? "; the previous build keeps running" : ""));
        break;
      case DevSupervisor::Outcome::Ready:
        say(fmt::format("{} http://{}:{} ({:.2f} s {})", running_ ? "serving the new build on" : "serving on", host_for(),
                        supervisor_.port(), seconds_since(since), generation_ == 0 ? "to build and start" : "from the change"));
        running_ = true;
        forget(previous_output_);
        previous_output_ = output;
        break;
      case DevSupervisor::Outcome::Started:
        say(fmt::format("started {} ({:.2f} s {})", generation_ == 0 ? "the program" : "the new build", seconds_since(since),
                        generation_ == 0 ? "to build and start" : "from the change"));
        running_ = true;
        forget(previous_output_);
        previous_output_ = output;
        break;
    }
    ++generation_;
    return true;
  }

  int run() {
    fs::path root = folder_to_watch(opt_.target);
    std::string error;
    if (!watcher_.open(root, error)) {
      io_.err << "error: " << error << "\n";
      return kUsageError;
    }
    say("watching " + root.string());
    if (!rebuild(Clock::now())) return finish();
    for (;;) {
      pollfd fds[2] = {{watcher_.fd(), POLLIN, 0}, {signal_fd_, POLLIN, 0}};
      if (poll(fds, 2, -1) < 0) continue;
      if (fds[1].revents & POLLIN) {
        signalfd_siginfo si{};
        if (read(signal_fd_, &si, sizeof si) != ssize_t(sizeof si)) continue;
        if (si.ssi_signo != SIGCHLD) return finish();
        int status = 0;
        if (supervisor_.reap(status)) {
          running_ = false;
          say(fmt::format("the program exited with status {}; waiting for a change", status));
        }
        continue;
      }
      if (!(fds[0].revents & POLLIN)) continue;
      Clock::time_point seen = Clock::now();
      std::vector<fs::path> changed = settle();
      if (changed.empty()) continue;
      say(changed.size() == 1 ? fs::relative(changed[0], root).string() + " changed"
                              : fmt::format("{} files changed", changed.size()));
      if (!rebuild(seen)) return finish();
    }
  }

 private:
  // Editors write a file in several steps and tools touch several files: changes are gathered
  // until 100 ms pass without another.
  std::vector<fs::path> settle() {
    std::vector<fs::path> all = watcher_.read_changes();
    for (;;) {
      pollfd fd{watcher_.fd(), POLLIN, 0};
      if (poll(&fd, 1, 100) <= 0) break;
      for (auto& p : watcher_.read_changes()) all.push_back(std::move(p));
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  }

  int finish() {
    supervisor_.stop_all(10'000);
    forget(previous_output_);
    if (fatal_) return kUsageError;
    return kOk;  // stopping is what Ctrl+C asks of `fitz dev`, not a failure
  }

  std::string host_for() const {
    if (!opt_.host.empty()) return opt_.host;
    if (const char* h = std::getenv("HOST"); h && *h) return h;
    return "127.0.0.1";
  }

  int port_for(const deploy::ServiceFacts& facts) const {
    if (opt_.port >= 0) return opt_.port;
    if (const char* p = std::getenv("PORT"); p && *p) return std::atoi(p);
    return int(facts.port);
  }

  static void forget(const fs::path& binary) {
    std::error_code ec;
    if (!binary.empty()) fs::remove(binary, ec);
  }

  void say(const std::string& what) {
    io_.err << "fitz dev: " << what << "\n";
    io_.err.flush();
  }

  DevOptions opt_;
  Io io_;
  int signal_fd_;
  FileWatcher watcher_;
  DevSupervisor supervisor_;
  int generation_ = 0;
  bool running_ = false;
  bool fatal_ = false;
  fs::path previous_output_;
};

}  // namespace

int cmd_dev(const std::vector<std::string>& args, Io io) {
  DevOptions opt;
  if (int rc = parse_dev_args(args, opt, io); rc != kOk) return rc < 0 ? kOk : rc;
  // Signals are read from a descriptor in the one poll loop: no handlers, no global state.
  sigset_t set, old;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&set, s);
  sigprocmask(SIG_BLOCK, &set, &old);
  int sfd = signalfd(-1, &set, SFD_CLOEXEC);
  int rc;
  {
    DevLoop loop(std::move(opt), io, sfd);
    rc = loop.run();
  }
  close(sfd);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return rc;
}

}  // namespace fitz::cli
