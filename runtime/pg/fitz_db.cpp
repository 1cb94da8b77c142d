// The `db` module and `DbConn`: pools per URL and event loop, leases, query/exec/transaction as
// Fitz tasks awaiting the asynchronous connection, and FITZ_DB_LOG. Generated code reaches all
// of it through Any (`fitz::any_method(conn, "query", ...)`), see fitz/db.h.
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "fitz/db.h"
#include "fitz/orm_wire.h"
#include "pg/codecs.h"
#include "pg/fitz_db_internal.h"
#include "pg/fitz_db_timeout.h"
#include "pg/pool.h"
#include "pg/task_await.h"

namespace fitz::db {

using detail::AnyObj;
using detail::ObjKind;

namespace {

// A program that links the `db` module runs its main thread on an Asio loop from the start.
const bool kProgramLoopInstalled = (install_program_loop(), true);

// ---- FITZ_DB_LOG ----------------------------------------------------------------------------

enum class LogLevel : uint8_t { Off, On, Verbose };

LogLevel log_level() {
  static const LogLevel level = [] {
    const char* v = std::getenv("FITZ_DB_LOG");
    if (!v || !*v || std::string_view(v) == "0" || std::string_view(v) == "false") return LogLevel::Off;
    return std::string_view(v) == "verbose" ? LogLevel::Verbose : LogLevel::On;
  }();
  return level;
}

std::string render_param(const pg::Param& p) {
  if (!p.value) return "NULL";
  if (p.format == pg::Format::Text) {
    std::string quoted = "'";
    quoted.append(*p.value);
    quoted.push_back('\'');
    return quoted;
  }
  switch (p.type) {
    case pg::oid::kInt8:
      if (auto v = pg::Codec<int64_t>::decode_binary(*p.value)) return std::to_string(*v);
      break;
    case pg::oid::kFloat8:
      if (auto v = pg::Codec<double>::decode_binary(*p.value)) return pg::format_float(*v);
      break;
    case pg::oid::kBool:
      if (auto v = pg::Codec<bool>::decode_binary(*p.value)) return *v ? "true" : "false";
      break;
    default: break;
  }
  std::string shown = pg::type_name(p.type);
  shown.insert(shown.begin(), '<');
  shown.push_back('>');
  return shown;
}

// `[fitz-db 1.2ms] SQL`, plus the parameters when verbose; the error when the round failed.
void log_round(std::string_view sql, const std::vector<pg::Param>& params,
               std::chrono::steady_clock::time_point start, const pg::Error* error) {
  if (log_level() == LogLevel::Off) return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  char head[48];
  std::snprintf(head, sizeof head, "[fitz-db %.1fms] ", ms);
  std::string line = head;
  line.append(sql);
  if (log_level() == LogLevel::Verbose && !params.empty()) {
    line += "  -- ";
    for (std::size_t i = 0; i < params.size(); ++i)
      line += (i ? ", $" : "$") + std::to_string(i + 1) + " = " + render_param(params[i]);
  }
  if (error) line += "  => " + std_of(error_text(*error));
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

// ---- pools ----------------------------------------------------------------------------------

// One pool per URL and event loop: connections belong to the loop that reads them, so each
// HTTP worker (and the main thread) has its own pool of up to FITZ_DB_MAX_CONNS connections.
Result<std::shared_ptr<pg::Pool>, Str> pool_for(const Str& url) {
  thread_local std::unordered_map<std::string, std::shared_ptr<pg::Pool>> pools;
  boost::asio::io_context& ioc = loop_context();
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(&ioc)) + ' ' + std_of(url);
  if (auto it = pools.find(key); it != pools.end()) return Result<std::shared_ptr<pg::Pool>, Str>::ok(it->second);
  auto info = pg::parse_conninfo(std_of(url));
  if (!info) return Result<std::shared_ptr<pg::Pool>, Str>::err(Str::from("invalid database URL: " + info.error().message));
  auto pool = pg::Pool::create(ioc, std::move(*info), pg::PoolOptions::from_env());
  pools.emplace(std::move(key), pool);
  return Result<std::shared_ptr<pg::Pool>, Str>::ok(std::move(pool));
}

// ---- awaiting callbacks from Fitz tasks: pg/task_await.h ---------------------------------------
using pg::AcquireAwait;
using pg::RoundAwait;
using pg::SimpleAwait;

// ---- DbConn ---------------------------------------------------------------------------------

// A DbConn holds a pooled connection only while it has work: from db.connect until its first
// round, while rounds are in flight, and inside a transaction (its own, or one the program
// opened with BEGIN). In between the connection goes back to the pool, so a DbConn kept in a
// variable (locals live for the whole function) never starves other tasks of connections.
struct ConnState {
  std::shared_ptr<pg::Pool> pool;
  pg::Pool::Lease lease;
  int in_flight = 0;
  bool closed = false;
  bool in_transaction = false;

