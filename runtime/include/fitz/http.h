// The HTTP runtime as generated programs see it: `Request`, `Response`, parameter binding,
// CORS options, server configuration and the `App` builder. The server itself (Boost.Beast on
// one Asio event loop per core) lives in runtime/http/*.cpp; this header has no Boost or Asio
// include so a generated program still compiles in about a second.
//
//   fitz::http::App app;
//   app.config().port = 8080;
//   app.route(fitz::http::Method::Get, "/users/{id}", [](fitz::http::Request& req) {
//     fitz::http::Binder b(req);
//     int64_t id = b.path_int(0, "id");
//     if (b.failed()) return b.error();
//     return fitz::http::Response::json_value(200, id);
//   });
//   return app.run();  // honours PORT / HOST, stops on SIGINT / SIGTERM
#pragma once

#include "fitz/http/json.h"
#include "fitz/runtime.h"

namespace fitz::http {

enum class Method : uint8_t { Get, Head, Post, Put, Patch, Delete, Options };
inline constexpr size_t kMethodCount = 7;
const char* method_name(Method m);           // "GET"
bool parse_method(Text s, Method* out);      // exact, upper-case

struct Header {
  Text name;
  Text value;
};

// One request. Views (`Text`) point into the connection's buffers and stay valid until the
// response has been sent, including across suspensions of an async handler.
class Request {
 public:
  Method method = Method::Get;
  Text target;              // as sent: path and query
  Text raw_path;            // before percent-decoding
  Text raw_query;           // after '?', without it; empty when absent
  Str path;                 // percent-decoded, no query string
  const char* route = "";   // the matched template, e.g. "/users/{id}" ("" when none)
  int32_t route_id = -1;
  std::vector<Str> params;  // path parameters in template order, percent-decoded
  std::vector<Header> headers;
  Text body;
  // The storage of `body` when the server owns it (else null). Binding a large multipart file
  // part takes the block over as the file's Bytes, and `body` is empty afterwards.
  Buf* body_store = nullptr;
  Text request_id;          // echoed X-Request-Id or a generated one (empty when off)
  TraceContext trace;       // trace (from a valid `traceparent` or new) and span ids; logs read it
  int64_t start_ns = 0;
  void* user = nullptr;     // free slot for middleware (e.g. the authenticated user)
  // False for a request refused before its request line was understood: the access log then
  // records no method (`"-"`) rather than a made-up GET.
  bool line_parsed = true;

  Str method_str() const { return Str(method_name(method)); }
  // Header lookup ignores case; the last occurrence wins.
  Nullable<Str> header(Text name) const;
  bool header_text(Text name, Text* out) const;
  // Query lookup: `+` is a space, `%XX` decoded, the last occurrence wins.
  Nullable<Str> query(Text name) const;
  Map<Str, Str> header_map() const;  // names lower-cased
  Map<Str, Str> query_map() const;
  Str body_str() const { return body.str(); }
  Bytes body_bytes() const { return Bytes(body.data, body.size); }
  // The main type of Content-Type, lower-cased, without parameters ("" when absent).
  Str content_type() const;

  // Storage the server reuses between requests.
  char id_buf[40] = {};
};

// One response. `content_type` is sent as Content-Type unless empty.
struct Response {
  int status = 200;
  Str content_type = Str::lit("application/json");
  std::vector<std::pair<Str, Str>> headers;
  Str body;

  static Response json(int status, Str json_text) {
    Response r;
    r.status = status;
    r.body = static_cast<Str&&>(json_text);
    return r;
  }
  template <class T> static Response json_value(int status, const T& v) {
    return json(status, to_json(v));
  }
  // {"error": msg}
  static Response error(int status, Text msg);
  static Response text(int status, Str body, Str content_type = Str::lit("text/plain; charset=utf-8"));
  static Response empty(int status);

