// Background jobs started by `spawn`: their retry policy and, with `store=`, the fitz_bg_jobs
// row each call keeps up to date (queued, running, retrying, ok, failed).
#include "jobs/store.h"

namespace fitz::jobs::detail {

struct BgRecord {
  Str url;
  Any id;
};

Result<RetryPolicy, Str> bg_policy(const BackgroundJob* job) {
  if (job->policy) return Result<RetryPolicy, Str>::ok(*job->policy);
  return retry_from_any(job->retry);
}

Task<std::shared_ptr<BgRecord>> bg_begin(const BackgroundJob* job, std::string args_text) {
  if (job->store.is_null()) co_return nullptr;
  auto url = store::url_of(job->store);
  if (!url.is_ok()) {
    log_job("error", "job.store", job->name, {{"error", url.error().as<std::string>()}});
    co_return nullptr;
  }
  auto c = co_await store::connect(url.value());
  if (!c.is_ok()) {
    log_job("error", "job.store", job->name, {{"error", c.error().as<std::string>()}});
    co_return nullptr;
  }
  auto t = co_await store::ensure_tables(c.value());
  if (!t.is_ok()) {
    log_job("error", "job.store", job->name, {{"error", t.error().as<std::string>()}});
    co_return nullptr;
  }
  std::vector<Any> params1{Any(Str(job->name)), Any(Str::from(args_text))};
  auto rows = co_await store::query(
      c.value(), "INSERT INTO fitz_bg_jobs (fn_name, args_json, status, attempt) VALUES ($1, $2, 'running', 1) RETURNING id", std::move(params1));
  if (!rows.is_ok() || rows.value().len() != 1) co_return nullptr;
  auto rec = std::make_shared<BgRecord>();
  rec->url = url.value();
  rec->id = any_method(rows.value().at(0, {}), "get", {Any(Str::lit("id"))});
  co_return rec;
}

Task<Null> bg_attempt(std::shared_ptr<BgRecord> rec, int64_t attempt, const Outcome* outcome, bool final) {
  if (!rec) co_return Null{};
  const char* status = outcome->ok ? "ok" : final ? "failed" : "retrying";
  Any err = outcome->ok ? Any() : Any(Str::from(outcome->error));
  auto c = co_await store::connect(rec->url);
  if (!c.is_ok()) co_return Null{};
  std::vector<Any> params2{rec->id, Any(Str(status)), Any(attempt), err, Any(final)};
  (void)co_await store::exec(c.value(),
                             "UPDATE fitz_bg_jobs SET status = $2, attempt = $3, error = $4, "
                             "finished_at = CASE WHEN $5 THEN now() END WHERE id = $1", std::move(params2));
  co_return Null{};
}

}  // namespace fitz::jobs::detail
