// The asynchronous connection and the pool against a real server (FITZ_TEST_DATABASE_URL, from
// scripts/pg-local.sh): one write per round, the statement cache, pipelining, server errors as
// values, cancel, TLS refusal, and the pool's faults (terminated backends, unreachable server,
// exhaustion, many concurrent queries through a small pool).
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

std::string database_url() {
  const char* url = std::getenv("FITZ_TEST_DATABASE_URL");
  return url ? url : "";
}

// Runs the loop until `*slot` is filled.
template <class T>
T run_until(asio::io_context& ioc, std::optional<T>& slot) {
  while (!slot) {
    if (ioc.stopped()) ioc.restart();
    if (ioc.run_one() == 0) break;
  }
  EXPECT_TRUE(slot.has_value()) << "the io_context ran out of work before the operation completed";
  return std::move(*slot);
}

// Runs the loop until `ready()` holds (or nothing is left to run).
template <class F>
void run_while_not(asio::io_context& ioc, F ready) {
  while (!ready()) {
    if (ioc.stopped()) ioc.restart();
    if (ioc.run_one() == 0) break;
  }
}

class PgAsync : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(database_url().empty()) << "FITZ_TEST_DATABASE_URL is not set; run `scripts/pg-local.sh start` and "
                                            "export the URL it prints (these tests need a real Postgres)";
    auto info = parse_conninfo(database_url());
    ASSERT_TRUE(info.ok()) << info.error().to_string();
    info_ = *info;
  }

  Result<AsyncConnection::Ptr> connect(ConnInfo info) {
    std::optional<Result<AsyncConnection::Ptr>> r;
    AsyncConnection::connect(ioc_, std::move(info), {}, [&](Result<AsyncConnection::Ptr> c) { r.emplace(std::move(c)); });
    return run_until(ioc_, r);
  }
  AsyncConnection::Ptr must_connect() {
    auto c = connect(info_);
    EXPECT_TRUE(c.ok()) << c.error().to_string();
    return c.ok() ? *c : nullptr;
  }
  Result<QueryResult> query(AsyncConnection& c, std::string_view sql, std::span<const Param> params = {},
                            QueryOptions options = {}) {
    std::optional<Result<QueryResult>> r;
    c.query(sql, params, options, [&](Result<QueryResult> q) { r.emplace(std::move(q)); });
    return run_until(ioc_, r);
  }
  Result<Pool::Lease> acquire(Pool& pool) {
    std::optional<Result<Pool::Lease>> r;
    pool.acquire([&](Result<Pool::Lease> l) { r.emplace(std::move(l)); });
    return run_until(ioc_, r);
  }

  asio::io_context ioc_;
  ConnInfo info_;
};

Param int8(int64_t v) {
  auto p = to_param(v);
  EXPECT_TRUE(p.ok());
  return *p;
}

TEST_F(PgAsync, ConnectsAndQueriesWithOneWritePerRoundAndCachedStatements) {
  auto c = must_connect();
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->tls());
  EXPECT_EQ(c->session().parameters.at("application_name"), "fitz");
  uint64_t before = c->writes();
  Param p = int8(41);
  auto r = query(*c, "SELECT $1::int8 + 1 AS n", std::span<const Param>(&p, 1));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r->row(0).get<int64_t>("n"), 42);
  EXPECT_EQ(c->writes() - before, 1u) << "Parse/Bind/Describe/Execute/Sync must leave in one write";
  EXPECT_EQ(c->statement_cache().size(), 1u);
  // The second run of the same SQL binds the cached statement: still one statement, one write.
  auto again = query(*c, "SELECT $1::int8 + 1 AS n", std::span<const Param>(&p, 1));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(c->writes() - before, 2u);
  EXPECT_EQ(c->statement_cache().size(), 1u);
}

