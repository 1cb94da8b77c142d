// LiveConnection: the per-socket protocol state machine (join, ev, resync, leave, hb), the
// Origin check and the plain GET render of a root. See fitz/live/connection.h.
#include "fitz/live/connection.h"

#include <cctype>
#include <exception>

#include "fitz/http/json.h"
#include "fitz/live/children.h"
#include "fitz/live/html.h"
#include "fitz/str.h"

namespace fitz::live {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// Runs `f`; a runtime error of generated code (a Panic, in the server's throw mode) or a C++
// exception becomes its message. A faulty view must not take the socket, or the other views
// on it, down (§2.6).
template <class F> std::optional<std::string> guarded(F&& f) {
  try {
    f();
    return std::nullopt;
  } catch (const Panic& p) {
    return p.message.as<std::string>();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

// The root div the runtime owns around a view's content; the root tag never changes (§2.3).
Node root_div(Node content) { return el("div").child(std::move(content)); }

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `ctx.redirect` without `external`: a path of this site, or an absolute URL of the page's own
// origin. A protocol-relative `//host` or `/\host` is another site to a browser.
bool same_origin_url(std::string_view url, std::string_view origin) {
  if (url.empty()) return false;
  for (char c : url)
    if (static_cast<unsigned char>(c) < 0x20) return false;
  if (url[0] == '/') return url.size() == 1 || (url[1] != '/' && url[1] != '\\');
  if (origin.empty() || !starts_with(url, origin)) return false;
  return url.size() == origin.size() || url[origin.size()] == '/' || url[origin.size()] == '?' ||
         url[origin.size()] == '#';
}

// The id a child instance's timers and subscriptions go by in the hub and the timer host.
std::string child_id(std::string_view root_id, uint32_t number) {
  return std::string(root_id) + "/" + std::to_string(number);
}

// Splits "<root id>/<number>" into the root id (left in `id`) and the number; a root id leaves
// `*child` at 0. False for a malformed number.
bool split_child_id(std::string_view& id, uint32_t* child) {
  *child = 0;
  size_t slash = id.rfind('/');
  if (slash == std::string_view::npos) return true;
  std::string_view digits = id.substr(slash + 1);
  if (digits.empty() || digits.size() > 9) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    *child = *child * 10 + uint32_t(c - '0');
  }
  id = id.substr(0, slash);
  return *child != 0;
}

bool same_hooks(const std::vector<Subscription>& a, const std::vector<Subscription>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (a[i].kind != b[i].kind || a[i].topic != b[i].topic || a[i].hook != b[i].hook) return false;
  return true;
}

bool same_hooks(const std::vector<TimerSpec>& a, const std::vector<TimerSpec>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (a[i].every_ms != b[i].every_ms || a[i].hook != b[i].hook) return false;
  return true;
}

}  // namespace

// A view's `ctx` effects: publishes and redirects wait in the connection until the call into
// the view returns (and go away when it fails); presence goes to the hub at once.
class LiveConnection::Effects final : public LiveEffects {
 public:
  Effects(LiveConnection& conn, std::string view_id) : conn_(conn), view_id_(std::move(view_id)) {}
  void publish(std::string_view topic, std::string json) override {
    conn_.pending_publishes_.emplace_back(std::string(topic), std::move(json));
  }
  void track(std::string_view topic, std::string_view key, std::string meta_json) override {
    if (conn_.options_.hub)
      conn_.options_.hub->track(conn_.options_.client, view_id_, std::string(topic), std::string(key),
                                std::move(meta_json));
  }
  void redirect(std::string_view url, bool external) override {
    bool http_url = starts_with(url, "http://") || starts_with(url, "https://");
    if (external ? !(http_url || same_origin_url(url, conn_.options_.origin))
                 : !same_origin_url(url, conn_.options_.origin)) {
      conn_.pending_logs_.push_back("live: view " + view_id_ + ": redirect to " + std::string(url) +
                                    " refused (another origin; pass external: true)");
      return;
    }
    conn_.pending_frames_.push_back(redirect_frame(url));
  }
  // A child's presence goes under its own id, so that it leaves with the child; its publishes
  // and redirects are the root's.
  LiveEffects* for_child(uint32_t number) override {
    Effects& root = root_ ? *root_ : *this;
    std::unique_ptr<Effects>& e = root.kids_[number];
    if (!e) e = std::make_unique<Effects>(conn_, child_id(root.view_id_, number), &root);
    return e.get();
  }
  void forget_child(uint32_t number) { kids_.erase(number); }
  std::vector<uint32_t> child_numbers() const {
    std::vector<uint32_t> out;
    for (const auto& [n, e] : kids_) out.push_back(n);
    return out;
  }

