// The DAP relay behind `fitz debug --dap` (see dap_relay.h).
#include "cli/dap_relay.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/debug_names.h"

namespace fitz::cli {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Content-Length framed messages read from a file descriptor.
class FrameReader {
 public:
  // With `closed_fd`: once that descriptor reports end of file, reading gives up after
  // `grace_ms` without data.
  explicit FrameReader(int fd, int closed_fd = -1, int grace_ms = 0)
      : fd_(fd), closed_fd_(closed_fd), grace_ms_(grace_ms) {}

  // True when reading stopped because the grace period passed.
  bool timed_out() const { return timed_out_; }

  // The next message body; false at end of stream or on a malformed header.
  bool next(std::string& body) {
    size_t length = 0;
    bool have_length = false;
    while (true) {
      std::string line;
      if (!read_line(line)) return false;
      if (line.empty()) break;
      if (line.size() > 15 && strncasecmp(line.c_str(), "Content-Length:", 15) == 0) {
        char* end = nullptr;
        unsigned long long n = std::strtoull(line.c_str() + 15, &end, 10);
        if (end == line.c_str() + 15 || n > (uint64_t(256) << 20)) return false;
        length = size_t(n);
        have_length = true;
      }
    }
    if (!have_length) return false;
    while (buf_.size() < length)
      if (!fill()) return false;
    body = buf_.substr(0, length);
    buf_.erase(0, length);
    return true;
  }

 private:
  bool fill() {
    while (closed_fd_ >= 0 || closing_) {
      pollfd fds[2] = {{fd_, POLLIN, 0}, {closed_fd_, POLLIN, 0}};
      int n = poll(fds, closing_ ? 1 : 2, closing_ ? grace_ms_ : -1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        timed_out_ = n == 0;
        return false;
      }
      if (fds[0].revents) break;
      if (!closing_ && fds[1].revents) {
        closing_ = true;
        closed_fd_ = -1;
      }
    }
    char chunk[65536];
    ssize_t n;
    do n = read(fd_, chunk, sizeof chunk);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return false;
    buf_.append(chunk, size_t(n));
    return true;
  }
  bool read_line(std::string& line) {
    size_t nl;
    while ((nl = buf_.find('\n')) == std::string::npos)
      if (!fill()) return false;
    line = buf_.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    buf_.erase(0, nl + 1);
    return true;
  }

  int fd_;
  int closed_fd_;
  int grace_ms_;
  bool closing_ = false;
  bool timed_out_ = false;
  std::string buf_;
};

constexpr int kGraceMs = 2000;

// The processes of one debugging session, for stopping them from any thread.
struct Session {
  std::atomic<pid_t> adapter{0};
  std::atomic<pid_t> debuggee{0};  // from the adapter's `process` event
  void stop() {
    if (pid_t d = debuggee.load(); d > 0) kill(d, SIGKILL);
    if (pid_t a = adapter.load(); a > 0) kill(a, SIGKILL);
  }
};

// The debuggee's process id a `process` event announces, or 0.
pid_t debuggee_of(const json& msg) {
  if (!msg.is_object() || msg.value("type", "") != "event" || msg.value("event", "") != "process") return 0;
  auto body = msg.find("body");
  if (body == msg.end() || !body->is_object()) return 0;
  auto id = body->find("systemProcessId");
  return id != body->end() && id->is_number_integer() ? pid_t(id->get<int64_t>()) : 0;
}

bool write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

// One writer per destination: messages are written whole, never interleaved.
class FrameWriter {
 public:
  explicit FrameWriter(int fd) : fd_(fd) {}
  bool send(const std::string& body) {
    std::lock_guard<std::mutex> lock(mutex_);
    return write_all(fd_, "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  }

 private:
  int fd_;
  std::mutex mutex_;
};

// Bytes that are not UTF-8 (a string read from the debuggee) are replaced, not fatal.
std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

bool needs_build(const std::string& program) {
  std::error_code ec;
  return program.ends_with(".fitz") || fs::is_directory(program, ec);
}

std::string quote_for_lldb(const std::string& path) {
  std::string q = "\"";
  for (char c : path) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return q + "\"";
}

// lldb-vscode writes a summary without a value as " summary"; the editor shows it as it is.
std::string trimmed(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

void rewrite_variable(json& v) {
  if (auto n = v.find("name"); n != v.end() && n->is_string()) *n = fitz_local_name(n->get<std::string>());
  if (auto val = v.find("value"); val != v.end() && val->is_string()) *val = trimmed(val->get<std::string>());
  if (auto t = v.find("type"); t != v.end() && t->is_string()) *t = fitz_type_name(t->get<std::string>());
}

}  // namespace

bool prepare_launch(json& request, const std::string& formatters, const DebugBuild& build, std::string& error) {
  if (!request.contains("arguments") || !request["arguments"].is_object()) request["arguments"] = json::object();
  json& args = request["arguments"];
  if (auto p = args.find("program"); p != args.end() && p->is_string() && needs_build(p->get<std::string>())) {
    std::string binary = build(p->get<std::string>(), error);
    if (binary.empty()) return false;
    *p = binary;
  } else if (p == args.end() || !p->is_string()) {
    error = "the launch configuration needs a \"program\": a .fitz file, a project directory or a binary";
    return false;
  }
  // Editors write the environment as an object; lldb-vscode takes "NAME=value" strings.
  if (auto env = args.find("env"); env != args.end() && env->is_object()) {
    json list = json::array();
    for (auto& [name, value] : env->items())
      list.push_back(name + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    *env = list;
  }
  json commands = json::array({"command script import " + quote_for_lldb(formatters)});
  if (auto init = args.find("initCommands"); init != args.end() && init->is_array())
    for (const json& c : *init) commands.push_back(c);
  args["initCommands"] = commands;
  return true;
}

void rewrite_adapter_message(json& message) {
  if (!message.is_object() || message.value("type", "") != "response" || !message.contains("body")) return;
  std::string command = message.value("command", "");
  json& body = message["body"];
  if (!body.is_object()) return;
  if (command == "stackTrace" && body.contains("stackFrames") && body["stackFrames"].is_array()) {
    for (json& f : body["stackFrames"])
      if (f.is_object() && f.contains("name") && f["name"].is_string())
        f["name"] = fitz_function_name(f["name"].get<std::string>());
  } else if (command == "variables" && body.contains("variables") && body["variables"].is_array()) {
    for (json& v : body["variables"])
      if (v.is_object()) rewrite_variable(v);
  } else if (command == "evaluate" && body.contains("result") && body["result"].is_string()) {
    body["result"] = trimmed(body["result"].get<std::string>());
    if (body.contains("type") && body["type"].is_string()) body["type"] = fitz_type_name(body["type"].get<std::string>());
  }
}

int relay_dap(const std::vector<std::string>& adapter, const std::vector<std::string>& env,
              const std::string& formatters, const DebugBuild& build) {
  // A closed editor or adapter shows up as a failed write, not as a fatal SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2], editor_gone[2];
  if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0 || pipe2(editor_gone, O_CLOEXEC) != 0)
    return -1;
  std::vector<char*> argv, envp;
  for (const auto& a : adapter) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  // SIGTERM, SIGINT and SIGHUP (an editor ending the session its way) are taken by a thread
  // that stops the debuggee and the adapter: killed, the adapter would leave the debuggee
  // running, detached.
  sigset_t stops;
  sigemptyset(&stops);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&stops, sig);
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &stops, &previous);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    // The adapter (and with it the debuggee) goes when this relay goes, even when killed.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  auto session = std::make_shared<Session>();
  session->adapter = pid;
  std::thread([session, stops] {
    int sig = 0;
    if (sigwait(&stops, &sig) != 0) return;
    session->stop();
    _exit(128 + sig);
  }).detach();
  // Shared with the reader thread, which may outlive this function.
  auto to_editor = std::make_shared<FrameWriter>(STDOUT_FILENO);
  auto to_adapter = std::make_shared<FrameWriter>(to_child[1]);

