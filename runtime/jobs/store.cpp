// The jobs' database side through the `db` module: every value is a $n parameter.
#include "jobs/store.h"

namespace fitz::jobs::store {

namespace {

Str error_of(const Any& r) {
  Buf b;
  fitz::detail::any_show(b, r.obj()->inner(), false);
  return b.take();
}

// Awaits a db-module future holding a Result and unwraps it.
Task<Result<Any, Str>> settle(Any future) {
  Any r = co_await any_await(future);
  if (r.is_kind(fitz::detail::ObjKind::Result)) {
    if (!r.obj()->is_ok()) co_return Result<Any, Str>::err(error_of(r));
    co_return Result<Any, Str>::ok(r.obj()->inner());
  }
  co_return Result<Any, Str>::ok(r);
}

Any param_list(const std::vector<Any>& params) {
  Any list = any_list({});
  for (const Any& p : params) list.obj()->push(p, {});
  return list;
}

}  // namespace

Task<Result<Any, Str>> connect(const Str& url) {
  Any fut = any_method(db_module(), "connect", {Any(url)});
  co_return co_await settle(fut);
}

Task<Result<int64_t, Str>> exec(const Any& conn, const char* sql, std::vector<Any> params) {
  Any fut = any_method(conn, "exec", {Any(Str(sql)), param_list(params)});
  Result<Any, Str> r = co_await settle(fut);
  if (!r.is_ok()) co_return Result<int64_t, Str>::err(r.error());
  co_return Result<int64_t, Str>::ok(r.value().is_int() ? r.value().int_value() : 0);
}

Task<Result<List<Any>, Str>> query(const Any& conn, const char* sql, std::vector<Any> params) {
  Any fut = any_method(conn, "query", {Any(Str(sql)), param_list(params)});
  Result<Any, Str> r = co_await settle(fut);
  if (!r.is_ok()) co_return Result<List<Any>, Str>::err(r.error());
  co_return Result<List<Any>, Str>::ok(from_any<List<Any>>(r.value()));
}

Task<Result<Null, Str>> ensure_tables(const Any& conn) {
  using R = Result<Null, Str>;
  static const char* const kStatements[] = {
      // An arbitrary constant key: the tables are created by one session at a time.
      "SELECT pg_advisory_xact_lock(7321046915)",
      "CREATE TABLE IF NOT EXISTS fitz_cron_jobs (name TEXT PRIMARY KEY, schedule TEXT NOT NULL, "
      "tz TEXT NOT NULL DEFAULT 'UTC', last_run_at TIMESTAMPTZ, last_status TEXT, last_error TEXT, "
      "next_run_at TIMESTAMPTZ)",
      "CREATE TABLE IF NOT EXISTS fitz_cron_runs (id BIGSERIAL PRIMARY KEY, job_name TEXT NOT NULL, "
      "started_at TIMESTAMPTZ NOT NULL DEFAULT now(), finished_at TIMESTAMPTZ, status TEXT NOT NULL, "
      "attempt INT NOT NULL DEFAULT 1, error TEXT)",
      // The scheduled tick a run belongs to (null for runs recorded before the column existed),
      // so "one run per tick" can be read from the table rather than inferred from start times.
      "ALTER TABLE fitz_cron_runs ADD COLUMN IF NOT EXISTS tick_at TIMESTAMPTZ",
      "CREATE INDEX IF NOT EXISTS idx_fitz_cron_runs_job_started ON fitz_cron_runs (job_name, started_at DESC)",
      "CREATE TABLE IF NOT EXISTS fitz_cron_ticks (job_name TEXT NOT NULL, tick_at TIMESTAMPTZ NOT NULL, "
      "claimed_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (job_name, tick_at))",
      "CREATE TABLE IF NOT EXISTS fitz_bg_jobs (id BIGSERIAL PRIMARY KEY, fn_name TEXT NOT NULL, args_json TEXT, "
      "status TEXT NOT NULL, attempt INT NOT NULL DEFAULT 1, error TEXT, "
      "created_at TIMESTAMPTZ NOT NULL DEFAULT now(), finished_at TIMESTAMPTZ)",
  };
  auto begin = co_await exec(conn, "BEGIN", {});
  if (!begin.is_ok()) co_return R::err(begin.error());
  for (const char* sql : kStatements) {
    auto r = co_await exec(conn, sql, {});
    if (!r.is_ok()) {
      (void)co_await exec(conn, "ROLLBACK", {});
      co_return R::err(r.error());
    }
  }
  auto commit = co_await exec(conn, "COMMIT", {});
  if (!commit.is_ok()) co_return R::err(commit.error());
  co_return R::ok(Null{});
}

Result<Str, Str> url_of(const Any& store) {
  if (store.is_str() && !store.str_value().empty()) return Result<Str, Str>::ok(store.str_value());
  Buf b;
  fitz::detail::any_show(b, store, true);
  return Result<Str, Str>::err(Str::from("store= must be a database URL (a non-empty Str), not " +
                                          std::string(b.data(), b.size())));
}

}  // namespace fitz::jobs::store
