// One live-view socket as a state machine without I/O (views.md §2.2, §2.6, §2.7): client
// frames go in, server frames (and perhaps a close code) come out. The WebSocket runner in
// runtime/live/server only moves bytes; everything a test needs to check lives here.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "fitz/live/frames.h"
#include "fitz/live/hub.h"
#include "fitz/live/instances.h"
#include "fitz/live/token.h"
#include "fitz/live/view.h"
#include "fitz/live/view_state.h"

namespace fitz::live {

// Origin check before the upgrade (§2.2): the Origin's host[:port] equals the Host header
// (case-insensitive), or the whole Origin (scheme://host[:port]) is on the allowlist. A missing
// Origin is refused: every browser sends one on a WebSocket handshake.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowlist);

// What one inbound frame (or delivery, timer tick, flush) produced: frames to send in order,
// then a close when `close_code` != 0. `publishes` (topic, JSON) go to the hub after the frames
// are sent, so a view's own message never overtakes the frame of the handler that published it;
// `logs` are lines for the server log (dropped messages, failed hooks, refused redirects).
struct ConnectionOutput {
  std::vector<std::string> frames;
  uint16_t close_code = 0;
  std::string close_reason;
  std::vector<std::pair<std::string, std::string>> publishes;
  std::vector<std::string> logs;
};

// Runs a connection's `on every` timers: Asio steady timers on the connection's loop in the
// runner, a fake clock in tests. Each tick calls LiveConnection::on_timer(view, mount, hook).
class TimerHost {
 public:
  virtual ~TimerHost() = default;
  virtual void start(const std::string& view, uint64_t mount, uint32_t hook, int64_t every_ms) = 0;
  // Every timer of that mount of the view.
  virtual void stop(const std::string& view, uint64_t mount) = 0;
};

struct ConnectionOptions {
  // The user derived from the upgrade request's cookies, as JSON (`ctx.user`); nullopt when the
  // app has no user resolver (then tokens are not matched to a user). "" is an anonymous user.
  std::optional<std::string> user;
  bool dev = true;  // `error` frames carry their message
  // This server's build (see LiveConfig::build_id); "" turns the check off.
  std::string build_id;
  double max_events_per_sec = 50;
  double event_burst = 100;
  // Server push (§1.3, §1.8): the app's hub and this connection's id in it (from attach), and
  // the timer host. Null: no pubsub, presence or timers (hook deliveries can still be fed in).
  LiveHub* hub = nullptr;
  uint64_t client = 0;
  TimerHost* timers = nullptr;
  // The page's origin ("http://host:port"); `ctx.redirect` to an absolute URL of another origin
  // is refused unless `external`.
  std::string origin;
  // §2.6: this many failed handlers or hooks within `crash_window_ms` crash the instance.
  int crash_failures = 3;
  int64_t crash_window_ms = 10000;
  // Where the output of an async handler, hook or mount goes when its task completes (views.md
  // §1.8): the runner sends it like any other output. Called on the loop that runs the tasks;
  // never after `close`. Null: that output is dropped.
  std::function<void(ConnectionOutput)> on_async;
};

class LiveConnection {
 public:
  LiveConnection(const ViewRegistry& registry, const TokenKey& key, ConnectionOptions options);
  ~LiveConnection();
  LiveConnection(const LiveConnection&) = delete;
  LiveConnection& operator=(const LiveConnection&) = delete;

  // One text frame. `now_ms` is Unix time in milliseconds (token expiry and the rate limiter).
  ConnectionOutput on_frame(std::string_view bytes, int64_t now_ms);
  // The socket is gone: unmounts every view (once).
  void close();
  size_t mounted() const { return views_.size(); }

  // Server push. A delivery runs the hooks of every view subscribed to `topic` (state changes
  // only); the renders wait for `flush`, so a burst of deliveries in one loop turn makes one
  // patch per view (§2.4). A hook failing with code "args" is logged and dropped.
  ConnectionOutput on_message(const std::string& topic, std::string_view json, int64_t now_ms);
  ConnectionOutput on_presence(const std::string& topic, std::string_view json, int64_t now_ms);
  // A tick of timer `hook` of mount `mount` of view `view` (stale mounts are ignored).
  ConnectionOutput on_timer(const std::string& view, uint64_t mount, uint32_t hook, int64_t now_ms);
  // Renders the views hooks changed since the last flush and returns their patches.
  ConnectionOutput flush();
  bool dirty() const;
  // The mount number of a view (0: not mounted); a remount gets a new one.
  uint64_t mount_of(std::string_view view_id) const;