  pg::AsyncConnection* conn() { return closed || !lease ? nullptr : &*lease; }
  void settle() {
    if (!lease || in_flight > 0 || in_transaction) return;
    if (lease->is_broken() || lease->transaction_status() == pg::TransactionStatus::Idle) lease.release();
  }
};

Str closed_text() { return Str::lit("the connection was closed"); }

// Leases a connection for this DbConn unless it holds one.
Task<Result<Null, Str>> hold_connection(std::shared_ptr<ConnState> st) {
  using R = Result<Null, Str>;
  if (st->closed) co_return R::err(closed_text());
  if (st->lease) co_return R::ok(Null{});
  AcquireAwait acquire{st->pool, std::nullopt};
  pg::Result<pg::Pool::Lease> lease = co_await acquire;
  if (!lease) co_return R::err(acquire_error_text(lease.error()));
  if (st->closed) co_return R::err(closed_text());
  if (!st->lease) st->lease = std::move(*lease);  // else a concurrent round got one first
  co_return R::ok(Null{});
}

using Rows = std::shared_ptr<const pg::QueryResult>;

// One extended-protocol round on this DbConn's connection, with `formats` per result column
// (empty: every column in text).
Task<Result<Rows, Str>> run_typed_round(std::shared_ptr<ConnState> st, std::string sql, std::vector<pg::Param> params,
                                        std::vector<pg::Format> formats) {
  using R = Result<Rows, Str>;
  Task<Result<Null, Str>> hold = hold_connection(st);
  Result<Null, Str> held = co_await hold;
  if (!held.is_ok()) co_return R::err(held.error());
  ++st->in_flight;
  auto start = std::chrono::steady_clock::now();
  RoundAwait round{&*st->lease, sql, params, std::nullopt};
  round.result_formats = formats;
  StatementDeadline deadline(loop_context(), *st->lease);
  pg::Result<pg::QueryResult> r = co_await round;
  --st->in_flight;
  log_round(sql, params, start, r ? nullptr : &r.error());
  // The statement ended on its own just as its cancel went out: the CancelRequest may still
  // reach the server and stop whatever the connection runs next, so it runs nothing more.
  // (Inside a transaction the connection cannot be swapped; the race stays, as in libpq.)
  bool stray_cancel = deadline.cancel_sent() && (r || r.error().sqlstate != "57014");
  if (stray_cancel && st->in_flight == 0 && !st->in_transaction && st->lease) st->lease->close();
  st->settle();
  if (!r) co_return R::err(deadline.error_text(r.error()));
  co_return R::ok(std::make_shared<const pg::QueryResult>(std::move(*r)));
}

// The `DbConn.query`/`exec` round: parameters converted from their Any values.
Task<Result<Rows, Str>> run_round(std::shared_ptr<ConnState> st, std::string sql, Any args) {
  using R = Result<Rows, Str>;
  auto params = params_from_any(args);
  if (!params.is_ok()) co_return R::err(params.error());
  Task<Result<Rows, Str>> round = run_typed_round(std::move(st), std::move(sql), std::move(params.value()), {});
  co_return co_await round;
}

Task<Result<List<Any>, Str>> query_task(std::shared_ptr<ConnState> st, std::string sql, Any args) {
  using R = Result<List<Any>, Str>;
  Task<Result<Rows, Str>> round = run_round(std::move(st), std::move(sql), std::move(args));
  Result<Rows, Str> r = co_await round;
  if (!r.is_ok()) co_return R::err(r.error());
  const Rows& result = r.value();
  List<Any> rows = List<Any>::with_capacity(int64_t(result->size()));
  for (std::size_t i = 0; i < result->size(); ++i) rows.push(make_row(result, i));
  co_return R::ok(std::move(rows));
}

Task<Result<int64_t, Str>> exec_task(std::shared_ptr<ConnState> st, std::string sql, Any args) {
  using R = Result<int64_t, Str>;
  Task<Result<Rows, Str>> round = run_round(std::move(st), std::move(sql), std::move(args));
  Result<Rows, Str> r = co_await round;
  if (!r.is_ok()) co_return R::err(r.error());
  co_return R::ok(int64_t(r.value()->rows_affected.value_or(0)));
}

Any err_any(Str message) { return to_any(Result<Any, Str>::err(std::move(message))); }

Task<Any> transaction_task(std::shared_ptr<ConnState> st, Any body, SourcePos pos);

class ConnBox final : public AnyObj {
 public:
  explicit ConnBox(std::shared_ptr<ConnState> st) : st_(std::move(st)) {}
  const std::shared_ptr<ConnState>& state() const { return st_; }
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<ConnBox>(); }
  void type_name(Buf& b) const override { b.lit("DbConn"); }
  void show(Buf& b, bool) const override { b.append_cstr(st_->closed ? "<DbConn closed>" : "<DbConn>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    if ((m == "query" || m == "exec") && (n == 1 || n == 2)) {
      if (!args[0].is_str()) runtime_error(pos, Str::from("DbConn." + std::string(m) + ": the SQL must be a Str"));
      std::string sql = std_of(args[0].str_value());
      Any params = n == 2 ? args[1] : Any();
      *out = m == "query" ? to_any(query_task(st_, std::move(sql), std::move(params)))
                          : to_any(exec_task(st_, std::move(sql), std::move(params)));
      return true;
    }
    if (m == "close" && n == 0) {
      st_->closed = true;
      st_->lease.release();
      *out = Any();
      return true;
    }
    if (m == "is_closed" && n == 0) {
      *out = Any(st_->closed || (st_->lease && st_->lease->is_broken()));
      return true;
    }
    if (m == "transaction" && n == 1) {
      *out = to_any(transaction_task(st_, args[0], pos));
      return true;
    }
    return false;
  }

