// Async handlers, hooks and mounts in LiveConnection (views.md §1.3, §1.8, §2.4, §2.6): a task
// runs on a copy of its view while the connection keeps answering; the view's other events and
// hooks wait for it in order; its patch and ack (or error) come through `on_async` when it ends;
// a socket closed or a view left meanwhile drops the result. Tasks run on the built-in loop,
// driven by fitz::drain().
#include <gtest/gtest.h>

#include <regex>

#include "../../live/server/test_views.h"
#include "fitz/live/connection.h"
#include "client_frames.h"

namespace fitz::live {
namespace {

// What a runtime error in a handler raises.
Panic failure(Str message) {
  Panic p;
  p.message = std::move(message);
  return p;
}

constexpr int64_t kAsyncNowMs = 1'800'000'000'000;

// `save` adds 100 before its await and takes 99 after it, so a render in between that saw the
// half-done state would show 100; `fail` panics after its await; `inc` is synchronous. The
// mount is async when the props say so, and hook 0 (`on message "t"`) is async.
class SlowCounter final : public View {
 public:
  explicit SlowCounter(bool async_mount) : async_mount_(async_mount) {}
  void mount(bool) override {
    if (async_mount_) start_async(mount_slowly());
  }
  Node render(const RenderContext& ctx) const override {
    return el("p")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(text("n=" + std::to_string(n_) + (mounted_ ? " mounted" : "")));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "inc") {
      n_++;
      return std::nullopt;
    }
    if (name == "save" || name == "fail") {
      start_async(save(name == "fail"));
      return std::nullopt;
    }
    if (name == "quick" || name == "quickfail") {
      start_async(quick(name == "quickfail"));
      return std::nullopt;
    }
    return EventError{"event", "unknown event " + std::string(name)};
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<SlowCounter>(*this); }
  std::vector<Subscription> subscriptions() const override {
    return {Subscription{Subscription::Kind::Message, "t", 0}};
  }
  std::optional<EventError> on_hook(uint32_t, std::string_view) override {
    start_async(hook_slowly());
    return std::nullopt;
  }

 private:
  Task<Null> save(bool fail) {
    n_ += 100;
    co_await sleep(20);
    if (fail) throw failure(Str::lit("save failed"));
    n_ -= 99;
    env.effects->publish("saved", std::to_string(n_));
    co_return null;
  }
  // Returns before any await, as an async handler that finds nothing to do may.
  Task<Null> quick(bool fail) {
    n_ += 5;
    if (fail) throw failure(Str::lit("quick failed"));
    co_return null;
  }
  Task<Null> mount_slowly() {
    co_await sleep(20);
    mounted_ = true;
    co_return null;
  }
  Task<Null> hook_slowly() {
    co_await sleep(10);
    n_ += 1000;
    co_return null;
  }
  bool async_mount_;
  bool mounted_ = false;
  int n_ = 0;
};

// `on unmount` is async: it awaits, then counts into `*done` (which outlives the connection).
class SlowGoodbye final : public View {
 public:
  explicit SlowGoodbye(int* done) : done_(done) {}
  void unmount() override { start_async(goodbye()); }
  Node render(const RenderContext& ctx) const override {
    return el("p").attr("data-fz-c", std::to_string(ctx.component)).child(text("bye " + std::to_string(n_)));
  }
  std::optional<EventError> handle_event(std::string_view, const Payload&) override { return std::nullopt; }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<SlowGoodbye>(*this); }

 private:
  Task<Null> goodbye() {
    co_await sleep(10);
    n_++;  // the view is still alive here
    env.effects->publish("left", "1");  // dropped: the socket may be gone
    (*done_)++;
    co_return null;
  }
  int* done_;
  int n_ = 0;
};

class LiveAsyncTest : public ::testing::Test {
 protected:
  LiveAsyncTest() : key_(TokenKey::derive("async test secret")) {
    views_.add("Slow", [](std::string_view props, std::string*) {
      return std::make_unique<SlowCounter>(props.find("async_mount") != std::string_view::npos);
    });
    views_.add("Counter", [](std::string_view, std::string*) { return std::make_unique<testing::Counter>(); });
    views_.add("Goodbye", [this](std::string_view, std::string*) { return std::make_unique<SlowGoodbye>(&goodbyes_); });
  }
  ConnectionOptions options() {
    ConnectionOptions o;
    o.on_async = [this](ConnectionOutput out) { later_.push_back(std::move(out)); };
    return o;
  }
  std::string join(std::string view, std::string_view v = "fz-1", std::string props = "{}") const {
    return testing::join_frame(testing::token_for(key_, std::move(view), kAsyncNowMs, std::move(props)), v);
  }
  static std::string ev(int64_t ref, int64_t c, std::string_view e, std::string_view v = "fz-1") {
    return testing::ev_frame(ref, c, e, "{}", v);
  }
  static std::string resync(std::string_view v = "fz-1") { return testing::resync_frame(v); }
  static int64_t component_in(const std::string& full) {
    int64_t c = testing::first_component(full);
    EXPECT_NE(c, 0) << full;
    return c;
  }
  // The frames of every async completion so far, in order.
  std::vector<std::string> later_frames() const {
    std::vector<std::string> all;
    for (const ConnectionOutput& o : later_)
      for (const std::string& f : o.frames) all.push_back(f);
    return all;
  }

