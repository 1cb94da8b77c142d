// The blocking runner: sockets in, decoded messages to the state machines, their output back to
// the socket. All protocol decisions are in startup.cpp and query.cpp; this file only moves bytes.
#include "pg/blocking_conn.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pg/host_failures.h"
#include "pg/session_attrs.h"

namespace fitz::pg {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

void set_timeouts(int fd, std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return;
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// connect() with a deadline: non-blocking connect, poll for writability, then back to blocking.
Result<int> connect_with_timeout(int family, const sockaddr* addr, socklen_t len, std::chrono::milliseconds timeout) {
  int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Error::connect("socket: " + errno_text(errno));
  int flags = fcntl(fd, F_GETFL, 0);
  fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  if (::connect(fd, addr, len) != 0) {
    if (errno != EINPROGRESS) {
      int err = errno;
      ::close(fd);
      return Error::connect(errno_text(err));
    }
    pollfd p{fd, POLLOUT, 0};
    int ready;
    do {
      ready = ::poll(&p, 1, timeout.count() > 0 ? static_cast<int>(timeout.count()) : -1);
    } while (ready < 0 && errno == EINTR);
    if (ready == 0) {
      ::close(fd);
      return Error::connect("timed out after " + std::to_string(timeout.count()) + " ms");
    }
    int err = 0;
    socklen_t err_len = sizeof err;
    if (ready < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_len) != 0 || err != 0) {
      if (ready < 0) err = errno;
      ::close(fd);
      return Error::connect(errno_text(err));
    }
  }
  fcntl(fd, F_SETFL, flags);
  return fd;
}

Result<int> open_socket(const ConnInfo& info, std::chrono::milliseconds timeout) {
  if (info.is_unix_socket()) {
    std::string path = info.unix_socket_path();
    sockaddr_un addr{};
    if (path.size() >= sizeof addr.sun_path) return Error::connect("Unix socket path too long: " + path);
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    auto fd = connect_with_timeout(AF_UNIX, reinterpret_cast<sockaddr*>(&addr), sizeof addr, timeout);
    if (!fd) {
      Error e = std::move(fd).error();
      e.message = "could not connect to " + path + ": " + e.message;
      return e;
    }
    return fd;
  }

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  std::string port = std::to_string(info.port);
  if (int rc = getaddrinfo(info.host.c_str(), port.c_str(), &hints, &list); rc != 0)
    return Error::connect("could not resolve \"" + info.host + "\": " + gai_strerror(rc));
  std::string last = "no addresses";
  for (addrinfo* ai = list; ai; ai = ai->ai_next) {
    auto fd = connect_with_timeout(ai->ai_family, ai->ai_addr, ai->ai_addrlen, timeout);
    if (!fd) {
      last = fd.error().message;
      continue;
    }
    freeaddrinfo(list);
    int one = 1;
    setsockopt(*fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
  }
  freeaddrinfo(list);
  return Error::connect("could not connect to " + info.where() + ": " + last);
}

}  // namespace

BlockingConnection::BlockingConnection(int fd, ConnInfo info, BlockingOptions options)
    : fd_(fd), info_(std::move(info)), options_(std::move(options)), cache_(options_.statement_cache_capacity) {}

BlockingConnection::BlockingConnection(BlockingConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      info_(std::move(other.info_)),
      options_(std::move(other.options_)),
      reader_(std::move(other.reader_)),
      session_(std::move(other.session_)),
      cache_(std::move(other.cache_)),
      last_request_(std::move(other.last_request_)),
      notices_(std::move(other.notices_)),
      notifications_(std::move(other.notifications_)) {}

BlockingConnection& BlockingConnection::operator=(BlockingConnection&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    info_ = std::move(other.info_);
    options_ = std::move(other.options_);
    reader_ = std::move(other.reader_);
    session_ = std::move(other.session_);
    cache_ = std::move(other.cache_);
    last_request_ = std::move(other.last_request_);
    notices_ = std::move(other.notices_);
    notifications_ = std::move(other.notifications_);
  }
  return *this;
}

BlockingConnection::~BlockingConnection() { close(); }

void BlockingConnection::close() {
  if (fd_ < 0) return;
  std::string bye;
  encode_terminate(bye);
  (void)::send(fd_, bye.data(), bye.size(), MSG_NOSIGNAL);
  ::close(fd_);
  fd_ = -1;
}

Error BlockingConnection::broken(Error error) {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  return error;
}

Result<BlockingConnection> BlockingConnection::connect(std::string_view url, BlockingOptions options) {
  auto info = parse_conninfo(url);
  if (!info) return std::move(info).error();
  return connect(*info, std::move(options));
}

Result<BlockingConnection> BlockingConnection::connect(const ConnInfo& info, BlockingOptions options) {
  if (info.sslmode == SslMode::Require || info.sslmode == SslMode::VerifyCa || info.sslmode == SslMode::VerifyFull)
    return Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                       "sslmode=" + std::string(ssl_mode_name(info.sslmode)) +
                           " needs TLS, which the blocking connection does not implement");
  std::vector<HostPort> servers = info.hosts();
  HostFailures failures;
  for (TargetSessionAttrs want : connect_passes(info.target_session_attrs)) {
    failures.clear();  // the last pass's reasons are the ones that matter
    for (const HostPort& server : servers) {
      auto conn = connect_one(info.with_host(server), options, want);
      if (conn) return conn;
      failures.add(server, std::move(conn).error());
    }
  }
  return failures.error(info);
}

