// A tiny blocking HTTP/1.1 client over raw loopback sockets for the end-to-end tests: it can
// send any bytes (malformed requests included) and reads responses with timeouts, so every
// test loop is bounded in time.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <map>
#include <string>

namespace fitz::http::test_support {

struct Reply {
  int status = 0;  // 0: no response (connection closed or timed out)
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
  bool closed = false;  // the server closed the connection after this reply
};

inline int connect_local(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

inline bool send_all(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += size_t(n);
  }
  return true;
}

// Reads into `buf` until `done(buf)` or the deadline; false on close/timeout.
template <class Done> bool read_until(int fd, std::string& buf, int timeout_ms, Done done, bool* eof = nullptr) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!done(buf)) {
    int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, left) <= 0) return false;
    char tmp[65536];
    ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) {
      if (eof) *eof = true;
      return false;
    }
    buf.append(tmp, size_t(n));
  }
  return true;
}

// Reads one response from `fd`; `pending` keeps bytes of later (pipelined) responses.
inline Reply read_reply(int fd, std::string& pending, int timeout_ms = 5000, bool head = false) {
  Reply r;
  bool eof = false;
  if (!read_until(fd, pending, timeout_ms, [](const std::string& b) { return b.find("\r\n\r\n") != std::string::npos; }, &eof)) {
    r.closed = eof;
    return r;
  }
  size_t end = pending.find("\r\n\r\n");
  std::string head_text = pending.substr(0, end);
  pending.erase(0, end + 4);
  size_t line_end = head_text.find("\r\n");
  std::string status_line = head_text.substr(0, line_end);
  if (status_line.size() >= 12) r.status = std::atoi(status_line.c_str() + 9);
  size_t pos = line_end == std::string::npos ? head_text.size() : line_end + 2;
  while (pos < head_text.size()) {
    size_t e = head_text.find("\r\n", pos);
    if (e == std::string::npos) e = head_text.size();
    std::string line = head_text.substr(pos, e - pos);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      for (auto& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
      std::string value = line.substr(colon + 1);
      while (!value.empty() && value[0] == ' ') value.erase(0, 1);
      r.headers[name] = value;
    }
    pos = e + 2;
  }
  size_t len = 0;
  if (!head && r.headers.count("content-length")) len = std::stoul(r.headers["content-length"]);
  if (!read_until(fd, pending, timeout_ms, [len](const std::string& b) { return b.size() >= len; })) {
    r.status = 0;
    return r;
  }
  r.body = pending.substr(0, len);
  pending.erase(0, len);
  r.closed = r.headers.count("connection") && r.headers["connection"] == "close";
  return r;
}

// One request on a fresh connection.
inline Reply roundtrip(int port, const std::string& raw, int timeout_ms = 5000) {
  int fd = connect_local(port);
  if (fd < 0) return Reply{};
  Reply r;
  if (send_all(fd, raw)) {
    std::string pending;
    r = read_reply(fd, pending, timeout_ms, raw.rfind("HEAD ", 0) == 0);
  }
  ::close(fd);
  return r;
}

inline std::string get(const std::string& target, const std::string& extra = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: t\r\n" + extra + "\r\n";
}

inline std::string post(const std::string& target, const std::string& body,
                        const std::string& type = "application/json") {
  return "POST " + target + " HTTP/1.1\r\nHost: t\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// True when the peer closed the connection (read returns 0) within the timeout.
inline bool closed_by_peer(int fd, int timeout_ms) {
  std::string buf;
  bool eof = false;
  read_until(fd, buf, timeout_ms, [](const std::string&) { return false; }, &eof);
  return eof;
}

}  // namespace fitz::http::test_support
