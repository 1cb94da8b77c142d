// A small blocking connection (POSIX sockets, TCP_NODELAY, connect and I/O timeouts) that drives
// the protocol state machines against a real server. It exists to prove those machines in tests
// and tools; services use the asynchronous connection and pool. No TLS.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pg/conninfo.h"
#include "pg/error.h"
#include "pg/query.h"
#include "pg/startup.h"

namespace fitz::pg {

struct Notification {
  int32_t process_id = 0;
  std::string channel;
  std::string payload;
};

struct BlockingOptions {
  std::chrono::milliseconds connect_timeout{10'000};  // used when the ConnInfo has none
  std::chrono::milliseconds io_timeout{60'000};       // per read/write; 0 disables
  std::size_t statement_cache_capacity = 256;
  std::string scram_nonce;                            // tests only; empty = random
};

class BlockingConnection {
 public:
  // Connects, authenticates and waits for ReadyForQuery, trying the servers of the host list in
  // order until one fits target_session_attrs. sslmode require/verify-* is refused.
  static Result<BlockingConnection> connect(const ConnInfo& info, BlockingOptions options = {});
  static Result<BlockingConnection> connect(std::string_view url, BlockingOptions options = {});

  BlockingConnection(BlockingConnection&& other) noexcept;
  BlockingConnection& operator=(BlockingConnection&& other) noexcept;
  BlockingConnection(const BlockingConnection&) = delete;
  BlockingConnection& operator=(const BlockingConnection&) = delete;
  ~BlockingConnection();  // sends Terminate and closes

  // The simple protocol (text results, several statements allowed).
  Result<std::vector<QueryResult>> simple_query(std::string_view sql);
  // One extended-protocol round trip with a cached prepared statement.
  Result<QueryResult> query(std::string_view sql, std::span<const Param> params = {}, QueryOptions options = {});
  // query() returning the affected row count (0 when the tag has none).
  Result<uint64_t> execute(std::string_view sql, std::span<const Param> params = {});

  // Asks the server, over a second connection, to cancel the running query.
  Status cancel();
  void close();
  bool is_closed() const { return fd_ < 0; }

  const SessionInfo& session() const { return session_; }
  TransactionStatus transaction_status() const { return session_.status; }
  StatementCache& statement_cache() { return cache_; }
  // The bytes of the last request written, for tests that assert on what went over the wire.
  const std::string& last_request() const { return last_request_; }
  std::vector<NoticeFields> take_notices() { return std::exchange(notices_, {}); }
  std::vector<Notification> take_notifications() { return std::exchange(notifications_, {}); }

 private:
  BlockingConnection(int fd, ConnInfo info, BlockingOptions options);
  static Result<BlockingConnection> connect_one(const ConnInfo& info, const BlockingOptions& options,
                                                TargetSessionAttrs want);

  template <class Flow>
  Status drive(Flow& flow, std::string& out);
  Status write_all(std::string_view bytes);
  Status read_some();
  Error broken(Error error);

  int fd_ = -1;
  ConnInfo info_;
  BlockingOptions options_;
  MessageReader reader_;
  SessionInfo session_;
  StatementCache cache_;
  std::string last_request_;
  std::vector<NoticeFields> notices_;
  std::vector<Notification> notifications_;
};

}  // namespace fitz::pg
