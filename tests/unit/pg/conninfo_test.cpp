// Table tests for connection strings: URLs (percent-encoding, IPv6, Unix sockets, defaults),
// the key=value form, bad input, and the redacted rendering.
#include <gtest/gtest.h>

#include "pg/conninfo.h"

namespace fitz::pg {
namespace {

struct UrlCase {
  const char* input;
  const char* host;
  uint16_t port;
  const char* user;
  std::optional<std::string> password;
  const char* dbname;
};

TEST(PgConnInfo, UrlTable) {
  const UrlCase cases[] = {
      {"postgres://postgres@127.0.0.1:55432/fitz", "127.0.0.1", 55432, "postgres", std::nullopt, "fitz"},
      {"postgresql://app:secret@db.internal/appdb", "db.internal", 5432, "app", "secret", "appdb"},
      {"postgres://db.internal", "db.internal", 5432, "postgres", std::nullopt, "postgres"},
      {"postgres://", "localhost", 5432, "postgres", std::nullopt, "postgres"},
      {"postgres:///mydb", "localhost", 5432, "postgres", std::nullopt, "mydb"},
      {"postgres://alice@host", "host", 5432, "alice", std::nullopt, "alice"},
      {"postgres://u%40x:p%3Aw%2F%40d@h/d%20b", "h", 5432, "u@x", "p:w/@d", "d b"},
      {"postgres://u:@h/db", "h", 5432, "u", "", "db"},
      {"postgres://u:pa:ss@h/db", "h", 5432, "u", "pa:ss", "db"},
      {"postgres://[::1]:6543/db", "::1", 6543, "postgres", std::nullopt, "db"},
      {"postgres://user@[2001:db8::7]/db", "2001:db8::7", 5432, "user", std::nullopt, "db"},
      {"postgres://%2Fvar%2Frun%2Fpostgresql/db", "/var/run/postgresql", 5432, "postgres", std::nullopt, "db"},
      {"postgres:///db?host=/tmp/pg&port=55432", "/tmp/pg", 55432, "postgres", std::nullopt, "db"},
      {"postgres://h/db?user=bob&password=x%26y", "h", 5432, "bob", "x&y", "db"},
      {"postgres://h/?dbname=other", "h", 5432, "postgres", std::nullopt, "other"},
  };
  for (const auto& c : cases) {
    auto info = parse_conninfo(c.input);
    ASSERT_TRUE(info.ok()) << c.input << ": " << info.error().message;
    EXPECT_EQ(info->host, c.host) << c.input;
    EXPECT_EQ(info->port, c.port) << c.input;
    EXPECT_EQ(info->user, c.user) << c.input;
    EXPECT_EQ(info->password, c.password) << c.input;
    EXPECT_EQ(info->dbname, c.dbname) << c.input;
  }
}

TEST(PgConnInfo, UrlQueryParameters) {
  auto info = parse_conninfo(
      "postgres://u@h/db?sslmode=verify-full&application_name=my%20app&connect_timeout=7&sslrootcert=/etc/ca.pem"
      "&options=-c%20search_path%3Dapp");
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->sslmode, SslMode::VerifyFull);
  EXPECT_EQ(info->application_name, "my app");
  ASSERT_TRUE(info->connect_timeout.has_value());
  EXPECT_EQ(info->connect_timeout->count(), 7);
  EXPECT_EQ(info->sslrootcert, "/etc/ca.pem");
  EXPECT_EQ(info->options, "-c search_path=app");

  auto defaults = parse_conninfo("postgres://h/db");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->sslmode, SslMode::Prefer);
  EXPECT_EQ(defaults->application_name, "fitz");
  EXPECT_FALSE(defaults->connect_timeout.has_value());
  auto zero = parse_conninfo("postgres://h/db?connect_timeout=0");
  ASSERT_TRUE(zero.ok());
  EXPECT_FALSE(zero->connect_timeout.has_value());

  for (auto [text, mode] : {std::pair{"disable", SslMode::Disable}, std::pair{"allow", SslMode::Allow},
                            std::pair{"prefer", SslMode::Prefer}, std::pair{"require", SslMode::Require},
                            std::pair{"verify-ca", SslMode::VerifyCa}}) {
    auto parsed = parse_conninfo(std::string("postgres://h/db?sslmode=") + text);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->sslmode, mode);
    EXPECT_EQ(ssl_mode_name(mode), text);
  }
}

