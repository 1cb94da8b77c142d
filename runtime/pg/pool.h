// A connection pool for one URL on one io_context: connections are opened lazily up to
// max_connections, checked before reuse (a connection the server closed while idle is
// replaced), and callers beyond the limit wait in a FIFO queue with a deadline, so exhaustion
// ends in a clear error instead of a hang. Single-threaded, like the connections it holds.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "pg/async_conn.h"

namespace fitz::pg {

struct PoolOptions {
  std::size_t max_connections = 10;
  std::chrono::milliseconds acquire_timeout{5'000};  // how long a caller waits for a free connection
  AsyncOptions connection;

  // FITZ_DB_MAX_CONNS (clamped to 1..200) and FITZ_DB_POOL_TIMEOUT_MS over the defaults.
  static PoolOptions from_env();
};

struct PoolStats {
  uint64_t connects = 0;         // connections opened
  uint64_t connect_failures = 0;
  uint64_t replaced = 0;         // discarded because broken, closed by the server or mid-transaction
  uint64_t timeouts = 0;         // callers that gave up waiting
};

class Pool : public std::enable_shared_from_this<Pool> {
 public:
  // Holds one connection; returns it to the pool when destroyed (or discards it when it broke
  // or was left inside a transaction).
  class Lease {
   public:
    Lease() = default;
    Lease(std::shared_ptr<Pool> pool, AsyncConnection::Ptr conn) : pool_(std::move(pool)), conn_(std::move(conn)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&& other) noexcept {
      if (this != &other) {
        release();
        pool_ = std::move(other.pool_);
        conn_ = std::move(other.conn_);
      }
      return *this;
    }
    ~Lease() { release(); }
    AsyncConnection& operator*() const { return *conn_; }
    AsyncConnection* operator->() const { return conn_.get(); }
    explicit operator bool() const { return conn_ != nullptr; }
    void release();

   private:
    std::shared_ptr<Pool> pool_;
    AsyncConnection::Ptr conn_;
  };
  using AcquireHandler = std::function<void(Result<Lease>)>;

  static std::shared_ptr<Pool> create(boost::asio::io_context& ioc, ConnInfo info, PoolOptions options = {});

  // The handler runs on the io_context, never inline.
  void acquire(AcquireHandler done);
  // Closes idle connections and fails waiters; leases still out close when returned.
  void close();

  std::size_t size() const { return open_; }  // open or opening
  std::size_t idle() const { return idle_.size(); }
  std::size_t waiting() const { return waiters_.size(); }
  const PoolStats& stats() const { return stats_; }
  const PoolOptions& options() const { return options_; }
  const ConnInfo& info() const { return info_; }

 private:
  struct Waiter {
    uint64_t id;
    AcquireHandler done;
    std::unique_ptr<boost::asio::steady_timer> timer;
  };
  Pool(boost::asio::io_context& ioc, ConnInfo info, PoolOptions options);
  void give_back(AsyncConnection::Ptr conn);
  void open_for(AcquireHandler done);
  void serve_waiters();
  void deliver(AcquireHandler done, Result<Lease> result);

  boost::asio::io_context& ioc_;
  ConnInfo info_;
  PoolOptions options_;
  std::vector<AsyncConnection::Ptr> idle_;
  std::deque<Waiter> waiters_;
  std::size_t open_ = 0;
  uint64_t next_waiter_ = 0;
  bool closed_ = false;
  PoolStats stats_;
};

}  // namespace fitz::pg
