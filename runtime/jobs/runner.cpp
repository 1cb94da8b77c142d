// The cron runner: one thread with its own Asio event loop (so jobs may use `db`), one
// coroutine per job sleeping until its next tick, runtime errors caught per attempt. With
// `store=`, each tick is first claimed with a row in fitz_cron_ticks (primary key job + tick
// time): among replicas sharing the database exactly one inserts it and runs the tick. A
// transaction-scoped advisory lock would be released when the first replica finished, and a
// replica whose timer fired later could then take it again; the claim row cannot be taken twice.
#include <signal.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "jobs/store.h"
#include "pg/fitz_db_internal.h"

namespace fitz::jobs {

namespace asio = boost::asio;

namespace {

struct Prepared {
  CronJob job;
  CronSchedule schedule;  // unused for `@every`
  int64_t anchor_ms = 0;  // `@every`: ticks are anchor + k * every_ms
  std::shared_ptr<const TimeZone> zone;
  RetryPolicy retry;
  Str store_url;  // empty: no store
  int64_t claimed = 0;
};

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
// A tick in logs: Unix seconds, with the milliseconds when an `@every` interval has them.
std::string tick_text(int64_t tick_ms) {
  if (tick_ms % 1000 == 0) return std::to_string(tick_ms / 1000);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(tick_ms / 1000),
                static_cast<long long>(tick_ms % 1000));
  return buf;
}

std::string str_of(const Str& s) { return s.as<std::string>(); }

// The first tick strictly after `after_ms` (both in Unix milliseconds); empty when a cron
// schedule never fires again.
std::optional<int64_t> next_tick_ms(const Prepared& p, int64_t after_ms) {
  if (int64_t every = p.job.every_ms) {
    int64_t since = after_ms - p.anchor_ms;
    int64_t k = since < 0 ? 0 : since / every + 1;
    return p.anchor_ms + k * every;
  }
  // Cron ticks are whole seconds: the tick strictly after the second holding `after_ms`.
  int64_t secs = after_ms >= 0 ? after_ms / 1000 : -((-after_ms + 999) / 1000);
  std::optional<int64_t> next = next_fire(p.schedule, *p.zone, secs);
  if (!next) return std::nullopt;
  return *next * 1000;
}

// What the store's `schedule` column shows for the job.
std::string schedule_text(const CronJob& job) {
  return job.every_ms ? "@every " + std::to_string(job.every_ms) + "ms" : job.expr;
}

}  // namespace

struct JobRunner::State {
  std::vector<CronJob> jobs;
  std::vector<std::unique_ptr<Prepared>> prepared;
  std::thread thread;
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable cv;
  asio::io_context* ioc = nullptr;
  bool started = false;
  int in_tick = 0;  // ticks running now (touched only on the runner thread)
};

