// Timers and subscriptions of child components (views.md §1.3 in a child, §1.5) through the
// connection: they start when the child appears and stop when it vanishes (the active-timer
// count follows), a tick or message reaches only its own child instance and the root re-renders,
// a stale tick of a vanished child does nothing, its presence entries go with it, a failing
// child hook rolls the root back, and leave and close stop every child's timers.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>

#include "fitz/live/children.h"
#include "fitz/live/connection.h"
#include "recording_timers.h"
#include "client_frames.h"

namespace fitz::live {
namespace {

constexpr int64_t kChildHookNowMs = 1'800'000'000'000;

struct ChildHookInbox final : HubClient {
  void deliver(Subscription::Kind, const std::string&, std::shared_ptr<const std::string>) override {}
};

using ChildHookTimers = testing::RecordingTimers;

// Tracks its label in "lobby" when mounted connected; `on every 1s` (hook 3) counts ticks; `on message "room/<label>"` (hook 5) keeps the message;
// hook 3 throws while `fail` is set.
class TickKid final : public View {
 public:
  explicit TickKid(std::string label) : label(std::move(label)) {}
  void mount(bool connected) override {
    if (connected && env.effects) env.effects->track("lobby", label, "{}");
  }
  Node render(const RenderContext& rc) const override {
    return el("p")
        .attr("data-fz-c", std::to_string(rc.component))
        .attr("id", "kid-" + label)
        .child(text(label + " ticks=" + std::to_string(ticks) + " msg=" + msg));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "setfail") fail = true;
    else if (name == "visit") env.effects->track("hall", label, "{}");
    else return EventError{"event", "unknown event"};
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<TickKid>(*this); }
  std::vector<Subscription> subscriptions() const override {
    return {Subscription{Subscription::Kind::Message, "room/" + label, 5}};
  }
  std::vector<TimerSpec> timers() const override { return {TimerSpec{1000, 3}}; }
  std::optional<EventError> on_hook(uint32_t hook, std::string_view json) override {
    if (hook == 3) {
      ticks++;
      if (fail) throw std::runtime_error("child hook threw");
    } else if (hook == 5) {
      msg = std::string(json);
    } else {
      return EventError{"event", "unknown hook"};
    }
    return std::nullopt;
  }

  std::string label;
  int ticks = 0;
  std::string msg = "-";
  bool fail = false;
};

// Renders `shown` TickKids keyed by index; `less` hides the last one.
class TickParent final : public View {
 public:
  void unmount() override { kids_.unmount_all(); }
  Node render(const RenderContext& rc) const override {
    auto* self = const_cast<TickParent*>(this);
    self->kids_.begin();
    Node root = el("section").attr("data-fz-c", std::to_string(rc.component));
    for (int i = 0; i < shown; ++i) {
      std::string label = "k" + std::to_string(i);
      root.child(self->kids_.render(
          rc, env, 0, Key::integer(i), [&] { return std::make_unique<TickKid>(label); }, [](View&) {}, {}, {}));
    }
    self->kids_.end(rc);
    return root;
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "less") shown--;
    else if (name == "more") shown++;
    else return EventError{"event", "unknown event"};
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<TickParent>(*this); }
  ChildTable* children() override { return &kids_; }

  int shown = 2;

 private:
  ChildTable kids_;
};

class ChildHooksTest : public ::testing::Test {
 protected:
  ChildHooksTest() : key_(TokenKey::derive("child hooks test secret")) {
    views_.add("TickParent", [](std::string_view, std::string*) { return std::make_unique<TickParent>(); });
  }
  std::string join() const { return testing::join_frame(testing::token_for(key_, "TickParent", kChildHookNowMs)); }
  static std::string ev(int64_t ref, int64_t c, std::string_view e) { return testing::ev_frame(ref, c, e); }
  static int64_t number_of(const std::string& frame, const std::string& id) {
    return testing::component_with_id(frame, id);
  }
  static int64_t root_number(const std::string& frame) {
    std::smatch m;
    if (!std::regex_search(frame, m, std::regex(R"(<section data-fz-c=\\"(\d+)\\")"))) return -1;
    return std::stoll(m[1]);
  }
  std::string full(LiveConnection& conn) {
    ConnectionOutput out = conn.on_frame(testing::resync_frame(), kChildHookNowMs);
    return out.frames.empty() ? "" : out.frames[0];
  }
  // The running timer of the child numbered `c`.
  const ChildHookTimers::Running* timer_of(int64_t c) const {
    for (const auto& r : timers_.running)
      if (r.view == "fz-1/" + std::to_string(c)) return &r;
    return nullptr;
  }
  ConnectionOptions options() {
    ConnectionOptions o;
    o.hub = &hub_;
    o.client = hub_.attach(inbox_);
    o.timers = &timers_;
    o.origin = "http://app.example";
    return o;
  }