  Effects(LiveConnection& conn, std::string view_id, Effects* root)
      : conn_(conn), view_id_(std::move(view_id)), root_(root) {}

 private:
  LiveConnection& conn_;
  std::string view_id_;
  Effects* root_ = nullptr;                                // null: this is the root's
  std::map<uint32_t, std::unique_ptr<Effects>> kids_;      // the root's: its children's, by number
};

// The `ctx` effects of one call into a copy of a view (a handler, hook or mount): kept until the
// call has finished and then replayed into the view's Effects, or dropped when it failed. An
// async call may finish after its socket is gone, so this holds no reference to the connection.
// A child's calls are recorded with its number and replayed through `for_child`, so that its
// presence still goes under its own id.
class LiveConnection::Recorder final : public LiveEffects {
 public:
  Recorder() = default;
  void publish(std::string_view topic, std::string json) override {
    log().push_back(Call{Call::Publish, child_, std::string(topic), std::move(json), {}, false});
  }
  void track(std::string_view topic, std::string_view key, std::string meta_json) override {
    log().push_back(Call{Call::Track, child_, std::string(topic), std::string(key), std::move(meta_json), false});
  }
  void redirect(std::string_view url, bool external) override {
    log().push_back(Call{Call::Redirect, child_, std::string(url), {}, {}, external});
  }
  LiveEffects* for_child(uint32_t number) override {
    Recorder& root = root_ ? *root_ : *this;
    std::unique_ptr<Recorder>& r = root.kids_[number];
    if (!r) r.reset(new Recorder(&root, number));
    return r.get();
  }
  void replay(LiveEffects& to) {
    for (Call& c : calls_) {
      LiveEffects& at = c.child ? *to.for_child(c.child) : to;
      if (c.kind == Call::Publish) at.publish(c.a, std::move(c.b));
      else if (c.kind == Call::Track) at.track(c.a, c.b, std::move(c.c));
      else at.redirect(c.a, c.external);
    }
    calls_.clear();
  }

 private:
  struct Call {
    enum Kind : uint8_t { Publish, Track, Redirect } kind;
    uint32_t child;  // 0: the root's own
    std::string a, b, c;
    bool external;
  };
  Recorder(Recorder* root, uint32_t child) : root_(root), child_(child) {}
  std::vector<Call>& log() { return root_ ? root_->calls_ : calls_; }  // one log, in call order

  Recorder* root_ = nullptr;
  uint32_t child_ = 0;
  std::vector<Call> calls_;
  std::map<uint32_t, std::unique_ptr<Recorder>> kids_;
};

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowlist) {
  if (origin.empty() || origin == "null") return false;
  for (const std::string& o : allowlist)
    if (iequals(o, origin)) return true;
  size_t scheme_end = origin.find("://");
  if (scheme_end == std::string_view::npos) return false;
  std::string_view scheme = origin.substr(0, scheme_end);
  if (!iequals(scheme, "http") && !iequals(scheme, "https")) return false;
  std::string_view authority = origin.substr(scheme_end + 3);
  // An Origin is scheme://host[:port] with nothing after; a path or userinfo is not an Origin.
  if (authority.empty() || authority.find_first_of("/@?#") != std::string_view::npos) return false;
  return !host.empty() && iequals(authority, host);
}

LiveConnection::LiveConnection(const ViewRegistry& registry, const TokenKey& key, ConnectionOptions options)
    : registry_(registry),
      key_(key),
      options_(std::move(options)),
      rate_(options_.max_events_per_sec, options_.event_burst) {}

LiveConnection::~LiveConnection() { close(); }

void LiveConnection::close() {
  if (closed_) return;
  closed_ = true;
  *anchor_ = nullptr;  // running tasks drop their results
  for (auto& entry : views_) teardown(entry.second);
  views_.clear();
  pending_publishes_.clear();
  pending_frames_.clear();
}

// Unmount, then the hub and the timers forget the instance.
void LiveConnection::teardown(Mounted& m) {
  // The children's timers and subscriptions stop with the view (their ids are the root's and
  // their numbers, so the view itself is not needed for it).
  stop_all_child_hooks(m);
  unmount_view(std::move(m.view), m.effects.get());
  // Children mounted by a render that then failed, before their hooks were synced.
  if (options_.hub)
    for (uint32_t n : m.effects->child_numbers()) options_.hub->drop_view(options_.client, child_id(m.state.view_id(), n));
  if (options_.hub) options_.hub->drop_view(options_.client, m.state.view_id());
  if (m.timers && options_.timers) {
    options_.timers->stop(m.state.view_id(), m.mount);
    if (options_.hub) options_.hub->timers_stopped(int64_t(m.timers));
  }
  m.timers = 0;
}