namespace {

Task<Outcome> attempt_once(Prepared* p) {
  Outcome o;
  try {
    o = co_await p->job.run();
  } catch (Panic& e) {
    o = Outcome{false, str_of(e.message)};
  }
  co_return o;
}

// Counts a tick as running for as long as the coroutine's body lasts.
struct TickGuard {
  int* count;
  explicit TickGuard(int* c) : count(c) { ++*count; }
  ~TickGuard() { --*count; }
  TickGuard(const TickGuard&) = delete;
  TickGuard& operator=(const TickGuard&) = delete;
};

// One tick: claim it (with a store), then attempts until one succeeds or retries run out.
Task<Null> run_tick(Prepared* p, int64_t tick_ms, JobRunner::State* st) {
  TickGuard running(&st->in_tick);
  std::atomic<bool>* stopping = &st->stopping;
  const std::string& name = p->job.name;
  Any conn;
  bool stored = !p->store_url.empty();
  if (stored) {
    auto c = co_await store::connect(p->store_url);
    if (!c.is_ok()) {
      // Without the database no replica can claim the tick: skipping it keeps "at most once".
      log_job("error", "job.skipped", name, {{"tick", tick_text(tick_ms)}, {"error", str_of(c.error())}});
      co_return Null{};
    }
    conn = c.value();
    std::vector<Any> params1{Any(Str::from(name)), Any(tick_ms)};
    auto claim = co_await store::exec(
        conn, "INSERT INTO fitz_cron_ticks (job_name, tick_at) VALUES ($1, to_timestamp($2::bigint / 1000.0)) ON CONFLICT DO NOTHING",
        std::move(params1));
    if (!claim.is_ok()) {
      log_job("error", "job.skipped", name, {{"tick", tick_text(tick_ms)}, {"error", str_of(claim.error())}});
      co_return Null{};
    }
    if (claim.value() == 0) co_return Null{};  // another replica runs this tick
    if (++p->claimed % 1000 == 1) {
      std::vector<Any> params2{Any(Str::from(name))};
      (void)co_await store::exec(conn,
                                 "DELETE FROM fitz_cron_ticks WHERE job_name = $1 AND tick_at < now() - interval '1 day'", std::move(params2));
    }
  }
  for (int64_t attempt = 1;; ++attempt) {
    Any run_id;
    if (stored) {
      std::vector<Any> params3{Any(Str::from(name)), Any(attempt), Any(tick_ms)};
      auto r = co_await store::query(conn,
                                     "INSERT INTO fitz_cron_runs (job_name, status, attempt, tick_at) "
                                     "VALUES ($1, 'running', $2, to_timestamp($3::bigint / 1000.0)) RETURNING id",
                                     std::move(params3));
      if (r.is_ok() && r.value().len() == 1) run_id = any_method(r.value().at(0, {}), "get", {Any(Str::lit("id"))});
    }
    Outcome o = co_await attempt_once(p);
    flush_stdout();
    bool final = o.ok || attempt > p->retry.max;
    const char* status = o.ok ? "ok" : final ? "failed" : "retrying";
    if (stored) {
      Any err = o.ok ? Any() : Any(Str::from(o.error));
      if (!run_id.is_null()) {
        std::vector<Any> params4{run_id, Any(Str(status)), err};
        (void)co_await store::exec(conn, "UPDATE fitz_cron_runs SET finished_at = now(), status = $2, error = $3 WHERE id = $1",
                                   std::move(params4));
      }
      if (final) {
        auto next = next_tick_ms(*p, tick_ms);
        std::vector<Any> params5{Any(Str::from(name)), Any(tick_ms), Any(Str(status)), err,
                                    next ? Any(*next) : Any()};
        (void)co_await store::exec(conn,
                                   "UPDATE fitz_cron_jobs SET last_run_at = to_timestamp($2::bigint / 1000.0), last_status = $3, "
                                   "last_error = $4, next_run_at = to_timestamp($5::bigint / 1000.0) WHERE name = $1",
                                   std::move(params5));
      }
    }
    if (o.ok) co_return Null{};
    log_job("error", final ? "job.failed" : "job.retrying", name,
            {{"attempt", std::to_string(attempt)}, {"tick", tick_text(tick_ms)}, {"error", o.error}});
    if (final || stopping->load()) co_return Null{};
    co_await fitz::detail::TimerAwait{p->retry.delay_secs(attempt) * 1000};
  }
}

// Registers the job in the store; returns the first missed tick when catch_up asks for one.
Task<std::optional<int64_t>> setup_store(Prepared* p) {
  const std::string& name = p->job.name;
  auto c = co_await store::connect(p->store_url);
  if (!c.is_ok()) {
    log_job("error", "job.store", name, {{"error", str_of(c.error())}});
    co_return std::nullopt;
  }
  Any conn = c.value();
  auto t = co_await store::ensure_tables(conn);
  if (!t.is_ok()) {
    log_job("error", "job.store", name, {{"error", str_of(t.error())}});
    co_return std::nullopt;
  }
  std::vector<Any> params6{Any(Str::from(name)), Any(Str::from(schedule_text(p->job))), Any(Str::from(p->zone->name()))};
  (void)co_await store::exec(conn,
                             "INSERT INTO fitz_cron_jobs (name, schedule, tz) VALUES ($1, $2, $3) ON CONFLICT (name) "
                             "DO UPDATE SET schedule = EXCLUDED.schedule, tz = EXCLUDED.tz", std::move(params6));
  if (!p->job.catch_up) co_return std::nullopt;
  std::vector<Any> params7{Any(Str::from(name))};
  auto rows = co_await store::query(
      conn,
      "SELECT floor(extract(epoch FROM last_run_at) * 1000)::bigint AS t FROM fitz_cron_jobs WHERE name = $1 AND "
      "last_run_at IS NOT NULL", std::move(params7));
  if (!rows.is_ok() || rows.value().len() != 1) co_return std::nullopt;
  Any last = any_method(rows.value().at(0, {}), "get", {Any(Str::lit("t"))});
  if (!last.is_int()) co_return std::nullopt;
  auto missed = next_tick_ms(*p, last.int_value());
  if (missed && *missed < now_ms()) co_return missed;
  co_return std::nullopt;
}

Task<Null> cron_loop(Prepared* p, JobRunner::State* st) {
  std::atomic<bool>* stopping = &st->stopping;
  if (!p->store_url.empty()) {
    std::optional<int64_t> missed = co_await setup_store(p);
    if (missed) {
      log_job("info", "job.catch_up", p->job.name, {{"tick", tick_text(*missed)}});
      co_await run_tick(p, *missed, st);
    }
  }
  int64_t after = now_ms();
  while (!stopping->load()) {
    std::optional<int64_t> next = next_tick_ms(*p, after);
    if (!next) {
      log_job("info", "job.finished", p->job.name, {{"reason", "the schedule has no further tick"}});
      co_return Null{};
    }
    for (;;) {
      int64_t wait = *next - now_ms();
      if (wait <= 0) break;
      co_await fitz::detail::TimerAwait{wait < 60000 ? wait : 60000};
      if (stopping->load()) co_return Null{};
    }
    co_await run_tick(p, *next, st);
    // A run longer than the period skips the ticks it overlapped (no pile-up).
    after = std::max(*next, now_ms());
  }
  co_return Null{};
}

void thread_main(JobRunner::State* st) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // signals belong to the server or main()
  set_panic_mode(PanicMode::Throw);
  fitz::db::install_program_loop();
  asio::io_context& ioc = fitz::db::loop_context();
  auto guard = asio::make_work_guard(ioc);
  {
    std::lock_guard<std::mutex> lock(st->mutex);
    st->ioc = &ioc;
    st->started = true;
  }
  st->cv.notify_all();
  std::vector<Task<Null>> loops;
  for (auto& p : st->prepared) loops.push_back(cron_loop(p.get(), st));
  // After stop(), a tick already running gets up to kShutdownGrace to finish its attempt, so
  // its records (and the claim) are never left half-written by an ordinary shutdown.
  constexpr auto kShutdownGrace = std::chrono::seconds(10);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  for (;;) {
    try {
      if (st->stopping.load()) {
        if (!deadline) deadline = std::chrono::steady_clock::now() + kShutdownGrace;
        if (st->in_tick == 0 || std::chrono::steady_clock::now() > *deadline) break;
        ioc.run_one_for(std::chrono::milliseconds(100));
      } else if (!scheduler().run_one()) {
        break;
      }
    } catch (Panic& p) {
      log_job("error", "job.error", "", {{"error", str_of(p.message)}});
    }
  }
  flush_stdout();
  guard.reset();
}

}  // namespace

