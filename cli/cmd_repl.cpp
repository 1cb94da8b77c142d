// `fitz repl`: reads inputs at a `fitz> ` prompt and checks, compiles and runs each one
// (cli/repl_session.h). Lines continue while brackets are open; `:` starts a command.
#include <poll.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>

#include "cli/driver.h"
#include "cli/repl_input.h"
#include "cli/repl_session.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kReplUsage = R"(usage: fitz repl

Reads Fitz at a `fitz> ` prompt and runs each input when it is complete (brackets closed); an
expression prints its value as `= value`. Every input is checked by the type checker together
with what earlier inputs declared, then compiled and run once: earlier inputs never run again.
Their variables are carried forward by value, their functions, types and imports by text.
Inputs are appended to ~/.fitz/history.

commands at the prompt:
  :type EXPR   the type of an expression (nothing runs)
  :env         the variables and declarations so far
  :load FILE   run a file as one input
  :reset       forget everything
  :help        this text
  :quit        leave (also Ctrl+D)
)";

constexpr const char* kPrompt = "fitz> ";
constexpr const char* kContinue = "  ... ";

// Reads lines from standard input, taking Ctrl+C from a signal descriptor: at the prompt it
// drops what was typed instead of ending the session.
class LineReader {
 public:
  explicit LineReader(int signal_fd) : signal_fd_(signal_fd) {}
  enum Result { Line, Interrupted, End };
  Result read(std::string& line) {
    for (;;) {
      if (size_t nl = buf_.find('\n'); nl != std::string::npos) {
        line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return Line;
      }
      if (eof_) {
        if (buf_.empty()) return End;
        line = std::move(buf_);
        buf_.clear();
        return Line;
      }
      pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {signal_fd_, POLLIN, 0}};
      if (poll(fds, 2, -1) < 0) continue;
      if (fds[1].revents & POLLIN) {
        signalfd_siginfo si;
        if (::read(signal_fd_, &si, sizeof si) > 0) {
          buf_.clear();
          if (isatty(STDIN_FILENO)) tcflush(STDIN_FILENO, TCIFLUSH);
          return Interrupted;
        }
      }
      if (fds[0].revents & (POLLIN | POLLHUP)) {
        char chunk[4096];
        ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (n <= 0) eof_ = true;
        else buf_.append(chunk, size_t(n));
      }
    }
  }
  // Ctrl+C pressed while an input ran reached the program; it must not also clear the prompt.
  void drop_signals() {
    pollfd fd{signal_fd_, POLLIN, 0};
    signalfd_siginfo si;
    while (poll(&fd, 1, 0) > 0 && ::read(signal_fd_, &si, sizeof si) > 0) {
    }
  }

 private:
  int signal_fd_;
  std::string buf_;
  bool eof_ = false;
};

std::ofstream open_history() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  fs::path dir = fs::path(home) / ".fitz";
  std::error_code ec;
  fs::create_directories(dir, ec);
  return std::ofstream(dir / "history", std::ios::app);
}

std::string trimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// Runs a `:command`; false when it asks to leave.
bool command(repl::Session& session, const std::string& input, Io io) {
  std::string cmd = input.substr(0, input.find_first_of(" \t"));
  std::string arg = trimmed(input.substr(cmd.size()));
  if (cmd == ":quit" || cmd == ":q" || cmd == ":exit") return false;
  if (cmd == ":help" || cmd == ":h") {
    io.out << kReplUsage;
  } else if (cmd == ":type" || cmd == ":t") {
    if (arg.empty()) io.err << "error: `:type` needs an expression\n";
    else session.show_type(arg);
  } else if (cmd == ":env") {
    session.show_env();
  } else if (cmd == ":reset") {
    session.reset();
    io.out << "(forgotten)\n";
  } else if (cmd == ":load") {
    std::ifstream f(arg, std::ios::binary);
    if (arg.empty() || !f) {
      io.err << "error: cannot read `" << arg << "`\n";
    } else {
      std::stringstream text;
      text << f.rdbuf();
      session.eval(text.str());
    }
  } else {
    io.err << "error: unknown command `" << cmd << "` (:help lists them)\n";
  }
  return true;
}

}  // namespace

int cmd_repl(const std::vector<std::string>& args, Io io) {
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      io.out << kReplUsage;
      return kOk;
    }
    io.err << "error: `fitz repl` takes no arguments (`:load FILE` at the prompt runs a file)\n";
    return kUsageError;
  }
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigprocmask(SIG_BLOCK, &set, &old);
  int sfd = signalfd(-1, &set, SFD_CLOEXEC);
  bool interactive = isatty(STDIN_FILENO);
  std::ofstream history = open_history();
  {
    repl::Session session(io);
    LineReader reader(sfd);
    if (interactive) io.out << "fitz " << FITZ_VERSION << " — :help for commands, Ctrl+D to leave\n";
    std::string input, line;
    for (;;) {
      if (interactive) {
        io.out << (input.empty() ? kPrompt : kContinue);
        io.out.flush();
      }
      LineReader::Result r = reader.read(line);
      if (r == LineReader::End) {
        if (interactive) io.out << "\n";
        if (!trimmed(input).empty()) session.eval(input);
        break;
      }
      if (r == LineReader::Interrupted) {
        input.clear();
        io.out << "\n";
        continue;
      }
      if (input.empty() && trimmed(line).empty()) continue;
      if (input.empty() && trimmed(line).starts_with(":")) {
        if (history) history << trimmed(line) << "\n";
        if (!command(session, trimmed(line), io)) break;
        reader.drop_signals();
        continue;
      }
      input += line + "\n";
      if (!repl::input_complete(input)) continue;
      if (history) history << input << std::flush;
      session.eval(input);
      io.out.flush();
      io.err.flush();
      reader.drop_signals();
      input.clear();
    }
  }
  close(sfd);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return kOk;
}

}  // namespace fitz::cli
