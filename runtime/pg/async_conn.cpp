// The runner of an open AsyncConnection: requests are encoded into one output buffer and written
// with one write in flight (so rounds submitted together leave in one write), replies feed the
// state machine at the front of the queue. Any I/O or protocol failure breaks the connection
// and fails every pending request with the same error.
#include "pg/async_conn.h"

#include <sys/socket.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>

#include "pg/session_attrs.h"
#include "pg/transport.h"

namespace fitz::pg {

namespace asio = boost::asio;

namespace {

Error io_error(const boost::system::error_code& ec, std::string_view during) {
  if (ec == asio::error::eof || ec == asio::error::connection_reset || ec == asio::error::broken_pipe)
    return Error::io("the server closed the connection");
  return Error::io(std::string(during) + " failed: " + ec.message());
}

}  // namespace

struct AsyncConnection::Op {
  std::string sql;
  std::optional<ExtendedQuery> extended;
  std::optional<SimpleQuery> simple;
  QueryHandler query_done;
  SimpleHandler simple_done;

  Status on_message(const BackendMessage& m, std::string& out) {
    return extended ? extended->on_message(m, out) : simple->on_message(m, out);
  }
  bool done() const { return extended ? extended->done() : simple->done(); }
  TransactionStatus status() const {
    return extended ? extended->transaction_status() : simple->transaction_status();
  }
  void fail(Error e) {
    if (e.sql.empty()) e.sql = sql;
    if (query_done)
      query_done(std::move(e));
    else
      simple_done(std::move(e));
  }
  // `judge` sees the round's error first and may turn it into another.
  template <class Judge>
  void finish(Judge&& judge) {
    if (extended) {
      auto r = extended->take_result();
      if (!r) return fail(judge(std::move(r).error()));
      query_done(std::move(r));
    } else {
      auto r = simple->take_results();
      if (!r) return fail(judge(std::move(r).error()));
      simple_done(std::move(r));
    }
  }
};

AsyncConnection::AsyncConnection(asio::io_context& ioc, ConnInfo info, AsyncOptions options)
    : ioc_(ioc),
      info_(std::move(info)),
      options_(std::move(options)),
      transport_(std::make_unique<Transport>(ioc)),
      cache_(options_.statement_cache_capacity) {}

AsyncConnection::~AsyncConnection() {
  if (!broken_ && transport_->is_open() && !transport_->tls) {
    // Best effort, never blocking: a polite Terminate lets the server log a clean exit.
    std::string bye;
    encode_terminate(bye);
    (void)::send(transport_->native_handle(), bye.data(), bye.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  }
  transport_->close();
}

bool AsyncConnection::tls() const { return transport_->tls != nullptr; }

template <class F>
void AsyncConnection::post(F&& f) {
  asio::post(ioc_, std::forward<F>(f));
}

void AsyncConnection::query(std::string_view sql, std::span<const Param> params, QueryOptions options,
                            QueryHandler done) {
  auto op = std::make_unique<Op>();
  op->sql = std::string(sql);
  op->query_done = std::move(done);
  if (broken_) {
    Error e = *broken_;
    post([op = std::shared_ptr<Op>(std::move(op)), e]() mutable { op->fail(std::move(e)); });
    return;
  }
  op->extended.emplace(sql, cache_, options);
  if (auto s = op->extended->start(params, out_); !s) {
    post([op = std::shared_ptr<Op>(std::move(op)), e = s.error()]() mutable { op->fail(std::move(e)); });
    return;
  }
  submit(std::move(op));
}

void AsyncConnection::simple_query(std::string_view sql, SimpleHandler done) {
  auto op = std::make_unique<Op>();
  op->sql = std::string(sql);
  op->simple_done = std::move(done);
  if (broken_) {
    Error e = *broken_;
    post([op = std::shared_ptr<Op>(std::move(op)), e]() mutable { op->fail(std::move(e)); });
    return;
  }
  op->simple.emplace(sql);
  if (auto s = op->simple->start(out_); !s) {
    post([op = std::shared_ptr<Op>(std::move(op)), e = s.error()]() mutable { op->fail(std::move(e)); });
    return;
  }
  submit(std::move(op));
}

void AsyncConnection::submit(std::unique_ptr<Op> op) {
  pending_.push_back(std::move(op));
  // Written at once when no write is in flight; otherwise it joins the next write, so rounds
  // submitted while the socket is busy leave together (pipelining).
  flush();
  ensure_reading();
}

void AsyncConnection::flush() {
  if (writing_ || out_.empty() || broken_) return;
  writing_ = true;
  wbuf_.swap(out_);
  out_.clear();
  ++writes_;
  transport_->visit([&](auto& s) {
    asio::async_write(s, asio::buffer(wbuf_),
                      [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                        self->writing_ = false;
                        self->wbuf_.clear();
                        if (ec) {
                          if (!self->broken_) self->fail_all(io_error(ec, "write"));
                          return;
                        }
                        self->flush();
                      });
  });
}

void AsyncConnection::on_notification(NotificationHandler h) {
  on_notify_ = std::move(h);
  ensure_reading();
}

void AsyncConnection::ensure_reading() {
  if (reading_ || broken_ || (pending_.empty() && !on_notify_)) return;
  reading_ = true;
  auto space = reader_.prepare(16384);
  transport_->visit([&](auto& s) {
    s.async_read_some(asio::buffer(space.data(), space.size()),
                      [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
                        self->reading_ = false;
                        if (ec) {
                          if (!self->broken_) self->fail_all(io_error(ec, "read"));
                          return;
                        }
                        self->on_read(n);
                      });
  });
}

void AsyncConnection::on_read(std::size_t n) {
  reader_.commit(n);
  process();
  ensure_reading();
}

void AsyncConnection::process() {
  auto self = shared_from_this();  // handlers may drop the last outside reference
  // Handlers run from here; one that asks whether this connection is alive must not read from
  // it while a message of the read buffer is being handled.
  processing_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{processing_};
  while (!broken_) {
    auto message = reader_.next();
    if (!message) return fail_all(std::move(message).error());
    if (!*message) break;
    const BackendMessage& m = **message;
    if (const auto* param = std::get_if<ParameterStatus>(&m))
      session_.parameters[std::string(param->name)] = std::string(param->value);
    if (const auto* note = std::get_if<NotificationResponse>(&m)) {
      if (on_notify_) on_notify_(note->channel, note->payload);
      continue;  // requests in flight ignore notifications
    }
    const auto* err = std::get_if<ErrorResponse>(&m);
    if (pending_.empty()) {
      // Between requests only notices, notifications and parameter changes are expected; an
      // error here is the server ending the session (pg_terminate_backend, shutdown).
      if (err) return fail_all(Error::from_server(err->fields));
      if (!is_async_message(m))
        return fail_all(Error::protocol("unexpected " + std::string(message_name(m)) + " with no request pending"));
      continue;
    }
    Op& op = *pending_.front();
    Status status = op.on_message(m, out_);
    if (err) {
      Error e = Error::from_server(err->fields);
      if (e.is_fatal()) return fail_all(std::move(e));
    }
    if (!status) return fail_all(std::move(status).error());
    if (!out_.empty()) flush();
    if (op.done()) complete_front();
  }
}

void AsyncConnection::complete_front() {
  std::unique_ptr<Op> op = std::move(pending_.front());
  pending_.pop_front();
  session_.status = op->status();
  std::optional<Error> unusable;
  op->finish([&](Error e) {
    if (!server_turned_read_only(e, info_.target_session_attrs, session_)) return e;
    // A server that stopped taking writes (demoted, or set read-only) is no server for this
    // connection: the round fails as a lost connection (503 from handlers), and the pool, which
    // never reuses a broken connection, connects again through the host list.
    Error lost = Error::make(ErrorKind::Io, e.sqlstate,
                             "the server at " + info_.where() +
                                 " no longer accepts writes: " + e.message);
    lost.server = e.server;
    lost.sql = e.sql;
    unusable = lost;
    return lost;
  });
  if (unusable) fail_all(std::move(*unusable));
}

void AsyncConnection::fail_all(Error error) {
  if (!broken_) broken_ = error;
  transport_->close();
  auto ops = std::move(pending_);
  pending_.clear();
  for (auto& op : ops) op->fail(error);
}

void AsyncConnection::close() {
  if (broken_) return;
  std::string bye;
  encode_terminate(bye);
  if (transport_->is_open() && !transport_->tls)
    (void)::send(transport_->native_handle(), bye.data(), bye.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  fail_all(Error::make(ErrorKind::Io, sqlstate::kConnectionFailure, "the connection was closed"));
}

bool AsyncConnection::fits_target() const { return session_still_fits(info_.target_session_attrs, session_); }

bool AsyncConnection::check_alive() {
  if (broken_) return false;
  if (!pending_.empty() || reading_ || processing_) return true;
  int fd = transport_->native_handle();
  if (transport_->tls) {
    // TLS records (session tickets) may legitimately wait unread; only a closed socket counts.
    char c;
    ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      fail_all(Error::io("the server closed the connection"));
      return false;
    }
    return true;
  }
  bool eof = false;
  for (;;) {
    auto space = reader_.prepare(4096);
    ssize_t n = ::recv(fd, space.data(), space.size(), MSG_DONTWAIT);
    if (n > 0) {
      reader_.commit(static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      eof = true;
      break;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    fail_all(Error::io(std::string("read failed: ") + std::strerror(errno)));
    return false;
  }
  process();
  if (eof && !broken_) fail_all(Error::io("the server closed the connection"));
  return !broken_;
}

}  // namespace fitz::pg
