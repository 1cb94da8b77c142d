// Jobs of Fitz programs: `@cron` schedules (5/6/7-field expressions in an IANA time zone,
// retry with backoff, catch-up, `store=` tables and one run per tick across replicas) and
// `@background` functions started with `spawn(f(args))`. Generated code builds a JobRunner in
// main(); the runner owns a thread with its own event loop. No Boost here: the implementation
// is libfitz_jobs (runtime/jobs), on top of the `db` module for the store.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fitz/cron_expr.h"
#include "fitz/time_zone.h"
#include "fitz/runtime.h"

namespace fitz::jobs {

// Time zones are fitz::TimeZone (fitz/time_zone.h), shared with DateTime.in_tz.
using fitz::TimeZone;

// The first tick strictly after `after` (Unix seconds): an instant whose wall-clock time in
// `zone` matches. Wall-clock times skipped by a spring-forward change do not fire; in the hour
// a fall-back change repeats, a schedule with `*` hours fires in both passes and any other
// fires once. Empty when the schedule never fires again (a past year).
std::optional<int64_t> next_fire(const CronSchedule& s, const TimeZone& zone, int64_t after);

// ---- retry ------------------------------------------------------------------------------------

enum class Backoff : uint8_t { Exponential, Linear, Constant };

struct RetryPolicy {
  int64_t max = 0;  // retries after the first attempt
  Backoff backoff = Backoff::Exponential;
  int64_t initial_secs = 1;
  int64_t max_secs = 60;
  // Seconds to wait before retry `attempt` (1 = the first retry): initial * 2^(attempt-1),
  // initial * attempt or initial, at least 1 and at most max_secs.
  int64_t delay_secs(int64_t attempt) const;
};

// `retry={max: 3, backoff: "exponential", initial_secs: 5, max_secs: 300}` (every key optional).
// A null value is the default policy (no retry).
Result<RetryPolicy, Str> retry_from_any(const Any& value);

// ---- outcomes of one attempt ------------------------------------------------------------------

struct Outcome {
  bool ok = true;
  std::string error;  // Err value or runtime error message
};

template <class T> inline constexpr bool is_result_v = false;
template <class T, class E> inline constexpr bool is_result_v<Result<T, E>> = true;

// A job function's return value: Err(e) is a failure with e's display form.
template <class T> Outcome outcome_of(const T& v) {
  if constexpr (is_result_v<T>) {
    if (!v.is_ok()) {
      Buf b;
      show(b, v.error());
      return Outcome{false, std::string(b.data(), b.size())};
    }
  } else if constexpr (std::is_same_v<T, Any>) {
    if (v.is_kind(detail::ObjKind::Result) && !v.obj()->is_ok()) {
      Buf b;
      show(b, v.obj()->inner());
      return Outcome{false, std::string(b.data(), b.size())};
    }
  }
  return Outcome{};
}

// One JSON log line on stderr: {"timestamp","level","msg","job",...}.
void log_job(std::string_view level, std::string_view msg, std::string_view job,
             std::initializer_list<std::pair<std::string_view, std::string>> fields = {});

// ---- cron jobs --------------------------------------------------------------------------------

struct CronJob {
  std::string name;    // the function's name
  std::string expr;    // as written; unused when every_ms is set
  // `@every(N)`: the interval. Without a store the ticks are start + k*interval (the first one
  // interval after start); with one they are aligned to multiples of the interval since the
  // Unix epoch, so that replicas agree on what a tick is and claim each once.
  int64_t every_ms = 0;
  std::string tz;      // empty: UTC
  // The retry policy the compiler decided from a literal `retry={...}`; otherwise `retry`, the
  // value of a non-literal `retry=` (null: none), is checked when the runner starts.
  std::optional<RetryPolicy> policy;
  Any retry;
  bool catch_up = false;
  Any store;           // the store= value: a database URL (Str) or null
  // One attempt: calls the function (awaiting it when async).
  std::function<Task<Outcome>()> run;
};

// Runs the program's cron jobs on a thread of its own (its own event loop, runtime errors
// caught per attempt). Built and started by generated main(); stopped before it returns.
class JobRunner {
 public:
  JobRunner();
  ~JobRunner();
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  void add(CronJob job);
  // Checks every schedule, zone and retry policy (a bad one is a runtime error naming the
  // job), then starts the thread.
  void start();
  // A program without HTTP routes: runs until SIGINT or SIGTERM. Returns the exit status.
  int run_until_signal();
  void stop();

