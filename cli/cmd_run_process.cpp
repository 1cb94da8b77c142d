// `fitz run`'s child process: its own process group (the terminal's foreground while it runs,
// so Ctrl+C and reads from the terminal reach it), signals to `fitz run` forwarded to the group.
// Signals are taken synchronously with sigwaitinfo, so there is no handler and no global state.
#include "cli/cmd_run_process.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace fitz::cli {

namespace {

// The signals `fitz run` passes on; SIGCHLD tells it the program ended.
sigset_t forwarded_and_child() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&set, s);
  return set;
}

// Whether `fitz run` owns the terminal: then the program gets it for as long as it runs.
bool owns_terminal() { return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp(); }

// Gives the terminal to `pgid`. A process outside the foreground group gets SIGTTOU for this
// unless it blocks it, hence the block around the call.
void give_terminal(pid_t pgid) {
  sigset_t ttou, old;
  sigemptyset(&ttou);
  sigaddset(&ttou, SIGTTOU);
  sigprocmask(SIG_BLOCK, &ttou, &old);
  tcsetpgrp(STDIN_FILENO, pgid);
  sigprocmask(SIG_SETMASK, &old, nullptr);
}

// Ctrl+Z stopped the program (the terminal's foreground): stop `fitz run` too, so the shell
// sees its job stopped, and on `fg` hand the terminal back and continue the program.
void follow_stop(pid_t pid) {
  give_terminal(getpgrp());
  raise(SIGTSTP);
  give_terminal(pid);
  kill(-pid, SIGCONT);
}

[[noreturn]] void exec_child(char* const* argv, pid_t parent, bool terminal, const sigset_t& old_mask) {
  setpgid(0, 0);
  if (terminal) give_terminal(getpid());
  // `fitz run` killed outright (SIGKILL, a crash) cannot forward anything: the kernel stops
  // the program instead. The check after it covers a parent that died before the call.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(128 + SIGTERM);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  execv(argv[0], argv);
  _exit(127);
}

}  // namespace

int run_forwarding_signals(const std::vector<std::string>& argv) {
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  // Blocked before the fork so that a signal arriving while the child starts stays pending
  // until the loop below forwards it.
  sigset_t waited = forwarded_and_child(), old_mask;
  sigprocmask(SIG_BLOCK, &waited, &old_mask);
  bool terminal = owns_terminal();
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    return 127;
  }
  if (pid == 0) exec_child(cargv.data(), parent, terminal, old_mask);
  // Both sides set the group, whichever runs first (as shells do), so the forwarding below
  // never targets a group that does not exist yet.
  setpgid(pid, pid);
  if (terminal) give_terminal(pid);

  siginfo_t info{};
  for (;;) {
    // WNOWAIT: the program stays a zombie, so its pid (the group id) cannot be reused before
    // the rest of its group is killed below.
    siginfo_t ended{};
    if (waitid(P_PID, id_t(pid), &ended, WEXITED | WNOHANG | WNOWAIT) == 0 && ended.si_pid == pid) break;
    siginfo_t stopped{};
    if (terminal && waitid(P_PID, id_t(pid), &stopped, WSTOPPED | WNOHANG) == 0 && stopped.si_pid == pid) {
      follow_stop(pid);
      continue;
    }
    int sig = sigwaitinfo(&waited, &info);
    if (sig < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (sig != SIGCHLD) kill(-pid, sig);
  }
  // Helpers the program started in its group must not outlive it and keep its port.
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (terminal) give_terminal(getpgrp());
  // A SIGCHLD from the program is still pending; drop it before restoring the mask.
  timespec zero{};
  while (sigtimedwait(&waited, &info, &zero) > 0) {
  }
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace fitz::cli
