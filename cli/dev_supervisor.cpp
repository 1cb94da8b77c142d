#include "cli/dev_supervisor.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace fitz::cli {

namespace {

constexpr int kListenFd = 3;  // where LISTEN_FDS puts the first socket
// A generation that takes longer than this to start listening is treated as broken.
constexpr int kReadyTimeoutMs = 60'000;

int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

DevSupervisor::~DevSupervisor() {
  stop_all(5000);
  if (listen_fd_ >= 0) close(listen_fd_);
  if (notify_fd_ >= 0) close(notify_fd_);
}

bool DevSupervisor::listen(const std::string& host, int port, std::string& error) {
  std::string h = host == "localhost" ? "127.0.0.1" : host;
  sockaddr_storage ss{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (inet_pton(AF_INET, h.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(uint16_t(port));
    len = sizeof *v4;
  } else if (inet_pton(AF_INET6, h.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(uint16_t(port));
    len = sizeof *v6;
  } else {
    error = "invalid host '" + host + "': expected an IP address";
    return false;
  }
  int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
      bind(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0 || ::listen(fd, SOMAXCONN) != 0) {
    error = "cannot listen on " + h + ":" + std::to_string(port) + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    return false;
  }
  len = sizeof ss;
  getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  port_ = ntohs(ss.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
  listen_fd_ = fd;

  // An abstract socket: nothing to clean up, and the name is unique to this process.
  notify_fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  notify_name_ = "@fitz-dev-" + std::to_string(getpid());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path + 1, notify_name_.data() + 1, notify_name_.size() - 1);
  socklen_t addr_len = socklen_t(offsetof(sockaddr_un, sun_path) + notify_name_.size());
  // SO_PASSCRED: each datagram carries its sender's pid, so a late message from an older
  // generation is never taken for the new one's.
  if (notify_fd_ < 0 || setsockopt(notify_fd_, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) != 0 ||
      bind(notify_fd_, reinterpret_cast<sockaddr*>(&addr), addr_len) != 0) {
    error = std::string("cannot create the readiness socket: ") + std::strerror(errno);
    return false;
  }
  return true;
}

pid_t DevSupervisor::spawn(const std::vector<std::string>& argv, bool with_socket) {
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0) setpgid(pid, pid);  // both sides, whichever runs first
    return pid;
  }
  // The child: its own process group, so stopping a generation stops what it started.
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(128 + SIGTERM);
  if (with_socket) {
    if (listen_fd_ == kListenFd) {
      fcntl(kListenFd, F_SETFD, 0);
    } else {
      dup2(listen_fd_, kListenFd);  // dup2 clears close-on-exec on the copy
    }
    setenv("LISTEN_FDS", "1", 1);
    setenv("LISTEN_PID", std::to_string(getpid()).c_str(), 1);
    setenv("NOTIFY_SOCKET", notify_name_.c_str(), 1);
    // The previous generation stops accepting as soon as it is told to stop: the new one
    // already accepts on the same socket, so no drain delay is needed.
    setenv("FITZ_DRAIN_DELAY_MS", "0", 0);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execv(cargv[0], cargv.data());
  _exit(127);
}

bool DevSupervisor::wait_ready(pid_t pid, int signal_fd, Outcome& out) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReadyTimeoutMs);
  for (;;) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      out = {Outcome::Exited, exit_status_of(status)};
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      out = {Outcome::Exited, 128 + SIGKILL};
      return false;
    }
    pollfd fds[2] = {{notify_fd_, POLLIN, 0}, {signal_fd, POLLIN, 0}};
    int n = poll(fds, signal_fd >= 0 ? 2 : 1, 50);  // child exits are noticed within 50 ms
    if (n <= 0) continue;
    if (fds[1].revents & POLLIN) {
      signalfd_siginfo si{};
      if (read(signal_fd, &si, sizeof si) == ssize_t(sizeof si) && si.ssi_signo != SIGCHLD) {
        out = {Outcome::Interrupted, int(si.ssi_signo)};
        return false;
      }
      // SIGCHLD: the new generation's exit is seen by waitpid above, an older one's by reap().
    }
    if (!(fds[0].revents & POLLIN)) continue;
    char data[256];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(ucred))];
    iovec iov{data, sizeof data - 1};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t got = recvmsg(notify_fd_, &msg, 0);
    if (got <= 0) continue;
    pid_t sender = -1;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
        ucred cred;
        std::memcpy(&cred, CMSG_DATA(c), sizeof cred);
        sender = cred.pid;
      }
    std::string_view text(data, size_t(got));
    if (sender == pid && text.find("READY=1") != std::string_view::npos) {
      out = {Outcome::Ready, 0};
      return true;
    }
  }
}

void DevSupervisor::retire(pid_t pid) {
  if (pid <= 0) return;
  kill(-pid, SIGTERM);
  retiring_.push_back(pid);
}

DevSupervisor::Outcome DevSupervisor::start(const std::vector<std::string>& argv, int signal_fd) {
  Outcome out;
  if (!listening()) {
    // Nothing to hand over: the previous generation goes first (it may hold files or ports).
    if (current_ > 0) stop_all(5000);
    current_ = spawn(argv, false);
    out.kind = current_ > 0 ? Outcome::Started : Outcome::Exited;
    out.status = current_ > 0 ? 0 : 127;
    return out;
  }
  pid_t next = spawn(argv, true);
  if (next <= 0) return {Outcome::Exited, 127};
  if (!wait_ready(next, signal_fd, out)) {
    if (out.kind == Outcome::Interrupted) retire(next);
    return out;
  }
  retire(current_);
  current_ = next;
  return out;
}

bool DevSupervisor::reap(int& status) {
  bool current_ended = false;
  int st = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
    std::erase(retiring_, pid);
    if (pid == current_) {
      current_ = -1;
      status = exit_status_of(st);
      current_ended = true;
    }
  }
  return current_ended;
}

void DevSupervisor::stop_all(int grace_ms) {
  retire(current_);
  current_ = -1;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  while (!retiring_.empty() && std::chrono::steady_clock::now() < deadline) {
    int st = 0;
    pid_t pid = waitpid(-1, &st, WNOHANG);
    if (pid > 0) {
      std::erase(retiring_, pid);
    } else if (pid < 0) {
      retiring_.clear();  // no children left
    } else {
      usleep(20'000);
    }
  }
  for (pid_t pid : retiring_) {
    kill(-pid, SIGKILL);
    int st = 0;
    waitpid(pid, &st, 0);
  }
  retiring_.clear();
}

}  // namespace fitz::cli