TEST_F(PgAsync, PipelinesIndependentQueriesAndAnswersInOrder) {
  auto c = must_connect();
  ASSERT_TRUE(c);
  constexpr int kCount = 25;
  std::vector<std::optional<Result<QueryResult>>> results(kCount);
  std::vector<int> order;
  uint64_t before = c->writes();
  std::vector<Param> params;
  for (int i = 0; i < kCount; ++i) params.push_back(int8(i));
  for (int i = 0; i < kCount; ++i)
    c->query("SELECT $1::int8 * 2 AS v", std::span<const Param>(&params[i], 1), {}, [&, i](Result<QueryResult> r) {
      order.push_back(i);
      results[i].emplace(std::move(r));
    });
  EXPECT_EQ(c->in_flight(), static_cast<std::size_t>(kCount)) << "every round is sent before any answer arrives";
  while (order.size() < kCount && ioc_.run_one() > 0) {
  }
  ASSERT_EQ(order.size(), static_cast<std::size_t>(kCount));
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(order[i], i);
    ASSERT_TRUE(results[i]->ok()) << results[i]->error().to_string();
    EXPECT_EQ(*(*results[i])->row(0).get<int64_t>(0), 2 * i);
  }
  EXPECT_LT(c->writes() - before, static_cast<uint64_t>(kCount)) << "rounds queued behind a write share the next one";
}

TEST_F(PgAsync, ServerErrorsAreValuesWithRedactedSqlAndDoNotPoisonTheConnection) {
  auto c = must_connect();
  ASSERT_TRUE(c);
  auto p = to_param(std::string("s3cret-value"));
  ASSERT_TRUE(p.ok());
  auto r = query(*c, "SELECT 1 / 0 WHERE $1::text IS NOT NULL", std::span<const Param>(&*p, 1));
  ASSERT_FALSE(r.ok());
  const Error& e = r.error();
  EXPECT_EQ(e.kind, ErrorKind::Server);
  EXPECT_EQ(e.sqlstate, "22012");
  EXPECT_EQ(e.message, "division by zero");
  EXPECT_EQ(e.sql, "SELECT 1 / 0 WHERE $1::text IS NOT NULL");
  EXPECT_EQ(e.to_string().find("s3cret-value"), std::string::npos) << e.to_string();
  EXPECT_FALSE(c->is_broken());

  auto detail = query(*c, "SELECT jsonb_build_object('a', 1)::int");
  ASSERT_FALSE(detail.ok());
  EXPECT_EQ(detail.error().kind, ErrorKind::Server);

  auto ok = query(*c, "SELECT 7 AS seven");
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(*ok->row(0).get<int32_t>("seven"), 7);
}

TEST_F(PgAsync, AnErrorInOnePipelinedRoundLeavesTheOthersIntact) {
  auto c = must_connect();
  ASSERT_TRUE(c);
  std::optional<Result<QueryResult>> a, b, d;
  c->query("SELECT 1 AS x", {}, {}, [&](Result<QueryResult> r) { a.emplace(std::move(r)); });
  c->query("SELECT * FROM fitz_no_such_table", {}, {}, [&](Result<QueryResult> r) { b.emplace(std::move(r)); });
  c->query("SELECT 3 AS x", {}, {}, [&](Result<QueryResult> r) { d.emplace(std::move(r)); });
  run_while_not(ioc_, [&] { return d.has_value(); });
  ASSERT_TRUE(a && b && d);
  EXPECT_TRUE(a->ok());
  ASSERT_FALSE(b->ok());
  EXPECT_EQ(b->error().sqlstate, "42P01");
  ASSERT_TRUE(d->ok()) << d->error().to_string();
  EXPECT_EQ(*(*d)->row(0).get<int32_t>("x"), 3);
}

