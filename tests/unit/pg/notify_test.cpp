// LISTEN on the asynchronous connection (what WebSocket broadcasts across replicas use): an idle
// listening connection receives notifications sent from another session, in order, and one
// with queries in flight receives them too.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "pg/async_conn.h"
#include "pg/blocking_conn.h"

namespace fitz::pg {
namespace {

namespace asio = boost::asio;

TEST(PgNotify, IdleListenerReceivesNotificationsInOrder) {
  const char* url = std::getenv("FITZ_TEST_DATABASE_URL");
  ASSERT_TRUE(url && *url) << "FITZ_TEST_DATABASE_URL is not set (scripts/pg-local.sh start)";
  auto info = parse_conninfo(url);
  ASSERT_TRUE(info.ok());
  asio::io_context ioc;
  std::optional<Result<AsyncConnection::Ptr>> c;
  AsyncConnection::connect(ioc, *info, {}, [&](Result<AsyncConnection::Ptr> r) { c.emplace(std::move(r)); });
  while (!c && ioc.run_one()) {
  }
  ASSERT_TRUE(c && c->ok());
  AsyncConnection::Ptr listener = **c;
  std::vector<std::string> got;
  listener->on_notification([&](std::string_view channel, std::string_view payload) {
    if (channel == "fitz_notify_test") got.emplace_back(payload);
  });
  bool listening = false;
  listener->simple_query("LISTEN fitz_notify_test", [&](Result<std::vector<QueryResult>> r) {
    EXPECT_TRUE(r.ok());
    listening = true;
  });
  while (!listening && ioc.run_one()) {
  }
  ASSERT_TRUE(listening);

  auto sender = BlockingConnection::connect(url);
  ASSERT_TRUE(sender.ok()) << sender.error().to_string();
  for (const char* p : {"one", "two", "three"}) {
    Param params[1] = {Param::text(p)};
    ASSERT_TRUE(sender->query("SELECT pg_notify('fitz_notify_test', $1)", params).ok());
  }
  // No request is pending on the listener: the notifications arrive through its idle read.
  for (int i = 0; i < 1000 && got.size() < 3; ++i) ioc.run_one_for(std::chrono::milliseconds(10));
  EXPECT_EQ(got, (std::vector<std::string>{"one", "two", "three"}));

  // With a query in flight, a notification is delivered and the query completes normally.
  std::optional<Result<QueryResult>> q;
  listener->query("SELECT pg_sleep(0.2)", {}, {}, [&](Result<QueryResult> r) { q.emplace(std::move(r)); });
  Param params[1] = {Param::text("four")};
  ASSERT_TRUE(sender->query("SELECT pg_notify('fitz_notify_test', $1)", params).ok());
  for (int i = 0; i < 1000 && (!q || got.size() < 4); ++i) ioc.run_one_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(q.has_value());
  EXPECT_TRUE(q->ok());
  EXPECT_EQ(got.size(), 4u);
  if (got.size() == 4) EXPECT_EQ(got[3], "four");
  listener->close();
}

}  // namespace
}  // namespace fitz::pg