 private:
  class Effects;
  // An event or hook delivery that waits for the view's running task.
  struct Queued {
    bool is_event = true;
    ClientFrame frame;  // is_event
    uint64_t mount = 0;
    uint32_t hook = 0;
    std::string json;
    std::string target;  // a hook's: the view's id, or a child's "<root id>/<number>"
  };
  struct Mounted {
    Mounted(std::unique_ptr<View> v, ViewState s) : view(std::move(v)), state(std::move(s)) {}
    std::unique_ptr<View> view;
    ViewState state;
    uint32_t root = 0;
    TokenClaims origin;      // what its token said (component, props, session, route), for a remount
    uint64_t mount = 0;
    std::shared_ptr<Effects> effects;
    std::vector<Subscription> subs;
    size_t timers = 0;
    bool dirty = false;       // a hook changed the state; rendered at the next flush
    std::deque<int64_t> failures;  // times of recent handler failures (§2.6)
    // An async handler, hook or mount is running on a copy of the view (§1.8); what arrives
    // for the view meanwhile waits in `queue`, in order. `mounting`: no `full` sent yet.
    bool busy = false;
    bool mounting = false;
    std::deque<Queued> queue;
    // The timers and subscriptions running for its child instances, by instance number (never
    // reused); the hub and the timer host know each child as "<root id>/<number>".
    struct ChildHooks {
      uint64_t mount = 0;
      std::vector<Subscription> subs;
      std::vector<TimerSpec> timers;
    };
    std::map<uint32_t, ChildHooks> child_hooks;
  };
  // What a running task was started for, to finish it when it completes.
  struct Pending {
    enum class Kind : uint8_t { Event, Hook, Mount } kind = Kind::Event;
    std::string view_id;
    uint64_t mount = 0;
    int64_t ref = 0;
    uint32_t hook = 0;
  };
  class Recorder;
  void join(const ClientFrame& f, int64_t now_ms, ConnectionOutput& out);
  void event(const ClientFrame& f, int64_t now_ms, ConnectionOutput& out);
  void start(const std::string& view_id, const TokenClaims& origin, int64_t ref, ConnectionOutput& out);
  void restart(Mounted& m, int64_t ref, ConnectionOutput& out);
  void started(Mounted& m, int64_t ref, ConnectionOutput& out);
  void mount_failed(const std::string& view_id, int64_t ref, const std::string& why, ConnectionOutput& out);
  void commit(Mounted& m, std::unique_ptr<View> work, Recorder& rec);
  void rendered_event(Mounted& m, int64_t ref, ConnectionOutput& out);
  void launch(Mounted& m, Pending p, std::unique_ptr<View> work, std::shared_ptr<Recorder> rec, Task<Null> task);
  static Task<Null> await_task(std::shared_ptr<LiveConnection*> anchor, Task<Null> task, std::unique_ptr<View> work,
                               std::shared_ptr<Recorder> rec, Pending p);
  void complete(std::unique_ptr<View> work, Recorder& rec, const Pending& p, std::optional<std::string> failure);
  void run_queued(const std::string& view_id, ConnectionOutput& out);
  void unmount_view(std::unique_ptr<View> view, LiveEffects* effects);
  void leave(const std::string& view_id);
  void teardown(Mounted& m);
  // Child hooks (§1.3 in a child, §1.5): after each render of a root, starts the timers and
  // subscriptions of the children that appeared (or whose topics changed) and stops those of
  // the children gone.
  void sync_child_hooks(Mounted& m);
  void stop_child_hooks(Mounted& m, uint32_t number);
  void stop_all_child_hooks(Mounted& m);
  void subscribe(Mounted& m);
  void deliver(Subscription::Kind kind, const std::string& topic, std::string_view json, int64_t now_ms,
               ConnectionOutput& out);
  void run_hook(const std::string& view_id, uint64_t mount, uint32_t hook, std::string_view json, int64_t now_ms,
                ConnectionOutput& out);
  bool note_failure(Mounted& m, int64_t now_ms);
  void handler_failed(Mounted& m, int64_t ref, int64_t now_ms, ConnectionOutput& out);
  void drain(ConnectionOutput& out);
  Node render_root(Mounted& m);
  std::string error(std::string_view view, int64_t ref, std::string_view code, std::string_view msg) const;

  // What the views' effects asked for during the current call (see Effects).
  std::vector<std::pair<std::string, std::string>> pending_publishes_;
  std::vector<std::string> pending_frames_, pending_logs_;
  uint64_t next_mount_ = 1;

  const ViewRegistry& registry_;
  const TokenKey& key_;
  ConnectionOptions options_;
  InstanceTable instances_;
  RateLimiter rate_;
  std::map<std::string, Mounted, std::less<>> views_;  // by live root id ("fz-1")
  bool closed_ = false;
  int64_t last_now_ms_ = 0;  // the time of the latest call: an async completion's clock
  // Tasks that outlive this connection see null here and drop their result (§1.8).
  std::shared_ptr<LiveConnection*> anchor_ = std::make_shared<LiveConnection*>(this);
};

// The plain GET render of a live root (§2.1): a fresh instance mounted with connected ==
// false, rendered inside `<div id=root_id data-fz-view=.. data-fz-token=..>`, with a newly
// sealed token. Empty with `*error` set for an unknown view or props that do not decode.
struct RootRender {
  std::string root_id = "fz-1";
  std::string view;
  std::string props_json = "{}";
  std::string sid;
  std::string uid;
  int64_t now_unix = 0;
  int64_t ttl_secs = 12 * 3600;
  std::string build_id;  // written as data-fz-build when not ""
  // The page's path parameters and query (`ctx.params`, `ctx.query`), carried in the token.
  std::vector<std::pair<std::string, std::string>> params, query;
};
std::string render_root_html(const ViewRegistry& registry, const TokenKey& key, const RootRender& r,
                             std::string* error);
// The same for a view whose `on mount` may be async: awaited here, so the HTTP handler's loop
// keeps serving. `*error` must outlive the task.
Task<std::string> render_root_html_async(const ViewRegistry& registry, const TokenKey& key, RootRender r,
                                         std::string* error);

}  // namespace fitz::live
