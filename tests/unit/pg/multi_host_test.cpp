// Host lists and target_session_attrs against a real server (FITZ_TEST_DATABASE_URL, a primary):
// a dead first host is skipped by the asynchronous and the blocking connection; a target the
// server does not fit fails with each host and its reason; prefer-standby falls back to it; a
// pooled connection whose server turns read-only is dropped, and its write fails as a lost
// connection (25006 kept) instead of a statement error.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <optional>

#include "pg/async_conn.h"
#include "pg/blocking_conn.h"
#include "pg/pool.h"

namespace fitz::pg {
namespace {

namespace asio = boost::asio;

class PgMultiHost : public testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv("FITZ_TEST_DATABASE_URL");
    ASSERT_TRUE(url && *url) << "FITZ_TEST_DATABASE_URL is not set; run `scripts/pg-local.sh start` and export the "
                                "URL it prints (these tests need a real Postgres)";
    auto info = parse_conninfo(url);
    ASSERT_TRUE(info.ok()) << info.error().to_string();
    real_ = *info;
  }

  // Nothing listens on 127.0.0.1:1, then the real server.
  ConnInfo dead_then_real(TargetSessionAttrs want) const {
    ConnInfo info = real_;
    info.host = "127.0.0.1";
    info.port = 1;
    info.more_hosts = {HostPort{real_.host, real_.port}};
    info.target_session_attrs = want;
    return info;
  }

  // Runs the loop until `*slot` is filled.
  template <class T>
  T run_until(std::optional<T>& slot) {
    while (!slot) {
      if (ioc_.stopped()) ioc_.restart();
      if (ioc_.run_one() == 0) break;
    }
    EXPECT_TRUE(slot.has_value()) << "the io_context ran out of work before the operation completed";
    return std::move(*slot);
  }

  Result<AsyncConnection::Ptr> connect(ConnInfo info) {
    std::optional<Result<AsyncConnection::Ptr>> r;
    AsyncConnection::connect(ioc_, std::move(info), {},
                             [&](Result<AsyncConnection::Ptr> c) { r.emplace(std::move(c)); });
    return run_until(r);
  }
  Result<QueryResult> query(AsyncConnection& c, std::string_view sql) {
    std::optional<Result<QueryResult>> r;
    c.query(sql, {}, {}, [&](Result<QueryResult> q) { r.emplace(std::move(q)); });
    return run_until(r);
  }
  Result<Pool::Lease> acquire(Pool& pool) {
    std::optional<Result<Pool::Lease>> r;
    pool.acquire([&](Result<Pool::Lease> l) { r.emplace(std::move(l)); });
    return run_until(r);
  }

  asio::io_context ioc_;
  ConnInfo real_;
};

TEST_F(PgMultiHost, AsyncSkipsADeadHostAndKeepsTheOneThatFits) {
  for (auto want : {TargetSessionAttrs::Any, TargetSessionAttrs::ReadWrite, TargetSessionAttrs::Primary,
                    TargetSessionAttrs::PreferStandby}) {
    auto c = connect(dead_then_real(want));
    ASSERT_TRUE(c.ok()) << target_session_attrs_name(want) << ": " << c.error().to_string();
    // The open connection knows only its own server (a cancel request must reach that one).
    EXPECT_EQ((*c)->info().port, real_.port);
    EXPECT_TRUE((*c)->info().more_hosts.empty());
    auto r = query(**c, "SELECT 1");
    EXPECT_TRUE(r.ok()) << r.error().to_string();
  }
}

TEST_F(PgMultiHost, BlockingSkipsADeadHostAndKeepsTheOneThatFits) {
  for (auto want : {TargetSessionAttrs::Any, TargetSessionAttrs::ReadWrite, TargetSessionAttrs::PreferStandby}) {
    auto c = BlockingConnection::connect(dead_then_real(want));
    ASSERT_TRUE(c.ok()) << target_session_attrs_name(want) << ": " << c.error().to_string();
    auto r = c->simple_query("SELECT 1");
    EXPECT_TRUE(r.ok()) << r.error().to_string();
  }
}

