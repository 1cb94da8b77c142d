// LiveHub: pubsub topics, presence and the timer count shared by every live connection of an
// app. See fitz/live/hub.h.
#include "fitz/live/hub.h"

#include <algorithm>
#include <random>

#include "json_text.h"

namespace fitz::live {

namespace {

void write_metas(http::JsonWriter& w, std::string_view key, const std::vector<std::string_view>& metas) {
  w.begin_object();
  w.key("key");
  w.value(detail::json_text(key));
  w.key("metas");
  w.begin_array();
  for (std::string_view m : metas) w.raw(detail::json_text(m.empty() ? std::string_view("null") : m));
  w.end_array();
  w.end_object();
}

// One replica's own entries of a topic (key -> its metas, each with `.json`), in key order.
template <class Keys>
void write_entries(http::JsonWriter& w, const Keys& keys) {
  std::vector<std::string_view> metas;
  for (const auto& [key, ms] : keys) {
    metas.clear();
    for (const auto& m : ms) metas.push_back(m.json);
    write_metas(w, key, metas);
  }
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

LiveHub::LiveHub() {
  std::random_device rd;
  uint64_t id = (uint64_t(rd()) << 32) ^ rd();
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; i++) replica_ += kHex[(id >> (4 * i)) & 15];
}

uint64_t LiveHub::attach(std::weak_ptr<HubClient> client) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id = next_client_++;
  clients_[id].sink = std::move(client);
  return id;
}

void LiveHub::detach(uint64_t client) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = clients_.find(client);
    if (it != clients_.end()) {
      unsubscribe_locked(client, it->second, [](const Sub&) { return true; });
      clients_.erase(it);
    }
    untrack_locked([client](const Meta& m) { return m.client == client; });
  }
  send_states();
}

void LiveHub::subscribe(uint64_t client, std::string_view view, Subscription::Kind kind, const std::string& topic) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = clients_.find(client);
    if (it == clients_.end()) return;
    it->second.subs.push_back(Sub{std::string(view), kind, topic});
    std::map<uint64_t, int>& watching = topics(kind)[topic];
    bool first = watching.empty();
    watching[client]++;
    if (kind != Subscription::Kind::Presence) return;
    // The first view here to watch the topic: the other replicas' entries are not known yet.
    if (first) queue_state_locked(topic, true);
    if (auto sink = it->second.sink.lock())
      sink->deliver(kind, topic, std::make_shared<const std::string>(presence_json_locked(topic)));
  }
  send_states();
}

void LiveHub::drop_view(uint64_t client, std::string_view view) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = clients_.find(client);
    if (it != clients_.end()) unsubscribe_locked(client, it->second, [view](const Sub& s) { return s.view == view; });
    untrack_locked([client, view](const Meta& m) { return m.client == client && m.view == view; });
  }
  send_states();
}

void LiveHub::untrack_client(uint64_t client) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    untrack_locked([client](const Meta& m) { return m.client == client; });
  }
  send_states();
}

void LiveHub::unsubscribe_locked(uint64_t client, Client& c, const std::function<bool(const Sub&)>& which) {
  auto keep = std::remove_if(c.subs.begin(), c.subs.end(), [&](const Sub& s) {
    if (!which(s)) return false;
    Topics& t = topics(s.kind);
    auto topic = t.find(s.topic);
    if (topic != t.end()) {
      auto n = topic->second.find(client);
      if (n != topic->second.end() && --n->second <= 0) topic->second.erase(n);
      if (topic->second.empty()) t.erase(topic);
    }
    return true;
  });
  c.subs.erase(keep, c.subs.end());
}

