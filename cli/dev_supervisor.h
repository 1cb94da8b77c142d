// The processes behind `fitz dev`: one listening socket that outlives them, and a generation
// of the program at a time. A new generation starts on the same socket (systemd's LISTEN_FDS);
// the previous one is told to stop only once the new one says it is ready (NOTIFY_SOCKET), so
// connections queue in the socket's backlog during a swap instead of being refused.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace fitz::cli {

class DevSupervisor {
 public:
  DevSupervisor() = default;
  DevSupervisor(const DevSupervisor&) = delete;
  DevSupervisor& operator=(const DevSupervisor&) = delete;
  ~DevSupervisor();

  // Binds host:port for every generation to share. False with `error` set on failure.
  bool listen(const std::string& host, int port, std::string& error);
  bool listening() const { return listen_fd_ >= 0; }
  int port() const { return port_; }

  struct Outcome {
    enum Kind { Ready, Started, Exited, Interrupted } kind = Exited;
    int status = 0;  // Exited: the exit status (128+N for signal N); Interrupted: the signal
  };
  // Starts `argv` as the next generation. A service (listening() is true) gets the socket and
  // is awaited until it is ready, then the previous generation is stopped; if it exits or a
  // signal other than SIGCHLD arrives on `signal_fd` first, the previous one keeps serving. Anything else
  // replaces the previous generation at once (Started).
  Outcome start(const std::vector<std::string>& argv, int signal_fd);

  // Collects ended children. Returns true and sets `status` when the current generation ended.
  bool reap(int& status);
  // Stops every generation: SIGTERM, then SIGKILL after `grace_ms`.
  void stop_all(int grace_ms);

 private:
  pid_t spawn(const std::vector<std::string>& argv, bool with_socket);
  bool wait_ready(pid_t pid, int signal_fd, Outcome& out);
  void retire(pid_t pid);

  int listen_fd_ = -1;
  int notify_fd_ = -1;
  std::string notify_name_;
  int port_ = 0;
  pid_t current_ = -1;
  std::vector<pid_t> retiring_;
};

}  // namespace fitz::cli
