// The pool's bookkeeping: `open_` counts connections that exist or are being opened, idle ones
// wait in a stack (most recently used first, so a small working set stays warm), and waiters
// get a connection in arrival order when one is returned or capacity frees up.
#include "pg/pool.h"

#include <boost/asio/post.hpp>
#include <cstdlib>
#include <string>

namespace fitz::pg {

namespace asio = boost::asio;

namespace {

std::optional<long long> env_number(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  if (*end != '\0') return std::nullopt;
  return n;
}

}  // namespace

PoolOptions PoolOptions::from_env() {
  PoolOptions o;
  if (auto n = env_number("FITZ_DB_MAX_CONNS")) o.max_connections = static_cast<std::size_t>(std::clamp(*n, 1LL, 200LL));
  if (auto n = env_number("FITZ_DB_POOL_TIMEOUT_MS"); n && *n > 0) o.acquire_timeout = std::chrono::milliseconds(*n);
  return o;
}

void Pool::Lease::release() {
  if (pool_ && conn_) pool_->give_back(std::move(conn_));
  conn_.reset();
  pool_.reset();
}

Pool::Pool(asio::io_context& ioc, ConnInfo info, PoolOptions options)
    : ioc_(ioc), info_(std::move(info)), options_(std::move(options)) {
  if (options_.max_connections == 0) options_.max_connections = 1;
}

std::shared_ptr<Pool> Pool::create(asio::io_context& ioc, ConnInfo info, PoolOptions options) {
  return std::shared_ptr<Pool>(new Pool(ioc, std::move(info), std::move(options)));
}

void Pool::deliver(AcquireHandler done, Result<Lease> result) {
  asio::post(ioc_, [done = std::move(done), result = std::make_shared<Result<Lease>>(std::move(result))]() mutable {
    done(std::move(*result));
  });
}

void Pool::acquire(AcquireHandler done) {
  if (closed_)
    return deliver(std::move(done), Error::make(ErrorKind::Io, sqlstate::kConnectionFailure, "the pool is closed"));
  while (!idle_.empty()) {
    AsyncConnection::Ptr conn = std::move(idle_.back());
    idle_.pop_back();
    if (conn->check_alive() && conn->fits_target())
      return deliver(std::move(done), Lease(shared_from_this(), std::move(conn)));
    // Closed by the server while idle, or its server is no longer the kind the URL asks for
    // (a primary turned read-only): the next connection goes through the host list again.
    if (!conn->is_broken()) conn->close();
    --open_;
    ++stats_.replaced;
  }
  if (open_ < options_.max_connections) return open_for(std::move(done));

  uint64_t id = next_waiter_++;
  auto timer = std::make_unique<asio::steady_timer>(ioc_, options_.acquire_timeout);
  timer->async_wait([weak = weak_from_this(), id](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self) return;
    for (auto it = self->waiters_.begin(); it != self->waiters_.end(); ++it) {
      if (it->id != id) continue;
      AcquireHandler done = std::move(it->done);
      self->waiters_.erase(it);
      ++self->stats_.timeouts;
      done(Error::make(ErrorKind::Io, sqlstate::kConnectionFailure,
                       "timed out after " + std::to_string(self->options_.acquire_timeout.count()) +
                           " ms waiting for a free database connection (all " +
                           std::to_string(self->options_.max_connections) +
                           " connections of the pool are busy; FITZ_DB_MAX_CONNS sets the limit)"));
      return;
    }
  });
  waiters_.push_back(Waiter{id, std::move(done), std::move(timer)});
}

void Pool::open_for(AcquireHandler done) {
  ++open_;
  AsyncConnection::connect(ioc_, info_, options_.connection,
                           [self = shared_from_this(), done = std::move(done)](Result<AsyncConnection::Ptr> r) {
                             if (!r) {
                               --self->open_;
                               ++self->stats_.connect_failures;
                               done(std::move(r).error());
                               self->serve_waiters();
                               return;
                             }
                             ++self->stats_.connects;
                             if (self->closed_) {
                               (*r)->close();
                               --self->open_;
                               done(Error::make(ErrorKind::Io, sqlstate::kConnectionFailure, "the pool is closed"));
                               return;
                             }
                             done(Lease(self, std::move(*r)));
                           });
}

void Pool::give_back(AsyncConnection::Ptr conn) {
  bool reusable = !closed_ && !conn->is_broken() && conn->idle() &&
                  conn->transaction_status() == TransactionStatus::Idle && conn->fits_target();
  if (!reusable) {
    // A lease dropped inside a transaction must not hand that transaction to the next caller.
    if (!conn->is_broken()) conn->close();
    --open_;
    if (!closed_) ++stats_.replaced;
    serve_waiters();
    return;
  }
  if (!waiters_.empty()) {
    Waiter w = std::move(waiters_.front());
    waiters_.pop_front();
    w.timer->cancel();
    return deliver(std::move(w.done), Lease(shared_from_this(), std::move(conn)));
  }
  idle_.push_back(std::move(conn));
}

void Pool::serve_waiters() {
  while (!closed_ && !waiters_.empty() && open_ < options_.max_connections) {
    Waiter w = std::move(waiters_.front());
    waiters_.pop_front();
    w.timer->cancel();
    open_for(std::move(w.done));
  }
}

void Pool::close() {
  closed_ = true;
  for (auto& c : idle_) c->close();
  open_ -= idle_.size();
  idle_.clear();
  auto waiters = std::move(waiters_);
  waiters_.clear();
  for (auto& w : waiters) {
    w.timer->cancel();
    deliver(std::move(w.done), Error::make(ErrorKind::Io, sqlstate::kConnectionFailure, "the pool is closed"));
  }
}

}  // namespace fitz::pg