void LiveHub::untrack_locked(const std::function<bool(const Meta&)>& which) {
  std::vector<std::string> changed;
  for (auto topic = presence_.begin(); topic != presence_.end();) {
    bool touched = false;
    for (auto key = topic->second.begin(); key != topic->second.end();) {
      std::vector<Meta>& metas = key->second;
      size_t before = metas.size();
      metas.erase(std::remove_if(metas.begin(), metas.end(), which), metas.end());
      touched = touched || metas.size() != before;
      key = metas.empty() ? topic->second.erase(key) : std::next(key);
    }
    if (touched) changed.push_back(topic->first);
    topic = topic->second.empty() ? presence_.erase(topic) : std::next(topic);
  }
  for (const std::string& t : changed) local_presence_changed_locked(t);
}

void LiveHub::track(uint64_t client, std::string_view view, const std::string& topic, const std::string& key,
                    std::string meta_json) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Meta>& metas = presence_[topic][key];
    auto same =
        std::find_if(metas.begin(), metas.end(), [&](const Meta& m) { return m.client == client && m.view == view; });
    if (same != metas.end()) {
      same->json = std::move(meta_json);
    } else {
      metas.push_back(Meta{client, std::string(view), std::move(meta_json)});
    }
    local_presence_changed_locked(topic);
  }
  send_states();
}

void LiveHub::local_presence_changed_locked(const std::string& topic) {
  announce_locked(topic);
  queue_state_locked(topic, false);
}

// {"r": replica, "ask": Bool, "e": this replica's entries, as presence_json writes them}.
void LiveHub::queue_state_locked(const std::string& topic, bool ask) {
  if (!presence_relay_) return;
  Buf b;
  http::JsonWriter w(b);
  w.begin_object();
  w.key("r");
  w.value(detail::json_text(replica_));
  w.key("ask");
  w.value(ask);
  w.key("e");
  w.begin_array();
  if (auto it = presence_.find(topic); it != presence_.end()) write_entries(w, it->second);
  w.end_array();
  w.end_object();
  outbox_.emplace_back(topic, std::string(b.data(), b.size()));
}

void LiveHub::send_states() {
  std::vector<std::pair<std::string, std::string>> out;
  PresenceRelay relay;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (outbox_.empty()) return;
    out.swap(outbox_);
    relay = presence_relay_;
  }
  for (const auto& [topic, state] : out) relay(topic, state);
}

void LiveHub::set_presence_relay(PresenceRelay relay, int64_t refresh_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  presence_relay_ = std::move(relay);
  refresh_ms_ = std::max<int64_t>(refresh_ms, 1);
}

void LiveHub::deliver_presence(const std::string& topic, std::string_view state, int64_t now_ms) {
  http::JsonReader r(state.data(), state.size());
  http::Text key;
  std::string replica;
  bool ask = false;
  RemoteState got;
  got.at_ms = now_ms;
  bool ok = r.begin_object();
  while (ok && r.next_key(&key)) {
    if (key == http::Text("r")) {
      Str v;
      if ((ok = r.read_str(&v))) replica = v.as<std::string>();
    } else if (key == http::Text("ask")) {
      ok = r.read_bool(&ask);
    } else if (key == http::Text("e")) {
      ok = r.begin_array();
      while (ok && r.next_element()) {
        std::pair<std::string, std::vector<std::string>> entry;
        ok = r.begin_object();
        while (ok && r.next_key(&key)) {
          if (key == http::Text("key")) {
            Str v;
            if ((ok = r.read_str(&v))) entry.first = v.as<std::string>();
          } else if (key == http::Text("metas")) {
            ok = r.begin_array();
            while (ok && r.next_element()) {
              r.peek();
              size_t from = r.offset();
              if ((ok = r.skip_value())) entry.second.emplace_back(trimmed(state.substr(from, r.offset() - from)));
            }
          } else {
            ok = r.skip_value();
          }
        }
        if (ok && !entry.second.empty()) got.entries.push_back(std::move(entry));
      }
    } else {
      ok = r.skip_value();
    }
  }
  // Not a state this version understands: ignored, like any other replica's mistake.
  if (!ok || !r.ok() || replica.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (replica == replica_) return;
    auto& states = remote_[topic];
    auto it = states.find(replica);
    bool changed = got.entries.empty() ? it != states.end() : it == states.end() || it->second.entries != got.entries;
    if (got.entries.empty()) {
      if (it != states.end()) states.erase(it);
    } else {
      states[replica] = std::move(got);
    }
    if (states.empty()) remote_.erase(topic);
    if (changed) announce_locked(topic);
    if (ask && presence_.contains(topic)) queue_state_locked(topic, false);
  }
  send_states();
}