Result<BlockingConnection> BlockingConnection::connect_one(const ConnInfo& info, const BlockingOptions& options,
                                                           TargetSessionAttrs want) {
  auto timeout = info.connect_timeout ? std::chrono::duration_cast<std::chrono::milliseconds>(*info.connect_timeout)
                                      : options.connect_timeout;
  auto fd = open_socket(info, timeout);
  if (!fd) return std::move(fd).error();
  set_timeouts(*fd, options.io_timeout);

  StartupConfig config = StartupConfig::from(info);
  config.scram_nonce = options.scram_nonce;
  BlockingConnection conn(*fd, info, options);
  StartupFlow flow(std::move(config));
  std::string out;
  if (auto s = flow.start(out); !s) return conn.broken(s.error());
  if (auto s = conn.drive(flow, out); !s) return conn.broken(s.error());
  conn.session_ = flow.take_session();
  conn.notices_.clear();  // startup notices are in session().notices

  // target_session_attrs: from the parameters the server reported, or by asking it.
  SessionCheck check = check_session(want, conn.session_);
  if (check.verdict == SessionCheck::Verdict::NeedsQuery) {
    auto results = conn.simple_query(check.query);
    if (!results) return std::move(results).error();
    std::optional<std::string_view> value;
    if (!results->empty() && results->front().rows.size() == 1 && results->front().columns.size() == 1)
      value = results->front().rows.value(0, 0);
    if (!value) return conn.broken(Error::protocol("unexpected answer to \"" + std::string(check.query) + "\""));
    check = check_session_answer(want, *value);
  }
  if (check.rejected()) return Error::make(ErrorKind::Io, sqlstate::kUnableToConnect, check.reason);
  return conn;
}

Status BlockingConnection::write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return broken(Error::io("write timed out"));
      return broken(Error::io("write failed: " + errno_text(errno)));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

Status BlockingConnection::read_some() {
  auto space = reader_.prepare(16384);
  for (;;) {
    ssize_t n = ::recv(fd_, space.data(), space.size(), 0);
    if (n > 0) {
      reader_.commit(static_cast<std::size_t>(n));
      return {};
    }
    if (n == 0) return broken(Error::io("the server closed the connection"));
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return broken(Error::io("read timed out"));
    return broken(Error::io("read failed: " + errno_text(errno)));
  }
}

template <class Flow>
Status BlockingConnection::drive(Flow& flow, std::string& out) {
  if (fd_ < 0) return Error::io("the connection is closed");
  if (!out.empty()) {
    last_request_ = out;
    if (auto s = write_all(out); !s) return s;
    out.clear();
  }
  while (!flow.done()) {
    auto message = reader_.next();
    if (!message) return broken(std::move(message).error());
    if (!*message) {
      if (auto s = read_some(); !s) return s;
      continue;
    }
    const BackendMessage& m = **message;
    if (const auto* notice = std::get_if<NoticeResponse>(&m)) {
      notices_.push_back(notice->fields);
    } else if (const auto* note = std::get_if<NotificationResponse>(&m)) {
      notifications_.push_back({note->process_id, std::string(note->channel), std::string(note->payload)});
    } else if (const auto* param = std::get_if<ParameterStatus>(&m)) {
      session_.parameters[std::string(param->name)] = std::string(param->value);
    }
    Status status = flow.on_message(m, out);
    if (const auto* err = std::get_if<ErrorResponse>(&m)) {
      // FATAL/PANIC: the server closes the session right after this message.
      Error e = Error::from_server(err->fields);
      if (e.is_fatal()) return broken(std::move(e));
    }
    if (!status) {
      if (status.error().is_fatal()) return broken(status.error());
      return status;
    }
    if (!out.empty()) {
      if (auto s = write_all(out); !s) return s;
      out.clear();
    }
  }
  return {};
}

Result<std::vector<QueryResult>> BlockingConnection::simple_query(std::string_view sql) {
  SimpleQuery flow(sql);
  std::string out;
  if (auto s = flow.start(out); !s) return s.error();
  if (auto s = drive(flow, out); !s) {
    Error e = s.error();
    if (e.sql.empty()) e.sql = std::string(sql);
    return e;
  }
  session_.status = flow.transaction_status();
  return flow.take_results();
}

Result<QueryResult> BlockingConnection::query(std::string_view sql, std::span<const Param> params,
                                              QueryOptions options) {
  ExtendedQuery flow(sql, cache_, options);
  std::string out;
  if (auto s = flow.start(params, out); !s) return s.error();
  if (auto s = drive(flow, out); !s) {
    Error e = s.error();
    if (e.sql.empty()) e.sql = std::string(sql);
    return e;
  }
  session_.status = flow.transaction_status();
  return flow.take_result();
}

Result<uint64_t> BlockingConnection::execute(std::string_view sql, std::span<const Param> params) {
  auto result = query(sql, params);
  if (!result) return std::move(result).error();
  return result->rows_affected.value_or(0);
}

Status BlockingConnection::cancel() {
  auto fd = open_socket(info_, options_.connect_timeout);
  if (!fd) return std::move(fd).error();
  std::string request;
  encode_cancel_request(request, session_.process_id, session_.secret_key);
  ssize_t n = ::send(*fd, request.data(), request.size(), MSG_NOSIGNAL);
  int err = errno;
  ::close(*fd);
  if (n != static_cast<ssize_t>(request.size())) return Error::io("could not send the cancel request: " + errno_text(err));
  return {};
}

}  // namespace fitz::pg
