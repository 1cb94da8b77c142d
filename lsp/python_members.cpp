#include "lsp/python_members.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <nlohmann/json.hpp>

namespace fitz::lsp {

namespace {

// argv: module, then the project's folders. It prints one JSON array of
// [name, kind, signature, doc] and nothing else on stdout; the module's own prints go to stderr.
constexpr const char* kHelper = R"py(
import importlib, inspect, json, os, site, sys
name, paths = sys.argv[1], sys.argv[2:]
venv = os.environ.get("VIRTUAL_ENV")
if venv:
    site.addsitedir(os.path.join(venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages"))
sys.path[:0] = paths
out, sys.stdout = sys.stdout, sys.stderr
module = importlib.import_module(name)
rows = []
for attr in sorted(dir(module)):
    if attr.startswith("_"):
        continue
    try:
        value = getattr(module, attr)
    except Exception:
        continue
    if inspect.ismodule(value):
        kind = "module"
    elif inspect.isclass(value):
        kind = "class"
    elif callable(value):
        kind = "function"
    else:
        kind = "value"
    signature = ""
    if kind in ("function", "class"):
        try:
            signature = str(inspect.signature(value))
        except (TypeError, ValueError):
            pass
    if kind == "value":
        doc = type(value).__name__
    else:
        doc = (inspect.getdoc(value) or "").split("\n\n")[0][:400]
    rows.append([attr, kind, signature, doc])
out.write(json.dumps(rows))
out.flush()
)py";

}  // namespace

PythonMembers::PythonMembers(std::string python, std::chrono::milliseconds timeout)
    : python_(std::move(python)), timeout_(timeout) {}

const std::vector<PythonMember>& PythonMembers::members(const std::string& module,
                                                        const std::vector<std::string>& paths) {
  std::string key = module;
  for (const std::string& p : paths) key += '\n' + p;
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  std::vector<PythonMember> found;
  if (std::optional<std::string> out = run_helper(module, paths)) {
    nlohmann::json rows = nlohmann::json::parse(*out, nullptr, false);
    if (rows.is_array())
      for (const auto& r : rows)
        if (r.is_array() && r.size() == 4 && r[0].is_string())
          found.push_back({r[0].get<std::string>(), r[1].get<std::string>(), r[2].get<std::string>(),
                           r[3].get<std::string>()});
  }
  return cache_.emplace(key, std::move(found)).first->second;
}

std::optional<std::string> PythonMembers::run_helper(const std::string& module,
                                                     const std::vector<std::string>& paths) const {
  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return std::nullopt;
  std::vector<std::string> args = {python_, "-c", kHelper, module};
  args.insert(args.end(), paths.begin(), paths.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    // The child: stdout into the pipe; stdin and stderr away from the LSP's own streams, which
    // carry the protocol.
    int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, STDIN_FILENO);
    dup2(null_fd, STDERR_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    setpgid(0, 0);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{out_pipe[0], POLLIN, 0};
    int r = poll(&pfd, 1, int(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      timed_out = r == 0;
      break;
    }
    char buf[8192];
    ssize_t n = read(out_pipe[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, size_t(n));
  }
  close(out_pipe[0]);
  // Its process group: whatever the import started too (the child may not have made the group
  // yet, then the child alone).
  if (timed_out && kill(-pid, SIGKILL) != 0) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

}  // namespace fitz::lsp