TEST_F(PgAsync, CancelStopsARunningQuery) {
  auto c = must_connect();
  ASSERT_TRUE(c);
  std::optional<Result<QueryResult>> r;
  c->query("SELECT pg_sleep(30)", {}, {}, [&](Result<QueryResult> q) { r.emplace(std::move(q)); });
  // Wait until the server is really running it before cancelling.
  auto watcher = must_connect();
  ASSERT_TRUE(watcher);
  Param pid = int8(c->session().process_id);
  for (int i = 0; i < 200; ++i) {
    auto s = query(*watcher, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active'",
                   std::span<const Param>(&pid, 1));
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    if (*s->row(0).get<int64_t>(0) == 1) break;
  }
  std::optional<Status> cancelled;
  c->cancel([&](Status s) { cancelled.emplace(std::move(s)); });
  auto sent = run_until(ioc_, cancelled);
  EXPECT_TRUE(sent.ok()) << sent.error().to_string();
  auto result = run_until(ioc_, r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().sqlstate, "57014");  // query_canceled
  EXPECT_FALSE(c->is_broken());
  EXPECT_TRUE(query(*c, "SELECT 1").ok());
}

TEST_F(PgAsync, SslModeRequireAgainstAServerWithoutTlsFailsClearly) {
  ConnInfo info = info_;
  info.sslmode = SslMode::Require;
  auto c = connect(info);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("sslmode=require"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("does not accept TLS"), std::string::npos) << c.error().message;
}

TEST_F(PgAsync, UnreachableServerIsAClearConnectError) {
  ConnInfo info = info_;
  info.host = "127.0.0.1";
  info.port = 1;  // nothing listens on port 1
  auto c = connect(info);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().kind, ErrorKind::Io);
  EXPECT_EQ(c.error().sqlstate, sqlstate::kUnableToConnect);
  EXPECT_NE(c.error().message.find("could not connect to 127.0.0.1:1"), std::string::npos) << c.error().message;
}

TEST_F(PgAsync, WrongPasswordOrDatabaseIsAServerErrorAtConnect) {
  ConnInfo info = info_;
  info.dbname = "fitz_no_such_database";
  auto c = connect(info);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().sqlstate, "3D000") << c.error().to_string();
}

// ---- pool --------------------------------------------------------------------------------

PoolOptions small_pool(std::size_t n, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  PoolOptions o;
  o.max_connections = n;
  o.acquire_timeout = timeout;
  return o;
}

TEST_F(PgAsync, PoolConnectsLazilyAndReusesConnections) {
  auto pool = Pool::create(ioc_, info_, small_pool(3));
  EXPECT_EQ(pool->size(), 0u);
  int32_t pid = 0;
  {
    auto lease = acquire(*pool);
    ASSERT_TRUE(lease.ok()) << lease.error().to_string();
    pid = (*lease)->session().process_id;
    EXPECT_EQ(pool->size(), 1u);
  }
  EXPECT_EQ(pool->idle(), 1u);
  auto again = acquire(*pool);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->session().process_id, pid);
  EXPECT_EQ(pool->stats().connects, 1u);
}

TEST_F(PgAsync, PoolReplacesATerminatedConnection) {
  auto pool = Pool::create(ioc_, info_, small_pool(2));
  int32_t pid = 0;
  {
    auto lease = acquire(*pool);
    ASSERT_TRUE(lease.ok());
    pid = (*lease)->session().process_id;
  }
  auto admin = BlockingConnection::connect(database_url());
  ASSERT_TRUE(admin.ok()) << admin.error().to_string();
  Param p = int8(pid);
  auto killed = admin->query("SELECT pg_terminate_backend($1::int4)", std::span<const Param>(&p, 1));
  ASSERT_TRUE(killed.ok()) << killed.error().to_string();
  ASSERT_TRUE(*killed->row(0).get<bool>(0));
  // Wait until the backend is gone, so its FATAL message and close have reached our socket.
  for (int i = 0; i < 500; ++i) {
    auto gone = admin->query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int4", std::span<const Param>(&p, 1));
    ASSERT_TRUE(gone.ok());
    if (*gone->row(0).get<int64_t>(0) == 0) break;
  }
  auto lease = acquire(*pool);
  ASSERT_TRUE(lease.ok()) << lease.error().to_string();
  EXPECT_NE((*lease)->session().process_id, pid);
  EXPECT_EQ(pool->stats().replaced, 1u);
  auto r = query(**lease, "SELECT 1 AS one");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
}