  void set_header(Str name, Str value);  // replaces (case-insensitive)
  void add_header(Str name, Str value);  // one more, never folded (Set-Cookie)
  Nullable<Str> header(Text name) const;
};

// `Result` handlers: Ok(v) → 200 v; Err("msg") → 500 {"error": "msg"}; any other Err → 500
// {"error": <e as JSON>}. (An Err carrying a `status` field is mapped by generated code.)
template <class T, class E> Response respond(const Result<T, E>& r) {
  if (r.is_ok()) return Response::json_value(200, r.value());
  if constexpr (std::is_same_v<E, Str>) {
    return Response::error(500, Text(r.error()));
  } else {
    Buf b;
    JsonWriter w(b);
    w.begin_object();
    w.key("error");
    w.value(r.error());
    w.end_object();
    return Response::json(500, b.take());
  }
}

// A file part of a multipart/form-data body, as Fitz code sees it (the built-in `File`).
struct File {
  static constexpr const char* fitz_name = "File";
  static constexpr const char* fitz_field_names[] = {"name", "content_type", "content"};
  Nullable<Str> name;          // the part's filename
  Nullable<Str> content_type;
  Bytes content;
  auto fitz_fields() const { return std::tie(name, content_type, content); }
  auto fitz_fields() { return std::tie(name, content_type, content); }
};

// One part of a multipart/form-data body; `data` points into the request body.
struct MultipartPart {
  Str name;
  bool is_file = false;
  Nullable<Str> filename;
  Nullable<Str> content_type;
  Text data;
};

// Parameter binding with the spec's 400 messages. Every getter returns a default value once
// a parameter failed; generated code binds everything, then checks `failed()` once:
//
//   fitz::http::Binder b(req);
//   int64_t id = b.path_int(0, "id");
//   fitz::Nullable<int64_t> limit = b.query_int_opt("limit");
//   if (b.failed()) return b.error();
class Binder {
 public:
  // Out of line: every route's wrapper makes one, so its error Response's construction and
  // destruction are compiled once here instead of in each wrapper.
  explicit Binder(const Request& r);
  ~Binder();

  int64_t path_int(size_t i, const char* name);
  double path_float(size_t i, const char* name);
  bool path_bool(size_t i, const char* name);
  Str path_str(size_t i, const char* name);

  int64_t query_int(const char* name);
  double query_float(const char* name);
  bool query_bool(const char* name);
  Str query_str(const char* name);
  Nullable<int64_t> query_int_opt(const char* name);
  Nullable<double> query_float_opt(const char* name);
  Nullable<bool> query_bool_opt(const char* name);
  Nullable<Str> query_str_opt(const char* name);

  Str header_str(const char* name);            // required: 400 when absent
  Nullable<Str> header_opt(const char* name);
  // `@cookie`: the first cookie of that name, percent-decoded (fitz/http/cookies.h).
  Str cookie_str(const char* name);            // required: 400 when absent
  Nullable<Str> cookie_opt(const char* name);

  // The body decoded as T (JSON). Checks Content-Type (415), emptiness and decoding (400,
  // "body for 'T': ..." with the field path). `type_name` names T in messages.
  template <class T> T body_json(const char* type_name) {
    T out{};
    if (failed_) return out;
    JsonReader* r = start_body(type_name);
    if (!r) return out;
    bool ok = from_json(*r, &out);
    finish_body(r, ok, type_name);
    return out;
  }
  // application/x-www-form-urlencoded, multipart/form-data text parts (a file part is a
  // 400) or a JSON object of strings, as a map.
  Map<Str, Str> body_form();
  // multipart/form-data: text parts as Str, file parts as File (400 when malformed).
  bool is_multipart() const;
  Map<Str, Any> body_multipart();

  bool failed() const { return failed_; }
  const Response& error() const { return err_; }
  void fail(int status, Text msg);

 private:
  JsonReader* start_body(const char* type_name);
  void finish_body(JsonReader* r, bool ok, const char* type_name);
  bool path_text(size_t i, const char* name, Text* out);
  bool multipart_parts(std::vector<MultipartPart>* parts);
  int query_text(const char* name, Str* out);  // 0 absent, 1 present

  const Request& req_;
  bool failed_ = false;
  Response err_;
};

// `@server(login_path=)`: when `denied` is a 401 and the request's Accept prefers text/html
// over application/json (a browser navigating), a 302 to `login_path?next=<the original path
// and query, percent-encoded>`; otherwise `denied` as it is.
Response login_redirect(const Request& req, Response denied, Text login_path);
// Whether Accept gives text/html a higher quality than application/json (`*/*` and `type/*`
// count for both; a missing Accept prefers neither).
bool accept_prefers_html(Text accept);

// Parsers for parameter text (Int: optional sign and digits, in range; Float: a decimal or
// exponent number; Bool: `true` / `false`).
bool parse_int(Text s, int64_t* out);
bool parse_float(Text s, double* out);
bool parse_bool(Text s, bool* out);
// Percent-decoding; `plus_space` for query strings and forms. False on a bad escape.
bool percent_decode(Text s, bool plus_space, Buf* out);
// application/x-www-form-urlencoded: `+` is a space, `%XX` decoded, a repeated key keeps the
// last value. False on a bad escape.
bool parse_form(Text s, Map<Str, Str>* out);

// `@middleware(cors({...}))`.
struct CorsOptions {
  enum class Origin : uint8_t { Any, List, Echo };
  Origin origin = Origin::Any;
  std::vector<Str> origins;  // Origin::List (one origin is a list of one)
  std::vector<Str> methods{Str::lit("GET"), Str::lit("POST"), Str::lit("PUT"), Str::lit("DELETE"),
                           Str::lit("OPTIONS")};
  std::vector<Str> headers{Str::lit("content-type"), Str::lit("authorization")};
  int64_t max_age = -1;  // seconds; -1: not sent
  bool allow_credentials = false;

