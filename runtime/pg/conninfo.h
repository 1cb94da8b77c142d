// Connection settings: parsing of `postgres://` / `postgresql://` URLs and of the libpq-style
// `key=value` form into ConnInfo, and a redacted rendering for logs. Errors are values.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pg/error.h"

namespace fitz::pg {

enum class SslMode : uint8_t { Disable, Allow, Prefer, Require, VerifyCa, VerifyFull };
std::string_view ssl_mode_name(SslMode mode);

// Which server of a host list a session must reach, as libpq's `target_session_attrs`:
// `read-write` and `primary` skip standbys (and, for read-write, servers whose sessions are
// read-only by default); `prefer-standby` tries every host for a standby before taking any.
enum class TargetSessionAttrs : uint8_t { Any, ReadWrite, ReadOnly, Primary, Standby, PreferStandby };
std::string_view target_session_attrs_name(TargetSessionAttrs attrs);

// One server of a connection string.
struct HostPort {
  std::string host;  // a host name, an IP address, or a Unix-socket directory ("/...")
  uint16_t port = 5432;

  bool is_unix_socket() const { return !host.empty() && host.front() == '/'; }
  std::string unix_socket_path() const;
  // "host:port", or the socket path, for messages.
  std::string where() const;
};

struct ConnInfo {
  // The first (usually the only) server; `more_hosts` are tried after it in order, as libpq
  // does with `host=h1,h2` or `postgres://h1:5432,h2:5433/db`.
  std::string host = "localhost";  // a host name, an IP address, or a Unix-socket directory ("/...")
  uint16_t port = 5432;
  std::vector<HostPort> more_hosts;
  TargetSessionAttrs target_session_attrs = TargetSessionAttrs::Any;
  std::string user = "postgres";
  std::optional<std::string> password;
  std::string dbname;  // defaults to the user name
  SslMode sslmode = SslMode::Prefer;
  std::string sslrootcert;
  std::string application_name = "fitz";
  std::optional<std::chrono::seconds> connect_timeout;
  std::string options;  // the `options` startup parameter (e.g. "-c search_path=app")

  bool is_unix_socket() const { return !host.empty() && host.front() == '/'; }
  // "<host>/.s.PGSQL.<port>" for Unix sockets.
  std::string unix_socket_path() const;
  // The first server as HostPort::where() gives it ("host:port", "[v6]:port" or the socket path).
  std::string where() const { return HostPort{host, port}.where(); }
  // Every server in the order they are tried: host:port, then more_hosts.
  std::vector<HostPort> hosts() const;
  // These settings narrowed to one server (what a connection keeps once it is open, so that a
  // cancel request reaches the server that runs the query).
  ConnInfo with_host(const HostPort& server) const;
  // A URL with the password replaced by "***" (and nothing else hidden), for logs and errors.
  std::string redacted() const;
};

// Dispatches on the scheme: a URL for `postgres://` and `postgresql://`, key=value otherwise.
Result<ConnInfo> parse_conninfo(std::string_view text);
Result<ConnInfo> parse_conninfo_url(std::string_view url);
Result<ConnInfo> parse_conninfo_keyvalue(std::string_view text);

// Percent-decoding as in URLs ("%2F" -> "/"); '+' is left alone. Malformed escapes are errors.
Result<std::string> percent_decode(std::string_view text);

}  // namespace fitz::pg