  ViewRegistry views_;
  TokenKey key_;
  LiveHub hub_;
  ChildHookTimers timers_;
  std::shared_ptr<ChildHookInbox> inbox_ = std::make_shared<ChildHookInbox>();
};

TEST_F(ChildHooksTest, EachChildsTimerStartsWithItAndTicksOnlyIt) {
  LiveConnection conn(views_, key_, options());
  std::string f = conn.on_frame(join(), kChildHookNowMs).frames.at(0);
  int64_t k0 = number_of(f, "kid-k0"), k1 = number_of(f, "kid-k1");
  ASSERT_GT(k0, 0);
  ASSERT_GT(k1, 0);
  ASSERT_EQ(timers_.running.size(), 2u);
  EXPECT_EQ(hub_.active_timers(), 2);
  const auto* t1 = timer_of(k1);
  ASSERT_NE(t1, nullptr);
  EXPECT_EQ(t1->every_ms, 1000);
  EXPECT_EQ(t1->hook, 3u);
  EXPECT_EQ(conn.mount_of(t1->view), t1->mount);
  EXPECT_TRUE(conn.on_timer(t1->view, t1->mount, t1->hook, kChildHookNowMs + 1000).frames.empty());
  EXPECT_TRUE(conn.dirty());
  ConnectionOutput out = conn.flush();
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find("k1 ticks=1"), std::string::npos) << out.frames[0];
  f = full(conn);
  EXPECT_NE(f.find("k0 ticks=0"), std::string::npos) << f;
  EXPECT_NE(f.find("k1 ticks=1"), std::string::npos) << f;
  // Renders keep the running timers (no restart per render).
  ASSERT_EQ(timers_.running.size(), 2u);
  EXPECT_EQ(hub_.active_timers(), 2);
}

TEST_F(ChildHooksTest, AMessageToAChildsTopicUpdatesOnlyThatChild) {
  LiveConnection conn(views_, key_, options());
  conn.on_frame(join(), kChildHookNowMs);
  EXPECT_TRUE(conn.on_message("room/k0", R"("hello")", kChildHookNowMs).frames.empty());
  ConnectionOutput out = conn.flush();
  ASSERT_EQ(out.frames.size(), 1u);
  std::string f = full(conn);
  EXPECT_NE(f.find("k0 ticks=0 msg=&quot;hello&quot;"), std::string::npos) << f;
  EXPECT_NE(f.find("k1 ticks=0 msg=-"), std::string::npos) << f;
  // A topic nobody subscribed to changes nothing.
  conn.on_message("room/k9", R"("x")", kChildHookNowMs);
  EXPECT_FALSE(conn.dirty());
}