namespace {

// What a call into a view left: nothing, a task still running, or a task that has already
// ended (an async handler that returned before its first await), perhaps with a runtime error.
// One that has ended is a finished call: its output goes with the call's own, not later.
struct TaskLeft {
  std::optional<Task<Null>> running;
  std::optional<std::string> failure;
};
TaskLeft task_left(View& view) {
  TaskLeft left;
  if (!view.has_started()) return left;
  Task<Null> t = view.take_started();
  if (!t.done())
    left.running = std::move(t);
  else
    left.failure = guarded([&] { t.rethrow_panic(); });
  return left;
}

// An async `on unmount` still running when its view goes: it keeps the view alive until it
// ends. Its `ctx` effects are dropped (the socket may be gone by then), as is a failure.
Task<Null> finish_unmount(Task<Null> task, std::unique_ptr<View> view, std::shared_ptr<LiveEffects> effects) {
  try {
    co_await task;
  } catch (const Panic&) {
  } catch (const std::exception&) {
  }
  task = Task<Null>();  // the handler's frame goes before the view it ran on
  view.reset();
  effects.reset();
  co_return null;
}

}  // namespace

void LiveConnection::unmount_view(std::unique_ptr<View> view, LiveEffects* effects) {
  if (!view) return;
  auto rec = std::make_shared<Recorder>();
  view->env.effects = rec.get();
  guarded([&] { view->unmount(); });
  if (view->has_started()) {
    Task<Null> t = view->take_started();
    finish_unmount(std::move(t), std::move(view), std::move(rec));
    return;
  }
  if (effects) rec->replay(*effects);
}

void LiveConnection::drain(ConnectionOutput& out) {
  for (std::string& f : pending_frames_) out.frames.push_back(std::move(f));
  for (auto& p : pending_publishes_) out.publishes.push_back(std::move(p));
  for (std::string& l : pending_logs_) out.logs.push_back(std::move(l));
  pending_frames_.clear();
  pending_publishes_.clear();
  pending_logs_.clear();
}

// A failed handler or hook counts toward the crash rule (§2.6): the last of
// `crash_failures` within the window remounts the view.
void LiveConnection::handler_failed(Mounted& m, int64_t ref, int64_t now_ms, ConnectionOutput& out) {
  if (!note_failure(m, now_ms)) return;
  pending_logs_.push_back("live: view " + m.state.view_id() + " crashed (" + std::to_string(options_.crash_failures) +
                          " handler failures): remounted");
  restart(m, ref, out);
}

bool LiveConnection::note_failure(Mounted& m, int64_t now_ms) {
  m.failures.push_back(now_ms);
  while (!m.failures.empty() && now_ms - m.failures.front() >= options_.crash_window_ms) m.failures.pop_front();
  return int(m.failures.size()) >= options_.crash_failures;
}

uint64_t LiveConnection::mount_of(std::string_view view_id) const {
  uint32_t child = 0;
  if (!split_child_id(view_id, &child)) return 0;
  auto it = views_.find(view_id);
  if (it == views_.end()) return 0;
  if (child == 0) return it->second.mount;
  auto h = it->second.child_hooks.find(child);
  return h == it->second.child_hooks.end() ? 0 : h->second.mount;
}

bool LiveConnection::dirty() const {
  for (const auto& entry : views_)
    if (entry.second.dirty) return true;
  return false;
}

std::string LiveConnection::error(std::string_view view, int64_t ref, std::string_view code,
                                  std::string_view msg) const {
  return error_frame(view, ref, code, options_.dev ? msg : std::string_view());
}

Node LiveConnection::render_root(Mounted& m) {
  m.dirty = false;
  instances_.begin_render(m.root);
  Node content = m.view->render(RenderContext{m.root, true, &instances_});
  instances_.end_render(m.root);
  sync_child_hooks(m);
  return root_div(std::move(content));
}

