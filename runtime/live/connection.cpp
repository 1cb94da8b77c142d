// LiveConnection: the per-socket protocol state machine (join, ev, resync, leave, hb), the
// Origin check and the plain GET render of a root. See fitz/live/connection.h.
#include "fitz/live/connection.h"

#include <cctype>
#include <exception>

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

}  // namespace

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
  // Not a structured binding: clang 14 cannot capture one in a lambda.
  for (auto& entry : views_) {
    Mounted& m = entry.second;
    guarded([&] { m.view->unmount(); });
  }
  views_.clear();
}

std::string LiveConnection::error(std::string_view view, int64_t ref, std::string_view code,
                                  std::string_view msg) const {
  return error_frame(view, ref, code, options_.dev ? msg : std::string_view());
}

Node LiveConnection::render_root(Mounted& m) {
  instances_.begin_render(m.root);
  Node content = m.view->render(RenderContext{m.root, true});
  instances_.end_render(m.root);
  return root_div(std::move(content));
}

ConnectionOutput LiveConnection::on_frame(std::string_view bytes, int64_t now_ms) {
  ConnectionOutput out;
  if (closed_) return out;
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
      event(f, out);
      break;
    case ClientFrameKind::Resync: {
      auto it = views_.find(f.view);
      if (it == views_.end()) {
        out.frames.push_back(error(f.view, 0, "view", "resync: view not joined"));
        break;
      }
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
  start(f.view, t.claims.view, t.claims.props_json, 0, out);
}

void LiveConnection::start(const std::string& view_id, const std::string& view, const std::string& props,
                           int64_t ref, ConnectionOutput& out) {
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
  auto [it, inserted] = views_.emplace(view_id, Mounted{std::move(made), ViewState(view_id), root, view, props});
  Mounted& m = it->second;
  Node tree;
  if (std::optional<std::string> failed = guarded([&] {
        m.view->mount(true);
        tree = render_root(m);
      })) {
    guarded([&] { m.view->unmount(); });
    instances_.drop_root(root);
    views_.erase(it);
    out.frames.push_back(error(view_id, ref, "mount", *failed));
    return;
  }
  out.frames.push_back(m.state.full(std::move(tree)));
}

void LiveConnection::restart(Mounted& m, int64_t ref, ConnectionOutput& out) {
  // A render exception crashes the instance: unmounted, mounted fresh, sent as `full` (§2.6).
  std::string view_id = m.state.view_id(), view = m.view_name, props = m.props_json;
  leave(view_id);
  start(view_id, view, props, ref, out);
}

void LiveConnection::event(const ClientFrame& f, ConnectionOutput& out) {
  auto it = views_.find(f.view);
  if (it == views_.end()) {
    out.frames.push_back(error(f.view, f.ref, "view", "event for a view not joined"));
    return;
  }
  Mounted& m = it->second;
  // Only numbers this connection handed out, under this root, resolve (§1.5, §7).
  if (f.component <= 0 || f.component > UINT32_MAX || !instances_.contains(static_cast<uint32_t>(f.component)) ||
      instances_.root_of(static_cast<uint32_t>(f.component)) != m.root) {
    out.frames.push_back(error(f.view, f.ref, "component", "unknown component " + std::to_string(f.component)));
    return;
  }
  std::unique_ptr<View> before = m.view->snapshot();
  std::optional<EventError> failed;
  if (std::optional<std::string> thrown = guarded([&] { failed = m.view->handle_event(f.event, f.payload); }))
    failed = EventError{"handler", *thrown};
  if (failed) {
    m.view = std::move(before);  // state rolls back (§1.3)
    out.frames.push_back(error(f.view, f.ref, failed->code, failed->message));
    return;
  }
  Node tree;
  if (guarded([&] { tree = render_root(m); })) {
    restart(m, f.ref, out);
  } else {
    std::string frame = m.state.update(std::move(tree));
    if (!frame.empty()) out.frames.push_back(std::move(frame));
  }
  out.frames.push_back(ack_frame(f.ref));
}

void LiveConnection::leave(const std::string& view_id) {
  auto it = views_.find(view_id);
  if (it == views_.end()) return;
  guarded([&] { it->second.view->unmount(); });
  instances_.drop_root(it->second.root);
  views_.erase(it);
}

std::string render_root_html(const ViewRegistry& registry, const TokenKey& key, const RootRender& r,
                             std::string* error) {
  const ViewFactory* factory = registry.find(r.view);
  if (!factory) {
    *error = "unknown view " + r.view;
    return {};
  }
  std::unique_ptr<View> view = (*factory)(r.props_json, error);
  if (!view) return {};
  view->mount(false);
  TokenClaims claims{r.view, r.props_json, r.sid, r.uid, r.now_unix, r.now_unix + r.ttl_secs};
  Node root = root_div(view->render(RenderContext{0, false}));
  root.attr("id", r.root_id).attr("data-fz-view", r.view).attr("data-fz-token", seal_token(claims, key));
  if (!r.build_id.empty()) root.attr("data-fz-build", r.build_id);
  return to_html(root);
}

}  // namespace fitz::live