  ViewRegistry views_;
  TokenKey key_;
  std::vector<ConnectionOutput> later_;
  int goodbyes_ = 0;
};

TEST_F(LiveAsyncTest, AsyncEventPatchesThenAcksWhenItEnds) {
  LiveConnection conn(views_, key_, options());
  ConnectionOutput out = conn.on_frame(join("Slow"), kAsyncNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  int64_t c = component_in(out.frames[0]);

  out = conn.on_frame(ev(1, c, "save"), kAsyncNowMs);
  EXPECT_TRUE(out.frames.empty());  // no ack yet: the client keeps the element fz-pending
  // The socket is served meanwhile, and a render shows the state before the handler.
  EXPECT_EQ(conn.on_frame(R"({"t":"hb"})", kAsyncNowMs).frames.size(), 1u);
  out = conn.on_frame(resync(), kAsyncNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find("n=0"), std::string::npos) << out.frames[0];
  // The view's next event waits for the first.
  EXPECT_TRUE(conn.on_frame(ev(2, c, "inc"), kAsyncNowMs).frames.empty());
  EXPECT_TRUE(later_.empty());

  drain();
  std::vector<std::string> frames = later_frames();
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_NE(frames[0].find(R"("t":"patch")"), std::string::npos);
  EXPECT_NE(frames[0].find("n=1"), std::string::npos) << frames[0];
  EXPECT_EQ(frames[1], R"({"t":"ack","ref":1})");
  EXPECT_NE(frames[2].find("n=2"), std::string::npos) << frames[2];
  EXPECT_EQ(frames[3], R"({"t":"ack","ref":2})");
  ASSERT_EQ(later_[0].publishes.size(), 1u);  // its ctx effects happen when it ends
  EXPECT_EQ(later_[0].publishes[0], (std::pair<std::string, std::string>("saved", "1")));
}

TEST_F(LiveAsyncTest, AsyncHandlerThatNeverAwaitsAnswersAtOnce) {
  LiveConnection conn(views_, key_, options());
  int64_t c = component_in(conn.on_frame(join("Slow"), kAsyncNowMs).frames[0]);
  ConnectionOutput out = conn.on_frame(ev(1, c, "quick"), kAsyncNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find("n=5"), std::string::npos) << out.frames[0];
  EXPECT_EQ(out.frames[1], R"({"t":"ack","ref":1})");
  out = conn.on_frame(ev(2, c, "quickfail"), kAsyncNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find("quick failed"), std::string::npos) << out.frames[0];
  out = conn.on_frame(resync(), kAsyncNowMs);
  EXPECT_NE(out.frames[0].find("n=5"), std::string::npos) << out.frames[0];  // rolled back
  EXPECT_TRUE(later_.empty());
}

TEST_F(LiveAsyncTest, OtherViewsAreServedWhileOneAwaits) {
  LiveConnection conn(views_, key_, options());
  int64_t slow = component_in(conn.on_frame(join("Slow", "fz-1"), kAsyncNowMs).frames[0]);
  int64_t fast = component_in(conn.on_frame(join("Counter", "fz-2"), kAsyncNowMs).frames[0]);
  EXPECT_TRUE(conn.on_frame(ev(1, slow, "save", "fz-1"), kAsyncNowMs).frames.empty());
  ConnectionOutput out = conn.on_frame(ev(2, fast, "inc", "fz-2"), kAsyncNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find("Count: 1"), std::string::npos);
  EXPECT_EQ(out.frames[1], R"({"t":"ack","ref":2})");
  drain();
  std::vector<std::string> frames = later_frames();
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1], R"({"t":"ack","ref":1})");
}

TEST_F(LiveAsyncTest, FailingAsyncHandlerRollsBackAndCountsTowardTheCrash) {
  LiveConnection conn(views_, key_, options());
  int64_t c = component_in(conn.on_frame(join("Slow"), kAsyncNowMs).frames[0]);
  for (int i = 1; i <= 2; i++) {
    EXPECT_TRUE(conn.on_frame(ev(i, c, "fail"), kAsyncNowMs).frames.empty());
    drain();
    std::vector<std::string> frames = later_frames();
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_NE(frames[0].find(R"("t":"error")"), std::string::npos);
    EXPECT_NE(frames[0].find(R"("code":"handler")"), std::string::npos);
    EXPECT_NE(frames[0].find("save failed"), std::string::npos);
    later_.clear();
  }
  // The state is what it was before (the +100 before the await never shows).
  ConnectionOutput out = conn.on_frame(resync(), kAsyncNowMs);
  EXPECT_NE(out.frames[0].find("n=0"), std::string::npos) << out.frames[0];
  uint64_t mount = conn.mount_of("fz-1");
  // The third failure within the window crashes the instance: mounted fresh, sent as `full`;
  // the event that waited behind it gets an error, so the page stops marking it pending.
  conn.on_frame(ev(3, c, "fail"), kAsyncNowMs);
  conn.on_frame(ev(4, c, "inc"), kAsyncNowMs);
  drain();
  std::vector<std::string> frames = later_frames();
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_NE(frames[0].find(R"("t":"error")"), std::string::npos);
  EXPECT_NE(frames[1].find(R"("t":"full")"), std::string::npos);
  EXPECT_NE(frames[2].find(R"("ref":4,"code":"view")"), std::string::npos) << frames[2];
  EXPECT_NE(conn.mount_of("fz-1"), mount);
  ASSERT_FALSE(later_.back().logs.empty());
  EXPECT_NE(later_.back().logs.back().find("crashed"), std::string::npos);
}

