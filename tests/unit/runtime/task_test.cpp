// Coroutines: eager tasks on the per-thread loop, sleep ordering, futures created earlier and
// awaited later, lists of futures, unawaited tasks, runtime errors inside tasks.
#include <gtest/gtest.h>

#include <string>

#include "fitz/runtime.h"

using namespace fitz::literals;
using fitz::List;
using fitz::Null;
using fitz::Str;
using fitz::Task;

namespace {

std::string shown(const auto& v) { return fitz::to_str(v).template as<std::string>(); }

Task<Null> log_after(int64_t ms, Str label, List<Str> log) {
  co_await fitz::sleep(ms);
  log.push(label);
  co_return fitz::null;
}

Task<int64_t> square_later(int64_t x) {
  co_await fitz::sleep(1);
  co_return x * x;
}

Task<int64_t> immediate(int64_t x) { co_return x + 1; }

Task<int64_t> sum_of_squares(List<int64_t> xs) {
  int64_t total = 0;
  for (int64_t x : xs) total += co_await square_later(x);
  co_return total;
}

Task<int64_t> fails_after_sleep() {
  co_await fitz::sleep(1);
  fitz::op::div(1, 0, {"t.fitz", 3, 9});
  co_return 0;
}

Task<fitz::Result<int64_t, Str>> parse_later(Str s) {
  co_await fitz::sleep(0);
  if (s.is_digit()) co_return fitz::Ok(int64_t(s.len()));
  co_return fitz::Err("not digits"_s);
}

Task<fitz::Result<int64_t, Str>> twice(Str a, Str b) {
  auto ra = co_await parse_later(a);
  int64_t x = FITZ_CO_TRY(ra);
  auto rb = co_await parse_later(b);
  int64_t y = FITZ_CO_TRY(rb);
  co_return fitz::Ok(x + y);
}

}  // namespace

TEST(Task, SleepOrdering) {
  List<Str> log;
  auto a = log_after(20, "slow"_s, log);
  auto b = log_after(5, "fast"_s, log);
  auto c = log_after(5, "fast2"_s, log);  // equal deadlines keep their order
  auto d = log_after(0, "now"_s, log);
  EXPECT_EQ(log.len(), 0);  // all suspended at their first sleep
  fitz::block_on(a);
  EXPECT_EQ(shown(log), "[\"now\", \"fast\", \"fast2\", \"slow\"]");
  EXPECT_TRUE(b.done() && c.done() && d.done());
}

TEST(Task, EagerStartAndImmediateCompletion) {
  Task<int64_t> t = immediate(41);
  EXPECT_TRUE(t.done());  // ran to completion inside the call
  EXPECT_EQ(fitz::block_on(t), 42);
  EXPECT_EQ(fitz::block_on(t), 42);  // awaiting twice yields the value again
}

TEST(Task, FutureCreatedEarlierAwaitedLater) {
  Task<int64_t> pending = square_later(7);
  EXPECT_FALSE(pending.done());
  EXPECT_EQ(fitz::block_on(pending), 49);
  EXPECT_EQ(fitz::block_on(sum_of_squares(List<int64_t>{1, 2, 3})), 14);
}

TEST(Task, ListOfFutures) {
  List<Task<int64_t>> futures{square_later(2), square_later(3), square_later(4)};
  List<int64_t> results;
  for (Task<int64_t> f : futures) results.push(fitz::block_on(f));
  EXPECT_EQ(shown(results), "[4, 9, 16]");
  EXPECT_EQ(shown(futures), "[<future>, <future>, <future>]");
}

TEST(Task, AwaitedByManyCoroutines) {
  Task<int64_t> shared = square_later(5);
  auto reader = [](Task<int64_t> t) -> Task<int64_t> { co_return (co_await t) + 1; };
  Task<int64_t> r1 = reader(shared);
  Task<int64_t> r2 = reader(shared);
  Task<int64_t> r3 = reader(shared);
  EXPECT_EQ(fitz::block_on(r3), 26);
  EXPECT_EQ(fitz::block_on(r1), 26);
  EXPECT_EQ(fitz::block_on(r2), 26);
}

TEST(Task, UnawaitedTasksFinishOnDrainAndFreeThemselves) {
  List<Str> log;
  log_after(2, "detached"_s, log);  // the handle is dropped immediately
  { Task<int64_t> dropped = square_later(3); }
  fitz::drain();
  EXPECT_EQ(shown(log), "[\"detached\"]");
}

TEST(Task, TryInsideAsync) {
  EXPECT_EQ(shown(fitz::block_on(twice("12"_s, "345"_s))), "Ok(5)");
  EXPECT_EQ(shown(fitz::block_on(twice("12"_s, "x"_s))), "Err(\"not digits\")");
}

TEST(Task, RuntimeErrorInsideATaskReachesBlockOn) {
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([] { fitz::block_on(fails_after_sleep()); }, &p));
  EXPECT_EQ(p.message, "division by zero"_s);
  EXPECT_EQ(p.pos.line, 3u);
  fitz::drain();
}

TEST(Task, AwaitingAFutureThroughAny) {
  fitz::Any a = fitz::to_any(square_later(6));
  EXPECT_EQ(a.type_name(), "Future<Int>"_s);
  EXPECT_EQ(shown(fitz::block_on(fitz::any_await(a))), "36");
  Task<double> as_float = fitz::from_any<Task<double>>(fitz::to_any(square_later(2)));
  EXPECT_DOUBLE_EQ(fitz::block_on(as_float), 4.0);
}

TEST(Task, DeadlockIsARuntimeError) {
  static std::coroutine_handle<> parked;
  struct Never {
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) const noexcept { parked = h; }
    void await_resume() const noexcept {}
  };
  auto stuck = []() -> Task<int64_t> {
    co_await Never{};
    co_return 1;
  };
  {
    Task<int64_t> t = stuck();
    fitz::Panic p;
    EXPECT_TRUE(fitz::catch_panic([&] { fitz::block_on(t, {"d.fitz", 1, 1}); }, &p));
    EXPECT_EQ(p.message, "deadlock: awaited a future that can never complete"_s);
  }
  parked.destroy();  // a frame that is never resumed is only freed by its owner
}

TEST(Task, PanicInAnUnawaitedTaskSurfacesAtTheNextAwait) {
  { Task<int64_t> dropped = fails_after_sleep(); }
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([] { fitz::drain(); }, &p));
  EXPECT_EQ(p.message, "division by zero"_s);
  EXPECT_FALSE(fitz::catch_panic([] { fitz::drain(); }));
}

TEST(Task, PanicPropagatesThroughAwaitingCoroutines) {
  auto outer = []() -> Task<int64_t> { co_return (co_await fails_after_sleep()) + 1; };
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([&] { fitz::block_on(outer()); }, &p));
  EXPECT_EQ(p.message, "division by zero"_s);
  EXPECT_FALSE(fitz::catch_panic([] { fitz::drain(); }));
}
