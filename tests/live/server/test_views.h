// Hand-written live views standing in for generated ones in the end-to-end and unit tests: a
// Counter (`Count: N` and a + button), a Text view whose state string and link come from the
// token's props, rendered through the escaping and URL filtering of fitz/live, and the server
// push views: a Clock (`on every`) and a Chat room (`on message`, `on presence`, `ctx.publish`,
// `ctx.presence.track`), and a Saver whose `save` is async (it awaits 1.5 s, as a slow database
// write would).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "fitz/http/json.h"
#include "fitz/live/view.h"

namespace fitz::live::testing {

class Counter final : public View {
 public:
  Node render(const RenderContext& ctx) const override {
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "count").child(text("Count: " + std::to_string(count_))))
        .child(el("button").attr("id", "inc").attr("data-fz-on-click", "inc").child(text("+")))
        .child(el("button").attr("id", "fail").attr("data-fz-on-click", "fail").child(text("fail")));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "inc") {
      count_++;
      return std::nullopt;
    }
    if (name == "fail") {
      count_ += 100;  // rolled back by the runtime: the handler fails after changing state
      return EventError{"handler", "fail: always fails"};
    }
    return EventError{"event", "unknown event " + std::string(name)};
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Counter>(*this); }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

// Props: {"text": Str, "url": Str} (the test server writes them; unknown fields are ignored).
class TextView final : public View {
 public:
  TextView(std::string s, std::string url) : s_(std::move(s)), url_(std::move(url)) {}
  Node render(const RenderContext& ctx) const override {
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "shown").attr("title", s_).child(text(s_)))
        .child(el("a").attr("id", "link").attr("href", url_).child(text("link")))
        .child(el("button").attr("id", "twice").attr("data-fz-on-click", "twice").child(text("twice")));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name != "twice") return EventError{"event", "unknown event " + std::string(name)};
    s_ += s_;
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<TextView>(*this); }

 private:
  std::string s_;
  std::string url_;
};

// `on every 1s { ticks += 1 }`; "crash" makes the next tick throw (a failed hook).
class Clock final : public View {
 public:
  explicit Clock(int64_t every_ms = 1000) : every_ms_(every_ms) {}
  Node render(const RenderContext& ctx) const override {
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "ticks").child(text("Ticks: " + std::to_string(ticks_))));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    return EventError{"event", "unknown event " + std::string(name)};
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Clock>(*this); }
  std::vector<TimerSpec> timers() const override { return {TimerSpec{every_ms_, 1}}; }
  std::optional<EventError> on_hook(uint32_t hook, std::string_view) override {
    if (hook != 1) return EventError{"handler", "no hook " + std::to_string(hook)};
    ticks_++;
    return std::nullopt;
  }
  int64_t ticks() const { return ticks_; }

 private:
  int64_t every_ms_;
  int64_t ticks_ = 0;
};

// Props {"room": Str, "name": Str, "track": Bool}. `event send(text, name)` publishes
// {name, text} to "chat:{room}"; `on message "chat:{room}"` appends; mount(connected) tracks
// `name` on "room:{room}" unless `track` is false (the benchmark's readers, which would
// otherwise measure a thousand presence lists); `on presence "room:{room}"` shows "N online: names".
class Chat final : public View {
 public:
  static constexpr uint32_t kMessageHook = 1, kPresenceHook = 2;
  Chat(std::string room, std::string name, bool track = true)
      : room_(std::move(room)), name_(std::move(name)), track_(track) {}

