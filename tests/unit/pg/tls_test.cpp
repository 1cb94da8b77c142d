// TLS against a real server: the suite starts a private throwaway cluster with ssl=on and a
// certificate for "localhost" signed by a CA made here (openssl CLI), then connects with each
// sslmode: require encrypts without checking, verify-ca/verify-full check the chain against
// sslrootcert, verify-full also the host name, and a bad chain or name fails at connect.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "pg/async_conn.h"

namespace fitz::pg {
namespace {
namespace fs = std::filesystem;
namespace asio = boost::asio;

std::string server_bindir() {
  if (const char* env = std::getenv("FITZ_PG_BINDIR")) return env;
  std::string best;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    fs::path bin = entry.path() / "bin";
    if (fs::exists(bin / "initdb") && (best.empty() || bin.string() > best)) best = bin.string();
  }
  return best;
}

uint16_t unused_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

class PgTls : public testing::Test {
 protected:
  static void SetUpTestSuite() { setup_error_ = start_cluster(); }
  static void TearDownTestSuite() {
    if (started_) as_server(bindir_ + "/pg_ctl -D '" + dir_ + "/data' -m immediate -w stop > /dev/null 2>&1");
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }

  // The server refuses to run as root: run its commands as the postgres user then.
  static int as_server(const std::string& command) {
    std::string full = command;
    if (::geteuid() == 0) {
      std::string quoted;
      for (char c : command) {
        if (c == '\'') quoted += "'\\''";
        else quoted.push_back(c);
      }
      full = "su postgres -s /bin/bash -c '" + quoted + "'";
    }
    return std::system(full.c_str());
  }

  static std::string start_cluster() {
    bindir_ = server_bindir();
    if (bindir_.empty()) return "no Postgres server binaries under /usr/lib/postgresql (set FITZ_PG_BINDIR)";
    char tmpl[] = "/tmp/fitz-pg-tls-XXXXXX";
    if (!::mkdtemp(tmpl)) return "mkdtemp failed";
    dir_ = tmpl;
    std::string d = dir_;
    // A CA, and a server certificate for DNS:localhost only (no IP address) signed by it.
    std::string certs =
        "cd '" + d + "' && (openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=fitz-test-ca "
        "-keyout ca.key -out ca.pem && "
        "openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server.key -out server.csr && "
        "printf 'subjectAltName=DNS:localhost\\n' > san.ext && "
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 "
        "-extfile san.ext -out server.pem && "
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key -out other.pem)";
    if (std::system((certs + " > certs.log 2>&1").c_str()) != 0) return "openssl failed (see certs.log in " + d + ")";
    uid_t uid = ::geteuid();
    gid_t gid = ::getegid();
    if (uid == 0) {
      passwd* pw = ::getpwnam("postgres");
      if (!pw) return "running as root but there is no postgres user to run the server";
      uid = pw->pw_uid;
      gid = pw->pw_gid;
    }
    for (const char* f : {"", "/server.key", "/server.pem"})
      if (::chown((d + f).c_str(), uid, gid) != 0) return "chown failed";
    fs::permissions(d + "/server.key", fs::perms::owner_read | fs::perms::owner_write);
    if (as_server(bindir_ + "/initdb -D '" + d + "/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 > '" + d +
                  "/initdb.log' 2>&1") != 0)
      return "initdb failed; see " + d + "/initdb.log";
    port_ = unused_port();
    if (port_ == 0) return "no free port";
    if (as_server(bindir_ + "/pg_ctl -D '" + d + "/data' -l '" + d + "/server.log' -w -o \"-p " +
                  std::to_string(port_) + " -k '" + d + "' -c listen_addresses=127.0.0.1 -c fsync=off -c ssl=on" +
                  " -c ssl_cert_file='" + d + "/server.pem' -c ssl_key_file='" + d + "/server.key'\" start > /dev/null 2>&1") != 0)
      return "pg_ctl start failed; see " + d + "/server.log";
    started_ = true;
    return "";
  }

  ConnInfo info(SslMode mode, std::string host = "localhost", std::string rootcert = "") {
    ConnInfo i;
    i.host = std::move(host);
    i.port = port_;
    i.user = "postgres";
    i.dbname = "postgres";
    i.sslmode = mode;
    i.sslrootcert = std::move(rootcert);
    return i;
  }
  Result<AsyncConnection::Ptr> connect(ConnInfo i) {
    std::optional<Result<AsyncConnection::Ptr>> r;
    AsyncConnection::connect(ioc_, std::move(i), {}, [&](Result<AsyncConnection::Ptr> c) { r.emplace(std::move(c)); });
    while (!r && ioc_.run_one() > 0) {
    }
    EXPECT_TRUE(r.has_value());
    return r ? std::move(*r) : Result<AsyncConnection::Ptr>(Error::protocol("no answer"));
  }
  // Whether the server sees this session as encrypted.
  bool server_says_ssl(AsyncConnection& c) {
    std::optional<Result<QueryResult>> r;
    c.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", {}, {},
            [&](Result<QueryResult> q) { r.emplace(std::move(q)); });
    while (!r && ioc_.run_one() > 0) {
    }
    if (!r || !r->ok()) {
      ADD_FAILURE() << (r ? r->error().to_string() : "no answer");
      return false;
    }
    auto v = (*r)->row(0).get<bool>(0);
    return v.ok() && *v;
  }
  std::string ca() const { return dir_ + "/ca.pem"; }

  asio::io_context ioc_;
  static inline std::string bindir_, dir_, setup_error_;
  static inline uint16_t port_ = 0;
  static inline bool started_ = false;
};

TEST_F(PgTls, RequireEncryptsWithoutCheckingTheCertificate) {
  auto c = connect(info(SslMode::Require, "127.0.0.1"));
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_TRUE((*c)->tls());
  EXPECT_TRUE(server_says_ssl(**c));
}

TEST_F(PgTls, PreferUsesTlsWhenTheServerOffersIt) {
  auto c = connect(info(SslMode::Prefer, "127.0.0.1"));
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_TRUE((*c)->tls());
}

TEST_F(PgTls, DisableStaysInTheClear) {
  auto c = connect(info(SslMode::Disable, "127.0.0.1"));
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_FALSE((*c)->tls());
  EXPECT_FALSE(server_says_ssl(**c));
}

TEST_F(PgTls, VerifyFullAcceptsTheRightCaAndHostName) {
  auto c = connect(info(SslMode::VerifyFull, "localhost", ca()));
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_TRUE(server_says_ssl(**c));
}

TEST_F(PgTls, VerifyFullRejectsAHostNameTheCertificateDoesNotName) {
  auto c = connect(info(SslMode::VerifyFull, "127.0.0.1", ca()));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("TLS handshake"), std::string::npos) << c.error().message;
}

TEST_F(PgTls, VerifyCaChecksTheChainButNotTheName) {
  auto ok = connect(info(SslMode::VerifyCa, "127.0.0.1", ca()));
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  auto wrong_ca = connect(info(SslMode::VerifyCa, "127.0.0.1", dir_ + "/other.pem"));
  ASSERT_FALSE(wrong_ca.ok());
  EXPECT_NE(wrong_ca.error().message.find("TLS handshake"), std::string::npos) << wrong_ca.error().message;
}

TEST_F(PgTls, AMissingRootCertificateFileIsAClearError) {
  auto c = connect(info(SslMode::VerifyFull, "localhost", dir_ + "/no-such.pem"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("cannot load the root certificates"), std::string::npos) << c.error().message;
}

}  // namespace
}  // namespace fitz::pg