ConnectionOutput LiveConnection::on_frame(std::string_view bytes, int64_t now_ms) {
  ConnectionOutput out;
  if (closed_) return out;
  last_now_ms_ = now_ms;
  FrameResult r = parse_client_frame(bytes);
  if (r.error == FrameError::TooBig) {
    out.close_code = kCloseTooBig;
    out.close_reason = "frame too big";
    return out;
  }
  if (!r.ok()) {
    // A bad frame never kills the socket (§2.6); a forged hook name is one of these.
    std::string code = r.error == FrameError::ReservedEvent ? "event" : "frame";
    out.frames.push_back(error(r.frame.view, r.frame.ref, code, r.message));
    return out;
  }
  const ClientFrame& f = r.frame;
  switch (f.kind) {
    case ClientFrameKind::Join:
      join(f, now_ms, out);
      break;
    case ClientFrameKind::Event:
      if (!rate_.allow(now_ms)) {
        out.close_code = kClosePolicy;
        out.close_reason = "rate";
        return out;
      }
      event(f, now_ms, out);
      break;
    case ClientFrameKind::Resync: {
      auto it = views_.find(f.view);
      if (it == views_.end()) {
        out.frames.push_back(error(f.view, 0, "view", "resync: view not joined"));
        break;
      }
      if (it->second.mounting) break;  // its `full` comes when the async mount ends
      Node tree;
      if (guarded([&] { tree = render_root(it->second); })) {
        restart(it->second, 0, out);
        break;
      }
      out.frames.push_back(it->second.state.full(std::move(tree)));
      break;
    }
    case ClientFrameKind::Leave:
      leave(f.view);
      break;
    case ClientFrameKind::Heartbeat:
      out.frames.push_back(hb_frame());
      break;
  }
  drain(out);
  return out;
}

void LiveConnection::join(const ClientFrame& f, int64_t now_ms, ConnectionOutput& out) {
  // A page rendered by another build of the server (before a `fitz dev` rebuild or a deploy)
  // reloads: its markup, and after a restart with a per-process key its token, are stale. Asked
  // before the token is read, since another build's key may not open it at all.
  if (!options_.build_id.empty() && !f.build.empty() && f.build != options_.build_id) {
    out.frames.push_back(reload_frame());
    return;
  }
  TokenResult t = open_token(f.token, key_, now_ms / 1000);
  if (t.error == TokenError::Expired) {
    // The page is stale: the client reloads it for a fresh token (§2.5).
    out.frames.push_back(reload_frame());
    return;
  }
  if (!t.ok() || (options_.user && t.claims.uid != *options_.user)) {
    out.close_code = kClosePolicy;
    out.close_reason = "token";
    return;
  }
  leave(f.view);  // a rejoin of the same root is a fresh mount (§2.5)
  start(f.view, t.claims, 0, out);
}

void LiveConnection::start(const std::string& view_id, const TokenClaims& origin, int64_t ref, ConnectionOutput& out) {
  const std::string& view = origin.view;
  const std::string& props = origin.props_json;
  const ViewFactory* factory = registry_.find(view);
  std::string why;
  std::unique_ptr<View> made;
  if (!factory) {
    why = "unknown view " + view;
  } else if (std::optional<std::string> thrown = guarded([&] { made = (*factory)(props, &why); })) {
    why = *thrown;
  }
  if (!made) {
    // The client marks the root `fz-error` (§2.6).
    out.frames.push_back(error(view_id, ref, "mount", why));
    return;
  }
  uint32_t root = instances_.root(view_id);
  if (root == 0) {
    out.frames.push_back(error(view_id, ref, "mount", "too many instances"));
    return;
  }
  Mounted fresh(std::move(made), ViewState(view_id));
  fresh.root = root;
  fresh.origin = origin;
  auto [it, inserted] = views_.emplace(view_id, std::move(fresh));
  Mounted& m = it->second;
  m.mount = next_mount_++;
  m.effects = std::make_shared<Effects>(*this, view_id);
  ViewEnv& env = m.view->env;
  env.user_json = options_.user && !options_.user->empty() ? *options_.user : "null";
  env.session = m.origin.sid;
  env.params = m.origin.params;
  env.query = m.origin.query;
  env.connected = true;
  env.effects = m.effects.get();
  // `on mount` runs on a copy, like a handler: an async one keeps running while the socket is
  // served, and the view is shown (`full`) only once it has ended.
  auto rec = std::make_shared<Recorder>();
  std::unique_ptr<View> work;
  if (std::optional<std::string> failed = guarded([&] {
        work = m.view->snapshot();
        work->env.effects = rec.get();
        work->mount(true);
      })) {
    mount_failed(view_id, ref, *failed, out);
    return;
  }
  TaskLeft left = task_left(*work);
  if (left.running) {
    m.busy = m.mounting = true;
    launch(m, Pending{Pending::Kind::Mount, view_id, m.mount, ref, 0}, std::move(work), std::move(rec),
           std::move(*left.running));
    return;
  }
  if (left.failure) {
    mount_failed(view_id, ref, *left.failure, out);
    return;
  }
  commit(m, std::move(work), *rec);
  started(m, ref, out);
}

// A failed mount: the instance goes and the client marks the root `fz-error` (§2.6).
void LiveConnection::mount_failed(const std::string& view_id, int64_t ref, const std::string& why,
                                  ConnectionOutput& out) {
  auto it = views_.find(view_id);
  if (it == views_.end()) return;
  unmount_view(std::move(it->second.view), nullptr);
  if (options_.hub) options_.hub->drop_view(options_.client, view_id);
  instances_.drop_root(it->second.root);
  views_.erase(it);
  out.frames.push_back(error(view_id, ref, "mount", why));
}

