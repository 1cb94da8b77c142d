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
      "postgres://h1,h2:x/db",         // a bad port in a host list
      "postgres://h1,[::1/db",         // unterminated IPv6 in a host list
      "postgres://h1,h2/db?port=1,2,3",  // three ports for two hosts
      "postgres://h/db?target_session_attrs=writable",
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
  for (const char* bad : {"host", "host=", "=x", "password='open", "port=abc", "bogus=1", "host=a,b,c port=1,2",
                          "host=a,b port=1,x", "target_session_attrs=master"}) {
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

// ---- host lists and target_session_attrs (libpq's multi-host connection strings) ----------

std::vector<std::string> wheres(const ConnInfo& info) {
  std::vector<std::string> out;
  for (const auto& h : info.hosts()) out.push_back(h.where());
  return out;
}

TEST(PgConnInfo, MultiHostUrls) {
  struct Case {
    const char* input;
    std::vector<std::string> hosts;
  };
  const Case cases[] = {
      {"postgres://u:pw@h1:5432,h2:5433/db", {"h1:5432", "h2:5433"}},
      // A host without a port takes `port=`, or 5432 without one.
      {"postgres://h1:6000,h2/db", {"h1:6000", "h2:5432"}},
      {"postgres://h1:6000,h2/db?port=7000", {"h1:6000", "h2:7000"}},
      {"postgres://h1,h2,h3/db?port=7000", {"h1:7000", "h2:7000", "h3:7000"}},
      {"postgres://h1,h2/db?port=7001,7002", {"h1:7001", "h2:7002"}},
      {"postgres://h1,h2/db?port=,7002", {"h1:5432", "h2:7002"}},
      {"postgres://[::1]:6000,[2001:db8::7],h3:6002/db", {"[::1]:6000", "[2001:db8::7]:5432", "h3:6002"}},
      // Unix-socket directories, percent-encoded in the authority or listed in `host=`.
      {"postgres://%2Ftmp%2Fa,%2Ftmp%2Fb:5433/db", {"/tmp/a/.s.PGSQL.5432", "/tmp/b/.s.PGSQL.5433"}},
      {"postgres:///db?host=/tmp/a,127.0.0.1&port=5440,5441", {"/tmp/a/.s.PGSQL.5440", "127.0.0.1:5441"}},
      // `host=` in the query replaces the authority's list.
      {"postgres://ignored:1/db?host=a,b", {"a:5432", "b:5432"}},
  };
  for (const auto& c : cases) {
    auto info = parse_conninfo(c.input);
    ASSERT_TRUE(info.ok()) << c.input << ": " << info.error().message;
    EXPECT_EQ(wheres(*info), c.hosts) << c.input;
    EXPECT_EQ(info->dbname, "db") << c.input;
  }
  auto full = parse_conninfo("postgres://app:pw@h1:5432,h2:5433/db?target_session_attrs=read-write&connect_timeout=2");
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_EQ(full->host, "h1");
  EXPECT_EQ(full->port, 5432);
  ASSERT_EQ(full->more_hosts.size(), 1u);
  EXPECT_EQ(full->more_hosts[0].host, "h2");
  EXPECT_EQ(full->more_hosts[0].port, 5433);
  EXPECT_EQ(full->user, "app");
  EXPECT_EQ(full->password, "pw");
  EXPECT_EQ(full->target_session_attrs, TargetSessionAttrs::ReadWrite);
  EXPECT_EQ(full->connect_timeout->count(), 2);
  // One host stays one host: nothing in more_hosts.
  auto one = parse_conninfo("postgres://h/db");
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one->more_hosts.empty());
  EXPECT_EQ(one->target_session_attrs, TargetSessionAttrs::Any);
}

