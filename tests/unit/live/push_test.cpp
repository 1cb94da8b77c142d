// LiveConnection's server push without sockets (views.md §1.3, §1.8, §2.4, §2.6): hub
// deliveries run hooks and a flush renders once however many arrived (coalescing), a message
// the hook cannot decode is dropped, `publish` leaves with the handler's output (and not at all
// when the handler fails), timers start after the mount and stop on leave and close, stale
// ticks are ignored, redirects are same-origin unless external, and three failures within
// 10 s crash the instance (remount + full) while three spread wider do not.
#include <gtest/gtest.h>

#include <regex>

#include "../../live/server/test_views.h"
#include "fitz/live/connection.h"
#include "recording_timers.h"
#include "client_frames.h"

namespace fitz::live {
namespace {

constexpr int64_t kPushNowMs = 1'800'000'000'000;

struct Inbox final : HubClient {
  struct Got {
    Subscription::Kind kind;
    std::string topic, json;
  };
  std::vector<Got> got;
  void deliver(Subscription::Kind kind, const std::string& topic, std::shared_ptr<const std::string> json) override {
    got.push_back(Got{kind, topic, *json});
  }
};

using FakeTimers = testing::RecordingTimers;

// `on every` and `on message "t"` whose hook fails while `fail` is set; `go`/`evil`/`out`
// redirect; `pub` publishes and `pubfail` publishes then fails.
class Pushy final : public View {
 public:
  bool fail = false;
  int ticks = 0;
  Node render(const RenderContext& ctx) const override {
    return el("p").attr("data-fz-c", std::to_string(ctx.component)).child(text("t=" + std::to_string(ticks)));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "go") env.effects->redirect("/next?x=1", false);
    else if (name == "evil") env.effects->redirect("https://evil.example/", false);
    else if (name == "sneaky") env.effects->redirect("//evil.example/", false);
    else if (name == "same") env.effects->redirect("http://app.example/home", false);
    else if (name == "out") env.effects->redirect("https://docs.example/", true);
    else if (name == "pub") env.effects->publish("t", "1");
    else if (name == "pubfail") {
      env.effects->publish("t", "1");
      return EventError{"handler", "failed after publishing"};
    } else if (name == "setfail") fail = true;
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Pushy>(*this); }
  std::vector<Subscription> subscriptions() const override { return {Subscription{Subscription::Kind::Message, "t", 7}}; }
  std::vector<TimerSpec> timers() const override { return {TimerSpec{250, 9}}; }
  std::optional<EventError> on_hook(uint32_t, std::string_view) override {
    if (fail) throw std::runtime_error("hook threw");
    ticks++;
    return std::nullopt;
  }
};

class PushTest : public ::testing::Test {
 protected:
  PushTest() : key_(TokenKey::derive("push test secret")) {
    views_.add("Chat", [](std::string_view props, std::string*) {
      bool bob = props.find("Bob") != std::string_view::npos;
      return std::make_unique<testing::Chat>("x", bob ? "Bob" : "Ann");
    });
    views_.add("Clock", [](std::string_view, std::string*) { return std::make_unique<testing::Clock>(); });
    views_.add("Pushy", [](std::string_view, std::string*) { return std::make_unique<Pushy>(); });
  }
  std::string token(std::string view, std::string props = "{}") const {
    return testing::token_for(key_, std::move(view), kPushNowMs, std::move(props));
  }
  static std::string join(std::string_view tok, std::string_view v = "fz-1") { return testing::join_frame(tok, v); }
  static std::string ev(int64_t ref, int64_t c, std::string_view e, std::string_view p = "{}") {
    return testing::ev_frame(ref, c, e, p);
  }
  static int64_t component_of(const std::string& full) {
    int64_t c = testing::first_component(full);
    EXPECT_NE(c, 0) << full;
    return c;
  }
  ConnectionOptions options(std::shared_ptr<Inbox> inbox) {
    ConnectionOptions o;
    o.hub = &hub_;
    o.client = hub_.attach(inbox);
    o.timers = &timers_;
    o.origin = "http://app.example";
    return o;
  }

