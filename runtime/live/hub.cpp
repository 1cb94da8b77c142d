// LiveHub: pubsub topics, presence and the timer count shared by every live connection of an
// app. See fitz/live/hub.h.
#include "fitz/live/hub.h"

#include <algorithm>

#include "json_text.h"

namespace fitz::live {

uint64_t LiveHub::attach(std::weak_ptr<HubClient> client) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id = next_client_++;
  clients_[id].sink = std::move(client);
  return id;
}

void LiveHub::detach(uint64_t client) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = clients_.find(client);
  if (it != clients_.end()) {
    unsubscribe_locked(client, it->second, [](const Sub&) { return true; });
    clients_.erase(it);
  }
  untrack_locked([client](const Meta& m) { return m.client == client; });
}

void LiveHub::subscribe(uint64_t client, std::string_view view, Subscription::Kind kind, const std::string& topic) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = clients_.find(client);
  if (it == clients_.end()) return;
  it->second.subs.push_back(Sub{std::string(view), kind, topic});
  topics(kind)[topic][client]++;
  if (kind != Subscription::Kind::Presence) return;
  if (auto sink = it->second.sink.lock())
    sink->deliver(kind, topic, std::make_shared<const std::string>(presence_json_locked(topic)));
}

void LiveHub::drop_view(uint64_t client, std::string_view view) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = clients_.find(client);
  if (it != clients_.end()) unsubscribe_locked(client, it->second, [view](const Sub& s) { return s.view == view; });
  untrack_locked([client, view](const Meta& m) { return m.client == client && m.view == view; });
}

void LiveHub::untrack_client(uint64_t client) {
  std::lock_guard<std::mutex> lock(mu_);
  untrack_locked([client](const Meta& m) { return m.client == client; });
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
  for (const std::string& t : changed) announce_locked(t);
}

void LiveHub::track(uint64_t client, std::string_view view, const std::string& topic, const std::string& key,
                    std::string meta_json) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Meta>& metas = presence_[topic][key];
  auto same = std::find_if(metas.begin(), metas.end(), [&](const Meta& m) { return m.client == client && m.view == view; });
  if (same != metas.end()) {
    same->json = std::move(meta_json);
  } else {
    metas.push_back(Meta{client, std::string(view), std::move(meta_json)});
  }
  announce_locked(topic);
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

std::string LiveHub::presence_json_locked(const std::string& topic) const {
  Buf b;
  http::JsonWriter w(b);
  w.begin_array();
  auto it = presence_.find(topic);
  if (it != presence_.end()) {
    for (const auto& [key, metas] : it->second) {
      w.begin_object();
      w.key("key");
      w.value(detail::json_text(key));
      w.key("metas");
      w.begin_array();
      for (const Meta& m : metas) w.raw(detail::json_text(m.json.empty() ? std::string_view("null") : m.json));
      w.end_array();
      w.end_object();
    }
  }
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