  // From the map literal of `cors({...})`: allow_origin ("*", "echo", one origin or a list),
  // allow_methods, allow_headers (lists of strings), max_age (Int), allow_credentials (Bool).
  static Result<CorsOptions, Str> from_map(const Map<Str, Any>& m);
  // Routes sharing a path merge their settings: union of methods and headers, the largest
  // max_age, the first origin setting.
  void merge(const CorsOptions& o);
};
// The CORS headers of a normal response for a request with this Origin.
void cors_apply(const CorsOptions& c, Text origin, Response& resp);
// The automatic OPTIONS preflight: 204 with the access-control-allow-* headers.
Response cors_preflight(const CorsOptions& c, Text origin);

struct ServerConfig {
  int64_t port = 3000;              // 0 picks an ephemeral port (tests)
  Str host = Str::lit("127.0.0.1");  // IP literal or "localhost"
  bool docs = true;                 // /openapi.json and /docs when a document is set
  Str api_version = Str::lit("0.1.0");
  int64_t shutdown_timeout_secs = 30;
  int64_t drain_delay_ms = 2000;    // /readyz answers 503 this long before connections close
  bool observability = true;        // X-Request-Id, access log, metrics
  bool access_log = true;           // one JSON line per request on stderr (with observability)
  bool prometheus = false;          // /metrics
  int64_t threads = 0;              // event loops; 0: one per core (FITZ_HTTP_THREADS overrides)
  int64_t max_header_bytes = 16 * 1024;
  int64_t max_body_bytes = 1024 * 1024;  // `@server(max_body_bytes=N)`; a route's `@body_limit` overrides it
  int64_t request_timeout_ms = 30000;  // from the first byte of a request to its last
  int64_t idle_timeout_ms = 60000;     // keep-alive connection without a request
  int64_t max_connections = 10000;     // further connections are closed at once
  bool handle_signals = true;       // SIGINT / SIGTERM start a graceful shutdown
  bool banner = true;               // print the address and routes at startup
  // `@server(static={"/assets": "public"})`: URL prefix and folder; a relative folder is found
  // beside the executable, in `project_dir` (where the program was built from) or the working
  // directory (runtime/http/static_files.h).
  std::vector<std::pair<Str, Str>> static_dirs;
  Str project_dir;
};

class Next;
namespace detail {
struct AppState;
struct RouteEntry;
template <class F, class... A> using ResultOf = decltype(std::declval<F&>()(std::declval<A>()...));
template <class T> inline constexpr bool is_task = false;
template <class T> inline constexpr bool is_task<Task<T>> = true;
}  // namespace detail

using SyncHandler = Fn<Response(Request&)>;
using AsyncHandler = Fn<Task<Response>(Request&)>;
using SyncBefore = Fn<Nullable<Response>(Request&)>;  // null: continue; a response: stop
using AsyncBefore = Fn<Task<Nullable<Response>>(Request&)>;
using SyncAfter = Fn<Response(Request&, Response)>;
using AsyncAfter = Fn<Task<Response>(Request&, Response)>;
using SyncAround = Fn<Response(Request&, Next&)>;
using AsyncAround = Fn<Task<Response>(Request&, Next&)>;

// What an around middleware calls to run the rest of the chain (inner middleware and the
// handler). `call()` is for sync arounds (every stage inside must be sync); `await()` works
// always.
class Next {
 public:
  Response call();
  Task<Response> await();

  Next(detail::AppState* app, const detail::RouteEntry* route, Request* req, size_t index)
      : app_(app), route_(route), req_(req), index_(index) {}

