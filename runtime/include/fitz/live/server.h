// Live views on the HTTP and WebSocket runtimes (views.md §1.7, §2.1, §2.2): the opt-in call an
// app with live views makes (generated code, or a test server), which registers
// `GET /_fitz/live.js` (the embedded client) and the socket `GET /_fitz/live/ws`, plus the GET
// render of a root. The protocol itself is fitz/live/connection.h; this is the thin runner.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include "fitz/http.h"
#include "fitz/live/hub.h"
#include "fitz/live/token.h"
#include "fitz/live/view.h"
#include "fitz/ws.h"

namespace fitz::live {

// The client script as built into this binary, and the first 16 hex digits of its SHA-256
// (the `?v=` of `<script src="/_fitz/live.js?v=<hash>" defer>` and the ETag).
std::string_view client_script();
std::string_view client_script_hash();
// The response to a GET of /_fitz/live.js: 200 or 304 (If-None-Match), immutable caching only
// when `?v=` names this build's hash (another hash is an older or newer page: no-cache).
http::Response client_script_response(const http::Request& req);

struct LiveConfig {
  TokenKey key = TokenKey::random();
  // Origins accepted besides the Host's own, as "scheme://host[:port]".
  std::vector<std::string> allowed_origins;
  // The user behind the request's Cookie header, as JSON ("" when anonymous): `ctx.user`, and
  // the uid a join token must carry. Unset: tokens are not matched to a user.
  std::function<std::string(std::string_view cookie_header)> user_of;
  int64_t token_ttl_secs = 12 * 3600;
  bool dev = true;
  // Identifies this build of the program (codegen passes a hash of it). A client whose page came
  // from another build gets `reload` when it rejoins, so `fitz dev` rebuilds reach open pages.
  std::string build_id;
  size_t max_frame_bytes = 64 * 1024;
  // A socket that sends nothing (the client's `hb` comes every 25 s) for this long loses its
  // presence entries and is closed (§1.8); tests shorten it.
  int64_t presence_timeout_ms = 30000;
};

// The live roots that one HTTP response embeds with `live_embed` (§1.7): a classic handler owns
// its page, so the roots are numbered per response (fz-1, fz-2, ...) and the first one carries
// the page's live assets. The generated route wrapper makes one per request.
class EmbedScope {
 public:
  explicit EmbedScope(const http::Request& req) : req_(req) {}
  const http::Request& request() const { return req_; }
  // The next root's id; `*first` is true for the response's first root.
  std::string next_root_id(bool* first) {
    *first = count_ == 0;
    return "fz-" + std::to_string(++count_);
  }

 private:
  const http::Request& req_;
  int count_ = 0;
};

// What `mount` returns; keep it alive while the app serves (the routes refer to it).
class Live {
 public:
  Live(const ViewRegistry& registry, LiveConfig config) : registry_(registry), config_(std::move(config)) {}
  // The live root of `view` with `props_json` for this request (the user comes from its
  // cookies), or "" with `*error` set.
  std::string render_root(const http::Request& req, std::string_view view, std::string_view props_json,
                          std::string* error, std::string_view root_id = "fz-1") const;
  // The same when the view's `on mount` is async: awaited, not run inside the loop's turn.
  // `*error` must outlive the task.
  Task<std::string> render_root_async(const http::Request& req, std::string_view view, std::string_view props_json,
                                      std::string* error, std::string_view root_id = "fz-1") const;
  // `live_embed(props)` in a handler: the live root of `view` like render_root, its join token
  // bound to the user of `scope`'s request. The response's first root is preceded by the
  // assets default_page puts in <head> (the collected `styles`, the banner CSS, the client
  // script), since the handler's own markup cannot know them. "" with `*error` set on failure.
  std::string embed(EmbedScope& scope, std::string_view view, std::string_view props_json, std::string_view styles,
                    std::string* error) const;
  const ViewRegistry& registry() const { return registry_; }
  const LiveConfig& config() const { return config_; }
  // Pubsub, presence and the running timers of every connection (`active_timers()` is the
  // `fitz_live_active_timers` gauge).
  LiveHub& hub() { return hub_; }

 private:
  const ViewRegistry& registry_;
  LiveConfig config_;
  LiveHub hub_;
};

// Registers the client script and the socket endpoint on `app` (the `hub` is the app's
// WebSocket hub). `registry` must outlive the app. Publishes travel to other replicas with the
// hub's broadcasts when it runs with FITZ_WS_PUBSUB=postgres.
std::shared_ptr<Live> mount(http::App& app, ws::Hub& hub, const ViewRegistry& registry, LiveConfig config);

}  // namespace fitz::live
