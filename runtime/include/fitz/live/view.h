// The C++ shape of a live view (views.md §0, §1.3, §1.5): what generated code (or a hand-written
// test view) implements, and the registry that turns a join token's view name and props back
// into an instance. No I/O; the connection state machine (connection.h) drives these.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include "fitz/live/node.h"
#include "fitz/task.h"

namespace fitz::live {

class InstanceTable;
class ChildTable;

// A child's slot content (§1.4), by slot name ("" = the default slot): already rendered by the
// parent, in the parent's scope.
using Slots = std::map<std::string, std::vector<Node>, std::less<>>;

// What a render needs from the runtime: the instance number the component carries in
// `data-fz-c` (0 in the plain GET render, before any connection has a table), whether a
// socket is attached (`ctx.connected`), the connection's instance table that numbers the
// children (null in the GET render: every child is 0 there, since no socket can send an event
// before its join answers a `full` rendered with the table), and a child's slot content.
struct RenderContext {
  uint32_t component = 0;
  bool connected = false;
  InstanceTable* instances = nullptr;
  const Slots* slots = nullptr;
};

// The raw payload of an `ev` (§1.3 `payload`), in the order the client sent it.
using Payload = std::vector<std::pair<std::string, std::string>>;

// Why an event was not applied. `code` goes to the `error` frame ("event" for an unknown event
// name, "args" for a payload that does not convert, "handler" for a failing handler); the
// message only in dev.
struct EventError {
  std::string code;
  std::string message;
};

// What a body's `ctx` reaches besides plain values (§1.3, §1.8): the runtime's pubsub,
// presence and navigation. The runtime sets it for the duration of each call into a view.
class LiveEffects {
 public:
  virtual ~LiveEffects() = default;
  // `ctx.publish(topic, v)`: `json` is the value serialized; delivered to every subscriber of
  // `topic` (this view included), in this process and, when configured, other replicas.
  virtual void publish(std::string_view topic, std::string json) = 0;
  // `ctx.presence.track(topic, key, meta)`: until the view unmounts or its socket goes silent.
  virtual void track(std::string_view topic, std::string_view key, std::string meta_json) = 0;
  // `ctx.redirect(url, external:)`: same-origin only unless `external`.
  virtual void redirect(std::string_view url, bool external) = 0;
  // The effects of the child instance numbered `number` under this view: the same, except that
  // what it tracks leaves with that child (children.h hands them to each child).
  virtual LiveEffects* for_child(uint32_t number) { return this; }
};

// The values of `ctx` (§1.3). `user_json` is the auth principal as JSON ("null": anonymous).
struct ViewEnv {
  std::string user_json = "null";
  std::string session;
  std::vector<std::pair<std::string, std::string>> params, query;
  bool connected = false;
  LiveEffects* effects = nullptr;  // null: ctx.publish/track/redirect do nothing (GET render)
  // `emit name(args)` of the event being handled, in order: the parent runs its `@name=`
  // handlers with them (children.h) once the child's handler returned.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> emitted;
};

// `on message "topic" (m: T)` and `on presence "topic" (who: ...)` subscriptions, with the topic
// already interpolated from the props; `hook` is what `on_hook` receives back.
struct Subscription {
  enum class Kind : uint8_t { Message, Presence };
  Kind kind = Kind::Message;
  std::string topic;
  uint32_t hook = 0;
};

// `on every 1s { ... }`: runs while the view is connected.
struct TimerSpec {
  int64_t every_ms = 1000;
  uint32_t hook = 0;
};

// One mounted component instance. The runtime calls `render` after `mount` and after each
// accepted event, and diffs the result against the tree it last sent.
class View {
 public:
  virtual ~View() = default;
  // `on mount`: on the GET render (connected == false) and after the socket joins (true).
  virtual void mount(bool connected) {}
  // `on unmount`: leave, socket gone; never after the plain GET render.
  virtual void unmount() {}
  // The root's content: one element, which should carry `data-fz-c` = ctx.component so the
  // client sends that number with its events. The runtime owns the root div around it.
  virtual Node render(const RenderContext& ctx) const = 0;
  // Runs handler `name` (never a hook: the frame parser refuses those). An error leaves the
  // view as it was before the call (the runtime restores a `snapshot` taken just before).
  virtual std::optional<EventError> handle_event(std::string_view name, const Payload& payload) = 0;
  // A copy of the state, for rolling back a failed handler (§1.3: handlers work on a copy).
  virtual std::unique_ptr<View> snapshot() const = 0;

  // The subscriptions and timers of this instance, read after `mount(true)`.
  virtual std::vector<Subscription> subscriptions() const { return {}; }
  virtual std::vector<TimerSpec> timers() const { return {}; }
  // Runs hook `hook` of a subscription or timer. `json` is the message (Message), the presence
  // list as a JSON array of {"key": .., "metas": [..]} (Presence), or "" (timer). A message that
  // does not decode as the hook's parameter type is an EventError with code "args" (logged,
  // dropped, state unchanged).
  virtual std::optional<EventError> on_hook(uint32_t hook, std::string_view json) { return std::nullopt; }
  // The child instances this view's template renders (children.h); null when it has none.
  virtual ChildTable* children() { return nullptr; }

  // An async handler or hook (`async event`, `async on ...`, §1.3) does not run to its end
  // inside handle_event, on_hook, mount or unmount: the call starts it (up to its first
  // `.await`) and leaves it here, and the runtime awaits it on the view's own queue (§1.8) so
  // the socket's loop keeps serving. A runtime error inside it is the handler's failure.
  // Empty after a call that finished.
  Task<Null> take_started() { return std::move(started_.task); }
  bool has_started() const { return started_.task.valid(); }
  // A child's started task, awaited after any this view already holds: the runtime awaits only
  // the root's (children.cpp), and the child lives inside the root until the task ends.
  void adopt_started(Task<Null> t);

  // Set by the runtime before every call above.
  ViewEnv env;

 protected:
  void start_async(Task<Null> t) { started_.task = std::move(t); }

 private:
  // A copy of the view (snapshot) never shares the original's running task.
  struct Started {
    Task<Null> task;
    Started() = default;
    Started(const Started&) {}
    Started& operator=(const Started&) { return *this; }
  };
  Started started_;
};

// Makes a view from the props JSON its token carries; null with `*error` set when the props do
// not decode.
using ViewFactory = std::function<std::unique_ptr<View>(std::string_view props_json, std::string* error)>;

// The views of an app, by component name. Filled once at startup and then only read, so one
// registry is shared by every connection without locking.
class ViewRegistry {
 public:
  void add(std::string name, ViewFactory factory) { factories_[std::move(name)] = std::move(factory); }
  const ViewFactory* find(std::string_view name) const {
    auto it = factories_.find(name);
    return it == factories_.end() ? nullptr : &it->second;
  }
  bool empty() const { return factories_.empty(); }

 private:
  std::map<std::string, ViewFactory, std::less<>> factories_;
};

}  // namespace fitz::live
