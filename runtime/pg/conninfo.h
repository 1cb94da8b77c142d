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

struct ConnInfo {
  std::string host = "localhost";  // a host name, an IP address, or a Unix-socket directory ("/...")
  uint16_t port = 5432;
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