JobRunner::JobRunner() : state_(std::make_unique<State>()) {}
JobRunner::~JobRunner() { stop(); }

void JobRunner::add(CronJob job) { state_->jobs.push_back(std::move(job)); }

void JobRunner::start() {
  for (CronJob& job : state_->jobs) {
    auto p = std::make_unique<Prepared>();
    auto fail = [&](const std::string& why) {
      runtime_error(SourcePos{}, Str::from((job.every_ms ? "@every job `" : "@cron job `") + job.name + "`: " + why));
    };
    if (job.every_ms < 0) fail("the interval must be positive");
    if (!job.every_ms) {
      CronParse parsed = parse_cron(job.expr);
      if (!parsed.schedule) fail("invalid cron expression `" + job.expr + "`: " + parsed.error);
      p->schedule = *parsed.schedule;
    }
    std::string error;
    p->zone = TimeZone::load(job.tz, error);
    if (!p->zone) fail(error);
    if (job.policy) {
      p->retry = *job.policy;
    } else {
      auto retry = retry_from_any(job.retry);
      if (!retry.is_ok()) fail(str_of(retry.error()));
      p->retry = retry.value();
    }
    if (!job.store.is_null()) {
      auto url = store::url_of(job.store);
      if (!url.is_ok()) fail(str_of(url.error()));
      p->store_url = url.value();
    }
    // Replicas sharing a store must agree on the ticks; a lone process counts from its start.
    p->anchor_ms = p->store_url.empty() ? now_ms() : 0;
    p->job = std::move(job);
    state_->prepared.push_back(std::move(p));
  }
  state_->jobs.clear();
  if (state_->prepared.empty()) return;
  flush_stdout();
  State* st = state_.get();
  st->thread = std::thread([st] { thread_main(st); });
  std::unique_lock<std::mutex> lock(st->mutex);
  st->cv.wait(lock, [st] { return st->started; });
}

int JobRunner::run_until_signal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  int sig = 0;
  sigwait(&set, &sig);
  stop();
  return 0;
}

void JobRunner::stop() {
  State* st = state_.get();
  if (!st->thread.joinable()) return;
  st->stopping.store(true);
  {
    std::lock_guard<std::mutex> lock(st->mutex);
    if (st->ioc) asio::post(*st->ioc, [] {});
  }
  st->thread.join();
}

}  // namespace fitz::jobs