 private:
  std::shared_ptr<ConnState> st_;
};

// BEGIN; the body with `tx` (this same connection); COMMIT when it returns Ok, ROLLBACK when it
// returns Err or raises a runtime error (which then propagates). A body that returned Ok after
// one of its statements failed is rolled back too: Postgres would refuse the COMMIT anyway.
Task<Any> transaction_task(std::shared_ptr<ConnState> st, Any body, SourcePos pos) {
  if (st->in_transaction) co_return err_any(Str::lit("nested transactions are not supported"));
  Task<Result<Null, Str>> hold = hold_connection(st);
  Result<Null, Str> held = co_await hold;
  if (!held.is_ok()) co_return err_any(held.error());
  st->in_transaction = true;  // keeps the connection leased until COMMIT or ROLLBACK
  SimpleAwait begin{st->conn(), "BEGIN", std::nullopt};
  pg::Status begun = co_await begin;
  if (!begun) {
    st->in_transaction = false;
    st->settle();
    co_return err_any(error_text(begun.error()));
  }
  Any result;
  std::optional<Panic> failure;
  try {
    Any task = any_call(body, {Any(new ConnBox(st))}, pos);
    Task<Any> body_done = any_await(task, pos);
    result = co_await body_done;
  } catch (Panic& p) {
    failure.emplace(std::move(p));
  }
  pg::AsyncConnection* conn = st->conn();
  bool ok = !failure && result.is_kind(ObjKind::Result) && result.obj()->is_ok();
  if (ok && conn && conn->transaction_status() != pg::TransactionStatus::Failed) {
    SimpleAwait commit{conn, "COMMIT", std::nullopt};
    pg::Status committed = co_await commit;
    st->in_transaction = false;
    st->settle();
    if (!committed) co_return err_any(error_text(committed.error()));
    co_return result;
  }
  if (conn) {
    SimpleAwait rollback{conn, "ROLLBACK", std::nullopt};
    (void)co_await rollback;
  }
  st->in_transaction = false;
  st->settle();
  if (failure) raise_panic(std::move(*failure));
  if (ok) co_return err_any(Str::lit("the transaction was rolled back: a statement in it failed"));
  if (!conn && !result.is_kind(ObjKind::Result)) co_return err_any(closed_text());
  co_return result;
}

Task<Result<Any, Str>> connect_task(Str url) {
  using R = Result<Any, Str>;
  auto pool = pool_for(url);
  if (!pool.is_ok()) co_return R::err(pool.error());
  AcquireAwait acquire{pool.value(), std::nullopt};
  pg::Result<pg::Pool::Lease> lease = co_await acquire;
  if (!lease) co_return R::err(acquire_error_text(lease.error()));
  auto st = std::make_shared<ConnState>();
  st->pool = pool.value();
  st->lease = std::move(*lease);
  co_return R::ok(Any(new ConnBox(std::move(st))));
}

// ---- the `db` value ---------------------------------------------------------------------------

class ModuleBox final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<ModuleBox>(); }
  void type_name(Buf& b) const override { b.lit("Db"); }
  void show(Buf& b, bool) const override { b.lit("<db>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (std::string_view(name) == "connect" && n == 1) {
      if (!args[0].is_str()) runtime_error(pos, "db.connect: the URL must be a Str");
      *out = to_any(connect_task(args[0].str_value()));
      return true;
    }
    return false;
  }
};

