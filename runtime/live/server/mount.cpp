// The live-view runner on the HTTP and WebSocket runtimes: the Origin check before the
// upgrade, the user from the upgrade's cookies, and one LiveConnection per socket fed with
// its messages, plus its server push (push.cpp: hub deliveries, timers, the heartbeat watch).
// Everything protocol-shaped happens in LiveConnection (connection.cpp).
#include <boost/asio/io_context.hpp>
#include <chrono>

#include "fitz/http/cookies.h"
#include "fitz/live/connection.h"
#include "fitz/live/generated.h"
#include "fitz/live/server.h"
#include "push.h"

namespace fitz::live {

namespace {

std::string as_std(const Nullable<Str>& s) { return s.is_null() ? std::string() : s.value().as<std::string>(); }

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What the upgrade hands the socket: the user derived from its cookies, when the app resolves
// users at all.
struct LiveUser {
  std::optional<std::string> uid;
  std::string origin;  // the page's, already checked against the Host (redirects compare to it)
};

}  // namespace

namespace {

// What the GET render of `view` for this request needs: the user from its cookies, a fresh token.
RootRender root_render(const LiveConfig& config, const http::Request& req, std::string_view view,
                       std::string_view props_json, std::string_view root_id) {
  RootRender r;
  r.root_id = std::string(root_id);
  r.view = std::string(view);
  r.props_json = std::string(props_json);
  if (config.user_of) r.uid = config.user_of(as_std(req.header("cookie")));
  r.now_unix = now_ms() / 1000;
  r.ttl_secs = config.token_ttl_secs;
  r.build_id = config.build_id;
  // `ctx.params` by the names of the route's `{...}` segments (the path part of the template),
  // `ctx.query` as the request sent it.
  std::string_view route = req.route;
  route = route.substr(0, route.find('?'));
  size_t index = 0;
  for (size_t open = route.find('{'); open != std::string_view::npos && index < req.params.size();
       open = route.find('{', open + 1)) {
    size_t close = route.find('}', open);
    if (close == std::string_view::npos) break;
    r.params.emplace_back(std::string(route.substr(open + 1, close - open - 1)), req.params[index++].as<std::string>());
  }
  Map<Str, Str> query = req.query_map();  // kept alive: entries_vec() refers into it
  for (const auto& e : query.entries_vec()) r.query.emplace_back(e.key.as<std::string>(), e.value.as<std::string>());
  return r;
}

}  // namespace

std::string Live::render_root(const http::Request& req, std::string_view view, std::string_view props_json,
                              std::string* error, std::string_view root_id) const {
  return render_root_html(registry_, config_.key, root_render(config_, req, view, props_json, root_id), error);
}

Task<std::string> Live::render_root_async(const http::Request& req, std::string_view view,
                                          std::string_view props_json, std::string* error,
                                          std::string_view root_id) const {
  return render_root_html_async(registry_, config_.key, root_render(config_, req, view, props_json, root_id), error);
}

std::string Live::embed(EmbedScope& scope, std::string_view view, std::string_view props_json,
                        std::string_view styles, std::string* error) const {
  bool first = false;
  std::string id = scope.next_root_id(&first);
  std::string root = render_root(scope.request(), view, props_json, error, id);
  if (root.empty() || !first) return root;
  return gen::live_assets(styles) + root;
}

std::shared_ptr<Live> mount(http::App& app, ws::Hub& hub, const ViewRegistry& registry, LiveConfig config) {
  auto live = std::make_shared<Live>(registry, std::move(config));
  // Publishes reach the other replicas through the hub's pubsub (FITZ_WS_PUBSUB=postgres) on a
  // channel of their own; without it the relay sends nothing.
  ws::Hub* ws_hub = &hub;
  live->hub().set_relay([ws_hub](const std::string& topic, const std::string& json) {
    ws_hub->relay("live", topic, json);
  });
  std::weak_ptr<Live> weak = live;
  app.add_metrics([weak]() {
    auto l = weak.lock();
    std::string text =
        "# HELP fitz_live_active_timers Running `on every` timers of live views.\n"
        "# TYPE fitz_live_active_timers gauge\n"
        "fitz_live_active_timers " + std::to_string(l ? l->hub().active_timers() : 0) + "\n";
    return Str(text.data(), text.size());
  });
  hub.on_relay("live", [weak](const std::string& topic, const std::string& json) {
    if (auto l = weak.lock()) l->hub().deliver_local(topic, json);
  });
  // Presence too: each replica's entries, refreshed as often as a socket's heartbeat is watched, so a
  // replica that died leaves the lists about when a silent socket would.
  live->hub().set_presence_relay(
      [ws_hub](const std::string& topic, const std::string& state) { ws_hub->relay("live-presence", topic, state); },
      std::max<int64_t>(live->config().presence_timeout_ms / 4, 100));
  hub.on_relay("live-presence", [weak](const std::string& topic, const std::string& state) {
    if (auto l = weak.lock()) l->hub().deliver_presence(topic, state, detail::steady_ms());
  });
  app.get("/_fitz/live.js", [](http::Request& req) { return client_script_response(req); });

  // The provider sees the upgrade's headers: it never refuses (anonymous users may join views
  // that do not need one); the token's uid is matched to this user at join.
  auth::Guard<LiveUser> users([live](Map<Str, Str> headers) -> Result<LiveUser, Str> {
    LiveUser u;
    if (live->config().user_of) {
      const Str* cookie = headers.find("cookie"_s);
      u.uid = live->config().user_of(cookie ? cookie->as<std::string_view>() : std::string_view());
    }
    if (const Str* origin = headers.find("origin"_s)) u.origin = origin->as<std::string>();
    return Ok(std::move(u));
  });
  hub.endpoint("/_fitz/live/ws", users, auth::Requirement::authenticated(),
               [live](ws::Conn conn, LiveUser user) -> Task<Null> {
                 // The handler runs on the socket's loop: its timers and deliveries go there too.
                 auto* ioc = static_cast<boost::asio::io_context*>(scheduler().io_context());
                 LiveHub& lhub = live->hub();
                 auto push = std::make_shared<detail::Push>(*ioc, conn, lhub, live->config().presence_timeout_ms);
                 ConnectionOptions opts;
                 opts.user = user.uid;
                 opts.dev = live->config().dev;
                 opts.build_id = live->config().build_id;
                 opts.hub = &lhub;
                 opts.client = lhub.attach(push);
                 opts.timers = push.get();
                 opts.origin = user.origin;
                 // An async handler's output comes later, from the task, on this same loop.
                 opts.on_async = [weak = std::weak_ptr<detail::Push>(push)](ConnectionOutput out) {
                   if (auto p = weak.lock()) p->emit(std::move(out));
                 };
                 uint64_t client = opts.client;
                 LiveConnection lc(live->registry(), live->config().key, std::move(opts));
                 push->begin(&lc, client);
                 while (conn.is_open()) {
                   Result<ws::Message, Str> m = co_await conn.recv_message();
                   if (!m.is_ok()) break;
                   push->heard();
                   ConnectionOutput out;
                   if (m.value().data.size() > live->config().max_frame_bytes) {
                     out.close_code = kCloseTooBig;
                     out.close_reason = "frame too big";
                   } else {
                     out = lc.on_frame(m.value().data.as<std::string_view>(), now_ms());
                   }
                   bool closing = out.close_code != 0;
                   push->emit(std::move(out));
                   if (closing) break;
                 }
                 lc.close();  // unmounts: timers stop, subscriptions and presence go
                 push->end();
                 lhub.detach(client);
                 co_return null;
               })
      // Before the upgrade and before any user lookup: a page of another site cannot open a
      // socket that rides on this site's cookies (§2.2, §7).
      .before([live](http::Request& req) -> Nullable<http::Response> {
        std::string origin = as_std(req.header("origin"));
        std::string host = as_std(req.header("host"));
        if (origin_allowed(origin, host, live->config().allowed_origins)) return null;
        return http::Response::error(403, "origin not allowed");
      });
  return live;
}

}  // namespace fitz::live