  ViewRegistry views_;
  TokenKey key_;
  LiveHub hub_;
  FakeTimers timers_;
};

TEST_F(PushTest, ChatMessageFansOutAndABurstRendersOnce) {
  auto ann_in = std::make_shared<Inbox>(), bob_in = std::make_shared<Inbox>();
  LiveConnection ann(views_, key_, options(ann_in)), bob(views_, key_, options(bob_in));
  int64_t c = component_of(ann.on_frame(join(token("Chat", R"({"name":"Ann"})")), kPushNowMs).frames.at(0));
  ASSERT_EQ(bob.on_frame(join(token("Chat", R"({"name":"Bob"})")), kPushNowMs).frames.size(), 1u);

  // Both subscribed to presence after their mounts tracked: Bob's first list already has both.
  ASSERT_FALSE(bob_in->got.empty());
  EXPECT_EQ(bob_in->got.back().json, R"([{"key":"Ann","metas":[{"name":"Ann"}]},{"key":"Bob","metas":[{"name":"Bob"}]}])");

  ConnectionOutput out = ann.on_frame(ev(1, c, "send", R"({"name":"Ann","text":"hi <b>x</b>"})"), kPushNowMs);
  ASSERT_EQ(out.frames.size(), 1u);  // nothing changed in Ann's view yet: just the ack
  EXPECT_EQ(out.frames[0], R"({"t":"ack","ref":1})");
  ASSERT_EQ(out.publishes.size(), 1u);
  EXPECT_EQ(out.publishes[0].first, "chat:x");
  for (auto& [topic, json] : out.publishes) hub_.publish(topic, json);

  // Bob: the message, then four more before the loop turn ends, render once.
  bob_in->got.clear();
  for (int i = 0; i < 4; i++) hub_.publish("chat:x", R"({"name":"Ann","text":"more"})");
  ASSERT_EQ(bob_in->got.size(), 4u);
  EXPECT_FALSE(bob.dirty());
  EXPECT_TRUE(bob.on_message("chat:x", R"({"name":"Ann","text":"hi <b>x</b>"})", kPushNowMs).frames.empty());
  for (const auto& g : bob_in->got) EXPECT_TRUE(bob.on_message(g.topic, g.json, kPushNowMs).frames.empty());
  EXPECT_TRUE(bob.dirty());
  out = bob.flush();
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("t":"patch")"), std::string::npos);
  // Five rows in one patch, the markup escaped.
  EXPECT_NE(out.frames[0].find("<li>Ann: hi &lt;b&gt;x&lt;/b&gt;</li>"), std::string::npos) << out.frames[0];
  size_t inserts = 0;
  for (size_t at = 0; (at = out.frames[0].find(R"(["insert",)", at)) != std::string::npos; at++) inserts++;
  EXPECT_EQ(inserts, 5u);
  EXPECT_FALSE(bob.dirty());
  EXPECT_TRUE(bob.flush().frames.empty());
}

TEST_F(PushTest, AMessageTheHookCannotDecodeIsLoggedAndDropped) {
  auto in = std::make_shared<Inbox>();
  LiveConnection bob(views_, key_, options(in));
  bob.on_frame(join(token("Chat", R"({"name":"Bob"})")), kPushNowMs);
  ConnectionOutput out = bob.on_message("chat:x", R"({"name":5})", kPushNowMs);
  EXPECT_TRUE(out.frames.empty());
  ASSERT_EQ(out.logs.size(), 1u);
  EXPECT_NE(out.logs[0].find("message dropped"), std::string::npos);
  EXPECT_FALSE(bob.dirty());
  // Many bad messages are no crash: the view keeps its mount.
  uint64_t mount = bob.mount_of("fz-1");
  for (int i = 0; i < 5; i++) bob.on_message("chat:x", "not json", kPushNowMs);
  EXPECT_EQ(bob.mount_of("fz-1"), mount);
  // Topics the view does not follow reach no hook.
  EXPECT_TRUE(bob.on_message("chat:other", R"({"name":"x","text":"y"})", kPushNowMs).logs.empty());
}

TEST_F(PushTest, UnmountDropsPresenceAndSubscriptions) {
  auto ann_in = std::make_shared<Inbox>(), bob_in = std::make_shared<Inbox>();
  LiveConnection ann(views_, key_, options(ann_in));
  {
    LiveConnection bob(views_, key_, options(bob_in));
    ann.on_frame(join(token("Chat", R"({"name":"Ann"})")), kPushNowMs);
    bob.on_frame(join(token("Chat", R"({"name":"Bob"})")), kPushNowMs);
    EXPECT_EQ(hub_.subscribers(Subscription::Kind::Message, "chat:x"), 2u);
    bob.on_frame(R"({"t":"leave","v":"fz-1"})", kPushNowMs);
    EXPECT_EQ(hub_.subscribers(Subscription::Kind::Message, "chat:x"), 1u);
    EXPECT_EQ(ann_in->got.back().json, R"([{"key":"Ann","metas":[{"name":"Ann"}]}])");
    bob.on_frame(join(token("Chat", R"({"name":"Bob"})")), kPushNowMs);
  }  // the socket goes: close() unmounts
  EXPECT_EQ(hub_.subscribers(Subscription::Kind::Message, "chat:x"), 1u);
  EXPECT_EQ(ann_in->got.back().json, R"([{"key":"Ann","metas":[{"name":"Ann"}]}])");
}

TEST_F(PushTest, TimersRunAfterMountAndStopOnLeaveAndClose) {
  auto in = std::make_shared<Inbox>();
  LiveConnection conn(views_, key_, options(in));
  conn.on_frame(join(token("Clock")), kPushNowMs);
  ASSERT_EQ(timers_.running.size(), 1u);
  EXPECT_EQ(timers_.running[0].every_ms, 1000);
  EXPECT_EQ(hub_.active_timers(), 1);
  FakeTimers::Running t = timers_.running[0];
  for (int i = 1; i <= 2; i++) {
    EXPECT_TRUE(conn.on_timer(t.view, t.mount, t.hook, kPushNowMs + i * 1000).frames.empty());
    ConnectionOutput out = conn.flush();
    ASSERT_EQ(out.frames.size(), 1u);
    EXPECT_NE(out.frames[0].find(R"(["text",[0,0,0],"Ticks: )" + std::to_string(i) + "\"]"), std::string::npos)
        << out.frames[0];
  }
  // A rejoin is a fresh mount: the old timer stops, a new one starts, a stale tick does nothing.
  conn.on_frame(join(token("Clock")), kPushNowMs);
  ASSERT_EQ(timers_.running.size(), 1u);
  EXPECT_NE(timers_.running[0].mount, t.mount);
  EXPECT_EQ(hub_.active_timers(), 1);
  conn.on_timer(t.view, t.mount, t.hook, kPushNowMs);
  EXPECT_FALSE(conn.dirty());