  void mount(bool connected) override {
    if (connected && track_ && env.effects) env.effects->track("room:" + room_, name_, "{\"name\":" + json(name_) + "}");
  }
  Node render(const RenderContext& ctx) const override {
    std::string names;
    for (const std::string& n : online_) names += (names.empty() ? "" : ", ") + n;
    Node list = el("ul").attr("id", "messages");
    for (const auto& [who, said] : messages_) list.child(el("li").child(text(who + ": " + said)));
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "online").child(text(std::to_string(online_.size()) + " online: " + names)))
        .child(std::move(list))
        .child(el("form")
                   .attr("id", "send")
                   .attr("data-fz-on-submit", "send")
                   .child(el("input").attr("id", "name").attr("name", "name").attr("value", name_))
                   .child(el("input").attr("id", "text").attr("name", "text").bool_attr("data-fz-clear-on-submit", true))
                   .child(el("button").attr("id", "go").attr("type", "submit").child(text("Send"))));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload& payload) override {
    if (name != "send") return EventError{"event", "unknown event " + std::string(name)};
    std::string who, said;
    for (const auto& [k, v] : payload) {
      if (k == "name") who = v;
      if (k == "text") said = v;
    }
    if (said.empty()) return std::nullopt;
    if (env.effects) env.effects->publish("chat:" + room_, "{\"name\":" + json(who) + ",\"text\":" + json(said) + "}");
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Chat>(*this); }
  std::vector<Subscription> subscriptions() const override {
    return {Subscription{Subscription::Kind::Message, "chat:" + room_, kMessageHook},
            Subscription{Subscription::Kind::Presence, "room:" + room_, kPresenceHook}};
  }
  std::optional<EventError> on_hook(uint32_t hook, std::string_view body) override {
    http::JsonReader r(body.data(), body.size());
    http::Text key;
    if (hook == kMessageHook) {
      std::string who, said;
      bool ok = r.begin_object(), has_text = false;
      while (ok && r.next_key(&key)) {
        Str v;
        if (key == http::Text("name") && (ok = r.read_str(&v))) who = v.as<std::string>();
        else if (key == http::Text("text") && (ok = r.read_str(&v))) said = v.as<std::string>(), has_text = true;
        else if (ok) ok = r.skip_value();
      }
      if (!ok || !r.ok() || !has_text) return EventError{"args", "ChatMsg: " + (r.ok() ? std::string("missing text") : r.error().as<std::string>())};
      messages_.emplace_back(std::move(who), std::move(said));
      return std::nullopt;
    }
    if (hook == kPresenceHook) {
      std::vector<std::string> keys;
      bool ok = r.begin_array();
      while (ok && r.next_element()) {
        ok = r.begin_object();
        while (ok && r.next_key(&key)) {
          Str v;
          if (key == http::Text("key") && (ok = r.read_str(&v))) keys.push_back(v.as<std::string>());
          else if (ok) ok = r.skip_value();
        }
      }
      if (!ok || !r.ok()) return EventError{"args", "presence: " + r.error().as<std::string>()};
      online_ = std::move(keys);
      return std::nullopt;
    }
    return EventError{"handler", "no hook " + std::to_string(hook)};
  }
  const std::vector<std::string>& online() const { return online_; }
  size_t messages() const { return messages_.size(); }

 private:
  static std::string json(const std::string& s) { return http::to_json(Str::from(s)).as<std::string>(); }
  std::string room_, name_;
  bool track_;
  std::vector<std::pair<std::string, std::string>> messages_;
  std::vector<std::string> online_;
};

// `save` is an async handler: it counts only after awaiting `delay_ms`; the page's other views
// must be served meanwhile (views.md §1.8).
class Saver final : public View {
 public:
  Node render(const RenderContext& ctx) const override {
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "saved").child(text("Saved: " + std::to_string(saved_))))
        .child(el("button").attr("id", "save").attr("data-fz-on-click", "save").child(text("save")));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name != "save") return EventError{"event", "unknown event " + std::string(name)};
    start_async(save());
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Saver>(*this); }

 private:
  Task<Null> save() {
    co_await sleep(delay_ms_);
    saved_++;
    co_return null;
  }
  int64_t delay_ms_ = 1500;
  int saved_ = 0;
};

}  // namespace fitz::live::testing