TEST_F(PgAsync, PoolDiscardsAConnectionLeftInsideATransaction) {
  auto pool = Pool::create(ioc_, info_, small_pool(1));
  {
    auto lease = acquire(*pool);
    ASSERT_TRUE(lease.ok());
    ASSERT_TRUE(query(**lease, "BEGIN").ok());
    EXPECT_EQ((*lease)->transaction_status(), TransactionStatus::InTransaction);
  }
  EXPECT_EQ(pool->stats().replaced, 1u);
  EXPECT_EQ(pool->size(), 0u);
  auto lease = acquire(*pool);
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ((*lease)->transaction_status(), TransactionStatus::Idle);
}

TEST_F(PgAsync, PoolUnreachableServerFailsEveryCallerClearly) {
  ConnInfo info = info_;
  info.host = "127.0.0.1";
  info.port = 1;
  auto pool = Pool::create(ioc_, info, small_pool(1));
  std::vector<std::optional<Result<Pool::Lease>>> results(3);
  for (auto& slot : results) pool->acquire([&slot](Result<Pool::Lease> l) { slot.emplace(std::move(l)); });
  run_while_not(ioc_, [&] { return results.back().has_value(); });
  for (auto& r : results) {
    ASSERT_TRUE(r.has_value());
    ASSERT_FALSE(r->ok());
    EXPECT_EQ(r->error().sqlstate, sqlstate::kUnableToConnect) << r->error().to_string();
  }
  EXPECT_EQ(pool->size(), 0u);
  EXPECT_EQ(pool->stats().connect_failures, 3u);
}

TEST_F(PgAsync, PoolExhaustionQueuesThenTimesOutWithAClearError) {
  auto pool = Pool::create(ioc_, info_, small_pool(1, std::chrono::milliseconds(100)));
  auto held = acquire(*pool);
  ASSERT_TRUE(held.ok());
  auto waiting = acquire(*pool);
  ASSERT_FALSE(waiting.ok());
  EXPECT_NE(waiting.error().message.find("waiting for a free database connection"), std::string::npos)
      << waiting.error().message;
  EXPECT_EQ(pool->stats().timeouts, 1u);
  EXPECT_EQ(pool->waiting(), 0u);
  // A queued caller gets the connection as soon as it is returned.
  std::optional<Result<Pool::Lease>> queued;
  pool->acquire([&](Result<Pool::Lease> l) { queued.emplace(std::move(l)); });
  EXPECT_EQ(pool->waiting(), 1u);
  held->release();
  auto got = run_until(ioc_, queued);
  EXPECT_TRUE(got.ok());
}

TEST_F(PgAsync, ManyConcurrentQueriesThroughASmallPoolComplete) {
  auto pool = Pool::create(ioc_, info_, small_pool(3));
  constexpr int kCount = 200;
  int done = 0, failed = 0;
  std::size_t peak = 0;
  std::vector<Param> params;
  for (int i = 0; i < kCount; ++i) params.push_back(int8(i));
  for (int i = 0; i < kCount; ++i) {
    pool->acquire([&, i](Result<Pool::Lease> l) {
      peak = std::max(peak, pool->size());
      if (!l) {
        ++failed;
        ++done;
        return;
      }
      auto lease = std::make_shared<Pool::Lease>(std::move(*l));
      (*lease)->query("SELECT $1::int8 AS v", std::span<const Param>(&params[i], 1), {},
                      [&, i, lease](Result<QueryResult> r) {
                        if (!r || *r->row(0).get<int64_t>(0) != i) ++failed;
                        ++done;
                      });
    });
  }
  while (done < kCount && ioc_.run_one() > 0) {
  }
  EXPECT_EQ(done, kCount);
  EXPECT_EQ(failed, 0);
  EXPECT_LE(peak, 3u);
  EXPECT_EQ(pool->stats().connects, 3u);
}

}  // namespace
}  // namespace fitz::pg