  conn.on_frame(R"({"t":"leave","v":"fz-1"})", kPushNowMs);
  EXPECT_TRUE(timers_.running.empty());
  EXPECT_EQ(hub_.active_timers(), 0);
  conn.on_frame(join(token("Clock")), kPushNowMs);
  EXPECT_EQ(hub_.active_timers(), 1);
  conn.close();
  EXPECT_TRUE(timers_.running.empty());
  EXPECT_EQ(hub_.active_timers(), 0);
}

TEST_F(PushTest, PublishLeavesWithTheHandlerAndNotWhenItFails) {
  auto in = std::make_shared<Inbox>();
  LiveConnection conn(views_, key_, options(in));
  int64_t c = component_of(conn.on_frame(join(token("Pushy")), kPushNowMs).frames.at(0));
  ConnectionOutput out = conn.on_frame(ev(1, c, "pub"), kPushNowMs);
  EXPECT_EQ(out.publishes.size(), 1u);
  out = conn.on_frame(ev(2, c, "pubfail"), kPushNowMs);
  EXPECT_TRUE(out.publishes.empty());
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("code":"handler")"), std::string::npos);
}

TEST_F(PushTest, RedirectsAreSameOriginUnlessExternal) {
  auto in = std::make_shared<Inbox>();
  LiveConnection conn(views_, key_, options(in));
  int64_t c = component_of(conn.on_frame(join(token("Pushy")), kPushNowMs).frames.at(0));
  ConnectionOutput out = conn.on_frame(ev(1, c, "go"), kPushNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_EQ(out.frames[0], R"({"t":"ack","ref":1})");  // the handler's frame first
  EXPECT_EQ(out.frames[1], R"({"t":"redirect","to":"/next?x=1"})");
  out = conn.on_frame(ev(2, c, "same"), kPushNowMs);
  EXPECT_EQ(out.frames.back(), R"({"t":"redirect","to":"http://app.example/home"})");
  for (const char* e : {"evil", "sneaky"}) {
    out = conn.on_frame(ev(3, c, e), kPushNowMs);
    ASSERT_EQ(out.frames.size(), 1u) << e;
    EXPECT_EQ(out.frames[0], R"({"t":"ack","ref":3})");
    ASSERT_EQ(out.logs.size(), 1u) << e;
    EXPECT_NE(out.logs[0].find("refused"), std::string::npos);
  }
  out = conn.on_frame(ev(4, c, "out"), kPushNowMs);
  EXPECT_EQ(out.frames.back(), R"({"t":"redirect","to":"https://docs.example/"})");
}

TEST_F(PushTest, ThreeHandlerFailuresWithinTenSecondsCrashTheInstance) {
  views_.add("Counter", [](std::string_view, std::string*) { return std::make_unique<testing::Counter>(); });
  LiveConnection conn(views_, key_, {});
  int64_t c = component_of(conn.on_frame(join(token("Counter")), kPushNowMs).frames.at(0));
  conn.on_frame(ev(1, c, "inc"), kPushNowMs);
  // Failures 0 s, 10 s, 19 s: never three within 10 s.
  for (int64_t at : {0, 10000, 19000}) {
    ConnectionOutput out = conn.on_frame(ev(2, c, "fail"), kPushNowMs + at);
    ASSERT_EQ(out.frames.size(), 1u) << at;
    EXPECT_NE(out.frames[0].find(R"("code":"handler")"), std::string::npos);
  }
  // Unknown events are the client's fault and do not count.
  for (int i = 0; i < 3; i++) EXPECT_EQ(conn.on_frame(ev(3, c, "nope"), kPushNowMs + 19500).frames.size(), 1u);
  // 19 s, 20 s, 21 s: the third crashes it; state starts over.
  conn.on_frame(ev(4, c, "fail"), kPushNowMs + 20000);
  ConnectionOutput out = conn.on_frame(ev(5, c, "fail"), kPushNowMs + 21000);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find(R"("code":"handler")"), std::string::npos);
  EXPECT_NE(out.frames[1].find(R"("t":"full")"), std::string::npos);
  EXPECT_NE(out.frames[1].find("Count: 0"), std::string::npos);
  ASSERT_EQ(out.logs.size(), 1u);
  EXPECT_NE(out.logs[0].find("crashed"), std::string::npos);
  // The fresh instance works, with a clean failure history.
  c = component_of(out.frames[1]);
  EXPECT_EQ(conn.on_frame(ev(6, c, "fail"), kPushNowMs + 21500).frames.size(), 1u);
  EXPECT_EQ(conn.on_frame(ev(7, c, "inc"), kPushNowMs + 21600).frames.size(), 2u);
}

TEST_F(PushTest, FailedHooksCountTowardTheCrashRule) {
  auto in = std::make_shared<Inbox>();
  LiveConnection conn(views_, key_, options(in));
  int64_t c = component_of(conn.on_frame(join(token("Pushy")), kPushNowMs).frames.at(0));
  conn.on_message("t", "{}", kPushNowMs);
  ASSERT_EQ(conn.flush().frames.size(), 1u);  // t=1
  conn.on_frame(ev(1, c, "setfail"), kPushNowMs);
  uint64_t mount = conn.mount_of("fz-1");
  // Two failures 6 s apart, then a third 11 s after the first: no crash (the window slides).
  for (int64_t at : {0, 6000, 11000}) {
    ConnectionOutput out = conn.on_message("t", "{}", kPushNowMs + at);
    ASSERT_EQ(out.frames.size(), 1u);
    EXPECT_NE(out.frames[0].find(R"("ref":0,"code":"handler")"), std::string::npos);
  }
  EXPECT_EQ(conn.mount_of("fz-1"), mount);
  // A third within 10 s of the previous two: unmounted, mounted fresh, sent as `full`.
  ConnectionOutput out = conn.on_message("t", "{}", kPushNowMs + 12000);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find(R"("code":"handler")"), std::string::npos);
  EXPECT_NE(out.frames[1].find(R"("t":"full")"), std::string::npos);
  EXPECT_NE(out.frames[1].find("t=0"), std::string::npos);  // fresh state
  EXPECT_NE(conn.mount_of("fz-1"), mount);
  EXPECT_EQ(hub_.active_timers(), 1);  // the old mount's timer stopped, the new one's runs
  EXPECT_EQ(hub_.subscribers(Subscription::Kind::Message, "t"), 1u);
}

}  // namespace
}  // namespace fitz::live