void LiveHub::tick_presence(int64_t now_ms) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (now_ms - last_refresh_ms_ < refresh_ms_) return;
    last_refresh_ms_ = now_ms;
    for (const auto& entry : presence_) queue_state_locked(entry.first, false);
    std::vector<std::string> changed;
    for (auto topic = remote_.begin(); topic != remote_.end();) {
      size_t before = topic->second.size();
      std::erase_if(topic->second, [&](const auto& st) { return now_ms - st.second.at_ms > 3 * refresh_ms_; });
      if (topic->second.size() != before) changed.push_back(topic->first);
      topic = topic->second.empty() ? remote_.erase(topic) : std::next(topic);
    }
    for (const std::string& t : changed) announce_locked(t);
  }
  send_states();
}

// Under the lock, so every subscriber sees the lists of a topic in the order they changed.
void LiveHub::announce_locked(const std::string& topic) {
  auto subs = presences_.find(topic);
  if (subs == presences_.end()) return;
  auto json = std::make_shared<const std::string>(presence_json_locked(topic));
  for (const auto& entry : subs->second) {
    auto c = clients_.find(entry.first);
    if (c == clients_.end()) continue;
    if (auto sink = c->second.sink.lock()) sink->deliver(Subscription::Kind::Presence, topic, json);
  }
}

std::string LiveHub::presence_json(const std::string& topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  return presence_json_locked(topic);
}

// Every replica's entries: one per key, in key order; this replica's metas first, then the
// others' in the order of their ids.
std::string LiveHub::presence_json_locked(const std::string& topic) const {
  auto local = presence_.find(topic);
  auto remote = remote_.find(topic);
  Buf b;
  http::JsonWriter w(b);
  w.begin_array();
  if (remote == remote_.end()) {
    // One replica (or none of the others has entries here): no merge to build on every announce.
    if (local != presence_.end()) write_entries(w, local->second);
    w.end_array();
    return std::string(b.data(), b.size());
  }
  std::map<std::string_view, std::vector<std::string_view>> merged;
  if (local != presence_.end())
    for (const auto& [key, metas] : local->second)
      for (const Meta& m : metas) merged[key].push_back(m.json);
  for (const auto& st : remote->second)
    for (const auto& [key, metas] : st.second.entries)
      for (const std::string& m : metas) merged[key].push_back(m);
  for (const auto& [key, metas] : merged) write_metas(w, key, metas);
  w.end_array();
  return std::string(b.data(), b.size());
}

void LiveHub::publish(const std::string& topic, std::string json) {
  if (relay_) relay_(topic, json);
  deliver_local(topic, std::move(json));
}

void LiveHub::deliver_local(const std::string& topic, std::string json) {
  std::vector<std::shared_ptr<HubClient>> targets;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto subs = messages_.find(topic);
    if (subs == messages_.end()) return;
    targets.reserve(subs->second.size());
    for (const auto& entry : subs->second) {
      auto c = clients_.find(entry.first);
      if (c == clients_.end()) continue;
      if (auto sink = c->second.sink.lock()) targets.push_back(std::move(sink));
    }
  }
  // Outside the lock: a fan-out to thousands of connections must not stall other topics.
  auto shared = std::make_shared<const std::string>(std::move(json));
  for (auto& t : targets) t->deliver(Subscription::Kind::Message, topic, shared);
}

size_t LiveHub::subscribers(Subscription::Kind kind, const std::string& topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Topics& t = kind == Subscription::Kind::Message ? messages_ : presences_;
  auto it = t.find(topic);
  return it == t.end() ? 0 : it->second.size();
}

}  // namespace fitz::live
