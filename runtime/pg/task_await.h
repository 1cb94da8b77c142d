// Awaiters that let a Fitz task (fitz/task.h) wait for the pool and the connection, shared by
// the runtime's db module and code written by hand against runtime/pg.
//
// Awaiters are always named locals: GCC 12 destroys a temporary awaiter with members twice.
// The callbacks run on the loop's thread, inside the connection's or pool's own handlers; the
// awaiting coroutine is resumed through the scheduler instead of inline, so whatever it does
// next (return the lease, query again, close) never re-enters the code that called back.
#pragma once

#include <coroutine>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fitz/task.h"
#include "pg/pool.h"

namespace fitz::pg {

struct AcquireAwait {
  std::shared_ptr<Pool> pool;
  std::optional<Result<Pool::Lease>> result;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    pool->acquire([this, h](Result<Pool::Lease> r) {
      result.emplace(std::move(r));
      scheduler().post(h);
    });
  }
  Result<Pool::Lease> await_resume() { return std::move(*result); }
};

// One extended-protocol round, with text results unless `result_formats` asks otherwise:
// every value has a text form, and cells decode by type.
struct RoundAwait {
  AsyncConnection* conn;
  std::string_view sql;
  std::span<const Param> params;
  std::optional<Result<QueryResult>> result;
  // Per result column (empty: all text); the ORM's typed rounds read numbers in binary.
  std::span<const Format> result_formats = {};
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    QueryOptions options;
    options.result_format = Format::Text;
    options.result_formats = result_formats;
    conn->query(sql, params, options, [this, h](Result<QueryResult> r) {
      result.emplace(std::move(r));
      scheduler().post(h);
    });
  }
  Result<QueryResult> await_resume() { return std::move(*result); }
};

struct SimpleAwait {
  AsyncConnection* conn;
  std::string sql;
  std::optional<Status> result;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    conn->simple_query(sql, [this, h](Result<std::vector<QueryResult>> r) {
      if (r)
        result.emplace();
      else
        result.emplace(std::move(r).error());
      scheduler().post(h);
    });
  }
  Status await_resume() { return std::move(*result); }
};

}  // namespace fitz::pg
