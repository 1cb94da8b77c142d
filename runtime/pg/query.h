// Query flows as state machines without I/O: ExtendedQuery (Parse/Bind/Describe/Execute/Sync in
// one buffer, with per-connection prepared statements from a StatementCache) and SimpleQuery.
// Results own their bytes (QueryResult, RowSet) so they outlive the connection's read buffer.
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pg/codecs.h"
#include "pg/error.h"
#include "pg/messages.h"

namespace fitz::pg {

struct Column {
  std::string name;
  Oid type_oid = 0;
  Oid table_oid = 0;
  int16_t column_id = 0;
  int16_t type_size = 0;
  int32_t type_modifier = 0;
  Format format = Format::Text;
};

// Rows stored in one contiguous byte buffer plus one (offset, length) cell per value.
class RowSet {
 public:
  std::size_t size() const { return columns_ == 0 ? empty_rows_ : cells_.size() / columns_; }
  bool empty() const { return size() == 0; }
  std::size_t columns() const { return columns_; }
  // Precondition: row < size(), column < columns().
  std::optional<std::string_view> value(std::size_t row, std::size_t column) const;

  void set_columns(std::size_t columns) { columns_ = columns; }
  // Copies the row's values; fails when the column count does not match.
  Status add(const DataRow& row);

 private:
  struct Cell {
    std::size_t offset;
    int64_t length;  // -1 for NULL
  };
  std::size_t columns_ = 0;
  std::size_t empty_rows_ = 0;  // rows of zero columns (SELECT with no target list)
  std::string data_;
  std::vector<Cell> cells_;
};

class QueryResult;

// One row of a QueryResult; valid while the result lives.
class Row {
 public:
  Row(const QueryResult& result, std::size_t index) : result_(&result), index_(index) {}
  std::size_t size() const;
  // The raw value (nullopt for NULL); an error when the column does not exist.
  Result<std::optional<std::string_view>> raw(std::size_t column) const;
  Result<std::optional<std::string_view>> raw(std::string_view column) const;
  template <class T>
  Result<T> get(std::size_t column) const;
  template <class T>
  Result<T> get(std::string_view column) const;

 private:
  const QueryResult* result_;
  std::size_t index_;
};

class QueryResult {
 public:
  std::vector<Column> columns;
  RowSet rows;
  std::string command_tag;              // "SELECT 3", "INSERT 0 1", ... (empty for an empty query)
  std::optional<uint64_t> rows_affected;  // from the tag when it carries a count
  bool suspended = false;               // Execute's row limit was reached (PortalSuspended)

  std::size_t size() const { return rows.size(); }
  Row row(std::size_t index) const { return Row(*this, index); }
  // Index of the first column named `name`, or nullopt.
  std::optional<std::size_t> column_index(std::string_view name) const;
};

// Per-connection prepared statements, keyed by SQL text and parameter type OIDs, least recently
// used first out. Evicted statements are queued to be closed on the server by the next query.
class StatementCache {
 public:
  explicit StatementCache(std::size_t capacity = 256) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The statement name when cached (and marks it most recently used).
  std::optional<std::string> find(std::string_view sql, std::span<const Oid> types);
  // A fresh name for a statement about to be parsed ("fitz_1", "fitz_2", ...).
  std::string next_name();
  void insert(std::string_view sql, std::span<const Oid> types, std::string name);
  void erase(std::string_view sql, std::span<const Oid> types);
  // Names of evicted statements that still exist on the server; the caller closes them.
  std::vector<std::string> take_pending_closes();
  // Puts a statement name back on the to-close queue (a round that took it was never sent).
  void defer_close(std::string name) { pending_closes_.push_back(std::move(name)); }
  void clear();
  std::size_t size() const { return map_.size(); }

 private:
  static std::string key_of(std::string_view sql, std::span<const Oid> types);
  struct Entry {
    std::string key;
    std::string name;
  };
  std::size_t capacity_;
  uint64_t counter_ = 0;
  std::list<Entry> lru_;  // front = most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> map_;
  std::vector<std::string> pending_closes_;
};

struct QueryOptions {
  Format result_format = Format::Binary;
  bool use_cache = true;  // false: unnamed statement, parsed every time
  int32_t max_rows = 0;   // 0: all rows
  // One format per result column when not empty (Bind's per-column codes), overriding
  // `result_format`. Read only while start() encodes the round, so the caller's array need
  // not outlive the call that submits it.
  std::span<const Format> result_formats = {};
};

// One extended-protocol round trip. start() appends [Close...] [Parse] Bind Describe(portal)
// Execute Sync; on_message() consumes the replies until ReadyForQuery.
class ExtendedQuery {
 public:
  ExtendedQuery(std::string_view sql, StatementCache& cache, QueryOptions options = {});

  Status start(std::span<const Param> params, std::string& out);
  Status on_message(const BackendMessage& message, std::string& out);

  bool done() const { return state_ == State::Done; }
  bool sent_parse() const { return sent_parse_; }
  TransactionStatus transaction_status() const { return transaction_status_; }
  // The rows, or the first error (server errors carry the SQL, never the parameter values).
  Result<QueryResult> take_result();

 private:
  enum class State : uint8_t { Initial, AwaitClose, AwaitParse, AwaitBind, AwaitDescribe, AwaitRows, CopyOut, AwaitReady, Done };
  void record(Error error);
  Status protocol_error(const BackendMessage& message);

  std::string sql_;
  StatementCache& cache_;
  QueryOptions options_;
  State state_ = State::Initial;
  std::vector<Oid> types_;
  std::string statement_;
  bool sent_parse_ = false;
  std::size_t pending_closes_ = 0;
  bool has_description_ = false;
  TransactionStatus transaction_status_ = TransactionStatus::Idle;
  QueryResult result_;
  std::optional<Error> error_;
};

// The simple query protocol: one Query message, possibly several statements, text results.
class SimpleQuery {
 public:
  explicit SimpleQuery(std::string_view sql) : sql_(sql) {}

  Status start(std::string& out);
  Status on_message(const BackendMessage& message, std::string& out);

  bool done() const { return done_; }
  TransactionStatus transaction_status() const { return transaction_status_; }
  // One result per statement, or the first error.
  Result<std::vector<QueryResult>> take_results();

 private:
  void record(Error error);

  std::string sql_;
  bool started_ = false;
  bool done_ = false;
  bool in_copy_out_ = false;
  std::optional<QueryResult> current_;
  std::vector<QueryResult> results_;
  TransactionStatus transaction_status_ = TransactionStatus::Idle;
  std::optional<Error> error_;
};

// ---- Row accessors ------------------------------------------------------------------------

inline std::size_t Row::size() const { return result_->columns.size(); }

template <class T>
Result<T> Row::get(std::size_t column) const {
  auto value = raw(column);
  if (!value) return std::move(value).error();
  const Column& c = result_->columns[column];
  auto decoded = decode_value<T>(*value, c.format, c.type_oid);
  if (!decoded) {
    Error e = std::move(decoded).error();
    e.message = "column \"" + c.name + "\": " + e.message;
    return e;
  }
  return decoded;
}

template <class T>
Result<T> Row::get(std::string_view column) const {
  auto index = result_->column_index(column);
  if (!index)
    return Error::make(ErrorKind::Decode, sqlstate::kInvalidParameterValue,
                       "no column named \"" + std::string(column) + "\"");
  return get<T>(*index);
}

}  // namespace fitz::pg