// After `on mount`: the first render, then the subscriptions and timers.
void LiveConnection::started(Mounted& m, int64_t ref, ConnectionOutput& out) {
  std::string view_id = m.state.view_id();
  size_t frames = pending_frames_.size(), pubs = pending_publishes_.size();
  Node tree;
  std::vector<TimerSpec> timers;
  if (std::optional<std::string> failed = guarded([&] {
        tree = render_root(m);
        m.subs = m.view->subscriptions();
        timers = m.view->timers();
      })) {
    stop_all_child_hooks(m);
    pending_frames_.resize(frames);
    pending_publishes_.resize(pubs);
    mount_failed(view_id, ref, *failed, out);
    return;
  }
  out.frames.push_back(m.state.full(std::move(tree)));
  // After the `full`: a presence list or a tick can only follow the content it patches.
  if (options_.hub)
    for (const Subscription& s : m.subs) options_.hub->subscribe(options_.client, view_id, s.kind, s.topic);
  if (options_.timers) {
    for (const TimerSpec& t : timers) {
      if (t.every_ms <= 0) continue;
      options_.timers->start(view_id, m.mount, t.hook, t.every_ms);
      m.timers++;
    }
    if (options_.hub && m.timers) options_.hub->timers_started(int64_t(m.timers));
  }
}

// A call into a copy of the view that finished: the copy becomes the view and its effects happen.
void LiveConnection::commit(Mounted& m, std::unique_ptr<View> work, Recorder& rec) {
  work->env.effects = m.effects.get();
  m.view = std::move(work);
  rec.replay(*m.effects);
}

void LiveConnection::launch(Mounted& m, Pending p, std::unique_ptr<View> work, std::shared_ptr<Recorder> rec,
                            Task<Null> t) {
  m.busy = true;
  // Detached: it runs to its end on this loop and frees itself; `complete` picks up the result.
  await_task(anchor_, std::move(t), std::move(work), std::move(rec), std::move(p));
}

Task<Null> LiveConnection::await_task(std::shared_ptr<LiveConnection*> anchor, Task<Null> task,
                                      std::unique_ptr<View> work, std::shared_ptr<Recorder> rec, Pending p) {
  std::optional<std::string> failure;
  try {
    co_await task;
  } catch (const Panic& e) {
    failure = e.message.as<std::string>();
  } catch (const std::exception& e) {
    failure = std::string(e.what());
  }
  task = Task<Null>();  // the handler's frame goes before the view it ran on
  if (LiveConnection* conn = *anchor) conn->complete(std::move(work), *rec, p, std::move(failure));
  co_return null;
}

void LiveConnection::complete(std::unique_ptr<View> work, Recorder& rec, const Pending& p,
                              std::optional<std::string> failure) {
  auto it = views_.find(p.view_id);
  // The view left, or was remounted, while the task ran: its result is dropped.
  if (closed_ || it == views_.end() || it->second.mount != p.mount || !it->second.busy) return;
  Mounted& m = it->second;
  m.busy = false;
  // Set aside: a crash below remounts the view, and a new instance has no use for them.
  std::deque<Queued> waiting = std::move(m.queue);
  m.queue.clear();
  ConnectionOutput out;
  switch (p.kind) {
    case Pending::Kind::Mount:
      m.mounting = false;
      if (failure) {
        mount_failed(p.view_id, p.ref, *failure, out);
        break;
      }
      commit(m, std::move(work), rec);
      started(m, p.ref, out);
      break;
    case Pending::Kind::Event:
      if (failure) {
        out.frames.push_back(error(p.view_id, p.ref, "handler", *failure));
        handler_failed(m, p.ref, last_now_ms_, out);
        break;
      }
      commit(m, std::move(work), rec);
      rendered_event(m, p.ref, out);
      break;
    case Pending::Kind::Hook:
      if (failure) {
        pending_logs_.push_back("live: view " + p.view_id + " hook " + std::to_string(p.hook) + " failed: " + *failure);
        out.frames.push_back(error(p.view_id, 0, "handler", *failure));
        handler_failed(m, 0, last_now_ms_, out);
        break;
      }
      commit(m, std::move(work), rec);
      m.dirty = true;  // rendered by the next flush, with whatever else changed
      break;
  }
  if (auto now = views_.find(p.view_id); now != views_.end() && now->second.mount == p.mount) {
    for (auto q = waiting.rbegin(); q != waiting.rend(); ++q) now->second.queue.push_front(std::move(*q));
  } else if (now != views_.end()) {
    // Remounted: the events that waited get an answer, so the page stops marking them pending.
    for (const Queued& q : waiting)
      if (q.is_event) out.frames.push_back(error(p.view_id, q.frame.ref, "view", "the view was remounted"));
  }
  run_queued(p.view_id, out);
  drain(out);
  if (options_.on_async) options_.on_async(std::move(out));
}