  struct State;

 private:
  std::unique_ptr<State> state_;
};

// ---- background jobs --------------------------------------------------------------------------

struct BackgroundJob {
  const char* name;
  Any retry;  // a non-literal retry= value (null: none), checked at the first spawn
  Any store;  // a database URL (Str) or null
  std::optional<RetryPolicy> policy = std::nullopt;  // a literal `retry={...}`, decided at compile time
};

namespace detail {
struct BgRecord;  // a fitz_bg_jobs row being kept up to date (background.cpp)
Task<std::shared_ptr<BgRecord>> bg_begin(const BackgroundJob* job, std::string args_text);
Task<Null> bg_attempt(std::shared_ptr<BgRecord> rec, int64_t attempt, const Outcome* outcome, bool final);
Result<RetryPolicy, Str> bg_policy(const BackgroundJob* job);

template <class T> Any result_any(const T& v) {
  if constexpr (std::is_same_v<T, Null>)
    return Any();
  else
    return to_any(v);
}
}  // namespace detail

// `spawn(f(a, b))`: the arguments are already evaluated; the call runs once the caller yields
// to the event loop, with the job's retry policy. A failure (an Err value or a runtime error)
// is logged; after the last attempt the future holds the last value (Null after a runtime
// error), so a detached job never ends the program.
template <class F, class... A> Task<Any> spawn(const BackgroundJob* job, F f, A... args) {
  co_await fitz::detail::TimerAwait{0};
  auto policy = detail::bg_policy(job);
  if (!policy.is_ok()) {
    log_job("error", "job.invalid", job->name, {{"error", policy.error().as<std::string>()}});
    co_return Any();
  }
  std::string args_text;
  if (!job->store.is_null()) {
    Buf b;
    b.push('(');
    bool first = true;
    ((b.append_cstr(first ? "" : ", "), show_quoted(b, args), first = false), ...);
    b.push(')');
    args_text = std::string(b.data(), b.size());
  }
  std::shared_ptr<detail::BgRecord> rec = co_await detail::bg_begin(job, args_text);
  Any last;
  for (int64_t attempt = 1;; ++attempt) {
    Outcome outcome;
    bool panicked = false;
    Panic panic;
    PanicMode prev = set_panic_mode(PanicMode::Throw);
    try {
      using R = decltype(f(args...));
      if constexpr (requires { typename R::promise_type; }) {
        R t = f(args...);
        set_panic_mode(prev);
        auto v = co_await t;
        outcome = outcome_of(v);
        last = detail::result_any(v);
      } else {
        auto v = f(args...);
        set_panic_mode(prev);
        outcome = outcome_of(v);
        last = detail::result_any(v);
      }
    } catch (Panic& p) {
      panicked = true;
      panic = p;
    }
    set_panic_mode(prev);
    if (panicked) {
      outcome = Outcome{false, panic.message.as<std::string>()};
      last = Any();
    }
    bool final = outcome.ok || attempt > policy.value().max;
    co_await detail::bg_attempt(rec, attempt, &outcome, final);
    if (outcome.ok) co_return last;
    log_job("error", final ? "job.failed" : "job.retrying", job->name,
            {{"attempt", std::to_string(attempt)}, {"error", outcome.error}});
    if (final) co_return last;
    co_await fitz::detail::TimerAwait{policy.value().delay_secs(attempt) * 1000};
  }
}

}  // namespace fitz::jobs