TEST(PgConnInfo, MultiHostKeyValue) {
  auto info = parse_conninfo("host=h1,h2 port=5432,5433 target_session_attrs=read-write dbname=app");
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(wheres(*info), (std::vector<std::string>{"h1:5432", "h2:5433"}));
  EXPECT_EQ(info->target_session_attrs, TargetSessionAttrs::ReadWrite);
  // The order of host= and port= does not matter; one port serves every host.
  auto shared = parse_conninfo("port=6000 host=h1,h2,h3");
  ASSERT_TRUE(shared.ok()) << shared.error().message;
  EXPECT_EQ(wheres(*shared), (std::vector<std::string>{"h1:6000", "h2:6000", "h3:6000"}));
  auto sockets = parse_conninfo("host=/var/run/postgresql,db2 port=,5433");
  ASSERT_TRUE(sockets.ok()) << sockets.error().message;
  EXPECT_EQ(wheres(*sockets), (std::vector<std::string>{"/var/run/postgresql/.s.PGSQL.5432", "db2:5433"}));
  EXPECT_TRUE(sockets->is_unix_socket());
  EXPECT_FALSE(sockets->more_hosts[0].is_unix_socket());
  auto mismatch = parse_conninfo("host=a,b,c port=1,2");
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.error().kind, ErrorKind::Config);
  EXPECT_NE(mismatch.error().message.find("2 entries for 3 hosts"), std::string::npos) << mismatch.error().message;
}

TEST(PgConnInfo, TargetSessionAttrsValues) {
  using T = TargetSessionAttrs;
  for (auto [text, attrs] : {std::pair{"any", T::Any}, std::pair{"read-write", T::ReadWrite},
                             std::pair{"read-only", T::ReadOnly}, std::pair{"primary", T::Primary},
                             std::pair{"standby", T::Standby}, std::pair{"prefer-standby", T::PreferStandby}}) {
    auto parsed = parse_conninfo(std::string("postgres://h/db?target_session_attrs=") + text);
    ASSERT_TRUE(parsed.ok()) << text;
    EXPECT_EQ(parsed->target_session_attrs, attrs);
    EXPECT_EQ(target_session_attrs_name(attrs), text);
    auto kv = parse_conninfo(std::string("target_session_attrs=") + text);
    ASSERT_TRUE(kv.ok()) << text;
    EXPECT_EQ(kv->target_session_attrs, attrs);
  }
  auto bad = parse_conninfo("postgres://h/db?target_session_attrs=master");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("read-write"), std::string::npos) << bad.error().message;
}

TEST(PgConnInfo, WithHostNarrowsToOneServer) {
  auto info = parse_conninfo("postgres://u@h1:1,h2:2/db?target_session_attrs=primary");
  ASSERT_TRUE(info.ok());
  ConnInfo second = info->with_host(info->more_hosts[0]);
  EXPECT_EQ(second.host, "h2");
  EXPECT_EQ(second.port, 2);
  EXPECT_TRUE(second.more_hosts.empty());
  EXPECT_EQ(second.target_session_attrs, TargetSessionAttrs::Primary);
  EXPECT_EQ(second.dbname, "db");
}

TEST(PgConnInfo, RedactedMultiHostParsesBack) {
  const char* urls[] = {
      "postgres://app:pw@h1:5432,h2:5433/db?target_session_attrs=read-write&connect_timeout=2",
      "postgres://app:pw@[::1]:5432,h2:5433/db",
      "postgres://app@/db?host=/tmp/a,h2&port=5440,5441&target_session_attrs=standby",
  };
  for (const char* url : urls) {
    auto info = parse_conninfo(url);
    ASSERT_TRUE(info.ok()) << url;
    std::string r = info->redacted();
    EXPECT_EQ(r.find(":pw@"), std::string::npos) << r;
    auto back = parse_conninfo(r);
    ASSERT_TRUE(back.ok()) << r << ": " << back.error().message;
    EXPECT_EQ(wheres(*back), wheres(*info)) << r;
    EXPECT_EQ(back->target_session_attrs, info->target_session_attrs) << r;
  }
  auto info = parse_conninfo(urls[0]);
  EXPECT_EQ(info->redacted(),
            "postgres://app:***@h1:5432,h2:5433/db?connect_timeout=2&target_session_attrs=read-write");
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
