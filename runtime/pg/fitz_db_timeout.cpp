// The client-side statement deadline of the db module: a timer per round that first asks the
// server to cancel, then, if the server stays silent, closes the connection.
#include "pg/fitz_db_timeout.h"

#include <boost/asio/steady_timer.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pg/fitz_db_internal.h"

namespace fitz::db {

namespace asio = boost::asio;

std::chrono::milliseconds statement_timeout() {
  static const std::chrono::milliseconds limit = [] {
    const char* v = std::getenv("FITZ_DB_STATEMENT_TIMEOUT_MS");
    if (!v || !*v) return std::chrono::milliseconds(0);
    char* end = nullptr;
    long long n = std::strtoll(v, &end, 10);
    if (*end != '\0' || n < 0) {
      std::fprintf(stderr, "warning: FITZ_DB_STATEMENT_TIMEOUT_MS=%s is not a whole number of milliseconds; "
                           "statements have no time limit\n", v);
      return std::chrono::milliseconds(0);
    }
    return std::chrono::milliseconds(n);
  }();
  return limit;
}

struct StatementDeadline::State {
  explicit State(asio::io_context& ioc) : timer(ioc) {}
  asio::steady_timer timer;
  std::weak_ptr<pg::AsyncConnection> conn;
  bool cancelled = false;  // the CancelRequest was sent
  bool closed = false;     // the server did not answer it either; the connection was closed
  bool finished = false;   // the round is over
};

namespace {

// How long the server gets to answer a CancelRequest before the connection is given up.
std::chrono::milliseconds grace(std::chrono::milliseconds limit) {
  return std::max(limit, std::chrono::milliseconds(1'000));
}

std::string limit_text() { return "FITZ_DB_STATEMENT_TIMEOUT_MS (" + std::to_string(statement_timeout().count()) + " ms)"; }

}  // namespace

StatementDeadline::StatementDeadline(asio::io_context& ioc, pg::AsyncConnection& conn) {
  std::chrono::milliseconds limit = statement_timeout();
  if (limit.count() == 0) return;
  state_ = std::make_shared<State>(ioc);
  state_->conn = conn.shared_from_this();
  state_->timer.expires_after(limit);
  // The handlers hold the state until they run; the destructor cancels the timer, so they run
  // at once with an error and let it go.
  state_->timer.async_wait([s = state_, limit](const boost::system::error_code& ec) {
    if (ec || s->finished) return;
    auto c = s->conn.lock();
    // An idle connection already answered; its round's completion is on its way.
    if (!c || c->is_broken() || c->idle()) return;
    s->cancelled = true;
    c->cancel([](pg::Status) {});  // a failed cancel is covered by the close below
    s->timer.expires_after(grace(limit));
    s->timer.async_wait([s](const boost::system::error_code& ec2) {
      if (ec2 || s->finished) return;
      auto c2 = s->conn.lock();
      if (!c2 || c2->is_broken() || c2->idle()) return;
      s->closed = true;
      c2->close();
    });
  });
}

StatementDeadline::~StatementDeadline() {
  if (!state_) return;
  state_->finished = true;
  state_->timer.cancel();
}

bool StatementDeadline::cancel_sent() const { return state_ && state_->cancelled; }

Str StatementDeadline::error_text(const pg::Error& error) const {
  if (state_ && state_->closed)
    return unavailable_text("the statement ran longer than " + limit_text() +
                            " and the server did not answer its cancellation; the connection was closed");
  if (state_ && state_->cancelled && error.sqlstate == "57014")
    return Str::from("ERROR: the statement ran longer than " + limit_text() + " and was cancelled (SQLSTATE 57014)");
  return db::error_text(error);
}

}  // namespace fitz::db