 private:
  detail::AppState* app_;
  const detail::RouteEntry* route_;
  Request* req_;
  size_t index_;
};

// Middleware attached to a route (or globally with App::use_*). Sync or async by the
// callable's return type.
class RouteRef {
 public:
  template <class F> RouteRef& before(F&& f) {
    if constexpr (detail::is_task<detail::ResultOf<F, Request&>>)
      add_before_async(AsyncBefore(std::forward<F>(f)));
    else
      add_before(SyncBefore(std::forward<F>(f)));
    return *this;
  }
  template <class F> RouteRef& after(F&& f) {
    if constexpr (detail::is_task<detail::ResultOf<F, Request&, Response>>)
      add_after_async(AsyncAfter(std::forward<F>(f)));
    else
      add_after(SyncAfter(std::forward<F>(f)));
    return *this;
  }
  template <class F> RouteRef& around(F&& f) {
    if constexpr (detail::is_task<detail::ResultOf<F, Request&, Next&>>)
      add_around_async(AsyncAround(std::forward<F>(f)));
    else
      add_around(SyncAround(std::forward<F>(f)));
    return *this;
  }
  RouteRef& cors(CorsOptions c);
  RouteRef& name(Str operation_id);
  // `@body_limit(N)`: this route's request bodies may be up to `bytes` long (413 beyond),
  // instead of the server's `max_body_bytes`.
  RouteRef& max_body_bytes(int64_t bytes);

  RouteRef(detail::AppState* app, int32_t id) : app_(app), id_(id) {}

 private:
  void add_before(SyncBefore f);
  void add_before_async(AsyncBefore f);
  void add_after(SyncAfter f);
  void add_after_async(AsyncAfter f);
  void add_around(SyncAround f);
  void add_around_async(AsyncAround f);

  detail::AppState* app_;
  int32_t id_;  // -1: global middleware
};

class App {
 public:
  App();
  explicit App(ServerConfig c);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  ServerConfig& config();

  // Registers a route. The template is a path with `{name}` segments, optionally followed by
  // a query part (`/users?limit={limit}`) that only documents the query parameters. Invalid
  // templates and repeated method+path pairs are reported by `start` / `run`.
  template <class F> RouteRef route(Method m, const char* path, F&& handler) {
    if constexpr (detail::is_task<detail::ResultOf<F, Request&>>)
      return add_route(m, path, SyncHandler(), AsyncHandler(std::forward<F>(handler)));
    else
      return add_route(m, path, SyncHandler(std::forward<F>(handler)), AsyncHandler());
  }
  template <class F> RouteRef get(const char* p, F&& h) { return route(Method::Get, p, std::forward<F>(h)); }
  template <class F> RouteRef post(const char* p, F&& h) { return route(Method::Post, p, std::forward<F>(h)); }
  template <class F> RouteRef put(const char* p, F&& h) { return route(Method::Put, p, std::forward<F>(h)); }
  template <class F> RouteRef patch(const char* p, F&& h) { return route(Method::Patch, p, std::forward<F>(h)); }
  template <class F> RouteRef del(const char* p, F&& h) { return route(Method::Delete, p, std::forward<F>(h)); }

  // Middleware for every user route, outside the per-route middleware.
  RouteRef use() { return RouteRef(state_, -1); }

  // `@healthz` / `@readyz`: false → 503 {"status":"unhealthy"}.
  void healthz(Fn<bool()> check);
  void readyz(Fn<bool()> check);
  // The OpenAPI document (built at compile time), served at /openapi.json with a /docs page
  // unless `docs` is off. `docs_html` replaces the built-in offline page.
  void openapi(Str json, Str docs_html = Str());

  // Serves until SIGINT / SIGTERM, then shuts down gracefully. PORT and HOST in the
  // environment override the configuration. Returns the process exit status.
  int run();

  // For embedding and tests: `start` binds and returns once accepting (false with a message
  // on error); `port` is the bound port; `shutdown` drains and stops like SIGTERM; `wait`
  // blocks until the server stopped.
  bool start(Str* error);
  int port() const;
  void shutdown();
  void wait();
  bool draining() const;

  // Runs one request through routing and the pipeline without a socket (tests). Async
  // handlers are driven on the calling thread's loop.
  Response handle(Request& req);

  // Connection takeover for protocol upgrades (runtime/ws). When a route answers 101, the
  // server does not write the response: it passes the connection's socket (a
  // `boost::asio::ip::tcp::socket*`, to be moved from) and the parsed request (a
  // header, a `boost::beast::http::request_header<>*`, likewise) to `fn`, on the connection's event
  // loop, and forgets the connection. Opaque pointers keep Boost out of this header.
  using UpgradeFn = void (*)(void* ctx, void* socket, void* request, Response& resp);
  void on_upgrade(UpgradeFn fn, void* ctx);

  // More Prometheus text for /metrics (with `prometheus`), from a runtime built on the App,
  // e.g. the live views' `fitz_live_active_timers` gauge. Called on each scrape, from any
  // thread; add before serving.
  void add_metrics(Fn<Str()> source);

 private:
  RouteRef add_route(Method m, const char* path, SyncHandler s, AsyncHandler a);
  detail::AppState* state_;
};

}  // namespace fitz::http