// What waited for the view's task, in arrival order, until another task starts.
void LiveConnection::run_queued(const std::string& view_id, ConnectionOutput& out) {
  for (;;) {
    auto it = views_.find(view_id);
    if (closed_ || it == views_.end() || it->second.busy || it->second.queue.empty()) return;
    Queued q = std::move(it->second.queue.front());
    it->second.queue.pop_front();
    if (q.is_event)
      event(q.frame, last_now_ms_, out);
    else
      run_hook(q.target, q.mount, q.hook, q.json, last_now_ms_, out);
  }
}

void LiveConnection::restart(Mounted& m, int64_t ref, ConnectionOutput& out) {
  // A render exception crashes the instance: unmounted, mounted fresh, sent as `full` (§2.6).
  std::string view_id = m.state.view_id();
  TokenClaims origin = m.origin;  // `leave` destroys m
  leave(view_id);
  start(view_id, origin, ref, out);
}

void LiveConnection::event(const ClientFrame& f, int64_t now_ms, ConnectionOutput& out) {
  auto it = views_.find(f.view);
  if (it == views_.end()) {
    out.frames.push_back(error(f.view, f.ref, "view", "event for a view not joined"));
    return;
  }
  Mounted& m = it->second;
  if (m.busy) {
    // Events of one view run one at a time, in order (§1.8); checked again when it runs.
    Queued q;
    q.frame = f;
    m.queue.push_back(std::move(q));
    return;
  }
  // Only numbers this connection handed out, under this root, resolve (§1.5, §7).
  if (f.component <= 0 || f.component > UINT32_MAX || !instances_.contains(static_cast<uint32_t>(f.component)) ||
      instances_.root_of(static_cast<uint32_t>(f.component)) != m.root) {
    out.frames.push_back(error(f.view, f.ref, "component", "unknown component " + std::to_string(f.component)));
    return;
  }
  // The handler works on a copy (§1.3): a failure leaves the view as it was, and an async one
  // awaits without a render in between seeing its half-done state.
  auto rec = std::make_shared<Recorder>();
  std::unique_ptr<View> work;
  std::optional<EventError> failed;
  if (std::optional<std::string> thrown = guarded([&] {
        work = m.view->snapshot();
        work->env.effects = rec.get();
        failed = dispatch_event(*work, m.root, static_cast<uint32_t>(f.component), f.event, f.payload);
      }))
    failed = EventError{"handler", *thrown};
  if (!failed) {
    TaskLeft left = task_left(*work);
    if (left.running) {
      launch(m, Pending{Pending::Kind::Event, f.view, m.mount, f.ref, 0}, std::move(work), std::move(rec),
             std::move(*left.running));
      return;
    }
    if (left.failure) failed = EventError{"handler", *left.failure};
  }
  if (failed) {
    out.frames.push_back(error(f.view, f.ref, failed->code, failed->message));
    // A client's mistake (unknown event, bad arguments) is no failure of the view.
    if (failed->code == "handler") handler_failed(m, f.ref, now_ms, out);
    return;
  }
  commit(m, std::move(work), *rec);
  rendered_event(m, f.ref, out);
}

// After an event's handler committed: its patch (a render exception remounts instead), then
// its ack, which the page waits for to clear `fz-pending`.
void LiveConnection::rendered_event(Mounted& m, int64_t ref, ConnectionOutput& out) {
  Node tree;
  if (guarded([&] { tree = render_root(m); })) {
    restart(m, ref, out);
  } else {
    std::string frame = m.state.update(std::move(tree));
    if (!frame.empty()) out.frames.push_back(std::move(frame));
  }
  out.frames.push_back(ack_frame(ref));
}

void LiveConnection::leave(const std::string& view_id) {
  auto it = views_.find(view_id);
  if (it == views_.end()) return;
  teardown(it->second);
  instances_.drop_root(it->second.root);
  views_.erase(it);
}

ConnectionOutput LiveConnection::on_message(const std::string& topic, std::string_view json, int64_t now_ms) {
  ConnectionOutput out;
  last_now_ms_ = now_ms;
  deliver(Subscription::Kind::Message, topic, json, now_ms, out);
  return out;
}

