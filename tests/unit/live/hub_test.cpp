// LiveHub without sockets (views.md §1.8): topic subscriptions and their fan-out (once per
// connection), presence with two tabs of one key collapsed, untracking on unmount, on a silent
// heartbeat and on detach, the relay to other replicas, presence merged across replicas, the
// timer count.
#include <gtest/gtest.h>

#include "fitz/live/hub.h"

namespace fitz::live {
namespace {

struct Recorder final : HubClient {
  struct Got {
    Subscription::Kind kind;
    std::string topic, json;
  };
  std::vector<Got> got;
  void deliver(Subscription::Kind kind, const std::string& topic, std::shared_ptr<const std::string> json) override {
    got.push_back(Got{kind, topic, *json});
  }
  size_t count(Subscription::Kind kind) const {
    size_t n = 0;
    for (const Got& g : got) n += g.kind == kind;
    return n;
  }
  std::string last_presence() const {
    for (auto it = got.rbegin(); it != got.rend(); ++it)
      if (it->kind == Subscription::Kind::Presence) return it->json;
    return "";
  }
};

constexpr auto kMsg = Subscription::Kind::Message;
constexpr auto kPresence = Subscription::Kind::Presence;

TEST(LiveHub, PublishReachesEachSubscribedConnectionOnce) {
  LiveHub hub;
  auto a = std::make_shared<Recorder>(), b = std::make_shared<Recorder>(), c = std::make_shared<Recorder>();
  uint64_t ia = hub.attach(a), ib = hub.attach(b);
  hub.attach(c);
  hub.subscribe(ia, "fz-1", kMsg, "chat:x");
  hub.subscribe(ia, "fz-2", kMsg, "chat:x");  // two views of one connection: one delivery
  hub.subscribe(ib, "fz-1", kMsg, "chat:x");
  hub.subscribe(ib, "fz-1", kMsg, "chat:y");
  EXPECT_EQ(hub.subscribers(kMsg, "chat:x"), 2u);
  hub.publish("chat:x", R"({"text":"hi"})");
  ASSERT_EQ(a->got.size(), 1u);
  EXPECT_EQ(a->got[0].json, R"({"text":"hi"})");
  EXPECT_EQ(b->got.size(), 1u);
  EXPECT_TRUE(c->got.empty());
  hub.publish("chat:none", "1");
  EXPECT_EQ(a->got.size() + b->got.size(), 2u);
}

TEST(LiveHub, UnsubscribeOnUnmountAndDetach) {
  LiveHub hub;
  auto a = std::make_shared<Recorder>();
  uint64_t ia = hub.attach(a);
  hub.subscribe(ia, "fz-1", kMsg, "t");
  hub.subscribe(ia, "fz-2", kMsg, "t");
  hub.drop_view(ia, "fz-1");
  hub.publish("t", "1");
  EXPECT_EQ(a->got.size(), 1u);  // fz-2 still listens
  hub.drop_view(ia, "fz-2");
  EXPECT_EQ(hub.subscribers(kMsg, "t"), 0u);
  hub.publish("t", "2");
  EXPECT_EQ(a->got.size(), 1u);

  hub.subscribe(ia, "fz-3", kMsg, "t");
  hub.detach(ia);
  hub.publish("t", "3");
  EXPECT_EQ(a->got.size(), 1u);
  EXPECT_EQ(hub.subscribers(kMsg, "t"), 0u);
  hub.subscribe(ia, "fz-4", kMsg, "t");  // a detached id is nobody
  EXPECT_EQ(hub.subscribers(kMsg, "t"), 0u);
}

TEST(LiveHub, AConnectionGoneWithoutDetachIsSkipped) {
  LiveHub hub;
  auto a = std::make_shared<Recorder>();
  uint64_t ia = hub.attach(a);
  hub.subscribe(ia, "fz-1", kMsg, "t");
  a.reset();
  hub.publish("t", "1");  // the weak pointer is expired: nothing to call, no crash
  SUCCEED();
}

TEST(LiveHub, PresenceCollapsesTwoTabsOfOneKey) {
  LiveHub hub;
  auto watcher = std::make_shared<Recorder>(), ann1 = std::make_shared<Recorder>(),
       ann2 = std::make_shared<Recorder>(), bob = std::make_shared<Recorder>();
  uint64_t w = hub.attach(watcher), a1 = hub.attach(ann1), a2 = hub.attach(ann2), b = hub.attach(bob);
  hub.subscribe(w, "fz-1", kPresence, "room:x");
  EXPECT_EQ(watcher->last_presence(), "[]");  // the current list at once
  hub.track(a1, "fz-1", "room:x", "Ann", R"({"tab":1})");
  hub.track(b, "fz-1", "room:x", "Bob", R"({"tab":3})");
  hub.track(a2, "fz-1", "room:x", "Ann", R"({"tab":2})");
  EXPECT_EQ(watcher->last_presence(),
            R"([{"key":"Ann","metas":[{"tab":1},{"tab":2}]},{"key":"Bob","metas":[{"tab":3}]}])");
  EXPECT_EQ(watcher->count(kPresence), 4u);
  // Re-tracking the same view replaces its meta.
  hub.track(b, "fz-1", "room:x", "Bob", R"({"tab":4})");
  EXPECT_EQ(hub.presence_json("room:x"),
            R"([{"key":"Ann","metas":[{"tab":1},{"tab":2}]},{"key":"Bob","metas":[{"tab":4}]}])");

  // A late subscriber learns the list at once.
  hub.subscribe(b, "fz-1", kPresence, "room:x");
  EXPECT_EQ(bob->last_presence(), hub.presence_json("room:x"));

  hub.drop_view(a1, "fz-1");  // one of Ann's tabs closes: she is still online
  EXPECT_EQ(watcher->last_presence(), R"([{"key":"Ann","metas":[{"tab":2}]},{"key":"Bob","metas":[{"tab":4}]}])");
  hub.detach(a2);
  EXPECT_EQ(watcher->last_presence(), R"([{"key":"Bob","metas":[{"tab":4}]}])");
  // Other topics' subscribers hear nothing of it.
  hub.track(b, "fz-1", "room:other", "Bob", "{}");
  EXPECT_EQ(watcher->last_presence(), R"([{"key":"Bob","metas":[{"tab":4}]}])");
}

TEST(LiveHub, SilentHeartbeatUntracksButKeepsSubscriptions) {
  LiveHub hub;
  auto watcher = std::make_shared<Recorder>(), quiet = std::make_shared<Recorder>();
  uint64_t w = hub.attach(watcher), q = hub.attach(quiet);
  hub.subscribe(w, "fz-1", kPresence, "room:x");
  hub.subscribe(q, "fz-1", kMsg, "chat:x");
  hub.track(q, "fz-1", "room:x", "Quiet", "{}");
  hub.track(q, "fz-2", "room:y", "Quiet", "{}");
  hub.untrack_client(q);
  EXPECT_EQ(watcher->last_presence(), "[]");
  EXPECT_EQ(hub.presence_json("room:y"), "[]");
  hub.publish("chat:x", "1");
  EXPECT_EQ(quiet->count(kMsg), 1u);
}

TEST(LiveHub, RelayCarriesLocalPublishesOnly) {
  LiveHub hub;
  std::vector<std::pair<std::string, std::string>> relayed;
  hub.set_relay([&](const std::string& t, const std::string& j) { relayed.emplace_back(t, j); });
  auto a = std::make_shared<Recorder>();
  uint64_t ia = hub.attach(a);
  hub.subscribe(ia, "fz-1", kMsg, "t");
  hub.publish("t", "1");
  hub.deliver_local("t", "2");  // from another replica: not sent back out
  ASSERT_EQ(relayed.size(), 1u);
  EXPECT_EQ(relayed[0], (std::pair<std::string, std::string>{"t", "1"}));
  ASSERT_EQ(a->got.size(), 2u);
  EXPECT_EQ(a->got[1].json, "2");
}

// Two replicas whose presence states travel synchronously, as pubsub would carry them; a link
// can be cut to play a replica that died or one that is not listening yet.
struct Replicas {
  static constexpr int64_t kRefresh = 1000;
  LiveHub a, b;
  bool a_to_b = true, b_to_a = true;
  int64_t now = 10000;
  std::vector<std::string> sent;  // every state, either way
  Replicas() {
    a.set_presence_relay([this](const std::string& t, const std::string& st) {
      sent.push_back(st);
      if (a_to_b) b.deliver_presence(t, st, now);
    }, kRefresh);
    b.set_presence_relay([this](const std::string& t, const std::string& st) {
      sent.push_back(st);
      if (b_to_a) a.deliver_presence(t, st, now);
    }, kRefresh);
  }
};

TEST(LiveHub, PresenceMergesTheEntriesOfEveryReplica) {
  Replicas r;
  auto ann = std::make_shared<Recorder>(), bob = std::make_shared<Recorder>(), ann2 = std::make_shared<Recorder>();
  uint64_t ia = r.a.attach(ann), ib = r.b.attach(bob), ia2 = r.b.attach(ann2);
  r.a.subscribe(ia, "fz-1", kPresence, "room:x");
  r.b.subscribe(ib, "fz-1", kPresence, "room:x");
  r.a.track(ia, "fz-1", "room:x", "Ann", R"({"tab":1})");
  r.b.track(ib, "fz-1", "room:x", "Bob", R"({"tab":2})");
  std::string both = R"([{"key":"Ann","metas":[{"tab":1}]},{"key":"Bob","metas":[{"tab":2}]}])";
  EXPECT_EQ(ann->last_presence(), both);
  EXPECT_EQ(bob->last_presence(), both);
  // One key on two replicas: one entry, this replica's metas first.
  r.b.track(ia2, "fz-1", "room:x", "Ann", R"({"tab":3})");
  EXPECT_EQ(bob->last_presence(),
            R"([{"key":"Ann","metas":[{"tab":3},{"tab":1}]},{"key":"Bob","metas":[{"tab":2}]}])");
  EXPECT_EQ(ann->last_presence(),
            R"([{"key":"Ann","metas":[{"tab":1},{"tab":3}]},{"key":"Bob","metas":[{"tab":2}]}])");
  // Leaving on one replica reaches the other.
  r.a.detach(ia);
  r.b.drop_view(ia2, "fz-1");
  EXPECT_EQ(bob->last_presence(), R"([{"key":"Bob","metas":[{"tab":2}]}])");
  EXPECT_EQ(r.a.presence_json("room:x"), R"([{"key":"Bob","metas":[{"tab":2}]}])");
}

TEST(LiveHub, AReplicaThatStopsRefreshingLeavesTheLists) {
  Replicas r;
  auto ann = std::make_shared<Recorder>(), bob = std::make_shared<Recorder>();
  uint64_t ia = r.a.attach(ann), ib = r.b.attach(bob);
  r.b.subscribe(ib, "fz-1", kPresence, "room:x");
  r.a.track(ia, "fz-1", "room:x", "Ann", "{}");
  ASSERT_EQ(bob->last_presence(), R"([{"key":"Ann","metas":[{}]}])");
  // While A refreshes, its entries stay however long it has been.
  for (int i = 0; i < 5; i++) {
    r.now += Replicas::kRefresh;
    r.a.tick_presence(r.now);
    r.b.tick_presence(r.now);
  }
  EXPECT_EQ(bob->last_presence(), R"([{"key":"Ann","metas":[{}]}])");
  // A dies: its last state is dropped after three periods without a refresh, and B's views hear it.
  r.a_to_b = false;
  size_t before = bob->count(kPresence);
  r.now += 2 * Replicas::kRefresh;
  r.b.tick_presence(r.now);
  EXPECT_EQ(bob->count(kPresence), before);
  r.now += 2 * Replicas::kRefresh;
  r.b.tick_presence(r.now);
  EXPECT_EQ(bob->last_presence(), "[]");
}

TEST(LiveHub, AReplicaStartingToWatchATopicAsksTheOthers) {
  Replicas r;
  r.a_to_b = false;  // B is not listening yet when Ann arrives on A
  auto ann = std::make_shared<Recorder>(), bob = std::make_shared<Recorder>();
  uint64_t ia = r.a.attach(ann), ib = r.b.attach(bob);
  r.a.track(ia, "fz-1", "room:x", "Ann", "{}");
  r.a_to_b = true;
  r.b.subscribe(ib, "fz-1", kPresence, "room:x");  // asks; A answers with its state
  EXPECT_EQ(bob->last_presence(), R"([{"key":"Ann","metas":[{}]}])");
  // A second view of B on the topic asks nothing more.
  size_t states = r.sent.size();
  r.b.subscribe(ib, "fz-2", kPresence, "room:x");
  EXPECT_EQ(r.sent.size(), states);
}

TEST(LiveHub, AMalformedOrOwnPresenceStateChangesNothing) {
  LiveHub hub;
  auto w = std::make_shared<Recorder>();
  uint64_t iw = hub.attach(w);
  hub.subscribe(iw, "fz-1", kPresence, "room:x");
  for (std::string bad : std::vector<std::string>{"", "[", "{\"r\":1}", "{\"e\":[]}", "{\"r\":\"x\",\"e\":[{\"key\":\"A\",\"metas\":[}]}",
                          "{\"r\":\"" + hub.replica() + "\",\"e\":[{\"key\":\"Me\",\"metas\":[1]}]}"})
    hub.deliver_presence("room:x", bad, 1);
  EXPECT_EQ(hub.presence_json("room:x"), "[]");
  EXPECT_EQ(w->count(kPresence), 1u);  // only the list it got when it subscribed
}

TEST(LiveHub, CountsTimers) {
  LiveHub hub;
  hub.timers_started(2);
  hub.timers_stopped(1);
  EXPECT_EQ(hub.active_timers(), 1);
}

}  // namespace
}  // namespace fitz::live
