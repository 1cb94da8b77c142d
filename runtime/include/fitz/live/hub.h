// The app-wide side of server push (views.md §1.3, §1.8): pubsub topics and their subscribed
// connections, presence per topic, and the count of running `on every` timers. One LiveHub per
// app, shared by every connection on every loop, so it locks; it does no I/O itself: it hands
// deliveries to each connection's `HubClient`, which moves them onto that connection's loop.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>
#include "fitz/live/view.h"

namespace fitz::live {

// One connection as the hub sees it. `deliver` is called from any thread (the publisher's),
// at most once per topic and publish whatever the number of the connection's views on that
// topic: it must not block nor call back into the hub, only hand the delivery over.
class HubClient {
 public:
  virtual ~HubClient() = default;
  // Message: `json` is the published value. Presence: the topic's whole list (see
  // LiveHub::presence_json).
  virtual void deliver(Subscription::Kind kind, const std::string& topic, std::shared_ptr<const std::string> json) = 0;
};

class LiveHub {
 public:
  // Sends a local publish to the other replicas (FITZ_WS_PUBSUB=postgres); empty: this process only.
  using Relay = std::function<void(const std::string& topic, const std::string& json)>;

  LiveHub();
  LiveHub(const LiveHub&) = delete;
  LiveHub& operator=(const LiveHub&) = delete;

  // A connection joins the hub; the id names it in the calls below.
  uint64_t attach(std::weak_ptr<HubClient> client);
  // The connection is gone: its subscriptions and presence go (presence subscribers hear it).
  void detach(uint64_t client);

  // View `view` of `client` subscribes to `topic`. A presence subscription gets the current
  // list at once (a view that mounts after the others still learns who is there).
  void subscribe(uint64_t client, std::string_view view, Subscription::Kind kind, const std::string& topic);
  // The view unmounted: its subscriptions and presence entries go.
  void drop_view(uint64_t client, std::string_view view);
  // The socket's heartbeat went silent: its presence goes, its subscriptions stay.
  void untrack_client(uint64_t client);

  // `ctx.presence.track`: one entry per key; a second view (tab) with the same key adds its meta
  // to that entry. Re-tracking the same view and key replaces its meta.
  void track(uint64_t client, std::string_view view, const std::string& topic, const std::string& key,
             std::string meta_json);
  // `[{"key": K, "metas": [M, ..]}, ..]`, keys in order, metas in the order tracked.
  std::string presence_json(const std::string& topic) const;

  // To every subscriber in this process, then to the other replicas through the relay.
  void publish(const std::string& topic, std::string json);
  // A message another replica published: this process's subscribers only.
  void deliver_local(const std::string& topic, std::string json);
  // Set before serving.
  void set_relay(Relay relay) { relay_ = std::move(relay); }

  // Presence across replicas (FITZ_WS_PUBSUB=postgres, §1.8). Each replica sends its own
  // entries of a topic as one state whenever they change, and again every `refresh_ms` while it
  // has any; the lists subscribers get merge every replica's entries under their keys. A state
  // not refreshed within three periods is dropped (its replica is gone) and the topic announced.
  // A replica whose views start watching a topic asks the others for their states at once.
  using PresenceRelay = std::function<void(const std::string& topic, const std::string& state)>;
  // Set before serving.
  void set_presence_relay(PresenceRelay relay, int64_t refresh_ms);
  // A state another replica sent (any thread); `now_ms` on the clock `tick_presence` gets.
  void deliver_presence(const std::string& topic, std::string_view state, int64_t now_ms);
  // Called often (each socket's heartbeat watch): at most once per period, resends this
  // replica's states and drops the stale ones of others.
  void tick_presence(int64_t now_ms);
  const std::string& replica() const { return replica_; }

  // Running `on every` timers, for the `fitz_live_active_timers` metric.
  void timers_started(int64_t n) { timers_.fetch_add(n, std::memory_order_relaxed); }
  void timers_stopped(int64_t n) { timers_.fetch_sub(n, std::memory_order_relaxed); }
  int64_t active_timers() const { return timers_.load(std::memory_order_relaxed); }
  // Connections subscribed to `topic` (tests, benchmarks).
  size_t subscribers(Subscription::Kind kind, const std::string& topic) const;

 private:
  struct Sub {
    std::string view;
    Subscription::Kind kind;
    std::string topic;
  };
  struct Client {
    std::weak_ptr<HubClient> sink;
    std::vector<Sub> subs;
  };
  struct Meta {
    uint64_t client;
    std::string view;
    std::string json;
  };
  using Topics = std::map<std::string, std::map<uint64_t, int>, std::less<>>;  // topic -> client -> views
  Topics& topics(Subscription::Kind kind) { return kind == Subscription::Kind::Message ? messages_ : presences_; }
  void unsubscribe_locked(uint64_t client, Client& c, const std::function<bool(const Sub&)>& which);
  // Removes presence metas matching `which`; announces every topic that changed.
  void untrack_locked(const std::function<bool(const Meta&)>& which);
  void announce_locked(const std::string& topic);
  std::string presence_json_locked(const std::string& topic) const;
  // This replica's own entries of `topic` changed: announce, and queue its state for the others.
  void local_presence_changed_locked(const std::string& topic);
  void queue_state_locked(const std::string& topic, bool ask);
  // Sends the queued states; outside the lock, since the relay does I/O.
  void send_states();

  mutable std::mutex mu_;
  uint64_t next_client_ = 1;
  std::unordered_map<uint64_t, Client> clients_;
  Topics messages_, presences_;
  std::map<std::string, std::map<std::string, std::vector<Meta>>, std::less<>> presence_;  // topic -> key -> metas
  Relay relay_;
  // Another replica's entries of one topic: keys in order, each with its raw meta JSON values.
  struct RemoteState {
    int64_t at_ms = 0;
    std::vector<std::pair<std::string, std::vector<std::string>>> entries;
  };
  std::map<std::string, std::map<std::string, RemoteState>, std::less<>> remote_;  // topic -> replica -> state
  PresenceRelay presence_relay_;
  int64_t refresh_ms_ = 10000;
  int64_t last_refresh_ms_ = 0;
  std::vector<std::pair<std::string, std::string>> outbox_;  // (topic, state) to send
  std::string replica_;  // random, so a restarted replica is a new one
  std::atomic<int64_t> timers_{0};
};

}  // namespace fitz::live
