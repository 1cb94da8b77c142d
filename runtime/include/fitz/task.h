// Async: `async fn f(x) -> T` becomes a C++20 coroutine returning `fitz::Task<T>`; `.await` is
// `co_await`. Tasks start eagerly (the body runs until its first suspension when called) and
// are refcounted handles: a Task can be stored, copied, awaited later or several times, or
// never awaited (it still runs to completion on the loop and frees itself).
//
// A per-thread scheduler (a ready queue and a timer queue) resumes suspended tasks. Top-level
// `.await` in the program body is `fitz::block_on(task)`, which runs the loop until that task
// is done; `run_main` drains the loop after the body so unawaited tasks finish.
// An async fn body must end with `co_return <value>;` (`co_return fitz::null;` for Null).
#pragma once

#include "fitz/eq.h"
#include "fitz/str.h"

namespace fitz {

// What resumes suspended coroutines on this thread. The built-in loop is used unless another
// one (e.g. an Asio-driven scheduler in the HTTP runtime) is installed with set_scheduler.
class Scheduler {
 public:
  virtual ~Scheduler();
  virtual void post(std::coroutine_handle<> h) = 0;                   // resume soon
  virtual void post_after(int64_t ms, std::coroutine_handle<> h) = 0;  // resume after ms
  // Resumes one ready coroutine, or waits for the earliest timer. False when idle.
  virtual bool run_one() = 0;
  // The boost::asio::io_context behind this scheduler, or nullptr (the built-in loop has none).
  // Runtimes that do I/O (Postgres) start their operations on it, so completions resume tasks
  // on the loop that awaits them.
  virtual void* io_context() { return nullptr; }
};
Scheduler& scheduler();
Scheduler* set_scheduler(Scheduler* s);  // returns the previous one; nullptr = built-in loop

// The trace context of the code running now: an HTTP request's trace and span ids and its
// request id (all empty outside a request). Structured logs and @trace spans read it. A
// coroutine suspended on a Task keeps its own: the awaiter saves the context when it suspends
// and restores it on resumption, so requests interleaved on one event loop never see each
// other's ids.
struct TraceContext {
  uint64_t trace_hi = 0, trace_lo = 0;  // 128-bit trace id; zero: no trace
  uint64_t span = 0;
  Str request_id;
  bool active() const { return (trace_hi | trace_lo) != 0; }
};

namespace detail {

inline thread_local TraceContext t_trace;

// A runtime error raised in a task (catchable mode) is kept and re-raised where the task is
// awaited; if the task is dropped without being awaited, the next block_on / drain raises it.
void report_unobserved(Panic&& p) noexcept;
void raise_pending_panic();

struct PromiseBase {
  uint32_t refs = 1;  // one for the running body, plus one per Task handle
  bool done = false;
  bool panic_seen = false;
  std::coroutine_handle<> waiter;
  std::vector<std::coroutine_handle<>>* more = nullptr;  // further awaiters (rare)
  Panic* panic = nullptr;

  PromiseBase() = default;
  PromiseBase(const PromiseBase&) = delete;
  ~PromiseBase() {
    if (panic) {
      if (!panic_seen) report_unobserved(static_cast<Panic&&>(*panic));
      delete panic;
    }
  }
  std::suspend_never initial_suspend() noexcept { return {}; }
  void unhandled_exception();  // stores a Panic; other exceptions propagate
  void rethrow_panic() {
    if (panic) {
      panic_seen = true;
      throw Panic(*panic);
    }
  }
  void add_waiter(std::coroutine_handle<> h) {
    if (!waiter)
      waiter = h;
    else {
      if (!more) more = new std::vector<std::coroutine_handle<>>();
      more->push_back(h);
    }
  }
};

template <class P> struct FinalAwaiter {
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
    P& p = h.promise();
    p.done = true;
    std::coroutine_handle<> next = p.waiter ? p.waiter : std::noop_coroutine();
    if (p.more) {
      for (auto w : *p.more) scheduler().post(w);
      delete p.more;
      p.more = nullptr;
    }
    if (--p.refs == 0) h.destroy();
    return next;
  }
  void await_resume() noexcept {}
};

template <class T> struct Promise : PromiseBase {
  Promise() {}
  ~Promise() {
    if (has) value.~T();
  }
  Task<T> get_return_object();
  FinalAwaiter<Promise> final_suspend() noexcept { return {}; }
  template <class U> void return_value(U&& v) {
    new (&value) T(std::forward<U>(v));
    has = true;
  }
  bool has = false;
  union {
    T value;
  };
};

// Awaitable that resumes the coroutine after `ms` milliseconds (0: after other ready work).
struct TimerAwait {
  int64_t ms;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const { scheduler().post_after(ms, h); }
  void await_resume() const noexcept {}
};

void run_until_done(const bool* done, SourcePos pos);

}  // namespace detail

template <class T> class Task {
 public:
  using promise_type = detail::Promise<T>;
  using handle_type = std::coroutine_handle<promise_type>;
  using value_type = T;

  Task() = default;
  explicit Task(handle_type h) : h_(h) { ++h_.promise().refs; }
  Task(const Task& o) : h_(o.h_) {
    if (h_) ++h_.promise().refs;
  }
  Task(Task&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Task& operator=(Task o) noexcept {
    handle_type t = h_;
    h_ = o.h_;
    o.h_ = t;
    return *this;
  }
  ~Task() {
    if (h_ && --h_.promise().refs == 0) h_.destroy();
  }

  bool valid() const { return bool(h_); }
  bool done() const { return h_.promise().done; }
  void rethrow_panic() const { h_.promise().rethrow_panic(); }
  const bool* done_flag() const { return &h_.promise().done; }
  const T& result() const { return h_.promise().value; }
  bool same(const Task& o) const { return h_ == o.h_; }

  struct Awaiter {
    Task t;
    TraceContext trace = detail::t_trace;  // the awaiting coroutine's, restored on resumption
    bool await_ready() const noexcept { return t.done(); }
    void await_suspend(std::coroutine_handle<> c) const { t.h_.promise().add_waiter(c); }
    T await_resume() const {
      detail::t_trace = trace;
      t.h_.promise().rethrow_panic();
      return t.result();
    }
  };
  Awaiter operator co_await() const { return Awaiter{*this}; }

 private:
  handle_type h_{};
};

template <class T> Task<T> detail::Promise<T>::get_return_object() {
  return Task<T>(std::coroutine_handle<Promise>::from_promise(*this));
}

// `sleep(ms)`: a future that completes after `ms` milliseconds.
Task<Null> sleep(int64_t ms);

// Runs the loop until `t` completes and returns its value (top-level `.await`). A task that
// can never complete (nothing left to run) is a runtime error.
template <class T> T block_on(const Task<T>& t, SourcePos pos = {}) {
  if (!t.done()) detail::run_until_done(t.done_flag(), pos);
  t.rethrow_panic();
  return t.result();
}

// Runs the loop until no task is ready or waiting on a timer.
void drain();

template <class T> struct Show<Task<T>> {
  static void write(Buf& b, const Task<T>&, bool) { b.lit("<future>"); }
};
template <class T> struct Eq<Task<T>, Task<T>> {
  static bool eq(const Task<T>& a, const Task<T>& b) { return a.same(b); }
};
template <class T> struct TypeName<Task<T>> {
  static void write(Buf& b) {
    b.lit("Future<");
    TypeName<T>::write(b);
    b.push('>');
  }
};

}  // namespace fitz