  // Editor -> adapter. Detached: it may stay blocked reading stdin after the adapter is gone.
  std::thread([to_editor, to_adapter, child_in = to_child[1], gone = editor_gone[1], formatters, build] {
    FrameReader in(STDIN_FILENO);
    std::string body;
    while (in.next(body)) {
      json msg = json::parse(body, nullptr, false);
      if (msg.is_object() && msg.value("type", "") == "request" && msg.value("command", "") == "launch") {
        std::string error;
        if (!prepare_launch(msg, formatters, build, error)) {
          json out = {{"seq", 0}, {"type", "event"}, {"event", "output"},
                      {"body", {{"category", "stderr"}, {"output", error}}}};
          to_editor->send(dumped(out));
          json reply = {{"seq", 0}, {"type", "response"}, {"request_seq", msg.value("seq", 0)},
                        {"command", "launch"}, {"success", false}, {"message", error}};
          to_editor->send(dumped(reply));
          continue;
        }
        body = dumped(msg);
      }
      if (!to_adapter->send(body)) break;
    }
    close(child_in);
    close(gone);
  }).detach();

  // Adapter -> editor, until the adapter closes its output. Once the editor has closed its
  // side, the adapter gets a grace period to finish: lldb-vscode 14 never exits when no
  // program was launched.
  FrameReader from_adapter(from_child[0], editor_gone[0], kGraceMs);
  std::string body;
  while (from_adapter.next(body)) {
    json msg = json::parse(body, nullptr, false);
    if (!msg.is_discarded()) {
      if (pid_t debuggee = debuggee_of(msg); debuggee > 0) session->debuggee = debuggee;
      if (msg.is_object() && msg.value("type", "") == "event" && msg.value("event", "") == "exited") session->debuggee = 0;
      rewrite_adapter_message(msg);
      body = dumped(msg);
    }
    if (!to_editor->send(body)) break;
  }
  close(from_child[0]);
  // The editor is gone or the adapter closed its output: a debuggee still running would be
  // left behind, detached, so it goes too.
  if (pid_t d = session->debuggee.exchange(0); d > 0) kill(d, SIGKILL);
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) == 0) {
    for (int waited = 0; !from_adapter.timed_out() && waited < kGraceMs && waitpid(pid, &status, WNOHANG) == 0;
         waited += 50)
      usleep(50 * 1000);
    if (waitpid(pid, &status, WNOHANG) == 0) {
      session->stop();
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      session->adapter = 0;
      return 0;  // the session was over; only the adapter lingered
    }
  }
  session->adapter = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace fitz::cli
