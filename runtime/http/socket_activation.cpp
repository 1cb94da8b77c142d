#include "http/socket_activation.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace fitz::http {

namespace {

constexpr int kFirstListenFd = 3;  // SD_LISTEN_FDS_START

bool parse_long(const char* s, long& out) {
  if (!s || !*s) return false;
  char* end = nullptr;
  out = std::strtol(s, &end, 10);
  return end && !*end;
}

}  // namespace

int take_inherited_listener() {
  long pid = 0, count = 0;
  bool ours = parse_long(std::getenv("LISTEN_PID"), pid) && pid == long(getpid()) &&
              parse_long(std::getenv("LISTEN_FDS"), count) && count >= 1;
  unsetenv("LISTEN_PID");
  unsetenv("LISTEN_FDS");
  unsetenv("LISTEN_FDNAMES");
  if (!ours) return -1;
  int listening = 0, type = 0;
  socklen_t len = sizeof listening;
  if (getsockopt(kFirstListenFd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening) return -1;
  len = sizeof type;
  if (getsockopt(kFirstListenFd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) return -1;
  fcntl(kFirstListenFd, F_SETFD, FD_CLOEXEC);
  return kFirstListenFd;
}

void notify_ready() {
  const char* path = std::getenv("NOTIFY_SOCKET");
  if (!path || !*path) return;
  std::string_view p(path);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (p.size() >= sizeof addr.sun_path) return;
  std::memcpy(addr.sun_path, p.data(), p.size());
  if (p[0] == '@') addr.sun_path[0] = '\0';  // an abstract socket
  socklen_t addr_len = socklen_t(offsetof(sockaddr_un, sun_path) + p.size());
  unsetenv("NOTIFY_SOCKET");
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  static constexpr std::string_view kReady = "READY=1";
  sendto(fd, kReady.data(), kReady.size(), MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&addr), addr_len);
  close(fd);
}

}  // namespace fitz::http