TEST(PgConnInfo, BadUrls) {
  const char* bad[] = {
      "postgres://h:0/db",             // port 0
      "postgres://h:65536/db",         // port too large
      "postgres://h:54x/db",           // port not a number
      "postgres://h:/db",              // empty port
      "postgres://[::1/db",            // unterminated IPv6
      "postgres://[::1]x/db",          // junk after IPv6
      "postgres://[]/db",              // empty IPv6
      "postgres://u%zz@h/db",          // bad escape
      "postgres://u%4@h/db",           // truncated escape
      "postgres://u%00@h/db",          // NUL
      "postgres://h/db?sslmode=maybe", // bad sslmode
      "postgres://h/db?sslmod=require",  // unknown parameter
      "postgres://h/db?connect_timeout=-1",
      "postgres://h/db?connect_timeout=abc",
      "postgres://h/db?novalue",
      "postgres://h1,h2/db",           // multiple hosts
      "postgres://h/db#frag",
      "mysql://h/db",
      "http://h/db",
  };
  for (const char* url : bad) {
    auto info = parse_conninfo(url);
    EXPECT_FALSE(info.ok()) << url;
    if (!info.ok()) {
      EXPECT_FALSE(info.error().message.empty());
    }
  }
  auto err = parse_conninfo("postgres://h/db?sslmod=require");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().kind, ErrorKind::Config);
  EXPECT_NE(err.error().message.find("sslmod"), std::string::npos);
}

TEST(PgConnInfo, KeyValueForm) {
  auto info = parse_conninfo(
      "host=db.internal port=6000 user=app password='it\\'s quoted' dbname = appdb sslmode=disable "
      "application_name=a\\ b connect_timeout=3");
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->host, "db.internal");
  EXPECT_EQ(info->port, 6000);
  EXPECT_EQ(info->user, "app");
  EXPECT_EQ(info->dbname, "appdb");
  EXPECT_EQ(info->sslmode, SslMode::Disable);
  EXPECT_EQ(info->application_name, "a b");
  EXPECT_EQ(info->connect_timeout->count(), 3);
  EXPECT_EQ(info->password, "it's quoted");
  auto quoted = parse_conninfo("password='p w\\'x' user=u");
  ASSERT_TRUE(quoted.ok()) << quoted.error().message;
  EXPECT_EQ(quoted->password, "p w'x");
  EXPECT_EQ(quoted->dbname, "u");

  auto empty = parse_conninfo("");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->host, "localhost");
  EXPECT_EQ(empty->user, "postgres");
  EXPECT_EQ(empty->dbname, "postgres");

  auto socket = parse_conninfo("host=/var/run/postgresql port=5433");
  ASSERT_TRUE(socket.ok());
  EXPECT_TRUE(socket->is_unix_socket());
  EXPECT_EQ(socket->unix_socket_path(), "/var/run/postgresql/.s.PGSQL.5433");
}

TEST(PgConnInfo, BadKeyValue) {
  for (const char* bad : {"host", "host=", "=x", "password='open", "port=abc", "bogus=1", "host = a,b"}) {
    auto info = parse_conninfo(bad);
    if (std::string_view(bad) == "host=") {
      // An empty host falls back to localhost, as in libpq.
      ASSERT_TRUE(info.ok());
      EXPECT_EQ(info->host, "localhost");
      continue;
    }
    EXPECT_FALSE(info.ok()) << bad;
  }
}

TEST(PgConnInfo, RedactedHidesOnlyThePassword) {
  auto info = parse_conninfo("postgres://app:s3cr%40t@db:6000/appdb?sslmode=require&application_name=api");
  ASSERT_TRUE(info.ok());
  std::string r = info->redacted();
  EXPECT_EQ(r, "postgres://app:***@db:6000/appdb?sslmode=require&application_name=api");
  EXPECT_EQ(r.find("s3cr"), std::string::npos);

  auto no_password = parse_conninfo("postgres://postgres@127.0.0.1:55432/fitz");
  ASSERT_TRUE(no_password.ok());
  EXPECT_EQ(no_password->redacted(), "postgres://postgres@127.0.0.1:55432/fitz");

  auto ipv6 = parse_conninfo("postgres://u:pw@[::1]/db");
  ASSERT_TRUE(ipv6.ok());
  EXPECT_EQ(ipv6->redacted(), "postgres://u:***@[::1]:5432/db");

  auto socket = parse_conninfo("postgres://u:pw@/db?host=/tmp/pg&port=55432");
  ASSERT_TRUE(socket.ok());
  EXPECT_EQ(socket->redacted(), "postgres://u:***@/db?host=/tmp/pg&port=55432");

  // The redacted form parses back to the same settings (with the password replaced).
  auto back = parse_conninfo(info->redacted());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->host, info->host);
  EXPECT_EQ(back->port, info->port);
  EXPECT_EQ(back->password, "***");
}

TEST(PgConnInfo, PercentDecode) {
  EXPECT_EQ(*percent_decode("a%20b%2Fc+d"), "a b/c+d");
  EXPECT_EQ(*percent_decode("%E2%82%AC"), "\xE2\x82\xAC");
  EXPECT_FALSE(percent_decode("%").ok());
  EXPECT_FALSE(percent_decode("%2").ok());
  EXPECT_FALSE(percent_decode("%g0").ok());
}

}  // namespace
}  // namespace fitz::pg