TEST_F(ChildHooksTest, AHiddenChildsTimerAndSubscriptionStop) {
  LiveConnection conn(views_, key_, options());
  std::string f = conn.on_frame(join(), kChildHookNowMs).frames.at(0);
  int64_t root = root_number(f), k1 = number_of(f, "kid-k1");
  ASSERT_NE(timer_of(k1), nullptr);
  EXPECT_EQ(hub_.presence_json("lobby"), R"([{"key":"k0","metas":[{}]},{"key":"k1","metas":[{}]}])");
  ChildHookTimers::Running gone = *timer_of(k1);
  ConnectionOutput out = conn.on_frame(ev(1, root, "less"), kChildHookNowMs);
  ASSERT_EQ(out.frames.size(), 2u) << out.frames[0];
  EXPECT_EQ(timers_.running.size(), 1u);
  EXPECT_EQ(timer_of(k1), nullptr);
  EXPECT_EQ(hub_.active_timers(), 1);
  EXPECT_EQ(conn.mount_of(gone.view), 0u);
  EXPECT_EQ(hub_.subscribers(Subscription::Kind::Message, "room/k1"), 0u);
  EXPECT_EQ(hub_.subscribers(Subscription::Kind::Message, "room/k0"), 1u);
  EXPECT_EQ(hub_.presence_json("lobby"), R"([{"key":"k0","metas":[{}]}])");
  // A tick already queued for it, and a message to its topic, do nothing.
  conn.on_timer(gone.view, gone.mount, gone.hook, kChildHookNowMs);
  conn.on_message("room/k1", R"("late")", kChildHookNowMs);
  EXPECT_FALSE(conn.dirty());
  // Shown again: a new instance (new number), its own timer.
  out = conn.on_frame(ev(2, root, "more"), kChildHookNowMs);
  EXPECT_EQ(timers_.running.size(), 2u);
  EXPECT_EQ(hub_.active_timers(), 2);
  f = full(conn);
  int64_t again = number_of(f, "kid-k1");
  EXPECT_NE(again, k1);
  ASSERT_NE(timer_of(again), nullptr);
  EXPECT_NE(timer_of(again)->mount, gone.mount);
}

TEST_F(ChildHooksTest, WhatAChildsEventTracksLeavesWithTheChild) {
  LiveConnection conn(views_, key_, options());
  std::string f = conn.on_frame(join(), kChildHookNowMs).frames.at(0);
  int64_t root = root_number(f), k1 = number_of(f, "kid-k1");
  conn.on_frame(ev(1, k1, "visit"), kChildHookNowMs);
  EXPECT_EQ(hub_.presence_json("hall"), R"([{"key":"k1","metas":[{}]}])");
  conn.on_frame(ev(2, root, "less"), kChildHookNowMs);
  EXPECT_EQ(hub_.presence_json("hall"), "[]");
}

TEST_F(ChildHooksTest, AFailingChildHookRollsTheRootBack) {
  LiveConnection conn(views_, key_, options());
  std::string f = conn.on_frame(join(), kChildHookNowMs).frames.at(0);
  int64_t k0 = number_of(f, "kid-k0");
  conn.on_frame(ev(1, k0, "setfail"), kChildHookNowMs);
  const auto* t = timer_of(k0);
  ASSERT_NE(t, nullptr);
  ConnectionOutput out = conn.on_timer(t->view, t->mount, t->hook, kChildHookNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("t":"error","v":"fz-1")"), std::string::npos) << out.frames[0];
  EXPECT_FALSE(conn.dirty());
  EXPECT_NE(full(conn).find("k0 ticks=0"), std::string::npos);
}

TEST_F(ChildHooksTest, LeaveAndCloseStopEveryChildsTimer) {
  {
    LiveConnection conn(views_, key_, options());
    conn.on_frame(join(), kChildHookNowMs);
    EXPECT_EQ(hub_.active_timers(), 2);
    conn.on_frame(R"({"t":"leave","v":"fz-1"})", kChildHookNowMs);
    EXPECT_TRUE(timers_.running.empty());
    EXPECT_EQ(hub_.active_timers(), 0);
    EXPECT_EQ(hub_.presence_json("lobby"), "[]");
    conn.on_frame(join(), kChildHookNowMs);
    EXPECT_EQ(hub_.active_timers(), 2);
    // A rejoin replaces the children and their timers.
    conn.on_frame(join(), kChildHookNowMs);
    EXPECT_EQ(timers_.running.size(), 2u);
    EXPECT_EQ(hub_.active_timers(), 2);
  }
  EXPECT_TRUE(timers_.running.empty());
  EXPECT_EQ(hub_.active_timers(), 0);
}

}  // namespace
}  // namespace fitz::live
