// The asynchronous connection: a thin Asio runner over the protocol state machines (startup,
// extended and simple query). Requests are encoded as they are submitted and written in one
// write per batch, so independent queries pipeline; replies are matched to requests in order.
// One connection belongs to one io_context and is used from that thread only.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pg/conninfo.h"
#include "pg/error.h"
#include "pg/query.h"
#include "pg/startup.h"

namespace fitz::pg {

struct AsyncOptions {
  std::chrono::milliseconds connect_timeout{5'000};  // used when the ConnInfo has none
  std::size_t statement_cache_capacity = 256;
};

class Transport;

class AsyncConnection : public std::enable_shared_from_this<AsyncConnection> {
 public:
  using Ptr = std::shared_ptr<AsyncConnection>;
  using ConnectHandler = std::function<void(Result<Ptr>)>;
  using QueryHandler = std::function<void(Result<QueryResult>)>;
  using SimpleHandler = std::function<void(Result<std::vector<QueryResult>>)>;
  using StatusHandler = std::function<void(Status)>;

  // Resolves, connects (TCP_NODELAY, or a Unix socket), negotiates TLS as sslmode asks,
  // authenticates and waits for ReadyForQuery. The handler runs on `ioc`, never inline.
  static void connect(boost::asio::io_context& ioc, ConnInfo info, AsyncOptions options, ConnectHandler done);

  ~AsyncConnection();
  AsyncConnection(const AsyncConnection&) = delete;
  AsyncConnection& operator=(const AsyncConnection&) = delete;

  // One extended-protocol round (Parse only when the statement is not cached yet). Rounds
  // submitted before earlier ones complete are pipelined. Handlers run in submission order.
  void query(std::string_view sql, std::span<const Param> params, QueryOptions options, QueryHandler done);
  void simple_query(std::string_view sql, SimpleHandler done);
  // Asks the server, over a second connection, to cancel what this session is running.
  void cancel(StatusHandler done);
  // Sends Terminate and closes; pending requests fail.
  void close();

  // LISTEN: `h` receives every notification (NotificationResponse), and the connection keeps
  // reading while idle so they arrive without a request pending.
  using NotificationHandler = std::function<void(std::string_view channel, std::string_view payload)>;
  void on_notification(NotificationHandler h);

  bool is_broken() const { return broken_.has_value(); }
  const Error* broken_error() const { return broken_ ? &*broken_ : nullptr; }
  bool idle() const { return pending_.empty(); }
  std::size_t in_flight() const { return pending_.size(); }
  // For an idle connection: reads, without blocking, anything the server sent while it sat
  // unused. False (and the connection is marked broken) when the server closed it or reported
  // a fatal error, as after pg_terminate_backend.
  bool check_alive();
  // False once the server reported (ParameterStatus) that it no longer is what the connection
  // string's target_session_attrs asked for, e.g. default_transaction_read_only turned on.
  bool fits_target() const;

  const SessionInfo& session() const { return session_; }
  TransactionStatus transaction_status() const { return session_.status; }
  StatementCache& statement_cache() { return cache_; }
  bool tls() const;
  // Number of socket writes issued, for tests asserting one write per round.
  uint64_t writes() const { return writes_; }
  const ConnInfo& info() const { return info_; }

 private:
  struct Op;
  AsyncConnection(boost::asio::io_context& ioc, ConnInfo info, AsyncOptions options);

  void submit(std::unique_ptr<Op> op);
  void flush();
  void ensure_reading();
  void on_read(std::size_t n);
  void process();
  void complete_front();
  void fail_all(Error error);
  template <class F>
  void post(F&& f);

  friend class Connector;
  boost::asio::io_context& ioc_;
  ConnInfo info_;
  AsyncOptions options_;
  std::unique_ptr<Transport> transport_;
  MessageReader reader_;
  SessionInfo session_;
  StatementCache cache_;
  std::deque<std::unique_ptr<Op>> pending_;
  NotificationHandler on_notify_;
  std::string out_;   // encoded, not yet written
  std::string wbuf_;  // being written
  bool writing_ = false;
  bool reading_ = false;
  bool processing_ = false;
  uint64_t writes_ = 0;
  std::optional<Error> broken_;
};

}  // namespace fitz::pg
