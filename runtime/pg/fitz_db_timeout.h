// FITZ_DB_STATEMENT_TIMEOUT_MS: a limit, kept by the client, on how long one statement of the db
// module may run. When it passes, the client sends a CancelRequest (over a second connection,
// as Postgres requires), so the server stops the statement and the round fails with SQLSTATE
// 57014 while the connection stays usable. A server that does not answer the cancellation
// either (a stalled backend, a network that dropped the session) gets the connection closed
// after a grace period, so the caller sees "database unavailable" instead of waiting forever.
// The server's own `statement_timeout` (through the URL's `options`) works too; this one also
// covers a server that is not answering at all.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <memory>

#include "fitz/runtime.h"
#include "pg/async_conn.h"

namespace fitz::db {

// The limit of FITZ_DB_STATEMENT_TIMEOUT_MS, read once; zero (no limit) when unset or 0. A value
// that is not a whole number of milliseconds is reported on stderr once and ignored.
std::chrono::milliseconds statement_timeout();

// Armed for one round on `conn` while it is in scope (nothing when there is no limit). The
// CancelRequest reaches whatever the session runs at that moment: with several rounds of one
// DbConn pipelined, the one running when the limit passes is the one stopped.
class StatementDeadline {
 public:
  StatementDeadline(boost::asio::io_context& ioc, pg::AsyncConnection& conn);
  ~StatementDeadline();
  StatementDeadline(const StatementDeadline&) = delete;
  StatementDeadline& operator=(const StatementDeadline&) = delete;

  // The Err text of a round that failed with `error`, saying so when this deadline stopped it.
  Str error_text(const pg::Error& error) const;
  // Whether a CancelRequest was sent for this round.
  bool cancel_sent() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace fitz::db