TEST_F(PgMultiHost, NoServerFitsNamesEachHostAndWhy) {
  std::string real = real_.host + ":" + std::to_string(real_.port);
  for (auto want : {TargetSessionAttrs::ReadOnly, TargetSessionAttrs::Standby}) {
    auto a = connect(dead_then_real(want));
    ASSERT_FALSE(a.ok());
    auto b = BlockingConnection::connect(dead_then_real(want));
    ASSERT_FALSE(b.ok());
    for (const Error& e : {a.error(), b.error()}) {
      EXPECT_EQ(e.kind, ErrorKind::Io);
      EXPECT_EQ(e.sqlstate, sqlstate::kUnableToConnect);
      EXPECT_NE(e.message.find("no server fits target_session_attrs=" + std::string(target_session_attrs_name(want))),
                std::string::npos)
          << e.message;
      EXPECT_NE(e.message.find("could not connect to 127.0.0.1:1: "), std::string::npos) << e.message;
      std::string why =
          want == TargetSessionAttrs::ReadOnly ? "session is not read-only" : "server is not in hot standby mode";
      EXPECT_NE(e.message.find(real + ": " + why), std::string::npos) << e.message;
    }
  }
}

// A server whose sessions are read-only by default is no read-write server (here the session's
// own options set default_transaction_read_only, which the server reports at startup).
TEST_F(PgMultiHost, AReadOnlyDefaultIsNotReadWrite) {
  ConnInfo info = real_;
  info.options = "-c default_transaction_read_only=on";
  info.target_session_attrs = TargetSessionAttrs::ReadWrite;
  auto a = connect(info);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("session is read-only"), std::string::npos) << a.error().message;
  info.target_session_attrs = TargetSessionAttrs::ReadOnly;
  auto b = connect(info);
  EXPECT_TRUE(b.ok()) << b.error().to_string();
}

TEST_F(PgMultiHost, PoolDropsAConnectionWhoseServerTurnedReadOnly) {
  ConnInfo info = real_;
  info.target_session_attrs = TargetSessionAttrs::ReadWrite;
  PoolOptions options;
  options.max_connections = 1;
  auto pool = Pool::create(ioc_, info, options);
  int32_t first = 0;
  {
    auto lease = acquire(*pool);
    ASSERT_TRUE(lease.ok()) << lease.error().to_string();
    first = (*lease)->session().process_id;
    // What a server set read-only reports to its sessions (here: this session only).
    ASSERT_TRUE(query(**lease, "SET default_transaction_read_only = on").ok());
    EXPECT_FALSE((*lease)->fits_target());
    // A write now fails as a lost connection (503 from handlers), the server's 25006 kept.
    auto write = query(**lease, "CREATE TABLE fitz_read_only_probe (x int)");
    ASSERT_FALSE(write.ok());
    EXPECT_EQ(write.error().kind, ErrorKind::Io);
    EXPECT_EQ(write.error().sqlstate, "25006");
    EXPECT_NE(write.error().message.find("no longer accepts writes"), std::string::npos) << write.error().message;
    EXPECT_TRUE((*lease)->is_broken());
  }
  EXPECT_EQ(pool->stats().replaced, 1u);
  auto again = acquire(*pool);
  ASSERT_TRUE(again.ok()) << again.error().to_string();
  EXPECT_NE((*again)->session().process_id, first);
  EXPECT_TRUE((*again)->fits_target());
}

// A program's own READ ONLY transaction on a writable server: an ordinary statement error, and
// the connection stays.
TEST_F(PgMultiHost, AReadOnlyTransactionOfTheProgramIsAStatementError) {
  auto c = connect(real_);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  ASSERT_TRUE(query(**c, "BEGIN READ ONLY").ok());
  auto write = query(**c, "CREATE TABLE fitz_read_only_probe (x int)");
  ASSERT_FALSE(write.ok());
  EXPECT_EQ(write.error().kind, ErrorKind::Server);
  EXPECT_EQ(write.error().sqlstate, "25006");
  EXPECT_FALSE((*c)->is_broken());
  EXPECT_TRUE(query(**c, "ROLLBACK").ok());
}

}  // namespace
}  // namespace fitz::pg