ConnectionOutput LiveConnection::on_presence(const std::string& topic, std::string_view json, int64_t now_ms) {
  ConnectionOutput out;
  last_now_ms_ = now_ms;
  deliver(Subscription::Kind::Presence, topic, json, now_ms, out);
  return out;
}

ConnectionOutput LiveConnection::on_timer(const std::string& view, uint64_t mount, uint32_t hook, int64_t now_ms) {
  ConnectionOutput out;
  last_now_ms_ = now_ms;
  if (!closed_) run_hook(view, mount, hook, "", now_ms, out);
  drain(out);
  return out;
}

void LiveConnection::deliver(Subscription::Kind kind, const std::string& topic, std::string_view json,
                             int64_t now_ms, ConnectionOutput& out) {
  if (closed_) return;
  // Collected first: a hook that crashes its view remounts it, which changes views_.
  struct Target {
    std::string view;
    uint64_t mount;
    uint32_t hook;
  };
  std::vector<Target> targets;
  for (const auto& entry : views_)
    for (const Subscription& s : entry.second.subs)
      if (s.kind == kind && s.topic == topic) targets.push_back(Target{entry.first, entry.second.mount, s.hook});
  for (const auto& entry : views_)
    for (const auto& [number, h] : entry.second.child_hooks)
      for (const Subscription& s : h.subs)
        if (s.kind == kind && s.topic == topic)
          targets.push_back(Target{child_id(entry.first, number), h.mount, s.hook});
  for (const Target& t : targets) run_hook(t.view, t.mount, t.hook, json, now_ms, out);
  drain(out);
}

// A tick or message for a view, or for one of its children ("<root id>/<number>"): it runs on a
// copy of the root (a child's emits bubble up), which becomes the view when it ends; the root
// re-renders at the next flush.
void LiveConnection::run_hook(const std::string& target, uint64_t mount, uint32_t hook, std::string_view json,
                              int64_t now_ms, ConnectionOutput& out) {
  std::string_view root_id = target;
  uint32_t child = 0;
  if (!split_child_id(root_id, &child)) return;
  auto it = views_.find(root_id);
  if (it == views_.end()) return;
  Mounted& m = it->second;
  // A tick or message for a view (or child) that is gone does nothing.
  if (child == 0 && m.mount != mount) return;
  if (child != 0) {
    auto h = m.child_hooks.find(child);
    if (h == m.child_hooks.end() || h->second.mount != mount) return;
  }
  const std::string& view_id = it->first;
  if (m.busy) {
    // After the view's running task, in order; a tick already waiting is not queued twice.
    for (const Queued& q : m.queue)
      if (!q.is_event && q.target == target && q.hook == hook && q.mount == mount && json.empty() && q.json.empty())
        return;
    Queued q;
    q.is_event = false;
    q.mount = mount;
    q.hook = hook;
    q.json = std::string(json);
    q.target = target;
    m.queue.push_back(std::move(q));
    return;
  }
  auto rec = std::make_shared<Recorder>();
  std::unique_ptr<View> work;
  std::optional<EventError> failed;
  if (std::optional<std::string> thrown = guarded([&] {
        work = m.view->snapshot();
        work->env.effects = rec.get();
        failed = child ? dispatch_hook(*work, m.root, child, hook, json) : work->on_hook(hook, json);
      }))
    failed = EventError{"handler", *thrown};
  if (!failed) {
    TaskLeft left = task_left(*work);
    if (left.running) {
      launch(m, Pending{Pending::Kind::Hook, view_id, m.mount, 0, hook}, std::move(work), std::move(rec),
             std::move(*left.running));
      return;
    }
    if (left.failure) failed = EventError{"handler", *left.failure};
  }
  if (!failed) {
    commit(m, std::move(work), *rec);
    m.dirty = true;
    return;
  }
  std::string what = "live: view " + view_id + (child ? " component " + std::to_string(child) : "") + " hook " +
                     std::to_string(hook);
  if (failed->code == "args") {
    // A message that does not match the hook's type is the publisher's mistake (§1.8).
    pending_logs_.push_back(what + ": message dropped: " + failed->message);
    return;
  }
  pending_logs_.push_back(what + " failed: " + failed->message);
  out.frames.push_back(error(view_id, 0, "handler", failed->message));
  handler_failed(m, 0, now_ms, out);
}

ConnectionOutput LiveConnection::flush() {
  ConnectionOutput out;
  if (closed_) return out;
  std::vector<std::string> dirty;
  for (const auto& entry : views_)
    if (entry.second.dirty) dirty.push_back(entry.first);
  for (const std::string& id : dirty) {
    auto it = views_.find(id);
    if (it == views_.end() || !it->second.dirty) continue;
    Mounted& m = it->second;
    Node tree;
    if (guarded([&] { tree = render_root(m); })) {
      restart(m, 0, out);
      continue;
    }
    std::string frame = m.state.update(std::move(tree));
    if (!frame.empty()) out.frames.push_back(std::move(frame));
  }
  drain(out);
  return out;
}

