// Password authentication against a real server: the suite starts a private throwaway cluster
// (initdb/pg_ctl under a temp dir, as the postgres user when run as root) whose pg_hba.conf
// demands SCRAM-SHA-256, MD5 or cleartext per role, then connects with each.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "pg/blocking_conn.h"

namespace fitz::pg {
namespace {
namespace fs = std::filesystem;

constexpr const char* kSuperPassword = "super-secret";
constexpr const char* kScramPassword = "p@ss:w/rd% é";  // needs percent-encoding in a URL

std::string find_bindir() {
  if (const char* env = std::getenv("FITZ_PG_BINDIR")) return env;
  std::string best;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    fs::path bin = entry.path() / "bin";
    if (fs::exists(bin / "initdb") && (best.empty() || bin.string() > best)) best = bin.string();
  }
  return best;
}

uint16_t free_port() {
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

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    auto b = static_cast<unsigned char>(c);
    if (std::isalnum(b) || c == '-' || c == '_' || c == '.') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 15]);
    }
  }
  return out;
}

class PgAuth : public testing::Test {
 protected:
  static void SetUpTestSuite() { setup_error_ = start_cluster(); }

  static void TearDownTestSuite() {
    if (started_) run(bindir_ + "/pg_ctl -D '" + dir_ + "/data' -m immediate -w stop > /dev/null 2>&1");
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }

  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }

  static std::string url(std::string_view user, std::optional<std::string_view> password) {
    std::string u = "postgres://" + percent_encode(user);
    if (password) u += ":" + percent_encode(*password);
    return u + "@127.0.0.1:" + std::to_string(port_) + "/postgres?sslmode=disable";
  }

  // Runs a shell command, as the postgres user when we are root (the server refuses root).
  static int run(const std::string& command) {
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
    bindir_ = find_bindir();
    if (bindir_.empty())
      return "no Postgres server binaries found under /usr/lib/postgresql (set FITZ_PG_BINDIR); "
             "this suite starts its own cluster to test password authentication";
    char tmpl[] = "/tmp/fitz-pg-auth-XXXXXX";
    if (!::mkdtemp(tmpl)) return "mkdtemp failed";
    dir_ = tmpl;
    uid_t uid = ::geteuid();
    gid_t gid = ::getegid();
    if (::geteuid() == 0) {
      passwd* pw = ::getpwnam("postgres");
      if (!pw) return "running as root but there is no postgres user to run the server";
      uid = pw->pw_uid;
      gid = pw->pw_gid;
    }
    std::string pwfile = dir_ + "/pw";
    std::ofstream(pwfile) << kSuperPassword << "\n";
    if (::chown(dir_.c_str(), uid, gid) != 0 || ::chown(pwfile.c_str(), uid, gid) != 0) return "chown failed";

    std::string log = dir_ + "/initdb.log";
    if (run(bindir_ + "/initdb -D '" + dir_ + "/data' -U postgres --pwfile='" + pwfile +
            "' --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 > '" + log + "' 2>&1") != 0)
      return "initdb failed; see " + log;

    std::string hba = dir_ + "/data/pg_hba.conf";
    {
      std::ofstream out(hba, std::ios::trunc);
      out << "local all all trust\n"
             "host all md5_user 127.0.0.1/32 md5\n"
             "host all clear_user 127.0.0.1/32 password\n"
             "host all all 127.0.0.1/32 scram-sha-256\n";
    }
    if (::chown(hba.c_str(), uid, gid) != 0) return "chown pg_hba.conf failed";

    port_ = free_port();
    if (port_ == 0) return "no free port";
    std::string server_log = dir_ + "/server.log";
    if (run(bindir_ + "/pg_ctl -D '" + dir_ + "/data' -l '" + server_log + "' -w -o \"-p " + std::to_string(port_) +
            " -k '" + dir_ + "' -c listen_addresses=127.0.0.1 -c fsync=off\" start > /dev/null 2>&1") != 0)
      return "pg_ctl start failed; see " + server_log;
    started_ = true;

    // The superuser itself logs in with SCRAM (initdb stored a SCRAM verifier).
    auto admin = BlockingConnection::connect(url("postgres", kSuperPassword));
    if (!admin.ok()) return "superuser SCRAM login failed: " + admin.error().to_string();
    auto roles = admin->simple_query(
        "SET password_encryption = 'scram-sha-256';"
        "CREATE ROLE scram_user LOGIN PASSWORD '" + std::string(kScramPassword) + "';"
        "CREATE ROLE clear_user LOGIN PASSWORD 'clear-pass';"
        "SET password_encryption = 'md5';"
        "CREATE ROLE md5_user LOGIN PASSWORD 'md5-pass';");
    if (!roles.ok()) return "creating roles failed: " + roles.error().to_string();
    return "";
  }

  static inline std::string bindir_;
  static inline std::string dir_;
  static inline uint16_t port_ = 0;
  static inline bool started_ = false;
  static inline std::string setup_error_;
};

// Two tests rather than one per case: ctest runs each test in its own process, and each process
// pays for initdb.
TEST_F(PgAuth, EachPasswordMethodLogsIn) {
  struct Case {
    const char* user;
    const char* password;
    AuthMethod method;
  } cases[] = {{"postgres", kSuperPassword, AuthMethod::ScramSha256},
               {"scram_user", kScramPassword, AuthMethod::ScramSha256},  // percent-encoded in the URL
               {"md5_user", "md5-pass", AuthMethod::Md5},
               {"clear_user", "clear-pass", AuthMethod::Cleartext}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.user);
    auto conn = BlockingConnection::connect(url(c.user, c.password));
    ASSERT_TRUE(conn.ok()) << conn.error().to_string();
    EXPECT_EQ(conn->session().auth_method, c.method);
    auto who = conn->query("SELECT current_user");
    ASSERT_TRUE(who.ok()) << who.error().to_string();
    EXPECT_EQ(*who->row(0).get<std::string>(0), c.user);
  }
}

TEST_F(PgAuth, WrongOrMissingPasswordsAreRejected) {
  for (const char* user : {"scram_user", "md5_user", "clear_user"}) {
    SCOPED_TRACE(user);
    auto wrong = BlockingConnection::connect(url(user, "wrong-password"));
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error().kind, ErrorKind::Server);
    EXPECT_EQ(wrong.error().sqlstate, "28P01");
    EXPECT_EQ(wrong.error().summary(),
              "FATAL: password authentication failed for user \"" + std::string(user) + "\"");

    auto missing = BlockingConnection::connect(url(user, std::nullopt));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().kind, ErrorKind::Auth);  // refused on the client, nothing sent
    EXPECT_EQ(missing.error().sqlstate, "28P01");
  }
}

}  // namespace
}  // namespace fitz::pg
