// One live-view socket as a state machine without I/O (views.md §2.2, §2.6, §2.7): client
// frames go in, server frames (and perhaps a close code) come out. The WebSocket runner in
// runtime/live/server only moves bytes; everything a test needs to check lives here.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "fitz/live/frames.h"
#include "fitz/live/instances.h"
#include "fitz/live/token.h"
#include "fitz/live/view.h"
#include "fitz/live/view_state.h"

namespace fitz::live {

// Origin check before the upgrade (§2.2): the Origin's host[:port] equals the Host header
// (case-insensitive), or the whole Origin (scheme://host[:port]) is on the allowlist. A missing
// Origin is refused: every browser sends one on a WebSocket handshake.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowlist);

// What one inbound frame produced: frames to send in order, then a close when `close_code` != 0.
struct ConnectionOutput {
  std::vector<std::string> frames;
  uint16_t close_code = 0;
  std::string close_reason;
};

struct ConnectionOptions {
  // The user derived from the upgrade request's cookies; nullopt when the app has no user
  // resolver (then tokens are not matched to a user). "" is an anonymous user.
  std::optional<std::string> user;
  bool dev = true;  // `error` frames carry their message
  // This server's build (see LiveConfig::build_id); "" turns the check off.
  std::string build_id;
  double max_events_per_sec = 50;
  double event_burst = 100;
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

 private:
  struct Mounted {
    std::unique_ptr<View> view;
    ViewState state;
    uint32_t root = 0;
    std::string view_name;   // the component and props of its token, for a remount
    std::string props_json;
  };
  void join(const ClientFrame& f, int64_t now_ms, ConnectionOutput& out);
  void event(const ClientFrame& f, ConnectionOutput& out);
  void start(const std::string& view_id, const std::string& view, const std::string& props, int64_t ref,
             ConnectionOutput& out);
  void restart(Mounted& m, int64_t ref, ConnectionOutput& out);
  void leave(const std::string& view_id);
  Node render_root(Mounted& m);
  std::string error(std::string_view view, int64_t ref, std::string_view code, std::string_view msg) const;

  const ViewRegistry& registry_;
  const TokenKey& key_;
  ConnectionOptions options_;
  InstanceTable instances_;
  RateLimiter rate_;
  std::map<std::string, Mounted, std::less<>> views_;  // by live root id ("fz-1")
  bool closed_ = false;
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
};
std::string render_root_html(const ViewRegistry& registry, const TokenKey& key, const RootRender& r,
                             std::string* error);

}  // namespace fitz::live