void LiveConnection::sync_child_hooks(Mounted& m) {
  std::vector<std::pair<uint32_t, View*>> now = descendants(*m.view);
  std::map<uint32_t, View*> wanted(now.begin(), now.end());
  std::vector<uint32_t> gone;
  for (const auto& [number, h] : m.child_hooks)
    if (!wanted.count(number)) gone.push_back(number);
  for (uint32_t number : gone) stop_child_hooks(m, number);
  for (const auto& [number, view] : now) {
    Mounted::ChildHooks want;
    want.subs = view->subscriptions();
    want.timers = view->timers();
    auto it = m.child_hooks.find(number);
    if (it != m.child_hooks.end()) {
      // Same instance, same topics (they follow the props): keep them running.
      if (same_hooks(it->second.subs, want.subs) && same_hooks(it->second.timers, want.timers)) continue;
      stop_child_hooks(m, number);
    }
    // Known even without hooks: its presence entries go when it does.
    std::string id = child_id(m.state.view_id(), number);
    want.mount = next_mount_++;
    if (options_.hub)
      for (const Subscription& s : want.subs) options_.hub->subscribe(options_.client, id, s.kind, s.topic);
    int64_t started = 0;
    if (options_.timers) {
      for (const TimerSpec& t : want.timers) {
        if (t.every_ms <= 0) continue;
        options_.timers->start(id, want.mount, t.hook, t.every_ms);
        started++;
      }
      if (options_.hub && started) options_.hub->timers_started(started);
    }
    m.child_hooks[number] = std::move(want);
  }
}

void LiveConnection::stop_all_child_hooks(Mounted& m) {
  while (!m.child_hooks.empty()) stop_child_hooks(m, m.child_hooks.begin()->first);
}

void LiveConnection::stop_child_hooks(Mounted& m, uint32_t number) {
  auto it = m.child_hooks.find(number);
  if (it == m.child_hooks.end()) return;
  std::string id = child_id(m.state.view_id(), number);
  if (options_.hub) options_.hub->drop_view(options_.client, id);
  m.effects->forget_child(number);
  if (options_.timers) {
    int64_t running = 0;
    for (const TimerSpec& t : it->second.timers)
      if (t.every_ms > 0) running++;
    if (running) {
      options_.timers->stop(id, it->second.mount);
      if (options_.hub) options_.hub->timers_stopped(running);
    }
  }
  m.child_hooks.erase(it);
}

namespace {

std::unique_ptr<View> make_root(const ViewRegistry& registry, const RootRender& r, std::string* error) {
  const ViewFactory* factory = registry.find(r.view);
  if (!factory) {
    *error = "unknown view " + r.view;
    return nullptr;
  }
  std::unique_ptr<View> view = (*factory)(r.props_json, error);
  if (!view) return nullptr;
  // The GET render sees what the joined instance will see, but not connected (§1.3).
  view->env.user_json = r.uid.empty() ? "null" : r.uid;
  view->env.session = r.sid;
  view->env.params = r.params;
  view->env.query = r.query;
  return view;
}

std::string root_html(const View& view, const TokenKey& key, const RootRender& r) {
  TokenClaims claims{r.view, r.props_json, r.sid, r.uid, r.now_unix, r.now_unix + r.ttl_secs, r.params, r.query};
  Node root = root_div(view.render(RenderContext{0, false}));
  root.attr("id", r.root_id).attr("data-fz-view", r.view).attr("data-fz-token", seal_token(claims, key));
  if (!r.build_id.empty()) root.attr("data-fz-build", r.build_id);
  return to_html(root);
}

}  // namespace

std::string render_root_html(const ViewRegistry& registry, const TokenKey& key, const RootRender& r,
                             std::string* error) {
  std::unique_ptr<View> view = make_root(registry, r, error);
  if (!view) return {};
  view->mount(false);
  // Outside an event loop's turn (a synchronous caller): an async `on mount` is run to its end.
  if (view->has_started()) block_on(view->take_started());
  return root_html(*view, key, r);
}

Task<std::string> render_root_html_async(const ViewRegistry& registry, const TokenKey& key, RootRender r,
                                         std::string* error) {
  std::unique_ptr<View> view = make_root(registry, r, error);
  if (!view) co_return std::string();
  view->mount(false);
  if (view->has_started()) co_await view->take_started();
  co_return root_html(*view, key, r);
}

}  // namespace fitz::live
