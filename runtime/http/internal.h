// Internals of the HTTP runtime shared by its .cpp files and unit tests: the router, the app
// state built from the registered routes, the request pipeline and observability. No Boost:
// only server.cpp knows Asio and Beast.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>

#include "fitz/http.h"
#include "http/static_files.h"

namespace fitz::http {

// ---- Router -------------------------------------------------------------------------------
//
// A segment trie compiled from the route templates. Static segments win over a parameter at
// the same position; matching backtracks so `/users/me` and `/users/{id}` coexist. Paths are
// matched segment by segment after percent-decoding each segment, so `%2F` never splits one.
// A trailing slash is significant (`/users/` is not `/users`), as in the first implementation.
class Router {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  struct Match {
    enum Kind : uint8_t { Found, NotFound, MethodNotAllowed } kind = NotFound;
    uint32_t route_id = kNone;
    uint32_t node = kNone;    // the path's node (Found / MethodNotAllowed)
    uint32_t allow_mask = 0;  // methods registered on that node
  };

  // Adds `path` (no query part). False with a message for a bad template or a repeat.
  bool add(Method m, std::string_view path, uint32_t route_id, std::string* error);
  // HEAD falls back to GET. `params` receives the decoded parameter values.
  Match match(Method m, std::string_view path, std::vector<Str>* params) const;
  // "GET, HEAD, POST" for a method mask (HEAD listed when GET is).
  static std::string allow_header(uint32_t mask);

  uint32_t node_count() const { return uint32_t(nodes_.size()); }
  uint32_t node_mask(uint32_t node) const { return nodes_[node].mask; }
  uint32_t route_at(uint32_t node, Method m) const { return nodes_[node].routes[size_t(m)]; }

 private:
  struct Node {
    std::vector<std::pair<std::string, uint32_t>> statics;  // segment -> child
    uint32_t param_child = kNone;
    uint32_t routes[kMethodCount] = {kNone, kNone, kNone, kNone, kNone, kNone, kNone};
    uint32_t mask = 0;
  };
  bool walk(uint32_t node, std::string_view rest, Method m, std::vector<Str>* params,
            Match* fallback, Match* out) const;

  std::vector<Node> nodes_{Node{}};
};

// The `boundary` parameter of a Content-Type value (1 to 70 characters).
bool multipart_boundary(Text content_type, std::string* boundary);
// False with a message for a malformed body (no boundary line, unterminated headers, a part
// without a name, a text part that is not UTF-8, no closing boundary, over 1000 parts).
bool parse_multipart(Text body, std::string_view boundary, std::vector<MultipartPart>* parts, std::string* error);

// Splits "/users/{id}?limit={limit}" into the path and the query placeholder names, and
// checks the path: starts with '/', `{name}` segments are identifiers, no repeated names.
bool parse_template(std::string_view tmpl, std::string* path, std::vector<std::string>* params,
                    std::vector<std::string>* query, std::string* error);

namespace detail {

struct Middleware {
  SyncBefore before;
  AsyncBefore before_async;
  SyncAfter after;
  AsyncAfter after_async;
  SyncAround around;
  AsyncAround around_async;
};

struct RouteEntry {
  Method method = Method::Get;
  std::string tmpl;  // as registered (with query part)
  std::string path;  // path part
  std::vector<std::string> param_names;
  std::vector<std::string> query_names;
  Str operation_id;
  SyncHandler handler;
  AsyncHandler handler_async;
  std::vector<Middleware> befores, afters, arounds;  // registration order
  Nullable<CorsOptions> cors;
  bool builtin = false;
  int64_t max_body_bytes = 0;  // `@body_limit`; 0: the server's
  // Filled by finalize:
  std::vector<const Middleware*> all_befores, all_afters, all_arounds;  // globals first
  bool all_sync = true;
  int32_t cors_id = -1;  // merged options of the route's path
};

// Per-thread metrics (only with prometheus); /metrics sums them.
struct MetricsShard {
  std::mutex mu;
  struct Series {
    int32_t route_id;
    uint16_t status;
    uint8_t method;
    uint64_t count = 0;
    double sum = 0;
    uint64_t buckets[12] = {};
  };
  std::vector<Series> series;
};

struct AppState {
  ServerConfig cfg;
  std::vector<RouteEntry> routes;
  Middleware* none = nullptr;
  std::vector<Middleware> global_befores, global_afters, global_arounds;
  Router router;
  std::vector<CorsOptions> cors;          // merged per path
  std::vector<int32_t> node_cors;         // router node -> cors id
  Fn<bool()> health_check, ready_check;
  Str openapi_json, docs_html;
  bool finalized = false;
  // Set by finalize: the largest body any route accepts, and whether some route has a limit of
  // its own (the server then reads a request's header before choosing its body limit).
  int64_t body_limit_max = 0;
  bool route_body_limits = false;
  std::string finalize_error;
  std::vector<StaticMount> statics;  // cfg.static_dirs, resolved by finalize
  std::atomic<bool> draining{false};
  std::mutex metrics_mu;
  std::vector<MetricsShard*> shards;
  std::vector<Fn<Str()>> metric_sources;  // App::add_metrics
  void* server = nullptr;  // the running server (server.cpp)
  App::UpgradeFn upgrade_fn = nullptr;  // App::on_upgrade
  void* upgrade_ctx = nullptr;
  uint64_t generation;     // tells apart apps that reuse an address (per-thread metrics)

  AppState();

  ~AppState();
};

// Builds the router and the per-route chains; adds the built-in routes whose paths the
// program did not take. Idempotent. False with `finalize_error` set on a bad route table.
bool finalize(AppState& app);

// The body limit of a request for `target` (path and query, as sent) with method `m`: the
// matched route's `@body_limit`, else the server's.
int64_t body_limit_for(const AppState& app, Method m, std::string_view target);

// Result of running the pipeline for one request: ready, or a task that will produce it.
struct Outcome {
  bool ready = true;
  Response response;
  Task<Response> task;
};

// Routing, middleware, handler, CORS, errors. `req.path`/`raw_path` must be set.
Outcome dispatch(AppState& app, Request& req);
// After the response is known (sync or async): X-Request-Id (added to `resp` unless the
// caller writes it itself), access log, metrics.
void finish(AppState& app, Request& req, Response& resp, bool add_id_header = true);
// Fills req.request_id (echo a sane X-Request-Id or generate one) and req.start_ns.
void begin_request(AppState& app, Request& req);

// The response for a handler that raised a runtime error.
Response panic_response(const Panic& p);

// Splits a target into raw path and query, decodes the path. False on a bad escape.
bool split_target(Request& req);

// Access log: appended to a per-thread buffer, written to stderr in whole lines when the
// buffer is large and by the server's periodic flush.
void log_line(const Buf& line);
void flush_log();
int64_t now_ns();

// Prometheus text for /metrics.
Str metrics_text(AppState& app);

}  // namespace detail
}  // namespace fitz::http