// The ORM's typed round (fitz/orm_wire.h): `conn` must be a DbConn.
Task<Result<orm::WireRows, Str>> wire_round(Any conn, std::string sql, orm::WireParams wire, const uint8_t* formats,
                                            size_t format_count, SourcePos pos) {
  using R = Result<orm::WireRows, Str>;
  auto* box = conn.is_kind(ObjKind::Struct) ? dynamic_cast<ConnBox*>(conn.obj()) : nullptr;
  if (!box) runtime_error(pos, Str::from("an ORM query needs a DbConn, got " + std_of(conn.type_name())));
  std::vector<pg::Param> params;
  params.reserve(wire.size());
  for (orm::WireParam& w : wire) {
    pg::Param p;
    p.type = w.oid;
    p.format = w.binary ? pg::Format::Binary : pg::Format::Text;
    if (!w.null) p.value = std::move(w.bytes);
    params.push_back(std::move(p));
  }
  std::vector<pg::Format> fmts;
  fmts.reserve(format_count);
  for (size_t i = 0; i < format_count; ++i) fmts.push_back(formats[i] ? pg::Format::Binary : pg::Format::Text);
  Task<Result<Rows, Str>> round = run_typed_round(box->state(), std::move(sql), std::move(params), std::move(fmts));
  Result<Rows, Str> r = co_await round;
  if (!r.is_ok()) co_return R::err(r.error());
  co_return R::ok(wire_rows(r.value()));
}

}  // namespace
}  // namespace fitz::db

namespace fitz::orm {

Task<Result<WireRows, Str>> wire_query(Any conn, const char* sql, WireParams params, const uint8_t* formats,
                                       size_t format_count, SourcePos pos) {
  return db::wire_round(std::move(conn), std::string(sql), std::move(params), formats, format_count, pos);
}

}  // namespace fitz::orm

namespace fitz {

Any db_module() {
  (void)db::kProgramLoopInstalled;
  thread_local Any module(new db::ModuleBox());
  return module;
}

}  // namespace fitz