TEST_F(LiveAsyncTest, ClosedSocketOrLeftViewDropsTheResult) {
  {
    LiveConnection conn(views_, key_, options());
    int64_t c = component_in(conn.on_frame(join("Slow"), kAsyncNowMs).frames[0]);
    conn.on_frame(ev(1, c, "save"), kAsyncNowMs);
    conn.on_frame(ev(2, c, "save"), kAsyncNowMs);  // queued, never runs
  }  // the connection is gone while the task sleeps
  drain();
  EXPECT_TRUE(later_.empty());

  LiveConnection conn(views_, key_, options());
  int64_t c = component_in(conn.on_frame(join("Slow"), kAsyncNowMs).frames[0]);
  conn.on_frame(ev(1, c, "save"), kAsyncNowMs);
  conn.on_frame(R"({"t":"leave","v":"fz-1"})", kAsyncNowMs);
  EXPECT_EQ(conn.mounted(), 0u);
  // A rejoin is a new mount: the old task's result is not its.
  c = component_in(conn.on_frame(join("Slow"), kAsyncNowMs).frames[0]);
  drain();
  EXPECT_TRUE(later_.empty());
  ConnectionOutput out = conn.on_frame(ev(2, c, "inc"), kAsyncNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find("n=1"), std::string::npos) << out.frames[0];
}

TEST_F(LiveAsyncTest, AsyncUnmountOutlivesItsConnection) {
  {
    LiveConnection conn(views_, key_, options());
    ASSERT_EQ(conn.on_frame(join("Goodbye"), kAsyncNowMs).frames.size(), 1u);
  }  // closed: the view unmounts, and its async `on unmount` keeps it alive until it ends
  EXPECT_EQ(goodbyes_, 0);
  drain();
  EXPECT_EQ(goodbyes_, 1);
  EXPECT_TRUE(later_.empty());
}

TEST_F(LiveAsyncTest, AsyncMountSendsFullWhenItEnds) {
  LiveConnection conn(views_, key_, options());
  ConnectionOutput out = conn.on_frame(join("Slow", "fz-1", R"({"async_mount":true})"), kAsyncNowMs);
  EXPECT_TRUE(out.frames.empty());
  EXPECT_TRUE(conn.on_frame(resync(), kAsyncNowMs).frames.empty());  // nothing shown before the mount ends
  drain();
  std::vector<std::string> frames = later_frames();
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_NE(frames[0].find(R"("t":"full")"), std::string::npos);
  EXPECT_NE(frames[0].find("n=0 mounted"), std::string::npos) << frames[0];
}

TEST_F(LiveAsyncTest, AsyncHooksRunInOrderAndRenderAtTheFlush) {
  LiveConnection conn(views_, key_, options());
  int64_t c = component_in(conn.on_frame(join("Slow"), kAsyncNowMs).frames[0]);
  EXPECT_TRUE(conn.on_message("t", "1", kAsyncNowMs).frames.empty());
  EXPECT_FALSE(conn.dirty());
  EXPECT_TRUE(conn.on_frame(ev(1, c, "inc"), kAsyncNowMs).frames.empty());  // after the hook
  conn.on_message("t", "2", kAsyncNowMs);                                    // after the event
  drain();
  // The first hook, then `inc` (its patch carries the hook's change), then the second hook.
  std::vector<std::string> frames = later_frames();
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_NE(frames[0].find("n=1001"), std::string::npos) << frames[0];
  EXPECT_EQ(frames[1], R"({"t":"ack","ref":1})");
  EXPECT_TRUE(conn.dirty());
  ConnectionOutput out = conn.flush();
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find("n=2001"), std::string::npos) << out.frames[0];
}

TEST_F(LiveAsyncTest, GetRenderAwaitsAnAsyncMount) {
  RootRender r;
  r.view = "Slow";
  r.props_json = R"({"async_mount":true})";
  std::string error;
  // A synchronous caller runs it to its end; the HTTP handler awaits it.
  EXPECT_NE(render_root_html(views_, key_, r, &error).find("n=0 mounted"), std::string::npos);
  Task<std::string> html = render_root_html_async(views_, key_, r, &error);
  drain();
  ASSERT_TRUE(html.done());
  EXPECT_NE(html.result().find("n=0 mounted"), std::string::npos) << html.result();
}

}  // namespace
}  // namespace fitz::live
